/* xbar.c - GPGPU-Sim 3.2.2's intersim2 crossbar, one subnet, as config_fermi_islip.icnt and
 * ccws_38.icnt instantiate it: topology fly with n = 1 (one k x k iq_router), routing_delay 0,
 * vc_alloc_delay 1, sw_alloc_delay 1, st_final_delay 1, credit_delay 0, 1 VC, iSLIP with 1
 * iteration, wait_for_tail_credit 0, unbounded output buffers, channels of latency 1. Each
 * function names the intersim2 function it follows. Each phase visits only the nodes with work in
 * it, listed by bitmasks (XMask), in node order as intersim2 does. The router's credits (and with
 * internal speedup 1 the interface's) are counted where they are sent and discounted while on
 * their way, not read from a channel. With internal speedup 1 a flit bound for an empty ejection
 * buffer with room behind it is booked into the boundary buffer at its switch grant instead of
 * being visited there (xbar_switch_grant). Depends on mem_req.h only. */
#include "mem/xbar.h"

#include <stdlib.h>
#include <string.h>

/* A flit is a word: its packet's pool index << 2 | head << 1 | tail. */
#define XF_TAIL 1u
#define XF_HEAD 2u
#define XF_PKT(f) ((f) >> 2)

typedef struct XPkt {
  MemRequest req;
  uint64_t push;
  uint32_t out, flits;
  uint32_t next_free;
} XPkt;

/* A growable FIFO of words. */
typedef struct XRing {
  uint32_t *v;
  uint32_t cap, head, n;
} XRing;

enum { XS_IDLE, XS_VC_ALLOC, XS_ACTIVE }; /* VC::idle, VC::vc_alloc, VC::active (vc.hpp) */

/* An injecting node: the interface's input queue and BufferState for the router input it
 * feeds, the injection channel and its credit channel, and that router input (1 VC). Aligned
 * to cache lines, which also makes its size a power of two (indexing is a shift). */
typedef struct XIn {
  _Alignas(64) XRing iq; /* GPUTrafficManager::_input_queue: packets (pool indices) */
  uint32_t iq_flits;     /* flits in it not yet injected (HasBuffer counts these) */
  uint32_t iq_left;      /* flits of its head packet not yet injected (0: none of them injected yet) */
  uint32_t inj_occ;      /* _buf_states[n]: flits the router input buffer holds or will, less (internal
                          * speedup 1) the credit of a switch grant in network cycle cdue - 2 */
  bool blocked;          /* iq holds a flit and inj_occ = vc_buf: it waits for a credit (XMask) */
  uint32_t chan[2];      /* injection channel by step parity: flit + 1, 0 none */
  uint8_t cred[2];       /* credit channel back to the interface, by step parity (internal speedup > 1) */
  uint64_t cdue;         /* internal speedup 1: the network cycle the last switch grant's credit arrives */
  uint32_t cred_q;       /* router's _credit_buffer: credits not yet sent (one per cycle) */
  XRing buf;             /* router input buffer */
  uint8_t state;         /* of its VC */
  bool vca, swa;         /* waiting in _vc_alloc_vcs / _sw_alloc_vcs */
  uint32_t outp;         /* output of the packet at the buffer's front */
  uint32_t room_at;      /* xbar_wait_room: iq_flits at which a waiting packet fits (UINT32_MAX: none) */
} XIn;

/* An ejecting node: the router output (its BufferState for the ejection buffer, the output VC's
 * owner, the allocators' grant pointers, the crossbar and output buffer), the ejection channel
 * and its credit channel, and the interface's ejection and boundary buffers. Aligned as XIn. */
typedef struct XOut {
  _Alignas(64) uint32_t occ; /* flits sent to the ejection buffer, not booked, and not yet in the
                              * boundary buffer; with the credits on their way (due[]) it makes
                              * _next_buf[o] */
  int32_t owner;             /* input holding the output VC (BufferState::_in_use_by), -1 none */
  uint32_t gptr;             /* VC allocator's iSLIP grant pointer (iSLIP_Sparse::_gptrs) */
  uint32_t xfer;             /* flit granted the switch, in the crossbar (+1, 0 none) */
  XRing obuf;                /* _output_buffer (output_buffer_size -1: unbounded) */
  uint32_t chan[4];          /* ejection channel by the network cycle it is read in, mod 4 (flit + 1) */
  uint64_t due[4];           /* at d & 3: a network cycle d in which a flit's credit reaches the
                              * router (2 cycles after the flit entered the boundary buffer; a booked
                              * flit's from its grant on). At most one flit enters a cycle, so the
                              * credits a grant in cycle s waits for (d > s: flits entering in s - 1
                              * to s + 2) are all here */
  XRing ej;                  /* InterconnectInterface::_ejection_buffer */
  uint32_t fill;             /* occ, plus the flits in _boundary_buffer (whole packets not popped yet
                              * and the flits of one whose tail has not come), plus the booked flits
                              * (xbar_switch_grant) not there yet: only a grant and a pop change it */
  uint32_t book_lim;         /* Xbar.book_room while ej is empty, else 0: no flit is booked */
} XOut;

/* The nodes with work in each phase, a bit per node: a node whose bit is clear would do
 * nothing there, so skipping it changes no state. Each bit is set where its work is queued and
 * cleared where the last of it is done. A phase reads each word once, when its turn comes, and
 * visits its bits in node order; visiting a node changes only that node's bit of the mask being
 * walked, so the walk sees what a pass over every node would. A head that finds its output's VC
 * held leaves in_vca and in_alloc for the output's `waiters` until the holder's tail frees it:
 * meanwhile it would neither request nor count a conflict. A blocked node (XIn) stays out of
 * in_go: until a credit comes (in_ev) each network cycle would only count its stall, which
 * n_blocked counts for all of them at once. */
typedef struct XMask {
  uint64_t *in_ev[2];  /* by step parity: chan[ph] holds a flit, cred[ph] a credit (internal speedup
                        * > 1), or (internal speedup 1) a blocked node's credit arrives */
  uint64_t *in_go;     /* iq not empty and the node not blocked */
  uint64_t *in_alloc;  /* vca or swa: the input takes part in the router's allocation */
  uint64_t *in_vca;    /* vca, and the output's VC was free when the input last looked */
  uint64_t *in_cq;     /* cred_q != 0 */
  uint64_t *out_ev[4]; /* by network cycle mod 4: chan holds a flit read then */
  uint64_t *out_ej;    /* ej not empty */
  uint64_t *out_xfer;  /* xfer != 0 */
  uint64_t *out_ob;    /* obuf not empty */
  uint64_t *in_room;   /* a wait of xbar_wait_room was met (xbar_take_room clears it) */
} XMask;

struct Xbar {
  XbarParams p;
  XbarDeliver deliver;
  void *ctx;
  XIn *in;
  XOut *out;
  XPkt *pool;
  uint32_t pool_cap, pool_free;
  uint64_t live;        /* flits pushed and not yet in a boundary buffer, plus credits on their way */
  uint32_t cred_due[8]; /* at s & 7: credits that reach their reader in network cycle s */
  uint64_t *waiters;    /* per output, in_words words: the inputs whose heads wait for its VC */
  int32_t *vc_grant;    /* per output: input granted its VC in internal step vc_stamp[o] */
  uint64_t *vc_stamp;   /* ... (an older stamp: no grant this internal step) */
  uint64_t istep;       /* internal steps so far */
  uint32_t n_blocked;   /* inputs blocked */
  bool room_any;        /* m.in_room has a bit set */
  XMask m;
  uint64_t *mwords; /* the storage of m's masks */
  uint32_t in_words, out_words;
  bool small;         /* one-word masks and internal speedup 1: xbar_step_small steps it */
  uint32_t book_room; /* boundary_buf (0 with by_flit: no flit is booked, xbar_switch_grant) */
  uint32_t vc_sure;   /* vc_buf - 4 (or 0): an output with fewer flits in occ has a credit */
  uint64_t inject_stalls, vc_conflicts;
};

/* ---- small pieces ---- */

/* Doubles r's storage (capacities are powers of two). */
static __attribute__((noinline)) int xring_grow(XRing *r) {
  uint32_t cap = r->cap ? r->cap * 2 : 8;
  uint32_t *v = malloc(cap * sizeof *v);
  if (!v) return -1;
  for (uint32_t i = 0; i < r->n; i++) v[i] = r->v[(r->head + i) & (r->cap - 1)];
  free(r->v);
  r->v = v, r->cap = cap, r->head = 0;
  return 0;
}
static inline int xring_push(XRing *r, uint32_t w) {
  if (r->n == r->cap && xring_grow(r)) return -1;
  r->v[(r->head + r->n) & (r->cap - 1)] = w;
  r->n++;
  return 0;
}
static inline uint32_t xring_front(const XRing *r) { return r->v[r->head]; }
static inline uint32_t xring_pop(XRing *r) {
  uint32_t w = r->v[r->head];
  r->head = (r->head + 1) & (r->cap - 1);
  r->n--;
  return w;
}

/* Bit i of a mask of `words` words: with words a constant 1 (networks of up to 64 nodes, the
 * step's one-word instantiation) the word index folds away. */
static inline void xm_set(uint64_t *m, uint32_t i, uint32_t words) {
  if (words == 1)
    m[0] |= 1ull << i;
  else
    m[i >> 6] |= 1ull << (i & 63);
}
static inline void xm_clr(uint64_t *m, uint32_t i, uint32_t words) {
  if (words == 1)
    m[0] &= ~(1ull << i);
  else
    m[i >> 6] &= ~(1ull << (i & 63));
}
/* How far node i comes after pointer p in round-robin order over n nodes (i, p < n), without
 * a division. */
static inline uint32_t xrr_dist(uint32_t i, uint32_t p, uint32_t n) {
  return i - p + (n & -(uint32_t)(i < p));
}

/* The node of the lowest set bit of word w of a mask. */
#define XM_BIT(w, b) ((w) << 6 | (uint32_t)__builtin_ctzll(b))

static void xbar_oom(void) {
  fprintf(stderr, "warpsim: out of memory in the intersim crossbar\n");
  abort();
}

/* n zeroed elements of `size` bytes (a multiple of 64), aligned to 64 bytes. */
static void *xbar_lines(size_t n, size_t size) {
  void *v = aligned_alloc(64, n * size);
  if (v) memset(v, 0, n * size);
  return v;
}

Xbar *xbar_create(const XbarParams *p, XbarDeliver deliver, void *ctx, char *err, size_t errlen) {
  if (!p->n_in || !p->n_out || !p->vc_buf || !p->input_buf || !p->boundary_buf || !p->internal_speedup ||
      !p->steps || !p->flit_size) {
    snprintf(err, errlen, "intersim crossbar: invalid parameters");
    return NULL;
  }
  Xbar *x = calloc(1, sizeof *x);
  if (!x) return snprintf(err, errlen, "out of memory"), NULL;
  x->p = *p, x->deliver = deliver, x->ctx = ctx;
  x->in = xbar_lines(p->n_in, sizeof *x->in);
  x->out = xbar_lines(p->n_out, sizeof *x->out);
  x->vc_grant = calloc(p->n_out, sizeof *x->vc_grant);
  x->vc_stamp = calloc(p->n_out, sizeof *x->vc_stamp);
  x->waiters = calloc((size_t)p->n_out * ((p->n_in + 63) / 64), sizeof *x->waiters);
  x->pool_free = UINT32_MAX;
  x->in_words = (p->n_in + 63) / 64, x->out_words = (p->n_out + 63) / 64;
  x->small = x->in_words == 1 && x->out_words == 1 && p->internal_speedup == 1;
  x->book_room = p->by_flit ? 0 : p->boundary_buf;
  x->vc_sure = p->vc_buf > 4 ? p->vc_buf - 4 : 0;
  x->mwords = calloc(7 * (size_t)x->in_words + 7 * (size_t)x->out_words, sizeof *x->mwords);
  if (!x->in || !x->out || !x->vc_grant || !x->vc_stamp || !x->waiters || !x->mwords) {
    xbar_free(x);
    return snprintf(err, errlen, "out of memory"), NULL;
  }
  for (uint32_t o = 0; o < p->n_out; o++) x->out[o].owner = -1, x->out[o].book_lim = x->book_room;
  for (uint32_t i = 0; i < p->n_in; i++) x->in[i].room_at = UINT32_MAX;
  uint64_t *w = x->mwords;
  uint64_t **in_masks[] = {&x->m.in_ev[0], &x->m.in_ev[1], &x->m.in_go,  &x->m.in_alloc,
                           &x->m.in_vca,   &x->m.in_cq,    &x->m.in_room};
  uint64_t **out_masks[] = {&x->m.out_ev[0], &x->m.out_ev[1], &x->m.out_ev[2], &x->m.out_ev[3],
                            &x->m.out_ej,    &x->m.out_xfer,  &x->m.out_ob};
  for (size_t k = 0; k < sizeof in_masks / sizeof *in_masks; k++) *in_masks[k] = w, w += x->in_words;
  for (size_t k = 0; k < sizeof out_masks / sizeof *out_masks; k++) *out_masks[k] = w, w += x->out_words;
  return x;
}

void xbar_free(Xbar *x) {
  if (!x) return;
  for (uint32_t i = 0; x->in && i < x->p.n_in; i++) free(x->in[i].iq.v), free(x->in[i].buf.v);
  for (uint32_t o = 0; x->out && o < x->p.n_out; o++) free(x->out[o].obuf.v), free(x->out[o].ej.v);
  free(x->in);
  free(x->out);
  free(x->pool);
  free(x->vc_grant);
  free(x->vc_stamp);
  free(x->waiters);
  free(x->mwords);
  free(x);
}

/* InterconnectInterface::HasBuffer: _input_queue[subnet][node][0].size() + n_flits <= capacity. */
bool xbar_has_buffer(const Xbar *x, uint32_t in, uint32_t flits) {
  return x->in[in].iq_flits + flits <= x->p.input_buf;
}

/* A packet of `flits` flits waits outside node in (HasBuffer said no): the injection that leaves
 * room for it sets the node's bit for xbar_take_room, so the waiter need not ask every cycle. Only
 * injection frees room in the input queue, and only the waiter's own push takes it. */
void xbar_wait_room(Xbar *x, uint32_t in, uint32_t flits) {
  /* HasBuffer said no: iq_flits > input_buf - flits (>= 0: a packet fits an empty queue), and only
   * injection changes iq_flits until the waiter pushes, one flit at a time */
  x->in[in].room_at = x->p.input_buf - flits;
}

bool xbar_room_pending(const Xbar *x) { return x->room_any; }

/* ORs the nodes whose waits were met into nodes[] (in_words words) and forgets them. */
void xbar_take_room(Xbar *x, uint64_t *nodes) {
  for (uint32_t w = 0; w < x->in_words; w++) nodes[w] |= x->m.in_room[w], x->m.in_room[w] = 0;
  x->room_any = false;
}

/* InterconnectInterface::Push -> GPUTrafficManager::_GeneratePacket: the packet's flits join the
 * node's input queue (one pool entry stands for them). */
/* Doubles the packet pool; its entries are found by index. */
static __attribute__((noinline)) void xbar_pool_grow(Xbar *x) {
  uint32_t cap = x->pool_cap ? x->pool_cap * 2 : 64;
  XPkt *pool = realloc(x->pool, cap * sizeof *pool);
  if (!pool) xbar_oom();
  for (uint32_t i = x->pool_cap; i < cap; i++) pool[i].next_free = i + 1 < cap ? i + 1 : UINT32_MAX;
  x->pool = pool, x->pool_free = x->pool_cap, x->pool_cap = cap;
}

/* Once per packet, from icnt_push_for: inlined there at link time (LTO; xbar.h keeps it external). */
__attribute__((always_inline)) inline void xbar_push(Xbar *x, uint32_t in, uint32_t out, const MemRequest *r,
                                                     uint32_t flits, uint64_t now) {
  if (x->pool_free == UINT32_MAX) xbar_pool_grow(x);
  uint32_t k = x->pool_free;
  XPkt *pk = &x->pool[k];
  x->pool_free = pk->next_free;
  pk->req = *r, pk->push = now, pk->out = out, pk->flits = flits ? flits : 1;
  XIn *ip = &x->in[in];
  ip->room_at = UINT32_MAX; /* the waiter's packet, or one pushed after room came: no wait stands */
  if (xring_push(&ip->iq, k)) xbar_oom();
  if (!ip->blocked) xm_set(x->m.in_go, in, x->in_words);
  ip->iq_flits += pk->flits;
  x->live += pk->flits;
}

void xbar_pop(Xbar *x, uint32_t out, uint32_t flits) { x->out[out].fill -= flits; }

bool xbar_busy(const Xbar *x) { return x->live != 0; }
uint64_t xbar_inject_stalls(const Xbar *x) { return x->inject_stalls; }
uint64_t xbar_vc_conflicts(const Xbar *x) { return x->vc_conflicts; }

/* ---- the router: IQRouter::_InternalStep for 1 VC and a single router ---- */

/* A flit enters input i's buffer (IQRouter::_InputQueuing): a head finding the VC idle starts
 * VC allocation (routing_delay 0: lookahead route = its destination); a flit reaching the front
 * of an active VC requests the switch. */
static inline __attribute__((always_inline)) void xbar_input_queuing(Xbar *x, uint32_t i, uint32_t f,
                                                                     const uint32_t iw) {
  XIn *ip = &x->in[i];
  if (xring_push(&ip->buf, f)) xbar_oom();
  if (ip->state == XS_IDLE) {
    ip->state = XS_VC_ALLOC, ip->vca = true, ip->outp = x->pool[XF_PKT(f)].out;
    xm_set(x->m.in_alloc, i, iw), xm_set(x->m.in_vca, i, iw);
  } else if (ip->state == XS_ACTIVE && ip->buf.n == 1) {
    ip->swa = true;
    xm_set(x->m.in_alloc, i, iw);
  }
}

/* _VCAllocEvaluate with iSLIP_Sparse::Allocate: each input with a head waiting requests its
 * output's VC if no packet holds it (vc_busy_when_full 0: a full buffer does not matter); each
 * such output grants the first requester at or after its pointer (vc_grant, stamped st). With
 * one request per input the accept step always takes the grant. */
static inline __attribute__((always_inline)) void xbar_vc_evaluate(Xbar *x, uint64_t st, const uint32_t iw) {
  const uint32_t n_in = x->p.n_in;
  XMask *m = &x->m;
  for (uint32_t w = 0; w < iw; w++)
    for (uint64_t b = m->in_vca[w]; b; b &= b - 1) {
      const uint32_t i = XM_BIT(w, b), o = x->in[i].outp;
      const XOut *op = &x->out[o];
      if (op->owner >= 0) { /* no request, no grant to anyone for o: nothing to do until it frees */
        m->in_vca[w] &= ~(b & -b), m->in_alloc[w] &= ~(b & -b);
        x->waiters[(size_t)o * iw + w] |= b & -b;
        continue;
      }
      int32_t g = x->vc_stamp[o] == st ? x->vc_grant[o] : -1;
      if (g < 0 || xrr_dist(i, op->gptr, n_in) < xrr_dist((uint32_t)g, op->gptr, n_in))
        x->vc_grant[o] = (int32_t)i, x->vc_stamp[o] = st;
    }
}

/* _VCAllocUpdate for input i, whose head asked for its output's VC in internal step st: granted,
 * the VC becomes active (TakeBuffer) and asks for the switch in the next internal step;
 * otherwise a grant to another input counts a conflict. */
static inline __attribute__((always_inline)) void xbar_vc_update(Xbar *x, uint32_t i, uint64_t st,
                                                                 const uint32_t iw) {
  XIn *ip = &x->in[i];
  const int32_t g = x->vc_stamp[ip->outp] == st ? x->vc_grant[ip->outp] : -1;
  if (g == (int32_t)i) {
    XOut *op = &x->out[ip->outp];
    op->owner = (int32_t)i, op->gptr = (i + 1) & -(uint32_t)(i + 1 < x->p.n_in);
    ip->state = XS_ACTIVE, ip->vca = false, ip->swa = true;
    xm_clr(x->m.in_vca, i, iw);
  } else {
    x->vc_conflicts += g >= 0; /* another input won the output's VC */
  }
}

/* A tail has left for output o: its VC frees (wait_for_tail_credit 0), and the heads waiting for
 * it request it in the next internal step. */
static inline __attribute__((always_inline)) void xbar_vc_free(Xbar *x, uint32_t o, const uint32_t iw) {
  x->out[o].owner = -1;
  for (uint32_t v = 0; v < iw; v++) {
    uint64_t *wt = &x->waiters[(size_t)o * iw + v];
    x->m.in_vca[v] |= *wt, x->m.in_alloc[v] |= *wt, *wt = 0;
  }
}

/* What a switch grant leaves for after the VC allocation (xbar_step_small, one-word masks): the
 * outputs whose VCs tails freed, the inputs whose next heads ask for a VC. */
typedef struct XDefer {
  uint64_t freed, rearm;
} XDefer;

/* _SWAllocEvaluate/_SWAllocUpdate for active input i (ip): with a credit for its output VC it
 * requests the switch and is granted it (xbar_internal_step says why). The credits of the flits
 * that entered the boundary buffer in this network cycle and the last have not reached the router
 * yet. The granted flit leaves the input buffer (a credit goes back), takes an ejection-buffer
 * credit, and a tail frees the output VC (wait_for_tail_credit 0). direct (internal speedup 1): the flit goes
 * onto the ejection channel and the credit back to the interface at once, and a blocked node's bit is set in
 * *wake, the mask word of the nodes visited in the next step of its parity. defer: NULL to free the VC and
 * let the next head ask for one at once, else both are collected there.
 * Booking (direct): a flit granted in s is read from the ejection channel in s + 3, after every
 * flit before it to that output (one VC holder at a time, in grant order). If the ejection buffer
 * is empty and fill < boundary_buf before the grant, the flits still on their way find room when
 * they come (fill counts them, pops only lower it) and so does this one, so it enters the boundary
 * buffer in s + 3 and its credit reaches the router in s + 5: both are booked at the grant and
 * the output is not visited for it. Its flits count in fill from the grant on, so a visit to a
 * flit before it sees a fuller boundary buffer than the flit path would; but such a flit finds
 * room either way (the booking left room for it). A tail is never booked: its visit delivers the
 * packet in node order within its cycle. */
static inline __attribute__((always_inline)) void xbar_switch_grant(Xbar *x, XIn *ip, uint32_t i, uint64_t s,
                                                                    const uint32_t iw, const uint32_t ow,
                                                                    const bool direct, uint64_t *wake,
                                                                    XDefer *defer) {
  XMask *m = &x->m;
  XOut *op = &x->out[ip->outp];
  const uint32_t w = iw == 1 ? 0 : i >> 6;
  const uint64_t bit = 1ull << (i & 63);
  /* the credits on their way, at most 4, are counted only where they could matter */
  if (op->occ >= x->vc_sure &&
      op->occ + (op->due[0] > s) + (op->due[1] > s) + (op->due[2] > s) + (op->due[3] > s) >= x->p.vc_buf)
    return;
  const uint32_t f = xring_pop(&ip->buf);
  x->live++; /* the credit back to the interface */
  if (direct) {
    /* booked (above), or onto the ejection channel, read in s + 3 */
    if (!(f & XF_TAIL) && op->fill < op->book_lim) {
      op->due[(s + 5) & 3] = s + 5, x->cred_due[(s + 5) & 7]++;
    } else {
      const uint32_t at = (uint32_t)(s + 3) & 3;
      op->occ++, op->chan[at] = f + 1;
      xm_set(m->out_ev[at], ip->outp, ow);
    }
    op->fill++;
    /* the credit is read in network cycle s + 2 (inj_occ counts it from now on, less while
     * cdue > the cycle); a blocked node wakes then */
    ip->inj_occ--, ip->cdue = s + 2, x->cred_due[(s + 2) & 7]++;
    if (ip->blocked) *wake |= bit;
  } else {
    op->occ++, op->fill++;
    op->xfer = f + 1;
    xm_set(m->out_xfer, ip->outp, ow);
    ip->cred_q++;
    m->in_cq[w] |= bit;
  }
  if (f & XF_TAIL) { /* the VC frees: its waiters request it in the next internal step */
    if (defer)
      defer->freed |= 1ull << ip->outp;
    else
      xbar_vc_free(x, ip->outp, iw);
  }
  if (!ip->buf.n) {
    ip->swa = false;
    m->in_alloc[w] &= ~bit;
    if (f & XF_TAIL) ip->state = XS_IDLE;
  } else if (f & XF_TAIL) {
    ip->swa = false;
    ip->state = XS_VC_ALLOC, ip->vca = true, ip->outp = x->pool[XF_PKT(xring_front(&ip->buf))].out;
    if (defer)
      defer->rearm |= bit;
    else
      m->in_vca[w] |= bit;
  }
}

/* One internal step of network cycle s. The evaluate phases see the state as it stood when the
 * step began, the update phases then apply the results, so a head granted its VC requests the
 * switch in the next internal step, and a flit granted the switch crosses it in the next
 * (st_final_delay 1). Inputs and outputs are independent within each phase, so each phase is one
 * pass; the switch's evaluation joins its update's pass (below).
 * With internal_speedup 1 the crossbar, the output buffer and the credit buffer each hold at most
 * one flit or credit, which leaves in the cycle after the grant (_SendFlits: onto the ejection
 * channel, read 2 cycles later) or in the grant's cycle (_SendCredits): the grant books both
 * directly, and the loops that would move them find nothing else to do. */
static inline __attribute__((always_inline)) void xbar_internal_step(Xbar *x, uint64_t s, const uint32_t iw,
                                                                     const uint32_t ow, const bool direct) {
  const uint64_t st = ++x->istep;
  XMask *m = &x->m;
  /* _SwitchEvaluate/_SwitchUpdate: last step's switch grants reach the output buffers */
  if (!direct)
    for (uint32_t w = 0; w < ow; w++) {
      for (uint64_t b = m->out_xfer[w]; b; b &= b - 1) {
        XOut *op = &x->out[XM_BIT(w, b)];
        if (xring_push(&op->obuf, op->xfer - 1)) xbar_oom();
        op->xfer = 0;
      }
      m->out_ob[w] |= m->out_xfer[w], m->out_xfer[w] = 0;
    }
  xbar_vc_evaluate(x, st, iw);
  /* _VCAllocUpdate: TakeBuffer, the VC becomes active and asks for the switch next step.
   * _SWAllocEvaluate: an active input whose output VC has a credit requests the switch. Only
   * the input holding an output's VC asks for that output, so every request is granted (the
   * switch allocator's pointers then never change an outcome), and only that input's update
   * changes the output's credits: evaluating it in the update's pass sees what evaluating it
   * before the pass would. Inputs outside in_alloc ask for nothing. _SWAllocUpdate: the grant
   * (xbar_switch_grant). */
  for (uint32_t w = 0; w < iw; w++)
    for (uint64_t b = m->in_alloc[w]; b; b &= b - 1) {
      const uint32_t i = XM_BIT(w, b);
      if (x->in[i].vca)
        xbar_vc_update(x, i, st, iw);
      else /* in_alloc without vca: swa */
        xbar_switch_grant(x, &x->in[i], i, s, iw, ow, direct, &m->in_ev[(uint32_t)s & 1][w], NULL);
    }
}

/* ---- GPUTrafficManager::_Step ---- */

/* Per ejecting node: ReadFlit -> WriteOutBuffer, then Transfer2BoundaryBuffer (one flit, if the
 * boundary buffer has room). */
static inline __attribute__((always_inline)) void xbar_outputs(Xbar *x, uint64_t s, uint64_t now,
                                                               const uint32_t ow) {
  const uint32_t at = (uint32_t)(s & 3);
  XMask *m = &x->m;
  for (uint32_t w = 0; w < ow; w++) {
    uint64_t *ej = &m->out_ej[w];
    const uint64_t ev = m->out_ev[at][w];
    m->out_ev[at][w] = 0;
    for (uint64_t b = ev | *ej; b; b &= b - 1) {
      const uint32_t o = XM_BIT(w, b);
      const uint64_t bit = b & -b;
      XOut *op = &x->out[o];
      /* a flit arriving at an empty ejection buffer that it would leave at once skips the ring */
      uint32_t f = op->chan[at];
      op->chan[at] = 0;
      if (f && op->ej.n) {
        if (xring_push(&op->ej, f - 1)) xbar_oom();
        f = 0;
      }
      if (op->fill - op->occ >= x->p.boundary_buf) {
        if (f) {
          if (xring_push(&op->ej, f - 1)) xbar_oom();
          *ej |= bit, op->book_lim = 0;
        }
      } else if (f || op->ej.n) {
        if (f) {
          f--;
        } else {
          f = xring_pop(&op->ej);
          if (!op->ej.n) *ej &= ~bit, op->book_lim = x->book_room;
        }
        /* the flit leaves `live`, its credit joins it. WriteCredit (after injection in _Step;
         * nothing reads it before): the router reads it in s + 2 */
        op->occ--;
        op->due[(s + 2) & 3] = s + 2, x->cred_due[(s + 2) & 7]++;
        if (f & XF_TAIL) {
          XPkt *pk = &x->pool[XF_PKT(f)];
          /* GPGPU-Sim pops (L2, cluster) before icnt_transfer in a cycle: next cycle at the earliest */
          x->deliver(x->ctx, o, &pk->req, pk->flits, pk->push, now + 1);
          pk->next_free = x->pool_free, x->pool_free = XF_PKT(f);
        }
      }
    }
  }
}

/* Node i's part of the step after its credit: the router files the flit its channel brings,
 * then the node injects its next flit if the router input has a credit (nev: the nodes whose
 * channels hold a flit after this step, of mask word i / 64). A head would also need the VC free
 * (IsAvailableFor), but the node's previous packet, the only one to use that VC, has sent its
 * tail by then. A blocked node stalls until a credit comes (xbar_step counts the stalls). */
static inline __attribute__((always_inline)) void
xbar_input(Xbar *x, XIn *ip, uint32_t i, uint64_t s, uint64_t *nev, const uint32_t iw, const bool direct) {
  XMask *m = &x->m;
  const uint32_t ph = (uint32_t)(s & 1), w = iw == 1 ? 0 : i >> 6;
  const uint64_t bit = 1ull << (i & 63);
  if (ip->chan[ph]) {
    uint32_t f = ip->chan[ph] - 1;
    ip->chan[ph] = 0;
    xbar_input_queuing(x, i, f, iw);
  }
  if (!ip->iq.n) return;
  /* internal speedup 1: a credit sent in the last network cycle is still on its way */
  const uint32_t late = direct && ip->cdue > s;
  if (ip->inj_occ + late >= x->p.vc_buf) {
    if (!ip->blocked) {
      ip->blocked = true, x->n_blocked++, x->inject_stalls++, m->in_go[w] &= ~bit;
      if (late) m->in_ev[ph ^ 1][w] |= bit; /* woken when it comes, in s + 1 */
    }
    return;
  }
  if (ip->blocked) ip->blocked = false, x->n_blocked--, x->inject_stalls--, m->in_go[w] |= bit;
  const uint32_t k = xring_front(&ip->iq);
  const bool head = ip->iq_left == 0;
  if (head) ip->iq_left = x->pool[k].flits;
  const bool tail = ip->iq_left == 1;
  ip->inj_occ++;
  ip->chan[ph] = (k << 2 | (head ? XF_HEAD : 0) | (tail ? XF_TAIL : 0)) + 1;
  *nev |= bit;
  ip->iq_flits--, ip->iq_left--;
  if (ip->iq_flits == ip->room_at) ip->room_at = UINT32_MAX, m->in_room[w] |= bit, x->room_any = true;
  if (tail) {
    xring_pop(&ip->iq);
    if (!ip->iq.n) m->in_go[w] &= ~bit;
  }
}

/* One network cycle s of core cycle now. A channel (latency 1) written in cycle s is read in
 * cycle s + 2: Channel::ReadInputs queues it at s + 1 and WriteOutputs shows it then, after
 * the cycle's readers have looked. */
static inline __attribute__((always_inline)) void
xbar_step(Xbar *x, uint64_t s, uint64_t now, const uint32_t iw, const uint32_t ow, const uint32_t speedup) {
  const uint32_t ph = (uint32_t)(s & 1), at = (uint32_t)(s & 3);
  XMask *m = &x->m;
  /* per node: ReadFlit -> WriteOutBuffer, Transfer2BoundaryBuffer (one flit, if the boundary
   * buffer has room), ReadCredit; then Network::ReadInputs (the router receives flits and
   * credits; IQRouter::_InputQueuing files them: credit_delay 0) */
  /* The router's credits (and, with internal speedup 1, the interface's) are not read from a
   * channel: a credit is counted where it is sent and discounted by the readers of the counts
   * while it is on its way (XOut.due, XIn.cdue), so no node is visited for a credit alone; the
   * network's count of what is under way drops by the credits due in this cycle. */
  x->live -= x->cred_due[s & 7], x->cred_due[s & 7] = 0;
  uint64_t credited = 0;
  xbar_outputs(x, s, now, ow);
  /* per source node: its credit, the router's receiving its flit (which GPGPU-Sim files in
   * Evaluate: it touches only the router's side), then injection: the node's next flit enters
   * its channel if the router input has a credit. A head would also need the VC free
   * (IsAvailableFor), but the node's previous packet, the only one to use that VC, has sent
   * its tail by then. Blocked nodes stall until a credit comes: counted here for all of them,
   * and taken back for a node whose credit comes now. */
  x->inject_stalls += x->n_blocked;
  for (uint32_t w = 0; w < iw; w++) {
    const uint64_t ev = m->in_ev[ph][w];
    uint64_t nev = 0;
    for (uint64_t b = ev | m->in_go[w]; b; b &= b - 1) {
      const uint32_t i = XM_BIT(w, b);
      XIn *ip = &x->in[i];
      if (speedup != 1) {
        const uint32_t cr = ip->cred[ph];
        ip->cred[ph] = 0, ip->inj_occ -= cr, credited += cr;
      }
      xbar_input(x, ip, i, s, &nev, iw, speedup == 1);
    }
    m->in_ev[ph][w] = nev;
  }
  x->live -= credited;
  /* Network::Evaluate: Router::Evaluate runs internal_speedup internal steps */
  for (uint32_t k = 0; k < speedup; k++) xbar_internal_step(x, s, iw, ow, speedup == 1);
  if (speedup == 1) return; /* the internal step sent its flits and credits */
  /* Network::WriteOutputs: IQRouter::_SendFlits / _SendCredits, one per port per cycle */
  const uint32_t arr = (at + 2) & 3;
  for (uint32_t w = 0; w < ow; w++)
    for (uint64_t b = m->out_ob[w]; b; b &= b - 1) {
      const uint32_t o = XM_BIT(w, b);
      XOut *op = &x->out[o];
      op->chan[arr] = xring_pop(&op->obuf) + 1;
      xm_set(m->out_ev[arr], o, ow);
      if (!op->obuf.n) xm_clr(m->out_ob, o, ow);
    }
  for (uint32_t w = 0; w < iw; w++)
    for (uint64_t b = m->in_cq[w]; b; b &= b - 1) {
      const uint32_t i = XM_BIT(w, b);
      XIn *ip = &x->in[i];
      ip->cred_q--, ip->cred[ph] = 1;
      xm_set(m->in_ev[ph], i, iw);
      if (!ip->cred_q) xm_clr(m->in_cq, i, iw);
    }
}

/* xbar_step for the presets' networks (up to 64 nodes a side, internal speedup 1), with the
 * inputs' part of the step and the switch's in one pass: each input's switch allocation and
 * traversal (xbar_internal_step's second pass) follows its own filing and injection. That
 * changes nothing: an active input's switch grant reads only its own buffer and its output's
 * credits, which no other input's part of the step changes (only the VC's holder sends to an
 * output), and the VC allocation in between concerns the inputs whose heads wait, which the
 * switch pass leaves alone. What the switch pass does for those heads (taking a grant) is done
 * after the VC allocation, and what it does for the allocation (a tail freeing its output's VC,
 * an input's next head asking for one) after that, as in the next internal step. */
static void xbar_step_small(Xbar *x, uint64_t s, uint64_t now) {
  const uint32_t ph = (uint32_t)(s & 1);
  XMask *m = &x->m;
  x->live -= x->cred_due[s & 7], x->cred_due[s & 7] = 0;
  xbar_outputs(x, s, now, 1);
  x->inject_stalls += x->n_blocked;
  const uint64_t st = ++x->istep;
  uint64_t nev = 0;
  XDefer d = {0, 0};
  for (uint64_t b = m->in_ev[ph][0] | m->in_go[0] | m->in_alloc[0]; b; b &= b - 1) {
    const uint32_t i = (uint32_t)__builtin_ctzll(b);
    XIn *ip = &x->in[i];
    xbar_input(x, ip, i, s, &nev, 1, true);
    if (ip->swa) xbar_switch_grant(x, ip, i, s, 1, 1, true, &nev, &d);
  }
  m->in_ev[ph][0] = nev;
  xbar_vc_evaluate(x, st, 1);
  /* _VCAllocUpdate for the heads that asked (those still in in_vca) */
  for (uint64_t b = m->in_vca[0]; b; b &= b - 1) xbar_vc_update(x, (uint32_t)__builtin_ctzll(b), st, 1);
  /* the VCs the tails freed: their waiters request them in the next step */
  for (uint64_t b = d.freed; b; b &= b - 1) xbar_vc_free(x, (uint32_t)__builtin_ctzll(b), 1);
  m->in_vca[0] |= d.rearm;
}
static void xbar_step_any(Xbar *x, uint64_t s, uint64_t now) {
  xbar_step(x, s, now, x->in_words, x->out_words, x->p.internal_speedup);
}

void xbar_tick(Xbar *x, uint64_t now) {
  if (!x->live) return; /* nothing moves: skipping the cycle changes no state */
  for (uint32_t k = 0; k < x->p.steps; k++) {
    if (x->small)
      xbar_step_small(x, now * x->p.steps + k, now);
    else
      xbar_step_any(x, now * x->p.steps + k, now);
  }
}

static void xbar_probe(void *ctx, uint32_t out, const MemRequest *r, uint32_t flits, uint64_t push,
                       uint64_t ready) {
  (void)out, (void)r, (void)flits;
  *(uint64_t *)ctx = ready - push;
}

uint32_t xbar_unloaded_latency(const XbarParams *p) {
  uint64_t lat = 0;
  char err[64];
  XbarParams q = *p;
  q.n_in = q.n_out = 1;
  Xbar *x = xbar_create(&q, xbar_probe, &lat, err, sizeof err);
  if (!x) return 1;
  MemRequest r;
  memset(&r, 0, sizeof r);
  xbar_push(x, 0, 0, &r, 1, 0);
  for (uint64_t t = 1; !lat && t < 10000; t++) xbar_tick(x, t);
  xbar_free(x);
  return (uint32_t)lat;
}

void xbar_dump(const Xbar *x, FILE *out) {
  for (uint32_t i = 0; i < x->p.n_in; i++) {
    const XIn *ip = &x->in[i];
    if (ip->iq.n || ip->buf.n)
      fprintf(out, " in%u[q=%u/%uf buf=%u st=%u]", i, ip->iq.n, ip->iq_flits, ip->buf.n, ip->state);
  }
  for (uint32_t o = 0; o < x->p.n_out; o++) {
    const XOut *op = &x->out[o];
    if (op->occ || op->obuf.n || op->ej.n || op->fill)
      fprintf(out, " out%u[occ=%u owner=%d obuf=%u ej=%u bnd=%u]", o, op->occ, op->owner, op->obuf.n,
              op->ej.n, op->fill - op->occ);
  }
}
