/* t607_xbar.c - icnt.model = intersim, GPGPU-Sim 3.2.2's crossbar (xbar.c): an unloaded packet's
 * latency is the pipeline's sum (also with internal speedup and a faster network clock), two inputs
 * sending to one output alternate (iSLIP VC allocation), full buffers back-pressure the source up to
 * its input queue, a network of more than 64 nodes (the crossbar's node masks span words) behaves
 * the same, the one-pass step of small networks agrees with the general one on random traffic,
 * flits booked at their switch grant agree with flits ejected one by one on random networks,
 * skipping idle cycles changes nothing, the memory system's unloaded path follows
 * the delay derivation, bad values are refused. */
#include <stdlib.h>
#include <string.h>

#include "common/memsys_test.h"
#include "common/test.h"
#include "core/config.h"
#include "mem/icnt.h"
#include "sim/config_schema.h"

TEST_GLOBALS;

/* config_fermi_islip.icnt's router and interface: vc_buf_size 8, input buffer 9, boundary 16. */
static XbarParams xp = {
    .vc_buf = 8, .input_buf = 9, .boundary_buf = 16, .internal_speedup = 1, .steps = 1, .flit_size = 32};

static Icnt *open_icnt_with(const XbarParams *q, uint32_t n_src, uint32_t n_dst) {
  IcntParams p = {.name = "icnt.test",
                  .n_src = n_src,
                  .n_dst = n_dst,
                  .latency = 7,
                  .flits_per_cycle = 1,
                  .flit_size = 32,
                  .in_queue = 4,
                  .out_queue = 4,
                  .xbar = q,
                  .src_nodes = 1,
                  .dst_nodes = 1};
  char err[128] = {0};
  Icnt *x = icnt_create(&p, err, sizeof err);
  if (!x) fprintf(stderr, "icnt_create: %s\n", err);
  CHECK(x != NULL);
  return x;
}

static Icnt *open_icnt(uint32_t n_src, uint32_t n_dst) { return open_icnt_with(&xp, n_src, n_dst); }

static MemRequest pkt(int src, int seq) { return (MemRequest){.sm = src, .warp = seq, .line_addr = 128}; }

/* A packet pushed at t (after the tick of t, as memsys does) is injected in cycle t + 1, crosses
 * the injection channel (2: a latency-1 channel written in cycle s is read in s + 2), is VC-
 * allocated in the cycle it arrives (routing_delay 0, vc_alloc_delay 1), switch-allocated in the
 * next (sw_alloc_delay 1), crosses the switch in the next (st_final_delay 1) and is sent on the
 * ejection channel (2), reaches the boundary buffer and is popped the cycle after (GPGPU-Sim pops
 * before icnt_transfer): 1 + 2 + 1 + 1 + 2 + 1 = 8 cycles; each further flit one cycle more. */
static void test_latency(void) {
  CHECK_EQ_U64(xbar_unloaded_latency(&xp), 8);
  Icnt *x = open_icnt(2, 2);
  if (!x) return;
  const uint32_t bytes[] = {8, 136, 40};
  const uint64_t want[] = {8, 12, 9};
  uint64_t t = 10;
  for (int i = 0; i < 3; i++, t += 100) {
    MemRequest r = pkt(0, i);
    CHECK(icnt_has_room_for(x, 0, &r, bytes[i], t));
    icnt_push_for(x, 0, 1, &r, bytes[i], t);
    uint64_t got = 0;
    for (uint64_t c = t + 1; !got && c < t + 50; c++) {
      icnt_tick(x, c);
      if (icnt_peek(x, 1, c)) got = c;
    }
    CHECK_EQ_U64(got - t, want[i]);
    CHECK(icnt_pop(x, 1) == NULL);
    CHECK(!icnt_idle(x)); /* the last flits' credits are still on their way back */
    for (uint64_t c = got + 1; c < got + 3; c++) icnt_tick(x, c);
    CHECK(icnt_idle(x));
  }
  icnt_free(x);
}

/* ccws_38.icnt: internal speedup 2, the network at twice the core clock. Pushed at t, a packet is
 * injected in the first network cycle of t + 1 and reaches the router in the first of t + 2, where
 * the first internal step allocates its VC and the second the switch; it crosses in the second
 * network cycle, is read from the ejection channel two network cycles later (the second of t + 3)
 * and popped at t + 4. A 5-flit packet's tail comes 4 network cycles = 2 core cycles later. */
static void test_latency_ccws(void) {
  XbarParams q = xp;
  q.vc_buf = 64, q.internal_speedup = 2, q.steps = 2;
  CHECK_EQ_U64(xbar_unloaded_latency(&q), 4);
  Icnt *x = open_icnt_with(&q, 1, 1);
  if (!x) return;
  MemRequest r = pkt(0, 0);
  icnt_push_for(x, 0, 0, &r, 136, 10);
  uint64_t got = 0;
  for (uint64_t c = 11; !got && c < 50; c++) {
    icnt_tick(x, c);
    if (icnt_peek(x, 0, c)) got = c;
  }
  CHECK_EQ_U64(got, 16);
  icnt_free(x);
}

/* Sources 0 and 1 keep sending 1-flit packets to destination 0: the output's VC goes to them in
 * turn (iSLIP's grant pointer moves past the winner), and a new packet gets the VC only in the
 * cycle after the last one's tail took the switch, so the output carries one packet per 2 cycles. */
static void test_alternate(void) {
  Icnt *x = open_icnt(2, 1);
  if (!x) return;
  int seq[2] = {0, 0}, order[64], n = 0;
  uint64_t when[64];
  for (uint64_t c = 1; n < 64 && c < 1000; c++) {
    icnt_tick(x, c);
    for (const MemRequest *m = icnt_peek(x, 0, c); m && n < 64; m = icnt_pop(x, 0))
      order[n] = m->sm, when[n++] = c;
    for (int s = 0; s < 2; s++) {
      MemRequest r = pkt(s, seq[s]);
      if (icnt_has_room_for(x, (uint32_t)s, &r, 8, c)) icnt_push_for(x, (uint32_t)s, 0, &r, 8, c), seq[s]++;
    }
  }
  CHECK_EQ_U64(n, 64);
  for (int i = 1; i < n; i++) {
    CHECK(order[i] != order[i - 1]);
    CHECK_EQ_U64(when[i] - when[i - 1], 2);
  }
  icnt_free(x);
}

/* 70 sources and destinations: the crossbar lists its busy nodes in 64-bit masks, so nodes on
 * both sides of a word boundary (0, 63, 64, 69) all sending to destination 68 take its VC in
 * node order, round after round, one packet per 2 cycles; and a lone packet from node 69 to
 * node 67 has the unloaded latency. */
static void test_many_nodes(void) {
  Icnt *x = open_icnt(70, 70);
  if (!x) return;
  const uint32_t src[] = {0, 63, 64, 69};
  int seq[4] = {0}, order[64], n = 0;
  uint64_t when[64];
  for (uint64_t c = 1; n < 64 && c < 1000; c++) {
    icnt_tick(x, c);
    for (const MemRequest *m = icnt_peek(x, 68, c); m && n < 64; m = icnt_pop(x, 68))
      order[n] = m->sm, when[n++] = c;
    for (int k = 0; k < 4; k++) {
      MemRequest r = pkt((int)src[k], seq[k]);
      if (icnt_has_room_for(x, src[k], &r, 8, c)) icnt_push_for(x, src[k], 68, &r, 8, c), seq[k]++;
    }
  }
  CHECK_EQ_U64(n, 64);
  int k0 = 0;
  while (k0 < 4 && (uint32_t)order[0] != src[k0]) k0++;
  CHECK(k0 < 4);
  for (int i = 0; i < n; i++) CHECK_EQ_U64(order[i], src[(k0 + i) % 4]);
  for (int i = 1; i < n; i++) CHECK_EQ_U64(when[i] - when[i - 1], 2);
  for (uint64_t c = 1000; c < 2000; c++) { /* drain what is still queued */
    icnt_tick(x, c);
    while (icnt_peek(x, 68, c)) icnt_pop(x, 68);
  }
  CHECK(icnt_idle(x));
  MemRequest r = pkt(69, 0);
  icnt_push_for(x, 69, 67, &r, 8, 2000);
  uint64_t got = 0;
  for (uint64_t c = 2001; !got && c < 2100; c++) {
    icnt_tick(x, c);
    if (icnt_peek(x, 67, c)) got = c;
  }
  CHECK_EQ_U64(got - 2000, 8);
  icnt_free(x);
}

/* Random traffic from 60 sources to 60 destinations (a few of them hot), the destinations popping
 * at random: `nodes` network nodes a side, of which the others stay idle. Returns the number of
 * packets delivered; arrival[] gets each one's cycle, destination and source. */
static int run_random(const XbarParams *q, uint32_t nodes, uint64_t *arrival, int n_max, IcntStats *st) {
  Icnt *x = open_icnt_with(q, nodes, nodes);
  if (!x) return 0;
  uint64_t rng = 12345;
  int n = 0, seq = 0;
  for (uint64_t c = 1; c < 3000; c++) {
    icnt_tick(x, c);
    for (uint32_t d = 0; d < 60; d++) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      if ((rng >> 33) % 4 == 0) continue; /* the destination does not pop this cycle */
      const MemRequest *m = icnt_peek(x, d, c);
      if (m && n < n_max) arrival[n++] = c << 20 | d << 10 | (uint32_t)m->sm;
      if (m) icnt_pop(x, d);
    }
    for (uint32_t s = 0; s < 60 && c < 2500; s++) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      const uint32_t r = (uint32_t)(rng >> 33);
      if (r % 8 > 2) continue;
      MemRequest m = pkt((int)s, seq);
      const uint32_t bytes = r % 3 ? 136 : 8, d = r % 5 ? (r >> 8) % 6 : (r >> 8) % 60;
      if (icnt_has_room_for(x, s, &m, bytes, c)) icnt_push_for(x, s, d, &m, bytes, c), seq++;
    }
  }
  *st = *icnt_stats(x);
  icnt_free(x);
  return n;
}

/* A network of up to 64 nodes a side with internal speedup 1 takes the crossbar's one-pass step
 * (xbar_step_small), a larger one the general step: the same traffic on nodes 0-59 of both
 * (round-robin order over those nodes is the same with 64 or 70 nodes) arrives at the same
 * cycles in the same order, with the same stalls, with roomy buffers and with tight ones. */
static void test_paths_agree(void) {
  XbarParams tight = xp;
  tight.vc_buf = 2, tight.input_buf = 6, tight.boundary_buf = 5;
  const XbarParams *qs[] = {&xp, &tight};
  static uint64_t a[20000], b[20000];
  for (int k = 0; k < 2; k++) {
    IcntStats sa, sb;
    const int na = run_random(qs[k], 64, a, 20000, &sa), nb = run_random(qs[k], 70, b, 20000, &sb);
    CHECK(na > 1000);
    CHECK_EQ_U64(na, nb);
    int same = 1;
    for (int i = 0; i < na && i < nb; i++) same &= a[i] == b[i];
    CHECK(same);
    CHECK_EQ_U64(sa.packets, sb.packets);
    CHECK_EQ_U64(sa.latency_sum, sb.latency_sum);
    CHECK_EQ_U64(sa.credit_stalls, sb.credit_stalls);
    CHECK(sa.credit_stalls > 0);
  }
}

/* What the users of one network see under random traffic, as a hash: each delivery (cycle,
 * node, packet, ready), each pop, each HasBuffer answer, each room wait met, xbar_busy, the
 * injection stalls and VC conflicts, cycle by cycle. */
typedef struct XTrace {
  uint64_t hash, delivered, room_met;
  uint32_t *qf, *qh, *qn; /* per output: a FIFO of delivered packets' flits, its head and length */
  uint64_t *qr;           /* ... and their ready cycles */
} XTrace;

enum { XT_Q = 64 }; /* delivered packets an output holds at most (boundary_buf <= 24 flits) */

static void xt_mix(uint64_t *h, uint64_t v) { *h = (*h ^ v) * 0x100000001b3ull + (v >> 29); }

static void xt_deliver(void *ctx, uint32_t out, const MemRequest *r, uint32_t flits, uint64_t push,
                       uint64_t ready) {
  XTrace *t = ctx;
  xt_mix(&t->hash, ready << 20 ^ (uint64_t)out << 8 ^ flits);
  xt_mix(&t->hash, (uint64_t)r->sm << 32 ^ (uint32_t)r->warp ^ push << 40);
  const uint32_t k = (t->qh[out] + t->qn[out]++) % XT_Q;
  t->qf[(size_t)out * XT_Q + k] = flits, t->qr[(size_t)out * XT_Q + k] = ready;
  t->delivered++;
}

static uint64_t xt_rand(uint64_t *rng) {
  *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
  return *rng >> 33;
}

/* Random traffic (seed) over network q: packets of 1, 2 or 5 flits, some destinations hot, each
 * output popping at its own rate (some rarely, so that boundary buffers fill); a source whose
 * packet finds no room waits for xbar_take_room. */
static XTrace run_xbar_random(const XbarParams *q, uint64_t seed) {
  XTrace t = {.hash = 1469598103934665603ull};
  const uint32_t ni = q->n_in, no = q->n_out;
  t.qf = calloc((size_t)no * XT_Q, sizeof *t.qf), t.qr = calloc((size_t)no * XT_Q, sizeof *t.qr);
  t.qh = calloc(no, sizeof *t.qh), t.qn = calloc(no, sizeof *t.qn);
  uint32_t *pend = calloc(ni, sizeof *pend), *rate = calloc(no, sizeof *rate), *dst = calloc(ni, sizeof *dst);
  bool *waiting = calloc(ni, sizeof *waiting);
  uint64_t *room = calloc((ni + 63) / 64, sizeof *room);
  char err[128];
  Xbar *x = xbar_create(q, xt_deliver, &t, err, sizeof err);
  CHECK(x && t.qf && t.qr && t.qh && t.qn && pend && rate && dst && waiting && room);
  uint64_t rng = seed;
  for (uint32_t o = 0; x && o < no; o++) rate[o] = (uint32_t)xt_rand(&rng) % 4; /* pops in 1 of 1, 2, 4, 64 */
  const uint32_t hot = (uint32_t)xt_rand(&rng) % no;
  for (uint64_t c = 1; x && c < 3000; c++) {
    xbar_tick(x, c);
    xt_mix(&t.hash, c << 2 ^ (uint64_t)xbar_busy(x) << 1);
    xt_mix(&t.hash, xbar_inject_stalls(x) << 32 ^ xbar_vc_conflicts(x));
    for (uint32_t o = 0; o < no; o++) {
      const uint32_t r = (uint32_t)xt_rand(&rng), period = rate[o] == 3 ? 64 : 1u << rate[o];
      const size_t k = (size_t)o * XT_Q + t.qh[o];
      if (r % period || !t.qn[o] || t.qr[k] > c) continue;
      xbar_pop(x, o, t.qf[k]);
      xt_mix(&t.hash, c << 16 ^ o);
      t.qh[o] = (t.qh[o] + 1) % XT_Q, t.qn[o]--;
    }
    if (xbar_room_pending(x)) {
      xbar_take_room(x, room);
      for (uint32_t i = 0; i < ni; i++)
        if (room[i / 64] >> (i % 64) & 1) {
          CHECK(waiting[i] && xbar_has_buffer(x, i, pend[i]));
          waiting[i] = false, t.room_met++;
          xt_mix(&t.hash, c << 16 ^ i ^ 1ull << 63);
        }
      memset(room, 0, (ni + 63) / 64 * sizeof *room);
    }
    for (uint32_t i = 0; i < ni && c < 2500; i++) {
      if (!pend[i]) {
        const uint32_t r = (uint32_t)xt_rand(&rng);
        if (r % 4) continue;
        const uint32_t sizes[] = {1, 5, 5, 2};
        pend[i] = sizes[(r >> 4) % 4], dst[i] = (r >> 8) % 3 ? hot : (r >> 12) % no;
      }
      if (waiting[i]) continue;
      const bool has = xbar_has_buffer(x, i, pend[i]);
      xt_mix(&t.hash, c << 16 ^ i << 1 ^ has);
      if (!has) {
        xbar_wait_room(x, i, pend[i]), waiting[i] = true;
        continue;
      }
      MemRequest m = pkt((int)i, (int)c);
      xbar_push(x, i, dst[i], &m, pend[i], c);
      pend[i] = 0;
    }
  }
  xbar_free(x);
  free(t.qf), free(t.qr), free(t.qh), free(t.qn), free(pend), free(rate), free(dst), free(waiting),
      free(room);
  return t;
}

/* A flit that will find the ejection buffer empty and the boundary buffer room is booked at its
 * switch grant instead of visiting its output (xbar_switch_grant); by_flit turns that off. On
 * random network shapes, buffer sizes, internal speedups and clock ratios, under random traffic,
 * both ways give the same deliveries, pops, HasBuffer answers, room waits, busy cycles, stalls
 * and conflicts. */
static void test_packet_path(void) {
  uint64_t rng = 777;
  int room_runs = 0;
  for (int k = 0; k < 40; k++) {
    XbarParams q = xp;
    q.n_in = 1 + (uint32_t)xt_rand(&rng) % (k % 4 ? 20 : 70);
    q.n_out = 1 + (uint32_t)xt_rand(&rng) % (k % 4 ? 20 : 70);
    q.vc_buf = 1 + (uint32_t)xt_rand(&rng) % 10;
    q.input_buf = 5 + (uint32_t)xt_rand(&rng) % 8;
    q.boundary_buf = 5 + (uint32_t)xt_rand(&rng) % 20;
    q.internal_speedup = k % 5 ? 1 : 2;
    q.steps = k % 7 ? 1 : 2;
    const uint64_t seed = xt_rand(&rng);
    XTrace a = run_xbar_random(&q, seed);
    q.by_flit = true;
    XTrace b = run_xbar_random(&q, seed);
    CHECK(a.delivered > 30);
    CHECK_EQ_U64(a.delivered, b.delivered);
    CHECK_EQ_U64(a.room_met, b.room_met);
    CHECK_EQ_U64(a.hash, b.hash);
    room_runs += a.room_met > 0;
  }
  CHECK(room_runs > 10);
}

/* A destination that never pops: its boundary buffer takes 16 flits (3 whole 5-flit packets), the
 * ejection buffer 8, the router's input buffer 8; then the source's input queue fills up and
 * HasBuffer refuses. One pop frees a packet's flits and the next packet arrives. */
static void test_backpressure(void) {
  Icnt *x = open_icnt(1, 1);
  if (!x) return;
  uint32_t pushed = 0;
  MemRequest r = pkt(0, 0);
  for (uint64_t c = 1; c < 500; c++) {
    icnt_tick(x, c);
    if (icnt_has_room_for(x, 0, &r, 136, c)) icnt_push_for(x, 0, 0, &r, 136, c), pushed++;
  }
  CHECK_EQ_U64(icnt_stats(x)->packets, 3);
  CHECK(!icnt_has_room_for(x, 0, &r, 136, 500));
  /* 16 + 8 + 8 = 32 flits in the network, and the input queue holds at most 9 (5 per packet) */
  CHECK(pushed * 5 >= 32 + 5 && pushed * 5 <= 32 + 9);
  CHECK(icnt_stats(x)->credit_stalls > 0);
  CHECK(!icnt_idle(x));
  CHECK(icnt_peek(x, 0, 500) != NULL);
  icnt_pop(x, 0);
  uint64_t c = 501;
  for (; c < 600 && icnt_stats(x)->packets < 4; c++) icnt_tick(x, c);
  CHECK_EQ_U64(icnt_stats(x)->packets, 4);
  icnt_free(x);
}

/* The same traffic ticked every cycle and only at the cycles icnt_next_event() names: the same
 * arrival cycles (a network with nothing in flight changes no state). */
static uint64_t run_traffic(bool skip, uint64_t *arrivals, int n_max) {
  Icnt *x = open_icnt(3, 2);
  if (!x) return 0;
  int n = 0, sent = 0;
  const uint32_t sizes[] = {8, 136, 8, 40};
  uint64_t sum = 0;
  for (uint64_t c = 1; c < 5000 && n < n_max;) {
    icnt_tick(x, c);
    for (uint32_t d = 0; d < 2; d++)
      for (const MemRequest *m = icnt_peek(x, d, c); m; m = icnt_pop(x, d)) arrivals[n++] = c, sum += c;
    /* bursts at cycles 1, 401, 801, ...: one packet per source */
    if (c % 400 == 1 && sent < n_max)
      for (uint32_t s = 0; s < 3 && sent < n_max; s++, sent++) {
        MemRequest r = pkt((int)s, sent);
        icnt_push_for(x, s, (uint32_t)sent % 2, &r, sizes[sent % 4], c);
      }
    uint64_t next = skip ? icnt_next_event(x, c) : c + 1;
    if (skip && (c + 399) / 400 * 400 + 1 < next) next = (c + 399) / 400 * 400 + 1; /* the next burst */
    c = next > c ? next : c + 1;
  }
  icnt_free(x);
  return sum;
}

static void test_skip(void) {
  uint64_t a[30], b[30];
  memset(a, 0, sizeof a), memset(b, 0, sizeof b);
  uint64_t sa = run_traffic(false, a, 30), sb = run_traffic(true, b, 30);
  CHECK_EQ_U64(sa, sb);
  for (int i = 0; i < 30; i++) CHECK_EQ_U64(a[i], b[i]);
}

/* The whole memory system on gtx480 (its latencies built up from GPGPU-Sim's delays,
 * l2.rop_latency): three loads to three partitions come back as much earlier than with the simple
 * crossbar as the derivation of the fixed path says: a packet's unloaded trip is 1 + (flits - 1)
 * + 7 cycles here against 1 + (flits - 1) + icnt.latency (8) there, each way. */
static void test_memsys_unloaded(void) {
  uint64_t a[3], b[3];
  const uint32_t sm[] = {0, 1, 2};
  MemSys *ms = test_memsys_open("configs/gtx480.cfg", "icnt.reply_hold=gpgpusim icnt.model=simple");
  MemSys *mx = test_memsys_open("configs/gtx480.cfg", "icnt.reply_hold=gpgpusim icnt.model=intersim");
  CHECK(ms && mx);
  if (!ms || !mx) return;
  test_memsys_three_loads(ms, sm, 10, a);
  test_memsys_three_loads(mx, sm, 10, b);
  const MemSysDelays *da = memsys_delays(ms), *db = memsys_delays(mx);
  CHECK_EQ_U64(da->l2_fixed - db->l2_fixed, 2);
  for (int k = 0; k < 3; k++) CHECK_EQ_U64(a[k] - b[k], 2);
  memsys_free(ms);
  memsys_free(mx);
}

static void test_refused(void) {
  const char *bad[] = {"icnt.model=intersim icnt.reply_hold=none",
                       "icnt.reply_hold=gpgpusim icnt.model=intersim icnt.intersim_sub_partitions=3",
                       "icnt.reply_hold=gpgpusim icnt.model=intersim icnt.intersim_input_buffer_size=4",
                       "icnt.reply_hold=gpgpusim icnt.model=intersim icnt.intersim_boundary_buffer_size=4"};
  for (int i = 0; i < 4; i++) {
    MemSys *ms = test_memsys_open("configs/gtx480.cfg", bad[i]);
    CHECK(ms == NULL);
    memsys_free(ms);
  }
  Config *cfg = cfg_create();
  CHECK(cfg_set(cfg, "icnt.model=booksim") != 0);
  CHECK(cfg_set(cfg, "icnt.intersim_vc_buf_size=0") != 0);
  CHECK(cfg_set(cfg, "icnt.intersim_clock_ratio=0") != 0);
  CHECK(cfg_set(cfg, "icnt.intersim_internal_speedup=17") != 0);
  cfg_free(cfg);
}

int main(void) {
  TEST_RUN(test_latency);
  TEST_RUN(test_latency_ccws);
  TEST_RUN(test_alternate);
  TEST_RUN(test_many_nodes);
  TEST_RUN(test_backpressure);
  TEST_RUN(test_paths_agree);
  TEST_RUN(test_packet_path);
  TEST_RUN(test_skip);
  TEST_RUN(test_memsys_unloaded);
  TEST_RUN(test_refused);
  return TEST_DONE();
}
