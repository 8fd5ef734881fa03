#!/usr/bin/env python3
"""accelsim_compare.py - one benchmark on warpsim and on Accel-Sim (GPGPU-Sim 4.x's core) with the
same warp-instruction stream: warpsim runs it and writes its trace (--accelsim-trace), Accel-Sim
times that trace with the configuration in tools/accelsim/ that corresponds to the preset, and the
two sets of statistics are printed side by side (doc/accelsim.md). Needs only python3.

  ACCELSIM_DIR=<accel-sim-framework checkout, built> tools/accelsim_compare.py kmeans \
      --size tiny --config ccws-gt200 --sched gto [--csv results.csv] [--keep DIR]
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CFG = os.path.join(HERE, "accelsim")
# warpsim preset -> Accel-Sim override files applied after the GTX480 base and trace.config
PRESETS = {
    "gtx480": ["gtx480.config"],
    "cawa-gtx480": ["gtx480.config", "cawa-gtx480.config"],
    "ccws-gt200": ["ccws-gt200.config"],
}
# warpsim scheduler -> GPGPU-Sim -gpgpu_scheduler (two-level: warpsim's 8-warp fetch groups,
# LRR inside and between them; GPGPU-Sim's two_level_active keeps 8 warps active, LRR inside
# and strict round robin between the groups: the only outer order it implements; warpsim's
# sched.two-level.mode=active with active_warps=8 is that mechanism)
SCHEDS = {"lrr": "lrr", "gto": "gto", "two-level": "two_level_active:8:0:1"}


# warpsim's scheduler stall reasons that GPGPU-Sim counts as W0_Idle (warpsim_stats)
IDLE_REASONS = ("no_warp", "ibuffer", "barrier", "drain")


def die(msg):
    print("accelsim_compare: " + msg, file=sys.stderr)
    sys.exit(1)


def accelsim_paths(adir):
    sim = os.path.join(adir, "gpu-simulator")
    binary = os.path.join(sim, "bin", "release", "accel-sim.out")
    base = os.path.join(sim, "gpgpu-sim", "configs", "tested-cfgs", "SM2_GTX480")
    libroot = os.path.join(sim, "gpgpu-sim", "lib")
    lib = None
    if os.path.isdir(libroot):
        for d, _, files in sorted(os.walk(libroot)):
            if d.endswith("release") and any(f.startswith("libcudart") for f in files):
                lib = d
                break
    for p, what in ((binary, "the Accel-Sim binary (build it: doc/accelsim.md)"), (base, "GPGPU-Sim's SM2_GTX480 config")):
        if not os.path.exists(p):
            die("%s: missing (%s)" % (p, what))
    if not lib:
        die("%s: no release libcudart (build Accel-Sim first)" % libroot)
    return binary, base, lib


def run_warpsim(args, work):
    trace = os.path.join(work, "trace")
    js = os.path.join(work, "warpsim.json")
    cmd = [args.warpsim, "run", args.bench, "--size", args.size, "--config", args.config, "--sched", args.sched,
           "--json", js, "--accelsim-trace", trace]
    for s in args.set or []:
        cmd += ["--set", s]
    t0 = time.time()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        die("warpsim failed (%s): %s" % (" ".join(cmd), r.stderr.strip()[-2000:]))
    with open(js) as f:
        return json.load(f), trace, time.time() - t0


def run_accelsim(args, work, trace):
    binary, base, lib = accelsim_paths(args.accelsim_dir)
    lib = os.environ.get("ACCELSIM_LIB") or lib  # a separately linked libcudart (doc/accelsim.md)
    cfgdir = os.path.join(work, "cfg")
    os.makedirs(cfgdir, exist_ok=True)
    # the tested config names a power-model file this trace-mode build does not take: drop it
    with open(os.path.join(base, "gpgpusim.config")) as f:
        text = "".join(l for l in f if "gpuwattch_xml_file" not in l and not l.startswith("-power_simulation_enabled"))
    with open(os.path.join(cfgdir, "gpgpusim.config"), "w") as f:
        f.write(text)
    shutil.copy(os.path.join(base, "config_fermi_islip.icnt"), cfgdir)
    for name in os.listdir(CFG):
        shutil.copy(os.path.join(CFG, name), cfgdir)
    with open(os.path.join(cfgdir, "sched.config"), "w") as f:
        f.write("-gpgpu_scheduler %s\n" % SCHEDS[args.sched])
    confs = ["gpgpusim.config", "trace.config"] + PRESETS[args.config] + ["sched.config"]
    if args.accelsim_option:  # a variant: Accel-Sim options that override everything above
        with open(os.path.join(cfgdir, "variant.config"), "w") as f:
            f.write("".join(o + "\n" for o in args.accelsim_option))
        confs.append("variant.config")
    cmd = [binary, "-trace", os.path.join(trace, "kernelslist.g")]
    for c in confs:
        cmd += ["-config", c]
    out = os.path.join(work, "accelsim.out")
    env = dict(os.environ, LD_LIBRARY_PATH=lib + ":" + os.environ.get("LD_LIBRARY_PATH", ""))
    t0 = time.time()
    with open(out, "w") as f:
        r = subprocess.run(cmd, cwd=cfgdir, stdout=f, stderr=subprocess.STDOUT, env=env)
    dt = time.time() - t0
    with open(out, errors="replace") as f:
        text = f.read()
    if r.returncode != 0 or "gpu_tot_sim_cycle" not in text:
        die("Accel-Sim failed (exit %d), output in %s:\n%s" % (r.returncode, out, text[-1500:]))
    return text, dt


def last(text, key, conv=float):
    m = re.findall(r"^\s*%s\s*=\s*([-0-9.eE+naif]+)" % re.escape(key), text, re.M)
    return conv(m[-1]) if m else None


def accelsim_stats(text):
    s = {
        "cycles": last(text, "gpu_tot_sim_cycle", int),
        "warp_insts": last(text, "gpgpu_n_tot_w_icount", int),
        "ipc_thread": last(text, "gpu_tot_ipc"),
        "l1d_miss_rate": last(text, "L1D_total_cache_miss_rate"),
        "l2_miss_rate": last(text, "L2_total_cache_miss_rate"),
        "l1d_resfails": last(text, "L1D_total_cache_reservation_fails", int),
    }
    # reservation failures by reason of the core caches (L1D, L1I, constant), the last report:
    # "Total_core_cache_fail_stats_breakdown[GLOBAL_ACC_R][MSHR_ENRTY_FAIL] = N"
    fails = {}
    block = text[text.rfind("Total_core_cache_fail_stats:"):] if "Total_core_cache_fail_stats:" in text else ""
    for line in block.splitlines()[1:]:
        m = re.match(r"\s*Total_core_cache_fail_stats_breakdown\[(\w+)\]\[(\w+)\]\s*=\s*(\d+)", line)
        if not m:
            break
        fails[m.group(2)] = fails.get(m.group(2), 0) + int(m.group(3))
    s["l1d_resfail_by"] = fails
    # issue stalls: GPGPU-Sim's warp-occupancy line "Stall:N W0_Idle:N W0_Scoreboard:N W1:..."
    m = re.findall(r"Stall:(\d+)\s+W0_Idle:(\d+)\s+W0_Scoreboard:(\d+)", text)
    if m:
        st, idle, sb = map(int, m[-1])
        s["stall_other"], s["stall_idle"], s["stall_scoreboard"] = st, idle, sb
    # with tools/accelsim_barrier_idle.patch: scheduler-cycles idle because every unfinished warp
    # waits at a barrier, and warp-cycles at barriers (the last report's line)
    m = re.findall(r"^barrier_idle_stats: (.*)$", text, re.M)
    if m:
        f = m[-1].split()
        b = {f[i]: int(f[i + 1]) for i in range(0, len(f) - 1, 2)}
        s["stall_barrier"] = b["idle_allbar"] + b["idle_allbar_drain"]
        s["barrier_wait_cycles"] = b["bar_wc"]
    for k in ("gpgpu_n_stall_shd_mem", "gpu_stall_dramfull", "gpu_stall_icnt2sh"):
        s[k] = last(text, k, int)
    # L1D read miss rate as warpsim counts it (MSHR merges are misses): global and local reads
    # of the last report that were not hits, over those accepted (reservation failures retry)
    br = {}
    for m in re.finditer(r"Total_core_cache_stats_breakdown\[(GLOBAL_ACC_R|LOCAL_ACC_R)\]\[(\w+)\]\s*=\s*(\d+)", text):
        br[(m.group(1), m.group(2))] = int(m.group(3))
    # the L2's read miss rate the same way (writes: allocation policies differ by configuration)
    l2r = {}
    for m in re.finditer(r"L2_cache_stats_breakdown\[GLOBAL_ACC_R\]\[(\w+)\]\s*=\s*(\d+)", text):
        l2r[m.group(1)] = int(m.group(2))
    s["l2_read_miss_rate"] = ((l2r["TOTAL_ACCESS"] - l2r.get("HIT", 0)) / l2r["TOTAL_ACCESS"]
                              if l2r.get("TOTAL_ACCESS") else None)
    tot = sum(v for (t, k), v in br.items() if k == "TOTAL_ACCESS")
    hits = sum(v for (t, k), v in br.items() if k == "HIT")
    s["l1d_read_miss_rate"] = (tot - hits) / tot if tot else None
    m = re.findall(r"^\s*L1D_total_cache_accesses\s*=\s*(\d+)", text, re.M)
    s["l1d_accesses"] = int(m[-1]) if m else None
    if s["cycles"] and s["warp_insts"] is not None:
        s["ipc_warp"] = s["warp_insts"] / s["cycles"]
    return s


def warpsim_stats(j):
    g = j["gpu"]
    l1 = g["memory"]["l1d"]
    l2 = g["memory"]["l2"]
    acc1 = l1["reads"] + l1["writes"]
    acc2 = l2["reads"] + l2["writes"]
    st = g["sched_stall_cycles"]
    return {
        "cycles": g["cycles"],
        "warp_insts": g["warp_insts"],
        "ipc_warp": g["ipc_warp_insts_per_cycle"],
        "ipc_thread": g["ipc_thread_insts_per_cycle"],
        # reads the L1D looked up (bypassed ones, e.g. atomics and .cg loads, go around it in both)
        # that missed, MSHR merges included
        "l1d_read_miss_rate": ((l1["read_misses"] + l1["read_merges"]) / (l1["reads"] - l1["bypasses"])
                               if l1["reads"] > l1["bypasses"] else 0.0),
        # all accesses (reads and writes; an MSHR merge is a miss here, not in Accel-Sim's
        # L1D_total_cache_miss_rate)
        "l1d_miss_rate": (acc1 - l1["hits"]) / acc1 if acc1 else 0.0,
        "l2_miss_rate": (acc2 - l2["hits"]) / acc2 if acc2 else 0.0,
        "l2_read_miss_rate": g["l2_read_miss_rate"],
        "l1d_resfails": sum(l1["resfail"].values()),
        "l1d_resfail_by": l1["resfail"],
        # GPGPU-Sim's three classes (scheduler_unit::cycle, one per scheduler-cycle without an issue):
        # W0_Idle = no warp had a valid instruction (I-buffer empty, or the warp waits: barrier,
        # membar, atomics, finished); W0_Scoreboard = valid ones all failed the scoreboard; Stall =
        # one passed it but found its pipeline register taken. warpsim's reasons in the same order.
        "stall_idle": sum(st[k] for k in IDLE_REASONS),
        "stall_scoreboard": st["scoreboard"],
        "stall_other": sum(v for k, v in st.items() if k not in IDLE_REASONS + ("scoreboard",)),
        "stall_by": st,
        "stall_barrier": st["barrier"],
        "barrier_wait_cycles": g["barrier_wait_cycles"],
        "l1d_accesses": acc1,
    }


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return "%.4f" % v if abs(v) < 100 else "%.1f" % v
    return str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench")
    ap.add_argument("--size", default="tiny")
    ap.add_argument("--config", default="gtx480", choices=sorted(PRESETS))
    ap.add_argument("--sched", default="gto", choices=sorted(SCHEDS))
    ap.add_argument("--set", action="append", help="a warpsim --set KEY=VALUE (Accel-Sim does not follow it)")
    ap.add_argument("--accelsim-option", action="append", metavar="'-OPTION VALUE'",
                    help="an Accel-Sim option after the preset's (a variant: warpsim does not see it)")
    ap.add_argument("--warpsim", default=os.path.join(ROOT, "build", "rel", "warpsim"))
    ap.add_argument("--accelsim-dir", default=os.environ.get("ACCELSIM_DIR"))
    ap.add_argument("--keep", help="keep the trace, configs and outputs in this folder")
    ap.add_argument("--csv", help="append one row of both simulators' numbers to this CSV file")
    ap.add_argument("--from-kept", action="store_true", help="run nothing: read the outputs a --keep folder holds")
    args = ap.parse_args()
    if not args.accelsim_dir and not args.from_kept:
        die("set ACCELSIM_DIR (or --accelsim-dir) to a built accel-sim-framework checkout (doc/accelsim.md)")
    if not os.access(args.warpsim, os.X_OK):
        die("%s: no warpsim binary (make)" % args.warpsim)
    work = args.keep or tempfile.mkdtemp(prefix="accelsim_cmp.")
    os.makedirs(work, exist_ok=True)
    if args.from_kept:
        if not args.keep:
            die("--from-kept needs --keep DIR")
        with open(os.path.join(work, "warpsim.json")) as f:
            j = json.load(f)
        with open(os.path.join(work, "accelsim.out"), errors="replace") as f:
            text = f.read()
        wt = at = 0.0
    else:
        try:
            j, trace, wt = run_warpsim(args, work)
            text, at = run_accelsim(args, work, trace)
        finally:
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
    w, a = warpsim_stats(j), accelsim_stats(text)
    print("%s %s %s %s: warpsim %.1f s, Accel-Sim %.1f s (wall, including the trace)" % (args.bench, args.size, args.config, args.sched, wt, at))
    rows = [("cycles", "cycles"), ("warp instructions", "warp_insts"), ("IPC (warp insts/cycle)", "ipc_warp"),
            ("IPC (thread insts/cycle)", "ipc_thread"), ("L1D accesses", "l1d_accesses"),
            ("L1D read miss rate", "l1d_read_miss_rate"), ("L1D miss rate (all accesses)", "l1d_miss_rate"),
            ("L2 read miss rate", "l2_read_miss_rate"),
            ("L2 miss rate (all accesses)", "l2_miss_rate"),
            ("L1D reservation failures", "l1d_resfails"), ("issue: idle (W0_Idle)", "stall_idle"),
            ("issue: scoreboard", "stall_scoreboard"), ("issue: unit stalls (Stall)", "stall_other"),
            ("issue: idle at a barrier", "stall_barrier"), ("warp-cycles at barriers", "barrier_wait_cycles")]
    print("%-30s %14s %14s %8s" % ("", "warpsim", "Accel-Sim", "ratio"))
    for label, k in rows:
        wv, av = w.get(k), a.get(k)
        ratio = "%.3f" % (wv / av) if isinstance(wv, (int, float)) and isinstance(av, (int, float)) and av else "-"
        print("%-30s %14s %14s %8s" % (label, fmt(wv), fmt(av), ratio))
    print("warpsim reservation failures by reason %s" % w["l1d_resfail_by"])
    print("warpsim issue stalls (scheduler-cycles) %s" % w["stall_by"])
    print("Accel-Sim reservation failures by reason %s; shader memory stalls %s, DRAM-full %s, icnt-to-SM %s" % (
        a["l1d_resfail_by"] or "-", fmt(a["gpgpu_n_stall_shd_mem"]), fmt(a["gpu_stall_dramfull"]), fmt(a["gpu_stall_icnt2sh"])))
    if w["warp_insts"] != a["warp_insts"]:
        print("WARNING: the warp-instruction counts differ: the trace did not reach Accel-Sim whole", file=sys.stderr)
    if args.csv:
        keys = ["cycles", "warp_insts", "ipc_warp", "ipc_thread", "l1d_read_miss_rate", "l1d_miss_rate", "l2_read_miss_rate",
                "l2_miss_rate", "l1d_resfails"]
        new = not os.path.exists(args.csv)
        with open(args.csv, "a", newline="") as f:
            wr = csv.writer(f)
            if new:
                wr.writerow(["bench", "size", "config", "sched"] + ["ws_" + k for k in keys] + ["as_" + k for k in keys] +
                            ["ws_seconds", "as_seconds"])
            wr.writerow([args.bench, args.size, args.config, args.sched] + [w.get(k) for k in keys] + [a.get(k) for k in keys] +
                        [round(wt, 2), round(at, 2)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
