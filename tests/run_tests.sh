#!/usr/bin/env bash
# Runs every unit-test binary and CLI test script of a build flavour and prints
# one closing line "N passed, N failed" (N = individual test cases).
# Usage: tests/run_tests.sh build/asan
set -u
dir=${1:-build/asan}
export WARPSIM="$dir/warpsim"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
pass=0; fail=0; failed_names=""
for t in "$dir"/tests/t*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
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
for s in tests/cli/*.sh; do
  [ -f "$s" ] || continue
  name=$(basename "$s")
  out=$(bash "$s" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); printf 'ok   %s\n' "$name"
  else fail=$((fail + 1)); failed_names="$failed_names $name"; printf 'FAIL %s\n' "$name"; printf '%s\n' "$out" | tail -n 30; fi
done
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
