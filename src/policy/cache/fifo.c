/* fifo.c - first-in-first-out replacement: the victim is the valid,
 * unreserved line allocated longest ago; hits do not promote.
 * Depends only on the cache-policy interface. */
#include <stdlib.h>

#include "policy/cache_policy.h"

typedef struct FifoState {
  uint32_t ways;
  uint64_t clock;
  uint64_t stamp[]; /* sets * ways: allocation order */
} FifoState;

static int fifo_init(void **state, const CachePolicyEnv *env, char *err, size_t errlen) {
  FifoState *s = calloc(1, sizeof *s + sizeof(uint64_t) * env->sets * env->ways);
  if (!s) return snprintf(err, errlen, "%s: out of memory", env->prefix), -1;
  s->ways = env->ways;
  *state = s;
  return 0;
}

static void fifo_free(void *state) { free(state); }

static void fifo_fill(void *state, uint32_t set, uint32_t way, const MemRequest *req, uint64_t cycle) {
  FifoState *s = state;
  s->stamp[set * s->ways + way] = ++s->clock;
}

static uint32_t fifo_find_victim(void *state, uint32_t set, const CacheLine *lines, const MemRequest *req) {
  FifoState *s = state;
  uint32_t best = s->ways;
  for (uint32_t w = 0; w < s->ways; w++) {
    if (lines[w].state == CACHE_LINE_INVALID) return w;
    if (lines[w].state == CACHE_LINE_RESERVED) continue;
    if (best == s->ways || s->stamp[set * s->ways + w] < s->stamp[set * s->ways + best]) best = w;
  }
  return best;
}

const CachePolicy cache_policy_fifo = {
    .name = "fifo",
    .init = fifo_init,
    .free = fifo_free,
    .find_victim = fifo_find_victim,
    .on_fill = fifo_fill,
};
