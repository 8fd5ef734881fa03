/* config.h - the simulator configuration: typed parameters under dotted keys.
 *
 * Invariant: a Config holds exactly the keys of the schema (every component's
 * parameter table, collected in config_schema.c), each with a typed value that
 * passed its type and range checks; unknown keys and bad values are rejected
 * with file:line, never stored. Parameters are declared where they are used
 * (Ramulator style): a component exports a CfgParam table and reads its values
 * back with cfg_int()/cfg_str()/... at creation, never on the hot path.
 * Depends on nothing but libc.
 */
#ifndef WS_CONFIG_H
#define WS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum CfgType {
  CFG_INT,    /* int64; accepts K/M/G (x1024) suffixes, optional trailing B: 16K, 768KB, 0x80 */
  CFG_DOUBLE, /* strtod syntax */
  CFG_BOOL,   /* true/false, yes/no, on/off, 1/0 */
  CFG_STRING, /* rest of the line, optional surrounding quotes */
  CFG_ENUM,   /* one of CfgParam.choices ("a|b|c") */
} CfgType;

/* One parameter. Tables are arrays ending in {0}; `key` is relative to the
 * prefix the table is registered under ("size" under "l1d." -> "l1d.size").
 * Use designated initialisers. A range [min, max] is checked for CFG_INT when
 * min < max; min == max != 0 accepts that one value only (a parameter the model records
 * but cannot vary, e.g. sm.warp_size). */
typedef struct CfgParam {
  const char *key;
  CfgType type;
  const char *def;     /* default, parsed exactly like a file value */
  const char *desc;    /* one line, for the printed config and error messages */
  const char *choices; /* CFG_ENUM only: "a|b|c" */
  int64_t min, max;
} CfgParam;

/* A table registered under a prefix, with optional default overrides
 * ("size=2K assoc=4": the same table serves l1d and l1i with different defaults). */
typedef struct CfgGroup {
  const char *prefix; /* "l1d." (with the dot) or "" */
  const CfgParam *params;
  const char *defaults; /* NULL or space-separated key=value on relative keys */
} CfgGroup;

typedef struct Config Config;

/* Creates a config over an explicit schema; groups end with {0}. The simulator's whole schema
 * is assembled above the core, by the composition root (sim/config_schema.h: cfg_create). */
Config *cfg_create_schema(const CfgGroup *groups);
void cfg_free(Config *cfg);

/* Reads `key = value` lines, `# comments` and `include other.cfg` (relative to
 * the including file). Returns 0, or -1 with cfg_error() set ("file:line: ..."). */
int cfg_load_file(Config *cfg, const char *path);
/* Same, from a string; `name` is the file name used in messages and includes. */
int cfg_load_string(Config *cfg, const char *text, const char *name);
/* Applies one "key=value" override (origin "--set"). Returns 0 or -1. */
int cfg_set(Config *cfg, const char *assignment);
/* The usual order: every file, then every --set override. Returns 0 or -1. */
int cfg_resolve(Config *cfg, const char *const *files, int nfiles, const char *const *sets, int nsets);
const char *cfg_error(const Config *cfg);

/* Getters. The key must exist in the schema with that type: anything else is
 * a programming error and aborts with a message. `prefix` forms "prefix.key". */
int64_t cfg_int(const Config *cfg, const char *key);
double cfg_double(const Config *cfg, const char *key);
bool cfg_bool(const Config *cfg, const char *key);
const char *cfg_str(const Config *cfg, const char *key); /* CFG_STRING and CFG_ENUM */
int64_t cfg_int_in(const Config *cfg, const char *prefix, const char *key);
double cfg_double_in(const Config *cfg, const char *prefix, const char *key);
bool cfg_bool_in(const Config *cfg, const char *prefix, const char *key);
const char *cfg_str_in(const Config *cfg, const char *prefix, const char *key);
bool cfg_has(const Config *cfg, const char *key);

/* Where a key's value came from: "file.cfg:12", "--set" or "default". */
const char *cfg_origin(const Config *cfg, const char *key);
/* Formats "<origin>: <key>: <message>" into err for a value a component
 * rejects (cross-key checks). Always returns -1. */
int cfg_errorf(const Config *cfg, const char *key, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The resolved config, keys sorted: text is `key = value  # description`
 * lines that load back as a config file; JSON is one flat object. */
void cfg_print_text(const Config *cfg, FILE *out);
void cfg_print_json(const Config *cfg, FILE *out);

/* Number of keys, and the i-th key in sorted order (for listings). */
size_t cfg_count(const Config *cfg);
const char *cfg_key_at(const Config *cfg, size_t i);

#endif
