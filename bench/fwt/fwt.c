/* fwt.c - host driver of the fwt benchmark (CUDA SDK-style fastWalshTransform):
 * dyadic convolution of a seeded signal with a 128-tap kernel computed as
 * FWT(data), FWT(kernel), pointwise product, FWT again; global radix-4 stages
 * for strides beyond the 2048-element shared-memory segments. Checked against
 * a direct O(N * 128) dyadic convolution in double precision. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define FWT_SHARED_LOG2 11 /* segments of 2048 floats: 512-thread CTAs */
#define FWT_GLOBAL_BLOCK 256
#define FWT_KERNEL_LOG2 7

/* log2 of the signal length; paper is the SDK's 2^23. Odd sizes keep the
 * SDK's 512-thread shared-memory CTAs. */
static const int fwt_log2_sizes[BENCH_NSIZES] = {15, 19, 23};

static int fwt_transform(BenchRun *r, WsFunction *k_global, WsFunction *k_shared, WsDevPtr d, int log2total) {
  const unsigned total = 1u << log2total;
  int log2n = log2total;
  for (; log2n > FWT_SHARED_LOG2; log2n -= 2) {
    int stride = (1 << log2n) / 4;
    void *p[] = {&d, &d, &stride};
    BENCH_CK(r,
             ws_launch_kernel(k_global, total / (4 * FWT_GLOBAL_BLOCK), 1, 1, FWT_GLOBAL_BLOCK, 1, 1, 0, p));
  }
  {
    void *p[] = {&d, &d, &log2n};
    BENCH_CK(r, ws_launch_kernel(k_shared, total >> log2n, 1, 1, (1u << log2n) / 4, 1, 1,
                                 (unsigned)sizeof(float) << log2n, p));
  }
  return 0;
fail:
  return -1;
}

static int fwt_run(BenchRun *r) {
  const int log2n = fwt_log2_sizes[r->size];
  const unsigned n = 1u << log2n, taps = 1u << FWT_KERNEL_LOG2;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *k_global = NULL, *k_shared = NULL, *k_modulate = NULL;
  WsDevPtr d_data = 0, d_kernel = 0;
  float *data = malloc(n * sizeof *data), *kernel = calloc(n, sizeof *kernel);
  float *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
  if (!data || !kernel || !got || !want) {
    fprintf(r->log, "fwt: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  for (unsigned i = 0; i < taps; i++) kernel[i] = bench_rng_float(&g);
  for (unsigned i = 0; i < n; i++) data[i] = bench_rng_float(&g);
  if (r->verbose > 0)
    fprintf(r->log, "fwt: dyadic convolution of 2^%d floats with a %u-tap kernel\n", log2n, taps);

  if (bench_load_module(r, "fwt", "fwt.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k_global, mod, "fwt_global"));
  BENCH_CK(r, ws_module_get_function(&k_shared, mod, "fwt_shared"));
  BENCH_CK(r, ws_module_get_function(&k_modulate, mod, "fwt_modulate"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_data, n * sizeof(float)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_kernel, n * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_data, data, n * sizeof(float)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_kernel, kernel, n * sizeof(float)));
  if (fwt_transform(r, k_global, k_shared, d_data, log2n) != 0) goto fail;
  if (fwt_transform(r, k_global, k_shared, d_kernel, log2n) != 0) goto fail;
  {
    int nn = (int)n;
    void *p[] = {&d_data, &d_kernel, &nn};
    BENCH_CK(r, ws_launch_kernel(k_modulate, 128, 1, 1, 256, 1, 1, 0, p));
  }
  if (fwt_transform(r, k_global, k_shared, d_data, log2n) != 0) goto fail;
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_data, n * sizeof(float)));

  /* Reference: result[i] = sum_j data[i ^ j] * kernel[j]. */
  double peak = 0.0;
  for (unsigned i = 0; i < n; i++) {
    double s = 0.0;
    for (unsigned j = 0; j < taps; j++) s += (double)data[i ^ j] * kernel[j];
    want[i] = (float)s;
    if (fabs(s) > peak) peak = fabs(s);
  }
  status =
      bench_check_f32(r, "dyadic convolution", got, want, n, 1e-4, 1e-4 * peak) ? BENCH_MISMATCH : BENCH_PASS;
fail:
  if (d_data) ws_mem_free(r->ctx, d_data);
  if (d_kernel) ws_mem_free(r->ctx, d_kernel);
  if (mod) ws_module_unload(mod);
  free(data);
  free(kernel);
  free(got);
  free(want);
  return status;
}

const BenchDesc bench_desc_fwt = {
    .name = "fwt",
    .summary = "SDK fastWalshTransform: radix-4 butterflies in shared memory with a barrier per "
               "stage (512-thread CTAs) plus global stages (barrier-intensive)",
    .papers = "BAWS",
    .suite = "II",
    .sizes = {"2^15 floats, 128-tap kernel", "2^19 floats, 128-tap kernel",
              "2^23 floats, 128-tap kernel (SDK default)"},
    .run = fwt_run,
};
