/* lrr.c - loose round-robin: start just after the warp this scheduler issued last. */
#include "policy/warp_sched.h"

static int lrr_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  *state = (void *)(uintptr_t)env->nsched; /* the only state: the scheduler count */
  return 0;
}

static uint32_t lrr_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                          uint64_t cycle, uint32_t *out) {
  (void)cycle;
  return sched_collect_rr(v, nslots, sched, (uint32_t)(uintptr_t)state, greedy, out);
}

const WarpSchedPolicy warp_policy_lrr = {
    .name = "lrr", .init = lrr_init, .order = lrr_order, .hints = &policy_hints_stable_order};
