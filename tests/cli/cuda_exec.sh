#!/usr/bin/env bash
# warpsim exec on ordinary CUDA programs compiled here with nvcc -cudart shared
# (tests/cuda/*.cu): each checks its own result; six suite benchmarks, built from their own
# host driver and kernels (tests/cuda/bench_host.cu), must give the warp instructions and
# cycles of `warpsim run` at --size tiny (and vecadd its timeline); and the error paths (a fat binary without PTX, a
# statically linked CUDA runtime, an unsupported call, an out-of-bounds access) each give a
# message naming the cause and a failed status. Without nvcc it prints SKIP and exits 77 (a skip).
# Needs warpsim's build/rel/lib/libcudart.so.13 (make).
set -u
W=${WARPSIM:-build/rel/warpsim}
NVCC=${NVCC:-$(command -v /usr/local/cuda/bin/nvcc nvcc 2>/dev/null | head -n 1)}
if [ -z "$NVCC" ] || ! [ -x "$NVCC" ]; then echo "SKIP: nvcc not found (CUDA programs are compiled at test time)"; exit 77; fi
[ -f build/rel/lib/libcudart.so.13 ] || { echo "build/rel/lib/libcudart.so.13 is missing (make)"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
NV="$NVCC -cudart shared -arch=sm_75 -O2"

# ---- build everything (two at a time) ----
progs="saxpy_events multi_kernel constant_symbol streams device_query printf half error_oob error_unsupported"
benches="vecadd fwt pathfinder hotspot gaussian backprop"
jobs=0
build() { "$@" > "$d/build.$jobs.log" 2>&1 || { echo "build failed: $*"; cat "$d/build.$jobs.log"; } ; }
for p in $progs; do
  build $NV -o "$d/$p" tests/cuda/$p.cu &
  jobs=$((jobs + 1)); [ $((jobs % 2)) = 0 ] && wait
done
build $NVCC -cudart shared -gencode arch=compute_75,code=sm_75 -o "$d/noptx" tests/cuda/saxpy_events.cu &
build $NVCC -arch=sm_75 -o "$d/static" tests/cuda/saxpy_events.cu &
wait
CFLAGS_B="-O2 -std=c11 -D_GNU_SOURCE -Isrc -Ibench/common"
for b in $benches; do
  mkdir -p "$d/b_$b"
  { for f in bench/$b/*.cu; do echo "#include \"$PWD/$f\""; done
    printf '#define BENCH_TABLE'; grep -ohE '\.entry [A-Za-z0-9_]+' bench/$b/*.ptx | awk '{printf " {\"%s\", (const void *)%s},", $2, $2}'; echo
    printf '#define BENCH_PTX'; (cd bench/$b && ls *.ptx) | awk -v b=$b '{printf " {\"%s/%s\", \"\"},", b, $1}'; echo
    echo "#define BENCH_DESC bench_desc_$b"; } > "$d/b_$b/bench_gen.h"
  objs=""
  for c in bench/common/bench.c bench/$b/*.c; do
    o="$d/b_$b/$(basename "$c" .c).o"; cc $CFLAGS_B -c -o "$o" "$c" || bad "cc $c"; objs="$objs $o"
  done
  build $NV -I"$d/b_$b" -Isrc -Ibench/common -o "$d/$b" tests/cuda/bench_host.cu $objs &
  jobs=$((jobs + 1)); [ $((jobs % 2)) = 0 ] && wait
done
wait

# ---- programs that check their own results ----
for p in saxpy_events multi_kernel constant_symbol streams device_query half; do
  out=$($W exec -- "$d/$p" 2>"$d/$p.err"); rc=$?
  [ $rc = 0 ] || { bad "$p: exec status $rc"; cat "$d/$p.err"; echo "$out" | head -5; }
  echo "$out" | grep -q "^launch_count " || bad "$p: no statistics"
done
# the JSON: per-launch records, the program's status, the resolved configuration
$W exec --json "$d/m.json" --sched lrr -- "$d/multi_kernel" > /dev/null 2>&1 || bad "multi_kernel --json"
python3 - "$d/m.json" <<'PY' || bad "multi_kernel JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["exit_status"] == 0 and j["mode"] == "timing", j
assert len(j["launches"]) == 7 and j["launches"][2]["kernel"] == "_Z9transposePKiPiii", j["launches"]
assert j["config"]["sched.policy"] == "lrr"
assert sum(l["warp_insts"] for l in j["launches"]) == j["warp_insts"]
assert sum(l["cycles"] for l in j["launches"]) == j["gpu"]["cycles"]
PY
# cudaDeviceSetCacheConfig(PreferL1): the Fermi split 16 KB shared + 48 KB L1
$W exec --json "$d/s.json" -- "$d/streams" > /dev/null 2>&1 || bad "streams --json"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["config"]; sys.exit(not (c["l1d.size"] == 49152 and c["sm.shared_mem"] == 16384))' "$d/s.json" || bad "PreferL1 not applied"
# events measure simulated time: the kernel's cycles at 700 MHz
out=$($W exec --functional -- "$d/saxpy_events" 2>&1); [ $? = 1 ] || bad "saxpy_events --functional: events have no time there, the program must fail"
echo "$out" | grep -q "^mode *functional" || bad "functional mode not reported"

# device printf: what each thread prints, in thread order within a launch
out=$($W exec -- "$d/printf" 2>&1) || bad "printf: exec failed"
want="block 0 thread 0: 100 0.000 ok
block 0 thread 16: 116 8.000 ok
block 1 thread 0: 100 0.000 ok
block 1 thread 16: 116 8.000 ok
wide 1099511627776 2.5 A ff%
wide 1099511627776 2.5 B ff%
host: done"
[ "$(echo "$out" | head -n 7)" = "$want" ] || { bad "printf output"; echo "$out" | head -n 8; }

# ---- suite benchmarks: the same counts and cycles as warpsim run ----
for b in $benches; do
  e=$($W exec -- "$d/$b" tiny 2>&1) || { bad "$b: exec failed"; echo "$e" | tail -5; continue; }
  r=$($W run $b --size tiny 2>&1) || { bad "$b: run failed"; continue; }
  for key in '^warp_insts ' '^thread_insts ' '^gpu.cycles '; do
    x=$(echo "$e" | grep -E "$key" | awk '{print $2}'); y=$(echo "$r" | grep -E "$key" | awk '{print $2}')
    [ -n "$x" ] && [ "$x" = "$y" ] || bad "$b: $key exec '$x' run '$y'"
  done
  echo "$b: warp_insts $(echo "$e" | grep '^warp_insts ' | awk '{print $2}') cycles $(echo "$e" | grep '^gpu.cycles ' | awk '{print $2}') (= run)"
done

# the timeline of a program is the one `run` writes for the same launches, byte for byte
$W exec --timeline "$d/e.json" -- "$d/vecadd" tiny > /dev/null 2>&1 || bad "exec --timeline"
$W run vecadd --size tiny --timeline "$d/r.json" > /dev/null 2>&1 || bad "run --timeline"
cmp -s "$d/e.json" "$d/r.json" || bad "exec's timeline differs from run's"
out=$($W exec --timeline "$d/none.json" -- "$d/error_unsupported" 2>&1)
[ -e "$d/none.json" ] && bad "a timeline written for a program without launches"
echo "$out" | grep -q "no timeline written" || bad "no message for the missing timeline"

# ---- error paths ----
out=$($W exec -- "$d/noptx" 2>&1); rc=$?
[ $rc = 1 ] || bad "noptx: status $rc"
echo "$out" | grep -q "holds no PTX.*-gencode arch=compute_75,code=compute_75" || { bad "noptx message"; echo "$out" | head -3; }
out=$($W exec -- "$d/static" 2>&1); rc=$?
[ $rc = 2 ] || bad "static: status $rc"
echo "$out" | grep -q "links the CUDA runtime statically.*-cudart shared" || bad "static message: $out"
out=$($W exec -- "$d/error_unsupported" 2>&1); rc=$?
[ $rc = 1 ] || bad "error_unsupported: status $rc"
echo "$out" | grep -q "cudaMallocManaged is not supported" || bad "unsupported message: $out"
out=$($W exec -- "$d/error_oob" 2>&1); rc=$?
[ $rc = 1 ] || bad "error_oob: status $rc"
echo "$out" | grep -q "out-of-bounds global store" || bad "oob message: $out"
echo "$out" | grep -q "error_oob: cudaErrorIllegalAddress, then cudaErrorIllegalAddress" || bad "oob: sticky error not seen by the program"
out=$($W exec -- "$d/nonexistent" 2>&1); [ $? = 2 ] || bad "missing program: status"
out=$($W exec --set no.such=1 -- "$d/half" 2>&1); [ $? = 2 ] || bad "bad key: status"
[ $fail = 0 ] && echo ok
exit $fail
