/* vta.h - per-warp victim tag arrays (CCWS, MICRO'12; reused by iWarp): the
 * tags of L1D lines a warp allocated and lost, kept per warp slot in a small
 * set-associative FIFO array, each entry also naming the warp whose request
 * evicted the line (the interferer). Tags only, no data. And the one handler
 * of the SM's events that feeds them (VtaFeed: CCWS, iWarp and missclass).
 * The arrays depend on nothing but the C library, the feed on the event
 * (warp_sched.h, cache_policy.h); both allocate only in their init.
 *
 * Invariant: a tag appears at most once in one warp's array; entries of
 * different warps are independent (a store invalidates a tag in all of them).
 */
#ifndef WS_POLICY_VTA_H
#define WS_POLICY_VTA_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/cache_policy.h"
#include "policy/warp_sched.h"

typedef struct VtaEntry {
  uint64_t tag;       /* the line's address */
  int32_t interferer; /* the warp slot whose request evicted it (-1 unknown) */
  uint32_t valid;
} VtaEntry;

typedef struct Vta {
  uint32_t nwarps, sets, ways; /* per warp: sets x ways entries */
  VtaEntry *e;                 /* [warp][set][way] */
  uint32_t *next;              /* [warp][set]: the FIFO's next way to fill */
  uint32_t *cnt;               /* [set][hashes]: valid entries of all warps by a hash of their tag, so
                                * a store to a line no array holds mostly looks at none of them */
  uint32_t hashes, hshift;     /* counters per set (a power of 2), 64 - its log2 */
} Vta;

/* `entries` per warp, `ways`-associative (entries must be a multiple of ways).
 * Returns 0, or -1 (bad geometry, out of memory). */
int vta_init(Vta *v, uint32_t nwarps, uint32_t entries, uint32_t ways);
void vta_free(Vta *v);
/* The line `tag` that `warp` allocated was evicted by `interferer`: insert it
 * (FIFO within its set). A tag already present keeps its place and takes the
 * new interferer. */
void vta_insert(Vta *v, uint32_t warp, uint64_t tag, int32_t interferer);
/* Is `tag` in `warp`'s array? On a hit, *interferer (may be NULL) names who
 * evicted it. The entry stays (CCWS does not invalidate on a VTA hit). */
bool vta_probe(const Vta *v, uint32_t warp, uint64_t tag, int32_t *interferer);
/* Removes `tag` from `warp`'s array; returns whether it was there. */
bool vta_remove(Vta *v, uint32_t warp, uint64_t tag);
/* Removes `tag` from every warp's array (a store wrote the line); returns
 * how many entries went. */
uint32_t vta_invalidate_all(Vta *v, uint64_t tag);
/* Empties `warp`'s array (the slot gets a new warp, or its warp exited). */
void vta_clear_warp(Vta *v, uint32_t warp);
/* Valid entries of `warp` (tests, statistics). */
uint32_t vta_count(const Vta *v, uint32_t warp);

/* What an L1D miss of `warp` on `tag` was, by its VTA (iWarp's Figure 2):
 * the line was lost to the warp's own request (intra-warp contention), to
 * another warp's or an unknown one's (inter-warp contention), or it is not in
 * the array (OTHER: never lost, or lost longer ago than the array remembers). */
typedef enum VtaMissClass {
  VTA_MISS_OTHER = 0,
  VTA_MISS_INTRA,
  VTA_MISS_INTER,
  VTA_MISS__COUNT
} VtaMissClass;
/* vta_probe with the class; *interferer (may be NULL) as vta_probe's. */
VtaMissClass vta_classify(const Vta *v, uint32_t warp, uint64_t tag, int32_t *interferer);
/* Every entry (of every warp) naming `interferer` forgets it (-1): its slot
 * got a new warp, which evicted nothing yet. Returns how many changed. */
uint32_t vta_forget_interferer(Vta *v, int32_t interferer);

/* ---- the feed: the SM's events into the arrays, as every VTA user keeps them ---- */
/* The event kinds the feed reads (a user's PolicyEngineHints.events includes them): warps'
 * launches and exits, evictions, misses and stores. */
#define VTA_FEED_EVENTS                                                                                      \
  (SCHED_EV_BIT(SCHED_EV_WARP_LAUNCH) | SCHED_EV_BIT(SCHED_EV_WARP_EXIT) | SCHED_EV_BIT(SCHED_EV_L1_EVICT) | \
   SCHED_EV_BIT(SCHED_EV_L1_MISS) | SCHED_EV_BIT(SCHED_EV_STORE))
typedef struct VtaFeed {
  Vta vta;
  bool forget_interferers;         /* a warp's launch also makes the entries naming its slot as
                                    * interferer forget it (iWarp: the slot's old warp is gone) */
  uint64_t probes;                 /* L1D misses of warps with an array, each looked up */
  uint64_t found[VTA_MISS__COUNT]; /* ... by class (VTA_MISS_OTHER: not in the array) */
  uint64_t inserts;                /* lines lost to a replacement, entered */
  uint64_t store_invalidations;    /* entries removed because a store wrote their line */
} VtaFeed;

/* vta_init's geometry, counters at zero. Returns 0, or -1. */
int vta_feed_init(VtaFeed *f, uint32_t nwarps, uint32_t entries, uint32_t ways, bool forget_interferers);
void vta_feed_free(VtaFeed *f);
/* Applies one SM event (SchedEvent) to the arrays:
 *   WARP_LAUNCH, WARP_EXIT  the warp's array is emptied (its slot's lines are another warp's story);
 *   L1_EVICT                a line a replacement took goes to its allocating warp's array with the
 *                           warp whose request evicted it (a store's invalidation is no loss to
 *                           interference: its STORE removes the tag);
 *   STORE                   the line leaves every warp's array;
 *   L1_MISS                 the missing warp's array is looked up (classified, counted).
 * Events of slots without an array (>= nwarps, UINT32_MAX) change nothing, a STORE apart.
 * Returns true for an L1_MISS it looked up, with its class in *cls and, on a hit, the
 * interferer in *interferer (else -1); either may be NULL. */
bool vta_feed_event(VtaFeed *f, const SchedEvent *ev, VtaMissClass *cls, int32_t *interferer);

#endif
