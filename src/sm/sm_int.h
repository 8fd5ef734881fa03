/* sm_int.h - internals of the SM timing model shared by sm.c (pipeline), ldst.c (LD/ST unit,
 * coalescer, shared memory), writeback.c (writeback queue) and the SM's other files. Not for
 * use outside src/sm/ (tests/cli/deps.sh). */
#ifndef WS_SM_INT_H
#define WS_SM_INT_H

#include <stddef.h>

#include "sm/quiesce.h"
#include "sm/sm.h"

#define SM_IB_MAX 8                         /* I-buffer capacity limit (sm.ibuffer_slots <= this) */
#define SM_MAX_LOADS 8                      /* outstanding load groups per warp */
#define SM_MAX_REQS 64                      /* line requests of one warp instruction */
#define SM_LOCAL_PHYS 0x0000080000000000ull /* where per-thread local memory lives physically */
#define SM_PARAM_PHYS 0x00000C0000000000ull /* where the constant cache finds a kernel's parameters */
#define SM_INST_PHYS 0x00000F0000000000ull  /* where instructions live (8 bytes each) */
#define SM_OC_PORTS_MAX 8                   /* operand collector in/out ports per class (sm.oc_ports_*) */
#define SM_MC_UNITS_MAX 16 /* memory collector units of sm.mem_issue = collector (sm.oc_units_mem) */
#define SM_MC_NONE 0xFF    /* an empty stage of the memory collector path */

/* One SM-side plugin instance: the warp scheduler (plug[0]) or an observer, by the hooks both
 * kinds have (a scheduler's copied from its WarpSchedPolicy; its own hooks stay in Sm.policy). */
typedef struct SmPlugin {
  SmObserver h;
  void *st;
  SchedEventMask events; /* the event kinds its on_event gets (PolicyEngineHints.events' rule) */
} SmPlugin;

struct SmKernelInfo {
  const PtxLaunch *launch;
  uint32_t first_pc, npc; /* module pcs covered (all code of the module) */
  uint8_t *unit;          /* per module pc: SM_UNIT_* */
  uint8_t *kind;          /* per module pc: WarpInstKind */
  uint16_t *latency, *ii; /* per module pc */
  PtxOperands *ops;       /* per module pc, rows relative to the owning function */
};

typedef struct SmLoad {
  uint8_t nrows, npreds;
  uint32_t rows[4];
  uint64_t issue_cycle;
} SmLoad;

/* Aligned to a host cache line: what the issue stage reads of every warp
 * first, and all an L1D reply before a load group's last reads, lie in its
 * first line. */
typedef struct SmWarp {
  _Alignas(64) PtxWarp *pw; /* functional warp; NULL = free slot */
  WarpView *view;
  uint64_t *sb; /* scoreboard bits: register rows then predicate rows */
  uint32_t cta_slot;
  uint32_t pending_writes; /* scoreboard-reserved rows and predicates */
  uint32_t pending_loads;
  uint32_t head_pc;
  uint8_t dirty;     /* scoreboard changed since it was last found blocked */
  uint8_t wait_ldst; /* blocked because the LD/ST unit is busy (collector path: ID_OC_MEM is taken) */
  uint8_t head_ok;   /* head_pc passed the I-buffer and scoreboard checks */
  uint8_t ib_n;
  uint8_t fetch_pending;            /* waiting on the L1I */
  uint8_t exec_done;                /* functional warp finished */
  uint8_t in_ldst;                  /* its instructions the LD/ST unit holds or has queued (sm.ldst_queue) */
  uint8_t queued_loads;             /* its loads in the LD/ST queue (a load group each once accepted) */
  uint16_t remaining[SM_MAX_LOADS]; /* per load group: replies still expected (0 = free group) */
  /* I-buffer: ib_n instructions at module pcs ib_pc, ib_pc + 1, ..., decoded
   * (issuable) from cycle ib_ready: one fetch fills an empty buffer, an issue
   * takes the head */
  uint32_t ib_pc;
  uint64_t ib_ready;
  SmLoad loads[SM_MAX_LOADS];
  /* (front_322) where the next fetch reads: the pc after the last issued instruction, or the real
   * pc after a control-hazard flush (3.2.2 shd_warp_t::m_next_pc); fetch_missed: the pending fetch
   * missed the L1I (its fill only lets the warp fetch again) */
  uint32_t fetch_pc;
  uint8_t fetch_missed;
  uint16_t stores_out; /* stores sent whose ack has not come (counted with sm.exit_waits_stores only) */
} SmWarp;

/* A warp that executed its exit and has nothing in flight (loads, register writes, the LD/ST unit,
 * unacknowledged stores): it may retire. */
static inline int sm_warp_drained(const SmWarp *w) {
  return w->exec_done && !w->pending_writes && !w->pending_loads && !w->in_ldst && !w->stores_out;
}

typedef struct SmCta {
  PtxCta *cta;         /* NULL = free */
  uint32_t live_warps; /* warps not yet retired */
  uint32_t first_slot_age;
  uint64_t start_cycle;
  uint32_t threads, warps, regs, shared;
} SmCta;

typedef struct SmReq {
  uint64_t line_addr, addr; /* addr: the first lane's */
  uint16_t bytes;           /* stores: bytes the lanes write; loads: what a reply carries if the L1 does not
                             * allocate (ldst_lane_pass), 0: the whole line */
  uint32_t lanes;           /* (l1_lanes) the lanes whose accesses fall in the line, for its events */
} SmReq;

/* The instruction held by the LD/ST unit. Its header (32 bytes) ends the
 * Sm's second host cache line, so that cur starts the third. */
typedef struct SmLdst {
  uint64_t free_at; /* shared/const: the unit is busy until this cycle */
  uint64_t pc;
  uint32_t slot;
  uint16_t nreq, next; /* line requests (<= SM_MAX_REQS), the one being sent */
  int16_t load;        /* load group, -1 for stores */
  uint8_t busy;
  uint8_t kind;
  uint8_t cur_failed;   /* cur's L1_RESFAIL event was emitted (one per request) */
  uint8_t to_l1c;       /* the instruction's requests go to the constant cache (l1c), not the L1D */
  uint16_t l1c_pending; /* constant-cache accesses accepted whose reply is not yet taken */
  MemRequest cur; /* the L1 request for req[next] (built once, retried as is; issue_cycle set per try) */
  SmReq req[SM_MAX_REQS];
} SmLdst;

/* A memory instruction issued while the LD/ST unit was taken, waiting for it
 * in issue order (sm.ldst_queue), or in the collector path: what the unit needs when it starts it. */
typedef struct SmLdstQ {
  PtxMemTrace t; /* its lanes' accesses, from the functional step at issue */
  const PtxInst *in;
  uint64_t pc, at;       /* at: the cycle its operands are collected (it starts no earlier) */
  uint32_t slot, rb, pb; /* rb, pb: the warp's register and predicate rows at issue */
  uint8_t kind;
} SmLdstQ;

typedef struct SmEvent {
  uint64_t cycle;
  uint32_t slot;
  uint8_t nrows;
  uint32_t rows[6];
} SmEvent;

/* Laid out for the host's data cache (the SM record is aligned to a 64-byte
 * line): a visit of the engine that only takes replies, sends the LD/ST
 * unit's next request and finds the SM quiet again, and visits_note after
 * it, read and write its first three lines (the third is ldst.cur), one line
 * of ldst.req, qm.stall's and the first two lines of st. */
struct Sm {
  /* line 0: read on every visit (sm_cycle's entry and quiet exit, visits_note) */
  SmQuiesce q;        /* the quiet SM and the issue memo (quiesce.h) */
  uint64_t ev_next;   /* ev[0].cycle, UINT64_MAX while nev == 0: the heap is read only when due */
  uint64_t *progress; /* counts its events (sm_count_progress) */
  uint32_t resident_ctas, nev;
  /* line 1: what the LD/ST unit and the replies need, then the unit's header */
  Cache *l1d;
  SmWarp *warps;
  uint32_t line_size;
  uint16_t l1i_pending; /* fetches the L1I accepted whose reply is not yet taken (0: nothing to poll) */
  uint8_t busy;         /* did something (or could) this cycle */
  uint8_t has_tick;     /* a plugin has a tick hook */
  uint8_t l1_events;    /* the SM makes events of its L1D requests (some bit of SM_EV_L1_REQ in ev_mask) */
  /* this cycle: the LD/ST unit sent, fetch sent, a scan found a warp ready (side by side: the
   * stores that reset them merge) */
  uint8_t ldst_moved, fetched, nready_total;
  /* what the stage memos wait on (quiesce.h): something a warp can wait on changed (the issue
   * stage scans again); a warp waits on the clock alone; an I-buffer, pending fetch or warp exit
   * changed since the fetch stage last found no warp to fetch for */
  uint8_t issue_dirty, time_wait, fetch_dirty;
  SmLdst ldst;
  SmQuiesceMemo qm; /* what quiet and memoised cycles repeat, the skip sets, the plugins' wake */
  Cache *l1i;
  Cache *l1c; /* the constant cache (sm.const_cache), NULL: constant loads take sm.const_latency */
  uint32_t nsched;
  uint8_t sched_fixed;   /* sched.first = fixed: scheduler 0 issues first every cycle (3.2.2) */
  uint64_t own_progress; /* progress's default */
  int accept_cache;      /* sm_can_accept_cta() since the last CTA launch/exit, -1 unknown */
  uint32_t id;
  const Config *cfg;
  MemSys *ms;
  PolicyGpu *pgpu; /* the policies' per-GPU context (the composition root's) */
  /* parameters */
  uint32_t max_warps, max_ctas, max_threads, max_regs, max_shared, issue_width, ib_slots, fetch_width;
  uint32_t issue_per_warp; /* sm.max_insn_issue_per_warp: instructions of one warp a scheduler may issue per
                              cycle */
  /* Operand collector and register banks (GPGPU-Sim 3.2.2 opndcoll_rfu_t; sm.reg_banks > 0):
   * per class (SP, SFU, MEM = SM_UNIT_SP/SFU/LDST) collector units, each free from a
   * cycle on (oc_cu_free, oc_cu_base[c] the class's first); per bank the first cycle it
   * can serve a read (oc_bank_next: one read per bank per cycle, in request order); per
   * class and out port the first cycle it can dispatch (oc_port_next); the in ports'
   * allocations this cycle (oc_in_cycle / oc_in_n). Computed at issue (a calendar): no
   * per-cycle state, so the shortcuts stay exact. */
  uint32_t oc_banks, oc_units[3], oc_ports[3], oc_cu_base[3], oc_in_n[3];
  uint64_t oc_in_cycle[3];
  uint64_t *oc_cu_free, *oc_bank_next,
      *oc_port_next; /* oc_port_next: class c's ports at c * SM_OC_PORTS_MAX */
  uint32_t nunits[SM_UNIT__COUNT];
  uint32_t shared_banks, shared_latency, ldst_latency, const_latency;
  /* kernel */
  PtxLaunch *launch;
  const SmKernelInfo *kinfo;
  uint32_t occ_ctas; /* occupancy of the current kernel (resource limits) */
  const char *occ_limiter;
  uint32_t sb_words, sb_pred_off;
  /* state */
  WarpView *views;
  SmCta *ctas;
  uint32_t used_threads, used_regs, used_shared, used_warps;
  uint64_t age_counter;
  int32_t *greedy; /* per scheduler: slot issued last */
  uint32_t last_fetch;
  uint64_t *unit_free; /* per unit instance: cycle it accepts again */
  uint32_t unit_base[SM_UNIT__COUNT];
  SmEvent *ev; /* min-heap on cycle */
  uint32_t ev_cap;
  uint32_t *order_buf, *elig_buf;
  uint8_t *sched_of;  /* per warp slot: its scheduler (slot % nsched, as stage_issue indexes it) */
  uint64_t *live_bm;  /* the slots holding a warp */
  uint64_t *sched_bm; /* min(nsched, 64) bitmaps: the slots of each scheduler index */
  uint64_t *fetch_bm; /* warps waiting for an I-buffer fill (fetch_note): fetch candidates */
  uint32_t bm_words;
  PtxMemTrace trace;
  /* policy */
  const WarpSchedPolicy *policy;
  void *pstate;
  const FetchPolicy *fetch;
  void *fstate;
  /* plugins: plug[0] is the warp scheduler (policy, pstate), then the observers, then the measures */
  SmPlugin plug[1 + SM_MAX_OBSERVERS + SM_MAX_MEASURES];
  uint32_t nplug;
  uint8_t has_issue, has_annot;                     /* a plugin has on_issue / annotate */
  uint8_t lists_all, stable_refusals, stable_order; /* the scheduler's engine hints (PolicyEngineHints) */
  /* (stable_order) per scheduler: its last list (order_rows + sched * (max_warps + 1)), its length,
   * and the greedy slot and warps_gen it was made for (gen 0: none yet) */
  uint32_t *order_rows, *order_n;
  int32_t *order_greedy;
  uint64_t *order_gen;
  uint64_t warps_gen;       /* counts the changes of the warp set (on_warps_change), from 1 */
  uint8_t l1d_may_bypass;   /* the L1D's policy may send a load down unallocated (its request needs a size) */
  SchedEventMask ev_mask;   /* the event kinds the SM makes: those some plugin wants (sm_plugins_create) */
  uint8_t l1_lanes;         /* a plugin wants line-request events with their lanes (SmReq.lanes) */
  uint8_t count_sched_wait; /* a plugin asked for WarpView.sched_wait (sched_wait) */
  /* LD/ST queue (sm.ldst_queue): memory instructions issued while the unit was taken wait in
   * lq (a ring of lq_cap, lq_n from lq_head), one enters per cycle (lq_in: the last cycle one did) */
  SmLdstQ *lq;
  uint32_t lq_cap, lq_n, lq_head;
  uint64_t lq_in;
  /* Memory collector path (sm.mem_issue = collector; GPGPU-Sim 3.2.2 ID_OC_MEM -> memory collector
   * units -> OC_EX_MEM -> LD/ST unit): the instructions in it are entries of mc (mc_used: a bit per
   * entry in use; an entry's `at`: the cycle its register reads are done); mc_idoc, mc_ocex and
   * mc_cu[k] name the entry each stage holds, SM_MC_NONE when empty; mc_last: the collector unit that
   * dispatched last (round-robin); mc_clock: a stage of it moves by the clock alone next cycle;
   * mc_cu_bm: a bit per collector unit that holds an entry (the per-cycle tests without a loop). */
  SmLdstQ *mc;
  uint32_t mc_used;
  uint16_t mc_cu_bm;
  uint8_t mem_collector, mc_ncu, mc_idoc, mc_ocex, mc_last, mc_clock;
  uint8_t mc_cu[SM_MC_UNITS_MAX];
  uint8_t fetch_sched;     /* the fetch policy defers to the scheduler's fetch_select */
  uint8_t exit_stores;     /* sm.exit_waits_stores: a warp retires after its stores' acks */
  uint8_t front_322;       /* sm.front_end = gpgpusim: fetch at fetch_pc, lazy flush, refetch after a fill */
  uint8_t coalesce_narrow; /* sm.coalesce = arch13: 1- and 2-byte accesses per 32 / 64 B segment */
  uint32_t pc_base;        /* the kernel's first module pc: policy PC = module pc - pc_base */
  WarpSchedEnv env;        /* what the plugins were made with (prefix not kept) */
  uint64_t *bar_bm;        /* warps that arrived at a barrier since its CTA's last release (bm_words) */
  struct TlSm *tl;         /* the timeline recorder (timeline.c), NULL when off: each hook tests it */
  PtxDefer *defer;         /* where its warps log global accesses (sm_defer), NULL: performed at issue */
  /* a quiet SM's counters (active_cycles, stall, ldst_*) in its first two lines */
  _Alignas(64) SmStats st;
};
_Static_assert(offsetof(Sm, ldst.cur) == 128 && offsetof(Sm, ldst) == 96 && offsetof(Sm, l1d) == 64,
               "Sm layout: hot host cache lines");
_Static_assert(offsetof(SmWarp, ib_pc) <= 64, "SmWarp layout: hot host cache line");
_Static_assert(CACHE_FAIL__COUNT <= 8, "SmQuiesce.l1d_pop_fails: a bit per reservation failure");

/* Is scoreboard row r of a warp (its bitmap sb) pending? */
static inline int sm_sb_test(const uint64_t *sb, uint32_t r) { return (int)(sb[r / 64] >> (r % 64) & 1); }

/* Warp slot's scoreboard or loads changed: the issue scan evaluates it again. */
static inline void sm_warp_unskip(Sm *sm, uint32_t slot) { smq_unskip(&sm->qm, slot); }

/* ldst.c */
/* Where a memory instruction issued at `now` has its step write its trace: the entry sm_ldst_issue
 * will keep it in (ID_OC_MEM's, the LD/ST queue's next slot), so that the trace (about 300 bytes) is
 * not copied there, else sm->trace. */
PtxMemTrace *sm_ldst_trace_dest(Sm *sm, uint64_t now);
/* Warp slot issued its memory instruction (its trace t, from sm_ldst_trace_dest or anywhere else;
 * operands collected by `at` on the calendar path): into the free unit, the LD/ST queue or
 * (sm.mem_issue = collector) ID_OC_MEM. */
void sm_ldst_issue(Sm *sm, const PtxMemTrace *t, uint32_t slot, const PtxInst *in, uint32_t pc, uint8_t kind,
                   uint64_t at, uint32_t rb, uint32_t pb, uint64_t now);
/* One cycle of the LD/ST unit: send the next request to the L1D (with the collector path: its
 * stages move first, and OC_EX_MEM's instruction enters a unit that is free after it). */
void sm_ldst_cycle(Sm *sm, uint64_t now);
/* The reservation failure the unit's next request is certain to meet next
 * cycle if the L1D does not change (cache_predict_fail), or -1. */
int sm_ldst_predict_fail(const Sm *sm);
/* The L1_RESFAIL event of the unit's current request, first failed at `cycle`. */
void sm_ldst_resfail_event(Sm *sm, CacheFailReason why, uint64_t cycle);
/* Replies from the L1D. */
void sm_ldst_replies(Sm *sm, uint64_t now);

/* writeback.c, used by sm.c and ldst.c (which never call each other back: ldst.c uses none of sm.c) */
/* Clears warp slot's scoreboard rows (n of them) and marks the warp changed. */
void sm_release_rows(Sm *sm, uint32_t slot, const uint32_t *rows, uint32_t n);
/* Queues the release of rows (at most 6 kept; n = 0: an event that only lets the writeback stage
 * look at the warp) for `cycle`. */
void sm_schedule_release(Sm *sm, uint64_t cycle, uint32_t slot, const uint32_t *rows, uint32_t n);
/* Takes the earliest queued release (the queue is not empty: Sm.ev_next <= now). */
SmEvent sm_release_pop(Sm *sm);

/* plugins.c: the SM's plugins (warp scheduler and observers) and what the SM tells them. */
/* Registers a CTA of the current kernel holds. */
static inline uint32_t sm_cta_regs(const Sm *sm) {
  const PtxLaunch *l = sm->launch;
  return l->regs_per_thread * l->warps_per_cta * 32;
}
/* Creates the scheduler, the observers and the fetch policy of pol (their keys from cfg) after
 * checking that each keeps its part of the plugin contract; -1 with err set. */
int sm_plugins_create(Sm *sm, const SmPolicies *pol, char *err, size_t errlen);
void sm_plugins_free(Sm *sm);
/* Delivers ev (cycle and kernel filled in here) to every plugin's on_event. */
void sm_emit(Sm *sm, SchedEvent *ev);
/* An event about warp `slot` (its CTA filled in), at a module pc. */
void sm_event_emit(Sm *sm, SchedEventKind kind, uint32_t slot, uint64_t line, uint32_t module_pc,
                   uint64_t now);
/* The test is inline so that an event kind no plugin wants costs its callers nothing. */
static inline void sm_event(Sm *sm, SchedEventKind kind, uint32_t slot, uint64_t line, uint32_t module_pc,
                            uint64_t now) {
  if (sm->ev_mask & SCHED_EV_BIT(kind)) sm_event_emit(sm, kind, slot, line, module_pc, now);
}
/* The warp slot that allocated L1D line l if that warp still holds the slot, else -1 (a warp's exit
 * clears its lines' allocating warp: cache_forget_warp in retire_warp). */
static inline int32_t sm_l1d_line_owner(const Sm *sm, const CacheLine *l) {
  return l->alloc_sm == (int32_t)sm->id && l->alloc_warp >= 0 && (uint32_t)l->alloc_warp < sm->max_warps
             ? l->alloc_warp
             : -1;
}
/* The events of an L1D line request: a load's outcome, a store's, an atomic's, a failure. */
#define SM_EV_L1_REQ                                                                                         \
  (SCHED_EV_BIT(SCHED_EV_L1_HIT) | SCHED_EV_BIT(SCHED_EV_L1_MISS) | SCHED_EV_BIT(SCHED_EV_L1_MERGE) |        \
   SCHED_EV_BIT(SCHED_EV_L1_BYPASS) | SCHED_EV_BIT(SCHED_EV_L1_RESFAIL) | SCHED_EV_BIT(SCHED_EV_STORE) |     \
   SCHED_EV_BIT(SCHED_EV_L1_ATOMIC_HIT) | SCHED_EV_BIT(SCHED_EV_L1_ATOMIC))
/* Ticks every plugin with a tick hook and asks the lazy ones when next. */
void sm_plugins_tick(Sm *sm, uint64_t now);
/* (count_sched_wait) After the issue stage: the warps still ready (bitmap `ready`) of each
 * scheduler that issued (bit q of issued_sched) waited on its choice: WarpView.sched_wait++. */
void sm_plugins_sched_wait(Sm *sm, uint64_t issued_sched, const uint64_t *ready);
void sm_plugins_issue(Sm *sm, uint32_t slot, const SchedIssue *is);
void sm_plugins_annotate(Sm *sm, uint32_t slot, SchedMemAnnot *m);
void sm_plugins_warps_change(const Sm *sm);
/* Kernel boundaries: KERNEL_BEGIN / KERNEL_END events. */
void sm_plugins_kernel(Sm *sm, bool begin, uint64_t now);
static inline uint32_t sm_policy_pc(const Sm *sm, uint32_t module_pc) { return module_pc - sm->pc_base; }

#endif
