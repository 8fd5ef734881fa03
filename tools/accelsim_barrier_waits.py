#!/usr/bin/env python3
"""accelsim_barrier_waits.py - each warp's wait at its first barrier, from Accel-Sim's scheduler
trace: GPGPU-Sim's side of warpsim's warp-phase 1 (`wsexp.timeline_fig --spread 1`, doc/timeline.md).

Accel-Sim run with `-trace_enabled 1 -trace_components WARP_SCHEDULER` (and `-trace_sampling_core
N` for one core) prints, each cycle, the valid instruction of every warp its schedulers look at:
`GPGPU-Sim Cycle C: WARP_SCHEDULER - Core K - Scheduler S - Warp (warp_id W, dynamic_warp_id D) has
valid instruction (<no instruction at address 0xPC>)`. A warp arrives at its first barrier in the
last cycle its valid instruction is the barrier (PC --bar-pc) before it first shows the next one
(--bar-pc + 8, the trace's PC step); a warp waits from its arrival to its CTA's last. A core's CTAs
are its warps in dynamic-warp-id order (GPGPU-Sim numbers a core's warps as it launches them, a
CTA's together), --warps-per-cta at a time: position 0 is the core's first CTA (a paper's TB0).
The trace is large: filter it to the two PCs first (grep), as doc/accelsim.md shows.

    grep -E 'address 0x(258|260)>' TRACE | python3 tools/accelsim_barrier_waits.py --bar-pc 0x258 \\
        --warps-per-cta 16 --resident 3 [--from-cycle C] [--to-cycle C] [--csv FILE] [-]

Prints, for each launch position below --resident (the CTAs a core holds from the launch's start),
the first warp's wait and the longest wait over the cores (min, median, 90th percentile, max), then
the longest wait of the later CTAs; --csv writes one row per CTA. Stdlib only.
"""
import argparse
import re
import sys

LINE = re.compile(r"Cycle (\d+): WARP_SCHEDULER - Core (\d+) - .*\(warp_id (\d+), dynamic_warp_id (\d+)\) "
                  r"has valid instruction \(<no instruction at address 0x([0-9a-fA-F]+)>\)")
CSV_HEAD = "core,position,first_warp,first_warp_wait,longest_wait,last_warp,last_arrival"


def arrivals(lines, bar_pc, from_cycle=0, to_cycle=None):
    """{(core, dynamic warp id): (arrival cycle, warp slot)} of the warps first seen in
    [from_cycle, to_cycle], and the set of those warps (with or without an arrival)."""
    seen, arr, done = {}, {}, set()
    for line in lines:
        m = LINE.search(line)
        if not m:
            continue
        c, core, slot, dyn, pc = int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5], 16)
        if c < from_cycle or (to_cycle is not None and c > to_cycle):
            continue
        key = (core, dyn)
        seen.setdefault(key, slot)
        if key in done:
            continue
        if pc == bar_pc:
            arr[key] = (c, slot)
        elif pc == bar_pc + 8 and key in arr:
            done.add(key)
    return arr, seen


def cta_waits(arr, seen, warps_per_cta):
    """[(core, position, first warp slot, its wait, longest wait, last warp slot, last arrival)], one
    per CTA whose warps all arrived, by core and launch position."""
    by_core = {}
    for core, dyn in seen:
        by_core.setdefault(core, []).append(dyn)
    out = []
    for core in sorted(by_core):
        dyns = sorted(by_core[core])
        for pos in range(len(dyns) // warps_per_cta):
            cta = [(core, d) for d in dyns[pos * warps_per_cta:(pos + 1) * warps_per_cta]]
            if not all(k in arr for k in cta):
                continue
            last, last_slot = max(arr[k] for k in cta)
            waits = [last - arr[k][0] for k in cta]
            out.append((core, pos, arr[cta[0]][1], waits[0], max(waits), last_slot, last))
    return out


def dist(vals):
    """min, median, 90th percentile (nearest rank below) and max, as timeline_fig's spread."""
    v = sorted(vals)
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    return f"min {v[0]} median {int(med) if med == int(med) else med} p90 {v[int(0.9 * (n - 1))]} max {v[-1]}"


def summary(rows, resident):
    lines = []
    for pos in range(resident):
        sel = [r for r in rows if r[1] == pos]
        if sel:
            lines.append(f"CTA position {pos} ({len(sel)} cores): first warp's wait {dist([r[3] for r in sel])}; "
                         f"longest wait {dist([r[4] for r in sel])}")
    later = [r for r in rows if r[1] >= resident]
    if later:
        lines.append(f"CTAs launched later ({len(later)}): longest wait {dist([r[4] for r in later])}")
    return lines


def main(argv):
    ap = argparse.ArgumentParser(prog="accelsim_barrier_waits.py", description=__doc__.split("\n")[0])
    ap.add_argument("trace", nargs="?", default="-", help="the (filtered) scheduler trace; - or none: stdin")
    ap.add_argument("--bar-pc", required=True, help="the barrier's PC in the trace (hex, as kernel-N.traceg)")
    ap.add_argument("--warps-per-cta", type=int, required=True)
    ap.add_argument("--resident", type=int, required=True, help="CTAs a core holds from the launch's start")
    ap.add_argument("--from-cycle", type=int, default=0, help="only warps seen from this cycle (the launch's start)")
    ap.add_argument("--to-cycle", type=int)
    ap.add_argument("--csv", help="one row per CTA: " + CSV_HEAD)
    a = ap.parse_args(argv)
    try:
        bar_pc = int(a.bar_pc, 16)
    except ValueError:
        ap.error(f"--bar-pc {a.bar_pc}: not a hexadecimal PC")
    if a.warps_per_cta < 1 or a.resident < 1:
        ap.error("--warps-per-cta and --resident are at least 1")
    try:
        f = sys.stdin if a.trace == "-" else open(a.trace, errors="replace")
    except OSError as e:
        print(f"accelsim_barrier_waits: {a.trace}: {e.strerror}", file=sys.stderr)
        return 1
    with f:
        arr, seen = arrivals(f, bar_pc, a.from_cycle, a.to_cycle)
    rows = cta_waits(arr, seen, a.warps_per_cta)
    if not rows:
        print(f"accelsim_barrier_waits: no CTA whose {a.warps_per_cta} warps all reached the barrier at "
              f"{a.bar_pc} (the trace has {len(seen)} warps at it)", file=sys.stderr)
        return 1
    if a.csv:
        try:
            with open(a.csv, "w") as out:
                out.write(CSV_HEAD + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
        except OSError as e:
            print(f"accelsim_barrier_waits: {a.csv}: {e.strerror}", file=sys.stderr)
            return 1
    print("\n".join(summary(rows, a.resident)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
