/* t606_reply_hold.c - GPGPU-Sim 3.2.2's reply path (icnt.reply_hold = gpgpusim): a port's
 * response FIFO hands one reply per cycle to the L1s, takes one per cycle from the network, and
 * when full backs replies up into the partitions, whose replies then wait for room in the reply
 * network's input buffer (counted as mem_stalls, GPGPU-Sim's gpu_stall_icnt2sh). */
#include <stdlib.h>
#include <string.h>

#include "common/test.h"
#include "core/config.h"
#include "common/memsys_test.h"
#include "mem/memsys.h"
#include "sim/config_schema.h"
#include "sim/policies.h"

TEST_GLOBALS;

/* ccws-gt200 (clusters of 3 SMs) on the simple crossbar (reply_hold none unless `set` says) with
 * wide ports, so that several replies reach one port in a cycle, and the sets in `set`
 * (space-separated). */
static MemSys *make(const char *set) {
  char sets[512];
  snprintf(
      sets, sizeof sets,
      "icnt.model=simple icnt.reply_hold=none icnt.sm_flits_per_cycle=16 icnt.reply_flits_per_cycle=16 %s",
      set ? set : "");
  return test_memsys_open("configs/ccws-gt200.cfg", sets);
}

/* The cycles three SMs of one cluster get their L2 hits back (lines warmed by SMs 27-29). */
static void cluster_hits(const char *set, uint64_t *d) {
  MemSys *ms = make(set);
  if (!ms) {
    CHECK(0);
    return;
  }
  const uint32_t warm[] = {27, 28, 29}, sm[] = {0, 1, 2};
  test_memsys_three_loads(ms, warm, 10, d);
  test_memsys_three_loads(ms, sm, 5000, d);
  MemSysReplyStats rs = memsys_reply_stats(ms);
  CHECK_EQ_U64(rs.mem_stalls, 0);
  CHECK_EQ_U64(rs.refused, 0);
  memsys_free(ms);
}

/* Three replies reaching one port in the same cycle: without the FIFO they fill their L1s
 * together; with it, one per cycle, the first one cycle later (the FIFO's stage). */
static void test_one_per_cycle(void) {
  uint64_t a[3], b[3];
  cluster_hits(NULL, a);
  cluster_hits("icnt.reply_hold=gpgpusim", b);
  fprintf(stderr, "none: %llu %llu %llu; gpgpusim: %llu %llu %llu\n", (unsigned long long)a[0],
          (unsigned long long)a[1], (unsigned long long)a[2], (unsigned long long)b[0],
          (unsigned long long)b[1], (unsigned long long)b[2]);
  CHECK_EQ_U64(a[1], a[0]);
  CHECK_EQ_U64(a[2], a[0]);
  uint64_t lo = b[0], hi = b[0];
  for (int k = 1; k < 3; k++) lo = b[k] < lo ? b[k] : lo, hi = b[k] > hi ? b[k] : hi;
  CHECK_EQ_U64(lo, a[0] + 1);
  CHECK_EQ_U64(hi, a[0] + 3);
  CHECK(b[0] != b[1] && b[1] != b[2] && b[0] != b[2]);
}

/* SMs 0-2 (one port) each load n lines that hit in the L2, spread over the partitions, a
 * request per SM per cycle: up to three replies a cycle for the port; returns the cycle the last reply
 * reached an L1, and the reply statistics. */
/* mem_stalls read at each cycle of the second pass (a nap's skipped cycles count when read) */
static uint64_t burst_stalls[20000];

static uint64_t burst(const char *set, uint32_t n, MemSysReplyStats *rs, CacheStats *l2) {
  MemSys *ms = make(set);
  if (!ms) {
    CHECK(0);
    return 0;
  }
  uint32_t got = 0, want = 0;
  uint64_t last = 0;
  for (int pass = 0; pass < 2; pass++) {
    uint32_t base_sm = pass ? 0 : 27; /* pass 0 warms the L2 from another cluster */
    uint64_t t0 = pass ? 20000 : 10;
    uint32_t sent[3] = {0};
    for (uint64_t c = t0; c < t0 + 20000; c++) {
      memsys_tick(ms, c);
      if (pass) burst_stalls[c - t0] = memsys_reply_stats(ms).mem_stalls;
      for (uint32_t k = 0; k < 3; k++) {
        Cache *l1 = memsys_l1d(ms, base_sm + k);
        if (sent[k] < n) {
          uint64_t a = (uint64_t)(k * n + sent[k]) * 256; /* consecutive partitions */
          MemRequest r = {
              .addr = a, .line_addr = a, .sm = (int32_t)(base_sm + k), .bytes = 128, .unit = MEM_UNIT_L1D};
          CacheResult res = cache_access(l1, &r, c);
          if (res.outcome != CACHE_RESFAIL) {
            CHECK(res.outcome == CACHE_MISS);
            sent[k]++, want += pass;
          }
        }
        while (cache_take_reply(l1, c)) got += pass, last = c;
      }
    }
  }
  CHECK_EQ_U64(got, want);
  CHECK(memsys_idle(ms));
  *rs = memsys_reply_stats(ms);
  if (l2) {
    memset(l2, 0, sizeof *l2);
    for (uint32_t p = 0; p < memsys_partitions(ms); p++) cache_stats_add(l2, cache_stats(memsys_l2(ms, p)));
  }
  memsys_free(ms);
  return last;
}

/* Replies reaching the port faster (16 flits, three 5-flit replies, per cycle) than it ejects
 * them (one per cycle) wait in the network (eject_waits) and take 25 cycles longer to drain;
 * with the partitions' input buffers at one reply, their replies then wait for room there
 * (mem_stalls), where warpsim's own 8-packet source queues never fill. */
static void test_backs_up(void) {
  MemSysReplyStats a, b;
  const char *tight = "icnt.out_queue=1 icnt.latency=1";
  char set[256];
  uint64_t ta = burst(tight, 12, &a, NULL);
  snprintf(set, sizeof set, "%s icnt.reply_hold=gpgpusim icnt.reply_fifo=1 icnt.reply_input_flits=5", tight);
  uint64_t tb = burst(set, 12, &b, NULL);
  fprintf(stderr,
          "36 L2 hits to one port: none %llu cycles, mem_stalls %llu; gpgpusim %llu cycles, "
          "mem_stalls %llu, eject_waits %llu, refused %llu\n",
          (unsigned long long)ta, (unsigned long long)a.mem_stalls, (unsigned long long)tb,
          (unsigned long long)b.mem_stalls, (unsigned long long)b.eject_waits, (unsigned long long)b.refused);
  CHECK_EQ_U64(a.eject_waits, 0);
  CHECK_EQ_U64(a.mem_stalls, 0);
  CHECK(b.eject_waits > 0);
  CHECK(b.mem_stalls > 0);
  CHECK_EQ_U64(b.refused, 0);
  CHECK(tb > ta);
}

/* The intersim crossbar with one reply's room in each partition's input buffer: replies wait
 * there, and with cycle skipping a waiting partition naps until the network makes room instead of
 * asking every cycle. Napping or ticked every cycle, the same cycles, stalls and refused L2
 * accesses. */
static void test_nap_exact(void) {
  const char *xb = "icnt.model=intersim icnt.reply_hold=gpgpusim icnt.reply_fifo=1 "
                   "icnt.intersim_input_buffer_size=5";
  char set[256];
  MemSysReplyStats a, b;
  CacheStats la, lb;
  snprintf(set, sizeof set, "%s sm.skip_idle_cycles=false", xb);
  uint64_t ta = burst(set, 24, &a, &la);
  static uint64_t stalls[20000];
  memcpy(stalls, burst_stalls, sizeof stalls);
  snprintf(set, sizeof set, "%s sm.skip_idle_cycles=true", xb);
  uint64_t tb = burst(set, 24, &b, &lb);
  uint32_t differ = 0;
  for (uint32_t k = 0; k < 20000; k++) differ += burst_stalls[k] != stalls[k];
  CHECK_EQ_U64(differ, 0); /* read at every cycle, naps included */
  fprintf(stderr,
          "intersim, 72 L2 hits to one port: %llu cycles, mem_stalls %llu, L2 refused %llu (reply queue), "
          "%llu (port)\n",
          (unsigned long long)ta, (unsigned long long)a.mem_stalls,
          (unsigned long long)la.resfail[CACHE_FAIL_REPLY_QUEUE],
          (unsigned long long)la.resfail[CACHE_FAIL_PORT]);
  CHECK(a.mem_stalls > 0);
  CHECK_EQ_U64(tb, ta);
  CHECK_EQ_U64(b.mem_stalls, a.mem_stalls);
  CHECK_EQ_U64(b.eject_waits, a.eject_waits);
  CHECK_EQ_U64(b.refused, a.refused);
  for (int k = 0; k < CACHE_FAIL__COUNT; k++) CHECK_EQ_U64(lb.resfail[k], la.resfail[k]);
  CHECK_EQ_U64(lb.reads, la.reads);
}

/* Bad values name their key. */
static void test_bad_config(void) {
  Config *cfg = cfg_create();
  CHECK(cfg_set(cfg, "icnt.reply_hold=islip") != 0);
  CHECK(cfg_set(cfg, "icnt.reply_fifo=0") != 0);
  cfg_free(cfg);
}

int main(void) {
  TEST_RUN(test_one_per_cycle);
  TEST_RUN(test_backs_up);
  TEST_RUN(test_nap_exact);
  TEST_RUN(test_bad_config);
  return TEST_DONE();
}
