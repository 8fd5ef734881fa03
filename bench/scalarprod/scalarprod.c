/* scalarprod.c - host driver of the scalarprod benchmark (CUDA SDK-style
 * scalarProd): generates seeded vector pairs, launches scalarprod_kernel on
 * the SDK geometry (128 CTAs x 256 threads, grid-stride over pairs) and
 * checks the dot products against a double-precision CPU reference. */
#include "bench.h"

#include <stdlib.h>

#define SCALARPROD_GRID 128
#define SCALARPROD_BLOCK 256

typedef struct ScalarprodSize {
  int vectors, elements;
} ScalarprodSize;

/* paper: the SDK's VECTOR_N x ELEMENT_N; tiny and small scale the same shape. */
static const ScalarprodSize scalarprod_sizes[BENCH_NSIZES] = {{128, 2048}, {1024, 8192}, {256, 4096}};

static void scalarprod_reference(float *out, const float *a, const float *b, int vectors, int elements) {
  for (int v = 0; v < vectors; v++) {
    double s = 0.0;
    for (int i = 0; i < elements; i++) s += (double)a[(size_t)v * elements + i] * b[(size_t)v * elements + i];
    out[v] = (float)s;
  }
}

static int scalarprod_run(BenchRun *r) {
  const ScalarprodSize sz = scalarprod_sizes[r->size];
  const size_t n = (size_t)sz.vectors * sz.elements;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_a = 0, d_b = 0, d_out = 0;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  float *got = malloc(sz.vectors * sizeof *got), *want = malloc(sz.vectors * sizeof *want);
  if (!a || !b || !got || !want) {
    fprintf(r->log, "scalarprod: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t i = 0; i < n; i++) a[i] = bench_rng_range(&g, 0.0f, 1.0f);
  for (size_t i = 0; i < n; i++) b[i] = bench_rng_range(&g, 0.0f, 1.0f);
  if (r->verbose > 0)
    fprintf(r->log, "scalarprod: %d vector pairs of %d floats, grid %d x %d threads\n", sz.vectors,
            sz.elements, SCALARPROD_GRID, SCALARPROD_BLOCK);

  if (bench_load_module(r, "scalarprod", "scalarprod.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "scalarprod_kernel"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, n * sizeof *a));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_b, n * sizeof *b));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out, sz.vectors * sizeof *got));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, n * sizeof *a));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_b, b, n * sizeof *b));
  int vector_n = sz.vectors, element_n = sz.elements;
  void *params[] = {&d_out, &d_a, &d_b, &vector_n, &element_n};
  BENCH_CK(r, ws_launch_kernel(fn, SCALARPROD_GRID, 1, 1, SCALARPROD_BLOCK, 1, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_out, sz.vectors * sizeof *got));

  scalarprod_reference(want, a, b, sz.vectors, sz.elements);
  status = bench_check_f32(r, "dot product", got, want, sz.vectors, 1e-5, 1e-3) ? BENCH_MISMATCH : BENCH_PASS;
fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_b) ws_mem_free(r->ctx, d_b);
  if (d_out) ws_mem_free(r->ctx, d_out);
  if (mod) ws_module_unload(mod);
  free(a);
  free(b);
  free(got);
  free(want);
  return status;
}

const BenchDesc bench_desc_scalarprod = {
    .name = "scalarprod",
    .summary = "SDK scalarProd: dot products via 1024 shared partial sums + barrier-per-step tree "
               "reduction (barrier-intensive)",
    .papers = "BAWS",
    .suite = "II",
    .sizes = {"128 pairs x 2048 floats", "1024 pairs x 8192 floats", "256 pairs x 4096 floats (SDK default)"},
    .run = scalarprod_run,
};
