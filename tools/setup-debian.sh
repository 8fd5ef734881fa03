#!/usr/bin/env bash
# Installs what warpsim needs on a fresh Debian 12 machine (build tools; the
# plotting tools used by `warpsim report`). Safe to run again: installs only
# what is missing. Needs root (or sudo) only when something is missing.
set -e
need=()
command -v cc >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v make >/dev/null 2>&1 || need+=(make)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "setup: installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi
