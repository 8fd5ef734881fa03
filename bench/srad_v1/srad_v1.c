/* srad_v1.c - host driver of srad_v1: Rodinia's SRAD v1 speckle-reducing
 * anisotropic diffusion on a seeded synthetic ultrasound-like image (bright
 * ellipses on a dark gradient, multiplicative Rayleigh speckle), a fixed
 * number of iterations, the final image checked against a CPU reference that
 * follows the same operation order (tolerance: expf/logf differ by ulps). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define SRAD_THREADS 512
#define SRAD_LAMBDA 0.5f

typedef struct SradConfig {
  int nr, nc, iters;
} SradConfig;

static const SradConfig srad_cfg[BENCH_NSIZES] = {{64, 48, 2}, {502, 458, 6}, {502, 458, 100}};

/* Synthetic speckled image, 0..255 integers, column-major (Nr x Nc). */
static void srad_make_image(float *img, int nr, int nc, BenchRng *rng) {
  struct {
    float r0, c0, ra, ca, v;
  } blob[4];
  for (int b = 0; b < 4; b++) {
    blob[b].r0 = bench_rng_range(rng, 0.2f, 0.8f) * nr;
    blob[b].c0 = bench_rng_range(rng, 0.2f, 0.8f) * nc;
    blob[b].ra = bench_rng_range(rng, 0.08f, 0.3f) * nr;
    blob[b].ca = bench_rng_range(rng, 0.08f, 0.3f) * nc;
    blob[b].v = bench_rng_range(rng, 90.0f, 170.0f);
  }
  const double sigma = sqrt(2.0 / 3.141592653589793); /* Rayleigh with mean 1 */
  for (int j = 0; j < nc; j++)
    for (int i = 0; i < nr; i++) {
      double base = 30.0 + 40.0 * i / nr;
      for (int b = 0; b < 4; b++) {
        double dr = (i - blob[b].r0) / blob[b].ra, dc = (j - blob[b].c0) / blob[b].ca;
        if (dr * dr + dc * dc < 1.0) base = blob[b].v;
      }
      double u = ((double)(bench_rng_u64(rng) >> 11) + 1.0) / 9007199254740992.0;
      double v = base * sigma * sqrt(-2.0 * log(u));
      if (v > 255.0) v = 255.0;
      img[(size_t)j * nr + i] = (float)floor(v + 0.5);
    }
}

/* The device reduction passes, replayed in the same order. */
static void srad_reduce_cpu(long ne, float *sums, float *sums2) {
  float s1[SRAD_THREADS], s2[SRAD_THREADS];
  long no = ne, mul = 1;
  do {
    long blocks = (no + SRAD_THREADS - 1) / SRAD_THREADS;
    for (long b = 0; b < blocks; b++) {
      for (int t = 0; t < SRAD_THREADS; t++) {
        long e = b * SRAD_THREADS + t;
        s1[t] = e < no ? sums[e * mul] : 0.0f;
        s2[t] = e < no ? sums2[e * mul] : 0.0f;
      }
      for (int step = 2; step <= SRAD_THREADS; step *= 2)
        for (int t = step - 1; t < SRAD_THREADS; t += step) {
          s1[t] += s1[t - step / 2];
          s2[t] += s2[t - step / 2];
        }
      sums[b * SRAD_THREADS * mul] = s1[SRAD_THREADS - 1];
      sums2[b * SRAD_THREADS * mul] = s2[SRAD_THREADS - 1];
    }
    no = blocks;
    mul *= SRAD_THREADS;
  } while (no > 1);
}

static float srad_q0sqr(float total, float total2, long ne) {
  float mean = total / ne;
  float var = (total2 / ne) - mean * mean;
  return var / (mean * mean);
}

typedef struct SradBufs {
  int *in, *is, *je, *jw;
  float *dn, *ds, *de, *dw, *c, *sums, *sums2;
} SradBufs;

/* CPU reference of the whole run, in place on img (contractions as nvcc emits them). */
static void srad_cpu(float *img, int nr, int nc, int iters, const SradBufs *b) {
  long ne = (long)nr * nc;
  for (long i = 0; i < ne; i++) img[i] = expf(img[i] / 255.0f);
  for (int it = 0; it < iters; it++) {
    for (long i = 0; i < ne; i++) {
      b->sums[i] = img[i];
      b->sums2[i] = img[i] * img[i];
    }
    srad_reduce_cpu(ne, b->sums, b->sums2);
    float q0sqr = srad_q0sqr(b->sums[0], b->sums2[0], ne);
    for (long ei = 0; ei < ne; ei++) {
      int row = (int)(ei % nr), col = (int)(ei / nr);
      float jc = img[ei];
      float n = img[b->in[row] + (long)nr * col] - jc;
      float s = img[b->is[row] + (long)nr * col] - jc;
      float w = img[row + (long)nr * b->jw[col]] - jc;
      float e = img[row + (long)nr * b->je[col]] - jc;
      float g2 = fmaf(e, e, fmaf(w, w, fmaf(n, n, s * s))) / (jc * jc);
      float l = (((n + s) + w) + e) / jc;
      float num = fmaf(g2, 0.5f, (l * l) * -0.0625f);
      float den = fmaf(l, 0.25f, 1.0f);
      float qsqr = num / (den * den);
      den = (qsqr - q0sqr) / ((q0sqr + 1.0f) * q0sqr);
      float cc = 1.0f / (den + 1.0f);
      if (cc < 0.0f)
        cc = 0.0f;
      else if (cc > 1.0f)
        cc = 1.0f;
      b->dn[ei] = n;
      b->ds[ei] = s;
      b->dw[ei] = w;
      b->de[ei] = e;
      b->c[ei] = cc;
    }
    for (long ei = 0; ei < ne; ei++) {
      int row = (int)(ei % nr), col = (int)(ei / nr);
      float cn = b->c[ei], cs = b->c[b->is[row] + (long)nr * col], cw = b->c[ei];
      float ce = b->c[row + (long)nr * b->je[col]];
      float d = fmaf(ce, b->de[ei], fmaf(cw, b->dw[ei], fmaf(cn, b->dn[ei], cs * b->ds[ei])));
      img[ei] = fmaf(SRAD_LAMBDA * 0.25f, d, img[ei]);
    }
  }
  for (long i = 0; i < ne; i++) img[i] = logf(img[i]) * 255.0f;
}

static int srad_run(BenchRun *r) {
  const SradConfig *cfg = &srad_cfg[r->size];
  int nr = cfg->nr, nc = cfg->nc, status = BENCH_ERROR;
  long ne = (long)nr * nc;
  size_t fbytes = sizeof(float) * (size_t)ne;
  WsModule *mod = NULL;
  WsDevPtr d_i = 0, d_in = 0, d_is = 0, d_je = 0, d_jw = 0, d_dn = 0, d_ds = 0, d_de = 0, d_dw = 0, d_c = 0,
           d_sums = 0, d_sums2 = 0;
  SradBufs b = {0};
  float *img = malloc(fbytes), *want = malloc(fbytes), *got = malloc(fbytes);
  b.in = malloc(sizeof(int) * (size_t)nr);
  b.is = malloc(sizeof(int) * (size_t)nr);
  b.je = malloc(sizeof(int) * (size_t)nc);
  b.jw = malloc(sizeof(int) * (size_t)nc);
  b.dn = malloc(fbytes);
  b.ds = malloc(fbytes);
  b.de = malloc(fbytes);
  b.dw = malloc(fbytes);
  b.c = malloc(fbytes);
  b.sums = malloc(fbytes);
  b.sums2 = malloc(fbytes);
  if (!img || !want || !got || !b.in || !b.is || !b.je || !b.jw || !b.dn || !b.ds || !b.de || !b.dw || !b.c ||
      !b.sums || !b.sums2) {
    fprintf(r->log, "srad_v1: out of host memory\n");
    goto fail;
  }

  BenchRng rng;
  bench_rng_seed(&rng, r->seed);
  srad_make_image(img, nr, nc, &rng);
  /* neighbour index tables, clamped at the borders */
  for (int i = 0; i < nr; i++) {
    b.in[i] = i > 0 ? i - 1 : 0;
    b.is[i] = i < nr - 1 ? i + 1 : nr - 1;
  }
  for (int j = 0; j < nc; j++) {
    b.jw[j] = j > 0 ? j - 1 : 0;
    b.je[j] = j < nc - 1 ? j + 1 : nc - 1;
  }
  if (r->verbose > 0)
    fprintf(r->log, "srad_v1: %dx%d speckled image, %d iterations, lambda %.2f\n", nr, nc, cfg->iters,
            (double)SRAD_LAMBDA);

  if (bench_load_module(r, "srad_v1", "srad_v1.ptx", &mod)) goto fail;
  WsFunction *k_extract, *k_prepare, *k_reduce, *k_srad, *k_srad2, *k_compress;
  BENCH_CK(r, ws_module_get_function(&k_extract, mod, "srad_extract"));
  BENCH_CK(r, ws_module_get_function(&k_prepare, mod, "srad_prepare"));
  BENCH_CK(r, ws_module_get_function(&k_reduce, mod, "srad_reduce"));
  BENCH_CK(r, ws_module_get_function(&k_srad, mod, "srad_srad"));
  BENCH_CK(r, ws_module_get_function(&k_srad2, mod, "srad_srad2"));
  BENCH_CK(r, ws_module_get_function(&k_compress, mod, "srad_compress"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_i, fbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_in, sizeof(int) * (size_t)nr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_is, sizeof(int) * (size_t)nr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_je, sizeof(int) * (size_t)nc));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_jw, sizeof(int) * (size_t)nc));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_dn, fbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_ds, fbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_de, fbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_dw, fbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_c, fbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_sums, fbytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_sums2, fbytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_i, img, fbytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_in, b.in, sizeof(int) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_is, b.is, sizeof(int) * (size_t)nr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_je, b.je, sizeof(int) * (size_t)nc));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_jw, b.jw, sizeof(int) * (size_t)nc));

  unsigned blocks = (unsigned)((ne + SRAD_THREADS - 1) / SRAD_THREADS);
  float lambda = SRAD_LAMBDA, q0sqr = 0;
  void *p_img[] = {&ne, &d_i};
  void *p_prep[] = {&ne, &d_i, &d_sums, &d_sums2};
  void *p_srad[] = {&lambda, &nr,   &nc,   &ne,   &d_in,  &d_is, &d_je, &d_jw,
                    &d_dn,   &d_ds, &d_de, &d_dw, &q0sqr, &d_c,  &d_i};
  void *p_srad2[] = {&lambda, &nr,   &nc,   &ne,   &d_in, &d_is, &d_je,
                     &d_jw,   &d_dn, &d_ds, &d_de, &d_dw, &d_c,  &d_i};
  BENCH_CK(r, ws_launch_kernel(k_extract, blocks, 1, 1, SRAD_THREADS, 1, 1, 0, p_img));
  for (int it = 0; it < cfg->iters; it++) {
    BENCH_CK(r, ws_launch_kernel(k_prepare, blocks, 1, 1, SRAD_THREADS, 1, 1, 0, p_prep));
    int no = (int)ne, mul = 1;
    void *p_red[] = {&ne, &no, &mul, &d_sums, &d_sums2};
    do {
      unsigned rb = (unsigned)((no + SRAD_THREADS - 1) / SRAD_THREADS);
      BENCH_CK(r, ws_launch_kernel(k_reduce, rb, 1, 1, SRAD_THREADS, 1, 1, 0, p_red));
      no = (int)rb;
      mul *= SRAD_THREADS;
    } while (no > 1);
    float total, total2;
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, &total, d_sums, sizeof(float)));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, &total2, d_sums2, sizeof(float)));
    q0sqr = srad_q0sqr(total, total2, ne);
    BENCH_CK(r, ws_launch_kernel(k_srad, blocks, 1, 1, SRAD_THREADS, 1, 1, 0, p_srad));
    BENCH_CK(r, ws_launch_kernel(k_srad2, blocks, 1, 1, SRAD_THREADS, 1, 1, 0, p_srad2));
  }
  BENCH_CK(r, ws_launch_kernel(k_compress, blocks, 1, 1, SRAD_THREADS, 1, 1, 0, p_img));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_i, fbytes));

  memcpy(want, img, fbytes);
  srad_cpu(want, nr, nc, cfg->iters, &b);
  status = bench_check_f32(r, "image", got, want, (size_t)ne, 1e-3, 1e-2) ? BENCH_MISMATCH : BENCH_PASS;

fail : {
  WsDevPtr all[] = {d_i, d_in, d_is, d_je, d_jw, d_dn, d_ds, d_de, d_dw, d_c, d_sums, d_sums2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (all[i]) ws_mem_free(r->ctx, all[i]);
}
  if (mod) ws_module_unload(mod);
  free(img);
  free(want);
  free(got);
  free(b.in);
  free(b.is);
  free(b.je);
  free(b.jw);
  free(b.dn);
  free(b.ds);
  free(b.de);
  free(b.dw);
  free(b.c);
  free(b.sums);
  free(b.sums2);
  return status;
}

const BenchDesc bench_desc_srad_v1 = {
    .name = "srad_v1",
    .summary =
        "SRAD v1 speckle-reducing diffusion: 6 kernels, shared-memory tree reduction, exp/log/division",
    .papers = "CAWA, CCWS",
    .suite = "I",
    .sizes = {"64x48 image, 2 iterations", "502x458 image (CAWA's input), 6 iterations",
              "502x458 image, 100 iterations (Rodinia's default run)"},
    .run = srad_run,
};
