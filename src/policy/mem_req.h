/* mem_req.h - the memory request that travels L1 -> interconnect -> L2 -> DRAM
 * and back. Requests are small plain structs copied by value between the
 * components' preallocated queues: nothing on the memory path allocates.
 * Depends on nothing.
 */
#ifndef WS_MEM_REQ_H
#define WS_MEM_REQ_H

#include <stdbool.h>
#include <stdint.h>

/* PTX cache operator of a global load: ca = cache in L1, cg = cache in L2 only
 * (bypass L1), cm = decided at run time by the L1's cache policy. */
typedef enum MemClass { MEM_CLASS_CA = 0, MEM_CLASS_CG, MEM_CLASS_CM } MemClass;

/* Which of an SM's first-level caches a request came from (reply routing): data, instructions,
 * constants (constant and kernel-parameter loads). */
typedef enum MemUnit { MEM_UNIT_L1D = 0, MEM_UNIT_L1I, MEM_UNIT_L1C, MEM_UNIT__COUNT } MemUnit;

/* Flags set by the memory system itself. */
enum {
  MEM_F_NOALLOC_L1 = 1u << 0, /* the L1 did not allocate for it: its reply skips the L1 tags */
  MEM_F_NOALLOC_L2 = 1u << 1, /* the same at the L2 */
  MEM_F_WRITEBACK = 1u << 2,  /* a dirty-line eviction (no reply expected) */
  MEM_F_LOCAL = 1u << 3,      /* set by the requester: a local-memory access (an L1 with write policy
                               * local_back keeps its store hits, GPGPU-Sim's 'L') */
  MEM_F_ACK_BELOW = 1u << 4,  /* a store the cache sent down unacknowledged: DRAM returns it as its ack */
};
/* Requester hints: the memory system carries them, policies may read them. */
enum {
  MEM_HINT_CRITICAL =
      1u << 0, /* the requesting warp is predicted critical (for criticality-aware cache policies) */
  MEM_HINT_BYPASS =
      1u << 1,             /* the requester asks the L1 not to allocate (a load then goes down as cg does) */
  MEM_HINT_USER = 1u << 4, /* bits 4..7: free for a pair of cooperating plugins (document the meaning) */
};
/* The no-allocate flag of cache level 1 or 2. */
#define MEM_F_NOALLOC(level) (1u << ((level)-1))

typedef struct MemRequest {
  uint64_t addr;        /* byte address of the access */
  uint64_t line_addr;   /* addr with the line offset cleared (the coalescer sets it) */
  uint64_t pc;          /* PC of the instruction, in the policies' PC space (policy/policy_env.h) */
  uint64_t issue_cycle; /* cycle the requester issued it (latency statistics) */
  void *user;           /* opaque to the memory system: handed back with the reply */
  int32_t sm;           /* requesting SM; -1 for requests made by an L2 (write-backs) */
  int32_t warp;         /* warp slot within the SM (-1 if none) */
  int32_t cta;          /* CTA slot within the SM (-1 if none) */
  uint16_t
      bytes; /* bytes written (stores); loads: what a reply carries if no L1 allocates (0: a whole line) */
  uint8_t is_write;
  uint8_t access_class; /* MemClass */
  uint8_t unit;         /* MemUnit */
  uint8_t flags;        /* MEM_F_* (set by the memory system) */
  uint8_t hints;        /* set by the requester for cache policies (e.g. MEM_HINT_CRITICAL) */
  uint8_t reserved_;
  /* Set by the memory system: the MSHR entry the level-1 / level-2 cache
   * allocated for this line miss, in the copy it sends down (its fill finds
   * the line from it without a tag search). In the former padding: still 64 B. */
  uint16_t mshr[2];
} MemRequest;

#endif
