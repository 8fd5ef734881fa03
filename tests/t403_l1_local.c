/* t403_l1_local.c - the L1D as GPGPU-Sim 3.2.2 runs it,
 * with a mock next level: write policy local_back ('L': global stores
 * write-evict, a local store hit stays dirty in the line and is acked by the
 * L1, a local store miss goes down unallocated, a dirty line is written back
 * when evicted), write-backs that reach a write-back cache get no reply (hit,
 * write-allocate miss, merge into a reserved line), failure prediction under
 * local_back, and the Fermi set-index hash against hand-computed sets. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "mem/cache.h"
#include "policy/registry.h"

TEST_GLOBALS;

#define LINE 128

static Config *cfg;
static int tags[8];

static Cache *make(uint32_t sets, uint32_t ways, uint32_t missq, uint32_t lat, CacheWritePolicy wp,
                   CacheSetIndex idx) {
  CacheParams p = {.name = "l1d",
                   .level = 1,
                   .size = LINE * ways * sets,
                   .line_size = LINE,
                   .assoc = ways,
                   .mshr_entries = 4,
                   .mshr_max_merge = 4,
                   .miss_queue = missq,
                   .latency = lat,
                   .ports = 4,
                   .write_policy = wp,
                   .set_index = idx,
                   .bypass_cg = true,
                   .policy = policy_find_cache("lru"),
                   .index_parts = 1,
                   .index_chunk_lines = 1};
  if (wp == CACHE_WRITE_BACK) p.name = "l2", p.level = 2, p.bypass_cg = false;
  char err[256];
  Cache *c = cache_create(&p, cfg, err, sizeof err);
  if (!c) fprintf(stderr, "%s\n", err);
  return c;
}

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
static MemRequest st(uint64_t line, int tag, int local) {
  MemRequest r = rq(line, tag);
  r.is_write = 1;
  if (local) r.flags = MEM_F_LOCAL;
  return r;
}
static uint8_t state_of(const Cache *c, uint64_t line) {
  int w = cache_probe(c, line * LINE);
  return w < 0 ? CACHE_LINE_INVALID : cache_set_lines(c, cache_set_of(c, line * LINE))[w].state;
}
static int pop_all(Cache *c, uint64_t now) {
  int n = 0;
  while (cache_take_reply(c, now)) n++;
  return n;
}
/* Loads `line` into c (miss, the mock next level fills at once). */
static void load(Cache *c, uint64_t line, uint64_t now) {
  MemRequest r = rq(line, 0);
  CHECK(cache_access(c, &r, now).outcome == CACHE_MISS);
  MemRequest m = *cache_miss_head(c);
  cache_miss_pop(c);
  CHECK(cache_fill(c, &m, now));
  CHECK(pop_all(c, now) == 1);
}

static void test_local_store_hit_stays(void) {
  Cache *c = make(32, 4, 8, 3, CACHE_WRITE_LOCAL_BACK, CACHE_INDEX_LINEAR);
  if (!c) return;
  load(c, 3, 1);
  load(c, 4, 2);
  MemRequest ls = st(3, 1, 1), gs = st(4, 2, 0);
  CHECK(cache_access(c, &ls, 10).outcome == CACHE_HIT); /* local store hit: written into the line */
  CHECK(cache_miss_queue_len(c) == 0);                  /* nothing goes down */
  CHECK(state_of(c, 3) == CACHE_LINE_MODIFIED);
  CHECK(pop_all(c, 12) == 0);
  CHECK_EQ_U64(cache_next_reply(c), 13); /* acked by the L1 after its hit latency */
  CHECK(pop_all(c, 13) == 1);
  MemRequest ld = rq(3, 3);
  CHECK(cache_access(c, &ld, 14).outcome == CACHE_HIT); /* the dirty line serves loads */
  CHECK(cache_access(c, &gs, 15).outcome == CACHE_HIT); /* a global store hit still evicts */
  CHECK(state_of(c, 4) == CACHE_LINE_INVALID);
  CHECK(cache_miss_queue_len(c) == 1);
  const MemRequest *m = cache_miss_head(c);
  CHECK(m->is_write && (m->flags & MEM_F_NOALLOC_L1) && m->line_addr == 4 * LINE &&
        !(m->flags & MEM_F_WRITEBACK));
  const CacheStats *s = cache_stats(c);
  CHECK_EQ_U64(s->write_hits, 2);
  CHECK_EQ_U64(s->invalidations, 1);
  CHECK_EQ_U64(s->writebacks, 0);
  cache_free(c);
}

static void test_local_store_miss_goes_down(void) {
  Cache *c = make(32, 4, 8, 1, CACHE_WRITE_LOCAL_BACK, CACHE_INDEX_LINEAR);
  if (!c) return;
  MemRequest a = st(9, 1, 1), r = rq(10, 2), b = st(10, 3, 1);
  CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS); /* no write-allocate */
  CHECK(cache_probe(c, 9 * LINE) < 0);
  CHECK(cache_access(c, &r, 2).outcome == CACHE_MISS);
  CHECK(cache_access(c, &b, 3).outcome == CACHE_MISS); /* to a reserved line: down, not merged */
  CHECK(cache_mshr_used(c) == 1 && cache_miss_queue_len(c) == 3);
  const MemRequest *m = cache_miss_head(c);
  CHECK(m->is_write && (m->flags & MEM_F_NOALLOC_L1) && (m->flags & MEM_F_LOCAL) && m->user == &tags[1]);
  CHECK(pop_all(c, 100) == 0); /* its ack comes from below */
  cache_free(c);
}

/* One set of one way: the dirty local line is written back when a load replaces it. */
static void test_dirty_eviction_written_back(void) {
  Cache *c = make(1, 1, 2, 1, CACHE_WRITE_LOCAL_BACK, CACHE_INDEX_LINEAR);
  if (!c) return;
  load(c, 1, 1);
  MemRequest ls = st(1, 1, 1), r2 = rq(2, 2);
  CHECK(cache_access(c, &ls, 2).outcome == CACHE_HIT);
  pop_all(c, 5);
  CHECK(cache_access(c, &r2, 6).outcome == CACHE_MISS);
  CHECK(cache_miss_queue_len(c) == 2);
  const MemRequest *m = cache_miss_head(c);
  CHECK(m->is_write && (m->flags & MEM_F_WRITEBACK) && m->line_addr == LINE && m->bytes == LINE &&
        m->sm == -1);
  cache_miss_pop(c);
  m = cache_miss_head(c);
  CHECK(!m->is_write && m->line_addr == 2 * LINE);
  CHECK_EQ_U64(cache_stats(c)->writebacks, 1);
  cache_free(c);
  /* the write-back needs its own miss-queue slot: with one slot the load fails, nothing is lost */
  c = make(1, 1, 1, 1, CACHE_WRITE_LOCAL_BACK, CACHE_INDEX_LINEAR);
  if (!c) return;
  load(c, 1, 1);
  CHECK(cache_access(c, &ls, 2).outcome == CACHE_HIT);
  CacheResult res = cache_access(c, &r2, 3);
  CHECK(res.outcome == CACHE_RESFAIL && res.fail == CACHE_FAIL_MISS_QUEUE);
  CHECK(state_of(c, 1) == CACHE_LINE_MODIFIED);
  cache_free(c);
}

/* The previous policy for comparison: under evict a local store hit invalidates. */
static void test_evict_policy_ignores_local(void) {
  Cache *c = make(32, 4, 8, 1, CACHE_WRITE_EVICT, CACHE_INDEX_LINEAR);
  if (!c) return;
  load(c, 3, 1);
  MemRequest ls = st(3, 1, 1);
  CHECK(cache_access(c, &ls, 2).outcome == CACHE_HIT);
  CHECK(state_of(c, 3) == CACHE_LINE_INVALID);
  CHECK(cache_miss_queue_len(c) == 1);
  cache_free(c);
}

/* An L1's write-back reaching a write-back cache (the L2) is absorbed without
 * a reply; an ordinary store is acked. */
static void test_writeback_gets_no_reply(void) {
  Cache *c = make(4, 2, 8, 1, CACHE_WRITE_BACK, CACHE_INDEX_LINEAR);
  if (!c) return;
  MemRequest wb = st(1, 1, 0), w = st(2, 2, 0), r = rq(3, 3), wb3 = st(3, 4, 0);
  wb.flags = wb3.flags = MEM_F_WRITEBACK;
  CHECK(cache_access(c, &wb, 1).outcome == CACHE_MISS); /* write-allocate miss */
  CHECK(state_of(c, 1) == CACHE_LINE_MODIFIED);
  CHECK(cache_access(c, &wb, 2).outcome == CACHE_HIT);
  CHECK(cache_access(c, &w, 3).outcome == CACHE_MISS);
  CHECK(cache_access(c, &r, 4).outcome == CACHE_MISS);
  CHECK(cache_access(c, &wb3, 5).outcome == CACHE_MERGED); /* into the reserved line */
  MemRequest m = *cache_miss_head(c);
  cache_miss_pop(c);
  CHECK(cache_fill(c, &m, 20));
  CHECK(state_of(c, 3) == CACHE_LINE_MODIFIED);
  CHECK(pop_all(c, 100) == 2); /* the store's ack and the load's data */
  CHECK(cache_idle(c));
  cache_free(c);
}

/* cache_predict_fail under local_back, against the access it predicts. */
static void test_predict_fail_local_back(void) {
  Cache *c = make(2, 2, 2, 3, CACHE_WRITE_LOCAL_BACK, CACHE_INDEX_LINEAR);
  if (!c) return;
  uint64_t x = 777, predicted = 0, local_hits = 0;
  for (uint64_t t = 10; t < 40000; t += 2) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    if ((x >> 20) % 4 == 0 && cache_miss_head(c)) {
      MemRequest m = *cache_miss_head(c);
      cache_miss_pop(c);
      if (!(m.flags & MEM_F_WRITEBACK)) (void)cache_fill(c, &m, t);
    }
    if ((x >> 24) % 5 == 0) pop_all(c, t);
    MemRequest r = (x >> 28) % 3 == 0 ? st((x >> 32) % 8, 0, (int)((x >> 36) & 1)) : rq((x >> 32) % 8, 0);
    CacheFailReason pred = cache_predict_fail(c, &r);
    int local_hit =
        r.is_write && (r.flags & MEM_F_LOCAL) && state_of(c, r.line_addr / LINE) >= CACHE_LINE_VALID;
    CacheResult res = cache_access(c, &r, t + 1);
    if (pred != CACHE_FAIL_NONE) {
      CHECK(res.outcome == CACHE_RESFAIL);
      CHECK_EQ_U64(res.fail, pred);
      predicted++;
    } else if (res.outcome == CACHE_RESFAIL) {
      CHECK(res.fail == CACHE_FAIL_PORT ||
            res.fail == CACHE_FAIL_MISS_QUEUE); /* a dirty victim's write-back */
    }
    local_hits += local_hit && res.outcome == CACHE_HIT;
  }
  CHECK(predicted > 0);
  CHECK(local_hits > 0);
  CHECK(cache_stats(c)->writebacks > 0);
  cache_free(c);
}

/* Fermi hash: set = bits 7-11 XOR (bits 13,14,15,17,19), bit 12 on top with 64 sets. */
static void test_fermi_set_index(void) {
  const struct {
    uint64_t addr;
    uint32_t s32, s64, lin32;
  } cases[] = {
      {0x0000, 0, 0, 0},
      {0x0080, 1, 1, 1},
      {0x2000, 1, 1, 0},
      {0x2080, 0, 0, 1},
      {0x1000, 0, 32, 0},
      {0x4000, 2, 2, 0},
      {0x8000, 4, 4, 0},
      {0x20000, 8, 8, 0},
      {0x80000, 16, 16, 0},
      {0x10000, 0, 0, 0},
      {0x40000, 0, 0, 0},
      {0xAF80, 0x1F ^ 0x5, 0x1F ^ 0x5, 0x1F},
      {0xFFF80, 0x1F ^ 0x1F, 32, 0x1F},
  };
  Cache *f32 = make(32, 4, 8, 1, CACHE_WRITE_LOCAL_BACK, CACHE_INDEX_FERMI);
  Cache *f64 = make(64, 4, 8, 1, CACHE_WRITE_LOCAL_BACK, CACHE_INDEX_FERMI);
  Cache *l32 = make(32, 4, 8, 1, CACHE_WRITE_LOCAL_BACK, CACHE_INDEX_LINEAR);
  if (!f32 || !f64 || !l32) {
    CHECK(0);
    return;
  }
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (cache_set_of(f32, cases[i].addr) != cases[i].s32 ||
        cache_set_of(f64, cases[i].addr) != cases[i].s64 ||
        cache_set_of(l32, cases[i].addr) != cases[i].lin32)
      fprintf(stderr, "0x%llx: fermi32 %u fermi64 %u linear %u\n", (unsigned long long)cases[i].addr,
              cache_set_of(f32, cases[i].addr), cache_set_of(f64, cases[i].addr),
              cache_set_of(l32, cases[i].addr));
    CHECK_EQ_U64(cache_set_of(f32, cases[i].addr), cases[i].s32);
    CHECK_EQ_U64(cache_set_of(f64, cases[i].addr), cases[i].s64);
    CHECK_EQ_U64(cache_set_of(l32, cases[i].addr), cases[i].lin32);
  }
  /* a line stored under the hash is found again there */
  load(f32, 0x2080 / LINE, 1);
  CHECK(cache_probe(f32, 0x2080) >= 0);
  CHECK(cache_set_lines(f32, 0)[cache_probe(f32, 0x2080)].line_addr == 0x2080);
  cache_free(f32);
  cache_free(f64);
  cache_free(l32);
  /* only 32 or 64 sets: a config error naming the key */
  Config *c2 = cfg_create();
  CHECK(cfg_set(c2, "l1d.set_index=fermi") == 0);
  CHECK(cfg_set(c2, "l1d.assoc=8") == 0); /* 16 sets */
  CacheParams p;
  char err[256] = "";
  CHECK(cache_params_read(c2, "l1d", &p, err, sizeof err) != 0);
  CHECK_STR_CONTAINS(err, "l1d.set_index");
  CHECK(cfg_set(c2, "l1d.assoc=4") == 0); /* 32 sets */
  CHECK(cache_params_read(c2, "l1d", &p, err, sizeof err) == 0);
  CHECK(p.set_index == CACHE_INDEX_FERMI && p.write_policy == CACHE_WRITE_LOCAL_BACK);
  cfg_free(c2);
}

int main(void) {
  cfg = cfg_create();
  TEST_RUN(test_local_store_hit_stays);
  TEST_RUN(test_local_store_miss_goes_down);
  TEST_RUN(test_dirty_eviction_written_back);
  TEST_RUN(test_evict_policy_ignores_local);
  TEST_RUN(test_writeback_gets_no_reply);
  TEST_RUN(test_predict_fail_local_back);
  TEST_RUN(test_fermi_set_index);
  cfg_free(cfg);
  return TEST_DONE();
}
