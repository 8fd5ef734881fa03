#!/usr/bin/env bash
# warpsim sweep --emit slurm: the job-array script lists the unfinished tasks, and its per-task
# entry point, run here with SLURM_ARRAY_TASK_ID set as sbatch would, runs the right manifest
# line and gives the same statistics as running that line with `warpsim run` by hand.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf 'name sl\nbenchmarks vecadd btree\nsize tiny\naxis sched lrr gto\n' > "$d/s.sweep"
$W sweep "$d/s.sweep" -o "$d/r" --emit slurm --array-limit 2 --slurm-opt=--partition=test > "$d/out"
s=$d/r/slurm.sh
[ -x "$s" ] && bash -n "$s" || fail "slurm.sh missing or not valid bash"
grep -qx '#SBATCH --array=0-3%2' "$s" || fail "array line: $(grep array "$s")"
grep -qx '#SBATCH --partition=test' "$s" || fail "extra option"
grep -q "^#SBATCH --job-name=warpsim-sl$" "$s" || fail "job name"
grep -q "submit: sbatch $s" "$d/out" || fail "no submit hint: $(cat "$d/out")"
# task 2 = manifest line 3
SLURM_ARRAY_TASK_ID=2 bash "$s" > "$d/t2" || fail "task 2: $(cat "$d/t2")"
IFS=$'\t' read -r idx id bench size cfg seed sets < <(sed -n 3p "$d/r/manifest.tsv")
[ "$idx" = 2 ] && [ "$bench" = btree ] || fail "manifest line 3: $idx $bench"
grep -q "^2 $id: ok in" "$d/t2" || fail "task output: $(cat "$d/t2")"
[ "$(ls "$d"/r/runs/*/status.json | wc -l)" -eq 1 ] || fail "task 2 ran more than its run"
setargs=(); for x in $sets; do setargs+=(--set "$x"); done
$W run "$bench" --size "$size" --seed "$seed" --config "$cfg" "${setargs[@]}" --json "$d/direct.json" > /dev/null
python3 - "$d/r/runs/$id/stats.json" "$d/direct.json" <<'P'
import json, sys
def clean(x):
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items() if "seconds" not in k and "per_sec" not in k}
    return [clean(v) for v in x] if isinstance(x, list) else x
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert clean(a) == clean(b) and a["check"] == "PASS" and a["config"]["sched.policy"] == "lrr"
P
# again: already finished, nothing run; re-emitting lists only what is left
SLURM_ARRAY_TASK_ID=2 bash "$s" | grep -q "already finished (ok), skipped" || fail "rerun of a task"
$W sweep "$d/s.sweep" -o "$d/r" --emit slurm > /dev/null
grep -qx '#SBATCH --array=0-1,3' "$s" || fail "pending array: $(grep array "$s")"
# several runs per task
$W sweep "$d/s.sweep" -o "$d/r" --emit slurm --per-task 2 > /dev/null
grep -qx '#SBATCH --array=0-1' "$s" || fail "per-task array: $(grep array "$s")"
SLURM_ARRAY_TASK_ID=0 bash "$s" > "$d/t0" || fail "task 0 of 2 runs: $(cat "$d/t0")"
[ "$(grep -c ': ok in' "$d/t0")" -eq 2 ] || fail "per-task 2: $(cat "$d/t0")"
$W report "$d/r" --plot none > "$d/rep"
grep -q "4 runs: 3 ok, 1 pending" "$d/rep" || fail "report of a partial sweep: $(head -3 "$d/rep")"
grep -q "1 run(s) not finished yet" "$d/rep" || fail "pending note"
# mistakes in the task call
set +e
bash "$s" > "$d/e1" 2>&1; rc1=$?
SLURM_ARRAY_TASK_ID=9 bash "$s" > "$d/e2" 2>&1; rc2=$?
set -e
[ $rc1 -ne 0 ] && grep -q "set SLURM_ARRAY_TASK_ID" "$d/e1" || fail "no task id: $(cat "$d/e1")"
[ $rc2 -eq 2 ] && grep -q "task index 9 is out of range: the manifest has 4 runs (2 tasks of 2)" "$d/e2" || fail "bad index: $(cat "$d/e2")"
echo ok
