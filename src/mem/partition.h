/* partition.h - one memory partition: an L2 slice (the generic cache,
 * write-back) behind a fixed-latency input pipeline, a memory-controller
 * delay line, and one DRAM channel. Requests arrive from the interconnect
 * with partition_push(); replies leave through the reply network that
 * partition_tick() is given. Depends on cache, dram, icnt, addrmap. */
#ifndef WS_PARTITION_H
#define WS_PARTITION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "mem/addrmap.h"
#include "mem/cache.h"
#include "mem/dram.h"
#include "mem/icnt.h"

typedef struct PartitionParams {
  uint32_t id;
  uint32_t input_queue;  /* requests waiting for the L2 beyond those in the delay line */
  uint32_t input_rate;   /* requests the network delivers per cycle at most (sizes the delay line) */
  uint32_t input_delay;  /* cycles from arrival to the L2 tag access (>= 1) */
  uint32_t ctrl_delay;   /* cycles from the L2 miss queue to the DRAM scheduler (>= 1) */
  uint32_t header_bytes; /* reply packet header */
  uint32_t l1_line;      /* bytes of an L1 line (a read reply's data); the L2's may be a multiple */
  uint32_t l1c_line;     /* bytes of a constant-cache line (MEM_UNIT_L1C's replies) */
  uint32_t sms_per_port; /* a reply to SM s goes to reply-network port s / sms_per_port */
  bool reply_hold;       /* icnt.reply_hold = gpgpusim: a reply waits for icnt_has_room() */
  bool sleep;            /* memsys ticks the partition only at partition_next_event() (skip_idle_cycles) */
  CacheParams l2;        /* one slice */
  DramParams dram;
  AddrMap map;
} PartitionParams;

typedef struct Partition Partition;

Partition *partition_create(const PartitionParams *p, const Config *cfg, char *err, size_t errlen);
void partition_free(Partition *pt);

bool partition_can_accept(const Partition *pt);
void partition_push(Partition *pt, const MemRequest *r, uint64_t now);
/* One cycle: DRAM, fills, replies into `reply` (source port = id), DRAM
 * requests, L2 accesses; in that (reverse pipeline) order. It changes
 * nothing on an idle partition (memsys ticks a partition only when
 * partition_next_event() or a push says it can do something). Returns true
 * when a ready request could not enter the L2: partition_next_event() would
 * say now + 1. With `sleep`, a reply waiting for room in the intersim reply
 * network (reply_hold) naps: it asks icnt_wait_room() to mark the partition's port
 * when room comes (icnt_take_room), partition_next_event() leaves the wait
 * out, and the next tick counts the cycles in between as the ticks would
 * have (a reply stall each, and a refused L2 access each while the input
 * queue's head waits behind the full reply queue). */
bool partition_tick(Partition *pt, uint64_t now, Icnt *reply);
uint64_t partition_next_event(const Partition *pt, uint64_t now);
/* A napping partition's counts brought up to cycle `last` (memsys ticked it last then), as the
 * ticks it skipped would have left them; its next tick counts only the cycles after. */
void partition_settle(Partition *pt, uint64_t last);
bool partition_idle(const Partition *pt);
/* With reply_hold, cycles a ready reply could not enter the reply network (GPGPU-Sim's
 * gpu_stall_icnt2sh); 0 without. */
uint64_t partition_reply_stalls(const Partition *pt);

Cache *partition_l2(const Partition *pt);
DramChannel *partition_dram(const Partition *pt);
const DramParams *partition_dram_params(const Partition *pt);
void partition_dump(const Partition *pt, FILE *out);

#endif
