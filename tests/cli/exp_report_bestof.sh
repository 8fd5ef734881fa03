#!/usr/bin/env bash
# Best-of families over labels P:N or PN that differ in one config key (CCWS's K_throttle labels k1 ...
# k128; the kopt claim), on the stand-in binary (tests/cli/exp/fake_warpsim: IPC of a and b per k known):
# `warpsim report` shows best-k (the k with the highest IPC per benchmark, the kN columns hidden
# behind it, its own table naming the chosen k), and `warpsim reproduce` computes a claim
# a=sched:best:k b=sched:k2 from the same choice. Labels P:N that differ in two keys form none.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export WARPSIM_BIN=$PWD/tests/cli/exp/fake_warpsim
export WARPSIM_PAPERS=$d/papers
mkdir -p "$d/papers/kp"
cat > "$d/papers/kp/paper.txt" <<'S'
title     K paper (hand-made)
source    nowhere.txt
baseline  the fake binary
bench     A  a   g1
bench     B  b   g1
S
cat > "$d/papers/kp/kp.sweep" <<'S'
name  kp
group g1 a b
size  small
axis  sched gto
variant sched k1 sched.policy=gto sched.fake.k=1
variant sched k2 sched.policy=gto sched.fake.k=2
variant sched k4 sched.policy=gto sched.fake.k=4
variant sched m:1 sched.policy=gto sched.fake.k=1 l1d.size=8192
variant sched m:2 sched.policy=gto sched.fake.k=2 l1d.size=4096
S
: > "$d/papers/kp/figures.txt"
cat > "$d/papers/kp/claims.txt" <<'S'
claim kopt sweep=kp text="best k vs k2 within 4%" metric=ipc group=g1 agg=hmean a=sched:best:k b=sched:k2 paper=1.0 neutral=0.04
claim kb   sweep=kp text="best k of b over gto" metric=ipc bench=b agg=value a=sched:best:k b=sched:gto paper=2.5
S
$W reproduce kp --size tiny -o "$d/out" -j 2 --plot none -q > "$d/run.out" 2>&1 || fail "reproduce: $(cat "$d/run.out")"
python3 - "$d/out" <<'P'
import csv, sys
rows = {r["claim"]: r for r in csv.DictReader(open(f"{sys.argv[1]}/claims.csv"))}
def near(s, v):
    assert s != "" and abs(float(s) - v) < 1e-9, (s, v)
# best k: a -> k2 (3.0), b -> k1 (2.5); over k2 (a 3.0, b 2.0): ratios 1.0 and 1.25, hmean 2/(1+0.8)
near(rows["kopt"]["warpsim"], 2 / 1.8); assert rows["kopt"]["verdict"] == "stronger", rows["kopt"]
near(rows["kb"]["warpsim"], 2.5)
P
$W report "$d/out/sweeps/kp" --plot none > "$d/report.out" || fail "report: $(cat "$d/report.out")"
python3 - "$d/out/sweeps/kp/report" <<'P'
import csv, sys
t = {(r["group"], r["benchmark"]): r for r in csv.DictReader(open(f"{sys.argv[1]}/table_ipc.csv"))}
cols = list(t[("g1", "a")].keys())[2:]
assert cols == ["gto", "best-k", "m:1", "m:2"], cols   # k1 k2 k4 hidden behind best-k; m:N differ in two keys: no family
# normalised to gto (a 2.0, b 1.0)
assert abs(float(t[("g1", "a")]["best-k"]) - 1.5) < 1e-9 and abs(float(t[("g1", "b")]["best-k"]) - 2.5) < 1e-9
P
grep -q "Best of kN: best sched.fake.k" "$d/report.out" || fail "no best-k table: $(cat "$d/report.out")"
grep -Eq "^a +2 +3.000" "$d/report.out" || fail "best k of a is not 2: $(cat "$d/report.out")"
grep -Eq "^b +1 +2.500" "$d/report.out" || fail "best k of b is not 1: $(cat "$d/report.out")"
