/* sm_setup.c - the SM's cold paths: creation from the configuration (sm.*, sched.*, unit.*
 * keys), freeing, kernel setup, how many CTAs it can hold, and the deadlock dump. The per-cycle
 * pipeline is in sm.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bitmap.h"
#include "sm/sm_int.h"

/* ---- creation ---- */
Sm *sm_create(uint32_t id, const Config *cfg, MemSys *ms, PolicyGpu *pg, const SmPolicies *pol, char *err,
              size_t errlen) {
  Sm *sm = aligned_alloc(_Alignof(Sm), sizeof *sm); /* its hot fields fill whole host cache lines */
  if (!sm) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  memset(sm, 0, sizeof *sm);
  sm->id = id;
  sm->cfg = cfg;
  sm->ms = ms;
  sm->pgpu = pg;
  sm->l1d = memsys_l1d(ms, id);
  sm->l1i = memsys_l1i(ms, id);
  sm->l1c = cfg_bool(cfg, "sm.const_cache") ? memsys_l1c(ms, id) : NULL;
  sm->l1d_may_bypass = cache_policy_may_bypass(sm->l1d);
  sm->ev_next = UINT64_MAX;
  sm->progress = &sm->own_progress;
  sm->accept_cache = -1;
  sm->max_warps = (uint32_t)cfg_int(cfg, "sm.max_warps");
  sm->max_ctas = (uint32_t)cfg_int(cfg, "sm.max_ctas");
  sm->max_threads = (uint32_t)cfg_int(cfg, "sm.max_threads");
  sm->max_regs = (uint32_t)cfg_int(cfg, "sm.registers");
  sm->max_shared = (uint32_t)cfg_int(cfg, "sm.shared_mem");
  sm->nsched = (uint32_t)cfg_int(cfg, "sched.count");
  sm->sched_fixed = strcmp(cfg_str(cfg, "sched.first"), "fixed") == 0;
  sm->exit_stores = cfg_bool(cfg, "sm.exit_waits_stores");
  sm->front_322 = strcmp(cfg_str(cfg, "sm.front_end"), "gpgpusim") == 0;
  sm->issue_width = (uint32_t)cfg_int(cfg, "sched.issue_per_cycle");
  sm->ib_slots = (uint32_t)cfg_int(cfg, "sm.ibuffer_slots");
  sm->issue_per_warp = (uint32_t)cfg_int(cfg, "sm.max_insn_issue_per_warp");
  sm->fetch_width = (uint32_t)cfg_int(cfg, "sm.fetch_width");
  if (sm->ib_slots > SM_IB_MAX) sm->ib_slots = SM_IB_MAX;
  if (sm->fetch_width > sm->ib_slots) sm->fetch_width = sm->ib_slots;
  sm->nunits[SM_UNIT_SP] = (uint32_t)cfg_int(cfg, "unit.sp.count");
  sm->nunits[SM_UNIT_SFU] = (uint32_t)cfg_int(cfg, "unit.sfu.count");
  sm->nunits[SM_UNIT_LDST] = (uint32_t)cfg_int(cfg, "unit.ldst.count");
  sm->shared_banks = (uint32_t)cfg_int(cfg, "sm.shared_banks");
  sm->shared_latency = (uint32_t)cfg_int(cfg, "sm.shared_latency");
  sm->const_latency = (uint32_t)cfg_int(cfg, "sm.const_latency");
  sm->ldst_latency = (uint32_t)cfg_int(cfg, "unit.ldst.latency");
  sm->line_size = (uint32_t)cfg_int(cfg, "l1d.line_size");
  uint32_t nu = 0;
  for (int u = 0; u < SM_UNIT__COUNT; u++) {
    sm->unit_base[u] = nu;
    nu += sm->nunits[u];
  }
  sm->unit_free = calloc(nu + 1, sizeof(uint64_t));
  sm->oc_banks = (uint32_t)cfg_int(cfg, "sm.reg_banks");
  static const char *const oc_units_key[3] = {"sm.oc_units_sp", "sm.oc_units_sfu", "sm.oc_units_mem"};
  static const char *const oc_ports_key[3] = {"sm.oc_ports_sp", "sm.oc_ports_sfu", "sm.oc_ports_mem"};
  uint32_t ncu = 0;
  for (int c = 0; c < 3; c++) {
    sm->oc_units[c] = (uint32_t)cfg_int(cfg, oc_units_key[c]);
    sm->oc_ports[c] = (uint32_t)cfg_int(cfg, oc_ports_key[c]);
    sm->oc_cu_base[c] = ncu;
    ncu += sm->oc_units[c];
  }
  sm->lq_cap = (uint32_t)cfg_int(cfg, "sm.ldst_queue");
  sm->lq_in = UINT64_MAX;
  sm->lq = malloc(sizeof(SmLdstQ) * (sm->lq_cap + 1));
  sm->mem_collector = strcmp(cfg_str(cfg, "sm.mem_issue"), "collector") == 0;
  sm->coalesce_narrow = strcmp(cfg_str(cfg, "sm.coalesce"), "arch13") == 0;
  const uint32_t mcu = sm->oc_units[SM_UNIT_LDST];
  sm->mc_ncu = (uint8_t)(mcu < SM_MC_UNITS_MAX ? mcu : SM_MC_UNITS_MAX);
  sm->mc_idoc = sm->mc_ocex = SM_MC_NONE;
  sm->mc_last = (uint8_t)(sm->mc_ncu - 1); /* the first dispatch searches from unit 0 */
  memset(sm->mc_cu, SM_MC_NONE, sizeof sm->mc_cu);
  sm->mc_cu_bm = 0;
  sm->mc = malloc(sizeof(SmLdstQ) * (SM_MC_UNITS_MAX + 2));
  sm->oc_cu_free = calloc(ncu + 1, sizeof(uint64_t));
  sm->oc_bank_next = calloc(sm->oc_banks + 1, sizeof(uint64_t));
  sm->oc_port_next = calloc(3 * SM_OC_PORTS_MAX, sizeof(uint64_t));
  sm->warps = aligned_alloc(_Alignof(SmWarp), sizeof(SmWarp) * sm->max_warps);
  if (sm->warps) memset(sm->warps, 0, sizeof(SmWarp) * sm->max_warps);
  sm->views = aligned_alloc(_Alignof(WarpView), sizeof(WarpView) * sm->max_warps);
  if (sm->views) memset(sm->views, 0, sizeof(WarpView) * sm->max_warps);
  sm->ctas = calloc(sm->max_ctas, sizeof(SmCta));
  sm->greedy = malloc(sizeof(int32_t) * sm->nsched);
  sm->order_buf = malloc(sizeof(uint32_t) * (sm->max_warps + 1));
  sm->order_rows = malloc(sizeof(uint32_t) * (sm->max_warps + 1) * sm->nsched);
  sm->order_n = calloc(sm->nsched, sizeof(uint32_t));
  sm->order_greedy = calloc(sm->nsched, sizeof(int32_t));
  sm->order_gen = calloc(sm->nsched, sizeof(uint64_t));
  sm->warps_gen = 1;
  sm->elig_buf = malloc(sizeof(uint32_t) * (sm->max_warps + 1));
  sm->sched_of = malloc(sm->max_warps + 1);
  sm->bm_words = bitmap_words(sm->max_warps);
  uint32_t nq = sm->nsched < 64 ? sm->nsched : 64;
  sm->live_bm = calloc(sm->bm_words, sizeof(uint64_t));
  sm->fetch_bm = calloc(sm->bm_words, sizeof(uint64_t));
  sm->bar_bm = calloc(2 * (size_t)sm->bm_words, sizeof(uint64_t)); /* and a release's scratch (sm.c) */
  sm->sched_bm = calloc((size_t)sm->bm_words * nq, sizeof(uint64_t));
  sm->ev_cap = 1024;
  sm->ev = malloc(sizeof(SmEvent) * sm->ev_cap);
  const int qbad = smq_init(sm); /* the shortcuts' state (quiesce.c) */
  if (!sm->unit_free || !sm->warps || !sm->views || !sm->ctas || !sm->greedy || !sm->order_buf ||
      !sm->order_rows || !sm->order_n || !sm->order_greedy || !sm->order_gen || !sm->elig_buf || !sm->ev ||
      !sm->sched_of || !sm->lq || !sm->mc || !sm->oc_cu_free || !sm->oc_bank_next || !sm->oc_port_next ||
      !sm->live_bm || qbad || !sm->fetch_bm || !sm->sched_bm || !sm->bar_bm) {
    snprintf(err, errlen, "out of memory");
    sm_free(sm);
    return NULL;
  }
  if (sm->mem_collector && (!sm->oc_banks || sm->lq_cap || sm->oc_units[SM_UNIT_LDST] > SM_MC_UNITS_MAX)) {
    if (!sm->oc_banks)
      snprintf(err, errlen, "sm.mem_issue = collector needs the operand collector: sm.reg_banks > 0");
    else if (sm->lq_cap)
      snprintf(err, errlen, "sm.mem_issue = collector replaces sm.ldst_queue: set it to 0 (it is %u)",
               sm->lq_cap);
    else
      snprintf(err, errlen,
               "sm.mem_issue = collector takes at most %d memory collector units: "
               "sm.oc_units_mem is %u",
               SM_MC_UNITS_MAX, sm->oc_units[SM_UNIT_LDST]);
    sm_free(sm);
    return NULL;
  }
  for (uint32_t i = 0; i < sm->nsched; i++) sm->greedy[i] = -1;
  for (uint32_t w = 0; w < sm->max_warps; w++) {
    sm->sched_of[w] = (uint8_t)(w % sm->nsched % 64);
    bitmap_set(&sm->sched_bm[(size_t)sm->sched_of[w] * sm->bm_words], w);
  }
  for (uint32_t w = 0; w < sm->max_warps; w++) {
    sm->warps[w].view = &sm->views[w];
    sm->views[w].slot = w;
    sm->views[w].wait = WARP_WAIT_EXITED;
  }
  sm->last_fetch = sm->max_warps - 1;
  if (sm_plugins_create(sm, pol, err, errlen)) {
    sm_free(sm);
    return NULL;
  }
  return sm;
}

void sm_free(Sm *sm) {
  if (!sm) return;
  sm_end_kernel(sm, 0);
  sm_plugins_free(sm);
  free(sm->unit_free);
  free(sm->warps);
  free(sm->views);
  free(sm->ctas);
  free(sm->greedy);
  free(sm->oc_cu_free);
  free(sm->oc_bank_next);
  free(sm->oc_port_next);
  free(sm->lq);
  free(sm->mc);
  free(sm->order_buf);
  free(sm->order_rows);
  free(sm->order_n);
  free(sm->order_greedy);
  free(sm->order_gen);
  free(sm->elig_buf);
  free(sm->ev);
  free(sm->sched_of);
  free(sm->live_bm);
  smq_free(sm);
  free(sm->fetch_bm);
  free(sm->sched_bm);
  free(sm->bar_bm);
  free(sm);
}

/* ---- kernel setup and CTA capacity ---- */
void sm_begin_kernel(Sm *sm, PtxLaunch *l, const SmKernelInfo *k, uint64_t now) {
  sm->launch = l;
  sm->accept_cache = -1;
  sm->kinfo = k;
  sm->occ_ctas =
      sm_occupancy(sm->cfg, l->regs_per_thread, l->threads_per_cta, l->shared_per_cta, &sm->occ_limiter);
  uint32_t rows = l->fn->rf_rows + l->fn->pf_rows;
  sm->sb_words = (rows + 63) / 64;
  sm->sb_pred_off = l->fn->rf_rows;
  sm->pc_base = l->fn->first_pc;
  for (uint32_t w = 0; w < sm->max_warps; w++) {
    free(sm->warps[w].sb);
    sm->warps[w].sb = calloc(sm->sb_words + 1, sizeof(uint64_t));
  }
  sm_plugins_kernel(sm, true, now);
}

uint32_t sm_max_ctas(const Sm *sm, const char **limiter) {
  uint32_t n = sm->occ_ctas;
  *limiter = sm->occ_limiter;
  if (sm->policy->cta_limit) {
    uint32_t p = sm->policy->cta_limit(sm->pstate);
    if (p < n) {
      n = p;
      *limiter = "scheduler policy";
    }
  }
  return n;
}

static bool can_accept_cta(const Sm *sm) {
  const PtxLaunch *l = sm->launch;
  if (!l) return false;
  const char *lim;
  if (sm->resident_ctas >= sm_max_ctas(sm, &lim)) return false;
  return sm->used_threads + l->warps_per_cta * 32 <= sm->max_threads &&
         sm->used_warps + l->warps_per_cta <= sm->max_warps &&
         sm->used_regs + sm_cta_regs(sm) <= sm->max_regs &&
         sm->used_shared + l->shared_per_cta <= sm->max_shared;
}

bool sm_policy_limits_ctas(const Sm *sm) { return sm->policy->cta_limit != NULL; }

/* Cached between CTA launches and exits unless the policy limits CTAs (its limit may move at any time). */
bool sm_can_accept_cta(const Sm *sm) {
  if (sm->policy->cta_limit) return can_accept_cta(sm);
  Sm *m = (Sm *)sm; /* the cache is not observable state */
  if (m->accept_cache < 0) m->accept_cache = can_accept_cta(sm);
  return m->accept_cache;
}

/* ---- deadlock and run-limit reports ---- */
size_t sm_describe_running(const Sm *sm, char *buf, size_t len, uint32_t *budget) {
  size_t n = 0;
  for (uint32_t c = 0; c < sm->max_ctas && *budget && n + 1 < len; c++)
    if (sm->ctas[c].cta) n += ptx_cta_describe_running(sm->ctas[c].cta, buf + n, len - n, budget);
  return n;
}

void sm_dump(const Sm *sm, FILE *out) {
  static const char *wn[] = {"ready",     "ibuffer-empty", "scoreboard", "barrier",
                             "unit-busy", "draining",      "exited"};
  fprintf(out, "SM %u: %u CTAs, LD/ST unit %s", sm->id, sm->resident_ctas, sm->ldst.busy ? "busy" : "idle");
  if (sm->ldst.busy)
    fprintf(out, " (warp %u, request %u of %u)", sm->ldst.slot, sm->ldst.next, sm->ldst.nreq);
  if (sm->mem_collector) { /* the memory collector path: the warp slot each stage holds */
    const int idoc = sm->mc_idoc == SM_MC_NONE ? -1 : (int)sm->mc[sm->mc_idoc].slot;
    fprintf(out, "; ID_OC_MEM %d, collector units", idoc);
    for (uint32_t k = 0; k < sm->mc_ncu; k++)
      fprintf(out, " %d", sm->mc_cu[k] == SM_MC_NONE ? -1 : (int)sm->mc[sm->mc_cu[k]].slot);
    fprintf(out, ", OC_EX_MEM %d", sm->mc_ocex == SM_MC_NONE ? -1 : (int)sm->mc[sm->mc_ocex].slot);
  }
  fprintf(out, "\n");
  for (uint32_t c = 0; c < sm->max_ctas; c++) {
    char buf[1024];
    if (!sm->ctas[c].cta) continue;
    ptx_cta_describe(sm->ctas[c].cta, buf, sizeof buf);
    fprintf(out, " %s\n", buf);
  }
  for (uint32_t s = 0; s < sm->max_warps; s++) {
    const SmWarp *w = &sm->warps[s];
    if (!w->pw) continue;
    fprintf(out,
            "  warp slot %u (CTA %u warp %u) pc %u: %s, %u pending writes, %u pending loads, %u in the LD/ST "
            "path%s\n",
            s, sm->views[s].cta_id, sm->views[s].warp_in_cta, sm->views[s].pc, wn[sm->views[s].wait],
            w->pending_writes, w->pending_loads, w->in_ldst,
            w->fetch_pending ? ", I-cache miss pending" : "");
  }
}
