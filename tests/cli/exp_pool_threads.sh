#!/usr/bin/env bash
# warpsim sweep --cores: the pool starts the longest run first and gives a run the cores no waiting
# run takes (here -j 1 on 2 cores: two threads each, sim.threads=2 on its command line, "threads": 2
# in its status.json), and the results are those of a one-thread sweep (--threads-per-run 1): the
# same run ids and folders, and every statistic equal but the host's (times, speeds, the threads
# used). Bad values exit 2.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf 'name pool\nbenchmarks btree vecadd\nsize tiny\nset sched.policy=lrr\n' > "$d/s.sweep"
$W sweep "$d/s.sweep" -o "$d/two" --cores 2 -j 1 > "$d/out2" 2>&1 || fail "sweep on 2 cores: $(cat "$d/out2")"
grep -q "1 at a time on 2 core(s), threads per run: auto" "$d/out2" || fail "first line: $(cat "$d/out2")"
# longest first: vecadd (90,112 warp instructions at tiny, bench/README.md) before btree (56,181)
grep -qE '^\[1/2\] ok .* vecadd\.tiny\..* \(2 threads\)' "$d/out2" && grep -qE '^\[2/2\] ok .* btree\.tiny\.' "$d/out2" \
  || fail "order: $(cat "$d/out2")"
$W sweep "$d/s.sweep" -o "$d/one" --cores 2 -j 1 --threads-per-run 1 > "$d/out1" 2>&1 || fail "one thread: $(cat "$d/out1")"
grep -q "1 thread(s) per run" "$d/out1" || fail "first line: $(cat "$d/out1")"
[ "$(ls "$d/two/runs")" = "$(ls "$d/one/runs")" ] && [ "$(ls "$d/two/runs" | wc -l)" -eq 2 ] || fail "run folders differ"
cmp -s "$d/two/manifest.tsv" "$d/one/manifest.tsv" || fail "manifests differ"
python3 - "$d/two" "$d/one" <<'P' || fail "results differ"
import json, os, sys
two, one = sys.argv[1:]
host = ("seconds", "per_sec", ".threads_used", ".memory_overlap_cycles")

def flat(o, p=""):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from flat(v, f"{p}.{k}" if p else k)
    else:
        yield p, o

for rid in sorted(os.listdir(f"{two}/runs")):
    st = {x: json.load(open(f"{x}/runs/{rid}/status.json")) for x in (two, one)}
    assert st[two]["state"] == st[one]["state"] == "ok", (rid, st)
    assert (st[two]["threads"], st[one]["threads"]) == (2, 1), (rid, st)
    cmd = {x: json.load(open(f"{x}/runs/{rid}/run.json"))["command"] for x in (two, one)}
    assert "--set sim.threads=2" in cmd[two] and "sim.threads" not in cmd[one], cmd
    s = {x: dict(flat({k: v for k, v in json.load(open(f"{x}/runs/{rid}/stats.json")).items() if k != "config"}))
         for x in (two, one)}
    keys = [k for k in s[one] if not any(k.endswith(h) for h in host)]
    assert set(s[two]) == set(s[one]) and len(keys) > 100, rid
    bad = [k for k in keys if s[two][k] != s[one][k]]
    assert not bad, (rid, bad[:5])
    c = {x: json.load(open(f"{x}/runs/{rid}/config.json")) for x in (two, one)}
    assert c[two]["sim.threads"] == 2 and c[one]["sim.threads"] == 1, rid
    assert {k: v for k, v in c[two].items() if k != "sim.threads"} == {k: v for k, v in c[one].items() if k != "sim.threads"}
P
for bad in "--cores 0" "--cores x" "--threads-per-run 0" "--threads-per-run many"; do
  set +e; $W sweep "$d/s.sweep" -o "$d/bad" $bad > "$d/o" 2>&1; rc=$?; set -e
  [ $rc -eq 2 ] && grep -q -- "${bad%% *}" "$d/o" || fail "$bad: exit $rc: $(cat "$d/o")"
done
for c in sweep reproduce; do
  $W $c --help > "$d/h" 2>&1 || true
  grep -q -- "--cores" "$d/h" && grep -q -- "--threads-per-run" "$d/h" || fail "$c --help: $(cat "$d/h")"
done
echo ok
