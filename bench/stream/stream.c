/* stream.c - host driver of the stream microbenchmark: STREAM copy
 * (float4 per thread) and triad (a = b + s*c, float per thread) over arrays
 * several times the L2, 256 threads per CTA, thousands of CTAs; reports the
 * achieved bandwidth as bytes moved (read + written by the kernel) per core
 * cycle and in GB/s at the gtx480 core clock (700 MHz). Checked exactly:
 * copy moves bits, triad is one fmaf on both sides. */
#include "stream.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STREAM_BLOCK 256
#define STREAM_CLOCK_GHZ 0.7 /* gtx480 sm.clock_mhz, for the GB/s figure only */

const char *const stream_kernel_names[STREAM_NKERNELS] = {"copy", "triad"};

/* floats per array: 2 MB / 4 MB / 16 MB (L2: 768 KB) */
static const int stream_sizes[BENCH_NSIZES] = {1 << 19, 1 << 20, 1 << 22};

int stream_measure(BenchRun *r, StreamResult *out) {
  StreamResult res;
  memset(&res, 0, sizeof res);
  int n = stream_sizes[r->size];
  size_t bytes = (size_t)n * sizeof(float);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fcopy = NULL, *ftriad = NULL;
  WsDevPtr d_a = 0, d_b = 0, d_c = 0;
  float *b = malloc(bytes), *c = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
  if (!b || !c || !got || !want) {
    fprintf(r->log, "stream: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (int i = 0; i < n; i++) {
    b[i] = bench_rng_range(&g, -1.0f, 1.0f);
    c[i] = bench_rng_range(&g, -1.0f, 1.0f);
  }
  float s = 3.0f;
  if (bench_load_module(r, "stream", "stream.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fcopy, mod, "stream_copy"));
  BENCH_CK(r, ws_module_get_function(&ftriad, mod, "stream_triad"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_a, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_b, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_c, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_b, b, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_c, c, bytes));
  BENCH_CK(r, ws_memset_d32(r->ctx, d_a, 0, (size_t)n));
  status = BENCH_PASS;

  /* copy: a = b */
  int n4 = n / 4;
  void *pcopy[] = {&d_a, &d_b, &n4};
  BENCH_CK(r, ws_launch_kernel(fcopy, (unsigned)((n4 + STREAM_BLOCK - 1) / STREAM_BLOCK), 1, 1, STREAM_BLOCK,
                               1, 1, 0, pcopy));
  res.cycles[STREAM_COPY] = ws_ctx_last_stats(r->ctx)->cycles;
  res.bytes[STREAM_COPY] = 2 * (uint64_t)bytes;
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_a, bytes));
  if (bench_check_u32(r, "copy", (const uint32_t *)(const void *)got, (const uint32_t *)(const void *)b,
                      (size_t)n))
    status = BENCH_MISMATCH;

  /* triad: a = b + s * c */
  void *ptriad[] = {&d_a, &d_b, &d_c, &s, &n};
  BENCH_CK(r, ws_launch_kernel(ftriad, (unsigned)((n + STREAM_BLOCK - 1) / STREAM_BLOCK), 1, 1, STREAM_BLOCK,
                               1, 1, 0, ptriad));
  res.cycles[STREAM_TRIAD] = ws_ctx_last_stats(r->ctx)->cycles;
  res.bytes[STREAM_TRIAD] = 3 * (uint64_t)bytes;
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_a, bytes));
  for (int i = 0; i < n; i++) want[i] = fmaf(c[i], s, b[i]);
  if (bench_check_f32(r, "triad", got, want, (size_t)n, 0.0, 0.0)) status = BENCH_MISMATCH;

  for (int k = 0; k < STREAM_NKERNELS; k++) {
    res.bytes_per_cycle[k] = res.cycles[k] ? (double)res.bytes[k] / (double)res.cycles[k] : 0.0;
    if (r->verbose > 0) {
      if (res.cycles[k])
        fprintf(r->log, "stream: %-5s %10llu bytes %9llu cycles %7.1f B/cycle = %6.1f GB/s at %.0f MHz\n",
                stream_kernel_names[k], (unsigned long long)res.bytes[k], (unsigned long long)res.cycles[k],
                res.bytes_per_cycle[k], res.bytes_per_cycle[k] * STREAM_CLOCK_GHZ, STREAM_CLOCK_GHZ * 1000);
      else
        fprintf(r->log, "stream: %-5s %10llu bytes (functional mode: no cycles)\n", stream_kernel_names[k],
                (unsigned long long)res.bytes[k]);
    }
  }

fail:
  if (d_a) ws_mem_free(r->ctx, d_a);
  if (d_b) ws_mem_free(r->ctx, d_b);
  if (d_c) ws_mem_free(r->ctx, d_c);
  if (mod) ws_module_unload(mod);
  free(b);
  free(c);
  free(got);
  free(want);
  if (out) *out = res;
  return status;
}

static int stream_run(BenchRun *r) { return stream_measure(r, NULL); }

const BenchDesc bench_desc_stream = {
    .name = "stream",
    .summary = "STREAM copy (float4) and triad over arrays >> L2: achieved DRAM bandwidth in bytes per cycle",
    .papers = "-",
    .suite = "micro",
    .sizes = {"512K floats per array (2 MB; 512/2048 CTAs copy/triad)", "1M floats (4 MB; 1024/4096 CTAs)",
              "4M floats (16 MB; 4096/16384 CTAs)"},
    .run = stream_run,
};
