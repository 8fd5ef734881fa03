/* decode_mod.c - an instruction's modifiers (.type, rounding, cache operator, state space,
 * comparison, vector width, ...) applied to the PtxInst being decoded (decode.c), each checked
 * against the forms the executor runs exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

/* ---- modifiers ---- */
static PtxType mod_type(const char *m) {
  static const char *names[PTX_T_COUNT] = {"",    "pred", "b8",  "b16", "b32", "b64", "u8",  "u16", "u32",
                                           "u64", "s8",   "s16", "s32", "s64", "f16", "f32", "f64"};
  for (int i = 1; i < PTX_T_COUNT; i++)
    if (strcmp(m, names[i]) == 0) return (PtxType)i;
  return PTX_T_NONE;
}

static int lookup(const char *m, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (strcmp(m, names[i]) == 0) return i + 1;
  return 0;
}

static const char *const cmp_names[] = {"eq", "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                        "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const rnd_names[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const atom_names[] = {"add", "min",  "max", "inc", "dec",
                                         "cas", "exch", "and", "or",  "xor"};
static const char *const space_names[] = {"global", "shared", "local", "const", "param"};
static const char *const cop_names[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt"}; /* PtxCacheOp - 1 */
const char *ptx_cache_op_name(PtxCacheOp c) {
  return c > PTX_COP_NONE && c <= PTX_COP_WT ? cop_names[c - 1] : "";
}
static const char *const ignored_mods[] = {"ca",
                                           "cg",
                                           "cs",
                                           "lu",
                                           "cv",
                                           "wb",
                                           "wt",
                                           "relaxed",
                                           "acquire",
                                           "release",
                                           "acq_rel",
                                           "sc",
                                           "cta",
                                           "gpu",
                                           "sys",
                                           "weak",
                                           "mmio",
                                           "gl",
                                           "aligned",
                                           "cluster",
                                           "shared::cta",
                                           "L1::evict_last",
                                           "L1::evict_first",
                                           "L1::evict_normal",
                                           "L1::no_allocate",
                                           "L2::evict_last",
                                           "L2::evict_first",
                                           "L2::evict_normal",
                                           "L2::64B",
                                           "L2::128B",
                                           "L2::256B",
                                           "L1",
                                           "L2",
                                           "proxy",
                                           "async",
                                           "noftz",
                                           "L1::evict_unchanged"};

/* Which opcodes take .f16 (and .f16x2) operands: the arithmetic nvcc emits for __half and
 * __half2 (exec_half.c), and the moves and conversions. */
int ptx_half_supported(int op, uint32_t h2) {
  switch (op) {
  case PTX_OP_add:
  case PTX_OP_sub:
  case PTX_OP_mul:
  case PTX_OP_fma:
  case PTX_OP_neg:
  case PTX_OP_abs:
  case PTX_OP_min:
  case PTX_OP_max:
    return 1;
  case PTX_OP_setp:
  case PTX_OP_cvt:
  case PTX_OP_ld:
  case PTX_OP_st:
  case PTX_OP_mov:
    return !h2;
  default:
    return 0;
  }
}

int ptx_apply_mod(ParseCtx *c, Tok *t, PtxInst *in, const char *m, int *ntypes, PtxType types[2]) {
  int op = in->op, v;
  PtxType ty = mod_type(m);
  if (ty == PTX_T_NONE && strcmp(m, "f16x2") == 0) {
    ty = PTX_T_F16;
    in->flags |= PTX_F_H2;
  }
  if (ty != PTX_T_NONE) {
    if (*ntypes == 2) return ptx_perr(c, t, "too many types in '%.*s'", (int)t->len, t->p);
    types[(*ntypes)++] = ty;
    return 0;
  }
  if (op == PTX_OP_setp && (v = lookup(m, cmp_names, 18))) {
    in->mod = (uint8_t)v;
    return 0;
  }
  if (op == PTX_OP_setp && (v = lookup(m, (const char *const[]){"and", "or", "xor"}, 3))) {
    in->mod2 = (uint8_t)v;
    return 0;
  }
  if ((op == PTX_OP_atom || op == PTX_OP_red) && (v = lookup(m, atom_names, 10))) {
    in->mod = (uint8_t)v;
    return 0;
  }
  if ((op == PTX_OP_mul || op == PTX_OP_mad || op == PTX_OP_mul24 || op == PTX_OP_mad24) &&
      (v = lookup(m, (const char *const[]){"lo", "hi", "wide"}, 3))) {
    in->mod = (uint8_t)(v - 1);
    return 0;
  }
  if ((v = lookup(m, rnd_names, 8))) {
    if (op == PTX_OP_cvt)
      in->mod2 = (uint8_t)v;
    else
      in->mod = (uint8_t)v;
    return 0;
  }
  if ((v = lookup(m, space_names, 5)) || strcmp(m, "shared::cta") == 0) {
    static const uint8_t sp[] = {PTX_SP_GLOBAL, PTX_SP_SHARED, PTX_SP_LOCAL, PTX_SP_CONST, PTX_SP_PARAM};
    if (op == PTX_OP_membar || op == PTX_OP_fence || op == PTX_OP_prefetch) return 0;
    in->space = v ? sp[v - 1] : PTX_SP_SHARED;
    return 0;
  }
  if (op == PTX_OP_shfl && (v = lookup(m, (const char *const[]){"up", "down", "bfly", "idx"}, 4))) {
    in->mod = (uint8_t)v;
    return 0;
  }
  if (op == PTX_OP_vote && (v = lookup(m, (const char *const[]){"ballot", "any", "all", "uni"}, 4))) {
    in->mod = (uint8_t)v;
    return 0;
  }
  if (op == PTX_OP_match && (v = lookup(m, (const char *const[]){"any", "all"}, 2))) {
    in->mod = (uint8_t)(v == 1 ? PTX_MATCH_ANY : PTX_MATCH_ALL);
    return 0;
  }
  if (op == PTX_OP_bar || op == PTX_OP_barrier) {
    if (strcmp(m, "sync") == 0 || strcmp(m, "aligned") == 0) {
      if (!in->mod) in->mod = PTX_BAR_SYNC;
      return 0;
    }
    if (strcmp(m, "arrive") == 0) {
      in->mod = PTX_BAR_ARRIVE;
      return 0;
    }
    if (strcmp(m, "red") == 0) {
      in->mod = PTX_BAR_RED_POPC;
      return 0;
    }
    if (strcmp(m, "popc") == 0) {
      in->mod = PTX_BAR_RED_POPC;
      return 0;
    }
    if (strcmp(m, "and") == 0) {
      in->mod = PTX_BAR_RED_AND;
      return 0;
    }
    if (strcmp(m, "or") == 0) {
      in->mod = PTX_BAR_RED_OR;
      return 0;
    }
    if (strcmp(m, "warp") == 0) {
      in->mod2 = 1;
      return 0;
    }
  }
  if (op == PTX_OP_testp &&
      (v = lookup(m,
                  (const char *const[]){"finite", "infinite", "number", "notanumber", "normal", "subnormal"},
                  6))) {
    in->mod = (uint8_t)v;
    return 0;
  }
  if (op == PTX_OP_prmt && lookup(m, (const char *const[]){"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}, 6))
    return ptx_perr(c, t, "prmt mode .%s is not supported", m);
  if (strcmp(m, "ftz") == 0) {
    in->flags |= PTX_F_FTZ;
    return 0;
  }
  if (strcmp(m, "sat") == 0) {
    in->flags |= PTX_F_SAT;
    return 0;
  }
  if (strcmp(m, "approx") == 0) {
    in->flags |= PTX_F_APPROX;
    return 0;
  }
  if (strcmp(m, "full") == 0) {
    in->flags |= PTX_F_APPROX;
    return 0;
  }
  if (strcmp(m, "uni") == 0) {
    in->flags |= PTX_F_UNI;
    return 0;
  }
  if (strcmp(m, "sync") == 0) return 0;
  if (strcmp(m, "to") == 0) {
    in->flags |= PTX_F_TO;
    return 0;
  }
  if (strcmp(m, "volatile") == 0) {
    in->flags |= PTX_F_VOLATILE;
    return 0;
  }
  if (strcmp(m, "nc") == 0) {
    in->flags |= PTX_F_NC;
    return 0;
  }
  if ((op == PTX_OP_ld || op == PTX_OP_ldu || op == PTX_OP_st) && (v = lookup(m, cop_names, 7))) {
    if (in->flags & PTX_F_COP_MASK) return ptx_perr(c, t, "two cache operators in '%.*s'", (int)t->len, t->p);
    in->flags |= (uint32_t)v << PTX_F_COP_SHIFT;
    return 0;
  }
  if (strcmp(m, "v2") == 0) {
    in->vec = 2;
    return 0;
  }
  if (strcmp(m, "v4") == 0) {
    in->vec = 4;
    return 0;
  }
  if (op == PTX_OP_bfind && strcmp(m, "shiftamt") == 0) {
    in->flags |= PTX_F_SHIFTAMT;
    return 0;
  }
  if (op == PTX_OP_shf) {
    if (strcmp(m, "l") == 0) {
      in->flags |= PTX_F_LEFT;
      return 0;
    }
    if (strcmp(m, "r") == 0) return 0;
    if (strcmp(m, "clamp") == 0) {
      in->flags |= PTX_F_CLAMP;
      return 0;
    }
    if (strcmp(m, "wrap") == 0) return 0;
  }
  if (strcmp(m, "cc") == 0) {
    if (op != PTX_OP_add && op != PTX_OP_sub && op != PTX_OP_addc && op != PTX_OP_subc)
      return ptx_perr(c, t, ".cc is supported on add, sub, addc and subc only");
    in->flags |= PTX_F_CC;
    return 0;
  }
  if ((op == PTX_OP_min || op == PTX_OP_max) && strcmp(m, "NaN") == 0)
    return ptx_perr(c, t, "min/max .NaN is not supported");
  if (lookup(m, ignored_mods, (int)(sizeof ignored_mods / sizeof ignored_mods[0]))) return 0;
  if (strncmp(m, "L1::", 4) == 0 || strncmp(m, "L2::", 4) == 0) return 0;
  return ptx_perr(c, t, "unsupported modifier '.%s' on %s", m, ptx_op_names[op]);
}
