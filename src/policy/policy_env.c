/* policy_env.c - the per-GPU policy context (current kernel, named shared
 * blocks) and the policy statistics collector. See policy_env.h. */
#include "policy/policy_env.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/outfile.h"

/* ---- per-GPU context ---- */
typedef struct SharedBlock {
  char *name;
  size_t size;
  void (*fini)(void *);
  void *block;
} SharedBlock;

typedef struct PolicyOut {
  char *path, *key;
  OutFile of;
  bool opened, bad; /* bad: could not be opened */
} PolicyOut;

struct PolicyGpu {
  PolicyKernel kernel;
  bool failed;
  bool ran, launch_failed, closed;
  PolicyOut *outs;
  uint32_t nouts;
  char error[512];
  char kname[128];
  SharedBlock *blocks;
  uint32_t n, cap;
};

PolicyGpu *policy_gpu_create(void) { return calloc(1, sizeof(PolicyGpu)); }

int policy_gpu_close(PolicyGpu *g, char *err, size_t errlen) {
  if (!g || g->closed) return 0;
  bool failed_before = g->failed;
  for (uint32_t i = 0; i < g->n; i++)
    if (g->blocks[i].fini) g->blocks[i].fini(g->blocks[i].block), g->blocks[i].fini = NULL;
  g->closed = true;
  bool keep = g->ran && !g->launch_failed && !g->failed;
  int rc = 0;
  if (g->failed && !failed_before) { /* a fini hook could not write its output */
    if (!err)
      fprintf(stderr, "warpsim: %s\n", g->error);
    else
      snprintf(err, errlen, "%s", g->error);
    rc = -1;
  }
  for (uint32_t i = 0; i < g->nouts; i++) {
    PolicyOut *o = &g->outs[i];
    if (!o->opened) continue;
    char msg[PATH_MAX + 160];
    if (!keep)
      out_abort(&o->of);
    else if (out_commit(&o->of, msg, sizeof msg)) {
      if (!err)
        fprintf(stderr, "warpsim: %s\n", msg);
      else if (!rc)
        snprintf(err, errlen, "%s", msg);
      rc = -1;
    }
    o->opened = false;
  }
  return rc;
}

void policy_gpu_free(PolicyGpu *g) {
  if (!g) return;
  policy_gpu_close(g, NULL, 0);
  for (uint32_t i = 0; i < g->n; i++) {
    free(g->blocks[i].block);
    free(g->blocks[i].name);
  }
  for (uint32_t i = 0; i < g->nouts; i++) free(g->outs[i].path), free(g->outs[i].key);
  free(g->outs);
  free(g->blocks);
  free(g);
}

int policy_out(PolicyGpu *g, const char *key, const char *path, char *err, size_t errlen) {
  char msg[PATH_MAX + 128];
  if (!g) return snprintf(err, errlen, "%s: no GPU to write '%s' for", key, path), -1;
  for (uint32_t i = 0; i < g->nouts; i++) { /* the SMs' instances of one plugin share it; two keys may not */
    if (!strcmp(g->outs[i].key, key) && !strcmp(g->outs[i].path, path)) return (int)i;
    if (out_same(g->outs[i].path, path)) /* a regular file (a device such as /dev/null may be shared) */
      return snprintf(err, errlen, "'%s' is also %s's file (one would be lost)", path, g->outs[i].key), -1;
  }
  if (out_check(path, msg, sizeof msg)) return snprintf(err, errlen, "%s", msg), -1;
  PolicyOut *no = realloc(g->outs, (g->nouts + 1) * sizeof *no);
  if (!no) return snprintf(err, errlen, "%s: out of memory", key), -1;
  g->outs = no;
  PolicyOut *o = &g->outs[g->nouts];
  memset(o, 0, sizeof *o);
  if (!(o->path = strdup(path)) || !(o->key = strdup(key))) {
    free(o->path);
    return snprintf(err, errlen, "%s: out of memory", key), -1;
  }
  return (int)g->nouts++;
}

FILE *policy_out_file(PolicyGpu *g, int h) {
  if (!g || h < 0 || (uint32_t)h >= g->nouts || !g->ran || g->launch_failed || g->closed) return NULL;
  PolicyOut *o = &g->outs[h];
  if (o->opened) return o->of.f;
  if (o->bad) return NULL;
  char msg[PATH_MAX + 128];
  if (out_open(&o->of, o->path, msg, sizeof msg)) {
    o->bad = true;
    policy_gpu_fail(g, "%s", msg);
    return NULL;
  }
  o->opened = true;
  return o->of.f;
}

void policy_gpu_launch_failed(PolicyGpu *g) {
  if (g) g->launch_failed = true;
}

void policy_gpu_fail(PolicyGpu *g, const char *fmt, ...) {
  if (!g || g->failed) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->error, sizeof g->error, fmt, ap);
  va_end(ap);
  g->failed = true;
}

const char *policy_gpu_error(const PolicyGpu *g) { return g && g->failed ? g->error : NULL; }

const PolicyKernel *policy_gpu_kernel(const PolicyGpu *g) { return &g->kernel; }

void policy_gpu_set_kernel(PolicyGpu *g, const PolicyKernel *k) {
  if (!k) {
    uint32_t next = g->kernel.launch_index; /* kept: the next kernel's index follows on */
    memset(&g->kernel, 0, sizeof g->kernel);
    g->kernel.launch_index = next;
    return;
  }
  g->kernel = *k;
  g->ran = true;
  snprintf(g->kname, sizeof g->kname, "%s", k->name ? k->name : "");
  g->kernel.name = g->kname;
}

void *policy_shared(PolicyGpu *g, const char *name, size_t size, void (*fini)(void *block)) {
  if (!g || !name || !size) return NULL;
  for (uint32_t i = 0; i < g->n; i++)
    if (!strcmp(g->blocks[i].name, name)) return g->blocks[i].size == size ? g->blocks[i].block : NULL;
  if (g->n == g->cap) {
    uint32_t nc = g->cap ? 2 * g->cap : 8;
    SharedBlock *nb = realloc(g->blocks, nc * sizeof *nb);
    if (!nb) return NULL;
    g->blocks = nb;
    g->cap = nc;
  }
  SharedBlock *b = &g->blocks[g->n];
  b->name = strdup(name);
  b->block = calloc(1, size);
  if (!b->name || !b->block) {
    free(b->name);
    free(b->block);
    return NULL;
  }
  b->size = size;
  b->fini = fini;
  g->n++;
  return b->block;
}

/* ---- statistics ---- */
typedef struct PolicyStat {
  char name[64];
  PolicyStatAgg agg;
  bool is_int;
  double *v;               /* per instance (0 where an instance did not report it) */
  uint64_t *u;             /* per instance, for counts (exact beyond 2^53) */
  uint32_t cap;            /* entries in v and u */
  const char *unit, *desc; /* policy_stat_describe (string literals), or NULL */
  StatBetter better;
} PolicyStat;

struct PolicyStats {
  PolicyStat *st;
  uint32_t n, cap;
  uint32_t ninst; /* instances begun */
  bool oom;
};

PolicyStats *policy_stats_create(void) { return calloc(1, sizeof(PolicyStats)); }

void policy_stats_free(PolicyStats *s) {
  if (!s) return;
  for (uint32_t i = 0; i < s->n; i++) free(s->st[i].v), free(s->st[i].u);
  free(s->st);
  free(s);
}

void policy_stats_begin_instance(PolicyStats *s) { s->ninst++; }

/* The statistic `name`, created on first use, with room for the current instance. */
static PolicyStat *stat_slot(PolicyStats *s, const char *name, PolicyStatAgg agg, bool is_int) {
  if (!s->ninst) s->ninst = 1; /* a caller that never began an instance has one */
  PolicyStat *p = NULL;
  for (uint32_t i = 0; i < s->n && !p; i++)
    if (!strcmp(s->st[i].name, name)) p = &s->st[i];
  if (!p) {
    if (s->n == s->cap) {
      uint32_t nc = s->cap ? 2 * s->cap : 16;
      PolicyStat *ns = realloc(s->st, nc * sizeof *ns);
      if (!ns) return s->oom = true, NULL;
      s->st = ns;
      s->cap = nc;
    }
    p = &s->st[s->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->agg = agg;
    p->is_int = is_int;
  }
  if (p->cap < s->ninst) {
    uint32_t nc = s->ninst < 16 ? 16 : 2 * s->ninst;
    double *nv = realloc(p->v, nc * sizeof *nv);
    if (nv) p->v = nv;
    uint64_t *nu = nv ? realloc(p->u, nc * sizeof *nu) : NULL;
    if (nu) p->u = nu;
    if (!nv || !nu) return s->oom = true, NULL;
    for (uint32_t i = p->cap; i < nc; i++) p->v[i] = 0, p->u[i] = 0;
    p->cap = nc;
  }
  return p;
}

/* The unit and description of a statistic: the first instance's (policy_stat_describe may
 * replace them). */
static void stat_declare(PolicyStat *p, const char *unit, const char *desc) {
  if (!p->unit) p->unit = unit;
  if (!p->desc) p->desc = desc;
}

void policy_stat_u64(PolicyStats *s, const char *name, const char *unit, const char *desc, uint64_t v) {
  PolicyStat *p = stat_slot(s, name, PSTAT_SUM, true);
  if (p) p->u[s->ninst - 1] = v, p->v[s->ninst - 1] = (double)v, stat_declare(p, unit, desc);
}

void policy_stat_f64(PolicyStats *s, const char *name, const char *unit, const char *desc, double v,
                     PolicyStatAgg agg) {
  PolicyStat *p = stat_slot(s, name, agg, false);
  if (p) p->v[s->ninst - 1] = v, stat_declare(p, unit, desc);
}

void policy_stat_ratio(PolicyStats *s, const char *name, const char *desc, uint64_t num, uint64_t den) {
  PolicyStat *p = stat_slot(s, name, PSTAT_RATIO, false);
  if (p) p->v[s->ninst - 1] = (double)num, p->u[s->ninst - 1] = den, stat_declare(p, "fraction", desc);
}

void policy_stat_describe(PolicyStats *s, const char *name, const char *unit, StatBetter better,
                          const char *desc) {
  for (uint32_t i = 0; i < s->n; i++)
    if (!strcmp(s->st[i].name, name)) {
      s->st[i].unit = unit, s->st[i].desc = desc, s->st[i].better = better;
      return;
    }
}

uint32_t policy_stats_count(const PolicyStats *s) { return s->n; }
const char *policy_stats_name(const PolicyStats *s, uint32_t i) { return i < s->n ? s->st[i].name : NULL; }

static double stat_total(const PolicyStats *s, const PolicyStat *p, uint64_t *exact) {
  uint32_t n = s->ninst < p->cap ? s->ninst : p->cap;
  double t = 0;
  uint64_t u = 0;
  for (uint32_t i = 0; i < n; i++) {
    u += p->is_int ? p->u[i] : 0;
    if (p->agg == PSTAT_MAX)
      t = i == 0 || p->v[i] > t ? p->v[i] : t;
    else
      t += p->v[i];
  }
  if (p->agg == PSTAT_MEAN && s->ninst) t /= (double)s->ninst;
  if (p->agg == PSTAT_RATIO) {
    uint64_t den = 0;
    for (uint32_t i = 0; i < n; i++) den += p->u[i];
    t = den ? t / (double)den : 0;
  }
  if (exact) *exact = u;
  return t;
}

double policy_stats_total(const PolicyStats *s, const char *name, bool *found) {
  for (uint32_t i = 0; i < s->n; i++)
    if (!strcmp(s->st[i].name, name)) {
      if (found) *found = true;
      return stat_total(s, &s->st[i], NULL);
    }
  if (found) *found = false;
  return 0;
}

/* One value: a summed count exactly, anything else as a real (StatDecl's STAT_PREC_G). */
static void emit_value(StatsOut *o, const PolicyStat *p, const StatDecl *d, double v, uint64_t u) {
  if (p->is_int && p->agg == PSTAT_SUM)
    stats_u64(o, d, u);
  else
    stats_f64(o, d, v);
}

void policy_stats_emit(const PolicyStats *s, const char *policy, StatsOut *o) {
  STAT_STR(o, "policy", "the policy's name", policy ? policy : "");
  for (uint32_t i = 0; i < s->n; i++) {
    const PolicyStat *p = &s->st[i];
    const StatDecl d = {p->name,     p->unit ? p->unit : "",
                        p->agg,      p->better,
                        STAT_PREC_G, p->desc ? p->desc : "a policy's own statistic, over its instances"};
    uint64_t u;
    double t = stat_total(s, p, &u);
    emit_value(o, p, &d, t, u);
  }
  stats_group(o, "per_instance", STATS_DETAIL, "each statistic's value on each instance (SM, cache, slice)");
  for (uint32_t i = 0; i < s->n; i++) {
    const PolicyStat *p = &s->st[i];
    const StatDecl d = {p->name,     p->unit ? p->unit : "",
                        p->agg,      p->better,
                        STAT_PREC_G, p->desc ? p->desc : "the statistic on one instance"};
    stats_list(o, p->name, 0, NULL);
    for (uint32_t k = 0; k < s->ninst; k++) {
      if (k < p->cap && p->agg == PSTAT_RATIO)
        stats_f64(o, &d, p->u[k] ? p->v[k] / (double)p->u[k] : 0);
      else if (k < p->cap)
        emit_value(o, p, &d, p->v[k], p->u[k]);
      else
        stats_u64(o, &d, 0);
    }
    stats_end(o);
  }
  stats_end(o);
}
