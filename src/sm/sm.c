/* sm.c - the SM pipeline, ticked in reverse order each cycle: writeback,
 * memory replies, LD/ST unit, issue (schedulers + policy), fetch/decode.
 * See sm.h for the model and its invariant. No policy is named here. Creation,
 * kernel setup, CTA capacity and the deadlock dump are in sm_setup.c. */
#include <stdlib.h>
#include <string.h>

#include "core/bitmap.h"
#include "sm/opcoll.h"
#include "sm/sm_int.h"
#include "sm/timeline.h"

static void warps_changed(Sm *sm); /* with live_add() */

/* ---- kernel and CTA management ---- */
void sm_end_kernel(Sm *sm, uint64_t end) {
  smq_settle(sm, end);
  smq_settle_memo(sm);
  if (sm->tl) tl_kernel_end(sm, end);
  if (sm->launch) sm_plugins_kernel(sm, false, end);
  sm->accept_cache = -1;
  for (uint32_t c = 0; c < sm->max_ctas && sm->ctas; c++)
    if (sm->ctas[c].cta) {
      ptx_cta_destroy(sm->ctas[c].cta);
      sm->ctas[c].cta = NULL;
    }
  for (uint32_t w = 0; w < sm->max_warps && sm->warps; w++) {
    free(sm->warps[w].sb);
    sm->warps[w].sb = NULL;
    /* a kernel stopped by an error leaves warps and CTAs behind: the next starts
     * clean (and a late reply finds its group's counter at 0: sm_ldst_replies) */
    sm->warps[w].pw = NULL;
    memset(sm->warps[w].remaining, 0, sizeof sm->warps[w].remaining);
    sm->warps[w].stores_out = 0;
    if (sm->views) sm->views[w].valid = 0, sm->views[w].wait = WARP_WAIT_EXITED;
  }
  sm->resident_ctas = sm->used_threads = sm->used_warps = sm->used_regs = sm->used_shared = 0;
  if (sm->live_bm && sm->fetch_bm) {
    memset(sm->live_bm, 0, sizeof(uint64_t) * sm->bm_words);
    memset(sm->fetch_bm, 0, sizeof(uint64_t) * sm->bm_words);
  }
  sm->launch = NULL;
  sm->kinfo = NULL;
  sm->nev = 0; /* only empty retire notifications can remain once every warp retired */
  sm->ev_next = UINT64_MAX;
  warps_changed(sm);
  smq_leave(sm, true);
  memset(&sm->ldst, 0, sizeof sm->ldst);
}

/* The set of warps changed (on_warps_change). */
static void warps_changed(Sm *sm) {
  sm->warps_gen++; /* the schedulers' kept lists (stable_order) are stale */
  sm_plugins_warps_change(sm);
}

static void live_add(Sm *sm, uint32_t slot) {
  warps_changed(sm);
  bitmap_set(sm->live_bm, slot);
  sm_warp_unskip(sm, slot);
  bitmap_clear(sm->qm.skip_empty, slot);
  bitmap_clear(sm->qm.ready_ldst, slot);
}

static void live_remove(Sm *sm, uint32_t slot) {
  warps_changed(sm);
  bitmap_clear(sm->live_bm, slot);
  sm_warp_unskip(sm, slot);
  bitmap_clear(sm->qm.skip_empty, slot);
  bitmap_clear(sm->qm.ready_ldst, slot);
}

/* Keeps slot s's bit in fetch_bm: its warp waits for an I-buffer fill. */
static inline void fetch_note(Sm *sm, uint32_t s) {
  const SmWarp *w = &sm->warps[s];
  if (w->pw && !w->exec_done && !w->fetch_pending && w->ib_n == 0 && w->pw->state != PTX_WARP_DONE)
    bitmap_set(sm->fetch_bm, s);
  else
    bitmap_clear(sm->fetch_bm, s);
}

void sm_launch_cta(Sm *sm, PtxCta *cta, uint64_t now) {
  sm->accept_cache = -1;
  smq_settle(sm, now);
  uint32_t cs = 0;
  while (sm->ctas[cs].cta) cs++;
  SmCta *c = &sm->ctas[cs];
  memset(c, 0, sizeof *c);
  c->cta = cta;
  c->live_warps = cta->nwarps;
  c->start_cycle = now;
  c->threads = cta->nwarps * 32;
  c->warps = cta->nwarps;
  c->regs = sm_cta_regs(sm);
  c->shared = sm->launch->shared_per_cta;
  cta->smid = sm->id;
  sm->resident_ctas++;
  sm->used_threads += c->threads;
  sm->used_warps += c->warps;
  sm->used_regs += c->regs;
  sm->used_shared += c->shared;
  smq_leave(sm, false);
  sm->fetch_dirty = 1;
  sm->issue_dirty = 1;
  uint32_t slot = 0, first = UINT32_MAX;
  for (uint32_t i = 0; i < cta->nwarps; i++) {
    while (sm->warps[slot].pw) slot++;
    if (!i) first = slot;
    SmWarp *w = &sm->warps[slot];
    uint64_t *sb = w->sb;
    WarpView *v = w->view;
    memset(w, 0, sizeof *w);
    w->sb = sb;
    memset(sb, 0, sizeof(uint64_t) * sm->sb_words);
    w->view = v;
    w->pw = &cta->warps[i];
    w->fetch_pc = ptx_warp_pc(w->pw);
    w->cta_slot = cs;
    memset(v, 0, sizeof *v);
    v->slot = slot;
    v->cta_slot = cs;
    v->cta_id = cta->linear_id;
    v->warp_in_cta = i;
    v->age = sm->age_counter++;
    v->launch_cycle = now;
    v->valid = 1;
    v->wait = WARP_WAIT_EMPTY;
    w->dirty = 1;
    live_add(sm, slot);
    fetch_note(sm, slot);
  }
  if (sm->tl) tl_cta_launch(sm, cs, now);
  if (sm->ev_mask & SCHED_EV_BIT(SCHED_EV_CTA_LAUNCH)) { /* every warp has its view: the CTA's launch */
    SchedEvent ev = {.kind = SCHED_EV_CTA_LAUNCH,
                     .slot = first,
                     .cycle = now,
                     .cta_slot = cs,
                     .cta_id = cta->linear_id,
                     .other_slot = -1,
                     .nwarps = cta->nwarps};
    sm_emit(sm, &ev);
  }
  if (sm->ev_mask & SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH)) /* then its warps' */
    for (uint32_t s = 0; s < sm->max_warps; s++)
      if (sm->warps[s].pw && sm->warps[s].cta_slot == cs)
        sm_event_emit(sm, SCHED_EV_WARP_LAUNCH, s, 0, sm->pc_base, now);
  (*sm->progress)++;
}

/* ---- retirement ---- */
static void retire_warp(Sm *sm, uint32_t slot, uint64_t now) {
  sm->fetch_dirty = 1;
  SmWarp *w = &sm->warps[slot];
  SmCta *c = &sm->ctas[w->cta_slot];
  sm->st.warps_done++;
  cache_forget_warp(sm->l1d, (int32_t)sm->id, (int32_t)slot); /* its lines have no allocating warp now */
  bitmap_clear(sm->bar_bm, slot);
  sm_event(sm, SCHED_EV_WARP_EXIT, slot, 0, sm->pc_base, now);
  if (sm->tl) tl_warp_exit(sm, slot, now);
  w->pw = NULL;
  w->view->valid = 0;
  w->view->wait = WARP_WAIT_EXITED;
  live_remove(sm, slot);
  fetch_note(sm, slot);
  for (uint32_t i = 0; i < sm->nsched; i++)
    if (sm->greedy[i] == (int32_t)slot) sm->greedy[i] = -1;
  if (--c->live_warps == 0) {
    sm->accept_cache = -1;
    sm->st.ctas_done++;
    sm->st.cta_cycles_sum += now - c->start_cycle;
    if (sm->tl) tl_cta_exit(sm, w->cta_slot, now);
    if (sm->ev_mask & SCHED_EV_BIT(SCHED_EV_CTA_EXIT)) {
      SchedEvent ev = {.kind = SCHED_EV_CTA_EXIT,
                       .slot = UINT32_MAX,
                       .cycle = now,
                       .cta_slot = w->cta_slot,
                       .cta_id = c->cta->linear_id,
                       .other_slot = -1,
                       .nwarps = c->warps};
      sm_emit(sm, &ev);
    }
    ptx_cta_destroy(c->cta);
    c->cta = NULL;
    sm->resident_ctas--;
    sm->used_threads -= c->threads;
    sm->used_warps -= c->warps;
    sm->used_regs -= c->regs;
    sm->used_shared -= c->shared;
  }
  (*sm->progress)++;
}

/* A barrier of warp s's CTA released (s's arrival or exit, at module pc `pc`): the warps of the CTA
 * that had arrived and wait no longer leave bar_bm, and the BARRIER_RELEASE event names them. */
static void barrier_release(Sm *sm, uint32_t s, uint32_t pc, uint64_t now) {
  const uint32_t cs = sm->warps[s].cta_slot;
  uint64_t *freed = sm->bar_bm + sm->bm_words, any = 0;
  for (uint32_t wd = 0; wd < sm->bm_words; wd++) {
    freed[wd] = 0;
    for (uint64_t b = sm->bar_bm[wd]; b; b &= b - 1) {
      const uint32_t x = wd * 64 + (uint32_t)__builtin_ctzll(b);
      const SmWarp *sw = &sm->warps[x];
      if (sw->pw && sw->cta_slot == cs && sw->pw->state != PTX_WARP_BARRIER) freed[wd] |= b & -b;
    }
    sm->bar_bm[wd] &= ~freed[wd];
    any |= freed[wd];
  }
  if (any && sm->tl) tl_barrier_release(sm, cs, freed, now);
  if (sm->ev_mask & SCHED_EV_BIT(SCHED_EV_BARRIER_RELEASE)) {
    SchedEvent ev = {.kind = SCHED_EV_BARRIER_RELEASE,
                     .slot = s,
                     .cycle = now,
                     .cta_slot = cs,
                     .cta_id = sm->views[s].cta_id,
                     .pc = sm_policy_pc(sm, pc),
                     .other_slot = -1,
                     .warps = freed};
    sm_emit(sm, &ev);
  }
}

static void maybe_retire(Sm *sm, uint32_t slot, uint64_t now) {
  SmWarp *w = &sm->warps[slot];
  if (w->pw && sm_warp_drained(w)) retire_warp(sm, slot, now);
}

/* ---- per-cycle stages ---- */
static void stage_writeback(Sm *sm, uint64_t now) {
  while (sm->ev_next <= now) {
    SmEvent e = sm_release_pop(sm);
    sm_release_rows(sm, e.slot, e.rows, e.nrows);
    maybe_retire(sm, e.slot, now);
    sm->busy = 1;
  }
}

/* Called only while l1i_pending: every accepted fetch gets one reply, so
 * with none pending none can be waiting. */
static void stage_fetch_replies(Sm *sm, uint64_t now) {
  for (const MemRequest *r; (r = cache_take_reply(sm->l1i, now)) != NULL;) {
    void *user = r->user; /* all the SM needs of the reply: no copy */
    sm->l1i_pending--;
    if (!user) continue;
    uint32_t slot = (uint32_t)((uintptr_t)user - 1);
    SmWarp *w = &sm->warps[slot];
    if (!w->pw || !w->fetch_pending) continue;
    w->fetch_pending = 0;
    sm->fetch_dirty = 1;
    uint32_t pc = ptx_warp_pc(w->pw);
    if (sm->front_322 && w->fetch_missed) {
      /* 3.2.2: the fill only clears imiss_pending; the warp fetches again (and hits) */
      w->fetch_missed = 0;
      fetch_note(sm, slot);
      sm->busy = 1;
      (*sm->progress)++;
      continue;
    }
    /* fill the I-buffer (empty: fetch_note) with up to fetch_width (<= ib_slots)
     * sequential instructions of the function; with front_322 those at fetch_pc,
     * which may be off the warp's path (warp_ready flushes them) */
    const PtxModule *mod = sm->launch->mod;
    const uint32_t at = sm->front_322 ? w->fetch_pc : pc;
    if (pc != PTX_EXIT_PC && at < mod->ncode) {
      const PtxFunction *f = &mod->funcs[mod->code[at].func];
      const uint32_t end = f->first_pc + f->npc, left = at < end ? end - at : 0;
      w->ib_pc = at;
      w->ib_ready = now + 1; /* decode next cycle, issue after */
      w->ib_n = (uint8_t)(left < sm->fetch_width ? left : sm->fetch_width);
      bitmap_clear(sm->qm.skip_empty, slot);
    } else if (pc != PTX_EXIT_PC) { /* past the module's last instruction: one entry, flushed */
      w->ib_pc = at;
      w->ib_ready = now + 1;
      w->ib_n = 1;
      bitmap_clear(sm->qm.skip_empty, slot);
    }
    fetch_note(sm, slot);
    if (pc == PTX_EXIT_PC) continue;
    sm->issue_dirty = 1;
    sm->busy = 1;
    (*sm->progress)++;
  }
}

/* Called only while fetch_dirty (sm_cycle tests it: most visits have nothing to fetch). */
static void stage_fetch(Sm *sm, uint64_t now) {
  uint32_t n = 0;
  for (uint32_t wd = 0; wd < sm->bm_words; wd++) /* ascending slots */
    for (uint64_t b = sm->fetch_bm[wd]; b; b &= b - 1)
      sm->elig_buf[n++] = wd * 64 + (uint32_t)__builtin_ctzll(b);
  if (!n) {
    sm->fetch_dirty = !sm->q.on;
    return;
  }
  uint32_t s = sm->elig_buf[0];
  if (sm->fetch_sched)
    s = sm->policy->fetch_select(sm->pstate, sm->views, sm->elig_buf, n, sm->last_fetch, now);
  else if (sm->fetch->select)
    s = sm->fetch->select(sm->fstate, sm->views, sm->elig_buf, n, sm->last_fetch, now);
  else
    for (uint32_t i = 0; i < n; i++)
      if (sm->elig_buf[i] > sm->last_fetch) {
        s = sm->elig_buf[i];
        break;
      }
  if (s >= sm->max_warps || !bitmap_test(sm->fetch_bm, s)) {
    fprintf(stderr,
            "warpsim: SM %u cycle %llu: fetch policy %s chose warp slot %u, which is not fetch-eligible\n",
            sm->id, (unsigned long long)now, sm->fetch_sched ? sm->policy->name : sm->fetch->name, s);
    abort();
  }
  SmWarp *w = &sm->warps[s];
  uint32_t pc = ptx_warp_pc(w->pw);
  if (pc == PTX_EXIT_PC) return;
  if (sm->front_322) pc = w->fetch_pc; /* 3.2.2 fetches at m_next_pc */
  uint64_t addr = SM_INST_PHYS + (uint64_t)pc * 8;
  MemRequest r = {.addr = addr,
                  .line_addr = addr & ~(uint64_t)(sm->line_size - 1),
                  .pc = sm_policy_pc(sm, pc),
                  .issue_cycle = now,
                  .user = (void *)(uintptr_t)(s + 1),
                  .sm = (int32_t)sm->id,
                  .warp = (int32_t)s,
                  .cta = (int32_t)w->cta_slot,
                  .bytes = 16,
                  .access_class = MEM_CLASS_CA,
                  .unit = MEM_UNIT_L1I};
  CacheResult res = cache_access(sm->l1i, &r, now);
  if (res.outcome == CACHE_RESFAIL) {
    sm->st.icache_waits++;
    if (sm->front_322) {
      /* 3.2.2 moves m_last_warp_fetched past a refused warp: the next cycle tries another
       * warp, so it is no quiet repeat of this one */
      sm->last_fetch = s;
      sm->fetched = sm->busy = 1;
      return;
    }
    sm->q.ffail = (int8_t)res.fail; /* a quiet cycle would fail the same way */
    return;
  }
  w->fetch_missed = res.outcome != CACHE_HIT;
  w->fetch_pending = 1;
  sm->l1i_pending++;
  fetch_note(sm, s);
  sm->fetched = 1;
  sm->last_fetch = s;
  sm->st.fetches++;
  sm->busy = 1;
}

/* Whether a warp found waiting for the memory path (wait_ldst) still must: the LD/ST unit busy
 * (its queue full when found), or with the collector path ID_OC_MEM taken. Either ends only with
 * issue_dirty set. */
static inline int sm_mem_held(const Sm *sm) {
  return sm->mem_collector ? sm->mc_idoc != SM_MC_NONE : sm->ldst.busy;
}

/* Updates the view of warp s for this cycle and returns what it waits on, the
 * view's new wait (WARP_WAIT_NONE: it can issue). */
static inline __attribute__((always_inline)) WarpWait warp_ready(Sm *sm, uint32_t s, uint64_t now,
                                                                 const PtxInst **out_in, uint32_t *out_pc) {
  SmWarp *w = &sm->warps[s];
  WarpView *v = w->view;
  if (!w->pw) {
    v->wait = WARP_WAIT_EXITED;
    return WARP_WAIT_EXITED;
  }
  if (v->wait == WARP_WAIT_SCOREBOARD && !w->dirty)
    return WARP_WAIT_SCOREBOARD; /* nothing it waits on has completed */
  if (v->wait == WARP_WAIT_UNIT && w->wait_ldst && sm_mem_held(sm) && !w->dirty) return WARP_WAIT_UNIT;
  w->wait_ldst = 0;
  uint32_t pc;
  const PtxInst *in;
  if (w->head_ok) { /* the head passed every check but the units' and has not issued since */
    pc = w->head_pc;
    in = &sm->launch->mod->code[pc];
    goto units;
  }
  if (w->exec_done) {
    v->wait = WARP_WAIT_DRAIN;
    return WARP_WAIT_DRAIN;
  }
  if (w->pw->state == PTX_WARP_BARRIER) {
    v->wait = WARP_WAIT_BARRIER;
    return WARP_WAIT_BARRIER;
  }
  pc = ptx_warp_pc(w->pw);
  if (w->ib_n && w->ib_pc != pc && (!sm->front_322 || w->ib_ready <= now)) {
    /* control flow left the fetched path: flush (3.2.2: when the scheduler examines the decoded
     * instruction, and the warp fetches next at its real pc) */
    w->ib_n = 0, sm->fetch_dirty = 1, w->fetch_pc = pc;
    fetch_note(sm, s);
  }
  if (!w->ib_n || w->ib_ready > now) {
    v->wait = WARP_WAIT_EMPTY;
    if (w->ib_n)
      sm->busy = sm->time_wait = 1;
    else /* until its I-buffer is filled (SmQuiesceMemo.skip_empty) */
      bitmap_set(sm->qm.skip_empty, s);
    return WARP_WAIT_EMPTY;
  }
  in = &sm->launch->mod->code[pc];
  const PtxOperands *o = &sm->kinfo->ops[pc];
  uint32_t rb = (uint32_t)((w->pw->rf - w->pw->regs) / PTX_WARP_SIZE),
           pb = sm->sb_pred_off + (uint32_t)(w->pw->pf - w->pw->preds);
  v->pc = pc - sm->launch->fn->first_pc;
  v->next_kind = sm->kinfo->kind[pc];
  v->active_lanes = ptx_warp_mask(w->pw);
  if (w->pending_writes) {
    int blocked = 0;
    for (uint32_t i = 0; i < o->nrd && !blocked; i++) blocked = sm_sb_test(w->sb, rb + o->rd[i]);
    for (uint32_t i = 0; i < o->nwr && !blocked; i++) blocked = sm_sb_test(w->sb, rb + o->wr[i]);
    for (uint32_t i = 0; i < o->nprd && !blocked; i++) blocked = sm_sb_test(w->sb, pb + o->prd[i]);
    for (uint32_t i = 0; i < o->npwr && !blocked; i++) blocked = sm_sb_test(w->sb, pb + o->pwr[i]);
    if (blocked) {
      v->wait = WARP_WAIT_SCOREBOARD;
      /* a load counts from its issue on, also while it waits for the LD/ST unit (queued_loads: the
       * LD/ST queue or the memory collector path), as on the unit path */
      v->long_pending = w->pending_loads + w->queued_loads > 0;
      w->dirty = 0;
      return WARP_WAIT_SCOREBOARD;
    }
  }
  v->long_pending = 0;
  /* Nothing but this warp's own issue can undo what passed so far: registers
   * only free up, the I-buffer head and the barrier state change only when
   * it issues. */
  w->head_ok = 1;
  w->head_pc = pc;
units:;
  uint8_t unit = sm->kinfo->unit[pc];
  if (unit == SM_UNIT_LDST) {
    /* the unit taken, its queue (sm.ldst_queue) full or entered this cycle: frees on a memory
     * event (the unit's instruction done, the queue's next enters) or by the clock. The collector
     * path needs only an empty ID_OC_MEM (GPGPU-Sim 3.2.2 scheduler_unit::cycle:
     * m_mem_out->has_free()), emptied when a collector unit takes its instruction (issue_dirty) */
    if (sm->mem_collector ? sm->mc_idoc != SM_MC_NONE
                          : (sm->ldst.busy || sm->ldst.free_at > now || sm->lq_n) &&
                                (sm->lq_n >= sm->lq_cap || sm->lq_in == now)) {
      v->wait = WARP_WAIT_UNIT;
      if (sm->mem_collector) { /* head_ok: only ID_OC_MEM emptying (or this warp's issue) changes this */
        w->wait_ldst = 1;
        w->dirty = 0;
        bitmap_clear(sm->qm.ready_ldst, s);
        return WARP_WAIT_UNIT;
      }
      w->wait_ldst = sm->ldst.busy && sm->lq_n >= sm->lq_cap;
      if (!w->wait_ldst) sm->time_wait = 1;
      /* everything before the unit check passed and stays passed (head_ok):
       * only the unit itself, or a new scoreboard change, can alter this */
      else
        w->dirty = 0;
      return WARP_WAIT_UNIT;
    }
    /* a free load group: pending_loads counts the groups in use (each has replies due), queued loads will */
    if (in->op != PTX_OP_st && in->op != PTX_OP_red && w->pending_loads + w->queued_loads >= SM_MAX_LOADS) {
      v->wait = WARP_WAIT_SCOREBOARD;
      w->dirty = 0;
      bitmap_clear(sm->qm.ready_ldst, s);
      return WARP_WAIT_SCOREBOARD;
    }
    if (sm->mem_collector) /* ready while ID_OC_MEM is empty, until it issues (SmQuiesceMemo.ready_ldst) */
      bitmap_set(sm->qm.ready_ldst, s);
    else if (sm->oc_banks && !oc_cu_available(sm, SM_UNIT_LDST, now)) {
      v->wait = WARP_WAIT_UNIT;
      sm->busy = sm->time_wait = 1;
      return WARP_WAIT_UNIT;
    }
  } else if (unit != SM_UNIT_NONE && sm->oc_banks) {
    /* with the operand collector the unit is taken at dispatch (oc_collect): issue needs a collector unit */
    if (!oc_cu_available(sm, unit, now)) {
      v->wait = WARP_WAIT_UNIT;
      sm->busy = sm->time_wait = 1;
      return WARP_WAIT_UNIT;
    }
  } else if (unit != SM_UNIT_NONE) {
    int any = 0;
    for (uint32_t u = 0; u < sm->nunits[unit]; u++) any |= sm->unit_free[sm->unit_base[unit] + u] <= now;
    if (!any) {
      v->wait = WARP_WAIT_UNIT;
      sm->busy = sm->time_wait = 1;
      return WARP_WAIT_UNIT;
    }
  }
  v->wait = WARP_WAIT_NONE;
  *out_in = in;
  *out_pc = pc;
  sm->busy = 1;
  return WARP_WAIT_NONE;
}

/* Issues the head instruction of warp s: functional execution plus timing. */
static int issue(Sm *sm, uint32_t s, const PtxInst *in, uint32_t pc, uint64_t now, char *err, size_t errlen) {
  SmWarp *w = &sm->warps[s];
  PtxWarp *pw = w->pw;
  const PtxOperands *o = &sm->kinfo->ops[pc];
  sm->fetch_dirty = 1; /* the I-buffer shrinks, may flush, the warp may finish */
  uint8_t unit = sm->kinfo->unit[pc], kind = sm->kinfo->kind[pc];
  uint32_t rb = (uint32_t)((pw->rf - pw->regs) / PTX_WARP_SIZE),
           pb = sm->sb_pred_off + (uint32_t)(pw->pf - pw->preds);
  uint32_t rows[6], nrows = 0;
  for (uint32_t i = 0; i < o->nwr; i++) rows[nrows++] = rb + o->wr[i];
  for (uint32_t i = 0; i < o->npwr; i++) rows[nrows++] = pb + o->pwr[i];
  const uint64_t thread_insts = pw->thread_insts; /* the step counts the warp's active lanes */
  w->head_ok = 0;
  if (unit == SM_UNIT_LDST) bitmap_clear(sm->qm.ready_ldst, s);
  PtxMemTrace *const tr = unit == SM_UNIT_LDST ? sm_ldst_trace_dest(sm, now) : NULL;
  if (tr) tr->mask = 0;
  pw->trace = tr;
  pw->clock = now;
  pw->defer = sm->defer;
  PtxStepResult r = ptx_warp_step(pw);
  pw->trace = NULL;
  if (r == PTX_STEP_FAULT) {
    ptx_fault_describe(pw, err, errlen);
    return -1;
  }
  sm->st.warp_insts++;
  sm->st.thread_insts += pw->thread_insts - thread_insts;
  sm->st.issue_kind[kind]++;
  w->view->insts++;
  w->view->last_issue = now;
  if (sm->tl) tl_issue(sm, s, now);
  /* I-buffer: pop the head; flush if the next instruction is not the fetched one */
  w->ib_pc++;
  w->ib_n--;
  uint32_t npc = ptx_warp_pc(pw);
  if (sm->front_322) /* 3.2.2 issue_warp: set_next_pc(pc + isize); a wrong next entry waits for the scan */
    w->fetch_pc = pc + 1;
  else if (w->ib_n && w->ib_pc != npc)
    w->ib_n = 0;
  /* reserve destinations */
  for (uint32_t i = 0; i < nrows; i++)
    if (!sm_sb_test(w->sb, rows[i])) {
      w->sb[rows[i] / 64] |= 1ull << (rows[i] % 64);
      w->pending_writes++;
    }
  /* with the operand collector, the instruction reaches its unit at dispatch (at) */
  const int oc = sm->oc_banks && unit != SM_UNIT_NONE && !(unit == SM_UNIT_LDST && sm->mem_collector);
  const uint64_t at = oc ? oc_collect(sm, s, pc, unit, now) : now;
  if (unit == SM_UNIT_LDST) {
    sm->st.unit_busy[SM_UNIT_LDST]++;
    sm_ldst_issue(sm, tr, s, in, pc, kind, at, rb, pb, now);
  } else {
    if (unit != SM_UNIT_NONE) {
      for (uint32_t u = 0; u < sm->nunits[unit]; u++) {
        uint64_t *f = &sm->unit_free[sm->unit_base[unit] + u];
        if (*f <= at) {
          *f = at + sm->kinfo->ii[pc];
          break;
        }
      }
      sm->st.unit_busy[unit]++;
    }
    if (nrows) sm_schedule_release(sm, at + sm->kinfo->latency[pc], s, rows, nrows);
  }
  if (sm->has_issue) {
    const uint32_t npc_now = ptx_warp_pc(pw);
    SchedIssue is = {.cycle = now,
                     .pc = sm_policy_pc(sm, pc),
                     .next_pc = npc_now == PTX_EXIT_PC ? SCHED_PC_EXIT : sm_policy_pc(sm, npc_now),
                     .active_lanes = w->view->active_lanes,
                     .kind = kind,
                     .taken = npc_now != pc + 1};
    sm_plugins_issue(sm, s, &is);
  }
  if (r == PTX_STEP_BARRIER || r == PTX_STEP_RELEASED) { /* a releasing warp arrives too, with no wait */
    bitmap_set(sm->bar_bm, s);
    if (sm->tl) tl_barrier_arrive(sm, s, now);
    sm_event(sm, SCHED_EV_BARRIER_ARRIVE, s, 0, pc, now);
  }
  if (r == PTX_STEP_RELEASED) barrier_release(sm, s, pc, now);
  if (r == PTX_STEP_DONE) {
    w->exec_done = 1;
    w->ib_n = 0;
    /* barriers waiting on this warp may now release */
    if (ptx_cta_recheck_barriers(pw->cta)) barrier_release(sm, s, pc, now);
    maybe_retire(sm, s, now);
  }
  fetch_note(sm, s);
  (*sm->progress)++;
  return 0;
}

#define WAIT_BIT(k) (1u << (k))
#define SEEN_MANY 0x80u /* beside the WAIT_BITs in the issue scan's seen[]: more than one warp ready */
_Static_assert(WARP_WAIT__COUNT <= 7, "SEEN_MANY: a bit above the WAIT_BITs");

/* The reason a scheduler issued nothing, from what its warps wait on (`seen`:
 * bit k set when one of them waits on WarpWait k). */
static inline SmStall stall_reason(const Sm *sm, uint8_t seen) {
  if (seen & WAIT_BIT(WARP_WAIT_NONE)) return SM_STALL_POLICY;
  if (seen & WAIT_BIT(WARP_WAIT_UNIT)) return sm->ldst.busy ? SM_STALL_LDST : SM_STALL_UNIT;
  if (seen & WAIT_BIT(WARP_WAIT_SCOREBOARD)) return SM_STALL_SCOREBOARD;
  if (seen & WAIT_BIT(WARP_WAIT_EMPTY)) return SM_STALL_IBUFFER;
  if (seen & WAIT_BIT(WARP_WAIT_BARRIER)) return SM_STALL_BARRIER;
  return seen ? SM_STALL_DRAIN : SM_STALL_NO_WARP;
}

/* ---- the scan's shortcuts checked (WS_CHECKS: the test build) ---- */

#ifdef WS_CHECKS
static void scan_check_failed(const Sm *sm, uint64_t now, const char *what, uint32_t x) {
  fprintf(stderr, "warpsim: internal error: SM %u cycle %llu: %s (%u)\n", sm->id, (unsigned long long)now,
          what, x);
  abort();
}
#endif

#ifdef WS_CHECKS
/* A warp of skip_empty still finds its I-buffer empty, as warp_ready() would. */
static bool empty_holds(const Sm *sm, const SmWarp *w) {
  (void)sm;
  return w->pw && !w->head_ok && !w->exec_done && !w->ib_n && w->pw->state != PTX_WARP_BARRIER &&
         w->view->wait == WARP_WAIT_EMPTY;
}

/* A warp of ready_ldst is ready as warp_ready() would find it while ID_OC_MEM is empty. */
static bool ready_ldst_holds(const Sm *sm, const SmWarp *w) {
  const PtxInst *in = w->pw && w->head_ok ? &sm->launch->mod->code[w->head_pc] : NULL;
  return sm->mem_collector && in && sm->kinfo->unit[w->head_pc] == SM_UNIT_LDST && !w->wait_ldst &&
         w->view->wait == WARP_WAIT_NONE &&
         (in->op == PTX_OP_st || in->op == PTX_OP_red || w->pending_loads + w->queued_loads < SM_MAX_LOADS);
}
#endif

/* Every live warp of skip_empty and of ready_ldst still holds what put it there (word wd). */
static void check_sets(const Sm *sm, uint32_t wd, uint64_t now) {
#ifdef WS_CHECKS
  const uint64_t *set[2] = {sm->qm.skip_empty, sm->qm.ready_ldst};
  bool (*const holds[2])(const Sm *, const SmWarp *) = {empty_holds, ready_ldst_holds};
  static const char *const what[2] = {"a warp in skip_empty no longer waits for its I-buffer; slot",
                                      "a warp in ready_ldst is no longer ready; slot"};
  for (int k = 0; k < 2; k++)
    for (uint64_t b = set[k][wd] & sm->live_bm[wd]; b; b &= b - 1) {
      const uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(b);
      if (!holds[k](sm, &sm->warps[s])) scan_check_failed(sm, now, what[k], s);
    }
#else
  (void)sm, (void)wd, (void)now;
#endif
}

/* A kept list (stable_order) is the one order() gives now. */
static void check_kept_order(Sm *sm, uint32_t sched, const uint32_t *row, uint32_t n, uint32_t nw,
                             uint64_t now) {
#ifdef WS_CHECKS
  const uint32_t m =
      sm->policy->order(sm->pstate, sched, sm->views, nw, sm->greedy[sched], now, sm->order_buf);
  if (m != n || memcmp(row, sm->order_buf, n * sizeof *row))
    scan_check_failed(sm, now, "a kept scheduler list differs from order(); scheduler", sched);
#else
  (void)sm, (void)sched, (void)row, (void)n, (void)nw, (void)now;
#endif
}

/* Scans the warps and issues (stage_issue without the memo); bw = sm->bm_words, a constant where
 * the SM has at most 63 warp slots (issue_scan), so that the bitmaps' single words stay in registers. */
static inline __attribute__((always_inline)) int scan(Sm *sm, uint64_t now, char *err, size_t errlen,
                                                      const uint32_t bw) {
  smq_settle_memo(sm);
  sm->issue_dirty = 0;
  sm->time_wait = 0;
  /* refresh every view first: the policy orders on this cycle's state */
  uint64_t ready[1024 / 64 + 1]; /* bitmap over slots (bm_words words); a ready warp issues its head_pc */
  uint8_t seen[64] = {0}; /* per scheduler index: WAIT_BIT of what its evaluated warps wait on (none ready: no
                             WARP_WAIT_NONE) */
  uint64_t skipped_sb[1024 / 64 + 1], skipped_ld[1024 / 64 + 1],
      skipped_em[1024 / 64 + 1]; /* per word: the warps skipped (scoreboard, LD/ST unit, empty I-buffer) */
  uint32_t
      one_ready[64]; /* per scheduler index with a ready warp: one of them (the only one unless SEEN_MANY) */
  uint32_t nw = sm->max_warps < 1024 ? sm->max_warps : 1024;
  const int mem_held = sm_mem_held(sm);
  for (uint32_t wd = 0; wd < bw; wd++) {
    uint64_t live = sm->live_bm[wd], sb = sm->qm.skip_sb[wd] & live,
             ld = mem_held ? sm->qm.skip_ldst[wd] & live : 0, dr = sm->qm.skip_drain[wd] & live,
             em = sm->qm.skip_empty[wd] & live, rl = mem_held ? 0 : sm->qm.ready_ldst[wd] & live;
    check_sets(sm, wd, now);
    for (uint64_t b = rl; b; b &= b - 1) { /* ready again: ID_OC_MEM is empty */
      const uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(b), q = sm->sched_of[s];
      seen[q] |= (seen[q] & WAIT_BIT(WARP_WAIT_NONE)) ? SEEN_MANY : WAIT_BIT(WARP_WAIT_NONE);
      one_ready[q] = s;
    }
    sm->busy |= rl != 0;
    skipped_sb[wd] = sb;
    skipped_ld[wd] = ld;
    skipped_em[wd] = em;
    /* a draining warp would only repeat warp_ready()'s verdict: its scheduler sees it */
    for (uint64_t b = dr; b; b &= b - 1)
      seen[sm->sched_of[wd * 64 + (uint32_t)__builtin_ctzll(b)]] |= (uint8_t)WAIT_BIT(WARP_WAIT_DRAIN);
    /* the evaluated warps get their skip bits anew (warp_ready sets only skip_empty's) */
    const uint64_t eval = live & ~(sb | ld | dr | em | rl);
    uint64_t rdy = rl, nsb = sm->qm.skip_sb[wd] & ~eval, nld = sm->qm.skip_ldst[wd] & ~eval, ndr = dr;
    for (uint64_t b = eval; b; b &= b - 1) { /* ascending slots */
      uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(b), q = sm->sched_of[s];
      const PtxInst *in;
      uint32_t pc;
      const WarpWait wait = warp_ready(sm, s, now, &in, &pc);
      const SmWarp *w = &sm->warps[s];
      const uint64_t bit = b & -b;
      const int r = wait == WARP_WAIT_NONE;
      rdy |= r ? bit : 0;
      if (r) {
        seen[q] |= (seen[q] & WAIT_BIT(WARP_WAIT_NONE)) ? SEEN_MANY : 0;
        one_ready[q] = s;
      }
      seen[q] |= (uint8_t)WAIT_BIT(wait);
      /* (warp_ready leaves each of these verdicts with dirty clear) */
      nsb |= wait == WARP_WAIT_SCOREBOARD ? bit : 0;
      nld |= wait == WARP_WAIT_UNIT && w->wait_ldst ? bit : 0;
      ndr |= wait == WARP_WAIT_DRAIN ? bit : 0;
    }
    ready[wd] = rdy;
    sm->qm.skip_sb[wd] = nsb;
    sm->qm.skip_ldst[wd] = nld;
    sm->qm.skip_drain[wd] = ndr;
    sm->nready_total |= rdy != 0;
  }
  if (sm->has_tick) sm_plugins_tick(sm, now);
  int issued_any = 0; /* until something issues, the scan's verdicts stand (warp_ready would repeat them) */
  uint32_t nready = 0, nrefused = 0; /* ready warps, and those the policy refused (stable_refusals) */
  if (sm->stable_refusals)
    for (uint32_t wd = 0; wd < bw; wd++) nready += (uint32_t)__builtin_popcountll(ready[wd]);
  /* the first scheduler alternates with the cycle: now % nsched, a mask for a power of two (no division);
   * sched.first = fixed: always scheduler 0 (3.2.2) */
  const uint32_t first = sm->sched_fixed                 ? 0
                         : sm->nsched & (sm->nsched - 1) ? (uint32_t)(now % sm->nsched)
                                                         : (uint32_t)now & (sm->nsched - 1);
  uint64_t issued_sched = 0; /* (count_sched_wait) bit sched % 64: that scheduler issued */
  for (uint32_t k = 0; k < sm->nsched; k++) {
    uint32_t sched = first + k < sm->nsched ? first + k : first + k - sm->nsched,
             issued = 0; /* (now + k) % nsched */
    if (!(seen[sched % 64] & WAIT_BIT(WARP_WAIT_NONE))) {
      /* no warp ready: what its skipped warps wait on counts too */
      uint8_t wait = seen[sched % 64];
      for (uint32_t wd = 0; wd < bw; wd++) {
        const uint64_t m = sm->sched_bm[(size_t)(sched % 64) * bw + wd];
        wait |= (uint8_t)((skipped_sb[wd] & m ? WAIT_BIT(WARP_WAIT_SCOREBOARD) : 0) |
                          (skipped_ld[wd] & m ? WAIT_BIT(WARP_WAIT_UNIT) : 0) |
                          (skipped_em[wd] & m ? WAIT_BIT(WARP_WAIT_EMPTY) : 0));
      }
      SmStall r = stall_reason(sm, wait);
      sm->st.stall[r]++;
      sm->qm.stall[sched % 64] = (uint8_t)r;
      continue;
    }
    uint32_t n = 1, lost = 0; /* lost: a ready warp the policy offered found its unit taken this cycle */
    const uint32_t *list = sm->order_buf;
    if (sm->lists_all && !(seen[sched % 64] & SEEN_MANY))
      sm->order_buf[0] = one_ready[sched % 64]; /* first in any order */
    else if (sm->stable_order) {                /* its last list stands while its warps and greedy do */
      uint32_t *row = sm->order_rows + (size_t)sched * (sm->max_warps + 1);
      if (sm->order_gen[sched] != sm->warps_gen || sm->order_greedy[sched] != sm->greedy[sched]) {
        sm->order_n[sched] = sm->policy->order(sm->pstate, sched, sm->views, nw, sm->greedy[sched], now, row);
        sm->order_gen[sched] = sm->warps_gen;
        sm->order_greedy[sched] = sm->greedy[sched];
      } else
        check_kept_order(sm, sched, row, sm->order_n[sched], nw, now);
      n = sm->order_n[sched];
      list = row;
    } else
      n = sm->policy->order(sm->pstate, sched, sm->views, nw, sm->greedy[sched], now, sm->order_buf);
    if (sm->tl) tl_listed(sm, list, n, now);
    for (uint32_t i = 0; i < n && issued < sm->issue_width; i++) {
      uint32_t s = list[i];
      if (s >= nw || !bitmap_test(ready, s) || !sm->warps[s].pw || sm->sched_of[s] != sched) continue;
      if (sm->policy->can_issue &&
          !sm->policy->can_issue(sm->pstate, &sm->views[s], (WarpInstKind)sm->views[s].next_kind)) {
        nrefused++;
        if (sm->tl) tl_refused(sm, s, now);
        continue;
      }
      /* the unit may have been taken by the other scheduler this cycle */
      uint32_t pc = sm->warps[s].head_pc; /* a ready verdict passed its head (head_ok) */
      const PtxInst *in = &sm->launch->mod->code[pc];
      if (issued_any && warp_ready(sm, s, now, &in, &pc) != WARP_WAIT_NONE) {
        bitmap_clear(ready, s);
        lost = 1;
        continue;
      }
      if (issue(sm, s, in, pc, now, err, errlen)) return -1;
      /* GPGPU-Sim 3.2.2 (scheduler_unit::cycle): the same warp's next I-buffer
       * instruction may follow in this cycle, up to max_insn_issue_per_warp,
       * only while each one before it issued, if it is decoded, passes the
       * scoreboard (which now holds the first one's destinations) and finds
       * its unit free (its pipeline register has a free slot) */
      for (uint32_t j = 1; j < sm->issue_per_warp; j++) {
        if (warp_ready(sm, s, now, &in, &pc) != WARP_WAIT_NONE) break;
        if (sm->policy->can_issue &&
            !sm->policy->can_issue(sm->pstate, &sm->views[s], (WarpInstKind)sm->views[s].next_kind))
          break;
        if (issue(sm, s, in, pc, now, err, errlen)) return -1;
        sm->st.multi_issues++;
      }
      bitmap_clear(ready, s);
      sm->greedy[sched] = (int32_t)s;
      issued++;
      issued_any = 1;
    }
    issued_sched |= issued ? 1ull << (sched % 64) : 0;
    if (!issued) {
      const SmStall r = lost ? SM_STALL_OTHER_SCHED : stall_reason(sm, seen[sched % 64]);
      sm->st.stall[r]++;
      sm->qm.stall[sched % 64] = (uint8_t)r; /* what a memoised repeat of this cycle adds */
    }
  }
  if (sm->count_sched_wait) sm_plugins_sched_wait(sm, issued_sched, ready);
  if (sm->tl) tl_scan(sm, ready, now);
  smq_scanned(sm, nready && nrefused == nready && !issued_any);
  return 0;
}

static int issue_scan(Sm *sm, uint64_t now, char *err, size_t errlen) {
  return sm->bm_words == 1 ? scan(sm, now, err, errlen, 1) : scan(sm, now, err, errlen, sm->bm_words);
}

static int stage_issue(Sm *sm, uint64_t now, char *err, size_t errlen) {
  return smq_issue_repeats(sm, now) ? 0 : issue_scan(sm, now, err, errlen);
}

static inline __attribute__((always_inline)) int cycle(Sm *sm, uint64_t now, char *err, size_t errlen) {
  sm->busy = 0;
  if (!sm->resident_ctas && !sm->nev && !sm->ldst.busy) {
    /* No CTA: only store acks can arrive (nothing waits for them). Take them, or
     * they fill the L1's reply queue and the reply network stalls behind it. */
    while (cache_take_reply(sm->l1d, now)) {
    }
    return 0;
  }
  if (sm->has_tick && smq_repeat(sm, now)) return 0;
  smq_begin_cycle(sm, now);
  sm->st.active_cycles++;
  sm->ldst_moved = sm->fetched = sm->nready_total = 0;
  stage_writeback(sm, now);
  sm_ldst_replies(sm, now);
  if (sm->l1i_pending && !sm->front_322) stage_fetch_replies(sm, now);
  sm_ldst_cycle(sm, now);
  if (stage_issue(sm, now, err, errlen)) return -1;
  if (sm->fetch_dirty) stage_fetch(sm, now);
  /* 3.2.2 (shader_core_ctx::fetch): a fill ends the miss after the cycle's fetch */
  if (sm->l1i_pending && sm->front_322) stage_fetch_replies(sm, now);
  smq_end_cycle(sm, now); /* quiet from the next cycle on? (quiesce.c) */
  return 0;
}

int sm_cycle(Sm *sm, uint64_t now, char *err, size_t errlen) {
  if (sm->tl) tl_cycle_begin(sm, now); /* the timeline's counter windows: before and after the cycle */
  int rc = cycle(sm, now, err, errlen);
  if (sm->tl) tl_cycle_end(sm, now);
  return rc;
}

bool sm_idle(const Sm *sm) { return sm->resident_ctas == 0; }
uint32_t sm_resident_ctas(const Sm *sm) { return sm->resident_ctas; }
void sm_count_progress(Sm *sm, uint64_t *counter) { sm->progress = counter ? counter : &sm->own_progress; }
void sm_defer(Sm *sm, PtxDefer *log) { sm->defer = log; }
uint64_t sm_take_progress(Sm *sm) {
  const uint64_t n = sm->own_progress;
  sm->own_progress = 0;
  return n;
}
const SmStats *sm_stats(const Sm *sm) { return &sm->st; }

/* The lines a short visit reads (see struct Sm): the SM's first two host lines, the LD/ST
 * unit's request and the quiet cycles' counters. */
void sm_prefetch(const Sm *sm) {
  __builtin_prefetch(sm, 1);
  __builtin_prefetch((const char *)sm + 64, 1);
  __builtin_prefetch(&sm->ldst.cur, 1);
  __builtin_prefetch(&sm->st, 1);
  __builtin_prefetch((const char *)&sm->st + 64, 1);
}
