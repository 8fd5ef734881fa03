/* barrier_phases.h - the warps' barrier and exit waits as an SM observer, fed by the CTA, warp and
 * barrier events only: warp-cycles waiting at barriers and, retired, for their CTA's exit, the
 * warp-cycles resident, and RTRU per warp-phase. A MEASURE of registry.def: the composition root
 * adds it to every SM and prints its counts as the core's gpu.barrier_* / exit_* / rtru_*
 * statistics. Depends on policy/warp_sched.h only. */
#ifndef WS_BARRIER_PHASES_H
#define WS_BARRIER_PHASES_H

#include <stdint.h>

#include "policy/warp_sched.h"

typedef struct BarrierPhaseCounts {
  uint64_t barrier_wait_cycles;  /* warp-cycles from barrier arrival to release */
  uint64_t exit_wait_cycles;     /* warp-cycles from a warp's retirement to its CTA's exit */
  uint64_t warp_resident_cycles; /* warp-cycles from CTA launch to CTA exit (the fractions' denominator) */
  uint64_t barrier_phases, barrier_rtru_e6_sum; /* warp-phases ended by a barrier; sum of their RTRU x 1e6 */
  uint64_t exit_phases, exit_rtru_e6_sum;       /* the same for the exit phase (last release to CTA exit) */
} BarrierPhaseCounts;

extern const SmObserver observer_barrier_phases;

/* Adds the counts of one SM's instance (its state) into sum. */
void barrier_phases_counts_add(BarrierPhaseCounts *sum, const void *state);
/* RTRU of one warp-phase of n warps and length max_t in which they waited `wait` warp-cycles in
 * all (sum_i(max_t - T_i)), in millionths rounded to nearest (the statistics hold integers only);
 * 0 for an empty phase. */
uint64_t barrier_phases_rtru_e6(uint64_t wait, uint64_t n, uint64_t max_t);

#endif
