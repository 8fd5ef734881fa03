#!/usr/bin/env bash
# The libFuzzer targets of the PTX, configuration, launch-file, CAWS profile and class-file parsers run for a
# bounded time (FUZZ_SECONDS each, default 15) in `make test`, so CI fuzzes all five. `make
# test` builds them with clang (tools/setup-debian.sh installs it); `make fuzz` runs longer.
set -u
command -v clang > /dev/null || { echo "FAIL: clang not found (tools/setup-debian.sh installs it)"; exit 1; }
FUZZ_SECONDS=${FUZZ_SECONDS:-15} FUZZ_OUT=${FUZZ_OUT:-build/fuzz/findings} tests/fuzz/run.sh
