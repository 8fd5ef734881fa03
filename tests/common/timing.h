/* timing.h - test helpers for the timing model: a runtime context with the
 * timing engine attached (as `warpsim run` does), on configs/gtx480.cfg plus
 * overrides. */
#ifndef WS_TEST_TIMING_H
#define WS_TEST_TIMING_H

#include "core/config.h"
#include "runtime/warpsim.h"
#include "sim/config_schema.h"
#include "sim/gpu.h"

typedef struct TestGpu {
  Config *cfg;
  Gpu *gpu;
  WsContext *ctx;
} TestGpu;

/* gtx480.cfg, then each "key=value" of sets (NULL-terminated, may be NULL).
 * Returns 0, or -1 with the reason on stderr (everything freed). */
int test_gpu_open(TestGpu *t, const char *const *sets);
/* The same from another preset file (e.g. "configs/ccws-gt200.cfg"). */
int test_gpu_open_preset(TestGpu *t, const char *preset, const char *const *sets);
void test_gpu_close(TestGpu *t);
/* Loads PTX text into t->ctx and looks up `entry`. Returns 0 or -1. */
int test_gpu_load(TestGpu *t, WsModule **mod, WsFunction **fn, const char *ptx, const char *entry);
/* Runs benchmarks `names` (NULL-terminated) at tiny, checked, in one timing
 * context on `preset` (NULL: configs/gtx480.cfg) plus `sets`; returns the
 * statistics JSON (malloc'd; NULL on error) and, if cycles is not NULL, the
 * GPU's cycles. A failed open or check is a test failure. */
char *test_run_benches(const char *preset, const char *const *sets, const char *const *names,
                       uint64_t *cycles);
/* Runs `entry` of `ptx` as one CTA of `threads` threads on gtx480.cfg plus `sets`, with
 * the parameters (a 4 KB device buffer, then `nargs` <= 4 u32 values from `args`; a kernel
 * reads as many as it declares); returns the statistics JSON (malloc'd; NULL on error). A
 * failed open, load or launch is a test failure. */
char *test_run_kernel(const char *const *sets, const char *ptx, const char *entry, uint32_t threads,
                      const uint32_t *args, int nargs);
/* The statistics JSON of the engine with the wall-time fields left out
 * (malloc'd; NULL on error). Two identical runs give identical strings. */
char *test_gpu_json(const TestGpu *t);
/* Whether two statistics JSONs (e.g. sm.skip_idle_cycles on and off) are identical; when
 * they differ, prints `what` and the first differing byte with 60 bytes of context around
 * it from each. Both must be non-NULL. */
int test_json_same(const char *what, const char *a, const char *b);
/* The number after "\"key\": " in a statistics JSON, searched from the first occurrence of
 * `from` (NULL: the start; e.g. "\"l1d\": {" or "\"policies\""); UINT64_MAX / NAN when absent. */
uint64_t test_json_u64(const char *json, const char *from, const char *key);
double test_json_f64(const char *json, const char *from, const char *key);
/* One thread, two rounds of: clock read, `n` copies of `body` (a printf format taking
 * (i + 2, i + 2)), the instruction `consume` that uses the chain's result, clock read;
 * returns the second round's cycles (instructions cached). Registers: %r<8>, %q<300>, %f<300>. */
uint64_t test_stream_cycles(const char *const *sets, const char *body, const char *consume, unsigned n);
/* Cycles that 64 more copies of `body` take (streams of 128 and 64). */
uint64_t test_cycles_per_64(const char *const *sets, const char *body, const char *consume);

#endif
