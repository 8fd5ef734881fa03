#!/usr/bin/env bash
# warpsim sweep is resumable: a sweep stopped mid-way (SIGTERM, then SIGKILL) leaves no
# processes behind and loses only the runs in flight; rerunning it runs only the unfinished
# runs (no run recorded before is started again) and gives the same results as a sweep that
# was never interrupted (all but the host's facts: the pool's threads for a run follow the timing).
set -eu
W=${WARPSIM:-build/rel/warpsim}
real=$(cd "$(dirname "$W")" && pwd)/$(basename "$W")
pid=
d=$(mktemp -d); trap 'kill $pid 2>/dev/null || true; rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$d/s.sweep" <<'S'
name resume
benchmarks vecadd btree stencil srad_v1 tpacf octree
size tiny
axis sched lrr gto swl:4
S
# a warpsim that logs each call, so the test can tell which runs were started
printf '#!/bin/sh\necho "$*" >> %s/calls\nexec %s "$@"\n' "$d" "$real" > "$d/wrap"
chmod +x "$d/wrap"
export WARPSIM_BIN=$d/wrap
ndone() { ls "$d"/a/runs/*/status.json 2>/dev/null | wc -l; }
wait_done() { # wait until at least $1 runs are recorded (or the sweep ended)
  for _ in $(seq 600); do [ "$(ndone)" -ge "$1" ] && return 0; kill -0 $pid 2>/dev/null || return 0; sleep 0.05; done
}
gone() { # whether no warpsim process of this sweep is left, polled for up to 2 s: the children
  # get SIGTERM or lose their parent with the sweep and exit at once; an orphan would still be
  # running its benchmark (each takes longer), so the bound keeps the check meaningful
  for _ in $(seq 40); do pgrep -f "$d/a/runs" > /dev/null || return 0; sleep 0.05; done
  return 1
}
$W sweep "$d/s.sweep" -o "$d/a" -j 2 -q > "$d/out1" 2>&1 & pid=$!
wait_done 3
kill -TERM $pid; set +e; wait $pid; rc=$?; set -e
n1=$(ndone)
[ "$n1" -lt 18 ] || fail "sweep finished before it could be interrupted (machine too fast?)"
[ $rc -eq 130 ] || fail "SIGTERM: rc $rc (want 130): $(cat "$d/out1")"
grep -q "interrupted (SIGTERM): $((18 - n1)) run(s) not finished; run the same command again to resume" "$d/out1" \
  || fail "message: $(cat "$d/out1")"
gone || fail "warpsim processes left after SIGTERM"
[ "$(ndone)" -eq "$n1" ] || fail "runs finished after the sweep stopped"
$W sweep "$d/s.sweep" -o "$d/a" -j 2 -q > "$d/out2" 2>&1 & pid=$!
wait_done $((n1 + 3))
kill -KILL $pid; wait $pid 2>/dev/null || true
gone || fail "orphan warpsim processes after SIGKILL"
n2=$(ndone)
[ "$n2" -lt 18 ] || fail "second sweep finished before SIGKILL"
ls "$d"/a/runs/*/status.json | xargs -n1 dirname | xargs -n1 basename | sort > "$d/done.before"
cp "$d/calls" "$d/calls.before"
$W sweep "$d/s.sweep" -o "$d/a" -j 2 -q > "$d/out3" 2>&1 || fail "final sweep: $(cat "$d/out3")"
grep -q "^$((18 - n2)) run(s) in .*: $((18 - n2)) ok; $n2 already finished (skipped)$" "$d/out3" || fail "resume: $(cat "$d/out3")"
[ "$(ndone)" -eq 18 ] || fail "not every run finished"
tail -n +$(($(wc -l < "$d/calls.before") + 1)) "$d/calls" > "$d/calls.new"
[ "$(grep -c '^run ' "$d/calls.new")" -eq $((18 - n2)) ] || fail "final sweep started $(grep -c '^run ' "$d/calls.new") runs, want $((18 - n2))"
while read -r id; do
  grep -q "/runs/$id/stats.json" "$d/calls.new" && fail "finished run $id was run again"
done < "$d/done.before"
# same results as an uninterrupted sweep
unset WARPSIM_BIN
$W sweep "$d/s.sweep" -o "$d/b" -j 2 -q > "$d/outb" 2>&1 || fail "reference sweep: $(cat "$d/outb")"
python3 - "$d/a" "$d/b" <<'P'
import json, os, sys
a, b = sys.argv[1:]
# the host's facts: times, speeds, and the threads the pool gave a run (which depend on when it
# started: the runs left at a sweep's tail get the spare cores), as threads.sh leaves them out
host = ("seconds", "per_sec", "threads_used", "memory_overlap_cycles", "sim.threads")
def clean(x):
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items() if not any(h in k for h in host)}
    return [clean(v) for v in x] if isinstance(x, list) else x
ids = sorted(os.listdir(f"{a}/runs"))
assert ids == sorted(os.listdir(f"{b}/runs")) and len(ids) == 18, ids
for i in ids:
    sa, sb = (json.load(open(f"{x}/runs/{i}/stats.json")) for x in (a, b))
    assert clean(sa) == clean(sb), i
    assert json.load(open(f"{a}/runs/{i}/status.json"))["state"] == "ok"
P
echo ok
