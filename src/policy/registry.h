/* registry.h - lookup of policies by kind and exact name (policy/registry.def).
 * The registry is a static table generated from registry.def by an X-macro:
 * no constructors, nothing to drop at link time. Depends on cache_policy.h. */
#ifndef WS_POLICY_REGISTRY_H
#define WS_POLICY_REGISTRY_H

#include <stddef.h>

#include "policy/cache_policy.h"
#include "policy/warp_sched.h"

typedef enum PolicyKind {
  POLICY_CACHE,
  POLICY_WARP,
  POLICY_FETCH,
  POLICY_OBSERVER,
  POLICY_MEASURE, /* an SmObserver of the core's statistics: on in every SM */
  POLICY__KINDS
} PolicyKind;

typedef struct PolicyEntry {
  PolicyKind kind;
  const char *name;
  const void *impl; /* CachePolicy, WarpSchedPolicy, FetchPolicy or SmObserver (OBSERVER, MEASURE) */
} PolicyEntry;

/* The table, ending with {.name = NULL}. */
extern const PolicyEntry policy_registry[];

/* The policy of `kind` named exactly `name` (registry.def first, then those
 * added by policy_register), or NULL. */
const void *policy_find(PolicyKind kind, const char *name);
/* Adds a policy at run time, for tests (a probe policy exercising every hook)
 * and experiments outside the tree; the simulator's own policies are the
 * registry.def lines. At most 16; a name already taken is refused. Returns 0,
 * or -1. The strings and impl must outlive every use. */
int policy_register(PolicyKind kind, const char *name, const void *impl);
const CachePolicy *policy_find_cache(const char *name);
const WarpSchedPolicy *policy_find_warp(const char *name);
/* The policy's own parameter table (or NULL). */
const CfgParam *policy_params(const PolicyEntry *e);
const FetchPolicy *policy_find_fetch(const char *name);
const SmObserver *policy_find_observer(const char *name);
/* The config prefix of a kind's own parameters: "sched", "fetch", "observer" (cache policies: one per cache,
 * "<cache>"). */
const char *policy_param_root(PolicyKind kind);
/* Writes "lru, fifo, srrip" (the valid names of a kind) into buf. */
void policy_names(PolicyKind kind, char *buf, size_t len);
const char *policy_kind_name(PolicyKind kind);

#endif
