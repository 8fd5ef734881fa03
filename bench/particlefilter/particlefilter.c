/* particlefilter.c - host driver of the particlefilter benchmark (the
 * Rodinia particle filter, float version): a generated video of a disk
 * (228 on 100, plus noise) moving +1 in x and -2 in y per frame; per frame
 * the host draws the motion noise (normal) and the resampling offset
 * (uniform) and launches pf_likelihood, pf_sum, pf_normalize, pf_cdf and
 * pf_find_index. Every frame is checked on the CPU from the particles the
 * GPU started it with: positions and likelihoods exactly, the CDF within a
 * relative 1e-4 (the GPU's expf is not the host's), and each resampled index
 * must be a valid choice under the CPU's CDF (the first entry at or above
 * the particle's point, within the CDF tolerance) and carry that particle's
 * position. The CPU then continues from the GPU's resampled particles. */
#include "bench.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PF_BLOCK 128
#define PF_RADIUS 5

typedef struct PfSize {
  int isz, nfr, n;
} PfSize;
static const PfSize pf_sizes[BENCH_NSIZES] = {{128, 4, 512}, {128, 10, 1000}, {128, 10, 10000}};

static float pf_term(float v) {
  float a = v - 100.0f, b = v - 228.0f;
  return (a * a - b * b) / 50.0f;
}

static int pf_run(BenchRun *r) {
  const PfSize sz = pf_sizes[r->size];
  const int isz = sz.isz, nfr = sz.nfr, n = sz.n;
  const int max_size = isz * isz * nfr;
  const unsigned nblocks = (unsigned)((n + PF_BLOCK - 1) / PF_BLOCK);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *f_lik = NULL, *f_sum = NULL, *f_norm = NULL, *f_cdf = NULL, *f_find = NULL;
  WsDevPtr d_ax = 0, d_ay = 0, d_xj = 0, d_yj = 0, d_nx = 0, d_ny = 0, d_obj = 0, d_I = 0, d_lik = 0, d_w = 0,
           d_part = 0, d_total = 0, d_cdf = 0, d_idx = 0;
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  size_t fb = sizeof(float) * (size_t)n;
  unsigned char *I = malloc((size_t)max_size);
  int *objxy = malloc(sizeof(int) * 2 * (2 * PF_RADIUS + 1) * (2 * PF_RADIUS + 1));
  float *xj = malloc(fb), *yj = malloc(fb), *nx = malloc(fb), *ny = malloc(fb), *w = malloc(fb);
  float *g_ax = malloc(fb), *g_ay = malloc(fb), *g_lik = malloc(fb), *g_cdf = malloc(fb), *g_xj = malloc(fb),
        *g_yj = malloc(fb);
  float *c_ax = malloc(fb), *c_ay = malloc(fb), *c_lik = malloc(fb), *c_cdf = malloc(fb);
  int *g_idx = malloc(sizeof(int) * (size_t)n);
  if (!I || !objxy || !xj || !yj || !nx || !ny || !w || !g_ax || !g_ay || !g_lik || !g_cdf || !g_xj ||
      !g_yj || !c_ax || !c_ay || !c_lik || !c_cdf || !g_idx) {
    fprintf(r->log, "particlefilter: out of host memory\n");
    goto fail;
  }
  /* the video: I[x][y][k] */
  for (int x = 0; x < isz; x++)
    for (int y = 0; y < isz; y++)
      for (int k = 0; k < nfr; k++) {
        int cx = isz / 2 + k, cy = isz / 2 - 2 * k, dx = x - cx, dy = y - cy;
        int v = dx * dx + dy * dy <= PF_RADIUS * PF_RADIUS ? 228 : 100;
        v += (int)lround(5.0 * bench_rng_normal(&g));
        I[(size_t)x * isz * nfr + (size_t)y * nfr + k] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
      }
  int count_ones = 0; /* the disk's offsets, (y, x) pairs as Rodinia stores them */
  for (int x = -PF_RADIUS; x <= PF_RADIUS; x++)
    for (int y = -PF_RADIUS; y <= PF_RADIUS; y++)
      if (x * x + y * y <= PF_RADIUS * PF_RADIUS) {
        objxy[2 * count_ones] = y;
        objxy[2 * count_ones + 1] = x;
        count_ones++;
      }
  for (int i = 0; i < n; i++) xj[i] = (float)(isz / 2), yj[i] = (float)(isz / 2), w[i] = 1.0f / (float)n;
  if (r->verbose > 0)
    fprintf(r->log, "particlefilter: %dx%dx%d video, %d particles, %d disk points, %u CTAs\n", isz, isz, nfr,
            n, count_ones, nblocks);

  if (bench_load_module(r, "particlefilter", "particlefilter.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&f_lik, mod, "pf_likelihood"));
  BENCH_CK(r, ws_module_get_function(&f_sum, mod, "pf_sum"));
  BENCH_CK(r, ws_module_get_function(&f_norm, mod, "pf_normalize"));
  BENCH_CK(r, ws_module_get_function(&f_cdf, mod, "pf_cdf"));
  BENCH_CK(r, ws_module_get_function(&f_find, mod, "pf_find_index"));
  WsDevPtr *fbufs[] = {&d_ax, &d_ay, &d_xj, &d_yj, &d_nx, &d_ny, &d_lik, &d_w, &d_cdf};
  for (size_t b = 0; b < sizeof fbufs / sizeof fbufs[0]; b++) BENCH_CK(r, ws_mem_alloc(r->ctx, fbufs[b], fb));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_idx, sizeof(int) * (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_part, sizeof(float) * nblocks));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_total, sizeof(float)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_obj, sizeof(int) * 2 * (size_t)count_ones));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_I, (size_t)max_size));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_I, I, (size_t)max_size));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_obj, objxy, sizeof(int) * 2 * (size_t)count_ones));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_xj, xj, fb));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_yj, yj, fb));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_w, w, fb));

  size_t bad = 0;
  for (int k = 1; k < nfr && !bad; k++) {
    for (int i = 0; i < n; i++) nx[i] = (float)bench_rng_normal(&g), ny[i] = (float)bench_rng_normal(&g);
    float u1 = bench_rng_float(&g) / (float)n;
    BENCH_CK(r, ws_memcpy_htod(r->ctx, d_nx, nx, fb));
    BENCH_CK(r, ws_memcpy_htod(r->ctx, d_ny, ny, fb));
    int nn = n, isz_y = isz, kk = k, ms = max_size, co = count_ones, nb = (int)nblocks;
    void *p_lik[] = {&d_ax, &d_ay,   &d_xj, &d_yj, &d_nx,  &d_ny,        &d_obj, &d_I, &d_lik,
                     &d_w,  &d_part, &nn,   &co,   &isz_y, (void *)&nfr, &kk,    &ms};
    BENCH_CK(r, ws_launch_kernel(f_lik, nblocks, 1, 1, PF_BLOCK, 1, 1, 0, p_lik));
    void *p_sum[] = {&d_part, &nb, &d_total};
    BENCH_CK(r, ws_launch_kernel(f_sum, 1, 1, 1, 32, 1, 1, 0, p_sum));
    void *p_norm[] = {&d_w, &d_total, &nn};
    BENCH_CK(r, ws_launch_kernel(f_norm, nblocks, 1, 1, PF_BLOCK, 1, 1, 0, p_norm));
    void *p_cdf[] = {&d_w, &d_cdf, &nn};
    BENCH_CK(r, ws_launch_kernel(f_cdf, 1, 1, 1, 32, 1, 1, 0, p_cdf));
    void *p_find[] = {&d_ax, &d_ay, &d_cdf, &d_xj, &d_yj, &d_idx, &d_w, &u1, &nn};
    BENCH_CK(r, ws_launch_kernel(f_find, nblocks, 1, 1, PF_BLOCK, 1, 1, 0, p_find));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, g_ax, d_ax, fb));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, g_ay, d_ay, fb));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, g_lik, d_lik, fb));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, g_cdf, d_cdf, fb));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, g_xj, d_xj, fb));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, g_yj, d_yj, fb));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, g_idx, d_idx, sizeof(int) * (size_t)n));

    /* the CPU's frame k from the particles the GPU started it with (xj, yj) */
    float total = 0.0f;
    for (int i = 0; i < n; i++) {
      float x = (xj[i] + 1.0f) + 5.0f * nx[i], y = (yj[i] - 2.0f) + 2.0f * ny[i];
      c_ax[i] = x, c_ay[i] = y;
      int rx = (int)roundf(x), ry = (int)roundf(y);
      float lik = 0.0f;
      for (int j = 0; j < count_ones; j++) {
        int ind = abs((rx + objxy[2 * j + 1]) * isz * nfr + (ry + objxy[2 * j]) * nfr + k);
        if (ind >= max_size) ind = 0;
        lik += pf_term((float)I[ind]);
      }
      lik /= (float)count_ones;
      c_lik[i] = lik;
      w[i] = (1.0f / (float)n) * expf(lik - 327.68f);
      total += w[i];
    }
    float c = 0.0f;
    for (int i = 0; i < n; i++) c += w[i] / total, c_cdf[i] = c;
    bad += bench_check_f32(r, "particle x", g_ax, c_ax, (size_t)n, 0, 0);
    bad += bench_check_f32(r, "particle y", g_ay, c_ay, (size_t)n, 0, 0);
    bad += bench_check_f32(r, "likelihood", g_lik, c_lik, (size_t)n, 0, 0);
    bad += bench_check_f32(r, "CDF", g_cdf, c_cdf, (size_t)n, 1e-4, 1e-6);
    size_t badidx = 0;
    for (int i = 0; i < n && badidx < 10; i++) {
      float u = u1 + (float)i / (float)n, tol = 1e-4f * u + 1e-6f;
      int x = g_idx[i];
      bool ok = x >= 0 && x < n && (x == n - 1 || c_cdf[x] >= u - tol) &&
                (x == 0 || c_cdf[x - 1] < u + tol) && g_xj[i] == g_ax[x] && g_yj[i] == g_ay[x];
      if (!ok) {
        fprintf(r->log,
                "particlefilter: frame %d particle %d: resampled index %d is not the CPU's choice for %g\n",
                k, i, x, (double)u);
        badidx++;
      }
    }
    bad += badidx;
    memcpy(xj, g_xj, fb); /* the next frame starts from the GPU's resampled particles */
    memcpy(yj, g_yj, fb);
  }
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:;
  WsDevPtr all[] = {d_ax, d_ay,  d_xj, d_yj,   d_nx,    d_ny,  d_obj,
                    d_I,  d_lik, d_w,  d_part, d_total, d_cdf, d_idx};
  for (size_t b = 0; b < sizeof all / sizeof all[0]; b++)
    if (all[b]) ws_mem_free(r->ctx, all[b]);
  if (mod) ws_module_unload(mod);
  free(I), free(objxy), free(xj), free(yj), free(nx), free(ny), free(w);
  free(g_ax), free(g_ay), free(g_lik), free(g_cdf), free(g_xj), free(g_yj);
  free(c_ax), free(c_ay), free(c_lik), free(c_cdf), free(g_idx);
  return status;
}

const BenchDesc bench_desc_particlefilter = {
    .name = "particlefilter",
    .summary = "Rodinia particle filter: per frame, disk likelihood per particle (gathers from the video), "
               "one-thread sum and CDF, linear-search resampling (CAWA non-sensitive)",
    .papers = "CAWA",
    .suite = "I",
    .sizes = {"128x128x4 video, 512 particles", "128x128x10 video, 1000 particles",
              "128x128x10 video, 10000 particles"},
    .run = pf_run,
};
