/* launch.c - `warpsim launch`: runs any PTX kernel from a small launch file
 * (or the same statements given as flags), without writing C.
 *
 *   ptx     path/to/file.ptx          (relative to the launch file)
 *   kernel  name
 *   grid    X [Y [Z]]
 *   block   X [Y [Z]]
 *   shared  BYTES                      (dynamic shared memory)
 *   buffer  NAME TYPE COUNT INIT...    TYPE: u8 u16 u32 u64 s32 s64 f32 f64
 *           INIT: zero | const V | seq [START [STEP]] | random SEED [LO HI] | file PATH
 *   arg     NAME                       (device address of a buffer)
 *   arg     TYPE VALUE                 (scalar: u32 s32 u64 s64 f32 f64)
 *   output  NAME PATH                  (raw bytes of a buffer after the launch)
 *   print   NAME [N]                   (first N elements, default 16)
 *   symbol  NAME TYPE VALUE...         (copy values to a __device__/__constant__ variable)
 *
 * Flags: --ptx F --kernel K --grid "X Y Z" --block ... --buffer "NAME TYPE ..."
 * --arg "..." --output "NAME PATH" --print "NAME N" --symbol "..." --shared N,
 * and the run options --config C, --sched S, --set K=V, --functional (the
 * kernel runs on the timing model unless --functional is given). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/accelsim_trace.h"
#include "bench.h"
#include "cli/cli.h"
#include "core/infile.h"
#include "core/outfile.h"
#include "cli/timeline_out.h"
#include "sim/gpu.h"

#define MAX_ITEMS 64

typedef struct LBuf {
  char name[64];
  char type[8];
  uint64_t count;
  int esize;
  WsDevPtr dptr;
} LBuf;
typedef struct LArg {
  int buf;
  char type[8];
  uint64_t bits;
} LArg;
typedef struct LOut {
  int buf;
  char path[1100];
  long n;
  int is_print;
  OutFile of;
} LOut;
/* A symbol statement, kept until the module is loaded: its tokens and where it was. */
typedef struct LSym {
  char **tok;
  int n;
  char src[256];
  int line;
} LSym;

typedef struct Launch {
  char ptx[1024], kernel[256], dir[1024];
  unsigned grid[3], block[3], shared;
  LBuf bufs[MAX_ITEMS];
  int nbufs;
  LArg args[MAX_ITEMS];
  int nargs;
  LOut outs[MAX_ITEMS];
  int nouts;
  LSym syms[MAX_ITEMS];
  int nsyms;
  WsContext *ctx;
  const char *src;
  int line;
} Launch;

static int lerr(Launch *L, const char *fmt, const char *a) {
  fprintf(stderr, "%s:%d: ", L->src, L->line);
  fprintf(stderr, fmt, a);
  fputc('\n', stderr);
  return -1;
}

static int type_size(const char *t) {
  if (!strcmp(t, "u8") || !strcmp(t, "s8")) return 1;
  if (!strcmp(t, "u16") || !strcmp(t, "s16")) return 2;
  if (!strcmp(t, "u32") || !strcmp(t, "s32") || !strcmp(t, "f32")) return 4;
  if (!strcmp(t, "u64") || !strcmp(t, "s64") || !strcmp(t, "f64")) return 8;
  return 0;
}

/* A whole-token finite-or-explicitly-infinite number; -1 for anything else. */
static int parse_double(const char *v, double *out) {
  char *end;
  errno = 0;
  double d = strtod(v, &end);
  if (end == v || *end) return -1;
  if (isinf(d) && !strpbrk(v, "iI")) return -1; /* overflow, not a written "inf" */
  *out = d;
  return 0;
}

/* Value text -> raw bits of type t, checked against the type's range (never truncated). */
static int value_bits(const char *t, const char *v, uint64_t *out) {
  char *end;
  errno = 0;
  if (t[0] == 'f') {
    double d;
    if (parse_double(v, &d)) return -1;
    if (!strcmp(t, "f32")) {
      if (isfinite(d) && fabs(d) > FLT_MAX) return -1;
      float f = (float)d;
      uint32_t u;
      memcpy(&u, &f, 4);
      *out = u;
    } else
      memcpy(out, &d, 8);
    return 0;
  }
  int bits = type_size(t) * 8;
  if (!bits) return -1;
  if (t[0] == 's') {
    long long x = strtoll(v, &end, 0);
    if (*end || end == v || errno) return -1;
    if (bits < 64 && (x < -(1ll << (bits - 1)) || x >= (1ll << (bits - 1)))) return -1;
    *out = bits < 64 ? (uint64_t)x & ((1ull << bits) - 1) : (uint64_t)x;
    return 0;
  }
  while (*v == ' ' || *v == '\t') v++;
  if (*v == '-' || *v == '+') return -1; /* strtoull would wrap "-1" */
  unsigned long long x = strtoull(v, &end, 0);
  if (*end || end == v || errno) return -1;
  if (bits < 64 && x >> bits) return -1;
  *out = x;
  return 0;
}

/* A computed value -> raw bits of type t, as value_bits would give for its text (integers
 * rounded half to even like "%.0f"), without the text: a 100 M element `seq` fill takes a
 * fraction of a second. -1 when out of the type's range (or NaN for an integer type). */
static int number_bits(const char *t, double x, uint64_t *out) {
  if (t[0] == 'f') {
    if (!strcmp(t, "f32")) {
      if (isfinite(x) && fabs(x) > FLT_MAX) return -1;
      float f = (float)x;
      uint32_t u;
      memcpy(&u, &f, 4);
      *out = u;
    } else
      memcpy(out, &x, 8);
    return 0;
  }
  int bits = type_size(t) * 8;
  if (!bits || !isfinite(x)) return -1;
  double r = nearbyint(x);
  if (t[0] == 's') {
    double lo = -ldexp(1.0, bits - 1), hi = ldexp(1.0, bits - 1);
    if (r < lo || r >= hi) return -1;
    long long y = (long long)r;
    *out = bits < 64 ? (uint64_t)y & ((1ull << bits) - 1) : (uint64_t)y;
    return 0;
  }
  if (r < 0 || r >= ldexp(1.0, bits)) return -1;
  *out = (uint64_t)r;
  return 0;
}

static int find_buf(Launch *L, const char *n) {
  for (int i = 0; i < L->nbufs; i++)
    if (!strcmp(L->bufs[i].name, n)) return i;
  return -1;
}

static int resolve_path(Launch *L, const char *p, char *out, size_t len) {
  int n = (p[0] == '/' || !L->dir[0]) ? snprintf(out, len, "%s", p) : snprintf(out, len, "%s/%s", L->dir, p);
  return n < 0 || (size_t)n >= len ? lerr(L, "path too long: '%s'", p) : 0;
}

/* Splits a line into tokens (a token starting with '#' begins a comment).
 * Returns the count; *tokp is a malloc'ed array pointing into line. */
static int tokenize(char *line, char ***tokp) {
  int n = 0, cap = 16;
  char **tok = malloc(sizeof *tok * (size_t)cap);
  if (!tok) return -1;
  for (char *save = NULL, *s = strtok_r(line, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save)) {
    if (s[0] == '#') break;
    if (n == cap) {
      char **nt = realloc(tok, sizeof *tok * (size_t)(cap *= 2));
      if (!nt) {
        free(tok);
        return -1;
      }
      tok = nt;
    }
    tok[n++] = s;
  }
  *tokp = tok;
  return n;
}

/* Fills device buffer b from its initialiser, a chunk of host memory at a time
 * (a huge buffer fails at the device allocation, before any host memory is used). */
#define FILL_CHUNK (1u << 20)
static int fill_buffer(Launch *L, LBuf *b, char **tok, int n) {
  const char *init = n > 4 ? tok[4] : "zero";
  double start = 0, step = 1, lo = 0, hi = b->type[0] == 'f' ? 1.0 : 100.0;
  uint64_t cval = 0, seed = 0;
  BenchRng g;
  FILE *f = NULL;
  char p[1100];
  int kind;
  if (!strcmp(init, "zero") && n == 4)
    kind = 0;
  else if (!strcmp(init, "zero") && n == 5)
    kind = 0;
  else if (!strcmp(init, "const") && n == 6) {
    kind = 1;
    if (value_bits(b->type, tok[5], &cval)) return lerr(L, "bad value '%s' for the buffer's type", tok[5]);
  } else if (!strcmp(init, "seq") && n <= 7) {
    kind = 2;
    if (n > 5 && parse_double(tok[5], &start)) return lerr(L, "bad sequence start '%s' (a number)", tok[5]);
    if (n > 6 && parse_double(tok[6], &step)) return lerr(L, "bad sequence step '%s' (a number)", tok[6]);
  } else if (!strcmp(init, "random") && (n == 6 || n == 8)) {
    kind = 3;
    if (value_bits("u64", tok[5], &seed)) return lerr(L, "bad seed '%s' (0 to 2^64-1)", tok[5]);
    if (n == 8 && parse_double(tok[6], &lo)) return lerr(L, "bad lower bound '%s' (a number)", tok[6]);
    if (n == 8 && parse_double(tok[7], &hi)) return lerr(L, "bad upper bound '%s' (a number)", tok[7]);
    bench_rng_seed(&g, seed);
  } else if (!strcmp(init, "file") && n == 6) {
    kind = 4;
    if (resolve_path(L, tok[5], p, sizeof p)) return -1;
    if (!(f = fopen(p, "rb"))) {
      fprintf(stderr, "%s:%d: cannot open '%s': %s\n", L->src, L->line, p, strerror(errno));
      return -1;
    }
  } else
    return lerr(
        L, "bad initialiser '%s' (valid: zero, const V, seq [START [STEP]], random SEED [LO HI], file PATH)",
        init);
  uint64_t bytes = b->count * (uint64_t)b->esize;
  if (ws_mem_alloc(L->ctx, &b->dptr, (size_t)bytes) != WS_SUCCESS) {
    if (f) fclose(f);
    return lerr(L, "%s", ws_ctx_error(L->ctx));
  }
  if (kind == 0) return 0; /* device memory starts zeroed */
  uint8_t *h = malloc(FILL_CHUNK);
  if (!h) {
    if (f) fclose(f);
    return lerr(L, "out of memory%s", "");
  }
  int rc = 0;
  uint64_t per = FILL_CHUNK / (uint64_t)b->esize;
  for (uint64_t i0 = 0; !rc && i0 < b->count; i0 += per) {
    uint64_t m = b->count - i0 < per ? b->count - i0 : per;
    size_t cb = (size_t)(m * (uint64_t)b->esize);
    if (kind == 4) {
      if (fread(h, 1, cb, f) != cb) {
        rc = lerr(L, "file '%s' is shorter than the buffer", p);
        break;
      }
    } else
      for (uint64_t i = 0; i < m; i++) {
        uint64_t v = cval;
        if (kind == 2 || kind == 3) {
          double x = kind == 2 ? start + step * (double)(i0 + i)
                               : lo + (hi - lo) * ((double)(bench_rng_u64(&g) >> 11) / 9007199254740992.0);
          if (number_bits(b->type, b->type[0] == 'f' || kind == 2 ? x : floor(x), &v)) {
            char what[96];
            snprintf(what, sizeof what, "%.17g (element %llu)", x, (unsigned long long)(i0 + i));
            fprintf(stderr, "%s:%d: initial value %s out of range for '%s'\n", L->src, L->line, what,
                    b->type);
            rc = -1;
            break;
          }
        }
        memcpy(h + i * (uint64_t)b->esize, &v, (size_t)b->esize);
      }
    if (!rc && ws_memcpy_htod(L->ctx, b->dptr + i0 * (uint64_t)b->esize, h, cb) != WS_SUCCESS)
      rc = lerr(L, "%s", ws_ctx_error(L->ctx));
  }
  free(h);
  if (f) fclose(f);
  return rc;
}

static int statement_tok(Launch *L, char **tok, int n) {
  if (!n) return 0;
  const char *k = tok[0];
  if (!strcmp(k, "ptx") && n == 2) return resolve_path(L, tok[1], L->ptx, sizeof L->ptx);
  if (!strcmp(k, "kernel") && n == 2) {
    if (strlen(tok[1]) >= sizeof L->kernel) return lerr(L, "kernel name too long: '%s'", tok[1]);
    snprintf(L->kernel, sizeof L->kernel, "%s", tok[1]);
    return 0;
  }
  if ((!strcmp(k, "grid") || !strcmp(k, "block")) && n >= 2 && n <= 4) {
    int is_grid = k[0] == 'g';
    unsigned *d = is_grid ? L->grid : L->block;
    /* CUDA's limits: grid 2^31-1 x 65535 x 65535, block 1024 x 1024 x 64 (1024 threads in all) */
    static const uint64_t gmax[3] = {0x7FFFFFFF, 65535, 65535}, bmax[3] = {1024, 1024, 64};
    for (int i = 0; i < 3; i++) {
      uint64_t v = 1, max = is_grid ? gmax[i] : bmax[i];
      if (i + 1 < n && (value_bits("u32", tok[i + 1], &v) || v == 0 || v > max)) {
        fprintf(stderr, "%s:%d: bad %s dimension %c '%s' (1 to %llu)\n", L->src, L->line, k, "xyz"[i],
                tok[i + 1], (unsigned long long)max);
        return -1;
      }
      d[i] = (unsigned)v;
    }
    return 0;
  }
  if (!strcmp(k, "shared") && n == 2) {
    uint64_t v;
    if (value_bits("u32", tok[1], &v) || v > 48 * 1024)
      return lerr(L, "bad shared size '%s' (0 to 49152 bytes)", tok[1]);
    L->shared = (unsigned)v;
    return 0;
  }
  if (!strcmp(k, "buffer") && n >= 4) {
    if (L->nbufs == MAX_ITEMS) return lerr(L, "too many buffers%s", "");
    LBuf *b = &L->bufs[L->nbufs];
    if (strlen(tok[1]) >= sizeof b->name) return lerr(L, "buffer name too long: '%s'", tok[1]);
    snprintf(b->name, sizeof b->name, "%s", tok[1]);
    if (!(b->esize = type_size(tok[2])))
      return lerr(L, "unknown type '%s' (valid: u8 u16 u32 u64 s8 s16 s32 s64 f32 f64)", tok[2]);
    snprintf(b->type, sizeof b->type, "%s", tok[2]);
    if (value_bits("u64", tok[3], &b->count) || b->count == 0 || b->count > (1ull << 32))
      return lerr(L, "bad element count '%s' (1 to 2^32)", tok[3]);
    if (find_buf(L, b->name) >= 0) return lerr(L, "duplicate buffer '%s'", b->name);
    if (fill_buffer(L, b, tok, n)) return -1;
    L->nbufs++;
    return 0;
  }
  if (!strcmp(k, "arg") && (n == 2 || n == 3)) {
    if (L->nargs == MAX_ITEMS) return lerr(L, "too many arguments%s", "");
    LArg *a = &L->args[L->nargs];
    if (n == 2) {
      if ((a->buf = find_buf(L, tok[1])) < 0)
        return lerr(L, "unknown buffer '%s' (declare it with `buffer` first)", tok[1]);
      snprintf(a->type, sizeof a->type, "u64");
      a->bits = L->bufs[a->buf].dptr;
    } else {
      a->buf = -1;
      if (!type_size(tok[1]))
        return lerr(L, "unknown scalar type '%s' (valid: u32 s32 u64 s64 f32 f64)", tok[1]);
      snprintf(a->type, sizeof a->type, "%s", tok[1]);
      if (value_bits(a->type, tok[2], &a->bits)) {
        fprintf(stderr, "%s:%d: bad scalar argument '%s' (not a %s or out of its range)\n", L->src, L->line,
                tok[2], a->type);
        return -1;
      }
    }
    L->nargs++;
    return 0;
  }
  if ((!strcmp(k, "output") && n == 3) || (!strcmp(k, "print") && (n == 2 || n == 3))) {
    if (L->nouts == MAX_ITEMS) return lerr(L, "too many outputs%s", "");
    LOut *o = &L->outs[L->nouts];
    if ((o->buf = find_buf(L, tok[1])) < 0) return lerr(L, "unknown buffer '%s'", tok[1]);
    o->is_print = k[0] == 'p';
    o->n = 16;
    if (o->is_print && n == 3) {
      uint64_t v;
      if (value_bits("u64", tok[2], &v) || v > (1ull << 32)) return lerr(L, "bad element count '%s'", tok[2]);
      o->n = (long)v;
    }
    if (!o->is_print && resolve_path(L, tok[2], o->path, sizeof o->path)) return -1;
    L->nouts++;
    return 0;
  }
  if (!strcmp(k, "symbol") && n >= 4) {
    if (L->nsyms == MAX_ITEMS) return lerr(L, "too many symbols%s", "");
    /* kept (tokens copied) until the module is loaded */
    LSym *sy = &L->syms[L->nsyms];
    if (!(sy->tok = calloc((size_t)n, sizeof *sy->tok))) return lerr(L, "out of memory%s", "");
    L->nsyms++;
    for (int i = 1; i < n; i++)
      if (!(sy->tok[sy->n++] = strdup(tok[i]))) return lerr(L, "out of memory%s", "");
    snprintf(sy->src, sizeof sy->src, "%s", L->src);
    sy->line = L->line;
    return 0;
  }
  return lerr(L,
              "unknown or malformed statement '%s' (valid: ptx, kernel, grid, block, shared, buffer, arg, "
              "output, print, symbol)",
              k);
}

static int statement(Launch *L, char *line) {
  char **tok;
  int n = tokenize(line, &tok);
  if (n < 0) return lerr(L, "out of memory%s", "");
  int rc = statement_tok(L, tok, n);
  free(tok);
  return rc;
}

static int set_symbols(Launch *L, WsModule *mod) {
  for (int i = 0; i < L->nsyms; i++) {
    LSym *sy = &L->syms[i];
    const char *name = sy->tok[0], *type = sy->tok[1];
    int es = type_size(type);
    WsDevPtr d = 0; /* set by ws_module_get_global on success (initialised: LTO builds warn otherwise) */
    size_t bytes = 0;
    if (!es) {
      fprintf(stderr, "%s:%d: symbol %s: unknown type '%s'\n", sy->src, sy->line, name, type);
      return -1;
    }
    if (ws_module_get_global(&d, &bytes, mod, name) != WS_SUCCESS) {
      fprintf(stderr, "%s:%d: %s\n", sy->src, sy->line, ws_ctx_error(L->ctx));
      return -1;
    }
    size_t off = 0;
    for (int k = 2; k < sy->n; k++, off += (size_t)es) {
      uint64_t bits;
      if (off + (size_t)es > bytes) {
        fprintf(stderr, "%s:%d: symbol %s: %d values of %s do not fit its %zu bytes\n", sy->src, sy->line,
                name, sy->n - 2, type, bytes);
        return -1;
      }
      if (value_bits(type, sy->tok[k], &bits)) {
        fprintf(stderr, "%s:%d: symbol %s: bad %s value '%s'\n", sy->src, sy->line, name, type, sy->tok[k]);
        return -1;
      }
      if (ws_memcpy_htod(L->ctx, d + off, &bits, (size_t)es) != WS_SUCCESS) {
        fprintf(stderr, "%s\n", ws_ctx_error(L->ctx));
        return -1;
      }
    }
  }
  return 0;
}

static void print_buf(Launch *L, LOut *o, const uint8_t *h) {
  LBuf *b = &L->bufs[o->buf];
  uint64_t n = (uint64_t)o->n < b->count ? (uint64_t)o->n : b->count;
  printf("%s:", b->name);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t v = 0;
    memcpy(&v, h + i * (uint64_t)b->esize, (size_t)b->esize);
    if (!strcmp(b->type, "f32")) {
      float f;
      uint32_t u = (uint32_t)v;
      memcpy(&f, &u, 4);
      printf(" %.9g", (double)f);
    } else if (!strcmp(b->type, "f64")) {
      double d;
      memcpy(&d, &v, 8);
      printf(" %.17g", d);
    } else if (b->type[0] == 's')
      printf(" %lld", (long long)(b->esize == 4 ? (int64_t)(int32_t)v : (int64_t)v));
    else
      printf(" %llu", (unsigned long long)v);
  }
  printf("\n");
}

/* Frees a Launch and everything it holds (its context, symbols, unfinished outputs). */
static void launch_free(Launch *L) {
  for (int i = 0; i < L->nouts; i++) out_abort(&L->outs[i].of);
  for (int i = 0; i < L->nsyms; i++) {
    for (int k = 0; k < L->syms[i].n; k++) free(L->syms[i].tok[k]);
    free(L->syms[i].tok);
  }
  ws_ctx_destroy(L->ctx);
  free(L);
}

int cli_launch(int argc, char **argv) {
  Launch *L = calloc(1, sizeof *L);
  if (!L) return 2;
  int rc = 2;
  WsModule *mod = NULL;
  for (int i = 0; i < 3; i++) L->grid[i] = L->block[i] = 1;
  if (ws_ctx_create(&L->ctx, NULL) != WS_SUCCESS) {
    free(L);
    return 2;
  }
  RunOpts ro = {0};
  Config *cfg = NULL;
  Gpu *gpu = NULL;
  CliTimeline tl = {.gz = -1};
  AtWriter *at = NULL;
  char *line = NULL;
  size_t linecap = 0;
  for (int i = 0; i < argc; i++) {
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) goto out;
    if (k) continue;
    if (!strcmp(argv[i], "--accelsim-trace") && i + 1 < argc) {
      ro.accelsim_dir = argv[++i];
      continue;
    }
    if (argv[i][0] == '-' && argv[i][1] == '-' && i + 1 < argc) {
      L->src = "command line";
      L->line = i + 1;
      size_t need = strlen(argv[i]) + strlen(argv[i + 1]) + 2;
      if (need > linecap) {
        char *nl = realloc(line, need);
        if (!nl) {
          fprintf(stderr, "warpsim launch: out of memory\n");
          goto out;
        }
        line = nl, linecap = need;
      }
      snprintf(line, linecap, "%s %s", argv[i] + 2, argv[i + 1]);
      i++;
      if (statement(L, line)) goto out;
    } else if (argv[i][0] != '-') {
      char ierr[PATH_MAX + 64];
      FILE *f =
          in_open(argv[i], (size_t)64 << 20, ierr, sizeof ierr); /* a regular file: a FIFO would block */
      if (!f) {
        fprintf(stderr, "warpsim launch: %s\n", ierr);
        goto out;
      }
      L->src = argv[i];
      const char *slash = strrchr(argv[i], '/');
      snprintf(L->dir, sizeof L->dir, "%.*s", slash ? (int)(slash - argv[i]) : 0, argv[i]);
      L->line = 0;
      while (getline(&line, &linecap, f) >= 0) {
        L->line++;
        if (statement(L, line)) {
          fclose(f);
          goto out;
        }
      }
      int bad = ferror(f);
      fclose(f);
      if (bad) {
        fprintf(stderr, "warpsim launch: cannot read '%s'\n", argv[i]);
        goto out;
      }
    } else {
      fprintf(stderr,
              "warpsim launch: unknown option '%s' (valid: --ptx --kernel --grid --block --shared --buffer "
              "--arg --output --print --symbol --accelsim-trace)\n",
              argv[i]);
      goto out;
    }
  }
  if (!L->ptx[0] || !L->kernel[0]) {
    fprintf(stderr, "warpsim launch: need `ptx` and `kernel`\n");
    goto out;
  }
  { /* the configuration is checked in functional mode too: a typo is an error, never ignored */
    char err[1024];
    if (!(cfg = cli_make_config(&ro))) goto out;
    ws_ctx_set_max_warp_insts(L->ctx, cli_ctx_options(cfg).max_warp_insts);
    if (!(gpu = gpu_create(cfg, err, sizeof err))) {
      fprintf(stderr, "warpsim: %s\n", err);
      goto out;
    }
    if (ro.functional && strcmp(cfg_str(cfg, "timeline.file"), "none")) {
      fprintf(stderr,
              "warpsim launch: a timeline needs the timing model (drop --functional or --timeline)\n");
      goto out;
    }
    if (ro.functional)
      gpu_free(gpu), gpu = NULL;
    else
      ws_ctx_set_engine(L->ctx, gpu_engine_run, gpu);
    if (gpu && cli_timeline_open(&tl, cfg, "warpsim launch")) goto out;
    if (tl.f && gpu_timeline_start(gpu, tl.f, err, sizeof err)) {
      fprintf(stderr, "warpsim launch: timeline: %s\n", err);
      goto out;
    }
    if (ro.accelsim_dir) {
      char aerr[4200];
      if (!(at = at_create(ro.accelsim_dir, aerr, sizeof aerr))) {
        fprintf(stderr, "warpsim launch: %s\n", aerr);
        rc = 1;
        goto out;
      }
      WsObserver obs = at_observer(at);
      ws_ctx_set_observer(L->ctx, &obs);
    }
  }
  WsFunction *fn;
  if (ws_module_load(L->ctx, &mod, L->ptx) != WS_SUCCESS ||
      ws_module_get_function(&fn, mod, L->kernel) != WS_SUCCESS) {
    fprintf(stderr, "warpsim launch: %s\n", ws_ctx_error(L->ctx));
    goto out;
  }
  if (set_symbols(L, mod)) goto out;
  if (ws_function_param_count(fn) != L->nargs) {
    fprintf(stderr, "warpsim launch: kernel %s takes %d parameters, %d given\n", L->kernel,
            ws_function_param_count(fn), L->nargs);
    goto out;
  }
  void *params[MAX_ITEMS];
  for (int i = 0; i < L->nargs; i++) {
    size_t want = ws_function_param_size(fn, i), have = (size_t)type_size(L->args[i].type);
    if (want != have) {
      fprintf(stderr, "warpsim launch: parameter %d of %s is %zu bytes, argument %d is %s (%zu bytes)\n", i,
              L->kernel, want, i, L->args[i].type, have);
      goto out;
    }
    params[i] = &L->args[i].bits;
  }
  for (int i = 0; i < L->nouts; i++) { /* an unwritable output fails now, not after the run */
    char err[PATH_MAX + 128];
    if (!L->outs[i].is_print && out_open(&L->outs[i].of, L->outs[i].path, err, sizeof err)) {
      fprintf(stderr, "warpsim launch: %s\n", err);
      rc = 1;
      goto out;
    }
  }
  double t0 = cli_now();
  WsResult r = ws_launch_kernel(fn, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2],
                                L->shared, params);
  double dt = cli_now() - t0;
  const int tl_bad = cli_timeline_close(&tl, gpu, "warpsim launch"); /* also after a failed kernel */
  if (r != WS_SUCCESS) {
    fprintf(stderr, "warpsim launch: %s: %s\n", ws_result_name(r), ws_ctx_error(L->ctx));
    rc = 1;
    goto out;
  }
  if (tl_bad) {
    rc = 1;
    goto out;
  }
  if (at) {
    char aerr[4200];
    if (at_finish(at, aerr, sizeof aerr)) {
      fprintf(stderr, "warpsim launch: %s\n", aerr);
      rc = 1;
      goto out;
    }
  }
  const WsLaunchStats *st = ws_ctx_last_stats(L->ctx);
  printf("kernel %s: %llu warp instructions, %llu thread instructions, %llu CTAs, %llu cycles, %.3f s\n",
         L->kernel, (unsigned long long)st->warp_insts, (unsigned long long)st->thread_insts,
         (unsigned long long)st->ctas, (unsigned long long)st->cycles, dt);
  cli_print_regs(stdout, ws_ctx_kernel(L->ctx, 0), ws_ctx_kernel_count(L->ctx));
  if (gpu) gpu_print_stats(gpu, stdout, false, dt);
  for (int i = 0; i < L->nouts; i++) {
    LOut *o = &L->outs[i];
    LBuf *b = &L->bufs[o->buf];
    size_t bytes = (size_t)b->count * (size_t)b->esize;
    uint8_t *h = malloc(bytes);
    if (!h || ws_memcpy_dtoh(L->ctx, h, b->dptr, bytes) != WS_SUCCESS) {
      fprintf(stderr, "warpsim launch: cannot read back buffer %s: %s\n", b->name,
              h ? ws_ctx_error(L->ctx) : "out of memory");
      free(h);
      rc = 1;
      goto out;
    }
    if (o->is_print)
      print_buf(L, o, h);
    else {
      char err[PATH_MAX + 128];
      int ok = fwrite(h, 1, bytes, o->of.f) == bytes; /* a short write sets the error out_commit reports */
      if (out_commit(&o->of, err, sizeof err) || !ok) {
        fprintf(stderr, "warpsim launch: %s\n", err);
        free(h);
        rc = 1;
        goto out;
      }
    }
    free(h);
  }
  rc = 0;
out:
  cli_timeline_abort(&tl);
  free(line);
  launch_free(L);
  at_free(at);
  char cerr[PATH_MAX + 160];
  if (gpu_close(gpu, cerr, sizeof cerr)) { /* the policies' output files (profiles, traces) */
    fprintf(stderr, "warpsim launch: %s\n", cerr);
    if (!rc) rc = 1;
  }
  cfg_free(cfg);
  return rc;
}

int cli_launch_parse(const char *text, const char *name, uint64_t device_mem_limit) {
  Launch *L = calloc(1, sizeof *L);
  char *copy = strdup(text);
  WsContextOptions opts = {0};
  opts.device_mem_limit = device_mem_limit;
  if (!L || !copy || ws_ctx_create(&L->ctx, &opts) != WS_SUCCESS) {
    free(L);
    free(copy);
    return -1;
  }
  L->src = name;
  int rc = 0;
  for (char *s = copy, *next; s && !rc; s = next) {
    next = strchr(s, '\n');
    if (next) *next++ = 0;
    L->line++;
    rc = statement(L, s);
  }
  free(copy);
  launch_free(L);
  return rc;
}
