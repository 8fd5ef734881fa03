#!/usr/bin/env bash
# `make bench`: functional emulation speed on bfs and kmeans (small inputs),
# best of 3 runs each. Prints warp- and thread-instructions per second.
set -eu
W=${1:-build/rel/warpsim}
printf '%-10s %14s %16s %10s %14s %16s\n' bench warp_insts thread_insts seconds Mwarp_inst/s Mthread_inst/s
for b in ${BENCHES:-bfs kmeans}; do
  best=""
  for i in 1 2 3; do
    out=$($W run "$b" --size small) || { echo "$b failed"; exit 1; }
    s=$(echo "$out" | awk '/^sim_seconds/ {print $2}')
    if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; bout=$out; fi
  done
  wi=$(echo "$bout" | awk '/^warp_insts / {print $2}'); ti=$(echo "$bout" | awk '/^thread_insts / {print $2}')
  awk -v b="$b" -v wi="$wi" -v ti="$ti" -v s="$best" 'BEGIN{printf "%-10s %14d %16d %10.3f %14.2f %16.2f\n", b, wi, ti, s, wi/s/1e6, ti/s/1e6}'
done
