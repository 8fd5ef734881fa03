#!/usr/bin/env bash
# --accelsim-trace: the instruction stream of tests/kernels/accelsim_trace.ptx as an Accel-Sim
# trace, checked line by line against the trace below, written out by hand from the kernel's
# semantics (doc/accelsim.md has the format); the same from both engines; folder errors.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
K="--ptx tests/kernels/accelsim_trace.ptx --kernel acc_trace --grid 1 --block 40"
# a: 40 words at the first device address (0x1000000000); n = 36: lanes 0-3 of warp 1 load
# Registers: %r0-%r6 are R0-R6, %rd0-%rd3 R7-R10; predicates follow the register file (%p1: R16).
# Warp 1 has 8 valid lanes (mask ff); its guard %p1 (tid >= 36) holds for lanes 4-7, which
# branch to the exit (BRA mask f0) while lanes 0-3 run the load path first (mask 0f).
cat > "$d/expect" <<'EOT'
-kernel name = acc_trace
-kernel id = 1
-grid dim = (1,1,1)
-block dim = (40,1,1)
-shmem = 256
-nregs = 12
-binary version = 61
-cuda stream id = 0
-shmem base_addr = 0x00007f0000000000
-local mem base_addr = 0x00007f1000000000
-accelsim tracer version = 4
-enable lineinfo = 0
-warpsim source = warpsim's functional execution (pc: PTX instruction index x 8)

#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]

#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = 16
0000 ffffffff 1 R8 LDC.64 0 8 1 0x0 0
0008 ffffffff 1 R1 LDC 0 4 1 0x8 0
0010 ffffffff 1 R2 S2R 0 0
0018 ffffffff 1 R3 SHL 1 R2 0
0020 ffffffff 1 R4 MOV 0 0
0028 ffffffff 1 R5 IADD 2 R4 R3 0
0030 ffffffff 0 STS 2 R5 R2 4 1 0x0 4
0038 ffffffff 0 BAR.SYNC 0 0
0040 ffffffff 1 R16 ISETP 2 R2 R1 0
0048 00000000 0 BRA 1 R16 0
0050 ffffffff 1 R9 I2I 1 R3 0
0058 ffffffff 1 R10 IADD 2 R8 R9 0
0060 ffffffff 1 R6 LDG.E 1 R10 4 1 0x1000000000 4
0068 ffffffff 1 R6 IADD 1 R6 0
0070 ffffffff 0 STG.E 2 R10 R6 4 1 0x1000000000 4
0078 ffffffff 0 EXIT 0 0

warp = 1
insts = 16
0000 000000ff 1 R8 LDC.64 0 8 1 0x0 0
0008 000000ff 1 R1 LDC 0 4 1 0x8 0
0010 000000ff 1 R2 S2R 0 0
0018 000000ff 1 R3 SHL 1 R2 0
0020 000000ff 1 R4 MOV 0 0
0028 000000ff 1 R5 IADD 2 R4 R3 0
0030 000000ff 0 STS 2 R5 R2 4 1 0x80 4
0038 000000ff 0 BAR.SYNC 0 0
0040 000000ff 1 R16 ISETP 2 R2 R1 0
0048 000000f0 0 BRA 1 R16 0
0050 0000000f 1 R9 I2I 1 R3 0
0058 0000000f 1 R10 IADD 2 R8 R9 0
0060 0000000f 1 R6 LDG.E 1 R10 4 1 0x1000000080 4
0068 0000000f 1 R6 IADD 1 R6 0
0070 0000000f 0 STG.E 2 R10 R6 4 1 0x1000000080 4
0078 000000ff 0 EXIT 0 0

#END_TB
EOT
for mode in timing functional; do
  f=; [ $mode = functional ] && f=--functional
  out=$($W launch $f $K --buffer "a s32 40 seq 0 1" --arg a --arg "u32 36" --print "a 6" --accelsim-trace "$d/$mode")
  echo "$out" | grep -q "^a: 1 2 3 4 5 6$" || { echo "$mode: bad kernel output: $out"; exit 1; }
  diff "$d/expect" "$d/$mode/kernel-1.traceg" || { echo "$mode: trace differs from the expected one"; exit 1; }
  [ "$(cat "$d/$mode/kernelslist.g")" = kernel-1.traceg ] || { echo "$mode: bad kernelslist.g"; exit 1; }
  [ -z "$(ls -A "$d/$mode" | grep -v -e '^kernel-1.traceg$' -e '^kernelslist.g$')" ] || { echo "$mode: stray files"; ls -A "$d/$mode"; exit 1; }
done
# a benchmark: one file per launch, the same stream from both engines (only -nregs, the engine's
# allocation, may differ), as many instructions as the run executed
$W run vecadd --size tiny --accelsim-trace "$d/vt" > "$d/vt.out"
$W run vecadd --size tiny --functional --accelsim-trace "$d/vf" > /dev/null
n=$(awk '/^warp_insts /{print $2}' "$d/vt.out")
t=$(cat "$d"/vt/kernel-*.traceg | awk '/^insts = /{s += $3} END {print s}')
[ "$n" = "$t" ] || { echo "vecadd: trace has $t warp instructions, the run $n"; exit 1; }
for k in "$d"/vt/kernel-*.traceg; do
  diff <(grep -v '^-nregs' "$k") <(grep -v '^-nregs' "$d/vf/$(basename "$k")") > /dev/null || { echo "vecadd: engines' traces differ: $k"; exit 1; }
done
# errors: a folder that cannot be made fails before the run; suite refuses it
if $W run vecadd --size tiny --accelsim-trace "$d/no/such/dir" > /dev/null 2> "$d/err"; then echo "missing parent accepted"; exit 1; fi
grep -q "cannot create trace folder" "$d/err" || { echo "bad message: $(cat "$d/err")"; exit 1; }
touch "$d/file"
if $W run vecadd --size tiny --accelsim-trace "$d/file" > /dev/null 2> "$d/err"; then echo "a file accepted as the folder"; exit 1; fi
grep -q "not a folder" "$d/err" || { echo "bad message: $(cat "$d/err")"; exit 1; }
if $W suite --size tiny --accelsim-trace "$d/s" > /dev/null 2>&1; then echo "suite accepted --accelsim-trace"; exit 1; fi
# a launch that fails leaves no trace file
if $W launch --functional --ptx tests/kernels/cli_spin.ptx --kernel spin --grid 1 --block 32 --buffer "l u32 1 zero" --arg l --max-insts 1000 --accelsim-trace "$d/fail" > /dev/null 2>&1; then :; fi
[ -z "$(ls -A "$d/fail" 2>/dev/null | grep traceg)" ] || { echo "a failed launch left a trace"; ls -A "$d/fail"; exit 1; }
echo ok
