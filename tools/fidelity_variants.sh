#!/bin/sh
# fidelity_variants.sh BIN OUTROOT - runs tools/fidelity_runs.sh once per
# variant of issue 20's changes: `old` (every change reverted by its keys:
# must equal the build before them), each change alone on top of `old`, and
# `all` (the presets as they are). doc/fidelity.md's tables come from these.
# VARIANTS: which to run (all of them); SIZE, SETS: as fidelity_runs.sh.
set -u
BIN=$1 ROOT=$2
R="sm.regs_max_per_thread=0 sm.regs_alloc_unit=1"
RC="sm.regs_kernel=none"
L="l1d.write_policy=evict"
I="icnt.sm_flits_per_cycle=2"
D="dram.bank_groups=1 dram.tCCDL=0 dram.tRTPL=0 dram.rw_turnaround=false"
M="dram.addr_map=linear"
K="icnt.sms_per_port=1"
C="l1d.mshr_entries=32 l1d.mshr_max_merge=8 l1d.miss_queue=8 l1d.latency=1 l2.line_size=128 l2.mshr_entries=32 l2.miss_queue=8 dram.tWL=4 dram.tWR=10 dram.banks=16 dram.queue_size=32 dram.return_queue=116 dram.row_size=4K"
sets() { for k in "$@"; do printf -- '--set %s ' "$k"; done; }
variant() { # name gtx480-keys ccws-keys
  case " ${VARIANTS:-old regs ccws l1 icnt dram cluster all} " in *" $1 "*) ;; *) return ;; esac
  GSETS=$(sets $2) CSETS=$(sets $3) tools/fidelity_runs.sh "$BIN" "$ROOT/$1"
}
variant old     "$R $L $I $D $M"  "$R $RC $L $I $D $M $C $K"
variant regs    "$L $I $D $M"     "$L $I $D $M $C $K"
variant ccws    "$R $L $I $D $M"  "$R $RC $L $I $D $K"
variant l1      "$R $I $D $M"     "$R $RC $I $D $M $C $K"
variant icnt    "$R $L $D $M"     "$R $RC $L $D $M $C $K"
variant dram    "$R $L $I"        "$R $RC $L $I $M $C $K"
variant cluster "$R $L $I $D $M"  "$R $RC $L $I $D $M $C"
variant all     ""                ""
