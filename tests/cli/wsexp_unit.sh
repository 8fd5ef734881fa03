#!/usr/bin/env bash
# The unit tests of tools/wsexp's pure functions (tests/py: claim verdicts and values, means,
# sweep value expansion, best-of families), and the package imported as `warpsim sweep` runs it:
# `python3 -m wsexp` with tools/ on the module path, no path set up by the modules themselves.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
PYTHONPATH=tools python3 -m unittest discover -s tests/py -t tests/py -q 2> "$d/out" || { cat "$d/out"; fail "unit tests"; }
! grep -n "sys\.path" tools/wsexp/*.py || fail "tools/wsexp changes sys.path"
! grep -nE "^(import|from) (plot|report|reproduce|runner|spec|seriesfig|timeline_fig|claims|means)\b" tools/wsexp/*.py \
  || fail "tools/wsexp imports a sibling module by its bare name"
echo ok
