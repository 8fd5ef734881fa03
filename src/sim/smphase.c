/* smphase.c - one cycle's SM phase on the engine's worker team (smphase.h). Within a cycle an SM
 * touches nothing of another SM's but global memory and the printf output: its L1s, plugins
 * (those that share state keep the serial phase: gpu.c) and counters are its own, and the
 * memory system's bit that an L1 queued a miss is set atomically. */
#include "sim/smphase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/par.h"
#include "sm/sm.h"

/* The adaptive choice, over the GPU's launches: a probe times four windows of AD_PROBE phases of 2+ SMs,
 * on the team, alone, alone and on the team (an ABBA order, so a workload that speeds up or slows down
 * over the probe weighs on both alike), the first AD_WARM phases after a switch untimed (members asleep
 * since the last probe wake first, and the caches of the side that ran last are cold); the faster total
 * is kept for `backoff` epochs of AD_EPOCH phases (doubling, up to AD_EPOCHS_MAX, while the probes
 * agree: a probe of the slower side costs, and on a busy host a team probe costs most). */
enum { AD_PROBE = 128, AD_WARM = 16, AD_EPOCH = 512, AD_EPOCHS = 16, AD_EPOCHS_MAX = 1024 };
enum { AD_WINDOWS = 4, AD_RUN = AD_WINDOWS }; /* ad_step: the probe's window, or AD_RUN */
static const bool ad_team_window[AD_WINDOWS] = {true, false, false, true};

struct SmPhase {
  Sm **sms;
  uint32_t nsm;
  ParTeam *team;
  PtxDefer *logs; /* per SM: its global accesses of the cycle */
  char *errs;     /* per SM: its cycle's error (errs_len bytes each) */
  size_t errs_len;
  int *rcs; /* per SM: its sm_cycle() result */
  const uint32_t *run;
  uint32_t nrun;
  uint64_t now;
  SmSideFn side; /* this phase's side tasks (smphase_run), NULL none */
  void *side_ctx;
  uint32_t nside;
  _Alignas(64) uint32_t claim; /* with side tasks: the next position of run[] a member takes */
  _Alignas(64) uint32_t pad_;  /* (the fields after claim on another host cache line) */
  bool adaptive, use_team;
  uint8_t ad_step;
  bool ad_last; /* the last probe's verdict: the team */
  uint32_t ad_n, ad_left, ad_backoff, ad_warm;
  double ad_t0, ad_team, ad_alone; /* the window's start; the probe's seconds on the team and alone */
};

static double mono_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

SmPhase *smphase_create(Sm **sms, uint32_t nsm, uint32_t threads, bool adaptive) {
  SmPhase *p = aligned_alloc(64, (sizeof *p + 63) / 64 * 64); /* claim on its own host cache line */
  if (!p) return NULL;
  memset(p, 0, sizeof *p);
  p->sms = sms;
  p->nsm = nsm;
  p->adaptive = adaptive;
  p->use_team = true;
  p->ad_step = 0;
  p->ad_backoff = AD_EPOCHS;
  p->ad_warm = AD_WARM; /* the members' first phases start their threads */
  p->logs = calloc(nsm, sizeof *p->logs);
  p->rcs = calloc(nsm, sizeof *p->rcs);
  if (!p->logs || !p->rcs || !(p->team = par_create(threads))) {
    smphase_free(p);
    return NULL;
  }
  return p;
}

void smphase_free(SmPhase *p) {
  if (!p) return;
  par_free(p->team);
  for (uint32_t i = 0; p->logs && i < p->nsm; i++) ptx_defer_free(&p->logs[i]);
  free(p->logs);
  free(p->errs);
  free(p->rcs);
  free(p);
}

uint32_t smphase_threads(const SmPhase *p) { return par_size(p->team); }

/* Whether the SMs log their global accesses: only while the team runs them. One thread performs
 * them at issue, in the same order as the log's commit would (SM by SM), and saves the logging. */
static void smphase_use_team(SmPhase *p, bool on) {
  p->use_team = on;
  for (uint32_t i = 0; i < p->nsm; i++) sm_defer(p->sms[i], on ? &p->logs[i] : NULL);
}

int smphase_begin(SmPhase *p, size_t errlen) {
  if (p->errs_len < errlen) {
    free(p->errs);
    p->errs = calloc(p->nsm, errlen);
    p->errs_len = p->errs ? errlen : 0;
    if (!p->errs) return -1;
  }
  for (uint32_t i = 0; i < p->nsm; i++) {
    sm_count_progress(p->sms[i], NULL);
    (void)sm_take_progress(p->sms[i]);
  }
  smphase_use_team(p, p->use_team);
  p->ad_t0 = mono_now(); /* the choice carries over from the last launch; the time between does not count */
  return 0;
}

void smphase_end(SmPhase *p, uint64_t *progress) {
  smphase_progress(p, progress);
  for (uint32_t i = 0; i < p->nsm; i++) {
    sm_defer(p->sms[i], NULL);
    sm_count_progress(p->sms[i], progress);
  }
}

void smphase_progress(SmPhase *p, uint64_t *sum) {
  for (uint32_t i = 0; i < p->nsm; i++) {
    *sum += sm_take_progress(p->sms[i]);
  }
}

/* After a phase of 2+ SMs or one offered side tasks. Each phase gives the same result on the team or
 * alone, so only the speed depends on the host's load. */
static void smphase_adapt(SmPhase *p) {
  if (p->ad_warm) { /* the first phases after a switch are not timed */
    if (--p->ad_warm == 0) p->ad_t0 = mono_now();
    return;
  }
  if (++p->ad_n < (p->ad_step == AD_RUN ? AD_EPOCH : AD_PROBE)) return;
  const double t = mono_now(), secs = t - p->ad_t0;
  p->ad_t0 = t;
  p->ad_n = 0;
  if (p->ad_step < AD_RUN) {
    *(ad_team_window[p->ad_step] ? &p->ad_team : &p->ad_alone) += secs;
    if (++p->ad_step < AD_RUN) {
      if (ad_team_window[p->ad_step] != p->use_team) p->ad_warm = AD_WARM, smphase_use_team(p, !p->use_team);
      return;
    }
    const bool team = p->ad_team < p->ad_alone;
    if (team != p->use_team) p->ad_warm = AD_WARM, smphase_use_team(p, team);
    const uint32_t longer = p->ad_backoff * 2 < AD_EPOCHS_MAX ? p->ad_backoff * 2 : AD_EPOCHS_MAX;
    p->ad_backoff = team == p->ad_last ? longer : AD_EPOCHS;
    p->ad_last = team;
    p->ad_left = p->ad_backoff;
  } else if (--p->ad_left == 0) {
    p->ad_step = 0, p->ad_team = p->ad_alone = 0;
    if (!p->use_team) p->ad_warm = AD_WARM, smphase_use_team(p, true);
  }
}

/* One SM's cycle: its result and message kept for the commit. */
static inline void smphase_visit(SmPhase *p, uint32_t i) {
  p->rcs[i] = sm_cycle(p->sms[i], p->now, p->errs + (size_t)i * p->errs_len, p->errs_len);
}

/* Member m's share of the SMs due: a contiguous run of them. With side tasks, task k runs first on
 * member t - 1 - k (mod t members), and every member then takes the next SM not taken yet until
 * none is left, so the SMs' cycles fill the time the side tasks leave free; which member
 * simulates an SM changes nothing in its cycle. */
static void smphase_member(void *ctx, uint32_t m) {
  SmPhase *p = ctx;
  const uint32_t t = par_size(p->team);
  if (p->side) {
    for (uint32_t k = t - 1 - m; k < p->nside; k += t) p->side(p->side_ctx, k);
    for (uint32_t k; (k = __atomic_fetch_add(&p->claim, 1, __ATOMIC_RELAXED)) < p->nrun;)
      smphase_visit(p, p->run[k]);
    return;
  }
  const uint32_t lo = (uint32_t)((uint64_t)p->nrun * m / t);
  const uint32_t hi = (uint32_t)((uint64_t)p->nrun * (m + 1) / t);
  for (uint32_t k = lo; k < hi; k++) smphase_visit(p, p->run[k]);
}

uint32_t smphase_run(SmPhase *p, const uint32_t *run, uint32_t n, uint64_t now, SmSideFn side, void *side_ctx,
                     uint32_t nside, bool *side_ran, char *err, size_t errlen) {
  p->run = run;
  p->nrun = n;
  p->now = now;
  p->side = p->use_team ? side : NULL;
  p->side_ctx = side_ctx;
  p->nside = nside;
  p->claim = 0;
  *side_ran = p->side != NULL;
  if ((n > 1 || p->side) && p->use_team)
    par_run(p->team, smphase_member, p);
  else
    for (uint32_t k = 0; k < n; k++) { /* stops where a serial run stops: at the first failure */
      smphase_visit(p, run[k]);
      if (p->rcs[run[k]]) break;
    }
  if ((n > 1 || side) && p->adaptive) smphase_adapt(p);
  for (uint32_t k = 0; k < n; k++) {
    const uint32_t i = run[k];
    ptx_defer_commit(&p->logs[i]);
    if (p->rcs[i]) {
      snprintf(err, errlen, "%s", p->errs + (size_t)i * p->errs_len);
      for (uint32_t j = k + 1; j < n; j++) ptx_defer_clear(&p->logs[run[j]]);
      return k;
    }
  }
  return n;
}
