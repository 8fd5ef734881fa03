/* t220_exit_stores.c - a warp that executed its exit retires only after its stores' acks
 * (sm.exit_waits_stores, GPGPU-Sim 3.2.2 shd_warp_t::hardware_done): the kernel ends after the
 * last ack, which passes the partition's ROP delay once; with the key off the warp retires at its
 * exit and the ack's path is off the kernel's end. A store that misses the L2 (back_fetch) is
 * acked by DRAM with l2.write_ack = below (3.2.2's 'W'), by the L2 with here; so is every store
 * of a write-evict L2. One CTA, a store per lane or none, then ret. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test.h"
#include "common/timing.h"

TEST_GLOBALS;

/* Lane i stores to buf + i * stride when `n` is not 0 (one 128 B line for stride 4). */
static const char *const PTX =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 buf, .param .u32 stride, .param .u32 n) {\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u32 %r2, [stride];\n  mul.lo.u32 %r3, %r1, %r2;\n"
    "  cvt.u64.u32 %rd2, %r3;\n  ld.param.u64 %rd1, [buf];\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.param.u32 %r4, [n];\n  setp.ne.u32 %p1, %r4, 0;\n"
    "  @%p1 st.global.u32 [%rd3], %r1;\n"
    "  ret;\n}\n";

/* The kernel's statistics JSON (NULL on error) on gtx480 with sm.exit_waits_stores = `waits`,
 * l2.rop_latency = `rop`, dram.latency_queue = `dq`, l2.write_ack = `ack`, l2.write_policy = `wp`;
 * `threads` threads storing (`store`) or not. */
static char *run_at(int waits, unsigned rop, unsigned dq, const char *ack, const char *wp, int store,
                    uint32_t threads) {
  char k1[48], k2[48], k3[48], k4[48], k5[48];
  snprintf(k1, sizeof k1, "sm.exit_waits_stores=%s", waits ? "true" : "false");
  snprintf(k2, sizeof k2, "l2.rop_latency=%u", rop);
  snprintf(k3, sizeof k3, "dram.latency_queue=%u", dq);
  snprintf(k4, sizeof k4, "l2.write_ack=%s", ack);
  snprintf(k5, sizeof k5, "l2.write_policy=%s", wp);
  const char *sets[] = {k1, k2, k3, k4, k5, NULL};
  const uint32_t args[2] = {4, (uint32_t)store};
  return test_run_kernel(sets, PTX, "k", threads, args, 2);
}

/* The kernel's cycles, as run_at with the preset's L2 (back_fetch). */
static uint64_t cycles_at(int waits, unsigned rop, unsigned dq, const char *ack, int store,
                          uint32_t threads) {
  char *j = run_at(waits, rop, dq, ack, "back_fetch", store, threads);
  if (!j) return UINT64_MAX;
  uint64_t c = test_json_u64(j, NULL, "cycles");
  free(j);
  return c;
}

static uint64_t cycles(int waits, unsigned rop, int store, uint32_t threads) {
  return cycles_at(waits, rop, 100, "below", store, threads);
}

/* Without stores the key changes nothing; with them the kernel ends later when warps wait. */
static void test_end(void) {
  CHECK_EQ_U64(cycles(1, 120, 0, 32), cycles(0, 120, 0, 32));
  CHECK_EQ_U64(cycles(1, 120, 0, 256), cycles(0, 120, 0, 256));
  CHECK(cycles(1, 120, 1, 32) > cycles(0, 120, 1, 32));
  CHECK(cycles(1, 120, 1, 256) > cycles(0, 120, 1, 256));
}

/* The ack crosses the ROP delay once more than anything else on the kernel's path: 40 more cycles
 * of it add 40 to the storing kernel beyond what they add to the one that does not store
 * (instruction misses cross it too); with the key off the store adds nothing beyond that. */
static void test_ack_on_path(void) {
  for (uint32_t threads = 32; threads <= 256; threads *= 8) {
    const int64_t quiet = (int64_t)cycles(1, 160, 0, threads) - (int64_t)cycles(1, 120, 0, threads);
    const int64_t st_wait = (int64_t)cycles(1, 160, 1, threads) - (int64_t)cycles(1, 120, 1, threads);
    const int64_t st_nowait = (int64_t)cycles(0, 160, 1, threads) - (int64_t)cycles(0, 120, 1, threads);
    CHECK(quiet > 0);
    CHECK_EQ_U64((uint64_t)st_wait, (uint64_t)(quiet + 40));
    CHECK_EQ_U64((uint64_t)st_nowait, (uint64_t)quiet);
  }
}

/* The store misses the (cold) L2: with write_ack = below its ack crosses the DRAM latency queue
 * once more than the instruction misses do (40 more cycles of it: 40 more), with here not at all. */
static void test_ack_from_dram(void) {
  const int64_t quiet =
      (int64_t)cycles_at(1, 120, 140, "below", 0, 32) - (int64_t)cycles_at(1, 120, 100, "below", 0, 32);
  const int64_t below =
      (int64_t)cycles_at(1, 120, 140, "below", 1, 32) - (int64_t)cycles_at(1, 120, 100, "below", 1, 32);
  const int64_t here =
      (int64_t)cycles_at(1, 120, 140, "here", 1, 32) - (int64_t)cycles_at(1, 120, 100, "here", 1, 32);
  CHECK(quiet > 0);
  CHECK_EQ_U64((uint64_t)below, (uint64_t)(quiet + 40));
  CHECK_EQ_U64((uint64_t)here, (uint64_t)quiet);
  /* the ack from DRAM comes later than the L2's */
  CHECK(cycles_at(1, 120, 100, "below", 1, 32) > cycles_at(1, 120, 100, "here", 1, 32));
}

/* A write-evict L2 sends each store to DRAM unallocated and acks it as back_fetch does (3.2.2's
 * DRAM returns every write but a write-back, dram_t::cycle): with below the ack crosses the DRAM
 * latency queue (40 more cycles of it: 40 more), with here not; the waiting warps retire, each
 * warp's one-line store is one L2 write miss, and with below one DRAM write before the end. */
static uint64_t evict_cycles(const char *ack, unsigned dq, int store, uint32_t threads) {
  char *j = run_at(1, 120, dq, ack, "evict", store, threads);
  if (!j) return UINT64_MAX;
  uint64_t c = test_json_u64(j, NULL, "cycles");
  if (store) {
    const uint64_t lines = threads / 32;
    CHECK_EQ_U64(test_json_u64(j, "\"l2\": {", "writes"), lines);
    CHECK_EQ_U64(test_json_u64(j, "\"l2\": {", "write_misses"), lines);
    CHECK_EQ_U64(test_json_u64(j, "\"l2\": {", "write_hits"), 0);
    if (!strcmp(ack, "below")) CHECK_EQ_U64(test_json_u64(j, "\"dram\": {", "writes"), lines);
  }
  free(j);
  return c;
}

static void test_evict_l2(void) {
  for (uint32_t threads = 32; threads <= 256; threads *= 8) {
    const uint64_t below = evict_cycles("below", 100, 1, threads),
                   here = evict_cycles("here", 100, 1, threads);
    CHECK(below != UINT64_MAX && here != UINT64_MAX); /* no deadlock */
    CHECK(below > here);
  }
  const int64_t quiet =
      (int64_t)evict_cycles("below", 140, 0, 32) - (int64_t)evict_cycles("below", 100, 0, 32);
  const int64_t below =
      (int64_t)evict_cycles("below", 140, 1, 32) - (int64_t)evict_cycles("below", 100, 1, 32);
  const int64_t here = (int64_t)evict_cycles("here", 140, 1, 32) - (int64_t)evict_cycles("here", 100, 1, 32);
  CHECK(quiet > 0);
  CHECK_EQ_U64((uint64_t)below, (uint64_t)(quiet + 40));
  CHECK_EQ_U64((uint64_t)here, (uint64_t)quiet);
}

int main(void) {
  TEST_RUN(test_end);
  TEST_RUN(test_ack_on_path);
  TEST_RUN(test_ack_from_dram);
  TEST_RUN(test_evict_l2);
  return TEST_DONE();
}
