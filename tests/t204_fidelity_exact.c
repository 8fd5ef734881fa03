/* t204_fidelity_exact.c - the GPGPU-Sim 3.2.2 fidelity mechanisms
 * keep the engine's shortcuts exact: with sm.skip_idle_cycles=false every
 * statistic is identical, on benchmarks that exercise each of them - local
 * stores written back in the L1D (weather), the Fermi set-index hash (atax),
 * the CCWS preset (L1 hit latency 20, 16 MSHRs, 8 GDDR3 banks, a register
 * override that lets streamcluster launch; SMs without CTAs taking their
 * store acks) - and two runs are identical. */
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"
#include "bench.h"

TEST_GLOBALS;

/* Runs the benchmarks at `tiny` in one context; the statistics JSON (no wall time). */
static char *run_benches(const char *preset, const char *const *sets, const char *const *names) {
  return test_run_benches(preset, sets, names, NULL);
}

/* Skipping on (extra sets `on`) and off give the same JSON. */
static void check_same(const char *preset, const char *extra, const char *const *names) {
  const char *on[] = {extra, NULL}, *off[] = {extra, "sm.skip_idle_cycles=false", NULL};
  char *a = run_benches(preset, extra ? on : NULL, names),
       *b = run_benches(preset, extra ? off : off + 1, names);
  CHECK(a && b);
  char what[160];
  snprintf(what, sizeof what, "%s %s", preset, extra ? extra : "");
  if (a && b) CHECK(test_json_same(what, a, b));
  free(a);
  free(b);
}

static void test_local_writeback_exact(void) {
  const char *names[] = {"weather", NULL};
  check_same("configs/gtx480.cfg", NULL, names);
  /* the run writes local lines back (the mechanism is exercised) */
  char *j = run_benches("configs/gtx480.cfg", NULL, names);
  const char *l1 = j ? strstr(j, "\"l1d\": {") : NULL, *wb = l1 ? strstr(l1, "\"writebacks\": ") : NULL;
  CHECK(wb && strtoull(wb + 14, NULL, 10) > 0);
  free(j);
}

static void test_fermi_hash_exact(void) {
  const char *names[] = {"atax", NULL};
  check_same("configs/gtx480.cfg", "l1d.set_index=fermi", names);
}

static void test_ccws_preset_exact(void) {
  const char *names[] = {"kmeans", "streamcluster", NULL};
  check_same("configs/ccws-gt200.cfg", NULL, names);
  /* streamcluster's later launches use one SM: the others, without CTAs, must
   * still take their store acks (an L1 reply queue of 16 x 4 + 4 filled up
   * and stalled the reply network: a deadlock) */
  const char *sc[] = {"streamcluster", NULL};
  check_same("configs/ccws-gt200.cfg", "sched.policy=lrr", sc);
}

static void test_deterministic(void) {
  const char *names[] = {"weather", "streamcluster", NULL};
  char *a = run_benches("configs/ccws-gt200.cfg", NULL, names),
       *b = run_benches("configs/ccws-gt200.cfg", NULL, names);
  CHECK(a && b && !strcmp(a, b));
  free(a);
  free(b);
}

int main(void) {
  TEST_RUN(test_local_writeback_exact);
  TEST_RUN(test_fermi_hash_exact);
  TEST_RUN(test_ccws_preset_exact);
  TEST_RUN(test_deterministic);
  return TEST_DONE();
}
