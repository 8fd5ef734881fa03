#!/usr/bin/env bash
# Appends ptxas's per-kernel register counts to PTX files as comment lines
# "//@warpsim regs <kernel> <n>" (read by the parser for occupancy; without
# them warpsim estimates registers by liveness analysis). Needs ptxas (CUDA).
# Usage: tools/annotate_regs.sh file.ptx...
set -eu
PTXAS=${PTXAS:-$(dirname "${NVCC:-/usr/local/cuda/bin/nvcc}")/ptxas}
for f in "$@"; do
  sed -i '/^\/\/@warpsim regs /d' "$f"
  "$PTXAS" -v -arch=sm_75 "$f" -o /dev/null 2>&1 | grep -E "Compiling entry|Used [0-9]+ registers" | paste - - |
    sed -E "s/.*entry function '([^']*)'.*Used ([0-9]+) registers.*/\/\/@warpsim regs \1 \2/" >> "$f"
done
