/* t221_cta_dispatch.c - which SM a CTA goes to: round-robin over the SMs after the one that took
 * the last CTA, carried from launch to launch (GPGPU-Sim 3.2.2 gpgpu_sim::issue_block2core and its
 * m_last_cluster_issue, 0 at start: the GPU's first CTA goes to SM 1), whatever cycle a launch
 * starts at. Each CTA's thread 0 writes %smid to out[ctaid]. */
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"

TEST_GLOBALS;

/* out[ctaid] = %smid; `spin` iterations of a dependent add first move the launch's end. */
static const char *const PTX =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 spin) {\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<3>;\n"
    "  ld.param.u32 %r5, [spin];\n  mov.u32 %r6, 0;\n"
    "$L_spin:\n  setp.ge.u32 %p2, %r6, %r5;\n  @%p2 bra $L_done;\n"
    "  add.u32 %r6, %r6, 1;\n  bra $L_spin;\n"
    "$L_done:\n"
    "  mov.u32 %r1, %tid.x;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra $L_end;\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %smid;\n"
    "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "$L_end:\n  ret;\n}\n";

/* Launches of `ctas[i]` CTAs (`spin[i]` iterations each) in one context on gtx480 (15 SMs);
 * sm[i][c] = the SM of launch i's CTA c. */
static void run(uint32_t n, const uint32_t *ctas, const uint32_t *spin, uint32_t sm[][20]) {
  TestGpu t;
  if (test_gpu_open(&t, NULL)) {
    CHECK(0);
    return;
  }
  WsModule *mod;
  WsFunction *fn;
  WsDevPtr d = 0;
  if (!test_gpu_load(&t, &mod, &fn, PTX, "k") && ws_mem_alloc(t.ctx, &d, 20 * 4) == WS_SUCCESS) {
    for (uint32_t i = 0; i < n; i++) {
      uint32_t s = spin[i];
      void *params[2] = {&d, &s};
      CHECK(ws_launch_kernel(fn, ctas[i], 1, 1, 64, 1, 1, 0, params) == WS_SUCCESS);
      CHECK(ws_memcpy_dtoh(t.ctx, sm[i], d, ctas[i] * 4) == WS_SUCCESS);
    }
  } else {
    CHECK(0);
  }
  test_gpu_close(&t);
}

static void test_order(void) {
  const uint32_t ctas[3] = {1, 3, 16}, spin_a[3] = {0, 0, 0}, spin_b[3] = {50, 7, 0};
  uint32_t a[3][20] = {{0}}, b[3][20] = {{0}};
  run(3, ctas, spin_a, a);
  CHECK_EQ_U64(a[0][0], 1); /* the first CTA of the GPU */
  CHECK_EQ_U64(a[1][0], 2); /* the next launch goes on after SM 1 */
  CHECK_EQ_U64(a[1][1], 3);
  CHECK_EQ_U64(a[1][2], 4);
  for (uint32_t c = 0; c < 15; c++) CHECK_EQ_U64(a[2][c], (5 + c) % 15); /* one per SM, wrapping */
  CHECK_EQ_U64(a[2][15], 5); /* the 16th: the round goes on after SM 4, where it ended */
  /* launches that end at other cycles dispatch the same way */
  run(3, ctas, spin_b, b);
  for (uint32_t i = 0; i < 3; i++)
    for (uint32_t c = 0; c < ctas[i]; c++) CHECK_EQ_U64(b[i][c], a[i][c]);
}

int main(void) {
  TEST_RUN(test_order);
  return TEST_DONE();
}
