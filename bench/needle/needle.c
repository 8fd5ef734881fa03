/* needle.c - host driver of the needle benchmark: Needleman-Wunsch scores of
 * two seeded random protein sequences with BLOSUM62 substitution scores and a
 * linear gap penalty of 10, computed tile-diagonal by tile-diagonal on the
 * device (needle_ul then needle_lr) and checked cell by cell against a CPU DP. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define NEEDLE_BS 16
#define NEEDLE_PENALTY 10
#define NEEDLE_NRES 24

/* BLOSUM62, residue order A R N D C Q E G H I L K M F P S T W Y V B Z X *. */
static const int8_t needle_blosum62[NEEDLE_NRES][NEEDLE_NRES] = {
    {4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1, -1, -1, -2, -1, 1, 0, -3, -2, 0, -2, -1, 0, -4},
    {-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2, 2, -1, -3, -2, -1, -1, -3, -2, -3, -1, 0, -1, -4},
    {-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3, 0, -2, -3, -2, 1, 0, -4, -2, -3, 3, 0, -1, -4},
    {-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4, -1, -3, -3, -1, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -3, -3, -2, -4},
    {-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2, 1, 0, -3, -1, 0, -1, -2, -1, -2, 0, 3, -1, -4},
    {-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3, 1, -2, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4, -2, -3, -3, -2, 0, -2, -2, -3, -3, -1, -2, -1, -4},
    {-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3, -1, -2, -1, -2, -1, -2, -2, 2, -3, 0, 0, -1, -4},
    {-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2, -3, 1, 0, -3, -2, -1, -3, -1, 3, -3, -3, -1, -4},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4, -2, 2, 0, -3, -2, -1, -2, -1, 1, -4, -3, -1, -4},
    {-1, 2, 0, -1, -3, 1, 1, -2, -1, -3, -2, 5, -1, -3, -1, 0, -1, -3, -2, -2, 0, 1, -1, -4},
    {-1, -1, -2, -3, -1, 0, -2, -3, -2, 1, 2, -1, 5, 0, -2, -1, -1, -1, -1, 1, -3, -1, -1, -4},
    {-2, -3, -3, -3, -2, -3, -3, -3, -1, 0, 0, -3, 0, 6, -4, -2, -2, 1, 3, -1, -3, -3, -1, -4},
    {-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4, 7, -1, -1, -4, -3, -2, -2, -1, -2, -4},
    {1, -1, 1, 0, -1, 0, 0, 0, -1, -2, -2, 0, -1, -2, -1, 4, 1, -3, -2, -2, 0, 0, 0, -4},
    {0, -1, 0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1, 1, 5, -2, -2, 0, -1, -1, 0, -4},
    {-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1, 1, -4, -3, -2, 11, 2, -3, -4, -3, -2, -4},
    {-2, -2, -2, -3, -2, -1, -2, -3, 2, -1, -1, -2, -1, 3, -3, -2, -2, 2, 7, -1, -3, -2, -1, -4},
    {0, -3, -3, -3, -1, -2, -2, -3, -3, 3, 1, -2, 1, -1, -2, -2, 0, -3, -1, 4, -3, -2, -1, -4},
    {-2, -1, 3, 4, -3, 0, 1, -1, 0, -3, -4, 0, -3, -3, -2, 0, -1, -4, -3, -3, 4, 1, -1, -4},
    {-1, 0, 0, 1, -3, 3, 4, -2, 0, -3, -3, 1, -1, -3, -1, 0, -1, -3, -2, -2, 1, 4, -1, -4},
    {0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2, 0, 0, -2, -1, -1, -1, -1, -1, -4},
    {-4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, 1},
};

static int needle_length(BenchSize s) {
  static const int len[BENCH_NSIZES] = {256, 1024, 4096};
  return len[s];
}

static int needle_max3(int a, int b, int c) {
  int m = a > b ? a : b;
  return m > c ? m : c;
}

/* CPU reference: fills rows/columns 1..n of score (border already set). */
static void needle_cpu(const int32_t *ref, int32_t *score, int cols) {
  for (int i = 1; i < cols; i++)
    for (int j = 1; j < cols; j++)
      score[i * cols + j] =
          needle_max3(score[(i - 1) * cols + j - 1] + ref[i * cols + j],
                      score[i * cols + j - 1] - NEEDLE_PENALTY, score[(i - 1) * cols + j] - NEEDLE_PENALTY);
}

static int needle_run(BenchRun *r) {
  int n = needle_length(r->size), cols = n + 1, tiles = n / NEEDLE_BS;
  size_t cells = (size_t)cols * cols, bytes = cells * sizeof(int32_t);
  int status = BENCH_ERROR;
  WsModule *mod = NULL;
  WsDevPtr d_ref = 0, d_score = 0;
  int32_t *ref = malloc(bytes), *init = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
  uint8_t *seq1 = malloc((size_t)cols), *seq2 = malloc((size_t)cols);
  if (!ref || !init || !want || !got || !seq1 || !seq2) {
    fprintf(r->log, "needle: out of host memory\n");
    goto fail;
  }

  /* Two random sequences over the 20 standard amino acids; reference[i][j] is
   * the substitution score of seq1[i] against seq2[j] (row/column 0 unused). */
  BenchRng rng;
  bench_rng_seed(&rng, r->seed);
  for (int i = 1; i < cols; i++) seq1[i] = (uint8_t)bench_rng_below(&rng, 20);
  for (int j = 1; j < cols; j++) seq2[j] = (uint8_t)bench_rng_below(&rng, 20);
  memset(init, 0, bytes);
  for (int i = 0; i < cols; i++) {
    for (int j = 0; j < cols; j++)
      ref[(size_t)i * cols + j] = (i && j) ? needle_blosum62[seq1[i]][seq2[j]] : 0;
    init[(size_t)i * cols] = -i * NEEDLE_PENALTY;
    init[i] = -i * NEEDLE_PENALTY;
  }
  if (r->verbose > 0)
    fprintf(r->log, "needle: two %d-residue sequences, %dx%d tiles of 16x16, penalty %d\n", n, tiles, tiles,
            NEEDLE_PENALTY);

  if (bench_load_module(r, "needle", "needle.ptx", &mod)) goto fail;
  WsFunction *k_ul, *k_lr;
  BENCH_CK(r, ws_module_get_function(&k_ul, mod, "needle_ul"));
  BENCH_CK(r, ws_module_get_function(&k_lr, mod, "needle_lr"));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_ref, bytes));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_score, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_ref, ref, bytes));
  BENCH_CK(r, ws_memcpy_htod(r->ctx, d_score, init, bytes));

  int penalty = NEEDLE_PENALTY, diag;
  void *params[] = {&d_ref, &d_score, &cols, &penalty, &diag, &tiles};
  for (diag = 1; diag <= tiles; diag++)
    BENCH_CK(r, ws_launch_kernel(k_ul, (unsigned)diag, 1, 1, NEEDLE_BS, 1, 1, 0, params));
  for (diag = tiles - 1; diag >= 1; diag--)
    BENCH_CK(r, ws_launch_kernel(k_lr, (unsigned)diag, 1, 1, NEEDLE_BS, 1, 1, 0, params));
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, got, d_score, bytes));

  memcpy(want, init, bytes);
  needle_cpu(ref, want, cols);
  status = bench_check_i32(r, "score", got, want, cells) ? BENCH_MISMATCH : BENCH_PASS;

fail:
  if (d_ref) ws_mem_free(r->ctx, d_ref);
  if (d_score) ws_mem_free(r->ctx, d_score);
  if (mod) ws_module_unload(mod);
  free(ref);
  free(init);
  free(want);
  free(got);
  free(seq1);
  free(seq2);
  return status;
}

const BenchDesc bench_desc_needle = {
    .name = "needle",
    .summary =
        "Needleman-Wunsch, 16-thread CTAs on tile anti-diagonals, barrier per step: low TLP, shared tiles",
    .papers = "CAWA, CCWS, bypass",
    .suite = "I",
    .sizes = {"256x256 alignment (256 tiles)", "1024x1024 alignment (CAWA's input, 4096 tiles)",
              "4096x4096 alignment (bypassing paper's NW input, 65536 tiles)"},
    .run = needle_run,
};
