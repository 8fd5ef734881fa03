/* exec_cmp.c - PTX compares and selects: setp (integer and float comparisons, the
 * unordered float forms, the .and/.or/.xor combination with a predicate and the
 * dual-predicate result), selp and testp (float classes), exactly as the PTX ISA
 * defines them. */
#include <math.h>

#include "exec_int.h"

static inline int cmp_int(int op, int64_t a, int64_t b, uint64_t ua, uint64_t ub, int sgn) {
  switch (op) {
  case PTX_CMP_EQ:
    return ua == ub;
  case PTX_CMP_NE:
    return ua != ub;
  case PTX_CMP_LT:
    return sgn ? a < b : ua < ub;
  case PTX_CMP_LE:
    return sgn ? a <= b : ua <= ub;
  case PTX_CMP_GT:
    return sgn ? a > b : ua > ub;
  case PTX_CMP_GE:
    return sgn ? a >= b : ua >= ub;
  case PTX_CMP_LO:
    return ua < ub;
  case PTX_CMP_LS:
    return ua <= ub;
  case PTX_CMP_HI:
    return ua > ub;
  case PTX_CMP_HS:
    return ua >= ub;
  default:
    return 0;
  }
}

/* The compare bits of setp's lanes. Inlined with constant arguments (below),
 * the comparison's switch and the operand conversions fold out of the loop. */
static inline __attribute__((always_inline)) uint32_t setp_lanes(const uint64_t *A, const uint64_t *B,
                                                                 uint32_t active, int op, PtxType t,
                                                                 int bytes, int sgn, int ftz) {
  uint32_t r = 0;
  if (t == PTX_T_F32) {
    FOR_LANES(active, l) {
      float a = as_f32(A[l]), b = as_f32(B[l]);
      if (ftz) {
        a = ftz32(a);
        b = ftz32(b);
      }
      r |= (uint32_t)ptx_cmp_float(op, a, b) << l;
    }
  } else if (t == PTX_T_F64) {
    FOR_LANES(active, l) r |= (uint32_t)ptx_cmp_float(op, as_f64(A[l]), as_f64(B[l])) << l;
  } else if (bytes == 4 && !sgn) {
    FOR_LANES(active, l) r |= (uint32_t)cmp_int(op, 0, 0, (uint32_t)A[l], (uint32_t)B[l], 0) << l;
  } else {
    FOR_LANES(active, l)
    r |= (uint32_t)cmp_int(op, sext_bytes(A[l], bytes), sext_bytes(B[l], bytes), mask_bytes(A[l], bytes),
                           mask_bytes(B[l], bytes), sgn)
         << l;
  }
  return r;
}

HANDLER(exec_setp) {
  const uint64_t *A = REG(w, in->s[0]), *B = REG(w, in->s[1]);
  PtxType t = (PtxType)in->type;
  if (t == PTX_T_F16) {
    exec_half(w, in, active);
    return;
  }
  int bytes = ptx_type_bytes(t), sgn = ptx_type_is_signed(t), op = in->mod,
      ftz = (in->flags & PTX_F_FTZ) != 0;
  uint32_t r;
  /* The common s32 and f32 (no .ftz) comparisons get a loop each, the rest the general one. */
#define SETP_CASE(OP, T, BYTES, SGN)                                                                         \
  case OP:                                                                                                   \
    r = setp_lanes(A, B, active, OP, T, BYTES, SGN, 0);                                                      \
    break
#define SETP_OPS(T, BYTES, SGN)                                                                              \
  SETP_CASE(PTX_CMP_EQ, T, BYTES, SGN);                                                                      \
  SETP_CASE(PTX_CMP_NE, T, BYTES, SGN);                                                                      \
  SETP_CASE(PTX_CMP_LT, T, BYTES, SGN);                                                                      \
  SETP_CASE(PTX_CMP_LE, T, BYTES, SGN);                                                                      \
  SETP_CASE(PTX_CMP_GT, T, BYTES, SGN);                                                                      \
  SETP_CASE(PTX_CMP_GE, T, BYTES, SGN)
  if (t == PTX_T_S32) {
    switch (op) {
      SETP_OPS(PTX_T_S32, 4, 1);
    default:
      r = setp_lanes(A, B, active, op, t, bytes, sgn, ftz);
      break;
    }
  } else if (t == PTX_T_F32 && !ftz) {
    switch (op) {
      SETP_OPS(PTX_T_F32, 4, 0);
    default:
      r = setp_lanes(A, B, active, op, t, bytes, sgn, ftz);
      break;
    }
  } else {
    r = setp_lanes(A, B, active, op, t, bytes, sgn, ftz);
  }
#undef SETP_OPS
#undef SETP_CASE
  uint32_t q = ~r;
  if (in->mod2) {
    uint32_t c = pred_val(w, in->s[2]);
    if (in->flags & PTX_F_NEG_C) c = ~c;
    switch (in->mod2) {
    case PTX_BOOL_AND:
      r &= c;
      q &= c;
      break;
    case PTX_BOOL_OR:
      r |= c;
      q |= c;
      break;
    default:
      r ^= c;
      q ^= c;
      break;
    }
  }
  w->pf[in->d[0]] = (w->pf[in->d[0]] & ~active) | (r & active);
  if ((in->flags & PTX_F_DUAL) && in->d[1] != PTX_NO_REG)
    w->pf[in->d[1]] = (w->pf[in->d[1]] & ~active) | (q & active);
}

HANDLER(exec_selp) {
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]), *B = REG(w, in->s[1]);
  uint32_t c = pred_val(w, in->s[2]);
  if (in->flags & PTX_F_NEG_C) c = ~c;
  int bytes = ptx_type_bytes((PtxType)in->type);
  FOR_LANES(active, l) D[l] = mask_bytes((c >> l & 1) ? A[l] : B[l], bytes);
}

HANDLER(exec_testp) {
  const uint64_t *A = REG(w, in->s[0]);
  uint32_t r = 0;
  FOR_LANES(active, l) {
    double v = in->type == PTX_T_F32 ? (double)as_f32(A[l]) : as_f64(A[l]);
    int sub =
        in->type == PTX_T_F32 ? (fpclassify(as_f32(A[l])) == FP_SUBNORMAL) : (fpclassify(v) == FP_SUBNORMAL);
    int ok;
    switch (in->mod) {
    case 1:
      ok = isfinite(v);
      break;
    case 2:
      ok = isinf(v);
      break;
    case 3:
      ok = !isnan(v);
      break;
    case 4:
      ok = isnan(v);
      break;
    case 5:
      ok = isfinite(v) && v != 0 && !sub;
      break;
    default:
      ok = sub;
      break;
    }
    r |= (uint32_t)ok << l;
  }
  w->pf[in->d[0]] = (w->pf[in->d[0]] & ~active) | (r & active);
}
