/* barrier_phases.c - barrier and exit waits of one SM's warps (barrier_phases.h), from its events.
 * A warp-phase is the time between two releases of its CTA's barriers (or from the CTA's launch
 * to its first barrier, or from the last release to the CTA's exit, the "exit phase"). Within a
 * phase of N warps, T_i is warp i's time from the phase start to its arrival (exit phase: to its
 * retirement) and maxT the phase length; RTRU = sum_i(maxT - T_i) / (N * maxT) (the ratio of
 * temporal resource underutilisation of Xiang et al., applied per warp-phase). sum_i(maxT - T_i)
 * is exactly the warp-cycles waited at that barrier (at the exit), so the barrier- and exit-stall
 * fractions come from the same sums. A release names the warps it frees (SchedEvent.warps). */
#include "policy/observer/barrier_phases.h"

#include <stdlib.h>

#define NO_ARRIVAL UINT64_MAX

typedef struct BarrierPhases {
  uint32_t max_warps, max_ctas;
  uint64_t *arrive;      /* per warp slot: cycle it arrived at a barrier, NO_ARRIVAL if not waiting */
  uint64_t *retire_sum;  /* per CTA slot: sum of its retired warps' retirement cycles */
  uint64_t *phase_start; /* per CTA slot: cycle its current warp-phase began */
  uint64_t *start;       /* per CTA slot: its launch cycle */
  BarrierPhaseCounts n;
} BarrierPhases;

static void bp_free(void *state) {
  BarrierPhases *b = state;
  if (!b) return;
  free(b->arrive);
  free(b->retire_sum);
  free(b->phase_start);
  free(b->start);
  free(b);
}

static int bp_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  BarrierPhases *b = calloc(1, sizeof *b);
  if (b) {
    b->max_warps = env->max_warps, b->max_ctas = env->max_ctas;
    b->arrive = malloc(sizeof(uint64_t) * (env->max_warps + 1));
    b->retire_sum = calloc(env->max_ctas + 1, sizeof(uint64_t));
    b->phase_start = calloc(env->max_ctas + 1, sizeof(uint64_t));
    b->start = calloc(env->max_ctas + 1, sizeof(uint64_t));
  }
  if (!b || !b->arrive || !b->retire_sum || !b->phase_start || !b->start) {
    bp_free(b);
    return snprintf(err, errlen, "out of memory"), -1;
  }
  for (uint32_t i = 0; i <= env->max_warps; i++) b->arrive[i] = NO_ARRIVAL;
  *state = b;
  return 0;
}

uint64_t barrier_phases_rtru_e6(uint64_t wait, uint64_t n, uint64_t max_t) {
  if (!n || !max_t) return 0;
  return (uint64_t)(1e6 * (double)wait / ((double)n * (double)max_t) + 0.5);
}

/* A barrier of CTA slot cs released the warps of ev->warps: the phase of those that had arrived
 * ends (none: no phase). */
static void bp_release(BarrierPhases *b, const SchedEvent *ev) {
  const uint32_t cs = ev->cta_slot;
  uint64_t wait = 0, n = 0;
  for (uint32_t wd = 0; ev->warps && wd < (b->max_warps + 63) / 64; wd++)
    for (uint64_t m = ev->warps[wd]; m; m &= m - 1) {
      const uint32_t w = wd * 64 + (uint32_t)__builtin_ctzll(m);
      if (b->arrive[w] == NO_ARRIVAL) continue;
      wait += ev->cycle - b->arrive[w];
      n++;
      b->arrive[w] = NO_ARRIVAL;
    }
  if (!n) return;
  b->n.barrier_wait_cycles += wait;
  b->n.barrier_phases++;
  b->n.barrier_rtru_e6_sum += barrier_phases_rtru_e6(wait, n, ev->cycle - b->phase_start[cs]);
  b->phase_start[cs] = ev->cycle;
}

/* The last warp of CTA slot cs retired: its exit phase. */
static void bp_cta_exit(BarrierPhases *b, const SchedEvent *ev) {
  const uint32_t cs = ev->cta_slot;
  const uint64_t n = ev->nwarps, now = ev->cycle, wait = n * now - b->retire_sum[cs];
  b->n.exit_wait_cycles += wait;
  b->n.warp_resident_cycles += n * (now - b->start[cs]);
  b->n.exit_phases++;
  b->n.exit_rtru_e6_sum += barrier_phases_rtru_e6(wait, n, now - b->phase_start[cs]);
}

static void bp_event(void *state, const SchedEvent *ev) {
  BarrierPhases *b = state;
  switch (ev->kind) {
  case SCHED_EV_CTA_LAUNCH:
    b->retire_sum[ev->cta_slot] = 0;
    b->phase_start[ev->cta_slot] = b->start[ev->cta_slot] = ev->cycle;
    break;
  case SCHED_EV_BARRIER_ARRIVE: /* a releasing warp arrives too, with no wait */
    b->arrive[ev->slot] = ev->cycle;
    break;
  case SCHED_EV_BARRIER_RELEASE:
    bp_release(b, ev);
    break;
  case SCHED_EV_WARP_EXIT:
    b->arrive[ev->slot] = NO_ARRIVAL;
    b->retire_sum[ev->cta_slot] += ev->cycle;
    break;
  case SCHED_EV_CTA_EXIT:
    bp_cta_exit(b, ev);
    break;
  default:
    break;
  }
}

void barrier_phases_counts_add(BarrierPhaseCounts *sum, const void *state) {
  const BarrierPhaseCounts *n = &((const BarrierPhases *)state)->n;
  sum->barrier_wait_cycles += n->barrier_wait_cycles;
  sum->exit_wait_cycles += n->exit_wait_cycles;
  sum->warp_resident_cycles += n->warp_resident_cycles;
  sum->barrier_phases += n->barrier_phases;
  sum->barrier_rtru_e6_sum += n->barrier_rtru_e6_sum;
  sum->exit_phases += n->exit_phases;
  sum->exit_rtru_e6_sum += n->exit_rtru_e6_sum;
}

static const PolicyEngineHints bp_hints = {
    .events = SCHED_EV_BIT(SCHED_EV_CTA_LAUNCH) | SCHED_EV_BIT(SCHED_EV_BARRIER_ARRIVE) |
              SCHED_EV_BIT(SCHED_EV_BARRIER_RELEASE) | SCHED_EV_BIT(SCHED_EV_WARP_EXIT) |
              SCHED_EV_BIT(SCHED_EV_CTA_EXIT)};

const SmObserver observer_barrier_phases = {
    .name = "barrier-phases", .init = bp_init, .free = bp_free, .on_event = bp_event, .hints = &bp_hints};
