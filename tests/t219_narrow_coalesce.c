/* t219_narrow_coalesce.c - GPGPU-Sim 3.2.2's coalescing of narrow accesses (sm.coalesce = arch13):
 * a warp's 1-byte elements make one L1D request per 32 B segment, 2-byte elements one per 64 B
 * segment, wider ones one per 128 B line; requests to one line after the first merge into its
 * miss. sm.coalesce = line keeps one request per line. One warp, one load or store. */
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"

TEST_GLOBALS;

/* Lane i accesses buf + i * stride with the instruction `op` (its register %r4 or %rs4). */
#define KERNEL(NAME, BODY)                                                                                   \
  ".version 7.0\n.target sm_70\n.address_size 64\n"                                                          \
  ".visible .entry " NAME "(.param .u64 buf, .param .u32 stride) {\n"                                        \
  "  .reg .b32 %r<8>;\n  .reg .b16 %rs<8>;\n  .reg .b64 %rd<8>;\n"                                           \
  "  mov.u32 %r1, %tid.x;\n  ld.param.u32 %r2, [stride];\n  mul.lo.u32 %r3, %r1, %r2;\n"                     \
  "  cvt.u64.u32 %rd2, %r3;\n  ld.param.u64 %rd1, [buf];\n  add.s64 %rd3, %rd1, %rd2;\n"                     \
  "  mov.u32 %r4, 1;\n  mov.u16 %rs4, 1;\n" BODY "  ret;\n}\n"

static const char *const LD_U8 = KERNEL("k", "  ld.global.u8 %rs5, [%rd3];\n");
static const char *const LD_U16 = KERNEL("k", "  ld.global.u16 %rs5, [%rd3];\n");
static const char *const LD_U32 = KERNEL("k", "  ld.global.u32 %r5, [%rd3];\n");
static const char *const ST_U8 = KERNEL("k", "  st.global.u8 [%rd3], %rs4;\n");
static const char *const LD_V2_U16 = KERNEL("k", "  ld.global.v2.u16 {%rs5, %rs6}, [%rd3];\n");

/* The L1D requests (global loads or stores) of one warp running `ptx` with lanes `stride` apart. */
static uint64_t reqs(const char *mode, const char *ptx, uint32_t stride, const char *kind, uint64_t *merges) {
  char set[64];
  snprintf(set, sizeof set, "sm.coalesce=%s", mode);
  const char *sets[] = {set, NULL};
  char *j = test_run_kernel(sets, ptx, "k", 32, &stride, 1);
  if (!j) return UINT64_MAX;
  uint64_t n = test_json_u64(j, "\"requests\"", kind);
  if (merges) *merges = test_json_u64(j, "\"l1d\": {", "read_merges");
  free(j);
  return n;
}

static void test_loads(void) {
  /* 1-byte: 32 consecutive bytes are one 32 B segment; 2 apart span 64 B: two segments, one line */
  CHECK_EQ_U64(reqs("arch13", LD_U8, 1, "global_load", NULL), 1);
  CHECK_EQ_U64(reqs("arch13", LD_U8, 2, "global_load", NULL), 2);
  CHECK_EQ_U64(reqs("arch13", LD_U8, 4, "global_load", NULL), 4);
  CHECK_EQ_U64(reqs("line", LD_U8, 4, "global_load", NULL), 1);
  /* 2-byte: 64 B segments */
  CHECK_EQ_U64(reqs("arch13", LD_U16, 2, "global_load", NULL), 1);
  CHECK_EQ_U64(reqs("arch13", LD_U16, 4, "global_load", NULL), 2);
  CHECK_EQ_U64(reqs("line", LD_U16, 4, "global_load", NULL), 1);
  /* vectors by their element: v2.u16 lanes 4 B apart span 128 B, two 64 B segments */
  CHECK_EQ_U64(reqs("arch13", LD_V2_U16, 4, "global_load", NULL), 2);
  /* 4-byte: per 128 B line either way */
  CHECK_EQ_U64(reqs("arch13", LD_U32, 4, "global_load", NULL), 1);
  CHECK_EQ_U64(reqs("arch13", LD_U32, 8, "global_load", NULL), 2);
  /* the segments of one line: the first misses, the others merge into its MSHR entry */
  uint64_t merges = 0;
  CHECK_EQ_U64(reqs("arch13", LD_U8, 4, "global_load", &merges), 4);
  CHECK_EQ_U64(merges, 3);
  CHECK_EQ_U64(reqs("line", LD_U8, 4, "global_load", &merges), 1);
  CHECK_EQ_U64(merges, 0);
}

static void test_stores(void) {
  CHECK_EQ_U64(reqs("arch13", ST_U8, 4, "global_store", NULL), 4);
  CHECK_EQ_U64(reqs("line", ST_U8, 4, "global_store", NULL), 1);
}

int main(void) {
  TEST_RUN(test_loads);
  TEST_RUN(test_stores);
  return TEST_DONE();
}
