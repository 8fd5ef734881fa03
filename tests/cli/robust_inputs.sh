#!/usr/bin/env bash
# Bad input is one clear, located error with the right exit status; results
# files are written whole or not at all and never replace a device, FIFO or symlink.
set -u
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() { # expect RC PATTERN -- command...
  local want=$1 pat=$2; shift 3
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq $want ] || fail "rc $rc (want $want) for: $* -> $out"
  echo "$out" | tr '\n' ' ' | grep -qE -- "$pat" || fail "missing '$pat' in: $out"
}
P=$PWD/tests/kernels/cli_basic.ptx
vadd() { echo "ptx $P"; echo "kernel vadd"; echo "grid 1"; echo "block 32"
  echo "buffer a f32 32 seq"; echo "buffer b f32 32 const 1"; echo "buffer c f32 32"
  echo "arg a"; echo "arg b"; echo "arg c"; echo "arg s32 32"; }

# item 2: symbol values joining to more than 2048 bytes (stack overflow before)
vals=$(for i in $(seq 1 600); do printf '1.0 '; done)
{ vadd; echo "symbol nosuch f32 $vals"; } > "$d/sym.launch"
expect 2 "sym.launch:12: .*nosuch" -- $W launch "$d/sym.launch" --functional
expect 2 "command line:[0-9]+: .*nosuch" -- $W launch --ptx "$P" --kernel vadd --symbol "nosuch f32 $vals" --functional

# item 11: launch files
{ echo "ptx $P   # the module"; echo "kernel vadd # comment"; echo "grid 1"; echo "block 32 # x"
  echo "buffer a f32 32 seq 0 1  # a"; echo "buffer b f32 32 const 1"; echo "buffer c f32 32"
  echo "arg a"; echo "arg b"; echo "arg c"; echo "arg s32 32 # n"; echo "print c 3 # first three"; } > "$d/c.launch"
expect 0 " c: 1 2 3( |$)" -- $W launch "$d/c.launch" --functional
{ vadd; echo "shared 4294967296"; } > "$d/sh.launch"
expect 2 "sh.launch:12: bad shared size '4294967296'" -- $W launch "$d/sh.launch" --functional
expect 2 "bad scalar argument '99999999999' \(not a u32" -- $W launch --ptx "$P" --kernel vadd --arg "u32 99999999999"
expect 2 "bad scalar argument '-1'" -- $W launch --ptx "$P" --kernel vadd --arg "u32 -1"
expect 2 "bad scalar argument '1e39'" -- $W launch --ptx "$P" --kernel vadd --arg "f32 1e39"
expect 2 "bad sequence start 'abc'" -- $W launch --buffer "a f32 4 seq abc"
expect 2 "bad lower bound 'x'" -- $W launch --buffer "a f32 4 random 1 x 2"
expect 2 "bad initialiser 'seq'" -- $W launch --buffer "a f32 4 seq 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"
expect 2 "bad block dimension z '65' \(1 to 64\)" -- $W launch --block "1 1 65"
expect 2 "bad block dimension x '1025'" -- $W launch --block "1025"
long=$(printf 'x%.0s' $(seq 1 5000))
{ echo "kernel vadd"; echo "ptx $P"; echo "buffer $long f32 4"; } > "$d/long.launch"
expect 2 "long.launch:3: buffer name too long" -- $W launch "$d/long.launch"
# item 7: a huge buffer fails at the device limit before touching host memory
expect 2 "bad element count|cannot allocate" -- $W launch --buffer "a u32 4294967296 seq"
expect 2 "cannot allocate 17179869184 bytes" -- $W launch --buffer "a u32 4294967296 seq"

# item 10: the configuration is checked in functional mode too; typos are errors
expect 2 "unknown warp scheduler 'bogus'" -- $W run vecadd --size tiny --functional --sched bogus
expect 2 "unknown key 'nosuch'" -- $W run vecadd --size tiny --functional --set nosuch=1
expect 2 "no configuration 'nosuch'" -- $W run vecadd --size tiny --functional --config nosuch
expect 2 "unknown key 'nosuch'" -- $W launch --ptx "$P" --kernel vadd --functional --set nosuch=1
expect 2 "--only: unknown benchmark 'vecad'; valid: " -- $W suite --size tiny --only vecad --functional
expect 2 "cannot open config '$d': Is a directory" -- $W config --config "$d"
printf 'include %s\n' "$d" > "$d/inc.cfg"
expect 2 "inc.cfg:1: include: cannot open '$d': Is a directory" -- $W config --config "$d/inc.cfg"
expect 2 "bad seed '-1'" -- $W run vecadd --size tiny --functional --seed -1
expect 2 "bad seed '18446744073709551616'" -- $W run vecadd --size tiny --functional --seed 18446744073709551616
expect 2 "^warpsim: --set l2.assoc=7: l2.size \(.*gtx480.cfg:[0-9]+\): " -- $W run vecadd --size tiny --set l2.assoc=7

# item 7: /dev/zero and a FIFO as a configuration are errors, not a hang
expect 2 "cannot open config '/dev/zero': not a regular file" -- timeout 10 $W config --config /dev/zero
mkfifo "$d/fifo.cfg"
expect 2 "not a regular file" -- timeout 10 $W config --config "$d/fifo.cfg"
expect 2 "fifo.cfg: cannot open PTX file: not a regular file" -- timeout 10 $W launch --ptx "$d/fifo.cfg" --kernel k
expect 2 "cannot open PTX file: is a directory" -- $W launch --ptx "$d" --kernel k

# item 3: results files: devices and symlinks written through, failures with the reason
expect 1 "cannot write '/dev/full': No space left on device" -- $W run vecadd --size tiny --functional --json /dev/full
[ -c /dev/full ] || fail "/dev/full is no longer a device"
out=$($W run vecadd --size tiny --functional --json "$d/nodir/x.json" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "rc $rc for a --json in a missing folder"
echo "$out" | grep -q "cannot write '$d/nodir/x.json': No such file or directory" || fail "no reason: $out"
echo "$out" | grep -q "^benchmark" && fail "simulated before finding the output unwritable"
mkdir "$d/real"; ln -s real/s.json "$d/link.json"
$W run vecadd --size tiny --functional --json "$d/link.json" >/dev/null || fail "json through a dangling symlink"
[ -L "$d/link.json" ] || fail "the symlink was replaced"
grep -q '"benchmark": "vecadd"' "$d/real/s.json" || fail "the symlink's target was not written"
mkfifo "$d/fifo.json"; cat "$d/fifo.json" > "$d/fifo.out" & cat_pid=$!
$W run vecadd --size tiny --functional --json "$d/fifo.json" >/dev/null || fail "json to a FIFO"
wait $cat_pid
[ -p "$d/fifo.json" ] || fail "the FIFO was replaced"
grep -q '"check": "PASS"' "$d/fifo.out" || fail "nothing came through the FIFO"
ls -a "$d" "$d/real" | grep -q '\.tmp\|\.json\.' && fail "temporary files left: $(ls -a "$d" "$d/real")"
expect 1 "cannot write '/dev/full': No space left on device" -- $W launch --ptx "$P" --kernel vadd --functional \
  --buffer "a f32 32" --buffer "b f32 32" --buffer "c f32 32" --arg a --arg b --arg c --arg "s32 32" --output "c /dev/full"
expect 1 "cannot write '$d/nodir/c.bin'" -- $W launch --ptx "$P" --kernel vadd --functional \
  --buffer "a f32 32" --buffer "b f32 32" --buffer "c f32 32" --arg a --arg b --arg c --arg "s32 32" --output "c $d/nodir/c.bin"

# item 8: sm.warp_size was accepted and ignored; only 32 is modelled
expect 2 "--set: bad value '7' for sm.warp_size \(int\): only 32 is supported" -- $W run vecadd --size tiny --set sm.warp_size=7
printf 'include %s\nsm.warp_size = 16\n' "$PWD/configs/gtx480.cfg" > "$d/ws.cfg"
expect 2 "ws.cfg:2: bad value '16' for sm.warp_size" -- $W run vecadd --size tiny --functional --config "$d/ws.cfg"

# item 6: kernels that never end are stopped by limits, with a livelock report
S=tests/kernels/cli_spin.ptx
expect 1 "WS_ERROR_LIMIT: kernel spin: stopped after [0-9]+ warp instructions \(limit.max_warp_insts = 20000, --max-insts\).*warp 0 at pc [0-9]+ \(tests/kernels/cli_spin.ptx:1[78]: .*lanes 0x00000001 wait at the reconvergence point pc 5 \(tests/kernels/cli_spin.ptx:19: atom.global.b32\) for lanes 0xfffffffe, which loop: a spin lock" -- \
  $W launch --ptx $S --kernel spin --block 32 --buffer "l u32 1" --arg l --functional --max-insts 20000
expect 1 "WS_ERROR_LIMIT: kernel spin: stopped after [0-9]+ cycles \(limit.max_cycles = 20000, --max-cycles\).*lanes 0x00000001 wait at the reconvergence point" -- \
  $W launch --ptx $S --kernel spin --block 64 --buffer "l u32 1" --arg l --max-cycles 20000
expect 1 "kernel forever: stopped after [0-9]+ warp instructions \(limit.max_warp_insts = 30000.*warp 0 at pc (1 \(tests/kernels/cli_spin.ptx:28: add.u32|2 \(tests/kernels/cli_spin.ptx:29: bra)\), lanes 0xffffffff active;" -- \
  $W launch --ptx $S --kernel forever --block 32 --buffer "l u32 1" --arg l --set limit.max_warp_insts=30000
expect 1 "kernel forever: stopped after [0-9]+ warp instructions \(limit.max_warp_insts = 30000" -- \
  $W launch --ptx $S --kernel forever --block 32 --buffer "l u32 1" --arg l --set limit.max_warp_insts=30000 --functional
expect 1 "check +ERROR" -- $W run vecadd --size tiny --functional --max-insts 1000
expect 2 "bad value '-5' for limit.max_cycles" -- $W run vecadd --size tiny --max-cycles -5
$W config | grep -q "^limit.max_warp_insts = 4000000000 " || fail "no default instruction limit"
$W config | grep -q "^limit.max_cycles = 1000000000 " || fail "no default cycle limit"

# item 9: a warp that exits counts as arrived at its CTA's barriers, in both engines alike
for mode in --functional "--set sm.deadlock_cycles=5000"; do
  out=$($W launch --ptx tests/kernels/cli_barrier_exit.ptx --kernel early_exit --block 64 --buffer "o u32 1" --arg o \
    --print "o 1" $mode 2>&1) || fail "early_exit ($mode): $out"
  echo "$out" | grep -q "^o: 7$" || fail "early_exit ($mode) did not pass its barrier: $out"
done

# item 14: where each kernel's register count came from; a warning for an estimate
out=$($W run vecadd --size tiny --functional --json "$d/r.json" 2>&1) || fail "vecadd: $out"
echo "$out" | grep -q "^regs  *vecadd 12 per thread (ptxas)$" || fail "no ptxas register line: $out"
echo "$out" | grep -q "warning" && fail "a warning for an annotated kernel: $out"
grep -q '{"kernel": "vecadd", "regs_per_thread": 12, "source": "ptxas", "compiled": 12}' "$d/r.json" || fail "no kernel_regs in the JSON"
expect 0 "warning: kernel vadd: no ptxas register count" -- \
  $W launch --ptx "$P" --kernel vadd --functional --buffer "a f32 32" --buffer "b f32 32" --buffer "c f32 32" \
  --arg a --arg b --arg c --arg "s32 32"
echo "$out" | grep -qE "^regs +vadd [0-9]+ per thread \(estimated by warpsim\)$" || fail "no estimated register line: $out"
echo ok
