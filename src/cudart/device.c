/* device.c - warpsim's CUDA runtime: the device (one, described by the preset), errors,
 * synchronisation, streams and events in simulated time, and kernel attributes. Every
 * launch is synchronous, so a stream is a handle and an event holds the simulated cycle at
 * which it was recorded; cudaEventElapsedTime converts cycles at the preset's core clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cudart.h"
#include "sm/sm.h"

/* ---- errors ---- */

static const struct {
  int code;
  const char *name, *text;
} errors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration",
     "__global__ function call is not configured"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

CUDART_API const char *cudaGetErrorName(cudaError_t e) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
    if (errors[i].code == e) return errors[i].name;
  return "cudaErrorUnknown";
}
CUDART_API const char *cudaGetErrorString(cudaError_t e) {
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
    if (errors[i].code == e) return errors[i].text;
  return "unrecognized error code";
}
CUDART_API cudaError_t cudaGetLastError(void) {
  cudaError_t e = cudart.last_error;
  cudart.last_error = cudart.sticky;
  return e;
}
CUDART_API cudaError_t cudaPeekAtLastError(void) { return cudart.last_error; }

/* ---- device ---- */

CUDART_API cudaError_t cudaGetDeviceCount(int *n) {
  if (!n) return cudart_ret(cudaErrorInvalidValue);
  *n = 1;
  return cudart_ret(cudart_init());
}
CUDART_API cudaError_t cudaSetDevice(int d) { return cudart_ret(d ? cudaErrorInvalidDevice : cudart_init()); }
CUDART_API cudaError_t cudaGetDevice(int *d) {
  if (d) *d = 0;
  return cudart_ret(cudart_init());
}
CUDART_API cudaError_t cudaInitDevice(int d, unsigned a, unsigned b) {
  (void)a, (void)b;
  return cudaSetDevice(d);
}
CUDART_API cudaError_t cudaSetDeviceFlags(unsigned f) {
  (void)f;
  return cudart_ret(cudart_init());
}
CUDART_API cudaError_t cudaDeviceSynchronize(void) { return cudart_ret(cudart_init()); }
CUDART_API cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
/* The statistics need the simulator's state to the end, so a reset only clears errors. */
CUDART_API cudaError_t cudaDeviceReset(void) {
  cudart.last_error = 0;
  return cudart_init();
}
CUDART_API cudaError_t cudaDriverGetVersion(int *v) {
  if (v) *v = 13000;
  return cudaSuccess;
}
CUDART_API cudaError_t cudaRuntimeGetVersion(int *v) {
  if (v) *v = 13000;
  return cudaSuccess;
}

/* cudaDeviceProp of CUDA 13 (1008 bytes): the fields set here at their offsets. */
typedef struct DeviceProp {
  char name[256];
  char uuid[16], luid[8];
  unsigned luid_mask;
  size_t total_global_mem, shared_per_block;
  int regs_per_block, warp_size;
  size_t mem_pitch;
  int max_threads_per_block, max_threads_dim[3], max_grid[3];
  size_t total_const_mem;
  int major, minor;
  size_t texture_align, texture_pitch_align;
  int sm_count;
  char pad0[588 - 388];
  int unified_addressing, bus_width, l2_size, l2_persist, max_threads_per_sm;
  char pad1[624 - 608];
  size_t shared_per_sm;
  int regs_per_sm;
  char pad2[672 - 636];
  size_t shared_per_block_optin;
  char pad3[688 - 680];
  int max_blocks_per_sm;
  char pad4[1008 - 692];
} DeviceProp;
_Static_assert(sizeof(DeviceProp) == 1008, "cudaDeviceProp of CUDA 13");
_Static_assert(__builtin_offsetof(DeviceProp, sm_count) == 384 &&
                   __builtin_offsetof(DeviceProp, l2_size) == 596 &&
                   __builtin_offsetof(DeviceProp, shared_per_sm) == 624 &&
                   __builtin_offsetof(DeviceProp, max_blocks_per_sm) == 688,
               "cudaDeviceProp offsets of CUDA 13");

static int cfgi(const char *key) { return (int)cfg_int(cudart.cfg, key); }

/* Compute capability 2.0: the presets model Fermi (the PTX itself may target any sm). */
CUDART_API cudaError_t cudaGetDeviceProperties(void *out, int dev) {
  cudaError_t rc = cudart_init();
  if (rc) return cudart_ret(rc);
  if (dev) return cudart_ret(cudaErrorInvalidDevice);
  if (!out) return cudart_ret(cudaErrorInvalidValue);
  DeviceProp p;
  memset(&p, 0, sizeof p);
  snprintf(p.name, sizeof p.name, "warpsim (%s)", cudart.cfg_label);
  p.total_global_mem = (size_t)4 << 30;
  int shared = cfgi("sm.shared_mem");
  p.shared_per_block = (size_t)(shared < 48 * 1024 ? shared : 48 * 1024);
  p.regs_per_block = cfgi("sm.registers");
  p.warp_size = cfgi("sm.warp_size");
  p.mem_pitch = (size_t)2 << 30;
  p.max_threads_per_block = cfgi("sm.max_threads") < 1024 ? cfgi("sm.max_threads") : 1024;
  p.max_threads_dim[0] = p.max_threads_dim[1] = 1024, p.max_threads_dim[2] = 64;
  p.max_grid[0] = 0x7fffffff, p.max_grid[1] = p.max_grid[2] = 65535;
  p.total_const_mem = 64 * 1024;
  p.major = 2, p.minor = 0;
  p.texture_align = 512, p.texture_pitch_align = 32;
  p.sm_count = cfgi("sm.count");
  p.unified_addressing = 0;
  p.bus_width = cfgi("dram.bus_width") * 8 * cfgi("mem.partitions");
  p.l2_size = cfgi("l2.size");
  p.max_threads_per_sm = cfgi("sm.max_threads");
  p.shared_per_sm = (size_t)shared;
  p.regs_per_sm = cfgi("sm.registers");
  p.shared_per_block_optin = p.shared_per_block;
  p.max_blocks_per_sm = cfgi("sm.max_ctas");
  memcpy(out, &p, sizeof p);
  return cudaSuccess;
}
CUDART_API cudaError_t cudaGetDeviceProperties_v2(void *out, int dev) {
  return cudaGetDeviceProperties(out, dev);
}

/* cudaDeviceGetAttribute for the attributes programs size their launches with. */
CUDART_API cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev) {
  cudaError_t rc = cudart_init();
  if (rc) return cudart_ret(rc);
  if (dev) return cudart_ret(cudaErrorInvalidDevice);
  if (!v) return cudart_ret(cudaErrorInvalidValue);
  DeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  switch (attr) {
  case 1:
    *v = p.max_threads_per_block;
    break;
  case 2:
  case 3:
  case 4:
    *v = p.max_threads_dim[attr - 2];
    break;
  case 5:
  case 6:
  case 7:
    *v = p.max_grid[attr - 5];
    break;
  case 8:
    *v = (int)p.shared_per_block;
    break;
  case 9:
    *v = (int)p.total_const_mem;
    break;
  case 10:
    *v = p.warp_size;
    break;
  case 12:
    *v = p.regs_per_block;
    break;
  case 13:
    *v = (int)(cudart_clock_mhz() * 1000);
    break;
  case 16:
    *v = p.sm_count;
    break;
  case 36:
    *v = cfgi("dram.clock_mhz") * 1000;
    break;
  case 37:
    *v = p.bus_width;
    break;
  case 38:
    *v = p.l2_size;
    break;
  case 39:
    *v = p.max_threads_per_sm;
    break;
  case 75:
    *v = p.major;
    break;
  case 76:
    *v = p.minor;
    break;
  case 81:
    *v = (int)p.shared_per_sm;
    break;
  case 82:
    *v = p.regs_per_sm;
    break;
  case 97:
    *v = (int)p.shared_per_block_optin;
    break;
  case 106:
    *v = p.max_blocks_per_sm;
    break;
  default:
    return cudart_fail(cudaErrorNotSupported, "cudaDeviceGetAttribute",
                       "attribute %d is not modelled by warpsim", attr);
  }
  return cudaSuccess;
}

/* ---- streams and events ---- */

struct CudartStream {
  int unused;
};
struct CudartEvent {
  uint64_t cycle;
  int recorded;
};

CUDART_API cudaError_t cudaStreamCreate(cudaStream_t *s) {
  if (!s) return cudart_ret(cudaErrorInvalidValue);
  *s = calloc(1, sizeof **s);
  return *s ? cudaSuccess : cudart_ret(cudaErrorMemoryAllocation);
}
CUDART_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned f) {
  (void)f;
  return cudaStreamCreate(s);
}
CUDART_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned f, int p) {
  (void)f, (void)p;
  return cudaStreamCreate(s);
}
CUDART_API cudaError_t cudaStreamDestroy(cudaStream_t s) {
  free(s);
  return cudaSuccess;
}
CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  (void)s;
  return cudart_ret(cudart_init());
}
CUDART_API cudaError_t cudaStreamQuery(cudaStream_t s) {
  (void)s;
  return cudart_ret(cudart_init());
}
CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned f) {
  (void)s, (void)e, (void)f;
  return cudaSuccess;
}

CUDART_API cudaError_t cudaEventCreate(cudaEvent_t *e) {
  if (!e) return cudart_ret(cudaErrorInvalidValue);
  *e = calloc(1, sizeof **e);
  return *e ? cudaSuccess : cudart_ret(cudaErrorMemoryAllocation);
}
CUDART_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned f) {
  (void)f;
  return cudaEventCreate(e);
}
CUDART_API cudaError_t cudaEventDestroy(cudaEvent_t e) {
  free(e);
  return cudaSuccess;
}
CUDART_API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  (void)s;
  if (!e) return cudart_ret(cudaErrorInvalidResourceHandle);
  e->cycle = cudart_cycles();
  e->recorded = 1;
  return cudaSuccess;
}
CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned f) {
  (void)f;
  return cudaEventRecord(e, s);
}
CUDART_API cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  return e ? cudaSuccess : cudart_ret(cudaErrorInvalidResourceHandle);
}
CUDART_API cudaError_t cudaEventQuery(cudaEvent_t e) {
  return e ? cudaSuccess : cudart_ret(cudaErrorInvalidResourceHandle);
}
/* Milliseconds of simulated time between two events, at the core clock (0 in functional mode). */
CUDART_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  if (!ms || !a || !b) return cudart_ret(cudaErrorInvalidValue);
  if (!a->recorded || !b->recorded) return cudart_ret(cudaErrorInvalidResourceHandle);
  *ms = (float)(((double)b->cycle - (double)a->cycle) / (cudart_clock_mhz() * 1000.0));
  return cudaSuccess;
}
CUDART_API cudaError_t cudaEventElapsedTime_v2(float *ms, cudaEvent_t a, cudaEvent_t b) {
  return cudaEventElapsedTime(ms, a, b);
}

/* ---- kernel attributes and cache configuration ---- */

/* cudaFuncAttributes of CUDA 13 (144 bytes). */
typedef struct FuncAttributes {
  size_t shared_size, const_size, local_size;
  int max_threads_per_block, num_regs, ptx_version, binary_version, cache_mode_ca, max_dyn_shared,
      preferred_carveout;
  char rest[144 - 52];
} FuncAttributes;
_Static_assert(sizeof(FuncAttributes) == 144, "cudaFuncAttributes of CUDA 13");

CUDART_API cudaError_t cudaFuncGetAttributes(void *out, const void *func) {
  cudaError_t rc;
  CudartKernel *k = cudart_kernel(func, "cudaFuncGetAttributes", &rc);
  if (!k) return rc;
  WsFunctionAttrs a;
  ws_function_attrs(k->fn, &a);
  FuncAttributes f;
  memset(&f, 0, sizeof f);
  f.shared_size = a.static_shared;
  f.local_size = a.local_bytes;
  f.num_regs = (int)a.regs_per_thread;
  const char *lim;
  f.max_threads_per_block = 1024;
  /* the largest multiple of 32 threads one SM can hold with this kernel's registers */
  for (; f.max_threads_per_block > 32 &&
         !sm_occupancy(cudart.cfg, a.regs_per_thread, (uint32_t)f.max_threads_per_block, a.static_shared,
                       &lim);)
    f.max_threads_per_block -= 32;
  f.ptx_version = f.binary_version = 75;
  f.max_dyn_shared = 48 * 1024 - (int)a.static_shared;
  f.preferred_carveout = -1;
  memcpy(out, &f, sizeof f);
  return cudaSuccess;
}

CUDART_API cudaError_t cudaFuncSetCacheConfig(const void *func, int pref) {
  cudaError_t rc;
  CudartKernel *k = cudart_kernel(func, "cudaFuncSetCacheConfig", &rc);
  if (!k) return rc;
  if (pref < 0 || pref > cudaFuncCachePreferEqual)
    return cudart_fail(cudaErrorInvalidValue, "cudaFuncSetCacheConfig", "unknown cudaFuncCache %d", pref);
  k->cache_pref = pref;
  return cudaSuccess;
}
CUDART_API cudaError_t cudaDeviceSetCacheConfig(int pref) {
  if (pref < 0 || pref > cudaFuncCachePreferEqual)
    return cudart_fail(cudaErrorInvalidValue, "cudaDeviceSetCacheConfig", "unknown cudaFuncCache %d", pref);
  cudart.cache_pref = pref;
  return cudart_ret(cudart_init());
}
CUDART_API cudaError_t cudaDeviceGetCacheConfig(int *pref) {
  if (pref) *pref = cudart.cache_pref;
  return cudaSuccess;
}
/* cudaFuncAttributeMaxDynamicSharedMemorySize (8) up to the 48 KB a Fermi block can have. */
CUDART_API cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value) {
  cudaError_t rc;
  CudartKernel *k = cudart_kernel(func, "cudaFuncSetAttribute", &rc);
  if (!k) return rc;
  if (attr == 8 && value >= 0 && value <= 48 * 1024) return cudaSuccess;
  if (attr == 9) return cudaSuccess; /* preferred shared-memory carveout: a hint */
  return cudart_fail(cudaErrorNotSupported, "cudaFuncSetAttribute",
                     "attribute %d = %d is not supported by warpsim", attr, value);
}

CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int block,
                                                                     size_t dyn_shared) {
  cudaError_t rc;
  CudartKernel *k = cudart_kernel(func, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", &rc);
  if (!k) return rc;
  WsFunctionAttrs a;
  ws_function_attrs(k->fn, &a);
  const char *lim;
  if (n)
    *n = (int)sm_occupancy(cudart.cfg, a.regs_per_thread, (uint32_t)block,
                           a.static_shared + (uint32_t)dyn_shared, &lim);
  return cudaSuccess;
}
CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func,
                                                                              int block, size_t dyn_shared,
                                                                              unsigned flags) {
  (void)flags;
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, func, block, dyn_shared);
}

/* ---- per-thread default stream (nvcc --default-stream per-thread): the same calls ---- */
CUDART_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) { return cudaStreamSynchronize(s); }
CUDART_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) { return cudaStreamQuery(s); }
CUDART_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t s, cudaEvent_t e, unsigned f) {
  return cudaStreamWaitEvent(s, e, f);
}
CUDART_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s) { return cudaEventRecord(e, s); }
CUDART_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t e, cudaStream_t s, unsigned f) {
  return cudaEventRecordWithFlags(e, s, f);
}
