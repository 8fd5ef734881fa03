/* swl.c - static warp limiting (CCWS's "Best-SWL" baseline): GTO restricted
 * to the `limit` oldest unfinished warps of the SM; warps waiting at a barrier
 * do not count toward the limit (they could not issue anyway). Best-SWL is a
 * sweep of `sched.swl.limit` over 1..max warps, not a policy. */
#include <stdlib.h>

#include "policy/warp_sched.h"

typedef struct Swl {
  uint32_t nsched, limit;
  SchedAgeCache age; /* all slots as one list */
} Swl;

static const CfgParam swl_params[] = {
    {.key = "limit",
     .type = CFG_INT,
     .def = "48",
     .min = 1,
     .max = 4096,
     .desc = "warps per SM allowed to issue"},
    {0},
};

static int swl_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  Swl *s = calloc(1, sizeof *s);
  if (!s || sched_age_cache_init(&s->age, env, 1)) {
    free(s);
    return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  }
  s->nsched = env->nsched;
  s->limit = (uint32_t)cfg_int_in(env->cfg, env->prefix, "limit");
  *state = s;
  return 0;
}

static void swl_free(void *state) {
  Swl *s = state;
  sched_age_cache_free(&s->age);
  free(s);
}

static void swl_warps_change(void *state) { sched_age_cache_changed(&((Swl *)state)->age); }

static uint32_t swl_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                          uint64_t cycle, uint32_t *out) {
  (void)cycle;
  Swl *s = state;
  uint32_t all[1024], n = 0, k = 0;
  uint32_t m = sched_collect_by_age_cached(&s->age, v, nslots < 1024 ? nslots : 1024, 0, all);
  /* the allowed set: the `limit` oldest warps not waiting at a barrier */
  for (uint32_t i = 0; i < m; i++) {
    const WarpView *w = &v[all[i]];
    if (w->wait == WARP_WAIT_BARRIER) continue;
    if (k++ >= s->limit) break;
    if (all[i] % s->nsched == sched) out[n++] = all[i];
  }
  if (greedy >= 0) sched_move_front(out, n, greedy);
  return n;
}

const WarpSchedPolicy warp_policy_swl = {.name = "swl",
                                         .params = swl_params,
                                         .init = swl_init,
                                         .free = swl_free,
                                         .order = swl_order,
                                         .on_warps_change = swl_warps_change};
