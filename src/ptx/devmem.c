/* devmem.c - device global/constant memory: a sparse flat 64-bit space made
 * of separate allocations. Each allocation is its own host buffer, separated
 * from its neighbours by an unmapped guard gap, so any access outside every
 * allocation is detected exactly (never a silent hit in a neighbour).
 * Addresses are never reused after free. Also: type and space helpers. */
#include <stdlib.h>
#include <string.h>

#include "ptx.h"

typedef struct DevAlloc {
  uint64_t base, size;
  uint8_t *data;
  int read_only;
} DevAlloc;

struct PtxDevMem {
  DevAlloc *a; /* sorted by base (bases only grow, so append keeps order) */
  uint32_t n, cap;
  uint64_t next, limit, in_use;
  uint32_t last; /* index of the last allocation hit (lookup cache) */
};

PtxDevMem *ptx_dev_create(uint64_t limit) {
  PtxDevMem *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->next = PTX_GLOBAL_BASE;
  d->limit = limit ? limit : (4ull << 30);
  return d;
}

void ptx_dev_destroy(PtxDevMem *d) {
  if (!d) return;
  for (uint32_t i = 0; i < d->n; i++) free(d->a[i].data);
  free(d->a);
  free(d);
}

uint64_t ptx_dev_alloc(PtxDevMem *d, uint64_t bytes, int read_only) {
  if (bytes == 0) bytes = 1;
  if (bytes > d->limit || d->in_use + bytes > d->limit) return 0;
  if (d->n == d->cap) {
    uint32_t nc = d->cap ? d->cap * 2 : 64;
    DevAlloc *na = realloc(d->a, sizeof(DevAlloc) * nc);
    if (!na) return 0;
    d->a = na;
    d->cap = nc;
  }
  uint8_t *data = calloc(1, bytes);
  if (!data) return 0;
  uint64_t base = d->next;
  d->next = (base + bytes + 4096 + 255) & ~255ull; /* 4 KB guard gap, 256 B alignment */
  d->a[d->n++] = (DevAlloc){base, bytes, data, read_only};
  d->in_use += bytes;
  return base;
}

static int32_t find(PtxDevMem *d, uint64_t addr) {
  /* `last` is a hint that warps of several SMs stepped at once read and write (the timing
   * engine's threads): relaxed atomic accesses, and any value it holds gives the same answer */
  const uint32_t last = __atomic_load_n(&d->last, __ATOMIC_RELAXED);
  if (last < d->n) {
    DevAlloc *a = &d->a[last];
    if (addr - a->base < a->size) return (int32_t)last;
  }
  uint32_t lo = 0, hi = d->n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (d->a[mid].base <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return -1;
  DevAlloc *a = &d->a[lo - 1];
  if (addr - a->base >= a->size) return -1;
  __atomic_store_n(&d->last, lo - 1, __ATOMIC_RELAXED);
  return (int32_t)(lo - 1);
}

int ptx_dev_free(PtxDevMem *d, uint64_t addr) {
  int32_t i = find(d, addr);
  if (i < 0 || d->a[i].base != addr) return -1;
  d->in_use -= d->a[i].size;
  free(d->a[i].data);
  memmove(&d->a[i], &d->a[i + 1], sizeof(DevAlloc) * (d->n - (uint32_t)i - 1));
  d->n--;
  d->last = 0;
  return 0;
}

uint8_t *ptx_dev_ptr(PtxDevMem *d, uint64_t addr, uint64_t len) {
  int32_t i = find(d, addr);
  if (i < 0) return NULL;
  DevAlloc *a = &d->a[i];
  if (len > a->size - (addr - a->base)) return NULL;
  return a->data + (addr - a->base);
}

/* Write access: NULL also for read-only (constant) allocations. */
uint8_t *ptx_dev_ptr_w(PtxDevMem *d, uint64_t addr, uint64_t len, int *read_only) {
  int32_t i = find(d, addr);
  *read_only = 0;
  if (i < 0) return NULL;
  DevAlloc *a = &d->a[i];
  if (len > a->size - (addr - a->base)) return NULL;
  if (a->read_only) {
    *read_only = 1;
    return NULL;
  }
  return a->data + (addr - a->base);
}

int ptx_dev_alloc_of(PtxDevMem *d, uint64_t addr, uint64_t *base, uint64_t *size, uint8_t **data,
                     int *read_only) {
  int32_t i = find(d, addr);
  if (i < 0) return 0;
  *base = d->a[i].base, *size = d->a[i].size, *data = d->a[i].data, *read_only = d->a[i].read_only;
  return 1;
}

uint64_t ptx_dev_bytes_in_use(const PtxDevMem *d) { return d->in_use; }

/* ---- types and spaces ---- */
int ptx_type_bytes(PtxType t) {
  static const int8_t b[PTX_T_COUNT] = {0, 1, 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8};
  return (unsigned)t < PTX_T_COUNT ? b[t] : 0;
}
int ptx_type_is_signed(PtxType t) { return t >= PTX_T_S8 && t <= PTX_T_S64; }
int ptx_type_is_float(PtxType t) { return t >= PTX_T_F16 && t <= PTX_T_F64; }
const char *ptx_type_name(PtxType t) {
  static const char *n[PTX_T_COUNT] = {"",    "pred", "b8",  "b16", "b32", "b64", "u8",  "u16", "u32",
                                       "u64", "s8",   "s16", "s32", "s64", "f16", "f32", "f64"};
  return (unsigned)t < PTX_T_COUNT ? n[t] : "?";
}
const char *ptx_space_name(PtxSpace s) {
  static const char *n[] = {"generic", "global", "shared", "local", "const", "param"};
  return (unsigned)s < 6 ? n[s] : "?";
}
