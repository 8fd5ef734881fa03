/* t109_parse_errors.c - diagnostics: malformed PTX, unknown names, runtime
 * faults, bad launch arguments and barrier deadlocks.
 *
 * Parse errors must return WS_ERROR_INVALID_PTX with a message that starts with
 * (or contains) "name:line:col" of the offending token (1-based line and column;
 * the sources below use spaces only, no tabs) and says what was wrong or
 * expected. Runtime faults must name the kernel, the CTA, the thread, the PC and
 * the address. Nothing here may crash the process. */
#include "common/opkit.h"

#include <stdlib.h>

TEST_GLOBALS;

/* line numbers in BASE: the body line is line 15 */
#define BASE_HEAD                                                                                            \
  ".version 9.0\n"                                                                                           \
  ".target sm_75\n"                                                                                          \
  ".address_size 64\n"                                                                                       \
  "\n"                                                                                                       \
  ".visible .entry k(\n"                                                                                     \
  "    .param .u64 k_param_0\n"                                                                              \
  ")\n"                                                                                                      \
  "{\n"                                                                                                      \
  "    .reg .b32 %r<4>;\n"                                                                                   \
  "    .reg .b64 %rd<4>;\n"                                                                                  \
  "\n"                                                                                                       \
  "    ld.param.u64 %rd1, [k_param_0];\n"                                                                    \
  "    cvta.to.global.u64 %rd1, %rd1;\n"                                                                     \
  "    mov.u32 %r1, %tid.x;\n"
#define BASE_TAIL                                                                                            \
  "    st.global.u32 [%rd1], %r1;\n"                                                                         \
  "    ret;\n"                                                                                               \
  "}\n"

static int contains_ci(const char *hay, const char *needle) { return hay && strcasestr(hay, needle) != NULL; }

/* Loads `src`; expects WS_ERROR_INVALID_PTX and a message containing each of the given needles
 * (NULL-terminated list; case-insensitive). */
static void expect_invalid(const char *what, const char *src, ...) {
  WsContext *ctx = NULL;
  WsModule *mod = NULL;
  if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) {
    test_failures_++;
    return;
  }
  WsResult r = ws_module_load_data(ctx, &mod, src, "bad.ptx");
  const char *msg = ws_ctx_error(ctx);
  if (r != WS_ERROR_INVALID_PTX) {
    fprintf(stderr, "  %s: expected WS_ERROR_INVALID_PTX, got %s (%s)\n", what, ws_result_name(r), msg);
    test_failures_++;
    if (r == WS_SUCCESS && mod) ws_module_unload(mod);
  } else {
    va_list ap;
    va_start(ap, src);
    for (const char *n; (n = va_arg(ap, const char *));) {
      if (!contains_ci(msg, n)) {
        fprintf(stderr, "  %s: message \"%s\" lacks \"%s\"\n", what, msg, n);
        test_failures_++;
      }
    }
    va_end(ap);
    fprintf(stderr, "  ok: %s -> %s\n", what, msg);
  }
  ws_ctx_destroy(ctx);
}

/* the same, but one of two locations is acceptable */
static void expect_invalid_at2(const char *what, const char *src, const char *loc1, const char *loc2,
                               const char *needle) {
  WsContext *ctx = NULL;
  WsModule *mod = NULL;
  if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) {
    test_failures_++;
    return;
  }
  WsResult r = ws_module_load_data(ctx, &mod, src, "bad.ptx");
  const char *msg = ws_ctx_error(ctx);
  if (r != WS_ERROR_INVALID_PTX) {
    fprintf(stderr, "  %s: expected WS_ERROR_INVALID_PTX, got %s (%s)\n", what, ws_result_name(r), msg);
    test_failures_++;
    if (r == WS_SUCCESS && mod) ws_module_unload(mod);
  } else {
    if (!contains_ci(msg, loc1) && !contains_ci(msg, loc2)) {
      fprintf(stderr, "  %s: message \"%s\" has neither \"%s\" nor \"%s\"\n", what, msg, loc1, loc2);
      test_failures_++;
    }
    if (needle && !contains_ci(msg, needle)) {
      fprintf(stderr, "  %s: message \"%s\" lacks \"%s\"\n", what, msg, needle);
      test_failures_++;
    }
    fprintf(stderr, "  ok: %s -> %s\n", what, msg);
  }
  ws_ctx_destroy(ctx);
}

static void test_base_is_valid(void) {
  TK k;
  CHECK(tk_open(&k, BASE_HEAD BASE_TAIL, "k") == 0);
  tk_close(&k);
}

static void test_unknown_opcode(void) {
  expect_invalid("unknown opcode", BASE_HEAD "    frobnicate.u32 %r2, %r1;\n" BASE_TAIL, "bad.ptx:15:5",
                 "frobnicate", NULL);
}

static void test_bad_operand(void) {
  /* missing operand: the ';' at column 23 is where an operand was expected */
  expect_invalid("missing operand", BASE_HEAD "    add.u32 %r2, %r1, ;\n" BASE_TAIL, "bad.ptx:15:23",
                 "expect", NULL);
  /* a 64-bit register where the instruction type is .u32 (ptxas: "Arguments mismatch for instruction 'add'")
   */
  expect_invalid("operand of the wrong width", BASE_HEAD "    add.u32 %r2, %rd1, 1;\n" BASE_TAIL,
                 "bad.ptx:15:18", "%rd1", NULL);
  /* an address where a register is expected */
  expect_invalid("address as ALU operand", BASE_HEAD "    add.u32 %r2, [%rd1], 1;\n" BASE_TAIL,
                 "bad.ptx:15:18", NULL);
  /* garbage type suffix */
  expect_invalid("unknown type", BASE_HEAD "    add.u33 %r2, %r1, 1;\n" BASE_TAIL, "bad.ptx:15:5", "u33",
                 NULL);
}

static void test_undeclared_register(void) {
  expect_invalid("undeclared register", BASE_HEAD "    add.u32 %r2, %r9, 1;\n" BASE_TAIL, "bad.ptx:15:18",
                 "%r9", NULL);
  expect_invalid("undeclared register name", BASE_HEAD "    add.u32 %foo, %r1, 1;\n" BASE_TAIL,
                 "bad.ptx:15:13", "%foo", NULL);
}

static void test_missing_semicolon(void) {
  /* the offending token is `st.global.u32` on the next line (16:5); the end of line 15 (15:24) is accepted
   * too */
  expect_invalid_at2("missing semicolon", BASE_HEAD "    add.u32 %r2, %r1, 1\n" BASE_TAIL, "bad.ptx:16:5",
                     "bad.ptx:15:24", "expect");
}

static void test_unterminated_block(void) {
  /* no closing brace: the error is at the end of the text (line 18, column 1) */
  expect_invalid("unterminated block",
                 BASE_HEAD "    add.u32 %r2, %r1, 1;\n    st.global.u32 [%rd1], %r1;\n    ret;\n",
                 "bad.ptx:18:", NULL);
  /* an unterminated nested scope */
  expect_invalid("unterminated nested scope",
                 BASE_HEAD "    {\n    add.u32 %r2, %r1, 1;\n    st.global.u32 [%rd1], %r1;\n    ret;\n}\n",
                 "bad.ptx:", NULL);
}

static void test_bad_reg_decl(void) {
  static const char *src = ".version 9.0\n"
                           ".target sm_75\n"
                           ".address_size 64\n"
                           "\n"
                           ".visible .entry k(\n"
                           "    .param .u64 k_param_0\n"
                           ")\n"
                           "{\n"
                           "    .reg .b33 %r<4>;\n"
                           "    ret;\n"
                           "}\n";
  expect_invalid("bad .reg type", src, "bad.ptx:9:10", NULL);
  static const char *src2 = ".version 9.0\n"
                            ".target sm_75\n"
                            ".address_size 64\n"
                            "\n"
                            ".visible .entry k(\n"
                            "    .param .u64 k_param_0\n"
                            ")\n"
                            "{\n"
                            "    .reg .b32 %r<;\n"
                            "    ret;\n"
                            "}\n";
  expect_invalid("bad .reg range", src2, "bad.ptx:9:", NULL);
  static const char *src3 = ".version 9.0\n"
                            ".target sm_75\n"
                            ".address_size 64\n"
                            "\n"
                            ".visible .entry k(\n"
                            "    .param .u64 k_param_0\n"
                            ")\n"
                            "{\n"
                            "    .reg %r<4>;\n"
                            "    ret;\n"
                            "}\n";
  expect_invalid("missing .reg type", src3, "bad.ptx:9:", NULL);
}

static void test_duplicate_label(void) {
  expect_invalid("duplicate label",
                 BASE_HEAD "$L__x:\n    add.u32 %r2, %r1, 1;\n$L__x:\n    add.u32 %r2, %r1, 2;\n" BASE_TAIL,
                 "bad.ptx:17:1", "$L__x", NULL);
}

static void test_unknown_label(void) {
  expect_invalid("unknown label", BASE_HEAD "    bra.uni $L__nowhere;\n" BASE_TAIL, "bad.ptx:15:13",
                 "$L__nowhere", NULL);
}

static void test_misc_syntax(void) {
  expect_invalid("unknown directive", ".version 9.0\n.target sm_75\n.address_size 64\n.bogus 3;\n",
                 "bad.ptx:4:1", "bogus", NULL);
  expect_invalid("unbalanced bracket", BASE_HEAD "    ld.global.u32 %r2, [%rd1;\n" BASE_TAIL,
                 "bad.ptx:15:", NULL);
  expect_invalid("undeclared symbol in address", BASE_HEAD "    ld.global.u32 %r2, [nosuchvar];\n" BASE_TAIL,
                 "bad.ptx:15:", "nosuchvar", NULL);
  expect_invalid("garbage character", BASE_HEAD "    add.u32 %r2, %r1, 1; @@@\n" BASE_TAIL,
                 "bad.ptx:15:", NULL);
  expect_invalid("unterminated comment", BASE_HEAD "    /* no end\n" BASE_TAIL, "bad.ptx:15:5", NULL);
}

/* nothing but garbage, an empty module, binary junk: no crash, an error or an empty module */
static void test_degenerate_inputs(void) {
  static const char *srcs[] = {"",
                               "\n\n",
                               "}",
                               "{",
                               ";;;;",
                               ".version",
                               ".version 9.0\n.target",
                               "\x01\x02\xff\xfe",
                               ".entry",
                               ".visible .entry k(",
                               ".visible .entry k() {",
                               "%r1"};
  for (unsigned i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
    WsContext *ctx = NULL;
    WsModule *mod = NULL;
    if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) {
      test_failures_++;
      continue;
    }
    WsResult r = ws_module_load_data(ctx, &mod, srcs[i], "bad.ptx");
    if (r == WS_SUCCESS) {
      ws_module_unload(mod);
    } else if (r != WS_ERROR_INVALID_PTX || ws_ctx_error(ctx)[0] == 0) {
      fprintf(stderr, "  input %u: %s \"%s\"\n", i, ws_result_name(r), ws_ctx_error(ctx));
      test_failures_++;
    }
    ws_ctx_destroy(ctx);
  }
}

/* ------------------------------------------------------------------ names and API misuse */
static void test_unknown_kernel(void) {
  WsContext *ctx = NULL;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) {
    test_failures_++;
    return;
  }
  if (ws_module_load_data(ctx, &mod, BASE_HEAD BASE_TAIL, "good.ptx") == WS_SUCCESS) {
    CHECK(ws_module_get_function(&fn, mod, "no_such_kernel") == WS_ERROR_NOT_FOUND);
    CHECK_STR_CONTAINS(ws_ctx_error(ctx), "no_such_kernel");
    WsDevPtr p;
    size_t b;
    CHECK(ws_module_get_global(&p, &b, mod, "no_such_global") == WS_ERROR_NOT_FOUND);
    CHECK(ws_module_get_function(&fn, mod, "k") == WS_SUCCESS);
    ws_module_unload(mod);
  } else
    test_failures_++;
  CHECK(ws_module_load(ctx, &mod, "/nonexistent/dir/file.ptx") == WS_ERROR_FILE);
  CHECK(ws_ctx_error(ctx)[0] != 0);
  ws_ctx_destroy(ctx);
}

static void test_launch_argument_errors(void) {
  TK k;
  if (tk_open(&k, BASE_HEAD BASE_TAIL, "k") != 0) {
    test_failures_++;
    tk_close(&k);
    return;
  }
  WsDevPtr buf = tk_alloc(&k, 4096, NULL);
  void *params[1] = {&buf};
  void *nullparam[1] = {NULL};
  CHECK(ws_launch_kernel(k.fn, 1, 1, 1, 32, 1, 1, 0, params) == WS_SUCCESS);
  /* kernel has a parameter but no parameter array / a NULL entry */
  CHECK(ws_launch_kernel(k.fn, 1, 1, 1, 32, 1, 1, 0, NULL) == WS_ERROR_INVALID_VALUE);
  CHECK(ws_ctx_error(k.ctx)[0] != 0);
  CHECK(ws_launch_kernel(k.fn, 1, 1, 1, 32, 1, 1, 0, nullparam) == WS_ERROR_INVALID_VALUE);
  /* empty or oversized grids / blocks */
  CHECK(ws_launch_kernel(k.fn, 0, 1, 1, 32, 1, 1, 0, params) == WS_ERROR_INVALID_VALUE);
  CHECK(ws_launch_kernel(k.fn, 1, 0, 1, 32, 1, 1, 0, params) == WS_ERROR_INVALID_VALUE);
  CHECK(ws_launch_kernel(k.fn, 1, 1, 1, 0, 1, 1, 0, params) == WS_ERROR_INVALID_VALUE);
  CHECK(ws_launch_kernel(k.fn, 1, 1, 1, 1025, 1, 1, 0, params) == WS_ERROR_INVALID_VALUE);
  CHECK(ws_launch_kernel(k.fn, 1, 1, 1, 32, 32, 2, 0, params) == WS_ERROR_INVALID_VALUE);
  /* absurd dynamic shared memory */
  CHECK(ws_launch_kernel(k.fn, 1, 1, 1, 32, 1, 1, 1u << 30, params) != WS_SUCCESS);
  CHECK(ws_ctx_error(k.ctx)[0] != 0);
  /* the context still works */
  CHECK(ws_launch_kernel(k.fn, 1, 1, 1, 32, 1, 1, 0, params) == WS_SUCCESS);
  /* NULL arguments to the API */
  WsModule *m2 = NULL;
  CHECK(ws_module_load_data(k.ctx, &m2, NULL, "x.ptx") == WS_ERROR_INVALID_VALUE);
  /* copies outside any allocation */
  uint8_t tmp[64];
  CHECK(ws_memcpy_dtoh(k.ctx, tmp, buf + 4096 - 16, 64) != WS_SUCCESS);
  CHECK(ws_memcpy_htod(k.ctx, 0x10, tmp, 4) != WS_SUCCESS);
  CHECK(ws_mem_free(k.ctx, buf + 8) != WS_SUCCESS);
  tk_close(&k);
}

/* ------------------------------------------------------------------ runtime faults */
static const char *FAULT_PTX = PTX_HEADER
    ".visible .entry oob_load(\n"
    "\t.param .u64 oob_load_param_0,\n"
    "\t.param .u64 oob_load_param_1\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<4>;\n"
    "\t.reg .b32 \t%r<16>;\n"
    "\t.reg .b64 \t%rd<16>;\n"
    "\n"
    "\tld.param.u64 \t%rd1, [oob_load_param_0];\n"
    "\tld.param.u64 \t%rd2, [oob_load_param_1];\n"
    "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
    "\tcvta.to.global.u64 \t%rd2, %rd2;\n"
    "\tmov.u32 \t%r1, %tid.x;\n"
    "\tmov.u32 \t%r2, %ctaid.x;\n"
    "\tmul.wide.u32 \t%rd3, %r1, 4;\n"
    "\tsetp.eq.u32 \t%p1, %r1, 37;\n"
    "\tsetp.eq.u32 \t%p2, %r2, 2;\n"
    "\tand.pred \t%p3, %p1, %p2;\n"
    "\t@!%p3 bra \t$L__ok;\n"
    "\tmov.u64 \t%rd3, %rd2;\n" /* the faulting thread: offset = the value of the second parameter */
    "$L__ok:\n"
    "\tadd.s64 \t%rd4, %rd1, %rd3;\n"
    "\tld.global.u32 \t%r3, [%rd4];\n"
    "\tadd.s32 \t%r3, %r3, 1;\n"
    "\tst.global.u32 \t[%rd4], %r3;\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry oob_store(\n"
    "\t.param .u64 oob_store_param_0,\n"
    "\t.param .u64 oob_store_param_1\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<4>;\n"
    "\t.reg .b32 \t%r<16>;\n"
    "\t.reg .b64 \t%rd<16>;\n"
    "\n"
    "\tld.param.u64 \t%rd1, [oob_store_param_0];\n"
    "\tld.param.u64 \t%rd2, [oob_store_param_1];\n"
    "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
    "\tmov.u32 \t%r1, %tid.x;\n"
    "\tmov.u32 \t%r2, %ctaid.x;\n"
    "\tmul.wide.u32 \t%rd3, %r1, 4;\n"
    "\tsetp.eq.u32 \t%p1, %r1, 5;\n"
    "\tsetp.eq.u32 \t%p2, %r2, 1;\n"
    "\tand.pred \t%p3, %p1, %p2;\n"
    "\t@%p3 mov.u64 \t%rd3, %rd2;\n"
    "\tadd.s64 \t%rd4, %rd1, %rd3;\n"
    "\tst.global.u32 \t[%rd4], %r1;\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry shared_oob(\n"
    "\t.param .u64 shared_oob_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .b32 \t%r<16>;\n"
    "\t.shared .align 4 .b8 sm[64];\n"
    "\n"
    "\tmov.u32 \t%r1, sm;\n"
    "\tadd.s32 \t%r2, %r1, 200000;\n"
    "\tld.shared.u32 \t%r3, [%r2];\n"
    "\tst.shared.u32 \t[%r1], %r3;\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry null_load(\n"
    "\t.param .u64 null_load_param_0\n"
    ")\n"
    "{\n"
    "\t.reg .b32 \t%r<4>;\n"
    "\t.reg .b64 \t%rd<4>;\n"
    "\n"
    "\tmov.u64 \t%rd1, 0;\n"
    "\tld.u32 \t%r1, [%rd1];\n"
    "\tld.param.u64 \t%rd2, [null_load_param_0];\n"
    "\tst.u32 \t[%rd2], %r1;\n"
    "\tret;\n"
    "}\n";

/* Opens a fresh context, allocates a 4 KB buffer (its address in *base_out), launches `entry`
 * with (buffer, second) and expects `want`. Returns the error message. */
static const char *fault_launch(const char *entry, WsResult want, unsigned grid, unsigned block,
                                uint64_t second, WsDevPtr *base_out) {
  static char msg[1024];
  TK k;
  msg[0] = 0;
  if (tk_open(&k, FAULT_PTX, entry) != 0) {
    test_failures_++;
    tk_close(&k);
    return msg;
  }
  WsDevPtr buf = tk_alloc(&k, 4096, NULL);
  if (base_out) *base_out = buf;
  void *params[2] = {&buf, &second};
  WsResult r = ws_launch_kernel(k.fn, grid, 1, 1, block, 1, 1, 0, params);
  snprintf(msg, sizeof msg, "%s", ws_ctx_error(k.ctx));
  if (r != want) {
    fprintf(stderr, "  %s: expected %s, got %s (%s)\n", entry, ws_result_name(want), ws_result_name(r), msg);
    test_failures_++;
  } else {
    fprintf(stderr, "  ok: %s -> %s\n", entry, msg);
  }
  tk_close(&k);
  return msg;
}

static void check_hex_addr(const char *what, const char *msg, uint64_t addr) {
  char hex[32];
  snprintf(hex, sizeof hex, "%" PRIx64, addr);
  if (!contains_ci(msg, hex)) {
    fprintf(stderr, "  %s: message \"%s\" lacks the address %s\n", what, msg, hex);
    test_failures_++;
  }
}

static void test_out_of_bounds_global(void) {
  WsDevPtr base = 0;
  const char *msg = fault_launch("oob_load", WS_ERROR_ILLEGAL_ADDRESS, 4, 64, 1u << 24, &base);
  CHECK_STR_CONTAINS(msg, "oob_load"); /* kernel */
  CHECK(contains_ci(msg, "37"));       /* thread */
  CHECK(contains_ci(msg, "2"));        /* CTA */
  CHECK(contains_ci(msg, "pc"));       /* PC */
  check_hex_addr("oob_load", msg, base + (1u << 24));
  /* just past the end */
  msg = fault_launch("oob_store", WS_ERROR_ILLEGAL_ADDRESS, 2, 32, 4096, &base);
  CHECK_STR_CONTAINS(msg, "oob_store");
  CHECK(contains_ci(msg, "5"));
  CHECK(contains_ci(msg, "pc"));
  check_hex_addr("oob_store", msg, base + 4096);
  /* just before the start of the only allocation */
  msg = fault_launch("oob_store", WS_ERROR_ILLEGAL_ADDRESS, 2, 32, (uint64_t)-4, &base);
  check_hex_addr("oob_store before start", msg, base - 4);
  msg = fault_launch("null_load", WS_ERROR_ILLEGAL_ADDRESS, 1, 32, 0, NULL);
  CHECK_STR_CONTAINS(msg, "null_load");
}

static void test_misaligned(void) {
  WsDevPtr base = 0;
  const char *msg = fault_launch("oob_load", WS_ERROR_ILLEGAL_ADDRESS, 4, 64, 2, &base);
  CHECK(contains_ci(msg, "align"));
  CHECK_STR_CONTAINS(msg, "oob_load");
  check_hex_addr("misaligned load", msg, base + 2);
  msg = fault_launch("oob_store", WS_ERROR_ILLEGAL_ADDRESS, 2, 32, 1, &base);
  CHECK(contains_ci(msg, "align"));
  check_hex_addr("misaligned store", msg, base + 1);
}

static void test_shared_out_of_bounds(void) {
  const char *msg = fault_launch("shared_oob", WS_ERROR_ILLEGAL_ADDRESS, 1, 32, 0, NULL);
  CHECK_STR_CONTAINS(msg, "shared_oob");
  CHECK(contains_ci(msg, "shared"));
}

/* ------------------------------------------------------------------ deadlocks */
static const char *DEAD_PTX = PTX_HEADER ".visible .entry dead_count()\n"
                                         "{\n"
                                         "\tbar.sync \t1, 64;\n" /* only 32 threads in the CTA */
                                         "\tret;\n"
                                         "}\n"
                                         "\n"
                                         ".visible .entry dead_split()\n"
                                         "{\n"
                                         "\t.reg .pred \t%p<2>;\n"
                                         "\t.reg .b32 \t%r<4>;\n"
                                         "\tmov.u32 \t%r1, %tid.x;\n"
                                         "\tsetp.lt.u32 \t%p1, %r1, 32;\n"
                                         "\t@%p1 bra \t$L__w0;\n"
                                         "\tbar.sync \t2;\n"
                                         "\tret;\n"
                                         "$L__w0:\n"
                                         "\tbar.sync \t1;\n"
                                         "\tret;\n"
                                         "}\n"
                                         "\n"
                                         ".visible .entry spin(\n"
                                         "\t.param .u64 spin_param_0\n"
                                         ")\n"
                                         "{\n"
                                         "\t.reg .pred \t%p<2>;\n"
                                         "\t.reg .b32 \t%r<4>;\n"
                                         "\t.reg .b64 \t%rd<4>;\n"
                                         "\tmov.u32 \t%r1, 0;\n"
                                         "$L__loop:\n"
                                         "\tadd.s32 \t%r1, %r1, 1;\n"
                                         "\tsetp.ne.s32 \t%p1, %r1, 4000000;\n"
                                         "\t@%p1 bra \t$L__loop;\n"
                                         "\tld.param.u64 \t%rd1, [spin_param_0];\n"
                                         "\tcvta.to.global.u64 \t%rd2, %rd1;\n"
                                         "\tst.global.u32 \t[%rd2], %r1;\n"
                                         "\tret;\n"
                                         "}\n";

static void expect_deadlock(const char *entry, unsigned block) {
  TK k;
  if (tk_open(&k, DEAD_PTX, entry) != 0) {
    test_failures_++;
    tk_close(&k);
    return;
  }
  WsResult r = ws_launch_kernel(k.fn, 1, 1, 1, block, 1, 1, 0, NULL);
  const char *msg = ws_ctx_error(k.ctx);
  if (r != WS_ERROR_DEADLOCK && r != WS_ERROR_LAUNCH_FAILED) {
    fprintf(stderr, "  %s: expected WS_ERROR_DEADLOCK, got %s (%s)\n", entry, ws_result_name(r), msg);
    test_failures_++;
  } else {
    fprintf(stderr, "  ok: %s -> %s: %s\n", entry, ws_result_name(r), msg);
    CHECK_STR_CONTAINS(msg, entry);
    CHECK(contains_ci(msg, "bar")); /* says which barrier / who waits */
    CHECK(contains_ci(msg, "warp") || contains_ci(msg, "thread"));
  }
  tk_close(&k);
}

static void test_barrier_deadlock(void) {
  expect_deadlock("dead_count", 32);
  expect_deadlock("dead_split", 64);
}

/* a kernel that runs 4M iterations (12M warp instructions) is stopped by max_warp_insts = 100000.
 * (Finite, so that a simulator ignoring the limit fails this test instead of hanging the suite.) */
static void test_instruction_limit(void) {
  TK k;
  WsContextOptions o;
  memset(&o, 0, sizeof o);
  o.max_warp_insts = 100000;
  if (tk_open_opts(&k, DEAD_PTX, "spin", &o) != 0) {
    test_failures_++;
    tk_close(&k);
    return;
  }
  WsDevPtr marker = tk_alloc(&k, 4, NULL);
  void *params[1] = {&marker};
  WsResult r = ws_launch_kernel(k.fn, 1, 1, 1, 32, 1, 1, 0, params);
  CHECK(r != WS_SUCCESS);
  CHECK(ws_ctx_error(k.ctx)[0] != 0);
  fprintf(stderr, "  ok: spin -> %s: %s\n", ws_result_name(r), ws_ctx_error(k.ctx));
  /* the launch must have been stopped near the limit, before the loop finished and the store ran */
  uint32_t m = 0;
  if (ws_memcpy_dtoh(k.ctx, &m, marker, 4) == WS_SUCCESS && m != 0) {
    fprintf(stderr, "  spin: the kernel ran to completion (%u iterations) despite max_warp_insts = 100000\n",
            m);
    test_failures_++;
  }
  tk_close(&k);
}

/* Extreme literals must not crash the front end (found by t110's fuzzing): an address offset of
 * -9223372036854775808. Loading may succeed (the address wraps; a launch would fault) or fail.
 * Regression test: src/ptx/decode.c once negated the offset as int64_t (UBSan abort). Kept last. */
static void test_extreme_address_offset(void) {
  static const char *srcs[] = {
      BASE_HEAD "    ld.global.u32 %r2, [%rd1+-9223372036854775808];\n" BASE_TAIL,
      BASE_HEAD "    ld.global.u32 %r2, [%rd1+18446744073709551615];\n" BASE_TAIL,
      BASE_HEAD "    ld.global.u32 %r2, [%rd1+99999999999999999999999];\n" BASE_TAIL,
  };
  for (unsigned i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
    WsContext *ctx = NULL;
    WsModule *mod = NULL;
    if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) {
      test_failures_++;
      continue;
    }
    WsResult r = ws_module_load_data(ctx, &mod, srcs[i], "bad.ptx");
    if (r == WS_SUCCESS)
      ws_module_unload(mod);
    else if (r != WS_ERROR_INVALID_PTX || !ws_ctx_error(ctx)[0]) {
      fprintf(stderr, "  offset case %u: %s \"%s\"\n", i, ws_result_name(r), ws_ctx_error(ctx));
      test_failures_++;
    }
    ws_ctx_destroy(ctx);
  }
}

int main(void) {
  TEST_RUN(test_base_is_valid);
  TEST_RUN(test_unknown_opcode);
  TEST_RUN(test_bad_operand);
  TEST_RUN(test_undeclared_register);
  TEST_RUN(test_missing_semicolon);
  TEST_RUN(test_unterminated_block);
  TEST_RUN(test_bad_reg_decl);
  TEST_RUN(test_duplicate_label);
  TEST_RUN(test_unknown_label);
  TEST_RUN(test_misc_syntax);
  TEST_RUN(test_degenerate_inputs);
  TEST_RUN(test_unknown_kernel);
  TEST_RUN(test_launch_argument_errors);
  TEST_RUN(test_out_of_bounds_global);
  TEST_RUN(test_misaligned);
  TEST_RUN(test_shared_out_of_bounds);
  TEST_RUN(test_barrier_deadlock);
  TEST_RUN(test_instruction_limit);
  TEST_RUN(test_extreme_address_offset); /* once crashed the core: keep last */
  return TEST_DONE();
}
