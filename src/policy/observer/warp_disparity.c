/* warp_disparity.c - warp execution-time disparity of one SM's CTAs (warp_disparity.h), from its
 * events: a warp's time runs from its CTA's launch (every warp of a CTA launches with it) to its
 * retirement (WARP_EXIT); the CTA's disparity is counted at its exit. */
#include "policy/observer/warp_disparity.h"

#include <stdlib.h>

typedef struct CtaTimes {
  uint64_t start, tmin, tmax; /* launch cycle; its retired warps' shortest and longest time */
} CtaTimes;

typedef struct Disparity {
  CtaTimes *cta; /* per CTA slot */
  DisparityCounts n;
} Disparity;

static void wd_free(void *state) {
  Disparity *d = state;
  if (!d) return;
  free(d->cta);
  free(d);
}

static int wd_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  Disparity *d = calloc(1, sizeof *d);
  if (d) d->cta = calloc(env->max_ctas + 1, sizeof *d->cta);
  if (!d || !d->cta) {
    wd_free(d);
    return snprintf(err, errlen, "out of memory"), -1;
  }
  *state = d;
  return 0;
}

/* The CTA of ev left: (tmax - tmin) / tmax, 0 when its warps took no time. */
static void wd_cta_exit(Disparity *d, const SchedEvent *ev) {
  const CtaTimes *c = &d->cta[ev->cta_slot];
  const double x = c->tmax ? (double)(c->tmax - c->tmin) / (double)c->tmax : 0.0;
  if (c->tmax) d->n.sum += x;
  const int bin = (int)(x * DISPARITY_BINS);
  d->n.hist[bin >= DISPARITY_BINS ? DISPARITY_BINS - 1 : bin < 0 ? 0 : bin]++;
  const uint64_t e6 = (uint64_t)(x * 1e6 + 0.5);
  if (e6 > d->n.max_e6) d->n.max_e6 = e6;
}

static void wd_event(void *state, const SchedEvent *ev) {
  Disparity *d = state;
  CtaTimes *c = ev->cta_slot < UINT32_MAX ? &d->cta[ev->cta_slot] : NULL;
  switch (ev->kind) {
  case SCHED_EV_CTA_LAUNCH:
    *c = (CtaTimes){.start = ev->cycle, .tmin = UINT64_MAX, .tmax = 0};
    break;
  case SCHED_EV_WARP_EXIT: {
    const uint64_t t = ev->cycle - c->start;
    if (t < c->tmin) c->tmin = t;
    if (t > c->tmax) c->tmax = t;
    break;
  }
  case SCHED_EV_CTA_EXIT:
    wd_cta_exit(d, ev);
    break;
  default:
    break;
  }
}

void warp_disparity_counts_add(DisparityCounts *sum, const void *state) {
  const DisparityCounts *n = &((const Disparity *)state)->n;
  sum->sum += n->sum;
  for (int b = 0; b < DISPARITY_BINS; b++) sum->hist[b] += n->hist[b];
  if (n->max_e6 > sum->max_e6) sum->max_e6 = n->max_e6;
}

static const PolicyEngineHints wd_hints = {.events = SCHED_EV_BIT(SCHED_EV_CTA_LAUNCH) |
                                                     SCHED_EV_BIT(SCHED_EV_WARP_EXIT) |
                                                     SCHED_EV_BIT(SCHED_EV_CTA_EXIT)};

const SmObserver observer_warp_disparity = {
    .name = "warp-disparity", .init = wd_init, .free = wd_free, .on_event = wd_event, .hints = &wd_hints};
