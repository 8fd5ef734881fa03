/* decode.c - decodes one PTX instruction statement (opcode with modifiers and
 * operands) into a PtxInst: resolved register rows, immediates as rows,
 * symbol addresses as fixups. Any form we do not execute exactly is an error
 * naming file:line:column, never a silently wrong instruction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

const char *const ptx_op_names[PTX_OP_COUNT] = {
#define OP(name, fn, cls) #name,
#include "opcodes.def"
#undef OP
};
const uint8_t ptx_op_class[PTX_OP_COUNT] = {
#define OP(name, fn, cls) PTX_CLS_##cls,
#include "opcodes.def"
#undef OP
};

typedef enum { O_REG, O_PRED, O_IMM, O_SREG, O_SYM, O_ADDR, O_VEC, O_SINK } OpndKind;

typedef struct Opnd {
  OpndKind kind;
  Tok *tok;
  uint32_t row; /* O_REG/O_PRED */
  int neg;      /* !pred */
  int immk;     /* TK_INT, TK_F32, TK_F64, TK_FLOAT */
  uint64_t ival;
  double fval;
  int sreg;
  int32_t sym; /* O_SYM, O_ADDR with symbol base */
  int has_reg; /* O_ADDR register base */
  int64_t off;
  uint32_t nvec;
  uint32_t vrow[4];
  int dual; /* a|b */
  uint32_t row2;
  int row2_pred;
} Opnd;

#define MAX_OPNDS 8

static const struct {
  const char *n;
  int v;
} sregs[] = {{"%tid.x", PTX_SREG_TID_X},
             {"%tid.y", PTX_SREG_TID_Y},
             {"%tid.z", PTX_SREG_TID_Z},
             {"%ntid.x", PTX_SREG_NTID_X},
             {"%ntid.y", PTX_SREG_NTID_Y},
             {"%ntid.z", PTX_SREG_NTID_Z},
             {"%ctaid.x", PTX_SREG_CTAID_X},
             {"%ctaid.y", PTX_SREG_CTAID_Y},
             {"%ctaid.z", PTX_SREG_CTAID_Z},
             {"%nctaid.x", PTX_SREG_NCTAID_X},
             {"%nctaid.y", PTX_SREG_NCTAID_Y},
             {"%nctaid.z", PTX_SREG_NCTAID_Z},
             {"%laneid", PTX_SREG_LANEID},
             {"%warpid", PTX_SREG_WARPID},
             {"%nwarpid", PTX_SREG_NWARPID},
             {"%smid", PTX_SREG_SMID},
             {"%nsmid", PTX_SREG_NSMID},
             {"%clock", PTX_SREG_CLOCK},
             {"%clock64", PTX_SREG_CLOCK64},
             {"%lanemask_eq", PTX_SREG_LANEMASK_EQ},
             {"%lanemask_lt", PTX_SREG_LANEMASK_LT},
             {"%lanemask_le", PTX_SREG_LANEMASK_LE},
             {"%lanemask_gt", PTX_SREG_LANEMASK_GT},
             {"%lanemask_ge", PTX_SREG_LANEMASK_GE},
             {"%gridid", PTX_SREG_GRIDID},
             {"%globaltimer", PTX_SREG_GLOBALTIMER},
             {"%total_smem_size", PTX_SREG_TOTAL_SMEM},
             {"%dynamic_smem_size", PTX_SREG_DYN_SMEM}};

static int parse_ident_operand(ParseCtx *c, Tok *t, Opnd *o) {
  uint32_t row;
  int is_pred;
  o->tok = t;
  if (t->len == 1 && t->p[0] == '_') {
    o->kind = O_SINK;
    return 0;
  }
  if (!ctx_lookup_reg(c, t->p, t->len, &row, &is_pred)) {
    o->kind = is_pred ? O_PRED : O_REG;
    o->row = row;
    return 0;
  }
  if (t->p[0] == '%') {
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
      if (tok_is(t, sregs[i].n)) {
        o->kind = O_SREG;
        o->sreg = sregs[i].v;
        return 0;
      }
    return ptx_perr(c, t, "undeclared register '%.*s'", (int)t->len, t->p);
  }
  o->kind = O_SYM;
  o->sym = ctx_lookup_sym(c, t->p, t->len); /* -1: label or function name */
  return 0;
}

static int parse_operand(ParseCtx *c, Opnd *o) {
  memset(o, 0, sizeof *o);
  o->sym = -1;
  Tok *t = &c->toks[c->pos];
  o->tok = t;
  if (tok_punct(t, '[')) {
    c->pos++;
    o->kind = O_ADDR;
    Tok *b = &c->toks[c->pos];
    if (b->kind == TK_INT) {
      o->off = (int64_t)b->ival;
      c->pos++;
    } else if (b->kind == TK_IDENT) {
      Opnd base;
      c->pos++;
      if (parse_ident_operand(c, b, &base)) return -1;
      if (base.kind == O_REG) {
        o->has_reg = 1;
        o->row = base.row;
      } else if (base.kind == O_SYM && base.sym >= 0)
        o->sym = base.sym;
      else
        return ptx_perr(c, b, "bad address base '%.*s'", (int)b->len, b->p);
      Tok *pm = &c->toks[c->pos];
      if (tok_punct(pm, '+') || tok_punct(pm, '-')) {
        int neg = tok_punct(pm, '-');
        c->pos++;
        if (tok_punct(&c->toks[c->pos], '-')) {
          neg = !neg;
          c->pos++;
        }
        Tok *n = &c->toks[c->pos];
        if (n->kind != TK_INT) return ptx_perr(c, n, "expected an address offset");
        o->off = (int64_t)(neg ? (uint64_t)0 - n->ival : n->ival);
        c->pos++;
      }
    } else
      return ptx_perr(c, b, "expected an address");
    Tok *e = &c->toks[c->pos];
    if (!tok_punct(e, ']')) return ptx_perr(c, e, "expected ']'");
    c->pos++;
    return 0;
  }
  if (tok_punct(t, '{')) {
    c->pos++;
    o->kind = O_VEC;
    for (;;) {
      Tok *r = &c->toks[c->pos];
      Opnd e;
      if (r->kind != TK_IDENT) return ptx_perr(c, r, "expected a register in vector operand");
      c->pos++;
      if (parse_ident_operand(c, r, &e)) return -1;
      if (e.kind != O_REG && e.kind != O_SINK) return ptx_perr(c, r, "expected a register in vector operand");
      if (o->nvec == 4) return ptx_perr(c, r, "vector operand has more than 4 elements");
      o->vrow[o->nvec++] = e.kind == O_SINK ? PTX_NO_REG : e.row;
      if (tok_punct(&c->toks[c->pos], ',')) {
        c->pos++;
        continue;
      }
      if (!tok_punct(&c->toks[c->pos], '}'))
        return ptx_perr(c, &c->toks[c->pos], "expected '}' after vector operand");
      c->pos++;
      return 0;
    }
  }
  if (tok_punct(t, '!')) {
    c->pos++;
    Tok *r = &c->toks[c->pos];
    c->pos++;
    if (r->kind != TK_IDENT || parse_ident_operand(c, r, o) || o->kind != O_PRED)
      return ptx_perr(c, r, "expected a predicate after '!'");
    o->neg = 1;
    return 0;
  }
  int neg = 0;
  if (tok_punct(t, '-')) {
    neg = 1;
    c->pos++;
    t = &c->toks[c->pos];
  }
  if (t->kind == TK_INT || t->kind == TK_F32 || t->kind == TK_F64 || t->kind == TK_FLOAT) {
    c->pos++;
    o->kind = O_IMM;
    o->immk = t->kind;
    o->ival = t->ival;
    o->fval = t->fval;
    if (neg) {
      if (t->kind == TK_INT)
        o->ival = (uint64_t)0 - t->ival;
      else if (t->kind == TK_F32)
        o->ival ^= 0x80000000u;
      else if (t->kind == TK_F64)
        o->ival ^= 0x8000000000000000ull;
      else
        o->fval = -o->fval;
    }
    return 0;
  }
  if (neg) return ptx_perr(c, t, "expected a number after '-'");
  if (t->kind != TK_IDENT)
    return ptx_perr(c, t, "expected an operand, found '%.*s'", (int)(t->len ? t->len : 3),
                    t->len ? t->p : "EOF");
  c->pos++;
  if (parse_ident_operand(c, t, o)) return -1;
  if (tok_punct(&c->toks[c->pos], '|')) {
    c->pos++;
    Tok *r = &c->toks[c->pos];
    Opnd e;
    c->pos++;
    if (r->kind != TK_IDENT || parse_ident_operand(c, r, &e) ||
        (e.kind != O_PRED && e.kind != O_REG && e.kind != O_SINK))
      return ptx_perr(c, r, "expected a register after '|'");
    o->dual = 1;
    o->row2 = e.kind == O_SINK ? PTX_NO_REG : e.row;
    o->row2_pred = e.kind == O_PRED;
  }
  return 0;
}

/* Immediate bits for an operand of type ty. */
static uint64_t imm_bits(const Opnd *o, PtxType ty) {
  double d;
  if (ty == PTX_T_F32 || ty == PTX_T_F64) {
    if (o->immk == TK_F32 && ty == PTX_T_F32) return o->ival;
    if (o->immk == TK_F64 && ty == PTX_T_F64) return o->ival;
    if (o->immk == TK_F32) {
      uint32_t u = (uint32_t)o->ival;
      float f;
      memcpy(&f, &u, 4);
      d = f;
    } else if (o->immk == TK_F64)
      memcpy(&d, &o->ival, 8);
    else if (o->immk == TK_FLOAT)
      d = o->fval;
    else
      d = (double)(int64_t)o->ival;
    if (ty == PTX_T_F32) {
      float f = (float)d;
      uint32_t u;
      memcpy(&u, &f, 4);
      return u;
    }
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
  }
  if (o->immk == TK_FLOAT) return (uint64_t)(int64_t)o->fval;
  return o->ival;
}

/* A value source: register row or immediate row. */
static int src_row(ParseCtx *c, Opnd *o, PtxType ty, uint16_t *out) {
  if (o->kind == O_REG) {
    *out = (uint16_t)o->row;
    return 0;
  }
  if (o->kind == O_IMM) {
    int32_t r = ctx_imm_row(c, imm_bits(o, ty));
    if (r < 0) return ptx_perr(c, o->tok, "too many immediates");
    *out = (uint16_t)r;
    return 0;
  }
  if (o->kind == O_PRED)
    return ptx_perr(c, o->tok, "predicate '%.*s' used as a value operand", (int)o->tok->len, o->tok->p);
  if (o->kind == O_SREG) return ptx_perr(c, o->tok, "special register allowed only in mov/cvt");
  return ptx_perr(c, o->tok, "expected a register or immediate, found '%.*s'", (int)o->tok->len, o->tok->p);
}

static int dst_row(ParseCtx *c, Opnd *o, uint16_t *out) {
  if (o->kind == O_SINK) {
    *out = PTX_NO_REG;
    return 0;
  }
  if (o->kind != O_REG)
    return ptx_perr(c, o->tok, "expected a destination register, found '%.*s'", (int)o->tok->len, o->tok->p);
  *out = (uint16_t)o->row;
  return 0;
}

static int pred_src(ParseCtx *c, Opnd *o, uint16_t *out, int *neg) {
  if (o->kind == O_IMM && o->immk == TK_INT && (o->ival <= 1 || o->ival == UINT64_MAX)) {
    /* constant predicate: encode as PTX_NO_REG-1 (false) / PTX_NO_REG-2 (true); nvcc writes
     * true as -1 too (`mov.pred %p, -1;` for a || (b && c)) */
    *out = (uint16_t)(o->ival ? 0xFFFD : 0xFFFE);
    *neg = 0;
    return 0;
  }
  if (o->kind != O_PRED)
    return ptx_perr(c, o->tok, "expected a predicate, found '%.*s'", (int)o->tok->len, o->tok->p);
  *out = (uint16_t)o->row;
  *neg = o->neg;
  return 0;
}

/* ---- operand shapes ---- */
static int need(ParseCtx *c, Tok *t, int n, int lo, int hi) {
  if (n < lo || n > hi) {
    if (lo == hi) return ptx_perr(c, t, "%.*s expects %d operands, found %d", (int)t->len, t->p, lo, n);
    return ptx_perr(c, t, "%.*s expects %d to %d operands, found %d", (int)t->len, t->p, lo, hi, n);
  }
  return 0;
}

/* [sym+off] / [reg+off]: sets in->addr/off and records symbol fixups. */
static int decode_addr(ParseCtx *c, Opnd *o, PtxInst *in, uint32_t pc) {
  if (o->kind != O_ADDR) return ptx_perr(c, o->tok, "expected an address operand [...]");
  in->addr = PTX_NO_REG;
  in->off = o->off;
  if (o->has_reg) {
    in->addr = (uint16_t)o->row;
    if (c->reg_bytes[o->row] <= 4) in->flags |= PTX_F_ADDR32;
    return 0;
  }
  if (o->sym < 0) {
    if (in->space == PTX_SP_GENERIC) in->space = PTX_SP_GLOBAL;
    return 0;
  }
  PtxSymbol *s = &c->m->syms[o->sym];
  if (in->space == PTX_SP_GENERIC)
    return ptx_perr(c, o->tok, "generic access to symbol '%s' needs a state space", s->name);
  if (s->space == PTX_SP_PARAM && in->space == PTX_SP_PARAM) {
    if (s->in_frame) {
      in->space = PTX_SP_LOCAL;
      in->off += (int64_t)s->addr;
      in->flags |= PTX_F_SYMADDR;
    } else
      in->off += (int64_t)s->addr;
    return 0;
  }
  if (s->space != in->space)
    return ptx_perr(c, o->tok, "symbol '%s' is in .%s, not .%s", s->name, ptx_space_name(s->space),
                    ptx_space_name(in->space));
  if (s->space == PTX_SP_LOCAL) {
    in->off += (int64_t)s->addr;
    in->flags |= PTX_F_SYMADDR;
    return 0;
  }
  if (ctx_add_symfix(c, (uint32_t)o->sym, pc, -1)) return ptx_perr(c, o->tok, "out of memory");
  return 0;
}

static int decode_call(ParseCtx *c, Tok *t, PtxInst *in, uint32_t pc) {
  /* call{.uni} [(ret),] func, [(args)] ; */
  int32_t ret_sym = -1;
  Tok *ft;
  if (tok_punct(&c->toks[c->pos], '(')) {
    c->pos++;
    Tok *r = &c->toks[c->pos++];
    if (r->kind != TK_IDENT || (ret_sym = ctx_lookup_sym(c, r->p, r->len)) < 0 ||
        !c->m->syms[ret_sym].in_frame)
      return ptx_perr(c, r, "expected a .param return variable");
    if (!tok_punct(&c->toks[c->pos], ')'))
      return ptx_perr(c, &c->toks[c->pos], "expected ')' (one return value)");
    c->pos++;
    if (!tok_punct(&c->toks[c->pos], ',')) return ptx_perr(c, &c->toks[c->pos], "expected ','");
    c->pos++;
  }
  ft = &c->toks[c->pos++];
  if (ft->kind != TK_IDENT) return ptx_perr(c, ft, "expected a function name");
  if (ft->p[0] == '%') return ptx_perr(c, ft, "indirect calls are not supported");
  uint32_t cap = 0;
  PtxCallSite cs = {0};
  cs.ret_off = ret_sym >= 0 ? (int32_t)c->m->syms[ret_sym].addr : -1;
  cs.ret_size = ret_sym >= 0 ? (uint32_t)c->m->syms[ret_sym].size : 0;
  uint32_t cap2 = 0;
  if (tok_punct(&c->toks[c->pos], ',')) {
    c->pos++;
    if (!tok_punct(&c->toks[c->pos], '(')) return ptx_perr(c, &c->toks[c->pos], "expected '(' argument list");
    c->pos++;
    while (!tok_punct(&c->toks[c->pos], ')')) {
      Tok *a = &c->toks[c->pos++];
      int32_t si;
      if (a->kind != TK_IDENT || (si = ctx_lookup_sym(c, a->p, a->len)) < 0 || !c->m->syms[si].in_frame) {
        free(cs.arg_off);
        free(cs.arg_size);
        return ptx_perr(c, a, "expected a .param argument variable");
      }
      cs.arg_off = grow(cs.arg_off, &cap, cs.nargs + 1, sizeof(uint32_t));
      cs.arg_size = grow(cs.arg_size, &cap2, cs.nargs + 1, sizeof(uint32_t));
      if (!cs.arg_off || !cs.arg_size) {
        free(cs.arg_off);
        free(cs.arg_size);
        return ptx_perr(c, a, "out of memory");
      }
      cs.arg_off[cs.nargs] = (uint32_t)c->m->syms[si].addr;
      cs.arg_size[cs.nargs++] = (uint32_t)c->m->syms[si].size;
      if (tok_punct(&c->toks[c->pos], ','))
        c->pos++;
      else if (!tok_punct(&c->toks[c->pos], ')')) {
        free(cs.arg_off);
        free(cs.arg_size);
        return ptx_perr(c, &c->toks[c->pos], "expected ',' or ')'");
      }
    }
    c->pos++;
  }
  if (tok_punct(&c->toks[c->pos], ',')) {
    free(cs.arg_off);
    free(cs.arg_size);
    return ptx_perr(c, &c->toks[c->pos], "indirect calls with prototypes are not supported");
  }
  if (!tok_punct(&c->toks[c->pos], ';')) {
    free(cs.arg_off);
    free(cs.arg_size);
    return ptx_perr(c, &c->toks[c->pos], "expected ';'");
  }
  c->pos++;
  uint32_t calls_cap = c->m->ncalls; /* exact-size growth: call sites are few */
  PtxCallSite *nc = realloc(c->m->calls, sizeof(PtxCallSite) * (calls_cap + 1));
  if (!nc) {
    free(cs.arg_off);
    free(cs.arg_size);
    return ptx_perr(c, t, "out of memory");
  }
  c->m->calls = nc;
  c->m->calls[c->m->ncalls] = cs;
  in->off = c->m->ncalls++;
  if (!(c->cfix = grow(c->cfix, &c->cfix_cap, c->ncfix + 1, sizeof(CallFix))))
    return ptx_perr(c, t, "out of memory");
  c->cfix[c->ncfix++] = (CallFix){pc, ft->p, ft->len, ft->line, ft->col};
  return 0;
}

int ptx_decode_inst(ParseCtx *c, int32_t guard, int guard_neg, PtxInst *in) {
  Tok *t = &c->toks[c->pos++];
  uint32_t pc = c->m->ncode;
  char buf[128];
  if (t->len >= sizeof buf) return ptx_perr(c, t, "instruction name too long");
  memcpy(buf, t->p, t->len);
  buf[t->len] = 0;
  char *dot = strchr(buf, '.');
  if (dot) *dot = 0;
  int op = -1;
  for (int i = 0; i < PTX_OP_COUNT; i++)
    if (strcmp(buf, ptx_op_names[i]) == 0) {
      op = i;
      break;
    }
  if (op < 0) return ptx_perr(c, t, "unknown or unsupported instruction '%s'", buf);
  in->op = (uint16_t)op;
  in->cls = ptx_op_class[op];
  in->guard = guard;
  in->guard_neg = (uint8_t)guard_neg;
  in->vec = 1;
  in->addr = PTX_NO_REG;
  for (int k = 0; k < 4; k++) in->d[k] = PTX_NO_REG;
  for (int k = 0; k < 5; k++) in->s[k] = PTX_NO_REG;
  PtxType types[2] = {PTX_T_NONE, PTX_T_NONE};
  int ntypes = 0;
  for (char *m = dot ? dot + 1 : NULL; m;) {
    char *nd = strchr(m, '.');
    if (nd) *nd = 0;
    /* rejoin "shared::cta"-style pieces are already single tokens */
    if (!*m) return ptx_perr(c, t, "empty modifier");
    if (ptx_apply_mod(c, t, in, m, &ntypes, types)) return -1;
    m = nd ? nd + 1 : NULL;
  }
  in->type = (uint8_t)types[0];
  in->type2 = (uint8_t)types[1];
  if ((types[0] == PTX_T_F16 || types[1] == PTX_T_F16) && !ptx_half_supported(op, in->flags & PTX_F_H2))
    return ptx_perr(c, t,
                    "half-precision .%s %s is not supported (add, sub, mul, fma, neg, abs, min, max, setp, "
                    "cvt, ld, st, mov are)",
                    in->flags & PTX_F_H2 ? "f16x2" : "f16", ptx_op_names[op]);
  if (op == PTX_OP_call) return decode_call(c, t, in, pc);
  /* operands */
  Opnd o[MAX_OPNDS];
  int n = 0;
  if (!tok_punct(&c->toks[c->pos], ';')) {
    for (;;) {
      if (n == MAX_OPNDS) return ptx_perr(c, &c->toks[c->pos], "too many operands");
      if (parse_operand(c, &o[n])) return -1;
      n++;
      if (tok_punct(&c->toks[c->pos], ',')) {
        c->pos++;
        continue;
      }
      break;
    }
  }
  if (!tok_punct(&c->toks[c->pos], ';'))
    return ptx_perr(c, &c->toks[c->pos], "expected ';' after instruction, found '%.*s'",
                    (int)(c->toks[c->pos].len ? c->toks[c->pos].len : 3),
                    c->toks[c->pos].len ? c->toks[c->pos].p : "EOF");
  c->pos++;
  PtxType ty = (PtxType)in->type;
  int neg;
  switch (op) {
  case PTX_OP_ld:
  case PTX_OP_ldu:
    if (need(c, t, n, 2, 2)) return -1;
    if (!ty) return ptx_perr(c, t, "ld needs a type");
    if (o[0].kind == O_VEC) {
      if (o[0].nvec != in->vec) return ptx_perr(c, o[0].tok, "vector size mismatch");
      for (uint32_t k = 0; k < o[0].nvec; k++) in->d[k] = (uint16_t)o[0].vrow[k];
    } else {
      if (in->vec != 1) return ptx_perr(c, o[0].tok, "expected a vector destination");
      if (dst_row(c, &o[0], &in->d[0])) return -1;
    }
    in->ndst = in->vec;
    in->type2 = in->d[0] == PTX_NO_REG ? 8 : (uint8_t)c->reg_bytes[in->d[0]];
    return decode_addr(c, &o[1], in, pc);
  case PTX_OP_st:
    if (need(c, t, n, 2, 2)) return -1;
    if (!ty) return ptx_perr(c, t, "st needs a type");
    if (o[1].kind == O_VEC) {
      if (o[1].nvec != in->vec) return ptx_perr(c, o[1].tok, "vector size mismatch");
      for (uint32_t k = 0; k < o[1].nvec; k++) {
        if (o[1].vrow[k] == PTX_NO_REG) return ptx_perr(c, o[1].tok, "'_' in a store");
        in->s[k] = (uint16_t)o[1].vrow[k];
      }
    } else {
      if (in->vec != 1) return ptx_perr(c, o[1].tok, "expected a vector source");
      if (src_row(c, &o[1], ty, &in->s[0])) return -1;
    }
    in->nsrc = in->vec;
    return decode_addr(c, &o[0], in, pc);
  case PTX_OP_atom:
  case PTX_OP_red: {
    int base = op == PTX_OP_atom;
    if (!in->mod) return ptx_perr(c, t, "%s needs an operation (.add, .cas, ...)", ptx_op_names[op]);
    int nv = in->mod == PTX_ATOM_CAS ? 2 : 1;
    if (need(c, t, n, base + 1 + nv, base + 1 + nv)) return -1;
    if (base && dst_row(c, &o[0], &in->d[0])) return -1;
    for (int k = 0; k < nv; k++)
      if (src_row(c, &o[base + 1 + k], ty, &in->s[k])) return -1;
    in->nsrc = (uint8_t)nv;
    if (!ty) return ptx_perr(c, t, "%s needs a type", ptx_op_names[op]);
    return decode_addr(c, &o[base], in, pc);
  }
  case PTX_OP_mov:
    if (need(c, t, n, 2, 2)) return -1;
    if (ty == PTX_T_PRED) {
      if (o[0].kind != O_PRED) return ptx_perr(c, o[0].tok, "expected a predicate destination");
      in->d[0] = (uint16_t)o[0].row;
      return pred_src(c, &o[1], &in->s[0], &neg) ? -1
                                                 : (neg ? ptx_perr(c, o[1].tok, "negated mov source") : 0);
    }
    if (o[0].kind == O_VEC) {
      in->flags |= PTX_F_UNPACK;
      for (uint32_t k = 0; k < o[0].nvec; k++) in->d[k] = (uint16_t)o[0].vrow[k];
      in->ndst = (uint8_t)o[0].nvec;
      return src_row(c, &o[1], ty, &in->s[0]);
    }
    if (dst_row(c, &o[0], &in->d[0])) return -1;
    if (o[1].kind == O_VEC) {
      in->flags |= PTX_F_PACK;
      for (uint32_t k = 0; k < o[1].nvec; k++) in->s[k] = (uint16_t)o[1].vrow[k];
      in->nsrc = (uint8_t)o[1].nvec;
      return 0;
    }
    if (o[1].kind == O_SREG) {
      in->flags |= PTX_F_SREG;
      in->mod = (uint8_t)o[1].sreg;
      return 0;
    }
    if (o[1].kind == O_SYM) {
      if (o[1].sym < 0) {
        for (uint32_t f = 0; f < c->m->nfuncs; f++)
          if (strlen(c->m->funcs[f].name) == o[1].tok->len &&
              !memcmp(c->m->funcs[f].name, o[1].tok->p, o[1].tok->len))
            return ptx_perr(c, o[1].tok, "function addresses are not supported");
        return ptx_perr(c, o[1].tok, "unknown symbol '%.*s'", (int)o[1].tok->len, o[1].tok->p);
      }
      PtxSymbol *s = &c->m->syms[o[1].sym];
      if (s->in_frame) {
        in->flags |= PTX_F_SYMADDR;
        in->off = (int64_t)s->addr;
        return 0;
      }
      if (s->space == PTX_SP_PARAM) {
        int32_t r = ctx_imm_row_unique(c, s->addr, 0);
        if (r < 0) return ptx_perr(c, t, "too many immediates");
        in->s[0] = (uint16_t)r;
        return 0;
      }
      int32_t r = ctx_imm_row_unique(c, 0, 1);
      if (r < 0 || ctx_add_symfix(c, (uint32_t)o[1].sym, pc, r & 0x7FFF))
        return ptx_perr(c, t, "too many immediates");
      in->s[0] = (uint16_t)r;
      return 0;
    }
    return src_row(c, &o[1], ty, &in->s[0]);
  case PTX_OP_cvta:
    if (need(c, t, n, 2, 2) || dst_row(c, &o[0], &in->d[0])) return -1;
    if (o[1].kind == O_SYM && o[1].sym >= 0) {
      PtxSymbol *s = &c->m->syms[o[1].sym];
      if (s->in_frame) {
        in->flags |= PTX_F_SYMADDR;
        in->off = (int64_t)s->addr;
        return 0;
      }
      int32_t r = ctx_imm_row_unique(c, s->space == PTX_SP_PARAM ? s->addr : 0, s->space != PTX_SP_PARAM);
      if (r < 0 || (s->space != PTX_SP_PARAM && ctx_add_symfix(c, (uint32_t)o[1].sym, pc, r & 0x7FFF)))
        return ptx_perr(c, t, "too many immediates");
      in->s[0] = (uint16_t)r;
      return 0;
    }
    return src_row(c, &o[1], PTX_T_U64, &in->s[0]);
  case PTX_OP_isspacep:
    if (need(c, t, n, 2, 2)) return -1;
    if (o[0].kind != O_PRED) return ptx_perr(c, o[0].tok, "expected a predicate destination");
    in->d[0] = (uint16_t)o[0].row;
    return src_row(c, &o[1], PTX_T_U64, &in->s[0]);
  case PTX_OP_setp:
    if (need(c, t, n, 3, 4)) return -1;
    if (!in->mod) return ptx_perr(c, t, "setp needs a comparison");
    if (o[0].kind != O_PRED) return ptx_perr(c, o[0].tok, "expected a predicate destination");
    in->d[0] = (uint16_t)o[0].row;
    if (o[0].dual) {
      in->flags |= PTX_F_DUAL;
      in->d[1] = (uint16_t)o[0].row2;
    }
    if (src_row(c, &o[1], ty, &in->s[0]) || src_row(c, &o[2], ty, &in->s[1])) return -1;
    if (n == 4) {
      if (!in->mod2) return ptx_perr(c, o[3].tok, "setp with a predicate operand needs .and/.or/.xor");
      if (pred_src(c, &o[3], &in->s[2], &neg)) return -1;
      if (neg) in->flags |= PTX_F_NEG_C;
    } else if (in->mod2)
      return ptx_perr(c, t, "setp .and/.or/.xor needs a predicate operand");
    return 0;
  case PTX_OP_selp:
    if (need(c, t, n, 4, 4) || dst_row(c, &o[0], &in->d[0]) || src_row(c, &o[1], ty, &in->s[0]) ||
        src_row(c, &o[2], ty, &in->s[1]) || pred_src(c, &o[3], &in->s[2], &neg))
      return -1;
    if (neg) in->flags |= PTX_F_NEG_C;
    return 0;
  case PTX_OP_and:
  case PTX_OP_or:
  case PTX_OP_xor:
  case PTX_OP_not:
  case PTX_OP_cnot:
    if (ty == PTX_T_PRED) {
      int ns = (op == PTX_OP_not || op == PTX_OP_cnot) ? 1 : 2;
      if (need(c, t, n, ns + 1, ns + 1)) return -1;
      if (o[0].kind != O_PRED) return ptx_perr(c, o[0].tok, "expected a predicate destination");
      in->d[0] = (uint16_t)o[0].row;
      for (int k = 0; k < ns; k++) {
        if (pred_src(c, &o[k + 1], &in->s[k], &neg)) return -1;
        if (neg) return ptx_perr(c, o[k + 1].tok, "negated operand not allowed here");
      }
      in->nsrc = (uint8_t)ns;
      return 0;
    }
    break;
  case PTX_OP_bra:
    if (need(c, t, n, 1, 1)) return -1;
    if (o[0].kind != O_SYM) return ptx_perr(c, o[0].tok, "expected a label");
    return ctx_add_label_ref(c, o[0].tok, pc);
  case PTX_OP_ret:
  case PTX_OP_exit:
  case PTX_OP_trap:
    return need(c, t, n, 0, 0);
  case PTX_OP_membar:
  case PTX_OP_fence:
  case PTX_OP_nanosleep:
  case PTX_OP_prefetch:
    return 0;
  case PTX_OP_bar:
  case PTX_OP_barrier: {
    if (in->mod2) { /* bar.warp.sync mask: warps execute in lockstep here */
      in->op = PTX_OP_membar;
      in->cls = PTX_CLS_NOP;
      return need(c, t, n, 1, 1);
    }
    if (!in->mod) in->mod = PTX_BAR_SYNC;
    int k = 0;
    if (in->mod >= PTX_BAR_RED_POPC) {
      if (need(c, t, n, 3, 4)) return -1;
      if (o[0].kind == O_PRED) {
        in->d[0] = (uint16_t)o[0].row;
        in->flags |= PTX_F_DUAL;
      } else if (dst_row(c, &o[0], &in->d[0]))
        return -1;
      if (pred_src(c, &o[n - 1], &in->s[2], &neg)) return -1;
      if (neg) in->flags |= PTX_F_NEG_C;
      k = 1;
      n--;
    } else if (need(c, t, n, 1, 2))
      return -1;
    if (src_row(c, &o[k], PTX_T_U32, &in->s[0])) return -1;
    if (n - k == 2 && src_row(c, &o[k + 1], PTX_T_U32, &in->s[1])) return -1;
    return 0;
  }
  case PTX_OP_shfl:
    if (need(c, t, n, 5, 5) || !in->mod)
      return c->failed ? -1 : ptx_perr(c, t, "shfl needs .up/.down/.bfly/.idx");
    if (dst_row(c, &o[0], &in->d[0])) return -1;
    if (o[0].dual) {
      in->flags |= PTX_F_DUAL;
      in->d[1] = (uint16_t)o[0].row2;
    }
    for (int k = 0; k < 4; k++)
      if (src_row(c, &o[k + 1], PTX_T_B32, &in->s[k])) return -1;
    return 0;
  case PTX_OP_vote:
    if (need(c, t, n, 3, 3) || !in->mod) return c->failed ? -1 : ptx_perr(c, t, "vote needs a mode");
    if (in->mod == PTX_VOTE_BALLOT) {
      if (dst_row(c, &o[0], &in->d[0])) return -1;
    } else if (o[0].kind != O_PRED)
      return ptx_perr(c, o[0].tok, "expected a predicate destination");
    else
      in->d[0] = (uint16_t)o[0].row;
    if (pred_src(c, &o[1], &in->s[2], &neg)) return -1;
    if (neg) in->flags |= PTX_F_NEG_C;
    return src_row(c, &o[2], PTX_T_B32, &in->s[0]);
  case PTX_OP_match:
    if (need(c, t, n, 3, 3) || !in->mod || dst_row(c, &o[0], &in->d[0]))
      return c->failed ? -1 : ptx_perr(c, t, "match needs .any/.all");
    if (o[0].dual) {
      in->flags |= PTX_F_DUAL;
      in->d[1] = (uint16_t)o[0].row2;
    }
    return src_row(c, &o[1], ty, &in->s[0]) || src_row(c, &o[2], PTX_T_B32, &in->s[1]) ? -1 : 0;
  case PTX_OP_activemask:
    return need(c, t, n, 1, 1) || dst_row(c, &o[0], &in->d[0]) ? -1 : 0;
  case PTX_OP_testp:
    if (need(c, t, n, 2, 2) || !in->mod) return c->failed ? -1 : ptx_perr(c, t, "testp needs an operation");
    if (o[0].kind != O_PRED) return ptx_perr(c, o[0].tok, "expected a predicate destination");
    in->d[0] = (uint16_t)o[0].row;
    return src_row(c, &o[1], ty, &in->s[0]);
  default:
    break;
  }
  /* Generic ALU shape: d, a[, b[, c[, e]]] */
  static const int8_t nsrc_of[PTX_OP_COUNT] = {
      [PTX_OP_abs] = 1,   [PTX_OP_neg] = 1,   [PTX_OP_not] = 1,      [PTX_OP_cnot] = 1, [PTX_OP_popc] = 1,
      [PTX_OP_clz] = 1,   [PTX_OP_brev] = 1,  [PTX_OP_bfind] = 1,    [PTX_OP_cvt] = 1,  [PTX_OP_rcp] = 1,
      [PTX_OP_sqrt] = 1,  [PTX_OP_rsqrt] = 1, [PTX_OP_ex2] = 1,      [PTX_OP_lg2] = 1,  [PTX_OP_sin] = 1,
      [PTX_OP_cos] = 1,   [PTX_OP_tanh] = 1,  [PTX_OP_add] = 2,      [PTX_OP_sub] = 2,  [PTX_OP_addc] = 2,
      [PTX_OP_subc] = 2,  [PTX_OP_mul] = 2,   [PTX_OP_div] = 2,      [PTX_OP_rem] = 2,  [PTX_OP_min] = 2,
      [PTX_OP_max] = 2,   [PTX_OP_and] = 2,   [PTX_OP_or] = 2,       [PTX_OP_xor] = 2,  [PTX_OP_shl] = 2,
      [PTX_OP_shr] = 2,   [PTX_OP_mul24] = 2, [PTX_OP_copysign] = 2, [PTX_OP_mad] = 3,  [PTX_OP_fma] = 3,
      [PTX_OP_mad24] = 3, [PTX_OP_sad] = 3,   [PTX_OP_bfe] = 3,      [PTX_OP_prmt] = 3, [PTX_OP_shf] = 3,
      [PTX_OP_bfi] = 4,   [PTX_OP_lop3] = 4};
  int ns = nsrc_of[op];
  if (!ns) return ptx_perr(c, t, "unsupported instruction form '%.*s'", (int)t->len, t->p);
  if (need(c, t, n, ns + 1, ns + 1)) return -1;
  if (!ty) return ptx_perr(c, t, "%s needs a type", ptx_op_names[op]);
  if (op == PTX_OP_cvt && !in->type2) return ptx_perr(c, t, "cvt needs two types");
  if (dst_row(c, &o[0], &in->d[0])) return -1;
  for (int k = 0; k < ns; k++) {
    PtxType sty = ty;
    if (op == PTX_OP_cvt) sty = (PtxType)in->type2;
    if ((op == PTX_OP_shl || op == PTX_OP_shr) && k == 1) sty = PTX_T_U32;
    if (op == PTX_OP_bfe && k > 0) sty = PTX_T_U32;
    if (op == PTX_OP_bfi && k > 1) sty = PTX_T_U32;
    if (op == PTX_OP_shf && k == 2) sty = PTX_T_U32;
    if (src_row(c, &o[k + 1], sty, &in->s[k])) return -1;
  }
  in->nsrc = (uint8_t)ns;
  in->ndst = 1;
  /* register widths must match the instruction type (PTX relaxes this only for ld, st, cvt) */
  if (op != PTX_OP_cvt && ptx_type_bytes(ty) >= 2) {
    int tb = ptx_type_bytes(ty) * ((in->flags & PTX_F_H2) ? 2 : 1),
        wide = (op == PTX_OP_mul || op == PTX_OP_mad) && !ptx_type_is_float(ty) && in->mod == PTX_MUL_WIDE;
    int dw = wide ? 2 * tb : (op == PTX_OP_popc || op == PTX_OP_clz || op == PTX_OP_bfind) ? 4 : tb;
    if (o[0].kind == O_REG && c->reg_bytes[o[0].row] != dw)
      return ptx_perr(c, o[0].tok, "%d-byte register '%.*s' where %s.%s needs %d bytes",
                      c->reg_bytes[o[0].row], (int)o[0].tok->len, o[0].tok->p, ptx_op_names[op],
                      (in->flags & PTX_F_H2) ? "f16x2" : ptx_type_name(ty), dw);
    for (int k = 0; k < ns; k++) {
      Opnd *x = &o[k + 1];
      int sw = tb;
      if (((op == PTX_OP_shl || op == PTX_OP_shr) && k == 1) || (op == PTX_OP_bfe && k > 0) ||
          (op == PTX_OP_bfi && k > 1) || (op == PTX_OP_shf && k == 2) || op == PTX_OP_prmt ||
          op == PTX_OP_lop3)
        sw = 4;
      if (wide && k == 2) sw = 2 * tb;
      if (x->kind == O_REG && c->reg_bytes[x->row] != sw)
        return ptx_perr(c, x->tok, "%d-byte register '%.*s' where %s.%s needs %d bytes", c->reg_bytes[x->row],
                        (int)x->tok->len, x->tok->p, ptx_op_names[op],
                        (in->flags & PTX_F_H2) ? "f16x2" : ptx_type_name(ty), sw);
    }
  }
  if (op == PTX_OP_shl || op == PTX_OP_shr || op == PTX_OP_and || op == PTX_OP_or || op == PTX_OP_xor) {
    if (ptx_type_is_float((PtxType)ty)) return ptx_perr(c, t, "%s on a float type", ptx_op_names[op]);
  }
  if ((in->flags & PTX_F_CC || op == PTX_OP_addc || op == PTX_OP_subc) &&
      (ptx_type_bytes(ty) < 4 || ptx_type_is_float(ty)))
    return ptx_perr(c, t, "carry-chain arithmetic needs a 32- or 64-bit integer type");
  if ((op == PTX_OP_rcp || op == PTX_OP_sqrt || op == PTX_OP_div) && ty == PTX_T_F32 &&
      !(in->flags & PTX_F_APPROX) && !in->mod && op != PTX_OP_div)
    return ptx_perr(c, t, "%s.f32 needs .approx or a rounding mode", ptx_op_names[op]);
  return 0;
}
