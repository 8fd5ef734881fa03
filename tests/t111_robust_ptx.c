/* t111_robust_ptx.c - PTX front-end regressions on inputs that once broke it: constant predicates as nvcc 13
 * writes them (`mov.pred %p, -1;`), integer immediates beyond 64 bits, the location of a
 * recursion error, and a module of many kernels laid out in time and memory proportional
 * to what each kernel reaches (it was quadratic: 40,000 kernels took minutes and GBs). */
#include "common/opkit.h"

#include <stdlib.h>

#include "ptx/ptx.h"

TEST_GLOBALS;

/* mov.pred with -1 (true), 1 and 0, each stored as 0/1 */
static void test_mov_pred_constants(void) {
  static const struct {
    const char *body;
    uint64_t want;
  } cases[] = {{"mov.pred %p1, -1;" ST_P2, 1},
               {"mov.pred %p1, 1;" ST_P2, 1},
               {"mov.pred %p1, 0;" ST_P2, 0},
               {"mov.pred %p2, -1;\n\tnot.pred %p1, %p2;" ST_P2, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint64_t in[1][3] = {{0, 0, 0}}, out[1][2];
    if (op_run(cases[i].body, in, 1, out)) {
      test_failures_++;
      continue;
    }
    CHECK_EQ_U64(out[0][1], cases[i].want);
  }
}

static WsResult load(const char *src, char *msg, size_t len) {
  WsContext *ctx = NULL;
  WsModule *mod = NULL;
  if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) return WS_ERROR_OUT_OF_MEMORY;
  WsResult r = ws_module_load_data(ctx, &mod, src, "r.ptx");
  snprintf(msg, len, "%s", ws_ctx_error(ctx));
  ws_ctx_destroy(ctx);
  return r;
}

static void test_immediate_range(void) {
  static const char *bad[] = {
      "mov.u32 %r20, 99999999999999999999999" ST_R, "mov.u64 %rd20, 0x1FFFFFFFFFFFFFFFF" ST_RD,
      "mov.u64 %rd20, 0b11111111111111111111111111111111111111111111111111111111111111111" ST_RD,
      "mov.u64 %rd20, 03777777777777777777777" ST_RD, "add.s64 %rd20, %rd10, -18446744073709551616" ST_RD};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *ptx = op_kernel_text(bad[i]), msg[600];
    WsResult r = load(ptx, msg, sizeof msg);
    CHECK(r == WS_ERROR_INVALID_PTX);
    CHECK_STR_CONTAINS(msg, "integer immediate out of range");
    CHECK_STR_CONTAINS(msg, "r.ptx:49:");
    free(ptx);
  }
  /* the largest ones still load, with their exact bits */
  uint64_t in[1][3] = {{0, 0, 0}}, out[1][2];
  if (!op_run("mov.u64 %rd20, 18446744073709551615" ST_RD, in, 1, out)) CHECK_EQ_U64(out[0][0], UINT64_MAX);
  if (!op_run("mov.u64 %rd20, 0xFFFFFFFFFFFFFFFF" ST_RD, in, 1, out)) CHECK_EQ_U64(out[0][0], UINT64_MAX);
}

static void test_recursion_located(void) {
  static const char *src = PTX_HEADER ".func (.param .b32 r) f(.param .b32 a)\n" /* line 5 */
                                      "{\n"
                                      "    .reg .b32 %r<3>;\n"
                                      "    ld.param.u32 %r1, [a];\n"
                                      "    { .param .b32 pa; .param .b32 pr;\n"
                                      "    st.param.b32 [pa], %r1;\n"
                                      "    call.uni (pr), f, (pa);\n" /* line 11 */
                                      "    ld.param.b32 %r2, [pr]; }\n"
                                      "    st.param.b32 [r], %r2;\n"
                                      "    ret;\n"
                                      "}\n"
                                      ".visible .entry k()\n"
                                      "{\n"
                                      "    .reg .b32 %r<2>;\n"
                                      "    { .param .b32 pa; .param .b32 pr;\n"
                                      "    st.param.b32 [pa], %r1;\n"
                                      "    call.uni (pr), f, (pa); }\n"
                                      "    ret;\n"
                                      "}\n";
  char msg[600];
  CHECK(load(src, msg, sizeof msg) == WS_ERROR_INVALID_PTX);
  CHECK_STR_CONTAINS(msg, "r.ptx:11:");
  CHECK_STR_CONTAINS(msg, "recursive call of 'f'");
}

/* 20,000 kernels and one helper: every kernel's register layout spans what it reaches. */
static void test_many_kernels(void) {
  enum { N = 20000 };
  size_t cap = (size_t)N * 200 + 4096, n = 0;
  char *src = malloc(cap);
  if (!src) {
    test_failures_++;
    return;
  }
  n += (size_t)snprintf(src + n, cap - n,
                        "%s.func (.param .b32 r) h(.param .b32 a)\n{\n .reg .b32 %%r<2>;\n"
                        " ld.param.u32 %%r1, [a];\n st.param.b32 [r], %%r1;\n ret;\n}\n",
                        PTX_HEADER);
  for (int i = 0; i < N; i++) {
    n += (size_t)snprintf(src + n, cap - n,
                          ".visible .entry k%d(.param .u32 p%d)\n{\n .reg .b32 %%r<3>;\n"
                          " ld.param.u32 %%r1, [p%d];\n",
                          i, i, i);
    if (i == N - 1)
      n += (size_t)snprintf(src + n, cap - n,
                            " { .param .b32 pa; .param .b32 pr;\n st.param.b32 [pa], %%r1;\n"
                            " call.uni (pr), h, (pa);\n ld.param.b32 %%r2, [pr]; }\n");
    n += (size_t)snprintf(src + n, cap - n, " ret;\n}\n");
  }
  char err[512];
  PtxModule *m = ptx_module_parse(src, "many.ptx", err, sizeof err);
  CHECK(m != NULL);
  if (m) {
    CHECK_EQ_U64(m->nfuncs, N + 1);
    int fi = ptx_module_find_function(m, "k123");
    CHECK(fi >= 0);
    if (fi >= 0) CHECK_EQ_U64(m->funcs[fi].rf_n, 1);
    fi = ptx_module_find_function(m, "k19999");
    CHECK(fi >= 0);
    if (fi >= 0) {
      const PtxFunction *k = &m->funcs[fi];
      CHECK_EQ_U64(k->rf_n, (uint64_t)fi + 1); /* h (index 0) .. itself */
      CHECK(ptx_rf_base(k, 0) != UINT32_MAX);
      CHECK(ptx_rf_base(k, 1) == UINT32_MAX);
    }
    ptx_module_free(m, NULL);
  } else
    fprintf(stderr, "  %s\n", err);
  free(src);
}

int main(void) {
  TEST_RUN(test_mov_pred_constants);
  TEST_RUN(test_immediate_range);
  TEST_RUN(test_recursion_located);
  TEST_RUN(test_many_kernels);
  return TEST_DONE();
}
