#!/usr/bin/env bash
# warpsim launch: a kernel from a launch file and from flags, checked against
# expected values; outputs written to files.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cat > "$d/v.launch" <<EOT
ptx $PWD/tests/kernels/cli_basic.ptx
kernel vadd
grid 4
block 256
buffer a f32 1000 seq 0 1
buffer b f32 1000 const 2.5
buffer c f32 1000 zero
arg a
arg b
arg c
arg s32 1000
print c 4
output c $d/c.bin
EOT
out=$($W launch "$d/v.launch")
echo "$out" | grep -q "^c: 2.5 3.5 4.5 5.5$" || { echo "bad vadd output: $out"; exit 1; }
[ "$(stat -c %s "$d/c.bin")" = 4000 ] || { echo "c.bin has the wrong size"; exit 1; }
# the same from flags, reduction + device function + shuffle kernel
out=$($W launch --ptx tests/kernels/cli_basic.ptx --kernel red --grid 4 --block 256 \
  --buffer "in s32 1024 seq 0 1" --buffer "out s32 2048 zero" --buffer "fo f32 1024 zero" \
  --arg in --arg out --arg fo --print "out 4")
echo "$out" | grep -q "^out: 32640 98176 163712 229248$" || { echo "bad red output: $out"; exit 1; }
echo ok
