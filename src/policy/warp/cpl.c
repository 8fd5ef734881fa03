/* cpl.c - CAWA's criticality predictor and its statistics (see cpl.h). */
#include "policy/warp/cpl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/mem_req.h"

const CfgParam cpl_params[] = {
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
     .desc = "(warp, line) pairs of the critical-warp re-reference statistics per SM, a power of 2 (0: off; "
             "they cost host time)"},
    {.key = "priority_file",
     .type = CFG_STRING,
     .def = "",
     .desc = "file for the critical warp's priority over time (SM 0, first CTA; empty: none)"},
    {0},
};

#define CPL_LINES 1024u                   /* the line table's largest size: it holds at most 3/4 of it */
#define CPL_LINES_MAX (CPL_LINES / 4 * 3) /* critical lines tracked at once (L1D lines are far fewer) */
#define CPL_SERIES_MAX 200000u            /* samples the priority series keeps */

int cpl_init(Cpl *c, const WarpSchedEnv *env, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  char key[160];
  snprintf(key, sizeof key, "%s.critical", env->prefix);
  c->nslots = env->max_warps;
  c->max_ctas = env->max_ctas;
  c->sm = env->sm;
  c->mode =
      strcmp(cfg_str_in(env->cfg, env->prefix, "critical"), "sm_threshold") ? CPL_CTA_MAX : CPL_SM_THRESHOLD;
  c->period = (uint64_t)cfg_int_in(env->cfg, env->prefix, "sample_period");
  c->w = calloc(c->nslots ? c->nslots : 1, sizeof *c->w);
  c->tmp = calloc(c->nslots ? c->nslots : 1, sizeof *c->tmp);
  c->srt = calloc(c->nslots ? c->nslots : 1, sizeof *c->srt);
  c->words = c->nslots / 64 + 1;
  c->live = calloc(c->words, sizeof *c->live);
  c->members = calloc((size_t)c->words * (c->max_ctas ? c->max_ctas : 1), sizeof *c->members);
  c->cta_last = calloc(c->max_ctas ? c->max_ctas : 1, sizeof *c->cta_last);
  c->cta_last_exit = calloc(c->max_ctas ? c->max_ctas : 1, sizeof *c->cta_last_exit);
  c->cta_launch = calloc(c->max_ctas ? c->max_ctas : 1, sizeof *c->cta_launch);
  c->lines = calloc(CPL_LINES, sizeof *c->lines);
  c->lspare = calloc(CPL_LINES_MAX, sizeof *c->lspare);
  /* the table starts at twice the L1D's lines (it tracks lines of the L1D only) and doubles, up
   * to CPL_LINES, only if ever more are tracked: the untracked count is the same at any size */
  const uint64_t l1d_lines = (uint64_t)env->l1d.sets * env->l1d.ways;
  for (c->lsize0 = 16; c->lsize0 < CPL_LINES && c->lsize0 < 2 * l1d_lines;) c->lsize0 *= 2;
  if (!l1d_lines) c->lsize0 = CPL_LINES;
  c->lmask = c->lsize0 - 1;
  c->cv = calloc(c->nslots ? c->nslots : 1, sizeof *c->cv);
  c->cv_at = calloc(c->nslots ? c->nslots : 1, sizeof *c->cv_at);
  c->top = calloc(c->max_ctas ? c->max_ctas : 1, sizeof *c->top);
  c->thr = calloc(1, sizeof *c->thr);
  c->hmask = (uint32_t)cfg_int_in(env->cfg, env->prefix, "reuse_history");
  if (c->hmask & (c->hmask - 1)) {
    cpl_free(c);
    snprintf(key, sizeof key, "%s.reuse_history", env->prefix);
    return cfg_errorf(env->cfg, key, err, errlen, "must be 0 or a power of 2");
  }
  snprintf(key, sizeof key, "%s.reuse_history", env->prefix);
  if (policy_mem_check(env, key, (uint64_t)c->hmask * sizeof *c->hist, err, errlen)) {
    cpl_free(c);
    return -1;
  }
  c->hist = c->hmask ? calloc(c->hmask, sizeof *c->hist) : NULL;
  c->hmask -= c->hmask != 0;
  const char *path = cfg_str_in(env->cfg, env->prefix, "priority_file");
  if (!c->w || !c->tmp || !c->srt || !c->live || !c->members || !c->cta_last || !c->cta_last_exit ||
      !c->lines || !c->lspare || (c->hmask && !c->hist) || !c->cta_launch || !c->cv || !c->cv_at || !c->top ||
      !c->thr) {
    cpl_free(c);
    return cfg_errorf(env->cfg, key, err, errlen, "out of memory");
  }
  if (path[0] && env->sm == 0) {
    c->series_path = strdup(path);
    c->series_cap = CPL_SERIES_MAX;
    c->series_cycle = calloc(c->series_cap, sizeof *c->series_cycle);
    c->series_rank = calloc((size_t)c->series_cap * c->nslots, 1);
    if (!c->series_path || !c->series_cycle || !c->series_rank) {
      cpl_free(c);
      return cfg_errorf(env->cfg, key, err, errlen, "out of memory");
    }
    snprintf(key, sizeof key, "%s.priority_file", env->prefix);
    char msg[1400];
    c->gpu = env->gpu;
    if ((c->series_out = policy_out(env->gpu, key, path, msg, sizeof msg)) <
        0) { /* fail now, not after the run */
      cpl_free(c);
      return cfg_errorf(env->cfg, key, err, errlen, "%s", msg);
    }
  }
  for (uint32_t i = 0; i < c->max_ctas; i++) c->cta_last[i] = c->top[i] = UINT32_MAX;
  return 0;
}

void cpl_free(Cpl *c) {
  free(c->w);
  free(c->tmp);
  free(c->srt);
  free(c->live);
  free(c->members);
  free(c->cta_last);
  free(c->cta_last_exit);
  free(c->lines);
  free(c->lspare);
  free(c->cv);
  free(c->cv_at);
  free(c->top);
  free(c->thr);
  free(c->hist);
  free(c->cta_launch);
  free(c->series_path);
  free(c->series_cycle);
  free(c->series_rank);
  memset(c, 0, sizeof *c);
}

int64_t cpl_crit(const Cpl *c, uint32_t slot, uint64_t now) {
  if (slot >= c->nslots || !c->w[slot].valid) return 0;
  const CplWarp *w = &c->w[slot];
  int64_t elapsed = now > w->launch ? (int64_t)(now - w->launch) : 0;
  int64_t n = w->committed ? w->ninst * elapsed / (int64_t)w->committed : w->ninst;
  return n + (int64_t)w->nstall;
}

/* Warp `slot`'s nCrit changed (an issue, a launch, an exit): forget the values kept for it. */
static void crit_changed(Cpl *c, uint32_t slot) {
  c->cv_at[slot] = 0;
  c->thr->at = 0;
}

/* The unfinished warps (live) and each CTA slot's (members) gain or lose `slot`, whose valid and
 * cta_slot fields say which. */
static void members_set(Cpl *c, uint32_t slot, bool in) {
  const uint32_t wd = slot / 64, k = c->w[slot].cta_slot;
  const uint64_t bit = 1ull << (slot % 64);
  if (!(c->live[wd] & bit) == !in) return;
  c->live[wd] ^= bit;
  if (k < c->max_ctas)
    c->members[(size_t)k * c->words + wd] ^= bit;
  else
    c->stray += in ? 1 : (uint32_t)-1;
}

/* cta_max: the warp is critical unless another unfinished warp of its CTA has a larger nCrit (or
 * an equal one and a lower slot). The warp that last beat another (or was found critical) is
 * asked first: most warps are not critical, and one witness settles it. */
static bool cta_critical(const Cpl *c, uint32_t slot, uint32_t k, uint64_t now) {
  const int64_t my = cpl_crit_memo(c, slot, now);
  const uint64_t *m = &c->members[(size_t)k * c->words];
  const uint32_t h = c->top[k];
  if (h != slot && h < c->nslots && (m[h / 64] >> (h % 64) & 1)) {
    const int64_t o = cpl_crit_memo(c, h, now);
    if (o > my || (o == my && h < slot)) return false;
  }
  for (uint32_t wd = 0; wd < c->words; wd++)
    for (uint64_t b = m[wd]; b; b &= b - 1) {
      const uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(b);
      if (s == slot || s == h) continue;
      const int64_t o = cpl_crit_memo(c, s, now);
      if (o > my || (o == my && s < slot)) return c->top[k] = s, false;
    }
  c->top[k] = slot;
  return true;
}

bool cpl_is_critical(const Cpl *c, uint32_t slot, uint64_t now) {
  if (slot >= c->nslots || !c->w[slot].valid) return false;
  if (c->mode == CPL_CTA_MAX) {
    const uint32_t cs = c->w[slot].cta_slot;
    if (cs < c->max_ctas) return cta_critical(c, slot, cs, now);
    const int64_t my = cpl_crit_memo(c, slot, now);
    for (uint32_t s = 0; s < c->nslots; s++) {
      if (s == slot || !c->w[s].valid || c->w[s].cta_slot != cs) continue;
      int64_t o = cpl_crit_memo(c, s, now);
      if (o > my || (o == my && s < slot)) return false;
    }
    return true;
  }
  CplThreshold *t = c->thr; /* sm_threshold: the SM's nCrit range, kept for the cycle until a warp changes */
  if (t->at != now + 1) {
    t->lo = INT64_MAX, t->hi = INT64_MIN;
    for (uint32_t wd = 0; wd < c->words; wd++)
      for (uint64_t b = c->live[wd]; b; b &= b - 1) {
        const int64_t o = cpl_crit_memo(c, wd * 64 + (uint32_t)__builtin_ctzll(b), now);
        if (o < t->lo) t->lo = o;
        if (o > t->hi) t->hi = o;
      }
    t->at = now + 1;
  }
  const int64_t my = cpl_crit_memo(c, slot, now);
  return t->hi > t->lo && (my - t->lo) * 2 > t->hi - t->lo;
}

/* ---- the critical lines in the L1D (open addressing, backward-shift deletion) ---- */
static uint32_t line_hash(const Cpl *c, uint64_t a) {
  return (uint32_t)((a >> 7) * 0x9E3779B97F4A7C15ull >> 40) & c->lmask;
}

static CplLine *line_find(Cpl *c, uint64_t a) {
  for (uint32_t i = line_hash(c, a);; i = (i + 1) & c->lmask) {
    if (!c->lines[i].used) return NULL;
    if (c->lines[i].addr == a) return &c->lines[i];
  }
}

/* Doubles the table (up to CPL_LINES), rehashing its lines through lspare. */
static void line_grow(Cpl *c) {
  uint32_t n = 0;
  for (uint32_t i = 0; i <= c->lmask; i++)
    if (c->lines[i].used) c->lspare[n++] = c->lines[i];
  const uint32_t size = (c->lmask + 1) * 2;
  memset(c->lines, 0, size * sizeof *c->lines);
  c->lmask = size - 1;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = line_hash(c, c->lspare[k].addr);
    while (c->lines[i].used) i = (i + 1) & c->lmask;
    c->lines[i] = c->lspare[k];
  }
}

static void line_put(Cpl *c, uint64_t a) {
  CplLine *l = line_find(c, a);
  if (!l) {
    if (c->lcount >= CPL_LINES_MAX) {
      c->untracked++;
      return;
    }
    if ((c->lcount + 1) * 4 > (c->lmask + 1) * 3) line_grow(c); /* (only below CPL_LINES: see the cap) */
    uint32_t i = line_hash(c, a);
    while (c->lines[i].used) i = (i + 1) & c->lmask;
    l = &c->lines[i];
    l->used = 1;
    l->addr = a;
    c->lcount++;
  }
  l->reused = 0;
}

static void line_del(Cpl *c, CplLine *l) {
  uint32_t i = (uint32_t)(l - c->lines);
  c->lines[i].used = 0;
  c->lcount--;
  for (uint32_t j = (i + 1) & c->lmask; c->lines[j].used; j = (j + 1) & c->lmask) {
    uint32_t h = line_hash(c, c->lines[j].addr);
    /* move j back to the hole i when its home h is not in (i, j] (cyclically) */
    bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
    if (stays) continue;
    c->lines[i] = c->lines[j];
    c->lines[j].used = 0;
    i = j;
  }
}

/* ---- the priority series ---- */
static void series_write(Cpl *c, uint32_t slot) {
  FILE *f = policy_out_file(c->gpu, c->series_out); /* committed when the GPU closes after a whole run */
  if (!f) return;
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->series_n && slot < c->nslots; i++)
    n += c->series_rank[(size_t)i * c->nslots + slot] != 255;
  fprintf(f,
          "# CPL priority of the critical warp (the last to finish) of SM 0's first CTA, kernel launch %llu\n"
          "# rank by nCrit among its CTA's unfinished warps: 0 = lowest; %u samples\n# cycle rank warps\n",
          (unsigned long long)c->series_kernel, n);
  for (uint32_t i = 0; i < c->series_n && slot < c->nslots; i++) {
    const uint8_t *r = &c->series_rank[(size_t)i * c->nslots];
    if (r[slot] == 255) continue;
    uint32_t nw = 0;
    for (uint32_t s = 0; s < c->nslots; s++) nw += r[s] != 255;
    fprintf(f, "%llu %u %u\n", (unsigned long long)c->series_cycle[i], r[slot], nw);
  }
}

/* One accuracy sample: each unfinished warp is slow when at least half of
 * the other unfinished warps of its CTA have a lower nCrit. Each CTA's warps
 * (c->members) are sorted by nCrit: a warp's lower count is the place of the
 * first warp with its value. A warp whose CTA slot is out of range is
 * compared with the warps of that slot by a scan. */
static void cpl_sample(Cpl *c, uint64_t now) {
  bool rec = c->series_state == 1 && c->series_n < c->series_cap;
  uint8_t *row = rec ? &c->series_rank[(size_t)c->series_n * c->nslots] : NULL;
  if (row) memset(row, 255, c->nslots);
  int64_t *v = c->tmp;
  uint32_t *srt = c->srt;
  for (uint32_t k = 0; k < c->max_ctas; k++) {
    const uint64_t *m = &c->members[(size_t)k * c->words];
    uint32_t n = 0;
    for (uint32_t wd = 0; wd < c->words; wd++)
      for (uint64_t b = m[wd]; b; b &= b - 1) { /* insertion by nCrit, ascending */
        const uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(b);
        const int64_t x = cpl_crit_memo(c, s, now);
        uint32_t i = n++;
        for (; i > 0 && v[i - 1] > x; i--) v[i] = v[i - 1], srt[i] = srt[i - 1];
        v[i] = x, srt[i] = s;
      }
    for (uint32_t i = 0, lower = 0; i < n; i++) {
      if (i && v[i] != v[i - 1]) lower = i;
      CplWarp *w = &c->w[srt[i]];
      w->samples++;
      w->slow_samples += lower * 2 >= n - 1;
      if (row && k == c->series_cta) row[srt[i]] = (uint8_t)(lower < 254 ? lower : 254);
    }
  }
  for (uint32_t s = 0; c->stray && s < c->nslots; s++) { /* CTA slots out of range (none in a simulation) */
    const uint32_t k = c->w[s].cta_slot;
    if (!c->w[s].valid || k < c->max_ctas) continue;
    const int64_t my = cpl_crit_memo(c, s, now);
    uint32_t n = 0, lower = 0;
    for (uint32_t o = 0; o < c->nslots; o++) {
      if (!c->w[o].valid || c->w[o].cta_slot != k) continue;
      n++;
      lower += cpl_crit_memo(c, o, now) < my;
    }
    c->w[s].samples++;
    c->w[s].slow_samples += lower * 2 >= n - 1;
    if (row && k == c->series_cta) row[s] = (uint8_t)(lower < 254 ? lower : 254);
  }
  if (rec) c->series_cycle[c->series_n++] = now;
}

void cpl_tick(Cpl *c, uint64_t cycle) {
  if (cycle > c->now) c->now = cycle;
  if (cycle < c->next_sample) return;
  cpl_sample(c, cycle);
  c->next_sample = (cycle / c->period + 1) * c->period;
}

uint64_t cpl_next_tick(const Cpl *c, uint64_t now) { return c->next_sample > now ? c->next_sample : now + 1; }

void cpl_issue(Cpl *c, const WarpView *v, const SchedIssue *is) {
  if (v->slot >= c->nslots) return;
  CplWarp *w = &c->w[v->slot];
  if (is->cycle > c->now) c->now = is->cycle;
  if (!w->valid) return;
  crit_changed(c, v->slot);
  w->sched_wait = v->sched_wait;
  if (is->cycle > w->last_issue) w->nstall += is->cycle - w->last_issue - 1;
  w->last_issue = is->cycle;
  w->committed++;
  w->ninst -= 1;
  if (is->kind == WINST_BRANCH && is->taken && is->next_pc != SCHED_PC_EXIT) {
    if (is->next_pc <= is->pc)
      w->ninst += (int64_t)(is->pc - is->next_pc) + 1; /* back over a loop body */
    else
      w->ninst -= (int64_t)(is->next_pc - is->pc) - 1; /* forward: skipped */
  }
}

void cpl_annotate(Cpl *c, const WarpView *v, SchedMemAnnot *m) {
  if (cpl_is_critical(c, v->slot, c->now)) {
    m->hints |= MEM_HINT_CRITICAL;
    c->crit_requests++;
  }
}

/* At a CTA's exit, over its warps (the slots of its CTA slot launched since
 * the CTA, all exited): instruction-count disparity, every warp's scheduler wait. */
static void cta_exit_stats(Cpl *c, const SchedEvent *ev) {
  uint64_t most = 0, fewest = UINT64_MAX;
  uint32_t n = 0;
  for (uint32_t s = 0; s < c->nslots; s++) {
    const CplWarp *w = &c->w[s];
    if (w->cta_slot != ev->cta_slot || w->valid || !w->gen || w->launch < c->cta_launch[ev->cta_slot])
      continue;
    most = w->committed > most ? w->committed : most;
    fewest = w->committed < fewest ? w->committed : fewest;
    c->all_wait += w->sched_wait;
    c->all_time += w->exit_cycle - w->launch;
    n++;
  }
  if (!n || !most) return;
  const uint64_t d = (most - fewest) * 1000000u / most;
  c->insn_disp_sum_e6 += d;
  c->insn_disp_max_e6 = d > c->insn_disp_max_e6 ? d : c->insn_disp_max_e6;
  c->insn_ctas++;
}

/* A line request (not a bypass) of warp w: a re-reference when the same warp
 * (same launch of its slot) requested the line before in this kernel. */
static void reref_note(Cpl *c, const SchedEvent *ev, const CplWarp *w, bool crit) {
  const uint64_t seq = c->l1_seq++;
  uint64_t h = (ev->line_addr ^ ((uint64_t)ev->slot << 40)) * 0x9E3779B97F4A7C15ull;
  CplRef *r = &c->hist[(h >> 40) & c->hmask];
  if (r->line == ev->line_addr && r->slot == ev->slot && r->gen == w->gen && r->gen) {
    const bool miss = ev->kind == SCHED_EV_L1_MISS;
    c->reref++;
    c->reref_miss += miss;
    if (crit) {
      const uint64_t dist = seq - r->seq - 1; /* requests in between */
      int bin = 0;
      for (uint64_t lim = 16; bin < CPL_REUSE_BINS - 1 && dist >= lim; lim <<= 2) bin++;
      c->crit_reref++;
      c->crit_reref_miss += miss;
      c->reuse_hist[bin]++;
      c->reuse_miss_hist[bin] += miss;
    }
  }
  *r = (CplRef){.line = ev->line_addr, .seq = seq, .slot = ev->slot, .gen = w->gen};
}

void cpl_event(Cpl *c, const SchedEvent *ev) {
  if (ev->cycle > c->now) c->now = ev->cycle;
  CplWarp *w = ev->slot < c->nslots ? &c->w[ev->slot] : NULL;
  switch (ev->kind) {
  case SCHED_EV_WARP_LAUNCH: {
    if (!w) return;
    members_set(c, ev->slot, false); /* (a slot launched again without its exit) */
    const uint32_t gen = w->gen + 1;
    memset(w, 0, sizeof *w);
    w->gen = gen;
    w->valid = 1;
    w->launch = w->last_issue = ev->cycle;
    w->cta_slot = ev->cta_slot;
    crit_changed(c, ev->slot);
    members_set(c, ev->slot, true);
    return;
  }
  case SCHED_EV_WARP_EXIT:
    if (!w) return;
    w->valid = 0;
    crit_changed(c, ev->slot);
    members_set(c, ev->slot, false);
    w->exit_cycle = ev->cycle;
    if (ev->cta_slot < c->max_ctas && ev->cycle >= c->cta_last_exit[ev->cta_slot]) {
      c->cta_last[ev->cta_slot] = ev->slot;
      c->cta_last_exit[ev->cta_slot] = ev->cycle;
    }
    return;
  case SCHED_EV_CTA_LAUNCH:
    if (ev->cta_slot < c->max_ctas)
      c->cta_last[ev->cta_slot] = UINT32_MAX, c->cta_last_exit[ev->cta_slot] = 0,
      c->cta_launch[ev->cta_slot] = ev->cycle;
    if (c->series_path && c->series_state == 0) {
      c->series_state = 1;
      c->series_cta = ev->cta_slot;
      c->series_kernel = ev->kernel ? ev->kernel->launch_index : 0;
    }
    return;
  case SCHED_EV_CTA_EXIT: {
    if (ev->cta_slot >= c->max_ctas) return;
    uint32_t last = c->cta_last[ev->cta_slot];
    if (last < c->nslots) { /* the critical warp: the one that finished last (its slot is still untouched) */
      const CplWarp *lw = &c->w[last];
      c->acc_samples += lw->samples;
      c->acc_slow += lw->slow_samples;
      c->ctas_scored++;
      c->crit_wait += lw->sched_wait;
      c->crit_time += lw->exit_cycle - lw->launch;
      c->crit_stall += lw->nstall;
    }
    cta_exit_stats(c, ev);
    if (c->series_state == 1 && ev->cta_slot == c->series_cta) {
      series_write(c, last);
      c->series_state = 2;
    }
    c->cta_last[ev->cta_slot] = UINT32_MAX;
    return;
  }
  case SCHED_EV_L1_HIT:
  case SCHED_EV_L1_MISS:
  case SCHED_EV_L1_MERGE:
  case SCHED_EV_L1_BYPASS: {
    c->all_accesses++;
    bool crit = cpl_is_critical(c, ev->slot, ev->cycle);
    if (c->hist && ev->kind != SCHED_EV_L1_BYPASS && w) reref_note(c, ev, w, crit);
    c->crit_accesses += crit;
    if (ev->kind == SCHED_EV_L1_HIT) {
      c->crit_hits += crit;
      CplLine *l = line_find(c, ev->line_addr);
      if (l) l->reused = 1;
    } else if (ev->kind == SCHED_EV_L1_MISS && crit) {
      c->crit_fills++;
      line_put(c, ev->line_addr);
    } else if (ev->kind == SCHED_EV_L1_MISS) {
      CplLine *l = line_find(c, ev->line_addr); /* re-allocated by a non-critical warp: no longer tracked */
      if (l) line_del(c, l);
    }
    return;
  }
  case SCHED_EV_L1_EVICT: {
    CplLine *l = line_find(c, ev->line_addr);
    if (!l) return;
    c->crit_evicted++;
    c->crit_zero_reuse += !l->reused;
    line_del(c, l);
    return;
  }
  case SCHED_EV_KERNEL_BEGIN: /* the L1D starts empty: forget lines of the last kernel */
    memset(c->lines, 0, ((size_t)c->lmask + 1) * sizeof *c->lines);
    c->lmask = c->lsize0 - 1;
    c->lcount = 0;
    if (c->hist) memset(c->hist, 0, ((size_t)c->hmask + 1) * sizeof *c->hist);
    return;
  default:
    return;
  }
}

/* Fig. 3's statistics (reported when reuse_history is on). */
static void cpl_reuse_stats(const Cpl *c, PolicyStats *out) {
  policy_stat_u64(out, "crit_rerefs", "requests",
                  "L1D requests of a warp predicted critical to a line it requested before", c->crit_reref);
  policy_stat_ratio(out, "crit_reref_evicted",
                    "critical re-references that missed (the line was evicted in between)",
                    c->crit_reref_miss, c->crit_reref);
  policy_stat_ratio(out, "reref_evicted",
                    "re-references of every warp that missed (the line was evicted in between)",
                    c->reref_miss, c->reref);
  static const char *const bins[CPL_REUSE_BINS] = {"0_15",  "16_63",  "64_255",  "256_1k",
                                                   "1k_4k", "4k_16k", "16k_64k", "64k_up"};
  for (int b = 0; b < CPL_REUSE_BINS; b++) {
    char name[48];
    snprintf(name, sizeof name, "crit_reref_dist_%s", bins[b]);
    policy_stat_u64(out, name, "requests",
                    "critical re-references by reuse distance (SM L1D requests in between), all or evicted",
                    c->reuse_hist[b]);
    snprintf(name, sizeof name, "crit_reref_evicted_dist_%s", bins[b]);
    policy_stat_u64(out, name, "requests",
                    "critical re-references by reuse distance (SM L1D requests in between), all or evicted",
                    c->reuse_miss_hist[b]);
  }
}

void cpl_stats(const Cpl *c, PolicyStats *out) {
  policy_stat_ratio(out, "cpl_accuracy",
                    "samples in which the CTA's last-finishing warp ranked in the upper half by nCrit",
                    c->acc_slow, c->acc_samples);
  policy_stat_u64(out, "cpl_accuracy_samples", "samples",
                  "criticality samples taken (every observer.cpl.sample_period cycles)", c->acc_samples);
  policy_stat_u64(out, "cpl_ctas_scored", "ctas", "CTAs whose criticality prediction was scored",
                  c->ctas_scored);
  policy_stat_u64(out, "critical_mem_insts", "warp_insts", "memory instructions annotated critical",
                  c->crit_requests);
  policy_stat_ratio(out, "crit_l1d_hit_rate", "L1D hits of the requests of warps predicted critical",
                    c->crit_hits, c->crit_accesses);
  policy_stat_u64(out, "crit_l1d_accesses", "requests", "L1D requests of warps predicted critical",
                  c->crit_accesses);
  policy_stat_u64(out, "l1d_accesses", "requests", "L1D requests of every warp", c->all_accesses);
  policy_stat_u64(out, "crit_lines_filled", "lines", "L1D lines filled for a warp predicted critical",
                  c->crit_fills);
  policy_stat_u64(out, "crit_lines_evicted", "lines", "such lines evicted", c->crit_evicted);
  policy_stat_ratio(out, "crit_zero_reuse_fraction", "evicted critical lines never hit after their fill",
                    c->crit_zero_reuse, c->crit_evicted);
  policy_stat_u64(out, "crit_lines_untracked", "lines", "critical lines the tracking table could not hold",
                  c->untracked);
  /* Fig. 2b */
  policy_stat_ratio(out, "insn_disparity",
                    "per CTA, (most - fewest) / most warp instructions of its warps: mean over CTAs",
                    c->insn_disp_sum_e6, c->insn_ctas * 1000000u);
  policy_stat_f64(out, "insn_disparity_max", "fraction", "the largest per-CTA instruction disparity",
                  (double)c->insn_disp_max_e6 / 1e6, PSTAT_MAX);
  if (c->hist) cpl_reuse_stats(c, out); /* Fig. 3 */
  /* Fig. 4 */
  policy_stat_ratio(out, "crit_sched_wait",
                    "cycles CTAs' last warps were ready while their scheduler issued another, over their "
                    "time",
                    c->crit_wait, c->crit_time);
  policy_stat_ratio(out, "crit_sched_wait_of_stall",
                    "the same cycles over those warps' stall cycles (nStall)", c->crit_wait, c->crit_stall);
  policy_stat_ratio(out, "sched_wait",
                    "cycles every warp was ready while its scheduler issued another, over its time",
                    c->all_wait, c->all_time);
}

bool cpl_shares_state(const Cpl *c) { return c->series_path != NULL; }
