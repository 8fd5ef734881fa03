/* t202_micro.c - the microbenchmarks on the timing model: the pointer chase
 * (bench/pchase) measures every level's configured latency plus the SM's
 * one-cycle offset (the LD/ST unit sends a request to the L1D in the cycle
 * after issue; the reply releases the register in the cycle it arrives, when
 * the dependent load can issue) and, with the operand collector, one more
 * (the address register's read), two more again on GPGPU-Sim 3.2.2's memory
 * collector path (the presets' sm.mem_issue), also after the latencies are changed; the
 * streaming kernels (bench/stream) reach >= 85% of the configured DRAM
 * bandwidth; both pass their checks in functional mode. */
#include <stdlib.h>

#include "../bench/pchase/pchase.h"
#include "../bench/stream/stream.h"
#include "common/test.h"
#include "common/timing.h"
#include "mem/memsys.h"

TEST_GLOBALS;

static void check_pchase(const char *const *sets) {
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return;
  }
  BenchRun r = {t.ctx, BENCH_TINY, 1, stderr, 0};
  PchaseResult res;
  CHECK(pchase_measure(&r, &res) == BENCH_PASS);
  CHECK(res.timing);
  /* the unloaded L2 hit and DRAM row hit the memory system was built for: the
   * configured minima, or what GPGPU-Sim's ROP delay and DRAM latency queue
   * (l2.rop_latency, dram.latency_queue) add up to with the rest of the path */
  const MemSysDelays *md = memsys_delays((MemSys *)gpu_memsys(t.gpu));
  const int64_t l2lat = cfg_int(t.cfg, "l2.latency") ? cfg_int(t.cfg, "l2.latency") : 1;
  double l1 = (double)cfg_int(t.cfg, "l1d.latency"), l2 = (double)(md->l2_fixed + md->l2_input);
  double dram = l2 + (double)md->dram_ctrl + (double)md->dram_row_hit + 1.0 - (double)l2lat;
  if (!cfg_int(t.cfg, "l2.rop_latency"))
    CHECK_EQ_U64((uint64_t)l2, (uint64_t)cfg_int(t.cfg, "l2.min_latency"));
  if (!cfg_int(t.cfg, "dram.latency_queue"))
    CHECK_EQ_U64((uint64_t)dram, (uint64_t)cfg_int(t.cfg, "dram.min_latency"));
  double rowmiss = dram + (double)(cfg_int(t.cfg, "dram.tRP") + cfg_int(t.cfg, "dram.tRCD")) *
                              (double)cfg_int(t.cfg, "sm.clock_mhz") /
                              (double)cfg_int(t.cfg, "dram.clock_mhz");
  /* per round of 128 loads, 3 more cycles: the first load issues the cycle
   * after the first clock read; the add and the clock read after the last
   * load take 2 */
  uint64_t l1_rounds = res.steps[PCHASE_L1] / 128, l2_rounds = res.steps[PCHASE_L2] / 128;
  /* with the operand collector (sm.reg_banks > 0) a load reads its address
   * register in the cycle after issue and reaches the LD/ST unit one cycle
   * later than without: one more cycle per load (and per level below) */
  const uint64_t oc = cfg_int(t.cfg, "sm.reg_banks") > 0;
  l1 += (double)oc, l2 += (double)oc, dram += (double)oc, rowmiss += (double)oc;
  /* on the memory collector path (sm.mem_issue = collector) a load issued at t enters
   * ID_OC_MEM, a memory collector unit takes it at t + 1 and reads its address at t + 2, it
   * moves into OC_EX_MEM at t + 3 and into the idle unit after that cycle's unit step, and
   * sends its request at t + 4: two cycles after the calendar path's t + 2 */
  const uint64_t mc = strcmp(cfg_str(t.cfg, "sm.mem_issue"), "collector") == 0 ? 2 : 0;
  l1 += (double)mc, l2 += (double)mc, dram += (double)mc, rowmiss += (double)mc;
  fprintf(stderr, "pchase per load: l1 %.3f l2 %.3f dram %.3f dram_rowmiss %.3f (configured %g %g %g %.1f)\n",
          res.per_load[PCHASE_L1], res.per_load[PCHASE_L2], res.per_load[PCHASE_DRAM],
          res.per_load[PCHASE_DRAM_ROWMISS], l1, l2, dram, rowmiss);
  CHECK_EQ_U64(res.cycles[PCHASE_L1], res.steps[PCHASE_L1] * ((uint64_t)l1 + 1) + 3 * l1_rounds);
  CHECK_EQ_U64(res.cycles[PCHASE_L2], res.steps[PCHASE_L2] * ((uint64_t)l2 + 1) + 3 * l2_rounds);
  /* DRAM: 220 to 222 by the phase of the 924/700 MHz clocks (a 128 B read's two bursts are
   * tCCDL apart in one bank group: 17 DRAM cycles, the minimum 220 at the best phase), plus one
   * activate per 32 lines */
  CHECK(res.per_load[PCHASE_DRAM] >= dram + 1 && res.per_load[PCHASE_DRAM] <= dram + 3);
  CHECK(res.per_load[PCHASE_DRAM_ROWMISS] >= rowmiss && res.per_load[PCHASE_DRAM_ROWMISS] <= rowmiss + 3);
  test_gpu_close(&t);
}

static void test_pchase_gtx480(void) { check_pchase(NULL); }

static void test_pchase_other_latencies(void) {
  const char *sets[] = {"l1d.latency=20",     "l2.rop_latency=0",     "dram.latency_queue=0",
                        "l2.min_latency=200", "dram.min_latency=300", NULL};
  check_pchase(sets);
}

static void test_pchase_functional(void) {
  WsContext *ctx;
  CHECK(ws_ctx_create(&ctx, NULL) == WS_SUCCESS);
  BenchRun r = {ctx, BENCH_TINY, 1, stderr, 0};
  PchaseResult res;
  CHECK(pchase_measure(&r, &res) == BENCH_PASS);
  CHECK(!res.timing);
  ws_ctx_destroy(ctx);
}

/* Without GPGPU-Sim 3.2.2's limits (the simple crossbar with 2-flit SM ports, no bank groups) the stream
 * nears the pins; with them (gtx480) a 64 B burst issues every tCCDL = 3 DRAM
 * cycles within a bank group and the reply port of each SM carries 32 B/cycle:
 * about 2/3 of the peak, as GPGPU-Sim 3.2.2's own sequential bandwidth. */
static void check_stream(const char *const *sets, double lo, double hi) {
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return;
  }
  BenchRun r = {t.ctx, BENCH_TINY, 1, stderr, 0};
  StreamResult res;
  CHECK(stream_measure(&r, &res) == BENCH_PASS);
  /* peak bytes per core cycle: channels x bus bytes x beats per DRAM clock x DRAM/core clock */
  double peak = (double)(cfg_int(t.cfg, "mem.partitions") * cfg_int(t.cfg, "dram.bus_width") *
                         cfg_int(t.cfg, "dram.data_rate")) *
                (double)cfg_int(t.cfg, "dram.clock_mhz") / (double)cfg_int(t.cfg, "sm.clock_mhz");
  /* what DRAM really transferred during both kernels (the L2 still holds some dirty lines: conservative) */
  MemSys *ms = (MemSys *)gpu_memsys(t.gpu);
  uint64_t dram_bytes = 0;
  for (uint32_t p = 0; p < memsys_partitions(ms); p++) dram_bytes += dram_stats(memsys_dram(ms, p))->bytes;
  double dram_bpc = (double)dram_bytes / (double)(res.cycles[STREAM_COPY] + res.cycles[STREAM_TRIAD]);
  fprintf(stderr,
          "stream: peak %.1f B/cycle; copy %.1f (%.1f%%), triad %.1f (%.1f%%), DRAM bytes over both %.1f "
          "(%.1f%%)\n",
          peak, res.bytes_per_cycle[STREAM_COPY], 100 * res.bytes_per_cycle[STREAM_COPY] / peak,
          res.bytes_per_cycle[STREAM_TRIAD], 100 * res.bytes_per_cycle[STREAM_TRIAD] / peak, dram_bpc,
          100 * dram_bpc / peak);
  CHECK(peak > 253.0 && peak < 254.0);
  CHECK(res.bytes_per_cycle[STREAM_COPY] >= lo * peak);
  CHECK(dram_bpc >= lo * peak);
  CHECK(res.bytes_per_cycle[STREAM_COPY] <=
        hi * peak); /* nothing faster than the pins (L2 absorbs < 768 KB) */
  test_gpu_close(&t);
}

/* The stream's own bytes are all that DRAM moves only where a store miss does not read its line:
 * l2.write_policy=back (gtx480's back_fetch adds a line read to every store, 3.2.2's write allocation). */
static void test_stream_bandwidth(void) {
  const char *wide[] = {"icnt.model=simple", /* intersim: 1 flit per node per cycle, as 3.2.2 */
                        "icnt.reply_hold=none",
                        "icnt.sm_flits_per_cycle=2",
                        "dram.bank_groups=1",
                        "dram.tCCDL=0",
                        "dram.tRTPL=0",
                        "l2.write_policy=back",
                        NULL};
  const char *gtx480[] = {"l2.write_policy=back", NULL};
  check_stream(wide, 0.85, 1.05);
  check_stream(gtx480, 0.6, 0.75);
}

static void test_stream_functional(void) {
  WsContext *ctx;
  CHECK(ws_ctx_create(&ctx, NULL) == WS_SUCCESS);
  BenchRun r = {ctx, BENCH_TINY, 1, stderr, 0};
  StreamResult res;
  CHECK(stream_measure(&r, &res) == BENCH_PASS);
  CHECK(res.cycles[STREAM_COPY] == 0);
  ws_ctx_destroy(ctx);
}

int main(void) {
  TEST_RUN(test_pchase_gtx480);
  TEST_RUN(test_pchase_other_latencies);
  TEST_RUN(test_pchase_functional);
  TEST_RUN(test_stream_bandwidth);
  TEST_RUN(test_stream_functional);
  return TEST_DONE();
}
