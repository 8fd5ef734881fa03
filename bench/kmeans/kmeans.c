/* kmeans.c - host driver of the kmeans benchmark: Rodinia-style k-means over
 * seeded Gaussian-blob points (34 features, k = 5, point-major layout). The
 * GPU assigns points to the nearest centroid, the host recomputes centroids,
 * for a fixed number of iterations; checked against a CPU k-means run. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define KMEANS_BLOCK 256
#define KMEANS_FEATURES 34
#define KMEANS_CLUSTERS 5
#define KMEANS_BLOBS 8 /* Gaussian blobs the points are drawn from */

static const int kmeans_points[BENCH_NSIZES] = {4096, 81920, 494020};
static const int kmeans_iters[BENCH_NSIZES] = {3, 5, 10};

/* Points from KMEANS_BLOBS Gaussian blobs (centres uniform in [0,1)^34,
 * sigma 0.15), like the normalised kdd_cup features Rodinia ships. */
static void kmeans_gen(float *feat, int n, BenchRng *g) {
  float centre[KMEANS_BLOBS][KMEANS_FEATURES];
  for (int b = 0; b < KMEANS_BLOBS; b++)
    for (int f = 0; f < KMEANS_FEATURES; f++) centre[b][f] = bench_rng_float(g);
  for (int p = 0; p < n; p++) {
    int b = (int)bench_rng_below(g, KMEANS_BLOBS);
    for (int f = 0; f < KMEANS_FEATURES; f++)
      feat[(size_t)p * KMEANS_FEATURES + f] = centre[b][f] + 0.15f * (float)bench_rng_normal(g);
  }
}

/* CPU assignment, same float operation order as the kernel (sub, then fma). */
static void kmeans_assign_cpu(const float *feat, const float *clu, int32_t *member, int n) {
  for (int p = 0; p < n; p++) {
    int index = 0;
    float min_dist = FLT_MAX;
    for (int c = 0; c < KMEANS_CLUSTERS; c++) {
      float dist = 0.0f;
      for (int f = 0; f < KMEANS_FEATURES; f++) {
        float d = feat[(size_t)p * KMEANS_FEATURES + f] - clu[c * KMEANS_FEATURES + f];
        dist = fmaf(d, d, dist);
      }
      if (dist < min_dist) {
        min_dist = dist;
        index = c;
      }
    }
    member[p] = index;
  }
}

/* New centroids: mean of the members (double sums in point order); an empty
 * cluster keeps its centroid. Shared by the GPU and CPU paths. */
static int kmeans_update(const float *feat, const int32_t *member, int n, float *clu) {
  double sum[KMEANS_CLUSTERS][KMEANS_FEATURES];
  int count[KMEANS_CLUSTERS] = {0};
  memset(sum, 0, sizeof sum);
  for (int p = 0; p < n; p++) {
    int c = member[p];
    if (c < 0 || c >= KMEANS_CLUSTERS) return -1;
    count[c]++;
    for (int f = 0; f < KMEANS_FEATURES; f++) sum[c][f] += feat[(size_t)p * KMEANS_FEATURES + f];
  }
  for (int c = 0; c < KMEANS_CLUSTERS; c++)
    if (count[c])
      for (int f = 0; f < KMEANS_FEATURES; f++) clu[c * KMEANS_FEATURES + f] = (float)(sum[c][f] / count[c]);
  return 0;
}

static int kmeans_run(BenchRun *r) {
  int n = kmeans_points[r->size], iters = kmeans_iters[r->size];
  int nclusters = KMEANS_CLUSTERS, nfeatures = KMEANS_FEATURES;
  size_t feat_bytes = sizeof(float) * (size_t)n * KMEANS_FEATURES;
  size_t clu_bytes = sizeof(float) * KMEANS_CLUSTERS * KMEANS_FEATURES;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_feat = 0, d_clu = 0, d_member = 0;
  float clu[KMEANS_CLUSTERS * KMEANS_FEATURES], want_clu[KMEANS_CLUSTERS * KMEANS_FEATURES];
  float *feat = malloc(feat_bytes);
  int32_t *member = malloc(sizeof(int32_t) * (size_t)n), *want = malloc(sizeof(int32_t) * (size_t)n);
  if (!feat || !member || !want) {
    fprintf(r->log, "kmeans: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  kmeans_gen(feat, n, &g);
  /* Initial centroids: the first k points (as Rodinia). */
  memcpy(clu, feat, clu_bytes);
  memcpy(want_clu, feat, clu_bytes);

  /* CPU reference run. */
  for (int it = 0; it < iters; it++) {
    kmeans_assign_cpu(feat, want_clu, want, n);
    kmeans_update(feat, want, n, want_clu);
  }
  if (r->verbose > 0)
    fprintf(r->log, "kmeans: %d points x %d features, k = %d, %d iterations, %d CTAs of %d threads\n", n,
            KMEANS_FEATURES, KMEANS_CLUSTERS, iters, (n + KMEANS_BLOCK - 1) / KMEANS_BLOCK, KMEANS_BLOCK);

  if (bench_load_module(r, "kmeans", "kmeans.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "kmeans_assign"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_feat, feat_bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_clu, clu_bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_member, sizeof(int32_t) * (size_t)n));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_feat, feat, feat_bytes));
  void *params[] = {&d_feat, &d_clu, &d_member, &n, &nclusters, &nfeatures};
  unsigned grid = (unsigned)((n + KMEANS_BLOCK - 1) / KMEANS_BLOCK);
  for (int it = 0; it < iters; it++) {
    BENCH_CK(r, ws_memcpy_htod(r->ctx, d_clu, clu, clu_bytes));
    BENCH_CK(r, ws_memset_d32(r->ctx, d_member, 0xffffffffu, (size_t)n));
    BENCH_CK(r, ws_launch_kernel(fn, grid, 1, 1, KMEANS_BLOCK, 1, 1, 0, params));
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, member, d_member, sizeof(int32_t) * (size_t)n));
    if (kmeans_update(feat, member, n, clu) != 0) {
      fprintf(r->log, "kmeans: iteration %d: membership out of range\n", it);
      status = BENCH_MISMATCH;
      goto fail;
    }
  }

  size_t bad = bench_check_i32(r, "membership", member, want, (size_t)n);
  bad += bench_check_f32(r, "centroid", clu, want_clu, KMEANS_CLUSTERS * KMEANS_FEATURES, 1e-5, 1e-6);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_feat) ws_mem_free(r->ctx, d_feat);
  if (d_clu) ws_mem_free(r->ctx, d_clu);
  if (d_member) ws_mem_free(r->ctx, d_member);
  if (mod) ws_module_unload(mod);
  free(feat);
  free(member);
  free(want);
  return status;
}

const BenchDesc bench_desc_kmeans = {
    .name = "kmeans",
    .summary = "k-means assignment, point-major rows (34 floats/thread, reused per cluster): L1 thrashing",
    .papers = "CAWA, CCWS, iWarp",
    .suite = "I",
    .sizes = {"4096 points x 34 features, k=5, 3 iterations", "81920 points x 34 features, k=5, 5 iterations",
              "494020 points x 34 features (kdd_cup size), k=5, 10 iterations"},
    .run = kmeans_run,
};
