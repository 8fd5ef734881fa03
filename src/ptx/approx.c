/* approx.c - PTX's approximate transcendentals (ex2, lg2, sin, cos, tanh) without the host's
 * libm, so that results are the same bit for bit on every host (issue 19, item 13).
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

static double bits_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t f64_u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static int is_nan(double x) { return x != x; }

/* 2^n for integer n in [-1074, 1023], exactly. */
static double pow2i(int n) {
  if (n >= -1022) return bits_f64((uint64_t)(n + 1023) << 52);
  return bits_f64(1ull << (n + 1074)); /* subnormal */
}

/* e^t for |t| <= 0.35 by its Taylor series (terms below 2^-60 of the sum are dropped). */
static double exp_small(double t) {
  double r = 1.0;
  for (int k = 17; k >= 1; k--) r = 1.0 + t * r / (double)k;
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
  if (m > 0x1.6a09e667f3bcdp+0 /* sqrt 2 */) { m *= 0.5; e++; } /* [sqrt(1/2), sqrt(2)) */
  /* ln m = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.1716: s + s^3/3 + s^5/5 + ... */
  double s = (m - 1.0) / (m + 1.0), s2 = s * s, sum = 0.0;
  for (int k = 27; k >= 1; k -= 2) sum = 1.0 / (double)k + s2 * sum;
  double ln_m = 2.0 * s * sum;
  return (double)e + ln_m * 0x1.71547652b82fep+0; /* log2 e */
}

/* sin and cos of r, |r| <= pi/4, by their Taylor series. */
static double sin_small(double r) {
  double r2 = r * r, s = 1.0;
  for (int k = 21; k >= 3; k -= 2) s = 1.0 - r2 * s / ((double)k * (double)(k - 1));
  return r * s;
}
static double cos_small(double r) {
  double r2 = r * r, c = 1.0;
  for (int k = 22; k >= 2; k -= 2) c = 1.0 - r2 * c / ((double)k * (double)(k - 1));
  return c;
}

/* x = q pi/2 + r, |r| <= pi/4 (about). pi/2 in three parts of 27, 27 and 53 bits (hex literals
 * from pi's hex digits): q * PIO2_1 and q * PIO2_2 are exact for |q| < 2^26, so r is accurate to
 * about 2^-80 absolute for |x| < 2^26 pi/2 (1.05e8); beyond, deterministic but inaccurate. */
static double reduce(double x, int64_t *q) {
  static const double PIO2_1 = 0x1.921fb54p+0, PIO2_2 = 0x1.10b461p-30, PIO2_3 = 0x1.a62633145c06ep-58;
  double t = x * 0x1.45f306dc9c883p-1; /* 2/pi */
  if (!(t < 0x1p62 && t > -0x1p62)) { *q = 0; return 0.0; } /* beyond any meaningful reduction */
  int64_t k = (int64_t)(t < 0 ? t - 0.5 : t + 0.5);
  double kd = (double)k;
  *q = k;
  return ((x - kd * PIO2_1) - kd * PIO2_2) - kd * PIO2_3;
}

static double sincos_q(double x, int want_cos) {
  if (is_nan(x)) return x;
  if (x == bits_f64(0x7FF0000000000000ull) || x == bits_f64(0xFFF0000000000000ull)) return bits_f64(0x7FF8000000000000ull);
  int64_t q;
  double r = reduce(x, &q);
  unsigned quad = (unsigned)((uint64_t)q & 3u) + (want_cos ? 1u : 0u);
  switch (quad & 3u) {
  case 0: return sin_small(r);
  case 1: return cos_small(r);
  case 2: return -sin_small(r);
  default: return -cos_small(r);
  }
}

double ws_sin(double x) { return x == 0 ? x : sincos_q(x, 0); } /* sin(-0) = -0 */
double ws_cos(double x) { return sincos_q(x, 1); }

/* e^y - 1 for |y| <= 1 by its Taylor series (no cancellation near 0). */
static double expm1_small(double y) {
  double r = 1.0;
  for (int k = 20; k >= 2; k--) r = 1.0 + y * r / (double)k;
  return y * r;
}

double ws_tanh(double x) {
  if (is_nan(x) || x == 0) return x;
  double a = x < 0 ? -x : x, t;
  if (a > 22.0) t = 1.0;
  else if (a < 0.5) {
    double m = expm1_small(2.0 * a);
    t = m / (m + 2.0);
  } else
    t = 1.0 - 2.0 / (ws_exp2(2.0 * a * 0x1.71547652b82fep+0) + 1.0);
  return x < 0 ? -t : t;
}
