/* pchase.c - host driver of the pointer-chase microbenchmark: builds chains
 * of device addresses (one element per 128 B line) laid out for each level
 * of the memory hierarchy, runs the one-thread kernel of pchase.cu on each,
 * and reports cycles per dependent load (clock64: SM cycles in timing mode,
 * an instruction count in functional mode). The check is the final pointer
 * of every chase, which the CPU knows. Levels (gtx480 geometry):
 *   l1           32 lines (4 KB), one per L1D set: warmed, then every load hits
 *   l2           512 lines (64 KB: > 16 KB L1D, < 768 KB L2), warmed by one
 *                pass; with 16 lines per 4-way LRU L1D set every load misses
 *                the L1D and hits the L2
 *   dram         fresh consecutive lines: L2 misses that hit the open DRAM row
 *                (one activation per 32 lines of a channel)
 *   dram_rowmiss fresh lines alternating between two rows of one bank (rows
 *                384 KB apart: 6 partitions x 256 B chunks, 16 banks x 4 KB
 *                rows), so every load precharges and activates
 */
#include "pchase.h"

#include <stdlib.h>
#include <string.h>

#define PCHASE_LINE 128u
#define PCHASE_UNROLL 128u             /* dependent loads per round (pchase.cu) */
#define PCHASE_BANK_ROW (384u * 1024u) /* next row of the same channel and bank on gtx480 */

const char *const pchase_level_names[PCHASE_NLEVELS] = {"l1", "l2", "dram", "dram_rowmiss"};

/* Timed rounds of 128 loads per level and size. */
static const uint32_t pchase_rounds[BENCH_NSIZES][PCHASE_NLEVELS] = {
    {2, 4, 2, 1}, {4, 8, 4, 2}, {16, 16, 16, 4}};

/* Address of element i of a level's chain, relative to the aligned base. */
static uint64_t pchase_offset(int lvl, uint32_t i) {
  if (lvl == PCHASE_L1) return (uint64_t)(i % 32) * PCHASE_LINE;  /* 32 lines: one per L1D set */
  if (lvl == PCHASE_L2) return (uint64_t)(i % 512) * PCHASE_LINE; /* 512 lines: 64 KB */
  if (lvl == PCHASE_DRAM) return (uint64_t)i * PCHASE_LINE;       /* fresh consecutive lines */
  /* row misses: alternate between two rows of one bank, walking the 32 lines
   * of each row (2 lines per 256 B chunk, chunks 1536 B apart in a channel) */
  uint32_t pair = i / 64, k = i % 64, which = k % 2, j = k / 2;
  return (uint64_t)(2 * pair + which) * PCHASE_BANK_ROW + (j / 2) * 1536u + (j % 2) * PCHASE_LINE;
}

/* One chase: builds the chain in a fresh allocation, launches, checks. */
static int pchase_one(BenchRun *r, WsFunction *fn, int lvl, uint32_t rounds, uint64_t *cycles) {
  int status = BENCH_ERROR;
  int warm = lvl == PCHASE_L2 ? 4 : 1; /* L2: one pass over its 512 lines; else the I-cache */
  int reps = warm + (int)rounds;
  uint32_t nload = (uint32_t)reps * PCHASE_UNROLL;
  WsDevPtr d_chain = 0, d_out = 0;
  uint64_t span = 0;
  for (uint32_t i = 0; i <= nload; i++)
    if (pchase_offset(lvl, i) + PCHASE_LINE > span) span = pchase_offset(lvl, i) + PCHASE_LINE;
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_chain, span + 4096));
  BENCH_CK(r, ws_mem_alloc(r->ctx, &d_out, 2 * sizeof(uint64_t)));
  uint64_t base = (d_chain + 4095) & ~(uint64_t)4095; /* row- and line-aligned start */
  for (uint32_t i = 0; i < nload; i++) {
    uint64_t next = base + pchase_offset(lvl, i + 1);
    BENCH_CK(r, ws_memcpy_htod(r->ctx, base + pchase_offset(lvl, i), &next, sizeof next));
  }
  uint64_t start = base;
  void *params[] = {&start, &reps, &warm, &d_out};
  BENCH_CK(r, ws_launch_kernel(fn, 1, 1, 1, 1, 1, 1, 0, params));
  uint64_t out[2];
  BENCH_CK(r, ws_memcpy_dtoh(r->ctx, out, d_out, sizeof out));
  uint64_t want = base + pchase_offset(lvl, nload); /* the CPU follows the same chain */
  if (out[1] != want) {
    fprintf(r->log, "pchase %s: final pointer 0x%llx, expected 0x%llx\n", pchase_level_names[lvl],
            (unsigned long long)out[1], (unsigned long long)want);
    status = BENCH_MISMATCH;
  } else {
    status = BENCH_PASS;
  }
  *cycles = out[0];
fail:
  if (d_chain) ws_mem_free(r->ctx, d_chain);
  if (d_out) ws_mem_free(r->ctx, d_out);
  return status;
}

int pchase_measure(BenchRun *r, PchaseResult *out) {
  PchaseResult res;
  memset(&res, 0, sizeof res);
  WsModule *mod = NULL;
  WsFunction *fn = NULL;
  int status = BENCH_ERROR;
  if (bench_load_module(r, "pchase", "pchase.ptx", &mod) != 0) goto fail;
  BENCH_CK(r, ws_module_get_function(&fn, mod, "pchase"));
  status = BENCH_PASS;
  for (int lvl = 0; lvl < PCHASE_NLEVELS && status != BENCH_ERROR; lvl++) {
    uint32_t steps = pchase_rounds[r->size][lvl] * PCHASE_UNROLL;
    int s = pchase_one(r, fn, lvl, pchase_rounds[r->size][lvl], &res.cycles[lvl]);
    if (s != BENCH_PASS) status = s;
    res.steps[lvl] = steps;
    res.per_load[lvl] = (double)res.cycles[lvl] / steps;
    if (ws_ctx_last_stats(r->ctx)->cycles) res.timing = 1;
  }
  if (r->verbose > 0)
    for (int lvl = 0; lvl < PCHASE_NLEVELS; lvl++)
      fprintf(r->log, "pchase: %-13s %5u loads %9llu %s  %8.2f per load\n", pchase_level_names[lvl],
              res.steps[lvl], (unsigned long long)res.cycles[lvl], res.timing ? "cycles" : "clock ",
              res.per_load[lvl]);
fail:
  if (mod) ws_module_unload(mod);
  if (out) *out = res;
  return status;
}

static int pchase_run(BenchRun *r) { return pchase_measure(r, NULL); }

const BenchDesc bench_desc_pchase = {
    .name = "pchase",
    .summary =
        "pointer chase, 1 thread: L1 hit, L2 hit, DRAM (row hit / row miss) load-to-use latency in cycles",
    .papers = "-",
    .suite = "micro",
    .sizes = {"256/512/256/128 timed loads (l1/l2/dram/dram_rowmiss)", "512/1024/512/256 timed loads",
              "2048/2048/2048/512 timed loads"},
    .run = pchase_run,
};
