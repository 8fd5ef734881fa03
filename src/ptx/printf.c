/* printf.c - device printf: a `call vprintf, (fmt, args)` formats, for each active lane in
 * lane order, the format string (a generic address, in global memory for nvcc's code) with
 * the argument buffer nvcc packs in the thread's local memory (each argument aligned to its
 * size: 4 bytes for int/char, 8 for long, double, pointers and strings; floats arrive as
 * doubles), and hands the text to the launch's print sink. The call returns the number of
 * characters printed; a bad pointer faults the warp like any other access. Under a deferral
 * log (ptx.h) the text is logged and written when the log is committed. */
#include <stdio.h>
#include <stdlib.h>

#include "exec_int.h"

#define PRINTF_MAX 4096

/* The NUL-terminated string at a generic address, into buf (truncated to len-1). */
static int read_string(PtxWarp *w, uint32_t lane, uint64_t addr, char *buf, size_t len) {
  for (size_t i = 0; i + 1 < len; i++) {
    const uint8_t *p = ptx_lane_generic(w, lane, addr + i, 1);
    if (!p) return -1;
    buf[i] = (char)*p;
    if (!*p) return 0;
  }
  buf[len - 1] = 0;
  return 0;
}

/* Formats one call into out; -1 after setting a fault. */
static int format(PtxWarp *w, uint32_t lane, uint64_t fmt_addr, uint64_t args, char *out, size_t cap) {
  char fmt[PRINTF_MAX];
  if (read_string(w, lane, fmt_addr, fmt, sizeof fmt)) {
    ptx_set_fault(w, PTX_FAULT_OOB, lane, "printf: format string at 0x%llx is not readable",
                  (unsigned long long)fmt_addr);
    return -1;
  }
  size_t n = 0, off = 0;
  for (const char *p = fmt; *p && n < cap - 1;) {
    if (*p != '%') {
      out[n++] = *p++;
      continue;
    }
    if (p[1] == '%') {
      out[n++] = '%';
      p += 2;
      continue;
    }
    /* one conversion: %[flags][width][.precision][length]conv */
    const char *start = p++;
    while (*p && strchr("-+ #0", *p)) p++;
    while (*p >= '0' && *p <= '9') p++;
    if (*p == '.') {
      p++;
      while (*p >= '0' && *p <= '9') p++;
    }
    int longs = 0;
    while (*p && strchr("hlLqjzt", *p)) {
      if (*p != 'h') longs++;
      p++;
    }
    char conv = *p ? *p++ : 0;
    if (!conv || !strchr("diouxXcsfFeEgGaAp", conv)) { /* not a conversion: print it as written */
      for (const char *q = start; q < p && n < cap - 1; q++) out[n++] = *q;
      continue;
    }
    int is_float = strchr("fFeEgGaA", conv) != NULL;
    uint32_t size = (is_float || conv == 's' || conv == 'p' || longs) ? 8 : 4;
    off = (off + size - 1) & ~(size_t)(size - 1);
    const uint8_t *src = args ? ptx_lane_generic(w, lane, args + off, size) : NULL;
    if (!src) {
      ptx_set_fault(w, PTX_FAULT_OOB, lane,
                    "printf: argument %zu of \"%.40s\" is not readable (argument buffer 0x%llx)", off / 4,
                    fmt, (unsigned long long)args);
      return -1;
    }
    off += size;
    uint64_t v = 0;
    memcpy(&v, src, size);
    /* the conversion alone, with a host length modifier that matches the value passed */
    char spec[64];
    size_t sl = 0;
    for (const char *q = start; q < p - 1 && sl < sizeof spec - 4; q++)
      if (!strchr("hlLqjzt", *q)) spec[sl++] = *q;
    char piece[PRINTF_MAX];
    int k;
    if (is_float) {
      spec[sl++] = conv, spec[sl] = 0;
      k = snprintf(piece, sizeof piece, spec, as_f64(v));
    } else if (conv == 's') {
      char str[PRINTF_MAX];
      if (!v)
        snprintf(str, sizeof str, "(null)");
      else if (read_string(w, lane, v, str, sizeof str)) {
        ptx_set_fault(w, PTX_FAULT_OOB, lane, "printf: %%s argument at 0x%llx is not readable",
                      (unsigned long long)v);
        return -1;
      }
      spec[sl++] = 's', spec[sl] = 0;
      k = snprintf(piece, sizeof piece, spec, str);
    } else if (conv == 'p') {
      spec[sl++] = 'p', spec[sl] = 0;
      k = snprintf(piece, sizeof piece, spec, (void *)(uintptr_t)v);
    } else if (conv == 'c') {
      spec[sl++] = 'c', spec[sl] = 0;
      k = snprintf(piece, sizeof piece, spec, (int)(int32_t)v);
    } else {
      spec[sl++] = 'l', spec[sl++] = 'l', spec[sl++] = conv, spec[sl] = 0;
      int sgn = conv == 'd' || conv == 'i';
      long long x = size == 8 ? (long long)v : sgn ? (long long)(int32_t)v : (long long)(uint32_t)v;
      k = snprintf(piece, sizeof piece, spec, x);
    }
    for (int i = 0; i < k && i < (int)sizeof piece - 1 && n < cap - 1; i++) out[n++] = piece[i];
  }
  out[n] = 0;
  return (int)n;
}

/* Appends one printf text to the warp's deferral log; -1 after faulting the warp (out of host memory). */
static int defer_print(PtxWarp *w, uint32_t lane, const char *text, size_t n) {
  PtxDefer *d = w->defer;
  if (d->tlen + n > d->tcap) {
    size_t nc = d->tcap ? d->tcap : 1024;
    while (nc < d->tlen + n) nc *= 2;
    char *nt = realloc(d->text, nc);
    if (!nt) return ptx_set_fault(w, PTX_FAULT_UNSUPPORTED, lane, "out of host memory deferring printf"), -1;
    d->text = nt;
    d->tcap = nc;
  }
  if (d->n == d->cap) {
    uint32_t nc = d->cap ? d->cap * 2 : 256;
    PtxDeferOp *no = realloc(d->op, sizeof *no * nc);
    if (!no) return ptx_set_fault(w, PTX_FAULT_UNSUPPORTED, lane, "out of host memory deferring printf"), -1;
    d->op = no;
    d->cap = nc;
  }
  memcpy(d->text + d->tlen, text, n);
  d->op[d->n++] = (PtxDeferOp){.kind = PTX_DEFER_PRINT, .b = d->tlen, .c = n, .launch = w->cta->launch};
  d->tlen += n;
  return 0;
}

HANDLER(exec_vprintf) {
  const PtxLaunch *L = w->cta->launch;
  const PtxCallSite *cs = &L->mod->calls[in->off];
  FOR_LANES(active, l) {
    uint8_t *frame = w->local + (size_t)l * w->local_stride + w->frame_base;
    uint64_t fmt, args;
    memcpy(&fmt, frame + cs->arg_off[0], 8);
    memcpy(&args, frame + cs->arg_off[1], 8);
    char out[PRINTF_MAX];
    int n = format(w, l, fmt, args, out, sizeof out);
    if (n < 0) return;
    if (w->defer) { /* logged: written when the log is committed (ptx.h) */
      if (defer_print(w, l, out, (size_t)n)) return;
    } else if (L->print)
      L->print(L->print_ctx, out, (size_t)n);
    else
      fwrite(out, 1, (size_t)n, stdout);
    if (cs->ret_off >= 0) {
      int32_t r = n;
      memcpy(frame + cs->ret_off, &r, cs->ret_size < 4 ? cs->ret_size : 4);
    }
  }
}
