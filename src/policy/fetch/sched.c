/* sched.c - fetch selection delegated to the warp scheduler
 * (`sm.fetch_policy = sched`): the scheduler's fetch_select hook picks among
 * the fetch-eligible warps, so a fetch order can follow the scheduler's own
 * ranking (BAWS's critical-fetch-first). The SM refuses a scheduler without
 * that hook. */
#include "policy/warp_sched.h"

const FetchPolicy fetch_policy_sched = {.name = "sched", .use_scheduler = true};
