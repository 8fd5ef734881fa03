#!/usr/bin/env bash
# Every benchmark at its tiny input matches its CPU reference, functionally
# and on the timing model (gtx480, default scheduler).
set -eu
W=${WARPSIM:-build/rel/warpsim}
$W suite --size tiny --functional
$W suite --size tiny
