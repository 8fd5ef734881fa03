/* cpl_observer.c - CAWA's criticality predictor as an SM observer
 * (`sm.observers = cpl`): beside any warp scheduler (lrr, gto, two-level) it
 * predicts the critical warp of each CTA (cpl.h), marks that warp's memory
 * requests MEM_HINT_CRITICAL, so the `cacp` L1D policy can run under any
 * scheduler (CAWA's Figures 16-17), and reports the CPL statistics (accuracy,
 * critical-warp L1D hit rate, zero-reuse critical lines, the priority
 * series). Its keys: observer.cpl.critical, .sample_period, .priority_file.
 * It changes no decision of the scheduler; with an L1D policy that ignores
 * the hint (lru, srrip) the run is the same as without it. */
#include <stdlib.h>

#include "policy/warp/cpl.h"

static int cplo_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  Cpl *c = calloc(1, sizeof *c);
  if (!c) return cfg_errorf(env->cfg, "sm.observers", err, errlen, "out of memory");
  if (cpl_init(c, env, err, errlen)) {
    free(c);
    return -1;
  }
  *state = c;
  return 0;
}

static void cplo_free(void *state) {
  cpl_free(state);
  free(state);
}

static void cplo_event(void *state, const SchedEvent *ev) { cpl_event(state, ev); }
static void cplo_issue(void *state, const WarpView *v, const SchedIssue *is) { cpl_issue(state, v, is); }
static void cplo_annotate(void *state, const WarpView *v, SchedMemAnnot *m) { cpl_annotate(state, v, m); }
static void cplo_tick(void *state, uint64_t cycle) { cpl_tick(state, cycle); }
static uint64_t cplo_next_tick(void *state, uint64_t now) { return cpl_next_tick(state, now); }
static void cplo_stats(void *state, PolicyStats *out) { cpl_stats(state, out); }
static bool cplo_shares_state(const void *state) { return cpl_shares_state(state); }

/* CPL samples on its own clock and reads how long the scheduler kept ready warps waiting */
static const PolicyEngineHints cplo_hints = {
    .next_tick = cplo_next_tick, .sched_wait = true, .no_lanes = true};

const SmObserver observer_cpl = {.name = "cpl",
                                 .params = cpl_params,
                                 .init = cplo_init,
                                 .free = cplo_free,
                                 .on_event = cplo_event,
                                 .on_issue = cplo_issue,
                                 .annotate = cplo_annotate,
                                 .tick = cplo_tick,
                                 .stats = cplo_stats,
                                 .shares_state = cplo_shares_state,
                                 .hints = &cplo_hints};
