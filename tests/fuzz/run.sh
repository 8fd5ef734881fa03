#!/usr/bin/env bash
# Runs the libFuzzer targets (build/fuzz/fuzz_{ptx,config,launch,caws_profile,classes}, `make fuzz-build`) for
# FUZZ_SECONDS each on a fresh corpus of the checked-in inputs, and fails if one finds a crash,
# leak, sanitizer report, timeout or memory blow-up (its artifact is kept in $FUZZ_OUT).
# Used by `make fuzz` and, with a short budget, by tests/cli/fuzz_parsers.sh (make test, CI).
set -u
B=${WARPSIM_FUZZ_BIN:-build/fuzz}
S=${FUZZ_SECONDS:-60}
out=${FUZZ_OUT:-build/fuzz/findings}
mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ptx" "$work/config" "$work/launch" "$work/caws_profile" "$work/classes"
cp bench/*/*.ptx tests/kernels/*.ptx doc/examples/*.ptx "$work/ptx/"
cp configs/*.cfg "$work/config/"
cp doc/examples/*.launch "$work/launch/"
# the launch statements the tests use, one small file each
i=0
for f in tests/cli/*.sh; do
  grep -ohE -- '--(buffer|arg|grid|block|shared|print|symbol) "[^"]*"' "$f" | sed -E 's/^--([a-z]+) "(.*)"$/\1 \2/' |
    while IFS= read -r l; do i=$((i + 1)); printf '%s\n' "$l" > "$work/launch/t$i-$(basename "$f")"; done
done
# a small CAWS profile and class files in their text forms (the formats' headers and a few lines)
printf '# warpsim caws profile\nkernel 0 vecadd\nkernel 1 other\n0 0 0 1035\n0 0 1 990\n1 3 2 77\n' > "$work/caws_profile/p1"
printf 'kernel 0 k\n0 1 2 3\n\n  # comment\n0 1 3 18446744073709551615\n' > "$work/caws_profile/p2"
printf '# warpsim classify\nvecadd 12 ca\nvecadd 14 cg\nvecadd 20 cm\n' > "$work/classes/c1"
printf 'k 0 cm\n  \t# x\nother_kernel 4294967295 ca\n' > "$work/classes/c2"
rc=0
for t in ptx config launch caws_profile classes; do
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
