/* t203_regs.c - the register-count override observed as
 * occupancy: a kernel's compiled count replaced per kernel (sm.regs_kernel),
 * capped like nvcc -maxrregcount (sm.regs_max_per_thread) and charged in
 * allocation units (sm.regs_alloc_unit), measured as the CTAs resident at once
 * on an SM and as the engine's reported occupancy, limiter and register
 * source; a CTA that cannot fit as compiled launches with an override; a
 * malformed override is a config error naming the key. */
#include <stdlib.h>

#include "common/test.h"
#include "common/timing.h"

TEST_GLOBALS;

/* Thread 0 of every CTA counts its CTA in and out of its SM's counter and
 * records the maximum; all threads spin, then meet at a barrier. */
static const char occ_ptx_fmt[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry occ(.param .u64 cnt, .param .u64 maxc, .param .u32 delay)\n{\n"
    "  .reg .pred %%p<4>;\n  .reg .b32 %%r<16>;\n  .reg .b64 %%rd<8>;\n"
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

/* A JSON string field of the last kernel ("occupancy_limiter", "regs_source"). */
static void last_kernel_str(const char *j, const char *field, char *out, size_t len) {
  char key[64];
  snprintf(key, sizeof key, "\"%s\": \"", field);
  out[0] = 0;
  for (const char *q = j; q && (q = strstr(q, key)); q++) {
    const char *v = q + strlen(key);
    size_t n = strcspn(v, "\"");
    if (n >= len) n = len - 1;
    memcpy(out, v, n);
    out[n] = 0;
  }
}

static unsigned last_kernel_uint(const char *j, const char *field) {
  char key[64];
  snprintf(key, sizeof key, "\"%s\": ", field);
  unsigned v = 0;
  for (const char *q = j; q && (q = strstr(q, key)); q++) v = (unsigned)strtoul(q + strlen(key), NULL, 10);
  return v;
}

/* Launches occ (compiled with `regs` per thread, `threads` per CTA) on 2 waves
 * of `want` CTAs per SM under gtx480.cfg + sets; checks the most CTAs resident
 * at once on one SM, the reported occupancy, limiter, registers and source. */
static void check_regs(const char *const *sets, unsigned threads, unsigned regs, unsigned want,
                       const char *limiter, unsigned want_regs, const char *source) {
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return;
  }
  char ptx[4096];
  snprintf(ptx, sizeof ptx, occ_ptx_fmt, regs);
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
  WsResult rc = ws_launch_kernel(fn, grid, 1, 1, threads, 1, 1, 0, params);
  if (rc != WS_SUCCESS) fprintf(stderr, "launch: %s\n", ws_ctx_error(t.ctx));
  CHECK(rc == WS_SUCCESS);
  uint32_t mx[64] = {0}, most = 0;
  ws_memcpy_dtoh(t.ctx, mx, d_max, 4 * nsm);
  for (unsigned i = 0; i < nsm; i++)
    if (mx[i] > most) most = mx[i];
  char *j = test_gpu_json(&t), lim[64], src[128];
  last_kernel_str(j, "occupancy_limiter", lim, sizeof lim);
  last_kernel_str(j, "regs_source", src, sizeof src);
  unsigned ctas = last_kernel_uint(j, "ctas_per_sm"), r = last_kernel_uint(j, "regs_per_thread");
  if (most != want || ctas != want || strcmp(lim, limiter) || r != want_regs || strcmp(src, source))
    fprintf(
        stderr,
        "%u threads, %u regs compiled: resident %u, reported %u (%s), %u regs [%s]; want %u (%s), %u [%s]\n",
        threads, regs, most, ctas, lim, r, src, want, limiter, want_regs, source);
  CHECK_EQ_U64(most, want);
  CHECK_EQ_U64(ctas, want);
  CHECK(!strcmp(lim, limiter));
  CHECK_EQ_U64(r, want_regs);
  CHECK(!strcmp(src, source));
  CHECK_EQ_U64(ws_ctx_kernel(t.ctx, 0)->regs_per_thread, want_regs);
  free(j);
  ws_mem_free(t.ctx, d_cnt);
  ws_mem_free(t.ctx, d_max);
  ws_module_unload(mod);
  test_gpu_close(&t);
}

/* gtx480: 1536 threads, 8 CTA slots, 32768 registers per SM; 256 threads per CTA below. */
static void test_compiled_count(void) {
  const char *unit1[] = {"sm.regs_alloc_unit=1", NULL};
  check_regs(unit1, 256, 40, 3, "registers", 40, "ptxas 40"); /* 10240 per CTA */
  check_regs(unit1, 256, 41, 3, "registers", 41, "ptxas 41"); /* 10496 */
}

/* GPGPU-Sim 3.2.2 charges (regs + 3) & ~3: 41 -> 44, 11264 per CTA, 2 CTAs. */
static void test_alloc_unit(void) {
  check_regs(NULL, 256, 41, 2, "registers", 44, "ptxas 41, allocated in units of 4");
  check_regs(NULL, 256, 40, 3, "registers", 40, "ptxas 40");
}

static void test_per_kernel(void) {
  const char *mine[] = {"sm.regs_kernel=other=8,occ=20", NULL};
  check_regs(mine, 256, 40, 6, "threads", 20,
             "ptxas 40, sm.regs_kernel 20"); /* 5120 per CTA: 1536 threads limit */
  const char *other[] = {"sm.regs_kernel=occ2=20 other=8", NULL};
  check_regs(other, 256, 40, 3, "registers", 40, "ptxas 40"); /* names are exact */
}

static void test_cap(void) {
  const char *cap[] = {"sm.regs_max_per_thread=24", NULL};
  check_regs(cap, 256, 40, 5, "registers", 24, "ptxas 40, cap 24"); /* 6144 per CTA */
  check_regs(cap, 256, 16, 6, "threads", 16, "ptxas 16");           /* under the cap: unchanged */
  /* the per-kernel count first, then the cap, then the unit: 100 -> 63 -> 64 */
  const char *both[] = {"sm.regs_kernel=occ=100", NULL};
  check_regs(both, 128, 40, 4, "registers", 64,
             "ptxas 40, sm.regs_kernel 100, cap 63, allocated in units of 4");
  const char *none[] = {"sm.regs_max_per_thread=0", "sm.regs_kernel=occ=100", NULL};
  check_regs(none, 128, 40, 2, "registers", 100, "ptxas 40, sm.regs_kernel 100"); /* 12800 per CTA */
}

/* The CCWS case: a 512-thread CTA at 56 registers does not fit in 16384; at 32 it does. */
static void test_override_makes_it_fit(void) {
  const char *small[] = {"sm.registers=16384", "sm.max_threads=1024", "sm.max_warps=32", NULL};
  TestGpu t;
  if (test_gpu_open(&t, small)) {
    CHECK(0);
    return;
  }
  char ptx[4096];
  snprintf(ptx, sizeof ptx, occ_ptx_fmt, 56u);
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
  ws_memset_d32(t.ctx, d, 0, 64);
  void *params[] = {&d, &d, &delay};
  CHECK(ws_launch_kernel(fn, 4, 1, 1, 512, 1, 1, 0, params) == WS_ERROR_LAUNCH_FAILED);
  CHECK_STR_CONTAINS(ws_ctx_error(t.ctx), "registers");
  ws_mem_free(t.ctx, d);
  ws_module_unload(mod);
  test_gpu_close(&t);
  const char *fit[] = {"sm.registers=16384", "sm.max_threads=1024", "sm.max_warps=32",
                       "sm.regs_kernel=occ=32", NULL};
  check_regs(fit, 512, 56, 1, "registers", 32, "ptxas 56, sm.regs_kernel 32");
}

static void test_bad_syntax(void) {
  const char *bad[][2] = {{"sm.regs_kernel=occ", NULL},
                          {"sm.regs_kernel=occ=0", NULL},
                          {"sm.regs_kernel==8", NULL},
                          {"sm.regs_kernel=occ=12x", NULL},
                          {"sm.regs_kernel=occ=256", NULL}};
  for (int k = 0; k < 5; k++) {
    Config *cfg = cfg_create();
    CHECK(cfg_load_file(cfg, "configs/gtx480.cfg") == 0);
    const char *kv = bad[k][0];
    CHECK(cfg_set(cfg, kv) == 0);
    char err[512] = "";
    Gpu *g = gpu_create(cfg, err, sizeof err);
    CHECK(g == NULL);
    CHECK_STR_CONTAINS(err, "sm.regs_kernel: bad entry");
    gpu_free(g);
    cfg_free(cfg);
  }
}

int main(void) {
  TEST_RUN(test_compiled_count);
  TEST_RUN(test_alloc_unit);
  TEST_RUN(test_per_kernel);
  TEST_RUN(test_cap);
  TEST_RUN(test_override_makes_it_fit);
  TEST_RUN(test_bad_syntax);
  return TEST_DONE();
}
