#!/usr/bin/env bash
# warpsim belady on a real trace (bfs, tiny): per-SM rows and a total whose
# online column is the trace's allocating misses, OPT never above LRU or FIFO
# replayed on the same stream, LRU replayed equal to the online LRU cache on
# every SM (the trace's fills and atomic hits make the replay exact), also on
# gcmark (atomics go around the L1D; with l1d.bypass_cg=false they hit in it: A lines) under ccws; a smaller L1D misses more; errors for a missing
# or malformed trace. The l1d-opt observer, on the same run, reports the same
# OPT/LRU/online misses without a file.
set -u
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
$W run bfs --size tiny --set sm.observers=l1d-trace,l1d-opt --set observer.l1d-trace.file="$d/t.txt" > "$d/run.out" \
  || fail "trace run: $(tail -3 "$d/run.out")"
$W belady "$d/t.txt" > "$d/b.out" || fail "belady: $(cat "$d/b.out")"
$W belady "$d/t.txt" --set l1d.size=4K > "$d/b4.out" || fail "belady 4K"
python3 - "$d/t.txt" "$d/b.out" "$d/b4.out" "$d/run.out" <<'P' || exit 1
import sys
acc = [l.split() for l in open(sys.argv[1]) if not l.startswith("#")]
insts = sum(int(l.split()[3]) for l in open(sys.argv[1]) if l.startswith("# insts"))
def table(p):
    rows = {}
    for l in open(p):
        f = l.split()
        if f and f[0] != "#" and f[0] != "sm": rows[f[0]] = f
    return rows
r = table(sys.argv[2])
t = r["total"]
loads, wi, online, merges, lru, fifo, opt = map(int, t[1:8])
assert online == sum(1 for a in acc if a[6] == "M"), (online,)
assert merges == sum(1 for a in acc if a[6] == "G")
assert loads == sum(1 for a in acc if a[6] in "HMGA")
assert any(a[6] == "F" for a in acc)
assert wi == insts and wi > 0
assert len(r) > 2, "one row per SM"
assert opt <= lru and opt <= fifo and opt < online, (opt, lru, fifo, online)
assert lru == online, (lru, online)
for k, f in r.items():
    assert int(f[7]) <= int(f[5]), (k, f)
    assert f[3] == f[5], ("replayed LRU != online on SM", k, f)
# the l1d-opt observer (same run, in memory) reports the same replay
obs = {l.split()[0].split(".")[-1]: l.split()[1] for l in open(sys.argv[4]) if l.startswith("gpu.policies.observers.l1d-opt.")}
assert int(obs["opt_misses"]) == opt and int(obs["lru_misses"]) == lru and int(obs["online_misses"]) == online, obs
assert int(obs["loads"]) == loads and obs["failed"] == "0", obs
assert abs(float(obs["opt_mpki"]) - 1000.0 * opt / wi) < 1e-3, obs
t4 = table(sys.argv[3])["total"]
assert int(t4[7]) > opt and int(t4[5]) > lru
print("opt", opt, "lru", lru, "online", online)
P
# gcmark: atomics. On gtx480 they go around the L1D (l1d.bypass_cg: no lookup, no A line);
# with l1d.bypass_cg=false an atomic that finds its line valid hits and promotes it (A lines;
# its misses then allocate lines the trace does not record, so only the A lines are checked).
$W run gcmark --size tiny --sched ccws --set sm.observers=l1d-trace --set observer.l1d-trace.file="$d/g0.txt" \
  > "$d/g0.out" || fail "gcmark trace run"
grep -q ' A$' "$d/g0.txt" && fail "gcmark: an atomic hit traced though atomics bypass the L1D"
$W belady "$d/g0.txt" | awk 'NR > 2 && $4 != $6 {bad = 1; print "differs:", $0} END {exit bad}' \
  || fail "gcmark (bypass_cg): replayed LRU != online"
$W run gcmark --size tiny --sched ccws --set l1d.bypass_cg=false --set sm.observers=l1d-trace \
  --set observer.l1d-trace.file="$d/g.txt" > "$d/g.out" || fail "gcmark trace run (no bypass_cg)"
grep -q ' A$' "$d/g.txt" || fail "gcmark: no atomic hit traced"
printf '1 0 0 0 0 0 Q\n' > "$d/bad.txt"
out=$($W belady "$d/bad.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "line 1" || fail "malformed: rc $rc $out"
out=$($W belady "$d/none.txt" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "cannot read" || fail "missing: rc $rc $out"
echo ok
