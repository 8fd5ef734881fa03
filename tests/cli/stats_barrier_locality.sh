#!/usr/bin/env bash
# The statistics the paper reproductions added, on hand-written kernels whose answers are known
# (tests/kernels/stats_locality.ptx, one CTA of two warps):
#  - `phases`: warp 0 loads a line twice (one hit on its own line), warp 1 loads it after the
#    barrier (one hit on warp 0's line); warp 0 spins before the barrier while warp 1 waits, so one
#    warp-phase with RTRU near 1/2 and warps stalled at the barrier near half the warp time;
#  - `exits`: warp 1 exits at once and waits for warp 0 at the exit point: exit stall near 1/2,
#    no barrier phase, one CTA in the top disparity tenth;
#  - with no spinning, neither kind of stall;
# and `warpsim config --check` (what reproduce uses to find missing policies).
set -eu
W=${WARPSIM:-build/rel/warpsim}
fail() { echo "FAIL: $*"; exit 1; }
K=tests/kernels/stats_locality.ptx
num() {  # num TEXT REGEX: the first number after REGEX
  printf '%s\n' "$1" | sed -nE "s/.*$2 *([0-9.]+).*/\1/p" | head -n 1
}
between() {  # between VALUE LO HI NAME
  python3 -c "import sys; v, lo, hi = map(float, sys.argv[1:4]); sys.exit(0 if lo < v <= hi else 1)" "$1" "$2" "$3" \
    || fail "$4 = $1, want in ($2, $3]"
}
out=$($W launch --ptx $K --kernel phases --grid 1 --block 64 --buffer "buf f32 1024 seq 0 1" --arg buf --arg "u32 2000" 2>&1) \
  || fail "phases: $out"
[ "$(num "$out" '^gpu\.l1d_read_hits_same_warp ')" = 1 ] && [ "$(num "$out" '^gpu\.l1d_read_hits_other_warp ')" = 1 ] \
  || fail "hits: $(printf '%s\n' "$out" | grep l1d_read_hits)"
[ "$(num "$out" '^gpu\.barrier_phases ')" = 1 ] || fail "phases: $(printf '%s\n' "$out" | grep barrier_phases)"
between "$(num "$out" '^gpu\.barrier_stall_fraction ')" 0.45 0.5 "barrier stall (phases)"
between "$(num "$out" '^gpu\.rtru_barrier_phase ')" 0.45 0.5 "RTRU (phases)"
between "$(num "$out" '^gpu\.exit_stall_fraction ')" -1 0.05 "exit stall (phases)"
out=$($W launch --ptx $K --kernel exits --grid 1 --block 64 --arg "u32 2000" 2>&1) || fail "exits: $out"
between "$(num "$out" '^gpu\.exit_stall_fraction ')" 0.45 0.5 "exit stall (exits)"
between "$(num "$out" '^gpu\.barrier_stall_fraction ')" -1 0 "barrier stall (exits)"
hist=$(printf '%s\n' "$out" | awk '/^gpu\.warp_time_disparity_hist\./ {printf "%s ", $2}')
[ "$hist" = "0 0 0 0 0 0 0 0 0 1 " ] || fail "disparity: $hist"
between "$(num "$out" '^gpu\.warp_time_disparity_max ')" 0.9 1 "disparity max (exits)"
out=$($W launch --ptx $K --kernel exits --grid 1 --block 64 --arg "u32 0" 2>&1) || fail "exits 0: $out"
between "$(num "$out" '^gpu\.exit_stall_fraction ')" -1 0.2 "exit stall (no spin)"
# config --check: builds the GPU (policy names), prints nothing
out=$($W config --check --sched gto 2>&1) || fail "config --check: $out"
[ -z "$out" ] || fail "config --check printed: $out"
set +e; out=$($W config --check --sched nosuch 2>&1); rc=$?; set -e
[ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q "unknown warp scheduler 'nosuch'" || fail "config --check nosuch: $rc $out"
exit 0
