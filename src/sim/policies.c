/* policies.c - resolves the policy names of a configuration in the registry and hands the
 * results to the components (policies.h); the registry's lookups happen here and in the
 * command line only, so mem/ and sm/ see policies as structs, never as names. */
#include <stdio.h>
#include <string.h>

#include "policy/observer/locality.h"
#include "policy/registry.h"
#include "sim/policies.h"

int sim_cache_policy(const Config *cfg, const char *prefix, const CachePolicy **out, char *err,
                     size_t errlen) {
  const char *name = cfg_str_in(cfg, prefix, "policy");
  *out = policy_find_cache(name);
  if (*out) return 0;
  char names[512], key[128];
  policy_names(POLICY_CACHE, names, sizeof names);
  snprintf(key, sizeof key, "%s.policy", prefix);
  return cfg_errorf(cfg, key, err, errlen, "unknown cache policy '%s' (valid: %s)", name, names);
}

int sim_mem_policies(const Config *cfg, MemSysPolicies *out, char *err, size_t errlen) {
  *out = (MemSysPolicies){0};
  if (sim_cache_policy(cfg, "l1d", &out->l1d, err, errlen)) return -1;
  if (sim_cache_policy(cfg, "l1i", &out->l1i, err, errlen)) return -1;
  if (sim_cache_policy(cfg, "l1c", &out->l1c, err, errlen)) return -1;
  return sim_cache_policy(cfg, "l2", &out->l2, err, errlen);
}

/* The observers of sm.observers into out->observers; 0, or -1 with err set. */
static int find_observers(const Config *cfg, SmPolicies *out, char *err, size_t errlen) {
  const char *list = cfg_str(cfg, "sm.observers");
  if (!strcmp(list, "none") || !list[0]) return 0;
  char buf[512], names[512];
  snprintf(buf, sizeof buf, "%s", list);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ' || *tok == '\t') tok++;
    size_t len = strlen(tok);
    while (len && (tok[len - 1] == ' ' || tok[len - 1] == '\t')) tok[--len] = 0;
    const SmObserver *o = policy_find_observer(tok);
    if (!o) {
      policy_names(POLICY_OBSERVER, names, sizeof names);
      return cfg_errorf(cfg, "sm.observers", err, errlen, "unknown observer '%s' (valid: %s, or none)", tok,
                        names[0] ? names : "none registered");
    }
    if (out->nobservers == SM_MAX_OBSERVERS)
      return cfg_errorf(cfg, "sm.observers", err, errlen, "more than %d observers", SM_MAX_OBSERVERS);
    out->observers[out->nobservers++] = o;
  }
  return 0;
}

int sim_sm_policies(const Config *cfg, SmPolicies *out, char *err, size_t errlen) {
  *out = (SmPolicies){0};
  const char *pname = cfg_str(cfg, "sched.policy"), *fname = cfg_str(cfg, "sm.fetch_policy");
  char names[512];
  if (!(out->sched = policy_find_warp(pname))) {
    policy_names(POLICY_WARP, names, sizeof names);
    return cfg_errorf(cfg, "sched.policy", err, errlen, "unknown warp scheduler '%s' (valid: %s)", pname,
                      names);
  }
  if (!(out->fetch = policy_find_fetch(fname))) {
    policy_names(POLICY_FETCH, names, sizeof names);
    return cfg_errorf(cfg, "sm.fetch_policy", err, errlen, "unknown fetch policy '%s' (valid: %s)", fname,
                      names);
  }
  if (find_observers(cfg, out, err, errlen)) return -1;
  /* The core's measurements (registry.def, MEASURE), in every SM after the listed observers. */
  for (const PolicyEntry *e = policy_registry; e->name; e++)
    if (e->kind == POLICY_MEASURE) {
      if (out->nmeasures == SM_MAX_MEASURES)
        return snprintf(err, errlen, "more than %d measuring observers", SM_MAX_MEASURES), -1;
      out->measures[out->nmeasures++] = e->impl;
    }
  /* A plugin that asks for the L1D's stream turns on the locality split of the core's statistics
   * (gpu.l1d_read_misses_evicted_*, gpu.l1d_read_hits_same_warp_*_thread): its observer. */
  bool stream = out->sched->on_event && out->sched->hints && out->sched->hints->l1_stream_events;
  for (uint32_t i = 0; i < out->nobservers; i++)
    stream |=
        out->observers[i]->on_event && out->observers[i]->hints && out->observers[i]->hints->l1_stream_events;
  if (stream && out->nmeasures == SM_MAX_MEASURES)
    return snprintf(err, errlen, "more than %d measuring observers", SM_MAX_MEASURES), -1;
  if (stream) out->measures[out->nmeasures++] = &observer_locality;
  return 0;
}

MemSys *sim_memsys_create(const Config *cfg, PolicyGpu *pg, char *err, size_t errlen) {
  MemSysPolicies mp;
  if (sim_mem_policies(cfg, &mp, err, errlen)) return NULL;
  return memsys_create(cfg, pg, &mp, err, errlen);
}
