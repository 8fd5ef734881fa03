/* t302_warp_sched.c - the baseline warp schedulers' order on hand-built warp
 * states (WarpView arrays of 8-12 slots, 2 schedulers), each policy built
 * through the registry and a Config as the SM builds it: lrr rotates after
 * the greedy warp; gto puts the greedy warp first even when it is stalled,
 * then oldest first; old ignores the greedy warp; two-level keeps its current
 * fetch group until every warp of it waits on a long-latency load (inner and
 * outer lrr/gto, strict); swl lets only the `limit` oldest warps that are not
 * at a barrier issue. For every policy of the registry, on random states:
 * only the scheduler's own valid warps, never a slot twice, (non-limiting
 * policies, those with lists_all) every one of them, and (stable_order) the
 * same list whatever the views hold besides valid and age, at any cycle. */
#include <stdlib.h>

#include "common/test.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "policy/registry.h"

TEST_GLOBALS;

#define NSCHED 2
#define MAXW 64

static const WarpView *open_views; /* the views open_sched's policy may read (env.views), or NULL */

typedef struct Sched {
  const WarpSchedPolicy *p;
  void *st;
  Config *cfg;
} Sched;

/* Builds policy `name` for an SM of `max_warps` slots with "key=value" overrides (NULL-terminated). */
static int open_sched(Sched *s, const char *name, uint32_t max_warps, const char *const *sets) {
  s->p = policy_find_warp(name);
  s->st = NULL;
  s->cfg = cfg_create();
  CHECK(s->p != NULL);
  CHECK(s->cfg != NULL);
  if (!s->p || !s->cfg) return -1;
  for (int i = 0; sets && sets[i]; i++) {
    int rc = cfg_set(s->cfg, sets[i]);
    if (rc) fprintf(stderr, "cfg_set %s: %s\n", sets[i], cfg_error(s->cfg));
    CHECK(rc == 0);
  }
  char prefix[64], err[256] = "";
  snprintf(prefix, sizeof prefix, "sched.%s", s->p->name);
  WarpSchedEnv env = {.sm = 0,
                      .nsched = NSCHED,
                      .max_warps = max_warps,
                      .max_ctas = 8,
                      .prefix = prefix,
                      .cfg = s->cfg,
                      .views = open_views};
  if (s->p->init && s->p->init(&s->st, &env, err, sizeof err)) {
    fprintf(stderr, "init %s: %s\n", name, err);
    CHECK(0);
    return -1;
  }
  return 0;
}

static void close_sched(Sched *s) {
  if (s->p && s->p->free) s->p->free(s->st);
  cfg_free(s->cfg);
}

/* n valid warps in slots 0..n-1, all ready; ages given (NULL: age = slot). */
static void make_views(WarpView *v, uint32_t n, uint32_t nslots, const uint64_t *ages) {
  memset(v, 0, sizeof(WarpView) * nslots);
  for (uint32_t s = 0; s < nslots; s++) {
    v[s].slot = s;
    v[s].wait = WARP_WAIT_EXITED;
    if (s >= n) continue;
    v[s].valid = 1;
    v[s].wait = WARP_WAIT_NONE;
    v[s].age = ages ? ages[s] : s;
    v[s].warp_in_cta = s;
  }
}

static uint32_t order(Sched *s, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                      uint64_t cycle, uint32_t *out) {
  return s->p->order(s->st, sched, v, nslots, greedy, cycle, out);
}

/* out[0..n) == want[0..m) */
#define CHECK_ORDER(out, n, ...)                                                                             \
  do {                                                                                                       \
    const uint32_t want_[] = {__VA_ARGS__};                                                                  \
    uint32_t m_ = sizeof want_ / sizeof want_[0], ok_ = (n) == m_;                                           \
    for (uint32_t i_ = 0; ok_ && i_ < m_; i_++) ok_ = (out)[i_] == want_[i_];                                \
    if (!ok_) {                                                                                              \
      fprintf(stderr, "%s:%d: order:", __FILE__, __LINE__);                                                  \
      for (uint32_t i_ = 0; i_ < (n); i_++) fprintf(stderr, " %u", (out)[i_]);                               \
      fprintf(stderr, "  want:");                                                                            \
      for (uint32_t i_ = 0; i_ < m_; i_++) fprintf(stderr, " %u", want_[i_]);                                \
      fprintf(stderr, "\n");                                                                                 \
    }                                                                                                        \
    CHECK(ok_);                                                                                              \
  } while (0)

static void test_lrr(void) {
  Sched s;
  if (open_sched(&s, "lrr", 8, NULL)) return;
  WarpView v[8];
  uint32_t out[MAXW], n;
  make_views(v, 8, 8, NULL);
  n = order(&s, 0, v, 8, -1, 1, out);
  CHECK_ORDER(out, n, 0, 2, 4, 6);
  n = order(&s, 1, v, 8, -1, 1, out);
  CHECK_ORDER(out, n, 1, 3, 5, 7);
  n = order(&s, 0, v, 8, 2, 2, out); /* starts just after the warp issued last */
  CHECK_ORDER(out, n, 4, 6, 0, 2);
  n = order(&s, 0, v, 8, 6, 3, out); /* wraps */
  CHECK_ORDER(out, n, 0, 2, 4, 6);
  n = order(&s, 1, v, 8, 3, 3, out);
  CHECK_ORDER(out, n, 5, 7, 1, 3);
  v[4].valid = 0; /* exited warps are left out */
  v[4].wait = WARP_WAIT_EXITED;
  n = order(&s, 0, v, 8, 2, 4, out);
  CHECK_ORDER(out, n, 6, 0, 2);
  /* the rotation ignores age and readiness: the SM skips warps that are not ready */
  uint64_t ages[8] = {7, 6, 5, 4, 3, 2, 1, 0};
  make_views(v, 8, 8, ages);
  v[6].wait = WARP_WAIT_SCOREBOARD;
  n = order(&s, 0, v, 8, 4, 5, out);
  CHECK_ORDER(out, n, 6, 0, 2, 4);
  close_sched(&s);
}

static void test_gto(void) {
  Sched s;
  if (open_sched(&s, "gto", 8, NULL)) return;
  uint64_t ages[8] = {50, 51, 20, 21, 30, 31, 10, 11}; /* oldest: 6, 2, 4, 0 / 7, 3, 5, 1 */
  WarpView v[8];
  uint32_t out[MAXW], n;
  make_views(v, 8, 8, ages);
  n = order(&s, 0, v, 8, -1, 1, out);
  CHECK_ORDER(out, n, 6, 2, 4, 0);
  n = order(&s, 1, v, 8, -1, 1, out);
  CHECK_ORDER(out, n, 7, 3, 5, 1);
  n = order(&s, 0, v, 8, 4, 2, out); /* greedy first, then oldest */
  CHECK_ORDER(out, n, 4, 6, 2, 0);
  v[4].wait = WARP_WAIT_SCOREBOARD; /* ... even when it is stalled */
  v[4].long_pending = 1;
  n = order(&s, 0, v, 8, 4, 3, out);
  CHECK_ORDER(out, n, 4, 6, 2, 0);
  n = order(&s, 0, v, 8, 0, 4, out); /* the youngest as greedy */
  CHECK_ORDER(out, n, 0, 6, 2, 4);
  v[6].valid = 0;
  v[6].wait = WARP_WAIT_EXITED;
  n = order(&s, 0, v, 8, 0, 5, out);
  CHECK_ORDER(out, n, 0, 2, 4);
  /* a greedy slot that is no longer valid is ignored */
  n = order(&s, 0, v, 8, 6, 6, out);
  CHECK_ORDER(out, n, 2, 4, 0);
  close_sched(&s);
}

static void test_old(void) {
  Sched s;
  if (open_sched(&s, "old", 8, NULL)) return;
  uint64_t ages[8] = {50, 51, 20, 21, 30, 31, 10, 11};
  WarpView v[8];
  uint32_t out[MAXW], n;
  make_views(v, 8, 8, ages);
  n = order(&s, 0, v, 8, 4, 1, out); /* the greedy warp gets no special place */
  CHECK_ORDER(out, n, 6, 2, 4, 0);
  n = order(&s, 1, v, 8, 1, 1, out);
  CHECK_ORDER(out, n, 7, 3, 5, 1);
  close_sched(&s);
}

/* 12 slots, 2 schedulers, groups of 2: scheduler 0's groups are {0,2} {4,6} {8,10}. */
static void set_long(WarpView *v, uint32_t a, uint32_t b, int on) {
  v[a].long_pending = v[b].long_pending = (uint8_t)on;
  v[a].wait = v[b].wait = on ? WARP_WAIT_SCOREBOARD : WARP_WAIT_NONE;
}

static void test_twolevel_lrr(void) {
  const char *sets[] = {"sched.two-level.group_size=2", NULL};
  Sched s;
  if (open_sched(&s, "two-level", 12, sets)) return;
  WarpView v[12];
  uint32_t out[MAXW], n;
  make_views(v, 12, 12, NULL);
  n = order(&s, 0, v, 12, -1, 1, out); /* group 0 first, then the others in order */
  CHECK_ORDER(out, n, 0, 2, 4, 6, 8, 10);
  n = order(&s, 0, v, 12, 0, 2, out); /* inner lrr: after the greedy warp, inside the group */
  CHECK_ORDER(out, n, 2, 0, 4, 6, 8, 10);
  v[0].long_pending = 1; /* one warp of the group stalled: the group keeps priority */
  v[0].wait = WARP_WAIT_SCOREBOARD;
  n = order(&s, 0, v, 12, 0, 3, out);
  CHECK_ORDER(out, n, 2, 0, 4, 6, 8, 10);
  set_long(v, 0, 2, 1); /* the whole group waits on memory: the next group takes over */
  n = order(&s, 0, v, 12, 2, 4, out);
  CHECK_ORDER(out, n, 4, 6, 8, 10, 0, 2);
  set_long(v, 0, 2, 0); /* group 0 could run again, but group 1 keeps priority */
  n = order(&s, 0, v, 12, 4, 5, out);
  CHECK_ORDER(out, n, 6, 4, 8, 10, 0, 2);
  set_long(v, 4, 6, 1); /* group 1 stalls: round-robin to group 2 (not back to 0) */
  n = order(&s, 0, v, 12, 6, 6, out);
  CHECK_ORDER(out, n, 8, 10, 0, 2, 4, 6);
  set_long(v, 8, 10, 1); /* group 2 stalls: group 0 is next and can run (inner lrr after 8 in group 2) */
  n = order(&s, 0, v, 12, 8, 7, out);
  CHECK_ORDER(out, n, 0, 2, 4, 6, 10, 8);
  /* the other scheduler has its own current group */
  n = order(&s, 1, v, 12, -1, 8, out);
  CHECK_ORDER(out, n, 1, 3, 5, 7, 9, 11);
  /* every group stalled: all warps still listed once */
  make_views(v, 12, 12, NULL);
  for (uint32_t i = 0; i < 12; i++) v[i].long_pending = 1;
  n = order(&s, 0, v, 12, -1, 9, out);
  CHECK(n == 6);
  close_sched(&s);
}

static void test_twolevel_strict(void) {
  const char *sets[] = {"sched.two-level.group_size=2", "sched.two-level.strict=true", NULL};
  Sched s;
  if (open_sched(&s, "two-level", 12, sets)) return;
  WarpView v[12];
  uint32_t out[MAXW], n;
  make_views(v, 12, 12, NULL);
  n = order(&s, 0, v, 12, -1, 1, out); /* only the current group may issue */
  CHECK_ORDER(out, n, 0, 2);
  set_long(v, 0, 2, 1);
  n = order(&s, 0, v, 12, 2, 2, out);
  CHECK_ORDER(out, n, 4, 6);
  n = order(&s, 1, v, 12, -1, 2, out);
  CHECK_ORDER(out, n, 1, 3);
  close_sched(&s);
}

/* A group whose warps all wait at a barrier cannot make progress either: the
 * barrier may need warps of another group. strict=true must move on, or the
 * SM deadlocks (pathfinder and backprop at tiny do, see t201). */
static void test_twolevel_strict_barrier(void) {
  const char *sets[] = {"sched.two-level.group_size=2", "sched.two-level.strict=true", NULL};
  Sched s;
  if (open_sched(&s, "two-level", 12, sets)) return;
  WarpView v[12];
  uint32_t out[MAXW], n;
  make_views(v, 12, 12, NULL);
  n = order(&s, 0, v, 12, -1, 1, out);
  CHECK_ORDER(out, n, 0, 2);
  v[0].wait = v[2].wait = WARP_WAIT_BARRIER; /* group 0 waits for warps 4..10 at a CTA barrier */
  n = order(&s, 0, v, 12, 2, 2, out);
  CHECK_ORDER(out, n, 4, 6);
  close_sched(&s);
}

static void test_twolevel_gto(void) {
  /* CCWS's 2LVL-GTO: groups of 2, gto inside and between groups */
  const char *sets[] = {"sched.two-level.group_size=2", "sched.two-level.inner=gto",
                        "sched.two-level.outer=gto", NULL};
  Sched s;
  if (open_sched(&s, "two-level", 12, sets)) return;
  /* scheduler 0: slot ages 0:40 2:41 | 4:10 6:11 | 8:30 10:5 */
  uint64_t ages[12] = {40, 0, 41, 0, 10, 0, 11, 0, 30, 0, 5, 0};
  WarpView v[12];
  uint32_t out[MAXW], n;
  make_views(v, 12, 12, ages);
  for (uint32_t i = 1; i < 12; i += 2) v[i].age = 100 + i;
  n = order(&s, 0, v, 12, -1, 1, out); /* starts at group 0; inside: oldest first; then oldest group first */
  CHECK_ORDER(out, n, 0, 2, 10, 8, 4, 6);
  n = order(&s, 0, v, 12, 2, 2, out); /* inner gto: greedy first */
  CHECK_ORDER(out, n, 2, 0, 10, 8, 4, 6);
  set_long(v, 0, 2, 1); /* group 0 stalls: outer gto picks the group of the oldest runnable warp (slot 10) */
  n = order(&s, 0, v, 12, 2, 3, out);
  CHECK(n == 6 && out[0] == 10 && out[1] == 8);
  set_long(v, 8, 10, 1); /* group 2 stalls: oldest runnable is slot 4 (group 1); greedy 10 leads group 2 */
  n = order(&s, 0, v, 12, 10, 4, out);
  CHECK_ORDER(out, n, 4, 6, 10, 8, 0, 2);
  close_sched(&s);
}

/* outer = gto orders the groups after the current one oldest first (by their
 * oldest warp), as its description says ("gto: oldest group first"); with
 * outer = lrr they follow round-robin from the current group. */
static void test_twolevel_outer_gto_order(void) {
  const char *sets[] = {"sched.two-level.group_size=2", "sched.two-level.inner=gto",
                        "sched.two-level.outer=gto", NULL};
  Sched s;
  if (open_sched(&s, "two-level", 12, sets)) return;
  /* scheduler 0: groups {0,2} ages 40,41 | {4,6} ages 10,11 | {8,10} ages 30,5 */
  uint64_t ages[12] = {40, 100, 41, 101, 10, 102, 11, 103, 30, 104, 5, 105};
  WarpView v[12];
  uint32_t out[MAXW], n;
  make_views(v, 12, 12, ages);
  n = order(&s, 0, v, 12, -1, 1, out); /* current group 0; then group 2 (oldest warp 5), group 1 (10) */
  CHECK_ORDER(out, n, 0, 2, 10, 8, 4, 6);
  set_long(v, 0, 2,
           1); /* group 0 stalls: current = group 2 (slot 10, age 5); then group 1 (10), group 0 (40) */
  n = order(&s, 0, v, 12, 2, 2, out);
  CHECK_ORDER(out, n, 10, 8, 4, 6, 2, 0);
  close_sched(&s);
}

/* mode = active, GPGPU-Sim's two_level_active: an active set of 2 per scheduler (slots 0 and 2 of
 * scheduler 0) and a FIFO of the rest (4 6 8 10); each tick moves the waiting active warps to the
 * FIFO's back and fills the set from its front, ready or not; inner lrr restarts after the warp
 * that issued; only the active set is listed. */
static void test_twolevel_active(void) {
  const char *sets[] = {"sched.two-level.mode=active", "sched.two-level.active_warps=2", NULL};
  WarpView v[12];
  make_views(v, 12, 12, NULL);
  open_views = v;
  Sched s;
  const int rc = open_sched(&s, "two-level", 12, sets);
  open_views = NULL;
  if (rc) return;
  uint32_t out[MAXW], n;
  s.p->tick(s.st, 1);
  n = order(&s, 0, v, 12, -1, 1, out);
  CHECK_ORDER(out, n, 0, 2);
  n = order(&s, 1, v, 12, -1, 1, out); /* the other scheduler's own set */
  CHECK_ORDER(out, n, 1, 3);
  SchedIssue is = {.cycle = 1};
  s.p->on_issue(s.st, &v[0], &is); /* lrr: after warp 0 */
  n = order(&s, 0, v, 12, 0, 2, out);
  CHECK_ORDER(out, n, 2, 0);
  set_long(v, 2, 2, 1); /* warp 2 waits on a load: out, warp 4 in */
  s.p->tick(s.st, 2);
  n = order(&s, 0, v, 12, 0, 2, out);
  CHECK_ORDER(out, n, 0, 4);
  v[0].wait = WARP_WAIT_BARRIER; /* a barrier demotes too: warp 6 in; FIFO 8 10 2 0 */
  s.p->tick(s.st, 3);
  n = order(&s, 0, v, 12, -1, 3, out);
  CHECK_ORDER(out, n, 4, 6);
  set_long(v, 4, 6, 1); /* 4 and 6 out; 8 and 10 in although 8 waits too */
  set_long(v, 8, 8, 1);
  s.p->tick(s.st, 4);
  n = order(&s, 0, v, 12, -1, 4, out);
  CHECK_ORDER(out, n, 8, 10);
  s.p->tick(s.st, 5); /* 8 out, 2 (still waiting) in: FIFO 0 4 6 8 */
  n = order(&s, 0, v, 12, -1, 5, out);
  CHECK_ORDER(out, n, 10, 2);
  v[10].valid = 0, v[10].wait = WARP_WAIT_EXITED; /* an exited warp is not listed, then leaves */
  n = order(&s, 0, v, 12, -1, 6, out);
  CHECK_ORDER(out, n, 2);
  s.p->tick(s.st, 6); /* 10 and 2 out; 0 (at the barrier) and 4 in */
  n = order(&s, 0, v, 12, -1, 6, out);
  CHECK_ORDER(out, n, 0, 4);
  close_sched(&s);
}

static void test_swl(void) {
  const char *sets[] = {"sched.swl.limit=3", NULL};
  Sched s;
  if (open_sched(&s, "swl", 8, sets)) return;
  uint64_t ages[8] = {50, 51, 20, 21, 30, 31, 10, 11}; /* SM-wide oldest: 6, 7, 2, 3, 4, 5, 0, 1 */
  WarpView v[8];
  uint32_t out[MAXW], n;
  make_views(v, 8, 8, ages);
  n = order(&s, 0, v, 8, -1, 1, out); /* allowed: 6, 7, 2 */
  CHECK_ORDER(out, n, 6, 2);
  n = order(&s, 1, v, 8, -1, 1, out);
  CHECK_ORDER(out, n, 7);
  n = order(&s, 0, v, 8, 2, 2, out); /* gto inside the allowed set: greedy first */
  CHECK_ORDER(out, n, 2, 6);
  n = order(&s, 0, v, 8, 4, 3, out); /* a greedy warp outside the limit stays out */
  CHECK_ORDER(out, n, 6, 2);
  v[7].wait = WARP_WAIT_BARRIER; /* barrier warps do not count: the next oldest (3) gets in */
  n = order(&s, 1, v, 8, -1, 4, out);
  CHECK_ORDER(out, n, 3);
  n = order(&s, 0, v, 8, -1, 4, out); /* allowed: 6, 2, 3 */
  CHECK_ORDER(out, n, 6, 2);
  v[7].wait = WARP_WAIT_NONE;
  v[6].valid = 0; /* finished warps do not count either */
  v[6].wait = WARP_WAIT_EXITED;
  n = order(&s, 0, v, 8, -1, 5, out); /* allowed: 7, 2, 3 */
  CHECK_ORDER(out, n, 2);
  n = order(&s, 1, v, 8, -1, 5, out);
  CHECK_ORDER(out, n, 7, 3);
  close_sched(&s);
  /* limit >= warps: plain gto */
  const char *all[] = {"sched.swl.limit=48", NULL};
  if (open_sched(&s, "swl", 8, all)) return;
  make_views(v, 8, 8, ages);
  n = order(&s, 0, v, 8, 4, 1, out);
  CHECK_ORDER(out, n, 4, 6, 2, 0);
  close_sched(&s);
}

static void test_registry(void) {
  CHECK(policy_find_warp("lrr") != NULL);
  CHECK(policy_find_warp("two-level") != NULL);
  CHECK(policy_find_warp("LRR") == NULL); /* exact names */
  CHECK(policy_find_warp("gto ") == NULL);
  CHECK(policy_find_warp("nosuch") == NULL);
  Config *cfg = cfg_create();
  CHECK(cfg_set(cfg, "sched.swl.limit=0") != 0); /* below its range */
  CHECK(cfg_set(cfg, "sched.two-level.inner=fifo") != 0);
  CHECK(cfg_set(cfg, "sched.two-level.inner=gto") == 0);
  cfg_free(cfg);
}

/* Random states: the list holds only the scheduler's own valid warps, each once;
 * non-limiting policies list all of them. */
static void check_random(const char *name, const char *const *sets, int complete, int stable) {
  enum { N = 48 };
  Sched s;
  if (open_sched(&s, name, N, sets)) return;
  uint64_t rng = 0x9E3779B97F4A7C15ull;
  int bad = 0;
  for (int iter = 0; iter < 2000 && !bad; iter++) {
    WarpView v[N];
    uint64_t ages[N];
    for (uint32_t i = 0; i < N; i++) ages[i] = i;
    for (uint32_t i = N - 1; i > 0; i--) { /* random permutation of ages */
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t j = (uint32_t)(rng >> 33) % (i + 1);
      uint64_t t = ages[i];
      ages[i] = ages[j];
      ages[j] = t;
    }
    make_views(v, N, N, ages);
    for (uint32_t i = 0; i < N; i++) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t r = (uint32_t)(rng >> 40);
      v[i].valid = (r & 7) != 0;
      v[i].wait = v[i].valid ? (uint8_t)((r >> 3) % WARP_WAIT_EXITED) : WARP_WAIT_EXITED;
      v[i].long_pending = (r >> 8) & 1;
    }
    for (uint32_t sched = 0; sched < NSCHED; sched++) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      int32_t greedy = (int32_t)((rng >> 35) % (N + 1)) - 1;
      if (greedy >= 0 && ((uint32_t)greedy % NSCHED != sched || !v[greedy].valid)) greedy = -1;
      uint32_t out[N + 1], seen[N] = {0}, own = 0;
      uint32_t n = order(&s, sched, v, N, greedy, (uint64_t)iter, out);
      for (uint32_t i = 0; i < N; i++) own += v[i].valid && i % NSCHED == sched;
      if (n > own) bad = 1;
      for (uint32_t i = 0; i < n && !bad; i++) {
        if (out[i] >= N || out[i] % NSCHED != sched || !v[out[i]].valid || seen[out[i]]++) bad = 1;
      }
      if (complete && n != own) bad = 1;
      if (stable && !bad) { /* the list the SM keeps (stable_order) must stand while valid, age, greedy do */
        WarpView v2[N];
        uint32_t out2[N + 1];
        for (uint32_t i = 0; i < N; i++) {
          rng = rng * 6364136223846793005ull + 1442695040888963407ull;
          const uint32_t r = (uint32_t)(rng >> 32);
          v2[i] = v[i];
          v2[i].wait = v2[i].valid ? (uint8_t)(r % WARP_WAIT_EXITED) : WARP_WAIT_EXITED;
          v2[i].long_pending = (r >> 4) & 1;
          v2[i].pc = r >> 8;
          v2[i].next_kind = (uint8_t)((r >> 12) % WINST__COUNT);
          v2[i].insts = r >> 3;
          v2[i].last_issue = r >> 5;
          v2[i].active_lanes = r;
          v2[i].sched_wait = r >> 20;
        }
        uint32_t n2 = order(&s, sched, v2, N, greedy, (uint64_t)iter * 7919 + 3, out2);
        for (uint32_t i = 0; i < n && n2 == n; i++) n2 = out2[i] == out[i] ? n2 : n2 + 1;
        if (n2 != n) {
          bad = 1;
          fprintf(stderr, "%s: stable_order: another list for the same warps and greedy\n", name);
        }
      }
      if (bad)
        fprintf(stderr, "%s: bad order at iteration %d scheduler %u (n %u of %u)\n", name, iter, sched, n,
                own);
    }
  }
  CHECK(!bad);
  close_sched(&s);
}

static void test_random_states(void) {
  /* every scheduler of the registry (a new one too) with its defaults: a
   * policy that says it lists all (lists_all) must */
  for (const PolicyEntry *e = policy_registry; e->name; e++)
    if (e->kind == POLICY_WARP) {
      const PolicyEngineHints *h = ((const WarpSchedPolicy *)e->impl)->hints;
      check_random(e->name, NULL, h && h->lists_all, h && h->stable_order);
    }
  check_random("lrr", NULL, 1, 1);
  check_random("gto", NULL, 1, 1);
  check_random("old", NULL, 1, 1);
  const char *tl[] = {"sched.two-level.group_size=4", NULL};
  check_random("two-level", tl, 1, 0);
  const char *tlg[] = {"sched.two-level.group_size=3", "sched.two-level.inner=gto",
                       "sched.two-level.outer=gto", NULL};
  check_random("two-level", tlg, 1, 0);
  const char *tls[] = {"sched.two-level.strict=true", NULL};
  check_random("two-level", tls, 0, 0);
  const char *swl[] = {"sched.swl.limit=5", NULL};
  check_random("swl", swl, 0, 0);
}

int main(void) {
  TEST_RUN(test_lrr);
  TEST_RUN(test_gto);
  TEST_RUN(test_old);
  TEST_RUN(test_twolevel_lrr);
  TEST_RUN(test_twolevel_strict);
  TEST_RUN(test_twolevel_strict_barrier);
  TEST_RUN(test_twolevel_gto);
  TEST_RUN(test_twolevel_outer_gto_order);
  TEST_RUN(test_twolevel_active);
  TEST_RUN(test_swl);
  TEST_RUN(test_registry);
  TEST_RUN(test_random_states);
  return TEST_DONE();
}
