/* t312_measures.c - the core's measuring observers (registry.def MEASURE) alone, on hand-made
 * events of one SM: barrier-phases (barrier and exit waits, RTRU per warp-phase, warp-cycles
 * resident; a release counts only the warps it names, and one naming none ends no phase),
 * warp-disparity (per CTA, (slowest - fastest) / slowest warp time: sum, bin, maximum, over two
 * CTA slots) and interwarp-hits (a hit counts when the line's allocating warp is another, or
 * none left). The numbers are worked out by hand below. */
#include <stdlib.h>

#include "common/test.h"
#include "policy/observer/barrier_phases.h"
#include "policy/observer/interwarp_hits.h"
#include "policy/observer/warp_disparity.h"

TEST_GLOBALS;

static void *make(const SmObserver *o) {
  WarpSchedEnv env = {.max_warps = 8, .max_ctas = 2};
  char err[128];
  void *st = NULL;
  CHECK(o->init(&st, &env, err, sizeof err) == 0);
  return st;
}

/* An event of `kind` at `cycle` about warp slot `slot` of CTA slot `cs` (nwarps: CTA events). */
static void ev(const SmObserver *o, void *st, SchedEventKind kind, uint64_t cycle, uint32_t slot, uint32_t cs,
               uint32_t nwarps, const uint64_t *warps) {
  SchedEvent e = {.kind = kind,
                  .slot = slot,
                  .cycle = cycle,
                  .cta_slot = cs,
                  .other_slot = -1,
                  .nwarps = nwarps,
                  .warps = warps};
  CHECK(o->hints && (o->hints->events & SCHED_EV_BIT(kind)));
  o->on_event(st, &e);
}

/* One CTA of three warps (slots 0-2) launched at 100: they arrive at 110, 130 and 150 (the last
 * releases all three: 40 + 20 + 0 = 60 warp-cycles waited, RTRU 60 / (3 * 50) = 0.4), then retire
 * at 160, 170 and 200 (exit waits 40 + 30 + 0 = 70, RTRU 70 / (3 * 50)); resident 3 * 100. */
static void test_barrier_phases(void) {
  const SmObserver *o = &observer_barrier_phases;
  void *st = make(o);
  if (!st) return;
  const uint64_t all = 0x7, none = 0;
  ev(o, st, SCHED_EV_CTA_LAUNCH, 100, 0, 0, 3, NULL);
  ev(o, st, SCHED_EV_BARRIER_ARRIVE, 110, 0, 0, 0, NULL);
  ev(o, st, SCHED_EV_BARRIER_ARRIVE, 130, 1, 0, 0, NULL);
  ev(o, st, SCHED_EV_BARRIER_RELEASE, 140, 1, 0, 0, &none); /* frees nobody: no phase */
  ev(o, st, SCHED_EV_BARRIER_ARRIVE, 150, 2, 0, 0, NULL);
  ev(o, st, SCHED_EV_BARRIER_RELEASE, 150, 2, 0, 0, &all);
  for (uint32_t w = 0; w < 3; w++) ev(o, st, SCHED_EV_WARP_EXIT, w == 2 ? 200 : 160 + 10 * w, w, 0, 0, NULL);
  ev(o, st, SCHED_EV_CTA_EXIT, 200, UINT32_MAX, 0, 3, NULL);
  BarrierPhaseCounts n = {0};
  barrier_phases_counts_add(&n, st);
  barrier_phases_counts_add(&n, st); /* counts add up over SMs */
  CHECK_EQ_U64(n.barrier_phases, 2);
  CHECK_EQ_U64(n.barrier_wait_cycles, 2 * 60);
  CHECK_EQ_U64(n.barrier_rtru_e6_sum, 2 * 400000);
  CHECK_EQ_U64(n.exit_phases, 2);
  CHECK_EQ_U64(n.exit_wait_cycles, 2 * 70);
  CHECK_EQ_U64(n.exit_rtru_e6_sum, 2 * 466667);
  CHECK_EQ_U64(n.warp_resident_cycles, 2 * 300);
  CHECK_EQ_U64(barrier_phases_rtru_e6(1, 3, 1), 333333); /* rounded to millionths */
  CHECK_EQ_U64(barrier_phases_rtru_e6(1, 3, 0), 0);      /* empty phase */
  o->free(st);
}

/* CTA slot 0 (launched at 0): warps of 60, 70 and 100 cycles, disparity 0.4 (bin 4); CTA slot 1
 * (launched at 50, alive meanwhile): warps of 100 and 100, disparity 0 (bin 0). */
static void test_warp_disparity(void) {
  const SmObserver *o = &observer_warp_disparity;
  void *st = make(o);
  if (!st) return;
  ev(o, st, SCHED_EV_CTA_LAUNCH, 0, 0, 0, 3, NULL);
  ev(o, st, SCHED_EV_CTA_LAUNCH, 50, 3, 1, 2, NULL);
  ev(o, st, SCHED_EV_WARP_EXIT, 60, 0, 0, 0, NULL);
  ev(o, st, SCHED_EV_WARP_EXIT, 70, 1, 0, 0, NULL);
  ev(o, st, SCHED_EV_WARP_EXIT, 100, 2, 0, 0, NULL);
  ev(o, st, SCHED_EV_CTA_EXIT, 100, UINT32_MAX, 0, 3, NULL);
  ev(o, st, SCHED_EV_WARP_EXIT, 150, 3, 1, 0, NULL);
  ev(o, st, SCHED_EV_WARP_EXIT, 150, 4, 1, 0, NULL);
  ev(o, st, SCHED_EV_CTA_EXIT, 150, UINT32_MAX, 1, 2, NULL);
  DisparityCounts n = {0};
  warp_disparity_counts_add(&n, st);
  CHECK(fabs(n.sum - 0.4) < 1e-12);
  CHECK_EQ_U64(n.hist[4], 1);
  CHECK_EQ_U64(n.hist[0], 1);
  CHECK_EQ_U64(n.max_e6, 400000);
  DisparityCounts m = {.max_e6 = 500000};
  warp_disparity_counts_add(&m, st); /* a maximum over the SMs, not a sum */
  CHECK_EQ_U64(m.max_e6, 500000);
  o->free(st);
}

/* Hits by warp 1 on its own line, on warp 2's, on a line whose warp exited (-1); an atomic's hit. */
static void test_interwarp_hits(void) {
  const SmObserver *o = &observer_interwarp_hits;
  void *st = make(o);
  if (!st) return;
  const int32_t alloc[] = {1, 2, -1, 2};
  for (int i = 0; i < 4; i++) {
    SchedEvent e = {
        .kind = i == 3 ? SCHED_EV_L1_ATOMIC_HIT : SCHED_EV_L1_HIT, .slot = 1, .other_slot = alloc[i]};
    CHECK(o->hints->events & SCHED_EV_BIT(e.kind));
    o->on_event(st, &e);
  }
  CHECK_EQ_U64(interwarp_hits_other_warp(st), 3);
  CHECK(!(o->hints->events & SCHED_EV_BIT(SCHED_EV_L1_MISS))); /* it wants hits only */
  o->free(st);
}

int main(void) {
  TEST_RUN(test_barrier_phases);
  TEST_RUN(test_warp_disparity);
  TEST_RUN(test_interwarp_hits);
  return TEST_DONE();
}
