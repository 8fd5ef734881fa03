/* rr.c - the baseline fetch selection: round-robin after the last fetched warp
 * among warps whose I-buffer is empty (the SM's default; this entry names it). */
#include "policy/warp_sched.h"

static uint32_t rr_select(void *state, const WarpView *views, const uint32_t *eligible, uint32_t n,
                          uint32_t last, uint64_t cycle) {
  (void)state;
  (void)views;
  (void)cycle;
  for (uint32_t i = 0; i < n; i++)
    if (eligible[i] > last) return eligible[i];
  return eligible[0];
}

const FetchPolicy fetch_policy_rr = {.name = "rr", .select = rr_select};
