/* addrmap.h - global address -> memory partition, and partition-local
 * address -> DRAM bank and row. Partitions are interleaved in chunks of
 * `chunk` bytes (a multiple of the line); inside a partition, consecutive
 * local bytes fill one row of a bank, then the same row number of the next
 * bank (row_size bytes per bank row). Depends on nothing. */
#ifndef WS_ADDRMAP_H
#define WS_ADDRMAP_H

#include <stdint.h>

#include "core/fastdiv.h"

typedef struct AddrMap {
  uint32_t parts, chunk;    /* partitions, interleave bytes */
  uint32_t banks, row_size; /* DRAM geometry per channel */
  FastDiv div_chunk, div_parts; /* chunk and parts, for addrmap_partition (set by addrmap_make) */
} AddrMap;

static inline AddrMap addrmap_make(uint32_t parts, uint32_t chunk, uint32_t banks, uint32_t row_size) {
  return (AddrMap){.parts = parts, .chunk = chunk, .banks = banks, .row_size = row_size,
                   .div_chunk = fastdiv_make(chunk), .div_parts = fastdiv_make(parts)};
}

/* On every L1 miss's way to the network: no hardware division (needs addrmap_make). */
static inline uint32_t addrmap_partition(const AddrMap *m, uint64_t addr) {
  return (uint32_t)fastdiv_mod(&m->div_parts, fastdiv_div(&m->div_chunk, addr));
}
/* The byte address inside the partition (dense: partitions' chunks removed). */
static inline uint64_t addrmap_local(const AddrMap *m, uint64_t addr) {
  return (addr / ((uint64_t)m->chunk * m->parts)) * m->chunk + addr % m->chunk;
}
static inline uint32_t addrmap_bank(const AddrMap *m, uint64_t local) {
  return (uint32_t)((local / m->row_size) % m->banks);
}
static inline uint32_t addrmap_row(const AddrMap *m, uint64_t local) {
  return (uint32_t)(local / ((uint64_t)m->row_size * m->banks));
}

#endif
