#!/usr/bin/env bash
# A policy's own statistics (its stats hook) reach the results: summed over the
# SMs in `run`'s text and --json ("policies": {"sched": {...}} with the values
# per SM), and a column of `warpsim report`'s CSV. two-level's group switches:
# groups of 2 warps on bfs switch often.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
$W run bfs --size tiny --sched two-level --set sched.two-level.group_size=2 --json "$d/r.json" > "$d/r.txt" \
  || fail "run: $(tail -3 "$d/r.txt")"
line=$(grep -E '^sched\.two-level\.group_switches +[0-9]+$' "$d/r.txt") || fail "no group_switches line in the text"
python3 - "$d/r.json" "${line##* }" <<'P'
import json, sys
p = json.load(open(sys.argv[1]))["gpu"]["policies"]
s = p["sched"]
assert s["policy"] == "two-level", s
assert s["group_switches"] > 0 and s["group_switches"] == int(sys.argv[2]), (s, sys.argv[2])
per = s["per_instance"]["group_switches"]
assert len(per) == 15 and sum(per) == s["group_switches"], per
assert p["l1d"]["policy"] == "lru" and p["l2"]["policy"] == "lru", p
P
cat > "$d/p.sweep" <<'S'
name pstats
benchmarks bfs
size tiny
axis sched two-level gto
set sched.two-level.group_size=2
S
$W sweep "$d/p.sweep" -o "$d/s" -j 2 > "$d/sweep.out" 2>&1 || fail "sweep: $(tail -3 "$d/sweep.out")"
$W report "$d/s" --plot none > "$d/report.out" 2>&1 || fail "report: $(tail -3 "$d/report.out")"
python3 - "$d/s/report/results.csv" <<'P'
import csv, sys
rows = {r["sched"]: r for r in csv.DictReader(open(sys.argv[1]))}
col = [h for h in next(iter(rows.values())) if h.startswith("gpu.policies.sched.group_switches")]
assert col, list(next(iter(rows.values())))
assert int(float(rows["two-level"][col[0]])) > 0, rows["two-level"][col[0]]
assert rows["gto"][col[0]] in ("", "-"), rows["gto"][col[0]]
P
echo ok
