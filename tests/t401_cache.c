/* t401_cache.c - the generic cache mechanism with a mock next level:
 * hit latency, MSHR merging, each reservation-failure reason, write-evict,
 * write-back with dirty eviction, write-back with fetch (back_fetch), who acks a store sent down,
 * cg bypass, reply back-pressure,
 * LRU with and without merged reads restamping their line (merge_touch), set
 * indexing of an interleaved slice, the statistics printers, and failure
 * prediction (cache_predict_fail) against the accesses it predicts. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "mem/cache.h"
#include "policy/registry.h"

TEST_GLOBALS;

#define LINE 128

static Config *cfg;

typedef struct Geo {
  uint32_t sets, ways, mshr, merge, missq, lat;
  CacheWritePolicy wp;
} Geo;

/* merge_touch: a read merged into a pending line restamps it (cache.merge_touch, 3.2.2's LRU) */
static Cache *make_touch(Geo g, bool merge_touch) {
  CacheParams p = {.name = "l1d",
                   .level = 1,
                   .size = LINE * g.ways * g.sets,
                   .line_size = LINE,
                   .assoc = g.ways,
                   .mshr_entries = g.mshr,
                   .mshr_max_merge = g.merge,
                   .miss_queue = g.missq,
                   .latency = g.lat,
                   .ports = 4,
                   .write_policy = g.wp,
                   .bypass_cg = true,
                   .merge_touch = merge_touch,
                   .policy = policy_find_cache("lru"),
                   .index_parts = 1,
                   .index_chunk_lines = 1};
  if (g.wp == CACHE_WRITE_BACK || g.wp == CACHE_WRITE_BACK_FETCH)
    p.name = "l2", p.level = 2, p.bypass_cg = false;
  char err[256];
  Cache *c = cache_create(&p, cfg, err, sizeof err);
  if (!c) fprintf(stderr, "%s\n", err);
  return c;
}

static Cache *make(Geo g) { return make_touch(g, false); }

static int tags[64];

static MemRequest rq(uint64_t line, int tag) {
  return (MemRequest){.addr = line * LINE + 4,
                      .line_addr = line * LINE,
                      .pc = 0x40,
                      .sm = 0,
                      .warp = tag,
                      .bytes = 4,
                      .unit = MEM_UNIT_L1D,
                      .user = &tags[tag]};
}

static MemRequest wr(uint64_t line, int tag) {
  MemRequest r = rq(line, tag);
  r.is_write = 1;
  return r;
}

/* Pops every miss and fills it (the mock next level answers at once). */
static int serve_all(Cache *c, uint64_t now) {
  int n = 0;
  while (cache_miss_head(c)) {
    MemRequest m = *cache_miss_head(c);
    cache_miss_pop(c);
    if (!(m.flags & MEM_F_WRITEBACK)) CHECK(cache_fill(c, &m, now));
    n++;
  }
  return n;
}

static int pop_all(Cache *c, uint64_t now, void **users, int max) {
  const MemRequest *r;
  int n = 0;
  while ((r = cache_take_reply(c, now))) {
    if (n < max && users) users[n] = r->user;
    n++;
  }
  return n;
}

static void test_hit_latency(void) {
  const uint32_t lats[] = {1, 3, 20};
  for (int i = 0; i < 3; i++) {
    Cache *c = make((Geo){32, 4, 32, 8, 8, lats[i], CACHE_WRITE_EVICT});
    if (!c) return;
    MemRequest r = rq(5, 1);
    CHECK(cache_access(c, &r, 10).outcome == CACHE_MISS);
    serve_all(c, 50);
    CHECK(pop_all(c, 50, NULL, 0) == 1); /* the fill replies in its own cycle */
    uint64_t t = 100;
    CHECK(cache_access(c, &r, t).outcome == CACHE_HIT);
    CHECK(pop_all(c, t + lats[i] - 1, NULL, 0) == 0); /* not ready at t+lat-1 */
    CHECK_EQ_U64(cache_next_reply(c), t + lats[i]);
    void *u[1];
    CHECK(pop_all(c, t + lats[i], u, 1) == 1); /* ready at t+lat */
    CHECK(u[0] == &tags[1]);
    CHECK(cache_idle(c));
    cache_free(c);
  }
}

/* One set of two ways: A and B miss in that order, then a read of A merges into A's pending
 * miss. When C needs a way, plain LRU evicts A (stamped at its allocation, before B); with
 * merge_touch, as GPGPU-Sim 3.2.2's tag_array::access on HIT_RESERVED, the merge restamped A
 * after B, so B goes. A store merging (write-back L2) restamps nothing either way. */
static void test_merge_touch(void) {
  for (int touch = 0; touch <= 1; touch++) {
    Cache *c = make_touch((Geo){1, 2, 4, 4, 8, 1, CACHE_WRITE_EVICT}, touch);
    if (!c) return;
    MemRequest a = rq(10, 1), b = rq(11, 2), a2 = rq(10, 3), cc = rq(12, 4);
    CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS);
    CHECK(cache_access(c, &b, 2).outcome == CACHE_MISS);
    CHECK(cache_access(c, &a2, 3).outcome == CACHE_MERGED);
    serve_all(c, 10);
    CHECK(pop_all(c, 10, NULL, 0) == 3);
    CHECK(cache_access(c, &cc, 20).outcome == CACHE_MISS);
    serve_all(c, 30);
    pop_all(c, 30, NULL, 0);
    CHECK((cache_probe(c, a.line_addr) >= 0) == (touch == 1)); /* A kept only when restamped */
    CHECK((cache_probe(c, b.line_addr) >= 0) == (touch == 0));
    CHECK(cache_probe(c, cc.line_addr) >= 0);
    cache_free(c);
  }
  for (int touch = 0; touch <= 1; touch++) { /* a store merging into a pending fetch (back_fetch) */
    Cache *c = make_touch((Geo){1, 2, 4, 4, 8, 1, CACHE_WRITE_BACK_FETCH}, touch);
    if (!c) return;
    MemRequest a = rq(10, 1), b = rq(11, 2), w = wr(10, 3), cc = rq(12, 4);
    CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS);
    CHECK(cache_access(c, &b, 2).outcome == CACHE_MISS);
    CHECK(cache_access(c, &w, 3).outcome == CACHE_MERGED);
    serve_all(c, 10);
    pop_all(c, 10, NULL, 0);
    CHECK(cache_access(c, &cc, 20).outcome == CACHE_MISS); /* A is the oldest use either way */
    serve_all(c, 30);
    pop_all(c, 30, NULL, 0);
    CHECK(cache_probe(c, a.line_addr) < 0 && cache_probe(c, b.line_addr) >= 0);
    cache_free(c);
  }
}

static void test_mshr_merge(void) {
  Cache *c = make((Geo){32, 4, 4, 4, 8, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest a = rq(7, 1), b = rq(7, 2), d = rq(7, 3);
  CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS);
  CHECK(cache_access(c, &b, 2).outcome == CACHE_MERGED);
  CHECK(cache_access(c, &d, 3).outcome == CACHE_MERGED);
  CHECK(cache_mshr_used(c) == 1);
  CHECK(cache_miss_queue_len(c) == 1); /* one request goes down for the line */
  CHECK(pop_all(c, 1000, NULL, 0) == 0);
  MemRequest m = *cache_miss_head(c);
  cache_miss_pop(c);
  CHECK(m.user == &tags[1]);
  CHECK(cache_fill(c, &m, 40));
  void *u[3];
  CHECK(pop_all(c, 40, u, 3) == 3);
  CHECK(u[0] == &tags[1] && u[1] == &tags[2] && u[2] == &tags[3]);
  CHECK(cache_mshr_used(c) == 0);
  const CacheStats *s = cache_stats(c);
  CHECK_EQ_U64(s->read_misses, 1);
  CHECK_EQ_U64(s->read_merges, 2);
  CHECK_EQ_U64(s->fills, 1);
  CHECK(cache_access(c, &a, 41).outcome == CACHE_HIT);
  cache_free(c);
}

static void test_resfail_no_line(void) {
  Cache *c = make((Geo){1, 2, 8, 4, 8, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest a = rq(1, 1), b = rq(2, 2), x = rq(3, 3);
  CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS);
  CHECK(cache_access(c, &b, 1).outcome == CACHE_MISS);
  CacheResult r = cache_access(c, &x, 2);
  CHECK(r.outcome == CACHE_RESFAIL && r.fail == CACHE_FAIL_NO_LINE);
  CHECK_EQ_U64(cache_stats(c)->resfail[CACHE_FAIL_NO_LINE], 1);
  serve_all(c, 3);
  CHECK(cache_access(c, &x, 4).outcome == CACHE_MISS); /* the retry succeeds once a line is filled */
  cache_free(c);
}

static void test_resfail_no_mshr(void) {
  Cache *c = make((Geo){32, 4, 2, 4, 8, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest a = rq(1, 1), b = rq(2, 2), x = rq(3, 3);
  CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS);
  CHECK(cache_access(c, &b, 1).outcome == CACHE_MISS);
  CacheResult r = cache_access(c, &x, 2);
  CHECK(r.outcome == CACHE_RESFAIL && r.fail == CACHE_FAIL_NO_MSHR);
  CHECK(cache_probe(c, 3 * LINE) < 0); /* nothing was reserved for it */
  CHECK_EQ_U64(cache_stats(c)->resfail[CACHE_FAIL_NO_MSHR], 1);
  cache_free(c);
}

static void test_resfail_merge_limit(void) {
  Cache *c = make((Geo){32, 4, 8, 2, 8, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest a = rq(1, 1), b = rq(1, 2), d = rq(1, 3);
  CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS);
  CHECK(cache_access(c, &b, 1).outcome == CACHE_MERGED);
  CacheResult r = cache_access(c, &d, 1);
  CHECK(r.outcome == CACHE_RESFAIL && r.fail == CACHE_FAIL_MERGE_LIMIT);
  CHECK_EQ_U64(cache_stats(c)->resfail[CACHE_FAIL_MERGE_LIMIT], 1);
  cache_free(c);
}

static void test_resfail_miss_queue(void) {
  Cache *c = make((Geo){32, 4, 8, 4, 1, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest a = rq(1, 1), b = rq(2, 2), st = wr(9, 4);
  CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS);
  CacheResult r = cache_access(c, &b, 1);
  CHECK(r.outcome == CACHE_RESFAIL && r.fail == CACHE_FAIL_MISS_QUEUE);
  r = cache_access(c, &st, 1); /* stores need the miss queue too */
  CHECK(r.outcome == CACHE_RESFAIL && r.fail == CACHE_FAIL_MISS_QUEUE);
  CHECK(cache_mshr_used(c) == 1); /* the failed miss holds no MSHR */
  CHECK_EQ_U64(cache_stats(c)->resfail[CACHE_FAIL_MISS_QUEUE], 2);
  cache_miss_pop(c);
  CHECK(cache_access(c, &b, 2).outcome == CACHE_MISS);
  cache_free(c);
}

static void test_resfail_port(void) {
  Cache *c = make((Geo){32, 4, 8, 4, 8, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest r[5];
  for (int i = 0; i < 4; i++) {
    r[i] = rq((uint64_t)i, i);
    CHECK(cache_access(c, &r[i], 1).outcome == CACHE_MISS);
  }
  r[4] = rq(4, 4);
  CacheResult res = cache_access(c, &r[4], 1); /* 4 ports per cycle */
  CHECK(res.outcome == CACHE_RESFAIL && res.fail == CACHE_FAIL_PORT);
  CHECK(cache_access(c, &r[4], 2).outcome == CACHE_MISS);
  cache_free(c);
}

static void test_resfail_reply_queue(void) {
  /* 1 port, latency 1: the hit pipeline holds (1 + 2) x 1 replies; a requester
   * that stops popping stalls the cache instead of overflowing it */
  CacheParams p = {.name = "l1d",
                   .level = 1,
                   .size = LINE * 4 * 32,
                   .line_size = LINE,
                   .assoc = 4,
                   .mshr_entries = 8,
                   .mshr_max_merge = 4,
                   .miss_queue = 8,
                   .latency = 1,
                   .ports = 1,
                   .write_policy = CACHE_WRITE_EVICT,
                   .policy = policy_find_cache("lru"),
                   .index_parts = 1,
                   .index_chunk_lines = 1};
  char err[128];
  Cache *c = cache_create(&p, cfg, err, sizeof err);
  if (!c) return;
  MemRequest r = rq(2, 1);
  cache_access(c, &r, 1);
  serve_all(c, 2);
  pop_all(c, 2, NULL, 0);
  for (uint64_t t = 3; t < 6; t++) CHECK(cache_access(c, &r, t).outcome == CACHE_HIT);
  CacheResult res = cache_access(c, &r, 6);
  CHECK(res.outcome == CACHE_RESFAIL && res.fail == CACHE_FAIL_REPLY_QUEUE);
  CHECK(pop_all(c, 6, NULL, 0) == 3);
  CHECK(cache_access(c, &r, 7).outcome == CACHE_HIT);
  CHECK_EQ_U64(cache_stats(c)->resfail[CACHE_FAIL_REPLY_QUEUE], 1);
  cache_free(c);
}

static void test_write_evict(void) {
  Cache *c = make((Geo){32, 4, 8, 4, 8, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest ld = rq(3, 1), st = wr(3, 2), st2 = wr(4, 3);
  CHECK(cache_access(c, &ld, 1).outcome == CACHE_MISS);
  serve_all(c, 2);
  pop_all(c, 2, NULL, 0);
  CHECK(cache_probe(c, 3 * LINE) >= 0);
  CHECK(cache_access(c, &st, 3).outcome == CACHE_HIT); /* store hit: the L1 copy is invalidated */
  CHECK(cache_probe(c, 3 * LINE) < 0);
  CHECK(cache_access(c, &st2, 3).outcome == CACHE_MISS); /* store miss: no allocation */
  CHECK(cache_probe(c, 4 * LINE) < 0);
  CHECK(cache_mshr_used(c) == 0);
  CHECK(cache_miss_queue_len(c) == 2);
  const MemRequest *m = cache_miss_head(c);
  CHECK(m->is_write && (m->flags & MEM_F_NOALLOC_L1) && m->user == &tags[2]);
  MemRequest ack = *m;
  cache_miss_pop(c);
  CHECK(pop_all(c, 100, NULL, 0) == 0); /* a store completes when its ack returns */
  CHECK(cache_fill(c, &ack, 60));
  void *u[1];
  CHECK(pop_all(c, 60, u, 1) == 1 && u[0] == &tags[2]);
  CHECK(cache_access(c, &ld, 61).outcome == CACHE_MISS); /* the next load misses */
  const CacheStats *s = cache_stats(c);
  CHECK_EQ_U64(s->write_hits, 1);
  CHECK_EQ_U64(s->write_misses, 1);
  CHECK_EQ_U64(s->invalidations, 1);
  CHECK_EQ_U64(s->evictions, 0);
  cache_free(c);
}

static void test_write_back(void) {
  Cache *c = make((Geo){1, 2, 4, 4, 8, 2, CACHE_WRITE_BACK});
  if (!c) return;
  MemRequest w1 = wr(1, 1), r2 = rq(2, 2), r3 = rq(3, 3), w2 = wr(2, 4);
  /* write miss: allocates without fetching, dirty at once, acked after the latency */
  CHECK(cache_access(c, &w1, 10).outcome == CACHE_MISS);
  CHECK(cache_miss_queue_len(c) == 0 && cache_mshr_used(c) == 0);
  CHECK(cache_set_lines(c, 0)[cache_probe(c, LINE)].state == CACHE_LINE_MODIFIED);
  CHECK(pop_all(c, 11, NULL, 0) == 0);
  CHECK(pop_all(c, 12, NULL, 0) == 1);
  CHECK(cache_access(c, &r2, 13).outcome == CACHE_MISS);
  serve_all(c, 14);
  pop_all(c, 14, NULL, 0);
  CHECK(cache_access(c, &w2, 15).outcome == CACHE_HIT); /* write hit: clean -> modified */
  CHECK(cache_set_lines(c, 0)[cache_probe(c, 2 * LINE)].state == CACHE_LINE_MODIFIED);
  pop_all(c, 20, NULL, 0);
  /* a read miss evicts the LRU dirty line (1): write-back queued before the fetch */
  CHECK(cache_access(c, &r3, 21).outcome == CACHE_MISS);
  CHECK(cache_miss_queue_len(c) == 2);
  const MemRequest *m = cache_miss_head(c);
  CHECK(m->is_write && (m->flags & MEM_F_WRITEBACK) && m->line_addr == LINE && m->bytes == LINE &&
        m->sm == -1);
  cache_miss_pop(c);
  m = cache_miss_head(c);
  CHECK(!m->is_write && m->line_addr == 3 * LINE);
  const CacheStats *s = cache_stats(c);
  CHECK_EQ_U64(s->writebacks, 1);
  CHECK_EQ_U64(s->evictions, 1);
  CHECK_EQ_U64(s->write_misses, 1);
  CHECK_EQ_U64(s->write_hits, 1);
  /* a dirty victim needs two miss-queue slots */
  cache_free(c);
  c = make((Geo){1, 1, 4, 4, 1, 1, CACHE_WRITE_BACK});
  if (!c) return;
  CHECK(cache_access(c, &w1, 1).outcome == CACHE_MISS);
  CacheResult r = cache_access(c, &r2, 2);
  CHECK(r.outcome == CACHE_RESFAIL && r.fail == CACHE_FAIL_MISS_QUEUE);
  CHECK(cache_probe(c, LINE) >= 0); /* nothing was evicted by the failed attempt */
  cache_free(c);
}

static void test_write_merge_into_reserved(void) {
  Cache *c = make((Geo){4, 2, 4, 4, 8, 1, CACHE_WRITE_BACK});
  if (!c) return;
  MemRequest r = rq(5, 1), w = wr(5, 2);
  CHECK(cache_access(c, &r, 1).outcome == CACHE_MISS);
  CHECK(cache_access(c, &w, 2).outcome == CACHE_MERGED);
  serve_all(c, 9);
  CHECK(pop_all(c, 9, NULL, 0) == 2);
  CHECK(cache_set_lines(c, cache_set_of(c, 5 * LINE))[cache_probe(c, 5 * LINE)].state == CACHE_LINE_MODIFIED);
  cache_free(c);
}

/* back_fetch (GPGPU-Sim 3.x's L2 'B' + 'W'): a store miss goes down and fetches its line, which
 * arrives clean and answers nobody; a store to the line on its way goes down too; a store hit
 * dirties the line; the store, the read and a write-back need three miss-queue slots. */
static void test_write_back_fetch(void) {
  Cache *c = make((Geo){2, 1, 4, 4, 8, 1, CACHE_WRITE_BACK_FETCH});
  if (!c) return;
  MemRequest w1 = wr(2, 1), w2 = wr(2, 2), r3 = rq(2, 3), w4 = wr(2, 4), r5 = rq(4, 5);
  CHECK(cache_access(c, &w1, 1).outcome == CACHE_MISS);
  CHECK(cache_miss_queue_len(c) == 2 && cache_mshr_used(c) == 1);
  CHECK(cache_set_lines(c, 0)[cache_probe(c, 2 * LINE)].state == CACHE_LINE_RESERVED);
  void *u[4];
  CHECK(pop_all(c, 2, u, 4) == 1 && u[0] == &tags[1]);    /* the store is acked here */
  CHECK(cache_access(c, &w2, 3).outcome == CACHE_MERGED); /* on its way: goes down as well */
  CHECK(cache_access(c, &r3, 4).outcome == CACHE_MERGED);
  CHECK(cache_miss_queue_len(c) == 3 && cache_mshr_used(c) == 1);
  int writes = 0, reads = 0;
  while (cache_miss_head(c)) {
    MemRequest m = *cache_miss_head(c);
    cache_miss_pop(c);
    CHECK(m.line_addr == 2 * LINE && !(m.flags & MEM_F_WRITEBACK));
    if (m.is_write) { /* a DRAM write: no reply comes back */
      CHECK(m.flags & MEM_F_NOALLOC_L2);
      writes++;
    } else {
      CHECK(!(m.flags & MEM_F_NOALLOC_L2));
      CHECK(cache_fill(c, &m, 10));
      reads++;
    }
  }
  CHECK(writes == 2 && reads == 1);
  CHECK(pop_all(c, 10, u, 4) == 2 && u[0] == &tags[2] && u[1] == &tags[3]); /* w2's ack, then the load */
  CHECK(cache_set_lines(c, 0)[cache_probe(c, 2 * LINE)].state == CACHE_LINE_VALID); /* fetched clean */
  CHECK(cache_access(c, &w4, 11).outcome == CACHE_HIT && cache_miss_queue_len(c) == 0);
  CHECK(cache_set_lines(c, 0)[cache_probe(c, 2 * LINE)].state == CACHE_LINE_MODIFIED);
  CHECK(cache_access(c, &r5, 12).outcome == CACHE_MISS); /* evicts the dirty line: write-back, read */
  CHECK(cache_miss_queue_len(c) == 2 && (cache_miss_head(c)->flags & MEM_F_WRITEBACK));
  const CacheStats *s = cache_stats(c);
  CHECK_EQ_U64(s->write_misses, 1);
  CHECK_EQ_U64(s->write_hits, 2);
  CHECK_EQ_U64(s->writebacks, 1);
  cache_free(c);
  /* three miss-queue slots, predicted as the access finds them */
  c = make((Geo){4, 2, 8, 4, 4, 1, CACHE_WRITE_BACK_FETCH});
  if (!c) return;
  MemRequest a = rq(1, 1), b = rq(2, 2), w = wr(3, 3);
  CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS && cache_access(c, &b, 1).outcome == CACHE_MISS);
  CHECK_EQ_U64(cache_predict_fail(c, &w), CACHE_FAIL_MISS_QUEUE);
  CacheResult r = cache_access(c, &w, 2);
  CHECK(r.outcome == CACHE_RESFAIL && r.fail == CACHE_FAIL_MISS_QUEUE);
  MemRequest wb = wr(1, 4); /* to a line on its way: the same three slots */
  CHECK_EQ_U64(cache_predict_fail(c, &wb), CACHE_FAIL_MISS_QUEUE);
  r = cache_access(c, &wb, 2);
  CHECK(r.outcome == CACHE_RESFAIL && r.fail == CACHE_FAIL_MISS_QUEUE);
  cache_miss_pop(c);
  CHECK_EQ_U64(cache_predict_fail(c, &w), CACHE_FAIL_NONE);
  CHECK(cache_access(c, &w, 3).outcome == CACHE_MISS && cache_miss_queue_len(c) == 3);
  cache_free(c);
}

static void test_bypass_cg(void) {
  Cache *c = make((Geo){32, 4, 8, 4, 8, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest r = rq(6, 1);
  r.access_class = MEM_CLASS_CG;
  CHECK(cache_access(c, &r, 1).outcome == CACHE_BYPASSED);
  CHECK(cache_mshr_used(c) == 0 && cache_probe(c, 6 * LINE) < 0);
  MemRequest m = *cache_miss_head(c);
  cache_miss_pop(c);
  CHECK(m.flags & MEM_F_NOALLOC_L1);
  CHECK(cache_fill(c, &m, 5));
  const MemRequest *out;
  CHECK((out = cache_take_reply(c, 5)) && out->user == &tags[1] && !(out->flags & MEM_F_NOALLOC_L1));
  CHECK(cache_probe(c, 6 * LINE) < 0);
  CHECK_EQ_U64(cache_stats(c)->bypasses, 1);
  /* A cg load goes around the L1 without a lookup (GPGPU-Sim 3.2.2: .cg loads and atomics
   * never probe the L1D): a valid line is neither hit nor touched, a pending miss is not
   * merged into; a ca load of the same line hits. */
  MemRequest a = rq(7, 2);
  CHECK(cache_access(c, &a, 10).outcome == CACHE_MISS);
  MemRequest g = rq(7, 3);
  g.access_class = MEM_CLASS_CG;
  CHECK(cache_access(c, &g, 11).outcome == CACHE_BYPASSED); /* the line is RESERVED: no merge */
  CHECK(cache_predict_fail(c, &g) == CACHE_FAIL_NONE);
  CHECK(serve_all(c, 20) == 2);
  CHECK(pop_all(c, 20, NULL, 0) == 2);
  CHECK(cache_probe(c, 7 * LINE) >= 0); /* the ca miss allocated; the cg reply did not touch it */
  CHECK(cache_access(c, &g, 30).outcome == CACHE_BYPASSED); /* valid line: still no hit */
  CHECK_EQ_U64(cache_stats(c)->bypasses, 3);
  CHECK_EQ_U64(cache_stats(c)->read_hits, 0);
  CHECK(cache_access(c, &a, 31).outcome == CACHE_HIT);
  serve_all(c, 40);
  pop_all(c, 40, NULL, 0);
  cache_free(c);
  /* an L1 without bypass_cg treats cg like ca: it hits the valid line */
  MemRequest ca = rq(9, 1), cg = rq(9, 2);
  cg.access_class = MEM_CLASS_CG;
  CacheParams q = {.name = "l1d",
                   .level = 1,
                   .size = LINE * 4 * 32,
                   .line_size = LINE,
                   .assoc = 4,
                   .mshr_entries = 8,
                   .mshr_max_merge = 4,
                   .miss_queue = 8,
                   .latency = 1,
                   .ports = 4,
                   .write_policy = CACHE_WRITE_EVICT,
                   .bypass_cg = false,
                   .policy = policy_find_cache("lru"),
                   .index_parts = 1,
                   .index_chunk_lines = 1};
  char err[256];
  Cache *k = cache_create(&q, cfg, err, sizeof err);
  if (!k) {
    CHECK(0);
    return;
  }
  CHECK(cache_access(k, &ca, 1).outcome == CACHE_MISS);
  serve_all(k, 5);
  pop_all(k, 5, NULL, 0);
  CHECK(cache_access(k, &cg, 10).outcome == CACHE_HIT);
  pop_all(k, 20, NULL, 0);
  cache_free(k);
}

static void test_fill_backpressure(void) {
  /* reply queue = mshr * merge + miss_queue = 1*2+1 = 3: bypass replies beyond it wait */
  Cache *c = make((Geo){32, 4, 1, 2, 1, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest r = rq(1, 1);
  r.flags = MEM_F_NOALLOC_L1;
  int accepted = 0;
  for (int i = 0; i < 5; i++) accepted += cache_fill(c, &r, 1);
  CHECK(accepted == 3);
  CHECK(pop_all(c, 1, NULL, 0) == 3);
  CHECK(cache_fill(c, &r, 2));
  pop_all(c, 2, NULL, 0);
  cache_free(c);
}

/* Who acks a store that goes down unallocated: an L1's comes back from the L2 (the mock next level
 * answers it) and the L1 adds no ack of its own, whatever its write_ack; the L2's is acked by the L2
 * (write_ack here) or carries MEM_F_ACK_BELOW and is answered by DRAM (below). Write-evict and
 * back_fetch's store miss; each store is replied to exactly once. */
static void test_store_acks(void) {
  const CacheWritePolicy wps[2] = {CACHE_WRITE_EVICT, CACHE_WRITE_BACK_FETCH};
  for (int k = 0; k < 2; k++)
    for (uint32_t level = 1; level <= 2; level++)
      for (int below = 0; below <= 1; below++) {
        CacheParams p = {.name = level == 1 ? "l1d" : "l2",
                         .level = level,
                         .size = LINE * 2 * 2,
                         .line_size = LINE,
                         .assoc = 2,
                         .mshr_entries = 4,
                         .mshr_max_merge = 4,
                         .miss_queue = 4,
                         .latency = 1,
                         .ports = 1,
                         .write_policy = wps[k],
                         .write_ack_below = below,
                         .policy = policy_find_cache("lru"),
                         .index_parts = 1,
                         .index_chunk_lines = 1};
        char err[256];
        Cache *c = cache_create(&p, cfg, err, sizeof err);
        if (!c) {
          fprintf(stderr, "%s\n", err);
          CHECK(0);
          continue;
        }
        MemRequest w = wr(3, 7);
        CHECK(cache_access(c, &w, 1).outcome == CACHE_MISS);
        const bool here = level == 2 && !below;
        void *u[4];
        CHECK(pop_all(c, 5, u, 4) == (here ? 1 : 0));
        int stores = 0, acks = 0;
        while (cache_miss_head(c)) {
          MemRequest m = *cache_miss_head(c);
          cache_miss_pop(c);
          CHECK(m.flags & MEM_F_NOALLOC(level) || !m.is_write);
          if (m.is_write) {
            stores++;
            CHECK(!(m.flags & MEM_F_ACK_BELOW) == !(level == 2 && below));
            /* the level below answers: the L2 every store, DRAM one marked ACK_BELOW */
            if (level == 1 || (m.flags & MEM_F_ACK_BELOW)) {
              CHECK(cache_fill(c, &m, 10));
              acks++;
            }
          } else {
            CHECK(cache_fill(c, &m, 10)); /* back_fetch's line read: nobody's reply */
          }
        }
        CHECK(stores == 1);
        CHECK(pop_all(c, 10, u, 4) == acks && (!acks || u[0] == &tags[7]));
        CHECK_EQ_U64((uint64_t)(acks + here), 1);
        cache_free(c);
      }
}

static void test_slice_indexing(void) {
  /* A slice of a cache interleaved over 6 parts in 2-line chunks sees only
   * lines 2k,2k+1 of every 12; slice-local numbering must still use every set. */
  CacheParams p = {.name = "l2",
                   .level = 2,
                   .size = LINE * 4 * 8,
                   .line_size = LINE,
                   .assoc = 4,
                   .mshr_entries = 4,
                   .mshr_max_merge = 2,
                   .miss_queue = 4,
                   .latency = 1,
                   .ports = 1,
                   .write_policy = CACHE_WRITE_BACK,
                   .policy = policy_find_cache("lru"),
                   .index_parts = 6,
                   .index_chunk_lines = 2};
  char err[128];
  Cache *c = cache_create(&p, cfg, err, sizeof err);
  if (!c) return;
  int seen[8] = {0};
  for (uint64_t k = 0; k < 8; k++) {
    for (uint64_t j = 0; j < 2; j++) {
      uint64_t line = k * 12 + j; /* partition 0's lines */
      seen[cache_set_of(c, line * LINE)]++;
    }
  }
  for (int s = 0; s < 8; s++) CHECK(seen[s] == 2);
  cache_free(c);
}

static void test_stats_printers(void) {
  Cache *c = make((Geo){32, 4, 8, 4, 8, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  MemRequest a = rq(1, 1), b = rq(1, 2);
  cache_access(c, &a, 1);
  cache_access(c, &b, 1);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  StatsOut *o = stats_open(f, STATS_JSON, "l1d");
  cache_stats_emit(cache_stats(c), o);
  stats_close(o);
  fputc('\n', f);
  o = stats_open(f, STATS_TEXT, "l1d");
  cache_stats_emit(cache_stats(c), o);
  stats_close(o);
  fclose(f);
  CHECK_STR_CONTAINS(buf, "{\"accesses\": 2, \"reads\": 2,");
  CHECK_STR_CONTAINS(buf, "\"read_misses\": 1, \"read_merges\": 1,");
  CHECK_STR_CONTAINS(buf, "\"resfail\": {\"no_line\": 0, \"no_mshr\": 0, \"merge_limit\": 0, \"miss_queue\": "
                          "0, \"port\": 0, \"reply_queue\": 0}");
  /* the text names are the JSON paths, each with its unit */
  const char *acc = strstr(buf, "\nl1d.accesses "), *nm = strstr(buf, "\nl1d.resfail.no_mshr ");
  CHECK(acc && nm);
  if (acc) CHECK_STR_CONTAINS(acc, " 2 requests\n");
  if (nm) CHECK_STR_CONTAINS(nm, " 0 accesses\n");
  free(buf);
  CacheStats sum = {0};
  cache_stats_add(&sum, cache_stats(c));
  cache_stats_add(&sum, cache_stats(c));
  CHECK_EQ_U64(sum.read_merges, 2);
  cache_free(c);
}

/* After a read hit, cache_lookup_line is the line it hit (its requester's events name the warp that
 * allocated it: the inter-warp hits' measure): a 1-set 2-way LRU L1 and two warps; after a miss
 * (a line installed) none; once the allocating warp exits (cache_forget_warp), the line names no warp. */
static void load_fill(Cache *c, uint64_t line, int warp, uint64_t now, CacheOutcome want, int alloc) {
  MemRequest r = rq(line, warp);
  CHECK(cache_access(c, &r, now).outcome == want);
  const CacheLine *l = cache_lookup_line(c);
  CHECK(want == CACHE_HIT ? l && l->line_addr == line * LINE && l->alloc_warp == alloc : !l);
  serve_all(c, now);
  pop_all(c, now, NULL, 0);
}

static void test_hit_line(void) {
  Cache *c = make((Geo){1, 2, 4, 4, 8, 1, CACHE_WRITE_EVICT});
  if (!c) return;
  enum { A = 1, B = 2 };
  load_fill(c, A, 1, 1, CACHE_MISS, 0);
  load_fill(c, B, 1, 2, CACHE_MISS, 0);
  load_fill(c, A, 1, 3, CACHE_HIT, 1); /* its own line */
  load_fill(c, A, 2, 4, CACHE_HIT, 1); /* warp 1's line */
  CHECK_EQ_U64(cache_stats(c)->read_hits, 2);
  cache_forget_warp(c, 0, 1);
  CHECK(cache_set_lines(c, 0)[cache_probe(c, B * LINE)].alloc_warp == -1);
  load_fill(c, B, 1, 5, CACHE_HIT, -1); /* the old warp 1's line */
  cache_free(c);
}

/* cache_predict_fail against cache_access on random traffic through tiny
 * caches (2 sets x 2 ways, 2 MSHRs of 2, a 2-entry miss queue, a reply queue
 * that fills when nobody pops): with a policy without bypass hooks (lru) the
 * prediction must name exactly the reservation failure the access meets the
 * next cycle, and every failure but a port conflict (and, write-back, a
 * dirty victim's missing miss-queue slot, which depends on the victim the
 * policy would pick) must be predicted. */
static void test_predict_fail(void) {
  const CacheWritePolicy wps[3] = {CACHE_WRITE_EVICT, CACHE_WRITE_BACK, CACHE_WRITE_BACK_FETCH};
  uint64_t x = 12345, seen[CACHE_FAIL__COUNT] = {0};
  for (int k = 0; k < 3; k++) {
    const uint32_t missq = wps[k] == CACHE_WRITE_BACK_FETCH ? 3 : 2;
    Cache *c =
        make((Geo){.sets = 2, .ways = 2, .mshr = 2, .merge = 2, .missq = missq, .lat = 3, .wp = wps[k]});
    if (!c) {
      CHECK(0);
      continue;
    }
    for (uint64_t t = 10; t < 40000; t += 2) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      if ((x >> 20) % 4 == 0 && cache_miss_head(c)) { /* the next level answers one request */
        MemRequest m = *cache_miss_head(c);
        cache_miss_pop(c);
        /* write-backs and back_fetch's stores are DRAM writes: no reply */
        if (!(m.flags & MEM_F_WRITEBACK) && !(m.is_write && wps[k] == CACHE_WRITE_BACK_FETCH))
          (void)cache_fill(c, &m, t);
      }
      if ((x >> 24) % 5 == 0) pop_all(c, t, NULL, 0);
      MemRequest r = (x >> 28) % 3 == 0 ? wr((x >> 32) % 8, 0) : rq((x >> 32) % 8, 0);
      if (!r.is_write && (x >> 40) % 6 == 0) r.access_class = MEM_CLASS_CG;
      CacheFailReason pred = cache_predict_fail(c, &r);
      CacheResult res = cache_access(c, &r, t + 1); /* nothing reached the cache in between */
      if (pred != CACHE_FAIL_NONE) {
        CHECK(res.outcome == CACHE_RESFAIL);
        CHECK_EQ_U64(res.fail, pred);
        seen[pred]++;
      } else if (res.outcome == CACHE_RESFAIL) {
        /* unpredicted: a port conflict, or (write-back) a miss-queue slot short for
         * the write-back of the dirty victim the policy picks (back, back_fetch) */
        CHECK(res.fail == CACHE_FAIL_PORT ||
              (wps[k] != CACHE_WRITE_EVICT && res.fail == CACHE_FAIL_MISS_QUEUE));
      }
    }
    cache_free(c);
  }
  /* the walks reach every predictable reason */
  CHECK(seen[CACHE_FAIL_NO_MSHR] > 0);
  CHECK(seen[CACHE_FAIL_MISS_QUEUE] > 0);
  CHECK(seen[CACHE_FAIL_REPLY_QUEUE] > 0);
  CHECK(seen[CACHE_FAIL_MERGE_LIMIT] > 0);
  CHECK(seen[CACHE_FAIL_NO_LINE] > 0);
}

int main(void) {
  cfg = cfg_create();
  TEST_RUN(test_hit_latency);
  TEST_RUN(test_mshr_merge);
  TEST_RUN(test_merge_touch);
  TEST_RUN(test_resfail_no_line);
  TEST_RUN(test_resfail_no_mshr);
  TEST_RUN(test_resfail_merge_limit);
  TEST_RUN(test_resfail_miss_queue);
  TEST_RUN(test_resfail_port);
  TEST_RUN(test_resfail_reply_queue);
  TEST_RUN(test_write_evict);
  TEST_RUN(test_write_back);
  TEST_RUN(test_write_merge_into_reserved);
  TEST_RUN(test_write_back_fetch);
  TEST_RUN(test_store_acks);
  TEST_RUN(test_bypass_cg);
  TEST_RUN(test_fill_backpressure);
  TEST_RUN(test_slice_indexing);
  TEST_RUN(test_stats_printers);
  TEST_RUN(test_predict_fail);
  TEST_RUN(test_hit_line);
  cfg_free(cfg);
  return TEST_DONE();
}
