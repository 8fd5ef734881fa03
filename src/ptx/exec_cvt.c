/* exec_cvt.c - PTX cvt: conversions between integer, f16, f32 and f64 types with PTX rounding
 * modes, saturation and flush-to-zero, and the f16 encoding (ptx_to_half / ptx_from_half). */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "exec_int.h"

/* f32/f64 -> f16 bits with a PTX rounding mode (rn default); NaN -> 0x7FFF. */
uint16_t ptx_to_half(double v, int rnd) {
  if (isnan(v)) return 0x7FFF;
  uint16_t sign = signbit(v) ? 0x8000 : 0;
  double a = fabs(v), q;
  int neg = sign != 0, e;
#define HROUND(x)                                                                                            \
  (rnd == PTX_RND_RZ   ? trunc(x)                                                                            \
   : rnd == PTX_RND_RM ? (neg ? ceil(x) : floor(x))                                                          \
   : rnd == PTX_RND_RP ? (neg ? floor(x) : ceil(x))                                                          \
                       : nearbyint(x))
  if (isinf(a)) return sign | 0x7C00;
  if (a < ldexp(1.0, -14)) {
    q = HROUND(a * ldexp(1.0, 24));
    return (uint16_t)(sign | (uint16_t)q); /* q == 1024 is the smallest normal */
  }
  frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  e -= 1;       /* a = m' * 2^e, m' in [1, 2) */
  q = HROUND(a * ldexp(1.0, 10 - e));
#undef HROUND
  if (q >= 2048) {
    q = 1024;
    e++;
  }
  if (e + 15 >= 31) {
    int to_inf = rnd == PTX_RND_RZ ? 0 : rnd == PTX_RND_RM ? neg : rnd == PTX_RND_RP ? !neg : 1;
    return sign | (to_inf ? 0x7C00 : 0x7BFF);
  }
  return (uint16_t)(sign | (uint16_t)((e + 15) << 10) | (uint16_t)(q - 1024));
}

double ptx_from_half(uint16_t h) {
  int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}

/* Float -> integer with PTX saturation: NaN -> 0, clamp to the destination range. */
static uint64_t f2i(double v, PtxType dt, int rnd) {
  if (isnan(v)) return 0;
  switch (rnd) {
  case PTX_RND_RZI:
  case PTX_RND_RZ:
    v = trunc(v);
    break;
  case PTX_RND_RMI:
  case PTX_RND_RM:
    v = floor(v);
    break;
  case PTX_RND_RPI:
  case PTX_RND_RP:
    v = ceil(v);
    break;
  default:
    v = nearbyint(v);
    break;
  }
  int bytes = ptx_type_bytes(dt);
  if (ptx_type_is_signed(dt)) {
    double lo = -ldexp(1.0, bytes * 8 - 1), hi = ldexp(1.0, bytes * 8 - 1);
    if (v <= lo) return mask_bytes((uint64_t)(int64_t)lo, bytes);
    if (v >= hi)
      return mask_bytes((uint64_t)(hi == 9223372036854775808.0 ? INT64_MAX : (int64_t)hi - 1), bytes);
    return mask_bytes((uint64_t)(int64_t)v, bytes);
  }
  double hi = ldexp(1.0, bytes * 8);
  if (v <= 0) return 0;
  if (v >= hi) return mask_bytes(~0ull, bytes);
  return (uint64_t)v;
}

HANDLER(exec_cvt) {
  uint64_t *D = REG(w, in->d[0]);
  const uint64_t *A = REG(w, in->s[0]);
  PtxType dt = (PtxType)in->type, st = (PtxType)in->type2;
  int db = ptx_type_bytes(dt), sb = ptx_type_bytes(st);
  int ftz = (in->flags & PTX_F_FTZ) != 0, sat = (in->flags & PTX_F_SAT) != 0, rnd = in->mod2;
  int dfl = ptx_type_is_float(dt), sfl = ptx_type_is_float(st);
  if (dt == PTX_T_F16 || st == PTX_T_F16) {
    FOR_LANES(active, l) {
      double v;
      if (st == PTX_T_F16)
        v = ptx_from_half((uint16_t)A[l]);
      else if (st == PTX_T_F32)
        v = ftz ? ftz32(as_f32(A[l])) : as_f32(A[l]);
      else if (st == PTX_T_F64)
        v = as_f64(A[l]);
      else
        v = ptx_type_is_signed(st) ? (double)sext_bytes(A[l], sb) : (double)mask_bytes(A[l], sb);
      if (rnd >= PTX_RND_RNI)
        v = rnd == PTX_RND_RZI   ? trunc(v)
            : rnd == PTX_RND_RMI ? floor(v)
            : rnd == PTX_RND_RPI ? ceil(v)
                                 : nearbyint(v);
      if (dt == PTX_T_F16) {
        if (sat) v = sat64(v);
        D[l] = ptx_to_half(v, rnd >= PTX_RND_RNI ? PTX_RND_RN : rnd);
      } else if (dt == PTX_T_F32) {
        float x = (float)v;
        if (sat) x = sat32(x);
        D[l] = f32_bits(ftz ? ftz32(x) : x);
      } else if (dt == PTX_T_F64)
        D[l] = f64_bits(sat ? sat64(v) : v);
      else
        D[l] = f2i(v, dt, rnd);
    }
    return;
  }
  if (!dfl && !sfl) {
    FOR_LANES(active, l) {
      int64_t v = ptx_type_is_signed(st) ? sext_bytes(A[l], sb) : (int64_t)mask_bytes(A[l], sb);
      if (sat) {
        int ds = ptx_type_is_signed(dt);
        if (ds) {
          int64_t lo = db >= 8 ? INT64_MIN : -(1ll << (db * 8 - 1)),
                  hi = db >= 8 ? INT64_MAX : (1ll << (db * 8 - 1)) - 1;
          if (!ptx_type_is_signed(st) && sb == 8 && (uint64_t)v > (uint64_t)hi)
            v = hi;
          else if (v < lo)
            v = lo;
          else if (v > hi)
            v = hi;
        } else {
          uint64_t hi = mask_bytes(~0ull, db);
          if (ptx_type_is_signed(st) && v < 0)
            v = 0;
          else if ((uint64_t)v > hi)
            v = (int64_t)hi;
        }
      }
      D[l] = mask_bytes((uint64_t)v, db);
    }
    return;
  }
  if (!dfl) { /* float -> int */
    FOR_LANES(active, l) {
      double v = st == PTX_T_F32 ? (double)(ftz ? ftz32(as_f32(A[l])) : as_f32(A[l])) : as_f64(A[l]);
      D[l] = f2i(v, dt, rnd);
    }
    return;
  }
  int old = rnd_push(rnd);
  if (!sfl) { /* int -> float */
    FOR_LANES(active, l) {
      if (dt == PTX_T_F32) {
        volatile float r = ptx_type_is_signed(st) ? (float)sext_bytes(A[l], sb) : (float)mask_bytes(A[l], sb);
        float x = r;
        if (sat) x = sat32(x);
        D[l] = f32_bits(x);
      } else {
        volatile double r =
            ptx_type_is_signed(st) ? (double)sext_bytes(A[l], sb) : (double)mask_bytes(A[l], sb);
        double x = r;
        if (sat) x = sat64(x);
        D[l] = f64_bits(x);
      }
    }
    rnd_pop(old);
    return;
  }
  /* float -> float */
  FOR_LANES(active, l) {
    double v = st == PTX_T_F32 ? (double)(ftz ? ftz32(as_f32(A[l])) : as_f32(A[l])) : as_f64(A[l]);
    if (rnd >= PTX_RND_RNI) {
      switch (rnd) {
      case PTX_RND_RZI:
        v = trunc(v);
        break;
      case PTX_RND_RMI:
        v = floor(v);
        break;
      case PTX_RND_RPI:
        v = ceil(v);
        break;
      default:
        v = nearbyint(v);
        break;
      }
    }
    if (dt == PTX_T_F32) {
      volatile float r = (float)v;
      float x = r;
      if (ftz) x = ftz32(x);
      if (sat) x = sat32(x);
      D[l] = f32_bits(canon32(x));
    } else {
      if (sat) v = sat64(v);
      D[l] = f64_bits(v);
    }
  }
  rnd_pop(old);
}
