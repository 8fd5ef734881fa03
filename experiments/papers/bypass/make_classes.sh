#!/bin/sh
# Regenerates the class files the bypassing sweeps read (observer.bypass.classes):
#   classes/<bench>.cls       Algorithm 1 (HighThres 0.7, LowThres 0.3, load groups; MSHR merges count
#                             as hits), profiled at tiny
#   classes/<bench>.inst.cls  instruction-level bypassing: the same per-load profile, no groups, one
#                             threshold (0.5): a load is cached (ca) or bypassed (cg), never cm
# The sweeps read the file of each run's benchmark (observer.bypass.classes={sweepdir}/classes/{bench}.cls):
# kernel names repeat across benchmarks (pvc and ss share the MapReduce kernels, with other classes).
# table3.md beside this file sets the classes against the paper's Table 3, with the reason for each difference.
# Usage: experiments/papers/bypass/make_classes.sh [WARPSIM] [BENCH...] (run from the repository root).
set -e
W=${1:-build/rel/warpsim}
[ $# -gt 0 ] && shift
D=experiments/papers/bypass/classes
mkdir -p "$D"
BENCHES=${*:-"bfs backprop cfd conv2d gemm gramschmidt histo lud needle pvc srad_v2 ss stencil streamcluster conv3d pathfinder srad_v1 tpacf hotspot spmv gaussian cutcp lbm mri_q sad sgemm"}
for b in $BENCHES; do
  if ! "$W" list | awk '{print $1}' | grep -qx "$b"; then echo "make_classes: $b is not a benchmark of this build: skipped" >&2; continue; fi
  "$W" classify "$b" --size small --profile-size tiny --out "$D/$b.cls" 2>/dev/null
  "$W" classify "$b" --size small --profile-size tiny --no-groups --high 0.5 --low 0.5 --out "$D/$b.inst.cls" 2>/dev/null
done
