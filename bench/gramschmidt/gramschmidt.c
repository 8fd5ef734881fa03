/* gramschmidt.c - host driver of PolyBench/GPU GRAMSCHMIDT: QR of a seeded
 * random tall m x n float matrix, three launches per column (single-thread
 * norm, row scaling, column projection; 256 threads per CTA), checked against
 * a CPU pass doing the same float operations in the same order. */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

#define GRAMSCHMIDT_BLOCK 256

/* {m rows, n columns}: the bypass paper's evaluation input is 65536 x 64. */
static const int gramschmidt_dims[BENCH_NSIZES][2] = {{256, 16}, {1024, 64}, {65536, 64}};

/* Same float operations as the kernels: fmaf where nvcc emits fma.rn.f32,
 * a separate multiply and subtract in the update loop. */
static void gramschmidt_reference(int m, int n, float *a, float *r, float *q) {
  for (int k = 0; k < n; k++) {
    float sum = 0.0f;
    for (int i = 0; i < m; i++) sum = fmaf(a[(size_t)i * n + k], a[(size_t)i * n + k], sum);
    r[(size_t)k * n + k] = sqrtf(sum);
    for (int i = 0; i < m; i++) q[(size_t)i * n + k] = a[(size_t)i * n + k] / r[(size_t)k * n + k];
    for (int j = k + 1; j < n; j++) {
      float dot = 0.0f;
      for (int i = 0; i < m; i++) dot = fmaf(q[(size_t)i * n + k], a[(size_t)i * n + j], dot);
      r[(size_t)k * n + j] = dot;
      for (int i = 0; i < m; i++) {
        float prod = q[(size_t)i * n + k] * dot;
        a[(size_t)i * n + j] = a[(size_t)i * n + j] - prod;
      }
    }
  }
}

static int gramschmidt_run(BenchRun *r) {
  int m = gramschmidt_dims[r->size][0], n = gramschmidt_dims[r->size][1];
  size_t na = (size_t)m * n, nr = (size_t)n * n;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn_norm = NULL, *fn_scale = NULL, *fn_project = NULL;
  WsDevPtr d_a = 0, d_r = 0, d_q = 0;
  float *a = malloc(na * sizeof(float)), *q = malloc(na * sizeof(float)), *rr = malloc(nr * sizeof(float));
  float *want_a = malloc(na * sizeof(float)), *want_q = calloc(na, sizeof(float));
  float *want_r = calloc(nr, sizeof(float));
  if (!a || !q || !rr || !want_a || !want_q || !want_r) {
    fprintf(r->log, "gramschmidt: out of host memory\n");
    goto fail;
  }

  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t i = 0; i < na; i++) want_a[i] = a[i] = bench_rng_float(&g);
  gramschmidt_reference(m, n, want_a, want_r, want_q);
  unsigned grid_rows = (unsigned)((m + GRAMSCHMIDT_BLOCK - 1) / GRAMSCHMIDT_BLOCK),
           grid_cols = (unsigned)((n + GRAMSCHMIDT_BLOCK - 1) / GRAMSCHMIDT_BLOCK);
  if (r->verbose > 0)
    fprintf(r->log, "gramschmidt: %d x %d matrix, %d x 3 launches (1, %u, %u CTAs of %d threads)\n", m, n, n,
            grid_rows, grid_cols, GRAMSCHMIDT_BLOCK);

  if (bench_load_module(r, "gramschmidt", "gramschmidt.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn_norm, mod, "gramschmidt_norm"));
  BENCH_CK(r, ws_module_get_function(&fn_scale, mod, "gramschmidt_scale"));
  BENCH_CK(r, ws_module_get_function(&fn_project, mod, "gramschmidt_project"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, na * sizeof(float)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_q, na * sizeof(float)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_r, nr * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_a, a, na * sizeof(float)));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_q, 0, na));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_r, 0, nr));

  for (int k = 0; k < n; k++) {
    void *params_norm[] = {&m, &n, &k, &d_a, &d_r};
    void *params_scale[] = {&m, &n, &k, &d_a, &d_r, &d_q};
    void *params_project[] = {&m, &n, &k, &d_a, &d_r, &d_q};
    BENCH_CK(r, ws_launch_kernel(fn_norm, 1, 1, 1, GRAMSCHMIDT_BLOCK, 1, 1, 0, params_norm));
    BENCH_CK(r, ws_launch_kernel(fn_scale, grid_rows, 1, 1, GRAMSCHMIDT_BLOCK, 1, 1, 0, params_scale));
    BENCH_CK(r, ws_launch_kernel(fn_project, grid_cols, 1, 1, GRAMSCHMIDT_BLOCK, 1, 1, 0, params_project));
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, a, d_a, na * sizeof(float)));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, q, d_q, na * sizeof(float)));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, rr, d_r, nr * sizeof(float)));

  size_t bad = bench_check_f32(r, "r", rr, want_r, nr, 1e-3, 1e-4);
  bad += bench_check_f32(r, "q", q, want_q, na, 1e-3, 1e-5);
  bad += bench_check_f32(r, "a", a, want_a, na, 1e-3, 1e-4);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_q) ws_mem_free(r->ctx, d_q);
  if (d_r) ws_mem_free(r->ctx, d_r);
  if (mod) ws_module_unload(mod);
  free(a);
  free(q);
  free(rr);
  free(want_a);
  free(want_q);
  free(want_r);
  return status;
}

const BenchDesc bench_desc_gramschmidt = {
    .name = "gramschmidt",
    .summary =
        "PolyBench/GPU GRAMSCHMIDT: per column a 1-thread norm, row scaling, strided column projections",
    .papers = "coordinated bypassing",
    .suite = "II",
    .sizes = {"256 x 16 matrix (48 launches)", "1024 x 64 matrix (192 launches)",
              "65536 x 64 matrix (192 launches; bypass paper's evaluation input)"},
    .run = gramschmidt_run,
};
