/* t303_policy_hooks.c - the policy interfaces on small hand-built scenarios
 * (one SM, a 1-set L1D, 2-4 warps of a hand-written kernel), through plugins
 * registered at run time: an observer recording every event, issue and
 * annotation; a cache policy recording the hints its hooks see; a scheduler
 * choosing fetches. Checked: an L1D eviction names its victim (the warp that
 * allocated the line, or none once that warp has exited) and its interferer;
 * merges and bypasses are not misses; a reservation failure is reported once
 * per request; a line request's events carry its lanes; hints and classes
 * an SM-side plugin writes reach the cache policy; CTA events carry the real slot and id and come after their
 * warps' views; kernel events carry name and launch index; observers run beside a scheduler without changing
 * it; shared blocks are one per GPU; policy statistics reach the JSON; on_issue sees branch outcomes; the
 * scheduler can choose fetches (sm.fetch_policy=sched); a ready warp that loses its unit to the other
 * scheduler is an other_sched stall, not a policy one; an observer with an events mask gets only its
 * kinds, a barrier release names the warps it frees, a hit the warp that allocated its line. */
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"
#include "mem/memsys.h"
#include "policy/registry.h"

TEST_GLOBALS;

/* Warp w of each CTA: spins w * delay iterations, loads one word at
 * buf + w * stride (all lanes the same line), then (if bar != 0) waits at a
 * barrier for the other warps. */
static const char hk_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry hk(.param .u64 buf, .param .u32 stride, .param .u32 delay, .param .u32 bar)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n"
    "  ld.param.u64 %rd1, [buf];\n  ld.param.u32 %r3, [stride];\n  ld.param.u32 %r4, [delay];\n"
    "  ld.param.u32 %r9, [bar];\n"
    "  mul.lo.u32 %r5, %r4, %r2;\n  setp.eq.u32 %p1, %r5, 0;\n  @%p1 bra $L_load;\n"
    "$L_spin:\n  add.u32 %r5, %r5, -1;\n  setp.ne.u32 %p2, %r5, 0;\n  @%p2 bra $L_spin;\n"
    "$L_load:\n  mul.lo.u32 %r6, %r3, %r2;\n  cvt.u64.u32 %rd2, %r6;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r7, [%rd3];\n"
    "  setp.eq.u32 %p3, %r9, 0;\n  @%p3 bra $L_end;\n  bar.sync 0;\n"
    "$L_end:\n  ret;\n}\n"
    /* shared-memory loads back to back (LD/ST unit contention between the schedulers) */
    ".visible .entry sh(.param .u64 out)\n{\n"
    "  .reg .b32 %r<16>;\n  .reg .b64 %rd<4>;\n  .shared .align 4 .b8 s[256];\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 31;\n  shl.b32 %r3, %r2, 2;\n  mov.u32 %r4, s;\n  add.u32 "
    "%r5, %r4, %r3;\n"
    "  st.shared.u32 [%r5], %r1;\n  bar.sync 0;\n"
    "  ld.shared.u32 %r6, [%r5];\n  ld.shared.u32 %r7, [%r5];\n  ld.shared.u32 %r8, [%r5];\n  ld.shared.u32 "
    "%r9, [%r5];\n"
    "  ld.shared.u32 %r10, [%r5];\n  ld.shared.u32 %r11, [%r5];\n  ld.shared.u32 %r12, [%r5];\n  "
    "ld.shared.u32 %r13, [%r5];\n"
    "  ret;\n}\n"
    /* lane l loads buf + 8 l (not lane 5), then stores to buf + 1024 + 4 l: lanes per line */
    ".visible .entry ln(.param .u64 buf, .param .u32 stride, .param .u32 delay, .param .u32 bar)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  and.b32 %r2, %r1, 31;\n  ld.param.u64 %rd1, [buf];\n"
    "  shl.b32 %r3, %r2, 3;\n  cvt.u64.u32 %rd2, %r3;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  setp.ne.u32 %p1, %r2, 5;\n  mov.u32 %r4, 0;\n  @%p1 ld.global.u32 %r4, [%rd3];\n"
    "  shl.b32 %r5, %r2, 2;\n  cvt.u64.u32 %rd4, %r5;\n  add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.u32 [%rd5+1024], %r4;\n  ret;\n}\n"
    "//@warpsim regs hk 16\n//@warpsim regs sh 16\n//@warpsim regs ln 8\n";

/* ---- the recording observer ---- */
enum { MAXEV = 4096 };
typedef struct Rec {
  SchedEvent ev; /* ev.kernel is valid only during the call: what the test reads of it is copied */
  char kname[16];
  uint32_t launch_index, warps_per_cta;
  uint64_t ctas_total;
} Rec;
static Rec events[MAXEV];
static uint32_t nevents;
typedef struct Issue {
  uint32_t slot, pc, next_pc, lanes;
  uint8_t kind, taken;
} Issue;
static Issue issues[MAXEV];
static uint32_t nissues;
/* what the annotate hook does: per warp_in_cta, hints to OR in and a class (0xFF: leave) */
static uint8_t annot_hints[4], annot_class[4] = {0xFF, 0xFF, 0xFF, 0xFF};
static void *obs_shared, *cache_shared; /* policy_shared("t303") as each plugin saw it */
static uint64_t obs_instances;

typedef struct Obs {
  uint32_t sm;
  uint64_t events, loads;
} Obs;
static int obs_init(void **st, const WarpSchedEnv *env, char *err, size_t errlen) {
  Obs *o = calloc(1, sizeof *o);
  if (!o) return snprintf(err, errlen, "out of memory"), -1;
  o->sm = env->sm;
  void *b = policy_shared(env->gpu, "t303", 64, NULL);
  if (obs_shared && b != obs_shared)
    obs_shared = (void *)1; /* two SMs, two blocks: wrong */
  else
    obs_shared = b;
  obs_instances++;
  *st = o;
  return 0;
}
static void obs_free(void *st) { free(st); }
static void obs_event(void *st, const SchedEvent *ev) {
  ((Obs *)st)->events++;
  if (nevents == MAXEV) return;
  Rec *r = &events[nevents++];
  r->ev = *ev;
  snprintf(r->kname, sizeof r->kname, "%s", ev->kernel && ev->kernel->name ? ev->kernel->name : "");
  r->launch_index = ev->kernel ? ev->kernel->launch_index : UINT32_MAX;
  r->warps_per_cta = ev->kernel ? ev->kernel->warps_per_cta : 0;
  r->ctas_total = ev->kernel ? ev->kernel->ctas_total : 0;
}
static void obs_issue(void *st, const WarpView *v, const SchedIssue *is) {
  if (nissues < MAXEV)
    issues[nissues++] = (Issue){v->slot, is->pc, is->next_pc, is->active_lanes, is->kind, is->taken};
}
static void obs_annotate(void *st, const WarpView *v, SchedMemAnnot *m) {
  ((Obs *)st)->loads++;
  uint32_t w = v->warp_in_cta & 3;
  m->hints |= annot_hints[w];
  if (annot_class[w] != 0xFF) m->access_class = annot_class[w];
}
static void obs_stats(void *st, PolicyStats *out) {
  const Obs *o = st;
  policy_stat_u64(out, "events", "events", "events the probe observed", o->events);
  policy_stat_f64(out, "sm_id", "", "the probe's SM", (double)o->sm, PSTAT_MAX);
}
static const SmObserver obs_policy = {.name = "t303-rec",
                                      .init = obs_init,
                                      .free = obs_free,
                                      .on_event = obs_event,
                                      .on_issue = obs_issue,
                                      .annotate = obs_annotate,
                                      .stats = obs_stats};

/* ---- an observer that wants two event kinds only (PolicyEngineHints.events) ---- */
typedef struct MaskRec {
  SchedEventKind kind;
  uint32_t slot;
  int32_t other_slot;
  uint64_t line_addr, warps; /* warps: a release's first bitmap word, copied during the call */
} MaskRec;
static MaskRec mask_events[MAXEV];
static uint32_t nmask;
static void mask_event(void *st, const SchedEvent *ev) {
  if (nmask < MAXEV)
    mask_events[nmask++] =
        (MaskRec){ev->kind, ev->slot, ev->other_slot, ev->line_addr, ev->warps ? ev->warps[0] : UINT64_MAX};
}
static const PolicyEngineHints mask_hints = {.events = SCHED_EV_BIT(SCHED_EV_BARRIER_RELEASE) |
                                                       SCHED_EV_BIT(SCHED_EV_L1_HIT)};
static const SmObserver mask_policy = {.name = "t303-mask", .on_event = mask_event, .hints = &mask_hints};

/* ---- the recording cache policy: the hints each warp's requests carried ---- */
static uint8_t hints_seen[8]; /* OR of hints per warp slot (misses and hits) */
static int32_t cache_env_sm = -2;
static uint32_t cache_bypass_misses;
static int cp_init(void **st, const CachePolicyEnv *env, char *err, size_t errlen) {
  if (!strcmp(env->cache, "l1d")) {
    cache_env_sm = env->sm;
    cache_shared = policy_shared(env->gpu, "t303", 64, NULL);
    if (!env->kernel) cache_env_sm = -3;
  }
  return 0;
}
static void cp_seen(const MemRequest *r) {
  if (r->warp >= 0 && r->warp < 8) hints_seen[r->warp] |= r->hints;
}
static void cp_hit(void *st, uint32_t set, uint32_t way, const MemRequest *r, uint64_t c) { cp_seen(r); }
static void cp_miss(void *st, uint32_t set, const MemRequest *r, uint64_t c) {
  cp_seen(r);
  if (r->hints & MEM_HINT_BYPASS) cache_bypass_misses++;
}
static const CachePolicy cache_policy = {
    .name = "t303-cache", .init = cp_init, .on_hit = cp_hit, .on_miss = cp_miss};

/* ---- a scheduler that picks fetches itself ---- */
static uint64_t fsel_calls;
static int fs_init(void **st, const WarpSchedEnv *env, char *err, size_t errlen) {
  *st = (void *)(uintptr_t)env->nsched;
  return 0;
}
static uint32_t fs_order(void *st, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                         uint64_t cycle, uint32_t *out) {
  return sched_collect_by_age(v, nslots, sched, (uint32_t)(uintptr_t)st, out);
}
static uint32_t fs_select(void *st, const WarpView *v, const uint32_t *elig, uint32_t n, uint32_t last,
                          uint64_t cycle) {
  fsel_calls++;
  return elig[n - 1]; /* the highest slot */
}
static const WarpSchedPolicy fsel_policy = {
    .name = "t303-fsel", .init = fs_init, .order = fs_order, .fetch_select = fs_select};

/* ---- running ---- */
static void reset(void) {
  nevents = nissues = 0;
  memset(hints_seen, 0, sizeof hints_seen);
  memset(annot_hints, 0, sizeof annot_hints);
  memset(annot_class, 0xFF, sizeof annot_class);
  cache_bypass_misses = 0;
  obs_shared = cache_shared = NULL;
  obs_instances = 0;
}

/* Runs hk (grid CTAs of `warps` warps, `launches` times) on a 1-SM GPU with
 * the given overrides; *buf is the buffer's device address. Returns the JSON
 * statistics (malloc'd) or NULL. */
static char *run_hk(const char *const *extra, uint32_t grid, uint32_t warps, uint32_t stride, uint32_t delay,
                    uint32_t bar, int launches, WsDevPtr *buf, const char *entry) {
  const char *sets[24] = {"sm.count=1", "sm.observers=t303-rec"};
  int n = 2;
  for (int i = 0; extra && extra[i] && n < 23; i++) sets[n++] = extra[i];
  sets[n] = NULL;
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return NULL;
  }
  WsModule *mod;
  WsFunction *fn;
  WsDevPtr d = 0;
  char *json = NULL;
  if (!test_gpu_load(&t, &mod, &fn, hk_ptx, entry) && ws_mem_alloc(t.ctx, &d, 4096) == WS_SUCCESS) {
    int ok = 1;
    for (int l = 0; l < launches && ok; l++) {
      void *params[] = {&d, &stride, &delay, &bar};
      WsResult rc = ws_launch_kernel(fn, grid, 1, 1, warps * 32, 1, 1, 0, params);
      if (rc != WS_SUCCESS) fprintf(stderr, "launch: %s\n", ws_ctx_error(t.ctx));
      ok = rc == WS_SUCCESS;
    }
    CHECK(ok);
    if (ok) json = test_gpu_json(&t);
  } else {
    CHECK(0);
  }
  if (buf) *buf = d;
  test_gpu_close(&t);
  return json;
}

static uint32_t count(SchedEventKind k) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < nevents; i++) n += events[i].ev.kind == k;
  return n;
}
static const SchedEvent *find(SchedEventKind k, uint32_t nth) {
  for (uint32_t i = 0; i < nevents; i++)
    if (events[i].ev.kind == k && nth-- == 0) return &events[i].ev;
  return NULL;
}

/* A 1-set, 1-way L1D: warp 0's line is evicted by warp 1's miss, much later. */
static const char *const one_line_l1[] = {"l1d.size=128", "l1d.assoc=1", NULL};

static void test_evict_names_victim_and_interferer(void) {
  reset();
  WsDevPtr d;
  char *j =
      run_hk(one_line_l1, 1, 2, 128, 300, 1, 1, &d, "hk"); /* warp 0 waits at the barrier: still resident */
  CHECK(j != NULL);
  CHECK_EQ_U64(count(SCHED_EV_L1_MISS), 2);
  const SchedEvent *m0 = find(SCHED_EV_L1_MISS, 0), *m1 = find(SCHED_EV_L1_MISS, 1),
                   *e = find(SCHED_EV_L1_EVICT, 0);
  CHECK(m0 && m1 && e);
  if (m0 && m1 && e) {
    CHECK_EQ_U64(m0->slot, 0);
    CHECK_EQ_U64(m0->line_addr, d & ~127ull);
    CHECK_EQ_U64(m1->slot, 1);
    CHECK_EQ_U64(m1->line_addr, (d + 128) & ~127ull);
    CHECK_EQ_U64(e->line_addr, d & ~127ull);  /* warp 0's line ... */
    CHECK_EQ_U64(e->slot, 0);                 /* ... allocated by warp 0, the victim */
    CHECK_EQ_U64((uint32_t)e->other_slot, 1); /* evicted by warp 1's request, the interferer */
    CHECK_EQ_U64(e->fail, CACHE_EVICT_REPLACE);
    CHECK_EQ_U64(e->pc, m0->pc); /* the allocating load's PC */
    CHECK_EQ_U64(e->cta_id, 0);
    CHECK(e->cycle == m1->cycle);
  }
  CHECK_EQ_U64(count(SCHED_EV_L1_RESFAIL), 0); /* the line was filled long before */
  free(j);
  /* without the barrier warp 0 has exited when its line goes: no victim to name */
  reset();
  j = run_hk(one_line_l1, 1, 2, 128, 300, 0, 1, &d, "hk");
  e = find(SCHED_EV_L1_EVICT, 0);
  CHECK(e != NULL);
  if (e) {
    CHECK_EQ_U64(e->slot, UINT32_MAX);
    CHECK_EQ_U64((uint32_t)e->other_slot, 1);
  }
  free(j);
}

/* Four warps at once on the 1-line L1D: each waits for the line, fails
 * (NO_LINE) while it is reserved, and is reported failing once. */
static void test_resfail_once_per_request(void) {
  reset();
  char *j = run_hk(one_line_l1, 1, 4, 128, 0, 1, 1, NULL, "hk");
  CHECK(j != NULL);
  CHECK_EQ_U64(count(SCHED_EV_L1_MISS), 4);
  CHECK_EQ_U64(count(SCHED_EV_L1_RESFAIL), 3); /* all but the first warp's request */
  for (uint32_t k = 0; k < 3; k++) {
    const SchedEvent *f = find(SCHED_EV_L1_RESFAIL, k);
    if (f) CHECK_EQ_U64(f->fail, CACHE_FAIL_NO_LINE);
  }
  CHECK_EQ_U64(count(SCHED_EV_L1_EVICT),
               3); /* each later line evicts the one before, its allocator waiting at the barrier */
  for (uint32_t k = 0; k < 3; k++) {
    const SchedEvent *e = find(SCHED_EV_L1_EVICT, k);
    if (e) CHECK(e->slot != UINT32_MAX && (int32_t)e->slot != e->other_slot);
  }
  free(j);
}

static void test_merge_and_bypass_are_not_misses(void) {
  reset();
  char *j = run_hk(NULL, 1, 2, 0, 0, 1, 1, NULL, "hk"); /* both warps load one line at once */
  CHECK_EQ_U64(count(SCHED_EV_L1_MISS), 1);
  CHECK_EQ_U64(count(SCHED_EV_L1_MERGE), 1);
  CHECK_EQ_U64(count(SCHED_EV_L1_HIT) + count(SCHED_EV_L1_BYPASS), 0);
  free(j);
  /* the observer asks warp 1 not to allocate (hint) and makes warp 2's load cg (class): both bypass */
  reset();
  annot_hints[1] = MEM_HINT_BYPASS;
  annot_class[2] = MEM_CLASS_CG;
  j = run_hk(NULL, 1, 3, 128, 0, 1, 1, NULL, "hk");
  CHECK_EQ_U64(count(SCHED_EV_L1_MISS), 1);
  CHECK_EQ_U64(count(SCHED_EV_L1_BYPASS), 2);
  for (uint32_t k = 0; k < 2; k++) {
    const SchedEvent *b = find(SCHED_EV_L1_BYPASS, k);
    if (b) CHECK(b->slot == 1 || b->slot == 2);
  }
  CHECK_STR_CONTAINS(j, "\"bypasses\": 2");
  free(j);
}

/* Hints the observer writes reach the cache policy's hooks; the cache policy
 * knows its SM, the kernel, and shares a block with the observer. */
static void test_hints_reach_cache_policy(void) {
  reset();
  annot_hints[1] = MEM_HINT_CRITICAL;
  annot_hints[2] = MEM_HINT_BYPASS | MEM_HINT_CRITICAL;
  const char *sets[] = {"l1d.policy=t303-cache", NULL};
  char *j = run_hk(sets, 1, 3, 128, 0, 1, 1, NULL, "hk");
  CHECK(j != NULL);
  CHECK_EQ_U64(hints_seen[0], 0);
  CHECK_EQ_U64(hints_seen[1], MEM_HINT_CRITICAL);
  CHECK_EQ_U64(hints_seen[2], MEM_HINT_BYPASS | MEM_HINT_CRITICAL);
  CHECK_EQ_U64(cache_bypass_misses, 1);
  CHECK_EQ_U64((uint32_t)cache_env_sm, 0);
  CHECK(obs_shared != NULL && obs_shared != (void *)1 && obs_shared == cache_shared);
  CHECK_STR_CONTAINS(j, "\"l1d\": {\"policy\": \"t303-cache\"");
  free(j);
}

/* A line request's events carry its lanes: a load's misses (lane 5 predicated off) and a store's
 * request, whose event also says the L1D's outcome (write-evict: a miss, nothing allocated). */
static void test_lanes_in_events(void) {
  reset();
  WsDevPtr d;
  char *j = run_hk(NULL, 1, 1, 0, 0, 0, 1, &d, "ln");
  CHECK(j != NULL);
  uint64_t line[3] = {0};
  uint32_t want[3] = {0}, nl = 0, got = 0;
  for (uint32_t l = 0; l < 32; l++) { /* the lines of the load, in order of first lane */
    if (l == 5) continue;
    const uint64_t a = (d + 8 * l) & ~127ull;
    uint32_t k = 0;
    while (k < nl && line[k] != a) k++;
    if (k == nl && nl < 3) line[nl++] = a;
    if (k < 3) want[k] |= 1u << l;
  }
  CHECK_EQ_U64(count(SCHED_EV_L1_MISS), nl);
  for (uint32_t k = 0; k < nl; k++) {
    const SchedEvent *m = find(SCHED_EV_L1_MISS, k);
    if (!m) continue;
    for (uint32_t i = 0; i < nl; i++)
      if (m->line_addr == line[i]) {
        CHECK_EQ_U64(m->lanes, want[i]);
        got++;
      }
  }
  CHECK_EQ_U64(got, nl);
  uint32_t store_lanes = 0;
  for (uint32_t k = 0; k < count(SCHED_EV_STORE); k++) {
    const SchedEvent *s = find(SCHED_EV_STORE, k);
    if (!s) continue;
    CHECK_EQ_U64(s->outcome, SCHED_EV_L1_MISS);
    for (uint32_t l = 0; l < 32; l++)
      if (((d + 1024 + 4 * l) & ~127ull) == s->line_addr) CHECK(s->lanes >> l & 1);
    CHECK_EQ_U64(store_lanes & s->lanes, 0); /* each lane in one request */
    store_lanes |= s->lanes;
  }
  CHECK_EQ_U64(store_lanes, 0xFFFFFFFFu);
  free(j);
}

/* CTAs: 4 CTAs of 2 warps through one SM's slots, in two launches. */
static void test_cta_and_kernel_events(void) {
  reset();
  const char *sets[] = {"sm.max_ctas=2", NULL};
  char *j = run_hk(sets, 4, 2, 0, 50, 1, 2, NULL, "hk");
  CHECK(j != NULL);
  CHECK_EQ_U64(count(SCHED_EV_KERNEL_BEGIN), 2);
  CHECK_EQ_U64(count(SCHED_EV_KERNEL_END), 2);
  CHECK_EQ_U64(count(SCHED_EV_CTA_LAUNCH), 8);
  CHECK_EQ_U64(count(SCHED_EV_CTA_EXIT), 8);
  CHECK_EQ_U64(count(SCHED_EV_WARP_LAUNCH), 16);
  uint32_t launch = 0, ids_seen = 0;
  int open_ctas = 0;
  for (uint32_t i = 0; i < nevents; i++) {
    const SchedEvent *e = &events[i].ev;
    CHECK(e->kernel != NULL);
    CHECK(!strcmp(events[i].kname, "hk"));
    CHECK_EQ_U64(events[i].launch_index, launch);
    if (e->kind == SCHED_EV_KERNEL_BEGIN) {
      CHECK_EQ_U64(events[i].ctas_total, 4);
      CHECK_EQ_U64(events[i].warps_per_cta, 2);
      ids_seen = 0;
    }
    if (e->kind == SCHED_EV_KERNEL_END) {
      CHECK_EQ_U64(ids_seen, 0xF); /* CTA ids 0..3, each once */
      CHECK_EQ_U64(open_ctas, 0);
      launch++;
    }
    if (e->kind == SCHED_EV_CTA_LAUNCH) {
      CHECK(e->cta_slot < 2);
      CHECK(e->cta_id < 4 && !(ids_seen >> e->cta_id & 1));
      ids_seen |= 1u << (e->cta_id & 31);
      CHECK_EQ_U64(e->nwarps, 2);
      open_ctas++;
      /* then its two warps, the first in slot e->slot, with its slot and id */
      for (uint32_t k = 1; k <= 2; k++) {
        const SchedEvent *w = i + k < nevents ? &events[i + k].ev : NULL;
        CHECK(w && w->kind == SCHED_EV_WARP_LAUNCH);
        if (w && w->kind == SCHED_EV_WARP_LAUNCH) {
          CHECK_EQ_U64(w->cta_slot, e->cta_slot);
          CHECK_EQ_U64(w->cta_id, e->cta_id);
          if (k == 1) CHECK_EQ_U64(w->slot, e->slot);
        }
      }
    }
    if (e->kind == SCHED_EV_CTA_EXIT) {
      open_ctas--;
      /* after both its warps' exits */
      uint32_t exits = 0;
      for (uint32_t k = 0; k < i; k++)
        exits += events[k].ev.kind == SCHED_EV_WARP_EXIT && events[k].ev.cta_id == e->cta_id &&
                 events[k].launch_index == launch && events[k].ev.cycle <= e->cycle;
      CHECK(exits >= 2);
    }
  }
  CHECK_EQ_U64(launch, 2);
  free(j);
}

/* An observer beside gto changes nothing; its statistics reach the JSON. */
static void test_observer_with_scheduler(void) {
  reset();
  char *a = run_hk(NULL, 4, 4, 128, 20, 1, 1, NULL, "hk");
  uint64_t evs = nevents;
  const char *none[] = {"sm.observers=none", NULL}; /* the later --set wins */
  char *b = run_hk(none, 4, 4, 128, 20, 1, 1, NULL, "hk");
  CHECK(a && b);
  CHECK(evs > 0);
  CHECK_EQ_U64(nevents, evs); /* no observer in b: nothing recorded since */
  if (a && b) {
    char *pa = strstr(a, "\"policies\""), *pb = strstr(b, "\"policies\"");
    CHECK(pa && pb);
    if (pa && pb) {
      CHECK_EQ_U64((uint64_t)(pa - a), (uint64_t)(pb - b)); /* every other statistic identical */
      CHECK(!strncmp(a, b, (size_t)(pa - a)));
      char want[96];
      snprintf(want, sizeof want, "\"observers\": {\"t303-rec\": {\"policy\": \"t303-rec\", \"events\": %llu",
               (unsigned long long)evs);
      CHECK_STR_CONTAINS(pa, want);
      CHECK_STR_CONTAINS(pa, "\"per_instance\": {\"events\": [");
      CHECK(!strstr(pb, "observers"));
    }
  }
  free(a);
  free(b);
}

/* An observer with an events mask gets only those kinds, beside one that gets every kind; a barrier's
 * release names the warps it frees; a hit names the warp that allocated the line (the core's
 * inter-warp hits count those of another warp). Four warps load one line far apart (warp 0 misses,
 * the others hit its line), then meet at the barrier. */
static void test_event_mask(void) {
  reset();
  nmask = 0;
  const char *sets[] = {"sm.observers=t303-rec,t303-mask", NULL};
  char *j = run_hk(sets, 1, 4, 0, 300, 1, 1, NULL, "hk");
  CHECK(j != NULL);
  uint32_t rel = 0, hits = 0, other = 0;
  for (uint32_t i = 0; i < nmask; i++) {
    const MaskRec *m = &mask_events[i];
    CHECK(m->kind == SCHED_EV_BARRIER_RELEASE || m->kind == SCHED_EV_L1_HIT);
    if (m->kind == SCHED_EV_BARRIER_RELEASE) {
      rel++;
      CHECK_EQ_U64(m->warps, 0xF); /* slots 0-3 */
    }
    if (m->kind == SCHED_EV_L1_HIT) {
      hits++;
      other += m->other_slot != (int32_t)m->slot;
      CHECK_EQ_U64(m->other_slot, 0); /* warp 0's miss allocated the line */
    }
  }
  CHECK_EQ_U64(rel, 1);
  CHECK_EQ_U64(hits, 3);
  CHECK_EQ_U64(count(SCHED_EV_L1_HIT), 3); /* the other observer gets these and the rest */
  const SchedEvent *miss = find(SCHED_EV_L1_MISS, 0);
  CHECK(miss && miss->slot == 0 && count(SCHED_EV_L1_MISS) == 1);
  CHECK(count(SCHED_EV_BARRIER_ARRIVE) == 4 && count(SCHED_EV_WARP_EXIT) == 4);
  CHECK_EQ_U64(test_json_u64(j, NULL, "l1d_read_hits_other_warp"), other);
  CHECK_EQ_U64(test_json_u64(j, NULL, "barrier_phases"), 1);
  free(j);
}

/* on_issue: the spin loop's branch is taken back until the last iteration. */
static void test_issue_sees_branches(void) {
  reset();
  char *j = run_hk(NULL, 1, 2, 128, 3, 1, 1, NULL, "hk"); /* warp 1 spins 3 times */
  uint32_t back = 0, fall = 0, fwd = 0;
  for (uint32_t i = 0; i < nissues; i++) {
    const Issue *is = &issues[i];
    if (is->kind != WINST_BRANCH) {
      if (is->next_pc != SCHED_PC_EXIT) CHECK(is->taken == (is->next_pc != is->pc + 1));
      continue;
    }
    if (is->slot != 1) continue;
    if (is->next_pc < is->pc) {
      back++;
      CHECK(is->taken);
    } else if (is->next_pc == is->pc + 1) {
      fall++;
      CHECK(!is->taken);
    } else {
      fwd++;
    }
    CHECK_EQ_U64(is->lanes, 0xFFFFFFFFu);
  }
  CHECK_EQ_U64(back, 2); /* 3 iterations: 2 taken back, then fall through */
  CHECK_EQ_U64(fall, 3); /* @%p1 bra (delay != 0), the loop's exit, @%p3 bra (bar = 1): not taken */
  CHECK_EQ_U64(fwd, 1);  /* ret: next_pc SCHED_PC_EXIT */
  free(j);
}

static void test_fetch_by_scheduler(void) {
  reset();
  fsel_calls = 0;
  const char *sets[] = {"sched.policy=t303-fsel", "sm.fetch_policy=sched", NULL};
  char *j = run_hk(sets, 2, 4, 128, 5, 1, 1, NULL, "hk");
  CHECK(j != NULL);
  CHECK(fsel_calls > 0);
  free(j);
}

/* Two warps, one per scheduler, both issuing shared loads every cycle: the
 * one LD/ST unit goes to one scheduler, and the other's cycle is an
 * other_sched stall (gto never leaves a ready warp out: no policy stall). */
static void test_other_sched_stall(void) {
  reset();
  char *j = run_hk(NULL, 1, 2, 0, 0, 0, 1, NULL, "sh");
  CHECK(j != NULL);
  const char *p = j ? strstr(j, "\"other_sched\": ") : NULL;
  CHECK(p && strtoull(p + 15, NULL, 10) > 0);
  CHECK_STR_CONTAINS(j, "\"policy\": 0,");
  free(j);
}

int main(void) {
  CHECK(policy_register(POLICY_OBSERVER, obs_policy.name, &obs_policy) == 0);
  CHECK(policy_register(POLICY_CACHE, cache_policy.name, &cache_policy) == 0);
  CHECK(policy_register(POLICY_WARP, fsel_policy.name, &fsel_policy) == 0);
  CHECK(policy_register(POLICY_OBSERVER, mask_policy.name, &mask_policy) == 0);
  TEST_RUN(test_evict_names_victim_and_interferer);
  TEST_RUN(test_resfail_once_per_request);
  TEST_RUN(test_merge_and_bypass_are_not_misses);
  TEST_RUN(test_hints_reach_cache_policy);
  TEST_RUN(test_lanes_in_events);
  TEST_RUN(test_cta_and_kernel_events);
  TEST_RUN(test_observer_with_scheduler);
  TEST_RUN(test_event_mask);
  TEST_RUN(test_issue_sees_branches);
  TEST_RUN(test_fetch_by_scheduler);
  TEST_RUN(test_other_sched_stall);
  return TEST_DONE();
}
