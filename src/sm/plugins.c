/* plugins.c - the SM's plugins: its warp scheduler (plug[0]) and the
 * observers of sm.observers, made from the registry; the fetch policy; and
 * everything the SM tells them (events, issues, memory-request annotation,
 * ticks, the L1D's evictions). No policy is named or looked up here: the composition root
 * resolves the config's names and hands the SM the policies (SmPolicies). */
#include <stdlib.h>
#include <string.h>

#include "sm/sm_int.h"

/* ---- events ---- */

void sm_emit(Sm *sm, SchedEvent *ev) {
  ev->kernel = sm->env.kernel;
  const SchedEventMask k = SCHED_EV_BIT(ev->kind);
  sm->issue_dirty |= sm->q.refused; /* the scheduler's refusals may change (an observer may feed them) */
  for (uint32_t i = 0; i < sm->nplug; i++)
    if (sm->plug[i].events & k) sm->plug[i].h.on_event(sm->plug[i].st, ev);
}

/* The event's CTA fields from warp `slot`'s view (none for UINT32_MAX). */
static void event_cta(const Sm *sm, SchedEvent *ev, uint32_t slot) {
  if (slot < sm->max_warps) {
    ev->cta_slot = sm->views[slot].cta_slot;
    ev->cta_id = sm->views[slot].cta_id;
  }
}

void sm_event_emit(Sm *sm, SchedEventKind kind, uint32_t slot, uint64_t line, uint32_t module_pc,
                   uint64_t now) {
  SchedEvent ev = {.kind = kind,
                   .slot = slot,
                   .cycle = now,
                   .cta_slot = UINT32_MAX,
                   .cta_id = UINT32_MAX,
                   .line_addr = line,
                   .pc = sm_policy_pc(sm, module_pc),
                   .other_slot = -1};
  event_cta(sm, &ev, slot);
  sm_emit(sm, &ev);
}

static uint32_t l1d_line_owner(const Sm *sm, const CacheLine *l) {
  const int32_t w = sm_l1d_line_owner(sm, l);
  return w < 0 ? UINT32_MAX : (uint32_t)w;
}

/* A reserved L1D line got its data (cache_set_fill_listener): L1_FILL. */
static void l1d_filled(void *ctx, const CacheLine *l, uint64_t now) {
  Sm *sm = ctx;
  uint32_t owner = l1d_line_owner(sm, l);
  SchedEvent ev = {.kind = SCHED_EV_L1_FILL,
                   .slot = owner,
                   .cycle = now,
                   .cta_slot = UINT32_MAX,
                   .cta_id = UINT32_MAX,
                   .line_addr = l->line_addr,
                   .pc = (uint32_t)l->alloc_pc,
                   .other_slot = -1};
  event_cta(sm, &ev, owner);
  sm_emit(sm, &ev);
}

/* The L1D lost a line (cache_set_evict_listener): L1_EVICT to the plugins,
 * naming the warp that allocated it (if it is still the warp in that slot:
 * a warp launched after the line was reserved is another warp) and the warp
 * whose request evicted it. */
static void l1d_evicted(void *ctx, const CacheEviction *e) {
  Sm *sm = ctx;
  const CacheLine *l = e->line;
  uint32_t victim = l1d_line_owner(sm, l);
  SchedEvent ev = {.kind = SCHED_EV_L1_EVICT,
                   .slot = victim,
                   .cycle = e->cycle,
                   .cta_slot = UINT32_MAX,
                   .cta_id = UINT32_MAX,
                   .line_addr = l->line_addr,
                   .pc = (uint32_t)l->alloc_pc,
                   .other_slot = e->by && e->by->sm == (int32_t)sm->id ? e->by->warp : -1,
                   .fail = (uint8_t)e->reason};
  event_cta(sm, &ev, victim);
  sm_emit(sm, &ev);
}

/* ---- other hooks ---- */

void sm_plugins_tick(Sm *sm, uint64_t now) {
  uint64_t wake = UINT64_MAX;
  for (uint32_t i = 0; i < sm->nplug; i++) {
    const SmObserver *p = &sm->plug[i].h;
    if (!p->tick) continue;
    p->tick(sm->plug[i].st, now);
    if (p->hints && p->hints->next_tick) {
      uint64_t t = p->hints->next_tick(sm->plug[i].st, now);
      if (t <= now) t = now + 1;
      if (t < wake) wake = t;
    }
  }
  sm->qm.wake = wake;
}

/* A ready warp the issue stage left (not issued; a warp whose unit another scheduler took is no
 * longer in `ready`) while its scheduler issued another one; a memoised cycle issues nothing. */
void sm_plugins_sched_wait(Sm *sm, uint64_t issued_sched, const uint64_t *ready) {
  for (uint64_t qs = issued_sched; qs; qs &= qs - 1) {
    const uint32_t q = (uint32_t)__builtin_ctzll(qs);
    for (uint32_t wd = 0; wd < sm->bm_words; wd++)
      for (uint64_t b = ready[wd] & sm->sched_bm[(size_t)q * sm->bm_words + wd]; b; b &= b - 1)
        sm->views[wd * 64 + (uint32_t)__builtin_ctzll(b)].sched_wait++;
  }
}

void sm_plugins_issue(Sm *sm, uint32_t slot, const SchedIssue *is) {
  for (uint32_t i = 0; i < sm->nplug; i++)
    if (sm->plug[i].h.on_issue) sm->plug[i].h.on_issue(sm->plug[i].st, &sm->views[slot], is);
}

void sm_plugins_annotate(Sm *sm, uint32_t slot, SchedMemAnnot *m) {
  for (uint32_t i = 0; i < sm->nplug; i++)
    if (sm->plug[i].h.annotate) sm->plug[i].h.annotate(sm->plug[i].st, &sm->views[slot], m);
}

void sm_plugins_warps_change(const Sm *sm) {
  for (uint32_t i = 0; i < sm->nplug; i++)
    if (sm->plug[i].h.on_warps_change) sm->plug[i].h.on_warps_change(sm->plug[i].st);
}

void sm_plugins_kernel(Sm *sm, bool begin, uint64_t now) {
  const SchedEventKind kind = begin ? SCHED_EV_KERNEL_BEGIN : SCHED_EV_KERNEL_END;
  if (!(sm->ev_mask & SCHED_EV_BIT(kind))) return;
  SchedEvent ev = {.kind = kind,
                   .slot = UINT32_MAX,
                   .cycle = now,
                   .cta_slot = UINT32_MAX,
                   .cta_id = UINT32_MAX,
                   .other_slot = -1};
  sm_emit(sm, &ev);
}

/* ---- creation ---- */

/* The plugin contract the SM relies on, checked once per SM on the resolved policies: a warp
 * scheduler orders warps; a fetch policy that defers to the scheduler needs its fetch_select; an
 * observer is listed once (its type has no scheduler hook). 0, or -1 with err set. */
static int check_plugins(const Sm *sm, const SmPolicies *pol, char *err, size_t errlen) {
  const Config *cfg = sm->cfg;
  const WarpSchedPolicy *sched = pol->sched;
  const FetchPolicy *fetch = pol->fetch;
  if (!sched->order)
    return cfg_errorf(cfg, "sched.policy", err, errlen, "warp scheduler '%s' has no order hook", sched->name);
  if (fetch->use_scheduler && !sched->fetch_select)
    return cfg_errorf(cfg, "sm.fetch_policy", err, errlen,
                      "fetch policy '%s' needs a warp scheduler with a fetch_select hook ('%s' has none)",
                      fetch->name, sched->name);
  if (pol->nobservers > SM_MAX_OBSERVERS)
    return cfg_errorf(cfg, "sm.observers", err, errlen, "more than %d observers", SM_MAX_OBSERVERS);
  if (pol->nmeasures > SM_MAX_MEASURES)
    return snprintf(err, errlen, "more than %d measuring observers", SM_MAX_MEASURES), -1;
  for (uint32_t n = 0; n < pol->nobservers; n++) {
    const SmObserver *o = pol->observers[n];
    for (uint32_t i = 0; i < n; i++)
      if (pol->observers[i] == o)
        return cfg_errorf(cfg, "sm.observers", err, errlen, "observer '%s' listed twice", o->name);
  }
  return 0;
}

/* The hooks a warp scheduler has in common with an observer (its plugin record, plug[0]). */
static SmObserver sched_hooks(const WarpSchedPolicy *p) {
  return (SmObserver){.name = p->name,
                      .params = p->params,
                      .init = p->init,
                      .free = p->free,
                      .on_issue = p->on_issue,
                      .on_event = p->on_event,
                      .shares_state = p->shares_state,
                      .annotate = p->annotate,
                      .tick = p->tick,
                      .on_warps_change = p->on_warps_change,
                      .stats = p->stats,
                      .gauges = p->gauges,
                      .hints = p->hints};
}

int sm_plugins_create(Sm *sm, const SmPolicies *pol, char *err, size_t errlen) {
  const Config *cfg = sm->cfg;
  if (check_plugins(sm, pol, err, errlen)) return -1;
  const WarpSchedPolicy *sched = pol->sched;
  const FetchPolicy *fetch = pol->fetch;
  const int nobs = (int)pol->nobservers, nall = nobs + (int)pol->nmeasures;
  const SmObserver *const *obs = pol->observers;
  PolicyGpu *pg = sm->pgpu;
  sm->env = (WarpSchedEnv){.sm = sm->id,
                           .nsched = sm->nsched,
                           .max_warps = sm->max_warps,
                           .max_ctas = sm->max_ctas,
                           .cfg = cfg,
                           .gpu = pg,
                           .kernel = policy_gpu_kernel(pg),
                           .views = sm->views,
                           .l1d = cache_geom(sm->l1d)};
  char prefix[96];
  WarpSchedEnv env = sm->env;
  env.prefix = prefix;
  /* each plugin counts (nplug, sm->fetch) once made: sm_free frees exactly those */
  for (int i = 0; i <= nall; i++) {
    const SmObserver p = !i ? sched_hooks(sched) : i <= nobs ? *obs[i - 1] : *pol->measures[i - 1 - nobs];
    snprintf(prefix, sizeof prefix, "%s.%s", i ? "observer" : "sched", p.name);
    void *st = NULL;
    if (p.init && p.init(&st, &env, err, errlen)) return -1;
    sm->plug[sm->nplug++] = (SmPlugin){.h = p, .st = st};
    if (p.hints && p.hints->cycle_hooks && !p.hints->cycle_hooks(st)) /* this instance's mode needs neither */
      sm->plug[sm->nplug - 1].h.tick = NULL, sm->plug[sm->nplug - 1].h.on_issue = NULL;
  }
  snprintf(prefix, sizeof prefix, "fetch.%s", fetch->name);
  if (fetch->init && fetch->init(&sm->fstate, &env, err, errlen)) return -1;
  sm->fetch = fetch;
  sm->fetch_sched = fetch->use_scheduler;
  sm->policy = sched;
  sm->pstate = sm->plug[0].st;
  bool every = false;
  for (uint32_t i = 0; i < sm->nplug; i++) {
    const SmObserver *p = &sm->plug[i].h;
    const PolicyEngineHints *h = p->hints;
    sm->has_tick |= p->tick != NULL;
    every |= p->tick && !(h && h->next_tick);
    sm->has_issue |= p->on_issue != NULL;
    sm->has_annot |= p->annotate != NULL;
    sm->count_sched_wait |= h && h->sched_wait;
    /* the events rule (PolicyEngineHints.events): what it gets, and what the SM makes for it */
    const SchedEventMask own = h && h->events ? h->events : SCHED_EV_ALL & ~SCHED_EV_STREAM;
    sm->plug[i].events = p->on_event ? (h && h->events ? h->events : SCHED_EV_ALL) : 0;
    if (p->on_event) sm->ev_mask |= own | (h && h->l1_stream_events ? SCHED_EV_STREAM : 0);
    sm->l1_lanes |= (sm->plug[i].events & SM_EV_L1_REQ) && !(h && h->no_lanes);
  }
  sm->l1_events = (sm->ev_mask & SM_EV_L1_REQ) != 0;
  sm->lists_all = sched->hints && sched->hints->lists_all;
  sm->stable_refusals = sched->hints && sched->hints->stable_refusals;
  sm->stable_order = sm->lists_all && sched->hints->stable_order;
  sm->qm.tick_every = every;
  sm->qm.wake = UINT64_MAX;
  if (sm->ev_mask & SCHED_EV_BIT(SCHED_EV_L1_EVICT)) cache_set_evict_listener(sm->l1d, l1d_evicted, sm);
  if (sm->ev_mask & SCHED_EV_BIT(SCHED_EV_L1_FILL)) cache_set_fill_listener(sm->l1d, l1d_filled, sm);
  return 0;
}

void sm_plugins_free(Sm *sm) {
  for (uint32_t i = 0; i < sm->nplug; i++)
    if (sm->plug[i].h.free) sm->plug[i].h.free(sm->plug[i].st);
  sm->nplug = 0;
  if (sm->fetch && sm->fetch->free) sm->fetch->free(sm->fstate);
  sm->fetch = NULL;
  sm->policy = NULL;
}

/* ---- statistics ---- */

void sm_policy_stats(const Sm *sm, uint32_t plugin, PolicyStats *out) {
  policy_stats_begin_instance(out);
  if (plugin < sm->nplug && sm->plug[plugin].h.stats) sm->plug[plugin].h.stats(sm->plug[plugin].st, out);
}

uint32_t sm_plugin_count(const Sm *sm) { return sm->nplug; }
const void *sm_plugin_state(const Sm *sm, uint32_t plugin) {
  return plugin < sm->nplug ? sm->plug[plugin].st : NULL;
}
const char *sm_plugin_name(const Sm *sm, uint32_t plugin) {
  return plugin < sm->nplug ? sm->plug[plugin].h.name : NULL;
}

bool sm_shares_state(const Sm *sm) {
  if (sm->tl) return true;
  for (uint32_t i = 0; i < sm->nplug; i++)
    if (sm->plug[i].h.shares_state && sm->plug[i].h.shares_state(sm->plug[i].st)) return true;
  return false;
}
