/* main.c - warpsim-hw: runs the benchmarks' host programs on a real NVIDIA GPU (through
 * ws_cuda.c) and checks each result against the benchmark's CPU reference, as `warpsim suite`
 * does on the simulator. Each benchmark runs in a child process, so a kernel fault (which leaves a
 * CUDA context unusable) fails that benchmark only.
 *
 *   warpsim-hw [--size tiny|small|paper] [--seed N] [--verbose] [all | bench...]
 *
 * Prints one line per benchmark (PASS / MISMATCH / ERROR, wall seconds) and exits 0 when every
 * benchmark passed, 1 otherwise, 2 on a usage error. WS_HW_POISON=0xff fills every allocation
 * with that byte first (a benchmark that reads memory it never wrote then fails). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int run_one(const BenchDesc *b, BenchSize size, uint64_t seed, int verbose) {
  WsContext *ctx = NULL;
  WsResult rc = ws_ctx_create(&ctx, NULL);
  if (rc != WS_SUCCESS) return BENCH_ERROR;
  BenchRun r = {.ctx = ctx, .size = size, .seed = seed, .log = stdout, .verbose = verbose};
  int res = b->run(&r);
  ws_ctx_destroy(ctx);
  return res;
}

static void usage(FILE *f) {
  fprintf(f, "usage: warpsim-hw [--size tiny|small|paper] [--seed N] [--verbose] [all | benchmark...]\n"
             "benchmarks:");
  for (int i = 0; bench_registry[i]; i++) fprintf(f, " %s", bench_registry[i]->name);
  fprintf(f, "\n");
}

int main(int argc, char **argv) {
  BenchSize size = BENCH_SMALL;
  uint64_t seed = 1;
  int verbose = 0, nnames = 0;
  const char **names = calloc((size_t)argc + 64, sizeof *names);
  if (!names) return 2;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
      if (bench_parse_size(argv[++i], &size) != 0) {
        fprintf(stderr, "warpsim-hw: unknown size '%s' (tiny, small, paper)\n", argv[i]);
        free(names);
        return 2;
      }
    } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = strtoull(argv[++i], NULL, 0);
    } else if (strcmp(argv[i], "--verbose") == 0) {
      verbose = 1;
    } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      free(names);
      return 0;
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "warpsim-hw: unknown option '%s'\n", argv[i]);
      usage(stderr);
      free(names);
      return 2;
    } else if (strcmp(argv[i], "all") == 0) {
      nnames = 0;
      for (int k = 0; bench_registry[k]; k++) names[nnames++] = bench_registry[k]->name;
    } else {
      if (!bench_find(argv[i])) {
        fprintf(stderr, "warpsim-hw: unknown benchmark '%s'\n", argv[i]);
        usage(stderr);
        free(names);
        return 2;
      }
      names[nnames++] = argv[i];
    }
  }
  if (nnames == 0) {
    usage(stderr);
    free(names);
    return 2;
  }
  int failed = 0;
  printf("%-20s %-6s %-9s %8s\n", "benchmark", "size", "check", "wall_s");
  for (int i = 0; i < nnames; i++) {
    const BenchDesc *b = bench_find(names[i]);
    fflush(stdout);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) _exit(run_one(b, size, seed, verbose));
    int status = 0, res = BENCH_ERROR;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)) res = WEXITSTATUS(status);
    const char *word = res == BENCH_PASS ? "PASS" : res == BENCH_MISMATCH ? "MISMATCH" : "ERROR";
    if (pid > 0 && WIFSIGNALED(status)) word = "CRASH";
    printf("%-20s %-6s %-9s %8.2f\n", b->name, bench_size_name(size), word, now_s() - t0);
    if (res != BENCH_PASS) failed++;
  }
  printf("%d of %d passed\n", nnames - failed, nnames);
  free(names);
  return failed ? 1 : 0;
}
