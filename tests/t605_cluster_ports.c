/* t605_cluster_ports.c - SMs sharing a crossbar port (icnt.sms_per_port,
 * GPGPU-Sim's clusters; the CCWS preset has them, as its paper: 10 clusters of 3
 * SMs): three SMs of one cluster loading L2-resident lines from three
 * partitions at once get their 5-flit replies one after another through the
 * cluster's port (2 flits per core cycle), while three SMs of three clusters
 * get theirs in the same cycle; each reply reaches the SM that asked; one SM
 * per port is the previous behaviour. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "mem/memsys.h"
#include "sim/policies.h"

TEST_GLOBALS;

static MemSys *make(const char *set) {
  Config *cfg = cfg_create();
  CHECK(cfg_load_file(cfg, "configs/ccws-gt200.cfg") == 0);
  if (set) CHECK(cfg_set(cfg, set) == 0);
  char err[512] = "";
  MemSys *ms = sim_memsys_create(cfg, NULL, err, sizeof err);
  if (!ms) fprintf(stderr, "sim_memsys_create: %s\n", err);
  cfg_free(cfg);
  return ms;
}

static int tok[3];

/* SMs sm[0..2] load line k*256 (k = 0, 1, 2: partitions 0, 1, 2) at cycle t;
 * the cycles their replies come back in done[]. */
static void three_loads(MemSys *ms, const uint32_t *sm, uint64_t t, uint64_t *done) {
  memsys_tick(ms, t);
  for (int k = 0; k < 3; k++) {
    MemRequest r = {.addr = (uint64_t)k * 256,
                    .line_addr = (uint64_t)k * 256,
                    .sm = (int32_t)sm[k],
                    .bytes = 128,
                    .unit = MEM_UNIT_L1D,
                    .user = &tok[k]};
    CHECK(cache_access(memsys_l1d(ms, sm[k]), &r, t).outcome == CACHE_MISS);
    done[k] = 0;
  }
  for (uint64_t c = t + 1; c < t + 3000; c++) {
    memsys_tick(ms, c);
    for (int k = 0; k < 3; k++) {
      const MemRequest *out = cache_take_reply(memsys_l1d(ms, sm[k]), c);
      if (out) {
        CHECK(out->user == &tok[k] && out->line_addr == (uint64_t)k * 256);
        done[k] = c;
      }
    }
  }
  for (int k = 0; k < 3; k++) CHECK(done[k] > 0);
}

/* The spread of the replies of three SMs' L2 hits (lines warmed by SMs 27-29). */
static uint64_t spread(const char *set, const uint32_t *sm) {
  MemSys *ms = make(set);
  if (!ms) {
    CHECK(0);
    return 0;
  }
  const uint32_t warm[] = {27, 28, 29};
  uint64_t d[3];
  three_loads(ms, warm, 10, d);
  three_loads(ms, sm, 5000, d);
  memsys_free(ms);
  uint64_t lo = d[0], hi = d[0];
  for (int k = 1; k < 3; k++) lo = d[k] < lo ? d[k] : lo, hi = d[k] > hi ? d[k] : hi;
  return hi - lo;
}

static void test_cluster_shares_port(void) {
  const uint32_t one_cluster[] = {0, 1, 2}, three_clusters[] = {0, 3, 6};
  /* three 5-flit replies through one port at 2 flits/cycle: 2.5 cycles apart (the requests
   * also share the port: 1-flit each, two per cycle) */
  uint64_t shared = spread(NULL, one_cluster), apart = spread(NULL, three_clusters);
  fprintf(stderr, "replies of three SMs: one cluster %llu cycles apart first to last, three clusters %llu\n",
          (unsigned long long)shared, (unsigned long long)apart);
  CHECK_EQ_U64(shared, 5); /* the second and third reply each 2.5 cycles after the one before */
  CHECK_EQ_U64(apart, 0);
  /* one SM per port: the same three SMs are served in parallel */
  CHECK_EQ_U64(spread("icnt.sms_per_port=1", one_cluster), 0);
}

int main(void) {
  TEST_RUN(test_cluster_shares_port);
  return TEST_DONE();
}
