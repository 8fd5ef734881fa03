/* lud.c - host driver of the lud benchmark: a random diagonally dominant
 * matrix is factored in place by the blocked diagonal/perimeter/internal kernel
 * sequence (Rodinia's launch order and geometry); the packed L\U result is
 * compared with an unblocked CPU Doolittle factorisation in double. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define LUD_BS 16

static const int lud_sizes[BENCH_NSIZES] = {128, 512, 256};

static int lud_run(BenchRun *r) {
  const int dim = lud_sizes[r->size];
  const size_t n2 = (size_t)dim * dim;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *k_diag = NULL, *k_peri = NULL, *k_int = NULL;
  WsDevPtr d_m = 0;
  BenchRng g;
  bench_rng_seed(&g, r->seed);

  float *a = malloc(sizeof(float) * n2);
  float *got = malloc(sizeof(float) * n2);
  float *want = malloc(sizeof(float) * n2);
  double *lu = malloc(sizeof(double) * n2);
  if (!a || !got || !want || !lu) {
    fprintf(r->log, "lud: out of host memory\n");
    goto fail;
  }
  /* Off-diagonal entries uniform in [0,1); the diagonal exceeds its row sum. */
  for (int i = 0; i < dim; i++) {
    double rowsum = 0.0;
    for (int j = 0; j < dim; j++) {
      float v = bench_rng_float(&g);
      a[(size_t)i * dim + j] = v;
      if (j != i) rowsum += v;
    }
    a[(size_t)i * dim + i] = (float)(rowsum + 1.0 + bench_rng_float(&g));
  }
  if (r->verbose > 0)
    fprintf(r->log, "lud: %dx%d diagonally dominant matrix, %d block steps of %d\n", dim, dim, dim / LUD_BS,
            LUD_BS);

  if (bench_load_module(r, "lud", "lud.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k_diag, mod, "lud_diagonal"));
  BENCH_CK(r, ws_module_get_function(&k_peri, mod, "lud_perimeter"));
  BENCH_CK(r, ws_module_get_function(&k_int, mod, "lud_internal"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_m, sizeof(float) * n2));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_m, a, sizeof(float) * n2));

  int dim_arg = dim, off = 0;
  void *params[] = {&d_m, &dim_arg, &off};
  for (off = 0; off < dim - LUD_BS; off += LUD_BS) {
    unsigned n = (unsigned)((dim - off) / LUD_BS - 1);
    BENCH_CK(r, ws_launch_kernel(k_diag, 1, 1, 1, LUD_BS, 1, 1, 0, params));
    BENCH_CK(r, ws_launch_kernel(k_peri, n, 1, 1, 2 * LUD_BS, 1, 1, 0, params));
    BENCH_CK(r, ws_launch_kernel(k_int, n, n, 1, LUD_BS, LUD_BS, 1, 0, params));
  }
  BENCH_CK(r, ws_launch_kernel(k_diag, 1, 1, 1, LUD_BS, 1, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_m, sizeof(float) * n2));

  /* Reference: unblocked Doolittle (unit-diagonal L) in double. */
  for (size_t i = 0; i < n2; i++) lu[i] = a[i];
  for (int k = 0; k < dim; k++)
    for (int i = k + 1; i < dim; i++) {
      double l = lu[(size_t)i * dim + k] /= lu[(size_t)k * dim + k];
      for (int j = k + 1; j < dim; j++) lu[(size_t)i * dim + j] -= l * lu[(size_t)k * dim + j];
    }
  for (size_t i = 0; i < n2; i++) want[i] = (float)lu[i];
  status = bench_check_f32(r, "L\\U", got, want, n2, 1e-3, 1e-5) ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_m) ws_mem_free(r->ctx, d_m);
  if (mod) ws_module_unload(mod);
  free(a);
  free(got);
  free(want);
  free(lu);
  return status;
}

const BenchDesc bench_desc_lud = {
    .name = "lud",
    .summary = "Rodinia lud: blocked LU without pivoting, diagonal/perimeter/internal kernels on 16x16 "
               "shared-memory tiles (control)",
    .papers = "CCWS, coordinated bypassing",
    .suite = "I",
    .sizes = {"128x128", "512x512", "256x256 (the bypassing paper's lud input)"},
    .run = lud_run,
};
