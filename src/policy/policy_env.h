/* policy_env.h - what every policy plugin (warp scheduler, observer, fetch
 * and cache policy) may use besides its own hooks: the running kernel's
 * identity, blocks of state shared by all policy instances of one GPU, and
 * the sink its statistics go to. Depends on core/stats.h and the C library.
 *
 * PC space (one for every policy): a PC is the instruction's index counted
 * from the first instruction of the running kernel's entry function, in the
 * PTX module's order (WarpView.pc, SchedEvent.pc, SchedIssue.pc,
 * MemRequest.pc, CacheLine.alloc_pc). With the kernel's name it names the
 * same instruction in every run of the same PTX, so profiles written by one
 * run (oracle criticality, per-PC load classes) can be read by another.
 * Instructions of a called .func lie outside [0, PolicyKernel.npc): they are
 * numbered the same way (modulo 2^32 for a function placed before the kernel).
 */
#ifndef WS_POLICY_ENV_H
#define WS_POLICY_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/stats.h"

/* A cache's geometry, as its cache computed it (mem/cache.h cache_geom_make: the one rule). */
typedef struct CacheGeom {
  uint32_t sets, ways, line_size; /* line_size a power of two */
} CacheGeom;

/* The kernel being simulated (valid while it runs; name NULL between kernels). */
typedef struct PolicyKernel {
  const char *name;      /* entry function's name */
  uint32_t launch_index; /* 0 for the first kernel the GPU runs, then 1, 2, ... */
  uint32_t grid[3], block[3];
  uint64_t ctas_total;
  uint32_t warps_per_cta, regs_per_thread, shared_per_cta;
  uint32_t npc;             /* instructions of the entry function: its PCs are 0..npc-1 */
  uint32_t max_ctas_per_sm; /* CTAs one SM holds at once (occupancy with sm.max_ctas; a policy's cta_limit
                               aside) */
} PolicyKernel;

/* Per-GPU context of the policies: the current kernel and named shared blocks. */
typedef struct PolicyGpu PolicyGpu;

PolicyGpu *policy_gpu_create(void);
void policy_gpu_free(PolicyGpu *g);
/* The running kernel (never NULL; its name is NULL between kernels). */
const PolicyKernel *policy_gpu_kernel(const PolicyGpu *g);
void policy_gpu_set_kernel(PolicyGpu *g, const PolicyKernel *k); /* NULL: no kernel runs */
/* The block named `name` of `size` bytes shared by every policy instance of
 * the GPU (e.g. "dynbypass": SM 0 learns, all SMs follow; or a predictor
 * that a cache policy reads). The first call creates it zeroed and records
 * `fini` (may be NULL), called with the block when the GPU is freed; later
 * calls return the same block. NULL if out of memory, if g is NULL (a cache
 * made outside a memory system) or if `size` differs from the first call's.
 * Call it from init(), never on the per-cycle path. */
void *policy_shared(PolicyGpu *g, const char *name, size_t size, void (*fini)(void *block));

/* A plugin that finds, during a run, that it cannot go on (an oracle profile
 * without an entry for the running kernel) reports it here; the engine stops
 * the launch with that message after the current cycle (the first report
 * wins; g NULL: ignored). policy_gpu_error: the message, or NULL. */
void policy_gpu_fail(PolicyGpu *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *policy_gpu_error(const PolicyGpu *g);

/* ---- output files (profiles, traces, series) ----
 * A plugin names each file it writes from init() with policy_out: the path is checked (an
 * unwritable one fails the configuration, before any run) and nothing is created or
 * truncated. policy_out_file opens it when first asked during a run (core/outfile.h: a
 * temporary beside it; a device or FIFO directly): NULL before any kernel has begun, after
 * a launch failed, or when it cannot be opened (the run then stops with that error).
 * policy_gpu_close calls the blocks' fini hooks (they write their last bytes) and then
 * commits every opened output if a kernel ran and no launch failed; otherwise every old
 * file stays as it was. Instances naming the same path under the same key share one output;
 * another key naming it is an error.
 * policy_out: a handle >= 0, or -1 with "cannot write 'PATH': reason" in err (the caller
 * names `key`, the configuration key of the path). */
int policy_out(PolicyGpu *g, const char *key, const char *path, char *err, size_t errlen);
FILE *policy_out_file(PolicyGpu *g, int handle);
/* The engine reports a launch that did not complete (its outputs are then dropped). */
void policy_gpu_launch_failed(PolicyGpu *g);
/* Fini hooks, then the outputs committed or dropped; 0, or -1 with the first output that
 * could not be written in err (err NULL: printed). Later calls do nothing; policy_gpu_free
 * closes a GPU that was not closed. */
int policy_gpu_close(PolicyGpu *g, char *err, size_t errlen);

/* ---- statistics ---- */
/* How the values of one statistic combine over the instances of a policy
 * (the SMs' schedulers, the L1Ds, the L2 slices). */
/* The registry's aggregations (core/stats.h) under the policy interface's names. */
typedef StatAgg PolicyStatAgg;
#define PSTAT_SUM STAT_SUM
#define PSTAT_MEAN STAT_MEAN
#define PSTAT_MAX STAT_MAX
#define PSTAT_RATIO STAT_RATIO

typedef struct PolicyStats PolicyStats;
/* Adds one statistic of this instance. `name` is a key ("vta_hits"): letters,
 * digits and '_'. The same names in the same order on every instance. Every statistic
 * states its unit ("cycles", "warp_insts", "requests") and a one-line description (string
 * literals, kept: the text printer and `warpsim stats --schema` show them, core/stats.h);
 * tests/cli/policy_stat_units.sh checks every registered policy's. */
void policy_stat_u64(PolicyStats *s, const char *name, const char *unit, const char *desc,
                     uint64_t v); /* a count: summed */
void policy_stat_f64(PolicyStats *s, const char *name, const char *unit, const char *desc, double v,
                     PolicyStatAgg agg); /* a rate, a mean */
/* A ratio num/den (unit "fraction") combined as (sum of num) / (sum of den) over the instances
 * (a hit rate over all SMs' accesses, not the mean of per-SM rates); 0 when
 * every den is 0. Each instance's own ratio is its per_instance value. */
void policy_stat_ratio(PolicyStats *s, const char *name, const char *desc, uint64_t num, uint64_t den);

/* Optional, after the statistic's first value: its better direction (STAT_NEUTRAL unless
 * told), with unit and description replacing the value call's (string literals, kept). */
void policy_stat_describe(PolicyStats *s, const char *name, const char *unit, StatBetter better,
                          const char *desc);

/* ---- timeline counter tracks (doc/timeline.md) ----
 * A plugin's gauges hook names a few of its current values ("allowed_warps", "score"); while a
 * timeline records, each SM asks at the end of every counter window and draws one counter track
 * per name. Names are string literals (kept, not copied); at most POLICY_GAUGES_MAX per plugin. */
#define POLICY_GAUGES_MAX 8
typedef struct PolicyGauges {
  uint32_t n;
  const char *name[POLICY_GAUGES_MAX];
  double value[POLICY_GAUGES_MAX];
} PolicyGauges;
static inline void policy_gauge(PolicyGauges *g, const char *name, double value) {
  if (g->n < POLICY_GAUGES_MAX) g->name[g->n] = name, g->value[g->n++] = value;
}

/* The collector (used by the engine; tests may use it too). One per plugin
 * kind: begin_instance() before each instance's stats hook. */
PolicyStats *policy_stats_create(void);
void policy_stats_free(PolicyStats *s);
void policy_stats_begin_instance(PolicyStats *s);
uint32_t policy_stats_count(const PolicyStats *s); /* distinct statistics */
const char *policy_stats_name(const PolicyStats *s, uint32_t i);
/* The statistic named `name` over all instances (0 if absent); *found tells. */
double policy_stats_total(const PolicyStats *s, const char *name, bool *found);
/* Emits "policy": <policy>, each statistic's total, and "per_instance": {"name": [v0, v1, ...]}
 * (stats.h) into the group the caller opened. */
void policy_stats_emit(const PolicyStats *s, const char *policy, StatsOut *o);

#endif
