#!/usr/bin/env bash
# Bad input gives a clear message and a non-zero exit, never a crash.
set -u
W=${WARPSIM:-build/rel/warpsim}
fail() { echo "FAIL: $*"; exit 1; }
expect() { # expect RC PATTERN -- command...
  local want=$1 pat=$2; shift 3
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq $want ] || fail "rc $rc (want $want) for: $* -> $out"
  echo "$out" | tr '\n' ' ' | grep -qE -- "$pat" || fail "missing '$pat' in: $out"
}
expect 2 "unknown command 'frobnicate' \(valid: list, run" -- $W frobnicate
expect 2 "unknown option '--bogus'" -- $W run vecadd --bogus
expect 2 "unknown size 'huge' \(valid: tiny, small, paper\)" -- $W run vecadd --size huge
expect 2 "unknown benchmark 'nosuch'; valid:" -- $W run nosuch
expect 2 "cli_bad.ptx:9:21: undeclared register '%r9'" -- $W launch --ptx tests/kernels/cli_bad.ptx --kernel bad
expect 2 "no kernel named 'nosuch' \(kernels: vadd, red\)" -- $W launch --ptx tests/kernels/cli_basic.ptx --kernel nosuch
expect 2 "takes 4 parameters, 1 given" -- $W launch --ptx tests/kernels/cli_basic.ptx --kernel vadd --buffer "a f32 4" --arg a
expect 2 "parameter 3 of vadd is 4 bytes, argument 3 is u64" -- $W launch --ptx tests/kernels/cli_basic.ptx --kernel vadd \
  --buffer "a f32 4" --arg a --arg a --arg a --arg "u64 4"
expect 1 "WS_ERROR_ILLEGAL_ADDRESS: kernel vadd: CTA \(3,0,0\) thread \(232,0,0\) .*out-of-bounds global load of 4 bytes at 0x" -- \
  $W launch --ptx tests/kernels/cli_basic.ptx --kernel vadd --grid 4 --block 256 --buffer "a f32 1000" \
  --buffer "b f32 1000" --buffer "c f32 1000" --arg a --arg b --arg c --arg "s32 1024"
for mode in --functional --set; do  # functional engine, then the timing model
  extra=""; [ "$mode" = --set ] && extra="sm.deadlock_cycles=5000"
  expect 1 "WS_ERROR_DEADLOCK: kernel stuck: deadlock: .*barrier 1 has 1 of 2 warps \(warps 0 wait\); 1 of 2 warps exited" -- \
    $W launch --ptx tests/kernels/cli_deadlock.ptx --kernel stuck --block 64 --buffer "o u32 1" --arg o $mode $extra
done
expect 2 "unknown type 'q32'" -- $W launch --buffer "a q32 4"
expect 2 "cannot open PTX file|cannot open" -- $W launch --ptx /nonexistent.ptx --kernel k
# the valid names are registry.def's, in its order
warp=$(sed -n 's/^WS_POLICY(WARP, *"\([^"]*\)".*/\1/p' src/policy/registry.def | paste -sd, - | sed 's/,/, /g')
expect 2 "sched.policy: unknown warp scheduler 'bogus' \(valid: $warp\)" -- $W run vecadd --size tiny --sched bogus
# plugins: an unknown fetch policy (it crashed once, freeing a scheduler never made) or observer;
# a fetch policy that needs the scheduler's fetch_select under one without it
fetch=$(sed -n 's/^WS_POLICY(FETCH, *"\([^"]*\)".*/\1/p' src/policy/registry.def | paste -sd, - | sed 's/,/, /g')
expect 2 "sm.fetch_policy: unknown fetch policy 'bogus' \(valid: $fetch\)" -- $W run vecadd --size tiny --set sm.fetch_policy=bogus
expect 2 "sm.observers: unknown observer 'bogus'" -- $W run vecadd --size tiny --set sm.observers=bogus
expect 2 "sm.fetch_policy: fetch policy 'sched' needs a warp scheduler with a fetch_select hook \('gto' has none\)" -- \
  $W run vecadd --size tiny --set sm.fetch_policy=sched --sched gto
expect 2 "unknown key 'l1d.sizee' \(did you mean l1d.size" -- $W run vecadd --size tiny --set l1d.sizee=3
expect 2 "no configuration 'nosuch'" -- $W run vecadd --size tiny --config nosuch
expect 2 "sched.policy: unknown warp scheduler" -- $W suite --size tiny --only vecadd --sched bogus
echo ok
