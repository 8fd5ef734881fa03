/* mwf.c - BAWS's most-waiting-first schedulers `mwf-lrr` and `mwf-gto` and
 * its critical-fetch-first fetch choice (Liu et al., ICS'16, Section 4;
 * doc/policies: shared/spec/policies.md section 4).
 *
 * The warp priority table (WPT): per resident CTA slot, the number of its
 * warps waiting at its barrier, incremented at each BARRIER_ARRIVE and
 * cleared at the BARRIER_RELEASE (and at the CTA's launch and exit). One
 * table per SM instance, so both schedulers of an SM read the same one.
 *
 * Order of one scheduler's warps: by their CTA's waiting count, most first;
 * ties by linear CTA id, smaller first; within a CTA the base order:
 *  - mwf-lrr: round-robin from the warp after the one this scheduler issued
 *    last in that CTA (warps of a CTA in launch order, which is warp order);
 *  - mwf-gto: the warp this scheduler issued last in that CTA, then oldest.
 * So the greedy warp keeps first place only inside its own CTA, never ahead
 * of a CTA with more waiting warps (or an equal count and a smaller id).
 * With no CTA waiting, CTAs go by id.
 *
 * CFF (`sm.fetch_policy = sched`): among the fetch-eligible warps, the one
 * ranked first by the same key over both schedulers (waiting count, CTA id,
 * base order, then slot); round-robin after the last fetched warp when no CTA
 * has a waiting warp.
 *
 * The key of warp s: rank(CTA) << 58 | wrapped << 57 | age, where rank is the
 * CTA's place in (waiting desc, id asc) among the resident CTAs and wrapped
 * says the warp comes after the round-robin wrap (lrr: age <= the CTA's
 * last-issued age) or is not the greedy one (gto). */
#include <stdlib.h>
#include <string.h>

#include "policy/warp_sched.h"

#define NONE UINT64_MAX
#define AGE_MASK ((1ull << 57) - 1)

typedef struct Mwf {
  uint32_t nsched, max_ctas;
  int gto;            /* base order within a CTA: 0 LRR, 1 GTO */
  uint32_t *waiting;  /* the WPT: per CTA slot, warps waiting at its barrier */
  uint32_t *cta_id;   /* per CTA slot: its linear id while resident */
  uint8_t *live;      /* per CTA slot: resident */
  uint32_t *rank;     /* per CTA slot: its place in (waiting desc, id asc) */
  uint64_t *last_age; /* [sched * max_ctas + cta slot]: age of the warp last issued there (NONE) */
  uint32_t nwaiting;  /* CTAs with a waiting warp */
  int dirty;          /* rank[] must be recomputed */
  SchedAgeCache age;
  uint64_t *keys; /* scratch: max_warps */
  /* statistics */
  uint64_t arrivals, releases, prio_issues; /* (fetch choices are not counted: the number of
                                             * fetch_select calls depends on the engine's shortcuts) */
} Mwf;

static int mwf_init_common(void **state, const WarpSchedEnv *env, int gto, char *err, size_t errlen) {
  Mwf *m = calloc(1, sizeof *m);
  uint32_t nc = env->max_ctas ? env->max_ctas : 1;
  if (m) {
    m->nsched = env->nsched ? env->nsched : 1;
    m->max_ctas = nc;
    m->gto = gto;
    m->waiting = calloc(nc, sizeof *m->waiting);
    m->cta_id = calloc(nc, sizeof *m->cta_id);
    m->live = calloc(nc, 1);
    m->rank = calloc(nc, sizeof *m->rank);
    m->last_age = malloc(sizeof *m->last_age * nc * m->nsched);
    m->keys = malloc(sizeof *m->keys * (env->max_warps ? env->max_warps : 1));
  }
  if (!m || !m->waiting || !m->cta_id || !m->live || !m->rank || !m->last_age || !m->keys ||
      sched_age_cache_init(&m->age, env, m->nsched)) {
    if (m) {
      free(m->waiting);
      free(m->cta_id);
      free(m->live);
      free(m->rank);
      free(m->last_age);
      free(m->keys);
      free(m);
    }
    return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  }
  for (uint32_t i = 0; i < nc * m->nsched; i++) m->last_age[i] = NONE;
  m->dirty = 1;
  *state = m;
  return 0;
}

static int mwf_lrr_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  return mwf_init_common(state, env, 0, err, errlen);
}
static int mwf_gto_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  return mwf_init_common(state, env, 1, err, errlen);
}

static void mwf_free(void *state) {
  Mwf *m = state;
  sched_age_cache_free(&m->age);
  free(m->waiting);
  free(m->cta_id);
  free(m->live);
  free(m->rank);
  free(m->last_age);
  free(m->keys);
  free(m);
}

static void set_waiting(Mwf *m, uint32_t cs, uint32_t n) {
  if ((m->waiting[cs] != 0) != (n != 0)) m->nwaiting += n ? 1 : (uint32_t)-1;
  m->waiting[cs] = n;
  m->dirty = 1;
}

static void cta_reset(Mwf *m, uint32_t cs) {
  set_waiting(m, cs, 0);
  for (uint32_t q = 0; q < m->nsched; q++) m->last_age[q * m->max_ctas + cs] = NONE;
}

static void mwf_event(void *state, const SchedEvent *ev) {
  Mwf *m = state;
  uint32_t cs = ev->cta_slot;
  if (cs >= m->max_ctas) return;
  switch (ev->kind) {
  case SCHED_EV_CTA_LAUNCH:
    cta_reset(m, cs);
    m->live[cs] = 1;
    m->cta_id[cs] = ev->cta_id;
    break;
  case SCHED_EV_CTA_EXIT:
    cta_reset(m, cs);
    m->live[cs] = 0;
    break;
  case SCHED_EV_BARRIER_ARRIVE:
    m->arrivals++;
    set_waiting(m, cs, m->waiting[cs] + 1);
    break;
  case SCHED_EV_BARRIER_RELEASE:
    m->releases++;
    set_waiting(m, cs, 0);
    break;
  default:
    break;
  }
}

static void mwf_issue(void *state, const WarpView *v, const SchedIssue *is) {
  (void)is;
  Mwf *m = state;
  m->prio_issues += m->nwaiting != 0;
  if (v->cta_slot < m->max_ctas) m->last_age[(v->slot % m->nsched) * m->max_ctas + v->cta_slot] = v->age;
}

static void mwf_warps_change(void *state) { sched_age_cache_changed(&((Mwf *)state)->age); }

/* rank[c]: how many resident CTAs go before c (more waiting warps, or as many and a smaller id). */
static void update_ranks(Mwf *m) {
  if (!m->dirty) return;
  for (uint32_t c = 0; c < m->max_ctas; c++) {
    uint32_t r = 0;
    if (m->live[c])
      for (uint32_t d = 0; d < m->max_ctas; d++)
        r += m->live[d] && d != c &&
             (m->waiting[d] > m->waiting[c] ||
              (m->waiting[d] == m->waiting[c] && m->cta_id[d] < m->cta_id[c]));
    else
      r = m->max_ctas; /* not told of it: last */
    m->rank[c] = r;
  }
  m->dirty = 0;
}

/* The ranking key of warp v (smaller first); update_ranks() first. */
static inline uint64_t warp_key(const Mwf *m, const WarpView *v) {
  uint32_t cs = v->cta_slot < m->max_ctas ? v->cta_slot : m->max_ctas - 1;
  uint64_t rank = v->cta_slot < m->max_ctas ? m->rank[cs] : m->max_ctas;
  uint64_t last = m->last_age[(v->slot % m->nsched) * m->max_ctas + cs];
  uint64_t wrapped = m->gto ? v->age != last : last != NONE && v->age <= last;
  return rank << 58 | wrapped << 57 | (v->age & AGE_MASK);
}

static uint32_t mwf_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                          uint64_t cycle, uint32_t *out) {
  (void)greedy;
  (void)cycle;
  Mwf *m = state;
  update_ranks(m);
  uint32_t n = sched_collect_by_age_cached(&m->age, v, nslots, sched, out); /* oldest first: nearly sorted */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t s = out[i];
    uint64_t k = warp_key(m, &v[s]);
    uint32_t j = i;
    while (j > 0 && m->keys[j - 1] > k) {
      m->keys[j] = m->keys[j - 1];
      out[j] = out[j - 1];
      j--;
    }
    m->keys[j] = k;
    out[j] = s;
  }
  return n;
}

static uint32_t mwf_fetch(void *state, const WarpView *v, const uint32_t *elig, uint32_t n, uint32_t last,
                          uint64_t cycle) {
  (void)cycle;
  Mwf *m = state;
  if (!m->nwaiting) { /* no CTA waits: the baseline round-robin */
    for (uint32_t i = 0; i < n; i++)
      if (elig[i] > last) return elig[i];
    return elig[0];
  }
  update_ranks(m);
  uint32_t best = elig[0];
  uint64_t bk = warp_key(m, &v[best]);
  for (uint32_t i = 1; i < n; i++) { /* ascending slots: the smaller slot wins a tie */
    uint64_t k = warp_key(m, &v[elig[i]]);
    if (k < bk) bk = k, best = elig[i];
  }
  return best;
}

static void mwf_stats(void *state, PolicyStats *out) {
  Mwf *m = state;
  policy_stat_u64(out, "wpt_arrivals", "arrivals",
                  "warp arrivals at a barrier recorded in the warp-phase table", m->arrivals);
  policy_stat_u64(out, "wpt_releases", "releases",
                  "barrier releases (the CTA's waiting warps leave the table)", m->releases);
  policy_stat_u64(out, "issues_while_waiting", "warp_insts",
                  "instructions issued while some warp of the SM waited at a barrier", m->prio_issues);
}

/* Timeline counter tracks (doc/timeline.md): the CTAs with warps waiting at a barrier, and the
 * highest priority (waiting warps of the first-ranked CTA). */
static void mwf_gauges(void *state, uint64_t cycle, PolicyGauges *out) {
  const Mwf *m = state;
  uint32_t top = 0;
  for (uint32_t c = 0; c < m->max_ctas; c++) top = m->waiting[c] > top ? m->waiting[c] : top;
  policy_gauge(out, "ctas_waiting", m->nwaiting);
  policy_gauge(out, "top_priority", top);
}

/* its order lists every warp; it reads the CTA and barrier events only (none per L1D request) */
static const PolicyEngineHints mwf_hints = {
    .lists_all = true,
    .events = SCHED_EV_BIT(SCHED_EV_CTA_LAUNCH) | SCHED_EV_BIT(SCHED_EV_CTA_EXIT) |
              SCHED_EV_BIT(SCHED_EV_BARRIER_ARRIVE) | SCHED_EV_BIT(SCHED_EV_BARRIER_RELEASE)};

#define MWF_HOOKS                                                                                            \
  .free = mwf_free, .order = mwf_order, .hints = &mwf_hints, .on_issue = mwf_issue, .on_event = mwf_event,   \
  .on_warps_change = mwf_warps_change, .fetch_select = mwf_fetch, .stats = mwf_stats, .gauges = mwf_gauges

const WarpSchedPolicy warp_policy_mwf_lrr = {.name = "mwf-lrr", .init = mwf_lrr_init, MWF_HOOKS};
const WarpSchedPolicy warp_policy_mwf_gto = {.name = "mwf-gto", .init = mwf_gto_init, MWF_HOOKS};
