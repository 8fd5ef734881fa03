#!/usr/bin/env bash
# The techniques' files, parameters and reports under bad input: no crash, every output file
# written whole after a completed run or left as it was (config --check, a failed run), inputs
# only as regular files of bounded size, parameter ranges, and clear errors naming what and where.
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

# crashes: a negative launch index, a use after free in cacp's error path, the limit report
printf 'kernel -1 k\n' > "$d/neg.prof"
expect 2 "sched.caws.profile: .*neg.prof:1: bad launch index" -- \
  $W run vecadd --size tiny --sched caws --set sched.caws.mode=read --set sched.caws.profile="$d/neg.prof"
printf 'kernel 0 vecadd\n0 0 0 -5\n' > "$d/neg2.prof"
expect 2 "neg2.prof:2: not a caws profile line" -- \
  $W run vecadd --size tiny --sched caws --set sched.caws.mode=read --set sched.caws.profile="$d/neg2.prof"
expect 2 "l1d.cacp.ccbp_init: above counter_max \(3\)" -- $W config --check --set l1d.policy=cacp --set l1d.cacp.ccbp_init=4
expect 2 "l1d.ship.ship_init: above counter_max \(3\)" -- $W config --check --set l1d.policy=ship --set l1d.ship.ship_init=4
expect 1 "limit.max_warp_insts = 1, --max-insts\): .*raise it with --set limit.max_warp_insts=N.*running:( no warp between instructions| CTA)" -- \
  $W run vecadd --size tiny --functional --max-insts 1

# outputs: written by a completed run only; config --check and a failed run leave them as they were
run_caws() { $W run vecadd --size tiny --sched caws --set sched.caws.profile="$d/good.prof" "$@"; }
run_caws > /dev/null 2>&1 || fail "caws write run"
grep -q "^kernel 0 vecadd$" "$d/good.prof" && [ "$(wc -l < "$d/good.prof")" -gt 100 ] || fail "profile not written"
cp "$d/good.prof" "$d/keep.prof"
$W config --check --set sched.policy=caws --set sched.caws.profile="$d/good.prof" || fail "config --check"
cmp -s "$d/good.prof" "$d/keep.prof" || fail "config --check changed the profile"
expect 1 "stopped after" -- run_caws --max-cycles 100
cmp -s "$d/good.prof" "$d/keep.prof" || fail "a failed run changed the profile"
expect 0 "check +PASS" -- $W run vecadd --size tiny --sched caws --set sched.caws.mode=read --set sched.caws.profile="$d/good.prof"
obs=(--set sm.observers=l1d-trace,bypass --set observer.l1d-trace.file="$d/tr.txt" --set observer.bypass.series="$d/se.txt"
     --set observer.bypass.profile="$d/bp.txt" --set sched.policy=gcaws --set sched.gcaws.priority_file="$d/pr.txt")
for f in tr se bp pr; do echo "old $f" > "$d/$f.txt"; done
$W config --check "${obs[@]}" || fail "config --check with observers"
expect 1 "stopped after" -- $W run vecadd --size tiny "${obs[@]}" --max-cycles 200
for f in tr se bp pr; do [ "$(cat "$d/$f.txt")" = "old $f" ] || fail "$f.txt changed by a check or a failed run"; done
$W run vecadd --size tiny "${obs[@]}" > /dev/null || fail "observer run"
for f in tr se bp pr; do [ -s "$d/$f.txt" ] && ! grep -q "^old" "$d/$f.txt" || fail "$f.txt not written by a completed run"; done
grep -q "^# kernel vecadd 0" "$d/tr.txt" || fail "trace header"
ls -a "$d" | grep -q '\.tmp\|\.txt\.' && fail "temporary files left: $(ls -a "$d")"
# through a symlink: the link stays, its target is written; a device is written, never replaced
ln -s tr2.txt "$d/trl.txt"
$W run vecadd --size tiny --set sm.observers=l1d-trace --set observer.l1d-trace.file="$d/trl.txt" > /dev/null || fail "trace via symlink"
[ -L "$d/trl.txt" ] && grep -q "^# kernel vecadd 0" "$d/tr2.txt" || fail "symlinked trace"
$W run vecadd --size tiny --set sm.observers=l1d-trace --set observer.l1d-trace.file=/dev/null > /dev/null || fail "trace to /dev/null"
[ -c /dev/null ] || fail "/dev/null replaced"
# unwritable outputs fail before the run, naming the key
expect 2 "observer.l1d-trace.file: cannot write '$d/no/tr.txt': No such file or directory" -- \
  $W run vecadd --size tiny --set sm.observers=l1d-trace --set observer.l1d-trace.file="$d/no/tr.txt"
expect 2 "observer.l1d-trace.file: cannot write '$d': Is a directory" -- \
  $W run vecadd --size tiny --set sm.observers=l1d-trace --set observer.l1d-trace.file="$d"
expect 2 "sched.caws.profile: cannot write" -- $W run vecadd --size tiny --sched caws --set sched.caws.profile="$d/no/p.prof"
expect 2 "observer.bypass.series: '$d/same.txt' is also observer.l1d-trace.file's file" -- $W config --check \
  --set sm.observers=l1d-trace,bypass --set observer.l1d-trace.file="$d/same.txt" --set observer.bypass.series="$d/same.txt"
# --json to our stdout appends to a log opened with >>; one file for two outputs is refused
echo "first line" > "$d/log.txt"
$W run vecadd --size tiny --functional --json /dev/stdout >> "$d/log.txt" || fail "json to /dev/stdout"
[ "$(head -1 "$d/log.txt")" = "first line" ] && grep -q '"check": "PASS"' "$d/log.txt" || fail "the log was erased: $(head -3 "$d/log.txt")"
expect 2 "--json $d/t.json and the timeline $d/t.json are the same file" -- $W run vecadd --size tiny --timeline "$d/t.json" --json "$d/t.json"
[ -e "$d/t.json" ] && fail "t.json written"

# inputs: regular files only (a FIFO is refused, not waited on), no NUL bytes, bounded sizes
mkfifo "$d/fifo"
expect 2 "cannot read '$d/fifo': not a regular file" -- timeout 20 $W run vecadd --size tiny --sched caws --set sched.caws.mode=read --set sched.caws.profile="$d/fifo"
expect 2 "cannot read '$d/fifo': not a regular file" -- timeout 20 $W run vecadd --size tiny --set sm.observers=bypass --set observer.bypass.classes="$d/fifo"
expect 2 "cannot read '$d/fifo': not a regular file" -- timeout 20 $W launch "$d/fifo"
expect 2 "cannot read '$d/fifo': not a regular file" -- timeout 20 $W belady "$d/fifo"
printf 'vecadd 3 ca\nvecadd 3 cg\n' > "$d/dup.cls"
expect 2 "dup.cls: kernel vecadd pc 3 is listed twice" -- $W run vecadd --size tiny --set sm.observers=bypass --set observer.bypass.classes="$d/dup.cls"
printf 'vecadd 99999999999 ca\n' > "$d/pc.cls"
expect 2 "pc.cls:1: expected 'kernel pc ca\|cg\|cm'" -- $W run vecadd --size tiny --set sm.observers=bypass --set observer.bypass.classes="$d/pc.cls"
printf 'sm.count = 4\n\0sm.count = 200000\n' > "$d/nul.cfg"
expect 2 "nul.cfg': holds a NUL byte" -- $W config --config "$d/nul.cfg"
expect 2 "bad value '100000' for sm.clock_mhz" -- $W config --set sm.clock_mhz=100000
expect 2 "bad value '16777216' for sched.gcaws.reuse_history" -- $W config --check --set sched.policy=gcaws --set sched.gcaws.reuse_history=16777216
expect 2 "bad value '65536' for observer.missclass.vta_ways" -- $W config --check --set sm.observers=missclass --set observer.missclass.vta_entries=65536 --set observer.missclass.vta_ways=65536
expect 2 "out of range for 'u8'" -- $W launch --buffer "a u8 300 seq"
expect 2 "initial value 256 \(element 256\) out of range for 'u8'" -- $W launch --buffer "a u8 300 seq"

# options: the later of --set sched.policy and --sched wins
$W config --set sched.policy=lrr --sched gto | grep -q "^sched.policy = gto " || fail "--sched after --set lost"
$W config --sched gto --set sched.policy=lrr | grep -q "^sched.policy = lrr " || fail "--set after --sched lost"

# classify: thresholds, an input as output, a kernel not in the PTX, its private temporary folder, --max-cycles
cat > "$d/v.launch" <<EOT
ptx $P
kernel vadd
grid 2
block 64
buffer a f32 128 seq
buffer b f32 128 const 1
buffer c f32 128
arg a
arg b
arg c
arg s32 128
EOT
expect 2 "--high: bad threshold 'nan'" -- $W classify "$d/v.launch" --high nan
expect 2 "a timeline is for one run" -- $W classify "$d/v.launch" --timeline "$d/x.json"
expect 2 "--low: bad threshold ''" -- $W classify "$d/v.launch" --low ""
cp "$d/v.launch" "$d/v.keep"
expect 2 "--out $d/v.launch is an input" -- $W classify "$d/v.launch" --out "$d/v.launch"
cmp -s "$d/v.launch" "$d/v.keep" || fail "classify overwrote its input"
sed 's/^kernel vadd/kernel nosuch/' "$d/v.launch" > "$d/n.launch"
expect 2 "kernel nosuch is not an entry of its PTX" -- $W classify "$d/n.launch" --out "$d/n.cls"
[ -e "$d/n.cls" ] && fail "an empty class file was written"
mkdir "$d/tmp"
TMPDIR="$d/tmp" $W classify "$d/v.launch" --out "$d/v.cls" 2> /dev/null || fail "classify"
grep -q "^vadd [0-9]* c[agm]$" "$d/v.cls" || fail "class file: $(cat "$d/v.cls")"
[ -z "$(ls -A "$d/tmp")" ] || fail "classify left temporaries: $(ls -A "$d/tmp")"
echo keep > "$d/v2.cls"
expect 1 "profiling run 1 failed" -- $W classify "$d/v.launch" --out "$d/v2.cls" --max-cycles 10
[ "$(cat "$d/v2.cls")" = keep ] || fail "a failed classify changed its output"
echo ok
