#!/usr/bin/env bash
# warpsim reproduce on a hand-made paper folder run by the stand-in binary (tests/cli/exp/fake_warpsim,
# known IPC and MPKI): the claims arithmetic (harmonic/geometric/arithmetic means of per-benchmark
# ratios, ratio of means, maxima over a union of groups, differences, Best-SWL, single values),
# the effect ratio and verdict columns, claims needing a missing technique or statistic listed as not
# available, a figure's data normalised with its mean, --list, and bad input giving one clear error.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export WARPSIM_BIN=$PWD/tests/cli/exp/fake_warpsim
export WARPSIM_PAPERS=$d/papers
mkdir -p "$d/papers/toy"
cat > "$d/papers/toy/paper.txt" <<'S'
title     Toy paper (it's hand-made)
source    nowhere.txt
baseline  the fake binary
bench     A  a   g1
bench     B  b   g1
bench     C  c   g2
bench     D  -   "not written"
input     a  small "the paper's own input of A"
technique ccws sched.policy=ccws
S
cat > "$d/papers/toy/toy.sweep" <<'S'
name  toy
group g1 a b
group g2 c
size  small
axis  sched lrr gto swl:2,4 ccws
S
cat > "$d/papers/toy/figures.txt" <<'S'
figure f1 paper="Figure 1" sweep=toy title="IPC over lrr" metric=ipc series=sched:lrr,gto,ccws norm=sched:lrr mean=gmean
figure f2 paper="Figure 2" sweep=toy title="a statistic to come" metric=ipc series=sched:lrr needs="a statistic to come"
S
cat > "$d/papers/toy/claims.txt" <<'S'
claim c1 sweep=toy text="gto over lrr, hmean" metric=ipc group=g1 agg=hmean a=sched:gto b=sched:lrr paper=1.2
claim c2 sweep=toy text="gto vs lrr, gmean, neutral" metric=ipc group=g1 agg=gmean a=sched:gto b=sched:lrr paper=1.0 neutral=0.01
claim c3 sweep=toy text="best-swl over gto" metric=ipc group=all agg=amean a=sched:best:swl b=sched:gto paper=">1" source=figure
claim c4 sweep=toy text="mpki of c" metric=l1d_mpki bench=c agg=value a=sched:lrr paper=40
claim c5 sweep=toy text="ratio of means" metric=ipc group=g1 agg=amean mode=ratio-of-means a=sched:gto b=sched:lrr paper=0.9
claim c6 sweep=toy text="ccws over gto" metric=ipc group=g1 agg=hmean a=sched:ccws b=sched:gto paper=1.5
claim c7 sweep=toy text="max over g1+g2" metric=ipc group=g1+g2 agg=max a=sched:gto b=sched:lrr paper=2.5
claim c8 sweep=toy text="difference" metric=ipc group=g2 agg=amean mode=mean-of-differences a=sched:swl:4 b=sched:lrr paper=-1
claim c9 sweep=toy text="a statistic to come" metric=ipc group=g1 a=sched:lrr paper=0.5 needs="a statistic to come"
claim c10 sweep=toy text="Best-SWL limit of b" metric=best_param bench=b agg=value a=sched:best:swl paper=2
S
$W reproduce toy --size tiny -o "$d/out" -j 2 --plot none -q > "$d/run.out" 2>&1 || fail "reproduce: $(cat "$d/run.out")"
grep -q "10 claim(s) (6 hold, 1 weaker, 0 stronger, 1 opposite, 0 no result, 2 not available)" "$d/run.out" || fail "summary: $(cat "$d/run.out")"
python3 - "$d/out" <<'P'
import csv, sys
out = sys.argv[1]
rows = {r["claim"]: r for r in csv.DictReader(open(f"{out}/claims.csv"))}
def near(s, v):
    assert s != "" and abs(float(s) - v) < 1e-9, (s, v)
near(rows["c1"]["warpsim"], 0.8); assert rows["c1"]["verdict"] == "opposite"; near(rows["c1"]["effect_ratio"], -1.0)
near(rows["c2"]["warpsim"], 1.0); assert rows["c2"]["verdict"] == "holds" and rows["c2"]["effect_ratio"] == ""
near(rows["c3"]["warpsim"], 2.0); assert rows["c3"]["verdict"] == "holds" and rows["c3"]["effect_ratio"] == ""
near(rows["c4"]["warpsim"], 40.0); assert rows["c4"]["verdict"] == "holds"; near(rows["c4"]["effect_ratio"], 1.0)
near(rows["c5"]["warpsim"], 1.0); assert rows["c5"]["verdict"] == "weaker"; near(rows["c5"]["effect_ratio"], 0.0)
assert rows["c6"]["verdict"] == "not available" and "needs ccws" in rows["c6"]["note"] and "issue" not in rows["c6"]["note"], rows["c6"]
near(rows["c7"]["warpsim"], 2.0); assert rows["c7"]["verdict"] == "holds"; near(rows["c7"]["effect_ratio"], 1 / 1.5)
near(rows["c8"]["warpsim"], -2.0); assert rows["c8"]["verdict"] == "holds"; near(rows["c8"]["effect_ratio"], 2.0)
assert rows["c9"]["verdict"] == "not available" and "a statistic to come" in rows["c9"]["note"]
near(rows["c10"]["warpsim"], 2.0); assert rows["c10"]["verdict"] == "holds"   # b: swl:2 4.0 > swl:4 2.0
f = {(r["group"], r["benchmark"]): r for r in csv.DictReader(open(f"{out}/figures/f1.csv"))}
assert list(f[("g1", "a")].keys()) == ["group", "benchmark", "lrr", "gto"], f[("g1", "a")].keys()
near(f[("g1", "a")]["gto"], 2.0); near(f[("g1", "b")]["gto"], 0.5); near(f[("g1", "gmean")]["gto"], 1.0)
near(f[("g2", "c")]["gto"], 1.0)
md = open(f"{out}/report.md").read()
for want in ("| claim |", "| effect ratio | verdict |", "**missing**", "needs ccws", "Not available: needs a statistic to come",
             "some series not available"):
    assert want in md, want
P
# no run of the unavailable scheduler was made
! grep -rq "sched.policy=ccws" "$d/out/sweeps/toy/manifest.tsv" || fail "ccws runs were planned"
# --doc: the results part of a reference doc rewritten from the results folders (the hand-written part
# above the marker kept), with the verdict counts per paper and the commit that made the results
mkdir -p "$d/res" && cp -r "$d/out" "$d/res/toy-tiny"
python3 - "$d/res/toy-tiny/provenance.json" <<'P'
import json, sys
p = json.load(open(sys.argv[1]))
assert p["paper"] == "toy" and p["size"] == "tiny" and "commit" in p, p
P
printf '# Reference\nhand-written text\n\n%s\nold results\n' "$(PYTHONPATH=tools python3 -c 'from wsexp import reprodoc; print(reprodoc.MARK)')" > "$d/doc.md"
$W reproduce --doc "$d/doc.md" --size tiny --results "$d/res" > "$d/doc.out" 2>&1 || fail "--doc: $(cat "$d/doc.out")"
grep -q "^toy: 6 hold, 1 weaker, 0 stronger, 1 opposite, 0 no result, 2 not available" "$d/doc.out" || fail "--doc out: $(cat "$d/doc.out")"
grep -q "^hand-written text$" "$d/doc.md" || fail "--doc lost the reference part"
! grep -q "old results" "$d/doc.md" || fail "--doc kept the old results"
grep -q "^| toy | 6 | 1 | 0 | 1 | 0 | 2 |$" "$d/doc.md" || fail "--doc summary: $(cat "$d/doc.md")"
grep -q "^### toy: Toy paper" "$d/doc.md" && grep -q "^| c1 | gto over lrr, hmean |" "$d/doc.md" || fail "--doc claims: $(cat "$d/doc.md")"
grep -q "at commit " "$d/doc.md" || fail "--doc: no commit"
cp "$d/doc.md" "$d/doc1.md"
$W reproduce --doc "$d/doc.md" --size tiny --results "$d/res" > /dev/null 2>&1 && cmp -s "$d/doc.md" "$d/doc1.md" || fail "--doc twice differs"
# --readme: the same verdict counts between the README's marker lines, the rest of it kept; a README
# without them is refused before either file changes
readme_mark() { PYTHONPATH=tools python3 -c "from wsexp import reprodoc; print(reprodoc.README_$1)"; }
printf '# Readme\nabove\n%s\nold counts\n%s\nbelow\n' "$(readme_mark START)" "$(readme_mark END)" > "$d/README.md"
$W reproduce --doc "$d/doc.md" --readme "$d/README.md" --size tiny --results "$d/res" > "$d/rm.out" 2>&1 || fail "--readme: $(cat "$d/rm.out")"
grep -q "^| toy | 6 | 1 | 0 | 1 | 0 | 2 |$" "$d/README.md" && grep -q "^above$" "$d/README.md" && grep -q "^below$" "$d/README.md" \
  && ! grep -q "old counts" "$d/README.md" || fail "--readme: $(cat "$d/README.md")"
cmp -s "$d/doc.md" "$d/doc1.md" || fail "--readme changed the doc"
printf '# Readme\nno markers\n' > "$d/README2.md"
set +e; $W reproduce --doc "$d/doc.md" --readme "$d/README2.md" --size tiny --results "$d/res" > "$d/rm2.out" 2>&1; rc=$?; set -e
[ $rc = 2 ] && grep -q "README2.md: no verdict block" "$d/rm2.out" || fail "--readme without markers: $rc $(cat "$d/rm2.out")"
set +e; $W reproduce toy --doc "$d/doc.md" --readme "$d/README.md" --size tiny --results "$d/res" > "$d/rm3.out" 2>&1; rc=$?; set -e
[ $rc = 2 ] && grep -q "every paper" "$d/rm3.out" || fail "--readme with a paper: $rc $(cat "$d/rm3.out")"
printf 'no marker\n' > "$d/nomark.md"
set +e; $W reproduce --doc "$d/nomark.md" --size tiny --results "$d/res" > "$d/nm.out" 2>&1; rc=$?; set -e
[ $rc = 2 ] && grep -q "nomark.md: no marker line" "$d/nm.out" || fail "--doc without marker: $rc $(cat "$d/nm.out")"
# --no-run reports again from the same results, identically
cp "$d/out/claims.csv" "$d/claims1.csv"
$W reproduce toy --size tiny -o "$d/out" --no-run --plot none > "$d/rerun.out" 2>&1 || fail "--no-run: $(cat "$d/rerun.out")"
cmp -s "$d/claims1.csv" "$d/out/claims.csv" || fail "claims differ on --no-run"
$W reproduce --list > "$d/list.out" 2>&1 || fail "--list: $(cat "$d/list.out")"
grep -q "^toy: Toy paper" "$d/list.out" || fail "list: $(cat "$d/list.out")"
grep -Eq "Figure 1 +partly available +IPC over lrr \[needs ccws\]" "$d/list.out" || fail "list figure: $(cat "$d/list.out")"
grep -Eq "Figure 2 +not available" "$d/list.out" || fail "list figure 2: $(cat "$d/list.out")"
grep -q "claims: 10, 8 available now, 2 need a technique" "$d/list.out" || fail "list claims: $(cat "$d/list.out")"
grep -q "missing: D" "$d/list.out" || fail "list benchmarks: $(cat "$d/list.out")"
# --emit: one cluster run list per sweep (only what is available), and how to report afterwards
$W reproduce toy --size tiny -o "$d/cl" --emit parallel > "$d/emit.out" 2>&1 || fail "--emit parallel: $(cat "$d/emit.out")"
[ "$(wc -l < "$d/cl/sweeps/toy/parallel.txt")" = 12 ] || fail "parallel.txt: $(cat "$d/cl/sweeps/toy/parallel.txt")"
grep -q -- "--no-run" "$d/emit.out" || fail "--emit: no follow-up command: $(cat "$d/emit.out")"
[ ! -e "$d/cl/report.md" ] || fail "--emit wrote a report before any run"
$W reproduce toy --size tiny -o "$d/cs" --emit slurm > "$d/emit.out" 2>&1 || fail "--emit slurm: $(cat "$d/emit.out")"
grep -q "^#SBATCH --array=0-11$" "$d/cs/sweeps/toy/slurm.sh" || fail "slurm.sh: $(cat "$d/cs/sweeps/toy/slurm.sh")"
# --size paper runs each benchmark at the input its paper.txt declares (a at small), the others at paper
$W reproduce toy --size paper -o "$d/ps" --emit parallel > "$d/emit.out" 2>&1 || fail "--size paper: $(cat "$d/emit.out")"
python3 - "$d/ps/sweeps/toy/plan.json" <<'P' || fail "--size paper sizes"
import json, sys
sizes = {(r["benchmark"], r["size"]) for r in json.load(open(sys.argv[1]))["runs"]}
assert sizes == {("a", "small"), ("b", "paper"), ("c", "paper")}, sizes
P
grep -q "| a | .* | \`small\`: the paper's own input of A |" "$d/out/report.md" || fail "report: no input column"
$W reproduce --list > "$d/list.out" 2>&1
grep -q "inputs: 1 stated by the paper (report.md lists them); --size paper runs a small" "$d/list.out" || fail "list inputs: $(cat "$d/list.out")"
# --estimate: runs per sweep and the single-core hours from measured instruction counts (functional
# runs) and each configuration's speed at the size (a run stopped by --max-insts)
FAKE_LOG=$d/est.log $W reproduce toy --size tiny -o "$d/est" --estimate > "$d/est.out" 2>&1 || fail "--estimate: $(cat "$d/est.out")"
grep -Eq "^toy +12 +0 +0\.00$" "$d/est.out" && grep -Eq "^total +12 +0 +0\.00$" "$d/est.out" || fail "--estimate: $(cat "$d/est.out")"
[ -s "$d/est/estimate-cache.json" ] && [ ! -e "$d/est/sweeps" ] || fail "--estimate ran the sweep or kept no measurements"
grep -q "^run a --size tiny --functional" "$d/est.log" && grep -q "^run b --size tiny .*sched.policy=swl.* --max-insts 1000000$" \
  "$d/est.log" || fail "--estimate: not the runs it should time: $(cat "$d/est.log")"
[ "$(grep -c -- "--max-insts" "$d/est.log")" = 12 ] || fail "--estimate: one speed per configuration and benchmark"
# the runs already in the results folder count by their measured time (toy-tiny/ under --results)
$W reproduce toy --size tiny -o "$d/out" --estimate > "$d/est2.out" 2>&1 || fail "--estimate: $(cat "$d/est2.out")"
grep -Eq "^toy +12 +12 +0\.00$" "$d/est2.out" && grep -q "their wall time was [0-9.]*x it" "$d/est2.out" \
  || fail "--estimate over a results folder: $(cat "$d/est2.out")"
mkdir -p "$d/res2" && ln -s "$d/out" "$d/res2/toy-tiny"
$W reproduce toy --size tiny -o "$d/est3" --results "$d/res2" --estimate > "$d/est3.out" 2>&1 || fail "--results"
grep -Eq "^toy +12 +12 +0\.00$" "$d/est3.out" || fail "--estimate --results: $(cat "$d/est3.out")"
# --scale-from: each run measured at another size counts its CPU time (600 s) times its benchmark's
# warp instructions here over there (3000 at small / 1000 at tiny): 12 runs x 1800 s = 6 hours, with
# functional runs only (no timed run)
FAKE_CPU=600 $W reproduce toy --size tiny -o "$d/res3/toy-tiny" --plot none -q > "$d/run3.out" 2>&1 || fail "$(cat "$d/run3.out")"
FAKE_LOG=$d/est4.log $W reproduce toy --size small -o "$d/est4" --results "$d/res3" --scale-from tiny --estimate \
  > "$d/est4.out" 2>&1 || fail "--scale-from: $(cat "$d/est4.out")"
grep -Eq "^toy +12 +0 +12 +6\.00$" "$d/est4.out" && grep -Eq "^total +12 +0 +12 +6\.00$" "$d/est4.out" \
  && grep -Eq "^longest run: 0\.50 hours \(a at small, sched (lrr|gto|swl:2|swl:4)\)$" "$d/est4.out" \
  || fail "--scale-from: $(cat "$d/est4.out")"
! grep -q -- "--max-insts" "$d/est4.log" && grep -q "^run a --size small --functional" "$d/est4.log" \
  && grep -q "^run a --size tiny --functional" "$d/est4.log" || fail "--scale-from: runs made: $(cat "$d/est4.log")"
# bad input: exit 2, one line naming the problem, never a traceback
bad() {  # bad WANT-IN-MESSAGE ARGS...
  local want=$1; shift
  set +e; $W reproduce "$@" > "$d/bad.out" 2>&1; local rc=$?; set -e
  [ $rc -eq 2 ] || fail "reproduce $*: exit $rc (want 2): $(cat "$d/bad.out")"
  grep -qF -- "$want" "$d/bad.out" || fail "reproduce $*: message: $(cat "$d/bad.out")"
  ! grep -q Traceback "$d/bad.out" || fail "reproduce $*: traceback"
}
bad "no paper 'nope'" nope
bad "which paper" 
bad "--benchmarks: zz not in any sweep" toy --benchmarks zz -o "$d/o2"
bad "--sweeps: no sweep qq" toy --sweeps qq -o "$d/o2"
bad "invalid choice" toy --size huge
bad "--scale-from goes with --estimate" toy --scale-from tiny -o "$d/o2"
bad "--scale-from small: the size being estimated" toy --size small --scale-from small --estimate -o "$d/o2"
bad "--scale-from paper: no results folder" toy --scale-from paper --estimate -o "$d/o3"
echo 'claim c11 sweep=toy metric=ipc group=g9 a=sched:lrr paper=1 text=x' >> "$d/papers/toy/claims.txt"
bad "claims.txt:11: sweep 'toy' has no group 'g9'" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/claims.txt"
echo 'claim c11 sweep=toy metric=ipc group=g1 a=sched:zzz paper=1 text=x' >> "$d/papers/toy/claims.txt"
bad "claims.txt:11: 'zzz' is not a label of sched" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/claims.txt"
echo 'claim c11 sweep=toy metric=ipc group=g1 a=sched:lrr paper=lots text=x' >> "$d/papers/toy/claims.txt"
bad "claims.txt:11: paper= must be a number" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/claims.txt"
cp "$d/papers/toy/paper.txt" "$d/paper.txt"
echo 'input zz small' >> "$d/papers/toy/paper.txt"
bad "paper.txt: input zz: not a benchmark of a bench line (ours: a, b, c)" toy -o "$d/o2"
cp "$d/paper.txt" "$d/papers/toy/paper.txt"; echo 'input b huge' >> "$d/papers/toy/paper.txt"
bad "paper.txt:10: input b: unknown size 'huge' (sizes: tiny, small, paper)" toy -o "$d/o2"
cp "$d/paper.txt" "$d/papers/toy/paper.txt"; echo 'input a tiny' >> "$d/papers/toy/paper.txt"
bad "paper.txt:10: input a declared twice" toy -o "$d/o2"
cp "$d/paper.txt" "$d/papers/toy/paper.txt"
echo 'claim c11 sweep=toy metric=l1d_mpkii group=g1 a=sched:lrr paper=1 text=x' >> "$d/papers/toy/claims.txt"
bad "claims.txt:11: unknown metric 'l1d_mpkii' (did you mean l1d_mpki" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/claims.txt"
echo 'claim c11 sweep=toy metric=ipc bench=zz a=sched:lrr paper=1 text=x' >> "$d/papers/toy/claims.txt"
bad "claims.txt:11: sweep 'toy' has no benchmark 'zz' (benchmarks: a, b, c)" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/claims.txt"
echo 'claim c11 sweep=toy metric=ipc group=g1 a=sched:gto b=sched:lrr paper=inf text=x' >> "$d/papers/toy/claims.txt"
bad "claims.txt:11: paper= must be a finite number, got 'inf'" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/claims.txt"
echo 'figure f9 sweep=toy metric=ipc series=sched:lrr groups=g1,g7' >> "$d/papers/toy/figures.txt"
bad "figures.txt:3: sweep 'toy' has no group 'g7' (groups: g1, g2, all)" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/figures.txt"
echo 'figure f9 sweep=toy metric=ipcc series=sched:lrr' >> "$d/papers/toy/figures.txt"
bad "figures.txt:3: unknown metric 'ipcc' (did you mean ipc" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/figures.txt"
echo 'claim c11 sweep=toy metric=best_param bench=a a=sched:gto paper=1 text=x' >> "$d/papers/toy/claims.txt"
bad "claims.txt:11: metric=best_param is the N of a best:P label's choice" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/claims.txt"
printf '# caf\xe9\n' >> "$d/papers/toy/figures.txt"
bad "figures.txt:3: not UTF-8 text (byte 0xe9)" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/figures.txt"
# a dotted statistic no run has: named in the claim's note
echo 'claim c11 sweep=toy metric=gpu.no_such_stat group=g1 a=sched:lrr paper=1 text=x' >> "$d/papers/toy/claims.txt"
$W reproduce toy --size tiny -o "$d/out" --no-run --plot none > "$d/ns.out" 2>&1 || fail "no-such-stat: $(cat "$d/ns.out")"
grep -q "^c11,1.0,stated,,,no result,no finished run has the statistic gpu.no_such_stat" "$d/out/claims.csv" \
  || fail "absent statistic: $(grep c11 "$d/out/claims.csv")"
sed -i '$d' "$d/papers/toy/claims.txt"
echo 'figure f9 sweep=toy metric=ipc kind=pie' >> "$d/papers/toy/figures.txt"
bad "figures.txt:3: kind= is bars, lines or series" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/figures.txt"
# series figures (a file each run writes): their keys checked against the sweep
echo 'figure f9 sweep=toy metric=ipc x=c' >> "$d/papers/toy/figures.txt"
bad "figures.txt:3: x apply to kind=series only" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/figures.txt"
echo 'figure f9 kind=series sweep=toy bench=a file=s.txt columns=c,v x=c y=zz' >> "$d/papers/toy/figures.txt"
bad "figures.txt:3: column 'zz' is not in columns= (c, v)" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/figures.txt"
echo 'figure f9 kind=series sweep=toy bench=a file=s.txt columns=c,v x=c y=v series=sched:lrr' >> "$d/papers/toy/figures.txt"
bad "figures.txt:3: figure f9: no set value of sweep 'toy' writes {rundir}/s.txt" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/figures.txt"
echo 'figure f9 kind=series sweep=toy bench=zz file=s.txt columns=c,v x=c y=v' >> "$d/papers/toy/figures.txt"
bad "figures.txt:3: figure f9: sweep 'toy' has no benchmark zz" toy -o "$d/o2"
sed -i '$d' "$d/papers/toy/figures.txt"
echo 'figure f9 kind=series sweep=toy bench=a file=s.txt columns=c,v x=c y=v metric=ipc' >> "$d/papers/toy/figures.txt"
bad "figures.txt:3: figure f9: metric do not apply to kind=series" toy -o "$d/o2"
exit 0
