/* t102_float.c - f32/f64 arithmetic against the PTX ISA 9.0 semantics.
 *
 * IEEE-rounded operations (add/sub/mul/fma/div.rn/rcp.rn/sqrt.rn and their
 * .rz/.rm/.rp forms) are compared bit-exactly with the host FPU computing the
 * same operation under fesetround() (volatile operands so that nothing is
 * constant-folded or moved across the mode switch); any NaN matches any NaN.
 * .approx results are compared with a tolerance taken from the error bounds the
 * ISA states. .ftz: subnormal inputs and results are flushed to sign-preserving
 * zero. .sat: result clamped to [0.0, 1.0], NaN -> +0.0. */
#include "common/opkit.h"

#include <fenv.h>
#include <float.h>

TEST_GLOBALS;

#define M32 0xffffffffull
#define M64 (~0ull)

enum { OP_ADD, OP_SUB, OP_MUL, OP_FMA, OP_DIV, OP_SQRT, OP_RCP };

static float ftz32(float x) { return (fpclassify(x) == FP_SUBNORMAL) ? copysignf(0.0f, x) : x; }
static double ftz64(double x) { return (fpclassify(x) == FP_SUBNORMAL) ? copysign(0.0, x) : x; }

static uint64_t f32op(int op, int mode, int ftz, int sat, uint64_t a, uint64_t b, uint64_t c) {
  float x = u2f((uint32_t)a), y = u2f((uint32_t)b), z = u2f((uint32_t)c);
  if (ftz) {
    x = ftz32(x);
    y = ftz32(y);
    z = ftz32(z);
  }
  volatile float vx = x, vy = y, vz = z, vr = 0;
  fesetround(mode);
  vx = x;
  vy = y;
  vz = z;
  switch (op) {
  case OP_ADD:
    vr = vx + vy;
    break;
  case OP_SUB:
    vr = vx - vy;
    break;
  case OP_MUL:
    vr = vx * vy;
    break;
  case OP_FMA:
    vr = fmaf(vx, vy, vz);
    break;
  case OP_DIV:
    vr = vx / vy;
    break;
  case OP_SQRT:
    vr = sqrtf(vx);
    break;
  case OP_RCP:
    vr = 1.0f / vx;
    break;
  }
  fesetround(FE_TONEAREST);
  float r = vr;
  if (ftz) r = ftz32(r);
  if (sat) r = isnan(r) ? 0.0f : r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
  return f2u(r);
}
static uint64_t f64op(int op, int mode, int ftz, int sat, uint64_t a, uint64_t b, uint64_t c) {
  double x = u2d(a), y = u2d(b), z = u2d(c);
  if (ftz) {
    x = ftz64(x);
    y = ftz64(y);
    z = ftz64(z);
  }
  volatile double vx = x, vy = y, vz = z, vr = 0;
  fesetround(mode);
  vx = x;
  vy = y;
  vz = z;
  switch (op) {
  case OP_ADD:
    vr = vx + vy;
    break;
  case OP_SUB:
    vr = vx - vy;
    break;
  case OP_MUL:
    vr = vx * vy;
    break;
  case OP_FMA:
    vr = fma(vx, vy, vz);
    break;
  case OP_DIV:
    vr = vx / vy;
    break;
  case OP_SQRT:
    vr = sqrt(vx);
    break;
  case OP_RCP:
    vr = 1.0 / vx;
    break;
  }
  fesetround(FE_TONEAREST);
  double r = vr;
  if (ftz) r = ftz64(r);
  if (sat) r = isnan(r) ? 0.0 : r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
  return d2u(r);
}

#define F32REF(name, op, mode, ftz, sat)                                                                     \
  static uint64_t name(uint64_t a, uint64_t b, uint64_t c) { return f32op(op, mode, ftz, sat, a, b, c); }
#define F64REF(name, op, mode, ftz, sat)                                                                     \
  static uint64_t name(uint64_t a, uint64_t b, uint64_t c) { return f64op(op, mode, ftz, sat, a, b, c); }

F32REF(add_rn, OP_ADD, FE_TONEAREST, 0, 0)
F32REF(add_rz, OP_ADD, FE_TOWARDZERO, 0, 0)
F32REF(add_rm, OP_ADD, FE_DOWNWARD, 0, 0)
F32REF(add_rp, OP_ADD, FE_UPWARD, 0, 0)
F32REF(sub_rn, OP_SUB, FE_TONEAREST, 0, 0)
F32REF(sub_rz, OP_SUB, FE_TOWARDZERO, 0, 0)
F32REF(sub_rm, OP_SUB, FE_DOWNWARD, 0, 0)
F32REF(sub_rp, OP_SUB, FE_UPWARD, 0, 0)
F32REF(mul_rn, OP_MUL, FE_TONEAREST, 0, 0)
F32REF(mul_rz, OP_MUL, FE_TOWARDZERO, 0, 0)
F32REF(mul_rm, OP_MUL, FE_DOWNWARD, 0, 0)
F32REF(mul_rp, OP_MUL, FE_UPWARD, 0, 0)
F32REF(fma_rn, OP_FMA, FE_TONEAREST, 0, 0)
F32REF(fma_rz, OP_FMA, FE_TOWARDZERO, 0, 0)
F32REF(fma_rm, OP_FMA, FE_DOWNWARD, 0, 0)
F32REF(fma_rp, OP_FMA, FE_UPWARD, 0, 0)
F32REF(div_rn, OP_DIV, FE_TONEAREST, 0, 0)
F32REF(div_rz, OP_DIV, FE_TOWARDZERO, 0, 0)
F32REF(div_rm, OP_DIV, FE_DOWNWARD, 0, 0)
F32REF(div_rp, OP_DIV, FE_UPWARD, 0, 0)
F32REF(sqrt_rn, OP_SQRT, FE_TONEAREST, 0, 0)
F32REF(sqrt_rz, OP_SQRT, FE_TOWARDZERO, 0, 0)
F32REF(sqrt_rp, OP_SQRT, FE_UPWARD, 0, 0)
F32REF(rcp_rn, OP_RCP, FE_TONEAREST, 0, 0)
F32REF(rcp_rz, OP_RCP, FE_TOWARDZERO, 0, 0)
F32REF(rcp_rm, OP_RCP, FE_DOWNWARD, 0, 0)
F32REF(add_ftz, OP_ADD, FE_TONEAREST, 1, 0)
F32REF(mul_ftz, OP_MUL, FE_TONEAREST, 1, 0)
F32REF(fma_ftz, OP_FMA, FE_TONEAREST, 1, 0)
F32REF(add_rz_ftz, OP_ADD, FE_TOWARDZERO, 1, 0)
F32REF(fma_rm_ftz, OP_FMA, FE_DOWNWARD, 1, 0)
F32REF(div_rn_ftz, OP_DIV, FE_TONEAREST, 1, 0)
F32REF(sqrt_rn_ftz, OP_SQRT, FE_TONEAREST, 1, 0)
F32REF(add_sat, OP_ADD, FE_TONEAREST, 0, 1)
F32REF(sub_sat, OP_SUB, FE_TONEAREST, 0, 1)
F32REF(mul_sat, OP_MUL, FE_TONEAREST, 0, 1)
F32REF(fma_sat, OP_FMA, FE_TONEAREST, 0, 1)
F32REF(add_ftz_sat, OP_ADD, FE_TONEAREST, 1, 1)

F64REF(dadd_rn, OP_ADD, FE_TONEAREST, 0, 0)
F64REF(dadd_rz, OP_ADD, FE_TOWARDZERO, 0, 0)
F64REF(dadd_rm, OP_ADD, FE_DOWNWARD, 0, 0)
F64REF(dadd_rp, OP_ADD, FE_UPWARD, 0, 0)
F64REF(dsub_rn, OP_SUB, FE_TONEAREST, 0, 0)
F64REF(dsub_rm, OP_SUB, FE_DOWNWARD, 0, 0)
F64REF(dmul_rn, OP_MUL, FE_TONEAREST, 0, 0)
F64REF(dmul_rz, OP_MUL, FE_TOWARDZERO, 0, 0)
F64REF(dmul_rm, OP_MUL, FE_DOWNWARD, 0, 0)
F64REF(dmul_rp, OP_MUL, FE_UPWARD, 0, 0)
F64REF(dfma_rn, OP_FMA, FE_TONEAREST, 0, 0)
F64REF(dfma_rz, OP_FMA, FE_TOWARDZERO, 0, 0)
F64REF(dfma_rm, OP_FMA, FE_DOWNWARD, 0, 0)
F64REF(dfma_rp, OP_FMA, FE_UPWARD, 0, 0)
F64REF(ddiv_rn, OP_DIV, FE_TONEAREST, 0, 0)
F64REF(ddiv_rz, OP_DIV, FE_TOWARDZERO, 0, 0)
F64REF(ddiv_rm, OP_DIV, FE_DOWNWARD, 0, 0)
F64REF(ddiv_rp, OP_DIV, FE_UPWARD, 0, 0)
F64REF(dsqrt_rn, OP_SQRT, FE_TONEAREST, 0, 0)
F64REF(dsqrt_rm, OP_SQRT, FE_DOWNWARD, 0, 0)
F64REF(drcp_rn, OP_RCP, FE_TONEAREST, 0, 0)
F64REF(drcp_rp, OP_RCP, FE_UPWARD, 0, 0)

/* ------------------------------------------------------------------ inputs */
static const uint32_t SPEC32[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0x40000000, 0x40400000,
    0x3dcccccd, 0xbdcccccd, 0x3eaaaaab, 0x000116c2, 0x800116c2, 0x00800000, 0x80800000, 0x00000001,
    0x007fffff, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x60ad78ec, 0xc0e80000,
    0x4b800000, 0x40490fdb, 0x3f800001, 0x3f7fffff, 0x4effffff, 0x1e3ce508, 0x7f800001, 0xffc00000};
#define NSPEC32 (int)(sizeof SPEC32 / 4)
static const uint64_t SPEC64[] = {0,
                                  0x8000000000000000ull,
                                  0x3ff0000000000000ull,
                                  0xbff0000000000000ull,
                                  0x3fe0000000000000ull,
                                  0x4000000000000000ull,
                                  0x3fb999999999999aull,
                                  0x3fd5555555555555ull,
                                  0x0000000000000001ull,
                                  0x000fffffffffffffull,
                                  0x0010000000000000ull,
                                  0x8010000000000000ull,
                                  0x7fefffffffffffffull,
                                  0xffefffffffffffffull,
                                  0x7ff0000000000000ull,
                                  0xfff0000000000000ull,
                                  0x7ff8000000000000ull,
                                  0x400921fb54442d18ull,
                                  0x3ff0000000000001ull,
                                  0x3fefffffffffffffull,
                                  0x4340000000000000ull,
                                  0xc01d000000000000ull,
                                  0x000123456789abcdull};
#define NSPEC64 (int)(sizeof SPEC64 / 8)

/* random float with biased exponent in [elo, ehi] */
static uint32_t rand_f32(uint64_t *s, unsigned elo, unsigned ehi) {
  uint64_t r = ov_rand(s);
  uint32_t e = elo + (uint32_t)(r % (ehi - elo + 1));
  return (uint32_t)((r >> 40) & 0x80000000u) | (e << 23) | (uint32_t)((r >> 8) & 0x7fffff);
}
static uint64_t rand_f64(uint64_t *s, unsigned elo, unsigned ehi) {
  uint64_t r = ov_rand(s), m = ov_rand(s);
  uint64_t e = elo + (r % (ehi - elo + 1));
  return (r & 0x8000000000000000ull) | (e << 52) | (m & 0xfffffffffffffull);
}

/* specials x specials (c from specials), plus random values where the rounding matters */
static OpVec set32(void) {
  OpVec o = {0};
  uint64_t s = 0x1234567ull;
  for (int i = 0; i < NSPEC32; i++)
    for (int j = 0; j < NSPEC32; j++) ov_add(&o, SPEC32[i], SPEC32[j], SPEC32[(i * 3 + j * 5) % NSPEC32]);
  for (int i = 0; i < 600; i++) {
    uint32_t a = rand_f32(&s, 110, 145), b = rand_f32(&s, 110, 145), c = rand_f32(&s, 120, 150);
    ov_add(&o, a, b, c);
  }
  /* cancellation cases for fma: c close to -a*b */
  for (int i = 0; i < 64; i++) {
    uint32_t a = rand_f32(&s, 120, 134), b = rand_f32(&s, 120, 134);
    float p = u2f(a) * u2f(b);
    ov_add(&o, a, b, f2u(-p));
  }
  return o;
}
static OpVec set64(void) {
  OpVec o = {0};
  uint64_t s = 0x7654321ull;
  for (int i = 0; i < NSPEC64; i++)
    for (int j = 0; j < NSPEC64; j++) ov_add(&o, SPEC64[i], SPEC64[j], SPEC64[(i * 3 + j * 5) % NSPEC64]);
  for (int i = 0; i < 600; i++)
    ov_add(&o, rand_f64(&s, 1000, 1040), rand_f64(&s, 1000, 1040), rand_f64(&s, 1010, 1050));
  for (int i = 0; i < 64; i++) {
    uint64_t a = rand_f64(&s, 1015, 1030), b = rand_f64(&s, 1015, 1030);
    ov_add(&o, a, b, d2u(-(u2d(a) * u2d(b))));
  }
  return o;
}

/* ------------------------------------------------------------------ tests */
#define F3(op) op " %f20, %f10, %f11" ST_F
#define F4(op) op " %f20, %f10, %f11, %f12" ST_F
#define D3(op) op " %fd20, %fd10, %fd11" ST_FD
#define D4(op) op " %fd20, %fd10, %fd11, %fd12" ST_FD

/* mul.rz / mad.rz: regression test (the register-width check once took .rz for .wide) */
static void test_f32_add_sub_mul_rounding(void) {
  OpVec o = set32();
  op_check(F3("add.f32"), add_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("add.rn.f32"), add_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("add.rz.f32"), add_rz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("add.rm.f32"), add_rm, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("add.rp.f32"), add_rp, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("sub.f32"), sub_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("sub.rz.f32"), sub_rz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("sub.rm.f32"), sub_rm, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("sub.rp.f32"), sub_rp, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("mul.f32"), mul_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("mul.rn.f32"), mul_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("mul.rz.f32"), mul_rz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("mul.rm.f32"), mul_rm, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("mul.rp.f32"), mul_rp, op_eq_f32, M32, OV_ARGS(o));
  ov_free(&o);
}

static void test_f32_fma_rounding(void) {
  OpVec o = set32();
  op_check(F4("fma.rn.f32"), fma_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F4("fma.rz.f32"), fma_rz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F4("fma.rm.f32"), fma_rm, op_eq_f32, M32, OV_ARGS(o));
  op_check(F4("fma.rp.f32"), fma_rp, op_eq_f32, M32, OV_ARGS(o));
  /* mad.rnd.f32 is fma.rnd.f32 (sm_20+) */
  op_check(F4("mad.rn.f32"), fma_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F4("mad.rz.f32"), fma_rz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F4("mad.rm.f32"), fma_rm, op_eq_f32, M32, OV_ARGS(o));
  op_check(F4("mad.rp.f32"), fma_rp, op_eq_f32, M32, OV_ARGS(o));
  ov_free(&o);
}

static void test_f64_rounding(void) {
  OpVec o = set64();
  op_check(D3("add.f64"), dadd_rn, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("add.rn.f64"), dadd_rn, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("add.rz.f64"), dadd_rz, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("add.rm.f64"), dadd_rm, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("add.rp.f64"), dadd_rp, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("sub.f64"), dsub_rn, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("sub.rm.f64"), dsub_rm, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("mul.f64"), dmul_rn, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("mul.rz.f64"), dmul_rz, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("mul.rm.f64"), dmul_rm, op_eq_f64, M64, OV_ARGS(o));
  op_check(D3("mul.rp.f64"), dmul_rp, op_eq_f64, M64, OV_ARGS(o));
  op_check(D4("fma.rn.f64"), dfma_rn, op_eq_f64, M64, OV_ARGS(o));
  op_check(D4("fma.rz.f64"), dfma_rz, op_eq_f64, M64, OV_ARGS(o));
  op_check(D4("fma.rm.f64"), dfma_rm, op_eq_f64, M64, OV_ARGS(o));
  op_check(D4("fma.rp.f64"), dfma_rp, op_eq_f64, M64, OV_ARGS(o));
  op_check(D4("mad.rn.f64"), dfma_rn, op_eq_f64, M64, OV_ARGS(o));
  ov_free(&o);
}

static void test_div_rcp_sqrt_ieee(void) {
  OpVec o = set32(), d = set64();
  op_check(F3("div.rn.f32"), div_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("div.rz.f32"), div_rz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("div.rm.f32"), div_rm, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("div.rp.f32"), div_rp, op_eq_f32, M32, OV_ARGS(o));
  op_check("rcp.rn.f32 %f20, %f10" ST_F, rcp_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check("rcp.rz.f32 %f20, %f10" ST_F, rcp_rz, op_eq_f32, M32, OV_ARGS(o));
  op_check("rcp.rm.f32 %f20, %f10" ST_F, rcp_rm, op_eq_f32, M32, OV_ARGS(o));
  op_check("sqrt.rn.f32 %f20, %f10" ST_F, sqrt_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check("sqrt.rz.f32 %f20, %f10" ST_F, sqrt_rz, op_eq_f32, M32, OV_ARGS(o));
  op_check("sqrt.rp.f32 %f20, %f10" ST_F, sqrt_rp, op_eq_f32, M32, OV_ARGS(o));
  op_check(D3("div.rn.f64"), ddiv_rn, op_eq_f64, M64, OV_ARGS(d));
  op_check(D3("div.rz.f64"), ddiv_rz, op_eq_f64, M64, OV_ARGS(d));
  op_check(D3("div.rm.f64"), ddiv_rm, op_eq_f64, M64, OV_ARGS(d));
  op_check(D3("div.rp.f64"), ddiv_rp, op_eq_f64, M64, OV_ARGS(d));
  op_check("rcp.rn.f64 %fd20, %fd10" ST_FD, drcp_rn, op_eq_f64, M64, OV_ARGS(d));
  op_check("rcp.rp.f64 %fd20, %fd10" ST_FD, drcp_rp, op_eq_f64, M64, OV_ARGS(d));
  op_check("sqrt.rn.f64 %fd20, %fd10" ST_FD, dsqrt_rn, op_eq_f64, M64, OV_ARGS(d));
  op_check("sqrt.rm.f64 %fd20, %fd10" ST_FD, dsqrt_rm, op_eq_f64, M64, OV_ARGS(d));
  ov_free(&o);
  ov_free(&d);
}

/* .ftz: subnormal inputs and results -> sign-preserving zero. Hand-picked cases. */
static void test_ftz(void) {
  OpVec o = {0};
  const uint32_t dn = 0x000116c2, ndn = 0x800116c2; /* +-1e-40 */
  ov_add(&o, dn, 0x00000000, 0);                    /* 1e-40 + 0  -> +0 */
  ov_add(&o, ndn, 0x80000000, 0);                   /* -1e-40 + -0 -> -0 */
  ov_add(&o, dn, 0x3f800000, 0);                    /* 1e-40 + 1 -> 1 */
  ov_add(&o, 0x00800000, 0x80000001, 0);            /* FLT_MIN + (-min denormal) -> FLT_MIN (input flushed) */
  ov_add(&o, 0x00800000, 0x807fffff, 0);            /* FLT_MIN - denormal: input flushed -> FLT_MIN */
  ov_add(&o, 0x00c00000, 0x80800000, 0);            /* 1.5*FLT_MIN - FLT_MIN = 0.5 FLT_MIN (denormal) -> +0 */
  ov_add(&o, 0x80c00000, 0x00800000, 0);            /* -> -0 */
  ov_add(&o, 0x1e3ce508, 0x1e3ce508, 0x00000000);   /* 1e-20 * 1e-20 = 1e-40 -> +0 */
  ov_add(&o, 0x9e3ce508, 0x1e3ce508, 0x80000000);   /* -1e-20 * 1e-20 -> -0 */
  ov_add(&o, 0x3f800000, dn, 0x3f800000);           /* 1 * denormal + 1 */
  ov_add(&o, 0x7fc00000, dn, 0);
  ov_add(&o, 0x40000000, 0x3f000000, dn); /* fma 2*0.5 + denormal -> 1 */
  ov_add(&o, 0x40000000, 0x00400000, 0);  /* 2 * denormal(0.5 FLT_MIN) -> +0 (input flushed) */
  ov_add(&o, 0x3f000000, 0x00800000, 0);  /* 0.5 * FLT_MIN = denormal -> +0 */
  ov_add(&o, 0xbf000000, 0x00800000, 0);  /* -> -0 */
  ov_add(&o, dn, dn, dn);
  ov_add(&o, 0x3f800000, 0x3f800000, 0x3f800000);
  op_check(F3("add.ftz.f32"), add_ftz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("add.rn.ftz.f32"), add_ftz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("add.rz.ftz.f32"), add_rz_ftz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("mul.ftz.f32"), mul_ftz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F4("fma.rn.ftz.f32"), fma_ftz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F4("fma.rm.ftz.f32"), fma_rm_ftz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("div.rn.ftz.f32"), div_rn_ftz, op_eq_f32, M32, OV_ARGS(o));
  op_check("sqrt.rn.ftz.f32 %f20, %f10" ST_F, sqrt_rn_ftz, op_eq_f32, M32, OV_ARGS(o));
  /* the same ops without .ftz keep subnormals */
  op_check(F3("add.f32"), add_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("mul.f32"), mul_rn, op_eq_f32, M32, OV_ARGS(o));
  op_check(F4("fma.rn.f32"), fma_rn, op_eq_f32, M32, OV_ARGS(o));
  ov_free(&o);
}

/* .sat: clamp to [0.0, 1.0], NaN -> +0.0 (the sign of a zero result is not checked) */
static void test_sat(void) {
  OpVec o = set32();
  op_check(F3("add.sat.f32"), add_sat, op_eq_f32_anyzero, M32, OV_ARGS(o));
  op_check(F3("add.rn.sat.f32"), add_sat, op_eq_f32_anyzero, M32, OV_ARGS(o));
  op_check(F3("sub.sat.f32"), sub_sat, op_eq_f32_anyzero, M32, OV_ARGS(o));
  op_check(F3("mul.sat.f32"), mul_sat, op_eq_f32_anyzero, M32, OV_ARGS(o));
  op_check(F4("fma.rn.sat.f32"), fma_sat, op_eq_f32_anyzero, M32, OV_ARGS(o));
  op_check(F3("add.ftz.sat.f32"), add_ftz_sat, op_eq_f32_anyzero, M32, OV_ARGS(o));
  /* explicit NaN -> exactly +0.0 */
  {
    OpVec n = {0};
    ov_add(&n, 0x7fc00000, 0x3f800000, 0);
    ov_add(&n, 0x7f800000, 0xff800000, 0); /* inf + -inf = NaN -> 0 */
    op_check(F3("add.sat.f32"), add_sat, NULL, M32, OV_ARGS(n));
    ov_free(&n);
  }
  ov_free(&o);
}

/* ------------------------------------------------------------------ abs/neg/min/max/copysign */
static uint64_t r_abs32(uint64_t a, uint64_t b, uint64_t c) { return a & 0x7fffffffu; }
static uint64_t r_neg32(uint64_t a, uint64_t b, uint64_t c) { return (a ^ 0x80000000u) & M32; }
static uint64_t r_abs64(uint64_t a, uint64_t b, uint64_t c) { return a & 0x7fffffffffffffffull; }
static uint64_t r_neg64(uint64_t a, uint64_t b, uint64_t c) { return a ^ 0x8000000000000000ull; }
static uint64_t r_min32(uint64_t a, uint64_t b, uint64_t c) {
  float x = u2f((uint32_t)a), y = u2f((uint32_t)b);
  if (isnan(x) && isnan(y)) return 0x7fffffff;
  if (isnan(x)) return (uint32_t)b;
  if (isnan(y)) return (uint32_t)a;
  return x < y ? (uint32_t)a : (uint32_t)b;
}
static uint64_t r_max32(uint64_t a, uint64_t b, uint64_t c) {
  float x = u2f((uint32_t)a), y = u2f((uint32_t)b);
  if (isnan(x) && isnan(y)) return 0x7fffffff;
  if (isnan(x)) return (uint32_t)b;
  if (isnan(y)) return (uint32_t)a;
  return x > y ? (uint32_t)a : (uint32_t)b;
}
static uint64_t r_min32_ftz(uint64_t a, uint64_t b, uint64_t c) {
  return r_min32(f2u(ftz32(u2f((uint32_t)a))), f2u(ftz32(u2f((uint32_t)b))), 0);
}
static uint64_t r_min64(uint64_t a, uint64_t b, uint64_t c) {
  double x = u2d(a), y = u2d(b);
  if (isnan(x) && isnan(y)) return 0x7fffffffffffffffull;
  if (isnan(x)) return b;
  if (isnan(y)) return a;
  return x < y ? a : b;
}
static uint64_t r_max64(uint64_t a, uint64_t b, uint64_t c) {
  double x = u2d(a), y = u2d(b);
  if (isnan(x) && isnan(y)) return 0x7fffffffffffffffull;
  if (isnan(x)) return b;
  if (isnan(y)) return a;
  return x > y ? a : b;
}
/* copysign.f32 d, a, b: d = b with the sign of a (the reverse of C's copysign argument order) */
static uint64_t r_copysign32(uint64_t a, uint64_t b, uint64_t c) {
  return ((uint32_t)b & 0x7fffffffu) | ((uint32_t)a & 0x80000000u);
}
static uint64_t r_copysign64(uint64_t a, uint64_t b, uint64_t c) {
  return (b & 0x7fffffffffffffffull) | (a & 0x8000000000000000ull);
}

static void test_abs_neg_min_max_copysign(void) {
  OpVec o = set32(), d = set64();
  op_check("abs.f32 %f20, %f10" ST_F, r_abs32, op_eq_f32, M32, OV_ARGS(o));
  op_check("neg.f32 %f20, %f10" ST_F, r_neg32, op_eq_f32, M32, OV_ARGS(o));
  op_check("abs.f64 %fd20, %fd10" ST_FD, r_abs64, op_eq_f64, M64, OV_ARGS(d));
  op_check("neg.f64 %fd20, %fd10" ST_FD, r_neg64, op_eq_f64, M64, OV_ARGS(d));
  /* NaN: one NaN input -> the other input; both NaN -> NaN; +0/-0 either sign */
  op_check(F3("min.f32"), r_min32, op_eq_f32_anyzero, M32, OV_ARGS(o));
  op_check(F3("max.f32"), r_max32, op_eq_f32_anyzero, M32, OV_ARGS(o));
  op_check(F3("min.ftz.f32"), r_min32_ftz, op_eq_f32_anyzero, M32, OV_ARGS(o));
  op_check(D3("min.f64"), r_min64, op_eq_f64_anyzero, M64, OV_ARGS(d));
  op_check(D3("max.f64"), r_max64, op_eq_f64_anyzero, M64, OV_ARGS(d));
  op_check(F3("copysign.f32"), r_copysign32, op_eq_f32, M32, OV_ARGS(o));
  op_check(D3("copysign.f64"), r_copysign64, op_eq_f64, M64, OV_ARGS(d));
  ov_free(&o);
  ov_free(&d);
}

/* copysign direction, hand-computed: copysign.f32 d, -1.0, 2.0 -> -2.0 */
static void test_copysign_direction(void) {
  uint64_t in[2][3] = {{0xbf800000, 0x40000000, 0}, {0x3f800000, 0xc0000000, 0}};
  uint64_t out[2][2];
  if (op_run(F3("copysign.f32"), (const uint64_t(*)[3])in, 2, out) == 0) {
    CHECK_EQ_U64(out[0][0], 0xc0000000); /* -2.0 */
    CHECK_EQ_U64(out[1][0], 0x40000000); /* +2.0 */
  } else {
    CHECK(0);
  }
}

/* ------------------------------------------------------------------ approximate functions */
static uint64_t r_rcp_exact(uint64_t a, uint64_t b, uint64_t c) {
  return f2u((float)(1.0 / (double)u2f((uint32_t)a)));
}
static uint64_t r_div_exact(uint64_t a, uint64_t b, uint64_t c) {
  return f2u((float)((double)u2f((uint32_t)a) / (double)u2f((uint32_t)b)));
}
static uint64_t r_sqrt_exact(uint64_t a, uint64_t b, uint64_t c) {
  return f2u((float)sqrt((double)u2f((uint32_t)a)));
}
static uint64_t r_rsqrt_exact(uint64_t a, uint64_t b, uint64_t c) {
  return f2u((float)(1.0 / sqrt((double)u2f((uint32_t)a))));
}
static uint64_t r_ex2(uint64_t a, uint64_t b, uint64_t c) {
  return f2u((float)exp2((double)u2f((uint32_t)a)));
}
static uint64_t r_lg2(uint64_t a, uint64_t b, uint64_t c) {
  return f2u((float)log2((double)u2f((uint32_t)a)));
}
static uint64_t r_sin(uint64_t a, uint64_t b, uint64_t c) {
  return f2u((float)sin((double)u2f((uint32_t)a)));
}
static uint64_t r_cos(uint64_t a, uint64_t b, uint64_t c) {
  return f2u((float)cos((double)u2f((uint32_t)a)));
}
static uint64_t r_tanh(uint64_t a, uint64_t b, uint64_t c) {
  return f2u((float)tanh((double)u2f((uint32_t)a)));
}
static uint64_t r_drcp(uint64_t a, uint64_t b, uint64_t c) { return d2u(1.0 / u2d(a)); }
static uint64_t r_drsqrt(uint64_t a, uint64_t b, uint64_t c) { return d2u(1.0 / sqrt(u2d(a))); }

static void test_approx(void) {
  OpVec g = {0}, pos = {0}, ang = {0}, th = {0}, dd = {0};
  uint64_t s = 99;
  for (int i = 0; i < 200; i++) {
    uint32_t a = rand_f32(&s, 100, 154), b = rand_f32(&s, 100, 154);
    ov_add(&g, a, b, 0);
    ov_add(&pos, a & 0x7fffffffu, 0, 0);
    float x = (float)((double)(ov_rand(&s) % 2000001) / 100000.0 - 10.0); /* [-10, 10] */
    ov_add(&ang, f2u(x), 0, 0);
    float t = (float)((double)(ov_rand(&s) % 2000001) / 200000.0 - 5.0); /* [-5, 5] */
    ov_add(&th, f2u(t), 0, 0);
    ov_add(&dd, rand_f64(&s, 900, 1150) & 0x7fffffffffffffffull, 0, 0);
  }
  /* specials with exactly known results */
  OpVec sp = {0};
  ov_add(&sp, 0x3f800000, 0x3f800000, 0); /* 1 */
  ov_add(&sp, 0x40800000, 0x40000000, 0); /* 4 */
  ov_add(&sp, 0x7f800000, 0x3f800000, 0); /* inf */

  op_tol = 1e-6; /* rcp.approx: max 1 ulp; sqrt.approx 2^-23 rel; rsqrt.approx 2^-22.9 rel; div 2 ulp */
  op_check("rcp.approx.f32 %f20, %f10" ST_F, r_rcp_exact, op_eq_f32_reltol, M32, OV_ARGS(g));
  op_check("rcp.approx.ftz.f32 %f20, %f10" ST_F, r_rcp_exact, op_eq_f32_reltol, M32, OV_ARGS(g));
  op_check("sqrt.approx.f32 %f20, %f10" ST_F, r_sqrt_exact, op_eq_f32_reltol, M32, OV_ARGS(pos));
  op_check("sqrt.approx.ftz.f32 %f20, %f10" ST_F, r_sqrt_exact, op_eq_f32_reltol, M32, OV_ARGS(pos));
  op_check("rsqrt.approx.f32 %f20, %f10" ST_F, r_rsqrt_exact, op_eq_f32_reltol, M32, OV_ARGS(pos));
  op_check("rsqrt.approx.ftz.f32 %f20, %f10" ST_F, r_rsqrt_exact, op_eq_f32_reltol, M32, OV_ARGS(pos));
  op_check(F3("div.approx.f32"), r_div_exact, op_eq_f32_reltol, M32, OV_ARGS(g));
  op_check(F3("div.approx.ftz.f32"), r_div_exact, op_eq_f32_reltol, M32, OV_ARGS(g));
  op_check(F3("div.full.f32"), r_div_exact, op_eq_f32_reltol, M32, OV_ARGS(g));
  op_check(F3("div.full.ftz.f32"), r_div_exact, op_eq_f32_reltol, M32, OV_ARGS(g));
  op_check("rcp.approx.f32 %f20, %f10" ST_F, r_rcp_exact, op_eq_f32_reltol, M32, OV_ARGS(sp));
  op_check("sqrt.approx.f32 %f20, %f10" ST_F, r_sqrt_exact, op_eq_f32_reltol, M32, OV_ARGS(sp));
  op_check("rsqrt.approx.f32 %f20, %f10" ST_F, r_rsqrt_exact, op_eq_f32_reltol, M32, OV_ARGS(sp));

  op_tol = 2e-6; /* ex2.approx: max 2 ulp relative error */
  op_check("ex2.approx.f32 %f20, %f10" ST_F, r_ex2, op_eq_f32_reltol, M32, OV_ARGS(ang));
  op_check("ex2.approx.ftz.f32 %f20, %f10" ST_F, r_ex2, op_eq_f32_reltol, M32, OV_ARGS(ang));
  op_tol = 1e-6; /* lg2.approx: absolute 2^-22.6 (relative above 1) */
  op_check("lg2.approx.f32 %f20, %f10" ST_F, r_lg2, op_eq_f32_tol, M32, OV_ARGS(pos));
  op_check("lg2.approx.ftz.f32 %f20, %f10" ST_F, r_lg2, op_eq_f32_tol, M32, OV_ARGS(pos));
  op_tol = 1e-5; /* sin/cos.approx: absolute 2^-20.5 in -pi..pi, a little more outside */
  op_check("sin.approx.f32 %f20, %f10" ST_F, r_sin, op_eq_f32_tol, M32, OV_ARGS(ang));
  op_check("cos.approx.f32 %f20, %f10" ST_F, r_cos, op_eq_f32_tol, M32, OV_ARGS(ang));
  op_check("sin.approx.ftz.f32 %f20, %f10" ST_F, r_sin, op_eq_f32_tol, M32, OV_ARGS(ang));
  op_check("cos.approx.ftz.f32 %f20, %f10" ST_F, r_cos, op_eq_f32_tol, M32, OV_ARGS(ang));
  op_tol = 1e-3; /* tanh.approx.f32: max relative error 2^-11 */
  op_check("tanh.approx.f32 %f20, %f10" ST_F, r_tanh, op_eq_f32_tol, M32, OV_ARGS(th));
  op_tol = 1e-5; /* rcp.approx.ftz.f64 / rsqrt.approx.f64: coarse approximations */
  op_check("rcp.approx.ftz.f64 %fd20, %fd10" ST_FD, r_drcp, op_eq_f64_reltol, M64, OV_ARGS(dd));
  op_check("rsqrt.approx.f64 %fd20, %fd10" ST_FD, r_drsqrt, op_eq_f64_reltol, M64, OV_ARGS(dd));
  ov_free(&g);
  ov_free(&pos);
  ov_free(&ang);
  ov_free(&th);
  ov_free(&dd);
  ov_free(&sp);
}

/* special values of the approximate functions, checked exactly (ISA tables) */
static void test_approx_specials(void) {
  /* ex2: -inf -> +0, +inf -> +inf, NaN -> NaN, +-0 -> 1 */
  uint64_t in[6][3] = {{0xff800000}, {0x7f800000}, {0x7fc00000}, {0x00000000}, {0x80000000}, {0x3f800000}};
  uint64_t out[6][2];
  if (op_run("ex2.approx.f32 %f20, %f10" ST_F, (const uint64_t(*)[3])in, 6, out) == 0) {
    CHECK_EQ_U64(out[0][0], 0x00000000);
    CHECK_EQ_U64(out[1][0], 0x7f800000);
    CHECK(isnan(u2f((uint32_t)out[2][0])));
    CHECK_EQ_U64(out[3][0], 0x3f800000);
    CHECK_EQ_U64(out[4][0], 0x3f800000);
    CHECK_EQ_U64(out[5][0], 0x40000000);
  } else
    CHECK(0);
  /* lg2: +0 -> -inf, -0 -> -inf, +inf -> +inf, NaN -> NaN, negative -> NaN, 1 -> 0 */
  uint64_t in2[6][3] = {{0x00000000}, {0x80000000}, {0x7f800000}, {0x7fc00000}, {0xbf800000}, {0x3f800000}};
  if (op_run("lg2.approx.f32 %f20, %f10" ST_F, (const uint64_t(*)[3])in2, 6, out) == 0) {
    CHECK_EQ_U64(out[0][0], 0xff800000);
    CHECK_EQ_U64(out[1][0], 0xff800000);
    CHECK_EQ_U64(out[2][0], 0x7f800000);
    CHECK(isnan(u2f((uint32_t)out[3][0])));
    CHECK(isnan(u2f((uint32_t)out[4][0])));
    CHECK_EQ_U64(out[5][0], 0x00000000);
  } else
    CHECK(0);
  /* rcp.approx: +-0 -> +-inf, +-inf -> +-0; sqrt.approx(-1) = NaN; rsqrt.approx(+0) = +inf */
  uint64_t in3[4][3] = {{0x00000000}, {0x80000000}, {0x7f800000}, {0xff800000}};
  if (op_run("rcp.approx.f32 %f20, %f10" ST_F, (const uint64_t(*)[3])in3, 4, out) == 0) {
    CHECK_EQ_U64(out[0][0], 0x7f800000);
    CHECK_EQ_U64(out[1][0], 0xff800000);
    CHECK_EQ_U64(out[2][0], 0x00000000);
    CHECK_EQ_U64(out[3][0], 0x80000000);
  } else
    CHECK(0);
  uint64_t in4[2][3] = {{0xbf800000}, {0x00000000}};
  if (op_run("sqrt.approx.f32 %f20, %f10;\n\tst.global.f32 [%rd30], %f20;\n\trsqrt.approx.f32 %f21, %f10;\n\t"
             "st.global.f32 [%rd30+8], %f21;",
             (const uint64_t(*)[3])in4, 2, out) == 0) {
    CHECK(isnan(u2f((uint32_t)out[0][0])));
    CHECK_EQ_U64(out[1][0], 0x00000000);
    CHECK_EQ_U64(out[1][1], 0x7f800000);
  } else
    CHECK(0);
  /* sin/cos of 0 and of +-inf (NaN); tanh(+-inf) = +-1, tanh(0) = 0 */
  uint64_t in5[3][3] = {{0x00000000}, {0x7f800000}, {0xff800000}};
  if (op_run("sin.approx.f32 %f20, %f10;\n\tst.global.f32 [%rd30], %f20;\n\tcos.approx.f32 %f21, %f10;\n\t"
             "st.global.f32 [%rd30+8], %f21;",
             (const uint64_t(*)[3])in5, 3, out) == 0) {
    CHECK_EQ_U64(out[0][0], 0x00000000);
    CHECK_EQ_U64(out[0][1], 0x3f800000);
    CHECK(isnan(u2f((uint32_t)out[1][0])));
    CHECK(isnan(u2f((uint32_t)out[1][1])));
    CHECK(isnan(u2f((uint32_t)out[2][0])));
  } else
    CHECK(0);
  if (op_run("tanh.approx.f32 %f20, %f10" ST_F, (const uint64_t(*)[3])in5, 3, out) == 0) {
    CHECK_EQ_U64(out[0][0], 0x00000000);
    CHECK_EQ_U64(out[1][0], 0x3f800000);
    CHECK_EQ_U64(out[2][0], 0xbf800000);
  } else
    CHECK(0);
}

/* .ftz on abs/neg/min/max/ex2/sqrt: subnormal inputs become sign-preserving zeros */
static uint64_t r_abs_ftz(uint64_t a, uint64_t b, uint64_t c) { return f2u(fabsf(ftz32(u2f((uint32_t)a)))); }
static uint64_t r_neg_ftz(uint64_t a, uint64_t b, uint64_t c) { return f2u(-ftz32(u2f((uint32_t)a))); }
static uint64_t r_max_ftz(uint64_t a, uint64_t b, uint64_t c) {
  return r_max32(f2u(ftz32(u2f((uint32_t)a))), f2u(ftz32(u2f((uint32_t)b))), 0);
}
static void test_ftz_misc(void) {
  OpVec o = {0};
  static const uint32_t v[] = {0x000116c2, 0x800116c2, 0x00000001, 0x807fffff,
                               0x00800000, 0x3f800000, 0xbf800000, 0};
  for (unsigned i = 0; i < sizeof v / 4; i++)
    for (unsigned j = 0; j < sizeof v / 4; j++) ov_add(&o, v[i], v[j], 0);
  op_check("abs.ftz.f32 %f20, %f10" ST_F, r_abs_ftz, op_eq_f32, M32, OV_ARGS(o));
  op_check("neg.ftz.f32 %f20, %f10" ST_F, r_neg_ftz, op_eq_f32, M32, OV_ARGS(o));
  op_check(F3("max.ftz.f32"), r_max_ftz, op_eq_f32_anyzero, M32, OV_ARGS(o));
  /* without .ftz, abs/neg keep subnormals bit-exactly */
  op_check("abs.f32 %f20, %f10" ST_F, r_abs32, op_eq_f32, M32, OV_ARGS(o));
  op_check("neg.f32 %f20, %f10" ST_F, r_neg32, op_eq_f32, M32, OV_ARGS(o));
  ov_free(&o);
  /* ex2.approx.ftz of a large negative argument: the subnormal result is flushed to +0;
   * sqrt.approx.ftz / rsqrt.approx.ftz of a subnormal input see +-0 */
  uint64_t in[3][3] = {{f2u(-130.0f)}, {0x000116c2}, {0x800116c2}}, out[3][2];
  if (op_run("ex2.approx.ftz.f32 %f20, %f10;\n\tst.global.f32 [%rd30], %f20;\n\t"
             "sqrt.approx.ftz.f32 %f21, %f10;\n\tst.global.f32 [%rd30+8], %f21;",
             (const uint64_t(*)[3])in, 3, out) == 0) {
    CHECK_EQ_U64(out[0][0], 0x00000000);
    CHECK_EQ_U64(out[1][1], 0x00000000); /* sqrt(+0) */
    CHECK_EQ_U64(out[2][1], 0x80000000); /* sqrt(-0) = -0 */
  } else
    CHECK(0);
  if (op_run("rsqrt.approx.ftz.f32 %f20, %f10" ST_F, (const uint64_t(*)[3])in + 1, 2, out) == 0) {
    CHECK_EQ_U64(out[0][0], 0x7f800000); /* 1/sqrt(+0) = +inf */
    CHECK_EQ_U64(out[1][0], 0xff800000); /* 1/sqrt(-0) = -inf */
  } else
    CHECK(0);
}

/* ------------------------------------------------------------------ immediates */
static uint64_t r_add_one(uint64_t a, uint64_t b, uint64_t c) { return add_rn(a, 0x3f800000, 0); }
static uint64_t r_mul_two64(uint64_t a, uint64_t b, uint64_t c) {
  return dmul_rn(a, 0x4000000000000000ull, 0);
}
static uint64_t r_mov_imm(uint64_t a, uint64_t b, uint64_t c) { return 0xbfc00000; }
static uint64_t r_fma_imm(uint64_t a, uint64_t b, uint64_t c) { return fma_rn(a, 0x40490fdb, 0xbf000000); }
static void test_float_immediates(void) {
  OpVec o = set32(), d = set64();
  op_check("add.f32 %f20, %f10, 0f3F800000" ST_F, r_add_one, op_eq_f32, M32, OV_ARGS(o));
  op_check("mul.f64 %fd20, %fd10, 0d4000000000000000" ST_FD, r_mul_two64, op_eq_f64, M64, OV_ARGS(d));
  op_check("mov.f32 %f20, 0fBFC00000" ST_F, r_mov_imm, NULL, M32, OV_ARGS(o));
  op_check("fma.rn.f32 %f20, %f10, 0f40490FDB, 0fBF000000" ST_F, r_fma_imm, op_eq_f32, M32, OV_ARGS(o));
  ov_free(&o);
  ov_free(&d);
}

int main(void) {
  TEST_RUN(test_f32_add_sub_mul_rounding);
  TEST_RUN(test_f32_fma_rounding);
  TEST_RUN(test_f64_rounding);
  TEST_RUN(test_div_rcp_sqrt_ieee);
  TEST_RUN(test_ftz);
  TEST_RUN(test_sat);
  TEST_RUN(test_abs_neg_min_max_copysign);
  TEST_RUN(test_copysign_direction);
  TEST_RUN(test_approx);
  TEST_RUN(test_approx_specials);
  TEST_RUN(test_ftz_misc);
  TEST_RUN(test_float_immediates);
  return TEST_DONE();
}
