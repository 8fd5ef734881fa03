/* backprop.c - host driver of the backprop benchmark: one training step of an
 * in x 16 x 1 perceptron as Rodinia runs it: GPU forward partial sums, host
 * hidden/output layers and error terms, GPU input->hidden weight update; both
 * GPU results are checked against a CPU reference. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BP_TILE 16
#define BP_HID 16
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f
#define BP_TARGET 0.1f

static const uint32_t bp_sizes[BENCH_NSIZES] = {4096, 65536, 65536}; /* input units */

static float bp_squash(float x) { return (float)(1.0 / (1.0 + exp(-(double)x))); }

static int bp_run(BenchRun *r) {
  const int in = (int)bp_sizes[r->size], hid = BP_HID;
  const int nblocks = in / BP_TILE;
  const size_t nw = (size_t)(in + 1) * (hid + 1);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *fwd = NULL, *adj = NULL;
  WsDevPtr d_input = 0, d_w = 0, d_partial = 0, d_delta = 0, d_oldw = 0;
  BenchRng g;
  bench_rng_seed(&g, r->seed);

  float *input = malloc(sizeof(float) * (in + 1));
  float *w = malloc(sizeof(float) * nw);
  float *oldw = calloc(nw, sizeof(float));
  float *partial = malloc(sizeof(float) * nblocks * hid);
  float *ref_partial = malloc(sizeof(float) * nblocks * hid);
  float *got_w = malloc(sizeof(float) * nw);
  float *got_oldw = malloc(sizeof(float) * nw);
  float *ref_w = malloc(sizeof(float) * nw);
  float *ref_oldw = malloc(sizeof(float) * nw);
  float hid_w[BP_HID + 1], hidden[BP_HID + 1], delta_h[BP_HID + 1];
  if (!input || !w || !oldw || !partial || !ref_partial || !got_w || !got_oldw || !ref_w || !ref_oldw) {
    fprintf(r->log, "backprop: out of host memory\n");
    goto fail;
  }

  /* Inputs in [0,1) as in Rodinia; unit 0 is the bias (1). Weights uniform in
   * +-sqrt(3/in) so the hidden layer does not saturate and the update is non-zero. */
  input[0] = 1.0f;
  for (int i = 1; i <= in; i++) input[i] = bench_rng_float(&g);
  const float a = (float)sqrt(3.0 / in);
  for (size_t i = 0; i < nw; i++) w[i] = bench_rng_range(&g, -a, a);
  for (int j = 0; j <= hid; j++) hid_w[j] = bench_rng_range(&g, -0.5f, 0.5f);

  if (bench_load_module(r, "backprop", "backprop.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fwd, mod, "bpnn_layerforward"));
  BENCH_CK(r, ws_module_get_function(&adj, mod, "bpnn_adjust_weights"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_input, sizeof(float) * (in + 1)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_w, sizeof(float) * nw));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_partial, sizeof(float) * nblocks * hid));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_delta, sizeof(float) * (hid + 1)));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_oldw, sizeof(float) * nw));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_input, input, sizeof(float) * (in + 1)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_w, w, sizeof(float) * nw));

  /* Forward pass, input -> hidden: per-CTA partial sums. */
  {
    int in_arg = in, hid_arg = hid;
    void *params[] = {&d_input, &d_w, &d_partial, &in_arg, &hid_arg};
    BENCH_CK(r, ws_launch_kernel(fwd, 1, (unsigned)nblocks, 1, BP_TILE, BP_TILE, 1, 0, params));
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, partial, d_partial, sizeof(float) * nblocks * hid));

  /* Host part of the step (as in Rodinia): hidden units, output unit, deltas. */
  hidden[0] = 1.0f;
  for (int j = 1; j <= hid; j++) {
    float sum = 0.0f;
    for (int k = 0; k < nblocks; k++) sum += partial[k * hid + j - 1];
    hidden[j] = bp_squash(sum + w[j]);
  }
  float osum = 0.0f;
  for (int j = 0; j <= hid; j++) osum += hid_w[j] * hidden[j];
  const float out = bp_squash(osum);
  const float delta_o = out * (1.0f - out) * (BP_TARGET - out);
  delta_h[0] = 0.0f;
  for (int j = 1; j <= hid; j++) delta_h[j] = hidden[j] * (1.0f - hidden[j]) * delta_o * hid_w[j];
  if (r->verbose > 0)
    fprintf(r->log, "backprop: %d input units, %d hidden, 1 output; %d CTAs of 16x16; output %.6f\n", in, hid,
            nblocks, (double)out);

  /* Weight update, input -> hidden (the forward kernel overwrote the weights). */
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_delta, delta_h, sizeof(float) * (hid + 1)));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_w, w, sizeof(float) * nw));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_oldw, oldw, sizeof(float) * nw));
  {
    int in_arg = in, hid_arg = hid;
    void *params[] = {&d_delta, &hid_arg, &d_input, &in_arg, &d_w, &d_oldw};
    BENCH_CK(r, ws_launch_kernel(adj, 1, (unsigned)nblocks, 1, BP_TILE, BP_TILE, 1, 0, params));
  }
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_w, d_w, sizeof(float) * nw));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got_oldw, d_oldw, sizeof(float) * nw));

  /* CPU reference. */
  for (int b = 0; b < nblocks; b++)
    for (int j = 0; j < hid; j++) {
      float s = 0.0f;
      for (int t = 0; t < BP_TILE; t++) {
        int row = b * BP_TILE + t + 1;
        s += w[(size_t)row * (hid + 1) + j + 1] * input[row];
      }
      ref_partial[b * hid + j] = s;
    }
  memcpy(ref_w, w, sizeof(float) * nw);
  memcpy(ref_oldw, oldw, sizeof(float) * nw);
  for (int row = 0; row <= in; row++)
    for (int j = 1; j <= hid; j++) {
      size_t idx = (size_t)row * (hid + 1) + j;
      float step = BP_ETA * delta_h[j] * input[row] + BP_MOMENTUM * ref_oldw[idx];
      ref_w[idx] += step;
      ref_oldw[idx] = step;
    }
  size_t bad =
      bench_check_f32(r, "hidden partial sum", partial, ref_partial, (size_t)nblocks * hid, 1e-4, 1e-6);
  bad += bench_check_f32(r, "weight", got_w, ref_w, nw, 1e-5, 1e-7);
  bad += bench_check_f32(r, "weight step", got_oldw, ref_oldw, nw, 1e-4, 1e-9);
  status = bad ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_input) ws_mem_free(r->ctx, d_input);
  if (d_w) ws_mem_free(r->ctx, d_w);
  if (d_partial) ws_mem_free(r->ctx, d_partial);
  if (d_delta) ws_mem_free(r->ctx, d_delta);
  if (d_oldw) ws_mem_free(r->ctx, d_oldw);
  if (mod) ws_module_unload(mod);
  free(input);
  free(w);
  free(oldw);
  free(partial);
  free(ref_partial);
  free(got_w);
  free(got_oldw);
  free(ref_w);
  free(ref_oldw);
  return status;
}

const BenchDesc bench_desc_backprop = {
    .name = "backprop",
    .summary = "Rodinia backprop: 16x16-CTA forward partial sums with shared-memory log-step reduction, "
               "weight update (control, cache-insensitive)",
    .papers = "CAWA, CCWS, coordinated bypassing",
    .suite = "I",
    .sizes = {"4096 input units", "65536 input units", "65536 input units (as small)"},
    .run = bp_run,
};
