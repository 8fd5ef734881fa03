/* twolevel.c - two-level warp scheduling (Narasiman et al., MICRO'11), the
 * variant CAWA and CCWS compare against: a scheduler's warps form fetch groups
 * of `group_size` (by slot); the current group keeps priority until all its
 * warps wait on long-latency (global/local) loads, then the next group takes
 * over. `inner` orders warps inside a group, `outer` orders the groups
 * (lrr: round-robin from the current group; gto: oldest group first).
 * [choice] Other groups follow the current one in priority order instead of
 * being excluded (`strict = true` excludes them). CCWS's 2LVL-GTO is
 * group_size=2 inner=gto outer=gto. */
#include <stdlib.h>
#include <string.h>

#include "policy/warp_sched.h"

#define TL_MAX_SCHED 16

typedef struct TwoLevel {
  uint32_t nsched, group, ngroups;
  int inner_gto, outer_gto, strict;
  uint32_t cur[TL_MAX_SCHED];
} TwoLevel;

static const CfgParam twolevel_params[] = {
    {.key = "group_size", .type = CFG_INT, .def = "8", .min = 1, .max = 1024, .desc = "warps per fetch group"},
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
  if (env->nsched > TL_MAX_SCHED) { free(t); return cfg_errorf(env->cfg, "sched.count", err, errlen, "two-level supports at most %d schedulers", TL_MAX_SCHED); }
  *state = t;
  return 0;
}

static void tl_free(void *s) { free(s); }

static uint32_t group_of(const TwoLevel *t, uint32_t slot) { return (slot / t->nsched) / t->group; }

/* A group can make progress unless every valid warp waits on a long-latency load. */
static int group_live(const TwoLevel *t, const WarpView *v, uint32_t nslots, uint32_t sched, uint32_t g) {
  int any = 0;
  for (uint32_t s = sched; s < nslots; s += t->nsched) {
    if (!v[s].valid || group_of(t, s) != g) continue;
    any = 1;
    if (!v[s].long_pending) return 1;
  }
  return any ? 0 : -1; /* -1: empty group */
}

static uint32_t tl_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                         uint64_t cycle, uint32_t *out) {
  (void)cycle;
  TwoLevel *t = state;
  uint32_t *cur = &t->cur[sched];
  /* advance the current group while it is stalled on long-latency loads (or empty) */
  for (uint32_t k = 0; k < t->ngroups && group_live(t, v, nslots, sched, *cur) != 1; k++) {
    if (t->outer_gto) { /* oldest group that can make progress */
      uint64_t best_age = UINT64_MAX;
      uint32_t best = *cur;
      for (uint32_t s = sched; s < nslots; s += t->nsched)
        if (v[s].valid && !v[s].long_pending && v[s].age < best_age) { best_age = v[s].age; best = group_of(t, s); }
      *cur = best;
      break;
    }
    *cur = (*cur + 1) % t->ngroups;
  }
  uint32_t n = 0, ng = t->strict ? 1 : t->ngroups;
  uint32_t tmp[256];
  for (uint32_t k = 0; k < ng; k++) {
    uint32_t g = (*cur + k) % t->ngroups, m;
    if (t->inner_gto) {
      m = sched_collect_by_age(v, nslots, sched, t->nsched, tmp);
      if (greedy >= 0 && v[greedy].valid) sched_move_front(tmp, m, greedy);
    } else {
      m = sched_collect_rr(v, nslots, sched, t->nsched, greedy, tmp);
    }
    for (uint32_t i = 0; i < m; i++)
      if (group_of(t, tmp[i]) == g) out[n++] = tmp[i];
  }
  return n;
}

const WarpSchedPolicy warp_policy_twolevel = {
    .name = "two-level", .params = twolevel_params, .init = tl_init, .free = tl_free, .order = tl_order};
