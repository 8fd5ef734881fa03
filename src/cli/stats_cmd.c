/* stats_cmd.c - a run's statistics as `run` prints them (cli_run_stats_emit: the one emitter
 * behind its text and its --json), and `warpsim stats --schema`: every statistic a run of this
 * configuration writes (path, type, unit, aggregation, better direction, description) as one
 * JSON document, from the same declarations (core/stats.h); with --exec, those of `warpsim exec`
 * (sim/run_stats.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/stats.h"
#include "sim/gpu.h"
#include "sim/run_stats.h"

static void config_json(const void *cfg, FILE *out) { cfg_print_json(cfg, out); }

void cli_run_stats_emit(StatsOut *o, const char *bench, const char *size, uint64_t seed, const char *check,
                        const RunResult *res, const Gpu *g, const Config *cfg) {
  STAT_STR(o, "benchmark", "the benchmark run", bench);
  STAT_STR(o, "size", "its input size", size);
  STAT_U64(o, "seed", "", STAT_INFO, STAT_NEUTRAL, "the input generator's seed", seed);
  STAT_STR(o, "mode", "timing (the timing model) or functional", g ? "timing" : "functional");
  STAT_STR(o, "check", "the result against the CPU reference: PASS, MISMATCH or ERROR", check);
  if (g) {
    stats_group(o, "gpu", 0, "the timing model's statistics");
    gpu_stats_emit(g, o, res->seconds);
    stats_end(o);
    stats_json_value(o, "config", config_json, cfg);
  }
  run_totals_emit(o, &res->st, res->k, res->nk);
  STAT_F64(o, "sim_cpu_seconds", "s", STAT_SUM, STAT_LOWER, 6, "host CPU time of the simulation",
           res->cpu_seconds);
  STAT_F64(o, "sim_seconds", "s", STAT_SUM, STAT_LOWER, 6, "host wall-clock time of the simulation",
           res->seconds);
  STAT_F64(o, "warp_insts_per_sec", "warp_insts/s", STAT_MEAN, STAT_HIGHER, 1,
           "simulation speed: warp instructions per host second",
           res->seconds > 0 ? (double)res->st.warp_insts / res->seconds : 0.0);
  STAT_F64(o, "thread_insts_per_sec", "thread_insts/s", STAT_MEAN, STAT_HIGHER, 1,
           "simulation speed: thread instructions per host second",
           res->seconds > 0 ? (double)res->st.thread_insts / res->seconds : 0.0);
}

int cli_stats(int argc, char **argv) {
  RunOpts ro = {0};
  int schema = 0, exec = 0;
  for (int i = 0; i < argc; i++) {
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) return 2;
    if (k) continue;
    if (!strcmp(argv[i], "--schema")) {
      schema = 1;
      continue;
    }
    if (!strcmp(argv[i], "--exec")) {
      exec = 1;
      continue;
    }
    fprintf(stderr,
            "warpsim stats: unknown option '%s' (valid: --schema, --exec, --config, --sched, --set)\n",
            argv[i]);
    return 2;
  }
  if (!schema) {
    fprintf(stderr, "warpsim stats: say what to print (--schema)\n");
    return 2;
  }
  Config *cfg = cli_make_config(&ro);
  if (!cfg) return 2;
  char err[1024];
  Gpu *g = gpu_create(cfg, err, sizeof err);
  if (!g) {
    fprintf(stderr, "warpsim: %s\n", err);
    cfg_free(cfg);
    return 2;
  }
  StatsOut *o = stats_open(stdout, STATS_SCHEMA, "");
  int rc = o ? 0 : 1;
  static const RunResult none;
  static const ExecStats no_exec;
  if (exec)
    exec_stats_emit(o, &no_exec, g, cfg);
  else
    cli_run_stats_emit(o, "", "", 0, "", &none, g, cfg);
  stats_close(o);
  gpu_free(g);
  cfg_free(cfg);
  if (fflush(stdout) || ferror(stdout)) rc = 1;
  return rc;
}
