/* t104_setp_selp.c - setp (all comparison operators, NaN handling, .and/.or/.xor
 * combining, the p|q dual destination), selp, predicated execution (@p / @!p)
 * and predicate logic (and/or/xor/not/mov .pred), per the PTX ISA 9.0:
 *
 *   setp.CmpOp{.ftz}.type         p[|q], a, b;
 *   setp.CmpOp.BoolOp{.ftz}.type  p[|q], a, b, {!}c;
 *     t = (a CmpOp b) ? 1 : 0;  p = BoolOp(t, c);  q = BoolOp(!t, c);
 *
 * Ordered float comparisons (eq ne lt le gt ge) are false when either operand is
 * NaN; unordered ones (equ neu ltu leu gtu geu) are true; num = neither NaN,
 * nan = either NaN. lo ls hi hs are the unsigned lt le gt ge. */
#include "common/opkit.h"

TEST_GLOBALS;

enum { EQ, NE, LT, LE, GT, GE, LO, LS, HI, HS, EQU, NEU, LTU, LEU, GTU, GEU, NUM, NAN_ };
static const char *const CMPN[] = {"eq", "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                   "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
enum { T_S32, T_U32, T_S64, T_U64, T_S16, T_U16, T_B32, T_F32, T_F64, T_F32FTZ };
static const char *const TYN[] = {"s32", "u32", "s64", "u64", "s16", "u16", "b32", "f32", "f64", "ftz.f32"};
static const char *const REGA[] = {"%r10",  "%r10", "%rd10", "%rd10", "%rs10",
                                   "%rs10", "%r10", "%f10",  "%fd10", "%f10"};
static const char *const REGB[] = {"%r11",  "%r11", "%rd11", "%rd11", "%rs11",
                                   "%rs11", "%r11", "%f11",  "%fd11", "%f11"};

static int g_cmp, g_type, g_boolop, g_negc, g_dual;

static int cmp_int(int cmp, int64_t sa, int64_t sb, uint64_t ua, uint64_t ub, int is_signed) {
  int lt = is_signed ? sa < sb : ua < ub, eq = ua == ub;
  switch (cmp) {
  case EQ:
    return eq;
  case NE:
    return !eq;
  case LT:
    return lt;
  case LE:
    return lt || eq;
  case GT:
    return !lt && !eq;
  case GE:
    return !lt;
  case LO:
    return ua < ub;
  case LS:
    return ua <= ub;
  case HI:
    return ua > ub;
  case HS:
    return ua >= ub;
  }
  return -1;
}
static int cmp_flt(int cmp, double x, double y) {
  int un = isnan(x) || isnan(y);
  switch (cmp) {
  case EQ:
    return !un && x == y;
  case NE:
    return !un && x != y;
  case LT:
    return !un && x < y;
  case LE:
    return !un && x <= y;
  case GT:
    return !un && x > y;
  case GE:
    return !un && x >= y;
  case EQU:
    return un || x == y;
  case NEU:
    return un || x != y;
  case LTU:
    return un || x < y;
  case LEU:
    return un || x <= y;
  case GTU:
    return un || x > y;
  case GEU:
    return un || x >= y;
  case NUM:
    return !un;
  case NAN_:
    return un;
  }
  return -1;
}
static float ftzf(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }

static int cmp_t(uint64_t a, uint64_t b) {
  switch (g_type) {
  case T_S32:
    return cmp_int(g_cmp, (int32_t)(uint32_t)a, (int32_t)(uint32_t)b, (uint32_t)a, (uint32_t)b, 1);
  case T_U32:
  case T_B32:
    return cmp_int(g_cmp, 0, 0, (uint32_t)a, (uint32_t)b, 0);
  case T_S64:
    return cmp_int(g_cmp, (int64_t)a, (int64_t)b, a, b, 1);
  case T_U64:
    return cmp_int(g_cmp, 0, 0, a, b, 0);
  case T_S16:
    return cmp_int(g_cmp, (int16_t)(uint16_t)a, (int16_t)(uint16_t)b, (uint16_t)a, (uint16_t)b, 1);
  case T_U16:
    return cmp_int(g_cmp, 0, 0, (uint16_t)a, (uint16_t)b, 0);
  case T_F32:
    return cmp_flt(g_cmp, u2f((uint32_t)a), u2f((uint32_t)b));
  case T_F32FTZ:
    return cmp_flt(g_cmp, ftzf(u2f((uint32_t)a)), ftzf(u2f((uint32_t)b)));
  case T_F64:
    return cmp_flt(g_cmp, u2d(a), u2d(b));
  }
  return -1;
}
/* result word: bit0 = p, bit1 = q (dual destination) */
static uint64_t r_setp(uint64_t a, uint64_t b, uint64_t c) {
  int t = cmp_t(a, b);
  int cv = (c & 1) != 0;
  if (g_negc) cv = !cv;
  int p, q;
  switch (g_boolop) {
  case 1:
    p = t && cv;
    q = !t && cv;
    break;
  case 2:
    p = t || cv;
    q = !t || cv;
    break;
  case 3:
    p = t ^ cv;
    q = (!t) ^ cv;
    break;
  default:
    p = t;
    q = !t;
    break;
  }
  return (uint64_t)p | (g_dual ? (uint64_t)q << 1 : 0);
}

static const uint32_t I32[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x8000, 0xffff, 100};
static const uint64_t I64[] = {
    0, 1, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, 0xffffffffull, 0x100000000ull};
static const uint32_t F32[] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
                               0x7fc00000, 0x000116c2, 0x800116c2, 0x3f800001, 0x7f7fffff, 0xffc00001};
static const uint64_t F64[] = {0,
                               0x8000000000000000ull,
                               0x3ff0000000000000ull,
                               0xbff0000000000000ull,
                               0x7ff0000000000000ull,
                               0xfff0000000000000ull,
                               0x7ff8000000000000ull,
                               0x0000000000000001ull,
                               0x3ff0000000000001ull};

static OpVec inputs_for(int type) {
  OpVec o = {0};
  int k = 0;
  if (type == T_F32 || type == T_F32FTZ) {
    for (unsigned i = 0; i < sizeof F32 / 4; i++)
      for (unsigned j = 0; j < sizeof F32 / 4; j++) ov_add(&o, F32[i], F32[j], (uint64_t)(k++ % 3 == 0));
  } else if (type == T_F64) {
    for (unsigned i = 0; i < sizeof F64 / 8; i++)
      for (unsigned j = 0; j < sizeof F64 / 8; j++) ov_add(&o, F64[i], F64[j], (uint64_t)(k++ % 3 == 0));
  } else if (type == T_S64 || type == T_U64) {
    for (unsigned i = 0; i < sizeof I64 / 8; i++)
      for (unsigned j = 0; j < sizeof I64 / 8; j++) ov_add(&o, I64[i], I64[j], (uint64_t)(k++ % 3 == 0));
  } else {
    for (unsigned i = 0; i < sizeof I32 / 4; i++)
      for (unsigned j = 0; j < sizeof I32 / 4; j++) ov_add(&o, I32[i], I32[j], (uint64_t)(k++ % 3 == 0));
  }
  return o;
}

/* runs one setp form over the inputs; c's low bit becomes %p2 */
static void check_setp(int type, int cmp, int boolop, int negc, int dual) {
  static const char *const BOP[] = {"", ".and", ".or", ".xor"};
  char body[512];
  g_type = type;
  g_cmp = cmp;
  g_boolop = boolop;
  g_negc = negc;
  g_dual = dual;
  snprintf(body, sizeof body,
           "and.b32 %%r22, %%r12, 1;\n\tsetp.ne.u32 %%p2, %%r22, 0;\n\t"
           "setp.%s%s.%s %%p1%s, %s, %s%s%s;\n\t"
           "selp.u32 %%r20, 1, 0, %%p1;\n\t%s"
           "st.global.u32 [%%rd30], %%r20;",
           CMPN[cmp], BOP[boolop], TYN[type], dual ? "|%p3" : "", REGA[type], REGB[type],
           boolop ? (negc ? ", !%p2" : ", %p2") : "", "",
           dual ? "selp.u32 %r21, 2, 0, %p3;\n\tor.b32 %r20, %r20, %r21;\n\t" : "");
  OpVec o = inputs_for(type);
  op_check(body, r_setp, NULL, 0xffffffffull, OV_ARGS(o));
  ov_free(&o);
}

static void test_setp_int(void) {
  int types[] = {T_S32, T_U32, T_S64, T_U64, T_S16, T_U16};
  for (unsigned t = 0; t < sizeof types / sizeof types[0]; t++)
    for (int c = EQ; c <= GE; c++) check_setp(types[t], c, 0, 0, 0);
  check_setp(T_B32, EQ, 0, 0, 0);
  check_setp(T_B32, NE, 0, 0, 0);
}

static void test_setp_unsigned_ops(void) {
  int types[] = {T_U32, T_U64, T_U16};
  for (unsigned t = 0; t < sizeof types / sizeof types[0]; t++)
    for (int c = LO; c <= HS; c++) check_setp(types[t], c, 0, 0, 0);
}

static void test_setp_float(void) {
  for (int c = EQ; c <= GE; c++) check_setp(T_F32, c, 0, 0, 0);
  for (int c = EQU; c <= NAN_; c++) check_setp(T_F32, c, 0, 0, 0);
  for (int c = EQ; c <= GE; c++) check_setp(T_F64, c, 0, 0, 0);
  for (int c = EQU; c <= NAN_; c++) check_setp(T_F64, c, 0, 0, 0);
  /* .ftz: subnormal inputs compare as zero */
  check_setp(T_F32FTZ, EQ, 0, 0, 0);
  check_setp(T_F32FTZ, LT, 0, 0, 0);
  check_setp(T_F32FTZ, GEU, 0, 0, 0);
}

static void test_setp_boolop(void) {
  for (int b = 1; b <= 3; b++)
    for (int neg = 0; neg <= 1; neg++) {
      check_setp(T_S32, LT, b, neg, 0);
      check_setp(T_U64, HS, b, neg, 0);
      check_setp(T_F32, LT, b, neg, 0); /* NaN: t = 0 */
      check_setp(T_F64, GEU, b, neg, 0);
    }
}

static void test_setp_dual(void) {
  check_setp(T_S32, LT, 0, 0, 1);
  check_setp(T_U32, GE, 0, 0, 1);
  check_setp(T_F32, LT, 0, 0, 1); /* NaN: p = 0, q = 1 */
  check_setp(T_F32, NEU, 0, 0, 1);
  check_setp(T_F64, EQ, 0, 0, 1);
  check_setp(T_S64, GT, 0, 0, 1);
  for (int b = 1; b <= 3; b++) {
    check_setp(T_S32, LE, b, 0, 1);
    check_setp(T_F32, GT, b, 1, 1);
  }
}

/* ------------------------------------------------------------------ selp */
static uint64_t r_selp32(uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? (uint32_t)a : (uint32_t)b; }
static uint64_t r_selp64(uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? a : b; }
static uint64_t r_selp16(uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? (uint16_t)a : (uint16_t)b; }
static uint64_t r_selp_imm(uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? 7 : 0xfffffff6u; }
static uint64_t r_selp_fimm(uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? 0x3f800000 : (uint32_t)b; }

static OpVec sel_inputs(void) {
  OpVec o = {0};
  uint64_t s = 5;
  for (int i = 0; i < 64; i++) ov_add(&o, ov_rand(&s), ov_rand(&s), (uint64_t)i & 1);
  ov_add(&o, 0x7fc00000, 0x3f800000, 1);
  ov_add(&o, 0x7fc00000, 0x3f800000, 0);
  return o;
}
#define PRED2 "and.b32 %r22, %r12, 1;\n\tsetp.eq.u32 %p2, %r22, 1;\n\t"
static void test_selp(void) {
  OpVec o = sel_inputs();
  op_check(PRED2 "selp.b32 %r20, %r10, %r11, %p2" ST_R, r_selp32, NULL, 0xffffffffull, OV_ARGS(o));
  op_check(PRED2 "selp.u32 %r20, %r10, %r11, %p2" ST_R, r_selp32, NULL, 0xffffffffull, OV_ARGS(o));
  op_check(PRED2 "selp.s32 %r20, %r10, %r11, %p2" ST_R, r_selp32, NULL, 0xffffffffull, OV_ARGS(o));
  op_check(PRED2 "selp.b64 %rd20, %rd10, %rd11, %p2" ST_RD, r_selp64, NULL, ~0ull, OV_ARGS(o));
  op_check(PRED2 "selp.s64 %rd20, %rd10, %rd11, %p2" ST_RD, r_selp64, NULL, ~0ull, OV_ARGS(o));
  op_check(PRED2 "selp.f32 %f20, %f10, %f11, %p2" ST_F, r_selp32, NULL, 0xffffffffull, OV_ARGS(o));
  op_check(PRED2 "selp.f64 %fd20, %fd10, %fd11, %p2" ST_FD, r_selp64, NULL, ~0ull, OV_ARGS(o));
  op_check(PRED2 "selp.b16 %rs20, %rs10, %rs11, %p2" ST_RS, r_selp16, NULL, 0xffffull, OV_ARGS(o));
  op_check(PRED2 "selp.s32 %r20, 7, -10, %p2" ST_R, r_selp_imm, NULL, 0xffffffffull, OV_ARGS(o));
  op_check(PRED2 "selp.f32 %f20, 0f3F800000, %f11, %p2" ST_F, r_selp_fimm, NULL, 0xffffffffull, OV_ARGS(o));
  ov_free(&o);
}

/* ------------------------------------------------------------------ predicated execution */
static uint64_t r_guard_mov(uint64_t a, uint64_t b, uint64_t c) {
  return (c & 1) ? (uint32_t)a : (uint32_t)((uint32_t)b + 5);
}
static uint64_t r_guard_st(uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? (uint32_t)a : 0; }
static uint64_t r_guard_st_not(uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? 0 : (uint32_t)b; }
static uint64_t r_guard_chain(uint64_t a, uint64_t b, uint64_t c) {
  /* r = 1; if p: r += a; if !p: r *= 3; if p: r ^= b */
  uint32_t r = 1;
  if (c & 1)
    r += (uint32_t)a;
  else
    r *= 3;
  if (c & 1) r ^= (uint32_t)b;
  return r;
}
static uint64_t r_guard_ld(uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? (uint32_t)b : 0x5a5a; }

static void test_predicated_execution(void) {
  OpVec o = sel_inputs();
  op_check(PRED2 "mov.u32 %r20, 111;\n\t@%p2 mov.u32 %r20, %r10;\n\t@!%p2 add.u32 %r20, %r11, 5" ST_R,
           r_guard_mov, NULL, 0xffffffffull, OV_ARGS(o));
  op_check(PRED2 "@%p2 st.global.u32 [%rd30], %r10;", r_guard_st, NULL, 0xffffffffull, OV_ARGS(o));
  op_check(PRED2 "@!%p2 st.global.u32 [%rd30], %r11;", r_guard_st_not, NULL, 0xffffffffull, OV_ARGS(o));
  op_check(PRED2 "mov.u32 %r20, 1;\n\t@%p2 add.u32 %r20, %r20, %r10;\n\t@!%p2 mul.lo.u32 %r20, %r20, 3;\n\t"
                 "@%p2 xor.b32 %r20, %r20, %r11" ST_R,
           r_guard_chain, NULL, 0xffffffffull, OV_ARGS(o));
  /* predicated load: a false guard must not load (and not fault) */
  op_check(PRED2 "mov.u32 %r20, 0x5a5a;\n\t@%p2 ld.global.u32 %r20, [%rd5+8]" ST_R, r_guard_ld, NULL,
           0xffffffffull, OV_ARGS(o));
  ov_free(&o);
}

/* a predicated-off load from an invalid address must not fault */
static uint64_t r_guard_ld_off(uint64_t a, uint64_t b, uint64_t c) { return 77; }
static void test_predicated_off_fault(void) {
  OpVec o = {0};
  ov_add(&o, 1, 2, 0);
  ov_add(&o, 3, 4, 0);
  op_check(PRED2 "mov.u64 %rd21, 0;\n\tmov.u32 %r20, 77;\n\t@%p2 ld.global.u32 %r20, [%rd21]" ST_R,
           r_guard_ld_off, NULL, 0xffffffffull, OV_ARGS(o));
  ov_free(&o);
}

/* ------------------------------------------------------------------ predicate logic */
static uint64_t r_pand(uint64_t a, uint64_t b, uint64_t c) { return (a & 1) & (b & 1); }
static uint64_t r_por(uint64_t a, uint64_t b, uint64_t c) { return (a & 1) | (b & 1); }
static uint64_t r_pxor(uint64_t a, uint64_t b, uint64_t c) { return (a & 1) ^ (b & 1); }
static uint64_t r_pnot(uint64_t a, uint64_t b, uint64_t c) { return !(a & 1); }
static uint64_t r_pmov(uint64_t a, uint64_t b, uint64_t c) { return a & 1; }
#define PREDS "setp.ne.u32 %p4, %r10, 0;\n\tsetp.ne.u32 %p5, %r11, 0;\n\t"
#define OUTP "\n\tselp.u32 %r20, 1, 0, %p6;\n\tst.global.u32 [%rd30], %r20;"
static void test_pred_logic(void) {
  OpVec o = {0};
  for (int i = 0; i < 4; i++) ov_add(&o, (uint64_t)(i & 1), (uint64_t)(i >> 1), 0);
  op_check(PREDS "and.pred %p6, %p4, %p5;" OUTP, r_pand, NULL, 1, OV_ARGS(o));
  op_check(PREDS "or.pred %p6, %p4, %p5;" OUTP, r_por, NULL, 1, OV_ARGS(o));
  op_check(PREDS "xor.pred %p6, %p4, %p5;" OUTP, r_pxor, NULL, 1, OV_ARGS(o));
  op_check(PREDS "not.pred %p6, %p4;" OUTP, r_pnot, NULL, 1, OV_ARGS(o));
  op_check(PREDS "mov.pred %p6, %p4;" OUTP, r_pmov, NULL, 1, OV_ARGS(o));
  ov_free(&o);
}

int main(void) {
  TEST_RUN(test_setp_int);
  TEST_RUN(test_setp_unsigned_ops);
  TEST_RUN(test_setp_float);
  TEST_RUN(test_setp_boolop);
  TEST_RUN(test_setp_dual);
  TEST_RUN(test_selp);
  TEST_RUN(test_predicated_execution);
  TEST_RUN(test_predicated_off_fault);
  TEST_RUN(test_pred_logic);
  return TEST_DONE();
}
