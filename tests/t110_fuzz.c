/* t110_fuzz.c - fuzz regression for the PTX front end.
 *
 * Every checked-in .ptx under bench/<name>/ and tests/kernels/ (plus a built-in
 * seed) is mutated with a fixed seed: byte flips, range deletions, duplicated and
 * deleted lines, truncation, token swaps, inserted tokens and extreme numbers,
 * 1-3 mutations stacked. Every load must return WS_SUCCESS or
 * WS_ERROR_INVALID_PTX with a non-empty message (WS_ERROR_OUT_OF_MEMORY with a
 * message is tolerated for mutants that declare huge arrays), and never crash,
 * hang or trip ASan/UBSan. Loaded modules are unloaded, never launched.
 *
 * Budget: WS_FUZZ_ITERS mutants per file (default 250), stopping early after
 * WS_FUZZ_SECONDS (default 15) in total. The input being loaded is written to
 * $TMPDIR/warpsim_fuzz_last.ptx first, so a crash can be reproduced with
 *   build/rel/warpsim ... or the libFuzzer target in tests/fuzz/. */
#include "common/opkit.h"

#include <dirent.h>
#include <stdlib.h>
#include <time.h>

TEST_GLOBALS;

static const char *SEED_PTX = PTX_HEADER ".global .align 4 .u32 gtab[4] = {1, 2, 3, 4};\n"
                                         ".const .align 4 .f32 ctab[2] = {0f3F800000, 0fBF800000};\n"
                                         "\n"
                                         ".func  (.param .b32 func_retval0) helper(\n"
                                         "\t.param .b32 helper_param_0\n"
                                         ")\n"
                                         "{\n"
                                         "\t.reg .b32 \t%r<3>;\n"
                                         "\tld.param.u32 \t%r1, [helper_param_0];\n"
                                         "\tshl.b32 \t%r2, %r1, 1;\n"
                                         "\tst.param.b32 \t[func_retval0+0], %r2;\n"
                                         "\tret;\n"
                                         "}\n"
                                         "\n"
                                         ".visible .entry seed(\n"
                                         "\t.param .u64 seed_param_0,\n"
                                         "\t.param .align 8 .b8 seed_param_1[16]\n"
                                         ")\n"
                                         "{\n"
                                         "\t.local .align 4 .b8 \t__local_depot1[16];\n"
                                         "\t.reg .b64 \t%SP;\n"
                                         "\t.reg .b64 \t%SPL;\n"
                                         "\t.reg .pred \t%p<4>;\n"
                                         "\t.reg .b32 \t%r<16>;\n"
                                         "\t.reg .f32 \t%f<4>;\n"
                                         "\t.reg .b64 \t%rd<8>;\n"
                                         "\t.shared .align 4 .b8 sh[128];\n"
                                         "\n"
                                         "\tmov.u64 \t%SPL, __local_depot1;\n"
                                         "\tld.param.u64 \t%rd1, [seed_param_0];\n"
                                         "\tcvta.to.global.u64 \t%rd2, %rd1;\n"
                                         "\tmov.u32 \t%r1, %tid.x;\n"
                                         "\tsetp.lt.u32 \t%p1, %r1, 16;\n"
                                         "\t@%p1 bra \t$L__BB1_2;\n"
                                         "\tld.const.f32 \t%f1, [ctab+4];\n"
                                         "\tadd.rn.f32 \t%f2, %f1, 0f3F000000;\n"
                                         "\tmov.b32 \t%r2, %f2;\n"
                                         "\tbra.uni \t$L__BB1_3;\n"
                                         "$L__BB1_2:\n"
                                         "\t{ // callseq 0, 0\n"
                                         "\t.reg .b32 temp_param_reg;\n"
                                         "\t.param .b32 param0;\n"
                                         "\tst.param.b32 \t[param0+0], %r1;\n"
                                         "\t.param .b32 retval0;\n"
                                         "\tcall.uni (retval0), \n"
                                         "\thelper, \n"
                                         "\t(\n"
                                         "\tparam0\n"
                                         "\t);\n"
                                         "\tld.param.b32 \t%r2, [retval0+0];\n"
                                         "\t} // callseq 0\n"
                                         "$L__BB1_3:\n"
                                         "\tshfl.sync.bfly.b32 \t%r3|%p2, %r2, 1, 31, -1;\n"
                                         "\tmov.u32 \t%r4, sh;\n"
                                         "\tst.shared.u32 \t[%r4+4], %r3;\n"
                                         "\tbar.sync \t0;\n"
                                         "\tst.local.u32 \t[%SPL+8], %r3;\n"
                                         "\tatom.global.add.u32 \t%r5, [%rd2+-4], %r3;\n"
                                         "\tmul.wide.u32 \t%rd3, %r1, 4;\n"
                                         "\tadd.s64 \t%rd4, %rd2, %rd3;\n"
                                         "\tst.global.u32 \t[%rd4], %r5;\n"
                                         "\tret;\n"
                                         "}\n";

static char **files;
static int nfiles;

static void add_file(const char *path) {
  char **p = realloc(files, sizeof *files * (size_t)(nfiles + 1));
  if (!p) return;
  files = p;
  files[nfiles++] = strdup(path);
}
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static int ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}
static void scan_dir(const char *dir, int depth) {
  DIR *d = opendir(dir);
  struct dirent *e;
  if (!d) return;
  while ((e = readdir(d))) {
    char path[1024];
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (ends_with(e->d_name, ".ptx"))
      add_file(path);
    else if (depth > 0)
      scan_dir(path, depth - 1);
  }
  closedir(d);
}

/* ------------------------------------------------------------------ mutations */
typedef struct Buf {
  char *p;
  size_t n, cap;
} Buf;

static void buf_reserve(Buf *b, size_t n) {
  if (n + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < n + 1) cap *= 2;
  char *q = realloc(b->p, cap);
  if (!q) abort();
  b->p = q;
  b->cap = cap;
}
static void buf_set(Buf *b, const char *s, size_t n) {
  buf_reserve(b, n);
  memcpy(b->p, s, n);
  b->n = n;
  b->p[n] = 0;
}
static void buf_insert(Buf *b, size_t at, const char *s, size_t n) {
  buf_reserve(b, b->n + n);
  memmove(b->p + at + n, b->p + at, b->n - at);
  memcpy(b->p + at, s, n);
  b->n += n;
  b->p[b->n] = 0;
}
static void buf_erase(Buf *b, size_t at, size_t n) {
  if (at > b->n) return;
  if (n > b->n - at) n = b->n - at;
  memmove(b->p + at, b->p + at + n, b->n - at - n);
  b->n -= n;
  b->p[b->n] = 0;
}

static uint64_t rnd(uint64_t *s, uint64_t n) { return n ? ov_rand(s) % n : 0; }

static const char *const DICT[] = {".reg",
                                   ".b32",
                                   ".u64",
                                   ".f32",
                                   ".pred",
                                   ".shared",
                                   ".global",
                                   ".local",
                                   ".const",
                                   ".param",
                                   ".entry",
                                   ".func",
                                   ".visible",
                                   ".extern",
                                   ".align",
                                   ".version",
                                   ".target",
                                   "{",
                                   "}",
                                   "(",
                                   ")",
                                   "[",
                                   "]",
                                   ";",
                                   ",",
                                   "|",
                                   "!",
                                   "@",
                                   "@%p1",
                                   "%r1",
                                   "%rd1",
                                   "%f1",
                                   "%p1",
                                   "%r<",
                                   "%r<99999999>",
                                   "<",
                                   ">",
                                   "+",
                                   "-",
                                   "-1",
                                   "0x",
                                   "0f",
                                   "0d7FF0",
                                   "0fFFFFFFFF",
                                   "99999999999999999999999",
                                   "4294967296",
                                   "-2147483648",
                                   "$L__BB0_1",
                                   "$L__BB1_2:",
                                   "bra",
                                   "ret;",
                                   "exit;",
                                   "call.uni",
                                   "ld.global.u32",
                                   "st.shared.v4.u32",
                                   "mov.u32",
                                   "add.s32",
                                   "setp.lt.s32",
                                   "selp.b32",
                                   "shfl.sync.idx.b32",
                                   "bar.sync",
                                   "atom.global.cas.b64",
                                   "cvt.rn.f32.s32",
                                   "//",
                                   "/*",
                                   "*/",
                                   "\"",
                                   "\\",
                                   "\n",
                                   "\t",
                                   " ",
                                   "::",
                                   ".v4",
                                   ".v2",
                                   "{%r1, %r2}",
                                   "[%rd1+-8]",
                                   "[sh+4]",
                                   "sh",
                                   "__local_depot0",
                                   "%SPL",
                                   "%tid.x",
                                   "%laneid",
                                   "%clock64",
                                   ".b8 x[1<<30]",
                                   ".b8 x[]",
                                   "= {1, 2",
                                   "0b101",
                                   "010",
                                   "1.5e10",
                                   "0dFFFFFFFFFFFFFFFF"};
#define NDICT (sizeof DICT / sizeof DICT[0])
static const char *const NUMS[] = {"0",
                                   "-1",
                                   "4294967295",
                                   "4294967296",
                                   "18446744073709551615",
                                   "18446744073709551616",
                                   "2147483648",
                                   "-9223372036854775808",
                                   "65536",
                                   "1024",
                                   "1073741824",
                                   "99999999999",
                                   "0x7fffffff",
                                   "0xffffffffffffffff",
                                   "1000000000"};
#define NNUMS (sizeof NUMS / sizeof NUMS[0])

static size_t line_start(const Buf *b, size_t at) {
  while (at > 0 && b->p[at - 1] != '\n') at--;
  return at;
}
static size_t line_end(const Buf *b, size_t at) {
  while (at < b->n && b->p[at] != '\n') at++;
  return at < b->n ? at + 1 : at;
}
static int is_tokch(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '%' ||
         c == '.' || c == '$';
}
/* finds the token around `at`: [*s, *e) */
static void token_at(const Buf *b, size_t at, size_t *s, size_t *e) {
  size_t i = at;
  while (i < b->n && !is_tokch(b->p[i])) i++;
  if (i >= b->n) {
    *s = *e = b->n;
    return;
  }
  size_t j = i;
  while (i > 0 && is_tokch(b->p[i - 1])) i--;
  while (j < b->n && is_tokch(b->p[j])) j++;
  *s = i;
  *e = j;
}

static void mutate_once(Buf *b, uint64_t *s) {
  if (b->n == 0) {
    const char *t = DICT[rnd(s, NDICT)];
    buf_insert(b, 0, t, strlen(t));
    return;
  }
  size_t at = (size_t)rnd(s, b->n);
  switch (rnd(s, 9)) {
  case 0: /* byte flip */
    if (rnd(s, 2))
      b->p[at] = (char)(b->p[at] ^ (1 << rnd(s, 8)));
    else
      b->p[at] = (char)(1 + rnd(s, 255));
    break;
  case 1: /* delete a range */
    buf_erase(b, at, (size_t)(1 + rnd(s, 64)));
    break;
  case 2: { /* duplicate a line */
    size_t ls = line_start(b, at), le = line_end(b, at);
    char *tmp = malloc(le - ls + 1);
    if (!tmp) break;
    memcpy(tmp, b->p + ls, le - ls);
    buf_insert(b, (size_t)rnd(s, b->n + 1) > ls ? le : ls, tmp, le - ls);
    free(tmp);
    break;
  }
  case 3: /* truncate */
    b->n = at;
    b->p[at] = 0;
    break;
  case 4: { /* swap two tokens */
    size_t s1, e1, s2, e2;
    token_at(b, at, &s1, &e1);
    token_at(b, (size_t)rnd(s, b->n), &s2, &e2);
    if (s1 == e1 || s2 == e2 || s1 == s2) break;
    if (s1 > s2) {
      size_t t = s1;
      s1 = s2;
      s2 = t;
      t = e1;
      e1 = e2;
      e2 = t;
    }
    if (e1 > s2) break;
    char *t1 = strndup(b->p + s1, e1 - s1), *t2 = strndup(b->p + s2, e2 - s2);
    if (t1 && t2) {
      buf_erase(b, s2, e2 - s2);
      buf_insert(b, s2, t1, strlen(t1));
      buf_erase(b, s1, e1 - s1);
      buf_insert(b, s1, t2, strlen(t2));
    }
    free(t1);
    free(t2);
    break;
  }
  case 5: { /* insert a dictionary token */
    const char *t = DICT[rnd(s, NDICT)];
    buf_insert(b, at, t, strlen(t));
    break;
  }
  case 6: { /* replace a token by an extreme number */
    size_t s1, e1;
    token_at(b, at, &s1, &e1);
    if (s1 == e1) break;
    const char *t = NUMS[rnd(s, NNUMS)];
    buf_erase(b, s1, e1 - s1);
    buf_insert(b, s1, t, strlen(t));
    break;
  }
  case 7: { /* delete a line */
    size_t ls = line_start(b, at), le = line_end(b, at);
    buf_erase(b, ls, le - ls);
    break;
  }
  case 8: { /* replace a token by a dictionary token */
    size_t s1, e1;
    token_at(b, at, &s1, &e1);
    if (s1 == e1) break;
    const char *t = DICT[rnd(s, NDICT)];
    buf_erase(b, s1, e1 - s1);
    buf_insert(b, s1, t, strlen(t));
    break;
  }
  }
}

/* ------------------------------------------------------------------ driver */
static char last_path[1024];

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void save_last(const char *text, size_t n) {
  FILE *f = fopen(last_path, "wb");
  if (!f) return;
  fwrite(text, 1, n, f);
  fclose(f);
}

static int stats_ok, stats_invalid, stats_oom;
static double max_load_s;

/* loads one text; returns 0 when the outcome is acceptable */
static int load_one(WsContext *ctx, const char *text, size_t n, const char *what) {
  WsModule *mod = NULL;
  save_last(text, n);
  double t0 = now_s();
  WsResult r = ws_module_load_data(ctx, &mod, text, "fuzz.ptx");
  double dt = now_s() - t0;
  if (dt > max_load_s) max_load_s = dt;
  const char *msg = ws_ctx_error(ctx);
  if (r == WS_SUCCESS) {
    stats_ok++;
    ws_module_unload(mod);
    return 0;
  }
  if ((r == WS_ERROR_INVALID_PTX || r == WS_ERROR_OUT_OF_MEMORY) && msg && msg[0]) {
    if (r == WS_ERROR_OUT_OF_MEMORY)
      stats_oom++;
    else
      stats_invalid++;
    return 0;
  }
  fprintf(stderr, "  %s: %s with message \"%s\" (input saved in %s)\n", what, ws_result_name(r),
          msg ? msg : "(null)", last_path);
  return -1;
}

static void test_fuzz_corpus(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(last_path, sizeof last_path, "%s/warpsim_fuzz_last.ptx", tmp && tmp[0] ? tmp : "/tmp");
  int iters = getenv("WS_FUZZ_ITERS") ? atoi(getenv("WS_FUZZ_ITERS")) : 250;
  double budget = getenv("WS_FUZZ_SECONDS") ? atof(getenv("WS_FUZZ_SECONDS")) : 15.0;
  scan_dir("bench", 1);
  scan_dir("tests/kernels", 0);
  if (nfiles > 1) qsort(files, (size_t)nfiles, sizeof *files, cmp_str);
  fprintf(stderr, "  %d PTX files found; %d mutants each, budget %.0f s\n", nfiles, iters, budget);

  WsContext *ctx = NULL;
  if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) {
    test_failures_++;
    return;
  }
  double t_start = now_s();
  int bad = 0, done = 0;
  Buf b = {0};
  for (int fi = -1; fi < nfiles; fi++) {
    char *orig = fi < 0 ? strdup(SEED_PTX) : test_read_file(files[fi]);
    const char *name = fi < 0 ? "(built-in seed)" : files[fi];
    if (!orig) {
      fprintf(stderr, "  cannot read %s\n", name);
      test_failures_++;
      continue;
    }
    size_t on = strlen(orig);
    char what[1200];
    snprintf(what, sizeof what, "%s (unmodified)", name);
    if (load_one(ctx, orig, on, what)) bad++;
    for (int it = 0; it < iters; it++) {
      if (now_s() - t_start > budget) break;
      uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(fi + 2) + (uint64_t)it * 0x632be59bd9b4e019ull + 1;
      buf_set(&b, orig, on);
      int nm = 1 + (int)rnd(&seed, 3);
      for (int m = 0; m < nm; m++) mutate_once(&b, &seed);
      snprintf(what, sizeof what, "%s mutant %d", name, it);
      if (load_one(ctx, b.p, b.n, what) && bad++ > 20) break;
      done++;
    }
    free(orig);
  }
  free(b.p);
  ws_ctx_destroy(ctx);
  fprintf(stderr, "  %d mutants in %.1f s: %d loaded, %d invalid, %d out-of-memory; slowest load %.3f s\n",
          done, now_s() - t_start, stats_ok, stats_invalid, stats_oom, max_load_s);
  if (bad) {
    fprintf(stderr, "  %d unacceptable load results\n", bad);
    test_failures_++;
  }
  if (max_load_s > 2.0) {
    fprintf(stderr, "  a single load took %.1f s (pathological parser behaviour?)\n", max_load_s);
    test_failures_++;
  }
  for (int i = 0; i < nfiles; i++) free(files[i]);
  free(files);
  files = NULL;
  nfiles = 0;
}

/* Mutants of the seed must not leak or corrupt state between loads in one context:
 * after 200 invalid loads a valid module still loads and runs correctly. */
static void test_context_survives(void) {
  WsContext *ctx = NULL;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  Buf b = {0};
  uint64_t seed = 12345;
  if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) {
    test_failures_++;
    return;
  }
  for (int i = 0; i < 200; i++) {
    buf_set(&b, SEED_PTX, strlen(SEED_PTX));
    mutate_once(&b, &seed);
    mutate_once(&b, &seed);
    WsResult r = ws_module_load_data(ctx, &mod, b.p, "fuzz.ptx");
    if (r == WS_SUCCESS) ws_module_unload(mod);
  }
  free(b.p);
  if (ws_module_load_data(ctx, &mod, SEED_PTX, "seed.ptx") == WS_SUCCESS &&
      ws_module_get_function(&fn, mod, "seed") == WS_SUCCESS) {
    WsDevPtr buf = 0;
    uint32_t out[33];
    uint8_t pad[16] = {0};
    CHECK(ws_mem_alloc(ctx, &buf, sizeof out) == WS_SUCCESS);
    CHECK(ws_memset_d8(ctx, buf, 0, sizeof out) == WS_SUCCESS);
    WsDevPtr p = buf + 4; /* the kernel adds into [p-4] */
    void *params[2] = {&p, pad};
    WsResult r = ws_launch_kernel(fn, 1, 1, 1, 32, 1, 1, 0, params);
    CHECK(r == WS_SUCCESS);
    if (r != WS_SUCCESS) fprintf(stderr, "  %s\n", ws_ctx_error(ctx));
    if (r == WS_SUCCESS && ws_memcpy_dtoh(ctx, out, buf, sizeof out) == WS_SUCCESS) {
      /* lanes < 16: 2*tid; lanes >= 16: bits of -0.5f; shfl.bfly 1 swaps neighbours; the atom adds them all
       */
      uint32_t v[32], sum = 0;
      for (int t = 0; t < 32; t++) v[t] = t < 16 ? 2u * (uint32_t)t : 0xbf000000u;
      for (int t = 0; t < 32; t++) sum += v[t ^ 1];
      CHECK_EQ_U64(out[0], sum);
    }
    ws_mem_free(ctx, buf);
    ws_module_unload(mod);
  } else {
    fprintf(stderr, "  seed: %s\n", ws_ctx_error(ctx));
    test_failures_++;
  }
  ws_ctx_destroy(ctx);
}

int main(void) {
  TEST_RUN(test_fuzz_corpus);
  TEST_RUN(test_context_survives);
  return TEST_DONE();
}
