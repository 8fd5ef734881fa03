/* timing.c - timing-engine helpers for tests (see timing.h). */
#include "timing.h"

#include "bench.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int test_gpu_open(TestGpu *t, const char *const *sets) { return test_gpu_open_preset(t, "configs/gtx480.cfg", sets); }

int test_gpu_open_preset(TestGpu *t, const char *preset, const char *const *sets) {
  memset(t, 0, sizeof *t);
  t->cfg = cfg_create();
  if (!t->cfg) return -1;
  const char *files[1] = {preset};
  int n = 0;
  while (sets && sets[n]) n++;
  if (cfg_resolve(t->cfg, files, 1, sets, n)) {
    fprintf(stderr, "config: %s\n", cfg_error(t->cfg));
    test_gpu_close(t);
    return -1;
  }
  char err[1024] = "";
  t->gpu = gpu_create(t->cfg, err, sizeof err);
  if (!t->gpu) {
    fprintf(stderr, "gpu_create: %s\n", err);
    test_gpu_close(t);
    return -1;
  }
  if (ws_ctx_create(&t->ctx, NULL) != WS_SUCCESS) {
    test_gpu_close(t);
    return -1;
  }
  ws_ctx_set_engine(t->ctx, gpu_engine_run, t->gpu);
  return 0;
}

void test_gpu_close(TestGpu *t) {
  if (t->ctx) ws_ctx_destroy(t->ctx);
  gpu_free(t->gpu);
  cfg_free(t->cfg);
  memset(t, 0, sizeof *t);
}

int test_gpu_load(TestGpu *t, WsModule **mod, WsFunction **fn, const char *ptx, const char *entry) {
  if (ws_module_load_data(t->ctx, mod, ptx, "test.ptx") != WS_SUCCESS) {
    fprintf(stderr, "load: %s\n", ws_ctx_error(t->ctx));
    return -1;
  }
  if (ws_module_get_function(fn, *mod, entry) != WS_SUCCESS) {
    fprintf(stderr, "get_function: %s\n", ws_ctx_error(t->ctx));
    return -1;
  }
  return 0;
}

int test_json_same(const char *what, const char *a, const char *b) {
  if (!strcmp(a, b)) return 1;
  size_t i = 0;
  while (a[i] && a[i] == b[i]) i++;
  size_t from = i > 60 ? i - 60 : 0;
  fprintf(stderr, "%s: skip on/off JSON differs at byte %zu:\n on: %.120s\noff: %.120s\n", what, i, a + from,
          b + from);
  return 0;
}

char *test_gpu_json(const TestGpu *t) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  gpu_print_stats(t->gpu, f, true, 0.0); /* wall time 0: the only host-dependent fields */
  fclose(f);
  return buf;
}

char *test_run_kernel(const char *const *sets, const char *ptx, const char *entry, uint32_t threads,
                      const uint32_t *args, int nargs) {
  TestGpu t;
  if (test_gpu_open(&t, sets)) {
    CHECK(0);
    return NULL;
  }
  WsModule *mod;
  WsFunction *fn;
  WsDevPtr d = 0;
  char *json = NULL;
  if (!test_gpu_load(&t, &mod, &fn, ptx, entry) && ws_mem_alloc(t.ctx, &d, 4096) == WS_SUCCESS) {
    uint32_t a[4] = {0};
    void *params[5] = {&d, &a[0], &a[1], &a[2], &a[3]};
    for (int i = 0; i < nargs && i < 4; i++) a[i] = args[i];
    CHECK(ws_launch_kernel(fn, 1, 1, 1, threads, 1, 1, 0, params) == WS_SUCCESS);
    json = test_gpu_json(&t);
  } else {
    CHECK(0);
  }
  test_gpu_close(&t);
  return json;
}

char *test_run_benches(const char *preset, const char *const *sets, const char *const *names, uint64_t *cycles) {
  TestGpu t;
  if (test_gpu_open_preset(&t, preset ? preset : "configs/gtx480.cfg", sets)) {
    CHECK(0);
    return NULL;
  }
  for (int i = 0; names[i]; i++) {
    const BenchDesc *b = bench_find(names[i]);
    CHECK(b != NULL);
    if (!b) continue;
    BenchRun r = {t.ctx, BENCH_TINY, 1, stderr, 0};
    CHECK(b->run(&r) == BENCH_PASS);
  }
  if (cycles) *cycles = gpu_cycles(t.gpu);
  char *j = test_gpu_json(&t);
  test_gpu_close(&t);
  return j;
}

/* One thread, two rounds of: clock read, `n` copies of `body`, an instruction
 * that consumes the chain's result, clock read; the second round's cycles
 * (instructions cached). `body` takes (i + 2, i + 2) as printf arguments. */
uint64_t test_stream_cycles(const char *const *sets, const char *body, const char *consume, unsigned n) {
  TestGpu t;
  if (test_gpu_open(&t, sets)) { CHECK(0); return 0; }
  size_t cap = 64 * 1024;
  char *ptx = malloc(cap);
  size_t len = (size_t)snprintf(ptx, cap,
                                ".version 9.0\n.target sm_75\n.address_size 64\n"
                                ".visible .entry chain(.param .u64 out)\n{\n"
                                "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b32 %%q<300>;\n  .reg .b64 %%rd<8>;\n  .reg .f32 %%f<300>;\n"
                                "  mov.u32 %%r1, %%tid.x;\n  cvt.rn.f32.u32 %%f1, %%r1;\n  mov.u32 %%r5, 0;\n"
                                "  ld.param.u64 %%rd4, [out];\n"
                                "$L_round:\n  mov.u64 %%rd1, %%clock64;\n");
  for (unsigned i = 0; i < n; i++) len += (size_t)snprintf(ptx + len, cap - len, body, i + 2, i + 2);
  len += (size_t)snprintf(ptx + len, cap - len,
                          "  %s\n  mov.u64 %%rd2, %%clock64;\n  sub.s64 %%rd3, %%rd2, %%rd1;\n"
                          "  add.s32 %%r5, %%r5, 1;\n  setp.lt.u32 %%p1, %%r5, 2;\n  @%%p1 bra $L_round;\n"
                          "  st.global.u64 [%%rd4], %%rd3;\n  st.global.u32 [%%rd4+8], %%r1;\n"
                          "  ret;\n}\n",
                          consume);
  WsModule *mod;
  WsFunction *fn;
  uint64_t out[2] = {0, 0};
  WsDevPtr d = 0;
  if (test_gpu_load(&t, &mod, &fn, ptx, "chain")) { CHECK(0); free(ptx); test_gpu_close(&t); return 0; }
  CHECK(ws_mem_alloc(t.ctx, &d, 32) == WS_SUCCESS); /* out[0..1], and 16 bytes loads read */
  void *params[] = {&d};
  CHECK(ws_launch_kernel(fn, 1, 1, 1, 1, 1, 1, 0, params) == WS_SUCCESS);
  CHECK(ws_memcpy_dtoh(t.ctx, out, d, 16) == WS_SUCCESS);
  ws_mem_free(t.ctx, d);
  ws_module_unload(mod);
  free(ptx);
  test_gpu_close(&t);
  return out[0];
}

/* Cycles that 64 more copies of `body` take (streams of 128 and 64). */
uint64_t test_cycles_per_64(const char *const *sets, const char *body, const char *consume) {
  return test_stream_cycles(sets, body, consume, 128) - test_stream_cycles(sets, body, consume, 64);
}

static const char *json_at(const char *json, const char *from, const char *key, char *pat, size_t n) {
  const char *p = json && from ? strstr(json, from) : json;
  snprintf(pat, n, "\"%s\": ", key);
  p = p ? strstr(p, pat) : NULL;
  return p ? p + strlen(pat) : NULL;
}
uint64_t test_json_u64(const char *json, const char *from, const char *key) {
  char pat[128];
  const char *v = json_at(json, from, key, pat, sizeof pat);
  return v ? strtoull(v, NULL, 10) : UINT64_MAX;
}
double test_json_f64(const char *json, const char *from, const char *key) {
  char pat[128];
  const char *v = json_at(json, from, key, pat, sizeof pat);
  return v ? strtod(v, NULL) : NAN;
}
