#!/usr/bin/env bash
# tools/cta_lag.py on a hand-written trace, timeline and Accel-Sim scheduler trace of the same
# schedule (one SM, two one-warp CTAs, two iterations of LDG, LDS, FFMA): the lag of each iteration,
# both CTAs' issues inside a phase, the LDS -> FFMA gap, the same on both sides; errors: merged
# issue intervals, an issue without its valid-instruction line, bad arguments, a missing file.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
T="python3 $PWD/tools/cta_lag.py"
{
  printf -- '-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (32,1,1)\n\n#BEGIN_TB\n'
  for cta in 0 1; do
    printf '\nthread block = %d,0,0\n\nwarp = 0\ninsts = 6\n' $cta
    for i in 0 1; do
      echo "0010 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4"
      echo "0018 ffffffff 1 R3 LDS 1 R4 4 1 0x0 4"
      echo "0020 ffffffff 1 R5 FFMA 3 R1 R3 R5 0"
    done
  done
  printf '\n#END_TB\n'
} > $d/k.traceg
# issues: CTA 0 at 10 11 12 | 20 21 22, CTA 1 at 13 14 22 | 40 41 42
iss() {  # pid tid ts dur
  echo "{\"ph\":\"X\",\"pid\":$1,\"tid\":$2,\"ts\":$3,\"dur\":$4,\"name\":\"issue\",\"args\":{\"n\":${5:-$4}}},"
}
{
  echo '{"traceEvents":['
  echo '{"ph":"i","s":"t","pid":1,"tid":0,"ts":0,"name":"warp launch","args":{"cta":0,"warp":0}},'
  echo '{"ph":"i","s":"t","pid":1,"tid":1,"ts":0,"name":"warp launch","args":{"cta":1,"warp":0}},'
  iss 1 0 10 3; iss 1 0 20 3; iss 1 1 13 2; iss 1 1 22 1; iss 1 1 40 3
  echo '{"ph":"M","name":"end","pid":0}]}'
} > $d/t.json
l() {  # cycle dynamic-id pc
  echo "GPGPU-Sim Cycle $1: WARP_SCHEDULER - Core 0 - Scheduler 0 - Warp (warp_id $2, dynamic_warp_id $2) has valid instruction (<no instruction at address 0x$3>)"
  echo "GPGPU-Sim Cycle $1: WARP_SCHEDULER - Core 0 - Scheduler 0 - Warp (warp_id $2, dynamic_warp_id $2) issued 1 instructions"
}
{
  l 10 0 10; l 11 0 18; l 12 0 20; l 13 1 10; l 14 1 18; l 20 0 10; l 21 0 18; l 22 0 20; l 22 1 20
  l 40 1 10; l 41 1 18; l 42 1 20
} > $d/as.log
A="--trace $d/k.traceg --marker 0x10 --phase 0x18:0x20 --gap LDS:FFMA"
$T $A --timeline $d/t.json --accelsim $d/as.log > $d/out 2>&1 || fail "run: $(cat $d/out)"
cat > $d/want <<EOT
warpsim: SMs 0 (older, younger CTA): 0:0/1
warpsim: lag (cycles) by iteration, mean: 3 20
warpsim: lag (cycles) by iteration, max:  3 20
warpsim: both CTAs in a phase: 2 cycles an SM; issues per cycle there: older 1.000, younger 0.500
warpsim: LDS -> FFMA issue gap: 4 pairs, min 1, mean 2.8, most common 1 (3), 8 (1)
Accel-Sim: SMs 0 (older, younger CTA): 0:0/1
Accel-Sim: lag (cycles) by iteration, mean: 3 20
Accel-Sim: lag (cycles) by iteration, max:  3 20
Accel-Sim: both CTAs in a phase: 2 cycles an SM; issues per cycle there: older 1.000, younger 0.500
Accel-Sim: LDS -> FFMA issue gap: 4 pairs, min 1, mean 2.8, most common 1 (3), 8 (1)
EOT
cmp -s $d/out $d/want || { diff $d/out $d/want; fail "output"; }
# --ws-sms without the SM: nothing counted
$T $A --timeline $d/t.json --ws-sms 3 | grep -q "warpsim: no SM with two CTAs resident together" || fail "--ws-sms"
# a younger CTA that starts after --together cycles is not a pair
$T $A --timeline $d/t.json --together 2 | grep -q "no SM with two CTAs" || fail "--together"
# errors
sed 's/"n":3/"n":2/' $d/t.json > $d/merged.json
$T $A --timeline $d/merged.json > $d/e 2>&1 && fail "merged intervals accepted"
grep -q "timeline.merge_cycles=0" $d/e || fail "merged message: $(cat $d/e)"
grep -v "Cycle 13:.*valid" $d/as.log > $d/as2.log
$T $A --accelsim $d/as2.log > $d/e 2>&1 && fail "an issue without its valid line accepted"
grep -q "cycle 13 core 0 warp 1 issued without its valid instruction line" $d/e || fail "valid message: $(cat $d/e)"
$T --trace $d/k.traceg --marker zz --timeline $d/t.json > $d/e 2>&1 && fail "a bad marker accepted"
grep -q "marker is a hex PC" $d/e || fail "marker message: $(cat $d/e)"
$T --trace $d/k.traceg --marker 0x10 > $d/e 2>&1 && fail "no input accepted"
grep -q "give --timeline, --accelsim or both" $d/e || fail "no-input message: $(cat $d/e)"
$T --trace $d/none --marker 0x10 --timeline $d/t.json > $d/e 2>&1 && fail "a missing file accepted"
grep -q "$d/none: No such file or directory" $d/e || fail "missing file message: $(cat $d/e)"
echo '{"x":1}' > $d/bad.json
$T --trace $d/k.traceg --marker 0x10 --timeline $d/bad.json > $d/e 2>&1 && fail "a non-timeline accepted"
grep -q "not a warpsim timeline" $d/e || fail "non-timeline message: $(cat $d/e)"
echo ok
