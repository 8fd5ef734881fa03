/* writeback.c - the SM's writeback queue: register releases due at a later cycle (a min-heap
 * on the cycle), and the scoreboard release they end in. Used by the pipeline (sm.c) and the
 * LD/ST unit (ldst.c); calls neither, so the two depend on it and not on each other. */
#include <stdlib.h>

#include "sm/sm_int.h"

void sm_release_rows(Sm *sm, uint32_t slot, const uint32_t *rows, uint32_t n) {
  SmWarp *w = &sm->warps[slot];
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = rows[i];
    if (sm_sb_test(w->sb, r)) {
      w->sb[r / 64] &= ~(1ull << (r % 64));
      w->pending_writes--;
    }
  }
  w->dirty = 1;
  sm_warp_unskip(sm, slot);
  sm->issue_dirty = 1;
  (*sm->progress)++;
}

/* The heap's slot for a new event of `cycle` (sifted up; the caller fills it in place: an event
 * built on the stack and copied in whole read back its small stores as wide loads, which the
 * host cannot forward). NULL when the heap cannot grow. */
static SmEvent *heap_slot(Sm *sm, uint64_t cycle) {
  if (sm->nev == sm->ev_cap) {
    SmEvent *ne = realloc(sm->ev, sizeof(SmEvent) * sm->ev_cap * 2);
    if (!ne) return NULL; /* cannot happen in practice: events are bounded by warps x latency */
    sm->ev = ne;
    sm->ev_cap *= 2;
  }
  uint32_t i = sm->nev++;
  while (i > 0) {
    uint32_t p = (i - 1) / 2;
    if (sm->ev[p].cycle <= cycle) break;
    sm->ev[i] = sm->ev[p];
    i = p;
  }
  sm->ev_next = i ? sm->ev[0].cycle : cycle;
  return &sm->ev[i];
}

SmEvent sm_release_pop(Sm *sm) {
  SmEvent top = sm->ev[0], last = sm->ev[--sm->nev];
  uint32_t i = 0, n = sm->nev;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && sm->ev[c + 1].cycle < sm->ev[c].cycle) c++;
    if (last.cycle <= sm->ev[c].cycle) break;
    sm->ev[i] = sm->ev[c];
    i = c;
  }
  if (n) sm->ev[i] = last;
  sm->ev_next = n ? sm->ev[0].cycle : UINT64_MAX;
  return top;
}

void sm_schedule_release(Sm *sm, uint64_t cycle, uint32_t slot, const uint32_t *rows, uint32_t n) {
  SmEvent *e = heap_slot(sm, cycle);
  if (!e) return;
  e->cycle = cycle, e->slot = slot, e->nrows = (uint8_t)(n > 6 ? 6 : n);
  for (uint32_t i = 0; i < e->nrows; i++) e->rows[i] = rows[i];
}
