/* addrmap.h - global address -> memory partition, and partition-local
 * address -> DRAM bank and row. Partitions are interleaved in chunks of
 * `chunk` bytes (a multiple of the line); inside a partition, either
 * consecutive local bytes fill one row of a bank, then the same row number of
 * the next bank (row_size bytes per bank row: "linear"), or GPGPU-Sim's bit
 * mask assigns each local address bit to the row, bank or column. Depends on
 * nothing. */
#ifndef WS_ADDRMAP_H
#define WS_ADDRMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/fastdiv.h"

typedef struct AddrMap {
  uint32_t parts, chunk;        /* partitions, interleave bytes */
  uint32_t banks, row_size;     /* DRAM geometry per channel */
  FastDiv div_chunk, div_parts; /* chunk and parts, for addrmap_partition (set by addrmap_make) */
  /* GPGPU-Sim's mapping inside a channel (addrmap_parse_mask), or 0 = linear:
   * the bank is the local address's bank_mask bits packed from the lowest up,
   * the row its row_mask bits and every bit above row_top. */
  uint64_t bank_mask, row_mask;
  uint32_t row_top, row_low_bits; /* first bit above the mask string; row bits below it */
} AddrMap;

/* Parses GPGPU-Sim's -gpgpu_mem_addr_mapping mask (after "dramid@N;"), e.g.
 * "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS": the last character is bit 0 of the
 * channel-local address, '.' separates, R = row, B = bank, C = column, S =
 * byte in a burst, 0 = unused; bits above the string are row bits. Returns 0,
 * or -1 with a reason (a bank count other than `banks`, a line split over
 * banks or rows: bits below `line` must be C, S or 0). */
static inline int addrmap_parse_mask(AddrMap *m, const char *mask, uint32_t banks, uint32_t line, char *why,
                                     size_t whylen) {
  uint64_t b = 0, r = 0;
  uint32_t bit = 0;
  size_t len = 0;
  while (mask[len]) len++;
  for (size_t i = len; i-- > 0;) {
    char ch = mask[i];
    if (ch == '.') continue;
    if (bit >= 64) return snprintf(why, whylen, "more than 64 bits"), -1;
    if (ch == 'B' || ch == 'b')
      b |= 1ull << bit;
    else if (ch == 'R' || ch == 'r')
      r |= 1ull << bit;
    else if (ch != 'C' && ch != 'c' && ch != 'S' && ch != 's' && ch != '0')
      return snprintf(why, whylen, "'%c' is not one of R, B, C, S, 0, '.'", ch), -1;
    bit++;
  }
  uint32_t nb = (uint32_t)__builtin_popcountll(b);
  if (nb >= 32 || (1u << nb) != banks)
    return snprintf(why, whylen, "%u bank bits make %u banks, not %u", nb, nb < 32 ? 1u << nb : 0, banks), -1;
  if ((b | r) & (uint64_t)(line - 1))
    return snprintf(why, whylen, "a %u B line would span banks or rows", line), -1;
  m->bank_mask = b, m->row_mask = r, m->row_top = bit, m->row_low_bits = (uint32_t)__builtin_popcountll(r);
  return 0;
}

/* The bits of x under mask, packed from the lowest up (a software pext). */
static inline uint64_t addrmap_gather(uint64_t x, uint64_t mask) {
  uint64_t out = 0;
  for (uint32_t k = 0; mask; mask &= mask - 1, k++) out |= ((x >> __builtin_ctzll(mask)) & 1) << k;
  return out;
}

static inline AddrMap addrmap_make(uint32_t parts, uint32_t chunk, uint32_t banks, uint32_t row_size) {
  return (AddrMap){.parts = parts,
                   .chunk = chunk,
                   .banks = banks,
                   .row_size = row_size,
                   .div_chunk = fastdiv_make(chunk),
                   .div_parts = fastdiv_make(parts)};
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
  if (m->bank_mask) return (uint32_t)addrmap_gather(local, m->bank_mask);
  return (uint32_t)((local / m->row_size) % m->banks);
}
static inline uint32_t addrmap_row(const AddrMap *m, uint64_t local) {
  if (m->bank_mask)
    return (uint32_t)(addrmap_gather(local, m->row_mask) |
                      (m->row_top < 64 ? (local >> m->row_top) << m->row_low_bits : 0));
  return (uint32_t)(local / ((uint64_t)m->row_size * m->banks));
}

#endif
