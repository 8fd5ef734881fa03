/* barrier_stats.c - barrier, exit and warp-disparity statistics of one SM (barrier_stats.h).
 * A warp-phase is the time between two releases of its CTA's barriers (or from the CTA's launch
 * to its first barrier, or from the last release to the CTA's exit, the "exit phase"). Within a
 * phase of N warps, T_i is warp i's time from the phase start to its arrival (exit phase: to its
 * retirement) and maxT the phase length; RTRU = sum_i(maxT - T_i) / (N * maxT) (the ratio of
 * temporal resource underutilisation of Xiang et al., applied per warp-phase). sum_i(maxT - T_i)
 * is exactly the warp-cycles waited at that barrier (at the exit), so the barrier- and exit-stall
 * fractions come from the same sums.
 * Only event-driven code: nothing here runs per cycle or per instruction. */
#include <stdlib.h>

#include "sm/barrier_stats.h"
#include "sm/sm_int.h"
#include "sm/timeline.h"

#define NO_ARRIVAL UINT64_MAX

struct SmBarStats {
  uint32_t max_warps, max_ctas;
  uint64_t *arrive;      /* per warp slot: cycle it arrived at a barrier, NO_ARRIVAL if not waiting */
  uint64_t *retire_sum;  /* per CTA slot: sum of its retired warps' retirement cycles */
  uint64_t *phase_start; /* per CTA slot: cycle its current warp-phase began */
};

SmBarStats *sm_bstat_create(uint32_t max_warps, uint32_t max_ctas) {
  SmBarStats *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  b->max_warps = max_warps, b->max_ctas = max_ctas;
  b->arrive = malloc(sizeof(uint64_t) * (max_warps + 1));
  b->retire_sum = calloc(max_ctas + 1, sizeof(uint64_t));
  b->phase_start = calloc(max_ctas + 1, sizeof(uint64_t));
  if (!b->arrive || !b->retire_sum || !b->phase_start) {
    sm_bstat_free(b);
    return NULL;
  }
  for (uint32_t i = 0; i <= max_warps; i++) b->arrive[i] = NO_ARRIVAL;
  return b;
}

void sm_bstat_free(SmBarStats *b) {
  if (!b) return;
  free(b->arrive);
  free(b->retire_sum);
  free(b->phase_start);
  free(b);
}

uint64_t sm_bstat_rtru_e6(uint64_t wait, uint64_t n, uint64_t max_t) {
  if (!n || !max_t) return 0;
  return (uint64_t)(1e6 * (double)wait / ((double)n * (double)max_t) + 0.5);
}

void sm_bstat_cta_launch(Sm *sm, uint32_t cta_slot, uint64_t now) {
  SmBarStats *b = sm->bstat;
  b->retire_sum[cta_slot] = 0;
  b->phase_start[cta_slot] = now;
}

void sm_bstat_arrive(Sm *sm, uint32_t slot, uint64_t now) {
  sm->bstat->arrive[slot] = now;
  if (sm->tl) tl_barrier_arrive(sm, slot, now);
}

void sm_bstat_release(Sm *sm, uint32_t slot, uint64_t now) {
  SmBarStats *b = sm->bstat;
  uint32_t cs = sm->warps[slot].cta_slot;
  uint64_t wait = 0, n = 0;
  for (uint32_t w = 0; w < sm->max_warps; w++) {
    const SmWarp *sw = &sm->warps[w];
    if (b->arrive[w] == NO_ARRIVAL || !sw->pw || sw->cta_slot != cs || sw->pw->state == PTX_WARP_BARRIER)
      continue;
    wait += now - b->arrive[w];
    n++;
    b->arrive[w] = NO_ARRIVAL;
  }
  if (!n) return;
  if (sm->tl) tl_barrier_release(sm, cs, n, wait, now);
  sm->st.barrier_wait_cycles += wait;
  sm->st.barrier_phases++;
  sm->st.barrier_rtru_e6_sum += sm_bstat_rtru_e6(wait, n, now - b->phase_start[cs]);
  b->phase_start[cs] = now;
}

void sm_bstat_retire(Sm *sm, uint32_t slot, uint64_t now) {
  SmBarStats *b = sm->bstat;
  b->arrive[slot] = NO_ARRIVAL;
  b->retire_sum[sm->warps[slot].cta_slot] += now;
}

void sm_bstat_cta_exit(Sm *sm, uint32_t cs, uint64_t now) {
  SmBarStats *b = sm->bstat;
  const SmCta *c = &sm->ctas[cs];
  uint64_t n = c->warps, wait = n * now - b->retire_sum[cs];
  sm->st.exit_wait_cycles += wait;
  sm->st.warp_resident_cycles += n * (now - c->start_cycle);
  sm->st.exit_phases++;
  sm->st.exit_rtru_e6_sum += sm_bstat_rtru_e6(wait, n, now - b->phase_start[cs]);
  /* (slowest - fastest) / slowest warp time of this CTA, as cta.warp_time_disparity averages */
  double d = c->warp_tmax ? (double)(c->warp_tmax - c->warp_tmin) / (double)c->warp_tmax : 0.0;
  int bin = (int)(d * SM_DISPARITY_BINS);
  sm->st.warp_disparity_hist[bin >= SM_DISPARITY_BINS ? SM_DISPARITY_BINS - 1 : bin < 0 ? 0 : bin]++;
  uint64_t de6 = (uint64_t)(d * 1e6 + 0.5);
  if (de6 > sm->st.warp_disparity_max_e6) sm->st.warp_disparity_max_e6 = de6;
}
