/* config_schema.h - the configuration schema of the whole simulator, assembled by the
 * composition root from every component's parameter table (config_schema.c). */
#ifndef WS_CONFIG_SCHEMA_H
#define WS_CONFIG_SCHEMA_H

#include "core/config.h"

/* An empty configuration over every component's keys (their defaults), or NULL (out of memory). */
Config *cfg_create(void);

#endif
