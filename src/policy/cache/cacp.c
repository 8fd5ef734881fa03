/* cacp.c - CAWA's criticality-aware cache prioritisation (CACP; Lee et al.,
 * ISCA'15, section 3.3 and Algorithm 4; shared/spec/policies.md section 3),
 * and `ship`, its signature-based hit predictor alone as a plain replacement
 * policy (Wu et al., MICRO'11, with CACP's signature).
 *
 * cacp: ways [0, critical_ways) of every set are the critical partition, the
 * rest the non-critical one (critical_ways = 0, the default: half the ways,
 * CAWA's 8 of 16). A line's signature is
 *   sig = (pc & mask) ^ (line number & mask),  mask = 2^sig_bits - 1,
 * (the line number = line_addr / line_size: the byte address's low bits are
 * the line offset). Two tables of saturating counters (0..counter_max) per
 * cache, indexed by sig: CCBP (initial ccbp_init) predicts lines critical
 * warps will use, SHiP (initial ship_init) predicts reuse at all.
 *  - miss (fill): partition = critical when CCBP[sig] >= threshold, else
 *    non-critical; victim by SRRIP within that partition only (an invalid
 *    way first, then the first way at max_rrpv after ageing the partition);
 *    if every way of that partition is reserved, the other partition's SRRIP
 *    victim (counted as partition_fallbacks). Insert with RRPV max_rrpv when
 *    SHiP[sig] == 0, else max_rrpv - 1; both reuse bits cleared.
 *  - hit: RRPV 0; a request marked MEM_HINT_CRITICAL (the requesting warp is
 *    critical: gcaws or the cpl observer set it) sets c_reuse, CCBP[sig]++ and
 *    SHiP[sig]++; any other sets nc_reuse and SHiP[sig]++.
 *  - eviction (replacement or invalidation): a line of the critical
 *    partition reused by non-critical warps only: CCBP[sig]--; a line never
 *    reused: SHiP[sig]--.
 * ship: one partition (the whole set), no CCBP; hit: RRPV 0, SHiP++;
 * eviction without reuse: SHiP--; insertion as above.
 * Depends only on the cache-policy interface. */
#include <stdlib.h>
#include <string.h>

#include "policy/cache_policy.h"

static const CfgParam cacp_params[] = {
    {.key = "critical_ways",
     .type = CFG_INT,
     .def = "0",
     .min = 0,
     .max = 255,
     .desc =
         "ways [0, N) of a set form the critical partition (fewer than the cache's ways; 0: half of them)"},
    {.key = "threshold",
     .type = CFG_INT,
     .def = "2",
     .min = 0,
     .max = 255,
     .desc = "a fill goes to the critical partition when CCBP[signature] >= threshold"},
    {.key = "ccbp_init", .type = CFG_INT, .def = "1", .min = 0, .max = 255, .desc = "initial CCBP counters"},
    {.key = "ship_init", .type = CFG_INT, .def = "3", .min = 0, .max = 255, .desc = "initial SHiP counters"},
    {.key = "counter_max",
     .type = CFG_INT,
     .def = "3",
     .min = 1,
     .max = 255,
     .desc = "saturation of the CCBP and SHiP counters (3 = 2-bit)"},
    {.key = "max_rrpv",
     .type = CFG_INT,
     .def = "3",
     .min = 1,
     .max = 255,
     .desc = "SRRIP's largest RRPV; insertion at max (SHiP says no reuse) or max-1"},
    {.key = "sig_bits",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 16,
     .desc = "signature bits: (pc ^ line number) & (2^bits - 1)"},
    {0},
};

static const CfgParam ship_params[] = {
    {.key = "ship_init", .type = CFG_INT, .def = "3", .min = 0, .max = 255, .desc = "initial SHiP counters"},
    {.key = "counter_max",
     .type = CFG_INT,
     .def = "3",
     .min = 1,
     .max = 255,
     .desc = "saturation of the SHiP counters (3 = 2-bit)"},
    {.key = "max_rrpv",
     .type = CFG_INT,
     .def = "3",
     .min = 1,
     .max = 255,
     .desc = "SRRIP's largest RRPV; insertion at max (SHiP says no reuse) or max-1"},
    {.key = "sig_bits",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 16,
     .desc = "signature bits: (pc ^ line number) & (2^bits - 1)"},
    {0},
};

enum { CACP_C_REUSE = 1, CACP_NC_REUSE = 2 };

typedef struct Cacp {
  int ship_only;
  uint32_t ways, cways, line_size, mask;
  uint8_t threshold, cmax, max;
  uint8_t *ccbp, *ship;  /* mask + 1 counters each */
  uint8_t *rrpv, *reuse; /* sets * ways */
  uint16_t *sig;         /* sets * ways */
  uint64_t fills_crit, fills_noncrit, fallbacks, hits_crit_req, hits_noncrit_req, evict_zero_reuse, evicts;
} Cacp;

static void cacp_free(void *state) {
  Cacp *c = state;
  if (!c) return;
  free(c->ccbp);
  free(c->ship);
  free(c->rrpv);
  free(c->reuse);
  free(c->sig);
  free(c);
}

static int init_common(void **state, const CachePolicyEnv *env, char *err, size_t errlen, int ship_only) {
  Cacp *c = calloc(1, sizeof *c);
  if (!c) return snprintf(err, errlen, "%s: out of memory", env->prefix), -1;
  c->ship_only = ship_only;
  c->ways = env->ways;
  c->line_size = env->line_size ? env->line_size : 1;
  c->mask = (1u << cfg_int_in(env->cfg, env->prefix, "sig_bits")) - 1;
  c->cmax = (uint8_t)cfg_int_in(env->cfg, env->prefix, "counter_max");
  c->max = (uint8_t)cfg_int_in(env->cfg, env->prefix, "max_rrpv");
  uint8_t ship0 = (uint8_t)cfg_int_in(env->cfg, env->prefix, "ship_init"), ccbp0 = 0;
  char key[160];
  if (!ship_only) {
    c->cways = (uint32_t)cfg_int_in(env->cfg, env->prefix, "critical_ways");
    if (!c->cways) c->cways = c->ways / 2; /* CAWA's 8 of 16 */
    c->threshold = (uint8_t)cfg_int_in(env->cfg, env->prefix, "threshold");
    ccbp0 = (uint8_t)cfg_int_in(env->cfg, env->prefix, "ccbp_init");
    if (!c->cways || c->cways >= c->ways) {
      snprintf(key, sizeof key, "%s.critical_ways", env->prefix);
      cacp_free(c);
      return cfg_errorf(env->cfg, key, err, errlen,
                        "%u critical ways leave no non-critical partition in a %u-way %s",
                        (unsigned)cfg_int_in(env->cfg, env->prefix, "critical_ways"), env->ways, env->cache);
    }
    if (ccbp0 > c->cmax) {
      unsigned cmax = c->cmax; /* read before the free */
      snprintf(key, sizeof key, "%s.ccbp_init", env->prefix);
      cacp_free(c);
      return cfg_errorf(env->cfg, key, err, errlen, "above counter_max (%u)", cmax);
    }
  }
  if (ship0 > c->cmax) {
    unsigned cmax = c->cmax; /* read before the free */
    snprintf(key, sizeof key, "%s.ship_init", env->prefix);
    cacp_free(c);
    return cfg_errorf(env->cfg, key, err, errlen, "above counter_max (%u)", cmax);
  }
  size_t lines = (size_t)env->sets * env->ways;
  c->ccbp = malloc(c->mask + 1u);
  c->ship = malloc(c->mask + 1u);
  c->rrpv = calloc(lines ? lines : 1, 1);
  c->reuse = calloc(lines ? lines : 1, 1);
  c->sig = calloc(lines ? lines : 1, sizeof *c->sig);
  if (!c->ccbp || !c->ship || !c->rrpv || !c->reuse || !c->sig) {
    cacp_free(c);
    return snprintf(err, errlen, "%s: out of memory", env->prefix), -1;
  }
  memset(c->ccbp, ccbp0, c->mask + 1u);
  memset(c->ship, ship0, c->mask + 1u);
  memset(c->rrpv, c->max, lines);
  *state = c;
  return 0;
}

static int cacp_init(void **state, const CachePolicyEnv *env, char *err, size_t errlen) {
  return init_common(state, env, err, errlen, 0);
}
static int ship_init(void **state, const CachePolicyEnv *env, char *err, size_t errlen) {
  return init_common(state, env, err, errlen, 1);
}

static uint32_t signature(const Cacp *c, const MemRequest *req) {
  return (uint32_t)((req->pc ^ (req->line_addr / c->line_size)) & c->mask);
}

/* SRRIP over ways [lo, hi): an invalid way, else age to max and take the
 * first at max; hi when every way of the range is reserved. */
static uint32_t srrip_range(Cacp *c, uint32_t set, const uint8_t *states, uint32_t lo, uint32_t hi) {
  uint8_t *r = &c->rrpv[(size_t)set * c->ways];
  uint8_t top = 0;
  bool any = false;
  for (uint32_t w = lo; w < hi; w++) {
    if (states[w] == CACHE_LINE_INVALID) return w;
    if (states[w] != CACHE_LINE_RESERVED) {
      any = true;
      if (r[w] > top) top = r[w];
    }
  }
  if (!any) return hi;
  uint8_t age = (uint8_t)(c->max - top);
  uint32_t victim = hi;
  for (uint32_t w = lo; w < hi; w++) {
    if (states[w] == CACHE_LINE_RESERVED) continue;
    r[w] = (uint8_t)(r[w] + age);
    if (victim == hi && r[w] == c->max) victim = w;
  }
  return victim;
}

static uint32_t cacp_find_victim(void *state, uint32_t set, const uint8_t *states, const CacheLine *lines,
                                 const MemRequest *req) {
  Cacp *c = state;
  if (c->ship_only) {
    uint32_t v = srrip_range(c, set, states, 0, c->ways);
    return v;
  }
  bool crit = c->ccbp[signature(c, req)] >= c->threshold;
  uint32_t lo = crit ? 0 : c->cways, hi = crit ? c->cways : c->ways;
  uint32_t v = srrip_range(c, set, states, lo, hi);
  if (v < hi) return v;
  c->fallbacks++; /* the partition is all reserved: take the other one's victim */
  lo = crit ? c->cways : 0;
  hi = crit ? c->ways : c->cways;
  v = srrip_range(c, set, states, lo, hi);
  return v < hi ? v : c->ways;
}

static void cacp_fill(void *state, uint32_t set, uint32_t way, const MemRequest *req, uint64_t cycle) {
  Cacp *c = state;
  size_t i = (size_t)set * c->ways + way;
  uint32_t sig = signature(c, req);
  c->sig[i] = (uint16_t)sig;
  c->reuse[i] = 0;
  c->rrpv[i] = c->ship[sig] == 0 ? c->max : (uint8_t)(c->max - 1);
  if (!c->ship_only && way < c->cways)
    c->fills_crit++;
  else
    c->fills_noncrit++;
}

static void cacp_hit(void *state, uint32_t set, uint32_t way, const MemRequest *req, uint64_t cycle) {
  Cacp *c = state;
  size_t i = (size_t)set * c->ways + way;
  uint32_t sig = c->sig[i];
  c->rrpv[i] = 0;
  if (!c->ship_only && (req->hints & MEM_HINT_CRITICAL)) {
    c->reuse[i] |= CACP_C_REUSE;
    if (c->ccbp[sig] < c->cmax) c->ccbp[sig]++;
    c->hits_crit_req++;
  } else {
    c->reuse[i] |= CACP_NC_REUSE;
    c->hits_noncrit_req++;
  }
  if (c->ship[sig] < c->cmax) c->ship[sig]++;
}

static void cacp_evict(void *state, const CacheEviction *ev) {
  Cacp *c = state;
  size_t i = (size_t)ev->set * c->ways + ev->way;
  uint32_t sig = c->sig[i];
  uint8_t r = c->reuse[i];
  c->evicts++;
  if (!c->ship_only && r == CACP_NC_REUSE && ev->way < c->cways) {
    if (c->ccbp[sig] > 0) c->ccbp[sig]--;
  } else if (!r) {
    if (c->ship[sig] > 0) c->ship[sig]--;
    c->evict_zero_reuse++;
  }
  c->reuse[i] = 0;
}

static void cacp_stats(void *state, PolicyStats *out) {
  Cacp *c = state;
  if (!c->ship_only) {
    policy_stat_u64(out, "critical_partition_fills", "lines",
                    "fills into the critical partition (lines of critical requests)", c->fills_crit);
    policy_stat_u64(out, "noncritical_partition_fills", "lines", "fills into the non-critical partition",
                    c->fills_noncrit);
    policy_stat_u64(out, "partition_fallbacks", "lines",
                    "fills that took the other partition's victim (their own all reserved)", c->fallbacks);
    policy_stat_u64(out, "hits_critical_requests", "requests", "hits of requests annotated critical",
                    c->hits_crit_req);
    policy_stat_u64(out, "hits_other_requests", "requests", "hits of other requests", c->hits_noncrit_req);
  } else {
    policy_stat_u64(out, "fills", "lines", "lines filled", c->fills_noncrit);
    policy_stat_u64(out, "hits", "requests", "hits", c->hits_noncrit_req);
  }
  policy_stat_u64(out, "evictions", "lines", "lines evicted", c->evicts);
  policy_stat_ratio(out, "zero_reuse_eviction_fraction",
                    "evicted lines never hit after their fill (the SHiP signature's training)",
                    c->evict_zero_reuse, c->evicts);
}

const CachePolicy cache_policy_cacp = {.name = "cacp",
                                       .params = cacp_params,
                                       .init = cacp_init,
                                       .free = cacp_free,
                                       .find_victim = cacp_find_victim,
                                       .on_fill = cacp_fill,
                                       .on_hit = cacp_hit,
                                       .on_evict = cacp_evict,
                                       .stats = cacp_stats};
const CachePolicy cache_policy_ship = {.name = "ship",
                                       .params = ship_params,
                                       .init = ship_init,
                                       .free = cacp_free,
                                       .find_victim = cacp_find_victim,
                                       .on_fill = cacp_fill,
                                       .on_hit = cacp_hit,
                                       .on_evict = cacp_evict,
                                       .stats = cacp_stats};
