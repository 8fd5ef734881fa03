/* exec_int.h - internals of the PTX executor shared by exec*.c: handler
 * signature, register access and lane-loop macros. Not for use outside src/ptx/.
 * Handlers execute one instruction for the lanes in `active` (the SIMT mask
 * after the guard predicate); on error they fill w->fault and return. */
#ifndef PTX_EXEC_INT_H
#define PTX_EXEC_INT_H

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "ptx.h"

typedef void (*PtxExecFn)(PtxWarp *w, const PtxInst *in, uint32_t active);

#define REG(w, row) ((w)->rf + (size_t)(row)*PTX_WARP_SIZE)
/* Iterates lane index `l` over the set bits of `mask`. */
#define FOR_LANES(mask, l)                                                                                   \
  for (uint32_t m_##l = (mask), l = 0; m_##l && ((l = (uint32_t)__builtin_ctz(m_##l)), 1); m_##l &= m_##l - 1)
/* D[l] = EXPR for each lane `l` in `mask`. A full warp (the rule) goes through
 * a local array: neither loop touches memory the other could alias, so the
 * compiler can use vector instructions. */
#define ALL_LANES(mask, D, l, EXPR)                                                                          \
  do {                                                                                                       \
    if ((mask) == 0xFFFFFFFFu) {                                                                             \
      uint64_t r_[PTX_WARP_SIZE];                                                                            \
      for (uint32_t l = 0; l < PTX_WARP_SIZE; l++) r_[l] = (EXPR);                                           \
      for (uint32_t l = 0; l < PTX_WARP_SIZE; l++) (D)[l] = r_[l];                                           \
    } else {                                                                                                 \
      FOR_LANES(mask, l)(D)[l] = (EXPR);                                                                     \
    }                                                                                                        \
  } while (0)

/* Predicate operand value (constant predicates are encoded 0xFFFD=true, 0xFFFE=false). */
static inline uint32_t pred_val(const PtxWarp *w, uint16_t idx) {
  if (idx >= 0xFFF0u) return idx == 0xFFFDu ? 0xFFFFFFFFu : 0;
  return w->pf[idx];
}

static inline uint64_t mask_bytes(uint64_t v, int bytes) {
  return bytes >= 8 ? v : (v & ((1ull << (8 * bytes)) - 1));
}
static inline int64_t sext_bytes(uint64_t v, int bytes) {
  if (bytes >= 8) return (int64_t)v;
  int sh = 64 - 8 * bytes;
  return (int64_t)(v << sh) >> sh;
}
/* Lanes in a mask, without the libgcc call __builtin_popcount makes where the target
 * lacks a popcount instruction (the default x86-64 target). */
static inline uint32_t lane_count(uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  m = (m + (m >> 4)) & 0x0F0F0F0Fu;
  return (m * 0x01010101u) >> 24;
}
static inline float as_f32(uint64_t v) {
  float f;
  uint32_t u = (uint32_t)v;
  memcpy(&f, &u, 4);
  return f;
}
static inline double as_f64(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}
static inline uint64_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline uint64_t f64_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

void ptx_set_fault(PtxWarp *w, PtxFaultKind kind, uint32_t lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* FP16 (exec_cvt.c): a double to half bits with a PTX rounding mode, and back (exact). */
uint16_t ptx_to_half(double v, int rnd);
double ptx_from_half(uint16_t h);
/* Host memory of a lane's generic address [addr, addr + size) (no fault set), or NULL. */
uint8_t *ptx_lane_generic(PtxWarp *w, uint32_t lane, uint64_t addr, uint32_t size);

/* ---- float helpers ---- */
static inline float ftz32(float x) { return (x != 0.0f && fabsf(x) < FLT_MIN) ? copysignf(0.0f, x) : x; }
static inline float sat32(float x) { return isnan(x) ? 0.0f : (x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x)); }
static inline double sat64(double x) { return isnan(x) ? 0.0 : (x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x)); }
static inline float canon32(float x) { return isnan(x) ? as_f32(0x7FFFFFFFu) : x; }

/* Sets the host rounding mode for a PTX rounding modifier; returns the old one or -1. */
static inline int rnd_push(int mode) {
  int fm;
  switch (mode) { /* the integer modes (rni...) round explicitly; the FPU stays at nearest */
  case PTX_RND_RZ:
    fm = FE_TOWARDZERO;
    break;
  case PTX_RND_RM:
    fm = FE_DOWNWARD;
    break;
  case PTX_RND_RP:
    fm = FE_UPWARD;
    break;
  default:
    return -1;
  }
  int old = fegetround();
  fesetround(fm);
  return old;
}
static inline void rnd_pop(int old) {
  if (old >= 0) fesetround(old);
}

#define HANDLER(name) void name(PtxWarp *w, const PtxInst *in, uint32_t active)
/* in exec_alu.c, exec_cvt.c, exec_cmp.c (setp selp testp), exec_mem.c (mov to atom, warp), exec.c */
HANDLER(exec_int_unary);
HANDLER(exec_arith);
HANDLER(exec_logic);
HANDLER(exec_bits);
HANDLER(exec_fbinary);
HANDLER(exec_sfu);
HANDLER(exec_div);
HANDLER(exec_cvt);
HANDLER(exec_setp);
HANDLER(exec_selp);
HANDLER(exec_testp);
HANDLER(exec_mov);
HANDLER(exec_cvta);
HANDLER(exec_ld);
HANDLER(exec_st);
HANDLER(exec_atom);
HANDLER(exec_warp);
HANDLER(exec_bra);
HANDLER(exec_call);
HANDLER(exec_ret);
HANDLER(exec_exit);
HANDLER(exec_trap);
HANDLER(exec_bar);
HANDLER(exec_nop);
/* .f16 / .f16x2 forms of add sub mul fma neg abs min max setp (exec_half.c), and vprintf (printf.c). */
HANDLER(exec_half);
HANDLER(exec_vprintf);

/* setp's comparison of two floating-point values (f16, f32 and f64 widened to double): the
 * ordered ones are false and the unordered (..U, NAN) true when either is NaN. */
static inline int ptx_cmp_float(int op, double a, double b) {
  int un = isnan(a) || isnan(b);
  switch (op) {
  case PTX_CMP_EQ:
    return !un && a == b;
  case PTX_CMP_NE:
    return !un && a != b;
  case PTX_CMP_LT:
    return !un && a < b;
  case PTX_CMP_LE:
    return !un && a <= b;
  case PTX_CMP_GT:
    return !un && a > b;
  case PTX_CMP_GE:
    return !un && a >= b;
  case PTX_CMP_EQU:
    return un || a == b;
  case PTX_CMP_NEU:
    return un || a != b;
  case PTX_CMP_LTU:
    return un || a < b;
  case PTX_CMP_LEU:
    return un || a <= b;
  case PTX_CMP_GTU:
    return un || a > b;
  case PTX_CMP_GEU:
    return un || a >= b;
  case PTX_CMP_NUM:
    return !un;
  case PTX_CMP_NAN:
    return un;
  default:
    return 0;
  }
}

#endif
