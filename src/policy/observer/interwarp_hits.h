/* interwarp_hits.h - L1D read hits split by the warp that allocated the line, as an SM observer fed
 * by the hit events only (L1_HIT and L1_ATOMIC_HIT name the line's allocating warp): hits on a
 * line another warp allocated (inter-warp locality; the rest of the L1D's read hits are
 * intra-warp). A MEASURE of registry.def: the composition root adds it to every SM and prints its
 * count as the core's gpu.l1d_read_hits_other_warp / same_warp statistics. Depends on
 * policy/warp_sched.h only. */
#ifndef WS_INTERWARP_HITS_H
#define WS_INTERWARP_HITS_H

#include <stdint.h>

#include "policy/warp_sched.h"

extern const SmObserver observer_interwarp_hits;

/* The read hits one SM's instance (its state) saw on a line another warp allocated. */
uint64_t interwarp_hits_other_warp(const void *state);

#endif
