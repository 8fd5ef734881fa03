#!/usr/bin/env bash
# warpsim classify: the class file of a launch file's kernel (two streaming loads of two arrays:
# each line read once, no hits: both cg, their arrays named) and of a benchmark with instruction-level
# thresholds (ca or cg only); Algorithm 1 on a hand-written kernel (tests/kernels/classify_rule.ptx:
# a load every warp shares is ca, a streamed one cg, one two warps share cm, one never executed ca);
# the file is what the bypass observer reads (a run with it passes and bypasses); a load's hit(i) on a
# three-kernel benchmark is its hits with it alone cached; usage errors.
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
# Algorithm 1's three classes, and a load the profile never executes (0 >= 0.7 * 0: ca)
rule_launch() {
  printf 'ptx %s/tests/kernels/classify_rule.ptx\nkernel rule\ngrid 8\nblock 256\n' "$PWD"
  for x in a b c d o; do printf 'buffer %s f32 2048 const 1\n' $x; done
  for x in a b c d o; do printf 'arg %s\n' $x; done
  printf 'arg s32 %s\n' "$1"
}
rule_launch 0 > "$d/r0.launch"
$W classify "$d/r0.launch" --out "$d/r0.cls" 2> "$d/err" || fail "classify rule: $(cat "$d/err")"
[ "$(grep -v '^#' "$d/r0.cls" | awk '{print $3}' | tr '\n' ' ')" = "ca cg cm ca " ] || fail "rule: classes a b c d: $(cat "$d/r0.cls")"
grep -q "^# rule [0-9]* rule_param_0 0(1) 64 56 56 56.0 -> ca" "$d/r0.cls" || fail "rule: a: 7 of 8 warps hit: $(cat "$d/r0.cls")"
grep -q "^# rule [0-9]* rule_param_2 2(1) 64 32 32 32.0 -> cm" "$d/r0.cls" || fail "rule: c: half the requests hit: $(cat "$d/r0.cls")"
grep -q "^# rule [0-9]* rule_param_3 3(1) 0 0 0 0.0 -> ca" "$d/r0.cls" || fail "rule: d never executed: $(cat "$d/r0.cls")"
grep -q "^# all kernels: 4 loads, ca/cm/cg 2/1/1, 1 never executed in the profile" "$d/r0.cls" || fail "rule: summary: $(cat "$d/r0.cls")"
rule_launch 1 > "$d/r1.launch"
$W classify "$d/r1.launch" --out "$d/r1.cls" 2> "$d/err" || fail "classify rule 1: $(cat "$d/err")"
[ "$(grep -v '^#' "$d/r1.cls" | awk '{print $3}' | tr '\n' ' ')" = "ca cg cm cg " ] || fail "rule 1: d streamed: cg: $(cat "$d/r1.cls")"
# a benchmark, instruction-level thresholds: every executed load ca or cg
$W classify vecadd --size tiny --no-groups --high 0.5 --low 0.5 --out "$d/i.cls" 2> "$d/err" || fail "classify vecadd: $(cat "$d/err")"
grep -q "no groups" "$d/i.cls" || fail "header"
[ "$(grep -c '^[a-z_0-9]* [0-9]* c[ag]$' "$d/i.cls")" -ge 2 ] || fail "vecadd: loads: $(cat "$d/i.cls")"
# the observer reads it: the run passes its check and bypasses the cg loads
out=$($W run vecadd --size tiny --set sm.observers=bypass --set observer.bypass.classes="$d/i.cls" --set observer.bypass.cm=ca)
echo "$out" | grep -q "^check  *PASS" || fail "vecadd with the class file: $out"
echo "$out" | grep -Eq "^gpu.policies.observers.bypass.loads_cg_bypassed +[1-9]" || fail "no cg load bypassed: $out"
# a load's hit(i) is its hits with it alone cached in the whole program: cfd has three kernels and the
# L1D keeps lines across launches, so a load of another kernel cached in the same run would add or
# take away hits (cfd_time_step's load at pc 16: 192 alone, 0 with each kernel's first load cached)
$W classify cfd --size tiny --out "$d/cfd.cls" 2> "$d/err" || fail "classify cfd: $(cat "$d/err")"
grep -q "profiling run 37 of 37 (cfd_time_step group 1)" "$d/err" || fail "cfd: one run per load and per group of each kernel (31 + 6): $(tail -2 "$d/err")"
for k in "cfd_time_step 16" "cfd_compute_flux 122"; do
  echo "$k ca" > "$d/one.cls"
  $W run cfd --size tiny --set sm.observers=bypass --set observer.bypass.classes="$d/one.cls" --set observer.bypass.default=cg \
    --set observer.bypass.cm=ca --set observer.bypass.profile="$d/one.prof" > /dev/null || fail "cfd with $k alone cached"
  alone=$(awk -v k="${k% *}" -v p="${k#* }" '$1 == k && $2 == p {print $3, $4 + $5}' "$d/one.prof")
  got=$(awk -v k="${k% *}" -v p="${k#* }" '$1 == "#" && $2 == k && $3 == p {print $6, $7}' "$d/cfd.cls")
  [ -n "$alone" ] && [ "$alone" = "$got" ] || fail "cfd: $k: access and hit(i) $got in the class file, $alone with it alone cached"
done
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
