#!/bin/sh
# fidelity_runs.sh BIN OUTDIR [--set K=V ...] - the runs doc/fidelity.md's
# before/after tables are measured with (issue 20): a handful of the papers'
# benchmarks at `tiny`, gtx480 under lrr/gto and ccws-gt200 under
# lrr/gto/two-level/swl 2..16, one JSON file per run (a failed run leaves
# OUTDIR/NAME.fail with its output). Summarise with tools/fidelity_table.py.
set -u
BIN=$1 OUT=$2
shift 2
mkdir -p "$OUT"
run() { # name args...
  n=$1; shift
  [ -s "$OUT/$n.json" ] && return
  if ! "$BIN" run "$@" --size tiny --json "$OUT/$n.json" >"$OUT/$n.log" 2>&1; then mv "$OUT/$n.log" "$OUT/$n.fail"; fi
}
for b in kmeans bfs memcached streamcluster gcmark weather atax srad_v2 btree stream pchase fwt heartwall; do
  for s in lrr gto; do run "gtx480-$b-$s" "$b" --sched "$s" "$@"; done
done
for b in kmeans bfs memcached streamcluster gcmark; do
  for s in lrr gto two-level; do run "ccws-$b-$s" "$b" --config ccws-gt200 --sched "$s" "$@"; done
  for l in 2 4 8 16; do run "ccws-$b-swl$l" "$b" --config ccws-gt200 --sched swl --set sched.swl.limit=$l "$@"; done
done
