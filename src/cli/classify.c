/* classify.c - `warpsim classify <benchmark|launch file> [--size S] [--profile-size S2]
 * [--high H] [--low L] [--no-groups] [--tag-hits] [--out FILE] [--config C] [--set K=V ...]`: the
 * coordinated-bypassing paper's static classification (its Algorithm 1).
 *
 * For every kernel of the PTX: its load CFG (analysis/loadcfg.h: global loads,
 * grouped by array where a loop- and barrier-free path joins them); then
 * profiling runs of the workload at S2 (default S) on the timing model with the
 * bypass observer: one run per load caches that load alone and bypasses every
 * other global load of every kernel (access(i), hit(i)); one run per group of
 * several loads caches that group's loads alone (hit(g)). One kernel's load at a
 * time: the L1D keeps its lines across launches (as GPGPU-Sim 3.x), so a load of
 * another kernel cached in the same run could leave lines this one hits. Then, per load v of group g:
 * extra(g) = hit(g) - sum hit(v), Hit = hit(v) + extra(g) / size(g); ca if
 * Hit >= H * access(v), cg if Hit <= L * access(v), else cm (H 0.7, L 0.3).
 * `--no-groups` uses hit(v) alone (instruction-level bypassing: with H = L every
 * load is ca or cg). Writes the class file the bypass observer reads
 * (`observer.bypass.classes`): '#' lines with the measurements, then
 * "kernel pc class" per load. accesses/hits count the L1D line requests of the
 * load; a request merged into a pending miss's MSHR counts as a hit (it costs no L2
 * access, and a bypassed load loses it: gemm), `--tag-hits` counts tag hits only. A load never
 * executed in the profile (access 0) is ca, as Algorithm 1 reads (Hit 0 >= H * 0):
 * cached, as the baseline caches every load. '#' summary lines count the classes
 * per kernel and in all, and the loads the profile never executed. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/loadcfg.h"
#include "bench.h"
#include "cli/cli.h"
#include "core/infile.h"
#include "core/outfile.h"

#define CLASSIFY_MAX_INPUT ((size_t)64 << 20) /* bytes of a launch file or its PTX */

typedef struct CKernel {
  LcfgKernel g;
  const PtxModule *mod;
  uint64_t *access, *hit; /* per load */
  uint64_t *ghit;         /* per group */
  uint32_t *multi;        /* the groups of several loads, in order */
  uint32_t nmulti;
} CKernel;

/* Runs warpsim itself with args; 0 when it exited 0. */
static int run_self(char *const *args) {
  fflush(stdout), fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout)) _exit(127);
    execv("/proc/self/exe", args);
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Whether two paths name the same file (an output that would overwrite an input). */
static int same_file(const char *a, const char *b) {
  struct stat x, y;
  return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* A threshold: a number in [0, 1] (not empty, not nan). */
static int parse_threshold(const char *s, double *v) {
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return end == s || *end || errno || !(*v >= 0 && *v <= 1) ? -1 : 0;
}

/* Adds the profile's counts of the loads cached in this run (cached[k][l]) to dst. */
static int merge_hits = 1; /* --tag-hits: 0 */

static int read_profile(const char *path, CKernel *ks, uint32_t nk, uint32_t kk, int32_t which, int group) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[1024], name[512];
  unsigned pc;
  unsigned long long acc, hits, merges;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || sscanf(line, "%511s %u %llu %llu %llu", name, &pc, &acc, &hits, &merges) != 5)
      continue;
    if (merge_hits) hits += merges;
    for (uint32_t k = 0; k < nk; k++) {
      CKernel *c = &ks[k];
      if (k != kk || strcmp(c->g.name, name)) continue;
      for (uint32_t l = 0; l < c->g.nloads; l++) {
        if (c->g.loads[l].pc != pc) continue;
        if (!group && (int32_t)l == which) c->access[l] += acc, c->hit[l] += hits;
        if (group && (uint32_t)which < c->nmulti && c->g.loads[l].group == c->multi[which])
          c->ghit[c->multi[which]] += hits;
      }
    }
  }
  fclose(f);
  return 0;
}

static void ckernel_free(CKernel *c) {
  lcfg_free(&c->g);
  free(c->access), free(c->hit), free(c->ghit), free(c->multi);
}

/* After the discovery run: keeps the kernels whose loads the profile names (the benchmark's). */
static int keep_profiled(const char *path, CKernel *ks, uint32_t *nk) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  uint8_t *seen = calloc(*nk + 1, 1);
  if (!seen) {
    fclose(f);
    return -1;
  }
  char line[1024], name[512];
  unsigned pc;
  unsigned long long acc, hits;
  while (fgets(line, sizeof line, f))
    if (line[0] != '#' && sscanf(line, "%511s %u %llu %llu", name, &pc, &acc, &hits) == 4)
      for (uint32_t k = 0; k < *nk; k++) seen[k] |= !strcmp(ks[k].g.name, name);
  fclose(f);
  uint32_t n = 0;
  for (uint32_t k = 0; k < *nk; k++) {
    if (seen[k])
      ks[n++] = ks[k];
    else
      ckernel_free(&ks[k]);
  }
  *nk = n;
  free(seen);
  return 0;
}

/* The profiling runs: one per load of each kernel, then one per group of several loads of each kernel. */
static uint32_t plan_runs(const CKernel *ks, uint32_t nk, uint32_t *nload_runs) {
  uint32_t n = 0;
  for (uint32_t k = 0; k < nk; k++) n += ks[k].g.nloads;
  *nload_runs = n;
  for (uint32_t k = 0; k < nk; k++) n += ks[k].nmulti;
  return n;
}

/* Run r's kernel and its load (or group: r >= nload_runs) index within that kernel. */
static void run_of(const CKernel *ks, uint32_t nk, uint32_t nload_runs, uint32_t r, uint32_t *k,
                   uint32_t *which) {
  uint32_t i = r < nload_runs ? r : r - nload_runs;
  for (*k = 0; *k < nk; (*k)++) {
    const uint32_t n = r < nload_runs ? ks[*k].g.nloads : ks[*k].nmulti;
    if (i < n) break;
    i -= n;
  }
  *which = i;
}

static int usage(const char *msg) {
  fprintf(
      stderr,
      "warpsim classify: %s (usage: warpsim classify <benchmark|launch file> [--size S] [--profile-size S] "
      "[--high H] [--low L] [--no-groups] [--tag-hits] [--out FILE] [--config C] [--set K=V ...])\n",
      msg);
  return 2;
}

int cli_classify(int argc, char **argv) {
  RunOpts ro = {0};
  const char *target = NULL, *out = NULL, *size = "small", *psize = NULL;
  double high = 0.7, low = 0.3;
  int groups = 1;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    int k = cli_parse_run_opt(&ro, argc, argv, &i);
    if (k < 0) return 2;
    if (k) continue;
    static const char *const valued[] = {"--size", "--profile-size", "--high", "--low", "--out", NULL};
    if (cli_missing_value("warpsim classify", argc, argv, i, valued)) return 2;
    if (!strcmp(a, "--size"))
      size = argv[++i];
    else if (!strcmp(a, "--profile-size"))
      psize = argv[++i];
    else if (!strcmp(a, "--out"))
      out = argv[++i];
    else if (!strcmp(a, "--high") || !strcmp(a, "--low")) {
      double v;
      if (parse_threshold(argv[++i], &v)) {
        fprintf(stderr, "warpsim classify: %s: bad threshold '%s' (a number in [0, 1])\n", a, argv[i]);
        return 2;
      }
      *(a[2] == 'h' ? &high : &low) = v;
    } else if (!strcmp(a, "--no-groups"))
      groups = 0;
    else if (!strcmp(a, "--tag-hits"))
      merge_hits = 0;
    else if (a[0] == '-')
      return usage("unknown option");
    else if (!target)
      target = a;
    else
      return usage("one benchmark or launch file");
  }
  if (!target) return usage("what to classify?");
  if (low > high) return usage("--low above --high");
  BenchSize bs;
  if (bench_parse_size(size, &bs) || (psize && bench_parse_size(psize, &bs)))
    return usage("unknown size (valid: tiny, small, paper)");
  if (ro.functional) return usage("profiling needs the timing model (no --functional)");
  if (ro.tl_sets[0][0]) return usage("a timeline is for one run (warpsim run BENCH --timeline FILE)");
  if (!psize) psize = size;
  const BenchDesc *b = bench_find(target);
  /* the PTX modules: the benchmark's embedded files, or the launch file's `ptx` */
  enum { MAX_MODS = 128 };
  PtxModule *mods[MAX_MODS];
  int discover = 0;
  uint32_t nmods = 0;
  char err[1024];
  int rc = 1;
  CKernel *ks = NULL;
  uint32_t nk = 0;
  char only_kernel[256] = ""; /* a launch file's kernel: the one its profile runs */
  OutFile of = {.fd = -1};
  char tmp_dir[PATH_MAX] = "";
  if (b) {
    const char *path, *text;
    size_t n = strlen(b->name);
    /* its own folder's PTX, else (a benchmark of a shared folder: pvc and ss in mapreduce/) every
     * embedded module, narrowed below to the kernels a discovery run executes */
    for (int pass = 0; pass < 2 && !nmods; pass++) {
      discover = pass;
      for (int i = 0; (text = bench_ptx_file_at(i, &path)) != NULL; i++) {
        if ((!pass && (strncmp(path, b->name, n) || path[n] != '/')) || nmods == MAX_MODS) continue;
        if (!(mods[nmods] = ptx_module_parse(text, path, err, sizeof err))) {
          fprintf(stderr, "warpsim classify: %s\n", err);
          goto out;
        }
        nmods++;
      }
    }
  } else {
    char *t = in_read(target, CLASSIFY_MAX_INPUT, NULL, err, sizeof err);
    if (!t) {
      fprintf(stderr,
              "warpsim classify: '%s' is not a benchmark (see `warpsim list`), and as a launch file: %s\n",
              target, err);
      return 2;
    }
    char ptx[1024] = "";
    for (char *l = strtok(t, "\n"); l; l = strtok(NULL, "\n")) {
      while (*l == ' ' || *l == '\t') l++;
      char p[900];
      if (!strncmp(l, "kernel", 6) && sscanf(l + 6, " %255s", only_kernel) != 1) only_kernel[0] = 0;
      if (!strncmp(l, "ptx", 3) && sscanf(l + 3, " %899s", p) == 1) {
        const char *slash = strrchr(target, '/');
        snprintf(ptx, sizeof ptx, "%.*s%s%s", slash ? (int)(slash - target) : 0, target,
                 slash && p[0] != '/' ? "/" : "", p);
        if (p[0] == '/') snprintf(ptx, sizeof ptx, "%s", p);
      }
    }
    free(t);
    if (!ptx[0]) {
      fprintf(stderr, "warpsim classify: %s: no `ptx` statement\n", target);
      return 2;
    }
    if (out && (same_file(out, target) || same_file(out, ptx))) {
      fprintf(stderr, "warpsim classify: --out %s is an input (%s); name another file\n", out,
              same_file(out, target) ? target : ptx);
      return 2;
    }
    char *text = in_read(ptx, CLASSIFY_MAX_INPUT, NULL, err, sizeof err);
    if (!text) {
      fprintf(stderr, "warpsim classify: %s\n", err);
      return 2;
    }
    mods[0] = ptx_module_parse(text, ptx, err, sizeof err);
    free(text);
    if (!mods[0]) {
      fprintf(stderr, "warpsim classify: %s\n", err);
      return 2;
    }
    nmods = 1;
  }
  /* the kernels' load CFGs */
  uint32_t nload_runs = 0;
  for (uint32_t m = 0; m < nmods; m++)
    for (uint32_t f = 0; f < mods[m]->nfuncs; f++) {
      if (!mods[m]->funcs[f].is_entry || !mods[m]->funcs[f].defined) continue;
      if (only_kernel[0] && strcmp(mods[m]->funcs[f].name, only_kernel)) continue;
      CKernel *n = realloc(ks, (nk + 1) * sizeof *n);
      if (!n) goto oom;
      ks = n;
      CKernel *c = &ks[nk];
      memset(c, 0, sizeof *c);
      if (lcfg_build(mods[m], f, &c->g)) goto oom;
      nk++;
      c->mod = mods[m];
      c->access = calloc(c->g.nloads + 1, sizeof *c->access);
      c->hit = calloc(c->g.nloads + 1, sizeof *c->hit);
      c->ghit = calloc(c->g.ngroups + 1, sizeof *c->ghit);
      c->multi = calloc(c->g.ngroups + 1, sizeof *c->multi);
      if (!c->access || !c->hit || !c->ghit || !c->multi) goto oom;
      for (uint32_t g = 0; g < c->g.ngroups; g++)
        if (groups && c->g.group_size[g] > 1) c->multi[c->nmulti++] = g;
    }
  if (!nk) { /* a class file with no load would silently classify nothing */
    if (only_kernel[0])
      fprintf(stderr, "warpsim classify: %s: kernel %s is not an entry of its PTX\n", target, only_kernel);
    else
      fprintf(stderr, "warpsim classify: %s: no kernel entry in its PTX\n", target);
    rc = 2;
    goto out;
  }
  /* the class file: opened now (an unwritable --out fails before the profiling runs), whole or nothing */
  if (out && out_open(&of, out, err, sizeof err)) {
    fprintf(stderr, "warpsim classify: %s\n", err);
    goto out;
  }
  /* profiling runs (run -1: the discovery run, every load cached), their files in a private folder */
  const char *tmpdir = getenv("TMPDIR");
  if (snprintf(tmp_dir, sizeof tmp_dir, "%s/warpsim-classify-XXXXXX",
               tmpdir && tmpdir[0] ? tmpdir : "/tmp") >= (int)sizeof tmp_dir ||
      !mkdtemp(tmp_dir)) {
    fprintf(stderr, "warpsim classify: cannot make a temporary folder %s: %s\n", tmp_dir, strerror(errno));
    tmp_dir[0] = 0;
    goto out;
  }
  char cls_path[PATH_MAX + 16], prof_path[PATH_MAX + 16];
  snprintf(cls_path, sizeof cls_path, "%s/loads.cls", tmp_dir);
  snprintf(prof_path, sizeof prof_path, "%s/loads.prof", tmp_dir);
  uint32_t nruns = plan_runs(ks, nk, &nload_runs);
  for (int64_t r = discover ? -1 : 0; r < (int64_t)nruns || r < 0; r++) {
    const int group = r >= (int64_t)nload_runs;
    uint32_t kk = 0, which = 0;
    if (r >= 0) run_of(ks, nk, nload_runs, (uint32_t)r, &kk, &which);
    FILE *f = fopen(cls_path, "w");
    if (!f) {
      fprintf(stderr, "warpsim classify: cannot write %s\n", cls_path);
      goto out;
    }
    for (uint32_t k = 0; k < nk; k++)
      for (uint32_t l = 0; l < ks[k].g.nloads; l++) {
        const int cached =
            r < 0 || (k == kk && (group ? ks[k].g.loads[l].group == ks[k].multi[which] : l == which));
        fprintf(f, "%s %u %s\n", ks[k].g.name, ks[k].g.loads[l].pc, cached ? "ca" : "cg");
      }
    if (fclose(f)) {
      fprintf(stderr, "warpsim classify: cannot write %s\n", cls_path);
      goto out;
    }
    char *args[MAX_SETS * 2 + 32];
    int na = 0;
    char sets[6][1200];
    args[na++] = "warpsim";
    args[na++] = b ? "run" : "launch";
    args[na++] = (char *)target;
    if (b) args[na++] = "--size", args[na++] = (char *)psize;
    if (ro.config) args[na++] = "--config", args[na++] = (char *)ro.config;
    for (int s = 0; s < ro.nall; s++)
      args[na++] = "--set", args[na++] = (char *)ro.all[s]; /* --sched, --max-cycles... in order */
    snprintf(sets[0], sizeof sets[0], "sm.observers=bypass");
    snprintf(sets[1], sizeof sets[1], "observer.bypass.classes=%s", cls_path);
    snprintf(sets[2], sizeof sets[2], "observer.bypass.default=cg");
    snprintf(sets[3], sizeof sets[3], "observer.bypass.cm=ca");
    snprintf(sets[4], sizeof sets[4], "observer.bypass.profile=%s", prof_path);
    for (int s = 0; s < 5; s++) args[na++] = "--set", args[na++] = sets[s];
    args[na] = NULL;
    fprintf(stderr, "warpsim classify: profiling run %lld of %u (%s%s%s %u)\n", (long long)r + 1, nruns,
            r < 0 ? "" : ks[kk].g.name, r < 0 ? "" : " ",
            r < 0   ? "discovery"
            : group ? "group"
                    : "load",
            which);
    remove(prof_path);
    if (run_self(args) || (r >= 0 && read_profile(prof_path, ks, nk, kk, (int32_t)which, group)) ||
        (r < 0 && keep_profiled(prof_path, ks, &nk))) {
      fprintf(stderr, "warpsim classify: profiling run %lld failed (its output check or the profile)\n",
              (long long)r + 1);
      remove(cls_path), remove(prof_path);
      goto out;
    }
    if (r < 0) nruns = plan_runs(ks, nk, &nload_runs); /* the benchmark's kernels are known now */
  }
  remove(cls_path), remove(prof_path);
  FILE *o = out ? of.f : stdout;
  if (b)
    fprintf(o, "# warpsim classify %s: evaluation size %s, profiled at %s", target, size, psize);
  else
    fprintf(o, "# warpsim classify %s: profiled on the launch file's input", target);
  fprintf(o, "; HighThres %.3g, LowThres %.3g%s; hits %s\n", high, low, groups ? "" : ", no groups",
          merge_hits ? "and MSHR merges" : "of tags only");
  /* Algorithm 1 for every load, then the summary lines, then a comment and a class line per load */
  uint32_t nall = 0, tot[4] = {0}; /* ca, cm, cg, never executed */
  for (uint32_t k = 0; k < nk; k++) nall += ks[k].g.nloads;
  unsigned char *cls_of = malloc(nall + 1);
  double *hit_of = malloc((nall + 1) * sizeof *hit_of);
  if (!cls_of || !hit_of) {
    free(cls_of), free(hit_of);
    goto oom;
  }
  for (uint32_t k = 0, i = 0; k < nk; k++) {
    const CKernel *c = &ks[k];
    for (uint32_t l = 0; l < c->g.nloads; l++, i++) {
      const uint32_t g = c->g.loads[l].group, gs = c->g.group_size[g];
      double hit = (double)c->hit[l];
      if (groups && gs > 1) {
        int64_t sum = 0;
        for (uint32_t m = 0; m < c->g.nloads; m++)
          if (c->g.loads[m].group == g) sum += (int64_t)c->hit[m];
        hit += (double)((int64_t)c->ghit[g] - sum) / gs;
      }
      const double acc = (double)c->access[l];
      hit_of[i] = hit;
      cls_of[i] = hit >= high * acc ? 0 : hit <= low * acc ? 2 : 1;
    }
  }
  static const char *const cname[] = {"ca", "cm", "cg"};
  for (uint32_t k = 0, i = 0; k < nk; k++) {
    uint32_t n[4] = {0};
    for (uint32_t l = 0; l < ks[k].g.nloads; l++, i++) n[cls_of[i]]++, n[3] += !ks[k].access[l];
    fprintf(o, "# kernel %s: %u loads, ca/cm/cg %u/%u/%u, %u never executed in the profile\n", ks[k].g.name,
            ks[k].g.nloads, n[0], n[1], n[2], n[3]);
    for (int j = 0; j < 4; j++) tot[j] += n[j];
  }
  fprintf(o, "# all kernels: %u loads, ca/cm/cg %u/%u/%u, %u never executed in the profile\n", nall, tot[0],
          tot[1], tot[2], tot[3]);
  fprintf(o, "# per load: kernel pc array group(size) access hit(i) hit(g) Hit -> class; "
             "then the line the observer reads\n");
  for (uint32_t k = 0, i = 0; k < nk; k++) {
    const CKernel *c = &ks[k];
    for (uint32_t l = 0; l < c->g.nloads; l++, i++) {
      const LcfgLoad *ld = &c->g.loads[l];
      const uint32_t g = ld->group, gs = c->g.group_size[g];
      const char *cls = cname[cls_of[i]];
      fprintf(o, "# %s %u %s %u(%u) %llu %llu %llu %.1f -> %s\n", c->g.name, ld->pc,
              lcfg_array_name(c->mod, &c->g, ld->array), g, gs, (unsigned long long)c->access[l],
              (unsigned long long)c->hit[l], (unsigned long long)(groups && gs > 1 ? c->ghit[g] : c->hit[l]),
              hit_of[i], cls);
      fprintf(o, "%s %u %s\n", c->g.name, ld->pc, cls);
    }
  }
  free(cls_of), free(hit_of);
  if (out && out_commit(&of, err, sizeof err)) {
    fprintf(stderr, "warpsim classify: %s\n", err);
    goto out;
  }
  rc = 0;
  goto out;
oom:
  fprintf(stderr, "warpsim classify: out of memory\n");
out:
  out_abort(&of);
  if (tmp_dir[0]) rmdir(tmp_dir);
  for (uint32_t k = 0; k < nk; k++) ckernel_free(&ks[k]);
  free(ks);
  for (uint32_t m = 0; m < nmods; m++) ptx_module_free(mods[m], NULL);
  return rc;
}
