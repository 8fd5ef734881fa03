/* exec_alu.c - semantics of PTX integer, bit and float arithmetic instructions,
 * exactly as the PTX ISA defines them: rounding modes through the host FPU's
 * rounding control, .ftz and .sat explicitly, shift clamping, NaN rules of
 * min/max (conversions: exec_cvt.c; compares and selects: exec_cmp.c). */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "exec_int.h"
#include "ptx/approx.h"

/* The modifier leaves the host's round-to-nearest in place (rnd_push would return -1). */
static inline int rnd_is_nearest(int mode) {
  return mode != PTX_RND_RZ && mode != PTX_RND_RM && mode != PTX_RND_RP;
}

/* Float min/max: a NaN operand yields the other; -0 < +0. */
static inline double fminmax(double a, double b, int is_max) {
  if (isnan(a)) return b;
  if (isnan(b)) return a;
  if (a == b) return (signbit(a) != signbit(b)) ? (is_max ? fabs(a) : -fabs(a)) : a;
  return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

/* ---- integer helpers ---- */
static inline uint64_t umulhi64(uint64_t a, uint64_t b) {
  return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
static inline int64_t smulhi64(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }
static inline int64_t clamp_s32(int64_t v) {
  return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : v);
}

HANDLER(exec_int_unary) { /* abs, neg */
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]);
  PtxType t = (PtxType)in->type;
  int bytes = ptx_type_bytes(t);
  int neg = in->op == PTX_OP_neg;
  if (t == PTX_T_F16) {
    exec_half(w, in, active);
    return;
  }
  if (t == PTX_T_F32) {
    FOR_LANES(active, l) {
      uint32_t u = (uint32_t)A[l];
      if ((in->flags & PTX_F_FTZ) && (u & 0x7F800000u) == 0) u &= 0x80000000u;
      D[l] = neg ? (u ^ 0x80000000u) : (u & 0x7FFFFFFFu);
    }
  } else if (t == PTX_T_F64) {
    FOR_LANES(active, l) D[l] = neg ? (A[l] ^ 0x8000000000000000ull) : (A[l] & 0x7FFFFFFFFFFFFFFFull);
  } else {
    FOR_LANES(active, l) {
      int64_t v = sext_bytes(A[l], bytes);
      D[l] = mask_bytes((uint64_t)(neg ? -(uint64_t)v : (v < 0 ? -(uint64_t)v : (uint64_t)v)), bytes);
    }
  }
}

/* One f32 operation of float_arith, rounded through a volatile so that the
 * host rounding mode rnd_push() set applies and nothing is folded or contracted. */
static inline float f32_op(int op, float a, float b, float c) {
  volatile float r;
  switch (op) {
  case PTX_OP_add:
    r = a + b;
    break;
  case PTX_OP_sub:
    r = a - b;
    break;
  case PTX_OP_mul:
    r = a * b;
    break;
  case PTX_OP_fma:
  case PTX_OP_mad:
    r = fmaf(a, b, c);
    break;
  case PTX_OP_min:
    r = (float)fminmax(a, b, 0);
    break;
  case PTX_OP_max:
    r = (float)fminmax(a, b, 1);
    break;
  default:
    r = 0;
    break;
  }
  return r;
}

/* The canonical NaN of f32 results, on the bit pattern. */
static inline uint64_t canon32_bits(uint32_t u) { return (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFFFFFu : u; }

/* f32 add/sub/mul/fma rounded to nearest without .ftz or .sat, the common
 * case: the host rounds to nearest already, so nothing needs the volatile
 * that keeps other modes' operations after fesetround(), and a full warp
 * runs a plain loop over its 32 lanes. Cloned for hosts with FMA, where fmaf
 * is one instruction (the same correctly rounded result as the library's). */
#if defined(__x86_64__) && defined(__linux__) /* ifunc-based clones: x86-64 glibc */
#define FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define FMA_CLONES
#endif
FMA_CLONES static void f32_arith_rn(uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                                    int op, uint32_t active) {
/* ALL_LANES: a full warp's lanes can use vector instructions (the same IEEE
 * operations, lane by lane). */
#define F32_RN(EXPR) ALL_LANES(active, D, l, canon32_bits((uint32_t)f32_bits(EXPR)))
  switch (op) {
  case PTX_OP_add:
    F32_RN(as_f32(A[l]) + as_f32(B[l]));
    break;
  case PTX_OP_sub:
    F32_RN(as_f32(A[l]) - as_f32(B[l]));
    break;
  case PTX_OP_mul:
    F32_RN(as_f32(A[l]) * as_f32(B[l]));
    break;
  default:
    F32_RN(fmaf(as_f32(A[l]), as_f32(B[l]), as_f32(C[l])));
    break; /* fma, mad */
  }
#undef F32_RN
}

static void float_arith(PtxWarp *w, const PtxInst *in, uint32_t active) {
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]), *B = REG(w, in->s[1]);
  const uint64_t *C = in->nsrc > 2 ? REG(w, in->s[2]) : NULL;
  int op = in->op, ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0;
  if (in->type == PTX_T_F32 && !ftz && !sat && rnd_is_nearest(in->mod) &&
      (op == PTX_OP_add || op == PTX_OP_sub || op == PTX_OP_mul ||
       ((op == PTX_OP_fma || op == PTX_OP_mad) && C))) {
    f32_arith_rn(D, A, B, C, op, active);
    return;
  }
  int old = rnd_push(in->mod);
  if (in->type == PTX_T_F32) {
    /* the lane loop once per operation: OP is a constant in each expansion */
#define F32_LANES(OP)                                                                                        \
  FOR_LANES(active, l) {                                                                                     \
    float a = as_f32(A[l]), b = as_f32(B[l]), c = C ? as_f32(C[l]) : 0.0f;                                   \
    if (ftz) {                                                                                               \
      a = ftz32(a);                                                                                          \
      b = ftz32(b);                                                                                          \
      c = ftz32(c);                                                                                          \
    }                                                                                                        \
    float x = f32_op(OP, a, b, c);                                                                           \
    if (ftz) x = ftz32(x);                                                                                   \
    if (sat) x = sat32(x);                                                                                   \
    D[l] = f32_bits(canon32(x));                                                                             \
  }
    switch (op) {
    case PTX_OP_add:
      F32_LANES(PTX_OP_add);
      break;
    case PTX_OP_sub:
      F32_LANES(PTX_OP_sub);
      break;
    case PTX_OP_mul:
      F32_LANES(PTX_OP_mul);
      break;
    case PTX_OP_fma:
    case PTX_OP_mad:
      F32_LANES(PTX_OP_fma);
      break;
    case PTX_OP_min:
      F32_LANES(PTX_OP_min);
      break;
    case PTX_OP_max:
      F32_LANES(PTX_OP_max);
      break;
    default:
      F32_LANES(-1);
      break;
    }
#undef F32_LANES
  } else {
    FOR_LANES(active, l) {
      double a = as_f64(A[l]), b = as_f64(B[l]), c = C ? as_f64(C[l]) : 0.0;
      volatile double r;
      switch (op) {
      case PTX_OP_add:
        r = a + b;
        break;
      case PTX_OP_sub:
        r = a - b;
        break;
      case PTX_OP_mul:
        r = a * b;
        break;
      case PTX_OP_fma:
      case PTX_OP_mad:
        r = fma(a, b, c);
        break;
      case PTX_OP_min:
        r = fminmax(a, b, 0);
        break;
      case PTX_OP_max:
        r = fminmax(a, b, 1);
        break;
      default:
        r = 0;
        break;
      }
      double x = r;
      if (sat) x = sat64(x);
      D[l] = f64_bits(x);
    }
  }
  rnd_pop(old);
}

HANDLER(exec_arith) { /* add sub mul mad fma min max mul24 mad24 sad */
  PtxType t = (PtxType)in->type;
  if (t == PTX_T_F16) {
    exec_half(w, in, active);
    return;
  }
  if (t == PTX_T_F32 || t == PTX_T_F64) {
    float_arith(w, in, active);
    return;
  }
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]), *B = REG(w, in->s[1]);
  const uint64_t *C = in->nsrc > 2 ? REG(w, in->s[2]) : NULL;
  int bytes = ptx_type_bytes(t), sgn = ptx_type_is_signed(t), bits = bytes * 8;
  int sat = (in->flags & PTX_F_SAT) != 0;
  switch (in->op) {
  case PTX_OP_addc:
  case PTX_OP_subc:
  case PTX_OP_add:
  case PTX_OP_sub: {
    int sub = in->op == PTX_OP_sub || in->op == PTX_OP_subc;
    if ((in->flags & PTX_F_CC) || in->op == PTX_OP_addc || in->op == PTX_OP_subc) {
      /* carry chain: CF is the carry-out of add, the borrow of sub */
      int use_in = in->op == PTX_OP_addc || in->op == PTX_OP_subc;
      uint32_t cout = 0;
      FOR_LANES(active, l) {
        uint64_t a = mask_bytes(A[l], bytes), b = mask_bytes(B[l], bytes),
                 cin = use_in ? (w->carry >> l & 1) : 0;
        unsigned __int128 r = sub ? (unsigned __int128)a - b - cin : (unsigned __int128)a + b + cin;
        D[l] = mask_bytes((uint64_t)r, bytes);
        if (sub ? (b + cin > a || (cin && b == mask_bytes(~0ull, bytes))) : ((r >> bits) != 0))
          cout |= 1u << l;
      }
      if (in->flags & PTX_F_CC) w->carry = (w->carry & ~active) | cout;
      return;
    }
    if (sat) {
      FOR_LANES(active, l) {
        int64_t a = (int32_t)A[l], b = (int32_t)B[l];
        D[l] = (uint32_t)clamp_s32(sub ? a - b : a + b);
      }
    } else if (bytes == 4) {
      if (sub) {
        ALL_LANES(active, D, l, (uint32_t)(A[l] - B[l]));
      } else {
        ALL_LANES(active, D, l, (uint32_t)(A[l] + B[l]));
      }
    } else if (bytes == 8) { /* address arithmetic: no mask */
      if (sub) {
        ALL_LANES(active, D, l, A[l] - B[l]);
      } else {
        ALL_LANES(active, D, l, A[l] + B[l]);
      }
    } else {
      FOR_LANES(active, l) D[l] = mask_bytes(sub ? A[l] - B[l] : A[l] + B[l], bytes);
    }
    return;
  }
  case PTX_OP_mul:
  case PTX_OP_mad: {
    int mad = in->op == PTX_OP_mad;
    FOR_LANES(active, l) {
      uint64_t a = A[l], b = B[l], r;
      if (in->mod == PTX_MUL_WIDE) {
        r = sgn ? (uint64_t)(sext_bytes(a, bytes) * sext_bytes(b, bytes))
                : mask_bytes(a, bytes) * mask_bytes(b, bytes);
        if (mad) r += C[l];
        r = mask_bytes(r, bytes * 2);
      } else if (in->mod == PTX_MUL_HI) {
        if (bytes == 8)
          r = sgn ? (uint64_t)smulhi64((int64_t)a, (int64_t)b) : umulhi64(a, b);
        else
          r = sgn ? (uint64_t)((sext_bytes(a, bytes) * sext_bytes(b, bytes)) >> bits)
                  : (mask_bytes(a, bytes) * mask_bytes(b, bytes)) >> bits;
        if (mad && sat) {
          D[l] = (uint32_t)clamp_s32((int64_t)(int32_t)r + (int32_t)C[l]);
          continue;
        }
        if (mad) r += C[l];
        r = mask_bytes(r, bytes);
      } else {
        r = a * b;
        if (mad) r += C[l];
        r = mask_bytes(r, bytes);
      }
      D[l] = r;
    }
    return;
  }
  case PTX_OP_min:
  case PTX_OP_max: {
    int mx = in->op == PTX_OP_max;
    FOR_LANES(active, l) {
      uint64_t r;
      if (sgn) {
        int64_t a = sext_bytes(A[l], bytes), b = sext_bytes(B[l], bytes);
        r = (uint64_t)(mx ? (a > b ? a : b) : (a < b ? a : b));
      } else {
        uint64_t a = mask_bytes(A[l], bytes), b = mask_bytes(B[l], bytes);
        r = mx ? (a > b ? a : b) : (a < b ? a : b);
      }
      D[l] = mask_bytes(r, bytes);
    }
    return;
  }
  case PTX_OP_mul24:
  case PTX_OP_mad24:
    FOR_LANES(active, l) {
      int64_t a = sgn ? sext_bytes(A[l] & 0xFFFFFF, 3) : (int64_t)(A[l] & 0xFFFFFF);
      int64_t b = sgn ? sext_bytes(B[l] & 0xFFFFFF, 3) : (int64_t)(B[l] & 0xFFFFFF);
      uint64_t p = (uint64_t)(a * b);
      uint64_t r = in->mod == PTX_MUL_HI ? (p >> 16) : p;
      if (in->op == PTX_OP_mad24) r += C[l];
      D[l] = (uint32_t)r;
    }
    return;
  case PTX_OP_sad:
    FOR_LANES(active, l) {
      uint64_t d;
      if (sgn) {
        int64_t a = sext_bytes(A[l], bytes), b = sext_bytes(B[l], bytes);
        d = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
      } else {
        uint64_t a = mask_bytes(A[l], bytes), b = mask_bytes(B[l], bytes);
        d = a > b ? a - b : b - a;
      }
      D[l] = mask_bytes(d + C[l], bytes);
    }
    return;
  case PTX_OP_fma:
    ptx_set_fault(w, PTX_FAULT_UNSUPPORTED, 0, "fma on an integer type");
    return;
  }
}

HANDLER(exec_logic) { /* and or xor not cnot shl shr (incl. .pred forms) */
  if (in->type == PTX_T_PRED) {
    uint32_t a = pred_val(w, in->s[0]), b = in->nsrc > 1 ? pred_val(w, in->s[1]) : 0, r;
    switch (in->op) {
    case PTX_OP_and:
      r = a & b;
      break;
    case PTX_OP_or:
      r = a | b;
      break;
    case PTX_OP_xor:
      r = a ^ b;
      break;
    default:
      r = ~a;
      break; /* not, cnot */
    }
    w->pf[in->d[0]] = (w->pf[in->d[0]] & ~active) | (r & active);
    return;
  }
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]);
  const uint64_t *B = in->nsrc > 1 ? REG(w, in->s[1]) : NULL;
  int bytes = ptx_type_bytes((PtxType)in->type), bits = bytes * 8;
  switch (in->op) {
  case PTX_OP_and:
    FOR_LANES(active, l) D[l] = mask_bytes(A[l] & B[l], bytes);
    break;
  case PTX_OP_or:
    FOR_LANES(active, l) D[l] = mask_bytes(A[l] | B[l], bytes);
    break;
  case PTX_OP_xor:
    FOR_LANES(active, l) D[l] = mask_bytes(A[l] ^ B[l], bytes);
    break;
  case PTX_OP_not:
    FOR_LANES(active, l) D[l] = mask_bytes(~A[l], bytes);
    break;
  case PTX_OP_cnot:
    FOR_LANES(active, l) D[l] = mask_bytes(A[l], bytes) == 0;
    break;
  case PTX_OP_shl:
    FOR_LANES(active, l) {
      uint32_t s = (uint32_t)B[l];
      D[l] = s >= (uint32_t)bits ? 0 : mask_bytes(A[l] << s, bytes);
    }
    break;
  case PTX_OP_shr:
    if (ptx_type_is_signed((PtxType)in->type)) {
      FOR_LANES(active, l) {
        uint32_t s = (uint32_t)B[l];
        int64_t v = sext_bytes(A[l], bytes);
        D[l] = mask_bytes((uint64_t)(v >> (s >= (uint32_t)bits ? 63 : s)), bytes);
      }
    } else {
      FOR_LANES(active, l) {
        uint32_t s = (uint32_t)B[l];
        D[l] = s >= (uint32_t)bits ? 0 : (mask_bytes(A[l], bytes) >> s);
      }
    }
    break;
  }
}

static uint64_t brev64(uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
  return __builtin_bswap64(v);
}

HANDLER(exec_bits) { /* popc clz brev bfind bfe bfi prmt shf lop3 */
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]);
  const uint64_t *B = in->nsrc > 1 ? REG(w, in->s[1]) : NULL, *C = in->nsrc > 2 ? REG(w, in->s[2]) : NULL;
  const uint64_t *E = in->nsrc > 3 ? REG(w, in->s[3]) : NULL;
  PtxType t = (PtxType)in->type;
  int bytes = ptx_type_bytes(t), bits = bytes * 8;
  switch (in->op) {
  case PTX_OP_popc:
    FOR_LANES(active, l) D[l] = (uint64_t)__builtin_popcountll(mask_bytes(A[l], bytes));
    break;
  case PTX_OP_clz:
    FOR_LANES(active, l) {
      uint64_t v = mask_bytes(A[l], bytes);
      D[l] = v ? (uint64_t)(__builtin_clzll(v) - (64 - bits)) : (uint64_t)bits;
    }
    break;
  case PTX_OP_brev:
    FOR_LANES(active, l) D[l] = brev64(mask_bytes(A[l], bytes)) >> (64 - bits);
    break;
  case PTX_OP_bfind:
    FOR_LANES(active, l) {
      uint64_t v = mask_bytes(A[l], bytes);
      if (ptx_type_is_signed(t) && sext_bytes(v, bytes) < 0) v = mask_bytes(~v, bytes);
      uint32_t r = 0xFFFFFFFFu;
      if (v) {
        uint32_t pos = 63u - (uint32_t)__builtin_clzll(v);
        r = (in->flags & PTX_F_SHIFTAMT) ? (uint32_t)(bits - 1) - pos : pos;
      }
      D[l] = r;
    }
    break;
  case PTX_OP_bfe:
    FOR_LANES(active, l) {
      uint32_t pos = (uint32_t)B[l] & 0xFF, len = (uint32_t)C[l] & 0xFF, msb = (uint32_t)bits - 1;
      uint64_t a = mask_bytes(A[l], bytes), sbit = 0, d = 0;
      if (ptx_type_is_signed(t) && len) {
        uint32_t sb = pos + len - 1 > msb ? msb : pos + len - 1;
        sbit = (a >> sb) & 1;
      }
      for (uint32_t i = 0; i <= msb; i++) {
        uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
        d |= bit << i;
      }
      D[l] = d;
    }
    break;
  case PTX_OP_bfi:
    FOR_LANES(active, l) {
      uint32_t pos = (uint32_t)C[l] & 0xFF, len = (uint32_t)E[l] & 0xFF, msb = (uint32_t)bits - 1;
      uint64_t f = A[l], d = mask_bytes(B[l], bytes);
      for (uint32_t i = 0; i < len && pos + i <= msb; i++)
        d = (d & ~(1ull << (pos + i))) | (((f >> i) & 1) << (pos + i));
      D[l] = d;
    }
    break;
  case PTX_OP_prmt:
    FOR_LANES(active, l) {
      uint64_t tmp = (A[l] & 0xFFFFFFFFu) | ((B[l] & 0xFFFFFFFFu) << 32);
      uint32_t sel = (uint32_t)C[l], d = 0;
      for (int i = 0; i < 4; i++) {
        uint32_t s = (sel >> (4 * i)) & 0xF;
        uint32_t byte = (uint32_t)(tmp >> (8 * (s & 7))) & 0xFF;
        if (s & 8) byte = (byte & 0x80) ? 0xFF : 0;
        d |= byte << (8 * i);
      }
      D[l] = d;
    }
    break;
  case PTX_OP_shf:
    FOR_LANES(active, l) {
      uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], n = (uint32_t)C[l];
      n = (in->flags & PTX_F_CLAMP) ? (n > 32 ? 32 : n) : (n & 31);
      uint64_t v = ((uint64_t)b << 32) | a;
      D[l] = (in->flags & PTX_F_LEFT) ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
    }
    break;
  case PTX_OP_lop3:
    FOR_LANES(active, l) {
      uint64_t a = A[l], b = B[l], c = C[l], d = 0;
      uint32_t lut = (uint32_t)E[l] & 0xFF;
      for (int k = 0; k < 8; k++)
        if (lut >> k & 1) d |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
      D[l] = mask_bytes(d, bytes);
    }
    break;
  }
}

HANDLER(exec_fbinary) { /* copysign d, a, b: magnitude of b, sign of a */
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]), *B = REG(w, in->s[1]);
  if (in->type == PTX_T_F32) {
    FOR_LANES(active, l) D[l] = (B[l] & 0x7FFFFFFFu) | (A[l] & 0x80000000u);
  } else {
    FOR_LANES(active, l) D[l] = (B[l] & 0x7FFFFFFFFFFFFFFFull) | (A[l] & 0x8000000000000000ull);
  }
}

HANDLER(exec_sfu) { /* rcp sqrt rsqrt ex2 lg2 sin cos tanh */
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]);
  int ftz = (in->flags & PTX_F_FTZ) != 0, op = in->op;
  int old = rnd_push(in->mod);
  if (in->type == PTX_T_F32) {
    FOR_LANES(active, l) {
      float a = as_f32(A[l]);
      if (ftz) a = ftz32(a);
      volatile float r;
      switch (op) {
      case PTX_OP_rcp:
        r = 1.0f / a;
        break;
      case PTX_OP_sqrt:
        r = sqrtf(a);
        break;
      case PTX_OP_rsqrt:
        r = 1.0f / sqrtf(a);
        break;
      /* transcendentals: approx.c, not libm (the same bits on every host; one rounding to f32) */
      case PTX_OP_ex2:
        r = (float)ws_exp2(a);
        break;
      case PTX_OP_lg2:
        r = (float)ws_log2(a);
        break;
      case PTX_OP_sin:
        r = (float)ws_sin(a);
        break;
      case PTX_OP_cos:
        r = (float)ws_cos(a);
        break;
      default:
        r = (float)ws_tanh(a);
        break;
      }
      float x = r;
      if (ftz) x = ftz32(x);
      D[l] = f32_bits(canon32(x));
    }
  } else if (in->type == PTX_T_F64) {
    FOR_LANES(active, l) {
      double a = as_f64(A[l]);
      if (ftz && a != 0.0 && fabs(a) < DBL_MIN) a = copysign(0.0, a);
      volatile double r;
      switch (op) {
      case PTX_OP_rcp:
        r = 1.0 / a;
        break;
      case PTX_OP_sqrt:
        r = sqrt(a);
        break;
      case PTX_OP_rsqrt:
        r = 1.0 / sqrt(a);
        break;
      case PTX_OP_ex2:
        r = ws_exp2(a);
        break;
      case PTX_OP_lg2:
        r = ws_log2(a);
        break;
      case PTX_OP_sin:
        r = ws_sin(a);
        break;
      case PTX_OP_cos:
        r = ws_cos(a);
        break;
      default:
        r = ws_tanh(a);
        break;
      }
      D[l] = f64_bits(r);
    }
  } else {
    ptx_set_fault(w, PTX_FAULT_UNSUPPORTED, 0, "%s.%s is not supported", ptx_op_names[op],
                  ptx_type_name((PtxType)in->type));
  }
  rnd_pop(old);
}

HANDLER(exec_div) { /* div rem: integer x/0 gives all-ones quotient and the dividend as remainder */
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]), *B = REG(w, in->s[1]);
  PtxType t = (PtxType)in->type;
  int bytes = ptx_type_bytes(t), rem = in->op == PTX_OP_rem;
  if (t == PTX_T_F32 || t == PTX_T_F64) {
    if (rem) {
      ptx_set_fault(w, PTX_FAULT_UNSUPPORTED, 0, "rem on a float type");
      return;
    }
    int ftz = (in->flags & PTX_F_FTZ) != 0;
    int old = rnd_push(in->mod);
    if (t == PTX_T_F32) {
      FOR_LANES(active, l) {
        float a = as_f32(A[l]), b = as_f32(B[l]);
        if (ftz) {
          a = ftz32(a);
          b = ftz32(b);
        }
        volatile float r = a / b;
        float x = r;
        D[l] = f32_bits(canon32(ftz ? ftz32(x) : x));
      }
    } else {
      FOR_LANES(active, l) {
        volatile double r = as_f64(A[l]) / as_f64(B[l]);
        D[l] = f64_bits(r);
      }
    }
    rnd_pop(old);
    return;
  }
  FOR_LANES(active, l) {
    uint64_t r;
    if (ptx_type_is_signed(t)) {
      int64_t a = sext_bytes(A[l], bytes), b = sext_bytes(B[l], bytes);
      if (b == 0)
        r = rem ? (uint64_t)a : ~0ull;
      else if (b == -1)
        r = rem ? 0 : (uint64_t)0 - (uint64_t)a; /* INT_MIN / -1 wraps to INT_MIN */
      else
        r = (uint64_t)(rem ? a % b : a / b);
    } else {
      uint64_t a = mask_bytes(A[l], bytes), b = mask_bytes(B[l], bytes);
      r = b == 0 ? (rem ? a : ~0ull) : (rem ? a % b : a / b);
    }
    D[l] = mask_bytes(r, bytes);
  }
}
