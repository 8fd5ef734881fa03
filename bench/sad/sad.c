/* sad.c - host driver of the sad benchmark (Parboil SAD, full-search motion
 * estimation): a seeded textured reference frame and a current frame made of
 * it displaced by a per-macroblock motion vector plus noise (16-bit pixels, as
 * Parboil stores them); sad_4x4 on (4 * mb_w) x (4 * mb_h) 61-thread CTAs,
 * then sad_8x8 (32 x 4) and sad_16x16 (32 x 1) per macroblock. All seven SAD
 * types at all 1089 positions are checked exactly against the CPU. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SAD_RANGE 16
#define SAD_DIM 33
#define SAD_POS 1089
#define SAD_POS_PAD 1096
#define SAD_CTA4 61 /* ceil(1089 / 18) */

typedef struct SadSize {
  int width, height;
} SadSize;

/* paper: Parboil's default input frame (QCIF, 176 x 144: 99 macroblocks). */
static const SadSize sad_sizes[BENCH_NSIZES] = {{32, 32}, {96, 64}, {176, 144}};

/* The seven block types: blocks per macroblock and (width, height) in 4-pixel units. */
enum { SAD_T4, SAD_T8, SAD_T8x4, SAD_T4x8, SAD_T16, SAD_T16x8, SAD_T8x16, SAD_NTYPES };
static const int sad_count[SAD_NTYPES] = {16, 4, 8, 8, 1, 2, 2};
static const int sad_w[SAD_NTYPES] = {1, 2, 2, 1, 4, 4, 2};
static const int sad_h[SAD_NTYPES] = {1, 2, 1, 2, 4, 2, 4};
static const char *const sad_names[SAD_NTYPES] = {"4x4", "8x8", "8x4", "4x8", "16x16", "16x8", "8x16"};

static int sad_run(BenchRun *r) {
  const SadSize sz = sad_sizes[r->size];
  const int w = sz.width, h = sz.height, mbw = w / 16, mbh = h / 16, mbs = mbw * mbh;
  const size_t npix = (size_t)w * h;
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsFunction *k4 = NULL, *k8 = NULL, *k16 = NULL;
  WsDevPtr d_cur = 0, d_ref = 0, d_sad[SAD_NTYPES] = {0};
  uint16_t *cur = malloc(npix * 2), *ref = malloc(npix * 2), *got = NULL, *want = NULL;
  size_t len[SAD_NTYPES], total = 0;
  for (int t = 0; t < SAD_NTYPES; t++) total += len[t] = (size_t)mbs * sad_count[t] * SAD_POS_PAD;
  got = calloc(total, 2);
  want = calloc(total, 2);
  if (!cur || !ref || !got || !want) {
    fprintf(r->log, "sad: out of host memory\n");
    goto fail;
  }
  BenchRng g;
  bench_rng_seed(&g, r->seed);
  /* Reference: smooth texture plus noise, 0..255; current: each macroblock is the reference
   * displaced by a motion vector within +-12 pixels (clamped), plus noise. */
  const float fx = bench_rng_range(&g, 0.1f, 0.4f), fy = bench_rng_range(&g, 0.1f, 0.4f);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float v = 128.0f + 60.0f * sinf(fx * x + 0.3f * sinf(0.05f * y)) + 50.0f * cosf(fy * y) +
                bench_rng_range(&g, -10.0f, 10.0f);
      ref[(size_t)y * w + x] = (uint16_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
    }
  for (int mb = 0; mb < mbs; mb++) {
    const int dx = (int)bench_rng_below(&g, 25) - 12, dy = (int)bench_rng_below(&g, 25) - 12;
    for (int y = (mb / mbw) * 16; y < (mb / mbw) * 16 + 16; y++)
      for (int x = (mb % mbw) * 16; x < (mb % mbw) * 16 + 16; x++) {
        int sx = x + dx, sy = y + dy;
        sx = sx < 0 ? 0 : (sx >= w ? w - 1 : sx);
        sy = sy < 0 ? 0 : (sy >= h ? h - 1 : sy);
        int v = ref[(size_t)sy * w + sx] + (int)bench_rng_below(&g, 9) - 4;
        cur[(size_t)y * w + x] = (uint16_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
      }
  }
  if (r->verbose > 0)
    fprintf(r->log, "sad: %dx%d frames, %d macroblocks, +-%d search\n", w, h, mbs, SAD_RANGE);

  if (bench_load_module(r, "sad", "sad.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&k4, mod, "sad_4x4"));
  BENCH_CK(r, ws_module_get_function(&k8, mod, "sad_8x8"));
  BENCH_CK(r, ws_module_get_function(&k16, mod, "sad_16x16"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_cur, npix * 2));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_ref, npix * 2));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_cur, cur, npix * 2));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_ref, ref, npix * 2));
  for (int t = 0; t < SAD_NTYPES; t++) {
    BENCH_CK(r, ws_mem_alloc(r->ctx, &d_sad[t], len[t] * 2));
    BENCH_CK(r, ws_memcpy_htod(r->ctx, d_sad[t], got, len[t] * 2)); /* zeros: the padding positions */
  }
  int width = w, height = h;
  void *p4[] = {&d_sad[SAD_T4], &d_cur, &d_ref, &width, &height};
  BENCH_CK(r, ws_launch_kernel(k4, (unsigned)(4 * mbw), (unsigned)(4 * mbh), 1, SAD_CTA4, 1, 1, 0, p4));
  void *p8[] = {&d_sad[SAD_T4], &d_sad[SAD_T8], &d_sad[SAD_T8x4], &d_sad[SAD_T4x8]};
  BENCH_CK(r, ws_launch_kernel(k8, (unsigned)mbw, (unsigned)mbh, 1, 32, 4, 1, 0, p8));
  void *p16[] = {&d_sad[SAD_T8], &d_sad[SAD_T16], &d_sad[SAD_T16x8], &d_sad[SAD_T8x16]};
  BENCH_CK(r, ws_launch_kernel(k16, (unsigned)mbw, (unsigned)mbh, 1, 32, 1, 1, 0, p16));
  for (int t = 0, off = 0; t < SAD_NTYPES; off += (int)len[t], t++)
    BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got + off, d_sad[t], len[t] * 2));

  size_t bad = 0;
  for (int t = 0, off = 0; t < SAD_NTYPES; off += (int)len[t], t++) {
    const int per_row = 4 / sad_w[t]; /* blocks of this type across a macroblock */
    for (int mb = 0; mb < mbs; mb++)
      for (int b = 0; b < sad_count[t]; b++) {
        const int x0 = (mb % mbw) * 16 + (b % per_row) * 4 * sad_w[t];
        const int y0 = (mb / mbw) * 16 + (b / per_row) * 4 * sad_h[t];
        uint16_t *o = want + off + ((size_t)mb * sad_count[t] + b) * SAD_POS_PAD;
        for (int pos = 0; pos < SAD_POS; pos++) {
          const int ox = pos % SAD_DIM - SAD_RANGE, oy = pos / SAD_DIM - SAD_RANGE;
          unsigned s = 0;
          for (int y = y0; y < y0 + 4 * sad_h[t]; y++)
            for (int x = x0; x < x0 + 4 * sad_w[t]; x++) {
              /* reference pixels clamped at the frame's edge (the texture's addressing) */
              int rx = x + ox, ry = y + oy;
              rx = rx < 0 ? 0 : (rx >= w ? w - 1 : rx);
              ry = ry < 0 ? 0 : (ry >= h ? h - 1 : ry);
              const int d = (int)ref[(size_t)ry * w + rx] - (int)cur[(size_t)y * w + x];
              s += (unsigned)(d < 0 ? -d : d);
            }
          o[pos] = (uint16_t)s;
        }
      }
  }
  for (int t = 0, off = 0; t < SAD_NTYPES; off += (int)len[t], t++) {
    /* compare the real positions only (the padding lane holds sums of zeros) */
    for (size_t blk = 0; blk < len[t] / SAD_POS_PAD; blk++)
      for (int pos = 0; pos < SAD_POS; pos++) {
        const size_t i = off + blk * SAD_POS_PAD + (size_t)pos;
        if (got[i] != want[i] && bad++ < 10)
          fprintf(r->log, "sad %s block %zu position %d: got %u, want %u\n", sad_names[t], blk, pos, got[i],
                  want[i]);
      }
  }
  status = bad ? BENCH_MISMATCH : BENCH_PASS;
fail:
  if (d_cur) ws_mem_free(r->ctx, d_cur);
  if (d_ref) ws_mem_free(r->ctx, d_ref);
  for (int t = 0; t < SAD_NTYPES; t++)
    if (d_sad[t]) ws_mem_free(r->ctx, d_sad[t]);
  if (mod) ws_module_unload(mod);
  free(cur);
  free(ref);
  free(got);
  free(want);
  return status;
}

const BenchDesc bench_desc_sad = {
    .name = "sad",
    .summary = "Parboil SAD: full-search motion estimation, 4x4 SADs at 1089 positions (61-thread CTAs) "
               "combined into 8x8 and 16x16; compute-bound, cache-insensitive",
    .papers = "coordinated bypassing",
    .suite = "II",
    .sizes = {"32x32 frames (4 macroblocks)", "96x64 frames (24 macroblocks)",
              "176x144 frames (QCIF, 99 macroblocks: Parboil's input)"},
    .run = sad_run,
};
