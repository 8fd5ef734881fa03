#!/usr/bin/env python3
"""accelsim_table.py - the Markdown tables of doc/fidelity.md's Accel-Sim section from the CSV rows
that tools/accelsim_compare.py --csv appends (one or more files; the last row of a case wins).

  tools/accelsim_table.py [--summary] F.csv ...     per preset and scheduler: each benchmark's
      cycles, IPC and L1D and L2 miss rates in warpsim and in Accel-Sim, the IPC correlation
      (Pearson), the geometric mean of the cycle ratio warpsim / Accel-Sim and the benchmarks
      outside the targets; --summary prints only the one-line-per-table Summary.
  tools/accelsim_table.py --pair CONFIG [--bench B,B,...] F.csv ...   GTO and LRR side by side on
      one preset: cycles, L1D read miss rates and LRR/GTO IPC in both simulators.
  tools/accelsim_table.py --update doc/fidelity.md   regenerates, in place, every block between
      "<!-- accelsim_table ARGS -->" and "<!-- end accelsim_table -->" with the output of these
      ARGS (CSV paths relative to the document's folder).
  tools/accelsim_table.py --drivers N F.csv ...   per preset and scheduler, the rows that hold the
      IPC correlation down: the correlation without each benchmark in turn (leave one out), the N
      that raise it most, and the correlation without those N together.
  tools/accelsim_table.py --variant NAME=F.csv [--variant ...] F.csv ...   the benchmarks of the
      variants' rows (runs with a setting changed on one side or both) beside the same preset and
      scheduler's rows of F.csv: cycles warpsim / Accel-Sim (ratio) and L1D read miss rates.
  A CSV path may be a glob pattern (data/accelsim-gtx480-*.csv).
"""
import argparse
import contextlib
import csv
import glob
import io
import math
import os
import re
import shlex
import sys

BLOCK = re.compile(r"(<!-- accelsim_table (.*?) -->\n)(.*?)(<!-- end accelsim_table -->)", re.S)

IPC_TARGET = 0.15  # |IPC warpsim / Accel-Sim - 1|
MISS_TARGET = 0.05  # |L1D read miss rate difference|, absolute


def pearson(x, y):
    n = len(x)
    if n < 2:
        return float("nan")
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sx = math.sqrt(sum((a - mx) ** 2 for a in x))
    sy = math.sqrt(sum((b - my) ** 2 for b in y))
    return sxy / (sx * sy) if sx and sy else float("nan")


def num(r, k):
    return float(r[k]) if r.get(k) not in (None, "") else None


def f3(v):
    return "-" if math.isnan(v) else "%.3f" % v


def rate(r, k):
    v = num(r, k)
    return "-" if v is None else "%.3f" % v


def load(patterns):
    paths = []
    for pat in patterns:
        found = sorted(glob.glob(pat)) if glob.has_magic(pat) else [pat]
        if not found:
            raise ValueError("%s: no file matches" % pat)
        paths += found
    groups = {}
    for p in paths:
        with open(p) as f:
            rd = csv.DictReader(f)
            for r in rd:  # the last row of a case wins (a rerun replaces it)
                try:
                    if not all(r.get(k) for k in ("bench", "size", "config", "sched")):
                        raise ValueError("no benchmark, size, preset or scheduler")
                    for k in ("ws_cycles", "as_cycles", "ws_ipc_warp", "as_ipc_warp"):
                        if not float(r.get(k) or "nan") > 0:
                            raise ValueError("%s is not a positive number" % k)
                except ValueError as e:
                    raise ValueError("%s:%d: %s" % (p, rd.line_num, e))
                r["_file"] = p
                groups.setdefault((r["config"], r["sched"]), {})[(r["bench"], r["size"])] = r
    return groups


def judge(cases):
    """Per group: the aggregates and each benchmark outside a target."""
    wi, ai, ratios, diffs, outside = [], [], [], [], []
    ipc_ok = 0
    for (bench, size), r in sorted(cases.items()):
        wc, ac = int(r["ws_cycles"]), int(r["as_cycles"])
        wp, apc = float(r["ws_ipc_warp"]), float(r["as_ipc_warp"])
        wi.append(wp)
        ai.append(apc)
        ratios.append(wc / ac)
        why = []
        if abs(wp / apc - 1) <= IPC_TARGET:
            ipc_ok += 1
        else:
            why.append("IPC %+.0f%%" % (100 * (wp / apc - 1)))
        wm, am = num(r, "ws_l1d_read_miss_rate"), num(r, "as_l1d_read_miss_rate")
        if wm is not None and am is not None:
            diffs.append(abs(wm - am))
            if abs(wm - am) > MISS_TARGET:
                why.append("L1D read miss %.3f / %.3f" % (wm, am))
        if why:
            outside.append("%s (%s)" % (bench, ", ".join(why)))
    return {
        "n": len(ratios), "corr": pearson(wi, ai) if len(wi) > 1 else float("nan"),
        "gm": math.exp(sum(math.log(x) for x in ratios) / len(ratios)),
        "lo": min(ratios), "hi": max(ratios), "miss_ok": sum(d <= MISS_TARGET for d in diffs),
        "miss_n": len(diffs), "miss_mean": sum(diffs) / len(diffs) if diffs else float("nan"),
        "ipc_ok": ipc_ok, "outside": outside,
    }


def summary(groups):
    print("| preset, scheduler (benchmarks) | IPC correlation | geomean cycle ratio | L1D read miss rate "
          "within 0.05 | mean abs. read miss difference | IPC within 15% | rows |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for (cfg, sched), cases in sorted(groups.items()):
        j = judge(cases)
        files = ", ".join(sorted({r["_file"] for r in cases.values()}))
        print("| %s, %s (%d) | %s | %.3f | %d of %d | %s | %d | %s |" % (
            cfg, sched, j["n"], f3(j["corr"]), j["gm"], j["miss_ok"], j["miss_n"], f3(j["miss_mean"]),
            j["ipc_ok"], files))


def tables(groups):
    for (cfg, sched), cases in sorted(groups.items()):
        print("\n#### %s, %s\n" % (cfg, sched))
        print("| benchmark | cycles warpsim / Accel-Sim (ratio) | IPC warpsim / Accel-Sim | L1D read miss "
              "rate warpsim / Accel-Sim | L1D miss rate, all accesses | L2 read miss rate |")
        print("|---|---:|---:|---:|---:|---:|")
        for (bench, size), r in sorted(cases.items()):
            wc, ac = int(r["ws_cycles"]), int(r["as_cycles"])
            flag = "" if r["ws_warp_insts"] == r["as_warp_insts"] else " (instruction counts differ)"
            print("| %s | %s / %s (%.2f)%s | %.2f / %.2f | %s / %s | %s / %s | %s / %s |" % (
                bench if size == "tiny" else "%s (%s)" % (bench, size), format(wc, ","), format(ac, ","),
                wc / ac, flag, float(r["ws_ipc_warp"]), float(r["as_ipc_warp"]),
                rate(r, "ws_l1d_read_miss_rate"), rate(r, "as_l1d_read_miss_rate"),
                rate(r, "ws_l1d_miss_rate"), rate(r, "as_l1d_miss_rate"),
                rate(r, "ws_l2_read_miss_rate"), rate(r, "as_l2_read_miss_rate")))
        j = judge(cases)
        print("\n%d benchmarks: IPC correlation %s, geometric mean of the cycle ratio %.3f "
              "(range %.2f-%.2f); outside the targets (%d): %s" % (
                  j["n"], f3(j["corr"]), j["gm"], j["lo"], j["hi"], len(j["outside"]),
                  "; ".join(j["outside"]) or "none"))


def pair(groups, cfg, benches):
    gto, lrr = groups.get((cfg, "gto"), {}), groups.get((cfg, "lrr"), {})
    keys = sorted(k for k in gto if k in lrr and (not benches or k[0] in benches))
    print("| benchmark | cycles GTO, warpsim / Accel-Sim | cycles LRR, warpsim / Accel-Sim | L1D read miss "
          "rate GTO | L1D read miss rate LRR | LRR/GTO IPC, warpsim / Accel-Sim |")
    print("|---|---:|---:|---:|---:|---:|")
    for k in keys:
        g, l = gto[k], lrr[k]
        print("| %s | %s / %s | %s / %s | %s / %s | %s / %s | %.2f / %.2f |" % (
            k[0], format(int(g["ws_cycles"]), ","), format(int(g["as_cycles"]), ","),
            format(int(l["ws_cycles"]), ","), format(int(l["as_cycles"]), ","),
            rate(g, "ws_l1d_read_miss_rate"), rate(g, "as_l1d_read_miss_rate"),
            rate(l, "ws_l1d_read_miss_rate"), rate(l, "as_l1d_read_miss_rate"),
            float(l["ws_ipc_warp"]) / float(g["ws_ipc_warp"]),
            float(l["as_ipc_warp"]) / float(g["as_ipc_warp"])))


def drivers(groups, n):
    print("| preset, scheduler (benchmarks) | IPC correlation | without one benchmark (the %d that raise it "
          "most) | without those %d |" % (n, n))
    print("|---|---:|---|---:|")
    for (cfg, sched), cases in sorted(groups.items()):
        rows = sorted(cases.items())
        ipc = [(b, float(r["ws_ipc_warp"]), float(r["as_ipc_warp"])) for (b, _), r in rows]

        def corr(drop):
            kept = [(w, a) for b, w, a in ipc if b not in drop]
            return pearson([w for w, _ in kept], [a for _, a in kept])
        # highest first; a NaN (fewer than two rows left) sorts last
        loo = sorted(((corr({b}), b) for b, _, _ in ipc), key=lambda t: (math.isnan(t[0]), -t[0], t[1]))[:n]
        print("| %s, %s (%d) | %s | %s | %s |" % (
            cfg, sched, len(ipc), f3(corr(set())), ", ".join("%s %s" % (b, f3(c)) for c, b in loo),
            f3(corr({b for _, b in loo}))))


def parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="*")
    ap.add_argument("--summary", action="store_true", help="only the Summary rows")
    ap.add_argument("--pair", metavar="CONFIG", help="GTO and LRR side by side on this preset")
    ap.add_argument("--bench", help="with --pair: these benchmarks only (comma-separated)")
    ap.add_argument("--drivers", type=int, metavar="N",
                    help="leave-one-out IPC correlations: the N rows that raise it most")
    ap.add_argument("--variant", action="append", metavar="NAME=FILE",
                    help="a variant's rows beside the CSV's (repeatable)")
    ap.add_argument("--update", metavar="DOC", help="regenerate the marked blocks of this Markdown file")
    return ap


def render(a):
    if not a.csv:
        raise ValueError("no CSV file given")
    groups = load(a.csv)
    if not groups:
        raise ValueError("no rows in %s" % ", ".join(a.csv))
    if a.drivers is not None:
        if a.drivers < 1:
            raise ValueError("--drivers %d: needs at least 1" % a.drivers)
        drivers(groups, a.drivers)
    elif a.variant:
        variants(groups, a.variant)
    elif a.pair:
        pair(groups, a.pair, set(a.bench.split(",")) if a.bench else None)
    elif a.summary:
        summary(groups)
    else:
        tables(groups)


def update(doc):
    """Each marked block's output, its CSV paths relative to the document's folder; the file is
    written whole (a temporary beside it, renamed) only when every block rendered."""
    with open(doc) as f:
        text = f.read()
    here = os.getcwd()
    os.chdir(os.path.dirname(os.path.abspath(doc)))
    try:
        def one(m):
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out):
                    render(parser().parse_args(shlex.split(m.group(2))))
            except (OSError, ValueError, KeyError) as e:
                raise ValueError("%s: block '%s': %s" % (doc, m.group(2), e))
            return m.group(1) + out.getvalue().strip("\n") + "\n" + m.group(4)
        new, n = BLOCK.subn(one, text)
    finally:
        os.chdir(here)
    if not n:
        raise ValueError("%s: no <!-- accelsim_table ARGS --> block" % doc)
    doc = os.path.join(here, doc)
    tmp = doc + ".tmp"
    with open(tmp, "w") as f:
        f.write(new)
    os.replace(tmp, doc)
    print("accelsim_table: %s: %d blocks regenerated" % (doc, n))


def variants(groups, specs):
    vs = []
    for spec in specs:
        name, _, pat = spec.partition("=")
        if not pat:
            raise ValueError("--variant %s: not NAME=FILE" % spec)
        vs.append((name, load([pat])))
    head = "| benchmark, preset, scheduler | as measured |" + "".join(" %s |" % n for n, _ in vs)
    print(head + "\n|---|" + "---:|" * (len(vs) + 1))

    def cell(r):
        if r is None:
            return "-"
        wc, ac = int(r["ws_cycles"]), int(r["as_cycles"])
        return "%s / %s (%.2f), %s / %s" % (format(wc, ","), format(ac, ","), wc / ac,
                                           rate(r, "ws_l1d_read_miss_rate"), rate(r, "as_l1d_read_miss_rate"))
    keys = sorted({(g, k) for _, vg in vs for g, cases in vg.items() for k in cases})
    for (cfg, sched), (bench, size) in keys:
        base = groups.get((cfg, sched), {}).get((bench, size))
        print("| %s, %s, %s | %s |" % (bench, cfg, sched, cell(base)) +
              "".join(" %s |" % cell(vg.get((cfg, sched), {}).get((bench, size))) for _, vg in vs))


def main():
    a = parser().parse_args()
    try:
        if a.update:
            update(a.update)
        else:
            render(a)
    except (OSError, ValueError, KeyError) as e:
        print("accelsim_table: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
