#!/usr/bin/env bash
# Every benchmark at its tiny input matches its CPU reference.
set -eu
W=${WARPSIM:-build/rel/warpsim}
$W suite --size tiny
