/* ldst.c - the SM's LD/ST unit and the path an issued memory instruction takes to it (directly,
 * the LD/ST queue, or GPGPU-Sim's memory collector units): coalesces a warp's global/local accesses
 * into one request per cache line, feeds them to the L1D one per cycle
 * (stalling on reservation failures, counted by reason), completes loads when
 * their last line returns, and times shared memory (bank conflicts); constant and parameter
 * loads go the same way to the constant cache, one request per distinct constant-cache line
 * (or take a fixed latency). Local memory is interleaved per thread so that
 * lanes touching the same local offset coalesce, as on the hardware. */
#include <string.h>

#include "sm/opcoll.h"
#include "sm/sm_int.h"

static uint64_t phys_addr(const Sm *sm, const SmWarp *w, uint32_t lane, uint8_t space, uint64_t addr) {
  if (space != PTX_SP_LOCAL) return addr;
  const PtxLaunch *l = sm->launch;
  uint64_t threads = l->ctas_total * (uint64_t)l->warps_per_cta * 32;
  uint64_t gtid = (uint64_t)w->pw->cta->linear_id * l->warps_per_cta * 32 + w->pw->tid_base + lane;
  return SM_LOCAL_PHYS + ((addr >> 2) * threads + gtid) * 4 + (addr & 3);
}

/* Does any lane of a full warp's access lie in local space (phys_addr)?
 * Eight lanes' space bytes a word: a byte equal to PTX_SP_LOCAL is a zero
 * byte of the word xor'ed with it in every byte. */
static inline int lanes_local(const PtxMemTrace *t) {
  _Static_assert(PTX_WARP_SIZE % 8 == 0, "lane_space words");
  const uint64_t ones = 0x0101010101010101ull, local = ones * PTX_SP_LOCAL;
  uint64_t any = 0;
  for (uint32_t k = 0; k < PTX_WARP_SIZE / 8; k++) {
    uint64_t x;
    memcpy(&x, &t->lane_space[8 * k], 8);
    x ^= local;
    any |= (x - ones) & ~x & (ones << 7);
  }
  return any != 0;
}

/* Passes a shared-memory access needs: the most distinct 32-bit words any
 * bank serves (lanes reading the same word are served by one broadcast). */
static uint32_t shared_passes(const Sm *sm, const PtxMemTrace *t) {
  enum { MAXB = 64 };
  uint32_t banks = sm->shared_banks < MAXB ? sm->shared_banks : MAXB;
  uint32_t per_lane = t->size > 4 ? t->size / 4 : 1, passes = 1;
  uint32_t cnt[MAXB] = {0}, bw[MAXB][8]; /* the first 8 distinct words of each bank */
  for (uint32_t m = t->mask; m; m &= m - 1) {
    uint32_t l = (uint32_t)__builtin_ctz(m);
    for (uint32_t k = 0; k < per_lane; k++) {
      uint32_t word = (uint32_t)(t->addr[l] / 4) + k, b = word % banks, c = cnt[b], dup = 0;
      for (uint32_t i = 0; i < c && i < 8 && !dup; i++) dup = bw[b][i] == word;
      if (dup) continue;
      if (c < 8) bw[b][c] = word; /* beyond 8 words a bank is conflict-bound anyway: count, don't dedupe */
      cnt[b] = c + 1;
      if (c + 1 > passes) passes = c + 1;
    }
  }
  return passes;
}

/* Builds u->cur, the L1D request for the unit's first line (req[0]): built
 * once per instruction and retried as is; ldst_next_request() moves it on.
 * is_write and class are the instruction's; a load's bytes are its block's or 0 (the line). */
static void ldst_build_request(Sm *sm, uint8_t is_write, uint8_t cls, uint8_t hints) {
  SmLdst *u = &sm->ldst;
  const SmReq *q = &u->req[0];
  u->cur_failed = 0;
  u->cur = (MemRequest){.addr = q->addr,
                        .line_addr = q->line_addr,
                        .pc = sm_policy_pc(sm, (uint32_t)u->pc),
                        .hints = hints,
                        .user = u->load >= 0                  ? (void *)&sm->warps[u->slot].remaining[u->load]
                                : is_write && sm->exit_stores ? (void *)&sm->warps[u->slot].stores_out
                                                              : NULL,
                        .sm = (int32_t)sm->id,
                        .warp = (int32_t)u->slot,
                        .cta = (int32_t)sm->warps[u->slot].cta_slot,
                        .bytes = q->bytes,
                        .is_write = is_write,
                        .access_class = cls,
                        .unit = MEM_UNIT_L1D};
}

/* u->cur for req[next]: the lines of one instruction differ only in address
 * and size. */
static inline void ldst_next_request(Sm *sm) {
  SmLdst *u = &sm->ldst;
  const SmReq *q = &u->req[u->next];
  u->cur_failed = 0;
  u->cur.addr = q->addr;
  u->cur.line_addr = q->line_addr;
  u->cur.bytes = q->bytes;
}

/* Request k starts with the lane at (physical) address a, line `line`. */
static inline void coalesce_new(SmReq *req, uint32_t k, uint64_t line, uint64_t a) {
  req[k].line_addr = line;
  req[k].addr = a;
  req[k].bytes = 0;
  req[k].lanes = 0;
}

/* The coalescer table's slot of `line`: its request's, or the empty one where it goes. */
static inline uint32_t coalesce_slot(const uint8_t *slot_of, const SmReq *req, uint64_t line) {
  enum { HBITS = 8, HSIZE = 1 << HBITS };
  uint32_t h = (uint32_t)(((line >> 5) * 0x9E3779B97F4A7C15ull) >> (64 - HBITS));
  while (slot_of[h] && req[slot_of[h] - 1].line_addr != line) h = (h + 1) & (HSIZE - 1);
  return h;
}

/* ---- passes over the lanes after coalescing (the coalescer itself stays as it is) ---- */

/* One pass over the instruction's active lanes: for a load that may go down unallocated (class
 * cg, a bypass hint, or an L1D policy that bypasses) each request's size (u->req[k].bytes): the smallest
 * aligned 32, 64 or 128-byte block holding the 32-byte chunks its lanes touch, as GPGPU-Sim 3.2.2's coalescer
 * reduces a 128-byte segment (memory_coalescing_arch_13_reduce_and_send). A miss the L1 allocates for fetches
 * its whole line anyway (3.2.2's set_data_size(line size)); the size matters where the L1 does not allocate:
 * such a reply carries only it (partition.c). Other loads keep bytes 0 (the whole line). Lines of up to 512
 * bytes (16 chunks). */
static __attribute__((noinline)) void ldst_lane_pass(Sm *sm, const SmWarp *w, const PtxMemTrace *t,
                                                     uint64_t lmask) {
  SmLdst *u = &sm->ldst;
  uint32_t k = 0, chunks[SM_MAX_REQS] = {0};
  for (uint32_t m = t->mask; m; m &= m - 1) {
    const uint32_t l = (uint32_t)__builtin_ctz(m);
    const uint64_t a = phys_addr(sm, w, l, t->lane_space[l], t->addr[l]), line = a & lmask;
    if (u->req[k].line_addr != line) /* lanes usually follow their request: search only on a change */
      for (k = 0; k + 1 < u->nreq && u->req[k].line_addr != line; k++) {
      }
    chunks[k] |= 1u << (((a & ~lmask) >> 5) & 15);
  }
  if (sm->line_size > 512) return;
  for (k = 0; k < u->nreq; k++) {
    if (!chunks[k]) continue; /* cannot happen: a request has a lane */
    const uint32_t lo = (uint32_t)__builtin_ctz(chunks[k]), hi = 31u - (uint32_t)__builtin_clz(chunks[k]);
    uint32_t block = 1; /* in chunks */
    while (lo / block != hi / block) block *= 2;
    u->req[k].bytes = (uint16_t)(block * 32 < sm->line_size ? block * 32 : 0); /* 0: the whole line */
  }
}

/* A load group of warp w for an instruction of nreq requests, issued at `now`, whose last reply
 * releases `rows`; its index. */
static int16_t ldst_load_group(SmWarp *w, uint32_t nreq, const uint32_t *rows, uint32_t nrows, uint64_t now) {
  int32_t g = 0;
  while (g < SM_MAX_LOADS && w->remaining[g]) g++;
  if (g == SM_MAX_LOADS) g = 0; /* cannot happen: issue checks for a free group */
  SmLoad *ld = &w->loads[g];
  w->remaining[g] = (uint16_t)nreq;
  ld->nrows = (uint8_t)(nrows > 4 ? 4 : nrows);
  for (uint32_t i = 0; i < ld->nrows; i++) ld->rows[i] = rows[i];
  ld->issue_cycle = now;
  w->pending_loads++;
  return (int16_t)g;
}

/* A constant or parameter load with the constant cache (sm.const_cache), as GPGPU-Sim 3.2.2's
 * generate_mem_accesses (const_space, param_space_kernel): one access per distinct line of the
 * constant cache among the active lanes, kept in address order and sent from the highest
 * (ldst_unit::constant_cycle takes the back of the access queue), one per cycle; a warp's lanes
 * reading one address cost one access. A kernel's parameters live at SM_PARAM_PHYS. The load
 * completes with its last reply, as a global load does. */
static void ldst_const_accept(Sm *sm, const PtxMemTrace *t, uint32_t slot, uint64_t pc, uint8_t kind,
                              uint64_t now, const uint32_t *rows, uint32_t nrows) {
  SmLdst *u = &sm->ldst;
  const uint64_t lmask = ~(uint64_t)(cache_params_of(sm->l1c)->line_size - 1);
  uint32_t n = 0;
  /* prev: the last lane's line; lanes reading one line (a kernel parameter) repeat it */
  uint64_t prev = UINT64_MAX;
  for (uint32_t m = t->uniform ? t->mask & -t->mask : t->mask; m; m &= m - 1) { /* uniform: its first lane */
    const uint32_t l = (uint32_t)__builtin_ctz(m);
    const uint64_t a = (t->lane_space[l] == PTX_SP_PARAM ? SM_PARAM_PHYS : 0) + t->addr[l], line = a & lmask;
    if (line == prev) continue; /* already listed: the search below would find it */
    prev = line;
    uint32_t k = n;
    while (k && u->req[k - 1].line_addr < line) k--; /* descending order: the first sent first */
    if (k && u->req[k - 1].line_addr == line) continue;
    memmove(&u->req[k + 1], &u->req[k], (n - k) * sizeof *u->req);
    u->req[k] = (SmReq){.line_addr = line, .addr = a, .bytes = 0, .lanes = 0};
    n++;
  }
  u->nreq = (uint16_t)n;
  u->next = 0;
  u->slot = slot;
  u->kind = kind;
  u->pc = pc;
  u->to_l1c = 1;
  sm->st.const_reqs += n;
  u->load = ldst_load_group(&sm->warps[slot], n, rows, nrows, now);
  ldst_build_request(sm, 0, MEM_CLASS_CA, 0);
  u->cur.unit = MEM_UNIT_L1C;
  u->busy = 1;
  sm->warps[slot].in_ldst++;
}

/* After a memory instruction executed (its trace t filled): queue its requests. */
static void sm_ldst_accept(Sm *sm, const PtxMemTrace *t, uint32_t slot, const PtxInst *in, uint64_t pc,
                           uint8_t kind, uint64_t now, uint32_t rb, uint32_t pb) {
  SmWarp *w = &sm->warps[slot];
  const PtxOperands *o = &sm->kinfo->ops[pc];
  uint32_t rows[6], nrows = 0;
  for (uint32_t i = 0; i < o->nwr; i++) rows[nrows++] = rb + o->wr[i];
  for (uint32_t i = 0; i < o->npwr; i++) rows[nrows++] = pb + o->pwr[i];
  int is_load = in->op == PTX_OP_ld || in->op == PTX_OP_ldu || in->op == PTX_OP_atom;
  if (!t->mask) { /* every lane predicated off */
    if (nrows) sm_schedule_release(sm, now + sm->ldst_latency, slot, rows, nrows);
    sm->ldst.free_at = now + 1;
    return;
  }
  uint8_t space = t->lane_space[__builtin_ctz(t->mask)];
  if (space == PTX_SP_SHARED) {
    uint32_t passes = shared_passes(sm, t);
    sm->st.shared_accesses++;
    sm->st.shared_conflict_passes += passes - 1;
    sm->ldst.free_at = now + passes;
    if (nrows)
      sm_schedule_release(sm, now + sm->ldst_latency + passes * sm->shared_latency, slot, rows, nrows);
    return;
  }
  SmLdst *u = &sm->ldst;
  if (space == PTX_SP_CONST || space == PTX_SP_PARAM) {
    sm->st.const_loads++;
    if (sm->l1c) {
      ldst_const_accept(sm, t, slot, pc, kind, now, rows, nrows);
      return;
    }
    u->free_at = now + 1;
    if (nrows) sm_schedule_release(sm, now + sm->const_latency, slot, rows, nrows);
    return;
  }
  /* global / local: coalesce into line requests */
  u->to_l1c = 0;
  u->next = 0;
  u->slot = slot;
  u->kind = kind;
  u->pc = pc;
  const uint64_t lmask = ~(uint64_t)(sm->line_size - 1);
  const uint32_t size = t->size;
  const uint8_t is_write = t->is_write && !t->is_atomic; /* an atomic returns data, like a load */
  /* The coalescing unit: the line, or (sm.coalesce = arch13) GPGPU-Sim 3.2.2's segment for the
   * element size (memory_coalescing_arch_13: 32 B for 1-byte, 64 B for 2-byte elements, vectors
   * by their element; its atomics keep their own rule, here the line). While it is a segment,
   * req[].line_addr holds the segment until the requests are built (seg_to_line below). */
  uint64_t cmask = lmask;
  if (sm->coalesce_narrow && !t->is_atomic) {
    const int eb = ptx_type_bytes((PtxType)in->type);
    const uint64_t seg = eb == 1 ? 32 : eb == 2 ? 64 : 0;
    if (seg && seg < sm->line_size) cmask = ~(seg - 1);
  }
  /* Requests in order of first appearance. A lane in the previous lane's
   * line (coalesced accesses) adds to its request; while the lines ascend
   * (the usual case) any other line is a new one; after that a small
   * open-addressing table maps a line to its request, so a fully divergent
   * warp costs 32 probes, not 32^2. */
  enum { HBITS = 8, HSIZE = 1 << HBITS };
  _Static_assert(SM_MAX_REQS <= HSIZE / 2 && SM_MAX_REQS >= PTX_WARP_SIZE,
                 "coalescer table must stay sparse; a request per lane");
  uint8_t slot_of[HSIZE]; /* request index + 1, 0 = empty (once hashed) */
  int hashed = 0;
  uint32_t nreq = 0, i = 0;             /* i: the request of line `last` */
  uint64_t last = 1;                    /* no line (lines are aligned); while !hashed, the highest line */
  const bool want_lanes = sm->l1_lanes; /* each request's lanes (SmReq.lanes), for its events */
  /* One lane's access at (physical) address a, line `line`. */
#define COALESCE_LANE(a, line)                                                                               \
  if ((line) != last) {                                                                                      \
    int found = 0;                                                                                           \
    if (hashed || (nreq && (line) < last)) {                                                                 \
      if (!hashed) { /* the lines stop ascending: table the requests so far */                               \
        hashed = 1;                                                                                          \
        memset(slot_of, 0, sizeof slot_of);                                                                  \
        for (uint32_t k = 0; k < nreq; k++)                                                                  \
          slot_of[coalesce_slot(slot_of, u->req, u->req[k].line_addr)] = (uint8_t)(k + 1);                   \
      }                                                                                                      \
      const uint32_t h = coalesce_slot(slot_of, u->req, (line));                                             \
      found = slot_of[h] != 0;                                                                               \
      if (found)                                                                                             \
        i = slot_of[h] - 1u;                                                                                 \
      else                                                                                                   \
        slot_of[h] = (uint8_t)(nreq + 1);                                                                    \
    }                                                                                                        \
    if (!found) { /* a new line: at most one per lane, SM_MAX_REQS >= 32 */                                  \
      i = nreq++;                                                                                            \
      coalesce_new(u->req, i, (line), (a));                                                                  \
    }                                                                                                        \
    last = (line);                                                                                           \
  }
  if (t->mask == 0xFFFFFFFFu && !is_write && !lanes_local(t)) {
    /* a full warp's loads, no local lane (the rule): the addresses are physical, no store sizes.
     * While the lines ascend, COALESCE_LANE without its table: the lane
     * whose line falls below the last one and those after it take it. */
    uint32_t l = 0;
    for (; l < PTX_WARP_SIZE; l++) {
      const uint64_t a = t->addr[l], line = a & cmask;
      if (line == last) continue;
      if (nreq && line < last) break;
      coalesce_new(u->req, nreq++, line, a);
      last = line;
    }
    const uint32_t ascending = l; /* lanes 0..ascending-1: each request a run of lanes */
    for (; l < PTX_WARP_SIZE; l++) {
      const uint64_t a = t->addr[l], line = a & cmask;
      COALESCE_LANE(a, line)
      if (want_lanes) u->req[i].lanes |= 1u << l;
    }
    if (want_lanes)
      for (uint32_t x = 0, k = 0; x < ascending; x++) {
        k += x && (t->addr[x] & cmask) != (t->addr[x - 1] & cmask);
        u->req[k].lanes |= 1u << x;
      }
  } else {
    for (uint32_t m = t->mask; m; m &= m - 1) {
      const uint32_t l = (uint32_t)__builtin_ctz(m);
      const uint64_t a = phys_addr(sm, w, l, t->lane_space[l], t->addr[l]), line = a & cmask;
      COALESCE_LANE(a, line)
      if (is_write) u->req[i].bytes = (uint16_t)(u->req[i].bytes + size);
      if (want_lanes) u->req[i].lanes |= 1u << l;
    }
  }
#undef COALESCE_LANE
  u->nreq = nreq;
  if (space == PTX_SP_LOCAL)
    sm->st.local_reqs += u->nreq;
  else if (t->is_atomic)
    sm->st.atomic_reqs += u->nreq;
  else if (t->is_write)
    sm->st.global_store_reqs += u->nreq;
  else
    sm->st.global_load_reqs += u->nreq;
  u->load = -1;
  if (is_load) {
    u->load = ldst_load_group(w, u->nreq, rows, nrows, now);
  } else if (nrows) {
    sm_schedule_release(sm, now + sm->ldst_latency, slot, rows, nrows);
  }
  /* The load's class from its cache operator, as GPGPU-Sim 3.2.2 reads it: .cg skips the L1
   * (an L1 with l1d.bypass_cg), every other operator (.ca .cs .lu .cv, .nc, none) is cached;
   * a store's operator changes nothing (write-evict); an atomic is performed at L2 (cg). */
  uint8_t cls = (uint8_t)(t->is_atomic || (!is_write && ptx_cache_op(in) == PTX_COP_CG) ? MEM_CLASS_CG
                                                                                        : MEM_CLASS_CA),
          hints = 0;
  if (sm->has_annot) { /* the plugins' hints and class for every request of the instruction */
    SchedMemAnnot a = {.pc = sm_policy_pc(sm, (uint32_t)pc),
                       .kind = kind,
                       .is_write = is_write,
                       .access_class = cls,
                       .nreq = u->nreq};
    sm_plugins_annotate(sm, slot, &a);
    cls = a.access_class, hints = a.hints;
  }
  if (!is_write && (cls == MEM_CLASS_CG || (hints & MEM_HINT_BYPASS) || sm->l1d_may_bypass))
    ldst_lane_pass(sm, w, t, cmask); /* a segment's size: its 32 B chunks (reduce_and_send) */
  if (cmask != lmask)                /* seg_to_line: each segment's request goes to its line */
    for (uint32_t k = 0; k < u->nreq; k++) u->req[k].line_addr &= lmask;
  ldst_build_request(sm, is_write, cls, hints);          /* t->mask != 0: at least one request */
  if (space == PTX_SP_LOCAL) u->cur.flags = MEM_F_LOCAL; /* an L1 with local_back keeps its store hits */
  u->busy = 1;
  w->in_ldst++;
}

/* Keeps warp slot's memory instruction (trace t) in q until the unit takes it. */
static void ldst_hold(Sm *sm, SmLdstQ *q, const PtxMemTrace *t, uint32_t slot, const PtxInst *in, uint64_t pc,
                      uint8_t kind, uint64_t at) {
  SmWarp *w = &sm->warps[slot];
  if (t != &q->t) q->t = *t; /* (sm_ldst_trace_dest: usually written there already) */
  q->in = in;
  q->pc = pc;
  q->at = at;
  q->slot = slot;
  q->rb = (uint32_t)((w->pw->rf - w->pw->regs) / PTX_WARP_SIZE);
  q->pb = sm->sb_pred_off + (uint32_t)(w->pw->pf - w->pw->preds);
  q->kind = kind;
  w->in_ldst++;
  w->queued_loads += in->op != PTX_OP_st && in->op != PTX_OP_red;
}

/* Queues warp slot's memory instruction (trace t) behind the one the unit holds. */
static void sm_ldst_enqueue(Sm *sm, const PtxMemTrace *t, uint32_t slot, const PtxInst *in, uint64_t pc,
                            uint8_t kind, uint64_t at, uint64_t now) {
  ldst_hold(sm, &sm->lq[(sm->lq_head + sm->lq_n++) % sm->lq_cap], t, slot, in, pc, kind, at);
  sm->lq_in = now;
}

/* A held instruction (q) enters the free unit, from cycle `from` on (or its operands' cycle). */
static void ldst_start(Sm *sm, const SmLdstQ *q, uint64_t from) {
  SmWarp *w = &sm->warps[q->slot];
  w->in_ldst--;
  w->queued_loads -= q->in->op != PTX_OP_st && q->in->op != PTX_OP_red;
  const uint64_t at = q->at > from ? q->at : from;
  sm_ldst_accept(sm, &q->t, q->slot, q->in, q->pc, q->kind, at, q->rb, q->pb); /* (read in place) */
  if (sm->ldst.busy && sm->ldst.free_at < at)
    sm->ldst.free_at = at; /* sends its first request from `at` on */
  sm->issue_dirty = 1;     /* a queue slot freed: warps waiting for the unit may issue */
  sm->busy = 1;
  if (w->exec_done) sm_schedule_release(sm, at, q->slot, NULL, 0); /* lets the writeback stage retire it */
}

/* The queue's oldest instruction enters the free unit. */
static void ldst_dequeue(Sm *sm, uint64_t from) {
  const SmLdstQ *q = &sm->lq[sm->lq_head];
  sm->lq_head = (sm->lq_head + 1) % sm->lq_cap;
  sm->lq_n--;
  ldst_start(sm, q, from);
}

/* ---- the memory collector path (sm.mem_issue = collector) ----
 * GPGPU-Sim 3.2.2: the scheduler issues a memory instruction into the one-slot ID_OC_MEM
 * register; each cycle the operand collector (opndcoll_rfu_t::step, run from ldst_unit::cycle)
 * first moves one ready collector unit, round-robin after the last one moved
 * (dispatch_unit_t::find_ready), into the one-slot OC_EX_MEM register if it is empty
 * (dispatch_ready_cu), then puts ID_OC_MEM's instruction into the first free memory collector
 * unit (allocate_cu), whose register reads start the next cycle; after the unit's cycle,
 * OC_EX_MEM's instruction enters the unit if its dispatch register is empty
 * (shader_core_ctx::execute), and sends its first request the next cycle. */

PtxMemTrace *sm_ldst_trace_dest(Sm *sm, uint64_t now) {
  if (sm->mem_collector) {
    const uint32_t e = (uint32_t)__builtin_ctz(~sm->mc_used); /* sm_ldst_issue's entry */
    return e < SM_MC_UNITS_MAX + 2 ? &sm->mc[e].t : &sm->trace;
  }
  if ((sm->ldst.busy || sm->ldst.free_at > now || sm->lq_n) && sm->lq_n < sm->lq_cap)
    return &sm->lq[(sm->lq_head + sm->lq_n) % sm->lq_cap].t; /* sm_ldst_enqueue's slot */
  return &sm->trace;
}

void sm_ldst_issue(Sm *sm, const PtxMemTrace *t, uint32_t slot, const PtxInst *in, uint32_t pc, uint8_t kind,
                   uint64_t at, uint32_t rb, uint32_t pb, uint64_t now) {
  if (sm->mem_collector) {                                    /* into ID_OC_MEM (warp_ready found it empty) */
    const uint32_t e = (uint32_t)__builtin_ctz(~sm->mc_used); /* at most mc_ncu + 2 in use */
    sm->mc_used |= 1u << e;
    ldst_hold(sm, &sm->mc[e], t, slot, in, pc, kind, now);
    sm->mc_idoc = (uint8_t)e;
    sm->mc_clock = sm->busy = 1; /* a collector unit may take it next cycle */
  } else if (sm->ldst.busy || sm->ldst.free_at > now || sm->lq_n) {
    sm_ldst_enqueue(sm, t, slot, in, pc, kind, at, now); /* waits for the unit (warp_ready found room) */
  } else {
    sm_ldst_accept(sm, t, slot, in, pc, kind, at, rb, pb);
    if (sm->ldst.busy && sm->ldst.free_at < at)
      sm->ldst.free_at = at; /* sends its first request from `at` on */
    sm->lq_in = now;         /* one memory instruction enters per cycle (a one-slot pipeline register) */
  }
}

/* One operand-collector step for the memory path (before the unit's cycle). */
static void mc_step(Sm *sm, uint64_t now) {
  const uint32_t ncu = sm->mc_ncu, all = (1u << ncu) - 1;
  if (sm->mc_ocex == SM_MC_NONE && sm->mc_cu_bm) {
    /* the units holding an entry, rotated so that bit 0 is the one after mc_last (round-robin) */
    const uint32_t from = sm->mc_last + 1u == ncu ? 0 : sm->mc_last + 1u, bm = sm->mc_cu_bm;
    for (uint32_t rot = (bm >> from | bm << (ncu - from)) & all; rot; rot &= rot - 1) {
      uint32_t c = from + (uint32_t)__builtin_ctz(rot);
      if (c >= ncu) c -= ncu;
      const uint32_t e = sm->mc_cu[c];
      if (sm->mc[e].at <= now) {
        sm->mc_ocex = (uint8_t)e;
        sm->mc_cu[c] = SM_MC_NONE;
        sm->mc_cu_bm &= (uint16_t) ~(1u << c);
        sm->mc_last = (uint8_t)c;
        sm->busy = 1;
        break;
      }
    }
  }
  if (sm->mc_idoc != SM_MC_NONE && sm->mc_cu_bm != all) {
    const uint32_t k = (uint32_t)__builtin_ctz(~(uint32_t)sm->mc_cu_bm); /* the first free unit */
    SmLdstQ *q = &sm->mc[sm->mc_idoc];
    q->at = oc_read_regs(sm, q->slot, (uint32_t)q->pc, now);
    sm->mc_cu[k] = sm->mc_idoc;
    sm->mc_cu_bm |= (uint16_t)(1u << k);
    sm->mc_idoc = SM_MC_NONE;
    sm->issue_dirty = 1; /* ID_OC_MEM is free: a memory instruction may issue */
    sm->busy = 1;
  }
}

/* After the unit's cycle: OC_EX_MEM's instruction enters a free unit; then whether a stage
 * moves by the clock alone next cycle (mc_clock: the SM is not quiet). */
static void mc_feed(Sm *sm, uint64_t now) {
  SmLdst *u = &sm->ldst;
  if (sm->mc_ocex != SM_MC_NONE && !u->busy && u->free_at <= now) {
    const uint32_t e = sm->mc_ocex;
    sm->mc_ocex = SM_MC_NONE;
    sm->mc_used &= ~(1u << e);
    ldst_start(sm, &sm->mc[e], now + 1); /* (q is not reused before it has been read) */
  }
  const bool cu_any = sm->mc_cu_bm != 0, cu_free = sm->mc_cu_bm != (1u << sm->mc_ncu) - 1;
  sm->mc_clock = (uint8_t)((sm->mc_ocex == SM_MC_NONE && cu_any) || (sm->mc_idoc != SM_MC_NONE && cu_free) ||
                           (sm->mc_ocex != SM_MC_NONE && !u->busy));
  sm->busy |= sm->mc_clock; /* the engine simulates it next cycle */
}

/* An event about the unit's current line request (its warp, line, PC and lanes; `other`: a hit's
 * allocating warp, else -1). */
static void ldst_event(Sm *sm, SchedEventKind kind, uint8_t fail, uint8_t outcome, int32_t other,
                       uint64_t now) {
  const SmLdst *u = &sm->ldst;
  SchedEvent ev = {.kind = kind,
                   .slot = u->slot,
                   .cycle = now,
                   .cta_slot = sm->views[u->slot].cta_slot,
                   .cta_id = sm->views[u->slot].cta_id,
                   .line_addr = u->cur.line_addr,
                   .pc = (uint32_t)u->cur.pc, /* the policies' PC (ldst_build_request) */
                   .other_slot = other,
                   .lanes = u->req[u->next].lanes,
                   .fail = fail,
                   .outcome = outcome};
  sm_emit(sm, &ev);
}

void sm_ldst_resfail_event(Sm *sm, CacheFailReason why, uint64_t cycle) {
  sm->ldst.cur_failed = 1;
  ldst_event(sm, SCHED_EV_L1_RESFAIL, (uint8_t)why, 0, -1, cycle);
}

int sm_ldst_predict_fail(const Sm *sm) {
  if (!sm->ldst.busy) return -1;
  const Cache *c = sm->ldst.to_l1c ? sm->l1c : sm->l1d;
  CacheFailReason why = cache_predict_fail(c, &sm->ldst.cur); /* reads no issue_cycle */
  return why == CACHE_FAIL_NONE ? -1 : (int)why;
}

static inline void ldst_unit_cycle(Sm *sm, uint64_t now) {
  SmLdst *u = &sm->ldst;
  if (!u->busy) {
    if (sm->lq_n && u->free_at <= now) ldst_dequeue(sm, now);
    return;
  }
  sm->st.ldst_busy_cycles++;
  if (u->free_at > now) return; /* still collecting its operands (operand collector: issue() set free_at) */
  u->cur.issue_cycle = now;
  CacheResult res = cache_access(u->to_l1c ? sm->l1c : sm->l1d, &u->cur, now);
  if (res.outcome == CACHE_RESFAIL) {
    sm->st.ldst_resfail[res.fail]++;
    sm->q.fail = (int8_t)res.fail;
    if ((sm->ev_mask & SCHED_EV_BIT(SCHED_EV_L1_RESFAIL)) && !u->cur_failed && !u->to_l1c)
      sm_ldst_resfail_event(sm, res.fail, now);
    /* only a port conflict clears by itself next cycle; the rest wait on a memory event */
    if (res.fail == CACHE_FAIL_PORT) sm->busy = 1;
    return;
  }
  sm->busy = 1;
  sm->ldst_moved = 1;
  if (u->cur.is_write && u->cur.user) sm->warps[u->slot].stores_out++; /* its ack will come */
  if (__builtin_expect(u->to_l1c, 0)) {
    u->l1c_pending++;         /* every access accepted gets one reply */
  } else if (sm->l1_events) { /* one test on the per-request path while no plugin wants such an event */
    static const uint8_t ev_of[] = {[CACHE_HIT] = SCHED_EV_L1_HIT,
                                    [CACHE_MISS] = SCHED_EV_L1_MISS,
                                    [CACHE_MERGED] = SCHED_EV_L1_MERGE,
                                    [CACHE_BYPASSED] = SCHED_EV_L1_BYPASS};
    SchedEventKind kind = (SchedEventKind)ev_of[res.outcome];
    uint8_t outcome = 0;
    if (u->load < 0 || u->kind == WINST_ATOMIC) { /* a store, or an atomic: on a valid line or not */
      outcome = ev_of[res.outcome];
      kind = u->cur.is_write            ? SCHED_EV_STORE
             : res.outcome == CACHE_HIT ? SCHED_EV_L1_ATOMIC_HIT
                                        : SCHED_EV_L1_ATOMIC;
    }
    const SchedEventMask hit = SCHED_EV_BIT(SCHED_EV_L1_HIT) | SCHED_EV_BIT(SCHED_EV_L1_ATOMIC_HIT);
    if (sm->ev_mask & SCHED_EV_BIT(kind)) {
      const CacheLine *l = hit & SCHED_EV_BIT(kind) ? cache_lookup_line(sm->l1d) : NULL;
      ldst_event(sm, kind, 0, outcome, l ? sm_l1d_line_owner(sm, l) : -1, now);
    }
  }
  (*sm->progress)++;
  if (++u->next == u->nreq) {
    SmWarp *w = &sm->warps[u->slot];
    u->busy = 0;
    w->in_ldst--;
    sm->issue_dirty = 1;
    if (w->exec_done) sm_schedule_release(sm, now, u->slot, NULL, 0); /* lets the writeback stage retire it */
    if (sm->lq_n) ldst_dequeue(sm, now + 1);
  } else {
    ldst_next_request(sm);
  }
}

/* The replies an L1 (the L1D, or the constant cache: `l1c`) has ready at `now`. */
static inline __attribute__((always_inline)) void ldst_take_replies(Sm *sm, Cache *c, const bool l1c,
                                                                    uint64_t now) {
  for (const MemRequest *r; (r = cache_take_reply(c, now)) != NULL;) {
    void *user = r->user; /* all the SM needs of the reply: no copy */
    sm->busy = 1;
    if (l1c) sm->ldst.l1c_pending--;
    if (!user) continue; /* store acknowledgement */
    /* A load's reply names its group's reply counter. A reply before the
     * group's last changes nothing a warp's issue checks read (its scoreboard
     * and pending_loads change with the last): the warp stays as it was
     * found, and only its first host cache line was read. The last one goes
     * through sm_release_rows, which marks it changed (dirty, unskipped,
     * issue_dirty). A free slot's counters are all 0. */
    uint16_t *rem = user;
    if (!*rem || --*rem) continue;
    const uint32_t slot = (uint32_t)(((const char *)rem - (const char *)sm->warps) / sizeof(SmWarp));
    SmWarp *w = &sm->warps[slot];
    if (rem != &w->stores_out) { /* a load group's last reply (else the last store's ack) */
      const uint32_t g = (uint32_t)(rem - w->remaining);
      const SmLoad *ld = &w->loads[g];
      sm_release_rows(sm, slot, ld->rows, ld->nrows);
      w->pending_loads--;
      if (!l1c) { /* the load latency statistic is the global and local loads' */
        sm->st.loads_completed++;
        sm->st.load_latency_sum += now - ld->issue_cycle;
      }
    }
    if (sm_warp_drained(w))
      sm_schedule_release(sm, now, slot, NULL, 0); /* retires via writeback next cycle */
  }
}

void sm_ldst_replies(Sm *sm, uint64_t now) {
  ldst_take_replies(sm, sm->l1d, false, now);
  if (__builtin_expect(sm->ldst.l1c_pending != 0, 0)) ldst_take_replies(sm, sm->l1c, true, now);
}

void sm_ldst_cycle(Sm *sm, uint64_t now) {
  /* An empty collector path has nothing to move and stays empty through the unit's cycle (only
   * an issue fills it); its mc_clock is already 0 (the mc_feed that emptied it said so). */
  if (!sm->mem_collector || !sm->mc_used) {
    ldst_unit_cycle(sm, now);
    return;
  }
  mc_step(sm, now);
  ldst_unit_cycle(sm, now);
  mc_feed(sm, now);
}
