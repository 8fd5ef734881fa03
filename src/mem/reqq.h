/* reqq.h - a fixed-capacity FIFO of memory requests with ready cycles, the
 * queue every memory component uses (miss queues, reply pipelines, ports).
 * Storage is allocated once at creation; push/pop never allocate. The ring
 * has a power-of-two number of slots (mask + 1 >= cap), so an index wraps
 * with a mask; cap alone bounds the occupancy.
 * Invariant: 0 <= count <= cap; slots [head, head+count) mod (mask+1) are live. */
#ifndef WS_REQQ_H
#define WS_REQQ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "mem/mem_req.h"

typedef struct ReqSlot {
  MemRequest req;
  uint64_t ready; /* cycle from which the entry may leave */
  uint32_t aux;   /* component-specific (destination port, flit count, ...) */
} ReqSlot;

typedef struct ReqQueue {
  ReqSlot *slots;
  uint32_t cap, head, count, mask;
  uint64_t head_ready; /* slots[head].ready while count > 0, else UINT64_MAX: readiness tests are one compare */
} ReqQueue;

static inline int reqq_init(ReqQueue *q, uint32_t cap) {
  uint32_t n = 1;
  while (n < cap && n < (1u << 31)) n *= 2;
  q->slots = n >= cap ? calloc(n, sizeof *q->slots) : NULL; /* cap > 2^31: reported as out of memory */
  q->cap = cap, q->mask = n - 1;
  q->head = q->count = 0;
  q->head_ready = UINT64_MAX;
  return q->slots ? 0 : -1;
}
static inline void reqq_free(ReqQueue *q) { free(q->slots), q->slots = NULL; }
static inline bool reqq_full(const ReqQueue *q) { return q->count >= q->cap; }
static inline bool reqq_empty(const ReqQueue *q) { return q->count == 0; }
static inline uint32_t reqq_space(const ReqQueue *q) { return q->cap - q->count; }
static inline ReqSlot *reqq_head(const ReqQueue *q) { return q->count ? &q->slots[q->head] : NULL; }
/* The ring index of the entry i places after the head (i < cap). */
static inline uint32_t reqq_wrap(const ReqQueue *q, uint32_t i) { return (q->head + i) & q->mask; }
static inline ReqSlot *reqq_at(const ReqQueue *q, uint32_t i) { return &q->slots[reqq_wrap(q, i)]; }
/* The caller checks !reqq_full() first. */
static inline ReqSlot *reqq_push(ReqQueue *q, const MemRequest *r, uint64_t ready, uint32_t aux) {
  ReqSlot *s = &q->slots[reqq_wrap(q, q->count++)];
  s->req = *r, s->ready = ready, s->aux = aux;
  if (q->count == 1) q->head_ready = ready;
  return s;
}
/* An emptied queue starts again at slot 0: a queue that drains often keeps
 * reusing its first slots (host cache locality) instead of sweeping them all. */
static inline void reqq_pop(ReqQueue *q) {
  q->head = reqq_wrap(q, 1), q->count--;
  if (q->count) q->head_ready = q->slots[q->head].ready;
  else q->head = 0, q->head_ready = UINT64_MAX;
}
/* Head ready at `now` (< UINT64_MAX)? */
static inline bool reqq_ready(const ReqQueue *q, uint64_t now) { return q->head_ready <= now; }
/* The head's ready cycle, UINT64_MAX when empty. */
static inline uint64_t reqq_next_ready(const ReqQueue *q) { return q->head_ready; }

#endif
