/* t402_mem_latency.c - load latency through the real memory system (L1D,
 * crossbar, L2 slice, DRAM) driven by a mock SM: "issue at t, not ready at
 * t+lat-1, ready at t+lat" for an L1 hit, an L2 hit (l2.min_latency) and an
 * L2 miss on an open DRAM row (dram.min_latency, +0/1 cycle of DRAM clock
 * phase); a closed row adds tRCD. Also: the minima hold when other latencies
 * change, and unreachable minima are rejected with file:line. These take the
 * latencies as minima (l2.rop_latency = dram.latency_queue = 0); with
 * GPGPU-Sim 3.2.2's ROP delay and DRAM latency queue (gtx480.cfg), each adds
 * exactly its cycles to the unloaded latencies. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "mem/memsys.h"
#include "sim/policies.h"
#include "policy/registry.h"

TEST_GLOBALS;

/* gtx480.cfg with the latencies given as minima (l2.min_latency,
 * dram.min_latency: the ROP delay and DRAM latency queue 0), then `sets`. */
static MemSys *make(const char *const *sets, int n) {
  Config *cfg = cfg_create();
  CHECK(cfg_load_file(cfg, "configs/gtx480.cfg") == 0);
  CHECK(cfg_set(cfg, "l2.rop_latency=0") == 0);
  CHECK(cfg_set(cfg, "dram.latency_queue=0") == 0);
  for (int i = 0; i < n; i++) CHECK(cfg_set(cfg, sets[i]) == 0);
  char err[512] = "";
  MemSys *ms = sim_memsys_create(cfg, NULL, err, sizeof err);
  if (!ms) fprintf(stderr, "sim_memsys_create: %s\n", err);
  cfg_free(cfg);
  return ms;
}

static int token;

/* The mock SM: at cycle t (after memsys_tick(t)) it issues one load; the
 * result is the cycle its reply pops minus t, or 0 if it never comes.
 * `not_before` asserts nothing pops earlier. */
static uint64_t load(MemSys *ms, uint32_t sm, uint64_t addr, uint64_t t) {
  memsys_tick(ms, t);
  MemRequest r = {.addr = addr,
                  .line_addr = addr & ~127ull,
                  .sm = (int32_t)sm,
                  .warp = 0,
                  .cta = 0,
                  .pc = 0x80,
                  .bytes = 4,
                  .unit = MEM_UNIT_L1D,
                  .issue_cycle = t,
                  .user = &token};
  Cache *l1 = memsys_l1d(ms, sm);
  CacheResult res = cache_access(l1, &r, t);
  CHECK(res.outcome != CACHE_RESFAIL);
  const MemRequest *out;
  if ((out = cache_take_reply(l1, t))) return 0; /* never in the issue cycle */
  for (uint64_t c = t + 1; c < t + 5000; c++) {
    memsys_tick(ms, c);
    if ((out = cache_take_reply(l1, c))) {
      CHECK(out->user == &token && out->addr == addr);
      return c - t;
    }
  }
  return 0;
}

static void test_l1_hit(void) {
  const char *sets[] = {"l1d.latency=4"};
  MemSys *ms = make(sets, 1);
  if (!ms) return;
  CHECK(load(ms, 0, 0x1000, 10) > 200); /* cold */
  CHECK_EQ_U64(load(ms, 0, 0x1004, 1000), 4);
  memsys_free(ms);
  ms = make(NULL, 0);
  if (!ms) return;
  load(ms, 0, 0x1000, 10);
  CHECK_EQ_U64(load(ms, 0, 0x1040, 1000), 1); /* gtx480.cfg: l1d.latency = 1 */
  memsys_free(ms);
}

static void test_l2_hit(void) {
  MemSys *ms = make(NULL, 0);
  if (!ms) return;
  uint64_t cold = load(ms, 0, 0x20000, 10); /* SM0 brings the line into L2 */
  CHECK(cold > 220);
  for (uint32_t sm = 1; sm < 6; sm++) CHECK_EQ_U64(load(ms, sm, 0x20000, 1000 * sm + sm), 120);
  const CacheStats *s = cache_stats(memsys_l2(ms, memsys_partition_of(ms, 0x20000)));
  CHECK_EQ_U64(s->read_hits, 5);
  CHECK_EQ_U64(s->read_misses, 1);
  memsys_free(ms);
}

/* Row hits at every phase of the 924/700 MHz clocks (the pattern repeats every
 * 25 core cycles): two banks' rows of partition p(base) - under GPGPU-Sim's
 * mapping (dram.addr_map) consecutive 256 B chunks of a partition alternate
 * banks 0/1 and a bank's 4 KB row is every other chunk of an 8 KB span - each
 * opened by a first load, then 14 more lines of each at phases 1..28 mod 25. */
static void row_hit_sweep(MemSys *ms, uint64_t base, uint32_t sm0, uint64_t *closed, uint64_t *lo,
                          uint64_t *hi) {
  const uint64_t chunk = 256 * 6,
                 row_step = 2 * chunk; /* the next 256 B chunk of the partition; the same bank's */
  *lo = UINT64_MAX, *hi = 0;
  for (uint64_t j = 0; j < 2; j++) closed[j] = load(ms, sm0, base + j * chunk, 10 + 500 * j);
  for (uint64_t j = 0; j < 2; j++)
    for (uint64_t i = 1; i < 15; i++) {
      uint64_t k = j * 14 + i,
               lat = load(ms, (uint32_t)(k % 15), base + j * chunk + i * row_step, 2000 * k + k % 25);
      if (lat < *lo) *lo = lat;
      if (lat > *hi) *hi = lat;
    }
}

/* Same partition, same DRAM row, different lines: row hits once the row is open. */
static void test_dram_row_hit(void) {
  MemSys *ms = make(NULL, 0);
  if (!ms) return;
  const uint64_t base = 0x600000; /* row-aligned */
  uint64_t closed[2], lo, hi;
  row_hit_sweep(ms, base, 0, closed, &lo, &hi);
  CHECK_EQ_U64(lo, 220);
  CHECK(hi <= 221);
  /* the first accesses found the banks closed: tRCD = 12 DRAM cycles = 9.1 core cycles more */
  for (int j = 0; j < 2; j++) CHECK(closed[j] >= 220 + 9 && closed[j] <= 221 + 10);
  const DramStats *d = dram_stats(memsys_dram(ms, memsys_partition_of(ms, base)));
  CHECK_EQ_U64(d->row_hits, 28);
  CHECK_EQ_U64(d->row_closed, 2);
  memsys_free(ms);
}

static void test_exact_window(void) {
  /* With DRAM on the core clock there is no phase: every row hit is exactly dram.min_latency. */
  const char *sets[] = {"dram.clock_mhz=700"};
  MemSys *ms = make(sets, 1);
  if (!ms) return;
  const uint64_t base = 0x200000, stride = 256 * 6 * 2; /* one bank's row (see test_dram_row_hit) */
  load(ms, 0, base, 10);
  for (uint64_t i = 1; i < 6; i++) CHECK_EQ_U64(load(ms, 1, base + i * stride, 1000 * i + 3 * i), 220);
  memsys_free(ms);
}

static void test_minima_hold(void) {
  const char *sets[] = {"icnt.latency=20", "l2.latency=5", "icnt.reply_flits_per_cycle=1",
                        "l2.min_latency=150", "dram.min_latency=300"};
  MemSys *ms = make(sets, 5);
  if (!ms) return;
  load(ms, 0, 0x40000, 10);
  CHECK_EQ_U64(load(ms, 1, 0x40000, 1000), 150);
  uint64_t closed[2], lo, hi;
  row_hit_sweep(ms, 0x400000, 1, closed, &lo, &hi);
  CHECK_EQ_U64(lo, 300);
  const MemSysDelays *d = memsys_delays(ms);
  CHECK(d->l2_input + d->l2_fixed == 150);
  memsys_free(ms);
}

/* GPGPU-Sim 3.2.2's mechanism (gtx480.cfg as it is): every request waits
 * l2.rop_latency cycles between its partition's input and the L2, every L2
 * miss dram.latency_queue cycles between the L2 and the DRAM queue; the
 * unloaded latencies are what the path adds up to, and each delay adds to
 * them exactly: 80 more ROP cycles, 80 more for an L2 hit and a DRAM row hit;
 * 50 more DRAM queue cycles, 50 more for the row hit only. */
static MemSys *make_mech(const char *rop, const char *dq) {
  Config *cfg = cfg_create();
  CHECK(cfg_load_file(cfg, "configs/gtx480.cfg") == 0);
  if (rop) CHECK(cfg_set(cfg, rop) == 0);
  if (dq) CHECK(cfg_set(cfg, dq) == 0);
  char err[512] = "";
  MemSys *ms = sim_memsys_create(cfg, NULL, err, sizeof err);
  if (!ms) fprintf(stderr, "sim_memsys_create: %s\n", err);
  cfg_free(cfg);
  return ms;
}

static void mech_latencies(MemSys *ms, uint64_t *l2, uint64_t *dram) {
  load(ms, 0, 0x40000, 10);
  *l2 = load(ms, 1, 0x40000, 1000);
  uint64_t closed[2], hi;
  row_hit_sweep(ms, 0x400000, 1, closed, dram, &hi);
}

static void test_rop_and_dram_queue(void) {
  MemSys *ms = make_mech(NULL, NULL);
  if (!ms) return;
  const MemSysDelays *d = memsys_delays(ms);
  CHECK_EQ_U64(d->l2_input, 120);
  CHECK_EQ_U64(d->dram_ctrl, 100);
  uint64_t l2, dram, l2b, dramb, l2c, dramc;
  mech_latencies(ms, &l2, &dram);
  CHECK_EQ_U64(l2, d->l2_fixed + 120);
  fprintf(stderr, "gtx480 (ROP 120, DRAM queue 100): unloaded L2 hit %llu, DRAM row hit %llu cycles\n",
          (unsigned long long)l2, (unsigned long long)dram);
  memsys_free(ms);
  ms = make_mech("l2.rop_latency=200", NULL);
  if (!ms) return;
  mech_latencies(ms, &l2b, &dramb);
  memsys_free(ms);
  ms = make_mech(NULL, "dram.latency_queue=150");
  if (!ms) return;
  mech_latencies(ms, &l2c, &dramc);
  memsys_free(ms);
  CHECK_EQ_U64(l2b, l2 + 80);
  CHECK_EQ_U64(dramb, dram + 80);
  CHECK_EQ_U64(l2c, l2);
  CHECK_EQ_U64(dramc, dram + 50);
}

static void test_unreachable_minimum(void) {
  Config *cfg = cfg_create();
  /* icnt.latency is the simple crossbar's */
  CHECK(cfg_load_string(cfg,
                        "icnt.model = simple\nicnt.reply_hold = none\nl2.rop_latency = 0\n"
                        "dram.latency_queue = 0\nicnt.latency = 100\n",
                        "slow.cfg") == 0);
  char err[512];
  CHECK(sim_memsys_create(cfg, NULL, err, sizeof err) == NULL);
  CHECK_STR_CONTAINS(err, "default: l2.min_latency: 120 is below the fixed part");
  CHECK(cfg_load_string(cfg, "icnt.latency = 8\ndram.min_latency = 125\n", "tight.cfg") == 0);
  CHECK(sim_memsys_create(cfg, NULL, err, sizeof err) == NULL);
  CHECK_STR_CONTAINS(err, "tight.cfg:2: dram.min_latency: 125 leaves no controller delay");
  CHECK(cfg_set(cfg, "dram.min_latency=220") == 0);
  CHECK(cfg_set(cfg, "l1d.policy=belady") == 0);
  CHECK(sim_memsys_create(cfg, NULL, err, sizeof err) == NULL);
  char names[256], msg[512];
  policy_names(POLICY_CACHE, names, sizeof names);
  snprintf(msg, sizeof msg, "--set: l1d.policy: unknown cache policy 'belady' (valid: %s)", names);
  CHECK_STR_CONTAINS(err, msg);
  CHECK(cfg_set(cfg, "l1d.policy=srrip") == 0);
  CHECK(cfg_set(cfg, "l2.size=700K") == 0);
  CHECK(sim_memsys_create(cfg, NULL, err, sizeof err) == NULL);
  CHECK_STR_CONTAINS(err, "l2.size");
  cfg_free(cfg);
}

int main(void) {
  TEST_RUN(test_l1_hit);
  TEST_RUN(test_l2_hit);
  TEST_RUN(test_dram_row_hit);
  TEST_RUN(test_exact_window);
  TEST_RUN(test_minima_hold);
  TEST_RUN(test_rop_and_dram_queue);
  TEST_RUN(test_unreachable_minimum);
  return TEST_DONE();
}
