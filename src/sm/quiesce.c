/* quiesce.c - the SM's idle-work shortcuts (quiesce.h): entering and leaving quiescence,
 * accounting the quiet and memoised cycles exactly as simulating them would, the issue memo, and
 * what the engine asks of an SM to skip it (sm.h: sm_wake_cycle, sm_timers, sm_skip_cycles).
 * Calls the pipeline's neighbours (plugins.c, ldst.c) but nothing of sm.c. */
#include <stdlib.h>
#include <string.h>

#include "sm/sm_int.h"

int smq_init(Sm *sm) {
  SmQuiesce *q = &sm->q;
  for (int r = 0; r < CACHE_FAIL__COUNT; r++) {
    q->l1d_pop_fails |= (uint8_t)(cache_retry_needs_queue_space(sm->l1d, (CacheFailReason)r) << r);
    q->l1i_pop_fails |= (uint8_t)(cache_retry_needs_queue_space(sm->l1i, (CacheFailReason)r) << r);
    if (sm->l1c)
      q->l1c_pop_fails |= (uint8_t)(cache_retry_needs_queue_space(sm->l1c, (CacheFailReason)r) << r);
  }
  q->on = cfg_bool(sm->cfg, "sm.skip_idle_cycles");
  q->fail = q->ffail = -1;
  sm->qm.wake = UINT64_MAX;
  sm->qm.skip_sb = calloc(sm->bm_words, sizeof(uint64_t));
  sm->qm.skip_ldst = calloc(sm->bm_words, sizeof(uint64_t));
  sm->qm.skip_drain = calloc(sm->bm_words, sizeof(uint64_t));
  sm->qm.skip_empty = calloc(sm->bm_words, sizeof(uint64_t));
  sm->qm.ready_ldst = calloc(sm->bm_words, sizeof(uint64_t));
  return sm->qm.skip_sb && sm->qm.skip_ldst && sm->qm.skip_drain && sm->qm.skip_empty && sm->qm.ready_ldst
             ? 0
             : -1;
}

void smq_free(Sm *sm) {
  free(sm->qm.skip_sb);
  free(sm->qm.skip_ldst);
  free(sm->qm.skip_drain);
  free(sm->qm.skip_empty);
  free(sm->qm.ready_ldst);
}

/* Adds n cycles in which every scheduler stalls as in the last scan (SmQuiesceMemo.stall). */
static void add_stalls(Sm *sm, uint64_t n) {
  for (uint32_t k = 0; k < sm->nsched; k++) sm->st.stall[sm->qm.stall[k % 64]] += n;
}

void smq_settle_memo(Sm *sm) {
  if (sm->q.memo_cycles) add_stalls(sm, sm->q.memo_cycles);
  sm->q.memo_cycles = 0;
}

/* The LD/ST unit's request fails in every quiet cycle from `from` on (fail):
 * if it had not failed before (the SM went quiet predicting its first
 * failure), the L1_RESFAIL event simulating cycle `from` would have brought. */
static inline void quiet_fail_event(Sm *sm, uint64_t from) {
  if ((sm->ev_mask & SCHED_EV_BIT(SCHED_EV_L1_RESFAIL)) && sm->ldst.busy && sm->q.fail >= 0 &&
      !sm->ldst.cur_failed && !sm->ldst.to_l1c) /* (the constant cache makes no events) */
    sm_ldst_resfail_event(sm, (CacheFailReason)sm->q.fail, from);
}

/* Adds n quiet cycles from `from` on to the statistics, exactly as simulating
 * them would (their stalls, those of the last scan, with the memoised cycles'). */
static void account_quiet(Sm *sm, uint64_t from, uint64_t n) {
  quiet_fail_event(sm, from);
  sm->st.active_cycles += n;
  sm->q.memo_cycles += n;
  if (sm->q.ffail >= 0) {
    sm->st.icache_waits += n;
    cache_note_retries(sm->l1i, (CacheFailReason)sm->q.ffail, n);
  }
  if (sm->ldst.busy) {
    sm->st.ldst_busy_cycles += n;
    if (sm->q.fail >= 0) {
      sm->st.ldst_resfail[sm->q.fail] += n;
      cache_note_retries(sm->ldst.to_l1c ? sm->l1c : sm->l1d, (CacheFailReason)sm->q.fail, n);
    }
  }
}

/* Quiet cycles are not visited one by one: every cycle from `since` on is
 * quiet until the SM is simulated again, and they are accounted in one go. */
void smq_settle(Sm *sm, uint64_t upto) {
  if (upto <= sm->q.since) return;
  if (sm->q.quiet) account_quiet(sm, sm->q.since, upto - sm->q.since);
  sm->q.since = upto;
}

void smq_leave(Sm *sm, bool all) {
  sm->q.quiet = sm->q.pop = 0;
  if (all && sm->qm.skip_sb && sm->qm.skip_ldst && sm->qm.skip_drain && sm->qm.skip_empty &&
      sm->qm.ready_ldst) {
    memset(sm->qm.skip_sb, 0, sizeof(uint64_t) * sm->bm_words);
    memset(sm->qm.skip_ldst, 0, sizeof(uint64_t) * sm->bm_words);
    memset(sm->qm.skip_drain, 0, sizeof(uint64_t) * sm->bm_words);
    memset(sm->qm.skip_empty, 0, sizeof(uint64_t) * sm->bm_words);
    memset(sm->qm.ready_ldst, 0, sizeof(uint64_t) * sm->bm_words);
  }
}

/* Is this cycle provably identical to the last (quiet) one? Nothing the SM
 * itself queued is due, no L1 got a fill, and if a retried access failed for
 * want of miss-queue space, no miss queue drained either. Asked only of SMs
 * with a tick hook: the engine visits any other quiet SM only when its timer
 * is due (until) or one of its L1s got a fill or, with pop, a miss-queue
 * pop (gpu.c), and then the answer is no; the versions it compares are kept
 * only for them (a cycle simulated in full would give the same statistics). */
static inline bool still_quiet(const Sm *sm, uint64_t now) {
  if (!sm->q.quiet || now >= sm->q.until) return false;
  const CacheVersion d = cache_version(sm->l1d), i = cache_version(sm->l1i);
  if (sm->l1c) {
    const CacheVersion c = cache_version(sm->l1c);
    if (c.fills != sm->qm.l1c_at.fills || (sm->q.pop && c.pops != sm->qm.l1c_at.pops)) return false;
  }
  return d.fills == sm->qm.l1d_at.fills && i.fills == sm->qm.l1i_at.fills &&
         (!sm->q.pop || (d.pops == sm->qm.l1d_at.pops && i.pops == sm->qm.l1i_at.pops));
}

bool smq_repeat(Sm *sm, uint64_t now) {
  if (!still_quiet(sm, now) || (sm->q.refused && now >= sm->qm.wake)) return false;
  quiet_fail_event(sm, sm->q.since); /* before the tick, as in a simulated cycle */
  sm_plugins_tick(sm, now);
  return true;
}

void smq_begin_cycle(Sm *sm, uint64_t now) {
  /* (since matters only while quiet: this cycle sets quiet anew) */
  if (sm->q.quiet && now > sm->q.since) account_quiet(sm, sm->q.since, now - sm->q.since);
  sm->q.fail = sm->q.ffail = -1;
}

bool smq_issue_repeats(Sm *sm, uint64_t now) {
  /* nothing a warp waits on changed (nor, for refusals, did the plugins' next tick come): same
   * outcome as last cycle */
  if (!sm->q.issue_memo || sm->issue_dirty || (sm->q.refused && now >= sm->qm.wake)) return false;
  if (sm->has_tick) sm_plugins_tick(sm, now);
  sm->q.memo_cycles++;
  return true;
}

void smq_scanned(Sm *sm, bool all_refused) {
  /* every ready warp refused by a scheduler whose refusals stand until its next event or tick:
   * the next cycles repeat this one as a cycle with no ready warp would (memo, quiet SM) */
  sm->q.refused = all_refused;
  if (all_refused) sm->nready_total = 0;
  sm->q.issue_memo = sm->q.on && !sm->nready_total && !sm->time_wait;
}

void smq_end_cycle(Sm *sm, uint64_t now) {
  SmQuiesce *q = &sm->q;
  /* busy: some stage did something (a request the LD/ST unit sent included);
   * a wait that ends by the clock alone (shared-memory passes) is not quiescence */
  const int calm = q->on && !sm->fetched && !sm->nready_total && sm->ldst.free_at <= now && !sm->mc_clock;
  int quiet = calm && !sm->busy;
  /* A busy cycle whose next is already quiet: no warp is ready or waits on
   * the clock (issue memo), nothing is left to fetch, no event or reply is
   * due (until, checked by still_quiet), and what moved this cycle
   * (replies, writebacks) was seen by this cycle's issue stage and changes
   * nothing next cycle; and the LD/ST unit's next try is certain to fail:
   * after a request it sent, if its next request is predicted to (MSHRs
   * full, ...); after a failed try (it followed this cycle's replies), if the
   * failure waits on a memory event (not a port conflict), as a quiet
   * cycle's does. */
  if (!quiet && calm && sm->ldst.busy && q->issue_memo && !sm->issue_dirty && !sm->fetch_dirty) {
    if (sm->ldst_moved) {
      int why = sm_ldst_predict_fail(sm);
      if (why >= 0) quiet = 1, q->fail = (int8_t)why; /* its first failure comes in a quiet cycle */
    } else {
      quiet = q->fail != CACHE_FAIL_PORT;
    }
  }
  q->quiet = (uint8_t)quiet;
  if (!quiet) {
    q->pop = 0;
    return;
  }
  sm->busy = 0; /* a quiet SM needs no visit before until (nor the engine's next cycle) */
  q->since = now + 1;
  uint64_t t = sm->ev_next, r = cache_next_reply(sm->l1d);
  if (r < t) t = r;
  if (sm->l1i_pending && (r = cache_next_reply(sm->l1i)) < t) t = r;
  if (sm->ldst.l1c_pending && (r = cache_next_reply(sm->l1c)) < t) t = r;
  q->until = t;
  if (sm->has_tick) { /* for still_quiet() */
    sm->qm.l1d_at = cache_version(sm->l1d);
    sm->qm.l1i_at = cache_version(sm->l1i);
    if (sm->l1c) sm->qm.l1c_at = cache_version(sm->l1c);
  }
  const uint8_t ldst_pop_fails = sm->ldst.to_l1c ? q->l1c_pop_fails : q->l1d_pop_fails;
  q->pop = (sm->ldst.busy && q->fail >= 0 && (ldst_pop_fails >> q->fail & 1)) ||
           (q->ffail >= 0 && (q->l1i_pop_fails >> q->ffail & 1));
}

/* ---- what the engine asks (sm.h) ---- */

void sm_skip_cycles(Sm *sm, uint64_t from, uint64_t n) {
  if (!n || (!sm->resident_ctas && !sm->nev && !sm->ldst.busy)) return;
  if (!sm->q.quiet) account_quiet(sm, from, n); /* a quiet SM counts them when it settles */
  if (sm->qm.tick_every) /* lazy tickers (next_tick) account for the time themselves; the engine stops at
                            their wake */
    for (uint64_t t = from; t < from + n; t++) sm_plugins_tick(sm, t);
}

bool sm_wakes_on_pop(const Sm *sm) { return sm->q.pop; }

uint64_t sm_wake_cycle(const Sm *sm) {
  if (sm->qm.tick_every || sm->busy) return 0;
  if (!sm->resident_ctas && !sm->nev && !sm->ldst.busy) return UINT64_MAX;
  if (!sm->q.quiet) return 0;
  return sm->has_tick && sm->qm.wake < sm->q.until ? sm->qm.wake : sm->q.until;
}

SmTimers sm_timers(const Sm *sm) {
  uint64_t ev = sm->ev_next;
  if (sm->has_tick && sm->resident_ctas && sm->qm.wake < ev)
    ev = sm->qm.wake; /* a lazy ticker's wake (tick_every: busy) */
  return (SmTimers){.busy = sm->busy != 0, .event = ev, .free_at = sm->ldst.free_at};
}
