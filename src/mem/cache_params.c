/* cache_params.c - what a cache is before and after it runs, without its internals: the
 * parameter table every cache instance registers, reading and checking it, the geometry rule
 * (cache_geom_make: the only place sets are computed), and the statistics' names, sums and
 * declarations (core/stats.h). Depends on mem/cache.h and core/ only: a cache's policy comes
 * resolved from the composition root, never looked up by name here. */
#include <stdio.h>
#include <string.h>

#include "mem/cache.h"

const CfgParam cache_params[] = {
    {.key = "size",
     .type = CFG_INT,
     .def = "16K",
     .min = 1,
     .max = INT32_MAX,
     .desc = "capacity in bytes (l2: total over all memory partitions)"},
    {.key = "line_size",
     .type = CFG_INT,
     .def = "128",
     .min = 4,
     .max = 65536,
     .desc = "line size in bytes (power of 2)"},
    {.key = "assoc", .type = CFG_INT, .def = "4", .min = 1, .max = 1024, .desc = "ways per set"},
    {.key = "mshr_entries",
     .type = CFG_INT,
     .def = "32",
     .min = 1,
     .max = 65535,
     .desc = "MSHR entries (lines with a miss in flight)"},
    {.key = "mshr_max_merge",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 65535,
     .desc = "requests one MSHR entry can hold (the first miss + merged ones)"},
    {.key = "miss_queue",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 65535,
     .desc = "miss queue entries toward the next level"},
    {.key = "latency",
     .type = CFG_INT,
     .def = "1",
     .min = 0,
     .max = 100000,
     .desc = "hit latency in core cycles (accepted at t, reply at t+latency)"},
    {.key = "ports", .type = CFG_INT, .def = "1", .min = 1, .max = 64, .desc = "accesses accepted per cycle"},
    {.key = "policy",
     .type = CFG_STRING,
     .def = "lru",
     .desc = "replacement/bypass policy (policy/registry.def)"},
    {.key = "write_policy",
     .type = CFG_ENUM,
     .def = "evict",
     .choices = "evict|back|local_back|back_fetch",
     .desc = "evict: no write-allocate, store hit invalidates; back: write-back, write-allocate; "
             "local_back: GPGPU-Sim's 'L', global stores evict, local store hits stay dirty (written back); "
             "back_fetch: GPGPU-Sim 3.x's 'B' + 'W', a store miss goes down and fetches its line"},
    {.key = "write_ack",
     .type = CFG_ENUM,
     .def = "here",
     .choices = "here|below",
     .desc = "the L2 (an L1's stores that go down are acked by the L2): where a store that goes down "
             "to DRAM (evict, back_fetch's miss or line on its way) is acknowledged: here = when the L2 "
             "takes it; below = when DRAM has written it, as GPGPU-Sim 3.2.2 (its DRAM returns every "
             "write but a write-back as the write's WRITE_ACK: 'W', data_cache::wr_miss_wa, and 'E')"},
    {.key = "set_index",
     .type = CFG_ENUM,
     .def = "linear",
     .choices = "linear|fermi",
     .desc = "set index: linear (GPGPU-Sim 3.x, the papers' runs) or fermi (the Fermi hash of later "
             "GPGPU-Sim: bits 7-11 XOR 13,14,15,17,19; 32 or 64 sets)"},
    {.key = "bypass_cg",
     .type = CFG_BOOL,
     .def = "true",
     .desc = "loads of class cg (.cg loads, atomics) go around this cache (L1) without a lookup"},
    {.key = "merge_touch",
     .type = CFG_BOOL,
     .def = "false",
     .desc = "a read merged into a line still on its way is a use of the line for replacement (the "
             "policy's hit hook: LRU restamps it), as GPGPU-Sim 3.2.2's tag_array::access on HIT_RESERVED; "
             "false: only the allocation and later hits are"},
    {0},
};

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

int cache_params_read(const Config *cfg, const char *prefix, CacheParams *p, char *err, size_t errlen) {
  char key[128];
  memset(p, 0, sizeof *p);
  p->name = prefix;
  p->level = 1;
  p->size = (uint32_t)cfg_int_in(cfg, prefix, "size");
  p->line_size = (uint32_t)cfg_int_in(cfg, prefix, "line_size");
  p->assoc = (uint32_t)cfg_int_in(cfg, prefix, "assoc");
  p->mshr_entries = (uint32_t)cfg_int_in(cfg, prefix, "mshr_entries");
  p->mshr_max_merge = (uint32_t)cfg_int_in(cfg, prefix, "mshr_max_merge");
  p->miss_queue = (uint32_t)cfg_int_in(cfg, prefix, "miss_queue");
  p->latency = (uint32_t)cfg_int_in(cfg, prefix, "latency");
  p->ports = (uint32_t)cfg_int_in(cfg, prefix, "ports");
  const char *wp = cfg_str_in(cfg, prefix, "write_policy");
  p->write_policy = !strcmp(wp, "back")         ? CACHE_WRITE_BACK
                    : !strcmp(wp, "local_back") ? CACHE_WRITE_LOCAL_BACK
                    : !strcmp(wp, "back_fetch") ? CACHE_WRITE_BACK_FETCH
                                                : CACHE_WRITE_EVICT;
  p->write_ack_below = !strcmp(cfg_str_in(cfg, prefix, "write_ack"), "below");
  p->set_index =
      !strcmp(cfg_str_in(cfg, prefix, "set_index"), "fermi") ? CACHE_INDEX_FERMI : CACHE_INDEX_LINEAR;
  p->bypass_cg = cfg_bool_in(cfg, prefix, "bypass_cg");
  p->merge_touch = cfg_bool_in(cfg, prefix, "merge_touch");
  p->index_parts = p->index_chunk_lines = 1;
  p->sm = -1, p->instance = 0, p->gpu = NULL; /* the memory system says whose it is */
  p->policy = NULL; /* resolved from <prefix>.policy by the composition root (src/sim/) */
  CacheGeom g;
  if (cache_geom_make(p->size, p->assoc, p->line_size, &g)) {
    snprintf(key, sizeof key, "%s.%s", prefix, is_pow2(p->line_size) ? "size" : "line_size");
    if (!is_pow2(p->line_size))
      return cfg_errorf(cfg, key, err, errlen, "%u is not a power of 2", p->line_size);
    return cfg_errorf(cfg, key, err, errlen, "%u bytes is not a whole number of sets of %u ways x %u B",
                      p->size, p->assoc, p->line_size);
  }
  if (p->write_policy == CACHE_WRITE_BACK_FETCH && p->miss_queue < 3) {
    snprintf(key, sizeof key, "%s.miss_queue", prefix);
    return cfg_errorf(cfg, key, err, errlen,
                      "%u entries: write_policy back_fetch needs 3 (a store, its line's read, a write-back)",
                      p->miss_queue);
  }
  const uint32_t sets = g.sets;
  snprintf(key, sizeof key, "%s.set_index", prefix);
  if (p->set_index == CACHE_INDEX_FERMI && sets != 32 && sets != 64)
    return cfg_errorf(cfg, key, err, errlen, "the fermi hash needs 32 or 64 sets (%u)", sets);
  return 0;
}

/* ---- geometry ---- */

int cache_geom_make(uint32_t size, uint32_t assoc, uint32_t line_size, CacheGeom *g) {
  if (!is_pow2(line_size) || !assoc || size % (line_size * assoc)) return -1;
  *g = (CacheGeom){.sets = size / (line_size * assoc), .ways = assoc, .line_size = line_size};
  return 0;
}

/* ---- statistics ---- */

const char *cache_fail_name(CacheFailReason r) {
  static const char *names[CACHE_FAIL__COUNT] = {"none",       "no_line", "no_mshr",    "merge_limit",
                                                 "miss_queue", "port",    "reply_queue"};
  return r < CACHE_FAIL__COUNT ? names[r] : "?";
}

const char *cache_outcome_name(CacheOutcome o) {
  static const char *names[] = {"hit", "miss", "merged", "bypassed", "resfail"};
  return o <= CACHE_RESFAIL ? names[o] : "?";
}

_Static_assert(sizeof(CacheStats) % sizeof(uint64_t) == 0, "CacheStats must hold only uint64_t counters");
void cache_stats_add(CacheStats *sum, const CacheStats *s) {
  const uint64_t *src = (const uint64_t *)s;
  uint64_t *dst = (uint64_t *)sum;
  for (size_t i = 0; i < sizeof *s / sizeof(uint64_t); i++) dst[i] += src[i];
}

/* The cache's statistics (stats.h), under whatever group the caller opened. */
void cache_stats_emit(const CacheStats *s, StatsOut *o) {
  STAT_U64(o, "accesses", "requests", STAT_SUM, STAT_NEUTRAL, "reads and writes accepted",
           s->reads + s->writes);
  STAT_U64(o, "reads", "requests", STAT_SUM, STAT_NEUTRAL, "reads accepted", s->reads);
  STAT_U64(o, "writes", "requests", STAT_SUM, STAT_NEUTRAL, "writes accepted", s->writes);
  STAT_U64(o, "hits", "requests", STAT_SUM, STAT_HIGHER, "read and write hits", s->read_hits + s->write_hits);
  STAT_U64(o, "read_hits", "requests", STAT_SUM, STAT_HIGHER, "reads that hit a valid line", s->read_hits);
  STAT_U64(o, "read_misses", "requests", STAT_SUM, STAT_LOWER,
           "reads that allocated a line (MSHR merges apart)", s->read_misses);
  STAT_U64(o, "read_merges", "requests", STAT_SUM, STAT_LOWER, "reads merged into a pending miss (MSHR hits)",
           s->read_merges);
  STAT_U64(o, "bypasses", "requests", STAT_SUM, STAT_NEUTRAL,
           "loads sent down without allocating (all causes)", s->bypasses);
  STAT_U64(o, "fail_bypasses", "requests", STAT_SUM, STAT_NEUTRAL,
           "bypasses decided after a reservation failure (access-level bypassing)", s->fail_bypasses);
  STAT_U64(o, "write_hits", "requests", STAT_SUM, STAT_NEUTRAL, "writes that found their line",
           s->write_hits);
  STAT_U64(o, "write_misses", "requests", STAT_SUM, STAT_NEUTRAL, "writes that did not", s->write_misses);
  stats_group(o, "resfail", 0, "reservation failures (retried accesses) by reason");
  for (int r = 1; r < CACHE_FAIL__COUNT; r++)
    STAT_U64(o, cache_fail_name((CacheFailReason)r), "accesses", STAT_SUM, STAT_LOWER,
             "accesses refused for want of this resource", s->resfail[r]);
  stats_end(o);
  STAT_U64(o, "evictions", "lines", STAT_SUM, STAT_NEUTRAL, "valid lines replaced", s->evictions);
  STAT_U64(o, "writebacks", "lines", STAT_SUM, STAT_NEUTRAL, "dirty lines written back", s->writebacks);
  STAT_U64(o, "invalidations", "lines", STAT_SUM, STAT_NEUTRAL, "lines invalidated by a write (write-evict)",
           s->invalidations);
  STAT_U64(o, "fills", "lines", STAT_SUM, STAT_NEUTRAL, "lines filled by a reply from below", s->fills);
}
