#!/usr/bin/env bash
# Same inputs, same statistics: two runs give identical JSON (timing fields aside).
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
b=$($W list | awk 'NR==2 {print $1}')
[ -n "$b" ] || { echo "no benchmark"; exit 1; }
$W run "$b" --size tiny --json "$d/a.json" >/dev/null
$W run "$b" --size tiny --json "$d/b.json" >/dev/null
grep -v -E 'seconds|per_sec' "$d/a.json" > "$d/a"; grep -v -E 'seconds|per_sec' "$d/b.json" > "$d/b"
cmp "$d/a" "$d/b"
grep -q '"check": "PASS"' "$d/a"
echo ok
