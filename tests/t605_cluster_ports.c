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
#include "common/memsys_test.h"
#include "mem/memsys.h"
#include "sim/policies.h"

TEST_GLOBALS;

/* The spread of the replies of three SMs' L2 hits (lines warmed by SMs 27-29). */
static uint64_t spread(const char *set, const uint32_t *sm) {
  MemSys *ms = test_memsys_open("configs/ccws-gt200.cfg", set);
  if (!ms) {
    CHECK(0);
    return 0;
  }
  const uint32_t warm[] = {27, 28, 29};
  uint64_t d[3];
  test_memsys_three_loads(ms, warm, 10, d);
  test_memsys_three_loads(ms, sm, 5000, d);
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
