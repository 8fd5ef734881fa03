/* gto.c - greedy-then-oldest: the warp issued last first (even if stalled),
 * then the others oldest first; and `old`: oldest first, no greedy slot. */
#include "policy/warp_sched.h"

static int gto_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  (void)err; (void)errlen;
  *state = (void *)(uintptr_t)env->nsched;
  return 0;
}

static uint32_t gto_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                          uint64_t cycle, uint32_t *out) {
  (void)cycle;
  uint32_t n = sched_collect_by_age(v, nslots, sched, (uint32_t)(uintptr_t)state, out);
  if (greedy >= 0 && v[greedy].valid) sched_move_front(out, n, greedy);
  return n;
}

static uint32_t old_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                          uint64_t cycle, uint32_t *out) {
  (void)cycle; (void)greedy;
  return sched_collect_by_age(v, nslots, sched, (uint32_t)(uintptr_t)state, out);
}

const WarpSchedPolicy warp_policy_gto = {.name = "gto", .init = gto_init, .order = gto_order};
const WarpSchedPolicy warp_policy_old = {.name = "old", .init = gto_init, .order = old_order};
