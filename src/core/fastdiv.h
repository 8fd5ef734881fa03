/* fastdiv.h - division by a divisor fixed at setup (cache set indexing,
 * partition interleaving): one compare and a multiply by a precomputed
 * reciprocal, exact for every dividend when the divisor is a power of 2 and
 * for dividends below 2^44 (addresses and line numbers of the simulated
 * memory) otherwise; a shift or a real division beyond that (and for 1).
 * Depends on nothing. */
#ifndef WS_FASTDIV_H
#define WS_FASTDIV_H

#include <stdint.h>

typedef struct FastDiv {
  uint64_t d;     /* the divisor */
  uint64_t m;     /* 2^(64-k) when d = 2^k > 1; floor(2^64 / d) + 1 when d is not a power of 2 and d < 2^20 */
  uint64_t lim;   /* dividends below it divide by the multiply: UINT64_MAX for d = 2^k > 1, 2^44 for the
                   * other d < 2^20, 0 (none) otherwise */
  uint32_t shift; /* log2(d) when d is a power of 2 */
  int pow2;
} FastDiv;

static inline FastDiv fastdiv_make(uint64_t d) {
  FastDiv f = {.d = d ? d : 1};
  f.pow2 = !(f.d & (f.d - 1));
  if (f.pow2) {
    while ((1ull << f.shift) < f.d) f.shift++;
    if (f.shift) f.m = 1ull << (64 - f.shift), f.lim = UINT64_MAX;
  } else if (f.d < (1ull << 20)) {
    f.m = UINT64_MAX / f.d + 1, f.lim = 1ull << 44;
  }
  return f;
}

/* n / d: one compare and a multiply for the usual divisors and dividends.
 * For d = 2^k the product is n * 2^(64-k), exact. Otherwise, with m =
 * floor(2^64/d) + 1, n*m/2^64 exceeds n/d by less than n/2^64, which cannot
 * reach the next integer while n < 2^64/d: 2^44 keeps that true for every
 * d < 2^20. */
static inline uint64_t fastdiv_div(const FastDiv *f, uint64_t n) {
  if (n < f->lim) return (uint64_t)(((unsigned __int128)n * f->m) >> 64);
  return f->pow2 ? n >> f->shift : n / f->d;
}
static inline uint64_t fastdiv_mod(const FastDiv *f, uint64_t n) { return n - fastdiv_div(f, n) * f->d; }

#endif
