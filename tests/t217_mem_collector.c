/* t217_mem_collector.c - the memory collector path (sm.mem_issue = collector; GPGPU-Sim 3.2.2's
 * ID_OC_MEM -> memory collector units -> OC_EX_MEM -> LD/ST unit): the order in which two warps'
 * uncoalesced loads reach the LD/ST unit under GTO, observed on a hand-built kernel; kmeans's
 * L1D miss rate under GTO following the number of memory collector units; bad combinations
 * refused; skipping idle cycles exact with it on. */
#include <stdlib.h>
#include <string.h>

#include "common/test.h"
#include "common/timing.h"
#include "bench.h"

TEST_GLOBALS;

/* Two warps, one scheduler (GTO), two rounds of: barrier, load A (32 lines, lane l its own
 * line), 8 independent adds, load B (the same 32 lines, 4 bytes on), an add that needs both,
 * clock read. Each warp's lane 0 stores its second round's end clock at out[warp]; returns
 * how far apart the two warps end (the lines hit in the second round: each load holds the unit
 * for its 32 requests). */
static int64_t end_gap(const char *mode) {
  char key[64];
  snprintf(key, sizeof key, "sm.mem_issue=%s", mode);
  const char *sets[] = {key, "sched.count=1", "sched.policy=gto", NULL};
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return 0;
  }
  static const char ptx[] =
      ".version 9.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry order(.param .u64 out)\n{\n"
      "  .reg .pred %p<3>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<12>;\n"
      "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n  and.b32 %r3, %r1, 31;\n"
      "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r3, 128;\n  mul.wide.u32 %rd3, %r2, 4096;\n"
      "  add.s64 %rd4, %rd1, 128;\n  add.s64 %rd4, %rd4, %rd2;\n  add.s64 %rd4, %rd4, %rd3;\n"
      "  mov.u32 %r30, 0;\n"
      "$L_round:\n  bar.sync 0;\n"
      "  ld.global.u32 %r10, [%rd4];\n"
      "  add.s32 %r11, %r1, 1;\n  add.s32 %r12, %r1, 2;\n  add.s32 %r13, %r1, 3;\n  add.s32 %r14, %r1, 4;\n"
      "  add.s32 %r15, %r1, 5;\n  add.s32 %r16, %r1, 6;\n  add.s32 %r17, %r1, 7;\n  add.s32 %r18, %r1, 8;\n"
      "  ld.global.u32 %r20, [%rd4+4];\n"
      "  add.s32 %r21, %r10, %r20;\n"
      "  mov.u64 %rd5, %clock64;\n"
      "  add.s32 %r30, %r30, 1;\n  setp.lt.u32 %p1, %r30, 2;\n  @%p1 bra $L_round;\n"
      "  setp.eq.u32 %p2, %r3, 0;\n  mul.wide.u32 %rd6, %r2, 8;\n  add.s64 %rd7, %rd1, %rd6;\n"
      "  @%p2 st.global.u64 [%rd7], %rd5;\n  ret;\n}\n";
  WsModule *mod;
  WsFunction *fn;
  uint64_t out[2] = {0, 0};
  WsDevPtr d = 0;
  if (test_gpu_load(&t, &mod, &fn, ptx, "order")) {
    CHECK(0);
    test_gpu_close(&t);
    return 0;
  }
  CHECK(ws_mem_alloc(t.ctx, &d, 128 + 2 * 4096) == WS_SUCCESS);
  void *params[] = {&d};
  CHECK(ws_launch_kernel(fn, 1, 1, 1, 64, 1, 1, 0, params) == WS_SUCCESS);
  CHECK(ws_memcpy_dtoh(t.ctx, out, d, sizeof out) == WS_SUCCESS);
  ws_mem_free(t.ctx, d);
  ws_module_unload(mod);
  test_gpu_close(&t);
  return out[1] > out[0] ? (int64_t)(out[1] - out[0]) : (int64_t)(out[0] - out[1]);
}

/* With the unit, GTO's greedy warp (the first to issue after the barrier) takes the unit again
 * for its load B when its load A leaves it: the other warp's two loads follow both of its
 * loads (it ends 2 x 32 requests later). With the collector path, the other warp's load A
 * issues into ID_OC_MEM while the greedy warp does its adds and waits in a collector unit
 * ahead of the greedy warp's load B: the unit takes A, A', B, B', and the other warp ends one
 * load (32 requests) after the greedy one. */
static void test_order(void) {
  const int64_t unit = end_gap("unit"), coll = end_gap("collector");
  fprintf(stderr, "the warps end %lld cycles apart with the unit, %lld with the collector path\n",
          (long long)unit, (long long)coll);
  CHECK(unit >= 64 && unit < 64 + 16);
  CHECK(coll >= 32 && coll < 32 + 16);
}

static double stat_of(const char *json, const char *key) {
  const char *p = strstr(json, key);
  return p ? strtod(p + strlen(key), NULL) : -1;
}

/* kmeans on the CCWS preset under GTO (one CTA of 8 warps per SM; a feature load touches 32
 * lines): with one memory collector unit the greedy warp keeps most of the unit and the L1D
 * holds its rows; with 8, every warp's loads wait in them and reach the unit in turn, as under
 * LRR: the miss rate rises several times (GPGPU-Sim on the same stream: 0.018 and 0.278).
 * Skipping idle cycles gives the same statistics. */
static void test_kmeans_units(void) {
  const char *names[] = {"kmeans", NULL};
  const char *one[] = {"sm.mem_issue=collector", "sm.oc_units_mem=1", "sched.policy=gto", NULL};
  const char *eight[] = {"sm.mem_issue=collector", "sm.oc_units_mem=8", "sched.policy=gto", NULL};
  const char *eight_noskip[] = {"sm.mem_issue=collector", "sm.oc_units_mem=8", "sched.policy=gto",
                                "sm.skip_idle_cycles=false", NULL};
  char *a = test_run_benches("configs/ccws-gt200.cfg", one, names, NULL);
  char *b = test_run_benches("configs/ccws-gt200.cfg", eight, names, NULL);
  char *c = test_run_benches("configs/ccws-gt200.cfg", eight_noskip, names, NULL);
  CHECK(a && b && c);
  if (a && b && c) {
    const double m1 = stat_of(a, "\"l1d_read_miss_rate\":"), m8 = stat_of(b, "\"l1d_read_miss_rate\":");
    fprintf(stderr, "kmeans gto L1D read miss rate: %.4f with 1 memory collector unit, %.4f with 8\n", m1,
            m8);
    CHECK(m1 > 0 && m1 < 0.05);
    CHECK(m8 > 4 * m1);
    CHECK(strcmp(b, c) == 0);
  }
  free(a);
  free(b);
  free(c);
}

/* The collector path needs the operand collector's banks and no LD/ST queue. */
static void test_refused(void) {
  TestGpu t;
  const char *nobanks[] = {"sm.mem_issue=collector", "sm.reg_banks=0", NULL};
  const char *queue[] = {"sm.mem_issue=collector", "sm.ldst_queue=2", NULL};
  CHECK(test_gpu_open(&t, nobanks) != 0);
  CHECK(test_gpu_open(&t, queue) != 0);
}

int main(void) {
  TEST_RUN(test_order);
  TEST_RUN(test_kmeans_units);
  TEST_RUN(test_refused);
  return TEST_DONE();
}
