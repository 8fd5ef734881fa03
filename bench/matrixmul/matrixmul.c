/* matrixmul.c - host drivers of the matrixmul benchmarks (CUDA SDK-style
 * matrixMul): C = A * B with shared-memory tiles and two barriers per tile.
 * matrixmul uses 32x32 tiles (the SDK's choice on compute >= 2.0, 1024-thread
 * CTAs), matrixmul16 the 16x16 tiles of the older SDK (256-thread CTAs).
 * Checked against a double-precision CPU product. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

typedef struct MatrixmulSize {
  int ha, wa, wb;
} MatrixmulSize; /* A: ha x wa, B: wa x wb */

/* SDK default: A is (10 * tile) x (10 * tile), B is (10 * tile) x (20 * tile). */
static const MatrixmulSize matrixmul32_sizes[BENCH_NSIZES] = {
    {128, 128, 256}, {320, 320, 640}, {320, 320, 640}};
static const MatrixmulSize matrixmul16_sizes[BENCH_NSIZES] = {
    {64, 128, 128}, {320, 320, 640}, {160, 160, 320}};

static int matrixmul_run_tile(BenchRun *r, int tile, const MatrixmulSize *sizes) {
  const MatrixmulSize sz = sizes[r->size];
  const size_t na = (size_t)sz.ha * sz.wa, nb = (size_t)sz.wa * sz.wb, nc = (size_t)sz.ha * sz.wb;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_a = 0, d_b = 0, d_c = 0;
  float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
  float *got = malloc(nc * sizeof *got), *want = malloc(nc * sizeof *want);
  if (!a || !b || !got || !want) {
    fprintf(r->log, "matrixmul: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t i = 0; i < na; i++) a[i] = bench_rng_range(&g, -1.0f, 1.0f);
  for (size_t i = 0; i < nb; i++) b[i] = bench_rng_range(&g, -1.0f, 1.0f);
  if (r->verbose > 0)
    fprintf(r->log, "matrixmul: (%d x %d) * (%d x %d), %dx%d tiles, grid %d x %d\n", sz.ha, sz.wa, sz.wa,
            sz.wb, tile, tile, sz.wb / tile, sz.ha / tile);

  if (bench_load_module(r, "matrixmul", "matrixmul.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, tile == 32 ? "matrixmul_32" : "matrixmul_16"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, na * sizeof *a));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_b, nb * sizeof *b));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_c, nc * sizeof *got));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, na * sizeof *a));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_b, b, nb * sizeof *b));
  int wa = sz.wa, wb = sz.wb;
  void *params[] = {&d_c, &d_a, &d_b, &wa, &wb};
  BENCH_CK(r, ws_launch_kernel(fn, sz.wb / tile, sz.ha / tile, 1, tile, tile, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_c, nc * sizeof *got));

  for (int i = 0; i < sz.ha; i++)
    for (int j = 0; j < sz.wb; j++) {
      double s = 0.0;
      for (int k = 0; k < sz.wa; k++) s += (double)a[(size_t)i * sz.wa + k] * b[(size_t)k * sz.wb + j];
      want[(size_t)i * sz.wb + j] = (float)s;
    }
  /* Sums of wa terms in [-1, 1): absolute error grows like sqrt(wa) * eps. */
  status = bench_check_f32(r, "C", got, want, nc, 1e-4, 1e-5 * sz.wa) ? BENCH_MISMATCH : BENCH_PASS;
fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_b) ws_mem_free(r->ctx, d_b);
  if (d_c) ws_mem_free(r->ctx, d_c);
  if (mod) ws_module_unload(mod);
  free(a);
  free(b);
  free(got);
  free(want);
  return status;
}

static int matrixmul_run32(BenchRun *r) { return matrixmul_run_tile(r, 32, matrixmul32_sizes); }
static int matrixmul_run16(BenchRun *r) { return matrixmul_run_tile(r, 16, matrixmul16_sizes); }

const BenchDesc bench_desc_matrixmul = {
    .name = "matrixmul",
    .summary = "SDK matrixMul, 32x32 shared-memory tiles (1024-thread CTAs), two barriers per tile "
               "(barrier-intensive)",
    .papers = "BAWS",
    .suite = "II",
    .sizes = {"(128x128)*(128x256)", "(320x320)*(320x640) (SDK default)",
              "(320x320)*(320x640) (SDK default)"},
    .run = matrixmul_run32,
};

const BenchDesc bench_desc_matrixmul16 = {
    .name = "matrixmul16",
    .summary = "SDK matrixMul, 16x16 shared-memory tiles (256-thread CTAs), two barriers per tile "
               "(barrier-intensive)",
    .papers = "BAWS",
    .suite = "II",
    .sizes = {"(64x128)*(128x128)", "(320x320)*(320x640)", "(160x160)*(160x320) (SDK default)"},
    .run = matrixmul_run16,
};
