/* conv2d.c - host driver of PolyBench/GPU 2DCONV: 3x3 convolution with fixed
 * weights over a seeded random ni x nj float image, 32x8 threads per CTA,
 * checked against a double-precision CPU convolution with a float tolerance. */
#include <stdlib.h>

#include "bench.h"

#define CONV2D_BX 32
#define CONV2D_BY 8

static const int conv2d_dims[BENCH_NSIZES] = {256, 2048, 3072};

/* CPU reference of the interior; the border stays 0 as on the device. */
static void conv2d_reference(int ni, int nj, const float *a, float *b) {
  static const double w[3][3] = {{0.2, 0.5, -0.8}, {-0.3, 0.6, -0.9}, {0.4, 0.7, 0.10}};
  for (int i = 1; i < ni - 1; i++)
    for (int j = 1; j < nj - 1; j++) {
      double acc = 0.0;
      for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++)
          acc += w[di + 1][dj + 1] * (double)a[(size_t)(i + di) * nj + (j + dj)];
      b[(size_t)i * nj + j] = (float)acc;
    }
}

static int conv2d_run(BenchRun *r) {
  int ni = conv2d_dims[r->size], nj = conv2d_dims[r->size];
  size_t n = (size_t)ni * nj, bytes = n * sizeof(float);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_a = 0, d_b = 0;
  float *a = malloc(bytes), *b = malloc(bytes), *want = calloc(n, sizeof(float));
  if (!a || !b || !want) {
    fprintf(r->log, "conv2d: out of host memory\n");
    goto fail;
  }

  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t i = 0; i < n; i++) a[i] = bench_rng_float(&g);
  conv2d_reference(ni, nj, a, want);
  unsigned gx = (unsigned)((nj + CONV2D_BX - 1) / CONV2D_BX),
           gy = (unsigned)((ni + CONV2D_BY - 1) / CONV2D_BY);
  if (r->verbose > 0)
    fprintf(r->log, "conv2d: %d x %d image, grid %u x %u CTAs of %d x %d threads\n", ni, nj, gx, gy,
            CONV2D_BX, CONV2D_BY);

  if (bench_load_module(r, "conv2d", "conv2d.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "conv2d_kernel"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_b, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, bytes));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_b, 0, n));

  void *params[] = {&ni, &nj, &d_a, &d_b};
  BENCH_CK(r, ws_launch_kernel(fn, gx, gy, 1, CONV2D_BX, CONV2D_BY, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, b, d_b, bytes));

  status = bench_check_f32(r, "b", b, want, n, 1e-5, 1e-5) ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_b) ws_mem_free(r->ctx, d_b);
  if (mod) ws_module_unload(mod);
  free(a);
  free(b);
  free(want);
  return status;
}

const BenchDesc bench_desc_conv2d = {
    .name = "conv2d",
    .summary =
        "PolyBench/GPU 2DCONV: 3x3 stencil, 32x8 CTAs, 9 uncached-pattern loads per thread (row reuse in L1)",
    .papers = "coordinated bypassing",
    .suite = "II",
    .sizes = {"256 x 256 image (8 x 32 CTAs)", "2048 x 2048 image (64 x 256 CTAs)",
              "3072 x 3072 image (96 x 384 CTAs; bypass paper's 9.4M pixels)"},
    .run = conv2d_run,
};
