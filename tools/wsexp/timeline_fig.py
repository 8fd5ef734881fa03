"""timeline_fig.py - static timeline figures (PNG and SVG) from a warpsim timeline (doc/timeline.md):
one SM, one kernel, its first N CTAs: one row per warp, grouped by CTA, coloured by state, with a
tick at each barrier release; BAWS's warp-phase charts (Figures 3, 4, 6) are this picture. It also
writes BASE.csv and prints each of those CTAs' warp-phases: length, warps, RTRU (Figure 5's measure,
as the barrier statistics compute it) and the longest single warp's wait (Figure 4's).
`--style warps` draws instead one bar per warp of those CTAs, sorted by its execution time (launch
to exit), its memory-wait cycles a part of the bar, and writes BASE.csv: CAWA's Figures 2a (warp
execution-time disparity within a thread block) and 2c (the part of each warp's time spent waiting
on the memory system).
Drawn through plot.py (spans and stacked bars: the SVG always, by hand; the PNG through `--plot`'s tool).

    PYTHONPATH=tools python3 -m wsexp.timeline_fig TRACE[.json|.json.gz] -o BASE [--sm N] [--kernel K]
        [--ctas N] [--cycles A:B] [--title T] [--style states|warps] [--plot auto|matplotlib|gnuplot|none]
    PYTHONPATH=tools python3 -m wsexp.timeline_fig TRACE -o BASE [--kernel K] --spread PHASE

`--spread PHASE` draws nothing: it writes BASE.csv with warp-phase PHASE of every CTA of the kernel
on every recorded SM and prints its spread over the SMs (per launch position of the first wave, and
the CTAs launched later): whether one CTA's wait, as a paper shows it, is typical of the run.

Also used by `warpsim reproduce` (`timeline ID bench=... sched=...` lines in a paper's
figures.txt: run_specs + report_section) and by `warpsim report` (report_runs: each run of a sweep
that set timeline.file). Stdlib only.
"""
import csv
import gzip
import json
import os
import subprocess
import sys

from . import plot

# state -> colour (tools/timeline_viewer.html uses the same)
COLOURS = {
    "issue": "#2ca02c", "ready": "#98df8a", "throttled": "#9467bd", "fetch": "#17becf",
    "scoreboard": "#ff7f0e", "memory": "#d62728", "unit": "#e7ba52", "barrier": "#1f77b4",
    "drain": "#8c564b", "finished": "#c7c7c7",
}
CTA_TID = 100000


class TimelineError(Exception):
    pass


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt") as f:
            d = json.load(f)
    except (OSError, ValueError, EOFError) as e:
        raise TimelineError(f"{path}: not a timeline ({e})")
    ev = d.get("traceEvents") if isinstance(d, dict) else d
    if not isinstance(ev, list):
        raise TimelineError(f"{path}: no traceEvents")
    return ev


def kernel_window(ev, kernel):
    """(start, end) of launch `kernel` (its index among the trace's kernel slices); a trace without
    kernel slices is one window."""
    kern = sorted((e for e in ev if e.get("ph") == "X" and e.get("pid") == 0), key=lambda e: e["ts"])
    if not kern:
        return 0, float("inf")
    if not 0 <= kernel < len(kern):
        raise TimelineError(f"kernel {kernel}: the timeline has {len(kern)} kernel(s)")
    return kern[kernel]["ts"], kern[kernel]["ts"] + kern[kernel]["dur"]


def select(ev, sm=None, kernel=0, nctas=2, cycles=None):
    """The rows of one SM/CTA window: (t0, t1, rows, releases, ctas) with rows [(label, cta, [(a, b, state)])]
    in CTA then warp order, releases [(cta, ts)] and ctas the window's CTA slices (trace events).
    sm None: the lowest-numbered SM that ran a CTA of the kernel in the window."""
    k0, k1 = kernel_window(ev, kernel)
    if cycles:
        k0, k1 = max(k0, cycles[0]), min(k1, cycles[1])
    if sm is None:
        sms = [e["pid"] - 1 for e in ev if e.get("ph") == "X" and e.get("pid") and e.get("tid", 0) >= CTA_TID
               and e["name"].startswith("CTA ") and k0 <= e["ts"] < k1]
        sm = min(sms) if sms else 0
    pid = sm + 1
    ctas = sorted((e for e in ev if e.get("ph") == "X" and e.get("pid") == pid and e.get("tid", 0) >= CTA_TID
                   and e["name"].startswith("CTA ") and k0 <= e["ts"] < k1), key=lambda e: (e["ts"], e["tid"]))[:nctas]
    if not ctas:
        raise TimelineError(f"no CTA of kernel {kernel} on SM {sm} in the timeline (recorded SMs: "
                            f"{sorted({e['pid'] - 1 for e in ev if e.get('pid')})})")
    names = {int(c["name"].split()[-1]): c for c in ctas}
    t0 = min(c["ts"] for c in ctas)
    t1 = max(c["ts"] + c["dur"] for c in ctas)
    if cycles:
        t1 = min(t1, cycles[1])
    slots = {}
    for e in ev:
        if e.get("pid") != pid or e.get("ph") not in ("X", "i") or e.get("tid", CTA_TID) >= CTA_TID:
            continue
        slots.setdefault(e["tid"], []).append(e)
    rows = []
    for tid, es in slots.items():
        es.sort(key=lambda e: (e["ts"], 0 if e["ph"] == "i" else 1))
        launches = [e for e in es if e["ph"] == "i" and e["name"] == "warp launch" and e["args"]["cta"] in names
                    and e["ts"] == names[e["args"]["cta"]]["ts"]]  # ids repeat in each kernel
        for ln in launches:
            cta = ln["args"]["cta"]
            end = names[cta]["ts"] + names[cta]["dur"]
            iv = [(max(e["ts"], t0), min(e["ts"] + e["dur"], t1), e["name"]) for e in es
                  if e["ph"] == "X" and ln["ts"] <= e["ts"] < end and e["ts"] + e["dur"] > t0 and e["ts"] < t1]
            rows.append((f"CTA {cta} w{ln['args']['warp']}", cta, ln["args"]["warp"], iv))
    rows.sort(key=lambda r: (r[1], r[2]))
    rel = [(int(c["name"].split()[-1]), e["ts"]) for c in ctas for e in ev
           if e.get("ph") == "i" and e.get("name") == "barrier release" and e.get("pid") == pid
           and e.get("tid") == c["tid"] and c["ts"] <= e["ts"] <= c["ts"] + c["dur"]]
    return t0, t1, [(lab, cta, iv) for lab, cta, _, iv in rows], rel, ctas


# ---- warp-phases (BAWS Figures 3-6): what the SM's barrier statistics count, per CTA and phase ----

def cta_phases(ev, sm, ctas):
    """The warp-phases of the CTA slices `ctas` of SM sm, as src/sm/barrier_stats.c counts them: a
    phase ends at a barrier release of its CTA (or at the CTA's exit: the exit phase) and starts at
    the previous release (or the CTA's launch). Returns [(cta, phase, kind, start, end, warps,
    wait, rtru, longest, last, waits)]: wait is the warp-cycles waited (arrival to release; in the
    exit phase, retirement to the CTA's exit), RTRU = wait / (warps * (end - start)), longest the
    longest single warp's wait (BAWS Figure 4's measure), last the warp slot that arrived (retired)
    last, the one the others waited for (-1 when none did), and waits [(warp slot, cycles)] each
    warp's own wait in slot order."""
    pid = sm + 1
    by_tid = {}
    for e in ev:
        if e.get("pid") == pid and e.get("ph") == "i":
            by_tid.setdefault(e["tid"], []).append(e)
    out = []
    for c in sorted(ctas, key=lambda c: (c["ts"], c["tid"])):
        cid, c0, c1 = int(c["name"].split()[-1]), c["ts"], c["ts"] + c["dur"]
        arrive, retire = [], []  # [(warp slot, ts)] of this CTA's warps
        for tid, es in by_tid.items():
            if tid >= CTA_TID:
                continue
            mine = [e for e in es if e["name"] == "warp launch" and e["ts"] == c0 and e["args"]["cta"] == cid]
            if not mine:
                continue
            arrive += [(tid, e["ts"]) for e in es if e["name"] == "barrier arrive" and c0 <= e["ts"] <= c1]
            retire += [(tid, e["ts"]) for e in es if e["name"] == "warp exit" and c0 <= e["ts"] <= c1][:1]
        start, k = c0, 0
        rels = sorted((e for e in by_tid.get(c["tid"], [])
                       if e["name"] == "barrier release" and c0 <= e["ts"] <= c1), key=lambda e: e["ts"])
        for r in rels:
            last = {}
            for tid, ts in arrive:  # each warp's arrival at this barrier: its last one before the release
                if start <= ts <= r["ts"]:
                    last[tid] = ts
            n, wait = r["args"]["warps"], r["args"]["wait_cycles"]
            k += 1
            out.append((cid, k, "barrier", start, r["ts"], n, wait, _rtru(wait, n, r["ts"] - start))
                       + _waits(list(last.items()), r["ts"]))
            start = r["ts"]
        n = c.get("args", {}).get("warps", len(retire))
        wait = sum(c1 - ts for _, ts in retire)
        out.append((cid, k + 1, "exit", start, c1, n, wait, _rtru(wait, n, c1 - start)) + _waits(retire, c1))
    return out


def _waits(arrivals, end):
    """(longest wait, the slot that came last, [(slot, wait)] in slot order) of [(slot, ts)] ending at end."""
    waits = sorted((tid, end - ts) for tid, ts in arrivals)
    last = max(arrivals, key=lambda a: (a[1], a[0]))[0] if waits else -1
    return max((w for _, w in waits), default=0), last, waits


def _rtru(wait, n, max_t):
    return wait / (n * max_t) if n and max_t else 0.0


PHASES_HEAD = "cta,phase,kind,start,end,cycles,warps,wait_cycles,rtru,longest_wait,last_warp,waits"


def phases_csv(ph, path):
    """The phases of cta_phases as CSV; waits is each warp's 'slot:cycles', space-separated."""
    with open(path, "w") as f:
        f.write(PHASES_HEAD + "\n")
        for cta, k, kind, s, e, n, wait, r, longest, last, waits in ph:
            f.write(f"{cta},{k},{kind},{s},{e},{e - s},{n},{wait},{r:.4f},{longest},{last},"
                    + " ".join(f"{w}:{c}" for w, c in waits) + "\n")


def read_phases(path):
    """The rows of a phases CSV (phases_csv) as dicts."""
    with open(path) as f:
        return list(csv.DictReader(f))


def phase_value(path, cta, phase, metric, warp=None):
    """(value or None, what it is) of one warp-phase of a phases CSV: the phase-th phase (1 = launch
    to the first release) of the window's CTA at position cta (0 = the first launched on the SM, as
    a paper's TB0; the CSV lists the CTAs in launch order). metric is a column of the CSV, or wait:
    warp slot warp's own wait (a claim with timeline=ID: claims.PHASE_METRICS)."""
    ctas, rows = [], {}
    for r in read_phases(path):
        if r["cta"] not in rows:
            ctas.append(r["cta"])
            rows[r["cta"]] = {}
        rows[r["cta"]][r["phase"]] = r
    if cta >= len(ctas):
        return None, f"the window has {len(ctas)} CTA(s), no CTA at position {cta}"
    r = rows[ctas[cta]].get(str(phase))
    if r is None:
        return None, f"CTA {ctas[cta]} has {len(rows[ctas[cta]])} phase(s), no phase {phase}"
    waits = dict(w.split(":") for w in (r.get("waits") or "").split())
    longest = max(waits, key=lambda w: int(waits[w])) if waits else None
    what = (f"CTA {ctas[cta]} (position {cta} on the SM), phase {phase} ({r['kind']}, {r['cycles']} cycles): "
            f"longest wait {r['longest_wait']}" + (f" (warp {longest})" if waits else "")
            + (f", last to arrive warp {r['last_warp']}" if r.get("last_warp", "-1") != "-1" else ""))
    if metric == "wait":
        if str(warp) not in waits:
            return None, what + f"; warp {warp} is not one of its warps ({' '.join(sorted(waits, key=int))})"
        return float(waits[str(warp)]), what + f"; warp {warp} waits {waits[str(warp)]}"
    return float(r[metric]), what


def phase_lines(path):
    """One line per warp-phase of a phases CSV, as the command prints them."""
    return [f"cta {r['cta']} phase {r['phase']} ({r['kind']}): cycles {r['start']}..{r['end']} "
            f"({r['cycles']}), warps {r['warps']}, RTRU {r['rtru']}, longest wait {r['longest_wait']}"
            for r in read_phases(path)]


def phases_table(path, sched):
    """The report's lines for a style-states figure: each warp-phase's length, RTRU and waits."""
    rows = read_phases(path)
    if not rows:
        return [f"*{sched}: no warp-phase in the window*", ""]
    md = [f"{sched}: the warp-phases of these CTAs (RTRU = waited warp-cycles / (warps x phase cycles); "
          "longest wait: one warp's, arrival to release, or retirement to the CTA's exit; last warp: the warp "
          "slot the others waited for)", "",
          "| CTA | phase | ends at | cycles | warps | warp-cycles waited | RTRU | longest wait | last warp |",
          "|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    md += [f"| {r['cta']} | {r['phase']} | {r['kind']} | {r['cycles']} | {r['warps']} | {r['wait_cycles']} | "
           f"{r['rtru']} | {r['longest_wait']} | {r.get('last_warp', '-')} |" for r in rows]
    return md + [""]


# ---- the spread of one warp-phase over every SM's CTAs (is a paper's single CTA typical?) ----

SPREAD_HEAD = "sm,position,first_wave,cta,start,cycles,longest_wait,last_warp,first_warp,first_warp_wait"


def phase_spread(ev, kernel, phase):
    """Warp-phase `phase` (1 = launch to the first release) of every CTA of launch `kernel` on every
    recorded SM, as cta_phases computes it: [(sm, position, first_wave, cta, start, cycles, longest,
    last, first warp slot, its wait)] by SM and launch order. position: the CTA's place in its SM's
    launch order (0 = the SM's first, a paper's TB0); first_wave: launched before any CTA of the
    kernel left that SM (the CTAs a figure of the kernel's first CTAs shows). A CTA without that
    phase (fewer barriers, or cut by the window) is left out."""
    if phase < 1:
        raise TimelineError(f"phase {phase}: phases count from 1")
    k0, k1 = kernel_window(ev, kernel)
    by_sm = {}
    for e in ev:
        if (e.get("ph") == "X" and e.get("pid") and e.get("tid", 0) >= CTA_TID and e["name"].startswith("CTA ")
                and k0 <= e["ts"] < k1):
            by_sm.setdefault(e["pid"] - 1, []).append(e)
    out = []
    for sm in sorted(by_sm):
        ctas = sorted(by_sm[sm], key=lambda c: (c["ts"], c["tid"]))
        order = [int(c["name"].split()[-1]) for c in ctas]
        first_exit = min(c["ts"] + c["dur"] for c in ctas)
        for cta, k, _, s, e, _, _, _, longest, last, waits in cta_phases(ev, sm, ctas):
            if k != phase or not waits:
                continue
            pos = order.index(cta)
            out.append((sm, pos, ctas[pos]["ts"] < first_exit, cta, s, e - s, longest, last, waits[0][0],
                        waits[0][1]))
    if not out:
        raise TimelineError(f"no CTA of kernel {kernel} has a warp-phase {phase} in the timeline")
    return out


def spread_csv(rows, path):
    with open(path, "w") as f:
        f.write(SPREAD_HEAD + "\n")
        for r in rows:
            f.write(",".join(str(int(x) if isinstance(x, bool) else x) for x in r) + "\n")


def _dist(vals):
    """min, median, 90th percentile (nearest rank below) and max of a non-empty list."""
    v = sorted(vals)
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    return v[0], med, v[int(0.9 * (n - 1))], v[-1]


def spread_lines(rows, phase):
    """What the command prints for phase_spread's rows: per launch position of the first wave, the
    first warp's wait and the longest wait over the SMs; then the CTAs launched later."""
    def fmt(vals):
        lo, med, p90, hi = _dist(vals)
        return f"min {lo} median {int(med) if med == int(med) else med} p90 {p90} max {hi}"
    lines = []
    for pos in sorted({r[1] for r in rows if r[2]}):
        sel = [r for r in rows if r[2] and r[1] == pos]
        lines.append(f"phase {phase}, CTA position {pos} (first wave, {len(sel)} SMs): first warp's wait "
                     f"{fmt([r[9] for r in sel])}; longest wait {fmt([r[6] for r in sel])}")
    later = [r for r in rows if not r[2]]
    if later:
        lines.append(f"phase {phase}, CTAs launched later ({len(later)}): longest wait {fmt([r[6] for r in later])}")
    return lines


# ---- style warps: a bar per warp, sorted by execution time (CAWA Figures 2a, 2c) ----

def warp_times(sel):
    """[(label, exec_cycles, memory_cycles)] of the selection's warps, fastest first: a warp's time
    is that of its states other than finished (launch to exit), its memory part the memory state's."""
    out = []
    for lab, _, iv in sel[2]:
        ex = sum(b - a for a, b, st in iv if st != "finished")
        mem = sum(b - a for a, b, st in iv if st == "memory")
        out.append((lab, ex, mem))
    return sorted(out, key=lambda w: (w[1], w[0]))


def warps_csv(wt, path):
    with open(path, "w") as f:
        f.write("warp,exec_cycles,memory_cycles,memory_fraction\n")
        for lab, ex, mem in wt:
            f.write(f"{lab},{ex},{mem},{mem / ex if ex else 0:.4f}\n")


def render(trace, base, sm=None, kernel=0, nctas=2, cycles=None, title=None, style="states", pl=None):
    """Draws base.svg (and base.png through the plotter pl, a plot.Plotter: `--plot`) and writes
    base.csv (style states: the CTAs' warp-phases, cta_phases; warps: each warp's times); returns
    the files written, the PNG first."""
    if style not in ("states", "warps"):
        raise TimelineError(f"style {style}: states or warps")
    pl = pl or plot.Plotter("auto")
    ev = load(trace)
    sel = select(ev, sm, kernel, nctas, cycles)
    sm = sel[4][0]["pid"] - 1   # the SM drawn (sm None: select's choice)
    title = title or f"{os.path.basename(trace)}: SM {sm}, kernel {kernel}, {len({r[1] for r in sel[2]})} CTA(s)"
    os.makedirs(os.path.dirname(os.path.abspath(base)), exist_ok=True)
    if style == "warps":
        wt = warp_times(sel)
        warps_csv(wt, base + ".csv")
        parts = [("waiting on memory", COLOURS["memory"]),
                 ("other (issue, ready, dependences, units, barriers)", "#7f7f7f")]
        return pl.stacked(base, title, "cycles", [(lab, [mem, ex - mem]) for lab, ex, mem in wt], parts) + \
            [base + ".csv"]
    t0, t1, rows, rel = sel[:4]
    first, last = {}, {}  # each CTA's first and last row: a release's line spans them
    for i, (_, cta, _) in enumerate(rows):
        first.setdefault(cta, i)
        last[cta] = i
    marks = [(ts, first[cta], last[cta]) for cta, ts in rel if cta in first]
    phases_csv(cta_phases(ev, sm, sel[4]), base + ".csv")
    return pl.spans(base, title, t0, t1, [(lab, iv) for lab, _, iv in rows], marks, COLOURS,
                    "black line: barrier release") + [base + ".csv"]


def parse_cycles(s):
    a, colon, b = (s or "").partition(":")
    if not s or not colon:
        return None
    return (int(a) if a else 0, int(b) if b else float("inf"))


# ---- warpsim reproduce: `timeline ID bench=B sched=S1,S2 [size=] [sets=K=V;K=V] [sm=] [kernel=] [ctas=]
#      [cycles=A:B] [style=states|warps] [title=] [paper=] [note=]` lines of a paper's figures.txt ----
KEYS = {"bench", "sched", "size", "sets", "sm", "kernel", "ctas", "cycles", "style", "title", "paper", "note"}


class TimelineSpec:
    def __init__(self, tid, kv, where):
        if "bench" not in kv or "sched" not in kv:
            raise TimelineError(f"{where}: timeline {tid} needs bench= and sched=")
        self.id, self.where = tid, where
        self.bench, self.scheds = kv["bench"], [s for s in kv["sched"].split(",") if s]
        self.size = kv.get("size")
        self.sets = [s for s in kv.get("sets", "").split(";") if s]
        try:
            self.sm, self.kernel, self.ctas = int(kv.get("sm", 0)), int(kv.get("kernel", 0)), int(kv.get("ctas", 2))
        except ValueError:
            raise TimelineError(f"{where}: sm=, kernel= and ctas= are numbers")
        self.cycles = kv.get("cycles")
        self.style = kv.get("style", "states")
        if self.style not in ("states", "warps"):
            raise TimelineError(f"{where}: timeline {tid}: style= is states or warps")
        self.title = kv.get("title", tid)
        self.paper = kv.get("paper", tid)
        self.note = kv.get("note", "")

    def trace(self, outdir, sched):
        return os.path.join(outdir, "timelines", f"{self.id}-{sched}.json.gz")


def run_specs(specs, outdir, size, warpsim, out=sys.stderr):
    """Runs what the specs need (a run whose timeline exists is kept). Returns the failures."""
    bad = []
    for sp in specs:
        for sched in sp.scheds:
            path = sp.trace(outdir, sched)
            if os.path.exists(path):
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            cmd = [warpsim, "run", sp.bench, "--size", sp.size or size, "--sched", sched, "--timeline", path,
                   "--timeline-sms", str(sp.sm), "--set", "timeline.merge_cycles=0"]
            if sp.cycles:
                cmd += ["--timeline-cycles", sp.cycles]
            for s in sp.sets:
                cmd += ["--set", s]
            out.write(f"timeline {sp.id}: {sp.bench} under {sched}\n")
            p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if p.returncode or not os.path.exists(path):
                bad.append(f"{sp.id} {sched}: {p.stderr.strip()[-300:]}")
    return bad


def report_section(specs, outdir, pl=None):
    """Markdown lines drawing each spec's figures (after run_specs) through the plotter pl."""
    md = []
    for sp in specs:
        md += [f"### {sp.paper}: {sp.title}", ""]
        for sched in sp.scheds:
            path = sp.trace(outdir, sched)
            if not os.path.exists(path):
                md += [f"*{sched}: no timeline yet (the run has not been made or failed).*", ""]
                continue
            base = os.path.join(outdir, "figures", f"{sp.id}-{sched}")
            try:
                files = render(path, base, sp.sm, sp.kernel, sp.ctas, parse_cycles(sp.cycles),
                               f"{sp.bench} under {sched}: SM {sp.sm}, kernel {sp.kernel}, first {sp.ctas} CTA(s)",
                               sp.style, pl)
            except (TimelineError, plot.PlotError, OSError, subprocess.SubprocessError) as e:
                md += [f"*{sched}: not drawn: {e}*", ""]
                continue
            md += [f"![{sp.paper} {sched}]({os.path.relpath(files[0], outdir)})", ""]
            table = warps_table if sp.style == "warps" else phases_table
            md += table(base + ".csv", sched)
        if sp.note:
            md += [sp.note, ""]
    return md


def warps_table(csv_path, sched):
    """The report's lines for a style-warps figure: the disparity and each warp's numbers."""
    with open(csv_path) as f:
        rows = [l.strip().split(",") for l in f.readlines()[1:] if l.strip()]
    if not rows:
        return [f"*{sched}: no warp in the window*", ""]
    ex = [int(r[1]) for r in rows]
    mem = [int(r[2]) for r in rows]
    fast, slow = min(ex), max(ex)
    md = [f"{sched}: {len(rows)} warps; slowest - fastest = {slow - fast} cycles, "
          f"{(slow - fast) / fast if fast else 0:.3f} of the fastest (Figure 2a's measure); waiting on memory "
          f"{min((m / e for m, e in zip(mem, ex) if e), default=0):.3f} to "
          f"{max((m / e for m, e in zip(mem, ex) if e), default=0):.3f} "
          f"of a warp's time, {mem[ex.index(slow)] / slow if slow else 0:.3f} for the slowest (Figure 2c)", "",
          "| warp | cycles | waiting on memory | share |", "|---|---:|---:|---:|"]
    md += [f"| {r[0]} | {r[1]} | {r[2]} | {float(r[3]):.3f} |" for r in rows]
    return md + [""]


def report_runs(results, report_dir, pl=None, limit=20):
    """`warpsim report`: a figure per run of the sweep that wrote a timeline (timeline.json[.gz] in its
    run directory, from `set timeline.file=...`): the first recorded kernel's first 2 CTAs on the
    lowest-numbered SM that ran one."""
    runs = os.path.join(results, "runs")
    out = []
    if not os.path.isdir(runs):
        return out
    for rid in sorted(os.listdir(runs))[:1000]:
        d = os.path.join(runs, rid)
        for fn in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if fn.endswith((".json", ".json.gz")) and fn not in ("stats.json", "config.json", "run.json",
                                                                  "status.json"):
                try:
                    ev = load(os.path.join(d, fn))
                    sm = select(ev, None, 0, 2)[4][0]["pid"] - 1   # the lowest SM with a CTA of kernel 0
                    base = os.path.join(report_dir, "timelines", f"{rid}-{fn.split('.')[0]}")
                    out += render(os.path.join(d, fn), base, sm, 0, 2, None, f"{rid}: SM {sm}, kernel 0", pl=pl)
                except (TimelineError, plot.PlotError, ValueError, KeyError, OSError, subprocess.SubprocessError):
                    continue
                if sum(f.endswith(".svg") for f in out) >= limit:  # figures, each with its PNG and CSV
                    return out
    return out


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="python3 -m wsexp.timeline_fig", description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("-o", required=True, help="output base name (BASE.svg, BASE.png)")
    ap.add_argument("--sm", type=int, help="the SM (default: the lowest-numbered one that ran a CTA of the kernel)")
    ap.add_argument("--kernel", type=int, default=0, help="launch index in the run (default 0)")
    ap.add_argument("--ctas", type=int, default=2, help="the first N CTAs of the kernel on that SM")
    ap.add_argument("--cycles", help="A:B: only these cycles")
    ap.add_argument("--title")
    ap.add_argument("--style", default="states", choices=("states", "warps"),
                    help="states: a row per warp coloured by state; warps: a bar per warp by execution time")
    ap.add_argument("--plot", default="auto", choices=("auto", "matplotlib", "gnuplot", "none"),
                    help="the tool drawing the PNG (the SVG is always written)")
    ap.add_argument("--spread", type=int, metavar="PHASE",
                    help="no figure: warp-phase PHASE of every CTA of the kernel on every recorded SM "
                         "(BASE.csv) and its spread over the SMs")
    a = ap.parse_args(argv)
    if a.spread is not None:
        try:
            rows = phase_spread(load(a.trace), a.kernel, a.spread)
            spread_csv(rows, a.o + ".csv")
        except TimelineError as e:
            print(f"timeline_fig: {e}", file=sys.stderr)
            return 1
        except OSError as e:
            print(f"timeline_fig: {a.o}.csv: {e.strerror}", file=sys.stderr)
            return 1
        print("\n".join(spread_lines(rows, a.spread)))
        print(f"wrote {a.o}.csv")
        return 0
    try:
        files = render(a.trace, a.o, a.sm, a.kernel, a.ctas, parse_cycles(a.cycles), a.title, a.style,
                       plot.Plotter(a.plot))
    except (TimelineError, plot.PlotError) as e:
        print(f"timeline_fig: {e}", file=sys.stderr)
        return 1
    if a.style == "states":
        print("\n".join(phase_lines(a.o + ".csv")))
    print("wrote " + ", ".join(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
