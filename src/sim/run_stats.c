/* run_stats.c - the run's closing statistics shared by the commands, and `warpsim exec`'s own
 * (run_stats.h): declared here once, printed by whichever printer the caller opened. */
#include "sim/run_stats.h"

void run_totals_emit(StatsOut *o, const WsLaunchStats *st, const WsKernelInfo *k, int nk) {
  STAT_U64(o, "warp_insts", "warp_insts", STAT_SUM, STAT_NEUTRAL, "warp instructions executed, all launches",
           st->warp_insts);
  STAT_U64(o, "thread_insts", "thread_insts", STAT_SUM, STAT_NEUTRAL,
           "thread instructions executed, all launches", st->thread_insts);
  STAT_U64(o, "ctas", "ctas", STAT_SUM, STAT_NEUTRAL, "CTAs run, all launches", st->ctas);
  STAT_U64(o, "warps", "warps", STAT_SUM, STAT_NEUTRAL, "warps run, all launches", st->warps);
  STAT_U64(o, "barrier_warp_arrivals", "arrivals", STAT_SUM, STAT_NEUTRAL, "warp arrivals at barriers",
           st->barriers);
  /* a list: the report's CSV keeps scalars only; the text has the `regs` lines */
  stats_list(o, "kernel_regs", STATS_DETAIL, "each kernel's registers per thread");
  for (int i = 0; i < nk || (i == 0 && stats_schema(o)); i++) {
    static const WsKernelInfo none;
    const WsKernelInfo *ki = i < nk ? &k[i] : &none;
    stats_group(o, NULL, 0, NULL);
    STAT_STR(o, "kernel", "the kernel", ki->name);
    STAT_U64(o, "regs_per_thread", "registers", STAT_INFO, STAT_NEUTRAL, "registers allocated per thread",
             ki->regs_per_thread);
    STAT_STR(o, "source", "where the count came from: ptxas (its annotation) or estimate",
             ki->regs_estimated ? "estimate" : "ptxas");
    STAT_U64(o, "compiled", "registers", STAT_INFO, STAT_NEUTRAL,
             "registers per thread before allocation rounding", ki->regs_compiled);
    stats_end(o);
  }
  stats_end(o);
}

static void config_json(const void *cfg, FILE *out) { cfg_print_json(cfg, out); }

/* Three numbers (a grid's or a block's dimensions) as a list. */
static void dims(StatsOut *o, const char *name, const char *unit, const char *desc, const unsigned v[3]) {
  stats_list(o, name, 0, desc);
  for (int d = 0; d < 3; d++) STAT_U64(o, name, unit, STAT_INFO, STAT_NEUTRAL, "x, y, z", v[d]);
  stats_end(o);
}

void exec_stats_emit(StatsOut *o, const ExecStats *x, const Gpu *g, const Config *cfg) {
  STAT_STR(o, "mode", "timing (the timing model) or functional", x->functional ? "functional" : "timing");
  STAT_U64(o, "unsupported_calls", "calls", STAT_SUM, STAT_LOWER,
           "calls of CUDA functions warpsim does not implement (named in the messages)",
           x->unsupported_calls);
  STAT_U64(o, "failed_launches", "launches", STAT_SUM, STAT_LOWER,
           "kernel launches that did not run or faulted (named in the messages)", x->failed_launches);
  STAT_BOOL(o, "timeline_written", "the timeline (--timeline) was finished and written", x->timeline_written);
  STAT_U64(o, "launch_count", "launches", STAT_SUM, STAT_NEUTRAL, "kernel launches the program made",
           (uint64_t)x->nlaunches);
  /* detail: gpu.kernels has each launch's cycles and instructions in the text */
  stats_list(o, "launches", STATS_DETAIL, "each kernel launch of the program, in order");
  for (int i = 0; i < x->nlaunches || (i == 0 && stats_schema(o)); i++) {
    static const ExecLaunch none;
    const ExecLaunch *l = i < x->nlaunches ? &x->launches[i] : &none;
    stats_group(o, NULL, 0, NULL);
    STAT_STR(o, "kernel", "the kernel's (mangled) name", l->name);
    dims(o, "grid", "ctas", "the grid's dimensions", l->grid);
    dims(o, "block", "threads", "the CTA's dimensions", l->block);
    STAT_U64(o, "shared", "bytes", STAT_INFO, STAT_NEUTRAL, "dynamic shared memory per CTA", l->shared);
    STAT_U64(o, "warp_insts", "warp_insts", STAT_SUM, STAT_NEUTRAL, "warp instructions executed",
             l->warp_insts);
    STAT_U64(o, "thread_insts", "thread_insts", STAT_SUM, STAT_NEUTRAL, "thread instructions executed",
             l->thread_insts);
    STAT_U64(o, "cycles", "cycles", STAT_SUM, STAT_LOWER, "core cycles of the launch (0: functional)",
             l->cycles);
    STAT_BOOL(o, "ok", "the launch ran to completion", !l->result);
    stats_end(o);
  }
  stats_end(o);
  if (g) {
    stats_group(o, "gpu", 0, "the timing model's statistics");
    gpu_stats_emit(g, o, x->seconds);
    stats_end(o);
  }
  if (cfg) stats_json_value(o, "config", config_json, cfg);
  run_totals_emit(o, &x->total, x->kernels, x->nkernels);
  STAT_F64(o, "sim_seconds", "s", STAT_SUM, STAT_LOWER, 6,
           "host wall-clock time from the runtime's start to the program's exit", x->seconds);
  STAT_F64(o, "warp_insts_per_sec", "warp_insts/s", STAT_MEAN, STAT_HIGHER, 1,
           "simulation speed: warp instructions per host second",
           x->seconds > 0 ? (double)x->total.warp_insts / x->seconds : 0.0);
}
