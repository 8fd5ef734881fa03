/* t602_memsys.c - the assembled memory system under load, driven by mock
 * SMs: streaming bandwidth against the configured DRAM peak, stores with
 * L2 write-back and dirty evictions reaching DRAM, partition interleaving,
 * determinism (identical JSON), event skipping equal to ticking every cycle,
 * the tick's two halves equal to the whole tick, and the CCWS preset. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "mem/memsys.h"
#include "sim/policies.h"

TEST_GLOBALS;

static MemSys *make(const char *preset, const char *const *sets, int n) {
  Config *cfg = cfg_create();
  CHECK(cfg_load_file(cfg, preset) == 0);
  for (int i = 0; i < n; i++) CHECK(cfg_set(cfg, sets[i]) == 0);
  char err[512] = "";
  MemSys *ms = sim_memsys_create(cfg, NULL, err, sizeof err);
  if (!ms) fprintf(stderr, "sim_memsys_create: %s\n", err);
  cfg_free(cfg);
  return ms;
}

/* The value on the text printer's line of statistic `name` ("name   value unit"), or UINT64_MAX. */
static uint64_t text_stat(const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
    if (!strncmp(l, name, n) && l[n] == ' ') return strtoull(l + n, NULL, 10);
  return UINT64_MAX;
}

static char *stats_json(const MemSys *ms) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  memsys_print_stats(ms, f, true);
  fclose(f);
  return buf;
}

/* Every SM streams loads over its own region, one line request per cycle
 * (the LD/ST unit's rate), retrying after a reservation failure. Returns the
 * DRAM bytes per core cycle over the measured window. */
static double stream(MemSys *ms, MemClass cls, bool regions, uint64_t cycles, uint64_t *fails) {
  const uint32_t n = memsys_sms(ms);
  uint64_t next[64] = {0}, replies = 0;
  const MemRequest *out;
  uint64_t warm = 2000, bytes0 = 0;
  for (uint64_t c = 0; c < warm + cycles; c++) {
    if (c == warm) {
      char *j = stats_json(ms);
      const char *p = strstr(j, "\"dram\": {");
      bytes0 = p ? strtoull(strstr(p, "\"bytes\": ") + 9, NULL, 10) : 0;
      free(j);
    }
    memsys_tick(ms, c);
    for (uint32_t s = 0; s < n; s++) {
      Cache *l1 = memsys_l1d(ms, s);
      while ((out = cache_take_reply(l1, c))) replies++;
      /* regions: each SM its own far-apart region; else one array, SMs interleaved by line */
      uint64_t addr = regions ? ((uint64_t)s << 28) + next[s] * 128 : (next[s] * n + s) * 128;
      MemRequest r = {.addr = addr,
                      .line_addr = addr,
                      .sm = (int32_t)s,
                      .warp = 0,
                      .bytes = 128,
                      .access_class = (uint8_t)cls,
                      .unit = MEM_UNIT_L1D,
                      .issue_cycle = c};
      CacheResult res = cache_access(l1, &r, c);
      if (res.outcome == CACHE_RESFAIL)
        (*fails)++;
      else
        next[s]++;
    }
  }
  char *j = stats_json(ms);
  const char *p = strstr(j, "\"dram\": {");
  uint64_t bytes1 = p ? strtoull(strstr(p, "\"bytes\": ") + 9, NULL, 10) : 0;
  free(j);
  CHECK(replies > 0);
  return (double)(bytes1 - bytes0) / (double)cycles;
}

/* The memory side's capacity is measured with SM ports as wide as the
 * partitions' (icnt.sm_flits_per_cycle=2) and no DRAM bank groups; with
 * gtx480's GPGPU-Sim 3.2.2 settings the same streams are printed, not checked:
 * replies to one SM serialize at 32 B/cycle, a partition's queue waits behind
 * a busy SM, and consecutive 256 B chunks of a channel share a bank group. */
static void test_stream_bandwidth(void) {
  const double peak = 6 * 32.0 * 924 / 700; /* 253.4 B per core cycle = 177.4 GB/s at 700 MHz */
  for (int narrow = 0; narrow < 2; narrow++)
    for (int regions = 0; regions < 2; regions++) {
      for (int cls = MEM_CLASS_CA; cls <= MEM_CLASS_CG; cls++) {
        const char *wide[] = {"icnt.sm_flits_per_cycle=2", "dram.bank_groups=1", "dram.tCCDL=0"};
        MemSys *ms = make("configs/gtx480.cfg", wide, narrow ? 0 : 3);
        if (!ms) return;
        uint64_t fails = 0;
        double bw = stream(ms, (MemClass)cls, regions, 20000, &fails);
        DramStats dr = {0};
        for (uint32_t p = 0; p < memsys_partitions(ms); p++)
          dram_stats_add(&dr, dram_stats(memsys_dram(ms, p)));
        printf("  %s, %s loads, %s: %.1f B/cycle = %.1f%% of %.1f peak (%.1f GB/s), row hits %.1f%%, "
               "%llu reservation fails\n",
               narrow ? "gtx480" : "2-flit SM ports, no bank groups", cls == MEM_CLASS_CA ? "ca" : "cg",
               regions ? "15 separate regions" : "one array", bw, 100 * bw / peak, peak, bw * 0.7,
               100.0 * (double)dr.row_hits / (double)(dr.reads + dr.writes), (unsigned long long)fails);
        if (!regions && !narrow) CHECK(bw > 0.85 * peak);
        CHECK(bw <= peak * 1.001);
        memsys_free(ms);
      }
    }
}

/* 200 stores of 32 B to 200 lines through a 1-set-per-slice L2 (l2.size=6K); returns the
 * stores acked. */
static int store_lines(MemSys *ms) {
  int acks = 0, sent = 0;
  const MemRequest *out;
  for (uint64_t c = 0; c < 20000; c++) {
    memsys_tick(ms, c);
    Cache *l1 = memsys_l1d(ms, 0);
    while ((out = cache_take_reply(l1, c))) acks += out->is_write;
    if (sent < 200) {
      uint64_t addr = (uint64_t)sent * 128;
      MemRequest r = {
          .addr = addr, .line_addr = addr, .sm = 0, .bytes = 32, .is_write = 1, .unit = MEM_UNIT_L1D};
      if (cache_access(l1, &r, c).outcome != CACHE_RESFAIL) sent++;
    }
  }
  return acks;
}

static void test_store_writeback(void) {
  /* write-back without fetch: stores to many lines evict dirty lines */
  const char *sets[] = {"l2.size=6K", "l2.assoc=8", "l2.write_policy=back"};
  MemSys *ms = make("configs/gtx480.cfg", sets, 3);
  if (!ms) return;
  CHECK(store_lines(ms) == 200);
  CacheStats l2 = {0};
  DramStats dr = {0};
  for (uint32_t p = 0; p < memsys_partitions(ms); p++) {
    cache_stats_add(&l2, cache_stats(memsys_l2(ms, p)));
    dram_stats_add(&dr, dram_stats(memsys_dram(ms, p)));
  }
  CHECK_EQ_U64(l2.write_misses, 200);
  CHECK_EQ_U64(l2.writebacks, 200 - 6 * 8); /* all but what the 48 lines hold */
  CHECK_EQ_U64(dr.writes, l2.writebacks);
  CHECK_EQ_U64(dr.reads, 0); /* write-allocate without fetch */
  CHECK(memsys_idle(ms));
  memsys_free(ms);
  /* gtx480's back_fetch (GPGPU-Sim 3.2.2 'B' + 'W'): each store miss writes to DRAM and reads its
   * line, which arrives clean: no write-backs */
  ms = make("configs/gtx480.cfg", sets, 2);
  if (!ms) return;
  CHECK(store_lines(ms) == 200);
  memset(&l2, 0, sizeof l2);
  memset(&dr, 0, sizeof dr);
  for (uint32_t p = 0; p < memsys_partitions(ms); p++) {
    cache_stats_add(&l2, cache_stats(memsys_l2(ms, p)));
    dram_stats_add(&dr, dram_stats(memsys_dram(ms, p)));
  }
  CHECK_EQ_U64(l2.write_misses, 200);
  CHECK_EQ_U64(l2.writebacks, 0);
  CHECK_EQ_U64(dr.writes, 200);
  CHECK_EQ_U64(dr.reads, 200);
  CHECK(memsys_idle(ms));
  memsys_free(ms);
  /* it needs three miss-queue slots: a smaller queue is refused by name */
  Config *cfg = cfg_create();
  CHECK(cfg_load_file(cfg, "configs/gtx480.cfg") == 0);
  CHECK(cfg_set(cfg, "l2.miss_queue=2") == 0);
  char err[512] = "";
  ms = sim_memsys_create(cfg, NULL, err, sizeof err);
  CHECK(!ms && strstr(err, "l2.miss_queue") && strstr(err, "back_fetch"));
  if (ms) memsys_free(ms);
  cfg_free(cfg);
}

/* SMs that stop taking replies back-pressure the whole path (L1 fill queues,
 * reply network, L2 hit pipelines, L2 inputs, request network) without
 * losing or overflowing anything; when they resume, every reply arrives. */
static void test_reply_backpressure(void) {
  MemSys *ms = make("configs/gtx480.cfg", NULL, 0);
  if (!ms) return;
  const uint32_t n = memsys_sms(ms);
  uint64_t accepted = 0, replies = 0, k[64] = {0};
  const MemRequest *out;
  for (uint64_t c = 0; c < 30000; c++) {
    memsys_tick(ms, c);
    bool drain = c >= 20000;
    for (uint32_t s = 0; s < n; s++) {
      Cache *l1 = memsys_l1d(ms, s);
      while (drain && (out = cache_take_reply(l1, c))) replies++;
      if (c < 15000) {
        /* a few hot lines (L2 hits after the first miss), CG so L1 hits do not absorb them */
        uint64_t addr = ((k[s] * 7 + s) % 64) * 128;
        MemRequest r = {.addr = addr,
                        .line_addr = addr,
                        .sm = (int32_t)s,
                        .bytes = 4,
                        .access_class = MEM_CLASS_CG,
                        .unit = MEM_UNIT_L1D};
        if (cache_access(l1, &r, c).outcome != CACHE_RESFAIL) accepted++, k[s]++;
      }
    }
  }
  CHECK(accepted > 0);
  CHECK_EQ_U64(replies, accepted);
  CHECK(memsys_idle(ms));
  CacheStats l2 = {0};
  for (uint32_t p = 0; p < memsys_partitions(ms); p++) cache_stats_add(&l2, cache_stats(memsys_l2(ms, p)));
  CHECK(l2.resfail[CACHE_FAIL_REPLY_QUEUE] > 0); /* the L2s felt the back-pressure */
  memsys_free(ms);
}

static void test_interleaving(void) {
  MemSys *ms = make("configs/gtx480.cfg", NULL, 0);
  if (!ms) return;
  for (uint64_t a = 0; a < 6 * 256 * 4; a += 128) CHECK(memsys_partition_of(ms, a) == (a / 256) % 6);
  memsys_free(ms);
}

/* A fixed pseudo-random mix of loads and stores from all SMs; the reply
 * cycles are folded into a checksum. skip = jump to memsys_next_event()
 * whenever the mock SMs have nothing to issue. halves (every cycle): the late
 * part of cycle c, then the two early parts of cycle c + 1 (in either order)
 * before the mock SMs' cycle c, as the engine's threads may order them. */
static uint64_t mixed_run(MemSys *ms, bool skip, bool halves, uint64_t *end) {
  uint64_t x = 12345, sum = 0, c = 0;
  int issued = 0, done = 0;
  const int total = 3000;
  const MemRequest *out;
  if (halves) memsys_tick_early(ms, 0), memsys_tick_early_req(ms, 0);
  while (done < total && c < 2000000) {
    if (halves) {
      memsys_tick_late(ms, c);
      if (c % 2) {
        memsys_tick_early(ms, c + 1);
        memsys_tick_early_req(ms, c + 1);
      } else {
        memsys_tick_early_req(ms, c + 1);
        memsys_tick_early(ms, c + 1);
      }
    } else {
      memsys_tick(ms, c);
    }
    for (uint32_t s = 0; s < memsys_sms(ms); s++)
      while ((out = cache_take_reply(memsys_l1d(ms, s), c))) sum = sum * 31 + c * 7 + out->addr, done++;
    bool busy = false;
    if (issued < total && c % 3 == 0) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t s = (uint32_t)(x >> 60) % memsys_sms(ms);
      uint64_t addr = ((x >> 20) % 4096) * 128;
      MemRequest r = {.addr = addr,
                      .line_addr = addr,
                      .sm = (int32_t)s,
                      .bytes = 4,
                      .is_write = (x >> 10) % 5 == 0,
                      .access_class = (x >> 12) % 7 == 0 ? MEM_CLASS_CG : MEM_CLASS_CA,
                      .unit = MEM_UNIT_L1D};
      if (cache_access(memsys_l1d(ms, s), &r, c).outcome != CACHE_RESFAIL) issued++;
      busy = true;
    }
    uint64_t nx = c + 1;
    if (skip && !busy && issued >= total) {
      nx = memsys_next_event(ms, c);
      CHECK(nx > c);
      if (nx == UINT64_MAX) break;
    } else if (skip && issued < total) {
      nx = c + (3 - c % 3); /* the next issue slot, or earlier memory events */
      uint64_t ev = memsys_next_event(ms, c);
      if (ev < nx) nx = ev;
    }
    c = nx;
  }
  CHECK(done == total);
  *end = c;
  return sum;
}
static uint64_t mixed(MemSys *ms, bool skip, uint64_t *end) { return mixed_run(ms, skip, false, end); }

/* memsys_tick_early and memsys_tick_early_req, then memsys_tick_late, are memsys_tick, with the
 * early parts of the next cycle before the SMs' accesses of this one: the intersim crossbar with response
 * FIFOs (gtx480), the simple network delivering straight to the L1s, and ports shared by clusters of SMs. */
static void test_tick_halves(void) {
  static const char *const simple[] = {"icnt.model=simple", "icnt.reply_hold=none"};
  static const char *const cluster[] = {"icnt.sms_per_port=3"};
  const struct {
    const char *const *sets;
    int n;
  } cases[] = {{NULL, 0}, {simple, 2}, {cluster, 1}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    MemSys *a = make("configs/gtx480.cfg", cases[k].sets, cases[k].n);
    MemSys *b = make("configs/gtx480.cfg", cases[k].sets, cases[k].n);
    if (!a || !b) return;
    uint64_t ea, eb, ha = mixed_run(a, false, false, &ea), hb = mixed_run(b, false, true, &eb);
    CHECK_EQ_U64(ha, hb);
    CHECK_EQ_U64(ea, eb);
    memsys_tick_early(a, ea); /* the halves' run ended with the next cycle's early parts */
    memsys_tick_early_req(a, ea);
    char *ja = stats_json(a), *jb = stats_json(b);
    CHECK(ja && jb && !strcmp(ja, jb));
    free(ja), free(jb);
    memsys_free(a), memsys_free(b);
  }
}

static void test_determinism_and_skipping(void) {
  uint64_t e1, e2, e3;
  MemSys *a = make("configs/gtx480.cfg", NULL, 0), *b = make("configs/gtx480.cfg", NULL, 0),
         *s = make("configs/gtx480.cfg", NULL, 0);
  if (!a || !b || !s) return;
  uint64_t h1 = mixed(a, false, &e1), h2 = mixed(b, false, &e2), h3 = mixed(s, true, &e3);
  CHECK_EQ_U64(h1, h2);
  CHECK_EQ_U64(e1, e2);
  CHECK_EQ_U64(h1, h3); /* skipping idle cycles changes nothing */
  char *j1 = stats_json(a), *j2 = stats_json(b), *j3 = stats_json(s);
  CHECK(j1 && j2 && !strcmp(j1, j2));
  CHECK(j3 && !strcmp(j1, j3));
  CHECK_STR_CONTAINS(j1, "\"l1d\": {\"accesses\": ");
  CHECK_STR_CONTAINS(j1, "\"row_hit_rate\": ");
  free(j1), free(j2), free(j3);
  char *t = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&t, &len);
  memsys_print_stats(a, f, false);
  fclose(f);
  CHECK_STR_CONTAINS(t, "memory.l2.accesses ");
  CHECK_STR_CONTAINS(t, "memory.dram.reads ");
  CHECK(!strstr(t, "memory.l2_slices")); /* per-slice detail: JSON only */
  /* GPGPU-Sim 3.2.2's ROP delay 120 and DRAM latency queue 100 are the two delays; the path adds
   * 23 cycles (the intersim crossbar's 8 for a request and 12 for a 5-flit reply, the response
   * FIFO's cycle, the L2 and the L1 fill: t607 checks the crossbar's part), the DRAM row hit 13 */
  CHECK_EQ_U64(text_stat(t, "memory.delays.l2_input"), 120);
  CHECK_EQ_U64(text_stat(t, "memory.delays.dram_ctrl"), 100);
  CHECK_EQ_U64(text_stat(t, "memory.delays.l2_fixed"), 23);
  CHECK_EQ_U64(text_stat(t, "memory.delays.dram_row_hit"), 13);
  free(t);
  CHECK(memsys_idle(a) && memsys_next_event(a, e1) == UINT64_MAX);
  memsys_free(a), memsys_free(b), memsys_free(s);
}

static void test_dump(void) {
  MemSys *ms = make("configs/gtx480.cfg", NULL, 0);
  if (!ms) return;
  memsys_tick(ms, 0);
  MemRequest r = {.addr = 0x1000, .line_addr = 0x1000, .sm = 3, .bytes = 4, .unit = MEM_UNIT_L1D};
  CHECK(cache_access(memsys_l1d(ms, 3), &r, 0).outcome == CACHE_MISS);
  for (uint64_t c = 1; c < 60; c++) memsys_tick(ms, c);
  char *t = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&t, &len);
  memsys_dump(ms, f);
  fclose(f);
  CHECK_STR_CONTAINS(t, "sm3 l1d: mshr 1/32");
  CHECK_STR_CONTAINS(t, "partition");
  free(t);
  memsys_free(ms);
}

static void test_ccws_preset(void) {
  MemSys *ms = make("configs/ccws-gt200.cfg", NULL, 0);
  if (!ms) return;
  CHECK(memsys_sms(ms) == 30 && memsys_partitions(ms) == 8);
  CHECK(cache_sets(memsys_l1d(ms, 0)) == 32); /* 32 KB / (8 x 128 B) */
  /* the authors' ROP delay 115 and DRAM latency queue 30 (their simulator's defaults) */
  CHECK_EQ_U64(memsys_delays(ms)->l2_input, 115);
  CHECK_EQ_U64(memsys_delays(ms)->dram_ctrl, 30);
  memsys_free(ms);
  /* given as minima instead: the preset's 100-cycle L2 hit */
  const char *minima[] = {"l2.rop_latency=0", "dram.latency_queue=0"};
  ms = make("configs/ccws-gt200.cfg", minima, 2);
  if (!ms) return;
  CHECK(memsys_delays(ms)->l2_input + memsys_delays(ms)->l2_fixed == 100);
  memsys_free(ms);
}

int main(void) {
  TEST_RUN(test_stream_bandwidth);
  TEST_RUN(test_store_writeback);
  TEST_RUN(test_reply_backpressure);
  TEST_RUN(test_interleaving);
  TEST_RUN(test_determinism_and_skipping);
  TEST_RUN(test_tick_halves);
  TEST_RUN(test_dump);
  TEST_RUN(test_ccws_preset);
  return TEST_DONE();
}
