/* weather.cu - column physics of a numerical weather prediction model (warm
 * rain microphysics in the style of WRF's WSM schemes): one thread per
 * atmospheric column, 8x8 columns per CTA. Each thread copies its column
 * (nz levels, nz a runtime value <= WEATHER_MAXK) into per-thread arrays that
 * live in local memory, then runs hypsometric layer depths, saturation
 * adjustment, Kessler autoconversion/accretion, rain evaporation, flux-form
 * rain sedimentation in fixed substeps and a dry convective adjustment, and
 * writes the column back. Fields are [k][j][i] (i fastest): level loads and
 * stores are coalesced across a warp. */

#define WEATHER_MAXK 64

#define RD 287.04f     /* gas constant of dry air, J/(kg K) */
#define RV 461.6f      /* gas constant of water vapour */
#define CP 1004.5f     /* heat capacity of dry air at constant pressure */
#define LV 2.5e6f      /* latent heat of vaporisation, J/kg */
#define GRAV 9.81f
#define EP2 0.622f     /* RD / RV */
#define P0 1.0e5f      /* reference pressure of potential temperature */
#define KAPPA 0.2857f  /* RD / CP */
#define DEN0 1.28f     /* reference air density for the fall speed */
#define PI_RHOW_N0R 2.5133e10f /* pi * rho_water * n0r (8e6 m^-4) */
#define PVTR 2503.0f   /* fall speed coefficient: 841.9 * Gamma(4.8) / 6 */
#define BVTR 0.8f
#define QRMIN 1.0e-9f
#define QC0 5.0e-4f    /* autoconversion threshold, kg/kg */

/* Saturation mixing ratio over water (Bolton's vapour pressure). */
__device__ float weather_qsat(float t, float p) {
  float es = 611.2f * expf(17.67f * (t - 273.15f) / (t - 29.65f));
  es = fminf(es, 0.5f * p);
  return EP2 * es / (p - es);
}

/* Terminal fall speed of rain (mass weighted, Marshall-Palmer spectrum). */
__device__ float weather_fallspeed(float qr, float den, float denfac) {
  if (qr <= QRMIN) return 0.0f;
  float rslope = powf(den * qr / PI_RHOW_N0R, 0.25f);
  return fminf(PVTR * powf(rslope, BVTR) * denfac, 12.0f);
}

extern "C" __global__ void weather_physics(int nx, int ny, int nz, int nsub, float dt, const float *p_in,
                                           const float *t_in, const float *qv_in, const float *qc_in,
                                           const float *qr_in, float *t_out, float *qv_out, float *qc_out,
                                           float *qr_out, float *rain_out, float *pw_out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny) return;
  if (nz > WEATHER_MAXK) nz = WEATHER_MAXK;
  size_t plane = (size_t)nx * ny, col = (size_t)j * nx + i;

  float p[WEATHER_MAXK], t[WEATHER_MAXK], qv[WEATHER_MAXK], qc[WEATHER_MAXK], qr[WEATHER_MAXK];
  float den[WEATHER_MAXK], denfac[WEATHER_MAXK], dz[WEATHER_MAXK];
  float vt[WEATHER_MAXK], flux[WEATHER_MAXK + 1], exner[WEATHER_MAXK], mass[WEATHER_MAXK];

  for (int k = 0; k < nz; k++) {
    size_t idx = (size_t)k * plane + col;
    p[k] = p_in[idx];
    t[k] = t_in[idx];
    qv[k] = qv_in[idx];
    qc[k] = qc_in[idx];
    qr[k] = qr_in[idx];
  }

  /* Density, hypsometric layer depths, layer masses, Exner function. */
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

  /* Saturation adjustment, autoconversion, accretion, rain evaporation. */
  for (int k = 0; k < nz; k++) {
    float qsat = weather_qsat(t[k], p[k]);
    float gamma = 1.0f + LV * LV * qsat / (CP * RV * t[k] * t[k]);
    float cond = (qv[k] - qsat) / gamma;     /* > 0: condense, < 0: evaporate cloud */
    cond = fmaxf(cond, -qc[k]);
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
      float rqr = den[k] * qr[k]; /* rain water content, kg/m^3 */
      float vent = 1.6f + 124.9f * powf(rqr, 0.2046f);
      evap = (1.0f - qv[k] / qsat) * vent * powf(rqr, 0.525f) / (5.4e5f + 2.55e8f / (p[k] * qsat)) / den[k];
      evap = fminf(fminf(evap * dt, qr[k]), qsat - qv[k]);
    }
    qr[k] -= evap;
    qv[k] += evap;
    t[k] -= LV / CP * evap;
  }

  /* Rain sedimentation: upwind flux form, fixed number of substeps. */
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

  /* Dry convective adjustment: mix statically unstable neighbour layers
   * (potential temperature and vapour, mass weighted). */
  for (int pass = 0; pass < 2; pass++) {
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
  }

  float pw = 0.0f;
  for (int k = 0; k < nz; k++) {
    size_t idx = (size_t)k * plane + col;
    t_out[idx] = t[k];
    qv_out[idx] = qv[k];
    qc_out[idx] = qc[k];
    qr_out[idx] = qr[k];
    pw += mass[k] * (qv[k] + qc[k] + qr[k]);
  }
  rain_out[col] = rain;
  pw_out[col] = pw;
}
