/* t205_issue.c - GPGPU-Sim 3.2.2's per-warp multiple issue
 * (sm.max_insn_issue_per_warp; scheduler_unit::cycle): a scheduler may issue
 * the same warp's next I-buffer instruction in the cycle its first issued,
 * only if that one is decoded, passes the scoreboard (which already holds the
 * first one's destinations) and finds its unit free. Observed on one warp's
 * hand-built instruction streams (the I-buffer holds the 2 instructions of a
 * fetch): independent adds go two per cycle, a dependent chain and a stream
 * of loads/SFU operations do not; with 1 nothing changes. Skipping idle
 * cycles stays exact with it on. Which scheduler issues first (sched.first):
 * 3.2.2's fixed order lets scheduler 0 take a shared unit every time, so its
 * warp reaches a barrier first and idles there. The cycle counts are taken
 * without the operand collector stage (sm.reg_banks=0; t206 tests it). A warp that exits
 * with a load out is skipped by the issue scan while it drains, and its scheduler still counts
 * drain stalls; one whose I-buffer waits for a fill, I-buffer stalls. */
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

/* Which scheduler goes first (sched.first): two warps of one CTA, one per scheduler, each issue
 * 16 independent SFU operations and then bar.sync, in rounds; the second round (instructions
 * cached) is measured. The one SFU takes one every unit.sfu.ii = 3
 * cycles, so every third cycle both warps want it. rotate (GPGPU-Sim 4.x): the first scheduler
 * is cycle mod 2, the SFU frees on alternate parities, so the warps take turns and arrive at the
 * barrier 3 cycles apart. fixed (3.2.2's shader_core_ctx::issue, scheduler 0 first every cycle):
 * warp 0 takes every free slot, issues its 16 before warp 1 gets one, and waits at the barrier
 * for warp 1's 16 (16 x 3 = 48 cycles), its scheduler idle all that time; the kernel takes no
 * longer (the SFU is busy throughout either way). */
static const char sfu_bar_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry sfubar(.param .u64 buf, .param .u32 rounds)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .f32 %f<20>;\n"
    "  mov.f32 %f1, 0f3F800000;\n  mov.u32 %r1, 0;\n  ld.param.u32 %r2, [rounds];\n"
    "$L_round:\n"
    "  sin.approx.f32 %f2, %f1;\n  sin.approx.f32 %f3, %f1;\n  sin.approx.f32 %f4, %f1;\n"
    "  sin.approx.f32 %f5, %f1;\n  sin.approx.f32 %f6, %f1;\n  sin.approx.f32 %f7, %f1;\n"
    "  sin.approx.f32 %f8, %f1;\n  sin.approx.f32 %f9, %f1;\n  sin.approx.f32 %f10, %f1;\n"
    "  sin.approx.f32 %f11, %f1;\n  sin.approx.f32 %f12, %f1;\n  sin.approx.f32 %f13, %f1;\n"
    "  sin.approx.f32 %f14, %f1;\n  sin.approx.f32 %f15, %f1;\n  sin.approx.f32 %f16, %f1;\n"
    "  sin.approx.f32 %f17, %f1;\n  bar.sync 0;\n"
    "  add.u32 %r1, %r1, 1;\n  setp.lt.u32 %p1, %r1, %r2;\n  @%p1 bra $L_round;\n  ret;\n}\n"
    "//@warpsim regs sfubar 24\n";

/* The statistics of the second round alone: a run of 2 rounds minus a run of 1 (the first
 * round's instruction-cache misses hold both warps alike). */
static void second_round(const char *const *sets, uint64_t *wait, uint64_t *idle, uint64_t *cycles) {
  const uint32_t one = 1, two = 2;
  char *a = test_run_kernel(sets, sfu_bar_ptx, "sfubar", 64, &one, 1),
       *b = test_run_kernel(sets, sfu_bar_ptx, "sfubar", 64, &two, 1);
  CHECK(a && b);
  *wait = *idle = *cycles = 0;
  if (a && b) {
    const char *st = "\"sched_stall_cycles\"";
    *wait = test_json_u64(b, NULL, "barrier_wait_cycles") - test_json_u64(a, NULL, "barrier_wait_cycles");
    *idle = test_json_u64(b, st, "barrier") - test_json_u64(a, st, "barrier");
    *cycles = test_json_u64(b, NULL, "cycles") - test_json_u64(a, NULL, "cycles");
  }
  free(a);
  free(b);
}

static void test_scheduler_order(void) {
  /* rotate's turns depend on the cycle's parity when the measured round starts, which the first
   * round's instruction misses set: the simple crossbar's latencies give the parity derived above */
#define SFUBAR_SETS                                                                                          \
  "sm.reg_banks=0", "sm.mem_issue=unit", "unit.sfu.ii=3", "icnt.model=simple", "icnt.reply_hold=none"
  const char *rot[] = {SFUBAR_SETS, "sched.first=rotate", NULL},
             *fix[] = {SFUBAR_SETS, "sched.first=fixed", NULL}, *def[] = {SFUBAR_SETS, NULL};
#undef SFUBAR_SETS
  uint64_t wr, ir, cr, wf, iff, cf, wd, id, cd;
  second_round(rot, &wr, &ir, &cr);
  second_round(fix, &wf, &iff, &cf);
  second_round(def, &wd, &id, &cd);
  if (wf != 48 || wr != 3)
    fprintf(stderr,
            "second round: rotate wait %llu idle %llu cycles %llu; fixed wait %llu idle %llu cycles %llu\n",
            (unsigned long long)wr, (unsigned long long)ir, (unsigned long long)cr, (unsigned long long)wf,
            (unsigned long long)iff, (unsigned long long)cf);
  CHECK_EQ_U64(wr, 3); /* the warps take turns: 3 cycles apart */
  CHECK_EQ_U64(ir, 3);
  CHECK_EQ_U64(wf, 16 * 3); /* warp 0 first: it waits for all 16 of warp 1's */
  CHECK_EQ_U64(iff, 16 * 3);
  CHECK_EQ_U64(cf, cr);
  CHECK(wd == wf && id == iff && cd == cf); /* fixed (3.2.2) is the default */
}

/* A scheduler whose only warp has executed its exit while its load is still out counts drain
 * stalls until the load returns and the warp retires, also in the cycles its warp is skipped
 * (the issue scan does not evaluate a draining warp again, its scheduler still sees it): one
 * warp loads a word it never uses and exits; without the load it retires at once. */
static const char drain_ptx[] = ".version 9.0\n.target sm_75\n.address_size 64\n"
                                ".visible .entry drain(.param .u64 buf)\n{\n"
                                "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
                                "  ld.param.u64 %rd1, [buf];\n  cvta.to.global.u64 %rd2, %rd1;\n"
                                "  ld.global.u32 %r1, [%rd2];\n  ret;\n}\n"
                                "//@warpsim regs drain 8\n";
static const char nodrain_ptx[] = ".version 9.0\n.target sm_75\n.address_size 64\n"
                                  ".visible .entry drain(.param .u64 buf)\n{\n  ret;\n}\n"
                                  "//@warpsim regs drain 8\n";

static void test_drain_stalls(void) {
  const char *sets[] = {"sm.skip_idle_cycles=false", NULL};
  char *a = test_run_kernel(sets, drain_ptx, "drain", 32, NULL, 0),
       *b = test_run_kernel(sets, nodrain_ptx, "drain", 32, NULL, 0);
  CHECK(a && b);
  if (a && b) {
    const char *st = "\"sched_stall_cycles\"";
    const uint64_t da = test_json_u64(a, st, "drain"), db = test_json_u64(b, st, "drain"),
                   ca = test_json_u64(a, NULL, "cycles"), cb = test_json_u64(b, NULL, "cycles");
    if (da < db + 100)
      fprintf(stderr, "drain stalls: %llu with the load (cycles %llu), %llu without (%llu)\n",
              (unsigned long long)da, (unsigned long long)ca, (unsigned long long)db, (unsigned long long)cb);
    /* the load's round trip (hundreds of cycles on gtx480) is spent draining (269 of the 553
     * cycles the load adds; the rest fetches and issues it) */
    CHECK(da >= db + 100);
  }
  free(a);
  free(b);
}

/* A scheduler whose only warp waits for its I-buffer (each fetch of a straight-line stretch of code
 * misses the cold L1I) counts I-buffer stalls, also in the cycles the issue scan skips that warp (it
 * is evaluated again only once a fill comes: SmQuiesceMemo.skip_empty), and the other scheduler,
 * with no warp, counts no_warp: one warp, every cycle simulated. */
static void test_ibuffer_stalls(void) {
  char ptx[8192];
  int n = snprintf(ptx, sizeof ptx,
                   ".version 9.0\n.target sm_75\n.address_size 64\n"
                   ".visible .entry ib(.param .u64 buf)\n{\n  .reg .b32 %%r<4>;\n  .reg .b32 %%q<80>;\n");
  for (unsigned i = 0; i < 64; i++) n += snprintf(ptx + n, sizeof ptx - (size_t)n, ADD_INDEP, i, i);
  snprintf(ptx + n, sizeof ptx - (size_t)n, "  ret;\n}\n//@warpsim regs ib 80\n");
  const char *sets[] = {"sm.skip_idle_cycles=false", NULL};
  char *a = test_run_kernel(sets, ptx, "ib", 32, NULL, 0);
  CHECK(a != NULL);
  if (a) {
    const char *st = "\"sched_stall_cycles\"";
    const uint64_t ib = test_json_u64(a, st, "ibuffer"), nw = test_json_u64(a, st, "no_warp"),
                   issued = test_json_u64(a, NULL, "warp_insts"), cycles = test_json_u64(a, NULL, "cycles");
    if (ib < 200 || nw != cycles || ib + issued != cycles)
      fprintf(stderr, "I-buffer stalls %llu, no_warp %llu, issued %llu in %llu cycles\n",
              (unsigned long long)ib, (unsigned long long)nw, (unsigned long long)issued,
              (unsigned long long)cycles);
    CHECK(ib >= 200);         /* 8 cold misses of the L1I (64 instructions of 8 bytes, 128-byte lines) */
    CHECK_EQ_U64(nw, cycles); /* scheduler 1 has no warp; scheduler 0 has its warp to the end */
    CHECK_EQ_U64(ib + issued, cycles); /* (measured: 1350 + 65 in 1415) */
  }
  free(a);
}

int main(void) {
  TEST_RUN(test_independent_adds);
  TEST_RUN(test_dependent_chain);
  TEST_RUN(test_unit_busy);
  TEST_RUN(test_ldst_not_paired);
  TEST_RUN(test_multi_issue_stat);
  TEST_RUN(test_skip_idle_exact);
  TEST_RUN(test_scheduler_order);
  TEST_RUN(test_drain_stalls);
  TEST_RUN(test_ibuffer_stalls);
  return TEST_DONE();
}
