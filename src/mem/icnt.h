/* icnt.h - one direction of the SM <-> memory-partition crossbar.
 * Packets wait in a bounded queue per source; each cycle, in round-robin
 * order of sources, a head packet is sent when its source port and its
 * destination port have bandwidth left (flits/cycle; sources and destinations
 * may differ: an SM's port is narrower than a partition's) and the destination's
 * ejection buffer has a credit; it arrives `latency` cycles after its last
 * flit leaves. Credits count packets in flight plus packets waiting to be
 * ejected, so a slow consumer back-pressures the senders.
 * Invariant: arrivals at one destination are in send order (monotonic).
 * With IcntParams.xbar set (icnt.model = intersim) the sources' side is GPGPU-Sim 3.2.2's
 * intersim2 crossbar (xbar.h) instead, each port one or more of its nodes, and only the
 * ejection side (the destination queues below) is kept.
 * Depends on mem_req.h / reqq.h / xbar.h / addrmap.h only. */
#ifndef WS_ICNT_H
#define WS_ICNT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "core/stats.h"
#include "mem/addrmap.h"
#include "mem/xbar.h"
#include "policy/mem_req.h"

typedef struct IcntParams {
  const char *name; /* "icnt.req" / "icnt.reply" for messages */
  uint32_t n_src, n_dst;
  uint32_t latency;         /* cycles from the last flit leaving to arrival, >= 1 */
  uint32_t flits_per_cycle; /* per port (source and destination), unless one of these says otherwise: */
  uint32_t src_flits_per_cycle, dst_flits_per_cycle; /* 0 = flits_per_cycle */
  uint32_t flit_size;                                /* bytes */
  uint32_t in_queue;                                 /* packets per source queue */
  uint32_t out_queue;                                /* packets per destination (in flight + waiting) */
  uint32_t in_flits; /* flits per source queue that icnt_has_room() allows (0: no flit limit) */
  /* icnt.model = intersim: the network (its n_in, n_out are set from the ports below), the
   * nodes per source / destination port (powers of two; GPGPU-Sim's sub-partitions of a memory partition: a
   * packet takes the one of its address, sub-partition = bank & (nodes - 1), addrdec.cc), and
   * the address map that gives the bank. NULL: the model above. */
  const XbarParams *xbar;
  uint32_t src_nodes, dst_nodes;
  const AddrMap *map;
} IcntParams;

typedef struct IcntStats {
  uint64_t packets, flits, bytes;
  uint64_t credit_stalls; /* a head packet found its destination buffer full */
  uint64_t latency_sum;   /* sum over packets of (arrival - push) */
} IcntStats;

typedef struct Icnt Icnt;

/* Keys under "icnt.": latency, flit_size, req_flits_per_cycle, reply_flits_per_cycle, sm_flits_per_cycle, ...
 */
extern const CfgParam icnt_cfg_params[];

Icnt *icnt_create(const IcntParams *p, char *err, size_t errlen);
void icnt_free(Icnt *x);

bool icnt_can_push(const Icnt *x, uint32_t src);
/* icnt_can_push() and, with in_flits set, GPGPU-Sim's input-buffer rule
 * (intersim2 InterconnectInterface::HasBuffer): the flits src still has to send
 * after cycle `now` (queued packets and the rest of the one leaving its port)
 * plus those of a packet of `bytes` fit in in_flits. A source queue stands for
 * intersim2's input buffer and the router's input buffer behind it. */
bool icnt_has_room(const Icnt *x, uint32_t src, uint32_t bytes, uint64_t now);
/* icnt_has_room() for the packet r (icnt.model = intersim: GPGPU-Sim's HasBuffer for the node
 * of r's sub-partition; it remembers src's last packet's node, which a held reply asks for again
 * every cycle). */
bool icnt_has_room_for(Icnt *x, uint32_t src, const MemRequest *r, uint32_t bytes, uint64_t now);
/* icnt.model = intersim: packet r found no room at src (icnt_has_room_for said no) and waits;
 * the network cycle that makes room for it marks src for icnt_take_room. Only src's own push
 * takes room, so the packet fits from then on. Returns false, and does nothing, for the other
 * model (its room comes with time: the caller must ask again). */
bool icnt_wait_room(Icnt *x, uint32_t src, const MemRequest *r, uint32_t bytes);
/* A wait of icnt_wait_room was met since the last icnt_take_room. */
bool icnt_room_pending(const Icnt *x);
/* Sets the bit in ports[] (a bitmap over source ports) of each source whose wait was met, and
 * forgets them. */
void icnt_take_room(Icnt *x, uint64_t *ports);
/* Queues a packet of `bytes` (header + payload) from src to dst at `now`. */
void icnt_push(Icnt *x, uint32_t src, uint32_t dst, const MemRequest *r, uint32_t bytes, uint64_t now);
/* icnt_push(), or with icnt.model = intersim the network's Push (to the nodes of r's
 * sub-partition); icnt_push() itself knows only the model above, so that its callers stay small. */
void icnt_push_for(Icnt *x, uint32_t src, uint32_t dst, const MemRequest *r, uint32_t bytes, uint64_t now);
void icnt_tick(Icnt *x, uint64_t now);
/* The packet at dst's ejection buffer head if it has arrived by `now`. */
const MemRequest *icnt_peek(const Icnt *x, uint32_t dst, uint64_t now);
/* The head packet of a destination in the bitmap of the last icnt_arrivals()
 * (it has arrived: icnt_peek() without the test). */
const MemRequest *icnt_arrived_head(const Icnt *x, uint32_t dst);
/* Removes dst's head packet (one that has arrived). Returns the next one if
 * it has arrived by the cycle of the last icnt_arrivals(), else NULL. */
const MemRequest *icnt_pop(Icnt *x, uint32_t dst);
/* Bitmap (core/bitmap.h) of exactly the destinations whose head packet has
 * arrived by `now` (nondecreasing across calls): callers visit only those,
 * then pop what they take; it stays valid through those pops. */
const uint64_t *icnt_arrivals(Icnt *x, uint64_t now);

/* Earliest cycle > now at which the network can make progress (UINT64_MAX if empty). */
uint64_t icnt_next_event(const Icnt *x, uint64_t now);
bool icnt_idle(const Icnt *x);
uint32_t icnt_flits(const Icnt *x, uint32_t bytes);
const IcntStats *icnt_stats(const Icnt *x);
/* Emits the statistics in s (stats.h) into the group the caller opened. */
void icnt_stats_emit(const IcntStats *s, StatsOut *o);
void icnt_dump(const Icnt *x, FILE *out);

#endif
