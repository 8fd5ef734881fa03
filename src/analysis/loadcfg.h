/* loadcfg.h - the load control-flow graph of a kernel (the coordinated-bypassing
 * paper's LCFG, section 4): its global loads, the array each touches, and the
 * groups of loads with inter-instruction locality opportunities: two loads
 * are joined when they touch the same array and a path leads from one to the
 * other that crosses no loop and no barrier; groups are the connected
 * components. Static, from the decoded PTX (src/ptx/ptx.h); no timing.
 *
 * Readings (ours, the paper gives none at instruction level):
 *  - a global load is ld/ldu in the .global space (atomics are not loads);
 *  - its array is the kernel parameter its address base comes from: the base
 *    register's definitions are followed through mov, cvta, add and sub
 *    (any definition of a register, flow-insensitively) down to ld.param;
 *    index arithmetic (mul, shl, cvt, mad ...) and loaded values end the walk.
 *    One parameter reached: that array; none or several: unknown (-1), and
 *    the load is a group of its own;
 *  - a path follows fall-through and forward branches (target > pc); a loop
 *    is crossed when the path reaches the target of a backward branch (a loop
 *    header) and a barrier when it reaches bar/barrier; calls fall through.
 */
#ifndef WS_ANALYSIS_LOADCFG_H
#define WS_ANALYSIS_LOADCFG_H

#include <stdint.h>

#include "ptx/ptx.h"

typedef struct LcfgLoad {
  uint32_t pc;    /* kernel-relative (the policies' PC space) */
  int32_t array;  /* index in the kernel's params, -1 unknown */
  uint32_t group; /* 0 .. ngroups-1, numbered in order of first load */
} LcfgLoad;

typedef struct LcfgKernel {
  const char *name; /* the entry function's (owned by the module) */
  uint32_t func;    /* its function index */
  uint32_t nloads, ngroups;
  LcfgLoad *loads;      /* in PC order */
  uint32_t *group_size; /* ngroups */
} LcfgKernel;

/* Builds the LCFG of entry function `func` of m. 0, or -1 (out of memory). */
int lcfg_build(const PtxModule *m, uint32_t func, LcfgKernel *out);
void lcfg_free(LcfgKernel *k);
/* The parameter name of array a of kernel k ("?" unknown). */
const char *lcfg_array_name(const PtxModule *m, const LcfgKernel *k, int32_t a);

#endif
