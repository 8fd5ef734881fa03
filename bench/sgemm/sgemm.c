/* sgemm.c - host driver of the sgemm benchmark (Parboil SGEMM, register-tiled
 * "NT" kernel): seeded A (m x k, column-major), B^T (n x k) and C, alpha 1,
 * beta 0.5 (C is read and written); one launch of (m/128) x (n/16) CTAs of
 * 16 x 8 threads. Checked against a double-precision CPU product. */
#include "bench.h"

#include <stdlib.h>

#define SG_TILE_N 16
#define SG_TILE_H 8
#define SG_TILE_M 128

typedef struct SgemmSize {
  int m, n, k;
} SgemmSize;

/* paper: Parboil's medium input shape (A 1024 x 992, B 992 x 1056). m a multiple of 128,
 * n of 16, k of 8. */
static const SgemmSize sgemm_sizes[BENCH_NSIZES] = {{256, 128, 96}, {512, 512, 256}, {1024, 1056, 992}};

static int sgemm_run(BenchRun *r) {
  const SgemmSize sz = sgemm_sizes[r->size];
  const size_t na = (size_t)sz.m * sz.k, nb = (size_t)sz.n * sz.k, nc = (size_t)sz.m * sz.n;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_a = 0, d_b = 0, d_c = 0;
  float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c = malloc(nc * sizeof *c);
  float *got = malloc(nc * sizeof *got), *want = malloc(nc * sizeof *want);
  if (!a || !b || !c || !got || !want) {
    fprintf(r->log, "sgemm: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t i = 0; i < na; i++) a[i] = bench_rng_range(&g, -1.0f, 1.0f);
  for (size_t i = 0; i < nb; i++) b[i] = bench_rng_range(&g, -1.0f, 1.0f);
  for (size_t i = 0; i < nc; i++) c[i] = bench_rng_range(&g, -1.0f, 1.0f);
  if (r->verbose > 0)
    fprintf(r->log, "sgemm: C(%d x %d) = A(%d x %d) * B^T + 0.5 C, grid %d x %d\n", sz.m, sz.n, sz.m, sz.k,
            sz.m / SG_TILE_M, sz.n / SG_TILE_N);

  if (bench_load_module(r, "sgemm", "sgemm.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "sgemm_nt"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, na * sizeof(float)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_b, nb * sizeof(float)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_c, nc * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, na * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_b, b, nb * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_c, c, nc * sizeof(float)));
  int lda = sz.m, ldb = sz.n, ldc = sz.m, k = sz.k;
  float alpha = 1.0f, beta = 0.5f;
  void *params[] = {&d_a, &lda, &d_b, &ldb, &d_c, &ldc, &k, &alpha, &beta};
  BENCH_CK(r, ws_launch_kernel(fn, (unsigned)(sz.m / SG_TILE_M), (unsigned)(sz.n / SG_TILE_N), 1, SG_TILE_N,
                               SG_TILE_H, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_c, nc * sizeof(float)));

  for (int j = 0; j < sz.n; j++)
    for (int i = 0; i < sz.m; i++) {
      double s = 0.0;
      for (int kk = 0; kk < sz.k; kk++) s += (double)a[i + (size_t)kk * sz.m] * b[j + (size_t)kk * sz.n];
      want[i + (size_t)j * sz.m] = (float)(0.5 * c[i + (size_t)j * sz.m] + s);
    }
  /* Sums of k float products in [-1, 1): the float accumulation's error grows like
   * sqrt(k) * eps in the typical case and k * eps in the worst; abs 1e-6 * k, rel 1e-5. */
  status = bench_check_f32(r, "C", got, want, nc, 1e-5, 1e-6 * sz.k) ? BENCH_MISMATCH : BENCH_PASS;
fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_b) ws_mem_free(r->ctx, d_b);
  if (d_c) ws_mem_free(r->ctx, d_c);
  if (mod) ws_module_unload(mod);
  free(a);
  free(b);
  free(c);
  free(got);
  free(want);
  return status;
}

const BenchDesc bench_desc_sgemm = {
    .name = "sgemm",
    .summary = "Parboil SGEMM (register-tiled NT): 128x16 C blocks, 16 accumulators per thread, B "
               "tiles in shared memory; compute-bound, cache-insensitive",
    .papers = "coordinated bypassing",
    .suite = "II",
    .sizes = {"256x128, k 96", "512x512, k 256", "1024x1056, k 992 (Parboil medium's shape)"},
    .run = sgemm_run,
};
