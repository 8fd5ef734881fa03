/* warpsim.h - the host-side API of warpsim, shaped after the CUDA driver API.
 *
 * A host program creates a context, loads a PTX module (cuModuleLoadData ->
 * ws_module_load_data), looks up kernels (cuModuleGetFunction ->
 * ws_module_get_function), allocates and copies device memory (cuMemAlloc,
 * cuMemcpyHtoD, cuMemcpyDtoH -> ws_mem_alloc, ws_memcpy_htod, ws_memcpy_dtoh)
 * and launches kernels (cuLaunchKernel -> ws_launch_kernel).
 *
 * Contract: every call returns a WsResult; on failure ws_ctx_error() holds a
 * human-readable message naming what went wrong (PTX file:line:column,
 * kernel/CTA/thread/PC/address of a faulting access, ...). Launches are
 * synchronous: when ws_launch_kernel returns, the kernel has completed (or
 * failed) and device memory reflects its result. Nothing here aborts the
 * process on bad input.
 */
#ifndef WARPSIM_H
#define WARPSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t WsDevPtr;
typedef struct WsContext WsContext;
typedef struct WsModule WsModule;
typedef struct WsFunction WsFunction;

typedef enum WsResult {
  WS_SUCCESS = 0,
  WS_ERROR_INVALID_VALUE,   /* bad argument (NULL, zero-sized grid, ...) */
  WS_ERROR_INVALID_PTX,     /* parse or decode error in a module */
  WS_ERROR_NOT_FOUND,       /* unknown kernel or symbol name */
  WS_ERROR_OUT_OF_MEMORY,   /* device or host allocation failed */
  WS_ERROR_ILLEGAL_ADDRESS, /* out-of-bounds or misaligned device access */
  WS_ERROR_LAUNCH_FAILED,   /* other runtime fault: division, barrier misuse, unsupported op */
  WS_ERROR_DEADLOCK,        /* no warp can make progress */
  WS_ERROR_FILE,            /* cannot read or write a file */
  WS_ERROR_LIMIT,           /* stopped by an instruction or cycle limit (an endless loop?) */
} WsResult;

/* Launch statistics of the functional execution (the timing model adds its own). */
typedef struct WsLaunchStats {
  uint64_t warp_insts;   /* warp instructions executed (one per issue, any active mask) */
  uint64_t thread_insts; /* thread instructions: sum of active lanes over warp instructions */
  uint64_t ctas;         /* CTAs executed */
  uint64_t warps;        /* warps executed */
  uint64_t barriers;     /* bar.sync / barrier.sync warp arrivals */
  uint64_t cycles;       /* core cycles (timing engine only; 0 in functional mode) */
} WsLaunchStats;

/* Engine hook: the timing model registers itself here; NULL = functional only.
 * The engine receives the prepared launch and runs it to completion. */
struct PtxLaunch;
typedef WsResult (*WsEngineRunFn)(void *engine, struct PtxLaunch *launch, WsLaunchStats *stats, char *err,
                                  size_t errlen);

typedef struct WsContextOptions {
  uint64_t device_mem_limit; /* bytes of device memory (0 = 4 GiB) */
  unsigned resident_ctas;    /* functional mode: CTAs interleaved at once (0 = 120) */
  unsigned quantum;          /* functional mode: warp instructions per scheduling turn (0 = 64) */
  uint64_t max_warp_insts;   /* abort a launch after this many warp instructions (0 = no limit);
                              * functional engine only: the timing engine reads limit.* */
} WsContextOptions;

/* ---- context ---- */
WsResult ws_ctx_create(WsContext **ctx, const WsContextOptions *opts);
void ws_ctx_destroy(WsContext *ctx);
const char *ws_ctx_error(const WsContext *ctx); /* message of the last failure ("" if none) */
const char *ws_result_name(WsResult r);
WsResult ws_ctx_synchronize(WsContext *ctx);
void ws_ctx_set_engine(WsContext *ctx, WsEngineRunFn run, void *engine);
/* Changes WsContextOptions.max_warp_insts of a live context (0 = no limit). */
void ws_ctx_set_max_warp_insts(WsContext *ctx, uint64_t max_warp_insts);
/* An observer of the executed instruction stream (trace exporters), either engine: begin is
 * called before each launch runs (a failure stops the launch with its message), step after each
 * warp instruction (ptx.h PtxStepObserver), end after the launch with its result (a failure turns
 * a successful launch into WS_ERROR_FILE). NULL members are skipped; NULL observer: none. */
struct PtxWarp;
struct PtxMemTrace;
typedef struct WsObserver {
  void *ctx;
  WsResult (*begin)(void *ctx, const struct PtxLaunch *launch, char *err, size_t errlen);
  void (*step)(void *ctx, const struct PtxWarp *w, uint32_t pc, uint32_t active,
               const struct PtxMemTrace *mem);
  WsResult (*end)(void *ctx, const struct PtxLaunch *launch, WsResult rc, char *err, size_t errlen);
} WsObserver;
void ws_ctx_set_observer(WsContext *ctx, const WsObserver *obs);
/* Statistics of the most recent launch and the sum over all launches. */
const WsLaunchStats *ws_ctx_last_stats(const WsContext *ctx);
const WsLaunchStats *ws_ctx_total_stats(const WsContext *ctx);

/* Per-kernel record of every kernel launched in a context (by name). */
typedef struct WsKernelInfo {
  char name[96];
  uint64_t launches, ctas, warp_insts, barriers;
  unsigned threads_per_cta; /* of the last launch */
  unsigned shared_per_cta;  /* static + dynamic bytes, last launch */
  unsigned regs_per_thread; /* allocated at the last launch: ptxas annotation or liveness estimate, or the
                               engine's override */
  unsigned regs_compiled; /* the kernel's own count (ptxas's or the estimate), before the engine's override */
  unsigned regs_estimated; /* 1: the count compiled is warpsim's liveness estimate (no ptxas annotation) */
} WsKernelInfo;
int ws_ctx_kernel_count(const WsContext *ctx);
const WsKernelInfo *ws_ctx_kernel(const WsContext *ctx, int i);

/* ---- modules ---- */
WsResult ws_module_load(WsContext *ctx, WsModule **mod, const char *path);
/* name is used in error messages (file:line:col); text must be NUL-terminated. */
WsResult ws_module_load_data(WsContext *ctx, WsModule **mod, const char *text, const char *name);
WsResult ws_module_unload(WsModule *mod);
WsResult ws_module_get_function(WsFunction **fn, WsModule *mod, const char *name);
/* Device address and size of a __device__ / __constant__ variable. */
WsResult ws_module_get_global(WsDevPtr *dptr, size_t *bytes, WsModule *mod, const char *name);
/* What a kernel needs per CTA and thread (cudaFuncGetAttributes). */
typedef struct WsFunctionAttrs {
  unsigned regs_per_thread; /* ptxas's count (a `//@warpsim regs` line) or warpsim's liveness estimate */
  unsigned regs_from_ptxas; /* 1: regs_per_thread is ptxas's */
  unsigned static_shared;   /* bytes of static .shared */
  unsigned local_bytes;     /* bytes of local memory per thread (deepest call chain) */
  unsigned param_bytes;     /* bytes of parameters */
} WsFunctionAttrs;
void ws_function_attrs(const WsFunction *fn, WsFunctionAttrs *attrs);
/* Number and byte sizes of a kernel's parameters. */
int ws_function_param_count(const WsFunction *fn);
size_t ws_function_param_size(const WsFunction *fn, int index);
const char *ws_function_name(const WsFunction *fn);

/* ---- memory ---- */
WsResult ws_mem_alloc(WsContext *ctx, WsDevPtr *dptr, size_t bytes);
WsResult ws_mem_free(WsContext *ctx, WsDevPtr dptr);
/* 1 if [dptr, dptr + bytes) lies inside one device allocation (or module variable), else 0. */
int ws_mem_is_device(const WsContext *ctx, WsDevPtr dptr, size_t bytes);
WsResult ws_memcpy_htod(WsContext *ctx, WsDevPtr dst, const void *src, size_t bytes);
WsResult ws_memcpy_dtoh(WsContext *ctx, void *dst, WsDevPtr src, size_t bytes);
WsResult ws_memcpy_dtod(WsContext *ctx, WsDevPtr dst, WsDevPtr src, size_t bytes);
WsResult ws_memset_d8(WsContext *ctx, WsDevPtr dst, uint8_t value, size_t bytes);
WsResult ws_memset_d32(WsContext *ctx, WsDevPtr dst, uint32_t value, size_t count);

/* ---- launch ----
 * params[i] points at the value of parameter i; its size comes from the PTX
 * declaration (as with cuLaunchKernel's kernelParams). */
WsResult ws_launch_kernel(WsFunction *fn, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                          unsigned block_y, unsigned block_z, unsigned shared_bytes, void **params);

#ifdef __cplusplus
}
#endif
#endif
