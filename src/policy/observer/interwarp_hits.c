/* interwarp_hits.c - L1D read hits on a line another warp allocated (interwarp_hits.h): a hit's
 * event names the warp that allocated its line (other_slot; -1 once that warp exited, so that a
 * later warp in its slot counts as another warp). One compare per hit, no table. */
#include "policy/observer/interwarp_hits.h"

#include <stdlib.h>

typedef struct InterwarpHits {
  uint64_t other_warp;
} InterwarpHits;

static int ih_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  (void)env;
  if (!(*state = calloc(1, sizeof(InterwarpHits)))) return snprintf(err, errlen, "out of memory"), -1;
  return 0;
}

static void ih_free(void *state) { free(state); }

/* Only the two hit kinds arrive (the hints' events). */
static void ih_event(void *state, const SchedEvent *ev) {
  ((InterwarpHits *)state)->other_warp += ev->other_slot != (int32_t)ev->slot;
}

uint64_t interwarp_hits_other_warp(const void *state) { return ((const InterwarpHits *)state)->other_warp; }

static const PolicyEngineHints ih_hints = {
    .events = SCHED_EV_BIT(SCHED_EV_L1_HIT) | SCHED_EV_BIT(SCHED_EV_L1_ATOMIC_HIT), .no_lanes = true};

const SmObserver observer_interwarp_hits = {
    .name = "interwarp-hits", .init = ih_init, .free = ih_free, .on_event = ih_event, .hints = &ih_hints};
