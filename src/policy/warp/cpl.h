/* cpl.h - CAWA's criticality predictor (CPL; Lee et al., ISCA'15, section
 * 3.1; spec: shared/spec/policies.md section 3), one instance per SM, fed
 * by the warp-plugin hooks of whoever embeds it: the gcaws scheduler, or the
 * `cpl` SM observer beside any other scheduler (so CACP can read the critical
 * bit under lrr, gto or two-level).
 *
 * Per warp slot: nCrit = nInst * CPI_avg + nStall, where
 *   nInst  starts at 0; a taken backward branch adds the block it jumps back
 *          over ((pc - target) + 1 instructions), a taken forward branch
 *          subtracts the instructions it skips ((target - pc) - 1), and every
 *          issued (committed) instruction subtracts 1;
 *   CPI_avg = cycles since the warp's launch / its committed instructions
 *          (1 before its first); the product is taken in integers,
 *          nInst * elapsed / committed, truncated toward zero;
 *   nStall accumulates (cycles between two consecutive issues) - 1, the first
 *          issue counting from the launch.
 * PCs are instruction indices (policy_env.h), so the instruction size is 1.
 *
 * The critical warp: `critical = cta_max` (the unfinished warp of its CTA with
 * the largest nCrit, ties to the lower slot) or `sm_threshold` (nCrit
 * normalised to [0, 1] over the SM's unfinished warps is above 0.5).
 *
 * Statistics (the paper's Figures 11, 12, 14, 15), all measured from the
 * hooks, so they mean the same under every scheduler:
 *  - accuracy (Fig. 11): every `sample_period` cycles each unfinished warp is
 *    classed "slow" when its nCrit ranks at or above half of its CTA's
 *    unfinished warps (strictly lower nCrit counted: lower * 2 >= n - 1).
 *    When a CTA exits, its critical warp is the one that finished last (the
 *    longest execution time: the CTA's warps launch together); its slow
 *    samples / samples are added up. accuracy = the sums' ratio.
 *  - crit_l1d_hit_rate (Fig. 14): L1D line requests of loads made by a warp
 *    predicted critical at that moment: hits / (hits + misses + merges +
 *    bypasses).
 *  - zero-reuse critical lines (Fig. 15): lines allocated by a miss of a warp
 *    predicted critical; at their eviction (replacement or invalidation),
 *    those that saw no hit (by any warp) since the fill.
 *  - a priority series (Fig. 12, `priority_file`): on SM 0, the first CTA of
 *    the first kernel: at every sample, each warp's rank by nCrit in its CTA
 *    (0 lowest); when the CTA exits, the series of its last-finishing warp is
 *    written as "cycle rank" lines.
 *  - instruction-count disparity (Fig. 2b): per CTA, (most - fewest) / most
 *    warp instructions issued by its warps; mean and maximum over CTAs.
 *  - critical-warp re-references (Fig. 3): an L1D line request (hit, miss or
 *    merge) of a warp to a line the same warp requested before in this kernel
 *    is a re-reference; made while the warp is predicted critical, it counts,
 *    and a miss means the line was evicted before the warp came back to it.
 *    The reuse distance is the L1D line requests of the SM in between (bins
 *    of powers of 4). The (warp, line) history is a direct-mapped table of
 *    `reuse_history` entries (0, the default: off, these statistics are not
 *    reported; they cost host time on every L1D request): a collision
 *    forgets the older pair (its next request is not counted).
 *  - scheduler wait of the critical warp (Fig. 4): the cycles the CTA's
 *    last-finishing warp was ready while its scheduler issued another warp
 *    (WarpView.sched_wait, which the embedding plugin asks the SM to keep),
 *    over its execution time and over its stall cycles (nStall).
 */
#ifndef WS_POLICY_CPL_H
#define WS_POLICY_CPL_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/warp_sched.h"

typedef enum CplCriticalMode { CPL_CTA_MAX = 0, CPL_SM_THRESHOLD } CplCriticalMode;

typedef struct CplWarp {
  int64_t ninst;
  uint64_t committed, launch, last_issue, nstall;
  uint64_t samples, slow_samples; /* accuracy samples of this warp */
  uint64_t exit_cycle;
  uint32_t sched_wait; /* WarpView.sched_wait at its last issue */
  uint32_t gen;        /* launches of this slot (the re-reference history's key) */
  uint32_t cta_slot;
  uint8_t valid;
} CplWarp;

typedef struct CplLine {
  uint64_t addr;
  uint8_t used, reused;
} CplLine;
typedef struct CplThreshold {
  uint64_t at; /* now + 1 of lo and hi; 0: none */
  int64_t lo, hi;
} CplThreshold; /* sm_threshold: the SM's nCrit range at one cycle */
typedef struct CplRef {
  uint64_t line, seq;
  uint32_t slot, gen;
} CplRef;                /* a warp's last request to a line */
#define CPL_REUSE_BINS 8 /* reuse distance < 16, 64, 256, 1K, 4K, 16K, 64K, more */

typedef struct Cpl {
  uint32_t nslots, max_ctas, sm;
  CplCriticalMode mode;
  uint64_t period, next_sample;
  uint64_t now; /* the latest cycle a hook told */
  CplWarp *w;
  int64_t *tmp;      /* nslots scratch values */
  uint32_t *srt;     /* nslots scratch slots (a sample's sorted CTA) */
  uint32_t words;    /* 64-slot words of the masks */
  uint64_t *live;    /* the slots with an unfinished warp (valid) */
  uint64_t *members; /* [cta slot * words]: its unfinished warps (cta_slot < max_ctas) */
  uint32_t stray;    /* unfinished warps whose cta_slot is out of range (in no members) */
  /* per CTA slot: the warp that exited last and when (accuracy) */
  uint32_t *cta_last;
  uint64_t *cta_last_exit;
  uint64_t *cta_launch; /* its launch cycle (the CTA's warps at its exit: launched since) */
  /* statistics */
  uint64_t acc_samples, acc_slow, ctas_scored;
  uint64_t crit_hits, crit_accesses, all_accesses;
  uint64_t crit_fills, crit_evicted, crit_zero_reuse, untracked;
  uint64_t crit_requests;                                 /* memory instructions annotated critical */
  uint64_t insn_disp_sum_e6, insn_disp_max_e6, insn_ctas; /* Fig. 2b, in millionths */
  uint64_t crit_wait, crit_time, crit_stall;              /* Fig. 4: CTAs' last warps */
  uint64_t all_wait, all_time;                            /* ... and every warp */
  uint64_t l1_seq;                                        /* L1D line requests seen (reuse distance) */
  uint64_t reref, reref_miss, crit_reref, crit_reref_miss;
  uint64_t reuse_hist[CPL_REUSE_BINS], reuse_miss_hist[CPL_REUSE_BINS]; /* critical re-references */
  CplRef *hist;   /* reuse_history entries (NULL: off) */
  uint32_t hmask; /* entries - 1 */
  /* critical lines in flight: open addressing on the line address */
  CplLine *lines;                 /* CPL_LINES entries, of which lmask + 1 in use */
  CplLine *lspare;                /* line_grow's scratch */
  uint32_t lmask, lcount, lsize0; /* lsize0: the size at each kernel's start */
  /* nCrit kept for one cycle, and hints (cpl_crit_memo, cpl_is_critical): written through const */
  int64_t *cv;     /* per slot: nCrit at cv_at - 1 */
  uint64_t *cv_at; /* per slot: now + 1 of cv; 0 none */
  uint32_t *top;   /* per CTA slot: the warp last found critical or beating another (UINT32_MAX) */
  CplThreshold *thr;
  /* the priority series (SM 0 only, when a file is named) */
  char *series_path;
  PolicyGpu *gpu;
  int series_out;         /* its policy_out handle */
  int series_state;       /* 0 waiting for the first CTA, 1 recording, 2 written */
  uint32_t series_cta;    /* its CTA slot */
  uint64_t series_kernel; /* its kernel launch index */
  uint32_t series_n, series_cap;
  uint64_t *series_cycle; /* series_cap samples */
  uint8_t *series_rank;   /* series_cap x nslots ranks (255: not in the CTA) */
  int series_failed;
} Cpl;

/* The CPL keys, shared by every plugin that embeds it (under its prefix):
 * critical, sample_period, reuse_history, priority_file. */
extern const CfgParam cpl_params[];

/* Reads the keys under `prefix`; 0 or -1 with err set. */
int cpl_init(Cpl *c, const WarpSchedEnv *env, char *err, size_t errlen);
void cpl_free(Cpl *c);
/* Whether it writes the priority series (an output file of the GPU) during the run. */
bool cpl_shares_state(const Cpl *c);

/* The hooks' work (call from the embedding plugin's hooks). */
void cpl_event(Cpl *c, const SchedEvent *ev);
void cpl_issue(Cpl *c, const WarpView *v, const SchedIssue *is);
void cpl_tick(Cpl *c, uint64_t cycle);
uint64_t cpl_next_tick(const Cpl *c, uint64_t now);
/* Sets MEM_HINT_CRITICAL when the issuing warp is critical now (the latest
 * cycle any hook has told: annotate has no cycle of its own). */
void cpl_annotate(Cpl *c, const WarpView *v, SchedMemAnnot *m);
void cpl_stats(const Cpl *c, PolicyStats *out);

/* nCrit of a slot at `now` (0 for an empty slot). */
int64_t cpl_crit(const Cpl *c, uint32_t slot, uint64_t now);

/* cpl_crit, kept per slot until time moves or the warp issues (the hot callers' form). The
 * arrays are written through the const pointer: a cache of cpl_crit, invisible to the callers. */
static inline int64_t cpl_crit_memo(const Cpl *c, uint32_t slot, uint64_t now) {
  if (slot >= c->nslots) return 0;
  if (c->cv_at[slot] == now + 1) return c->cv[slot];
  const int64_t v = cpl_crit(c, slot, now);
  c->cv[slot] = v;
  c->cv_at[slot] = now + 1;
  return v;
}
/* Whether the warp in `slot` is critical at `now` (mode as configured). */
bool cpl_is_critical(const Cpl *c, uint32_t slot, uint64_t now);

#endif
