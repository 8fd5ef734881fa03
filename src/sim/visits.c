/* visits.c - the engine's schedule of SM visits (visits.h): its bitmaps, the due SMs, the
 * next cycle an SM can act by itself. */
#include "sim/visits.h"

#include <stdlib.h>
#include <string.h>

#include "core/bitmap.h"

int visits_init(Visits *v, Sm *const *sms, uint32_t nsm) {
  memset(v, 0, sizeof *v);
  v->sms = sms;
  v->nsm = nsm;
  v->nwords = bitmap_words(nsm);
  v->vs = calloc(nsm, sizeof *v->vs);
  v->every = calloc(4 * (size_t)v->nwords, sizeof(uint64_t));
  if (!v->vs || !v->every) return -1;
  v->pop_wake = v->every + v->nwords;
  v->due = v->pop_wake + v->nwords;
  v->timed = v->due + v->nwords;
  return 0;
}

void visits_free(Visits *v) {
  free(v->vs);
  free(v->every);
  v->vs = NULL;
  v->every = NULL;
}

void visits_begin_kernel(Visits *v, uint64_t now) {
  v->nresident = v->naccept = v->ndynamic = 0;
  v->wake_min = UINT64_MAX;
  memset(v->due, 0, sizeof(uint64_t) * v->nwords);
  for (uint32_t i = 0; i < v->nsm; i++) {
    VisitSm *e = &v->vs[i];
    e->resident = 0;
    e->nctas = UINT32_MAX; /* forces the first note */
    e->accept = (int8_t)(sm_policy_limits_ctas(v->sms[i]) ? -1 : 0);
    v->ndynamic += e->accept < 0;
    visits_note(v, i, now);
  }
}

void visits_collect_due(Visits *v, uint64_t now) {
  uint64_t m = UINT64_MAX;
  for (uint32_t i = 0; i < v->nsm; i++) {
    const uint64_t w = v->vs[i].wake;
    if (w <= now)
      bitmap_set(v->due, i);
    else if (w < m)
      m = w;
  }
  v->wake_min = m;
}

/* The earliest cycle > now at which SM i can do something by itself, from its
 * timers (they change only while it is simulated or takes a CTA). */
static inline uint64_t sm_next_event(const Sm *sm, uint64_t now) {
  const SmTimers t = sm_timers(sm);
  if (t.busy) return now + 1;
  uint64_t n = t.event;
  if (t.free_at > now && t.free_at < n) n = t.free_at;
  return n <= now ? now + 1 : n;
}

uint64_t visits_next_event(const Visits *v, uint64_t now) {
  uint64_t next = UINT64_MAX;
  for (uint32_t w = 0; w < v->nwords && next > now + 1; w++)
    for (uint64_t b = v->timed[w]; b && next > now + 1; b &= b - 1) {
      uint64_t t = sm_next_event(v->sms[w * 64 + (uint32_t)__builtin_ctzll(b)], now);
      if (t < next) next = t;
    }
  return next;
}
