/* operands.c - which registers and predicates an instruction reads and
 * writes. The timing model's scoreboard and the register-pressure estimate
 * (liveness) both use it; the executor does not. */
#include <string.h>

#include "ptx.h"

static void rd(const PtxFunction *f, PtxOperands *o, uint16_t r) {
  if (r < f->nregs && o->nrd < 10) o->rd[o->nrd++] = r;
}
static void wr(const PtxFunction *f, PtxOperands *o, uint16_t r) {
  if (r < f->nregs && o->nwr < 4) o->wr[o->nwr++] = r;
}
static void prd(PtxOperands *o, uint16_t p) {
  if (p < 0xFFF0u && o->nprd < 3) o->prd[o->nprd++] = p;
}
static void pwr(PtxOperands *o, uint16_t p) {
  if (p < 0xFFF0u && o->npwr < 2) o->pwr[o->npwr++] = p;
}

void ptx_inst_operands(const PtxFunction *f, const PtxInst *in, PtxOperands *o) {
  memset(o, 0, sizeof *o);
  if (in->guard >= 0) prd(o, (uint16_t)in->guard);
  if (in->addr != PTX_NO_REG) rd(f, o, in->addr);
  switch (in->op) {
  case PTX_OP_ld:
  case PTX_OP_ldu:
    for (int k = 0; k < in->vec; k++)
      if (in->d[k] != PTX_NO_REG) wr(f, o, in->d[k]);
    return;
  case PTX_OP_st:
    for (int k = 0; k < in->vec; k++) rd(f, o, in->s[k]);
    return;
  case PTX_OP_atom:
  case PTX_OP_red:
    for (int k = 0; k < in->nsrc; k++) rd(f, o, in->s[k]);
    if (in->op == PTX_OP_atom && in->d[0] != PTX_NO_REG) wr(f, o, in->d[0]);
    return;
  case PTX_OP_setp:
    rd(f, o, in->s[0]);
    rd(f, o, in->s[1]);
    if (in->mod2) prd(o, in->s[2]);
    pwr(o, in->d[0]);
    if (in->flags & PTX_F_DUAL) pwr(o, in->d[1]);
    return;
  case PTX_OP_selp:
    rd(f, o, in->s[0]);
    rd(f, o, in->s[1]);
    prd(o, in->s[2]);
    wr(f, o, in->d[0]);
    return;
  case PTX_OP_testp:
  case PTX_OP_isspacep:
    rd(f, o, in->s[0]);
    pwr(o, in->d[0]);
    return;
  case PTX_OP_bra:
  case PTX_OP_call:
  case PTX_OP_ret:
  case PTX_OP_exit:
  case PTX_OP_trap:
  case PTX_OP_membar:
  case PTX_OP_fence:
  case PTX_OP_nanosleep:
  case PTX_OP_prefetch:
    return;
  case PTX_OP_bar:
  case PTX_OP_barrier:
    rd(f, o, in->s[0]);
    if (in->s[1] != PTX_NO_REG) rd(f, o, in->s[1]);
    if (in->mod >= PTX_BAR_RED_POPC) {
      prd(o, in->s[2]);
      if (in->flags & PTX_F_DUAL)
        pwr(o, in->d[0]);
      else
        wr(f, o, in->d[0]);
    }
    return;
  case PTX_OP_vote:
    rd(f, o, in->s[0]);
    prd(o, in->s[2]);
    if (in->mod == PTX_VOTE_BALLOT)
      wr(f, o, in->d[0]);
    else
      pwr(o, in->d[0]);
    return;
  case PTX_OP_shfl:
    for (int k = 0; k < 4; k++) rd(f, o, in->s[k]);
    wr(f, o, in->d[0]);
    if (in->flags & PTX_F_DUAL) pwr(o, in->d[1]);
    return;
  case PTX_OP_match:
    rd(f, o, in->s[0]);
    rd(f, o, in->s[1]);
    wr(f, o, in->d[0]);
    if (in->flags & PTX_F_DUAL) pwr(o, in->d[1]);
    return;
  case PTX_OP_activemask:
    wr(f, o, in->d[0]);
    return;
  case PTX_OP_mov:
    if (in->type == PTX_T_PRED) {
      prd(o, in->s[0]);
      pwr(o, in->d[0]);
      return;
    }
    if (in->flags & PTX_F_UNPACK) {
      rd(f, o, in->s[0]);
      for (int k = 0; k < in->ndst; k++)
        if (in->d[k] != PTX_NO_REG) wr(f, o, in->d[k]);
      return;
    }
    if (in->flags & PTX_F_PACK)
      for (int k = 0; k < in->nsrc; k++) rd(f, o, in->s[k]);
    else if (!(in->flags & (PTX_F_SREG | PTX_F_SYMADDR)))
      rd(f, o, in->s[0]);
    wr(f, o, in->d[0]);
    return;
  case PTX_OP_cvta:
    if (!(in->flags & PTX_F_SYMADDR)) rd(f, o, in->s[0]);
    wr(f, o, in->d[0]);
    return;
  default:
    if (in->type == PTX_T_PRED) { /* and/or/xor/not/cnot on predicates */
      for (int k = 0; k < in->nsrc; k++) prd(o, in->s[k]);
      pwr(o, in->d[0]);
      return;
    }
    for (int k = 0; k < in->nsrc; k++) rd(f, o, in->s[k]);
    wr(f, o, in->d[0]);
    return;
  }
}
