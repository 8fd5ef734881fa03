/* warp_sched.h - the warp-scheduler and fetch-policy interfaces.
 *
 * "A policy orders warps, the mechanism issues": each cycle every scheduler of
 * an SM asks its policy for an ordered list of its warps; the SM issues the
 * first ready instruction in that order. Warps left off the list cannot issue
 * this cycle (that is how limiting policies throttle). One policy instance
 * serves one SM (all of its schedulers), so per-SM tables (BAWS's barrier
 * counts, CCWS's scores) are shared by its schedulers.
 * Depends on core/config.h and policy/policy_env.h only.
 *
 * Contract:
 *  - A policy is a const WarpSchedPolicy with designated initialisers; every
 *    hook but order may be NULL (the default written next to it). It is
 *    registered by one line in policy/registry.def and selected by exact name
 *    (`sched.policy = gto`); its parameters are keys under "sched.<name>.".
 *    An observer is a const SmObserver, the same without the scheduler's hooks.
 *  - Engine hints (PolicyEngineHints) are optional: a simple policy never sets them.
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
#include "policy/policy_env.h"

/* Why a warp cannot issue this cycle. */
typedef enum WarpWait {
  WARP_WAIT_NONE = 0,   /* ready: its next instruction can issue now */
  WARP_WAIT_EMPTY,      /* no decoded instruction in its I-buffer (fetch, I-cache miss) */
  WARP_WAIT_SCOREBOARD, /* a source/destination register is pending */
  WARP_WAIT_BARRIER,    /* waiting at a CTA barrier */
  WARP_WAIT_UNIT,       /* the execution unit its instruction needs is busy */
  WARP_WAIT_DRAIN,      /* finished executing, waiting for outstanding memory */
  WARP_WAIT_EXITED,     /* slot empty or warp done */
  WARP_WAIT__COUNT
} WarpWait;

/* Instruction classes the scheduler can see (timing view of PtxClass). */
typedef enum WarpInstKind {
  WINST_ALU = 0,
  WINST_SFU,
  WINST_GLOBAL_LOAD,
  WINST_GLOBAL_STORE,
  WINST_LOCAL_LOAD,
  WINST_LOCAL_STORE,
  WINST_SHARED,
  WINST_CONST,
  WINST_ATOMIC,
  WINST_BRANCH,
  WINST_BARRIER,
  WINST_OTHER,
  WINST__COUNT
} WarpInstKind;

typedef struct WarpView {
  _Alignas(64) uint32_t slot; /* warp slot in the SM (each view in one host cache line) */
  uint32_t cta_slot;          /* CTA slot in the SM */
  uint32_t cta_id;            /* linear CTA id in the grid */
  uint32_t warp_in_cta;
  uint64_t age; /* launch order on the SM: smaller = older */
  uint64_t launch_cycle;
  uint64_t last_issue;   /* cycle of its last issue (0 = never) */
  uint64_t insts;        /* warp instructions issued */
  uint32_t pc;           /* PC of its next instruction (the policies' PC space: policy_env.h) */
  uint8_t valid;         /* a warp occupies the slot and has not finished */
  uint8_t wait;          /* WarpWait */
  uint8_t next_kind;     /* WarpInstKind of its next decoded instruction */
  uint8_t long_pending;  /* waits on a long-latency (global/local) load */
  uint32_t active_lanes; /* active mask of the next instruction */
  uint32_t sched_wait;   /* cycles it was ready while its scheduler issued another warp: kept only
                          * when a plugin asks (sched_wait); 0 otherwise */
} WarpView;
_Static_assert(sizeof(WarpView) == 64, "WarpView: one host cache line per view");

typedef struct WarpSchedEnv {
  uint32_t sm, nsched, max_warps, max_ctas;
  const char *prefix; /* "sched.gto" (observers: "observer.<name>"): the plugin's own keys */
  const Config *cfg;
  PolicyGpu *gpu;             /* the GPU's shared policy state (policy_shared), never NULL in an SM */
  const PolicyKernel *kernel; /* the running kernel, updated at each kernel (also in its events) */
  const WarpView *views;      /* the SM's max_warps views (the array order() gets), live for the plugin's
                               * life: a hook may read any warp's view, e.g. can_issue another warp's
                               * (gcaws's time slice). NULL where no SM exists (unit tests) */
  CacheGeom l1d;              /* the SM's L1 data cache */
} WarpSchedEnv;

/* Events the SM reports to its plugins (on_event). Fields per kind, beyond
 * kind, cycle and kernel (always set):
 *  WARP_LAUNCH/WARP_EXIT      slot, cta_slot, cta_id
 *  CTA_LAUNCH/CTA_EXIT        cta_slot, cta_id, nwarps, slot = its first warp slot; a launch comes after
 *                             every warp of the CTA has its view (and before their WARP_LAUNCH events),
 *                             an exit after its last WARP_EXIT
 *  BARRIER_ARRIVE/RELEASE     slot (the arriving warp; for a release, the warp whose arrival or exit
 *                             released it), cta_slot, cta_id, pc; a release also names the warps it
 *                             frees: warps = those of the CTA that had arrived (since the last
 *                             release) and wait no longer, the releasing warp included
 *  L1_HIT/L1_MISS/L1_MERGE/   one per line request of a global/local load (atomics excluded): the
 *  L1_BYPASS                  L1D's outcome (MISS = a line was reserved and the request sent down;
 *                             MERGE = it joined the MSHR of a line already on its way; BYPASS = sent
 *                             down without a line). slot = requester, cta_slot, cta_id, line_addr, pc,
 *                             lanes = the lanes of the warp whose accesses fall in the line (0 where
 *                             no plugin wants them: no_lanes); a hit's
 *                             other_slot = the warp that allocated the line (-1 once that warp exited:
 *                             a later warp in its slot is another warp)
 *  L1_RESFAIL                 the first failed try of a line request (load, store or atomic): fail =
 *                             CacheFailReason, lanes as above; the LD/ST unit retries it until accepted
 *  L1_EVICT                   an L1D line lost its data: fail = CacheEvictReason (replaced by a fill,
 *                             or invalidated by a store); line_addr, pc = the PC that allocated it;
 *                             slot = the warp that allocated it (the victim) or UINT32_MAX when that
 *                             warp has exited; other_slot = the warp whose request evicted it (the
 *                             interferer; for an invalidation, the storing warp)
 *  STORE                      a global/local store's line request was accepted: slot, line_addr, pc,
 *                             lanes; outcome = the L1D's, as the kind a load's would be (L1_HIT: it
 *                             found a valid line, L1_MISS, L1_MERGE, L1_BYPASS)
 *  KERNEL_BEGIN/KERNEL_END    kernel (name, launch index); slot = cta_slot = UINT32_MAX
 *  L1_FILL                    (only to a plugin that asks: l1_stream_events, or its events) the data of
 *                             a reserved L1D line arrived and the line is valid: line_addr, pc = the
 *                             PC that allocated it, slot = the warp that allocated it or UINT32_MAX
 *  L1_ATOMIC_HIT              (l1_stream_events too) an atomic's line request found its line valid
 *                             in the L1D (the cache counts a read hit and its policy is told: LRU
 *                             promotes the line): slot, cta_slot, cta_id, line_addr, pc, lanes,
 *                             other_slot as L1_HIT's
 *  L1_ATOMIC                  (l1_stream_events too) an atomic's line request the L1D accepted
 *                             otherwise: outcome = L1_MISS (a line was reserved for it: an L1D
 *                             without bypass_cg), L1_MERGE or L1_BYPASS; fields as L1_ATOMIC_HIT
 * Unused fields: slot/cta_slot UINT32_MAX, other_slot -1, the rest 0. */
typedef enum SchedEventKind {
  SCHED_EV_WARP_LAUNCH,
  SCHED_EV_WARP_EXIT,
  SCHED_EV_CTA_LAUNCH,
  SCHED_EV_CTA_EXIT,
  SCHED_EV_BARRIER_ARRIVE,
  SCHED_EV_BARRIER_RELEASE,
  SCHED_EV_L1_HIT,
  SCHED_EV_L1_MISS,
  SCHED_EV_L1_MERGE,
  SCHED_EV_L1_BYPASS,
  SCHED_EV_L1_RESFAIL,
  SCHED_EV_L1_EVICT,
  SCHED_EV_STORE,
  SCHED_EV_KERNEL_BEGIN,
  SCHED_EV_KERNEL_END,
  SCHED_EV_L1_FILL,
  SCHED_EV_L1_ATOMIC_HIT,
  SCHED_EV_L1_ATOMIC,
  SCHED_EV__COUNT
} SchedEventKind;

/* A set of event kinds: bit SCHED_EV_BIT(k) for kind k (PolicyEngineHints.events). */
typedef uint32_t SchedEventMask;
#define SCHED_EV_BIT(k) ((SchedEventMask)1 << (k))
#define SCHED_EV_ALL (SCHED_EV_BIT(SCHED_EV__COUNT) - 1)
/* The rest of the L1D's stream, sent only to a plugin that asks (l1_stream_events or events). */
#define SCHED_EV_STREAM                                                                                      \
  (SCHED_EV_BIT(SCHED_EV_L1_FILL) | SCHED_EV_BIT(SCHED_EV_L1_ATOMIC_HIT) | SCHED_EV_BIT(SCHED_EV_L1_ATOMIC))
_Static_assert(SCHED_EV__COUNT < 32, "SchedEventMask: a bit per event kind");

typedef struct SchedEvent {
  SchedEventKind kind;
  uint32_t slot; /* the warp the event is about (see above) */
  uint64_t cycle;
  uint32_t cta_slot;          /* its CTA's slot in the SM */
  uint32_t cta_id;            /* its CTA's linear id in the grid */
  uint64_t line_addr;         /* L1 events */
  uint32_t pc;                /* policy PC (policy_env.h) */
  int32_t other_slot;         /* L1_EVICT: the interferer's warp slot (-1 none) */
  uint32_t nwarps;            /* CTA events: warps of the CTA */
  uint32_t lanes;             /* a line request's events: its lanes (bit i: lane i accesses the line) */
  uint8_t fail;               /* L1_RESFAIL: CacheFailReason; L1_EVICT: CacheEvictReason */
  uint8_t outcome;            /* STORE, L1_ATOMIC: the L1D's outcome as a load's event kind */
  const uint64_t *warps;      /* BARRIER_RELEASE: the warps it frees, a bitmap of the SM's warp slots (bit
                               * s % 64 of word s / 64), valid during the call; NULL otherwise */
  const PolicyKernel *kernel; /* the running kernel: valid during the call (copy what is kept) */
} SchedEvent;

/* What on_issue learns about an issued instruction (it has executed). */
typedef struct SchedIssue {
  uint64_t cycle;
  uint32_t pc;           /* its PC */
  uint32_t next_pc;      /* the warp's next PC after it (SCHED_PC_EXIT: the warp finished) */
  uint32_t active_lanes; /* lanes it executed on */
  uint8_t kind;          /* WarpInstKind */
  uint8_t taken; /* control did not fall through to pc + 1 (a taken branch, a call, a reconvergence) */
} SchedIssue;
#define SCHED_PC_EXIT 0xFFFFFFFFu

/* A global/local/atomic memory instruction about to send its line requests
 * (annotate): plugins may set hints (MEM_HINT_*, OR'ed) and change the access
 * class (MEM_CLASS_CA/CG/CM) every request of the instruction carries. */
typedef struct SchedMemAnnot {
  uint32_t pc;
  uint8_t kind;         /* WarpInstKind */
  uint8_t is_write;     /* a store (atomics are not) */
  uint8_t access_class; /* in: the instruction's class (atomics: cg); out: the requests' */
  uint8_t hints;        /* in: 0; out: MEM_HINT_* bits */
  uint32_t nreq;        /* line requests it makes */
} SchedMemAnnot;

/* ---- Engine hints: an optional part of the plugin contract ----
 * A simple policy never sets this (hints = NULL: none). The engine skips idle work: a quiet SM
 * (nothing can change until an event it waits on) is not simulated, a stage whose inputs did not
 * change is not re-run (sm/quiesce.h). These hints let a plugin keep that exact while it has
 * state of its own, or ask for data the engine does not keep by default. Every rule a plugin
 * that sets one must follow is here. */
typedef struct PolicyEngineHints {
  /* A warp scheduler's (observers have no order): order() lists every valid warp of the
   * scheduler and changes nothing the policy decides by (caches aside), so when only one of
   * them is ready the SM tries that one without calling order(). */
  bool lists_all;
  /* A warp scheduler's: can_issue's answers change only at this policy's events, its issues
   * (on_issue), changes of the warps' views and the ticks next_tick asks for: a cycle in which
   * every ready warp was refused is repeated by a quiet SM until one of those (exact, as
   * skipped idle cycles are). Its can_issue is then not called on the cycles in between: it
   * must count nothing per call. */
  bool stable_refusals;
  /* A warp scheduler's, with lists_all: order()'s list follows from the scheduler's warps (their
   * WarpView valid and age, which change only with on_warps_change), nslots and greedy alone, and
   * order() changes nothing the policy decides by. The SM then keeps each scheduler's last list
   * and calls order() again only when the warps or greedy changed: it must count nothing per call. */
  bool stable_order;
  /* With tick: the next cycle > now at which tick must run (UINT64_MAX: none needed), asked
   * after each tick. tick then runs only on the cycles the SM simulates and on each cycle
   * next_tick asked for, in increasing order but not consecutive: the plugin accounts for the
   * time in between itself (a decay by cycles elapsed), and the SM can stay quiet and skipped
   * until then. A plugin whose decisions follow from that gives identical results with
   * sm.skip_idle_cycles=false (every cycle ticked). NULL: tick on every cycle the SM holds a
   * CTA, also the cycles it skips (the SM is then visited every cycle). */
  uint64_t (*next_tick)(void *state, uint64_t now);
  /* With tick or on_issue: whether this instance, as its keys configured it, needs them (asked once,
   * after init). false: the SM calls neither for it, as if both were NULL, and keeps skipping quiet
   * cycles as for a plugin without a tick (a mode of the policy that keeps no state per cycle or per
   * issue). NULL: it needs them. */
  bool (*cycle_hooks)(const void *state);
  /* Also send L1_FILL (one per L1D fill), L1_ATOMIC_HIT and L1_ATOMIC events to the SM's plugins, the rest
   * of the L1D's stream an exact offline replay needs: off unless a plugin asks. It also turns
   * on the core's opt-in locality statistics (the L1D's misses split by the warp that lost the
   * line, same-warp hits split by thread: policy/observer/locality.c, fed by the events). */
  bool l1_stream_events;
  /* Keep WarpView.sched_wait (the scheduler's delay of ready warps: CAWA's Fig. 4) in this SM:
   * off unless a plugin asks (it costs a pass over the ready warps per cycle that issues). */
  bool sched_wait;
  /* The event kinds on_event wants (SCHED_EV_BIT of each), the rule for every plugin: 0 (or no
   * hints) wants every kind the SM makes. The SM makes an event of kind k only when a plugin
   * wants k (an explicit mask naming it, or a 0 mask for any kind but SCHED_EV_STREAM's, which
   * only l1_stream_events or a mask naming them brings), and calls each on_event only with the
   * kinds it wants: a plugin that wants the barrier events costs nothing per L1 request. */
  SchedEventMask events;
  /* The line-request events it wants need no `lanes`: when every plugin that wants one says so,
   * the SM does not find each request's lanes (a pass over every memory instruction's lanes) and
   * the events carry 0 there. */
  bool no_lanes;
} PolicyEngineHints;

/* A warp scheduler (`sched.policy = name`). */
typedef struct WarpSchedPolicy {
  const char *name;
  const CfgParam *params; /* keys under "sched.<name>." or NULL */
  int (*init)(void **state, const WarpSchedEnv *env, char *err, size_t errlen);
  void (*free)(void *state);
  /* Required. `greedy` is the slot this scheduler issued from last (-1 none). */
  uint32_t (*order)(void *state, uint32_t sched, const WarpView *views, uint32_t nslots, int32_t greedy,
                    uint64_t cycle, uint32_t *out);
  /* May warp `v` issue an instruction of `kind` now? NULL: yes. (CCWS/iWarp block loads.) */
  bool (*can_issue)(void *state, const WarpView *v, WarpInstKind kind);
  /* After each issue (the view already counts it). */
  void (*on_issue)(void *state, const WarpView *v, const SchedIssue *is);
  void (*on_event)(void *state, const SchedEvent *ev);
  /* Whether this instance's hooks, during an SM's cycle, touch state other SMs' instances also
   * touch (a policy_shared block, an output file, policy_gpu_fail). The engine then simulates
   * the SMs one after another in index order (sim.threads has no effect; the statistics say so
   * in sim.threads_used). NULL: never; policy_shares_always: always. */
  bool (*shares_state)(const void *state);
  /* Hints and class for a memory instruction's requests (see SchedMemAnnot). */
  void (*annotate)(void *state, const WarpView *v, SchedMemAnnot *m);
  /* Called on every cycle the SM holds a CTA (also cycles it skips), unless the hints have a
   * next_tick (see there). */
  void (*tick)(void *state, uint64_t cycle);
  /* Called whenever a slot of the SM gets or loses its warp: the views'
   * valid, slot, cta_slot, cta_id, warp_in_cta and age fields change only
   * then, so a policy that has been told once may keep what it derives from
   * them until the next call. */
  void (*on_warps_change)(void *state);
  /* Most CTAs this SM may hold (optimal-TLP style limits); NULL: no extra limit. */
  uint32_t (*cta_limit)(void *state);
  /* The fetch choice when sm.fetch_policy = sched (BAWS's CFF): as FetchPolicy.select. */
  uint32_t (*fetch_select)(void *state, const WarpView *views, const uint32_t *eligible, uint32_t n,
                           uint32_t last, uint64_t cycle);
  /* Its statistics (policy_stat_u64/f64), summed or averaged over the SMs by
   * the engine and printed in text and JSON ("policies": {"sched": ...}). */
  void (*stats)(void *state, PolicyStats *out);
  /* Its values at `cycle` (the end of a counter window; state lazily decayed may need it) as
   * timeline counter tracks (policy_gauge; doc/timeline.md), asked only while a timeline
   * records, once per counter window: must change nothing. NULL: none. */
  void (*gauges)(void *state, uint64_t cycle, PolicyGauges *out);
  const PolicyEngineHints *hints; /* NULL: none (above) */
} WarpSchedPolicy;

/* An SM observer (`sm.observers = a,b`): a plugin beside the warp scheduler that sees the
 * events and issues, annotates memory requests, ticks and reports, but orders no warps. A
 * criticality predictor that a cache policy reads through MEM_HINT_CRITICAL under any
 * scheduler, or an access trace writer, is one. One instance per SM, created after the
 * scheduler; every hook is called for the scheduler first, then the observers in order. Each
 * hook is the scheduler's hook of the same name; its keys are under "observer.<name>.". */
typedef struct SmObserver {
  const char *name;
  const CfgParam *params;
  int (*init)(void **state, const WarpSchedEnv *env, char *err, size_t errlen);
  void (*free)(void *state);
  void (*on_issue)(void *state, const WarpView *v, const SchedIssue *is);
  void (*on_event)(void *state, const SchedEvent *ev);
  bool (*shares_state)(const void *state);
  void (*annotate)(void *state, const WarpView *v, SchedMemAnnot *m);
  void (*tick)(void *state, uint64_t cycle);
  void (*on_warps_change)(void *state);
  void (*stats)(void *state, PolicyStats *out);
  void (*gauges)(void *state, uint64_t cycle, PolicyGauges *out);
  /* NULL: none; next_tick, l1_stream_events, sched_wait, events and no_lanes apply (lists_all and
   * stable_refusals describe order and can_issue, which an observer has not: never read). */
  const PolicyEngineHints *hints;
} SmObserver;

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
  /* The warp scheduler's fetch_select chooses (it must have one). */
  bool use_scheduler;
} FetchPolicy;

/* Helpers shared by policies (policy/warp/common.c). */
/* A shares_state hook for plugins whose instances always share state. */
bool policy_shares_always(const void *state);
/* The hints of a scheduler whose order lists every warp (gto, lrr) and nothing else. */
extern const PolicyEngineHints policy_hints_lists_all;
/* Those of one whose order is also a function of its warps and greedy alone (gto, old, lrr). */
extern const PolicyEngineHints policy_hints_stable_order;
/* Appends the scheduler's valid slots in age order (oldest first). */
uint32_t sched_collect_by_age(const WarpView *views, uint32_t nslots, uint32_t sched, uint32_t nsched,
                              uint32_t *out);
/* sched_collect_by_age() for schedulers 0..nsched-1 of one SM, kept until
 * the warps change (sched_age_cache_changed, from on_warps_change); a cache
 * never told of a change rebuilds every time. */
typedef struct SchedAgeCache {
  uint64_t gen;         /* changes counted so far */
  int told;             /* on_warps_change reaches it */
  uint32_t nsched, cap; /* cap: slots one list holds (the SM's max_warps) */
  uint64_t *built;      /* per scheduler: gen when its list was built */
  uint32_t *nslots, *n; /* per scheduler: nslots it was built for, its length */
  uint32_t *list;       /* per scheduler: cap slots */
} SchedAgeCache;
int sched_age_cache_init(SchedAgeCache *c, const WarpSchedEnv *env, uint32_t nsched);
void sched_age_cache_free(SchedAgeCache *c);
void sched_age_cache_changed(SchedAgeCache *c);
uint32_t sched_collect_by_age_cached(SchedAgeCache *c, const WarpView *views, uint32_t nslots, uint32_t sched,
                                     uint32_t *out);
/* Round-robin list starting after slot `after`. */
uint32_t sched_collect_rr(const WarpView *views, uint32_t nslots, uint32_t sched, uint32_t nsched,
                          int32_t after, uint32_t *out);
/* Moves slot `s` (if present) to the front of out[0..n). */
void sched_move_front(uint32_t *out, uint32_t n, int32_t s);
/* The GTO order of one scheduler's warps: the greedy warp (if valid) first,
 * then oldest first (gto's order; the base order of ccws). */
uint32_t sched_order_gto(SchedAgeCache *c, const WarpView *views, uint32_t nslots, uint32_t sched,
                         int32_t greedy, uint32_t *out);
/* The victim-tag-array geometry of a plugin that keeps per-warp VTAs (ccws, iwarp, missclass):
 * its keys <prefix>.vta_entries and <prefix>.vta_ways, the ways dividing the entries.
 * Returns 0, or -1 with a configuration error naming the key in err. */
int sched_vta_geometry(const WarpSchedEnv *env, uint32_t *entries, uint32_t *ways, char *err, size_t errlen);
/* The host memory one plugin's tables may take over all SMs: a size parameter that would eat
 * the machine is a configuration error before anything is allocated, not a swap storm. */
#define POLICY_MEM_MAX ((uint64_t)2 << 30)
/* 0 when `bytes_per_sm` times sm.count fits POLICY_MEM_MAX, else -1 with an error on `key`. */
int policy_mem_check(const WarpSchedEnv *env, const char *key, uint64_t bytes_per_sm, char *err,
                     size_t errlen);

#endif
