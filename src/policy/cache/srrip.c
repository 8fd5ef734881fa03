/* srrip.c - static re-reference interval prediction (Jaleel et al., ISCA'10):
 * an M-bit RRPV per line, insert at max-1, hit -> 0, victim = the first line
 * (lowest way) at max after aging every candidate until one reaches it.
 * `<cache>.srrip.max_rrpv` is the max (3 = the 2-bit SRRIP of the papers).
 * Depends only on the cache-policy interface. */
#include <stdlib.h>

#include "policy/cache_policy.h"

static const CfgParam srrip_params[] = {
    {.key = "max_rrpv",
     .type = CFG_INT,
     .def = "3",
     .min = 1,
     .max = 255,
     .desc = "largest re-reference prediction value (3 = 2-bit RRPV); insertion uses max-1"},
    {0},
};

typedef struct SrripState {
  uint32_t ways;
  uint8_t max;
  uint8_t rrpv[]; /* sets * ways */
} SrripState;

static int srrip_init(void **state, const CachePolicyEnv *env, char *err, size_t errlen) {
  SrripState *s = calloc(1, sizeof *s + (size_t)env->sets * env->ways);
  if (!s) return snprintf(err, errlen, "%s: out of memory", env->prefix), -1;
  s->ways = env->ways;
  s->max = (uint8_t)cfg_int_in(env->cfg, env->prefix, "max_rrpv");
  *state = s;
  return 0;
}

static void srrip_free(void *state) { free(state); }

static void srrip_fill(void *state, uint32_t set, uint32_t way, const MemRequest *req, uint64_t cycle) {
  SrripState *s = state;
  s->rrpv[set * s->ways + way] = (uint8_t)(s->max - 1);
}

static void srrip_hit(void *state, uint32_t set, uint32_t way, const MemRequest *req, uint64_t cycle) {
  SrripState *s = state;
  s->rrpv[set * s->ways + way] = 0;
}

/* Aging is done in one step: every unreserved line gains (max - the largest
 * RRPV among them), which is what repeated +1 rounds would reach. Reserved
 * lines are not candidates and do not age. */
static uint32_t srrip_find_victim(void *state, uint32_t set, const uint8_t *states, const CacheLine *lines,
                                  const MemRequest *req) {
  SrripState *s = state;
  uint8_t *r = &s->rrpv[set * s->ways];
  uint8_t top = 0;
  for (uint32_t w = 0; w < s->ways; w++) {
    if (states[w] == CACHE_LINE_INVALID) return w;
    if (states[w] != CACHE_LINE_RESERVED && r[w] > top) top = r[w];
  }
  uint8_t age = (uint8_t)(s->max - top);
  uint32_t victim = s->ways;
  for (uint32_t w = 0; w < s->ways; w++) {
    if (states[w] == CACHE_LINE_RESERVED) continue;
    r[w] = (uint8_t)(r[w] + age);
    if (victim == s->ways && r[w] == s->max) victim = w;
  }
  return victim;
}

const CachePolicy cache_policy_srrip = {
    .name = "srrip",
    .params = srrip_params,
    .init = srrip_init,
    .free = srrip_free,
    .find_victim = srrip_find_victim,
    .on_fill = srrip_fill,
    .on_hit = srrip_hit,
};
