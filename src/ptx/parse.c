/* parse.c - PTX module parser: directives, variables, functions, register
 * declarations, scopes and labels. Instructions are decoded by decode.c and
 * the module is finished by layout.c. Produces the IR of ptx.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

static Tok *cur(ParseCtx *c) { return &c->toks[c->pos]; }
static Tok *next(ParseCtx *c) {
  Tok *t = &c->toks[c->pos];
  if (t->kind != TK_EOF) c->pos++;
  return t;
}

static int expect_punct(ParseCtx *c, char ch) {
  Tok *t = cur(c);
  if (!tok_punct(t, ch))
    return ptx_perr(c, t, "expected '%c', found '%.*s'", ch, (int)(t->len ? t->len : 3),
                    t->len ? t->p : "EOF");
  c->pos++;
  return 0;
}

static int expect_int(ParseCtx *c, uint64_t *v) {
  Tok *t = cur(c);
  if (t->kind != TK_INT)
    return ptx_perr(c, t, "expected an integer, found '%.*s'", (int)(t->len ? t->len : 3),
                    t->len ? t->p : "EOF");
  *v = t->ival;
  c->pos++;
  return 0;
}

/* Skips every remaining token on the line of token t (for .loc / .file). */
static void skip_line(ParseCtx *c, uint32_t line) {
  while (cur(c)->kind != TK_EOF && cur(c)->line == line) c->pos++;
}

static PtxType type_from_tok(const Tok *t) {
  static const struct {
    const char *n;
    PtxType t;
  } tab[] = {{".pred", PTX_T_PRED}, {".b8", PTX_T_B8},   {".b16", PTX_T_B16}, {".b32", PTX_T_B32},
             {".b64", PTX_T_B64},   {".u8", PTX_T_U8},   {".u16", PTX_T_U16}, {".u32", PTX_T_U32},
             {".u64", PTX_T_U64},   {".s8", PTX_T_S8},   {".s16", PTX_T_S16}, {".s32", PTX_T_S32},
             {".s64", PTX_T_S64},   {".f16", PTX_T_F16}, {".f32", PTX_T_F32}, {".f64", PTX_T_F64}};
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (tok_is(t, tab[i].n)) return tab[i].t;
  return PTX_T_NONE;
}

/* ---- symbols ---- */
static int32_t add_sym(ParseCtx *c, const Tok *name, uint8_t space, int32_t func) {
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
static int parse_reg_decl(ParseCtx *c) {
  Tok *tt = next(c);
  if (tok_is(tt, ".v2") || tok_is(tt, ".v4")) return ptx_perr(c, tt, "vector registers are not supported");
  PtxType ty = type_from_tok(tt);
  if (ty == PTX_T_NONE)
    return ptx_perr(c, tt, "expected a register type after .reg, found '%.*s'", (int)tt->len, tt->p);
  int is_pred = ty == PTX_T_PRED;
  uint8_t bytes = is_pred ? 1 : (uint8_t)ptx_type_bytes(ty);
  if (bytes < 2 && !is_pred) bytes = 2; /* .b8 registers occupy 16 bits */
  for (;;) {
    Tok *nt = next(c);
    if (nt->kind != TK_IDENT) return ptx_perr(c, nt, "expected a register name");
    uint32_t count = 0;
    if (tok_punct(cur(c), '<')) {
      c->pos++;
      uint64_t n;
      if (expect_int(c, &n) || expect_punct(c, '>')) return -1;
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
    if (tok_punct(cur(c), ',')) {
      c->pos++;
      continue;
    }
    return expect_punct(c, ';');
  }
}

static uint32_t align_up32(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

/* Initialiser list: { a, b, {c, d} } or a scalar; elements of `elem` bytes. */
static int parse_init(ParseCtx *c, PtxSymbol *s, PtxType ty, uint64_t *pos) {
  Tok *t = cur(c);
  int elem = ptx_type_bytes(ty);
  if (tok_punct(t, '{')) {
    c->pos++;
    if (tok_punct(cur(c), '}')) {
      c->pos++;
      return 0;
    }
    for (;;) {
      if (parse_init(c, s, ty, pos)) return -1;
      if (tok_punct(cur(c), ',')) {
        c->pos++;
        continue;
      }
      return expect_punct(c, '}');
    }
  }
  int neg = 0;
  if (tok_punct(t, '-')) {
    neg = 1;
    c->pos++;
    t = cur(c);
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
static int parse_var_decl(ParseCtx *c, uint8_t space, int32_t func, int is_extern) {
  uint32_t align = 0, vec = 1;
  PtxType ty = PTX_T_NONE;
  for (;;) {
    Tok *t = cur(c);
    if (tok_is(t, ".align")) {
      c->pos++;
      uint64_t a;
      if (expect_int(c, &a)) return -1;
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
    else if ((ty = type_from_tok(t)) != PTX_T_NONE) {
      c->pos++;
      break;
    } else
      return ptx_perr(c, t, "expected a type in variable declaration, found '%.*s'", (int)t->len, t->p);
  }
  if (ty == PTX_T_PRED) return ptx_perr(c, &c->toks[c->pos - 1], "unsupported variable type");
  uint32_t esize = (uint32_t)ptx_type_bytes(ty) * vec;
  if (!align) align = esize;
  for (;;) {
    Tok *nt = next(c);
    if (nt->kind != TK_IDENT) return ptx_perr(c, nt, "expected a variable name");
    uint64_t count = 1;
    int unsized = 0;
    while (tok_punct(cur(c), '[')) {
      c->pos++;
      if (tok_punct(cur(c), ']')) {
        unsized = 1;
        c->pos++;
        continue;
      }
      uint64_t n;
      if (expect_int(c, &n) || expect_punct(c, ']')) return -1;
      if (n > (1ull << 32)) return ptx_perr(c, nt, "array too large");
      count *= n;
    }
    int32_t si = add_sym(c, nt, space, func);
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
    if (tok_punct(cur(c), '=')) {
      c->pos++;
      if (space != PTX_SP_GLOBAL && space != PTX_SP_CONST)
        return ptx_perr(c, nt, "initialiser on a %s variable", ptx_space_name(space));
      if (unsized) return ptx_perr(c, nt, "initialised array needs a size");
      s->init = calloc(1, s->size ? s->size : 1);
      if (!s->init) return ptx_perr(c, nt, "out of memory");
      uint64_t pos = 0;
      if (parse_init(c, s, ty, &pos)) return -1;
    }
    if (tok_punct(cur(c), ',')) {
      c->pos++;
      continue;
    }
    return expect_punct(c, ';');
  }
}

/* ( .param ... name, ... ) for kernel or function parameters. */
static int parse_params(ParseCtx *c, PtxParam **out, uint32_t *nout, int make_syms, int entry) {
  if (expect_punct(c, '(')) return -1;
  uint32_t cap = 0, off = 0;
  *out = NULL;
  *nout = 0;
  if (tok_punct(cur(c), ')')) {
    c->pos++;
    return 0;
  }
  for (;;) {
    Tok *t = next(c);
    if (!tok_is(t, ".param") && !tok_is(t, ".reg"))
      return ptx_perr(c, t, "expected .param in parameter list");
    if (tok_is(t, ".reg")) return ptx_perr(c, t, ".reg parameters are not supported");
    uint32_t align = 0, vec = 1;
    PtxType ty = PTX_T_NONE;
    for (;;) {
      Tok *a = cur(c);
      if (tok_is(a, ".align")) {
        c->pos++;
        uint64_t v;
        if (expect_int(c, &v)) return -1;
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
      } else if ((ty = type_from_tok(a)) != PTX_T_NONE) {
        c->pos++;
        break;
      } else
        return ptx_perr(c, a, "expected a parameter type");
    }
    Tok *nt = next(c);
    if (nt->kind != TK_IDENT) return ptx_perr(c, nt, "expected a parameter name");
    uint64_t count = 1;
    while (tok_punct(cur(c), '[')) {
      c->pos++;
      uint64_t n;
      if (expect_int(c, &n) || expect_punct(c, ']')) return -1;
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
      int32_t si = add_sym(c, nt, PTX_SP_PARAM, c->fn);
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
    if (tok_punct(cur(c), ',')) {
      c->pos++;
      continue;
    }
    return expect_punct(c, ')');
  }
}

static int32_t find_or_add_func(ParseCtx *c, const Tok *name) {
  int32_t fi = ctx_lookup_func(c, name->p, name->len);
  if (fi >= 0) return fi;
  if (!(c->m->funcs = grow(c->m->funcs, &c->funcs_cap, c->m->nfuncs + 1, sizeof(PtxFunction))))
    return ptx_perr(c, name, "out of memory");
  PtxFunction *f = &c->m->funcs[c->m->nfuncs];
  memset(f, 0, sizeof *f);
  f->name = strndup(name->p, name->len);
  if (!f->name) return ptx_perr(c, name, "out of memory");
  c->m->nfuncs++;
  if (ctx_index_func(c)) return ptx_perr(c, name, "out of memory");
  return (int32_t)c->m->nfuncs - 1;
}

static void free_params(PtxParam *p, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) free(p[i].name);
  free(p);
}

static int parse_label_def(ParseCtx *c, Tok *t) {
  uint32_t pc = c->m->ncode - c->m->funcs[c->fn].first_pc;
  for (uint32_t i = 0; i < c->nlabels; i++)
    if (c->labels[i].len == t->len && memcmp(c->labels[i].name, t->p, t->len) == 0)
      return ptx_perr(c, t, "duplicate label '%.*s'", (int)t->len, t->p);
  if (!(c->labels = grow(c->labels, &c->labels_cap, c->nlabels + 1, sizeof(LabelRef))))
    return ptx_perr(c, t, "out of memory");
  c->labels[c->nlabels++] = (LabelRef){t->p, t->len, pc, t->line, t->col};
  c->pos += 2;
  return 0;
}

static int close_scope(ParseCtx *c) {
  c->nscopes -= 2;
  c->nregs_decl = c->scope_marks[c->nscopes];
  uint32_t nsym = c->scope_marks[c->nscopes + 1];
  for (uint32_t i = nsym; i < c->m->nsyms; i++)
    if (c->m->syms[i].func == c->fn && c->m->syms[i].space != PTX_SP_SHARED)
      c->m->syms[i].func = -2; /* hidden */
  return 0;
}

static int parse_statement(ParseCtx *c) {
  Tok *t = cur(c);
  if (tok_punct(t, '{')) {
    c->pos++;
    if (!(c->scope_marks = grow(c->scope_marks, &c->scopes_cap, c->nscopes + 2, sizeof(uint32_t))))
      return ptx_perr(c, t, "out of memory");
    c->scope_marks[c->nscopes++] = c->nregs_decl;
    c->scope_marks[c->nscopes++] = c->m->nsyms;
    return 0;
  }
  if (tok_punct(t, ';')) {
    c->pos++;
    return 0;
  } /* empty statement */
  if (tok_is(t, ".reg")) {
    c->pos++;
    return parse_reg_decl(c);
  }
  if (tok_is(t, ".local")) {
    c->pos++;
    return parse_var_decl(c, PTX_SP_LOCAL, c->fn, 0);
  }
  if (tok_is(t, ".param")) {
    c->pos++;
    return parse_var_decl(c, PTX_SP_PARAM, c->fn, 0);
  }
  if (tok_is(t, ".shared")) {
    c->pos++;
    return parse_var_decl(c, PTX_SP_SHARED, c->fn, 0);
  }
  if (tok_is(t, ".const") || tok_is(t, ".global"))
    return ptx_perr(c, t, "function-scope %.*s variables are not supported", (int)t->len, t->p);
  if (tok_is(t, ".pragma")) {
    c->pos++;
    if (cur(c)->kind != TK_STRING) return ptx_perr(c, cur(c), "expected a string after .pragma");
    c->pos++;
    return expect_punct(c, ';');
  }
  if (tok_is(t, ".loc") || tok_is(t, ".file")) {
    c->pos++;
    skip_line(c, t->line);
    return 0;
  }
  if (t->kind == TK_IDENT && tok_punct(&c->toks[c->pos + 1], ':')) {
    if (tok_is(&c->toks[c->pos + 2], ".callprototype")) {
      while (cur(c)->kind != TK_EOF && !tok_punct(cur(c), ';')) c->pos++;
      return expect_punct(c, ';');
    }
    return parse_label_def(c, t);
  }
  int32_t guard = -1;
  int neg = 0;
  if (tok_punct(t, '@')) {
    c->pos++;
    if (tok_punct(cur(c), '!')) {
      neg = 1;
      c->pos++;
    }
    Tok *pt = next(c);
    uint32_t row;
    int is_pred;
    if (pt->kind != TK_IDENT || ctx_lookup_reg(c, pt->p, pt->len, &row, &is_pred) || !is_pred)
      return ptx_perr(c, pt, "expected a declared predicate register after '@'");
    guard = (int32_t)row;
    t = cur(c);
  }
  if (t->kind != TK_IDENT || t->p[0] == '.' || t->p[0] == '%')
    return ptx_perr(c, t, "expected an instruction, found '%.*s'", (int)(t->len ? t->len : 3),
                    t->len ? t->p : "EOF");
  if (!(c->m->code = grow(c->m->code, &c->code_cap, c->m->ncode + 1, sizeof(PtxInst))))
    return ptx_perr(c, t, "out of memory");
  PtxInst *in = &c->m->code[c->m->ncode];
  memset(in, 0, sizeof *in);
  in->func = (uint32_t)c->fn;
  in->line = t->line;
  if (ptx_decode_inst(c, guard, neg, in)) return -1;
  c->m->ncode++;
  return 0;
}

/* Resolves branch labels of the finished function body. */
static int finish_labels(ParseCtx *c, PtxFunction *f) {
  for (uint32_t i = 0; i < c->nbrfix; i++) {
    LabelRef *r = &c->brfix[i];
    uint32_t k;
    for (k = 0; k < c->nlabels; k++)
      if (c->labels[k].len == r->len && memcmp(c->labels[k].name, r->name, r->len) == 0) break;
    if (k == c->nlabels) {
      Tok t = {.line = r->line, .col = r->col};
      return ptx_perr(c, &t, "unknown label '%.*s'", (int)r->len, r->name);
    }
    c->m->code[r->pc].target = f->first_pc + c->labels[k].pc;
  }
  return 0;
}

static int parse_function(ParseCtx *c, int is_entry) {
  PtxParam *ret = NULL;
  uint32_t nret = 0;
  if (!is_entry && tok_punct(cur(c), '(')) {
    if (parse_params(c, &ret, &nret, 0, 0)) {
      free_params(ret, nret);
      return -1;
    }
    if (nret > 1) {
      free_params(ret, nret);
      return ptx_perr(c, cur(c), "multiple return values are not supported");
    }
  }
  Tok *nt = next(c);
  if (nt->kind != TK_IDENT) {
    free_params(ret, nret);
    return ptx_perr(c, nt, "expected a function name");
  }
  int32_t fi = find_or_add_func(c, nt);
  if (fi < 0) {
    free_params(ret, nret);
    return -1;
  }
  /* Peek whether a body follows: parameters become symbols only for a definition. */
  uint32_t save = c->pos;
  int depth = 0;
  for (; cur(c)->kind != TK_EOF; c->pos++) {
    if (tok_punct(cur(c), '('))
      depth++;
    else if (tok_punct(cur(c), ')'))
      depth--;
    else if (depth == 0 && (tok_punct(cur(c), '{') || tok_punct(cur(c), ';')))
      break;
  }
  int has_body = tok_punct(cur(c), '{');
  c->pos = save;
  PtxFunction *f = &c->m->funcs[fi];
  if (has_body && f->defined) {
    free_params(ret, nret);
    return ptx_perr(c, nt, "function '%s' defined twice", f->name);
  }
  c->fn = fi;
  c->frame_bytes = 0;
  /* The return value is a frame variable of the callee too. */
  PtxParam *params = NULL;
  uint32_t np = 0;
  if (has_body && nret) {
    int32_t si = add_sym(c, &(Tok){.p = ret[0].name, .len = (uint32_t)strlen(ret[0].name)}, PTX_SP_PARAM, fi);
    if (si < 0) {
      free_params(ret, nret);
      return -1;
    }
    PtxSymbol *s = &c->m->syms[si];
    s->size = ret[0].size;
    s->align = ret[0].align;
    s->in_frame = 1;
    c->frame_bytes = align_up32(c->frame_bytes, ret[0].align);
    s->addr = ret[0].offset = c->frame_bytes;
    c->frame_bytes += ret[0].size;
  }
  if (parse_params(c, &params, &np, has_body, is_entry)) {
    free_params(ret, nret);
    free_params(params, np);
    return -1;
  }
  f = &c->m->funcs[fi];
  free_params(f->params, f->nparams);
  free(f->ret.name);
  f->params = params;
  f->nparams = np;
  f->ret = nret ? ret[0] : (PtxParam){0};
  if (nret) ret[0].name = NULL;
  free_params(ret, nret);
  f->is_entry = is_entry;
  f->param_bytes = 0;
  if (is_entry && np) f->param_bytes = params[np - 1].offset + params[np - 1].size;
  /* performance directives */
  while (cur(c)->kind == TK_IDENT && cur(c)->p[0] == '.') {
    c->pos++;
    while (cur(c)->kind == TK_INT || tok_punct(cur(c), ',')) c->pos++;
  }
  if (tok_punct(cur(c), ';')) {
    c->pos++;
    return 0;
  }
  if (expect_punct(c, '{')) return -1;
  f->defined = 1;
  f->first_pc = c->m->ncode;
  c->nregs_decl = 0;
  c->nscopes = 0;
  c->nlabels = 0;
  c->nbrfix = 0;
  c->nregs_rows = 0;
  c->npreds = 0;
  c->nimm = 0;
  for (;;) {
    Tok *t = cur(c);
    if (t->kind == TK_EOF)
      return ptx_perr(c, t, "unterminated function body of '%s' (missing '}')", c->m->funcs[fi].name);
    if (tok_punct(t, '}')) {
      c->pos++;
      if (c->nscopes == 0) break;
      close_scope(c);
      continue;
    }
    if (parse_statement(c)) return -1;
  }
  /* A body may end in a label (or fall off its end): an implicit `ret` makes
   * every branch target and fall-through land on an instruction. */
  {
    PtxInst *last = c->m->ncode > c->m->funcs[fi].first_pc ? &c->m->code[c->m->ncode - 1] : NULL;
    int ends = last &&
               (last->op == PTX_OP_ret || last->op == PTX_OP_exit || last->op == PTX_OP_trap ||
                last->op == PTX_OP_bra) &&
               last->guard < 0;
    int label_at_end = 0;
    for (uint32_t i = 0; i < c->nlabels; i++)
      label_at_end |= c->labels[i].pc == c->m->ncode - c->m->funcs[fi].first_pc;
    if (!ends || label_at_end) {
      if (!(c->m->code = grow(c->m->code, &c->code_cap, c->m->ncode + 1, sizeof(PtxInst))))
        return ptx_perr(c, nt, "out of memory");
      PtxInst *in = &c->m->code[c->m->ncode++];
      memset(in, 0, sizeof *in);
      in->op = PTX_OP_ret;
      in->cls = PTX_CLS_CTRL;
      in->guard = -1;
      in->vec = 1;
      in->addr = PTX_NO_REG;
      for (int k = 0; k < 4; k++) in->d[k] = PTX_NO_REG;
      for (int k = 0; k < 5; k++) in->s[k] = PTX_NO_REG;
      in->func = (uint32_t)fi;
      in->line = c->toks[c->pos - 1].line;
    }
  }
  f = &c->m->funcs[fi];
  f->npc = c->m->ncode - f->first_pc;
  if (c->nregs_rows >= PTX_IMM_FLAG) return ptx_perr(c, nt, "too many registers in function '%s'", f->name);
  for (uint32_t pc = f->first_pc; pc < c->m->ncode; pc++) {
    PtxInst *in = &c->m->code[pc];
    uint16_t *ops[10] = {&in->d[0], &in->d[1], &in->d[2], &in->d[3], &in->s[0],
                         &in->s[1], &in->s[2], &in->s[3], &in->s[4], &in->addr};
    for (int k = 0; k < 10; k++)
      if (*ops[k] < 0xFFF0u && (*ops[k] & PTX_IMM_FLAG))
        *ops[k] = (uint16_t)(c->nregs_rows + (*ops[k] & 0x7FFFu));
  }
  if (finish_labels(c, f)) return -1;
  f->nregs = c->nregs_rows;
  f->npreds = c->npreds;
  f->nimm = c->nimm;
  f->local_bytes = align_up32(c->frame_bytes, 16);
  f->imm = malloc(sizeof(uint64_t) * (c->nimm ? c->nimm : 1));
  f->reg_bytes = malloc(c->nregs_rows + c->nimm + 1);
  if (!f->imm || !f->reg_bytes) return ptx_perr(c, nt, "out of memory");
  if (c->nimm) memcpy(f->imm, c->imm, sizeof(uint64_t) * c->nimm);
  if (c->nregs_rows) memcpy(f->reg_bytes, c->reg_bytes, c->nregs_rows);
  memset(f->reg_bytes + c->nregs_rows, 8, c->nimm + 1);
  /* registers per thread for occupancy: 32-bit registers, 64-bit count twice */
  uint32_t r32 = 0;
  for (uint32_t i = 0; i < c->nregs_rows; i++) r32 += c->reg_bytes[i] > 4 ? 2 : 1;
  f->regs_per_thread = r32;
  c->fn = -1;
  return 0;
}

static int parse_module(ParseCtx *c) {
  c->fn = -1;
  while (cur(c)->kind != TK_EOF) {
    Tok *t = cur(c);
    if (c->failed) return -1;
    if (tok_is(t, ".version")) {
      c->pos++;
      Tok *v = next(c);
      if (v->kind != TK_FLOAT && v->kind != TK_INT) return ptx_perr(c, v, "expected a version number");
    } else if (tok_is(t, ".target")) {
      c->pos++;
      do {
        Tok *a = next(c);
        if (a->kind != TK_IDENT) return ptx_perr(c, a, "expected a target name");
      } while (tok_punct(cur(c), ',') && (c->pos++, 1));
    } else if (tok_is(t, ".address_size")) {
      c->pos++;
      uint64_t v;
      if (expect_int(c, &v)) return -1;
      if (v != 64)
        return ptx_perr(c, t, ".address_size %llu is not supported (only 64)", (unsigned long long)v);
    } else if (tok_is(t, ".file") || tok_is(t, ".loc")) {
      c->pos++;
      skip_line(c, t->line);
    } else if (tok_is(t, ".section")) {
      c->pos++;
      while (cur(c)->kind != TK_EOF && !tok_punct(cur(c), '{')) c->pos++;
      int depth = 0;
      do {
        if (tok_punct(cur(c), '{'))
          depth++;
        else if (tok_punct(cur(c), '}'))
          depth--;
        if (cur(c)->kind == TK_EOF) return ptx_perr(c, t, "unterminated .section");
        c->pos++;
      } while (depth > 0);
    } else if (tok_is(t, ".pragma")) {
      c->pos++;
      c->pos++;
      if (expect_punct(c, ';')) return -1;
    } else {
      int is_extern = 0;
      while (tok_is(cur(c), ".visible") || tok_is(cur(c), ".extern") || tok_is(cur(c), ".weak") ||
             tok_is(cur(c), ".common")) {
        if (tok_is(cur(c), ".extern")) is_extern = 1;
        c->pos++;
      }
      t = next(c);
      if (tok_is(t, ".entry")) {
        if (parse_function(c, 1)) return -1;
      } else if (tok_is(t, ".func")) {
        if (parse_function(c, 0)) return -1;
      } else if (tok_is(t, ".global")) {
        if (parse_var_decl(c, PTX_SP_GLOBAL, -1, is_extern)) return -1;
      } else if (tok_is(t, ".const")) {
        if (parse_var_decl(c, PTX_SP_CONST, -1, is_extern)) return -1;
      } else if (tok_is(t, ".shared")) {
        if (parse_var_decl(c, PTX_SP_SHARED, -1, is_extern)) return -1;
      } else
        return ptx_perr(c, t, "expected a directive (.entry, .func, .global, ...), found '%.*s'",
                        (int)(t->len ? t->len : 3), t->len ? t->p : "EOF");
    }
  }
  return c->failed ? -1 : 0;
}

/* `make ptx` appends ptxas's register counts as comment lines
 * "//@warpsim regs <kernel> <n>"; they replace the liveness estimate. */
static void apply_reg_annotations(ParseCtx *c, const char *text) {
  PtxModule *m = c->m;
  static const char tag[] = "//@warpsim regs ";
  for (const char *p = strstr(text, tag); p; p = strstr(p + 1, tag)) {
    char name[256];
    unsigned n;
    if (sscanf(p + sizeof tag - 1, "%255s %u", name, &n) != 2 || n == 0 || n > 255) continue;
    int32_t fi = ctx_lookup_func(c, name, (uint32_t)strlen(name));
    if (fi >= 0 && m->funcs[fi].is_entry) m->funcs[fi].regs_per_thread = n, m->funcs[fi].regs_from_ptxas = 1;
  }
}

PtxModule *ptx_module_parse(const char *text, const char *name, char *err, size_t errlen) {
  ParseCtx c;
  memset(&c, 0, sizeof c);
  c.name = name ? name : "<ptx>";
  c.text = text;
  c.err = err;
  c.errlen = errlen;
  if (errlen) err[0] = 0;
  c.m = calloc(1, sizeof(PtxModule));
  if (!c.m) {
    snprintf(err, errlen, "%s: out of memory", c.name);
    return NULL;
  }
  c.m->name = strdup(c.name);
  int rc = ptx_lex(&c);
  if (!rc) rc = parse_module(&c);
  if (!rc) rc = ptx_layout_module(&c);
  free(c.toks);
  free(c.regs);
  free(c.scope_marks);
  free(c.labels);
  free(c.brfix);
  free(c.imm);
  free(c.imm_sym);
  free(c.reg_bytes);
  free(c.cfix);
  if (!rc) apply_reg_annotations(&c, text);
  ctx_free_indexes(&c);
  if (rc) {
    ptx_module_free(c.m, NULL);
    return NULL;
  }
  return c.m;
}

int ptx_module_find_function(const PtxModule *m, const char *name) {
  for (uint32_t i = 0; i < m->nfuncs; i++)
    if (strcmp(m->funcs[i].name, name) == 0) return (int)i;
  return -1;
}

const PtxSymbol *ptx_module_find_symbol(const PtxModule *m, const char *name) {
  for (uint32_t i = 0; i < m->nsyms; i++)
    if (m->syms[i].func == -1 && strcmp(m->syms[i].name, name) == 0) return &m->syms[i];
  return NULL;
}

void ptx_module_free(PtxModule *m, PtxDevMem *dev) {
  if (!m) return;
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    PtxFunction *f = &m->funcs[i];
    free(f->name);
    free(f->imm);
    free(f->reg_bytes);
    free(f->rf_base);
    free(f->pf_base);
    free_params(f->params, f->nparams);
    free(f->ret.name);
  }
  for (uint32_t i = 0; i < m->nsyms; i++) {
    PtxSymbol *s = &m->syms[i];
    if (dev && (s->space == PTX_SP_GLOBAL || s->space == PTX_SP_CONST) && s->addr) ptx_dev_free(dev, s->addr);
    free(s->name);
    free(s->init);
  }
  for (uint32_t i = 0; i < m->ncalls; i++) {
    free(m->calls[i].arg_off);
    free(m->calls[i].arg_size);
  }
  free(m->calls);
  free(m->fixes);
  free(m->funcs);
  free(m->syms);
  free(m->code);
  free(m->name);
  free(m);
}
