/* t205_issue.c - GPGPU-Sim 3.2.2's per-warp multiple issue
 * (sm.max_insn_issue_per_warp; scheduler_unit::cycle): a scheduler may issue
 * the same warp's next I-buffer instruction in the cycle its first issued,
 * only if that one is decoded, passes the scoreboard (which already holds the
 * first one's destinations) and finds its unit free. Observed on one warp's
 * hand-built instruction streams (the I-buffer holds the 2 instructions of a
 * fetch): independent adds go two per cycle, a dependent chain and a stream
 * of loads/SFU operations do not; with 1 nothing changes. Skipping idle
 * cycles stays exact with it on. The cycle counts are taken without the
 * operand collector stage (sm.reg_banks=0; t206 tests it). */
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"
#include "bench.h"

TEST_GLOBALS;

#define ADD_INDEP "  add.s32 %%q%u, %%r1, 1; // %u\n"
#define ADD_CHAIN "  add.s32 %%r1, %%r1, 1; // %u %u\n"
#define ADD_USE "add.s32 %r2, %r1, 0;"
#define SFU_INDEP "  sin.approx.f32 %%f%u, %%f1; // %u\n"
#define F_USE "add.f32 %f0, %f1, 0f00000000;"
#define LD_INDEP "  ld.global.u32 %%q%u, [%%rd4+16]; // %u\n"

/* without the operand collector stage (t206 covers it): issue alone; the memory instructions
 * issue only to a free LD/ST unit (sm.mem_issue = unit: the presets' collector path needs the stage) */
static const char *const one[] = {"sm.max_insn_issue_per_warp=1", "sm.reg_banks=0", "sm.mem_issue=unit",
                                  NULL};
static const char *const two[] = {"sm.max_insn_issue_per_warp=2", "sm.reg_banks=0", "sm.mem_issue=unit",
                                  NULL};

/* Independent adds: one per cycle, the I-buffer refilled when empty (2 every
 * 3 cycles: fetch at t, decoded t+1, issued t+1 and t+2, the next fetch at
 * t+2); dual issue takes both of a fetch in one cycle (2 every 2 cycles). */
static void test_independent_adds(void) {
  uint64_t a = test_cycles_per_64(one, ADD_INDEP, ADD_USE), b = test_cycles_per_64(two, ADD_INDEP, ADD_USE);
  if (a != 96 || b != 64)
    fprintf(stderr, "64 independent adds: %llu cycles single issue (96), %llu dual (64)\n",
            (unsigned long long)a, (unsigned long long)b);
  CHECK_EQ_U64(a, 96);
  CHECK_EQ_U64(b, 64);
}

/* A dependent chain: the second instruction waits on the first's result (the
 * scoreboard holds it from the first's issue): 4 cycles each either way. */
static void test_dependent_chain(void) {
  CHECK_EQ_U64(test_cycles_per_64(one, ADD_CHAIN, ADD_USE), 64 * 4);
  CHECK_EQ_U64(test_cycles_per_64(two, ADD_CHAIN, ADD_USE), 64 * 4);
}

/* Independent SFU operations: the one SFU unit takes one every unit.sfu.ii =
 * 4 cycles, so the second of a pair finds it busy: 4 cycles each either way. */
static void test_unit_busy(void) {
  CHECK_EQ_U64(test_cycles_per_64(one, SFU_INDEP, F_USE), 64 * 4);
  CHECK_EQ_U64(test_cycles_per_64(two, SFU_INDEP, F_USE), 64 * 4);
}

/* Independent loads: the LD/ST unit holds the first until it has sent its
 * request, so a pair never issues together: the same cycles either way. */
static void test_ldst_not_paired(void) {
  CHECK_EQ_U64(test_cycles_per_64(two, LD_INDEP, ADD_USE), test_cycles_per_64(one, LD_INDEP, ADD_USE));
}

/* The statistic: multi_issues counts the second instructions (0 with 1). */
static void test_multi_issue_stat(void) {
  const char *names[] = {"vecadd", NULL};
  char *a = test_run_benches(NULL, one, names, NULL), *b = test_run_benches(NULL, two, names, NULL);
  CHECK(a && b);
  if (a && b) {
    CHECK_STR_CONTAINS(a, "\"multi_issues\": 0,");
    CHECK(strstr(b, "\"multi_issues\": 0,") == NULL);
    CHECK(strstr(b, "\"multi_issues\": ") != NULL);
  }
  free(a);
  free(b);
}

/* Skipping idle cycles stays exact with dual issue (gtx480 and the CCWS preset, which sets 2). */
static void test_skip_idle_exact(void) {
  const char *names[] = {"kmeans", "bfs", NULL};
  const char *on[] = {"sm.max_insn_issue_per_warp=2", NULL},
             *off[] = {"sm.max_insn_issue_per_warp=2", "sm.skip_idle_cycles=false", NULL};
  char *a = test_run_benches(NULL, on, names, NULL), *b = test_run_benches(NULL, off, names, NULL);
  CHECK(a && b);
  if (a && b) CHECK(strcmp(a, b) == 0);
  free(a);
  free(b);
  const char *names2[] = {"streamcluster", NULL};
  const char *off2[] = {"sm.skip_idle_cycles=false", NULL};
  a = test_run_benches("configs/ccws-gt200.cfg", NULL, names2, NULL);
  b = test_run_benches("configs/ccws-gt200.cfg", off2, names2, NULL);
  CHECK(a && b);
  if (a && b) {
    CHECK(strcmp(a, b) == 0);
    CHECK(strstr(a, "\"multi_issues\": 0,") == NULL);
  }
  free(a);
  free(b);
}

int main(void) {
  TEST_RUN(test_independent_adds);
  TEST_RUN(test_dependent_chain);
  TEST_RUN(test_unit_busy);
  TEST_RUN(test_ldst_not_paired);
  TEST_RUN(test_multi_issue_stat);
  TEST_RUN(test_skip_idle_exact);
  return TEST_DONE();
}
