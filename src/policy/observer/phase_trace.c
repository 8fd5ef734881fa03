/* phase_trace.c - an SM observer that records the warp-phases of a window of
 * CTAs on one SM (`sm.observers = phase-trace`, `observer.phase-trace.file =
 * PATH`): which warp arrived at each barrier when, when each barrier released,
 * when each warp retired and its CTA exited. The input of BAWS's warp-phase
 * charts (Figures 3, 4 and 6; tools/phase_chart.py draws them).
 *
 * The window: SM `sm`, kernel launch `kernel` (0 = the first launch), CTAs
 * with linear id in [cta_first, cta_first + ctas). Only that SM's instance
 * writes, to a policy output (policy_env.h) opened when the first kernel
 * begins: PATH holds the whole record of a completed run or is left as it was.
 *
 * Format: '#' lines (a header; "# kernel NAME INDEX" at the window's kernel),
 * then one line per event: cycle cta_id warp event [pc], where warp is the
 * warp's index in its CTA (launch order) and event is
 *   L  the warp was launched (its CTA was placed on the SM)
 *   A  the warp arrived at a barrier (pc: the bar.sync's policy PC)
 *   R  the CTA's barrier released (warp: the one whose arrival or exit did it)
 *   X  the warp retired
 *   E  the CTA exited (warp = -1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/warp_sched.h"

typedef struct Phase {
  FILE *f; /* NULL: not the chosen SM, or before the run */
  PolicyGpu *gpu;
  int out, mine; /* policy_out handle; mine: the chosen SM */
  uint32_t sm;
  uint32_t kernel, cta_first, ctas, max_warps, max_ctas;
  int in_kernel;
  uint32_t *warp_idx; /* per warp slot: its index in its CTA */
  uint32_t *launched; /* per CTA slot: warps launched so far */
  uint64_t events;
} Phase;

static const CfgParam phase_params[] = {
    {.key = "file", .type = CFG_STRING, .def = "", .desc = "path of the warp-phase record (required)"},
    {.key = "sm",
     .type = CFG_INT,
     .def = "0",
     .min = 0,
     .max = 1 << 20,
     .desc = "the SM whose CTAs are recorded"},
    {.key = "kernel",
     .type = CFG_INT,
     .def = "0",
     .min = 0,
     .max = 1 << 30,
     .desc = "the kernel launch index recorded"},
    {.key = "cta_first",
     .type = CFG_INT,
     .def = "0",
     .min = 0,
     .max = 1ll << 31,
     .desc = "first linear CTA id of the window"},
    {.key = "ctas", .type = CFG_INT, .def = "3", .min = 1, .max = 1 << 20, .desc = "CTA ids in the window"},
    {0},
};

static int phase_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  const char *path = cfg_str_in(env->cfg, env->prefix, "file");
  char key[128];
  snprintf(key, sizeof key, "%s.file", env->prefix);
  if (!path[0])
    return cfg_errorf(env->cfg, key, err, errlen, "the phase-trace observer needs a file to write");
  char msg[1400];
  int64_t want = cfg_int_in(env->cfg, env->prefix, "sm"), nsm = cfg_int(env->cfg, "sm.count");
  if (want >= nsm) {
    char smkey[128];
    snprintf(smkey, sizeof smkey, "%s.sm", env->prefix);
    return cfg_errorf(env->cfg, smkey, err, errlen, "SM %lld does not exist (sm.count = %lld: 0 to %lld)",
                      (long long)want, (long long)nsm, (long long)nsm - 1);
  }
  int out = policy_out(env->gpu, key, path, msg, sizeof msg); /* an unwritable path fails now, on every SM */
  if (out < 0) return cfg_errorf(env->cfg, key, err, errlen, "%s", msg);
  Phase *p = calloc(1, sizeof *p);
  if (!p) return cfg_errorf(env->cfg, key, err, errlen, "out of memory");
  *state = p;
  if ((uint64_t)want != env->sm) return 0;
  p->gpu = env->gpu, p->out = out, p->mine = 1, p->sm = env->sm;
  p->kernel = (uint32_t)cfg_int_in(env->cfg, env->prefix, "kernel");
  p->cta_first = (uint32_t)cfg_int_in(env->cfg, env->prefix, "cta_first");
  p->ctas = (uint32_t)cfg_int_in(env->cfg, env->prefix, "ctas");
  p->max_warps = env->max_warps, p->max_ctas = env->max_ctas;
  p->warp_idx = calloc(env->max_warps + 1, sizeof *p->warp_idx);
  p->launched = calloc(env->max_ctas + 1, sizeof *p->launched);
  if (!p->warp_idx || !p->launched) {
    free(p->warp_idx), free(p->launched), free(p);
    *state = NULL;
    return cfg_errorf(env->cfg, key, err, errlen, "out of memory");
  }
  return 0;
}

/* Opens the record when the run really starts (NULL: it could not be; the run stops). */
static FILE *phase_file(Phase *p) {
  if (p->f || !p->mine) return p->f;
  if (!(p->f = policy_out_file(p->gpu, p->out))) {
    p->mine = 0;
    return NULL;
  }
  fprintf(p->f, "# warpsim warp-phase record: SM %u, kernel launch %u, CTAs %u..%u\n", p->sm, p->kernel,
          p->cta_first, p->cta_first + p->ctas - 1);
  fprintf(p->f,
          "# cycle cta_id warp event [pc]: L launch, A barrier arrival, R barrier release, X warp retired, "
          "E CTA exit\n");
  return p->f;
}

static void phase_free(void *state) {
  Phase *p = state;
  if (!p) return;
  free(p->warp_idx);
  free(p->launched);
  free(p);
}

static void phase_event(void *state, const SchedEvent *ev) {
  Phase *p = state;
  if (!p || !p->mine) return;
  if (ev->kind == SCHED_EV_KERNEL_BEGIN && !phase_file(p)) return;
  if (!p->f) return;
  if (ev->kind == SCHED_EV_KERNEL_BEGIN) {
    p->in_kernel = ev->kernel && ev->kernel->launch_index == p->kernel;
    if (p->in_kernel) fprintf(p->f, "# kernel %s %u\n", ev->kernel->name, ev->kernel->launch_index);
    return;
  }
  if (ev->kind == SCHED_EV_KERNEL_END) {
    p->in_kernel = 0;
    return;
  }
  if (!p->in_kernel || ev->cta_id < p->cta_first || ev->cta_id - p->cta_first >= p->ctas) return;
  if (ev->cta_slot >= p->max_ctas) return;
  char c;
  long long warp = -1;
  switch (ev->kind) {
  case SCHED_EV_CTA_LAUNCH:
    p->launched[ev->cta_slot] = 0;
    return;
  case SCHED_EV_WARP_LAUNCH:
    if (ev->slot < p->max_warps) p->warp_idx[ev->slot] = p->launched[ev->cta_slot]++;
    c = 'L';
    break;
  case SCHED_EV_BARRIER_ARRIVE:
    c = 'A';
    break;
  case SCHED_EV_BARRIER_RELEASE:
    c = 'R';
    break;
  case SCHED_EV_WARP_EXIT:
    c = 'X';
    break;
  case SCHED_EV_CTA_EXIT:
    c = 'E';
    break;
  default:
    return;
  }
  if (ev->kind != SCHED_EV_CTA_EXIT && ev->slot < p->max_warps) warp = p->warp_idx[ev->slot];
  p->events++;
  if (c == 'A')
    fprintf(p->f, "%llu %u %lld %c %u\n", (unsigned long long)ev->cycle, ev->cta_id, warp, c, ev->pc);
  else
    fprintf(p->f, "%llu %u %lld %c\n", (unsigned long long)ev->cycle, ev->cta_id, warp, c);
}

static void phase_stats(void *state, PolicyStats *out) {
  const Phase *p = state;
  policy_stat_u64(out, "phase_events", "events",
                  "barrier arrivals, releases and retirements written to the phase record",
                  p ? p->events : 0);
}

const SmObserver observer_phase_trace = {.name = "phase-trace",
                                         .shares_state = policy_shares_always,
                                         .params = phase_params,
                                         .init = phase_init,
                                         .free = phase_free,
                                         .on_event = phase_event,
                                         .stats = phase_stats};
