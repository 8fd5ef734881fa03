/* t103_cvt.c - cvt between integer and floating-point types (PTX ISA 9.0, "cvt").
 *
 * Integer <-> integer: the source is sign-extended (signed source type) or
 *   zero-extended, then truncated to the destination width; with .sat the value
 *   is clamped to the destination range instead. Only the destination type's
 *   bits are compared when the register is wider than the type (.u8/.s8 in %rs).
 * Float -> integer: .rni/.rzi/.rmi/.rpi rounding, then saturation to the
 *   destination range (cvt float-to-int saturates by default), NaN -> 0.
 * Integer -> float: .rn/.rz/.rm/.rp, compared with the host FPU under fesetround.
 * Float <-> float: f32->f64 exact, f64->f32 rounded, .rni etc. to integral values
 *   in the same format, .ftz, .sat ([0,1], NaN -> 0). f16 conversions: a few
 *   hand-computed cases. */
#include "common/opkit.h"

#include <fenv.h>

TEST_GLOBALS;

#define M8 0xffull
#define M16 0xffffull
#define M32 0xffffffffull
#define M64 (~0ull)

static const uint64_t IV[] = {0,
                              1,
                              0x7f,
                              0x80,
                              0xff,
                              0x100,
                              0x7fff,
                              0x8000,
                              0xffff,
                              0x10000,
                              0x12345678,
                              0x7fffffff,
                              0x80000000,
                              0xffffff80,
                              0xffffffff,
                              0x100000000ull,
                              0x00000001ffffffffull,
                              0x123456789abcdef0ull,
                              0x7fffffffffffffffull,
                              0x8000000000000000ull,
                              0xffffffff80000000ull,
                              0xffffffffffffff80ull,
                              0xffffffffffffffffull,
                              0x0000000001000001ull,
                              0x0020000000000001ull,
                              0xfffffffffeffffffull};
#define NIV (int)(sizeof IV / 8)

static OpVec ints(void) {
  OpVec o = {0};
  uint64_t s = 42;
  for (int i = 0; i < NIV; i++) ov_add(&o, IV[i], 0, 0);
  for (int i = 0; i < 200; i++) {
    uint64_t r = ov_rand(&s);
    int sh = (int)(ov_rand(&s) % 64);
    ov_add(&o, r >> sh, 0, 0); /* values of every magnitude */
    ov_add(&o, (uint64_t)(-(int64_t)(r >> sh)), 0, 0);
  }
  return o;
}

/* ------------------------------------------------------------------ int <-> int */
static uint64_t ext(uint64_t v, int bits, int sgn) {
  if (bits == 64) return v;
  uint64_t m = (1ull << bits) - 1;
  v &= m;
  if (sgn && (v >> (bits - 1))) v |= ~m;
  return v;
}
/* clamp a (conceptually infinite-precision) value given as sign-extended source into [lo, hi] of dst */
static uint64_t sat_to(uint64_t v, int src_sgn, int dbits, int dsgn) {
  /* represent v as __int128 */
  __int128 x = src_sgn ? (__int128)(int64_t)v : (__int128)v;
  __int128 lo = dsgn ? -((__int128)1 << (dbits - 1)) : 0;
  __int128 hi = dsgn ? ((__int128)1 << (dbits - 1)) - 1 : ((__int128)1 << dbits) - 1;
  if (x < lo) x = lo;
  if (x > hi) x = hi;
  return (uint64_t)x;
}
#define I2I(name, sbits, ssgn, dbits)                                                                        \
  static uint64_t name(uint64_t a, uint64_t b, uint64_t c) {                                                 \
    uint64_t v = ext(a, sbits, ssgn);                                                                        \
    return dbits == 64 ? v : (v & ((1ull << (dbits == 64 ? 0 : dbits)) - 1));                                \
  }
#define I2ISAT(name, sbits, ssgn, dbits, dsgn)                                                               \
  static uint64_t name(uint64_t a, uint64_t b, uint64_t c) {                                                 \
    return sat_to(ext(a, sbits, ssgn), ssgn, dbits, dsgn);                                                   \
  }

I2I(s8_to_32, 8, 1, 32)
I2I(u8_to_32, 8, 0, 32)
I2I(s16_to_32, 16, 1, 32)
I2I(u16_to_32, 16, 0, 32)
I2I(s32_to_64, 32, 1, 64)
I2I(u32_to_64, 32, 0, 64)
I2I(s8_to_64, 8, 1, 64)
I2I(s16_to_64, 16, 1, 64)
I2I(u16_to_64, 16, 0, 64)
I2I(x64_to_32, 64, 0, 32)
I2I(x64_to_16, 64, 0, 16)
I2I(x32_to_16, 32, 0, 16)
I2I(x32_to_8, 32, 0, 8)
I2I(s8_to_16, 8, 1, 16)
I2I(u8_to_16, 8, 0, 16)
I2I(x16_to_8, 16, 0, 8)
I2ISAT(sat_s32_to_s8, 32, 1, 8, 1)
I2ISAT(sat_s32_to_u8, 32, 1, 8, 0)
I2ISAT(sat_u32_to_s8, 32, 0, 8, 1)
I2ISAT(sat_s32_to_u16, 32, 1, 16, 0)
I2ISAT(sat_s32_to_s16, 32, 1, 16, 1)
I2ISAT(sat_s32_to_u32, 32, 1, 32, 0)
I2ISAT(sat_u32_to_s32, 32, 0, 32, 1)
I2ISAT(sat_s64_to_s32, 64, 1, 32, 1)
I2ISAT(sat_s64_to_u32, 64, 1, 32, 0)
I2ISAT(sat_u64_to_s32, 64, 0, 32, 1)
I2ISAT(sat_u64_to_u32, 64, 0, 32, 0)
I2ISAT(sat_s64_to_u64, 64, 1, 64, 0)
I2ISAT(sat_u64_to_s64, 64, 0, 64, 1)
I2ISAT(sat_s16_to_u8, 16, 1, 8, 0)

static void test_int_widen(void) {
  OpVec o = ints();
  op_check("cvt.s32.s8 %r20, %r10" ST_R, s8_to_32, NULL, M32, OV_ARGS(o));
  op_check("cvt.u32.u8 %r20, %r10" ST_R, u8_to_32, NULL, M32, OV_ARGS(o));
  op_check("cvt.u32.s8 %r20, %r10" ST_R, s8_to_32, NULL, M32, OV_ARGS(o)); /* signed source: sign-extended */
  op_check("cvt.s32.u8 %r20, %r10" ST_R, u8_to_32, NULL, M32,
           OV_ARGS(o)); /* unsigned source: zero-extended */
  op_check("cvt.s32.s16 %r20, %rs10" ST_R, s16_to_32, NULL, M32, OV_ARGS(o));
  op_check("cvt.u32.u16 %r20, %rs10" ST_R, u16_to_32, NULL, M32, OV_ARGS(o));
  op_check("cvt.s32.s16 %r20, %r10" ST_R, s16_to_32, NULL, M32, OV_ARGS(o));
  op_check("cvt.s64.s32 %rd20, %r10" ST_RD, s32_to_64, NULL, M64, OV_ARGS(o));
  op_check("cvt.u64.u32 %rd20, %r10" ST_RD, u32_to_64, NULL, M64, OV_ARGS(o));
  op_check("cvt.u64.s32 %rd20, %r10" ST_RD, s32_to_64, NULL, M64, OV_ARGS(o));
  op_check("cvt.s64.u32 %rd20, %r10" ST_RD, u32_to_64, NULL, M64, OV_ARGS(o));
  op_check("cvt.s64.s8 %rd20, %rs10" ST_RD, s8_to_64, NULL, M64, OV_ARGS(o));
  op_check("cvt.s64.s16 %rd20, %rs10" ST_RD, s16_to_64, NULL, M64, OV_ARGS(o));
  op_check("cvt.u64.u16 %rd20, %rs10" ST_RD, u16_to_64, NULL, M64, OV_ARGS(o));
  op_check("cvt.s16.s8 %rs20, %rs10" ST_RS, s8_to_16, NULL, M16, OV_ARGS(o));
  op_check("cvt.u16.u8 %rs20, %rs10" ST_RS, u8_to_16, NULL, M16, OV_ARGS(o));
  ov_free(&o);
}

static void test_int_narrow(void) {
  OpVec o = ints();
  op_check("cvt.u32.u64 %r20, %rd10" ST_R, x64_to_32, NULL, M32, OV_ARGS(o));
  op_check("cvt.s32.s64 %r20, %rd10" ST_R, x64_to_32, NULL, M32, OV_ARGS(o));
  op_check("cvt.u16.u64 %rs20, %rd10" ST_RS, x64_to_16, NULL, M16, OV_ARGS(o));
  op_check("cvt.u16.u32 %rs20, %r10" ST_RS, x32_to_16, NULL, M16, OV_ARGS(o));
  op_check("cvt.s16.s32 %rs20, %r10" ST_RS, x32_to_16, NULL, M16, OV_ARGS(o));
  op_check("cvt.u8.u32 %rs20, %r10" ST_RS, x32_to_8, NULL, M8, OV_ARGS(o));
  op_check("cvt.s8.s32 %rs20, %r10" ST_RS, x32_to_8, NULL, M8, OV_ARGS(o));
  op_check("cvt.u8.u16 %rs20, %rs10" ST_RS, x16_to_8, NULL, M8, OV_ARGS(o));
  ov_free(&o);
}

static void test_int_sat(void) {
  OpVec o = ints();
  op_check("cvt.sat.s8.s32 %rs20, %r10" ST_RS, sat_s32_to_s8, NULL, M8, OV_ARGS(o));
  op_check("cvt.sat.u8.s32 %rs20, %r10" ST_RS, sat_s32_to_u8, NULL, M8, OV_ARGS(o));
  op_check("cvt.sat.s8.u32 %rs20, %r10" ST_RS, sat_u32_to_s8, NULL, M8, OV_ARGS(o));
  op_check("cvt.sat.u16.s32 %rs20, %r10" ST_RS, sat_s32_to_u16, NULL, M16, OV_ARGS(o));
  op_check("cvt.sat.s16.s32 %rs20, %r10" ST_RS, sat_s32_to_s16, NULL, M16, OV_ARGS(o));
  op_check("cvt.sat.u32.s32 %r20, %r10" ST_R, sat_s32_to_u32, NULL, M32, OV_ARGS(o));
  op_check("cvt.sat.s32.u32 %r20, %r10" ST_R, sat_u32_to_s32, NULL, M32, OV_ARGS(o));
  op_check("cvt.sat.s32.s64 %r20, %rd10" ST_R, sat_s64_to_s32, NULL, M32, OV_ARGS(o));
  op_check("cvt.sat.u32.s64 %r20, %rd10" ST_R, sat_s64_to_u32, NULL, M32, OV_ARGS(o));
  op_check("cvt.sat.s32.u64 %r20, %rd10" ST_R, sat_u64_to_s32, NULL, M32, OV_ARGS(o));
  op_check("cvt.sat.u32.u64 %r20, %rd10" ST_R, sat_u64_to_u32, NULL, M32, OV_ARGS(o));
  op_check("cvt.sat.u64.s64 %rd20, %rd10" ST_RD, sat_s64_to_u64, NULL, M64, OV_ARGS(o));
  op_check("cvt.sat.s64.u64 %rd20, %rd10" ST_RD, sat_u64_to_s64, NULL, M64, OV_ARGS(o));
  op_check("cvt.sat.u8.s16 %rs20, %rs10" ST_RS, sat_s16_to_u8, NULL, M8, OV_ARGS(o));
  ov_free(&o);
}

/* ------------------------------------------------------------------ float -> int */
enum { RNI, RZI, RMI, RPI };
static uint64_t f2i(double x, int mode, int bits, int sgn) {
  if (isnan(x)) return 0;
  double r = mode == RNI ? nearbyint(x) : mode == RZI ? trunc(x) : mode == RMI ? floor(x) : ceil(x);
  long double lo = sgn ? -ldexpl(1.0L, bits - 1) : 0.0L;
  long double hi = sgn ? ldexpl(1.0L, bits - 1) - 1.0L : ldexpl(1.0L, bits) - 1.0L;
  long double v = r;
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  uint64_t u;
  if (sgn)
    u = (uint64_t)(int64_t)v;
  else
    u = (uint64_t)v;
  return bits == 64 ? u : u & ((1ull << bits) - 1);
}
#define F2I(name, mode, bits, sgn)                                                                           \
  static uint64_t name(uint64_t a, uint64_t b, uint64_t c) {                                                 \
    return f2i((double)u2f((uint32_t)a), mode, bits, sgn);                                                   \
  }
#define D2I(name, mode, bits, sgn)                                                                           \
  static uint64_t name(uint64_t a, uint64_t b, uint64_t c) { return f2i(u2d(a), mode, bits, sgn); }
F2I(f_rni_s32, RNI, 32, 1)
F2I(f_rzi_s32, RZI, 32, 1)
F2I(f_rmi_s32, RMI, 32, 1)
F2I(f_rpi_s32, RPI, 32, 1)
F2I(f_rni_u32, RNI, 32, 0)
F2I(f_rzi_u32, RZI, 32, 0)
F2I(f_rmi_u32, RMI, 32, 0)
F2I(f_rpi_u32, RPI, 32, 0)
F2I(f_rzi_s64, RZI, 64, 1)
F2I(f_rni_u64, RNI, 64, 0)
F2I(f_rzi_s16, RZI, 16, 1)
F2I(f_rni_u16, RNI, 16, 0)
F2I(f_rzi_s8, RZI, 8, 1)
F2I(f_rzi_u8, RZI, 8, 0)
D2I(d_rni_s32, RNI, 32, 1)
D2I(d_rzi_s32, RZI, 32, 1)
D2I(d_rzi_u32, RZI, 32, 0)
D2I(d_rni_s64, RNI, 64, 1)
D2I(d_rzi_s64, RZI, 64, 1)
D2I(d_rmi_s64, RMI, 64, 1)
D2I(d_rpi_u64, RPI, 64, 0)
D2I(d_rzi_u64, RZI, 64, 0)

static const uint32_t FV[] = {
    0x00000000, 0x80000000, 0x3f000000, 0x3fc00000, 0x40200000, 0xbf000000, 0xbfc00000, 0xc0200000,
    0x3effffff, 0x501502f9, 0xd01502f9, 0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f7fffff,
    0x4f800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x000116c2, 0x406ccccd, 0xc06ccccd,
    0x437f8000, 0x43800000, 0xc3010000, 0x477fff80, 0x5effffff, 0x5f000000, 0xdf000000, 0x5f800000,
    0x40400000, 0x40a00000, 0xc0a00000, 0x3f800000, 0x42fe0000, 0x43000000, 0xc3000000, 0xc3008000,
    0x46fffe00, 0x47000000, 0xc7000100, 0x4b000001, 0x4b7fffff};
static const uint64_t DV[] = {0,
                              0x8000000000000000ull,
                              0x3fe0000000000000ull,
                              0x3ff8000000000000ull,
                              0x4004000000000000ull,
                              0xbfe0000000000000ull,
                              0xbff8000000000000ull,
                              0xc004000000000000ull,
                              0x41dfffffffc00000ull, /* 2147483647 */
                              0x41dfffffffe00000ull, /* 2147483647.5 */
                              0x41e0000000000000ull, /* 2^31 */
                              0xc1e0000000000000ull, /* -2^31 */
                              0xc1e0000000200000ull, /* -2^31 - 1 */
                              0x41efffffffe00000ull, /* 2^32 - 1 */
                              0x41f0000000000000ull, /* 2^32 */
                              0x43dfffffffffffffull, /* largest below 2^63 */
                              0x43e0000000000000ull, /* 2^63 */
                              0xc3e0000000000000ull, /* -2^63 */
                              0xc3e0000000000001ull,
                              0x43efffffffffffffull, /* largest below 2^64 */
                              0x43f0000000000000ull, /* 2^64 */
                              0x7ff0000000000000ull,
                              0xfff0000000000000ull,
                              0x7ff8000000000000ull,
                              0x0000000000000001ull,
                              0x4330000000000001ull,
                              0xc00d99999999999aull,
                              0x400d99999999999aull,
                              0x4415af1d78b58c40ull /* 1e20 */};

static OpVec fvals(void) {
  OpVec o = {0};
  uint64_t s = 7;
  for (unsigned i = 0; i < sizeof FV / 4; i++) ov_add(&o, FV[i], 0, 0);
  for (int i = 0; i < 150; i++) {
    /* random floats of magnitude 2^-2 .. 2^66, half of them with a .5 fraction */
    uint64_t r = ov_rand(&s);
    uint32_t e = 125 + (uint32_t)(r % 68);
    uint32_t f = (uint32_t)((r >> 32) & 0x80000000u) | (e << 23) | (uint32_t)((r >> 8) & 0x7fffff);
    if (i & 1) f = f2u(floorf(u2f(f)) + 0.5f);
    ov_add(&o, f, 0, 0);
  }
  return o;
}
static OpVec dvals(void) {
  OpVec o = {0};
  uint64_t s = 8;
  for (unsigned i = 0; i < sizeof DV / 8; i++) ov_add(&o, DV[i], 0, 0);
  for (int i = 0; i < 150; i++) {
    uint64_t r = ov_rand(&s);
    uint64_t e = 1021 + (r % 68);
    uint64_t d = (r & 0x8000000000000000ull) | (e << 52) | (ov_rand(&s) & 0xfffffffffffffull);
    if (i & 1) d = d2u(floor(u2d(d)) + 0.5);
    ov_add(&o, d, 0, 0);
  }
  return o;
}

static void test_float_to_int(void) {
  OpVec f = fvals(), d = dvals();
  op_check("cvt.rni.s32.f32 %r20, %f10" ST_R, f_rni_s32, NULL, M32, OV_ARGS(f));
  op_check("cvt.rzi.s32.f32 %r20, %f10" ST_R, f_rzi_s32, NULL, M32, OV_ARGS(f));
  op_check("cvt.rmi.s32.f32 %r20, %f10" ST_R, f_rmi_s32, NULL, M32, OV_ARGS(f));
  op_check("cvt.rpi.s32.f32 %r20, %f10" ST_R, f_rpi_s32, NULL, M32, OV_ARGS(f));
  op_check("cvt.rni.u32.f32 %r20, %f10" ST_R, f_rni_u32, NULL, M32, OV_ARGS(f));
  op_check("cvt.rzi.u32.f32 %r20, %f10" ST_R, f_rzi_u32, NULL, M32, OV_ARGS(f));
  op_check("cvt.rmi.u32.f32 %r20, %f10" ST_R, f_rmi_u32, NULL, M32, OV_ARGS(f));
  op_check("cvt.rpi.u32.f32 %r20, %f10" ST_R, f_rpi_u32, NULL, M32, OV_ARGS(f));
  op_check("cvt.rzi.ftz.s32.f32 %r20, %f10" ST_R, f_rzi_s32, NULL, M32, OV_ARGS(f));
  op_check("cvt.rzi.s64.f32 %rd20, %f10" ST_RD, f_rzi_s64, NULL, M64, OV_ARGS(f));
  op_check("cvt.rni.u64.f32 %rd20, %f10" ST_RD, f_rni_u64, NULL, M64, OV_ARGS(f));
  op_check("cvt.rzi.s16.f32 %rs20, %f10" ST_RS, f_rzi_s16, NULL, M16, OV_ARGS(f));
  op_check("cvt.rni.u16.f32 %rs20, %f10" ST_RS, f_rni_u16, NULL, M16, OV_ARGS(f));
  op_check("cvt.rzi.s8.f32 %rs20, %f10" ST_RS, f_rzi_s8, NULL, M8, OV_ARGS(f));
  op_check("cvt.rzi.u8.f32 %rs20, %f10" ST_RS, f_rzi_u8, NULL, M8, OV_ARGS(f));
  op_check("cvt.rni.s32.f64 %r20, %fd10" ST_R, d_rni_s32, NULL, M32, OV_ARGS(d));
  op_check("cvt.rzi.s32.f64 %r20, %fd10" ST_R, d_rzi_s32, NULL, M32, OV_ARGS(d));
  op_check("cvt.rzi.u32.f64 %r20, %fd10" ST_R, d_rzi_u32, NULL, M32, OV_ARGS(d));
  op_check("cvt.rni.s64.f64 %rd20, %fd10" ST_RD, d_rni_s64, NULL, M64, OV_ARGS(d));
  op_check("cvt.rzi.s64.f64 %rd20, %fd10" ST_RD, d_rzi_s64, NULL, M64, OV_ARGS(d));
  op_check("cvt.rmi.s64.f64 %rd20, %fd10" ST_RD, d_rmi_s64, NULL, M64, OV_ARGS(d));
  op_check("cvt.rpi.u64.f64 %rd20, %fd10" ST_RD, d_rpi_u64, NULL, M64, OV_ARGS(d));
  op_check("cvt.rzi.u64.f64 %rd20, %fd10" ST_RD, d_rzi_u64, NULL, M64, OV_ARGS(d));
  ov_free(&f);
  ov_free(&d);
}

/* hand-computed float->int cases (round half to even, saturation, NaN -> 0) */
static void test_float_to_int_hand(void) {
  uint64_t in[10][3] = {{0x40200000}, {0x40600000}, {0xc0200000}, {0x7fc00000}, {0x7f800000},
                        {0xff800000}, {0x4f000000}, {0xcf800000}, {0xbf400000}, {0x3f400000}};
  uint64_t out[10][2];
  /* 2.5 3.5 -2.5 NaN inf -inf 2^31 -2^32 -0.75 0.75 */
  if (op_run("cvt.rni.s32.f32 %r20, %f10;\n\tst.global.u32 [%rd30], %r20;\n\t"
             "cvt.rzi.u32.f32 %r21, %f10;\n\tst.global.u32 [%rd30+8], %r21;",
             (const uint64_t(*)[3])in, 10, out) == 0) {
    CHECK_EQ_U64(out[0][0], 2);
    CHECK_EQ_U64(out[1][0], 4);
    CHECK_EQ_U64(out[2][0], (uint32_t)-2);
    CHECK_EQ_U64(out[3][0], 0);
    CHECK_EQ_U64(out[4][0], 0x7fffffff);
    CHECK_EQ_U64(out[5][0], 0x80000000);
    CHECK_EQ_U64(out[6][0], 0x7fffffff);
    CHECK_EQ_U64(out[7][0], 0x80000000);
    CHECK_EQ_U64(out[8][0], (uint32_t)-1);
    CHECK_EQ_U64(out[9][0], 1);
    CHECK_EQ_U64(out[0][1], 2);
    CHECK_EQ_U64(out[2][1], 0); /* negative -> 0 for unsigned */
    CHECK_EQ_U64(out[3][1], 0);
    CHECK_EQ_U64(out[4][1], 0xffffffff);
    CHECK_EQ_U64(out[6][1], 0x80000000);
    CHECK_EQ_U64(out[8][1], 0);
  } else
    CHECK(0);
}

/* ------------------------------------------------------------------ int -> float */
static uint64_t i2f(uint64_t a, int sbits, int sgn, int mode, int dbl) {
  uint64_t v = ext(a, sbits, sgn);
  long double x = sgn ? (long double)(int64_t)v : (long double)v;
  volatile long double vx = x;
  volatile float rf = 0;
  volatile double rd = 0;
  fesetround(mode);
  if (dbl)
    rd = (double)vx;
  else
    rf = (float)vx;
  fesetround(FE_TONEAREST);
  return dbl ? d2u(rd) : f2u(rf);
}
#define I2F(name, sbits, sgn, mode, dbl)                                                                     \
  static uint64_t name(uint64_t a, uint64_t b, uint64_t c) { return i2f(a, sbits, sgn, mode, dbl); }
I2F(rn_f32_s32, 32, 1, FE_TONEAREST, 0)
I2F(rz_f32_s32, 32, 1, FE_TOWARDZERO, 0)
I2F(rm_f32_s32, 32, 1, FE_DOWNWARD, 0)
I2F(rp_f32_s32, 32, 1, FE_UPWARD, 0)
I2F(rn_f32_u32, 32, 0, FE_TONEAREST, 0)
I2F(rz_f32_u32, 32, 0, FE_TOWARDZERO, 0)
I2F(rn_f32_s64, 64, 1, FE_TONEAREST, 0)
I2F(rm_f32_s64, 64, 1, FE_DOWNWARD, 0)
I2F(rn_f32_u64, 64, 0, FE_TONEAREST, 0)
I2F(rp_f32_u64, 64, 0, FE_UPWARD, 0)
I2F(rn_f32_s16, 16, 1, FE_TONEAREST, 0)
I2F(rn_f32_u16, 16, 0, FE_TONEAREST, 0)
I2F(rn_f32_s8, 8, 1, FE_TONEAREST, 0)
I2F(rn_f64_s32, 32, 1, FE_TONEAREST, 1)
I2F(rn_f64_u32, 32, 0, FE_TONEAREST, 1)
I2F(rn_f64_s64, 64, 1, FE_TONEAREST, 1)
I2F(rz_f64_s64, 64, 1, FE_TOWARDZERO, 1)
I2F(rn_f64_u64, 64, 0, FE_TONEAREST, 1)
I2F(rm_f64_u64, 64, 0, FE_DOWNWARD, 1)
I2F(rp_f64_s64, 64, 1, FE_UPWARD, 1)

static void test_int_to_float(void) {
  OpVec o = ints();
  op_check("cvt.rn.f32.s32 %f20, %r10" ST_F, rn_f32_s32, NULL, M32, OV_ARGS(o));
  op_check("cvt.rz.f32.s32 %f20, %r10" ST_F, rz_f32_s32, NULL, M32, OV_ARGS(o));
  op_check("cvt.rm.f32.s32 %f20, %r10" ST_F, rm_f32_s32, NULL, M32, OV_ARGS(o));
  op_check("cvt.rp.f32.s32 %f20, %r10" ST_F, rp_f32_s32, NULL, M32, OV_ARGS(o));
  op_check("cvt.rn.f32.u32 %f20, %r10" ST_F, rn_f32_u32, NULL, M32, OV_ARGS(o));
  op_check("cvt.rz.f32.u32 %f20, %r10" ST_F, rz_f32_u32, NULL, M32, OV_ARGS(o));
  op_check("cvt.rn.f32.s64 %f20, %rd10" ST_F, rn_f32_s64, NULL, M32, OV_ARGS(o));
  op_check("cvt.rm.f32.s64 %f20, %rd10" ST_F, rm_f32_s64, NULL, M32, OV_ARGS(o));
  op_check("cvt.rn.f32.u64 %f20, %rd10" ST_F, rn_f32_u64, NULL, M32, OV_ARGS(o));
  op_check("cvt.rp.f32.u64 %f20, %rd10" ST_F, rp_f32_u64, NULL, M32, OV_ARGS(o));
  op_check("cvt.rn.f32.s16 %f20, %rs10" ST_F, rn_f32_s16, NULL, M32, OV_ARGS(o));
  op_check("cvt.rn.f32.u16 %f20, %rs10" ST_F, rn_f32_u16, NULL, M32, OV_ARGS(o));
  op_check("cvt.rn.f32.s8 %f20, %rs10" ST_F, rn_f32_s8, NULL, M32, OV_ARGS(o));
  op_check("cvt.rn.f64.s32 %fd20, %r10" ST_FD, rn_f64_s32, NULL, M64, OV_ARGS(o));
  op_check("cvt.rn.f64.u32 %fd20, %r10" ST_FD, rn_f64_u32, NULL, M64, OV_ARGS(o));
  op_check("cvt.rn.f64.s64 %fd20, %rd10" ST_FD, rn_f64_s64, NULL, M64, OV_ARGS(o));
  op_check("cvt.rz.f64.s64 %fd20, %rd10" ST_FD, rz_f64_s64, NULL, M64, OV_ARGS(o));
  op_check("cvt.rn.f64.u64 %fd20, %rd10" ST_FD, rn_f64_u64, NULL, M64, OV_ARGS(o));
  op_check("cvt.rm.f64.u64 %fd20, %rd10" ST_FD, rm_f64_u64, NULL, M64, OV_ARGS(o));
  op_check("cvt.rp.f64.s64 %fd20, %rd10" ST_FD, rp_f64_s64, NULL, M64, OV_ARGS(o));
  ov_free(&o);
}

/* hand-computed: 16777217 -> 16777216 (rn, tie to even) / 16777218 (rp); -16777217 rm -> -16777218 */
static void test_int_to_float_hand(void) {
  uint64_t in[3][3] = {{16777217}, {(uint32_t)-16777217}, {16777219}};
  uint64_t out[3][2];
  if (op_run("cvt.rn.f32.s32 %f20, %r10;\n\tst.global.f32 [%rd30], %f20;\n\t"
             "cvt.rp.f32.s32 %f21, %r10;\n\tst.global.f32 [%rd30+8], %f21;",
             (const uint64_t(*)[3])in, 3, out) == 0) {
    CHECK_EQ_U64(out[0][0], f2u(16777216.0f));
    CHECK_EQ_U64(out[0][1], f2u(16777218.0f));
    CHECK_EQ_U64(out[1][0], f2u(-16777216.0f));
    CHECK_EQ_U64(out[1][1], f2u(-16777216.0f));
    CHECK_EQ_U64(out[2][0], f2u(16777220.0f)); /* tie -> even mantissa */
    CHECK_EQ_U64(out[2][1], f2u(16777220.0f));
  } else
    CHECK(0);
}

/* ------------------------------------------------------------------ float <-> float */
static uint64_t r_f32_to_f64(uint64_t a, uint64_t b, uint64_t c) { return d2u((double)u2f((uint32_t)a)); }
static uint64_t r_f32_to_f64_ftz(uint64_t a, uint64_t b, uint64_t c) {
  float x = u2f((uint32_t)a);
  if (fpclassify(x) == FP_SUBNORMAL) x = copysignf(0.0f, x);
  return d2u((double)x);
}
static uint64_t d2f(uint64_t a, int mode, int ftz, int sat) {
  volatile double vx = u2d(a);
  volatile float r = 0;
  fesetround(mode);
  r = (float)vx;
  fesetround(FE_TONEAREST);
  float x = r;
  if (ftz && fpclassify(x) == FP_SUBNORMAL) x = copysignf(0.0f, x);
  if (sat) x = isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
  return f2u(x);
}
static uint64_t r_d2f_rn(uint64_t a, uint64_t b, uint64_t c) { return d2f(a, FE_TONEAREST, 0, 0); }
static uint64_t r_d2f_rz(uint64_t a, uint64_t b, uint64_t c) { return d2f(a, FE_TOWARDZERO, 0, 0); }
static uint64_t r_d2f_rm(uint64_t a, uint64_t b, uint64_t c) { return d2f(a, FE_DOWNWARD, 0, 0); }
static uint64_t r_d2f_rp(uint64_t a, uint64_t b, uint64_t c) { return d2f(a, FE_UPWARD, 0, 0); }
static uint64_t r_d2f_rn_ftz(uint64_t a, uint64_t b, uint64_t c) { return d2f(a, FE_TONEAREST, 1, 0); }
static uint64_t r_d2f_rn_sat(uint64_t a, uint64_t b, uint64_t c) { return d2f(a, FE_TONEAREST, 0, 1); }

static uint64_t r_f_rni(uint64_t a, uint64_t b, uint64_t c) { return f2u(nearbyintf(u2f((uint32_t)a))); }
static uint64_t r_f_rzi(uint64_t a, uint64_t b, uint64_t c) { return f2u(truncf(u2f((uint32_t)a))); }
static uint64_t r_f_rmi(uint64_t a, uint64_t b, uint64_t c) { return f2u(floorf(u2f((uint32_t)a))); }
static uint64_t r_f_rpi(uint64_t a, uint64_t b, uint64_t c) { return f2u(ceilf(u2f((uint32_t)a))); }
static uint64_t r_d_rni(uint64_t a, uint64_t b, uint64_t c) { return d2u(nearbyint(u2d(a))); }
static uint64_t r_d_rzi(uint64_t a, uint64_t b, uint64_t c) { return d2u(trunc(u2d(a))); }
static uint64_t r_d_rmi(uint64_t a, uint64_t b, uint64_t c) { return d2u(floor(u2d(a))); }
static uint64_t r_d_rpi(uint64_t a, uint64_t b, uint64_t c) { return d2u(ceil(u2d(a))); }
static uint64_t r_f_sat(uint64_t a, uint64_t b, uint64_t c) {
  float x = u2f((uint32_t)a);
  x = isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
  return f2u(x);
}

static void test_float_to_float(void) {
  OpVec f = fvals(), d = dvals();
  /* extra f64 values near the f32 range limits */
  static const uint64_t lim[] = {0x47efffffe0000000ull, 0x47efffffefffffffull, 0x47effffff0000000ull,
                                 0x47f0000000000000ull, 0x3810000000000000ull, 0x380fffffffffffffull,
                                 0x36a0000000000000ull, 0x3690000000000000ull, 0x3690000000000001ull,
                                 0xb690000000000001ull, 0x3fd5555555555555ull, 0xbfd5555555555555ull,
                                 0x3ff0000010000000ull, 0x3ff0000030000000ull, 0x3ff0000010000001ull};
  for (unsigned i = 0; i < sizeof lim / 8; i++) ov_add(&d, lim[i], 0, 0);
  for (unsigned i = 0; i < sizeof FV / 4; i++) ov_add(&d, d2u((double)u2f(FV[i])), 0, 0);
  ov_add(&f, 0x00000001, 0, 0);
  ov_add(&f, 0x807fffff, 0, 0);
  op_check("cvt.f64.f32 %fd20, %f10" ST_FD, r_f32_to_f64, op_eq_f64, M64, OV_ARGS(f));
  op_check("cvt.ftz.f64.f32 %fd20, %f10" ST_FD, r_f32_to_f64_ftz, op_eq_f64, M64, OV_ARGS(f));
  op_check("cvt.rn.f32.f64 %f20, %fd10" ST_F, r_d2f_rn, op_eq_f32, M32, OV_ARGS(d));
  op_check("cvt.rz.f32.f64 %f20, %fd10" ST_F, r_d2f_rz, op_eq_f32, M32, OV_ARGS(d));
  op_check("cvt.rm.f32.f64 %f20, %fd10" ST_F, r_d2f_rm, op_eq_f32, M32, OV_ARGS(d));
  op_check("cvt.rp.f32.f64 %f20, %fd10" ST_F, r_d2f_rp, op_eq_f32, M32, OV_ARGS(d));
  op_check("cvt.rn.ftz.f32.f64 %f20, %fd10" ST_F, r_d2f_rn_ftz, op_eq_f32, M32, OV_ARGS(d));
  op_check("cvt.rn.sat.f32.f64 %f20, %fd10" ST_F, r_d2f_rn_sat, op_eq_f32_anyzero, M32, OV_ARGS(d));
  op_check("cvt.rni.f32.f32 %f20, %f10" ST_F, r_f_rni, op_eq_f32, M32, OV_ARGS(f));
  op_check("cvt.rzi.f32.f32 %f20, %f10" ST_F, r_f_rzi, op_eq_f32, M32, OV_ARGS(f));
  op_check("cvt.rmi.f32.f32 %f20, %f10" ST_F, r_f_rmi, op_eq_f32, M32, OV_ARGS(f));
  op_check("cvt.rpi.f32.f32 %f20, %f10" ST_F, r_f_rpi, op_eq_f32, M32, OV_ARGS(f));
  op_check("cvt.rni.f64.f64 %fd20, %fd10" ST_FD, r_d_rni, op_eq_f64, M64, OV_ARGS(d));
  op_check("cvt.rzi.f64.f64 %fd20, %fd10" ST_FD, r_d_rzi, op_eq_f64, M64, OV_ARGS(d));
  op_check("cvt.rmi.f64.f64 %fd20, %fd10" ST_FD, r_d_rmi, op_eq_f64, M64, OV_ARGS(d));
  op_check("cvt.rpi.f64.f64 %fd20, %fd10" ST_FD, r_d_rpi, op_eq_f64, M64, OV_ARGS(d));
  op_check("cvt.sat.f32.f32 %f20, %f10" ST_F, r_f_sat, op_eq_f32_anyzero, M32, OV_ARGS(f));
  ov_free(&f);
  ov_free(&d);
}

/* ------------------------------------------------------------------ f16 (hand-computed) */
static void test_f16(void) {
  static const struct {
    uint32_t f;
    uint16_t h;
  } to16[] = {
      {0x3f800000, 0x3c00}, /* 1.0 */
      {0xc0000000, 0xc000}, /* -2.0 */
      {0x477fe000, 0x7bff}, /* 65504 = max half */
      {0x477ff000, 0x7c00}, /* 65520 rounds to inf */
      {0x322bcc77, 0x0000}, /* 1e-8 underflows to +0 */
      {0x3380d959, 0x0001}, /* 6e-8 -> smallest subnormal */
      {0x3dcccccd, 0x2e66}, /* 0.1 */
      {0x3eaaaaab, 0x3555}, /* 1/3 */
      {0x7f800000, 0x7c00}, /* inf */
      {0xff800000, 0xfc00}, /* -inf */
      {0x45001000, 0x6800}, /* 2049 -> 2048 (tie to even) */
      {0x45003000, 0x6802}, /* 2051 -> 2052 (tie to even) */
      {0x80000000, 0x8000}, /* -0 */
  };
  int n = (int)(sizeof to16 / sizeof to16[0]);
  uint64_t in[16][3], out[16][2];
  memset(in, 0, sizeof in);
  for (int i = 0; i < n; i++) in[i][0] = to16[i].f;
  in[n][0] = 0x7fc00000; /* NaN */
  if (op_run("cvt.rn.f16.f32 %rs20, %f10" ST_RS, (const uint64_t(*)[3])in, n + 1, out) == 0) {
    for (int i = 0; i < n; i++) {
      if (out[i][0] != to16[i].h) {
        fprintf(stderr, "  cvt.rn.f16.f32 0x%08x: got 0x%04x expected 0x%04x\n", to16[i].f,
                (unsigned)out[i][0], to16[i].h);
        test_failures_++;
      }
    }
    CHECK((out[n][0] & 0x7c00) == 0x7c00 && (out[n][0] & 0x03ff) != 0); /* NaN */
  } else
    CHECK(0);

  static const struct {
    uint16_t h;
    uint32_t f;
  } to32[] = {{0x3c00, 0x3f800000}, {0x0001, 0x33800000}, {0x7bff, 0x477fe000}, {0xfc00, 0xff800000},
              {0x8000, 0x80000000}, {0x3555, 0x3eaaa000}, {0x03ff, 0x387fc000}, {0xc500, 0xc0a00000}};
  n = (int)(sizeof to32 / sizeof to32[0]);
  memset(in, 0, sizeof in);
  for (int i = 0; i < n; i++) in[i][0] = to32[i].h;
  in[n][0] = 0x7e00;
  if (op_run("cvt.f32.f16 %f20, %rs10" ST_F, (const uint64_t(*)[3])in, n + 1, out) == 0) {
    for (int i = 0; i < n; i++) {
      if (out[i][0] != to32[i].f) {
        fprintf(stderr, "  cvt.f32.f16 0x%04x: got 0x%08x expected 0x%08x\n", to32[i].h, (unsigned)out[i][0],
                to32[i].f);
        test_failures_++;
      }
    }
    CHECK(isnan(u2f((uint32_t)out[n][0])));
  } else
    CHECK(0);
}

int main(void) {
  TEST_RUN(test_int_widen);
  TEST_RUN(test_int_narrow);
  TEST_RUN(test_int_sat);
  TEST_RUN(test_float_to_int);
  TEST_RUN(test_float_to_int_hand);
  TEST_RUN(test_int_to_float);
  TEST_RUN(test_int_to_float_hand);
  TEST_RUN(test_float_to_float);
  TEST_RUN(test_f16);
  return TEST_DONE();
}
