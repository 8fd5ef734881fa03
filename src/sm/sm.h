/* sm.h - timing model of one streaming multiprocessor (GPGPU-Sim 3.x / Fermi
 * style): fetch through the L1I into 2-slot I-buffers, decode, per-warp
 * scoreboard, N warp schedulers asking a pluggable policy for their order,
 * SP/SFU/LD-ST units with latency and initiation interval, a LD/ST unit that
 * coalesces accesses into L1D requests and stalls on reservation failures,
 * shared memory with bank conflicts, barriers, writeback.
 *
 * Invariant: instructions execute functionally (ptx_warp_step) at issue;
 * the timing model only decides *when*. A warp slot is freed when its warp has
 * exited and every write it issued has completed. No policy is named here.
 * Depends on ptx/ (functional core), mem/ (memory system), policy/ interfaces.
 */
#ifndef WS_SM_H
#define WS_SM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "mem/memsys.h"
#include "policy/warp_sched.h"
#include "ptx/ptx.h"

typedef struct Sm Sm;

/* Issue-stall reasons counted per scheduler per cycle without an issue. */
typedef enum SmStall {
  SM_STALL_NO_WARP = 0, /* no valid warp assigned to the scheduler */
  SM_STALL_IBUFFER,     /* warps have no decoded instruction (fetch / I-cache) */
  SM_STALL_SCOREBOARD,  /* data dependences on pending registers */
  SM_STALL_BARRIER,     /* warps wait at a barrier */
  SM_STALL_UNIT,        /* the needed SP/SFU unit is busy */
  SM_STALL_LDST,        /* the LD/ST unit is busy (incl. reservation-failure stalls) */
  SM_STALL_POLICY,      /* ready warps exist but the policy left them out (or can_issue refused) */
  SM_STALL_DRAIN,       /* warps finished, waiting for outstanding memory */
  SM_STALL_OTHER_SCHED, /* the policy offered a ready warp, but another scheduler took its unit this cycle */
  SM_STALL__COUNT
} SmStall;

enum { SM_UNIT_SP = 0, SM_UNIT_SFU, SM_UNIT_LDST, SM_UNIT_NONE, SM_UNIT__COUNT };

/* The counters every simulated or quiet cycle adds to come first. */
typedef struct SmStats {
  uint64_t active_cycles;                   /* cycles with at least one resident warp */
  uint64_t ldst_busy_cycles;                /* cycles the LD/ST unit held an instruction */
  uint64_t stall[SM_STALL__COUNT];          /* scheduler-cycles without an issue, by reason */
  uint64_t ldst_resfail[CACHE_FAIL__COUNT]; /* LD/ST stall cycles by L1D/L1C reservation failure */
  uint64_t warp_insts, thread_insts;
  uint64_t issue_kind[WINST__COUNT];  /* warp instructions per kind */
  uint64_t unit_busy[SM_UNIT__COUNT]; /* cycles a unit accepted an instruction */
  uint64_t shared_accesses, shared_conflict_passes;
  uint64_t global_load_reqs, global_store_reqs, local_reqs, atomic_reqs, const_loads;
  uint64_t const_reqs;                        /* constant-cache line requests (sm.const_cache) */
  uint64_t loads_completed, load_latency_sum; /* global/local loads: issue -> last reply */
  uint64_t fetches, icache_waits;
  uint64_t oc_reads,
      oc_bank_conflicts; /* operand collector: register reads, and those that waited for their bank */
  uint64_t multi_issues; /* instructions issued after another of the same warp in the same cycle
                            (sm.max_insn_issue_per_warp) */
  uint64_t ctas_done, warps_done;
  uint64_t cta_cycles_sum; /* sum of CTA lifetimes */
} SmStats;

typedef struct SmKernelInfo SmKernelInfo;

/* Per-kernel static timing data shared by all SMs (per-PC unit, latency, kind). */
SmKernelInfo *sm_kernel_info_create(const Config *cfg, const PtxLaunch *l);
void sm_kernel_info_free(SmKernelInfo *k);

#define SM_MAX_OBSERVERS 8 /* sm.observers: plugins beside the warp scheduler */
#define SM_MAX_MEASURES 4  /* SmPolicies.measures */

/* The SM's policies, resolved from their names (sched.policy, sm.fetch_policy, sm.observers) by
 * the composition root: the SM never looks a policy up by name. */
typedef struct SmPolicies {
  const WarpSchedPolicy *sched;
  const FetchPolicy *fetch;
  const SmObserver *observers[SM_MAX_OBSERVERS];
  uint32_t nobservers;
  /* Observers the composition root adds for statistics of its own (registry.def's MEASUREs, the L1D
   * locality split): after
   * those of sm.observers, plugins nplug - nmeasures and on (sm_plugin_state). */
  const SmObserver *measures[SM_MAX_MEASURES];
  uint32_t nmeasures;
} SmPolicies;

/* pg: the policies' per-GPU context (policy_env.h), owned by the caller and outliving the SM;
 * pol: its plugins (copied from; their own keys read from cfg). */
Sm *sm_create(uint32_t id, const Config *cfg, MemSys *ms, PolicyGpu *pg, const SmPolicies *pol, char *err,
              size_t errlen);
void sm_free(Sm *sm);

/* Kernel boundaries: attach the launch (its static info) / detach. */
void sm_begin_kernel(Sm *sm, PtxLaunch *l, const SmKernelInfo *k, uint64_t now); /* now: its first cycle */
void sm_end_kernel(Sm *sm, uint64_t end); /* end: the first cycle after the kernel */
/* Can this SM accept one more CTA of the current kernel now? */
bool sm_can_accept_cta(const Sm *sm);
/* Does the warp scheduler limit CTAs (then sm_can_accept_cta() may change at any cycle)? */
bool sm_policy_limits_ctas(const Sm *sm);
/* Most CTAs of the current kernel an empty SM can hold (0 = does not fit) and the limiting resource. */
uint32_t sm_max_ctas(const Sm *sm, const char **limiter);
/* CTAs of a kernel one SM holds under cfg's limits, and the limiting resource. */
uint32_t sm_occupancy(const Config *cfg, uint32_t regs_per_thread, uint32_t threads_per_cta,
                      uint32_t shared_per_cta, const char **limiter);
/* Takes ownership of the functional CTA. */
void sm_launch_cta(Sm *sm, PtxCta *cta, uint64_t now);

/* One cycle. Returns -1 on a functional fault (message in err). */
int sm_cycle(Sm *sm, uint64_t now, char *err, size_t errlen);
/* What the engine asks to skip the SM while it would repeat itself (sm/quiesce.c). */
/* The first cycle at which this SM must be simulated again by sm_cycle()
 * (0: every cycle; UINT64_MAX: not before a CTA launch), unless its L1s get a
 * fill or (sm_wakes_on_pop) a miss-queue pop first (see memsys_sm_events()). Cycles in between
 * need no call: they are quiet, accounted later (a call would simulate one in full, with the
 * same statistics, or, for a policy with a tick hook, find it quiet and only tick). */
uint64_t sm_wake_cycle(const Sm *sm);
/* Can a miss-queue pop of its L1s end its quiescence (a retried access failed
 * for want of queue space)? Fills always can. */
bool sm_wakes_on_pop(const Sm *sm);
/* When this SM can next do something by itself: next cycle if busy, else
 * its earliest queued event or the end of a shared/const LD/ST access
 * (neither: it waits only on memory replies or is empty). Constant between
 * two sm_cycle() or sm_launch_cta() calls. */
typedef struct SmTimers {
  bool busy; /* did something (or could) in its last simulated cycle */
  uint64_t
      event; /* its earliest queued writeback/retire event or plugin tick (next_tick), UINT64_MAX if none */
  uint64_t free_at; /* the LD/ST unit's shared/const busy-until cycle */
} SmTimers;
SmTimers sm_timers(const Sm *sm);
/* Accounts n skipped cycles starting at `from` (the engine jumped over them:
 * every SM was quiet), keeping statistics identical to simulating them. */
void sm_skip_cycles(Sm *sm, uint64_t from, uint64_t n);
bool sm_idle(const Sm *sm); /* no resident CTA */
uint32_t sm_resident_ctas(const Sm *sm);
/* Where the SM counts its events (deadlock detection: the count only grows),
 * a counter SMs may share; NULL: one of its own (the default). */
void sm_count_progress(Sm *sm, uint64_t *counter);
/* The events counted on its own counter (sm_count_progress NULL) since the last call, and resets it. */
uint64_t sm_take_progress(Sm *sm);
const SmStats *sm_stats(const Sm *sm);
/* Asks the host to load the lines a short visit of sm reads: the engine issues it for the next
 * SM it simulates while it runs this one (a plain function: the release build's link-time
 * optimisation inlines it into the engine's loop). */
void sm_prefetch(const Sm *sm);
/* Its warps' global-memory accesses and printf output go to `log` (ptx.h: PtxDefer) instead of
 * being performed at issue, until called with NULL; the caller commits the log (several SMs
 * simulated at once, their global effects applied in SM order). */
void sm_defer(Sm *sm, PtxDefer *log);
/* Whether a cycle of this SM touches state another SM's cycle also touches, beyond global memory:
 * a plugin's shares_state says so, or a timeline records. Such SMs are simulated in order. */
bool sm_shares_state(const Sm *sm);
/* Which warps wait on what (deadlock reports). */
void sm_dump(const Sm *sm, FILE *out);
/* Appends to buf (len bytes) where the running warps of its CTAs are
 * (ptx_cta_describe_running), at most *budget of them (decremented); the bytes written. */
size_t sm_describe_running(const Sm *sm, char *buf, size_t len, uint32_t *budget);
/* Its plugins: 0 is the warp scheduler, then the observers of sm.observers, then the measures. */
uint32_t sm_plugin_count(const Sm *sm);
const char *sm_plugin_name(const Sm *sm, uint32_t plugin);
/* A plugin's state (what its init made), for the composition root that added it; NULL if none. */
const void *sm_plugin_state(const Sm *sm, uint32_t plugin);
/* Begins an instance in `out` and adds plugin's statistics (its stats hook). */
void sm_policy_stats(const Sm *sm, uint32_t plugin, PolicyStats *out);

#endif
