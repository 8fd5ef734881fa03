#!/usr/bin/env bash
# A user's CUDA program in a sweep (`program NAME PATH [ARGS...]`): tests/cuda/sweep_scale.cu
# compiled here with nvcc -cudart shared, swept over two schedulers through `warpsim exec --json`
# from another working folder; its exit status is its check (a failing one is recorded as
# mismatch), results equal a direct `warpsim exec`, the report's tables and CSV hold its rows,
# resume, --emit parallel/slurm tasks and stable ids work as for benchmarks, and a missing, non-
# executable or statically linked program is refused naming the line, and a program over the time
# limit dies with its run. SKIP without nvcc.
set -eu
W=${WARPSIM:-build/rel/warpsim}
W=$(cd "$(dirname "$W")" && pwd)/$(basename "$W")
NVCC=${NVCC:-$(command -v /usr/local/cuda/bin/nvcc nvcc 2>/dev/null | head -n 1)}
if [ -z "$NVCC" ] || ! [ -x "$NVCC" ]; then echo "SKIP: nvcc not found (the CUDA program is compiled at test time)"; exit 0; fi
[ -f build/rel/lib/libcudart.so.13 ] || { echo "build/rel/lib/libcudart.so.13 is missing (make)"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$d/study/bin" "$d/elsewhere"
"$NVCC" -cudart shared -arch=sm_75 -O2 -o "$d/study/bin/scale" tests/cuda/sweep_scale.cu > "$d/nvcc.log" 2>&1 &
"$NVCC" -arch=sm_75 -O2 -o "$d/study/bin/static" tests/cuda/sweep_scale.cu > "$d/nvcc2.log" 2>&1 || fail "nvcc (static): $(cat "$d/nvcc2.log")"
wait $! || fail "nvcc: $(cat "$d/nvcc.log")"
cat > "$d/study/user.sweep" <<'S'
name user
program scale      bin/scale 2048                  # relative to this file's folder
program scale-big  {sweepdir}/bin/scale 8192
program scale-bad  ./bin/scale 512 wrong           # its own check fails: exit status 3
group mine scale scale-big
axis sched lrr gto
report baseline=lrr metrics=ipc,cycles
S
cd "$d/elsewhere"
set +e; $W sweep ../study/user.sweep -o "$d/r" -j 2 > "$d/out" 2>&1; rc=$?; set -e
[ $rc -eq 1 ] || fail "sweep rc $rc (want 1: two runs fail their check): $(cat "$d/out")"
grep -q "^6 run(s) in .*: 4 ok, 2 mismatch$" "$d/out" || fail "summary: $(cat "$d/out")"
$W exec --sched gto --json "$d/direct.json" -- "$d/study/bin/scale" 8192 > /dev/null 2>&1 || fail "direct exec"
python3 - "$d/r" "$d/direct.json" <<'P'
import json, os, sys
r = sys.argv[1]
direct = json.load(open(sys.argv[2]))
plan = json.load(open(f"{r}/plan.json"))
assert [x["benchmark"] for x in plan["runs"]] == ["scale"] * 2 + ["scale-big"] * 2 + ["scale-bad"] * 2
for x in plan["runs"]:
    d = f"{r}/runs/{x['id']}"
    st, js = json.load(open(f"{d}/status.json")), json.load(open(f"{d}/stats.json"))
    bad = x["benchmark"] == "scale-bad"
    assert x["size"] == "-" and x["id"].startswith(f"{x['benchmark']}.gtx480.{x['labels']['sched']}-"), x
    assert st["state"] == ("mismatch" if bad else "ok"), st
    assert st["check"] == ("exit 3" if bad else "PASS") and st["exit_status"] == (3 if bad else 0), st
    if bad:
        assert st["message"] == "the program's check failed: exit status 3; scale 512: FAIL", st
    assert js["config"]["sched.policy"] == x["labels"]["sched"], js["config"]["sched.policy"]
    n = {"scale": 2048, "scale-big": 8192, "scale-bad": 512}[x["benchmark"]]
    assert js["args"][0] == str(n) and js["launches"][0]["grid"][0] == n // 128, js["args"]
    # the program ran in its run folder and wrote its file there
    assert open(f"{d}/scale.out").read().split()[0] == str(n)
    cmd = json.load(open(f"{d}/run.json"))["command"]
    assert " exec --config gtx480 --set sched.policy=" in cmd and cmd.endswith(f"/study/bin/scale {n}" + (" wrong" if bad else "")), cmd
    if x["benchmark"] == "scale-big" and x["labels"]["sched"] == "gto":
        assert js["gpu"]["cycles"] == direct["gpu"]["cycles"] and js["warp_insts"] == direct["warp_insts"], \
            (js["gpu"]["cycles"], direct["gpu"]["cycles"])
P
# resume: every run is finished, nothing runs again
$W sweep ../study/user.sweep -o "$d/r" -j 2 > "$d/out2" 2>&1 || fail "rerun: $(cat "$d/out2")"
grep -q "6 already finished (skipped)" "$d/out2" || fail "resume: $(cat "$d/out2")"
# the report: IPC normalised to lrr, the failing program shown by its state
$W report "$d/r" --plot none > "$d/rep" 2>&1 || fail "report: $(cat "$d/rep")"
grep -qE "^scale +1\.000 +[0-9]+\.[0-9]{3}$" "$d/r/report/tables.txt" || fail "tables: $(cat "$d/r/report/tables.txt")"
grep -qE "^scale-big +1\.000 +[0-9]+\.[0-9]{3}$" "$d/r/report/tables.txt" || fail "tables: scale-big"
grep -qE "^scale-bad +mismatch +mismatch$" "$d/r/report/tables.txt" || fail "tables: scale-bad"
python3 - "$d/r" <<'P'
import csv, json, sys
r = sys.argv[1]
rows = list(csv.DictReader(open(f"{r}/report/results.csv")))
assert len(rows) == 6
for row in rows:
    st = json.load(open(f"{r}/runs/{row['id']}/stats.json"))
    assert row["size"] == "-" and row["sched"] in ("lrr", "gto"), row
    assert row["check"] == ("exit 3" if row["benchmark"] == "scale-bad" else "PASS"), row["check"]
    assert int(row["gpu.cycles [cycles]"]) == st["gpu"]["cycles"], row
P
# with benchmarks at one size the program sits in their tables (no section of its own)
printf 'benchmarks vecadd\nsize tiny\nprogram scale bin/scale 2048\naxis sched lrr gto\n' > "$d/study/mix.sweep"
$W sweep "$d/study/mix.sweep" -o "$d/x" -j 2 --report > "$d/mix" 2>&1 || fail "mixed sweep: $(cat "$d/mix")"
grep -q "^IPC normalised to lrr$" "$d/x/report/tables.txt" && ! grep -q "size" "$d/x/report/tables.txt" \
  && grep -qE "^vecadd +1\.000 " "$d/x/report/tables.txt" && grep -qE "^scale +1\.000 " "$d/x/report/tables.txt" \
  || fail "mixed tables: $(cat "$d/x/report/tables.txt")"
# a recorded stats.json that cannot stand for its run is corrupt, not a result
python3 - "$d/r" <<'P'
import json, sys
r = sys.argv[1]
rid = json.load(open(f"{r}/plan.json"))["runs"][0]["id"]
p = f"{r}/runs/{rid}/stats.json"
j = json.load(open(p)); j["gpu"]["cycles"] = -5; json.dump(j, open(p, "w"))
P
$W report "$d/r" --plot none > "$d/rep2" 2>&1 || true
grep -qE "corrupt +scale.gtx480.lrr-.*gpu.cycles is negative" "$d/rep2" || fail "corrupt stats not caught: $(cat "$d/rep2")"
# cluster tasks: the same ids, the same results
$W sweep ../study/user.sweep -o "$d/p" --emit parallel > /dev/null 2>&1 || fail "emit parallel"
[ "$(wc -l < "$d/p/parallel.txt")" = 6 ] || fail "parallel.txt: $(cat "$d/p/parallel.txt")"
$W sweep ../study/user.sweep -o "$d/p" --emit slurm > /dev/null 2>&1 || fail "emit slurm"
(cd / && SLURM_ARRAY_TASK_ID=3 bash "$d/p/slurm.sh") > "$d/task" 2>&1 || fail "slurm task: $(cat "$d/task")"
grep -q "^3 scale-big.gtx480.gto-.*: ok in" "$d/task" || fail "slurm task output: $(cat "$d/task")"
cmp <(cut -f2 "$d/r/manifest.tsv") <(cut -f2 "$d/p/manifest.tsv") || fail "ids differ between sweeps"
python3 -c 'import json,sys; a,b=(json.load(open(p))["gpu"]["cycles"] for p in sys.argv[1:]); sys.exit(a != b)' \
  "$d/r/runs/$(sed -n 4p "$d/r/manifest.tsv" | cut -f2)/stats.json" "$d/p/runs/$(sed -n 4p "$d/p/manifest.tsv" | cut -f2)/stats.json" \
  || fail "the task's cycles differ from the local run's"
# ids do not depend on where the sweep file is
cp -r "$d/study" "$d/moved"
$W sweep "$d/moved/user.sweep" -o "$d/m" --dry-run | awk '$3 ~ /-[0-9a-f]+$/ {print $3}' > "$d/ids"
cmp "$d/ids" <(cut -f2 "$d/r/manifest.tsv") || fail "ids depend on the sweep file's folder"
$W sweep "$d/moved/user.sweep" -o "$d/m" --emit parallel > /dev/null 2>&1 || fail "emit parallel (moved)"
# a program warpsim exec cannot run is refused before anything runs, naming the line
printf 'program s bin/static 64\n' > "$d/study/st.sweep"
printf 'program s bin/nothere 64\n' > "$d/study/no.sweep"
printf 'program s user.sweep\n' > "$d/study/nx.sweep"
for c in "st:links the CUDA runtime statically.*nvcc -cudart shared" "no:bin/nothere: no such file" "nx:user.sweep: not executable"; do
  set +e; $W sweep "$d/study/${c%%:*}.sweep" -o "$d/e" > "$d/err" 2>&1; rc=$?; set -e
  [ $rc -eq 2 ] || fail "${c%%:*}: rc $rc (want 2)"
  grep -qE "^warpsim sweep: .*/${c%%:*}\.sweep:1: program s: .*${c#*:}" "$d/err" || fail "${c%%:*}: $(cat "$d/err")"
done
[ ! -e "$d/e" ] || fail "a refused sweep wrote results"
# a program gone when its task runs: warpsim exec refuses it, recorded as usage
rm "$d/moved/bin/scale"
set +e; $W sweep --task "$d/m" 0 > "$d/gone" 2>&1; rc=$?; set -e
[ $rc -eq 1 ] && grep -q "usage .*warpsim exec: .*no such program" "$d/gone" || fail "program gone (rc $rc): $(cat "$d/gone")"
# a program over the time limit is stopped with warpsim exec: no orphan keeps running
printf '#!/bin/sh\necho $$ > pid\nexec sleep 120\n' > "$d/study/bin/slow"; chmod +x "$d/study/bin/slow"
printf 'program slow bin/slow\ntimeout 1\n' > "$d/study/slow.sweep"
set +e; $W sweep "$d/study/slow.sweep" -o "$d/t" > "$d/slow" 2>&1; rc=$?; set -e
[ $rc -eq 1 ] && grep -q "^1 run(s) in .*: 1 timeout$" "$d/slow" || fail "slow program (rc $rc): $(cat "$d/slow")"
pid=$(cat "$d"/t/runs/slow.gtx480-*/pid) || fail "the slow program did not start"
# (gone, or a zombie left to a PID 1 that does not reap, as in some containers); the kill reaches it
# asynchronously, so poll (up to 10 s) instead of sleeping a fixed time
for _ in $(seq 200); do
  state=$(awk '{print $3}' "/proc/$pid/stat" 2> /dev/null || true)
  [ -z "$state" ] || [ "$state" = Z ] && break
  sleep 0.05
done
[ -z "$state" ] || [ "$state" = Z ] || { kill "$pid"; fail "the program outlived its timed-out run"; }
echo ok
