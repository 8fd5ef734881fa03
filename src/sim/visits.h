/* visits.h - which SMs the engine simulates each cycle: a quiet SM (sm/quiesce.h) is skipped
 * until its wake cycle, an L1 fill or (when its wait depends on it) a miss-queue pop; one that
 * is busy or ticks every cycle is visited every cycle. The engine's copy of each SM's timers, so
 * that its loop runs without touching the SMs it skips. Used by gpu.c only. */
#ifndef WS_SIM_VISITS_H
#define WS_SIM_VISITS_H

#include <stdbool.h>
#include <stdint.h>

#include "sm/sm.h"

/* What the engine keeps of one SM (visits_note refreshes it after the SM ran or took a CTA). */
typedef struct VisitSm {
  uint64_t wake;    /* the cycle it must next be simulated (sm_wake_cycle) */
  uint32_t nctas;   /* resident CTAs when last noted (acceptance changes only with it) */
  uint8_t resident; /* holds CTAs */
  int8_t accept;    /* may take a CTA (-1: ask it every time, its policy limits CTAs) */
  uint8_t bits;     /* its bits in the bitmaps every, pop_wake and timed (VISIT_BIT_*) */
} VisitSm;
enum { VISIT_BIT_EVERY = 1, VISIT_BIT_POP = 2, VISIT_BIT_TIMED = 4 };

typedef struct Visits {
  Sm *const *sms;
  uint32_t nsm;
  VisitSm *vs; /* per SM */
  /* bitmaps over SMs (nwords words each), kept by visits_note */
  uint64_t *every;    /* wake == 0: simulated every cycle */
  uint64_t *pop_wake; /* a miss-queue pop can end its quiescence (sm_wakes_on_pop) */
  uint64_t *timed;    /* busy, an event queued or free_at after the noting cycle: the others'
                       * next event is UINT64_MAX until they are noted again */
  uint64_t *due;      /* SMs to simulate this cycle whatever they say: wake came, a CTA arrived */
  uint32_t nwords;
  uint64_t wake_min; /* <= every wake cycle > 0 (a lower bound: an SM's wake may move later) */
  uint32_t nresident;
  uint32_t naccept;  /* SMs with accept > 0 */
  uint32_t ndynamic; /* SMs with accept < 0 (asked every time) */
} Visits;

/* 0, or -1 when out of memory (visits_free frees what was made). */
int visits_init(Visits *v, Sm *const *sms, uint32_t nsm);
void visits_free(Visits *v);
/* A kernel starts at cycle `now`: every SM noted afresh. */
void visits_begin_kernel(Visits *v, uint64_t now);

/* Refreshes the engine's copy of SM i's state at cycle `now`, after it ran or took a CTA
 * (inline: the engine's loop calls it after every visit). Returns whether it is busy (it can
 * do something next cycle). */
static inline __attribute__((always_inline)) bool visits_note(Visits *v, uint32_t i, uint64_t now) {
  Sm *sm = v->sms[i];
  VisitSm *e = &v->vs[i];
  const uint32_t w = i / 64;
  const uint64_t bit = 1ull << (i % 64);
  const uint64_t wake = sm_wake_cycle(sm);
  e->wake = wake;
  if (wake && wake < v->wake_min) v->wake_min = wake;
  const SmTimers t = sm_timers(sm);
  const uint8_t bits = (uint8_t)((wake ? 0 : VISIT_BIT_EVERY) | (sm_wakes_on_pop(sm) ? VISIT_BIT_POP : 0) |
                                 (t.busy || t.event != UINT64_MAX || t.free_at > now ? VISIT_BIT_TIMED : 0));
  if (bits != e->bits) { /* most visits change none of them: only a changed one costs its bitmap word */
    const uint8_t d = bits ^ e->bits;
    if (d & VISIT_BIT_EVERY) v->every[w] ^= bit;
    if (d & VISIT_BIT_POP) v->pop_wake[w] ^= bit;
    if (d & VISIT_BIT_TIMED) v->timed[w] ^= bit;
    e->bits = bits;
  }
  uint32_t n = sm_resident_ctas(sm);
  if (n == e->nctas && e->accept >= 0) return t.busy; /* no CTA came or went: acceptance unchanged */
  e->nctas = n;
  uint8_t r = n != 0;
  v->nresident += (uint32_t)r - e->resident;
  e->resident = r;
  if (e->accept >= 0) {
    int8_t a = (int8_t)sm_can_accept_cta(sm);
    v->naccept += (uint32_t)a - (uint32_t)e->accept;
    e->accept = a;
  }
  return t.busy;
}

/* Marks in `due` the SMs whose wake cycle came by `now` (wake_min <= now), making wake_min exact
 * again over the others; the due ones are simulated this cycle and visits_note lowers wake_min
 * to their new wake cycles. */
void visits_collect_due(Visits *v, uint64_t now);

/* Word w of this cycle's SMs to simulate, given the L1s that got a fill or a miss-queue pop
 * (memsys_sm_events); clears them and `due` for the next cycle. */
static inline uint64_t visits_take(Visits *v, uint32_t w, uint64_t *fills, uint64_t *pops) {
  const uint64_t b = v->every[w] | v->due[w] | fills[w] | (pops[w] & v->pop_wake[w]);
  v->due[w] = fills[w] = pops[w] = 0;
  return b;
}

static inline bool visits_can_accept(const Visits *v, uint32_t i) {
  return v->vs[i].accept < 0 ? sm_can_accept_cta(v->sms[i]) : v->vs[i].accept > 0;
}

/* The earliest cycle > now at which some SM can do something by itself (now + 1 at the first
 * busy one), from the timers of the timed SMs; UINT64_MAX: none. */
uint64_t visits_next_event(const Visits *v, uint64_t now);

#endif
