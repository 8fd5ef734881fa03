/* cfd.c - host driver of the cfd benchmark: generates a deformed quadrilateral
 * mesh with closed face normals, numbers its elements by a tile-local random
 * permutation (irregular neighbour gathers), runs a fixed number of Euler
 * iterations (step factor, then 3 Runge-Kutta stages of flux + time step) and
 * compares the conserved variables with a CPU run of the same scheme. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CFD_BLOCK 192
#define CFD_NNB 4
#define CFD_NDIM 3
#define CFD_NVAR 5
#define CFD_DENSITY 0
#define CFD_MOMENTUM 1
#define CFD_ENERGY 4
#define CFD_GAMMA 1.4f
#define CFD_SMOOTHING 0.2f
#define CFD_RK 3
#define CFD_MACH 1.2f
#define CFD_TILE 16

typedef struct CfdSize {
  int w, h, iters;
} CfdSize;
static const CfdSize cfd_sizes[BENCH_NSIZES] = {{96, 64, 1}, {384, 253, 2}, {576, 336, 10}};

typedef struct CfdVec {
  float x, y, z;
} CfdVec;

/* ---- CPU reference of the three kernels (same float operations) ---- */
static float cfd_pressure(float density, float energy, float speed_sqd) {
  return (CFD_GAMMA - 1.0f) * (energy - 0.5f * density * speed_sqd);
}

static void cfd_flux_contribution(CfdVec m, float energy, CfdVec v, float p, CfdVec *fx, CfdVec *fy,
                                  CfdVec *fz, CfdVec *fe) {
  fx->x = m.x * v.x + p;
  fx->y = m.x * v.y;
  fx->z = m.x * v.z;
  fy->x = fx->y;
  fy->y = m.y * v.y + p;
  fy->z = m.y * v.z;
  fz->x = fx->z;
  fz->y = fy->z;
  fz->z = m.z * v.z + p;
  float ep = energy + p;
  fe->x = v.x * ep;
  fe->y = v.y * ep;
  fe->z = v.z * ep;
}

typedef struct CfdState {
  float density, energy, speed_sqd, pressure, c;
  CfdVec m, v, fx, fy, fz, fe;
} CfdState;

static void cfd_state(const float *vars, int nelr, int i, CfdState *s) {
  s->density = vars[i + CFD_DENSITY * nelr];
  s->m.x = vars[i + (CFD_MOMENTUM + 0) * nelr];
  s->m.y = vars[i + (CFD_MOMENTUM + 1) * nelr];
  s->m.z = vars[i + (CFD_MOMENTUM + 2) * nelr];
  s->energy = vars[i + CFD_ENERGY * nelr];
  s->v.x = s->m.x / s->density;
  s->v.y = s->m.y / s->density;
  s->v.z = s->m.z / s->density;
  s->speed_sqd = s->v.x * s->v.x + s->v.y * s->v.y + s->v.z * s->v.z;
  s->pressure = cfd_pressure(s->density, s->energy, s->speed_sqd);
  s->c = sqrtf(CFD_GAMMA * s->pressure / s->density);
  cfd_flux_contribution(s->m, s->energy, s->v, s->pressure, &s->fx, &s->fy, &s->fz, &s->fe);
}

static void cfd_ref_step_factor(int nelr, const float *vars, const float *areas, float *sf) {
  for (int i = 0; i < nelr; i++) {
    CfdState s;
    cfd_state(vars, nelr, i, &s);
    sf[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(s.speed_sqd) + s.c));
  }
}

static void cfd_ref_flux(int nelr, const int *nbs, const float *normals, const float *vars,
                         const float *ff_var, const float *ff_flux, float *fluxes) {
  for (int i = 0; i < nelr; i++) {
    CfdState a;
    cfd_state(vars, nelr, i, &a);
    float speed_i = sqrtf(a.speed_sqd);
    float fd = 0.0f, fen = 0.0f;
    CfdVec fm = {0.0f, 0.0f, 0.0f};
    for (int j = 0; j < CFD_NNB; j++) {
      int nb = nbs[i + j * nelr];
      float n[3];
      for (int d = 0; d < 3; d++) n[d] = normals[i + (j + d * CFD_NNB) * nelr];
      float n_len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (nb >= 0) {
        CfdState b;
        cfd_state(vars, nelr, nb, &b);
        float f = -n_len * CFD_SMOOTHING * 0.5f * (speed_i + sqrtf(b.speed_sqd) + a.c + b.c);
        fd += f * (a.density - b.density);
        fen += f * (a.energy - b.energy);
        fm.x += f * (a.m.x - b.m.x);
        fm.y += f * (a.m.y - b.m.y);
        fm.z += f * (a.m.z - b.m.z);
        const float am[3] = {a.m.x, a.m.y, a.m.z}, bm[3] = {b.m.x, b.m.y, b.m.z};
        const float afe[3] = {a.fe.x, a.fe.y, a.fe.z}, bfe[3] = {b.fe.x, b.fe.y, b.fe.z};
        const float afx[3] = {a.fx.x, a.fx.y, a.fx.z}, bfx[3] = {b.fx.x, b.fx.y, b.fx.z};
        const float afy[3] = {a.fy.x, a.fy.y, a.fy.z}, bfy[3] = {b.fy.x, b.fy.y, b.fy.z};
        const float afz[3] = {a.fz.x, a.fz.y, a.fz.z}, bfz[3] = {b.fz.x, b.fz.y, b.fz.z};
        for (int d = 0; d < 3; d++) {
          f = 0.5f * n[d];
          fd += f * (bm[d] + am[d]);
          fen += f * (bfe[d] + afe[d]);
          fm.x += f * (bfx[d] + afx[d]);
          fm.y += f * (bfy[d] + afy[d]);
          fm.z += f * (bfz[d] + afz[d]);
        }
      } else if (nb == -1) {
        fm.x += n[0] * a.pressure;
        fm.y += n[1] * a.pressure;
        fm.z += n[2] * a.pressure;
      } else if (nb == -2) {
        const float am[3] = {a.m.x, a.m.y, a.m.z}, afe[3] = {a.fe.x, a.fe.y, a.fe.z};
        const float afx[3] = {a.fx.x, a.fx.y, a.fx.z}, afy[3] = {a.fy.x, a.fy.y, a.fy.z};
        const float afz[3] = {a.fz.x, a.fz.y, a.fz.z};
        for (int d = 0; d < 3; d++) {
          float f = 0.5f * n[d];
          fd += f * (ff_var[CFD_MOMENTUM + d] + am[d]);
          fen += f * (ff_flux[9 + d] + afe[d]);
          fm.x += f * (ff_flux[0 + d] + afx[d]);
          fm.y += f * (ff_flux[3 + d] + afy[d]);
          fm.z += f * (ff_flux[6 + d] + afz[d]);
        }
      }
    }
    fluxes[i + CFD_DENSITY * nelr] = fd;
    fluxes[i + (CFD_MOMENTUM + 0) * nelr] = fm.x;
    fluxes[i + (CFD_MOMENTUM + 1) * nelr] = fm.y;
    fluxes[i + (CFD_MOMENTUM + 2) * nelr] = fm.z;
    fluxes[i + CFD_ENERGY * nelr] = fen;
  }
}

static void cfd_ref_time_step(int stage, int nelr, const float *old, float *vars, const float *sf,
                              const float *fl) {
  for (int i = 0; i < nelr; i++) {
    float f = sf[i] / (float)(CFD_RK + 1 - stage);
    for (int v = 0; v < CFD_NVAR; v++) vars[i + v * nelr] = old[i + v * nelr] + f * fl[i + v * nelr];
  }
}

/* ---- mesh ----
 * A W x H grid of quadrilaterals whose nodes are randomly displaced; each face
 * normal is the outward edge normal scaled by the edge length, so the normals of
 * an element sum to zero and a neighbour sees the negated normal. The bottom
 * edge is a wall (-1) in its middle half and far field (-2) elsewhere; all other
 * boundary faces are far field. Elements are numbered tile by tile (16x16 tiles),
 * randomly within a tile, and each element's 4 face slots are shuffled. */
static int cfd_mesh(BenchRng *g, int w, int h, int *nbs, float *normals, float *areas) {
  const int nel = w * h;
  float *nx = malloc(sizeof(float) * (w + 1) * (h + 1));
  float *ny = malloc(sizeof(float) * (w + 1) * (h + 1));
  int *id = malloc(sizeof(int) * nel);
  int *list = malloc(sizeof(int) * CFD_TILE * CFD_TILE);
  if (!nx || !ny || !id || !list) {
    free(nx);
    free(ny);
    free(id);
    free(list);
    return -1;
  }
  for (int y = 0; y <= h; y++)
    for (int x = 0; x <= w; x++) {
      nx[y * (w + 1) + x] = (float)x + bench_rng_range(g, -0.15f, 0.15f);
      ny[y * (w + 1) + x] = (float)y + bench_rng_range(g, -0.15f, 0.15f);
    }
  int next = 0;
  for (int ty = 0; ty < h; ty += CFD_TILE)
    for (int tx = 0; tx < w; tx += CFD_TILE) {
      int n = 0;
      for (int y = ty; y < ty + CFD_TILE && y < h; y++)
        for (int x = tx; x < tx + CFD_TILE && x < w; x++) list[n++] = y * w + x;
      for (int k = n - 1; k > 0; k--) {
        int j = (int)bench_rng_below(g, (uint32_t)k + 1), t = list[k];
        list[k] = list[j];
        list[j] = t;
      }
      for (int k = 0; k < n; k++) id[list[k]] = next++;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const int e = id[y * w + x];
      /* Corners counter-clockwise: A(x,y) B(x+1,y) C(x+1,y+1) D(x,y+1). */
      const int cx[5] = {x, x + 1, x + 1, x, x}, cy[5] = {y, y, y + 1, y + 1, y};
      float px[5], py[5];
      for (int k = 0; k < 5; k++) {
        px[k] = nx[cy[k] * (w + 1) + cx[k]];
        py[k] = ny[cy[k] * (w + 1) + cx[k]];
      }
      float area = 0.0f;
      for (int k = 0; k < 4; k++) area += 0.5f * (px[k] * py[k + 1] - px[k + 1] * py[k]);
      areas[e] = area;
      /* Faces AB (below), BC (right), CD (above), DA (left). */
      int face_nb[4];
      face_nb[0] = y > 0 ? id[(y - 1) * w + x] : (x >= w / 4 && x < 3 * w / 4 ? -1 : -2);
      face_nb[1] = x < w - 1 ? id[y * w + x + 1] : -2;
      face_nb[2] = y < h - 1 ? id[(y + 1) * w + x] : -2;
      face_nb[3] = x > 0 ? id[y * w + x - 1] : -2;
      int slot[4] = {0, 1, 2, 3};
      for (int k = 3; k > 0; k--) {
        int j = (int)bench_rng_below(g, (uint32_t)k + 1), t = slot[k];
        slot[k] = slot[j];
        slot[j] = t;
      }
      for (int f = 0; f < 4; f++) {
        int s = slot[f];
        nbs[e + s * nel] = face_nb[f];
        normals[e + (s + 0 * CFD_NNB) * nel] = py[f + 1] - py[f];
        normals[e + (s + 1 * CFD_NNB) * nel] = -(px[f + 1] - px[f]);
        normals[e + (s + 2 * CFD_NNB) * nel] = 0.0f;
      }
    }
  free(nx);
  free(ny);
  free(id);
  free(list);
  return 0;
}

static int cfd_run(BenchRun *r) {
  const CfdSize sz = cfd_sizes[r->size];
  const int nelr = sz.w * sz.h; /* a multiple of CFD_BLOCK for every size */
  const size_t nv = (size_t)CFD_NVAR * nelr;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *k_sf = NULL, *k_flux = NULL, *k_ts = NULL;
  WsDevPtr d_nbs = 0, d_normals = 0, d_areas = 0, d_vars = 0, d_old = 0, d_sf = 0, d_flux = 0, c_ptr = 0;
  size_t c_bytes = 0;
  BenchRng g;
  bench_rng_seed(&g, r->seed);

  int *nbs = malloc(sizeof(int) * CFD_NNB * nelr);
  float *normals = malloc(sizeof(float) * CFD_NNB * CFD_NDIM * nelr);
  float *areas = malloc(sizeof(float) * nelr);
  float *vars = malloc(sizeof(float) * nv);
  float *ref = malloc(sizeof(float) * nv);
  float *old = malloc(sizeof(float) * nv);
  float *fl = malloc(sizeof(float) * nv);
  float *sf = malloc(sizeof(float) * nelr);
  float *got = malloc(sizeof(float) * nv);
  if (!nbs || !normals || !areas || !vars || !ref || !old || !fl || !sf || !got) goto oom;
  if (cfd_mesh(&g, sz.w, sz.h, nbs, normals, areas) != 0) goto oom;

  /* Free stream: density 1.4, pressure 1, Mach 1.2 along x (angle of attack 0). */
  float ff_var[CFD_NVAR], ff_flux[12];
  {
    const float density = 1.4f, pressure = 1.0f;
    const float c = sqrtf(CFD_GAMMA * pressure / density), speed = CFD_MACH * c;
    CfdVec v = {speed, 0.0f, 0.0f}, m = {density * v.x, density * v.y, density * v.z}, fx, fy, fz, fe;
    ff_var[CFD_DENSITY] = density;
    ff_var[CFD_MOMENTUM + 0] = m.x;
    ff_var[CFD_MOMENTUM + 1] = m.y;
    ff_var[CFD_MOMENTUM + 2] = m.z;
    ff_var[CFD_ENERGY] = density * (0.5f * speed * speed) + pressure / (CFD_GAMMA - 1.0f);
    cfd_flux_contribution(m, ff_var[CFD_ENERGY], v, pressure, &fx, &fy, &fz, &fe);
    const CfdVec rows[4] = {fx, fy, fz, fe};
    for (int k = 0; k < 4; k++) {
      ff_flux[3 * k + 0] = rows[k].x;
      ff_flux[3 * k + 1] = rows[k].y;
      ff_flux[3 * k + 2] = rows[k].z;
    }
  }
  /* Initial state: the free stream with +-1% noise on each variable. */
  for (int v = 0; v < CFD_NVAR; v++)
    for (int i = 0; i < nelr; i++) {
      float base = v == CFD_MOMENTUM + 1 || v == CFD_MOMENTUM + 2 ? 0.05f : ff_var[v];
      vars[i + v * nelr] = ff_var[v] + base * bench_rng_range(&g, -0.01f, 0.01f);
    }
  if (r->verbose > 0)
    fprintf(r->log, "cfd: %dx%d quad mesh, %d elements, %d CTAs of %d, %d iterations x %d RK stages\n", sz.w,
            sz.h, nelr, nelr / CFD_BLOCK, CFD_BLOCK, sz.iters, CFD_RK);

  if (bench_load_module(r, "cfd", "cfd.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k_sf, mod, "cfd_compute_step_factor"));
  BENCH_CK(r, ws_module_get_function(&k_flux, mod, "cfd_compute_flux"));
  BENCH_CK(r, ws_module_get_function(&k_ts, mod, "cfd_time_step"));
  BENCH_CK(r, ws_module_get_global(&c_ptr, &c_bytes, mod, "cfd_ff_variable"));
  if (c_bytes != sizeof ff_var) {
    fprintf(r->log, "cfd: cfd_ff_variable has %zu bytes\n", c_bytes);
    goto fail;
  }
  BENCH_CK(r, ws_memcpy_htod(r->ctx, c_ptr, ff_var, sizeof ff_var));
  BENCH_CK(r, ws_module_get_global(&c_ptr, &c_bytes, mod, "cfd_ff_flux"));
  if (c_bytes != sizeof ff_flux) {
    fprintf(r->log, "cfd: cfd_ff_flux has %zu bytes\n", c_bytes);
    goto fail;
  }
  BENCH_CK(r, ws_memcpy_htod(r->ctx, c_ptr, ff_flux, sizeof ff_flux));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_nbs, sizeof(int) * CFD_NNB * nelr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_normals, sizeof(float) * CFD_NNB * CFD_NDIM * nelr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_areas, sizeof(float) * nelr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_vars, sizeof(float) * nv));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_old, sizeof(float) * nv));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_sf, sizeof(float) * nelr));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_flux, sizeof(float) * nv));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_nbs, nbs, sizeof(int) * CFD_NNB * nelr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_normals, normals, sizeof(float) * CFD_NNB * CFD_NDIM * nelr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_areas, areas, sizeof(float) * nelr));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_vars, vars, sizeof(float) * nv));

  const unsigned grid = (unsigned)(nelr / CFD_BLOCK);
  int nelr_arg = nelr;
  for (int it = 0; it < sz.iters; it++) {
    BENCH_CK(r, ws_memcpy_dtod(r->ctx, d_old, d_vars, sizeof(float) * nv));
    void *p_sf[] = {&nelr_arg, &d_vars, &d_areas, &d_sf};
    BENCH_CK(r, ws_launch_kernel(k_sf, grid, 1, 1, CFD_BLOCK, 1, 1, 0, p_sf));
    for (int stage = 0; stage < CFD_RK; stage++) {
      void *p_flux[] = {&nelr_arg, &d_nbs, &d_normals, &d_vars, &d_flux};
      BENCH_CK(r, ws_launch_kernel(k_flux, grid, 1, 1, CFD_BLOCK, 1, 1, 0, p_flux));
      void *p_ts[] = {&stage, &nelr_arg, &d_old, &d_vars, &d_sf, &d_flux};
      BENCH_CK(r, ws_launch_kernel(k_ts, grid, 1, 1, CFD_BLOCK, 1, 1, 0, p_ts));
    }
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_vars, sizeof(float) * nv));

  memcpy(ref, vars, sizeof(float) * nv);
  for (int it = 0; it < sz.iters; it++) {
    memcpy(old, ref, sizeof(float) * nv);
    cfd_ref_step_factor(nelr, ref, areas, sf);
    for (int stage = 0; stage < CFD_RK; stage++) {
      cfd_ref_flux(nelr, nbs, normals, ref, ff_var, ff_flux, fl);
      cfd_ref_time_step(stage, nelr, old, ref, sf, fl);
    }
  }
  static const char *const names[CFD_NVAR] = {"density", "momentum.x", "momentum.y", "momentum.z", "energy"};
  size_t bad = 0;
  for (int v = 0; v < CFD_NVAR; v++)
    bad += bench_check_f32(r, names[v], got + (size_t)v * nelr, ref + (size_t)v * nelr, (size_t)nelr, 1e-4,
                           1e-5);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;
  goto fail;

oom:
  fprintf(r->log, "cfd: out of host memory\n");
fail:
  if (d_nbs) ws_mem_free(r->ctx, d_nbs);
  if (d_normals) ws_mem_free(r->ctx, d_normals);
  if (d_areas) ws_mem_free(r->ctx, d_areas);
  if (d_vars) ws_mem_free(r->ctx, d_vars);
  if (d_old) ws_mem_free(r->ctx, d_old);
  if (d_sf) ws_mem_free(r->ctx, d_sf);
  if (d_flux) ws_mem_free(r->ctx, d_flux);
  if (mod) ws_module_unload(mod);
  free(nbs);
  free(normals);
  free(areas);
  free(vars);
  free(ref);
  free(old);
  free(fl);
  free(sf);
  free(got);
  return status;
}

const BenchDesc bench_desc_cfd = {
    .name = "cfd",
    .summary = "Rodinia cfd Euler solver: step factor, flux with indirect gathers of 4 neighbours, RK "
               "time step; 192-thread CTAs (control, moderately cache-sensitive)",
    .papers = "CCWS, coordinated bypassing",
    .suite = "I",
    .sizes = {"6144 elements, 1 iteration", "97152 elements, 2 iterations", "193536 elements, 10 iterations"},
    .run = cfd_run,
};
