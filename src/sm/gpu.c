/* gpu.c - the timing engine's top loop: dispatches CTAs to SMs round-robin as
 * occupancy allows, ticks the memory system and every SM each cycle, jumps
 * over cycles in which nothing can happen until the next event, reports
 * progress, and stops a run that makes no progress with a dump of which warps
 * wait on what. Also the statistics printers (text and JSON). */
#include "sm/gpu.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/bitmap.h"
#include "sm/kregs.h"
#include "sm/sm_int.h"
#include "sm/timeline.h"

/* What the engine keeps of one SM, to run its loop without touching the SM
 * (gpu_note_sm refreshes it after the SM ran or took a CTA). */
typedef struct GpuSm {
  uint64_t wake;              /* the cycle it must next be simulated (sm_wake_cycle) */
  uint32_t nctas;             /* resident CTAs when last noted (acceptance changes only with it) */
  uint8_t resident;           /* holds CTAs */
  int8_t accept;              /* may take a CTA (-1: ask it every time, its policy limits CTAs) */
  uint8_t bits;               /* its bits in the bitmaps every, pop_wake and timed (GPU_BIT_*) */
} GpuSm;
enum { GPU_BIT_EVERY = 1, GPU_BIT_POP = 2, GPU_BIT_TIMED = 4 };

struct Gpu {
  const Config *cfg;
  Timeline *tl;      /* timeline.file: the recorder (NULL: off) */
  MemSys *ms;
  Sm **sms;
  uint32_t nsm;
  uint64_t cycle;
  uint64_t deadlock_cycles;
  uint64_t max_cycles, max_warp_insts; /* per-launch run limits (limit.*; 0 = none) */
  bool skip_idle;
  GpuKernelStats *kern;
  uint32_t nkern, kcap;
  bool progress;
  GpuSm *gs;                  /* per SM */
  /* bitmaps over SMs (nwords words each), kept by gpu_note_sm */
  uint64_t *every;            /* wake == 0: simulated every cycle */
  uint64_t *pop_wake;         /* a miss-queue pop can end its quiescence (sm_wakes_on_pop) */
  uint64_t *timed;            /* busy, an event queued or free_at after the noting cycle: the others'
                               * gpu_sm_next_event() is UINT64_MAX until they are noted again */
  uint64_t *due;              /* scratch: SMs whose wake cycle came (gpu_collect_due) */
  uint32_t nwords;
  uint64_t wake_min;          /* <= every wake cycle > 0 (a lower bound: an SM's wake may move later) */
  uint64_t prog_sum;          /* every SM counts its events here (sm_count_progress) */
  uint32_t nresident;
  uint32_t naccept;           /* SMs with accept > 0 */
  uint32_t ndynamic;          /* SMs with accept < 0 (asked every time) */
};

/* Refreshes the engine's copy of SM i's state after it ran or took a CTA
 * (inline: the engine's loop calls it after every visit). Returns whether it
 * is busy (it can do something next cycle). */
static inline __attribute__((always_inline)) bool gpu_note_sm(Gpu *g, uint32_t i) {
  Sm *sm = g->sms[i];
  GpuSm *e = &g->gs[i];
  const uint32_t w = i / 64;
  const uint64_t bit = 1ull << (i % 64);
  const uint64_t wake = sm_wake_cycle(sm);
  e->wake = wake;
  if (wake && wake < g->wake_min) g->wake_min = wake;
  const SmTimers t = sm_timers(sm);
  const uint8_t bits = (uint8_t)((wake ? 0 : GPU_BIT_EVERY) | (sm_wakes_on_pop(sm) ? GPU_BIT_POP : 0) |
                                 (t.busy || t.event != UINT64_MAX || t.free_at > g->cycle ? GPU_BIT_TIMED : 0));
  if (bits != e->bits) { /* most visits change none of them: only a changed one costs its bitmap word */
    const uint8_t d = bits ^ e->bits;
    if (d & GPU_BIT_EVERY) g->every[w] ^= bit;
    if (d & GPU_BIT_POP) g->pop_wake[w] ^= bit;
    if (d & GPU_BIT_TIMED) g->timed[w] ^= bit;
    e->bits = bits;
  }
  uint32_t n = sm_resident_ctas(sm);
  if (n == e->nctas && e->accept >= 0) return t.busy; /* no CTA came or went: acceptance unchanged */
  e->nctas = n;
  uint8_t r = n != 0;
  g->nresident += (uint32_t)r - e->resident;
  e->resident = r;
  if (e->accept >= 0) {
    int8_t a = (int8_t)sm_can_accept_cta(sm);
    g->naccept += (uint32_t)a - (uint32_t)e->accept;
    e->accept = a;
  }
  return t.busy;
}

/* The earliest cycle > now at which SM i can do something by itself, from its
 * timers (they change only while it is simulated or takes a CTA). */
static inline uint64_t gpu_sm_next_event(const Gpu *g, uint32_t i, uint64_t now) {
  const SmTimers t = sm_timers(g->sms[i]);
  if (t.busy) return now + 1;
  uint64_t n = t.event;
  if (t.free_at > now && t.free_at < n) n = t.free_at;
  return n <= now ? now + 1 : n;
}

/* Marks in `due` the SMs whose wake cycle came (wake_min <= now) and makes
 * wake_min exact again over the others; the due ones are simulated this cycle
 * and gpu_note_sm lowers wake_min to their new wake cycles. */
static void gpu_collect_due(Gpu *g, uint64_t now) {
  uint64_t m = UINT64_MAX;
  for (uint32_t i = 0; i < g->nsm; i++) {
    const uint64_t w = g->gs[i].wake;
    if (w <= now) bitmap_set(g->due, i);
    else if (w < m) m = w;
  }
  g->wake_min = m;
}

static inline bool gpu_can_accept(Gpu *g, uint32_t i) {
  return g->gs[i].accept < 0 ? sm_can_accept_cta(g->sms[i]) : g->gs[i].accept > 0;
}

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

Gpu *gpu_create(const Config *cfg, char *err, size_t errlen) {
  Gpu *g = calloc(1, sizeof *g);
  if (!g) { snprintf(err, errlen, "out of memory"); return NULL; }
  if (kregs_check(cfg, err, errlen)) { free(g); return NULL; }
  if (tl_check_config(cfg, (uint32_t)cfg_int(cfg, "sm.count"), err, errlen)) { free(g); return NULL; }
  g->cfg = cfg;
  g->deadlock_cycles = (uint64_t)cfg_int(cfg, "sm.deadlock_cycles");
  g->skip_idle = cfg_bool(cfg, "sm.skip_idle_cycles");
  g->max_cycles = (uint64_t)cfg_int(cfg, "limit.max_cycles");
  g->max_warp_insts = (uint64_t)cfg_int(cfg, "limit.max_warp_insts");
  g->ms = memsys_create(cfg, err, errlen);
  if (!g->ms) { free(g); return NULL; }
  g->nsm = memsys_sms(g->ms);
  g->sms = calloc(g->nsm, sizeof(Sm *));
  g->gs = calloc(g->nsm, sizeof *g->gs);
  g->nwords = bitmap_words(g->nsm);
  g->every = calloc(4 * (size_t)g->nwords, sizeof(uint64_t));
  if (!g->sms || !g->gs || !g->every) {
    gpu_free(g);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  g->pop_wake = g->every + g->nwords;
  g->due = g->pop_wake + g->nwords;
  g->timed = g->due + g->nwords;
  for (uint32_t i = 0; i < g->nsm; i++) {
    if (!(g->sms[i] = sm_create(i, cfg, g->ms, err, errlen))) { gpu_free(g); return NULL; }
    sm_count_progress(g->sms[i], &g->prog_sum);
  }
  return g;
}

int gpu_close(Gpu *g, char *err, size_t errlen) {
  if (!g) return 0;
  int rc = g->ms ? policy_gpu_close(memsys_policy_gpu(g->ms), err, errlen) : 0;
  gpu_free(g);
  return rc;
}

void gpu_free(Gpu *g) {
  if (!g) return;
  tl_free(g->tl); /* before the SMs: they end their kernel without it */
  for (uint32_t i = 0; g->sms && i < g->nsm; i++) sm_free(g->sms[i]);
  free(g->sms);
  free(g->gs);
  free(g->every);
  memsys_free(g->ms);
  free(g->kern);
  free(g);
}

void gpu_set_progress(Gpu *g, bool on) { g->progress = on; }

int gpu_timeline_start(Gpu *g, FILE *out, char *err, size_t errlen) {
  if (!(g->tl = tl_create(g->cfg, out, g->nsm, err, errlen))) return -1;
  for (uint32_t i = 0; i < g->nsm; i++)
    if (tl_attach(g->tl, g->sms[i])) { snprintf(err, errlen, "out of memory"); tl_free(g->tl); g->tl = NULL; return -1; }
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
    /* every field but warp_disparity_sum (a double) is a uint64_t count; warp_disparity_max_e6 is a maximum */
    size_t nfields = sizeof(SmStats) / sizeof(uint64_t);
    size_t dpos = offsetof(SmStats, warp_disparity_sum) / sizeof(uint64_t);
    size_t mpos = offsetof(SmStats, warp_disparity_max_e6) / sizeof(uint64_t);
    for (size_t k = 0; k < nfields; k++)
      if (k != dpos && k != mpos) b[k] += a[k];
    t->warp_disparity_sum += s->warp_disparity_sum;
    if (s->warp_disparity_max_e6 > t->warp_disparity_max_e6) t->warp_disparity_max_e6 = s->warp_disparity_max_e6;
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
    snprintf(err, errlen, "kernel %s: deadlock: no warp can make progress and nothing is in flight (cycle %llu)\n%s", kernel,
             (unsigned long long)g->cycle, buf ? buf : "");
  free(buf);
}

/* Issue 19: a launch stopped by limit.max_cycles / limit.max_warp_insts names the warps still
 * running, where they are, and why an intra-warp spin lock never ends (ptx_cta_describe_running). */
static void limit_report(Gpu *g, const char *kernel, const char *what, uint64_t count, uint64_t limit, char *err,
                         size_t errlen) {
  char buf[900];
  size_t n = 0;
  uint32_t budget = 4;
  buf[0] = 0;
  for (uint32_t i = 0; i < g->nsm && budget; i++)
    for (uint32_t c = 0; c < g->sms[i]->max_ctas && budget && n < sizeof buf - 1; c++)
      if (g->sms[i]->ctas[c].cta) n += ptx_cta_describe_running(g->sms[i]->ctas[c].cta, buf + n, sizeof buf - n, &budget);
  const char *key = what[0] == 'c' ? "cycles" : "warp_insts";
  snprintf(err, errlen, "kernel %s: stopped after %llu %s (limit.max_%s = %llu, --max-%s): an endless loop, or a kernel "
           "longer than the limit (raise it with --set limit.max_%s=N, 0 for none); running:%s", kernel,
           (unsigned long long)count, what, key, (unsigned long long)limit, what[0] == 'c' ? "cycles" : "insts", key,
           buf[0] ? buf : " no warp between instructions");
}

/* The L2 slices' accepted reads and allocating read misses so far. */
static void gpu_l2_reads(const Gpu *g, uint64_t *reads, uint64_t *misses) {
  CacheStats l2 = {0};
  for (uint32_t p = 0; p < memsys_partitions(g->ms); p++) cache_stats_add(&l2, cache_stats(memsys_l2(g->ms, p)));
  *reads = l2.reads;
  *misses = l2.read_misses;
}

WsResult gpu_engine_run(void *gpu, struct PtxLaunch *L, WsLaunchStats *st, char *err, size_t errlen) {
  Gpu *g = gpu;
  if (kregs_apply(g->cfg, L, err, errlen)) return WS_ERROR_LAUNCH_FAILED;
  SmKernelInfo *k = sm_kernel_info_create(g->cfg, L);
  if (!k) { snprintf(err, errlen, "out of memory"); return WS_ERROR_OUT_OF_MEMORY; }
  if (g->nkern == g->kcap) {
    uint32_t nc = g->kcap ? g->kcap * 2 : 16;
    GpuKernelStats *nk = realloc(g->kern, sizeof *nk * nc);
    if (!nk) { sm_kernel_info_free(k); snprintf(err, errlen, "out of memory"); return WS_ERROR_OUT_OF_MEMORY; }
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
  PolicyGpu *pg = memsys_policy_gpu(g->ms);
  const char *occ_lim;
  PolicyKernel pk = {.name = L->fn->name, .launch_index = g->nkern - 1, .grid = {L->grid[0], L->grid[1], L->grid[2]},
                     .block = {L->block[0], L->block[1], L->block[2]}, .ctas_total = L->ctas_total,
                     .warps_per_cta = L->warps_per_cta, .regs_per_thread = L->fn->regs_per_thread,
                     .shared_per_cta = L->shared_per_cta, .npc = L->fn->npc,
                     .max_ctas_per_sm = sm_occupancy(g->cfg, L->regs_per_thread, L->threads_per_cta, L->shared_per_cta, &occ_lim)};
  policy_gpu_set_kernel(pg, &pk);
  for (uint32_t i = 0; i < g->nsm; i++) sm_begin_kernel(g->sms[i], L, k, g->cycle);
  g->prog_sum = 0;
  g->nresident = g->naccept = g->ndynamic = 0;
  g->wake_min = UINT64_MAX;
  memset(g->due, 0, sizeof(uint64_t) * g->nwords);
  for (uint32_t i = 0; i < g->nsm; i++) {
    GpuSm *e = &g->gs[i];
    e->resident = 0;
    e->nctas = UINT32_MAX; /* forces the first note */
    e->accept = (int8_t)(sm_policy_limits_ctas(g->sms[i]) ? -1 : 0);
    g->ndynamic += e->accept < 0;
    gpu_note_sm(g, i);
  }
  uint64_t *events = memsys_sm_events(g->ms);
  const uint32_t nwords = g->nwords;
  uint64_t *fills = events, *pops = events + nwords;
  WsResult rc = WS_SUCCESS;
  ks->ctas_per_sm = sm_max_ctas(g->sms[0], &ks->limiter);
  if (ks->ctas_per_sm == 0) {
    snprintf(err, errlen, "kernel %s: one CTA (%u threads, %u registers/thread, %u bytes shared) does not fit on an SM (limited by %s)",
             L->fn->name, L->threads_per_cta, L->regs_per_thread, L->shared_per_cta, ks->limiter);
    rc = WS_ERROR_LAUNCH_FAILED;
  }
  SmStats before;
  sum_sm_stats(g, &before);
  uint64_t l2_reads0, l2_misses0;
  gpu_l2_reads(g, &l2_reads0, &l2_misses0);
  uint64_t next_cta = 0, last_progress = g->prog_sum, last_change = g->cycle;
  uint64_t now = g->cycle - 1; /* the cycle simulated last (the kernel ends after it) */
  double t0 = wall_now(), last_print = t0;
  uint64_t next_limit_check = g->cycle + 4096; /* instructions are summed over SMs every 4096 cycles */
  while (rc == WS_SUCCESS) {
    now = g->cycle;
    if (g->max_cycles && now - ks->start_cycle >= g->max_cycles) { /* run limits (issue 19) */
      limit_report(g, L->fn->name, "cycles", now - ks->start_cycle, g->max_cycles, err, errlen);
      rc = WS_ERROR_LIMIT;
      break;
    }
    if (g->max_warp_insts && now >= next_limit_check) {
      SmStats cur;
      sum_sm_stats(g, &cur);
      next_limit_check = now + 4096;
      if (cur.warp_insts - before.warp_insts > g->max_warp_insts) {
        limit_report(g, L->fn->name, "warp instructions", cur.warp_insts - before.warp_insts, g->max_warp_insts, err, errlen);
        rc = WS_ERROR_LIMIT;
        break;
      }
    }
    memsys_tick(g->ms, now);
    int dispatch_possible = 0;
    if (next_cta < L->ctas_total && (g->naccept || g->ndynamic)) {
      uint32_t rr = (uint32_t)(now % g->nsm); /* rotates with the cycle: skipping idle cycles cannot change it */
      for (uint32_t i = 0; i < g->nsm && next_cta < L->ctas_total && (g->naccept || g->ndynamic); i++) {
        uint32_t si = rr + i < g->nsm ? rr + i : rr + i - g->nsm;
        if (!gpu_can_accept(g, si)) continue;
        PtxCta *c = ptx_cta_create(L, (uint32_t)next_cta, si);
        if (!c) { snprintf(err, errlen, "kernel %s: out of host memory creating a CTA", L->fn->name); rc = WS_ERROR_OUT_OF_MEMORY; break; }
        next_cta++;
        sm_launch_cta(g->sms[si], c, now);
        gpu_note_sm(g, si);
        bitmap_set(g->due, si); /* simulated this cycle whatever it says */
        dispatch_possible = 1;
      }
    }
    if (rc != WS_SUCCESS) break;
    /* Only SMs that are not quiet, whose own timer is due, or whose L1s changed
     * are simulated; the others would find this cycle quiet. */
    if (now >= g->wake_min) gpu_collect_due(g, now);
    bool soon = false; /* some SM is busy (only a simulated one can be: a busy one is simulated every cycle) */
    for (uint32_t w = 0; w < nwords; w++) { /* fills and pops are set by memsys_tick only */
      uint64_t b = rc == WS_SUCCESS ? g->every[w] | g->due[w] | fills[w] | (pops[w] & g->pop_wake[w]) : 0;
      for (; b; b &= b - 1) {
        uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(b);
        if (b & (b - 1)) sm_prefetch(g->sms[w * 64 + (uint32_t)__builtin_ctzll(b & (b - 1))]); /* the next one's lines */
        if (sm_cycle(g->sms[i], now, err, errlen)) { rc = WS_ERROR_ILLEGAL_ADDRESS; break; }
        soon |= gpu_note_sm(g, i);
      }
      g->due[w] = fills[w] = pops[w] = 0;
    }
    uint64_t progress = g->prog_sum;
    int all_idle = g->nresident == 0;
    if (rc == WS_SUCCESS && policy_gpu_error(pg)) { /* a plugin cannot go on (policy_gpu_fail) */
      snprintf(err, errlen, "kernel %s: %s", L->fn->name, policy_gpu_error(pg));
      rc = WS_ERROR_LAUNCH_FAILED;
      break;
    }
    if (rc != WS_SUCCESS) {
      if (!strstr(err, "out-of-bounds") && !strstr(err, "misaligned") && !strstr(err, "read-only")) rc = WS_ERROR_LAUNCH_FAILED;
      break;
    }
    if (all_idle && next_cta >= L->ctas_total) { g->cycle++; break; }
    if (progress != last_progress || dispatch_possible) { last_progress = progress; last_change = now; }
    else if (g->deadlock_cycles && now - last_change > g->deadlock_cycles) {
      deadlock_report(g, L->fn->name, now - last_change, err, errlen);
      rc = WS_ERROR_DEADLOCK;
      break;
    }
    /* next cycle, or jump to the next event when nothing can happen before it */
    /* the next cycle when some SM is busy or can take a CTA */
    if (!soon && next_cta < L->ctas_total && (g->naccept || g->ndynamic))
      for (uint32_t i = 0; i < g->nsm && !soon; i++) soon = gpu_can_accept(g, i);
    uint64_t next = now + 1;
    if (!soon) {
      next = UINT64_MAX;
      for (uint32_t w = 0; w < nwords && next > now + 1; w++)
        for (uint64_t b = g->timed[w]; b && next > now + 1; b &= b - 1) {
          uint64_t t = gpu_sm_next_event(g, w * 64 + (uint32_t)__builtin_ctzll(b), now);
          if (t < next) next = t;
        }
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
      if (g->deadlock_cycles && next - last_change > g->deadlock_cycles + 1) next = last_change + g->deadlock_cycles + 1;
      if (next > now + 1)
        for (uint32_t i = 0; i < g->nsm; i++) sm_skip_cycles(g->sms[i], now + 1, next - now - 1);
    }
    g->cycle = next;
    if (g->progress && (now & 0xFFF) == 0) {
      double t = wall_now();
      if (t - t0 > 3.0 && t - last_print > 2.0) {
        SmStats cur;
        sum_sm_stats(g, &cur);
        fprintf(stderr, "\r[warpsim] kernel %s: cycle %llu, CTAs %llu/%llu dispatched, %.2f M warp-insts/s   ", L->fn->name,
                (unsigned long long)(now - ks->start_cycle), (unsigned long long)next_cta, (unsigned long long)L->ctas_total,
                (double)(cur.warp_insts - before.warp_insts) / (t - t0) / 1e6);
        last_print = t;
      }
    }
  }
  if (g->progress && wall_now() - t0 > 3.0) fprintf(stderr, "\n");
  for (uint32_t i = 0; i < g->nsm; i++) sm_end_kernel(g->sms[i], now + 1); /* also settles deferred statistics */
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
static const char *const stall_names[SM_STALL__COUNT] = {"no_warp", "ibuffer", "scoreboard", "barrier", "unit_busy", "ldst_busy", "policy", "drain", "other_sched"};

/* One section of the policies' statistics: `name`'s stats hook over its
 * instances (the SMs' plugin `plugin`, or every cache of kind `cache`). */
static void gpu_policy_section(const Gpu *g, FILE *out, bool json, const char *section, int plugin, int cache) {
  PolicyStats *ps = policy_stats_create();
  if (!ps) return;
  const char *name = "";
  if (plugin >= 0) {
    name = sm_plugin_name(g->sms[0], (uint32_t)plugin);
    for (uint32_t i = 0; i < g->nsm; i++) sm_policy_stats(g->sms[i], (uint32_t)plugin, ps);
  } else {
    uint32_t count = cache == 2 ? memsys_partitions(g->ms) : g->nsm;
    for (uint32_t i = 0; i < count; i++) {
      const Cache *c = cache == 0 ? memsys_l1d(g->ms, i) : cache == 1 ? memsys_l1i(g->ms, i) : memsys_l2(g->ms, i);
      name = cache_params_of(c)->policy->name;
      cache_policy_stats(c, ps);
    }
  }
  char prefix[128];
  snprintf(prefix, sizeof prefix, "%s.%s", section, name);
  policy_stats_print(ps, name, prefix, out, json);
  policy_stats_free(ps);
}

/* The plugins' and cache policies' own statistics over the whole GPU. Text:
 * "<section>.<policy>.<stat>" lines; JSON: the "policies" object,
 * {"sched": {...}, "observers": {"name": {...}}, "l1d": ..., "l1i": ..., "l2": ...}. */
static void gpu_print_policy_stats(const Gpu *g, FILE *out, bool json) {
  static const char *const caches[] = {"l1d", "l1i", "l2"};
  const uint32_t nplug = sm_plugin_count(g->sms[0]);
  if (json) fprintf(out, "{\"sched\": ");
  gpu_policy_section(g, out, json, "sched", 0, -1);
  if (json && nplug > 1) fprintf(out, ", \"observers\": {");
  for (uint32_t k = 1; k < nplug; k++) {
    if (json) fprintf(out, "%s\"%s\": ", k > 1 ? ", " : "", sm_plugin_name(g->sms[0], k));
    gpu_policy_section(g, out, json, "observer", (int)k, -1);
  }
  if (json && nplug > 1) fprintf(out, "}");
  for (int c = 0; c < 3; c++) {
    if (json) fprintf(out, ", \"%s\": ", caches[c]);
    gpu_policy_section(g, out, json, caches[c], -1, c);
  }
  if (json) fprintf(out, "}");
}

static const char *const kind_names[WINST__COUNT] = {"alu", "sfu", "global_load", "global_store", "local_load", "local_store",
                                                     "shared", "const", "atomic", "branch", "barrier", "other"};
static const char *const unit_names[SM_UNIT__COUNT] = {"sp", "sfu", "ldst", "none"};

void gpu_print_stats(const Gpu *g, FILE *out, bool json, double wall) {
  SmStats t;
  sum_sm_stats(g, &t);
  CacheStats l1 = {0}, l2 = {0};
  for (uint32_t i = 0; i < g->nsm; i++) cache_stats_add(&l1, cache_stats(memsys_l1d(g->ms, i)));
  for (uint32_t p = 0; p < memsys_partitions(g->ms); p++) cache_stats_add(&l2, cache_stats(memsys_l2(g->ms, p)));
  double cyc = g->cycle ? (double)g->cycle : 1.0, kinst = t.warp_insts ? (double)t.warp_insts / 1000.0 : 1.0;
  uint64_t l1_miss = l1.read_misses + l1.read_merges, l2_miss = l2.read_misses;
  double lat = t.loads_completed ? (double)t.load_latency_sum / (double)t.loads_completed : 0.0;
  double disp = t.ctas_done ? t.warp_disparity_sum / (double)t.ctas_done : 0.0;
  double wips = wall > 0 ? (double)t.warp_insts / wall : 0.0;
  /* barrier/exit and locality statistics (barrier_stats.c, cache.c read_hits_other_warp) */
  double res = t.warp_resident_cycles ? (double)t.warp_resident_cycles : 1.0;
  double bar_frac = (double)t.barrier_wait_cycles / res, exit_frac = (double)t.exit_wait_cycles / res;
  double rtru_bar = t.barrier_phases ? (double)t.barrier_rtru_e6_sum / 1e6 / (double)t.barrier_phases : 0.0;
  double rtru_exit = t.exit_phases ? (double)t.exit_rtru_e6_sum / 1e6 / (double)t.exit_phases : 0.0;
  double bar_wait = t.barrier_phases ? (double)t.barrier_wait_cycles / (double)t.barrier_phases : 0.0; /* per barrier */
  double hits_same = (double)(l1.read_hits - l1.read_hits_other_warp) / kinst, hits_other = (double)l1.read_hits_other_warp / kinst;
  /* misses split the same way: on a line an eviction took from this warp / another warp, or neither (cold) */
  uint64_t miss_same = l1.read_misses_evicted_same_warp, miss_other = l1.read_misses_evicted_other_warp;
  uint64_t miss_cold = l1.read_misses - miss_same - miss_other;
  const bool split = g->nsm && cache_tracks_lost_lines(memsys_l1d(g->ms, 0)); /* l1_stream_events plugins */
  /* and same-warp hits by thread (ldst.c): the share that other threads of the warp made possible */
  const uint64_t thread_hits = t.l1d_read_hits_same_thread + t.l1d_read_hits_other_thread;
  const double thread_frac = thread_hits ? (double)t.l1d_read_hits_other_thread / (double)thread_hits : 0.0;
  if (!json) {
    fprintf(out, "gpu.cycles                  %llu\n", (unsigned long long)g->cycle);
    fprintf(out, "gpu.warp_insts              %llu\n", (unsigned long long)t.warp_insts);
    fprintf(out, "gpu.thread_insts            %llu\n", (unsigned long long)t.thread_insts);
    fprintf(out, "gpu.ipc_warp_insts_per_cycle   %.4f\n", (double)t.warp_insts / cyc);
    fprintf(out, "gpu.ipc_thread_insts_per_cycle %.4f\n", (double)t.thread_insts / cyc);
    for (uint32_t k = 0; k < g->nkern; k++) {
      const GpuKernelStats *ks = &g->kern[k];
      fprintf(out, "kernel[%u] %-24s cycles %llu warp_insts %llu ipc %.3f ctas %llu occupancy %u CTAs/SM (%s; %u regs/thread [%s], %u threads, %u B shared)\n", k,
              ks->name, (unsigned long long)ks->cycles, (unsigned long long)ks->warp_insts,
              ks->cycles ? (double)ks->warp_insts / (double)ks->cycles : 0.0, (unsigned long long)ks->ctas, ks->ctas_per_sm,
              ks->limiter ? ks->limiter : "?", ks->regs_per_thread, ks->regs_source, ks->threads_per_cta, ks->shared_per_cta);
      fprintf(out, "kernel[%u].l2_read_miss_rate %.4f (%llu of %llu L2 reads missed)\n", k,
              ks->l2_reads ? (double)ks->l2_read_misses / (double)ks->l2_reads : 0.0, (unsigned long long)ks->l2_read_misses,
              (unsigned long long)ks->l2_reads);
    }
    for (int r = 0; r < SM_STALL__COUNT; r++)
      fprintf(out, "sched.stall.%-16s %llu scheduler-cycles\n", stall_names[r], (unsigned long long)t.stall[r]);
    fprintf(out, "sched.multi_issues          %llu warp_insts (issued after another of their warp in the same cycle)\n",
            (unsigned long long)t.multi_issues);
    fprintf(out, "oc.register_reads          %llu (waited for their bank %llu)\n", (unsigned long long)t.oc_reads,
            (unsigned long long)t.oc_bank_conflicts);
    for (int u = 0; u < SM_UNIT_NONE; u++)
      fprintf(out, "unit.%s.issue_cycles      %llu (%.1f%% of SM cycles)\n", unit_names[u], (unsigned long long)t.unit_busy[u],
              100.0 * (double)t.unit_busy[u] / (cyc * g->nsm));
    for (int k = 0; k < WINST__COUNT; k++)
      if (t.issue_kind[k]) fprintf(out, "insts.%-18s %llu warp_insts\n", kind_names[k], (unsigned long long)t.issue_kind[k]);
    for (int r = 1; r < CACHE_FAIL__COUNT; r++)
      fprintf(out, "ldst.stall.%-15s %llu cycles\n", cache_fail_name((CacheFailReason)r), (unsigned long long)t.ldst_resfail[r]);
    fprintf(out, "ldst.busy_cycles            %llu\n", (unsigned long long)t.ldst_busy_cycles);
    fprintf(out, "ldst.requests               global_load %llu global_store %llu local %llu atomic %llu const %llu\n",
            (unsigned long long)t.global_load_reqs, (unsigned long long)t.global_store_reqs, (unsigned long long)t.local_reqs,
            (unsigned long long)t.atomic_reqs, (unsigned long long)t.const_loads);
    fprintf(out, "shared.accesses             %llu (bank-conflict extra passes %llu)\n", (unsigned long long)t.shared_accesses,
            (unsigned long long)t.shared_conflict_passes);
    fprintf(out, "l1d.read_mpki               %.3f (misses incl. MSHR merges per 1000 warp_insts)\n", (double)l1_miss / kinst);
    fprintf(out, "l1d.read_miss_rate          %.4f\n", l1.reads ? (double)l1_miss / (double)l1.reads : 0.0);
    fprintf(out, "l2.read_mpki                %.3f\n", (double)l2_miss / kinst);
    fprintf(out, "l2.read_miss_rate           %.4f\n", l2.reads ? (double)l2_miss / (double)l2.reads : 0.0);
    fprintf(out, "mem.avg_load_latency        %.1f cycles (global/local load issue to last reply)\n", lat);
    fprintf(out, "cta.count                   %llu (avg %.0f cycles)\n", (unsigned long long)t.ctas_done,
            t.ctas_done ? (double)t.cta_cycles_sum / (double)t.ctas_done : 0.0);
    fprintf(out, "cta.warp_time_disparity     %.4f (mean over CTAs of (slowest-fastest)/slowest warp)\n", disp);
    fprintf(out, "cta.warp_time_disparity_max %.4f; CTAs by disparity (bins of %.1f):", (double)t.warp_disparity_max_e6 / 1e6,
            1.0 / SM_DISPARITY_BINS);
    for (int b = 0; b < SM_DISPARITY_BINS; b++) fprintf(out, " %llu", (unsigned long long)t.warp_disparity_hist[b]);
    fprintf(out, "\nwarp.barrier_stall_fraction  %.4f (warp-cycles waiting at barriers / warp-cycles resident)\n", bar_frac);
    fprintf(out, "warp.exit_stall_fraction     %.4f (warp-cycles retired, waiting for the CTA to exit / resident)\n", exit_frac);
    fprintf(out, "warp.rtru_barrier_phase     %.4f (mean RTRU over %llu warp-phases ended by a barrier; exit phase %.4f)\n", rtru_bar,
            (unsigned long long)t.barrier_phases, rtru_exit);
    fprintf(out, "warp.barrier_wait_per_phase %.1f (warp-cycles waited at one barrier, summed over its warps)\n", bar_wait);
    fprintf(out, "l1d.read_hits_pki           same warp %.3f, other warp %.3f (per 1000 warp_insts; hits %llu and %llu)\n",
            hits_same, hits_other, (unsigned long long)(l1.read_hits - l1.read_hits_other_warp),
            (unsigned long long)l1.read_hits_other_warp);
    if (split)
      fprintf(out, "l1d.read_hits_same_warp_pki same thread %.3f, other thread %.3f (same-warp read hits per 1000 warp_insts; %llu, %llu; other-thread fraction %.4f)\n",
              (double)t.l1d_read_hits_same_thread / kinst, (double)t.l1d_read_hits_other_thread / kinst,
              (unsigned long long)t.l1d_read_hits_same_thread, (unsigned long long)t.l1d_read_hits_other_thread, thread_frac);
    if (split) fprintf(out, "l1d.read_misses_pki         evicted same warp %.3f, evicted other warp %.3f, cold/other %.3f (allocating misses per 1000 warp_insts; %llu, %llu, %llu)\n",
            (double)miss_same / kinst, (double)miss_other / kinst, (double)miss_cold / kinst, (unsigned long long)miss_same,
            (unsigned long long)miss_other, (unsigned long long)miss_cold);
    memsys_print_stats(g->ms, out, false);
    gpu_print_policy_stats(g, out, false);
    fprintf(out, "sim.wall_seconds            %.3f\n", wall);
    fprintf(out, "sim.warp_insts_per_sec      %.0f\n", wips);
    return;
  }
  fprintf(out, "{\"cycles\": %llu, \"warp_insts\": %llu, \"thread_insts\": %llu, \"ipc_warp_insts_per_cycle\": %.6f, "
               "\"ipc_thread_insts_per_cycle\": %.6f,\n",
          (unsigned long long)g->cycle, (unsigned long long)t.warp_insts, (unsigned long long)t.thread_insts,
          (double)t.warp_insts / cyc, (double)t.thread_insts / cyc);
  fprintf(out, " \"kernels\": [");
  for (uint32_t k = 0; k < g->nkern; k++) {
    const GpuKernelStats *ks = &g->kern[k];
    fprintf(out, "%s{\"name\": \"%s\", \"cycles\": %llu, \"warp_insts\": %llu, \"thread_insts\": %llu, \"ctas\": %llu, "
                 "\"ctas_per_sm\": %u, \"occupancy_limiter\": \"%s\", \"regs_per_thread\": %u, \"regs_source\": \"%s\", "
                 "\"threads_per_cta\": %u, \"shared_bytes_per_cta\": %u, \"l2_reads\": %llu, \"l2_read_misses\": %llu, "
                 "\"l2_read_miss_rate\": %.6f}",
            k ? ", " : "", ks->name, (unsigned long long)ks->cycles, (unsigned long long)ks->warp_insts,
            (unsigned long long)ks->thread_insts, (unsigned long long)ks->ctas, ks->ctas_per_sm, ks->limiter ? ks->limiter : "",
            ks->regs_per_thread, ks->regs_source, ks->threads_per_cta, ks->shared_per_cta, (unsigned long long)ks->l2_reads,
            (unsigned long long)ks->l2_read_misses, ks->l2_reads ? (double)ks->l2_read_misses / (double)ks->l2_reads : 0.0);
  }
  fprintf(out, "],\n \"sched_stall_cycles\": {");
  for (int r = 0; r < SM_STALL__COUNT; r++) fprintf(out, "%s\"%s\": %llu", r ? ", " : "", stall_names[r], (unsigned long long)t.stall[r]);
  fprintf(out, "}, \"multi_issues\": %llu, \"oc_register_reads\": %llu, \"oc_bank_conflicts\": %llu,\n \"unit_issue_cycles\": {",
          (unsigned long long)t.multi_issues, (unsigned long long)t.oc_reads, (unsigned long long)t.oc_bank_conflicts);
  for (int u = 0; u < SM_UNIT_NONE; u++) fprintf(out, "%s\"%s\": %llu", u ? ", " : "", unit_names[u], (unsigned long long)t.unit_busy[u]);
  fprintf(out, "},\n \"warp_insts_by_kind\": {");
  for (int k = 0; k < WINST__COUNT; k++) fprintf(out, "%s\"%s\": %llu", k ? ", " : "", kind_names[k], (unsigned long long)t.issue_kind[k]);
  fprintf(out, "},\n \"ldst_stall_cycles\": {");
  for (int r = 1; r < CACHE_FAIL__COUNT; r++) fprintf(out, "%s\"%s\": %llu", r > 1 ? ", " : "", cache_fail_name((CacheFailReason)r), (unsigned long long)t.ldst_resfail[r]);
  fprintf(out, "}, \"ldst_busy_cycles\": %llu,\n \"requests\": {\"global_load\": %llu, \"global_store\": %llu, \"local\": %llu, "
               "\"atomic\": %llu, \"const\": %llu}, \"shared_accesses\": %llu, \"shared_conflict_passes\": %llu,\n",
          (unsigned long long)t.ldst_busy_cycles, (unsigned long long)t.global_load_reqs, (unsigned long long)t.global_store_reqs,
          (unsigned long long)t.local_reqs, (unsigned long long)t.atomic_reqs, (unsigned long long)t.const_loads,
          (unsigned long long)t.shared_accesses, (unsigned long long)t.shared_conflict_passes);
  fprintf(out, " \"l1d_read_mpki\": %.6f, \"l1d_read_miss_rate\": %.6f, \"l2_read_mpki\": %.6f, \"l2_read_miss_rate\": %.6f, "
               "\"avg_load_latency_cycles\": %.3f,\n",
          (double)l1_miss / kinst, l1.reads ? (double)l1_miss / (double)l1.reads : 0.0, (double)l2_miss / kinst,
          l2.reads ? (double)l2_miss / (double)l2.reads : 0.0, lat);
  fprintf(out, " \"ctas\": %llu, \"avg_cta_cycles\": %.3f, \"warp_time_disparity\": %.6f,\n",
          (unsigned long long)t.ctas_done, t.ctas_done ? (double)t.cta_cycles_sum / (double)t.ctas_done : 0.0, disp);
  fprintf(out, " \"warp_time_disparity_max\": %.6f, \"warp_time_disparity_hist\": {", (double)t.warp_disparity_max_e6 / 1e6);
  for (int b = 0; b < SM_DISPARITY_BINS; b++)
    fprintf(out, "%s\"pct%02d_%02d\": %llu", b ? ", " : "", 100 * b / SM_DISPARITY_BINS, 100 * (b + 1) / SM_DISPARITY_BINS,
            (unsigned long long)t.warp_disparity_hist[b]);
  fprintf(out, "},\n \"barrier_stall_fraction\": %.6f, \"exit_stall_fraction\": %.6f, \"rtru_barrier_phase\": %.6f, "
               "\"rtru_exit_phase\": %.6f, \"barrier_phases\": %llu, \"barrier_wait_cycles\": %llu, \"exit_wait_cycles\": %llu, "
               "\"warp_resident_cycles\": %llu, \"barrier_wait_per_phase\": %.3f,\n",
          bar_frac, exit_frac, rtru_bar, rtru_exit, (unsigned long long)t.barrier_phases, (unsigned long long)t.barrier_wait_cycles,
          (unsigned long long)t.exit_wait_cycles, (unsigned long long)t.warp_resident_cycles, bar_wait);
  uint64_t resfail_cycles = 0;
  for (int r = 1; r < CACHE_FAIL__COUNT; r++) resfail_cycles += t.ldst_resfail[r];
  fprintf(out, " \"l1d_read_hits_same_warp\": %llu, \"l1d_read_hits_other_warp\": %llu, \"l1d_read_hits_same_warp_pki\": %.6f, "
               "\"l1d_read_hits_other_warp_pki\": %.6f, \"l1d_read_hit_rate\": %.6f, \"l1d_read_hit_rate_cached\": %.6f, "
               "\"ldst_resfail_stall_cycles\": %llu,\n",
          (unsigned long long)(l1.read_hits - l1.read_hits_other_warp), (unsigned long long)l1.read_hits_other_warp, hits_same,
          hits_other, l1.reads ? (double)l1.read_hits / (double)l1.reads : 0.0,
          /* over the reads not bypassed (as GPGPU-Sim counts its L1D: a bypass never reaches it) */
          l1.reads > l1.bypasses ? (double)l1.read_hits / (double)(l1.reads - l1.bypasses) : 0.0, (unsigned long long)resfail_cycles);
  if (split)
    fprintf(out, " \"l1d_read_misses_evicted_same_warp\": %llu, \"l1d_read_misses_evicted_other_warp\": %llu, \"l1d_read_misses_cold\": %llu, "
               "\"l1d_read_misses_evicted_same_warp_pki\": %.6f, \"l1d_read_misses_evicted_other_warp_pki\": %.6f, \"l1d_read_misses_cold_pki\": %.6f,\n",
          (unsigned long long)miss_same, (unsigned long long)miss_other, (unsigned long long)miss_cold, (double)miss_same / kinst,
          (double)miss_other / kinst, (double)miss_cold / kinst);
  if (split)
    fprintf(out, " \"l1d_read_hits_same_warp_same_thread\": %llu, \"l1d_read_hits_same_warp_other_thread\": %llu, "
               "\"l1d_read_hits_same_warp_same_thread_pki\": %.6f, \"l1d_read_hits_same_warp_other_thread_pki\": %.6f, "
               "\"l1d_read_hits_same_warp_other_thread_fraction\": %.6f,\n",
          (unsigned long long)t.l1d_read_hits_same_thread, (unsigned long long)t.l1d_read_hits_other_thread,
          (double)t.l1d_read_hits_same_thread / kinst, (double)t.l1d_read_hits_other_thread / kinst, thread_frac);
  fprintf(out, " \"memory\": ");
  memsys_print_stats(g->ms, out, true);
  fprintf(out, ",\n \"policies\": ");
  gpu_print_policy_stats(g, out, true);
  fprintf(out, ",\n \"wall_seconds\": %.6f, \"warp_insts_per_sec\": %.1f}", wall, wips);
}
