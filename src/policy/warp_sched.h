/* warp_sched.h - the warp-scheduler and fetch-policy interfaces.
 *
 * "A policy orders warps, the mechanism issues": each cycle every scheduler of
 * an SM asks its policy for an ordered list of its warps; the SM issues the
 * first ready instruction in that order. Warps left off the list cannot issue
 * this cycle (that is how limiting policies throttle). One policy instance
 * serves one SM (all of its schedulers), so per-SM tables (BAWS's barrier
 * counts, CCWS's scores) are shared by its schedulers.
 * Depends on core/config.h and ptx/ptx.h (instruction classes) only.
 *
 * Contract:
 *  - A policy is a const WarpSchedPolicy with designated initialisers; every
 *    hook may be NULL (the default written next to it). It is registered by
 *    one line in policy/registry.def and selected by exact name
 *    (`sched.policy = gto`); its parameters are keys under "sched.<name>.".
 *  - order() sees only the read-only WarpView of each warp slot of the SM and
 *    writes slot numbers of warps belonging to scheduler `sched` (slot %
 *    nsched == sched) into out[]; it returns how many. It may include warps
 *    that are not ready (the SM skips them) and must not list a slot twice.
 *  - Decisions are deterministic functions of the views, the events and the
 *    policy's own state: no clocks, no randomness.
 *  - Hooks must not allocate on the per-cycle path.
 */
#ifndef WS_WARP_SCHED_H
#define WS_WARP_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"

/* Why a warp cannot issue this cycle. */
typedef enum WarpWait {
  WARP_WAIT_NONE = 0,    /* ready: its next instruction can issue now */
  WARP_WAIT_EMPTY,       /* no decoded instruction in its I-buffer (fetch, I-cache miss) */
  WARP_WAIT_SCOREBOARD,  /* a source/destination register is pending */
  WARP_WAIT_BARRIER,     /* waiting at a CTA barrier */
  WARP_WAIT_UNIT,        /* the execution unit its instruction needs is busy */
  WARP_WAIT_DRAIN,       /* finished executing, waiting for outstanding memory */
  WARP_WAIT_EXITED,      /* slot empty or warp done */
  WARP_WAIT__COUNT
} WarpWait;

/* Instruction classes the scheduler can see (timing view of PtxClass). */
typedef enum WarpInstKind {
  WINST_ALU = 0, WINST_SFU, WINST_GLOBAL_LOAD, WINST_GLOBAL_STORE, WINST_LOCAL_LOAD, WINST_LOCAL_STORE,
  WINST_SHARED, WINST_CONST, WINST_ATOMIC, WINST_BRANCH, WINST_BARRIER, WINST_OTHER, WINST__COUNT
} WarpInstKind;

typedef struct WarpView {
  _Alignas(64) uint32_t slot; /* warp slot in the SM (each view in one host cache line) */
  uint32_t cta_slot;        /* CTA slot in the SM */
  uint32_t cta_id;          /* linear CTA id in the grid */
  uint32_t warp_in_cta;
  uint64_t age;             /* launch order on the SM: smaller = older */
  uint64_t launch_cycle;
  uint64_t last_issue;      /* cycle of its last issue (0 = never) */
  uint64_t insts;           /* warp instructions issued */
  uint32_t pc;              /* PC of its next instruction (function-relative) */
  uint8_t valid;            /* a warp occupies the slot and has not finished */
  uint8_t wait;             /* WarpWait */
  uint8_t next_kind;        /* WarpInstKind of its next decoded instruction */
  uint8_t long_pending;     /* waits on a long-latency (global/local) load */
  uint32_t active_lanes;    /* active mask of the next instruction */
} WarpView;

typedef struct WarpSchedEnv {
  uint32_t sm, nsched, max_warps, max_ctas;
  const char *prefix;       /* "sched.gto": the policy's own keys */
  const Config *cfg;
} WarpSchedEnv;

/* Events the SM reports to the policy. */
typedef enum SchedEventKind {
  SCHED_EV_WARP_LAUNCH, SCHED_EV_WARP_EXIT, SCHED_EV_CTA_LAUNCH, SCHED_EV_CTA_EXIT,
  SCHED_EV_BARRIER_ARRIVE, SCHED_EV_BARRIER_RELEASE,
  SCHED_EV_L1_HIT, SCHED_EV_L1_MISS,     /* a global/local load's line accessed the L1D */
  SCHED_EV_L1_EVICT,                     /* a line was evicted from the L1D */
  SCHED_EV_STORE,                        /* a global store wrote a line */
  SCHED_EV__COUNT
} SchedEventKind;

typedef struct SchedEvent {
  SchedEventKind kind;
  uint64_t cycle;
  uint32_t slot;        /* warp slot (warp events, L1 events: the requester) */
  uint32_t cta_slot;
  uint64_t line_addr;   /* L1 events */
  uint64_t pc;
  int32_t other_slot;   /* L1_EVICT: warp slot that allocated the evicted line (-1 unknown) */
} SchedEvent;

typedef struct WarpSchedPolicy {
  const char *name;
  const CfgParam *params; /* keys under "sched.<name>." or NULL */
  int (*init)(void **state, const WarpSchedEnv *env, char *err, size_t errlen);
  void (*free)(void *state);
  /* Required. `greedy` is the slot this scheduler issued from last (-1 none). */
  uint32_t (*order)(void *state, uint32_t sched, const WarpView *views, uint32_t nslots, int32_t greedy,
                    uint64_t cycle, uint32_t *out);
  /* order() lists every valid warp of the scheduler and changes nothing the
   * policy decides by (caches aside): when only one of them is ready, the SM
   * tries that one without calling order(). */
  bool lists_all;
  /* May warp `v` issue an instruction of `kind` now? NULL: yes. (CCWS/iWarp block loads.) */
  bool (*can_issue)(void *state, const WarpView *v, WarpInstKind kind);
  void (*on_issue)(void *state, const WarpView *v, WarpInstKind kind, uint64_t cycle);
  void (*on_event)(void *state, const SchedEvent *ev);
  void (*tick)(void *state, uint64_t cycle);
  /* Called whenever a slot of the SM gets or loses its warp: the views'
   * valid, slot, cta_slot, cta_id, warp_in_cta and age fields change only
   * then, so a policy that has been told once may keep what it derives from
   * them until the next call. */
  void (*on_warps_change)(void *state);
  /* Most CTAs this SM may hold (optimal-TLP style limits); NULL: no extra limit. */
  uint32_t (*cta_limit)(void *state);
  void (*report)(void *state, FILE *out, bool json);
} WarpSchedPolicy;

/* Fetch selection: which warp's empty I-buffer is filled this cycle. */
typedef struct FetchPolicy {
  const char *name;
  const CfgParam *params;
  int (*init)(void **state, const WarpSchedEnv *env, char *err, size_t errlen);
  void (*free)(void *state);
  /* eligible[] lists fetch-eligible slots in slot order; return one of them.
   * NULL: round-robin after the last fetched slot. */
  uint32_t (*select)(void *state, const WarpView *views, const uint32_t *eligible, uint32_t n, uint32_t last,
                     uint64_t cycle);
} FetchPolicy;

/* Helpers shared by policies (policy/warp/common.c). */
/* Appends the scheduler's valid slots in age order (oldest first). */
uint32_t sched_collect_by_age(const WarpView *views, uint32_t nslots, uint32_t sched, uint32_t nsched, uint32_t *out);
/* sched_collect_by_age() for schedulers 0..nsched-1 of one SM, kept until
 * the warps change (sched_age_cache_changed, from on_warps_change); a cache
 * never told of a change rebuilds every time. */
typedef struct SchedAgeCache {
  uint64_t gen;             /* changes counted so far */
  int told;                 /* on_warps_change reaches it */
  uint32_t nsched, cap;     /* cap: slots one list holds (the SM's max_warps) */
  uint64_t *built;          /* per scheduler: gen when its list was built */
  uint32_t *nslots, *n;     /* per scheduler: nslots it was built for, its length */
  uint32_t *list;           /* per scheduler: cap slots */
} SchedAgeCache;
int sched_age_cache_init(SchedAgeCache *c, const WarpSchedEnv *env, uint32_t nsched);
void sched_age_cache_free(SchedAgeCache *c);
void sched_age_cache_changed(SchedAgeCache *c);
uint32_t sched_collect_by_age_cached(SchedAgeCache *c, const WarpView *views, uint32_t nslots, uint32_t sched, uint32_t *out);
/* Round-robin list starting after slot `after`. */
uint32_t sched_collect_rr(const WarpView *views, uint32_t nslots, uint32_t sched, uint32_t nsched, int32_t after,
                          uint32_t *out);
/* Moves slot `s` (if present) to the front of out[0..n). */
void sched_move_front(uint32_t *out, uint32_t n, int32_t s);

#endif
