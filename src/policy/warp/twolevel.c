/* twolevel.c - two-level warp scheduling (Narasiman et al., MICRO'11), the
 * variant CAWA and CCWS compare against: a scheduler's warps form fetch groups
 * of `group_size` (by slot); the current group keeps priority until all its
 * warps wait on long-latency (global/local) loads, then the next group takes
 * over. `inner` orders warps inside a group, `outer` orders the groups
 * (lrr: round-robin from the current group; gto: oldest group first).
 * [choice] Other groups follow the current one in priority order instead of
 * being excluded (`strict = true` excludes them). CCWS's 2LVL-GTO is
 * group_size=2 inner=gto outer=gto, also registered as `2lvl-gto`. */
#include <stdlib.h>
#include <string.h>

#include "policy/warp_sched.h"

#define TL_MAX_SCHED 16
#define TL_MAX_GROUPS 1024
#define TL_MAX_SLOTS 4096

typedef struct TwoLevel {
  uint32_t nsched, group, ngroups;
  int inner_gto, outer_gto, strict;
  uint32_t cur[TL_MAX_SCHED];
  uint64_t switches; /* times a scheduler's current group changed */
  SchedAgeCache age; /* inner = gto */
} TwoLevel;

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
    {0},
};

static int tl_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  TwoLevel *t = calloc(1, sizeof *t);
  if (!t) return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  t->nsched = env->nsched;
  t->group = (uint32_t)cfg_int_in(env->cfg, env->prefix, "group_size");
  t->inner_gto = !strcmp(cfg_str_in(env->cfg, env->prefix, "inner"), "gto");
  t->outer_gto = !strcmp(cfg_str_in(env->cfg, env->prefix, "outer"), "gto");
  t->strict = cfg_bool_in(env->cfg, env->prefix, "strict");
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
  if (sched_age_cache_init(&t->age, env, env->nsched)) {
    free(t);
    return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  }
  *state = t;
  return 0;
}

static void tl_free(void *state) {
  TwoLevel *t = state;
  sched_age_cache_free(&t->age);
  free(t);
}

static void tl_warps_change(void *state) { sched_age_cache_changed(&((TwoLevel *)state)->age); }

static uint32_t group_of(const TwoLevel *t, uint32_t slot) { return (slot / t->nsched) / t->group; }

/* A warp that can make progress soon: not waiting on a long-latency load, a barrier or its drain. */
static int warp_live(const WarpView *w) {
  return w->valid && !w->long_pending && w->wait != WARP_WAIT_BARRIER && w->wait != WARP_WAIT_DRAIN;
}

/* A group keeps priority while one of its warps can make progress. */
static int group_live(const TwoLevel *t, const WarpView *v, uint32_t nslots, uint32_t sched, uint32_t g) {
  for (uint32_t s = sched; s < nslots; s += t->nsched)
    if (group_of(t, s) == g && warp_live(&v[s])) return 1;
  return 0;
}

static uint32_t tl_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                         uint64_t cycle, uint32_t *out) {
  (void)cycle;
  TwoLevel *t = state;
  uint32_t *cur = &t->cur[sched], ng = t->ngroups;
  uint64_t gage[TL_MAX_GROUPS];
  uint32_t gorder[TL_MAX_GROUPS];
  /* a group's age is its oldest valid warp (outer = gto orders groups by it) */
  for (uint32_t g = 0; g < ng; g++) gage[g] = UINT64_MAX;
  for (uint32_t s = sched; s < nslots; s += t->nsched)
    if (v[s].valid && v[s].age < gage[group_of(t, s)]) gage[group_of(t, s)] = v[s].age;
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
  policy_stat_u64(out, "group_switches", "switches", "times the active fetch group changed",
                  ((const TwoLevel *)state)->switches);
}

const WarpSchedPolicy warp_policy_twolevel = {.name = "two-level",
                                              .params = twolevel_params,
                                              .init = tl_init,
                                              .free = tl_free,
                                              .order = tl_order,
                                              .on_warps_change = tl_warps_change,
                                              .stats = tl_stats};

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
    {0},
};
const WarpSchedPolicy warp_policy_twolevel_gto = {.name = "2lvl-gto",
                                                  .params = twolevel_gto_params,
                                                  .init = tl_init,
                                                  .free = tl_free,
                                                  .order = tl_order,
                                                  .on_warps_change = tl_warps_change,
                                                  .stats = tl_stats};
