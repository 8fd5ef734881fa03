#!/usr/bin/env bash
# warpsim report arithmetic on a sweep whose numbers are known (tests/cli/exp/fake_warpsim):
# the CSV has one row per run and units in its headers; IPC normalised to lrr with geometric
# and harmonic means per group; Best-SWL picks the best limit per benchmark; failures (a crash,
# a check mismatch) are recorded without stopping the other runs.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export WARPSIM_BIN=$PWD/tests/cli/exp/fake_warpsim
cat > "$d/m.sweep" <<'S'
name means
group g1 a b
group g2 c crashy wrong
size tiny
axis sched lrr gto swl:2,4
S
set +e
$W sweep "$d/m.sweep" -o "$d/r" -j 2 > "$d/sweep.out" 2>&1; rc=$?
set -e
[ $rc -eq 1 ] || fail "sweep with failed runs exits $rc (want 1): $(cat "$d/sweep.out")"
grep -q "12 ok, 4 crash, 4 mismatch" "$d/sweep.out" || fail "summary: $(cat "$d/sweep.out")"
python3 - "$d/r" <<'P'
import json, sys
st = json.load(open(f"{sys.argv[1]}/runs/" + [l.split("\t")[1] for l in open(f"{sys.argv[1]}/manifest.tsv") if "\tcrashy\t" in l][0] + "/status.json"))
assert st["state"] == "crash" and "SIGSEGV" in st["message"], st
P
$W report "$d/r" --plot none > "$d/report.out" || fail "report: $(cat "$d/report.out")"
python3 - "$d/r/report" <<'P'
import csv, math, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/results.csv")))
assert len(rows) == 20, len(rows)
head = rows[0].keys()
for h in ("gpu.ipc_warp_insts_per_cycle [warp insts/cycle]", "gpu.l1d_read_mpki [per 1000 warp insts]",
          "gpu.cycles [cycles]", "gpu.memory.l1d.hits [count]", "gpu.kernels [launches]", "run_wall_seconds [s]",
          "state", "sched", "config.sched.policy", "config.sched.swl.limit"):
    assert h in head, (h, list(head))
by = {(r["benchmark"], r["sched"]): r for r in rows}
assert by[("a", "swl:4")]["gpu.ipc_warp_insts_per_cycle [warp insts/cycle]"] == "3.0"
assert by[("a", "gto")]["gpu.kernel_ctas_per_sm [CTAs]"] == "3.0"  # (2 x 300 + 6 x 100) / 400 cycles
assert by[("crashy", "lrr")]["state"] == "crash" and by[("wrong", "gto")]["state"] == "mismatch"
t = {(r["group"], r["benchmark"]): r for r in csv.DictReader(open(f"{out}/table_ipc.csv"))}
assert list(t[("g1", "a")].keys())[2:] == ["lrr", "gto", "best-swl"], t[("g1", "a")].keys()
def near(s, v):
    assert abs(float(s) - v) < 1e-5, (s, v)
near(t[("g1", "a")]["gto"], 2.0); near(t[("g1", "a")]["best-swl"], 3.0)
near(t[("g1", "b")]["gto"], 0.5); near(t[("g1", "b")]["best-swl"], 2.0)
near(t[("g2", "c")]["best-swl"], 0.5)
assert t[("g2", "crashy")]["gto"] == ""
near(t[("g1", "geomean")]["gto"], 1.0); near(t[("g1", "harmonic mean")]["gto"], 0.8)
near(t[("g1", "geomean")]["best-swl"], math.sqrt(6)); near(t[("g1", "harmonic mean")]["best-swl"], 2.4)
near(t[("all", "geomean")]["gto"], 1.0); near(t[("all", "harmonic mean")]["gto"], 3 / 3.5)
near(t[("all", "geomean")]["best-swl"], 3 ** (1 / 3)); near(t[("all", "harmonic mean")]["best-swl"], 3 / (1 / 3 + 1 / 2 + 2))
near(t[("g2", "geomean")]["lrr"], 1.0)
m = {(r["group"], r["benchmark"]): r for r in csv.DictReader(open(f"{out}/table_l1d_mpki.csv"))}
near(m[("g1", "mean")]["lrr"], 15.0); near(m[("all", "mean")]["lrr"], 70 / 3); near(m[("g1", "geomean")]["gto"], math.sqrt(200))
P
grep -q "Best-SWL" "$d/report.out" || fail "no Best-SWL table: $(cat "$d/report.out")"
grep -Eq "^a +4 +3.000" "$d/report.out" || fail "Best-SWL of a is not limit 4: $(cat "$d/report.out")"
grep -Eq "^b +2 +4.000" "$d/report.out" || fail "Best-SWL of b is not limit 2: $(cat "$d/report.out")"
grep -q "crash    crashy" "$d/report.out" || fail "failed runs not listed: $(cat "$d/report.out")"
# Baseline and column choices; an unknown baseline is a usage error.
$W report "$d/r" --plot none --baseline gto --metrics ipc --no-best > "$d/r2.out"
grep -Eq "^a +0.500 +1.000 +0.750 +1.500" "$d/r2.out" || fail "baseline gto: $(cat "$d/r2.out")"
set +e
$W report "$d/r" --plot none --baseline nosuch > "$d/r3.out" 2>&1; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "baseline 'nosuch' is not a label of sched" "$d/r3.out" || fail "bad baseline: rc $rc $(cat "$d/r3.out")"
# Figures: without any plotting tool the report says so and still succeeds.
py=$(python3 -c "import sys; print(sys.executable)")
PATH=/nonexistent PYTHONPATH=tools "$py" -m wsexp report "$d/r" --plot gnuplot > "$d/r4.out" 2>&1 || fail "no gnuplot: $(cat "$d/r4.out")"
grep -q "gnuplot is not on PATH: figures skipped; install" "$d/r4.out" || fail "no message: $(cat "$d/r4.out")"
if command -v gnuplot >/dev/null; then
  $W report "$d/r" --plot gnuplot > "$d/r5.out" || fail "gnuplot report: $(cat "$d/r5.out")"
  for f in ipc.png ipc.svg l1d_mpki.png swl_ipc.png swl_ipc.svg; do
    [ -s "$d/r/report/$f" ] || fail "missing figure $f"
  done
  head -c 8 "$d/r/report/ipc.png" | grep -q PNG || fail "ipc.png is not a PNG"
  grep -q "<svg" "$d/r/report/ipc.svg" || fail "ipc.svg is not an SVG"
fi
echo ok
