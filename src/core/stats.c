/* stats.c - the statistics printers: text, JSON and schema over one stream of declared values.
 * See stats.h. A printer keeps only the stack of open groups and lists. */
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STATS_DEPTH 16

typedef struct Frame {
  const char *name; /* NULL for a list element */
  bool list;
  bool detail;    /* this frame or one above is STATS_DETAIL */
  uint32_t count; /* members written so far */
  uint32_t index; /* in a list: the element being written */
} Frame;

struct StatsOut {
  FILE *out;
  StatsFormat fmt;
  const char *root;
  Frame st[STATS_DEPTH];
  int depth;     /* st[0] is the root object */
  bool overflow; /* nesting past STATS_DEPTH: members ignored (an emitter bug) */
  uint32_t nschema;
};

static const char *const agg_names[] = {"sum", "mean", "max", "ratio", "info"};
static const char *const better_names[] = {"", "higher", "lower"};

StatsOut *stats_open(FILE *out, StatsFormat fmt, const char *root) {
  StatsOut *o = calloc(1, sizeof *o);
  if (!o) return NULL;
  o->out = out;
  o->fmt = fmt;
  o->root = root ? root : "";
  o->st[0] = (Frame){.name = o->root};
  if (fmt == STATS_JSON) fputc('{', out);
  if (fmt == STATS_SCHEMA)
    fputs("{\"format\": \"warpsim-stats-schema\", \"version\": 1, \"statistics\": [", out);
  return o;
}

void stats_close(StatsOut *o) {
  if (!o) return;
  while (o->depth > 0) stats_end(o);
  if (o->fmt == STATS_JSON) fputc('}', o->out);
  if (o->fmt == STATS_SCHEMA) fputs("\n]}\n", o->out);
  free(o);
}

bool stats_schema(const StatsOut *o) { return o && o->fmt == STATS_SCHEMA; }

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

/* The member's path ("gpu.kernels[0].cycles"; "[]" for list elements in the schema). */
static void path(const StatsOut *o, const char *name, char *buf, size_t n) {
  size_t len = 0;
  buf[0] = 0;
  for (int i = 0; i <= o->depth && len < n; i++) {
    const Frame *f = &o->st[i];
    if (f->name && f->name[0]) len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "." : "", f->name);
    if (f->list && len < n) {
      if (o->fmt == STATS_SCHEMA)
        len += (size_t)snprintf(buf + len, n - len, "[]");
      else
        len += (size_t)snprintf(buf + len, n - len, "[%u]", f->index);
    }
  }
  if (name && len < n) snprintf(buf + len, n - len, "%s%s", len ? "." : "", name);
}

/* The schema lists each statistic once: only the first element of each list. */
static bool schema_repeat(const StatsOut *o) {
  for (int i = 0; i <= o->depth; i++)
    if (o->st[i].list && o->st[i].index > 0) return true;
  return false;
}

/* Starts a JSON member: the separator and, outside a list, the key. */
static void json_member(StatsOut *o, const char *name, bool container) {
  Frame *f = &o->st[o->depth];
  if (f->count)
    fputs(o->depth == 0 && container ? ",\n " : ", ", o->out);
  else if (o->depth == 0 && container)
    fputs("\n ", o->out);
  if (!f->list) {
    json_string(o->out, name);
    fputs(": ", o->out);
  }
}

/* Registers a member in the current frame; false if it is not written in this format. */
static bool member(StatsOut *o, const char *name, bool container) {
  if (o->overflow) return false;
  Frame *f = &o->st[o->depth];
  bool write = true;
  if (o->fmt == STATS_TEXT && f->detail) write = false;
  if (o->fmt == STATS_JSON) json_member(o, name, container);
  if (f->list) f->index = f->count;
  f->count++;
  return write;
}

static void open_frame(StatsOut *o, const char *name, unsigned flags, const char *desc, bool list) {
  if (o->depth + 1 >= STATS_DEPTH) {
    o->overflow = true;
    o->depth++;
    return;
  }
  Frame *parent = &o->st[o->depth];
  bool in_list = parent->list;
  member(o, name, true);
  if (o->fmt == STATS_JSON) fputc(list ? '[' : '{', o->out);
  if (o->fmt == STATS_SCHEMA && !schema_repeat(o) && name && !in_list) {
    char p[512];
    path(o, name, p, sizeof p);
    fprintf(o->out, "%s\n {\"name\": ", o->nschema++ ? "," : "");
    json_string(o->out, p);
    fprintf(o->out, ", \"type\": \"%s\", \"description\": ", list ? "list" : "group");
    json_string(o->out, desc ? desc : "");
    fprintf(o->out, "%s}", flags & STATS_DETAIL ? ", \"detail\": true" : "");
  }
  o->depth++;
  o->st[o->depth] = (Frame){
      .name = in_list ? NULL : name, .list = list, .detail = parent->detail || (flags & STATS_DETAIL)};
}

void stats_group(StatsOut *o, const char *name, unsigned flags, const char *desc) {
  if (o) open_frame(o, name, flags, desc, false);
}
void stats_list(StatsOut *o, const char *name, unsigned flags, const char *desc) {
  if (o) open_frame(o, name, flags, desc, true);
}

void stats_end(StatsOut *o) {
  if (!o || o->depth == 0) return;
  if (o->depth >= STATS_DEPTH) {
    if (--o->depth < STATS_DEPTH) o->overflow = false;
    return;
  }
  if (o->fmt == STATS_JSON) fputc(o->st[o->depth].list ? ']' : '}', o->out);
  o->depth--;
}

void stats_json_value(StatsOut *o, const char *name, void (*fn)(const void *ctx, FILE *out),
                      const void *ctx) {
  if (!o || o->fmt != STATS_JSON || !member(o, name, true)) return;
  fn(ctx, o->out);
}

/* The schema's entry for one statistic. */
static void schema_entry(StatsOut *o, const StatDecl *d, const char *type) {
  if (schema_repeat(o)) return;
  char p[512];
  path(o, o->st[o->depth].list ? NULL : d->name, p, sizeof p);
  fprintf(o->out, "%s\n {\"name\": ", o->nschema++ ? "," : "");
  json_string(o->out, p);
  fprintf(o->out, ", \"type\": \"%s\", \"unit\": ", type);
  json_string(o->out, d->unit ? d->unit : "");
  fprintf(o->out, ", \"aggregation\": \"%s\", \"better\": \"%s\", \"description\": ", agg_names[d->agg],
          better_names[d->better]);
  json_string(o->out, d->desc ? d->desc : "");
  fputc('}', o->out);
}

/* The text line's name column and, after the value, its unit. */
static void text_name(StatsOut *o, const StatDecl *d) {
  char p[512];
  path(o, o->st[o->depth].list ? NULL : d->name, p, sizeof p);
  fprintf(o->out, "%-44s ", p);
}
static void text_unit(StatsOut *o, const StatDecl *d) {
  if (d->unit && d->unit[0]) fprintf(o->out, " %s", d->unit);
  fputc('\n', o->out);
}

void stats_u64(StatsOut *o, const StatDecl *d, uint64_t v) {
  if (!o || !member(o, d->name, false)) return;
  if (o->fmt == STATS_SCHEMA) {
    schema_entry(o, d, "u64");
    return;
  }
  if (o->fmt == STATS_TEXT) text_name(o, d);
  fprintf(o->out, "%llu", (unsigned long long)v);
  if (o->fmt == STATS_TEXT) text_unit(o, d);
}

void stats_f64(StatsOut *o, const StatDecl *d, double v) {
  if (!o || !member(o, d->name, false)) return;
  if (o->fmt == STATS_SCHEMA) {
    schema_entry(o, d, "f64");
    return;
  }
  if (o->fmt == STATS_TEXT) text_name(o, d);
  if (!isfinite(v))
    fputs(o->fmt == STATS_JSON ? "null" : "nan", o->out);
  else if (d->prec < 0)
    fprintf(o->out, "%.6g", v);
  else
    fprintf(o->out, "%.*f", d->prec, v);
  if (o->fmt == STATS_TEXT) text_unit(o, d);
}

void stats_bool(StatsOut *o, const StatDecl *d, bool v) {
  if (!o || !member(o, d->name, false)) return;
  if (o->fmt == STATS_SCHEMA) {
    schema_entry(o, d, "bool");
    return;
  }
  if (o->fmt == STATS_TEXT) text_name(o, d);
  fputs(v ? "true" : "false", o->out);
  if (o->fmt == STATS_TEXT) fputc('\n', o->out);
}

void stats_str(StatsOut *o, const StatDecl *d, const char *v) {
  if (!o || !member(o, d->name, false)) return;
  if (o->fmt == STATS_SCHEMA) {
    schema_entry(o, d, "str");
    return;
  }
  if (o->fmt == STATS_TEXT) {
    text_name(o, d);
    fprintf(o->out, "%s\n", v ? v : "");
    return;
  }
  json_string(o->out, v ? v : "");
}
