#!/usr/bin/env bash
# The C sources and headers are laid out as .clang-format says (`make format` rewrites them):
# `make format-check` lists every file clang-format would change and fails. Skipped (exit 77)
# without clang-format (tools/setup-debian.sh installs it).
set -u
command -v clang-format >/dev/null 2>&1 || { echo "SKIP: clang-format not installed"; exit 77; }
out=$(make -s --no-print-directory format-check 2>&1) && { echo "ok: the sources are formatted"; exit 0; }
echo "FAIL: clang-format would change these files (run make format):"
printf '%s\n' "$out" | grep -oE '^[^:]+\.[ch]:' | sort -u | head -n 40
exit 1
