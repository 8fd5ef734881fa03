/* iwarp.c - interference-aware warp throttling: iWarp (the draft in
 * ../shared/papers/iwarp-draft.txt), in two readings chosen by
 * `sched.iwarp.reading`. Both share the detector the draft's Section 4.1 and
 * its published version CIAO (Zhang, Gao, Kim, Jung, IPDPS'18) describe: every
 * warp's L1D lines lost to evictions go into its victim tag array (vta.h,
 * shared with ccws), each entry naming the warp whose request evicted the line
 * (the interferer); a real load miss (not a hit, merge, bypass or reservation
 * failure) of victim v that finds its line there names the pair (v, interferer
 * i). A hit naming v itself is intra-warp contention (counted, nobody
 * throttled). Everything not throttled issues in GTO order.
 *
 * reading = ciao (default): CIAO's warp throttling (CIAO-T; its redirection of
 * interfering warps' requests to unused shared memory, CIAO-P/C, needs the L1D
 * and shared-memory model, not a scheduler, and is not modelled). Interference
 * is judged per epoch (`epoch_cycles`, boundaries at its multiples), not per
 * hit: a victim's interference score over the epoch is
 *   IRS_v = (inter-warp VTA hits of v) / (warp instructions the SM issued / live warps),
 * VTA hits per instruction of an average warp (CCWS's normalisation). At an
 * epoch's end, first every throttled warp whose victim's IRS fell below
 * `low_cutoff` is reactivated (newest first), then every live, unthrottled
 * victim whose IRS exceeds `high_cutoff` throttles the live warp that
 * interfered with it most in the epoch (ties: the lowest slot), one per victim
 * and epoch, at most `max_throttled` at once. A throttled warp issues nothing
 * ("throttle execution"); it is reactivated at once when its victim exits.
 * The two cutoffs and the epoch are keys with our defaults: the stored copies
 * of CIAO available here give its abstract only, so the values are not CIAO's
 * published ones (doc/policies.md, iWarp).
 *
 * reading = notes (../shared/spec/policies.md section 5): the draft's
 * scheduling section is empty; this reading throttles on every VTA hit: i may
 * not issue global loads until v exits or v has had no VTA hit naming i for
 * `release_cycles` (a warp throttled by several victims is released when the
 * last pair ends). At most `max_throttled` warps are throttled at once (0:
 * half the SM's warp slots); a hit naming a warp that is not throttled when
 * the cap is reached throttles nobody.
 *
 * Both run without a per-cycle tick: next_tick asks for the earliest release
 * cycle or epoch end, every tick, issue or event first accounts the cycles
 * since the last one (releasing in time order whatever expired), so
 * sm.skip_idle_cycles=false gives identical results. A throttled warp cannot
 * miss on a global load, so it names nobody: throttling never forms a cycle,
 * and the timers, epochs or victims' exits release every throttled warp
 * eventually (a victim waiting at a barrier for its interferer waits at most
 * release_cycles, or scores 0 and releases it at the epoch's end).
 *
 * can_issue depends only on the throttled set, which changes only at events
 * and at the ticks next_tick asks for (stable_refusals): a throttled SM whose
 * ready warps are all refused goes quiet until then. Refused scheduler-cycles
 * are the core's gpu.sched_stall_cycles.policy (iwarp lists every ready warp, so a
 * ready warp left unissued was refused or found its unit taken:
 * other_sched); can_issue counts nothing per call. */
#include <stdlib.h>
#include <string.h>

#include "policy/cache_policy.h"
#include "policy/warp/vta.h"
#include "policy/warp_sched.h"

/* "warps throttled over time": windows of sample_cycles, the last one open-ended */
#define IWARP_WINDOWS 64

typedef struct Iwarp {
  uint32_t nw, cap;
  int ciao; /* reading = ciao */
  uint64_t release, sample;
  /* ciao: the epoch's counts and the throttled warps' victims */
  uint64_t epoch, ep_insts;
  double high, low;
  uint32_t *ep_hits;   /* [victim]: inter-warp VTA hits naming a live warp this epoch */
  uint32_t *ep_pair;   /* [victim * nw + interferer]: those hits by interferer */
  uint32_t *victim_of; /* [throttled warp]: the victim that throttled it */
  uint64_t *seq;       /* [throttled warp]: when (order) it was throttled: newest released first */
  uint64_t nseq;
  SchedAgeCache age;
  VtaFeed vf; /* the victim tag arrays (interferers forgotten at a slot's new warp) and their counters */
  /* per warp slot */
  uint8_t *valid, *throttled;
  uint64_t *until; /* a throttled warp's release cycle */
  uint64_t *pair;  /* [victim * nw + interferer]: cycle + 1 of the victim's last VTA hit naming the throttled
                      interferer; 0 none */
  uint32_t nthrottled;
  uint64_t first; /* the earliest release cycle (min of until over throttled warps), UINT64_MAX none */
  uint64_t t_acc; /* cycles before t_acc are accounted */
  /* statistics */
  uint64_t st_unknown, st_events, st_refreshes, st_cap_refusals, st_rel_timeout, st_rel_victim_exit,
      st_rel_self_exit, st_throttle_cycles, st_throttled_warp_cycles, st_active_cycles, st_epochs,
      st_irs_high, st_rel_low;
  uint32_t st_throttled_max, nactive;
  uint64_t st_window[IWARP_WINDOWS]; /* throttled warp-cycles per window */
} Iwarp;

static const CfgParam iwarp_params[] = {
    {.key = "reading",
     .type = CFG_ENUM,
     .def = "ciao",
     .choices = "ciao|notes",
     .desc = "ciao: CIAO's epoch throttling by interference score; notes: throttle on each VTA hit, timed "
             "release"},
    {.key = "epoch_cycles",
     .type = CFG_INT,
     .def = "5000",
     .min = 1,
     .max = 1000000000,
     .desc = "ciao: cycles of an epoch, at whose end interference scores are judged"},
    {.key = "high_cutoff",
     .type = CFG_DOUBLE,
     .def = "0.01",
     .desc = "ciao: a victim whose epoch score (VTA hits per average warp's instruction) exceeds this "
             "throttles its worst interferer"},
    {.key = "low_cutoff",
     .type = CFG_DOUBLE,
     .def = "0.005",
     .desc = "ciao: a throttled warp is reactivated when its victim's epoch score falls below this"},
    {.key = "vta_entries",
     .type = CFG_INT,
     .def = "16",
     .min = 1,
     .max = 4096,
     .desc = "victim tag array entries per warp"},
    {.key = "vta_ways",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 4096,
     .desc = "victim tag array associativity (divides vta_entries)"},
    {.key = "release_cycles",
     .type = CFG_INT,
     .def = "2000",
     .min = 1,
     .max = 1000000000,
     .desc = "notes: an interferer is released when its victim had no VTA hit naming it for this long"},
    {.key = "max_throttled",
     .type = CFG_INT,
     .def = "0",
     .min = 0,
     .max = 4096,
     .desc = "most warps throttled at once per SM (0: half the SM's warp slots)"},
    {.key = "sample_cycles",
     .type = CFG_INT,
     .def = "100000",
     .min = 1,
     .max = 1000000000000LL,
     .desc = "window of the throttled-warps-over-time statistics (64 windows, the last open-ended)"},
    {0},
};

static void iwarp_free(void *state) {
  Iwarp *c = state;
  if (!c) return;
  sched_age_cache_free(&c->age);
  vta_feed_free(&c->vf);
  free(c->valid);
  free(c->throttled);
  free(c->until);
  free(c->pair);
  free(c->ep_hits);
  free(c->ep_pair);
  free(c->victim_of);
  free(c->seq);
  free(c);
}

static int iwarp_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  uint32_t entries, ways;
  if (sched_vta_geometry(env, &entries, &ways, err, errlen)) return -1;
  Iwarp *c = calloc(1, sizeof *c);
  if (!c) return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  uint32_t nw = env->max_warps ? env->max_warps : 1;
  c->nw = nw;
  c->release = (uint64_t)cfg_int_in(env->cfg, env->prefix, "release_cycles");
  c->sample = (uint64_t)cfg_int_in(env->cfg, env->prefix, "sample_cycles");
  c->cap = (uint32_t)cfg_int_in(env->cfg, env->prefix, "max_throttled");
  if (!c->cap) c->cap = nw / 2 ? nw / 2 : 1;
  c->first = UINT64_MAX;
  c->ciao = !strcmp(cfg_str_in(env->cfg, env->prefix, "reading"), "ciao");
  c->epoch = (uint64_t)cfg_int_in(env->cfg, env->prefix, "epoch_cycles");
  c->high = cfg_double_in(env->cfg, env->prefix, "high_cutoff");
  c->low = cfg_double_in(env->cfg, env->prefix, "low_cutoff");
  if (!(c->low >= 0 && c->low <= c->high)) {
    char key[128];
    snprintf(key, sizeof key, "%s.low_cutoff", env->prefix);
    iwarp_free(c);
    return cfg_errorf(env->cfg, key, err, errlen, "low_cutoff must be at least 0 and at most high_cutoff");
  }
  c->ep_hits = calloc(nw, sizeof *c->ep_hits);
  c->ep_pair = calloc((size_t)nw * nw, sizeof *c->ep_pair);
  c->victim_of = calloc(nw, sizeof *c->victim_of);
  c->seq = calloc(nw, sizeof *c->seq);
  c->valid = calloc(nw, 1);
  c->throttled = calloc(nw, 1);
  c->until = calloc(nw, sizeof *c->until);
  c->pair = calloc((size_t)nw * nw, sizeof *c->pair);
  if (!c->valid || !c->throttled || !c->until || !c->pair || !c->ep_hits || !c->ep_pair || !c->victim_of ||
      !c->seq || sched_age_cache_init(&c->age, env, env->nsched) ||
      vta_feed_init(&c->vf, nw, entries, ways, true)) {
    iwarp_free(c);
    return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  }
  *state = c;
  return 0;
}

/* Statistics for the cycles [t_acc, to) with the throttled set unchanged. */
static void iwarp_account(Iwarp *c, uint64_t to) {
  if (to <= c->t_acc) return;
  const uint64_t d = to - c->t_acc, n = c->nthrottled;
  if (c->nactive) c->st_active_cycles += d;
  if (n) {
    c->st_throttle_cycles += d;
    c->st_throttled_warp_cycles += d * n;
    for (uint64_t t = c->t_acc; t < to;) {
      uint64_t win = t / c->sample;
      uint64_t end = win >= IWARP_WINDOWS - 1 ? to : (win + 1) * c->sample;
      if (end > to) end = to;
      c->st_window[win >= IWARP_WINDOWS - 1 ? IWARP_WINDOWS - 1 : win] += (end - t) * n;
      t = end;
    }
  }
  c->t_acc = to;
}

/* c->first anew, after a release cycle or the throttled set changed (not per
 * event): notes, the earliest release cycle; ciao, the end of the epoch that
 * holds t_acc while the SM has warps. */
static void iwarp_refirst(Iwarp *c) {
  uint64_t first = UINT64_MAX;
  if (c->ciao) {
    if (c->nactive) first = (c->t_acc / c->epoch + 1) * c->epoch;
  } else if (c->nthrottled) {
    for (uint32_t i = 0; i < c->nw; i++)
      if (c->throttled[i] && c->until[i] < first) first = c->until[i];
  }
  c->first = first;
}

static void iwarp_unthrottle(Iwarp *c, uint32_t i) {
  if (!c->throttled[i]) return;
  c->throttled[i] = 0;
  c->nthrottled--;
  for (uint32_t v = 0; v < c->nw; v++) c->pair[(size_t)v * c->nw + i] = 0;
}

static void iwarp_throttle(Iwarp *c, uint32_t i) {
  c->throttled[i] = 1;
  c->nthrottled++;
  c->st_events++;
  if (c->nthrottled > c->st_throttled_max) c->st_throttled_max = c->nthrottled;
}

/* ciao: IRS_v > x over the epoch, VTA hits per instruction of an average warp. */
static bool iwarp_irs_above(const Iwarp *c, uint32_t v, double x) {
  const double per_warp = (double)c->ep_insts / (double)(c->nactive ? c->nactive : 1);
  return (double)c->ep_hits[v] > x * per_warp;
}

/* ciao: the end of an epoch. Reactivations first (newest throttle first, so a
 * victim's latest interferer returns before its earlier ones), then each
 * victim over the high cutoff throttles its worst live interferer. */
static void iwarp_epoch_end(Iwarp *c) {
  const uint32_t nw = c->nw;
  c->st_epochs++;
  for (;;) {
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < nw; i++)
      if (c->throttled[i] && !iwarp_irs_above(c, c->victim_of[i], c->low) &&
          (best == UINT32_MAX || c->seq[i] > c->seq[best]))
        best = i;
    if (best == UINT32_MAX) break;
    iwarp_unthrottle(c, best);
    c->st_rel_low++;
  }
  for (uint32_t v = 0; v < nw; v++) {
    if (!c->valid[v] || c->throttled[v] || !c->ep_hits[v] || !iwarp_irs_above(c, v, c->high)) continue;
    c->st_irs_high++;
    uint32_t worst = UINT32_MAX, most = 0;
    for (uint32_t i = 0; i < nw; i++) {
      const uint32_t n = c->ep_pair[(size_t)v * nw + i];
      if (n > most && i != v && c->valid[i] && !c->throttled[i]) most = n, worst = i;
    }
    if (worst == UINT32_MAX) continue;
    if (c->nthrottled >= c->cap) {
      c->st_cap_refusals++;
      continue;
    }
    iwarp_throttle(c, worst);
    c->victim_of[worst] = v;
    c->seq[worst] = ++c->nseq;
  }
  c->ep_insts = 0;
  memset(c->ep_hits, 0, nw * sizeof *c->ep_hits);
  memset(c->ep_pair, 0, (size_t)nw * nw * sizeof *c->ep_pair);
}

/* Accounts up to `now`, releasing each throttled warp at its release cycle
 * or ending each epoch (in time order, so the statistics are exact however
 * late we are told). */
static void iwarp_advance(Iwarp *c, uint64_t now) {
  while (c->first <= now) {
    const uint64_t first = c->first;
    iwarp_account(c, first);
    if (c->ciao)
      iwarp_epoch_end(c);
    else
      for (uint32_t i = 0; i < c->nw; i++)
        if (c->throttled[i] && c->until[i] == first) iwarp_unthrottle(c, i), c->st_rel_timeout++;
    iwarp_refirst(c);
  }
  iwarp_account(c, now);
}

static void iwarp_tick(void *state, uint64_t now) { iwarp_advance(state, now); }

static uint64_t iwarp_next_tick(void *state, uint64_t now) {
  (void)now;
  return ((const Iwarp *)state)->first;
}

/* Victim v exits: the pairs it named end; an interferer left with none is
 * released (ciao: every warp it throttled). */
static void iwarp_victim_gone(Iwarp *c, uint32_t v) {
  for (uint32_t i = 0; c->ciao && i < c->nw; i++)
    if (c->throttled[i] && c->victim_of[i] == v) iwarp_unthrottle(c, i), c->st_rel_victim_exit++;
  for (uint32_t i = 0; !c->ciao && i < c->nw; i++) {
    uint64_t *p = &c->pair[(size_t)v * c->nw + i];
    if (!*p) continue;
    *p = 0;
    uint64_t last = 0;
    for (uint32_t u = 0; u < c->nw; u++) {
      uint64_t q = c->pair[(size_t)u * c->nw + i];
      if (q > last) last = q;
    }
    if (!last)
      iwarp_unthrottle(c, i), c->st_rel_victim_exit++;
    else
      c->until[i] = last - 1 + c->release;
  }
  iwarp_refirst(c);
}

/* A VTA hit of victim v naming interferer i (another warp) at `now`: notes,
 * throttle i now; ciao, count it toward the epoch's judgement. */
static void iwarp_interference(Iwarp *c, uint32_t v, int32_t who, uint64_t now) {
  if (who < 0 || (uint32_t)who >= c->nw || !c->valid[who]) {
    c->st_unknown++; /* the interferer has exited (or its slot has a new warp): nobody to throttle */
    return;
  }
  const uint32_t i = (uint32_t)who;
  if (c->ciao) {
    c->ep_hits[v]++;
    c->ep_pair[(size_t)v * c->nw + i]++;
    return;
  }
  if (c->throttled[i]) {
    c->st_refreshes++;
  } else if (c->nthrottled >= c->cap) {
    c->st_cap_refusals++;
    return;
  } else {
    iwarp_throttle(c, i);
    c->until[i] = 0;
  }
  c->pair[(size_t)v * c->nw + i] = now + 1;
  if (now + c->release > c->until[i]) c->until[i] = now + c->release;
  iwarp_refirst(c);
}

static void iwarp_event(void *state, const SchedEvent *ev) {
  Iwarp *c = state;
  iwarp_advance(c, ev->cycle);
  const uint32_t w = ev->slot;
  const bool mine = w < c->nw;
  VtaMissClass k = VTA_MISS_OTHER;
  int32_t who = -1;
  const bool probed = vta_feed_event(&c->vf, ev, &k, &who); /* the VTA's part of every event */
  switch (ev->kind) {
  case SCHED_EV_WARP_LAUNCH:
    if (!mine) return;
    if (!c->valid[w]) c->nactive++;
    c->valid[w] = 1;
    if (c->ciao) { /* the slot's new warp starts the epoch with no score, blamed for nothing */
      c->ep_hits[w] = 0;
      for (uint32_t u = 0; u < c->nw; u++)
        c->ep_pair[(size_t)w * c->nw + u] = c->ep_pair[(size_t)u * c->nw + w] = 0;
      if (c->nactive == 1) iwarp_refirst(c);
    }
    return;
  case SCHED_EV_WARP_EXIT:
    if (!mine || !c->valid[w]) return;
    c->nactive--;
    c->valid[w] = 0;
    if (c->throttled[w]) iwarp_unthrottle(c, w), c->st_rel_self_exit++;
    iwarp_victim_gone(c, w); /* (and c->first anew) */
    return;
  case SCHED_EV_L1_MISS:
    if (probed && k == VTA_MISS_INTER) iwarp_interference(c, w, who, ev->cycle);
    return;
  default:
    return;
  }
}

/* notes: a throttled warp may not issue global loads; ciao: nothing. */
static bool iwarp_can_issue(void *state, const WarpView *v, WarpInstKind kind) {
  const Iwarp *c = state;
  if (v->slot >= c->nw || !c->throttled[v->slot]) return true;
  return !c->ciao && kind != WINST_GLOBAL_LOAD;
}

/* ciao: the epoch's instruction count (IRS's denominator). */
static void iwarp_issue(void *state, const WarpView *v, const SchedIssue *is) {
  Iwarp *c = state;
  (void)v;
  if (!c->ciao) return;
  iwarp_advance(c, is->cycle);
  c->ep_insts++;
}

static void iwarp_warps_change(void *state) { sched_age_cache_changed(&((Iwarp *)state)->age); }

static uint32_t iwarp_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                            uint64_t cycle, uint32_t *out) {
  (void)cycle;
  return sched_order_gto(&((Iwarp *)state)->age, v, nslots, sched, greedy, out);
}

static void iwarp_stats(void *state, PolicyStats *out) {
  const Iwarp *c = state;
  policy_stat_u64(out, "vta_probes", "requests",
                  "L1D misses looked up in the missing warp's victim tag array", c->vf.probes);
  policy_stat_u64(out, "vta_hits", "requests", "L1D misses found in the missing warp's VTA (intra + inter)",
                  c->vf.found[VTA_MISS_INTRA] + c->vf.found[VTA_MISS_INTER]);
  policy_stat_u64(out, "vta_hits_intra_warp", "requests", "VTA hits on a line the warp's own request evicted",
                  c->vf.found[VTA_MISS_INTRA]);
  policy_stat_u64(out, "vta_hits_inter_warp", "requests",
                  "VTA hits on a line another (or an unknown) warp evicted", c->vf.found[VTA_MISS_INTER]);
  policy_stat_u64(out, "vta_hits_interferer_gone", "requests",
                  "inter-warp VTA hits whose interferer had exited: nobody to throttle", c->st_unknown);
  policy_stat_u64(out, "vta_inserts", "lines",
                  "L1D lines lost to a replacement, entered in their allocating warp's VTA", c->vf.inserts);
  policy_stat_u64(out, "vta_store_invalidations", "entries",
                  "VTA entries removed because a store wrote their line", c->vf.store_invalidations);
  policy_stat_u64(out, "throttle_events", "events", "interferers throttled by an inter-warp VTA hit",
                  c->st_events);
  policy_stat_u64(out, "throttle_refreshes", "events",
                  "inter-warp VTA hits that extended a throttled interferer's release", c->st_refreshes);
  policy_stat_u64(out, "cap_refusals", "events",
                  "throttles refused because the throttled-warp cap was reached", c->st_cap_refusals);
  policy_stat_u64(out, "releases_timeout", "events",
                  "throttled warps released after release_cycles without a victim's hit", c->st_rel_timeout);
  policy_stat_u64(out, "releases_low_cutoff", "events",
                  "throttled warps released when the victim's score fell below the low cutoff",
                  c->st_rel_low);
  policy_stat_u64(out, "epochs", "epochs", "scoring epochs ended (ciao reading)", c->st_epochs);
  policy_stat_u64(out, "epoch_victims_over_high_cutoff", "warps",
                  "victims whose epoch score exceeded the high cutoff", c->st_irs_high);
  policy_stat_u64(out, "releases_victim_exit", "events",
                  "throttled warps released because their victim exited", c->st_rel_victim_exit);
  policy_stat_u64(out, "releases_own_exit", "events", "throttled warps that exited while throttled",
                  c->st_rel_self_exit);
  policy_stat_u64(out, "throttle_cycles", "cycles", "cycles with at least one throttled warp",
                  c->st_throttle_cycles);
  policy_stat_u64(out, "throttled_warp_cycles", "warp_cycles", "warp-cycles spent throttled",
                  c->st_throttled_warp_cycles);
  policy_stat_u64(out, "active_cycles", "cycles", "cycles with a resident warp", c->st_active_cycles);
  policy_stat_f64(out, "throttled_warps_mean", "warps", "throttled warps, mean over active cycles",
                  c->st_active_cycles ? (double)c->st_throttled_warp_cycles / (double)c->st_active_cycles
                                      : 0.0,
                  PSTAT_MEAN);
  policy_stat_f64(out, "throttled_warps_max", "warps", "most warps throttled at once", c->st_throttled_max,
                  PSTAT_MAX);
  /* warps throttled over time: the mean over each window, summed over the
   * SMs (the GPU's throttled warps); windows after the last used are left out */
  int last = -1;
  for (int k = 0; k < IWARP_WINDOWS; k++)
    if (c->st_window[k]) last = k;
  for (int k = 0; k <= last; k++) {
    char name[48];
    snprintf(name, sizeof name, "throttled_warps_window%02d", k);
    policy_stat_f64(out, name, "warps",
                    "throttled warps in this window of sample_cycles, mean over its cycles (summed over SMs)",
                    (double)c->st_window[k] / (double)c->sample, PSTAT_SUM);
  }
}

/* its order is gto's (it lists every warp, from their ages and greedy alone); its refusals change
 * only at its events and next_tick's releases; it reads the warps' lifetimes, misses and what the
 * VTA feed needs (no hits: time is accounted lazily, so an event less changes nothing), and no
 * lanes */
static const PolicyEngineHints iwarp_hints = {.lists_all = true,
                                              .stable_order = true,
                                              .stable_refusals = true,
                                              .next_tick = iwarp_next_tick,
                                              .events = VTA_FEED_EVENTS,
                                              .no_lanes = true};

const WarpSchedPolicy warp_policy_iwarp = {.name = "iwarp",
                                           .params = iwarp_params,
                                           .init = iwarp_init,
                                           .free = iwarp_free,
                                           .order = iwarp_order,
                                           .can_issue = iwarp_can_issue,
                                           .on_issue = iwarp_issue,
                                           .on_event = iwarp_event,
                                           .tick = iwarp_tick,
                                           .on_warps_change = iwarp_warps_change,
                                           .stats = iwarp_stats,
                                           .hints = &iwarp_hints};
