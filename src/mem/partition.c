/* partition.c - memory partition timing: input pipeline -> L2 slice ->
 * controller delay -> DRAM channel -> L2 fill -> reply network.
 * The fixed delays (input_delay, ctrl_delay) are what memsys derives from the
 * configured minimum L2 and DRAM latencies. Depends on cache, dram, icnt. */
#include "mem/partition.h"

#include <stdlib.h>

#include "mem/mem_assert.h"
#include "mem/reqq.h"

struct Partition {
  /* What every tick reads, first (one host cache line); the parameters after. */
  Cache *l2;
  DramChannel *dram;
  bool dram_busy; /* false only while the channel is idle (dram_idle): set by every dram_push, cleared by
                   * a tick that finds it idle. An idle channel's tick, returns and events are nothing,
                   * so ticks skip it without touching it. */
  uint32_t line;  /* L2 line size */
  ReqQueue input; /* ready = cycle of the L2 access */
  ReqQueue ctrl;  /* L2 miss queue -> DRAM; ready = cycle it reaches the scheduler */
  PartitionParams p;
  uint64_t reply_stalls; /* reply_hold: cycles a ready reply found no room in the reply network */
  bool has_held;         /* reply_hold: `held` was taken from the L2 and waits for room */
  uint32_t held_bytes, held_port;
  /* sleep: the held reply found no room in the tick of cycle nap_at (UINT64_MAX: not so) and
   * waits for icnt_take_room; nap_input: that tick's input head found the L2's reply queue full. */
  uint64_t nap_at;
  bool nap_input;
  MemRequest held;
  char name[32], l2name[32], dname[32];
};

Partition *partition_create(const PartitionParams *p, const Config *cfg, char *err, size_t errlen) {
  if (!p->input_delay || !p->ctrl_delay || !p->input_queue) {
    snprintf(err, errlen, "partition %u: invalid delays", p->id);
    return NULL;
  }
  Partition *pt = calloc(1, sizeof *pt);
  if (!pt) return snprintf(err, errlen, "out of memory"), NULL;
  if (errlen) err[0] = 0;
  pt->p = *p;
  pt->line = p->l2.line_size;
  pt->nap_at = UINT64_MAX;
  snprintf(pt->name, sizeof pt->name, "partition%u", p->id);
  snprintf(pt->l2name, sizeof pt->l2name, "l2");
  snprintf(pt->dname, sizeof pt->dname, "dram%u", p->id);
  CacheParams l2 = p->l2;
  l2.name = pt->l2name; /* config prefix of its policy keys; stats name it per partition */
  l2.level = 2;
  l2.sm = -1, l2.instance = p->id;
  DramParams dp = p->dram;
  dp.name = pt->dname;
  pt->l2 = cache_create(&l2, cfg, err, errlen);
  if (pt->l2) pt->dram = dram_create(&dp, err, errlen);
  uint32_t ctrl_cap = l2.mshr_entries + l2.miss_queue;
  uint32_t input_cap = p->input_queue + p->input_delay * (p->input_rate ? p->input_rate : 1);
  if (!pt->l2 || !pt->dram || reqq_init(&pt->input, input_cap) || reqq_init(&pt->ctrl, ctrl_cap)) {
    partition_free(pt);
    if (errlen && !err[0]) snprintf(err, errlen, "out of memory");
    return NULL;
  }
  return pt;
}

void partition_free(Partition *pt) {
  if (!pt) return;
  cache_free(pt->l2);
  dram_free(pt->dram);
  reqq_free(&pt->input);
  reqq_free(&pt->ctrl);
  free(pt);
}

bool partition_can_accept(const Partition *pt) { return !reqq_full(&pt->input); }

void partition_push(Partition *pt, const MemRequest *r, uint64_t now) {
  MEM_DCHECK(!reqq_full(&pt->input), now, pt->name, "push to a full input queue");
  ReqSlot *s = reqq_push(&pt->input, r, now + pt->p.input_delay);
  s->req.line_addr &= ~(uint64_t)(pt->line - 1); /* the L2's line (L1 lines may be shorter) */
}

/* The packet of a reply the L2 completed: its size in bytes and its port. A read brings the L1
 * line it allocated, or, where the L1 did not allocate (cg, atomics, bypassed loads), only the
 * bytes the coalescer asked for (GPGPU-Sim 3.2.2); a write ack is the header alone. With L2
 * lines longer than the requesting L1's (the GT200 preset's; the constant cache's 64 B) the packet
 * names the requester's line (a copy in pt->held). */
static inline const MemRequest *partition_reply_packet(Partition *pt, const MemRequest *out, uint64_t now,
                                                       uint32_t *bytes, uint32_t *port) {
  MEM_DCHECK(out->sm >= 0, now, pt->name, "reply without a requesting SM");
  const uint32_t l1 = out->unit == MEM_UNIT_L1C ? pt->p.l1c_line : pt->p.l1_line; /* the requester's line */
  const uint32_t data = out->is_write ? 0 : (out->flags & MEM_F_NOALLOC_L1) && out->bytes ? out->bytes : l1;
  *bytes = pt->p.header_bytes + (data < l1 ? data : l1);
  *port = pt->p.sms_per_port > 1 ? (uint32_t)out->sm / pt->p.sms_per_port : (uint32_t)out->sm;
  if (pt->line == l1) return out;
  pt->held = *out;
  pt->held.line_addr = pt->held.addr & ~(uint64_t)(l1 - 1);
  return &pt->held;
}

/* GPGPU-Sim 3.2.2's memory side (gpu-sim.cc gpgpu_sim::cycle): the reply at the head of a
 * sub-partition's queue (top()) enters the network only when icnt_has_buffer() finds room for
 * all its flits in the node's input buffer, else it stays there (gpu_stall_icnt2sh). Here the
 * head is taken from the L2 and kept in `held` until it fits. Returns true while one waits. */
static __attribute__((noinline)) bool partition_reply_hold(Partition *pt, uint64_t now, Icnt *reply) {
  for (;;) {
    if (!pt->has_held) {
      const MemRequest *out = cache_take_reply(pt->l2, now);
      if (!out) return false;
      const MemRequest *r = partition_reply_packet(pt, out, now, &pt->held_bytes, &pt->held_port);
      if (r != &pt->held) pt->held = *r;
      pt->has_held = true;
    }
    if (!icnt_has_room_for(reply, pt->p.id, &pt->held, pt->held_bytes, now)) {
      if (pt->p.sleep && icnt_wait_room(reply, pt->p.id, &pt->held, pt->held_bytes)) pt->nap_at = now;
      return true;
    }
    icnt_push_for(reply, pt->p.id, pt->held_port, &pt->held, pt->held_bytes, now);
    pt->has_held = false;
  }
}

/* The cycles after a nap's tick up to this one: each would have found the held reply still
 * without room (room wakes the partition in the cycle it comes) and, with nap_input, the input
 * queue's head refused by the full reply queue (only taking a reply empties it, and nothing is
 * taken while one is held; no access took the port). */
static __attribute__((noinline)) void partition_nap_end(Partition *pt, uint64_t now) {
  const uint64_t skipped = now - pt->nap_at - 1;
  pt->reply_stalls += skipped;
  if (pt->nap_input) cache_note_retries(pt->l2, CACHE_FAIL_REPLY_QUEUE, skipped);
  pt->nap_at = UINT64_MAX, pt->nap_input = false;
}

void partition_settle(Partition *pt, uint64_t last) {
  if (pt->nap_at == UINT64_MAX || last <= pt->nap_at) return;
  const bool input = pt->nap_input;
  partition_nap_end(pt, last + 1); /* the ticks of nap_at + 1 .. last */
  pt->nap_at = last, pt->nap_input = input;
}

bool partition_tick(Partition *pt, uint64_t now, Icnt *reply) {
  const uint32_t line = pt->line;
  if (pt->nap_at != UINT64_MAX) partition_nap_end(pt, now);
  if (pt->dram_busy) {
    dram_tick(pt->dram, now);
    for (const MemRequest *r; (r = dram_peek_return(pt->dram, now)) != NULL; dram_pop_return(pt->dram))
      if (!cache_fill(pt->l2, r, now)) break;
    pt->dram_busy = !dram_idle(pt->dram);
  }
  if (__builtin_expect(pt->p.reply_hold, 0)) {
    pt->reply_stalls += partition_reply_hold(pt, now, reply);
  } else {
    /* a reply is taken only when the network can take it (icnt_push copies it). Its waits are
     * not counted here: the count alone changed what LTO inlines (+0.7% instructions). */
    for (const MemRequest *out; icnt_can_push(reply, pt->p.id) && (out = cache_take_reply(pt->l2, now));) {
      uint32_t bytes, port;
      const MemRequest *r = partition_reply_packet(pt, out, now, &bytes, &port);
      icnt_push(reply, pt->p.id, port, r, bytes, now);
    }
  }
  while (reqq_ready(&pt->ctrl, now) && dram_can_accept(pt->dram)) {
    const MemRequest *r = &pt->ctrl.head->req;
    uint64_t local = addrmap_local(&pt->p.map, r->line_addr);
    dram_push(pt->dram, r, addrmap_bank(&pt->p.map, local), addrmap_row(&pt->p.map, local), now);
    pt->dram_busy = true;
    reqq_pop(&pt->ctrl);
  }
  for (const MemRequest *m; !reqq_full(&pt->ctrl) && (m = cache_miss_head(pt->l2)) != NULL;
       cache_miss_pop(pt->l2)) {
    ReqSlot *s = reqq_push(&pt->ctrl, m, now + pt->p.ctrl_delay);
    if (!s->req.is_write) s->req.bytes = (uint16_t)line; /* L2 misses fetch whole lines */
  }
  while (reqq_ready(&pt->input, now)) {
    CacheFailReason why = cache_admit_fail(pt->l2, now);
    if (why) { /* what cache_access would return, without the call */
      cache_note_retries(pt->l2, why, 1);
      /* napping: the head waits for the held reply to leave (partition_nap_event) */
      if (why != CACHE_FAIL_REPLY_QUEUE || pt->nap_at != now) return true;
      pt->nap_input = true;
      return false;
    }
    CacheResult res = cache_access_admitted(pt->l2, &pt->input.head->req, now);
    if (res.outcome == CACHE_RESFAIL) return true; /* retried next cycle: back-pressure toward the network */
    reqq_pop(&pt->input);
  }
  return false;
}

/* partition_next_event() once the queues say nothing before t (> now + 1):
 * the DRAM channel may. Out of line, so that the frequent busy case returns
 * without the register saves of the DRAM query. */
static __attribute__((noinline)) uint64_t partition_dram_event(const Partition *pt, uint64_t now,
                                                               uint64_t t) {
  uint64_t x;
  if (pt->dram_busy && !dram_idle(pt->dram) && (x = dram_next_event(pt->dram, now)) < t) t = x;
  return t;
}

/* partition_next_event() of a partition whose tick at `now` began a nap: the held reply and the
 * replies behind it wait for the wake icnt_take_room brings, and so does an input head that the
 * full reply queue refused (nap_input); the rest as for any partition. */
static __attribute__((noinline)) uint64_t partition_nap_event(const Partition *pt, uint64_t now) {
  uint64_t t = pt->nap_input ? UINT64_MAX : reqq_next_ready(&pt->input), x;
  if ((x = reqq_next_ready(&pt->ctrl)) < t) t = x;
  if (t <= now + 1 || cache_miss_head(pt->l2)) return now + 1;
  return partition_dram_event(pt, now, t);
}

/* Once per tick of a partition that is not blocked: inlined into memsys's
 * partition loop at link time (LTO; partition.h keeps it external). */
__attribute__((always_inline)) inline uint64_t partition_next_event(const Partition *pt, uint64_t now) {
  uint64_t t = reqq_next_ready(&pt->input), x;
  if ((x = reqq_next_ready(&pt->ctrl)) < t) t = x;
  if ((x = cache_next_reply(pt->l2)) < t) t = x;
  if (pt->nap_at == now) return partition_nap_event(pt, now);
  if (t <= now + 1 || cache_miss_head(pt->l2) || pt->has_held) return now + 1; /* busy: no DRAM query */
  return partition_dram_event(pt, now, t);
}

bool partition_idle(const Partition *pt) {
  return reqq_empty(&pt->input) && reqq_empty(&pt->ctrl) && cache_idle(pt->l2) && dram_idle(pt->dram) &&
         !pt->has_held;
}

uint64_t partition_reply_stalls(const Partition *pt) { return pt->reply_stalls; }

Cache *partition_l2(const Partition *pt) { return pt->l2; }
DramChannel *partition_dram(const Partition *pt) { return pt->dram; }
const DramParams *partition_dram_params(const Partition *pt) { return &pt->p.dram; }

void partition_dump(const Partition *pt, FILE *out) {
  fprintf(out, "%s: input %u/%u, controller %u/%u%s\n  ", pt->name, pt->input.count, pt->input.cap,
          pt->ctrl.count, pt->ctrl.cap, pt->has_held ? ", a reply held" : "");
  cache_dump(pt->l2, out);
  fputs("  ", out);
  dram_dump(pt->dram, out);
}
