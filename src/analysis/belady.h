/* belady.h - offline replay of an L1D access stream under Belady's optimal
 * replacement (OPT/MIN: evict the line whose next reference lies furthest in
 * the future), and under LRU and FIFO as a check against the online cache;
 * the input of CCWS's Figure 8 ("<scheduler>-BEL"). Reads the text trace of
 * the l1d-trace observer (policy/observer/l1d_trace.c); one private L1 per SM.
 * Depends on nothing but the C library.
 *
 * Replay rules (the L1D's): a load (H, M, G in the trace; A, an atomic that
 * hit a valid line, online a read hit that promotes) references its
 * line, allocating it on a miss (no bypass: OPT chooses victims only); a
 * store (S) invalidates the line if present (write-evict, no allocation); a
 * bypassed load (B) does not touch the L1. For OPT a line's next reference
 * is its next load, or never when a store to it comes first. No timing: an
 * access the online cache merged into a pending miss is a hit here.
 *
 * Fills (F, BELADY_FILL: a reserved line's data arrived) make LRU and FIFO
 * exact: with any fill in a stream, a line allocated by a miss stays reserved
 * until its fill, as online; a reserved line is never a victim (the oldest
 * unreserved one is) and a store does not invalidate it. The replayed LRU's
 * misses then equal the online LRU's allocating misses on the same stream.
 * OPT ignores fills (an ideal cache: a victim may be any line). A stream
 * without fills (an older trace) allocates lines valid at once.
 */
#ifndef WS_ANALYSIS_BELADY_H
#define WS_ANALYSIS_BELADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum BeladyPolicy { BELADY_OPT = 0, BELADY_LRU, BELADY_FIFO, BELADY__COUNT } BeladyPolicy;

typedef struct BeladyGeom {
  uint32_t sets, assoc, line_size; /* line_size a power of two */
  bool merge_touch;                /* a merge promotes under LRU, as the online cache's merge_touch */
} BeladyGeom;

/* What an access is to the replay. A merge (an access the online cache
 * joined to a pending miss) is a load that promotes under LRU only with
 * merge_touch (BeladyGeom), as the online LRU's merges. */
typedef enum BeladyKind { BELADY_LOAD = 0, BELADY_STORE, BELADY_MERGE, BELADY_FILL } BeladyKind;

/* One SM's stream: line addresses and access kinds (BeladyKind). */
typedef struct BeladyStream {
  uint64_t *line;
  uint8_t *store; /* BeladyKind */
  size_t n, cap;
  /* the online cache's outcomes from the trace and the SM's instructions */
  uint64_t hits, misses, merges, bypasses, stores, insts;
  uint64_t fills; /* F lines (BELADY_FILL entries); 0: the replay has no reservations */
} BeladyStream;

typedef struct BeladyTrace {
  BeladyStream *sm;
  uint32_t nsm;
} BeladyTrace;

typedef struct BeladyResult {
  uint64_t loads, misses, invalidations;
} BeladyResult;

/* Reads a trace; 0, or -1 with err set (line number and reason). */
int belady_trace_read(FILE *f, BeladyTrace *t, char *err, size_t errlen);
void belady_trace_free(BeladyTrace *t);
/* Appends one access to a stream (tests build streams by hand); 0 or -1. */
int belady_stream_push(BeladyStream *s, uint64_t line, BeladyKind kind);
/* Replays one stream; 0, or -1 (bad geometry, out of memory). */
int belady_replay(const BeladyStream *s, BeladyGeom g, BeladyPolicy p, BeladyResult *r);
const char *belady_policy_name(BeladyPolicy p);

#endif
