/* timeline.h - the per-warp timeline recorder (doc/timeline.md): Chrome trace-event JSON that
 * the Perfetto UI, chrome://tracing and tools/timeline_viewer.html open. One process per SM, one
 * track per warp slot with the warp's state intervals (the SM's own WarpWait classification plus
 * issue and the policy's refusals), one track per CTA slot, counter tracks per SM and window, and
 * a GPU process with the kernels.
 *
 * Invariant: the recorder only reads the SM; with it or without it every statistic is the same.
 * A warp's state changes only where the SM scans its warps (issue_scan) or at events (launch,
 * retirement, kernel end): between two scans the SM repeats the last one (issue memo, quiet
 * cycles), so recording at those points is exact with and without sm.skip_idle_cycles.
 * Off (no timeline.file): every hook is one test of Sm.tl (NULL). Depends on sm_int.h. */
#ifndef WS_TIMELINE_H
#define WS_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"

typedef struct Sm Sm;
typedef struct Timeline Timeline; /* one per GPU: the output and the options */
typedef struct TlSm TlSm;         /* one per recorded SM */

/* The warp states of a warp-slot track (their names are the intervals' names). */
typedef enum TlState {
  TL_NONE = 0,   /* no warp (not recorded) */
  TL_ISSUE,      /* issued (with merging: issued n instructions, short stalls absorbed) */
  TL_READY,      /* ready and listed by the policy, another warp issued (or took its unit) */
  TL_THROTTLED,  /* ready, but the policy left it off its list or refused it (can_issue) */
  TL_FETCH,      /* no decoded instruction (WARP_WAIT_EMPTY: fetch, I-cache miss, branch) */
  TL_SCOREBOARD, /* a register is pending, no global/local load outstanding */
  TL_MEMORY,     /* a register is pending and a global/local load is outstanding (long_pending) */
  TL_UNIT,       /* the unit its instruction needs is busy (LD/ST unit included) */
  TL_BARRIER,    /* waits at a CTA barrier */
  TL_DRAIN,      /* executed its exit, its writes/loads still outstanding */
  TL_FINISHED,   /* retired, its CTA still resident */
  TL__COUNT
} TlState;
extern const char *const tl_state_names[TL__COUNT];

/* The timeline.* keys (config_schema.c registers them). */
extern const CfgParam timeline_cfg_params[];

/* Checks the timeline.* keys (window and SM syntax, SM ids below nsm): 0, or -1 with a message
 * naming the key in err. Called when a GPU is made, so a bad key fails before any run. */
int tl_check_config(const Config *cfg, uint32_t nsm, char *err, size_t errlen);
/* A recorder writing to `out` (opened by the caller, left open): writes the header. */
Timeline *tl_create(const Config *cfg, FILE *out, uint32_t nsm, char *err, size_t errlen);
/* Closes the JSON (a kernel or run stopped early gives a valid file too). Returns -1 if a
 * write failed (errno); prints a warning when max_events cut the trace short. */
int tl_finish(Timeline *t);
void tl_free(Timeline *t);
/* Gives the SM its recorder (Sm.tl) unless timeline.sms leaves it out; -1: out of memory.
 * tl_free takes every recorder back (Sm.tl = NULL): free the Timeline before its SMs. */
int tl_attach(Timeline *t, Sm *sm);
/* A kernel ran on the GPU from `start` to `end` (the GPU process's kernel track). */
void tl_kernel(Timeline *t, const char *name, uint32_t index, uint64_t start, uint64_t end, uint64_t ctas,
               uint64_t warp_insts);

/* ---- SM hooks (called only when Sm.tl is set) ---- */
/* The start of a simulated cycle (before anything moves): ends the counter windows before it. */
void tl_cycle_begin(Sm *sm, uint64_t now);
/* The end of a simulated cycle: what the next window end samples (MSHRs in use). */
void tl_cycle_end(Sm *sm, uint64_t now);
void tl_cta_launch(Sm *sm, uint32_t cta_slot, uint64_t now); /* after its warps got their slots */
void tl_warp_exit(Sm *sm, uint32_t slot, uint64_t now);      /* before the slot is freed */
void tl_cta_exit(Sm *sm, uint32_t cta_slot, uint64_t now);   /* after its last warp's tl_warp_exit */
void tl_issue(Sm *sm, uint32_t slot, uint64_t now);          /* one instruction issued */
/* The scheduler's policy listed n warps (order()) / refused warp `slot` (can_issue). */
void tl_listed(Sm *sm, const uint32_t *slots, uint32_t n, uint64_t now);
void tl_refused(Sm *sm, uint32_t slot, uint64_t now);
/* The end of a warp scan: every live warp's state from `now` on (ready: the bitmap of ready warps
 * that did not issue). */
void tl_scan(Sm *sm, const uint64_t *ready, uint64_t now);
void tl_barrier_arrive(Sm *sm, uint32_t slot, uint64_t now);
/* A barrier of CTA slot cta_slot freed the warps of bitmap `freed` (at least one, each arrived):
 * the release instant with their number and the warp-cycles they waited. */
void tl_barrier_release(Sm *sm, uint32_t cta_slot, const uint64_t *freed, uint64_t now);
/* The kernel ended at `end` (first cycle after it): closes every interval and window. */
void tl_kernel_end(Sm *sm, uint64_t end);

#endif
