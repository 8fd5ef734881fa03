/* barrier_stats.h - the SM's barrier and exit statistics (doc/reproducing.md): warp-cycles
 * waiting at barriers and at the CTA exit, RTRU per warp-phase, and the distribution of per-CTA
 * warp execution-time disparity. Counted at barrier arrive/release and
 * warp retirement only (never per cycle), into SmStats. Depends on sm_int.h only. */
#ifndef WS_BARRIER_STATS_H
#define WS_BARRIER_STATS_H

#include <stdint.h>

typedef struct Sm Sm;
typedef struct SmBarStats SmBarStats;

SmBarStats *sm_bstat_create(uint32_t max_warps, uint32_t max_ctas);
void sm_bstat_free(SmBarStats *b);
/* A CTA was placed in slot cta_slot at `now`: its first warp-phase starts. */
void sm_bstat_cta_launch(Sm *sm, uint32_t cta_slot, uint64_t now);
/* Warp `slot` arrived at a barrier and waits (it issued bar.sync and did not release it). */
void sm_bstat_arrive(Sm *sm, uint32_t slot, uint64_t now);
/* A barrier of the CTA of warp `slot` released at `now`: every warp of that CTA that had arrived
 * and no longer waits ends its warp-phase. */
void sm_bstat_release(Sm *sm, uint32_t slot, uint64_t now);
/* RTRU of one warp-phase of n warps and length max_t in which they waited `wait` warp-cycles in
 * all (sum_i(max_t - T_i)), in millionths rounded to nearest (the statistics hold integers only);
 * 0 for an empty phase. */
uint64_t sm_bstat_rtru_e6(uint64_t wait, uint64_t n, uint64_t max_t);
/* Warp `slot` retires at `now` (before the CTA bookkeeping of retire_warp). */
void sm_bstat_retire(Sm *sm, uint32_t slot, uint64_t now);
/* The last warp of CTA slot cta_slot retired at `now`: its exit phase and disparity. */
void sm_bstat_cta_exit(Sm *sm, uint32_t cta_slot, uint64_t now);

#endif
