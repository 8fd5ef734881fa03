/* bench_host.cu - a suite benchmark as an ordinary CUDA program: its own host driver
 * (bench/<name>/<name>.c, compiled as C) and its own kernels (bench/<name>/*.cu, included
 * by the generated bench_gen.h with the kernel table and the BenchDesc's name), with warpsim.h's calls carried out by the CUDA runtime. Built by
 * tests/cli/cuda_exec.sh; under `warpsim exec` it must give what `warpsim run <name>` gives.
 * Usage: PROGRAM [tiny|small|paper] [seed]; exit 0 when the driver's check passes. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "bench.h"
}

/* the benchmark's .cu files; BENCH_TABLE: {"name", (const void *)name}, ... for each kernel
 * (from its checked-in PTX); BENCH_PTX: {"<name>/<file>.ptx", ""}, ... for its PTX files (what
 * bench_load_module asks for: the text is not needed, the kernels are in this program's fat
 * binary); BENCH_DESC: its bench_desc_<name> */
#include "bench_gen.h"
static const struct { const char *name; const void *fn; } kernels[] = {BENCH_TABLE};
extern "C" const BenchDesc BENCH_DESC;
extern "C" const BenchDesc *const bench_registry[] = {&BENCH_DESC, NULL};
typedef struct BenchPtxFile { const char *path; const char *text; } BenchPtxFile;
extern "C" const BenchPtxFile bench_ptx_files[] = {BENCH_PTX{NULL, NULL}};

static char last_error[512];
static WsResult check(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return WS_SUCCESS;
  snprintf(last_error, sizeof last_error, "%s: %s", what, cudaGetErrorString(e));
  return e == cudaErrorMemoryAllocation ? WS_ERROR_OUT_OF_MEMORY
         : e == cudaErrorIllegalAddress ? WS_ERROR_ILLEGAL_ADDRESS : WS_ERROR_LAUNCH_FAILED;
}

struct WsModule { int unused; };
static WsModule the_module;
static WsLaunchStats no_stats;

extern "C" {
const char *ws_ctx_error(const WsContext *ctx) { (void)ctx; return last_error; }
const char *ws_result_name(WsResult r) { return r == WS_SUCCESS ? "WS_SUCCESS" : "WS_ERROR"; }
const WsLaunchStats *ws_ctx_last_stats(const WsContext *ctx) { (void)ctx; return &no_stats; }
WsResult ws_module_load_data(WsContext *ctx, WsModule **mod, const char *text, const char *name) {
  (void)ctx, (void)text, (void)name;
  *mod = &the_module;
  return WS_SUCCESS;
}
WsResult ws_module_unload(WsModule *mod) { (void)mod; return WS_SUCCESS; }
WsResult ws_module_get_function(WsFunction **fn, WsModule *mod, const char *name) {
  (void)mod;
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
    if (!strcmp(kernels[i].name, name)) { *fn = (WsFunction *)kernels[i].fn; return WS_SUCCESS; }
  snprintf(last_error, sizeof last_error, "no kernel %s", name);
  return WS_ERROR_NOT_FOUND;
}
WsResult ws_module_get_global(WsDevPtr *dptr, size_t *bytes, WsModule *mod, const char *name) {
  (void)dptr, (void)bytes, (void)mod;
  snprintf(last_error, sizeof last_error, "bench_host: no variable table (%s)", name);
  return WS_ERROR_NOT_FOUND;
}
WsResult ws_mem_alloc(WsContext *ctx, WsDevPtr *dptr, size_t bytes) {
  (void)ctx;
  void *p = NULL;
  WsResult r = check(cudaMalloc(&p, bytes), "cudaMalloc");
  *dptr = (WsDevPtr)(uintptr_t)p;
  return r;
}
WsResult ws_mem_free(WsContext *ctx, WsDevPtr d) { (void)ctx; return check(cudaFree((void *)(uintptr_t)d), "cudaFree"); }
WsResult ws_memcpy_htod(WsContext *ctx, WsDevPtr dst, const void *src, size_t n) {
  (void)ctx;
  return check(cudaMemcpy((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice), "cudaMemcpy");
}
WsResult ws_memcpy_dtoh(WsContext *ctx, void *dst, WsDevPtr src, size_t n) {
  (void)ctx;
  return check(cudaMemcpy(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost), "cudaMemcpy");
}
WsResult ws_memcpy_dtod(WsContext *ctx, WsDevPtr dst, WsDevPtr src, size_t n) {
  (void)ctx;
  return check(cudaMemcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToDevice), "cudaMemcpy");
}
WsResult ws_memset_d8(WsContext *ctx, WsDevPtr dst, uint8_t v, size_t n) {
  (void)ctx;
  return check(cudaMemset((void *)(uintptr_t)dst, v, n), "cudaMemset");
}
WsResult ws_memset_d32(WsContext *ctx, WsDevPtr dst, uint32_t v, size_t count) {
  (void)ctx;
  uint32_t *h = (uint32_t *)malloc(count * 4 + 4);
  if (!h) return WS_ERROR_OUT_OF_MEMORY;
  for (size_t i = 0; i < count; i++) h[i] = v;
  WsResult r = check(cudaMemcpy((void *)(uintptr_t)dst, h, count * 4, cudaMemcpyHostToDevice), "cudaMemcpy");
  free(h);
  return r;
}
WsResult ws_launch_kernel(WsFunction *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void **params) {
  cudaError_t e = cudaLaunchKernel((const void *)fn, dim3(gx, gy, gz), dim3(bx, by, bz), params, shared, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return check(e, "kernel launch");
}
}

int main(int argc, char **argv) {
  BenchSize size = BENCH_TINY;
  if (argc > 1 && bench_parse_size(argv[1], &size)) { fprintf(stderr, "usage: %s [tiny|small|paper] [seed]\n", argv[0]); return 2; }
  BenchRun r = {(WsContext *)&the_module, size, argc > 2 ? strtoull(argv[2], NULL, 0) : 1, stderr, 0};
  int status = BENCH_DESC.run(&r);
  printf("%s: %s\n", BENCH_DESC.name, status == BENCH_PASS ? "PASS" : status == BENCH_MISMATCH ? "MISMATCH" : "ERROR");
  return status == BENCH_PASS ? 0 : 1;
}
