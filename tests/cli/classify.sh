#!/usr/bin/env bash
# warpsim classify: the class file of a launch file's kernel (two streaming loads of two arrays:
# each line read once, no hits: both cg, their arrays named) and of a benchmark with instruction-level
# thresholds (ca or cg only); the file is what the bypass observer reads (a run with it passes and
# bypasses); usage errors.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$d/v.launch" <<EOT
ptx $PWD/tests/kernels/cli_basic.ptx
kernel vadd
grid 8
block 256
buffer a f32 2048 seq 0 1
buffer b f32 2048 const 2.5
buffer c f32 2048 zero
arg a
arg b
arg c
arg s32 2048
EOT
$W classify "$d/v.launch" --out "$d/v.cls" 2> "$d/err" || fail "classify launch: $(cat "$d/err")"
[ "$(grep -c "^vadd [0-9]* cg$" "$d/v.cls")" = 2 ] && ! grep -q "^red " "$d/v.cls" || fail "vadd: two cg loads (and no other kernel) expected: $(cat "$d/v.cls")"
grep -q "^# vadd [0-9]* vadd_param_0 [0-9]*(1) [1-9][0-9]* 0 0 0.0 -> cg" "$d/v.cls" || fail "vadd: load of a with no hit: $(cat "$d/v.cls")"
grep -q "vadd_param_1" "$d/v.cls" || fail "vadd: array b not named"
! grep -q "^vadd [0-9]* c[am]$" "$d/v.cls" || fail "vadd: a load not cg"
grep -q "hits and MSHR merges" "$d/v.cls" || fail "vadd: merges count as hits by default"
$W classify "$d/v.launch" --tag-hits --out "$d/t.cls" 2> "$d/err" || fail "classify --tag-hits: $(cat "$d/err")"
grep -q "hits of tags only" "$d/t.cls" || fail "--tag-hits header"
# a benchmark, instruction-level thresholds: every executed load ca or cg
$W classify vecadd --size tiny --no-groups --high 0.5 --low 0.5 --out "$d/i.cls" 2> "$d/err" || fail "classify vecadd: $(cat "$d/err")"
grep -q "no groups" "$d/i.cls" || fail "header"
[ "$(grep -c '^[a-z_0-9]* [0-9]* c[ag]$' "$d/i.cls")" -ge 2 ] || fail "vecadd: loads: $(cat "$d/i.cls")"
# the observer reads it: the run passes its check and bypasses the cg loads
out=$($W run vecadd --size tiny --set sm.observers=bypass --set observer.bypass.classes="$d/i.cls" --set observer.bypass.cm=ca)
echo "$out" | grep -q "^check  *PASS" || fail "vecadd with the class file: $out"
echo "$out" | grep -Eq "^gpu.policies.observers.bypass.loads_cg_bypassed +[1-9]" || fail "no cg load bypassed: $out"
# errors
expect2() { local rc=0; "$@" > /dev/null 2> "$d/e" || rc=$?; [ $rc = 2 ] || fail "expected exit 2 from $*: $rc $(cat "$d/e")"; }
expect2 $W classify nosuchbench
expect2 $W classify vecadd --high 2
expect2 $W classify vecadd --low 0.8 --high 0.5
expect2 $W classify vecadd --functional
expect2 $W classify vecadd --size huge
expect2 $W classify
printf 'kernel k\n' > "$d/noptx.launch"
expect2 $W classify "$d/noptx.launch"
# a malformed class file is a clear error
printf 'vadd x cg\n' > "$d/bad.cls"
rc=0; $W run vecadd --size tiny --set sm.observers=bypass --set observer.bypass.classes="$d/bad.cls" > /dev/null 2> "$d/e" || rc=$?
[ $rc != 0 ] && grep -q "expected 'kernel pc ca|cg|cm'" "$d/e" || fail "bad class file: $rc $(cat "$d/e")"
echo ok
