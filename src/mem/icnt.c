/* icnt.c - crossbar timing: per-port flit bandwidth, fixed latency, credit
 * back-pressure, round-robin source arbitration. Time inside a cycle is kept
 * in flit slots (cycle * S + slot, S = the lcm of the source and destination
 * ports' flits per cycle; a flit takes S / rate slots of a port) so fractional
 * packet lengths (5 flits at 2 flits/cycle) cost exactly their bandwidth share.
 * icnt.model = intersim hands the sending side to xbar.c, which delivers into the
 * destination queues here. Depends on reqq.h, xbar.h, addrmap.h only. */
#include "mem/icnt.h"

#include "core/bitmap.h"
#include "core/fastdiv.h"

#include <stdlib.h>
#include <string.h>

#include "mem/mem_assert.h"
#include "mem/reqq.h"

const CfgParam icnt_cfg_params[] = {
    {.key = "latency",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 100000,
     .desc = "cycles from a packet's last flit leaving its source to its arrival"},
    {.key = "flit_size", .type = CFG_INT, .def = "32", .min = 1, .max = 4096, .desc = "bytes per flit"},
    {.key = "header_bytes",
     .type = CFG_INT,
     .def = "8",
     .min = 0,
     .max = 4096,
     .desc = "bytes of address/control per packet (a read request is only this)"},
    {.key = "req_flits_per_cycle",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 1024,
     .desc = "SM -> partition network: bandwidth of a memory partition's port, flits per core cycle "
             "(an SM's port: sm_flits_per_cycle)"},
    {.key = "reply_flits_per_cycle",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 1024,
     .desc = "partition -> SM network: bandwidth of a memory partition's port, flits per core cycle "
             "(an SM's port: sm_flits_per_cycle)"},
    {.key = "sm_flits_per_cycle",
     .type = CFG_INT,
     .def = "1",
     .min = 1,
     .max = 1024,
     .desc = "bandwidth of an SM's own port, both directions, flits per core cycle (GPGPU-Sim 3.2.2: "
             "each crossbar node injects and ejects 1 flit per interconnect cycle)"},
    {.key = "sms_per_port",
     .type = CFG_INT,
     .def = "1",
     .min = 1,
     .max = 64,
     .desc = "SMs sharing one crossbar port (a GPGPU-Sim cluster, -gpgpu_n_cores_per_cluster): their "
             "requests and replies share its bandwidth and queues"},
    {.key = "in_queue",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 65535,
     .desc = "packets queued per source port"},
    {.key = "out_queue",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 65535,
     .desc = "ejection buffer packets per destination port (credits = this + latency x bandwidth in flight)"},
    {.key = "reply_hold",
     .type = CFG_ENUM,
     .def = "gpgpusim",
     .choices = "none|gpgpusim",
     .desc = "what holds replies on their way to the SMs: none (a partition's reply enters the network while "
             "its source queue has a packet free; every arrived reply fills its L1 at once) or gpgpusim "
             "(GPGPU-Sim 3.2.2: a reply enters only while it fits the source's reply_input_flits; each port "
             "ejects one reply per cycle into a reply_fifo-entry response FIFO, which hands one per cycle "
             "to the L1 of its SM)"},
    {.key = "reply_input_flits",
     .type = CFG_INT,
     .def = "34",
     .min = 1,
     .max = 65535,
     .desc = "reply_hold = gpgpusim: flits a partition's replies may hold before the crossbar: intersim2's "
             "input buffer (input_buffer_size, 9) and router input buffer (vc_buf_size) per sub-partition "
             "(GTX480: 2 x (9 + 8); the GT200 preset: 9 + 64)"},
    {.key = "reply_fifo",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 65535,
     .desc = "reply_hold = gpgpusim: replies a port's response FIFO holds (GPGPU-Sim's "
             "-gpgpu_n_cluster_ejection_buffer_size)"},
    {.key = "model",
     .type = CFG_ENUM,
     .def = "intersim",
     .choices = "simple|intersim",
     .desc = "the crossbar: simple (per-port flit rates, a fixed latency, packet credits) or intersim "
             "(GPGPU-Sim 3.2.2's intersim2 crossbar flit by flit: the interface's input, ejection and "
             "boundary buffers, one input-queued router with 1 VC, iSLIP VC and switch allocation, its "
             "pipeline and credits; needs reply_hold = gpgpusim; the intersim_* keys)"},
    {.key = "intersim_vc_buf_size",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 65535,
     .desc = "model = intersim: flits of a router input buffer (its one VC) and of a node's ejection "
             "buffer (the .icnt file's vc_buf_size)"},
    {.key = "intersim_input_buffer_size",
     .type = CFG_INT,
     .def = "9",
     .min = 1,
     .max = 65535,
     .desc = "model = intersim: flits a node's input queue may hold for a new packet to enter "
             "(InterconnectInterface::HasBuffer; input_buffer_size, 9 when the file leaves it 0)"},
    {.key = "intersim_boundary_buffer_size",
     .type = CFG_INT,
     .def = "16",
     .min = 1,
     .max = 65535,
     .desc = "model = intersim: flits a node's boundary buffer holds between ejection and the "
             "consumer's pop (boundary_buffer_size)"},
    {.key = "intersim_internal_speedup",
     .type = CFG_INT,
     .def = "1",
     .min = 1,
     .max = 16,
     .desc = "model = intersim: router internal steps (allocation and switch) per network cycle "
             "(internal_speedup)"},
    {.key = "intersim_clock_ratio",
     .type = CFG_INT,
     .def = "1",
     .min = 1,
     .max = 16,
     .desc = "model = intersim: network cycles per core cycle (GPGPU-Sim's icnt clock over the core "
             "clock)"},
    {.key = "intersim_sub_partitions",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 64,
     .desc = "model = intersim: network nodes per memory partition (-gpgpu_n_sub_partition_per_mchannel; "
             "a packet uses the one its DRAM bank's low bits name); a power of two"},
    {0},
};

/* A source port's last packet under icnt.model = intersim: its line and size, node and flits. */
typedef struct IcntNodeMemo {
  uint64_t line;
  uint32_t bytes, node, flits;
} IcntNodeMemo;

/* A source port: its queue (ready = push cycle, aux = destination | flits << 16),
 * the flit-slot time at which the port is free, and a cycle before which its
 * head packet cannot be sent (ports busy). */
typedef struct IcntSrc {
  ReqQueue q;
  uint64_t free, next;
} IcntSrc;

/* A destination port: its ejection buffer (ready = arrival cycle) and the
 * flit-slot time at which the port is free. */
typedef struct IcntDst {
  ReqQueue q;
  uint64_t free;
  uint64_t pad_; /* 64 bytes, as IcntSrc: a port's address is its index shifted */
} IcntDst;
_Static_assert(sizeof(void *) != 8 || (sizeof(IcntDst) == 64 && sizeof(IcntSrc) == 64),
               "icnt ports: 64 bytes");

struct Icnt {
  IcntParams p;
  char name[32];
  IcntSrc *src;             /* per source port */
  IcntDst *dst;             /* per destination port */
  uint64_t *in_nz, *out_nz; /* bit per source / destination: its queue is not empty (icnt.model = intersim:
                             * in_nz[0] is 1 while the network has work) */
  /* Arrivals without visiting every busy destination. Each non-empty
   * destination queue is in exactly one of: `arrived` (its head has arrived by
   * the cycle of the last icnt_arrivals(), arr_now), or the wheel slot
   * head_ready & wheel_mask, a bitmap of destinations (heads due that cycle,
   * or a multiple of wheel_len cycles later: icnt_arrivals checks). */
  uint64_t *arrived;
  uint64_t *wheel; /* wheel_mask + 1 bitmaps of dst_words words */
  uint32_t wheel_mask, dst_words;
  uint64_t arr_now, arr_next;         /* last cycle icnt_arrivals() merged; the first cycle not merged yet */
  FastDiv div_fpc, div_flit, div_src; /* flits_per_cycle, flit_size, n_src */
  uint32_t src_words;                 /* words of in_nz */
  uint64_t wake;                      /* no source can send before this cycle: the last round's minimum over
                                       * its sources of icnt_send()'s bound; 0 after a push to an empty one */
  uint32_t memo_bytes, memo_flits;    /* the last packet size icnt_push converted, and its flits */
  uint32_t slots;                     /* flit slots per cycle: lcm of the two port rates */
  uint32_t src_cost, dst_cost;        /* slots one flit takes on a source / destination port */
  IcntStats st;
  Xbar *xb;           /* icnt.model = intersim: the network; NULL: the model above */
  IcntNodeMemo *memo; /* intersim: per source port, icnt_src_node()'s last answer */
  uint64_t *room;     /* intersim: icnt_take_room's scratch, a bit per source node */
  FastDiv div_stripe; /* intersim: chunk x partitions of the address map (icnt_node) */
  uint64_t sub_mask;  /* intersim: the bank_mask bits that name the sub-partition (0: linear map) */
  uint32_t room_words, src_shift; /* intersim: words of room; src_nodes = 1 << src_shift */
};

/* xbar.c's delivery: a packet whose tail reached node `out`'s boundary buffer joins its port's
 * destination queue (aux: the node and the flits xbar_pop frees at the pop). */
static void icnt_deliver(void *ctx, uint32_t out, const MemRequest *r, uint32_t flits, uint64_t push,
                         uint64_t ready);

/* The network node of port `port` that packet r uses: its sub-partition, the low bits of its
 * DRAM bank (addrmap_bank's, with the divisions done by multiplication and only the bank bits
 * that matter gathered: this runs for every packet and every cycle a reply waits). */
static inline uint32_t icnt_node(const Icnt *x, uint32_t port, uint32_t nodes, const MemRequest *r) {
  if (nodes == 1) return port;
  const AddrMap *m = x->p.map;
  const uint64_t a = r->line_addr, chunk = m->chunk;
  const uint64_t local = fastdiv_div(&x->div_stripe, a) * chunk + (a - fastdiv_div(&m->div_chunk, a) * chunk);
  if (!x->sub_mask) return port * nodes + (addrmap_bank(m, local) & (nodes - 1));
  return port * nodes + (uint32_t)addrmap_gather(local, x->sub_mask);
}

/* The source node of packet r from port src and its flits: what the port's last packet had, if r
 * is at the same line with the same size (icnt_node depends on nothing else). */
static inline __attribute__((always_inline)) const IcntNodeMemo *
icnt_src_node(Icnt *x, uint32_t src, const MemRequest *r, uint32_t bytes) {
  IcntNodeMemo *m = &x->memo[src];
  if (m->line != r->line_addr || m->bytes != bytes) {
    m->line = r->line_addr, m->bytes = bytes;
    m->node = icnt_node(x, src, x->p.src_nodes, r), m->flits = icnt_flits(x, bytes);
  }
  return m;
}

Icnt *icnt_create(const IcntParams *p, char *err, size_t errlen) {
  if (!p->n_src || !p->n_dst || p->n_dst > 65536 || !p->latency || !p->flits_per_cycle || !p->flit_size ||
      !p->in_queue || !p->out_queue ||
      (p->xbar && (!p->src_nodes || !p->dst_nodes || (p->src_nodes & (p->src_nodes - 1)) ||
                   (p->dst_nodes & (p->dst_nodes - 1))))) {
    snprintf(err, errlen, "%s: invalid interconnect parameters", p->name ? p->name : "icnt");
    return NULL;
  }
  Icnt *x = calloc(1, sizeof *x);
  if (!x) return snprintf(err, errlen, "out of memory"), NULL;
  x->p = *p;
  snprintf(x->name, sizeof x->name, "%s", p->name ? p->name : "icnt");
  x->p.name = x->name;
  x->src = calloc(p->n_src, sizeof *x->src);
  x->dst = calloc(p->n_dst, sizeof *x->dst);
  x->in_nz = calloc(bitmap_words(p->n_src), sizeof *x->in_nz);
  x->out_nz = calloc(bitmap_words(p->n_dst), sizeof *x->out_nz);
  x->dst_words = bitmap_words(p->n_dst);
  x->arrived = calloc(x->dst_words, sizeof *x->arrived);
  /* A wheel a little longer than the usual flight time: almost every head is
   * due within one turn (longer flights just wait another turn). */
  uint32_t wheel_len = 8;
  while (wheel_len < p->latency + 4) wheel_len *= 2;
  x->wheel_mask = wheel_len - 1;
  x->wheel = calloc((size_t)wheel_len * x->dst_words, sizeof *x->wheel);
  uint32_t sf = p->src_flits_per_cycle ? p->src_flits_per_cycle : p->flits_per_cycle;
  uint32_t df = p->dst_flits_per_cycle ? p->dst_flits_per_cycle : p->flits_per_cycle;
  uint32_t g = sf, h = df;
  while (h) {
    uint32_t r = g % h;
    g = h, h = r;
  }
  x->slots = sf / g * df;
  x->src_cost = x->slots / sf, x->dst_cost = x->slots / df;
  x->div_fpc = fastdiv_make(x->slots);
  x->div_flit = fastdiv_make(p->flit_size);
  x->div_src = fastdiv_make(p->n_src);
  x->src_words = bitmap_words(p->n_src);
  x->memo_flits = icnt_flits(x, 0); /* memo_bytes = 0 */
  int bad = !x->src || !x->dst || !x->in_nz || !x->out_nz || !x->arrived || !x->wheel;
  for (uint32_t i = 0; !bad && i < p->n_src; i++) bad |= reqq_init(&x->src[i].q, p->in_queue);
  /* Credits: the ejection buffer plus what the wires hold at full rate, so the
   * latency alone never throttles bandwidth. */
  uint32_t credits = p->out_queue + (p->latency + 1) * df;
  if (!bad && p->xbar) {
    XbarParams xp = *p->xbar;
    xp.n_in = p->n_src * p->src_nodes, xp.n_out = p->n_dst * p->dst_nodes;
    if (!(x->xb = xbar_create(&xp, icnt_deliver, x, err, errlen))) {
      icnt_free(x);
      return NULL;
    }
    if (!(x->memo = calloc(p->n_src, sizeof *x->memo))) bad = 1;
    x->room_words = (xp.n_in + 63) / 64, x->src_shift = (uint32_t)__builtin_ctz(p->src_nodes);
    if (!(x->room = calloc(x->room_words, sizeof *x->room))) bad = 1;
    for (uint32_t i = 0; !bad && i < p->n_src; i++) x->memo[i].bytes = UINT32_MAX; /* no packet yet */
    /* what the port's boundary buffers can hold: a packet has at least one flit */
    credits = p->dst_nodes * xp.boundary_buf;
    const uint32_t nodes = p->src_nodes > p->dst_nodes ? p->src_nodes : p->dst_nodes;
    if (nodes > 1) {
      x->div_stripe = fastdiv_make((uint64_t)p->map->chunk * p->map->parts);
      uint64_t bm = p->map->bank_mask;
      for (uint32_t n = 1; n < nodes && bm; n *= 2, bm &= bm - 1) x->sub_mask |= bm & -bm;
    }
  }
  for (uint32_t i = 0; !bad && i < p->n_dst; i++) bad |= reqq_init(&x->dst[i].q, credits);
  if (bad) {
    icnt_free(x);
    return snprintf(err, errlen, "out of memory"), NULL;
  }
  return x;
}

void icnt_free(Icnt *x) {
  if (!x) return;
  for (uint32_t i = 0; x->src && i < x->p.n_src; i++) reqq_free(&x->src[i].q);
  for (uint32_t i = 0; x->dst && i < x->p.n_dst; i++) reqq_free(&x->dst[i].q);
  free(x->src);
  free(x->dst);
  free(x->in_nz);
  free(x->out_nz);
  free(x->arrived);
  free(x->wheel);
  xbar_free(x->xb);
  free(x->memo);
  free(x->room);
  free(x);
}

uint32_t icnt_flits(const Icnt *x, uint32_t bytes) {
  uint32_t f = (uint32_t)fastdiv_div(&x->div_flit, (uint64_t)bytes + x->p.flit_size - 1);
  return f ? f : 1;
}

/* icnt.model = intersim leaves the source queues empty: true there (icnt_has_room_for decides). */
bool icnt_can_push(const Icnt *x, uint32_t src) { return !reqq_full(&x->src[src].q); }

/* Asked by every partition holding a reply and every SM with a miss, each cycle: inlined there at
 * link time (LTO), which spares the call's saves of the registers icnt_node's divisions take. */
__attribute__((always_inline)) inline bool icnt_has_room_for(Icnt *x, uint32_t src, const MemRequest *r,
                                                             uint32_t bytes, uint64_t now) {
  if (!x->xb) return icnt_has_room(x, src, bytes, now);
  const IcntNodeMemo *m = icnt_src_node(x, src, r, bytes);
  return xbar_has_buffer(x->xb, m->node, m->flits);
}

bool icnt_wait_room(Icnt *x, uint32_t src, const MemRequest *r, uint32_t bytes) {
  if (!x->xb) return false;
  const IcntNodeMemo *m = icnt_src_node(x, src, r, bytes);
  xbar_wait_room(x->xb, m->node, m->flits);
  return true;
}

bool icnt_room_pending(const Icnt *x) { return x->xb && xbar_room_pending(x->xb); }

void icnt_take_room(Icnt *x, uint64_t *ports) {
  xbar_take_room(x->xb, x->room);
  for (uint32_t w = 0; w < x->room_words; w++) {
    for (uint64_t b = x->room[w]; b; b &= b - 1) {
      const uint32_t port = (w * 64 + (uint32_t)__builtin_ctzll(b)) >> x->src_shift;
      ports[port / 64] |= 1ull << (port % 64);
    }
    x->room[w] = 0;
  }
}

/* The packet leaving src's port holds it until slot `free`: its flits after
 * cycle `now` are the slots left past the cycle's end over a flit's cost. The
 * queued packets' flits are summed here (at most in_queue of them), so the
 * send and push paths keep no count for a rule only this call applies. */
bool icnt_has_room(const Icnt *x, uint32_t src, uint32_t bytes, uint64_t now) {
  const IcntSrc *sp = &x->src[src];
  if (reqq_full(&sp->q)) return false;
  if (!x->p.in_flits) return true;
  uint64_t end = (now + 1) * x->slots, flits = icnt_flits(x, bytes);
  if (sp->free > end) flits += (sp->free - end + x->src_cost - 1) / x->src_cost;
  const ReqSlot *h = sp->q.head;
  for (uint32_t i = 0; i < sp->q.count; i++, h = reqq_next(&sp->q, (ReqSlot *)h)) flits += h->aux >> 16;
  return flits <= x->p.in_flits;
}

/* icnt_push and icnt_pop run once per packet, icnt_arrivals once per cycle, in
 * the partitions' and memsys's loops: inlined there at link time (LTO; icnt.h
 * keeps them external). */
#define ICNT_INLINE __attribute__((always_inline)) inline

ICNT_INLINE void icnt_push(Icnt *x, uint32_t src, uint32_t dst, const MemRequest *r, uint32_t bytes,
                           uint64_t now) {
  MEM_DCHECK(src < x->p.n_src && dst < x->p.n_dst, now, x->name, "bad port %u -> %u", src, dst);
  MEM_DCHECK(!reqq_full(&x->src[src].q), now, x->name, "push to full source queue %u", src);
  MEM_DCHECK(!x->xb, now, x->name, "icnt_push with icnt.model = intersim (icnt_push_for)");
  /* ready holds the push cycle (for latency stats); aux packs destination and flits. */
  /* Packets come in a few sizes (a read request, a line of data): most pushes reuse the last division. */
  if (bytes != x->memo_bytes) {
    x->memo_flits = icnt_flits(x, bytes), x->memo_bytes = bytes;
    MEM_ASSERT(x->memo_flits < 65536, now, x->name,
               "packet too large"); /* aux's 16 bits (dst < n_dst <= 65536) */
  }
  uint32_t flits = x->memo_flits;
  IcntSrc *sp = &x->src[src];
  if (reqq_empty(&sp->q)) sp->next = x->wake = 0; /* a new head packet */
  reqq_push(&sp->q, r, now)->aux = dst | (flits << 16);
  bitmap_set(x->in_nz, src);
  x->st.bytes += bytes;
}

/* Once per packet, from the partitions' replies and the SMs' misses: inlined there at link time. */
__attribute__((always_inline)) inline void icnt_push_for(Icnt *x, uint32_t src, uint32_t dst,
                                                         const MemRequest *r, uint32_t bytes, uint64_t now) {
  if (!x->xb) {
    icnt_push(x, src, dst, r, bytes, now);
    return;
  }
  const IcntNodeMemo *m = icnt_src_node(x, src, r, bytes);
  MEM_ASSERT(m->flits < 65536, now, x->name, "packet too large"); /* a destination queue's aux */
  xbar_push(x->xb, m->node, icnt_node(x, dst, x->p.dst_nodes, r), r, m->flits, now);
  x->st.bytes += bytes;
  x->wake = 0, x->in_nz[0] = 1; /* icnt_tick calls icnt_round, which ticks the network */
}

/* Puts destination d, whose head packet arrives at `ready` > arr_now, on the wheel. */
static void icnt_arm(Icnt *x, uint32_t d, uint64_t ready) {
  bitmap_set(&x->wheel[(size_t)(ready & x->wheel_mask) * x->dst_words], d);
}

/* Sends source s's head packets while its port's flit slots in [base, limit)
 * allow. A source whose port stays busy past this cycle, or whose head waits
 * for a busy destination port, gets `next`: a lower bound on the cycle of
 * its next send (port slots only move later), so later rounds skip it.
 * Returns a cycle > now before which s cannot send (UINT64_MAX: s is empty). */
static inline __attribute__((always_inline)) uint64_t icnt_send(Icnt *x, uint32_t s, uint64_t now,
                                                                uint64_t base, uint64_t limit, uint64_t fpc) {
  IcntSrc *sp = &x->src[s];
  ReqQueue *in = &sp->q;
  do {
    const ReqSlot *h = in->head;
    uint32_t d = h->aux & 0xffff, flits = h->aux >> 16;
    IcntDst *dp = &x->dst[d];
    uint64_t start = base;
    if (sp->free > start) start = sp->free;
    if (dp->free > start) start = dp->free;
    if (start >= limit) return sp->next = fastdiv_div(&x->div_fpc, start);
    if (reqq_full(&dp->q)) {
      x->st.credit_stalls++;
      return now + 1;
    }
    /* each port is busy for its own rate; the tail leaves at the slower one's pace */
    uint64_t send = start + (uint64_t)flits * x->src_cost, dend = start + (uint64_t)flits * x->dst_cost;
    uint64_t end = send > dend ? send : dend;
    sp->free = send, dp->free = dend;
    uint64_t arrival = fastdiv_div(&x->div_fpc, end + fpc - 1) - 1 + x->p.latency;
    x->st.packets++;
    x->st.flits += flits;
    x->st.latency_sum += arrival - h->ready;
    reqq_push(&dp->q, &h->req, arrival);
    if (dp->q.count == 1) { /* a new head, due after now (latency >= 1) */
      bitmap_set(x->out_nz, d);
      icnt_arm(x, d, arrival);
    }
    reqq_pop(in);
    if (reqq_empty(in)) {
      bitmap_clear(x->in_nz, s);
      return UINT64_MAX;
    }
    if (send >= limit) /* the port is busy until `send`: the next head waits at least that long */
      return sp->next = fastdiv_div(&x->div_fpc, send);
  } while (1);
}

/* One arbitration round: sources in rotating order from `first`, each sending
 * as many head packets as its port's flit slots in this cycle allow. Only
 * sources with a queued packet are visited: with 64 sources or more, the
 * round reads word fw of in_nz from bit `first` on, the other words in order,
 * then word fw below `first` again (serving source s clears at most bit s,
 * which the round has passed). */
static __attribute__((noinline)) void icnt_round_words(Icnt *x, uint64_t now, uint32_t first) {
  const uint32_t fw = first / 64, words = x->src_words;
  const uint64_t from_first = ~0ull << (first % 64);
  const uint64_t fpc = x->slots, base = now * fpc, limit = base + fpc;
  uint64_t wake = UINT64_MAX;
  for (uint32_t k = 0, w = fw; k <= words; k++, w = w + 1 == words ? 0 : w + 1) {
    uint64_t bits = x->in_nz[w];
    if (k == 0)
      bits &= from_first;
    else if (k == words)
      bits &= ~from_first;
    for (; bits; bits &= bits - 1) {
      uint32_t s = w * 64 + (uint32_t)__builtin_ctzll(bits);
      uint64_t t = x->src[s].next;
      if (t <= now) t = icnt_send(x, s, now, base, limit, fpc);
      if (t < wake) wake = t;
    }
  }
  x->wake = wake;
}

/* The round. Fewer than 64 sources (one word of in_nz, the usual crossbar):
 * the word rotated right by `first` lists them in round order, one loop
 * (sending clears no bit the round has yet to visit). icnt_send is inlined
 * into each loop (always_inline: as a call its spills cost more). */
static __attribute__((noinline)) void icnt_round(Icnt *x, uint64_t now) {
  if (__builtin_expect(x->xb != NULL, 0)) { /* icnt.model = intersim: wake stays 0 while it has work */
    xbar_tick(x->xb, now);
    x->st.credit_stalls = xbar_inject_stalls(x->xb);
    const bool busy = xbar_busy(x->xb);
    x->wake = busy ? 0 : UINT64_MAX;
    x->in_nz[0] = busy; /* what icnt_next_event() reads: a source has work */
    return;
  }
  /* The first source served rotates with the cycle number, not with the
   * number of ticks, so skipping idle cycles cannot change arbitration. */
  const uint32_t first = (uint32_t)fastdiv_mod(&x->div_src, now);
  if (x->src_words != 1) {
    icnt_round_words(x, now, first);
    return;
  }
  const uint64_t fpc = x->slots, base = now * fpc, limit = base + fpc, in = x->in_nz[0];
  uint64_t wake = UINT64_MAX;
  for (uint64_t bits = first ? in >> first | in << (64 - first) : in; bits; bits &= bits - 1) {
    uint32_t s = ((uint32_t)__builtin_ctzll(bits) + first) & 63;
    uint64_t t = x->src[s].next;
    if (t <= now) t = icnt_send(x, s, now, base, limit, fpc);
    if (t < wake) wake = t;
  }
  x->wake = wake;
}

void icnt_tick(Icnt *x, uint64_t now) {
  if (now >= x->wake) icnt_round(x, now); /* else the round would skip every source (or there is none) */
}

static void icnt_deliver(void *ctx, uint32_t out, const MemRequest *r, uint32_t flits, uint64_t push,
                         uint64_t ready) {
  Icnt *x = ctx;
  const uint32_t d = out / x->p.dst_nodes;
  IcntDst *dp = &x->dst[d];
  MEM_ASSERT(!reqq_full(&dp->q), ready, x->name, "destination queue %u full", d);
  reqq_push(&dp->q, r, ready)->aux = out | (flits << 16);
  x->st.packets++;
  x->st.flits += flits;
  x->st.latency_sum += ready - push;
  if (dp->q.count == 1) {
    bitmap_set(x->out_nz, d);
    icnt_arm(x, d, ready);
  }
}

const MemRequest *icnt_peek(const Icnt *x, uint32_t dst, uint64_t now) {
  const ReqQueue *q = &x->dst[dst].q;
  return reqq_ready(q, now) ? &q->head->req : NULL;
}

ICNT_INLINE const MemRequest *icnt_arrived_head(const Icnt *x, uint32_t dst) {
  return &x->dst[dst].q.head->req;
}

/* Merges word w of a wheel slot, b (already cleared there), into `arrived`. */
static inline void icnt_merge_word(Icnt *x, uint32_t w, uint64_t b, uint64_t now) {
  for (; b; b &= b - 1) {
    uint32_t d = w * 64 + (uint32_t)__builtin_ctzll(b);
    uint64_t r = x->dst[d].q.head_ready;
    if (r <= now)
      bitmap_set(x->arrived, d);
    else
      icnt_arm(x, d, r); /* due a turn (or more) later */
  }
}

/* Merges the wheel slots of cycles arr_next..now into `arrived`. */
static __attribute__((noinline)) const uint64_t *icnt_merge(Icnt *x, uint64_t now) {
  uint64_t from = x->arr_next;
  if (now >= from && now - from > x->wheel_mask) from = now - x->wheel_mask; /* a long skip: each slot once */
  for (uint64_t t = from; t <= now; t++) {
    uint64_t *slot = &x->wheel[(size_t)(t & x->wheel_mask) * x->dst_words];
    for (uint32_t w = 0; w < x->dst_words; w++) {
      uint64_t b = slot[w];
      slot[w] = 0;
      icnt_merge_word(x, w, b, now);
    }
  }
  if (now >= from) x->arr_now = now, x->arr_next = now + 1;
  return x->arrived;
}

/* The usual call, the cycle after the last one, merges one slot inline. */
ICNT_INLINE const uint64_t *icnt_arrivals(Icnt *x, uint64_t now) {
  if (now != x->arr_next) return icnt_merge(x, now);
  if (x->dst_words == 1) { /* fewer than 64 destinations: a slot is one word */
    uint64_t *slot = &x->wheel[now & x->wheel_mask], b = *slot;
    if (b) *slot = 0, icnt_merge_word(x, 0, b, now);
  } else {
    uint64_t *slot = &x->wheel[(size_t)(now & x->wheel_mask) * x->dst_words];
    for (uint32_t w = 0; w < x->dst_words; w++)
      if (slot[w]) {
        uint64_t b = slot[w];
        slot[w] = 0;
        icnt_merge_word(x, w, b, now);
      }
  }
  x->arr_now = now, x->arr_next = now + 1;
  return x->arrived;
}

ICNT_INLINE const MemRequest *icnt_pop(Icnt *x, uint32_t dst) {
  ReqQueue *q = &x->dst[dst].q;
  if (__builtin_expect(x->xb != NULL, 0)) xbar_pop(x->xb, q->head->aux & 0xffff, q->head->aux >> 16);
  reqq_pop(q);
  if (reqq_empty(q)) {
    bitmap_clear(x->out_nz, dst);
    bitmap_clear(x->arrived, dst);
    return NULL;
  }
  if (q->head_ready > x->arr_now) {
    bitmap_clear(x->arrived, dst);
    icnt_arm(x, dst, q->head_ready);
    return NULL;
  }
  return &q->head->req;
}

uint64_t icnt_next_event(const Icnt *x, uint64_t now) {
  uint64_t t = UINT64_MAX;
  for (uint32_t w = 0; w < x->src_words; w++)
    if (x->in_nz[w]) return now + 1;
  BITMAP_FOREACH(d, x->out_nz, 0, x->p.n_dst) {
    const ReqSlot *h = x->dst[d].q.head;
    uint64_t r = h->ready > now ? h->ready : now + 1;
    if (r < t) t = r;
  }
  return t;
}

bool icnt_idle(const Icnt *x) {
  if (x->xb && xbar_busy(x->xb)) return false;
  for (uint32_t s = 0; s < x->p.n_src; s++)
    if (!reqq_empty(&x->src[s].q)) return false;
  for (uint32_t d = 0; d < x->p.n_dst; d++)
    if (!reqq_empty(&x->dst[d].q)) return false;
  return true;
}

const IcntStats *icnt_stats(const Icnt *x) { return &x->st; }

/* The network's statistics (stats.h). */
void icnt_stats_emit(const IcntStats *s, StatsOut *o) {
  STAT_U64(o, "packets", "packets", STAT_SUM, STAT_NEUTRAL, "packets delivered", s->packets);
  STAT_U64(o, "flits", "flits", STAT_SUM, STAT_NEUTRAL, "flits delivered", s->flits);
  STAT_U64(o, "bytes", "bytes", STAT_SUM, STAT_NEUTRAL, "payload bytes delivered", s->bytes);
  STAT_F64(o, "avg_latency", "cycles", STAT_MEAN, STAT_LOWER, 4, "cycles from a packet's push to its arrival",
           s->packets ? (double)s->latency_sum / (double)s->packets : 0.0);
  STAT_U64(o, "credit_stalls", "cycles", STAT_SUM, STAT_LOWER,
           "cycles a head packet found its destination full", s->credit_stalls);
}

void icnt_dump(const Icnt *x, FILE *out) {
  fprintf(out, "%s:", x->name);
  for (uint32_t s = 0; s < x->p.n_src; s++)
    if (x->src[s].q.count) fprintf(out, " in[%u]=%u", s, x->src[s].q.count);
  for (uint32_t d = 0; d < x->p.n_dst; d++)
    if (x->dst[d].q.count) fprintf(out, " out[%u]=%u", d, x->dst[d].q.count);
  if (x->xb) xbar_dump(x->xb, out);
  fputc('\n', out);
}
