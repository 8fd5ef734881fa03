/* bicg.c - host driver of the bicg benchmark (PolyBench/GPU BICG): s = A^T r
 * by a thread-per-column kernel and q = A p by a thread-per-row kernel, 256
 * threads per CTA, seeded random inputs in [0, 1), float results checked with
 * a relative tolerance against a CPU loop in the same summation order. */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

#define BICG_BLOCK 256

static const int bicg_n[BENCH_NSIZES] = {512, 2048, 4096};

static int bicg_run(BenchRun *r) {
  int nx = bicg_n[r->size], ny = bicg_n[r->size];
  size_t a_bytes = sizeof(float) * (size_t)nx * (size_t)ny;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *k_cols = NULL, *k_rows = NULL;
  WsDevPtr d_a = 0, d_r = 0, d_p = 0, d_s = 0, d_q = 0;
  float *a = malloc(a_bytes), *rv = malloc(sizeof(float) * (size_t)nx),
        *p = malloc(sizeof(float) * (size_t)ny);
  float *s = malloc(sizeof(float) * (size_t)ny), *q = malloc(sizeof(float) * (size_t)nx);
  float *want_s = calloc((size_t)ny, sizeof(float)), *want_q = calloc((size_t)nx, sizeof(float));
  if (!a || !rv || !p || !s || !q || !want_s || !want_q) {
    fprintf(r->log, "bicg: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t k = 0; k < (size_t)nx * (size_t)ny; k++) a[k] = bench_rng_float(&g);
  for (int i = 0; i < nx; i++) rv[i] = bench_rng_float(&g);
  for (int j = 0; j < ny; j++) p[j] = bench_rng_float(&g);

  /* CPU reference: same per-element fma order as the kernels. */
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) want_s[j] = fmaf(a[(size_t)i * ny + j], rv[i], want_s[j]);
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) want_q[i] = fmaf(a[(size_t)i * ny + j], p[j], want_q[i]);
  if (r->verbose > 0)
    fprintf(r->log, "bicg: A is %dx%d floats; %d + %d CTAs of %d threads\n", nx, ny,
            (ny + BICG_BLOCK - 1) / BICG_BLOCK, (nx + BICG_BLOCK - 1) / BICG_BLOCK, BICG_BLOCK);

  if (bench_load_module(r, "bicg", "bicg.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k_cols, mod, "bicg_cols"));
  BENCH_CK(r, ws_module_get_function(&k_rows, mod, "bicg_rows"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, a_bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_r, sizeof(float) * (size_t)nx));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_p, sizeof(float) * (size_t)ny));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_s, sizeof(float) * (size_t)ny));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_q, sizeof(float) * (size_t)nx));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, a_bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_r, rv, sizeof(float) * (size_t)nx));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_p, p, sizeof(float) * (size_t)ny));
  /* Garbage in s and q: the kernels must zero them. */
  BENCH_CK(r, ws_memset_d32(r->ctx, d_s, 0x7fc00000u, (size_t)ny));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_q, 0x7fc00000u, (size_t)nx));

  void *cols_params[] = {&d_a, &d_r, &d_s, &nx, &ny};
  void *rows_params[] = {&d_a, &d_p, &d_q, &nx, &ny};
  BENCH_CK(r, ws_launch_kernel(k_cols, (unsigned)((ny + BICG_BLOCK - 1) / BICG_BLOCK), 1, 1, BICG_BLOCK, 1, 1,
                               0, cols_params));
  BENCH_CK(r, ws_launch_kernel(k_rows, (unsigned)((nx + BICG_BLOCK - 1) / BICG_BLOCK), 1, 1, BICG_BLOCK, 1, 1,
                               0, rows_params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, s, d_s, sizeof(float) * (size_t)ny));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, q, d_q, sizeof(float) * (size_t)nx));

  size_t bad = bench_check_f32(r, "s", s, want_s, (size_t)ny, 1e-5, 0.0);
  bad += bench_check_f32(r, "q", q, want_q, (size_t)nx, 1e-5, 0.0);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_r) ws_mem_free(r->ctx, d_r);
  if (d_p) ws_mem_free(r->ctx, d_p);
  if (d_s) ws_mem_free(r->ctx, d_s);
  if (d_q) ws_mem_free(r->ctx, d_q);
  if (mod) ws_module_unload(mod);
  free(a);
  free(rv);
  free(p);
  free(s);
  free(q);
  free(want_s);
  free(want_q);
  return status;
}

const BenchDesc bench_desc_bicg = {
    .name = "bicg",
    .summary = "PolyBench BICG s = A^T r, q = A p: coalesced column walk + thread-per-row walk of A",
    .papers = "iWarp",
    .suite = "I",
    .sizes = {"512x512", "2048x2048 (iWarp's scaled-down input)", "4096x4096 (PolyBench/GPU default)"},
    .run = bicg_run,
};
