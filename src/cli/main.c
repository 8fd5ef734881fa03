/* main.c - the warpsim command line: list, run, suite, launch.
 * Errors in arguments print a message naming the bad option and the valid
 * ones, and exit with status 2; a failed benchmark check exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cli/cli.h"

static const char *usage =
    "usage: warpsim <command> [options]\n"
    "commands:\n"
    "  list                         benchmarks with their papers and input sizes\n"
    "  run <bench> [options]        run one benchmark and check it against its CPU reference\n"
    "      --size tiny|small|paper  input size (default small)\n"
    "      --seed N                 input generator seed (default 1)\n"
    "      --json FILE              write the statistics as JSON (whole file or nothing)\n"
    "      -v                       verbose\n"
    "  suite [--size S] [--only a,b,...]  run every benchmark, print a table\n"
    "  launch <file.launch> | --ptx F --kernel K ...   run any PTX kernel (see README)\n"
    "  help                         this text\n";

double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmd_list(void) {
  printf("%-18s %-6s %-26s %s\n", "benchmark", "suite", "papers", "description");
  for (int i = 0; bench_registry[i]; i++) {
    const BenchDesc *b = bench_registry[i];
    printf("%-18s %-6s %-26s %s\n", b->name, b->suite ? b->suite : "", b->papers ? b->papers : "", b->summary ? b->summary : "");
    for (int s = 0; s < BENCH_NSIZES; s++)
      if (b->sizes[s]) printf("%-18s   %-6s %s\n", "", bench_size_name((BenchSize)s), b->sizes[s]);
  }
  return 0;
}

typedef struct RunResult {
  int status;
  double seconds;
  WsLaunchStats st;
} RunResult;

static int run_one(const BenchDesc *b, BenchSize size, uint64_t seed, int verbose, RunResult *res) {
  WsContext *ctx;
  if (ws_ctx_create(&ctx, NULL) != WS_SUCCESS) { fprintf(stderr, "warpsim: cannot create a context\n"); return BENCH_ERROR; }
  BenchRun r = {ctx, size, seed, stderr, verbose};
  double t0 = cli_now();
  res->status = b->run(&r);
  res->seconds = cli_now() - t0;
  res->st = *ws_ctx_total_stats(ctx);
  ws_ctx_destroy(ctx);
  return res->status;
}

static const char *status_name(int s) { return s == BENCH_PASS ? "PASS" : s == BENCH_MISMATCH ? "MISMATCH" : "ERROR"; }

static int write_json(const char *path, const BenchDesc *b, BenchSize size, uint64_t seed, const RunResult *res) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) { fprintf(stderr, "warpsim: cannot write %s\n", tmp); return -1; }
  fprintf(f, "{\n  \"benchmark\": \"%s\",\n  \"size\": \"%s\",\n  \"seed\": %llu,\n  \"mode\": \"functional\",\n  \"check\": \"%s\",\n",
          b->name, bench_size_name(size), (unsigned long long)seed, status_name(res->status));
  fprintf(f, "  \"warp_insts\": %llu,\n  \"thread_insts\": %llu,\n  \"ctas\": %llu,\n  \"warps\": %llu,\n  \"barrier_warp_arrivals\": %llu,\n",
          (unsigned long long)res->st.warp_insts, (unsigned long long)res->st.thread_insts, (unsigned long long)res->st.ctas,
          (unsigned long long)res->st.warps, (unsigned long long)res->st.barriers);
  fprintf(f, "  \"sim_seconds\": %.6f,\n  \"warp_insts_per_sec\": %.1f,\n  \"thread_insts_per_sec\": %.1f\n}\n", res->seconds,
          res->seconds > 0 ? (double)res->st.warp_insts / res->seconds : 0.0,
          res->seconds > 0 ? (double)res->st.thread_insts / res->seconds : 0.0);
  int bad = ferror(f);
  if (fclose(f) || bad || rename(tmp, path)) { remove(tmp); fprintf(stderr, "warpsim: cannot write %s\n", path); return -1; }
  return 0;
}

static int parse_u64(const char *s, uint64_t *v) {
  char *end;
  *v = strtoull(s, &end, 0);
  return (*s && !*end) ? 0 : -1;
}

static int cmd_run(int argc, char **argv) {
  const char *name = NULL, *json = NULL;
  BenchSize size = BENCH_SMALL;
  uint64_t seed = 1;
  int verbose = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--size") && i + 1 < argc) {
      if (bench_parse_size(argv[++i], &size)) { fprintf(stderr, "warpsim run: unknown size '%s' (valid: tiny, small, paper)\n", argv[i]); return 2; }
    } else if (!strcmp(a, "--seed") && i + 1 < argc) {
      if (parse_u64(argv[++i], &seed)) { fprintf(stderr, "warpsim run: bad seed '%s'\n", argv[i]); return 2; }
    } else if (!strcmp(a, "--json") && i + 1 < argc) json = argv[++i];
    else if (!strcmp(a, "-v")) verbose = 1;
    else if (a[0] == '-') { fprintf(stderr, "warpsim run: unknown option '%s' (valid: --size, --seed, --json, -v)\n", a); return 2; }
    else if (!name) name = a;
    else { fprintf(stderr, "warpsim run: unexpected argument '%s'\n", a); return 2; }
  }
  if (!name) { fprintf(stderr, "warpsim run: which benchmark? (see `warpsim list`)\n"); return 2; }
  const BenchDesc *b = bench_find(name);
  if (!b) {
    fprintf(stderr, "warpsim run: unknown benchmark '%s'; valid:", name);
    for (int i = 0; bench_registry[i]; i++) fprintf(stderr, " %s", bench_registry[i]->name);
    fprintf(stderr, "\n");
    return 2;
  }
  RunResult res;
  run_one(b, size, seed, verbose, &res);
  printf("benchmark            %s (size %s, seed %llu)\n", b->name, bench_size_name(size), (unsigned long long)seed);
  printf("mode                 functional\n");
  printf("check                %s\n", status_name(res.status));
  printf("warp_insts           %llu\n", (unsigned long long)res.st.warp_insts);
  printf("thread_insts         %llu\n", (unsigned long long)res.st.thread_insts);
  printf("ctas                 %llu\n", (unsigned long long)res.st.ctas);
  printf("barrier_arrivals     %llu\n", (unsigned long long)res.st.barriers);
  printf("sim_seconds          %.3f\n", res.seconds);
  printf("warp_insts_per_sec   %.0f\n", res.seconds > 0 ? (double)res.st.warp_insts / res.seconds : 0.0);
  printf("thread_insts_per_sec %.0f\n", res.seconds > 0 ? (double)res.st.thread_insts / res.seconds : 0.0);
  if (json && write_json(json, b, size, seed, &res)) return 2;
  return res.status == BENCH_PASS ? 0 : 1;
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
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--size") && i + 1 < argc) {
      if (bench_parse_size(argv[++i], &size)) { fprintf(stderr, "warpsim suite: unknown size '%s' (valid: tiny, small, paper)\n", argv[i]); return 2; }
    } else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else { fprintf(stderr, "warpsim suite: unknown option '%s' (valid: --size, --only)\n", argv[i]); return 2; }
  }
  int failed = 0, ran = 0;
  printf("%-18s %-8s %14s %16s %8s %10s %12s\n", "benchmark", "check", "warp_insts", "thread_insts", "ctas", "seconds", "Mwinst/s");
  for (int i = 0; bench_registry[i]; i++) {
    const BenchDesc *b = bench_registry[i];
    if (only && !in_list(only, b->name)) continue;
    RunResult res;
    run_one(b, size, 1, 0, &res);
    ran++;
    if (res.status != BENCH_PASS) failed++;
    printf("%-18s %-8s %14llu %16llu %8llu %10.2f %12.2f\n", b->name, status_name(res.status), (unsigned long long)res.st.warp_insts,
           (unsigned long long)res.st.thread_insts, (unsigned long long)res.st.ctas, res.seconds,
           res.seconds > 0 ? (double)res.st.warp_insts / res.seconds / 1e6 : 0.0);
    fflush(stdout);
  }
  printf("%d passed, %d failed\n", ran - failed, failed);
  return failed ? 1 : 0;
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
  fprintf(stderr, "warpsim: unknown command '%s' (valid: list, run, suite, launch, help)\n", cmd);
  return 2;
}
