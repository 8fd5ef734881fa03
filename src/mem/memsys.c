/* memsys.c - assembly and clocking of the memory system: L1s per SM, the two
 * crossbars, the partitions; derivation of the fixed pipeline delays from the
 * configured minimum latencies; aggregate statistics.
 * Depends on cache, icnt, partition, dram, addrmap and core/config.
 */
#include "mem/memsys.h"

#include <stdlib.h>
#include <string.h>

#include "core/bitmap.h"
#include "mem/addrmap.h"
#include "mem/mem_assert.h"
#include "mem/partition.h"
#include "mem/reqq.h"

static const CfgParam memsys_params[] = {
    {.key = "mem.partitions",
     .type = CFG_INT,
     .def = "6",
     .min = 1,
     .max = 1024,
     .desc = "memory partitions = DRAM channels, each with one L2 slice"},
    {.key = "mem.partition_chunk",
     .type = CFG_INT,
     .def = "256",
     .min = 1,
     .max = 1 << 30,
     .desc = "bytes of consecutive addresses per partition before the next (multiple of the L2 line)"},
    {.key = "l2.min_latency",
     .type = CFG_INT,
     .def = "120",
     .min = 1,
     .max = 1000000,
     .desc = "unloaded L1 miss -> reply latency of an L2 hit (core cycles); sets the L2 input delay"},
    {.key = "l2.input_queue",
     .type = CFG_INT,
     .def = "8",
     .min = 1,
     .max = 65535,
     .desc = "requests queued before a partition's L2 beyond those inside its input delay line"},
    {.key = "l2.rop_latency",
     .type = CFG_INT,
     .def = "120",
     .min = 0,
     .max = 1000000,
     .desc = "GPGPU-Sim's ROP delay (-rop_latency): core cycles every request waits between arriving at its "
             "partition and the L2; the unloaded latencies follow from it and the interconnect (0: the L2 "
             "input delay is derived from l2.min_latency instead)"},
    {.key = "dram.latency_queue",
     .type = CFG_INT,
     .def = "100",
     .min = 0,
     .max = 1000000,
     .desc =
         "GPGPU-Sim's DRAM latency queue (-dram_latency): core cycles an L2 miss waits between the L2 "
         "and the DRAM scheduler's queue (0: the controller delay is derived from dram.min_latency instead)"},
    {.key = "dram.min_latency",
     .type = CFG_INT,
     .def = "220",
     .min = 1,
     .max = 1000000,
     .desc = "unloaded L1 miss -> reply latency of an L2 miss served by an open DRAM row; sets the "
             "controller delay"},
    {0},
};

/* The three cache instances share cache_params[] with their own defaults. */
const CfgGroup memsys_cfg_groups[] = {
    {"", memsys_params, NULL},
    {"l1d.", cache_params,
     "size=16K line_size=128 assoc=4 mshr_entries=32 mshr_max_merge=8 miss_queue=8 latency=1 ports=1 "
     "policy=lru write_policy=local_back bypass_cg=true merge_touch=true"},
    {"l1i.", cache_params,
     "size=2K line_size=128 assoc=4 mshr_entries=2 mshr_max_merge=32 miss_queue=4 latency=1 ports=1 "
     "policy=lru write_policy=evict bypass_cg=false"},
    {"l1c.", cache_params,
     "size=8K line_size=64 assoc=2 mshr_entries=2 mshr_max_merge=32 miss_queue=4 latency=1 ports=1 "
     "policy=lru write_policy=evict bypass_cg=false"},
    {"l2.", cache_params,
     "size=768K line_size=128 assoc=8 mshr_entries=64 mshr_max_merge=4 miss_queue=8 latency=1 ports=1 "
     "policy=lru write_policy=back_fetch write_ack=below bypass_cg=false merge_touch=true"},
    {"icnt.", icnt_cfg_params, NULL},
    {"dram.", dram_cfg_params, NULL},
    {NULL, NULL, NULL},
};

const char *const memsys_cache_names[] = {"l1d", "l1i", "l1c", "l2", NULL};

/* A partition and the first cycle its tick can do anything (partition_next_event):
 * side by side, so that the partition loop steps one pointer. */
typedef struct MemPart {
  Partition *pt;
  uint64_t wake;
} MemPart;

struct MemSys {
  uint32_t n_sm, n_part, line; /* line: the L2's */
  uint32_t l1_line;
  uint32_t sms_per_port, n_port; /* SMs sharing a crossbar port (a cluster); ports */
  Cache **l1;                    /* n_sm * MEM_UNIT__COUNT, indexed sm * MEM_UNIT__COUNT + unit */
  uint8_t *inject_rr;
  uint64_t *miss_nz;    /* bit per SM: one of its L1s' miss queues may hold a request */
  uint64_t *sm_events;  /* two bitmaps over SMs: an L1 got a fill / had a miss-queue pop (memsys_sm_events) */
  uint64_t *pop_events; /* the second of them */
  Icnt *req, *reply;
  MemPart *part;     /* n_part */
  uint64_t wake_min; /* the smallest part[].wake: no partition is visited before it */
  uint64_t *room;    /* bit per partition: the reply network made room for its held reply */
  uint64_t now;      /* the cycle of the last memsys_tick */
  bool sleep;        /* sm.skip_idle_cycles: partitions sleep until their wake (exact either way) */
  AddrMap map;
  uint32_t header_bytes;
  bool reply_hold;     /* icnt.reply_hold = gpgpusim: replies pass a response FIFO per port */
  bool xbar;           /* icnt.model = intersim */
  ReqQueue *fifo;      /* per port: arrived replies, ready = the cycle they may reach the L1 */
  uint64_t *fifo_nz;   /* bit per port: its FIFO is not empty */
  MemSysReplyStats rs; /* eject_waits, refused (mem_stalls: the partitions') */
  MemSysDelays delays;
  DramParams dram;
};

/* ---- delay derivation ----
 * The unloaded path of an L1 read miss, with the tick order of memsys_tick:
 *   t      SM accesses the L1, miss queued
 *   t+1    L1 miss queue -> request network source queue
 *   t+2    sent; arrives after ceil(req_flits/fpc) - 1 + icnt.latency
 *   +in    partition input pipeline (l2_input), then the L2 tag access
 *   +lat   L2 hit reply (max(l2.latency, 1)) -> reply network
 *   +1     sent; arrives after ceil(reply_flits/fpc) - 1 + icnt.latency: L1 fill, reply popped
 * An L2 miss instead leaves the L2 one cycle later, spends dram_ctrl cycles in
 * the controller delay line, and reaches the reply network in the cycle its
 * data completes, dram_row_hit_span() cycles after it entered the DRAM queue
 * for an open row (the smallest over clock phases, so the configured minimum
 * is met exactly at the best phase and exceeded by <= 1 cycle at others).
 * The two fixed delays are what is left of the configured minima, or, with
 * l2.rop_latency / dram.latency_queue > 0, those (GPGPU-Sim's ROP delay and
 * DRAM latency queue) and the minima what they add up to. */
static int memsys_derive(MemSys *ms, const Config *cfg, const IcntParams *rq, const IcntParams *rp,
                         const CacheParams *l2, char *err, size_t errlen) {
  uint32_t req_flits = (ms->header_bytes + rq->flit_size - 1) / rq->flit_size;
  uint32_t rep_flits = (ms->header_bytes + ms->l1_line + rp->flit_size - 1) / rp->flit_size;
  uint32_t sreq = (req_flits ? req_flits : 1), srep = rep_flits ? rep_flits : 1;
  /* a packet is serialized at the slower of its two ports */
  uint32_t rq_bw =
      rq->src_flits_per_cycle < rq->dst_flits_per_cycle ? rq->src_flits_per_cycle : rq->dst_flits_per_cycle;
  uint32_t rp_bw =
      rp->src_flits_per_cycle < rp->dst_flits_per_cycle ? rp->src_flits_per_cycle : rp->dst_flits_per_cycle;
  sreq = (sreq + rq_bw - 1) / rq_bw;
  srep = (srep + rp_bw - 1) / rp_bw;
  uint32_t l2lat = l2->latency ? l2->latency : 1;
  /* the response FIFO (icnt.reply_hold) hands a reply to the L1 the cycle after it arrives */
  uint32_t fixed = 3 + rq->latency + rp->latency + (sreq - 1) + (srep - 1) + l2lat + ms->reply_hold;
  int64_t want = cfg_int(cfg, "l2.min_latency");
  /* GPGPU-Sim 3.2.2's mechanism, so its latencies match: the ROP delay is the input delay
   * and the DRAM latency queue the controller delay; the minima follow from
   * them (the configured ones are then unused) */
  const int64_t rop = cfg_int(cfg, "l2.rop_latency"), dq = cfg_int(cfg, "dram.latency_queue");
  if (rop > 0) want = (int64_t)fixed + rop;
  if (want < (int64_t)fixed + 1)
    return cfg_errorf(
        cfg, "l2.min_latency", err, errlen,
        "%lld is below the fixed part of an L2 hit's path (%u cycles: interconnect, L2 latency) + 1",
        (long long)want, fixed);
  ms->delays.l2_fixed = fixed;
  ms->delays.l2_input = (uint32_t)(want - fixed);
  uint32_t row_hit, row_hit_max;
  dram_row_hit_span(&ms->dram, ms->line, &row_hit, &row_hit_max);
  ms->delays.dram_row_hit = row_hit;
  int64_t dwant = cfg_int(cfg, "dram.min_latency");
  int64_t ctrl = dwant - (int64_t)want + (int64_t)l2lat - 1 - (int64_t)row_hit;
  if (dq > 0) ctrl = dq;
  if (ctrl < 1)
    return cfg_errorf(
        cfg, "dram.min_latency", err, errlen,
        "%lld leaves no controller delay: it must exceed l2.min_latency (%lld) by at least %lld "
        "(DRAM row hit %u cycles + 2 - L2 latency %u)",
        (long long)dwant, (long long)want, (long long)row_hit + 2 - l2lat, row_hit, l2lat);
  ms->delays.dram_ctrl = (uint32_t)ctrl;
  return 0;
}

/* ---- creation ---- */

/* The memory partitions' ports carry `bw` flits per cycle, the SMs' icnt.sm_flits_per_cycle;
 * sm_is_src: the SMs are the sources (request network). */
static int memsys_icnt_params(const Config *cfg, IcntParams *p, const char *name, const char *bw,
                              uint32_t n_src, uint32_t n_dst, bool sm_is_src) {
  uint32_t mem_bw = (uint32_t)cfg_int(cfg, bw), sm_bw = (uint32_t)cfg_int(cfg, "icnt.sm_flits_per_cycle");
  *p = (IcntParams){.name = name,
                    .n_src = n_src,
                    .n_dst = n_dst,
                    .latency = (uint32_t)cfg_int(cfg, "icnt.latency"),
                    .flits_per_cycle = mem_bw,
                    .src_flits_per_cycle = sm_is_src ? sm_bw : mem_bw,
                    .dst_flits_per_cycle = sm_is_src ? mem_bw : sm_bw,
                    .flit_size = (uint32_t)cfg_int(cfg, "icnt.flit_size"),
                    .in_queue = (uint32_t)cfg_int(cfg, "icnt.in_queue"),
                    .out_queue = (uint32_t)cfg_int(cfg, "icnt.out_queue")};
  return 0;
}

/* icnt.model = intersim: both networks are GPGPU-Sim 3.2.2's crossbar (xbar.h), one node per
 * SM port and intersim_sub_partitions per memory partition. The delay derivation sees its
 * unloaded latency (probed on an empty network) and a rate of one flit per node and network
 * cycle, so l2.min_latency keeps its meaning. The interface's HasBuffer holds replies at the
 * partitions, so the reply side must be GPGPU-Sim's (reply_hold = gpgpusim). */
static int memsys_xbar_params(MemSys *ms, const Config *cfg, XbarParams *xp, IcntParams *rq, IcntParams *rp,
                              char *err, size_t errlen) {
  if (!ms->reply_hold)
    return cfg_errorf(cfg, "icnt.model", err, errlen,
                      "intersim needs icnt.reply_hold = gpgpusim (its interface holds replies at the "
                      "partitions and the SMs take one per cycle)");
  const uint32_t sub = (uint32_t)cfg_int(cfg, "icnt.intersim_sub_partitions");
  if (sub & (sub - 1))
    return cfg_errorf(cfg, "icnt.intersim_sub_partitions", err, errlen, "%u is not a power of two", sub);
  if ((uint64_t)ms->n_part * sub > 65535 || ms->n_port > 65535)
    return cfg_errorf(cfg, "icnt.intersim_sub_partitions", err, errlen, "%u x %u network nodes: too many",
                      ms->n_part, sub);
  *xp = (XbarParams){.vc_buf = (uint32_t)cfg_int(cfg, "icnt.intersim_vc_buf_size"),
                     .input_buf = (uint32_t)cfg_int(cfg, "icnt.intersim_input_buffer_size"),
                     .boundary_buf = (uint32_t)cfg_int(cfg, "icnt.intersim_boundary_buffer_size"),
                     .internal_speedup = (uint32_t)cfg_int(cfg, "icnt.intersim_internal_speedup"),
                     .steps = (uint32_t)cfg_int(cfg, "icnt.intersim_clock_ratio"),
                     .flit_size = rq->flit_size,
                     .n_in = 1,
                     .n_out = 1};
  /* a reply must fit the input queue, or it could never enter (HasBuffer) */
  const uint32_t max_flits = (ms->header_bytes + ms->l1_line + rq->flit_size - 1) / rq->flit_size;
  if (max_flits > xp->input_buf)
    return cfg_errorf(cfg, "icnt.intersim_input_buffer_size", err, errlen,
                      "%u flits: a %u-flit packet could never enter", xp->input_buf, max_flits);
  if (xp->boundary_buf < max_flits)
    return cfg_errorf(cfg, "icnt.intersim_boundary_buffer_size", err, errlen,
                      "%u flits: a %u-flit packet could never eject", xp->boundary_buf, max_flits);
  const uint32_t lat = xbar_unloaded_latency(xp);
  for (IcntParams *p = rq; p; p = p == rq ? rp : NULL) {
    p->xbar = xp, p->map = &ms->map;
    p->src_nodes = p == rq ? 1 : sub, p->dst_nodes = p == rq ? sub : 1;
    p->latency = lat > 1 ? lat - 1 : 1;
    p->src_flits_per_cycle = p->dst_flits_per_cycle = xp->steps;
  }
  return 0;
}

MemSys *memsys_create(const Config *cfg, PolicyGpu *pg, const MemSysPolicies *pol, char *err, size_t errlen) {
  MemSys *ms = calloc(1, sizeof *ms);
  if (!ms) return snprintf(err, errlen, "out of memory"), NULL;
  if (errlen) err[0] = 0;
  ms->n_sm = (uint32_t)cfg_int(cfg, "sm.count");
  ms->n_part = (uint32_t)cfg_int(cfg, "mem.partitions");
  ms->header_bytes = (uint32_t)cfg_int(cfg, "icnt.header_bytes");
  ms->sleep = cfg_bool(cfg, "sm.skip_idle_cycles");
  ms->reply_hold = !strcmp(cfg_str(cfg, "icnt.reply_hold"), "gpgpusim");
  ms->xbar = !strcmp(cfg_str(cfg, "icnt.model"), "intersim");
  CacheParams l1d, l1i, l1c, l2;
  if (cache_params_read(cfg, "l1d", &l1d, err, errlen) || cache_params_read(cfg, "l1i", &l1i, err, errlen) ||
      cache_params_read(cfg, "l1c", &l1c, err, errlen) || cache_params_read(cfg, "l2", &l2, err, errlen))
    goto fail;
  l1d.policy = pol->l1d, l1i.policy = pol->l1i, l1c.policy = pol->l1c, l2.policy = pol->l2;
  ms->line = l2.line_size;
  ms->l1_line = l1d.line_size;
  /* The L2's line may hold several L1 lines (the GT200 preset: 256 B over 128 B) */
  if (l1d.line_size != l1i.line_size || l2.line_size % l1d.line_size) {
    cfg_errorf(cfg, "l1d.line_size", err, errlen,
               "L1D and L1I must share one line size, and the L2's must be a multiple of it (%u, %u, %u)",
               l1d.line_size, l1i.line_size, l2.line_size);
    goto fail;
  }
  if (l1c.line_size > l1d.line_size) { /* a reply carries at most the L2's line; one fill per line */
    cfg_errorf(cfg, "l1c.line_size", err, errlen, "%u B is longer than the L1D's %u B line", l1c.line_size,
               l1d.line_size);
    goto fail;
  }
  uint32_t chunk = (uint32_t)cfg_int(cfg, "mem.partition_chunk");
  if (chunk % ms->line) {
    cfg_errorf(cfg, "mem.partition_chunk", err, errlen, "%u is not a multiple of the %u B line", chunk,
               ms->line);
    goto fail;
  }
  if (l2.size % ms->n_part || (l2.size / ms->n_part) % (l2.line_size * l2.assoc)) {
    cfg_errorf(cfg, "l2.size", err, errlen, "%u B does not split into %u slices of whole %u-way sets",
               l2.size, ms->n_part, l2.assoc);
    goto fail;
  }
  l2.size /= ms->n_part;
  l2.index_parts = ms->n_part;
  l2.index_chunk_lines = chunk / ms->line;
  if (dram_params_read(cfg, (uint32_t)cfg_int(cfg, "sm.clock_mhz"), &ms->dram, err, errlen)) goto fail;
  if (ms->dram.row_size % ms->line) {
    cfg_errorf(cfg, "dram.row_size", err, errlen, "%u is not a multiple of the %u B line", ms->dram.row_size,
               ms->line);
    goto fail;
  }
  ms->map = addrmap_make(ms->n_part, chunk, ms->dram.banks, ms->dram.row_size);
  const char *amap = cfg_str(cfg, "dram.addr_map");
  if (strcmp(amap, "linear")) {
    char why[128];
    if (addrmap_parse_mask(&ms->map, amap, ms->dram.banks, ms->line, why, sizeof why)) {
      cfg_errorf(cfg, "dram.addr_map", err, errlen, "'%s': %s", amap, why);
      goto fail;
    }
  }
  ms->sms_per_port = (uint32_t)cfg_int(cfg, "icnt.sms_per_port");
  ms->n_port = (ms->n_sm + ms->sms_per_port - 1) / ms->sms_per_port;
  IcntParams rq, rp;
  memsys_icnt_params(cfg, &rq, "icnt.req", "icnt.req_flits_per_cycle", ms->n_port, ms->n_part, true);
  memsys_icnt_params(cfg, &rp, "icnt.reply", "icnt.reply_flits_per_cycle", ms->n_part, ms->n_port, false);
  if (ms->reply_hold) rp.in_flits = (uint32_t)cfg_int(cfg, "icnt.reply_input_flits");
  XbarParams xp;
  if (ms->xbar && memsys_xbar_params(ms, cfg, &xp, &rq, &rp, err, errlen)) goto fail;
  if (memsys_derive(ms, cfg, &rq, &rp, &l2, err, errlen)) goto fail;
  ms->req = icnt_create(&rq, err, errlen);
  ms->reply = ms->req ? icnt_create(&rp, err, errlen) : NULL;
  if (!ms->reply) goto fail;
  ms->l1 = calloc((size_t)ms->n_sm * MEM_UNIT__COUNT, sizeof *ms->l1);
  ms->inject_rr = calloc(ms->n_sm, 1);
  ms->miss_nz = calloc(bitmap_words(ms->n_sm), sizeof *ms->miss_nz);
  ms->sm_events = calloc(2 * (size_t)bitmap_words(ms->n_sm), sizeof *ms->sm_events);
  ms->part = calloc(ms->n_part, sizeof *ms->part);
  ms->room = calloc(bitmap_words(ms->n_part), sizeof *ms->room);
  if (!ms->l1 || !ms->inject_rr || !ms->miss_nz || !ms->sm_events || !ms->part || !ms->room) goto oom;
  if (ms->reply_hold) {
    uint32_t cap = (uint32_t)cfg_int(cfg, "icnt.reply_fifo");
    ms->fifo = calloc(ms->n_port, sizeof *ms->fifo);
    ms->fifo_nz = calloc(bitmap_words(ms->n_port), sizeof *ms->fifo_nz);
    if (!ms->fifo || !ms->fifo_nz) goto oom;
    for (uint32_t p = 0; p < ms->n_port; p++)
      if (reqq_init(&ms->fifo[p], cap)) goto oom;
  }
  ms->pop_events = ms->sm_events + bitmap_words(ms->n_sm);
  l1d.level = l1i.level = l1c.level = 1;
  l1d.gpu = l1i.gpu = l1c.gpu = l2.gpu = pg;
  for (uint32_t s = 0; s < ms->n_sm; s++) {
    l1d.sm = l1i.sm = l1c.sm = (int32_t)s;
    l1d.instance = l1i.instance = l1c.instance = s;
    if (!(ms->l1[s * MEM_UNIT__COUNT + MEM_UNIT_L1D] = cache_create(&l1d, cfg, err, errlen))) goto fail;
    if (!(ms->l1[s * MEM_UNIT__COUNT + MEM_UNIT_L1I] = cache_create(&l1i, cfg, err, errlen))) goto fail;
    if (!(ms->l1[s * MEM_UNIT__COUNT + MEM_UNIT_L1C] = cache_create(&l1c, cfg, err, errlen))) goto fail;
    for (uint32_t u = 0; u < MEM_UNIT__COUNT; u++)
      cache_set_miss_notify(ms->l1[s * MEM_UNIT__COUNT + u], &ms->miss_nz[s / 64], 1ull << (s % 64));
  }
  for (uint32_t p = 0; p < ms->n_part; p++) {
    PartitionParams pp = {.id = p,
                          .input_queue = (uint32_t)cfg_int(cfg, "l2.input_queue"),
                          .input_rate = rq.flits_per_cycle,
                          .input_delay = ms->delays.l2_input,
                          .ctrl_delay = ms->delays.dram_ctrl,
                          .header_bytes = ms->header_bytes,
                          .l1_line = ms->l1_line,
                          .l1c_line = l1c.line_size,
                          .sms_per_port = ms->sms_per_port,
                          .reply_hold = ms->reply_hold,
                          .sleep = ms->sleep,
                          .l2 = l2,
                          .dram = ms->dram,
                          .map = ms->map};
    if (!(ms->part[p].pt = partition_create(&pp, cfg, err, errlen))) goto fail;
  }
  return ms;
oom:
  snprintf(err, errlen, "out of memory");
fail:
  memsys_free(ms);
  return NULL;
}

void memsys_free(MemSys *ms) {
  if (!ms) return;
  for (uint32_t i = 0; ms->l1 && i < ms->n_sm * MEM_UNIT__COUNT; i++) cache_free(ms->l1[i]);
  for (uint32_t p = 0; ms->part && p < ms->n_part; p++) partition_free(ms->part[p].pt);
  free(ms->l1);
  free(ms->inject_rr);
  free(ms->miss_nz);
  free(ms->sm_events);
  free(ms->part);
  free(ms->room);
  for (uint32_t p = 0; ms->fifo && p < ms->n_port; p++) reqq_free(&ms->fifo[p]);
  free(ms->fifo);
  free(ms->fifo_nz);
  icnt_free(ms->req);
  icnt_free(ms->reply);
  free(ms);
}

uint32_t memsys_sms(const MemSys *ms) { return ms->n_sm; }
uint64_t *memsys_sm_events(MemSys *ms) { return ms->sm_events; }
uint32_t memsys_partitions(const MemSys *ms) { return ms->n_part; }
Cache *memsys_l1d(MemSys *ms, uint32_t sm) { return ms->l1[sm * MEM_UNIT__COUNT + MEM_UNIT_L1D]; }
Cache *memsys_l1i(MemSys *ms, uint32_t sm) { return ms->l1[sm * MEM_UNIT__COUNT + MEM_UNIT_L1I]; }
Cache *memsys_l1c(MemSys *ms, uint32_t sm) { return ms->l1[sm * MEM_UNIT__COUNT + MEM_UNIT_L1C]; }
/* The partitions' counts as the ticks a nap skipped would have left them (a run stopped by a
 * limit reads them mid-nap). Not observable state: callers that only read take a const MemSys. */
static void memsys_settle(const MemSys *ms) {
  for (uint32_t p = 0; p < ms->n_part; p++) partition_settle(ms->part[p].pt, ms->now);
}

Cache *memsys_l2(MemSys *ms, uint32_t p) {
  partition_settle(ms->part[p].pt, ms->now);
  return partition_l2(ms->part[p].pt);
}
DramChannel *memsys_dram(MemSys *ms, uint32_t p) { return partition_dram(ms->part[p].pt); }
uint32_t memsys_partition_of(const MemSys *ms, uint64_t addr) { return addrmap_partition(&ms->map, addr); }
const MemSysDelays *memsys_delays(const MemSys *ms) { return &ms->delays; }

MemSysReplyStats memsys_reply_stats(const MemSys *ms) {
  memsys_settle(ms);
  MemSysReplyStats r = ms->rs;
  for (uint32_t p = 0; p < ms->n_part; p++) r.mem_stalls += partition_reply_stalls(ms->part[p].pt);
  return r;
}

/* ---- clocking ---- */

/* Moves an SM's L1 misses into the request network, round-robin over its L1s
 * with a miss (the one after the last sent first), so none starves the others; while
 * only the L1D and L1I have misses this alternates between them. An SM that shares its port (a cluster)
 * sends at most one request per cycle, as a GPGPU-Sim core does, so that the
 * first SM of a cluster cannot fill the port's queue every cycle. */
static inline __attribute__((always_inline)) void memsys_inject(MemSys *ms, uint32_t sm, uint64_t now,
                                                                const bool xbar) {
  Cache *const *l1 = &ms->l1[sm * MEM_UNIT__COUNT];
  _Static_assert(MEM_UNIT__COUNT == 3, "memsys_inject: three L1s");
  const MemRequest *h[3] = {cache_miss_head(l1[0]), cache_miss_head(l1[1]), cache_miss_head(l1[2])};
  const bool shared = ms->sms_per_port > 1;
  const uint32_t port = shared ? sm / ms->sms_per_port : sm;
  for (uint32_t sent = 0; (h[0] || h[1] || h[2]) && icnt_can_push(ms->req, port) && !(shared && sent);
       sent++) {
    uint32_t u = ms->inject_rr[sm];
    while (!h[u]) u = u == 2 ? 0 : u + 1;
    uint32_t bytes = ms->header_bytes + (h[u]->is_write ? h[u]->bytes : 0);
    /* icnt.model = intersim: GPGPU-Sim's HasBuffer for this packet's flits */
    if (xbar && !icnt_has_room_for(ms->req, port, h[u], bytes, now)) break;
    ms->inject_rr[sm] = (uint8_t)(u == 2 ? 0 : u + 1);
    if (xbar)
      icnt_push_for(ms->req, port, addrmap_partition(&ms->map, h[u]->line_addr), h[u], bytes, now);
    else
      icnt_push(ms->req, port, addrmap_partition(&ms->map, h[u]->line_addr), h[u], bytes, now);
    cache_miss_pop(l1[u]);
    bitmap_set(ms->pop_events, sm);
    h[u] = cache_miss_head(l1[u]);
  }
  if (!h[0] && !h[1] && !h[2]) bitmap_clear(ms->miss_nz, sm);
}

/* memsys_inject for every SM with a miss, icnt.model = intersim (out of line: the usual path
 * stays as small as without it). */
static __attribute__((noinline)) void memsys_inject_xbar(MemSys *ms, uint64_t now) {
  BITMAP_FOREACH_ALL(s, ms->miss_nz, bitmap_words(ms->n_sm)) memsys_inject(ms, s, now, true);
}

/* Partitions whose held reply napped (partition_tick) and now has room are due now. */
static __attribute__((noinline)) void memsys_room_wake(MemSys *ms, uint64_t now) {
  icnt_take_room(ms->reply, ms->room);
  for (uint32_t w = 0; w < bitmap_words(ms->n_part); w++) {
    for (uint64_t b = ms->room[w]; b; b &= b - 1) ms->part[w * 64 + (uint32_t)__builtin_ctzll(b)].wake = now;
    ms->room[w] = 0;
  }
}

/* Ticks the partitions that are due. Out of line: the loop keeps its
 * variables in registers, away from the rest of memsys_tick. */
static __attribute__((noinline)) void memsys_tick_partitions(MemSys *ms, uint64_t now) {
  if (icnt_room_pending(ms->reply)) memsys_room_wake(ms, now);
  /* Locals: the ticks' byte stores could alias the fields, which would be reloaded. */
  uint64_t min = UINT64_MAX;
  const bool sleep = ms->sleep;
  Icnt *const reply = ms->reply;
  for (MemPart *mp = ms->part, *const end = mp + ms->n_part; mp != end; mp++) {
    uint64_t w = mp->wake;
    if (w <= now) {
      Partition *pt = mp->pt;
      bool blocked = partition_tick(pt, now, reply);
      mp->wake = w = sleep && !blocked ? partition_next_event(pt, now) : now + 1;
    }
    if (w < min) min = w;
  }
  ms->wake_min = min;
}

/* GPGPU-Sim 3.2.2's cluster side (shader.cc simt_core_cluster::icnt_cycle): each port first hands
 * its response FIFO's head to the L1 of the SM it names, which may refuse it (the FIFO waits),
 * then, if the FIFO has room, takes one arrived reply out of the network (the rest wait there,
 * holding its credits: a full FIFO backs replies up into the partitions). One of each per cycle;
 * a reply taken at t reaches the L1 at t + 1 at the earliest. The LD/ST unit's 2-entry response
 * queue behind the FIFO (ldst_unit::fill, one L1 fill per cycle) is folded into the hand-off. */
static __attribute__((noinline)) void memsys_reply_fifo(MemSys *ms, uint64_t now, const uint64_t *arr) {
  for (uint32_t w = 0; w < bitmap_words(ms->n_port); w++) {
    for (uint64_t bits = arr[w] | ms->fifo_nz[w]; bits; bits &= bits - 1) {
      const uint32_t p = w * 64 + (uint32_t)__builtin_ctzll(bits);
      const bool arrived = arr[w] >> (p % 64) & 1;
      ReqQueue *q = &ms->fifo[p];
      if (reqq_ready(q, now)) {
        const MemRequest *r = &q->head->req;
        const uint32_t s = (uint32_t)r->sm;
        MEM_DCHECK(r->unit < MEM_UNIT__COUNT && s / ms->sms_per_port == p, now, "memsys",
                   "reply for unit %u of SM %u at port %u", r->unit, s, p);
        if (cache_fill(ms->l1[s * MEM_UNIT__COUNT + r->unit], r, now)) {
          reqq_pop(q);
          bitmap_set(ms->sm_events, s);
        } else {
          ms->rs.refused++;
        }
      }
      if (arrived) {
        if (reqq_full(q)) {
          ms->rs.eject_waits++;
        } else {
          reqq_push(q, icnt_arrived_head(ms->reply, p), now + 1);
          if (icnt_pop(ms->reply, p)) ms->rs.eject_waits++; /* another has arrived: it waits */
        }
      }
      if (reqq_empty(q))
        bitmap_clear(ms->fifo_nz, p);
      else
        bitmap_set(ms->fifo_nz, p);
    }
  }
}

/* The parts of a cycle, in memsys_tick's order. A: the reply network moves. B: arrived replies
 * reach the L1s (the response FIFOs, cache_fill). C: the partitions advance (C1), the request
 * network moves (C2), arrived requests enter the partitions (C3). D: the L1s' misses enter the
 * request network. B and C touch disjoint state: B pops the reply network at its destinations
 * (the simple model's ejection queues; intersim's boundary buffers, which only A's next tick
 * reads) and C1 pushes at its sources (source queues; intersim's input queues, HasBuffer); the
 * L1s, FIFOs and SM event bitmaps are B's, the partitions and the request network C's. C2 reads
 * and writes only the request network, whose queues C1 and A never touch, and C3 follows C1 and
 * C2. So A, C1 | C2, C3, B, D is the same cycle, and A, C1 and C2 read nothing the SMs write
 * (memsys_tick_early, memsys_tick_early_req). */
static inline __attribute__((always_inline)) void memsys_deliver(MemSys *ms, uint64_t now) {
  /* Whole words of the bitmaps: they hold no member beyond the last port or SM. */
  const uint64_t *arr = icnt_arrivals(ms->reply, now);
  if (ms->reply_hold) {
    memsys_reply_fifo(ms, now, arr);
  } else if (ms->sms_per_port == 1) {
    BITMAP_FOREACH_ALL(s, arr, bitmap_words(ms->n_sm)) {
      for (const MemRequest *r = icnt_arrived_head(ms->reply, s); r; r = icnt_pop(ms->reply, s)) {
        MEM_DCHECK(r->unit < MEM_UNIT__COUNT, now, "memsys", "reply for unknown unit %u", r->unit);
        if (!cache_fill(ms->l1[s * MEM_UNIT__COUNT + r->unit], r, now)) break;
        bitmap_set(ms->sm_events, s);
      }
    }
  } else { /* a port serves a cluster: each reply names its SM; a full L1 blocks the port */
    BITMAP_FOREACH_ALL(p, arr, bitmap_words(ms->n_port)) {
      for (const MemRequest *r = icnt_arrived_head(ms->reply, p); r; r = icnt_pop(ms->reply, p)) {
        uint32_t s = (uint32_t)r->sm;
        MEM_DCHECK(r->unit < MEM_UNIT__COUNT && s / ms->sms_per_port == p, now, "memsys",
                   "reply for unit %u of SM %u at port %u", r->unit, s, p);
        if (!cache_fill(ms->l1[s * MEM_UNIT__COUNT + r->unit], r, now)) break;
        bitmap_set(ms->sm_events, s);
      }
    }
  }
}

/* C3: see memsys_deliver. */
static inline __attribute__((always_inline)) void memsys_arrivals(MemSys *ms, uint64_t now) {
  const uint64_t *arr = icnt_arrivals(ms->req, now);
  BITMAP_FOREACH_ALL(p, arr, bitmap_words(ms->n_part)) {
    Partition *pt = ms->part[p].pt;
    if (!partition_can_accept(pt)) continue;
    const MemRequest *r = icnt_arrived_head(ms->req, p);
    do partition_push(pt, r, now);
    while ((r = icnt_pop(ms->req, p)) && partition_can_accept(pt));
    /* Every push is due at the L2 at the same cycle: one wake update (wake_min <= every part[].wake). */
    uint64_t due = now + ms->delays.l2_input;
    if (due < ms->part[p].wake) ms->part[p].wake = due;
    if (due < ms->wake_min) ms->wake_min = due;
  }
}

/* D: see memsys_deliver. */
static inline __attribute__((always_inline)) void memsys_inject_all(MemSys *ms, uint64_t now) {
  if (__builtin_expect(ms->xbar, 0))
    memsys_inject_xbar(ms, now);
  else
    BITMAP_FOREACH_ALL(s, ms->miss_nz, bitmap_words(ms->n_sm)) memsys_inject(ms, s, now, false);
}

/* Reverse pipeline order: replies reach the L1s, partitions advance, requests
 * reach the partitions, new L1 misses enter the network. Every hop therefore
 * takes at least one cycle, and memsys_derive() counts them. */
/* C1: see memsys_deliver. A partition sleeps until its next event (a queue head or DRAM command
 * due, every cycle while something is ready but blocked, or room for its held reply in the reply
 * network) or a push. */
static inline __attribute__((always_inline)) void memsys_partitions_due(MemSys *ms, uint64_t now) {
  if (ms->wake_min <= now || icnt_room_pending(ms->reply)) memsys_tick_partitions(ms, now);
}

void memsys_tick(MemSys *ms, uint64_t now) {
  ms->now = now;
  icnt_tick(ms->reply, now);
  memsys_deliver(ms, now);
  memsys_partitions_due(ms, now);
  icnt_tick(ms->req, now);
  memsys_arrivals(ms, now);
  memsys_inject_all(ms, now);
}

void memsys_tick_early(MemSys *ms, uint64_t now) {
  ms->now = now; /* read by memsys_settle, which runs only between cycles */
  icnt_tick(ms->reply, now);
  memsys_partitions_due(ms, now);
}

void memsys_tick_early_req(MemSys *ms, uint64_t now) { icnt_tick(ms->req, now); }

void memsys_tick_late(MemSys *ms, uint64_t now) { /* after memsys_tick_early(now), which set ms->now */
  memsys_arrivals(ms, now);
  memsys_deliver(ms, now);
  memsys_inject_all(ms, now);
}

/* The minimum over the parts' next events, each > now: it returns as soon as
 * one says now + 1, cheapest and likeliest parts first. */
uint64_t memsys_next_event(const MemSys *ms, uint64_t now) {
  const uint64_t soon = now + 1;
  if (bitmap_any(ms->miss_nz, ms->n_sm)) return soon;
  if (ms->reply_hold && bitmap_any(ms->fifo_nz, ms->n_port)) return soon;
  uint64_t t = icnt_next_event(ms->req, now), x;
  if (t == soon) return t;
  if ((x = icnt_next_event(ms->reply, now)) < t && (t = x) == soon) return t;
  if (ms->sleep) { /* every part[].wake > now after memsys_tick(now) */
    if (ms->wake_min < t && (t = ms->wake_min) == soon) return t;
  } else {
    for (uint32_t p = 0; p < ms->n_part; p++)
      if ((x = partition_next_event(ms->part[p].pt, now)) < t && (t = x) == soon) return t;
  }
  for (uint32_t i = 0; i < ms->n_sm * MEM_UNIT__COUNT; i++) {
    x = cache_next_reply(ms->l1[i]);
    if (x != UINT64_MAX && (x > now ? x : soon) < t && (t = x > now ? x : soon) == soon) return t;
  }
  return t;
}

/* The cheap cases of memsys_next_event(ms, now) == now + 1 (a partition is due next cycle, or an
 * L1 miss waits to enter the network): the engine then looks for no later event. */
bool memsys_busy_next(const MemSys *ms, uint64_t now) {
  if (!ms->sleep) return false; /* wake_min is then now + 1 for partitions with nothing to do */
  return ms->wake_min <= now + 1 || bitmap_any(ms->miss_nz, ms->n_sm);
}

/* The cases of memsys_next_event(ms, now) == now + 1 that nothing the SMs do in cycle `now` can
 * undo (they only add L1 misses): an L1 miss or a FIFO reply waits, a network source holds a packet,
 * or (sleeping partitions) one is due next cycle. */
bool memsys_next_certain(const MemSys *ms, uint64_t now) {
  if (bitmap_any(ms->miss_nz, ms->n_sm) || (ms->reply_hold && bitmap_any(ms->fifo_nz, ms->n_port)))
    return true;
  if (ms->sleep && ms->wake_min <= now + 1) return true;
  return icnt_next_event(ms->req, now) == now + 1 || icnt_next_event(ms->reply, now) == now + 1;
}

bool memsys_idle(const MemSys *ms) {
  if (!icnt_idle(ms->req) || !icnt_idle(ms->reply)) return false;
  if (ms->reply_hold && bitmap_any(ms->fifo_nz, ms->n_port)) return false;
  for (uint32_t p = 0; p < ms->n_part; p++)
    if (!partition_idle(ms->part[p].pt)) return false;
  for (uint32_t i = 0; i < ms->n_sm * MEM_UNIT__COUNT; i++)
    if (!cache_idle(ms->l1[i])) return false;
  return true;
}

/* ---- statistics ---- */

static void memsys_sum_l1(const MemSys *ms, MemUnit u, CacheStats *sum) {
  memset(sum, 0, sizeof *sum);
  for (uint32_t s = 0; s < ms->n_sm; s++) cache_stats_add(sum, cache_stats(ms->l1[s * MEM_UNIT__COUNT + u]));
}

void memsys_stats_emit(const MemSys *ms, StatsOut *o) {
  memsys_settle(ms);
  CacheStats l1d, l1i, l1c, l2 = {0};
  DramStats dr = {0};
  memsys_sum_l1(ms, MEM_UNIT_L1D, &l1d);
  memsys_sum_l1(ms, MEM_UNIT_L1I, &l1i);
  memsys_sum_l1(ms, MEM_UNIT_L1C, &l1c);
  for (uint32_t p = 0; p < ms->n_part; p++) {
    cache_stats_add(&l2, cache_stats(partition_l2(ms->part[p].pt)));
    dram_stats_add(&dr, dram_stats(partition_dram(ms->part[p].pt)));
  }
  stats_group(o, "l1d", 0, "the L1 data caches, summed over the SMs");
  cache_stats_emit(&l1d, o);
  stats_end(o);
  stats_group(o, "l1i", 0, "the L1 instruction caches, summed over the SMs");
  cache_stats_emit(&l1i, o);
  stats_end(o);
  stats_group(
      o, "l1c", 0,
      "the constant caches (constant and kernel-parameter loads, sm.const_cache), summed over the SMs");
  cache_stats_emit(&l1c, o);
  stats_end(o);
  stats_group(o, "l2", 0, "the L2 slices, summed");
  cache_stats_emit(&l2, o);
  stats_end(o);
  stats_list(o, "l2_slices", STATS_DETAIL, "each L2 slice (one per memory partition)");
  for (uint32_t p = 0; p < ms->n_part; p++) {
    stats_group(o, NULL, 0, NULL);
    cache_stats_emit(cache_stats(partition_l2(ms->part[p].pt)), o);
    stats_end(o);
  }
  stats_end(o);
  stats_group(o, "dram", 0, "the DRAM channels, summed");
  dram_stats_emit(&dr, &ms->dram, o);
  stats_end(o);
  stats_list(o, "dram_channels", STATS_DETAIL, "each DRAM channel (one per memory partition)");
  for (uint32_t p = 0; p < ms->n_part; p++) {
    stats_group(o, NULL, 0, NULL);
    dram_stats_emit(dram_stats(partition_dram(ms->part[p].pt)), &ms->dram, o);
    stats_end(o);
  }
  stats_end(o);
  stats_group(o, "icnt_req", 0, "the request network (SMs to partitions)");
  icnt_stats_emit(icnt_stats(ms->req), o);
  stats_end(o);
  stats_group(o, "icnt_reply", 0, "the reply network (partitions to SMs)");
  icnt_stats_emit(icnt_stats(ms->reply), o);
  const MemSysReplyStats rs = memsys_reply_stats(ms);
  STAT_U64(o, "mem_stalls", "cycles", STAT_SUM, STAT_LOWER,
           "partition-cycles a ready reply found no room in the network (icnt.reply_hold = gpgpusim; "
           "GPGPU-Sim's gpu_stall_icnt2sh, counted there per sub-partition)",
           rs.mem_stalls);
  STAT_U64(o, "eject_waits", "cycles", STAT_SUM, STAT_LOWER,
           "port-cycles an arrived reply stayed in the network: one per cycle enters the response FIFO, "
           "none while it is full (icnt.reply_hold = gpgpusim)",
           rs.eject_waits);
  STAT_U64(o, "fill_refused", "cycles", STAT_SUM, STAT_LOWER,
           "port-cycles an L1 refused the response FIFO's head reply (icnt.reply_hold = gpgpusim)",
           rs.refused);
  stats_end(o);
  stats_group(o, "delays", 0, "fixed pipeline delays derived from the configured latencies");
  STAT_U64(o, "l2_input", "cycles", STAT_INFO, STAT_NEUTRAL,
           "delay of a request entering the L2 (the ROP delay)", ms->delays.l2_input);
  STAT_U64(o, "dram_ctrl", "cycles", STAT_INFO, STAT_NEUTRAL, "delay queue in front of the DRAM controller",
           ms->delays.dram_ctrl);
  STAT_U64(o, "l2_fixed", "cycles", STAT_INFO, STAT_NEUTRAL, "fixed cycles of the path to the L2 and back",
           ms->delays.l2_fixed);
  STAT_U64(o, "dram_row_hit", "cycles", STAT_INFO, STAT_NEUTRAL, "cycles of a DRAM row hit",
           ms->delays.dram_row_hit);
  stats_end(o);
}

void memsys_print_stats(const MemSys *ms, FILE *out, bool json) {
  StatsOut *o = stats_open(out, json ? STATS_JSON : STATS_TEXT, "memory");
  memsys_stats_emit(ms, o);
  stats_close(o);
}

void memsys_dump(const MemSys *ms, FILE *out) {
  for (uint32_t i = 0; i < ms->n_sm * MEM_UNIT__COUNT; i++) {
    if (cache_idle(ms->l1[i])) continue;
    fprintf(out, "sm%u ", i / MEM_UNIT__COUNT);
    cache_dump(ms->l1[i], out);
  }
  icnt_dump(ms->req, out);
  icnt_dump(ms->reply, out);
  for (uint32_t p = 0; ms->reply_hold && p < ms->n_port; p++)
    if (ms->fifo[p].count) fprintf(out, "response fifo[%u]=%u\n", p, ms->fifo[p].count);
  for (uint32_t p = 0; p < ms->n_part; p++)
    if (!partition_idle(ms->part[p].pt)) partition_dump(ms->part[p].pt, out);
}
