/* mvt.c - host driver of the mvt benchmark (PolyBench/GPU MVT): x1 += A y1 by
 * a thread-per-row kernel and x2 += A^T y2 by a thread-per-column kernel, 256
 * threads per CTA, seeded random inputs in [0, 1), float results checked with
 * a relative tolerance against a CPU loop in the same summation order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MVT_BLOCK 256

static const int mvt_n[BENCH_NSIZES] = {512, 2048, 4096};

static int mvt_run(BenchRun *r) {
  int n = mvt_n[r->size];
  size_t vec = sizeof(float) * (size_t)n, a_bytes = vec * (size_t)n;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *k_rows = NULL, *k_cols = NULL;
  WsDevPtr d_a = 0, d_x1 = 0, d_x2 = 0, d_y1 = 0, d_y2 = 0;
  float *a = malloc(a_bytes), *x1 = malloc(vec), *x2 = malloc(vec), *y1 = malloc(vec), *y2 = malloc(vec);
  float *want_x1 = malloc(vec), *want_x2 = malloc(vec);
  if (!a || !x1 || !x2 || !y1 || !y2 || !want_x1 || !want_x2) {
    fprintf(r->log, "mvt: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t k = 0; k < (size_t)n * (size_t)n; k++) a[k] = bench_rng_float(&g);
  for (int i = 0; i < n; i++) {
    x1[i] = bench_rng_float(&g);
    x2[i] = bench_rng_float(&g);
    y1[i] = bench_rng_float(&g);
    y2[i] = bench_rng_float(&g);
  }

  /* CPU reference: same per-element fma order as the kernels. */
  memcpy(want_x1, x1, vec);
  memcpy(want_x2, x2, vec);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) want_x1[i] = fmaf(a[(size_t)i * n + j], y1[j], want_x1[i]);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) want_x2[i] = fmaf(a[(size_t)j * n + i], y2[j], want_x2[i]);
  if (r->verbose > 0)
    fprintf(r->log, "mvt: A is %dx%d floats; 2 kernels of %d CTAs of %d threads\n", n, n,
            (n + MVT_BLOCK - 1) / MVT_BLOCK, MVT_BLOCK);

  if (bench_load_module(r, "mvt", "mvt.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k_rows, mod, "mvt_rows"));
  BENCH_CK(r, ws_module_get_function(&k_cols, mod, "mvt_cols"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, a_bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_x1, vec));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_x2, vec));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_y1, vec));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_y2, vec));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, a_bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_x1, x1, vec));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_x2, x2, vec));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_y1, y1, vec));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_y2, y2, vec));

  void *rows_params[] = {&d_a, &d_x1, &d_y1, &n};
  void *cols_params[] = {&d_a, &d_x2, &d_y2, &n};
  unsigned grid = (unsigned)((n + MVT_BLOCK - 1) / MVT_BLOCK);
  BENCH_CK(r, ws_launch_kernel(k_rows, grid, 1, 1, MVT_BLOCK, 1, 1, 0, rows_params));
  BENCH_CK(r, ws_launch_kernel(k_cols, grid, 1, 1, MVT_BLOCK, 1, 1, 0, cols_params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, x1, d_x1, vec));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, x2, d_x2, vec));

  size_t bad = bench_check_f32(r, "x1", x1, want_x1, (size_t)n, 1e-5, 0.0);
  bad += bench_check_f32(r, "x2", x2, want_x2, (size_t)n, 1e-5, 0.0);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_x1) ws_mem_free(r->ctx, d_x1);
  if (d_x2) ws_mem_free(r->ctx, d_x2);
  if (d_y1) ws_mem_free(r->ctx, d_y1);
  if (d_y2) ws_mem_free(r->ctx, d_y2);
  if (mod) ws_module_unload(mod);
  free(a);
  free(x1);
  free(x2);
  free(y1);
  free(y2);
  free(want_x1);
  free(want_x2);
  return status;
}

const BenchDesc bench_desc_mvt = {
    .name = "mvt",
    .summary = "PolyBench MVT x1 += A y1, x2 += A^T y2: thread-per-row walk of A + coalesced column walk",
    .papers = "iWarp",
    .suite = "I",
    .sizes = {"512x512", "2048x2048 (iWarp's scaled-down input)", "4096x4096 (PolyBench/GPU default)"},
    .run = mvt_run,
};
