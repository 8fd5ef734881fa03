/* opcoll.h - the operand collector and register banks of the SM pipeline (sm.reg_banks > 0;
 * GPGPU-Sim 3.2.2 opndcoll_rfu_t), a calendar computed at issue: no per-cycle state. Inline:
 * the issue stage asks it for every warp it finds ready. Used by sm.c, and by ldst.c for the
 * memory collector units of sm.mem_issue = collector (their reads are booked when one is taken). */
#ifndef WS_OPCOLL_H
#define WS_OPCOLL_H

#include "sm/sm_int.h"

/* ---- operand collector (sm.reg_banks > 0; GPGPU-Sim 3.2.2 opndcoll_rfu_t) ---- */

/* Can an instruction of class c (SM_UNIT_SP/SFU/LDST) enter a collector unit
 * now: an in port left this cycle and a free unit of its class? */
static inline int oc_cu_available(const Sm *sm, uint32_t c, uint64_t now) {
  if (sm->oc_in_cycle[c] == now && sm->oc_in_n[c] >= sm->oc_ports[c]) return 0;
  const uint64_t *cu = sm->oc_cu_free + sm->oc_cu_base[c];
  for (uint32_t i = 0; i < sm->oc_units[c]; i++)
    if (cu[i] <= now) return 1;
  return 0;
}

/* Warp slot s's instruction at pc, of class c, issued now, enters a free
 * collector unit; returns the cycle it dispatches to its unit. Its register
 * sources are read in operand order from the next cycle on, one per cycle for
 * the collector unit and one per cycle for each bank (bank = (register + slot)
 * mod banks, GPGPU-Sim's register_bank(); a bank serves reads in the order
 * they were requested); it dispatches the cycle after its last read, through
 * the first free out port of its class, once (SP/SFU) one of its units can
 * accept it (unit_free). The collector unit is free again from that cycle. */
/* Books the register reads of warp slot s's instruction at pc in a collector unit it took at
 * `now`: in operand order from the next cycle on, one per cycle for the unit and one per cycle
 * for each bank, a bank serving reads in the order they were requested. Returns the cycle after
 * the last read (the first it may dispatch in). */
static inline uint64_t oc_read_regs(Sm *sm, uint32_t s, uint32_t pc, uint64_t now) {
  const PtxOperands *o = &sm->kinfo->ops[pc];
  uint64_t next = now + 1; /* the collector unit's next read */
  for (uint32_t i = 0; i < o->nrd; i++) {
    uint64_t *b = &sm->oc_bank_next[(o->rd[i] + s) % sm->oc_banks];
    uint64_t r = *b > next ? *b : next;
    sm->st.oc_bank_conflicts += *b > next;
    *b = next = r + 1;
  }
  sm->st.oc_reads += o->nrd;
  return next;
}

static inline uint64_t oc_collect(Sm *sm, uint32_t s, uint32_t pc, uint32_t c, uint64_t now) {
  if (sm->oc_in_cycle[c] != now) sm->oc_in_cycle[c] = now, sm->oc_in_n[c] = 0;
  sm->oc_in_n[c]++;
  uint64_t *cu = sm->oc_cu_free + sm->oc_cu_base[c];
  uint32_t k = 0;
  while (k + 1 < sm->oc_units[c] && cu[k] > now) k++; /* oc_cu_available found one */
  uint64_t e = oc_read_regs(sm, s, pc, now);
  uint64_t *port = sm->oc_port_next + c * SM_OC_PORTS_MAX, *p = port;
  for (uint32_t i = 1; i < sm->oc_ports[c]; i++)
    if (port[i] < *p) p = &port[i];
  if (*p > e) e = *p;
  if (c != SM_UNIT_LDST) {
    const uint64_t *f = sm->unit_free + sm->unit_base[c], *m = f;
    for (uint32_t u = 1; u < sm->nunits[c]; u++)
      if (f[u] < *m) m = &f[u];
    if (*m > e) e = *m;
  }
  *p = e + 1;
  cu[k] = e;
  return e;
}

#endif
