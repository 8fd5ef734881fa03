/* quiesce.h - the SM's idle-work shortcuts (sm.skip_idle_cycles; exact either way): quiet SMs,
 * the issue stage's memo and skip sets, the plugins' wake-ups. The pipeline (sm.c) reports what
 * each cycle did; this module decides when the next cycles provably repeat it, accounts the
 * repeated cycles without simulating them, and tells the engine (gpu.c, through sm.h) when the SM
 * must next be visited. Not for use outside src/sm/ (sm_int.h includes it). */
#ifndef WS_SM_QUIESCE_H
#define WS_SM_QUIESCE_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/cache.h"
#include "sm/sm.h"

/* Quiescence: a cycle in which no warp was ready and nothing moved; until one of its inputs
 * changes, the next cycles are identical and are only accounted (stall counters), not
 * re-simulated. This part is read on every visit: it opens the SM's first host cache line. */
typedef struct SmQuiesce {
  uint64_t until;       /* (quiet) first cycle a queued event or L1 reply is due */
  uint64_t since;       /* first quiet cycle not yet added to the statistics */
  uint64_t memo_cycles; /* memoised and quiet cycles whose stalls are not yet counted (smq_settle_memo) */
  uint8_t quiet;
  uint8_t pop; /* quiet, and its repeated failure depends on miss-queue space: pops end it too */
  int8_t fail,
      ffail; /* L1D (LD/ST) and L1I (fetch) failure a quiet cycle repeats, or -1 (reset each cycle) */
  /* Issue-stage memo: the last scan found no ready warp and no warp waiting on the clock, so the
   * scan is repeated only after something a warp can wait on changed (Sm.issue_dirty). */
  uint8_t issue_memo;
  uint8_t refused; /* the memo stands for a cycle whose ready warps the scheduler all refused
                    * (stable_refusals): it ends at a plugin event or its next_tick (SmQuiesceMemo.wake) */
  /* per cache, bit r: a retry failing for reason r ends only with a fill or a miss-queue pop
   * (cache_retry_needs_queue_space, fixed for a cache) */
  uint8_t l1d_pop_fails, l1i_pop_fails, l1c_pop_fails;
  uint8_t on; /* sm.skip_idle_cycles: quiet cycles and stage memos */
} SmQuiesce;
_Static_assert(sizeof(SmQuiesce) == 40, "SmQuiesce: with the Sm's line-0 fields, one host cache line");

/* What the memoised and quiet cycles repeat, and the plugins' wake-up. */
typedef struct SmQuiesceMemo {
  CacheVersion l1d_at, l1i_at, l1c_at; /* (has_tick) the L1s' change counters when the SM went quiet */
  uint64_t wake;      /* (has_tick, !tick_every) the earliest cycle a plugin's next_tick asked for */
  uint8_t tick_every; /* a plugin ticks without next_tick: every cycle the SM holds a CTA */
  uint8_t stall[64];  /* the last scan's stall reason (SmStall) per scheduler index */
  /* Issue-scan skip sets (bitmaps over warp slots, Sm.bm_words words each): a warp in skip_sb
   * waits on its scoreboard and nothing it waits on completed since; one in skip_ldst waits for
   * the LD/ST unit, which it cannot get while the unit stays busy (with the memory collector path:
   * for ID_OC_MEM, while it stays taken). Re-evaluating them would only
   * repeat warp_ready()'s early exits, so the scan counts them without touching them. Any change
   * to a warp's scoreboard or loads (SmWarp.dirty) takes it out (smq_unskip). One in skip_drain
   * has executed its last instruction and waits for its memory to drain: it stays so until it
   * retires (its slot leaves the live set, which takes it out). One in skip_empty found its
   * I-buffer empty (nothing fetched, not a decode's wait): only a fill of its I-buffer changes
   * that (stage_fetch_replies takes it out), or its slot leaving the live set; a scoreboard change
   * leaves it in. warp_ready() puts it there itself. With the memory collector path, one in
   * ready_ldst was found ready with an LD/ST instruction at its head (head_ok): while ID_OC_MEM is
   * empty it stays ready until it issues (its free load groups only grow without an issue), so a
   * scan that finds ID_OC_MEM empty counts it ready without evaluating it; warp_ready() puts it
   * there and takes it out with any other verdict, its issue and its slot's change of hands too. */
  uint64_t *skip_sb, *skip_ldst, *skip_drain, *skip_empty, *ready_ldst;
} SmQuiesceMemo;

static inline void smq_unskip(SmQuiesceMemo *m, uint32_t slot) {
  m->skip_sb[slot / 64] &= ~(1ull << (slot % 64));
  m->skip_ldst[slot / 64] &= ~(1ull << (slot % 64));
  m->skip_drain[slot / 64] &= ~(1ull << (slot % 64));
}

/* At creation (after the L1s, sched.count and bm_words are known): -1 when out of memory. */
int smq_init(Sm *sm);
void smq_free(Sm *sm);
/* Accounts the quiet cycles before `upto`, before anything that could change what a quiet cycle
 * adds (the next simulated cycle, a CTA launch, the kernel's end). */
void smq_settle(Sm *sm, uint64_t upto);
/* Adds the stalls of the memoised and quiet cycles counted so far (before the issue stage scans
 * again and can change what they repeat, and at the kernel's end). */
void smq_settle_memo(Sm *sm);
/* The SM leaves quiescence for good (a CTA arrived, the kernel ended; settled first): the skip
 * sets too when `all`. */
void smq_leave(Sm *sm, bool all);
/* At the start of a visit of an SM with a tick hook: whether this cycle repeats the last quiet
 * one (then the plugins were ticked and nothing else is to be done). */
bool smq_repeat(Sm *sm, uint64_t now);
/* The visit simulates cycle `now`: the quiet cycles before it are accounted. */
void smq_begin_cycle(Sm *sm, uint64_t now);
/* The issue stage: whether it repeats its last scan (counted, plugins ticked): the scan is not run. */
bool smq_issue_repeats(Sm *sm, uint64_t now);
/* After a scan: `all_refused`: ready warps were found, and the scheduler refused every one. */
void smq_scanned(Sm *sm, bool all_refused);
/* The end of a simulated cycle: enters quiescence when the next cycles provably repeat it. */
void smq_end_cycle(Sm *sm, uint64_t now);

#endif
