/* t216_ldst_queue.c - the LD/ST queue (sm.ldst_queue; GPGPU-Sim 3.2.2's
 * ID_OC_MEM / OC_EX_MEM pipeline registers and memory collector units): a
 * memory instruction issues while the LD/ST unit holds another and waits for
 * it in issue order, one entering per cycle. Observed on one warp's
 * hand-built streams without the operand collector stage (sm.reg_banks=0),
 * and on kmeans, where skipping idle cycles must stay exact with it on. The
 * queue belongs to sm.mem_issue = unit (the collector path, the presets'
 * default, refuses it), so every run here sets unit. */
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"
#include "bench.h"

TEST_GLOBALS;

/* One warp of 32 threads, two rounds of: clock read, `n` copies of {two loads of 8 lines
 * each (lane l reads line l % 8: the unit sends 8 requests per load, one a cycle; the
 * lines hit after the first round), 8 independent adds}, clock read; the second round's
 * cycles. */
static uint64_t pairs_cycles(const char *const *sets, unsigned n) {
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return 0;
  }
  size_t cap = 256 * 1024;
  char *ptx = malloc(cap);
  size_t len = (size_t)snprintf(
      ptx, cap,
      ".version 9.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry pairs(.param .u64 out)\n{\n"
      "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b32 %%q<1400>;\n  .reg .b64 %%rd<8>;\n"
      "  mov.u32 %%r1, %%tid.x;\n  and.b32 %%r2, %%r1, 7;\n  mul.wide.u32 %%rd5, %%r2, 128;\n"
      "  mov.u32 %%r5, 0;\n  ld.param.u64 %%rd4, [out];\n  add.s64 %%rd6, %%rd4, 128;\n"
      "  add.s64 %%rd6, %%rd6, %%rd5;\n"
      "$L_round:\n  mov.u64 %%rd1, %%clock64;\n");
  for (unsigned i = 0; i < n; i++) {
    len += (size_t)snprintf(ptx + len, cap - len,
                            "  ld.global.u32 %%q%u, [%%rd6];\n  ld.global.u32 %%q%u, [%%rd6+4];\n", 10 * i,
                            10 * i + 1);
    for (unsigned k = 2; k < 10; k++)
      len += (size_t)snprintf(ptx + len, cap - len, "  add.s32 %%q%u, %%r1, %u;\n", 10 * i + k, k);
  }
  len += (size_t)snprintf(ptx + len, cap - len,
                          "  mov.u64 %%rd2, %%clock64;\n  sub.s64 %%rd3, %%rd2, %%rd1;\n"
                          "  add.s32 %%r5, %%r5, 1;\n  setp.lt.u32 %%p1, %%r5, 2;\n  @%%p1 bra $L_round;\n"
                          "  setp.eq.u32 %%p1, %%r1, 0;\n  @%%p1 st.global.u64 [%%rd4], %%rd3;\n  ret;\n}\n");
  WsModule *mod;
  WsFunction *fn;
  uint64_t out = 0;
  WsDevPtr d = 0;
  if (test_gpu_load(&t, &mod, &fn, ptx, "pairs")) {
    CHECK(0);
    free(ptx);
    test_gpu_close(&t);
    return 0;
  }
  CHECK(ws_mem_alloc(t.ctx, &d, 128 + 8 * 128) == WS_SUCCESS);
  void *params[] = {&d};
  CHECK(ws_launch_kernel(fn, 1, 1, 1, 32, 1, 1, 0, params) == WS_SUCCESS);
  CHECK(ws_memcpy_dtoh(t.ctx, &out, d, 8) == WS_SUCCESS);
  ws_mem_free(t.ctx, d);
  ws_module_unload(mod);
  free(ptx);
  test_gpu_close(&t);
  return out;
}

static const char *const q0[] = {"sm.mem_issue=unit", "sm.ldst_queue=0", "sm.reg_banks=0", NULL};
static const char *const q4[] = {"sm.mem_issue=unit", "sm.ldst_queue=4", "sm.reg_banks=0", NULL};

/* Without the queue the second load of a pair issues only when the unit has sent the
 * first's 8 requests, and the adds wait behind it; with the queue the second load waits in
 * the queue while the warp goes on to the adds: fewer cycles. 0 is the default (here with the
 * operand collector stage on, the presets' register banks). */
static void test_pairs(void) {
  uint64_t a = pairs_cycles(q0, 64), b = pairs_cycles(q4, 64);
  uint64_t c = pairs_cycles((const char *const[]){"sm.mem_issue=unit", NULL}, 64);
  fprintf(stderr, "64 x (2 loads of 8 lines, 8 adds): %llu cycles without the queue, %llu with 4 entries\n",
          (unsigned long long)a, (unsigned long long)b);
  CHECK(a > 0 && b > 0);
  CHECK(b < a);
  CHECK(b >= 64 * 16); /* the unit sends one request a cycle */
  CHECK_EQ_U64(c, pairs_cycles((const char *const[]){"sm.mem_issue=unit", "sm.ldst_queue=0", NULL}, 64));
}

/* Skipping idle cycles stays exact with the queue on (kmeans on the CCWS preset under GTO
 * and LRR: MSHR-full retries behind queued instructions). */
static void test_skip_idle_exact(void) {
  const char *names[] = {"kmeans", NULL};
  const char *scheds[] = {"sched.policy=gto", "sched.policy=lrr"};
  for (int i = 0; i < 2; i++) {
    const char *on[] = {"sm.mem_issue=unit", "sm.ldst_queue=4", scheds[i], NULL};
    const char *off[] = {"sm.mem_issue=unit", "sm.ldst_queue=4", scheds[i], "sm.skip_idle_cycles=false",
                         NULL};
    char *a = test_run_benches("configs/ccws-gt200.cfg", on, names, NULL);
    char *b = test_run_benches("configs/ccws-gt200.cfg", off, names, NULL);
    CHECK(a && b);
    if (a && b) CHECK(strcmp(a, b) == 0);
    free(a);
    free(b);
  }
}

/* 0 is the unit without a queue: the same statistics as before it existed (the default). */
static void test_zero_is_default(void) {
  const char *names[] = {"kmeans", NULL};
  const char *zero[] = {"sm.mem_issue=unit", "sm.ldst_queue=0", NULL};
  const char *unit[] = {"sm.mem_issue=unit", NULL};
  char *a = test_run_benches("configs/ccws-gt200.cfg", zero, names, NULL);
  char *b = test_run_benches("configs/ccws-gt200.cfg", unit, names, NULL);
  CHECK(a && b);
  if (a && b) CHECK(strcmp(a, b) == 0);
  free(a);
  free(b);
}

int main(void) {
  TEST_RUN(test_pairs);
  TEST_RUN(test_skip_idle_exact);
  TEST_RUN(test_zero_is_default);
  return TEST_DONE();
}
