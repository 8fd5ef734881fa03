/* reqq.h - a fixed-capacity FIFO of memory requests with ready cycles, the
 * queue every memory component uses (miss queues, reply pipelines, ports).
 * Storage is allocated once at creation; push/pop never allocate. The ring
 * is addressed by pointers to its head and tail slots, which step to the next
 * slot and wrap at the end of the storage: no index arithmetic on the hot
 * paths, and the head is one load.
 * Invariant: 0 <= count <= cap; the count slots from head on (wrapping at
 * slots + cap) are live, and tail is the slot after the last of them. */
#ifndef WS_REQQ_H
#define WS_REQQ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "policy/mem_req.h"

typedef struct ReqSlot {
  MemRequest req;
  uint64_t ready; /* cycle from which the entry may leave */
  uint32_t
      aux; /* component-specific (destination port, flit count, ...): reqq_push leaves it to the caller */
} ReqSlot;

typedef struct ReqQueue {
  ReqSlot *head;        /* the oldest entry (while count > 0) */
  ReqSlot *tail;        /* the slot the next push fills */
  ReqSlot *slots, *end; /* the storage: cap slots, end = slots + cap */
  uint32_t cap, count;
  uint64_t head_ready; /* head->ready while count > 0, else UINT64_MAX: readiness tests are one compare */
} ReqQueue;

static inline int reqq_init(ReqQueue *q, uint32_t cap) {
  q->slots = calloc(cap ? cap : 1, sizeof *q->slots);
  q->cap = cap, q->count = 0;
  q->head = q->tail = q->slots, q->end = q->slots ? q->slots + cap : NULL;
  q->head_ready = UINT64_MAX;
  return q->slots ? 0 : -1;
}
static inline void reqq_free(ReqQueue *q) { free(q->slots), q->slots = q->head = q->tail = q->end = NULL; }
static inline bool reqq_full(const ReqQueue *q) { return q->count >= q->cap; }
static inline bool reqq_empty(const ReqQueue *q) { return q->count == 0; }
static inline uint32_t reqq_space(const ReqQueue *q) { return q->cap - q->count; }
/* NULL when empty. A caller that knows the queue is not empty (reqq_ready() said so) reads q->head. */
static inline ReqSlot *reqq_head(const ReqQueue *q) { return q->count ? q->head : NULL; }
/* The slot after s (wrapping). */
static inline ReqSlot *reqq_next(const ReqQueue *q, ReqSlot *s) { return s + 1 == q->end ? q->slots : s + 1; }
/* The caller checks !reqq_full() first. */
static inline ReqSlot *reqq_push(ReqQueue *q, const MemRequest *r, uint64_t ready) {
  ReqSlot *s = q->tail;
  q->tail = reqq_next(q, s);
  s->req = *r, s->ready = ready;
  if (++q->count == 1) q->head_ready = ready;
  return s;
}
/* An emptied queue starts again at the first slot: a queue that drains often
 * keeps reusing its first slots (host cache locality) instead of sweeping them all. */
static inline void reqq_pop(ReqQueue *q) {
  if (--q->count) {
    q->head = reqq_next(q, q->head);
    q->head_ready = q->head->ready;
  } else {
    q->head = q->tail = q->slots, q->head_ready = UINT64_MAX;
  }
}
/* Head ready at `now` (< UINT64_MAX)? */
static inline bool reqq_ready(const ReqQueue *q, uint64_t now) { return q->head_ready <= now; }
/* The head's ready cycle, UINT64_MAX when empty. */
static inline uint64_t reqq_next_ready(const ReqQueue *q) { return q->head_ready; }

#endif
