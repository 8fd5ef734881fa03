/* t603_icnt_ports.c - a crossbar whose source and destination ports differ in
 * width (GPGPU-Sim 3.2.2's Fermi: an SM's port carries 1 flit per cycle, a memory
 * partition's 2): the unloaded latency serializes at the narrower port, a
 * 1-flit SM port limits one SM to one 5-flit reply per 5 cycles however many
 * partitions send to it, while the 2-flit partition port still serves two
 * SMs at 1 flit each; and the request direction's SM port limits injection. */
#include <stdlib.h>

#include "common/test.h"
#include "mem/icnt.h"

TEST_GLOBALS;

/* n_src sources of sf flits/cycle, n_dst destinations of df. */
static Icnt *make(uint32_t n_src, uint32_t n_dst, uint32_t sf, uint32_t df) {
  IcntParams p = {.name = "icnt.ports",
                  .n_src = n_src,
                  .n_dst = n_dst,
                  .latency = 8,
                  .flits_per_cycle = sf,
                  .src_flits_per_cycle = sf,
                  .dst_flits_per_cycle = df,
                  .flit_size = 32,
                  .in_queue = 4,
                  .out_queue = 4};
  char err[64];
  Icnt *x = icnt_create(&p, err, sizeof err);
  if (!x) fprintf(stderr, "%s\n", err);
  return x;
}

static MemRequest pkt(int src, int seq) { return (MemRequest){.sm = src, .warp = seq, .line_addr = 128}; }

/* A 136-byte (5-flit) packet pushed at t arrives at t + ceil(5 / narrower) - 1 + latency. */
static void test_latency_narrow_port(void) {
  const uint32_t rates[][3] = {{2, 1, 5}, {1, 2, 5}, {2, 2, 3}, {1, 1, 5}, {4, 2, 3}};
  for (int k = 0; k < 5; k++) {
    Icnt *x = make(1, 1, rates[k][0], rates[k][1]);
    if (!x) {
      CHECK(0);
      continue;
    }
    MemRequest r = pkt(0, 0);
    icnt_push(x, 0, 0, &r, 136, 10);
    uint64_t want = 10 + rates[k][2] - 1 + 8;
    for (uint64_t c = 10; c < want; c++) {
      icnt_tick(x, c);
      CHECK(icnt_peek(x, 0, c) == NULL);
    }
    icnt_tick(x, want);
    CHECK(icnt_peek(x, 0, want) != NULL);
    icnt_free(x);
  }
}

/* Packets delivered per cycle at destination `d` (0..n_dst-1) over n packets
 * per source, every source sending to dst[s]; returns cycles per packet at d. */
static double rate_at(Icnt *x, uint32_t n_src, uint32_t n_dst, const uint32_t *dst, uint32_t d, int n) {
  int pushed[8] = {0}, got = 0, total = 0, want = 0;
  for (uint32_t s = 0; s < n_src; s++) want += n * (dst[s] == d);
  uint64_t first = 0, last = 0;
  for (uint64_t c = 0; c < 200000 && total < (int)n_src * n; c++) {
    for (uint32_t s = 0; s < n_src; s++)
      while (pushed[s] < n && icnt_can_push(x, s)) {
        MemRequest r = pkt((int)s, pushed[s]++);
        icnt_push(x, s, dst[s], &r, 136, c);
      }
    icnt_tick(x, c);
    for (uint32_t k = 0; k < n_dst; k++)
      for (; icnt_peek(x, k, c); icnt_pop(x, k)) {
        total++;
        if (k != d) continue;
        if (!got) first = c;
        last = c, got++;
      }
  }
  CHECK(got == want);
  return got > 1 ? (double)(last - first) / (got - 1) : 0;
}

/* Source 0 sends n 136-byte packets alternately to destinations 0 and 1 as
 * fast as it may; all of them must arrive. Cycles per packet over both. */
static double rate_alternating(Icnt *x, int n) {
  int pushed = 0, got = 0;
  uint64_t first = 0, last = 0;
  for (uint64_t c = 0; c < 100000 && got < n; c++) {
    while (pushed < n && icnt_can_push(x, 0)) {
      MemRequest r = pkt(0, pushed);
      icnt_push(x, 0, (uint32_t)(pushed++ % 2), &r, 136, c);
    }
    icnt_tick(x, c);
    for (uint32_t d = 0; d < 2; d++)
      for (; icnt_peek(x, d, c); icnt_pop(x, d)) {
        if (!got) first = c;
        last = c, got++;
      }
  }
  CHECK(got == n);
  return got > 1 ? (double)(last - first) / (got - 1) : 0.0;
}

static void test_sm_port_limits_replies(void) {
  /* reply network: 2 partitions (2 flits/cycle) -> SMs (1 flit/cycle) */
  Icnt *x = make(2, 2, 2, 1);
  if (!x) {
    CHECK(0);
    return;
  }
  const uint32_t both_to_0[] = {0, 0};
  double per = rate_at(x, 2, 2, both_to_0, 0, 400); /* two partitions, one SM: 5 cycles per reply */
  CHECK(per > 4.99 && per < 5.01);
  icnt_free(x);
  /* one partition port feeds two SMs at 1 flit each: 2.5 cycles per reply over both */
  x = make(1, 2, 2, 1);
  if (!x) {
    CHECK(0);
    return;
  }
  double all = rate_alternating(x, 800);
  CHECK(all > 2.49 && all < 2.51);
  icnt_free(x);
  /* the old configuration (SM ports as wide as the partitions'): 2.5 cycles per reply to one SM */
  x = make(2, 2, 2, 2);
  if (!x) {
    CHECK(0);
    return;
  }
  per = rate_at(x, 2, 2, both_to_0, 0, 400);
  CHECK(per > 2.49 && per < 2.51);
  icnt_free(x);
}

static void test_sm_port_limits_requests(void) {
  /* request network: one SM (1 flit/cycle) sending 5-flit stores to two partitions (2 flits/cycle) */
  Icnt *x = make(1, 2, 1, 2);
  if (!x) {
    CHECK(0);
    return;
  }
  double per = rate_alternating(x, 400);
  CHECK(per > 4.99 && per < 5.01);
  icnt_free(x);
}

int main(void) {
  TEST_RUN(test_latency_narrow_port);
  TEST_RUN(test_sm_port_limits_replies);
  TEST_RUN(test_sm_port_limits_requests);
  return TEST_DONE();
}
