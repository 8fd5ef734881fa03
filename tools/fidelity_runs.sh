#!/bin/sh
# fidelity_runs.sh BIN OUTDIR - the runs that measure what a GPGPU-Sim 3.2.2 fidelity
# mechanism moves (doc/fidelity.md): a handful of the papers' benchmarks at `tiny`,
# gtx480 under lrr/gto (and swl 4 for iWarp's active-warp comparison) and
# ccws-gt200 under lrr/gto/two-level/swl 2..16, one JSON file per run (a
# failed run leaves OUTDIR/NAME.fail with its output). GSETS / CSETS: extra
# "--set K=V" arguments for the gtx480 / ccws-gt200 runs (a variant: one
# change alone, or the previous behaviour). SIZE: input size (tiny); SETS:
# which of "gtx480 ccws" to run. Summarise with tools/fidelity_table.py.
set -u
BIN=$1 OUT=$2
GSETS=${GSETS:-} CSETS=${CSETS:-} SIZE=${SIZE:-tiny} SETS=${SETS:-gtx480 ccws}
mkdir -p "$OUT"
run() { # name args...
  n=$1; shift
  [ -s "$OUT/$n.json" ] && return
  if ! "$BIN" run "$@" --size "$SIZE" --json "$OUT/$n.json" >"$OUT/$n.log" 2>&1; then mv "$OUT/$n.log" "$OUT/$n.fail"; fi
}
case " $SETS " in *" gtx480 "*) ;; *) NO_GTX480=yes ;; esac
[ "${NO_GTX480:-}" = yes ] || for b in kmeans bfs memcached streamcluster gcmark weather atax srad_v2 btree stream pchase fwt heartwall; do
  # shellcheck disable=SC2086
  for s in lrr gto; do run "gtx480-$b-$s" "$b" --sched "$s" $GSETS; done
done
[ "${NO_GTX480:-}" = yes ] || for b in kmeans bfs atax; do
  # shellcheck disable=SC2086
  run "gtx480-$b-swl4" "$b" --sched swl --set sched.swl.limit=4 $GSETS
done
for b in kmeans bfs memcached streamcluster gcmark; do
  # shellcheck disable=SC2086
  for s in lrr gto two-level; do run "ccws-$b-$s" "$b" --config ccws-gt200 --sched "$s" $CSETS; done
  # shellcheck disable=SC2086
  for l in 2 4 8 16; do run "ccws-$b-swl$l" "$b" --config ccws-gt200 --sched swl --set sched.swl.limit=$l $CSETS; done
done
