#!/usr/bin/env bash
# Same inputs, same statistics: every benchmark at `tiny`, run twice, gives identical JSON (timing
# fields aside) and identical trace files. To bound the time (two runs per benchmark), each
# benchmark runs under one policy set taken in turn from the list below, which names every warp
# scheduler, L1D policy, fetch policy and observer of src/policy/registry.def: each policy runs on
# several benchmarks (52 benchmarks over 12 sets), one set with a timeline. caws reads a profile
# written by a first run.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# The statistics as canonical JSON, one value a line, without the host's timings (keys naming
# seconds or a per-second speed) and the paths of the two runs' own trace files.
canon() {
  python3 -c '
import json, re, sys
def walk(v, path):
    if isinstance(v, dict):
        for k in sorted(v):
            if not re.search(r"seconds|per_sec", k): walk(v[k], path + "." + k)
    elif isinstance(v, list):
        for i, x in enumerate(v): walk(x, path + "[%d]" % i)
    elif not (isinstance(v, str) and v.endswith(".trace")):
        print(path, json.dumps(v))
walk(json.load(open(sys.argv[1])), "")' "$1"
}
sets=(
  "sched.policy=lrr l1d.policy=lru"
  "sched.policy=gto l1d.policy=fifo sm.observers=l1d-opt"
  "sched.policy=old l1d.policy=srrip"
  "sched.policy=two-level l1d.policy=bypass-access sm.observers=bypass"
  "sched.policy=2lvl-gto l1d.policy=cacp sm.observers=cpl"
  "sched.policy=swl l1d.policy=ship"
  "sched.policy=ccws sm.observers=missclass"
  "sched.policy=mwf-lrr sm.fetch_policy=sched"
  "sched.policy=mwf-gto sm.fetch_policy=rr timeline.file=TRACE"
  "sched.policy=gcaws sm.observers=l1d-trace observer.l1d-trace.file=TRACE"
  "sched.policy=caws sched.caws.mode=read sched.caws.profile=PROFILE"
  "sched.policy=iwarp"
)
benches=$($W list | awk 'NR > 1 && /^[a-z]/ {print $1}')
[ -n "$benches" ] || fail "no benchmark"
i=0 n=0
for b in $benches; do
  s=${sets[$((i % ${#sets[@]}))]}; i=$((i + 1))
  args=()
  for kv in $s; do args+=(--set "${kv//PROFILE/$d/$b.prof}"); done
  case $s in *PROFILE*)
    $W run "$b" --size tiny --set sched.policy=caws --set sched.caws.mode=write \
      --set sched.caws.profile="$d/$b.prof" > "$d/out" 2>&1 || fail "$b: caws profile run: $(tail -3 "$d/out")" ;;
  esac
  for r in a b; do
    ra=("${args[@]//TRACE/$d/$b.$r.trace}")
    $W run "$b" --size tiny "${ra[@]}" --json "$d/$b.$r.json" > "$d/out" 2>&1 || fail "$b ($s): $(tail -3 "$d/out")"
    canon "$d/$b.$r.json" > "$d/$b.$r" || fail "$b ($s): unreadable JSON"
  done
  cmp -s "$d/$b.a" "$d/$b.b" || fail "$b ($s): two runs differ: $(diff "$d/$b.a" "$d/$b.b" | head -5)"
  grep -q '^.check "PASS"$' "$d/$b.a" || fail "$b ($s): check did not pass"
  case $s in *TRACE*)
    cmp -s "$d/$b.a.trace" "$d/$b.b.trace" || fail "$b ($s): the trace files differ" ;;
  esac
  rm -f "$d/$b".*; n=$((n + 1))
done
echo "ok: $n benchmarks, each run twice, identical"
