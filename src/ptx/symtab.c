/* symtab.c - the parser's name tables: symbols and functions by name (hash indexes), registers,
 * immediate rows, and the fixups that wait for the module's end. Shared by parse.c, decode.c
 * and layout.c, and calls none of them (so none of the three depends on another through it).
 * Not for use outside src/ptx/. */
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

/* ---- name indexes ---- */
static uint32_t name_hash(const char *p, uint32_t len) {
  uint32_t h = 2166136261u;
  for (uint32_t i = 0; i < len; i++) h = (h ^ (uint8_t)p[i]) * 16777619u;
  return h;
}

/* Adds entry x->n (its name from name_at) to the index, rebuilding it at twice the size
 * when it is half full. Returns 0 or -1 (out of memory). */
static int nidx_add(NameIndex *x, const char *(*name_at)(const ParseCtx *, uint32_t), const ParseCtx *c) {
  uint32_t e = x->n;
  if (!(x->next = grow(x->next, &x->ncap, e + 1, sizeof(uint32_t)))) return -1;
  if (2 * (e + 1) > x->hcap) {
    uint32_t nc = x->hcap ? x->hcap * 2 : 64;
    uint32_t *nh = malloc(sizeof(uint32_t) * nc);
    if (!nh) return -1;
    memset(nh, 0xFF, sizeof(uint32_t) * nc);
    free(x->head);
    x->head = nh;
    x->hcap = nc;
    for (uint32_t i = 0; i < e; i++) {
      const char *nm = name_at(c, i);
      uint32_t h = name_hash(nm, (uint32_t)strlen(nm)) & (nc - 1);
      x->next[i] = x->head[h];
      x->head[h] = i;
    }
  }
  const char *nm = name_at(c, e);
  uint32_t h = name_hash(nm, (uint32_t)strlen(nm)) & (x->hcap - 1);
  x->next[e] = x->head[h];
  x->head[h] = e;
  x->n++;
  return 0;
}

static const char *sym_name_at(const ParseCtx *c, uint32_t i) { return c->m->syms[i].name; }
static const char *func_name_at(const ParseCtx *c, uint32_t i) { return c->m->funcs[i].name; }
static int name_is(const char *name, const char *p, uint32_t len) {
  return strncmp(name, p, len) == 0 && name[len] == 0;
}

int ctx_index_sym(ParseCtx *c) { return nidx_add(&c->sym_idx, sym_name_at, c); }
int ctx_index_func(ParseCtx *c) { return nidx_add(&c->func_idx, func_name_at, c); }

void ctx_free_indexes(ParseCtx *c) {
  free(c->sym_idx.head), free(c->sym_idx.next);
  free(c->func_idx.head), free(c->func_idx.next);
}

/* ---- symbols and registers ---- */
/* The newest symbol of that name visible here (module scope or the current function). */
int32_t ctx_lookup_sym(ParseCtx *c, const char *p, uint32_t len) {
  if (!c->sym_idx.hcap) return -1;
  for (uint32_t i = c->sym_idx.head[name_hash(p, len) & (c->sym_idx.hcap - 1)]; i != UINT32_MAX;
       i = c->sym_idx.next[i]) {
    PtxSymbol *s = &c->m->syms[i];
    if ((s->func == -1 || s->func == c->fn) && name_is(s->name, p, len)) return (int32_t)i;
  }
  return -1;
}

int32_t ctx_lookup_func(ParseCtx *c, const char *p, uint32_t len) {
  if (!c->func_idx.hcap) return -1;
  for (uint32_t i = c->func_idx.head[name_hash(p, len) & (c->func_idx.hcap - 1)]; i != UINT32_MAX;
       i = c->func_idx.next[i])
    if (name_is(c->m->funcs[i].name, p, len)) return (int32_t)i;
  return -1;
}

int ctx_lookup_reg(ParseCtx *c, const char *p, uint32_t len, uint32_t *row, int *is_pred) {
  for (int32_t i = (int32_t)c->nregs_decl - 1; i >= 0; i--) {
    RegDecl *r = &c->regs[i];
    if (r->count == 0) {
      if (r->len == len && memcmp(r->name, p, len) == 0) {
        *row = r->base;
        *is_pred = r->is_pred;
        return 0;
      }
    } else if (len > r->len && memcmp(r->name, p, r->len) == 0) {
      uint64_t v = 0;
      uint32_t k = r->len;
      if (p[k] == '0' && len > k + 1) continue;
      for (; k < len && p[k] >= '0' && p[k] <= '9'; k++) v = v * 10 + (uint64_t)(p[k] - '0');
      if (k == len && v < r->count) {
        *row = r->base + (uint32_t)v;
        *is_pred = r->is_pred;
        return 0;
      }
    }
  }
  return -1;
}

int32_t ctx_imm_row(ParseCtx *c, uint64_t value) {
  for (uint32_t i = 0; i < c->nimm; i++)
    if (c->imm[i] == value && !c->imm_sym[i]) return (int32_t)(i | PTX_IMM_FLAG);
  return ctx_imm_row_unique(c, value, 0);
}

int32_t ctx_imm_row_unique(ParseCtx *c, uint64_t value, int is_sym) {
  if (c->nimm >= 0x7000) return -1;
  if (!(c->imm = grow(c->imm, &c->imm_cap, c->nimm + 1, sizeof(uint64_t)))) return -1;
  if (!(c->imm_sym = grow(c->imm_sym, &c->imm_sym_cap, c->nimm + 1, 1))) return -1;
  c->imm[c->nimm] = value;
  c->imm_sym[c->nimm] = (uint8_t)is_sym;
  return (int32_t)(c->nimm++ | PTX_IMM_FLAG);
}

int ctx_add_symfix(ParseCtx *c, uint32_t sym, uint32_t pc, int32_t imm_row) {
  if (!(c->m->fixes = grow(c->m->fixes, &c->fix_cap, c->m->nfixes + 1, sizeof(PtxSymFix)))) return -1;
  c->m->fixes[c->m->nfixes++] = (PtxSymFix){sym, pc, (uint32_t)c->fn, imm_row};
  return 0;
}

int ctx_add_label_ref(ParseCtx *c, const Tok *t, uint32_t pc) {
  if (!(c->brfix = grow(c->brfix, &c->brfix_cap, c->nbrfix + 1, sizeof(LabelRef))))
    return ptx_perr(c, t, "out of memory");
  c->brfix[c->nbrfix++] = (LabelRef){t->p, t->len, pc, t->line, t->col};
  return 0;
}
