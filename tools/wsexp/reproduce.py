"""reproduce.py - `warpsim reproduce <paper>`: a paper's evaluation from its folder
experiments/papers/<paper>/ (read by paperdir.py; formats: doc/reproducing.md).

Runs (or resumes) every sweep at the chosen size through runner.py, leaving out the labels whose
configuration does not build yet (a policy that does not exist: `warpsim config --check`), then
writes DIR/report.md with each figure drawn from our data (PNG and SVG, plot.py) and the claims
table: claim | paper | warpsim | effect ratio | verdict. Nothing that needs a missing technique
is run, drawn or computed: it is listed as not available, with what it needs.
Stdlib only.
"""

import csv
import io
import os
import shlex
import subprocess
import sys
import time

from . import claims, estimate, plot, report, runner, seriesfig, timeline_fig
from . import spec as specmod


from .paperdir import (FIG_KEYS, CLAIM_KEYS, AGGS, Figure, Paper, ReproError, _sel, check_metric,  # noqa: F401
                       list_papers, papers_dir)


# ---- availability: does a label's configuration build? ----

class Checker:
    def __init__(self, warpsim):
        self.warpsim = warpsim
        self.cache = {}
        self.tmp = None

    def _rundir(self):
        """A scratch directory standing for {rundir} (a policy may create its output file at init)."""
        if self.tmp is None:
            import atexit
            import shutil
            import tempfile
            self.tmp = tempfile.mkdtemp(prefix="warpsim-check-")
            atexit.register(shutil.rmtree, self.tmp, True)
        return self.tmp

    def check(self, config, sets):
        key = (config, tuple(sets))
        if key not in self.cache:
            cmd = [self.warpsim, "config", "--check", "--config", config]
            if any("{rundir" in s for s in sets):
                sets = specmod.resolve_rundirs(sets, self._rundir(), lambda ref: self._rundir())
            for s in sets:
                cmd += ["--set", s]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
                ok, msg = p.returncode == 0, (p.stderr.strip().splitlines() or [""])[-1]
            except (OSError, subprocess.SubprocessError) as e:
                ok, msg = False, f"cannot run {self.warpsim}: {e}"
            self.cache[key] = (ok, msg.replace("warpsim: ", "").replace("--set: ", ""))
        return self.cache[key]

    def benchmarks(self):
        """The benchmark names this warpsim knows (`warpsim list`), or None if it cannot tell."""
        if not hasattr(self, "_benches"):
            try:
                p = subprocess.run([self.warpsim, "list"], capture_output=True, text=True, timeout=60)
                names = [l.split()[0] for l in p.stdout.splitlines()[1:] if l[:1].strip()]
                self._benches = set(names) if p.returncode == 0 and names else None
            except (OSError, subprocess.SubprocessError):
                self._benches = None
        return self._benches


def availability(paper, sp, checker):
    """{dim: {label: (ok, message, technique)}} for the sweep's axes."""
    out = {}
    for d in sp.dims:
        out[d.name] = {}
        for lab in d.labels:
            ok, msg = True, ""
            # a label that reads another label's run ({rundir:DIM=LABEL}: a file that run writes, absent
            # until it has run) is available when the label it reads is
            refs = [lb for dm, lb in specmod.run_refs(d.sets[lab]) if dm == d.name and lb in d.sets]
            lsets = d.sets[refs[0]] if refs else d.sets[lab]
            here = os.path.dirname(os.path.abspath(sp.path))
            for config in sp.configs:
                # {bench}: checked with each benchmark of the sweep (a per-benchmark file must exist)
                for bench in (sp.benchmarks if any(specmod.BENCH in x for x in sp.sets + lsets) else [""]):
                    c_ok, c_msg = checker.check(specmod.config_file(sp, config), specmod.resolve_bench(
                        specmod.resolve_sweepdir(sp.sets + lsets, here), bench))
                    if not c_ok:
                        break
                if not c_ok:
                    ok, msg = False, c_msg
                    break
            out[d.name][lab] = (ok, msg, paper.technique_for(d.sets[lab]))
    return out


def _needs(av, sel):
    """Why a selection {dim: label} is not available, or None."""
    for d, lab in sel.items():
        if d in av and lab in av[d] and not av[d][lab][0]:
            ok, msg, tech = av[d][lab]
            return f"needs {tech}" if tech else f"{d} {lab}: {msg}"
    return None


# ---- running ----

def prepare(paper, size, benches, checker):
    """Each sweep as (name, Spec with the unavailable labels dropped, availability, runs)."""
    out = []
    for name, sp in paper.sweeps.items():
        for config in sp.configs:   # the sweep's own configuration must build, whatever its labels
            ok, msg = checker.check(specmod.config_file(sp, config),
                                    specmod.resolve_sweepdir(sp.sets, os.path.dirname(os.path.abspath(sp.path))))
            if not ok:
                raise ReproError(f"sweep '{name}': configuration {config} does not build: {msg}")
        av = availability(paper, sp, checker)
        sp.sizes = [size]
        sp.paper_sizes = {b: s for b, (s, _) in paper.inputs.items()}   # --size paper: each paper's own input
        if benches:
            sp.benchmarks = [b for b in sp.benchmarks if b in benches]
            sp.groups = {g: [b for b in m if b in benches] for g, m in sp.groups.items()}
        known = checker.benchmarks()
        if known is not None:  # a benchmark the paper maps but this build lacks (written elsewhere) is left out
            lacking = [b for b in sp.benchmarks if b not in known]
            if lacking:
                sys.stderr.write(f"sweep '{name}': not in this build, left out: {' '.join(lacking)}\n")
                sp.benchmarks = [b for b in sp.benchmarks if b in known]
                sp.groups = {g: [b for b in m if b in known] for g, m in sp.groups.items()}
        for d in sp.dims:
            keep = [lab for lab in d.labels if av[d.name][lab][0]]
            d.labels = keep
            d.sets = {lab: d.sets[lab] for lab in keep}
        runnable = sp.benchmarks and all(d.labels for d in sp.dims)
        try:
            runs = specmod.expand(sp) if runnable else []
        except specmod.SpecError as e:
            raise ReproError(str(e))
        out.append((name, sp, av, runs))
    return out


def run_all(prepared, outdir, warpsim, jobs, emit, quiet, only=None, retry=False, out=sys.stderr, cores=None,
            per_run=None):
    """Runs (or emits) every sweep (or those named in only) on `cores` cores, per_run threads per run
    (None: the pool chooses); returns {sweep: (counts, skipped, seconds)} and an exit status."""
    times, rc = {}, 0
    # the instruction counts an earlier --estimate measured at this size weigh the runs too
    insts = estimate.cached_insts(os.path.join(outdir, "estimate-cache.json"))
    for name, sp, av, runs in prepared:
        if only and name not in only:
            continue
        res = runner.Results(os.path.join(outdir, "sweeps", name))
        if not runs:
            out.write(f"sweep '{name}': nothing available to run\n")
            continue
        defs = res.write_plan(sp.to_json(), runs)
        if emit == "slurm":
            runner.emit_slurm(res, warpsim, out=out)
            continue
        if emit == "parallel":
            runner.emit_parallel(res, warpsim, out=out)
            continue
        out.write(f"sweep '{name}': {len(defs)} runs, {jobs} at a time -> {res.path}\n")
        out.flush()
        t0 = time.time()
        counts, skipped, interrupted = runner.run_pool(res, defs, warpsim, jobs, sp.timeout, retry, out=out,
                                                       quiet=quiet, cores=cores, per_run=per_run, insts=insts)
        dt = time.time() - t0
        times[name] = (counts, skipped, dt)
        if interrupted:
            out.write(f"interrupted ({interrupted}): run the same command again to resume\n")
            return times, 130
        failed = sum(n for s, n in counts.items() if s not in runner.STATES_OK)
        if failed:
            rc = 1
    return times, rc


# ---- data ----

class SweepData:
    """A sweep's finished runs, indexed by their labels."""

    def __init__(self, path):
        self.data = report.Data(path) if os.path.exists(os.path.join(path, "plan.json")) else None
        self.index = {}
        if self.data:
            for r in self.data.rows:
                self.index.setdefault(r.labels["benchmark"], []).append(r)

    def value(self, bench, sel, stat):
        """The stat of the one run of `bench` matching every dim:label of sel (None if not run or failed).
        A label best:P stands for the run among labels P:N (or PN) with the highest IPC (Best-SWL: best:swl)."""
        if not self.data:
            return None
        best = {d: lab[5:] for d, lab in sel.items() if lab.startswith("best:")}
        cands = [r for r in self.index.get(bench, [])
                 if all((report.family_member(r.labels.get(d), best[d]) if d in best else r.labels.get(d) == lab)
                        for d, lab in sel.items())]
        if not best:
            return cands[0].value(stat) if cands else None
        ipc = report.METRICS["ipc"][0]
        ok = [r for r in cands if r.value(ipc) is not None]
        if not ok or len(ok) < len(cands):
            return None   # a member failed or has not run: no best yet
        top = max(ok, key=lambda r: r.value(ipc))
        if stat == BEST_PARAM:   # the N of the chosen label P:N (Best-SWL's warp limit)
            d = next(iter(best))
            return report._num(report._MEMBER.fullmatch(top.labels.get(d)).group(2))
        return top.value(stat)

    def has_stat(self, stat):
        """Does a finished run of the sweep hold this statistic? (False when none has finished.)"""
        return bool(self.data) and any(r.value(stat) is not None for r in self.data.rows)

    def wall(self):
        if not self.data:
            return 0.0
        return sum(float(r.status.get("wall_seconds") or 0) for r in self.data.rows if r.status)


# metric=best_param: the parameter N of the label a best:P selection chose (Best-SWL's warp limit)
BEST_PARAM = "@best_param"


def _stat(metric):
    if metric == "best_param":
        return BEST_PARAM, "chosen parameter of the best label", ""
    name, stat, title, unit, mode = report.metric_spec(metric)
    return stat, title, unit


def aggregate(vals, how):
    return claims.aggregate(vals, how)


def claim_benches(claim, sp):
    """The benchmarks a claim aggregates over: its bench=, or its group(s) in the sweep."""
    return [claim.bench] if claim.bench else (sp.benchmarks if claim.group == "all" else
                                              [b for g in claim.group.split("+") for b in sp.groups.get(g, [])])


def claim_value(claim, sp, sd):
    """(warpsim value, benchmarks used, benchmarks without a value)."""
    stat = _stat(claim.metric)[0]
    stat_b = _stat(claim.metric_b)[0] if claim.metric_b else stat
    return claims.claim_value(claim, claim_benches(claim, sp), sd.value, stat, stat_b)


def evidence_text(claim, sp, sd):
    """'evidence: TITLE A (a) vs B (b); ...': each evidence statistic's mean under the claim's two
    selections over the benchmarks of its group that have both (claims.evidence_values); '' if no
    run has any of them."""
    benches = claim_benches(claim, sp)
    la = " ".join(claim.a.values())
    lb = " ".join(claim.b.values()) if claim.b else ""
    parts = []
    for m in claim.evidence:
        stat, title, _ = _stat(m)
        va, vb = claims.evidence_values(claim, benches, sd.value, stat)
        if va is not None:   # a statistic of another policy's runs (CCWS's on LRR's) says nothing here
            parts.append(f"{title} {fmtv(va)} ({la})" + (f" vs {fmtv(vb)} ({lb})" if vb is not None else ""))
    many = "" if claim.bench else " (means over the group)"
    return f"evidence{many}: " + "; ".join(parts) if parts else ""


def fmtv(v):
    if v is None:
        return "-"
    v = v + 0.0   # -0.0 prints as 0.000
    a = abs(v)
    return f"{v:.3f}" if a < 10 else f"{v:.2f}" if a < 100 else f"{v:.1f}" if a < 1000 else f"{v:.0f}"


# ---- figures ----

def figure_data(fig, sp, sd, av):
    """(blocks [(group, [(bench, [value per series])])], series names, why-not or None)."""
    if fig.needs:
        return None, None, f"needs {fig.needs}"
    sels = [dict(fig.fixed, **({fig.series_dim: s} if fig.series_dim else {})) for s in (fig.series or [None])]
    missing = [n for n in (_needs(av, s) for s in sels + [dict(fig.fixed, **fig.norm)]) if n]
    if missing and fig.norm and _needs(av, dict(fig.fixed, **fig.norm)):
        return None, None, _needs(av, dict(fig.fixed, **fig.norm))
    avail = [s for s in sels if not _needs(av, s)]
    if not avail:
        return None, None, missing[0]
    names = []
    for si, s in enumerate(sels):
        if s not in avail:
            continue
        for mi, m in enumerate(fig.metrics):
            mname = fig.labels[mi] if fig.labels else _stat(m)[1]
            lab = s.get(fig.series_dim) if fig.series_dim else None
            lab = lab.replace("best:", "best-") if lab else lab   # best:swl -> best-swl (the report's name)
            names.append(" ".join(x for x in ((lab if lab else ""), (mname if len(fig.metrics) > 1 else "")) if x)
                         or mname)
    groups = fig.groups or list(sp.groups) or ["all"]
    blocks = []
    for g in groups:
        members = sp.benchmarks if g == "all" else sp.groups.get(g, [])
        rows = []
        for b in members:
            vals = []
            for s in avail:
                for m in fig.metrics:
                    stat = _stat(m)[0]
                    v = sd.value(b, s, stat)
                    if fig.norm and v is not None:
                        base = sd.value(b, dict(s, **fig.norm), stat)
                        v = v / base if base else None
                    vals.append(v)
            rows.append((b, vals))
        if rows and fig.mean != "none":
            mrow = []
            for i in range(len(names)):
                try:
                    mrow.append(aggregate([r[1][i] for r in rows], fig.mean))
                except claims.means.MeanError as e:   # shown under the figure, never a silent gap
                    mrow.append(None)
                    missing.append(f"no {fig.mean} of {names[i]} in {g}: {e}")
            rows.append((f"{fig.mean}", mrow))
        if rows:
            blocks.append((g, rows))
    return blocks, names, (f"some series not available: {'; '.join(sorted(set(missing)))}" if missing else None)


def _num(label):
    """'16K' -> 16384.0, '8' -> 8.0, else None."""
    t = str(label).strip().upper()
    mult = 1
    for suf, m in (("KB", 1024), ("K", 1024), ("MB", 1 << 20), ("M", 1 << 20)):
        if t.endswith(suf):
            t, mult = t[: -len(suf)], m
            break
    try:
        return float(t) * mult
    except ValueError:
        return None


def draw(fig, blocks, names, outdir, pl):
    base = os.path.join(outdir, "figures", fig.id)
    os.makedirs(os.path.dirname(base), exist_ok=True)
    ylabel = fig.ylabel or (_stat(fig.metrics[0])[1] + (f" / {list(fig.norm.values())[0]}" if fig.norm else ""))
    title = f"{fig.paper}: {fig.title}"
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["group", "benchmark"] + names)
    for g, rows in blocks:
        for b, vals in rows:
            w.writerow([g, b] + ["" if v is None else f"{v:.10g}" for v in vals])
    runner.atomic_write(base + ".csv", f.getvalue())
    if not pl.backend:
        return []
    logy = {"auto": None, "log": True, "linear": False}[fig.yscale]
    if fig.kind == "lines":
        xs = [_num(s.rsplit(":", 1)[-1]) for s in fig.series]
        if any(x is None for x in xs):
            xs = list(range(1, len(fig.series) + 1))
        series = [(b, vals) for g, rows in blocks for b, vals in rows]
        prefix = fig.series[0].rsplit(":", 1)[0] if ":" in fig.series[0] else ""
        xlabel = fig.series_dim + (f" ({prefix}:N)" if prefix else "")
        return pl.lines(base, title, xlabel, ylabel, xs, series, 1.0 if fig.norm else None, logy=logy)
    return pl.bars(base, title, ylabel, [(g if len(blocks) > 1 or g != "all" else None, rows) for g, rows in blocks],
                   names, 1.0 if fig.norm else None, logy=logy)


def series_report(fig, sd, av, outdir, pl):
    """report.md lines of a kind=series figure and 1 if it was drawn (seriesfig.py)."""
    try:
        lines, why, remarks = seriesfig.data(fig, sd, av, _needs, os.path.join(outdir, "sweeps", fig.sweep, "runs"))
    except seriesfig.SeriesError as e:
        return [f"*Not drawn: {e}.*", ""], 0
    if lines is None:
        return [f"*Not available: {why}.*", ""], 0
    if not lines:
        return [f"*No results yet: {'; '.join(remarks) or 'the sweep has not run'}.*", ""], 0
    md = []
    try:
        files = seriesfig.draw(fig, lines, outdir, pl)
    except plot.PlotError as e:
        files = []
        md.append(f"*Figure not drawn: {e}*")
    md += [f"![{fig.paper}]({os.path.relpath(f, outdir)})\n" for f in files if f.endswith(".png")]
    if fig.note or remarks:
        md += [" ".join(x for x in (fig.note, f"({'; '.join(remarks)})" if remarks else "") if x), ""]
    md += [md_table(["line", "points", f"{fig.x} from", "to", f"{', '.join(fig.ys)} min", "mean", "max"],
                    seriesfig.table(lines)), ""]
    return md, 1


# ---- report.md ----

def _numeric(cell):
    try:
        float(str(cell).split(" ")[0].replace("%", ""))
        return True
    except ValueError:
        return str(cell) in ("-", "")


def md_table(head, rows):
    """A Markdown table; columns whose cells are all numbers are right-aligned."""
    right = [bool(rows) and all(_numeric(r[i]) for r in rows) for i in range(len(head))]
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---:" if r else "---" for r in right) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).replace("|", "/") for c in r) + " |")
    return "\n".join(out)


def input_text(paper, bench):
    """What --size paper runs for a benchmark: the size its paper.txt declares and why, or `paper`."""
    if not bench:
        return "-"
    if bench in paper.inputs:
        s, why = paper.inputs[bench]
        return f"`{s}`" + (f": {why}" if why else "")
    return "`paper` (the paper states no input)"


def write_report(paper, prepared, outdir, size, plot_which, out=sys.stdout):
    pl = plot.Plotter(plot_which)
    md = [f"# Reproducing {paper.title}", ""]
    md.append(f"Paper text: `{paper.source}`. Size `{size}`. Baseline: {paper.baseline}" if paper.source else
              f"Size `{size}`. Baseline: {paper.baseline}")
    md.append("")
    md += ["## Benchmarks", "", md_table(["paper", "warpsim", "note", "input at --size paper"],
                                          [(p, o or "**missing**", n, input_text(paper, o))
                                           for p, o, n in paper.benches]), ""]
    md += ["## Experiments", ""]
    rows = []
    sds = {}
    for name, sp, av, runs in prepared:
        sd = SweepData(os.path.join(outdir, "sweeps", name))
        sds[name] = sd
        dropped = [f"{d}:{lab} ({_needs(av, {d: lab})})" for d in av for lab, (ok, _, _) in av[d].items() if not ok]
        states = sd.data.states() if sd.data else {}
        st = ", ".join(f"{n} {s}" for s, n in sorted(states.items())) or "not run"
        rows.append((name, len(runs), st if sd.data else "not run", runner.fmt_time(sd.wall()) if sd.data else "-",
                     "; ".join(dropped) or "-"))
    md += [md_table(["sweep", "runs", "state", "run time (sum over runs)", "not available"], rows), ""]
    md += ["## Figures", ""]
    nfig = 0
    for fig in paper.figures:
        sp = next(p for n, p, a, r in prepared if n == fig.sweep)
        av = next(a for n, p, a, r in prepared if n == fig.sweep)
        md.append(f"### {fig.paper}: {fig.title}")
        md.append("")
        if fig.kind == "series":
            lines_md, drawn = series_report(fig, sds[fig.sweep], av, outdir, pl)
            md += lines_md
            nfig += drawn
            continue
        blocks, names, why = figure_data(fig, sp, sds[fig.sweep], av)
        if blocks is None:
            md += [f"*Not available: {why}.*", ""]
            continue
        if not any(v is not None for _, rows in blocks for _, vals in rows for v in vals):
            md += ["*No results yet (the sweep has not run).*", ""]
            continue
        try:
            files = draw(fig, blocks, names, outdir, pl)
        except plot.PlotError as e:
            files = []
            md.append(f"*Figure not drawn: {e}*")
        nfig += 1
        for f in files:
            if f.endswith(".png"):
                md += [f"![{fig.paper}]({os.path.relpath(f, outdir)})", ""]
        if fig.note or why:
            md += [" ".join(x for x in (fig.note, f"({why})" if why else "") if x), ""]
        head = ["group", "benchmark"] + names
        md += [md_table(head, [(g, b) + tuple(fmtv(v) for v in vals) for g, rows in blocks for b, vals in rows]), ""]
    if not pl.backend:
        md += [f"*Figures not drawn: {pl.why}.*", ""]
    md += timeline_fig.report_section(paper.timelines, outdir, pl)  # per-warp timelines (doc/timeline.md)
    cmd, crows, counts = claims_section(paper, prepared, sds, outdir)
    md += cmd
    os.makedirs(outdir, exist_ok=True)
    runner.atomic_write(os.path.join(outdir, "report.md"), "\n".join(md))
    s = io.StringIO()
    csv.writer(s, lineterminator="\n").writerows([CLAIMS_CSV_HEAD] + crows)
    runner.atomic_write(os.path.join(outdir, "claims.csv"), s.getvalue())
    out.write(f"wrote {os.path.join(outdir, 'report.md')}: {nfig} figure(s), {len(paper.claims)} claim(s) "
              f"({claims.summary(counts)})\n")
    return counts


CLAIMS_CSV_HEAD = ["claim", "paper", "source", "warpsim", "effect_ratio", "verdict", "note"]
CLAIMS_MD_HEAD = ["id", "claim", "where", "compared", "paper", "warpsim", "effect ratio", "verdict", "note"]


def phase_claim_value(paper, c, outdir):
    """(value or None, what it is) of a claim on one warp-phase of a timeline figure, from the phases
    CSV its drawing wrote (report_section, before the claims)."""
    t = paper.timeline(c.timeline)
    path = os.path.join(outdir or "", "figures", f"{t.id}-{c.a['sched']}.csv")
    if outdir is None or not os.path.exists(path):
        return None, f"no warp-phases of timeline {t.id} under {c.a['sched']} (its run has not been made or failed)"
    try:
        return timeline_fig.phase_value(path, c.cta, c.phase, c.metric, c.warp)
    except (OSError, KeyError, ValueError) as e:
        return None, f"{path}: not a phases file ({e})"


def claims_section(paper, prepared, sds, outdir=None):
    """(report.md lines, claims.csv rows, {verdict: n}) of the paper's claims over the sweeps' data
    (and the timeline figures' warp-phases under outdir)."""
    md = ["## Claims", "",
          "warpsim: the same aggregate over our benchmarks of the group (those the paper names and we have). "
          "Effect ratio: (warpsim - r) / (paper - r), r = 1 for a ratio, 0 for a difference or a value. Verdict: "
          f"*holds* for an effect ratio of {claims.EFFECT_LOW:g}-{claims.EFFECT_HIGH:g} (a no-change claim: inside "
          "its band; a qualitative claim: an effect of at least its band, "
          f"{claims.QUALITATIVE_BAND:.0%} unless stated), *weaker* below, *stronger* above (or outside a no-change "
          "claim's band), *opposite* on the other side; *no result* when runs are missing or failed, *not "
          "available* when a technique, statistic or benchmark does not exist yet. Source: *stated* in the text, "
          "read off a *figure*, or *derived* from stated numbers. A measurement made by two claims is counted "
          "once.", ""]
    rows, csv_rows, judged, partial = [], [], [], 0
    first = {}
    for c in paper.claims:
        sp = next((p for n, p, a, r in prepared if n == c.sweep), None)
        av = next((a for n, p, a, r in prepared if n == c.sweep), {})
        why = _needs(av, dict(c.fixed, **c.a)) or (_needs(av, dict(c.fixed, **c.b)) if c.b else None)
        if c.needs:
            why = f"needs {c.needs}"
        where = ", ".join(x for x in (c.figure, f"Sec. {c.section}" if c.section else "") if x)
        what = f"{c.metric}, {c.agg} over {c.group or c.bench}: " + " ".join(f"{v}" for v in c.a.values())
        if c.timeline:
            what = (f"{c.metric}" + (f" of warp {c.warp}" if c.warp is not None else "") + f", phase {c.phase} of "
                    f"the CTA at position {c.cta}, timeline {c.timeline}: {c.a['sched']}")
        if c.b:
            what += " / " + (f"{c.metric_b} " if c.metric_b else "") + " ".join(c.b.values())
        if c.fixed:
            what += " (" + ", ".join(f"{d} {lab}" for d, lab in c.fixed.items()) + ")"
        pv = (f"{c.paper_dir} (qualitative)" if c.paper_dir else fmtv(c.paper)) + f" ({c.source})"
        note = []
        key = c.measurement() + ((c.paper, c.paper_dir),)
        if key in first:
            note.append(f"the same measurement as {first[key]}, counted once")
        first.setdefault(key, c.id)
        if why:
            judged.append((c, "not available"))
            rows.append((c.id, c.text, where, what, pv, "not available", "-", "not available", why))
            csv_rows.append([c.id, c.paper_dir or c.paper, c.source, "", "", "not available", "; ".join([why] + note)])
            continue
        if c.timeline:
            v, info = phase_claim_value(paper, c, outdir)
            used, missing = [], []
            note.append(info)
        else:
            try:
                v, used, missing = claim_value(c, sp, sds[c.sweep])
            except claims.means.MeanError as e:
                v, used, missing = None, [], []
                note.append(str(e))
        if v is None and not note:
            absent = [s for m in (c.metric, c.metric_b) if m for s in report.stat_names(_stat(m)[0])
                      if s != BEST_PARAM and not sds[c.sweep].has_stat(s)]
            if absent:
                note.append(f"no finished run has the statistic {', '.join(absent)}")
        d, e = claims.verdict(c, v)
        judged.append((c, d))
        if v is not None and missing:   # computed over part of the group: say so where it shows
            partial += 1
            note.append("no result: " + ", ".join(missing))
        ev = evidence_text(c, sp, sds[c.sweep]) if c.evidence and not c.timeline else ""
        if ev:
            note.append(ev)
        if c.outside:
            note.append(f"outside the paper: {c.outside}")
        if c.note:
            note.append(c.note)
        shown = d + (" (partial)" if v is not None and missing else "") + (" (our choice)" if c.outside else "")
        rows.append((c.id, c.text, where, what, pv, fmtv(v), fmtv(e), shown, "; ".join(note) or "-"))
        csv_rows.append([c.id, c.paper_dir or c.paper, c.source, "" if v is None else f"{v:.10g}",
                         "" if e is None else f"{e:.10g}", d, "; ".join(note)])
    counts = claims.count(judged)
    md += [md_table(CLAIMS_MD_HEAD, rows), ""]
    md += [f"Claims: {claims.summary(counts)} ({sum(counts.values())} measurements of {len(paper.claims)} claims)."
           + (f" {partial} of those with a value are computed over part of their group (the note names the "
              f"benchmarks without a result)." if partial else ""), ""]
    return md, csv_rows, counts


# ---- --list ----

def do_list(warpsim, out=sys.stdout):
    checker = Checker(warpsim)
    names = list_papers()
    if not names:
        raise ReproError(f"no papers under {papers_dir()}")
    for name in names:
        p = Paper(name)
        out.write(f"{name}: {p.title}\n")
        missing = [pn for pn, o, _ in p.benches if not o]
        out.write(f"  benchmarks: {len(p.benches) - len(missing)} of {len(p.benches)} mapped"
                  + (f" (missing: {', '.join(missing)})" if missing else "") + "\n")
        if p.inputs:
            other = [f"{b} {s}" for b, (s, _) in sorted(p.inputs.items()) if s != "paper"]
            out.write(f"  inputs: {len(p.inputs)} stated by the paper (report.md lists them)"
                      + (f"; --size paper runs {', '.join(other)}" if other else "") + "\n")
        avs = {}
        for sname, sp in p.sweeps.items():
            av = availability(p, sp, checker)
            avs[sname] = av
            labs = [f"{lab}" + ("" if ok else "*") for d in av for lab, (ok, _, _) in av[d].items()]
            out.write(f"  sweep {sname}: {len(sp.benchmarks)} benchmarks x {' x '.join(str(len(d.labels)) for d in sp.dims) or '1'}"
                      f" ({' '.join(labs)})\n")
        for f in p.figures:
            sels = [dict(f.fixed, **({f.series_dim: s} if f.series_dim else {})) for s in (f.series or [None])]
            needs = sorted({n for n in (_needs(avs[f.sweep], s) for s in sels + [dict(f.fixed, **f.norm)]) if n})
            if f.needs:
                needs, sels = [f"needs {f.needs}"], []
            ok = len(needs) == 0 or (not f.norm or not _needs(avs[f.sweep], dict(f.fixed, **f.norm))) and \
                len([s for s in sels if not _needs(avs[f.sweep], s)]) > 0
            state = "available" if not needs else ("partly available" if ok else "not available")
            out.write(f"  {f.paper:<12} {state:<17} {f.title}" + (f" [{'; '.join(needs)}]" if needs else "") + "\n")
        for t in p.timelines:  # timeline figures: their own runs (timeline_fig.py)
            out.write(f"  {t.paper:<12} {'available':<17} {t.title} [timeline of {t.bench} under {', '.join(t.scheds)}]\n")
        nav = 0
        for c in p.claims:
            av = avs.get(c.sweep, {})
            if c.needs or _needs(av, dict(c.fixed, **c.a)) or (c.b and _needs(av, dict(c.fixed, **c.b))):
                nav += 1
        techs = ", ".join(t for t, _ in p.techniques)
        out.write(f"  claims: {len(p.claims)}, {len(p.claims) - nav} available now, {nav} need a technique"
                  + (f"; techniques: {techs}" if techs else "") + "\n")
    out.write("(* = label not available: its configuration does not build yet)\n")
    return 0


# ---- provenance: which commit made a results folder (reprodoc.py states it) ----

PROVENANCE = "provenance.json"


def source_commit():
    """The project's commit (with '+changes' when the tree differs from it), or None."""
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    try:
        rev = subprocess.run(["git", "-C", root, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                             text=True, timeout=30)
        if rev.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=30)
        return rev.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def write_provenance(outdir, paper, size):
    """Which commit and command made a results folder: the doc states it once."""
    os.makedirs(outdir, exist_ok=True)
    runner.write_json(os.path.join(outdir, PROVENANCE),
                      {"paper": paper, "size": size, "commit": source_commit(),
                       "command": f"warpsim reproduce {paper} --size {size}",
                       "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z")})



# ---- entry point ----

def main(args, warpsim):
    """args: the parsed `warpsim reproduce` options."""
    if args.list:
        return do_list(warpsim)
    if not args.paper:
        raise ReproError("which paper? (warpsim reproduce --list shows them)")
    paper = Paper(args.paper)
    benches = [b for b in (args.benchmarks or "").split(",") if b] or None
    if benches:
        known = {b for sp in paper.sweeps.values() for b in sp.benchmarks}
        bad = [b for b in benches if b not in known]
        if bad:
            raise ReproError(f"--benchmarks: {', '.join(bad)} not in any sweep of {paper.name} "
                             f"(benchmarks: {', '.join(sorted(known))})")
    outdir = os.path.abspath(args.out or os.path.join("results", "reproduce", f"{paper.name}-{args.size}"))
    if not os.access(warpsim, os.X_OK):
        raise ReproError(f"no warpsim binary at {warpsim} (run `make`, or set WARPSIM_BIN)")
    only = [x for x in (args.sweeps or "").split(",") if x] or None
    bad = [x for x in only or [] if x not in paper.sweeps]
    if bad:
        raise ReproError(f"--sweeps: no sweep {', '.join(bad)} in {paper.name} (sweeps: {', '.join(paper.sweeps)})")
    checker = Checker(warpsim)
    prepared = prepare(paper, args.size, benches, checker)
    if getattr(args, "estimate", False):
        if only:
            prepared = [p for p in prepared if p[0] in only]
        os.makedirs(outdir, exist_ok=True)
        results = (os.path.join(args.results, f"{paper.name}-{args.size}") if getattr(args, "results", None)
                   else outdir)
        scale, frm = None, getattr(args, "scale_from", None)
        if frm:
            if frm == args.size:
                raise ReproError(f"--scale-from {frm}: the size being estimated; name another size")
            froot = args.results if getattr(args, "results", None) else os.path.dirname(outdir)
            fdir = os.path.join(froot, f"{paper.name}-{frm}")
            if not os.path.isdir(os.path.join(fdir, "sweeps")):
                raise ReproError(f"--scale-from {frm}: no results folder {fdir} (run `warpsim reproduce "
                                 f"{paper.name} --size {frm}` first, or name its parent with --results)")
            scale = (prepare(paper, frm, benches, checker), fdir)
            if only:
                scale = ([p for p in scale[0] if p[0] in only], fdir)
        sys.stdout.write(f"{paper.name} at --size {args.size}: the runs in {results} by their measured CPU time; "
                         + (f"the others measured in {scale[1]} by that CPU time times the benchmark's warp "
                            f"instructions at {args.size} over those at {frm} (functional runs); "
                            if scale else "")
                         + f"the others: warp instructions of each benchmark (functional runs) over the speed of "
                         f"the run's configuration at {args.size} (timed on its first {estimate.SPEED_INSTS} "
                         f"warp instructions)\n")
        try:
            estimate.estimate(prepared, warpsim, os.path.join(outdir, "estimate-cache.json"), sys.stdout, results,
                              scale)
        except estimate.EstimateError as e:
            sys.stderr.write(f"warpsim reproduce --estimate: {e}\n")
            return 1
        return 0
    t0 = time.time()
    times, rc = {}, 0
    if not args.no_run:
        times, rc = run_all(prepared, outdir, warpsim, args.jobs, args.emit, args.quiet, only, args.retry_failed,
                            cores=getattr(args, "cores", None), per_run=getattr(args, "threads_per_run", None))
        if args.emit:
            sys.stdout.write(f"after the cluster jobs: warpsim reproduce {paper.name} --size {args.size} "
                             f"-o {shlex.quote(outdir)} --no-run  (writes the report)\n")
            return 0
        if rc == 130:
            return rc
        for msg in timeline_fig.run_specs(paper.timelines, outdir, args.size, warpsim):
            sys.stderr.write(f"timeline figure failed: {msg}\n")
            rc = rc or 1
    wall = time.time() - t0
    if not args.no_run and not only and not benches:   # a whole paper's runs: say which commit made them
        write_provenance(outdir, paper.name, args.size)
    write_report(paper, prepared, outdir, args.size, args.plot)
    if not args.no_run:
        sys.stderr.write(f"reproduce {paper.name} --size {args.size}: {runner.fmt_time(wall)} wall\n")
    return rc
