/* test.h - the minimal unit-test harness of warpsim's tests.
 * A test file defines `static void test_xxx(void)` functions and a main that
 * calls TEST_RUN(test_xxx) for each, then returns TEST_DONE(). CHECK* record a
 * failure with file:line and continue. Output ends with "N passed, N failed". */
#ifndef WS_TEST_H
#define WS_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

extern int test_failures_; /* failures inside the current test */
extern int test_passed_, test_failed_;
extern const char *test_name_;

#define CHECK(cond)                                                                                          \
  do {                                                                                                       \
    if (!(cond)) {                                                                                           \
      test_failures_++;                                                                                      \
      fprintf(stderr, "%s:%d: %s: CHECK failed: %s\n", __FILE__, __LINE__, test_name_, #cond);               \
    }                                                                                                        \
  } while (0)

#define CHECK_EQ_U64(a, b)                                                                                   \
  do {                                                                                                       \
    uint64_t ta_ = (uint64_t)(a), tb_ = (uint64_t)(b);                                                       \
    if (ta_ != tb_) {                                                                                        \
      test_failures_++;                                                                                      \
      fprintf(stderr,                                                                                        \
              "%s:%d: %s: %s == %s failed: 0x%" PRIx64 " (%" PRIu64 ") vs 0x%" PRIx64 " (%" PRIu64 ")\n",    \
              __FILE__, __LINE__, test_name_, #a, #b, ta_, ta_, tb_, tb_);                                   \
    }                                                                                                        \
  } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                                                      \
  do {                                                                                                       \
    const char *th_ = (hay), *tn_ = (needle);                                                                \
    if (!th_ || !strstr(th_, tn_)) {                                                                         \
      test_failures_++;                                                                                      \
      fprintf(stderr, "%s:%d: %s: expected \"%s\" in \"%s\"\n", __FILE__, __LINE__, test_name_, tn_,         \
              th_ ? th_ : "(null)");                                                                         \
    }                                                                                                        \
  } while (0)

#define TEST_RUN(fn)                                                                                         \
  do {                                                                                                       \
    test_failures_ = 0;                                                                                      \
    test_name_ = #fn;                                                                                        \
    fn();                                                                                                    \
    if (test_failures_) {                                                                                    \
      test_failed_++;                                                                                        \
      fprintf(stderr, "FAIL %s\n", #fn);                                                                     \
    } else                                                                                                   \
      test_passed_++;                                                                                        \
  } while (0)

#define TEST_DONE() (printf("%d passed, %d failed\n", test_passed_, test_failed_), test_failed_ ? 1 : 0)

#define TEST_GLOBALS                                                                                         \
  int test_failures_, test_passed_, test_failed_;                                                            \
  const char *test_name_

/* Helpers shared by the functional tests (tests/common/testutil.c). */
#include "runtime/warpsim.h"
/* Path of a file in the source tree, relative to the repository root. */
const char *test_path(const char *rel);
/* Reads a whole file into a malloc'd NUL-terminated buffer (NULL on error). */
char *test_read_file(const char *path);
/* Creates a context, loads PTX text, and looks up kernel `entry`. Returns 0 on success. */
int test_load(WsContext **ctx, WsModule **mod, WsFunction **fn, const char *ptx, const char *entry);
/* Float bit helpers. */
static inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint64_t d2u(double f) {
  uint64_t u;
  memcpy(&u, &f, 8);
  return u;
}
static inline double u2d(uint64_t u) {
  double f;
  memcpy(&f, &u, 8);
  return f;
}

#endif
