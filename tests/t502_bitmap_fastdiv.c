/* t502_bitmap_fastdiv.c - the engine's helpers: bitmap loops visit exactly the
 * set members of a range in ascending order (also across words and when the
 * body clears bits), bitmap_count counts them, and fastdiv gives the same
 * quotient and remainder as the division it replaces for every divisor shape
 * (power of 2, small, large) and every dividend range (reciprocal path, the
 * 2^44 boundary, the fallback). */
#include <stdlib.h>

#include "common/test.h"
#include "core/bitmap.h"
#include "core/fastdiv.h"

TEST_GLOBALS;

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

static void test_bitmap_foreach(void) {
  enum { N = 200 };
  uint64_t m[bitmap_words(N)];
  for (int round = 0; round < 200; round++) {
    uint32_t n = 1 + (uint32_t)(next_rand() % N);
    memset(m, 0, sizeof m);
    int want[N] = {0};
    for (uint32_t i = 0; i < n; i++)
      if (next_rand() % 3 == 0) bitmap_set(m, i), want[i] = 1;
    uint32_t lo = (uint32_t)(next_rand() % (n + 1)), hi = lo + (uint32_t)(next_rand() % (n - lo + 1));
    int seen[N] = {0}, last = -1, ordered = 1;
    BITMAP_FOREACH(i, m, lo, hi) {
      seen[i]++;
      ordered &= (int)i > last;
      last = (int)i;
      bitmap_clear(m, i); /* the body may clear what it visits */
    }
    CHECK(ordered);
    for (uint32_t i = 0; i < n; i++) {
      int in = i >= lo && i < hi;
      CHECK_EQ_U64(seen[i], in ? want[i] : 0);
      CHECK_EQ_U64(bitmap_test(m, i), in ? 0 : want[i]);
    }
  }
}

static void test_bitmap_count(void) {
  const uint64_t fixed[] = {0, 1, ~0ull, 0x8000000000000000ull, 0x5555555555555555ull, 0xF0F0F0F00F0F0F0Full};
  for (int i = 0; i < 6; i++) CHECK_EQ_U64(bitmap_count(fixed[i]), __builtin_popcountll(fixed[i]));
  for (int i = 0; i < 10000; i++) {
    uint64_t x = next_rand() & next_rand();
    CHECK_EQ_U64(bitmap_count(x), __builtin_popcountll(x));
  }
}

static void check_div(uint64_t d, uint64_t n) {
  FastDiv f = fastdiv_make(d);
  CHECK_EQ_U64(fastdiv_div(&f, n), n / d);
  CHECK_EQ_U64(fastdiv_mod(&f, n), n % d);
}

static void test_fastdiv(void) {
  const uint64_t divs[] = {1,
                           2,
                           3,
                           5,
                           6,
                           7,
                           8,
                           12,
                           24,
                           100,
                           255,
                           256,
                           1000003,
                           (1u << 20) - 1,
                           1u << 20,
                           (1u << 20) + 1,
                           3000000007ull,
                           1ull << 40};
  const uint64_t edges[] = {0, 1, 2, (1ull << 44) - 1, 1ull << 44, (1ull << 44) + 1, 1ull << 63, UINT64_MAX};
  for (size_t i = 0; i < sizeof divs / sizeof *divs; i++) {
    uint64_t d = divs[i];
    for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) check_div(d, edges[e]);
    for (uint64_t k = 1; k < 64; k++) { /* around multiples of d near every power of 2 */
      uint64_t n = (1ull << (k % 44)) / d * d;
      check_div(d, n), check_div(d, n + 1), check_div(d, n ? n - 1 : 0);
    }
    for (int r = 0; r < 2000; r++) {
      uint64_t n = next_rand() >> (next_rand() % 64);
      check_div(d, n);
      check_div(d, n & ((1ull << 44) - 1));
    }
  }
  for (uint64_t d = 1; d < 300; d++)
    for (int r = 0; r < 200; r++) check_div(d, next_rand() % (1ull << 44));
}

int main(void) {
  TEST_RUN(test_bitmap_foreach);
  TEST_RUN(test_bitmap_count);
  TEST_RUN(test_fastdiv);
  return TEST_DONE();
}
