#!/usr/bin/env bash
# warpsim sweep: a sweep file expands into the cross product of its benchmarks, sizes and axes
# (ranges, lists, scheduler shorthands, labelled variants), with stable run ids; the manifest
# has one line per run; mistakes in the file are reported with file:line and exit status 2.
set -eu
W=${WARPSIM:-build/rel/warpsim}
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$d/s.sweep" <<'S'
# an example with every kind of statement
name      ex
benchmarks vecadd btree
size      tiny small
group     g1 vecadd          # groups do not change the runs
axis      sched  lrr swl:1..3 two-level:2
axis      l1d.size 16K,32K
variant   tlp c2 sm.max_ctas=2
variant   tlp c4 sm.max_ctas=4 sched.policy=gto
set       sm.deadlock_cycles=200000
S
$W sweep "$d/s.sweep" -o "$d/r" --dry-run > "$d/a.txt"
tail -n 1 "$d/a.txt" | grep -q "^80 runs -> $d/r$" || fail "want 80 runs: $(tail -n 1 "$d/a.txt")"
# order: benchmark, size, then the axes with the last varying fastest; overrides in order
sed -n 1p "$d/a.txt" | grep -Eq '^ +0  pending   vecadd\.tiny\.gtx480\.lrr\.16K\.c2-[0-9a-f]{8}  sm\.deadlock_cycles=200000 sched\.policy=lrr l1d\.size=16K sm\.max_ctas=2$' \
  || fail "first run: $(sed -n 1p "$d/a.txt")"
grep -Eq '^ +[0-9]+  pending   btree\.small\.gtx480\.swl-3\.32K\.c4-[0-9a-f]{8}  sm\.deadlock_cycles=200000 sched\.policy=swl sched\.swl\.limit=3 l1d\.size=32K sm\.max_ctas=4 sched\.policy=gto$' "$d/a.txt" \
  || fail "swl:3 x 32K x c4 missing"
grep -q 'two-level-2.16K.c2-[0-9a-f]* .*sched.policy=two-level sched.two-level.group_size=2 ' "$d/a.txt" || fail "two-level:2"
# ids are a pure function of the run: this one is pinned (a change would orphan old results)
grep -q ' vecadd.tiny.gtx480.lrr.16K.c2-ad38520d ' "$d/a.txt" || fail "pinned id changed: $(sed -n 1p "$d/a.txt")"
# stable: unrelated edits (comments, groups, report options, where size/set lines sit) keep every id
{ echo "set sm.deadlock_cycles=200000  # moved"; echo "size tiny small"; echo "report baseline=gto"
  grep -v -e '^set' -e '^size' "$d/s.sweep"; echo "group other btree"; } > "$d/t.sweep"
$W sweep "$d/t.sweep" -o "$d/r" --dry-run | awk '/pending/ {print $3}' > "$d/t.ids"
awk '/pending/ {print $3}' "$d/a.txt" > "$d/a.ids"
cmp -s "$d/a.ids" "$d/t.ids" || fail "ids changed by unrelated edits: $(diff "$d/a.ids" "$d/t.ids" | head -5)"
# a different fixed override is a different experiment: new ids
sed 's/200000/300000/' "$d/s.sweep" > "$d/u.sweep"
$W sweep "$d/u.sweep" -o "$d/r" --dry-run | awk '/pending/ {print $3}' | sort > "$d/u.ids"
[ -z "$(sort "$d/a.ids" | comm -12 - "$d/u.ids")" ] || fail "changed set kept ids"
# the manifest (written with --emit): one line per run, index id benchmark size config seed overrides
$W sweep "$d/s.sweep" -o "$d/r" --emit parallel > /dev/null
[ "$(wc -l < "$d/r/manifest.tsv")" -eq 80 ] || fail "manifest lines"
awk -F'\t' 'NR==42 && !($1==41 && $3=="btree" && $4=="tiny" && $5=="gtx480" && $6==1 && $7 ~ /^sm.deadlock_cycles=200000 /) {exit 1}' "$d/r/manifest.tsv" \
  || fail "manifest line 42: $(sed -n 42p "$d/r/manifest.tsv")"
[ "$(wc -l < "$d/r/parallel.txt")" -eq 80 ] || fail "parallel.txt lines"
# benchmarks default to the groups'; seeds
printf 'group a vecadd btree\ngroup b btree stencil\nseed 1..3\nsize tiny\n' > "$d/g.sweep"
$W sweep "$d/g.sweep" -o "$d/g" --dry-run > "$d/g.txt"
tail -n 1 "$d/g.txt" | grep -q "^9 runs" || fail "groups x seeds: $(cat "$d/g.txt")"
grep -q ' stencil.tiny.gtx480.s3-' "$d/g.txt" || fail "seed in id"
# errors name file and line
expect() { # expect PATTERN -- sweep file text
  local pat=$1; shift; printf '%b' "$1" > "$d/e.sweep"
  set +e; out=$($W sweep "$d/e.sweep" -o "$d/e" --dry-run 2>&1); rc=$?; set -e
  [ $rc -eq 2 ] || fail "rc $rc for: $1 -> $out"
  echo "$out" | grep -qF -- "$pat" || fail "missing '$pat' in: $out"
}
expect "e.sweep:2: unknown statement 'axes'" 'benchmarks vecadd\naxes sched lrr\n'
expect "e.sweep:2: bad range '5..2'" 'benchmarks vecadd\naxis sm.max_ctas 5..2\n'
expect "e.sweep:2: scheduler 'gto' takes no ':' parameter (valid: swl:N (sched.swl.limit)" 'benchmarks vecadd\naxis sched gto:4\n'
expect "e.sweep:1: unknown size 'huge' (valid: tiny, small, paper)" 'size huge\nbenchmarks vecadd\n'
expect "e.sweep:3: axis 'sched' given twice" 'benchmarks vecadd\naxis sched lrr\naxis sched gto\n'
expect "e.sweep:2: expected KEY=VALUE, got 'l1d.size'" 'benchmarks vecadd\nset l1d.size\n'
expect "no benchmarks" 'size tiny\n'
set +e; out=$($W sweep "$d/nonexistent.sweep" 2>&1); rc=$?; set -e
[ $rc -eq 2 ] && echo "$out" | grep -q "cannot read sweep file" || fail "missing file: $rc $out"
echo ok
