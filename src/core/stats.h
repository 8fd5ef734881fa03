/* stats.h - the statistics registry: each statistic is declared once, where its owner emits it
 * (name, unit, aggregation, direction, description), and the same emission feeds every printer:
 * text ("gpu.memory.l1d.reads  123 requests"), JSON (nested objects), and the schema
 * (`warpsim stats --schema`: every statistic's path, unit, aggregation and description).
 * Invariant: a statistic's text name is its JSON path joined by '.', so the two never disagree.
 * Depends on nothing but libc.
 */
#ifndef WS_STATS_H
#define WS_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* How the values of one statistic combine over instances (SMs, slices, channels) or runs. */
typedef enum StatAgg {
  STAT_SUM = 0, /* a count: values add */
  STAT_MEAN,    /* a mean or a rate: the mean of the values (weighted where the owner says) */
  STAT_MAX,     /* a maximum */
  STAT_RATIO,   /* a ratio of two sums: recompute it from its parts, never average it */
  STAT_INFO,    /* a label or a derived setting, not a measurement */
} StatAgg;

/* For a metric: which direction is better (reports use it to mark the best value). */
typedef enum StatBetter { STAT_NEUTRAL = 0, STAT_HIGHER, STAT_LOWER } StatBetter;

/* Printing precision of a real value: digits after the point, or STAT_PREC_G for "%.6g". */
#define STAT_PREC_G (-1)

typedef struct StatDecl {
  const char *name; /* a key: letters, digits, '_' */
  const char *unit; /* "cycles", "warp_insts", "fraction", "" (a plain number) */
  StatAgg agg;
  StatBetter better;
  int prec;         /* real values only */
  const char *desc; /* one line */
} StatDecl;

typedef enum StatsFormat { STATS_TEXT = 0, STATS_JSON, STATS_SCHEMA } StatsFormat;

/* A group or list flag: per-instance detail that only JSON (and the schema) carry. */
#define STATS_DETAIL 1u

typedef struct StatsOut StatsOut;

/* A printer over `out`. Text names start with `root` ("gpu"); JSON writes the root object's
 * value (no key, no newline at the end); the schema writes one JSON object, the statistics' list. */
StatsOut *stats_open(FILE *out, StatsFormat fmt, const char *root);
void stats_close(StatsOut *o); /* closes what is open and frees o (NULL ok) */

/* Nesting: a named member (an object, or a list); inside a list, members have no name (NULL).
 * Each ends with stats_end. `desc` says what the group is (the schema keeps it). */
void stats_group(StatsOut *o, const char *name, unsigned flags, const char *desc);
void stats_list(StatsOut *o, const char *name, unsigned flags, const char *desc);
void stats_end(StatsOut *o);

/* One value of the statistic `d` (inside a list, d->name is ignored in JSON). */
void stats_u64(StatsOut *o, const StatDecl *d, uint64_t v);
void stats_f64(StatsOut *o, const StatDecl *d, double v); /* NaN and infinities print as JSON null */
void stats_str(StatsOut *o, const StatDecl *d, const char *v);
void stats_bool(StatsOut *o, const StatDecl *d, bool v); /* true / false in text and JSON */

/* A member whose value is JSON written by fn (a configuration, not a statistic): JSON only. */
void stats_json_value(StatsOut *o, const char *name, void (*fn)(const void *ctx, FILE *out), const void *ctx);

/* True while writing the schema: an emitter writes one element of a list even when it has none
 * (its values do not matter), so every statistic appears. */
bool stats_schema(const StatsOut *o);

/* Declaring and emitting in one place (compound literals: one declaration per statistic). */
#define STAT_U64(o, name, unit, agg, better, desc, v)                                                        \
  stats_u64((o), &(const StatDecl){(name), (unit), (agg), (better), 0, (desc)}, (v))
#define STAT_F64(o, name, unit, agg, better, prec, desc, v)                                                  \
  stats_f64((o), &(const StatDecl){(name), (unit), (agg), (better), (prec), (desc)}, (v))
#define STAT_STR(o, name, desc, v)                                                                           \
  stats_str((o), &(const StatDecl){(name), "", STAT_INFO, STAT_NEUTRAL, 0, (desc)}, (v))
#define STAT_BOOL(o, name, desc, v)                                                                          \
  stats_bool((o), &(const StatDecl){(name), "", STAT_INFO, STAT_NEUTRAL, 0, (desc)}, (v))

#endif
