/* policies.h - the policies a configuration names, resolved in the registry (policy/registry.def):
 * the only place below the command line where a policy is looked up by name. The memory system
 * and the SMs receive the resolved structs (MemSysPolicies, SmPolicies). */
#ifndef WS_SIM_POLICIES_H
#define WS_SIM_POLICIES_H

#include <stddef.h>

#include "core/config.h"
#include "mem/memsys.h"
#include "sm/sm.h"

/* The policy of the cache `prefix` ("l1d", "l1i", "l2": its <prefix>.policy key) into *out:
 * 0, or -1 with a message naming the key and the valid names. */
int sim_cache_policy(const Config *cfg, const char *prefix, const CachePolicy **out, char *err,
                     size_t errlen);
/* Every cache's policy. 0, or -1 with err set. */
int sim_mem_policies(const Config *cfg, MemSysPolicies *out, char *err, size_t errlen);
/* The SM's warp scheduler (sched.policy), fetch policy (sm.fetch_policy) and observers
 * (sm.observers: "none", or names separated by commas). 0, or -1 with err set. */
int sim_sm_policies(const Config *cfg, SmPolicies *out, char *err, size_t errlen);
/* memsys_create with the policies cfg names (a memory system alone: tests, tools). */
MemSys *sim_memsys_create(const Config *cfg, PolicyGpu *pg, char *err, size_t errlen);

#endif
