/* runtime.c - the host API of warpsim.h over the functional core: contexts,
 * modules, device memory, kernel launch, and the functional-only engine that
 * runs a launch when no timing engine is attached.
 * Must not depend on the timing model (src/sm, src/mem, src/policy). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptx/ptx.h"
#include "runtime/warpsim.h"

struct WsModule {
  WsContext *ctx;
  PtxModule *pm;
  WsFunction *fns;
  WsModule *next;
};

struct WsFunction {
  WsModule *mod;
  uint32_t index;
};

struct WsContext {
  PtxDevMem *dev;
  WsContextOptions opt;
  WsModule *mods;
  char err[1024];
  WsLaunchStats last, total;
  WsEngineRunFn engine;
  void *engine_ctx;
  WsKernelInfo *kinfo;
  int nkinfo, kcap;
  WsObserver obs;
};

static WsResult fail(WsContext *ctx, WsResult rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static WsResult fail(WsContext *ctx, WsResult rc, const char *fmt, ...) {
  if (!ctx) return rc;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
  va_end(ap);
  return rc;
}

const char *ws_result_name(WsResult r) {
  static const char *n[] = {"WS_SUCCESS",
                            "WS_ERROR_INVALID_VALUE",
                            "WS_ERROR_INVALID_PTX",
                            "WS_ERROR_NOT_FOUND",
                            "WS_ERROR_OUT_OF_MEMORY",
                            "WS_ERROR_ILLEGAL_ADDRESS",
                            "WS_ERROR_LAUNCH_FAILED",
                            "WS_ERROR_DEADLOCK",
                            "WS_ERROR_FILE",
                            "WS_ERROR_LIMIT"};
  return (unsigned)r < sizeof n / sizeof n[0] ? n[r] : "WS_ERROR_UNKNOWN";
}

WsResult ws_ctx_create(WsContext **out, const WsContextOptions *opts) {
  if (!out) return WS_ERROR_INVALID_VALUE;
  WsContext *c = calloc(1, sizeof *c);
  if (!c) return WS_ERROR_OUT_OF_MEMORY;
  if (opts) c->opt = *opts;
  if (!c->opt.resident_ctas) c->opt.resident_ctas = 120;
  if (!c->opt.quantum) c->opt.quantum = 256;
  c->dev = ptx_dev_create(c->opt.device_mem_limit);
  if (!c->dev) {
    free(c);
    return WS_ERROR_OUT_OF_MEMORY;
  }
  *out = c;
  return WS_SUCCESS;
}

void ws_ctx_destroy(WsContext *ctx) {
  if (!ctx) return;
  while (ctx->mods) ws_module_unload(ctx->mods);
  ptx_dev_destroy(ctx->dev);
  free(ctx->kinfo);
  free(ctx);
}

const char *ws_ctx_error(const WsContext *ctx) { return ctx ? ctx->err : "no context"; }
WsResult ws_ctx_synchronize(WsContext *ctx) { return ctx ? WS_SUCCESS : WS_ERROR_INVALID_VALUE; }
void ws_ctx_set_engine(WsContext *ctx, WsEngineRunFn run, void *engine) {
  ctx->engine = run;
  ctx->engine_ctx = engine;
}
void ws_ctx_set_observer(WsContext *ctx, const WsObserver *obs) {
  if (obs)
    ctx->obs = *obs;
  else
    memset(&ctx->obs, 0, sizeof ctx->obs);
}
void ws_ctx_set_max_warp_insts(WsContext *ctx, uint64_t max_warp_insts) {
  ctx->opt.max_warp_insts = max_warp_insts;
}
const WsLaunchStats *ws_ctx_last_stats(const WsContext *ctx) { return &ctx->last; }
const WsLaunchStats *ws_ctx_total_stats(const WsContext *ctx) { return &ctx->total; }
int ws_ctx_kernel_count(const WsContext *ctx) { return ctx->nkinfo; }
const WsKernelInfo *ws_ctx_kernel(const WsContext *ctx, int i) {
  return i >= 0 && i < ctx->nkinfo ? &ctx->kinfo[i] : NULL;
}

static void log_kernel(WsContext *ctx, const PtxLaunch *L, const WsLaunchStats *st) {
  int i = 0;
  while (i < ctx->nkinfo && strcmp(ctx->kinfo[i].name, L->fn->name)) i++;
  if (i == ctx->nkinfo) {
    if (ctx->nkinfo == ctx->kcap) {
      int nc = ctx->kcap ? ctx->kcap * 2 : 8;
      WsKernelInfo *nk = realloc(ctx->kinfo, sizeof *nk * (size_t)nc);
      if (!nk) return;
      ctx->kinfo = nk;
      ctx->kcap = nc;
    }
    memset(&ctx->kinfo[i], 0, sizeof ctx->kinfo[i]);
    snprintf(ctx->kinfo[i].name, sizeof ctx->kinfo[i].name, "%s", L->fn->name);
    ctx->nkinfo++;
  }
  WsKernelInfo *k = &ctx->kinfo[i];
  k->launches++;
  k->ctas += L->ctas_total;
  k->warp_insts += st->warp_insts;
  k->barriers += st->barriers;
  k->threads_per_cta = L->threads_per_cta;
  k->shared_per_cta = L->shared_per_cta;
  k->regs_per_thread = L->regs_per_thread;
  k->regs_compiled = L->fn->regs_per_thread;
  k->regs_estimated = !L->fn->regs_from_ptxas;
}

/* ---- modules ---- */
static WsResult bind_module(WsContext *ctx, PtxModule *pm) {
  for (uint32_t i = 0; i < pm->nsyms; i++) {
    PtxSymbol *s = &pm->syms[i];
    if (s->func != -1 || (s->space != PTX_SP_GLOBAL && s->space != PTX_SP_CONST)) continue;
    s->addr = ptx_dev_alloc(ctx->dev, s->size ? s->size : 1, s->space == PTX_SP_CONST);
    if (!s->addr)
      return fail(ctx, WS_ERROR_OUT_OF_MEMORY, "%s: cannot allocate %llu bytes for '%s'", pm->name,
                  (unsigned long long)s->size, s->name);
    if (s->init) memcpy(ptx_dev_ptr(ctx->dev, s->addr, s->size), s->init, s->size);
  }
  for (uint32_t i = 0; i < pm->nfixes; i++) {
    PtxSymFix *fx = &pm->fixes[i];
    PtxSymbol *s = &pm->syms[fx->sym];
    if (s->space != PTX_SP_GLOBAL && s->space != PTX_SP_CONST) continue;
    if (fx->imm_row >= 0)
      pm->funcs[fx->func].imm[fx->imm_row] += s->addr;
    else
      pm->code[fx->pc].off += (int64_t)s->addr;
  }
  return WS_SUCCESS;
}

WsResult ws_module_load_data(WsContext *ctx, WsModule **out, const char *text, const char *name) {
  if (!ctx || !out || !text) return fail(ctx, WS_ERROR_INVALID_VALUE, "ws_module_load_data: NULL argument");
  char err[512];
  PtxModule *pm = ptx_module_parse(text, name ? name : "<ptx>", err, sizeof err);
  if (!pm) return fail(ctx, WS_ERROR_INVALID_PTX, "%s", err);
  WsModule *m = calloc(1, sizeof *m);
  if (m) m->fns = calloc(pm->nfuncs + 1, sizeof(WsFunction));
  if (!m || !m->fns) {
    if (m) free(m);
    ptx_module_free(pm, NULL);
    return fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  m->ctx = ctx;
  m->pm = pm;
  for (uint32_t i = 0; i < pm->nfuncs; i++) m->fns[i] = (WsFunction){m, i};
  WsResult rc = bind_module(ctx, pm);
  if (rc != WS_SUCCESS) {
    ptx_module_free(pm, ctx->dev);
    free(m->fns);
    free(m);
    return rc;
  }
  m->next = ctx->mods;
  ctx->mods = m;
  *out = m;
  return WS_SUCCESS;
}

WsResult ws_module_load(WsContext *ctx, WsModule **out, const char *path) {
  if (!ctx || !path) return fail(ctx, WS_ERROR_INVALID_VALUE, "ws_module_load: NULL argument");
  /* opened non-blocking and checked: a FIFO or device would block or never end */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail(ctx, WS_ERROR_FILE, "%s: cannot open PTX file: %s", path, strerror(errno));
  struct stat sb = {0};
  if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
    close(fd);
    return fail(ctx, WS_ERROR_FILE, "%s: cannot open PTX file: %s", path,
                S_ISDIR(sb.st_mode) ? "is a directory" : "not a regular file");
  }
  FILE *f = fdopen(fd, "rb");
  if (!f) {
    close(fd);
    return fail(ctx, WS_ERROR_FILE, "%s: cannot open PTX file", path);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    fclose(f);
    return fail(ctx, WS_ERROR_FILE, "%s: cannot read", path);
  }
  fclose(f);
  buf[n] = 0;
  if (memchr(buf, 0, (size_t)n)) {
    free(buf);
    return fail(ctx, WS_ERROR_INVALID_PTX, "%s: file contains NUL bytes (not PTX text)", path);
  }
  WsResult rc = ws_module_load_data(ctx, out, buf, path);
  free(buf);
  return rc;
}

WsResult ws_module_unload(WsModule *m) {
  if (!m) return WS_ERROR_INVALID_VALUE;
  WsContext *ctx = m->ctx;
  for (WsModule **p = &ctx->mods; *p; p = &(*p)->next)
    if (*p == m) {
      *p = m->next;
      break;
    }
  ptx_module_free(m->pm, ctx->dev);
  free(m->fns);
  free(m);
  return WS_SUCCESS;
}

WsResult ws_module_get_function(WsFunction **fn, WsModule *m, const char *name) {
  if (!fn || !m || !name) return WS_ERROR_INVALID_VALUE;
  int i = ptx_module_find_function(m->pm, name);
  if (i < 0 || !m->pm->funcs[i].is_entry) {
    char list[512] = "";
    size_t len = 0;
    for (uint32_t k = 0; k < m->pm->nfuncs && len + 2 < sizeof list; k++)
      if (m->pm->funcs[k].is_entry)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", m->pm->funcs[k].name);
    return fail(m->ctx, WS_ERROR_NOT_FOUND, "%s: no kernel named '%s' (kernels: %s)", m->pm->name, name,
                len ? list : "none");
  }
  *fn = &m->fns[i];
  return WS_SUCCESS;
}

WsResult ws_module_get_global(WsDevPtr *dptr, size_t *bytes, WsModule *m, const char *name) {
  if (!m || !name) return WS_ERROR_INVALID_VALUE;
  const PtxSymbol *s = ptx_module_find_symbol(m->pm, name);
  if (!s || (s->space != PTX_SP_GLOBAL && s->space != PTX_SP_CONST))
    return fail(m->ctx, WS_ERROR_NOT_FOUND, "%s: no __device__ or __constant__ variable named '%s'",
                m->pm->name, name);
  if (dptr) *dptr = s->addr;
  if (bytes) *bytes = s->size;
  return WS_SUCCESS;
}

int ws_function_param_count(const WsFunction *fn) { return (int)fn->mod->pm->funcs[fn->index].nparams; }
size_t ws_function_param_size(const WsFunction *fn, int i) {
  const PtxFunction *f = &fn->mod->pm->funcs[fn->index];
  return i >= 0 && (uint32_t)i < f->nparams ? f->params[i].size : 0;
}
const char *ws_function_name(const WsFunction *fn) { return fn->mod->pm->funcs[fn->index].name; }
void ws_function_attrs(const WsFunction *fn, WsFunctionAttrs *a) {
  const PtxFunction *f = &fn->mod->pm->funcs[fn->index];
  a->regs_per_thread = f->regs_per_thread;
  a->regs_from_ptxas = f->regs_from_ptxas;
  a->static_shared = f->static_shared;
  a->local_bytes = f->max_local;
  a->param_bytes = f->param_bytes;
}

/* ---- memory ---- */
WsResult ws_mem_alloc(WsContext *ctx, WsDevPtr *dptr, size_t bytes) {
  if (!ctx || !dptr) return fail(ctx, WS_ERROR_INVALID_VALUE, "ws_mem_alloc: NULL argument");
  uint64_t a = ptx_dev_alloc(ctx->dev, bytes, 0);
  if (!a)
    return fail(ctx, WS_ERROR_OUT_OF_MEMORY, "ws_mem_alloc: cannot allocate %zu bytes (%llu in use)", bytes,
                (unsigned long long)ptx_dev_bytes_in_use(ctx->dev));
  *dptr = a;
  return WS_SUCCESS;
}

WsResult ws_mem_free(WsContext *ctx, WsDevPtr dptr) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  if (!dptr) return WS_SUCCESS;
  if (ptx_dev_free(ctx->dev, dptr))
    return fail(ctx, WS_ERROR_INVALID_VALUE, "ws_mem_free: 0x%llx is not the start of an allocation",
                (unsigned long long)dptr);
  return WS_SUCCESS;
}

int ws_mem_is_device(const WsContext *ctx, WsDevPtr p, size_t n) {
  return ctx && ptx_dev_ptr(ctx->dev, p, n ? n : 1) != NULL;
}

static uint8_t *dev_range(WsContext *ctx, WsDevPtr p, size_t n, const char *what) {
  uint8_t *h = ptx_dev_ptr(ctx->dev, p, n ? n : 1);
  if (!h)
    fail(ctx, WS_ERROR_ILLEGAL_ADDRESS, "%s: [0x%llx, +%zu) is not inside one device allocation", what,
         (unsigned long long)p, n);
  return h;
}

WsResult ws_memcpy_htod(WsContext *ctx, WsDevPtr dst, const void *src, size_t n) {
  if (!ctx || (!src && n)) return fail(ctx, WS_ERROR_INVALID_VALUE, "ws_memcpy_htod: NULL argument");
  uint8_t *h = dev_range(ctx, dst, n, "ws_memcpy_htod");
  if (!h) return WS_ERROR_ILLEGAL_ADDRESS;
  if (n) memcpy(h, src, n);
  return WS_SUCCESS;
}

WsResult ws_memcpy_dtoh(WsContext *ctx, void *dst, WsDevPtr src, size_t n) {
  if (!ctx || (!dst && n)) return fail(ctx, WS_ERROR_INVALID_VALUE, "ws_memcpy_dtoh: NULL argument");
  uint8_t *h = dev_range(ctx, src, n, "ws_memcpy_dtoh");
  if (!h) return WS_ERROR_ILLEGAL_ADDRESS;
  if (n) memcpy(dst, h, n);
  return WS_SUCCESS;
}

WsResult ws_memcpy_dtod(WsContext *ctx, WsDevPtr dst, WsDevPtr src, size_t n) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  uint8_t *d = dev_range(ctx, dst, n, "ws_memcpy_dtod"),
          *s = d ? dev_range(ctx, src, n, "ws_memcpy_dtod") : NULL;
  if (!d || !s) return WS_ERROR_ILLEGAL_ADDRESS;
  if (n) memmove(d, s, n);
  return WS_SUCCESS;
}

WsResult ws_memset_d8(WsContext *ctx, WsDevPtr dst, uint8_t v, size_t n) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  uint8_t *d = dev_range(ctx, dst, n, "ws_memset_d8");
  if (!d) return WS_ERROR_ILLEGAL_ADDRESS;
  if (n) memset(d, v, n);
  return WS_SUCCESS;
}

WsResult ws_memset_d32(WsContext *ctx, WsDevPtr dst, uint32_t v, size_t count) {
  if (!ctx) return WS_ERROR_INVALID_VALUE;
  uint8_t *d = dev_range(ctx, dst, count * 4, "ws_memset_d32");
  if (!d) return WS_ERROR_ILLEGAL_ADDRESS;
  for (size_t i = 0; i < count; i++) memcpy(d + 4 * i, &v, 4);
  return WS_SUCCESS;
}

/* ---- functional engine ---- */

/* Describes which warps of each resident CTA wait on what (deadlock report). */
static void describe_deadlock(PtxCta **slots, uint32_t nslots, char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "deadlock: no warp can make progress;");
  for (uint32_t s = 0; s < nslots && n < len; s++)
    if (slots[s]) n += ptx_cta_describe(slots[s], buf + n, len - n);
}

/* A launch stopped by max_warp_insts: which warps were still running, where, and for a warp
 * whose lanes wait at a reconvergence point for lanes that loop, why that never ends. */
static WsResult limit_report(WsContext *ctx, const PtxLaunch *L, PtxCta **slots, uint32_t nslots,
                             uint64_t insts) {
  char msg[900];
  size_t n = 0;
  uint32_t budget = 4;
  msg[0] = 0; /* no CTA resident: an empty list, not stack bytes */
  for (uint32_t s = 0; s < nslots && n < sizeof msg - 1 && budget; s++)
    if (slots[s]) n += ptx_cta_describe_running(slots[s], msg + n, sizeof msg - n, &budget);
  return fail(
      ctx, WS_ERROR_LIMIT,
      "kernel %s: stopped after %llu warp instructions (limit.max_warp_insts = %llu, --max-insts): an "
      "endless "
      "loop, or a kernel longer than the limit (raise it with --set limit.max_warp_insts=N, 0 for none); "
      "running:%s",
      L->fn->name, (unsigned long long)insts, (unsigned long long)ctx->opt.max_warp_insts,
      msg[0] ? msg : " no warp between instructions");
}

/* Why: CTAs run interleaved (up to resident_ctas at once, each warp for a
 * quantum of instructions per turn) rather than one after another, so that
 * kernels whose CTAs communicate through global memory make progress, while
 * the order stays fully deterministic. */
static WsResult run_functional(WsContext *ctx, PtxLaunch *L, WsLaunchStats *st) {
  uint32_t nslots = ctx->opt.resident_ctas;
  if ((uint64_t)nslots > L->ctas_total) nslots = (uint32_t)L->ctas_total;
  PtxCta **slots = calloc(nslots, sizeof(PtxCta *));
  if (!slots) return fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of memory");
  uint64_t next = 0, insts = 0;
  WsResult rc = WS_SUCCESS;
  uint32_t quantum = ctx->opt.quantum;
  for (;;) {
    int live = 0, progress = 0;
    for (uint32_t s = 0; s < nslots && rc == WS_SUCCESS; s++) {
      PtxCta *c = slots[s];
      if (!c) {
        if (next >= L->ctas_total) continue;
        c = slots[s] = ptx_cta_create(L, (uint32_t)next++, s % (L->nsm ? L->nsm : 15));
        if (!c) {
          rc = fail(ctx, WS_ERROR_OUT_OF_MEMORY, "kernel %s: out of host memory creating a CTA", L->fn->name);
          break;
        }
        st->ctas++;
        st->warps += c->nwarps;
      }
      live = 1;
      for (uint32_t i = 0; i < c->nwarps; i++) {
        PtxWarp *w = &c->warps[i];
        for (uint32_t q = 0; q < quantum && w->state == PTX_WARP_READY; q++) {
          w->clock = w->insts;
          PtxStepResult r = ptx_warp_step(w);
          progress = 1;
          insts++;
          if (r == PTX_STEP_OK) continue;
          if (r == PTX_STEP_BARRIER || r == PTX_STEP_RELEASED) {
            st->barriers++;
            break;
          }
          if (r == PTX_STEP_DONE) {
            ptx_cta_recheck_barriers(c);
            break;
          } /* live_warps: counted by ptx_warp_step */
          char msg[900];
          ptx_fault_describe(w, msg, sizeof msg);
          WsResult kind = (w->fault.kind == PTX_FAULT_OOB || w->fault.kind == PTX_FAULT_MISALIGNED ||
                           w->fault.kind == PTX_FAULT_READONLY)
                              ? WS_ERROR_ILLEGAL_ADDRESS
                              : WS_ERROR_LAUNCH_FAILED;
          rc = fail(ctx, kind, "%s", msg);
          break;
        }
        if (rc != WS_SUCCESS) break;
      }
      if (rc != WS_SUCCESS) break;
      if (ctx->opt.max_warp_insts && insts > ctx->opt.max_warp_insts) {
        rc = limit_report(ctx, L, slots, nslots, insts);
        break;
      }
      if (c->live_warps == 0) {
        for (uint32_t i = 0; i < c->nwarps; i++) {
          st->warp_insts += c->warps[i].insts;
          st->thread_insts += c->warps[i].thread_insts;
        }
        ptx_cta_destroy(c);
        slots[s] = NULL;
      }
    }
    if (rc != WS_SUCCESS) break;
    if (!live) break;
    if (!progress) {
      char msg[1000];
      describe_deadlock(slots, nslots, msg, sizeof msg);
      rc = fail(ctx, WS_ERROR_DEADLOCK, "kernel %s: %s", L->fn->name, msg);
      break;
    }
    if (ctx->opt.max_warp_insts && insts > ctx->opt.max_warp_insts) {
      rc = limit_report(ctx, L, slots, nslots, insts);
      break;
    }
  }
  for (uint32_t s = 0; s < nslots; s++) {
    if (!slots[s]) continue;
    for (uint32_t i = 0; i < slots[s]->nwarps; i++) {
      st->warp_insts += slots[s]->warps[i].insts;
      st->thread_insts += slots[s]->warps[i].thread_insts;
    }
    ptx_cta_destroy(slots[s]);
  }
  free(slots);
  return rc;
}

WsResult ws_launch_kernel(WsFunction *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, unsigned shared_bytes, void **params) {
  if (!fn) return WS_ERROR_INVALID_VALUE;
  WsContext *ctx = fn->mod->ctx;
  PtxModule *pm = fn->mod->pm;
  PtxFunction *f = &pm->funcs[fn->index];
  ctx->err[0] = 0;
  if (!gx || !gy || !gz || !bx || !by || !bz)
    return fail(ctx, WS_ERROR_INVALID_VALUE, "kernel %s: zero grid or block dimension (%ux%ux%u, %ux%ux%u)",
                f->name, gx, gy, gz, bx, by, bz);
  uint64_t threads = (uint64_t)bx * by * bz;
  if (threads > 1024)
    return fail(ctx, WS_ERROR_INVALID_VALUE, "kernel %s: %llu threads per block (at most 1024)", f->name,
                (unsigned long long)threads);
  if (bx > 1024 || by > 1024 || bz > 64)
    return fail(ctx, WS_ERROR_INVALID_VALUE, "kernel %s: block %ux%ux%u (at most 1024 x 1024 x 64)", f->name,
                bx, by, bz);
  if (gx > 0x7FFFFFFFu || gy > 65535 || gz > 65535)
    return fail(ctx, WS_ERROR_INVALID_VALUE, "kernel %s: grid %ux%ux%u (at most 2^31-1 x 65535 x 65535)",
                f->name, gx, gy, gz);
  uint64_t shared = (uint64_t)f->dyn_shared_off + shared_bytes;
  if (!shared_bytes) shared = f->static_shared;
  if (shared > 48 * 1024)
    return fail(ctx, WS_ERROR_INVALID_VALUE,
                "kernel %s: %llu bytes of shared memory per block (at most 49152)", f->name,
                (unsigned long long)shared);
  if (f->nparams && !params)
    return fail(ctx, WS_ERROR_INVALID_VALUE, "kernel %s: takes %u parameters, none given", f->name,
                f->nparams);
  uint8_t *pbuf = calloc(1, f->param_bytes + 1);
  if (!pbuf) return fail(ctx, WS_ERROR_OUT_OF_MEMORY, "out of memory");
  for (uint32_t i = 0; i < f->nparams; i++) {
    if (!params[i]) {
      free(pbuf);
      return fail(ctx, WS_ERROR_INVALID_VALUE, "kernel %s: parameter %u (%s) is NULL", f->name, i,
                  f->params[i].name);
    }
    memcpy(pbuf + f->params[i].offset, params[i], f->params[i].size);
  }
  PtxLaunch L = {0};
  L.mod = pm;
  L.fn = f;
  L.fn_index = fn->index;
  L.dev = ctx->dev;
  L.grid[0] = gx;
  L.grid[1] = gy;
  L.grid[2] = gz;
  L.block[0] = bx;
  L.block[1] = by;
  L.block[2] = bz;
  L.shared_dyn = shared_bytes;
  L.params = pbuf;
  L.nsm = 15;
  L.ctas_total = (uint64_t)gx * gy * gz;
  L.threads_per_cta = (uint32_t)threads;
  L.warps_per_cta = (uint32_t)((threads + 31) / 32);
  L.shared_per_cta = (uint32_t)shared;
  L.regs_per_thread = f->regs_per_thread; /* a timing engine may override it (sm.regs_*) */
  snprintf(L.regs_source, sizeof L.regs_source, "%s", f->regs_from_ptxas ? "ptxas" : "liveness");
  L.observe = ctx->obs.step;
  L.observe_ctx = ctx->obs.ctx;
  WsLaunchStats st = {0};
  WsResult rc = WS_SUCCESS;
  if (ctx->obs.begin) {
    char err[1024] = "";
    rc = ctx->obs.begin(ctx->obs.ctx, &L, err, sizeof err);
    if (rc != WS_SUCCESS) {
      free(pbuf);
      return fail(ctx, rc, "%s", err);
    }
  }
  if (ctx->engine) {
    char err[1024] = "";
    rc = ctx->engine(ctx->engine_ctx, &L, &st, err, sizeof err);
    if (rc != WS_SUCCESS) fail(ctx, rc, "%s", err);
  } else {
    rc = run_functional(ctx, &L, &st);
  }
  if (ctx->obs.end) {
    char err[1024] = "";
    WsResult orc = ctx->obs.end(ctx->obs.ctx, &L, rc, err, sizeof err);
    if (orc != WS_SUCCESS && rc == WS_SUCCESS) rc = fail(ctx, orc, "%s", err);
  }
  free(pbuf);
  log_kernel(ctx, &L, &st);
  ctx->last = st;
  ctx->total.warp_insts += st.warp_insts;
  ctx->total.thread_insts += st.thread_insts;
  ctx->total.ctas += st.ctas;
  ctx->total.warps += st.warps;
  ctx->total.barriers += st.barriers;
  ctx->total.cycles += st.cycles;
  return rc;
}
