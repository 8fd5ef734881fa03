/* compute.c - host driver of the `compute` microbenchmark (kernel in
 * compute.cu, in the stream directory with the other bandwidth/throughput
 * microbenchmarks): register-only fma chains, 4 independent per thread, on
 * 2 full waves of CTAs (15 SMs x 6 CTAs of 256 threads at gtx480's
 * occupancy x 2). Compute-bound: the warp schedulers should be within a few
 * percent of each other. Checked exactly against the same fmaf sequence on
 * the CPU. */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

#define COMPUTE_BLOCK 256
#define COMPUTE_CTAS 180

static const int compute_iters[BENCH_NSIZES] = {64, 256, 1024};

static float compute_cpu(unsigned tid, int iters, float m, float c) {
  float a0 = (float)tid * 1e-3f, a1 = a0 + 0.25f, a2 = a0 + 0.5f, a3 = a0 + 0.75f;
  for (int k = 0; k < iters; k++) {
    a0 = fmaf(a0, m, c);
    a1 = fmaf(a1, m, c);
    a2 = fmaf(a2, m, c);
    a3 = fmaf(a3, m, c);
  }
  return (a0 + a1) + (a2 + a3);
}

static int compute_run(BenchRun *r) {
  int iters = compute_iters[r->size], n = COMPUTE_CTAS * COMPUTE_BLOCK;
  float m = 0.999f, c = 1e-3f;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  WsDevPtr d_out = 0;
  float *got = malloc(sizeof(float) * (size_t)n), *want = malloc(sizeof(float) * (size_t)n);
  if (!got || !want) {
    fprintf(r->log, "compute: out of host memory\n");
    goto fail;
  }
  for (int i = 0; i < n; i++) want[i] = compute_cpu((unsigned)(i % COMPUTE_BLOCK), iters, m, c);
  if (bench_load_module(r, "stream", "compute.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "compute_fma"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out, sizeof(float) * (size_t)n));
  void *params[] = {&d_out, &iters, &m, &c};
  BENCH_CK(r, ws_launch_kernel(fn, COMPUTE_CTAS, 1, 1, COMPUTE_BLOCK, 1, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_out, sizeof(float) * (size_t)n));
  status = bench_check_f32(r, "out", got, want, (size_t)n, 0.0, 0.0) ? BENCH_MISMATCH : BENCH_PASS;
  if (r->verbose > 0) {
    const WsLaunchStats *st = ws_ctx_last_stats(r->ctx);
    fprintf(r->log, "compute: %d CTAs x %d threads, %d x 4 fma per thread, %llu warp insts", COMPUTE_CTAS,
            COMPUTE_BLOCK, iters, (unsigned long long)st->warp_insts);
    if (st->cycles)
      fprintf(r->log, ", %llu cycles, IPC %.2f", (unsigned long long)st->cycles,
              (double)st->warp_insts / (double)st->cycles);
    fprintf(r->log, "\n");
  }
fail:
  if (d_out) ws_mem_free(r->ctx, d_out);
  if (mod) ws_module_unload(mod);
  free(got);
  free(want);
  return status;
}

const BenchDesc bench_desc_compute = {
    .name = "compute",
    .summary =
        "register-only fma chains (4 independent per thread): compute-bound, scheduler-insensitive baseline",
    .papers = "-",
    .suite = "micro",
    .sizes = {"180 CTAs x 256 threads, 64 x 4 fma each", "256 x 4 fma each", "1024 x 4 fma each"},
    .run = compute_run,
};
