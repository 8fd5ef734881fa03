/* t309_bypass.c - coordinated static/dynamic L1D bypassing:
 * the PTX cache operators decoded and honoured (.cg bypasses, the rest cached);
 * the load CFG's groups on a hand-written kernel; a bypassed load reserves no
 * line and no MSHR and its reply fills no tag; the bypass observer's CTA tags
 * against its target, one sampling period's CHSS and the neighbour search,
 * centralised vs decentralised control (driven through its hooks); the
 * access-level policy bypasses on NO_LINE/NO_MSHR only; whole benchmarks pass
 * their CPU check under every bypass mode and are exact with
 * sm.skip_idle_cycles=false. */
#include <stdlib.h>
#include <unistd.h>

#include "analysis/loadcfg.h"
#include "common/test.h"
#include "common/timing.h"
#include "policy/cache_policy.h"
#include "policy/registry.h"
#include "policy/warp_sched.h"
#include "ptx/ptx.h"

TEST_GLOBALS;

/* ---- 1. cache operators ---- */
static const char cop_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 a)\n{\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [a];\n"
    "  ld.global.u32 %r1, [%rd1];\n"       /* 1: none */
    "  ld.global.ca.u32 %r2, [%rd1];\n"    /* 2 */
    "  ld.global.cg.u32 %r3, [%rd1];\n"    /* 3 */
    "  ld.global.cs.u32 %r4, [%rd1];\n"    /* 4 */
    "  ld.global.lu.u32 %r5, [%rd1];\n"    /* 5 */
    "  ld.global.cv.u32 %r6, [%rd1];\n"    /* 6 */
    "  ld.global.nc.u32 %r7, [%rd1];\n"    /* 7: .nc, no operator */
    "  ld.global.nc.cg.u32 %r8, [%rd1];\n" /* 8 */
    "  st.global.wb.u32 [%rd1], %r1;\n"    /* 9 */
    "  st.global.cg.u32 [%rd1], %r1;\n"    /* 10 */
    "  ret;\n}\n";

static void test_cache_operators_decoded(void) {
  char err[256];
  PtxModule *m = ptx_module_parse(cop_ptx, "cop", err, sizeof err);
  CHECK(m != NULL);
  if (!m) {
    fprintf(stderr, "%s\n", err);
    return;
  }
  const PtxInst *c = &m->code[m->funcs[0].first_pc];
  const PtxCacheOp want[] = {PTX_COP_NONE, PTX_COP_NONE, PTX_COP_CA, PTX_COP_CG, PTX_COP_CS, PTX_COP_LU,
                             PTX_COP_CV,   PTX_COP_NONE, PTX_COP_CG, PTX_COP_WB, PTX_COP_CG};
  for (uint32_t i = 0; i < 11; i++) CHECK_EQ_U64(ptx_cache_op(&c[i]), want[i]);
  CHECK((c[7].flags & PTX_F_NC) && (c[8].flags & PTX_F_NC));
  CHECK(!strcmp(ptx_cache_op_name(PTX_COP_CG), "cg") && !strcmp(ptx_cache_op_name(PTX_COP_NONE), ""));
  ptx_module_free(m, NULL);
  /* two operators on one load is an error, not a silent pick */
  const char bad[] = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n"
                     "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [a];\n"
                     "  ld.global.ca.cg.u32 %r1, [%rd1];\n  ret;\n}\n";
  m = ptx_module_parse(bad, "bad", err, sizeof err);
  CHECK(m == NULL && strstr(err, "two cache operators"));
  ptx_module_free(m, NULL);
}

/* One warp loads a line with operator OP1, then (dependent on its value unless !dep)
 * address +off2 with OP2: the L1D statistics tell whether the first allocated and filled. */
static char *run_loads(const char *op1, const char *op2, int dep, uint32_t off2, const char *const *extra) {
  char ptx[1024];
  if (dep)
    snprintf(ptx, sizeof ptx,
             ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry two(.param .u64 a)\n{\n"
             "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n  ld.param.u64 %%rd1, [a];\n"
             "  ld.global%s.u32 %%r1, [%%rd1];\n  and.b32 %%r2, %%r1, 0;\n  cvt.u64.u32 %%rd2, %%r2;\n"
             "  add.s64 %%rd3, %%rd1, %%rd2;\n  ld.global%s.u32 %%r3, [%%rd3+%u];\n  st.global.u32 "
             "[%%rd1+1024], %%r3;\n"
             "  ret;\n}\n//@warpsim regs two 16\n",
             op1, op2, off2);
  else /* back to back: the second request meets the first one's reserved line */
    snprintf(
        ptx, sizeof ptx,
        ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry two(.param .u64 a)\n{\n"
        "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n  ld.param.u64 %%rd1, [a];\n"
        "  ld.global%s.u32 %%r1, [%%rd1];\n  ld.global%s.u32 %%r3, [%%rd1+%u];\n  add.u32 %%r4, %%r1, %%r3;\n"
        "  st.global.u32 [%%rd1+1024], %%r4;\n  ret;\n}\n//@warpsim regs two 16\n",
        op1, op2, off2);
  const char *sets[16] = {"sm.count=1"};
  int n = 1;
  for (int i = 0; extra && extra[i] && n < 15; i++) sets[n++] = extra[i];
  sets[n] = NULL;
  return test_run_kernel(sets, ptx, "two", 32, NULL, 0);
}

static char *run_two_loads(const char *op1, const char *op2, const char *const *extra) {
  return run_loads(op1, op2, 1, 4, extra);
}

static uint64_t l1d_stat(const char *json, const char *key) { return test_json_u64(json, "\"l1d\": {", key); }

static void test_bypassed_load_allocates_nothing(void) {
  /* .ca then .ca: a miss that reserves a line, then a hit */
  char *j = run_two_loads("", ".ca", NULL);
  CHECK_EQ_U64(l1d_stat(j, "read_misses"), 1);
  CHECK_EQ_U64(l1d_stat(j, "read_hits"), 1);
  CHECK_EQ_U64(l1d_stat(j, "bypasses"), 0);
  free(j);
  /* .cg then .ca: the first goes down without a line or an MSHR (no miss), and its reply
   * leaves no tag behind: the second misses */
  j = run_two_loads(".cg", ".ca", NULL);
  CHECK_EQ_U64(l1d_stat(j, "bypasses"), 1);
  CHECK_EQ_U64(l1d_stat(j, "read_misses"), 1);
  CHECK_EQ_U64(l1d_stat(j, "read_hits"), 0);
  free(j);
  /* every other operator is cached (GPGPU-Sim 3.2.2 bypasses .cg only) */
  const char *ops[] = {".cs", ".lu", ".cv", ".nc", NULL};
  for (int i = 0; ops[i]; i++) {
    j = run_two_loads(ops[i], ops[i], NULL);
    CHECK_EQ_U64(l1d_stat(j, "bypasses"), 0);
    CHECK_EQ_U64(l1d_stat(j, "read_hits"), 1);
    free(j);
  }
  /* l1d.bypass_cg=false: .cg cached too */
  const char *nb[] = {"l1d.bypass_cg=false", NULL};
  j = run_two_loads(".cg", ".cg", nb);
  CHECK_EQ_U64(l1d_stat(j, "bypasses"), 0);
  CHECK_EQ_U64(l1d_stat(j, "read_hits"), 1);
  free(j);
  /* the observer's class file does the same to an unmarked load (kernel two, PC 1: cg) */
  char path[64];
  snprintf(path, sizeof path, "/tmp/t306-%ld.cls", (long)getpid());
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fprintf(f, "# test\ntwo 1 cg\ntwo 5 ca\n");
  fclose(f);
  char set[128];
  snprintf(set, sizeof set, "observer.bypass.classes=%s", path);
  const char *obs[] = {"sm.observers=bypass", set, NULL};
  j = run_two_loads("", "", obs);
  CHECK_EQ_U64(l1d_stat(j, "bypasses"), 1);
  CHECK_EQ_U64(l1d_stat(j, "read_misses"), 1);
  CHECK(j && strstr(j, "\"loads_cg_bypassed\": 1") && strstr(j, "\"loads_ca_cached\": 1"));
  free(j);
  remove(path);
}

/* One warp's load of lanes at a + 4 * (tid & mask), then a store: the statistics. */
static char *run_sized_load(const char *op, uint32_t mask) {
  char ptx[1024];
  snprintf(ptx, sizeof ptx,
           ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry sz(.param .u64 a)\n{\n"
           "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<8>;\n  ld.param.u64 %%rd1, [a];\n  mov.u32 %%r1, %%tid.x;\n"
           "  and.b32 %%r2, %%r1, %u;\n  mul.wide.u32 %%rd2, %%r2, 4;\n  add.s64 %%rd3, %%rd1, %%rd2;\n"
           "  ld.global%s.u32 %%r3, [%%rd3];\n  st.global.u32 [%%rd1+1024], %%r3;\n  ret;\n}\n//@warpsim "
           "regs sz 16\n",
           mask, op);
  const char *sets[] = {"sm.count=1", NULL};
  return test_run_kernel(sets, ptx, "sz", 32, NULL, 0);
}
static double load_latency(const char *json) { return test_json_f64(json, NULL, "avg_load_latency_cycles"); }

/* A load the L1 does not allocate for brings back only the 32, 64 or 128-byte block its lanes
 * touch (GPGPU-Sim 3.2.2's coalescer sizes; an SM port takes one 32-byte flit a cycle, a reply has
 * an 8-byte header): 2, 3 or 5 flits. A miss the L1 allocates for brings the whole line (5). */
static void test_bypass_reply_size(void) {
  double cg[3], ca[2];
  const uint32_t masks[3] = {0, 15, 31}; /* 4, 64 and 128 bytes touched */
  for (int i = 0; i < 3; i++) {
    char *j = run_sized_load(".cg", masks[i]);
    cg[i] = load_latency(j);
    CHECK_EQ_U64(l1d_stat(j, "bypasses"), 1);
    free(j);
  }
  for (int i = 0; i < 2; i++) {
    char *j = run_sized_load("", masks[2 * i]);
    ca[i] = load_latency(j);
    CHECK_EQ_U64(l1d_stat(j, "read_misses"), 1);
    free(j);
  }
  CHECK(cg[0] > 0 && ca[0] > 0);
  CHECK(cg[1] == cg[0] + 1 && cg[2] == cg[0] + 3);
  CHECK(ca[0] == ca[1]);
  if (!(cg[1] == cg[0] + 1 && cg[2] == cg[0] + 3 && ca[0] == ca[1]))
    fprintf(stderr, "latencies: cg %.1f %.1f %.1f, ca %.1f %.1f\n", cg[0], cg[1], cg[2], ca[0], ca[1]);
}

/* ---- 2. the load CFG ---- */
/* loads of a (param 0) and b (param 1):
 *  L0 a[i]   L1 a[i+1] (straight after: grouped with L0)   L2 b[i] (another array)
 *  loop: L3 a[j] (behind a loop header: not grouped with L0/L1)  L4 a[j+1] (same iteration: with L3)
 *  bar.sync   L5 a[i+2] (behind a barrier)   L6 *(p) where p = a[i] loaded (unknown array) */
static const char cfg_ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry g(.param .u64 a, .param .u64 b, .param .u32 n)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n  ld.param.u32 %r1, [n];\n"    /* 0 1 2 */
    "  cvta.to.global.u64 %rd3, %rd1;\n  cvta.to.global.u64 %rd4, %rd2;\n"                /* 3 4 */
    "  mov.u32 %r2, %tid.x;\n  mul.wide.u32 %rd5, %r2, 4;\n  add.s64 %rd6, %rd3, %rd5;\n" /* 5 6 7 */
    "  ld.global.u32 %r3, [%rd6];\n  ld.global.u32 %r4, [%rd6+4];\n"                      /* 8 L0, 9 L1 */
    "  add.s64 %rd7, %rd4, %rd5;\n  ld.global.u32 %r5, [%rd7];\n"                         /* 10, 11 L2 */
    "  mov.u32 %r6, 0;\n"                                                                 /* 12 */
    "$L_loop:\n  mul.wide.u32 %rd8, %r6, 4;\n  add.s64 %rd9, %rd3, %rd8;\n"               /* 13 14 */
    "  ld.global.u32 %r7, [%rd9];\n  ld.global.u32 %r8, [%rd9+4];\n"                      /* 15 L3, 16 L4 */
    "  add.u32 %r6, %r6, 1;\n  setp.lt.u32 %p1, %r6, %r1;\n  @%p1 bra $L_loop;\n"         /* 17 18 19 */
    "  bar.sync 0;\n  ld.global.u32 %r9, [%rd6+8];\n"                                     /* 20, 21 L5 */
    "  cvt.u64.u32 %rd10, %r3;\n  ld.global.u32 %r10, [%rd10];\n"                         /* 22, 23 L6 */
    "  ret;\n}\n";

static void test_load_cfg_groups(void) {
  char err[256];
  PtxModule *m = ptx_module_parse(cfg_ptx, "g", err, sizeof err);
  CHECK(m != NULL);
  if (!m) {
    fprintf(stderr, "%s\n", err);
    return;
  }
  LcfgKernel k;
  CHECK(lcfg_build(m, 0, &k) == 0);
  CHECK_EQ_U64(k.nloads, 7);
  if (k.nloads == 7) {
    const uint32_t pcs[] = {8, 9, 11, 15, 16, 21, 23};
    const int32_t arr[] = {0, 0, 1, 0, 0, 0, -1};
    for (int i = 0; i < 7; i++) {
      CHECK_EQ_U64(k.loads[i].pc, pcs[i]);
      CHECK_EQ_U64((uint64_t)(int64_t)k.loads[i].array, (uint64_t)(int64_t)arr[i]);
    }
    CHECK(!strcmp(lcfg_array_name(m, &k, 0), "a") && !strcmp(lcfg_array_name(m, &k, -1), "?"));
    /* groups: {L0,L1} {L2} {L3,L4} {L5} {L6} */
    CHECK_EQ_U64(k.ngroups, 5);
    CHECK(k.loads[0].group == k.loads[1].group);
    CHECK(k.loads[2].group != k.loads[0].group);
    CHECK(k.loads[3].group == k.loads[4].group && k.loads[3].group != k.loads[0].group);
    CHECK(k.loads[5].group != k.loads[0].group && k.loads[5].group != k.loads[3].group);
    CHECK(k.loads[6].group != k.loads[0].group && k.loads[6].group != k.loads[5].group);
    CHECK_EQ_U64(k.group_size[k.loads[0].group], 2);
    CHECK_EQ_U64(k.group_size[k.loads[5].group], 1);
  }
  lcfg_free(&k);
  ptx_module_free(m, NULL);
}

/* ---- 3. the dynamic controller through its hooks ---- */
typedef struct Ctl {
  TestGpu t;
  PolicyGpu *gpu;
  const SmObserver *o;
  void *st[2];
  PolicyKernel k;
} Ctl;

static int ctl_open(Ctl *c, const char *const *sets, uint32_t tb_max, int nsm) {
  memset(c, 0, sizeof *c);
  if (test_gpu_open(&c->t, sets)) return -1;
  c->gpu = policy_gpu_create();
  c->o = policy_find_observer("bypass");
  if (!c->gpu || !c->o) return -1;
  c->k = (PolicyKernel){
      .name = "kk", .npc = 16, .warps_per_cta = 2, .max_ctas_per_sm = tb_max, .ctas_total = 100};
  policy_gpu_set_kernel(c->gpu, &c->k);
  for (int s = 0; s < nsm; s++) {
    WarpSchedEnv env = {.sm = (uint32_t)s,
                        .nsched = 2,
                        .max_warps = 48,
                        .max_ctas = 8,
                        .prefix = "observer.bypass",
                        .cfg = c->t.cfg,
                        .gpu = c->gpu,
                        .kernel = &c->k};
    char err[256];
    if (c->o->init(&c->st[s], &env, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      return -1;
    }
    SchedEvent ev = {
        .kind = SCHED_EV_KERNEL_BEGIN, .slot = UINT32_MAX, .cta_slot = UINT32_MAX, .kernel = &c->k};
    c->o->on_event(c->st[s], &ev);
  }
  return 0;
}
static void ctl_close(Ctl *c, int nsm) {
  for (int s = 0; s < nsm; s++)
    if (c->st[s]) c->o->free(c->st[s]);
  policy_gpu_free(c->gpu);
  test_gpu_close(&c->t);
}
static void ev(Ctl *c, int sm, SchedEventKind kind, uint32_t cta, uint64_t cycle) {
  SchedEvent e = {.kind = kind,
                  .slot = 0,
                  .cycle = cycle,
                  .cta_slot = cta,
                  .cta_id = cta,
                  .nwarps = 2,
                  .other_slot = -1,
                  .kernel = &c->k};
  c->o->on_event(c->st[sm], &e);
}
/* A CTA's launch with its 2 warps. */
static void launch(Ctl *c, int sm, uint32_t cta, uint64_t cycle) {
  ev(c, sm, SCHED_EV_CTA_LAUNCH, cta, cycle);
  ev(c, sm, SCHED_EV_WARP_LAUNCH, cta, cycle);
  ev(c, sm, SCHED_EV_WARP_LAUNCH, cta, cycle);
}
static void retire(Ctl *c, int sm, uint32_t cta, uint64_t cycle) {
  ev(c, sm, SCHED_EV_WARP_EXIT, cta, cycle);
  ev(c, sm, SCHED_EV_WARP_EXIT, cta, cycle);
  ev(c, sm, SCHED_EV_CTA_EXIT, cta, cycle);
}
/* Does a cm load (PC 3, unlisted: default cm) of CTA slot `cta` bypass? */
static int bypasses(Ctl *c, int sm, uint32_t cta) {
  WarpView v = {.cta_slot = cta, .valid = 1};
  SchedMemAnnot a = {.pc = 3, .kind = WINST_GLOBAL_LOAD, .access_class = MEM_CLASS_CA, .nreq = 1};
  c->o->annotate(c->st[sm], &v, &a);
  return a.access_class == MEM_CLASS_CG;
}
/* hits L1 hits, then one request failing from `fail_at` to `fail_at + stall` */
static void traffic(Ctl *c, int sm, uint32_t hits, uint64_t fail_at, uint64_t stall) {
  for (uint32_t i = 0; i < hits; i++) ev(c, sm, SCHED_EV_L1_HIT, 0, fail_at);
  ev(c, sm, SCHED_EV_L1_RESFAIL, 0, fail_at);
  ev(c, sm, SCHED_EV_L1_MISS, 0, fail_at + stall);
}

static void test_cta_tags_follow_target(void) {
  Ctl c;
  const char *sets[] = {NULL};
  CHECK(ctl_open(&c, sets, 3, 1) == 0);
  /* TB_bg starts at TB_max = 3: the first three CTAs are bg, then ba while three bg are live */
  launch(&c, 0, 0, 10), launch(&c, 0, 1, 10), launch(&c, 0, 2, 10);
  CHECK(bypasses(&c, 0, 0) && bypasses(&c, 0, 1) && bypasses(&c, 0, 2));
  launch(&c, 0, 3, 11);
  CHECK(!bypasses(&c, 0, 3));
  /* a ba CTA retiring does not free a bg place; a bg one does (and ends the period of CTA 2 only) */
  retire(&c, 0, 3, 20), launch(&c, 0, 3, 21);
  CHECK(!bypasses(&c, 0, 3));
  retire(&c, 0, 0, 30), launch(&c, 0, 0, 31);
  CHECK(bypasses(&c, 0, 0));
  /* a ca/cg load ignores the tags */
  WarpView v = {.cta_slot = 0, .valid = 1};
  SchedMemAnnot st = {.pc = 3, .kind = WINST_GLOBAL_STORE, .is_write = 1, .access_class = MEM_CLASS_CA};
  c.o->annotate(c.st[0], &v, &st);
  CHECK_EQ_U64(st.access_class, MEM_CLASS_CA); /* stores are left alone */
  ctl_close(&c, 1);
}

static void test_sampling_period_chss_and_search(void) {
  char path[64], set[128];
  snprintf(path, sizeof path, "/tmp/t306-%ld.series", (long)getpid());
  snprintf(set, sizeof set, "observer.bypass.series=%s", path);
  const char *sets[] = {set, NULL};
  Ctl c;
  CHECK(ctl_open(&c, sets, 2, 1) == 0);
  /* TB_bg = 2: CTAs 0 and 1 bg; the period is CTA 1's lifetime (the target holds from its launch) */
  launch(&c, 0, 0, 100);
  traffic(&c, 0, 5, 100, 7); /* before the period: not counted */
  launch(&c, 0, 1, 200);
  traffic(&c, 0, 30, 210, 10); /* 30 hits, 10 stall cycles, 4 warps all along */
  retire(&c, 0, 1, 400);
  /* CHSS[2] = 30 * 120 / (10 * 4) = 90; TB_bg - 1 = 1 was never measured: explored next */
  launch(&c, 0, 1, 401); /* one bg live (CTA 0) = TB_bg 1: ba; the next period is CTA 1's */
  CHECK(!bypasses(&c, 0, 1) && bypasses(&c, 0, 0));
  traffic(&c, 0, 10, 410, 10); /* CHSS[1] = 10 * 120 / (10 * 4) = 30 */
  retire(&c, 0, 1, 500);
  /* neighbours of 1: 0 unmeasured: explored */
  retire(&c, 0, 0, 510);
  launch(&c, 0, 0, 520); /* TB_bg 0: ba, and the target holds: period */
  CHECK(!bypasses(&c, 0, 0));
  traffic(&c, 0, 20, 530, 10); /* 2 warps: CHSS[0] = 20 * 120 / (10 * 2) = 120 */
  retire(&c, 0, 0, 600);
  /* best of {0: 120, 1: 30}: stays at 0 */
  launch(&c, 0, 0, 610);
  CHECK(!bypasses(&c, 0, 0));
  traffic(&c, 0, 1, 620, 10); /* CHSS[0] = 1 * 120 / (10 * 2) = 6 < CHSS[1] = 30: back to 1 */
  retire(&c, 0, 0, 700);
  launch(&c, 0, 0, 710);
  CHECK(bypasses(&c, 0, 0));
  ctl_close(&c, 1); /* writes the series */
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (!f) return;
  char buf[1024] = "";
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  remove(path);
  CHECK(strstr(buf, "kk 0 400 1 90\n") && strstr(buf, "kk 0 500 0 30\n") && strstr(buf, "kk 0 600 0 120\n") &&
        strstr(buf, "kk 0 700 1 6\n"));
  if (!strstr(buf, "kk 0 700 1 6\n")) fprintf(stderr, "series:\n%s", buf);
}

static void test_central_vs_decentral(void) {
  for (int central = 1; central >= 0; central--) {
    const char *sets[] = {central ? "observer.bypass.central=true" : "observer.bypass.central=false", NULL};
    Ctl c;
    CHECK(ctl_open(&c, sets, 1, 2) == 0);
    /* SM 0 completes a period at TB_bg = 1 and moves to 0 */
    launch(&c, 0, 0, 10);
    traffic(&c, 0, 3, 20, 5);
    retire(&c, 0, 0, 50);
    /* SM 1 has learnt nothing: central, it follows SM 0 (TB_bg 0: ba); decentral, its own TB_bg is 1 (bg) */
    launch(&c, 1, 0, 60);
    CHECK_EQ_U64(bypasses(&c, 1, 0), central ? 0 : 1);
    /* central: SM 1 never learns (its CTA lifetimes are no period) */
    retire(&c, 1, 0, 100), launch(&c, 1, 0, 110);
    CHECK_EQ_U64(bypasses(&c, 1, 0), 0); /* decentral: SM 1's own period (no stall) moved it to 0 */
    ctl_close(&c, 2);
  }
}

/* observer.bypass.tb_bg = N fixes the target (the paper's Figure 3b): no learning, capped at TB_max */
static void test_fixed_tb_bg(void) {
  char path[64], set[128];
  snprintf(path, sizeof path, "/tmp/t309-fixed-%ld.series", (long)getpid());
  snprintf(set, sizeof set, "observer.bypass.series=%s", path);
  const char *sets[] = {"observer.bypass.tb_bg=1", set, NULL};
  Ctl c;
  CHECK(ctl_open(&c, sets, 3, 2) == 0);
  launch(&c, 0, 0, 10), launch(&c, 0, 1, 10), launch(&c, 0, 2, 10);
  CHECK(bypasses(&c, 0, 0) && !bypasses(&c, 0, 1) && !bypasses(&c, 0, 2));
  launch(&c, 1, 0, 10), launch(&c, 1, 1, 10); /* central: SM 1 follows the same fixed target */
  CHECK(bypasses(&c, 1, 0) && !bypasses(&c, 1, 1));
  /* CTA 0's lifetime would be a sampling period (learning would explore TB_bg 0 next): the target stays 1 */
  traffic(&c, 0, 30, 20, 10);
  retire(&c, 0, 0, 100), launch(&c, 0, 0, 110);
  CHECK(bypasses(&c, 0, 0));
  retire(&c, 0, 0, 200), launch(&c, 0, 0, 210);
  CHECK(bypasses(&c, 0, 0));
  ctl_close(&c, 2); /* writes the series: its header and no period */
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (f) {
    char buf[512] = "";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECK(buf[0] == '#' && strchr(buf, '\n') == buf + n - 1);
  }
  remove(path);
  /* above TB_max: every place bg (TB_max 3) */
  const char *sets8[] = {"observer.bypass.tb_bg=8", NULL};
  CHECK(ctl_open(&c, sets8, 3, 1) == 0);
  for (uint32_t i = 0; i < 4; i++) launch(&c, 0, i, 10);
  CHECK(bypasses(&c, 0, 0) && bypasses(&c, 0, 1) && bypasses(&c, 0, 2) && !bypasses(&c, 0, 3));
  ctl_close(&c, 1);
}

/* ---- 4. access-level bypassing ---- */
static void test_access_level_only_no_line_no_mshr(void) {
  const CachePolicy *p = policy_find_cache("bypass-access");
  CHECK(p && p->bypass_on_fail);
  if (!p) return;
  MemRequest r = {.line_addr = 128, .bytes = 4};
  for (int why = CACHE_FAIL_NO_LINE; why < CACHE_FAIL__COUNT; why++)
    CHECK_EQ_U64(p->bypass_on_fail(NULL, &r, (CacheFailReason)why),
                 why == CACHE_FAIL_NO_LINE || why == CACHE_FAIL_NO_MSHR);
  /* in an L1D of one line: two independent loads of two lines, the second finds the only way
   * reserved (NO_LINE); of two ways and one MSHR: no MSHR. Both bypass under bypass-access and stall under
   * lru */
  const char *cases[][5] = {{"l1d.size=128", "l1d.assoc=1", NULL},
                            {"l1d.size=256", "l1d.assoc=2", "l1d.mshr_entries=1", NULL}};
  const char *why[] = {"no_line", "no_mshr"};
  for (int i = 0; i < 2; i++) {
    const char *sets[6];
    int n = 0;
    for (; cases[i][n]; n++) sets[n] = cases[i][n];
    sets[n + 1] = NULL;
    sets[n] = "l1d.policy=bypass-access";
    char *j = run_loads("", "", 0, 256, sets);
    CHECK_EQ_U64(l1d_stat(j, "fail_bypasses"), 1);
    CHECK_EQ_U64(l1d_stat(j, "read_misses"), 1);
    CHECK(j && strstr(j, "\"ldst_resfail_stall_cycles\": 0"));
    free(j);
    sets[n] = "l1d.policy=lru";
    j = run_loads("", "", 0, 256, sets);
    CHECK_EQ_U64(l1d_stat(j, "fail_bypasses"), 0);
    char k[64];
    snprintf(k, sizeof k, "\"%s\": ", why[i]);
    const char *p = j ? strstr(j, k) : NULL;
    CHECK(p && strtoull(p + strlen(k), NULL, 10) > 0); /* the LD/ST unit stalled for that reason */
    free(j);
  }
  /* a merge over the limit is no line or MSHR shortage: the second load of the same line stalls */
  const char *merge[] = {"l1d.mshr_max_merge=1", "l1d.policy=bypass-access", NULL};
  char *j = run_loads("", "", 0, 4, merge);
  CHECK_EQ_U64(l1d_stat(j, "fail_bypasses"), 0);
  CHECK_EQ_U64(l1d_stat(j, "bypasses"), 0);
  free(j);
}

/* ---- 5. whole benchmarks ---- */
static const char *const cls_bfs = "experiments/papers/bypass/classes/bfs.cls";

static void test_benchmarks_pass_and_exact(void) {
  const char *names[] = {"bfs", "backprop", NULL};
  char cls[256];
  snprintf(cls, sizeof cls, "observer.bypass.classes=%s", cls_bfs);
  const char *modes[][5] = {
      {"sm.observers=bypass", NULL},                                       /* dynamic: every load cm */
      {"sm.observers=bypass", cls, "observer.bypass.cm=ca", NULL},         /* static */
      {"sm.observers=bypass", cls, NULL},                                  /* coordinated */
      {"sm.observers=bypass", cls, "observer.bypass.central=false", NULL}, /* decentralised */
      {"l1d.policy=bypass-access", NULL},                                  /* access-level */
  };
  for (int m = 0; m < 5; m++) {
    const char *on[8], *off[8];
    int n = 0;
    for (; modes[m][n]; n++) on[n] = off[n] = modes[m][n];
    on[n] = NULL;
    off[n] = "sm.skip_idle_cycles=false", off[n + 1] = NULL;
    char *a = test_run_benches(NULL, on, names, NULL), *b = test_run_benches(NULL, off, names, NULL);
    CHECK(a && b); /* a failed check is a test failure inside test_run_benches */
    char what[160];
    snprintf(what, sizeof what, "mode %d", m);
    if (a && b) CHECK(test_json_same(what, a, b));
    free(a), free(b);
  }
}

int main(void) {
  TEST_RUN(test_cache_operators_decoded);
  TEST_RUN(test_bypassed_load_allocates_nothing);
  TEST_RUN(test_bypass_reply_size);
  TEST_RUN(test_load_cfg_groups);
  TEST_RUN(test_cta_tags_follow_target);
  TEST_RUN(test_sampling_period_chss_and_search);
  TEST_RUN(test_central_vs_decentral);
  TEST_RUN(test_fixed_tb_bg);
  TEST_RUN(test_access_level_only_no_line_no_mshr);
  TEST_RUN(test_benchmarks_pass_and_exact);
  return TEST_DONE();
}
