/* t604_l2_long_lines.c - an L2 whose lines hold two L1 lines (as
 * CCWS's GT200 ran 256 B L2 lines under 128 B L1 lines): the loads of
 * both halves from two SMs miss the L2 once, merge in one MSHR, fetch 256 B
 * from DRAM in one read, and each SM's L1 gets its own line back (the fill
 * finds the reserved line it asked for); the other half then hits the L2;
 * stores and the L1's replies keep working; an L2 line that is not a
 * multiple of the L1's is a config error. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "mem/memsys.h"
#include "sim/policies.h"

TEST_GLOBALS;

static MemSys *make(const char *preset, const char *set) {
  Config *cfg = cfg_create();
  CHECK(cfg_load_file(cfg, preset) == 0);
  if (set) CHECK(cfg_set(cfg, set) == 0);
  char err[512] = "";
  MemSys *ms = sim_memsys_create(cfg, NULL, err, sizeof err);
  if (!ms && set)
    CHECK_STR_CONTAINS(err, "l1d.line_size");
  else if (!ms)
    fprintf(stderr, "sim_memsys_create: %s\n", err);
  cfg_free(cfg);
  return ms;
}

static int tok[4];

static MemRequest req(uint32_t sm, uint64_t addr, int write, int k) {
  return (MemRequest){.addr = addr,
                      .line_addr = addr & ~127ull,
                      .sm = (int32_t)sm,
                      .warp = 0,
                      .cta = 0,
                      .pc = 0x80,
                      .bytes = write ? 4 : 128,
                      .is_write = (uint8_t)write,
                      .unit = MEM_UNIT_L1D,
                      .user = &tok[k]};
}

/* Ticks until SM sm's L1D returns the request tagged k; the cycle or 0. */
static uint64_t wait_reply(MemSys *ms, uint32_t sm, int k, uint64_t t, uint64_t addr) {
  for (uint64_t c = t; c < t + 5000; c++) {
    memsys_tick(ms, c);
    const MemRequest *out;
    while ((out = cache_take_reply(memsys_l1d(ms, sm), c))) {
      CHECK(out->user == &tok[k] && out->addr == addr && out->line_addr == (addr & ~127ull));
      return c;
    }
  }
  return 0;
}

static void test_two_halves_one_fetch(void) {
  MemSys *ms = make("configs/ccws-gt200.cfg", NULL);
  if (!ms) {
    CHECK(0);
    return;
  }
  const uint64_t a = 0x100000; /* 256 B aligned: a and a+128 are one L2 line */
  uint32_t p = memsys_partition_of(ms, a);
  CHECK(p == memsys_partition_of(ms, a + 128));
  memsys_tick(ms, 10);
  MemRequest r0 = req(0, a, 0, 0), r1 = req(1, a + 128, 0, 1);
  CHECK(cache_access(memsys_l1d(ms, 0), &r0, 10).outcome == CACHE_MISS);
  CHECK(cache_access(memsys_l1d(ms, 1), &r1, 10).outcome == CACHE_MISS);
  uint64_t t0 = 0, t1 = 0;
  for (uint64_t c = 11; c < 5000 && (!t0 || !t1); c++) {
    memsys_tick(ms, c);
    const MemRequest *out;
    if ((out = cache_take_reply(memsys_l1d(ms, 0), c))) {
      CHECK(out->user == &tok[0] && out->line_addr == a);
      t0 = c;
    }
    if ((out = cache_take_reply(memsys_l1d(ms, 1), c))) {
      CHECK(out->user == &tok[1] && out->line_addr == a + 128);
      t1 = c;
    }
  }
  CHECK(t0 && t1);
  const CacheStats *l2 = cache_stats(memsys_l2(ms, p));
  CHECK_EQ_U64(l2->read_misses, 1);
  CHECK_EQ_U64(l2->read_merges, 1);
  const DramStats *d = dram_stats(memsys_dram(ms, p));
  CHECK_EQ_U64(d->reads, 1);
  CHECK_EQ_U64(d->bytes, 256);
  CHECK(cache_probe(memsys_l1d(ms, 0), a) >= 0 && cache_probe(memsys_l1d(ms, 1), a + 128) >= 0);
  /* SM 2 loads the second half: an L2 hit; a store to it is acked */
  MemRequest r2 = req(2, a + 128, 0, 2), w = req(2, a + 200, 1, 3);
  memsys_tick(ms, 6000);
  CHECK(cache_access(memsys_l1d(ms, 2), &r2, 6000).outcome == CACHE_MISS);
  CHECK(wait_reply(ms, 2, 2, 6001, a + 128) > 0);
  CHECK_EQ_U64(l2->read_hits, 1);
  CHECK(cache_access(memsys_l1d(ms, 2), &w, 7000).outcome != CACHE_RESFAIL);
  CHECK(wait_reply(ms, 2, 3, 7000, a + 200) > 0);
  CHECK_EQ_U64(d->reads, 1);
  for (uint64_t c = 8000; c < 9000; c++) memsys_tick(ms, c);
  CHECK(memsys_idle(ms));
  memsys_free(ms);
}

static void test_line_sizes_checked(void) {
  CHECK(make("configs/ccws-gt200.cfg", "l2.line_size=64") == NULL);
  MemSys *ms = make("configs/gtx480.cfg",
                    "l2.line_size=256"); /* a multiple: accepted (768 KB / 6 / 8 / 256 = 64 sets) */
  CHECK(ms != NULL);
  memsys_free(ms);
}

int main(void) {
  TEST_RUN(test_two_halves_one_fetch);
  TEST_RUN(test_line_sizes_checked);
  return TEST_DONE();
}
