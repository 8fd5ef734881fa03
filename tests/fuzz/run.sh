#!/usr/bin/env bash
# Runs the three libFuzzer targets (build/fuzz/fuzz_{ptx,config,launch}, `make fuzz-build`) for
# FUZZ_SECONDS each on a fresh corpus of the checked-in inputs, and fails if one finds a crash,
# leak, sanitizer report, timeout or memory blow-up (its artifact is kept in $FUZZ_OUT).
# Used by `make fuzz` and, with a short budget, by tests/cli/fuzz_parsers.sh (make test, CI).
set -u
B=${WARPSIM_FUZZ_BIN:-build/fuzz}
S=${FUZZ_SECONDS:-60}
out=${FUZZ_OUT:-build/fuzz/findings}
mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ptx" "$work/config" "$work/launch"
cp bench/*/*.ptx tests/kernels/*.ptx doc/examples/*.ptx "$work/ptx/"
cp configs/*.cfg "$work/config/"
cp doc/examples/*.launch "$work/launch/"
# the launch statements the tests use, one small file each
i=0
for f in tests/cli/*.sh; do
  grep -ohE -- '--(buffer|arg|grid|block|shared|print|symbol) "[^"]*"' "$f" | sed -E 's/^--([a-z]+) "(.*)"$/\1 \2/' |
    while IFS= read -r l; do i=$((i + 1)); printf '%s\n' "$l" > "$work/launch/t$i-$(basename "$f")"; done
done
rc=0
for t in ptx config launch; do
  [ -x "$B/fuzz_$t" ] || { echo "fuzz: $B/fuzz_$t missing (make fuzz-build; needs clang)"; exit 1; }
  log="$work/$t.log"
  if "$B/fuzz_$t" -dict="tests/fuzz/$t.dict" -max_len=65536 -max_total_time="$S" -timeout=20 -rss_limit_mb=2560 \
      -artifact_prefix="$out/$t-" -print_final_stats=1 "$work/$t" > "$log" 2>&1; then
    echo "fuzz_$t: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') inputs in ${S}s, no failure"
  else
    rc=1
    echo "fuzz_$t: FAILED (artifact in $out/):"
    grep -E "ERROR|SUMMARY|Test unit written|==[0-9]+==" "$log" | head -n 20
  fi
done
exit $rc
