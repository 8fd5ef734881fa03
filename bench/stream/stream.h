/* stream.h - the stream microbenchmark's measurement, callable from tests
 * (tests/t202_micro.c) as well as through its BenchDesc. */
#ifndef BENCH_STREAM_H
#define BENCH_STREAM_H

#include <stdint.h>

#include "bench.h"

enum { STREAM_COPY = 0, STREAM_TRIAD, STREAM_NKERNELS };

typedef struct StreamResult {
  uint64_t bytes[STREAM_NKERNELS];   /* bytes the kernel reads plus bytes it writes */
  uint64_t cycles[STREAM_NKERNELS];  /* core cycles of the launch (0 in functional mode) */
  double bytes_per_cycle[STREAM_NKERNELS];
} StreamResult;

extern const char *const stream_kernel_names[STREAM_NKERNELS];

/* Runs copy then triad on r->ctx and checks both results exactly.
 * Returns BENCH_PASS / BENCH_MISMATCH / BENCH_ERROR; fills *out when not NULL. */
int stream_measure(BenchRun *r, StreamResult *out);

#endif
