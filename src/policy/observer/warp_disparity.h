/* warp_disparity.h - warp execution-time disparity per CTA as an SM observer, fed by the CTA and
 * warp events only: per CTA, (slowest - fastest) / slowest warp's time from the CTA's launch to
 * its retirement; the sum over CTAs, their histogram in DISPARITY_BINS bins, the largest. A
 * MEASURE of registry.def: the composition root adds it to every SM and prints its counts as the
 * core's gpu.warp_time_disparity* statistics. Depends on policy/warp_sched.h only. */
#ifndef WS_WARP_DISPARITY_H
#define WS_WARP_DISPARITY_H

#include <stdint.h>

#include "policy/warp_sched.h"

enum { DISPARITY_BINS = 10 };

typedef struct DisparityCounts {
  double sum;                    /* sum over CTAs of (slowest - fastest) / slowest warp time */
  uint64_t hist[DISPARITY_BINS]; /* CTAs by disparity, bins of 1/DISPARITY_BINS */
  uint64_t max_e6;               /* the largest CTA's disparity x 1e6 (a maximum over the SMs) */
} DisparityCounts;

extern const SmObserver observer_warp_disparity;

/* Adds the counts of one SM's instance (its state) into sum (max_e6: the larger). */
void warp_disparity_counts_add(DisparityCounts *sum, const void *state);

#endif
