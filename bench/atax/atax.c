/* atax.c - host driver of the atax benchmark (PolyBench/GPU ATAX): tmp = A x
 * by a thread-per-row kernel, then y = A^T tmp by a thread-per-column kernel,
 * 256 threads per CTA, seeded random A and x in [0, 1), float results checked
 * with a relative tolerance against a CPU loop in the same summation order. */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

#define ATAX_BLOCK 256

static const int atax_n[BENCH_NSIZES] = {512, 2048, 4096};

static int atax_run(BenchRun *r) {
  int nx = atax_n[r->size], ny = atax_n[r->size];
  size_t a_bytes = sizeof(float) * (size_t)nx * (size_t)ny;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *k_rows = NULL, *k_cols = NULL;
  WsDevPtr d_a = 0, d_x = 0, d_tmp = 0, d_y = 0;
  float *a = malloc(a_bytes), *x = malloc(sizeof(float) * (size_t)ny);
  float *tmp = malloc(sizeof(float) * (size_t)nx), *y = malloc(sizeof(float) * (size_t)ny);
  float *want_tmp = calloc((size_t)nx, sizeof(float)), *want_y = calloc((size_t)ny, sizeof(float));
  if (!a || !x || !tmp || !y || !want_tmp || !want_y) {
    fprintf(r->log, "atax: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t k = 0; k < (size_t)nx * (size_t)ny; k++) a[k] = bench_rng_float(&g);
  for (int j = 0; j < ny; j++) x[j] = bench_rng_float(&g);

  /* CPU reference: same per-element fma order as the kernels. */
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) want_tmp[i] = fmaf(a[(size_t)i * ny + j], x[j], want_tmp[i]);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) want_y[j] = fmaf(a[(size_t)i * ny + j], want_tmp[i], want_y[j]);
  if (r->verbose > 0)
    fprintf(r->log, "atax: A is %dx%d floats; %d + %d CTAs of %d threads\n", nx, ny,
            (nx + ATAX_BLOCK - 1) / ATAX_BLOCK, (ny + ATAX_BLOCK - 1) / ATAX_BLOCK, ATAX_BLOCK);

  if (bench_load_module(r, "atax", "atax.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k_rows, mod, "atax_rows"));
  BENCH_CK(r, ws_module_get_function(&k_cols, mod, "atax_cols"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, a_bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_x, sizeof(float) * (size_t)ny));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_tmp, sizeof(float) * (size_t)nx));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_y, sizeof(float) * (size_t)ny));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, a_bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_x, x, sizeof(float) * (size_t)ny));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_tmp, 0, (size_t)nx));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_y, 0, (size_t)ny));

  void *rows_params[] = {&d_a, &d_x, &d_tmp, &nx, &ny};
  void *cols_params[] = {&d_a, &d_y, &d_tmp, &nx, &ny};
  BENCH_CK(r, ws_launch_kernel(k_rows, (unsigned)((nx + ATAX_BLOCK - 1) / ATAX_BLOCK), 1, 1, ATAX_BLOCK, 1, 1,
                               0, rows_params));
  BENCH_CK(r, ws_launch_kernel(k_cols, (unsigned)((ny + ATAX_BLOCK - 1) / ATAX_BLOCK), 1, 1, ATAX_BLOCK, 1, 1,
                               0, cols_params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, tmp, d_tmp, sizeof(float) * (size_t)nx));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, y, d_y, sizeof(float) * (size_t)ny));

  size_t bad = bench_check_f32(r, "tmp", tmp, want_tmp, (size_t)nx, 1e-5, 0.0);
  bad += bench_check_f32(r, "y", y, want_y, (size_t)ny, 1e-5, 0.0);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_x) ws_mem_free(r->ctx, d_x);
  if (d_tmp) ws_mem_free(r->ctx, d_tmp);
  if (d_y) ws_mem_free(r->ctx, d_y);
  if (mod) ws_module_unload(mod);
  free(a);
  free(x);
  free(tmp);
  free(y);
  free(want_tmp);
  free(want_y);
  return status;
}

const BenchDesc bench_desc_atax = {
    .name = "atax",
    .summary = "PolyBench ATAX y = A^T A x: thread-per-row walk of A (8-16 KB/thread, intra-warp thrashing)",
    .papers = "iWarp",
    .suite = "I",
    .sizes = {"512x512", "2048x2048 (iWarp's scaled-down input)", "4096x4096 (PolyBench/GPU default)"},
    .run = atax_run,
};
