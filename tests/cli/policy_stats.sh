#!/usr/bin/env bash
# A policy's own statistics (its stats hook) reach the results: summed over the
# SMs in `run`'s text and --json ("policies": {"sched": {...}} with the values
# per SM), and a column of `warpsim report`'s CSV. two-level's group switches:
# groups of 2 warps on bfs switch often. The l1d-trace observer beside the
# scheduler: its trace has one line per L1D access, outcomes as the cache
# counted them (and its fills); without a file, or one it cannot write, it is a usage error.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
$W run bfs --size tiny --sched two-level --set sched.two-level.group_size=2 --json "$d/r.json" > "$d/r.txt" \
  || fail "run: $(tail -3 "$d/r.txt")"
grep -Eq '^gpu\.policies\.sched\.policy +two-level$' "$d/r.txt" || fail "no policy name line in the text"
line=$(grep -E '^gpu\.policies\.sched\.group_switches +[0-9]+ +switches$' "$d/r.txt") || fail "no group_switches line (value, unit) in the text"
python3 - "$d/r.json" "$(echo "$line" | awk '{print $2}')" <<'P'
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
$W run bfs --size tiny --set sm.observers=l1d-trace --set observer.l1d-trace.file="$d/t.txt" --json "$d/t.json" > "$d/t.out" \
  || fail "trace run: $(tail -3 "$d/t.out")"
[ -z "$(ls "$d" | grep 'tmp')" ] || fail "temporary left: $(ls "$d")"
python3 - "$d/t.json" "$d/t.txt" <<'P'
import collections, json, sys
g = json.load(open(sys.argv[1]))["gpu"]
l1 = g["memory"]["l1d"]
lines = [l.split() for l in open(sys.argv[2]) if not l.startswith("#")]
c = collections.Counter(l[6] for l in lines)
assert c["M"] == l1["read_misses"] and c["G"] == l1["read_merges"] and c["S"] == l1["writes"], (c, l1)
assert c["H"] + c["A"] == l1["read_hits"], (c, l1)  # A: atomics that hit a valid line
assert c["F"] == l1["fills"], (c, l1)  # F: fills (not accesses)
assert g["policies"]["observers"]["l1d-trace"]["traced_accesses"] == len(lines) - c["F"], len(lines)
cycles = [int(l[0]) for l in lines]
assert cycles == sorted(cycles) and len({l[1] for l in lines}) > 1
P
grep -q "^# kernel bfs_expand 0" "$d/t.txt" || fail "no kernel line"
set +e
out=$($W run bfs --size tiny --set sm.observers=l1d-trace 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "observer.l1d-trace.file.*: the l1d-trace observer needs a file" || fail "no file: rc $rc $out"
out=$($W run bfs --size tiny --set sm.observers=l1d-trace --set observer.l1d-trace.file=/nonexistent/dir/t 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "observer.l1d-trace.file: cannot write '/nonexistent/dir/t': No such file or directory" || fail "bad dir: rc $rc $out"
set -e
echo ok
