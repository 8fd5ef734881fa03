/* belady.c - OPT, LRU and FIFO replay of an L1D access stream (belady.h).
 * OPT needs each access's next use: one backward pass with a hash map from
 * line to the index of its next load. */
#include "analysis/belady.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define BEL_NEVER UINT64_MAX

const char *belady_policy_name(BeladyPolicy p) {
  static const char *const names[] = {"opt", "lru", "fifo"};
  return p < BELADY__COUNT ? names[p] : "?";
}

int belady_stream_push(BeladyStream *s, uint64_t line, BeladyKind kind) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 1024;
    uint64_t *l = realloc(s->line, cap * sizeof *l);
    if (!l) return -1;
    s->line = l;
    uint8_t *st = realloc(s->store, cap);
    if (!st) return -1;
    s->store = st;
    s->cap = cap;
  }
  s->line[s->n] = line;
  s->store[s->n] = (uint8_t)kind;
  s->n++;
  return 0;
}

/* ---- an open-addressing map line -> uint64 ---- */
typedef struct LineMap {
  uint64_t *key, *val;
  uint8_t *used;
  size_t mask;
} LineMap;

static int map_init(LineMap *m, size_t n) {
  size_t cap = 16;
  while (cap < 2 * n + 16) cap *= 2;
  m->key = malloc(cap * sizeof *m->key);
  m->val = malloc(cap * sizeof *m->val);
  m->used = calloc(cap, 1);
  m->mask = cap - 1;
  return m->key && m->val && m->used ? 0 : -1;
}
static void map_free(LineMap *m) {
  free(m->key);
  free(m->val);
  free(m->used);
}
static uint64_t *map_slot(LineMap *m, uint64_t key) {
  size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & m->mask;
  while (m->used[i] && m->key[i] != key) i = (i + 1) & m->mask;
  if (!m->used[i]) m->used[i] = 1, m->key[i] = key, m->val[i] = BEL_NEVER;
  return &m->val[i];
}

/* next[i]: the index of the next load of access i's line, BEL_NEVER if none
 * comes before a store to it (the store would invalidate it first). */
static uint64_t *next_uses(const BeladyStream *s) {
  uint64_t *next = malloc((s->n ? s->n : 1) * sizeof *next);
  LineMap m = {0};
  if (!next || map_init(&m, s->n)) {
    free(next);
    map_free(&m);
    return NULL;
  }
  for (size_t i = s->n; i-- > 0;) {
    if (s->store[i] == BELADY_FILL) {
      next[i] = BEL_NEVER;
      continue;
    }
    uint64_t *v = map_slot(&m, s->line[i]);
    if (s->store[i] == BELADY_STORE) {
      next[i] = BEL_NEVER;
      *v = BEL_NEVER;
      continue;
    }
    next[i] = *v;
    *v = i;
  }
  map_free(&m);
  return next;
}

int belady_replay(const BeladyStream *s, BeladyGeom g, BeladyPolicy p, BeladyResult *r) {
  memset(r, 0, sizeof *r);
  if (!g.sets || !g.assoc || !g.line_size || (g.line_size & (g.line_size - 1)) || p >= BELADY__COUNT)
    return -1;
  uint32_t shift = 0;
  while ((1u << shift) < g.line_size) shift++;
  const size_t nlines = (size_t)g.sets * g.assoc;
  uint64_t *tag = malloc(nlines * sizeof *tag),
           *key = malloc(nlines * sizeof *key);                  /* key: next use, last use or fill order */
  uint8_t *valid = calloc(nlines, 1), *resv = calloc(nlines, 1); /* resv: waiting for its fill */
  const bool fills = p != BELADY_OPT && s->fills > 0;
  uint64_t *next = p == BELADY_OPT ? next_uses(s) : NULL;
  if (!tag || !key || !valid || !resv || (p == BELADY_OPT && !next)) {
    free(tag), free(key), free(valid), free(resv), free(next);
    return -1;
  }
  for (size_t i = 0; i < s->n; i++) {
    const uint64_t line = s->line[i];
    const size_t set = (size_t)((line >> shift) % g.sets) * g.assoc;
    int way = -1;
    for (uint32_t w = 0; w < g.assoc; w++)
      if (valid[set + w] && tag[set + w] == line) {
        way = (int)w;
        break;
      }
    if (s->store[i] == BELADY_FILL) {
      if (way >= 0) resv[set + (size_t)way] = 0;
      continue;
    }
    if (s->store[i] == BELADY_STORE) { /* online, a store leaves a reserved line alone */
      if (way >= 0 && !(fills && resv[set + (size_t)way])) valid[set + (size_t)way] = 0, r->invalidations++;
      continue;
    }
    r->loads++;
    if (way >= 0) { /* a hit: OPT learns the next use, LRU the last (a merge's only with merge_touch);
                     * FIFO keeps its order */
      if (p == BELADY_OPT)
        key[set + (size_t)way] = next[i];
      else if (p == BELADY_LRU && (s->store[i] != BELADY_MERGE || g.merge_touch))
        key[set + (size_t)way] = i;
      continue;
    }
    r->misses++;
    uint32_t v = g.assoc;
    for (uint32_t w = 0; w < g.assoc && v == g.assoc; w++)
      if (!valid[set + w]) v = w; /* an invalid way first */
    if (v == g.assoc) {           /* OPT: furthest next use; LRU/FIFO: oldest unreserved (any if all are) */
      for (int pass = 0; pass < 2 && v == g.assoc; pass++)
        for (uint32_t w = 0; w < g.assoc; w++) {
          if (pass == 0 && fills && resv[set + w]) continue;
          const uint64_t a = key[set + w];
          if (v == g.assoc || (p == BELADY_OPT ? a > key[set + v] : a < key[set + v])) v = w;
        }
    }
    tag[set + v] = line;
    valid[set + v] = 1;
    resv[set + v] = fills;
    key[set + v] = p == BELADY_OPT ? next[i] : i;
  }
  free(tag), free(key), free(valid), free(resv), free(next);
  return 0;
}

/* ---- the trace ---- */
static BeladyStream *trace_sm(BeladyTrace *t, uint32_t sm) {
  if (sm >= t->nsm) {
    if (sm > 65535) return NULL;
    BeladyStream *n = realloc(t->sm, (size_t)(sm + 1) * sizeof *n);
    if (!n) return NULL;
    memset(n + t->nsm, 0, (size_t)(sm + 1 - t->nsm) * sizeof *n);
    t->sm = n;
    t->nsm = sm + 1;
  }
  return &t->sm[sm];
}

int belady_trace_read(FILE *f, BeladyTrace *t, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  char buf[512];
  unsigned long lineno = 0;
  while (fgets(buf, sizeof buf, f)) {
    lineno++;
    unsigned sm;
    unsigned long long a;
    if (buf[0] == '#') {
      if (sscanf(buf, "# insts %u %llu", &sm, &a) == 2) {
        BeladyStream *s = trace_sm(t, sm);
        if (!s) goto oom;
        s->insts += a;
      }
      continue;
    }
    unsigned long long cycle, line;
    unsigned warp, cta, pc;
    char o;
    if (sscanf(buf, "%llu %u %u %u %u %llx %c", &cycle, &sm, &warp, &cta, &pc, &line, &o) != 7 ||
        !strchr("HMGBSFA", o)) {
      snprintf(err, errlen,
               "line %lu: not an l1d-trace access (cycle sm warp cta pc line_addr H|M|G|B|S|A|F)", lineno);
      belady_trace_free(t);
      return -1;
    }
    BeladyStream *s = trace_sm(t, sm);
    if (!s) goto oom;
    switch (o) {
    case 'A': /* an atomic hit: a reference that promotes, as a load hit */
    case 'H':
      s->hits++;
      break;
    case 'M':
      s->misses++;
      break;
    case 'G':
      s->merges++;
      break;
    case 'B':
      s->bypasses++;
      continue; /* not an L1 access */
    case 'F':
      s->fills++;
      break;
    default:
      s->stores++;
      break;
    }
    if (belady_stream_push(s, line,
                           o == 'S'   ? BELADY_STORE
                           : o == 'G' ? BELADY_MERGE
                           : o == 'F' ? BELADY_FILL
                                      : BELADY_LOAD))
      goto oom;
  }
  if (ferror(f)) {
    snprintf(err, errlen, "read error");
    belady_trace_free(t);
    return -1;
  }
  return 0;
oom:
  snprintf(err, errlen, "line %lu: out of memory", lineno);
  belady_trace_free(t);
  return -1;
}

void belady_trace_free(BeladyTrace *t) {
  for (uint32_t i = 0; i < t->nsm; i++) {
    free(t->sm[i].line);
    free(t->sm[i].store);
  }
  free(t->sm);
  memset(t, 0, sizeof *t);
}
