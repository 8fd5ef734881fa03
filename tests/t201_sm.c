/* t201_sm.c - the SM timing model through the runtime API with the timing
 * engine attached: occupancy limits (threads, CTA slots, registers, static
 * and dynamic shared memory) observed as CTAs resident at once on an SM, and
 * a CTA that cannot fit; dependent ALU and SFU chains take exactly their
 * configured latency per instruction ("issue at t, not ready at t+lat-1,
 * ready at t+lat"), the SFU's initiation interval, the fetch rule (2
 * instructions per empty I-buffer); determinism (two runs, identical JSON
 * statistics); skipping idle cycles changes nothing; a barrier that never
 * releases is WS_ERROR_DEADLOCK naming the waiting warps; a barrier kernel
 * completes under two-level strict. */
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"
#include "bench.h"
#include "mem/memsys.h"
#include "policy/registry.h"

TEST_GLOBALS;

/* ---- occupancy ---- */

/* Every CTA: thread 0 increments its SM's counter and records the maximum;
 * all threads spin for `delay` iterations and meet at a barrier; thread 0
 * decrements. The maximum is the number of CTAs resident at once. */
static const char occ_ptx_fmt[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry occ(.param .u64 cnt, .param .u64 maxc, .param .u32 delay)\n{\n"
    "  .reg .pred %%p<4>;\n  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<8>;\n%s"
    "  mov.u32 %%r1, %%tid.x;\n  setp.ne.u32 %%p1, %%r1, 0;\n  mov.u32 %%r2, %%smid;\n"
    "  ld.param.u64 %%rd1, [cnt];\n  ld.param.u64 %%rd2, [maxc];\n"
    "  mul.wide.u32 %%rd3, %%r2, 4;\n  add.s64 %%rd4, %%rd1, %%rd3;\n  add.s64 %%rd5, %%rd2, %%rd3;\n"
    "  @%%p1 bra $L_wait;\n"
    "  atom.global.add.u32 %%r3, [%%rd4], 1;\n  add.u32 %%r4, %%r3, 1;\n  atom.global.max.u32 %%r5, [%%rd5], "
    "%%r4;\n"
    "$L_wait:\n  ld.param.u32 %%r6, [delay];\n"
    "$L_loop:\n  add.u32 %%r6, %%r6, -1;\n  setp.ne.u32 %%p2, %%r6, 0;\n  @%%p2 bra $L_loop;\n"
    "  bar.sync 0;\n  @%%p1 bra $L_done;\n  atom.global.add.u32 %%r7, [%%rd4], -1;\n"
    "$L_done:\n  ret;\n}\n//@warpsim regs occ %u\n";

/* The occupancy kernel with `shared` bytes of static shared memory (used:
 * thread 0 stores to it; unused .shared variables take no space) and a
 * ptxas-style register annotation. */
static void make_occ_ptx(char *ptx, size_t len, unsigned shared, unsigned regs) {
  char decl[160] = "";
  if (shared)
    snprintf(decl, sizeof decl, "  .shared .align 4 .b8 sbuf[%u];\n  st.shared.u32 [sbuf], 0;\n", shared);
  snprintf(ptx, len, occ_ptx_fmt, decl, regs);
}

/* The last kernel's "ctas_per_sm" and "occupancy_limiter" from the engine's JSON. */
static void last_kernel_occupancy(const TestGpu *t, unsigned *ctas, char *limiter, size_t len) {
  char *j = test_gpu_json(t), *p = j, *q;
  *ctas = 0;
  limiter[0] = 0;
  while (p && (q = strstr(p, "\"ctas_per_sm\": "))) {
    *ctas = (unsigned)strtoul(q + 15, NULL, 10);
    char *l = strstr(q, "\"occupancy_limiter\": \"");
    if (l) {
      l += 22;
      size_t n = strcspn(l, "\"");
      if (n >= len) n = len - 1;
      memcpy(limiter, l, n);
      limiter[n] = 0;
    }
    p = q + 1;
  }
  free(j);
}

/* Launches occ with `threads` per CTA, `regs` per thread, `shared` static and
 * `dyn` dynamic shared bytes on 2 waves of `want` CTAs per SM; checks the
 * most CTAs seen on one SM, the engine's reported occupancy and limiter. */
static void check_occupancy(unsigned threads, unsigned regs, unsigned shared, unsigned dyn, unsigned want,
                            const char *limiter) {
  TestGpu t;
  if (test_gpu_open(&t, NULL)) {
    CHECK(0);
    return;
  }
  char ptx[4096];
  make_occ_ptx(ptx, sizeof ptx, shared, regs);
  WsModule *mod;
  WsFunction *fn;
  WsDevPtr d_cnt = 0, d_max = 0;
  if (test_gpu_load(&t, &mod, &fn, ptx, "occ")) {
    CHECK(0);
    test_gpu_close(&t);
    return;
  }
  unsigned nsm = (unsigned)cfg_int(t.cfg, "sm.count"), grid = nsm * want * 2, delay = 100;
  CHECK(ws_mem_alloc(t.ctx, &d_cnt, 4 * nsm) == WS_SUCCESS);
  CHECK(ws_mem_alloc(t.ctx, &d_max, 4 * nsm) == WS_SUCCESS);
  ws_memset_d32(t.ctx, d_cnt, 0, nsm);
  ws_memset_d32(t.ctx, d_max, 0, nsm);
  void *params[] = {&d_cnt, &d_max, &delay};
  WsResult rc = ws_launch_kernel(fn, grid, 1, 1, threads, 1, 1, dyn, params);
  if (rc != WS_SUCCESS) fprintf(stderr, "launch: %s\n", ws_ctx_error(t.ctx));
  CHECK(rc == WS_SUCCESS);
  uint32_t cnt[64] = {0}, mx[64] = {0}, most = 0;
  ws_memcpy_dtoh(t.ctx, cnt, d_cnt, 4 * nsm);
  ws_memcpy_dtoh(t.ctx, mx, d_max, 4 * nsm);
  for (unsigned i = 0; i < nsm; i++) {
    CHECK_EQ_U64(cnt[i], 0); /* every increment was undone */
    if (mx[i] > most) most = mx[i];
  }
  unsigned ctas;
  char lim[64];
  last_kernel_occupancy(&t, &ctas, lim, sizeof lim);
  if (most != want || ctas != want || strcmp(lim, limiter))
    fprintf(stderr,
            "occupancy %u threads %u regs %u+%u shared: resident %u, reported %u (%s), want %u (%s)\n",
            threads, regs, shared, dyn, most, ctas, lim, want, limiter);
  CHECK_EQ_U64(most, want);
  CHECK_EQ_U64(ctas, want);
  CHECK(!strcmp(lim, limiter));
  CHECK_EQ_U64(ws_ctx_last_stats(t.ctx)->ctas, grid);
  ws_mem_free(t.ctx, d_cnt);
  ws_mem_free(t.ctx, d_max);
  ws_module_unload(mod);
  test_gpu_close(&t);
}

/* gtx480: 1536 threads, 48 warps, 8 CTA slots, 32768 registers, 48 KB shared per SM. */
static void test_occupancy_threads(void) { check_occupancy(512, 16, 0, 0, 3, "threads"); }
static void test_occupancy_cta_slots(void) { check_occupancy(64, 16, 0, 0, 8, "CTA slots"); }
static void test_occupancy_registers(void) {
  check_occupancy(256, 40, 0, 0, 3, "registers");
} /* 10240 per CTA */
static void test_occupancy_shared(void) { check_occupancy(128, 16, 20000, 0, 2, "shared memory"); }
static void test_occupancy_dynamic_shared(void) { check_occupancy(128, 16, 0, 16000, 3, "shared memory"); }
static void test_occupancy_shared_sum(void) { check_occupancy(128, 16, 8000, 8000, 3, "shared memory"); }

static void test_cta_does_not_fit(void) {
  /* {threads, regs, static shared, config override}: 20000 B > sm.shared_mem = 16 KB; 1024 x 40 = 40960
   * registers */
  const struct {
    unsigned threads, regs, shared;
    const char *set, *why;
  } cases[] = {
      {128, 16, 20000, "sm.shared_mem=16K", "shared memory"},
      {1024, 40, 0, "sm.shared_mem=48K", "registers"},
  };
  for (int k = 0; k < 2; k++) {
    const char *sets[] = {cases[k].set, NULL};
    TestGpu t;
    if (test_gpu_open(&t, sets)) {
      CHECK(0);
      return;
    }
    char ptx[4096];
    make_occ_ptx(ptx, sizeof ptx, cases[k].shared, cases[k].regs);
    WsModule *mod;
    WsFunction *fn;
    WsDevPtr d = 0;
    if (test_gpu_load(&t, &mod, &fn, ptx, "occ")) {
      CHECK(0);
      test_gpu_close(&t);
      return;
    }
    unsigned delay = 1;
    CHECK(ws_mem_alloc(t.ctx, &d, 256) == WS_SUCCESS);
    void *params[] = {&d, &d, &delay};
    WsResult rc = ws_launch_kernel(fn, 4, 1, 1, cases[k].threads, 1, 1, 0, params);
    CHECK(rc == WS_ERROR_LAUNCH_FAILED);
    CHECK_STR_CONTAINS(ws_ctx_error(t.ctx), "does not fit on an SM");
    CHECK_STR_CONTAINS(ws_ctx_error(t.ctx), cases[k].why);
    ws_mem_free(t.ctx, d);
    ws_module_unload(mod);
    test_gpu_close(&t);
  }
}

/* ---- instruction latency ---- */

/* One thread, two rounds of: clock read, `n` copies of `body` (the chain),
 * an instruction that consumes the chain's last result, clock read. The
 * second round (instructions cached) is stored in out[0]; out[1] the value. */
static uint64_t chain_cycles(const char *const *sets, const char *body, const char *consume, unsigned n) {
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return 0;
  }
  size_t cap = 64 * 1024;
  char *ptx = malloc(cap);
  size_t len = (size_t)snprintf(ptx, cap,
                                ".version 9.0\n.target sm_75\n.address_size 64\n"
                                ".visible .entry chain(.param .u64 out)\n{\n"
                                "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b32 %%q<300>;\n  .reg "
                                ".b64 %%rd<8>;\n  .reg .f32 %%f<300>;\n"
                                "  mov.u32 %%r1, %%tid.x;\n  cvt.rn.f32.u32 %%f1, %%r1;\n  mov.u32 %%r5, 0;\n"
                                "$L_round:\n  mov.u64 %%rd1, %%clock64;\n");
  for (unsigned i = 0; i < n; i++) len += (size_t)snprintf(ptx + len, cap - len, body, i + 2, i + 2);
  len += (size_t)snprintf(
      ptx + len, cap - len,
      "  %s\n  mov.u64 %%rd2, %%clock64;\n  sub.s64 %%rd3, %%rd2, %%rd1;\n"
      "  add.s32 %%r5, %%r5, 1;\n  setp.lt.u32 %%p1, %%r5, 2;\n  @%%p1 bra $L_round;\n"
      "  ld.param.u64 %%rd4, [out];\n  st.global.u64 [%%rd4], %%rd3;\n  st.global.u32 [%%rd4+8], %%r1;\n"
      "  ret;\n}\n",
      consume);
  WsModule *mod;
  WsFunction *fn;
  uint64_t out[2] = {0, 0};
  WsDevPtr d = 0;
  if (test_gpu_load(&t, &mod, &fn, ptx, "chain")) {
    CHECK(0);
    free(ptx);
    test_gpu_close(&t);
    return 0;
  }
  CHECK(ws_mem_alloc(t.ctx, &d, 16) == WS_SUCCESS);
  void *params[] = {&d};
  CHECK(ws_launch_kernel(fn, 1, 1, 1, 1, 1, 1, 0, params) == WS_SUCCESS);
  CHECK(ws_memcpy_dtoh(t.ctx, out, d, 16) == WS_SUCCESS);
  if (strstr(body, "add.s32 %%r1")) CHECK_EQ_U64((uint32_t)out[1], 2 * n); /* the adds really ran, twice */
  ws_mem_free(t.ctx, d);
  ws_module_unload(mod);
  free(ptx);
  test_gpu_close(&t);
  return out[0];
}

/* Cycles per instruction of `body`: chains of 64 and 128, the difference / 64. */
static void check_per_inst(const char *const *sets, const char *body, const char *consume, uint64_t want,
                           const char *what) {
  uint64_t a = chain_cycles(sets, body, consume, 64), b = chain_cycles(sets, body, consume, 128);
  if (b - a != 64 * want)
    fprintf(stderr, "%s: 64 more instructions took %llu cycles (64 x %llu = %llu expected)\n", what,
            (unsigned long long)(b - a), (unsigned long long)want, (unsigned long long)(64 * want));
  CHECK_EQ_U64(b - a, 64 * want);
}

#define ADD_CHAIN "  add.s32 %%r1, %%r1, 1; // %u %u\n"
#define ADD_USE "add.s32 %r2, %r1, 0;"
#define SFU_CHAIN "  ex2.approx.f32 %%f1, %%f1; // %u %u\n"
#define SFU_INDEP "  sin.approx.f32 %%f%u, %%f1; // %u\n"
#define F_USE "add.f32 %f0, %f1, 0f00000000;"
#define ADD_INDEP "  add.s32 %%q%u, %%r1, 1; // %u\n"

/* The units' own latencies, without the operand collector stage
 * (sm.reg_banks=0; with it, 2 more cycles per dependent instruction: t206), so with the
 * memory path that needs no collector stage (sm.mem_issue = unit; the presets' collector refuses 0). */
static const char *const no_oc[] = {"sm.reg_banks=0", "sm.mem_issue=unit", NULL};

static void test_alu_chain(void) {
  check_per_inst(no_oc, ADD_CHAIN, ADD_USE, 4, "int add chain (unit.int_add.latency = 4)");
  const char *lat7[] = {"unit.int_add.latency=7", "sm.reg_banks=0", "sm.mem_issue=unit", NULL};
  check_per_inst(lat7, ADD_CHAIN, ADD_USE, 7, "int add chain, latency 7");
}

static void test_sfu_chain(void) {
  check_per_inst(no_oc, SFU_CHAIN, F_USE, 39, "ex2 chain (unit.sfu.latency = 39)");
  const char *lat20[] = {"unit.sfu.latency=20", "sm.reg_banks=0", "sm.mem_issue=unit", NULL};
  check_per_inst(lat20, SFU_CHAIN, F_USE, 20, "ex2 chain, latency 20");
}

static void test_sfu_initiation_interval(void) {
  /* independent SFU instructions: one SFU unit accepts one every unit.sfu.ii = 4 cycles */
  check_per_inst(no_oc, SFU_INDEP, F_USE, 4, "independent sin (unit.sfu.ii = 4)");
  const char *ii6[] = {"unit.sfu.ii=6", "sm.reg_banks=0", "sm.mem_issue=unit", NULL};
  check_per_inst(ii6, SFU_INDEP, F_USE, 6, "independent sin, ii 6");
}

static void test_fetch_rate(void) {
  /* independent adds of one warp: the I-buffer holds 2 instructions and is
   * refilled only when empty (fetch at t, decoded t+1, issue from t+2):
   * 2 instructions every 3 cycles */
  uint64_t a = chain_cycles(no_oc, ADD_INDEP, ADD_USE, 64), b = chain_cycles(no_oc, ADD_INDEP, ADD_USE, 128);
  if (b - a != 96)
    fprintf(stderr, "64 independent adds took %llu cycles (96 expected)\n", (unsigned long long)(b - a));
  CHECK_EQ_U64(b - a, 96);
}

/* ---- L1D MSHRs: reservation failures and merges, seen from the SM ---- */

/* out[tid] = a[(tid & mask) * stride] */
static const char spread_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry spread(.param .u64 a, .param .u64 out, .param .u32 stride, .param .u32 mask)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u32 %r2, [stride];\n  ld.param.u32 %r6, [mask];\n"
    "  and.b32 %r5, %r1, %r6;\n  mul.lo.u32 %r3, %r5, %r2;\n  mul.wide.u32 %rd3, %r3, 4;\n"
    "  ld.param.u64 %rd1, [a];\n  add.s64 %rd4, %rd1, %rd3;\n  ld.global.u32 %r4, [%rd4];\n"
    "  ld.param.u64 %rd2, [out];\n  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.u32 [%rd6], %r4;\n  ret;\n}\n";

typedef struct SpreadRun {
  uint64_t cycles;
  CacheStats l1; /* summed over the SMs */
  int ok;
} SpreadRun;

static SpreadRun run_spread(const char *const *sets, unsigned threads, unsigned stride, unsigned mask) {
  SpreadRun res = {0};
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return res;
  }
  WsModule *mod;
  WsFunction *fn;
  WsDevPtr d_a = 0, d_out = 0;
  if (test_gpu_load(&t, &mod, &fn, spread_ptx, "spread")) {
    CHECK(0);
    test_gpu_close(&t);
    return res;
  }
  enum { NA = 32 * 1024 };
  uint32_t *a = malloc(NA * 4), got[1024];
  for (uint32_t i = 0; i < NA; i++) a[i] = i * 7 + 1;
  CHECK(ws_mem_alloc(t.ctx, &d_a, NA * 4) == WS_SUCCESS);
  CHECK(ws_mem_alloc(t.ctx, &d_out, threads * 4) == WS_SUCCESS);
  ws_memcpy_htod(t.ctx, d_a, a, NA * 4);
  void *params[] = {&d_a, &d_out, &stride, &mask};
  CHECK(ws_launch_kernel(fn, 1, 1, 1, threads, 1, 1, 0, params) == WS_SUCCESS);
  ws_memcpy_dtoh(t.ctx, got, d_out, threads * 4);
  res.ok = 1;
  for (uint32_t i = 0; i < threads; i++) res.ok &= got[i] == a[(i & mask) * stride];
  res.cycles = ws_ctx_last_stats(t.ctx)->cycles;
  MemSys *ms = (MemSys *)gpu_memsys(t.gpu);
  for (uint32_t i = 0; i < memsys_sms(ms); i++) cache_stats_add(&res.l1, cache_stats(memsys_l1d(ms, i)));
  free(a);
  ws_mem_free(t.ctx, d_a);
  ws_mem_free(t.ctx, d_out);
  ws_module_unload(mod);
  test_gpu_close(&t);
  return res;
}

static void test_mshr_reservation_fail(void) {
  /* one warp touching 32 lines (128 B apart): 32 MSHRs take them all at
   * once, 8 MSHRs make the LD/ST unit stall on no_mshr and retry; the load
   * then needs 4 DRAM round trips instead of 1 (the later ones hit open rows
   * and carry fewer lines each: at least 2.5 x 220 cycles more) */
  const char *m32[] = {"l1d.mshr_entries=32", NULL}, *m8[] = {"l1d.mshr_entries=8", NULL};
  SpreadRun a = run_spread(m32, 32, 32, 31), b = run_spread(m8, 32, 32, 31);
  CHECK(a.ok && b.ok);
  CHECK_EQ_U64(a.l1.read_misses, 32);
  CHECK_EQ_U64(b.l1.read_misses, 32);
  CHECK_EQ_U64(a.l1.resfail[CACHE_FAIL_NO_MSHR], 0);
  CHECK(b.l1.resfail[CACHE_FAIL_NO_MSHR] > 0);
  if (b.cycles < a.cycles + 550)
    fprintf(stderr, "8 MSHRs: %llu cycles, 32 MSHRs: %llu\n", (unsigned long long)b.cycles,
            (unsigned long long)a.cycles);
  CHECK(b.cycles >= a.cycles + 550);
}

static void test_mshr_merge(void) {
  /* two warps load the same line: one miss, one MSHR merge, one fill */
  SpreadRun a = run_spread(NULL, 64, 1, 31);
  CHECK(a.ok);
  CHECK_EQ_U64(a.l1.read_misses, 1);
  CHECK_EQ_U64(a.l1.read_merges, 1);
  CHECK_EQ_U64(a.l1.fills, 1);
  /* no merging allowed (1 request per MSHR): the second warp fails with
   * merge_limit until the fill, then hits */
  const char *nomerge[] = {"l1d.mshr_max_merge=1", NULL};
  SpreadRun b = run_spread(nomerge, 64, 1, 31);
  CHECK(b.ok);
  CHECK_EQ_U64(b.l1.read_misses, 1);
  CHECK_EQ_U64(b.l1.read_merges, 0);
  CHECK(b.l1.resfail[CACHE_FAIL_MERGE_LIMIT] > 0);
  CHECK_EQ_U64(b.l1.read_hits, 1);
}

/* ---- determinism, idle-cycle skipping ---- */

static char *run_benches(const char *const *sets, const char *const *names, uint64_t *cycles) {
  return test_run_benches(NULL, sets, names, cycles);
}

static void test_determinism(void) {
  const char *names[] = {"bfs", "btree", NULL};
  uint64_t c1 = 0, c2 = 0;
  char *a = run_benches(NULL, names, &c1), *b = run_benches(NULL, names, &c2);
  CHECK(a && b);
  CHECK(c1 > 0);
  CHECK_EQ_U64(c1, c2);
  if (a && b) CHECK(!strcmp(a, b));
  free(a);
  free(b);
}

static void test_skip_idle_identical(void) {
  /* pchase: long idle waits on DRAM; histo: atomics and shared memory; srad_v1: barriers;
   * bfs: divergence and MSHR stalls; btree: I-cache misses; kmeans: a saturated memory system
   * (predicted-quiet LD/ST retries, partitions blocked on the reply network). Off also disables
   * the SM's quiet cycles and stage memos and the partitions' sleep. */
  const char *names[] = {"pchase", "histo", "srad_v1", "bfs", "btree", "kmeans", NULL};
  const char *off[] = {"sm.skip_idle_cycles=false", NULL};
  uint64_t c1 = 0, c2 = 0;
  char *a = run_benches(NULL, names, &c1), *b = run_benches(off, names, &c2);
  CHECK(a && b);
  CHECK_EQ_U64(c1, c2);
  if (a && b) CHECK(test_json_same("t201 benchmarks", a, b));
  free(a);
  free(b);
}

/* A probe warp scheduler that uses every hook the engine drives: tick counts
 * cycles and the CTA limit alternates with it (1 CTA per SM for 2000 cycles,
 * then the occupancy), events flip the order between oldest and youngest
 * first. A tick, an event or a CTA-limit query the engine skipped or added
 * would change dispatch or issue order, hence cycles and statistics. */
typedef struct Probe {
  uint32_t nsched;
  uint64_t ticks, events;
} Probe;
static int probe_init(void **st, const WarpSchedEnv *env, char *err, size_t errlen) {
  Probe *p = calloc(1, sizeof *p);
  if (!p) return snprintf(err, errlen, "out of memory"), -1;
  p->nsched = env->nsched;
  *st = p;
  return 0;
}
static void probe_free(void *st) { free(st); }
static uint32_t probe_order(void *st, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                            uint64_t cycle, uint32_t *out) {
  Probe *p = st;
  uint32_t n = sched_collect_by_age(v, nslots, sched, p->nsched, out);
  if (p->events & 1)
    for (uint32_t i = 0; i < n / 2; i++) {
      uint32_t t = out[i];
      out[i] = out[n - 1 - i];
      out[n - 1 - i] = t;
    }
  return n;
}
static void probe_event(void *st, const SchedEvent *ev) { ((Probe *)st)->events++; }
static void probe_tick(void *st, uint64_t cycle) { ((Probe *)st)->ticks++; }
static uint32_t probe_cta_limit(void *st) { return (((Probe *)st)->ticks / 2000) % 2 ? 8 : 1; }
static const WarpSchedPolicy probe_policy = {.name = "t201-probe",
                                             .init = probe_init,
                                             .free = probe_free,
                                             .order = probe_order,
                                             .on_event = probe_event,
                                             .tick = probe_tick,
                                             .cta_limit = probe_cta_limit};

static void test_skip_idle_identical_hooks(void) {
  const char *on[] = {"sched.policy=t201-probe", NULL};
  const char *off[] = {"sched.policy=t201-probe", "sm.skip_idle_cycles=false", NULL};
  const char *names[] = {"kmeans", "bfs", "srad_v1", NULL};
  uint64_t c1 = 0, c2 = 0, c3 = 0;
  char *a = run_benches(on, names, &c1), *b = run_benches(off, names, &c2);
  char *g = run_benches(NULL, names, &c3); /* the probe does change the schedule */
  CHECK(a && b && g);
  CHECK_EQ_U64(c1, c2);
  CHECK(c1 != c3);
  if (a && b) CHECK(!strcmp(a, b));
  free(a);
  free(b);
  free(g);
}

/* A lazy ticker (next_tick), as a decaying score would be: every L1D miss
 * adds 40 cycles to a budget that decays by one a cycle, accounted from the
 * cycles elapsed; while the budget lasts the order is youngest first. It asks
 * to be ticked when the budget runs out, so its SM may stay quiet and
 * skipped in between; with the shortcuts off it is ticked every cycle. The
 * schedule must not depend on which. */
typedef struct Lazy {
  uint32_t nsched;
  uint64_t last, budget;
} Lazy;
static uint64_t lazy_ticks;
static int lazy_init(void **st, const WarpSchedEnv *env, char *err, size_t errlen) {
  Lazy *p = calloc(1, sizeof *p);
  if (!p) return snprintf(err, errlen, "out of memory"), -1;
  p->nsched = env->nsched;
  *st = p;
  return 0;
}
static void lazy_advance(Lazy *p, uint64_t cycle) {
  if (cycle <= p->last) return;
  uint64_t d = cycle - p->last;
  p->budget = p->budget > d ? p->budget - d : 0;
  p->last = cycle;
}
static uint32_t lazy_order(void *st, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                           uint64_t cycle, uint32_t *out) {
  Lazy *p = st;
  uint32_t n = sched_collect_by_age(v, nslots, sched, p->nsched, out);
  if (p->budget)
    for (uint32_t i = 0; i < n / 2; i++) {
      uint32_t t = out[i];
      out[i] = out[n - 1 - i];
      out[n - 1 - i] = t;
    }
  return n;
}
static void lazy_event(void *st, const SchedEvent *ev) {
  Lazy *p = st;
  lazy_advance(p, ev->cycle);
  if (ev->kind == SCHED_EV_L1_MISS) p->budget += 40;
}
static void lazy_tick(void *st, uint64_t cycle) {
  lazy_ticks++;
  lazy_advance(st, cycle);
}
static uint64_t lazy_next(void *st, uint64_t now) {
  const Lazy *p = st;
  return p->budget ? now + p->budget : UINT64_MAX;
}
static const WarpSchedPolicy lazy_policy = {.name = "t201-lazy",
                                            .init = lazy_init,
                                            .free = probe_free,
                                            .order = lazy_order,
                                            .on_event = lazy_event,
                                            .tick = lazy_tick,
                                            .hints = &(const PolicyEngineHints){.next_tick = lazy_next}};

static void test_skip_idle_identical_lazy_tick(void) {
  const char *on[] = {"sched.policy=t201-lazy", NULL};
  const char *off[] = {"sched.policy=t201-lazy", "sm.skip_idle_cycles=false", NULL};
  const char *names[] = {"kmeans", "bfs", "pchase", NULL};
  uint64_t c1 = 0, c2 = 0, c3 = 0;
  lazy_ticks = 0;
  char *a = run_benches(on, names, &c1);
  uint64_t ticks_on = lazy_ticks;
  lazy_ticks = 0;
  char *b = run_benches(off, names, &c2);
  uint64_t ticks_off = lazy_ticks;
  char *g = run_benches(NULL, names, &c3); /* the budget does change the schedule */
  CHECK(a && b && g);
  CHECK_EQ_U64(c1, c2);
  CHECK(c1 != c3);
  if (a && b) CHECK(!strcmp(a, b));
  CHECK(ticks_on > 0);
  CHECK(ticks_on < ticks_off); /* quiet cycles were skipped, not ticked */
  free(a);
  free(b);
  free(g);
}

/* ---- deadlock, barriers ---- */

static void test_deadlock_reported(void) {
  const char *sets[] = {"sm.deadlock_cycles=5000", NULL};
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return;
  }
  char *ptx =
      test_read_file("tests/kernels/cli_deadlock.ptx"); /* warp 0 waits at bar.sync 1, 64; warp 1 exits */
  CHECK(ptx != NULL);
  WsModule *mod;
  WsFunction *fn;
  WsDevPtr d = 0;
  if (!ptx || test_gpu_load(&t, &mod, &fn, ptx, "stuck")) {
    CHECK(0);
    free(ptx);
    test_gpu_close(&t);
    return;
  }
  CHECK(ws_mem_alloc(t.ctx, &d, 4) == WS_SUCCESS);
  void *params[] = {&d};
  WsResult rc = ws_launch_kernel(fn, 1, 1, 1, 64, 1, 1, 0, params);
  CHECK(rc == WS_ERROR_DEADLOCK);
  const char *e = ws_ctx_error(t.ctx);
  CHECK_STR_CONTAINS(e, "kernel stuck: deadlock");
  CHECK_STR_CONTAINS(e, "barrier 1 has 1 of 2 warps (warps 0 wait)");
  CHECK_STR_CONTAINS(e, "warp slot 0 (CTA 0 warp 0)");
  CHECK_STR_CONTAINS(e, "barrier");
  ws_mem_free(t.ctx, d);
  ws_module_unload(mod);
  free(ptx);
  /* the stuck CTA's SM starts the next kernel clean: a vector add over every SM is right */
  char *ptx2 = test_read_file("tests/kernels/cli_basic.ptx");
  CHECK(ptx2 != NULL);
  if (ptx2 && !test_gpu_load(&t, &mod, &fn, ptx2, "vadd")) {
    enum { N = 8192 };
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = (float)(2 * i), c[i] = -1.0f;
    WsDevPtr da = 0, db = 0, dc = 0;
    int n = N;
    CHECK(ws_mem_alloc(t.ctx, &da, sizeof a) == WS_SUCCESS &&
          ws_mem_alloc(t.ctx, &db, sizeof b) == WS_SUCCESS &&
          ws_mem_alloc(t.ctx, &dc, sizeof c) == WS_SUCCESS);
    CHECK(ws_memcpy_htod(t.ctx, da, a, sizeof a) == WS_SUCCESS &&
          ws_memcpy_htod(t.ctx, db, b, sizeof b) == WS_SUCCESS);
    void *p2[] = {&da, &db, &dc, &n};
    CHECK(ws_launch_kernel(fn, N / 128, 1, 1, 128, 1, 1, 0, p2) == WS_SUCCESS);
    CHECK(ws_memcpy_dtoh(t.ctx, c, dc, sizeof c) == WS_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += c[i] != (float)(3 * i);
    CHECK_EQ_U64(bad, 0);
    ws_module_unload(mod);
  } else {
    CHECK(0);
  }
  free(ptx2);
  test_gpu_close(&t);
}

/* 8 warps meet at one barrier, then each thread writes its id. */
static const char bar_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry meet(.param .u64 out)\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n  bar.sync 0;\n"
    "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r1, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1;\n  ret;\n}\n";

static void run_barrier_kernel(const char *const *sets) {
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return;
  }
  WsModule *mod;
  WsFunction *fn;
  WsDevPtr d = 0;
  if (test_gpu_load(&t, &mod, &fn, bar_ptx, "meet")) {
    CHECK(0);
    test_gpu_close(&t);
    return;
  }
  CHECK(ws_mem_alloc(t.ctx, &d, 256 * 4) == WS_SUCCESS);
  ws_memset_d32(t.ctx, d, 0xFFFFFFFFu, 256);
  void *params[] = {&d};
  WsResult rc = ws_launch_kernel(fn, 1, 1, 1, 256, 1, 1, 0, params);
  if (rc != WS_SUCCESS) fprintf(stderr, "%s: %.300s\n", sets ? sets[1] : "", ws_ctx_error(t.ctx));
  CHECK(rc == WS_SUCCESS);
  uint32_t got[256];
  ws_memcpy_dtoh(t.ctx, got, d, sizeof got);
  int bad = 0;
  for (uint32_t i = 0; i < 256; i++) bad += got[i] != i;
  CHECK(rc != WS_SUCCESS || bad == 0);
  ws_mem_free(t.ctx, d);
  ws_module_unload(mod);
  test_gpu_close(&t);
}

static void test_barrier_every_scheduler(void) {
  const char *const cfgs[][4] = {
      {"sched.policy=lrr", NULL},
      {"sched.policy=gto", NULL},
      {"sched.policy=old", NULL},
      {"sched.policy=two-level", "sched.two-level.group_size=2", NULL},
      {"sched.policy=swl", "sched.swl.limit=1", NULL},
  };
  for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) run_barrier_kernel(cfgs[i]);
  for (const PolicyEntry *e = policy_registry; e->name;
       e++) { /* and every scheduler of the registry with its defaults */
    if (e->kind != POLICY_WARP) continue;
    char set[96];
    snprintf(set, sizeof set, "sched.policy=%s", e->name);
    const char *sets[] = {set, NULL};
    run_barrier_kernel(sets);
  }
}

/* two-level strict with groups of 2: scheduler 0's first group (warps 0, 2)
 * arrives at the barrier, which needs warps 4 and 6 of the next group; the
 * group is not "stalled on long-latency loads", so it keeps priority and the
 * SM deadlocks (policy/warp/twolevel.c group_live). */
static void test_barrier_two_level_strict(void) {
  const char *sets[] = {"sched.policy=two-level", "sched.two-level.strict=true",
                        "sched.two-level.group_size=2", "sm.deadlock_cycles=5000", NULL};
  run_barrier_kernel(sets);
}

int main(void) {
  CHECK(policy_register(POLICY_WARP, probe_policy.name, &probe_policy) == 0);
  CHECK(policy_register(POLICY_WARP, probe_policy.name, &probe_policy) == -1); /* a name is taken once */
  CHECK(policy_register(POLICY_WARP, lazy_policy.name, &lazy_policy) == 0);
  TEST_RUN(test_occupancy_threads);
  TEST_RUN(test_occupancy_cta_slots);
  TEST_RUN(test_occupancy_registers);
  TEST_RUN(test_occupancy_shared);
  TEST_RUN(test_occupancy_dynamic_shared);
  TEST_RUN(test_occupancy_shared_sum);
  TEST_RUN(test_cta_does_not_fit);
  TEST_RUN(test_alu_chain);
  TEST_RUN(test_sfu_chain);
  TEST_RUN(test_sfu_initiation_interval);
  TEST_RUN(test_fetch_rate);
  TEST_RUN(test_mshr_reservation_fail);
  TEST_RUN(test_mshr_merge);
  TEST_RUN(test_determinism);
  TEST_RUN(test_skip_idle_identical);
  TEST_RUN(test_skip_idle_identical_hooks);
  TEST_RUN(test_skip_idle_identical_lazy_tick);
  TEST_RUN(test_deadlock_reported);
  TEST_RUN(test_barrier_every_scheduler);
  TEST_RUN(test_barrier_two_level_strict);
  return TEST_DONE();
}
