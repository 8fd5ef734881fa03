#!/usr/bin/env bash
# Runs every unit-test binary and CLI test script of a build flavour and prints one closing
# line "N passed, N failed, N skipped" (N = individual test cases; a CLI script that cannot run
# here, e.g. without chromium, prints SKIP and exits 77, and counts as skipped).
# Usage: tests/run_tests.sh build/asan [--quick]
# --quick: the quick tier (`make check`): only the unit tests and CLI scripts named in
# tests/quick.txt.
set -u
dir=${1:-build/asan}
quick=${2:-}
case $quick in ""|--quick) ;; *) echo "usage: tests/run_tests.sh DIR [--quick]" >&2; exit 2 ;; esac
export WARPSIM="$dir/warpsim"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
pass=0; fail=0; skip=0; failed_names=""; skipped_names=""
listed=$(sed -e 's/#.*//' tests/quick.txt | awk 'NF {print $1}')
for t in "$dir"/tests/t*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  if [ -n "$quick" ] && ! printf '%s\n' "$listed" | grep -qx "$name"; then continue; fi
  out=$("$t" 2>&1); rc=$?
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  p=$(printf '%s' "$line" | sed -E 's/^([0-9]+) passed.*/\1/'); p=${p:-0}
  f=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) failed$/\1/'); f=${f:-0}
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or sanitizer report
  pass=$((pass + p)); fail=$((fail + f))
  if [ $rc -ne 0 ]; then
    failed_names="$failed_names $name"
    printf 'FAIL %-28s %s\n' "$name" "$line"; printf '%s\n' "$out" | tail -n 30
  else
    printf 'ok   %-28s %s\n' "$name" "$line"
  fi
done
if [ -n "$quick" ]; then
  scripts=$(printf '%s\n' "$listed" | grep '\.sh$' | sed 's|^|tests/cli/|')
else
  scripts=$(ls tests/cli/*.sh)
fi
for s in $scripts; do
  [ -f "$s" ] || { fail=$((fail + 1)); failed_names="$failed_names $s"; printf 'FAIL %s: no such script\n' "$s"; continue; }
  name=$(basename "$s")
  out=$(bash "$s" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); printf 'ok   %s\n' "$name"
  elif [ $rc -eq 77 ]; then
    skip=$((skip + 1)); skipped_names="$skipped_names $name"
    printf 'SKIP %s: %s\n' "$name" "$(printf '%s\n' "$out" | grep -m1 SKIP)"
  else fail=$((fail + 1)); failed_names="$failed_names $name"; printf 'FAIL %s\n' "$name"; printf '%s\n' "$out" | tail -n 30; fi
done
[ -n "$skipped_names" ] && echo "skipped:$skipped_names"
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
