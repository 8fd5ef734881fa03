/* gesummv.c - host driver of the gesummv benchmark (PolyBench/GPU GESUMMV):
 * y = alpha A x + beta B x by one thread-per-row kernel, 256 threads per CTA,
 * seeded random inputs in [0, 1), PolyBench's alpha/beta, float results
 * checked with a relative tolerance against a CPU loop in the same order. */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

#define GESUMMV_BLOCK 256
#define GESUMMV_ALPHA 43532.0f
#define GESUMMV_BETA 12313.0f

static const int gesummv_n[BENCH_NSIZES] = {512, 2048, 4096};

static int gesummv_run(BenchRun *r) {
  int n = gesummv_n[r->size];
  float alpha = GESUMMV_ALPHA, beta = GESUMMV_BETA;
  size_t vec = sizeof(float) * (size_t)n, m_bytes = vec * (size_t)n;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_a = 0, d_b = 0, d_x = 0, d_y = 0, d_tmp = 0;
  float *a = malloc(m_bytes), *b = malloc(m_bytes), *x = malloc(vec), *y = malloc(vec), *tmp = malloc(vec);
  float *want_y = malloc(vec), *want_tmp = malloc(vec);
  if (!a || !b || !x || !y || !tmp || !want_y || !want_tmp) {
    fprintf(r->log, "gesummv: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t k = 0; k < (size_t)n * (size_t)n; k++) a[k] = bench_rng_float(&g);
  for (size_t k = 0; k < (size_t)n * (size_t)n; k++) b[k] = bench_rng_float(&g);
  for (int j = 0; j < n; j++) x[j] = bench_rng_float(&g);

  /* CPU reference: same operation order as the kernel (fma per element, then
   * y = fma(tmp, alpha, beta * y)). */
  for (int i = 0; i < n; i++) {
    float t = 0.0f, s = 0.0f;
    for (int j = 0; j < n; j++) {
      t = fmaf(a[(size_t)i * n + j], x[j], t);
      s = fmaf(b[(size_t)i * n + j], x[j], s);
    }
    want_tmp[i] = t;
    want_y[i] = fmaf(t, alpha, beta * s);
  }
  if (r->verbose > 0)
    fprintf(r->log, "gesummv: A and B are %dx%d floats; %d CTAs of %d threads\n", n, n,
            (n + GESUMMV_BLOCK - 1) / GESUMMV_BLOCK, GESUMMV_BLOCK);

  if (bench_load_module(r, "gesummv", "gesummv.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "gesummv_rows"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, m_bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_b, m_bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_x, vec));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_y, vec));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_tmp, vec));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, m_bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_b, b, m_bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_x, x, vec));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_y, 0, (size_t)n));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_tmp, 0, (size_t)n));

  void *params[] = {&d_a, &d_b, &d_x, &d_y, &d_tmp, &n, &alpha, &beta};
  BENCH_CK(r, ws_launch_kernel(fn, (unsigned)((n + GESUMMV_BLOCK - 1) / GESUMMV_BLOCK), 1, 1, GESUMMV_BLOCK,
                               1, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, y, d_y, vec));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, tmp, d_tmp, vec));

  size_t bad = bench_check_f32(r, "tmp", tmp, want_tmp, (size_t)n, 1e-5, 0.0);
  bad += bench_check_f32(r, "y", y, want_y, (size_t)n, 1e-5, 0.0);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_b) ws_mem_free(r->ctx, d_b);
  if (d_x) ws_mem_free(r->ctx, d_x);
  if (d_y) ws_mem_free(r->ctx, d_y);
  if (d_tmp) ws_mem_free(r->ctx, d_tmp);
  if (mod) ws_module_unload(mod);
  free(a);
  free(b);
  free(x);
  free(y);
  free(tmp);
  free(want_y);
  free(want_tmp);
  return status;
}

const BenchDesc bench_desc_gesummv = {
    .name = "gesummv",
    .summary = "PolyBench GESUMMV y = aAx + bBx: thread-per-row walks of two matrices (uncoalesced)",
    .papers = "iWarp",
    .suite = "I",
    .sizes = {"512x512", "2048x2048", "4096x4096 (PolyBench/GPU default)"},
    .run = gesummv_run,
};
