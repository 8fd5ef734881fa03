/* srad_v2.c - host driver of the srad_v2 benchmark (Rodinia SRAD v2): seeded
 * speckled image J = exp(U[0,1)), fixed iterations; per iteration the host
 * computes q0^2 over the 128x128 region of interest, uploads J, runs srad_v2_1
 * and srad_v2_2 on 16x16 tiles and downloads J (as Rodinia does). Checked
 * against the same iterations on the CPU with a float tolerance. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define SRAD_BS 16
#define SRAD_ROI 128 /* rows/cols 0..127, Rodinia's default region of interest */
#define SRAD_LAMBDA 0.5f

typedef struct SradV2Size {
  int rows, cols, iters;
} SradV2Size;

/* paper: Rodinia's 2048 x 2048, 2 iterations (the coordinated bypassing paper's input). */
static const SradV2Size srad_v2_sizes[BENCH_NSIZES] = {{128, 128, 1}, {512, 1024, 2}, {2048, 2048, 2}};

static float srad_v2_q0sqr(const float *j, int cols) {
  double sum = 0.0, sum2 = 0.0;
  for (int i = 0; i < SRAD_ROI; i++)
    for (int k = 0; k < SRAD_ROI; k++) {
      double v = j[(size_t)i * cols + k];
      sum += v;
      sum2 += v * v;
    }
  double size = (double)SRAD_ROI * SRAD_ROI, mean = sum / size, var = sum2 / size - mean * mean;
  return (float)(var / (mean * mean));
}

/* One iteration on the CPU with the kernels' types and clamped borders. */
static void srad_v2_reference_iter(float *j, float *c, float *dn, float *ds, float *dw, float *de, int rows,
                                   int cols, float q0sqr, float lambda) {
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < cols; x++) {
      size_t k = (size_t)y * cols + x;
      const float jc = j[k];
      const float n = j[(size_t)(y > 0 ? y - 1 : 0) * cols + x] - jc;
      const float s = j[(size_t)(y < rows - 1 ? y + 1 : y) * cols + x] - jc;
      const float w = j[(size_t)y * cols + (x > 0 ? x - 1 : 0)] - jc;
      const float e = j[(size_t)y * cols + (x < cols - 1 ? x + 1 : x)] - jc;
      const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
      const float l = (n + s + w + e) / jc;
      const float num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
      float den = 1 + (.25 * l);
      const float qsqr = num / (den * den);
      den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
      const float cv = 1.0 / (1.0 + den);
      c[k] = cv < 0 ? 0.0f : (cv > 1 ? 1.0f : cv);
      dn[k] = n;
      ds[k] = s;
      dw[k] = w;
      de[k] = e;
    }
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < cols; x++) {
      size_t k = (size_t)y * cols + x;
      const float cc = c[k];
      const float cs = c[(size_t)(y < rows - 1 ? y + 1 : y) * cols + x];
      const float ce = c[(size_t)y * cols + (x < cols - 1 ? x + 1 : x)];
      const float d_sum = cc * dn[k] + cs * ds[k] + cc * dw[k] + ce * de[k];
      j[k] = j[k] + 0.25 * lambda * d_sum;
    }
}

static int srad_v2_run(BenchRun *r) {
  const SradV2Size sz = srad_v2_sizes[r->size];
  const size_t n = (size_t)sz.rows * sz.cols, bytes = n * sizeof(float);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *k1 = NULL, *k2 = NULL;
  WsDevPtr d_j = 0, d_c = 0, d_n = 0, d_s = 0, d_w = 0, d_e = 0;
  float *img = malloc(bytes), *got = malloc(bytes), *c = malloc(bytes);
  float *dn = malloc(bytes), *ds = malloc(bytes), *dw = malloc(bytes), *de = malloc(bytes);
  if (!img || !got || !c || !dn || !ds || !dw || !de) {
    fprintf(r->log, "srad_v2: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (size_t i = 0; i < n; i++) img[i] = expf(bench_rng_float(&g));
  for (size_t i = 0; i < n; i++) got[i] = img[i];
  if (r->verbose > 0)
    fprintf(r->log, "srad_v2: %dx%d image, %d iterations, lambda %.2f\n", sz.rows, sz.cols, sz.iters,
            SRAD_LAMBDA);

  if (bench_load_module(r, "srad_v2", "srad_v2.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k1, mod, "srad_v2_1"));
  BENCH_CK(r, ws_module_get_function(&k2, mod, "srad_v2_2"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_j, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_c, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_n, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_s, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_w, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_e, bytes));
  int rows = sz.rows, cols = sz.cols;
  float lambda = SRAD_LAMBDA;
  for (int it = 0; it < sz.iters; it++) {
    float q0sqr = srad_v2_q0sqr(got, cols);
    BENCH_CK(r, ws_memcpy_htod(r->ctx, d_j, got, bytes));
    void *p1[] = {&d_e, &d_w, &d_n, &d_s, &d_j, &d_c, &cols, &rows, &q0sqr};
    BENCH_CK(r, ws_launch_kernel(k1, cols / SRAD_BS, rows / SRAD_BS, 1, SRAD_BS, SRAD_BS, 1, 0, p1));
    void *p2[] = {&d_e, &d_w, &d_n, &d_s, &d_j, &d_c, &cols, &rows, &lambda, &q0sqr};
    BENCH_CK(r, ws_launch_kernel(k2, cols / SRAD_BS, rows / SRAD_BS, 1, SRAD_BS, SRAD_BS, 1, 0, p2));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_j, bytes));
  }

  for (int it = 0; it < sz.iters; it++)
    srad_v2_reference_iter(img, c, dn, ds, dw, de, rows, cols, srad_v2_q0sqr(img, cols), SRAD_LAMBDA);
  status = bench_check_f32(r, "image", got, img, n, 1e-4, 1e-5) ? BENCH_MISMATCH : BENCH_PASS;
fail:
  if (d_j) ws_mem_free(r->ctx, d_j);
  if (d_c) ws_mem_free(r->ctx, d_c);
  if (d_n) ws_mem_free(r->ctx, d_n);
  if (d_s) ws_mem_free(r->ctx, d_s);
  if (d_w) ws_mem_free(r->ctx, d_w);
  if (d_e) ws_mem_free(r->ctx, d_e);
  if (mod) ws_module_unload(mod);
  free(img);
  free(got);
  free(c);
  free(dn);
  free(ds);
  free(dw);
  free(de);
  return status;
}

const BenchDesc bench_desc_srad_v2 = {
    .name = "srad_v2",
    .summary = "Rodinia srad_v2: speckle-reducing diffusion, two kernels on 16x16 tiles staging "
               "five/six shared arrays with a barrier after each",
    .papers = "BAWS, coordinated bypassing",
    .suite = "II",
    .sizes = {"128x128, 1 iteration", "512x1024, 2 iterations", "2048x2048, 2 iterations (Rodinia default)"},
    .run = srad_v2_run,
};
