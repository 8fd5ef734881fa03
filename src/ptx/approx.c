/* approx.c - PTX's approximate transcendentals (ex2, lg2, sin, cos, tanh) without the host's
 * libm, so that results are the same bit for bit on every host (host libms differ in the last bit).
 *
 * Every function works in IEEE double with +, -, *, / only (the build has -ffp-contract=off:
 * no fused multiply-add) in round-to-nearest, which gives the same bits everywhere; constants
 * are hex literals; rounding to an integer uses integer conversion. The f32 instructions round
 * the double result once. Error of the double results, measured against glibc's double
 * functions on 8M random inputs (all f32 bit patterns and dense in the useful ranges):
 *   ex2        relative below 2^-49.5                 (PTX ex2.approx.f32: 2 ulp)
 *   lg2        below 2^-51 (absolute near 1, else relative) (PTX: 2^-22.6 abs. in [0.5, 2])
 *   sin, cos   absolute below 2^-51 for |x| < 1.05e8 (Cody-Waite reduction by pi/2 in three
 *              parts); beyond, deterministic but inaccurate (PTX: 2^-20.5 abs. in [-100pi, 100pi]
 *              and no bound outside)
 *   tanh       relative below 2^-51                   (PTX tanh.approx.f32: 2^-11 relative)
 * So the f32 results are within 1 ulp of the correctly rounded value (on those 8M inputs every
 * one was equal to glibc's result rounded to f32). Hardware differs by 1-2 ulp and more (lg2
 * near 1, sin/cos of large arguments): warpsim does not imitate its approximation.
 * Depends on nothing but the C language. */
#include "ptx/approx.h"

#include <stdint.h>
#include <string.h>

static double bits_f64(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
static uint64_t f64_u(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static int is_nan(double x) { return x != x; }

/* 2^n for integer n in [-1074, 1023], exactly. */
static double pow2i(int n) {
  if (n >= -1022) return bits_f64((uint64_t)(n + 1023) << 52);
  return bits_f64(1ull << (n + 1074)); /* subnormal */
}

/* Series coefficients, each the correctly rounded double (hex, from exact rationals). */
static const double INV_FACT[19] = {/* 1/k! */
                                    0x1.0000000000000p+0,  0x1.0000000000000p+0,  0x1.0000000000000p-1,
                                    0x1.5555555555555p-3,  0x1.5555555555555p-5,  0x1.1111111111111p-7,
                                    0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-16,
                                    0x1.71de3a556c734p-19, 0x1.27e4fb7789f5cp-22, 0x1.ae64567f544e4p-26,
                                    0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33, 0x1.93974a8c07c9dp-37,
                                    0x1.ae7f3e733b81fp-41, 0x1.ae7f3e733b81fp-45, 0x1.952c77030ad4ap-49,
                                    0x1.6827863b97d97p-53};
static const double SIN_C[10] = {/* (-1)^k / (2k+1)! */
                                 0x1.0000000000000p+0,   -0x1.5555555555555p-3,  0x1.1111111111111p-7,
                                 -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,  -0x1.ae64567f544e4p-26,
                                 0x1.6124613a86d09p-33,  -0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49,
                                 -0x1.2f49b46814157p-57};
static const double COS_C[11] = {/* (-1)^k / (2k)! */
                                 0x1.0000000000000p+0,   -0x1.0000000000000p-1,  0x1.5555555555555p-5,
                                 -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16,  -0x1.27e4fb7789f5cp-22,
                                 0x1.1eed8eff8d898p-29,  -0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45,
                                 -0x1.6827863b97d97p-53, 0x1.e542ba4020225p-62};
static const double ODD_INV[14] = {/* 1/(2k+1) */
                                   0x1.0000000000000p+0, 0x1.5555555555555p-2, 0x1.999999999999ap-3,
                                   0x1.2492492492492p-3, 0x1.c71c71c71c71cp-4, 0x1.745d1745d1746p-4,
                                   0x1.3b13b13b13b14p-4, 0x1.1111111111111p-4, 0x1.e1e1e1e1e1e1ep-5,
                                   0x1.af286bca1af28p-5, 0x1.8618618618618p-5, 0x1.642c8590b2164p-5,
                                   0x1.47ae147ae147bp-5, 0x1.2f684bda12f68p-5};

/* e^t for |t| <= 0.35: Taylor series to t^14 (the next term is below 2^-60 of the sum). */
static double exp_small(double t) {
  double r = INV_FACT[14];
  for (int k = 13; k >= 0; k--) r = r * t + INV_FACT[k];
  return r;
}

double ws_exp2(double x) {
  if (is_nan(x)) return x;
  if (x >= 1024.0) return bits_f64(0x7FF0000000000000ull);
  if (x < -1080.0) return 0.0;
  /* n = nearest integer (|x| < 1080 fits an int), f in [-0.5, 0.5] */
  int n = (int)(x < 0 ? x - 0.5 : x + 0.5);
  double f = x - (double)n; /* exact: x and n are close */
  double r = exp_small(f * 0x1.62e42fefa39efp-1 /* ln 2 */);
  /* scale by 2^n in two exact steps (n may be below the normal range) */
  int n1 = n / 2, n2 = n - n1;
  return r * pow2i(n1) * pow2i(n2);
}

double ws_log2(double x) {
  if (is_nan(x) || x < 0) return x < 0 ? bits_f64(0x7FF8000000000000ull) : x;
  if (x == 0) return bits_f64(0xFFF0000000000000ull);
  if (x == bits_f64(0x7FF0000000000000ull)) return x;
  uint64_t u = f64_u(x);
  int e = (int)(u >> 52);
  if (e == 0) { /* subnormal: normalise */
    x *= 0x1p54;
    u = f64_u(x);
    e = (int)(u >> 52) - 54;
  }
  e -= 1023;
  double m = bits_f64((u & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull); /* [1, 2) */
  if (m > 0x1.6a09e667f3bcdp+0 /* sqrt 2 */) {
    m *= 0.5;
    e++;
  } /* [sqrt(1/2), sqrt(2)) */
  /* ln m = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.1716: s (1 + s^2/3 + s^4/5 + ... + s^26/27) */
  double s = (m - 1.0) / (m + 1.0), s2 = s * s, sum = ODD_INV[13];
  for (int k = 12; k >= 0; k--) sum = sum * s2 + ODD_INV[k];
  double ln_m = 2.0 * s * sum;
  return (double)e + ln_m * 0x1.71547652b82fep+0; /* log2 e */
}

/* sin and cos of r, |r| <= pi/4 (a little more after rounding q): Taylor series to r^19, r^20. */
static double sin_small(double r) {
  double r2 = r * r, s = SIN_C[9];
  for (int k = 8; k >= 0; k--) s = s * r2 + SIN_C[k];
  return r * s;
}
static double cos_small(double r) {
  double r2 = r * r, c = COS_C[10];
  for (int k = 9; k >= 0; k--) c = c * r2 + COS_C[k];
  return c;
}

/* x = q pi/2 + r, |r| <= pi/4 (about). pi/2 in three parts of 27, 27 and 53 bits (hex literals
 * from pi's hex digits): q * PIO2_1 and q * PIO2_2 are exact for |q| < 2^26, so r is accurate to
 * about 2^-80 absolute for |x| < 2^26 pi/2 (1.05e8); beyond, deterministic but inaccurate. */
static double reduce(double x, int64_t *q) {
  static const double PIO2_1 = 0x1.921fb54p+0, PIO2_2 = 0x1.10b461p-30, PIO2_3 = 0x1.a62633145c06ep-58;
  double t = x * 0x1.45f306dc9c883p-1; /* 2/pi */
  if (!(t < 0x1p62 && t > -0x1p62)) {
    *q = 0;
    return 0.0;
  } /* beyond any meaningful reduction */
  int64_t k = (int64_t)(t < 0 ? t - 0.5 : t + 0.5);
  double kd = (double)k;
  *q = k;
  return ((x - kd * PIO2_1) - kd * PIO2_2) - kd * PIO2_3;
}

static double sincos_q(double x, int want_cos) {
  if (is_nan(x)) return x;
  if (x == bits_f64(0x7FF0000000000000ull) || x == bits_f64(0xFFF0000000000000ull))
    return bits_f64(0x7FF8000000000000ull);
  int64_t q;
  double r = reduce(x, &q);
  unsigned quad = (unsigned)((uint64_t)q & 3u) + (want_cos ? 1u : 0u);
  switch (quad & 3u) {
  case 0:
    return sin_small(r);
  case 1:
    return cos_small(r);
  case 2:
    return -sin_small(r);
  default:
    return -cos_small(r);
  }
}

double ws_sin(double x) { return x == 0 ? x : sincos_q(x, 0); } /* sin(-0) = -0 */
double ws_cos(double x) { return sincos_q(x, 1); }

/* e^y - 1 for |y| <= 1 by its Taylor series to y^18 (no cancellation near 0). */
static double expm1_small(double y) {
  double r = INV_FACT[18];
  for (int k = 17; k >= 1; k--) r = r * y + INV_FACT[k];
  return y * r;
}

double ws_tanh(double x) {
  if (is_nan(x) || x == 0) return x;
  double a = x < 0 ? -x : x, t;
  if (a > 22.0)
    t = 1.0;
  else if (a < 0.5) {
    double m = expm1_small(2.0 * a);
    t = m / (m + 2.0);
  } else
    t = 1.0 - 2.0 / (ws_exp2(2.0 * a * 0x1.71547652b82fep+0) + 1.0);
  return x < 0 ? -t : t;
}
