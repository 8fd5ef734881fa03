/* config.c - parsing, checking and printing of the simulator configuration.
 * Files are `key = value` lines with `#` comments and `include path`; values are
 * checked against the schema's types and ranges as they are read. Depends on
 * libc only (the schema itself lives in config_schema.c).
 */
#include "core/config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CFG_MAX_INCLUDE_DEPTH 16
#define CFG_ERR_LEN 4096

typedef struct CfgEntry {
  char *key; /* full dotted key */
  const CfgParam *param;
  union {
    int64_t i;
    double d;
    bool b;
  } v;
  char *s;      /* CFG_STRING / CFG_ENUM value */
  char *origin; /* "file:line", "--set" or "default" */
} CfgEntry;

struct Config {
  CfgEntry *entries; /* sorted by key */
  size_t n;
  char err[CFG_ERR_LEN];
};

static const char *cfg_type_name(CfgType t) {
  switch (t) {
  case CFG_INT:
    return "int";
  case CFG_DOUBLE:
    return "double";
  case CFG_BOOL:
    return "bool";
  case CFG_STRING:
    return "string";
  case CFG_ENUM:
    return "enum";
  }
  return "?";
}

static char *cfg_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (!d) {
    fprintf(stderr, "config: out of memory\n");
    abort();
  }
  memcpy(d, s, n);
  return d;
}

static void cfg_set_origin(CfgEntry *e, const char *origin) {
  free(e->origin);
  e->origin = cfg_strdup(origin);
}

static int cfg_entry_cmp(const void *a, const void *b) {
  return strcmp(((const CfgEntry *)a)->key, ((const CfgEntry *)b)->key);
}

static CfgEntry *cfg_find(const Config *cfg, const char *key) {
  CfgEntry probe = {.key = (char *)key};
  return bsearch(&probe, cfg->entries, cfg->n, sizeof *cfg->entries, cfg_entry_cmp);
}

/* ---- value parsing ---- */

static const char *cfg_skip_space(const char *s) {
  while (*s && isspace((unsigned char)*s)) s++;
  return s;
}

/* Integers take an optional K/M/G multiplier (powers of 1024) and an optional
 * trailing 'B', so sizes read naturally ("16K", "768KB"); overflow is an error. */
static int cfg_parse_int(const char *text, int64_t *out) {
  errno = 0;
  char *end;
  long long v = strtoll(text, &end, 0);
  if (end == text || errno == ERANGE) return -1;
  int64_t mul = 1;
  switch (toupper((unsigned char)*end)) {
  case 'K':
    mul = 1024;
    end++;
    break;
  case 'M':
    mul = 1024 * 1024;
    end++;
    break;
  case 'G':
    mul = 1024 * 1024 * 1024;
    end++;
    break;
  default:
    break;
  }
  if (mul != 1 && toupper((unsigned char)*end) == 'B') end++;
  if (*cfg_skip_space(end)) return -1;
  if (v > INT64_MAX / mul || v < INT64_MIN / mul) return -1;
  *out = (int64_t)v * mul;
  return 0;
}

static int cfg_parse_bool(const char *t, bool *out) {
  static const char *yes[] = {"true", "yes", "on", "1"}, *no[] = {"false", "no", "off", "0"};
  for (int i = 0; i < 4; i++) {
    if (!strcasecmp(t, yes[i])) return *out = true, 0;
    if (!strcasecmp(t, no[i])) return *out = false, 0;
  }
  return -1;
}

static bool cfg_enum_has(const char *choices, const char *v) {
  size_t n = strlen(v);
  for (const char *c = choices; c && *c;) {
    const char *bar = strchr(c, '|');
    size_t len = bar ? (size_t)(bar - c) : strlen(c);
    if (len == n && !strncmp(c, v, n)) return true;
    c = bar ? bar + 1 : NULL;
  }
  return false;
}

/* Parses `text` into entry e. On failure writes the reason into why. */
static int cfg_parse_value(CfgEntry *e, const char *text, char *why, size_t whylen) {
  const CfgParam *p = e->param;
  switch (p->type) {
  case CFG_INT: {
    int64_t v;
    if (cfg_parse_int(text, &v)) {
      snprintf(why, whylen, "expected an integer (optional K/M/G suffix)");
      return -1;
    }
    if (p->min == p->max && p->min != 0 &&
        v != p->min) { /* a fixed value: the key records it, nothing varies it */
      snprintf(why, whylen, "only %lld is supported", (long long)p->min);
      return -1;
    }
    if (p->min < p->max && (v < p->min || v > p->max)) {
      snprintf(why, whylen, "out of range [%lld, %lld]", (long long)p->min, (long long)p->max);
      return -1;
    }
    e->v.i = v;
    return 0;
  }
  case CFG_DOUBLE: {
    errno = 0;
    char *end;
    double d = strtod(text, &end);
    if (end == text || *cfg_skip_space(end) || errno == ERANGE || !isfinite(d)) {
      snprintf(why, whylen, "expected a finite number");
      return -1;
    }
    e->v.d = d;
    return 0;
  }
  case CFG_BOOL:
    if (cfg_parse_bool(text, &e->v.b)) {
      snprintf(why, whylen, "expected true or false");
      return -1;
    }
    return 0;
  case CFG_ENUM:
    if (!cfg_enum_has(p->choices, text)) {
      snprintf(why, whylen, "expected one of %s", p->choices);
      return -1;
    }
    /* fall through */
  case CFG_STRING:
    free(e->s);
    e->s = cfg_strdup(text);
    return 0;
  }
  return -1;
}

/* ---- schema ---- */

static void cfg_internal(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "config schema error: ");
  fprintf(stderr, fmt, a, b);
  fprintf(stderr, "\n");
  abort();
}

/* Applies a group's "k=v k=v" default overrides (relative keys). */
static void cfg_apply_group_defaults(Config *cfg, const CfgGroup *g) {
  if (!g->defaults) return;
  char *copy = cfg_strdup(g->defaults), *save = NULL;
  for (char *tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq) cfg_internal("bad default override '%s' in group '%s'", tok, g->prefix);
    *eq = 0;
    char key[256], why[256];
    snprintf(key, sizeof key, "%s%s", g->prefix, tok);
    CfgEntry *e = cfg_find(cfg, key);
    if (!e) cfg_internal("default override for unknown key '%s'%s", key, "");
    if (cfg_parse_value(e, eq + 1, why, sizeof why)) cfg_internal("bad default for '%s': %s", key, why);
  }
  free(copy);
}

Config *cfg_create_schema(const CfgGroup *groups) {
  Config *cfg = calloc(1, sizeof *cfg);
  if (!cfg) return NULL;
  size_t n = 0;
  for (const CfgGroup *g = groups; g->params; g++)
    for (const CfgParam *p = g->params; p->key; p++) n++;
  cfg->entries = calloc(n ? n : 1, sizeof *cfg->entries);
  for (const CfgGroup *g = groups; g->params; g++) {
    for (const CfgParam *p = g->params; p->key; p++) {
      CfgEntry *e = &cfg->entries[cfg->n++];
      size_t len = strlen(g->prefix) + strlen(p->key) + 1;
      e->key = malloc(len);
      snprintf(e->key, len, "%s%s", g->prefix, p->key);
      e->param = p;
    }
  }
  qsort(cfg->entries, cfg->n, sizeof *cfg->entries, cfg_entry_cmp);
  for (size_t i = 1; i < cfg->n; i++)
    if (!strcmp(cfg->entries[i].key, cfg->entries[i - 1].key))
      cfg_internal("key '%s' declared twice%s", cfg->entries[i].key, "");
  char why[256];
  for (size_t i = 0; i < cfg->n; i++) {
    CfgEntry *e = &cfg->entries[i];
    if (cfg_parse_value(e, e->param->def ? e->param->def : "", why, sizeof why))
      cfg_internal("bad default for '%s': %s", e->key, why);
    cfg_set_origin(e, "default");
  }
  for (const CfgGroup *g = groups; g->params; g++) cfg_apply_group_defaults(cfg, g);
  return cfg;
}

void cfg_free(Config *cfg) {
  if (!cfg) return;
  for (size_t i = 0; i < cfg->n; i++) {
    free(cfg->entries[i].key);
    free(cfg->entries[i].s);
    free(cfg->entries[i].origin);
  }
  free(cfg->entries);
  free(cfg);
}

const char *cfg_error(const Config *cfg) { return cfg->err; }
size_t cfg_count(const Config *cfg) { return cfg->n; }
const char *cfg_key_at(const Config *cfg, size_t i) { return i < cfg->n ? cfg->entries[i].key : NULL; }
bool cfg_has(const Config *cfg, const char *key) { return cfg_find(cfg, key) != NULL; }

static void cfg_fmt_value(const CfgEntry *e, char *buf, size_t n);

/* ---- unknown-key messages ---- */

static size_t cfg_edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64) return SIZE_MAX;
  size_t row[65];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* Appends to buf without overflowing; keeps it NUL-terminated. */
static void cfg_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cfg_append(char *buf, size_t len, const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used + 1 >= len) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}

/* An unknown key is answered with the closest keys by edit distance and the
 * valid keys of its section (the part before the first dot), or the list of
 * sections when the section itself is unknown. */
static void cfg_unknown_key(Config *cfg, const char *where, const char *key) {
  snprintf(cfg->err, sizeof cfg->err, "%s: unknown key '%s'", where, key);
  size_t maxd = strlen(key) / 3 > 2 ? strlen(key) / 3 : 2, shown = 0;
  for (size_t d = 0; d <= maxd && shown < 5; d++) /* 0: differs only in case */
    for (size_t i = 0; i < cfg->n && shown < 5; i++)
      if (cfg_edit_distance(key, cfg->entries[i].key) == d)
        cfg_append(cfg->err, sizeof cfg->err, "%s%s", shown++ ? ", " : " (did you mean ",
                   cfg->entries[i].key);
  if (shown) cfg_append(cfg->err, sizeof cfg->err, "?)");
  const char *dot = strchr(key, '.');
  size_t seclen = dot ? (size_t)(dot - key) + 1 : 0;
  size_t insec = 0;
  for (size_t i = 0; i < cfg->n && seclen; i++)
    if (!strncmp(cfg->entries[i].key, key, seclen)) insec++;
  if (insec) {
    cfg_append(cfg->err, sizeof cfg->err, "; valid keys under '%.*s': ", (int)seclen, key);
    size_t k = 0;
    for (size_t i = 0; i < cfg->n; i++)
      if (!strncmp(cfg->entries[i].key, key, seclen))
        cfg_append(cfg->err, sizeof cfg->err, "%s%s", k++ ? ", " : "", cfg->entries[i].key);
  } else {
    cfg_append(cfg->err, sizeof cfg->err, "; valid sections: ");
    const char *last = NULL;
    size_t lastlen = 0, k = 0;
    for (size_t i = 0; i < cfg->n; i++) {
      const char *kk = cfg->entries[i].key, *d = strchr(kk, '.');
      size_t l = d ? (size_t)(d - kk) : strlen(kk);
      if (last && l == lastlen && !strncmp(last, kk, l)) continue;
      cfg_append(cfg->err, sizeof cfg->err, "%s%.*s", k++ ? ", " : "", (int)l, kk);
      last = kk, lastlen = l;
    }
  }
}

/* ---- assignment and files ---- */

static char *cfg_trim(char *s) {
  while (*s && isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
  return s;
}

/* key and value are trimmed; `where` is "file:line" or "--set". */
static int cfg_assign(Config *cfg, const char *where, const char *key, char *value) {
  CfgEntry *e = cfg_find(cfg, key);
  if (!e) {
    cfg_unknown_key(cfg, where, key);
    return -1;
  }
  size_t vl = strlen(value);
  if (vl >= 2 && ((value[0] == '"' && value[vl - 1] == '"') || (value[0] == '\'' && value[vl - 1] == '\''))) {
    value[vl - 1] = 0;
    value++;
  }
  if (!*value) {
    snprintf(cfg->err, sizeof cfg->err, "%s: %s: missing value", where, key);
    return -1;
  }
  char why[512];
  if (cfg_parse_value(e, value, why, sizeof why)) {
    snprintf(cfg->err, sizeof cfg->err, "%s: bad value '%s' for %s (%s): %s", where, value, key,
             cfg_type_name(e->param->type), why);
    return -1;
  }
  cfg_set_origin(e, where);
  return 0;
}

/* Reads a whole configuration file. Only regular files of at most CFG_MAX_FILE bytes:
 * a directory would read as empty, /dev/zero would never end, a FIFO would block (it is
 * opened non-blocking and rejected). NULL with errno set otherwise. */
#define CFG_MAX_FILE (16u << 20)
static char *cfg_read_file(const char *path) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  int e = fstat(fd, &st)                     ? errno
          : S_ISDIR(st.st_mode)              ? EISDIR
          : !S_ISREG(st.st_mode)             ? EINVAL
          : st.st_size > (off_t)CFG_MAX_FILE ? EFBIG
                                             : 0;
  if (e) {
    close(fd);
    errno = e;
    return NULL;
  }
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *buf = malloc(cap);
  if (!buf) {
    close(fd);
    errno = ENOMEM;
    return NULL;
  }
  for (ssize_t r; n + 1 < cap && (r = read(fd, buf + n, cap - 1 - n)) != 0;) {
    if (r < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      free(buf);
      close(fd);
      errno = e;
      return NULL;
    }
    n += (size_t)r;
  }
  close(fd);
  buf[n] = 0;
  if (memchr(buf, 0, n)) { /* the text would end there and the rest be ignored unseen */
    free(buf);
    errno = EILSEQ;
    return NULL;
  }
  return buf;
}

/* Why a file could not be read, for messages (EINVAL: not a regular file). */
static const char *cfg_read_error(int e) {
  return e == EINVAL   ? "not a regular file"
         : e == EFBIG  ? "larger than 16 MiB"
         : e == EILSEQ ? "holds a NUL byte (not a text file)"
                       : strerror(e);
}

static int cfg_load_text(Config *cfg, const char *text, const char *name, int depth);

/* `include x.cfg` is relative to the directory of the including file. */
static int cfg_include(Config *cfg, const char *where, const char *from, const char *target, int depth) {
  /* where < 1024 and path < 2048 bytes: messages fit cfg->err */
  if (depth >= CFG_MAX_INCLUDE_DEPTH) {
    snprintf(cfg->err, sizeof cfg->err, "%s: include nesting deeper than %d (include cycle?)", where,
             CFG_MAX_INCLUDE_DEPTH);
    return -1;
  }
  char path[2048];
  const char *slash = strrchr(from, '/');
  if (target[0] == '/' || !slash)
    snprintf(path, sizeof path, "%.2000s", target);
  else
    snprintf(path, sizeof path, "%.*s/%.1000s", (int)(slash - from) < 1000 ? (int)(slash - from) : 1000, from,
             target);
  char *text = cfg_read_file(path);
  if (!text) {
    snprintf(cfg->err, sizeof cfg->err, "%s: include: cannot open '%s': %s", where, path,
             cfg_read_error(errno));
    return -1;
  }
  int rc = cfg_load_text(cfg, text, path, depth + 1);
  free(text);
  return rc;
}

static int cfg_load_text(Config *cfg, const char *text, const char *name, int depth) {
  char *copy = cfg_strdup(text);
  int rc = 0, lineno = 0;
  for (char *line = copy, *next; line && rc == 0; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *s = cfg_trim(line);
    if (!*s) continue;
    char where[1024];
    snprintf(where, sizeof where, "%.1000s:%d", name, lineno);
    if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
      char *target = cfg_trim(s + 7);
      size_t tl = strlen(target);
      if (tl >= 2 && target[0] == '"' && target[tl - 1] == '"') target[tl - 1] = 0, target++;
      rc = cfg_include(cfg, where, name, target, depth);
      continue;
    }
    char *eq = strchr(s, '=');
    if (!eq) {
      snprintf(cfg->err, sizeof cfg->err, "%s: expected 'key = value' or 'include file', got '%s'", where, s);
      rc = -1;
      break;
    }
    *eq = 0;
    rc = cfg_assign(cfg, where, cfg_trim(s), cfg_trim(eq + 1));
  }
  free(copy);
  return rc;
}

int cfg_load_string(Config *cfg, const char *text, const char *name) {
  cfg->err[0] = 0;
  return cfg_load_text(cfg, text, name, 0);
}

int cfg_load_file(Config *cfg, const char *path) {
  cfg->err[0] = 0;
  char *text = cfg_read_file(path);
  if (!text) {
    snprintf(cfg->err, sizeof cfg->err, "cannot open config '%s': %s", path, cfg_read_error(errno));
    return -1;
  }
  int rc = cfg_load_text(cfg, text, path, 0);
  free(text);
  return rc;
}

int cfg_set(Config *cfg, const char *assignment) {
  cfg->err[0] = 0;
  char *copy = cfg_strdup(assignment);
  char *eq = strchr(copy, '=');
  int rc;
  if (!eq) {
    snprintf(cfg->err, sizeof cfg->err, "--set: expected key=value, got '%s'", assignment);
    rc = -1;
  } else {
    *eq = 0;
    rc = cfg_assign(cfg, "--set", cfg_trim(copy), cfg_trim(eq + 1));
  }
  free(copy);
  return rc;
}

int cfg_resolve(Config *cfg, const char *const *files, int nfiles, const char *const *sets, int nsets) {
  for (int i = 0; i < nfiles; i++)
    if (cfg_load_file(cfg, files[i])) return -1;
  for (int i = 0; i < nsets; i++)
    if (cfg_set(cfg, sets[i])) return -1;
  return 0;
}

/* ---- getters ---- */

static const CfgEntry *cfg_get(const Config *cfg, const char *key, CfgType t1, CfgType t2) {
  const CfgEntry *e = cfg_find(cfg, key);
  if (!e) {
    fprintf(stderr, "config: internal error: key '%s' is not in the schema\n", key);
    abort();
  }
  if (e->param->type != t1 && e->param->type != t2) {
    fprintf(stderr, "config: internal error: key '%s' is %s, read as %s\n", key,
            cfg_type_name(e->param->type), cfg_type_name(t1));
    abort();
  }
  return e;
}

int64_t cfg_int(const Config *cfg, const char *key) { return cfg_get(cfg, key, CFG_INT, CFG_INT)->v.i; }
double cfg_double(const Config *cfg, const char *key) {
  return cfg_get(cfg, key, CFG_DOUBLE, CFG_DOUBLE)->v.d;
}
bool cfg_bool(const Config *cfg, const char *key) { return cfg_get(cfg, key, CFG_BOOL, CFG_BOOL)->v.b; }
const char *cfg_str(const Config *cfg, const char *key) { return cfg_get(cfg, key, CFG_STRING, CFG_ENUM)->s; }

#define CFG_JOIN(buf, prefix, key) snprintf(buf, sizeof buf, "%s.%s", prefix, key)
int64_t cfg_int_in(const Config *cfg, const char *prefix, const char *key) {
  char k[256];
  CFG_JOIN(k, prefix, key);
  return cfg_int(cfg, k);
}
double cfg_double_in(const Config *cfg, const char *prefix, const char *key) {
  char k[256];
  CFG_JOIN(k, prefix, key);
  return cfg_double(cfg, k);
}
bool cfg_bool_in(const Config *cfg, const char *prefix, const char *key) {
  char k[256];
  CFG_JOIN(k, prefix, key);
  return cfg_bool(cfg, k);
}
const char *cfg_str_in(const Config *cfg, const char *prefix, const char *key) {
  char k[256];
  CFG_JOIN(k, prefix, key);
  return cfg_str(cfg, k);
}

const char *cfg_origin(const Config *cfg, const char *key) {
  const CfgEntry *e = cfg_find(cfg, key);
  return e ? e->origin : "unknown";
}

/* A value a component rejects may be wrong only together with another key (a cross-key
 * check names one of them). When the named key comes from a file or its default but the
 * user gave --set overrides, the message leads with those overrides, so it blames the
 * user's --set and not the preset's line. */
int cfg_errorf(const Config *cfg, const char *key, char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen) return -1;
  const char *origin = cfg_origin(cfg, key);
  int n;
  err[0] = 0;
  if (strcmp(origin, "--set")) {
    size_t k = 0;
    for (size_t i = 0; i < cfg->n; i++) {
      const CfgEntry *e = &cfg->entries[i];
      if (!e->origin || strcmp(e->origin, "--set")) continue;
      char v[256];
      cfg_fmt_value(e, v, sizeof v);
      cfg_append(err, errlen, "%s%s=%s", k++ ? ", " : "--set ", e->key, v);
    }
  }
  if (err[0]) {
    size_t used = strlen(err);
    n = (int)used + snprintf(err + used, errlen - used, ": %s (%s): ", key, origin);
  } else
    n = snprintf(err, errlen, "%s: %s: ", origin, key);
  if (n >= 0 && (size_t)n < errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* ---- printing ---- */

/* Shortest %g form that reads back to the same double. */
static void cfg_fmt_double(char *buf, size_t n, double d) {
  for (int prec = 6; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, d);
    if (strtod(buf, NULL) == d) return;
  }
}

static void cfg_fmt_value(const CfgEntry *e, char *buf, size_t n) {
  switch (e->param->type) {
  case CFG_INT:
    snprintf(buf, n, "%lld", (long long)e->v.i);
    break;
  case CFG_DOUBLE:
    cfg_fmt_double(buf, n, e->v.d);
    break;
  case CFG_BOOL:
    snprintf(buf, n, "%s", e->v.b ? "true" : "false");
    break;
  case CFG_STRING:
  case CFG_ENUM:
    snprintf(buf, n, "%s", e->s);
    break;
  }
}

void cfg_print_text(const Config *cfg, FILE *out) {
  char buf[1024];
  for (size_t i = 0; i < cfg->n; i++) {
    const CfgEntry *e = &cfg->entries[i];
    cfg_fmt_value(e, buf, sizeof buf);
    fprintf(out, "%s = %s", e->key, buf);
    if (e->param->desc) fprintf(out, "  # %s", e->param->desc);
    fputc('\n', out);
  }
}

static void cfg_json_string(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

void cfg_print_json(const Config *cfg, FILE *out) {
  char buf[1024];
  fputs("{", out);
  for (size_t i = 0; i < cfg->n; i++) {
    const CfgEntry *e = &cfg->entries[i];
    fputs(i ? ",\n  " : "\n  ", out);
    cfg_json_string(out, e->key);
    fputs(": ", out);
    cfg_fmt_value(e, buf, sizeof buf);
    if (e->param->type == CFG_STRING || e->param->type == CFG_ENUM)
      cfg_json_string(out, buf);
    else
      fputs(buf, out);
  }
  fputs("\n}\n", out);
}
