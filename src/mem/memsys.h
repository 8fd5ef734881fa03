/* memsys.h - the whole memory system below the SMs: per-SM L1D, L1I and constant cache, the
 * request and reply crossbars, and the memory partitions (L2 slice + DRAM
 * channel each). The SM model owns nothing here: it calls into its L1s and
 * ticks the rest once per cycle (or jumps to memsys_next_event()).
 *
 * How an SM uses it, at cycle `now` (after memsys_tick(ms, now)):
 *   Cache *l1 = memsys_l1d(ms, sm);
 *   MemRequest r = {.addr = a, .line_addr = a & ~(line-1), .sm = sm, .warp = w,
 *                   .cta = c, .pc = pc, .bytes = n, .is_write = st,
 *                   .access_class = MEM_CLASS_CA, .unit = MEM_UNIT_L1D,
 *                   .issue_cycle = now, .user = my_pending_load};
 *   CacheResult res = cache_access(l1, &r, now);
 *   if (res.outcome == CACHE_RESFAIL) -> stall the LD/ST unit, retry next cycle
 *                                        (res.fail says why; count it)
 *   while ((p = cache_take_reply(l1, now))) -> p->user completed (hit, fill,
 *                                        bypass reply or store ack)
 * Latencies, unloaded: an L1 hit replies `l1d.latency` cycles after the
 * access; an L2 hit exactly `l2.min_latency`; an L2 miss that hits an open
 * DRAM row `dram.min_latency` (+0/1 cycle of DRAM clock phase). Row misses
 * add tRCD (closed bank) or tRP + tRCD (other row open), in DRAM cycles.
 * Depends on cache, icnt, partition, dram, addrmap and core/config.
 */
#ifndef WS_MEMSYS_H
#define WS_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/icnt.h"

typedef struct MemSys MemSys;

/* Fixed delays derived from the configured minimum latencies. */
typedef struct MemSysDelays {
  uint32_t l2_input;     /* partition input pipeline (the ROP delay) */
  uint32_t dram_ctrl;    /* L2 miss queue to DRAM scheduler */
  uint32_t l2_fixed;     /* the rest of an L2 hit's unloaded path */
  uint32_t dram_row_hit; /* core cycles of a row-hit read of one line, worst phase */
} MemSysDelays;

/* What held replies on their way to the SMs (icnt.reply_hold = gpgpusim; all 0 without it). */
typedef struct MemSysReplyStats {
  uint64_t mem_stalls;  /* partition-cycles a ready reply found no room in the reply network */
  uint64_t eject_waits; /* port-cycles an arrived reply stayed in the network (one ejected per cycle) */
  uint64_t refused;     /* port-cycles the FIFO's head reply was refused by its L1 (cache_fill) */
} MemSysReplyStats;

/* Every configuration group of the memory system (cache instances with their
 * default values, interconnect, partitions, DRAM), ending with {0}. */
extern const CfgGroup memsys_cfg_groups[];
/* Cache instances whose policies get "<cache>.<policy>." keys, ending with NULL. */
extern const char *const memsys_cache_names[];

/* The caches' policies (l1d.policy, l1i.policy, l1c.policy, l2.policy), resolved from their names by the
 * composition root (src/sim/): the memory system never looks a policy up by name. */
typedef struct MemSysPolicies {
  const CachePolicy *l1d, *l1i, *l1c, *l2;
} MemSysPolicies;

/* pg: the policies' per-GPU context (policy_env.h), owned by the caller (the composition root)
 * and outliving the memory system; NULL for a memory system alone (its cache policies then see
 * no kernel and no shared blocks). pol: the caches' policies, none NULL. */
MemSys *memsys_create(const Config *cfg, PolicyGpu *pg, const MemSysPolicies *pol, char *err, size_t errlen);
void memsys_free(MemSys *ms);

uint32_t memsys_sms(const MemSys *ms);
/* Two bitmaps over SMs (core/bitmap.h; the second starts bitmap_words(SMs)
 * words after the first), set by memsys_tick(): one of the SM's L1s got a
 * fill; one had a miss-queue entry taken. What can end an SM's quiescence
 * besides its own timers. The engine clears them once it has seen them. */
uint64_t *memsys_sm_events(MemSys *ms);
uint32_t memsys_partitions(const MemSys *ms);
Cache *memsys_l1d(MemSys *ms, uint32_t sm);
Cache *memsys_l1i(MemSys *ms, uint32_t sm);
Cache *memsys_l1c(MemSys *ms, uint32_t sm); /* the constant cache */
Cache *memsys_l2(MemSys *ms, uint32_t partition);
DramChannel *memsys_dram(MemSys *ms, uint32_t partition);
/* The partition a byte address maps to. */
uint32_t memsys_partition_of(const MemSys *ms, uint64_t addr);
const MemSysDelays *memsys_delays(const MemSys *ms);
MemSysReplyStats memsys_reply_stats(const MemSys *ms);

/* Advances everything but the L1s' requesters to cycle `now` (nondecreasing;
 * cycles may be skipped when memsys_next_event() says nothing happens). */
void memsys_tick(MemSys *ms, uint64_t now);
/* memsys_tick in parts: two early ones, the reply network and the partitions (memsys_tick_early)
 * and the request network (memsys_tick_early_req), which read nothing the SMs write and touch
 * nothing of each other's, so they may run on two threads while the SMs simulate cycle now - 1 on
 * others; then the late one (requests into the partitions, replies to the L1s, L1 misses into the
 * network). Both early parts, in either order, then the late one, are memsys_tick. */
void memsys_tick_early(MemSys *ms, uint64_t now);
void memsys_tick_early_req(MemSys *ms, uint64_t now);
void memsys_tick_late(MemSys *ms, uint64_t now);
/* Earliest cycle > now at which memsys_tick may make progress or an L1 reply
 * becomes ready; UINT64_MAX when the memory system is empty. */
uint64_t memsys_next_event(const MemSys *ms, uint64_t now);
/* True only where memsys_next_event(ms, now) is now + 1; cheaper (some such cases say false). */
bool memsys_busy_next(const MemSys *ms, uint64_t now);
/* True only where memsys_next_event(ms, now) is now + 1 whatever the SMs do in cycle `now` (called
 * after memsys_tick(ms, now), before the SMs' cycle). */
bool memsys_next_certain(const MemSys *ms, uint64_t now);
bool memsys_idle(const MemSys *ms);

/* Totals over L1Ds, L1Is, L2 slices, DRAM channels and the two networks, and each slice and
 * channel (stats.h), into the group the caller opened. */
void memsys_stats_emit(const MemSys *ms, StatsOut *o);
/* The same through one printer (text names under "memory."; JSON: one object). */
void memsys_print_stats(const MemSys *ms, FILE *out, bool json);
/* Occupancy of every queue (for deadlock reports). */
void memsys_dump(const MemSys *ms, FILE *out);

#endif
