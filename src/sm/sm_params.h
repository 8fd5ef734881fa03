/* sm_params.h - configuration keys of the SM pipeline (sm.*, sched.*, unit.*, limit.*),
 * declared next to the SM model that reads them; the composition root (sim/config_schema.c)
 * puts them in the schema. The memory system reads sm.count and sm.clock_mhz.
 * Depends on core/config.h. */
#ifndef WS_SM_PARAMS_H
#define WS_SM_PARAMS_H

#include "core/config.h"

extern const CfgParam sm_cfg_params[];          /* under "sm." */
extern const CfgParam sched_cfg_params[];       /* under "sched." */
extern const CfgParam sched_issue_cfg_params[]; /* under "sched." */
extern const CfgParam unit_cfg_params[];        /* under "unit." */
extern const CfgParam limit_cfg_params[];       /* under "limit.": per-launch run limits (both engines) */

#endif
