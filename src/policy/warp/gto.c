/* gto.c - greedy-then-oldest: the warp issued last first (even if stalled),
 * then the others oldest first; and `old`: oldest first, no greedy slot. */
#include <stdlib.h>

#include "policy/warp_sched.h"

typedef struct Gto {
  SchedAgeCache age;
} Gto;

static int gto_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  Gto *g = calloc(1, sizeof *g);
  if (!g || sched_age_cache_init(&g->age, env, env->nsched)) {
    free(g);
    return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  }
  *state = g;
  return 0;
}

static void gto_free(void *state) {
  Gto *g = state;
  sched_age_cache_free(&g->age);
  free(g);
}

static void gto_warps_change(void *state) { sched_age_cache_changed(&((Gto *)state)->age); }

static uint32_t gto_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                          uint64_t cycle, uint32_t *out) {
  (void)cycle;
  return sched_order_gto(&((Gto *)state)->age, v, nslots, sched, greedy, out);
}

static uint32_t old_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                          uint64_t cycle, uint32_t *out) {
  (void)cycle;
  (void)greedy;
  return sched_collect_by_age_cached(&((Gto *)state)->age, v, nslots, sched, out);
}

const WarpSchedPolicy warp_policy_gto = {.name = "gto",
                                         .init = gto_init,
                                         .free = gto_free,
                                         .order = gto_order,
                                         .hints = &policy_hints_stable_order,
                                         .on_warps_change = gto_warps_change};
const WarpSchedPolicy warp_policy_old = {.name = "old",
                                         .init = gto_init,
                                         .free = gto_free,
                                         .order = old_order,
                                         .hints = &policy_hints_stable_order,
                                         .on_warps_change = gto_warps_change};
