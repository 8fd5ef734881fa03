/* cli.h - subcommands of the warpsim command line (src/cli/). */
#ifndef WS_CLI_H
#define WS_CLI_H

#include <stddef.h>

#include "core/config.h"

#define MAX_SETS 128

/* Options shared by run, suite and config. */
typedef struct RunOpts {
  const char *config;
  const char *sets[MAX_SETS];
  int nsets;
  int functional;
  char sched_set[128];
} RunOpts;

double cli_now(void);
/* Shared run options (--config, --sched, --set, --functional). */
int cli_parse_run_opt(RunOpts *o, int argc, char **argv, int *i);
Config *cli_make_config(RunOpts *o);
int cli_find_config(const char *name, char *out, size_t len);
int cli_launch(int argc, char **argv);
/* belady TRACE: offline OPT/LRU/FIFO replay of an l1d-trace file (cli/belady.c). */
int cli_belady(int argc, char **argv);
/* sweep / report: execs the experiment tool (tools/wsexp); returns only on failure. */
int cli_exp(const char *cmd, int argc, char **argv);

#endif
