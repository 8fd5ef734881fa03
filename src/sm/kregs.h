/* kregs.h - registers per thread a launch allocates: the kernel's compiled
 * count (ptxas annotation or liveness estimate) changed by the configuration
 * the way the papers' builds were made (sm.regs_kernel, sm.regs_max_per_thread
 * like nvcc -maxrregcount, sm.regs_alloc_unit as GPGPU-Sim 3.2.2's occupancy
 * rounding). Depends on core/config.h and ptx/ptx.h only. */
#ifndef WS_KREGS_H
#define WS_KREGS_H

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "ptx/ptx.h"

/* Sets L->regs_per_thread and L->regs_source from L->fn and the sm.regs_* keys.
 * Returns 0, or -1 with a message naming the key (a malformed sm.regs_kernel). */
/* Checks the syntax of sm.regs_kernel (at engine creation, before any run). */
int kregs_check(const Config *cfg, char *err, size_t errlen);
int kregs_apply(const Config *cfg, PtxLaunch *L, char *err, size_t errlen);

#endif
