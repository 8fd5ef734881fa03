/* vecadd.c - host driver of the vecadd benchmark: c[i] = a[i] + b[i] over
 * seeded random float vectors, 256 threads per CTA, checked exactly against
 * the CPU (a single IEEE addition rounds the same on both sides). */
#include <stdlib.h>

#include "bench.h"

#define VECADD_BLOCK 256

static const int vecadd_sizes[BENCH_NSIZES] = {1 << 17, 1 << 22, 1 << 24};

static int vecadd_run(BenchRun *r) {
  int n = vecadd_sizes[r->size];
  size_t bytes = (size_t)n * sizeof(float);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_a = 0, d_b = 0, d_c = 0;
  float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *want = malloc(bytes);
  if (!a || !b || !c || !want) {
    fprintf(r->log, "vecadd: out of host memory\n");
    goto fail;
  }

  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (int i = 0; i < n; i++) {
    a[i] = bench_rng_range(&g, -100.0f, 100.0f);
    b[i] = bench_rng_range(&g, -100.0f, 100.0f);
    want[i] = a[i] + b[i];
  }
  if (r->verbose > 0)
    fprintf(r->log, "vecadd: n = %d floats, %d CTAs of %d threads\n", n,
            (n + VECADD_BLOCK - 1) / VECADD_BLOCK, VECADD_BLOCK);

  if (bench_load_module(r, "vecadd", "vecadd.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "vecadd"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_b, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_c, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_b, b, bytes));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_c, 0, (size_t)n));

  void *params[] = {&d_a, &d_b, &d_c, &n};
  unsigned grid = (unsigned)((n + VECADD_BLOCK - 1) / VECADD_BLOCK);
  BENCH_CK(r, ws_launch_kernel(fn, grid, 1, 1, VECADD_BLOCK, 1, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, c, d_c, bytes));

  status = bench_check_f32(r, "c", c, want, (size_t)n, 0.0, 0.0) ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_b) ws_mem_free(r->ctx, d_b);
  if (d_c) ws_mem_free(r->ctx, d_c);
  if (mod) ws_module_unload(mod);
  free(a);
  free(b);
  free(c);
  free(want);
  return status;
}

const BenchDesc bench_desc_vecadd = {
    .name = "vecadd",
    .summary = "vector addition c = a + b, one thread per element: streaming, no reuse (smoke test)",
    .papers = "-",
    .suite = "core",
    .sizes = {"131072 floats (512 CTAs)", "4194304 floats (16384 CTAs)", "16777216 floats (65536 CTAs)"},
    .run = vecadd_run,
};
