/* missclass.c - an SM observer that classifies every L1D load miss by the
 * missing warp's victim tag array (vta.h, as iWarp's Figure 2 does), under
 * any scheduler (`sm.observers = missclass`):
 *   intra_warp  the line was lost to a request of the same warp,
 *   inter_warp  it was lost to another warp's request (or one that exited),
 *   other       it is not in the warp's VTA (never lost: cold or first
 *               touched by this warp, invalidated by a store, or lost longer
 *               ago than the array remembers).
 * The VTA is fed as ccws's and iwarp's are (the same handler, vta_feed_event:
 * replacements only, stores invalidate, cleared at a warp's launch and exit),
 * but by default is large (`vta_entries` = 2048 per warp: the 256 KB a warp of ATAX touches, the
 * draft's example), so that "other" is close to "cold". Misses are real
 * misses (lines reserved and sent down): MSHR merges, hits and bypasses are
 * not classified.
 * Statistics: the three counts, their sum, and each per 1000 warp
 * instructions of the whole GPU (the SMs' instances share the instruction
 * count through a policy_shared block, so the per-SM shares sum to the GPU's
 * MPKI). */
#include <stdlib.h>

#include "policy/cache_policy.h"
#include "policy/warp/vta.h"
#include "policy/warp_sched.h"

typedef struct MissClassGpu {
  uint64_t insts; /* warp instructions issued on every SM */
} MissClassGpu;

typedef struct MissClass {
  VtaFeed vf; /* the arrays; vf.found[] are the counts by class */
  MissClassGpu *gpu;
} MissClass;

static const CfgParam missclass_params[] = {
    {.key = "vta_entries",
     .type = CFG_INT,
     .def = "2048",
     .min = 1,
     .max = 65536,
     .desc = "victim tag array entries per warp (the classification's memory)"},
    {.key = "vta_ways",
     .type = CFG_INT,
     .def = "16",
     .min = 1,
     .max = 256, /* a lookup scans the ways: 65536 would take minutes per run */
     .desc = "victim tag array associativity (divides vta_entries)"},
    {0},
};

static void missclass_free(void *state) {
  MissClass *m = state;
  if (!m) return;
  vta_feed_free(&m->vf);
  free(m);
}

static int missclass_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  uint32_t entries, ways;
  if (sched_vta_geometry(env, &entries, &ways, err, errlen)) return -1;
  MissClass *m = calloc(1, sizeof *m);
  if (!m) return cfg_errorf(env->cfg, "sm.observers", err, errlen, "out of memory");
  const uint32_t nw = env->max_warps ? env->max_warps : 1;
  m->gpu = env->gpu ? policy_shared(env->gpu, "missclass", sizeof *m->gpu, NULL) : NULL;
  if ((env->gpu && !m->gpu) || vta_feed_init(&m->vf, nw, entries, ways, false)) {
    missclass_free(m);
    return cfg_errorf(env->cfg, "sm.observers", err, errlen, "out of memory");
  }
  *state = m;
  return 0;
}

static void missclass_event(void *state, const SchedEvent *ev) {
  vta_feed_event(&((MissClass *)state)->vf, ev, NULL, NULL); /* counts each miss by class */
}

static void missclass_issue(void *state, const WarpView *v, const SchedIssue *is) {
  (void)v, (void)is;
  MissClass *m = state;
  if (m->gpu) m->gpu->insts++;
}

static void missclass_stats(void *state, PolicyStats *out) {
  const MissClass *m = state;
  static const char *const names[VTA_MISS__COUNT] = {"other", "intra_warp", "inter_warp"};
  static const char *const descs[VTA_MISS__COUNT] = {
      "L1D load misses not in the warp's VTA (cold, invalidated, or lost beyond its memory)",
      "L1D load misses on a line the warp's own request evicted (intra-warp contention)",
      "L1D load misses on a line another warp's request evicted (inter-warp contention)"};
  static const char *const mpki_descs[VTA_MISS__COUNT] = {
      "misses_other per 1000 warp instructions of the GPU",
      "misses_intra_warp per 1000 warp instructions of the GPU",
      "misses_inter_warp per 1000 warp instructions of the GPU"};
  const double kinst = m->gpu && m->gpu->insts ? (double)m->gpu->insts / 1000.0 : 0.0;
  uint64_t all = 0;
  for (int k = 0; k < VTA_MISS__COUNT; k++) all += m->vf.found[k];
  policy_stat_u64(out, "misses", "requests", "L1D load misses (lines reserved and sent down), all classes",
                  all);
  for (int k = VTA_MISS__COUNT - 1; k >= 0; k--) {
    char name[48];
    snprintf(name, sizeof name, "misses_%s", names[k]);
    policy_stat_u64(out, name, "requests", descs[k], m->vf.found[k]);
  }
  policy_stat_f64(out, "mpki", "misses/kinst", "those misses per 1000 warp instructions of the GPU",
                  kinst ? (double)all / kinst : 0.0, PSTAT_SUM);
  for (int k = VTA_MISS__COUNT - 1; k >= 0; k--) {
    char name[48];
    snprintf(name, sizeof name, "mpki_%s", names[k]);
    policy_stat_f64(out, name, "misses/kinst", mpki_descs[k], kinst ? (double)m->vf.found[k] / kinst : 0.0,
                    PSTAT_SUM);
  }
}

/* the feed's events only (no L1D hits), no lanes */
static const PolicyEngineHints missclass_hints = {.events = VTA_FEED_EVENTS, .no_lanes = true};

const SmObserver observer_missclass = {.name = "missclass",
                                       .hints = &missclass_hints,
                                       .shares_state = policy_shares_always,
                                       .params = missclass_params,
                                       .init = missclass_init,
                                       .free = missclass_free,
                                       .on_issue = missclass_issue,
                                       .on_event = missclass_event,
                                       .stats = missclass_stats};
