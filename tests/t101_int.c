/* t101_int.c - integer ALU instructions against the PTX ISA 9.0 semantics.
 *
 * Each check runs one instruction (or a short sequence) over a table of input
 * triples, one thread per triple (tests/common/opkit.h), and compares with a C
 * reference written from the instruction's "Semantics" section of the PTX ISA.
 * Signed arithmetic in the references goes through unsigned types (wraps, no UB). */
#include "common/opkit.h"

TEST_GLOBALS;

#define REF(name, expr)                                                                                      \
  static uint64_t name(uint64_t a, uint64_t b, uint64_t c) {                                                 \
    (void)a;                                                                                                 \
    (void)b;                                                                                                 \
    (void)c;                                                                                                 \
    return (uint64_t)(expr);                                                                                 \
  }

#define U32(x) ((uint32_t)(x))
#define S32(x) ((int32_t)(uint32_t)(x))
#define U16(x) ((uint16_t)(x))
#define S16(x) ((int16_t)(uint16_t)(x))
#define S64(x) ((int64_t)(x))
#define M16 0xffffull
#define M32 0xffffffffull
#define M64 (~0ull)

static const uint32_t V32[] = {0,          1,          2,          3,          7,          0x7f,
                               0x80,       0xff,       0x7fff,     0x8000,     0xffff,     0x10000,
                               0x12345678, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xdeadbeef,
                               0xfffffff9, 0xfffffffe, 0xffffffff, 1000000,    46341,      0xaaaaaaaa};
#define NV32 (int)(sizeof V32 / sizeof V32[0])
static const uint64_t V64[] = {0,
                               1,
                               2,
                               0xff,
                               0xffffffffull,
                               0x100000000ull,
                               0x123456789abcdef0ull,
                               0x7fffffffffffffffull,
                               0x8000000000000000ull,
                               0x8000000000000001ull,
                               0xfedcba9876543210ull,
                               0xfffffffffffffffeull,
                               0xffffffffffffffffull,
                               0x00000000deadbeefull,
                               0xffffffff00000000ull,
                               3037000500ull,
                               0xfffffffffffffff9ull};
#define NV64 (int)(sizeof V64 / sizeof V64[0])

/* all pairs of V32 (c cycles through V32) */
static OpVec pairs32(void) {
  OpVec o = {0};
  int k = 0;
  for (int i = 0; i < NV32; i++)
    for (int j = 0; j < NV32; j++) ov_add(&o, V32[i], V32[j], V32[(k++ * 7) % NV32]);
  return o;
}
static OpVec pairs64(void) {
  OpVec o = {0};
  int k = 0;
  for (int i = 0; i < NV64; i++)
    for (int j = 0; j < NV64; j++) ov_add(&o, V64[i], V64[j], V64[(k++ * 5) % NV64]);
  return o;
}

/* ------------------------------------------------------------------ add/sub/mul/mad */
REF(r_add32, U32(a) + U32(b))
REF(r_sub32, U32(a) - U32(b))
REF(r_add64, a + b)
REF(r_sub64, a - b)
REF(r_add16, U16(U16(a) + U16(b)))
REF(r_sub16, U16(U16(a) - U16(b)))
static int64_t clamp_s32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v; }
REF(r_addsat, U32(clamp_s32((int64_t)S32(a) + S32(b))))
REF(r_subsat, U32(clamp_s32((int64_t)S32(a) - S32(b))))

static void test_add_sub(void) {
  OpVec p = pairs32(), q = pairs64();
  op_check("add.s32 %r20, %r10, %r11" ST_R, r_add32, NULL, M32, OV_ARGS(p));
  op_check("add.u32 %r20, %r10, %r11" ST_R, r_add32, NULL, M32, OV_ARGS(p));
  op_check("sub.s32 %r20, %r10, %r11" ST_R, r_sub32, NULL, M32, OV_ARGS(p));
  op_check("sub.u32 %r20, %r10, %r11" ST_R, r_sub32, NULL, M32, OV_ARGS(p));
  op_check("add.s64 %rd20, %rd10, %rd11" ST_RD, r_add64, NULL, M64, OV_ARGS(q));
  op_check("add.u64 %rd20, %rd10, %rd11" ST_RD, r_add64, NULL, M64, OV_ARGS(q));
  op_check("sub.s64 %rd20, %rd10, %rd11" ST_RD, r_sub64, NULL, M64, OV_ARGS(q));
  op_check("sub.u64 %rd20, %rd10, %rd11" ST_RD, r_sub64, NULL, M64, OV_ARGS(q));
  op_check("add.s16 %rs20, %rs10, %rs11" ST_RS, r_add16, NULL, M16, OV_ARGS(p));
  op_check("add.u16 %rs20, %rs10, %rs11" ST_RS, r_add16, NULL, M16, OV_ARGS(p));
  op_check("sub.s16 %rs20, %rs10, %rs11" ST_RS, r_sub16, NULL, M16, OV_ARGS(p));
  /* .sat: result clamped to MININT..MAXINT (only .s32) */
  op_check("add.sat.s32 %r20, %r10, %r11" ST_R, r_addsat, NULL, M32, OV_ARGS(p));
  op_check("sub.sat.s32 %r20, %r10, %r11" ST_R, r_subsat, NULL, M32, OV_ARGS(p));
  ov_free(&p);
  ov_free(&q);
}

/* add.cc / addc / sub.cc / subc: carry chain through CC.CF (not emitted by nvcc -O3 for the
 * suite's kernels, but part of PTX ISA 9.0). */
REF(r_addc_lo, U32(a) + U32(b))
REF(r_addc_hi, U32(c) + U32(((uint64_t)U32(a) + U32(b)) >> 32))
REF(r_subc_hi, U32(U32(c) - (U32(a) < U32(b) ? 1u : 0u)))
static void test_carry(void) {
  OpVec p = pairs32();
  op_check("add.cc.u32 %r20, %r10, %r11;\n\taddc.u32 %r21, %r12, 0" ST_R, r_addc_lo, NULL, M32, OV_ARGS(p));
  op_check_word("add.cc.u32 %r20, %r10, %r11;\n\taddc.u32 %r21, %r12, 0;\n\tst.global.u32 [%rd30+8], %r21;",
                r_addc_hi, NULL, M32, 1, OV_ARGS(p));
  op_check_word("sub.cc.u32 %r20, %r10, %r11;\n\tsubc.u32 %r21, %r12, 0;\n\tst.global.u32 [%rd30+8], %r21;",
                r_subc_hi, NULL, M32, 1, OV_ARGS(p));
  ov_free(&p);
}

REF(r_mullo32, U32(a) * U32(b))
REF(r_mulhi_u32, ((uint64_t)U32(a) * U32(b)) >> 32)
REF(r_mulhi_s32, U32((uint64_t)((int64_t)S32(a) * S32(b)) >> 32))
REF(r_mulwide_u32, (uint64_t)U32(a) * U32(b))
REF(r_mulwide_s32, (uint64_t)((int64_t)S32(a) * S32(b)))
REF(r_mullo64, a *b)
REF(r_mulhi_u64, (uint64_t)(((unsigned __int128)a * b) >> 64))
REF(r_mulhi_s64, (uint64_t)((unsigned __int128)((__int128)S64(a) * S64(b)) >> 64))
REF(r_mullo16, U16(U16(a) * U16(b)))
REF(r_mulhi_u16, U16(((uint32_t)U16(a) * U16(b)) >> 16))
REF(r_mulhi_s16, U16((uint32_t)((int32_t)S16(a) * S16(b)) >> 16))
REF(r_mulwide_u16, (uint32_t)U16(a) * U16(b))
REF(r_mulwide_s16, U32((int32_t)S16(a) * S16(b)))
REF(r_madlo32, U32(a) * U32(b) + U32(c))
REF(r_madhi_u32, U32((((uint64_t)U32(a) * U32(b)) >> 32) + U32(c)))
REF(r_madhi_s32, U32(((uint64_t)((int64_t)S32(a) * S32(b)) >> 32) + U32(c)))
REF(r_madwide_u32, (uint64_t)U32(a) * U32(b) + c)
REF(r_madwide_s32, (uint64_t)((int64_t)S32(a) * S32(b)) + c)
REF(r_madlo64, a *b + c)

static void test_mul_mad(void) {
  OpVec p = pairs32(), q = pairs64();
  op_check("mul.lo.s32 %r20, %r10, %r11" ST_R, r_mullo32, NULL, M32, OV_ARGS(p));
  op_check("mul.lo.u32 %r20, %r10, %r11" ST_R, r_mullo32, NULL, M32, OV_ARGS(p));
  op_check("mul.hi.u32 %r20, %r10, %r11" ST_R, r_mulhi_u32, NULL, M32, OV_ARGS(p));
  op_check("mul.hi.s32 %r20, %r10, %r11" ST_R, r_mulhi_s32, NULL, M32, OV_ARGS(p));
  op_check("mul.wide.u32 %rd20, %r10, %r11" ST_RD, r_mulwide_u32, NULL, M64, OV_ARGS(p));
  op_check("mul.wide.s32 %rd20, %r10, %r11" ST_RD, r_mulwide_s32, NULL, M64, OV_ARGS(p));
  op_check("mul.lo.u64 %rd20, %rd10, %rd11" ST_RD, r_mullo64, NULL, M64, OV_ARGS(q));
  op_check("mul.lo.s64 %rd20, %rd10, %rd11" ST_RD, r_mullo64, NULL, M64, OV_ARGS(q));
  op_check("mul.hi.u64 %rd20, %rd10, %rd11" ST_RD, r_mulhi_u64, NULL, M64, OV_ARGS(q));
  op_check("mul.hi.s64 %rd20, %rd10, %rd11" ST_RD, r_mulhi_s64, NULL, M64, OV_ARGS(q));
  op_check("mul.lo.s16 %rs20, %rs10, %rs11" ST_RS, r_mullo16, NULL, M16, OV_ARGS(p));
  op_check("mul.hi.u16 %rs20, %rs10, %rs11" ST_RS, r_mulhi_u16, NULL, M16, OV_ARGS(p));
  op_check("mul.hi.s16 %rs20, %rs10, %rs11" ST_RS, r_mulhi_s16, NULL, M16, OV_ARGS(p));
  op_check("mul.wide.u16 %r20, %rs10, %rs11" ST_R, r_mulwide_u16, NULL, M32, OV_ARGS(p));
  op_check("mul.wide.s16 %r20, %rs10, %rs11" ST_R, r_mulwide_s16, NULL, M32, OV_ARGS(p));
  op_check("mad.lo.s32 %r20, %r10, %r11, %r12" ST_R, r_madlo32, NULL, M32, OV_ARGS(p));
  op_check("mad.lo.u32 %r20, %r10, %r11, %r12" ST_R, r_madlo32, NULL, M32, OV_ARGS(p));
  op_check("mad.hi.u32 %r20, %r10, %r11, %r12" ST_R, r_madhi_u32, NULL, M32, OV_ARGS(p));
  op_check("mad.hi.s32 %r20, %r10, %r11, %r12" ST_R, r_madhi_s32, NULL, M32, OV_ARGS(p));
  op_check("mad.wide.u32 %rd20, %r10, %r11, %rd12" ST_RD, r_madwide_u32, NULL, M64, OV_ARGS(p));
  op_check("mad.wide.s32 %rd20, %r10, %r11, %rd12" ST_RD, r_madwide_s32, NULL, M64, OV_ARGS(p));
  op_check("mad.lo.s64 %rd20, %rd10, %rd11, %rd12" ST_RD, r_madlo64, NULL, M64, OV_ARGS(q));
  op_check("mad.lo.u64 %rd20, %rd10, %rd11, %rd12" ST_RD, r_madlo64, NULL, M64, OV_ARGS(q));
  ov_free(&p);
  ov_free(&q);
}

/* mul24: product of the low 24 bits (sign-extended for .s32); .lo = t<31..0>, .hi = t<47..16>.
 * Inputs restricted to 24-bit values, where the semantics are unambiguous. */
static int64_t sx24(uint64_t v) { return (int64_t)((int32_t)((uint32_t)v << 8) >> 8); }
REF(r_mul24lo_u, U32((uint64_t)(U32(a) & 0xffffff) * (U32(b) & 0xffffff)))
REF(r_mul24hi_u, U32(((uint64_t)(U32(a) & 0xffffff) * (U32(b) & 0xffffff)) >> 16))
REF(r_mul24lo_s, U32((uint64_t)(sx24(a) * sx24(b))))
REF(r_mul24hi_s, U32((uint64_t)(sx24(a) * sx24(b)) >> 16))
static void test_mul24(void) {
  static const uint32_t u24[] = {0, 1, 3, 0xff, 0x1234, 0x7fffff, 0x800000, 0xabcdef, 0xffffff};
  static const int32_t s24[] = {0, 1, -1, 3, -3, 0x1234, -0x1234, 8388607, -8388608, 0x345678, -0x345678};
  OpVec u = {0}, s = {0};
  for (unsigned i = 0; i < sizeof u24 / 4; i++)
    for (unsigned j = 0; j < sizeof u24 / 4; j++) ov_add(&u, u24[i], u24[j], 0);
  for (unsigned i = 0; i < sizeof s24 / 4; i++)
    for (unsigned j = 0; j < sizeof s24 / 4; j++) ov_add(&s, (uint32_t)s24[i], (uint32_t)s24[j], 0);
  op_check("mul24.lo.u32 %r20, %r10, %r11" ST_R, r_mul24lo_u, NULL, M32, OV_ARGS(u));
  op_check("mul24.hi.u32 %r20, %r10, %r11" ST_R, r_mul24hi_u, NULL, M32, OV_ARGS(u));
  op_check("mul24.lo.s32 %r20, %r10, %r11" ST_R, r_mul24lo_s, NULL, M32, OV_ARGS(s));
  op_check("mul24.hi.s32 %r20, %r10, %r11" ST_R, r_mul24hi_s, NULL, M32, OV_ARGS(s));
  ov_free(&u);
  ov_free(&s);
}

/* ------------------------------------------------------------------ div/rem */
REF(r_div_u32, U32(a) / U32(b))
REF(r_rem_u32, U32(a) % U32(b))
REF(r_div_s32, U32(S32(a) / S32(b)))
REF(r_rem_s32, U32(S32(a) % S32(b)))
REF(r_div_u64, a / b)
REF(r_rem_u64, a % b)
REF(r_div_s64, (uint64_t)(S64(a) / S64(b)))
REF(r_rem_s64, (uint64_t)(S64(a) % S64(b)))
REF(r_div_u16, U16(a) / U16(b))
REF(r_rem_s16, U16(S16(a) % S16(b)))

static void test_div_rem(void) {
  OpVec p = {0}, q = {0}, h = {0};
  int k = 0;
  for (int i = 0; i < NV32; i++)
    for (int j = 0; j < NV32; j++) {
      uint32_t a = V32[i], b = V32[j];
      if (b == 0 || (a == 0x80000000u && b == 0xffffffffu)) continue;
      ov_add(&p, a, b, 0);
      if ((uint16_t)b != 0 && !((uint16_t)a == 0x8000 && (uint16_t)b == 0xffff)) ov_add(&h, a, b, 0);
    }
  for (int i = 0; i < NV64; i++)
    for (int j = 0; j < NV64; j++) {
      uint64_t a = V64[i], b = V64[j];
      if (b == 0 || (a == 0x8000000000000000ull && b == ~0ull)) continue;
      ov_add(&q, a, b, (uint64_t)k++);
    }
  /* truncating division; remainder has the sign of the dividend (C semantics) */
  ov_add(&p, (uint32_t)-7, 2, 0);
  ov_add(&p, 7, (uint32_t)-2, 0);
  ov_add(&p, (uint32_t)-7, (uint32_t)-2, 0);
  op_check("div.u32 %r20, %r10, %r11" ST_R, r_div_u32, NULL, M32, OV_ARGS(p));
  op_check("rem.u32 %r20, %r10, %r11" ST_R, r_rem_u32, NULL, M32, OV_ARGS(p));
  op_check("div.s32 %r20, %r10, %r11" ST_R, r_div_s32, NULL, M32, OV_ARGS(p));
  op_check("rem.s32 %r20, %r10, %r11" ST_R, r_rem_s32, NULL, M32, OV_ARGS(p));
  op_check("div.u64 %rd20, %rd10, %rd11" ST_RD, r_div_u64, NULL, M64, OV_ARGS(q));
  op_check("rem.u64 %rd20, %rd10, %rd11" ST_RD, r_rem_u64, NULL, M64, OV_ARGS(q));
  op_check("div.s64 %rd20, %rd10, %rd11" ST_RD, r_div_s64, NULL, M64, OV_ARGS(q));
  op_check("rem.s64 %rd20, %rd10, %rd11" ST_RD, r_rem_s64, NULL, M64, OV_ARGS(q));
  op_check("div.u16 %rs20, %rs10, %rs11" ST_RS, r_div_u16, NULL, M16, OV_ARGS(h));
  op_check("rem.s16 %rs20, %rs10, %rs11" ST_RS, r_rem_s16, NULL, M16, OV_ARGS(h));
  ov_free(&p);
  ov_free(&q);
  ov_free(&h);
}

/* Division by zero and INT_MIN / -1: the PTX ISA says "division by zero yields an unspecified,
 * machine-specific value". The simulator must not crash (no host SIGFPE); it may either complete
 * the launch (any value) or report WS_ERROR_LAUNCH_FAILED with a message. When it completes, the
 * instruction after the division must still run (marker word). */
static void div_edge(const char *body, uint64_t a, uint64_t b) {
  uint64_t in[1][3] = {{a, b, 0}}, out[1][2] = {{0, 0}};
  char *ptx = op_kernel_text(body);
  TK k;
  if (!ptx) return;
  if (tk_open(&k, ptx, "op_kernel") == 0) {
    WsDevPtr dout = tk_alloc(&k, 16, NULL), din = tk_alloc(&k, 24, in);
    unsigned n = 1;
    void *params[3] = {&dout, &din, &n};
    WsResult r = ws_launch_kernel(k.fn, 1, 1, 1, 32, 1, 1, 0, params);
    if (r == WS_SUCCESS) {
      tk_get(&k, out, dout, 16);
      if (out[0][1] != 0xC0FFEE) {
        fprintf(stderr, "  `%s` a=0x%" PRIx64 " b=0x%" PRIx64 ": marker after the division missing\n", body,
                a, b);
        test_failures_++;
      } else {
        char op[24];
        sscanf(body, "%23s", op);
        fprintf(stderr,
                "  note: %s a=0x%" PRIx64 " b=0x%" PRIx64 " -> 0x%" PRIx64 " (value unspecified by PTX)\n",
                op, a, b, out[0][0]);
      }
    } else if (r == WS_ERROR_LAUNCH_FAILED) {
      CHECK(ws_ctx_error(k.ctx)[0] != 0);
    } else {
      fprintf(stderr, "  `%s`: unexpected result %s: %s\n", body, ws_result_name(r), ws_ctx_error(k.ctx));
      test_failures_++;
    }
  } else {
    test_failures_++;
  }
  tk_close(&k);
  free(ptx);
}
#define MARK "\n\tmov.u32 %r21, 0xC0FFEE;\n\tst.global.u32 [%rd30+8], %r21;"
static void test_div_by_zero(void) {
  div_edge("div.u32 %r20, %r10, %r11" ST_R MARK, 5, 0);
  div_edge("div.s32 %r20, %r10, %r11" ST_R MARK, 5, 0);
  div_edge("rem.u32 %r20, %r10, %r11" ST_R MARK, 5, 0);
  div_edge("rem.s32 %r20, %r10, %r11" ST_R MARK, 5, 0);
  div_edge("div.s32 %r20, %r10, %r11" ST_R MARK, 0x80000000u, 0xffffffffu);
  div_edge("rem.s32 %r20, %r10, %r11" ST_R MARK, 0x80000000u, 0xffffffffu);
  div_edge("div.u64 %rd20, %rd10, %rd11" ST_RD MARK, 5, 0);
  div_edge("div.s64 %rd20, %rd10, %rd11" ST_RD MARK, 0x8000000000000000ull, ~0ull);
  div_edge("rem.s64 %rd20, %rd10, %rd11" ST_RD MARK, 0x8000000000000000ull, ~0ull);
  div_edge("rem.u64 %rd20, %rd10, %rd11" ST_RD MARK, 5, 0);
  div_edge("div.s16 %rs20, %rs10, %rs11" ST_RS MARK, 0x8000, 0xffff);
}

/* ------------------------------------------------------------------ min/max/abs/neg */
REF(r_min_s32, S32(a) < S32(b) ? U32(a) : U32(b))
REF(r_max_s32, S32(a) > S32(b) ? U32(a) : U32(b))
REF(r_min_u32, U32(a) < U32(b) ? U32(a) : U32(b))
REF(r_max_u32, U32(a) > U32(b) ? U32(a) : U32(b))
REF(r_min_s64, S64(a) < S64(b) ? a : b)
REF(r_max_s64, S64(a) > S64(b) ? a : b)
REF(r_min_u64, a < b ? a : b)
REF(r_max_u64, a > b ? a : b)
REF(r_min_s16, S16(a) < S16(b) ? U16(a) : U16(b))
REF(r_max_u16, U16(a) > U16(b) ? U16(a) : U16(b))
REF(r_abs32, S32(a) < 0 ? 0u - U32(a) : U32(a))
REF(r_neg32, 0u - U32(a))
REF(r_abs64, S64(a) < 0 ? 0ull - a : a)
REF(r_neg64, 0ull - a)
REF(r_abs16, U16(S16(a) < 0 ? U16(0u - U16(a)) : U16(a)))
REF(r_neg16, U16(0u - U16(a)))

static void test_min_max_abs_neg(void) {
  OpVec p = pairs32(), q = pairs64();
  op_check("min.s32 %r20, %r10, %r11" ST_R, r_min_s32, NULL, M32, OV_ARGS(p));
  op_check("max.s32 %r20, %r10, %r11" ST_R, r_max_s32, NULL, M32, OV_ARGS(p));
  op_check("min.u32 %r20, %r10, %r11" ST_R, r_min_u32, NULL, M32, OV_ARGS(p));
  op_check("max.u32 %r20, %r10, %r11" ST_R, r_max_u32, NULL, M32, OV_ARGS(p));
  op_check("min.s64 %rd20, %rd10, %rd11" ST_RD, r_min_s64, NULL, M64, OV_ARGS(q));
  op_check("max.s64 %rd20, %rd10, %rd11" ST_RD, r_max_s64, NULL, M64, OV_ARGS(q));
  op_check("min.u64 %rd20, %rd10, %rd11" ST_RD, r_min_u64, NULL, M64, OV_ARGS(q));
  op_check("max.u64 %rd20, %rd10, %rd11" ST_RD, r_max_u64, NULL, M64, OV_ARGS(q));
  op_check("min.s16 %rs20, %rs10, %rs11" ST_RS, r_min_s16, NULL, M16, OV_ARGS(p));
  op_check("max.u16 %rs20, %rs10, %rs11" ST_RS, r_max_u16, NULL, M16, OV_ARGS(p));
  /* abs(INT_MIN) = INT_MIN, neg(INT_MIN) = INT_MIN */
  op_check("abs.s32 %r20, %r10" ST_R, r_abs32, NULL, M32, OV_ARGS(p));
  op_check("neg.s32 %r20, %r10" ST_R, r_neg32, NULL, M32, OV_ARGS(p));
  op_check("abs.s64 %rd20, %rd10" ST_RD, r_abs64, NULL, M64, OV_ARGS(q));
  op_check("neg.s64 %rd20, %rd10" ST_RD, r_neg64, NULL, M64, OV_ARGS(q));
  op_check("abs.s16 %rs20, %rs10" ST_RS, r_abs16, NULL, M16, OV_ARGS(p));
  op_check("neg.s16 %rs20, %rs10" ST_RS, r_neg16, NULL, M16, OV_ARGS(p));
  ov_free(&p);
  ov_free(&q);
}

/* ------------------------------------------------------------------ shifts */
/* "Shift amounts greater than the register width N are clamped to N"; b is an unsigned 32-bit value. */
REF(r_shl32, U32(b) >= 32 ? 0 : U32(U32(a) << U32(b)))
REF(r_shr_u32, U32(b) >= 32 ? 0 : U32(a) >> U32(b))
REF(r_shr_s32, U32(b) >= 32 ? (S32(a) < 0 ? M32 : 0) : U32(S32(a) >> U32(b)))
REF(r_shl64, U32(b) >= 64 ? 0 : a << U32(b))
REF(r_shr_u64, U32(b) >= 64 ? 0 : a >> U32(b))
REF(r_shr_s64, U32(b) >= 64 ? (S64(a) < 0 ? M64 : 0) : (uint64_t)(S64(a) >> U32(b)))
REF(r_shl16, U32(b) >= 16 ? 0 : U16(U16(a) << U32(b)))
REF(r_shr_u16, U32(b) >= 16 ? 0 : U16(a) >> U32(b))
REF(r_shr_s16, U16(U32(b) >= 16 ? (S16(a) < 0 ? M16 : 0) : (uint64_t)(S16(a) >> U32(b))))

static void test_shifts(void) {
  static const uint32_t amt[] = {0,  1,  4,  15,  16,  17,  31,          32,         33,
                                 63, 64, 65, 100, 255, 256, 0x80000000u, 0xffffffffu};
  static const uint64_t vals[] = {0,
                                  1,
                                  0x80000000ull,
                                  0x7fffffffull,
                                  0xdeadbeefull,
                                  0xffffffffull,
                                  0x8000ull,
                                  0x123456789abcdef0ull,
                                  0x8000000000000001ull,
                                  ~0ull};
  OpVec o = {0};
  for (unsigned i = 0; i < sizeof vals / 8; i++)
    for (unsigned j = 0; j < sizeof amt / 4; j++) ov_add(&o, vals[i], amt[j], 0);
  op_check("shl.b32 %r20, %r10, %r11" ST_R, r_shl32, NULL, M32, OV_ARGS(o));
  op_check("shr.u32 %r20, %r10, %r11" ST_R, r_shr_u32, NULL, M32, OV_ARGS(o));
  op_check("shr.b32 %r20, %r10, %r11" ST_R, r_shr_u32, NULL, M32, OV_ARGS(o));
  op_check("shr.s32 %r20, %r10, %r11" ST_R, r_shr_s32, NULL, M32, OV_ARGS(o));
  op_check("shl.b64 %rd20, %rd10, %r11" ST_RD, r_shl64, NULL, M64, OV_ARGS(o));
  op_check("shr.u64 %rd20, %rd10, %r11" ST_RD, r_shr_u64, NULL, M64, OV_ARGS(o));
  op_check("shr.s64 %rd20, %rd10, %r11" ST_RD, r_shr_s64, NULL, M64, OV_ARGS(o));
  op_check("shl.b16 %rs20, %rs10, %r11" ST_RS, r_shl16, NULL, M16, OV_ARGS(o));
  op_check("shr.u16 %rs20, %rs10, %r11" ST_RS, r_shr_u16, NULL, M16, OV_ARGS(o));
  op_check("shr.s16 %rs20, %rs10, %r11" ST_RS, r_shr_s16, NULL, M16, OV_ARGS(o));
  ov_free(&o);
}

/* immediate shift amounts, as nvcc emits them */
REF(r_shl_imm5, U32(U32(a) << 5))
REF(r_shr_s_imm31, U32(S32(a) >> 31))
REF(r_shr_u64_imm63, a >> 63)
static void test_shift_imm(void) {
  OpVec p = pairs32(), q = pairs64();
  op_check("shl.b32 %r20, %r10, 5" ST_R, r_shl_imm5, NULL, M32, OV_ARGS(p));
  op_check("shr.s32 %r20, %r10, 31" ST_R, r_shr_s_imm31, NULL, M32, OV_ARGS(p));
  op_check("shr.u64 %rd20, %rd10, 63" ST_RD, r_shr_u64_imm63, NULL, M64, OV_ARGS(q));
  ov_free(&p);
  ov_free(&q);
}

/* ------------------------------------------------------------------ logic */
REF(r_and32, U32(a) & U32(b))
REF(r_or32, U32(a) | U32(b))
REF(r_xor32, U32(a) ^ U32(b))
REF(r_not32, U32(~U32(a)))
REF(r_cnot32, U32(a) == 0 ? 1 : 0)
REF(r_and64, a &b)
REF(r_or64, a | b)
REF(r_xor64, a ^ b)
REF(r_not64, ~a)
REF(r_cnot64, a == 0 ? 1 : 0)
REF(r_and16, U16(a) & U16(b))
REF(r_not16, U16(~U16(a)))
REF(r_cnot16, U16(a) == 0 ? 1 : 0)
static void test_logic(void) {
  OpVec p = pairs32(), q = pairs64();
  op_check("and.b32 %r20, %r10, %r11" ST_R, r_and32, NULL, M32, OV_ARGS(p));
  op_check("or.b32 %r20, %r10, %r11" ST_R, r_or32, NULL, M32, OV_ARGS(p));
  op_check("xor.b32 %r20, %r10, %r11" ST_R, r_xor32, NULL, M32, OV_ARGS(p));
  op_check("not.b32 %r20, %r10" ST_R, r_not32, NULL, M32, OV_ARGS(p));
  op_check("cnot.b32 %r20, %r10" ST_R, r_cnot32, NULL, M32, OV_ARGS(p));
  op_check("and.b64 %rd20, %rd10, %rd11" ST_RD, r_and64, NULL, M64, OV_ARGS(q));
  op_check("or.b64 %rd20, %rd10, %rd11" ST_RD, r_or64, NULL, M64, OV_ARGS(q));
  op_check("xor.b64 %rd20, %rd10, %rd11" ST_RD, r_xor64, NULL, M64, OV_ARGS(q));
  op_check("not.b64 %rd20, %rd10" ST_RD, r_not64, NULL, M64, OV_ARGS(q));
  op_check("cnot.b64 %rd20, %rd10" ST_RD, r_cnot64, NULL, M64, OV_ARGS(q));
  op_check("and.b16 %rs20, %rs10, %rs11" ST_RS, r_and16, NULL, M16, OV_ARGS(p));
  op_check("not.b16 %rs20, %rs10" ST_RS, r_not16, NULL, M16, OV_ARGS(p));
  op_check("cnot.b16 %rs20, %rs10" ST_RS, r_cnot16, NULL, M16, OV_ARGS(p));
  ov_free(&p);
  ov_free(&q);
}

/* ------------------------------------------------------------------ immediates */
REF(r_imm_add_neg, U32(a) + 0xfffffff9u)    /* add.s32 d, a, -7 */
REF(r_imm_and_hex, U32(a) & 0xf0f0u)        /* and.b32 d, a, 0xF0F0 */
REF(r_imm_or_64, a | 0x8000000000000000ull) /* or.b64 d, a, 0x8000000000000000 */
REF(r_imm_mov_neg64, 0xfffffffffffffffeull) /* mov.u64 d, -2 */
REF(r_imm_octal, U32(a) + 8)                /* 010 is octal */
REF(r_imm_binary, U32(a) + 5)               /* 0b101 */
REF(r_imm_usuffix, U32(a) + 42)             /* 42U */
REF(r_imm_mul_max, U32(a) * 0x7fffffffu)
static void test_immediates(void) {
  OpVec p = pairs32(), q = pairs64();
  op_check("add.s32 %r20, %r10, -7" ST_R, r_imm_add_neg, NULL, M32, OV_ARGS(p));
  op_check("and.b32 %r20, %r10, 0xF0F0" ST_R, r_imm_and_hex, NULL, M32, OV_ARGS(p));
  op_check("or.b64 %rd20, %rd10, 0x8000000000000000" ST_RD, r_imm_or_64, NULL, M64, OV_ARGS(q));
  op_check("mov.u64 %rd20, -2" ST_RD, r_imm_mov_neg64, NULL, M64, OV_ARGS(q));
  op_check("mul.lo.s32 %r20, %r10, 2147483647" ST_R, r_imm_mul_max, NULL, M32, OV_ARGS(p));
  /* literal forms of the PTX grammar (section "Constants"): octal 0[0-7]+, binary 0[bB][01]+, U suffix */
  op_check("add.u32 %r20, %r10, 010" ST_R, r_imm_octal, NULL, M32, OV_ARGS(p));
  op_check("add.u32 %r20, %r10, 0b101" ST_R, r_imm_binary, NULL, M32, OV_ARGS(p));
  op_check("add.u32 %r20, %r10, 42U" ST_R, r_imm_usuffix, NULL, M32, OV_ARGS(p));
  ov_free(&p);
  ov_free(&q);
}

/* ------------------------------------------------------------------ bit manipulation */
static uint32_t popc64(uint64_t v) {
  uint32_t n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}
static uint32_t clz_n(uint64_t v, int bits) {
  uint32_t n = 0;
  for (int i = bits - 1; i >= 0 && !((v >> i) & 1); i--) n++;
  return n;
}
static uint64_t brev_n(uint64_t v, int bits) {
  uint64_t r = 0;
  for (int i = 0; i < bits; i++)
    if ((v >> i) & 1) r |= 1ull << (bits - 1 - i);
  return r;
}
/* bfind per the ISA pseudo-code */
static uint32_t bfind_ref(uint64_t a, int bits, int is_signed, int shiftamt) {
  int msb = bits - 1;
  if (bits == 32) a &= M32;
  if (is_signed && ((a >> msb) & 1)) a = ~a & (bits == 32 ? M32 : M64);
  uint32_t d = 0xffffffffu;
  for (int i = msb; i >= 0; i--)
    if ((a >> i) & 1) {
      d = (uint32_t)i;
      break;
    }
  if (shiftamt && d != 0xffffffffu) d = (uint32_t)msb - d;
  return d;
}
REF(r_popc32, popc64(U32(a)))
REF(r_popc64, popc64(a))
REF(r_clz32, clz_n(U32(a), 32))
REF(r_clz64, clz_n(a, 64))
REF(r_brev32, brev_n(U32(a), 32))
REF(r_brev64, brev_n(a, 64))
REF(r_bfind_u32, bfind_ref(a, 32, 0, 0))
REF(r_bfind_s32, bfind_ref(a, 32, 1, 0))
REF(r_bfind_u64, bfind_ref(a, 64, 0, 0))
REF(r_bfind_s64, bfind_ref(a, 64, 1, 0))
REF(r_bfind_sa_u32, bfind_ref(a, 32, 0, 1))
REF(r_bfind_sa_s32, bfind_ref(a, 32, 1, 1))
REF(r_bfind_sa_u64, bfind_ref(a, 64, 0, 1))
REF(r_bfind_sa_s64, bfind_ref(a, 64, 1, 1))

static void test_popc_clz_brev_bfind(void) {
  OpVec p = pairs32(), q = pairs64();
  op_check("popc.b32 %r20, %r10" ST_R, r_popc32, NULL, M32, OV_ARGS(p));
  op_check("popc.b64 %r20, %rd10" ST_R, r_popc64, NULL, M32, OV_ARGS(q));
  op_check("clz.b32 %r20, %r10" ST_R, r_clz32, NULL, M32, OV_ARGS(p));
  op_check("clz.b64 %r20, %rd10" ST_R, r_clz64, NULL, M32, OV_ARGS(q));
  op_check("brev.b32 %r20, %r10" ST_R, r_brev32, NULL, M32, OV_ARGS(p));
  op_check("brev.b64 %rd20, %rd10" ST_RD, r_brev64, NULL, M64, OV_ARGS(q));
  op_check("bfind.u32 %r20, %r10" ST_R, r_bfind_u32, NULL, M32, OV_ARGS(p));
  op_check("bfind.s32 %r20, %r10" ST_R, r_bfind_s32, NULL, M32, OV_ARGS(p));
  op_check("bfind.u64 %r20, %rd10" ST_R, r_bfind_u64, NULL, M32, OV_ARGS(q));
  op_check("bfind.s64 %r20, %rd10" ST_R, r_bfind_s64, NULL, M32, OV_ARGS(q));
  op_check("bfind.shiftamt.u32 %r20, %r10" ST_R, r_bfind_sa_u32, NULL, M32, OV_ARGS(p));
  op_check("bfind.shiftamt.s32 %r20, %r10" ST_R, r_bfind_sa_s32, NULL, M32, OV_ARGS(p));
  op_check("bfind.shiftamt.u64 %r20, %rd10" ST_R, r_bfind_sa_u64, NULL, M32, OV_ARGS(q));
  op_check("bfind.shiftamt.s64 %r20, %rd10" ST_R, r_bfind_sa_s64, NULL, M32, OV_ARGS(q));
  ov_free(&p);
  ov_free(&q);
}

/* bfe per the ISA pseudo-code; b = start, c = length (both & 0xff) */
static uint64_t bfe_ref(uint64_t a, uint32_t b, uint32_t c, int bits, int is_signed) {
  int msb = bits - 1;
  uint32_t pos = b & 0xff, len = c & 0xff;
  int sbit;
  if (!is_signed || len == 0)
    sbit = 0;
  else {
    uint32_t i = pos + len - 1;
    if (i > (uint32_t)msb) i = (uint32_t)msb;
    sbit = (int)((a >> i) & 1);
  }
  uint64_t d = 0;
  for (int i = 0; i <= msb; i++) {
    int bit = ((uint32_t)i < len && pos + (uint32_t)i <= (uint32_t)msb) ? (int)((a >> (pos + i)) & 1) : sbit;
    if (bit) d |= 1ull << i;
  }
  return d;
}
/* bfi per the ISA pseudo-code: f = b with a's low `len` bits inserted at `pos` */
static uint64_t bfi_ref(uint64_t a, uint64_t b, uint32_t c, uint32_t d, int bits) {
  int msb = bits - 1;
  uint32_t pos = c & 0xff, len = d & 0xff;
  uint64_t f = b;
  for (uint32_t i = 0; i < len && pos + i <= (uint32_t)msb; i++) {
    uint64_t bit = (a >> i) & 1;
    f = (f & ~(1ull << (pos + i))) | (bit << (pos + i));
  }
  return bits == 32 ? f & M32 : f;
}
REF(r_bfe_u32, bfe_ref(U32(a), U32(b), U32(c), 32, 0))
REF(r_bfe_s32, bfe_ref(U32(a), U32(b), U32(c), 32, 1))
REF(r_bfe_u64, bfe_ref(a, U32(b), U32(c), 64, 0))
REF(r_bfe_s64, bfe_ref(a, U32(b), U32(c), 64, 1))
/* bfi: a, b = inputs a and b; pos = low word of c, len = high word of c */
REF(r_bfi32, bfi_ref(U32(a), U32(b), U32(c), U32(c >> 32), 32))
REF(r_bfi64, bfi_ref(a, b, U32(c), U32(c >> 32), 64))

static void test_bfe_bfi(void) {
  static const uint32_t pos[] = {0, 1, 4, 8, 16, 24, 31, 32, 33, 40, 63, 64, 255, 256 + 4};
  static const uint32_t len[] = {0, 1, 4, 8, 16, 24, 31, 32, 33, 64, 65, 255, 256 + 3};
  static const uint64_t vals[] = {0x0,
                                  0xffffffffffffffffull,
                                  0x80000000ull,
                                  0xdeadbeefcafef00dull,
                                  0x7fffffff7fffffffull,
                                  0x8000000080000001ull,
                                  0x00000000f0f0f0f0ull};
  static const uint64_t ins[] = {0x5555555555555555ull, 0x0123456789abcdefull, 0ull};
  OpVec o = {0}, f = {0};
  for (unsigned i = 0; i < sizeof vals / 8; i++)
    for (unsigned j = 0; j < sizeof pos / 4; j++)
      for (unsigned l = 0; l < sizeof len / 4; l++) {
        ov_add(&o, vals[i], pos[j], len[l]);
        ov_add(&f, ins[(i + j + l) % 3], vals[i], (uint64_t)pos[j] | ((uint64_t)len[l] << 32));
      }
  op_check("bfe.u32 %r20, %r10, %r11, %r12" ST_R, r_bfe_u32, NULL, M32, OV_ARGS(o));
  op_check("bfe.s32 %r20, %r10, %r11, %r12" ST_R, r_bfe_s32, NULL, M32, OV_ARGS(o));
  op_check("bfe.u64 %rd20, %rd10, %r11, %r12" ST_RD, r_bfe_u64, NULL, M64, OV_ARGS(o));
  op_check("bfe.s64 %rd20, %rd10, %r11, %r12" ST_RD, r_bfe_s64, NULL, M64, OV_ARGS(o));
  /* %rd5 is the address of this thread's input triple: len = high word of c at [%rd5+20] */
  op_check("ld.global.u32 %r21, [%rd5+20];\n\tbfi.b32 %r20, %r10, %r11, %r12, %r21" ST_R, r_bfi32, NULL, M32,
           OV_ARGS(f));
  op_check("ld.global.u32 %r21, [%rd5+20];\n\tbfi.b64 %rd20, %rd10, %rd11, %r12, %r21" ST_RD, r_bfi64, NULL,
           M64, OV_ARGS(f));
  ov_free(&o);
  ov_free(&f);
}

/* prmt default mode */
static uint32_t prmt_ref(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t t = ((uint64_t)b << 32) | a;
  uint32_t d = 0;
  for (int i = 0; i < 4; i++) {
    uint32_t sel = (c >> (4 * i)) & 0xf;
    uint32_t byte = (uint32_t)(t >> (8 * (sel & 7))) & 0xff;
    if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
    d |= byte << (8 * i);
  }
  return d;
}
REF(r_prmt, prmt_ref(U32(a), U32(b), U32(c)))
static void test_prmt(void) {
  static const uint32_t ctl[] = {0x3210, 0x7654, 0x0123, 0x4567,      0x1111,     0x8888, 0xba98, 0xfedc,
                                 0x5140, 0x0000, 0x9c3e, 0xffff3210u, 0x12345678, 0xcdef, 0x7531};
  static const uint32_t av[] = {0x80ff7f01, 0x12345678, 0xdeadbeef};
  static const uint32_t bv[] = {0x9abcdef0, 0x00800080, 0xfedcba98};
  OpVec o = {0};
  for (unsigned i = 0; i < 3; i++)
    for (unsigned j = 0; j < 3; j++)
      for (unsigned k = 0; k < sizeof ctl / 4; k++) ov_add(&o, av[i], bv[j], ctl[k]);
  op_check("prmt.b32 %r20, %r10, %r11, %r12" ST_R, r_prmt, NULL, M32, OV_ARGS(o));
  ov_free(&o);
}

/* shf: funnel shift of {b, a}; clamp: n = min(c, 32); wrap: n = c & 31 */
static uint32_t shf_ref(uint32_t a, uint32_t b, uint32_t c, int left, int clamp) {
  uint32_t n = clamp ? (c > 32 ? 32 : c) : (c & 31);
  uint64_t v = ((uint64_t)b << 32) | a;
  if (left) return (uint32_t)((n == 64 ? 0 : (v << n)) >> 32);
  return (uint32_t)(v >> n);
}
REF(r_shf_l_wrap, shf_ref(U32(a), U32(b), U32(c), 1, 0))
REF(r_shf_l_clamp, shf_ref(U32(a), U32(b), U32(c), 1, 1))
REF(r_shf_r_wrap, shf_ref(U32(a), U32(b), U32(c), 0, 0))
REF(r_shf_r_clamp, shf_ref(U32(a), U32(b), U32(c), 0, 1))
static void test_shf(void) {
  static const uint32_t amt[] = {0, 1, 7, 16, 31, 32, 33, 40, 63, 64, 100, 0xffffffffu};
  static const uint32_t av[] = {0x89abcdef, 0xffffffff, 0x00000001};
  static const uint32_t bv[] = {0x01234567, 0x80000000, 0x0};
  OpVec o = {0};
  for (unsigned i = 0; i < 3; i++)
    for (unsigned j = 0; j < 3; j++)
      for (unsigned k = 0; k < sizeof amt / 4; k++) ov_add(&o, av[i], bv[j], amt[k]);
  op_check("shf.l.wrap.b32 %r20, %r10, %r11, %r12" ST_R, r_shf_l_wrap, NULL, M32, OV_ARGS(o));
  op_check("shf.l.clamp.b32 %r20, %r10, %r11, %r12" ST_R, r_shf_l_clamp, NULL, M32, OV_ARGS(o));
  op_check("shf.r.wrap.b32 %r20, %r10, %r11, %r12" ST_R, r_shf_r_wrap, NULL, M32, OV_ARGS(o));
  op_check("shf.r.clamp.b32 %r20, %r10, %r11, %r12" ST_R, r_shf_r_clamp, NULL, M32, OV_ARGS(o));
  ov_free(&o);
}

/* sad: d = c + |a - b| (wrapping). sad.s64 with a = 0, b = INT64_MIN once made the core compute
 * a - b in int64_t (signed overflow, UBSan abort); expected c + 0x8000000000000000. */
REF(r_sad_s32, U32(U32(c) + (S32(a) < S32(b) ? U32(b) - U32(a) : U32(a) - U32(b))))
REF(r_sad_u32, U32(U32(c) + (U32(a) < U32(b) ? U32(b) - U32(a) : U32(a) - U32(b))))
REF(r_sad_u64, c + (a < b ? b - a : a - b))
REF(r_sad_s64, c + (S64(a) < S64(b) ? b - a : a - b))
static void test_sad(void) {
  OpVec p = pairs32(), q = pairs64();
  op_check("sad.s32 %r20, %r10, %r11, %r12" ST_R, r_sad_s32, NULL, M32, OV_ARGS(p));
  op_check("sad.u32 %r20, %r10, %r11, %r12" ST_R, r_sad_u32, NULL, M32, OV_ARGS(p));
  op_check("sad.u64 %rd20, %rd10, %rd11, %rd12" ST_RD, r_sad_u64, NULL, M64, OV_ARGS(q));
  op_check("sad.s64 %rd20, %rd10, %rd11, %rd12" ST_RD, r_sad_s64, NULL, M64, OV_ARGS(q));
  ov_free(&p);
  ov_free(&q);
}

/* mov between widths: mov.b64 {lo, hi} pack/unpack, as nvcc emits for 64-bit splits */
REF(r_unpack_hi, U32(a >> 32))
REF(r_pack, ((uint64_t)U32(b) << 32) | U32(a))
static void test_mov_pack(void) {
  OpVec q = pairs64();
  op_check("mov.b64 {%r20, %r21}, %rd10;\n\tmov.b32 %r20, %r21" ST_R, r_unpack_hi, NULL, M32, OV_ARGS(q));
  op_check("mov.b64 %rd20, {%r10, %r11}" ST_RD, r_pack, NULL, M64, OV_ARGS(q));
  ov_free(&q);
}

/* The most negative 64-bit literal: "-9223372036854775808" is 0x8000000000000000.
 * Regression test: the core once negated it as int64_t (src/ptx/decode.c, signed overflow, UBSan abort).
 * Kept last in main() so that the other tests run first. */
REF(r_imm_int64_min, a + 0x8000000000000000ull)
REF(r_imm_int64_min_mov, 0x8000000000000000ull)
static void test_int64_min_literal(void) {
  OpVec q = pairs64();
  op_check("add.s64 %rd20, %rd10, -9223372036854775808" ST_RD, r_imm_int64_min, NULL, M64, OV_ARGS(q));
  op_check("mov.s64 %rd20, -9223372036854775808" ST_RD, r_imm_int64_min_mov, NULL, M64, OV_ARGS(q));
  ov_free(&q);
}

int main(void) {
  TEST_RUN(test_add_sub);
  TEST_RUN(test_carry);
  TEST_RUN(test_mul_mad);
  TEST_RUN(test_mul24);
  TEST_RUN(test_div_rem);
  TEST_RUN(test_div_by_zero);
  TEST_RUN(test_min_max_abs_neg);
  TEST_RUN(test_shifts);
  TEST_RUN(test_shift_imm);
  TEST_RUN(test_logic);
  TEST_RUN(test_immediates);
  TEST_RUN(test_popc_clz_brev_bfind);
  TEST_RUN(test_bfe_bfi);
  TEST_RUN(test_prmt);
  TEST_RUN(test_shf);
  TEST_RUN(test_mov_pack);
  /* tests that have crashed the core under UBSan (signed overflow in the simulator): keep them last */
  TEST_RUN(test_sad);
  TEST_RUN(test_int64_min_literal);
  return TEST_DONE();
}
