#!/usr/bin/env bash
# The experiment workflow on bad input: corrupt results are failures (report, --retry-failed),
# a sweep too large to expand, seeds out of range, a non-UTF-8 sweep file, -o naming a file,
# damaged result folders: one-line errors, never a traceback; and a run started for a sweep
# that is already gone exits at once.
set -u
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() { # expect RC PATTERN -- command...
  local want=$1 pat=$2; shift 3
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq $want ] || fail "rc $rc (want $want) for: $* -> $out"
  echo "$out" | grep -q "Traceback" && fail "a traceback for: $* -> $out"
  echo "$out" | tr '\n' ' ' | grep -qE -- "$pat" || fail "missing '$pat' in: $out"
}
export WARPSIM_BIN=$PWD/tests/cli/exp/fake_warpsim
cat > "$d/s.sweep" <<'S'
name robust
benchmarks a b
size tiny
axis sched lrr gto
S
expect 0 "4 run\(s\) in .*: 4 ok" -- $W sweep "$d/s.sweep" -o "$d/r" -q
id=$(ls "$d/r/runs" | head -1)

# item 5: a corrupted stats.json is a failure, left out of the means and rerun by --retry-failed
echo '{"check": "PA' > "$d/r/runs/$id/stats.json"
expect 0 "4 runs: 3 ok, 1 corrupt.*corrupt +$id: stats.json of a finished run" -- $W report "$d/r" --plot none
expect 0 "1 run\(s\) in .*: 1 ok; 3 already finished" -- $W sweep "$d/s.sweep" -o "$d/r" -q --retry-failed
expect 0 "4 runs: 4 ok" -- $W report "$d/r" --plot none
# a stats.json that parses and says PASS but cannot stand for its run is corrupt, named, and rerun
# by the next sweep without --retry-failed
good=$(cat "$d/r/runs/$id/stats.json")
damage() {  # damage PYTHON-EXPRESSION-ON-s WANT
  python3 -c "import json,sys; s=json.loads(sys.argv[1]); $1; open(sys.argv[2],'w').write(json.dumps(s))" \
    "$good" "$d/r/runs/$id/stats.json"
  expect 0 "4 runs: 3 ok, 1 corrupt.*stats.json of a finished run: $2" -- $W report "$d/r" --plot none
}
damage 'del s["gpu"]' "it has no gpu statistics"
damage 'del s["gpu"]["cycles"]' "gpu.cycles is missing"
damage 's["gpu"]["ipc_warp_insts_per_cycle"] = "fast"' "gpu.ipc_warp_insts_per_cycle is 'fast', not a number"
damage 's["gpu"]["l1d_read_mpki"] = None' "gpu.l1d_read_mpki is null"
damage 's["gpu"]["ipc_warp_insts_per_cycle"] = -1.5' "gpu.ipc_warp_insts_per_cycle is negative"
damage 's["gpu"]["memory"]["l1d"]["hits"] = -7' "gpu.memory.l1d.hits is negative"
sed -i 's/"ipc_warp_insts_per_cycle": [0-9.]*/"ipc_warp_insts_per_cycle": NaN/' "$d/r/runs/$id/stats.json"
expect 0 "4 runs: 3 ok, 1 corrupt.*stats.json of a finished run is missing or unreadable" -- $W report "$d/r" --plot none
sed -i 's/NaN/Infinity/' "$d/r/runs/$id/stats.json"
expect 0 "4 runs: 3 ok, 1 corrupt" -- $W report "$d/r" --plot none
expect 0 "1 run\(s\) in .*: 1 ok; 3 already finished" -- $W sweep "$d/s.sweep" -o "$d/r" -q
expect 0 "4 runs: 4 ok" -- $W report "$d/r" --plot none
echo '[1, 2]' > "$d/r/runs/$id/stats.json"
expect 0 "4 runs: 3 ok, 1 corrupt" -- $W report "$d/r" --plot none
echo 'not json' > "$d/r/runs/$id/status.json"
expect 0 "4 runs: 3 ok, 1 corrupt.*status.json is unreadable" -- $W report "$d/r" --plot none

# item 15: results of the wrong shape, -o naming a file or /proc, a non-UTF-8 sweep file
echo '[1, 2]' > "$d/r/runs/$id/config.json"
expect 0 "4 runs: 3 ok, 1 corrupt" -- $W report "$d/r" --plot none
echo '{"runs": [1]}' > "$d/r/plan.json"
expect 2 "plan.json: a run of the wrong shape" -- $W report "$d/r"
echo '[]' > "$d/r/plan.json"
expect 2 "is not a sweep result directory" -- $W report "$d/r"
touch "$d/file"
expect 1 "warpsim sweep: cannot read or write '$d/file/runs': Not a directory" -- $W sweep "$d/s.sweep" -o "$d/file"
expect 2 "is not a directory" -- $W report "$d/file"
expect 1 "warpsim sweep: cannot read or write '/proc/nosuch[^']*': No such file or directory" -- $W sweep "$d/s.sweep" -o /proc/nosuch/x
printf 'name x\nbenchmarks a\n# caf\xe9\n' > "$d/latin1.sweep"
expect 2 "latin1.sweep:3: not UTF-8 text \(byte 0xe9\)" -- $W sweep "$d/latin1.sweep" --dry-run
expect 2 "cannot read sweep file $d: not a regular file" -- $W sweep "$d" --dry-run
if [ -w /dev/full ]; then  # a full disk: the plan cannot be written
  mkdir "$d/full"; ln -s /dev/full "$d/full/plan.json"
  expect 1 "warpsim sweep: cannot read or write .*No space left on device" -- $W sweep "$d/s.sweep" -o "$d/full"
fi

# item 7: a sweep whose axes multiply past the limit fails before expanding anything
printf 'name x\nbenchmarks a\naxis sm.max_ctas 1..4000\naxis l1d.size 1..4000\n' > "$d/big.sweep"
expect 2 "16000000 runs .* at most 1000000 in one sweep" -- timeout 60 $W sweep "$d/big.sweep" --dry-run
# one range past what a study tries is a typo, refused before any label is made
printf 'name x\nbenchmarks a\naxis sm.max_ctas 1..99999\n' > "$d/long.sweep"
expect 2 "long.sweep:3: range '1..99999' is too long \\(99999 values; at most 4096" -- timeout 60 $W sweep "$d/long.sweep" --dry-run

# item 10: seeds out of range or given twice would alias runs
printf 'name x\nbenchmarks a\nseed 18446744073709551616\n' > "$d/seed.sweep"
expect 2 "seed.sweep:3: bad seed '18446744073709551616'" -- $W sweep "$d/seed.sweep" --dry-run
printf 'name x\nbenchmarks a\nseed 1 01\n' > "$d/seed2.sweep"
expect 2 "seed.sweep:3: seed 1 given twice|seed2.sweep:3: seed 1 given twice" -- $W sweep "$d/seed2.sweep" --dry-run

# item 4: the child of a sweep that died before the child set its parent-death signal exits
# at once instead of running on (die_with_parent checks that its parent is still the sweep)
PYTHONPATH=tools python3 - <<'PY' || fail "die_with_parent"
import subprocess, sys, time
from wsexp import runner
t = time.time()
p = subprocess.Popen(["sleep", "30"], preexec_fn=runner.die_with_parent(parent=1))  # not our parent
rc = p.wait(timeout=20)
assert rc == 137 and time.time() - t < 10, (rc, time.time() - t)
p = subprocess.Popen(["true"], preexec_fn=runner.die_with_parent())  # ours: runs normally
assert p.wait(timeout=20) == 0
PY
echo ok
