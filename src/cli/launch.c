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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli/cli.h"
#include "sm/gpu.h"

#define MAX_ITEMS 64

typedef struct LBuf { char name[64]; char type[8]; uint64_t count; int esize; WsDevPtr dptr; } LBuf;
typedef struct LArg { int buf; char type[8]; uint64_t bits; } LArg;
typedef struct LOut { int buf; char path[512]; long n; int is_print; } LOut;

typedef struct Launch {
  char ptx[1024], kernel[256], dir[1024];
  unsigned grid[3], block[3], shared;
  LBuf bufs[MAX_ITEMS]; int nbufs;
  LArg args[MAX_ITEMS]; int nargs;
  LOut outs[MAX_ITEMS]; int nouts;
  char *symbols[MAX_ITEMS]; int nsyms;
  WsContext *ctx;
  const char *src; int line;
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

/* Value text -> raw bits of type t. */
static int value_bits(const char *t, const char *v, uint64_t *out) {
  char *end;
  errno = 0;
  if (t[0] == 'f') {
    double d = strtod(v, &end);
    if (*end || end == v) return -1;
    if (!strcmp(t, "f32")) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); *out = u; }
    else memcpy(out, &d, 8);
    return 0;
  }
  if (t[0] == 's') { long long x = strtoll(v, &end, 0); if (*end || end == v || errno) return -1; *out = (uint64_t)x; return 0; }
  unsigned long long x = strtoull(v, &end, 0);
  if (*end || end == v || errno) return -1;
  *out = x;
  return 0;
}

static int find_buf(Launch *L, const char *n) {
  for (int i = 0; i < L->nbufs; i++) if (!strcmp(L->bufs[i].name, n)) return i;
  return -1;
}

static void resolve_path(Launch *L, const char *p, char *out, size_t len) {
  if (p[0] == '/' || !L->dir[0]) snprintf(out, len, "%s", p);
  else snprintf(out, len, "%s/%s", L->dir, p);
}

static int statement(Launch *L, char *line) {
  char *tok[16];
  int n = 0;
  for (char *s = strtok(line, " \t\r\n"); s && n < 16; s = strtok(NULL, " \t\r\n")) tok[n++] = s;
  if (!n || tok[0][0] == '#') return 0;
  const char *k = tok[0];
  if (!strcmp(k, "ptx") && n == 2) { resolve_path(L, tok[1], L->ptx, sizeof L->ptx); return 0; }
  if (!strcmp(k, "kernel") && n == 2) { snprintf(L->kernel, sizeof L->kernel, "%s", tok[1]); return 0; }
  if ((!strcmp(k, "grid") || !strcmp(k, "block")) && n >= 2 && n <= 4) {
    unsigned *d = k[0] == 'g' ? L->grid : L->block;
    for (int i = 0; i < 3; i++) {
      uint64_t v = 1;
      if (i + 1 < n && (value_bits("u32", tok[i + 1], &v) || v == 0 || v > 0x7FFFFFFF)) return lerr(L, "bad dimension '%s'", tok[i + 1]);
      d[i] = (unsigned)v;
    }
    return 0;
  }
  if (!strcmp(k, "shared") && n == 2) {
    uint64_t v;
    if (value_bits("u32", tok[1], &v)) return lerr(L, "bad shared size '%s'", tok[1]);
    L->shared = (unsigned)v;
    return 0;
  }
  if (!strcmp(k, "buffer") && n >= 4) {
    if (L->nbufs == MAX_ITEMS) return lerr(L, "too many buffers%s", "");
    LBuf *b = &L->bufs[L->nbufs];
    snprintf(b->name, sizeof b->name, "%s", tok[1]);
    snprintf(b->type, sizeof b->type, "%s", tok[2]);
    if (!(b->esize = type_size(b->type))) return lerr(L, "unknown type '%s' (valid: u8 u16 u32 u64 s8 s16 s32 s64 f32 f64)", tok[2]);
    if (value_bits("u64", tok[3], &b->count) || b->count == 0 || b->count > (1ull << 32)) return lerr(L, "bad element count '%s'", tok[3]);
    if (find_buf(L, b->name) >= 0) return lerr(L, "duplicate buffer '%s'", b->name);
    size_t bytes = (size_t)b->count * (size_t)b->esize;
    uint8_t *h = calloc(1, bytes);
    if (!h) return lerr(L, "out of memory%s", "");
    const char *init = n > 4 ? tok[4] : "zero";
    int rc = 0;
    if (!strcmp(init, "zero")) {
    } else if (!strcmp(init, "const") && n == 6) {
      uint64_t v;
      if (value_bits(b->type, tok[5], &v)) rc = lerr(L, "bad value '%s'", tok[5]);
      for (uint64_t i = 0; !rc && i < b->count; i++) memcpy(h + i * (uint64_t)b->esize, &v, (size_t)b->esize);
    } else if (!strcmp(init, "seq") && n <= 7) {
      double start = n > 5 ? atof(tok[5]) : 0, step = n > 6 ? atof(tok[6]) : 1;
      for (uint64_t i = 0; i < b->count; i++) {
        char tmp[64];
        uint64_t v;
        snprintf(tmp, sizeof tmp, b->type[0] == 'f' ? "%.17g" : "%.0f", start + step * (double)i);
        if (value_bits(b->type, tmp, &v)) { rc = lerr(L, "sequence value out of range for '%s'", b->type); break; }
        memcpy(h + i * (uint64_t)b->esize, &v, (size_t)b->esize);
      }
    } else if (!strcmp(init, "random") && (n == 6 || n == 8)) {
      uint64_t seed;
      BenchRng g;
      if (value_bits("u64", tok[5], &seed)) rc = lerr(L, "bad seed '%s'", tok[5]);
      double lo = n == 8 ? atof(tok[6]) : 0, hi = n == 8 ? atof(tok[7]) : (b->type[0] == 'f' ? 1.0 : 100.0);
      bench_rng_seed(&g, seed);
      for (uint64_t i = 0; !rc && i < b->count; i++) {
        double x = lo + (hi - lo) * ((double)(bench_rng_u64(&g) >> 11) / 9007199254740992.0);
        char tmp[64];
        uint64_t v;
        snprintf(tmp, sizeof tmp, b->type[0] == 'f' ? "%.17g" : "%.0f", b->type[0] == 'f' ? x : floor(x));
        if (value_bits(b->type, tmp, &v)) { rc = lerr(L, "random value out of range for '%s'", b->type); break; }
        memcpy(h + i * (uint64_t)b->esize, &v, (size_t)b->esize);
      }
    } else if (!strcmp(init, "file") && n == 6) {
      char p[1100];
      resolve_path(L, tok[5], p, sizeof p);
      FILE *f = fopen(p, "rb");
      if (!f) rc = lerr(L, "cannot open '%s'", p);
      else {
        size_t got = fread(h, 1, bytes, f);
        fclose(f);
        if (got != bytes) rc = lerr(L, "file '%s' is shorter than the buffer", p);
      }
    } else rc = lerr(L, "bad initialiser '%s' (valid: zero, const V, seq [START [STEP]], random SEED [LO HI], file PATH)", init);
    if (!rc && ws_mem_alloc(L->ctx, &b->dptr, bytes) != WS_SUCCESS) rc = lerr(L, "%s", ws_ctx_error(L->ctx));
    if (!rc && ws_memcpy_htod(L->ctx, b->dptr, h, bytes) != WS_SUCCESS) rc = lerr(L, "%s", ws_ctx_error(L->ctx));
    free(h);
    if (!rc) L->nbufs++;
    return rc;
  }
  if (!strcmp(k, "arg") && (n == 2 || n == 3)) {
    if (L->nargs == MAX_ITEMS) return lerr(L, "too many arguments%s", "");
    LArg *a = &L->args[L->nargs];
    if (n == 2) {
      if ((a->buf = find_buf(L, tok[1])) < 0) return lerr(L, "unknown buffer '%s' (declare it with `buffer` first)", tok[1]);
      snprintf(a->type, sizeof a->type, "u64");
      a->bits = L->bufs[a->buf].dptr;
    } else {
      a->buf = -1;
      snprintf(a->type, sizeof a->type, "%s", tok[1]);
      if (!type_size(a->type) || value_bits(a->type, tok[2], &a->bits)) return lerr(L, "bad scalar argument '%s'", tok[2]);
    }
    L->nargs++;
    return 0;
  }
  if ((!strcmp(k, "output") && n == 3) || (!strcmp(k, "print") && (n == 2 || n == 3))) {
    if (L->nouts == MAX_ITEMS) return lerr(L, "too many outputs%s", "");
    LOut *o = &L->outs[L->nouts];
    if ((o->buf = find_buf(L, tok[1])) < 0) return lerr(L, "unknown buffer '%s'", tok[1]);
    o->is_print = k[0] == 'p';
    o->n = o->is_print ? (n == 3 ? atol(tok[2]) : 16) : 0;
    if (!o->is_print) resolve_path(L, tok[2], o->path, sizeof o->path);
    L->nouts++;
    return 0;
  }
  if (!strcmp(k, "symbol") && n >= 4) {
    if (L->nsyms == MAX_ITEMS) return lerr(L, "too many symbols%s", "");
    /* re-join for later (needs the module) */
    size_t len = 0;
    char buf[2048];
    for (int i = 1; i < n; i++) len += (size_t)snprintf(buf + len, sizeof buf - len, "%s ", tok[i]);
    L->symbols[L->nsyms++] = strdup(buf);
    return 0;
  }
  return lerr(L, "unknown or malformed statement '%s' (valid: ptx, kernel, grid, block, shared, buffer, arg, output, print, symbol)", k);
}

static int set_symbols(Launch *L, WsModule *mod) {
  for (int i = 0; i < L->nsyms; i++) {
    char *save, *name = strtok_r(L->symbols[i], " ", &save), *type = strtok_r(NULL, " ", &save);
    int es = type ? type_size(type) : 0;
    WsDevPtr d = 0;   /* set by ws_module_get_global on success (initialised: LTO builds warn otherwise) */
    size_t bytes = 0;
    if (!es) { fprintf(stderr, "%s: symbol %s: bad type\n", L->src, name); return -1; }
    if (ws_module_get_global(&d, &bytes, mod, name) != WS_SUCCESS) { fprintf(stderr, "%s\n", ws_ctx_error(L->ctx)); return -1; }
    size_t off = 0;
    for (char *v = strtok_r(NULL, " ", &save); v; v = strtok_r(NULL, " ", &save), off += (size_t)es) {
      uint64_t bits;
      if (value_bits(type, v, &bits) || off + (size_t)es > bytes) { fprintf(stderr, "%s: symbol %s: bad or too many values\n", L->src, name); return -1; }
      if (ws_memcpy_htod(L->ctx, d + off, &bits, (size_t)es) != WS_SUCCESS) { fprintf(stderr, "%s\n", ws_ctx_error(L->ctx)); return -1; }
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
    if (!strcmp(b->type, "f32")) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); printf(" %.9g", (double)f); }
    else if (!strcmp(b->type, "f64")) { double d; memcpy(&d, &v, 8); printf(" %.17g", d); }
    else if (b->type[0] == 's') printf(" %lld", (long long)(b->esize == 4 ? (int64_t)(int32_t)v : (int64_t)v));
    else printf(" %llu", (unsigned long long)v);
  }
  printf("\n");
}

int cli_launch(int argc, char **argv) {
  Launch *L = calloc(1, sizeof *L);
  if (!L) return 2;
  int rc = 2;
  WsModule *mod = NULL;
  for (int i = 0; i < 3; i++) L->grid[i] = L->block[i] = 1;
  if (ws_ctx_create(&L->ctx, NULL) != WS_SUCCESS) { free(L); return 2; }
  RunOpts ro = {0};
  Config *cfg = NULL;
  Gpu *gpu = NULL;
  for (int i = 0; i < argc; i++) {
    char line[4096];
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) goto out;
    if (k) continue;
    if (argv[i][0] == '-' && argv[i][1] == '-' && i + 1 < argc) {
      L->src = "command line";
      L->line = i + 1;
      snprintf(line, sizeof line, "%s %s", argv[i] + 2, argv[i + 1]);
      i++;
      if (statement(L, line)) goto out;
    } else if (argv[i][0] != '-') {
      FILE *f = fopen(argv[i], "r");
      if (!f) { fprintf(stderr, "warpsim launch: cannot open '%s'\n", argv[i]); goto out; }
      L->src = argv[i];
      const char *slash = strrchr(argv[i], '/');
      snprintf(L->dir, sizeof L->dir, "%.*s", slash ? (int)(slash - argv[i]) : 0, argv[i]);
      L->line = 0;
      while (fgets(line, sizeof line, f)) {
        L->line++;
        if (statement(L, line)) { fclose(f); goto out; }
      }
      fclose(f);
    } else {
      fprintf(stderr, "warpsim launch: unknown option '%s' (valid: --ptx --kernel --grid --block --shared --buffer --arg --output --print --symbol)\n", argv[i]);
      goto out;
    }
  }
  if (!L->ptx[0] || !L->kernel[0]) { fprintf(stderr, "warpsim launch: need `ptx` and `kernel`\n"); goto out; }
  if (!ro.functional) {
    char err[1024];
    if (!(cfg = cli_make_config(&ro))) goto out;
    if (!(gpu = gpu_create(cfg, err, sizeof err))) { fprintf(stderr, "warpsim launch: %s\n", err); goto out; }
    ws_ctx_set_engine(L->ctx, gpu_engine_run, gpu);
  }
  WsFunction *fn;
  if (ws_module_load(L->ctx, &mod, L->ptx) != WS_SUCCESS || ws_module_get_function(&fn, mod, L->kernel) != WS_SUCCESS) {
    fprintf(stderr, "warpsim launch: %s\n", ws_ctx_error(L->ctx));
    goto out;
  }
  if (set_symbols(L, mod)) goto out;
  if (ws_function_param_count(fn) != L->nargs) {
    fprintf(stderr, "warpsim launch: kernel %s takes %d parameters, %d given\n", L->kernel, ws_function_param_count(fn), L->nargs);
    goto out;
  }
  void *params[MAX_ITEMS];
  for (int i = 0; i < L->nargs; i++) {
    size_t want = ws_function_param_size(fn, i), have = (size_t)type_size(L->args[i].type);
    if (want != have) {
      fprintf(stderr, "warpsim launch: parameter %d of %s is %zu bytes, argument %d is %s (%zu bytes)\n", i, L->kernel, want, i, L->args[i].type, have);
      goto out;
    }
    params[i] = &L->args[i].bits;
  }
  double t0 = cli_now();
  WsResult r = ws_launch_kernel(fn, L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1], L->block[2], L->shared, params);
  double dt = cli_now() - t0;
  if (r != WS_SUCCESS) { fprintf(stderr, "warpsim launch: %s: %s\n", ws_result_name(r), ws_ctx_error(L->ctx)); rc = 1; goto out; }
  const WsLaunchStats *st = ws_ctx_last_stats(L->ctx);
  printf("kernel %s: %llu warp instructions, %llu thread instructions, %llu CTAs, %llu cycles, %.3f s\n", L->kernel,
         (unsigned long long)st->warp_insts, (unsigned long long)st->thread_insts, (unsigned long long)st->ctas,
         (unsigned long long)st->cycles, dt);
  if (gpu) gpu_print_stats(gpu, stdout, false, dt);
  for (int i = 0; i < L->nouts; i++) {
    LOut *o = &L->outs[i];
    LBuf *b = &L->bufs[o->buf];
    size_t bytes = (size_t)b->count * (size_t)b->esize;
    uint8_t *h = malloc(bytes);
    if (!h || ws_memcpy_dtoh(L->ctx, h, b->dptr, bytes) != WS_SUCCESS) { free(h); goto out; }
    if (o->is_print) print_buf(L, o, h);
    else {
      char tmp[600];
      snprintf(tmp, sizeof tmp, "%s.tmp", o->path);
      FILE *f = fopen(tmp, "wb");
      int ok = f && fwrite(h, 1, bytes, f) == bytes;
      if (f && fclose(f)) ok = 0;
      if (!ok || rename(tmp, o->path)) { remove(tmp); fprintf(stderr, "warpsim launch: cannot write '%s'\n", o->path); free(h); goto out; }
    }
    free(h);
  }
  rc = 0;
out:
  for (int i = 0; i < L->nsyms; i++) free(L->symbols[i]);
  ws_ctx_destroy(L->ctx);
  gpu_free(gpu);
  cfg_free(cfg);
  free(L);
  return rc;
}
