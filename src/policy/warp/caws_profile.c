/* caws_profile.c - the CAWS oracle's profile in memory and its parser (caws_profile.h).
 * Every number is checked for its range and every line for its shape: a profile is an
 * input file a user may edit or truncate. Depends on libc only. */
#include "policy/warp/caws_profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int entry_cmp(const void *a, const void *b) {
  const CawsEntry *x = a, *y = b;
  if (x->launch != y->launch) return x->launch < y->launch ? -1 : 1;
  if (x->cta != y->cta) return x->cta < y->cta ? -1 : 1;
  if (x->warp != y->warp) return x->warp < y->warp ? -1 : 1;
  return 0;
}

int caws_profile_name(CawsProfile *p, uint32_t launch, const char *name) {
  if (launch >= CAWS_MAX_LAUNCH) return -1;
  if (launch >= p->nnames) {
    char **nn = realloc(p->names, ((size_t)launch + 1) * sizeof *nn);
    if (!nn) return -1;
    for (uint32_t i = p->nnames; i <= launch; i++) nn[i] = NULL;
    p->names = nn;
    p->nnames = launch + 1;
  }
  if (!p->names[launch] && !(p->names[launch] = strdup(name))) return -1;
  return 0;
}

int caws_profile_add(CawsProfile *p, CawsEntry e) {
  if (p->n == p->cap) {
    if (p->cap >= UINT32_MAX / 2) return -1;
    uint32_t nc = p->cap ? 2 * p->cap : 1024;
    CawsEntry *ne = realloc(p->e, (size_t)nc * sizeof *ne);
    if (!ne) return -1;
    p->e = ne;
    p->cap = nc;
  }
  p->e[p->n++] = e;
  return 0;
}

void caws_profile_sort(CawsProfile *p) {
  if (p->n) qsort(p->e, p->n, sizeof *p->e, entry_cmp);
}

/* The next whitespace-separated word of *s as a decimal number <= max; 0, or -1. */
static int next_num(const char **s, unsigned long long max, unsigned long long *v) {
  const char *c = *s;
  while (*c == ' ' || *c == '\t') c++;
  if (*c < '0' || *c > '9') return -1;
  char *end;
  errno = 0;
  *v = strtoull(c, &end, 10);
  if (errno || *v > max || (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r')) return -1;
  *s = end;
  return 0;
}

static int line_end(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\r') s++;
  return *s == 0 || *s == '\n';
}

int caws_profile_parse(CawsProfile *p, const char *text, const char *path, char *msg, size_t len) {
  unsigned lineno = 0;
  for (const char *line = text; *line;) {
    const char *nl = strchr(line, '\n');
    const char *next = nl ? nl + 1 : line + strlen(line);
    lineno++;
    const char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '#' || line_end(s)) {
      line = next;
      continue;
    }
    unsigned long long a, b, c, cyc;
    if (!strncmp(s, "kernel", 6) && (s[6] == ' ' || s[6] == '\t')) {
      s += 6;
      if (next_num(&s, CAWS_MAX_LAUNCH - 1, &a))
        return snprintf(msg, len, "%s:%u: bad launch index (0 to %u)", path, lineno, CAWS_MAX_LAUNCH - 1), -1;
      while (*s == ' ' || *s == '\t') s++;
      size_t n = strcspn(s, " \t\r\n");
      if (!n || n > 1023 || !line_end(s + n))
        return snprintf(msg, len, "%s:%u: expected 'kernel LAUNCH NAME'", path, lineno), -1;
      char name[1024];
      memcpy(name, s, n);
      name[n] = 0;
      if (a < p->nnames && p->names[a] && strcmp(p->names[a], name))
        return snprintf(msg, len, "%s:%u: launch %llu named twice (%s, %s)", path, lineno, a, p->names[a],
                        name),
               -1;
      if (caws_profile_name(p, (uint32_t)a, name))
        return snprintf(msg, len, "%s:%u: out of memory", path, lineno), -1;
    } else if (!next_num(&s, CAWS_MAX_LAUNCH - 1, &a) && !next_num(&s, UINT32_MAX, &b) &&
               !next_num(&s, UINT32_MAX, &c) && !next_num(&s, UINT64_MAX, &cyc) && line_end(s)) {
      if (caws_profile_add(
              p, (CawsEntry){.launch = (uint32_t)a, .cta = (uint32_t)b, .warp = (uint32_t)c, .cycles = cyc}))
        return snprintf(msg, len, "%s:%u: out of memory", path, lineno), -1;
    } else {
      return snprintf(msg, len,
                      "%s:%u: not a caws profile line (expected 'kernel LAUNCH NAME' or 'LAUNCH CTA WARP "
                      "CYCLES', LAUNCH below %u)",
                      path, lineno, CAWS_MAX_LAUNCH),
             -1;
    }
    line = next;
  }
  caws_profile_sort(p);
  return 0;
}

const CawsEntry *caws_profile_find(const CawsProfile *p, uint32_t launch, uint32_t cta, uint32_t warp) {
  CawsEntry k = {.launch = launch, .cta = cta, .warp = warp};
  return p->n ? bsearch(&k, p->e, p->n, sizeof *p->e, entry_cmp) : NULL;
}

void caws_profile_free(CawsProfile *p) {
  for (uint32_t i = 0; i < p->nnames; i++) free(p->names[i]);
  free(p->names);
  free(p->e);
  memset(p, 0, sizeof *p);
}
