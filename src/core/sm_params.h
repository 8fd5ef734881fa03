/* sm_params.h - configuration keys of the SM pipeline (sm.*, sched.*, unit.*).
 * Declared here, ahead of the SM model, so presets and --set can name them;
 * the SM model (src/sm/) will read them and take this table over. The memory
 * system reads sm.count and sm.clock_mhz. Depends on core/config.h. */
#ifndef WS_SM_PARAMS_H
#define WS_SM_PARAMS_H

#include "core/config.h"

extern const CfgParam sm_cfg_params[];    /* under "sm." */
extern const CfgParam sched_cfg_params[]; /* under "sched." */
extern const CfgParam unit_cfg_params[];  /* under "unit." */
extern const CfgParam limit_cfg_params[]; /* under "limit.": per-launch run limits (both engines) */

#endif
