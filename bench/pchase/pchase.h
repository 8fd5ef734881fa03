/* pchase.h - the pointer-chase microbenchmark's measurement, callable from
 * tests (tests/t202_micro.c) as well as through its BenchDesc. */
#ifndef BENCH_PCHASE_H
#define BENCH_PCHASE_H

#include <stdint.h>

#include "bench.h"

/* Levels measured, in launch order. */
enum { PCHASE_L1 = 0, PCHASE_L2, PCHASE_DRAM, PCHASE_DRAM_ROWMISS, PCHASE_NLEVELS };

typedef struct PchaseResult {
  int timing;                           /* 1: the context has a timing engine (cycles are SM cycles) */
  uint64_t cycles[PCHASE_NLEVELS];      /* clock64 difference around the timed loads */
  uint32_t steps[PCHASE_NLEVELS];       /* timed dependent loads */
  double per_load[PCHASE_NLEVELS];      /* cycles / steps */
} PchaseResult;

extern const char *const pchase_level_names[PCHASE_NLEVELS];

/* Runs the four chases on r->ctx; checks every final pointer against the CPU.
 * Returns BENCH_PASS / BENCH_MISMATCH / BENCH_ERROR; fills *out when not NULL. */
int pchase_measure(BenchRun *r, PchaseResult *out);

#endif
