/* accelsim_trace.c - the Accel-Sim trace exporter (accelsim_trace.h).
 * Accel-Sim reads a kernel's trace CTA by CTA, in file order, and within a CTA warp by warp; warps
 * of several CTAs run interleaved here, so each CTA's lines are kept per warp until the CTA ends,
 * and finished CTAs are written in launch (linear id) order. Depends on ptx.h and warpsim.h only.
 */
#include "analysis/accelsim_trace.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ptx/ptx.h"

/* A growable text buffer (one warp's lines). */
typedef struct AtBuf {
  char *p;
  size_t len, cap;
  uint64_t lines;
} AtBuf;

typedef struct AtCta {
  AtBuf *warps;
  uint32_t nwarps;
  uint32_t ctaid[3];
  int done;
} AtCta;

struct AtWriter {
  char dir[4096];
  unsigned nkernels; /* launches written (kernel-1 .. kernel-n) */
  /* the launch being written */
  FILE *f;
  char tmp[4200];
  const PtxLaunch *launch;
  int header_done;
  AtCta **ctas; /* by linear id; NULL once written (or not started) */
  uint64_t nctas, next;
  int oom;
  PtxOperands *ops; /* per pc of the module, filled at a pc's first execution */
  uint8_t *ops_done;
  char line[1024];
};

/* ---- opcodes ---- */

/* Width suffix Accel-Sim's parser reads back as the access size (get_datawidth_from_opcode: a
 * number of bits, or U<bits>; nothing = 4 bytes). */
static const char *width_suffix(unsigned bytes) {
  switch (bytes) {
  case 1:
    return ".U8";
  case 2:
    return ".U16";
  case 8:
    return ".64";
  case 16:
    return ".128";
  default:
    return "";
  }
}

static const char *atom_name(unsigned mod) {
  static const char *const n[] = {"ADD", "ADD",  "MIN", "MAX", "INC", "DEC",
                                  "CAS", "EXCH", "AND", "OR",  "XOR"};
  return mod < sizeof n / sizeof n[0] ? n[mod] : "ADD";
}

/* dp: f64; fp: other floats; else integer. */
static const char *by_type(PtxType t, const char *d, const char *f, const char *i) {
  return t == PTX_T_F64 ? d : ptx_type_is_float(t) ? f : i;
}

const char *at_opcode(const PtxModule *m, unsigned kernel, unsigned pc, unsigned space, unsigned bytes,
                      char *buf, size_t len) {
  const PtxInst *in = &m->code[pc];
  const unsigned l_fn = kernel;
  PtxType t = (PtxType)in->type;
  switch (in->op) {
  case PTX_OP_ld:
  case PTX_OP_ldu:
    switch (space) {
    case PTX_SP_SHARED:
      snprintf(buf, len, "LDS%s", width_suffix(bytes));
      break;
    case PTX_SP_LOCAL:
      snprintf(buf, len, "LDL%s", width_suffix(bytes));
      break;
    case PTX_SP_CONST:
    case PTX_SP_PARAM:
      snprintf(buf, len, "LDC%s", width_suffix(bytes));
      break;
    default:
      snprintf(buf, len, "LDG.E%s", width_suffix(bytes));
      break;
    }
    return buf;
  case PTX_OP_st:
    switch (space) {
    case PTX_SP_SHARED:
      snprintf(buf, len, "STS%s", width_suffix(bytes));
      break;
    case PTX_SP_LOCAL:
      snprintf(buf, len, "STL%s", width_suffix(bytes));
      break;
    default:
      snprintf(buf, len, "STG.E%s", width_suffix(bytes));
      break;
    }
    return buf;
  case PTX_OP_atom:
  case PTX_OP_red:
    if (space == PTX_SP_SHARED)
      snprintf(buf, len, "ATOMS.%s%s", atom_name(in->mod), width_suffix(bytes));
    else
      snprintf(buf, len, "%s.E.%s%s", in->op == PTX_OP_red ? "RED" : "ATOMG", atom_name(in->mod),
               width_suffix(bytes));
    return buf;
  case PTX_OP_add:
  case PTX_OP_sub:
  case PTX_OP_addc:
  case PTX_OP_subc:
  case PTX_OP_neg:
    return by_type(t, "DADD", "FADD", "IADD");
  case PTX_OP_abs:
    return by_type(t, "DADD", "FADD", "IABS");
  case PTX_OP_mul:
  case PTX_OP_mul24:
    return by_type(t, "DMUL", "FMUL", "IMUL");
  case PTX_OP_mad:
  case PTX_OP_mad24:
  case PTX_OP_fma:
  case PTX_OP_sad:
    return by_type(t, "DFMA", "FFMA", "IMAD");
  case PTX_OP_min:
  case PTX_OP_max:
    return by_type(t, "DMNMX", "FMNMX", "IMNMX");
  case PTX_OP_setp:
    return by_type(t, "DSETP", "FSETP", "ISETP");
  case PTX_OP_testp:
    return "FSETP";
  case PTX_OP_isspacep:
    return "ISETP";
  case PTX_OP_selp:
    return "SEL";
  case PTX_OP_mov:
    return in->flags & PTX_F_SREG ? "S2R" : "MOV";
  case PTX_OP_cvta:
    return "IADD";
  case PTX_OP_cvt: {
    int df = ptx_type_is_float(t), sf = ptx_type_is_float((PtxType)in->type2);
    return df ? (sf ? "F2F" : "I2F") : (sf ? "F2I" : "I2I");
  }
  case PTX_OP_and:
  case PTX_OP_or:
  case PTX_OP_xor:
  case PTX_OP_not:
  case PTX_OP_cnot:
  case PTX_OP_copysign:
    return "LOP";
  case PTX_OP_lop3:
    return "LOP3";
  case PTX_OP_shl:
    return "SHL";
  case PTX_OP_shr:
    return "SHR";
  case PTX_OP_shf:
    return "SHF";
  case PTX_OP_bfe:
    return "BFE";
  case PTX_OP_bfi:
    return "BFI";
  case PTX_OP_bfind:
  case PTX_OP_clz:
    return "FLO";
  case PTX_OP_brev:
    return "BREV";
  case PTX_OP_popc:
    return "POPC";
  case PTX_OP_prmt:
    return "PRMT";
  /* division: a reciprocal on the SFU for floats (warpsim times it on the SFU); integer division
   * runs on the SP pipeline in both (no SASS equivalent: one IMAD stands for it) */
  case PTX_OP_div:
  case PTX_OP_rem:
    return t == PTX_T_F64 ? "MUFU.RCP64H" : ptx_type_is_float(t) ? "MUFU.RCP" : "IMAD";
  case PTX_OP_rcp:
    return t == PTX_T_F64 ? "MUFU.RCP64H" : "MUFU.RCP";
  case PTX_OP_sqrt:
    return t == PTX_T_F64 ? "MUFU.RSQ64H" : "MUFU.SQRT";
  case PTX_OP_rsqrt:
    return t == PTX_T_F64 ? "MUFU.RSQ64H" : "MUFU.RSQ";
  case PTX_OP_ex2:
    return "MUFU.EX2";
  case PTX_OP_lg2:
    return "MUFU.LG2";
  case PTX_OP_sin:
    return "MUFU.SIN";
  case PTX_OP_cos:
    return "MUFU.COS";
  case PTX_OP_tanh:
    return "MUFU.TANH";
  case PTX_OP_bra:
    return "BRA";
  case PTX_OP_call:
    return "CALL";
  case PTX_OP_ret:
    return in->func == l_fn ? "EXIT" : "RET"; /* the kernel's own ret ends the warp */
  case PTX_OP_exit:
  case PTX_OP_trap:
    return "EXIT";
  case PTX_OP_bar:
  case PTX_OP_barrier:
    return "BAR.SYNC";
  case PTX_OP_membar:
  case PTX_OP_fence:
    return "MEMBAR";
  case PTX_OP_nanosleep:
    return "NANOSLEEP";
  case PTX_OP_prefetch:
    return "NOP";
  case PTX_OP_shfl:
    return "SHFL";
  case PTX_OP_vote:
  case PTX_OP_activemask:
    return "VOTE";
  case PTX_OP_match:
    return "MATCH";
  default:
    return "MOV";
  }
}

/* ---- buffers ---- */

static int buf_put(AtBuf *b, const char *s, size_t n) {
  if (b->len + n > b->cap) {
    size_t nc = b->cap ? b->cap : 4096;
    while (nc < b->len + n) nc *= 2;
    char *p = realloc(b->p, nc);
    if (!p) return -1;
    b->p = p;
    b->cap = nc;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->lines++;
  return 0;
}

static void cta_free(AtCta *c) {
  if (!c) return;
  for (uint32_t i = 0; i < c->nwarps; i++) free(c->warps[i].p);
  free(c->warps);
  free(c);
}

static void launch_drop(AtWriter *a) {
  for (uint64_t i = 0; a->ctas && i < a->nctas; i++) cta_free(a->ctas[i]);
  free(a->ctas);
  free(a->ops);
  free(a->ops_done);
  a->ctas = NULL;
  a->ops = NULL;
  a->ops_done = NULL;
  if (a->f) {
    fclose(a->f);
    unlink(a->tmp);
    a->f = NULL;
  }
  a->launch = NULL;
}

/* ---- writer ---- */

AtWriter *at_create(const char *dir, char *err, size_t errlen) {
  struct stat sb;
  if (mkdir(dir, 0777) && errno != EEXIST) {
    snprintf(err, errlen, "cannot create trace folder '%s': %s", dir, strerror(errno));
    return NULL;
  }
  if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
    snprintf(err, errlen, "trace folder '%s' is not a folder", dir);
    return NULL;
  }
  if (access(dir, W_OK)) {
    snprintf(err, errlen, "cannot write in trace folder '%s': %s", dir, strerror(errno));
    return NULL;
  }
  AtWriter *a = calloc(1, sizeof *a);
  if (!a) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if (snprintf(a->dir, sizeof a->dir, "%s", dir) >= (int)sizeof a->dir) {
    snprintf(err, errlen, "trace folder name too long");
    free(a);
    return NULL;
  }
  return a;
}

void at_free(AtWriter *a) {
  if (!a) return;
  launch_drop(a);
  free(a);
}

unsigned at_kernels(const AtWriter *a) { return a->nkernels; }

static WsResult at_begin(void *ctx, const PtxLaunch *l, char *err, size_t errlen) {
  AtWriter *a = ctx;
  launch_drop(a);
  a->launch = l;
  a->header_done = 0;
  a->oom = 0;
  a->nctas = l->ctas_total;
  a->next = 0;
  a->ctas = calloc(a->nctas ? a->nctas : 1, sizeof *a->ctas);
  a->ops = calloc(l->mod->ncode ? l->mod->ncode : 1, sizeof *a->ops);
  a->ops_done = calloc(l->mod->ncode ? l->mod->ncode : 1, 1);
  if (!a->ctas || !a->ops || !a->ops_done) {
    launch_drop(a);
    snprintf(err, errlen, "accelsim trace: out of memory");
    return WS_ERROR_OUT_OF_MEMORY;
  }
  snprintf(a->tmp, sizeof a->tmp, "%s/.kernel-%u.traceg.XXXXXX", a->dir, a->nkernels + 1);
  int fd = mkstemp(a->tmp);
  if (fd < 0 || !(a->f = fdopen(fd, "w"))) {
    snprintf(err, errlen, "accelsim trace: cannot write in '%s': %s", a->dir, strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(a->tmp);
    }
    launch_drop(a);
    return WS_ERROR_FILE;
  }
  return WS_SUCCESS;
}

/* The header: written at the first instruction, when the engine has set the launch's register
 * count (-nregs: the occupancy input). Shared and local addresses in the trace are offsets in
 * their own space (explicit LDS/LDL opcodes; the base addresses only matter for generic LD/ST). */
static void write_header(AtWriter *a) {
  const PtxLaunch *l = a->launch;
  fprintf(a->f,
          "-kernel name = %s\n-kernel id = %u\n-grid dim = (%u,%u,%u)\n-block dim = (%u,%u,%u)\n-shmem = %u\n"
          "-nregs = %u\n-binary version = 61\n-cuda stream id = 0\n-shmem base_addr = 0x%016llx\n"
          "-local mem base_addr = 0x%016llx\n-accelsim tracer version = 4\n-enable lineinfo = 0\n"
          "-warpsim source = warpsim's functional execution (pc: PTX instruction index x 8)\n\n"
          "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
          "[adrrescompress?] [mem_addresses]\n",
          l->fn->name, a->nkernels + 1, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
          l->block[2], l->shared_per_cta, l->regs_per_thread, (unsigned long long)PTX_SHARED_WIN,
          (unsigned long long)PTX_LOCAL_WIN);
  a->header_done = 1;
}

static void flush_ctas(AtWriter *a) {
  while (a->next < a->nctas && a->ctas[a->next] && a->ctas[a->next]->done) {
    AtCta *c = a->ctas[a->next];
    fprintf(a->f, "\n#BEGIN_TB\n\nthread block = %u,%u,%u\n", c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    for (uint32_t i = 0; i < c->nwarps; i++) {
      fprintf(a->f, "\nwarp = %u\ninsts = %llu\n", i, (unsigned long long)c->warps[i].lines);
      if (c->warps[i].len) fwrite(c->warps[i].p, 1, c->warps[i].len, a->f);
    }
    fputs("\n#END_TB\n", a->f);
    cta_free(c);
    a->ctas[a->next++] = NULL;
  }
}

#define PUT(...) (n += (size_t)snprintf(s + n, n < cap ? cap - n : 0, __VA_ARGS__))

/* Lane addresses as Accel-Sim's tracer compresses them: base and stride when the active lanes
 * are contiguous with one stride, else every active lane's address. */
static size_t put_addrs(char *s, size_t n, size_t cap, const PtxMemTrace *t, uint32_t mask) {
  if (!mask) return PUT("1 0x0 0 ");
  int first = __builtin_ctz(mask), last = 31 - __builtin_clz(mask);
  uint32_t run = last - first == 31 ? 0xFFFFFFFFu : ((1u << (last - first + 1)) - 1) << first;
  if (run == mask && last > first) {
    int64_t stride = (int64_t)(t->addr[first + 1] - t->addr[first]);
    int ok = stride >= INT32_MIN && stride <= INT32_MAX;
    for (int l = first + 1; ok && l <= last; l++) ok = (int64_t)(t->addr[l] - t->addr[l - 1]) == stride;
    if (ok) return PUT("1 0x%llx %lld ", (unsigned long long)t->addr[first], (long long)stride);
  }
  PUT("0 ");
  for (uint32_t m = mask; m; m &= m - 1) PUT("0x%016llx ", (unsigned long long)t->addr[__builtin_ctz(m)]);
  return n;
}

static void at_step(void *ctx, const PtxWarp *w, uint32_t pc, uint32_t active, const PtxMemTrace *mem) {
  AtWriter *a = ctx;
  if (!a->f || a->oom) return;
  if (!a->header_done) write_header(a);
  const PtxCta *cta = w->cta;
  const PtxLaunch *l = cta->launch;
  AtCta *c = a->ctas[cta->linear_id];
  if (!c) {
    c = calloc(1, sizeof *c);
    if (c) c->warps = calloc(cta->nwarps, sizeof *c->warps);
    if (!c || !c->warps) {
      free(c);
      a->oom = 1;
      return;
    }
    c->nwarps = cta->nwarps;
    memcpy(c->ctaid, cta->ctaid, sizeof c->ctaid);
    a->ctas[cta->linear_id] = c;
  }
  const PtxInst *in = &l->mod->code[pc];
  if (!a->ops_done[pc]) {
    ptx_inst_operands(&l->mod->funcs[in->func], in, &a->ops[pc]);
    a->ops_done[pc] = 1;
  }
  const PtxOperands *o = &a->ops[pc];
  /* registers: the warp's register-file rows (a called function's rows follow the caller's),
   * predicates after all of them; Accel-Sim takes one destination and at most four sources */
  const uint32_t rb = (uint32_t)((w->rf - w->regs) / PTX_WARP_SIZE);
  const uint32_t pb = l->fn->rf_rows + (uint32_t)(w->pf - w->preds);
  char *s = a->line;
  size_t n = 0, cap = sizeof a->line;
  /* 8 bytes per instruction, GPGPU-Sim 3.x's PTX instruction size (ptx_instruction::m_inst_size):
   * the L1I sees the code footprint 3.2.2 saw (at Accel-Sim's SASS size, 16, it would be twice that) */
  PUT("%04x %08x ", pc * 8, active);
  if (o->nwr)
    PUT("1 R%u ", rb + o->wr[0]);
  else if (o->npwr)
    PUT("1 R%u ", pb + o->pwr[0]);
  else
    PUT("0 ");
  char op[48];
  uint32_t mask = 0;
  unsigned space = in->space, bytes = 0;
  if (in->cls == PTX_CLS_MEM) {
    mask = mem ? mem->mask : 0;
    if (mask) {
      space = mem->lane_space[__builtin_ctz(mask)];
      bytes = mem->size;
    } else {
      bytes = (unsigned)ptx_type_bytes((PtxType)in->type) * (in->vec ? in->vec : 1);
    }
  }
  PUT("%s ", at_opcode(l->mod, l->fn_index, pc, space, bytes, op, sizeof op));
  uint32_t nsrc = o->nrd + o->nprd < 4 ? o->nrd + o->nprd : 4;
  PUT("%u ", nsrc);
  for (uint32_t i = 0; i < nsrc; i++) PUT("R%u ", i < o->nrd ? rb + o->rd[i] : pb + o->prd[i - o->nrd]);
  if (in->cls == PTX_CLS_MEM) {
    PUT("%u ", bytes == 1 || bytes == 2 || bytes == 8 || bytes == 16 ? bytes : 4);
    n = put_addrs(s, n, cap, mem, mask);
  } else {
    PUT("0 ");
  }
  if (n >= cap) n = cap - 1;
  s[n - 1] = '\n'; /* the last space */
  if (buf_put(&c->warps[w->warp_in_cta], s, n)) {
    a->oom = 1;
    return;
  }
  if (w->state == PTX_WARP_DONE && cta->live_warps == 0) {
    c->done = 1;
    flush_ctas(a);
  }
}
#undef PUT

static WsResult at_end(void *ctx, const PtxLaunch *l, WsResult rc, char *err, size_t errlen) {
  AtWriter *a = ctx;
  (void)l;
  if (!a->f) return WS_SUCCESS;
  if (rc != WS_SUCCESS) {
    launch_drop(a);
    return WS_SUCCESS;
  } /* no trace of a failed launch */
  if (a->oom) {
    launch_drop(a);
    snprintf(err, errlen, "accelsim trace: out of memory");
    return WS_ERROR_OUT_OF_MEMORY;
  }
  if (!a->header_done) write_header(a);
  flush_ctas(a);
  if (a->next != a->nctas) {
    launch_drop(a);
    snprintf(err, errlen, "accelsim trace: kernel %s: %llu of %llu CTAs finished", l->fn->name,
             (unsigned long long)a->next, (unsigned long long)a->nctas);
    return WS_ERROR_LAUNCH_FAILED;
  }
  FILE *f = a->f;
  a->f = NULL;
  int bad = ferror(f) | fflush(f) | fchmod(fileno(f), 0644);
  bad |= fclose(f);
  char final[4300];
  snprintf(final, sizeof final, "%s/kernel-%u.traceg", a->dir, a->nkernels + 1);
  if (bad || rename(a->tmp, final)) {
    snprintf(err, errlen, "accelsim trace: cannot write '%s': %s", final, strerror(errno));
    unlink(a->tmp);
    launch_drop(a);
    return WS_ERROR_FILE;
  }
  a->nkernels++;
  launch_drop(a);
  return WS_SUCCESS;
}

WsObserver at_observer(AtWriter *a) { return (WsObserver){a, at_begin, at_step, at_end}; }

int at_finish(AtWriter *a, char *err, size_t errlen) {
  char tmp[4200], final[4200];
  snprintf(tmp, sizeof tmp, "%s/.kernelslist.g.XXXXXX", a->dir);
  snprintf(final, sizeof final, "%s/kernelslist.g", a->dir);
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    snprintf(err, errlen, "cannot write '%s': %s", final, strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(tmp);
    }
    return -1;
  }
  for (unsigned k = 1; k <= a->nkernels; k++) fprintf(f, "kernel-%u.traceg\n", k);
  int bad = ferror(f) | fflush(f);
  bad |= fclose(f);
  if (bad || chmod(tmp, 0644) || rename(tmp, final)) {
    snprintf(err, errlen, "cannot write '%s': %s", final, strerror(errno));
    unlink(tmp);
    return -1;
  }
  return 0;
}
