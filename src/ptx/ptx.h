/* ptx.h - the functional core: decoded PTX (IR), device memory, warps and the
 * per-warp step that executes one instruction.
 *
 * Invariant: after ptx_module_parse, no string is looked at again. Every
 * operand is a register index in the owning function's register space, whose
 * rows [0, nregs) are real registers and [nregs, nregs+nimm) are immediates
 * broadcast to 32 lanes; predicates live in a separate bit-per-lane file.
 * Register values are stored masked to their declared width.
 * This module never includes timing headers (src/sm, src/mem, src/policy).
 */
#ifndef PTX_H
#define PTX_H

#include <stddef.h>
#include <stdint.h>

#define PTX_WARP_SIZE 32
#define PTX_NO_REG 0xFFFFu
#define PTX_EXIT_PC 0xFFFFFFFFu
#define PTX_MAX_BARRIERS 16

/* ---- opcodes and classes ---- */
typedef enum PtxOp {
#define OP(name, fn, cls) PTX_OP_##name,
#include "opcodes.def"
#undef OP
  PTX_OP_COUNT
} PtxOp;

typedef enum PtxClass {
  PTX_CLS_ALU,
  PTX_CLS_SFU,
  PTX_CLS_MEM,
  PTX_CLS_CTRL,
  PTX_CLS_BAR,
  PTX_CLS_SYNC,
  PTX_CLS_NOP
} PtxClass;

extern const char *const ptx_op_names[PTX_OP_COUNT];
extern const uint8_t ptx_op_class[PTX_OP_COUNT];

typedef enum PtxType {
  PTX_T_NONE = 0,
  PTX_T_PRED,
  PTX_T_B8,
  PTX_T_B16,
  PTX_T_B32,
  PTX_T_B64,
  PTX_T_U8,
  PTX_T_U16,
  PTX_T_U32,
  PTX_T_U64,
  PTX_T_S8,
  PTX_T_S16,
  PTX_T_S32,
  PTX_T_S64,
  PTX_T_F16,
  PTX_T_F32,
  PTX_T_F64,
  PTX_T_COUNT
} PtxType;

int ptx_type_bytes(PtxType t);
int ptx_type_is_signed(PtxType t);
int ptx_type_is_float(PtxType t);
const char *ptx_type_name(PtxType t);

typedef enum PtxSpace {
  PTX_SP_GENERIC = 0,
  PTX_SP_GLOBAL,
  PTX_SP_SHARED,
  PTX_SP_LOCAL,
  PTX_SP_CONST,
  PTX_SP_PARAM
} PtxSpace;
const char *ptx_space_name(PtxSpace s);

/* Generic-address windows (the global space is everything else). */
#define PTX_SHARED_WIN 0x00007F0000000000ull
#define PTX_LOCAL_WIN 0x00007F1000000000ull
#define PTX_PARAM_WIN 0x00007F2000000000ull
#define PTX_WIN_SIZE 0x0000000100000000ull
#define PTX_GLOBAL_BASE 0x0000001000000000ull

/* Modifier values (meaning depends on the opcode). */
enum {
  PTX_RND_NONE = 0,
  PTX_RND_RN,
  PTX_RND_RZ,
  PTX_RND_RM,
  PTX_RND_RP,
  PTX_RND_RNI,
  PTX_RND_RZI,
  PTX_RND_RMI,
  PTX_RND_RPI
};
enum {
  PTX_CMP_EQ = 1,
  PTX_CMP_NE,
  PTX_CMP_LT,
  PTX_CMP_LE,
  PTX_CMP_GT,
  PTX_CMP_GE,
  PTX_CMP_LO,
  PTX_CMP_LS,
  PTX_CMP_HI,
  PTX_CMP_HS,
  PTX_CMP_EQU,
  PTX_CMP_NEU,
  PTX_CMP_LTU,
  PTX_CMP_LEU,
  PTX_CMP_GTU,
  PTX_CMP_GEU,
  PTX_CMP_NUM,
  PTX_CMP_NAN
};
enum { PTX_BOOL_NONE = 0, PTX_BOOL_AND, PTX_BOOL_OR, PTX_BOOL_XOR };
enum {
  PTX_ATOM_ADD = 1,
  PTX_ATOM_MIN,
  PTX_ATOM_MAX,
  PTX_ATOM_INC,
  PTX_ATOM_DEC,
  PTX_ATOM_CAS,
  PTX_ATOM_EXCH,
  PTX_ATOM_AND,
  PTX_ATOM_OR,
  PTX_ATOM_XOR
};
enum { PTX_SHFL_UP = 1, PTX_SHFL_DOWN, PTX_SHFL_BFLY, PTX_SHFL_IDX };
enum { PTX_VOTE_BALLOT = 1, PTX_VOTE_ANY, PTX_VOTE_ALL, PTX_VOTE_UNI, PTX_MATCH_ANY, PTX_MATCH_ALL };
enum { PTX_BAR_SYNC = 1, PTX_BAR_ARRIVE, PTX_BAR_RED_POPC, PTX_BAR_RED_AND, PTX_BAR_RED_OR };
enum { PTX_MUL_LO = 0, PTX_MUL_HI, PTX_MUL_WIDE };
enum {
  PTX_SREG_TID_X = 1,
  PTX_SREG_TID_Y,
  PTX_SREG_TID_Z,
  PTX_SREG_NTID_X,
  PTX_SREG_NTID_Y,
  PTX_SREG_NTID_Z,
  PTX_SREG_CTAID_X,
  PTX_SREG_CTAID_Y,
  PTX_SREG_CTAID_Z,
  PTX_SREG_NCTAID_X,
  PTX_SREG_NCTAID_Y,
  PTX_SREG_NCTAID_Z,
  PTX_SREG_LANEID,
  PTX_SREG_WARPID,
  PTX_SREG_NWARPID,
  PTX_SREG_SMID,
  PTX_SREG_NSMID,
  PTX_SREG_CLOCK,
  PTX_SREG_CLOCK64,
  PTX_SREG_LANEMASK_EQ,
  PTX_SREG_LANEMASK_LT,
  PTX_SREG_LANEMASK_LE,
  PTX_SREG_LANEMASK_GT,
  PTX_SREG_LANEMASK_GE,
  PTX_SREG_GRIDID,
  PTX_SREG_GLOBALTIMER,
  PTX_SREG_TOTAL_SMEM,
  PTX_SREG_DYN_SMEM
};

/* Instruction flags. */
enum {
  PTX_F_FTZ = 1u << 0,
  PTX_F_SAT = 1u << 1,
  PTX_F_APPROX = 1u << 2,
  PTX_F_UNI = 1u << 3,
  PTX_F_TO = 1u << 4,    /* cvta.to */
  PTX_F_NEG_C = 1u << 5, /* setp/vote/bar.red/selp predicate operand negated */
  PTX_F_DUAL = 1u << 6,  /* second destination present (setp p|q, shfl d|p, match d|p) */
  PTX_F_VOLATILE = 1u << 7,
  PTX_F_NC = 1u << 8,
  PTX_F_SHIFTAMT = 1u << 9, /* bfind.shiftamt */
  PTX_F_CLAMP = 1u << 10,   /* shf.clamp */
  PTX_F_LEFT = 1u << 11,    /* shf.l */
  PTX_F_SYMADDR = 1u << 12, /* mov d, symbol: value computed from symbol at run time (local/param) */
  PTX_F_SREG = 1u << 13,    /* mov d, special register */
  PTX_F_PACK = 1u << 14,    /* mov d, {a,b}: pack */
  PTX_F_UNPACK = 1u << 15,  /* mov {a,b}, d: unpack */
  PTX_F_CC = 1u << 16,      /* add.cc / sub.cc / addc.cc / subc.cc: write the carry flag */
  PTX_F_ADDR32 = 1u << 17,  /* address base is a 32-bit register: [r+off] wraps at 32 bits */
  /* bits 18-20: the cache operator of ld/ldu/st (PtxCacheOp), ptx_cache_op() reads it */
  PTX_F_H2 = 1u << 21,      /* .f16x2: two halves packed in a 32-bit register, each computed */
  PTX_F_BUILTIN = 1u << 22, /* call of a function the runtime provides (vprintf): no body, no frame */
};
#define PTX_F_COP_SHIFT 18
#define PTX_F_COP_MASK (7u << PTX_F_COP_SHIFT)

/* Cache operator written on a ld/ldu/st (PTX ISA 8.3 "Cache Operators"): NONE when the
 * instruction names none (the default is .ca for loads, .wb for stores). The decoder keeps
 * what the text says; what a timing model does with each is its business (on the GTX480
 * model see doc/timing-model.md "Load classes"). */
typedef enum PtxCacheOp {
  PTX_COP_NONE = 0,
  PTX_COP_CA,
  PTX_COP_CG,
  PTX_COP_CS,
  PTX_COP_LU,
  PTX_COP_CV,
  PTX_COP_WB,
  PTX_COP_WT
} PtxCacheOp;
const char *ptx_cache_op_name(PtxCacheOp c); /* "", "ca", "cg", ... */

/* Memory-address operand: [base + off] in `space`. base == PTX_NO_REG: absolute. */
typedef struct PtxInst {
  uint16_t op;   /* PtxOp */
  uint8_t type;  /* main type (PtxType) */
  uint8_t type2; /* cvt source type, ld/st register width class, etc. */
  uint8_t mod;   /* cmp / rounding / atom op / shfl mode / vote mode / bar mode / mul mode / sreg */
  uint8_t mod2;  /* setp bool op; cvt rounding; */
  uint8_t space; /* PtxSpace for ld/st/atom/red/cvta */
  uint8_t vec;   /* 1, 2 or 4 */
  uint8_t ndst, nsrc;
  uint8_t guard_neg;
  uint8_t cls; /* PtxClass */
  uint32_t flags;
  int32_t guard;   /* predicate index or -1 */
  uint16_t d[4];   /* destinations (register or predicate indices) */
  uint16_t s[5];   /* sources */
  uint16_t addr;   /* address base register or PTX_NO_REG */
  int64_t off;     /* address offset / symbol address */
  uint32_t target; /* bra: target pc; call: callee function index */
  uint32_t rpc;    /* bra: reconvergence pc (immediate post-dominator) */
  uint32_t line;   /* source line */
  uint32_t func;   /* owning function index */
} PtxInst;
static inline PtxCacheOp ptx_cache_op(const PtxInst *in) {
  return (PtxCacheOp)((in->flags & PTX_F_COP_MASK) >> PTX_F_COP_SHIFT);
}

typedef struct PtxParam {
  char *name;
  uint32_t size, align, offset; /* offset: in the kernel param buffer / the function's local frame */
} PtxParam;

typedef struct PtxCallSite { /* side table for `call` instructions (index = PtxInst.off) */
  uint32_t nargs;
  int32_t ret_off; /* caller-frame offset of the return-value variable, -1 = none */
  uint32_t ret_size;
  uint32_t *arg_off; /* caller-frame offsets of the argument variables */
  uint32_t *arg_size;
} PtxCallSite;

typedef struct PtxFunction {
  char *name;
  int is_entry;
  uint32_t first_pc, npc; /* instructions [first_pc, first_pc + npc) in the module's code */
  uint32_t nregs, nimm;   /* register rows and immediate rows */
  uint32_t npreds;
  uint64_t *imm;      /* nimm immediate values */
  uint8_t *reg_bytes; /* declared width in bytes of each register row (imm rows: 8) */
  PtxParam *params;   /* kernel params (entry) or formal params (func) */
  uint32_t nparams, param_bytes;
  PtxParam ret;            /* func return value (size 0 = none) */
  uint32_t local_bytes;    /* this function's local frame: depot vars + params + call vars */
  uint32_t static_shared;  /* entries: static .shared bytes this kernel uses */
  uint32_t dyn_shared_off; /* entries: offset of `.extern .shared` (dynamic) memory */
  int defined;             /* has a body */
  /* Per-kernel layout (entries only): register-file rows of each reachable function. */
  uint32_t *rf_base; /* indexed by function index - rf_lo; UINT32_MAX = unreachable */
  uint32_t *pf_base;
  uint32_t rf_lo, rf_n;      /* the reachable functions lie in [rf_lo, rf_lo + rf_n): arrays this
                              * long, not one entry per function of the module (40,000 kernels) */
  uint32_t rf_rows, pf_rows; /* total rows a warp needs */
  uint32_t *zero_runs;       /* (first row, rows) pairs a new CTA zeroes, the rows some thread may read
                              * before writing (layout.c); NULL: every row */
  uint32_t nzero_runs;       /* pairs in zero_runs */
  uint32_t max_local;        /* deepest call chain's local bytes per thread */
  uint32_t max_depth;
  uint32_t
      regs_per_thread; /* entries: registers per thread as compiled: ptxas's count or liveness (occupancy) */
  uint8_t
      regs_from_ptxas; /* entries: regs_per_thread is ptxas's (a `//@warpsim regs` line), not the estimate */
} PtxFunction;
/* Register-file row of function g's registers in kernel k's layout (UINT32_MAX: unreachable). */
static inline uint32_t ptx_rf_base(const PtxFunction *k, uint32_t g) {
  return g - k->rf_lo < k->rf_n ? k->rf_base[g - k->rf_lo] : UINT32_MAX;
}
static inline uint32_t ptx_pf_base(const PtxFunction *k, uint32_t g) {
  return g - k->rf_lo < k->rf_n ? k->pf_base[g - k->rf_lo] : UINT32_MAX;
}

typedef struct PtxSymbol {
  char *name;
  uint8_t space; /* PtxSpace */
  int32_t func;  /* -1 for module scope */
  uint64_t addr; /* global/const: device address; shared: CTA offset; local/param: frame offset */
  uint64_t size;
  uint32_t align;
  int is_extern_shared;
  uint8_t in_frame; /* param/local living in the function's per-thread frame */
  uint8_t *init;    /* initial bytes (global/const) or NULL */
} PtxSymbol;

typedef struct PtxDevMem PtxDevMem;

/* A use of a symbol's address that is patched once the address is known:
 * shared offsets at parse end, global/const addresses at ptx_module_bind. */
typedef struct PtxSymFix {
  uint32_t sym;
  uint32_t pc; /* instruction whose `off` gets the address (imm_row < 0) */
  uint32_t func;
  int32_t imm_row; /* or: immediate row of `func` that gets the address */
} PtxSymFix;

typedef struct PtxModule {
  char *name; /* for messages */
  PtxInst *code;
  uint32_t ncode;
  PtxFunction *funcs;
  uint32_t nfuncs;
  PtxSymbol *syms;
  uint32_t nsyms;
  PtxCallSite *calls;
  uint32_t ncalls;
  PtxSymFix *fixes;
  uint32_t nfixes;
} PtxModule;

/* Parses PTX text. On error returns NULL and writes "name:line:col: message" to err. */
PtxModule *ptx_module_parse(const char *text, const char *name, char *err, size_t errlen);
/* Allocates the module's .global/.const variables in dev and copies their initialisers. */
int ptx_module_bind(PtxModule *m, PtxDevMem *dev, char *err, size_t errlen);
void ptx_module_free(PtxModule *m, PtxDevMem *dev);
int ptx_module_find_function(const PtxModule *m, const char *name);
const PtxSymbol *ptx_module_find_symbol(const PtxModule *m, const char *name);
/* One-line text of an instruction for messages ("file:line: ld.global.u32"). */
void ptx_inst_describe(const PtxModule *m, uint32_t pc, char *buf, size_t len);

/* ---- device memory (global + const): sparse flat space of allocations ---- */
PtxDevMem *ptx_dev_create(uint64_t limit);
void ptx_dev_destroy(PtxDevMem *d);
/* Returns 0 on failure (out of memory). Allocation is zero-filled. */
uint64_t ptx_dev_alloc(PtxDevMem *d, uint64_t bytes, int read_only);
int ptx_dev_free(PtxDevMem *d, uint64_t addr);
/* Host pointer for [addr, addr+len) inside one allocation, or NULL. */
uint8_t *ptx_dev_ptr(PtxDevMem *d, uint64_t addr, uint64_t len);
/* Same for writing: NULL with *read_only=1 for a constant allocation. */
uint8_t *ptx_dev_ptr_w(PtxDevMem *d, uint64_t addr, uint64_t len, int *read_only);
/* The allocation holding addr: its base, size, host data and whether it is
 * read-only; 0 if none. */
int ptx_dev_alloc_of(PtxDevMem *d, uint64_t addr, uint64_t *base, uint64_t *size, uint8_t **data,
                     int *read_only);
uint64_t ptx_dev_bytes_in_use(const PtxDevMem *d);

/* ---- execution state ---- */
typedef struct PtxSimtEntry {
  uint32_t pc, rpc, mask;
  uint32_t call; /* 1 = call entry: popping it returns to the caller */
  uint32_t site; /* call site index */
  uint32_t caller_func, frame_base;
} PtxSimtEntry;

typedef enum PtxWarpState {
  PTX_WARP_READY = 0,
  PTX_WARP_BARRIER,
  PTX_WARP_DONE,
  PTX_WARP_FAULT
} PtxWarpState;

typedef enum PtxFaultKind {
  PTX_FAULT_NONE = 0,
  PTX_FAULT_OOB,
  PTX_FAULT_MISALIGNED,
  PTX_FAULT_READONLY,
  PTX_FAULT_UNSUPPORTED,
  PTX_FAULT_TRAP,
  PTX_FAULT_STACK,
  PTX_FAULT_BARRIER
} PtxFaultKind;

typedef struct PtxFault {
  PtxFaultKind kind;
  uint32_t pc, lane;
  uint8_t space, is_write;
  uint32_t size;
  uint64_t addr;
  char msg[160];
} PtxFault;

/* Memory access record of the last executed instruction (for the timing model). */
typedef struct PtxMemTrace {
  uint8_t space; /* resolved space of each lane is the same for nvcc code; per-lane below */
  uint8_t is_write, is_atomic;
  uint8_t uniform; /* every lane in mask accessed the same address in the same space (resolved once) */
  uint32_t size;   /* bytes per lane access (vector: total) */
  uint32_t mask;   /* lanes that accessed */
  uint8_t lane_space[PTX_WARP_SIZE];
  uint64_t addr[PTX_WARP_SIZE];
} PtxMemTrace;

/* ---- deferred global accesses (the timing engine's threads) ----
 * While a warp's `defer` is set, its steps touch no global memory and write no device printf
 * output: each global lane's load, store or atomic (with the register values a store or an
 * atomic reads, taken at the step) and each printf text is appended to the log, and
 * ptx_defer_commit performs them later, in the order they were logged. Addresses, bounds,
 * alignment, faults and the trace are handled at the step exactly as without it. A load's or
 * atomic's destination is written at the commit: right as long as nothing reads it in between
 * (the timing model's scoreboard holds it until the load completes, cycles later). This lets
 * several SMs step their warps at once and apply their global effects in one fixed order. */
typedef struct PtxDeferOp {
  uint8_t kind;                   /* PTX_DEFER_LOAD, _STORE, _ATOM or _PRINT */
  uint8_t bytes, sgn, wb;         /* access bytes; a load's sign extension and destination width */
  uint8_t op, type;               /* an atomic's PTX_ATOM_* and PtxType */
  uint8_t *p;                     /* host address of the access */
  uint64_t *dst;                  /* a load's or atomic's destination lane (NULL: none) */
  uint64_t b, c;                  /* a store's value, an atomic's operands; printf: text offset, length */
  const struct PtxLaunch *launch; /* printf: where its text goes */
} PtxDeferOp;
enum { PTX_DEFER_LOAD, PTX_DEFER_STORE, PTX_DEFER_ATOM, PTX_DEFER_PRINT };
typedef struct PtxDefer {
  PtxDeferOp *op;
  uint32_t n, cap;
  char *text; /* printf output, PtxDeferOp.b/.c index it */
  size_t tlen, tcap;
} PtxDefer;
/* Performs the logged accesses and printf output in order and empties the log. */
void ptx_defer_commit(PtxDefer *d);
/* ptx_defer_clear empties the log without performing it; ptx_defer_free frees its buffers. */
static inline void ptx_defer_clear(PtxDefer *d) {
  d->n = 0;
  d->tlen = 0;
}
void ptx_defer_free(PtxDefer *d);

struct PtxCta;

typedef struct PtxWarp {
  uint64_t *rf;   /* current function's register rows: rf[row*32 + lane] */
  uint32_t *pf;   /* current function's predicate masks */
  uint64_t *regs; /* all rows of the kernel layout */
  uint32_t *preds;
  uint8_t *local; /* per-thread local memory: local[lane*local_stride + off] */
  uint32_t local_stride;
  uint32_t frame_base, cur_func;
  PtxSimtEntry *stack;
  uint32_t sp, stack_cap;
  uint32_t valid;    /* lanes that exist (partial last warp) */
  uint32_t exited;   /* lanes that have exited */
  uint32_t carry;    /* CC.CF per lane (add.cc / addc / sub.cc / subc) */
  uint8_t state;     /* PtxWarpState */
  uint8_t bar_id;    /* barrier waited on */
  uint16_t bar_dst;  /* bar.red destination register */
  uint32_t bar_mask; /* bar.red lanes */
  uint32_t warp_in_cta;
  uint32_t tid_base; /* linear thread index of lane 0 within the CTA */
  uint64_t insts, thread_insts;
  uint64_t clock; /* value of %clock64 (the engine sets it) */
  struct PtxCta *cta;
  PtxMemTrace *trace; /* if non-NULL, filled by memory instructions */
  PtxDefer *defer;    /* if non-NULL, global accesses and printf are logged there (above) */
  PtxFault fault;
} PtxWarp;

typedef struct PtxBarrier {
  uint32_t arrived;  /* warps arrived */
  uint32_t expected; /* threads expected (0 = all non-exited warps of the CTA) */
  uint32_t red_popc, red_and, red_or;
  uint8_t red_op;
} PtxBarrier;

struct PtxLaunch;

/* An observer of the executed instruction stream (trace exporters): called by ptx_warp_step after
 * each warp instruction with its pc, the lanes that executed it (SIMT mask AND guard predicate) and,
 * for a memory instruction, its per-lane accesses (mem->mask: the lanes that accessed; NULL for other
 * instructions). Both engines step warps through ptx_warp_step, so either engine's stream reaches it. */
typedef void (*PtxStepObserver)(void *ctx, const PtxWarp *w, uint32_t pc, uint32_t active,
                                const PtxMemTrace *mem);

typedef struct PtxCta {
  uint32_t ctaid[3];
  uint32_t linear_id;
  uint8_t *shared;
  uint32_t shared_bytes;
  PtxWarp *warps;
  uint32_t nwarps, nthreads;
  uint32_t live_warps;    /* not done (ptx_warp_step counts exits: both engines share it) */
  uint32_t waiting_warps; /* at a barrier */
  uint32_t smid;
  PtxBarrier bars[PTX_MAX_BARRIERS];
  struct PtxLaunch *launch;
} PtxCta;

typedef struct PtxLaunch {
  const PtxModule *mod;
  const PtxFunction *fn;
  uint32_t fn_index;
  PtxDevMem *dev;
  uint32_t grid[3], block[3];
  uint32_t shared_dyn;
  uint8_t *params; /* kernel param buffer (fn->param_bytes) */
  uint32_t nsm;    /* for %nsmid */
  uint64_t ctas_total;
  uint32_t warps_per_cta, threads_per_cta;
  uint32_t shared_per_cta; /* static + dynamic */
  /* Registers per thread this launch allocates (occupancy): fn->regs_per_thread
   * unless the timing engine's configuration overrides it (sm.regs_*), and
   * where that number came from ("ptxas", "liveness", the key that changed it). */
  uint32_t regs_per_thread;
  char regs_source[96];
  /* Device printf output (vprintf, one call of one thread at a time, in execution order);
   * NULL: written to stdout. */
  void (*print)(void *print_ctx, const char *text, size_t len);
  void *print_ctx;
  PtxStepObserver observe; /* NULL: none (the runtime sets it from the context) */
  void *observe_ctx;
} PtxLaunch;

/* Creates a CTA's state (registers, shared, local, SIMT stacks). Returns NULL on OOM. */
PtxCta *ptx_cta_create(PtxLaunch *l, uint32_t linear_id, uint32_t smid);
void ptx_cta_destroy(PtxCta *c);

typedef enum PtxStepResult {
  PTX_STEP_OK = 0,   /* executed; warp may continue */
  PTX_STEP_BARRIER,  /* executed a barrier arrival and now waits (state BARRIER) */
  PTX_STEP_RELEASED, /* executed a barrier arrival that released its CTA's waiters */
  PTX_STEP_DONE,     /* warp finished (all lanes exited) */
  PTX_STEP_FAULT,    /* w->fault describes the error */
} PtxStepResult;

/* Executes the next instruction of warp w. Contract: w->state == READY. */
PtxStepResult ptx_warp_step(PtxWarp *w);
/* PC of the next instruction (PTX_EXIT_PC if done) and its active mask. */
static inline uint32_t ptx_warp_pc(const PtxWarp *w) { return w->sp ? w->stack[w->sp - 1].pc : PTX_EXIT_PC; }
static inline uint32_t ptx_warp_mask(const PtxWarp *w) { return w->sp ? w->stack[w->sp - 1].mask : 0; }
/* Formats a fault as "kernel K: CTA (x,y,z) thread (x,y,z) pc N (file:line: text): message". */
void ptx_fault_describe(const PtxWarp *w, char *buf, size_t len);
/* A warp exits outside a barrier: re-evaluate its CTA's barriers. Returns 1 if some released. */
int ptx_cta_recheck_barriers(PtxCta *c);
/* Appends \" CTA (x,y,z): barrier i has a of b warps (warps ... wait); k of n warps exited;\". Returns bytes
 * written. */
size_t ptx_cta_describe(const PtxCta *c, char *buf, size_t len);
/* For a launch stopped by a limit: appends each unfinished warp of c (at most *budget of them,
 * counted down) as " CTA (x,y,z) warp W at pc N (file:line: op), lanes 0x... active;", and for a
 * warp whose SIMT stack has split, which lanes wait at the reconvergence point for the lanes
 * that loop (an intra-warp spin lock never ends under the pre-Volta SIMT model). */
size_t ptx_cta_describe_running(const PtxCta *c, char *buf, size_t len, uint32_t *budget);

/* ---- register operands of an instruction (scoreboard, liveness) ----
 * Rows are function-relative register rows below the function's nregs
 * (immediate rows are left out); predicates are predicate indices. */
typedef struct PtxOperands {
  uint16_t rd[10], wr[4], prd[3], pwr[2];
  uint8_t nrd, nwr, nprd, npwr;
} PtxOperands;
void ptx_inst_operands(const PtxFunction *f, const PtxInst *in, PtxOperands *o);

#endif
