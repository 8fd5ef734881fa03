/* weather.c - host driver of the weather-prediction column physics benchmark:
 * generates perturbed standard-atmosphere columns (pressure, temperature,
 * humidity, cloud and rain in storm cells), runs one physics step with one
 * thread per column (8x8 columns per CTA) and checks every output field
 * against a CPU implementation of the same float algorithm (tolerance). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define WEATHER_BX 8
#define WEATHER_BY 8
#define WEATHER_NZ 64    /* levels, <= WEATHER_MAXK of the kernel */
#define WEATHER_DZ 250.0 /* nominal level spacing, m */
#define WEATHER_DT 60.0f /* physics time step, s */
#define WEATHER_NSUB 4   /* sedimentation substeps */

/* {nx, ny} columns. */
static const int weather_dims[BENCH_NSIZES][2] = {{16, 16}, {64, 64}, {128, 128}};

/* ---- CPU reference: the kernel's algorithm in float ---- */
#define RD 287.04f
#define RV 461.6f
#define CP 1004.5f
#define LV 2.5e6f
#define GRAV 9.81f
#define EP2 0.622f
#define P0 1.0e5f
#define KAPPA 0.2857f
#define DEN0 1.28f
#define PI_RHOW_N0R 2.5133e10f
#define PVTR 2503.0f
#define BVTR 0.8f
#define QRMIN 1.0e-9f
#define QC0 5.0e-4f

static float weather_qsat(float t, float p) {
  float es = 611.2f * expf(17.67f * (t - 273.15f) / (t - 29.65f));
  es = fminf(es, 0.5f * p);
  return EP2 * es / (p - es);
}

static float weather_fallspeed(float qr, float den, float denfac) {
  if (qr <= QRMIN) return 0.0f;
  float rslope = powf(den * qr / PI_RHOW_N0R, 0.25f);
  return fminf(PVTR * powf(rslope, BVTR) * denfac, 12.0f);
}

typedef struct WeatherFields {
  float *p, *t, *qv, *qc, *qr; /* nz * ny * nx, [k][j][i] */
  float *rain, *pw;            /* ny * nx */
} WeatherFields;

static void weather_column(int nz, int nsub, float dt, size_t plane, size_t col, const WeatherFields *in,
                           WeatherFields *out) {
  float p[WEATHER_NZ], t[WEATHER_NZ], qv[WEATHER_NZ], qc[WEATHER_NZ], qr[WEATHER_NZ];
  float den[WEATHER_NZ], denfac[WEATHER_NZ], dz[WEATHER_NZ], vt[WEATHER_NZ], flux[WEATHER_NZ + 1];
  float exner[WEATHER_NZ], mass[WEATHER_NZ];
  for (int k = 0; k < nz; k++) {
    size_t idx = (size_t)k * plane + col;
    p[k] = in->p[idx];
    t[k] = in->t[idx];
    qv[k] = in->qv[idx];
    qc[k] = in->qc[idx];
    qr[k] = in->qr[idx];
  }
  for (int k = 0; k < nz; k++) {
    float tv = t[k] * (1.0f + 0.608f * qv[k]);
    den[k] = p[k] / (RD * tv);
    denfac[k] = sqrtf(DEN0 / den[k]);
    int lo = k > 0 ? k - 1 : k, hi = k < nz - 1 ? k + 1 : k;
    float span = (k > 0 && k < nz - 1) ? 0.5f : 1.0f;
    dz[k] = RD * tv / GRAV * span * logf(p[lo] / p[hi]);
    mass[k] = den[k] * dz[k];
    exner[k] = powf(p[k] / P0, KAPPA);
  }
  for (int k = 0; k < nz; k++) {
    float qsat = weather_qsat(t[k], p[k]);
    float gamma = 1.0f + LV * LV * qsat / (CP * RV * t[k] * t[k]);
    float cond = fmaxf((qv[k] - qsat) / gamma, -qc[k]);
    qv[k] -= cond;
    qc[k] += cond;
    t[k] += LV / CP * cond;
    float auto_ = fminf(1.0e-3f * fmaxf(qc[k] - QC0, 0.0f) * dt, qc[k]);
    qc[k] -= auto_;
    qr[k] += auto_;
    float accr = 0.0f;
    if (qr[k] > QRMIN && qc[k] > 0.0f) accr = fminf(2.2f * qc[k] * powf(qr[k], 0.875f) * dt, qc[k]);
    qc[k] -= accr;
    qr[k] += accr;
    qsat = weather_qsat(t[k], p[k]);
    float evap = 0.0f;
    if (qr[k] > QRMIN && qv[k] < qsat) {
      float rqr = den[k] * qr[k];
      float vent = 1.6f + 124.9f * powf(rqr, 0.2046f);
      evap = (1.0f - qv[k] / qsat) * vent * powf(rqr, 0.525f) / (5.4e5f + 2.55e8f / (p[k] * qsat)) / den[k];
      evap = fminf(fminf(evap * dt, qr[k]), qsat - qv[k]);
    }
    qr[k] -= evap;
    qv[k] += evap;
    t[k] -= LV / CP * evap;
  }
  float dts = dt / (float)nsub, rain = 0.0f;
  flux[nz] = 0.0f;
  for (int s = 0; s < nsub; s++) {
    for (int k = 0; k < nz; k++) {
      vt[k] = weather_fallspeed(qr[k], den[k], denfac[k]);
      flux[k] = den[k] * qr[k] * vt[k];
    }
    for (int k = 0; k < nz; k++) qr[k] = fmaxf(qr[k] + dts * (flux[k + 1] - flux[k]) / mass[k], 0.0f);
    rain += flux[0] * dts;
  }
  for (int pass = 0; pass < 2; pass++)
    for (int k = 1; k < nz; k++) {
      float th_lo = t[k - 1] / exner[k - 1], th_hi = t[k] / exner[k];
      if (th_hi < th_lo) {
        /* mixing fraction grows with the instability (full beyond 0.5 K)
         * so that the result is continuous in the input */
        float f = fminf(2.0f * (th_lo - th_hi), 1.0f);
        float m = mass[k - 1] + mass[k];
        float th = (mass[k - 1] * th_lo + mass[k] * th_hi) / m;
        float q = (mass[k - 1] * qv[k - 1] + mass[k] * qv[k]) / m;
        t[k - 1] = (th_lo + f * (th - th_lo)) * exner[k - 1];
        t[k] = (th_hi + f * (th - th_hi)) * exner[k];
        qv[k - 1] += f * (q - qv[k - 1]);
        qv[k] += f * (q - qv[k]);
      }
    }
  float pw = 0.0f;
  for (int k = 0; k < nz; k++) {
    size_t idx = (size_t)k * plane + col;
    out->t[idx] = t[k];
    out->qv[idx] = qv[k];
    out->qc[idx] = qc[k];
    out->qr[idx] = qr[k];
    pw += mass[k] * (qv[k] + qc[k] + qr[k]);
  }
  out->rain[col] = rain;
  out->pw[col] = pw;
}

/* ---- input: perturbed standard atmosphere with storm cells ---- */
static double weather_qsat_d(double t, double p) {
  double es = 611.2 * exp(17.67 * (t - 273.15) / (t - 29.65));
  if (es > 0.5 * p) es = 0.5 * p;
  return 0.622 * es / (p - es);
}

static int weather_generate(BenchRng *g, int nx, int ny, int nz, WeatherFields *f) {
  size_t plane = (size_t)nx * ny;
  int ncells = (int)(plane / 150) + 1;
  double *cx = malloc(sizeof(double) * 3 * (size_t)ncells);
  if (!cx) return -1;
  double *cy = cx + ncells, *cr = cy + ncells;
  for (int c = 0; c < ncells; c++) {
    cx[c] = bench_rng_float(g) * nx;
    cy[c] = bench_rng_float(g) * ny;
    cr[c] = 2.0 + 4.0 * bench_rng_float(g);
  }
  const double pi = 3.14159265358979323846, lapse = 0.0065, rd = 287.04, grav = 9.81;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      size_t col = (size_t)j * nx + i;
      double ps =
          101325.0 + 1200.0 * sin(2 * pi * i / nx) * cos(2 * pi * j / ny) + 200.0 * bench_rng_normal(g);
      double t0 = 288.15 + 8.0 * cos(2 * pi * j / ny) + bench_rng_normal(g);
      double storm = 0.0; /* 0..1, strength of the nearest storm cell */
      for (int c = 0; c < ncells; c++) {
        double dx = i - cx[c], dy = j - cy[c], d = sqrt(dx * dx + dy * dy) / cr[c];
        if (d < 1.0 && 1.0 - d > storm) storm = 1.0 - d;
      }
      int unstable = bench_rng_below(g, 10) == 0; /* superadiabatic surface layer */
      double t11 = t0 - lapse * 11000.0, p11 = ps * pow(t11 / t0, grav / (rd * lapse));
      for (int k = 0; k < nz; k++) {
        size_t idx = (size_t)k * plane + col;
        double z = (k + 0.5) * WEATHER_DZ, tk, pk;
        if (z < 11000.0) {
          tk = t0 - lapse * z;
          pk = ps * pow(tk / t0, grav / (rd * lapse));
        } else {
          tk = t11;
          pk = p11 * exp(-grav * (z - 11000.0) / (rd * t11));
        }
        tk += 0.8 * bench_rng_normal(g);
        if (unstable && k < 3) tk += 3.0 - k;
        double rh = z < 13000.0 ? 0.85 * pow(1.0 - z / 13000.0, 1.25) : 0.02;
        rh += bench_rng_range(g, -0.15f, 0.25f) + 0.3 * storm * (z < 8000.0);
        if (rh < 0.02) rh = 0.02;
        if (rh > 1.08) rh = 1.08;
        double qs = weather_qsat_d(tk, pk), qc = 0.0, qr = 0.0;
        if (rh > 1.0) qc = 2.0 * (rh - 1.0) * qs;
        if (storm > 0.0 && z > 1000.0 && z < 7000.0) qc += 1.5e-3 * storm * bench_rng_float(g);
        if (storm > 0.0 && z < 6000.0) qr = 3.0e-3 * storm * bench_rng_float(g);
        f->p[idx] = (float)pk;
        f->t[idx] = (float)tk;
        f->qv[idx] = (float)(rh * qs);
        f->qc[idx] = (float)qc;
        f->qr[idx] = (float)qr;
      }
    }
  free(cx);
  return 0;
}

static int weather_alloc(WeatherFields *f, size_t n3, size_t n2) {
  memset(f, 0, sizeof *f);
  f->p = malloc(n3 * sizeof(float));
  f->t = malloc(n3 * sizeof(float));
  f->qv = malloc(n3 * sizeof(float));
  f->qc = malloc(n3 * sizeof(float));
  f->qr = malloc(n3 * sizeof(float));
  f->rain = malloc(n2 * sizeof(float));
  f->pw = malloc(n2 * sizeof(float));
  return f->p && f->t && f->qv && f->qc && f->qr && f->rain && f->pw ? 0 : -1;
}

static void weather_free(WeatherFields *f) {
  free(f->p);
  free(f->t);
  free(f->qv);
  free(f->qc);
  free(f->qr);
  free(f->rain);
  free(f->pw);
}

enum {
  WEATHER_IN_P,
  WEATHER_IN_T,
  WEATHER_IN_QV,
  WEATHER_IN_QC,
  WEATHER_IN_QR,
  WEATHER_OUT_T,
  WEATHER_OUT_QV,
  WEATHER_OUT_QC,
  WEATHER_OUT_QR,
  WEATHER_OUT_RAIN,
  WEATHER_OUT_PW,
  WEATHER_NBUF
};

static int weather_run(BenchRun *r) {
  int nx = weather_dims[r->size][0], ny = weather_dims[r->size][1], nz = WEATHER_NZ, nsub = WEATHER_NSUB;
  float dt = WEATHER_DT;
  size_t n2 = (size_t)nx * ny, n3 = n2 * nz;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d[WEATHER_NBUF] = {0};
  WeatherFields in, got, want;
  int ok = weather_alloc(&in, n3, n2) == 0;
  ok &= weather_alloc(&got, n3, n2) == 0;
  ok &= weather_alloc(&want, n3, n2) == 0;
  if (!ok) {
    fprintf(r->log, "weather: out of host memory\n");
    goto fail;
  }

  BenchRng g;
  bench_rng_seed(&g, r->seed);
  if (weather_generate(&g, nx, ny, nz, &in) != 0) {
    fprintf(r->log, "weather: out of host memory\n");
    goto fail;
  }
  for (size_t c = 0; c < n2; c++) weather_column(nz, nsub, dt, n2, c, &in, &want);
  unsigned gx = (unsigned)((nx + WEATHER_BX - 1) / WEATHER_BX),
           gy = (unsigned)((ny + WEATHER_BY - 1) / WEATHER_BY);
  if (r->verbose > 0) {
    double rain = 0;
    for (size_t c = 0; c < n2; c++) rain += want.rain[c];
    fprintf(r->log, "weather: %d x %d columns x %d levels, grid %u x %u CTAs of %d x %d, mean rain %.3g mm\n",
            nx, ny, nz, gx, gy, WEATHER_BX, WEATHER_BY, rain / (double)n2);
  }

  if (bench_load_module(r, "weather", "weather.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "weather_physics"));
  for (int b = 0; b < WEATHER_NBUF; b++)
    BENCH_CK(r, ws_mem_alloc(r->ctx, &d[b], (b >= WEATHER_OUT_RAIN ? n2 : n3) * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d[WEATHER_IN_P], in.p, n3 * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d[WEATHER_IN_T], in.t, n3 * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d[WEATHER_IN_QV], in.qv, n3 * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d[WEATHER_IN_QC], in.qc, n3 * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d[WEATHER_IN_QR], in.qr, n3 * sizeof(float)));

  void *params[] = {&nx,
                    &ny,
                    &nz,
                    &nsub,
                    &dt,
                    &d[WEATHER_IN_P],
                    &d[WEATHER_IN_T],
                    &d[WEATHER_IN_QV],
                    &d[WEATHER_IN_QC],
                    &d[WEATHER_IN_QR],
                    &d[WEATHER_OUT_T],
                    &d[WEATHER_OUT_QV],
                    &d[WEATHER_OUT_QC],
                    &d[WEATHER_OUT_QR],
                    &d[WEATHER_OUT_RAIN],
                    &d[WEATHER_OUT_PW]};
  BENCH_CK(r, ws_launch_kernel(fn, gx, gy, 1, WEATHER_BX, WEATHER_BY, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got.t, d[WEATHER_OUT_T], n3 * sizeof(float)));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got.qv, d[WEATHER_OUT_QV], n3 * sizeof(float)));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got.qc, d[WEATHER_OUT_QC], n3 * sizeof(float)));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got.qr, d[WEATHER_OUT_QR], n3 * sizeof(float)));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got.rain, d[WEATHER_OUT_RAIN], n2 * sizeof(float)));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got.pw, d[WEATHER_OUT_PW], n2 * sizeof(float)));

  /* libdevice and libm expf/logf/powf differ by an ulp or two and nvcc fuses
   * multiply-adds; the physics is continuous, so differences stay small. */
  size_t bad = bench_check_f32(r, "t", got.t, want.t, n3, 1e-4, 1e-3);
  bad += bench_check_f32(r, "qv", got.qv, want.qv, n3, 1e-3, 1e-7);
  bad += bench_check_f32(r, "qc", got.qc, want.qc, n3, 1e-3, 1e-7);
  bad += bench_check_f32(r, "qr", got.qr, want.qr, n3, 1e-3, 1e-7);
  bad += bench_check_f32(r, "rain", got.rain, want.rain, n2, 1e-3, 1e-5);
  bad += bench_check_f32(r, "pw", got.pw, want.pw, n2, 1e-3, 1e-3);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  for (int b = 0; b < WEATHER_NBUF; b++)
    if (d[b]) ws_mem_free(r->ctx, d[b]);
  if (mod) ws_module_unload(mod);
  weather_free(&in);
  weather_free(&got);
  weather_free(&want);
  return status;
}

const BenchDesc bench_desc_weather = {
    .name = "weather",
    .summary =
        "weather-prediction column physics: 1 thread/column, 64-level arrays in local memory, exp/log/pow",
    .papers = "CCWS",
    .suite = "II",
    .sizes = {"16 x 16 columns x 64 levels (2 x 2 CTAs of 8x8)", "64 x 64 columns x 64 levels (8 x 8 CTAs)",
              "128 x 128 columns x 64 levels (16 x 16 CTAs)"},
    .run = weather_run,
};
