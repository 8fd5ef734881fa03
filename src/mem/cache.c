/* cache.c - the generic cache mechanism: tag lookup, line reservation,
 * MSHR merging, miss queue, reply queues, write-evict and write-back.
 * Every replacement/insertion/promotion/bypass decision is a CachePolicy hook;
 * nothing here may test a policy's name (its parameters, geometry rule and statistics'
 * declarations are in cache_params.c). Depends on policy/cache_policy.h and core/ only.
 */
#include "mem/cache.h"

#include <stdlib.h>
#include <string.h>

#include "core/fastdiv.h"
#include "mem/mem_assert.h"
#include "mem/reqq.h"
#include "policy/cache_policy.h"

/* 32 bytes, aligned: an entry never straddles two host cache lines. */
typedef struct MshrEntry {
  _Alignas(32) uint64_t line_addr;
  uint32_t set, way;
  uint16_t count;    /* merged requests, including the first */
  uint8_t has_write; /* a store merged: the fill leaves the line MODIFIED */
} MshrEntry;

/* No line address is all ones: the tag of an invalid way. */
#define CACHE_NO_TAG UINT64_MAX

/* Field order follows use: what an access, a fill and a reply pop read comes
 * first, in as few host cache lines as possible (the struct is 64-byte
 * aligned); creation-time and reporting-only fields come last. */
struct Cache {
  CacheParams p;
  uint32_t sets;
  uint32_t line_shift; /* log2(line_size) */
  uint64_t set_mask;   /* sets - 1 when sets is a power of 2, else 0 */
  uint64_t off_mask;   /* line_size - 1: the bits a line address has clear */
  uint64_t port_cycle;
  uint32_t port_used;
  uint32_t mshr_nfree;
  /* The last tag lookup, valid until a tag changes (cache_invalidate,
   * cache_install): a requester often predicts a retry's failure and then
   * retries, or retries the same line again. Not observable state. */
  uint64_t memo_line; /* CACHE_NO_TAG: none */
  uint32_t memo_set;
  int memo_way;
  /* The policy has neither should_bypass nor bypass_on_fail: a load miss that
   * finds no free MSHR fails without consulting it (cache_access_admitted). */
  bool miss_hookless;
  bool evict_hook; /* pol.on_evict or an evict listener: cache_evict_notify for every eviction */
  uint64_t *tags;  /* sets * assoc: line_addr of a valid/reserved/modified way, CACHE_NO_TAG if invalid:
                    * lookups scan one host cache line per set instead of the line records */
  uint8_t *wstate; /* sets * assoc: a copy of each line's state, read on the access path so that a
                    * lookup touches no line record (kept equal to lines[].state) */
  uint16_t *nresv; /* sets: how many ways of each set are RESERVED (in wstate) */
  ReqQueue hit_q;  /* hits (and L2 write acks), ready at accept + latency: monotonic */
  ReqQueue fill_q; /* fills, bypass replies, store acks, ready at arrival: monotonic */
  ReqQueue miss_q; /* toward the next level */
  CachePolicy pol; /* a copy of the policy's hooks: a hook test is one load */
  void *pstate;
  CacheLine *lines;                       /* sets * assoc */
  MshrEntry *mshr;                        /* mshr_entries */
  MemRequest *merged;                     /* mshr_entries * mshr_max_merge */
  uint16_t *mshr_free;                    /* stack of free entry indices */
  uint64_t *miss_notify, miss_notify_bit; /* set when the miss queue gets a request */
  /* Bumped by the changes the next level makes: fills (MSHRs, lines, replies)
   * and miss-queue pops (space in the miss queue). */
  uint64_t fill_version, pop_version;
  CacheEvictListener evict_fn;
  void *evict_ctx;
  CacheFillListener fill_fn;
  void *fill_ctx;
  _Alignas(64) CacheStats st;             /* its first host line holds the counters of loads */
  FastDiv div_chunk, div_parts, div_sets; /* index_chunk_lines, index_parts, sets */
  char name[32];
  char pprefix[96];
};

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

/* ---- creation ---- */

CacheGeom cache_geom(const Cache *c) {
  return (CacheGeom){.sets = c->sets, .ways = c->p.assoc, .line_size = c->p.line_size};
}

Cache *cache_create(const CacheParams *p, const Config *cfg, char *err, size_t errlen) {
  CacheGeom g = {0};
  if (!p->policy || cache_geom_make(p->size, p->assoc, p->line_size, &g) || !p->mshr_entries ||
      p->mshr_entries > 65535 || !p->mshr_max_merge || !p->miss_queue || !p->ports || !p->index_parts ||
      !p->index_chunk_lines || (p->level != 1 && p->level != 2) ||
      (p->set_index == CACHE_INDEX_FERMI && (p->index_parts != 1 || (g.sets != 32 && g.sets != 64)))) {
    snprintf(err, errlen, "%s: invalid cache geometry", p->name ? p->name : "cache");
    return NULL;
  }
  Cache *c = aligned_alloc(64, (sizeof(Cache) + 63) / 64 * 64);
  if (!c) return snprintf(err, errlen, "out of memory"), NULL;
  memset(c, 0, sizeof *c);
  c->p = *p;
  snprintf(c->name, sizeof c->name, "%s", p->name ? p->name : "cache");
  c->p.name = c->name;
  c->sets = g.sets;
  while ((1u << c->line_shift) < p->line_size) c->line_shift++;
  c->set_mask = is_pow2(c->sets) && c->sets > 1 ? c->sets - 1 : 0;
  c->off_mask = p->line_size - 1;
  c->div_chunk = fastdiv_make(p->index_chunk_lines);
  c->div_parts = fastdiv_make(p->index_parts);
  c->div_sets = fastdiv_make(c->sets);
  c->lines = calloc((size_t)c->sets * p->assoc, sizeof *c->lines);
  c->tags = malloc((size_t)c->sets * p->assoc * sizeof *c->tags);
  c->wstate = calloc((size_t)c->sets * p->assoc, 1); /* CACHE_LINE_INVALID == 0, as calloc'd lines */
  c->nresv = calloc(c->sets, sizeof *c->nresv);
  for (size_t i = 0; c->tags && i < (size_t)c->sets * p->assoc; i++) c->tags[i] = CACHE_NO_TAG;
  c->memo_line = CACHE_NO_TAG;
  c->mshr = aligned_alloc(64, ((size_t)p->mshr_entries * sizeof *c->mshr + 63) / 64 * 64);
  c->merged = calloc((size_t)p->mshr_entries * p->mshr_max_merge, sizeof *c->merged);
  c->mshr_free = calloc(p->mshr_entries, sizeof *c->mshr_free);
  int bad = !c->lines || !c->tags || !c->wstate || !c->nresv || !c->mshr || !c->merged || !c->mshr_free;
  bad |= reqq_init(&c->miss_q, p->miss_queue);
  bad |= reqq_init(&c->hit_q, (p->latency + 2) * p->ports); /* one cycle of slack for the consumer */
  bad |= reqq_init(&c->fill_q, p->mshr_entries * p->mshr_max_merge + p->miss_queue);
  if (bad) {
    cache_free(c);
    return snprintf(err, errlen, "out of memory"), NULL;
  }
  memset(c->mshr, 0, (size_t)p->mshr_entries * sizeof *c->mshr);
  for (uint32_t i = 0; i < p->mshr_entries; i++) c->mshr_free[i] = (uint16_t)(p->mshr_entries - 1 - i);
  c->mshr_nfree = p->mshr_entries;
  c->port_cycle = UINT64_MAX;
  c->pol = *p->policy;
  c->miss_hookless = !c->pol.should_bypass && !c->pol.bypass_on_fail;
  c->evict_hook = c->pol.on_evict != NULL;
  snprintf(c->pprefix, sizeof c->pprefix, "%s.%s", c->name, c->pol.name);
  if (c->pol.init) {
    CachePolicyEnv env = {.prefix = c->pprefix,
                          .cache = c->name,
                          .sets = c->sets,
                          .ways = p->assoc,
                          .line_size = p->line_size,
                          .cfg = cfg,
                          .sm = p->sm,
                          .instance = p->instance,
                          .gpu = p->gpu,
                          .kernel = p->gpu ? policy_gpu_kernel(p->gpu) : NULL};
    if (c->pol.init(&c->pstate, &env, err, errlen)) {
      c->pol.free = NULL; /* nothing to free */
      cache_free(c);
      return NULL;
    }
  }
  return c;
}

void cache_free(Cache *c) {
  if (!c) return;
  if (c->pol.free) c->pol.free(c->pstate);
  free(c->lines);
  free(c->tags);
  free(c->wstate);
  free(c->nresv);
  free(c->mshr);
  free(c->merged);
  free(c->mshr_free);
  reqq_free(&c->miss_q);
  reqq_free(&c->hit_q);
  reqq_free(&c->fill_q);
  free(c);
}

/* ---- lookup ---- */

/* On the access path: shifts and masks where the geometry allows (line size
 * always, sets when a power of 2), divisions only for interleaved slices. */
static inline uint32_t cache_set_index(const Cache *c, uint64_t line_addr) {
  uint64_t line = line_addr >> c->line_shift;
  if (c->p.set_index == CACHE_INDEX_FERMI) { /* 32 or 64 sets, one slice (cache_create checks) */
    uint32_t upper =
        (uint32_t)((line_addr & 0xE000) >> 13 | (line_addr & 0x20000) >> 14 | (line_addr & 0x80000) >> 15);
    uint32_t set = ((uint32_t)line & 0x1F) ^ upper;
    return c->sets == 64 ? set | (uint32_t)((line_addr & 0x1000) >> 7) : set;
  }
  if (c->p.index_parts > 1) {
    uint64_t chunk = fastdiv_div(&c->div_chunk, line);
    line =
        fastdiv_div(&c->div_parts, chunk) * c->p.index_chunk_lines + (line - chunk * c->p.index_chunk_lines);
  }
  return c->set_mask ? (uint32_t)(line & c->set_mask) : (uint32_t)fastdiv_mod(&c->div_sets, line);
}
uint32_t cache_set_of(const Cache *c, uint64_t line_addr) { return cache_set_index(c, line_addr); }

static CacheLine *cache_set_ptr(const Cache *c, uint32_t set) { return &c->lines[(size_t)set * c->p.assoc]; }
static uint8_t *cache_set_states(const Cache *c, uint32_t set) {
  return &c->wstate[(size_t)set * c->p.assoc];
}
/* Every state change goes through here: the line record and its copy in wstate. */
static void cache_set_state(Cache *c, uint32_t set, uint32_t way, uint8_t st) {
  cache_set_ptr(c, set)[way].state = st;
  c->wstate[(size_t)set * c->p.assoc + way] = st;
}
const CacheLine *cache_set_lines(const Cache *c, uint32_t set) { return cache_set_ptr(c, set); }

void cache_forget_warp(Cache *c, int32_t sm, int32_t warp) {
  CacheLine *l = c->lines;
  for (size_t i = 0, n = (size_t)c->sets * c->p.assoc; i < n; i++)
    if (l[i].alloc_warp == warp && l[i].alloc_sm == sm) l[i].alloc_warp = -1;
}

/* Four ways a step (the usual associativities are multiples of 4). Which way
 * holds a line is data, so a branch per way mispredicts often: a step
 * compares its four ways into a bit mask and branches once (on the host, 3-4%
 * less time on kmeans for 1.6% more instructions). */
static inline int cache_find(const Cache *c, uint32_t set, uint64_t line_addr) {
  const size_t ways = c->p.assoc;
  const uint64_t *t = &c->tags[set * ways];
  size_t w = 0; /* a 64-bit index: t[w + k] is one addressing mode */
  for (; w + 4 <= ways; w += 4) {
    const uint32_t m = (uint32_t)(t[w] == line_addr) | (uint32_t)(t[w + 1] == line_addr) << 1 |
                       (uint32_t)(t[w + 2] == line_addr) << 2 | (uint32_t)(t[w + 3] == line_addr) << 3;
    if (m) return (int)w + __builtin_ctz(m);
  }
  for (; w < ways; w++)
    if (t[w] == line_addr) return (int)w;
  return -1;
}

/* cache_find(cache_set_index(line_addr)), with the set index in *set. */
static inline int cache_lookup(const Cache *cc, uint64_t line_addr, uint32_t *set) {
  Cache *c = (Cache *)cc; /* the memo is not observable state */
  if (line_addr != c->memo_line) {
    c->memo_set = cache_set_index(c, line_addr);
    c->memo_way = cache_find(c, c->memo_set, line_addr);
    c->memo_line = line_addr;
  }
  *set = c->memo_set;
  return c->memo_way;
}

const CacheLine *cache_lookup_line(const Cache *c) {
  if (c->memo_line == CACHE_NO_TAG || c->memo_way < 0) return NULL;
  return &cache_set_ptr(c, c->memo_set)[c->memo_way];
}

int cache_probe(const Cache *c, uint64_t line_addr) {
  return cache_find(c, cache_set_of(c, line_addr), line_addr);
}

static uint32_t cache_default_victim(const uint8_t *states, uint32_t ways) {
  for (uint32_t w = 0; w < ways; w++)
    if (states[w] == CACHE_LINE_INVALID) return w;
  for (uint32_t w = 0; w < ways; w++)
    if (states[w] != CACHE_LINE_RESERVED) return w;
  return ways;
}

/* ---- access ---- */

static CacheResult cache_result(CacheOutcome o) { return (CacheResult){o, CACHE_FAIL_NONE}; }

void cache_note_retries(Cache *c, CacheFailReason why, uint64_t n) { c->st.resfail[why] += n; }

static CacheResult cache_fail(Cache *c, CacheFailReason r) {
  c->st.resfail[r]++;
  return (CacheResult){CACHE_RESFAIL, r};
}

/* Queues req toward the next level (the caller checked the miss queue). */
static inline ReqSlot *cache_miss_push(Cache *c, const MemRequest *req, uint64_t now) {
  ReqSlot *s = reqq_push(&c->miss_q, req, now);
  /* an atomic OR: the SMs' L1s share the memory system's bitmap words and may run on
   * several threads at once (sim.threads); the bits are read between cycles only */
  if (c->miss_notify) __atomic_fetch_or(c->miss_notify, c->miss_notify_bit, __ATOMIC_RELAXED);
  return s;
}

/* Sends req down unallocated (the caller checked the miss queue). */
static void cache_send_noalloc(Cache *c, const MemRequest *req, uint64_t now) {
  cache_miss_push(c, req, now)->req.flags |= (uint8_t)MEM_F_NOALLOC(c->p.level);
}

/* A load of class cg, or whose requester asks for no allocation (MEM_HINT_BYPASS),
 * that this cache (an L1 with bypass_cg) does not allocate. */
static bool cache_bypasses_cg(const Cache *c, const MemRequest *req) {
  return !req->is_write && c->p.bypass_cg &&
         (req->access_class == MEM_CLASS_CG || (req->hints & MEM_HINT_BYPASS));
}

/* A load of class cg (a .cg load, an atomic, a load a bypassing policy marked cg) that this
 * cache (an L1 with bypass_cg) sends around itself without a lookup: it neither hits a valid
 * line nor merges into a pending miss of it, as in GPGPU-Sim 3.2.2, whose LD/ST unit sends
 * CACHE_GLOBAL accesses (atomics by default) straight to the interconnect. A requester's
 * MEM_HINT_BYPASS still looks up: it only asks for no allocation. */
static inline bool cache_skips_lookup(const Cache *c, const MemRequest *req) {
  return req->access_class == MEM_CLASS_CG && c->p.bypass_cg && !req->is_write;
}

/* A store that goes down and fetches its line (write policy back_fetch). */
static inline bool cache_write_fetches(const Cache *c, const MemRequest *req) {
  return req->is_write && c->p.write_policy == CACHE_WRITE_BACK_FETCH;
}

/* Room for such a store: GPGPU-Sim 3.2.2's data_cache::wr_miss_wa asks for three miss-queue slots
 * (`miss_queue_full(2)`: the store, the line's read, a dirty victim's write-back) whether the
 * line is absent or on its way. */
static inline bool cache_write_fetch_room(const Cache *c) { return reqq_space(&c->miss_q) >= 3; }

/* Why a miss allocating in `set` cannot be accepted: no unreserved way, no free
 * MSHR (loads), no miss-queue slot (loads); NONE if it can. The order decides
 * which reason a request lacking several resources is counted under. */
static inline CacheFailReason cache_alloc_fail(const Cache *c, uint32_t set, const MemRequest *req) {
  const bool fetch = cache_write_fetches(c, req);
  if (c->nresv[set] == c->p.assoc) return CACHE_FAIL_NO_LINE;
  /* back: stores allocate without fetching, so without an MSHR */
  if ((!req->is_write || fetch) && !c->mshr_nfree) return CACHE_FAIL_NO_MSHR;
  if (!req->is_write && reqq_full(&c->miss_q)) return CACHE_FAIL_MISS_QUEUE;
  if (fetch && !cache_write_fetch_room(c)) return CACHE_FAIL_MISS_QUEUE;
  return CACHE_FAIL_NONE;
}

static inline void cache_reply_hit(Cache *c, const MemRequest *req, uint64_t now) {
  MEM_DCHECK(!reqq_full(&c->hit_q), now, c->name, "hit pipeline overflow");
  reqq_push(&c->hit_q, req, now + c->p.latency);
}

/* A store accepted here is acked here, except a write-back (an L1's dirty
 * eviction, MEM_F_WRITEBACK), which nobody waits for. */
static inline void cache_ack_write(Cache *c, const MemRequest *req, uint64_t now) {
  if (!(req->flags & MEM_F_WRITEBACK)) cache_reply_hit(c, req, now);
}

/* The L2 (level 2) sends down to DRAM, which acks only a store marked MEM_F_ACK_BELOW; an L1
 * sends down to the L2, which acks every store it takes. */
static inline bool cache_is_last(const Cache *c) { return c->p.level == 2; }

/* A store going down unallocated (write-evict, back_fetch's miss or line on its way, a bypass),
 * acked exactly once, as GPGPU-Sim 3.2.2: an L1's by the L2 (memory_sub_partition::cache_cycle
 * replies to each write it takes); the L2's here (write_ack here) or by DRAM when written
 * (below: dram_t::cycle returns every write but a write-back; 3.2.2's 'W' and write-evict 'E'
 * L2s both get their WRITE_ACK so). A write-back (MEM_F_WRITEBACK) gets none. */
static void cache_send_store(Cache *c, const MemRequest *req, uint64_t now) {
  if (!cache_is_last(c) || !c->p.write_ack_below || (req->flags & MEM_F_WRITEBACK)) {
    cache_send_noalloc(c, req, now);
    if (cache_is_last(c)) cache_ack_write(c, req, now);
    return;
  }
  cache_miss_push(c, req, now)->req.flags |= (uint8_t)(MEM_F_NOALLOC(c->p.level) | MEM_F_ACK_BELOW);
}

/* Does store req invalidate its line and go down unallocated (write-evict),
 * rather than write into the line (write-back)? */
static inline bool cache_store_evicts(const Cache *c, const MemRequest *req) {
  return c->p.write_policy == CACHE_WRITE_EVICT ||
         (c->p.write_policy == CACHE_WRITE_LOCAL_BACK && !(req->flags & MEM_F_LOCAL));
}

/* What evicting a valid line tells the policy and the next level: on_evict,
 * and the write-back of a dirty line. Out of line: LRU has no on_evict and
 * the L1s write nothing back, so cache_evict's inlined part stays small. */
static __attribute__((noinline)) void cache_evict_notify(Cache *c, uint32_t set, uint32_t w,
                                                         const MemRequest *by, CacheEvictReason why,
                                                         uint64_t now) {
  CacheLine *l = &cache_set_ptr(c, set)[w];
  bool dirty = l->state == CACHE_LINE_MODIFIED;
  if (c->evict_hook) {
    CacheEviction ev = {
        .set = set, .way = w, .line = l, .dirty = dirty, .reason = why, .by = by, .cycle = now};
    if (c->pol.on_evict) c->pol.on_evict(c->pstate, &ev);
    if (c->evict_fn) c->evict_fn(c->evict_ctx, &ev);
  }
  if (dirty) {
    MemRequest wb = {.addr = l->line_addr,
                     .line_addr = l->line_addr,
                     .pc = l->alloc_pc,
                     .issue_cycle = now,
                     .sm = -1,
                     .warp = -1,
                     .cta = -1,
                     .bytes = (uint16_t)c->p.line_size,
                     .is_write = 1,
                     .flags = MEM_F_WRITEBACK};
    cache_miss_push(c, &wb, now);
    c->st.writebacks++;
  }
}

/* Way `w` of `set` (valid or modified: state st) loses its line: tells the
 * policy, counts the eviction and queues the write-back of a dirty line (the caller
 * reserved the miss-queue slot). The line stays in place: the caller installs
 * a new one over it (a replacement) or invalidates the way. */
static inline void cache_evict(Cache *c, uint32_t set, uint32_t w, uint8_t st, const MemRequest *by,
                               CacheEvictReason why, uint64_t now) {
  MEM_DCHECK(st != CACHE_LINE_INVALID && st != CACHE_LINE_RESERVED, now, c->name,
             "evicting an invalid or reserved line (set %u way %u)", set, w);
  if (c->evict_hook || st == CACHE_LINE_MODIFIED) cache_evict_notify(c, set, w, by, why, now);
  if (why == CACHE_EVICT_REPLACE)
    c->st.evictions++;
  else
    c->st.invalidations++;
}

static inline void cache_invalidate(Cache *c, uint32_t set, uint32_t w) {
  cache_set_state(c, set, w, CACHE_LINE_INVALID);
  c->tags[(size_t)set * c->p.assoc + w] = CACHE_NO_TAG;
  c->memo_line = CACHE_NO_TAG;
}

/* Puts req's line in way `w` of `set` (index i = set * assoc + w in lines,
 * tags and wstate) in state st (RESERVED: owned by MSHR entry `mshr`), over
 * whatever the way held. */
static inline void cache_install(Cache *c, uint32_t set, uint32_t w, size_t i, const MemRequest *req,
                                 CacheLineState st, uint16_t mshr, uint64_t now) {
  CacheLine *l = &c->lines[i]; /* field by field: reserved_ stays as calloc left it */
  l->mshr = mshr, l->state = (uint8_t)st;
  l->line_addr = req->line_addr, l->alloc_pc = req->pc;
  l->alloc_cycle = l->fill_cycle = now;
  l->alloc_sm = req->sm, l->alloc_warp = req->warp;
  c->tags[i] = req->line_addr;
  c->memo_line = CACHE_NO_TAG;
  c->wstate[i] = (uint8_t)st;
  c->nresv[set] += st == CACHE_LINE_RESERVED; /* over a way that was not */
  if (c->pol.on_fill) c->pol.on_fill(c->pstate, set, w, req, now);
}

/* A miss that may allocate: pick a victim, or bypass, or fail. Failures on
 * NO_LINE/NO_MSHR may turn into an access-level bypass if the policy says so.
 * The order of checks (line, MSHR, miss queue) decides which reason a
 * request that lacks several resources is counted under. */
static CacheResult cache_miss(Cache *c, uint32_t set, const MemRequest *req, uint64_t now) {
  const uint32_t ways = c->p.assoc;
  const size_t base = (size_t)set * ways; /* the set's first way in lines, tags and wstate */
  const uint8_t *ws = &c->wstate[base];
  bool bypass = cache_bypasses_cg(c, req);
  if (!bypass && !req->is_write && c->pol.should_bypass) bypass = c->pol.should_bypass(c->pstate, req);
  CacheFailReason why = CACHE_FAIL_NONE;
  uint32_t victim = ways;
  uint8_t vst = CACHE_LINE_INVALID; /* the victim's state */
  if (!bypass) {
    why = cache_alloc_fail(c, set, req);
    if (why == CACHE_FAIL_NO_LINE || why == CACHE_FAIL_NO_MSHR) {
      if (!req->is_write && c->pol.bypass_on_fail && !reqq_full(&c->miss_q) &&
          c->pol.bypass_on_fail(c->pstate, req, why)) {
        c->st.resfail[why]++;
        c->st.fail_bypasses++;
        bypass = true;
        why = CACHE_FAIL_NONE;
      }
    }
    if (why) return cache_fail(c, why);
    if (!bypass) {
      victim = c->pol.find_victim ? c->pol.find_victim(c->pstate, set, ws, &c->lines[base], req)
                                  : cache_default_victim(ws, ways);
      MEM_ASSERT(victim <= ways, now, c->name, "policy %s returned way %u of %u", c->pol.name, victim, ways);
      if (victim == ways)
        bypass = true;
      else {
        vst = ws[victim];
        MEM_ASSERT(vst != CACHE_LINE_RESERVED, now, c->name, "policy %s chose reserved way %u of set %u",
                   c->pol.name, victim, set);
        /* a dirty victim's write-back needs a slot besides a load's own (checked above) */
        if (vst == CACHE_LINE_MODIFIED && reqq_space(&c->miss_q) < 1u + !req->is_write)
          return cache_fail(c, CACHE_FAIL_MISS_QUEUE);
      }
    }
  }
  if (bypass) {
    if (reqq_full(&c->miss_q)) return cache_fail(c, CACHE_FAIL_MISS_QUEUE);
    cache_send_noalloc(c, req, now);
    if (req->is_write) {
      c->st.writes++, c->st.write_misses++;
      /* an unallocated write-back store: the L2 acks it here, an L1's is acked by the L2 */
      if (cache_is_last(c)) cache_ack_write(c, req, now);
    } else {
      c->st.reads++, c->st.bypasses++;
    }
    if (c->pol.on_miss) c->pol.on_miss(c->pstate, set, req, now);
    return cache_result(CACHE_BYPASSED);
  }
  if (vst != CACHE_LINE_INVALID) cache_evict(c, set, victim, vst, req, CACHE_EVICT_REPLACE, now);
  if (req->is_write && c->p.write_policy == CACHE_WRITE_BACK_FETCH) {
    /* the store goes down as it is (acked here or by DRAM: write_ack); the line's read has no
     * requester and brings it clean (GPGPU-Sim 3.2.2 data_cache::wr_miss_wa: a write and a read) */
    cache_send_store(c, req, now);
    uint16_t e = c->mshr_free[--c->mshr_nfree];
    MshrEntry *me = &c->mshr[e];
    me->line_addr = req->line_addr, me->set = set, me->way = victim, me->count = 0, me->has_write = 0;
    MemRequest rd = *req;
    rd.is_write = 0;
    rd.flags &= (uint8_t)~MEM_F_WRITEBACK;
    cache_miss_push(c, &rd, now)->req.mshr[c->p.level - 1] = e;
    c->st.writes++, c->st.write_misses++;
    cache_install(c, set, victim, base + victim, req, CACHE_LINE_RESERVED, e, now);
  } else if (req->is_write) { /* write-back, write-allocate without fetch: the line is dirty at once */
    cache_install(c, set, victim, base + victim, req, CACHE_LINE_MODIFIED, 0, now);
    c->st.writes++, c->st.write_misses++;
    cache_ack_write(c, req, now);
  } else {
    uint16_t e = c->mshr_free[--c->mshr_nfree];
    MshrEntry *me = &c->mshr[e]; /* field by field: the padding need not be cleared */
    me->line_addr = req->line_addr, me->set = set, me->way = victim, me->count = 1, me->has_write = 0;
    c->merged[(size_t)e * c->p.mshr_max_merge] = *req;
    cache_miss_push(c, req, now)->req.mshr[c->p.level - 1] = e;
    c->st.reads++, c->st.read_misses++;
    /* last: less is live across the policy's on_fill (it sees no cache state, so the order is not observable)
     */
    cache_install(c, set, victim, base + victim, req, CACHE_LINE_RESERVED, e, now);
  }
  if (c->pol.on_miss) c->pol.on_miss(c->pstate, set, req, now);
  return cache_result(CACHE_MISS);
}

static CacheResult cache_merge(Cache *c, CacheLine *l, const MemRequest *req) {
  MshrEntry *e = &c->mshr[l->mshr];
  if (req->flags & MEM_F_WRITEBACK) { /* dirties the line at its fill; no reply to keep */
    e->has_write = 1, c->st.writes++, c->st.write_hits++;
    return cache_result(CACHE_MERGED);
  }
  if (e->count >= c->p.mshr_max_merge) return cache_fail(c, CACHE_FAIL_MERGE_LIMIT);
  c->merged[(size_t)l->mshr * c->p.mshr_max_merge + e->count++] = *req;
  if (req->is_write)
    e->has_write = 1, c->st.writes++, c->st.write_hits++;
  else
    c->st.reads++, c->st.read_merges++;
  return cache_result(CACHE_MERGED);
}

/* A back_fetch store to a line on its way: it goes down (its ack: cache_send_store; 3.2.2 sends
 * it down and merges a read into the line's MSHR, which brings nobody a reply). */
static CacheResult cache_store_down(Cache *c, const MemRequest *req, uint64_t now) {
  if (!cache_write_fetch_room(c)) return cache_fail(c, CACHE_FAIL_MISS_QUEUE);
  c->st.writes++, c->st.write_hits++;
  cache_send_store(c, req, now);
  return cache_result(CACHE_MERGED);
}

/* Write-evict stores never allocate: a hit invalidates the line, and the
 * store always goes to the next level (its ack: cache_send_store). */
static CacheResult cache_store_evict(Cache *c, uint32_t set, int way, const MemRequest *req, uint64_t now) {
  uint8_t st = way >= 0 ? cache_set_states(c, set)[way] : CACHE_LINE_INVALID;
  bool hit = way >= 0 && st != CACHE_LINE_RESERVED;
  /* the store, and a dirty line's write-back before it */
  if (reqq_space(&c->miss_q) < 1u + (hit && st == CACHE_LINE_MODIFIED))
    return cache_fail(c, CACHE_FAIL_MISS_QUEUE);
  if (hit) {
    cache_evict(c, set, (uint32_t)way, st, req, CACHE_EVICT_INVALIDATE, now);
    cache_invalidate(c, set, (uint32_t)way);
  }
  cache_send_store(c, req, now);
  c->st.writes++;
  if (hit) {
    c->st.write_hits++;
  } else {
    c->st.write_misses++;
    if (c->pol.on_miss) c->pol.on_miss(c->pstate, set, req, now);
  }
  return cache_result(hit ? CACHE_HIT : CACHE_MISS);
}

CacheFailReason cache_admit_fail(const Cache *c, uint64_t now) {
  if (c->port_cycle == now && c->port_used >= c->p.ports) return CACHE_FAIL_PORT;
  /* Hits and write acks enter the hit pipeline; when the requester stops
   * popping replies it fills up and the cache stops accepting (back-pressure). */
  if (reqq_full(&c->hit_q)) return CACHE_FAIL_REPLY_QUEUE;
  return CACHE_FAIL_NONE;
}

/* An accepted access takes one of the cycle's tag ports (port_used counts the
 * accesses of cycle port_cycle only: an older port_cycle means none yet). */
static inline void cache_take_port(Cache *c, uint64_t now) {
  if (c->port_cycle != now) c->port_cycle = now, c->port_used = 0;
  c->port_used++;
}

/* An admitted access that is not a hit (the lookup found `way` of `set`, or
 * -1): a write-evict store, a merge into a reserved line, or a miss. Out of
 * line, so that a hit saves no registers. */
static __attribute__((noinline)) CacheResult cache_access_other(Cache *c, const MemRequest *req, uint32_t set,
                                                                int way, uint64_t now) {
  CacheResult r;
  /* stores that go down unallocated: write-evict ones, and (local_back) a local store
   * that missed; a local store hit took the hit path */
  if (req->is_write && c->p.write_policy != CACHE_WRITE_BACK && c->p.write_policy != CACHE_WRITE_BACK_FETCH)
    r = cache_store_evict(c, set, way, req, now);
  else if (way >= 0 && cache_write_fetches(c, req)) /* RESERVED: the store goes down, the fetch stands */
    r = cache_store_down(c, req, now);
  else if (way >= 0) { /* RESERVED */
    r = cache_merge(c, &cache_set_ptr(c, set)[way], req);
    /* 3.2.2 looks a merged read up like a hit (tag_array::access, HIT_RESERVED), restamping it */
    if (c->p.merge_touch && r.outcome == CACHE_MERGED && !req->is_write && c->pol.on_hit)
      c->pol.on_hit(c->pstate, set, (uint32_t)way, req, now);
  } else
    r = cache_miss(c, set, req, now);
  if (r.outcome != CACHE_RESFAIL) cache_take_port(c, now);
  return r;
}

/* Out of line, also at link time: cache_access() ends in a jump to it and it
 * in a jump to cache_access_other(), so no register is saved on the way. */
__attribute__((noinline)) CacheResult cache_access_admitted(Cache *c, const MemRequest *req, uint64_t now) {
  MEM_DCHECK((req->line_addr & c->off_mask) == 0, now, c->name, "line_addr 0x%llx not aligned",
             (unsigned long long)req->line_addr);
  uint32_t set;
  int way = cache_lookup(c, req->line_addr, &set);
  if (way >= 0 && cache_skips_lookup(c, req)) way = -1;
  /* A load miss allocating with no MSHR free fails as cache_miss() would,
   * without the call: requesters retry it after each fill. */
  if (way < 0 && !c->mshr_nfree && c->miss_hookless && !req->is_write && !cache_bypasses_cg(c, req))
    return cache_fail(c, cache_alloc_fail(c, set, req));
  if (way < 0 || (req->is_write && cache_store_evicts(c, req)) ||
      cache_set_states(c, set)[way] == CACHE_LINE_RESERVED)
    return cache_access_other(c, req, set, way, now);
  if (req->is_write) {
    cache_set_state(c, set, (uint32_t)way, CACHE_LINE_MODIFIED), c->st.writes++, c->st.write_hits++;
    cache_ack_write(c, req, now);
  } else {
    c->st.reads++, c->st.read_hits++;
    cache_reply_hit(c, req, now);
  }
  cache_take_port(c, now);
  /* last: nothing is kept across the call (the policy sees no cache state, so its place is not observable) */
  if (c->pol.on_hit) c->pol.on_hit(c->pstate, set, (uint32_t)way, req, now);
  return cache_result(CACHE_HIT);
}

CacheResult cache_access(Cache *c, const MemRequest *req, uint64_t now) {
  CacheFailReason admit = cache_admit_fail(c, now);
  if (admit) return cache_fail(c, admit);
  return cache_access_admitted(c, req, now);
}

/* What cache_access(req) would fail with if called at a later cycle with the
 * cache unchanged (no fill, no miss-queue pop, no reply popped): a reason only
 * where the outcome is certain without consulting the policy, else
 * CACHE_FAIL_NONE (it may succeed, or a policy hook would decide). A port
 * conflict is never predicted: ports free every cycle. No side effects. */
CacheFailReason cache_predict_fail(const Cache *c, const MemRequest *req) {
  if (reqq_full(&c->hit_q)) return CACHE_FAIL_REPLY_QUEUE;
  uint32_t set;
  int way = cache_lookup(c, req->line_addr, &set);
  if (way >= 0 && cache_skips_lookup(c, req)) way = -1;
  const uint8_t *ws = cache_set_states(c, set);
  if (req->is_write && c->p.write_policy != CACHE_WRITE_BACK && c->p.write_policy != CACHE_WRITE_BACK_FETCH) {
    bool hit = way >= 0 && ws[way] != CACHE_LINE_RESERVED;
    if (hit && !cache_store_evicts(c, req)) return CACHE_FAIL_NONE; /* a local store hit (local_back) */
    return reqq_space(&c->miss_q) < 1u + (hit && ws[way] == CACHE_LINE_MODIFIED) ? CACHE_FAIL_MISS_QUEUE
                                                                                 : CACHE_FAIL_NONE;
  }
  if (way >= 0 && ws[way] == CACHE_LINE_RESERVED && cache_write_fetches(c, req))
    return cache_write_fetch_room(c) ? CACHE_FAIL_NONE : CACHE_FAIL_MISS_QUEUE;
  if (way >= 0 && ws[way] == CACHE_LINE_RESERVED)
    return c->mshr[cache_set_ptr(c, set)[way].mshr].count >= c->p.mshr_max_merge ? CACHE_FAIL_MERGE_LIMIT
                                                                                 : CACHE_FAIL_NONE;
  if (way >= 0) return CACHE_FAIL_NONE;
  if (cache_bypasses_cg(c, req)) return reqq_full(&c->miss_q) ? CACHE_FAIL_MISS_QUEUE : CACHE_FAIL_NONE;
  if (!req->is_write && c->pol.should_bypass) return CACHE_FAIL_NONE;
  CacheFailReason why = cache_alloc_fail(c, set, req);
  if ((why == CACHE_FAIL_NO_LINE || why == CACHE_FAIL_NO_MSHR) && !req->is_write && c->pol.bypass_on_fail)
    return CACHE_FAIL_NONE;
  return why;
}

/* ---- replies ---- */

/* cache_fill and cache_take_reply run in their callers' loops (fill and reply
 * polling, every busy cycle): inlined there at link time (LTO; cache.h keeps
 * them external). */
#define CACHE_INLINE __attribute__((always_inline)) inline

CACHE_INLINE bool cache_fill(Cache *c, const MemRequest *reply, uint64_t now) {
  if (reply->flags & MEM_F_NOALLOC(c->p.level)) {
    if (reqq_full(&c->fill_q)) return false;
    ReqSlot *s = reqq_push(&c->fill_q, reply, now);
    s->req.flags &= (uint8_t)~MEM_F_NOALLOC(c->p.level);
    c->fill_version++;
    return true;
  }
  /* The reply is the request this cache sent down: it names the MSHR entry,
   * and the entry the reserved line. */
  uint16_t m = reply->mshr[c->p.level - 1];
  MEM_DCHECK(m < c->p.mshr_entries, now, c->name, "fill of line 0x%llx names no MSHR entry",
             (unsigned long long)reply->line_addr);
  MshrEntry *e = &c->mshr[m];
  uint32_t set = e->set, way = e->way;
  CacheLine *l = &cache_set_ptr(c, set)[way];
  MEM_DCHECK(e->line_addr == reply->line_addr && cache_set_states(c, set)[way] == CACHE_LINE_RESERVED &&
                 l->mshr == m,
             now, c->name, "fill of line 0x%llx that is not reserved", (unsigned long long)reply->line_addr);
  const uint32_t n = e->count;
  if (reqq_space(&c->fill_q) < n) return false;
  /* The line first, the replies last: nothing of the line stays live across
   * the copies (fewer spills where the loop is inlined). */
  cache_set_state(c, set, way, e->has_write ? CACHE_LINE_MODIFIED : CACHE_LINE_VALID);
  c->nresv[set]--;
  l->fill_cycle = now;
  c->mshr_free[c->mshr_nfree++] = m;
  c->st.fills++;
  c->fill_version++;
  if (c->fill_fn) c->fill_fn(c->fill_ctx, l, now);
  const MemRequest *r = &c->merged[(size_t)m * c->p.mshr_max_merge];
  for (uint32_t i = 0; i < n; i++) reqq_push(&c->fill_q, &r[i], now);
  return true;
}

/* The reply queue whose head is the next reply ready at `now`, oldest first
 * (the hit queue on a tie), or NULL (an empty queue's head_ready is
 * UINT64_MAX > now). */
static inline ReqQueue *cache_reply_queue(Cache *c, uint64_t now) {
  uint64_t h = c->hit_q.head_ready, f = c->fill_q.head_ready;
  if (h <= now) return h <= f ? &c->hit_q : &c->fill_q; /* f < h: f <= now too */
  return f <= now ? &c->fill_q : NULL;
}

/* A popped slot keeps its request until the queue's next push: an access
 * (hit queue) or a fill (fill queue). */
CACHE_INLINE const MemRequest *cache_take_reply(Cache *c, uint64_t now) {
  ReqQueue *q = cache_reply_queue(c, now);
  if (!q) return NULL;
  const MemRequest *r = &q->head->req;
  reqq_pop(q);
  return r;
}

const MemRequest *cache_miss_head(const Cache *c) {
  ReqSlot *s = reqq_head(&c->miss_q);
  return s ? &s->req : NULL;
}
void cache_miss_pop(Cache *c) {
  reqq_pop(&c->miss_q);
  c->pop_version++;
}
CacheVersion cache_version(const Cache *c) { return (CacheVersion){c->fill_version, c->pop_version}; }
void cache_set_miss_notify(Cache *c, uint64_t *word, uint64_t bit) {
  c->miss_notify = word;
  c->miss_notify_bit = bit;
}

bool cache_retry_needs_queue_space(const Cache *c, CacheFailReason why) {
  if (why == CACHE_FAIL_MISS_QUEUE) return true;
  /* a policy may turn these into a bypass, which needs a miss-queue slot */
  return (why == CACHE_FAIL_NO_LINE || why == CACHE_FAIL_NO_MSHR) && c->pol.bypass_on_fail;
}

uint64_t cache_next_reply(const Cache *c) {
  uint64_t t = reqq_next_ready(&c->hit_q), f = reqq_next_ready(&c->fill_q);
  return f < t ? f : t;
}

bool cache_idle(const Cache *c) {
  return c->mshr_nfree == c->p.mshr_entries && reqq_empty(&c->miss_q) && reqq_empty(&c->hit_q) &&
         reqq_empty(&c->fill_q);
}

uint32_t cache_mshr_used(const Cache *c) { return c->p.mshr_entries - c->mshr_nfree; }
uint32_t cache_miss_queue_len(const Cache *c) { return c->miss_q.count; }
const CacheParams *cache_params_of(const Cache *c) { return &c->p; }
const CacheStats *cache_stats(const Cache *c) { return &c->st; }
uint32_t cache_sets(const Cache *c) { return c->sets; }

void cache_policy_stats(const Cache *c, PolicyStats *out) {
  policy_stats_begin_instance(out);
  if (c->pol.stats) c->pol.stats(c->pstate, out);
}

bool cache_policy_may_bypass(const Cache *c) { return !c->miss_hookless; }

void cache_set_fill_listener(Cache *c, CacheFillListener fn, void *ctx) {
  c->fill_fn = fn;
  c->fill_ctx = ctx;
}

void cache_set_evict_listener(Cache *c, CacheEvictListener fn, void *ctx) {
  c->evict_fn = fn;
  c->evict_ctx = ctx;
  c->evict_hook = c->pol.on_evict || fn;
}

void cache_dump(const Cache *c, FILE *out) {
  fprintf(out, "%s: mshr %u/%u, miss queue %u/%u, hit queue %u, fill queue %u/%u\n", c->name,
          cache_mshr_used(c), c->p.mshr_entries, c->miss_q.count, c->miss_q.cap, c->hit_q.count,
          c->fill_q.count, c->fill_q.cap);
}
