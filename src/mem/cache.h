/* cache.h - the generic cache of the memory system (L1D, L1I, L2 slices):
 * tags, line states, allocate-on-miss reservation, an MSHR table that merges
 * same-line requests, a miss queue toward the next level and reply queues
 * toward the requester. Replacement, insertion, promotion and bypass come
 * from a CachePolicy (policy/cache_policy.h); this file has no policy logic.
 *
 * Invariant: every request cache_access() accepts (outcome != CACHE_RESFAIL)
 * comes back exactly once from cache_take_reply(), with its `user` pointer,
 * except write-backs (MEM_F_WRITEBACK), which need no reply. A RESERVED line
 * owns exactly one MSHR entry and vice versa; bypassed requests own neither.
 *
 * Calling protocol (one cycle `now`, nondecreasing across calls):
 *   requester:   r = cache_access(c, &req, now)    HIT/MISS/MERGED/BYPASSED, or
 *                                                  RESFAIL + reason: retry later
 *                while ((r = cache_take_reply(c, now))) ... completed requests
 *   next level:  cache_miss_head(c) / cache_miss_pop(c)   requests to send down
 *                cache_fill(c, &reply, now)        data (or write ack) came back;
 *                                                  false = reply queue full, retry
 */
#ifndef WS_CACHE_H
#define WS_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "core/stats.h"
#include "policy/mem_req.h"
#include "policy/cache_policy.h"

typedef enum CacheOutcome {
  CACHE_HIT,      /* data present (store: the line was found) */
  CACHE_MISS,     /* a line was reserved and the request sent down (store: not present) */
  CACHE_MERGED,   /* joined the MSHR of a line already on its way */
  CACHE_BYPASSED, /* sent down without a line or MSHR (cg class, policy, access-level bypass) */
  CACHE_RESFAIL,  /* not accepted this cycle: see CacheResult.fail */
} CacheOutcome;

typedef struct CacheResult {
  CacheOutcome outcome;
  CacheFailReason fail; /* CACHE_FAIL_NONE unless outcome == CACHE_RESFAIL */
} CacheResult;

typedef enum CacheWritePolicy {
  CACHE_WRITE_EVICT, /* no write-allocate; a store hit invalidates the line; stores go down (L1 global) */
  CACHE_WRITE_BACK,  /* write-allocate without fetch; dirty lines written back on eviction (L2) */
  CACHE_WRITE_LOCAL_BACK, /* GPGPU-Sim 3.2.2's 'L' (Fermi L1D): global stores as EVICT; a local store
                           * (MEM_F_LOCAL) that hits marks the line dirty and is acked here, one that
                           * misses goes down unallocated; dirty lines written back on eviction */
  CACHE_WRITE_BACK_FETCH, /* GPGPU-Sim 3.x's 'B' with write allocation 'W' (its GTX480 L2): a store hit
                           * marks the line dirty; a store miss goes down (a DRAM write) and the line
                           * is fetched (a read without a requester), arriving clean; a store to a
                           * line on its way goes down too; dirty lines written back on eviction */
} CacheWritePolicy;

/* Set index of a line: linear (line number mod sets, GPGPU-Sim 3.x as the
 * papers ran it) or Fermi's hash (GPGPU-Sim after 3.2.2: bits 7-11 XOR bits
 * 13,14,15,17,19, plus bit 12 with 64 sets; 32 or 64 sets of a private cache). */
typedef enum CacheSetIndex { CACHE_INDEX_LINEAR, CACHE_INDEX_FERMI } CacheSetIndex;

typedef struct CacheParams {
  const char *name; /* config prefix and display name: "l1d", "l2" */
  uint32_t level;   /* 1 or 2: which MEM_F_NOALLOC_L<level> flag this cache sets */
  uint32_t size, line_size, assoc;
  uint32_t mshr_entries, mshr_max_merge, miss_queue;
  uint32_t latency; /* hit latency: a hit accepted at t replies at t + latency */
  uint32_t ports;   /* accesses accepted per cycle */
  CacheWritePolicy write_policy;
  bool write_ack_below; /* the L2: a store it sends down is acked by DRAM (MEM_F_ACK_BELOW), not here */
  CacheSetIndex set_index;
  bool bypass_cg;   /* send MEM_CLASS_CG loads down unallocated (L1 data caches) */
  bool merge_touch; /* a read merged into a reserved line calls the policy's on_hit (3.2.2's LRU restamp) */
  const CachePolicy *policy;
  /* Set indexing of one slice of an interleaved cache: the line number is first
   * made slice-local by removing `index_parts` (slices) interleaved in chunks of
   * `index_chunk_lines` lines. 1 and 1 for a private cache. */
  uint32_t index_parts, index_chunk_lines;
  /* Whose cache it is, for its policy (CachePolicyEnv): the SM of an L1 (-1
   * for an L2 slice), the SM or partition index, and the GPU's policy context
   * (NULL for a cache made alone). */
  int32_t sm;
  uint32_t instance;
  PolicyGpu *gpu;
} CacheParams;

/* The counters of a load's hit, miss and fill come first: one host line. */
typedef struct CacheStats {
  uint64_t reads, writes;          /* accepted accesses */
  uint64_t read_hits, read_misses; /* read_misses: allocated misses */
  uint64_t evictions, fills;
  uint64_t read_merges;   /* MSHR hits (the line was RESERVED) */
  uint64_t bypasses;      /* loads sent down unallocated (all causes) */
  uint64_t fail_bypasses; /* ... of which access-level bypasses after a failure */
  uint64_t write_hits, write_misses;
  uint64_t resfail[CACHE_FAIL__COUNT];
  uint64_t writebacks, invalidations;
} CacheStats;

typedef struct Cache Cache;

/* The parameter table every cache instance registers under its prefix
 * (memsys/partition give per-instance defaults). */
extern const CfgParam cache_params[];

/* Reads "<prefix>.size" etc. into p, and checks the geometry; p->policy is left NULL (the
 * caller sets the policy <prefix>.policy names: src/sim/ resolves it in the registry).
 * Returns 0, or -1 with a message naming the key's file:line. */
int cache_params_read(const Config *cfg, const char *prefix, CacheParams *p, char *err, size_t errlen);
/* cfg is passed to the policy's init (its own keys). NULL on error (err set). */
Cache *cache_create(const CacheParams *p, const Config *cfg, char *err, size_t errlen);
void cache_free(Cache *c);

CacheResult cache_access(Cache *c, const MemRequest *req, uint64_t now);
/* The failure cache_access() at `now` returns before looking at the request
 * (tag ports used up this cycle, hit pipeline full), or CACHE_FAIL_NONE: its
 * first check. A requester that skips the call on such a failure counts it with
 * cache_note_retries(c, why, 1); one that found CACHE_FAIL_NONE may call
 * cache_access_admitted(), which is cache_access() without this check. */
CacheFailReason cache_admit_fail(const Cache *c, uint64_t now);
CacheResult cache_access_admitted(Cache *c, const MemRequest *req, uint64_t now);
/* The reservation failure cache_access(req) is certain to return at a later
 * cycle if nothing reaches the cache in between (no fill, pop or reply taken),
 * or CACHE_FAIL_NONE when it may succeed or a policy hook would decide. */
CacheFailReason cache_predict_fail(const Cache *c, const MemRequest *req);
/* Takes the next completed request whose reply is ready at `now` (oldest ready
 * first) out of the cache, or NULL if none. Not copied: the pointer is valid
 * until the cache next changes (an access or a fill), so a caller reads or
 * copies what it needs first, and one that cannot pass a reply on yet checks
 * that before taking it. */
const MemRequest *cache_take_reply(Cache *c, uint64_t now);
/* A reply from the next level (read data, or the ack of a store sent down):
 * a copy of the request this cache sent down (cache_miss_head), which names
 * its MSHR entry (MemRequest.mshr). */
bool cache_fill(Cache *c, const MemRequest *reply, uint64_t now);
const MemRequest *cache_miss_head(const Cache *c);
void cache_miss_pop(Cache *c);

/* Earliest cycle at which a reply can be popped (UINT64_MAX: none pending). */
uint64_t cache_next_reply(const Cache *c);
/* Nothing reserved, queued or waiting to be popped. */
bool cache_idle(const Cache *c);
uint32_t cache_mshr_used(const Cache *c);
/* Counts n reservation failures the requester skipped re-trying because
 * nothing that could change the outcome changed (keeps statistics exact). */
void cache_note_retries(Cache *c, CacheFailReason why, uint64_t n);
uint32_t cache_miss_queue_len(const Cache *c);
/* Counters the next level bumps when it changes the cache: fills (MSHRs,
 * lines, replies) and miss-queue pops. A requester whose retried access
 * failed sees the same failure until the fill counter moves, or also the pop
 * counter when cache_retry_needs_queue_space() says the outcome depends on
 * miss-queue space. */
typedef struct CacheVersion {
  uint64_t fills, pops;
} CacheVersion;
CacheVersion cache_version(const Cache *c);
bool cache_retry_needs_queue_space(const Cache *c, CacheFailReason why);
/* From now on every request entering the miss queue sets `bit` in *word
 * (the next level then visits only caches with something to send). */
void cache_set_miss_notify(Cache *c, uint64_t *word, uint64_t bit);

const CacheParams *cache_params_of(const Cache *c);
const CacheStats *cache_stats(const Cache *c);
uint32_t cache_sets(const Cache *c);
/* The geometry rule, the only one: size bytes in sets of assoc ways of line_size bytes. Returns 0
 * and fills g, or -1 when line_size is not a power of two or size is not whole sets. */
int cache_geom_make(uint32_t size, uint32_t assoc, uint32_t line_size, CacheGeom *g);
CacheGeom cache_geom(const Cache *c);
uint32_t cache_set_of(const Cache *c, uint64_t line_addr);
/* The lines of a set (read-only; tests and debugging). */
const CacheLine *cache_set_lines(const Cache *c, uint32_t set);
/* The warp (slot `warp` of SM `sm`) has exited: its lines' allocating warp
 * becomes -1 (none), so that a later warp in the same slot is not taken for
 * their allocator (a hit's or an eviction's events name no warp). */
void cache_forget_warp(Cache *c, int32_t sm, int32_t warp);
/* The line the last tag lookup found, or NULL when it found none: right after a read's CACHE_HIT,
 * the line it hit (its requester's events name the warp that allocated it). Valid until the cache
 * next changes; costs the access path nothing (the lookup's memo). */
const CacheLine *cache_lookup_line(const Cache *c);
/* Way holding line_addr in any state but INVALID, or -1. */
int cache_probe(const Cache *c, uint64_t line_addr);

const char *cache_fail_name(CacheFailReason r);
const char *cache_outcome_name(CacheOutcome o);
void cache_stats_add(CacheStats *sum, const CacheStats *s);
/* Emits the statistics in s (stats.h) into the group the caller opened. */
void cache_stats_emit(const CacheStats *s, StatsOut *o);
/* Begins an instance in `out` and adds the policy's statistics (its stats hook, if any). */
void cache_policy_stats(const Cache *c, PolicyStats *out);
/* Called with every line the cache evicts or invalidates (after the policy's
 * on_evict), so that the owner can tell its own plugins (the SM: L1_EVICT
 * events). NULL removes it. */
typedef void (*CacheEvictListener)(void *ctx, const CacheEviction *ev);
void cache_set_evict_listener(Cache *c, CacheEvictListener fn, void *ctx);
/* Told of every fill that makes a reserved line valid (cache_fill), after the
 * line is valid: the owner's plugins learn when a line stops being RESERVED
 * (the SM: L1_FILL events; an offline LRU replay needs them). NULL removes it. */
typedef void (*CacheFillListener)(void *ctx, const CacheLine *line, uint64_t now);
void cache_set_fill_listener(Cache *c, CacheFillListener fn, void *ctx);
/* Can this cache's policy send a load down without allocating (should_bypass, bypass_on_fail)?
 * (cg loads always can, with bypass_cg.) */
bool cache_policy_may_bypass(const Cache *c);
/* One line of occupancy for deadlock dumps. */
void cache_dump(const Cache *c, FILE *out);

#endif
