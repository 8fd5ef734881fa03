/* gpu.h - the timing engine: SMs + memory system + CTA dispatcher + the top
 * cycle loop (with idle-cycle skipping, progress line and deadlock detector),
 * attached to a runtime context with ws_ctx_set_engine(ctx, gpu_engine_run, gpu).
 * Kernels launched through that context then run cycle by cycle; the cycle
 * count continues across launches (L2/DRAM state too), statistics are kept
 * per kernel and in total. Deterministic: same inputs and config, same stats. */
#ifndef WS_GPU_H
#define WS_GPU_H

#include <stdbool.h>
#include <stdio.h>

#include "core/config.h"
#include "core/stats.h"
#include "runtime/warpsim.h"
#include "sm/sm.h"

typedef struct Gpu Gpu;

typedef struct GpuKernelStats {
  char name[96];
  uint64_t start_cycle, cycles, warp_insts, thread_insts, ctas;
  uint32_t ctas_per_sm; /* occupancy: CTAs an SM can hold */
  const char *limiter;  /* the resource that limits it */
  uint32_t regs_per_thread, threads_per_cta, shared_per_cta;
  char regs_source[96]; /* where regs_per_thread came from (PtxLaunch.regs_source) */
  uint64_t l2_reads,
      l2_read_misses; /* the L2's accepted reads and allocating read misses during the kernel */
} GpuKernelStats;

/* cfg must outlive the Gpu. Returns NULL with a message in err. */
Gpu *gpu_create(const Config *cfg, char *err, size_t errlen);
void gpu_free(Gpu *g);
/* gpu_free, after the policies' output files are committed (a kernel ran and none failed) or
 * dropped (policy_env.h): 0, or -1 with the file that could not be written in err. */
int gpu_close(Gpu *g, char *err, size_t errlen);
/* WsEngineRunFn. */
WsResult gpu_engine_run(void *gpu, struct PtxLaunch *launch, WsLaunchStats *st, char *err, size_t errlen);
/* Shows a progress line on stderr for runs longer than a few seconds. */
void gpu_set_progress(Gpu *g, bool on);
uint64_t gpu_cycles(const Gpu *g);
/* Every statistic of the run (core/stats.h) into the group the caller opened; wall_seconds is the
 * host time it took. gpu_print_stats writes them through one printer (text, or one JSON object). */
void gpu_stats_emit(const Gpu *g, StatsOut *o, double wall_seconds);
void gpu_print_stats(const Gpu *g, FILE *out, bool json, double wall_seconds);
const MemSys *gpu_memsys(const Gpu *g);
/* The timeline (timeline.file; doc/timeline.md) written to `out` (opened and closed by the caller)
 * from the next kernel on: 0, or -1 with err set. gpu_timeline_finish ends the JSON (also after a
 * failed kernel) and returns -1 if writing failed; gpu_free drops an unfinished one. */
int gpu_timeline_start(Gpu *g, FILE *out, char *err, size_t errlen);
int gpu_timeline_finish(Gpu *g);

#endif
