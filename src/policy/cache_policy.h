/* cache_policy.h - the cache-policy interface: replacement, insertion,
 * promotion and bypass decisions of one cache (L1D, L1I or an L2 slice).
 * The generic cache (mem/cache.c) holds the mechanism (tags, line states,
 * MSHRs, queues) and asks a CachePolicy for every decision; it never contains
 * policy logic itself. Depends on policy/mem_req.h, core/config.h and policy/policy_env.h only.
 *
 * Contract:
 *  - A policy is a const CachePolicy with designated initialisers; every hook
 *    may be NULL, meaning the default written next to it. It is registered by
 *    one line in policy/registry.def and selected by name (`l1d.policy = srrip`).
 *  - Per-cache state is the opaque block returned by init() and passed back to
 *    every hook; it is never stored in CacheLine (lines carry only mechanism
 *    state). free() releases it. Hooks must not allocate on the access path.
 *  - Parameters: `params` is a CfgParam table of relative keys; the schema
 *    registers it once per cache under "<cache>.<policy>." (l1d.srrip.max_rrpv)
 *    and init() reads it with cfg_int_in(env->cfg, env->prefix, "max_rrpv").
 *  - find_victim() is called only for a miss that will allocate, only when at
 *    least one way of the set is not RESERVED; it returns a way whose state is
 *    not CACHE_LINE_RESERVED, or `ways` to bypass this request (no line, no
 *    MSHR: the request goes to the next level and its reply skips the tags).
 *  - Hook order for one accepted access: should_bypass (misses only) ->
 *    find_victim -> on_evict (if the victim held a line) -> on_fill (the line
 *    is reserved for the request: allocate-on-miss inserts at reservation) ->
 *    on_miss. A hit calls on_hit, and so does a read merged into a RESERVED
 *    line where the cache's `merge_touch` is set. A reservation failure calls
 *    bypass_on_fail (NO_LINE and NO_MSHR only) and no other hook. Under
 *    write-evict every accepted store is seen: a hit calls on_evict with
 *    CACHE_EVICT_INVALIDATE, a miss calls on_miss (req->is_write set).
 *  - What a policy may know about the requester comes in the MemRequest: SM,
 *    warp, CTA, PC (policy_env.h's PC space), access class and the `hints`
 *    bits the SM's plugins set (annotate: MEM_HINT_CRITICAL, ...).
 *  - Decisions must be deterministic functions of the hook arguments and the
 *    policy's own state (no clocks, no global RNG).
 *  - With sim.threads > 1 the SMs' L1s and the L2 slices run on different
 *    threads at once, so instances share no mutable state: a policy_shared
 *    block is read-only after init() unless an SM plugin of the run declares
 *    shares_state (warp_sched.h), which keeps the run on one thread.
 */
#ifndef WS_CACHE_POLICY_H
#define WS_CACHE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "policy/mem_req.h"
#include "policy/policy_env.h"

typedef enum CacheLineState {
  CACHE_LINE_INVALID = 0,
  CACHE_LINE_RESERVED, /* allocated on a miss, waiting for its fill (owns an MSHR) */
  CACHE_LINE_VALID,
  CACHE_LINE_MODIFIED, /* dirty (write-back caches) */
} CacheLineState;

/* Mechanism state of one line, as policies see it (read-only). The fields a
 * fill or a merge touches (fill_cycle, mshr, state) come first: in a 48-byte
 * record at a 16-byte boundary they never straddle two host cache lines. */
typedef struct CacheLine {
  uint64_t fill_cycle; /* cycle the data arrived */
  uint16_t mshr;       /* MSHR entry while RESERVED */
  uint8_t state;       /* CacheLineState */
  uint8_t reserved_;
  int32_t alloc_sm, alloc_warp;
  uint64_t line_addr;   /* tag: the full line address */
  uint64_t alloc_pc;    /* PC of the request that allocated the line */
  uint64_t alloc_cycle; /* cycle the line was reserved */
} CacheLine;
_Static_assert(sizeof(CacheLine) == 48, "CacheLine: 48 bytes, fill fields in its first 16");

/* Why a request could not be accepted this cycle; the requester retries. */
typedef enum CacheFailReason {
  CACHE_FAIL_NONE = 0,
  CACHE_FAIL_NO_LINE,     /* every way of the set is RESERVED */
  CACHE_FAIL_NO_MSHR,     /* the MSHR table is full */
  CACHE_FAIL_MERGE_LIMIT, /* the line's MSHR already holds the maximum of merged requests */
  CACHE_FAIL_MISS_QUEUE,  /* no room in the miss queue toward the next level */
  CACHE_FAIL_PORT,        /* the cache's tag ports are used up this cycle */
  CACHE_FAIL_REPLY_QUEUE, /* the hit pipeline is full: the requester is not taking replies */
  CACHE_FAIL__COUNT
} CacheFailReason;

typedef enum CacheEvictReason {
  CACHE_EVICT_REPLACE,    /* chosen as victim for a new line */
  CACHE_EVICT_INVALIDATE, /* a store hit under write-evict */
} CacheEvictReason;

typedef struct CacheEviction {
  uint32_t set, way;
  const CacheLine *line; /* the evicted line (tag, allocating SM/warp/PC), before it is cleared */
  bool dirty;
  CacheEvictReason reason;
  const MemRequest *by; /* the request whose fill evicts it (REPLACE) or the store (INVALIDATE) */
  uint64_t cycle;
} CacheEviction;

/* What init() learns about its cache. */
typedef struct CachePolicyEnv {
  const char *prefix; /* "l1d.srrip": where the policy's own keys live */
  const char *cache;  /* "l1d" */
  uint32_t sets, ways, line_size;
  const Config *cfg;
  int32_t sm;        /* the SM an L1 belongs to; -1 for an L2 slice */
  uint32_t instance; /* the SM (L1s) or the memory partition (L2 slices) */
  PolicyGpu *gpu;    /* the GPU's shared policy state (policy_shared); NULL for a cache made alone (tests) */
  const PolicyKernel *kernel; /* the running kernel (NULL for a cache made alone) */
} CachePolicyEnv;

typedef struct CachePolicy {
  const char *name;
  const CfgParam *params; /* NULL or a table of relative keys (see Contract) */
  /* Returns 0 and sets *state (may stay NULL), or -1 with a message in err. */
  int (*init)(void **state, const CachePolicyEnv *env, char *err, size_t errlen);
  void (*free)(void *state);
  /* Miss of a load: send it to the next level without allocating? NULL: never
   * (an L1 bypasses MEM_CLASS_CG loads itself, before asking). */
  bool (*should_bypass)(void *state, const MemRequest *req);
  /* NULL: the lowest INVALID way, else the lowest way not RESERVED.
   * states[w] == lines[w].state (CacheLineState): a policy that decides on
   * states alone reads one byte per way and no line record. */
  uint32_t (*find_victim)(void *state, uint32_t set, const uint8_t *states, const CacheLine *lines,
                          const MemRequest *req);
  void (*on_fill)(void *state, uint32_t set, uint32_t way, const MemRequest *req, uint64_t cycle);
  void (*on_hit)(void *state, uint32_t set, uint32_t way, const MemRequest *req, uint64_t cycle);
  /* An accepted miss: a load allocated or bypassed, or a write-evict store that
   * found no line. Not called for merges or failures. */
  void (*on_miss)(void *state, uint32_t set, const MemRequest *req, uint64_t cycle);
  void (*on_evict)(void *state, const CacheEviction *ev);
  /* Access-level bypass: the request failed for `why` (NO_LINE or NO_MSHR);
   * true sends it to the next level unallocated if the miss queue has room. */
  bool (*bypass_on_fail)(void *state, const MemRequest *req, CacheFailReason why);
  /* Its statistics (policy_stat_u64/f64), combined over the cache's
   * instances (the SMs' L1Ds, the L2 slices) and printed in text and JSON. */
  void (*stats)(void *state, PolicyStats *out);
} CachePolicy;

#endif
