/* exec_mem.c - PTX memory instructions (ld, st, atom, red), address-space
 * conversion (cvta, isspacep) and mov. Every lane's access is bounds- and
 * alignment-checked against its state space; a bad access faults the warp
 * with kernel/CTA/thread/PC/address, never touches host memory outside. */
#include <stdio.h>
#include <stdlib.h>

#include "exec_int.h"

/* Resolves a lane's address to host memory. Returns NULL after setting a fault. */
static uint8_t *resolve(PtxWarp *w, const PtxInst *in, uint32_t lane, uint64_t addr, uint32_t size, int write,
                        uint8_t *space_out) {
  PtxCta *cta = w->cta;
  PtxLaunch *L = cta->launch;
  uint8_t sp = in->space;
  if (sp == PTX_SP_GENERIC) {
    if (addr - PTX_SHARED_WIN < PTX_WIN_SIZE) {
      sp = PTX_SP_SHARED;
      addr -= PTX_SHARED_WIN;
    } else if (addr - PTX_LOCAL_WIN < PTX_WIN_SIZE) {
      sp = PTX_SP_LOCAL;
      addr -= PTX_LOCAL_WIN;
    } else if (addr - PTX_PARAM_WIN < PTX_WIN_SIZE) {
      sp = PTX_SP_PARAM;
      addr -= PTX_PARAM_WIN;
    } else
      sp = PTX_SP_GLOBAL;
  }
  *space_out = sp;
  if (size > 1 && (addr & (size - 1))) {
    w->fault.space = sp;
    w->fault.addr = addr;
    w->fault.size = size;
    w->fault.is_write = (uint8_t)write;
    ptx_set_fault(w, PTX_FAULT_MISALIGNED, lane, "misaligned %s %s of %u bytes at 0x%llx",
                  ptx_space_name((PtxSpace)sp), write ? "store" : "load", size, (unsigned long long)addr);
    return NULL;
  }
  uint8_t *p = NULL;
  int ro = 0;
  switch (sp) {
  case PTX_SP_GLOBAL:
  case PTX_SP_CONST:
    p = write ? ptx_dev_ptr_w(L->dev, addr, size, &ro) : ptx_dev_ptr(L->dev, addr, size);
    break;
  case PTX_SP_SHARED:
    if (addr + size <= cta->shared_bytes && addr < cta->shared_bytes) p = cta->shared + addr;
    break;
  case PTX_SP_LOCAL:
    if (addr + size <= w->local_stride && addr < w->local_stride)
      p = w->local + (size_t)lane * w->local_stride + addr;
    break;
  case PTX_SP_PARAM:
    if (!write && addr + size <= L->fn->param_bytes && addr < L->fn->param_bytes)
      p = L->params + addr;
    else if (write)
      ro = 1;
    break;
  }
  if (!p) {
    w->fault.space = sp;
    w->fault.addr = addr;
    w->fault.size = size;
    w->fault.is_write = (uint8_t)write;
    ptx_set_fault(w, ro ? PTX_FAULT_READONLY : PTX_FAULT_OOB, lane, "%s %s %s of %u bytes at 0x%llx",
                  ro ? "write to read-only" : "out-of-bounds", ptx_space_name((PtxSpace)sp),
                  write ? "store" : "load", size, (unsigned long long)addr);
  }
  return p;
}

uint8_t *ptx_lane_generic(PtxWarp *w, uint32_t lane, uint64_t addr, uint32_t size) {
  PtxCta *cta = w->cta;
  if (addr - PTX_SHARED_WIN < PTX_WIN_SIZE) {
    addr -= PTX_SHARED_WIN;
    return addr < cta->shared_bytes && size <= cta->shared_bytes - addr ? cta->shared + addr : NULL;
  }
  if (addr - PTX_LOCAL_WIN < PTX_WIN_SIZE) {
    addr -= PTX_LOCAL_WIN;
    return addr < w->local_stride && size <= w->local_stride - addr
               ? w->local + (size_t)lane * w->local_stride + addr
               : NULL;
  }
  if (addr - PTX_PARAM_WIN < PTX_WIN_SIZE) {
    const PtxLaunch *L = cta->launch;
    addr -= PTX_PARAM_WIN;
    return addr < L->fn->param_bytes && size <= L->fn->param_bytes - addr ? L->params + addr : NULL;
  }
  return ptx_dev_ptr(cta->launch->dev, addr, size);
}

/* A memory instruction's per-lane address: [reg + off] (truncated to 32 bits
 * for .u32 addresses), or one for every lane (a symbol in the function's
 * frame, or an absolute offset). The lane-independent part is read once. */
typedef struct LaneAddr {
  const uint64_t *base; /* address register row, NULL: every lane uses `fixed` */
  uint64_t off, fixed;
  int addr32;
} LaneAddr;

static inline LaneAddr lane_addr_setup(const PtxWarp *w, const PtxInst *in) {
  LaneAddr a = {NULL, (uint64_t)in->off, (uint64_t)in->off, (in->flags & PTX_F_ADDR32) != 0};
  if (in->addr != PTX_NO_REG)
    a.base = REG(w, in->addr);
  else if (in->flags & PTX_F_SYMADDR)
    a.fixed = w->frame_base + (uint64_t)in->off;
  return a;
}

static inline uint64_t lane_addr_at(const LaneAddr *a, uint32_t l) {
  if (!a->base) return a->fixed;
  uint64_t v = a->base[l] + a->off;
  return a->addr32 ? (uint32_t)v : v;
}

static inline uint64_t load_bytes(const uint8_t *p, int bytes) {
  switch (bytes) {
  case 1:
    return p[0];
  case 2: {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
  }
  case 4: {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  default: {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  }
}

static inline void store_bytes(uint8_t *p, uint64_t v, int bytes) {
  switch (bytes) {
  case 1:
    p[0] = (uint8_t)v;
    break;
  case 2: {
    uint16_t x = (uint16_t)v;
    memcpy(p, &x, 2);
    break;
  }
  case 4: {
    uint32_t x = (uint32_t)v;
    memcpy(p, &x, 4);
    break;
  }
  default:
    memcpy(p, &v, 8);
    break;
  }
}

/* A new entry of the warp's deferral log (ptx.h), or NULL after faulting the warp (out of host memory). */
static PtxDeferOp *defer_push(PtxWarp *w, uint32_t lane, uint8_t kind, uint8_t *p, uint64_t *dst,
                              uint32_t bytes) {
  PtxDefer *d = w->defer;
  if (d->n == d->cap) {
    uint32_t nc = d->cap ? d->cap * 2 : 256;
    PtxDeferOp *no = realloc(d->op, sizeof *no * nc);
    if (!no) {
      ptx_set_fault(w, PTX_FAULT_UNSUPPORTED, lane, "out of host memory deferring a global access");
      return NULL;
    }
    d->op = no;
    d->cap = nc;
  }
  PtxDeferOp *o = &d->op[d->n++];
  *o = (PtxDeferOp){.kind = kind, .bytes = (uint8_t)bytes, .p = p, .dst = dst};
  return o;
}

/* The last global/const allocation a warp instruction's lanes resolved into
 * (or, for ld.param, the parameter buffer): later lanes whose aligned access
 * lies inside it need no resolve(). Lanes of one instruction nearly always hit
 * the same allocation, and have one access size, so a hit is one range compare
 * and the alignment test. */
typedef struct LaneCache {
  uint64_t base;
  uint64_t lim; /* offsets from base below it start an access that fits in the allocation; 0: empty */
  uint8_t *data;
  uint8_t space;
} LaneCache;

/* p for [addr, addr+size) if it lies in the cached allocation and is aligned,
 * else NULL (size: the instruction's, as when the cache was filled). */
static inline uint8_t *lane_cache_hit(const LaneCache *c, uint64_t addr, uint32_t size) {
  uint64_t off = addr - c->base;
  return off < c->lim && !(addr & (size - 1)) ? c->data + off : NULL;
}

/* After resolve() succeeded in global/const space for an access of `size`
 * bytes: cache that allocation (for stores only a writable one). An ld.param's
 * lanes (every lane of every warp reads each kernel parameter) cache the
 * parameter buffer, whose offsets are the addresses. */
static void lane_cache_fill(LaneCache *c, PtxWarp *w, const PtxInst *in, uint64_t addr, uint32_t size,
                            uint8_t sp, int write) {
  if (in->space == PTX_SP_PARAM && !write) {
    const PtxLaunch *L = w->cta->launch;
    c->base = 0;
    c->lim = L->fn->param_bytes >= size ? L->fn->param_bytes - size + 1 : 0;
    c->data = L->params;
    c->space = PTX_SP_PARAM;
    return;
  }
  if (sp != PTX_SP_GLOBAL && sp != PTX_SP_CONST) return;
  uint64_t bytes;
  int ro;
  c->lim = 0;
  if (ptx_dev_alloc_of(w->cta->launch->dev, addr, &c->base, &bytes, &c->data, &ro) && !(write && ro) &&
      bytes >= size)
    c->lim = bytes - size + 1;
  c->space = sp;
}

/* resolve() through the lane cache: p for lane l's access, its space in *sp. */
static inline uint8_t *lane_resolve(PtxWarp *w, const PtxInst *in, uint32_t l, uint64_t addr, uint32_t size,
                                    int write, LaneCache *lc, uint8_t *sp) {
  uint8_t *p = lane_cache_hit(lc, addr, size);
  if (p) {
    *sp = lc->space;
    return p;
  }
  if ((p = resolve(w, in, l, addr, size, write, sp))) lane_cache_fill(lc, w, in, addr, size, *sp, write);
  return p;
}

static inline void trace_begin(PtxWarp *w, const PtxInst *in, uint32_t size, int write, int atomic,
                               uint32_t active) {
  PtxMemTrace *t = w->trace;
  t->space = in->space;
  t->is_write = (uint8_t)write;
  t->is_atomic = (uint8_t)atomic;
  t->uniform = 0;
  t->size = size;
  t->mask = active;
}

/* A full warp's unsigned scalar global load of EB (4 or 8) bytes through a
 * 64-bit address register, traced: the SM's global loads, nearly all. If
 * every lane's access lies in lane 0's allocation, aligned, the addresses and
 * that test are one pass over local arrays (no aliasing: vector
 * instructions), then the loads (an unsigned value needs no mask: the
 * register is at least EB wide). No lane can fault then, so the order of the
 * writes does not matter (all addresses are read first, as lane by lane: a
 * destination row that is the address row changes only lanes already read).
 * Returns 0, having changed nothing, when some lane is elsewhere: exec_ld's
 * lane loop then resolves the lanes (and reports a fault) one by one. */
static inline __attribute__((always_inline)) int
ld_full_warp(PtxWarp *w, uint64_t *D, const uint64_t *A, uint64_t aoff, PtxMemTrace *tr, const uint32_t EB) {
  uint64_t b, size;
  uint8_t *data;
  int ro;
  if (!ptx_dev_alloc_of(w->cta->launch->dev, A[0] + aoff, &b, &size, &data, &ro)) return 0;
  const uint64_t lm = size - EB;
  if (size < EB || lm >= (1ull << 63)) return 0;
  /* off <= lm, both below 2^63: neither off nor lm - off has the top bit (no
   * compare: SSE2 has none for 64 bits). The loop control would cost about
   * as much as the loops' bodies: the loads' loop is unrolled, and the first
   * (vectorised: two lanes an iteration) is unrolled 4 times. */
  uint64_t addr[PTX_WARP_SIZE], range = 0, align = 0;
#pragma GCC unroll 4
  for (uint32_t l = 0; l < PTX_WARP_SIZE; l++) {
    addr[l] = A[l] + aoff;
    const uint64_t off = addr[l] - b;
    range |= off | (lm - off);
    align |= addr[l];
  }
  if ((range >> 63) || (align & (EB - 1))) return 0;
  memcpy(tr->addr, addr, sizeof addr);
  memset(tr->lane_space, PTX_SP_GLOBAL, PTX_WARP_SIZE);
  if (__builtin_expect(w->defer != NULL, 0)) {
    for (uint32_t l = 0; l < PTX_WARP_SIZE; l++) {
      PtxDeferOp *o = defer_push(w, l, PTX_DEFER_LOAD, data + (addr[l] - b), &D[l], EB);
      if (!o) return 1;
      o->wb = (uint8_t)EB;
    }
    return 1;
  }
#pragma GCC unroll 32
  for (uint32_t l = 0; l < PTX_WARP_SIZE; l++) D[l] = load_bytes(data + (addr[l] - b), (int)EB);
  return 1;
}
static __attribute__((noinline)) int ld_full_warp_4(PtxWarp *w, uint64_t *D, const uint64_t *A, uint64_t aoff,
                                                    PtxMemTrace *tr) {
  return ld_full_warp(w, D, A, aoff, tr, 4);
}
static __attribute__((noinline)) int ld_full_warp_8(PtxWarp *w, uint64_t *D, const uint64_t *A, uint64_t aoff,
                                                    PtxMemTrace *tr) {
  return ld_full_warp(w, D, A, aoff, tr, 8);
}

HANDLER(exec_ld) {
  PtxType t = (PtxType)in->type;
  const int eb = ptx_type_bytes(t), db = in->type2, sgn = ptx_type_is_signed(t), wb = db > eb ? db : eb;
  const uint32_t n = in->vec, size = (uint32_t)eb * n;
  PtxMemTrace *tr = w->trace;
  if (tr) trace_begin(w, in, size, 0, 0, active);
  const LaneAddr la = lane_addr_setup(w, in);
  uint64_t *dst[4];
  for (uint32_t k = 0; k < n; k++) dst[k] = in->d[k] == PTX_NO_REG ? NULL : REG(w, in->d[k]);
  LaneCache lc = {0};
  const int defer = w->defer != NULL;
  /* One lane: address (read before the lane's destinations are written),
   * resolve, trace, then the n elements of EB bytes each. */
#define LD_LANES(EB, N)                                                                                      \
  FOR_LANES(active, l) {                                                                                     \
    uint64_t addr = lane_addr_at(&la, l);                                                                    \
    uint8_t sp;                                                                                              \
    const uint8_t *p = lane_resolve(w, in, l, addr, size, 0, &lc, &sp);                                      \
    if (!p) return;                                                                                          \
    if (tr) {                                                                                                \
      tr->addr[l] = addr;                                                                                    \
      tr->lane_space[l] = sp;                                                                                \
    }                                                                                                        \
    for (uint32_t k = 0; k < (N); k++) {                                                                     \
      if (!dst[k]) continue;                                                                                 \
      if (defer && sp == PTX_SP_GLOBAL) {                                                                    \
        PtxDeferOp *o =                                                                                      \
            defer_push(w, l, PTX_DEFER_LOAD, (uint8_t *)p + (size_t)k * (size_t)(EB), &dst[k][l], (EB));     \
        if (!o) return;                                                                                      \
        o->sgn = (uint8_t)sgn;                                                                               \
        o->wb = (uint8_t)wb;                                                                                 \
        continue;                                                                                            \
      }                                                                                                      \
      uint64_t v = load_bytes(p + (size_t)k * (size_t)(EB), (EB));                                           \
      if (sgn) v = (uint64_t)sext_bytes(v, (EB));                                                            \
      dst[k][l] = mask_bytes(v, wb);                                                                         \
    }                                                                                                        \
  }
  /* a full warp's traced scalar global load (the SM's, nearly all): one pass, ld_full_warp */
  if (n == 1 && dst[0] && active == 0xFFFFFFFFu && in->space == PTX_SP_GLOBAL && la.base && !la.addr32 &&
      tr && !sgn &&
      (eb == 4 ? ld_full_warp_4(w, dst[0], la.base, la.off, tr)
               : eb == 8 && ld_full_warp_8(w, dst[0], la.base, la.off, tr)))
    return;
  /* a fixed address (a kernel parameter, a symbol): every lane reads the same bytes, resolved once
   * (a fault names the first active lane, as the lane loop does), unless they are in each lane's
   * own local memory or the loads are deferred */
  if (!la.base && n == 1 && dst[0] && active) {
    uint8_t sp;
    const uint8_t *p = resolve(w, in, (uint32_t)__builtin_ctz(active), la.fixed, size, 0, &sp);
    if (!p) return;
    if (sp != PTX_SP_LOCAL && !(defer && sp == PTX_SP_GLOBAL)) {
      uint64_t v = load_bytes(p, eb);
      if (sgn) v = (uint64_t)sext_bytes(v, eb);
      v = mask_bytes(v, wb);
      if (tr) tr->uniform = 1;
      FOR_LANES(active, l) {
        if (tr) {
          tr->addr[l] = la.fixed;
          tr->lane_space[l] = sp;
        }
        dst[0][l] = v;
      }
      return;
    }
  }
  /* scalar 4- and 8-byte loads (nearly all) with their sizes constant */
  if (n == 1 && eb == 4) {
    LD_LANES(4, 1)
  } else if (n == 1 && eb == 8) {
    LD_LANES(8, 1)
  } else {
    LD_LANES(eb, n)
  }
#undef LD_LANES
}

HANDLER(exec_st) {
  int eb = ptx_type_bytes((PtxType)in->type);
  uint32_t n = in->vec, size = (uint32_t)eb * n;
  PtxMemTrace *tr = w->trace;
  if (tr) trace_begin(w, in, size, 1, 0, active);
  const LaneAddr la = lane_addr_setup(w, in);
  const uint64_t *src[4];
  for (uint32_t k = 0; k < n; k++) src[k] = REG(w, in->s[k]);
  LaneCache lc = {0};
  FOR_LANES(active, l) {
    uint64_t addr = lane_addr_at(&la, l);
    uint8_t sp;
    uint8_t *p = lane_resolve(w, in, l, addr, size, 1, &lc, &sp);
    if (!p) return;
    if (tr) {
      tr->addr[l] = addr;
      tr->lane_space[l] = sp;
    }
    if (w->defer && sp == PTX_SP_GLOBAL) {
      for (uint32_t k = 0; k < n; k++) {
        PtxDeferOp *o = defer_push(w, l, PTX_DEFER_STORE, p + (size_t)k * (size_t)eb, NULL, (uint32_t)eb);
        if (!o) return;
        o->b = src[k][l];
      }
      continue;
    }
    for (uint32_t k = 0; k < n; k++) store_bytes(p + (size_t)k * (size_t)eb, src[k][l], eb);
  }
}

static uint64_t atom_apply(int op, PtxType t, uint64_t old, uint64_t b, uint64_t c) {
  int bytes = ptx_type_bytes(t);
  switch (op) {
  case PTX_ATOM_ADD:
    if (t == PTX_T_F32) return f32_bits(as_f32(old) + as_f32(b));
    if (t == PTX_T_F64) return f64_bits(as_f64(old) + as_f64(b));
    return mask_bytes(old + b, bytes);
  case PTX_ATOM_MIN:
  case PTX_ATOM_MAX: {
    int mx = op == PTX_ATOM_MAX;
    if (t == PTX_T_F32) {
      float a = as_f32(old), v = as_f32(b);
      return f32_bits(mx ? (v > a ? v : a) : (v < a ? v : a));
    }
    if (ptx_type_is_signed(t)) {
      int64_t a = sext_bytes(old, bytes), v = sext_bytes(b, bytes);
      return mask_bytes((uint64_t)(mx ? (v > a ? v : a) : (v < a ? v : a)), bytes);
    }
    uint64_t a = mask_bytes(old, bytes), v = mask_bytes(b, bytes);
    return mx ? (v > a ? v : a) : (v < a ? v : a);
  }
  case PTX_ATOM_INC: {
    uint32_t a = (uint32_t)old, v = (uint32_t)b;
    return a >= v ? 0 : a + 1;
  }
  case PTX_ATOM_DEC: {
    uint32_t a = (uint32_t)old, v = (uint32_t)b;
    return (a == 0 || a > v) ? v : a - 1;
  }
  case PTX_ATOM_CAS:
    return mask_bytes(old, bytes) == mask_bytes(b, bytes) ? mask_bytes(c, bytes) : old;
  case PTX_ATOM_EXCH:
    return mask_bytes(b, bytes);
  case PTX_ATOM_AND:
    return old & b;
  case PTX_ATOM_OR:
    return old | b;
  default:
    return old ^ b;
  }
}

/* Lanes are applied in lane order: deterministic, and each lane sees the previous lane's result. */
HANDLER(exec_atom) {
  PtxType t = (PtxType)in->type;
  int eb = ptx_type_bytes(t);
  if (w->trace) trace_begin(w, in, (uint32_t)eb, 1, 1, active);
  const uint64_t *B = REG(w, in->s[0]);
  const uint64_t *C = in->nsrc > 1 ? REG(w, in->s[1]) : NULL;
  uint64_t *D = in->op == PTX_OP_atom && in->d[0] != PTX_NO_REG ? REG(w, in->d[0]) : NULL;
  const LaneAddr la = lane_addr_setup(w, in);
  FOR_LANES(active, l) {
    uint64_t addr = lane_addr_at(&la, l);
    uint8_t sp;
    uint8_t *p = resolve(w, in, l, addr, (uint32_t)eb, 1, &sp);
    if (!p) return;
    if (sp != PTX_SP_GLOBAL && sp != PTX_SP_SHARED) {
      ptx_set_fault(w, PTX_FAULT_UNSUPPORTED, l, "atomic on .%s memory", ptx_space_name((PtxSpace)sp));
      return;
    }
    if (w->trace) {
      w->trace->addr[l] = addr;
      w->trace->lane_space[l] = sp;
    }
    if (w->defer && sp == PTX_SP_GLOBAL) {
      PtxDeferOp *o = defer_push(w, l, PTX_DEFER_ATOM, p, D ? &D[l] : NULL, (uint32_t)eb);
      if (!o) return;
      o->op = (uint8_t)in->mod;
      o->type = (uint8_t)t;
      o->b = B[l];
      o->c = C ? C[l] : 0;
      continue;
    }
    uint64_t old = load_bytes(p, eb);
    store_bytes(p, atom_apply(in->mod, t, old, B[l], C ? C[l] : 0), eb);
    if (D) D[l] = old;
  }
}

void ptx_defer_commit(PtxDefer *d) {
  for (uint32_t i = 0; i < d->n; i++) {
    const PtxDeferOp *o = &d->op[i];
    switch (o->kind) {
    case PTX_DEFER_LOAD: {
      uint64_t v = load_bytes(o->p, o->bytes);
      if (o->sgn) v = (uint64_t)sext_bytes(v, o->bytes);
      *o->dst = mask_bytes(v, o->wb);
      break;
    }
    case PTX_DEFER_STORE:
      store_bytes(o->p, o->b, o->bytes);
      break;
    case PTX_DEFER_ATOM: {
      uint64_t old = load_bytes(o->p, o->bytes);
      store_bytes(o->p, atom_apply(o->op, (PtxType)o->type, old, o->b, o->c), o->bytes);
      if (o->dst) *o->dst = old;
      break;
    }
    default: {
      const PtxLaunch *L = o->launch;
      if (L->print)
        L->print(L->print_ctx, d->text + o->b, (size_t)o->c);
      else
        fwrite(d->text + o->b, 1, (size_t)o->c, stdout);
      break;
    }
    }
  }
  ptx_defer_clear(d);
}

void ptx_defer_free(PtxDefer *d) {
  free(d->op);
  free(d->text);
  *d = (PtxDefer){0};
}

static uint64_t sreg_value(const PtxWarp *w, int sreg, uint32_t lane) {
  const PtxCta *c = w->cta;
  const PtxLaunch *L = c->launch;
  uint32_t tid = w->tid_base + lane;
  switch (sreg) {
  case PTX_SREG_TID_X:
    return tid % L->block[0];
  case PTX_SREG_TID_Y:
    return (tid / L->block[0]) % L->block[1];
  case PTX_SREG_TID_Z:
    return tid / (L->block[0] * L->block[1]);
  case PTX_SREG_NTID_X:
    return L->block[0];
  case PTX_SREG_NTID_Y:
    return L->block[1];
  case PTX_SREG_NTID_Z:
    return L->block[2];
  case PTX_SREG_CTAID_X:
    return c->ctaid[0];
  case PTX_SREG_CTAID_Y:
    return c->ctaid[1];
  case PTX_SREG_CTAID_Z:
    return c->ctaid[2];
  case PTX_SREG_NCTAID_X:
    return L->grid[0];
  case PTX_SREG_NCTAID_Y:
    return L->grid[1];
  case PTX_SREG_NCTAID_Z:
    return L->grid[2];
  case PTX_SREG_LANEID:
    return lane;
  case PTX_SREG_WARPID:
    return w->warp_in_cta;
  case PTX_SREG_NWARPID:
    return 48;
  case PTX_SREG_SMID:
    return c->smid;
  case PTX_SREG_NSMID:
    return L->nsm ? L->nsm : 1;
  case PTX_SREG_CLOCK:
    return (uint32_t)w->clock;
  case PTX_SREG_CLOCK64:
  case PTX_SREG_GLOBALTIMER:
    return w->clock;
  case PTX_SREG_LANEMASK_EQ:
    return 1u << lane;
  case PTX_SREG_LANEMASK_LT:
    return (1u << lane) - 1;
  case PTX_SREG_LANEMASK_LE:
    return (uint32_t)((2ull << lane) - 1);
  case PTX_SREG_LANEMASK_GT:
    return ~(uint32_t)((2ull << lane) - 1);
  case PTX_SREG_LANEMASK_GE:
    return ~((1u << lane) - 1);
  case PTX_SREG_TOTAL_SMEM:
  case PTX_SREG_DYN_SMEM:
    return c->shared_bytes;
  default:
    return 0;
  }
}

HANDLER(exec_mov) {
  if (in->type == PTX_T_PRED) {
    uint32_t v = pred_val(w, in->s[0]);
    w->pf[in->d[0]] = (w->pf[in->d[0]] & ~active) | (v & active);
    return;
  }
  int bytes = ptx_type_bytes((PtxType)in->type);
  if (in->flags & PTX_F_UNPACK) {
    const uint64_t *A = REG(w, in->s[0]);
    int eb = bytes / in->ndst;
    for (uint32_t k = 0; k < in->ndst; k++) {
      if (in->d[k] == PTX_NO_REG) continue;
      uint64_t *D = REG(w, in->d[k]);
      FOR_LANES(active, l) D[l] = mask_bytes(A[l] >> (8 * eb * (int)k), eb);
    }
    return;
  }
  uint64_t *D = REG(w, in->d[0]);
  if (in->flags & PTX_F_PACK) {
    int eb = bytes / in->nsrc;
    FOR_LANES(active, l) {
      uint64_t v = 0;
      for (uint32_t k = 0; k < in->nsrc; k++) v |= mask_bytes(REG(w, in->s[k])[l], eb) << (8 * eb * (int)k);
      D[l] = v;
    }
    return;
  }
  if (in->flags & PTX_F_SREG) {
    FOR_LANES(active, l) D[l] = mask_bytes(sreg_value(w, in->mod, l), bytes);
    return;
  }
  if (in->flags & PTX_F_SYMADDR) {
    FOR_LANES(active, l) D[l] = mask_bytes(w->frame_base + (uint64_t)in->off, bytes);
    return;
  }
  const uint64_t *A = REG(w, in->s[0]);
  if (bytes == 8) {
    FOR_LANES(active, l) D[l] = A[l];
  } else {
    FOR_LANES(active, l) D[l] = mask_bytes(A[l], bytes);
  }
}

static uint64_t space_window(uint8_t sp) {
  switch (sp) {
  case PTX_SP_SHARED:
    return PTX_SHARED_WIN;
  case PTX_SP_LOCAL:
    return PTX_LOCAL_WIN;
  case PTX_SP_PARAM:
    return PTX_PARAM_WIN;
  default:
    return 0;
  }
}

HANDLER(exec_cvta) { /* cvta, cvta.to, isspacep */
  uint64_t win = space_window(in->space);
  if (in->op == PTX_OP_isspacep) {
    const uint64_t *A = REG(w, in->s[0]);
    uint32_t r = 0;
    FOR_LANES(active, l) {
      uint64_t a = A[l];
      int in_win = (a - PTX_SHARED_WIN < PTX_WIN_SIZE) || (a - PTX_LOCAL_WIN < PTX_WIN_SIZE) ||
                   (a - PTX_PARAM_WIN < PTX_WIN_SIZE);
      int ok = win ? (a - win < PTX_WIN_SIZE) : !in_win;
      r |= (uint32_t)ok << l;
    }
    w->pf[in->d[0]] = (w->pf[in->d[0]] & ~active) | (r & active);
    return;
  }
  uint64_t *D = REG(w, in->d[0]);
  int bytes = in->type ? ptx_type_bytes((PtxType)in->type) : 8;
  if (in->flags & PTX_F_SYMADDR) {
    FOR_LANES(active, l) D[l] = mask_bytes(w->frame_base + (uint64_t)in->off + win, bytes);
    return;
  }
  const uint64_t *A = REG(w, in->s[0]);
  if (in->flags & PTX_F_TO) {
    FOR_LANES(active, l) D[l] = mask_bytes(A[l] - win, bytes);
  } else {
    FOR_LANES(active, l) D[l] = mask_bytes(A[l] + win, bytes);
  }
}
