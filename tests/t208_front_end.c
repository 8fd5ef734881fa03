/* t208_front_end.c - GPGPU-Sim 3.2.2's fetch and I-buffer control (sm.front_end = gpgpusim;
 * shader_core_ctx::fetch/decode, scheduler_unit::cycle) against the direct front end, on one
 * warp's hand-built loops: a warp fetches at the pc after its last issued instruction, so a taken
 * branch costs a flush when the scheduler next examines the warp (the branch first in its fetch:
 * 1 cycle) or a fall-through fetch and then that flush (the branch second: 2 cycles); an L1I
 * miss's fill lets the warp fetch again (2 cycles). Skipping idle cycles stays exact. */
#include <stdio.h>
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"
#include "bench.h"

TEST_GLOBALS;

/* A loop of `rounds` iterations: the counter, its test, n independent adds (the test's result is
 * ready long before the branch), the backward branch. The body is n + 3 instructions from $L, and
 * every fetch after a taken branch starts at $L, so the branch is the second instruction of its
 * fetch when n + 3 is even and the first when it is odd. */
static char *loop_ptx(unsigned n) {
  size_t cap = 1024 + 48 * (size_t)n;
  char *p = malloc(cap);
  if (!p) return NULL;
  int k = snprintf(p, cap,
                   ".version 9.0\n.target sm_75\n.address_size 64\n"
                   ".visible .entry loop(.param .u64 buf, .param .u32 rounds)\n{\n"
                   "  .reg .pred %%p<2>;\n  .reg .b32 %%r<4>;\n  .reg .b32 %%q<64>;\n"
                   "  mov.u32 %%r1, 0;\n  ld.param.u32 %%r2, [rounds];\n"
                   "$L:\n  add.u32 %%r1, %%r1, 1;\n  setp.lt.u32 %%p1, %%r1, %%r2;\n");
  for (unsigned i = 0; i < n; i++)
    k += snprintf(p + k, cap - (size_t)k, "  add.u32 %%q%u, %%r2, %u;\n", i + 1, i);
  snprintf(p + k, cap - (size_t)k, "  @%%p1 bra $L;\n  ret;\n}\n//@warpsim regs loop 40\n");
  return p;
}

/* Cycles and L1I misses (misses + merges) of a 32-thread run of `rounds` iterations. */
static void run_loop(const char *const *sets, unsigned n, uint32_t rounds, uint64_t *cycles,
                     uint64_t *misses) {
  char *ptx = loop_ptx(n);
  CHECK(ptx != NULL);
  *cycles = *misses = 0;
  if (!ptx) return;
  char *js = test_run_kernel(sets, ptx, "loop", 32, &rounds, 1);
  CHECK(js != NULL);
  if (js) {
    *cycles = test_json_u64(js, NULL, "cycles");
    *misses = test_json_u64(js, "\"l1i\"", "read_misses") + test_json_u64(js, "\"l1i\"", "read_merges");
  }
  free(js);
  free(ptx);
}

/* issue alone (t206 and t217 test the operand collector and the memory path) */
static const char *const gpgpusim[] = {"sm.front_end=gpgpusim", "sm.reg_banks=0", "sm.mem_issue=unit", NULL};
static const char *const direct[] = {"sm.front_end=direct", "sm.reg_banks=0", "sm.mem_issue=unit", NULL};
static const char *const dflt[] = {"sm.reg_banks=0", "sm.mem_issue=unit", NULL};

/* A taken branch, per iteration (a run of 3 rounds minus a run of 2: the instructions cached).
 * Second in its fetch: 3.2.2 issues it at c with the I-buffer empty and fetches its fall-through at
 * c (decoded c+1); the scan at c+2 flushes that and the warp fetches $L (decoded c+3, issued c+4);
 * the direct front end fetches $L at c and issues it at c+2: 2 cycles more. First in its fetch:
 * the fall-through is already in the I-buffer; the scan at c+1 flushes it and the warp fetches
 * $L then (issued c+3, direct c+2): 1 cycle more. Everything from $L's fetch to the branch is the
 * same in both. */
static void test_taken_branch(void) {
  const unsigned ns[2] = {21, 20}; /* bodies of 24 (branch second) and 23 (branch first) */
  const uint64_t extra[2] = {2, 1};
  for (int i = 0; i < 2; i++) {
    uint64_t g2, g3, d2, d3, m;
    run_loop(gpgpusim, ns[i], 2, &g2, &m);
    run_loop(gpgpusim, ns[i], 3, &g3, &m);
    run_loop(direct, ns[i], 2, &d2, &m);
    run_loop(direct, ns[i], 3, &d3, &m);
    if (g3 - g2 != d3 - d2 + extra[i])
      fprintf(stderr, "body %u: a round takes %llu cycles (gpgpusim), %llu (direct); expected %llu more\n",
              ns[i] + 3, (unsigned long long)(g3 - g2), (unsigned long long)(d3 - d2),
              (unsigned long long)extra[i]);
    CHECK_EQ_U64(g3 - g2, d3 - d2 + extra[i]);
  }
  /* the presets' front end is 3.2.2's */
  uint64_t a, b, m;
  run_loop(dflt, 21, 3, &a, &m);
  run_loop(gpgpusim, 21, 3, &b, &m);
  CHECK_EQ_U64(a, b);
}

/* L1I misses: one round (no branch taken) of a 44-instruction kernel, 3 lines of 16 instructions,
 * each missed once. 3.2.2: the fill at T ends the miss after T's fetch, the warp fetches again at
 * T+1 (a hit, decoded T+2, issued T+3); direct: the fill fills the I-buffer at T (issued T+1). */
static void test_miss_refetch(void) {
  /* DRAM on the core clock: a miss's latency then does not depend on its cycle's phase */
  const char *g_sets[] = {"sm.front_end=gpgpusim", "sm.reg_banks=0", "sm.mem_issue=unit",
                          "dram.clock_mhz=700", NULL};
  const char *d_sets[] = {"sm.front_end=direct", "sm.reg_banks=0", "sm.mem_issue=unit", "dram.clock_mhz=700",
                          NULL};
  uint64_t g, d, gm, dm;
  run_loop(g_sets, 38, 1, &g, &gm);
  run_loop(d_sets, 38, 1, &d, &dm);
  CHECK_EQ_U64(gm, 3);
  CHECK_EQ_U64(dm, 3);
  if (g != d + 2 * gm)
    fprintf(stderr, "one round: %llu cycles (gpgpusim), %llu (direct), %llu L1I misses\n",
            (unsigned long long)g, (unsigned long long)d, (unsigned long long)gm);
  CHECK_EQ_U64(g, d + 2 * gm);
}

/* Skipping idle cycles stays exact with 3.2.2's front end (fills after the fetch, a refused fetch
 * moving the pointer on), on the gtx480 and CCWS presets. */
static void test_skip_idle_exact(void) {
  const char *names[] = {"fwt", "bfs", "backprop", NULL}; /* backprop: refused fetches */
  const char *off[] = {"sm.skip_idle_cycles=false", NULL};
  char *a = test_run_benches(NULL, NULL, names, NULL), *b = test_run_benches(NULL, off, names, NULL);
  CHECK(a && b);
  if (a && b) CHECK(test_json_same("gtx480, skip on/off", a, b));
  free(a);
  free(b);
  const char *names2[] = {"kmeans", NULL};
  a = test_run_benches("configs/ccws-gt200.cfg", NULL, names2, NULL);
  b = test_run_benches("configs/ccws-gt200.cfg", off, names2, NULL);
  CHECK(a && b);
  if (a && b) CHECK(test_json_same("ccws-gt200, skip on/off", a, b));
  free(a);
  free(b);
}

int main(void) {
  TEST_RUN(test_taken_branch);
  TEST_RUN(test_miss_refetch);
  TEST_RUN(test_skip_idle_exact);
  return TEST_DONE();
}
