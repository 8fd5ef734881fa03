/* kregs.c - the register-count override (kregs.h). The order is the build's:
 * a per-kernel count replaces the compiled one (as a separate nvcc run with
 * its own -maxrregcount would), the cap limits every kernel (-maxrregcount
 * for the whole build, or the ISA's limit), and the allocation unit rounds up
 * what occupancy charges. No spill code is added: the PTX stays as compiled. */
#include "sm/kregs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The count sm.regs_kernel gives `name` (0: none). Entries are "name=n"
 * separated by commas or spaces. -1 on a malformed entry. */
static int kregs_lookup(const char *list, const char *name, uint32_t *out, char *bad, size_t badlen) {
  *out = 0;
  if (!strcmp(list, "none")) return 0;
  for (const char *p = list; *p;) {
    while (*p == ',' || *p == ' ' || *p == '\t') p++;
    if (!*p) break;
    size_t len = strcspn(p, ", \t");
    const char *eq = memchr(p, '=', len);
    char *end = NULL;
    long v = eq ? strtol(eq + 1, &end, 10) : 0;
    if (!eq || eq == p || end != p + len || v < 1 || v > 255) {
      snprintf(bad, badlen, "%.*s", (int)len, p);
      return -1;
    }
    if ((size_t)(eq - p) == strlen(name) && !strncmp(p, name, (size_t)(eq - p))) *out = (uint32_t)v;
    p += len;
  }
  return 0;
}

int kregs_check(const Config *cfg, char *err, size_t errlen) {
  uint32_t k;
  char bad[64];
  if (kregs_lookup(cfg_str(cfg, "sm.regs_kernel"), "", &k, bad, sizeof bad))
    return cfg_errorf(cfg, "sm.regs_kernel", err, errlen,
                      "bad entry '%s' (expected kernel=registers, 1..255)", bad);
  return 0;
}

int kregs_apply(const Config *cfg, PtxLaunch *L, char *err, size_t errlen) {
  const PtxFunction *f = L->fn;
  uint32_t regs = f->regs_per_thread;
  char src[96];
  int n = snprintf(src, sizeof src, "%s %u", f->regs_from_ptxas ? "ptxas" : "liveness", regs);
  uint32_t k;
  char bad[64];
  if (kregs_lookup(cfg_str(cfg, "sm.regs_kernel"), f->name, &k, bad, sizeof bad))
    return cfg_errorf(cfg, "sm.regs_kernel", err, errlen,
                      "bad entry '%s' (expected kernel=registers, 1..255)", bad);
  if (k) regs = k, n += snprintf(src + n, sizeof src - (size_t)n, ", sm.regs_kernel %u", k);
  uint32_t cap = (uint32_t)cfg_int(cfg, "sm.regs_max_per_thread");
  if (cap && regs > cap) regs = cap, n += snprintf(src + n, sizeof src - (size_t)n, ", cap %u", cap);
  uint32_t unit = (uint32_t)cfg_int(cfg, "sm.regs_alloc_unit");
  uint32_t alloc = (regs + unit - 1) / unit * unit;
  if (alloc != regs) snprintf(src + n, sizeof src - (size_t)n, ", allocated in units of %u", unit);
  L->regs_per_thread = alloc;
  snprintf(L->regs_source, sizeof L->regs_source, "%s", src);
  return 0;
}
