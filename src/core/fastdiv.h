/* fastdiv.h - division by a divisor fixed at setup (cache set indexing,
 * partition interleaving): a shift for powers of 2, else a multiply by a
 * precomputed reciprocal, exact for dividends below 2^44 (addresses and line
 * numbers of the simulated memory), and a real division above that.
 * Depends on nothing. */
#ifndef WS_FASTDIV_H
#define WS_FASTDIV_H

#include <stdint.h>

typedef struct FastDiv {
  uint64_t d;     /* the divisor */
  uint64_t m;     /* floor(2^64 / d) + 1 when d is not a power of 2 and d < 2^20, else 0 */
  uint32_t shift; /* log2(d) when d is a power of 2 */
  int pow2;
} FastDiv;

static inline FastDiv fastdiv_make(uint64_t d) {
  FastDiv f = {.d = d ? d : 1};
  f.pow2 = !(f.d & (f.d - 1));
  if (f.pow2)
    while ((1ull << f.shift) < f.d) f.shift++;
  else if (f.d < (1ull << 20))
    f.m = UINT64_MAX / f.d + 1;
  return f;
}

/* n / d. With m = floor(2^64/d) + 1, n*m/2^64 exceeds n/d by less than
 * n/2^64, which cannot reach the next integer while n < 2^64/d: 2^44 keeps
 * that true for every d < 2^20. */
static inline uint64_t fastdiv_div(const FastDiv *f, uint64_t n) {
  if (f->pow2) return n >> f->shift;
  if (f->m && n < (1ull << 44)) return (uint64_t)(((unsigned __int128)n * f->m) >> 64);
  return n / f->d;
}
static inline uint64_t fastdiv_mod(const FastDiv *f, uint64_t n) { return n - fastdiv_div(f, n) * f->d; }

#endif
