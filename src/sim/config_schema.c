/* config_schema.c - the composition root's one place where every component's parameter table is
 * collected into the schema: SM pipeline tables, the memory system's groups,
 * and each cache policy's table once per cache instance
 * ("<cache>.<policy>.<key>"). A new component adds its table here; a new cache
 * policy needs nothing (the registry lists it). */
#include <stdlib.h>
#include <string.h>

#include "sim/config_schema.h"
#include "sm/sm_params.h"
#include "mem/memsys.h"
#include "policy/registry.h"
#include "policy/observer/locality.h"
#include "sm/timeline.h"

/* The warp scheduler every SM runs: chosen here, where the policies are known (registry.def). */
static const CfgParam sched_policy_cfg_params[] = {
    {.key = "policy", .type = CFG_STRING, .def = "gto", .desc = "warp-scheduler policy (registry.def, WARP)"},
    {0},
};

/* How the host simulates a run: never changes a result. */
static const CfgParam sim_cfg_params[] = {
    {.key = "threads",
     .type = CFG_INT,
     .def = "1",
     .min = 0,
     .max = 1024,
     .desc = "threads that simulate the SMs of one run, results identical for every value (0: the cores "
             "available; --threads)"},
    {.key = "adaptive",
     .type = CFG_BOOL,
     .def = "true",
     .desc = "with threads > 1, run each cycle's SMs on the threads or on one, whichever measures faster "
             "(false: on the threads whenever 2 or more SMs are due)"},
    {0},
};

Config *cfg_create(void) {
  static const CfgGroup fixed[] = {
      {"sm.", sm_cfg_params, NULL},
      {"sched.", sched_cfg_params, NULL},
      {"sched.", sched_policy_cfg_params, NULL},
      {"sched.", sched_issue_cfg_params, NULL},
      {"unit.", unit_cfg_params, NULL},
      {"limit.", limit_cfg_params, NULL},
      {"timeline.", timeline_cfg_params, NULL},
      {"sim.", sim_cfg_params, NULL},
      /* the locality split's observer is not in the registry (policies.c adds it) */
      {"observer.locality.", locality_params, NULL},
  };
  size_t nfixed = sizeof fixed / sizeof *fixed, nmem = 0, ncache = 0, npol = 0;
  while (memsys_cfg_groups[nmem].params) nmem++;
  while (memsys_cache_names[ncache]) ncache++;
  size_t nother = 0;
  for (const PolicyEntry *e = policy_registry; e->name; e++) {
    if (e->kind == POLICY_CACHE && policy_params(e)) npol++;
    if (e->kind != POLICY_CACHE && policy_params(e)) nother++;
  }
  size_t n = nfixed + nmem + ncache * npol + nother;
  CfgGroup *groups = calloc(n + 1, sizeof *groups);
  char(*prefixes)[96] = calloc(ncache * npol + nother + 1, sizeof *prefixes);
  Config *cfg = NULL;
  if (groups && prefixes) {
    size_t g = 0, k = 0;
    for (size_t i = 0; i < nfixed; i++) groups[g++] = fixed[i];
    for (size_t i = 0; i < nmem; i++) groups[g++] = memsys_cfg_groups[i];
    for (size_t c = 0; c < ncache; c++)
      for (const PolicyEntry *e = policy_registry; e->name; e++) {
        const CachePolicy *cp = e->impl;
        if (e->kind != POLICY_CACHE || !cp->params) continue;
        snprintf(prefixes[k], sizeof prefixes[k], "%s.%s.", memsys_cache_names[c], e->name);
        groups[g++] = (CfgGroup){prefixes[k++], cp->params, NULL};
      }
    /* warp schedulers: "sched.<name>.<key>"; fetch policies: "fetch.<name>.<key>"; observers:
     * "observer.<name>.<key>" */
    for (const PolicyEntry *e = policy_registry; e->name; e++) {
      if (e->kind == POLICY_CACHE || !policy_params(e)) continue;
      snprintf(prefixes[k], sizeof prefixes[k], "%s.%s.", policy_param_root(e->kind), e->name);
      groups[g++] = (CfgGroup){prefixes[k++], policy_params(e), NULL};
    }
    cfg = cfg_create_schema(groups);
  }
  free(groups);
  free(prefixes);
  return cfg;
}
