/* parse_int.h - internals shared by the PTX lexer, parser and instruction
 * decoder (lex.c, parse.c, parse_decl.c, symtab.c, decode.c, layout.c). Not for use outside src/ptx/.
 * Invariant: a parse error is recorded once (the first) in ParseCtx.err and
 * every function returns -1 from then on; nothing aborts. */
#ifndef PTX_PARSE_INT_H
#define PTX_PARSE_INT_H

#include <stdarg.h>

#include "ptx.h"

typedef enum TokKind { TK_EOF = 0, TK_IDENT, TK_INT, TK_F32, TK_F64, TK_FLOAT, TK_STRING, TK_PUNCT } TokKind;

typedef struct Tok {
  uint8_t kind;
  char punct; /* TK_PUNCT */
  uint32_t len;
  uint32_t line, col;
  const char *p; /* start in the source text */
  uint64_t ival; /* TK_INT value; TK_F32/TK_F64 bits */
  double fval;   /* TK_FLOAT */
} Tok;

/* One register declaration: a range %r<N> (count > 0) or a single name. */
typedef struct RegDecl {
  const char *name; /* prefix for ranges */
  uint32_t len;
  uint32_t count; /* 0 = single */
  uint32_t base;  /* first row (or predicate index) */
  uint8_t is_pred;
  uint8_t bytes;
} RegDecl;

typedef struct LabelRef {
  const char *name;
  uint32_t len;
  uint32_t pc;
  uint32_t line, col;
} LabelRef;
typedef struct CallFix {
  uint32_t pc;
  const char *name;
  uint32_t len;
  uint32_t line, col;
} CallFix;

typedef struct NameIndex {
  uint32_t *head, *next; /* head[hash & (hcap-1)], next[entry]: UINT32_MAX ends a chain */
  uint32_t hcap, ncap, n;
} NameIndex;

typedef struct ParseCtx {
  const char *name; /* file name for messages */
  const char *text;
  Tok *toks;
  uint32_t ntok, pos;
  char *err;
  size_t errlen;
  int failed;
  PtxModule *m;
  /* growable arrays */
  uint32_t code_cap, funcs_cap, syms_cap, calls_cap;
  /* current function */
  int32_t fn;
  RegDecl *regs;
  uint32_t nregs_decl, regs_cap;
  uint32_t *scope_marks; /* nregs_decl / nsyms at each open scope */
  uint32_t nscopes, scopes_cap;
  LabelRef *labels, *brfix;
  uint32_t nlabels, labels_cap, nbrfix, brfix_cap;
  uint32_t nregs_rows, npreds;
  uint64_t *imm;
  uint8_t *imm_sym; /* row holds a symbol address (never shared by dedupe) */
  uint32_t nimm, imm_cap, imm_sym_cap;
  uint8_t *reg_bytes;
  uint32_t reg_bytes_cap;
  uint32_t frame_bytes;
  /* hash indexes by name (module-wide symbols and functions): lookups stay O(1) in modules
   * of thousands of kernels; a chain lists the newest entry first */
  NameIndex sym_idx, func_idx;
  /* module-wide fixups */
  uint32_t fix_cap;
  CallFix *cfix;
  uint32_t ncfix, cfix_cap;
} ParseCtx;

/* lex.c */
int ptx_lex(ParseCtx *c);
/* Records the first error as "name:line:col: msg". Returns -1. */
int ptx_perr(ParseCtx *c, const Tok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int tok_is(const Tok *t, const char *s);
int tok_punct(const Tok *t, char ch);
void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem);
/* The parser's cursor: the token at it, and taking it (never past the EOF token). */
static inline Tok *tok_cur(ParseCtx *c) { return &c->toks[c->pos]; }
static inline Tok *tok_next(ParseCtx *c) {
  Tok *t = &c->toks[c->pos];
  if (t->kind != TK_EOF) c->pos++;
  return t;
}
/* Takes the punctuation ch (an integer: into *v) at the cursor, or records an error naming what
 * was found: 0 or -1. */
int tok_expect_punct(ParseCtx *c, char ch);
int tok_expect_int(ParseCtx *c, uint64_t *v);
/* The type a token such as ".u32" names, or PTX_T_NONE. */
PtxType tok_type(const Tok *t);
static inline uint32_t align_up32(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

/* parse_decl.c: declarations, for parse.c (each 0, or -1 with the error recorded) */
/* Adds a symbol named by token name in state space `space` (func: its function, -1 module
 * scope); its index, or -1. */
int32_t ctx_add_sym(ParseCtx *c, const Tok *name, uint8_t space, int32_t func);
/* The declaration after `.reg` (the cursor on its type). */
int ptx_parse_reg_decl(ParseCtx *c);
/* A variable declaration after its state-space directive, with any initializer. */
int ptx_parse_var_decl(ParseCtx *c, uint8_t space, int32_t func, int is_extern);
/* A parenthesised parameter list (make_syms: as symbols of the current function; entry: a kernel's). */
int ptx_parse_params(ParseCtx *c, PtxParam **out, uint32_t *nout, int make_syms, int entry);
void ptx_free_params(PtxParam *p, uint32_t n);

/* symtab.c: register / symbol lookup used by the parser, the decoder and the layout passes */
/* Adds the newest symbol (function) of the module to its name index: 0, or -1 (out of memory). */
int ctx_index_sym(ParseCtx *c);
int ctx_index_func(ParseCtx *c);
void ctx_free_indexes(ParseCtx *c);
int ctx_lookup_reg(ParseCtx *c, const char *p, uint32_t len, uint32_t *row, int *is_pred);
int32_t ctx_lookup_sym(ParseCtx *c, const char *p, uint32_t len);
/* Index of the function named p[0..len), or -1. */
int32_t ctx_lookup_func(ParseCtx *c, const char *p, uint32_t len);
/* Immediate rows are returned as PTX_IMM_FLAG|index and renumbered to
 * nregs+index when the function ends (registers may be declared late). */
#define PTX_IMM_FLAG 0x8000u
int32_t ctx_imm_row(ParseCtx *c, uint64_t value);
/* Records that instruction pc (imm_row < 0) or an immediate row holds sym's address. */
int ctx_add_symfix(ParseCtx *c, uint32_t sym, uint32_t pc, int32_t imm_row);
int32_t ctx_imm_row_unique(ParseCtx *c, uint64_t value, int is_sym);
int ctx_add_label_ref(ParseCtx *c, const Tok *t, uint32_t pc);

/* decode.c: parses one instruction statement starting at the opcode token. */
int ptx_decode_inst(ParseCtx *c, int32_t guard, int guard_neg, PtxInst *out);
/* decode_mod.c: applies modifier m of the statement at token t to in (.type modifiers collect in
 * types[*ntypes]); 0, or -1 with an error naming file:line:column. */
int ptx_apply_mod(ParseCtx *c, Tok *t, PtxInst *in, const char *m, int *ntypes, PtxType types[2]);
/* Which opcodes take .f16 (and, h2, .f16x2) operands. */
int ptx_half_supported(int op, uint32_t h2);

/* layout.c: post passes over a complete module (calls, frames, shared layout, reconvergence). */
int ptx_layout_module(ParseCtx *c);
int ptx_compute_reconvergence(PtxModule *m, uint32_t func, char *err, size_t errlen);

#endif
