/* bypass.c - coordinated static and dynamic L1D bypassing (Li et al., HPCA 2015;
 * ../shared/spec/policies.md section 6), an SM observer (`sm.observers = bypass`)
 * that sets the access class of every global load through the annotate hook.
 *
 * Static part: a class file (`observer.bypass.classes`, written by `warpsim
 * classify`) gives each global load of each kernel a class: ca (cached), cg
 * (bypasses the L1: no line, no MSHR, its reply goes straight back) or cm
 * (decided at run time). Loads the file does not list get `default`.
 * Dynamic part (`cm = dynamic`): each CTA is tagged bg (bypass) or ba (cache)
 * at its launch: bg while fewer than TB_bg CTAs of the SM are bg. A cm load
 * of a bg CTA bypasses, of a ba CTA is cached. TB_bg starts at the kernel's
 * occupancy (TB_max); a sampling period is the lifetime of the first CTA
 * launched while the SM holds exactly TB_bg bg CTAs; at its end CHSS =
 * hits * l2_latency / (stall * warps) (hits: L1D load hits of the SM in the
 * period; stall: LD/ST cycles spent on L1D reservation failures, each
 * request's from its first failed try to its acceptance; warps: the mean
 * resident warps) is stored in CHSS[TB_bg], and TB_bg moves to the best of
 * itself and its two neighbours, a neighbour never measured counting as
 * best (it is explored). `central = true`: SM 0 learns and every SM tags by
 * SM 0's TB_bg (a policy_shared block); false: each SM learns its own.
 * `cm = ca` or `cg`: the static classes alone (cm loads cached / bypassed).
 * `tb_bg = N` (N >= 0) fixes the target instead of learning it (no sampling
 * periods; N above a kernel's TB_max means TB_max), as the paper's Figure 3b
 * varies it by hand; -1 (the default) learns it.
 *
 * Outputs: statistics (loads per class and outcome, periods, TB_bg), the
 * TB_bg series (`series = PATH`: "kernel sm cycle tb_bg chss" per period end)
 * and, for profiling (`profile = PATH`), every global load's L1D accesses and
 * hits and MSHR merges per kernel and PC ("kernel pc accesses hits merges"), summed over the SMs.
 * Both are policy outputs (policy_env.h): written whole at the GPU's close after a
 * completed run, or left as they were. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/infile.h"
#include "policy/mem_req.h"
#include "policy/observer/bypass_classes.h"
#include "policy/warp_sched.h"

#define BP_MAX_TB 64 /* CHSS table entries: TB_bg in [0, BP_MAX_TB) */

enum { BP_CM_DYNAMIC = 0, BP_CM_CA, BP_CM_CG };

/* One kernel's classes (indexed by PC) and profile counts, by kernel name. */
typedef struct BpKernel {
  char *name;
  uint32_t npc;
  uint8_t *cls;                     /* MEM_CLASS_* per PC: the file's, else the default */
  uint64_t *access, *hits, *merges; /* profile counts per PC */
} BpKernel;

/* Per GPU: the class file, the kernels seen, the central TB_bg, the output files. */
typedef struct BpShared {
  int loaded;
  BpFileLine *lines;
  uint32_t nlines;
  BpKernel *k;
  uint32_t nk, cur;  /* cur: the running kernel's entry in k */
  uint32_t launches; /* kernels set up (KERNEL_BEGIN of launch index < launches seen) */
  uint32_t tb_bg;    /* central mode: SM 0's target */
  PolicyGpu *gpu;
  int out_profile, out_series; /* policy_out handles, -1: none */
  char *series;                /* the TB_bg series, written at the end */
  size_t series_len, series_cap;
  int oom;
} BpShared;

typedef struct Bypass {
  BpShared *sh;
  uint32_t sm, max_ctas;
  uint8_t cm_mode, def_cls, central, profile;
  uint32_t l2_latency;
  int32_t fixed; /* fixed TB_bg (>= 0), or -1: learnt */
  /* dynamic state (this SM) */
  uint8_t *tag_bg; /* per CTA slot: 1 = bg */
  uint8_t *live;   /* per CTA slot: holds a CTA */
  uint32_t cur_bg, tb_bg, tb_max;
  double chss[BP_MAX_TB];
  uint8_t known[BP_MAX_TB];
  int32_t period_cta; /* CTA slot whose lifetime is the period (-1: none) */
  uint64_t period_start, p_hits, p_stall, p_warp_cycles, warps, warps_since;
  uint64_t fail_start;
  uint8_t fail_pending;
  /* statistics */
  uint64_t n_ld[3][2]; /* [class][bypassed] warp instructions */
  uint64_t periods, tb_changes, bg_ctas, ba_ctas, tb_sum, stall_cycles;
} Bypass;

static const CfgParam bypass_params[] = {
    {.key = "classes",
     .type = CFG_STRING,
     .def = "",
     .desc = "class file from `warpsim classify` (kernel pc ca|cg|cm); empty: none"},
    {.key = "default",
     .type = CFG_ENUM,
     .def = "cm",
     .choices = "ca|cg|cm",
     .desc = "class of a global load the class file does not list"},
    {.key = "cm",
     .type = CFG_ENUM,
     .def = "dynamic",
     .choices = "dynamic|ca|cg",
     .desc = "cm loads: dynamic (bypass in bg CTAs, CTA tags learnt by CHSS), ca (cached) or cg (bypassed)"},
    {.key = "central",
     .type = CFG_BOOL,
     .def = "true",
     .desc = "centralised control: SM 0 learns TB_bg, every SM follows"},
    {.key = "tb_bg",
     .type = CFG_INT,
     .def = "-1",
     .min = -1,
     .max = BP_MAX_TB - 1,
     .desc = "fixed TB_bg for cm = dynamic (no learning; capped at the kernel's TB_max), -1: learnt by CHSS"},
    {.key = "l2_latency",
     .type = CFG_INT,
     .def = "120",
     .min = 1,
     .max = 100000,
     .desc = "L2_Latency of CHSS (cycles)"},
    {.key = "series",
     .type = CFG_STRING,
     .def = "",
     .desc = "file for the TB_bg series (kernel sm cycle tb_bg chss per period)"},
    {.key = "profile",
     .type = CFG_STRING,
     .def = "",
     .desc = "file for per-PC L1D accesses and hits of global loads (classify)"},
    {0},
};

static uint8_t cls_of(const char *s) { return bp_class_of(s); }
static const char *const cls_name[] = {"ca", "cg", "cm"};

static void series_add(BpShared *sh, const char *text) {
  size_t n = strlen(text);
  if (sh->series_len + n + 1 > sh->series_cap) {
    size_t cap = sh->series_cap ? sh->series_cap * 2 : 4096;
    while (cap < sh->series_len + n + 1) cap *= 2;
    char *p = realloc(sh->series, cap);
    if (!p) {
      sh->oom = 1;
      return;
    }
    sh->series = p, sh->series_cap = cap;
  }
  memcpy(sh->series + sh->series_len, text, n + 1);
  sh->series_len += n;
}

static void shared_fini(void *block) {
  BpShared *sh = block;
  FILE *pf = sh->out_profile >= 0 ? policy_out_file(sh->gpu, sh->out_profile) : NULL;
  if (pf) {
    size_t cap = 256, len = 0;
    for (uint32_t i = 0; i < sh->nk; i++) cap += (size_t)sh->k[i].npc * (strlen(sh->k[i].name) + 72);
    char *t = malloc(cap);
    if (t) {
      len += (size_t)snprintf(
          t + len, cap - len,
          "# warpsim bypass profile: kernel pc accesses hits merges (L1D line requests of global loads)\n");
      for (uint32_t i = 0; i < sh->nk; i++)
        for (uint32_t pc = 0; pc < sh->k[i].npc; pc++)
          if (sh->k[i].access[pc])
            len += (size_t)snprintf(t + len, cap - len, "%s %u %llu %llu %llu\n", sh->k[i].name, pc,
                                    (unsigned long long)sh->k[i].access[pc],
                                    (unsigned long long)sh->k[i].hits[pc],
                                    (unsigned long long)sh->k[i].merges[pc]);
    }
    if (!t)
      policy_gpu_fail(sh->gpu, "bypass: out of memory writing the profile");
    else
      fwrite(t, 1, len, pf);
    free(t);
  }
  FILE *sf = sh->out_series >= 0 ? policy_out_file(sh->gpu, sh->out_series) : NULL;
  if (sf) {
    static const char head[] =
        "# warpsim bypass TB_bg series: kernel sm cycle tb_bg chss (one line per sampling period's end)\n";
    if (sh->oom)
      policy_gpu_fail(sh->gpu, "bypass: out of memory recording the TB_bg series");
    else {
      fputs(head, sf); /* the header, then the rows (if any period ended) */
      if (sh->series) fwrite(sh->series, 1, sh->series_len, sf);
    }
  }
  free(sh->series);
  bp_classes_free(sh->lines, sh->nlines);
  for (uint32_t i = 0; i < sh->nk; i++)
    free(sh->k[i].name), free(sh->k[i].cls), free(sh->k[i].access), free(sh->k[i].hits),
        free(sh->k[i].merges);
  free(sh->k);
}

/* Reads the class file (a regular file of bounded size; bypass_classes.h). */
static int load_classes(BpShared *sh, const char *path, char *msg, size_t msglen) {
  char *text = in_read(path, BP_CLASSES_MAX_FILE, NULL, msg, msglen);
  if (!text) return -1;
  int rc = bp_classes_parse(text, path, &sh->lines, &sh->nlines, msg, msglen);
  free(text);
  return rc;
}

static int bypass_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  char key[160];
  BpShared *sh = policy_shared(env->gpu, "bypass", sizeof *sh, shared_fini);
  Bypass *b = calloc(1, sizeof *b);
  uint8_t *tags = calloc(env->max_ctas ? env->max_ctas : 1, 2);
  snprintf(key, sizeof key, "%s.classes", env->prefix);
  if (!sh || !b || !tags) {
    free(b), free(tags);
    return cfg_errorf(env->cfg, key, err, errlen, "out of memory");
  }
  b->sh = sh;
  b->sm = env->sm;
  b->max_ctas = env->max_ctas;
  b->tag_bg = tags, b->live = tags + (env->max_ctas ? env->max_ctas : 1);
  b->def_cls = cls_of(cfg_str_in(env->cfg, env->prefix, "default"));
  const char *cm = cfg_str_in(env->cfg, env->prefix, "cm");
  b->cm_mode = !strcmp(cm, "ca") ? BP_CM_CA : !strcmp(cm, "cg") ? BP_CM_CG : BP_CM_DYNAMIC;
  b->central = cfg_bool_in(env->cfg, env->prefix, "central");
  b->l2_latency = (uint32_t)cfg_int_in(env->cfg, env->prefix, "l2_latency");
  b->fixed = (int32_t)cfg_int_in(env->cfg, env->prefix, "tb_bg");
  b->period_cta = -1;
  const char *prof = cfg_str_in(env->cfg, env->prefix, "profile"),
             *ser = cfg_str_in(env->cfg, env->prefix, "series");
  b->profile = prof[0] != 0;
  if (!sh->loaded) { /* the first SM reads the file and names the outputs */
    sh->loaded = 1;
    char msg[1400], okey[160];
    sh->gpu = env->gpu;
    sh->out_profile = sh->out_series = -1;
    snprintf(okey, sizeof okey, "%s.profile", env->prefix);
    if (prof[0] && (sh->out_profile = policy_out(env->gpu, okey, prof, msg, sizeof msg)) < 0) {
      free(b), free(tags);
      return cfg_errorf(env->cfg, okey, err, errlen, "%s", msg);
    }
    snprintf(okey, sizeof okey, "%s.series", env->prefix);
    if (ser[0] && (sh->out_series = policy_out(env->gpu, okey, ser, msg, sizeof msg)) < 0) {
      free(b), free(tags);
      return cfg_errorf(env->cfg, okey, err, errlen, "%s", msg);
    }
    const char *path = cfg_str_in(env->cfg, env->prefix, "classes");
    if (path[0] && load_classes(sh, path, msg, sizeof msg)) {
      free(b), free(tags);
      return cfg_errorf(env->cfg, key, err, errlen, "%s", msg);
    }
  }
  *state = b;
  return 0;
}

static void bypass_free(void *state) {
  Bypass *b = state;
  if (b) free(b->tag_bg);
  free(b);
}

/* The kernel's entry (created with its classes at its first KERNEL_BEGIN on any SM). */
static void kernel_begin(Bypass *b, const PolicyKernel *k) {
  BpShared *sh = b->sh;
  if (k->launch_index >= sh->launches) {
    sh->launches = k->launch_index + 1;
    uint32_t i = 0;
    while (i < sh->nk && (strcmp(sh->k[i].name, k->name) || sh->k[i].npc != k->npc)) i++;
    if (i == sh->nk) {
      BpKernel *n = realloc(sh->k, (sh->nk + 1) * sizeof *n);
      if (!n) {
        sh->oom = 1;
        sh->cur = UINT32_MAX;
        return;
      }
      sh->k = n;
      BpKernel *e = &sh->k[sh->nk];
      memset(e, 0, sizeof *e);
      e->name = strdup(k->name);
      e->npc = k->npc;
      e->cls = malloc(k->npc + 1);
      e->access = calloc(k->npc + 1, sizeof *e->access);
      e->hits = calloc(k->npc + 1, sizeof *e->hits);
      e->merges = calloc(k->npc + 1, sizeof *e->merges);
      if (!e->name || !e->cls || !e->access || !e->hits || !e->merges) {
        free(e->name), free(e->cls), free(e->access), free(e->hits), free(e->merges);
        sh->oom = 1;
        sh->cur = UINT32_MAX;
        return;
      }
      memset(e->cls, b->def_cls, k->npc + 1);
      for (uint32_t l = 0; l < sh->nlines; l++)
        if (!strcmp(sh->lines[l].kernel, k->name) && sh->lines[l].pc < k->npc)
          e->cls[sh->lines[l].pc] = sh->lines[l].cls;
      sh->nk++;
    }
    sh->cur = i;
    /* central mode's target until SM 0 moves it (every SM starts at the same one) */
    sh->tb_bg =
        b->fixed >= 0 && (uint32_t)b->fixed < k->max_ctas_per_sm ? (uint32_t)b->fixed : k->max_ctas_per_sm;
  }
  b->tb_max = k->max_ctas_per_sm < BP_MAX_TB ? k->max_ctas_per_sm : BP_MAX_TB - 1;
  b->tb_bg = b->fixed >= 0 && (uint32_t)b->fixed < b->tb_max ? (uint32_t)b->fixed : b->tb_max;
  memset(b->chss, 0, sizeof b->chss);
  memset(b->known, 0, sizeof b->known);
  b->period_cta = -1;
  b->cur_bg = 0;
}

static inline BpKernel *cur_kernel(const Bypass *b) {
  return b->sh->cur < b->sh->nk ? &b->sh->k[b->sh->cur] : NULL;
}

/* The target this SM tags by. */
static inline uint32_t target(const Bypass *b) { return b->central && b->sm ? b->sh->tb_bg : b->tb_bg; }

/* Does this SM learn? (central: SM 0 only) */
static inline int learns(const Bypass *b) {
  return b->cm_mode == BP_CM_DYNAMIC && b->fixed < 0 && (!b->central || b->sm == 0);
}

static void warps_to(Bypass *b, uint64_t now) {
  if (b->period_cta >= 0 && now > b->warps_since) b->p_warp_cycles += b->warps * (now - b->warps_since);
  b->warps_since = now;
}

/* The end of a sampling period: CHSS into the table, TB_bg to the best of itself and its neighbours. */
static void period_end(Bypass *b, uint64_t now, const PolicyKernel *k) {
  warps_to(b, now);
  const uint64_t len = now > b->period_start ? now - b->period_start : 1;
  const double warps = (double)b->p_warp_cycles / (double)len;
  const double denom = (double)b->p_stall * (warps > 0 ? warps : 1.0);
  /* no stall at all: as good as it gets (the hits still rank periods without stall) */
  const double chss = denom > 0 ? (double)b->p_hits * b->l2_latency / denom : 1e18 + (double)b->p_hits;
  const uint32_t t = b->tb_bg;
  b->chss[t] = chss, b->known[t] = 1;
  b->periods++;
  /* the best of TB_bg and its neighbours; a neighbour never measured is tried first (TB_bg - 1 before
   * TB_bg + 1: from TB_max the search walks down as the paper's Figure 5 does); ties keep TB_bg */
  uint32_t best = t;
  const uint32_t nb[2] = {t - 1, t + 1};
  const int ok[2] = {t > 0, t + 1 <= b->tb_max};
  int explored = 0;
  for (int i = 0; i < 2 && !explored; i++)
    if (ok[i] && !b->known[nb[i]]) best = nb[i], explored = 1;
  for (int i = 0; i < 2 && !explored; i++)
    if (ok[i] && b->chss[nb[i]] > b->chss[best]) best = nb[i];
  if (best != t) b->tb_changes++;
  b->tb_bg = best;
  if (b->central && b->sm == 0) b->sh->tb_bg = best;
  if (b->sh->out_series >= 0) {
    char line[640];
    snprintf(line, sizeof line, "%s %u %llu %u %.6g\n", k && k->name ? k->name : "-", b->sm,
             (unsigned long long)now, best, chss);
    series_add(b->sh, line);
  }
  b->period_cta = -1;
}

static void bypass_event(void *state, const SchedEvent *ev) {
  Bypass *b = state;
  switch (ev->kind) {
  case SCHED_EV_KERNEL_BEGIN:
    kernel_begin(b, ev->kernel);
    return;
  case SCHED_EV_KERNEL_END:
    b->period_cta = -1;
    return;
  case SCHED_EV_WARP_LAUNCH:
    warps_to(b, ev->cycle);
    b->warps++;
    return;
  case SCHED_EV_WARP_EXIT:
    warps_to(b, ev->cycle);
    if (b->warps) b->warps--;
    return;
  case SCHED_EV_CTA_LAUNCH: {
    if (ev->cta_slot >= b->max_ctas) return;
    const int bg = b->cm_mode == BP_CM_DYNAMIC && b->cur_bg < target(b);
    b->tag_bg[ev->cta_slot] = (uint8_t)bg, b->live[ev->cta_slot] = 1;
    b->cur_bg += (uint32_t)bg;
    bg ? b->bg_ctas++ : b->ba_ctas++;
    b->tb_sum += target(b);
    if (learns(b) && b->period_cta < 0 && b->cur_bg == b->tb_bg) { /* the target holds: a period starts */
      b->period_cta = (int32_t)ev->cta_slot;
      b->period_start = b->warps_since = ev->cycle;
      b->p_hits = b->p_stall = b->p_warp_cycles = 0;
    }
    return;
  }
  case SCHED_EV_CTA_EXIT:
    if (ev->cta_slot >= b->max_ctas || !b->live[ev->cta_slot]) return;
    b->live[ev->cta_slot] = 0;
    if (b->tag_bg[ev->cta_slot] && b->cur_bg) b->cur_bg--;
    if (b->period_cta == (int32_t)ev->cta_slot) period_end(b, ev->cycle, ev->kernel);
    return;
  case SCHED_EV_L1_RESFAIL:
    if (!b->fail_pending) b->fail_pending = 1, b->fail_start = ev->cycle;
    return;
  case SCHED_EV_L1_HIT:
  case SCHED_EV_L1_MISS:
  case SCHED_EV_L1_MERGE:
  case SCHED_EV_L1_BYPASS:
  case SCHED_EV_STORE:
    if (b->fail_pending) { /* the request that failed is accepted now */
      const uint64_t s = ev->cycle - b->fail_start;
      b->stall_cycles += s;
      if (b->period_cta >= 0) b->p_stall += s;
      b->fail_pending = 0;
    }
    if (ev->kind == SCHED_EV_STORE) return;
    if (ev->kind == SCHED_EV_L1_HIT && b->period_cta >= 0) b->p_hits++;
    if (b->profile) {
      BpKernel *k = cur_kernel(b);
      if (k && ev->pc < k->npc) {
        k->access[ev->pc]++;
        k->hits[ev->pc] += ev->kind == SCHED_EV_L1_HIT;
        k->merges[ev->pc] += ev->kind == SCHED_EV_L1_MERGE;
      }
    }
    return;
  default:
    return;
  }
}

static void bypass_annotate(void *state, const WarpView *v, SchedMemAnnot *m) {
  Bypass *b = state;
  if (m->kind != WINST_GLOBAL_LOAD) return;
  BpKernel *k = cur_kernel(b);
  uint8_t cls = k && m->pc < k->npc ? k->cls[m->pc] : b->def_cls;
  int bypass;
  if (cls == MEM_CLASS_CM)
    bypass = b->cm_mode == BP_CM_CG ||
             (b->cm_mode == BP_CM_DYNAMIC && v->cta_slot < b->max_ctas && b->tag_bg[v->cta_slot]);
  else
    bypass = cls == MEM_CLASS_CG;
  b->n_ld[cls][bypass]++;
  m->access_class = (uint8_t)(bypass ? MEM_CLASS_CG : MEM_CLASS_CA);
}

static void bypass_stats(void *state, PolicyStats *out) {
  Bypass *b = state;
  for (int c = 0; c < 3; c++) {
    char name[48];
    snprintf(name, sizeof name, "loads_%s_cached", cls_name[c]);
    policy_stat_u64(out, name, "warp_insts", "global loads of this class, cached or bypassed", b->n_ld[c][0]);
    snprintf(name, sizeof name, "loads_%s_bypassed", cls_name[c]);
    policy_stat_u64(out, name, "warp_insts", "global loads of this class, cached or bypassed", b->n_ld[c][1]);
  }
  policy_stat_u64(out, "bg_ctas", "ctas",
                  "CTAs launched bypass-guarded (TB_bg: their loads follow the classes)", b->bg_ctas);
  policy_stat_u64(out, "ba_ctas", "ctas", "CTAs launched bypass-allowed", b->ba_ctas);
  policy_stat_u64(out, "sampling_periods", "periods", "sampling periods of the dynamic TB_bg search",
                  b->periods);
  policy_stat_u64(out, "tb_bg_changes", "events", "periods that changed TB_bg", b->tb_changes);
  policy_stat_u64(out, "resfail_stall_cycles", "cycles",
                  "cycles from an L1D reservation failure to its request's acceptance, summed",
                  b->stall_cycles);
  const uint64_t n = b->bg_ctas + b->ba_ctas;
  policy_stat_f64(out, "tb_bg_mean_at_launch", "ctas", "TB_bg at each CTA launch, mean over launches",
                  n ? (double)b->tb_sum / (double)n : 0.0, PSTAT_MEAN);
}

/* Timeline counter tracks (doc/timeline.md): the TB_bg this SM follows and its bg CTAs now. */
static void bypass_gauges(void *state, uint64_t cycle, PolicyGauges *out) {
  const Bypass *b = state;
  policy_gauge(out, "tb_bg", target(b));
  policy_gauge(out, "bg_ctas", b->cur_bg);
}

const SmObserver observer_bypass = {.name = "bypass",
                                    .params = bypass_params,
                                    .init = bypass_init,
                                    .free = bypass_free,
                                    .on_event = bypass_event,
                                    .annotate = bypass_annotate,
                                    .stats = bypass_stats,
                                    .gauges = bypass_gauges,
                                    .shares_state = policy_shares_always};
