#!/usr/bin/env bash
# warpsim sweep --emit parallel: GNU parallel runs the emitted run list for real, on this
# machine by --jobs and through an --sshloginfile (':' is the local machine, the same code
# path as remote hosts minus ssh); every run is recorded and the report reads the results.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
parallel --version 2>/dev/null | grep -q "GNU parallel" || fail "GNU parallel is not installed (tools/setup-debian.sh installs it)"
printf 'name par\nbenchmarks vecadd btree\nsize tiny\naxis sched lrr gto\n' > "$d/s.sweep"
$W sweep "$d/s.sweep" -o "$d/a" --emit parallel > "$d/out"
[ "$(wc -l < "$d/a/parallel.txt")" -eq 4 ] || fail "run list: $(cat "$d/a/parallel.txt")"
grep -q "parallel --jobs 100% --joblog" "$d/out" && grep -q -- "--sshloginfile nodes.txt" "$d/out" || fail "usage hint: $(cat "$d/out")"
parallel --will-cite --jobs 2 --joblog "$d/a/joblog" < "$d/a/parallel.txt" > "$d/p1" || fail "parallel: $(cat "$d/p1")"
[ "$(awk 'NR > 1 && $7 == 0' "$d/a/joblog" | wc -l)" -eq 4 ] || fail "joblog: $(cat "$d/a/joblog")"
[ "$(grep -l '"state": "ok"' "$d"/a/runs/*/status.json | wc -l)" -eq 4 ] || fail "not all runs ok"
$W report "$d/a" --plot none > "$d/rep" && grep -q "4 runs: 4 ok" "$d/rep" || fail "report: $(cat "$d/rep")"
# the same list through an sshlogin file; a finished list emits nothing more
$W sweep "$d/s.sweep" -o "$d/a" --emit parallel > /dev/null
[ ! -s "$d/a/parallel.txt" ] || fail "finished runs emitted again"
$W sweep "$d/s.sweep" -o "$d/b" --emit parallel > /dev/null
echo "2/:" > "$d/nodes.txt"
parallel --will-cite --sshloginfile "$d/nodes.txt" --joblog "$d/b/joblog" < "$d/b/parallel.txt" > "$d/p2" || fail "sshloginfile: $(cat "$d/p2")"
[ "$(grep -l '"state": "ok"' "$d"/b/runs/*/status.json | wc -l)" -eq 4 ] || fail "sshloginfile: not all runs ok"
python3 - "$d/a" "$d/b" <<'P'
import json, os, sys
a, b = sys.argv[1:]
for i in os.listdir(f"{a}/runs"):
    x, y = (json.load(open(f"{p}/runs/{i}/stats.json")) for p in (a, b))
    assert x["gpu"]["cycles"] == y["gpu"]["cycles"], i
P
echo ok
