/* hotspot.c - host driver of the hotspot benchmark (Rodinia HotSpot): seeded
 * temperature and power maps, Rodinia's chip constants; the host launches
 * hotspot_step once per `pyramid` time steps (ping-pong buffers) on
 * (16 - 2 * pyramid)-wide overlapping tiles. Checked against the same time
 * steps on the CPU (explicit 5-point update, neighbours clamped at the chip's
 * edge) with the kernel's float/double types. */
#include "bench.h"

#include <stdlib.h>

#define HS_TILE 16

typedef struct HotspotSize {
  int n, pyramid, iters;
} HotspotSize; /* n x n grid */

/* paper: the bypassing paper's evaluation input (512 x 512, Rodinia's run script pyramid 2);
 * 4 time steps = two launches. */
static const HotspotSize hotspot_sizes[BENCH_NSIZES] = {{64, 2, 4}, {256, 2, 4}, {512, 2, 4}};

/* Rodinia's chip constants (hotspot.cu). */
#define HS_CHIP_HEIGHT 0.016
#define HS_CHIP_WIDTH 0.016
#define HS_T_CHIP 0.0005
#define HS_FACTOR_CHIP 0.5
#define HS_SPEC_HEAT_SI 1.75e6
#define HS_K_SI 100.0
#define HS_MAX_PD 3.0e6
#define HS_PRECISION 0.001

typedef struct HotspotConsts {
  float cap, rx, ry, rz, dt;
} HotspotConsts;

static HotspotConsts hotspot_consts(int rows, int cols) {
  const double gh = HS_CHIP_HEIGHT / rows, gw = HS_CHIP_WIDTH / cols;
  HotspotConsts c;
  c.cap = (float)(HS_FACTOR_CHIP * HS_SPEC_HEAT_SI * HS_T_CHIP * gw * gh);
  c.rx = (float)(gw / (2.0 * HS_K_SI * HS_T_CHIP * gh));
  c.ry = (float)(gh / (2.0 * HS_K_SI * HS_T_CHIP * gw));
  c.rz = (float)(HS_T_CHIP / (HS_K_SI * gh * gw));
  const double max_slope = HS_MAX_PD / (HS_FACTOR_CHIP * HS_T_CHIP * HS_SPEC_HEAT_SI);
  c.dt = (float)(HS_PRECISION / max_slope);
  return c;
}

/* One time step on the CPU, the kernel's expression and types. */
static void hotspot_reference_step(const float *p, const float *t, float *out, int rows, int cols,
                                   HotspotConsts c) {
  const float k_dt = c.dt / c.cap, inv_rx = 1.0f / c.rx, inv_ry = 1.0f / c.ry, inv_rz = 1.0f / c.rz;
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < cols; x++) {
      const size_t k = (size_t)y * cols + x;
      const float tc = t[k];
      const float tn = t[(size_t)(y > 0 ? y - 1 : y) * cols + x];
      const float ts = t[(size_t)(y < rows - 1 ? y + 1 : y) * cols + x];
      const float tw = t[(size_t)y * cols + (x > 0 ? x - 1 : x)];
      const float te = t[(size_t)y * cols + (x < cols - 1 ? x + 1 : x)];
      out[k] = tc + k_dt * (p[k] + (ts + tn - 2.0 * tc) * inv_ry + (te + tw - 2.0 * tc) * inv_rx +
                            (80.0f - tc) * inv_rz);
    }
}

static int hotspot_run(BenchRun *r) {
  const HotspotSize sz = hotspot_sizes[r->size];
  const size_t n = (size_t)sz.n * sz.n, bytes = n * sizeof(float);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_p = 0, d_t[2] = {0, 0};
  float *p = malloc(bytes), *t = malloc(bytes), *u = malloc(bytes), *got = malloc(bytes);
  if (!p || !t || !u || !got) {
    fprintf(r->log, "hotspot: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  /* Temperatures around Rodinia's inputs (323..343 K); power up to 1 mW per cell with a few
   * hot blocks, as on a floorplan. */
  for (size_t i = 0; i < n; i++) t[i] = bench_rng_range(&g, 323.0f, 343.0f);
  for (size_t i = 0; i < n; i++) p[i] = bench_rng_range(&g, 0.0f, 2e-4f);
  for (int b = 0; b < 8; b++) {
    const int by = (int)bench_rng_below(&g, (uint32_t)sz.n), bx = (int)bench_rng_below(&g, (uint32_t)sz.n);
    for (int y = by; y < by + sz.n / 8 && y < sz.n; y++)
      for (int x = bx; x < bx + sz.n / 8 && x < sz.n; x++)
        p[(size_t)y * sz.n + x] = bench_rng_range(&g, 5e-4f, 1e-3f);
  }
  const HotspotConsts c = hotspot_consts(sz.n, sz.n);
  const int inner = HS_TILE - 2 * sz.pyramid, blocks = (sz.n + inner - 1) / inner;
  if (r->verbose > 0)
    fprintf(r->log, "hotspot: %dx%d grid, %d steps, pyramid %d, grid %dx%d CTAs\n", sz.n, sz.n, sz.iters,
            sz.pyramid, blocks, blocks);

  if (bench_load_module(r, "hotspot", "hotspot.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "hotspot_step"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_p, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_t[0], bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_t[1], bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_p, p, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_t[0], t, bytes));
  int cur = 0, cols = sz.n, rows = sz.n, steps = sz.pyramid, halo = sz.pyramid;
  float cap = c.cap, rx = c.rx, ry = c.ry, rz = c.rz, dt = c.dt;
  /* sizes use a multiple of the pyramid height, so every launch advances `pyramid` steps */
  for (int it = 0; it < sz.iters; it += sz.pyramid) {
    void *params[] = {&steps, &d_p, &d_t[cur], &d_t[1 - cur], &cols, &rows, &halo,
                      &halo,  &cap, &rx,       &ry,           &rz,   &dt};
    BENCH_CK(r, ws_launch_kernel(fn, blocks, blocks, 1, HS_TILE, HS_TILE, 1, 0, params));
    cur = 1 - cur;
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_t[cur], bytes));

  for (int it = 0; it < sz.iters; it++) {
    hotspot_reference_step(p, t, u, sz.n, sz.n, c);
    float *s = t;
    t = u;
    u = s;
  }
  /* Each step changes a cell by ~1e-2 K around 330 K; the GPU contracts a*b+c into FMAs, so
   * results differ from the CPU's by a few float ulps (3e-5 K) per step: rel 1e-6 (~3e-4 K). */
  status = bench_check_f32(r, "temperature", got, t, n, 1e-6, 0.0) ? BENCH_MISMATCH : BENCH_PASS;
fail:
  if (d_p) ws_mem_free(r->ctx, d_p);
  if (d_t[0]) ws_mem_free(r->ctx, d_t[0]);
  if (d_t[1]) ws_mem_free(r->ctx, d_t[1]);
  if (mod) ws_module_unload(mod);
  free(p);
  free(t);
  free(u);
  free(got);
  return status;
}

const BenchDesc bench_desc_hotspot = {
    .name = "hotspot",
    .summary = "Rodinia HotSpot: thermal 5-point stencil on overlapping 16x16 shared-memory tiles, "
               "pyramid of time steps per launch (two barriers per step); two streaming loads",
    .papers = "coordinated bypassing",
    .suite = "II",
    .sizes = {"64x64, 4 steps, pyramid 2", "256x256, 4 steps, pyramid 2",
              "512x512, 4 steps, pyramid 2 (the bypassing paper's evaluation input)"},
    .run = hotspot_run,
};
