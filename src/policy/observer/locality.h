/* locality.h - the L1D locality split as an SM observer, fed by the L1 events only: allocating
 * read misses on a line an eviction took out, by the warp that had allocated it (the requester's
 * own loss or another warp's), and same-warp read hits by thread, from the requests' lanes.
 * Not selected by name: the composition root adds it beside a plugin that asks for the L1D's
 * stream (l1_stream_events) and prints its counts as the core's gpu.l1d_read_* statistics.
 * Depends on policy/warp_sched.h only. */
#ifndef WS_LOCALITY_H
#define WS_LOCALITY_H

#include <stdint.h>

#include "policy/warp_sched.h"

typedef struct LocalityCounts {
  /* allocating read misses on a line a replacement (not a store's invalidation) took out of the
   * L1D, by the warp that had allocated it: the requester (lost intra-warp locality) or another
   * warp, or none left (lost inter-warp locality); the rest of the misses are cold */
  uint64_t misses_evicted_same_warp, misses_evicted_other_warp;
  /* read hits on a line the requesting warp allocated: a lane of the request had touched the line
   * since, or none had (another thread of the warp brought or used it); other readings by
   * observer.locality.thread_split (locality.c: all, lane, first) */
  uint64_t hits_same_thread, hits_other_thread;
} LocalityCounts;

extern const SmObserver observer_locality;
extern const CfgParam locality_params[]; /* observer.locality.* */

/* Adds the counts of one SM's instance (its state) into sum. */
void locality_counts_add(LocalityCounts *sum, const void *state);

#endif
