/* l1d_opt.c - an SM observer that keeps every SM's L1D access stream in
 * memory (as the l1d-trace observer writes it: loads, merges, atomic hits,
 * stores, fills) and, when the statistics are asked for, replays it under
 * Belady's OPT and under LRU (analysis/belady.h) on the run's L1D geometry:
 * CCWS Figure 8's "<scheduler>-BEL" bars as statistics of the run itself
 * (`sm.observers = l1d-opt`), with no trace file. Misses are allocating
 * misses (the online cache's MSHR merges are hits in a replay); the LRU
 * replay equals the online LRU's misses (`online_misses`) when l1d.policy is
 * lru, a check printed beside them. Memory: 9 bytes per L1D access. */
#include <stdlib.h>
#include <string.h>

#include "analysis/belady.h"
#include "core/config.h"
#include "policy/warp_sched.h"

#define OPT_MAX_SM 1024

typedef struct OptShared {
  BeladyStream s[OPT_MAX_SM];
  uint64_t insts[OPT_MAX_SM];
  BeladyResult opt[OPT_MAX_SM], lru[OPT_MAX_SM];
  uint32_t nsm;
  BeladyGeom g;
  size_t replayed_n; /* total stream length at the last replay (SIZE_MAX: none yet) */
  int failed;        /* out of memory while recording or replaying */
} OptShared;

typedef struct OptObs {
  OptShared *sh;
  uint32_t sm;
} OptObs;

static void opt_shared_fini(void *block) {
  OptShared *sh = block;
  for (uint32_t i = 0; i < sh->nsm; i++) {
    free(sh->s[i].line);
    free(sh->s[i].store);
  }
}

static int opt_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  if (env->sm >= OPT_MAX_SM) return snprintf(err, errlen, "l1d-opt: at most %d SMs", OPT_MAX_SM), -1;
  OptShared *sh = policy_shared(env->gpu, "l1d-opt", sizeof *sh, opt_shared_fini);
  OptObs *o = calloc(1, sizeof *o);
  if (!sh || !o) {
    free(o);
    return snprintf(err, errlen, "l1d-opt: out of memory"), -1;
  }
  /* the SM's L1D as the cache computed it */
  sh->g = (BeladyGeom){.sets = env->l1d.sets,
                       .assoc = env->l1d.ways,
                       .line_size = env->l1d.line_size,
                       .merge_touch = cfg_bool(env->cfg, "l1d.merge_touch")};
  sh->replayed_n = SIZE_MAX;
  if (env->sm + 1 > sh->nsm) sh->nsm = env->sm + 1;
  o->sh = sh;
  o->sm = env->sm;
  *state = o;
  return 0;
}

static void opt_free(void *state) { free(state); }

static void opt_event(void *state, const SchedEvent *ev) {
  OptObs *o = state;
  BeladyStream *s = &o->sh->s[o->sm];
  BeladyKind k;
  switch (ev->kind) {
  case SCHED_EV_L1_MISS:
    s->misses++, k = BELADY_LOAD;
    break;
  case SCHED_EV_L1_HIT:
  case SCHED_EV_L1_ATOMIC_HIT:
    s->hits++, k = BELADY_LOAD;
    break;
  case SCHED_EV_L1_MERGE:
    s->merges++, k = BELADY_MERGE;
    break;
  case SCHED_EV_STORE:
    s->stores++, k = BELADY_STORE;
    break;
  case SCHED_EV_L1_FILL:
    s->fills++, k = BELADY_FILL;
    break;
  default:
    return;
  }
  if (belady_stream_push(s, ev->line_addr, k)) o->sh->failed = 1;
}

static void opt_issue(void *state, const WarpView *v, const SchedIssue *is) {
  (void)v, (void)is;
  OptObs *o = state;
  o->sh->insts[o->sm]++;
}

/* Replays every SM's stream once per stream length (the first SM asked does it for all). */
static void opt_replay_all(OptShared *sh) {
  size_t n = 0;
  for (uint32_t i = 0; i < sh->nsm; i++) n += sh->s[i].n;
  if (n == sh->replayed_n) return;
  sh->replayed_n = n;
  for (uint32_t i = 0; i < sh->nsm && !sh->failed; i++)
    if (belady_replay(&sh->s[i], sh->g, BELADY_OPT, &sh->opt[i]) ||
        belady_replay(&sh->s[i], sh->g, BELADY_LRU, &sh->lru[i]))
      sh->failed = 1;
}

static double opt_mpki(uint64_t misses, uint64_t insts) {
  return insts ? 1000.0 * (double)misses / (double)insts : 0.0;
}

static void opt_stats(void *state, PolicyStats *out) {
  OptObs *o = state;
  OptShared *sh = o->sh;
  opt_replay_all(sh);
  uint64_t tot_insts = 0, tot_opt = 0, tot_lru = 0, tot_online = 0;
  for (uint32_t i = 0; i < sh->nsm; i++)
    tot_insts += sh->insts[i], tot_opt += sh->opt[i].misses, tot_lru += sh->lru[i].misses,
        tot_online += sh->s[i].misses;
  const uint32_t i = o->sm;
  policy_stat_u64(out, "loads", "requests", "L1D load line requests replayed", sh->opt[i].loads);
  policy_stat_u64(out, "online_misses", "requests",
                  "the online L1D's allocating misses over the replayed stream", sh->s[i].misses);
  policy_stat_u64(out, "lru_misses", "requests", "misses of an LRU replay of the stream", sh->lru[i].misses);
  policy_stat_u64(out, "opt_misses", "requests", "misses of Belady's OPT replay of the stream",
                  sh->opt[i].misses);
  policy_stat_u64(out, "failed", "flag",
                  "whether recording or replaying ran out of memory (1: the other counts are partial)",
                  (uint64_t)sh->failed);
  /* GPU-wide rates (every SM reports the same value) */
  policy_stat_f64(out, "online_mpki", "misses/kinst",
                  "online L1D misses per 1000 warp instructions of the GPU", opt_mpki(tot_online, tot_insts),
                  PSTAT_MAX);
  policy_stat_f64(out, "lru_mpki", "misses/kinst", "LRU replay misses per 1000 warp instructions of the GPU",
                  opt_mpki(tot_lru, tot_insts), PSTAT_MAX);
  policy_stat_f64(out, "opt_mpki", "misses/kinst", "OPT replay misses per 1000 warp instructions of the GPU",
                  opt_mpki(tot_opt, tot_insts), PSTAT_MAX);
}

const SmObserver observer_l1d_opt = {.name = "l1d-opt",
                                     .shares_state = policy_shares_always,
                                     .init = opt_init,
                                     .free = opt_free,
                                     .on_event = opt_event,
                                     .on_issue = opt_issue,
                                     .stats = opt_stats,
                                     .hints = &(const PolicyEngineHints){.l1_stream_events = true}};
