#!/usr/bin/env bash
# tools/accelsim_barrier_waits.py on a hand-written scheduler trace (two cores, two-warp CTAs, one
# resident a core): a warp arrives in the last cycle its valid instruction is the barrier before it
# shows the next PC (a later visit of the barrier's PC, the next phase's barrier, does not count);
# waits, positions in dynamic-warp-id order, a CTA whose warps did not all arrive left out,
# --from-cycle, the CSV, the summary; errors: a bad PC, a missing file, no CTA at the barrier.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
T="python3 $PWD/tools/accelsim_barrier_waits.py"
l() {  # cycle core slot dynamic-id pc
  echo "GPGPU-Sim Cycle $1: WARP_SCHEDULER - Core $2 - Scheduler $(($3 % 2)) - Warp (warp_id $3, dynamic_warp_id $4) has valid instruction (<no instruction at address 0x$5>)"
}
{
  l 5 0 0 1 258       # a warp of an earlier launch (before --from-cycle 10)
  l 12 0 0 10 250     # core 0, CTA of dynamic ids 10-11: slot 0 arrives at 20, slot 1 at 50
  l 20 0 0 10 258
  l 21 0 1 11 258
  echo "GPGPU-Sim Cycle 22: WARP_SCHEDULER - Core 0 - Scheduler 0 - Warp (warp_id 0, dynamic_warp_id 10) fails as waiting for barrier"
  l 50 0 1 11 258
  l 51 0 0 10 260
  l 52 0 1 11 260
  l 90 0 0 10 258     # the next barrier at the same PC: not the first
  l 95 0 0 10 260
  l 100 0 0 12 258    # core 0's second CTA (ids 12-13): slot 0 at 100, slot 1 at 400
  l 400 0 1 13 258
  l 401 0 0 12 260
  l 402 0 1 13 260
  l 30 1 0 20 258     # core 1: slot 0 at 30, slot 1 at 31
  l 31 1 1 21 258
  l 32 1 1 21 260
  l 40 1 0 20 260
  l 60 1 0 22 258     # core 1's second CTA: slot 1 never arrives
  l 61 1 1 23 250
} > $d/tr
$T $d/tr --bar-pc 0x258 --warps-per-cta 2 --resident 1 --from-cycle 10 --csv $d/w.csv > $d/out || fail "run: $(cat $d/out)"
cat > $d/want.csv <<EOT
core,position,first_warp,first_warp_wait,longest_wait,last_warp,last_arrival
0,0,0,30,30,1,50
0,1,0,300,300,1,400
1,0,0,1,1,1,31
EOT
cmp -s $d/w.csv $d/want.csv || { diff $d/w.csv $d/want.csv; fail "CSV"; }
cat > $d/want <<EOT
CTA position 0 (2 cores): first warp's wait min 1 median 15.5 p90 1 max 30; longest wait min 1 median 15.5 p90 1 max 30
CTAs launched later (1): longest wait min 300 median 300 p90 300 max 300
EOT
cmp -s $d/out $d/want || { diff $d/out $d/want; fail "summary"; }
# without --from-cycle the earlier launch's warp (id 1) is taken for core 0's first: the CTAs pair
# the wrong warps (ids 1,10 | 11,12 | 13 left over), which is what --from-cycle is for
$T $d/tr --bar-pc 0x258 --warps-per-cta 2 --resident 1 --csv $d/w2.csv > /dev/null || fail "no --from-cycle"
[ "$(cut -d, -f1,2 $d/w2.csv | tr '\n' ' ')" = "core,position 0,0 0,1 1,0 " ] || fail "no --from-cycle: $(cat $d/w2.csv)"
# stdin, and errors
$T --bar-pc 258 --warps-per-cta 2 --resident 1 --from-cycle 10 < $d/tr | cmp -s - $d/want || fail "stdin"
$T $d/tr --bar-pc 0xzz --warps-per-cta 2 --resident 1 > $d/e 2>&1 && fail "a bad PC accepted"
grep -q "not a hexadecimal PC" $d/e || fail "bad PC message: $(cat $d/e)"
$T $d/none --bar-pc 0x258 --warps-per-cta 2 --resident 1 > $d/e 2>&1 && fail "a missing file accepted"
grep -q "$d/none: No such file or directory" $d/e || fail "missing file message: $(cat $d/e)"
$T $d/tr --bar-pc 0x300 --warps-per-cta 2 --resident 1 > $d/e 2>&1 && fail "no CTA, exit 0"
grep -q "no CTA whose 2 warps all reached the barrier at 0x300" $d/e || fail "no CTA message: $(cat $d/e)"
$T $d/tr --bar-pc 0x258 --warps-per-cta 0 --resident 1 > $d/e 2>&1 && fail "--warps-per-cta 0 accepted"
echo ok
