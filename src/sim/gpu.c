/* gpu.c - the timing engine's top loop: dispatches CTAs to SMs round-robin as
 * occupancy allows, ticks the memory system and every SM each cycle, jumps
 * over cycles in which nothing can happen until the next event (the SMs it visits: visits.h), reports
 * progress, and stops a run that makes no progress with a dump of which warps
 * wait on what. Also the statistics printers (text and JSON). */
#include "sim/gpu.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/bitmap.h"
#include "policy/observer/barrier_phases.h"
#include "policy/observer/interwarp_hits.h"
#include "policy/observer/locality.h"
#include "policy/observer/warp_disparity.h"
#include "sim/policies.h"
#include "sim/par.h"
#include "sim/smphase.h"
#include "sim/visits.h"
#include "sm/kregs.h"
#include "sm/timeline.h"

struct Gpu {
  const Config *cfg;
  Timeline *tl; /* timeline.file: the recorder (NULL: off) */
  MemSys *ms;
  PolicyGpu *pgpu; /* the policies' per-GPU context (policy_env.h), handed to every component */
  Sm **sms;
  uint32_t nsm;
  uint64_t cycle;
  uint64_t deadlock_cycles;
  uint64_t max_cycles, max_warp_insts; /* per-launch run limits (limit.*; 0 = none) */
  bool skip_idle;
  GpuKernelStats *kern;
  uint32_t nkern, kcap;
  bool progress;
  Visits v;          /* which SMs each cycle simulates (visits.h) */
  uint64_t prog_sum; /* every SM counts its events here (sm_count_progress) */
  /* sim.threads: the SM phase of a cycle on several threads (smphase.h) */
  uint32_t threads;      /* asked for (0 resolved to the cores, at most the SMs) */
  uint32_t threads_used; /* the most any launch used (1: every SM phase ran in order) */
  bool adaptive;         /* sim.adaptive */
  uint32_t nlisted;      /* the SMs' plugins the policies' statistics show: the scheduler, sm.observers */
  /* the SMs' plugin index of each measuring observer (SmPolicies.measures), -1 none */
  int32_t locality, bphases, disparity, interwarp;
  SmPhase *phase; /* made at the first launch that can use it */
  uint64_t early; /* the cycle whose early memsys parts ran during the SM phase before it (else UINT64_MAX) */
  uint64_t overlap_cycles; /* cycles whose early memsys parts may run so */
  uint32_t *run;           /* the SMs simulated this cycle, ascending */
  /* the SM that took the last CTA, over all launches: CTA dispatch goes on round-robin after it
   * (3.2.2 gpgpu_sim::issue_block2core, m_last_cluster_issue; 0 at start: the first CTA goes to SM 1) */
  uint32_t last_cta_sm;
};

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the SM phase on several threads (sim.threads; smphase.h) ---- */

/* The SM phase's side tasks: the memory system's two early parts of the next cycle (memsys.h). */
typedef struct GpuEarly {
  MemSys *ms;
  uint64_t cycle;
} GpuEarly;
static void gpu_early(void *ctx, uint32_t task) {
  const GpuEarly *e = ctx;
  if (task == 0)
    memsys_tick_early(e->ms, e->cycle);
  else
    memsys_tick_early_req(e->ms, e->cycle);
}

/* Simulates this cycle's due SMs (the serial loop's set) on the team, then notes them in SM
 * order. Where cycle now + 1 is certainly simulated in this launch, the team runs its
 * early memsys parts meanwhile (g->early): next_sure says nothing but the launch's end can stop
 * it, and the launch cannot end while CTAs are left to dispatch (ctas_left) or an SM holding
 * CTAs is not simulated this cycle (only a simulated SM's CTAs can end). Returns 0, or -1 with
 * the first failing SM's message in err. */
static int gpu_sm_phase(Gpu *g, uint64_t now, bool next_sure, bool ctas_left, uint64_t *fills, uint64_t *pops,
                        bool *soon, char *err, size_t errlen) {
  uint32_t n = 0;
  for (uint32_t w = 0; w < g->v.nwords; w++)
    for (uint64_t b = visits_take(&g->v, w, fills, pops); b; b &= b - 1)
      g->run[n++] = w * 64 + (uint32_t)__builtin_ctzll(b);
  GpuEarly e = {g->ms, now + 1};
  bool ran;
  const bool early = next_sure && (ctas_left || g->v.nresident > n);
  const uint32_t done =
      smphase_run(g->phase, g->run, n, now, early ? gpu_early : NULL, &e, 2, &ran, err, errlen);
  if (ran) g->early = now + 1;
  g->overlap_cycles += early; /* whether the team ran it follows the host's speed (sim.adaptive) */
  for (uint32_t k = 0; k < done; k++) *soon |= visits_note(&g->v, g->run[k], now);
  smphase_progress(g->phase, &g->prog_sum); /* each SM counted its events on its own */
  return done < n ? -1 : 0;
}

/* Whether this launch's SM phases may run on the team (made here when first needed): not with a
 * plugin that shares state, a timeline or a step observer. -1 when the team cannot be made. */
static int gpu_par_begin(Gpu *g, const struct PtxLaunch *L, size_t errlen, bool *par, char *err) {
  *par = false;
  if (g->threads < 2 || L->observe) return 0;
  for (uint32_t i = 0; i < g->nsm; i++)
    if (sm_shares_state(g->sms[i])) return 0;
  if (!g->phase && !(g->phase = smphase_create(g->sms, g->nsm, g->threads, g->adaptive))) {
    snprintf(err, errlen, "cannot start %u simulation threads (sim.threads)", g->threads);
    return -1;
  }
  if ((!g->run && !(g->run = calloc(g->nsm, sizeof *g->run))) || smphase_begin(g->phase, errlen)) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  *par = true;
  if (smphase_threads(g->phase) > g->threads_used) g->threads_used = smphase_threads(g->phase);
  return 0;
}

Gpu *gpu_create(const Config *cfg, char *err, size_t errlen) {
  Gpu *g = calloc(1, sizeof *g);
  if (!g) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if (kregs_check(cfg, err, errlen)) {
    free(g);
    return NULL;
  }
  if (tl_check_config(cfg, (uint32_t)cfg_int(cfg, "sm.count"), err, errlen)) {
    free(g);
    return NULL;
  }
  g->cfg = cfg;
  g->deadlock_cycles = (uint64_t)cfg_int(cfg, "sm.deadlock_cycles");
  g->skip_idle = cfg_bool(cfg, "sm.skip_idle_cycles");
  g->max_cycles = (uint64_t)cfg_int(cfg, "limit.max_cycles");
  g->max_warp_insts = (uint64_t)cfg_int(cfg, "limit.max_warp_insts");
  g->threads = (uint32_t)cfg_int(cfg, "sim.threads");
  if (g->threads == 0) g->threads = par_cores();
  g->threads_used = 1;
  g->early = UINT64_MAX;
  g->adaptive = cfg_bool(cfg, "sim.adaptive");
  /* the policies' per-GPU context: made first, handed to every component, freed last */
  MemSysPolicies mpol; /* the config's policy names, resolved here, handed to the components */
  SmPolicies spol;
  if (sim_mem_policies(cfg, &mpol, err, errlen) || sim_sm_policies(cfg, &spol, err, errlen)) {
    free(g);
    return NULL;
  }
  g->nlisted = 1 + spol.nobservers;
  g->locality = g->bphases = g->disparity = g->interwarp = -1;
  for (uint32_t k = 0; k < spol.nmeasures; k++) {
    const SmObserver *m = spol.measures[k];
    int32_t *at = m == &observer_locality         ? &g->locality
                  : m == &observer_barrier_phases ? &g->bphases
                  : m == &observer_warp_disparity ? &g->disparity
                  : m == &observer_interwarp_hits ? &g->interwarp
                                                  : NULL;
    if (at) *at = (int32_t)(g->nlisted + k);
  }
  if (!(g->pgpu = policy_gpu_create())) {
    free(g);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  g->ms = memsys_create(cfg, g->pgpu, &mpol, err, errlen);
  if (!g->ms) {
    policy_gpu_free(g->pgpu);
    free(g);
    return NULL;
  }
  g->nsm = memsys_sms(g->ms);
  g->sms = calloc(g->nsm, sizeof(Sm *));
  if (!g->sms || visits_init(&g->v, g->sms, g->nsm)) {
    gpu_free(g);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  for (uint32_t i = 0; i < g->nsm; i++) {
    if (!(g->sms[i] = sm_create(i, cfg, g->ms, g->pgpu, &spol, err, errlen))) {
      gpu_free(g);
      return NULL;
    }
    sm_count_progress(g->sms[i], &g->prog_sum);
  }
  if (g->threads > g->nsm) g->threads = g->nsm; /* a member with no SM would only wait */
  return g;
}

int gpu_close(Gpu *g, char *err, size_t errlen) {
  if (!g) return 0;
  int rc = g->pgpu ? policy_gpu_close(g->pgpu, err, errlen) : 0;
  gpu_free(g);
  return rc;
}

void gpu_free(Gpu *g) {
  if (!g) return;
  tl_free(g->tl); /* before the SMs: they end their kernel without it */
  smphase_free(g->phase);
  free(g->run);
  for (uint32_t i = 0; g->sms && i < g->nsm; i++) sm_free(g->sms[i]);
  free(g->sms);
  visits_free(&g->v);
  memsys_free(g->ms);
  policy_gpu_free(g->pgpu); /* last: the components' shared blocks live until they are gone */
  free(g->kern);
  free(g);
}

void gpu_set_progress(Gpu *g, bool on) { g->progress = on; }

int gpu_timeline_start(Gpu *g, FILE *out, char *err, size_t errlen) {
  if (!(g->tl = tl_create(g->cfg, out, g->nsm, err, errlen))) return -1;
  for (uint32_t i = 0; i < g->nsm; i++)
    if (tl_attach(g->tl, g->sms[i])) {
      snprintf(err, errlen, "out of memory");
      tl_free(g->tl);
      g->tl = NULL;
      return -1;
    }
  return 0;
}

int gpu_timeline_finish(Gpu *g) {
  if (!g->tl) return 0;
  int rc = tl_finish(g->tl);
  tl_free(g->tl);
  g->tl = NULL;
  return rc;
}
uint64_t gpu_cycles(const Gpu *g) { return g->cycle; }
const MemSys *gpu_memsys(const Gpu *g) { return g->ms; }

static void sum_sm_stats(const Gpu *g, SmStats *t) {
  memset(t, 0, sizeof *t);
  for (uint32_t i = 0; i < g->nsm; i++) {
    const SmStats *s = sm_stats(g->sms[i]);
    const uint64_t *a = (const uint64_t *)(const void *)s;
    uint64_t *b = (uint64_t *)(void *)t;
    for (size_t k = 0; k < sizeof(SmStats) / sizeof(uint64_t); k++) b[k] += a[k]; /* uint64_t counts */
  }
}

/* Formats the deadlock report: which warps of which SM wait on what. */
static void deadlock_report(Gpu *g, const char *kernel, uint64_t idle, char *err, size_t errlen) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (f) {
    for (uint32_t i = 0; i < g->nsm; i++)
      if (!sm_idle(g->sms[i])) sm_dump(g->sms[i], f);
    memsys_dump(g->ms, f);
    fclose(f);
  }
  if (idle)
    snprintf(err, errlen, "kernel %s: deadlock: no progress for %llu cycles at cycle %llu\n%s", kernel,
             (unsigned long long)idle, (unsigned long long)g->cycle, buf ? buf : "");
  else
    snprintf(err, errlen,
             "kernel %s: deadlock: no warp can make progress and nothing is in flight (cycle %llu)\n%s",
             kernel, (unsigned long long)g->cycle, buf ? buf : "");
  free(buf);
}

/* A launch stopped by limit.max_cycles / limit.max_warp_insts names the warps still
 * running, where they are, and why an intra-warp spin lock never ends (ptx_cta_describe_running). */
static void limit_report(Gpu *g, const char *kernel, const char *what, uint64_t count, uint64_t limit,
                         char *err, size_t errlen) {
  char buf[900];
  size_t n = 0;
  uint32_t budget = 4;
  buf[0] = 0;
  for (uint32_t i = 0; i < g->nsm && budget && n + 1 < sizeof buf; i++)
    n += sm_describe_running(g->sms[i], buf + n, sizeof buf - n, &budget);
  const char *key = what[0] == 'c' ? "cycles" : "warp_insts";
  snprintf(err, errlen,
           "kernel %s: stopped after %llu %s (limit.max_%s = %llu, --max-%s): an endless loop, or a kernel "
           "longer than the limit (raise it with --set limit.max_%s=N, 0 for none); running:%s",
           kernel, (unsigned long long)count, what, key, (unsigned long long)limit,
           what[0] == 'c' ? "cycles" : "insts", key, buf[0] ? buf : " no warp between instructions");
}

/* The L2 slices' accepted reads and allocating read misses so far. */
static void gpu_l2_reads(const Gpu *g, uint64_t *reads, uint64_t *misses) {
  CacheStats l2 = {0};
  for (uint32_t p = 0; p < memsys_partitions(g->ms); p++)
    cache_stats_add(&l2, cache_stats(memsys_l2(g->ms, p)));
  *reads = l2.reads;
  *misses = l2.read_misses;
}

WsResult gpu_engine_run(void *gpu, struct PtxLaunch *L, WsLaunchStats *st, char *err, size_t errlen) {
  Gpu *g = gpu;
  if (kregs_apply(g->cfg, L, err, errlen)) return WS_ERROR_LAUNCH_FAILED;
  SmKernelInfo *k = sm_kernel_info_create(g->cfg, L);
  if (!k) {
    snprintf(err, errlen, "out of memory");
    return WS_ERROR_OUT_OF_MEMORY;
  }
  if (g->nkern == g->kcap) {
    uint32_t nc = g->kcap ? g->kcap * 2 : 16;
    GpuKernelStats *nk = realloc(g->kern, sizeof *nk * nc);
    if (!nk) {
      sm_kernel_info_free(k);
      snprintf(err, errlen, "out of memory");
      return WS_ERROR_OUT_OF_MEMORY;
    }
    g->kern = nk;
    g->kcap = nc;
  }
  GpuKernelStats *ks = &g->kern[g->nkern++];
  memset(ks, 0, sizeof *ks);
  snprintf(ks->name, sizeof ks->name, "%s", L->fn->name);
  ks->start_cycle = g->cycle;
  ks->regs_per_thread = L->regs_per_thread;
  snprintf(ks->regs_source, sizeof ks->regs_source, "%s", L->regs_source);
  ks->threads_per_cta = L->threads_per_cta;
  ks->shared_per_cta = L->shared_per_cta;
  L->nsm = g->nsm;
  PolicyGpu *pg = g->pgpu;
  const char *occ_lim;
  PolicyKernel pk = {.name = L->fn->name,
                     .launch_index = g->nkern - 1,
                     .grid = {L->grid[0], L->grid[1], L->grid[2]},
                     .block = {L->block[0], L->block[1], L->block[2]},
                     .ctas_total = L->ctas_total,
                     .warps_per_cta = L->warps_per_cta,
                     .regs_per_thread = L->fn->regs_per_thread,
                     .shared_per_cta = L->shared_per_cta,
                     .npc = L->fn->npc,
                     .max_ctas_per_sm = sm_occupancy(g->cfg, L->regs_per_thread, L->threads_per_cta,
                                                     L->shared_per_cta, &occ_lim)};
  policy_gpu_set_kernel(pg, &pk);
  for (uint32_t i = 0; i < g->nsm; i++) sm_begin_kernel(g->sms[i], L, k, g->cycle);
  g->prog_sum = 0;
  Visits *v = &g->v;
  visits_begin_kernel(v, g->cycle);
  uint64_t *events = memsys_sm_events(g->ms);
  const uint32_t nwords = v->nwords;
  uint64_t *fills = events, *pops = events + nwords;
  WsResult rc = WS_SUCCESS;
  ks->ctas_per_sm = sm_max_ctas(g->sms[0], &ks->limiter);
  if (ks->ctas_per_sm == 0) {
    snprintf(err, errlen,
             "kernel %s: one CTA (%u threads, %u registers/thread, %u bytes shared) does not fit on an SM "
             "(limited by %s)",
             L->fn->name, L->threads_per_cta, L->regs_per_thread, L->shared_per_cta, ks->limiter);
    rc = WS_ERROR_LAUNCH_FAILED;
  }
  SmStats before;
  sum_sm_stats(g, &before);
  uint64_t l2_reads0, l2_misses0;
  gpu_l2_reads(g, &l2_reads0, &l2_misses0);
  bool par = false;
  if (rc == WS_SUCCESS && gpu_par_begin(g, L, errlen, &par, err)) rc = WS_ERROR_OUT_OF_MEMORY;
  uint64_t next_cta = 0, last_progress = g->prog_sum, last_change = g->cycle;
  uint64_t now = g->cycle - 1; /* the cycle simulated last (the kernel ends after it) */
  double t0 = wall_now(), last_print = t0;
  uint64_t next_limit_check = g->cycle + 4096; /* instructions are summed over SMs every 4096 cycles */
  while (rc == WS_SUCCESS) {
    now = g->cycle;
    if (g->max_cycles && now - ks->start_cycle >= g->max_cycles) { /* a kernel that never ends: an error */
      limit_report(g, L->fn->name, "cycles", now - ks->start_cycle, g->max_cycles, err, errlen);
      rc = WS_ERROR_LIMIT;
      break;
    }
    if (g->max_warp_insts && now >= next_limit_check) {
      SmStats cur;
      sum_sm_stats(g, &cur);
      next_limit_check = now + 4096;
      if (cur.warp_insts - before.warp_insts > g->max_warp_insts) {
        limit_report(g, L->fn->name, "warp instructions", cur.warp_insts - before.warp_insts,
                     g->max_warp_insts, err, errlen);
        rc = WS_ERROR_LIMIT;
        break;
      }
    }
    if (g->early == now)
      memsys_tick_late(g->ms, now); /* its early parts ran during the last cycle's SM phase */
    else
      memsys_tick(g->ms, now);
    int dispatch_possible = 0;
    if (next_cta < L->ctas_total && (v->naccept || v->ndynamic)) {
      const uint32_t rr = g->last_cta_sm + 1 < g->nsm ? g->last_cta_sm + 1 : 0; /* the first SM offered */
      for (uint32_t i = 0; i < g->nsm && next_cta < L->ctas_total && (v->naccept || v->ndynamic); i++) {
        uint32_t si = rr + i < g->nsm ? rr + i : rr + i - g->nsm;
        if (!visits_can_accept(v, si)) continue;
        PtxCta *c = ptx_cta_create(L, (uint32_t)next_cta, si);
        if (!c) {
          snprintf(err, errlen, "kernel %s: out of host memory creating a CTA", L->fn->name);
          rc = WS_ERROR_OUT_OF_MEMORY;
          break;
        }
        next_cta++;
        g->last_cta_sm = si;
        sm_launch_cta(g->sms[si], c, now);
        visits_note(v, si, now);
        bitmap_set(v->due, si); /* simulated this cycle whatever it says */
        dispatch_possible = 1;
      }
    }
    if (rc != WS_SUCCESS) break;
    /* Only SMs that are not quiet, whose own timer is due, or whose L1s changed
     * are simulated; the others would find this cycle quiet. */
    if (now >= v->wake_min) visits_collect_due(v, now);
    bool soon =
        false; /* some SM is busy (only a simulated one can be: a busy one is simulated every cycle) */
    /* Nothing but the launch's end or a failure can stop cycle now + 1 (gpu_sm_phase): no limit
     * or deadlock check (the one below fires only while now - last_change exceeds its bound),
     * and the next-cycle choice below takes now + 1 while the memory system is busy then. */
    const bool next_sure = par && !(g->max_cycles && now + 1 - ks->start_cycle >= g->max_cycles) &&
                           !(g->max_warp_insts && now + 1 >= next_limit_check) &&
                           !(g->deadlock_cycles && now - last_change > g->deadlock_cycles) &&
                           memsys_next_certain(g->ms, now);
    if (par && gpu_sm_phase(g, now, next_sure, next_cta < L->ctas_total, fills, pops, &soon, err, errlen))
      rc = WS_ERROR_ILLEGAL_ADDRESS;
    for (uint32_t w = 0; w < nwords && !par; w++) { /* fills and pops are set by memsys_tick only */
      uint64_t b = visits_take(v, w, fills, pops);
      if (rc != WS_SUCCESS) b = 0;
      for (; b; b &= b - 1) {
        uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(b);
        if (b & (b - 1))
          sm_prefetch(g->sms[w * 64 + (uint32_t)__builtin_ctzll(b & (b - 1))]); /* the next one's lines */
        if (sm_cycle(g->sms[i], now, err, errlen)) {
          rc = WS_ERROR_ILLEGAL_ADDRESS;
          break;
        }
        soon |= visits_note(v, i, now);
      }
    }
    uint64_t progress = g->prog_sum;
    int all_idle = v->nresident == 0;
    if (rc == WS_SUCCESS && policy_gpu_error(pg)) { /* a plugin cannot go on (policy_gpu_fail) */
      snprintf(err, errlen, "kernel %s: %s", L->fn->name, policy_gpu_error(pg));
      rc = WS_ERROR_LAUNCH_FAILED;
      break;
    }
    if (rc != WS_SUCCESS) {
      if (!strstr(err, "out-of-bounds") && !strstr(err, "misaligned") && !strstr(err, "read-only"))
        rc = WS_ERROR_LAUNCH_FAILED;
      break;
    }
    if (all_idle && next_cta >= L->ctas_total) {
      g->cycle++;
      break;
    }
    if (progress != last_progress || dispatch_possible) {
      last_progress = progress;
      last_change = now;
    } else if (g->deadlock_cycles && now - last_change > g->deadlock_cycles) {
      deadlock_report(g, L->fn->name, now - last_change, err, errlen);
      rc = WS_ERROR_DEADLOCK;
      break;
    }
    /* next cycle, or jump to the next event when nothing can happen before it */
    /* the next cycle when some SM is busy or can take a CTA */
    if (!soon && next_cta < L->ctas_total && (v->naccept || v->ndynamic))
      for (uint32_t i = 0; i < g->nsm && !soon; i++) soon = visits_can_accept(v, i);
    uint64_t next = now + 1;
    /* (busy: memsys_next_event would say now + 1; it did before the SM phase when the next cycle's
     * early memsys parts ran during it, and the memory system is now past what it would read) */
    if (!soon && g->early != now + 1 && !memsys_busy_next(g->ms, now)) {
      next = visits_next_event(v, now);
      if (next > now + 1) {
        uint64_t t = memsys_next_event(g->ms, now);
        if (t < next) next = t;
      }
      if (!g->skip_idle && next != UINT64_MAX) next = now + 1;
      if (next == UINT64_MAX) {
        deadlock_report(g, L->fn->name, 0, err, errlen);
        rc = WS_ERROR_DEADLOCK;
        break;
      }
      /* a jump stops where the detector would (now + 1 itself passed it above) */
      if (g->deadlock_cycles && next - last_change > g->deadlock_cycles + 1)
        next = last_change + g->deadlock_cycles + 1;
      if (next > now + 1)
        for (uint32_t i = 0; i < g->nsm; i++) sm_skip_cycles(g->sms[i], now + 1, next - now - 1);
    }
    g->cycle = next;
    if (g->progress && (now & 0xFFF) == 0) {
      double t = wall_now();
      if (t - t0 > 3.0 && t - last_print > 2.0) {
        SmStats cur;
        sum_sm_stats(g, &cur);
        fprintf(
            stderr, "\r[warpsim] kernel %s: cycle %llu, CTAs %llu/%llu dispatched, %.2f M warp-insts/s   ",
            L->fn->name, (unsigned long long)(now - ks->start_cycle), (unsigned long long)next_cta,
            (unsigned long long)L->ctas_total, (double)(cur.warp_insts - before.warp_insts) / (t - t0) / 1e6);
        last_print = t;
      }
    }
  }
  if (g->progress && wall_now() - t0 > 3.0) fprintf(stderr, "\n");
  if (par) smphase_end(g->phase, &g->prog_sum);
  for (uint32_t i = 0; i < g->nsm; i++)
    sm_end_kernel(g->sms[i], now + 1); /* also settles deferred statistics */
  policy_gpu_set_kernel(pg, NULL);
  if (rc != WS_SUCCESS) policy_gpu_launch_failed(pg); /* the policies' output files are dropped */
  SmStats after;
  sum_sm_stats(g, &after);
  ks->cycles = g->cycle - ks->start_cycle;
  gpu_l2_reads(g, &ks->l2_reads, &ks->l2_read_misses);
  ks->l2_reads -= l2_reads0;
  ks->l2_read_misses -= l2_misses0;
  ks->warp_insts = after.warp_insts - before.warp_insts;
  ks->thread_insts = after.thread_insts - before.thread_insts;
  ks->ctas = after.ctas_done - before.ctas_done;
  if (g->tl) tl_kernel(g->tl, ks->name, g->nkern - 1, ks->start_cycle, g->cycle, ks->ctas, ks->warp_insts);
  if (st) {
    st->warp_insts = ks->warp_insts;
    st->thread_insts = ks->thread_insts;
    st->ctas = ks->ctas;
    st->warps = after.warps_done - before.warps_done;
    st->barriers = after.issue_kind[WINST_BARRIER] - before.issue_kind[WINST_BARRIER];
    st->cycles = ks->cycles;
  }
  sm_kernel_info_free(k);
  return rc;
}

/* ---- statistics ---- */
static const char *const stall_names[SM_STALL__COUNT] = {"no_warp", "ibuffer",   "scoreboard",
                                                         "barrier", "unit_busy", "ldst_busy",
                                                         "policy",  "drain",     "other_sched"};

/* The policies' statistics of one section: the stats hook of the SMs' plugin `plugin`, or of
 * every cache of kind `cache` (0 l1d, 1 l1i, 2 l2), over their instances. */
static void gpu_policy_section(const Gpu *g, StatsOut *o, const char *key, int plugin, int cache,
                               const char *desc) {
  PolicyStats *ps = policy_stats_create();
  if (!ps) return;
  const char *name = "";
  if (plugin >= 0) {
    name = sm_plugin_name(g->sms[0], (uint32_t)plugin);
    for (uint32_t i = 0; i < g->nsm; i++) sm_policy_stats(g->sms[i], (uint32_t)plugin, ps);
  } else {
    uint32_t count = cache == 2 ? memsys_partitions(g->ms) : g->nsm;
    for (uint32_t i = 0; i < count; i++) {
      const Cache *c = cache == 0   ? memsys_l1d(g->ms, i)
                       : cache == 1 ? memsys_l1i(g->ms, i)
                                    : memsys_l2(g->ms, i);
      name = cache_params_of(c)->policy->name;
      cache_policy_stats(c, ps);
    }
  }
  stats_group(o, key, 0, desc);
  policy_stats_emit(ps, name, o);
  stats_end(o);
  policy_stats_free(ps);
}

/* The plugins' and cache policies' own statistics over the whole GPU:
 * {"sched": {...}, "observers": {"name": {...}}, "l1d": ..., "l1i": ..., "l2": ...}. */
static void gpu_policy_stats_emit(const Gpu *g, StatsOut *o) {
  const uint32_t nplug = g->nlisted;
  stats_group(o, "policies", 0, "the policies' own statistics (policy_env.h)");
  gpu_policy_section(g, o, "sched", 0, -1, "the warp scheduler, over the SMs");
  if (nplug > 1) stats_group(o, "observers", 0, "each observer plugin, over the SMs");
  for (uint32_t k = 1; k < nplug; k++)
    gpu_policy_section(g, o, sm_plugin_name(g->sms[0], k), (int)k, -1, "an observer, over the SMs");
  if (nplug > 1) stats_end(o);
  gpu_policy_section(g, o, "l1d", -1, 0, "the L1D replacement policy, over the SMs");
  gpu_policy_section(g, o, "l1i", -1, 1, "the L1I replacement policy, over the SMs");
  gpu_policy_section(g, o, "l2", -1, 2, "the L2 replacement policy, over the slices");
  stats_end(o);
}

static const char *const kind_names[WINST__COUNT] = {
    "alu",    "sfu",   "global_load", "global_store", "local_load", "local_store",
    "shared", "const", "atomic",      "branch",       "barrier",    "other"};
static const char *const unit_names[SM_UNIT__COUNT] = {"sp", "sfu", "ldst", "none"};

/* One launch's statistics (a kernels[] element). */
static void gpu_kernel_stats_emit(const GpuKernelStats *ks, StatsOut *o) {
  STAT_STR(o, "name", "the kernel's entry function", ks->name);
  STAT_U64(o, "cycles", "cycles", STAT_SUM, STAT_LOWER, "core cycles from launch to the last CTA's exit",
           ks->cycles);
  STAT_U64(o, "warp_insts", "warp_insts", STAT_SUM, STAT_NEUTRAL, "warp instructions issued", ks->warp_insts);
  STAT_U64(o, "thread_insts", "thread_insts", STAT_SUM, STAT_NEUTRAL, "thread instructions executed",
           ks->thread_insts);
  STAT_U64(o, "ctas", "ctas", STAT_SUM, STAT_NEUTRAL, "CTAs run", ks->ctas);
  STAT_U64(o, "ctas_per_sm", "ctas", STAT_INFO, STAT_NEUTRAL, "occupancy: CTAs one SM can hold",
           ks->ctas_per_sm);
  STAT_STR(o, "occupancy_limiter", "the resource that limits ctas_per_sm", ks->limiter ? ks->limiter : "");
  STAT_U64(o, "regs_per_thread", "registers", STAT_INFO, STAT_NEUTRAL, "registers allocated per thread",
           ks->regs_per_thread);
  STAT_STR(o, "regs_source", "where regs_per_thread came from (ptxas's annotation or an estimate)",
           ks->regs_source);
  STAT_U64(o, "threads_per_cta", "threads", STAT_INFO, STAT_NEUTRAL, "threads per CTA", ks->threads_per_cta);
  STAT_U64(o, "shared_bytes_per_cta", "bytes", STAT_INFO, STAT_NEUTRAL, "shared memory per CTA",
           ks->shared_per_cta);
  STAT_U64(o, "l2_reads", "requests", STAT_SUM, STAT_NEUTRAL, "reads the L2 accepted during the kernel",
           ks->l2_reads);
  STAT_U64(o, "l2_read_misses", "requests", STAT_SUM, STAT_LOWER,
           "allocating L2 read misses during the kernel", ks->l2_read_misses);
  STAT_F64(o, "l2_read_miss_rate", "fraction", STAT_RATIO, STAT_LOWER, 6, "l2_read_misses / l2_reads",
           ks->l2_reads ? (double)ks->l2_read_misses / (double)ks->l2_reads : 0.0);
}

/* Every statistic of the GPU (stats.h), in the order of the JSON object. */
void gpu_stats_emit(const Gpu *g, StatsOut *o, double wall) {
  SmStats t;
  sum_sm_stats(g, &t);
  CacheStats l1 = {0}, l2 = {0};
  for (uint32_t i = 0; i < g->nsm; i++) cache_stats_add(&l1, cache_stats(memsys_l1d(g->ms, i)));
  for (uint32_t p = 0; p < memsys_partitions(g->ms); p++)
    cache_stats_add(&l2, cache_stats(memsys_l2(g->ms, p)));
  double cyc = g->cycle ? (double)g->cycle : 1.0, kinst = t.warp_insts ? (double)t.warp_insts / 1000.0 : 1.0;
  uint64_t l1_miss = l1.read_misses + l1.read_merges, l2_miss = l2.read_misses;
  /* the measuring observers' counts (registry.def's MEASUREs), summed over the SMs */
  BarrierPhaseCounts bp = {0};
  DisparityCounts wd = {0};
  uint64_t hits_other = 0;
  for (uint32_t i = 0; i < g->nsm; i++) {
    if (g->bphases >= 0) barrier_phases_counts_add(&bp, sm_plugin_state(g->sms[i], (uint32_t)g->bphases));
    if (g->disparity >= 0) warp_disparity_counts_add(&wd, sm_plugin_state(g->sms[i], (uint32_t)g->disparity));
    if (g->interwarp >= 0)
      hits_other += interwarp_hits_other_warp(sm_plugin_state(g->sms[i], (uint32_t)g->interwarp));
  }
  double res = bp.warp_resident_cycles ? (double)bp.warp_resident_cycles : 1.0;
  /* the locality observer's split (l1_stream_events plugins): misses on a line an eviction took from
   * this warp / another warp, or neither (cold); same-warp hits by thread */
  LocalityCounts lc = {0};
  const bool split = g->locality >= 0;
  for (uint32_t i = 0; split && i < g->nsm; i++)
    locality_counts_add(&lc, sm_plugin_state(g->sms[i], (uint32_t)g->locality));
  uint64_t miss_same = lc.misses_evicted_same_warp, miss_other = lc.misses_evicted_other_warp;
  uint64_t miss_cold = l1.read_misses - miss_same - miss_other;
  const uint64_t thread_hits = lc.hits_same_thread + lc.hits_other_thread;
  uint64_t resfail_cycles = 0;
  for (int r = 1; r < CACHE_FAIL__COUNT; r++) resfail_cycles += t.ldst_resfail[r];

  STAT_U64(o, "cycles", "cycles", STAT_SUM, STAT_LOWER, "core cycles of the whole run (all launches)",
           g->cycle);
  STAT_U64(o, "warp_insts", "warp_insts", STAT_SUM, STAT_NEUTRAL, "warp instructions issued", t.warp_insts);
  STAT_U64(o, "thread_insts", "thread_insts", STAT_SUM, STAT_NEUTRAL, "thread instructions executed",
           t.thread_insts);
  STAT_F64(o, "ipc_warp_insts_per_cycle", "warp_insts/cycle", STAT_RATIO, STAT_HIGHER, 6,
           "warp instructions per core cycle, all SMs", (double)t.warp_insts / cyc);
  STAT_F64(o, "ipc_thread_insts_per_cycle", "thread_insts/cycle", STAT_RATIO, STAT_HIGHER, 6,
           "thread instructions per core cycle, all SMs", (double)t.thread_insts / cyc);
  stats_list(o, "kernels", 0, "each kernel launch, in order");
  for (uint32_t k = 0; k < g->nkern || (k == 0 && stats_schema(o)); k++) {
    static const GpuKernelStats none; /* the schema's element when no kernel ran */
    stats_group(o, NULL, 0, NULL);
    gpu_kernel_stats_emit(k < g->nkern ? &g->kern[k] : &none, o);
    stats_end(o);
  }
  stats_end(o);
  stats_group(o, "sched_stall_cycles", 0, "scheduler-cycles with no issue, by the first reason found");
  for (int r = 0; r < SM_STALL__COUNT; r++)
    STAT_U64(o, stall_names[r], "cycles", STAT_SUM, STAT_LOWER,
             "scheduler-cycles that issued nothing for this reason", t.stall[r]);
  stats_end(o);
  STAT_U64(o, "multi_issues", "warp_insts", STAT_SUM, STAT_NEUTRAL,
           "warp instructions issued after another of their warp in the same cycle", t.multi_issues);
  STAT_U64(o, "oc_register_reads", "reads", STAT_SUM, STAT_NEUTRAL, "operand collector register reads",
           t.oc_reads);
  STAT_U64(o, "oc_bank_conflicts", "reads", STAT_SUM, STAT_LOWER, "register reads that waited for their bank",
           t.oc_bank_conflicts);
  stats_group(o, "unit_issue_cycles", 0,
              "cycles each execution unit accepted an instruction, summed over the SMs");
  for (int u = 0; u < SM_UNIT_NONE; u++)
    STAT_U64(o, unit_names[u], "cycles", STAT_SUM, STAT_NEUTRAL,
             "SM-cycles this unit accepted an instruction", t.unit_busy[u]);
  stats_end(o);
  stats_group(o, "warp_insts_by_kind", 0, "warp instructions issued, by kind");
  for (int k = 0; k < WINST__COUNT; k++)
    STAT_U64(o, kind_names[k], "warp_insts", STAT_SUM, STAT_NEUTRAL, "warp instructions of this kind",
             t.issue_kind[k]);
  stats_end(o);
  stats_group(o, "ldst_stall_cycles", 0, "LD/ST unit cycles stalled by an L1 reservation failure, by reason");
  for (int r = 1; r < CACHE_FAIL__COUNT; r++)
    STAT_U64(o, cache_fail_name((CacheFailReason)r), "cycles", STAT_SUM, STAT_LOWER,
             "LD/ST cycles stalled for want of this L1 resource", t.ldst_resfail[r]);
  stats_end(o);
  STAT_U64(o, "ldst_busy_cycles", "cycles", STAT_SUM, STAT_NEUTRAL,
           "SM-cycles the LD/ST unit held an instruction", t.ldst_busy_cycles);
  stats_group(o, "requests", 0, "memory requests the LD/ST units sent, by kind");
  STAT_U64(o, "global_load", "requests", STAT_SUM, STAT_NEUTRAL, "global load requests (after coalescing)",
           t.global_load_reqs);
  STAT_U64(o, "global_store", "requests", STAT_SUM, STAT_NEUTRAL, "global store requests",
           t.global_store_reqs);
  STAT_U64(o, "local", "requests", STAT_SUM, STAT_NEUTRAL, "local memory requests", t.local_reqs);
  STAT_U64(o, "atomic", "requests", STAT_SUM, STAT_NEUTRAL, "atomic requests", t.atomic_reqs);
  STAT_U64(o, "const", "requests", STAT_SUM, STAT_NEUTRAL, "constant cache loads", t.const_loads);
  STAT_U64(o, "const_lines", "requests", STAT_SUM, STAT_NEUTRAL,
           "constant-cache requests: one per distinct line of a constant or parameter load (sm.const_cache)",
           t.const_reqs);
  stats_end(o);
  STAT_U64(o, "shared_accesses", "warp_insts", STAT_SUM, STAT_NEUTRAL, "shared memory accesses",
           t.shared_accesses);
  STAT_U64(o, "shared_conflict_passes", "passes", STAT_SUM, STAT_LOWER,
           "extra passes for shared bank conflicts", t.shared_conflict_passes);
  STAT_F64(o, "l1d_read_mpki", "misses/kilo_warp_insts", STAT_RATIO, STAT_LOWER, 6,
           "L1D read misses (MSHR merges included) per 1000 warp instructions", (double)l1_miss / kinst);
  STAT_F64(o, "l1d_read_miss_rate", "fraction", STAT_RATIO, STAT_LOWER, 6,
           "L1D read misses (MSHR merges included) / L1D reads",
           l1.reads ? (double)l1_miss / (double)l1.reads : 0.0);
  STAT_F64(o, "l2_read_mpki", "misses/kilo_warp_insts", STAT_RATIO, STAT_LOWER, 6,
           "L2 allocating read misses per 1000 warp instructions", (double)l2_miss / kinst);
  STAT_F64(o, "l2_read_miss_rate", "fraction", STAT_RATIO, STAT_LOWER, 6,
           "L2 allocating read misses / L2 reads", l2.reads ? (double)l2_miss / (double)l2.reads : 0.0);
  STAT_F64(o, "avg_load_latency_cycles", "cycles", STAT_MEAN, STAT_LOWER, 3,
           "mean cycles from a global or local load's issue to its last reply",
           t.loads_completed ? (double)t.load_latency_sum / (double)t.loads_completed : 0.0);
  STAT_U64(o, "ctas", "ctas", STAT_SUM, STAT_NEUTRAL, "CTAs completed", t.ctas_done);
  STAT_F64(o, "avg_cta_cycles", "cycles", STAT_MEAN, STAT_NEUTRAL, 3,
           "mean cycles from a CTA's launch to its exit",
           t.ctas_done ? (double)t.cta_cycles_sum / (double)t.ctas_done : 0.0);
  STAT_F64(o, "warp_time_disparity", "fraction", STAT_MEAN, STAT_LOWER, 6,
           "mean over CTAs of (slowest - fastest) / slowest warp's execution time",
           t.ctas_done ? wd.sum / (double)t.ctas_done : 0.0);
  STAT_F64(o, "warp_time_disparity_max", "fraction", STAT_MAX, STAT_LOWER, 6,
           "the largest CTA's warp time disparity", (double)wd.max_e6 / 1e6);
  stats_group(o, "warp_time_disparity_hist", 0, "CTAs by warp time disparity, in tenths");
  for (int b = 0; b < DISPARITY_BINS; b++) {
    char key[32];
    snprintf(key, sizeof key, "pct%02d_%02d", 100 * b / DISPARITY_BINS, 100 * (b + 1) / DISPARITY_BINS);
    STAT_U64(o, key, "ctas", STAT_SUM, STAT_NEUTRAL, "CTAs whose disparity falls in this bin", wd.hist[b]);
  }
  stats_end(o);
  STAT_F64(o, "barrier_stall_fraction", "fraction", STAT_RATIO, STAT_LOWER, 6,
           "warp-cycles waiting at barriers / warp-cycles resident", (double)bp.barrier_wait_cycles / res);
  STAT_F64(o, "exit_stall_fraction", "fraction", STAT_RATIO, STAT_LOWER, 6,
           "warp-cycles retired, waiting for the CTA to exit / warp-cycles resident",
           (double)bp.exit_wait_cycles / res);
  STAT_F64(o, "rtru_barrier_phase", "fraction", STAT_MEAN, STAT_HIGHER, 6,
           "mean RTRU (run-time resource utilisation) over warp-phases ended by a barrier",
           bp.barrier_phases ? (double)bp.barrier_rtru_e6_sum / 1e6 / (double)bp.barrier_phases : 0.0);
  STAT_F64(o, "rtru_exit_phase", "fraction", STAT_MEAN, STAT_HIGHER, 6,
           "mean RTRU over warp-phases ended by the exit",
           bp.exit_phases ? (double)bp.exit_rtru_e6_sum / 1e6 / (double)bp.exit_phases : 0.0);
  STAT_U64(o, "barrier_phases", "phases", STAT_SUM, STAT_NEUTRAL, "warp-phases ended by a barrier",
           bp.barrier_phases);
  STAT_U64(o, "barrier_wait_cycles", "warp_cycles", STAT_SUM, STAT_LOWER, "warp-cycles waiting at barriers",
           bp.barrier_wait_cycles);
  STAT_U64(o, "exit_wait_cycles", "warp_cycles", STAT_SUM, STAT_LOWER,
           "warp-cycles retired, waiting for the CTA", bp.exit_wait_cycles);
  STAT_U64(o, "warp_resident_cycles", "warp_cycles", STAT_SUM, STAT_NEUTRAL, "warp-cycles resident on an SM",
           bp.warp_resident_cycles);
  STAT_F64(o, "barrier_wait_per_phase", "warp_cycles", STAT_MEAN, STAT_LOWER, 3,
           "warp-cycles waited at one barrier, summed over its warps",
           bp.barrier_phases ? (double)bp.barrier_wait_cycles / (double)bp.barrier_phases : 0.0);
  STAT_U64(o, "l1d_read_hits_same_warp", "requests", STAT_SUM, STAT_NEUTRAL,
           "L1D read hits on a line the same warp allocated (intra-warp locality)",
           l1.read_hits - hits_other);
  STAT_U64(o, "l1d_read_hits_other_warp", "requests", STAT_SUM, STAT_NEUTRAL,
           "L1D read hits on a line another warp allocated (inter-warp locality)", hits_other);
  STAT_F64(o, "l1d_read_hits_same_warp_pki", "hits/kilo_warp_insts", STAT_RATIO, STAT_NEUTRAL, 6,
           "l1d_read_hits_same_warp per 1000 warp instructions", (double)(l1.read_hits - hits_other) / kinst);
  STAT_F64(o, "l1d_read_hits_other_warp_pki", "hits/kilo_warp_insts", STAT_RATIO, STAT_NEUTRAL, 6,
           "l1d_read_hits_other_warp per 1000 warp instructions", (double)hits_other / kinst);
  STAT_F64(o, "l1d_read_hit_rate", "fraction", STAT_RATIO, STAT_HIGHER, 6, "L1D read hits / L1D reads",
           l1.reads ? (double)l1.read_hits / (double)l1.reads : 0.0);
  /* over the reads not bypassed (as GPGPU-Sim counts its L1D: a bypass never reaches it) */
  STAT_F64(o, "l1d_read_hit_rate_cached", "fraction", STAT_RATIO, STAT_HIGHER, 6,
           "L1D read hits / L1D reads not bypassed (GPGPU-Sim's L1D hit rate)",
           l1.reads > l1.bypasses ? (double)l1.read_hits / (double)(l1.reads - l1.bypasses) : 0.0);
  STAT_U64(o, "ldst_resfail_stall_cycles", "cycles", STAT_SUM, STAT_LOWER,
           "LD/ST cycles stalled by any L1 reservation failure (ldst_stall_cycles summed)", resfail_cycles);
  if (split || stats_schema(o)) {
    STAT_U64(o, "l1d_read_misses_evicted_same_warp", "requests", STAT_SUM, STAT_LOWER,
             "L1D allocating read misses on a line evicted from the same warp (lost intra-warp locality)",
             miss_same);
    STAT_U64(o, "l1d_read_misses_evicted_other_warp", "requests", STAT_SUM, STAT_LOWER,
             "L1D allocating read misses on a line evicted from another warp (lost inter-warp locality)",
             miss_other);
    STAT_U64(o, "l1d_read_misses_cold", "requests", STAT_SUM, STAT_NEUTRAL,
             "L1D allocating read misses on a line never evicted (cold, or after an invalidation)",
             miss_cold);
    STAT_F64(o, "l1d_read_misses_evicted_same_warp_pki", "misses/kilo_warp_insts", STAT_RATIO, STAT_LOWER, 6,
             "l1d_read_misses_evicted_same_warp per 1000 warp instructions", (double)miss_same / kinst);
    STAT_F64(o, "l1d_read_misses_evicted_other_warp_pki", "misses/kilo_warp_insts", STAT_RATIO, STAT_LOWER, 6,
             "l1d_read_misses_evicted_other_warp per 1000 warp instructions", (double)miss_other / kinst);
    STAT_F64(o, "l1d_read_misses_cold_pki", "misses/kilo_warp_insts", STAT_RATIO, STAT_NEUTRAL, 6,
             "l1d_read_misses_cold per 1000 warp instructions", (double)miss_cold / kinst);
    STAT_U64(o, "l1d_read_hits_same_warp_same_thread", "requests", STAT_SUM, STAT_NEUTRAL,
             "same-warp L1D read hits on data the same thread touched before", lc.hits_same_thread);
    STAT_U64(o, "l1d_read_hits_same_warp_other_thread", "requests", STAT_SUM, STAT_NEUTRAL,
             "same-warp L1D read hits that only another thread of the warp made possible",
             lc.hits_other_thread);
    STAT_F64(o, "l1d_read_hits_same_warp_same_thread_pki", "hits/kilo_warp_insts", STAT_RATIO, STAT_NEUTRAL,
             6, "l1d_read_hits_same_warp_same_thread per 1000 warp instructions",
             (double)lc.hits_same_thread / kinst);
    STAT_F64(o, "l1d_read_hits_same_warp_other_thread_pki", "hits/kilo_warp_insts", STAT_RATIO, STAT_NEUTRAL,
             6, "l1d_read_hits_same_warp_other_thread per 1000 warp instructions",
             (double)lc.hits_other_thread / kinst);
    STAT_F64(o, "l1d_read_hits_same_warp_other_thread_fraction", "fraction", STAT_RATIO, STAT_NEUTRAL, 6,
             "the other-thread share of same-warp L1D read hits",
             thread_hits ? (double)lc.hits_other_thread / (double)thread_hits : 0.0);
  }
  stats_group(o, "memory", 0, "the memory system");
  memsys_stats_emit(g->ms, o);
  stats_end(o);
  gpu_policy_stats_emit(g, o);
  stats_group(o, "sim", 0, "how the host simulated the run (sim.*; the results never depend on it)");
  STAT_U64(o, "threads_used", "threads", STAT_INFO, STAT_NEUTRAL,
           "threads the SM phases ran on (1: in SM order; sim.threads, or 1 where a plugin shares state)",
           g->threads_used);
  STAT_U64(o, "memory_overlap_cycles", "cycles", STAT_INFO, STAT_NEUTRAL,
           "cycles whose networks and partitions may advance beside the SMs' cycle before them, and do while "
           "the threads run (sim.threads; sim.adaptive = false: always)",
           g->overlap_cycles);
  stats_end(o);
  STAT_F64(o, "wall_seconds", "s", STAT_SUM, STAT_LOWER, 6, "host wall-clock time of the simulation", wall);
  STAT_F64(o, "warp_insts_per_sec", "warp_insts/s", STAT_MEAN, STAT_HIGHER, 1,
           "simulation speed: warp instructions per host second",
           wall > 0 ? (double)t.warp_insts / wall : 0.0);
}

void gpu_print_stats(const Gpu *g, FILE *out, bool json, double wall) {
  StatsOut *o = stats_open(out, json ? STATS_JSON : STATS_TEXT, "gpu");
  gpu_stats_emit(g, o, wall);
  stats_close(o);
}
