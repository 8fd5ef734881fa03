/* lru.c - least-recently-used replacement: the victim is the valid,
 * unreserved line touched longest ago. Recency is a per-cache use counter
 * (not the cycle), so two touches in one cycle are still ordered.
 * Also `fifo`: the same stamps set only at allocation (hits do not promote),
 * so the victim is the line allocated longest ago.
 * Depends only on the cache-policy interface. */
#include <stdlib.h>

#include "policy/cache_policy.h"

typedef struct LruState {
  uint32_t ways;
  uint64_t clock;
  uint64_t stamp[]; /* sets * ways */
} LruState;

static int lru_init(void **state, const CachePolicyEnv *env, char *err, size_t errlen) {
  LruState *s = calloc(1, sizeof *s + sizeof(uint64_t) * env->sets * env->ways);
  if (!s) return snprintf(err, errlen, "%s: out of memory", env->prefix), -1;
  s->ways = env->ways;
  *state = s;
  return 0;
}

static void lru_free(void *state) { free(state); }

static void lru_touch(void *state, uint32_t set, uint32_t way, const MemRequest *req, uint64_t cycle) {
  LruState *s = state;
  s->stamp[set * s->ways + way] = ++s->clock;
}

_Static_assert(CACHE_LINE_INVALID < CACHE_LINE_VALID && CACHE_LINE_RESERVED < CACHE_LINE_VALID &&
                   CACHE_LINE_MODIFIED > CACHE_LINE_VALID,
               "lru_find_victim: the states of lines holding data are the largest");

/* The first INVALID way, else the unreserved way with the smallest stamp
 * (the first of equal ones), else ways. lru_find_victim calls it with a constant `ways` for the
 * usual associativities, which unrolls the loop. */
static inline __attribute__((always_inline)) uint32_t
lru_victim_n(const uint64_t *stamp, const uint8_t *states, const uint32_t ways) {
  uint32_t best = ways;
  uint64_t best_stamp = UINT64_MAX;
#pragma GCC unroll 16
  for (uint32_t w = 0; w < ways; w++) {
    if (states[w] < CACHE_LINE_VALID) {
      if (states[w] == CACHE_LINE_INVALID) return w;
    } else if (stamp[w] < best_stamp) {
      best = w, best_stamp = stamp[w];
    }
  }
  return best;
}

static uint32_t lru_find_victim(void *state, uint32_t set, const uint8_t *states, const CacheLine *lines,
                                const MemRequest *req) {
  LruState *s = state;
  const uint64_t *stamp = &s->stamp[(size_t)set * s->ways];
  switch (s->ways) {
  case 4:
    return lru_victim_n(stamp, states, 4);
  case 8:
    return lru_victim_n(stamp, states, 8);
  case 16:
    return lru_victim_n(stamp, states, 16);
  default:
    return lru_victim_n(stamp, states, s->ways);
  }
}

const CachePolicy cache_policy_lru = {
    .name = "lru",
    .init = lru_init,
    .free = lru_free,
    .find_victim = lru_find_victim,
    .on_fill = lru_touch,
    .on_hit = lru_touch,
};

const CachePolicy cache_policy_fifo = {
    .name = "fifo",
    .init = lru_init,
    .free = lru_free,
    .find_victim = lru_find_victim,
    .on_fill = lru_touch,
};

/* Access-level bypassing (the coordinated-bypassing paper's baseline, policies.md section 6):
 * LRU, and a load that would reserve-fail for want of a line (every way of its set reserved)
 * or of an MSHR goes to the next level without allocating instead of stalling the LD/ST unit;
 * a full miss queue is not bypassable (the cache asks only on NO_LINE/NO_MSHR with queue room). */
static bool access_bypass_on_fail(void *state, const MemRequest *req, CacheFailReason why) {
  (void)state, (void)req;
  return why == CACHE_FAIL_NO_LINE || why == CACHE_FAIL_NO_MSHR;
}

const CachePolicy cache_policy_bypass_access = {
    .name = "bypass-access",
    .init = lru_init,
    .free = lru_free,
    .find_victim = lru_find_victim,
    .on_fill = lru_touch,
    .on_hit = lru_touch,
    .bypass_on_fail = access_bypass_on_fail,
};
