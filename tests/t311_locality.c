/* t311_locality.c - the L1D locality statistics of CCWS's Figures 1, 11 and
 * 12 and iWarp's Figure 2, on hand-built kernels.
 *
 * The locality observer alone (policy/observer/locality.c), on hand-made L1
 * events: the miss split by the warp that lost the line (replacements only,
 * a store's invalidation is no loss, an exited warp's line is nobody's) and
 * the same-warp hits by thread from the events' lanes, against a direct
 * reference on 5000 random accesses of a 1-way L1D.
 *
 * Same-warp read hits by thread (the locality observer, which the simulator
 * adds beside an l1_stream_events plugin such as the l1d-opt observer): two warps each touch their own two
 * lines with chosen lanes (a half-warp miss, the other half's hit, a merge of the other half, a subset's
 * hit), and one inter-warp hit that is not split: the exact same-thread / other-thread counts; on bfs the two
 * add up to the core's same-warp hits, runs with the engine's shortcuts off are identical, and a run without
 * such a plugin has none of the keys (opt-in).
 *
 * The two miss classifications (the core split of allocating read misses by
 * the warp that lost the line, the locality observer's; the missclass observer's per-warp
 * victim tag arrays, by the warp whose request evicted it): on a 1-line L1D
 * the same misses fall in different classes, which is why they stay two
 * statistics (a reload of a line another warp evicted is "evicted same warp"
 * to the first and "inter-warp contention" to the second; a miss on a line
 * another warp lost is "evicted other warp" to the first and "other" to the
 * second). */
#include <stdlib.h>
#include <string.h>

#include "common/test.h"
#include "common/timing.h"
#include "policy/cache_policy.h"
#include "core/config.h"
#include "policy/observer/locality.h"
#include "sim/config_schema.h"

TEST_GLOBALS;

/* The first number after "\"key\": " in j (the keys are unique in the statistics JSON). */
static uint64_t json_u64(const char *j, const char *key) {
  const uint64_t v = test_json_u64(j, NULL, key);
  CHECK(v != UINT64_MAX);
  if (v == UINT64_MAX) fprintf(stderr, "no key %s\n", key);
  return v;
}
static bool json_has(const char *j, const char *key) {
  char pat[96];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  return j && strstr(j, pat) != NULL;
}

/* ---- the observer on hand-made events ---- */
enum { LN = 128 }; /* line size */

static void *loc_make(void) {
  WarpSchedEnv env = {.max_warps = 8, .l1d = {.sets = 1, .ways = 2, .line_size = LN}};
  char err[128];
  void *st = NULL;
  CHECK(observer_locality.init(&st, &env, err, sizeof err) == 0);
  return st;
}
/* An event of `kind` on line k (k * LN) by warp slot w with lanes m (fail/outcome in x). */
static void loc_ev(void *st, SchedEventKind kind, uint64_t k, uint32_t w, uint32_t m, uint8_t x) {
  SchedEvent ev = {.kind = kind,
                   .slot = w,
                   .cta_slot = UINT32_MAX,
                   .line_addr = k * LN,
                   .other_slot = -1,
                   .lanes = m,
                   .fail = kind == SCHED_EV_L1_EVICT ? x : 0,
                   .outcome = kind == SCHED_EV_STORE || kind == SCHED_EV_L1_ATOMIC ? x : 0};
  observer_locality.on_event(st, &ev);
}
/* The L1D's events of a load miss of warp w on line k that replaced line v of warp vw. */
static void loc_replace(void *st, uint64_t v, uint32_t vw, uint64_t k, uint32_t w) {
  loc_ev(st, SCHED_EV_L1_EVICT, v, vw, 0, CACHE_EVICT_REPLACE);
  loc_ev(st, SCHED_EV_L1_MISS, k, w, ~0u, 0);
}
static LocalityCounts loc_counts(const void *st) {
  LocalityCounts n = {0};
  locality_counts_add(&n, st);
  return n;
}

/* A 1-set 2-way LRU L1D and two warps (the events that cache gives). */
static void test_observer_miss_split(void) {
  void *st = loc_make();
  if (!st) return;
  enum { A = 1, B = 2, C = 3, NONE = UINT32_MAX };
  loc_ev(st, SCHED_EV_L1_MISS, A, 1, ~0u, 0); /* cold */
  loc_ev(st, SCHED_EV_L1_MISS, B, 1, ~0u, 0); /* cold */
  loc_replace(st, A, 1, C, 2);                /* cold; evicts A (warp 1's) */
  LocalityCounts n = loc_counts(st);
  CHECK_EQ_U64(n.misses_evicted_same_warp + n.misses_evicted_other_warp, 0);
  loc_replace(st, B, 1, A, 1); /* warp 1 lost A: intra-warp */
  loc_replace(st, C, 2, B, 2); /* warp 1 lost B, warp 2 misses it: inter-warp */
  n = loc_counts(st);
  CHECK_EQ_U64(n.misses_evicted_same_warp, 1);
  CHECK_EQ_U64(n.misses_evicted_other_warp, 1);
  /* a store hit invalidates A: not a loss to an eviction */
  loc_ev(st, SCHED_EV_L1_EVICT, A, 1, 0, CACHE_EVICT_INVALIDATE);
  loc_ev(st, SCHED_EV_STORE, A, 1, ~0u, SCHED_EV_L1_HIT);
  loc_ev(st, SCHED_EV_L1_MISS, A, 1, ~0u, 0); /* cold: A was invalidated */
  loc_ev(st, SCHED_EV_L1_HIT, A, 2, ~0u, 0);  /* another warp's line: not split by thread */
  loc_replace(st, B, 2, C, 2);                /* warp 2 lost C: intra-warp */
  loc_replace(st, A, 1, B, 1);                /* B's record names warp 2: inter-warp */
  n = loc_counts(st);
  CHECK_EQ_U64(n.misses_evicted_same_warp, 2);
  CHECK_EQ_U64(n.misses_evicted_other_warp, 2);
  CHECK_EQ_U64(n.hits_same_thread + n.hits_other_thread, 0);
  /* warp 1 exits: the line it allocated (B) is nobody's, so a new warp 1's hit on it is not
   * split, and the L1D names no warp when it goes */
  loc_ev(st, SCHED_EV_WARP_EXIT, 0, 1, 0, 0);
  loc_ev(st, SCHED_EV_L1_HIT, B, 1, ~0u, 0);
  loc_replace(st, C, 2, A, 2);    /* A's record names warp 1: inter-warp */
  loc_replace(st, B, NONE, C, 2); /* warp 2 lost C: intra-warp */
  loc_replace(st, A, 2, B, 1);    /* B's record names no warp: not the new warp 1's own loss */
  n = loc_counts(st);
  CHECK_EQ_U64(n.misses_evicted_same_warp, 3);
  CHECK_EQ_U64(n.misses_evicted_other_warp, 4);
  CHECK_EQ_U64(n.hits_same_thread + n.hits_other_thread, 0);
  observer_locality.free(st);

  /* 1-way: each miss evicts the previous line. 5000 pseudo-random accesses to 3000 lines by 4
   * warps (the lost table grows past its first size and deletes in every probe position) against
   * a direct reference. */
  st = loc_make();
  if (!st) return;
  static int8_t owner[3000]; /* the warp that had allocated a line an eviction took, -1 none */
  for (int i = 0; i < 3000; i++) owner[i] = -1;
  uint64_t cur = UINT64_MAX, same = 0, other = 0, x = 12345;
  int cur_warp = -1;
  for (int i = 0; i < 5000; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t line = (x >> 33) % 3000;
    int warp = (int)((x >> 20) & 3);
    if (line == cur) {
      loc_ev(st, SCHED_EV_L1_HIT, line, (uint32_t)warp, ~0u, 0);
      continue;
    }
    if (owner[line] >= 0) {
      same += owner[line] == warp, other += owner[line] != warp;
      owner[line] = -1;
    }
    if (cur != UINT64_MAX) {
      owner[cur] = (int8_t)cur_warp;
      loc_ev(st, SCHED_EV_L1_EVICT, cur, (uint32_t)cur_warp, 0, CACHE_EVICT_REPLACE);
    }
    cur = line, cur_warp = warp;
    loc_ev(st, SCHED_EV_L1_MISS, line, (uint32_t)warp, ~0u, 0);
  }
  n = loc_counts(st);
  CHECK_EQ_U64(n.misses_evicted_same_warp, same);
  CHECK_EQ_U64(n.misses_evicted_other_warp, other);
  CHECK(same > 100 && other > 300);
  observer_locality.free(st);
}

/* Same-warp hits by thread from the lanes: a miss's (a load's or an atomic's) lanes, merges' and
 * stores' added. */
static void test_observer_threads(void) {
  void *st = loc_make();
  if (!st) return;
  loc_ev(st, SCHED_EV_L1_MISS, 1, 0, 0x0000FFFFu, 0);
  loc_ev(st, SCHED_EV_L1_HIT, 1, 0, 0xFFFF0000u, 0); /* other thread */
  loc_ev(st, SCHED_EV_L1_HIT, 1, 0, 0x00010000u, 0); /* same thread: the hit before added its lanes */
  loc_ev(st, SCHED_EV_L1_HIT, 1, 1, 0x00000001u, 0); /* another warp: not split */
  loc_ev(st, SCHED_EV_L1_MISS, 2, 0, 0x000000FFu, 0);
  loc_ev(st, SCHED_EV_L1_MERGE, 2, 0, 0x0000FF00u, 0);
  loc_ev(st, SCHED_EV_L1_HIT, 2, 0, 0x00000100u, 0);                   /* same thread, through the merge */
  loc_ev(st, SCHED_EV_STORE, 2, 1, 0x00FF0000u, SCHED_EV_L1_MISS);     /* a store to the line on its way */
  loc_ev(st, SCHED_EV_L1_HIT, 2, 0, 0x00000001u, 0);                   /* other thread: the store's lanes */
  loc_ev(st, SCHED_EV_STORE, 1, 0, 0x0F000000u, SCHED_EV_L1_HIT);      /* a store hit that keeps its line */
  loc_ev(st, SCHED_EV_L1_ATOMIC_HIT, 1, 0, 0x01000000u, 0);            /* same thread */
  loc_ev(st, SCHED_EV_L1_ATOMIC, 3, 0, 0x00000001u, SCHED_EV_L1_MISS); /* an atomic reserves line 3 */
  loc_ev(st, SCHED_EV_L1_HIT, 3, 0, 0x00000002u, 0);                   /* other thread */
  LocalityCounts n = loc_counts(st);
  CHECK_EQ_U64(n.hits_same_thread, 3);
  CHECK_EQ_U64(n.hits_other_thread, 3);
  observer_locality.free(st);
}

/* The readings of observer.locality.thread_split on one line warp 0 allocated with lanes 0-15:
 * any (a lane of the request had touched it), all (every lane had), lane (per lane), first (a lane
 * of the allocating request). */
static void test_observer_thread_readings(void) {
  static const char *const split[] = {"any", "all", "lane", "first"};
  static const uint64_t want_same[] = {3, 1, 4, 2}, want_other[] = {1, 3, 5, 2};
  for (int k = 0; k < 4; k++) {
    Config *cfg = cfg_create();
    char set[64], err[128];
    snprintf(set, sizeof set, "observer.locality.thread_split=%s", split[k]);
    CHECK(cfg && cfg_set(cfg, set) == 0);
    WarpSchedEnv env = {.max_warps = 8, .cfg = cfg, .l1d = {.sets = 1, .ways = 2, .line_size = LN}};
    void *st = NULL;
    CHECK(observer_locality.init(&st, &env, err, sizeof err) == 0);
    if (!st) {
      cfg_free(cfg);
      continue;
    }
    loc_ev(st, SCHED_EV_L1_MISS, 1, 0, 0x0000FFFFu, 0);
    loc_ev(st, SCHED_EV_L1_HIT, 1, 0, 0x00030000u, 0); /* lanes 16, 17: none had touched it */
    loc_ev(st, SCHED_EV_L1_HIT, 1, 0, 0x000C0001u, 0); /* 0 had (also first), 18 and 19 not */
    loc_ev(st, SCHED_EV_L1_HIT, 1, 0, 0x00010000u, 0); /* 16 had (by the first hit), not first */
    loc_ev(st, SCHED_EV_L1_HIT, 1, 0, 0x00100003u, 0); /* 0 and 1 had (also first), 20 not */
    const LocalityCounts n = loc_counts(st);
    if (n.hits_same_thread != want_same[k] || n.hits_other_thread != want_other[k])
      fprintf(stderr, "thread_split=%s: same %llu other %llu\n", split[k],
              (unsigned long long)n.hits_same_thread, (unsigned long long)n.hits_other_thread);
    CHECK_EQ_U64(n.hits_same_thread, want_same[k]);
    CHECK_EQ_U64(n.hits_other_thread, want_other[k]);
    observer_locality.free(st);
    cfg_free(cfg);
  }
  Config *cfg = cfg_create();
  CHECK(cfg && cfg_set(cfg, "observer.locality.thread_split=word") != 0); /* not a reading */
  cfg_free(cfg);
}

/* ---- same-warp hits by thread ---- */
/* Warp w (lanes L) owns lines X = buf + 512 w, Y = X + 128, Z = X + 256. Each
 * load's address depends on the previous load's value (and 0), so it is sent
 * after the previous one's data arrived, except H, sent right after G:
 *   A  lanes 0-15 read X          miss (X: lanes 0-15)
 *   B  lanes 16-31 read X         hit, same warp, other thread
 *   C  all lanes read Y           miss
 *   D  lanes 0-7 read Y           hit, same thread
 *   E  all lanes read X           hit, same thread
 *   G  lanes 16-31 read Z         miss
 *   H  lanes 0-15 read Z          merge (Z reserved): lanes 0-15 join Z
 *   I  lanes 0-3 read Z           hit, same thread (through the merge)
 *   F  (warp 1 only) all lanes read warp 0's X: hit, other warp (not split)
 * Per warp: same thread 3 (D E I), other thread 1 (B); the GPU: 6 and 2 of
 * 8 same-warp hits, 1 other-warp hit, 2 merges. */
static const char lanes_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry lk(.param .u64 buf)\n{\n"
    "  .reg .pred %p<6>;\n  .reg .b32 %r<40>;\n  .reg .b64 %rd<30>;\n"
    "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n  and.b32 %r3, %r1, 31;\n"
    "  ld.param.u64 %rd1, [buf];\n  shl.b32 %r4, %r2, 9;\n  shl.b32 %r5, %r3, 2;\n"
    "  add.u32 %r6, %r4, %r5;\n  cvt.u64.u32 %rd2, %r6;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  setp.lt.u32 %p1, %r3, 16;\n"
    /* A */
    "  mov.u32 %r7, 0;\n  @%p1 ld.global.u32 %r7, [%rd3];\n"
    "  and.b32 %r8, %r7, 0;\n  cvt.u64.u32 %rd4, %r8;\n  add.s64 %rd5, %rd3, %rd4;\n"
    /* B */
    "  mov.u32 %r9, 0;\n  @!%p1 ld.global.u32 %r9, [%rd5];\n"
    "  and.b32 %r10, %r9, 0;\n  cvt.u64.u32 %rd6, %r10;\n  add.s64 %rd7, %rd5, %rd6;\n"
    /* C */
    "  ld.global.u32 %r11, [%rd7+128];\n"
    "  and.b32 %r12, %r11, 0;\n  cvt.u64.u32 %rd8, %r12;\n  add.s64 %rd9, %rd7, %rd8;\n"
    /* D */
    "  setp.lt.u32 %p2, %r3, 8;\n  mov.u32 %r13, 0;\n  @%p2 ld.global.u32 %r13, [%rd9+128];\n"
    "  and.b32 %r14, %r13, 0;\n  cvt.u64.u32 %rd10, %r14;\n  add.s64 %rd11, %rd9, %rd10;\n"
    /* E */
    "  ld.global.u32 %r15, [%rd11];\n"
    "  and.b32 %r16, %r15, 0;\n  cvt.u64.u32 %rd12, %r16;\n  add.s64 %rd13, %rd11, %rd12;\n"
    /* G, then H at once (no dependence on G) */
    "  mov.u32 %r17, 0;\n  @!%p1 ld.global.u32 %r17, [%rd13+256];\n"
    "  mov.u32 %r18, 0;\n  @%p1 ld.global.u32 %r18, [%rd13+256];\n"
    "  add.u32 %r19, %r17, %r18;\n  and.b32 %r20, %r19, 0;\n"
    "  cvt.u64.u32 %rd14, %r20;\n  add.s64 %rd15, %rd13, %rd14;\n"
    /* I */
    "  setp.lt.u32 %p3, %r3, 4;\n  mov.u32 %r21, 0;\n  @%p3 ld.global.u32 %r21, [%rd15+256];\n"
    /* F: warp 1 reads warp 0's X */
    "  and.b32 %r22, %r21, 0;\n  add.u32 %r23, %r5, %r22;\n"
    "  cvt.u64.u32 %rd16, %r23;\n  add.s64 %rd17, %rd1, %rd16;\n"
    "  setp.eq.u32 %p4, %r2, 1;\n  @%p4 ld.global.u32 %r24, [%rd17];\n"
    "  ret;\n}\n"
    "//@warpsim regs lk 40\n";

static void test_hits_by_thread(void) {
  const char *sets[] = {"sm.count=1", "sched.policy=gto", "sm.observers=l1d-opt", NULL};
  char *j = test_run_kernel(sets, lanes_ptx, "lk", 64, NULL, 0);
  CHECK(j != NULL);
  CHECK_EQ_U64(json_u64(j, "l1d_read_hits_same_warp"), 8);
  CHECK_EQ_U64(json_u64(j, "l1d_read_hits_other_warp"), 1);
  CHECK_EQ_U64(json_u64(j, "l1d_read_hits_same_warp_same_thread"), 6);
  CHECK_EQ_U64(json_u64(j, "l1d_read_hits_same_warp_other_thread"), 2);
  CHECK(strstr(j ? j : "", "\"l1d_read_hits_same_warp_other_thread_fraction\": 0.250000") != NULL);
  free(j);
  /* the other readings: per lane, B's 16 lanes of 60 are inter-thread; against the allocating
   * request's lanes, I (lanes 0-3 on Z, which G's lanes 16-31 allocated) is too */
  static const struct {
    const char *split;
    uint64_t same, other;
  } readings[] = {{"observer.locality.thread_split=lane", 88, 32},
                  {"observer.locality.thread_split=first", 4, 4}};
  for (size_t r = 0; r < sizeof readings / sizeof *readings; r++) {
    const char *rs[] = {"sm.count=1", "sched.policy=gto", "sm.observers=l1d-opt", readings[r].split, NULL};
    j = test_run_kernel(rs, lanes_ptx, "lk", 64, NULL, 0);
    CHECK_EQ_U64(json_u64(j, "l1d_read_hits_same_warp_same_thread"), readings[r].same);
    CHECK_EQ_U64(json_u64(j, "l1d_read_hits_same_warp_other_thread"), readings[r].other);
    free(j);
  }
  /* without an l1_stream_events plugin: no lane masks, no keys */
  const char *plain[] = {"sm.count=1", "sched.policy=gto", NULL};
  j = test_run_kernel(plain, lanes_ptx, "lk", 64, NULL, 0);
  CHECK_EQ_U64(json_u64(j, "l1d_read_hits_same_warp"), 8);
  CHECK(!json_has(j, "l1d_read_hits_same_warp_same_thread"));
  CHECK(!json_has(j, "l1d_read_misses_evicted_same_warp"));
  free(j);
}

/* On a benchmark: the split adds up to the core's same-warp hits, shortcuts
 * off change nothing, and the split leaves the timing alone. */
static void test_bench_invariants(void) {
  const char *names[] = {"bfs", "kmeans", NULL};
  const char *on[] = {"sched.policy=gto", "sm.observers=l1d-opt", NULL};
  const char *off[] = {"sched.policy=gto", "sm.observers=l1d-opt", "sm.skip_idle_cycles=false", NULL};
  const char *plain[] = {"sched.policy=gto", NULL};
  uint64_t c1 = 0, c2 = 0, c3 = 0;
  char *a = test_run_benches(NULL, on, names, &c1), *b = test_run_benches(NULL, off, names, &c2),
       *p = test_run_benches(NULL, plain, names, &c3);
  CHECK(a && b && p);
  CHECK_EQ_U64(c1, c2);
  CHECK_EQ_U64(c1, c3);
  const uint64_t same = json_u64(a, "l1d_read_hits_same_warp_same_thread"),
                 other = json_u64(a, "l1d_read_hits_same_warp_other_thread");
  CHECK_EQ_U64(same + other, json_u64(a, "l1d_read_hits_same_warp"));
  CHECK(same > 0 && other > 0);
  CHECK(a && b && strcmp(a, b) == 0);
  free(a);
  free(b);
  free(p);
}

/* ---- the two miss classifications ---- */
/* 1-line L1D, 2 warps. Warp 0 loads line a0 at once, spins 2d, loads a1
 * (if not ~0); warp 1 spins d, loads b0, spins 2d, loads b1 (if not ~0).
 * Line k is buf + 128 k. */
static const char ax_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry ax(.param .u64 buf, .param .u32 d, .param .u32 a0, .param .u32 a1, .param .u32 b1)\n{\n"
    "  .reg .pred %p<6>;\n  .reg .b32 %r<30>;\n  .reg .b64 %rd<10>;\n"
    "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n"
    "  ld.param.u64 %rd1, [buf];\n  ld.param.u32 %r3, [d];\n"
    "  ld.param.u32 %r4, [a0];\n  ld.param.u32 %r5, [a1];\n  ld.param.u32 %r6, [b1];\n"
    "  setp.eq.u32 %p1, %r2, 0;\n"
    /* first line: warp 0 a0 at once, warp 1 line 1 after d */
    "  selp.u32 %r7, %r4, 1, %p1;\n  selp.u32 %r8, 0, %r3, %p1;\n"
    "  setp.eq.u32 %p2, %r8, 0;\n  @%p2 bra $L_first;\n"
    "$L_s1:\n  add.u32 %r8, %r8, -1;\n  setp.ne.u32 %p3, %r8, 0;\n  @%p3 bra $L_s1;\n"
    "$L_first:\n  shl.b32 %r9, %r7, 7;\n  cvt.u64.u32 %rd2, %r9;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r10, [%rd3];\n"
    /* spin 2d, then the second line (warp 0 a1, warp 1 b1), if any */
    "  shl.b32 %r11, %r3, 1;\n"
    "$L_s2:\n  add.u32 %r11, %r11, -1;\n  setp.ne.u32 %p3, %r11, 0;\n  @%p3 bra $L_s2;\n"
    "  selp.u32 %r12, %r5, %r6, %p1;\n  setp.eq.u32 %p4, %r12, -1;\n  @%p4 bra $L_end;\n"
    "  shl.b32 %r13, %r12, 7;\n  cvt.u64.u32 %rd4, %r13;\n  add.s64 %rd5, %rd1, %rd4;\n"
    "  ld.global.u32 %r14, [%rd5];\n  add.u32 %r15, %r14, %r10;\n"
    "$L_end:\n  ret;\n}\n"
    "//@warpsim regs ax 30\n";

static void test_two_classifications(void) {
  const char *sets[] = {
      "sm.count=1", "sched.policy=gto", "l1d.size=128", "l1d.assoc=1", "sm.observers=l1d-opt,missclass",
      NULL};
  /* reload: warp 0 line 0, warp 1 line 1 (evicts it), warp 0 line 0 again */
  const uint32_t reload[] = {1500, 0, 0, ~0u};
  char *j = test_run_kernel(sets, ax_ptx, "ax", 64, reload, 4);
  CHECK_EQ_U64(json_u64(j, "l1d_read_misses_evicted_same_warp"), 1); /* warp 0 had line 0 and lost it */
  CHECK_EQ_U64(json_u64(j, "l1d_read_misses_evicted_other_warp"), 0);
  CHECK_EQ_U64(json_u64(j, "l1d_read_misses_cold"), 2);
  CHECK_EQ_U64(json_u64(j, "misses_inter_warp"), 1); /* ... to warp 1's request */
  CHECK_EQ_U64(json_u64(j, "misses_intra_warp"), 0);
  CHECK_EQ_U64(json_u64(j, "misses_other"), 2);
  free(j);
  /* other: warp 0 line 0, warp 1 line 1 (evicts it), warp 1 line 0 */
  const uint32_t other[] = {1500, 0, ~0u, 0};
  j = test_run_kernel(sets, ax_ptx, "ax", 64, other, 4);
  CHECK_EQ_U64(json_u64(j, "l1d_read_misses_evicted_same_warp"), 0);
  CHECK_EQ_U64(json_u64(j, "l1d_read_misses_evicted_other_warp"), 1); /* warp 0 lost line 0 */
  CHECK_EQ_U64(json_u64(j, "l1d_read_misses_cold"), 2);
  CHECK_EQ_U64(json_u64(j, "misses_inter_warp"), 0); /* not in warp 1's VTA */
  CHECK_EQ_U64(json_u64(j, "misses_intra_warp"), 0);
  CHECK_EQ_U64(json_u64(j, "misses_other"), 3);
  free(j);
}

int main(void) {
  TEST_RUN(test_observer_miss_split);
  TEST_RUN(test_observer_threads);
  TEST_RUN(test_observer_thread_readings);
  TEST_RUN(test_hits_by_thread);
  TEST_RUN(test_bench_invariants);
  TEST_RUN(test_two_classifications);
  return TEST_DONE();
}
