#!/usr/bin/env bash
# Installs what warpsim needs on a fresh Debian 12 machine: build tools; Python 3 (the
# experiment workflow behind `warpsim sweep` / `warpsim report`, stdlib only); gnuplot for the
# report's figures (PNG and SVG); GNU parallel (cluster run lists, and their test); clang with
# its libFuzzer runtime (the parsers' fuzz targets, run by `make test`) and clang-format (the
# sources' layout, checked by `make test`); chromium (the timeline
# viewer's test renders tools/timeline_viewer.html headless: tests/cli/timeline_viewer.sh); libzstd1
# (the CUDA runtime library decompresses nvcc 13's fat-binary PTX with it, opened at run time). Safe to
# run again: installs only what is missing. Needs root (or sudo) only when something is.
set -e
need=()
command -v cc >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v make >/dev/null 2>&1 || need+=(make)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox)
parallel --version 2>/dev/null | grep -q 'GNU parallel' || need+=(parallel)
command -v clang >/dev/null 2>&1 || need+=(clang)
command -v clang-format >/dev/null 2>&1 || need+=(clang-format)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
ldconfig -p 2>/dev/null | grep -q 'libzstd.so.1 ' || need+=(libzstd1)
# libFuzzer's runtime: a separate package from Debian 12 on (libclang-rt-<N>-dev)
if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  v=$( (clang --version 2>/dev/null || echo "clang version 14") | sed -nE 's/.*clang version ([0-9]+).*/\1/p' | head -n 1)
  need+=("libclang-rt-${v:-14}-dev")
fi
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "setup: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
