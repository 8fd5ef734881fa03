/* main.c - the warpsim command line: list, run, suite, launch.
 * Errors in arguments print a message naming the bad option and the valid
 * ones, and exit with status 2; a failed benchmark check exits 1. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cli/cli.h"
#include "core/outfile.h"
#include "cli/timeline_out.h"
#include "analysis/accelsim_trace.h"
#include "core/config.h"
#include "core/stats.h"
#include "sim/gpu.h"

static const char *usage =
    "usage: warpsim <command> [options]\n"
    "commands:\n"
    "  list                         benchmarks with their papers and input sizes\n"
    "  run <bench> [options]        run one benchmark (timing model) and check it against its CPU reference\n"
    "      --size tiny|small|paper  input size (default small)\n"
    "      --seed N                 input generator seed (default 1)\n"
    "      --config NAME|FILE       configuration preset (default gtx480: configs/gtx480.cfg)\n"
    "      --sched NAME             warp scheduler (same as --set sched.policy=NAME)\n"
    "      --set KEY=VALUE          override one configuration key (repeatable)\n"
    "      --functional             functional execution only (no timing model)\n"
    "      --max-insts N            stop a launch after N warp instructions (limit.max_warp_insts; 0: "
    "never)\n"
    "      --max-cycles N           stop a launch after N cycles (limit.max_cycles; 0: never)\n"
    "      --threads N              simulate the SMs on N threads, same results (sim.threads; 0: every "
    "core)\n"
    "      --json FILE              write statistics + resolved config as JSON (whole file or nothing)\n"
    "      --timeline FILE          per-warp timeline, Chrome trace-event JSON (.gz: compressed) for "
    "Perfetto or\n"
    "                               tools/timeline_viewer.html (timeline.file; doc/timeline.md)\n"
    "      --timeline-cycles A:B    only cycles A to B (timeline.cycles)\n"
    "      --timeline-sms LIST      only these SMs: 0,3,5-7 (timeline.sms)\n"
    "      --accelsim-trace DIR     write the executed warp instructions as an Accel-Sim trace "
    "(DIR/kernelslist.g,\n"
    "                               DIR/kernel-N.traceg; doc/accelsim.md), either mode\n"
    "      -v                       verbose\n"
    "  suite [--size S] [--only a,b,...] [--markdown] [run options]  run every benchmark, print a table\n"
    "  config [--config C] [--set K=V ...] [--check]    print the resolved configuration (--check: also "
    "build\n"
    "                                                   the GPU from it: policy names; print nothing)\n"
    "  launch <file.launch> | --ptx F --kernel K ...   run any PTX kernel (see README)\n"
    "  exec [run options] [--json F] -- PROGRAM ARGS   run a CUDA program built with nvcc -cudart shared on "
    "the\n"
    "                                                  simulator: per-launch and total statistics "
    "(doc/cuda-runtime.md)\n"
    "  sweep <file.sweep> [-j N] [--emit slurm|parallel] [--report]  run a sweep of runs (see README)\n"
    "  report <results-dir> [--metrics M] [--baseline L]  CSV, normalised tables and figures of a sweep\n"
    "  reproduce <paper> [--size S] [-j N] [-o DIR] | --list   a paper's figures and claims "
    "(doc/reproducing.md)\n"
    "  belady <trace> [--config C] [--set K=V ...]     L1D misses per SM of an l1d-trace file under OPT, "
    "LRU, FIFO\n"
    "  classify <bench|launch file> [--size S] [--profile-size S] [--high H] [--low L] [--no-groups] [--out "
    "F]\n"
    "                                                  per-load L1D classes ca/cg/cm by profiling (bypass "
    "observer)\n"
    "  stats --schema [--exec] [--config C] [--set K=V ...]  every statistic of a run (--exec: of `warpsim "
    "exec`): name, unit, aggregation, description\n"
    "  help                         this text\n";

/* CPU time of this process: speed figures that a loaded machine does not distort. */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmd_list(void) {
  printf("%-18s %-6s %-26s %s\n", "benchmark", "suite", "papers", "description");
  for (int i = 0; bench_registry[i]; i++) {
    const BenchDesc *b = bench_registry[i];
    printf("%-18s %-6s %-26s %s\n", b->name, b->suite ? b->suite : "", b->papers ? b->papers : "",
           b->summary ? b->summary : "");
    for (int s = 0; s < BENCH_NSIZES; s++)
      if (b->sizes[s]) printf("%-18s   %-6s %s\n", "", bench_size_name((BenchSize)s), b->sizes[s]);
  }
  return 0;
}

/* A configuration is only known to be usable once a GPU is built from it
 * (policy names, cross-key checks): try once, report and fail early. */
static int check_gpu_config(const Config *cfg) {
  char err[1024];
  Gpu *g = gpu_create(cfg, err, sizeof err);
  if (!g) {
    fprintf(stderr, "warpsim: %s\n", err);
    return -1;
  }
  gpu_free(g);
  return 0;
}

/* Runs one benchmark; with a config, on the timing model (gpu left for stats, caller frees).
 * opts: the context's options (the functional engine's limits). */
static int run_one(const BenchDesc *b, BenchSize size, uint64_t seed, int verbose, const Config *cfg,
                   Gpu **gpu_out, RunResult *res, const WsContextOptions *opts, FILE *timeline,
                   AtWriter *at) {
  WsContext *ctx;
  memset(res, 0, sizeof *res);
  res->status = BENCH_ERROR;
  if (ws_ctx_create(&ctx, opts) != WS_SUCCESS) {
    fprintf(stderr, "warpsim: cannot create a context\n");
    return BENCH_ERROR;
  }
  Gpu *g = NULL;
  if (cfg) {
    char err[1024];
    g = gpu_create(cfg, err, sizeof err);
    if (!g) {
      fprintf(stderr, "warpsim: %s\n", err);
      ws_ctx_destroy(ctx);
      return BENCH_ERROR;
    }
    if (timeline && gpu_timeline_start(g, timeline, err, sizeof err)) {
      fprintf(stderr, "warpsim: timeline: %s\n", err);
      gpu_free(g);
      ws_ctx_destroy(ctx);
      return BENCH_ERROR;
    }
    ws_ctx_set_engine(ctx, gpu_engine_run, g);
    gpu_set_progress(g, isatty(2));
  }
  if (at) {
    WsObserver obs = at_observer(at);
    ws_ctx_set_observer(ctx, &obs);
  }
  BenchRun r = {ctx, size, seed, stderr, verbose};
  double t0 = cli_now(), c0 = cpu_now();
  res->status = b->run(&r);
  res->seconds = cli_now() - t0;
  res->cpu_seconds = cpu_now() - c0;
  res->st = *ws_ctx_total_stats(ctx);
  res->cycles = g ? gpu_cycles(g) : 0;
  res->nk = ws_ctx_kernel_count(ctx) < 16 ? ws_ctx_kernel_count(ctx) : 16;
  for (int i = 0; i < res->nk; i++) res->k[i] = *ws_ctx_kernel(ctx, i);
  ws_ctx_destroy(ctx);
  if (gpu_out)
    *gpu_out = g;
  else
    gpu_free(g);
  return res->status;
}

static const char *status_name(int s) {
  return s == BENCH_PASS ? "PASS" : s == BENCH_MISMATCH ? "MISMATCH" : "ERROR";
}

/* Writes the statistics to an output opened before the run (core/outfile.h: whole file or nothing). */
static int write_json(OutFile *of, const BenchDesc *b, BenchSize size, uint64_t seed, const RunResult *res,
                      const Gpu *g, const Config *cfg) {
  StatsOut *o = stats_open(of->f, STATS_JSON, "");
  if (!o) {
    fprintf(stderr, "warpsim: out of memory\n");
    return -1;
  }
  cli_run_stats_emit(o, b->name, bench_size_name(size), seed, status_name(res->status), res, g, cfg);
  stats_close(o);
  fputc('\n', of->f);
  char err[PATH_MAX + 128];
  if (out_commit(of, err, sizeof err)) {
    fprintf(stderr, "warpsim: %s\n", err);
    return -1;
  }
  return 0;
}

/* A whole unsigned 64-bit number: no sign (strtoull would wrap "-1"), no overflow (it would clamp). */
static int parse_u64(const char *s, uint64_t *v) {
  char *end;
  if (!*s || *s == '-' || *s == '+' || *s == ' ') return -1;
  errno = 0;
  *v = strtoull(s, &end, 0);
  return (!*end && !errno) ? 0 : -1;
}

static int cmd_run(int argc, char **argv) {
  const char *name = NULL, *json = NULL;
  BenchSize size = BENCH_SMALL;
  uint64_t seed = 1;
  int verbose = 0;
  RunOpts ro = {0};
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) return 2;
    if (k) continue;
    static const char *const valued[] = {"--size", "--seed", "--json", "--accelsim-trace", NULL};
    if (cli_missing_value("warpsim run", argc, argv, i, valued)) return 2;
    if (!strcmp(a, "--accelsim-trace")) {
      ro.accelsim_dir = argv[++i];
      continue;
    }
    if (!strcmp(a, "--size") && i + 1 < argc) {
      if (bench_parse_size(argv[++i], &size)) {
        fprintf(stderr, "warpsim run: unknown size '%s' (valid: tiny, small, paper)\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--seed") && i + 1 < argc) {
      if (parse_u64(argv[++i], &seed)) {
        fprintf(stderr, "warpsim run: bad seed '%s' (0 to 18446744073709551615)\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--json") && i + 1 < argc)
      json = argv[++i];
    else if (!strcmp(a, "-v"))
      verbose = 1;
    else if (a[0] == '-') {
      fprintf(stderr,
              "warpsim run: unknown option '%s' (valid: --size, --seed, --config, --sched, --set, "
              "--functional, --max-insts, --max-cycles, --threads, --json FILE, --timeline FILE, "
              "--timeline-cycles A:B, --timeline-sms LIST, --accelsim-trace DIR, -v)\n",
              a);
      return 2;
    } else if (!name)
      name = a;
    else {
      fprintf(stderr, "warpsim run: unexpected argument '%s'\n", a);
      return 2;
    }
  }
  if (!name) {
    fprintf(stderr, "warpsim run: which benchmark? (see `warpsim list`)\n");
    return 2;
  }
  const BenchDesc *b = bench_find(name);
  if (!b) {
    fprintf(stderr, "warpsim run: unknown benchmark '%s'; valid:", name);
    for (int i = 0; bench_registry[i]; i++) fprintf(stderr, " %s", bench_registry[i]->name);
    fprintf(stderr, "\n");
    return 2;
  }
  /* the configuration is checked in functional mode too: a typo is an error, never ignored */
  Config *cfg = cli_make_config(&ro);
  if (!cfg) return 2;
  if (check_gpu_config(cfg)) {
    cfg_free(cfg);
    return 2;
  }
  WsContextOptions copts = cli_ctx_options(cfg);
  if (ro.functional && strcmp(cfg_str(cfg, "timeline.file"), "none")) {
    fprintf(stderr, "warpsim run: a timeline needs the timing model (drop --functional or --timeline)\n");
    cfg_free(cfg);
    return 2;
  }
  if (json && cfg && strcmp(cfg_str(cfg, "timeline.file"), "none") &&
      out_same(json, cfg_str(cfg, "timeline.file"))) {
    fprintf(stderr, "warpsim run: --json %s and the timeline %s are the same file (one would be lost)\n",
            json, cfg_str(cfg, "timeline.file"));
    cfg_free(cfg);
    return 2;
  }
  if (ro.functional) {
    cfg_free(cfg);
    cfg = NULL;
  }
  OutFile of = {0};
  if (json) { /* an unwritable --json fails now, not after the run */
    char err[PATH_MAX + 128];
    if (out_open(&of, json, err, sizeof err)) {
      fprintf(stderr, "warpsim run: %s\n", err);
      cfg_free(cfg);
      return 1;
    }
  }
  CliTimeline tl;
  if (cli_timeline_open(&tl, cfg, "warpsim run")) {
    out_abort(&of);
    cfg_free(cfg);
    return 1;
  }
  RunResult res;
  Gpu *g = NULL;
  AtWriter *at = NULL;
  if (ro.accelsim_dir) { /* an unusable folder fails now, not after the run */
    char err[4200];
    if (!(at = at_create(ro.accelsim_dir, err, sizeof err))) {
      fprintf(stderr, "warpsim run: %s\n", err);
      cli_timeline_abort(&tl);
      out_abort(&of);
      cfg_free(cfg);
      return 1;
    }
  }
  run_one(b, size, seed, verbose, cfg, &g, &res, &copts, tl.f, at);
  if (cfg) { /* how the configuration was made (the resolved one: --json) */
    printf("%-44s %s%s", "config", ro.config ? ro.config : "gtx480",
           ro.sched_set[0] || ro.nsets ? " with" : "");
    if (ro.sched_set[0]) printf(" %s", ro.sched_set);
    for (int i = 0; i < ro.nsets; i++) printf(" %s", ro.sets[i]);
    printf("\n");
  }
  cli_print_regs(stdout, res.k, res.nk);
  StatsOut *so = stats_open(stdout, STATS_TEXT, "");
  cli_run_stats_emit(so, b->name, bench_size_name(size), seed, status_name(res.status), &res, g, cfg);
  stats_close(so);
  int rc = res.status == BENCH_PASS ? 0 : 1;
  if (cli_timeline_close(&tl, g, "warpsim run")) rc = 1;
  if (json && write_json(&of, b, size, seed, &res, g, cfg)) rc = 1;
  if (at) {
    char err[4200];
    if (at_finish(at, err, sizeof err)) {
      fprintf(stderr, "warpsim run: %s\n", err);
      rc = 1;
    } else
      printf("%-44s %s (%u kernels)\n", "accelsim_trace", ro.accelsim_dir, at_kernels(at));
    at_free(at);
  }
  out_abort(&of);
  char cerr[PATH_MAX + 160];
  if (gpu_close(g, cerr, sizeof cerr)) {
    fprintf(stderr, "warpsim run: %s\n", cerr);
    rc = 1;
  } /* the policies' files */
  cfg_free(cfg);
  return rc;
}

static int in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && !strncmp(p, name, n)) return 1;
    p = e ? e + 1 : NULL;
  }
  return 0;
}

static int cmd_suite(int argc, char **argv) {
  BenchSize size = BENCH_SMALL;
  const char *only = NULL;
  RunOpts ro = {0};
  int markdown = 0;
  for (int i = 0; i < argc; i++) {
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) return 2;
    if (k) continue;
    if (!strcmp(argv[i], "--markdown")) {
      markdown = 1;
      continue;
    }
    static const char *const valued[] = {"--size", "--only", NULL};
    if (cli_missing_value("warpsim suite", argc, argv, i, valued)) return 2;
    if (!strcmp(argv[i], "--size") && i + 1 < argc) {
      if (bench_parse_size(argv[++i], &size)) {
        fprintf(stderr, "warpsim suite: unknown size '%s' (valid: tiny, small, paper)\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else {
      fprintf(stderr,
              "warpsim suite: unknown option '%s' (valid: --size, --only, --config, --sched, --set, "
              "--functional, --max-insts, --max-cycles, --threads)\n",
              argv[i]);
      return 2;
    }
  }
  if (only) /* a name that matches no benchmark is a typo, not an empty selection */
    for (const char *p = only; *p;) {
      const char *e = strchr(p, ',');
      size_t len = e ? (size_t)(e - p) : strlen(p);
      int found = 0;
      for (int i = 0; bench_registry[i] && !found; i++)
        found = strlen(bench_registry[i]->name) == len && !strncmp(bench_registry[i]->name, p, len);
      if (!found) {
        fprintf(stderr, "warpsim suite: --only: unknown benchmark '%.*s'; valid:", (int)len, p);
        for (int i = 0; bench_registry[i]; i++) fprintf(stderr, " %s", bench_registry[i]->name);
        fprintf(stderr, "\n");
        return 2;
      }
      if (!e) break;
      p = e + 1;
    }
  Config *cfg = cli_make_config(&ro); /* also gives the occupancy limits in functional mode */
  if (!cfg) return 2;
  if (check_gpu_config(cfg)) {
    cfg_free(cfg);
    return 2;
  }
  if (strcmp(cfg_str(cfg, "timeline.file"), "none")) { /* one file per run: `run` writes it */
    fprintf(stderr, "warpsim suite: timeline.file is for one run (warpsim run BENCH --timeline FILE)\n");
    cfg_free(cfg);
    return 2;
  }
  const Config *tcfg = ro.functional ? NULL : cfg;
  int failed = 0, ran = 0;
  if (markdown) {
    printf("| benchmark | check | warp insts | thread insts | CTAs | barriers/warp | kernels: threads/CTA, "
           "regs, shared B, launches, CTAs/SM (limiter) |\n");
    printf("|---|---|---:|---:|---:|---:|---|\n");
  } else
    printf("%-18s %-8s %14s %16s %8s %12s %10s %12s\n", "benchmark", "check", "warp_insts", "thread_insts",
           "ctas", "cycles", "seconds", "Mwinst/s");
  for (int i = 0; bench_registry[i]; i++) {
    const BenchDesc *b = bench_registry[i];
    if (only && !in_list(only, b->name)) continue;
    RunResult res;
    WsContextOptions copts = cli_ctx_options(cfg);
    run_one(b, size, 1, 0, tcfg, NULL, &res, &copts, NULL, NULL);
    ran++;
    if (res.status != BENCH_PASS) failed++;
    if (markdown) {
      printf("| %s | %s | %llu | %llu | %llu | %.2f | ", b->name, status_name(res.status),
             (unsigned long long)res.st.warp_insts, (unsigned long long)res.st.thread_insts,
             (unsigned long long)res.st.ctas,
             res.st.warps ? (double)res.st.barriers / (double)res.st.warps : 0.0);
      for (int i = 0; i < res.nk; i++) {
        const char *lim;
        uint32_t occ = sm_occupancy(cfg, res.k[i].regs_per_thread, res.k[i].threads_per_cta,
                                    res.k[i].shared_per_cta, &lim);
        printf("%s`%s`: %u, %u, %u, %llu, %u (%s)", i ? "; " : "", res.k[i].name, res.k[i].threads_per_cta,
               res.k[i].regs_per_thread, res.k[i].shared_per_cta, (unsigned long long)res.k[i].launches, occ,
               lim);
      }
      printf(" |\n");
      fflush(stdout);
      continue;
    }
    printf("%-18s %-8s %14llu %16llu %8llu %12llu %10.2f %12.2f\n", b->name, status_name(res.status),
           (unsigned long long)res.st.warp_insts, (unsigned long long)res.st.thread_insts,
           (unsigned long long)res.st.ctas, (unsigned long long)res.cycles, res.seconds,
           res.seconds > 0 ? (double)res.st.warp_insts / res.seconds / 1e6 : 0.0);
    fflush(stdout);
  }
  printf("%d passed, %d failed\n", ran - failed, failed);
  cfg_free(cfg);
  return failed ? 1 : 0;
}

static int cmd_config(int argc, char **argv) {
  RunOpts ro = {0};
  int json = 0, check = 0;
  for (int i = 0; i < argc; i++) {
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) return 2;
    if (k) continue;
    if (!strcmp(argv[i], "--json")) {
      json = 1;
      continue;
    }
    if (!strcmp(argv[i], "--check")) {
      check = 1;
      continue;
    }
    fprintf(stderr,
            "warpsim config: unknown option '%s' (valid: --config, --sched, --set, --json, --check)\n",
            argv[i]);
    return 2;
  }
  Config *cfg = cli_make_config(&ro);
  if (!cfg) return 2;
  if (check) { /* usable for a run: the GPU builds (policy names, cross-key checks) */
    int rc = check_gpu_config(cfg) ? 2 : 0;
    cfg_free(cfg);
    return rc;
  }
  if (json) {
    cfg_print_json(cfg, stdout);
    printf("\n");
  } else
    cfg_print_text(cfg, stdout);
  cfg_free(cfg);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "list")) return cmd_list();
  if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
  if (!strcmp(cmd, "suite")) return cmd_suite(argc - 2, argv + 2);
  if (!strcmp(cmd, "launch")) return cli_launch(argc - 2, argv + 2);
  if (!strcmp(cmd, "config")) return cmd_config(argc - 2, argv + 2);
  if (!strcmp(cmd, "belady")) return cli_belady(argc - 2, argv + 2);
  if (!strcmp(cmd, "exec")) return cli_exec(argc - 2, argv + 2);
  if (!strcmp(cmd, "classify")) return cli_classify(argc - 2, argv + 2);
  if (!strcmp(cmd, "stats")) return cli_stats(argc - 2, argv + 2);
  if (!strcmp(cmd, "sweep") || !strcmp(cmd, "report") || !strcmp(cmd, "reproduce"))
    return cli_exp(cmd, argc - 2, argv + 2);
  fprintf(stderr,
          "warpsim: unknown command '%s' (valid: list, run, suite, launch, exec, config, belady, classify, "
          "stats, sweep, report, reproduce, help)\n",
          cmd);
  return 2;
}
