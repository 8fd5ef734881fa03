/* t301_cache_policies.c - replacement policies' victim order on a 1-set
 * cache, the registry lookup, and the hook contract (bypass decision,
 * access-level bypass, eviction info with allocating and evicting warp/PC)
 * seen from a test policy. Drives a real cache; the next level is mocked by
 * popping its miss queue and filling at once. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "mem/cache.h"
#include "policy/registry.h"
#include "sim/policies.h"

TEST_GLOBALS;

#define LINE 128

static Config *cfg;

static Cache *make_cache(const char *policy, uint32_t ways, uint32_t sets, const CachePolicy *pol) {
  CacheParams p = {.name = "l1d",
                   .level = 1,
                   .size = LINE * ways * sets,
                   .line_size = LINE,
                   .assoc = ways,
                   .mshr_entries = 8,
                   .mshr_max_merge = 4,
                   .miss_queue = 16,
                   .latency = 1,
                   .ports = 64,
                   .write_policy = CACHE_WRITE_EVICT,
                   .bypass_cg = true,
                   .policy = pol ? pol : policy_find_cache(policy),
                   .index_parts = 1,
                   .index_chunk_lines = 1};
  char err[256] = "";
  Cache *c = cache_create(&p, cfg, err, sizeof err);
  if (!c) fprintf(stderr, "cache_create: %s\n", err);
  return c;
}

static MemRequest rq(uint64_t line, int warp, uint64_t pc) {
  return (MemRequest){.addr = line * LINE,
                      .line_addr = line * LINE,
                      .pc = pc,
                      .sm = 0,
                      .warp = warp,
                      .cta = 0,
                      .bytes = 4,
                      .unit = MEM_UNIT_L1D};
}

/* Accesses `line`; a miss is served immediately by the mock next level. */
static CacheOutcome touch(Cache *c, uint64_t line, uint64_t now) {
  MemRequest r = rq(line, 1, 0x100);
  CacheResult res = cache_access(c, &r, now);
  if (res.outcome == CACHE_MISS || res.outcome == CACHE_BYPASSED) {
    MemRequest m = *cache_miss_head(c);
    cache_miss_pop(c);
    CHECK(cache_fill(c, &m, now));
  }
  while (cache_take_reply(c, now + 1)) {
  }
  return res.outcome;
}

static bool present(Cache *c, uint64_t line) { return cache_probe(c, line * LINE) >= 0; }

/* Fills A..D (lines 10..13), then runs `ops`: uppercase = access the line
 * (E=14...), and checks after each miss which line left. */
static void run_order(const char *policy, const char *ops, const char *evicted) {
  Cache *c = make_cache(policy, 4, 1, NULL);
  if (!c) return;
  uint64_t now = 1;
  for (uint64_t l = 10; l < 14; l++) CHECK(touch(c, l, now++) == CACHE_MISS);
  const char *ev = evicted;
  for (const char *o = ops; *o; o++) {
    uint64_t line = 10 + (uint64_t)(*o - 'A');
    bool had[26];
    for (int i = 0; i < 26; i++) had[i] = present(c, 10 + (uint64_t)i);
    CacheOutcome out = touch(c, line, now++);
    if (out == CACHE_MISS) {
      int gone = -1;
      for (int i = 0; i < 26; i++)
        if (had[i] && !present(c, 10 + (uint64_t)i)) gone = i;
      if (!*ev) {
        CHECK(!"more misses than expected");
        break;
      }
      if (gone != *ev - 'A')
        fprintf(stderr, "%s: access %c evicted %c, expected %c\n", policy, *o, 'A' + gone, *ev);
      CHECK(gone == *ev - 'A');
      ev++;
    }
  }
  CHECK(*ev == 0);
  cache_free(c);
}

static void test_lru_order(void) { run_order("lru", "AEFDG", "BCA"); }
static void test_fifo_order(void) { run_order("fifo", "AEFCG", "ABC"); }
static void test_srrip_order(void) { run_order("srrip", "AEFDG", "BCE"); }

static void test_srrip_max_rrpv_param(void) {
  /* max_rrpv = 1: insert at 0, every miss ages all lines to 1 and takes the lowest way */
  CHECK(cfg_set(cfg, "l1d.srrip.max_rrpv=1") == 0);
  run_order("srrip", "EFG", "ABC");
  CHECK(cfg_set(cfg, "l1d.srrip.max_rrpv=3") == 0);
}

/* Every cache policy of the registry, a new one included. */
static void test_reserved_never_victim(void) {
  for (const PolicyEntry *e = policy_registry; e->name; e++) {
    if (e->kind != POLICY_CACHE) continue;
    Cache *c = make_cache(e->name, 2, 1, NULL);
    if (!c) continue;
    MemRequest a = rq(1, 0, 0);
    CHECK(touch(c, 2, 1) == CACHE_MISS);                 /* B valid */
    CHECK(cache_access(c, &a, 2).outcome == CACHE_MISS); /* A reserved: its miss leaves, no fill yet */
    MemRequest pending = *cache_miss_head(c);
    cache_miss_pop(c);
    CHECK(touch(c, 3, 3) == CACHE_MISS); /* must evict B, not reserved A */
    CHECK(present(c, 1) && !present(c, 2) && present(c, 3));
    CHECK(cache_set_lines(c, 0)[cache_probe(c, LINE)].state == CACHE_LINE_RESERVED);
    CHECK(cache_fill(c, &pending, 4));
    cache_free(c);
  }
}

static void test_registry(void) {
  CHECK(policy_find_cache("lru") == policy_find(POLICY_CACHE, "lru"));
  CHECK(policy_find_cache("srrip") != NULL && !strcmp(policy_find_cache("srrip")->name, "srrip"));
  CHECK(policy_find_cache("LRU") == NULL); /* exact names only */
  CHECK(policy_find_cache("lr") == NULL);
  char names[256], want[256] = "", msg[512];
  policy_names(POLICY_CACHE, names, sizeof names);
  for (const PolicyEntry *e = policy_registry; e->name; e++) /* registry.def's order */
    if (e->kind == POLICY_CACHE)
      snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", want[0] ? ", " : "", e->name);
  CHECK(!strcmp(names, want));
  CHECK_STR_CONTAINS(names, "lru, fifo, srrip");
  Config *c = cfg_create();
  CHECK(cfg_load_string(c, "l1d.assoc = 8\nl1d.policy = lur\n", "my.cfg") == 0);
  CacheParams p;
  char err[512];
  /* the cache reads its geometry only: the composition root resolves the policy's name */
  CHECK(cache_params_read(c, "l1d", &p, err, sizeof err) == 0 && p.policy == NULL && p.assoc == 8);
  MemSysPolicies mp;
  CHECK(sim_mem_policies(c, &mp, err, sizeof err) != 0);
  snprintf(msg, sizeof msg, "my.cfg:2: l1d.policy: unknown cache policy 'lur' (valid: %s)", names);
  CHECK_STR_CONTAINS(err, msg);
  CHECK(sim_memsys_create(c, NULL, err, sizeof err) == NULL);
  CHECK_STR_CONTAINS(err, msg);
  CHECK(cfg_set(c, "l1d.policy=srrip") == 0 && cfg_set(c, "l2.policy=fifo") == 0);
  CHECK(sim_mem_policies(c, &mp, err, sizeof err) == 0);
  CHECK(mp.l1d == policy_find_cache("srrip") && mp.l1i == policy_find_cache("lru") &&
        mp.l2 == policy_find_cache("fifo"));
  cfg_free(c);
}

/* ---- a test policy that records what the cache tells it ---- */

typedef struct Rec {
  int bypass_warp;
  int fail_bypass;
  int evicts, invalidates, fills, hits, misses;
  CacheEviction last_ev;
  CacheLine last_line;
  MemRequest last_by;
} Rec;
static Rec rec;

static int rec_init(void **s, const CachePolicyEnv *env, char *err, size_t n) {
  *s = &rec;
  CHECK(env->sets == 1 && env->ways == 2 && env->line_size == LINE);
  CHECK(!strcmp(env->prefix, "l1d.rec"));
  return 0;
}
static bool rec_should_bypass(void *s, const MemRequest *r) { return r->warp == ((Rec *)s)->bypass_warp; }
static void rec_fill(void *s, uint32_t set, uint32_t way, const MemRequest *r, uint64_t t) {
  ((Rec *)s)->fills++;
}
static void rec_hit(void *s, uint32_t set, uint32_t way, const MemRequest *r, uint64_t t) {
  ((Rec *)s)->hits++;
}
static void rec_miss(void *s, uint32_t set, const MemRequest *r, uint64_t t) { ((Rec *)s)->misses++; }
static void rec_evict(void *s, const CacheEviction *ev) {
  Rec *r = s;
  if (ev->reason == CACHE_EVICT_REPLACE)
    r->evicts++;
  else
    r->invalidates++;
  r->last_ev = *ev;
  r->last_line = *ev->line;
  r->last_by = *ev->by;
}
static bool rec_fail(void *s, const MemRequest *r, CacheFailReason why) {
  return ((Rec *)s)->fail_bypass && why == CACHE_FAIL_NO_LINE;
}
static const CachePolicy rec_policy = {.name = "rec",
                                       .init = rec_init,
                                       .should_bypass = rec_should_bypass,
                                       .on_fill = rec_fill,
                                       .on_hit = rec_hit,
                                       .on_miss = rec_miss,
                                       .on_evict = rec_evict,
                                       .bypass_on_fail = rec_fail};

static void test_hooks(void) {
  memset(&rec, 0, sizeof rec);
  rec.bypass_warp = 7;
  Cache *c = make_cache(NULL, 2, 1, &rec_policy);
  if (!c) return;
  MemRequest a = rq(1, 3, 0xa0), b = rq(2, 4, 0xb0), x = rq(3, 5, 0xc0);
  CHECK(cache_access(c, &a, 1).outcome == CACHE_MISS);
  CHECK(cache_access(c, &b, 1).outcome == CACHE_MISS);
  CHECK(rec.fills == 2 && rec.misses == 2);
  /* both ways reserved: NO_LINE, no hook but bypass_on_fail */
  CHECK(cache_access(c, &x, 2).outcome == CACHE_RESFAIL);
  CHECK(rec.misses == 2);
  rec.fail_bypass = 1; /* access-level bypass */
  CacheResult r = cache_access(c, &x, 2);
  CHECK(r.outcome == CACHE_BYPASSED);
  CHECK_EQ_U64(cache_stats(c)->resfail[CACHE_FAIL_NO_LINE], 2);
  CHECK_EQ_U64(cache_stats(c)->fail_bypasses, 1);
  rec.fail_bypass = 0;
  while (cache_miss_head(c)) {
    MemRequest m = *cache_miss_head(c);
    cache_miss_pop(c);
    CHECK(cache_fill(c, &m, 3));
  }
  int n = 0;
  while (cache_take_reply(c, 3)) n++;
  CHECK(n == 3);
  CHECK(!present(c, 3)); /* the bypassed line was not allocated */
  /* a policy bypass (warp 7) allocates nothing */
  MemRequest y = rq(4, 7, 0xd0);
  CHECK(cache_access(c, &y, 4).outcome == CACHE_BYPASSED);
  CHECK(cache_mshr_used(c) == 0);
  CHECK(cache_miss_head(c)->flags & MEM_F_NOALLOC_L1);
  cache_miss_pop(c);
  /* a hit, then a replacement: on_evict names the allocating warp/PC and the evicting request */
  CHECK(cache_access(c, &a, 5).outcome == CACHE_HIT && rec.hits == 1);
  MemRequest z = rq(5, 9, 0xe0);
  CHECK(touch(c, 5, 6) == CACHE_MISS);
  (void)z;
  CHECK(rec.evicts == 1);
  CHECK(rec.last_ev.reason == CACHE_EVICT_REPLACE && !rec.last_ev.dirty);
  CHECK(rec.last_line.line_addr == 1 * LINE || rec.last_line.line_addr == 2 * LINE);
  CHECK(rec.last_line.alloc_warp == (rec.last_line.line_addr == LINE ? 3 : 4));
  CHECK(rec.last_line.alloc_pc == (rec.last_line.line_addr == LINE ? 0xa0u : 0xb0u));
  CHECK(rec.last_by.warp == 1 && rec.last_by.pc == 0x100 && rec.last_by.line_addr == 5 * LINE);
  /* a store hit invalidates (write-evict) and says so */
  uint64_t keep = present(c, 1) ? 1 : 2;
  MemRequest st = rq(keep, 11, 0xf0);
  st.is_write = 1;
  CHECK(cache_access(c, &st, 7).outcome == CACHE_HIT);
  CHECK(rec.invalidates == 1 && rec.last_ev.reason == CACHE_EVICT_INVALIDATE);
  CHECK(rec.last_by.warp == 11 && rec.last_by.is_write);
  CHECK(!present(c, keep));
  /* a store miss is seen through on_miss; hints travel with the request */
  int misses = rec.misses;
  MemRequest st2 = rq(40, 12, 0xf4);
  st2.is_write = 1;
  st2.hints = MEM_HINT_CRITICAL;
  CHECK(cache_access(c, &st2, 8).outcome == CACHE_MISS);
  CHECK(rec.misses == misses + 1 && !present(c, 40));
  uint8_t last_hints = 0;
  for (; cache_miss_head(c); cache_miss_pop(c)) last_hints = cache_miss_head(c)->hints;
  CHECK(last_hints == MEM_HINT_CRITICAL);
  cache_free(c);
}

int main(void) {
  cfg = cfg_create();
  TEST_RUN(test_lru_order);
  TEST_RUN(test_fifo_order);
  TEST_RUN(test_srrip_order);
  TEST_RUN(test_srrip_max_rrpv_param);
  TEST_RUN(test_reserved_never_victim);
  TEST_RUN(test_registry);
  TEST_RUN(test_hooks);
  cfg_free(cfg);
  return TEST_DONE();
}
