/* opkit.h - header-only helpers for the functional-core tests (t1xx).
 *
 * Two layers:
 *  1. Kernel runner: tk_open / tk_alloc / tk_launch / tk_close around one
 *     context + one module + one kernel, with messages on failure.
 *  2. Operation harness: op_run(body, in, n, out) wraps `body` (a few PTX
 *     instructions) in a kernel where thread i sees its input triple
 *     in[i] = {a, b, c} preloaded in registers of every width:
 *        %rd10 %rd11 %rd12   (.b64)   %r10 %r11 %r12  (.b32, low halves)
 *        %rs10 %rs11 %rs12   (.b16)   %f10 %f11 %f12  (.f32, low halves)
 *        %fd10 %fd11 %fd12   (.f64)
 *     and %rd30 = address of its two 64-bit output words (zeroed before the
 *     launch). Registers %r20.. %rd20.. %f20.. %fd20.. %rs20.. %p1..%p14 are free.
 *     The ST_* macros store the usual result registers.
 *     op_check(...) compares out[i][0] (masked) against a C reference.
 *
 * Everything is static inline so that files that do not use a helper do not
 * trip -Wunused-function. */
#ifndef WS_OPKIT_H
#define WS_OPKIT_H

#include "test.h"

#include <stdarg.h>
#include <stdlib.h>

#define PTX_HEADER ".version 9.0\n.target sm_75\n.address_size 64\n\n"

typedef struct TK {
  WsContext *ctx;
  WsModule *mod;
  WsFunction *fn;
  WsDevPtr bufs[16];
  int nbufs;
} TK;

/* Creates a context (opts may be NULL), loads `ptx` (named `name` in messages) and looks up
 * `entry`. Returns 0 on success; on failure prints why and leaves *k closable. */
static inline int tk_open_opts(TK *k, const char *ptx, const char *entry, const WsContextOptions *opts) {
  memset(k, 0, sizeof *k);
  WsResult r = ws_ctx_create(&k->ctx, opts);
  if (r != WS_SUCCESS) {
    fprintf(stderr, "  ws_ctx_create: %d\n", (int)r);
    k->ctx = NULL;
    return -1;
  }
  r = ws_module_load_data(k->ctx, &k->mod, ptx, "test.ptx");
  if (r != WS_SUCCESS) {
    fprintf(stderr, "  module load failed (%s): %s\n", ws_result_name(r), ws_ctx_error(k->ctx));
    k->mod = NULL;
    return -1;
  }
  r = ws_module_get_function(&k->fn, k->mod, entry);
  if (r != WS_SUCCESS) {
    fprintf(stderr, "  get_function(%s) failed (%s): %s\n", entry, ws_result_name(r), ws_ctx_error(k->ctx));
    k->fn = NULL;
    return -1;
  }
  return 0;
}

static inline int tk_open(TK *k, const char *ptx, const char *entry) {
  return tk_open_opts(k, ptx, entry, NULL);
}

static inline void tk_close(TK *k) {
  if (k->ctx) {
    for (int i = 0; i < k->nbufs; i++) ws_mem_free(k->ctx, k->bufs[i]);
    if (k->mod) ws_module_unload(k->mod);
    ws_ctx_destroy(k->ctx);
  }
  memset(k, 0, sizeof *k);
}

/* Allocates `bytes` of device memory, filled from `init` (or zeroed when init is NULL).
 * Returns 0 on failure (and records a test failure). */
static inline WsDevPtr tk_alloc(TK *k, size_t bytes, const void *init) {
  WsDevPtr p = 0;
  if (ws_mem_alloc(k->ctx, &p, bytes) != WS_SUCCESS) {
    fprintf(stderr, "  ws_mem_alloc(%zu): %s\n", bytes, ws_ctx_error(k->ctx));
    test_failures_++;
    return 0;
  }
  if (k->nbufs < 16) k->bufs[k->nbufs++] = p;
  WsResult r = init ? ws_memcpy_htod(k->ctx, p, init, bytes) : ws_memset_d8(k->ctx, p, 0, bytes);
  if (r != WS_SUCCESS) {
    fprintf(stderr, "  init of %zu bytes: %s\n", bytes, ws_ctx_error(k->ctx));
    test_failures_++;
  }
  return p;
}

static inline int tk_get(TK *k, void *dst, WsDevPtr src, size_t bytes) {
  WsResult r = ws_memcpy_dtoh(k->ctx, dst, src, bytes);
  if (r != WS_SUCCESS) {
    fprintf(stderr, "  ws_memcpy_dtoh: %s\n", ws_ctx_error(k->ctx));
    test_failures_++;
    return -1;
  }
  return 0;
}

/* Launches and reports a failure (returns the result). */
static inline WsResult tk_launch(TK *k, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned shared, void **params) {
  WsResult r = ws_launch_kernel(k->fn, gx, gy, gz, bx, by, bz, shared, params);
  if (r != WS_SUCCESS) fprintf(stderr, "  launch failed (%s): %s\n", ws_result_name(r), ws_ctx_error(k->ctx));
  return r;
}

/* Opens, runs a kernel with parameters (out, in) on grid x block, copies `out_bytes` back.
 * `in` may be NULL (then the second parameter is 0 / unused). Returns 0 on success. */
static inline int tk_run_io(const char *ptx, const char *entry, unsigned grid, unsigned block,
                            unsigned shared, const void *in, size_t in_bytes, void *out, size_t out_bytes) {
  TK k;
  int rc = -1;
  if (tk_open(&k, ptx, entry) == 0) {
    WsDevPtr dout = tk_alloc(&k, out_bytes, NULL);
    WsDevPtr din = in ? tk_alloc(&k, in_bytes, in) : 0;
    void *params[2] = {&dout, &din};
    if (dout && tk_launch(&k, grid, 1, 1, block, 1, 1, shared, params) == WS_SUCCESS &&
        tk_get(&k, out, dout, out_bytes) == 0)
      rc = 0;
  }
  tk_close(&k);
  if (rc) test_failures_++;
  return rc;
}

/* ---------------------------------------------------------------- op harness */

#define ST_R ";\n\tst.global.b32 [%rd30], %r20;"
#define ST_RD ";\n\tst.global.b64 [%rd30], %rd20;"
#define ST_RS ";\n\tst.global.b16 [%rd30], %rs20;"
#define ST_F ";\n\tst.global.f32 [%rd30], %f20;"
#define ST_FD ";\n\tst.global.f64 [%rd30], %fd20;"
/* predicate %p1 -> second output word (0/1) */
#define ST_P2 "\n\tselp.u32 %r29, 1, 0, %p1;\n\tst.global.b32 [%rd30+8], %r29;"

static inline char *op_kernel_text(const char *body) {
  static const char *pre = PTX_HEADER ".visible .entry op_kernel(\n"
                                      "\t.param .u64 op_kernel_param_0,\n"
                                      "\t.param .u64 op_kernel_param_1,\n"
                                      "\t.param .u32 op_kernel_param_2\n"
                                      ")\n"
                                      "{\n"
                                      "\t.reg .pred \t%p<16>;\n"
                                      "\t.reg .b16 \t%rs<32>;\n"
                                      "\t.reg .b32 \t%r<32>;\n"
                                      "\t.reg .b64 \t%rd<32>;\n"
                                      "\t.reg .f32 \t%f<32>;\n"
                                      "\t.reg .f64 \t%fd<32>;\n"
                                      "\n"
                                      "\tld.param.u64 \t%rd1, [op_kernel_param_0];\n"
                                      "\tld.param.u64 \t%rd2, [op_kernel_param_1];\n"
                                      "\tld.param.u32 \t%r1, [op_kernel_param_2];\n"
                                      "\tmov.u32 \t%r2, %ctaid.x;\n"
                                      "\tmov.u32 \t%r3, %ntid.x;\n"
                                      "\tmov.u32 \t%r4, %tid.x;\n"
                                      "\tmad.lo.s32 \t%r5, %r2, %r3, %r4;\n"
                                      "\tsetp.ge.s32 \t%p15, %r5, %r1;\n"
                                      "\t@%p15 bra \t$L__op_done;\n"
                                      "\tcvta.to.global.u64 \t%rd3, %rd2;\n"
                                      "\tmul.wide.s32 \t%rd4, %r5, 24;\n"
                                      "\tadd.s64 \t%rd5, %rd3, %rd4;\n"
                                      "\tcvta.to.global.u64 \t%rd6, %rd1;\n"
                                      "\tmul.wide.s32 \t%rd7, %r5, 16;\n"
                                      "\tadd.s64 \t%rd30, %rd6, %rd7;\n"
                                      "\tld.global.u64 \t%rd10, [%rd5];\n"
                                      "\tld.global.u64 \t%rd11, [%rd5+8];\n"
                                      "\tld.global.u64 \t%rd12, [%rd5+16];\n"
                                      "\tld.global.u32 \t%r10, [%rd5];\n"
                                      "\tld.global.u32 \t%r11, [%rd5+8];\n"
                                      "\tld.global.u32 \t%r12, [%rd5+16];\n"
                                      "\tld.global.u16 \t%rs10, [%rd5];\n"
                                      "\tld.global.u16 \t%rs11, [%rd5+8];\n"
                                      "\tld.global.u16 \t%rs12, [%rd5+16];\n"
                                      "\tld.global.f32 \t%f10, [%rd5];\n"
                                      "\tld.global.f32 \t%f11, [%rd5+8];\n"
                                      "\tld.global.f32 \t%f12, [%rd5+16];\n"
                                      "\tld.global.f64 \t%fd10, [%rd5];\n"
                                      "\tld.global.f64 \t%fd11, [%rd5+8];\n"
                                      "\tld.global.f64 \t%fd12, [%rd5+16];\n"
                                      "\t// ---- body ----\n\t";
  static const char *post = "\n\t// ---- end ----\n"
                            "$L__op_done:\n"
                            "\tret;\n"
                            "}\n";
  size_t n = strlen(pre) + strlen(body) + strlen(post) + 1;
  char *s = malloc(n);
  if (!s) return NULL;
  snprintf(s, n, "%s%s%s", pre, body, post);
  return s;
}

/* Runs `body` over n input triples; out[i][0..1] receive the two output words of thread i.
 * Returns 0 on success, -1 (and prints why) on load or launch failure. */
static inline int op_run(const char *body, const uint64_t (*in)[3], int n, uint64_t (*out)[2]) {
  char *ptx = op_kernel_text(body);
  TK k;
  int rc = -1;
  if (!ptx) return -1;
  memset(out, 0, sizeof(uint64_t) * 2 * (size_t)n);
  if (tk_open(&k, ptx, "op_kernel") == 0) {
    WsDevPtr dout = tk_alloc(&k, 16 * (size_t)n, NULL);
    WsDevPtr din = tk_alloc(&k, 24 * (size_t)n, in);
    unsigned count = (unsigned)n, block = 128, grid = (count + block - 1) / block;
    void *params[3] = {&dout, &din, &count};
    if (dout && din && tk_launch(&k, grid, 1, 1, block, 1, 1, 0, params) == WS_SUCCESS &&
        tk_get(&k, out, dout, 16 * (size_t)n) == 0)
      rc = 0;
  }
  if (rc) fprintf(stderr, "  (kernel body: %s)\n", body);
  tk_close(&k);
  free(ptx);
  return rc;
}

/* Comparison of a result word with the expected one. */
typedef int (*OpEq)(uint64_t got, uint64_t exp);
static inline int op_eq_exact(uint64_t got, uint64_t exp) { return got == exp; }
static inline int op_eq_f32(uint64_t got, uint64_t exp) { /* exact bits, any NaN matches any NaN */
  float g = u2f((uint32_t)got), e = u2f((uint32_t)exp);
  if (isnan(e)) return isnan(g) && (got >> 32) == 0;
  return got == exp;
}
static inline int op_eq_f64(uint64_t got, uint64_t exp) {
  double g = u2d(got), e = u2d(exp);
  if (isnan(e)) return isnan(g);
  return got == exp;
}
/* Tolerances for .approx results: relative tol (or absolute below 1) in op_tol. */
static double op_tol = 1e-6;
static inline int op_eq_f32_tol(uint64_t got, uint64_t exp) {
  float g = u2f((uint32_t)got), e = u2f((uint32_t)exp);
  if (isnan(e)) return isnan(g);
  if (isinf(e)) return g == e;
  double err = fabs((double)g - (double)e), mag = fabs((double)e);
  return err <= op_tol * (mag > 1.0 ? mag : 1.0);
}
static inline int op_eq_f32_reltol(uint64_t got, uint64_t exp) { /* purely relative */
  float g = u2f((uint32_t)got), e = u2f((uint32_t)exp);
  if (isnan(e)) return isnan(g);
  if (isinf(e) || e == 0) return g == e;
  return fabs((double)g - (double)e) <= op_tol * fabs((double)e);
}
static inline int op_eq_f64_reltol(uint64_t got, uint64_t exp) {
  double g = u2d(got), e = u2d(exp);
  if (isnan(e)) return isnan(g);
  if (isinf(e) || e == 0) return g == e;
  return fabs(g - e) <= op_tol * fabs(e);
}
/* Both zero (either sign) or exact otherwise: for results whose zero sign the spec leaves open. */
static inline int op_eq_f32_anyzero(uint64_t got, uint64_t exp) {
  if (((uint32_t)exp & 0x7fffffffu) == 0) return ((uint32_t)got & 0x7fffffffu) == 0 && (got >> 32) == 0;
  return op_eq_f32(got, exp);
}
static inline int op_eq_f64_anyzero(uint64_t got, uint64_t exp) {
  if ((exp & 0x7fffffffffffffffull) == 0) return (got & 0x7fffffffffffffffull) == 0;
  return op_eq_f64(got, exp);
}

typedef uint64_t (*OpRef)(uint64_t a, uint64_t b, uint64_t c);

/* Runs `body` over the n input triples and compares word `word` (0 or 1) of each output,
 * masked with `mask`, with ref(a,b,c) & mask using `eq` (NULL = exact). Reports up to 6
 * mismatches with the inputs. Returns the number of mismatches (-1 if the kernel did not run). */
static inline int op_check_word(const char *body, OpRef ref, OpEq eq, uint64_t mask, int word,
                                const uint64_t (*in)[3], int n) {
  uint64_t(*out)[2] = calloc((size_t)n, sizeof *out);
  int bad = 0;
  if (!out) return -1;
  if (op_run(body, in, n, out) != 0) {
    test_failures_++;
    free(out);
    return -1;
  }
  if (!eq) eq = op_eq_exact;
  for (int i = 0; i < n; i++) {
    uint64_t got = out[i][word] & mask, exp = ref(in[i][0], in[i][1], in[i][2]) & mask;
    if (!eq(got, exp)) {
      if (bad < 6)
        fprintf(stderr,
                "  MISMATCH `%s` a=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64 ": got 0x%" PRIx64
                " expected 0x%" PRIx64 "\n",
                body, in[i][0], in[i][1], in[i][2], got, exp);
      bad++;
    }
  }
  if (bad) {
    fprintf(stderr, "  %d/%d mismatches for `%s`\n", bad, n, body);
    test_failures_++;
  }
  free(out);
  return bad;
}

static inline int op_check(const char *body, OpRef ref, OpEq eq, uint64_t mask, const uint64_t (*in)[3],
                           int n) {
  return op_check_word(body, ref, eq, mask, 0, in, n);
}

/* ---------------------------------------------------------------- input sets */

/* A growable list of triples. */
typedef struct OpVec {
  uint64_t (*v)[3];
  int n, cap;
} OpVec;

static inline void ov_add(OpVec *o, uint64_t a, uint64_t b, uint64_t c) {
  if (o->n == o->cap) {
    int cap = o->cap ? o->cap * 2 : 256;
    void *p = realloc(o->v, sizeof *o->v * (size_t)cap);
    if (!p) return;
    o->v = p;
    o->cap = cap;
  }
  o->v[o->n][0] = a;
  o->v[o->n][1] = b;
  o->v[o->n][2] = c;
  o->n++;
}
static inline void ov_free(OpVec *o) {
  free(o->v);
  o->v = NULL;
  o->n = o->cap = 0;
}
#define OV_ARGS(o) ((const uint64_t(*)[3])(o).v), (o).n

/* Deterministic xorshift64* generator. */
static inline uint64_t ov_rand(uint64_t *s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545F4914F6CDD1Dull;
}

#endif
