/* timeline.c - the per-warp timeline recorder (timeline.h, doc/timeline.md): Chrome trace-event
 * JSON written as the run goes (one event per line, never buffered whole). Time is in cycles
 * (the format's microseconds: 1 us shown = 1 cycle). Size is bounded by the cycle window
 * (timeline.cycles), the SM filter (timeline.sms), interval merging (timeline.merge_cycles:
 * states shorter than that join their neighbours; feed()) and timeline.max_events.
 * Reads the SM (sm_int.h) and never changes it. */
#include "sm/timeline.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/bitmap.h"
#include "sm/sm_int.h"

const char *const tl_state_names[TL__COUNT] = {"none",    "issue",      "ready",   "throttled",
                                               "fetch",   "scoreboard", "memory",  "unit",
                                               "barrier", "drain",      "finished"};

const CfgParam timeline_cfg_params[] = {
    {.key = "file",
     .type = CFG_STRING,
     .def = "none",
     .desc = "write a per-warp timeline (Chrome trace-event JSON; .gz: gzip) to this file (none: off; "
             "--timeline)"},
    {.key = "cycles",
     .type = CFG_STRING,
     .def = "all",
     .desc = "timeline cycle window A:B (A: or :B open-ended; all: the whole run; --timeline-cycles)"},
    {.key = "sms",
     .type = CFG_STRING,
     .def = "all",
     .desc = "SMs the timeline records: all, or ids and ranges such as 0,3,5-7 (--timeline-sms)"},
    {.key = "merge_cycles",
     .type = CFG_INT,
     .def = "32",
     .min = 0,
     .max = 1000000000,
     .desc = "timeline: states shorter than this join their neighbours, up to 128x as long (0: every state "
             "change)"},
    {.key = "counter_window",
     .type = CFG_INT,
     .def = "1000",
     .min = 0,
     .max = 1000000000,
     .desc = "timeline: cycles per counter sample (IPC, L1D misses, MSHRs, warps, policy gauges; 0: no "
             "counters)"},
    {.key = "max_events",
     .type = CFG_INT,
     .def = "1100000",
     .min = 0,
     .max = INT64_MAX,
     .desc = "timeline: stop recording after this many events (0: no limit); 75 to 85 bytes each: 1100000 ~ "
             "90 MB"},
    {0}};

enum { TL_PID_GPU = 0, TL_TID_CTA = 100000, TL_NCOUNT = 6 };

struct Timeline {
  FILE *f;
  uint32_t nsm;
  uint64_t a, b; /* the window [a, b) */
  uint64_t *sms; /* bitmap of recorded SMs */
  uint32_t merge;
  uint64_t cwin; /* counter window (0: none) */
  uint64_t max_events, nev, dropped, full_at;
  uint64_t last_end; /* the last kernel's end: where the last counter windows stop */
  TlSm **rec;        /* per SM (NULL: not recorded) */
  bool full;
};

/* An interval being merged: its first state, span, issues and cycles per state. */
typedef struct TlPend {
  uint8_t state;
  uint64_t start, end, n;
  uint64_t dur[TL__COUNT];
} TlPend;
enum { TL_MERGE_SPAN = 128 };

struct TlSm {
  Timeline *t;
  Sm *sm;
  uint32_t pid, nw, nc;
  uint8_t *state; /* per slot: its state since since[s] (TL_NONE: no warp) */
  uint64_t *since;
  uint64_t *cnt;                                /* per slot: issues in its current issue state */
  uint64_t *issued_at, *listed_at, *refused_at; /* per slot: cycle + 1 of its last issue, listing, refusal */
  TlPend *pend;                                 /* per slot: the interval being merged, not yet written */
  uint64_t *fin_since; /* per slot: retired at (UINT64_MAX: no finished interval open) */
  uint32_t *fin_cta;   /* per slot: the CTA slot of its finished warp */
  uint64_t *arrived;   /* per slot: the cycle it last arrived at a barrier (a release's wait) */
  /* per CTA slot: when its finished warps' slots were taken by another CTA's warps while it was
   * resident; their finished intervals go on on the CTA's track until it exits */
  uint64_t *moved_since; /* [cta slot][nw] */
  uint32_t *nmoved;
  uint64_t *cta_start; /* per CTA slot */
  uint32_t *cta_id, *cta_warps;
  /* counter windows [wstart, wstart + cwin) */
  uint64_t wstart, issues, miss_base, mshr;
  double last[TL_NCOUNT];
  uint32_t nplug;
  double *glast; /* per plugin x POLICY_GAUGES_MAX: last gauge value written */
};

/* ---- options ---- */

static int parse_u64s(const char *s, const char **end, uint64_t *v) {
  if (*s < '0' || *s > '9') return -1;
  char *e;
  errno = 0;
  *v = strtoull(s, &e, 10);
  if (errno) return -1;
  *end = e;
  return 0;
}

/* "A:B", "A:", ":B" or "all" into [a, b). */
static int parse_window(const char *s, uint64_t *a, uint64_t *b) {
  *a = 0, *b = UINT64_MAX;
  if (!strcmp(s, "all")) return 0;
  const char *colon = strchr(s, ':'), *e;
  if (!colon) return -1;
  if (s != colon && (parse_u64s(s, &e, a) || e != colon)) return -1;
  if (colon[1] && (parse_u64s(colon + 1, &e, b) || *e)) return -1;
  return *b > *a ? 0 : -1;
}

/* "all" or "0,3,5-7" into the bitmap m (nsm bits); -1 on bad syntax, -2 on an id >= nsm. */
static int parse_sms(const char *s, uint32_t nsm, uint64_t *m) {
  if (!strcmp(s, "all")) {
    for (uint32_t i = 0; i < nsm; i++) bitmap_set(m, i);
    return 0;
  }
  if (!*s) return -1;
  while (*s) {
    uint64_t lo, hi;
    const char *e;
    if (parse_u64s(s, &e, &lo)) return -1;
    hi = lo;
    if (*e == '-' && (parse_u64s(e + 1, &e, &hi) || hi < lo)) return -1;
    if (*e && *e != ',') return -1;
    if (hi >= nsm) return -2;
    for (uint64_t i = lo; i <= hi; i++) bitmap_set(m, (uint32_t)i);
    s = *e ? e + 1 : e;
    if (*e && !*s) return -1;
  }
  return 0;
}

int tl_check_config(const Config *cfg, uint32_t nsm, char *err, size_t errlen) {
  uint64_t a, b;
  if (parse_window(cfg_str(cfg, "timeline.cycles"), &a, &b))
    return cfg_errorf(cfg, "timeline.cycles", err, errlen,
                      "bad cycle window '%s' (A:B with A < B, A:, :B or all)",
                      cfg_str(cfg, "timeline.cycles"));
  uint64_t *m = calloc(bitmap_words(nsm), sizeof(uint64_t));
  if (!m) return snprintf(err, errlen, "out of memory"), -1;
  int r = parse_sms(cfg_str(cfg, "timeline.sms"), nsm, m);
  free(m);
  if (r == -1)
    return cfg_errorf(cfg, "timeline.sms", err, errlen, "bad SM list '%s' (all, or ids and ranges: 0,3,5-7)",
                      cfg_str(cfg, "timeline.sms"));
  if (r == -2)
    return cfg_errorf(cfg, "timeline.sms", err, errlen, "SM list '%s' names an SM beyond the last (%u SMs)",
                      cfg_str(cfg, "timeline.sms"), nsm);
  return 0;
}

/* ---- writing ---- */

/* Counts one event against max_events; false once the limit is reached. */
static bool room(Timeline *t, uint64_t at) {
  if (t->max_events && t->nev >= t->max_events) {
    if (!t->full) t->full = true, t->full_at = at;
    t->dropped++;
    return false;
  }
  t->nev++;
  return true;
}

static bool in_window(const Timeline *t, uint64_t at) { return at >= t->a && at < t->b; }

static void meta(Timeline *t, const char *what, uint32_t pid, int64_t tid, const char *key, const char *sval,
                 int64_t ival) {
  fprintf(t->f, ",\n{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u", what, pid);
  if (tid >= 0) fprintf(t->f, ",\"tid\":%lld", (long long)tid);
  if (sval)
    fprintf(t->f, ",\"args\":{\"%s\":\"%s\"}}", key, sval);
  else
    fprintf(t->f, ",\"args\":{\"%s\":%lld}}", key, (long long)ival);
}

/* A complete ("X") event [a, b) clipped to the window; args: a JSON object's members or NULL. */
static void slice(Timeline *t, uint32_t pid, uint32_t tid, const char *name, uint64_t a, uint64_t b,
                  const char *args) {
  uint64_t lo = a > t->a ? a : t->a, hi = b < t->b ? b : t->b;
  if (a == b ? !in_window(t, a) : lo >= hi) return;
  if (a == b) hi = lo;
  if (!room(t, lo)) return;
  fprintf(t->f, ",\n{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"dur\":%llu,\"name\":\"%s\"", pid, tid,
          (unsigned long long)lo, (unsigned long long)(hi - lo), name);
  if (args) fprintf(t->f, ",\"args\":{%s}", args);
  fputs("}", t->f);
}

/* An instant ("i") event on a thread track. */
static void instant(Timeline *t, uint32_t pid, uint32_t tid, const char *name, uint64_t at,
                    const char *args) {
  if (!in_window(t, at) || !room(t, at)) return;
  fprintf(t->f, ",\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"name\":\"%s\"", pid, tid,
          (unsigned long long)at, name);
  if (args) fprintf(t->f, ",\"args\":{%s}", args);
  fputs("}", t->f);
}

/* A counter ("C") sample from `at` on. */
static void counter(Timeline *t, uint32_t pid, const char *name, const char *key, double v, uint64_t at) {
  if (!in_window(t, at) || !room(t, at)) return;
  fprintf(t->f, ",\n{\"ph\":\"C\",\"pid\":%u,\"ts\":%llu,\"name\":\"%s\",\"args\":{\"%s\":%.6g}}", pid,
          (unsigned long long)at, name, key, v);
}

Timeline *tl_create(const Config *cfg, FILE *out, uint32_t nsm, char *err, size_t errlen) {
  if (tl_check_config(cfg, nsm, err, errlen)) return NULL;
  Timeline *t = calloc(1, sizeof *t);
  if (!t || !(t->sms = calloc(bitmap_words(nsm), sizeof(uint64_t))) ||
      !(t->rec = calloc(nsm + 1, sizeof(TlSm *)))) {
    tl_free(t);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  t->f = out;
  t->nsm = nsm;
  parse_window(cfg_str(cfg, "timeline.cycles"), &t->a, &t->b);
  parse_sms(cfg_str(cfg, "timeline.sms"), nsm, t->sms);
  t->merge = (uint32_t)cfg_int(cfg, "timeline.merge_cycles");
  t->cwin = (uint64_t)cfg_int(cfg, "timeline.counter_window");
  t->max_events = (uint64_t)cfg_int(cfg, "timeline.max_events");
  fputs("{\"otherData\":{\"generator\":\"warpsim\",\"time_unit\":\"1 us = 1 cycle\"},\n"
        "\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"GPU\"}}",
        out);
  meta(t, "process_sort_index", TL_PID_GPU, -1, "sort_index", NULL, -1);
  meta(t, "thread_name", TL_PID_GPU, 0, "name", "kernels", 0);
  return t;
}

static void flush_sm(TlSm *r, uint64_t end, bool partial);
static void tl_sm_free(TlSm *r);

int tl_finish(Timeline *t) {
  for (uint32_t i = 0; i < t->nsm; i++)
    if (t->rec[i]) flush_sm(t->rec[i], t->last_end, true);
  if (t->full) {
    fprintf(t->f,
            ",\n{\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"ts\":%llu,\"name\":\"timeline truncated\","
            "\"args\":{\"max_events\":%llu,\"dropped\":%llu}}",
            (unsigned long long)t->full_at, (unsigned long long)t->max_events,
            (unsigned long long)t->dropped);
    fprintf(stderr,
            "warpsim: warning: timeline: stopped after %llu events (timeline.max_events) at cycle %llu, %llu "
            "left out; "
            "narrow it with --timeline-cycles / --timeline-sms or raise timeline.max_events\n",
            (unsigned long long)t->max_events, (unsigned long long)t->full_at,
            (unsigned long long)t->dropped);
  }
  fputs("\n]}\n", t->f);
  return fflush(t->f) || ferror(t->f) ? -1 : 0;
}

void tl_free(Timeline *t) {
  if (!t) return;
  for (uint32_t i = 0; t->rec && i < t->nsm; i++)
    if (t->rec[i]) t->rec[i]->sm->tl = NULL, tl_sm_free(t->rec[i]);
  free(t->sms);
  free(t->rec);
  free(t);
}

void tl_kernel(Timeline *t, const char *name, uint32_t index, uint64_t start, uint64_t end, uint64_t ctas,
               uint64_t warp_insts) {
  char args[160];
  snprintf(args, sizeof args, "\"launch\":%u,\"ctas\":%llu,\"warp_insts\":%llu", index,
           (unsigned long long)ctas, (unsigned long long)warp_insts);
  slice(t, TL_PID_GPU, 0, name, start, end, args);
  if (end > t->last_end) t->last_end = end;
}

/* ---- per SM ---- */

int tl_attach(Timeline *t, Sm *sm) {
  if (!bitmap_test(t->sms, sm->id)) return 0;
  TlSm *r = calloc(1, sizeof *r);
  if (!r) return -1;
  r->t = t, r->sm = sm, r->pid = sm->id + 1, r->nw = sm->max_warps, r->nc = sm->max_ctas,
  r->nplug = sm->nplug;
  size_t n = r->nw + 1, c = r->nc + 1;
  r->state = calloc(n, 1);
  r->since = calloc(n, sizeof(uint64_t));
  r->cnt = calloc(n, sizeof(uint64_t));
  r->issued_at = calloc(n, sizeof(uint64_t));
  r->listed_at = calloc(n, sizeof(uint64_t));
  r->refused_at = calloc(n, sizeof(uint64_t));
  r->pend = calloc(n, sizeof(TlPend));
  r->fin_since = malloc(n * sizeof(uint64_t));
  r->fin_cta = calloc(n, sizeof(uint32_t));
  r->arrived = calloc(n, sizeof(uint64_t));
  r->cta_start = calloc(c, sizeof(uint64_t));
  r->cta_id = calloc(c, sizeof(uint32_t));
  r->cta_warps = calloc(c, sizeof(uint32_t));
  r->glast = malloc(sizeof(double) * (r->nplug + 1) * POLICY_GAUGES_MAX);
  r->moved_since = malloc(c * n * sizeof(uint64_t));
  r->nmoved = calloc(c, sizeof(uint32_t));
  if (!r->moved_since || !r->nmoved || !r->state || !r->since || !r->cnt || !r->issued_at || !r->listed_at ||
      !r->refused_at || !r->pend || !r->fin_since || !r->fin_cta || !r->cta_start || !r->cta_id ||
      !r->cta_warps || !r->glast || !r->arrived) {
    tl_sm_free(r);
    return -1;
  }
  for (size_t i = 0; i < n; i++) r->fin_since[i] = UINT64_MAX;
  for (int i = 0; i < TL_NCOUNT; i++) r->last[i] = NAN;
  for (size_t i = 0; i < (r->nplug + 1) * POLICY_GAUGES_MAX; i++) r->glast[i] = NAN;
  t->rec[sm->id] = r;
  sm->tl = r;
  char name[32];
  snprintf(name, sizeof name, "SM %u", sm->id);
  meta(t, "process_name", r->pid, -1, "name", name, 0);
  meta(t, "process_sort_index", r->pid, -1, "sort_index", NULL, r->pid);
  for (uint32_t cs = 0; cs < r->nc; cs++) {
    snprintf(name, sizeof name, "CTA slot %u", cs);
    meta(t, "thread_name", r->pid, TL_TID_CTA + cs, "name", name, 0);
    meta(t, "thread_sort_index", r->pid, TL_TID_CTA + cs, "sort_index", NULL, cs);
  }
  for (uint32_t s = 0; s < r->nw; s++) {
    snprintf(name, sizeof name, "warp slot %u", s);
    meta(t, "thread_name", r->pid, s, "name", name, 0);
    meta(t, "thread_sort_index", r->pid, s, "sort_index", NULL, 1000 + s);
  }
  return 0;
}

static void tl_sm_free(TlSm *r) {
  if (!r) return;
  free(r->state), free(r->since), free(r->cnt), free(r->issued_at), free(r->listed_at), free(r->refused_at);
  free(r->pend), free(r->fin_since), free(r->fin_cta), free(r->cta_start), free(r->cta_id),
      free(r->cta_warps);
  free(r->glast), free(r->arrived);
  free(r->moved_since), free(r->nmoved);
  free(r);
}

/* Writes slot s's pending interval, named after the state it spent the most cycles in (the first
 * such; a zero-length one by its own state), with the instructions it issued (args.n). */
static void emit_pending(TlSm *r, uint32_t s) {
  TlPend *p = &r->pend[s];
  if (p->state == TL_NONE) return;
  uint8_t name = p->state;
  for (int k = 1; k < TL__COUNT; k++)
    if (p->dur[k] > p->dur[name]) name = (uint8_t)k;
  char args[48];
  if (p->n) snprintf(args, sizeof args, "\"n\":%llu", (unsigned long long)p->n);
  slice(r->t, r->pid, s, tl_state_names[name], p->start, p->end, p->n ? args : NULL);
  p->state = TL_NONE;
}

/* Interval merging: an interval [a, b) in state st (n issues) ends. Without merging (M =
 * timeline.merge_cycles = 0) each is written as it is. With M, an interval shorter than M joins
 * the one before it, and one before it shorter than M joins it, while the joined interval
 * spans at most TL_MERGE_SPAN x M cycles; barrier waits never join (they are the barrier
 * statistics, exactly). The instructions issued stay counted (args.n). */
static void feed(TlSm *r, uint32_t s, uint8_t st, uint64_t a, uint64_t b, uint64_t n) {
  TlPend *p = &r->pend[s];
  const uint64_t m = r->t->merge, len = b - a;
  if (p->state != TL_NONE) {
    const uint64_t plen = p->end - p->start;
    const bool joinable = m && st != TL_BARRIER && p->state != TL_BARRIER && plen + len <= TL_MERGE_SPAN * m;
    if ((st == p->state && (!m || st == TL_BARRIER)) ||
        (joinable && (len < m || plen < m || st == p->state))) {
      p->end = b, p->n += n, p->dur[st] += len;
      return;
    }
    emit_pending(r, s);
  }
  memset(p, 0, sizeof *p);
  p->state = st, p->start = a, p->end = b, p->n = n, p->dur[st] = len;
}

/* Slot s's state changes to st at `now`. */
static void set_state(TlSm *r, uint32_t s, uint8_t st, uint64_t now) {
  uint8_t old = r->state[s];
  if (old == st) return;
  if (old != TL_NONE && (now > r->since[s] || (old == TL_ISSUE && r->cnt[s])))
    feed(r, s, old, r->since[s], now, old == TL_ISSUE ? r->cnt[s] : 0);
  if (old == TL_ISSUE) r->cnt[s] = 0;
  r->state[s] = st;
  r->since[s] = now;
}

static void close_finished(TlSm *r, uint32_t s, uint64_t now) {
  if (r->fin_since[s] == UINT64_MAX) return;
  if (now > r->fin_since[s]) slice(r->t, r->pid, s, tl_state_names[TL_FINISHED], r->fin_since[s], now, NULL);
  r->fin_since[s] = UINT64_MAX;
}

/* ---- counter windows ---- */

static void count(TlSm *r, int i, const char *name, const char *key, double v, uint64_t at) {
  if (r->last[i] == v || !in_window(r->t, at))
    return; /* a counter holds its value: only changes are written */
  r->last[i] = v;
  counter(r->t, r->pid, name, key, v, at);
}

/* Writes the window [wstart, end) (end <= the window's end: the run's last, partial one). */
static void window(TlSm *r, uint64_t end) {
  Sm *sm = r->sm;
  const uint64_t at = r->wstart, len = end - r->wstart;
  const uint64_t misses = cache_stats(sm->l1d)->read_misses;
  uint32_t live = 0, throttled = 0;
  for (uint32_t s = 0; s < r->nw; s++) {
    live += r->state[s] != TL_NONE;
    throttled += r->state[s] == TL_THROTTLED;
  }
  count(r, 0, "IPC", "warp_insts_per_cycle", len ? (double)r->issues / (double)len : 0.0, at);
  count(r, 1, "L1D misses", "misses", (double)(misses - r->miss_base), at);
  count(r, 2, "MSHRs in use", "mshrs", (double)r->mshr, at);
  count(r, 3, "warps allowed", "warps", (double)(live - throttled), at);
  count(r, 4, "warps throttled", "warps", (double)throttled, at);
  r->issues = 0;
  r->miss_base = misses;
  for (uint32_t i = 0; i < r->nplug; i++) {
    const SmPlugin *pl = &sm->plug[i];
    if (!pl->h.gauges) continue;
    PolicyGauges g = {0};
    pl->h.gauges(pl->st, end, &g);
    for (uint32_t k = 0; k < g.n; k++) {
      double *last = &r->glast[i * POLICY_GAUGES_MAX + k];
      if (*last == g.value[k] || !in_window(r->t, at)) continue;
      *last = g.value[k];
      char name[96];
      snprintf(name, sizeof name, "%s: %s", pl->h.name, g.name[k]);
      counter(r->t, r->pid, name, "value", g.value[k], at);
    }
  }
}

/* Writes every window that ends at or before `now` (partial: also the one `now` ends early). */
static void flush_sm(TlSm *r, uint64_t now, bool partial) {
  const uint64_t w = r->t->cwin;
  if (!w) return;
  if (r->wstart + w <= now) {
    window(r, r->wstart + w);
    r->wstart += w;
    if (r->wstart + w <= now) { /* idle windows: nothing issued, nothing missed (only changes are written) */
      window(r, r->wstart + w);
      r->wstart += (now - r->wstart) / w * w;
    }
  }
  if (partial && now > r->wstart) window(r, now), r->wstart = now;
}

void tl_cycle_begin(Sm *sm, uint64_t now) {
  TlSm *r = sm->tl;
  if (r->t->cwin && now >= r->wstart + r->t->cwin) flush_sm(r, now, false);
}

void tl_cycle_end(Sm *sm, uint64_t now) { sm->tl->mshr = cache_mshr_used(sm->l1d); }

/* ---- SM events ---- */

void tl_cta_launch(Sm *sm, uint32_t cs, uint64_t now) {
  TlSm *r = sm->tl;
  const SmCta *c = &sm->ctas[cs];
  r->cta_start[cs] = now;
  r->cta_id[cs] = c->cta->linear_id;
  r->cta_warps[cs] = c->warps;
  for (uint32_t s = 0; s < r->nw; s++) {
    if (!sm->warps[s].pw || sm->warps[s].cta_slot != cs || r->state[s] != TL_NONE) continue;
    if (r->fin_since[s] != UINT64_MAX) { /* the slot's last warp belongs to a CTA still resident: */
      uint32_t oc = r->fin_cta[s];       /* its exit wait goes on, on that CTA's track */
      if (oc < r->nc && r->nmoved[oc] <= r->nw)
        r->moved_since[(size_t)oc * (r->nw + 1) + r->nmoved[oc]++] = now;
      close_finished(r, s, now);
    }
    char args[64];
    snprintf(args, sizeof args, "\"cta\":%u,\"warp\":%u", sm->views[s].cta_id, sm->views[s].warp_in_cta);
    instant(r->t, r->pid, s, "warp launch", now, args);
    set_state(r, s, TL_FETCH, now);
  }
}

void tl_warp_exit(Sm *sm, uint32_t s, uint64_t now) {
  TlSm *r = sm->tl;
  if (r->issued_at[s] == now + 1 &&
      r->state[s] != TL_ISSUE) { /* its last issue retired it: no interval left */
    set_state(r, s, TL_NONE, now);
    feed(r, s, TL_ISSUE, now, now, r->cnt[s]);
  } else {
    set_state(r, s, TL_NONE, now);
  }
  r->cnt[s] = 0;
  emit_pending(r, s);
  char args[48];
  snprintf(args, sizeof args, "\"insts\":%llu", (unsigned long long)sm->views[s].insts);
  instant(r->t, r->pid, s, "warp exit", now, args);
  r->fin_since[s] = now;
  r->fin_cta[s] = sm->warps[s].cta_slot;
}

void tl_cta_exit(Sm *sm, uint32_t cs, uint64_t now) {
  TlSm *r = sm->tl;
  for (uint32_t s = 0; s < r->nw; s++)
    if (r->fin_since[s] != UINT64_MAX && r->fin_cta[s] == cs) close_finished(r, s, now);
  for (uint32_t k = 0; k < r->nmoved[cs]; k++) { /* nested in the CTA's slice: they end with it */
    uint64_t a = r->moved_since[(size_t)cs * (r->nw + 1) + k];
    if (now > a)
      slice(r->t, r->pid, TL_TID_CTA + cs, tl_state_names[TL_FINISHED], a, now, "\"slot\":\"taken\"");
  }
  r->nmoved[cs] = 0;
  char name[32], args[48];
  snprintf(name, sizeof name, "CTA %u", r->cta_id[cs]);
  snprintf(args, sizeof args, "\"warps\":%u", r->cta_warps[cs]);
  slice(r->t, r->pid, TL_TID_CTA + cs, name, r->cta_start[cs], now, args);
}

void tl_issue(Sm *sm, uint32_t s, uint64_t now) {
  TlSm *r = sm->tl;
  r->issued_at[s] = now + 1;
  r->cnt[s]++;
  r->issues++;
}

void tl_listed(Sm *sm, const uint32_t *slots, uint32_t n, uint64_t now) {
  TlSm *r = sm->tl;
  for (uint32_t i = 0; i < n; i++)
    if (slots[i] < r->nw) r->listed_at[slots[i]] = now + 1;
}

void tl_refused(Sm *sm, uint32_t s, uint64_t now) { sm->tl->refused_at[s] = now + 1; }

/* What warp s does from `now` on, from the scan's verdicts. */
static uint8_t warp_state(const Sm *sm, const TlSm *r, uint32_t s, const uint64_t *ready, uint64_t now) {
  if (r->issued_at[s] == now + 1) return TL_ISSUE;
  if (bitmap_test(ready, s)) { /* ready, did not issue */
    if (r->refused_at[s] == now + 1) return TL_THROTTLED;
    return sm->lists_all || r->listed_at[s] == now + 1 ? TL_READY : TL_THROTTLED;
  }
  switch ((WarpWait)sm->views[s].wait) {
  case WARP_WAIT_EMPTY:
    return TL_FETCH;
  case WARP_WAIT_SCOREBOARD:
    return sm->warps[s].pending_loads + sm->warps[s].queued_loads ? TL_MEMORY : TL_SCOREBOARD;
  case WARP_WAIT_BARRIER:
    return TL_BARRIER;
  case WARP_WAIT_UNIT:
    return TL_UNIT;
  case WARP_WAIT_DRAIN:
    return TL_DRAIN;
  default:
    return TL_READY; /* ready, lost its unit to another scheduler (warp_ready said so) */
  }
}

void tl_scan(Sm *sm, const uint64_t *ready, uint64_t now) {
  TlSm *r = sm->tl;
  for (uint32_t wd = 0; wd < sm->bm_words; wd++)
    for (uint64_t b = sm->live_bm[wd]; b; b &= b - 1) {
      uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(b);
      set_state(r, s, warp_state(sm, r, s, ready, now), now);
    }
}

void tl_barrier_arrive(Sm *sm, uint32_t s, uint64_t now) {
  sm->tl->arrived[s] = now;
  char args[32];
  snprintf(args, sizeof args, "\"pc\":%u", sm->views[s].pc);
  instant(sm->tl->t, sm->tl->pid, s, "barrier arrive", now, args);
}

void tl_barrier_release(Sm *sm, uint32_t cs, const uint64_t *freed, uint64_t now) {
  uint64_t warps = 0, wait = 0;
  for (uint32_t wd = 0; wd < sm->bm_words; wd++)
    for (uint64_t b = freed[wd]; b; b &= b - 1, warps++)
      wait += now - sm->tl->arrived[wd * 64 + __builtin_ctzll(b)];
  char args[80];
  snprintf(args, sizeof args, "\"warps\":%llu,\"wait_cycles\":%llu", (unsigned long long)warps,
           (unsigned long long)wait);
  instant(sm->tl->t, sm->tl->pid, TL_TID_CTA + cs, "barrier release", now, args);
}

void tl_kernel_end(Sm *sm, uint64_t end) {
  TlSm *r = sm->tl;
  flush_sm(r, end, false);
  for (uint32_t s = 0; s < r->nw; s++) { /* a kernel stopped early leaves warps and CTAs behind */
    set_state(r, s, TL_NONE, end);
    r->cnt[s] = 0;
    emit_pending(r, s);
    close_finished(r, s, end);
  }
  for (uint32_t cs = 0; cs < r->nc; cs++)
    if (sm->ctas[cs].cta) tl_cta_exit(sm, cs, end);
}
