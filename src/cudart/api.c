/* api.c - warpsim's CUDA runtime: what nvcc's host code calls (fat-binary, kernel and
 * variable registration, the <<<>>> launch path) and the memory and symbol functions.
 * Launches are synchronous on the simulator: a kernel's result is in device memory when
 * its launch returns; a kernel fault (out-of-bounds access, limit) is a sticky error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cudart.h"
#include "cudart/fatbin.h"

#define INIT_OR_RETURN()                                                                                     \
  do {                                                                                                       \
    cudaError_t init_rc_ = cudart_init();                                                                    \
    if (init_rc_) return cudart_ret(init_rc_);                                                               \
    if (cudart.sticky) return cudart.sticky;                                                                 \
  } while (0)

/* ---- registration (nvcc's constructors, before main) ---- */

CUDART_API void **__cudaRegisterFatBinary(void *wrapper) {
  CudartModule *m = calloc(1, sizeof *m);
  if (!m) {
    fprintf(stderr, "warpsim cudart: out of memory\n");
    exit(1);
  }
  m->wrapper = wrapper;
  m->next = cudart.mods;
  cudart.mods = m;
  return (void **)m;
}

CUDART_API void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

CUDART_API void __cudaUnregisterFatBinary(void **handle) {
  for (CudartModule **p = &cudart.mods; *p; p = &(*p)->next)
    if ((void **)*p == handle) {
      CudartModule *m = *p;
      /* a module stays loaded for the statistics; only unlink one never used */
      if (!m->ws) {
        *p = m->next;
        free(m);
      }
      return;
    }
}

CUDART_API char __cudaInitModule(void **handle) {
  return cudart_module_load((CudartModule *)handle) == cudaSuccess;
}

CUDART_API void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
                                       const char *device_name, int thread_limit, void *tid, void *bid,
                                       dim3 *bdim, dim3 *gdim, int *wsize) {
  (void)device_fun, (void)thread_limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
  CudartKernel *k = calloc(1, sizeof *k);
  if (!k || !(k->name = strdup(device_name))) {
    fprintf(stderr, "warpsim cudart: out of memory\n");
    exit(1);
  }
  k->host_fun = host_fun;
  k->mod = (CudartModule *)handle;
  k->next = cudart.kernels;
  cudart.kernels = k;
}

CUDART_API void __cudaRegisterVar(void **handle, char *host_var, char *device_addr, const char *device_name,
                                  int ext, size_t size, int constant, int global) {
  (void)device_addr, (void)ext, (void)size, (void)constant, (void)global;
  CudartVar *v = calloc(1, sizeof *v);
  if (!v || !(v->name = strdup(device_name))) {
    fprintf(stderr, "warpsim cudart: out of memory\n");
    exit(1);
  }
  v->host_var = host_var;
  v->mod = (CudartModule *)handle;
  v->next = cudart.vars;
  cudart.vars = v;
}

/* The PTX of the module's fat binary, with the cubins' register counts as annotations. */
cudaError_t cudart_module_load(CudartModule *m) {
  if (m->state > 0) return cudaSuccess;
  if (m->state < 0) return cudaErrorNoKernelImageForDevice;
  cudaError_t rc = cudart_init();
  if (rc) return rc;
  m->state = -1;
  const struct {
    int magic, version;
    const void *data;
    void *extra;
  } *w = m->wrapper;
  FatbinInfo fi;
  char err[512];
  if (!w || (unsigned)w->magic != FATBIN_WRAPPER_MAGIC) {
    fprintf(stderr, "warpsim cudart: the program's fat binary has an unknown wrapper (magic 0x%x)\n",
            w ? (unsigned)w->magic : 0);
    return cudaErrorInvalidPtx;
  }
  if (fatbin_read(w->data, &fi, err, sizeof err)) {
    fprintf(stderr, "warpsim cudart: the program's fat binary: %s\n", err);
    return cudaErrorInvalidPtx;
  }
  if (!fi.ptx) {
    char archs[64] = "";
    size_t n = 0;
    for (int i = 0; i < fi.nsass && n < sizeof archs; i++)
      n += (size_t)snprintf(archs + n, sizeof archs - n, " sm_%u", fi.sass_archs[i]);
    fprintf(
        stderr,
        "warpsim cudart: the program's fat binary holds no PTX (only machine code:%s), and warpsim runs PTX: "
        "rebuild it with nvcc -gencode arch=compute_%u,code=compute_%u (or -arch=sm_%u, which keeps PTX)\n",
        archs, fi.nsass ? fi.sass_archs[0] : 75, fi.nsass ? fi.sass_archs[0] : 75,
        fi.nsass ? fi.sass_archs[0] : 75);
    fatbin_info_free(&fi);
    return cudaErrorNoKernelImageForDevice;
  }
  size_t a = strlen(fi.ptx), b = strlen(fi.regs);
  char *text = malloc(a + b + 2);
  if (!text) {
    fatbin_info_free(&fi);
    return cudaErrorMemoryAllocation;
  }
  memcpy(text, fi.ptx, a);
  text[a] = '\n';
  memcpy(text + a + 1, fi.regs, b + 1);
  char name[64];
  snprintf(name, sizeof name, "fatbin-ptx-compute_%u", fi.ptx_arch);
  fatbin_info_free(&fi);
  WsResult r = ws_module_load_data(cudart.ctx, &m->ws, text, name);
  free(text);
  if (r != WS_SUCCESS) {
    fprintf(stderr, "warpsim cudart: the program's PTX does not load: %s\n", ws_ctx_error(cudart.ctx));
    return cudart_from_ws(r);
  }
  m->state = 1;
  return cudaSuccess;
}

/* ---- kernels ---- */

static CudartKernel *kernel_of(const void *host_fun) {
  for (CudartKernel *k = cudart.kernels; k; k = k->next)
    if (k->host_fun == host_fun || (const void *)k == host_fun) return k;
  return NULL;
}

static cudaError_t kernel_fn(CudartKernel *k, const char *api) {
  if (k->fn) return cudaSuccess;
  cudaError_t rc = cudart_module_load(k->mod);
  if (rc) return rc;
  if (ws_module_get_function(&k->fn, k->mod->ws, k->name) != WS_SUCCESS)
    return cudart_fail(cudaErrorInvalidDeviceFunction, api, "%s", ws_ctx_error(cudart.ctx));
  return cudaSuccess;
}

CudartKernel *cudart_kernel(const void *func, const char *api, cudaError_t *rc) {
  *rc = cudart_init();
  if (*rc) return NULL;
  CudartKernel *k = kernel_of(func);
  if (!k) {
    *rc = cudart_fail(cudaErrorInvalidDeviceFunction, api, "%p is not a registered kernel", func);
    return NULL;
  }
  *rc = kernel_fn(k, api);
  return *rc ? NULL : k;
}

CUDART_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, cudaStream_t stream) {
  if (cudart.ncfg == 8) return 1;
  int i = cudart.ncfg++;
  cudart.cfg_grid[i] = grid, cudart.cfg_block[i] = block, cudart.cfg_shared[i] = shared,
  cudart.cfg_stream[i] = stream;
  return 0;
}

CUDART_API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream) {
  if (!cudart.ncfg) return cudaErrorMissingConfiguration;
  int i = --cudart.ncfg;
  *grid = cudart.cfg_grid[i], *block = cudart.cfg_block[i], *shared = cudart.cfg_shared[i];
  *(cudaStream_t *)stream = cudart.cfg_stream[i];
  return cudaSuccess;
}

CUDART_API cudaError_t __cudaGetKernel(cudaKernel_t *out, const void *host_fun) {
  CudartKernel *k = kernel_of(host_fun);
  if (!k) return cudaErrorInvalidDeviceFunction;
  *out = k;
  return cudaSuccess;
}

static cudaError_t launch(CudartKernel *k, dim3 g, dim3 b, void **args, size_t shared) {
  if (cudart.sticky) {
    cudart.failed_launches++;
    return cudart.sticky;
  }
  cudaError_t rc = kernel_fn(k, "kernel launch");
  if (!rc) rc = cudart_gpu(k->cache_pref ? k->cache_pref : cudart.cache_pref);
  if (rc) {
    cudart.failed_launches++;
    return cudart_ret(rc);
  }
  if (cudart.nlaunches == cudart.cap_launches) {
    int nc = cudart.cap_launches ? 2 * cudart.cap_launches : 16;
    CudartLaunch *nl = realloc(cudart.launches, sizeof *nl * (size_t)nc);
    if (!nl) return cudart_ret(cudaErrorMemoryAllocation);
    cudart.launches = nl, cudart.cap_launches = nc;
  }
  uint64_t c0 = cudart_cycles();
  WsResult r = ws_launch_kernel(k->fn, g.x, g.y, g.z, b.x, b.y, b.z, (unsigned)shared, args);
  const WsLaunchStats *st = ws_ctx_last_stats(cudart.ctx);
  CudartLaunch *l = &cudart.launches[cudart.nlaunches++];
  snprintf(l->name, sizeof l->name, "%s", k->name);
  l->grid[0] = g.x, l->grid[1] = g.y, l->grid[2] = g.z, l->block[0] = b.x, l->block[1] = b.y,
  l->block[2] = b.z;
  l->shared = (unsigned)shared;
  l->warp_insts = st->warp_insts, l->thread_insts = st->thread_insts, l->cycles = cudart_cycles() - c0;
  l->result = (int)r;
  fflush(stdout);
  if (r == WS_SUCCESS) return cudaSuccess;
  cudaError_t e = r == WS_ERROR_INVALID_VALUE ? cudaErrorInvalidConfiguration : cudart_from_ws(r);
  fprintf(stderr, "warpsim cudart: kernel %s failed: %s\n", k->name, ws_ctx_error(cudart.ctx));
  cudart.failed_launches++;
  if (e != cudaErrorInvalidConfiguration)
    cudart.sticky = e; /* as on a GPU: the context is unusable after a fault */
  return cudart_ret(e);
}

CUDART_API cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shared,
                                          cudaStream_t s) {
  (void)s;
  cudaError_t rc = cudart_init();
  if (rc) return cudart_ret(rc);
  if (!k) return cudart_fail(cudaErrorInvalidDeviceFunction, "kernel launch", "kernel not registered");
  return launch(k, g, b, args, shared);
}
CUDART_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 g, dim3 b, void **args, size_t shared,
                                               cudaStream_t s) {
  return __cudaLaunchKernel(k, g, b, args, shared, s);
}

CUDART_API cudaError_t cudaLaunchKernel(const void *func, dim3 g, dim3 b, void **args, size_t shared,
                                        cudaStream_t s) {
  (void)s;
  cudaError_t rc;
  CudartKernel *k = cudart_kernel(func, "cudaLaunchKernel", &rc);
  return k ? launch(k, g, b, args, shared) : rc;
}
CUDART_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 g, dim3 b, void **args, size_t shared,
                                             cudaStream_t s) {
  return cudaLaunchKernel(func, g, b, args, shared, s);
}

/* ---- memory ---- */

static WsDevPtr dp(const void *p) { return (WsDevPtr)(uintptr_t)p; }

CUDART_API cudaError_t cudaMalloc(void **ptr, size_t bytes) {
  INIT_OR_RETURN();
  if (!ptr) return cudart_fail(cudaErrorInvalidValue, "cudaMalloc", "NULL pointer argument");
  WsDevPtr d = 0;
  if (ws_mem_alloc(cudart.ctx, &d, bytes ? bytes : 1) != WS_SUCCESS)
    return cudart_fail(cudaErrorMemoryAllocation, "cudaMalloc", "%s", ws_ctx_error(cudart.ctx));
  *ptr = (void *)(uintptr_t)d;
  return cudaSuccess;
}

CUDART_API cudaError_t cudaFree(void *ptr) {
  INIT_OR_RETURN();
  if (ws_mem_free(cudart.ctx, dp(ptr)) != WS_SUCCESS)
    return cudart_fail(cudaErrorInvalidDevicePointer, "cudaFree", "%s", ws_ctx_error(cudart.ctx));
  return cudaSuccess;
}

CUDART_API cudaError_t cudaMallocHost(void **ptr, size_t bytes) {
  if (!ptr) return cudart_ret(cudaErrorInvalidValue);
  *ptr = NULL;
  if (posix_memalign(ptr, 4096, bytes ? bytes : 1)) return cudart_ret(cudaErrorMemoryAllocation);
  return cudaSuccess;
}
CUDART_API cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned flags) {
  (void)flags;
  return cudaMallocHost(ptr, bytes);
}
CUDART_API cudaError_t cudaFreeHost(void *ptr) {
  free(ptr);
  return cudaSuccess;
}
CUDART_API cudaError_t cudaHostRegister(void *ptr, size_t bytes, unsigned flags) {
  (void)ptr, (void)bytes, (void)flags;
  return cudaSuccess;
}
CUDART_API cudaError_t cudaHostUnregister(void *ptr) {
  (void)ptr;
  return cudaSuccess;
}

/* cudaMemcpyDefault: a pointer inside a device allocation is the device's. */
static cudaError_t copy(const char *api, void *dst, const void *src, size_t n, int kind) {
  INIT_OR_RETURN();
  if (!n) return cudaSuccess;
  if (kind == cudaMemcpyDefault) {
    int dd = ws_mem_is_device(cudart.ctx, dp(dst), n), sd = ws_mem_is_device(cudart.ctx, dp(src), n);
    kind = dd ? (sd ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
              : (sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  }
  WsResult r;
  switch (kind) {
  case cudaMemcpyHostToHost:
    memmove(dst, src, n);
    return cudaSuccess;
  case cudaMemcpyHostToDevice:
    r = ws_memcpy_htod(cudart.ctx, dp(dst), src, n);
    break;
  case cudaMemcpyDeviceToHost:
    r = ws_memcpy_dtoh(cudart.ctx, dst, dp(src), n);
    break;
  case cudaMemcpyDeviceToDevice:
    r = ws_memcpy_dtod(cudart.ctx, dp(dst), dp(src), n);
    break;
  default:
    return cudart_fail(cudaErrorInvalidMemcpyDirection, api, "unknown cudaMemcpyKind %d", kind);
  }
  if (r != WS_SUCCESS) return cudart_fail(cudaErrorInvalidValue, api, "%s", ws_ctx_error(cudart.ctx));
  return cudaSuccess;
}

CUDART_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind) {
  return copy("cudaMemcpy", dst, src, n, kind);
}
CUDART_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, cudaStream_t s) {
  (void)s;
  return copy("cudaMemcpyAsync", dst, src, n, kind);
}
CUDART_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                    size_t height, int kind) {
  for (size_t r = 0; r < height; r++) {
    cudaError_t e =
        copy("cudaMemcpy2D", (char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
    if (e) return e;
  }
  return cudaSuccess;
}
CUDART_API cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  if (!pitch) return cudart_ret(cudaErrorInvalidValue);
  *pitch = (width + 255) & ~(size_t)255;
  return cudaMalloc(ptr, *pitch * height);
}

CUDART_API cudaError_t cudaMemset(void *p, int value, size_t n) {
  INIT_OR_RETURN();
  if (ws_memset_d8(cudart.ctx, dp(p), (uint8_t)value, n) != WS_SUCCESS)
    return cudart_fail(cudaErrorInvalidValue, "cudaMemset", "%s", ws_ctx_error(cudart.ctx));
  return cudaSuccess;
}
CUDART_API cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s) {
  (void)s;
  return cudaMemset(p, value, n);
}

CUDART_API cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total) {
  INIT_OR_RETURN();
  if (free_b) *free_b = (size_t)4 << 30;
  if (total) *total = (size_t)4 << 30;
  return cudaSuccess;
}

/* ---- symbols (__device__ / __constant__ variables) ---- */

static cudaError_t symbol(const char *api, const void *sym, WsDevPtr *addr, size_t *size) {
  INIT_OR_RETURN();
  for (CudartVar *v = cudart.vars; v; v = v->next)
    if (v->host_var == sym) {
      cudaError_t rc = cudart_module_load(v->mod);
      if (rc) return cudart_ret(rc);
      if (ws_module_get_global(addr, size, v->mod->ws, v->name) != WS_SUCCESS)
        return cudart_fail(cudaErrorInvalidSymbol, api, "%s", ws_ctx_error(cudart.ctx));
      return cudaSuccess;
    }
  return cudart_fail(cudaErrorInvalidSymbol, api,
                     "%p is not a registered __device__ or __constant__ variable", sym);
}

CUDART_API cudaError_t cudaGetSymbolAddress(void **dev, const void *sym) {
  WsDevPtr a;
  size_t n;
  cudaError_t rc = symbol("cudaGetSymbolAddress", sym, &a, &n);
  if (!rc && dev) *dev = (void *)(uintptr_t)a;
  return rc;
}
CUDART_API cudaError_t cudaGetSymbolSize(size_t *size, const void *sym) {
  WsDevPtr a;
  size_t n;
  cudaError_t rc = symbol("cudaGetSymbolSize", sym, &a, &n);
  if (!rc && size) *size = n;
  return rc;
}

static cudaError_t to_symbol(const char *api, const void *sym, const void *src, size_t n, size_t off,
                             int kind) {
  WsDevPtr a;
  size_t size;
  cudaError_t rc = symbol(api, sym, &a, &size);
  if (rc) return rc;
  if (off > size || n > size - off)
    return cudart_fail(cudaErrorInvalidValue, api, "%zu bytes at offset %zu past the variable's %zu", n, off,
                       size);
  if (kind == cudaMemcpyDefault)
    kind = ws_mem_is_device(cudart.ctx, dp(src), n) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice)
    return cudart_fail(cudaErrorInvalidMemcpyDirection, api, "kind %d", kind);
  return copy(api, (void *)(uintptr_t)(a + off), src, n, kind);
}

static cudaError_t from_symbol(const char *api, void *dst, const void *sym, size_t n, size_t off, int kind) {
  WsDevPtr a;
  size_t size;
  cudaError_t rc = symbol(api, sym, &a, &size);
  if (rc) return rc;
  if (off > size || n > size - off)
    return cudart_fail(cudaErrorInvalidValue, api, "%zu bytes at offset %zu past the variable's %zu", n, off,
                       size);
  if (kind == cudaMemcpyDefault)
    kind = ws_mem_is_device(cudart.ctx, dp(dst), n) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice)
    return cudart_fail(cudaErrorInvalidMemcpyDirection, api, "kind %d", kind);
  return copy(api, dst, (const void *)(uintptr_t)(a + off), n, kind);
}

CUDART_API cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off, int kind) {
  return to_symbol("cudaMemcpyToSymbol", sym, src, n, off, kind);
}
CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t off,
                                               int kind, cudaStream_t s) {
  (void)s;
  return to_symbol("cudaMemcpyToSymbolAsync", sym, src, n, off, kind);
}
CUDART_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off, int kind) {
  return from_symbol("cudaMemcpyFromSymbol", dst, sym, n, off, kind);
}
CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t off, int kind,
                                                 cudaStream_t s) {
  (void)s;
  return from_symbol("cudaMemcpyFromSymbolAsync", dst, sym, n, off, kind);
}

/* ---- per-thread default stream (nvcc --default-stream per-thread): the same calls ---- */
CUDART_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t n, int kind) {
  return cudaMemcpy(dst, src, n, kind);
}
CUDART_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n, int kind, cudaStream_t s) {
  return cudaMemcpyAsync(dst, src, n, kind, s);
}
CUDART_API cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                         size_t width, size_t height, int kind) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
CUDART_API cudaError_t cudaMemset_ptds(void *p, int value, size_t n) { return cudaMemset(p, value, n); }
CUDART_API cudaError_t cudaMemsetAsync_ptsz(void *p, int value, size_t n, cudaStream_t s) {
  return cudaMemsetAsync(p, value, n, s);
}
CUDART_API cudaError_t cudaMemcpyToSymbol_ptds(const void *sym, const void *src, size_t n, size_t off,
                                               int kind) {
  return cudaMemcpyToSymbol(sym, src, n, off, kind);
}
CUDART_API cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *sym, const void *src, size_t n, size_t off,
                                                    int kind, cudaStream_t s) {
  return cudaMemcpyToSymbolAsync(sym, src, n, off, kind, s);
}
CUDART_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *sym, size_t n, size_t off, int kind) {
  return cudaMemcpyFromSymbol(dst, sym, n, off, kind);
}
CUDART_API cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *sym, size_t n, size_t off,
                                                      int kind, cudaStream_t s) {
  return cudaMemcpyFromSymbolAsync(dst, sym, n, off, kind, s);
}
