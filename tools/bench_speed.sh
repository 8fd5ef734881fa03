#!/usr/bin/env bash
# `make bench`: simulation speed on bfs and kmeans (small inputs).
# Functional emulation: best of 3 runs; timing model (gtx480, gto): best of
# TIMING_RUNS (default 2; a shared machine varies by several percent).
# Prints warp- and thread-instructions per second of process CPU time (a busy
# machine does not distort it; on an idle one it equals wall time). Then the
# timing model on THREADS (default "1 2") threads (sim.threads; adaptive, as a
# user runs it: each cycle's SMs on the threads while that measures faster):
# warp instructions per wall-clock second, the CPU seconds the threads took
# together, and the speed-up over the first. Threads share the cores with the
# rest of the machine: on a busy one the speed-up says more about its load
# than about warpsim (see `uptime`). Last, with HANDOFF set to tools/handoff's
# binary (make bench builds it), what one hand-off of a two-member team costs
# here: a simulated cycle on the team pays it once.
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
echo
printf '%-10s %-10s %8s %10s %10s %14s %9s\n' mode bench threads wall_s cpu_s Mwarp_inst/s speedup
for b in ${BENCHES:-bfs kmeans}; do
  base=""
  for t in ${THREADS:-1 2}; do
    best="" bcpu=""
    for i in $(seq "${TIMING_RUNS:-2}"); do
      out=$($W run "$b" --size small --threads "$t") || { echo "$b failed"; exit 1; }
      s=$(echo "$out" | awk '/^sim_seconds/ {print $2}')
      c=$(echo "$out" | awk '/^sim_cpu_seconds/ {print $2}')
      if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; bcpu=$c; bout=$out; fi
    done
    [ -n "$base" ] || base=$best
    awk -v b="$b" -v t="$t" -v s="$best" -v c="$bcpu" -v base="$base" \
      -v wi="$(echo "$bout" | awk '/^warp_insts / {print $2}')" \
      'BEGIN{printf "%-10s %-10s %8d %10.2f %10.2f %14.3f %8.2fx\n", "threads", b, t, s, c, wi/s/1e6, base/s}'
  done
done
if [ -n "${HANDOFF:-}" ] && [ -x "$HANDOFF" ]; then
  echo
  "$HANDOFF" 2
fi
