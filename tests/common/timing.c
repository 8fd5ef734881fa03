/* timing.c - timing-engine helpers for tests (see timing.h). */
#include "timing.h"

#include "bench.h"
#include "test.h"

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

char *test_gpu_json(const TestGpu *t) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  gpu_print_stats(t->gpu, f, true, 0.0); /* wall time 0: the only host-dependent fields */
  fclose(f);
  return buf;
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
