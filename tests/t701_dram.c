/* t701_dram.c - one DRAM channel: row-hit / row-closed / row-conflict
 * latencies ("issue at t, not ready at t+lat-1, ready at t+lat"), FR-FCFS
 * reordering a row hit ahead of an older row miss (and FCFS not doing so),
 * peak bandwidth of a request stream, writes, and event skipping giving the
 * same timing as ticking every cycle. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "mem/addrmap.h"
#include "mem/dram.h"

TEST_GLOBALS;

/* GDDR5 timing of gtx480.cfg, with the DRAM clock equal to the core clock
 * unless a test says otherwise, so latencies are exact integers. */
static DramParams params(void) {
  return (DramParams){.name = "dram",
                      .banks = 16,
                      .row_size = 4096,
                      .bus_width = 8,
                      .data_rate = 4,
                      .burst_length = 8,
                      .tCL = 12,
                      .tRCD = 12,
                      .tRP = 12,
                      .tRAS = 28,
                      .tRC = 40,
                      .tCCD = 2,
                      .tRRD = 6,
                      .tWL = 4,
                      .tWR = 12,
                      .queue_size = 16,
                      .return_queue = 64,
                      .fcfs = false,
                      .dram_mhz = 1000,
                      .core_mhz = 1000};
}

static MemRequest rd(int tag) {
  return (MemRequest){
      .addr = (uint64_t)tag * 128, .line_addr = (uint64_t)tag * 128, .sm = 0, .warp = tag, .bytes = 128};
}

/* Pushes at `t` (after tick(t)) and returns the first cycle its data is back. */
static uint64_t latency_of(DramChannel *d, uint32_t bank, uint32_t row, uint64_t t) {
  dram_tick(d, t);
  MemRequest r = rd(1);
  dram_push(d, &r, bank, row, t);
  for (uint64_t c = t + 1; c < t + 10000; c++) {
    dram_tick(d, c);
    if (dram_peek_return(d, c)) {
      dram_pop_return(d);
      return c - t;
    }
  }
  return 0;
}

static void test_row_latencies(void) {
  DramParams p = params();
  DramChannel *d = dram_create(&p, (char[128]){0}, 128);
  if (!d) return;
  const uint64_t data = 128 / (8 * 8) * (8 / 4); /* 2 bursts x 2 clocks */
  const uint64_t hit = 1 + p.tCL + data;         /* +1: it arrives in the cycle after the push */
  uint64_t closed = latency_of(d, 3, 7, 100);    /* bank 3 precharged: ACT + RD */
  uint64_t rowhit = latency_of(d, 3, 7, 300);    /* row 7 open */
  uint64_t conflict = latency_of(d, 3, 9, 500);  /* row 7 open, row 9 wanted: PRE + ACT + RD */
  CHECK_EQ_U64(rowhit, hit);
  CHECK_EQ_U64(closed, hit + p.tRCD);
  CHECK_EQ_U64(conflict - rowhit, p.tRP + p.tRCD);
  /* the "not ready at t+lat-1" half, explicitly */
  dram_tick(d, 700);
  MemRequest r = rd(2);
  dram_push(d, &r, 3, 9, 700);
  for (uint64_t c = 701; c < 700 + hit; c++) {
    dram_tick(d, c);
    CHECK(dram_peek_return(d, c) == NULL);
  }
  dram_tick(d, 700 + hit);
  CHECK(dram_peek_return(d, 700 + hit) != NULL);
  dram_pop_return(d);
  const DramStats *s = dram_stats(d);
  CHECK_EQ_U64(s->reads, 4);
  CHECK_EQ_U64(s->row_hits, 2);
  CHECK_EQ_U64(s->row_closed, 1);
  CHECK_EQ_U64(s->row_conflicts, 1);
  CHECK_EQ_U64(s->activates, 2);
  CHECK_EQ_U64(s->precharges, 1);
  dram_free(d);
}

/* An older request to another row of the open bank, then a younger row hit. */
static void run_reorder(bool fcfs, int *first, int *second) {
  DramParams p = params();
  p.fcfs = fcfs;
  DramChannel *d = dram_create(&p, (char[128]){0}, 128);
  if (!d) return;
  CHECK(latency_of(d, 0, 1, 10) > 0); /* opens row 1 of bank 0 */
  dram_tick(d, 200);
  MemRequest older = rd(10), younger = rd(20);
  dram_push(d, &older, 0, 2, 200);
  dram_push(d, &younger, 0, 1, 200);
  int n = 0;
  for (uint64_t c = 201; c < 1000 && n < 2; c++) {
    dram_tick(d, c);
    for (const MemRequest *m; (m = dram_peek_return(d, c)) != NULL; dram_pop_return(d))
      *(n++ ? second : first) = m->warp;
  }
  CHECK(n == 2);
  dram_free(d);
}

static void test_frfcfs_reorders(void) {
  int a = 0, b = 0;
  run_reorder(false, &a, &b);
  CHECK(a == 20 && b == 10); /* FR-FCFS: the row hit overtakes the older row miss */
  run_reorder(true, &a, &b);
  CHECK(a == 10 && b == 20); /* FCFS: arrival order */
}

/* Keeps the queue full with a sequential stream of line reads (row hits
 * mostly, spread over banks by the address map) and measures delivered bytes
 * per core cycle against the configured peak. */
static double stream_fraction(DramParams p, int n, bool writes) {
  DramChannel *d = dram_create(&p, (char[128]){0}, 128);
  if (!d) return 0;
  AddrMap m = {.parts = 1, .chunk = 128, .banks = p.banks, .row_size = p.row_size};
  int pushed = 0, done = 0;
  uint64_t start = 0, end = 0;
  for (uint64_t c = 0; done < n && c < 10000000; c++) {
    dram_tick(d, c);
    while (dram_peek_return(d, c)) dram_pop_return(d), done++;
    if (writes) done = (int)(dram_stats(d)->writes);
    while (pushed < n && dram_can_accept(d)) {
      MemRequest r = rd(pushed);
      r.is_write = writes;
      uint64_t a = (uint64_t)pushed * 128;
      dram_push(d, &r, addrmap_bank(&m, a), addrmap_row(&m, a), c);
      pushed++;
    }
    end = c;
  }
  (void)start;
  const DramStats *s = dram_stats(d);
  double bytes_per_core = (double)s->bytes / (double)end;
  double frac = bytes_per_core / dram_peak_bytes_per_core_cycle(&p);
  printf("  stream of %d %s at %u/%u MHz: %.2f B/core cycle of %.2f peak (%.1f%%), row hits %.1f%%\n", n,
         writes ? "writes" : "reads", p.dram_mhz, p.core_mhz, bytes_per_core,
         dram_peak_bytes_per_core_cycle(&p), 100 * frac,
         100.0 * (double)s->row_hits / (double)(s->reads + s->writes));
  dram_free(d);
  return frac;
}

static void test_bandwidth(void) {
  DramParams p = params();
  CHECK(dram_peak_bytes_per_core_cycle(&p) == 32.0);
  double f = stream_fraction(p, 20000, false);
  CHECK(f > 0.97 && f <= 1.0);
  p.dram_mhz = 924, p.core_mhz = 700; /* gtx480: 32 B x 924/700 = 42.24 B per core cycle per channel */
  CHECK(dram_peak_bytes_per_core_cycle(&p) > 42.2 && dram_peak_bytes_per_core_cycle(&p) < 42.3);
  f = stream_fraction(p, 20000, false);
  CHECK(f > 0.97 && f <= 1.0);
  f = stream_fraction(p, 20000, true);
  CHECK(f > 0.97 && f <= 1.0);
}

static void test_event_skipping(void) {
  /* Ticking only at dram_next_event() gives the same completion cycles as every cycle. */
  DramParams p = params();
  p.dram_mhz = 924, p.core_mhz = 700;
  uint64_t done[2][8];
  for (int mode = 0; mode < 2; mode++) {
    DramChannel *d = dram_create(&p, (char[128]){0}, 128);
    if (!d) return;
    dram_tick(d, 5);
    for (int i = 0; i < 8; i++) {
      MemRequest r = rd(i);
      dram_push(d, &r, (uint32_t)(i % 3), (uint32_t)(i % 2), 5);
    }
    int n = 0;
    for (uint64_t c = 6; n < 8 && c < 100000;) {
      dram_tick(d, c);
      for (const MemRequest *m; (m = dram_peek_return(d, c)) != NULL; dram_pop_return(d))
        done[mode][m->warp] = c, n++;
      uint64_t nx = dram_next_event(d, c);
      c = mode ? nx : c + 1;
      if (mode) CHECK(nx > c - 1 || nx == UINT64_MAX);
    }
    CHECK(n == 8);
    CHECK(dram_idle(d) && dram_next_event(d, 1000) == UINT64_MAX);
    dram_free(d);
  }
  for (int i = 0; i < 8; i++) CHECK_EQ_U64(done[0][i], done[1][i]);
}

static void test_write_recovery(void) {
  /* A write to an open row delays the precharge a conflicting read needs by tWR after its data. */
  DramParams p = params();
  DramChannel *d = dram_create(&p, (char[128]){0}, 128);
  if (!d) return;
  CHECK(latency_of(d, 2, 1, 10) > 0);
  uint64_t conflict = latency_of(d, 2, 3, 200);
  CHECK_EQ_U64(conflict - latency_of(d, 2, 3, 400), p.tRP + p.tRCD);
  /* row 3 is open; write to it, then read row 1 at once */
  dram_tick(d, 600);
  MemRequest w = rd(5), r = rd(6);
  w.is_write = 1;
  dram_push(d, &w, 2, 3, 600);
  dram_push(d, &r, 2, 1, 600);
  uint64_t c = 601;
  for (; c < 2000; c++) {
    dram_tick(d, c);
    if (dram_peek_return(d, c)) break;
  }
  /* write COL at 601, data 601+tWL..+4, PRE at +tWR, ACT +tRP, RD +tRCD, data +tCL+4 */
  uint64_t expect = 601 + p.tWL + 4 + p.tWR + p.tRP + p.tRCD + p.tCL + 4;
  CHECK_EQ_U64(c, expect);
  CHECK_EQ_U64(dram_stats(d)->writes, 1);
  dram_pop_return(d);
  dram_free(d);
}

static void test_params_from_config(void) {
  Config *cfg = cfg_create();
  DramParams p;
  char err[256];
  CHECK(dram_params_read(cfg, 700, &p, err, sizeof err) == 0);
  CHECK(p.tCL == 12 && p.tRCD == 12 && p.banks == 16 && p.dram_mhz == 924 && p.core_mhz == 700);
  /* 6 channels of gtx480.cfg: 177.4 GB/s */
  double gbs = 6 * dram_peak_bytes_per_core_cycle(&p) * 700e6 / 1e9;
  CHECK(gbs > 177.0 && gbs < 177.8);
  CHECK(cfg_set(cfg, "dram.burst_length=6") == 0);
  CHECK(dram_params_read(cfg, 700, &p, err, sizeof err) != 0);
  CHECK_STR_CONTAINS(err, "--set: dram.burst_length: 6 beats is not a whole number of command clocks");
  cfg_free(cfg);
}

int main(void) {
  TEST_RUN(test_row_latencies);
  TEST_RUN(test_frfcfs_reorders);
  TEST_RUN(test_bandwidth);
  TEST_RUN(test_event_skipping);
  TEST_RUN(test_write_recovery);
  TEST_RUN(test_params_from_config);
  return TEST_DONE();
}
