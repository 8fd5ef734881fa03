/* gcaws.c - CAWA's criticality-aware schedulers (Lee et al., ISCA'15;
 * shared/spec/policies.md section 3):
 *  - `gcaws`: the warp that issued last first (greedy), then the others by
 *    CPL's nCrit, largest first, ties to the oldest. It embeds a CPL (cpl.h;
 *    its keys sched.gcaws.critical, .sample_period, .priority_file) and marks
 *    the memory requests of the critical warp MEM_HINT_CRITICAL, so
 *    `sched.policy = gcaws` with `l1d.policy = cacp` is CAWA.
 *    How long the greedy warp keeps its scheduler is `sched.gcaws.slice_ends`.
 *    CAWA (Sec. 3.2) has gCAWS "greedily execute instructions from the
 *    selected critical warp until this particular warp has no further
 *    available instructions", and (Sec. 5.3) say that this greedy scheme
 *    temporarily limits the number of active warps; neither CAWA nor the
 *    abstract of CAWS (PACT'14, its full text not available here) says what
 *    "no further available instructions" is. `stall` (the default, the
 *    earlier reading): GTO's greedy: the last warp that issued comes first
 *    and any warp issues whenever it cannot. `memory` (the most literal
 *    reading we find): the warp that issued last keeps its scheduler, no
 *    other warp of it issuing, while it has instructions to come and is only
 *    waiting on a short hazard (a register of a non-memory instruction, a
 *    busy unit, its I-buffer's refill); the slice ends when it waits on a
 *    long-latency load, at a barrier, or finishes. `barrier`: it also keeps
 *    the scheduler through its memory waits: one warp per scheduler at a time
 *    until a barrier or its end.
 *  - `caws`: the oracle (CAWS, Lee and Wu, PACT'14, as CAWA's Figure 13 runs
 *    it): the same order with each warp's criticality taken from a profile of
 *    a previous run, its execution time (exit - launch cycles). With
 *    `sched.caws.mode = write` (the default) the run schedules as gto and
 *    writes the profile (`sched.caws.profile`; none named: nothing is
 *    written, so caws with its defaults runs as gto) after a completed run
 *    (a policy output, policy_env.h); with `mode = read` it orders by the
 *    profile (caws_profile.h). Entries are keyed by kernel launch index, kernel
 *    name, CTA id and warp in the CTA; a launch whose kernel differs from the
 *    profile's, or a warp with no entry, stops the run with an error naming
 *    the key (policy_gpu_fail). caws keeps a CPL for its statistics only and
 *    sets no hint.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/infile.h"
#include "policy/warp/caws_profile.h"
#include "policy/warp/cpl.h"
#include "policy/warp_sched.h"

/* ---- the oracle profile, one per GPU (policy_shared "caws-profile") ---- */
typedef struct CawsShared {
  int loaded;  /* read mode: the file was read (by the first SM) */
  int writing; /* write mode */
  char path[1024];
  CawsProfile prof;
  PolicyGpu *gpu;
  int out; /* write mode: the policy_out handle */
  int oom;
} CawsShared;

/* At the GPU's close: a write-mode profile goes to its output (committed whole after a run
 * that completed, else dropped: policy_env.h). */
static void profile_fini(void *block) {
  CawsShared *p = block;
  if (p->writing) {
    FILE *f = policy_out_file(p->gpu, p->out);
    if (f && p->oom)
      policy_gpu_fail(p->gpu, "caws: out of memory recording the profile %s", p->path);
    else if (f) {
      caws_profile_sort(&p->prof);
      fprintf(f, "# warpsim caws profile: 'kernel LAUNCH NAME' lines, then 'LAUNCH CTA WARP CYCLES' (warp "
                 "execution time)\n");
      for (uint32_t i = 0; i < p->prof.nnames; i++)
        if (p->prof.names[i]) fprintf(f, "kernel %u %s\n", i, p->prof.names[i]);
      for (uint32_t i = 0; i < p->prof.n; i++) {
        const CawsEntry *e = &p->prof.e[i];
        fprintf(f, "%u %u %u %llu\n", e->launch, e->cta, e->warp, (unsigned long long)e->cycles);
      }
    }
  }
  caws_profile_free(&p->prof);
}

/* Reads a profile (a regular file of bounded size); 0, or -1 with a message. */
static int profile_read(CawsShared *p, const char *path, char *msg, size_t len) {
  char err[1200];
  char *text = in_read(path, CAWS_MAX_FILE, NULL, err, sizeof err);
  if (!text)
    return snprintf(msg, len, "%s%s", err,
                    strstr(err, strerror(ENOENT)) ? " (write it first with sched.caws.mode = write)" : ""),
           -1;
  int rc = caws_profile_parse(&p->prof, text, path, msg, len);
  free(text);
  if (rc) return rc;
  p->loaded = 1;
  return 0;
}

/* ---- the schedulers ---- */
enum { SLICE_STALL = 0, SLICE_MEMORY, SLICE_BARRIER };

typedef struct Gcaws {
  Cpl cpl;
  int slice;             /* gcaws: SLICE_*, what ends the greedy warp's time slice */
  const WarpView *views; /* the SM's views (env->views; NULL: no time slice beyond stall) */
  uint32_t nsched;
  int32_t *holder; /* per scheduler: the warp whose slice runs (the last that issued), -1 none */
  SchedAgeCache age;
  PolicyGpu *gpu;
  int oracle;  /* caws */
  int reading; /* caws, mode = read */
  CawsShared *prof;
  uint32_t nslots;
  int64_t *key;                   /* per slot: the criticality the order sorts by */
  uint64_t *oracle_cycles;        /* caws read: the profiled time per slot */
  uint8_t *have;                  /* caws read: looked up for the slot's current warp */
  uint32_t *cta_id, *warp_in_cta; /* caws write: per slot, from the views */
} Gcaws;

/* cpl's keys (cpl_params) and the time slice */
static const CfgParam gcaws_params[] = {
    {.key = "slice_ends",
     .type = CFG_ENUM,
     .def = "stall",
     .choices = "stall|memory|barrier",
     .desc = "what ends the greedy warp's hold on its scheduler: any stall (GTO's greedy), a wait on a "
             "long-latency load, or only a barrier (and its end)"},
    {.key = "critical",
     .type = CFG_ENUM,
     .def = "cta_max",
     .choices = "cta_max|sm_threshold",
     .desc = "critical warp: the largest nCrit of its CTA, or normalised nCrit over the SM > 0.5"},
    {.key = "sample_period",
     .type = CFG_INT,
     .def = "100",
     .min = 1,
     .max = 1000000,
     .desc = "cycles between two samples of the CPL accuracy statistic (and the priority series)"},
    {.key = "reuse_history",
     .type = CFG_INT,
     .def = "0",
     .min = 0,
     .max = 1 << 20,
     .desc =
         "(warp, line) pairs of the critical-warp re-reference statistics per SM, a power of 2 (0: off; they "
         "cost host time)"},
    {.key = "priority_file",
     .type = CFG_STRING,
     .def = "",
     .desc = "file for the critical warp's priority over time (SM 0, first CTA; empty: none)"},
    {0},
};

static const CfgParam caws_params[] = {
    {.key = "mode",
     .type = CFG_ENUM,
     .def = "write",
     .choices = "write|read",
     .desc = "write: schedule as gto and write the profile; read: order by the profile"},
    {.key = "profile",
     .type = CFG_STRING,
     .def = "",
     .desc = "the per-warp criticality profile file (read mode: required; write mode: none = write nothing)"},
    {.key = "critical",
     .type = CFG_ENUM,
     .def = "cta_max",
     .choices = "cta_max|sm_threshold",
     .desc = "the statistics' CPL: critical warp by CTA maximum or SM threshold"},
    {.key = "sample_period",
     .type = CFG_INT,
     .def = "100",
     .min = 1,
     .max = 1000000,
     .desc = "cycles between two samples of the CPL accuracy statistic"},
    {.key = "reuse_history",
     .type = CFG_INT,
     .def = "0",
     .min = 0,
     .max = 1 << 20,
     .desc = "(warp, line) pairs of the CPL re-reference statistics per SM, a power of 2 (0: off)"},
    {.key = "priority_file",
     .type = CFG_STRING,
     .def = "",
     .desc = "file for the critical warp's CPL priority over time (SM 0, first CTA; empty: none)"},
    {0},
};

static void gcaws_free(void *state) {
  Gcaws *g = state;
  if (!g) return;
  cpl_free(&g->cpl);
  sched_age_cache_free(&g->age);
  free(g->key);
  free(g->oracle_cycles);
  free(g->have);
  free(g->cta_id);
  free(g->warp_in_cta);
  free(g->holder);
  free(g);
}

static int gcaws_init_common(void **state, const WarpSchedEnv *env, char *err, size_t errlen, int oracle) {
  Gcaws *g = calloc(1, sizeof *g);
  if (!g) return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  if (cpl_init(&g->cpl, env, err, errlen)) {
    free(g);
    return -1;
  }
  g->nslots = env->max_warps;
  g->gpu = env->gpu;
  g->oracle = oracle;
  g->views = env->views;
  g->nsched = env->nsched ? env->nsched : 1;
  g->holder = malloc(g->nsched * sizeof *g->holder);
  for (uint32_t q = 0; g->holder && q < g->nsched; q++) g->holder[q] = -1;
  if (!oracle) {
    const char *sl = cfg_str_in(env->cfg, env->prefix, "slice_ends");
    g->slice = !strcmp(sl, "memory") ? SLICE_MEMORY : !strcmp(sl, "barrier") ? SLICE_BARRIER : SLICE_STALL;
  }
  size_t n = env->max_warps ? env->max_warps : 1;
  g->key = calloc(n, sizeof *g->key);
  g->oracle_cycles = calloc(n, sizeof *g->oracle_cycles);
  g->have = calloc(n, 1);
  g->cta_id = calloc(n, sizeof *g->cta_id);
  g->warp_in_cta = calloc(n, sizeof *g->warp_in_cta);
  if (sched_age_cache_init(&g->age, env, env->nsched) || !g->key || !g->oracle_cycles || !g->have ||
      !g->cta_id || !g->warp_in_cta || !g->holder) {
    gcaws_free(g);
    return cfg_errorf(env->cfg, "sched.policy", err, errlen, "out of memory");
  }
  if (oracle) {
    const char *path = cfg_str_in(env->cfg, env->prefix, "profile");
    g->reading = !strcmp(cfg_str_in(env->cfg, env->prefix, "mode"), "read");
    if ((g->reading && !path[0]) || strlen(path) >= sizeof g->prof->path) {
      gcaws_free(g);
      return cfg_errorf(env->cfg, "sched.caws.profile", err, errlen,
                        path[0] ? "path too long"
                                : "the caws oracle reads a profile file (written by a run with "
                                  "sched.caws.mode = write)");
    }
    if (path[0]) g->prof = policy_shared(env->gpu, "caws-profile", sizeof *g->prof, profile_fini);
    if (path[0] && !g->prof) {
      gcaws_free(g);
      return cfg_errorf(env->cfg, "sched.caws.profile", err, errlen, "out of memory (or no GPU)");
    }
    if (g->prof && !g->prof->path[0]) { /* the first SM sets the block up */
      snprintf(g->prof->path, sizeof g->prof->path, "%s", path);
      char msg[1200];
      if (g->reading && profile_read(g->prof, path, msg, sizeof msg)) {
        gcaws_free(g);
        return cfg_errorf(env->cfg, "sched.caws.profile", err, errlen, "%s", msg);
      }
      if (!g->reading) { /* fails now if it cannot be written, not after the run */
        g->prof->gpu = env->gpu;
        if ((g->prof->out = policy_out(env->gpu, "sched.caws.profile", path, msg, sizeof msg)) < 0) {
          gcaws_free(g);
          return cfg_errorf(env->cfg, "sched.caws.profile", err, errlen, "%s", msg);
        }
        g->prof->writing = 1;
      }
    }
  }
  *state = g;
  return 0;
}

static int gcaws_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  return gcaws_init_common(state, env, err, errlen, 0);
}
static int caws_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  return gcaws_init_common(state, env, err, errlen, 1);
}

static void gcaws_warps_change(void *state) { sched_age_cache_changed(&((Gcaws *)state)->age); }

/* caws read: the profiled time of the warp in `s` (looked up once per warp). */
static uint64_t oracle_key(Gcaws *g, const WarpView *v) {
  uint32_t s = v->slot;
  if (g->have[s]) return g->oracle_cycles[s];
  const PolicyKernel *k = policy_gpu_kernel(g->gpu);
  const CawsEntry *e = caws_profile_find(&g->prof->prof, k->launch_index, v->cta_id, v->warp_in_cta);
  if (!e)
    policy_gpu_fail(g->gpu,
                    "caws profile %s has no entry for kernel %s launch %u CTA %u warp %u "
                    "(write the profile with the same benchmark, size and seed)",
                    g->prof->path, k->name ? k->name : "?", k->launch_index, v->cta_id, v->warp_in_cta);
  g->have[s] = 1;
  g->oracle_cycles[s] = e ? e->cycles : 0;
  return g->oracle_cycles[s];
}

static uint32_t gcaws_order(void *state, uint32_t sched, const WarpView *v, uint32_t nslots, int32_t greedy,
                            uint64_t cycle, uint32_t *out) {
  Gcaws *g = state;
  if (g->oracle && !g->reading) return sched_order_gto(&g->age, v, nslots, sched, greedy, out);
  uint32_t n = sched_collect_by_age_cached(&g->age, v, nslots, sched, out);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t s = out[i];
    g->key[s] = g->oracle ? (int64_t)oracle_key(g, &v[s]) : cpl_crit_memo(&g->cpl, s, cycle);
  }
  /* stable insertion sort, largest criticality first: ties keep the age order */
  for (uint32_t i = 1; i < n; i++) {
    uint32_t s = out[i], j = i;
    for (; j > 0 && g->key[out[j - 1]] < g->key[s]; j--) out[j] = out[j - 1];
    out[j] = s;
  }
  if (greedy >= 0 && (uint32_t)greedy < nslots && v[greedy].valid) sched_move_front(out, n, greedy);
  return n;
}

static void gcaws_issue(void *state, const WarpView *v, const SchedIssue *is) {
  Gcaws *g = state;
  cpl_issue(&g->cpl, v, is);
  g->holder[v->slot % g->nsched] = (int32_t)v->slot;
  if (v->slot < g->nslots) g->cta_id[v->slot] = v->cta_id, g->warp_in_cta[v->slot] = v->warp_in_cta;
}

static void gcaws_event(void *state, const SchedEvent *ev) {
  Gcaws *g = state;
  cpl_event(&g->cpl, ev);
  if (ev->kind == SCHED_EV_WARP_EXIT && ev->slot < g->nslots &&
      g->holder[ev->slot % g->nsched] == (int32_t)ev->slot)
    g->holder[ev->slot % g->nsched] = -1; /* its slice ends with it (a new warp in the slot holds nothing) */
  CawsShared *p = g->prof;
  if (!g->oracle || !p) return;
  if (ev->kind == SCHED_EV_WARP_LAUNCH && ev->slot < g->nslots) g->have[ev->slot] = 0;
  if (ev->kind == SCHED_EV_KERNEL_BEGIN && ev->kernel) {
    const PolicyKernel *k = ev->kernel;
    if (p->writing && caws_profile_name(&p->prof, k->launch_index, k->name ? k->name : "?")) p->oom = 1;
    if (p->loaded) {
      const char *want = k->launch_index < p->prof.nnames ? p->prof.names[k->launch_index] : NULL;
      if (!want)
        policy_gpu_fail(g->gpu, "caws profile %s has no kernel launch %u (%s)", p->path, k->launch_index,
                        k->name ? k->name : "?");
      else if (strcmp(want, k->name ? k->name : ""))
        policy_gpu_fail(g->gpu, "caws profile %s: launch %u was kernel %s, this run's launch %u is kernel %s",
                        p->path, k->launch_index, want, k->launch_index, k->name ? k->name : "?");
    }
  }
  if (ev->kind == SCHED_EV_WARP_EXIT && p->writing && ev->slot < g->nslots) {
    const PolicyKernel *k = ev->kernel ? ev->kernel : policy_gpu_kernel(g->gpu);
    CawsEntry e = {.launch = k->launch_index,
                   .cta = ev->cta_id,
                   .warp = g->warp_in_cta[ev->slot],
                   .cycles = ev->cycle - g->cpl.w[ev->slot].launch};
    if (caws_profile_add(&p->prof, e)) p->oom = 1;
  }
}

/* Does warp `h`'s time slice still run (it has instructions to come and waits
 * on nothing that ends the slice)? */
static bool slice_runs(const Gcaws *g, const WarpView *h) {
  if (!h->valid) return false;
  switch (h->wait) {
  case WARP_WAIT_BARRIER:
  case WARP_WAIT_DRAIN:
  case WARP_WAIT_EXITED:
    return false;
  case WARP_WAIT_SCOREBOARD:
    return g->slice == SLICE_BARRIER || !h->long_pending;
  default:
    return true; /* ready, a busy unit, an I-buffer being refilled */
  }
}

/* gcaws with slice_ends = memory|barrier: while the warp that issued last on
 * this scheduler keeps its slice, no other warp of the scheduler issues. */
static bool gcaws_can_issue(void *state, const WarpView *v, WarpInstKind kind) {
  (void)kind;
  const Gcaws *g = state;
  if (g->slice == SLICE_STALL || !g->views || v->slot >= g->nslots) return true;
  const int32_t h = g->holder[v->slot % g->nsched];
  return h < 0 || (uint32_t)h == v->slot || (uint32_t)h >= g->nslots || !slice_runs(g, &g->views[h]);
}

static void gcaws_annotate(void *state, const WarpView *v, SchedMemAnnot *m) {
  Gcaws *g = state;
  if (!g->oracle) cpl_annotate(&g->cpl, v, m);
}

static void gcaws_tick(void *state, uint64_t cycle) { cpl_tick(&((Gcaws *)state)->cpl, cycle); }
static uint64_t gcaws_next_tick(void *state, uint64_t now) {
  return cpl_next_tick(&((Gcaws *)state)->cpl, now);
}
static void gcaws_stats(void *state, PolicyStats *out) { cpl_stats(&((Gcaws *)state)->cpl, out); }
/* Timeline counter track (doc/timeline.md): the critical warp's nCrit (the largest of the SM's
 * warps at `cycle`), CAWA's Figure 12 over time. */
static void gcaws_gauges(void *state, uint64_t cycle, PolicyGauges *out) {
  Gcaws *g = state;
  int64_t top = 0;
  for (uint32_t s = 0; s < g->nslots; s++)
    if (g->cpl.w[s].valid) {
      int64_t k = cpl_crit(&g->cpl, s, cycle);
      top = k > top ? k : top;
    }
  policy_gauge(out, "max_ncrit", (double)top);
}

/* The caws profile and the CPL series are the GPU's: shared with the other SMs' instances. */
static bool gcaws_shares_state(const void *state) {
  const Gcaws *g = state;
  return g->prof != NULL || cpl_shares_state(&g->cpl);
}

/* both orders list every warp; CPL samples on its own clock (next_tick) and reads sched_wait */
static const PolicyEngineHints gcaws_hints = {
    .lists_all = true, .next_tick = gcaws_next_tick, .sched_wait = true, .no_lanes = true};

const WarpSchedPolicy warp_policy_gcaws = {.name = "gcaws",
                                           .params = gcaws_params,
                                           .init = gcaws_init,
                                           .free = gcaws_free,
                                           .order = gcaws_order,
                                           .can_issue = gcaws_can_issue,
                                           .on_issue = gcaws_issue,
                                           .on_event = gcaws_event,
                                           .annotate = gcaws_annotate,
                                           .tick = gcaws_tick,
                                           .on_warps_change = gcaws_warps_change,
                                           .stats = gcaws_stats,
                                           .gauges = gcaws_gauges,
                                           .shares_state = gcaws_shares_state,
                                           .hints = &gcaws_hints};
const WarpSchedPolicy warp_policy_caws = {.name = "caws",
                                          .params = caws_params,
                                          .init = caws_init,
                                          .free = gcaws_free,
                                          .order = gcaws_order,
                                          .on_issue = gcaws_issue,
                                          .on_event = gcaws_event,
                                          .annotate = gcaws_annotate,
                                          .tick = gcaws_tick,
                                          .on_warps_change = gcaws_warps_change,
                                          .stats = gcaws_stats,
                                          .shares_state = gcaws_shares_state,
                                          .hints = &gcaws_hints};
