/* lex.c - PTX tokenizer: identifiers (with dotted modifiers and "::"),
 * integers, hex float immediates (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX), decimal
 * floats, strings and punctuation, each with line and column. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

int ptx_perr(ParseCtx *c, const Tok *t, const char *fmt, ...) {
  if (c->failed) return -1;
  c->failed = 1;
  int n = snprintf(c->err, c->errlen, "%s:%u:%u: ", c->name, t ? t->line : 0, t ? t->col : 0);
  if (n < 0 || (size_t)n >= c->errlen) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

int tok_is(const Tok *t, const char *s) {
  return t->kind == TK_IDENT && strlen(s) == t->len && memcmp(t->p, s, t->len) == 0;
}

int tok_punct(const Tok *t, char ch) { return t->kind == TK_PUNCT && t->punct == ch; }

void *grow(void *p, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap) return p;
  uint32_t nc = *cap ? *cap : 16;
  while (nc < need) nc *= 2;
  void *q = realloc(p, (size_t)nc * elem);
  if (!q) return NULL;
  memset((char *)q + (size_t)*cap * elem, 0, (size_t)(nc - *cap) * elem);
  *cap = nc;
  return q;
}

static int ident_start(int ch) { return isalpha(ch) || ch == '_' || ch == '$' || ch == '%' || ch == '.'; }
static int ident_char(int ch) { return isalnum(ch) || ch == '_' || ch == '$' || ch == '.'; }

static int hexval(int ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* Why: tokens are produced up front so the parser can look ahead freely and
 * every diagnostic can point at an exact line:column. */
int ptx_lex(ParseCtx *c) {
  const char *s = c->text;
  uint32_t line = 1, col = 1, cap = 0;
  size_t i = 0;
  c->ntok = 0;
  for (;;) {
    /* skip space and comments */
    for (;;) {
      char ch = s[i];
      if (ch == '\n') {
        line++;
        col = 1;
        i++;
      } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
        col++;
        i++;
      } else if (ch == '/' && s[i + 1] == '/') {
        while (s[i] && s[i] != '\n') i++;
      } else if (ch == '/' && s[i + 1] == '*') {
        Tok at = {.line = line, .col = col};
        i += 2;
        col += 2;
        while (s[i] && !(s[i] == '*' && s[i + 1] == '/')) {
          if (s[i] == '\n') {
            line++;
            col = 1;
          } else
            col++;
          i++;
        }
        if (!s[i]) return ptx_perr(c, &at, "unterminated comment");
        i += 2;
        col += 2;
      } else
        break;
    }
    Tok *t;
    if (!(c->toks = grow(c->toks, &cap, c->ntok + 1, sizeof(Tok)))) return ptx_perr(c, NULL, "out of memory");
    t = &c->toks[c->ntok++];
    memset(t, 0, sizeof *t);
    t->line = line;
    t->col = col;
    t->p = s + i;
    unsigned char ch = (unsigned char)s[i];
    size_t start = i;
    if (!ch) {
      t->kind = TK_EOF;
      return 0;
    }
    if (ident_start(ch)) {
      i++;
      for (;;) {
        if (ident_char((unsigned char)s[i]))
          i++;
        else if (s[i] == ':' && s[i + 1] == ':' && ident_char((unsigned char)s[i + 2]))
          i += 2;
        else
          break;
      }
      t->kind = TK_IDENT;
    } else if (isdigit(ch)) {
      if (ch == '0' && (s[i + 1] == 'f' || s[i + 1] == 'F' || s[i + 1] == 'd' || s[i + 1] == 'D') &&
          hexval((unsigned char)s[i + 2]) >= 0) {
        int digits = (s[i + 1] == 'f' || s[i + 1] == 'F') ? 8 : 16;
        t->kind = digits == 8 ? TK_F32 : TK_F64;
        i += 2;
        for (int k = 0; k < digits; k++, i++) {
          int h = hexval((unsigned char)s[i]);
          if (h < 0) {
            t->len = (uint32_t)(i - start);
            return ptx_perr(c, t, "malformed hex float immediate (expected %d hex digits)", digits);
          }
          t->ival = (t->ival << 4) | (uint64_t)h;
        }
      } else if (ch == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B') && (s[i + 2] == '0' || s[i + 2] == '1')) {
        i += 2;
        while (s[i] == '0' || s[i] == '1') {
          if (t->ival >> 63) return ptx_perr(c, t, "integer immediate out of range (more than 64 bits)");
          t->ival = (t->ival << 1) | (uint64_t)(s[i] - '0');
          i++;
        }
        t->kind = TK_INT;
        if (s[i] == 'U' || s[i] == 'u') i++;
      } else if (ch == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        if (hexval((unsigned char)s[i]) < 0) return ptx_perr(c, t, "malformed hex integer");
        while (hexval((unsigned char)s[i]) >= 0) {
          if (t->ival >> 60) return ptx_perr(c, t, "integer immediate out of range (more than 64 bits)");
          t->ival = (t->ival << 4) | (uint64_t)hexval((unsigned char)s[i]);
          i++;
        }
        t->kind = TK_INT;
        if (s[i] == 'U' || s[i] == 'u') i++;
      } else {
        size_t j = i;
        while (isdigit((unsigned char)s[j])) j++;
        if (s[j] == '.' && isdigit((unsigned char)s[j + 1])) {
          char *end;
          t->fval = strtod(s + i, &end);
          t->kind = TK_FLOAT;
          i = (size_t)(end - s);
        } else if (ch == '0' && j > i + 1) { /* octal */
          for (; i < j; i++) {
            if (s[i] > '7') return ptx_perr(c, t, "malformed octal integer");
            if (t->ival >> 61) return ptx_perr(c, t, "integer immediate out of range (more than 64 bits)");
            t->ival = t->ival * 8 + (uint64_t)(s[i] - '0');
          }
          t->kind = TK_INT;
        } else {
          for (; i < j; i++) {
            uint64_t dgt = (uint64_t)(s[i] - '0');
            if (t->ival > (UINT64_MAX - dgt) / 10)
              return ptx_perr(c, t, "integer immediate out of range (more than 64 bits)");
            t->ival = t->ival * 10 + dgt;
          }
          t->kind = TK_INT;
        }
        if (t->kind == TK_INT && (s[i] == 'U' || s[i] == 'u')) i++;
      }
      if (ident_char((unsigned char)s[i])) {
        t->len = 1;
        return ptx_perr(c, t, "malformed number");
      }
    } else if (ch == '"') {
      i++;
      while (s[i] && s[i] != '"' && s[i] != '\n') i += (s[i] == '\\' && s[i + 1]) ? 2 : 1;
      if (s[i] != '"') return ptx_perr(c, t, "unterminated string");
      i++;
      t->kind = TK_STRING;
    } else if (strchr(",;:{}[]()+-@!<>|=*", ch)) {
      t->kind = TK_PUNCT;
      t->punct = (char)ch;
      i++;
    } else {
      t->len = 1;
      if (ch >= 32 && ch < 127) return ptx_perr(c, t, "unexpected character '%c'", ch);
      return ptx_perr(c, t, "unexpected byte 0x%02x", ch);
    }
    t->len = (uint32_t)(i - start);
    col += t->len;
  }
}

int tok_expect_punct(ParseCtx *c, char ch) {
  Tok *t = tok_cur(c);
  if (!tok_punct(t, ch))
    return ptx_perr(c, t, "expected '%c', found '%.*s'", ch, (int)(t->len ? t->len : 3),
                    t->len ? t->p : "EOF");
  c->pos++;
  return 0;
}

int tok_expect_int(ParseCtx *c, uint64_t *v) {
  Tok *t = tok_cur(c);
  if (t->kind != TK_INT)
    return ptx_perr(c, t, "expected an integer, found '%.*s'", (int)(t->len ? t->len : 3),
                    t->len ? t->p : "EOF");
  *v = t->ival;
  c->pos++;
  return 0;
}

PtxType tok_type(const Tok *t) {
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
