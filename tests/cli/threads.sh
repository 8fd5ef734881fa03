#!/usr/bin/env bash
# sim.threads never changes a result: the JSON statistics (host timings and the thread count
# aside) of every benchmark at `tiny` under gto are the same with 1 and 3 threads (adaptive: the
# threads run at least each launch's first probe); a bounded set with the threads forced on every
# cycle (sim.adaptive=false) covers the schedulers with state (ccws, gcaws, iwarp, mwf), cycle
# skipping off, 2, 3 and more threads than cores (short runs: on a busy host every cycle waits
# for the threads' time slices), and memory-bound runs where the networks and partitions of the
# next cycle advance beside the SMs (gpu.sim.memory_overlap_cycles > 0, with an L2 policy on that
# thread); a plugin that shares state keeps one thread with the same results; device printf
# output and a fault's message are the same.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# same REF NEW: the statistics agree but for the host's timings and the threads
same() {
  python3 - "$1" "$2" <<'EOF' || return 1
import json, sys
def flat(d, p=""):
    if isinstance(d, dict):
        return {k2: v2 for k, v in d.items() for k2, v2 in flat(v, p + "." + k).items()}
    if isinstance(d, list):
        return {k2: v2 for i, v in enumerate(d) for k2, v2 in flat(v, "%s[%d]" % (p, i)).items()}
    return {p: d}
host = ("seconds", "per_sec", ".threads_used", ".memory_overlap_cycles", ".sim.threads", ".sim.adaptive")
a, b = (flat(json.load(open(f))) for f in sys.argv[1:3])
diff = sorted(k for k in set(a) | set(b) if not k.endswith(host) and a.get(k) != b.get(k))
if diff:
    print("differ: " + ", ".join("%s %s/%s" % (k, a.get(k), b.get(k)) for k in diff[:6]))
    sys.exit(1)
EOF
}
used() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['gpu']['sim']['threads_used'])" "$1"; }
overlap() { # the cycles whose memory side may advance beside the SMs
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['gpu']['sim'][sys.argv[2]])" "$1" \
    memory_overlap_cycles
}
run() { # run NAME ARGS...: $d/NAME.json
  local n=$1; shift
  $W run "$@" --json "$d/$n.json" > "$d/out" 2>&1 || fail "$n ($*): $(tail -3 "$d/out")"
}

n=0
for b in $($W list | awk 'NR > 1 && /^[a-z]/ {print $1}'); do
  run "$b.1" "$b" --size tiny --threads 1
  run "$b.3" "$b" --size tiny --threads 3
  same "$d/$b.1.json" "$d/$b.3.json" || fail "$b: 1 and 3 threads differ"
  [ "$(used "$d/$b.3.json")" = 3 ] || fail "$b: threads_used $(used "$d/$b.3.json"), want 3"
  n=$((n + 1))
done

# the threads on every cycle with two or more SMs due or the memory side's next cycle certain
forced=(
  "bfs --sched ccws"
  "backprop --sched gcaws --set l1d.policy=cacp"
  "srad_v2 --sched iwarp"
  "conv2d --sched mwf-lrr --set sm.fetch_policy=sched"
  "scalarprod --sched mwf-gto --set sm.skip_idle_cycles=false"
  "vecadd --sched gto --set sm.skip_idle_cycles=false"
  "pchase --sched lrr --set l2.policy=srrip"
  "histo --sched two-level"
)
for c in "${forced[@]}"; do
  read -r -a args <<< "$c"
  run ref "${args[@]}" --size tiny --threads 1
  for t in 2 3; do
    run "t$t" "${args[@]}" --size tiny --threads "$t" --set sim.adaptive=false
    same "$d/ref.json" "$d/t$t.json" || fail "$c: 1 and $t threads differ"
    case $c in vecadd* | pchase* | histo*)
      [ "$(overlap "$d/t$t.json")" -gt 0 ] || fail "$c: no memory overlap with $t threads" ;;
    esac
  done
  n=$((n + 1))
done

# more threads than cores (and than most runs' busy SMs)
run ref vecadd --size tiny --threads 1
run t8 vecadd --size tiny --threads 8 --set sim.adaptive=false
same "$d/ref.json" "$d/t8.json" || fail "vecadd: 1 and 8 threads differ"
[ "$(used "$d/t8.json")" = 8 ] || fail "vecadd: threads_used $(used "$d/t8.json"), want 8"

# a plugin whose instances share a block: one thread, same results
run ref bfs --size tiny --set sm.observers=bypass --threads 1
run t2 bfs --size tiny --set sm.observers=bypass --threads 2 --set sim.adaptive=false
same "$d/ref.json" "$d/t2.json" || fail "bypass observer: 1 and 2 threads differ"
[ "$(used "$d/t2.json")" = 1 ] || fail "bypass observer: threads_used $(used "$d/t2.json"), want 1"

# device printf in the serial order; the first fault in SM order, with the same message
pf=(launch --ptx tests/kernels/half_printf.ptx --kernel hprint --grid 30 --block 64 --arg "s32 5" --arg "f64 1.5"
  --arg "s64 7")
oob=(launch --ptx tests/kernels/cli_basic.ptx --kernel vadd --grid 4 --block 256 --buffer "a f32 1000"
  --buffer "b f32 1000" --buffer "c f32 1000" --arg a --arg b --arg c --arg "s32 1024")
for t in 1 2; do
  $W "${pf[@]}" --threads $t --set sim.adaptive=false 2>&1 | grep -aE '^t[0-9]' > "$d/printf.$t" || fail "printf run"
  $W "${oob[@]}" --threads $t --set sim.adaptive=false > "$d/oob.$t" 2>&1 && fail "out-of-bounds run passed"
done
[ "$(wc -l < "$d/printf.1")" = 1920 ] || fail "printf: $(wc -l < "$d/printf.1") lines, want 1920"
cmp -s "$d/printf.1" "$d/printf.2" || fail "printf output differs with 2 threads"
grep -q "out-of-bounds global load" "$d/oob.1" || fail "no fault: $(cat "$d/oob.1")"
cmp -s "$d/oob.1" "$d/oob.2" || fail "fault differs: $(diff "$d/oob.1" "$d/oob.2" | head -4)"
echo "ok: $n cases, identical with 1, 2, 3 and 8 threads; printf and faults in serial order"
