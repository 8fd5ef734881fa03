/* cutcp.c - host driver of the cutcp benchmark (Parboil CUTCP): seeded atoms
 * (3..8 per 4 A bin, charges +-[0.2, 1), filling a box that extends the
 * lattice by the cutoff's reach on every side), the neighbour-offset list of the bins
 * that can hold an atom within the cutoff of some point of a region (constant
 * memory), the bin grid padded by the list's reach; one launch of
 * (nx/8) x (ny/8) CTAs of 8 x 2 x 8 threads per z layer of 8 x 8 x 8 regions.
 * Every lattice point is checked against a double-precision CPU sum over the
 * same atoms. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CP_BIN_LEN 4.0
#define CP_BIN_DEPTH 8
#define CP_BIN_FLOATS 32
#define CP_NBR_MAX 1331
#define CP_H 0.5 /* lattice spacing, as Parboil */

typedef struct CutcpSize {
  int nx, ny, nz;
  float cutoff;
} CutcpSize;

/* paper: Parboil's cutoff (12 A) and spacing (0.5 A) on a 24 A cube of lattice (48^3 points);
 * Parboil's own watbox inputs (40 and 100 A boxes) are 0.15B-0.6B instructions. */
static const CutcpSize cutcp_sizes[BENCH_NSIZES] = {
    {16, 16, 8, 6.0f}, {32, 32, 16, 8.0f}, {48, 48, 48, 12.0f}};

typedef struct CpOff {
  int x, y, z;
} CpOff;

/* Per axis, the smallest distance from a region's points to bin (centre bin + i): a region
 * spans [centre - 4h, centre + 3h] and its centre lies in the centre bin. */
static double cutcp_gap(int i) {
  const double g = (abs(i) - 1) * CP_BIN_LEN - 4 * CP_H;
  return i == 0 || g < 0 ? 0.0 : g;
}

static int cutcp_run(BenchRun *r) {
  const CutcpSize sz = cutcp_sizes[r->size];
  const int nbx = (int)ceil(sz.nx * CP_H / CP_BIN_LEN), nby = (int)ceil(sz.ny * CP_H / CP_BIN_LEN);
  const int nbz = (int)ceil(sz.nz * CP_H / CP_BIN_LEN);
  const size_t npts = (size_t)sz.nx * sz.ny * sz.nz;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_bins = 0, d_out = 0, c_ptr = 0;
  size_t c_bytes = 0;
  CpOff *nbr = malloc(CP_NBR_MAX * sizeof *nbr);
  float *bins = NULL, *got = malloc(npts * sizeof(float)), *want = malloc(npts * sizeof(float));
  float *gridv = malloc(npts * sizeof(float));
  double *mag = malloc(npts * sizeof(double));
  if (!nbr || !got || !want || !gridv || !mag) goto oom;

  /* Neighbour offsets (Parboil's order: z, then y, then x). */
  int nlen = 0, reach = 0;
  const int lim = (int)ceil((sz.cutoff + 4 * CP_H) / CP_BIN_LEN) + 1;
  for (int k = -lim; k <= lim; k++)
    for (int j = -lim; j <= lim; j++)
      for (int i = -lim; i <= lim; i++) {
        const double gx = cutcp_gap(i), gy = cutcp_gap(j), gz = cutcp_gap(k);
        if (gx * gx + gy * gy + gz * gz >= (double)sz.cutoff * sz.cutoff) continue;
        if (nlen == CP_NBR_MAX) {
          fprintf(r->log, "cutcp: neighbour list longer than %d\n", CP_NBR_MAX);
          goto fail;
        }
        nbr[nlen++] = (CpOff){i, j, k};
        reach = abs(i) > reach ? abs(i) : reach;
      }
  /* Bin grid: the atoms' bins plus `reach` empty bins each side (+1 on the high side). */
  const int bdx = nbx + 2 * reach + 1, bdy = nby + 2 * reach + 1, bdz = nbz + 2 * reach + 1;
  const size_t nbin_all = (size_t)bdx * bdy * bdz;
  bins = calloc(nbin_all * CP_BIN_FLOATS, sizeof(float));
  if (!bins) goto oom;
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  size_t natoms = 0;
  /* The lattice is the middle of a bigger box of atoms: every bin of the padded grid is filled,
   * so every region sees full neighbour bins, as the inner regions of Parboil's inputs do. */
  for (int k = -reach; k < nbz + reach + 1; k++)
    for (int j = -reach; j < nby + reach + 1; j++)
      for (int i = -reach; i < nbx + reach + 1; i++) {
        float *bin = bins + ((((size_t)(k + reach) * bdy + j + reach) * bdx) + i + reach) * CP_BIN_FLOATS;
        const int count = 3 + (int)bench_rng_below(&g, CP_BIN_DEPTH - 2);
        for (int a = 0; a < count; a++) {
          bin[4 * a + 0] = (float)((i + bench_rng_float(&g)) * CP_BIN_LEN);
          bin[4 * a + 1] = (float)((j + bench_rng_float(&g)) * CP_BIN_LEN);
          bin[4 * a + 2] = (float)((k + bench_rng_float(&g)) * CP_BIN_LEN);
          const float q = bench_rng_range(&g, 0.2f, 1.0f);
          bin[4 * a + 3] = bench_rng_below(&g, 2) ? q : -q;
        }
        natoms += (size_t)count;
      }
  if (r->verbose > 0)
    fprintf(r->log, "cutcp: %dx%dx%d lattice, cutoff %.1f, %zu atoms, %d neighbour bins\n", sz.nx, sz.ny,
            sz.nz, sz.cutoff, natoms, nlen);

  if (bench_load_module(r, "cutcp", "cutcp.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "cutcp_lattice"));
  BENCH_CK(r, ws_module_get_global(&c_ptr, &c_bytes, mod, "cp_nbr_len"));
  if (c_bytes != sizeof(int)) goto badsym;
  BENCH_CK(r, ws_memcpy_htod(r->ctx, c_ptr, &nlen, sizeof(int)));
  BENCH_CK(r, ws_module_get_global(&c_ptr, &c_bytes, mod, "cp_nbr"));
  if (c_bytes != CP_NBR_MAX * sizeof(CpOff)) goto badsym;
  BENCH_CK(r, ws_memcpy_htod(r->ctx, c_ptr, nbr, (size_t)nlen * sizeof(CpOff)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_bins, nbin_all * CP_BIN_FLOATS * sizeof(float)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out, npts * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_bins, bins, nbin_all * CP_BIN_FLOATS * sizeof(float)));
  WsDevPtr bin_zero =
      d_bins + ((((size_t)reach * bdy + reach) * bdx) + reach) * CP_BIN_FLOATS * sizeof(float);
  int bin_dim_x = bdx, bin_dim_y = bdy;
  float h = (float)CP_H, cutoff2 = sz.cutoff * sz.cutoff, inv_cutoff2 = 1.0f / cutoff2;
  for (int zr = 0; zr < sz.nz / 8; zr++) {
    void *params[] = {&bin_dim_x, &bin_dim_y, &bin_zero, &h, &cutoff2, &inv_cutoff2, &d_out, &zr};
    BENCH_CK(r, ws_launch_kernel(fn, (unsigned)(sz.nx / 8), (unsigned)(sz.ny / 8), 1, 8, 2, 8, 0, params));
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_out, npts * sizeof(float)));

  /* Regions back to an x-fastest lattice: region (rx, ry, rz), offset [z][i][y][x] holds
   * point (8rx + x, 8ry + y + 2i, 8rz + z). */
  for (size_t p = 0; p < npts; p++) {
    const size_t reg = p / 512, off = p % 512;
    const int rx = (int)(reg % (size_t)(sz.nx / 8)),
              ry = (int)(reg / (size_t)(sz.nx / 8) % (size_t)(sz.ny / 8));
    const int rz = (int)(reg / ((size_t)(sz.nx / 8) * (sz.ny / 8)));
    const int x = (int)(off % 8), y = (int)(off / 8 % 2) + 2 * (int)(off / 16 % 4), z = (int)(off / 64);
    gridv[((size_t)(8 * rz + z) * sz.ny + 8 * ry + y) * sz.nx + 8 * rx + x] = got[p];
  }
  /* CPU: every point against the atoms of every bin within the reach (a superset of the
   * list; the cutoff test decides), in double; `mag` sums the terms' magnitudes. */
  const double c2 = (double)cutoff2;
  for (int z = 0; z < sz.nz; z++)
    for (int y = 0; y < sz.ny; y++)
      for (int x = 0; x < sz.nx; x++) {
        const double px = x * CP_H, py = y * CP_H, pz = z * CP_H;
        const int cx = (int)(px / CP_BIN_LEN), cy = (int)(py / CP_BIN_LEN), cz = (int)(pz / CP_BIN_LEN);
        double e = 0.0, m = 0.0;
        for (int k = cz - reach; k <= cz + reach; k++)
          for (int j = cy - reach; j <= cy + reach; j++)
            for (int i = cx - reach; i <= cx + reach; i++) {
              const float *bin =
                  bins + ((((size_t)(k + reach) * bdy + j + reach) * bdx) + i + reach) * CP_BIN_FLOATS;
              for (int a = 0; a < CP_BIN_DEPTH && bin[4 * a + 3] != 0.0f; a++) {
                const double dx = bin[4 * a] - px, dy = bin[4 * a + 1] - py, dz = bin[4 * a + 2] - pz;
                const double r2 = dx * dx + dy * dy + dz * dz;
                if (r2 >= c2) continue;
                const double s = 1.0 - r2 / c2, t = bin[4 * a + 3] / sqrt(r2) * s * s;
                e += t;
                m += fabs(t);
              }
            }
        const size_t p = ((size_t)z * sz.ny + y) * sz.nx + x;
        want[p] = (float)e;
        mag[p] = m;
      }
  /* Float sums of a few hundred terms in list order, rsqrt.approx (2^-22 relative) and terms
   * near the cutoff (s ~ 0, where float and double disagree on r2 < c2 only for terms of
   * size ~0): error well below 1e-5 of the sum of the terms' magnitudes. */
  size_t bad = 0;
  for (size_t p = 0; p < npts; p++)
    if (!(fabs((double)gridv[p] - want[p]) <= 1e-5 * mag[p] + 1e-6) && bad++ < 10)
      fprintf(r->log, "cutcp: point %zu: got %.9g, want %.9g (terms' magnitude %.6g)\n", p, gridv[p], want[p],
              mag[p]);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;
  goto fail;
badsym:
  fprintf(r->log, "cutcp: constant symbol has %zu bytes\n", c_bytes);
  goto fail;
oom:
  fprintf(r->log, "cutcp: out of host memory\n");
fail:
  if (d_bins) ws_mem_free(r->ctx, d_bins);
  if (d_out) ws_mem_free(r->ctx, d_out);
  if (mod) ws_module_unload(mod);
  free(nbr);
  free(bins);
  free(got);
  free(want);
  free(gridv);
  free(mag);
  return status;
}

const BenchDesc bench_desc_cutcp = {
    .name = "cutcp",
    .summary = "Parboil CUTCP: cutoff Coulombic potential on a lattice, atom bins staged in shared "
               "memory by 8x2x8-thread CTAs; compute-bound, cache-insensitive",
    .papers = "coordinated bypassing",
    .suite = "II",
    .sizes = {"16x16x8 lattice, cutoff 6 A", "32x32x16 lattice, cutoff 8 A",
              "48x48x48 lattice, cutoff 12 A (Parboil's cutoff and spacing)"},
    .run = cutcp_run,
};
