/* layout.c - finishes a parsed module: resolves calls, lays out each kernel's
 * register file, local frames and static shared memory, and computes every
 * branch's reconvergence point (immediate post-dominator; PTX has no hints). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

static uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

/* ---- reconvergence: post-dominators on basic blocks ---- */
static int is_uncond_exit(const PtxInst *in) {
  return (in->op == PTX_OP_ret || in->op == PTX_OP_exit || in->op == PTX_OP_trap) && in->guard < 0;
}

/* Why: the SIMT stack reconverges divergent lanes at the immediate
 * post-dominator of the branch; a virtual exit node makes `ret` inside loops
 * and divergent code reconverge correctly (at the function's exit). */
int ptx_compute_reconvergence(PtxModule *m, uint32_t fi, char *err, size_t errlen) {
  PtxFunction *f = &m->funcs[fi];
  uint32_t n = f->npc, base = f->first_pc;
  if (!n) return 0;
  int rc = -1;
  uint8_t *leader = calloc(n + 1, 1);
  uint32_t *block_of = malloc(sizeof(uint32_t) * n);
  uint32_t *bstart = NULL, *succ = NULL, *nsucc = NULL, *po = NULL, *order = NULL, *ipdom = NULL;
  uint32_t *rstart = NULL, *redges = NULL, *stack = NULL, *sidx = NULL;
  if (!leader || !block_of) goto out;
  leader[0] = 1;
  for (uint32_t i = 0; i < n; i++) {
    const PtxInst *in = &m->code[base + i];
    if (in->op == PTX_OP_bra) {
      leader[in->target - base] = 1;
      leader[i + 1] = 1;
    } else if (in->op == PTX_OP_ret || in->op == PTX_OP_exit || in->op == PTX_OP_trap)
      leader[i + 1] = 1;
  }
  uint32_t nb = 0;
  for (uint32_t i = 0; i < n; i++) nb += leader[i];
  bstart = malloc(sizeof(uint32_t) * (nb + 1));
  succ = malloc(sizeof(uint32_t) * 2 * (nb + 1));
  nsucc = calloc(nb + 1, sizeof(uint32_t));
  if (!bstart || !succ || !nsucc) goto out;
  for (uint32_t i = 0, b = 0; i < n; i++) {
    if (leader[i]) bstart[b++] = i;
    block_of[i] = b - 1;
  }
  bstart[nb] = n;
  const uint32_t EXITB = nb;
  for (uint32_t b = 0; b < nb; b++) {
    uint32_t last = bstart[b + 1] - 1;
    const PtxInst *in = &m->code[base + last];
    uint32_t *s = &succ[2 * b];
    if (in->op == PTX_OP_bra) {
      s[nsucc[b]++] = block_of[in->target - base];
      if (in->guard >= 0) s[nsucc[b]++] = last + 1 < n ? block_of[last + 1] : EXITB;
    } else if (is_uncond_exit(in)) {
      s[nsucc[b]++] = EXITB;
    } else if (in->op == PTX_OP_ret || in->op == PTX_OP_exit || in->op == PTX_OP_trap) {
      s[nsucc[b]++] = EXITB;
      s[nsucc[b]++] = last + 1 < n ? block_of[last + 1] : EXITB;
    } else {
      s[nsucc[b]++] = last + 1 < n ? block_of[last + 1] : EXITB;
    }
  }
  /* reverse graph: edges from a node to its CFG predecessors */
  rstart = calloc(nb + 2, sizeof(uint32_t));
  redges = malloc(sizeof(uint32_t) * 2 * (nb + 1));
  if (!rstart || !redges) goto out;
  for (uint32_t b = 0; b < nb; b++)
    for (uint32_t k = 0; k < nsucc[b]; k++) rstart[succ[2 * b + k] + 1]++;
  for (uint32_t v = 0; v <= nb; v++) rstart[v + 1] += rstart[v];
  {
    uint32_t *fill = calloc(nb + 1, sizeof(uint32_t));
    if (!fill) goto out;
    for (uint32_t b = 0; b < nb; b++)
      for (uint32_t k = 0; k < nsucc[b]; k++) {
        uint32_t v = succ[2 * b + k];
        redges[rstart[v] + fill[v]++] = b;
      }
    free(fill);
  }
  /* postorder DFS from EXIT over reverse edges */
  po = malloc(sizeof(uint32_t) * (nb + 1));
  order = malloc(sizeof(uint32_t) * (nb + 1));
  stack = malloc(sizeof(uint32_t) * (nb + 1));
  sidx = calloc(nb + 1, sizeof(uint32_t));
  ipdom = malloc(sizeof(uint32_t) * (nb + 1));
  if (!po || !order || !stack || !sidx || !ipdom) goto out;
  for (uint32_t v = 0; v <= nb; v++) {
    po[v] = UINT32_MAX;
    ipdom[v] = UINT32_MAX;
  }
  uint32_t sp = 0, cnt = 0;
  uint8_t *seen = calloc(nb + 1, 1);
  if (!seen) goto out;
  stack[sp++] = EXITB;
  seen[EXITB] = 1;
  while (sp) {
    uint32_t v = stack[sp - 1];
    if (sidx[v] < rstart[v + 1] - rstart[v]) {
      uint32_t w = redges[rstart[v] + sidx[v]++];
      if (!seen[w]) {
        seen[w] = 1;
        stack[sp++] = w;
      }
    } else {
      po[v] = cnt;
      order[cnt++] = v;
      sp--;
    }
  }
  free(seen);
  ipdom[EXITB] = EXITB;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int32_t i = (int32_t)cnt - 2; i >= 0; i--) { /* reverse postorder, skipping the root */
      uint32_t v = order[i], nid = UINT32_MAX;
      for (uint32_t k = 0; k < nsucc[v]; k++) {
        uint32_t p = succ[2 * v + k];
        if (ipdom[p] == UINT32_MAX) continue;
        if (nid == UINT32_MAX) {
          nid = p;
          continue;
        }
        uint32_t a = p, b = nid;
        while (a != b) {
          while (po[a] < po[b]) a = ipdom[a];
          while (po[b] < po[a]) b = ipdom[b];
        }
        nid = a;
      }
      if (nid != UINT32_MAX && ipdom[v] != nid) {
        ipdom[v] = nid;
        changed = 1;
      }
    }
  }
  for (uint32_t b = 0; b < nb; b++) {
    PtxInst *in = &m->code[base + bstart[b + 1] - 1];
    if (in->op != PTX_OP_bra && in->op != PTX_OP_ret && in->op != PTX_OP_exit) continue;
    uint32_t d = ipdom[b];
    in->rpc = (d == UINT32_MAX || d == EXITB) ? PTX_EXIT_PC : base + bstart[d];
  }
  rc = 0;
out:
  if (rc) snprintf(err, errlen, "%s: out of memory computing reconvergence of '%s'", m->name, f->name);
  free(leader);
  free(block_of);
  free(bstart);
  free(succ);
  free(nsucc);
  free(po);
  free(order);
  free(ipdom);
  free(rstart);
  free(redges);
  free(stack);
  free(sidx);
  return rc;
}

/* ---- kernels: reachable functions, register layout, frames ---- */
/* Depth-first over the call graph from kernel fi; every function reached is appended
 * to reached[] (state 2), so the caller resets only those. */
static int visit(ParseCtx *c, uint32_t fi, uint8_t *state, uint32_t *max_local, uint32_t *depth,
                 uint32_t *reached, uint32_t *nreached) {
  PtxModule *m = c->m;
  PtxFunction *f = &m->funcs[fi];
  if (state[fi] == 2) return 0;
  state[fi] = 1;
  uint32_t deepest = 0, ddepth = 0;
  for (uint32_t pc = f->first_pc; pc < f->first_pc + f->npc; pc++) {
    if (m->code[pc].op != PTX_OP_call || (m->code[pc].flags & PTX_F_BUILTIN)) continue;
    uint32_t cf = m->code[pc].target;
    if (state[cf] == 1) { /* located at the call that closes the cycle */
      Tok at = {.line = m->code[pc].line, .col = 1};
      return ptx_perr(c, &at, "recursive call of '%s' from '%s' is not supported", m->funcs[cf].name,
                      f->name);
    }
    if (visit(c, cf, state, max_local, depth, reached, nreached)) return -1;
    if (max_local[cf] > deepest) deepest = max_local[cf];
    if (depth[cf] > ddepth) ddepth = depth[cf];
  }
  max_local[fi] = f->local_bytes + deepest;
  depth[fi] = 1 + ddepth;
  state[fi] = 2;
  reached[(*nreached)++] = fi;
  return 0;
}

uint32_t ptx_max_live_regs(const PtxModule *m, uint32_t fi);
static int kernel_zero_runs(const PtxModule *m, uint32_t ki);

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Per kernel: the functions it reaches (in index order) get register-file rows. Work and
 * memory are proportional to what each kernel reaches, not to the module's size. */
static int layout_kernels(ParseCtx *c) {
  PtxModule *m = c->m;
  uint32_t nf = m->nfuncs;
  uint8_t *state = calloc(nf + 1, 1);
  uint32_t *max_local = calloc(nf + 1, sizeof(uint32_t)), *depth = calloc(nf + 1, sizeof(uint32_t));
  uint32_t *reached = calloc(nf + 1, sizeof(uint32_t));
  if (!state || !max_local || !depth || !reached) {
    free(state);
    free(max_local);
    free(depth);
    free(reached);
    return ptx_perr(c, NULL, "out of memory");
  }
  int rc = 0;
  for (uint32_t k = 0; k < nf && !rc; k++) {
    PtxFunction *f = &m->funcs[k];
    if (!f->is_entry || !f->defined) continue;
    uint32_t nr = 0;
    if (visit(c, k, state, max_local, depth, reached, &nr)) {
      rc = -1;
      break;
    }
    qsort(reached, nr, sizeof *reached, cmp_u32);
    f->rf_lo = reached[0];
    f->rf_n = reached[nr - 1] - reached[0] + 1;
    f->rf_base = malloc(sizeof(uint32_t) * f->rf_n);
    f->pf_base = malloc(sizeof(uint32_t) * f->rf_n);
    if (!f->rf_base || !f->pf_base) {
      rc = ptx_perr(c, NULL, "out of memory");
      break;
    }
    for (uint32_t i = 0; i < f->rf_n; i++) f->rf_base[i] = f->pf_base[i] = UINT32_MAX;
    uint32_t rows = 0, prows = 0, regs = 0;
    for (uint32_t i = 0; i < nr; i++) {
      uint32_t g = reached[i];
      f->rf_base[g - f->rf_lo] = rows;
      f->pf_base[g - f->rf_lo] = prows;
      rows += m->funcs[g].nregs + m->funcs[g].nimm;
      prows += m->funcs[g].npreds;
      uint32_t r = ptx_max_live_regs(m, g);
      if (r > regs) regs = r;
      state[g] = 0;
    }
    f->rf_rows = rows;
    f->pf_rows = prows;
    f->regs_per_thread = (regs + 1) & ~1u;
    f->max_local = max_local[k];
    f->max_depth = depth[k];
    if (kernel_zero_runs(m, k)) rc = ptx_perr(c, NULL, "out of memory");
  }
  free(state);
  free(max_local);
  free(depth);
  free(reached);
  return rc;
}

/* Why: kernels of one module each use their own __shared__ variables; giving
 * every kernel the whole module's shared footprint would distort occupancy.
 * Variables used by one kernel are laid out after the common ones, privately. */
static int layout_shared(ParseCtx *c) {
  PtxModule *m = c->m;
  uint32_t nf = m->nfuncs, ns = m->nsyms;
  int32_t *owner = malloc(sizeof(int32_t) * (ns + 1)); /* -1 unused, -2 several, else kernel */
  uint32_t *priv = calloc(nf + 1, sizeof(uint32_t));
  if (!owner || !priv) {
    free(owner);
    free(priv);
    return ptx_perr(c, NULL, "out of memory");
  }
  for (uint32_t s = 0; s < ns; s++) owner[s] = -1;
  for (uint32_t i = 0; i < m->nfixes; i++) {
    PtxSymFix *fx = &m->fixes[i];
    if (m->syms[fx->sym].space != PTX_SP_SHARED) continue;
    for (uint32_t k = 0; k < nf; k++) {
      PtxFunction *kf = &m->funcs[k];
      if (!kf->is_entry || !kf->rf_base || ptx_rf_base(kf, fx->func) == UINT32_MAX) continue;
      if (owner[fx->sym] == -1)
        owner[fx->sym] = (int32_t)k;
      else if (owner[fx->sym] != (int32_t)k)
        owner[fx->sym] = -2;
    }
  }
  uint32_t common = 0;
  for (uint32_t s = 0; s < ns; s++) {
    PtxSymbol *sy = &m->syms[s];
    if (sy->space != PTX_SP_SHARED || sy->is_extern_shared || owner[s] != -2) continue;
    common = align_up(common, sy->align);
    sy->addr = common;
    common += (uint32_t)sy->size;
  }
  for (uint32_t k = 0; k < nf; k++) priv[k] = common;
  for (uint32_t s = 0; s < ns; s++) {
    PtxSymbol *sy = &m->syms[s];
    if (sy->space != PTX_SP_SHARED || sy->is_extern_shared || owner[s] < 0) continue;
    uint32_t k = (uint32_t)owner[s];
    priv[k] = align_up(priv[k], sy->align);
    sy->addr = priv[k];
    priv[k] += (uint32_t)sy->size;
  }
  for (uint32_t k = 0; k < nf; k++)
    if (m->funcs[k].is_entry) m->funcs[k].static_shared = priv[k];
  /* dynamic shared: after the largest static footprint of its users */
  for (uint32_t s = 0; s < ns; s++) {
    PtxSymbol *sy = &m->syms[s];
    if (sy->space != PTX_SP_SHARED || !sy->is_extern_shared) continue;
    uint32_t off = 0;
    for (uint32_t k = 0; k < nf; k++)
      if (m->funcs[k].is_entry && m->funcs[k].static_shared > off) off = m->funcs[k].static_shared;
    sy->addr = align_up(off, sy->align > 16 ? sy->align : 16);
  }
  for (uint32_t k = 0; k < nf; k++)
    if (m->funcs[k].is_entry) m->funcs[k].dyn_shared_off = align_up(m->funcs[k].static_shared, 16);
  for (uint32_t s = 0; s < ns; s++) {
    PtxSymbol *sy = &m->syms[s];
    if (sy->space == PTX_SP_SHARED && sy->is_extern_shared)
      for (uint32_t k = 0; k < nf; k++)
        if (m->funcs[k].is_entry && sy->addr > m->funcs[k].dyn_shared_off)
          m->funcs[k].dyn_shared_off = (uint32_t)sy->addr;
  }
  /* patch shared uses now; global/const at bind time */
  for (uint32_t i = 0; i < m->nfixes; i++) {
    PtxSymFix *fx = &m->fixes[i];
    PtxSymbol *sy = &m->syms[fx->sym];
    if (sy->space != PTX_SP_SHARED) continue;
    if (fx->imm_row >= 0)
      m->funcs[fx->func].imm[fx->imm_row] += sy->addr;
    else
      m->code[fx->pc].off += (int64_t)sy->addr;
  }
  free(owner);
  free(priv);
  return 0;
}

int ptx_layout_module(ParseCtx *c) {
  PtxModule *m = c->m;
  for (uint32_t i = 0; i < c->ncfix; i++) {
    CallFix *cf = &c->cfix[i];
    Tok t = {.line = cf->line, .col = cf->col};
    int32_t fi = ctx_lookup_func(c, cf->name, cf->len);
    if (fi < 0) return ptx_perr(c, &t, "call to undeclared function '%.*s'", (int)cf->len, cf->name);
    PtxFunction *f = &m->funcs[fi];
    if (f->is_entry) return ptx_perr(c, &t, "call to kernel '%s'", f->name);
    PtxInst *in = &m->code[cf->pc];
    PtxCallSite *cs = &m->calls[in->off];
    if (!f->defined &&
        strcmp(f->name, "vprintf") == 0) { /* device printf: the executor formats it (printf.c) */
      if (cs->nargs != 2 || cs->arg_size[0] != 8 || cs->arg_size[1] != 8)
        return ptx_perr(
            c, &t, "call to vprintf with %u arguments (it takes a format and an argument buffer, 64-bit)",
            cs->nargs);
      in->target = (uint32_t)fi;
      in->flags |= PTX_F_BUILTIN;
      continue;
    }
    if (!f->defined)
      return ptx_perr(
          c, &t,
          "call to '%s', which has no body here (external functions are not supported, except vprintf)",
          f->name);
    if (cs->nargs != f->nparams)
      return ptx_perr(c, &t, "call to '%s' passes %u arguments, it takes %u", f->name, cs->nargs, f->nparams);
    if ((cs->ret_off >= 0) != (f->ret.size > 0))
      return ptx_perr(c, &t, "call to '%s': return value mismatch", f->name);
    in->target = (uint32_t)fi;
  }
  for (uint32_t k = 0; k < m->nfuncs; k++)
    if (m->funcs[k].defined && ptx_compute_reconvergence(m, k, c->err, c->errlen)) {
      c->failed = 1;
      return -1;
    }
  if (layout_kernels(c)) return -1;
  return layout_shared(c);
}

/* ---- register pressure ----
 * Why: nvcc's PTX names virtual registers SSA-style (hundreds per kernel), so
 * counting declarations overstates what ptxas allocates several times over
 * and would wrongly cap occupancy. The maximum number of simultaneously live
 * 32-bit register units (64-bit registers count twice), found by liveness
 * analysis, is close to ptxas's count; PTX_REG_OVERHEAD covers the few
 * registers ptxas adds (addresses, loop temporaries). */
#define PTX_REG_OVERHEAD 4

static uint32_t weight_of(const PtxFunction *f, const uint64_t *set, uint32_t words) {
  uint32_t w = 0;
  for (uint32_t k = 0; k < words; k++)
    for (uint64_t b = set[k]; b; b &= b - 1) {
      uint32_t r = k * 64 + (uint32_t)__builtin_ctzll(b);
      w += f->reg_bytes[r] > 4 ? 2 : 1;
    }
  return w;
}

/* Live-in set of instruction i into `out` from its successors' live-in sets; returns its operands in *o. */
static void live_step(const PtxModule *m, const PtxFunction *f, uint32_t i, const uint64_t *in, uint64_t *out,
                      uint32_t words, PtxOperands *o) {
  uint32_t n = f->npc;
  const PtxInst *x = &m->code[f->first_pc + i];
  ptx_inst_operands(f, x, o);
  memset(out, 0, words * sizeof(uint64_t));
  int fall = !((x->op == PTX_OP_ret || x->op == PTX_OP_exit || x->op == PTX_OP_trap || x->op == PTX_OP_bra) &&
               x->guard < 0);
  if (fall && i + 1 < n)
    for (uint32_t k = 0; k < words; k++) out[k] |= in[(size_t)(i + 1) * words + k];
  if (x->op == PTX_OP_bra) {
    uint32_t t = x->target - f->first_pc;
    for (uint32_t k = 0; k < words; k++) out[k] |= in[(size_t)t * words + k];
  }
  for (uint32_t k = 0; k < o->nwr; k++) out[o->wr[k] / 64] &= ~(1ull << (o->wr[k] % 64));
  for (uint32_t k = 0; k < o->nrd; k++) out[o->rd[k] / 64] |= 1ull << (o->rd[k] % 64);
}

uint32_t ptx_max_live_regs(const PtxModule *m, uint32_t fi) {
  const PtxFunction *f = &m->funcs[fi];
  uint32_t n = f->npc, words = (f->nregs + 63) / 64, best = 0;
  if (!n || !words) return PTX_REG_OVERHEAD;
  uint64_t *in = calloc((size_t)n * words, sizeof(uint64_t)), *out = calloc(words, sizeof(uint64_t));
  if (!in || !out) {
    free(in);
    free(out);
    return 63;
  }
  PtxOperands o;
  for (int changed = 1, iter = 0; changed && iter < 1000; iter++) {
    changed = 0;
    for (uint32_t i = n; i-- > 0;) {
      live_step(m, f, i, in, out, words, &o);
      uint64_t *li = &in[(size_t)i * words];
      if (memcmp(li, out, words * sizeof(uint64_t))) {
        memcpy(li, out, words * sizeof(uint64_t));
        changed = 1;
      }
    }
  }
  for (uint32_t i = 0; i < n; i++) { /* pressure at i: its live-in plus what it defines */
    live_step(m, f, i, in, out, words, &o);
    for (uint32_t k = 0; k < o.nwr; k++) out[o.wr[k] / 64] |= 1ull << (o.wr[k] % 64);
    uint32_t w = weight_of(f, out, words);
    if (w > best) best = w;
  }
  free(in);
  free(out);
  return best + PTX_REG_OVERHEAD;
}

/* ---- the registers a new CTA zeroes ----
 * Why: a CTA's register block is rows x 32 lanes x 8 bytes per warp (bfs: 475 KB a CTA), and
 * zeroing all of it was most of creating a CTA. PTX leaves an unwritten register undefined; warpsim
 * reads it as 0 so that runs are deterministic, and only a register that some thread may read
 * before writing it can show that 0. Each lane follows its own thread's path through the code, so
 * these are the kernel's registers live at its entry, with a guarded write not counted as a write,
 * and those a cross-lane instruction reads (shfl reads lanes that need not have run; match).
 * A called function's rows are zeroed whole: a second call sees what the first left, as before. */

/* Live-in set of instruction i (a guarded write kills nothing) from its successors' sets. */
static void maybe_read_step(const PtxModule *m, const PtxFunction *f, uint32_t i, const uint64_t *in,
                            uint64_t *out, uint32_t words) {
  const PtxInst *x = &m->code[f->first_pc + i];
  PtxOperands o;
  ptx_inst_operands(f, x, &o);
  memset(out, 0, words * sizeof(uint64_t));
  int fall = !((x->op == PTX_OP_ret || x->op == PTX_OP_exit || x->op == PTX_OP_trap || x->op == PTX_OP_bra) &&
               x->guard < 0);
  if (fall && i + 1 < f->npc)
    for (uint32_t k = 0; k < words; k++) out[k] |= in[(size_t)(i + 1) * words + k];
  if (x->op == PTX_OP_bra && x->target - f->first_pc < f->npc)
    for (uint32_t k = 0; k < words; k++) out[k] |= in[(size_t)(x->target - f->first_pc) * words + k];
  if (x->guard < 0)
    for (uint32_t k = 0; k < o.nwr; k++) out[o.wr[k] / 64] &= ~(1ull << (o.wr[k] % 64));
  for (uint32_t k = 0; k < o.nrd; k++) out[o.rd[k] / 64] |= 1ull << (o.rd[k] % 64);
}

/* Marks in zero[] (one byte per register row of f) the rows a CTA must zero. -1: out of memory. */
static int entry_maybe_read(const PtxModule *m, const PtxFunction *f, uint8_t *zero) {
  uint32_t n = f->npc, words = (f->nregs + 63) / 64;
  if (!n || !words) return 0;
  uint64_t *in = calloc((size_t)n * words, sizeof(uint64_t)), *out = calloc(words, sizeof(uint64_t));
  if (!in || !out) {
    free(in);
    free(out);
    return -1;
  }
  for (int changed = 1; changed;) { /* the sets only grow: this ends */
    changed = 0;
    for (uint32_t i = n; i-- > 0;) {
      maybe_read_step(m, f, i, in, out, words);
      uint64_t *li = &in[(size_t)i * words];
      if (memcmp(li, out, words * sizeof(uint64_t))) {
        memcpy(li, out, words * sizeof(uint64_t));
        changed = 1;
      }
    }
  }
  for (uint32_t r = 0; r < f->nregs; r++) zero[r] |= (uint8_t)(in[r / 64] >> (r % 64) & 1);
  for (uint32_t i = 0; i < n; i++) {
    const PtxInst *x = &m->code[f->first_pc + i];
    if (x->op != PTX_OP_shfl && x->op != PTX_OP_match) continue;
    PtxOperands o;
    ptx_inst_operands(f, x, &o);
    for (uint32_t k = 0; k < o.nrd; k++) zero[o.rd[k]] = 1;
  }
  free(in);
  free(out);
  return 0;
}

/* Kernel ki's zero_runs: (first row, rows) pairs over its register block. -1: out of memory. */
static int kernel_zero_runs(const PtxModule *m, uint32_t ki) {
  PtxFunction *k = &m->funcs[ki];
  uint8_t *zero = calloc(k->rf_rows + 1, 1);
  if (!zero) return -1;
  for (uint32_t g = k->rf_lo; g < k->rf_lo + k->rf_n; g++) {
    const uint32_t base = ptx_rf_base(k, g);
    if (base == UINT32_MAX) continue;
    if (g != ki)
      memset(zero + base, 1, m->funcs[g].nregs);
    else if (entry_maybe_read(m, k, zero + base)) {
      free(zero);
      return -1;
    }
  }
  uint32_t runs = 0;
  for (uint32_t r = 0; r < k->rf_rows; r++) runs += zero[r] && (r == 0 || !zero[r - 1]);
  k->zero_runs = malloc(sizeof(uint32_t) * (2 * runs + 1));
  if (!k->zero_runs) {
    free(zero);
    return -1;
  }
  k->nzero_runs = 0;
  for (uint32_t r = 0; r < k->rf_rows; r++) {
    if (!zero[r]) continue;
    if (r && zero[r - 1]) {
      k->zero_runs[2 * k->nzero_runs - 1]++;
      continue;
    }
    k->zero_runs[2 * k->nzero_runs] = r;
    k->zero_runs[2 * k->nzero_runs + 1] = 1;
    k->nzero_runs++;
  }
  free(zero);
  return 0;
}
