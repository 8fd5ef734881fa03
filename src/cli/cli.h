/* cli.h - subcommands of the warpsim command line (src/cli/). */
#ifndef WS_CLI_H
#define WS_CLI_H

#include <stddef.h>

#include "core/config.h"
#include "core/stats.h"
#include "runtime/warpsim.h"
#include "sim/gpu.h"

#define MAX_SETS 128

/* Options shared by run, suite and config. */
typedef struct RunOpts {
  const char *config;
  const char *sets[MAX_SETS];
  int nsets;
  int functional;
  char sched_set[128];
  char limit_sets[2][64];        /* --max-insts / --max-cycles as limit.* overrides */
  char threads_set[64];          /* --threads N as sim.threads */
  char tl_sets[3][1100];         /* --timeline / --timeline-cycles / --timeline-sms as timeline.* overrides */
  const char *all[MAX_SETS + 8]; /* every override above in command-line order: a later one wins */
  int nall;
  const char *accelsim_dir; /* --accelsim-trace DIR: the run's instruction stream as an Accel-Sim trace */
} RunOpts;

double cli_now(void);
/* Shared run options (--config, --sched, --set, --functional). */
int cli_parse_run_opt(RunOpts *o, int argc, char **argv, int *i);
Config *cli_make_config(RunOpts *o);
/* Context options from a resolved configuration (the functional engine's limit.max_warp_insts). */
WsContextOptions cli_ctx_options(const Config *cfg);
int cli_find_config(const char *name, char *out, size_t len);
int cli_launch(int argc, char **argv);
/* Fuzzing entry (tests/fuzz): the statements of a launch-file text, checked and applied to a
 * fresh context with that much device memory (buffers allocated and filled); loads no PTX,
 * launches and writes nothing. Returns 0, or -1 with "name:line: message" on stderr. */
int cli_launch_parse(const char *text, const char *name, uint64_t device_mem_limit);
/* One line per kernel on out: its registers per thread and where the count came from
 * (ptxas's annotation or warpsim's estimate), and a warning on stderr for an estimate. */
void cli_print_regs(FILE *out, const WsKernelInfo *k, int nk);
/* exec [options] -- PROGRAM ARGS: an unmodified CUDA program on warpsim's libcudart.so (cli/exec.c). */
int cli_exec(int argc, char **argv);
/* belady TRACE: offline OPT/LRU/FIFO replay of an l1d-trace file (cli/belady.c). */
int cli_belady(int argc, char **argv);
/* classify TARGET: per-load L1D classes by profiling (cli/classify.c). */
int cli_classify(int argc, char **argv);
/* What a run of a benchmark gives back (cli/main.c run_one). */
typedef struct RunResult {
  int status;
  double seconds, cpu_seconds;
  WsLaunchStats st;
  uint64_t cycles;
  WsKernelInfo k[16];
  int nk;
} RunResult;
/* A run's statistics (core/stats.h) for any printer: its identity, the GPU's statistics and
 * resolved configuration (g, cfg: timing runs, else NULL), the launches' totals, registers and
 * host times (cli/stats_cmd.c). */
void cli_run_stats_emit(StatsOut *o, const char *bench, const char *size, uint64_t seed, const char *check,
                        const RunResult *res, const Gpu *g, const Config *cfg);
/* stats --schema: the statistics' declarations as JSON (cli/stats_cmd.c). */
int cli_stats(int argc, char **argv);
/* An option of `opts` at argv[i] without its value: prints the error, returns 1. */
int cli_missing_value(const char *cmd, int argc, char **argv, int i, const char *const *opts);
/* sweep / report: execs the experiment tool (tools/wsexp); returns only on failure. */
int cli_exp(const char *cmd, int argc, char **argv);

#endif
