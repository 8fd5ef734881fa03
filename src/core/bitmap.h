/* bitmap.h - sets of small integers (SM, port, partition ids) as arrays of
 * 64-bit words, and a loop over the members in a range that visits only set
 * bits. The loop reads each word once, before visiting its members: bits the
 * body clears or sets in a word already read do not change that visit.
 * Depends on nothing. */
#ifndef WS_BITMAP_H
#define WS_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

static inline uint32_t bitmap_words(uint32_t n) { return n / 64 + 1; }
static inline void bitmap_set(uint64_t *m, uint32_t i) { m[i / 64] |= 1ull << (i % 64); }
static inline void bitmap_clear(uint64_t *m, uint32_t i) { m[i / 64] &= ~(1ull << (i % 64)); }
static inline int bitmap_test(const uint64_t *m, uint32_t i) { return (int)(m[i / 64] >> (i % 64) & 1); }
/* Whether any of n members is in m. */
static inline bool bitmap_any(const uint64_t *m, uint32_t n) {
  for (uint32_t w = 0; w < bitmap_words(n); w++)
    if (m[w]) return true;
  return false;
}
/* Members of one word (no libgcc call where the target lacks a popcount instruction). */
static inline uint32_t bitmap_count(uint64_t b) {
  b = b - ((b >> 1) & 0x5555555555555555ull);
  b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
  b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return (uint32_t)((b * 0x0101010101010101ull) >> 56);
}

/* Word w of m restricted to the members in [lo, hi). */
static inline uint64_t bitmap_word_in(const uint64_t *m, uint32_t w, uint32_t lo, uint32_t hi) {
  uint64_t b = m[w];
  if (w == lo / 64) b &= ~0ull << (lo % 64);
  if ((w + 1) * 64 > hi) b &= (1ull << (hi % 64)) - 1; /* hi % 64 != 0 here: w * 64 < hi */
  return b;
}

/* for (i in m, lo <= i < hi, ascending) body */
#define BITMAP_FOREACH(i, m, lo, hi)                                                                         \
  for (uint32_t i##_w = (lo) / 64, i##_hi = (hi); i##_w * 64 < i##_hi; i##_w++)                              \
    for (uint64_t i##_b = bitmap_word_in((m), i##_w, (lo), i##_hi); i##_b; i##_b &= i##_b - 1)               \
      for (uint32_t i = i##_w * 64 + (uint32_t)__builtin_ctzll(i##_b), i##_1 = 1; i##_1; i##_1 = 0)

/* for (i in m, ascending) body, over the first `words` words whole: for a set
 * with no member beyond its last valid index (no range masks on the hot path).
 * m is evaluated once per word: pass a variable. */
#define BITMAP_FOREACH_ALL(i, m, words)                                                                      \
  for (uint32_t i##_w = 0, i##_n = (words); i##_w < i##_n; i##_w++)                                          \
    for (uint64_t i##_b = (m)[i##_w]; i##_b; i##_b &= i##_b - 1)                                             \
      for (uint32_t i = i##_w * 64 + (uint32_t)__builtin_ctzll(i##_b), i##_1 = 1; i##_1; i##_1 = 0)

#endif
