/* stats_cmd.c - `warpsim stats --schema`: every statistic a run of this configuration writes
 * (path, type, unit, aggregation, better direction, description) as one JSON document, from
 * the same declarations the text and JSON printers use (core/stats.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/stats.h"
#include "sim/gpu.h"

int cli_stats(int argc, char **argv) {
  RunOpts ro = {0};
  int schema = 0;
  for (int i = 0; i < argc; i++) {
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) return 2;
    if (k) continue;
    if (!strcmp(argv[i], "--schema")) { schema = 1; continue; }
    fprintf(stderr, "warpsim stats: unknown option '%s' (valid: --schema, --config, --sched, --set)\n", argv[i]);
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
  StatsOut *o = stats_open(stdout, STATS_SCHEMA, "gpu");
  int rc = o ? 0 : 1;
  gpu_stats_emit(g, o, 0.0);
  stats_close(o);
  gpu_free(g);
  cfg_free(cfg);
  if (fflush(stdout) || ferror(stdout)) rc = 1;
  return rc;
}
