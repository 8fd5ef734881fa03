#!/usr/bin/env bash
# warpsim sweep records failures without stopping the other runs: a deadlocking configuration,
# an impossible --set, an unknown key (real warpsim), a run over its time limit (a stand-in
# binary); each failed run keeps its log, its exit status and a one-line reason, the report
# lists them, and --retry-failed runs only them again.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$d/f.sweep" <<'S'
name fail
benchmarks vecadd btree
size tiny
variant case ok       sm.deadlock_cycles=100000
variant case deadlock sm.deadlock_cycles=10
variant case badvalue l1d.assoc=0
variant case badkey   l1d.nosuch=1
S
set +e; $W sweep "$d/f.sweep" -o "$d/r" -j 2 > "$d/out" 2>&1; rc=$?; set -e
[ $rc -eq 1 ] || fail "sweep rc $rc (want 1): $(cat "$d/out")"
grep -q "^8 run(s) in .*: 2 ok, 2 deadlock, 4 usage$" "$d/out" || fail "summary: $(cat "$d/out")"
python3 - "$d/r" <<'P'
import json, os, sys
r = sys.argv[1]
ids = {l.split("\t")[1]: l.split("\t") for l in open(f"{r}/manifest.tsv")}
seen = {}
for rid in ids:
    st = json.load(open(f"{r}/runs/{rid}/status.json"))
    case = rid.split(".")[3].split("-")[0]
    files = sorted(f for f in os.listdir(f"{r}/runs/{rid}") if not f.startswith("."))
    seen[(rid.split(".")[0], case)] = st["state"]
    assert "log.txt" in files and "run.json" in files, files
    if case == "ok":
        assert st["state"] == "ok" and st["exit_status"] == 0 and st["check"] == "PASS", st
        assert files == ["config.json", "log.txt", "run.json", "stats.json", "status.json"], files
        assert json.load(open(f"{r}/runs/{rid}/config.json"))["sm.deadlock_cycles"] == 100000
    elif case == "deadlock":
        assert st["state"] == "deadlock" and st["exit_status"] == 1, st
        assert "WS_ERROR_DEADLOCK" in st["message"] and "no progress for" in st["message"], st
        assert "config.json" in files  # the resolved config of a failed run is kept
    elif case == "badvalue":
        assert st["state"] == "usage" and st["exit_status"] == 2, st
        assert "bad value '0' for l1d.assoc" in st["message"], st
    else:
        assert st["state"] == "usage" and "unknown key 'l1d.nosuch'" in st["message"], st
    assert "$ " in open(f"{r}/runs/{rid}/log.txt").readline()
assert len(seen) == 8, seen
P
$W report "$d/r" --plot none > "$d/rep" || fail "report: $(cat "$d/rep")"
grep -q "6 failed run(s)" "$d/rep" || fail "report does not list failures: $(cat "$d/rep")"
grep -Eq "^  deadlock vecadd.tiny.gtx480.deadlock-[0-9a-f]+: .*WS_ERROR_DEADLOCK" "$d/rep" || fail "deadlock line: $(cat "$d/rep")"
grep -Eq '^vecadd +1.000 +deadlock +usage +usage$' "$d/rep" || fail "table cells: $(cat "$d/rep")"
python3 - "$d/r/report/results.csv" <<'P'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert sorted(r["state"] for r in rows) == ["deadlock"] * 2 + ["ok"] * 2 + ["usage"] * 4, [r["state"] for r in rows]
P
# rerunning skips everything recorded; --retry-failed reruns exactly the failed runs
set +e; $W sweep "$d/f.sweep" -o "$d/r" > "$d/out2" 2>&1; rc=$?; set -e
grep -q "^0 run(s) in .*; 8 already finished (skipped)" "$d/out2" || fail "rerun: $(cat "$d/out2")"
[ $rc -eq 0 ] || fail "rerun with nothing to do: rc $rc"
set +e; $W sweep "$d/f.sweep" -o "$d/r" --retry-failed > "$d/out3" 2>&1; rc=$?; set -e
grep -q "^6 run(s) in .*: 2 deadlock, 4 usage; 2 already finished (skipped)" "$d/out3" || fail "retry: $(cat "$d/out3")"
[ $rc -eq 1 ] || fail "retry rc $rc"
# a per-run time limit (stand-in binary that sleeps), from the sweep file or --timeout
printf 'benchmarks slow a\nsize tiny\ntimeout 0.5\n' > "$d/t.sweep"
set +e; FAKE_SLEEP=30 WARPSIM_BIN=$PWD/tests/cli/exp/fake_warpsim $W sweep "$d/t.sweep" -o "$d/t" > "$d/out4" 2>&1; rc=$?; set -e
[ $rc -eq 1 ] && grep -q "1 ok, 1 timeout" "$d/out4" || fail "timeout: rc $rc $(cat "$d/out4")"
grep -q '"state": "timeout"' "$d"/t/runs/slow.*/status.json || fail "timeout status"
echo ok
