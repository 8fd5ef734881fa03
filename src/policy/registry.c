/* registry.c - the policy table, generated from registry.def.
 * Each KIND in registry.def needs a WS_KIND_TYPE_<KIND> (its interface type)
 * and a WS_KIND_ENUM_<KIND> below; a line with an unknown kind fails to compile. */
#include "policy/registry.h"

#include <stdio.h>
#include <string.h>

#define WS_KIND_TYPE_CACHE CachePolicy
#define WS_KIND_ENUM_CACHE POLICY_CACHE
#define WS_KIND_TYPE_WARP WarpSchedPolicy
#define WS_KIND_ENUM_WARP POLICY_WARP
#define WS_KIND_TYPE_FETCH FetchPolicy
#define WS_KIND_ENUM_FETCH POLICY_FETCH
#define WS_KIND_TYPE_OBSERVER SmObserver
#define WS_KIND_ENUM_OBSERVER POLICY_OBSERVER
#define WS_KIND_TYPE_MEASURE SmObserver
#define WS_KIND_ENUM_MEASURE POLICY_MEASURE

#define WS_POLICY(kind, name, sym) extern const WS_KIND_TYPE_##kind sym;
#include "policy/registry.def"
#undef WS_POLICY

const PolicyEntry policy_registry[] = {
#define WS_POLICY(kind, name, sym) {WS_KIND_ENUM_##kind, name, &sym},
#include "policy/registry.def"
#undef WS_POLICY
    {POLICY__KINDS, NULL, NULL},
};

enum { POLICY_EXTRA_MAX = 16 };
static PolicyEntry policy_extra[POLICY_EXTRA_MAX];
static uint32_t policy_nextra;

const void *policy_find(PolicyKind kind, const char *name) {
  for (const PolicyEntry *e = policy_registry; e->name; e++)
    if (e->kind == kind && !strcmp(e->name, name)) return e->impl;
  for (uint32_t i = 0; i < policy_nextra; i++)
    if (policy_extra[i].kind == kind && !strcmp(policy_extra[i].name, name)) return policy_extra[i].impl;
  return NULL;
}

int policy_register(PolicyKind kind, const char *name, const void *impl) {
  if (!name || !impl || kind >= POLICY__KINDS || policy_nextra == POLICY_EXTRA_MAX || policy_find(kind, name))
    return -1;
  policy_extra[policy_nextra++] = (PolicyEntry){kind, name, impl};
  return 0;
}

const CachePolicy *policy_find_cache(const char *name) { return policy_find(POLICY_CACHE, name); }
const WarpSchedPolicy *policy_find_warp(const char *name) { return policy_find(POLICY_WARP, name); }
const FetchPolicy *policy_find_fetch(const char *name) { return policy_find(POLICY_FETCH, name); }
const SmObserver *policy_find_observer(const char *name) { return policy_find(POLICY_OBSERVER, name); }

const char *policy_param_root(PolicyKind kind) {
  switch (kind) {
  case POLICY_WARP:
    return "sched";
  case POLICY_FETCH:
    return "fetch";
  case POLICY_OBSERVER:
  case POLICY_MEASURE:
    return "observer";
  default:
    return "";
  }
}

/* Appends ", name" (or "name" first) to buf; false once it no longer fits. */
static bool names_append(char *buf, size_t len, size_t *used, const char *name) {
  int n = snprintf(buf + *used, len - *used, "%s%s", *used ? ", " : "", name);
  if (n < 0 || (size_t)n >= len - *used) return false;
  *used += (size_t)n;
  return true;
}

void policy_names(PolicyKind kind, char *buf, size_t len) {
  if (!len) return;
  buf[0] = 0;
  size_t used = 0;
  for (const PolicyEntry *e = policy_registry; e->name; e++)
    if (e->kind == kind && !names_append(buf, len, &used, e->name)) return;
  for (uint32_t i = 0; i < policy_nextra; i++)
    if (policy_extra[i].kind == kind && !names_append(buf, len, &used, policy_extra[i].name)) return;
}

const char *policy_kind_name(PolicyKind kind) {
  switch (kind) {
  case POLICY_CACHE:
    return "cache";
  case POLICY_WARP:
    return "warp scheduler";
  case POLICY_FETCH:
    return "fetch";
  case POLICY_OBSERVER:
    return "observer";
  case POLICY_MEASURE:
    return "measure";
  case POLICY__KINDS:
    break;
  }
  return "?";
}

const CfgParam *policy_params(const PolicyEntry *e) {
  switch (e->kind) {
  case POLICY_CACHE:
    return ((const CachePolicy *)e->impl)->params;
  case POLICY_WARP:
    return ((const WarpSchedPolicy *)e->impl)->params;
  case POLICY_FETCH:
    return ((const FetchPolicy *)e->impl)->params;
  case POLICY_OBSERVER:
  case POLICY_MEASURE:
    return ((const SmObserver *)e->impl)->params;
  case POLICY__KINDS:
    break;
  }
  return NULL;
}
