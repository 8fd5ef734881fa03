/* t304_ccws.c - CCWS (policy/warp/ccws.c) and its victim tag arrays
 * (policy/warp/vta.c). The VTA alone: FIFO sets, the interferer kept, store
 * invalidation in every warp, clearing, the hash counters that let a store skip the arrays (random
 * operations against the probes); the feed every VTA user shares
 * (vta_feed_event). The scheduler driven by hand-built
 * events (4 warp slots, 2 schedulers): an eviction goes to the allocating
 * warp's VTA (not an exited warp's, not a store invalidation); only a real
 * miss probes (hits, merges and bypasses do not); a store invalidates the
 * tag everywhere; a VTA hit sets the score to LLDS = hits/insts * k * cutoff
 * (accumulate adds up to the cap); scores decay by one a cycle, accounted
 * lazily, and next_tick names the exact cycle the exclusive set grows; the
 * cutoff walk throttles global and local loads but nothing else; warps at a
 * barrier are left out of the walk; a warp's exit leaves the resident counts;
 * the order is gto's; 2lvl-gto by name is two-level with CCWS's settings.
 * A lazily ticked instance and one ticked every cycle agree on every
 * decision and statistic. On the simulator: two warps thrashing a 1-line L1D
 * hit their VTAs exactly on their re-references; benchmarks under ccws give
 * identical statistics with the engine's shortcuts off, pass their checks,
 * and differ from gto. */
#include <stdlib.h>

#include "bench.h"
#include "common/test.h"
#include "common/timing.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "policy/cache_policy.h"
#include "policy/registry.h"
#include "policy/warp/vta.h"

TEST_GLOBALS;

/* ---- the VTA alone ---- */
static void test_vta(void) {
  Vta v;
  CHECK(vta_init(&v, 4, 16, 3) != 0); /* ways must divide entries */
  CHECK(vta_init(&v, 4, 16, 8) == 0);
  CHECK_EQ_U64(v.sets, 2);
  /* lines 0, 256, 512, ... all fall in set 0 (line number even) */
  for (uint32_t i = 0; i < 8; i++) vta_insert(&v, 1, (uint64_t)i * 256, (int32_t)i);
  int32_t who = -7;
  CHECK(vta_probe(&v, 1, 0, &who));
  CHECK_EQ_U64(who, 0);
  CHECK(!vta_probe(&v, 0, 0, NULL)); /* another warp's array */
  CHECK(!vta_probe(&v, 1, 128, NULL));
  vta_insert(&v, 1, 8 * 256, 3); /* the set is full: FIFO drops the first tag */
  CHECK(!vta_probe(&v, 1, 0, NULL));
  CHECK(vta_probe(&v, 1, 256, &who));
  CHECK_EQ_U64(vta_count(&v, 1), 8);
  vta_insert(&v, 1, 256, 2); /* present: keeps its place, takes the new interferer */
  CHECK(vta_probe(&v, 1, 256, &who));
  CHECK_EQ_U64(who, 2);
  CHECK_EQ_U64(vta_count(&v, 1), 8);
  vta_insert(&v, 1, 128, 0); /* set 1 is separate */
  CHECK_EQ_U64(vta_count(&v, 1), 9);
  vta_insert(&v, 3, 512, 1);
  CHECK_EQ_U64(vta_invalidate_all(&v, 512), 2); /* warps 1 and 3 */
  CHECK(!vta_probe(&v, 1, 512, NULL));
  CHECK(!vta_probe(&v, 3, 512, NULL));
  CHECK(vta_remove(&v, 1, 128));
  CHECK(!vta_remove(&v, 1, 128));
  vta_clear_warp(&v, 1);
  CHECK_EQ_U64(vta_count(&v, 1), 0);
  CHECK(!vta_probe(&v, 9, 0, NULL)); /* out of range: never */
  vta_free(&v);
}

/* The per-set hash counters vta_invalidate_all skips by stay exact: random inserts, removals,
 * clears and store invalidations, each invalidation checked against the probes of every warp,
 * and the counters' sum against the valid entries. */
static void test_vta_counters(void) {
  Vta v;
  CHECK(vta_init(&v, 6, 8, 4) == 0);
  uint64_t r = 12345;
  for (int i = 0; i < 20000; i++) {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t op = (uint32_t)(r >> 60) % 8, warp = (uint32_t)(r >> 40) % 6;
    const uint64_t tag = ((r >> 20) % 40) * 128;
    if (op < 4) {
      vta_insert(&v, warp, tag, (int32_t)op);
    } else if (op == 4) {
      vta_remove(&v, warp, tag);
    } else if (op == 5 && (r >> 8) % 16 == 0) {
      vta_clear_warp(&v, warp);
    } else {
      uint32_t held = 0;
      for (uint32_t w = 0; w < 6; w++) held += vta_probe(&v, w, tag, NULL);
      CHECK_EQ_U64(vta_invalidate_all(&v, tag), held);
    }
  }
  uint64_t valid = 0, counted = 0;
  for (uint32_t w = 0; w < 6; w++) valid += vta_count(&v, w);
  for (uint32_t i = 0; i < v.sets * v.hashes; i++) counted += v.cnt[i];
  CHECK_EQ_U64(counted, valid);
  CHECK(valid > 0);
  vta_free(&v);
}

/* The one handler of the SM's events that CCWS, iWarp and missclass feed their VTAs with. */
static void test_vta_feed(void) {
  for (int forget = 0; forget < 2; forget++) {
    VtaFeed f;
    CHECK(vta_feed_init(&f, 4, 16, 8, forget) == 0);
    VtaMissClass k = VTA_MISS__COUNT;
    int32_t who = 7;
    SchedEvent ev = {
        .kind = SCHED_EV_L1_EVICT, .slot = 1, .line_addr = 256, .other_slot = 2, .fail = CACHE_EVICT_REPLACE};
    CHECK(!vta_feed_event(&f, &ev, &k, &who)); /* a replacement: warp 1 lost it to warp 2 */
    ev.line_addr = 512, ev.other_slot = 1;
    vta_feed_event(&f, &ev, NULL, NULL); /* lost to itself */
    ev.line_addr = 768, ev.fail = CACHE_EVICT_INVALIDATE;
    vta_feed_event(&f, &ev, NULL, NULL); /* a store's invalidation: no loss to interference */
    ev.slot = 9, ev.line_addr = 1024, ev.fail = CACHE_EVICT_REPLACE;
    vta_feed_event(&f, &ev, NULL, NULL); /* a slot without an array */
    CHECK_EQ_U64(f.inserts, 2);
    CHECK_EQ_U64(vta_count(&f.vta, 1), 2);
    ev = (SchedEvent){.kind = SCHED_EV_L1_MISS, .slot = 1, .line_addr = 256};
    CHECK(vta_feed_event(&f, &ev, &k, &who) && k == VTA_MISS_INTER && who == 2);
    ev.line_addr = 512;
    CHECK(vta_feed_event(&f, &ev, &k, &who) && k == VTA_MISS_INTRA && who == 1);
    ev.line_addr = 768;
    CHECK(vta_feed_event(&f, &ev, &k, &who) && k == VTA_MISS_OTHER && who == -1);
    ev.slot = 9;
    CHECK(!vta_feed_event(&f, &ev, &k, &who));
    CHECK_EQ_U64(f.probes, 3);
    CHECK_EQ_U64(f.found[VTA_MISS_INTER], 1);
    CHECK_EQ_U64(f.found[VTA_MISS_INTRA], 1);
    CHECK_EQ_U64(f.found[VTA_MISS_OTHER], 1);
    /* slot 2 gets a new warp: with forget_interferers, warp 1's entry no longer blames it */
    ev = (SchedEvent){.kind = SCHED_EV_WARP_LAUNCH, .slot = 2};
    vta_feed_event(&f, &ev, NULL, NULL);
    ev = (SchedEvent){.kind = SCHED_EV_L1_MISS, .slot = 1, .line_addr = 256};
    CHECK(vta_feed_event(&f, &ev, &k, &who) && k == VTA_MISS_INTER && who == (forget ? -1 : 2));
    ev = (SchedEvent){.kind = SCHED_EV_STORE, .slot = UINT32_MAX, .line_addr = 256};
    CHECK(!vta_feed_event(&f, &ev, NULL, NULL)); /* every array, whoever stores */
    CHECK_EQ_U64(f.store_invalidations, 1);
    ev = (SchedEvent){.kind = SCHED_EV_WARP_EXIT, .slot = 1};
    vta_feed_event(&f, &ev, NULL, NULL);
    CHECK_EQ_U64(vta_count(&f.vta, 1), 0);
    vta_feed_free(&f);
  }
}

/* ---- the scheduler on hand-built events ---- */
#define NW 4
typedef struct C {
  const WarpSchedPolicy *p;
  void *st;
  Config *cfg;
} C;

static int open_ccws(C *c, const char *const *sets) {
  c->p = policy_find_warp("ccws");
  c->st = NULL;
  c->cfg = cfg_create();
  CHECK(c->p != NULL && c->cfg != NULL);
  if (!c->p || !c->cfg) return -1;
  for (int i = 0; sets && sets[i]; i++) CHECK(cfg_set(c->cfg, sets[i]) == 0);
  char err[256] = "";
  WarpSchedEnv env = {
      .sm = 0, .nsched = 2, .max_warps = NW, .max_ctas = 2, .prefix = "sched.ccws", .cfg = c->cfg};
  if (c->p->init(&c->st, &env, err, sizeof err)) {
    fprintf(stderr, "init: %s\n", err);
    CHECK(0);
    return -1;
  }
  return 0;
}
static void close_ccws(C *c) {
  if (c->p && c->st) c->p->free(c->st);
  cfg_free(c->cfg);
}
static void ev(C *c, SchedEventKind k, uint32_t slot, uint64_t cycle, uint64_t line, int32_t other,
               uint8_t fail) {
  SchedEvent e = {.kind = k,
                  .slot = slot,
                  .cycle = cycle,
                  .cta_slot = slot < NW ? slot / 2 : UINT32_MAX,
                  .line_addr = line,
                  .other_slot = other,
                  .fail = fail};
  c->p->on_event(c->st, &e);
}
static void launch_all(C *c, uint64_t cycle) {
  for (uint32_t w = 0; w < NW; w++) ev(c, SCHED_EV_WARP_LAUNCH, w, cycle, 0, -1, 0);
}
static void issue_n(C *c, uint32_t w, uint32_t n, uint64_t cycle) {
  WarpView v = {.slot = w, .valid = 1};
  SchedIssue is = {.cycle = cycle, .kind = WINST_ALU};
  for (uint32_t i = 0; i < n; i++) c->p->on_issue(c->st, &v, &is);
}
static bool may(C *c, uint32_t w, WarpInstKind k) {
  WarpView v = {.slot = w, .valid = 1};
  return c->p->can_issue(c->st, &v, k);
}
static bool may_load(C *c, uint32_t w) { return may(c, w, WINST_GLOBAL_LOAD); }
/* The statistic `name` of this instance. */
static double stat(C *c, const char *name) {
  PolicyStats *s = policy_stats_create();
  policy_stats_begin_instance(s);
  c->p->stats(c->st, s);
  bool found = false;
  double v = policy_stats_total(s, name, &found);
  CHECK(found);
  policy_stats_free(s);
  return v;
}

static void test_vta_insert_and_probe(void) {
  C c;
  if (open_ccws(&c, NULL)) return;
  launch_all(&c, 0);
  issue_n(&c, 0, 100, 1);
  const uint64_t A = 0x1000, B = 0x1080;
  ev(&c, SCHED_EV_L1_EVICT, 0, 10, A, 1, CACHE_EVICT_REPLACE); /* warp 0's line, evicted by warp 1 */
  CHECK_EQ_U64(stat(&c, "vta_inserts"), 1);
  ev(&c, SCHED_EV_L1_HIT, 0, 11, A, -1, 0);    /* not a miss: no probe */
  ev(&c, SCHED_EV_L1_MERGE, 0, 12, A, -1, 0);  /* an MSHR merge is not a miss */
  ev(&c, SCHED_EV_L1_BYPASS, 0, 13, A, -1, 0); /* nor a bypass */
  ev(&c, SCHED_EV_L1_RESFAIL, 0, 14, A, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_probes"), 0);
  CHECK_EQ_U64(stat(&c, "vta_hits"), 0);
  ev(&c, SCHED_EV_L1_MISS, 1, 15, A, -1, 0); /* warp 1 lost nothing */
  CHECK_EQ_U64(stat(&c, "vta_probes"), 1);
  CHECK_EQ_U64(stat(&c, "vta_hits"), 0);
  ev(&c, SCHED_EV_L1_MISS, 0, 16, A, -1, 0); /* warp 0 re-references what it lost */
  CHECK_EQ_U64(stat(&c, "vta_probes"), 2);
  CHECK_EQ_U64(stat(&c, "vta_hits"), 1);
  ev(&c, SCHED_EV_L1_MISS, 0, 17, A, -1, 0); /* the entry stays after a hit */
  CHECK_EQ_U64(stat(&c, "vta_hits"), 2);
  /* an evicted line of an exited warp, and a store's invalidation, go nowhere */
  ev(&c, SCHED_EV_L1_EVICT, UINT32_MAX, 20, B, 1, CACHE_EVICT_REPLACE);
  ev(&c, SCHED_EV_L1_EVICT, 2, 21, B, 3, CACHE_EVICT_INVALIDATE);
  CHECK_EQ_U64(stat(&c, "vta_inserts"), 1);
  ev(&c, SCHED_EV_L1_MISS, 2, 22, B, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_hits"), 2);
  /* a warp's exit empties its VTA: the slot's next warp starts clean */
  ev(&c, SCHED_EV_WARP_EXIT, 0, 30, 0, -1, 0);
  ev(&c, SCHED_EV_WARP_LAUNCH, 0, 31, 0, -1, 0);
  ev(&c, SCHED_EV_L1_MISS, 0, 32, A, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_hits"), 2);
  close_ccws(&c);
}

static void test_store_invalidates_every_vta(void) {
  C c;
  if (open_ccws(&c, NULL)) return;
  launch_all(&c, 0);
  issue_n(&c, 1, 50, 1);
  const uint64_t A = 0x2000;
  ev(&c, SCHED_EV_L1_EVICT, 0, 5, A, 1, CACHE_EVICT_REPLACE);
  ev(&c, SCHED_EV_L1_EVICT, 1, 6, A, 2, CACHE_EVICT_REPLACE);
  ev(&c, SCHED_EV_L1_EVICT, 2, 7, 0x4000, 0, CACHE_EVICT_REPLACE);
  ev(&c, SCHED_EV_STORE, 3, 8, A, -1, 0); /* any warp's store */
  CHECK_EQ_U64(stat(&c, "vta_store_invalidations"), 2);
  ev(&c, SCHED_EV_L1_MISS, 0, 9, A, -1, 0);
  ev(&c, SCHED_EV_L1_MISS, 1, 9, A, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_hits"), 0);
  ev(&c, SCHED_EV_L1_MISS, 2, 10, 0x4000, -1, 0); /* other tags stay */
  CHECK_EQ_U64(stat(&c, "vta_hits"), 1);
  close_ccws(&c);
}

/* Four warps, base 100, cutoff 400. Warp 0 issued 10 instructions and gets
 * one VTA hit at cycle 1000: LLDS = 1/10 * 8 * 400 = 320. Walk: warp 0 (320),
 * warp 1 (420 >= 400: in, the walk stops), warps 2 and 3 throttled. Warp 0
 * decays one a cycle: at 1021 the sum through warp 1 is 399, so warp 2 joins
 * (499); at 1121 warp 0 is at 199 and the sum through warp 2 is 399: all in. */
static void score_scenario(C *c) {
  launch_all(c, 0);
  issue_n(c, 0, 10, 1);
  ev(c, SCHED_EV_L1_EVICT, 0, 500, 0x3000, 1, CACHE_EVICT_REPLACE);
  ev(c, SCHED_EV_L1_MISS, 0, 1000, 0x3000, -1, 0);
}

static void test_score_cutoff_and_decay(void) {
  C c;
  if (open_ccws(&c, NULL)) return;
  CHECK(c.p->hints && c.p->hints->lists_all && c.p->hints->stable_refusals);
  c.p->tick(c.st, 0);
  CHECK_EQ_U64(c.p->hints->next_tick(c.st, 0), UINT64_MAX); /* nothing above base: no tick needed */
  score_scenario(&c);
  c.p->tick(c.st, 1000);
  CHECK(may_load(&c, 0) && may_load(&c, 1));
  CHECK(!may_load(&c, 2) && !may_load(&c, 3));
  /* loads only: local loads too, but not ALU, stores, shared, branches */
  CHECK(!may(&c, 2, WINST_LOCAL_LOAD));
  CHECK(may(&c, 2, WINST_ALU) && may(&c, 2, WINST_SFU) && may(&c, 2, WINST_GLOBAL_STORE));
  CHECK(may(&c, 3, WINST_SHARED) && may(&c, 3, WINST_BRANCH) && may(&c, 3, WINST_BARRIER) &&
        may(&c, 3, WINST_CONST));
  CHECK_EQ_U64(c.p->hints->next_tick(c.st, 1000), 1021);
  c.p->tick(c.st, 1020);
  CHECK(!may_load(&c, 2));
  c.p->tick(c.st, 1021);
  CHECK(may_load(&c, 2) && !may_load(&c, 3));
  CHECK_EQ_U64(c.p->hints->next_tick(c.st, 1021), 1121);
  c.p->tick(c.st, 1121);
  CHECK(may_load(&c, 2) && may_load(&c, 3));
  CHECK_EQ_U64(c.p->hints->next_tick(c.st, 1121), UINT64_MAX); /* nobody excluded: decay cannot matter */
  /* cycles 1000..1120 had a warp throttled; allowed warps: 4 then 2 (21 cycles) then 3 (100) then 4 */
  CHECK_EQ_U64(stat(&c, "throttle_cycles"), 121);
  CHECK_EQ_U64(stat(&c, "active_cycles"), 1121);
  double mean = stat(&c, "allowed_warps_mean"), want = (1000.0 * 4 + 21 * 2 + 100 * 3) / 1121.0;
  CHECK(fabs(mean - want) < 1e-9);
  CHECK_EQ_U64(stat(&c, "excluded_warps_max"), 2);
  /* a second hit at 1200 (2 hits / 10 insts): LLDS 640 >= cutoff: warp 0 alone may load */
  ev(&c, SCHED_EV_L1_MISS, 0, 1200, 0x3000, -1, 0);
  CHECK(may_load(&c, 0) && !may_load(&c, 1) && !may_load(&c, 2) && !may_load(&c, 3));
  /* warp 0's exit takes its hits and instructions out of the counts and the cutoff to 300 */
  ev(&c, SCHED_EV_WARP_EXIT, 0, 1300, 0, -1, 0);
  CHECK(may_load(&c, 1) && may_load(&c, 2) && may_load(&c, 3));
  CHECK_EQ_U64(c.p->hints->next_tick(c.st, 1300), UINT64_MAX);
  close_ccws(&c);
}

static void test_accumulate_and_keys(void) {
  /* accumulate with the cap's k 16: 100 + 320, under the cap 640 */
  const char *acc[] = {"sched.ccws.accumulate=true", "sched.ccws.cap_k=16", NULL};
  C c;
  if (open_ccws(&c, acc)) return;
  score_scenario(&c);
  /* warp 0 at 420 alone reaches the cutoff: only it may load */
  CHECK(may_load(&c, 0) && !may_load(&c, 1));
  CHECK_EQ_U64(c.p->hints->next_tick(c.st, 1000), 1021); /* 420 - 21 < 400 */
  close_ccws(&c);
  /* k_throttle 0: LLDS 0, the score stays at base: never throttled */
  const char *k0[] = {"sched.ccws.k_throttle=0", NULL};
  if (open_ccws(&c, k0)) return;
  score_scenario(&c);
  CHECK(may_load(&c, 2) && may_load(&c, 3));
  CHECK_EQ_U64(stat(&c, "vta_hits"), 1);
  CHECK_EQ_U64(stat(&c, "score_raises"), 0);
  close_ccws(&c);
  /* base 50 (cutoff 200): LLDS = 1/10 * 8 * 200 = 160; warp 1 reaches 210 */
  const char *b50[] = {"sched.ccws.base_score=50", NULL};
  if (open_ccws(&c, b50)) return;
  score_scenario(&c);
  CHECK(may_load(&c, 0) && may_load(&c, 1) && !may_load(&c, 2));
  CHECK_EQ_U64(c.p->hints->next_tick(c.st, 1000), 1011);
  close_ccws(&c);
  /* a VTA with 1 entry per warp: the second eviction replaces the first */
  const char *tiny[] = {"sched.ccws.vta_entries=1", "sched.ccws.vta_ways=1", NULL};
  if (open_ccws(&c, tiny)) return;
  launch_all(&c, 0);
  issue_n(&c, 0, 1000, 1);
  ev(&c, SCHED_EV_L1_EVICT, 0, 5, 0x100, 1, CACHE_EVICT_REPLACE);
  ev(&c, SCHED_EV_L1_EVICT, 0, 6, 0x200, 1, CACHE_EVICT_REPLACE);
  ev(&c, SCHED_EV_L1_MISS, 0, 7, 0x100, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_hits"), 0);
  ev(&c, SCHED_EV_L1_MISS, 0, 8, 0x200, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_hits"), 1);
  close_ccws(&c);
  /* ways must divide the entries */
  const char *bad[] = {"sched.ccws.vta_entries=16", "sched.ccws.vta_ways=5", NULL};
  c.p = policy_find_warp("ccws");
  c.cfg = cfg_create();
  for (int i = 0; bad[i]; i++) CHECK(cfg_set(c.cfg, bad[i]) == 0);
  char err[256] = "";
  WarpSchedEnv env = {.nsched = 2, .max_warps = NW, .max_ctas = 2, .prefix = "sched.ccws", .cfg = c.cfg};
  c.st = NULL;
  CHECK(c.p->init(&c.st, &env, err, sizeof err) != 0);
  CHECK_STR_CONTAINS(err, "vta_ways");
  cfg_free(c.cfg);
}

static void test_barrier_warps_left_out(void) {
  C c;
  if (open_ccws(&c, NULL)) return;
  score_scenario(&c);                                 /* warps 2, 3 throttled */
  ev(&c, SCHED_EV_BARRIER_ARRIVE, 1, 1001, 0, -1, 0); /* warp 1 (CTA 0) waits at a barrier */
  CHECK(may_load(&c, 2) && !may_load(&c, 3));         /* 320 + warp 2's 100 reaches the cutoff */
  ev(&c, SCHED_EV_BARRIER_ARRIVE, 3, 1002, 0, -1, 0); /* warp 3 (CTA 1) too */
  CHECK(may_load(&c, 2));
  /* CTA 0's barrier releases (warp 0 arrives last): warp 1 counts again */
  ev(&c, SCHED_EV_BARRIER_ARRIVE, 0, 1003, 0, -1, 0);
  ev(&c, SCHED_EV_BARRIER_RELEASE, 0, 1003, 0, -1, 0);
  CHECK(may_load(&c, 0) && may_load(&c, 1) && !may_load(&c, 2));
  close_ccws(&c);
  /* skip_barrier=false: barrier warps keep their place in the walk */
  const char *nb[] = {"sched.ccws.skip_barrier=false", NULL};
  if (open_ccws(&c, nb)) return;
  score_scenario(&c);
  ev(&c, SCHED_EV_BARRIER_ARRIVE, 1, 1001, 0, -1, 0);
  CHECK(!may_load(&c, 2));
  close_ccws(&c);
}

/* The same event stream to an instance ticked every cycle and one ticked only
 * where next_tick asks (and at the events): the same decisions every cycle
 * and the same statistics. */
static void test_lazy_equals_every_cycle(void) {
  C a, b;
  if (open_ccws(&a, NULL) || open_ccws(&b, NULL)) return;
  C *both[2] = {&a, &b};
  for (int i = 0; i < 2; i++) launch_all(both[i], 0);
  uint64_t lazy_ticks = 0, wake_b = UINT64_MAX;
  int same = 1;
  for (uint64_t t = 1; t < 6000; t++) {
    /* a scripted stream: instructions, evictions and re-references of 4 warps */
    for (int i = 0; i < 2; i++) {
      C *c = both[i];
      issue_n(c, (uint32_t)(t % NW), 1, t);
      if (t % 97 == 0)
        ev(c, SCHED_EV_L1_EVICT, (uint32_t)(t / 97 % NW), t, 0x10000 + (t % 5) * 128, 0, CACHE_EVICT_REPLACE);
      if (t % 13 == 0) ev(c, SCHED_EV_L1_MISS, (uint32_t)(t / 13 % NW), t, 0x10000 + (t % 5) * 128, -1, 0);
      if (t == 3000) ev(c, SCHED_EV_WARP_EXIT, 3, t, 0, -1, 0);
      if (t == 3500) ev(c, SCHED_EV_WARP_LAUNCH, 3, t, 0, -1, 0);
    }
    a.p->tick(a.st, t);
    if (t % 13 == 0 || t % 97 == 0 || t == 3000 || t == 3500 ||
        t >= wake_b) { /* simulated cycles, and wakes */
      b.p->tick(b.st, t);
      wake_b = b.p->hints->next_tick(b.st, t);
      lazy_ticks++;
    }
    for (uint32_t w = 0; w < NW; w++) same &= may_load(&a, w) == may_load(&b, w);
  }
  for (int i = 0; i < 2; i++) /* the warps exit: both account up to the end */
    for (uint32_t w = 0; w < NW; w++) ev(both[i], SCHED_EV_WARP_EXIT, w, 6000, 0, -1, 0);
  CHECK(same);
  CHECK(lazy_ticks < 5000);
  CHECK(stat(&a, "throttle_cycles") > 0); /* the stream does throttle */
  const char *names[] = {
      "vta_hits",           "vta_probes", "throttle_cycles", "active_cycles", "allowed_warps_mean",
      "excluded_warps_max", NULL};
  for (int i = 0; names[i]; i++) {
    double x = stat(&a, names[i]), y = stat(&b, names[i]);
    if (x != y) fprintf(stderr, "%s: every cycle %g, lazy %g\n", names[i], x, y);
    CHECK(x == y);
  }
  close_ccws(&a);
  close_ccws(&b);
}

static void test_gto_order(void) {
  C c;
  if (open_ccws(&c, NULL)) return;
  const WarpSchedPolicy *g = policy_find_warp("gto");
  void *gs = NULL;
  Config *cfg = cfg_create();
  WarpSchedEnv env = {.nsched = 2, .max_warps = 8, .max_ctas = 2, .prefix = "sched.gto", .cfg = cfg};
  char err[128];
  CHECK(g && g->init(&gs, &env, err, sizeof err) == 0);
  WarpView v[NW];
  memset(v, 0, sizeof v);
  const uint64_t ages[NW] = {3, 1, 0, 2};
  for (uint32_t s = 0; s < NW; s++)
    v[s] = (WarpView){.slot = s, .valid = 1, .age = ages[s], .warp_in_cta = s};
  uint32_t o1[NW], o2[NW];
  for (int32_t greedy = -1; greedy < NW; greedy++)
    for (uint32_t sched = 0; sched < 2; sched++) {
      if (greedy >= 0 && (uint32_t)greedy % 2 != sched) continue;
      uint32_t n1 = c.p->order(c.st, sched, v, NW, greedy, 5, o1),
               n2 = g->order(gs, sched, v, NW, greedy, 5, o2);
      CHECK_EQ_U64(n1, n2);
      CHECK(n1 == n2 && !memcmp(o1, o2, n1 * sizeof *o1));
    }
  g->free(gs);
  cfg_free(cfg);
  close_ccws(&c);
}

/* 2lvl-gto (by name) orders exactly as two-level with group_size=2 and gto
 * inside and between groups, over a sequence of states that switch groups. */
static void test_2lvl_gto_by_name(void) {
  const char *tl_sets[] = {"sched.two-level.group_size=2", "sched.two-level.inner=gto",
                           "sched.two-level.outer=gto", NULL};
  const WarpSchedPolicy *a = policy_find_warp("2lvl-gto"), *b = policy_find_warp("two-level");
  CHECK(a && b);
  if (!a || !b) return;
  Config *ca = cfg_create(), *cb = cfg_create();
  for (int i = 0; tl_sets[i]; i++) CHECK(cfg_set(cb, tl_sets[i]) == 0);
  WarpSchedEnv ea = {.nsched = 2, .max_warps = 12, .max_ctas = 2, .prefix = "sched.2lvl-gto", .cfg = ca};
  WarpSchedEnv eb = {.nsched = 2, .max_warps = 12, .max_ctas = 2, .prefix = "sched.two-level", .cfg = cb};
  void *sa = NULL, *sb = NULL;
  char err[128];
  CHECK(a->init(&sa, &ea, err, sizeof err) == 0 && b->init(&sb, &eb, err, sizeof err) == 0);
  WarpView v[12];
  uint32_t oa[12], ob[12], differ = 0, first_changes = 0, prev = UINT32_MAX;
  for (uint32_t step = 0; step < 64; step++) {
    for (uint32_t s = 0; s < 12; s++) {
      uint32_t x = (s * 7 + step * 13) % 5;
      v[s] = (WarpView){.slot = s,
                        .valid = 1,
                        .age = (s * 5) % 12,
                        .warp_in_cta = s,
                        .wait = x < 2 ? WARP_WAIT_SCOREBOARD : WARP_WAIT_NONE,
                        .long_pending = x < 2};
    }
    for (uint32_t q = 0; q < 2; q++) {
      int32_t greedy = (int32_t)((step * 2 + q) % 12);
      if ((uint32_t)greedy % 2 != q) greedy = -1;
      uint32_t na = a->order(sa, q, v, 12, greedy, step, oa), nb = b->order(sb, q, v, 12, greedy, step, ob);
      differ += na != nb || memcmp(oa, ob, na * sizeof *oa);
      if (q == 0 && na && oa[0] != prev) first_changes++, prev = oa[0];
    }
  }
  CHECK_EQ_U64(differ, 0);
  CHECK(first_changes > 2); /* the states do move the order */
  a->free(sa);
  b->free(sb);
  cfg_free(ca);
  cfg_free(cb);
}

/* ---- on the simulator ---- */
/* Warp w: spins w * delay iterations, loads its line buf + w * 128, spins
 * 2 * delay, loads it again. With a 1-line L1D and 2 warps: warp 0 loads A,
 * warp 1's B evicts it (into warp 0's VTA), warp 0's reload misses on A and
 * hits its VTA (evicting B into warp 1's), warp 1's reload hits its VTA.
 * Each warp then stores into its line, which invalidates the tag in its VTA. */
static const char rl_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry rl(.param .u64 buf, .param .u32 delay)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n"
    "  ld.param.u64 %rd1, [buf];\n  ld.param.u32 %r4, [delay];\n"
    "  mul.lo.u32 %r5, %r4, %r2;\n  setp.eq.u32 %p1, %r5, 0;\n  @%p1 bra $L_load;\n"
    "$L_spin:\n  add.u32 %r5, %r5, -1;\n  setp.ne.u32 %p2, %r5, 0;\n  @%p2 bra $L_spin;\n"
    "$L_load:\n  shl.b32 %r6, %r2, 7;\n  cvt.u64.u32 %rd2, %r6;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r7, [%rd3];\n"
    "  shl.b32 %r8, %r4, 1;\n"
    "$L_spin2:\n  add.u32 %r8, %r8, -1;\n  setp.ne.u32 %p3, %r8, 0;\n  @%p3 bra $L_spin2;\n"
    "  ld.global.u32 %r9, [%rd3];\n  add.u32 %r10, %r9, %r7;\n  st.global.u32 [%rd3+4], %r10;\n"
    "  ret;\n}\n"
    "//@warpsim regs rl 16\n";

static char *run_rl(uint32_t warps, uint32_t delay) {
  const char *sets[] = {"sm.count=1", "sched.policy=ccws", "l1d.size=128", "l1d.assoc=1", NULL};
  return test_run_kernel(sets, rl_ptx, "rl", warps * 32, &delay, 1);
}

/* The number after "\"key\": " in the JSON's policies section. */
static uint64_t json_u64(const char *j, const char *key) {
  const uint64_t v = test_json_u64(j, "\"policies\"", key);
  CHECK(v != UINT64_MAX);
  return v;
}

static void test_thrashing_warps_hit_their_vtas(void) {
  char *j = run_rl(2, 200);
  CHECK(j != NULL);
  CHECK_EQ_U64(json_u64(j, "vta_probes"), 4); /* four load misses */
  CHECK_EQ_U64(json_u64(j, "vta_hits"), 2);   /* both re-references */
  CHECK_EQ_U64(json_u64(j, "vta_inserts"), 2);
  CHECK_EQ_U64(json_u64(j, "vta_store_invalidations"), 2); /* each warp's store to its line */
  free(j);
  /* one warp alone keeps its line: one miss, no VTA traffic */
  j = run_rl(1, 200);
  CHECK_EQ_U64(json_u64(j, "vta_probes"), 1);
  CHECK_EQ_U64(json_u64(j, "vta_hits"), 0);
  CHECK_EQ_U64(json_u64(j, "vta_inserts"), 0);
  free(j);
}

static char *run_benches(const char *const *sets, const char *const *names, uint64_t *cycles) {
  return test_run_benches(NULL, sets, names, cycles);
}

/* Exact with the engine's shortcuts off; kmeans and bfs lose locality under
 * gto (VTA hits), so ccws throttles and the schedule differs from gto's. */
static void test_skip_idle_identical(void) {
  const char *on[] = {"sched.policy=ccws", NULL};
  const char *off[] = {"sched.policy=ccws", "sm.skip_idle_cycles=false", NULL};
  const char *gto[] = {"sched.policy=gto", NULL};
  const char *names[] = {"kmeans", "bfs", "srad_v1", NULL};
  uint64_t c1 = 0, c2 = 0, c3 = 0;
  char *a = run_benches(on, names, &c1), *b = run_benches(off, names, &c2), *g = run_benches(gto, names, &c3);
  CHECK(a && b && g);
  CHECK_EQ_U64(c1, c2);
  CHECK(c1 != c3);
  CHECK(json_u64(a, "vta_hits") > 0);
  CHECK(json_u64(a, "throttle_cycles") > 0);
  if (a && b) CHECK(test_json_same("ccws", a, b));
  free(a);
  free(b);
  free(g);
}

int main(void) {
  TEST_RUN(test_vta);
  TEST_RUN(test_vta_counters);
  TEST_RUN(test_vta_feed);
  TEST_RUN(test_vta_insert_and_probe);
  TEST_RUN(test_store_invalidates_every_vta);
  TEST_RUN(test_score_cutoff_and_decay);
  TEST_RUN(test_accumulate_and_keys);
  TEST_RUN(test_barrier_warps_left_out);
  TEST_RUN(test_lazy_equals_every_cycle);
  TEST_RUN(test_gto_order);
  TEST_RUN(test_2lvl_gto_by_name);
  TEST_RUN(test_thrashing_warps_hit_their_vtas);
  TEST_RUN(test_skip_idle_identical);
  return TEST_DONE();
}
