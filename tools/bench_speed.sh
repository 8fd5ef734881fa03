#!/usr/bin/env bash
# `make bench`: simulation speed on bfs and kmeans (small inputs).
# Functional emulation: best of 3 runs; timing model (gtx480, gto): best of
# TIMING_RUNS (default 2; a shared machine varies by several percent).
# Prints warp- and thread-instructions per second of process CPU time (a busy
# machine does not distort it; on an idle one it equals wall time).
set -eu
W=${1:-build/rel/warpsim}
row() { awk -v m="$1" -v b="$2" -v wi="$3" -v ti="$4" -v s="$5" -v c="$6" \
  'BEGIN{printf "%-10s %-10s %12d %14d %10s %8.2f %12.3f %14.2f\n", m, b, wi, ti, c, s, wi/s/1e6, ti/s/1e6}'; }
printf '%-10s %-10s %12s %14s %10s %8s %12s %14s\n' mode bench warp_insts thread_insts cycles seconds Mwarp_inst/s Mthread_inst/s
for b in ${BENCHES:-bfs kmeans}; do
  best=""
  for i in 1 2 3; do
    out=$($W run "$b" --size small --functional) || { echo "$b failed"; exit 1; }
    s=$(echo "$out" | awk '/^sim_cpu_seconds/ {print $2}')
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; bout=$out; fi
  done
  row functional "$b" "$(echo "$bout" | awk '/^warp_insts / {print $2}')" "$(echo "$bout" | awk '/^thread_insts / {print $2}')" "$best" -
done
for b in ${BENCHES:-bfs kmeans}; do
  best=""
  for i in $(seq "${TIMING_RUNS:-2}"); do
    out=$($W run "$b" --size small) || { echo "$b failed"; exit 1; }
    s=$(echo "$out" | awk '/^sim_cpu_seconds/ {print $2}')
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; bout=$out; fi
  done
  row timing "$b" "$(echo "$bout" | awk '/^warp_insts / {print $2}')" "$(echo "$bout" | awk '/^thread_insts / {print $2}')" \
    "$best" "$(echo "$bout" | awk '/^gpu.cycles/ {print $2}')"
done
