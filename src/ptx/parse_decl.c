/* parse_decl.c - PTX declarations: registers (.reg, ranges %r<N>), variables in every state
 * space with their initializers (.global/.const/.shared/.local/.param, arrays, addresses of
 * other symbols) and a function's parameter lists; called by the module and function parser
 * (parse.c), never calling back into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

int32_t ctx_add_sym(ParseCtx *c, const Tok *name, uint8_t space, int32_t func) {
  if (!(c->m->syms = grow(c->m->syms, &c->syms_cap, c->m->nsyms + 1, sizeof(PtxSymbol))))
    return ptx_perr(c, name, "out of memory");
  PtxSymbol *s = &c->m->syms[c->m->nsyms];
  memset(s, 0, sizeof *s);
  s->name = strndup(name->p, name->len);
  if (!s->name) return ptx_perr(c, name, "out of memory");
  s->space = space;
  s->func = func;
  c->m->nsyms++;
  if (ctx_index_sym(c)) return ptx_perr(c, name, "out of memory");
  return (int32_t)c->m->nsyms - 1;
}

static int set_reg_bytes(ParseCtx *c, uint32_t row, uint8_t bytes) {
  if (!(c->reg_bytes = grow(c->reg_bytes, &c->reg_bytes_cap, row + 1, 1))) return -1;
  c->reg_bytes[row] = bytes;
  return 0;
}

/* .reg .type %r<N>, %x, ...; */
int ptx_parse_reg_decl(ParseCtx *c) {
  Tok *tt = tok_next(c);
  if (tok_is(tt, ".v2") || tok_is(tt, ".v4")) return ptx_perr(c, tt, "vector registers are not supported");
  PtxType ty = tok_type(tt);
  if (ty == PTX_T_NONE)
    return ptx_perr(c, tt, "expected a register type after .reg, found '%.*s'", (int)tt->len, tt->p);
  int is_pred = ty == PTX_T_PRED;
  uint8_t bytes = is_pred ? 1 : (uint8_t)ptx_type_bytes(ty);
  if (bytes < 2 && !is_pred) bytes = 2; /* .b8 registers occupy 16 bits */
  for (;;) {
    Tok *nt = tok_next(c);
    if (nt->kind != TK_IDENT) return ptx_perr(c, nt, "expected a register name");
    uint32_t count = 0;
    if (tok_punct(tok_cur(c), '<')) {
      c->pos++;
      uint64_t n;
      if (tok_expect_int(c, &n) || tok_expect_punct(c, '>')) return -1;
      if (n == 0 || n > 65000)
        return ptx_perr(c, nt, "register count %llu out of range", (unsigned long long)n);
      count = (uint32_t)n;
    }
    uint32_t nrows = count ? count : 1;
    if (!(c->regs = grow(c->regs, &c->regs_cap, c->nregs_decl + 1, sizeof(RegDecl))))
      return ptx_perr(c, nt, "out of memory");
    RegDecl *r = &c->regs[c->nregs_decl++];
    *r = (RegDecl){nt->p, nt->len, count, is_pred ? c->npreds : c->nregs_rows, (uint8_t)is_pred, bytes};
    if (is_pred)
      c->npreds += nrows;
    else {
      for (uint32_t k = 0; k < nrows; k++)
        if (set_reg_bytes(c, c->nregs_rows + k, bytes)) return ptx_perr(c, nt, "out of memory");
      c->nregs_rows += nrows;
    }
    if (c->nregs_rows + c->npreds > 60000) return ptx_perr(c, nt, "too many registers in function");
    if (tok_punct(tok_cur(c), ',')) {
      c->pos++;
      continue;
    }
    return tok_expect_punct(c, ';');
  }
}

/* Initialiser list: { a, b, {c, d} } or a scalar; elements of `elem` bytes. */
static int parse_init(ParseCtx *c, PtxSymbol *s, PtxType ty, uint64_t *pos) {
  Tok *t = tok_cur(c);
  int elem = ptx_type_bytes(ty);
  if (tok_punct(t, '{')) {
    c->pos++;
    if (tok_punct(tok_cur(c), '}')) {
      c->pos++;
      return 0;
    }
    for (;;) {
      if (parse_init(c, s, ty, pos)) return -1;
      if (tok_punct(tok_cur(c), ',')) {
        c->pos++;
        continue;
      }
      return tok_expect_punct(c, '}');
    }
  }
  int neg = 0;
  if (tok_punct(t, '-')) {
    neg = 1;
    c->pos++;
    t = tok_cur(c);
  }
  uint64_t bits;
  if (t->kind == TK_INT) {
    uint64_t v = neg ? (uint64_t)0 - t->ival : t->ival;
    if (ty == PTX_T_F32) {
      float f = neg ? -(float)t->ival : (float)t->ival;
      uint32_t u;
      memcpy(&u, &f, 4);
      bits = u;
    } else if (ty == PTX_T_F64) {
      double d = neg ? -(double)t->ival : (double)t->ival;
      memcpy(&bits, &d, 8);
    } else
      bits = v;
  } else if (t->kind == TK_F32 || t->kind == TK_F64 || t->kind == TK_FLOAT) {
    double d = t->kind == TK_FLOAT ? t->fval : 0;
    if (t->kind == TK_F32) {
      uint32_t u = (uint32_t)t->ival;
      float f;
      memcpy(&f, &u, 4);
      d = f;
    }
    if (t->kind == TK_F64) memcpy(&d, &t->ival, 8);
    if (neg) d = -d;
    if (ty == PTX_T_F32) {
      float f = (float)d;
      uint32_t u;
      memcpy(&u, &f, 4);
      bits = u;
    } else if (ty == PTX_T_F64)
      memcpy(&bits, &d, 8);
    else
      return ptx_perr(c, t, "float initialiser for an integer variable");
    if (t->kind == TK_F32 && ty == PTX_T_F32 && !neg) bits = t->ival;
    if (t->kind == TK_F64 && ty == PTX_T_F64 && !neg) bits = t->ival;
  } else if (t->kind == TK_IDENT) {
    return ptx_perr(c, t, "address initialisers (generic(sym)) are not supported");
  } else {
    return ptx_perr(c, t, "expected an initialiser value");
  }
  c->pos++;
  if (*pos + (uint64_t)elem > s->size) return ptx_perr(c, t, "too many initialisers for '%s'", s->name);
  for (int k = 0; k < elem; k++) s->init[*pos + (uint64_t)k] = (uint8_t)(bits >> (8 * k));
  *pos += (uint64_t)elem;
  return 0;
}

/* (.global|.const|.shared|.local|.param) [.align N] [.ptr ...] [.vN] .type name[dims] [= init] (, name...)* ;
 * `func` is -1 at module scope. For .param inside a body and .local, the variable
 * gets a frame offset. */
int ptx_parse_var_decl(ParseCtx *c, uint8_t space, int32_t func, int is_extern) {
  uint32_t align = 0, vec = 1;
  PtxType ty = PTX_T_NONE;
  for (;;) {
    Tok *t = tok_cur(c);
    if (tok_is(t, ".align")) {
      c->pos++;
      uint64_t a;
      if (tok_expect_int(c, &a)) return -1;
      if (a == 0 || a > 4096 || (a & (a - 1))) return ptx_perr(c, t, "bad alignment");
      align = (uint32_t)a;
    } else if (tok_is(t, ".v2")) {
      vec = 2;
      c->pos++;
    } else if (tok_is(t, ".v4")) {
      vec = 4;
      c->pos++;
    } else if (tok_is(t, ".ptr") || tok_is(t, ".global") || tok_is(t, ".shared") || tok_is(t, ".const") ||
               tok_is(t, ".local"))
      c->pos++;
    else if ((ty = tok_type(t)) != PTX_T_NONE) {
      c->pos++;
      break;
    } else
      return ptx_perr(c, t, "expected a type in variable declaration, found '%.*s'", (int)t->len, t->p);
  }
  if (ty == PTX_T_PRED) return ptx_perr(c, &c->toks[c->pos - 1], "unsupported variable type");
  uint32_t esize = (uint32_t)ptx_type_bytes(ty) * vec;
  if (!align) align = esize;
  for (;;) {
    Tok *nt = tok_next(c);
    if (nt->kind != TK_IDENT) return ptx_perr(c, nt, "expected a variable name");
    uint64_t count = 1;
    int unsized = 0;
    while (tok_punct(tok_cur(c), '[')) {
      c->pos++;
      if (tok_punct(tok_cur(c), ']')) {
        unsized = 1;
        c->pos++;
        continue;
      }
      uint64_t n;
      if (tok_expect_int(c, &n) || tok_expect_punct(c, ']')) return -1;
      if (n > (1ull << 32)) return ptx_perr(c, nt, "array too large");
      count *= n;
    }
    int32_t si = ctx_add_sym(c, nt, space, func);
    if (si < 0) return -1;
    PtxSymbol *s = &c->m->syms[si];
    s->size = unsized ? 0 : count * esize;
    s->align = align;
    if (s->size > (1ull << 31)) return ptx_perr(c, nt, "variable too large");
    if (space == PTX_SP_SHARED && (unsized || is_extern)) s->is_extern_shared = 1;
    if (space == PTX_SP_LOCAL || (space == PTX_SP_PARAM && func >= 0)) {
      s->in_frame = 1;
      c->frame_bytes = align_up32(c->frame_bytes, align);
      s->addr = c->frame_bytes;
      c->frame_bytes += (uint32_t)s->size;
    }
    if (tok_punct(tok_cur(c), '=')) {
      c->pos++;
      if (space != PTX_SP_GLOBAL && space != PTX_SP_CONST)
        return ptx_perr(c, nt, "initialiser on a %s variable", ptx_space_name(space));
      if (unsized) return ptx_perr(c, nt, "initialised array needs a size");
      s->init = calloc(1, s->size ? s->size : 1);
      if (!s->init) return ptx_perr(c, nt, "out of memory");
      uint64_t pos = 0;
      if (parse_init(c, s, ty, &pos)) return -1;
    }
    if (tok_punct(tok_cur(c), ',')) {
      c->pos++;
      continue;
    }
    return tok_expect_punct(c, ';');
  }
}

/* ( .param ... name, ... ) for kernel or function parameters. */
int ptx_parse_params(ParseCtx *c, PtxParam **out, uint32_t *nout, int make_syms, int entry) {
  if (tok_expect_punct(c, '(')) return -1;
  uint32_t cap = 0, off = 0;
  *out = NULL;
  *nout = 0;
  if (tok_punct(tok_cur(c), ')')) {
    c->pos++;
    return 0;
  }
  for (;;) {
    Tok *t = tok_next(c);
    if (!tok_is(t, ".param") && !tok_is(t, ".reg"))
      return ptx_perr(c, t, "expected .param in parameter list");
    if (tok_is(t, ".reg")) return ptx_perr(c, t, ".reg parameters are not supported");
    uint32_t align = 0, vec = 1;
    PtxType ty = PTX_T_NONE;
    for (;;) {
      Tok *a = tok_cur(c);
      if (tok_is(a, ".align")) {
        c->pos++;
        uint64_t v;
        if (tok_expect_int(c, &v)) return -1;
        if (!v || v > 4096 || (v & (v - 1))) return ptx_perr(c, a, "bad alignment");
        align = (uint32_t)v;
      } else if (tok_is(a, ".ptr") || tok_is(a, ".global") || tok_is(a, ".shared") || tok_is(a, ".const") ||
                 tok_is(a, ".local"))
        c->pos++;
      else if (tok_is(a, ".v2")) {
        vec = 2;
        c->pos++;
      } else if (tok_is(a, ".v4")) {
        vec = 4;
        c->pos++;
      } else if ((ty = tok_type(a)) != PTX_T_NONE) {
        c->pos++;
        break;
      } else
        return ptx_perr(c, a, "expected a parameter type");
    }
    Tok *nt = tok_next(c);
    if (nt->kind != TK_IDENT) return ptx_perr(c, nt, "expected a parameter name");
    uint64_t count = 1;
    while (tok_punct(tok_cur(c), '[')) {
      c->pos++;
      uint64_t n;
      if (tok_expect_int(c, &n) || tok_expect_punct(c, ']')) return -1;
      if (n > 65536) return ptx_perr(c, nt, "parameter array too large");
      count *= n;
    }
    uint32_t esize = (uint32_t)ptx_type_bytes(ty) * vec;
    if (!align) align = esize ? esize : 1;
    uint32_t size = (uint32_t)(count * esize);
    if (!(*out = grow(*out, &cap, *nout + 1, sizeof(PtxParam)))) return ptx_perr(c, nt, "out of memory");
    PtxParam *p = &(*out)[(*nout)++];
    p->name = strndup(nt->p, nt->len);
    p->size = size;
    p->align = align;
    if (entry) {
      off = align_up32(off, align);
      p->offset = off;
      off += size;
    }
    if (make_syms) {
      int32_t si = ctx_add_sym(c, nt, PTX_SP_PARAM, c->fn);
      if (si < 0) return -1;
      PtxSymbol *s = &c->m->syms[si];
      s->size = size;
      s->align = align;
      if (entry)
        s->addr = p->offset;
      else {
        s->in_frame = 1;
        c->frame_bytes = align_up32(c->frame_bytes, align);
        s->addr = p->offset = c->frame_bytes;
        c->frame_bytes += size;
      }
    }
    if (tok_punct(tok_cur(c), ',')) {
      c->pos++;
      continue;
    }
    return tok_expect_punct(c, ')');
  }
}

void ptx_free_params(PtxParam *p, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) free(p[i].name);
  free(p);
}
