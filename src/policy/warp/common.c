/* common.c - list helpers shared by warp-scheduler policies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/warp_sched.h"

uint32_t sched_collect_by_age(const WarpView *v, uint32_t nslots, uint32_t sched, uint32_t nsched,
                              uint32_t *out) {
  uint32_t n = 0;
  for (uint32_t s = sched; s < nslots; s += nsched)
    if (v[s].valid) {
      /* insertion sort by age: n <= 64, already nearly sorted */
      uint32_t i = n++;
      while (i > 0 && v[out[i - 1]].age > v[s].age) {
        out[i] = out[i - 1];
        i--;
      }
      out[i] = s;
    }
  return n;
}

int sched_age_cache_init(SchedAgeCache *c, const WarpSchedEnv *env, uint32_t nsched) {
  memset(c, 0, sizeof *c);
  c->nsched = nsched;
  c->cap = env->max_warps;
  c->built = calloc(nsched, sizeof *c->built);
  c->nslots = calloc(nsched, sizeof *c->nslots);
  c->n = calloc(nsched, sizeof *c->n);
  c->list = calloc((size_t)nsched * (c->cap ? c->cap : 1), sizeof *c->list);
  if (!c->built || !c->nslots || !c->n || !c->list) {
    sched_age_cache_free(c);
    return -1;
  }
  for (uint32_t q = 0; q < nsched; q++) c->nslots[q] = UINT32_MAX; /* nothing built yet */
  return 0;
}

void sched_age_cache_free(SchedAgeCache *c) {
  free(c->built);
  free(c->nslots);
  free(c->n);
  free(c->list);
  memset(c, 0, sizeof *c);
}

void sched_age_cache_changed(SchedAgeCache *c) {
  c->gen++;
  c->told = 1;
}

uint32_t sched_collect_by_age_cached(SchedAgeCache *c, const WarpView *v, uint32_t nslots, uint32_t sched,
                                     uint32_t *out) {
  uint32_t *list = &c->list[(size_t)sched * c->cap];
  if (!c->told || nslots > c->cap) return sched_collect_by_age(v, nslots, sched, c->nsched, out);
  if (c->nslots[sched] != nslots || c->built[sched] != c->gen) {
    c->n[sched] = sched_collect_by_age(v, nslots, sched, c->nsched, list);
    c->nslots[sched] = nslots;
    c->built[sched] = c->gen;
  }
  memcpy(out, list, sizeof *out * c->n[sched]);
  return c->n[sched];
}

uint32_t sched_collect_rr(const WarpView *v, uint32_t nslots, uint32_t sched, uint32_t nsched, int32_t after,
                          uint32_t *out) {
  uint32_t n = 0, first = sched;
  if (after >= 0) {
    first = (uint32_t)after + nsched;
    if (first >= nslots) first = sched;
  }
  if (nsched && first >= sched && (first - sched) % nsched == 0) { /* after is this scheduler's: two runs */
    for (uint32_t s = first; s < nslots; s += nsched)
      if (v[s].valid) out[n++] = s;
    for (uint32_t s = sched; s < first && s < nslots; s += nsched)
      if (v[s].valid) out[n++] = s;
    return n;
  }
  uint32_t s = first;
  for (uint32_t k = 0; k * nsched < nslots; k++) {
    if (s < nslots && v[s].valid) out[n++] = s;
    s += nsched;
    if (s >= nslots) s = sched;
    if (s == first) break;
  }
  return n;
}

void sched_move_front(uint32_t *out, uint32_t n, int32_t s) {
  if (s < 0) return;
  for (uint32_t i = 0; i < n; i++)
    if (out[i] == (uint32_t)s) {
      for (; i > 0; i--) out[i] = out[i - 1];
      out[0] = (uint32_t)s;
      return;
    }
}

uint32_t sched_order_gto(SchedAgeCache *c, const WarpView *views, uint32_t nslots, uint32_t sched,
                         int32_t greedy, uint32_t *out) {
  uint32_t n = sched_collect_by_age_cached(c, views, nslots, sched, out);
  if (greedy >= 0 && views[greedy].valid) sched_move_front(out, n, greedy);
  return n;
}

int policy_mem_check(const WarpSchedEnv *env, const char *key, uint64_t bytes_per_sm, char *err,
                     size_t errlen) {
  uint64_t nsm = (uint64_t)cfg_int(env->cfg, "sm.count"), total = bytes_per_sm * nsm;
  if (total <= POLICY_MEM_MAX) return 0;
  return cfg_errorf(
      env->cfg, key, err, errlen, "needs %llu MiB of host memory over %llu SMs (at most %llu MiB)",
      (unsigned long long)(total >> 20), (unsigned long long)nsm, (unsigned long long)(POLICY_MEM_MAX >> 20));
}

int sched_vta_geometry(const WarpSchedEnv *env, uint32_t *entries, uint32_t *ways, char *err, size_t errlen) {
  *entries = (uint32_t)cfg_int_in(env->cfg, env->prefix, "vta_entries");
  *ways = (uint32_t)cfg_int_in(env->cfg, env->prefix, "vta_ways");
  char key[128];
  snprintf(key, sizeof key, "%s.vta_entries", env->prefix);
  uint64_t per_warp =
      (uint64_t)*entries * 16 + (*ways ? *entries / *ways : 0) * 4; /* VtaEntry, FIFO pointer */
  if (policy_mem_check(env, key, per_warp * (env->max_warps ? env->max_warps : 1), err, errlen)) return -1;
  if (*ways && *entries % *ways == 0) return 0;
  snprintf(key, sizeof key, "%s.vta_ways", env->prefix);
  return cfg_errorf(env->cfg, key, err, errlen, "vta_ways (%u) must divide vta_entries (%u)", *ways,
                    *entries);
}

const PolicyEngineHints policy_hints_lists_all = {.lists_all = true};
const PolicyEngineHints policy_hints_stable_order = {.lists_all = true, .stable_order = true};

bool policy_shares_always(const void *state) {
  (void)state;
  return true;
}
