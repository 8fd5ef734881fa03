/* parse.c - PTX module parser: directives, functions, statements, scopes and
 * labels. Declarations (registers, variables, parameters) are parsed by
 * parse_decl.c, instructions decoded by decode.c, and the module is finished
 * by layout.c. Produces the IR of ptx.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

/* Skips every remaining token on the line of token t (for .loc / .file). */
static void skip_line(ParseCtx *c, uint32_t line) {
  while (tok_cur(c)->kind != TK_EOF && tok_cur(c)->line == line) c->pos++;
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
  Tok *t = tok_cur(c);
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
    return ptx_parse_reg_decl(c);
  }
  if (tok_is(t, ".local")) {
    c->pos++;
    return ptx_parse_var_decl(c, PTX_SP_LOCAL, c->fn, 0);
  }
  if (tok_is(t, ".param")) {
    c->pos++;
    return ptx_parse_var_decl(c, PTX_SP_PARAM, c->fn, 0);
  }
  if (tok_is(t, ".shared")) {
    c->pos++;
    return ptx_parse_var_decl(c, PTX_SP_SHARED, c->fn, 0);
  }
  if (tok_is(t, ".const") || tok_is(t, ".global"))
    return ptx_perr(c, t, "function-scope %.*s variables are not supported", (int)t->len, t->p);
  if (tok_is(t, ".pragma")) {
    c->pos++;
    if (tok_cur(c)->kind != TK_STRING) return ptx_perr(c, tok_cur(c), "expected a string after .pragma");
    c->pos++;
    return tok_expect_punct(c, ';');
  }
  if (tok_is(t, ".loc") || tok_is(t, ".file")) {
    c->pos++;
    skip_line(c, t->line);
    return 0;
  }
  if (t->kind == TK_IDENT && tok_punct(&c->toks[c->pos + 1], ':')) {
    if (tok_is(&c->toks[c->pos + 2], ".callprototype")) {
      while (tok_cur(c)->kind != TK_EOF && !tok_punct(tok_cur(c), ';')) c->pos++;
      return tok_expect_punct(c, ';');
    }
    return parse_label_def(c, t);
  }
  int32_t guard = -1;
  int neg = 0;
  if (tok_punct(t, '@')) {
    c->pos++;
    if (tok_punct(tok_cur(c), '!')) {
      neg = 1;
      c->pos++;
    }
    Tok *pt = tok_next(c);
    uint32_t row;
    int is_pred;
    if (pt->kind != TK_IDENT || ctx_lookup_reg(c, pt->p, pt->len, &row, &is_pred) || !is_pred)
      return ptx_perr(c, pt, "expected a declared predicate register after '@'");
    guard = (int32_t)row;
    t = tok_cur(c);
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
  if (!is_entry && tok_punct(tok_cur(c), '(')) {
    if (ptx_parse_params(c, &ret, &nret, 0, 0)) {
      ptx_free_params(ret, nret);
      return -1;
    }
    if (nret > 1) {
      ptx_free_params(ret, nret);
      return ptx_perr(c, tok_cur(c), "multiple return values are not supported");
    }
  }
  Tok *nt = tok_next(c);
  if (nt->kind != TK_IDENT) {
    ptx_free_params(ret, nret);
    return ptx_perr(c, nt, "expected a function name");
  }
  int32_t fi = find_or_add_func(c, nt);
  if (fi < 0) {
    ptx_free_params(ret, nret);
    return -1;
  }
  /* Peek whether a body follows: parameters become symbols only for a definition. */
  uint32_t save = c->pos;
  int depth = 0;
  for (; tok_cur(c)->kind != TK_EOF; c->pos++) {
    if (tok_punct(tok_cur(c), '('))
      depth++;
    else if (tok_punct(tok_cur(c), ')'))
      depth--;
    else if (depth == 0 && (tok_punct(tok_cur(c), '{') || tok_punct(tok_cur(c), ';')))
      break;
  }
  int has_body = tok_punct(tok_cur(c), '{');
  c->pos = save;
  PtxFunction *f = &c->m->funcs[fi];
  if (has_body && f->defined) {
    ptx_free_params(ret, nret);
    return ptx_perr(c, nt, "function '%s' defined twice", f->name);
  }
  c->fn = fi;
  c->frame_bytes = 0;
  /* The return value is a frame variable of the callee too. */
  PtxParam *params = NULL;
  uint32_t np = 0;
  if (has_body && nret) {
    int32_t si =
        ctx_add_sym(c, &(Tok){.p = ret[0].name, .len = (uint32_t)strlen(ret[0].name)}, PTX_SP_PARAM, fi);
    if (si < 0) {
      ptx_free_params(ret, nret);
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
  if (ptx_parse_params(c, &params, &np, has_body, is_entry)) {
    ptx_free_params(ret, nret);
    ptx_free_params(params, np);
    return -1;
  }
  f = &c->m->funcs[fi];
  ptx_free_params(f->params, f->nparams);
  free(f->ret.name);
  f->params = params;
  f->nparams = np;
  f->ret = nret ? ret[0] : (PtxParam){0};
  if (nret) ret[0].name = NULL;
  ptx_free_params(ret, nret);
  f->is_entry = is_entry;
  f->param_bytes = 0;
  if (is_entry && np) f->param_bytes = params[np - 1].offset + params[np - 1].size;
  /* performance directives */
  while (tok_cur(c)->kind == TK_IDENT && tok_cur(c)->p[0] == '.') {
    c->pos++;
    while (tok_cur(c)->kind == TK_INT || tok_punct(tok_cur(c), ',')) c->pos++;
  }
  if (tok_punct(tok_cur(c), ';')) {
    c->pos++;
    return 0;
  }
  if (tok_expect_punct(c, '{')) return -1;
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
    Tok *t = tok_cur(c);
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
  while (tok_cur(c)->kind != TK_EOF) {
    Tok *t = tok_cur(c);
    if (c->failed) return -1;
    if (tok_is(t, ".version")) {
      c->pos++;
      Tok *v = tok_next(c);
      if (v->kind != TK_FLOAT && v->kind != TK_INT) return ptx_perr(c, v, "expected a version number");
    } else if (tok_is(t, ".target")) {
      c->pos++;
      do {
        Tok *a = tok_next(c);
        if (a->kind != TK_IDENT) return ptx_perr(c, a, "expected a target name");
      } while (tok_punct(tok_cur(c), ',') && (c->pos++, 1));
    } else if (tok_is(t, ".address_size")) {
      c->pos++;
      uint64_t v;
      if (tok_expect_int(c, &v)) return -1;
      if (v != 64)
        return ptx_perr(c, t, ".address_size %llu is not supported (only 64)", (unsigned long long)v);
    } else if (tok_is(t, ".file") || tok_is(t, ".loc")) {
      c->pos++;
      skip_line(c, t->line);
    } else if (tok_is(t, ".section")) {
      c->pos++;
      while (tok_cur(c)->kind != TK_EOF && !tok_punct(tok_cur(c), '{')) c->pos++;
      int depth = 0;
      do {
        if (tok_punct(tok_cur(c), '{'))
          depth++;
        else if (tok_punct(tok_cur(c), '}'))
          depth--;
        if (tok_cur(c)->kind == TK_EOF) return ptx_perr(c, t, "unterminated .section");
        c->pos++;
      } while (depth > 0);
    } else if (tok_is(t, ".pragma")) {
      c->pos++;
      c->pos++;
      if (tok_expect_punct(c, ';')) return -1;
    } else {
      int is_extern = 0;
      while (tok_is(tok_cur(c), ".visible") || tok_is(tok_cur(c), ".extern") || tok_is(tok_cur(c), ".weak") ||
             tok_is(tok_cur(c), ".common")) {
        if (tok_is(tok_cur(c), ".extern")) is_extern = 1;
        c->pos++;
      }
      t = tok_next(c);
      if (tok_is(t, ".entry")) {
        if (parse_function(c, 1)) return -1;
      } else if (tok_is(t, ".func")) {
        if (parse_function(c, 0)) return -1;
      } else if (tok_is(t, ".global")) {
        if (ptx_parse_var_decl(c, PTX_SP_GLOBAL, -1, is_extern)) return -1;
      } else if (tok_is(t, ".const")) {
        if (ptx_parse_var_decl(c, PTX_SP_CONST, -1, is_extern)) return -1;
      } else if (tok_is(t, ".shared")) {
        if (ptx_parse_var_decl(c, PTX_SP_SHARED, -1, is_extern)) return -1;
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
    free(f->zero_runs);
    ptx_free_params(f->params, f->nparams);
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
