#!/usr/bin/env bash
# tools/stats_same.sh finds a changed statistic and a failing run, and passes
# a binary against itself; tools/speed_ab.sh reports both binaries' times;
# tools/handoff.c (make bench's hand-off row) builds, times a two-member team, refuses bad arguments.
set -eu
W=${WARPSIM:-build/rel/warpsim}
W=$(cd "$(dirname "$W")" && pwd)/$(basename "$W")
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
# stand-ins for a changed build: one runs with another L2 latency, one rejects its arguments
printf '#!/bin/sh\n[ "$1" = run ] && exec "%s" "$@" --set l2.latency=3\nexec "%s" "$@"\n' "$W" "$W" > "$d/slower"
printf '#!/bin/sh\n[ "$1" = run ] && exec "%s" "$@" --set l2.no_such_key=1\nexec "%s" "$@"\n' "$W" "$W" > "$d/broken"
chmod +x "$d/slower" "$d/broken"
export CASES='^vecadd tiny gto$'
out=$(tools/stats_same.sh "$W" "$W" 1)
echo "$out" | grep -qx 'all 1 cases have the same statistics'
rc=0; out=$(tools/stats_same.sh "$W" "$d/slower" 1) || rc=$?
[ "$rc" = 1 ]
echo "$out" | grep -q '^case 1 (vecadd tiny gto): statistics differ:'
echo "$out" | grep -q '"l2.latency": 3'
rc=0; out=$(tools/stats_same.sh "$W" "$d/broken" 1) || rc=$?
[ "$rc" = 1 ]
echo "$out" | grep -q "^case 1 (vecadd tiny gto): the new binary failed: .*no_such_key"
rc=0; CASES='^no such benchmark' tools/stats_same.sh "$W" "$W" 2> "$d/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'no case matches' "$d/err"
rc=0; tools/stats_same.sh "$W" 2> /dev/null || rc=$?
[ "$rc" = 2 ]
out=$(tools/speed_ab.sh "$W" "$d/slower" 1 -- run vecadd --size tiny)
[ "$(echo "$out" | grep -c -E '^[AB] .* n=1 min [0-9.]+ q1 [0-9.]+ median [0-9.]+$')" = 2 ]
rc=0; tools/speed_ab.sh "$W" "$d/none" 1 2> /dev/null || rc=$?
[ "$rc" = 2 ]
${CC:-cc} -O1 -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc -o "$d/handoff" tools/handoff.c src/sim/par.c -pthread
out=$("$d/handoff" 4 100)
echo "$out" | head -1 | grep -q '^members  *cores  *calls  *ns/hand-off$'
[ "$(echo "$out" | grep -c -E '^[24] +[0-9]+ +100 +[0-9]+$')" = 2 ]
for bad in 1 "2 0" 2000; do
  rc=0; "$d/handoff" $bad > /dev/null 2>&1 || rc=$?
  [ "$rc" = 2 ]
done
echo ok
