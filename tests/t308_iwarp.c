/* t308_iwarp.c - iWarp (policy/warp/iwarp.c) on the shared victim tag arrays
 * (policy/warp/vta.c) and the missclass observer
 * (policy/observer/missclass.c). The VTA's miss classes and forgetting a
 * relaunched slot's interferer. The scheduler driven by hand-built events
 * (4 warp slots, 2 schedulers): an eviction records the interferer in the
 * victim's VTA; a miss that hits it naming another warp throttles that warp
 * (global loads only), one naming the warp itself throttles nobody; the
 * release comes through next_tick/tick exactly release_cycles after the last
 * VTA hit naming the interferer (refreshed by later hits, several victims),
 * or at once when the (last) victim exits; the cap; statistics accounted
 * lazily equal those of an instance ticked every cycle. On the simulator: two
 * warps thrashing a 1-line L1D (exact counts under iwarp and under missclass
 * with gto); benchmarks under iwarp pass their checks, throttle, and give
 * identical statistics with sm.skip_idle_cycles=false. All of that is the
 * notes reading (sched.iwarp.reading=notes); the ciao reading (the default)
 * on hand-built events: hits only counted until the epoch's end, the
 * interference score against the high and low cutoffs (throttle, hold,
 * reactivate), nothing issued while throttled, release by exits, newest
 * first, the cap, no mutual throttling; lazily ticked equals every cycle; and
 * on the two thrashing warps. */
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

/* ---- the VTA's classification ---- */
static void test_vta_classify(void) {
  Vta v;
  CHECK(vta_init(&v, 4, 16, 8) == 0);
  vta_insert(&v, 0, 0x1000, 0); /* lost to itself */
  vta_insert(&v, 0, 0x1080, 2); /* lost to warp 2 */
  vta_insert(&v, 1, 0x1000, 2);
  int32_t who = 7;
  CHECK_EQ_U64(vta_classify(&v, 0, 0x1000, &who), VTA_MISS_INTRA);
  CHECK_EQ_U64(who, 0);
  CHECK_EQ_U64(vta_classify(&v, 0, 0x1080, &who), VTA_MISS_INTER);
  CHECK_EQ_U64(who, 2);
  CHECK_EQ_U64(vta_classify(&v, 0, 0x2000, NULL), VTA_MISS_OTHER);
  CHECK_EQ_U64(vta_classify(&v, 3, 0x1000, NULL), VTA_MISS_OTHER);
  CHECK_EQ_U64(vta_forget_interferer(&v, 2), 2);                   /* warp 0's and warp 1's entries */
  CHECK_EQ_U64(vta_classify(&v, 0, 0x1080, &who), VTA_MISS_INTER); /* still inter-warp, interferer unknown */
  CHECK_EQ_U64((uint64_t)(int64_t)who, (uint64_t)(int64_t)-1);
  CHECK_EQ_U64(vta_forget_interferer(&v, 2), 0);
  vta_free(&v);
}

/* ---- the scheduler on hand-built events ---- */
#define NW 4
#define R 100 /* release_cycles in these tests */
typedef struct C {
  const WarpSchedPolicy *p;
  void *st;
  Config *cfg;
} C;

static int open_iwarp(C *c, const char *const *sets) {
  c->p = policy_find_warp("iwarp");
  c->st = NULL;
  c->cfg = cfg_create();
  CHECK(c->p != NULL && c->cfg != NULL);
  if (!c->p || !c->cfg) return -1;
  CHECK(cfg_set(c->cfg, "sched.iwarp.release_cycles=100") == 0);
  CHECK(cfg_set(c->cfg, "sched.iwarp.reading=notes") == 0); /* the ciao tests set it back */
  for (int i = 0; sets && sets[i]; i++) CHECK(cfg_set(c->cfg, sets[i]) == 0);
  char err[256] = "";
  WarpSchedEnv env = {
      .sm = 0, .nsched = 2, .max_warps = NW, .max_ctas = 2, .prefix = "sched.iwarp", .cfg = c->cfg};
  if (c->p->init(&c->st, &env, err, sizeof err)) {
    fprintf(stderr, "init: %s\n", err);
    CHECK(0);
    return -1;
  }
  return 0;
}
static void close_iwarp(C *c) {
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
/* warp `victim`'s line `line` was evicted by `by`, then `victim` misses on it at `cycle` */
static void interfere(C *c, uint32_t victim, int32_t by, uint64_t line, uint64_t cycle) {
  ev(c, SCHED_EV_L1_EVICT, victim, cycle - 1, line, by, CACHE_EVICT_REPLACE);
  ev(c, SCHED_EV_L1_MISS, victim, cycle, line, -1, 0);
}
static bool may(C *c, uint32_t w, WarpInstKind k) {
  WarpView v = {.slot = w, .valid = 1};
  return c->p->can_issue(c->st, &v, k);
}
static bool may_load(C *c, uint32_t w) { return may(c, w, WINST_GLOBAL_LOAD); }
static uint64_t next(C *c, uint64_t now) { return c->p->hints->next_tick(c->st, now); }
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

static void test_interferer_recorded_and_throttled(void) {
  C c;
  if (open_iwarp(&c, NULL)) return;
  launch_all(&c, 0);
  CHECK_EQ_U64(next(&c, 0), UINT64_MAX); /* nothing throttled: no tick wanted */
  /* warp 0's line A evicted by warp 0 itself: intra-warp, nobody throttled */
  interfere(&c, 0, 0, 0x1000, 10);
  CHECK_EQ_U64(stat(&c, "vta_hits_intra_warp"), 1);
  CHECK_EQ_U64(stat(&c, "throttle_events"), 0);
  for (uint32_t w = 0; w < NW; w++) CHECK(may_load(&c, w));
  /* hits, merges, bypasses do not probe */
  ev(&c, SCHED_EV_L1_EVICT, 0, 19, 0x2000, 2, CACHE_EVICT_REPLACE);
  ev(&c, SCHED_EV_L1_HIT, 0, 20, 0x2000, -1, 0);
  ev(&c, SCHED_EV_L1_MERGE, 0, 20, 0x2000, -1, 0);
  ev(&c, SCHED_EV_L1_BYPASS, 0, 20, 0x2000, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_probes"), 1);
  /* a store invalidation is not recorded */
  ev(&c, SCHED_EV_L1_EVICT, 1, 21, 0x3000, 2, CACHE_EVICT_INVALIDATE);
  ev(&c, SCHED_EV_L1_MISS, 1, 22, 0x3000, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_hits"), 1);
  /* warp 0 misses on 0x2000, which warp 2 evicted: warp 2 is throttled */
  ev(&c, SCHED_EV_L1_MISS, 0, 50, 0x2000, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_hits_inter_warp"), 1);
  CHECK_EQ_U64(stat(&c, "throttle_events"), 1);
  CHECK(!may_load(&c, 2));
  CHECK(may(&c, 2, WINST_LOCAL_LOAD)); /* only global loads are held back */
  CHECK(may(&c, 2, WINST_GLOBAL_STORE));
  CHECK(may(&c, 2, WINST_ALU));
  CHECK(may_load(&c, 0) && may_load(&c, 1) && may_load(&c, 3));
  CHECK_EQ_U64(next(&c, 50), 50 + R);
  /* an interferer that exited names nobody */
  ev(&c, SCHED_EV_WARP_EXIT, 3, 60, 0, -1, 0);
  interfere(&c, 1, 3, 0x4000, 62);
  CHECK_EQ_U64(stat(&c, "vta_hits_interferer_gone"), 1);
  CHECK_EQ_U64(stat(&c, "throttle_events"), 1);
  /* a relaunched slot is not blamed for its predecessor's evictions */
  ev(&c, SCHED_EV_L1_EVICT, 1, 63, 0x5000, 3, CACHE_EVICT_REPLACE);
  ev(&c, SCHED_EV_WARP_LAUNCH, 3, 64, 0, -1, 0);
  ev(&c, SCHED_EV_L1_MISS, 1, 65, 0x5000, -1, 0);
  CHECK_EQ_U64(stat(&c, "vta_hits_inter_warp"), 3);
  CHECK_EQ_U64(stat(&c, "vta_hits_interferer_gone"), 2);
  CHECK(may_load(&c, 3));
  close_iwarp(&c);
}

/* The release timer: exactly R cycles after the last VTA hit naming the
 * interferer, through next_tick and tick only. */
static void test_release_on_timeout(void) {
  C c;
  if (open_iwarp(&c, NULL)) return;
  launch_all(&c, 0);
  interfere(&c, 0, 1, 0x1000, 10);
  CHECK(!may_load(&c, 1));
  CHECK_EQ_U64(next(&c, 10), 10 + R);
  c.p->tick(c.st, 10 + R - 1);
  CHECK(!may_load(&c, 1));
  /* a second hit of the same victim naming warp 1 at 60 moves the release to 160 */
  interfere(&c, 0, 1, 0x1080, 60);
  CHECK_EQ_U64(stat(&c, "throttle_refreshes"), 1);
  CHECK_EQ_U64(next(&c, 60), 60 + R);
  c.p->tick(c.st, 60 + R - 1);
  CHECK(!may_load(&c, 1));
  c.p->tick(c.st, 60 + R);
  CHECK(may_load(&c, 1));
  CHECK_EQ_U64(next(&c, 60 + R), UINT64_MAX);
  CHECK_EQ_U64(stat(&c, "releases_timeout"), 1);
  CHECK_EQ_U64(stat(&c, "throttled_warp_cycles"), 60 + R - 10); /* [10, 160) */
  CHECK_EQ_U64(stat(&c, "throttle_cycles"), 60 + R - 10);
  /* late news: an event long after the release cycle accounts only up to it */
  interfere(&c, 2, 3, 0x2000, 1000);
  ev(&c, SCHED_EV_L1_MISS, 0, 5000, 0x9000, -1, 0); /* nobody ticked at 1100 */
  CHECK(may_load(&c, 3));
  CHECK_EQ_U64(stat(&c, "throttled_warp_cycles"), 150 + R);
  CHECK_EQ_U64(stat(&c, "releases_timeout"), 2);
  close_iwarp(&c);
}

static void test_release_on_victim_exit(void) {
  C c;
  if (open_iwarp(&c, NULL)) return;
  launch_all(&c, 0);
  interfere(&c, 0, 1, 0x1000, 10); /* victims 0 and 2 both name warp 1 */
  interfere(&c, 2, 1, 0x2000, 40);
  CHECK_EQ_U64(stat(&c, "throttle_events"), 1);
  CHECK_EQ_U64(next(&c, 40), 40 + R);
  ev(&c, SCHED_EV_WARP_EXIT, 2, 50, 0, -1, 0); /* victim 2 leaves: warp 1 waits on victim 0's timer */
  CHECK(!may_load(&c, 1));
  CHECK_EQ_U64(next(&c, 50), 10 + R);
  ev(&c, SCHED_EV_WARP_EXIT, 0, 70, 0, -1, 0); /* the last victim leaves: released at once */
  CHECK(may_load(&c, 1));
  CHECK_EQ_U64(next(&c, 70), UINT64_MAX);
  CHECK_EQ_U64(stat(&c, "releases_victim_exit"), 1);
  CHECK_EQ_U64(stat(&c, "releases_timeout"), 0);
  CHECK_EQ_U64(stat(&c, "throttled_warp_cycles"), 60);
  /* a throttled warp that exits is released too */
  interfere(&c, 1, 3, 0x3000, 80);
  CHECK(!may_load(&c, 3));
  ev(&c, SCHED_EV_WARP_EXIT, 3, 90, 0, -1, 0);
  CHECK_EQ_U64(stat(&c, "releases_own_exit"), 1);
  CHECK_EQ_U64(next(&c, 90), UINT64_MAX);
  close_iwarp(&c);
}

static void test_throttle_cap(void) {
  /* default: half the warp slots (2 of 4) */
  C c;
  if (open_iwarp(&c, NULL)) return;
  launch_all(&c, 0);
  interfere(&c, 0, 1, 0x1000, 10);
  interfere(&c, 0, 2, 0x1080, 11);
  interfere(&c, 0, 3, 0x1100, 12);
  CHECK(!may_load(&c, 1) && !may_load(&c, 2));
  CHECK(may_load(&c, 3));
  CHECK_EQ_U64(stat(&c, "throttle_events"), 2);
  CHECK_EQ_U64(stat(&c, "cap_refusals"), 1);
  CHECK_EQ_U64(stat(&c, "throttled_warps_max"), 2);
  /* one released: the next hit naming warp 3 throttles it */
  ev(&c, SCHED_EV_WARP_EXIT, 1, 20, 0, -1, 0);
  interfere(&c, 0, 3, 0x1100, 30);
  CHECK(!may_load(&c, 3));
  close_iwarp(&c);
  /* max_throttled = 1 */
  const char *one[] = {"sched.iwarp.max_throttled=1", NULL};
  if (open_iwarp(&c, one)) return;
  launch_all(&c, 0);
  interfere(&c, 0, 1, 0x1000, 10);
  interfere(&c, 2, 3, 0x2000, 11);
  CHECK(!may_load(&c, 1));
  CHECK(may_load(&c, 3));
  CHECK_EQ_U64(stat(&c, "cap_refusals"), 1);
  interfere(&c, 2, 1, 0x2080, 12); /* an already throttled warp is refreshed, not refused */
  CHECK_EQ_U64(stat(&c, "cap_refusals"), 1);
  CHECK_EQ_U64(stat(&c, "throttle_refreshes"), 1);
  close_iwarp(&c);
  /* bad VTA geometry names the key */
  const char *bad[] = {"sched.iwarp.vta_ways=3", NULL};
  c.p = policy_find_warp("iwarp");
  c.cfg = cfg_create();
  for (int i = 0; bad[i]; i++) CHECK(cfg_set(c.cfg, bad[i]) == 0);
  char err[256] = "";
  WarpSchedEnv env = {.nsched = 2, .max_warps = NW, .max_ctas = 2, .prefix = "sched.iwarp", .cfg = c.cfg};
  c.st = NULL;
  CHECK(c.p->init(&c.st, &env, err, sizeof err) != 0);
  CHECK_STR_CONTAINS(err, "vta_ways");
  cfg_free(c.cfg);
}

/* One event stream into an instance ticked only when it asks and one ticked
 * every cycle: the same decisions every cycle and the same statistics. */
static void lazy_equals_every_cycle(const char *reading) {
  C a, b;
  const char *sets[] = {reading, "sched.iwarp.epoch_cycles=300", NULL};
  if (open_iwarp(&a, sets) || open_iwarp(&b, sets)) return;
  launch_all(&a, 0);
  launch_all(&b, 0);
  uint64_t wake = UINT64_MAX;
  uint32_t line = 0;
  for (uint64_t t = 1; t < 3000; t++) {
    b.p->tick(b.st, t);
    if (t == wake) a.p->tick(a.st, t), wake = next(&a, t);
    if (t % 3 == 0) { /* an instruction every third cycle: it may end an epoch in a cycle nobody ticked */
      WarpView v = {.slot = (uint32_t)(t / 3) % NW, .valid = 1};
      SchedIssue is = {.cycle = t, .kind = WINST_ALU};
      a.p->on_issue(a.st, &v, &is), b.p->on_issue(b.st, &v, &is);
      wake = next(&a, t);
    }
    if (t % 37 == 0 && t < 2200) { /* the k-th: victim k%4 names another warp */
      uint32_t k = (uint32_t)(t / 37), v = k % NW, i = (k + 1 + (k / NW) % 3) % NW;
      uint64_t l = 0x10000 + 128 * (line++ % 64);
      interfere(&a, v, (int32_t)i, l, t);
      interfere(&b, v, (int32_t)i, l, t);
      wake = next(&a, t);
    }
    if (t == 1500) {
      ev(&a, SCHED_EV_WARP_EXIT, 2, t, 0, -1, 0), ev(&b, SCHED_EV_WARP_EXIT, 2, t, 0, -1, 0);
      ev(&a, SCHED_EV_WARP_LAUNCH, 2, t, 0, -1, 0), ev(&b, SCHED_EV_WARP_LAUNCH, 2, t, 0, -1, 0);
      wake = next(&a, t);
    }
    for (uint32_t w = 0; w < NW; w++) CHECK(may_load(&a, w) == may_load(&b, w));
  }
  a.p->tick(a.st, 3000), b.p->tick(b.st, 3000);
  const char *names[] = {"throttle_events",
                         "throttle_refreshes",
                         "releases_timeout",
                         "releases_victim_exit",
                         "throttled_warp_cycles",
                         "throttle_cycles",
                         "active_cycles",
                         "cap_refusals",
                         "throttled_warps_window00",
                         "releases_low_cutoff",
                         "epochs",
                         "epoch_victims_over_high_cutoff"};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++)
    CHECK_EQ_U64(stat(&a, names[k]), stat(&b, names[k]));
  CHECK(stat(&a, "throttle_events") > 2);
  CHECK(stat(&a, "releases_timeout") + stat(&a, "releases_low_cutoff") > 0);
  close_iwarp(&a);
  close_iwarp(&b);
}
static void test_lazy_equals_every_cycle(void) {
  lazy_equals_every_cycle("sched.iwarp.reading=notes");
  lazy_equals_every_cycle("sched.iwarp.reading=ciao");
}

/* ---- the ciao reading: epochs, interference scores, cutoffs ---- */
#define EP 1000 /* epoch_cycles in these tests; high_cutoff 0.01, low_cutoff 0.005 (the defaults) */
static int open_ciao(C *c, const char *extra) {
  const char *sets[] = {"sched.iwarp.reading=ciao", "sched.iwarp.epoch_cycles=1000", extra, NULL};
  return open_iwarp(c, sets);
}
/* `n` warp instructions issued at `cycle` (IRS's denominator), spread over the warps */
static void issue_n(C *c, uint64_t cycle, uint32_t n) {
  for (uint32_t k = 0; k < n; k++) {
    WarpView v = {.slot = k % NW, .valid = 1};
    SchedIssue is = {.cycle = cycle, .kind = WINST_ALU};
    c->p->on_issue(c->st, &v, &is);
  }
}

/* The detector counts, the epoch's end judges: 400 instructions over 4 warps
 * are 100 per warp; victim 0's 4 hits (3 naming warp 2, 1 naming warp 3) are
 * IRS 0.04 > 0.01: warp 2, its worst interferer, is throttled at the epoch's
 * end (not at the hits) and issues nothing. One hit the next epoch (IRS
 * 0.01: neither above high nor below low) keeps it; none the epoch after
 * reactivates it. */
static void test_ciao_throttle_and_release(void) {
  C c;
  if (open_ciao(&c, NULL)) return;
  launch_all(&c, 0);
  CHECK_EQ_U64(next(&c, 0), EP);
  issue_n(&c, 5, 400);
  interfere(&c, 0, 2, 0x1000, 10);
  interfere(&c, 0, 2, 0x1080, 20);
  interfere(&c, 0, 3, 0x1100, 30);
  interfere(&c, 0, 2, 0x1180, 40);
  interfere(&c, 1, 1, 0x2000, 50); /* intra-warp: not interference */
  CHECK_EQ_U64(stat(&c, "vta_hits_inter_warp"), 4);
  CHECK_EQ_U64(stat(&c, "throttle_events"), 0); /* nothing until the epoch ends */
  for (uint32_t w = 0; w < NW; w++) CHECK(may_load(&c, w));
  c.p->tick(c.st, EP - 1);
  CHECK(may_load(&c, 2));
  c.p->tick(c.st, EP);
  CHECK_EQ_U64(stat(&c, "epochs"), 1);
  CHECK_EQ_U64(stat(&c, "epoch_victims_over_high_cutoff"), 1);
  CHECK_EQ_U64(stat(&c, "throttle_events"), 1);
  CHECK(!may(&c, 2, WINST_ALU) && !may_load(&c, 2) &&
        !may(&c, 2, WINST_GLOBAL_STORE)); /* execution throttled */
  CHECK(may_load(&c, 0) && may_load(&c, 1) && may_load(&c, 3));
  CHECK_EQ_U64(next(&c, EP), 2 * EP);
  /* epoch 2: IRS 1 / 100 = 0.01, between the cutoffs: warp 2 stays, warp 3 is not throttled */
  issue_n(&c, EP + 5, 400);
  interfere(&c, 0, 3, 0x1200, EP + 10);
  c.p->tick(c.st, 2 * EP);
  CHECK(!may(&c, 2, WINST_ALU));
  CHECK(may_load(&c, 3));
  CHECK_EQ_U64(stat(&c, "throttle_events"), 1);
  CHECK_EQ_U64(stat(&c, "releases_low_cutoff"), 0);
  /* epoch 3: no hit, IRS 0 < 0.005: reactivated */
  issue_n(&c, 2 * EP + 5, 400);
  c.p->tick(c.st, 3 * EP);
  CHECK(may(&c, 2, WINST_ALU) && may_load(&c, 2));
  CHECK_EQ_U64(stat(&c, "releases_low_cutoff"), 1);
  CHECK_EQ_U64(stat(&c, "throttled_warp_cycles"), 2 * EP); /* [1000, 3000) */
  /* the same hits with few instructions (800 per warp) are IRS 0.005: nobody throttled */
  issue_n(&c, 3 * EP + 5, 3200);
  for (uint32_t k = 0; k < 4; k++) interfere(&c, 0, 2, 0x3000 + 128 * k, 3 * EP + 10 + k);
  c.p->tick(c.st, 4 * EP);
  CHECK_EQ_U64(stat(&c, "throttle_events"), 1);
  close_iwarp(&c);
}

/* Releases by exit; no mutual throttling; the newest throttle is released
 * first; the cap. */
static void test_ciao_exits_order_cap(void) {
  C c;
  if (open_ciao(&c, NULL)) return;
  launch_all(&c, 0);
  issue_n(&c, 5, 400);
  /* victims 0 and 1 name each other: warp 1 (victim 0's worst) is throttled; victim 1 is then throttled
   * itself */
  for (uint32_t k = 0; k < 3; k++) interfere(&c, 0, 1, 0x1000 + 128 * k, 10 + k);
  for (uint32_t k = 0; k < 3; k++) interfere(&c, 1, 0, 0x2000 + 128 * k, 20 + k);
  c.p->tick(c.st, EP);
  CHECK_EQ_U64(stat(&c, "throttle_events"), 1);
  CHECK(!may(&c, 1, WINST_ALU) && may(&c, 0, WINST_ALU));
  /* the victim exits: its interferer is reactivated at once */
  ev(&c, SCHED_EV_WARP_EXIT, 0, EP + 50, 0, -1, 0);
  CHECK(may(&c, 1, WINST_ALU));
  CHECK_EQ_U64(stat(&c, "releases_victim_exit"), 1);
  /* victim 2 throttles 3 in one epoch, and 1 in the next (3 stays: its score is between the cutoffs) */
  ev(&c, SCHED_EV_WARP_LAUNCH, 0, EP + 60, 0, -1, 0);
  issue_n(&c, EP + 100, 400);
  for (uint32_t k = 0; k < 3; k++) interfere(&c, 2, 3, 0x3000 + 128 * k, EP + 200 + k);
  c.p->tick(c.st, 2 * EP);
  CHECK(!may(&c, 3, WINST_ALU));
  issue_n(&c, 2 * EP + 100, 400);
  for (uint32_t k = 0; k < 3; k++) interfere(&c, 2, 1, 0x4000 + 128 * k, 2 * EP + 200 + k);
  c.p->tick(c.st, 3 * EP);
  CHECK(!may(&c, 1, WINST_ALU) && !may(&c, 3, WINST_ALU));
  CHECK_EQ_U64(stat(&c, "throttled_warps_max"), 2);
  /* a throttled warp that exits is released too */
  ev(&c, SCHED_EV_WARP_EXIT, 3, 3 * EP + 10, 0, -1, 0);
  CHECK_EQ_U64(stat(&c, "releases_own_exit"), 1);
  CHECK(!may(&c, 1, WINST_ALU));
  issue_n(&c, 3 * EP + 100, 400);
  c.p->tick(c.st, 4 * EP); /* victim 2 quiet: warp 1 reactivated */
  CHECK(may(&c, 1, WINST_ALU));
  close_iwarp(&c);
  /* max_throttled = 1: the second victim's worst interferer is refused */
  if (open_ciao(&c, "sched.iwarp.max_throttled=1")) return;
  launch_all(&c, 0);
  issue_n(&c, 5, 400);
  for (uint32_t k = 0; k < 3; k++) interfere(&c, 0, 1, 0x1000 + 128 * k, 10 + k);
  for (uint32_t k = 0; k < 3; k++) interfere(&c, 2, 3, 0x2000 + 128 * k, 20 + k);
  c.p->tick(c.st, EP);
  CHECK(!may(&c, 1, WINST_ALU) && may(&c, 3, WINST_ALU));
  CHECK_EQ_U64(stat(&c, "cap_refusals"), 1);
  close_iwarp(&c);
  /* bad cutoffs name the key */
  c.p = policy_find_warp("iwarp");
  c.cfg = cfg_create();
  CHECK(cfg_set(c.cfg, "sched.iwarp.low_cutoff=0.5") == 0);
  char err[256] = "";
  WarpSchedEnv env = {.nsched = 2, .max_warps = NW, .max_ctas = 2, .prefix = "sched.iwarp", .cfg = c.cfg};
  c.st = NULL;
  CHECK(c.p->init(&c.st, &env, err, sizeof err) != 0);
  CHECK_STR_CONTAINS(err, "low_cutoff");
  cfg_free(c.cfg);
}

/* ---- on the simulator ---- */
/* Warp w spins w * delay iterations, loads its line buf + w * 128, spins
 * 2 * delay, loads it again, stores next to it; warp 0 then spins 8 * delay
 * more. With a 1-line L1D and two warps: warp 1's B evicts warp 0's A; warp
 * 0's reload misses, hits its VTA naming warp 1, which is throttled: its
 * reload is refused until warp 0 exits (release_cycles is out of reach);
 * then warp 1's reload hits its VTA naming warp 0, gone. */
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
    "  setp.ne.u32 %p1, %r2, 0;\n  @%p1 bra $L_end;\n  shl.b32 %r11, %r4, 3;\n"
    "$L_spin3:\n  add.u32 %r11, %r11, -1;\n  setp.ne.u32 %p2, %r11, 0;\n  @%p2 bra $L_spin3;\n"
    "$L_end:\n  ret;\n}\n"
    "//@warpsim regs rl 16\n";

static char *run_rl_reading(const char *sched, uint32_t warps, uint32_t delay, const char *reading) {
  char pol[64];
  snprintf(pol, sizeof pol, "sched.policy=%s", sched);
  const char *sets[] = {"sm.count=1", pol, "l1d.size=128", "l1d.assoc=1", "sm.observers=missclass",
                        "sched.iwarp.release_cycles=1000000", reading, "sched.iwarp.epoch_cycles=500",
                        /* the parameter load at a fixed latency: a constant-cache miss at the
                         * start would move the loads against the 500-cycle epochs the counts
                         * below were derived for; so would warps that stay live until their
                         * stores' acks (from DRAM): they retire at their exit here */
                        "sm.const_cache=false", "sm.exit_waits_stores=false", "l2.write_ack=here", NULL};
  return test_run_kernel(sets, rl_ptx, "rl", warps * 32, &delay, 1);
}
static char *run_rl(const char *sched, uint32_t warps, uint32_t delay) {
  return run_rl_reading(sched, warps, delay, "sched.iwarp.reading=notes");
}

/* The number after "\"key\": " after `from` in the JSON's policies section. */
static uint64_t json_u64_in(const char *j, const char *from, const char *key) {
  const uint64_t v = test_json_u64(j ? strstr(j, "\"policies\"") : NULL, from, key);
  CHECK(v != UINT64_MAX);
  return v;
}
static uint64_t json_u64(const char *j, const char *key) { return json_u64_in(j, NULL, key); }
/* The core's scheduler-cycles with ready warps none of which issued because
 * the policy refused them (iwarp lists every ready warp): gpu.sched_stall_cycles.policy. */
static uint64_t stall_policy(const char *j) {
  const uint64_t v = test_json_u64(j, "\"sched_stall_cycles\": {", "policy");
  CHECK(v != UINT64_MAX);
  return v;
}

static void test_thrashing_warps_on_the_simulator(void) {
  char *j = run_rl("iwarp", 2, 200);
  CHECK(j != NULL);
  CHECK_EQ_U64(json_u64(j, "vta_probes"), 4);
  CHECK_EQ_U64(json_u64(j, "vta_hits_inter_warp"), 2);
  CHECK_EQ_U64(json_u64(j, "vta_hits_intra_warp"), 0);
  CHECK_EQ_U64(json_u64(j, "throttle_events"), 1);          /* warp 1, by warp 0's reload */
  CHECK_EQ_U64(json_u64(j, "releases_victim_exit"), 1);     /* warp 0's exit released it */
  CHECK_EQ_U64(json_u64(j, "vta_hits_interferer_gone"), 1); /* warp 1's reload names warp 0, gone */
  /* warp 1 (alone on scheduler 1) is ready with its reload and refused
   * until warp 0 exits; under gto no ready warp is ever left out */
  CHECK(stall_policy(j) > 0);
  /* the observer sees the same misses: 2 cold, 2 inter-warp */
  CHECK_EQ_U64(json_u64_in(j, "\"missclass\"", "misses"), 4);
  CHECK_EQ_U64(json_u64_in(j, "\"missclass\"", "misses_inter_warp"), 2);
  CHECK_EQ_U64(json_u64_in(j, "\"missclass\"", "misses_intra_warp"), 0);
  CHECK_EQ_U64(json_u64_in(j, "\"missclass\"", "misses_other"), 2);
  free(j);
  /* under gto nobody is throttled; the observer classifies the same way */
  j = run_rl("gto", 2, 200);
  CHECK_EQ_U64(stall_policy(j), 0);
  CHECK_EQ_U64(json_u64_in(j, "\"missclass\"", "misses_inter_warp"), 2);
  CHECK_EQ_U64(json_u64_in(j, "\"missclass\"", "misses_other"), 2);
  free(j);
  /* one warp alone keeps its line: one cold miss */
  j = run_rl("iwarp", 1, 200);
  CHECK_EQ_U64(json_u64(j, "vta_probes"), 1);
  CHECK_EQ_U64(json_u64(j, "throttle_events"), 0);
  CHECK_EQ_U64(json_u64_in(j, "\"missclass\"", "misses_other"), 1);
  free(j);
}

/* The same two warps under the ciao reading (500-cycle epochs): warp 0's
 * reload names warp 1; at that epoch's end warp 0's score is over the high
 * cutoff and warp 1 is throttled (it issues nothing); an epoch without hits
 * reactivates it. Warp 1's reload names warp 0 too, but in an epoch whose
 * score stays under the cutoff: nobody else is throttled. */
static void test_ciao_on_the_simulator(void) {
  char *j = run_rl_reading("iwarp", 2, 200, "sched.iwarp.reading=ciao");
  CHECK(j != NULL);
  CHECK_EQ_U64(json_u64(j, "vta_probes"), 4);
  CHECK_EQ_U64(json_u64(j, "vta_hits_inter_warp"), 2);
  CHECK_EQ_U64(json_u64(j, "epoch_victims_over_high_cutoff"), 1);
  CHECK_EQ_U64(json_u64(j, "throttle_events"), 1);
  CHECK_EQ_U64(json_u64(j, "releases_low_cutoff"), 1); /* not warp 0's exit, as under notes */
  CHECK_EQ_U64(json_u64(j, "releases_victim_exit"), 0);
  CHECK_EQ_U64(json_u64(j, "throttled_warp_cycles"), 500); /* exactly one epoch */
  CHECK(stall_policy(j) > 0);
  free(j);
}

/* Exact with the engine's shortcuts off; bfs and kmeans see inter-warp VTA
 * hits under iwarp, so it throttles and the schedule differs from gto's. */
static void test_skip_idle_identical(void) {
  const char *on[] = {"sched.policy=iwarp", "sched.iwarp.reading=notes", NULL};
  const char *off[] = {"sched.policy=iwarp", "sched.iwarp.reading=notes", "sm.skip_idle_cycles=false", NULL};
  const char *gto[] = {"sched.policy=gto", NULL};
  const char *names[] = {"kmeans", "bfs", "srad_v1", NULL};
  uint64_t c1 = 0, c2 = 0, c3 = 0;
  char *a = test_run_benches(NULL, on, names, &c1), *b = test_run_benches(NULL, off, names, &c2),
       *g = test_run_benches(NULL, gto, names, &c3);
  CHECK(a && b && g);
  CHECK_EQ_U64(c1, c2);
  CHECK(c1 != c3);
  CHECK(json_u64(a, "throttle_events") > 0);
  CHECK(json_u64(a, "releases_timeout") > 0);
  CHECK(stall_policy(a) > 0);
  if (a && b) CHECK(test_json_same("iwarp", a, b));
  free(a);
  free(b);
  free(g);
  /* the ciao reading: throttles and reactivates on kmeans and bfs, identical with the shortcuts off */
  const char *con[] = {"sched.policy=iwarp", "sched.iwarp.reading=ciao", NULL};
  const char *coff[] = {"sched.policy=iwarp", "sched.iwarp.reading=ciao", "sm.skip_idle_cycles=false", NULL};
  const char *two[] = {"kmeans", "bfs", NULL};
  a = test_run_benches(NULL, con, two, &c1), b = test_run_benches(NULL, coff, two, &c2);
  CHECK(a && b);
  CHECK_EQ_U64(c1, c2);
  CHECK(json_u64(a, "throttle_events") > 0);
  CHECK(json_u64(a, "releases_low_cutoff") > 0);
  CHECK(a && b && !strcmp(a, b));
  free(a);
  free(b);
}

int main(void) {
  TEST_RUN(test_vta_classify);
  TEST_RUN(test_interferer_recorded_and_throttled);
  TEST_RUN(test_release_on_timeout);
  TEST_RUN(test_release_on_victim_exit);
  TEST_RUN(test_throttle_cap);
  TEST_RUN(test_ciao_throttle_and_release);
  TEST_RUN(test_ciao_exits_order_cap);
  TEST_RUN(test_lazy_equals_every_cycle);
  TEST_RUN(test_thrashing_warps_on_the_simulator);
  TEST_RUN(test_ciao_on_the_simulator);
  TEST_RUN(test_skip_idle_identical);
  return TEST_DONE();
}
