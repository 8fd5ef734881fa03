#!/bin/sh
# fidelity_variants.sh BIN OUTROOT - runs tools/fidelity_runs.sh once per
# variant of the GPGPU-Sim 3.2.2 fidelity changes: `old` (every change
# reverted by its keys: must equal the model without them), each change alone
# on top of `old`, and `all` (the presets as they are). `pre2` is the model
# with dual issue and the operand collector off, `dual` adds the per-warp dual
# issue alone (ccws-gt200; gtx480's 3.2.2 value is 1, as before), `oc` the
# operand collector alone, `lat` the ROP delay and DRAM latency queue alone,
# `all23` dual issue and the operand collector without the latency changes.
# doc/fidelity.md ("Exactness and measuring a mechanism") says how to use them.
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
O="sm.reg_banks=0 sm.mem_issue=unit"
Q="sm.max_insn_issue_per_warp=1"
P="l2.rop_latency=0 dram.latency_queue=0"
C="l1d.mshr_entries=32 l1d.mshr_max_merge=8 l1d.miss_queue=8 l1d.latency=1 l2.line_size=128 l2.mshr_entries=32 l2.miss_queue=8 dram.tWL=4 dram.tWR=10 dram.banks=16 dram.queue_size=32 dram.return_queue=116 dram.row_size=4K"
sets() { for k in "$@"; do printf -- '--set %s ' "$k"; done; }
variant() { # name gtx480-keys ccws-keys
  case " ${VARIANTS:-old regs ccws l1 icnt dram cluster pre2 dual oc lat all23 all} " in *" $1 "*) ;; *) return ;; esac
  s=${SETS:-gtx480 ccws}
  [ "$1" = dual ] && s=ccws # gtx480 keeps 1: its runs would be pre2's
  GSETS=$(sets $2) CSETS=$(sets $3) SETS=$s tools/fidelity_runs.sh "$BIN" "$ROOT/$1"
}
variant old     "$R $L $I $D $M $O $P"  "$R $RC $L $I $D $M $C $K $O $Q $P"
variant regs    "$L $I $D $M $O $P"     "$L $I $D $M $C $K $O $Q $P"
variant ccws    "$R $L $I $D $M $O $P"  "$R $RC $L $I $D $K $O $Q $P"
variant l1      "$R $I $D $M $O $P"     "$R $RC $I $D $M $C $K $O $Q $P"
variant icnt    "$R $L $D $M $O $P"     "$R $RC $L $D $M $C $K $O $Q $P"
variant dram    "$R $L $I $O $P"        "$R $RC $L $I $M $C $K $O $Q $P"
variant cluster "$R $L $I $D $M $O $P"  "$R $RC $L $I $D $M $C $O $Q $P"
variant pre2    "$O $P"              "$O $Q $P"
variant dual    "$O $P"              "$O $P"
variant oc      "$P"                "$Q $P"
variant lat     "$O"              "$O $Q"
variant all23   "$P"              "$P"
variant all     ""                ""
