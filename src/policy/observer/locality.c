/* locality.c - the L1D locality split (locality.h) from the L1 events: the observer keeps two
 * tables keyed by line address, the lines the L1D holds (from their L1_MISS to their L1_EVICT:
 * the warp that allocated each, until that warp exits, and the lanes of that warp that touched
 * it since) and the lines replacements took out (with the warp that had allocated each, until a
 * miss brings the line back). Neither table sees the cache's ways: the events are all it reads.
 * A store's line under write-allocate (l1d.write_policy back or back_fetch: its STORE event does
 * not say whether a line was allocated) is not tracked. */
#include "policy/observer/locality.h"

#include <stdlib.h>
#include <string.h>

#include "policy/cache_policy.h"

#define LOC_NO_LINE UINT64_MAX /* no line address is all ones: an empty entry */

typedef struct LocEntry {
  uint64_t line;
  int32_t warp;   /* the warp slot that allocated the line, -1 none (it exited) */
  uint32_t lanes; /* resident lines: that warp's lanes that touched it since */
  uint32_t first; /* resident lines: the lanes of the request that allocated it */
} LocEntry;

/* observer.locality.thread_split: which same-warp hits are inter-thread (locality.h) */
typedef enum LocSplit {
  LOC_SPLIT_ANY,   /* a request none of whose lanes touched the line since its warp allocated it */
  LOC_SPLIT_ALL,   /* a request with a lane that had not touched it */
  LOC_SPLIT_LANE,  /* each lane of a hit, one thread access each: the lanes that had not touched it */
  LOC_SPLIT_FIRST, /* as any, against the allocating request's lanes alone (the data's first reference) */
} LocSplit;

/* Open addressing, linear probing, backward-shift deletion; grows at half full. */
typedef struct LocMap {
  LocEntry *e;
  size_t mask, count;
} LocMap;

typedef struct Locality {
  LocMap lines; /* the lines the L1D holds (valid or reserved) */
  LocMap lost;  /* the lines replacements took out */
  uint32_t line_shift;
  LocSplit split;
  LocalityCounts n;
} Locality;

const CfgParam locality_params[] = {
    {.key = "thread_split",
     .type = CFG_ENUM,
     .def = "any",
     .choices = "any|all|lane|first",
     .desc = "which same-warp L1D read hits count as inter-thread: any (a request none of whose lanes had "
             "touched the line since its warp allocated it), all (a request with a lane that had not), "
             "lane (counted per lane, thread accesses instead of requests: each lane that had not), first "
             "(as any, against the lanes of the allocating request alone)"},
    {0},
};

static size_t loc_slot(const LocMap *m, uint32_t shift, uint64_t line) {
  return (size_t)(((line >> shift) * 0x9E3779B97F4A7C15ull) >> 20) & m->mask;
}

static LocEntry *loc_find(const LocMap *m, uint32_t shift, uint64_t line) {
  if (!m->e) return NULL;
  for (size_t i = loc_slot(m, shift, line);; i = (i + 1) & m->mask) {
    if (m->e[i].line == line) return &m->e[i];
    if (m->e[i].line == LOC_NO_LINE) return NULL;
  }
}

static LocEntry *loc_put(LocMap *m, uint32_t shift, uint64_t line);

/* Makes the table hold cap entries (a power of two); false on no memory (nothing changed). */
static bool loc_resize(LocMap *m, uint32_t shift, size_t cap) {
  LocMap o = *m;
  LocEntry *n = malloc(cap * sizeof *n);
  if (!n) return false;
  for (size_t i = 0; i < cap; i++) n[i].line = LOC_NO_LINE;
  *m = (LocMap){n, cap - 1, 0};
  for (size_t i = 0; o.e && i <= o.mask; i++)
    if (o.e[i].line != LOC_NO_LINE) *loc_put(m, shift, o.e[i].line) = o.e[i];
  free(o.e);
  return true;
}

/* The entry of `line`, made (line set, the rest to fill in) if absent; NULL on no memory. */
static LocEntry *loc_put(LocMap *m, uint32_t shift, uint64_t line) {
  if ((!m->e || 2 * (m->count + 1) > m->mask + 1) && !loc_resize(m, shift, m->e ? 2 * (m->mask + 1) : 1024))
    return NULL;
  size_t i = loc_slot(m, shift, line);
  while (m->e[i].line != LOC_NO_LINE && m->e[i].line != line) i = (i + 1) & m->mask;
  if (m->e[i].line == LOC_NO_LINE) m->count++, m->e[i] = (LocEntry){.line = line, .warp = -1};
  return &m->e[i];
}

/* Removes entry e of m: every later entry whose probe passes it moves back into the gap. */
static void loc_del(LocMap *m, uint32_t shift, LocEntry *e) {
  size_t i = (size_t)(e - m->e);
  for (size_t j = i;;) {
    j = (j + 1) & m->mask;
    if (m->e[j].line == LOC_NO_LINE) break;
    size_t h = loc_slot(m, shift, m->e[j].line);
    if (((j - h) & m->mask) >= ((j - i) & m->mask)) m->e[i] = m->e[j], i = j;
  }
  m->e[i].line = LOC_NO_LINE;
  m->count--;
}

static void locality_free(void *state) {
  Locality *l = state;
  if (!l) return;
  free(l->lines.e);
  free(l->lost.e);
  free(l);
}

static int locality_init(void **state, const WarpSchedEnv *env, char *err, size_t errlen) {
  Locality *l = calloc(1, sizeof *l);
  if (!l) return snprintf(err, errlen, "out of memory"), -1;
  while (env->l1d.line_size >> (l->line_shift + 1)) l->line_shift++;
  const char *split = env->cfg ? cfg_str(env->cfg, "observer.locality.thread_split") : "any";
  l->split = !strcmp(split, "all")     ? LOC_SPLIT_ALL
             : !strcmp(split, "lane")  ? LOC_SPLIT_LANE
             : !strcmp(split, "first") ? LOC_SPLIT_FIRST
                                       : LOC_SPLIT_ANY;
  /* the L1D holds at most sets * ways lines: at half full the table never grows */
  size_t cap = 1024;
  while (cap < 2 * (size_t)env->l1d.sets * env->l1d.ways) cap *= 2;
  if (!loc_resize(&l->lines, l->line_shift, cap)) {
    locality_free(l);
    return snprintf(err, errlen, "out of memory"), -1;
  }
  *state = l;
  return 0;
}

/* A read hit (a load's or an atomic's) on ev's line: split by thread when its warp allocated it. */
static void locality_hit(Locality *l, const SchedEvent *ev) {
  LocEntry *e = loc_find(&l->lines, l->line_shift, ev->line_addr);
  if (!e || e->warp != (int32_t)ev->slot) return;
  switch (l->split) {
  case LOC_SPLIT_ANY:
  case LOC_SPLIT_FIRST: {
    const bool own = ((l->split == LOC_SPLIT_ANY ? e->lanes : e->first) & ev->lanes) != 0;
    l->n.hits_same_thread += own;
    l->n.hits_other_thread += !own;
    break;
  }
  case LOC_SPLIT_ALL:
    l->n.hits_same_thread += (ev->lanes & ~e->lanes) == 0;
    l->n.hits_other_thread += (ev->lanes & ~e->lanes) != 0;
    break;
  case LOC_SPLIT_LANE:
    l->n.hits_same_thread += (uint64_t)__builtin_popcount(ev->lanes & e->lanes);
    l->n.hits_other_thread += (uint64_t)__builtin_popcount(ev->lanes & ~e->lanes);
    break;
  }
  e->lanes |= ev->lanes;
}

/* A load's (or an atomic's) miss reserved ev's line for its warp: a line a replacement took is
 * back. */
static void locality_miss(Locality *l, const SchedEvent *ev) {
  LocEntry *e = loc_find(&l->lost, l->line_shift, ev->line_addr);
  if (e) {
    const bool same = e->warp == (int32_t)ev->slot;
    l->n.misses_evicted_same_warp += same;
    l->n.misses_evicted_other_warp += !same;
    loc_del(&l->lost, l->line_shift, e);
  }
  if ((e = loc_put(&l->lines, l->line_shift, ev->line_addr)))
    e->warp = (int32_t)ev->slot, e->lanes = e->first = ev->lanes;
}

/* An accepted store: it adds its lanes to a line its warp allocated, and one that found its line
 * on the way (a miss that reserves nothing) leaves the line its own lanes, as the allocating
 * request does. */
static void locality_store(Locality *l, const SchedEvent *ev) {
  LocEntry *e = loc_find(&l->lines, l->line_shift, ev->line_addr);
  if (!e || ev->outcome == SCHED_EV_L1_BYPASS) return;
  if (ev->outcome == SCHED_EV_L1_MISS)
    e->lanes = e->first = ev->lanes;
  else if (e->warp == (int32_t)ev->slot)
    e->lanes |= ev->lanes;
}

static void locality_event(void *state, const SchedEvent *ev) {
  Locality *l = state;
  LocEntry *e;
  switch (ev->kind) {
  case SCHED_EV_L1_HIT:
  case SCHED_EV_L1_ATOMIC_HIT:
    locality_hit(l, ev);
    break;
  case SCHED_EV_L1_MISS:
    locality_miss(l, ev);
    break;
  case SCHED_EV_L1_ATOMIC: /* as a load with this outcome */
    if (ev->outcome == SCHED_EV_L1_MISS) locality_miss(l, ev);
    if (ev->outcome != SCHED_EV_L1_MERGE) break;
    /* fall through */
  case SCHED_EV_L1_MERGE:
    e = loc_find(&l->lines, l->line_shift, ev->line_addr);
    if (e && e->warp == (int32_t)ev->slot) e->lanes |= ev->lanes;
    break;
  case SCHED_EV_STORE:
    locality_store(l, ev);
    break;
  case SCHED_EV_L1_EVICT: /* slot: the warp that allocated the line, UINT32_MAX when it exited */
    if ((e = loc_find(&l->lines, l->line_shift, ev->line_addr))) loc_del(&l->lines, l->line_shift, e);
    if (ev->fail == CACHE_EVICT_REPLACE && (e = loc_put(&l->lost, l->line_shift, ev->line_addr)))
      e->warp = ev->slot == UINT32_MAX ? -1 : (int32_t)ev->slot;
    break;
  case SCHED_EV_WARP_EXIT: /* its lines have no allocating warp now: a later warp in the slot is another */
    for (size_t i = 0; i <= l->lines.mask; i++)
      if (l->lines.e[i].line != LOC_NO_LINE && l->lines.e[i].warp == (int32_t)ev->slot)
        l->lines.e[i].warp = -1;
    break;
  default:
    break;
  }
}

void locality_counts_add(LocalityCounts *sum, const void *state) {
  const Locality *l = state;
  sum->misses_evicted_same_warp += l->n.misses_evicted_same_warp;
  sum->misses_evicted_other_warp += l->n.misses_evicted_other_warp;
  sum->hits_same_thread += l->n.hits_same_thread;
  sum->hits_other_thread += l->n.hits_other_thread;
}

const SmObserver observer_locality = {.name = "locality",
                                      .params = locality_params,
                                      .init = locality_init,
                                      .free = locality_free,
                                      .on_event = locality_event};
