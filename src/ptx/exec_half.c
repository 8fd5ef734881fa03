/* exec_half.c - FP16 arithmetic: add, sub, mul, fma, neg, abs, min, max and setp on .f16
 * (a half in the low 16 bits of a register) and .f16x2 (two halves packed in 32 bits, each
 * lane computing both). Results are correctly rounded (round to nearest even unless the
 * instruction names .rz/.rm/.rp): sums and products of halves are exact in double, and fma
 * is rounded to odd in double first, so the final rounding to half is the only one. */
#include <math.h>

#include "exec_int.h"

/* a*b + c rounded to double with round-to-odd (the last bit set when inexact): rounding that
 * to 11 bits then equals rounding the exact value once. */
static double fma_odd(double a, double b, double c) {
  double p = a * b;                                            /* exact: 11 x 11 bits */
  double s = p + c, bp = s - c, e = (p - bp) + (c - (s - bp)); /* two-sum: s + e == p + c exactly */
  if (e == 0 || isinf(s) || isnan(s)) return s;
  /* truncate toward zero: step s back when it was rounded away from the exact value */
  if ((s > 0 && e < 0) || (s < 0 && e > 0)) s = nextafter(s, 0.0);
  uint64_t bits;
  memcpy(&bits, &s, 8);
  bits |= 1; /* odd: remembers that bits were lost */
  memcpy(&s, &bits, 8);
  return s;
}

static uint16_t half_op(const PtxInst *in, uint16_t ha, uint16_t hb, uint16_t hc) {
  double a = ptx_from_half(ha), b = ptx_from_half(hb);
  int rnd = in->mod >= PTX_RND_RN && in->mod <= PTX_RND_RP ? in->mod : PTX_RND_RN;
  uint16_t r;
  switch (in->op) {
  case PTX_OP_add:
    r = ptx_to_half(a + b, rnd);
    break;
  case PTX_OP_sub:
    r = ptx_to_half(a - b, rnd);
    break;
  case PTX_OP_mul:
    r = ptx_to_half(a * b, rnd);
    break;
  case PTX_OP_fma:
    r = ptx_to_half(fma_odd(a, b, ptx_from_half(hc)), rnd);
    break;
  case PTX_OP_neg:
    return ha ^ 0x8000;
  case PTX_OP_abs:
    return ha & 0x7FFF;
  case PTX_OP_min:
  case PTX_OP_max: { /* NaN loses to a number; -0 < +0 */
    if (isnan(a)) return isnan(b) ? 0x7FFF : hb;
    if (isnan(b)) return ha;
    int a_less = a < b || (a == b && (ha & 0x8000) && !(hb & 0x8000));
    return (in->op == PTX_OP_min) == a_less ? ha : hb;
  }
  default:
    return 0;
  }
  if (in->flags & PTX_F_SAT) { /* clamp to [0, 1], NaN to +0 */
    double v = ptx_from_half(r);
    if (v < 0 || v != v)
      r = 0;
    else if (v > 1)
      r = 0x3C00;
  }
  return r;
}

HANDLER(exec_half) {
  const uint64_t *A = REG(w, in->s[0]), *B = in->s[1] != PTX_NO_REG ? REG(w, in->s[1]) : A;
  if (in->op == PTX_OP_setp) {
    uint32_t r = 0;
    FOR_LANES(active, l)
    r |= (uint32_t)ptx_cmp_float(in->mod, ptx_from_half((uint16_t)A[l]), ptx_from_half((uint16_t)B[l])) << l;
    uint32_t q = ~r;
    if (in->mod2) {
      uint32_t c = pred_val(w, in->s[2]);
      if (in->flags & PTX_F_NEG_C) c = ~c;
      if (in->mod2 == PTX_BOOL_AND)
        r &= c, q &= c;
      else if (in->mod2 == PTX_BOOL_OR)
        r |= c, q |= c;
      else
        r ^= c, q ^= c;
    }
    w->pf[in->d[0]] = (w->pf[in->d[0]] & ~active) | (r & active);
    if ((in->flags & PTX_F_DUAL) && in->d[1] != PTX_NO_REG)
      w->pf[in->d[1]] = (w->pf[in->d[1]] & ~active) | (q & active);
    return;
  }
  const uint64_t *C = in->op == PTX_OP_fma ? REG(w, in->s[2]) : A;
  uint64_t *D = REG(w, in->d[0]);
  int h2 = (in->flags & PTX_F_H2) != 0;
  FOR_LANES(active, l) {
    uint64_t lo = half_op(in, (uint16_t)A[l], (uint16_t)B[l], (uint16_t)C[l]);
    if (h2)
      lo |= (uint64_t)half_op(in, (uint16_t)(A[l] >> 16), (uint16_t)(B[l] >> 16), (uint16_t)(C[l] >> 16))
            << 16;
    D[l] = lo;
  }
}
