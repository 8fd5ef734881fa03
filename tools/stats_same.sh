#!/usr/bin/env bash
# tools/stats_same.sh REF NEW [JOBS]
# Checks that a change meant to be model-neutral (a speed change, a refactoring)
# is: runs two warpsim binaries on the same cases and compares every statistic
# of their JSON results, leaving out only the host's timings (the keys ending
# in "seconds" or "per_sec"). The cases: every benchmark at `tiny` under gto;
# six cache-sensitive and -insensitive ones under lrr, two-level and swl; other
# cache policies; the ccws-gt200 preset; cycle skipping off; one `small` run;
# and a changed geometry (4 schedulers, 8 partitions, 1 MB L2).
# Prints the cases that differ (or fail) and exits 1 if there are any.
# CASES=REGEX keeps only the cases whose line ("bench size sched [args]")
# matches the extended regular expression. For a change that adds statistics
# or splits one: ADDED=1 ignores the keys only the new binary writes (also in
# the objects of a list, e.g. each kernel's), and
# FOLD="a.b>c.d ..." adds the new binary's statistic a.b into c.d (and drops
# a.b) before comparing (e.g. a stall reason split out of another).
# Takes about 30 s with 2 jobs. Needs python3 (tools/setup-debian.sh).
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 REF_BIN NEW_BIN [JOBS]" >&2
  exit 2
fi
REF=$1 NEW=$2 JOBS=${3:-2}
for bin in "$REF" "$NEW"; do
  [ -x "$bin" ] || { echo "$0: $bin: not an executable" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One case per line: benchmark size scheduler [extra run arguments]
{
  "$REF" list | awk 'NR > 1 && /^[a-z]/ {print $1, "tiny gto"}'
  for b in kmeans bfs btree fwt srad_v1 memcached; do
    for s in lrr two-level "swl --set sched.swl.limit=4"; do echo "$b tiny $s"; done
  done
  echo "kmeans tiny gto --set l1d.policy=srrip"
  echo "bfs tiny gto --set l1d.policy=fifo --set l2.policy=srrip"
  echo "kmeans tiny gto --config ccws-gt200"
  echo "bfs tiny lrr --config ccws-gt200"
  echo "kmeans tiny gto --set sm.skip_idle_cycles=false"
  echo "bfs small gto"
  echo "kmeans tiny gto --set sched.count=4 --set mem.partitions=8 --set l2.size=1M"
} | grep -E -- "${CASES:-.}" | awk '{print NR, $0}' > "$work/cases"
[ -s "$work/cases" ] || { echo "$0: no case matches CASES='${CASES:-}'" >&2; exit 2; }

# run_case BIN OUTDIR N BENCH SIZE SCHED [EXTRA...]: OUTDIR/N.json, the statistics without host timings
run_case() {
  local bin=$1 out=$2 n=$3 b=$4 size=$5 sched=$6
  shift 6
  if ! "$bin" run "$b" --size "$size" --sched "$sched" "$@" --json "$out/$n.raw" > /dev/null 2> "$out/$n.err"; then
    echo FAILED > "$out/$n.json"
    return 0
  fi
  python3 - "$out/$n.raw" "$out/$n.json" "$([ "$out" = "${out%/new}" ] && echo ref || echo new)" << 'EOF'
import json, os, sys
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if not (k.endswith("seconds") or k.endswith("per_sec"))}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
with open(sys.argv[1]) as f:
    d = strip(json.load(f))
if sys.argv[3] == "new":
    for pair in os.environ.get("FOLD", "").split():
        src, dst = (p.split(".") for p in pair.split(">"))
        def at(obj, path):
            for k in path[:-1]:
                obj = obj.get(k, {}) if isinstance(obj, dict) else {}
            return obj
        s, t = at(d, src), at(d, dst)
        if src[-1] in s and dst[-1] in t:
            t[dst[-1]] += s.pop(src[-1])
with open(sys.argv[2], "w") as f:
    json.dump(d, f, indent=0, sort_keys=True)
EOF
  rm -f "$out/$n.raw"
}
export -f run_case

mkdir "$work/ref" "$work/new"
while read -r n rest; do
  echo "$REF $work/ref $n $rest"
  echo "$NEW $work/new $n $rest"
done < "$work/cases" | xargs -P "$JOBS" -L 1 bash -c 'run_case "$@"' _

bad=0
while read -r n rest; do
  failed=0
  for side in ref new; do
    if grep -q '^FAILED' "$work/$side/$n.json"; then
      echo "case $n ($rest): the $side binary failed: $(tail -n 1 "$work/$side/$n.err")"
      failed=1
    fi
  done
  if [ "$failed" = 1 ]; then
    bad=1
  elif [ "${ADDED:-0}" = 1 ]; then
    python3 - "$work/ref/$n.json" "$work/new/$n.json" << 'EOF' > "$work/$n.diff" || { echo "case $n ($rest): statistics differ:"; head -n 6 "$work/$n.diff" | sed 's/^/  /'; bad=1; }
import json, sys
ref, new = (json.load(open(p)) for p in sys.argv[1:3])
def cmp(a, b, path):
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in a for d in (cmp(a[k], b[k], path + "." + k) if k in b else [path + "." + k + ": missing"])]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):  # e.g. the kernels, each with new keys
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in cmp(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a} -> {b}"]
d = cmp(ref, new, "")
print("\n".join(d))
sys.exit(1 if d else 0)
EOF
  elif ! cmp -s "$work/ref/$n.json" "$work/new/$n.json"; then
    echo "case $n ($rest): statistics differ:"
    diff "$work/ref/$n.json" "$work/new/$n.json" | head -n 6 | sed 's/^/  /'
    bad=1
  fi
done < "$work/cases"
total=$(wc -l < "$work/cases")
[ "$bad" = 0 ] && echo "all $total cases have the same statistics"
exit "$bad"
