/* opts.c - what the subcommands share: the run options (--config, --sched, --set, limits,
 * timeline), the resolved configuration they make, preset lookup, the context's options, the
 * register-count lines and the wall clock. Calls no subcommand, so every command file
 * (main.c, launch.c, belady.c, classify.c, stats_cmd.c) depends on it and not on another. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/config.h"
#include "sim/config_schema.h"

double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Finds a preset: a path as given, else configs/NAME.cfg here or next to the binary's tree.
 * Only existence is checked (opening a FIFO would block): cfg_load_file rejects what is
 * not a regular file. */
int cli_find_config(const char *name, char *out, size_t len) {
  const char *cands[3] = {"%s", "configs/%s.cfg", NULL};
  for (int i = 0; cands[i]; i++) {
    snprintf(out, len, cands[i], name);
    struct stat st;
    /* a bare preset name that happens to be a folder here ("gtx480/") still means the preset */
    if (i == 0 && !strchr(name, '/') && !stat(out, &st) && S_ISDIR(st.st_mode)) continue;
    if (!access(out, F_OK)) return 0;
  }
  char exe[1024];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(out, len, "%s/../../configs/%s.cfg", exe, name);
    if (!access(out, F_OK)) return 0;
    snprintf(out, len, "%s/../share/warpsim/configs/%s.cfg", exe, name); /* make install */
    if (!access(out, F_OK)) return 0;
  }
  return -1;
}

/* argv[i] is one of the value-taking options `opts` (NULL-terminated) but the
 * last argument: prints "<cmd>: option '...' needs a value" and returns 1. */
int cli_missing_value(const char *cmd, int argc, char **argv, int i, const char *const *opts) {
  if (i + 1 < argc) return 0;
  for (; *opts; opts++)
    if (!strcmp(argv[i], *opts)) {
      fprintf(stderr, "%s: option '%s' needs a value\n", cmd, argv[i]);
      return 1;
    }
  return 0;
}

/* Parses a shared option at argv[*i]; 1 = consumed, 0 = not ours, -1 = error. */
int cli_parse_run_opt(RunOpts *o, int argc, char **argv, int *i) {
  static const char *const valued[] = {"--config",       "--sched",   "--set",      "--max-insts",
                                       "--max-cycles",   "--threads", "--timeline", "--timeline-cycles",
                                       "--timeline-sms", NULL};
  const char *a = argv[*i];
  if (!strcmp(a, "--functional")) {
    o->functional = 1;
    return 1;
  }
  if (o->nall == (int)(sizeof o->all / sizeof o->all[0])) {
    fprintf(stderr, "warpsim: too many options\n");
    return -1;
  }
  if (cli_missing_value("warpsim", argc, argv, *i, valued)) return -1;
  if (*i + 1 >= argc) return 0;
  if (!strcmp(a, "--config")) {
    o->config = argv[++*i];
    return 1;
  }
  if (!strcmp(a, "--sched")) {
    snprintf(o->sched_set, sizeof o->sched_set, "sched.policy=%s", argv[++*i]);
    o->all[o->nall++] = o->sched_set;
    return 1;
  }
  if (!strcmp(a, "--max-insts") || !strcmp(a, "--max-cycles")) {
    int c = a[6] == 'c';
    snprintf(o->limit_sets[c], sizeof o->limit_sets[c], "limit.%s=%.40s", c ? "max_cycles" : "max_warp_insts",
             argv[++*i]);
    o->all[o->nall++] = o->limit_sets[c];
    return 1;
  }
  if (!strcmp(a, "--threads")) {
    snprintf(o->threads_set, sizeof o->threads_set, "sim.threads=%.40s", argv[++*i]);
    o->all[o->nall++] = o->threads_set;
    return 1;
  }
  static const char *const tl_opts[3] = {"--timeline", "--timeline-cycles", "--timeline-sms"};
  static const char *const tl_keys[3] = {"file", "cycles", "sms"};
  for (int k = 0; k < 3; k++)
    if (!strcmp(a, tl_opts[k])) {
      if (snprintf(o->tl_sets[k], sizeof o->tl_sets[k], "timeline.%s=%s", tl_keys[k], argv[++*i]) >=
          (int)sizeof o->tl_sets[k]) {
        fprintf(stderr, "warpsim: %s: value too long\n", a);
        return -1;
      }
      o->all[o->nall++] = o->tl_sets[k];
      return 1;
    }
  if (!strcmp(a, "--set")) {
    if (o->nsets == MAX_SETS - 1) {
      fprintf(stderr, "warpsim: too many --set options\n");
      return -1;
    }
    o->sets[o->nsets++] = argv[++*i];
    o->all[o->nall++] = argv[*i];
    return 1;
  }
  return 0;
}

/* Builds the resolved configuration; prints the error and returns NULL on failure. */
Config *cli_make_config(RunOpts *o) {
  char path[2048];
  const char *name = o->config ? o->config : "gtx480";
  if (cli_find_config(name, path, sizeof path)) {
    fprintf(stderr, "warpsim: no configuration '%s' (a file, or a preset in configs/: gtx480, ccws-gt200)\n",
            name);
    return NULL;
  }
  Config *cfg = cfg_create();
  if (!cfg) {
    fprintf(stderr, "warpsim: out of memory\n");
    return NULL;
  }
  const char *files[1] = {path};
  int n = 0;
  const char *sets[MAX_SETS + 8];
  for (int i = 0; i < o->nall; i++)
    sets[n++] = o->all[i]; /* in command-line order: `--set sched.policy=lrr --sched gto` is gto */
  if (cfg_resolve(cfg, files, 1, sets, n)) {
    fprintf(stderr, "warpsim: %s\n", cfg_error(cfg));
    cfg_free(cfg);
    return NULL;
  }
  return cfg;
}

WsContextOptions cli_ctx_options(const Config *cfg) {
  WsContextOptions o = {0};
  o.max_warp_insts = (uint64_t)cfg_int(cfg, "limit.max_warp_insts");
  return o;
}

void cli_print_regs(FILE *out, const WsKernelInfo *k, int nk) {
  for (int i = 0; i < nk; i++) {
    fprintf(out, "regs                 %s %u per thread (%s", k[i].name, k[i].regs_per_thread,
            k[i].regs_estimated ? "estimated by warpsim" : "ptxas");
    if (k[i].regs_compiled !=
        k[i].regs_per_thread) /* sm.regs_max_per_thread / regs_kernel / regs_alloc_unit */
      fprintf(out, " %u; allocated as set by sm.regs_*", k[i].regs_compiled);
    fprintf(out, ")\n");
    if (k[i].regs_estimated)
      fprintf(stderr,
              "warpsim: warning: kernel %s: no ptxas register count in its PTX (a `//@warpsim regs` line); "
              "occupancy uses warpsim's liveness estimate of %u registers per thread, which can be far from "
              "ptxas's "
              "(tools/annotate_regs.sh adds the real count)\n",
              k[i].name, k[i].regs_per_thread);
  }
}
