/* ws_cuda.c - warpsim's host API (src/runtime/warpsim.h) implemented on a real GPU through the
 * CUDA driver API, so the benchmarks' host programs run unchanged on hardware and their CPU
 * references check the GPU's results (tools/hwcheck/main.c).
 *
 * libcuda is opened at run time (dlopen), with the few driver declarations written out here:
 * building needs no CUDA toolkit, and a machine without a driver gets a clear error. The calls are
 * the stable ones of the driver API (CUDA 11 and later: the _v2 entry points of memory calls, the
 * primary context). Launches are synchronous, as warpsim's are. Statistics are not available on
 * hardware: ws_ctx_last_stats() returns zeros (cycles 0 reads as "functional" to the benchmarks). */
#include "runtime/warpsim.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the driver API, as far as used ---- */
typedef int CUresult; /* CUDA_SUCCESS = 0 */
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };
enum { CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8 };

static struct {
  void *lib;
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*PrimaryCtxRelease)(CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxSynchronize)(void);
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
  CUresult (*FuncSetAttribute)(CUfunction, int, int);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*MemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*MemsetD32)(CUdeviceptr, unsigned, size_t);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           CUstream, void **, void **);
  CUresult (*GetErrorName)(CUresult, const char **);
  CUresult (*GetErrorString)(CUresult, const char **);
  CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *); /* CUDA 12.4+, optional */
} cu;

struct WsContext {
  CUcontext cuctx;
  CUdevice dev;
  unsigned char poison; /* fill every allocation with this byte when poison_on */
  int poison_on;
  WsLaunchStats last, total;
  char err[1024];
};

struct WsModule {
  WsContext *ctx;
  CUmodule mod;
  char name[256];
  WsFunction *fns; /* handed out by get_function, freed at unload */
};

struct WsFunction {
  WsModule *mod;
  CUfunction fn;
  char name[128];
  WsFunction *next;
};

static char g_load_err[512]; /* why the driver could not be opened (no context to hold it) */

static int cu_open(void) {
  if (cu.lib) return 0;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) lib = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(g_load_err, sizeof g_load_err, "cannot open the CUDA driver (libcuda.so.1): %s", dlerror());
    return -1;
  }
#define SYM(field, name, required)                                                               \
  do {                                                                                           \
    *(void **)&cu.field = dlsym(lib, name);                                                      \
    if (!cu.field && required) {                                                                 \
      snprintf(g_load_err, sizeof g_load_err, "the CUDA driver lacks %s (driver too old?)", name); \
      dlclose(lib);                                                                              \
      memset(&cu, 0, sizeof cu);                                                                 \
      return -1;                                                                                 \
    }                                                                                            \
  } while (0)
  SYM(Init, "cuInit", 1);
  SYM(DeviceGet, "cuDeviceGet", 1);
  SYM(DeviceGetName, "cuDeviceGetName", 1);
  SYM(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 1);
  SYM(PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", 1);
  SYM(CtxSetCurrent, "cuCtxSetCurrent", 1);
  SYM(CtxSynchronize, "cuCtxSynchronize", 1);
  SYM(ModuleLoadDataEx, "cuModuleLoadDataEx", 1);
  SYM(ModuleUnload, "cuModuleUnload", 1);
  SYM(ModuleGetFunction, "cuModuleGetFunction", 1);
  SYM(ModuleGetGlobal, "cuModuleGetGlobal_v2", 1);
  SYM(FuncSetAttribute, "cuFuncSetAttribute", 1);
  SYM(MemAlloc, "cuMemAlloc_v2", 1);
  SYM(MemFree, "cuMemFree_v2", 1);
  SYM(MemcpyHtoD, "cuMemcpyHtoD_v2", 1);
  SYM(MemcpyDtoH, "cuMemcpyDtoH_v2", 1);
  SYM(MemcpyDtoD, "cuMemcpyDtoD_v2", 1);
  SYM(MemsetD8, "cuMemsetD8_v2", 1);
  SYM(MemsetD32, "cuMemsetD32_v2", 1);
  SYM(LaunchKernel, "cuLaunchKernel", 1);
  SYM(GetErrorName, "cuGetErrorName", 1);
  SYM(GetErrorString, "cuGetErrorString", 1);
  SYM(FuncGetParamInfo, "cuFuncGetParamInfo", 0);
#undef SYM
  cu.lib = lib;
  return 0;
}

static WsResult map_result(CUresult r) {
  switch (r) {
  case 0: return WS_SUCCESS;
  case 1: return WS_ERROR_INVALID_VALUE;            /* CUDA_ERROR_INVALID_VALUE */
  case 2: return WS_ERROR_OUT_OF_MEMORY;            /* CUDA_ERROR_OUT_OF_MEMORY */
  case 200: case 218: return WS_ERROR_INVALID_PTX;  /* INVALID_IMAGE, INVALID_PTX */
  case 500: return WS_ERROR_NOT_FOUND;              /* CUDA_ERROR_NOT_FOUND */
  case 700: case 716: return WS_ERROR_ILLEGAL_ADDRESS; /* ILLEGAL_ADDRESS, MISALIGNED_ADDRESS */
  default: return WS_ERROR_LAUNCH_FAILED;
  }
}

static WsResult fail(WsContext *ctx, CUresult r, const char *fmt, ...) {
  const char *name = "?", *str = "?";
  if (cu.GetErrorName) cu.GetErrorName(r, &name);
  if (cu.GetErrorString) cu.GetErrorString(r, &str);
  if (ctx) {
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(ctx->err, sizeof ctx->err, "%s: %s (%s)", what, name ? name : "?", str ? str : "?");
  }
  return map_result(r);
}

#define CK(ctx, call, ...)                                  \
  do {                                                      \
    CUresult ck_r_ = (call);                                \
    if (ck_r_ != 0) return fail((ctx), ck_r_, __VA_ARGS__); \
  } while (0)

/* ---- context ---- */
WsResult ws_ctx_create(WsContext **out, const WsContextOptions *opts) {
  (void)opts;
  if (!out) return WS_ERROR_INVALID_VALUE;
  *out = NULL;
  if (cu_open() != 0) {
    fprintf(stderr, "hwcheck: %s\n", g_load_err);
    return WS_ERROR_FILE;
  }
  WsContext *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return WS_ERROR_OUT_OF_MEMORY;
  CUresult r = cu.Init(0);
  if (r == 0) r = cu.DeviceGet(&ctx->dev, 0);
  if (r == 0) r = cu.PrimaryCtxRetain(&ctx->cuctx, ctx->dev);
  if (r == 0) r = cu.CtxSetCurrent(ctx->cuctx);
  if (r != 0) {
    const char *s = "?";
    cu.GetErrorString(r, &s);
    fprintf(stderr, "hwcheck: no usable GPU: %s\n", s ? s : "?");
    free(ctx);
    return map_result(r);
  }
  const char *poison = getenv("WS_HW_POISON"); /* e.g. WS_HW_POISON=0xff: catches reads of unset memory */
  if (poison && *poison) {
    ctx->poison_on = 1;
    ctx->poison = (unsigned char)strtoul(poison, NULL, 0);
  }
  *out = ctx;
  return WS_SUCCESS;
}

void ws_ctx_destroy(WsContext *ctx) {
  if (!ctx) return;
  cu.CtxSynchronize();
  cu.PrimaryCtxRelease(ctx->dev);
  free(ctx);
}

const char *ws_ctx_error(const WsContext *ctx) { return ctx ? ctx->err : ""; }

const char *ws_result_name(WsResult r) {
  static const char *const names[] = {"WS_SUCCESS", "WS_ERROR_INVALID_VALUE", "WS_ERROR_INVALID_PTX",
                                      "WS_ERROR_NOT_FOUND", "WS_ERROR_OUT_OF_MEMORY", "WS_ERROR_ILLEGAL_ADDRESS",
                                      "WS_ERROR_LAUNCH_FAILED", "WS_ERROR_DEADLOCK", "WS_ERROR_FILE",
                                      "WS_ERROR_LIMIT"};
  return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "WS_ERROR_?";
}

WsResult ws_ctx_synchronize(WsContext *ctx) {
  CK(ctx, cu.CtxSynchronize(), "synchronize");
  return WS_SUCCESS;
}

void ws_ctx_set_engine(WsContext *ctx, WsEngineRunFn run, void *engine) { (void)ctx, (void)run, (void)engine; }
void ws_ctx_set_max_warp_insts(WsContext *ctx, uint64_t n) { (void)ctx, (void)n; }
const WsLaunchStats *ws_ctx_last_stats(const WsContext *ctx) { return &ctx->last; }
const WsLaunchStats *ws_ctx_total_stats(const WsContext *ctx) { return &ctx->total; }
int ws_ctx_kernel_count(const WsContext *ctx) { (void)ctx; return 0; }
const WsKernelInfo *ws_ctx_kernel(const WsContext *ctx, int i) { (void)ctx, (void)i; return NULL; }

/* ---- modules ---- */
WsResult ws_module_load_data(WsContext *ctx, WsModule **out, const char *text, const char *name) {
  if (!ctx || !out || !text) return WS_ERROR_INVALID_VALUE;
  *out = NULL;
  WsModule *m = calloc(1, sizeof *m);
  if (!m) return WS_ERROR_OUT_OF_MEMORY;
  static char log[8192];
  log[0] = 0;
  int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[2] = {log, (void *)(size_t)sizeof log};
  CUresult r = cu.ModuleLoadDataEx(&m->mod, text, 2, opts, vals);
  if (r != 0) {
    free(m);
    return fail(ctx, r, "%s: the driver could not load the PTX: %.900s", name ? name : "module", log);
  }
  m->ctx = ctx;
  snprintf(m->name, sizeof m->name, "%s", name ? name : "module");
  *out = m;
  return WS_SUCCESS;
}

WsResult ws_module_load(WsContext *ctx, WsModule **out, const char *path) {
  if (!ctx || !out || !path) return WS_ERROR_INVALID_VALUE;
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(ctx->err, sizeof ctx->err, "%s: cannot open", path);
    return WS_ERROR_FILE;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(text);
    snprintf(ctx->err, sizeof ctx->err, "%s: cannot read", path);
    return WS_ERROR_FILE;
  }
  fclose(f);
  text[n] = 0;
  WsResult rc = ws_module_load_data(ctx, out, text, path);
  free(text);
  return rc;
}

WsResult ws_module_unload(WsModule *m) {
  if (!m) return WS_ERROR_INVALID_VALUE;
  for (WsFunction *f = m->fns, *next; f; f = next) {
    next = f->next;
    free(f);
  }
  CUresult r = cu.ModuleUnload(m->mod);
  WsContext *ctx = m->ctx;
  free(m);
  CK(ctx, r, "module unload");
  return WS_SUCCESS;
}

WsResult ws_module_get_function(WsFunction **out, WsModule *m, const char *name) {
  if (!out || !m || !name) return WS_ERROR_INVALID_VALUE;
  for (WsFunction *f = m->fns; f; f = f->next)
    if (strcmp(f->name, name) == 0) {
      *out = f;
      return WS_SUCCESS;
    }
  CUfunction fn;
  CK(m->ctx, cu.ModuleGetFunction(&fn, m->mod, name), "%s: kernel %s", m->name, name);
  WsFunction *f = calloc(1, sizeof *f);
  if (!f) return WS_ERROR_OUT_OF_MEMORY;
  f->mod = m;
  f->fn = fn;
  snprintf(f->name, sizeof f->name, "%s", name);
  f->next = m->fns;
  m->fns = f;
  *out = f;
  return WS_SUCCESS;
}

WsResult ws_module_get_global(WsDevPtr *dptr, size_t *bytes, WsModule *m, const char *name) {
  if (!m || !name) return WS_ERROR_INVALID_VALUE;
  CUdeviceptr p = 0;
  size_t n = 0;
  CK(m->ctx, cu.ModuleGetGlobal(&p, &n, m->mod, name), "%s: global %s", m->name, name);
  if (dptr) *dptr = p;
  if (bytes) *bytes = n;
  return WS_SUCCESS;
}

int ws_function_param_count(const WsFunction *f) {
  if (!f || !cu.FuncGetParamInfo) return -1;
  size_t off, size;
  int n = 0;
  while (cu.FuncGetParamInfo(f->fn, (size_t)n, &off, &size) == 0) n++;
  return n;
}

size_t ws_function_param_size(const WsFunction *f, int index) {
  size_t off = 0, size = 0;
  if (!f || !cu.FuncGetParamInfo || index < 0 || cu.FuncGetParamInfo(f->fn, (size_t)index, &off, &size) != 0)
    return 0;
  return size;
}

const char *ws_function_name(const WsFunction *f) { return f ? f->name : ""; }

/* ---- memory ---- */
WsResult ws_mem_alloc(WsContext *ctx, WsDevPtr *dptr, size_t bytes) {
  if (!ctx || !dptr) return WS_ERROR_INVALID_VALUE;
  CUdeviceptr p = 0;
  CK(ctx, cu.MemAlloc(&p, bytes ? bytes : 1), "allocate %zu bytes", bytes);
  if (ctx->poison_on && bytes) CK(ctx, cu.MemsetD8(p, ctx->poison, bytes), "poison %zu bytes", bytes);
  *dptr = p;
  return WS_SUCCESS;
}

WsResult ws_mem_free(WsContext *ctx, WsDevPtr dptr) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  if (!dptr) return WS_SUCCESS;
  CK(ctx, cu.MemFree(dptr), "free 0x%llx", (unsigned long long)dptr);
  return WS_SUCCESS;
}

WsResult ws_memcpy_htod(WsContext *ctx, WsDevPtr dst, const void *src, size_t bytes) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  if (!bytes) return WS_SUCCESS;
  CK(ctx, cu.MemcpyHtoD(dst, src, bytes), "copy %zu bytes to 0x%llx", bytes, (unsigned long long)dst);
  return WS_SUCCESS;
}

WsResult ws_memcpy_dtoh(WsContext *ctx, void *dst, WsDevPtr src, size_t bytes) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  if (!bytes) return WS_SUCCESS;
  CK(ctx, cu.MemcpyDtoH(dst, src, bytes), "copy %zu bytes from 0x%llx", bytes, (unsigned long long)src);
  return WS_SUCCESS;
}

WsResult ws_memcpy_dtod(WsContext *ctx, WsDevPtr dst, WsDevPtr src, size_t bytes) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  if (!bytes) return WS_SUCCESS;
  CK(ctx, cu.MemcpyDtoD(dst, src, bytes), "copy %zu bytes on the device", bytes);
  return WS_SUCCESS;
}

WsResult ws_memset_d8(WsContext *ctx, WsDevPtr dst, uint8_t value, size_t bytes) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  if (!bytes) return WS_SUCCESS;
  CK(ctx, cu.MemsetD8(dst, value, bytes), "memset %zu bytes", bytes);
  return WS_SUCCESS;
}

WsResult ws_memset_d32(WsContext *ctx, WsDevPtr dst, uint32_t value, size_t count) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  if (!count) return WS_SUCCESS;
  CK(ctx, cu.MemsetD32(dst, value, count), "memset %zu words", count);
  return WS_SUCCESS;
}

/* ---- launch ---- */
WsResult ws_launch_kernel(WsFunction *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, unsigned shared_bytes, void **params) {
  if (!f) return WS_ERROR_INVALID_VALUE;
  WsContext *ctx = f->mod->ctx;
  if (shared_bytes > 48 * 1024)
    CK(ctx, cu.FuncSetAttribute(f->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)shared_bytes),
       "%s: allow %u bytes of dynamic shared memory", f->name, shared_bytes);
  CK(ctx, cu.LaunchKernel(f->fn, gx, gy, gz, bx, by, bz, shared_bytes, NULL, params, NULL),
     "launch %s <<<(%u,%u,%u),(%u,%u,%u),%u>>>", f->name, gx, gy, gz, bx, by, bz, shared_bytes);
  CK(ctx, cu.CtxSynchronize(), "kernel %s <<<(%u,%u,%u),(%u,%u,%u)>>>", f->name, gx, gy, gz, bx, by, bz);
  memset(&ctx->last, 0, sizeof ctx->last);
  ctx->last.ctas = (uint64_t)gx * gy * gz;
  ctx->total.ctas += ctx->last.ctas;
  return WS_SUCCESS;
}
