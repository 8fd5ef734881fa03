/* vta.c - per-warp victim tag arrays (vta.h). The set of a tag is its 128-byte
 * line number modulo the sets, so consecutive lines fall in different sets. The feed
 * (vta_feed_event) is the one place the SM's events change the arrays. */
#include "policy/warp/vta.h"

#include <stdlib.h>

int vta_init(Vta *v, uint32_t nwarps, uint32_t entries, uint32_t ways) {
  *v = (Vta){0};
  if (!nwarps || !ways || !entries || entries % ways) return -1;
  v->nwarps = nwarps;
  v->ways = ways;
  v->sets = entries / ways;
  v->e = calloc((size_t)nwarps * entries, sizeof *v->e);
  v->next = calloc((size_t)nwarps * v->sets, sizeof *v->next);
  /* a set's hash counters: 2 per entry the set holds over the warps (so most counters of a tag no
   * array holds are 0; half the arrays' own memory), 64 to 4096 */
  uint32_t bits = 6;
  while (bits < 12 && (1ull << bits) < 2ull * nwarps * ways) bits++;
  v->hshift = 64 - bits;
  v->hashes = 1u << bits;
  v->cnt = calloc((size_t)v->sets * v->hashes, sizeof *v->cnt);
  if (!v->e || !v->next || !v->cnt) {
    vta_free(v);
    return -1;
  }
  return 0;
}

void vta_free(Vta *v) {
  free(v->e);
  free(v->next);
  free(v->cnt);
  *v = (Vta){0};
}

static inline uint32_t vta_set(const Vta *v, uint64_t tag) { return (uint32_t)((tag >> 7) % v->sets); }
/* The counter of the valid entries of `set` (over every warp) whose tag hashes as `tag`'s. */
static inline uint32_t *vta_cnt(const Vta *v, uint32_t set, uint64_t tag) {
  return &v->cnt[(size_t)set * v->hashes + ((tag >> 7) * 0x9E3779B97F4A7C15ull >> v->hshift)];
}
static inline VtaEntry *vta_row(const Vta *v, uint32_t warp, uint32_t set) {
  return v->e + ((size_t)warp * v->sets + set) * v->ways;
}

void vta_insert(Vta *v, uint32_t warp, uint64_t tag, int32_t interferer) {
  if (warp >= v->nwarps) return;
  uint32_t set = vta_set(v, tag);
  VtaEntry *row = vta_row(v, warp, set);
  for (uint32_t w = 0; w < v->ways; w++)
    if (row[w].valid && row[w].tag == tag) {
      row[w].interferer = interferer;
      return;
    }
  uint32_t *next = &v->next[(size_t)warp * v->sets + set];
  if (row[*next].valid) --*vta_cnt(v, set, row[*next].tag);
  ++*vta_cnt(v, set, tag);
  row[*next] = (VtaEntry){.tag = tag, .interferer = interferer, .valid = 1};
  *next = *next + 1 == v->ways ? 0 : *next + 1;
}

bool vta_probe(const Vta *v, uint32_t warp, uint64_t tag, int32_t *interferer) {
  if (warp >= v->nwarps) return false;
  const VtaEntry *row = vta_row(v, warp, vta_set(v, tag));
  for (uint32_t w = 0; w < v->ways; w++)
    if (row[w].valid && row[w].tag == tag) {
      if (interferer) *interferer = row[w].interferer;
      return true;
    }
  return false;
}

bool vta_remove(Vta *v, uint32_t warp, uint64_t tag) {
  if (warp >= v->nwarps) return false;
  VtaEntry *row = vta_row(v, warp, vta_set(v, tag));
  for (uint32_t w = 0; w < v->ways; w++)
    if (row[w].valid && row[w].tag == tag) {
      row[w].valid = 0;
      --*vta_cnt(v, vta_set(v, tag), tag);
      return true;
    }
  return false;
}

uint32_t vta_invalidate_all(Vta *v, uint64_t tag) {
  uint32_t n = 0, set = vta_set(v, tag), *cnt = vta_cnt(v, set, tag);
  for (uint32_t warp = 0; *cnt && warp < v->nwarps; warp++) { /* (no entry hashes as the tag: none) */
    VtaEntry *row = vta_row(v, warp, set);
    for (uint32_t w = 0; w < v->ways; w++)
      if (row[w].valid && row[w].tag == tag) row[w].valid = 0, n++, --*cnt;
  }
  return n;
}

void vta_clear_warp(Vta *v, uint32_t warp) {
  if (warp >= v->nwarps) return;
  VtaEntry *row = vta_row(v, warp, 0);
  for (uint32_t i = 0; i < v->sets * v->ways; i++)
    if (row[i].valid) row[i].valid = 0, --*vta_cnt(v, i / v->ways, row[i].tag);
  for (uint32_t s = 0; s < v->sets; s++) v->next[(size_t)warp * v->sets + s] = 0;
}

uint32_t vta_count(const Vta *v, uint32_t warp) {
  if (warp >= v->nwarps) return 0;
  const VtaEntry *row = vta_row(v, warp, 0);
  uint32_t n = 0;
  for (uint32_t i = 0; i < v->sets * v->ways; i++) n += row[i].valid != 0;
  return n;
}

VtaMissClass vta_classify(const Vta *v, uint32_t warp, uint64_t tag, int32_t *interferer) {
  int32_t who = -1;
  if (!vta_probe(v, warp, tag, &who)) return VTA_MISS_OTHER;
  if (interferer) *interferer = who;
  return who >= 0 && (uint32_t)who == warp ? VTA_MISS_INTRA : VTA_MISS_INTER;
}

uint32_t vta_forget_interferer(Vta *v, int32_t interferer) {
  uint32_t n = 0;
  const size_t all = (size_t)v->nwarps * v->sets * v->ways;
  for (size_t i = 0; i < all; i++)
    if (v->e[i].valid && v->e[i].interferer == interferer) v->e[i].interferer = -1, n++;
  return n;
}

/* ---- the feed ---- */

int vta_feed_init(VtaFeed *f, uint32_t nwarps, uint32_t entries, uint32_t ways, bool forget_interferers) {
  *f = (VtaFeed){.forget_interferers = forget_interferers};
  return vta_init(&f->vta, nwarps, entries, ways);
}

void vta_feed_free(VtaFeed *f) { vta_free(&f->vta); }

bool vta_feed_event(VtaFeed *f, const SchedEvent *ev, VtaMissClass *cls, int32_t *interferer) {
  Vta *v = &f->vta;
  const uint32_t w = ev->slot;
  if (ev->kind == SCHED_EV_STORE) {
    f->store_invalidations += vta_invalidate_all(v, ev->line_addr);
    return false;
  }
  if (w >= v->nwarps) return false;
  switch (ev->kind) {
  case SCHED_EV_WARP_LAUNCH:
    vta_clear_warp(v, w);
    if (f->forget_interferers) vta_forget_interferer(v, (int32_t)w);
    return false;
  case SCHED_EV_WARP_EXIT:
    vta_clear_warp(v, w);
    return false;
  case SCHED_EV_L1_EVICT:
    if (ev->fail == CACHE_EVICT_REPLACE) vta_insert(v, w, ev->line_addr, ev->other_slot), f->inserts++;
    return false;
  case SCHED_EV_L1_MISS: {
    int32_t who = -1;
    const VtaMissClass k = vta_classify(v, w, ev->line_addr, &who);
    f->probes++;
    f->found[k]++;
    if (cls) *cls = k;
    if (interferer) *interferer = who;
    return true;
  }
  default:
    return false;
  }
}
