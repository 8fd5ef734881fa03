/* t207_timeline.c - the per-warp timeline recorder (src/sm/timeline.c) on a hand-built scenario:
 * one SM, one CTA of two warps running the same loop, under a scheduler registered here that
 * refuses warp 1 (the only warp of scheduler 1) until cycle HOLD. Checked, with no merging:
 * warp 1's throttled intervals end exactly at HOLD and add up to the run's gpu.sched_stall_cycles.policy
 * (scheduler 1 stalls for the policy exactly while warp 1 is throttled), warp 0 is never
 * throttled, each warp's issue counts add up to its instructions, the policy's counter track
 * (gauges) steps from 1 to 0 at the first window after HOLD, the same intervals with
 * sm.skip_idle_cycles=false, a cycle window clips the intervals exactly, the timeline.*
 * keys' errors name the key, and the finished intervals add up to gpu.exit_wait_cycles also when
 * a finished warp's slot is taken by a new CTA's warp while its own CTA is still resident. */
#include <stdlib.h>
#include <string.h>

#include "common/test.h"
#include "common/timing.h"
#include "policy/registry.h"
#include "sm/timeline.h"

TEST_GLOBALS;

enum { HOLD = 3000, ITERS = 400 };

static const char loop_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry loop(.param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n"
    "  ld.param.u32 %r1, [n];\n  mov.u32 %r2, 0;\n"
    "$L:\n  add.u32 %r2, %r2, 3;\n  add.u32 %r1, %r1, -1;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra $L;\n"
    "  ret;\n}\n"
    "//@warpsim regs loop 8\n";

/* ---- the holding scheduler: oldest first; warp 1 of each CTA may not issue before HOLD ---- */
typedef struct Hold {
  uint32_t nsched;
  uint64_t now;
} Hold;
static int hold_init(void **st, const WarpSchedEnv *env, char *err, size_t errlen) {
  Hold *h = calloc(1, sizeof *h);
  if (!h) return snprintf(err, errlen, "out of memory"), -1;
  h->nsched = env->nsched;
  *st = h;
  return 0;
}
static void hold_free(void *st) { free(st); }
static uint32_t hold_order(void *st, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                           uint64_t cycle, uint32_t *out) {
  return sched_collect_by_age(v, nslots, sched, ((Hold *)st)->nsched, out);
}
static void hold_tick(void *st, uint64_t cycle) { ((Hold *)st)->now = cycle; }
static bool hold_can_issue(void *st, const WarpView *v, WarpInstKind kind) {
  return v->warp_in_cta != 1 || ((Hold *)st)->now >= HOLD;
}
static void hold_gauges(void *st, uint64_t cycle, PolicyGauges *out) {
  policy_gauge(out, "held", ((Hold *)st)->now < HOLD);
}
static const WarpSchedPolicy hold_policy = {.name = "t207-hold",
                                            .init = hold_init,
                                            .free = hold_free,
                                            .order = hold_order,
                                            .tick = hold_tick,
                                            .can_issue = hold_can_issue,
                                            .gauges = hold_gauges};

/* ---- running and reading the trace ---- */
typedef struct Trace {
  char *text;
  char *stats;
} Trace;

static Trace run(const char *const *extra) {
  const char *sets[16] = {"sched.policy=t207-hold", "sm.count=1", "timeline.merge_cycles=0",
                          "timeline.counter_window=1000"};
  int n = 4;
  for (int i = 0; extra && extra[i]; i++) sets[n++] = extra[i];
  sets[n] = NULL;
  Trace tr = {0};
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return tr;
  }
  size_t len = 0;
  FILE *f = open_memstream(&tr.text, &len);
  char err[256];
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  CHECK(f && gpu_timeline_start(t.gpu, f, err, sizeof err) == 0);
  if (!test_gpu_load(&t, &mod, &fn, loop_ptx, "loop")) {
    uint32_t iters = ITERS;
    void *params[] = {&iters};
    CHECK(ws_launch_kernel(fn, 1, 1, 1, 64, 1, 1, 0, params) == WS_SUCCESS);
  } else {
    CHECK(0);
  }
  CHECK(gpu_timeline_finish(t.gpu) == 0);
  fclose(f);
  tr.stats = test_gpu_json(&t);
  test_gpu_close(&t);
  return tr;
}

typedef struct Ivl {
  unsigned pid, tid;
  unsigned long long ts, dur, n;
  char name[64];
} Ivl;

/* The X events of the trace (one per line as the recorder writes them). */
static int intervals(const char *text, Ivl *out, int max) {
  int k = 0;
  for (const char *p = text; p && *p && k < max; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
    Ivl v = {0};
    if (sscanf(p, "{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"dur\":%llu,\"name\":\"%63[^\"]\"",
               &v.pid, &v.tid, &v.ts, &v.dur, v.name) != 5)
      continue;
    const char *nl = strchr(p, '\n'), *a = strstr(p, "\"n\":");
    if (a && (!nl || a < nl)) v.n = strtoull(a + 4, NULL, 10);
    out[k++] = v;
  }
  return k;
}

enum { MAXI = 200000 };
static Ivl iv[MAXI];

static void test_throttled_matches_policy_stalls(void) {
  Trace tr = run(NULL);
  CHECK(tr.text && tr.stats);
  if (!tr.text || !tr.stats) return;
  int n = intervals(tr.text, iv, MAXI);
  unsigned long long thr = 0, last_end = 0, issues[2] = {0, 0};
  int thr0 = 0;
  for (int i = 0; i < n; i++) {
    if (iv[i].pid != 1 || iv[i].tid > 1) continue;
    issues[iv[i].tid] += iv[i].n;
    if (strcmp(iv[i].name, "throttled")) continue;
    if (iv[i].tid == 0)
      thr0++;
    else
      thr += iv[i].dur, last_end = iv[i].ts + iv[i].dur > last_end ? iv[i].ts + iv[i].dur : last_end;
  }
  CHECK(thr0 == 0);
  CHECK_EQ_U64(last_end, HOLD);
  CHECK_EQ_U64(thr, test_json_u64(tr.stats, "\"sched_stall_cycles\"", "policy"));
  CHECK(thr > HOLD / 2);
  /* each warp: its exit event's instruction count (the SM's) = its issue intervals' n; the loop is
   * the same for both */
  CHECK(issues[0] == issues[1] && issues[0] > 4 * ITERS);
  char want[64];
  snprintf(want, sizeof want, "\"name\":\"warp exit\",\"args\":{\"insts\":%llu}", issues[0]);
  CHECK(strstr(tr.text, want) != NULL);
  CHECK_EQ_U64(issues[0] + issues[1], test_json_u64(tr.stats, NULL, "warp_insts"));
  /* the policy's counter track: held until the first window after HOLD */
  CHECK(strstr(tr.text, "\"ts\":0,\"name\":\"t207-hold: held\",\"args\":{\"value\":1}") != NULL);
  CHECK(strstr(tr.text, "\"ts\":3000,\"name\":\"t207-hold: held\",\"args\":{\"value\":0}") != NULL);
  /* the same intervals when every cycle is simulated */
  const char *noskip[] = {"sm.skip_idle_cycles=false", NULL};
  Trace t2 = run(noskip);
  static Ivl iv2[MAXI];
  int n2 = t2.text ? intervals(t2.text, iv2, MAXI) : -1;
  CHECK(n2 == n);
  int same = n2 == n;
  for (int i = 0; same && i < n; i++) same = !memcmp(&iv[i], &iv2[i], sizeof iv[i]);
  CHECK(same);
  free(t2.text), free(t2.stats), free(tr.text), free(tr.stats);
}

static void test_window_clips(void) {
  const char *sets[] = {"timeline.cycles=1000:2000", NULL};
  Trace tr = run(sets);
  CHECK(tr.text != NULL);
  if (!tr.text) return;
  int n = intervals(tr.text, iv, MAXI), thr = 0;
  for (int i = 0; i < n; i++) {
    CHECK(iv[i].ts >= 1000 && iv[i].ts + iv[i].dur <= 2000);
    if (iv[i].tid == 1 && !strcmp(iv[i].name, "throttled")) thr++;
  }
  /* warp 1 is throttled through the whole window: one interval, clipped at both ends */
  CHECK(thr == 1);
  CHECK(strstr(tr.text, "\"tid\":1,\"ts\":1000,\"dur\":1000,\"name\":\"throttled\"") != NULL);
  free(tr.text), free(tr.stats);
}

static void test_config_errors(void) {
  static const struct {
    const char *set, *msg;
  } bad[] = {
      {"timeline.cycles=5:3", "timeline.cycles: bad cycle window '5:3'"},
      {"timeline.cycles=12", "bad cycle window '12'"},
      {"timeline.cycles=1:x", "bad cycle window"},
      {"timeline.sms=0,99", "timeline.sms: SM list '0,99' names an SM beyond the last (15 SMs)"},
      {"timeline.sms=2-1", "bad SM list '2-1'"},
      {"timeline.sms=1,", "bad SM list"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    Config *c = cfg_create();
    CHECK(cfg_load_file(c, "configs/gtx480.cfg") == 0 && cfg_set(c, bad[i].set) == 0);
    char err[512] = "";
    CHECK(tl_check_config(c, 15, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, bad[i].msg);
    cfg_free(c);
  }
  static const char *const good[] = {"timeline.cycles=all", "timeline.cycles=10:", "timeline.cycles=:10",
                                     "timeline.sms=0,3,5-7", "timeline.sms=14"};
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    Config *c = cfg_create();
    char err[512] = "";
    CHECK(cfg_load_file(c, "configs/gtx480.cfg") == 0 && cfg_set(c, good[i]) == 0);
    CHECK(tl_check_config(c, 15, err, sizeof err) == 0);
    cfg_free(c);
  }
}

/* Warp 0 of each 512-thread CTA loops (4 times longer in even CTAs), its 15 other warps exit at
 * once. The SM admits a CTA by its count of resident CTAs' warps (48) and places its warps in the
 * first free slots: when an odd CTA exits, the next CTA's warps take the slots of an even CTA's
 * finished warps while that CTA (held by its warp 0) is still resident. */
static const char lag_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry lag(.param .u32 n)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n"
    "  mov.u32 %r3, %tid.x;\n  setp.ge.u32 %p2, %r3, 32;\n  @%p2 bra $D;\n"
    "  ld.param.u32 %r1, [n];\n  mov.u32 %r2, 0;\n"
    "  mov.u32 %r4, %ctaid.x;\n  and.b32 %r4, %r4, 1;\n  setp.eq.u32 %p2, %r4, 0;\n"
    "  @%p2 shl.b32 %r1, %r1, 2;\n"
    "$L:\n  add.u32 %r2, %r2, 3;\n  add.u32 %r1, %r1, -1;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra $L;\n"
    "$D:\n  ret;\n}\n"
    "//@warpsim regs lag 8\n";

static void test_finished_slot_reuse(void) {
  const char *sets[] = {"sm.count=1", "timeline.merge_cycles=0", "sched.policy=lrr", NULL};
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return;
  }
  char *text = NULL, err[256];
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  CHECK(f && gpu_timeline_start(t.gpu, f, err, sizeof err) == 0);
  if (!test_gpu_load(&t, &mod, &fn, lag_ptx, "lag")) {
    uint32_t iters = 300;
    void *params[] = {&iters};
    CHECK(ws_launch_kernel(fn, 8, 1, 1, 512, 1, 1, 0, params) == WS_SUCCESS);
  } else {
    CHECK(0);
  }
  CHECK(gpu_timeline_finish(t.gpu) == 0);
  fclose(f);
  char *stats = test_gpu_json(&t);
  test_gpu_close(&t);
  CHECK(text && stats);
  if (text && stats) {
    int n = intervals(text, iv, MAXI);
    unsigned long long fin = 0, moved = 0;
    for (int i = 0; i < n; i++)
      if (!strcmp(iv[i].name, "finished")) fin += iv[i].dur, moved += iv[i].tid >= 100000 ? iv[i].dur : 0;
    CHECK_EQ_U64(fin, test_json_u64(stats, NULL, "exit_wait_cycles"));
    CHECK(moved > 0); /* the scenario happened: some finished warp's slot was taken */
  }
  free(text), free(stats);
}

int main(void) {
  CHECK(policy_register(POLICY_WARP, hold_policy.name, &hold_policy) == 0);
  TEST_RUN(test_throttled_matches_policy_stalls);
  TEST_RUN(test_window_clips);
  TEST_RUN(test_config_errors);
  TEST_RUN(test_finished_slot_reuse);
  return TEST_DONE();
}
