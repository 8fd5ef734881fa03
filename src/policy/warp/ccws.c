/* ccws.c - cache-conscious wavefront scheduling (Rogers, O'Connor, Aamodt,
 * MICRO'12), as ../shared/spec/policies.md section 2 resolves it: every
 * warp's L1D lines lost to evictions go into its victim tag array (vta.h); a
 * real load miss (not a hit, merge, bypass or reservation failure) that finds
 * its line there is a VTA hit and raises the warp's lost-locality score
 * (LLS) to the lost-locality detected score
 *   LLDS = vta_hits / insts_issued * k_throttle * cutoff
 * (both counts over the SM's resident warps, cutoff = active warps * base).
 * Scores above the base decay by one a cycle. Warps sorted by score (highest
 * first, ties by slot) are walked summing their scores: those visited until
 * the sum reaches the cutoff form the exclusive set (the warp whose score
 * reaches it included, as in the authors' code: the first warp always
 * loads); the others may not issue global or local loads. Everything else
 * issues in GTO order.
 *
 * Time is accounted lazily (tick + next_tick): a score is kept as the cycle
 * its decay would reach zero, so decay costs nothing per cycle, and next_tick asks for the first
 * cycle the exclusive set can change by decay alone (a score reaching the
 * base, or the excluded prefix's sum falling below the cutoff), so the SM's
 * idle shortcuts stay on and sm.skip_idle_cycles=false gives identical
 * results. [choice] Warps waiting at a barrier are skipped in the walk (as
 * swl does): they cannot issue, and a throttled warp whose CTA waits for it
 * at a barrier is not held back by their scores (`skip_barrier`). */
#include <stdlib.h>
#include <string.h>

#include "policy/cache_policy.h"
#include "policy/warp/vta.h"
#include "policy/warp_sched.h"

typedef struct Ccws {
  uint32_t nw;             /* warp slots */
  uint64_t base, k, cap_k; /* base score, k_throttle, the accumulate cap's k */
  bool accumulate, skip_barrier;
  SchedAgeCache age;
  VtaFeed vf; /* the victim tag arrays and their counters (vta_hits: found intra + inter) */
  /* per warp slot */
  uint64_t *lls_end;      /* the lost-locality score, decayed lazily (ccws_lls): at cycle t it is
                           * lls_end - t while that is above the base, else the base (0: at the base) */
  uint64_t *hits, *insts; /* VTA hits and instructions of the resident warp */
  uint32_t *cta;          /* CTA slot */
  uint8_t *valid, *at_bar, *allowed;
  uint32_t *sorted; /* scratch for the walk */
  /* the SM */
  uint64_t res_hits, res_insts; /* over resident warps */
  uint32_t nactive, nallowed, nexcluded;
  uint64_t t_acc; /* cycles before t_acc are accounted */
  uint64_t wake;  /* first cycle the exclusive set may change by decay alone */
  /* statistics */
  uint64_t st_throttle_cycles, st_active_cycles, st_allowed_sum, st_insts, st_score_raises;
  uint32_t st_allowed_max, st_excluded_max;
} Ccws;

static const CfgParam ccws_params[] = {
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
    {.key = "base_score",
     .type = CFG_INT,
     .def = "100",
     .min = 1,
     .max = 1000000,
     .desc = "every warp's lost-locality score at launch and its floor"},
    {.key = "k_throttle",
     .type = CFG_INT,
     .def = "8",
     .min = 0,
     .max = 1000000,
     .desc = "LLDS = vta_hits/insts * k_throttle * cutoff"},
    {.key = "accumulate",
     .type = CFG_BOOL,
     .def = "false",
     .desc = "a VTA hit adds LLDS to the score (capped) instead of setting it"},
    {.key = "cap_k",
     .type = CFG_INT,
     .def = "0",
     .min = 0,
     .max = 1000000,
     .desc = "accumulate's cap: LLDS with this k instead of k_throttle (0: k_throttle)"},
    {.key = "skip_barrier",
     .type = CFG_BOOL,
     .def = "true",
     .desc = "warps waiting at a barrier are left out of the exclusive-set walk"},
    {0},
};

static void ccws_free(void *state) {
  Ccws *c = state;
  if (!c) return;
  sched_age_cache_free(&c->age);
  vta_feed_free(&c->vf);
  free(c->lls_end);
  free(c->hits);
  free(c->insts);
  free(c->cta);
  free(c->valid);
  free(c->at_bar);
  free(c->allowed);
  free(c->sorted);
  free(c);
}

static int ccws_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  uint32_t entries, ways;
  if (sched_vta_geometry(env, &entries, &ways, err, errlen)) return -1;
  Ccws *c = calloc(1, sizeof *c);
  if (!c) return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  uint32_t nw = env->max_warps ? env->max_warps : 1;
  c->nw = nw;
  c->base = (uint64_t)cfg_int_in(env->cfg, env->prefix, "base_score");
  c->k = (uint64_t)cfg_int_in(env->cfg, env->prefix, "k_throttle");
  c->cap_k = (uint64_t)cfg_int_in(env->cfg, env->prefix, "cap_k");
  if (!c->cap_k) c->cap_k = c->k;
  c->accumulate = cfg_bool_in(env->cfg, env->prefix, "accumulate");
  c->skip_barrier = cfg_bool_in(env->cfg, env->prefix, "skip_barrier");
  c->lls_end = calloc(nw, sizeof *c->lls_end);
  c->hits = calloc(nw, sizeof *c->hits);
  c->insts = calloc(nw, sizeof *c->insts);
  c->cta = calloc(nw, sizeof *c->cta);
  c->valid = calloc(nw, 1);
  c->at_bar = calloc(nw, 1);
  c->allowed = calloc(nw, 1);
  c->sorted = calloc(nw, sizeof *c->sorted);
  c->wake = UINT64_MAX;
  if (!c->lls_end || !c->hits || !c->insts || !c->cta || !c->valid || !c->at_bar || !c->allowed ||
      !c->sorted || sched_age_cache_init(&c->age, env, env->nsched) ||
      vta_feed_init(&c->vf, nw, entries, ways, false)) {
    ccws_free(c);
    return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  }
  *state = c;
  return 0;
}

static inline uint64_t ccws_cutoff(const Ccws *c) { return c->nactive ? (uint64_t)c->nactive * c->base : 1; }

/* Warp w's score at cycle t (>= the cycle it was last set). A score above the
 * base decays by one a cycle down to the base; decays of d1 then d2 cycles
 * are one of d1 + d2, so the score is kept as the cycle it would reach 0
 * (lls_end) and nothing walks the warps as time passes. */
static inline uint64_t ccws_lls_at(const Ccws *c, uint32_t w, uint64_t t) {
  const uint64_t e = c->lls_end[w];
  return e > t && e - t > c->base ? e - t : c->base;
}
static inline uint64_t ccws_lls(const Ccws *c, uint32_t w) { return ccws_lls_at(c, w, c->t_acc); }
/* Sets warp w's score as of t_acc. */
static inline void ccws_set_lls(Ccws *c, uint32_t w, uint64_t s) {
  c->lls_end[w] = s > c->base ? s + c->t_acc : 0;
}

/* Accounts the cycles [t_acc, now): the exclusive set held all along (the SM
 * ticks us at `wake` at the latest), so the statistics add it per cycle; the
 * scores decay by themselves (ccws_lls). */
static void ccws_advance(Ccws *c, uint64_t now) {
  if (now <= c->t_acc) return;
  uint64_t d = now - c->t_acc;
  c->t_acc = now;
  if (c->nactive) {
    c->st_active_cycles += d;
    c->st_allowed_sum += d * c->nallowed;
    if (c->nexcluded) c->st_throttle_cycles += d;
  }
}

/* The exclusive set from the scores as of t_acc, and the first cycle decay
 * alone could change it: until a score reaches the base the order holds and
 * the sum that reached the cutoff falls by (walked warps above the base) a
 * cycle; the set grows exactly when that sum drops below the cutoff. */
static void ccws_recompute(Ccws *c) {
  uint32_t n = 0;
  for (uint32_t w = 0; w < c->nw; w++) {
    if (!c->valid[w]) continue;
    /* insertion by (score desc, slot asc): at most a few dozen warps */
    uint32_t i = n++;
    while (i > 0 && ccws_lls(c, c->sorted[i - 1]) < ccws_lls(c, w)) {
      c->sorted[i] = c->sorted[i - 1];
      i--;
    }
    c->sorted[i] = w;
  }
  const uint64_t cutoff = ccws_cutoff(c);
  uint64_t sum = 0, above_in = 0, reach_sum = 0;
  bool limited = false;
  uint32_t allowed = 0, excluded = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t w = c->sorted[i];
    if (c->skip_barrier && c->at_bar[w]) {
      c->allowed[w] = 1, allowed++;
      continue;
    }
    if (limited) {
      c->allowed[w] = 0, excluded++;
      continue;
    }
    c->allowed[w] = 1, allowed++;
    const uint64_t lls = ccws_lls(c, w);
    sum += lls;
    above_in += lls > c->base;
    if (sum >= cutoff) limited = true, reach_sum = sum;
  }
  c->nallowed = allowed;
  c->nexcluded = excluded;
  if (allowed > c->st_allowed_max) c->st_allowed_max = allowed;
  if (excluded > c->st_excluded_max) c->st_excluded_max = excluded;
  c->wake = UINT64_MAX;
  if (!excluded) return; /* everyone may load: decay cannot widen the set */
  uint64_t d = UINT64_MAX;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t w = c->sorted[i];
    const uint64_t lls = ccws_lls(c, w);
    if (lls > c->base && lls - c->base < d) d = lls - c->base; /* reaches the base: the order may change */
  }
  if (above_in) {
    uint64_t dc = (reach_sum - cutoff) / above_in + 1; /* first d with reach_sum - d * above_in < cutoff */
    if (dc < d) d = dc;
  }
  if (d != UINT64_MAX) c->wake = c->t_acc + d;
}

static void ccws_tick(void *state, uint64_t now) {
  Ccws *c = state;
  ccws_advance(c, now);
  if (now >= c->wake) ccws_recompute(c);
}

static uint64_t ccws_next_tick(void *state, uint64_t now) {
  (void)now;
  return ((Ccws *)state)->wake;
}

/* A VTA hit of warp w: its score becomes LLDS (or, accumulating, grows by
 * LLDS up to the cap), never below the base. */
static void ccws_vta_hit(Ccws *c, uint32_t w) {
  c->hits[w]++;
  c->res_hits++;
  const double ratio = c->res_insts ? (double)c->res_hits / (double)c->res_insts : 0.0;
  const double cutoff = (double)ccws_cutoff(c);
  const uint64_t llds = (uint64_t)(ratio * (double)c->k * cutoff);
  uint64_t s = llds;
  if (c->accumulate) {
    const uint64_t cap = (uint64_t)(ratio * (double)c->cap_k * cutoff);
    s = ccws_lls(c, w) + llds;
    if (s > cap) s = cap;
  }
  if (s < c->base) s = c->base;
  if (s != ccws_lls(c, w)) c->st_score_raises++;
  ccws_set_lls(c, w, s);
}

static void ccws_event(void *state, const SchedEvent *ev) {
  Ccws *c = state;
  ccws_advance(c, ev->cycle);
  const uint32_t w = ev->slot;
  const bool mine = w < c->nw;
  VtaMissClass k = VTA_MISS_OTHER;
  const bool probed = vta_feed_event(&c->vf, ev, &k, NULL); /* the VTA's part of every event */
  switch (ev->kind) {
  case SCHED_EV_WARP_LAUNCH:
    if (!mine) return;
    if (!c->valid[w]) c->nactive++;
    c->valid[w] = 1;
    ccws_set_lls(c, w, c->base);
    c->hits[w] = c->insts[w] = 0;
    c->at_bar[w] = 0;
    c->cta[w] = ev->cta_slot;
    break;
  case SCHED_EV_WARP_EXIT:
    if (!mine || !c->valid[w]) return;
    c->nactive--;
    c->valid[w] = 0;
    c->res_hits -= c->hits[w];
    c->res_insts -= c->insts[w];
    c->hits[w] = c->insts[w] = 0;
    c->at_bar[w] = 0;
    c->allowed[w] = 0;
    break;
  case SCHED_EV_BARRIER_ARRIVE:
    if (!mine || !c->skip_barrier) return;
    c->at_bar[w] = 1;
    break;
  case SCHED_EV_BARRIER_RELEASE:
    if (!c->skip_barrier) return;
    for (uint32_t s = 0; s < c->nw; s++)
      if (c->valid[s] && c->cta[s] == ev->cta_slot) c->at_bar[s] = 0;
    break;
  case SCHED_EV_L1_MISS:
    if (!probed || k == VTA_MISS_OTHER) return; /* not in the warp's VTA: no lost locality */
    ccws_vta_hit(c, w);
    break;
  default:
    return;
  }
  ccws_recompute(c);
}

static void ccws_issue(void *state, const WarpView *v, const SchedIssue *is) {
  (void)is;
  Ccws *c = state;
  if (v->slot >= c->nw) return;
  c->insts[v->slot]++;
  c->res_insts++;
  c->st_insts++;
}

static bool ccws_can_issue(void *state, const WarpView *v, WarpInstKind kind) {
  Ccws *c = state;
  if (kind != WINST_GLOBAL_LOAD && kind != WINST_LOCAL_LOAD) return true;
  return v->slot >= c->nw || c->allowed[v->slot];
}

static void ccws_warps_change(void *state) { sched_age_cache_changed(&((Ccws *)state)->age); }

static uint32_t ccws_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                           uint64_t cycle, uint32_t *out) {
  (void)cycle;
  return sched_order_gto(&((Ccws *)state)->age, v, nslots, sched, greedy, out);
}

static void ccws_stats(void *state, PolicyStats *out) {
  const Ccws *c = state;
  const uint64_t vta_hits = c->vf.found[VTA_MISS_INTRA] + c->vf.found[VTA_MISS_INTER];
  policy_stat_u64(out, "vta_hits", "requests",
                  "L1D misses found in the missing warp's victim tag array (lost locality)", vta_hits);
  policy_stat_u64(out, "vta_probes", "requests",
                  "L1D misses looked up in the missing warp's victim tag array", c->vf.probes);
  policy_stat_u64(out, "vta_inserts", "lines",
                  "L1D lines lost to a replacement, entered in their allocating warp's VTA", c->vf.inserts);
  policy_stat_u64(out, "vta_store_invalidations", "entries",
                  "VTA entries removed because a store wrote their line", c->vf.store_invalidations);
  policy_stat_u64(out, "score_raises", "events", "VTA hits that changed the warp's lost-locality score",
                  c->st_score_raises);
  policy_stat_u64(out, "issued_warp_insts", "warp_insts", "warp instructions issued (the LLDS denominator)",
                  c->st_insts);
  policy_stat_f64(out, "vta_hits_per_kilo_inst", "hits/kinst",
                  "VTA hits per 1000 issued warp instructions, mean over the SMs",
                  c->st_insts ? 1000.0 * (double)vta_hits / (double)c->st_insts : 0.0, PSTAT_MEAN);
  policy_stat_u64(out, "throttle_cycles", "cycles", "cycles in which the cutoff walk left some warp out",
                  c->st_throttle_cycles);
  policy_stat_u64(out, "active_cycles", "cycles", "cycles with a resident warp", c->st_active_cycles);
  policy_stat_f64(out, "allowed_warps_mean", "warps",
                  "warps the cutoff walk allowed to issue loads, mean over active cycles",
                  c->st_active_cycles ? (double)c->st_allowed_sum / (double)c->st_active_cycles : 0.0,
                  PSTAT_MEAN);
  policy_stat_f64(out, "allowed_warps_max", "warps", "most warps the cutoff walk allowed at once",
                  c->st_allowed_max, PSTAT_MAX);
  policy_stat_f64(out, "excluded_warps_max", "warps", "most warps the cutoff walk excluded at once",
                  c->st_excluded_max, PSTAT_MAX);
}

/* Timeline counter tracks (doc/timeline.md): the warps allowed to load, and the valid warps'
 * lost-locality scores summed, decayed to `cycle` (ccws_lls_at). */
static void ccws_gauges(void *state, uint64_t cycle, PolicyGauges *out) {
  const Ccws *c = state;
  const uint64_t t = cycle > c->t_acc ? cycle : c->t_acc;
  uint64_t sum = 0;
  for (uint32_t w = 0; w < c->nw; w++)
    if (c->valid[w]) sum += ccws_lls_at(c, w, t);
  policy_gauge(out, "allowed_warps", c->nallowed);
  policy_gauge(out, "score_sum", (double)sum);
}

/* its order is gto's (it lists every warp, from their ages and greedy alone); its load refusals change
 * only at its events and next_tick's wakes; it reads the VTA feed's events and barriers, no lanes */
static const PolicyEngineHints ccws_hints = {.lists_all = true,
                                             .stable_order = true,
                                             .stable_refusals = true,
                                             .next_tick = ccws_next_tick,
                                             .events = VTA_FEED_EVENTS |
                                                       SCHED_EV_BIT(SCHED_EV_BARRIER_ARRIVE) |
                                                       SCHED_EV_BIT(SCHED_EV_BARRIER_RELEASE),
                                             .no_lanes = true};

const WarpSchedPolicy warp_policy_ccws = {.name = "ccws",
                                          .params = ccws_params,
                                          .init = ccws_init,
                                          .free = ccws_free,
                                          .order = ccws_order,
                                          .can_issue = ccws_can_issue,
                                          .on_issue = ccws_issue,
                                          .on_event = ccws_event,
                                          .tick = ccws_tick,
                                          .on_warps_change = ccws_warps_change,
                                          .stats = ccws_stats,
                                          .gauges = ccws_gauges,
                                          .hints = &ccws_hints};
