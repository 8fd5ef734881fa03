/* run_stats.h - the statistics a command's run ends with, declared once for every command that
 * prints them (core/stats.h): the launches' totals and each kernel's registers (`warpsim run`,
 * `launch` and `exec`), and `warpsim exec`'s own (its mode, the program's launches, the calls
 * warpsim does not support). `warpsim stats --schema [--exec]` lists them from the same code. */
#ifndef WS_SIM_RUN_STATS_H
#define WS_SIM_RUN_STATS_H

#include <stdbool.h>

#include "core/config.h"
#include "core/stats.h"
#include "runtime/warpsim.h"
#include "sim/gpu.h"

/* warp_insts, thread_insts, ctas, warps, barrier_warp_arrivals (all launches) and the list
 * kernel_regs (k[0..nk): each kernel's registers per thread and where the count came from). */
void run_totals_emit(StatsOut *o, const WsLaunchStats *st, const WsKernelInfo *k, int nk);

/* One kernel launch of a program under `warpsim exec`. */
typedef struct ExecLaunch {
  char name[96];
  unsigned grid[3], block[3], shared;
  uint64_t warp_insts, thread_insts, cycles;
  int result; /* 0: it ran to completion; else the error it failed with */
} ExecLaunch;

/* What `warpsim exec` knows at the program's exit. */
typedef struct ExecStats {
  bool functional;
  unsigned unsupported_calls, failed_launches;
  bool timeline_written;
  const ExecLaunch *launches;
  int nlaunches;
  WsLaunchStats total;
  const WsKernelInfo *kernels; /* [nkernels] */
  int nkernels;
  double seconds; /* host wall-clock time since the runtime started */
} ExecStats;

/* `warpsim exec`'s statistics; g and cfg: the timing model and its resolved configuration
 * (NULL: functional, or no launch made the GPU). */
void exec_stats_emit(StatsOut *o, const ExecStats *x, const Gpu *g, const Config *cfg);

#endif
