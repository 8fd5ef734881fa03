/* tpacf.c - host driver of the tpacf benchmark (Parboil-style two-point angular
 * correlation): seeded clustered data and uniform random catalogues on the unit
 * sphere, DD / RR / DR histograms over 20 log-spaced bins (1 to 10^4 arcmin).
 * The CPU reference bins with the same float operations (fmaf as in the PTX),
 * so the integer histograms must match exactly. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define TPACF_BLOCK 256
#define TPACF_EDGES 21
#define TPACF_SLOTS (TPACF_EDGES + 1)
#define TPACF_CLUSTERS 12

typedef struct TpacfSize {
  int npoints, nsets;
} TpacfSize;

/* paper: CAWA's 487 points x 100 random sets (Parboil's default dataset). */
static const TpacfSize tpacf_sizes[BENCH_NSIZES] = {{100, 2}, {487, 24}, {487, 100}};

static void tpacf_unit(double x, double y, double z, float *ox, float *oy, float *oz) {
  double len = sqrt(x * x + y * y + z * z);
  *ox = (float)(x / len);
  *oy = (float)(y / len);
  *oz = (float)(z / len);
}

static void tpacf_uniform(BenchRng *g, double *x, double *y, double *z) {
  double zz = 2.0 * bench_rng_float(g) - 1.0, phi = 2.0 * M_PI * bench_rng_float(g);
  double rr = sqrt(1.0 - zz * zz);
  *x = rr * cos(phi);
  *y = rr * sin(phi);
  *z = zz;
}

static void tpacf_generate(float *px, float *py, float *pz, int npoints, int nsets, uint64_t seed) {
  BenchRng g;
  bench_rng_seed(&g, seed);
  double cx[TPACF_CLUSTERS], cy[TPACF_CLUSTERS], cz[TPACF_CLUSTERS];
  for (int c = 0; c < TPACF_CLUSTERS; c++) tpacf_uniform(&g, &cx[c], &cy[c], &cz[c]);
  /* Set 0, the data: 60% of the points in clusters of ~30 arcmin, 40% uniform. */
  for (int i = 0; i < npoints; i++) {
    double x, y, z;
    if (bench_rng_below(&g, 10) < 6) {
      int c = (int)bench_rng_below(&g, TPACF_CLUSTERS);
      const double sigma = 0.009; /* radians */
      x = cx[c] + sigma * bench_rng_normal(&g);
      y = cy[c] + sigma * bench_rng_normal(&g);
      z = cz[c] + sigma * bench_rng_normal(&g);
    } else {
      tpacf_uniform(&g, &x, &y, &z);
    }
    tpacf_unit(x, y, z, &px[i], &py[i], &pz[i]);
  }
  /* Sets 1..nsets: uniform random catalogues. */
  for (size_t i = (size_t)npoints; i < (size_t)npoints * (nsets + 1); i++) {
    double x, y, z;
    tpacf_uniform(&g, &x, &y, &z);
    tpacf_unit(x, y, z, &px[i], &py[i], &pz[i]);
  }
}

static int tpacf_slot(const float *edges, float dot) {
  int lo = 0, hi = TPACF_EDGES;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (edges[mid] >= dot)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static void tpacf_reference(uint32_t *hists, const float *px, const float *py, const float *pz, int npoints,
                            int nsets, const float *edges) {
  for (int h = 0; h < 2 * nsets + 1; h++) {
    int set1 = h <= nsets ? h : 0, set2 = h <= nsets ? h : h - nsets;
    const float *x1 = px + (size_t)set1 * npoints, *y1 = py + (size_t)set1 * npoints;
    const float *z1 = pz + (size_t)set1 * npoints, *x2 = px + (size_t)set2 * npoints;
    const float *y2 = py + (size_t)set2 * npoints, *z2 = pz + (size_t)set2 * npoints;
    uint32_t *hist = hists + (size_t)h * TPACF_SLOTS;
    for (int i = 0; i < npoints; i++)
      for (int j = set1 == set2 ? i + 1 : 0; j < npoints; j++) {
        float dot = fmaf(z1[i], z2[j], fmaf(y1[i], y2[j], x1[i] * x2[j]));
        hist[tpacf_slot(edges, dot)]++;
      }
  }
}

static int tpacf_run(BenchRun *r) {
  const TpacfSize sz = tpacf_sizes[r->size];
  const size_t npts = (size_t)sz.npoints * (sz.nsets + 1);
  const int nhists = 2 * sz.nsets + 1;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_x = 0, d_y = 0, d_z = 0, d_hists = 0, d_edges = 0;
  float *px = malloc(npts * sizeof *px), *py = malloc(npts * sizeof *py);
  float *pz = malloc(npts * sizeof *pz);
  uint32_t *got = malloc((size_t)nhists * TPACF_SLOTS * sizeof *got);
  uint32_t *want = calloc((size_t)nhists * TPACF_SLOTS, sizeof *want);
  if (!px || !py || !pz || !got || !want) {
    fprintf(r->log, "tpacf: out of host memory\n");
    goto fail;
  }
  tpacf_generate(px, py, pz, sz.npoints, sz.nsets, r->seed);
  /* Edges: cosines of 10^(k/5) arcmin, k = 0..20, descending. */
  float edges[TPACF_EDGES];
  for (int k = 0; k < TPACF_EDGES; k++) edges[k] = (float)cos(pow(10.0, k / 5.0) / 60.0 * M_PI / 180.0);
  if (r->verbose > 0)
    fprintf(r->log, "tpacf: %d points, %d random sets, %d histograms (CTAs)\n", sz.npoints, sz.nsets, nhists);

  if (bench_load_module(r, "tpacf", "tpacf.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "tpacf_kernel"));
  size_t edges_bytes = 0;
  BENCH_CK(r, ws_module_get_global(&d_edges, &edges_bytes, mod, "tp_edges"));
  if (edges_bytes != sizeof edges) {
    fprintf(r->log, "tpacf: tp_edges is %zu bytes, expected %zu\n", edges_bytes, sizeof edges);
    goto fail;
  }
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_edges, edges, sizeof edges)); /* module memory: not freed */
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_x, npts * sizeof *px));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_y, npts * sizeof *py));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_z, npts * sizeof *pz));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_hists, (size_t)nhists * TPACF_SLOTS * sizeof *got));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_x, px, npts * sizeof *px));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_y, py, npts * sizeof *py));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_z, pz, npts * sizeof *pz));
  int npoints = sz.npoints, nsets = sz.nsets;
  void *params[] = {&d_hists, &d_x, &d_y, &d_z, &npoints, &nsets};
  BENCH_CK(r, ws_launch_kernel(fn, (unsigned)nhists, 1, 1, TPACF_BLOCK, 1, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_hists, (size_t)nhists * TPACF_SLOTS * sizeof *got));

  tpacf_reference(want, px, py, pz, sz.npoints, sz.nsets, edges);
  status = bench_check_u32(r, "histograms (DD, RR..., DR...)", got, want, (size_t)nhists * TPACF_SLOTS)
               ? BENCH_MISMATCH
               : BENCH_PASS;
fail:
  if (d_x) ws_mem_free(r->ctx, d_x);
  if (d_y) ws_mem_free(r->ctx, d_y);
  if (d_z) ws_mem_free(r->ctx, d_z);
  if (d_hists) ws_mem_free(r->ctx, d_hists);
  if (mod) ws_module_unload(mod);
  free(px);
  free(py);
  free(pz);
  free(got);
  free(want);
  return status;
}

const BenchDesc bench_desc_tpacf = {
    .name = "tpacf",
    .summary = "Parboil tpacf: pairwise angular histograms, point tiles staged in shared memory, "
               "binary search over constant-memory bin edges, shared atomics",
    .papers = "BAWS, CAWA (control), coordinated bypassing",
    .suite = "II",
    .sizes = {"100 points, 2 random sets (5 CTAs)", "487 points, 24 random sets (49 CTAs)",
              "487 points, 100 random sets (201 CTAs)"},
    .run = tpacf_run,
};
