/* common.c - list helpers shared by warp-scheduler policies. */
#include "policy/warp_sched.h"

uint32_t sched_collect_by_age(const WarpView *v, uint32_t nslots, uint32_t sched, uint32_t nsched, uint32_t *out) {
  uint32_t n = 0;
  for (uint32_t s = sched; s < nslots; s += nsched)
    if (v[s].valid) {
      /* insertion sort by age: n <= 64, already nearly sorted */
      uint32_t i = n++;
      while (i > 0 && v[out[i - 1]].age > v[s].age) { out[i] = out[i - 1]; i--; }
      out[i] = s;
    }
  return n;
}

uint32_t sched_collect_rr(const WarpView *v, uint32_t nslots, uint32_t sched, uint32_t nsched, int32_t after,
                          uint32_t *out) {
  uint32_t n = 0, first = sched;
  if (after >= 0) {
    first = (uint32_t)after + nsched;
    if (first >= nslots) first = sched;
  }
  uint32_t s = first;
  for (uint32_t k = 0; k * nsched < nslots; k++) {
    if (s < nslots && v[s].valid) out[n++] = s;
    s += nsched;
    if (s >= nslots) s = sched;
    if (s == first) break;
  }
  return n;
}

void sched_move_front(uint32_t *out, uint32_t n, int32_t s) {
  if (s < 0) return;
  for (uint32_t i = 0; i < n; i++)
    if (out[i] == (uint32_t)s) {
      for (; i > 0; i--) out[i] = out[i - 1];
      out[0] = (uint32_t)s;
      return;
    }
}
