#!/usr/bin/env bash
# warpsim-hw (tools/hwcheck): the benchmarks' host programs on the CUDA driver. Without a GPU
# driver (CI), every benchmark is an ERROR with a message naming the missing driver and the exit
# status is 1; with one, vecadd passes its CPU reference. Usage errors exit 2 and list the
# benchmarks.
set -u
HW=${WARPSIM_HW:-build/hw/warpsim-hw}
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$HW" ] || fail "$HW not built (make hwcheck)"
out=$("$HW" vecadd --size tiny 2>&1); rc=$?
if printf '%s' "$out" | grep -q "cannot open the CUDA driver\|no usable GPU"; then
  [ $rc -eq 1 ] || fail "no driver: exit $rc, want 1"
  printf '%s\n' "$out" | grep -Eq '^vecadd +tiny +ERROR' || fail "no driver: no ERROR row: $out"
else
  [ $rc -eq 0 ] || fail "with a driver vecadd should pass: $out"
  printf '%s\n' "$out" | grep -Eq '^vecadd +tiny +PASS' || fail "no PASS row: $out"
fi
out=$("$HW" nosuch 2>&1); rc=$?
[ $rc -eq 2 ] || fail "unknown benchmark: exit $rc, want 2"
printf '%s' "$out" | grep -q "unknown benchmark 'nosuch'" || fail "unknown benchmark message: $out"
printf '%s' "$out" | grep -q "benchmarks:.* vecadd" || fail "usage lists no benchmarks: $out"
out=$("$HW" --size huge vecadd 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q "unknown size 'huge'" || fail "bad size: exit $rc: $out"
out=$("$HW" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "no benchmark named: exit $rc, want 2"
echo "hwcheck ok"
