/* streamcluster.c - host driver of streamcluster and streamcluster_mid: the
 * local search of Rodinia's streamcluster (k-median with facility cost z:
 * pspeedy initial solution, then pFL passes over a shuffled feasible set) on
 * seeded uniform random points, with every pgain evaluated on the device and
 * checked against a CPU evaluation of the same call before the host applies it. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define SC_BLOCK 512
#define SC_KMIN 10
#define SC_KMAX 20
#define SC_CLUSTERS 16
#define SC_ADJUST 10 /* pgain calls between facility cost adjustments */

/* Device layout of the kernel's ScPoint (32 bytes). */
typedef struct ScPoint {
  float weight;
  uint32_t pad0;
  uint64_t coord; /* host pointer in the original; unused */
  int64_t assign;
  float cost;
  uint32_t pad1;
} ScPoint;

typedef struct ScConfig {
  int n, dim;
  int passes; /* pFL passes */
  int iter;   /* pgain calls per pass (Rodinia: 3*kmax*ln(kmax)) */
} ScConfig;

typedef struct ScState {
  int n, dim;
  float *coord; /* dimension-major: coord[d*n + i] */
  ScPoint *pts;
  uint8_t *is_center;
  int32_t *center_table;
  float z;
} ScState;

/* Squared distance as the kernel computes it (difference, then fma). */
static float sc_dist(const ScState *s, int a, int b) {
  float d = 0.0f;
  for (int i = 0; i < s->dim; i++) {
    float t = s->coord[(size_t)i * s->n + a] - s->coord[(size_t)i * s->n + b];
    d = fmaf(t, t, d);
  }
  return d;
}

/* Rodinia's pspeedy: point 0 opens, then each point opens a facility with
 * probability cost/z and pulls in the points closer to it. Returns centers. */
static int sc_pspeedy(ScState *s, BenchRng *rng) {
  int k = 1;
  for (int i = 0; i < s->n; i++) {
    s->pts[i].cost = sc_dist(s, i, 0) * s->pts[i].weight;
    s->pts[i].assign = 0;
  }
  for (int i = 1; i < s->n; i++) {
    if (bench_rng_float(rng) < s->pts[i].cost / s->z) {
      k++;
      for (int j = 0; j < s->n; j++) {
        float c = sc_dist(s, i, j) * s->pts[j].weight;
        if (c < s->pts[j].cost) {
          s->pts[j].cost = c;
          s->pts[j].assign = i;
        }
      }
    }
  }
  memset(s->is_center, 0, (size_t)s->n);
  for (int i = 0; i < s->n; i++) s->is_center[s->pts[i].assign] = 1;
  return k;
}

/* CPU evaluation of one pgain kernel call. */
static void sc_pgain_cpu(const ScState *s, int x, int K, int stride, float *work, uint8_t *sw) {
  for (int i = 0; i < s->n; i++) {
    float *lower = &work[(size_t)i * stride];
    float x_cost = sc_dist(s, i, x) * s->pts[i].weight;
    float cur = s->pts[i].cost;
    if (x_cost < cur) {
      sw[i] = 1;
      lower[K] = (x_cost - cur) + lower[K];
    } else {
      lower[s->center_table[s->pts[i].assign]] = (cur - x_cost) + lower[s->center_table[s->pts[i].assign]];
    }
  }
}

/* Host part of pgain (as in the original): sum the per-point rows, decide
 * whether opening x (and closing the centers it makes redundant) pays off,
 * and apply it. Returns the gain. */
static float sc_pgain_apply(ScState *s, int x, int K, int stride, const float *work, const uint8_t *sw,
                            float *gl_lower) {
  float gl_cost = s->z;
  for (int i = 0; i < s->n; i++) {
    if (!s->is_center[i]) continue;
    float low = s->z;
    int c = s->center_table[i];
    for (int j = 0; j < s->n; j++) low += work[(size_t)j * stride + c];
    gl_lower[c] = low;
    if (low > 0) gl_cost -= low;
  }
  for (int j = 0; j < s->n; j++) gl_cost += work[(size_t)j * stride + K];
  if (gl_cost < 0) {
    for (int i = 0; i < s->n; i++) {
      int close_center = gl_lower[s->center_table[s->pts[i].assign]] > 0;
      if (sw[i] || close_center) {
        s->pts[i].cost = sc_dist(s, i, x) * s->pts[i].weight;
        s->pts[i].assign = x;
      }
    }
    for (int i = 0; i < s->n; i++)
      if (s->is_center[i] && gl_lower[s->center_table[i]] > 0) s->is_center[i] = 0;
    s->is_center[x] = 1;
  } else {
    gl_cost = 0;
  }
  return -gl_cost;
}

static int sc_run(BenchRun *r, const char *name, const ScConfig *cfg) {
  int n = cfg->n, dim = cfg->dim, status = BENCH_ERROR;
  ScState s = {.n = n, .dim = dim};
  WsModule *mod = NULL;
  WsDevPtr d_coord = 0, d_pts = 0, d_work = 0, d_ct = 0, d_sw = 0;
  size_t work_cap = 0; /* floats allocated for work_mem (host and device) */
  float *work = NULL, *want = NULL, *gl_lower = NULL;
  uint8_t *sw = malloc((size_t)n), *want_sw = malloc((size_t)n);
  int32_t *feasible = NULL;
  s.coord = malloc(sizeof(float) * (size_t)n * dim);
  s.pts = calloc((size_t)n, sizeof(ScPoint));
  s.is_center = calloc((size_t)n, 1);
  s.center_table = calloc((size_t)n, sizeof(int32_t));
  gl_lower = malloc(sizeof(float) * (size_t)n);
  if (!sw || !want_sw || !s.coord || !s.pts || !s.is_center || !s.center_table || !gl_lower) {
    fprintf(r->log, "%s: out of host memory\n", name);
    goto fail;
  }

  /* Points in SC_CLUSTERS Gaussian clusters around uniform random centres in
   * the unit cube (so the number of centers settles in [kmin, kmax]), in
   * random order, unit weights. */
  BenchRng rng;
  bench_rng_seed(&rng, r->seed);
  float ctr[SC_CLUSTERS][64], sig[SC_CLUSTERS];
  for (int c = 0; c < SC_CLUSTERS; c++) {
    sig[c] = bench_rng_range(&rng, 0.04f, 0.12f);
    for (int d = 0; d < dim && d < 64; d++) ctr[c][d] = bench_rng_float(&rng);
  }
  for (int i = 0; i < n; i++) {
    int c = (int)bench_rng_below(&rng, SC_CLUSTERS);
    for (int d = 0; d < dim; d++)
      s.coord[(size_t)d * n + i] = ctr[c][d % 64] + sig[c] * (float)bench_rng_normal(&rng);
  }
  for (int i = 0; i < n; i++) s.pts[i].weight = 1.0f;

  /* Initial solution: binary search on the facility cost until pspeedy opens
   * at least kmin centers (pkmedian's start). */
  float hiz = 0, loz = 0;
  for (int i = 0; i < n; i++) hiz += sc_dist(&s, i, 0) * s.pts[i].weight;
  s.z = (hiz + loz) / 2;
  int k = sc_pspeedy(&s, &rng);
  for (int tries = 0; k < SC_KMIN && tries < 64; tries++) {
    hiz = s.z;
    s.z = (hiz + loz) / 2;
    k = sc_pspeedy(&s, &rng);
  }

  /* Feasible candidate facilities (selectfeasible_fast: ITER*kmin*ln(kmin)). */
  int nfeas = (int)(3 * SC_KMIN * log((double)SC_KMIN));
  if (nfeas > n) nfeas = n;
  feasible = malloc(sizeof(int32_t) * (size_t)nfeas);
  if (!feasible) goto fail;
  for (int i = 0; i < nfeas; i++) feasible[i] = (int32_t)bench_rng_below(&rng, (uint32_t)n);
  if (r->verbose > 0)
    fprintf(r->log, "%s: %d points x %d dims, %d initial centers (z=%g), %d passes x %d pgain calls\n", name,
            n, dim, k, (double)s.z, cfg->passes, cfg->iter);

  if (bench_load_module(r, "streamcluster", "streamcluster.ptx", &mod)) goto fail;
  WsFunction *fn;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "streamcluster_pgain"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_coord, sizeof(float) * (size_t)n * dim));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_pts, sizeof(ScPoint) * (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_ct, sizeof(int32_t) * (size_t)n));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_sw, (size_t)n));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_coord, s.coord, sizeof(float) * (size_t)n * dim));

  unsigned blocks = (unsigned)((n + SC_BLOCK - 1) / SC_BLOCK);
  unsigned grid_y = (blocks + 65535) / 65536, grid_x = (blocks + grid_y - 1) / grid_y;
  size_t bad = 0;
  double total_gain = 0;
  int opened = 0, kmin_seen = n, kmax_seen = 0;
  for (int pass = 0; pass < cfg->passes && !bad; pass++) {
    /* shuffle the feasible set, then try them in turn (pFL) */
    for (int i = nfeas - 1; i > 0; i--) {
      int j = (int)bench_rng_below(&rng, (uint32_t)i + 1);
      int32_t t = feasible[i];
      feasible[i] = feasible[j];
      feasible[j] = t;
    }
    for (int it = 0; it < cfg->iter && !bad; it++) {
      int x = feasible[it % nfeas];
      int K = 0;
      for (int i = 0; i < n; i++)
        if (s.is_center[i]) s.center_table[i] = K++;
      int stride = K + 1;
      size_t wn = (size_t)stride * (n + 1);
      if (wn > work_cap) {
        free(work);
        free(want);
        work = malloc(sizeof(float) * wn);
        want = malloc(sizeof(float) * wn);
        if (!work || !want) {
          fprintf(r->log, "%s: out of host memory\n", name);
          goto fail;
        }
        if (d_work) BENCH_CK(r, ws_mem_free(r->ctx, d_work));
        d_work = 0;
        BENCH_CK(r, ws_mem_alloc(r->ctx, &d_work, sizeof(float) * wn));
        work_cap = wn;
      }
      BENCH_CK(r, ws_memcpy_htod(r->ctx, d_pts, s.pts, sizeof(ScPoint) * (size_t)n));
      BENCH_CK(r, ws_memcpy_htod(r->ctx, d_ct, s.center_table, sizeof(int32_t) * (size_t)n));
      BENCH_CK(r, ws_memset_d8(r->ctx, d_sw, 0, (size_t)n));
      BENCH_CK(r, ws_memset_d8(r->ctx, d_work, 0, sizeof(float) * wn));
      long xl = x;
      void *params[] = {&n, &dim, &xl, &d_pts, &K, &stride, &d_coord, &d_work, &d_ct, &d_sw};
      BENCH_CK(r, ws_launch_kernel(fn, grid_x, grid_y, 1, SC_BLOCK, 1, 1, 0, params));
      BENCH_CK(r, ws_memcpy_dtoh(r->ctx, work, d_work, sizeof(float) * wn));
      BENCH_CK(r, ws_memcpy_dtoh(r->ctx, sw, d_sw, (size_t)n));

      memset(want, 0, sizeof(float) * wn);
      memset(want_sw, 0, (size_t)n);
      sc_pgain_cpu(&s, x, K, stride, want, want_sw);
      bad += bench_check_f32(r, "work_mem", work, want, wn, 1e-4, 1e-4);
      for (int i = 0; i < n; i++)
        if (sw[i] != want_sw[i] && bad++ < 10)
          fprintf(r->log, "switch_membership[%d]: got %u, want %u (x_cost %.9g, cost %.9g)\n", i, sw[i],
                  want_sw[i], (double)(sc_dist(&s, i, x) * s.pts[i].weight), (double)s.pts[i].cost);
      if (bad) {
        fprintf(r->log, "%s: pgain call %d (pass %d, x=%d, K=%d) differs\n", name, it, pass, x, K);
        break;
      }
      float gain = sc_pgain_apply(&s, x, K, stride, work, sw, gl_lower);
      if (gain > 0) opened++;
      total_gain += gain;
      if (K < kmin_seen) kmin_seen = K;
      if (K > kmax_seen) kmax_seen = K;
      /* facility cost adjustment of pkmedian's outer loop (binary search on
       * z while the number of centers is outside [kmin, kmax]), applied
       * every SC_ADJUST calls so that it takes effect within a pass */
      if ((it + 1) % SC_ADJUST == 0) {
        int kc = 0;
        for (int i = 0; i < n; i++) kc += s.is_center[i];
        if (kc > SC_KMAX) {
          loz = s.z;
          s.z = (hiz + loz) / 2;
        } else if (kc < SC_KMIN) {
          hiz = s.z;
          s.z = (hiz + loz) / 2;
        }
      }
    }
  }
  if (r->verbose > 0 && !bad) {
    int kc = 0;
    double cost = 0;
    for (int i = 0; i < n; i++) {
      kc += s.is_center[i];
      cost += s.pts[i].cost;
    }
    fprintf(r->log,
            "%s: %d centers (K %d..%d during the run, z=%g), cost %.4g, %d improving moves, gain %.4g\n",
            name, kc, kmin_seen, kmax_seen, (double)s.z, cost, opened, total_gain);
  }
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_coord) ws_mem_free(r->ctx, d_coord);
  if (d_pts) ws_mem_free(r->ctx, d_pts);
  if (d_work) ws_mem_free(r->ctx, d_work);
  if (d_ct) ws_mem_free(r->ctx, d_ct);
  if (d_sw) ws_mem_free(r->ctx, d_sw);
  if (mod) ws_module_unload(mod);
  free(work);
  free(want);
  free(gl_lower);
  free(sw);
  free(want_sw);
  free(feasible);
  free(s.coord);
  free(s.pts);
  free(s.is_center);
  free(s.center_table);
  return status;
}

/* Rodinia's pFL pass length: ITER * kmax * ln(kmax) = 179 pgain calls. */
#define SC_ITER ((int)(3 * SC_KMAX * 2.995732273553991))

static int sc_run_small(BenchRun *r) {
  static const ScConfig cfg[BENCH_NSIZES] = {
      {1024, 32, 1, 40}, {4096, 32, 2, SC_ITER}, {4096, 32, 6, SC_ITER}};
  return sc_run(r, "streamcluster", &cfg[r->size]);
}

static int sc_run_mid(BenchRun *r) {
  static const ScConfig cfg[BENCH_NSIZES] = {
      {2048, 64, 1, 24}, {8192, 64, 1, SC_ITER}, {8192, 64, 6, SC_ITER}};
  return sc_run(r, "streamcluster_mid", &cfg[r->size]);
}

const BenchDesc bench_desc_streamcluster = {
    .name = "streamcluster",
    .summary =
        "streamcluster pgain (CAWA small input): dimension-major points, strided per-thread work_mem rows",
    .papers = "CAWA, CCWS, bypass",
    .suite = "I",
    .sizes = {"1024 points x 32 dims, 40 pgain calls",
              "4096 points x 32 dims, 2 pFL passes (358 pgain calls)",
              "4096 points x 32 dims (CAWA small), 6 pFL passes (1074 pgain calls)"},
    .run = sc_run_small,
};

const BenchDesc bench_desc_streamcluster_mid = {
    .name = "streamcluster_mid",
    .summary = "streamcluster pgain (CAWA mid input): 64-dim points, 16 CTAs of 512 threads",
    .papers = "CAWA",
    .suite = "I",
    .sizes = {"2048 points x 64 dims, 24 pgain calls", "8192 points x 64 dims, 1 pFL pass (179 pgain calls)",
              "8192 points x 64 dims (CAWA mid), 6 pFL passes (1074 pgain calls)"},
    .run = sc_run_mid,
};
