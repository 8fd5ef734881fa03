#!/usr/bin/env bash
# Installs what warpsim needs on a fresh Debian 12 machine: build tools; Python 3 (the
# experiment workflow behind `warpsim sweep` / `warpsim report`, stdlib only); gnuplot for the
# report's figures (PNG and SVG); GNU parallel (cluster run lists, and their test). Safe to
# run again: installs only what is missing. Needs root (or sudo) only when something is.
set -e
need=()
command -v cc >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v make >/dev/null 2>&1 || need+=(make)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v gnuplot >/dev/null 2>&1 || need+=(gnuplot-nox)
parallel --version 2>/dev/null | grep -q 'GNU parallel' || need+=(parallel)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "setup: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
