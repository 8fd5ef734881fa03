/* loadcfg.c - see loadcfg.h. */
#include "analysis/loadcfg.h"

#include <stdlib.h>
#include <string.h>

static int is_global_load(const PtxInst *in) {
  return (in->op == PTX_OP_ld || in->op == PTX_OP_ldu) && in->space == PTX_SP_GLOBAL;
}

/* The parameter (index in fn->params) that register r's value derives from as a pointer
 * base: -1 none, -2 several. seen: per register, the walk's marks. */
static int32_t base_param(const PtxModule *m, const PtxFunction *fn, uint32_t r, uint8_t *seen, int depth) {
  if (r >= fn->nregs || seen[r] || depth > 64) return -1;
  seen[r] = 1;
  int32_t found = -1;
  for (uint32_t pc = fn->first_pc; pc < fn->first_pc + fn->npc; pc++) {
    const PtxInst *in = &m->code[pc];
    PtxOperands o;
    ptx_inst_operands(fn, in, &o);
    int defines = 0;
    for (uint32_t d = 0; d < o.nwr; d++) defines |= o.wr[d] == r;
    if (!defines) continue;
    int32_t p = -1;
    if (in->op == PTX_OP_ld && in->space == PTX_SP_PARAM) {
      for (uint32_t k = 0; k < fn->nparams; k++)
        if (fn->params[k].offset == (uint32_t)in->off && in->addr == PTX_NO_REG) p = (int32_t)k;
    } else if (in->op == PTX_OP_mov || in->op == PTX_OP_cvta || in->op == PTX_OP_add ||
               in->op == PTX_OP_sub) {
      for (uint32_t s = 0; s < o.nrd; s++) {
        int32_t q = base_param(m, fn, o.rd[s], seen, depth + 1);
        if (q == -2 || (q >= 0 && p >= 0 && q != p)) return -2;
        if (q >= 0) p = q;
      }
    }
    if (p == -2 || (p >= 0 && found >= 0 && p != found)) return -2;
    if (p >= 0) found = p;
  }
  return found;
}

static uint32_t uf_find(uint32_t *par, uint32_t x) {
  while (par[x] != x) x = par[x] = par[par[x]];
  return x;
}

int lcfg_build(const PtxModule *m, uint32_t func, LcfgKernel *out) {
  memset(out, 0, sizeof *out);
  const PtxFunction *fn = &m->funcs[func];
  out->name = fn->name;
  out->func = func;
  const uint32_t n = fn->npc, base = fn->first_pc;
  uint8_t *header = calloc(n + 1, 1), *seen = calloc(fn->nregs + 1, 1), *reach = calloc(n + 1, 1);
  uint32_t *stack = malloc((n + 1) * sizeof *stack), *par = NULL;
  int rc = -1;
  if (!header || !seen || !reach || !stack) goto done;
  for (uint32_t i = 0; i < n; i++) {
    const PtxInst *in = &m->code[base + i];
    if (in->op == PTX_OP_bra && in->target >= base && in->target <= base + i) header[in->target - base] = 1;
    out->nloads += (uint32_t)is_global_load(in);
  }
  out->loads = calloc(out->nloads + 1, sizeof *out->loads);
  par = malloc((out->nloads + 1) * sizeof *par);
  out->group_size = calloc(out->nloads + 1, sizeof *out->group_size);
  if (!out->loads || !par || !out->group_size) goto done;
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    const PtxInst *in = &m->code[base + i];
    if (!is_global_load(in)) continue;
    memset(seen, 0, fn->nregs + 1);
    int32_t a = in->addr == PTX_NO_REG ? -1 : base_param(m, fn, in->addr, seen, 0);
    out->loads[k].pc = i;
    out->loads[k].array = a >= 0 ? a : -1;
    par[k] = k;
    k++;
  }
  for (uint32_t a = 0; a < out->nloads; a++) {
    if (out->loads[a].array < 0) continue;
    /* every instruction reachable from load a without crossing a loop header or a barrier */
    memset(reach, 0, n + 1);
    uint32_t sp = 0;
    stack[sp++] = out->loads[a].pc;
    while (sp) {
      const uint32_t pc = stack[--sp];
      const PtxInst *in = &m->code[base + pc];
      uint32_t succ[2], ns = 0;
      if (in->op == PTX_OP_exit || in->op == PTX_OP_ret) {
        if (in->guard >= 0) succ[ns++] = pc + 1;
      } else if (in->op == PTX_OP_bra) {
        if (in->target > base + pc && in->target < base + n) succ[ns++] = in->target - base;
        if (in->guard >= 0) succ[ns++] = pc + 1;
      } else {
        succ[ns++] = pc + 1;
      }
      for (uint32_t s = 0; s < ns; s++) {
        const uint32_t t = succ[s];
        if (t >= n || reach[t] || header[t] || m->code[base + t].cls == PTX_CLS_BAR) continue;
        reach[t] = 1;
        stack[sp++] = t;
      }
    }
    for (uint32_t b = a + 1; b < out->nloads; b++)
      if (out->loads[b].array == out->loads[a].array && reach[out->loads[b].pc]) {
        uint32_t ra = uf_find(par, a), rb = uf_find(par, b);
        if (ra != rb) par[rb > ra ? rb : ra] = rb > ra ? ra : rb;
      }
  }
  /* groups numbered in order of their first load */
  uint32_t *num = stack; /* reused: n + 1 >= nloads entries */
  for (uint32_t a = 0; a < out->nloads; a++) num[a] = UINT32_MAX;
  for (uint32_t a = 0; a < out->nloads; a++) {
    const uint32_t r = uf_find(par, a);
    if (num[r] == UINT32_MAX) num[r] = out->ngroups++;
    out->loads[a].group = num[r];
    out->group_size[num[r]]++;
  }
  rc = 0;
done:
  free(header), free(seen), free(reach), free(stack), free(par);
  if (rc) lcfg_free(out);
  return rc;
}

void lcfg_free(LcfgKernel *k) {
  free(k->loads), free(k->group_size);
  k->loads = NULL, k->group_size = NULL;
  k->nloads = k->ngroups = 0;
}

const char *lcfg_array_name(const PtxModule *m, const LcfgKernel *k, int32_t a) {
  const PtxFunction *fn = &m->funcs[k->func];
  return a >= 0 && (uint32_t)a < fn->nparams ? fn->params[a].name : "?";
}
