/* registry.h - lookup of policies by kind and exact name (policy/registry.def).
 * The registry is a static table generated from registry.def by an X-macro:
 * no constructors, nothing to drop at link time. Depends on cache_policy.h. */
#ifndef WS_POLICY_REGISTRY_H
#define WS_POLICY_REGISTRY_H

#include <stddef.h>

#include "policy/cache_policy.h"

typedef enum PolicyKind { POLICY_CACHE, POLICY__KINDS } PolicyKind;

typedef struct PolicyEntry {
  PolicyKind kind;
  const char *name;
  const void *impl; /* const CachePolicy * for POLICY_CACHE */
} PolicyEntry;

/* The table, ending with {.name = NULL}. */
extern const PolicyEntry policy_registry[];

/* The policy of `kind` named exactly `name`, or NULL. */
const void *policy_find(PolicyKind kind, const char *name);
const CachePolicy *policy_find_cache(const char *name);
/* Writes "lru, fifo, srrip" (the valid names of a kind) into buf. */
void policy_names(PolicyKind kind, char *buf, size_t len);
const char *policy_kind_name(PolicyKind kind);

#endif
