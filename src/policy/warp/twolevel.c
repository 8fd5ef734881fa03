/* twolevel.c - two-level warp scheduling (Narasiman et al., MICRO'11), the
 * variant CAWA and CCWS compare against: a scheduler's warps form fetch groups
 * of `group_size` (by slot); the current group keeps priority until all its
 * warps wait on long-latency (global/local) loads, then the next group takes
 * over. `inner` orders warps inside a group, `outer` orders the groups
 * (lrr: round-robin from the current group; gto: oldest group first).
 * [choice] Other groups follow the current one in priority order instead of
 * being excluded (`strict = true` excludes them). CCWS's 2LVL-GTO is
 * group_size=2 inner=gto outer=gto, also registered as `2lvl-gto`.
 * `mode = active` is GPGPU-Sim's two_level_active scheduler instead (shader.cc,
 * `-gpgpu_scheduler two_level_active:N:0:1`): no fixed groups but an active set
 * of `active_warps` per scheduler, the only warps that may issue, and a FIFO of
 * the others; every cycle (tick) each active warp that waits (no warp, finished,
 * at a barrier, or its next instruction waits on a long-latency load) goes to
 * the FIFO's back and the FIFO's front fills its place, ready or not; inside the
 * set lrr restarts after the warp that issued (inner = gto: the greedy warp, then
 * oldest first, which GPGPU-Sim does not implement). Its tick runs every cycle, so an SM
 * under it never skips quiet cycles (kmeans at small: 2.4x the CPU time). */
#include <stdlib.h>
#include <string.h>

#include "policy/warp_sched.h"

#define TL_MAX_SCHED 16
#define TL_MAX_GROUPS 1024
#define TL_MAX_SLOTS 4096

/* mode = active: one scheduler's active set (in priority order) and FIFO of the other slots */
typedef struct TlActive {
  uint32_t *act, nact;              /* the active set, lrr order */
  uint32_t *fifo, head, nfifo, cap; /* a ring of cap slots */
} TlActive;

typedef struct TwoLevel {
  uint32_t nsched, group, ngroups, nslots;
  int inner_gto, outer_gto, strict, active;
  uint32_t max_active;
  uint32_t cur[TL_MAX_SCHED];
  uint64_t switches;     /* times a scheduler's current group changed (active: warps demoted) */
  SchedAgeCache age;     /* inner = gto */
  const WarpView *views; /* the SM's views (mode active reads them in tick) */
  TlActive as[TL_MAX_SCHED];
  uint16_t gof[TL_MAX_SLOTS]; /* each slot's fetch group: (slot / nsched) / group, no division per call */
} TwoLevel;

/* The variant's keys, in both registrations. */
#define TL_MODE_PARAMS                                                                                       \
  {.key = "mode",                                                                                            \
   .type = CFG_ENUM,                                                                                         \
   .def = "groups",                                                                                          \
   .choices = "groups|active",                                                                               \
   .desc = "groups: fixed fetch groups of group_size; active: GPGPU-Sim's two_level_active (an active set "  \
           "of active_warps per scheduler, a waiting warp swapped for the next in a FIFO every cycle; "      \
           "group_size, outer and strict unused)"},                                                          \
  {                                                                                                          \
    .key = "active_warps", .type = CFG_INT, .def = "6", .min = 1, .max = 1024,                               \
    .desc = "mode active: warps in each scheduler's active set (GPGPU-Sim's GTX480 config: 6)"               \
  }

static const CfgParam twolevel_params[] = {
    {.key = "group_size",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 1024,
     .desc = "warps per fetch group"},
    {.key = "inner", .type = CFG_ENUM, .def = "lrr", .choices = "lrr|gto", .desc = "order inside a group"},
    {.key = "outer", .type = CFG_ENUM, .def = "lrr", .choices = "lrr|gto", .desc = "order of the groups"},
    {.key = "strict", .type = CFG_BOOL, .def = "false", .desc = "only the current group may issue"},
    TL_MODE_PARAMS,
    {0},
};

static void tl_free(void *state);

/* mode active: each scheduler's slots in slot order, the first max_active active (GPGPU-Sim's
 * add_supervised_warp_id); 0 or -1 on no memory. */
static int tl_active_init(TwoLevel *t, uint32_t max_warps) {
  for (uint32_t q = 0; q < t->nsched; q++) {
    TlActive *a = &t->as[q];
    a->cap = max_warps > q ? (max_warps - q + t->nsched - 1) / t->nsched : 0;
    a->act = calloc(a->cap + 1, sizeof *a->act);
    a->fifo = calloc(a->cap + 1, sizeof *a->fifo);
    if (!a->act || !a->fifo) return -1;
    for (uint32_t s = q; s < max_warps; s += t->nsched)
      if (a->nact < t->max_active)
        a->act[a->nact++] = s;
      else
        a->fifo[a->nfifo++] = s;
  }
  return 0;
}

static int tl_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  TwoLevel *t = calloc(1, sizeof *t);
  if (!t) return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  t->nsched = env->nsched;
  t->group = (uint32_t)cfg_int_in(env->cfg, env->prefix, "group_size");
  t->inner_gto = !strcmp(cfg_str_in(env->cfg, env->prefix, "inner"), "gto");
  t->outer_gto = !strcmp(cfg_str_in(env->cfg, env->prefix, "outer"), "gto");
  t->strict = cfg_bool_in(env->cfg, env->prefix, "strict");
  t->active = !strcmp(cfg_str_in(env->cfg, env->prefix, "mode"), "active");
  t->max_active = (uint32_t)cfg_int_in(env->cfg, env->prefix, "active_warps");
  t->views = env->views;
  t->nslots = env->max_warps;
  uint32_t per_sched = (env->max_warps + env->nsched - 1) / env->nsched;
  t->ngroups = (per_sched + t->group - 1) / t->group;
  if (t->ngroups > TL_MAX_GROUPS || env->max_warps > TL_MAX_SLOTS) {
    free(t);
    return cfg_errorf(env->cfg, "sched.two-level.group_size", err, errlen, "too many fetch groups");
  }
  if (env->nsched > TL_MAX_SCHED) {
    free(t);
    return cfg_errorf(env->cfg, "sched.count", err, errlen, "two-level supports at most %d schedulers",
                      TL_MAX_SCHED);
  }
  for (uint32_t s = 0; s < TL_MAX_SLOTS; s++)
    t->gof[s] = (uint16_t)((s / (t->nsched ? t->nsched : 1)) / t->group);
  if (sched_age_cache_init(&t->age, env, env->nsched)) {
    free(t);
    return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  }
  if (t->active && tl_active_init(t, env->max_warps)) {
    tl_free(t);
    return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  }
  *state = t;
  return 0;
}

static void tl_free(void *state) {
  TwoLevel *t = state;
  sched_age_cache_free(&t->age);
  for (uint32_t q = 0; q < TL_MAX_SCHED; q++) free(t->as[q].act), free(t->as[q].fifo);
  free(t);
}

static void tl_warps_change(void *state) { sched_age_cache_changed(&((TwoLevel *)state)->age); }

static uint32_t group_of(const TwoLevel *t, uint32_t slot) { return t->gof[slot]; }

/* A warp that can make progress soon: not waiting on a long-latency load, a barrier or its drain. */
static int warp_live(const WarpView *w) {
  return w->valid && !w->long_pending && w->wait != WARP_WAIT_BARRIER && w->wait != WARP_WAIT_DRAIN;
}

/* A group keeps priority while one of its warps can make progress. */
static int group_live(const TwoLevel *t, const WarpView *v, uint32_t nslots, uint32_t sched, uint32_t g) {
  for (uint32_t i = g * t->group, s = i * t->nsched + sched; i < (g + 1) * t->group && s < nslots;
       i++, s += t->nsched) /* the group's slots of this scheduler */
    if (warp_live(&v[s])) return 1;
  return 0;
}

/* ---- mode active (GPGPU-Sim's two_level_active) ---- */

/* What demotes an active warp (shd_warp_t::waiting, or its next instruction reads a register a
 * global/local load has yet to write: the scoreboard's long-op registers). [choice] An atomic in
 * flight demotes only when the next instruction waits on it (GPGPU-Sim: always), and the view
 * says "waits on a load" when the instruction is blocked and a load of the warp is in flight. */
static int warp_waiting(const WarpView *w) {
  return !w->valid || w->wait == WARP_WAIT_BARRIER || w->wait == WARP_WAIT_DRAIN ||
         w->wait == WARP_WAIT_EXITED || (w->wait == WARP_WAIT_SCOREBOARD && w->long_pending);
}

/* Every cycle, before the schedulers issue (two_level_active_scheduler::order_warps): the waiting
 * active warps go to the FIFO's back in their order, then the FIFO's front warps fill the set. */
static void tl_tick(void *state, uint64_t cycle) {
  (void)cycle;
  TwoLevel *t = state;
  if (!t->active || !t->views) return;
  for (uint32_t q = 0; q < t->nsched; q++) {
    TlActive *a = &t->as[q];
    uint32_t keep = 0;
    for (uint32_t i = 0; i < a->nact; i++) {
      const uint32_t s = a->act[i];
      if (warp_waiting(&t->views[s])) {
        a->fifo[(a->head + a->nfifo++) % a->cap] = s;
        t->switches++;
      } else
        a->act[keep++] = s;
    }
    a->nact = keep;
    while (a->nact < t->max_active && a->nfifo) {
      a->act[a->nact++] = a->fifo[a->head];
      a->head = (a->head + 1) % a->cap, a->nfifo--;
    }
  }
}

/* Mode active ticks every cycle, also where the SM would skip (mode groups has no tick: tl_cycle_hooks). */
static uint64_t tl_next_tick(void *state, uint64_t now) {
  (void)state;
  return now + 1;
}
/* Mode groups keeps nothing per cycle or per issue: its SMs call neither hook (and skip quiet cycles). */
static bool tl_cycle_hooks(const void *state) { return ((const TwoLevel *)state)->active; }
static const PolicyEngineHints tl_hints = {.next_tick = tl_next_tick, .cycle_hooks = tl_cycle_hooks};

/* Reverses s[from..to] (to exclusive, from <= to). */
static void tl_reverse(uint32_t *s, uint32_t from, uint32_t to) {
  for (uint32_t i = from, j = to; i + 1 < j; i++, j--) {
    const uint32_t x = s[i];
    s[i] = s[j - 1], s[j - 1] = x;
  }
}

/* Inner lrr (do_on_warp_issued): the set restarts after the warp that issued. */
static void tl_on_issue(void *state, const WarpView *v, const SchedIssue *is) {
  (void)is;
  TwoLevel *t = state;
  if (!t->active || t->inner_gto) return;
  TlActive *a = &t->as[v->slot % t->nsched];
  for (uint32_t i = 0; i < a->nact; i++)
    if (a->act[i] == v->slot) { /* rotate left by i + 1: three reversals, in place */
      tl_reverse(a->act, 0, i + 1);
      tl_reverse(a->act, i + 1, a->nact);
      tl_reverse(a->act, 0, a->nact);
      return;
    }
}

/* The active set alone: in its lrr order, or (inner = gto) the greedy warp, then oldest first. */
static uint32_t tl_order_active(TwoLevel *t, uint32_t sched, const WarpView *v, uint32_t nslots,
                                int32_t greedy, uint32_t *out) {
  const TlActive *a = &t->as[sched];
  uint32_t n = 0;
  if (!t->inner_gto) {
    for (uint32_t i = 0; i < a->nact; i++)
      if (a->act[i] < nslots && v[a->act[i]].valid) out[n++] = a->act[i];
    return n;
  }
  uint32_t tmp[TL_MAX_SLOTS];
  const uint32_t m = sched_collect_by_age_cached(&t->age, v, nslots, sched, tmp);
  if (greedy >= 0 && v[greedy].valid) sched_move_front(tmp, m, greedy);
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t k = 0; k < a->nact; k++)
      if (a->act[k] == tmp[i]) {
        out[n++] = tmp[i];
        break;
      }
  return n;
}

static uint32_t tl_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                         uint64_t cycle, uint32_t *out) {
  (void)cycle;
  TwoLevel *t = state;
  if (t->active) return tl_order_active(t, sched, v, nslots, greedy, out);
  uint32_t *cur = &t->cur[sched], ng = t->ngroups;
  uint64_t gage[TL_MAX_GROUPS];
  uint32_t gorder[TL_MAX_GROUPS];
  /* a group's age is its oldest valid warp (outer = gto orders groups by it) */
  if (t->outer_gto) {
    for (uint32_t g = 0; g < ng; g++) gage[g] = UINT64_MAX;
    for (uint32_t s = sched; s < nslots; s += t->nsched)
      if (v[s].valid && v[s].age < gage[group_of(t, s)]) gage[group_of(t, s)] = v[s].age;
  }
  /* move on while the current group cannot make progress */
  if (!group_live(t, v, nslots, sched, *cur)) {
    const uint32_t was = *cur;
    if (t->outer_gto) {
      uint64_t best = UINT64_MAX;
      for (uint32_t g = 0; g < ng; g++)
        if (gage[g] < best && group_live(t, v, nslots, sched, g)) {
          best = gage[g];
          *cur = g;
        }
    } else {
      for (uint32_t k = 1; k <= ng; k++)
        if (group_live(t, v, nslots, sched, (*cur + k) % ng)) {
          *cur = (*cur + k) % ng;
          break;
        }
    }
    t->switches += *cur != was;
  }
  /* group priority: the current group, then the others (outer order) */
  uint32_t n = 0;
  gorder[n++] = *cur;
  for (uint32_t k = 1; k < ng; k++) gorder[n++] = (*cur + k) % ng;
  if (t->outer_gto) /* others oldest group first (insertion sort, few groups) */
    for (uint32_t i = 2; i < n; i++)
      for (uint32_t j = i; j > 1 && gage[gorder[j]] < gage[gorder[j - 1]]; j--) {
        uint32_t x = gorder[j];
        gorder[j] = gorder[j - 1];
        gorder[j - 1] = x;
      }
  uint32_t tmp[TL_MAX_SLOTS], m;
  if (t->inner_gto) {
    m = sched_collect_by_age_cached(&t->age, v, nslots, sched, tmp);
    if (greedy >= 0 && v[greedy].valid) sched_move_front(tmp, m, greedy);
  } else {
    m = sched_collect_rr(v, nslots, sched, t->nsched, greedy, tmp);
  }
  uint32_t nout = 0, groups = t->strict ? 1 : n;
  for (uint32_t k = 0; k < groups; k++)
    for (uint32_t i = 0; i < m; i++)
      if (group_of(t, tmp[i]) == gorder[k]) out[nout++] = tmp[i];
  return nout;
}

static void tl_stats(void *state, PolicyStats *out) {
  policy_stat_u64(out, "group_switches", "switches",
                  "times the active fetch group changed (mode active: warps demoted from the active set)",
                  ((const TwoLevel *)state)->switches);
}

const WarpSchedPolicy warp_policy_twolevel = {.name = "two-level",
                                              .params = twolevel_params,
                                              .init = tl_init,
                                              .free = tl_free,
                                              .order = tl_order,
                                              .on_issue = tl_on_issue,
                                              .tick = tl_tick,
                                              .on_warps_change = tl_warps_change,
                                              .stats = tl_stats,
                                              .hints = &tl_hints};

/* `2lvl-gto`: CCWS's best two-level variant by name, the same scheduler with
 * fetch groups of 2 and GTO inside and between groups by default
 * (sched.2lvl-gto.* keys; `two-level` with those settings is identical). */
static const CfgParam twolevel_gto_params[] = {
    {.key = "group_size",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 1024,
     .desc = "warps per fetch group"},
    {.key = "inner", .type = CFG_ENUM, .def = "gto", .choices = "lrr|gto", .desc = "order inside a group"},
    {.key = "outer", .type = CFG_ENUM, .def = "gto", .choices = "lrr|gto", .desc = "order of the groups"},
    {.key = "strict", .type = CFG_BOOL, .def = "false", .desc = "only the current group may issue"},
    TL_MODE_PARAMS,
    {0},
};
const WarpSchedPolicy warp_policy_twolevel_gto = {.name = "2lvl-gto",
                                                  .params = twolevel_gto_params,
                                                  .init = tl_init,
                                                  .free = tl_free,
                                                  .order = tl_order,
                                                  .on_issue = tl_on_issue,
                                                  .tick = tl_tick,
                                                  .on_warps_change = tl_warps_change,
                                                  .hints = &tl_hints,
                                                  .stats = tl_stats};
