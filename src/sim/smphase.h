/* smphase.h - one cycle's SM phase on the engine's worker team (sim.threads): the SMs due run
 * at once, each logging its warps' global accesses and printf output (ptx.h: PtxDefer), and the
 * logs are then committed in SM order, so memory and the output see the serial order exactly.
 * Also the adaptive choice, by measured speed, between the team and the calling thread. The
 * engine (gpu.c) decides which SMs are due and notes them afterwards. */
#ifndef WS_SMPHASE_H
#define WS_SMPHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm/sm.h"

typedef struct SmPhase SmPhase;

/* A team of `threads` (>= 2) for the nsm SMs; adaptive: sim.adaptive. NULL when a thread cannot be
 * started or memory runs out. */
SmPhase *smphase_create(Sm **sms, uint32_t nsm, uint32_t threads, bool adaptive);
void smphase_free(SmPhase *p);
uint32_t smphase_threads(const SmPhase *p);
/* Around a launch: the SMs count their progress on their own and, while the team runs them, log
 * their global accesses (begin; errlen: the size of the engine's error buffer; -1 when out of
 * memory), then perform them at issue again and count into `progress` (end, which adds what is
 * left). */
int smphase_begin(SmPhase *p, size_t errlen);
void smphase_end(SmPhase *p, uint64_t *progress);
/* Side task `task` of a phase (smphase_run). */
typedef void (*SmSideFn)(void *ctx, uint32_t task);
/* Simulates cycle `now` of SMs run[0..n) (ascending) and commits their logs in that order.
 * Returns n, or the position of the first SM whose cycle failed, with its message in err (the
 * logs after it are dropped: a serial run never simulated those SMs). side (NULL: none) is work
 * that shares nothing with the SMs' cycles, in nside tasks that share nothing with each other:
 * while the team runs the phase, its members run side(side_ctx, 0..nside-1) besides the SMs
 * (*side_ran true); alone, none is run (*side_ran false). */
uint32_t smphase_run(SmPhase *p, const uint32_t *run, uint32_t n, uint64_t now, SmSideFn side, void *side_ctx,
                     uint32_t nside, bool *side_ran, char *err, size_t errlen);
/* Adds the SMs' progress counts (sm_count_progress) since the last call to *sum. */
void smphase_progress(SmPhase *p, uint64_t *sum);

#endif
