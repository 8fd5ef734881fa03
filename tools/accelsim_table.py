#!/usr/bin/env python3
"""accelsim_table.py - the Markdown tables of doc/fidelity.md's Accel-Sim section from the CSV rows
that tools/accelsim_compare.py --csv appends: per preset and scheduler, each benchmark's cycles,
IPC and L1D and L2 miss rates in warpsim and in Accel-Sim, then the IPC correlation (Pearson) and the
geometric mean of the cycle ratio warpsim / Accel-Sim.

  tools/accelsim_table.py results.csv
"""
import csv
import math
import sys


def pearson(x, y):
    n = len(x)
    if n < 2:
        return float("nan")
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sx = math.sqrt(sum((a - mx) ** 2 for a in x))
    sy = math.sqrt(sum((b - my) ** 2 for b in y))
    return sxy / (sx * sy) if sx and sy else float("nan")


def rate(r, k):
    return "%.3f" % float(r[k]) if r.get(k) not in (None, "") else "-"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = list(csv.DictReader(open(sys.argv[1])))
    groups = {}
    for r in rows:  # the last row of a case wins (a rerun replaces it)
        groups.setdefault((r["config"], r["sched"]), {})[(r["bench"], r["size"])] = r
    for (cfg, sched), cases in sorted(groups.items()):
        print("\n#### %s, %s\n" % (cfg, sched))
        print("| benchmark | size | cycles warpsim / Accel-Sim (ratio) | IPC warpsim / Accel-Sim | L1D read miss rate warpsim / Accel-Sim | L1D miss rate, all accesses | L2 read miss rate |")
        print("|---|---|---:|---:|---:|---:|---:|")
        wi, ai, ratios = [], [], []
        for (bench, size), r in sorted(cases.items()):
            wc, ac = int(r["ws_cycles"]), int(r["as_cycles"])
            wp, apc = float(r["ws_ipc_warp"]), float(r["as_ipc_warp"])
            flag = "" if r["ws_warp_insts"] == r["as_warp_insts"] else " (instruction counts differ)"
            print("| %s | %s | %s / %s (%.2f)%s | %.2f / %.2f | %s / %s | %s / %s | %s / %s |" % (
                bench, size, format(wc, ","), format(ac, ","), wc / ac, flag, wp, apc,
                rate(r, "ws_l1d_read_miss_rate"), rate(r, "as_l1d_read_miss_rate"), rate(r, "ws_l1d_miss_rate"),
                rate(r, "as_l1d_miss_rate"), rate(r, "ws_l2_read_miss_rate"), rate(r, "as_l2_read_miss_rate")))
            wi.append(wp)
            ai.append(apc)
            ratios.append(wc / ac)
        gm = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        corr = "%.3f" % pearson(wi, ai) if len(wi) > 1 else "-"
        print("\n%d benchmarks: IPC correlation %s, geometric mean of the cycle ratio %.3f (range %.2f-%.2f)" % (
            len(ratios), corr, gm, min(ratios), max(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
