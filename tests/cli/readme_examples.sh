#!/usr/bin/env bash
# The README's own examples, extracted from README.md and run as written, so they cannot rot: every
# `build/rel/warpsim ...` line of its Commands block (with the release build, as they say; in a
# scratch directory, so `results/` and `out.json` land there), its launch file (next to
# doc/examples/saxpy.ptx; it must equal doc/examples/saxpy.launch) and its sweep-file example
# (expanded with --dry-run). Optional parts `[...]` run both without and with their contents;
# the placeholders C and k=v become a preset and an override. `make` lines are not run here.
set -u
root=$PWD
R=$root/build/rel/warpsim
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$R" ] || fail "build/rel/warpsim is missing (make test builds it; the README's commands name it)"
mkdir -p "$d/work/build/rel" "$d/work/doc"
ln -s "$R" "$d/work/build/rel/warpsim"
ln -s "$root/configs" "$d/work/configs"
ln -s "$root/tools" "$d/work/tools"
cp -r "$root/experiments" "$d/work/experiments"
cp -r "$root/doc/examples" "$d/work/doc/examples"

python3 - "$root/README.md" "$d" <<'PY' || fail "extracting the README's examples"
import re, sys
readme, d = sys.argv[1], sys.argv[2]
blocks, cur, head = [], None, ""
for line in open(readme, encoding="utf-8").read().splitlines():
    if line.startswith("## "):
        head = line
    if line.startswith("```"):
        if cur is None:
            cur = (head, [])
        else:
            blocks.append(cur)
            cur = None
        continue
    if cur is not None:
        cur[1].append(line)
cmds = []
for h, lines in blocks:
    if h.startswith("## Commands"):
        for ln in lines:
            if not ln.startswith("build/rel/warpsim"):
                continue
            ln = re.sub(r"\s+#.*$", "", ln).replace("k=v", "l1d.assoc=8")
            ln = re.sub(r"--config C\b", "--config ccws-gt200", ln)
            # a paper's whole reproduction takes tens of minutes: the command as written, on one
            # cheap benchmark at tiny (tests/cli/reproduce_tiny.sh checks what it writes)
            ln = re.sub(r"(reproduce [a-z]+)$", r"\1 --size tiny --benchmarks needle -o repro-readme", ln)
            opt = re.findall(r"\[([^\]]*)\]", ln)
            cmds.append(re.sub(r"\s*\[[^\]]*\]", "", ln))
            if opt:
                cmds.append(re.sub(r"\[([^\]]*)\]", r"\1", ln))
launch = [l for h, l in blocks if h.startswith("## Running a PTX kernel")][0]
sweep = [l for h, l in blocks if h.startswith("## Experiments") and l and l[0].startswith("name")][0]
open(f"{d}/cmds.txt", "w").write("\n".join(cmds) + "\n")
open(f"{d}/readme.launch", "w").write("\n".join(launch) + "\n")
open(f"{d}/work/experiments/readme.sweep", "w").write("\n".join(sweep) + "\n")
PY
[ "$(wc -l < "$d/cmds.txt")" -ge 10 ] || fail "too few commands extracted: $(cat "$d/cmds.txt")"
cmp -s "$d/readme.launch" "$root/doc/examples/saxpy.launch" || fail "doc/examples/saxpy.launch differs from the README's launch file"

cd "$d/work"
while IFS= read -r cmd; do
  out=$(eval "$cmd" 2>&1 < /dev/null); rc=$?
  [ $rc -eq 0 ] || fail "README command failed (rc $rc): $cmd -> $(printf '%s\n' "$out" | tail -n 5)"
  case "$cmd" in
    *"run bfs --config ccws-gt200 --json out.json"*) python3 -m json.tool out.json > /dev/null || fail "out.json is not JSON" ;;
    *"launch doc/examples/saxpy.launch"*)
      printf '%s\n' "$out" | grep -qE "^y: [0-9.]+( [0-9.]+){7}$" || fail "the launch example printed no y: $out"
      [ "$(stat -c %s doc/examples/y.bin)" = 65536 ] || fail "y.bin has the wrong size" ;;
    *"sweep experiments/default.sweep"*) [ -f results/default/status.json ] || ls results/default/runs/*/status.json > /dev/null || fail "no results" ;;
    *"report results/default"*) [ -f results/default/report/results.csv ] || fail "no results.csv" ;;
  esac
  echo "ok: $cmd"
done < "$d/cmds.txt"
out=$("$R" sweep experiments/readme.sweep --dry-run 2>&1) || fail "the README's sweep file: $out"
printf '%s\n' "$out" | tail -n 1 | grep -qE "^[0-9]+ runs -> " || fail "the README's sweep file: $out"
echo ok
