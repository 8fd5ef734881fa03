#!/usr/bin/env bash
# The per-warp timeline (--timeline; doc/timeline.md):
#  - a hand-built case (tests/kernels/stats_locality.ptx `phases`: one CTA of two warps; warp 1
#    waits at the barrier while warp 0 spins): warp slot 1 has one barrier interval exactly as long
#    as the barrier statistics' wait, released by one "barrier release" on the CTA track; the
#    figure's warp-phases (and, on hotspot, every CTA's) are those of the RTRU statistics;
#  - a benchmark (hotspot tiny, barriers in every CTA) with and without merging: the trace-event
#    fields, no overlapping intervals, each warp's issues = the SM's count for it, and the totals
#    = the run's statistics (warp instructions, barrier and exit wait cycles, kernels)
#    (tests/cli/timeline_check.py); the statistics are identical without --timeline; the same
#    events with sm.skip_idle_cycles=false;
#  - the cycle window, the SM filter, gzip output, the event limit, a policy's counter tracks and
#    throttled intervals (ccws), a sweep's relative timeline.file going to the run's directory;
#  - errors: a bad window, a bad SM list, an unwritable file (before any simulation).
set -eu
W=${WARPSIM:-build/rel/warpsim}
CHECK="python3 tests/cli/timeline_check.py"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

# hand-built: the barrier wait of warp 1
out=$($W launch --ptx tests/kernels/stats_locality.ptx --kernel phases --grid 1 --block 64 \
  --buffer "buf f32 1024 seq 0 1" --arg buf --arg "u32 2000" --timeline $d/ph.json --set timeline.merge_cycles=0 2>&1) \
  || fail "phases: $out"
$CHECK $d/ph.json >/dev/null || fail "phases: $($CHECK $d/ph.json 2>&1)"
python3 - $d/ph.json <<'PY' || fail "phases: barrier intervals"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
bar = [e for e in ev if e["ph"] == "X" and e["name"] == "barrier"]
rel = [e for e in ev if e["ph"] == "i" and e["name"] == "barrier release"]
assert len(bar) == 1 and bar[0]["tid"] == 1, bar              # only warp 1 waits
assert len(rel) == 1 and rel[0]["tid"] == 100000, rel         # one release, on CTA slot 0's track
assert bar[0]["dur"] == rel[0]["args"]["wait_cycles"] > 1000, (bar, rel)
arr = [e for e in ev if e["ph"] == "i" and e["name"] == "barrier arrive"]
assert sorted(e["tid"] for e in arr) == [0, 1] and bar[0]["ts"] == min(e["ts"] for e in arr) + 1, arr
assert rel[0]["ts"] + 1 == bar[0]["ts"] + bar[0]["dur"], (bar, rel)
PY

# the static figure of that window (tools/wsexp/timeline_fig.py): warp 1's barrier wait is one
# rectangle in the barrier colour across most of the plot; a PNG too where gnuplot is installed,
# never with --plot none (the SVG still)
PYTHONPATH=tools python3 -m wsexp.timeline_fig $d/ph.json -o $d/fig --ctas 1 >/dev/null || fail "figure"
python3 - $d/fig.svg <<'PY' || fail "figure: no long barrier rectangle"
import re, sys
svg = open(sys.argv[1]).read()
w = [float(x) for x in re.findall(r'width="([0-9.]+)" height="8" fill="#1f77b4"', svg)]
assert len([x for x in w if x > 700]) == 1 and len(w) == 2, w   # of the 868 pixels the plot spans; and the legend's swatch
PY
if command -v gnuplot >/dev/null; then [ -s $d/fig.png ] || fail "no PNG with gnuplot installed"; fi
PYTHONPATH=tools python3 -m wsexp.timeline_fig $d/ph.json -o $d/fign --ctas 1 --plot none >/dev/null || fail "--plot none"
[ -s $d/fign.svg ] && [ ! -e $d/fign.png ] && cmp -s $d/fig.svg $d/fign.svg || fail "--plot none: not the same SVG alone"
# its warp-phases (BASE.csv): the barrier phase ends at the release, warp 1's wait is all of it
python3 - $d/ph.json $d/fig.csv <<'PY' || fail "figure: the warp-phases do not match the trace"
import csv, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
rel = [e for e in ev if e["ph"] == "i" and e["name"] == "barrier release"][0]
cta = [e for e in ev if e["ph"] == "X" and e["name"] == "CTA 0"][0]
b, x = csv.DictReader(open(sys.argv[2]))
assert (b["kind"], b["start"], b["end"], b["warps"]) == ("barrier", str(cta["ts"]), str(rel["ts"]), "2"), b
assert int(b["wait_cycles"]) == int(b["longest_wait"]) == rel["args"]["wait_cycles"], b
assert b["waits"] == f'0:0 1:{rel["args"]["wait_cycles"]}' and b["last_warp"] == "0", b   # warp 0 came last
assert abs(float(b["rtru"]) - rel["args"]["wait_cycles"] / (2 * (rel["ts"] - cta["ts"]))) < 1e-4, b
assert (x["kind"], x["start"], x["end"]) == ("exit", str(rel["ts"]), str(cta["ts"] + cta["dur"])), x
PY
PYTHONPATH=tools python3 -m wsexp.timeline_fig $d/ph.json -o $d/fig2 --sm 5 >/dev/null 2>&1 && fail "figure of an SM not recorded"
# --style warps (CAWA Figures 2a, 2c): a row per warp of the CTA, fastest first; a warp's cycles are
# launch to exit (its instants), its memory part the memory intervals' sum
PYTHONPATH=tools python3 -m wsexp.timeline_fig $d/ph.json -o $d/warps --ctas 1 --style warps >/dev/null || fail "warps figure"
python3 - $d/ph.json $d/warps.csv <<'PY' || fail "warps figure: the CSV does not match the trace"
import csv, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
pids = {e["pid"] for e in ev if e["ph"] == "i" and e["name"] == "warp launch"}
assert len(pids) == 1, pids                                  # the one CTA's SM (3.2.2's dispatch: SM 1)
sm_pid = pids.pop()
at = lambda name: {e["tid"]: e["ts"] for e in ev if e["ph"] == "i" and e["name"] == name and e["pid"] == sm_pid}
launch, exit_ = at("warp launch"), at("warp exit")  # by warp slot (= warp index: one CTA)
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 2 == len(launch) == len(exit_), (rows, launch, exit_)
ex = [int(r["exec_cycles"]) for r in rows]
assert ex == sorted(ex), ex                                   # fastest first
want = sorted(exit_[w] - launch[w] for w in launch)
assert ex == want, (ex, want)
for r in rows:
    mem = sum(e["dur"] for e in ev if e["ph"] == "X" and e["name"] == "memory" and e["pid"] == sm_pid
              and e["tid"] == int(r["warp"].split("w")[-1]))
    assert int(r["memory_cycles"]) == mem <= int(r["exec_cycles"]), (r, mem)
    w = int(r["warp"].split("w")[-1])
    assert int(r["exec_cycles"]) == exit_[w] - launch[w], (r, launch, exit_)
PY
[ -s $d/warps.svg ] || fail "warps figure: no SVG"
PYTHONPATH=tools python3 -m wsexp.timeline_fig $d/ph.json -o $d/warps2 --style bars >/dev/null 2>&1 && fail "an unknown style accepted"

# a benchmark: exact against the statistics, with and without merging
$W run hotspot --size tiny --json $d/s0.json >/dev/null 2>&1 || fail "hotspot without timeline"
$W run hotspot --size tiny --timeline $d/t1.json --json $d/s1.json >/dev/null 2>&1 || fail "hotspot with timeline"
$CHECK $d/t1.json $d/s1.json --full || fail "hotspot (merged)"
# the warp-phases the figures print (timeline_fig.cta_phases) over every CTA: the RTRU statistics exactly
PYTHONPATH=tools python3 - $d/t1.json $d/s1.json <<'PY' || fail "hotspot: the warp-phases differ from the stats"
import json, sys
from wsexp import timeline_fig as tf
ev, st = tf.load(sys.argv[1]), json.load(open(sys.argv[2]))["gpu"]
ctas = [e for e in ev if e["ph"] == "X" and e["pid"] and e["tid"] >= tf.CTA_TID and e["name"].startswith("CTA ")]
sms = sorted({c["pid"] - 1 for c in ctas})
ph = [p for sm in sms for p in tf.cta_phases(ev, sm, [c for c in ctas if c["pid"] == sm + 1])]
for kind in ("barrier", "exit"):  # the statistic: the mean of the phases' RTRU, each rounded to 1e-6
    e6 = [int(1e6 * w / (n * (b - a)) + 0.5) for _, _, k, a, b, n, w, *_ in ph if k == kind]
    mean = sum(e6) / 1e6 / len(e6) if e6 else -1
    assert abs(mean - st[f"rtru_{kind}_phase"]) < 6e-7, (kind, len(e6))  # printed to 1e-6
    assert sum(p[6] for p in ph if p[2] == kind) == st[f"{kind}_wait_cycles"], kind
PY
$W run hotspot --size tiny --timeline $d/t2.json --set timeline.merge_cycles=0 --set sm.skip_idle_cycles=false \
  --json $d/s2.json >/dev/null 2>&1 || fail "hotspot, no merging, no skipping"
$CHECK $d/t2.json $d/s2.json --full || fail "hotspot (every state change)"
$W run hotspot --size tiny --timeline $d/t3.json --set timeline.merge_cycles=0 >/dev/null 2>&1 || fail "hotspot, no merging"
cmp -s <(sort $d/t2.json) <(sort $d/t3.json) || fail "the timeline differs with sm.skip_idle_cycles=false"
python3 - $d/s0.json $d/s1.json <<'PY' || fail "statistics differ with --timeline"
import json, sys
def strip(o):  # host timings and the resolved config (it names the file) aside
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if not (k.endswith("seconds") or k.endswith("per_sec") or k == "config")}
    return [strip(x) for x in o] if isinstance(o, list) else o
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
assert a == b
PY

# window, SM filter, gzip
$W run hotspot --size tiny --timeline $d/w.json.gz --timeline-cycles 1000:3000 --timeline-sms 0,3-4 >/dev/null 2>&1 \
  || fail "window"
gzip -t $d/w.json.gz || fail "not gzip"
$CHECK $d/w.json.gz >/dev/null || fail "window: $($CHECK $d/w.json.gz 2>&1)"
python3 - $d/w.json.gz <<'PY' || fail "window / SM filter"
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1], "rt"))["traceEvents"]
t = [e for e in ev if e["ph"] != "M"]
assert t and all(1000 <= e["ts"] and e["ts"] + e.get("dur", 0) <= 3000 for e in t), "outside 1000:3000"
assert {e["pid"] for e in t if e["pid"]} == {1, 4, 5}, {e["pid"] for e in t}
assert {"IPC", "L1D misses", "MSHRs in use", "warps allowed"} <= {e["name"] for e in t if e["ph"] == "C"}
PY

# the event limit: a valid, truncated file and a warning
out=$($W run hotspot --size tiny --timeline $d/m.json --set timeline.max_events=300 2>&1) || fail "max_events: $out"
printf '%s\n' "$out" | grep -q "timeline: stopped after 300 events" || fail "no truncation warning"
python3 -c "import json,sys; ev=json.load(open(sys.argv[1]))['traceEvents']; assert any(e['name']=='timeline truncated' for e in ev)" \
  $d/m.json || fail "no truncation event"

# a policy's counter tracks and throttled warps (ccws refuses loads of warps outside its set)
$W run kmeans --size tiny --sched ccws --timeline $d/c.json --timeline-sms 0 >/dev/null 2>&1 || fail "ccws"
python3 - $d/c.json <<'PY' || fail "ccws tracks"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["name"] for e in ev if e["ph"] == "C"}
assert {"ccws: allowed_warps", "ccws: score_sum"} <= names, names
assert any(e["ph"] == "X" and e["name"] == "throttled" for e in ev)
PY
$W run kmeans --size tiny --sched gcaws --timeline $d/g.json --timeline-sms 0 >/dev/null 2>&1 || fail "gcaws"
python3 -c "import json,sys; ev=json.load(open(sys.argv[1]))['traceEvents']; v=[e['args']['value'] for e in ev if e['name']=='gcaws: max_ncrit']; assert v and max(v) > 0, v" \
  $d/g.json || fail "gcaws: no max_ncrit track"

# a sweep's relative timeline.file: in the run's directory
PYTHONPATH=tools python3 - <<'PY' || fail "sweep timeline.file"
import sys
from wsexp import runner
run = {"id": "x", "benchmark": "vecadd", "size": "tiny", "seed": 1, "config_path": "c.cfg", "sets": ["timeline.file=t.json.gz"]}
cmd = runner.command("warpsim", run, "/r/runs/x/stats.json")
assert "timeline.file=/r/runs/x/t.json.gz" in cmd, cmd
PY

# `warpsim report`: a figure per run directory holding a timeline (not from stats.json and the like)
mkdir -p $d/res/runs/r1 && cp $d/ph.json $d/res/runs/r1/timeline.json && echo '{}' > $d/res/runs/r1/stats.json
PYTHONPATH=tools python3 - $d/res <<'PY' || fail "report_runs"
import os, sys
from wsexp import timeline_fig
files = timeline_fig.report_runs(sys.argv[1], os.path.join(sys.argv[1], "report"))
assert [os.path.basename(f) for f in files if f.endswith(".svg")] == ["r1-timeline.svg"], files
PY

# errors: before any simulation, no file left behind
for bad in "--timeline-cycles 5:3" "--timeline-cycles 12" "--timeline-sms 0,99" "--timeline-sms 1,,2"; do
  out=$($W run vecadd --size tiny --timeline $d/e.json $bad 2>&1) && fail "accepted $bad"
  printf '%s\n' "$out" | grep -q "timeline\.\(cycles\|sms\)" || fail "$bad: $out"
done
out=$($W run vecadd --size tiny --functional --timeline $d/e.json 2>&1) && fail "--functional --timeline accepted"
printf '%s\n' "$out" | grep -q "needs the timing model" || fail "--functional: $out"
out=$($W run vecadd --size tiny --timeline $d/no/such/dir/t.json 2>&1) && fail "unwritable accepted"
printf '%s\n' "$out" | grep -q "cannot write" || fail "unwritable: $out"
printf '%s\n' "$out" | grep -q "^check" && fail "unwritable: ran anyway"
[ ! -e $d/e.json ] || fail "a file was left behind"
echo "timeline ok"
