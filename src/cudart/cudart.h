/* cudart.h - internals of warpsim's CUDA runtime library (libcudart.so): the CUDA types and
 * error codes it shares with nvcc-compiled programs (ABI-compatible with CUDA 13's
 * cuda_runtime_api.h, which is not included: building needs no CUDA toolkit), and the
 * process-wide runtime state. Every function a program calls is marked CUDART_API; the
 * rest of the library (the simulator included) is hidden. */
#ifndef WS_CUDART_H
#define WS_CUDART_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "runtime/warpsim.h"
#include "sim/run_stats.h"

#define CUDART_API __attribute__((visibility("default")))

typedef int cudaError_t;
typedef struct dim3 {
  unsigned x, y, z;
} dim3;
typedef struct CudartStream *cudaStream_t;
typedef struct CudartEvent *cudaEvent_t;
typedef struct CudartKernel *cudaKernel_t;
typedef struct CudartKernel CudartKernel;

enum {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidPtx = 218,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
};
enum {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice,
  cudaMemcpyDeviceToHost,
  cudaMemcpyDeviceToDevice,
  cudaMemcpyDefault
};
enum {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared,
  cudaFuncCachePreferL1,
  cudaFuncCachePreferEqual
};

/* A module: one fat binary of the program, loaded into the simulator on first use. */
typedef struct CudartModule {
  const void *wrapper; /* the __fatBinC_Wrapper_t handed to __cudaRegisterFatBinary */
  WsModule *ws;
  int state; /* 0 not loaded, 1 loaded, -1 failed (message printed once) */
  struct CudartModule *next;
} CudartModule;

/* A kernel: the host stub's address, the PTX entry's name, its module. */
struct CudartKernel {
  const void *host_fun;
  char *name;
  CudartModule *mod;
  WsFunction *fn;
  int cache_pref; /* cudaFuncCache* */
  struct CudartKernel *next;
};

/* A __device__ / __constant__ variable: the host shadow's address and the PTX name. */
typedef struct CudartVar {
  const void *host_var;
  char *name;
  CudartModule *mod;
  struct CudartVar *next;
} CudartVar;

/* One launch, as the statistics report it (sim/run_stats.h). */
typedef ExecLaunch CudartLaunch;

typedef struct CudartState {
  int inited; /* 1 context made, -1 failed */
  WsContext *ctx;
  Config *cfg;
  void *gpu; /* Gpu* once the first launch made it (NULL: functional, or none yet) */
  int functional;
  int cache_pref; /* the L1/shared split the GPU was built with (cudaFuncCache*) */
  char cfg_label[512];
  CudartModule *mods;
  CudartKernel *kernels;
  CudartVar *vars;
  cudaError_t last_error, sticky;
  dim3 cfg_grid[8], cfg_block[8]; /* __cudaPushCallConfiguration stack */
  size_t cfg_shared[8];
  cudaStream_t cfg_stream[8];
  int ncfg;
  CudartLaunch *launches;
  int nlaunches, cap_launches;
  unsigned unsupported;     /* calls of functions this library does not implement */
  unsigned failed_launches; /* launches that did not run or faulted (no PTX, out-of-bounds access, ...) */
  FILE *timeline;           /* the timeline exec opened (WARPSIM_CUDART_TIMELINE_FD), NULL none */
  int timeline_ok;          /* it was finished and closed without an error */
  double t0;
} CudartState;

/* The process's runtime state: a CUDA runtime is process-global by its API (no context
 * argument), so this is the library's one mutable global. */
extern CudartState cudart;

/* Makes the context (configuration from the environment `warpsim exec` sets): 0, or a CUDA error. */
cudaError_t cudart_init(void);
/* Builds the GPU (timing model) before the first launch, with the L1/shared split `pref`. */
cudaError_t cudart_gpu(int pref);
/* Records `e` as the last error (and the sticky one for a failed kernel); returns it. */
cudaError_t cudart_ret(cudaError_t e);
/* Prints "warpsim cudart: <fn>: <message>" on stderr; returns cudart_ret(e). */
cudaError_t cudart_fail(cudaError_t e, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A CUDA error for a WsResult of the host API. */
cudaError_t cudart_from_ws(WsResult r);
/* Loads the module's PTX into the simulator (first use): 0, or a CUDA error (printed). */
cudaError_t cudart_module_load(CudartModule *m);
/* The registered kernel of a host stub (or a cudaKernel_t), loaded; NULL with *rc set (printed). */
CudartKernel *cudart_kernel(const void *func, const char *api, cudaError_t *rc);
/* Simulated time so far, in core cycles (0 in functional mode). */
uint64_t cudart_cycles(void);
double cudart_clock_mhz(void);

#endif
