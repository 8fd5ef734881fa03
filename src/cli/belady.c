/* belady.c - `warpsim belady TRACE [--config C] [--set K=V ...]`: replays an
 * l1d-trace file (sm.observers=l1d-trace) per SM under OPT, LRU and FIFO on
 * the configuration's L1D geometry (l1d.size, l1d.assoc, l1d.line_size) and
 * prints misses and MPKI beside the online cache's (analysis/belady.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analysis/belady.h"
#include "cli/cli.h"
#include "core/infile.h"
#include "mem/cache.h"

static double mpki(uint64_t misses, uint64_t insts) {
  return insts ? 1000.0 * (double)misses / (double)insts : 0.0;
}

int cli_belady(int argc, char **argv) {
  RunOpts ro = {0};
  const char *path = NULL;
  for (int i = 0; i < argc; i++) {
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) return 2;
    if (k) continue;
    if (argv[i][0] == '-' || path) {
      fprintf(stderr,
              "warpsim belady: unexpected '%s' (usage: warpsim belady TRACE [--config C] [--set K=V ...])\n",
              argv[i]);
      return 2;
    }
    path = argv[i];
  }
  if (!path) {
    fprintf(stderr, "warpsim belady: no trace file (write one with --set sm.observers=l1d-trace --set "
                    "observer.l1d-trace.file=F)\n");
    return 2;
  }
  Config *cfg = cli_make_config(&ro);
  if (!cfg) return 2;
  /* the L1D's geometry as the cache computes it (the same checks and messages) */
  CacheParams l1d;
  char perr[1024];
  CacheGeom cg;
  const int bad = cache_params_read(cfg, "l1d", &l1d, perr, sizeof perr) ||
                  cache_geom_make(l1d.size, l1d.assoc, l1d.line_size, &cg);
  cfg_free(cfg);
  if (bad) {
    fprintf(stderr, "warpsim belady: %s\n", perr);
    return 2;
  }
  const uint64_t size = l1d.size;
  BeladyGeom g = {
      .sets = cg.sets, .assoc = cg.ways, .line_size = cg.line_size, .merge_touch = l1d.merge_touch};
  char err[PATH_MAX + 64];
  FILE *f = in_open(path, (size_t)1 << 40, err, sizeof err); /* a regular file: a FIFO would block */
  if (!f) {
    fprintf(stderr, "warpsim belady: %s\n", err);
    return 2;
  }
  BeladyTrace t;
  int rc = belady_trace_read(f, &t, err, sizeof err);
  fclose(f);
  if (rc) {
    fprintf(stderr, "warpsim belady: %s: %s\n", path, err);
    return 2;
  }
  printf("# %s: L1D %llu B, %u-way, %u B lines, %u sets per SM; misses = allocating misses (the online "
         "cache's merges are hits in a replay)\n",
         path, (unsigned long long)size, g.assoc, g.line_size, g.sets);
  printf("%-6s %12s %12s %12s %12s %12s %12s %12s %10s %10s %10s\n", "sm", "loads", "warp_insts", "online",
         "merges", "lru", "fifo", "opt", "online_mpki", "lru_mpki", "opt_mpki");
  uint64_t tot[8] = {0};
  for (uint32_t i = 0; i < t.nsm && !rc; i++) {
    const BeladyStream *s = &t.sm[i];
    BeladyResult r[BELADY__COUNT];
    for (int p = 0; p < BELADY__COUNT && !rc; p++) rc = belady_replay(s, g, (BeladyPolicy)p, &r[p]);
    if (rc) break;
    if (!r[0].loads && !s->insts) continue;
    printf("%-6u %12llu %12llu %12llu %12llu %12llu %12llu %12llu %10.3f %10.3f %10.3f\n", i,
           (unsigned long long)r[0].loads, (unsigned long long)s->insts, (unsigned long long)s->misses,
           (unsigned long long)s->merges, (unsigned long long)r[BELADY_LRU].misses,
           (unsigned long long)r[BELADY_FIFO].misses, (unsigned long long)r[BELADY_OPT].misses,
           mpki(s->misses, s->insts), mpki(r[BELADY_LRU].misses, s->insts),
           mpki(r[BELADY_OPT].misses, s->insts));
    const uint64_t row[8] = {
        r[0].loads,           s->insts, s->misses, s->merges, r[BELADY_LRU].misses, r[BELADY_FIFO].misses,
        r[BELADY_OPT].misses, 0};
    for (int k = 0; k < 7; k++) tot[k] += row[k];
  }
  if (!rc)
    printf("%-6s %12llu %12llu %12llu %12llu %12llu %12llu %12llu %10.3f %10.3f %10.3f\n", "total",
           (unsigned long long)tot[0], (unsigned long long)tot[1], (unsigned long long)tot[2],
           (unsigned long long)tot[3], (unsigned long long)tot[4], (unsigned long long)tot[5],
           (unsigned long long)tot[6], mpki(tot[2], tot[1]), mpki(tot[4], tot[1]), mpki(tot[6], tot[1]));
  belady_trace_free(&t);
  if (rc) {
    fprintf(stderr, "warpsim belady: out of memory\n");
    return 1;
  }
  return 0;
}
