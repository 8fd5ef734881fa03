/* t218_const_cache.c - the constant cache (sm.const_cache, l1c.*): a warp's constant load makes
 * one access per distinct 64 B line, one per cycle; a hit costs l1c.latency, a miss goes through
 * the L2 (and counts there); kernel parameters come through it too; sm.const_cache = false keeps
 * the fixed sm.const_latency. One warp, clock reads around a load and the add that consumes it. */
#include <stdlib.h>
#include <string.h>

#include "common/test.h"
#include "common/timing.h"

TEST_GLOBALS;

/* Three rounds of: clock, ld.const of ctab + round offset + tid * stride, an add consuming it, clock.
 * Round 0 is cold everywhere, round 1 reads lines no round read before (the instructions are
 * cached: a constant-cache miss alone), round 2 the same lines again (hits). Lane 0 writes the
 * three round times to out[0..2]. */
static const char *const PTX =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".const .align 4 .b8 ctab[8192];\n"
    ".visible .entry k(.param .u64 out, .param .u32 stride) {\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n  .reg .pred %p<4>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u32 %r2, [stride];\n  mul.lo.u32 %r3, %r1, %r2;\n"
    "  cvt.u64.u32 %rd2, %r3;\n  mov.u64 %rd3, ctab;\n  add.s64 %rd4, %rd3, %rd2;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r9, 0;\n"
    "$L_round:\n"
    "  setp.eq.u32 %p1, %r9, 0;\n  selp.u64 %rd5, 0, 4096, %p1;\n  add.s64 %rd6, %rd4, %rd5;\n"
    "  mov.u64 %rd7, %clock64;\n"
    "  ld.const.u32 %r4, [%rd6];\n  add.u32 %r5, %r4, 1;\n"
    "  mov.u64 %rd8, %clock64;\n"
    "  sub.s64 %rd9, %rd8, %rd7;\n  cvt.u32.u64 %r6, %rd9;\n  add.u32 %r6, %r6, %r5;\n"
    "  sub.u32 %r6, %r6, 1;\n" /* the constants are 0: adds the dependence, not a value */
    "  setp.ne.u32 %p2, %r1, 0;\n  mul.wide.u32 %rd10, %r9, 4;\n  add.s64 %rd11, %rd1, %rd10;\n"
    "  @!%p2 st.global.u32 [%rd11], %r6;\n"
    "  add.u32 %r9, %r9, 1;\n  setp.lt.u32 %p3, %r9, 3;\n  @%p3 bra $L_round;\n"
    "  ret;\n}\n";

typedef struct Rounds {
  uint32_t t[3]; /* round times: cold, constant miss, hit */
  char *json;    /* the run's statistics */
} Rounds;

/* One warp with lanes `stride` bytes apart (0: one line, 4: two 64 B lines, 64: 32 lines). */
static Rounds run(const char *const *sets, uint32_t stride) {
  Rounds r = {{0, 0, 0}, NULL};
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return r;
  }
  WsModule *mod;
  WsFunction *fn;
  WsDevPtr d = 0;
  if (!test_gpu_load(&t, &mod, &fn, PTX, "k") && ws_mem_alloc(t.ctx, &d, 64) == WS_SUCCESS) {
    void *params[2] = {&d, &stride};
    CHECK(ws_launch_kernel(fn, 1, 1, 1, 32, 1, 1, 0, params) == WS_SUCCESS);
    CHECK(ws_memcpy_dtoh(t.ctx, r.t, d, sizeof r.t) == WS_SUCCESS);
    r.json = test_gpu_json(&t);
  } else {
    CHECK(0);
  }
  test_gpu_close(&t);
  return r;
}

#define L1C "\"l1c\": {"

/* Hits: one access per distinct line per cycle, each l1c.latency; the lines of the warp are
 * counted as requests. */
static void test_hits(void) {
  Rounds one = run(NULL, 0), two = run(NULL, 4), all = run(NULL, 64);
  if (!one.json || !two.json || !all.json) goto out;
  CHECK_EQ_U64(two.t[2], one.t[2] + 1);  /* 2 lines: one more access */
  CHECK_EQ_U64(all.t[2], one.t[2] + 31); /* 32 lines: 31 more */
  /* requests: 3 rounds of the load's lines, plus the two parameter loads (one line each) */
  CHECK_EQ_U64(test_json_u64(one.json, "\"requests\"", "const_lines"), 3 + 2);
  CHECK_EQ_U64(test_json_u64(two.json, "\"requests\"", "const_lines"), 6 + 2);
  CHECK_EQ_U64(test_json_u64(all.json, "\"requests\"", "const_lines"), 96 + 2);
  CHECK_EQ_U64(test_json_u64(one.json, "\"requests\"", "const"), 5);
  /* the hit latency is the configured one */
  const char *lat[] = {"l1c.latency=6", NULL};
  Rounds slow = run(lat, 0);
  if (slow.json) CHECK_EQ_U64(slow.t[2], one.t[2] + 5);
  free(slow.json);
out:
  free(one.json), free(two.json), free(all.json);
}

/* Misses reach the L2: round 1's lines miss in the constant cache and are L2 reads (DRAM misses
 * the first time: far longer than a hit); the parameters' line misses once. */
static void test_misses(void) {
  Rounds one = run(NULL, 0), all = run(NULL, 64);
  if (!one.json || !all.json) goto out;
  /* one line: round 0 and 1 miss (1 each), the parameters' line 1 (the second parameter hits it
   * or merges), round 2 hits */
  CHECK_EQ_U64(test_json_u64(one.json, L1C, "read_misses"), 3);
  CHECK_EQ_U64(test_json_u64(all.json, L1C, "read_misses"), 32 + 32 + 1);
  const uint64_t l2_one = test_json_u64(one.json, "\"l2\": {", "reads"),
                 l2_all = test_json_u64(all.json, "\"l2\": {", "reads");
  CHECK(l2_one != UINT64_MAX && l2_all != UINT64_MAX);
  CHECK_EQ_U64(l2_all - l2_one, 62); /* the same other traffic (instructions, parameters) */
  CHECK(one.t[1] > one.t[2] + 200);  /* a DRAM miss: ROP delay, DRAM queue, the crossbar both ways */
  /* 32 lines through 2 MSHRs: 16 rounds of two misses, each a memory round trip */
  CHECK(all.t[1] > 8 * (one.t[1] - one.t[2]));
  CHECK(test_json_u64(all.json, "\"ldst_stall_cycles\"", "mshr") > 0);
out:
  free(one.json), free(all.json);
}

/* sm.const_cache = false: every constant load takes sm.const_latency, whatever its lines; the
 * constant cache sees nothing. */
static void test_fixed(void) {
  const char *f8[] = {"sm.const_cache=false", NULL},
             *f20[] = {"sm.const_cache=false", "sm.const_latency=20", NULL};
  Rounds a = run(f8, 0), b = run(f8, 64), c = run(f20, 0);
  if (!a.json || !b.json || !c.json) goto out;
  CHECK_EQ_U64(a.t[1], a.t[2]);
  CHECK_EQ_U64(b.t[2], a.t[2]);
  CHECK_EQ_U64(c.t[2], a.t[2] + 12);
  CHECK_EQ_U64(test_json_u64(b.json, L1C, "reads"), 0);
  CHECK_EQ_U64(test_json_u64(b.json, "\"requests\"", "const_lines"), 0);
out:
  free(a.json), free(b.json), free(c.json);
}

/* The quiet-cycle shortcuts stay exact with constant misses in flight. */
static void test_skip_same(void) {
  const char *off[] = {"sm.skip_idle_cycles=false", NULL};
  Rounds a = run(NULL, 64), b = run(off, 64);
  if (a.json && b.json) CHECK(test_json_same("skip_idle_cycles on/off", a.json, b.json));
  free(a.json), free(b.json);
}

int main(void) {
  TEST_RUN(test_hits);
  TEST_RUN(test_misses);
  TEST_RUN(test_fixed);
  TEST_RUN(test_skip_same);
  return TEST_DONE();
}
