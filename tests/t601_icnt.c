/* t601_icnt.c - the crossbar: unloaded latency with serialization, per-port
 * flit bandwidth, credit back-pressure from a consumer that stops popping,
 * round-robin fairness between sources, and next-event reporting. */
#include <stdlib.h>

#include "common/test.h"
#include "mem/icnt.h"

TEST_GLOBALS;

static IcntParams params(uint32_t n_src, uint32_t n_dst) {
  return (IcntParams){.name = "icnt.test",
                      .n_src = n_src,
                      .n_dst = n_dst,
                      .latency = 8,
                      .flits_per_cycle = 2,
                      .flit_size = 32,
                      .in_queue = 4,
                      .out_queue = 4};
}

static MemRequest pkt(int src, int seq) { return (MemRequest){.sm = src, .warp = seq, .line_addr = 128}; }

static void test_latency(void) {
  IcntParams p = params(2, 2);
  Icnt *x = icnt_create(&p, (char[64]){0}, 64);
  if (!x) return;
  const uint32_t sizes[] = {8, 64, 136, 200};
  uint64_t t = 10;
  for (int i = 0; i < 4; i++, t += 100) {
    MemRequest r = pkt(0, i);
    icnt_push(x, 0, 1, &r, sizes[i], t);
    uint32_t flits = icnt_flits(x, sizes[i]);
    uint64_t lat = (flits + 1) / 2 - 1 + p.latency; /* pushed before the tick of t: leaves in t */
    for (uint64_t c = t; c < t + lat; c++) {
      icnt_tick(x, c);
      CHECK(icnt_peek(x, 1, c) == NULL);
    }
    icnt_tick(x, t + lat);
    const MemRequest *m = icnt_peek(x, 1, t + lat);
    CHECK(m != NULL && m->warp == i);
    icnt_pop(x, 1);
    CHECK(icnt_idle(x));
  }
  CHECK_EQ_U64(icnt_flits(x, 136), 5);
  CHECK_EQ_U64(icnt_stats(x)->packets, 4);
  icnt_free(x);
}

static void test_bandwidth(void) {
  /* 5-flit packets at 2 flits/cycle: one per 2.5 cycles, exactly */
  IcntParams p = params(1, 1);
  Icnt *x = icnt_create(&p, (char[64]){0}, 64);
  if (!x) return;
  const int n = 1000;
  int pushed = 0, got = 0;
  uint64_t first = 0, last = 0;
  for (uint64_t c = 0; got < n && c < 100000; c++) {
    while (pushed < n && icnt_can_push(x, 0)) {
      MemRequest r = pkt(0, pushed++);
      icnt_push(x, 0, 0, &r, 136, c);
    }
    icnt_tick(x, c);
    for (; icnt_peek(x, 0, c); icnt_pop(x, 0)) {
      if (!got) first = c;
      last = c;
      CHECK(icnt_peek(x, 0, c)->warp == got);
      got++;
    }
  }
  CHECK(got == n);
  double per = (double)(last - first) / (n - 1);
  CHECK(per > 2.49 && per < 2.51);
  icnt_free(x);
}

static void test_backpressure(void) {
  IcntParams p = params(1, 1);
  Icnt *x = icnt_create(&p, (char[64]){0}, 64);
  if (!x) return;
  const uint32_t credits = p.out_queue + (p.latency + 1) * p.flits_per_cycle;
  int pushed = 0;
  uint64_t c = 0;
  for (; c < 200; c++) {
    while (icnt_can_push(x, 0)) {
      MemRequest r = pkt(0, pushed++);
      icnt_push(x, 0, 0, &r, 8, c);
    }
    icnt_tick(x, c);
  }
  /* nobody pops: exactly `credits` packets left their source, the rest wait */
  CHECK_EQ_U64(icnt_stats(x)->packets, credits);
  CHECK_EQ_U64((uint64_t)pushed, credits + p.in_queue);
  CHECK(!icnt_can_push(x, 0));
  CHECK(icnt_stats(x)->credit_stalls > 0);
  icnt_pop(x, 0); /* one credit back: one more packet goes */
  icnt_tick(x, c);
  CHECK_EQ_U64(icnt_stats(x)->packets, credits + 1);
  CHECK(icnt_can_push(x, 0));
  icnt_free(x);
}

static void test_fairness(void) {
  IcntParams p = params(3, 1);
  Icnt *x = icnt_create(&p, (char[64]){0}, 64);
  if (!x) return;
  int from[3] = {0, 0, 0};
  for (uint64_t c = 0; c < 3000; c++) {
    for (int s = 0; s < 3; s++)
      while (icnt_can_push(x, (uint32_t)s)) {
        MemRequest r = pkt(s, 0);
        icnt_push(x, (uint32_t)s, 0, &r, 136, c);
      }
    icnt_tick(x, c);
    for (const MemRequest *m; (m = icnt_peek(x, 0, c)) != NULL; icnt_pop(x, 0)) from[m->sm]++;
  }
  int total = from[0] + from[1] + from[2];
  CHECK(total > 1190 && total <= 1200); /* the destination port is the bottleneck: 2.5 cycles per packet */
  for (int s = 0; s < 3; s++) CHECK(from[s] > total / 3 - 3 && from[s] < total / 3 + 3);
  icnt_free(x);
}

static void test_next_event(void) {
  IcntParams p = params(1, 1);
  Icnt *x = icnt_create(&p, (char[64]){0}, 64);
  if (!x) return;
  CHECK(icnt_next_event(x, 0) == UINT64_MAX);
  MemRequest r = pkt(0, 0);
  icnt_push(x, 0, 0, &r, 8, 5);
  CHECK_EQ_U64(icnt_next_event(x, 5), 6); /* something to send */
  icnt_tick(x, 5);
  CHECK_EQ_U64(icnt_next_event(x, 5), 5 + p.latency); /* only the arrival */
  icnt_free(x);
}

int main(void) {
  TEST_RUN(test_latency);
  TEST_RUN(test_bandwidth);
  TEST_RUN(test_backpressure);
  TEST_RUN(test_fairness);
  TEST_RUN(test_next_event);
  return TEST_DONE();
}
