/* kinfo.c - what the SM derives from a kernel before running it: each
 * instruction's unit, kind, latency, issue interval and operands (SmKernelInfo),
 * and how many CTAs of a kernel fit on one SM (sm_occupancy). Split from sm.c:
 * nothing here runs per cycle. */
#include <stdio.h>
#include <stdlib.h>

#include "sm/sm_int.h"

/* ---- static per-kernel timing info ---- */

/* Latency class of an ALU/SFU instruction: the GPGPU-Sim 3.x opcode groups. */
static const char *latency_key(const PtxInst *in) {
  PtxType t = (PtxType)in->type;
  int dp = t == PTX_T_F64, fp = t == PTX_T_F32 || t == PTX_T_F16;
  switch (in->op) {
  case PTX_OP_min:
  case PTX_OP_max:
  case PTX_OP_setp:
  case PTX_OP_selp:
  case PTX_OP_testp:
    return dp ? "unit.dp_max" : fp ? "unit.fp_max" : "unit.int_max";
  case PTX_OP_mul:
  case PTX_OP_mul24:
    return dp ? "unit.dp_mul" : fp ? "unit.fp_mul" : "unit.int_mul";
  case PTX_OP_mad:
  case PTX_OP_mad24:
  case PTX_OP_fma:
  case PTX_OP_sad:
    return dp ? "unit.dp_mad" : fp ? "unit.fp_mad" : "unit.int_mad";
  case PTX_OP_div:
  case PTX_OP_rem:
    return dp ? "unit.dp_div" : fp ? "unit.fp_div" : "unit.int_div";
  case PTX_OP_rcp:
  case PTX_OP_sqrt:
  case PTX_OP_rsqrt:
  case PTX_OP_ex2:
  case PTX_OP_lg2:
  case PTX_OP_sin:
  case PTX_OP_cos:
  case PTX_OP_tanh:
    return dp ? "unit.dp_div" : "unit.sfu";
  default:
    return dp ? "unit.dp_add" : fp ? "unit.fp_add" : "unit.int_add";
  }
}

static uint8_t mem_kind(const PtxInst *in) {
  int st = in->op == PTX_OP_st;
  if (in->op == PTX_OP_atom || in->op == PTX_OP_red)
    return in->space == PTX_SP_SHARED ? WINST_SHARED : WINST_ATOMIC;
  switch (in->space) {
  case PTX_SP_SHARED:
    return WINST_SHARED;
  case PTX_SP_LOCAL:
    return st ? WINST_LOCAL_STORE : WINST_LOCAL_LOAD;
  case PTX_SP_CONST:
  case PTX_SP_PARAM:
    return st ? WINST_LOCAL_STORE : WINST_CONST;
  default:
    return st ? WINST_GLOBAL_STORE : WINST_GLOBAL_LOAD; /* global, generic */
  }
}

SmKernelInfo *sm_kernel_info_create(const Config *cfg, const PtxLaunch *l) {
  const PtxModule *m = l->mod;
  SmKernelInfo *k = calloc(1, sizeof *k);
  if (!k) return NULL;
  k->launch = l;
  k->first_pc = 0;
  k->npc = m->ncode;
  uint32_t n = m->ncode ? m->ncode : 1;
  k->unit = calloc(n, 1);
  k->kind = calloc(n, 1);
  k->latency = calloc(n, sizeof(uint16_t));
  k->ii = calloc(n, sizeof(uint16_t));
  k->ops = calloc(n, sizeof(PtxOperands));
  if (!k->unit || !k->kind || !k->latency || !k->ii || !k->ops) {
    sm_kernel_info_free(k);
    return NULL;
  }
  for (uint32_t pc = 0; pc < m->ncode; pc++) {
    const PtxInst *in = &m->code[pc];
    ptx_inst_operands(&m->funcs[in->func], in, &k->ops[pc]);
    char key[64];
    const char *lk = latency_key(in);
    uint8_t unit = SM_UNIT_SP, kind = WINST_ALU;
    switch (in->cls) {
    case PTX_CLS_MEM:
      unit = SM_UNIT_LDST;
      kind = mem_kind(in);
      lk = "unit.ldst";
      break;
    case PTX_CLS_SFU:
      unit = SM_UNIT_SFU;
      kind = WINST_SFU;
      break;
    case PTX_CLS_CTRL:
      kind = WINST_BRANCH;
      lk = "unit.int_add";
      break;
    case PTX_CLS_BAR:
      unit = SM_UNIT_NONE;
      kind = WINST_BARRIER;
      lk = "unit.int_add";
      break;
    case PTX_CLS_NOP:
      unit = SM_UNIT_NONE;
      kind = WINST_OTHER;
      lk = "unit.int_add";
      break;
    default:
      break;
    }
    /* integer div/rem and f64 run on the SP pipeline in GPGPU-Sim; SFU ops keep the SFU */
    if (in->cls == PTX_CLS_SFU && (in->op == PTX_OP_div || in->op == PTX_OP_rem) &&
        !ptx_type_is_float((PtxType)in->type))
      unit = SM_UNIT_SP;
    k->unit[pc] = unit;
    k->kind[pc] = kind;
    snprintf(key, sizeof key, "%s.latency", lk);
    k->latency[pc] = (uint16_t)cfg_int(cfg, key);
    snprintf(key, sizeof key, "%s.ii", lk);
    k->ii[pc] = (uint16_t)cfg_int(cfg, key);
  }
  return k;
}

void sm_kernel_info_free(SmKernelInfo *k) {
  if (!k) return;
  free(k->unit);
  free(k->kind);
  free(k->latency);
  free(k->ii);
  free(k->ops);
  free(k);
}

/* ---- occupancy ---- */
uint32_t sm_occupancy(const Config *cfg, uint32_t regs_per_thread, uint32_t threads_per_cta,
                      uint32_t shared_per_cta, const char **limiter) {
  uint32_t warps = (threads_per_cta + 31) / 32;
  uint32_t n = (uint32_t)cfg_int(cfg, "sm.max_ctas");
  *limiter = "CTA slots";
  uint32_t by_threads = (uint32_t)cfg_int(cfg, "sm.max_threads") / (warps * 32);
  uint32_t by_warps = (uint32_t)cfg_int(cfg, "sm.max_warps") / warps;
  uint32_t regs = regs_per_thread * warps * 32;
  uint32_t by_regs = regs ? (uint32_t)cfg_int(cfg, "sm.registers") / regs : n;
  uint32_t by_shared = shared_per_cta ? (uint32_t)cfg_int(cfg, "sm.shared_mem") / shared_per_cta : n;
  if (by_threads < n) {
    n = by_threads;
    *limiter = "threads";
  }
  if (by_warps < n) {
    n = by_warps;
    *limiter = "warps";
  }
  if (by_regs < n) {
    n = by_regs;
    *limiter = "registers";
  }
  if (by_shared < n) {
    n = by_shared;
    *limiter = "shared memory";
  }
  return n;
}
