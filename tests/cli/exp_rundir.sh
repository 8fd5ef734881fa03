#!/usr/bin/env bash
# warpsim sweep: {rundir} in a set value is the run's own directory (a file the run writes), and
# {rundir:DIM=LABEL} the directory of the run that differs only in axis DIM (a file that run wrote):
# the reading run starts after it, even when listed first and with two at a time; a failed run
# makes the runs reading it fail without running; --task runs the run it reads first; ids keep
# the placeholders as written; a placeholder naming no axis or label is an error (exit 2).
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$d/s.sweep" <<'S'
benchmarks vecadd
size      tiny
set       sm.observers=cpl observer.cpl.priority_file={rundir}/prio.txt
variant   sched read  sched.policy=caws sched.caws.mode=read  sched.caws.profile={rundir:sched=write}/caws.profile
variant   sched write sched.policy=caws sched.caws.mode=write sched.caws.profile={rundir}/caws.profile
S
$W sweep "$d/s.sweep" -o "$d/r" -j 2 -q > "$d/out" 2>&1 || fail "sweep: $(cat "$d/out")"
rd=$(ls -d "$d"/r/runs/vecadd.tiny.gtx480.read-*) wd=$(ls -d "$d"/r/runs/vecadd.tiny.gtx480.write-*)
for x in "$rd" "$wd"; do
  grep -q '"state": "ok"' "$x/status.json" || fail "$x: $(cat "$x/status.json")"
  [ -s "$x/prio.txt" ] || fail "$x: no priority series in its own directory"
done
grep -q "^# warpsim caws profile" "$wd/caws.profile" || fail "the write run wrote no profile"
grep -q -- "--set sched.caws.profile=$wd/caws.profile " "$rd/log.txt" || fail "read run: $(head -n 1 "$rd/log.txt")"
grep -q "{rundir:sched=write}/caws.profile" "$d/r/manifest.tsv" || fail "the manifest keeps the placeholder"
# the run it reads failed: the reading run is recorded as failed, not run
sed -i 's/mode=write/mode=bogus/' "$d/s.sweep"
$W sweep "$d/s.sweep" -o "$d/r2" -j 2 -q > "$d/out" 2>&1 && fail "a failed run should fail the sweep"
rd=$(ls -d "$d"/r2/runs/vecadd.tiny.gtx480.read-*)
grep -q '"message": "not run: the run it reads (sched=write: vecadd.tiny.gtx480.write-[0-9a-f]*) usage"' "$rd/status.json" \
  || fail "blocked run: $(cat "$rd/status.json")"
[ ! -e "$rd/log.txt" ] || fail "a blocked run must not start"
sed -i 's/mode=bogus/mode=write/' "$d/s.sweep"
# the same write run failed (out of time), then --retry-failed: it runs again first, and the
# reading run (listed first) waits for it instead of failing on its old status
$W sweep "$d/s.sweep" -o "$d/r5" -j 2 -q --timeout 0.01 > "$d/out" 2>&1 && fail "a timeout should fail the sweep"
rd=$(ls -d "$d"/r5/runs/vecadd.tiny.gtx480.read-*)
grep -q '"state": "error"' "$rd/status.json" || fail "timeout: $(cat "$rd/status.json")"
$W sweep "$d/s.sweep" -o "$d/r5" -j 2 -q --retry-failed > "$d/out" 2>&1 || fail "retry: $(cat "$d/out")"
grep -q '"state": "ok"' "$rd/status.json" || fail "retry: $(cat "$rd/status.json")"
# --task: the reading run's task runs the run it reads first
$W sweep "$d/s.sweep" -o "$d/r3" --emit parallel > /dev/null
$W sweep --task "$d/r3" 0 > "$d/out" 2>&1 || fail "--task 0: $(cat "$d/out")"
grep -q "^1 vecadd.tiny.gtx480.write-.*: ok in .*(read by vecadd.tiny.gtx480.read-" "$d/out" || fail "--task: $(cat "$d/out")"
grep -q "^0 vecadd.tiny.gtx480.read-.*: ok in" "$d/out" || fail "--task: $(cat "$d/out")"
# mistakes: no such label, no such axis (file named, exit 2)
sed -i 's/sched=write}/sched=wrte}/' "$d/s.sweep"
set +e
$W sweep "$d/s.sweep" -o "$d/r4" --dry-run > "$d/out" 2>&1; rc=$?
set -e
[ $rc = 2 ] && grep -q "s.sweep: {rundir:sched=wrte}: 'wrte' is not a label of axis 'sched' (labels: read, write)" "$d/out" \
  || fail "bad label (rc $rc): $(cat "$d/out")"
sed -i 's/sched=wrte}/tlp=write}/' "$d/s.sweep"
set +e
$W sweep "$d/s.sweep" -o "$d/r4" --dry-run > "$d/out" 2>&1; rc=$?
set -e
[ $rc = 2 ] && grep -q "{rundir:tlp=write}: the sweep has no axis 'tlp' (axes: sched)" "$d/out" || fail "bad axis (rc $rc): $(cat "$d/out")"
exit 0
