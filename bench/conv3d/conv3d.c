/* conv3d.c - host driver of PolyBench/GPU 3DCONV: PolyBench's 15-tap 3-D
 * convolution over a seeded random n^3 float volume, one launch per interior
 * plane (32x8 threads per CTA), checked against a double-precision CPU pass. */
#include <stdlib.h>

#include "bench.h"

#define CONV3D_BX 32
#define CONV3D_BY 8

static const int conv3d_dims[BENCH_NSIZES] = {48, 160, 256};

static void conv3d_reference(int ni, int nj, int nk, const float *a, float *b) {
  const double c11 = 2, c21 = 5, c31 = -8, c12 = -3, c22 = 6, c32 = -9, c13 = 4, c23 = 7, c33 = 10;
#define A3(x, y, z) ((double)a[((size_t)(x)*nj + (y)) * nk + (z)])
  for (int i = 1; i < ni - 1; i++)
    for (int j = 1; j < nj - 1; j++)
      for (int k = 1; k < nk - 1; k++) {
        double acc = c11 * A3(i - 1, j - 1, k - 1) + c13 * A3(i + 1, j - 1, k - 1) +
                     c21 * A3(i - 1, j - 1, k - 1) + c23 * A3(i + 1, j - 1, k - 1) +
                     c31 * A3(i - 1, j - 1, k - 1) + c33 * A3(i + 1, j - 1, k - 1) + c12 * A3(i, j - 1, k) +
                     c22 * A3(i, j, k) + c32 * A3(i, j + 1, k) + c11 * A3(i - 1, j - 1, k + 1) +
                     c13 * A3(i + 1, j - 1, k + 1) + c21 * A3(i - 1, j, k + 1) + c23 * A3(i + 1, j, k + 1) +
                     c31 * A3(i - 1, j + 1, k + 1) + c33 * A3(i + 1, j + 1, k + 1);
        b[((size_t)i * nj + j) * nk + k] = (float)acc;
      }
#undef A3
}

static int conv3d_run(BenchRun *r) {
  int ni = conv3d_dims[r->size], nj = ni, nk = ni;
  size_t n = (size_t)ni * nj * nk, bytes = n * sizeof(float);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_a = 0, d_b = 0;
  float *a = malloc(bytes), *b = malloc(bytes), *want = calloc(n, sizeof(float));
  if (!a || !b || !want) {
    fprintf(r->log, "conv3d: out of host memory\n");
    goto fail;
  }

  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t i = 0; i < n; i++) a[i] = bench_rng_float(&g);
  conv3d_reference(ni, nj, nk, a, want);
  unsigned gx = (unsigned)((nk + CONV3D_BX - 1) / CONV3D_BX),
           gy = (unsigned)((nj + CONV3D_BY - 1) / CONV3D_BY);
  if (r->verbose > 0)
    fprintf(r->log, "conv3d: %d^3 volume, %d launches of %u x %u CTAs of %d x %d threads\n", ni, ni - 2, gx,
            gy, CONV3D_BX, CONV3D_BY);

  if (bench_load_module(r, "conv3d", "conv3d.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "conv3d_kernel"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_b, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, bytes));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_b, 0, n));

  for (int i = 1; i < ni - 1; i++) {
    void *params[] = {&ni, &nj, &nk, &i, &d_a, &d_b};
    BENCH_CK(r, ws_launch_kernel(fn, gx, gy, 1, CONV3D_BX, CONV3D_BY, 1, 0, params));
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, b, d_b, bytes));

  status = bench_check_f32(r, "b", b, want, n, 1e-5, 1e-4) ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_b) ws_mem_free(r->ctx, d_b);
  if (mod) ws_module_unload(mod);
  free(a);
  free(b);
  free(want);
  return status;
}

const BenchDesc bench_desc_conv3d = {
    .name = "conv3d",
    .summary = "PolyBench/GPU 3DCONV: 15-tap 3-D stencil, one launch per plane, 32x8 CTAs, 3-plane reuse",
    .papers = "coordinated bypassing",
    .suite = "II",
    .sizes = {"48^3 volume (46 launches x 2 x 6 CTAs)", "160^3 volume (158 launches x 5 x 20 CTAs)",
              "256^3 volume (254 launches x 8 x 32 CTAs; PolyBench standard data set)"},
    .run = conv3d_run,
};
