#!/usr/bin/env bash
# Every benchmark (all suites) passes its CPU check at tiny on the timing model
# under every warp scheduler of src/policy/registry.def with its defaults
# (a new scheduler is tested without touching this file), swl with a small
# limit (4 warps per SM; its default of 48 limits nothing). All of them, no
# subset: about a minute per scheduler under ASan on one core; the
# schedulers run in parallel on up to nproc cores.
set -u
W=${WARPSIM:-build/rel/warpsim}
list=$($W list | awk 'NR > 1 && /^[a-z]/ {print $1}' | paste -sd, -)
[ -n "$list" ] || { echo "no benchmarks listed"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
declare -A extra=([swl]="--set sched.swl.limit=4")
configs=()
for s in $(sed -n 's/^WS_POLICY(WARP, *"\([^"]*\)".*/\1/p' src/policy/registry.def); do configs+=("--sched $s ${extra[$s]:-}"); done
[ ${#configs[@]} -ge 5 ] || { echo "registry.def lists ${#configs[@]} warp schedulers"; exit 1; }
jobs=$(nproc 2>/dev/null || echo 1); [ "$jobs" -gt ${#configs[@]} ] && jobs=${#configs[@]}
i=0
for c in "${configs[@]}"; do
  # shellcheck disable=SC2086
  ( $W suite --size tiny --only "$list" $c > "$d/$i.out" 2>&1; echo $? > "$d/$i.rc" ) &
  i=$((i + 1))
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.2; done
done
wait
fail=0
for j in $(seq 0 $((i - 1))); do
  rc=$(cat "$d/$j.rc")
  n=$(grep -cE ' PASS ' "$d/$j.out")
  echo "${configs[$j]}: $n passed, rc $rc"
  if [ "$rc" != 0 ]; then fail=1; grep -vE ' PASS ' "$d/$j.out" | tail -n 20; fi
done
[ $fail -eq 0 ] && echo ok
exit $fail
