/* t306_cawa.c - CAWA (criticality-aware warp acceleration): the CPL predictor (policy/warp/cpl.c), the
 * gcaws and caws schedulers (policy/warp/gcaws.c), the cpl observer and the
 * cacp / ship L1D policies (policy/cache/cacp.c).
 * CPL on hand-made issue streams: nInst over a loop's backward branch, a
 * forward branch, a not-taken branch and a non-branch jump; nStall; the
 * integer nInst * CPI_avg arithmetic; the critical warp of a CTA (cta_max and
 * sm_threshold), exited warps left out; the accuracy statistic (the warp that
 * finished last ranked slow or not); the verdict kept for a cycle follows an issue in that
 * cycle; the line table's growth past the L1D's lines (the same untracked count). gcaws: greedy first, then
 * nCrit descending, ties by age; the hint on the critical warp's memory requests; the greedy warp's time
 * slice (slice_ends = stall|memory|barrier): which of its waits hold its scheduler and which end the slice,
 * and on the simulator two warps on one scheduler and a 1-line L1D (refused cycles, and only the slice held
 * through a load's wait keeps the line for the reload). cacp on a 1-set 4-way cache: the partition CCBP
 * chooses, victims only within it (even with invalid ways in the other), CCBP learning from critical hits and
 * unlearning from non-critical reuse, saturation at counter_max, SHiP's insertion position; ship alone. caws:
 * a profile written by one run and read by a second; a missing profile, a kernel mismatch and a missing warp
 * are errors naming the key. On the simulator: benchmarks pass their checks under gcaws, cawa (gcaws + cacp)
 * and lrr + cpl + cacp, with identical statistics when the engine's shortcuts are off; the observer does not
 * change an lru run. The statistics of CAWA's Figures 2b, 3 and 4 on hand-made event streams: per-CTA
 * instruction-count disparity (a stale slot of an earlier CTA left out), the critical warp's scheduler wait
 * over its time and its stalls, critical-warp re-references (hit, merge, a miss after eviction, their reuse
 * distance bins; a new launch of the slot and a new kernel forget the history); on the simulator a lone warp
 * never waits on the scheduler. */
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"
#include "common/test.h"
#include "common/timing.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "policy/mem_req.h"
#include "policy/cache_policy.h"
#include "policy/registry.h"
#include "policy/warp/cpl.h"

TEST_GLOBALS;

/* ---- CPL alone ---- */
static Config *cfg_with(const char *const *sets) {
  Config *cfg = cfg_create();
  CHECK(cfg != NULL);
  for (int i = 0; cfg && sets && sets[i]; i++) CHECK(cfg_set(cfg, sets[i]) == 0);
  return cfg;
}

static int open_cpl(Cpl *c, Config *cfg) {
  char err[256] = "";
  WarpSchedEnv env = {
      .sm = 0, .nsched = 1, .max_warps = 4, .max_ctas = 2, .prefix = "sched.gcaws", .cfg = cfg};
  int rc = cpl_init(c, &env, err, sizeof err);
  if (rc) fprintf(stderr, "cpl_init: %s\n", err);
  CHECK(rc == 0);
  return rc;
}

static void cev(Cpl *c, SchedEventKind k, uint32_t slot, uint32_t cta, uint64_t cycle) {
  SchedEvent e = {.kind = k, .slot = slot, .cycle = cycle, .cta_slot = cta, .other_slot = -1};
  cpl_event(c, &e);
}
static void cissue(Cpl *c, uint32_t slot, uint64_t cycle, uint32_t pc, uint32_t next, WarpInstKind kind,
                   int taken) {
  WarpView v = {.slot = slot, .valid = 1};
  SchedIssue is = {.cycle = cycle, .pc = pc, .next_pc = next, .kind = (uint8_t)kind, .taken = (uint8_t)taken};
  cpl_issue(c, &v, &is);
}

static void test_cpl_arithmetic(void) {
  Config *cfg = cfg_with(NULL);
  Cpl c;
  if (open_cpl(&c, cfg)) {
    cfg_free(cfg);
    return;
  }
  cev(&c, SCHED_EV_WARP_LAUNCH, 0, 0, 0);
  cissue(&c, 0, 1, 0, 1, WINST_ALU, 0);    /* nInst -1, stall 0 (first issue one cycle after launch) */
  cissue(&c, 0, 5, 1, 2, WINST_ALU, 0);    /* -2, stall += 3 */
  cissue(&c, 0, 6, 2, 0, WINST_BRANCH, 1); /* loop back over pcs 0..2: -3 + 3 = 0 */
  CHECK_EQ_U64(c.w[0].ninst, 0);
  cissue(&c, 0, 7, 3, 8, WINST_BRANCH, 1); /* forward over 4 instructions: -1 - 4 = -5 */
  CHECK_EQ_U64(c.w[0].ninst, (uint64_t)-5);
  cissue(&c, 0, 9, 8, 9, WINST_BRANCH, 0); /* not taken: -6, stall += 1 */
  CHECK_EQ_U64(c.w[0].ninst, (uint64_t)-6);
  CHECK_EQ_U64(c.w[0].nstall, 4);
  CHECK_EQ_U64(c.w[0].committed, 5);
  /* nCrit = nInst * (elapsed / committed) + nStall = -6 * 20 / 5 + 4 */
  CHECK_EQ_U64(cpl_crit(&c, 0, 20), (uint64_t)(int64_t)-20);
  cissue(&c, 0, 10, 9, 3, WINST_ALU, 1); /* a jump that is not a branch (reconvergence): just -1 */
  CHECK_EQ_U64(c.w[0].ninst, (uint64_t)-7);
  CHECK_EQ_U64(cpl_crit(&c, 0, 30),
               (uint64_t)(int64_t)(-7 * 30 / 6 + 4)); /* -35 + 4, truncated toward zero */
  CHECK_EQ_U64(cpl_crit(&c, 3, 30), 0);               /* an empty slot */
  cissue(&c, 0, 10, 3, 4, WINST_ALU, 0);              /* a second issue in the same cycle adds no stall */
  CHECK_EQ_U64(c.w[0].nstall, 4);
  cpl_free(&c);
  cfg_free(cfg);
}

static void test_cpl_critical_warp(void) {
  const char *thr[] = {"sched.gcaws.critical=sm_threshold", NULL};
  for (int mode = 0; mode < 2; mode++) {
    Config *cfg = cfg_with(mode ? thr : NULL);
    Cpl c;
    if (open_cpl(&c, cfg)) {
      cfg_free(cfg);
      return;
    }
    CHECK(c.mode == (mode ? CPL_SM_THRESHOLD : CPL_CTA_MAX));
    for (uint32_t w = 0; w < 4; w++) cev(&c, SCHED_EV_WARP_LAUNCH, w, w / 2, 0);
    for (uint64_t t = 1; t <= 5; t++)
      cissue(&c, 0, t, 0, 1, WINST_ALU, 0); /* w0: nInst -5, no stall: -30 at 30 */
    cissue(&c, 1, 1, 0, 1, WINST_ALU, 0);   /* w1: -1 * 30 / 1 = -30, tie */
    CHECK_EQ_U64(cpl_crit(&c, 0, 30), (uint64_t)(int64_t)-30);
    CHECK_EQ_U64(cpl_crit(&c, 1, 30), (uint64_t)(int64_t)-30);
    cissue(&c, 1, 3, 1, 2, WINST_ALU, 0); /* w1: -2 * 30 / 2 + 1 = -29: now above w0 */
    CHECK_EQ_U64(cpl_crit(&c, 1, 30), (uint64_t)(int64_t)-29);
    if (!mode) {
      CHECK(!cpl_is_critical(&c, 0, 30));
      CHECK(cpl_is_critical(&c, 1, 30));
      CHECK(cpl_is_critical(&c, 2, 30)); /* CTA 1: both 0, the tie goes to the lower slot */
      CHECK(!cpl_is_critical(&c, 3, 30));
      /* an issue in the same cycle changes the verdict kept for the cycle: w0 jumps back over 51
       * instructions, nCrit 45 * 30 / 6 + 24 = 249 */
      cissue(&c, 0, 30, 50, 0, WINST_BRANCH, 1);
      CHECK_EQ_U64(cpl_crit(&c, 0, 30), 249);
      CHECK(cpl_is_critical(&c, 0, 30));
      CHECK(!cpl_is_critical(&c, 1, 30));
      cev(&c, SCHED_EV_WARP_EXIT, 1, 0, 31); /* an exited warp is no candidate: w0 is left */
      CHECK(cpl_is_critical(&c, 0, 32));
      CHECK(!cpl_is_critical(&c, 1, 32));
      /* the hint on a memory instruction */
      WarpView v = {.slot = 0, .valid = 1};
      SchedMemAnnot m = {.kind = WINST_GLOBAL_LOAD};
      cpl_annotate(&c, &v, &m);
      CHECK(m.hints & MEM_HINT_CRITICAL);
      v.slot = 3;
      m.hints = 0;
      cpl_annotate(&c, &v, &m);
      CHECK(!(m.hints & MEM_HINT_CRITICAL));
    } else { /* -30, -29, 0, 0 over the SM: normalised (x + 30) / 30 > 0.5 */
      CHECK(!cpl_is_critical(&c, 0, 30));
      CHECK(!cpl_is_critical(&c, 1, 30));
      CHECK(cpl_is_critical(&c, 2, 30));
      CHECK(cpl_is_critical(&c, 3, 30));
      cissue(&c, 0, 30, 50, 0, WINST_BRANCH, 1); /* w0 to 249 in the same cycle: the range is new */
      CHECK(cpl_is_critical(&c, 0, 30));
      CHECK(!cpl_is_critical(&c, 2, 30));
      CHECK(!cpl_is_critical(&c, 1, 30));
    }
    cpl_free(&c);
    cfg_free(cfg);
  }
}

static double stat_of(void (*fn)(void *, PolicyStats *), void *st, const char *name) {
  PolicyStats *s = policy_stats_create();
  policy_stats_begin_instance(s);
  fn(st, s);
  bool found = false;
  double v = policy_stats_total(s, name, &found);
  CHECK(found);
  policy_stats_free(s);
  return v;
}
static void cpl_stats_v(void *st, PolicyStats *s) { cpl_stats(st, s); }

/* Accuracy: CTA 0's last warp to finish ranked slow in its one sample, CTA
 * 1's not: 1 slow sample of 2. */
static void test_cpl_accuracy(void) {
  const char *sets[] = {"sched.gcaws.sample_period=100", NULL};
  Config *cfg = cfg_with(sets);
  Cpl c;
  if (open_cpl(&c, cfg)) {
    cfg_free(cfg);
    return;
  }
  for (uint32_t w = 0; w < 2; w++) cev(&c, SCHED_EV_WARP_LAUNCH, w, 0, 0);
  cev(&c, SCHED_EV_CTA_LAUNCH, 0, 0, 0);
  cissue(&c, 0, 1, 0, 1, WINST_ALU, 0); /* w0 ahead: lower nCrit */
  cissue(&c, 0, 2, 1, 2, WINST_ALU, 0);
  cissue(&c, 1, 50, 0, 1, WINST_ALU, 0); /* w1 stalled 49 cycles: higher */
  CHECK(cpl_next_tick(&c, 0) == 0 || cpl_next_tick(&c, 0) == 1);
  cpl_tick(&c, 100);
  CHECK_EQ_U64(cpl_next_tick(&c, 100), 200);
  cpl_tick(&c, 150); /* not due: no sample */
  CHECK_EQ_U64(c.w[1].samples, 1);
  CHECK_EQ_U64(c.w[1].slow_samples, 1);
  CHECK_EQ_U64(c.w[0].slow_samples, 0);
  cev(&c, SCHED_EV_WARP_EXIT, 0, 0, 160);
  cev(&c, SCHED_EV_WARP_EXIT, 1, 0, 170); /* w1 finishes last: the critical warp, ranked slow */
  cev(&c, SCHED_EV_CTA_EXIT, 0, 0, 170);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "cpl_accuracy_samples"), 1);
  CHECK(stat_of(cpl_stats_v, &c, "cpl_accuracy") == 1.0);
  /* CTA 1: the warp ranked high finishes first */
  for (uint32_t w = 2; w < 4; w++) cev(&c, SCHED_EV_WARP_LAUNCH, w, 1, 200);
  cev(&c, SCHED_EV_CTA_LAUNCH, 2, 1, 200);
  cissue(&c, 2, 201, 0, 1, WINST_ALU, 0);
  cissue(&c, 3, 260, 0, 1, WINST_ALU, 0);
  cpl_tick(&c, 300);
  cev(&c, SCHED_EV_WARP_EXIT, 3, 1, 310);
  cev(&c, SCHED_EV_WARP_EXIT, 2, 1, 320);
  cev(&c, SCHED_EV_CTA_EXIT, 2, 1, 320);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "cpl_ctas_scored"), 2);
  CHECK(stat_of(cpl_stats_v, &c, "cpl_accuracy") == 0.5);
  cpl_free(&c);
  cfg_free(cfg);
}

/* Critical-warp hit rate and zero-reuse critical lines from L1 events. */
static void test_cpl_line_stats(void) {
  Config *cfg = cfg_with(NULL);
  Cpl c;
  if (open_cpl(&c, cfg)) {
    cfg_free(cfg);
    return;
  }
  for (uint32_t w = 0; w < 2; w++) cev(&c, SCHED_EV_WARP_LAUNCH, w, 0, 0);
  cissue(&c, 0, 1, 0, 1, WINST_ALU, 0); /* w1 critical */
  SchedEvent e = {
      .kind = SCHED_EV_L1_MISS, .slot = 1, .cycle = 5, .cta_slot = 0, .line_addr = 0x1000, .other_slot = -1};
  cpl_event(&c, &e); /* critical miss: line tracked */
  e.line_addr = 0x2000;
  cpl_event(&c, &e);
  e.kind = SCHED_EV_L1_HIT, e.line_addr = 0x1000, e.slot = 0; /* hit by a non-critical warp: reused */
  cpl_event(&c, &e);
  e.slot = 1; /* a critical hit */
  cpl_event(&c, &e);
  e.kind = SCHED_EV_L1_EVICT, e.line_addr = 0x1000;
  cpl_event(&c, &e);
  e.line_addr = 0x2000; /* never reused */
  cpl_event(&c, &e);
  e.line_addr = 0x3000; /* not a critical line */
  cpl_event(&c, &e);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_lines_evicted"), 2);
  CHECK(stat_of(cpl_stats_v, &c, "crit_zero_reuse_fraction") == 0.5);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_l1d_accesses"), 3);
  CHECK(fabs(stat_of(cpl_stats_v, &c, "crit_l1d_hit_rate") - 1.0 / 3) < 1e-12);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "l1d_accesses"), 4);
  cpl_free(&c);
  cfg_free(cfg);
}

/* The line table starts at twice the L1D's lines and grows to its largest size when more critical
 * lines are tracked (lines a 4-line L1D cannot hold: only the table's capacity counts): it tracks
 * 768 at once at any size, the rest are untracked; a kernel's start empties it. */
static void test_cpl_line_table(void) {
  Config *cfg = cfg_with(NULL);
  Cpl c;
  char err[256] = "";
  WarpSchedEnv env = {.sm = 0,
                      .nsched = 1,
                      .max_warps = 4,
                      .max_ctas = 2,
                      .prefix = "sched.gcaws",
                      .cfg = cfg,
                      .l1d = {.sets = 2, .ways = 2, .line_size = 128}};
  CHECK(cpl_init(&c, &env, err, sizeof err) == 0);
  CHECK_EQ_U64(c.lmask + 1, 16);
  cev(&c, SCHED_EV_WARP_LAUNCH, 0, 0, 0); /* the only warp: critical */
  SchedEvent e = {.kind = SCHED_EV_L1_MISS, .slot = 0, .cycle = 5, .cta_slot = 0, .other_slot = -1};
  for (uint64_t i = 0; i < 800; i++) e.line_addr = 0x10000 + i * 128, cpl_event(&c, &e);
  CHECK_EQ_U64(c.lmask + 1, 1024);
  CHECK_EQ_U64(c.lcount, 768);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_lines_filled"), 800);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_lines_untracked"), 32);
  e.kind = SCHED_EV_L1_HIT, e.line_addr = 0x10000 + 5 * 128; /* found after the growth: reused */
  cpl_event(&c, &e);
  e.kind = SCHED_EV_L1_EVICT;
  for (uint64_t i = 0; i < 800; i++) e.line_addr = 0x10000 + i * 128, cpl_event(&c, &e);
  CHECK_EQ_U64(c.lcount, 0);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_lines_evicted"), 768);
  CHECK(fabs(stat_of(cpl_stats_v, &c, "crit_zero_reuse_fraction") - 767.0 / 768) < 1e-12);
  e.kind = SCHED_EV_L1_MISS, e.line_addr = 0x80; /* the table holds it again (lines tracked anew) */
  cpl_event(&c, &e);
  CHECK_EQ_U64(c.lcount, 1);
  cev(&c, SCHED_EV_KERNEL_BEGIN, UINT32_MAX, UINT32_MAX, 10);
  CHECK_EQ_U64(c.lmask + 1, 16);
  CHECK_EQ_U64(c.lcount, 0);
  e.kind = SCHED_EV_L1_EVICT; /* forgotten with the kernel */
  cpl_event(&c, &e);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_lines_evicted"), 768);
  cpl_free(&c);
  cfg_free(cfg);
}

static void cissue_w(Cpl *c, uint32_t slot, uint64_t cycle, uint32_t wait) {
  WarpView v = {.slot = slot, .valid = 1, .sched_wait = wait};
  SchedIssue is = {.cycle = cycle, .pc = 0, .next_pc = 1, .kind = (uint8_t)WINST_ALU};
  cpl_issue(c, &v, &is);
}

/* Fig. 2b and Fig. 4: CTA 0 (warps 0-2: 10, 8 and 5 instructions; warp 2
 * finishes last, ready but passed over for 30 of its 100 cycles), CTA 1 (one
 * warp: no disparity), CTA 0 again with warps 0 and 1 (4 instructions each:
 * slot 2 still holds CTA 0's earlier warp, which must not count). */
static void test_cpl_disparity_wait(void) {
  Config *cfg = cfg_with(NULL);
  Cpl c;
  if (open_cpl(&c, cfg)) {
    cfg_free(cfg);
    return;
  }
  cev(&c, SCHED_EV_CTA_LAUNCH, 0, 0, 0);
  for (uint32_t w = 0; w < 3; w++) cev(&c, SCHED_EV_WARP_LAUNCH, w, 0, 0);
  const uint32_t ninst[3] = {10, 8, 5}, wait[3] = {0, 10, 30};
  for (uint32_t w = 0; w < 3; w++)
    for (uint32_t i = 1; i <= ninst[w]; i++) cissue_w(&c, w, 10 * i, i == ninst[w] ? wait[w] : 0);
  /* w2: issues at 10..50: nStall = 9 + 4 * 9 = 45 */
  CHECK_EQ_U64(c.w[2].nstall, 45);
  cev(&c, SCHED_EV_WARP_EXIT, 0, 0, 60);
  cev(&c, SCHED_EV_WARP_EXIT, 1, 0, 80);
  cev(&c, SCHED_EV_WARP_EXIT, 2, 0, 100);
  cev(&c, SCHED_EV_CTA_EXIT, UINT32_MAX, 0, 100);
  CHECK(fabs(stat_of(cpl_stats_v, &c, "insn_disparity") - 0.5) < 1e-12);  /* (10 - 5) / 10 */
  CHECK(fabs(stat_of(cpl_stats_v, &c, "crit_sched_wait") - 0.3) < 1e-12); /* 30 of 100 cycles */
  CHECK(fabs(stat_of(cpl_stats_v, &c, "crit_sched_wait_of_stall") - 30.0 / 45) < 1e-12);
  CHECK(fabs(stat_of(cpl_stats_v, &c, "sched_wait") - 40.0 / 240) <
        1e-12); /* every warp: 0+10+30 of 60+80+100 */
  cev(&c, SCHED_EV_CTA_LAUNCH, 3, 1, 120);
  cev(&c, SCHED_EV_WARP_LAUNCH, 3, 1, 120);
  cissue_w(&c, 3, 121, 0);
  cev(&c, SCHED_EV_WARP_EXIT, 3, 1, 130);
  cev(&c, SCHED_EV_CTA_EXIT, UINT32_MAX, 1, 130);
  cev(&c, SCHED_EV_CTA_LAUNCH, 0, 0, 200);
  for (uint32_t w = 0; w < 2; w++) cev(&c, SCHED_EV_WARP_LAUNCH, w, 0, 200);
  for (uint32_t w = 0; w < 2; w++)
    for (uint32_t i = 1; i <= 4; i++) cissue_w(&c, w, 200 + i, 0);
  cev(&c, SCHED_EV_WARP_EXIT, 0, 0, 210);
  cev(&c, SCHED_EV_WARP_EXIT, 1, 0, 211);
  cev(&c, SCHED_EV_CTA_EXIT, UINT32_MAX, 0, 211);
  CHECK(fabs(stat_of(cpl_stats_v, &c, "insn_disparity") - 0.5 / 3) < 1e-12); /* 0.5, 0, 0 */
  CHECK(stat_of(cpl_stats_v, &c, "insn_disparity_max") == 0.5);
  cpl_free(&c);
  cfg_free(cfg);
}

/* Fig. 3: re-references of the critical warp (w1) and of another (w0). */
static void test_cpl_rerefs(void) {
  /* off by default (not reported); on, a power of 2 */
  Config *cfg = cfg_with(NULL);
  Cpl c;
  if (open_cpl(&c, cfg)) {
    cfg_free(cfg);
    return;
  }
  PolicyStats *ps = policy_stats_create();
  policy_stats_begin_instance(ps);
  cpl_stats(&c, ps);
  bool found = true;
  policy_stats_total(ps, "crit_rerefs", &found);
  CHECK(!found && c.hist == NULL);
  policy_stats_free(ps);
  cpl_free(&c);
  cfg_free(cfg);
  const char *bad[] = {"sched.gcaws.reuse_history=12", NULL};
  cfg = cfg_with(bad);
  char err[256] = "";
  WarpSchedEnv env = {
      .sm = 0, .nsched = 1, .max_warps = 4, .max_ctas = 2, .prefix = "sched.gcaws", .cfg = cfg};
  CHECK(cpl_init(&c, &env, err, sizeof err) != 0);
  CHECK_STR_CONTAINS(err, "reuse_history");
  CHECK_STR_CONTAINS(err, "power of 2");
  cfg_free(cfg);
  const char *on[] = {"sched.gcaws.reuse_history=8192", NULL};
  cfg = cfg_with(on);
  if (open_cpl(&c, cfg)) {
    cfg_free(cfg);
    return;
  }
  for (uint32_t w = 0; w < 2; w++) cev(&c, SCHED_EV_WARP_LAUNCH, w, 0, 0);
  cissue(&c, 0, 1, 0, 1, WINST_ALU, 0); /* w1 critical from here on */
  CHECK(cpl_is_critical(&c, 1, 5) && !cpl_is_critical(&c, 0, 5));
  SchedEvent e = {
      .kind = SCHED_EV_L1_MISS, .slot = 1, .cycle = 5, .cta_slot = 0, .line_addr = 0x1000, .other_slot = -1};
#define REQ(k, w, a) (e.kind = (k), e.slot = (w), e.line_addr = (a), cpl_event(&c, &e))
  REQ(SCHED_EV_L1_MISS, 1, 0x1000); /* 0: w1's first request to A */
  REQ(SCHED_EV_L1_MISS, 0, 0x2000); /* 1: w0's first to B */
  REQ(SCHED_EV_L1_HIT, 1, 0x1000);  /* 2: critical re-reference, distance 1, a hit */
  REQ(SCHED_EV_L1_HIT, 0, 0x1000);  /* 3: w0's first to A: not a re-reference */
  REQ(SCHED_EV_L1_MISS, 0, 0x2000); /* 4: w0 re-references B and misses (not critical) */
  for (uint32_t i = 0; i < 20; i++) REQ(SCHED_EV_L1_MISS, 0, 0x10000 + 128 * i); /* 5..24 */
  REQ(SCHED_EV_L1_MISS, 1, 0x1000);   /* 25: critical, distance 22, evicted in between */
  REQ(SCHED_EV_L1_BYPASS, 1, 0x1000); /* a bypass: no request of the L1D */
  REQ(SCHED_EV_L1_MERGE, 1, 0x1000);  /* 26: distance 0, on its way: not evicted */
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_rerefs"), 3);
  CHECK(fabs(stat_of(cpl_stats_v, &c, "crit_reref_evicted") - 1.0 / 3) < 1e-12);
  CHECK(stat_of(cpl_stats_v, &c, "reref_evicted") == 0.5); /* 2 misses of 4 re-references */
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_reref_dist_0_15"), 2);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_reref_evicted_dist_0_15"), 0);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_reref_dist_16_63"), 1);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_reref_evicted_dist_16_63"), 1);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_reref_dist_64_255"), 0);
  /* a new warp in slot 1 has no history; neither has anything after a new kernel */
  cev(&c, SCHED_EV_WARP_EXIT, 1, 0, 6);
  cev(&c, SCHED_EV_WARP_LAUNCH, 1, 0, 7);
  REQ(SCHED_EV_L1_HIT, 1, 0x1000);
  CHECK_EQ_U64(stat_of(cpl_stats_v, &c, "crit_rerefs"), 3);
  cev(&c, SCHED_EV_KERNEL_BEGIN, UINT32_MAX, UINT32_MAX, 8);
  REQ(SCHED_EV_L1_HIT, 0, 0x2000);
  REQ(SCHED_EV_L1_HIT, 1, 0x1000);
  CHECK(stat_of(cpl_stats_v, &c, "reref_evicted") == 0.5);
  REQ(SCHED_EV_L1_HIT, 0, 0x2000); /* the history starts again */
  CHECK(fabs(stat_of(cpl_stats_v, &c, "reref_evicted") - 2.0 / 5) < 1e-12);
#undef REQ
  cpl_free(&c);
  cfg_free(cfg);
}

/* On the simulator: a lone warp (pchase: one CTA of one thread per kernel)
 * never waits on the scheduler's choice; scalarprod's 8-warp CTAs do. */
static double json_num(const char *json, const char *key) {
  const char *p = json ? strstr(json, key) : NULL;
  return p ? strtod(p + strlen(key), NULL) : -1.0;
}
static void test_sched_wait_sim(void) {
  const char *sets[] = {"sched.policy=lrr", "sm.observers=cpl", NULL};
  const char *lone[] = {"pchase", NULL}, *many[] = {"scalarprod", NULL};
  uint64_t cy = 0;
  char *a = test_run_benches(NULL, sets, lone, &cy), *b = test_run_benches(NULL, sets, many, &cy);
  CHECK(a && b);
  CHECK(json_num(a, "\"sched_wait\": ") == 0.0);
  CHECK(json_num(a, "\"crit_sched_wait\": ") == 0.0);
  const double w = json_num(b, "\"sched_wait\": "), cw = json_num(b, "\"crit_sched_wait\": ");
  CHECK(w > 0.0 && w < 1.0);
  CHECK(cw > 0.0 && cw < 1.0);
  CHECK(json_num(b, "\"insn_disparity\": ") >= 0.0);
  free(a);
  free(b);
}

/* ---- gcaws's order ---- */
static void test_gcaws_order(void) {
  const WarpSchedPolicy *p = policy_find_warp("gcaws");
  CHECK(p != NULL);
  if (!p) return;
  Config *cfg = cfg_with(NULL);
  void *st = NULL;
  char err[256] = "";
  WarpSchedEnv env = {
      .sm = 0, .nsched = 1, .max_warps = 4, .max_ctas = 2, .prefix = "sched.gcaws", .cfg = cfg};
  CHECK(p->init(&st, &env, err, sizeof err) == 0);
  if (!st) {
    cfg_free(cfg);
    return;
  }
  WarpView v[4] = {0};
  for (uint32_t w = 0; w < 4; w++) {
    v[w] = (WarpView){.slot = w, .cta_slot = 0, .valid = 1, .age = 10 + (3 - w)}; /* slot 3 oldest */
    SchedEvent e = {.kind = SCHED_EV_WARP_LAUNCH, .slot = w, .cycle = 0, .cta_slot = 0, .other_slot = -1};
    p->on_event(st, &e);
  }
  if (p->on_warps_change) p->on_warps_change(st);
  /* nCrit at 40: w0 issued 4 times at once (-4*40/4 = -40), w1 once late (-1*40/1 + 19 = -21), w2 and w3
   * never (0) */
  for (uint64_t t = 1; t <= 4; t++) {
    SchedIssue is = {.cycle = t, .pc = 0, .next_pc = 1, .kind = WINST_ALU};
    p->on_issue(st, &v[0], &is);
  }
  SchedIssue is = {.cycle = 20, .pc = 0, .next_pc = 1, .kind = WINST_ALU};
  p->on_issue(st, &v[1], &is);
  uint32_t out[4];
  uint32_t n = p->order(st, 0, v, 4, -1, 40, out);
  CHECK_EQ_U64(n, 4);
  CHECK_EQ_U64(out[0], 3); /* 0 and 0: the older (slot 3) first */
  CHECK_EQ_U64(out[1], 2);
  CHECK_EQ_U64(out[2], 1);
  CHECK_EQ_U64(out[3], 0);
  n = p->order(st, 0, v, 4, 0, 40, out); /* greedy: the last issuer first */
  CHECK_EQ_U64(out[0], 0);
  CHECK_EQ_U64(out[1], 3);
  CHECK_EQ_U64(out[3], 1);
  v[2].valid = 0; /* a finished warp is not listed */
  SchedEvent x = {.kind = SCHED_EV_WARP_EXIT, .slot = 2, .cycle = 41, .cta_slot = 0, .other_slot = -1};
  p->on_event(st, &x);
  if (p->on_warps_change) p->on_warps_change(st);
  n = p->order(st, 0, v, 4, -1, 41, out);
  CHECK_EQ_U64(n, 3);
  CHECK_EQ_U64(out[0], 3);
  /* the critical warp of the CTA (slot 3) gets the hint */
  SchedMemAnnot m = {.kind = WINST_GLOBAL_LOAD};
  p->annotate(st, &v[3], &m);
  CHECK(m.hints & MEM_HINT_CRITICAL);
  m.hints = 0;
  p->annotate(st, &v[0], &m);
  CHECK(!(m.hints & MEM_HINT_CRITICAL));
  p->free(st);
  cfg_free(cfg);
}

/* ---- gcaws's time slice (sched.gcaws.slice_ends) ---- */
/* 4 warps on 2 schedulers (0, 2 on scheduler 0; 1, 3 on 1): once warp 0 issued,
 * may warp `w` issue, with warp 0 in state `v0`? */
static void test_gcaws_slice(void) {
  const WarpSchedPolicy *p = policy_find_warp("gcaws");
  CHECK(p != NULL && p->can_issue != NULL);
  if (!p || !p->can_issue) return;
  const char *modes[] = {"stall", "memory", "barrier"};
  for (int m = 0; m < 3; m++) {
    char set[64];
    snprintf(set, sizeof set, "sched.gcaws.slice_ends=%s", modes[m]);
    const char *sets[] = {set, NULL};
    Config *cfg = cfg_with(sets);
    WarpView v[4];
    for (uint32_t w = 0; w < 4; w++) v[w] = (WarpView){.slot = w, .cta_slot = 0, .valid = 1, .age = w};
    void *st = NULL;
    char err[256] = "";
    WarpSchedEnv env = {
        .nsched = 2, .max_warps = 4, .max_ctas = 2, .prefix = "sched.gcaws", .cfg = cfg, .views = v};
    CHECK(p->init(&st, &env, err, sizeof err) == 0);
    if (!st) {
      cfg_free(cfg);
      continue;
    }
    for (uint32_t w = 0; w < 4; w++) {
      SchedEvent e = {.kind = SCHED_EV_WARP_LAUNCH, .slot = w, .cycle = 0, .cta_slot = 0, .other_slot = -1};
      p->on_event(st, &e);
    }
    CHECK(p->can_issue(st, &v[2], WINST_GLOBAL_LOAD)); /* nobody issued yet: no slice */
    SchedIssue is = {.cycle = 5, .pc = 0, .next_pc = 1, .kind = WINST_ALU};
    p->on_issue(st, &v[0], &is);
    /* warp 0 waits on a short hazard (an ALU result), a busy unit, its I-buffer: its slice holds under memory
     * and barrier */
    const WarpWait shortw[] = {WARP_WAIT_SCOREBOARD, WARP_WAIT_UNIT, WARP_WAIT_EMPTY, WARP_WAIT_NONE};
    for (int k = 0; k < 4; k++) {
      v[0].wait = (uint8_t)shortw[k], v[0].long_pending = 0;
      CHECK(p->can_issue(st, &v[2], WINST_ALU) == (m == 0));
      CHECK(p->can_issue(st, &v[0], WINST_ALU)); /* the holder itself */
      CHECK(p->can_issue(st, &v[1], WINST_ALU) &&
            p->can_issue(st, &v[3], WINST_ALU)); /* the other scheduler */
    }
    /* waiting on a long-latency load ends it under memory, not under barrier */
    v[0].wait = WARP_WAIT_SCOREBOARD, v[0].long_pending = 1;
    CHECK(p->can_issue(st, &v[2], WINST_ALU) == (m != 2));
    /* a barrier, the drain and the exit end it in every mode */
    const WarpWait endw[] = {WARP_WAIT_BARRIER, WARP_WAIT_DRAIN, WARP_WAIT_EXITED};
    for (int k = 0; k < 3; k++) {
      v[0].wait = (uint8_t)endw[k];
      CHECK(p->can_issue(st, &v[2], WINST_ALU));
    }
    /* warp 2 issues: its slice now; warp 0 waits for it */
    v[0].wait = WARP_WAIT_NONE, v[2].wait = WARP_WAIT_SCOREBOARD, v[2].long_pending = 0;
    p->on_issue(st, &v[2], &is);
    CHECK(p->can_issue(st, &v[0], WINST_ALU) == (m == 0));
    /* warp 2 exits: a new warp in its slot holds nothing */
    SchedEvent x = {.kind = SCHED_EV_WARP_EXIT, .slot = 2, .cycle = 9, .cta_slot = 0, .other_slot = -1};
    p->on_event(st, &x);
    CHECK(p->can_issue(st, &v[0], WINST_ALU));
    p->free(st);
    cfg_free(cfg);
  }
  /* caws has no time slice */
  const WarpSchedPolicy *c = policy_find_warp("caws");
  CHECK(c && c->can_issue == NULL);
}

/* Two warps on one scheduler with a 1-line L1D: each runs a chain of k
 * dependent adds (short hazards), loads its own line, uses it and loads it
 * again. stall: the chains interleave and the other warp's load evicts the
 * line before its reload (no hit). memory: the slice holds through a chain
 * (ready warps refused) and ends at the load's wait: still no hit.
 * barrier: the slice also holds through the load's wait: each reload hits.
 * With sm.mem_issue = unit: on the collector path a load counts as pending (the view's
 * long_pending) only from when it reaches the LD/ST unit, and on this stream the memory slice
 * then holds through the load's wait as barrier's does (2 hits; 0 with unit). */
static const char sl_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry sl(.param .u64 buf, .param .u32 k)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n"
    "  ld.param.u64 %rd1, [buf];\n  ld.param.u32 %r4, [k];\n  mov.u32 %r5, 0;\n"
    "$L_chain:\n  add.u32 %r5, %r5, 1;\n  setp.lt.u32 %p1, %r5, %r4;\n  @%p1 bra $L_chain;\n"
    "  shl.b32 %r6, %r2, 7;\n  cvt.u64.u32 %rd2, %r6;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r7, [%rd3];\n  add.u32 %r8, %r7, %r5;\n"
    "  ld.global.u32 %r9, [%rd3];\n  add.u32 %r10, %r9, %r8;\n"
    "  ret;\n}\n"
    "//@warpsim regs sl 16\n";

static char *run_sl(const char *slice) {
  char set[64];
  snprintf(set, sizeof set, "sched.gcaws.slice_ends=%s", slice);
  const char *sets[] = {"sm.count=1",   "sched.count=1", "sched.policy=gcaws", set,
                        "l1d.size=128", "l1d.assoc=1",   "sm.mem_issue=unit",  NULL};
  const uint32_t k = 20;
  return test_run_kernel(sets, sl_ptx, "sl", 64, &k, 1);
}

static void test_gcaws_slice_sim(void) {
  const char *modes[] = {"stall", "memory", "barrier"};
  for (int m = 0; m < 3; m++) {
    char *j = run_sl(modes[m]);
    CHECK(j != NULL);
    if (!j) continue;
    const uint64_t hits = test_json_u64(j, "\"l1d\": {", "read_hits"),
                   misses = test_json_u64(j, "\"l1d\": {", "read_misses"),
                   refused = test_json_u64(j, "\"sched_stall_cycles\": {", "policy");
    CHECK_EQ_U64(hits, m == 2 ? 2 : 0); /* only a slice held through the load keeps the line for its reload */
    CHECK_EQ_U64(misses, m == 2 ? 2 : 4);
    CHECK(m == 0 ? refused == 0 : refused > 0); /* a ready warp refused while the other's slice holds */
    free(j);
  }
}

/* ---- cacp and ship on a 1-set cache ---- */
typedef struct PC {
  const CachePolicy *p;
  void *st;
  Config *cfg;
  uint8_t states[4];
} PC;

static int open_cache_policy(PC *c, const char *name, uint32_t ways, const char *const *sets) {
  memset(c, 0, sizeof *c);
  c->p = policy_find_cache(name);
  c->cfg = cfg_with(sets);
  CHECK(c->p != NULL);
  if (!c->p || !c->cfg) return -1;
  char prefix[64], err[256] = "";
  snprintf(prefix, sizeof prefix, "l1d.%s", name);
  CachePolicyEnv env = {
      .prefix = prefix, .cache = "l1d", .sets = 1, .ways = ways, .line_size = 128, .cfg = c->cfg};
  if (c->p->init(&c->st, &env, err, sizeof err)) {
    fprintf(stderr, "init: %s\n", err);
    CHECK(0);
    return -1;
  }
  return 0;
}
static void close_cache_policy(PC *c) {
  if (c->p && c->st) c->p->free(c->st);
  cfg_free(c->cfg);
}
/* A miss of (pc, line number): the victim the policy picks, evicting what was there and filling it. */
static uint32_t miss(PC *c, uint32_t ways, uint32_t pc, uint64_t line, int critical) {
  MemRequest r = {
      .pc = pc, .line_addr = line * 128, .addr = line * 128, .hints = critical ? MEM_HINT_CRITICAL : 0};
  CacheLine lines[4] = {0};
  uint32_t v = c->p->find_victim(c->st, 0, c->states, lines, &r);
  CHECK(v < ways);
  if (v >= ways) return v;
  if (c->states[v] == CACHE_LINE_VALID) {
    CacheEviction ev = {.set = 0, .way = v, .line = &lines[v], .reason = CACHE_EVICT_REPLACE, .by = &r};
    c->p->on_evict(c->st, &ev);
  }
  c->p->on_fill(c->st, 0, v, &r, 0);
  c->states[v] = CACHE_LINE_VALID;
  return v;
}
static void hit(PC *c, uint32_t way, uint32_t pc, uint64_t line, int critical) {
  MemRequest r = {.pc = pc, .line_addr = line * 128, .hints = critical ? MEM_HINT_CRITICAL : 0};
  c->p->on_hit(c->st, 0, way, &r, 0);
}
static void evict(PC *c, uint32_t way) {
  CacheLine l = {0};
  CacheEviction ev = {.set = 0, .way = way, .line = &l, .reason = CACHE_EVICT_INVALIDATE};
  c->p->on_evict(c->st, &ev);
  c->states[way] = CACHE_LINE_INVALID;
}
static double pstat(PC *c, const char *name) {
  PolicyStats *s = policy_stats_create();
  policy_stats_begin_instance(s);
  c->p->stats(c->st, s);
  double v = policy_stats_total(s, name, NULL);
  policy_stats_free(s);
  return v;
}

static void test_cacp_partition(void) {
  const char *sets[] = {"l1d.cacp.critical_ways=2", NULL};
  PC c;
  if (open_cache_policy(&c, "cacp", 4, sets)) {
    close_cache_policy(&c);
    return;
  }
  /* signature (pc ^ line) & 255: pc 1, lines 2, 258, 514, 770 all give 3 */
  CHECK_EQ_U64(miss(&c, 4, 1, 2, 1),
               2); /* CCBP[3] = 1 < 2: the non-critical partition, its first invalid way */
  CHECK_EQ_U64(miss(&c, 4, 1, 258, 0), 3);
  hit(&c, 2, 1, 2, 1); /* a critical warp reuses it: CCBP[3] = 2 */
  /* now the critical partition, though... */
  CHECK_EQ_U64(miss(&c, 4, 1, 514, 0), 0);
  CHECK_EQ_U64(miss(&c, 4, 1, 770, 0), 1);
  evict(&c, 3); /* ... with an invalid way in the other partition, the victim stays in [0, 2) */
  CHECK_EQ_U64(miss(&c, 4, 1, 1026, 0), 0); /* SRRIP: both at RRPV 2, aged to 3, the first */
  CHECK_EQ_U64(pstat(&c, "critical_partition_fills"), 3);
  CHECK_EQ_U64(pstat(&c, "noncritical_partition_fills"), 2);
  /* saturation: five more critical hits leave CCBP[3] at 3, so two un-learnings bring it below 2 */
  for (int i = 0; i < 5; i++) hit(&c, 2, 1, 2, 1);
  hit(&c, 0, 1, 1026, 0); /* way 0: critical partition, reused by a non-critical warp only */
  evict(&c, 0);           /* CCBP 3 -> 2 */
  CHECK_EQ_U64(miss(&c, 4, 1, 1282, 0), 0); /* still critical (and way 0 is invalid there) */
  hit(&c, 0, 1, 1282, 0);
  evict(&c, 0); /* CCBP 2 -> 1 */
  CHECK_EQ_U64(miss(&c, 4, 1, 1538, 0),
               3); /* below the threshold: the non-critical partition's invalid way */
  /* a critical-partition line reused by a critical warp does not un-learn */
  close_cache_policy(&c);
  /* a bad partition is refused */
  const char *bad[] = {"l1d.cacp.critical_ways=4", NULL};
  PC b;
  memset(&b, 0, sizeof b);
  b.p = policy_find_cache("cacp");
  b.cfg = cfg_with(bad);
  char err[256] = "";
  CachePolicyEnv env = {
      .prefix = "l1d.cacp", .cache = "l1d", .sets = 1, .ways = 4, .line_size = 128, .cfg = b.cfg};
  CHECK(b.p->init(&b.st, &env, err, sizeof err) != 0);
  CHECK_STR_CONTAINS(err, "critical_ways");
  cfg_free(b.cfg);
}

/* SHiP's insertion: a signature whose lines die unreused is inserted at RRPV
 * 3 and so goes first; ship alone (no partition). */
static void test_ship_insertion(void) {
  PC c;
  if (open_cache_policy(&c, "ship", 2, NULL)) {
    close_cache_policy(&c);
    return;
  }
  for (int i = 0; i < 5; i++) { /* sig 5 (pc 5, line 0) dies unreused 5 times: SHiP 3 -> 0, no lower */
    CHECK_EQ_U64(miss(&c, 2, 5, 0, 0), 0);
    evict(&c, 0);
  }
  CHECK_EQ_U64(miss(&c, 2, 6, 0, 0), 0);   /* sig 6: RRPV 2 */
  CHECK_EQ_U64(miss(&c, 2, 5, 0, 0), 1);   /* sig 5: RRPV 3 */
  CHECK_EQ_U64(miss(&c, 2, 7, 0, 0), 1);   /* the sig-5 line goes first, though way 0 is older */
  hit(&c, 1, 7, 0, 0);                     /* sig 7 reused: */
  CHECK_EQ_U64(miss(&c, 2, 6, 256, 0), 0); /* way 1 at RRPV 0 stays */
  CHECK_EQ_U64(pstat(&c, "hits"), 1);
  close_cache_policy(&c);
  /* the same five deaths under cacp bring SHiP[5] to 0 too: insertion at 3, victim within the partition */
  const char *sets[] = {"l1d.cacp.critical_ways=2", NULL};
  if (open_cache_policy(&c, "cacp", 4, sets)) {
    close_cache_policy(&c);
    return;
  }
  for (int i = 0; i < 5; i++) {
    CHECK_EQ_U64(miss(&c, 4, 5, 0, 0), 2);
    evict(&c, 2);
  }
  CHECK_EQ_U64(miss(&c, 4, 6, 0, 0), 2);
  CHECK_EQ_U64(miss(&c, 4, 5, 0, 0), 3);
  CHECK_EQ_U64(miss(&c, 4, 7, 0, 0), 3);
  close_cache_policy(&c);
}

/* ---- caws: a profile written, then read ---- */
static int run_one(const char *const *sets, const char *bench, char *log, size_t loglen, uint64_t *cycles) {
  TestGpu t;
  if (test_gpu_open(&t, sets)) return -1;
  FILE *f = tmpfile();
  BenchRun r = {t.ctx, BENCH_TINY, 1, f ? f : stderr, 0};
  int rc = bench_find(bench)->run(&r) == BENCH_PASS ? 0 : 1;
  if (cycles) *cycles = gpu_cycles(t.gpu);
  if (f) {
    rewind(f);
    size_t n = fread(log, 1, loglen - 1, f);
    log[n] = 0;
    fclose(f);
  }
  test_gpu_close(&t);
  return rc;
}

static void test_caws_profile(void) {
  char path[] = "/tmp/t306_caws_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  char sp[1100], mode_r[] = "sched.caws.mode=read", log[4096] = "";
  snprintf(sp, sizeof sp, "sched.caws.profile=%s", path);
  const char *w[] = {"sched.policy=caws", "sched.caws.mode=write", sp, NULL};
  const char *r[] = {"sched.policy=caws", mode_r, sp, NULL};
  const char *g[] = {"sched.policy=gto", NULL};
  uint64_t cw = 0, cr = 0, cg = 0;
  CHECK(run_one(w, "bfs", log, sizeof log, &cw) == 0);
  CHECK(run_one(g, "bfs", log, sizeof log, &cg) == 0);
  CHECK_EQ_U64(cw, cg); /* write mode schedules as gto */
  FILE *f = fopen(path, "r");
  char line[256];
  unsigned kernels = 0, entries = 0;
  while (f && fgets(line, sizeof line, f))
    kernels += !strncmp(line, "kernel ", 7), entries += line[0] >= '0' && line[0] <= '9';
  if (f) fclose(f);
  CHECK(kernels > 0);
  CHECK(entries > 0);
  CHECK(run_one(r, "bfs", log, sizeof log, &cr) == 0); /* read back: runs and passes */
  CHECK(cr != cg);                                     /* ordered by the profile, not as gto */
  /* another benchmark's kernels: a mismatch naming both */
  CHECK(run_one(r, "kmeans", log, sizeof log, NULL) != 0);
  CHECK_STR_CONTAINS(log, "caws profile");
  CHECK_STR_CONTAINS(log, "launch 0 was kernel");
  /* the right kernel but no entry for the warp */
  f = fopen(path, "w");
  if (f) fprintf(f, "# hand-made\nkernel 0 kmeans_assign\n"), fclose(f);
  CHECK(run_one(r, "kmeans", log, sizeof log, NULL) != 0);
  CHECK_STR_CONTAINS(log, "no entry for kernel kmeans_assign launch 0 CTA");
  f = fopen(path, "w");
  if (f) fprintf(f, "kernel 0 kmeans_assign\n0 0 x 12\n"), fclose(f);
  TestGpu t;
  CHECK(test_gpu_open(&t, r) != 0); /* a bad line is refused when the GPU is made */
  remove(path);
  CHECK(test_gpu_open(&t, r) != 0); /* so is a missing profile */
  const char *none[] = {"sched.policy=caws", mode_r, NULL};
  CHECK(test_gpu_open(&t, none) != 0);              /* and no profile named in read mode */
  const char *dflt[] = {"sched.policy=caws", NULL}; /* the defaults: write mode, no file: runs as gto */
  uint64_t cd = 0;
  CHECK(run_one(dflt, "bfs", log, sizeof log, &cd) == 0);
  CHECK_EQ_U64(cd, cg);
}

/* ---- on the simulator ---- */
static void test_benches_exact(void) {
  const char *names[] = {"kmeans", "bfs", "needle", NULL};
  const char *cfgs[][6] = {
      {"sched.policy=gcaws", "l1d.assoc=16", NULL},
      {"sched.policy=gcaws", "l1d.policy=cacp", "l1d.assoc=16", NULL},
      {"sched.policy=lrr", "sm.observers=cpl", "l1d.policy=cacp", "l1d.assoc=16", NULL},
  };
  for (int k = 0; k < 3; k++) {
    const char *off[7];
    int n = 0;
    for (; cfgs[k][n]; n++) off[n] = cfgs[k][n];
    off[n++] = "sm.skip_idle_cycles=false";
    off[n] = NULL;
    uint64_t c1 = 0, c2 = 0;
    char *a = test_run_benches(NULL, cfgs[k], names, &c1), *b = test_run_benches(NULL, off, names, &c2);
    CHECK(a && b);
    CHECK_EQ_U64(c1, c2);
    char what[160];
    snprintf(what, sizeof what, "config %d", k);
    if (a && b) CHECK(test_json_same(what, a, b));
    CHECK_STR_CONTAINS(a, "\"cpl_accuracy\"");
    if (k) CHECK_STR_CONTAINS(a, "\"critical_partition_fills\"");
    free(a);
    free(b);
  }
  /* the observer beside lru changes nothing but adds its statistics */
  const char *plain[] = {"sched.policy=lrr", "l1d.assoc=16", NULL};
  const char *obs[] = {"sched.policy=lrr", "l1d.assoc=16", "sm.observers=cpl", NULL};
  uint64_t c1 = 0, c2 = 0;
  char *a = test_run_benches(NULL, plain, names, &c1), *b = test_run_benches(NULL, obs, names, &c2);
  CHECK_EQ_U64(c1, c2);
  CHECK(a && b && strstr(b, "\"cpl_accuracy\"") && !strstr(a, "\"cpl_accuracy\""));
  free(a);
  free(b);
}

int main(void) {
  TEST_RUN(test_cpl_arithmetic);
  TEST_RUN(test_cpl_critical_warp);
  TEST_RUN(test_cpl_accuracy);
  TEST_RUN(test_cpl_line_stats);
  TEST_RUN(test_cpl_line_table);
  TEST_RUN(test_cpl_disparity_wait);
  TEST_RUN(test_cpl_rerefs);
  TEST_RUN(test_sched_wait_sim);
  TEST_RUN(test_gcaws_order);
  TEST_RUN(test_gcaws_slice);
  TEST_RUN(test_gcaws_slice_sim);
  TEST_RUN(test_cacp_partition);
  TEST_RUN(test_ship_insertion);
  TEST_RUN(test_caws_profile);
  TEST_RUN(test_benches_exact);
  return TEST_DONE();
}
