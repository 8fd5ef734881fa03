#!/usr/bin/env bash
# Regenerates the measured tables of bench/README.md: every benchmark at each
# size, functional mode (instruction counts do not depend on the timing model),
# occupancy under the gtx480 limits. Usage: tools/bench_table.sh [sizes...]
set -eu
W=${WARPSIM:-build/rel/warpsim}
out=${OUT:-bench/README.md}
sizes=${*:-tiny small paper}
tmp=$(mktemp)
{
  sed -n '1,/^<!-- measured tables below/p' "$out"
  for s in $sizes; do
    echo
    echo "### size \`$s\`"
    echo
    $W suite --size "$s" --functional --markdown | grep '^|'
  done
} > "$tmp"
mv "$tmp" "$out"
