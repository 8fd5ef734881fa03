#!/usr/bin/env bash
# tools/speed_ab.sh A B [PAIRS] [-- RUN_ARGS...]
# Compares the simulation speed of two warpsim binaries (say, main and a
# speed change built in another git worktree). It runs them alternately,
# A B A B ..., so that a shared machine's drift hits both alike, and prints
# for each the minimum, first quartile and median of sim_cpu_seconds.
# On this project's machine single runs vary by 1-3%: use 20 pairs or more,
# and trust a difference only when minimum and median agree on it.
# Default run: `run kmeans --size tiny --sched gto` (about 0.5 s).
# A model-neutral change must also keep every statistic: tools/stats_same.sh.
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 BIN_A BIN_B [PAIRS] [-- warpsim run arguments]" >&2
  exit 2
fi
A=$1 B=$2
shift 2
PAIRS=20
if [ $# -gt 0 ] && [ "$1" != "--" ]; then PAIRS=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
[ $# -gt 0 ] || set -- run kmeans --size tiny --sched gto
for bin in "$A" "$B"; do
  [ -x "$bin" ] || { echo "$0: $bin: not an executable" >&2; exit 2; }
done
secs() { # one run's sim_cpu_seconds
  local s
  s=$("$1" "${@:2}" | awk '/^sim_cpu_seconds/ {print $2}')
  [ -n "$s" ] || { echo "$0: $1 printed no sim_cpu_seconds" >&2; exit 1; }
  echo "$s"
}
ta=() tb=()
for ((i = 0; i < PAIRS; i++)); do
  ta+=("$(secs "$A" "$@")")
  tb+=("$(secs "$B" "$@")")
done
summary() { # label, times...
  printf '%s\n' "${@:2}" | sort -g | awk -v l="$1" '{v[NR] = $1}
    END {printf "%s n=%d min %.3f q1 %.3f median %.3f\n", l, NR, v[1], v[int((NR + 3) / 4)], v[int((NR + 1) / 2)]}'
}
summary "A $A" "${ta[@]}"
summary "B $B" "${tb[@]}"
