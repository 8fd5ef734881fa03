/* handoff.c - what one hand-off of the timing engine's thread team costs on this host: the time of
 * par_run (src/sim/par.c) with nothing to do, over many calls, for teams of 2 .. N members. A
 * simulated cycle on the team pays this once (doc/speed.md, "Threads"), so threads pay only where
 * a cycle's work is several times it. `make bench` prints it; usage: handoff [MAX_MEMBERS [CALLS]]. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim/par.h"

static void nothing(void *ctx, uint32_t member) { (void)ctx, (void)member; }

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  const long max = argc > 1 ? strtol(argv[1], NULL, 10) : 2;
  const long calls = argc > 2 ? strtol(argv[2], NULL, 10) : 200000;
  if (max < 2 || max > 1024 || calls < 1) {
    fprintf(stderr, "usage: handoff [MAX_MEMBERS (2-1024) [CALLS]]\n");
    return 2;
  }
  printf("%-8s %8s %12s %12s\n", "members", "cores", "calls", "ns/hand-off");
  for (long n = 2; n <= max; n *= 2) {
    ParTeam *p = par_create((uint32_t)n);
    if (!p) {
      fprintf(stderr, "handoff: cannot start %ld threads\n", n);
      return 1;
    }
    for (long i = 0; i < calls / 10; i++) par_run(p, nothing, NULL); /* warm up */
    const double t0 = now_ns();
    for (long i = 0; i < calls; i++) par_run(p, nothing, NULL);
    const double t1 = now_ns();
    par_free(p);
    printf("%-8ld %8u %12ld %12.0f\n", n, par_cores(), calls, (t1 - t0) / (double)calls);
  }
  return 0;
}
