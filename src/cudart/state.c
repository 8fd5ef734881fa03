/* state.c - warpsim's CUDA runtime: the process state, its configuration (from the
 * environment `warpsim exec` sets), the GPU built at the first launch, errors, and the
 * statistics written when the program exits (to $WARPSIM_CUDART_REPORT/stats.{txt,json}
 * for `warpsim exec`, else to stderr). */
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cudart/cudart.h"
#include "sim/gpu.h"
#include "sim/config_schema.h"
#include "sim/run_stats.h"

CudartState cudart;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

cudaError_t cudart_ret(cudaError_t e) {
  if (cudart.sticky) e = e ? e : cudart.sticky;
  if (e) cudart.last_error = e;
  return e;
}

cudaError_t cudart_fail(cudaError_t e, const char *fn, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "warpsim cudart: %s: ", fn);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return cudart_ret(e);
}

cudaError_t cudart_from_ws(WsResult r) {
  switch (r) {
  case WS_SUCCESS:
    return cudaSuccess;
  case WS_ERROR_INVALID_VALUE:
    return cudaErrorInvalidValue;
  case WS_ERROR_INVALID_PTX:
    return cudaErrorInvalidPtx;
  case WS_ERROR_NOT_FOUND:
    return cudaErrorInvalidSymbol;
  case WS_ERROR_OUT_OF_MEMORY:
    return cudaErrorMemoryAllocation;
  case WS_ERROR_ILLEGAL_ADDRESS:
    return cudaErrorIllegalAddress;
  case WS_ERROR_LIMIT:
    return cudaErrorLaunchTimeout;
  default:
    return cudaErrorLaunchFailure;
  }
}

/* configs/<name>.cfg next to the library: build/rel/lib -> the source tree, or an install's
 * <prefix>/lib -> <prefix>/share/warpsim/configs. */
static int find_preset(const char *name, char *out, size_t len) {
  Dl_info di;
  if (!dladdr((void *)(uintptr_t)find_preset, &di) || !di.dli_fname) return -1;
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", di.dli_fname);
  char *slash = strrchr(dir, '/');
  if (!slash) return -1;
  *slash = 0;
  const char *rel[] = {"%s/../../../configs/%s.cfg", "%s/../share/warpsim/configs/%s.cfg"};
  for (int i = 0; i < 2; i++) {
    snprintf(out, len, rel[i], dir, name);
    if (!access(out, R_OK)) return 0;
  }
  return -1;
}

static void write_report(void);

/* The configuration: WARPSIM_CUDART_CONFIG (a preset file; default gtx480 next to the
 * library), WARPSIM_CUDART_SETS (key=value lines), WARPSIM_CUDART_FUNCTIONAL=1. */
cudaError_t cudart_init(void) {
  if (cudart.inited > 0) return cudaSuccess;
  if (cudart.inited < 0) return cudaErrorInitializationError;
  cudart.inited = -1;
  cudart.t0 = now();
  atexit(write_report);
  char path[PATH_MAX + 64];
  const char *cf = getenv("WARPSIM_CUDART_CONFIG");
  if (cf && *cf)
    snprintf(path, sizeof path, "%s", cf);
  else if (find_preset("gtx480", path, sizeof path)) {
    fprintf(
        stderr,
        "warpsim cudart: no configuration: set WARPSIM_CUDART_CONFIG to a preset file, or run the program "
        "with `warpsim exec -- PROGRAM`\n");
    return cudaErrorInitializationError;
  }
  const char *fn = getenv("WARPSIM_CUDART_FUNCTIONAL");
  cudart.functional = fn && !strcmp(fn, "1");
  cudart.cfg = cfg_create();
  if (!cudart.cfg) return cudaErrorInitializationError;
  char *sets_text = strdup(getenv("WARPSIM_CUDART_SETS") ? getenv("WARPSIM_CUDART_SETS") : "");
  const char *sets[256];
  int nsets = 0;
  for (char *save = NULL, *t = strtok_r(sets_text, "\n", &save); t && nsets < 256;
       t = strtok_r(NULL, "\n", &save))
    sets[nsets++] = t;
  const char *files[1] = {path};
  int bad = cfg_resolve(cudart.cfg, files, 1, sets, nsets);
  free(sets_text);
  if (bad) {
    fprintf(stderr, "warpsim cudart: %s\n", cfg_error(cudart.cfg));
    cfg_free(cudart.cfg);
    cudart.cfg = NULL;
    return cudaErrorInitializationError;
  }
  const char *label = getenv("WARPSIM_CUDART_LABEL");
  snprintf(cudart.cfg_label, sizeof cudart.cfg_label, "%s", label && *label ? label : path);
  WsContextOptions o = {0};
  o.max_warp_insts = (uint64_t)cfg_int(cudart.cfg, "limit.max_warp_insts");
  if (ws_ctx_create(&cudart.ctx, &o) != WS_SUCCESS) {
    cfg_free(cudart.cfg);
    cudart.cfg = NULL;
    return cudaErrorInitializationError;
  }
  cudart.inited = 1;
  return cudaSuccess;
}

/* The Fermi L1/shared split of cudaFuncSetCacheConfig: 48 KB shared + 16 KB L1, or 16 KB
 * shared + 48 KB L1 (PreferL1). The GPU is built once, at the first launch, with the split
 * that launch's kernel (or the device) prefers; later launches asking for the other split
 * get a warning: the caches are not rebuilt between kernels. */
cudaError_t cudart_gpu(int pref) {
  if (cudart.gpu || cudart.functional) {
    if (cudart.gpu && pref != cudaFuncCachePreferNone &&
        (pref == cudaFuncCachePreferL1) != (cudart.cache_pref == cudaFuncCachePreferL1)) {
      static int warned;
      if (!warned++)
        fprintf(
            stderr,
            "warpsim cudart: warning: a kernel prefers a different L1/shared split than the first launch's; "
            "the GPU keeps the first (cudaFuncSetCacheConfig before the first launch applies it)\n");
    }
    return cudaSuccess;
  }
  if (pref == cudaFuncCachePreferL1) {
    if (cfg_set(cudart.cfg, "l1d.size=48K") || cfg_set(cudart.cfg, "sm.shared_mem=16K"))
      return cudart_fail(cudaErrorInitializationError, "cudaFuncSetCacheConfig", "%s", cfg_error(cudart.cfg));
  }
  cudart.cache_pref = pref;
  char err[1024];
  Gpu *g = gpu_create(cudart.cfg, err, sizeof err);
  if (!g) return cudart_fail(cudaErrorInitializationError, "warpsim", "%s", err);
  /* the timeline: `warpsim exec` opened the file (whole or nothing, gzip) and passes its descriptor */
  const char *tfd = getenv("WARPSIM_CUDART_TIMELINE_FD");
  if (tfd && *tfd) {
    FILE *f = fdopen(atoi(tfd), "w");
    if (!f || gpu_timeline_start(g, f, err, sizeof err)) {
      fprintf(stderr, "warpsim cudart: timeline: %s\n", f ? err : "bad descriptor");
      if (f) fclose(f);
    } else
      cudart.timeline = f;
  }
  ws_ctx_set_engine(cudart.ctx, gpu_engine_run, g);
  cudart.gpu = g;
  return cudaSuccess;
}

uint64_t cudart_cycles(void) { return cudart.gpu ? gpu_cycles(cudart.gpu) : 0; }
double cudart_clock_mhz(void) { return cudart.cfg ? (double)cfg_int(cudart.cfg, "sm.clock_mhz") : 700.0; }

/* ---- statistics at exit ---- */

/* The statistics (sim/run_stats.h) as text or JSON; the text starts with the configuration's
 * label and each kernel's registers, as `warpsim run`'s does. */
static void print_stats(FILE *f, StatsFormat fmt, double secs) {
  int nk = ws_ctx_kernel_count(cudart.ctx);
  WsKernelInfo *k = calloc(nk > 0 ? (size_t)nk : 1, sizeof *k);
  for (int i = 0; k && i < nk; i++) k[i] = *ws_ctx_kernel(cudart.ctx, i);
  if (fmt == STATS_TEXT) {
    if (!cudart.functional) fprintf(f, "%-44s %s (resolved config: --json)\n", "config", cudart.cfg_label);
    for (int i = 0; k && i < nk; i++)
      fprintf(f, "regs                 %s %u per thread (%s)\n", k[i].name, k[i].regs_per_thread,
              k[i].regs_estimated ? "estimated by warpsim: the program's fat binary has no sm_XX cubin"
                                  : "ptxas");
  }
  ExecStats x = {.functional = cudart.functional,
                 .unsupported_calls = cudart.unsupported,
                 .failed_launches = cudart.failed_launches,
                 .timeline_written = cudart.timeline_ok,
                 .launches = cudart.launches,
                 .nlaunches = cudart.nlaunches,
                 .total = *ws_ctx_total_stats(cudart.ctx),
                 .kernels = k,
                 .nkernels = k ? nk : 0,
                 .seconds = secs};
  StatsOut *o = stats_open(f, fmt, "");
  exec_stats_emit(o, &x, cudart.gpu, cudart.functional ? NULL : cudart.cfg);
  stats_close(o);
  if (fmt == STATS_JSON) fputc('\n', f);
  free(k);
}

/* Runs at exit (atexit after the context was made, so after the program's own exit handlers
 * that unregister its fat binaries): the statistics, then everything freed. */
static void write_report(void) {
  if (cudart.inited <= 0) return;
  double secs = now() - cudart.t0;
  if (cudart.timeline) { /* the JSON's end; `warpsim exec` keeps the file only when this worked */
    int bad = gpu_timeline_finish(cudart.gpu);
    if (fclose(cudart.timeline)) bad = 1;
    cudart.timeline_ok = !bad;
    if (bad) fprintf(stderr, "warpsim cudart: timeline: cannot write it\n");
  }
  fflush(stdout);
  const char *dir = getenv("WARPSIM_CUDART_REPORT");
  if (dir && *dir) {
    char p[PATH_MAX], tmp[PATH_MAX + 8];
    for (int j = 0; j < 2; j++) {
      snprintf(p, sizeof p, "%s/stats.%s", dir, j ? "json" : "txt");
      snprintf(tmp, sizeof tmp, "%s.tmp", p);
      FILE *f = fopen(tmp, "w");
      if (!f) {
        fprintf(stderr, "warpsim cudart: cannot write %s\n", tmp);
        continue;
      }
      print_stats(f, j ? STATS_JSON : STATS_TEXT, secs);
      if (fclose(f) || rename(tmp, p)) fprintf(stderr, "warpsim cudart: cannot write %s\n", p);
    }
  } else {
    fprintf(stderr, "---- warpsim statistics ----\n");
    print_stats(stderr, STATS_TEXT, secs);
  }
  if (cudart.gpu) { /* commits the policies' output files (profiles, traces) when every launch completed */
    char err[512];
    if (gpu_close(cudart.gpu, err, sizeof err)) fprintf(stderr, "warpsim cudart: %s\n", err);
  }
  ws_ctx_destroy(cudart.ctx);
  cfg_free(cudart.cfg);
  for (CudartKernel *k = cudart.kernels, *n; k; k = n) {
    n = k->next;
    free(k->name);
    free(k);
  }
  for (CudartVar *v = cudart.vars, *n; v; v = n) {
    n = v->next;
    free(v->name);
    free(v);
  }
  for (CudartModule *m = cudart.mods, *n; m; m = n) {
    n = m->next;
    free(m);
  }
  free(cudart.launches);
  memset(&cudart, 0, sizeof cudart);
  cudart.inited = -1;
}
