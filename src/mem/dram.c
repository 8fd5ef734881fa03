/* dram.c - DRAM channel timing and FR-FCFS scheduling.
 * The scheduler is event-driven inside the channel: instead of visiting every
 * DRAM cycle it computes the earliest cycle at which any queued request's next
 * command (ACT, PRE or a column access) is legal and jumps there, so an idle
 * or waiting channel costs nothing. One command per DRAM cycle (command bus).
 * Depends on reqq.h and core/config.h only.
 */
#include "mem/dram.h"

#include <stdlib.h>
#include <string.h>

#include "mem/mem_assert.h"
#include "mem/reqq.h"

#define DRAM_NO_ROW UINT32_MAX

const CfgParam dram_cfg_params[] = {
    {.key = "clock_mhz",
     .type = CFG_INT,
     .def = "924",
     .min = 1,
     .max = 10000,
     .desc = "DRAM command clock (MHz)"},
    {.key = "banks", .type = CFG_INT, .def = "16", .min = 1, .max = 1024, .desc = "banks per channel"},
    {.key = "row_size",
     .type = CFG_INT,
     .def = "4K",
     .min = 1,
     .max = 1 << 30,
     .desc = "bytes per row of one bank (a multiple of the L2 line)"},
    {.key = "bus_width",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 1024,
     .desc = "bytes per data beat per channel (all chips of the channel)"},
    {.key = "data_rate",
     .type = CFG_INT,
     .def = "4",
     .min = 1,
     .max = 16,
     .desc = "data beats per command clock (GDDR5: 4)"},
    {.key = "burst_length",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 1024,
     .desc = "beats per column access"},
    {.key = "tCL",
     .type = CFG_INT,
     .def = "12",
     .min = 1,
     .max = 10000,
     .desc = "read command to first data"},
    {.key = "tRCD",
     .type = CFG_INT,
     .def = "12",
     .min = 1,
     .max = 10000,
     .desc = "activate to column command"},
    {.key = "tRP", .type = CFG_INT, .def = "12", .min = 1, .max = 10000, .desc = "precharge to activate"},
    {.key = "tRAS", .type = CFG_INT, .def = "28", .min = 1, .max = 10000, .desc = "activate to precharge"},
    {.key = "tRC",
     .type = CFG_INT,
     .def = "40",
     .min = 1,
     .max = 10000,
     .desc = "activate to activate, same bank"},
    {.key = "tCCD",
     .type = CFG_INT,
     .def = "2",
     .min = 1,
     .max = 10000,
     .desc = "column command to column command"},
    {.key = "tRRD",
     .type = CFG_INT,
     .def = "6",
     .min = 1,
     .max = 10000,
     .desc = "activate to activate, different banks"},
    {.key = "tWL",
     .type = CFG_INT,
     .def = "4",
     .min = 0,
     .max = 10000,
     .desc = "write command to first data"},
    {.key = "tWR",
     .type = CFG_INT,
     .def = "12",
     .min = 0,
     .max = 10000,
     .desc = "last write data to precharge"},
    {.key = "bank_groups",
     .type = CFG_INT,
     .def = "4",
     .min = 1,
     .max = 1024,
     .desc = "bank groups (GPGPU-Sim nbkgrp; 1 = none). As 3.2.2 computes it, a bank's group is "
             "bank >> (bits of banks/bank_groups): 16 banks in 4 groups make 2 groups of 8"},
    {.key = "tCCDL",
     .type = CFG_INT,
     .def = "3",
     .min = 0,
     .max = 10000,
     .desc = "column to column command in the same bank group (0 = tCCD only)"},
    {.key = "tRTPL",
     .type = CFG_INT,
     .def = "2",
     .min = 0,
     .max = 10000,
     .desc = "read to precharge in the same bank group"},
    {.key = "tCDLR",
     .type = CFG_INT,
     .def = "5",
     .min = 0,
     .max = 10000,
     .desc = "last write data to read command (write-to-read turnaround tWTR = tWL + burst + tCDLR)"},
    {.key = "rw_turnaround",
     .type = CFG_BOOL,
     .def = "true",
     .desc = "model GPGPU-Sim's bus turnarounds: a read waits tWTR after a write's column command, a "
             "write tRTW = tCL + burst + 2 - tWL after a read's, a precharge a read's burst (tRTP)"},
    {.key = "addr_map",
     .type = CFG_STRING,
     .def = "RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
     .desc = "inside a channel: GPGPU-Sim's -gpgpu_mem_addr_mapping mask of the channel-local address "
             "(R row, B bank, C column, S byte; 3.2.2 GTX480's), or linear (row_size bytes per bank row, "
             "then the next bank)"},
    {.key = "queue_size",
     .type = CFG_INT,
     .def = "16",
     .min = 1,
     .max = 4096,
     .desc = "scheduler queue entries per channel"},
    {.key = "return_queue",
     .type = CFG_INT,
     .def = "116",
     .min = 1,
     .max = 65535,
     .desc = "completed reads waiting for the L2 (issue stalls when full)"},
    {.key = "scheduler",
     .type = CFG_ENUM,
     .def = "frfcfs",
     .choices = "frfcfs|fcfs",
     .desc = "frfcfs: row hits first, then oldest; fcfs: oldest only"},
    {0},
};

typedef struct DramBank {
  uint32_t open_row;
  uint32_t open_hits;                       /* queued requests to the open row */
  uint64_t act_ready, col_ready, pre_ready; /* earliest DRAM cycle for ACT / column / PRE */
} DramBank;

typedef struct DramReq {
  MemRequest req;
  uint64_t arrival;   /* DRAM cycle */
  uint64_t push_core; /* core cycle of dram_push */
  uint32_t bank, row;
  uint8_t needed_act, needed_pre;
} DramReq;

typedef enum { CMD_COL, CMD_ACT, CMD_PRE } DramCmd;

struct DramChannel {
  DramParams p;
  char name[32];
  DramBank *bank;
  DramReq *q; /* arrival order */
  uint32_t nq;
  uint64_t now_d;              /* last DRAM cycle processed; commands go at >= now_d + 1 */
  uint64_t act_ready;          /* tRRD */
  uint64_t col_ready;          /* tCCD / burst spacing */
  uint64_t bus_free;           /* data bus free from this DRAM cycle */
  uint64_t rd_ready, wr_ready; /* turnarounds: earliest read / write column command */
  uint64_t *grp_col, *grp_pre; /* per bank group: earliest column command (tCCDL), precharge (tRTPL) */
  uint32_t inflight;           /* reads issued, not yet in the return queue */
  bool dirty;                  /* next_cmd must be recomputed (queue or bank state changed) */
  uint64_t next_cmd;           /* cached dram_next_cmd() */
  ReqQueue ret;                /* completed reads; ready = core cycle */
  ReqQueue pend;               /* issued reads; ready = completion core cycle (monotonic: one data bus) */
  /* dram_cycle_at(tick_core) = tick_target, with (tick_core * dram_mhz) mod core_mhz = tick_rem:
   * consecutive ticks advance it without a division */
  uint64_t tick_core, tick_target, tick_rem;
  DramStats st;
};

int dram_params_read(const Config *cfg, uint32_t core_mhz, DramParams *p, char *err, size_t errlen) {
  memset(p, 0, sizeof *p);
  p->name = "dram";
  p->banks = (uint32_t)cfg_int(cfg, "dram.banks");
  p->row_size = (uint32_t)cfg_int(cfg, "dram.row_size");
  p->bus_width = (uint32_t)cfg_int(cfg, "dram.bus_width");
  p->data_rate = (uint32_t)cfg_int(cfg, "dram.data_rate");
  p->burst_length = (uint32_t)cfg_int(cfg, "dram.burst_length");
  p->tCL = (uint32_t)cfg_int(cfg, "dram.tCL");
  p->tRCD = (uint32_t)cfg_int(cfg, "dram.tRCD");
  p->tRP = (uint32_t)cfg_int(cfg, "dram.tRP");
  p->tRAS = (uint32_t)cfg_int(cfg, "dram.tRAS");
  p->tRC = (uint32_t)cfg_int(cfg, "dram.tRC");
  p->tCCD = (uint32_t)cfg_int(cfg, "dram.tCCD");
  p->tRRD = (uint32_t)cfg_int(cfg, "dram.tRRD");
  p->tWL = (uint32_t)cfg_int(cfg, "dram.tWL");
  p->tWR = (uint32_t)cfg_int(cfg, "dram.tWR");
  p->bank_groups = (uint32_t)cfg_int(cfg, "dram.bank_groups");
  p->tCCDL = (uint32_t)cfg_int(cfg, "dram.tCCDL");
  p->tRTPL = (uint32_t)cfg_int(cfg, "dram.tRTPL");
  p->tCDLR = (uint32_t)cfg_int(cfg, "dram.tCDLR");
  p->turnaround = cfg_bool(cfg, "dram.rw_turnaround");
  if (p->bank_groups > p->banks || p->banks % p->bank_groups)
    return cfg_errorf(cfg, "dram.bank_groups", err, errlen, "%u groups do not divide %u banks",
                      p->bank_groups, p->banks);
  p->queue_size = (uint32_t)cfg_int(cfg, "dram.queue_size");
  p->return_queue = (uint32_t)cfg_int(cfg, "dram.return_queue");
  p->fcfs = !strcmp(cfg_str(cfg, "dram.scheduler"), "fcfs");
  p->dram_mhz = (uint32_t)cfg_int(cfg, "dram.clock_mhz");
  p->core_mhz = core_mhz;
  if (p->burst_length % p->data_rate)
    return cfg_errorf(cfg, "dram.burst_length", err, errlen,
                      "%u beats is not a whole number of command clocks at %u beats/clock", p->burst_length,
                      p->data_rate);
  return 0;
}

DramChannel *dram_create(const DramParams *p, char *err, size_t errlen) {
  if (!p->banks || !p->bus_width || !p->data_rate || !p->burst_length || p->burst_length % p->data_rate ||
      !p->queue_size || !p->return_queue || !p->dram_mhz || !p->core_mhz || !p->row_size) {
    snprintf(err, errlen, "%s: invalid DRAM parameters", p->name ? p->name : "dram");
    return NULL;
  }
  DramChannel *d = calloc(1, sizeof *d);
  if (!d) return snprintf(err, errlen, "out of memory"), NULL;
  d->p = *p;
  snprintf(d->name, sizeof d->name, "%s", p->name ? p->name : "dram");
  d->p.name = d->name;
  d->bank = calloc(p->banks, sizeof *d->bank);
  d->q = calloc(p->queue_size, sizeof *d->q);
  /* GPGPU-Sim 3.2.2: bk_tag_length = the bit count of banks / groups (not its log2) */
  uint32_t groups = p->bank_groups ? p->bank_groups : 1, shift = 0;
  for (uint32_t n = p->banks / groups; n; n >>= 1) shift++;
  d->p.bank_groups = groups, d->p.group_shift = shift;
  d->grp_col = calloc(p->banks, sizeof *d->grp_col); /* bank >> shift < banks */
  d->grp_pre = calloc(p->banks, sizeof *d->grp_pre);
  if (!d->bank || !d->q || !d->grp_col || !d->grp_pre || reqq_init(&d->ret, p->return_queue) ||
      reqq_init(&d->pend, p->return_queue)) {
    dram_free(d);
    return snprintf(err, errlen, "out of memory"), NULL;
  }
  for (uint32_t b = 0; b < p->banks; b++) d->bank[b].open_row = DRAM_NO_ROW;
  d->dirty = true;
  return d;
}

void dram_free(DramChannel *d) {
  if (!d) return;
  free(d->bank);
  free(d->q);
  free(d->grp_col);
  free(d->grp_pre);
  reqq_free(&d->ret);
  reqq_free(&d->pend);
  free(d);
}

/* ---- clock domains ---- */

/* Last DRAM cycle that has started by core cycle c: floor(c * dram / core). */
static uint64_t dram_cycle_at(const DramChannel *d, uint64_t core) {
  return core * d->p.dram_mhz / d->p.core_mhz;
}
/* First core cycle at or after DRAM cycle dc: ceil(dc * core / dram). */
static uint64_t dram_core_at(const DramParams *p, uint64_t dc) {
  return (dc * p->core_mhz + p->dram_mhz - 1) / p->dram_mhz;
}

static uint32_t dram_data_cycles(const DramParams *p, uint32_t bytes) {
  uint32_t per_burst = p->bus_width * p->burst_length;
  uint32_t bursts = (bytes + per_burst - 1) / per_burst;
  return (bursts ? bursts : 1) * (p->burst_length / p->data_rate);
}

/* Column commands of one bank group and of different groups: tCCDL and tCCD, at least a burst. */
static uint32_t dram_spacing_same(const DramParams *p) {
  uint32_t bc = p->burst_length / p->data_rate, other = p->tCCD > bc ? p->tCCD : bc;
  return p->tCCDL > other ? p->tCCDL : other;
}

/* DRAM cycles from a request's first column command to the end of its data,
 * less the CAS latency: its bursts, issued tCCDL apart in its bank's group
 * (dram_issue does the same). */
static uint32_t dram_read_span(const DramParams *p, uint32_t bytes) {
  uint32_t per_burst = p->bus_width * p->burst_length, bursts = (bytes + per_burst - 1) / per_burst;
  uint32_t bc = p->burst_length / p->data_rate, data = dram_data_cycles(p, bytes);
  uint32_t grouped = (bursts ? bursts - 1 : 0) * dram_spacing_same(p) + bc;
  return grouped > data ? grouped : data;
}

/* Column-to-column spacing of one request: its bursts, each at least tCCD apart. */
static uint32_t dram_col_spacing(const DramParams *p, uint32_t bytes) {
  uint32_t per_burst = p->bus_width * p->burst_length;
  uint32_t bursts = (bytes + per_burst - 1) / per_burst;
  uint32_t burst_cycles = p->burst_length / p->data_rate;
  return (bursts ? bursts : 1) * (p->tCCD > burst_cycles ? p->tCCD : burst_cycles);
}

/* A request pushed at core cycle c (after dram_tick(c)) arrives at DRAM cycle
 * floor(c * dram / core) + 1 and, on an open row of an idle channel, completes
 * tCL + transfer DRAM cycles later; the pattern repeats every core_mhz cycles. */
void dram_row_hit_span(const DramParams *p, uint32_t bytes, uint32_t *min, uint32_t *max) {
  uint64_t k = p->tCL + dram_read_span(p, bytes);
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint64_t c = 0; c < p->core_mhz; c++) {
    uint64_t a = c * p->dram_mhz / p->core_mhz + 1;
    uint32_t span = (uint32_t)(dram_core_at(p, a + k) - c);
    if (span < lo) lo = span;
    if (span > hi) hi = span;
  }
  *min = lo, *max = hi;
}

double dram_peak_bytes_per_core_cycle(const DramParams *p) {
  uint32_t burst_cycles = p->burst_length / p->data_rate;
  uint32_t spacing = p->tCCD > burst_cycles ? p->tCCD : burst_cycles;
  double per_dram_cycle = (double)(p->bus_width * p->burst_length) / spacing;
  return per_dram_cycle * p->dram_mhz / p->core_mhz;
}

/* ---- scheduling ---- */

static bool dram_bank_has_hit(const DramChannel *d, uint32_t bank) { return d->bank[bank].open_hits > 0; }

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The next command request i needs and the earliest DRAM cycle it is legal,
 * or UINT64_MAX when it must wait (a precharge that would close a row other
 * queued requests still hit, or a read with no return-queue room). */
static uint64_t dram_legal(const DramChannel *d, uint32_t i, DramCmd *cmd) {
  const DramReq *r = &d->q[i];
  const DramBank *b = &d->bank[r->bank];
  uint64_t t = max64(r->arrival, d->now_d + 1);
  if (b->open_row == r->row) {
    *cmd = CMD_COL;
    if ((!r->req.is_write || (r->req.flags & MEM_F_ACK_BELOW)) &&
        d->inflight + d->ret.count >= d->p.return_queue)
      return UINT64_MAX; /* a read, or a store whose ack it returns: room for its return */
    uint32_t lat = r->req.is_write ? d->p.tWL : d->p.tCL;
    t = max64(t, max64(b->col_ready, d->col_ready));
    t = max64(t, max64(d->grp_col[r->bank >> d->p.group_shift], r->req.is_write ? d->wr_ready : d->rd_ready));
    if (d->bus_free > t + lat) t = d->bus_free - lat;
    return t;
  }
  if (b->open_row != DRAM_NO_ROW) {
    *cmd = CMD_PRE;
    if (!d->p.fcfs && dram_bank_has_hit(d, r->bank)) return UINT64_MAX; /* keep serving the open row */
    return max64(max64(t, b->pre_ready), d->grp_pre[r->bank >> d->p.group_shift]);
  }
  *cmd = CMD_ACT;
  return max64(t, max64(b->act_ready, d->act_ready));
}

/* FR-FCFS choice at DRAM cycle t: the oldest request whose column access is
 * legal at t (a row hit), else the oldest request with any legal command.
 * FCFS considers the oldest request only. Returns the queue index or -1. */
static int dram_pick(const DramChannel *d, uint64_t t, DramCmd *cmd) {
  int any = -1;
  DramCmd any_cmd = CMD_ACT;
  uint32_t n = d->p.fcfs && d->nq ? 1 : d->nq;
  for (uint32_t i = 0; i < n; i++) {
    DramCmd c;
    if (dram_legal(d, i, &c) > t) continue;
    if (c == CMD_COL) return *cmd = c, (int)i;
    if (any < 0) any = (int)i, any_cmd = c;
  }
  *cmd = any_cmd;
  return any;
}

/* Only pushes, issues and return-queue movement change what is legal when,
 * so the answer is cached between them (DramChannel.dirty). */
static uint64_t dram_next_cmd(const DramChannel *cd) {
  DramChannel *d = (DramChannel *)cd; /* the cache is not observable state */
  if (!d->dirty) return d->next_cmd;
  uint64_t t = UINT64_MAX;
  uint32_t n = d->p.fcfs && d->nq ? 1 : d->nq;
  for (uint32_t i = 0; i < n; i++) {
    DramCmd c;
    uint64_t l = dram_legal(d, i, &c);
    if (l < t) t = l;
  }
  d->dirty = false;
  d->next_cmd = t;
  return t;
}

static void dram_issue(DramChannel *d, uint32_t i, DramCmd cmd, uint64_t t) {
  DramReq *r = &d->q[i];
  DramBank *b = &d->bank[r->bank];
  const DramParams *p = &d->p;
  if (!d->st.activates && !d->st.precharges && !d->st.reads && !d->st.writes) d->st.first_cycle = t;
  d->dirty = true;
  switch (cmd) {
  case CMD_ACT:
    b->open_row = r->row;
    b->open_hits = 0;
    for (uint32_t j = 0; j < d->nq; j++) b->open_hits += d->q[j].bank == r->bank && d->q[j].row == r->row;
    b->col_ready = t + p->tRCD;
    b->pre_ready = max64(b->pre_ready, t + p->tRAS);
    b->act_ready = t + p->tRC;
    d->act_ready = t + p->tRRD;
    r->needed_act = 1;
    d->st.activates++;
    return;
  case CMD_PRE:
    b->open_row = DRAM_NO_ROW;
    b->open_hits = 0;
    b->act_ready = max64(b->act_ready, t + p->tRP);
    r->needed_pre = 1;
    d->st.precharges++;
    return;
  case CMD_COL:
    break;
  }
  uint32_t bytes = r->req.bytes ? r->req.bytes : 1;
  uint32_t lat = r->req.is_write ? p->tWL : p->tCL, data = dram_data_cycles(p, bytes);
  /* A request of several bursts issues one column command per burst, all in
   * its bank's group: tCCDL apart (GPGPU-Sim sends a request's bursts as
   * consecutive commands to one bank). Without bank groups this is the
   * request's dram_col_spacing. */
  uint32_t per_burst = p->bus_width * p->burst_length, bursts = (bytes + per_burst - 1) / per_burst;
  uint32_t bc = p->burst_length / p->data_rate, other = p->tCCD > bc ? p->tCCD : bc;
  uint32_t same = p->tCCDL > other ? p->tCCDL : other;
  if (!bursts) bursts = 1;
  uint64_t last = t + (uint64_t)(bursts - 1) * same; /* the last burst's column command */
  uint64_t data_end = same == other ? t + lat + data : max64(t + lat + data, last + lat + bc);
  uint32_t g = r->bank >> p->group_shift;
  d->bus_free = data_end;
  d->col_ready = same == other ? t + dram_col_spacing(p, bytes) : last + other;
  d->grp_col[g] = last + same;
  if (p->turnaround) {
    if (r->req.is_write)
      d->rd_ready = max64(d->rd_ready, last + p->tWL + bc + p->tCDLR);
    else if (p->tCL + bc + 2 > p->tWL)
      d->wr_ready = max64(d->wr_ready, last + p->tCL + bc + 2 - p->tWL);
  }
  if (!r->req.is_write) { /* read to precharge: the bank (a burst, with the turnarounds), its group (tRTPL) */
    if (p->turnaround) b->pre_ready = max64(b->pre_ready, last + bc);
    if (p->tRTPL) d->grp_pre[g] = max64(d->grp_pre[g], last + p->tRTPL);
  }
  d->st.data_cycles += data;
  d->st.bytes += bytes;
  d->st.last_cycle = data_end;
  if (r->needed_pre)
    d->st.row_conflicts++;
  else if (r->needed_act)
    d->st.row_closed++;
  else
    d->st.row_hits++;
  if (r->req.is_write) {
    b->pre_ready = max64(b->pre_ready, data_end + p->tWR);
    d->st.writes++;
    if (r->req.flags & MEM_F_ACK_BELOW) { /* returned, written, as its ack (the header only) */
      MEM_DCHECK(!reqq_full(&d->pend), t, d->name, "return tracking overflow");
      reqq_push(&d->pend, &r->req, dram_core_at(p, data_end));
      d->inflight++;
    }
  } else {
    uint64_t done = dram_core_at(p, data_end);
    d->st.reads++;
    d->st.latency_sum += done - r->push_core;
    MEM_DCHECK(!reqq_full(&d->pend), t, d->name, "return tracking overflow");
    reqq_push(&d->pend, &r->req, done);
    d->inflight++;
  }
  b->open_hits--; /* a column access always serves the open row */
  memmove(&d->q[i], &d->q[i + 1], (d->nq - i - 1) * sizeof *d->q);
  d->nq--;
}

bool dram_can_accept(const DramChannel *d) { return d->nq < d->p.queue_size; }

void dram_push(DramChannel *d, const MemRequest *r, uint32_t bank, uint32_t row, uint64_t now) {
  MEM_DCHECK(d->nq < d->p.queue_size, now, d->name, "push to a full DRAM queue");
  MEM_DCHECK(bank < d->p.banks, now, d->name, "bank %u out of range", bank);
  /* The DRAM cycle after the last one that started by core cycle `now`: the
   * same whether or not the idle channel was ticked in the meantime. */
  uint64_t a = dram_cycle_at(d, now) + 1;
  d->q[d->nq++] = (DramReq){.req = *r, .arrival = a, .push_core = now, .bank = bank, .row = row};
  d->bank[bank].open_hits += d->bank[bank].open_row == row;
  d->dirty = true;
}

void dram_tick(DramChannel *d, uint64_t now) {
  /* Nothing queued or in flight: no command can issue, and a later push takes
   * its arrival from the clock itself (dram_push), so the idle channel needs
   * no tick at all. */
  if (!d->nq && reqq_empty(&d->pend)) return;
  uint64_t target;
  if (now == d->tick_core + 1 && d->tick_core) {
    target = d->tick_target;
    d->tick_rem += d->p.dram_mhz;
    while (d->tick_rem >= d->p.core_mhz) d->tick_rem -= d->p.core_mhz, target++;
  } else {
    target = dram_cycle_at(d, now);
    d->tick_rem = now * d->p.dram_mhz % d->p.core_mhz;
  }
  d->tick_core = now;
  d->tick_target = target;
  for (;;) {
    uint64_t t = dram_next_cmd(d);
    if (t > target) break;
    DramCmd cmd;
    int i = dram_pick(d, t, &cmd);
    MEM_DCHECK(i >= 0, now, d->name, "no command at its legal cycle %llu", (unsigned long long)t);
    dram_issue(d, (uint32_t)i, cmd, t);
    d->now_d = t;
  }
  if (target > d->now_d) d->now_d = target;
  while (reqq_ready(&d->pend, now) && !reqq_full(&d->ret)) {
    ReqSlot *s = d->pend.head;
    reqq_push(&d->ret, &s->req, s->ready);
    reqq_pop(&d->pend);
    d->inflight--;
    d->dirty = true;
  }
}

const MemRequest *dram_peek_return(const DramChannel *d, uint64_t now) {
  return reqq_ready(&d->ret, now) ? &d->ret.head->req : NULL;
}

void dram_pop_return(DramChannel *d) {
  reqq_pop(&d->ret);
  d->dirty = true;
}

uint64_t dram_next_event(const DramChannel *d, uint64_t now) {
  uint64_t t = UINT64_MAX;
  if (!reqq_empty(&d->ret)) t = now + 1;
  if (!reqq_empty(&d->pend)) {
    uint64_t r = max64(reqq_next_ready(&d->pend), now + 1);
    if (r < t) t = r;
  }
  uint64_t c = dram_next_cmd(d);
  if (c != UINT64_MAX) {
    uint64_t core = max64(dram_core_at(&d->p, c), now + 1);
    if (core < t) t = core;
  }
  return t;
}

bool dram_idle(const DramChannel *d) { return !d->nq && reqq_empty(&d->ret) && reqq_empty(&d->pend); }
const DramStats *dram_stats(const DramChannel *d) { return &d->st; }

void dram_stats_add(DramStats *sum, const DramStats *s) {
  uint64_t first = sum->reads + sum->writes ? sum->first_cycle : s->first_cycle;
  if (s->reads + s->writes && s->first_cycle < first) first = s->first_cycle;
  uint64_t last = s->last_cycle > sum->last_cycle ? s->last_cycle : sum->last_cycle;
  const uint64_t *src = (const uint64_t *)s;
  uint64_t *dst = (uint64_t *)sum;
  for (size_t i = 0; i < sizeof *s / sizeof(uint64_t); i++) dst[i] += src[i];
  sum->first_cycle = first, sum->last_cycle = last;
}

/* The channel's statistics (stats.h); p gives the peak bandwidth. */
void dram_stats_emit(const DramStats *s, const DramParams *p, StatsOut *o) {
  uint64_t acc = s->reads + s->writes;
  STAT_U64(o, "reads", "requests", STAT_SUM, STAT_NEUTRAL, "read requests served", s->reads);
  STAT_U64(o, "writes", "requests", STAT_SUM, STAT_NEUTRAL, "write requests served", s->writes);
  STAT_U64(o, "row_hits", "requests", STAT_SUM, STAT_HIGHER, "requests whose row was open", s->row_hits);
  STAT_U64(o, "row_closed", "requests", STAT_SUM, STAT_NEUTRAL, "requests that needed an activate only",
           s->row_closed);
  STAT_U64(o, "row_conflicts", "requests", STAT_SUM, STAT_LOWER,
           "requests that needed a precharge and an activate", s->row_conflicts);
  STAT_F64(o, "row_hit_rate", "fraction", STAT_RATIO, STAT_HIGHER, 6, "row_hits / (reads + writes)",
           acc ? (double)s->row_hits / (double)acc : 0.0);
  STAT_U64(o, "activates", "commands", STAT_SUM, STAT_NEUTRAL, "row activations", s->activates);
  STAT_U64(o, "precharges", "commands", STAT_SUM, STAT_NEUTRAL, "row precharges", s->precharges);
  STAT_U64(o, "bytes", "bytes", STAT_SUM, STAT_NEUTRAL, "bytes moved on the data bus", s->bytes);
  STAT_U64(o, "data_cycles", "dram_cycles", STAT_SUM, STAT_NEUTRAL, "DRAM cycles the data bus carried data",
           s->data_cycles);
  STAT_F64(o, "avg_read_latency", "cycles", STAT_MEAN, STAT_LOWER, 4,
           "core cycles from the controller's queue to a read's last data beat",
           s->reads ? (double)s->latency_sum / (double)s->reads : 0.0);
  STAT_F64(o, "peak_bytes_per_core_cycle", "bytes/cycle", STAT_INFO, STAT_NEUTRAL, 4,
           "the channel's peak bandwidth (a setting)", dram_peak_bytes_per_core_cycle(p));
}

void dram_dump(const DramChannel *d, FILE *out) {
  fprintf(out, "%s: queue %u/%u, in flight %u, returns %u, dram cycle %llu\n", d->name, d->nq,
          d->p.queue_size, d->inflight, d->ret.count, (unsigned long long)d->now_d);
}
