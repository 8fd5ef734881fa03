#!/usr/bin/env python3
"""fidelity_table.py ROOT [VARIANT ...] - what each fidelity mechanism moved, from
tools/fidelity_variants.sh's runs (ROOT/<variant>/<run>.json): the papers'
baseline comparisons per variant, then per-benchmark statistics of each
variant against `old` (or $BASE, e.g. BASE=pre2 for the dual-issue and
operand-collector variants).
Means over benchmarks are geometric."""
import json, math, os, sys

ROOT = sys.argv[1]
VARIANTS = sys.argv[2:] or ["old", "regs", "ccws", "l1", "icnt", "dram", "cluster", "all"]
HCS = ["kmeans", "bfs", "memcached", "gcmark"]  # CCWS highly cache-sensitive (streamcluster apart: it cannot launch in `old`)
CAWA = ["kmeans", "bfs", "streamcluster", "btree", "heartwall"]         # CAWA's apps in our set
BAWS = ["srad_v2", "fwt", "btree"]                                      # BAWS's barrier-heavy apps
IWARP = ["kmeans", "bfs", "atax"]


def load(v, name):
    p = os.path.join(ROOT, v, name + ".json")
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return json.load(f)["gpu"]


def ipc(g):
    return g["ipc_warp_insts_per_cycle"] if g else None


def gmean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def claims(v):
    out = {}
    r_lg, r_2l, r_sw, ok = [], [], [], 0
    for b in HCS:
        lrr, gto, tl = (ipc(load(v, f"ccws-{b}-{s}")) for s in ("lrr", "gto", "two-level"))
        swl = [ipc(load(v, f"ccws-{b}-swl{l}")) for l in (2, 4, 8, 16)] + [gto]
        if not (lrr and gto and tl):
            continue
        ok += 1
        r_lg.append(lrr / gto)
        r_2l.append(tl / lrr)
        r_sw.append(max(x for x in swl if x) / gto)
    out["ccws_apps"] = ok
    sc = [ipc(load(v, f"ccws-streamcluster-{s}")) for s in ("lrr", "gto", "two-level")]
    scw = [ipc(load(v, f"ccws-streamcluster-swl{l}")) for l in (2, 4, 8, 16)] + [sc[1]]
    out["sc"] = (1 - sc[0] / sc[1], sc[2] / sc[0] - 1, max(x for x in scw if x) / sc[1] - 1) if all(sc) else None
    out["ccws_lrr_slower"] = 1 - gmean(r_lg)
    out["ccws_2lvl_gain"] = gmean(r_2l) - 1
    out["ccws_bestswl_gain"] = gmean(r_sw) - 1
    out["cawa_gto_gain"] = gmean([ipc(load(v, f"gtx480-{b}-gto")) / ipc(load(v, f"gtx480-{b}-lrr"))
                                  for b in CAWA if load(v, f"gtx480-{b}-gto") and load(v, f"gtx480-{b}-lrr")]) - 1
    hw = load(v, "gtx480-heartwall-gto")
    out["heartwall_disparity"] = hw["warp_time_disparity"] if hw else float("nan")
    for s in ("lrr", "gto"):
        fr = []
        for b in BAWS:
            g = load(v, f"gtx480-{b}-{s}")
            if not g:
                continue
            st = g["sched_stall_cycles"]
            total = g["cycles"] * 2 * 15  # scheduler-cycles: 2 schedulers x 15 SMs
            fr.append((st["barrier"] + st["drain"]) / total)
        out[f"baws_barrier_exit_{s}"] = sum(fr) / len(fr) if fr else float("nan")
    rates = []
    for b in IWARP:
        a, f = load(v, f"gtx480-{b}-swl4"), load(v, f"gtx480-{b}-gto")
        if a and f:
            rates.append((b, a["l2_read_miss_rate"], f["l2_read_miss_rate"]))
    out["iwarp_l2_missrate_4_vs_all"] = rates
    return out


def pct(x):
    return "n/a" if x != x else f"{100 * x:+.1f}%"


SIZE = os.environ.get("SIZE", "tiny")
print(f"## The papers' baseline comparisons ({SIZE} inputs)\n")
print("| variant | CCWS (kmeans, bfs, memcached, gcmark): LRR slower than GTO | two-level over LRR | Best-SWL over GTO "
      "| streamcluster: the same three | CAWA apps: GTO over LRR | heartwall disparity (gto) | BAWS: barrier+exit share lrr / gto "
      "| iWarp: L2 miss rate, 4 warps / all (kmeans, bfs, atax) |")
print("|---|---:|---:|---:|---|---:|---:|---:|---|")
for v in VARIANTS:
    if not os.path.isdir(os.path.join(ROOT, v)):
        continue
    c = claims(v)
    iw = ", ".join(f"{a:.3f}/{b:.3f}" for _, a, b in c["iwarp_l2_missrate_4_vs_all"])
    scs = " / ".join(pct(x) for x in c["sc"]) if c["sc"] else "cannot launch"
    print(f"| {v} | {pct(c['ccws_lrr_slower'])} | {pct(c['ccws_2lvl_gain'])} | "
          f"{pct(c['ccws_bestswl_gain'])} | {scs} | {pct(c['cawa_gto_gain'])} | {c['heartwall_disparity']:.3f} | "
          f"{100 * c['baws_barrier_exit_lrr']:.1f}% / {100 * c['baws_barrier_exit_gto']:.1f}% | {iw} |")

STATS = [("IPC", lambda g: g["ipc_warp_insts_per_cycle"]),
         ("L1D MPKI", lambda g: g["l1d_read_mpki"]),
         ("L2 miss rate", lambda g: g["l2_read_miss_rate"]),
         ("load latency", lambda g: g["avg_load_latency_cycles"]),
         ("DRAM row hits", lambda g: g["memory"]["dram"]["row_hit_rate"])]
BASE = os.environ.get("BASE", "old")
names = sorted(n[:-5] for n in os.listdir(os.path.join(ROOT, BASE)) if n.endswith(".json"))
for v in VARIANTS:
    if v == BASE or not os.path.isdir(os.path.join(ROOT, v)):
        continue
    print(f"\n## `{v}` against `{BASE}`: runs whose statistics moved (IPC, L1D MPKI, L2 miss rate, load latency, "
          f"DRAM row-hit rate; {BASE} -> new)\n")
    print("| run | " + " | ".join(s for s, _ in STATS) + " |")
    print("|---|" + "---:|" * len(STATS))
    same, ipcs = 0, []
    for n in names:
        a, b = load(BASE, n), load(v, n)
        if b is None:  # not run in this variant
            continue
        if not a or not b:
            if a or b:
                print(f"| {n} | {'fails' if a else 'runs'} ({BASE}: {'runs' if a else 'fails'}) |" + " |" * (len(STATS) - 1))
            continue
        if all(abs(f(a) - f(b)) <= 1e-9 * max(abs(f(a)), 1) for _, f in STATS) and a["cycles"] == b["cycles"]:
            same += 1
            continue
        if ipc(a) and ipc(b):
            ipcs.append(ipc(b) / ipc(a))
        cells = []
        for _, f in STATS:
            x, y = f(a), f(b)
            cells.append(f"{x:.3g} -> {y:.3g}" if abs(x - y) > 1e-9 * max(abs(x), 1) else "=")
        print(f"| {n} | " + " | ".join(cells) + " |")
    if ipcs:
        print(f"\n{same} runs unchanged; IPC of the others (both ran): geomean x{gmean(ipcs):.3f}, "
              f"range x{min(ipcs):.3f} .. x{max(ipcs):.3f}")
    else:
        print(f"\n{same} runs unchanged; the others did not run in `{BASE}` (IPC 0: the kernel could not launch)")

# kernels whose allocated registers or occupancy changed (old -> all)
if BASE == "old" and os.path.isdir(os.path.join(ROOT, "all")):
    seen = {}
    for n in names:
        a, b = load("old", n), load("all", n)
        if not a or not b:
            continue
        for ka, kb in zip(a["kernels"], b["kernels"]):
            key = (n.split("-")[0], ka["name"])
            if key in seen:
                continue
            if ka["ctas_per_sm"] != kb["ctas_per_sm"]:
                seen[key] = (ka["regs_per_thread"], ka["ctas_per_sm"], ka["occupancy_limiter"], kb["regs_per_thread"],
                             kb["ctas_per_sm"], kb["occupancy_limiter"], kb.get("regs_source", ""), ka["threads_per_cta"])
    if seen:
        print("\n## Kernels whose occupancy changed (old -> all)\n")
        print("| preset | kernel | threads/CTA | regs old -> new (source) | CTAs/SM old -> new (limiter) |")
        print("|---|---|---:|---|---|")
        for (pre, k), (r0, c0, l0, r1, c1, l1, src, th) in sorted(seen.items()):
            print(f"| {pre} | {k} | {th} | {r0} -> {r1} ({src}) | {c0} ({l0}) -> {c1} ({l1}) |")
