/* bypass_classes.c - the class file parser of coordinated bypassing (bypass_classes.h).
 * Each line is checked whole: a kernel name, a PC in range, a known class, nothing after;
 * a pair listed twice is an error (which of two classes was meant is unknown). */
#include "policy/observer/bypass_classes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/mem_req.h"

uint8_t bp_class_of(const char *s) {
  return !strcmp(s, "ca")   ? MEM_CLASS_CA
         : !strcmp(s, "cg") ? MEM_CLASS_CG
         : !strcmp(s, "cm") ? MEM_CLASS_CM
                            : 0xFF;
}

void bp_classes_free(BpFileLine *lines, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) free(lines[i].kernel);
  free(lines);
}

static int line_cmp(const void *a, const void *b) {
  const BpFileLine *x = a, *y = b;
  int c = strcmp(x->kernel, y->kernel);
  return c ? c : x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The next word of *s (at most cap - 1 bytes) in w; its length, 0 at the line's end, or
 * cap when too long. */
static size_t next_word(const char **s, char *w, size_t cap) {
  const char *c = *s;
  while (*c == ' ' || *c == '\t' || *c == '\r') c++;
  size_t n = strcspn(c, " \t\r\n");
  if (n >= cap) return cap;
  memcpy(w, c, n);
  w[n] = 0;
  *s = c + n;
  return n;
}

int bp_classes_parse(const char *text, const char *path, BpFileLine **out, uint32_t *nout, char *msg,
                     size_t len) {
  BpFileLine *lines = NULL;
  uint32_t n = 0, cap = 0, ln = 0;
  *out = NULL, *nout = 0;
  for (const char *line = text; *line;) {
    const char *nl = strchr(line, '\n');
    const char *next = nl ? nl + 1 : line + strlen(line);
    ln++;
    const char *s = line;
    char kname[512], pcs[32], cname[16], extra[2];
    size_t k = next_word(&s, kname, sizeof kname);
    if (k == 0 || kname[0] == '#') {
      line = next;
      continue;
    }
    size_t np = k < sizeof kname ? next_word(&s, pcs, sizeof pcs) : 0;
    size_t nc = np && np < sizeof pcs ? next_word(&s, cname, sizeof cname) : 0;
    size_t ne = nc && nc < sizeof cname ? next_word(&s, extra, sizeof extra) : 1;
    char *end = NULL;
    errno = 0;
    unsigned long long pc =
        np && np < sizeof pcs && pcs[0] >= '0' && pcs[0] <= '9' ? strtoull(pcs, &end, 10) : 0;
    int bad_pc = !end || *end || errno || pc > UINT32_MAX;
    if (k >= sizeof kname || ne || bad_pc || bp_class_of(cname) == 0xFF) {
      bp_classes_free(lines, n);
      if (k >= sizeof kname)
        return snprintf(msg, len, "%s:%u: kernel name longer than %zu bytes", path, ln, sizeof kname - 1), -1;
      return snprintf(msg, len, "%s:%u: expected 'kernel pc ca|cg|cm' (pc: 0 to 4294967295)", path, ln), -1;
    }
    if (n == cap) {
      uint32_t nc2 = cap ? cap * 2 : 64;
      BpFileLine *nl2 = cap < UINT32_MAX / 2 ? realloc(lines, (size_t)nc2 * sizeof *nl2) : NULL;
      if (!nl2) {
        bp_classes_free(lines, n);
        return snprintf(msg, len, "%s:%u: out of memory", path, ln), -1;
      }
      lines = nl2, cap = nc2;
    }
    if (!(lines[n].kernel = strdup(kname))) {
      bp_classes_free(lines, n);
      return snprintf(msg, len, "%s:%u: out of memory", path, ln), -1;
    }
    lines[n].pc = (uint32_t)pc, lines[n].cls = bp_class_of(cname);
    n++;
    line = next;
  }
  if (n > 1) { /* a pair twice: found after sorting a copy, named by its first line's words */
    BpFileLine *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted) {
      bp_classes_free(lines, n);
      return snprintf(msg, len, "%s: out of memory", path), -1;
    }
    memcpy(sorted, lines, (size_t)n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, line_cmp);
    for (uint32_t i = 1; i < n; i++)
      if (!line_cmp(&sorted[i - 1], &sorted[i])) {
        snprintf(msg, len, "%s: kernel %s pc %u is listed twice", path, sorted[i].kernel, sorted[i].pc);
        free(sorted);
        bp_classes_free(lines, n);
        return -1;
      }
    free(sorted);
  }
  *out = lines, *nout = n;
  return 0;
}
