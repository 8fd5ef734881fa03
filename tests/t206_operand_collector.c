/* t206_operand_collector.c - GPGPU-Sim 3.2.2's operand collector and
 * register banks (sm.reg_banks, sm.oc_*; opndcoll_rfu_t, register_bank()):
 * an issued instruction takes a collector unit, reads its register sources
 * one per cycle from banks (register + warp slot) mod banks, one read per
 * bank per cycle, and reaches its unit the cycle after its last read.
 * Observed on one warp's hand-built operand patterns: a dependent chain pays
 * 2 cycles per instruction for the stage; independent adds whose two sources
 * share a bank go at one read per cycle (2 cycles each) where sources in two
 * banks keep the issue rate; with one bank every read conflicts. Skipping
 * idle cycles stays exact with the collector (and dual issue) on; 0 banks
 * turns it off (with sm.mem_issue = unit: the presets' memory collector path needs
 * the stage). */
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"
#include "bench.h"

TEST_GLOBALS;

/* the kernel declares %r<8> first: registers %r0..%r7 are rows 0..7 */
#define ADD_CHAIN "  add.s32 %%r1, %%r1, 1; // %u %u\n"
#define ADD_USE "add.s32 %r2, %r1, 0;"
#define ADD_TWO_BANKS "  add.s32 %%q%u, %%r1, %%r2; // %u\n" /* rows 1, 2 */
#define ADD_ONE_BANK "  add.s32 %%q%u, %%r1, %%r3; // %u\n"  /* rows 1, 3: one bank of 2 */
#define ADD_SAME_REG "  add.s32 %%q%u, %%r1, %%r1; // %u\n"  /* one register read twice */

/* A dependent chain: issue at t, the source read at t+1, dispatch at t+2,
 * the result 4 cycles later: 6 cycles per add (4 without the stage). */
static void test_chain_pays_the_stage(void) {
  const char *off[] = {"sm.reg_banks=0", "sm.mem_issue=unit", NULL}, *on[] = {"sm.reg_banks=16", NULL};
  CHECK_EQ_U64(test_cycles_per_64(off, ADD_CHAIN, ADD_USE), 64 * 4);
  CHECK_EQ_U64(test_cycles_per_64(on, ADD_CHAIN, ADD_USE), 64 * 6);
}

/* Bank conflicts: with 2 banks, sources in rows 1 and 2 sit in two banks and
 * the adds keep the I-buffer's rate (2 every 3 cycles, as without the stage);
 * rows 1 and 3 share a bank, which serves one read per cycle: 2 cycles per
 * add. The same register read twice conflicts with itself; 1 bank: always. */
static void test_bank_conflicts(void) {
  const char *b2[] = {"sm.reg_banks=2", NULL}, *b1[] = {"sm.reg_banks=1", NULL},
             *off[] = {"sm.reg_banks=0", "sm.mem_issue=unit", NULL};
  uint64_t none = test_cycles_per_64(off, ADD_TWO_BANKS, ADD_USE),
           two = test_cycles_per_64(b2, ADD_TWO_BANKS, ADD_USE),
           same = test_cycles_per_64(b2, ADD_ONE_BANK, ADD_USE),
           self = test_cycles_per_64(b2, ADD_SAME_REG, ADD_USE),
           one = test_cycles_per_64(b1, ADD_TWO_BANKS, ADD_USE);
  fprintf(stderr,
          "64 adds: no collector %llu, 2 banks %llu, one shared bank %llu, same register %llu, 1 bank %llu "
          "cycles\n",
          (unsigned long long)none, (unsigned long long)two, (unsigned long long)same,
          (unsigned long long)self, (unsigned long long)one);
  CHECK_EQ_U64(none, 96);
  CHECK_EQ_U64(two, 96);
  CHECK_EQ_U64(same, 128);
  CHECK_EQ_U64(self, 128);
  CHECK_EQ_U64(one, 128);
}

/* The statistics: register reads and those that waited for their bank; none without the stage. */
static void test_stats(void) {
  const char *names[] = {"vecadd", NULL};
  const char *off[] = {"sm.reg_banks=0", "sm.mem_issue=unit", NULL}, *b1[] = {"sm.reg_banks=1", NULL};
  char *a = test_run_benches(NULL, off, names, NULL), *b = test_run_benches(NULL, NULL, names, NULL),
       *c = test_run_benches(NULL, b1, names, NULL);
  CHECK(a && b && c);
  if (a && b && c) {
    CHECK_STR_CONTAINS(a, "\"oc_register_reads\": 0, \"oc_bank_conflicts\": 0,");
    CHECK(strstr(b, "\"oc_register_reads\": 0,") == NULL);
    unsigned long long r16 = 0, c16 = 0, r1 = 0, c1 = 0;
    CHECK(sscanf(strstr(b, "\"oc_register_reads\""),
                 "\"oc_register_reads\": %llu, \"oc_bank_conflicts\": %llu", &r16, &c16) == 2);
    CHECK(sscanf(strstr(c, "\"oc_register_reads\""),
                 "\"oc_register_reads\": %llu, \"oc_bank_conflicts\": %llu", &r1, &c1) == 2);
    CHECK(r16 == r1 && r16 > 0); /* the same reads */
    CHECK(c1 > c16);             /* more of them wait with one bank */
  }
  free(a);
  free(b);
  free(c);
}

/* Skipping idle cycles stays exact with the collector and dual issue on. */
static void check_same(const char *preset, const char *const *sets, const char *const *names) {
  const char *off[8];
  size_t n = 0;
  for (; sets && sets[n]; n++) off[n] = sets[n];
  off[n] = "sm.skip_idle_cycles=false";
  off[n + 1] = NULL;
  char *a = test_run_benches(preset, sets, names, NULL), *b = test_run_benches(preset, off, names, NULL);
  CHECK(a && b);
  if (a && b) CHECK(test_json_same(names[0], a, b));
  free(a);
  free(b);
}

static void test_skip_idle_exact(void) {
  const char *gtx[] = {"kmeans", "bfs", "srad_v1", NULL}, *ccws[] = {"streamcluster", "kmeans", NULL};
  const char *dual[] = {"sm.max_insn_issue_per_warp=2", NULL};
  check_same(NULL, NULL, gtx);
  check_same(NULL, dual, gtx);
  check_same("configs/ccws-gt200.cfg", NULL, ccws);
}

int main(void) {
  TEST_RUN(test_chain_pays_the_stage);
  TEST_RUN(test_bank_conflicts);
  TEST_RUN(test_stats);
  TEST_RUN(test_skip_idle_exact);
  return TEST_DONE();
}
