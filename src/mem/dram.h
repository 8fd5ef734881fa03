/* dram.h - one DRAM channel: banks with row buffers, GDDR-style timing
 * constraints in command-clock cycles, an FR-FCFS (or FCFS) scheduler over a
 * bounded request queue, and a data bus that limits bandwidth.
 * The channel runs in its own clock domain: dram_tick(core_cycle) advances it
 * to the last DRAM cycle at or before that core cycle, and completed reads are
 * handed back stamped with the core cycle they finish in. Open-page policy: a
 * row stays open until a request to another row of the bank needs it closed.
 * Depends on mem_req.h / reqq.h and core/config.h only. */
#ifndef WS_DRAM_H
#define WS_DRAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "core/stats.h"
#include "policy/mem_req.h"

typedef struct DramParams {
  const char *name;
  uint32_t banks, row_size;                    /* row_size: bytes per row of one bank */
  uint32_t bus_width, data_rate, burst_length; /* bytes per beat, beats per command clock, beats per burst */
  uint32_t tCL, tRCD, tRP, tRAS, tRC, tCCD, tRRD, tWL, tWR; /* command-clock cycles */
  /* GPGPU-Sim 3.2.2's bank groups and bus turnarounds (0 / false: not modelled).
   * A bank's group is bank >> group_shift (3.2.2's bk_tag_length). */
  uint32_t bank_groups, group_shift, tCCDL, tRTPL, tCDLR;
  bool turnaround; /* reads wait tWTR = tWL + burst + tCDLR after a write, writes tRTW = tCL + burst + 2 - tWL
                      after a read */
  uint32_t queue_size, return_queue;
  bool fcfs;                   /* true: oldest request only (no row-hit reordering) */
  uint32_t dram_mhz, core_mhz; /* clock ratio */
} DramParams;

typedef struct DramStats {
  uint64_t reads, writes, bytes;
  uint64_t row_hits;      /* first command was a column access: the row was open */
  uint64_t row_closed;    /* needed an activate only */
  uint64_t row_conflicts; /* needed a precharge and an activate */
  uint64_t activates, precharges;
  uint64_t data_cycles;             /* DRAM cycles the data bus carried data */
  uint64_t latency_sum;             /* reads: core cycles from dram_push to completion */
  uint64_t queue_full;              /* dram_push refused: queue full (counted by the caller's retries) */
  uint64_t first_cycle, last_cycle; /* DRAM cycles of the first command and the last data beat */
} DramStats;

typedef struct DramChannel DramChannel;

/* Keys under "dram.". */
extern const CfgParam dram_cfg_params[];
/* Reads dram.* (and the core clock `core_mhz`) into p. Returns 0 or -1 + err. */
int dram_params_read(const Config *cfg, uint32_t core_mhz, DramParams *p, char *err, size_t errlen);

DramChannel *dram_create(const DramParams *p, char *err, size_t errlen);
void dram_free(DramChannel *d);

bool dram_can_accept(const DramChannel *d);
/* Queues a read or write (r->is_write) to (bank, row) at core cycle `now`. */
void dram_push(DramChannel *d, const MemRequest *r, uint32_t bank, uint32_t row, uint64_t now);
/* Advances the channel through every DRAM cycle that ends by core cycle `now`. */
void dram_tick(DramChannel *d, uint64_t now);
/* The oldest completed read, if one finished by `now` (writes complete
 * silently); dram_pop_return() removes it once the L2 took it. */
const MemRequest *dram_peek_return(const DramChannel *d, uint64_t now);
void dram_pop_return(DramChannel *d);

/* Earliest core cycle > now at which the channel can issue a command or
 * return data (UINT64_MAX if it has nothing to do). */
uint64_t dram_next_event(const DramChannel *d, uint64_t now);
bool dram_idle(const DramChannel *d);
/* Core cycles from dram_push() to completion of a row-hit read of `bytes`
 * on an idle channel, smallest and largest over the phases of the two clocks. */
void dram_row_hit_span(const DramParams *p, uint32_t bytes, uint32_t *min, uint32_t *max);
/* Peak bandwidth in bytes per DRAM cycle and per core cycle. */
double dram_peak_bytes_per_core_cycle(const DramParams *p);

const DramStats *dram_stats(const DramChannel *d);
void dram_stats_add(DramStats *sum, const DramStats *s);
/* Emits the statistics in s (stats.h) into the group the caller opened. */
void dram_stats_emit(const DramStats *s, const DramParams *p, StatsOut *o);
void dram_dump(const DramChannel *d, FILE *out);

#endif
