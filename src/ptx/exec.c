/* exec.c - the per-warp step of the functional core: SIMT reconvergence
 * stack, control flow (bra, call, ret, exit), CTA barriers, warp-collective
 * operations, CTA state creation and fault reporting.
 * Invariant: the top SIMT entry's (pc, mask) is the warp's next instruction
 * and active lanes; an entry is popped when its pc reaches its reconvergence
 * pc, when its mask empties, or when it reaches a function's exit. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "exec_int.h"

static const PtxExecFn exec_table[PTX_OP_COUNT] = {
#define OP(name, fn, cls) fn,
#include "opcodes.def"
#undef OP
};

void ptx_set_fault(PtxWarp *w, PtxFaultKind kind, uint32_t lane, const char *fmt, ...) {
  if (w->fault.kind != PTX_FAULT_NONE) return;
  w->fault.kind = kind;
  w->fault.lane = lane;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->fault.msg, sizeof w->fault.msg, fmt, ap);
  va_end(ap);
}

static const PtxModule *mod_of(const PtxWarp *w) { return w->cta->launch->mod; }

static int push(PtxWarp *w, PtxSimtEntry e) {
  if (w->sp == w->stack_cap) {
    uint32_t nc = w->stack_cap * 2;
    if (nc > 4096) {
      ptx_set_fault(w, PTX_FAULT_STACK, 0, "SIMT stack overflow (more than 4096 nested divergent regions)");
      return -1;
    }
    PtxSimtEntry *ns = realloc(w->stack, sizeof(PtxSimtEntry) * nc);
    if (!ns) {
      ptx_set_fault(w, PTX_FAULT_STACK, 0, "out of memory growing the SIMT stack");
      return -1;
    }
    w->stack = ns;
    w->stack_cap = nc;
  }
  w->stack[w->sp++] = e;
  return 0;
}

static void enter_function(PtxWarp *w, uint32_t fi, uint32_t frame_base) {
  const PtxFunction *k = w->cta->launch->fn;
  w->cur_func = fi;
  w->frame_base = frame_base;
  w->rf = w->regs + (size_t)ptx_rf_base(k, fi) * PTX_WARP_SIZE;
  w->pf = w->preds + ptx_pf_base(k, fi);
}

/* Pops the top entry; a call entry returns to its caller, copying the return value. */
static void pop(PtxWarp *w) {
  PtxSimtEntry e = w->stack[--w->sp];
  if (!e.call) return;
  const PtxModule *m = mod_of(w);
  const PtxFunction *callee = &m->funcs[w->cur_func];
  const PtxCallSite *cs = &m->calls[e.site];
  if (cs->ret_off >= 0 && e.mask) {
    FOR_LANES(e.mask, l) {
      uint8_t *base = w->local + (size_t)l * w->local_stride;
      memcpy(base + e.frame_base + (uint32_t)cs->ret_off, base + w->frame_base + callee->ret.offset,
             cs->ret_size);
    }
  }
  enter_function(w, e.caller_func, e.frame_base);
}

HANDLER(exec_nop) {
  (void)w;
  (void)in;
  (void)active;
}

HANDLER(exec_trap) {
  ptx_set_fault(w, PTX_FAULT_TRAP, active ? (uint32_t)__builtin_ctz(active) : 0, "trap instruction executed");
}

HANDLER(exec_bra) {
  PtxSimtEntry *top = &w->stack[w->sp - 1];
  uint32_t mask = top->mask, taken = active, nt = mask & ~taken, pc = top->pc - 1;
  if (!nt) {
    top->pc = in->target;
    return;
  }
  if (!taken) return;
  uint32_t rpc = in->rpc;
  top->pc = rpc;
  if (push(w, (PtxSimtEntry){pc + 1, rpc, nt, 0, 0, 0, 0})) return;
  push(w, (PtxSimtEntry){in->target, rpc, taken, 0, 0, 0, 0});
}

static void exit_lanes(PtxWarp *w, uint32_t lanes) {
  w->exited |= lanes;
  for (uint32_t i = 0; i < w->sp; i++) w->stack[i].mask &= ~lanes;
}

HANDLER(exec_exit) { exit_lanes(w, active); }

HANDLER(exec_ret) {
  const PtxModule *m = mod_of(w);
  if (m->funcs[w->cur_func].is_entry) {
    exit_lanes(w, active);
    return;
  }
  PtxSimtEntry *top = &w->stack[w->sp - 1];
  uint32_t rest = top->mask & ~active;
  if (!active) return;
  if (!rest) {
    top->pc = PTX_EXIT_PC;
    return;
  }
  uint32_t pc = top->pc; /* already advanced */
  top->pc = PTX_EXIT_PC;
  push(w, (PtxSimtEntry){pc, PTX_EXIT_PC, rest, 0, 0, 0, 0});
}

HANDLER(exec_call) {
  const PtxModule *m = mod_of(w);
  const PtxFunction *caller = &m->funcs[w->cur_func], *callee = &m->funcs[in->target];
  const PtxCallSite *cs = &m->calls[in->off];
  if (!active) return;
  if (in->flags & PTX_F_BUILTIN) {
    exec_vprintf(w, in, active);
    return;
  }
  uint32_t nb = w->frame_base + caller->local_bytes;
  if (nb + callee->local_bytes > w->local_stride) {
    ptx_set_fault(w, PTX_FAULT_STACK, 0, "call stack overflow");
    return;
  }
  FOR_LANES(active, l) {
    uint8_t *base = w->local + (size_t)l * w->local_stride;
    for (uint32_t i = 0; i < cs->nargs; i++)
      memcpy(base + nb + callee->params[i].offset, base + w->frame_base + cs->arg_off[i], cs->arg_size[i]);
  }
  if (push(w, (PtxSimtEntry){callee->first_pc, PTX_EXIT_PC, active, 1, (uint32_t)in->off, w->cur_func,
                             w->frame_base}))
    return;
  enter_function(w, in->target, nb);
}

/* ---- barriers ---- */
static uint32_t bar_needed_warps(const PtxCta *c, const PtxBarrier *b) {
  if (b->expected) return (b->expected + PTX_WARP_SIZE - 1) / PTX_WARP_SIZE;
  return c->live_warps;
}

static void bar_release(PtxCta *c, uint32_t id) {
  PtxBarrier *b = &c->bars[id];
  for (uint32_t i = 0; i < c->nwarps; i++) {
    PtxWarp *w = &c->warps[i];
    if (w->state != PTX_WARP_BARRIER || w->bar_id != id) continue;
    w->state = PTX_WARP_READY;
    c->waiting_warps--;
    if (b->red_op && w->bar_dst != PTX_NO_REG) {
      if (b->red_op == PTX_BAR_RED_POPC) {
        uint64_t *D = REG(w, w->bar_dst);
        FOR_LANES(w->bar_mask, l) D[l] = b->red_popc;
      } else {
        uint32_t v = b->red_op == PTX_BAR_RED_AND ? (b->red_and ? ~0u : 0) : (b->red_or ? ~0u : 0);
        w->pf[w->bar_dst] = (w->pf[w->bar_dst] & ~w->bar_mask) | (v & w->bar_mask);
      }
    }
  }
  *b = (PtxBarrier){0};
  b->red_and = 1;
}

int ptx_cta_recheck_barriers(PtxCta *c) {
  int released = 0;
  for (uint32_t id = 0; id < PTX_MAX_BARRIERS; id++) {
    PtxBarrier *b = &c->bars[id];
    if (b->arrived && b->arrived >= bar_needed_warps(c, b)) {
      bar_release(c, id);
      released = 1;
    }
  }
  return released;
}

HANDLER(exec_bar) {
  PtxCta *c = w->cta;
  uint32_t lane =
      active ? (uint32_t)__builtin_ctz(active) : (uint32_t)__builtin_ctz(w->stack[w->sp - 1].mask);
  uint64_t id = REG(w, in->s[0])[lane];
  uint32_t count = in->s[1] != PTX_NO_REG ? (uint32_t)REG(w, in->s[1])[lane] : 0;
  if (id >= PTX_MAX_BARRIERS) {
    ptx_set_fault(w, PTX_FAULT_BARRIER, lane, "barrier id %llu out of range (0-15)", (unsigned long long)id);
    return;
  }
  if (count && count % PTX_WARP_SIZE) {
    ptx_set_fault(w, PTX_FAULT_BARRIER, lane, "barrier %llu thread count %u is not a multiple of 32",
                  (unsigned long long)id, count);
    return;
  }
  if (count > c->nwarps * PTX_WARP_SIZE) {
    ptx_set_fault(w, PTX_FAULT_BARRIER, lane, "barrier %llu waits for %u threads but the CTA has only %u",
                  (unsigned long long)id, count, c->nthreads);
    return;
  }
  PtxBarrier *b = &c->bars[id];
  if (!b->arrived) {
    b->red_and = 1;
    b->red_popc = 0;
    b->red_or = 0;
    b->expected = count;
  } else if (b->expected != count) {
    ptx_set_fault(w, PTX_FAULT_BARRIER, lane, "barrier %llu used with different thread counts (%u and %u)",
                  (unsigned long long)id, b->expected, count);
    return;
  }
  b->arrived++;
  if (in->mod >= PTX_BAR_RED_POPC) {
    uint32_t p = pred_val(w, in->s[2]);
    if (in->flags & PTX_F_NEG_C) p = ~p;
    b->red_op = in->mod;
    b->red_popc += lane_count(p & active);
    if ((p & active) != active) b->red_and = 0;
    if (p & active) b->red_or = 1;
    w->bar_dst = in->d[0];
    w->bar_mask = active;
  } else {
    w->bar_dst = PTX_NO_REG;
  }
  if (in->mod != PTX_BAR_ARRIVE) {
    w->state = PTX_WARP_BARRIER;
    w->bar_id = (uint8_t)id;
    c->waiting_warps++;
  }
  if (b->arrived >= bar_needed_warps(c, b)) bar_release(c, (uint32_t)id);
}

/* ---- warp-collective operations ---- */
HANDLER(exec_warp) {
  switch (in->op) {
  case PTX_OP_activemask: {
    uint64_t *D = REG(w, in->d[0]);
    FOR_LANES(active, l) D[l] = active;
    return;
  }
  case PTX_OP_vote: {
    uint32_t p = pred_val(w, in->s[2]);
    if (in->flags & PTX_F_NEG_C) p = ~p;
    uint32_t members = active & (uint32_t)REG(w, in->s[0])[active ? __builtin_ctz(active) : 0];
    uint32_t ballot = p & members;
    if (in->mod == PTX_VOTE_BALLOT) {
      uint64_t *D = REG(w, in->d[0]);
      FOR_LANES(active, l) D[l] = ballot;
      return;
    }
    uint32_t r;
    if (in->mod == PTX_VOTE_ANY)
      r = ballot ? ~0u : 0;
    else if (in->mod == PTX_VOTE_ALL)
      r = ballot == members ? ~0u : 0;
    else
      r = (ballot == members || ballot == 0) ? ~0u : 0;
    w->pf[in->d[0]] = (w->pf[in->d[0]] & ~active) | (r & active);
    return;
  }
  case PTX_OP_match: {
    const uint64_t *A = REG(w, in->s[0]);
    uint64_t *D = REG(w, in->d[0]);
    int bytes = ptx_type_bytes((PtxType)in->type);
    uint32_t all_same = 1, first = active ? (uint32_t)__builtin_ctz(active) : 0;
    uint64_t tmp[PTX_WARP_SIZE];
    FOR_LANES(active, l) {
      uint32_t m = 0;
      FOR_LANES(active, k) if (mask_bytes(A[k], bytes) == mask_bytes(A[l], bytes)) m |= 1u << k;
      tmp[l] = m;
      if (mask_bytes(A[l], bytes) != mask_bytes(A[first], bytes)) all_same = 0;
    }
    FOR_LANES(active, l) D[l] = in->mod == PTX_MATCH_ANY ? tmp[l] : (all_same ? active : 0);
    if (in->mod == PTX_MATCH_ALL && (in->flags & PTX_F_DUAL) && in->d[1] != PTX_NO_REG)
      w->pf[in->d[1]] = (w->pf[in->d[1]] & ~active) | ((all_same ? ~0u : 0) & active);
    return;
  }
  case PTX_OP_shfl: {
    const uint64_t *A = REG(w, in->s[0]), *B = REG(w, in->s[1]), *C = REG(w, in->s[2]);
    uint64_t *D = REG(w, in->d[0]);
    uint64_t src[PTX_WARP_SIZE];
    uint32_t pv = 0;
    for (int l = 0; l < PTX_WARP_SIZE; l++) src[l] = A[l];
    FOR_LANES(active, l) {
      uint32_t b = (uint32_t)B[l] & 0x1F, cv = (uint32_t)C[l];
      uint32_t segmask = (cv >> 8) & 0x1F, clamp = cv & 0x1F;
      uint32_t maxl = (l & segmask) | (clamp & ~segmask), minl = l & segmask;
      int32_t j;
      int ok;
      switch (in->mod) {
      case PTX_SHFL_UP:
        j = (int32_t)l - (int32_t)b;
        ok = j >= (int32_t)maxl;
        break;
      case PTX_SHFL_DOWN:
        j = (int32_t)(l + b);
        ok = j <= (int32_t)maxl;
        break;
      case PTX_SHFL_BFLY:
        j = (int32_t)(l ^ b);
        ok = j <= (int32_t)maxl;
        break;
      default:
        j = (int32_t)(minl | (b & ~segmask));
        ok = j <= (int32_t)maxl;
        break;
      }
      if (!ok) j = (int32_t)l;
      D[l] = (uint32_t)src[j];
      pv |= (uint32_t)ok << l;
    }
    if ((in->flags & PTX_F_DUAL) && in->d[1] != PTX_NO_REG)
      w->pf[in->d[1]] = (w->pf[in->d[1]] & ~active) | (pv & active);
    return;
  }
  default:
    return;
  }
}

/* ---- CTA creation ---- */
PtxCta *ptx_cta_create(PtxLaunch *L, uint32_t linear_id, uint32_t smid) {
  const PtxFunction *k = L->fn;
  const PtxModule *m = L->mod;
  PtxCta *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->launch = L;
  c->linear_id = linear_id;
  c->smid = smid;
  c->ctaid[0] = linear_id % L->grid[0];
  c->ctaid[1] = (linear_id / L->grid[0]) % L->grid[1];
  c->ctaid[2] = linear_id / (L->grid[0] * L->grid[1]);
  c->nthreads = L->threads_per_cta;
  c->nwarps = L->warps_per_cta;
  c->live_warps = c->nwarps;
  c->shared_bytes = L->shared_per_cta;
  for (int i = 0; i < PTX_MAX_BARRIERS; i++) c->bars[i].red_and = 1;
  c->shared = calloc(1, c->shared_bytes ? c->shared_bytes : 1);
  c->warps = calloc(c->nwarps, sizeof(PtxWarp));
  size_t rows = (size_t)k->rf_rows * PTX_WARP_SIZE;
  uint32_t stride = (k->max_local + 15) & ~15u;
  /* only the rows some thread may read before writing are zeroed (layout.c: zero_runs) */
  uint64_t *regs = k->zero_runs ? malloc(((size_t)c->nwarps * rows + 1) * sizeof(uint64_t))
                                : calloc((size_t)c->nwarps * rows + 1, sizeof(uint64_t));
  uint32_t *preds = calloc((size_t)c->nwarps * k->pf_rows + 1, sizeof(uint32_t));
  uint8_t *local = stride ? calloc((size_t)c->nwarps * PTX_WARP_SIZE, stride) : NULL;
  if (!c->shared || !c->warps || !regs || !preds || (stride && !local)) {
    free(regs);
    free(preds);
    free(local);
    ptx_cta_destroy(c);
    return NULL;
  }
  for (uint32_t i = 0; i < c->nwarps; i++) {
    PtxWarp *w = &c->warps[i];
    w->cta = c;
    w->regs = regs + i * rows;
    for (uint32_t z = 0; k->zero_runs && z < k->nzero_runs; z++)
      memset(w->regs + (size_t)k->zero_runs[2 * z] * PTX_WARP_SIZE, 0,
             (size_t)k->zero_runs[2 * z + 1] * PTX_WARP_SIZE * sizeof(uint64_t));
    w->preds = preds + (size_t)i * k->pf_rows;
    w->local = local ? local + (size_t)i * PTX_WARP_SIZE * stride : NULL;
    w->local_stride = stride;
    w->warp_in_cta = i;
    w->tid_base = i * PTX_WARP_SIZE;
    uint32_t nt = c->nthreads - w->tid_base;
    w->valid = nt >= 32 ? 0xFFFFFFFFu : ((1u << nt) - 1);
    w->stack_cap = 8;
    w->stack = malloc(sizeof(PtxSimtEntry) * w->stack_cap);
    if (!w->stack) {
      ptx_cta_destroy(c);
      return NULL;
    }
    w->sp = 1;
    w->stack[0] = (PtxSimtEntry){k->first_pc, PTX_EXIT_PC, w->valid, 0, 0, 0, 0};
    w->bar_dst = PTX_NO_REG;
    for (uint32_t g = k->rf_lo; g < k->rf_lo + k->rf_n; g++) {
      if (ptx_rf_base(k, g) == UINT32_MAX) continue;
      const PtxFunction *f = &m->funcs[g];
      for (uint32_t r = 0; r < f->nimm; r++) {
        uint64_t *row = w->regs + (size_t)(ptx_rf_base(k, g) + f->nregs + r) * PTX_WARP_SIZE;
        for (int l = 0; l < PTX_WARP_SIZE; l++) row[l] = f->imm[r];
      }
    }
    enter_function(w, (uint32_t)(k - m->funcs), 0);
  }
  return c;
}

void ptx_cta_destroy(PtxCta *c) {
  if (!c) return;
  if (c->warps) {
    free(c->warps[0].regs);
    free(c->warps[0].preds);
    free(c->warps[0].local);
    for (uint32_t i = 0; i < c->nwarps; i++) free(c->warps[i].stack);
  }
  free(c->warps);
  free(c->shared);
  free(c);
}

/* ---- the step ---- */
static inline __attribute__((always_inline)) PtxStepResult step(PtxWarp *w) {
  PtxSimtEntry *top = &w->stack[w->sp - 1];
  const PtxInst *in = &w->cta->launch->mod->code[top->pc];
  uint32_t mask = top->mask, active = mask;
  if (in->guard >= 0) {
    uint32_t p = w->pf[in->guard];
    active &= in->guard_neg ? ~p : p;
  }
  w->insts++;
  w->thread_insts += mask == 0xFFFFFFFFu ? PTX_WARP_SIZE : (uint64_t)lane_count(mask); /* full: no count */
  top->pc++;
  exec_table[in->op](w, in, active);
  if (__builtin_expect(w->fault.kind != PTX_FAULT_NONE, 0)) {
    w->fault.pc = (uint32_t)(in - w->cta->launch->mod->code);
    w->state = PTX_WARP_FAULT;
    return PTX_STEP_FAULT;
  }
  while (w->sp) {
    PtxSimtEntry *t = &w->stack[w->sp - 1];
    if (t->mask && t->pc != t->rpc && t->pc != PTX_EXIT_PC) break;
    pop(w);
  }
  if (!w->sp) {
    /* One barrier semantics for both engines, so functional and timing runs agree: an exited
     * warp counts as arrived at every barrier of its CTA, so a bar.sync without a thread count
     * waits for the warps that have not exited. The count is kept here, not by each engine;
     * the engine then calls ptx_cta_recheck_barriers(), since barriers waiting on this warp
     * may now release. */
    w->state = PTX_WARP_DONE;
    w->cta->live_warps--;
    return PTX_STEP_DONE;
  }
  if (in->cls == PTX_CLS_BAR) return w->state == PTX_WARP_BARRIER ? PTX_STEP_BARRIER : PTX_STEP_RELEASED;
  return PTX_STEP_OK;
}

/* A step of an observed launch: a memory instruction records its accesses (into the engine's
 * trace when it keeps one, else into a local one); after the step (the warp's SIMT stack popped,
 * its exit counted) the observer sees the instruction. A faulting instruction is not reported. */
static PtxStepResult observed_step(PtxWarp *w) {
  const PtxLaunch *L = w->cta->launch;
  const PtxSimtEntry *top = &w->stack[w->sp - 1];
  const uint32_t pc = top->pc;
  const PtxInst *in = &L->mod->code[pc];
  uint32_t active = top->mask;
  if (in->guard >= 0) active &= in->guard_neg ? ~w->pf[in->guard] : w->pf[in->guard];
  PtxMemTrace local, *saved = w->trace, *t = NULL;
  if (in->cls == PTX_CLS_MEM) {
    t = saved ? saved : &local;
    t->mask = 0;
    w->trace = t;
  }
  PtxStepResult r = step(w);
  w->trace = saved;
  if (r != PTX_STEP_FAULT) L->observe(L->observe_ctx, w, pc, active, t);
  return r;
}

PtxStepResult ptx_warp_step(PtxWarp *w) {
  if (__builtin_expect(w->cta->launch->observe != NULL, 0)) return observed_step(w);
  return step(w);
}

void ptx_inst_describe(const PtxModule *m, uint32_t pc, char *buf, size_t len) {
  if (pc >= m->ncode) {
    snprintf(buf, len, "%s: pc %u", m->name, pc);
    return;
  }
  const PtxInst *in = &m->code[pc];
  int mem = in->cls == PTX_CLS_MEM && in->space != PTX_SP_GENERIC;
  snprintf(buf, len, "%s:%u: %s%s%s%s%s", m->name, in->line, ptx_op_names[in->op], mem ? "." : "",
           mem ? ptx_space_name((PtxSpace)in->space) : "", in->type ? "." : "",
           in->type ? ptx_type_name((PtxType)in->type) : "");
}

void ptx_fault_describe(const PtxWarp *w, char *buf, size_t len) {
  const PtxCta *c = w->cta;
  const PtxLaunch *L = c->launch;
  uint32_t tid = w->tid_base + w->fault.lane;
  char where[256];
  ptx_inst_describe(L->mod, w->fault.pc, where, sizeof where);
  snprintf(buf, len, "kernel %s: CTA (%u,%u,%u) thread (%u,%u,%u) warp %u lane %u, pc %u (%s): %s",
           L->fn->name, c->ctaid[0], c->ctaid[1], c->ctaid[2], tid % L->block[0],
           (tid / L->block[0]) % L->block[1], tid / (L->block[0] * L->block[1]), w->warp_in_cta,
           w->fault.lane, w->fault.pc - L->fn->first_pc, where, w->fault.msg);
}

size_t ptx_cta_describe_running(const PtxCta *c, char *buf, size_t len, uint32_t *budget) {
  size_t n = 0;
  if (len) buf[0] = 0; /* terminated even when no warp is described */
  const PtxLaunch *L = c->launch;
#define PUT(...)                                                                                             \
  do {                                                                                                       \
    if (n < len) n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);                                       \
  } while (0)
  for (uint32_t i = 0; i < c->nwarps && *budget; i++) {
    const PtxWarp *w = &c->warps[i];
    if (w->state == PTX_WARP_DONE || !w->sp) continue;
    (*budget)--;
    char where[256];
    const PtxSimtEntry *t = &w->stack[w->sp - 1];
    ptx_inst_describe(L->mod, t->pc, where, sizeof where);
    PUT(" CTA (%u,%u,%u) warp %u at pc %u (%s), lanes 0x%08x active", c->ctaid[0], c->ctaid[1], c->ctaid[2],
        i, t->pc - L->fn->first_pc, where, t->mask);
    if (w->state == PTX_WARP_BARRIER) PUT(", waiting at barrier %u", w->bar_id);
    uint32_t waiting = w->valid & ~w->exited & ~t->mask;
    if (w->sp >= 2 && waiting && t->rpc != PTX_EXIT_PC && !t->call) {
      ptx_inst_describe(L->mod, t->rpc, where, sizeof where);
      PUT("; lanes 0x%08x wait at the reconvergence point pc %u (%s) for lanes 0x%08x, which loop: a spin "
          "lock "
          "between lanes of one warp never ends here (the SIMT stack runs one path at a time until it "
          "reconverges; "
          "there is no independent thread scheduling)",
          waiting, t->rpc - L->fn->first_pc, where, t->mask);
    }
    PUT(";");
  }
#undef PUT
  return n < len ? n : (len ? len - 1 : 0);
}

size_t ptx_cta_describe(const PtxCta *c, char *buf, size_t len) {
  size_t n = 0;
#define PUT(...)                                                                                             \
  do {                                                                                                       \
    if (n < len) n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);                                       \
  } while (0)
  PUT(" CTA (%u,%u,%u):", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
  for (uint32_t id = 0; id < PTX_MAX_BARRIERS; id++) {
    const PtxBarrier *b = &c->bars[id];
    if (!b->arrived) continue;
    PUT(" barrier %u has %u of %u warps (warps", id, b->arrived,
        b->expected ? (b->expected + 31) / 32 : c->live_warps);
    for (uint32_t i = 0; i < c->nwarps; i++)
      if (c->warps[i].state == PTX_WARP_BARRIER && c->warps[i].bar_id == id) PUT(" %u", i);
    PUT(" wait);");
  }
  uint32_t done = 0;
  for (uint32_t i = 0; i < c->nwarps; i++) done += c->warps[i].state == PTX_WARP_DONE;
  PUT(" %u of %u warps exited;", done, c->nwarps);
#undef PUT
  return n < len ? n : len - 1;
}
