/* t306_baws.c - BAWS (policy/warp/mwf.c: mwf-lrr, mwf-gto, CFF) and the barrier
 * statistics it is judged by. On hand-built warp states (3 CTAs of 4 warps,
 * slots 0-3, 4-7, 8-11): the warp priority table through arrive, release,
 * CTA exit and a new CTA in the slot; the paper's Figure 7 example order
 * (MWF(LRR)); ties by CTA id, then the base order (round-robin after the
 * CTA's last-issued warp, or that warp then oldest); the greedy warp first
 * only inside its own CTA; both schedulers of an SM read one table; CFF's
 * fetch choice is the first fetch-eligible warp of MWF's order (random
 * states), round-robin when no CTA waits. RTRU arithmetic on a hand-made
 * phase (barrier_phases_rtru_e6), and on the simulator: one CTA whose warps reach
 * the barrier at staggered times, its timeline's arrivals and release
 * giving the RTRU and wait cycles the SM reports. Benchmarks under
 * mwf-lrr / mwf-gto with CFF pass their checks and give identical
 * statistics with the engine's shortcuts off. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "common/test.h"
#include "common/timing.h"
#include "core/config.h"
#include "sim/config_schema.h"
#include "policy/registry.h"
#include "policy/observer/barrier_phases.h"

TEST_GLOBALS;

#define NSLOT 12
#define NCTA 4

typedef struct S {
  const WarpSchedPolicy *p;
  void *st;
  Config *cfg;
  uint32_t nsched;
} S;

static int open_s(S *s, const char *name, uint32_t nsched) {
  s->p = policy_find_warp(name);
  s->st = NULL;
  s->cfg = cfg_create();
  s->nsched = nsched;
  CHECK(s->p != NULL && s->cfg != NULL);
  if (!s->p || !s->cfg) return -1;
  char prefix[64], err[256] = "";
  snprintf(prefix, sizeof prefix, "sched.%s", name);
  WarpSchedEnv env = {
      .sm = 0, .nsched = nsched, .max_warps = NSLOT, .max_ctas = NCTA, .prefix = prefix, .cfg = s->cfg};
  if (s->p->init(&s->st, &env, err, sizeof err)) {
    fprintf(stderr, "init: %s\n", err);
    CHECK(0);
    return -1;
  }
  return 0;
}
static void close_s(S *s) {
  if (s->p && s->st) s->p->free(s->st);
  cfg_free(s->cfg);
}
static void ev(S *s, SchedEventKind k, uint32_t slot, uint32_t cta_slot, uint32_t cta_id) {
  SchedEvent e = {
      .kind = k, .slot = slot, .cta_slot = cta_slot, .cta_id = cta_id, .other_slot = -1, .nwarps = 4};
  s->p->on_event(s->st, &e);
}
/* Views of 3 CTAs (slots 0-2, ids ids[]) of 4 warps each, ages = slot unless given; CTA_LAUNCH events. */
static void setup(S *s, WarpView *v, const uint32_t ids[3], const uint64_t *ages) {
  memset(v, 0, sizeof(WarpView) * NSLOT);
  for (uint32_t w = 0; w < NSLOT; w++) {
    v[w].slot = w;
    v[w].valid = 1;
    v[w].cta_slot = w / 4;
    v[w].cta_id = ids[w / 4];
    v[w].warp_in_cta = w % 4;
    v[w].age = ages ? ages[w] : w;
  }
  for (uint32_t c = 0; c < 3; c++) ev(s, SCHED_EV_CTA_LAUNCH, c * 4, c, ids[c]);
}
static void arrive(S *s, const WarpView *v, uint32_t w) {
  ev(s, SCHED_EV_BARRIER_ARRIVE, w, v[w].cta_slot, v[w].cta_id);
}
static void issued(S *s, const WarpView *v, uint32_t w) {
  SchedIssue is = {.kind = WINST_ALU};
  s->p->on_issue(s->st, &v[w], &is);
}
static uint32_t order(S *s, uint32_t sched, const WarpView *v, int32_t greedy, uint32_t *out) {
  return s->p->order(s->st, sched, v, NSLOT, greedy, 1, out);
}
static double stat(S *s, const char *name) {
  PolicyStats *ps = policy_stats_create();
  policy_stats_begin_instance(ps);
  s->p->stats(s->st, ps);
  bool found = false;
  double r = policy_stats_total(ps, name, &found);
  CHECK(found);
  policy_stats_free(ps);
  return r;
}

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

/* The order without the warps waiting at a barrier (what the SM could issue). */
static uint32_t runnable(const WarpView *v, const uint32_t *in, uint32_t n, uint32_t *out) {
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; i++)
    if (v[in[i]].wait != WARP_WAIT_BARRIER) out[m++] = in[i];
  return m;
}

/* Figure 7 of the paper: TB0..TB2 with 1, 2 and 3 warps at the barrier; the last warp issued in
 * TB1 was w7 (it just arrived), in TB0 w0: MWF(LRR) issues w8, w4, w6, w1, w3, w0. */
static void test_paper_example(void) {
  S s;
  if (open_s(&s, "mwf-lrr", 1)) return;
  WarpView v[NSLOT];
  const uint32_t ids[3] = {0, 1, 2};
  setup(&s, v, ids, NULL);
  issued(&s, v, 0);
  issued(&s, v, 7);
  const uint32_t waiting[] = {2, 5, 7, 9, 10, 11};
  for (uint32_t i = 0; i < 6; i++) {
    arrive(&s, v, waiting[i]);
    v[waiting[i]].wait = WARP_WAIT_BARRIER;
  }
  uint32_t out[NSLOT], r[NSLOT], n = order(&s, 0, v, 7, out);
  CHECK_ORDER(out, n, 8, 9, 10, 11, 4, 5, 6, 7, 1, 2, 3, 0); /* every valid warp is listed */
  n = runnable(v, out, n, r);
  CHECK_ORDER(r, n, 8, 4, 6, 1, 3, 0);
  close_s(&s);
}

/* The warp priority table: arrivals count per CTA, a release or the CTA's exit clears it, a new
 * CTA in the slot starts at zero; ties by CTA id. */
static void test_priority_table(void) {
  S s;
  if (open_s(&s, "mwf-gto", 1)) return;
  WarpView v[NSLOT];
  const uint32_t ids[3] = {7, 3, 5}; /* CTA slot 1 has the smallest id */
  setup(&s, v, ids, NULL);
  uint32_t out[NSLOT], n = order(&s, 0, v, -1, out);
  CHECK_ORDER(out, n, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3); /* nobody waits: by CTA id */
  arrive(&s, v, 1);
  n = order(&s, 0, v, -1, out);
  CHECK_ORDER(out, n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11); /* slot 0: one waiting */
  arrive(&s, v, 9);
  n = order(&s, 0, v, -1, out);
  CHECK_ORDER(out, n, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7); /* 1 and 1: id 5 before id 7 */
  arrive(&s, v, 2);
  n = order(&s, 0, v, -1, out);
  CHECK_ORDER(out, n, 0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7); /* 2 beats 1 */
  ev(&s, SCHED_EV_BARRIER_RELEASE, 3, 0, 7);
  n = order(&s, 0, v, -1, out);
  CHECK_ORDER(out, n, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3); /* cleared: 1, 0 (id 3), 0 (id 7) */
  ev(&s, SCHED_EV_CTA_EXIT, UINT32_MAX, 2, 5);               /* the CTA with a waiting warp leaves */
  for (uint32_t w = 8; w < 12; w++) v[w].cta_id = 9;
  ev(&s, SCHED_EV_CTA_LAUNCH, 8, 2, 9); /* a new CTA (id 9) in slot 2 starts with none waiting */
  n = order(&s, 0, v, -1, out);
  CHECK_ORDER(out, n, 4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11);
  CHECK_EQ_U64(stat(&s, "wpt_arrivals"), 3);
  CHECK_EQ_U64(stat(&s, "wpt_releases"), 1);
  CHECK_EQ_U64(stat(&s, "issues_while_waiting"), 0);
  arrive(&s, v, 0);
  issued(&s, v, 0);
  CHECK_EQ_U64(stat(&s, "issues_while_waiting"), 1);
  close_s(&s);
}

/* Within a CTA: mwf-gto puts the CTA's last-issued warp first, then oldest (by age, not slot);
 * the scheduler's greedy warp is first only inside its own CTA, and when it has exited its CTA
 * goes oldest first. mwf-lrr rotates after the CTA's last-issued warp, by age. */
static void test_base_order_and_greedy(void) {
  S s;
  if (open_s(&s, "mwf-gto", 1)) return;
  WarpView v[NSLOT];
  const uint32_t ids[3] = {0, 1, 2};
  const uint64_t ages[NSLOT] = {3, 2, 1,  0,  7, 6,
                                5, 4, 11, 10, 9, 8}; /* in each CTA the last slot is oldest */
  setup(&s, v, ids, ages);
  uint32_t out[NSLOT], n;
  issued(&s, v, 5);
  n = order(&s, 0, v, 5, out); /* greedy 5 stays in CTA 1's place */
  CHECK_ORDER(out, n, 3, 2, 1, 0, 5, 7, 6, 4, 11, 10, 9, 8);
  arrive(&s, v, 8);
  n = order(&s, 0, v, 5, out);
  CHECK_ORDER(out, n, 11, 10, 9, 8, 3, 2, 1, 0, 5, 7, 6, 4);
  issued(&s, v, 9); /* CTA 2's last-issued warp */
  n = order(&s, 0, v, 9, out);
  CHECK_ORDER(out, n, 9, 11, 10, 8, 3, 2, 1, 0, 5, 7, 6, 4);
  v[5].valid = 0; /* the greedy warp of CTA 1 exits */
  n = order(&s, 0, v, -1, out);
  CHECK_ORDER(out, n, 9, 11, 10, 8, 3, 2, 1, 0, 7, 6, 4);
  close_s(&s);

  if (open_s(&s, "mwf-lrr", 1)) return;
  setup(&s, v, ids, ages);
  n = order(&s, 0, v, -1, out); /* nothing issued yet: oldest first in each CTA */
  CHECK_ORDER(out, n, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8);
  issued(&s, v, 6); /* age 5: round-robin goes on with ages 6, 7, then wraps to 4, 5 */
  issued(&s, v, 10);
  n = order(&s, 0, v, 6, out);
  CHECK_ORDER(out, n, 3, 2, 1, 0, 5, 4, 7, 6, 9, 8, 11, 10);
  v[5].valid = 0; /* the next one exited: the rotation skips it */
  n = order(&s, 0, v, 6, out);
  CHECK_ORDER(out, n, 3, 2, 1, 0, 4, 7, 6, 9, 8, 11, 10);
  close_s(&s);
}

/* Two schedulers (even / odd slots) read one table: an arrival in CTA 2 moves CTA 2 first in both. */
static void test_two_schedulers_share_the_table(void) {
  S s;
  if (open_s(&s, "mwf-lrr", 2)) return;
  WarpView v[NSLOT];
  const uint32_t ids[3] = {0, 1, 2};
  setup(&s, v, ids, NULL);
  uint32_t out[NSLOT], n;
  arrive(&s, v, 11);
  n = order(&s, 0, v, -1, out);
  CHECK_ORDER(out, n, 8, 10, 0, 2, 4, 6);
  n = order(&s, 1, v, -1, out);
  CHECK_ORDER(out, n, 9, 11, 1, 3, 5, 7);
  issued(&s, v, 9); /* per scheduler and CTA: scheduler 1 rotates in CTA 2, scheduler 0 does not */
  n = order(&s, 1, v, -1, out);
  CHECK_ORDER(out, n, 11, 9, 1, 3, 5, 7);
  n = order(&s, 0, v, -1, out);
  CHECK_ORDER(out, n, 8, 10, 0, 2, 4, 6);
  close_s(&s);
}

static uint32_t rng_state = 12345;
static uint32_t rnd(uint32_t n) {
  rng_state = rng_state * 1103515245u + 12345u;
  return (rng_state >> 16) % n;
}

/* CFF: with one scheduler, the fetch choice is the first fetch-eligible warp of MWF's order, on
 * random tables, last-issued warps and eligible sets; with two, the first eligible warp of one of
 * the two orders; with no CTA waiting, round-robin after the last fetched slot. */
static void test_cff_matches_mwf(void) {
  const char *names[2] = {"mwf-lrr", "mwf-gto"};
  for (uint32_t pi = 0; pi < 2; pi++)
    for (uint32_t nsched = 1; nsched <= 2; nsched++) {
      S s;
      if (open_s(&s, names[pi], nsched)) return;
      WarpView v[NSLOT];
      const uint32_t ids[3] = {4, 2, 6};
      uint64_t ages[NSLOT];
      for (uint32_t w = 0; w < NSLOT; w++) ages[w] = 100 + w * 7 % NSLOT;
      setup(&s, v, ids, ages);
      uint32_t mism = 0, checked = 0, waits[3] = {0};
      for (uint32_t it = 0; it < 400; it++) {
        uint32_t k = rnd(4), w = rnd(NSLOT);
        if (k == 0)
          ev(&s, SCHED_EV_BARRIER_RELEASE, w, v[w].cta_slot, v[w].cta_id), waits[w / 4] = 0;
        else if (k == 1)
          arrive(&s, v, w), waits[w / 4]++;
        else
          issued(&s, v, w);
        if (!waits[0] && !waits[1] && !waits[2]) continue; /* round-robin then (below) */
        uint32_t elig[NSLOT], ne = 0;
        for (uint32_t w = 0; w < NSLOT; w++)
          if (rnd(3) == 0) elig[ne++] = w;
        if (!ne) continue;
        uint32_t pick = s.p->fetch_select(s.st, v, elig, ne, rnd(NSLOT), it);
        uint32_t firsts[2] = {UINT32_MAX, UINT32_MAX};
        for (uint32_t q = 0; q < nsched; q++) {
          uint32_t out[NSLOT], n = order(&s, q, v, -1, out);
          for (uint32_t i = 0; i < n && firsts[q] == UINT32_MAX; i++)
            for (uint32_t j = 0; j < ne; j++)
              if (elig[j] == out[i]) firsts[q] = out[i];
        }
        mism += pick != firsts[0] && pick != firsts[1];
        checked++;
      }
      CHECK_EQ_U64(mism, 0);
      CHECK(checked > 100);
      close_s(&s);
    }
  /* nobody waits: round-robin after `last` */
  S s;
  if (open_s(&s, "mwf-gto", 2)) return;
  WarpView v[NSLOT];
  const uint32_t ids[3] = {0, 1, 2};
  setup(&s, v, ids, NULL);
  const uint32_t elig[] = {1, 4, 9};
  CHECK_EQ_U64(s.p->fetch_select(s.st, v, elig, 3, 4, 0), 9);
  CHECK_EQ_U64(s.p->fetch_select(s.st, v, elig, 3, 9, 0), 1);
  arrive(&s, v, 4); /* CTA 1 waits: its warp 4 is critical */
  CHECK_EQ_U64(s.p->fetch_select(s.st, v, elig, 3, 4, 0), 4);
  close_s(&s);
}

/* RTRU of a hand-made phase: 4 warps arrive 10, 20, 30, 40 cycles into a 40-cycle phase:
 * sum(maxT - T_i) = 30 + 20 + 10 + 0 = 60 warp-cycles waited, RTRU = 60 / (4 * 40) = 0.375. */
static void test_rtru_arithmetic(void) {
  CHECK_EQ_U64(barrier_phases_rtru_e6(60, 4, 40), 375000);
  CHECK_EQ_U64(barrier_phases_rtru_e6(0, 4, 40), 0);           /* balanced */
  CHECK_EQ_U64(barrier_phases_rtru_e6(3 * 99, 4, 99), 750000); /* one warp did all the work */
  CHECK_EQ_U64(barrier_phases_rtru_e6(1, 3, 0), 0);            /* empty phase */
  CHECK_EQ_U64(barrier_phases_rtru_e6(1, 3, 1), 333333);       /* rounded to millionths */
}

/* One CTA of 4 warps; warp w spins 40 * w iterations, then bar.sync, then exits. */
static const char spin_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry spin(.param .u32 delay)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n  ld.param.u32 %r4, [delay];\n"
    "  mul.lo.u32 %r5, %r4, %r2;\n  setp.eq.u32 %p1, %r5, 0;\n  @%p1 bra $L_bar;\n"
    "$L_spin:\n  add.u32 %r5, %r5, -1;\n  setp.ne.u32 %p2, %r5, 0;\n  @%p2 bra $L_spin;\n"
    "$L_bar:\n  bar.sync 0;\n  ret;\n}\n"
    "//@warpsim regs spin 8\n";

static double json_num(const char *j, const char *key) {
  char pat[80];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = j ? strstr(j, pat) : NULL;
  CHECK(p != NULL);
  return p ? strtod(p + strlen(pat), NULL) : -1;
}

/* The SM's RTRU and wait cycles equal those of the timeline's events (each warp's arrival cycle:
 * one CTA on one SM, so a warp's slot is its index in the CTA; one event per line). */
static void test_rtru_on_the_simulator(void) {
  const char *sets[] = {"sm.count=1", "sched.policy=gto", "timeline.counter_window=0", NULL};
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return;
  }
  WsModule *mod;
  WsFunction *fn;
  char *json = NULL, *text = NULL, err[256];
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CHECK(f && gpu_timeline_start(t.gpu, f, err, sizeof err) == 0);
  uint32_t delay = 40;
  if (!test_gpu_load(&t, &mod, &fn, spin_ptx, "spin")) {
    void *params[] = {&delay};
    CHECK(ws_launch_kernel(fn, 1, 1, 1, 128, 1, 1, 0, params) == WS_SUCCESS);
  } else {
    CHECK(0);
  }
  CHECK(gpu_timeline_finish(t.gpu) == 0);
  if (f) fclose(f);
  json = test_gpu_json(&t);
  test_gpu_close(&t);
  uint64_t launch = UINT64_MAX, arr[4] = {0}, rel = 0, ret[4] = {0}, cexit = 0;
  uint32_t narr = 0, nrel = 0;
  for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    unsigned long long ts, dur;
    unsigned pid, tid;
    char name[32];
    if (sscanf(line, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"name\":\"%31[^\"]", &pid,
               &tid, &ts, name) == 4) {
      int w = tid < 4 ? (int)tid : -1;
      CHECK(pid == 1);
      if (!strcmp(name, "warp launch") && ts < launch) launch = ts;
      if (!strcmp(name, "barrier arrive") && w >= 0) arr[w] = ts, narr++;
      if (!strcmp(name, "barrier release")) rel = ts, nrel++;
      if (!strcmp(name, "warp exit") && w >= 0) ret[w] = ts;
    } else if (sscanf(line,
                      "{\"ph\":\"X\",\"pid\":1,\"tid\":100000,\"ts\":%llu,\"dur\":%llu,\"name\":\"CTA 0\"",
                      &ts, &dur) == 2) {
      cexit = ts + dur;
    }
  }
  free(text);
  CHECK(cexit > 0);
  CHECK_EQ_U64(narr, 4);
  CHECK_EQ_U64(nrel, 1);
  CHECK(arr[0] < arr[1] && arr[1] < arr[2] && arr[2] < arr[3] &&
        arr[3] == rel); /* staggered; the last releases */
  uint64_t wait = 0, exitw = 0, maxt = rel - launch;
  for (int w = 0; w < 4; w++) wait += rel - arr[w], exitw += cexit - ret[w];
  CHECK_EQ_U64((uint64_t)json_num(json, "barrier_wait_cycles"), wait);
  CHECK_EQ_U64((uint64_t)json_num(json, "exit_wait_cycles"), exitw);
  CHECK_EQ_U64((uint64_t)json_num(json, "barrier_phases"), 1);
  double want = (double)wait / (4.0 * (double)maxt);
  double got = json_num(json, "rtru_barrier_phase");
  CHECK(got > 0.2 && got < 0.8);
  CHECK_EQ_U64((uint64_t)(got * 1e6 + 0.5), barrier_phases_rtru_e6(wait, 4, maxt));
  CHECK((uint64_t)(want * 1e6 + 0.5) == barrier_phases_rtru_e6(wait, 4, maxt));
  free(json);
}

/* Benchmarks pass under MWF (+CFF), identical with the shortcuts off, and differ from the base. */
static void test_benchmarks_exact(void) {
  const char *names[] = {"fwt", "btree", "histo", NULL};
  const char *lrr_on[] = {"sched.policy=mwf-lrr", "sm.fetch_policy=sched", NULL};
  const char *lrr_off[] = {"sched.policy=mwf-lrr", "sm.fetch_policy=sched", "sm.skip_idle_cycles=false",
                           NULL};
  const char *gto_on[] = {"sched.policy=mwf-gto", NULL};
  const char *gto_off[] = {"sched.policy=mwf-gto", "sm.skip_idle_cycles=false", NULL};
  const char *base[] = {"sched.policy=gto", NULL};
  uint64_t c[5] = {0};
  char *j[5] = {test_run_benches(NULL, lrr_on, names, &c[0]), test_run_benches(NULL, lrr_off, names, &c[1]),
                test_run_benches(NULL, gto_on, names, &c[2]), test_run_benches(NULL, gto_off, names, &c[3]),
                test_run_benches(NULL, base, names, &c[4])};
  for (int i = 0; i < 5; i++) CHECK(j[i] != NULL);
  CHECK_EQ_U64(c[0], c[1]);
  CHECK_EQ_U64(c[2], c[3]);
  CHECK(c[2] != c[4]);
  CHECK(j[0] && j[1] && !strcmp(j[0], j[1]));
  CHECK(j[2] && j[3] && !strcmp(j[2], j[3]));
  CHECK(json_num(j[0], "issues_while_waiting") > 0);
  for (int i = 0; i < 5; i++) free(j[i]);
}

int main(void) {
  TEST_RUN(test_paper_example);
  TEST_RUN(test_priority_table);
  TEST_RUN(test_base_order_and_greedy);
  TEST_RUN(test_two_schedulers_share_the_table);
  TEST_RUN(test_cff_matches_mwf);
  TEST_RUN(test_rtru_arithmetic);
  TEST_RUN(test_rtru_on_the_simulator);
  TEST_RUN(test_benchmarks_exact);
  return TEST_DONE();
}
