"""seriesfig.py - `kind=series` figures of `warpsim reproduce`: a quantity over time that a policy
or observer wrote to a file during a run (CAWA's critical-warp priority, the bypassing paper's
TB_bg, ...), drawn as lines, one per run (and per y column).

    figure fig12 kind=series sweep=main paper="Figure 12" title="..." bench=bfs
                 series=sched:lrr,gcaws file=cpl-priority.txt columns=cycle,rank,warps x=cycle y=rank
                 filter=sm:0 ylabel="rank" xlabel="cycle"

The sweep makes each run write the file into its own run directory with the `{rundir}`
placeholder in a set value (`set observer.cpl.priority_file={rundir}/cpl-priority.txt`; spec.py).
Keys: bench= one or more benchmarks (comma-separated), series=DIM:L1,L2 (one line per label),
where=DIM:L (the other dims), file= the file's name in the run directory, columns= the names of
its whitespace-separated columns ('#' lines are comments), x= and y= column names (y may list
several), filter=COL:VALUE,... (rows kept; numbers compare as numbers), xlabel=, ylabel=, note=,
needs=. Instead of a file, stat=PREFIX takes the series from the run's statistics: the numbered
statistics PREFIX00, PREFIX01, ... (iWarp's throttled_warps_windowNN) are the y values, their
numbers times xscale= (a number, or a configuration key of the run: sched.iwarp.sample_cycles)
the x values. Writes figures/ID.csv (series,x,y per point) and the picture; report.md gets a table per
line: points, x range, y minimum, mean and maximum.
Stdlib only.
"""

import csv
import io
import os

from . import runner

KEYS = {"bench", "file", "columns", "x", "y", "filter", "xlabel", "stat", "xscale"}
PLAIN_ONLY = {"metric", "labels", "norm", "mean", "groups"}


class SeriesError(Exception):
    pass


def _list(v):
    return [x for x in (v or "").split(",") if x]


class SeriesFigure:
    """Parsed like a figure line; `sel(where)` is reproduce._sel (DIM:LABEL lists)."""

    def __init__(self, fid, kv, where, sel):
        self.id, self.where, self.kind = fid, where, "series"
        self.stat = kv.get("stat")
        if self.stat:
            bad = sorted(k for k in ("file", "columns", "x", "y", "filter") if k in kv)
            if bad:
                raise SeriesError(f"{where}: figure {fid}: stat= takes the series from the statistics; "
                                  f"{', '.join(bad)} name a file's columns")
            kv = dict(kv, file="stats.json", columns="window,value", x="window", y="value")
        elif "xscale" in kv:
            raise SeriesError(f"{where}: figure {fid}: xscale= goes with stat=")
        self.xscale = kv.get("xscale", "1")
        for k in ("sweep", "bench", "file", "columns", "x", "y"):
            if k not in kv:
                raise SeriesError(f"{where}: figure {fid} (kind=series) needs {k}= (or stat=)")
        bad = sorted(k for k in kv if k in PLAIN_ONLY)
        if bad:
            raise SeriesError(f"{where}: figure {fid}: {', '.join(bad)} do not apply to kind=series")
        self.sweep = kv["sweep"]
        self.title = kv.get("title", fid)
        self.paper = kv.get("paper", fid)
        self.benches = _list(kv["bench"])
        self.file = kv["file"]
        if not self.file or "/" in self.file or self.file in (".", ".."):
            raise SeriesError(f"{where}: file= is a file name in the run directory, got '{self.file}'")
        self.columns = _list(kv["columns"])
        self.x = kv["x"]
        self.ys = _list(kv["y"])
        self.filter = []
        for part in _list(kv.get("filter")):
            col, colon, val = part.partition(":")
            if not colon or not col:
                raise SeriesError(f"{where}: filter= is COLUMN:VALUE,..., got '{part}'")
            self.filter.append((col, val))
        for c in [self.x] + self.ys + [c for c, _ in self.filter]:
            if c not in self.columns:
                raise SeriesError(f"{where}: column '{c}' is not in columns= ({', '.join(self.columns)})")
        sdim, colon, slabs = kv.get("series", "").partition(":")
        self.series_dim = sdim or None
        self.series = [x for x in slabs.split(",") if x] if colon else []
        if self.series_dim and not self.series:
            raise SeriesError(f"{where}: series= is DIM:LABEL,LABEL...")
        self.fixed = sel(kv.get("where"), where)
        self.norm = {}
        self.metrics = []
        self.xlabel = kv.get("xlabel", self.x)
        self.ylabel = kv.get("ylabel", ", ".join(self.ys))
        self.note = kv.get("note", "")
        self.needs = kv.get("needs")

    def sels(self):
        return [dict(self.fixed, **({self.series_dim: s} if self.series_dim else {})) for s in (self.series or [None])]


def check_sweep(fig, sp):
    """The sweep has the benchmarks and writes the file into the run directory (a set value with
    {rundir}/FILE, for every run or in the labels the figure draws)."""
    bad = [b for b in fig.benches if b not in sp.benchmarks]
    if bad:
        raise SeriesError(f"figure {fig.id}: sweep '{sp.name}' has no benchmark {', '.join(bad)}")
    if fig.stat:
        return
    want = "{rundir}/" + fig.file
    sets = list(sp.sets)
    for s in fig.sels():
        for d, lab in s.items():
            dd = sp.dim(d)
            sets += dd.sets.get(lab, []) if dd else []
    if not any(want in x for x in sets):
        raise SeriesError(f"figure {fig.id}: no set value of sweep '{sp.name}' writes {want} "
                          f"(e.g. set KEY={want})")


def _same(a, b):
    try:
        return float(a) == float(b)
    except ValueError:
        return a == b


def read_series(fig, path):
    """{y column: [(x, y)]} of the file's rows that pass the filter; raises SeriesError."""
    idx = {c: i for i, c in enumerate(fig.columns)}
    out = {y: [] for y in fig.ys}
    try:
        with open(path, errors="replace") as f:
            for n, line in enumerate(f, 1):
                w = line.split("#", 1)[0].split()
                if not w:
                    continue
                if len(w) < len(fig.columns):
                    raise SeriesError(f"{path}:{n}: {len(w)} columns, figure {fig.id} names {len(fig.columns)}")
                if any(not _same(w[idx[c]], v) for c, v in fig.filter):
                    continue
                try:
                    x = float(w[idx[fig.x]])
                    for y in fig.ys:
                        out[y].append((x, float(w[idx[y]])))
                except ValueError:
                    raise SeriesError(f"{path}:{n}: column {fig.x} or {', '.join(fig.ys)} is not a number")
    except OSError as e:
        raise SeriesError(f"cannot read {path}: {e.strerror}")
    return out


def stat_series(fig, row):
    """[(x, y)] from the numbered statistics of a run (report.Row)."""
    try:
        scale = float(fig.xscale)
    except ValueError:
        v = row.config.get(fig.xscale)
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise SeriesError(f"figure {fig.id}: xscale={fig.xscale} is neither a number nor a numeric key "
                              f"of the run's configuration")
        scale = float(v)
    pts = []
    for k, v in row.stats.items():
        tail = k[len(fig.stat):]
        if k.startswith(fig.stat) and tail.isdigit() and isinstance(v, (int, float)):
            pts.append((int(tail) * scale, float(v)))
    return sorted(pts)


def _fmt(v):
    return f"{v:.4g}" if isinstance(v, float) and v != int(v) else f"{int(v)}"


def data(fig, sd, av, needs_of, runs_dir):
    """(lines [(name, [(x, y)])], why-not or None, remarks). sd: reproduce.SweepData."""
    if fig.needs:
        return None, f"needs {fig.needs}", []
    lines, remarks = [], []
    avail = [s for s in fig.sels() if not needs_of(av, s)]
    if not avail:
        return None, needs_of(av, fig.sels()[0]), []
    for b in fig.benches:
        for s in avail:
            rows = [r for r in (sd.index.get(b, []) if sd.data else [])
                    if all(r.labels.get(d) == lab for d, lab in s.items())]
            lab = s.get(fig.series_dim) if fig.series_dim else None
            name = " ".join(x for x in ((b if len(fig.benches) > 1 else ""), lab or "") if x) or b
            if not rows or not rows[0].ok():
                remarks.append(f"{name}: no finished run")
                continue
            if fig.stat:
                pts = stat_series(fig, rows[0])
                if not pts:
                    remarks.append(f"{name}: no statistic {fig.stat}NN")
                else:
                    lines.append((name, pts))
                continue
            path = os.path.join(runs_dir, rows[0].id, fig.file)
            if not os.path.exists(path):
                remarks.append(f"{name}: the run wrote no {fig.file} (the sweep must set a key to "
                               f"{{rundir}}/{fig.file})")
                continue
            pts = read_series(fig, path)
            for y in fig.ys:
                if not pts[y]:
                    remarks.append(f"{name}: no rows" + (f" with {', '.join(f'{c} {v}' for c, v in fig.filter)}"
                                                         if fig.filter else ""))
                    continue
                lines.append((name + (f" {y}" if len(fig.ys) > 1 else ""), pts[y]))
    return lines, None, remarks


def draw(fig, lines, outdir, pl):
    base = os.path.join(outdir, "figures", fig.id)
    os.makedirs(os.path.dirname(base), exist_ok=True)
    s = io.StringIO()
    w = csv.writer(s, lineterminator="\n")
    w.writerow(["series", fig.x] + (fig.ys if len(fig.ys) == 1 else ["value"]))
    for name, pts in lines:
        for x, y in pts:
            w.writerow([name, f"{x:.10g}", f"{y:.10g}"])
    runner.atomic_write(base + ".csv", s.getvalue())
    if not pl.backend or not lines:
        return []
    xs = sorted({x for _, pts in lines for x, _ in pts})
    series = []
    for name, pts in lines:
        at = dict(pts)   # a repeated x (two periods ending in one cycle): the last row
        series.append((name, [at.get(x) for x in xs]))
    return pl.lines(base, f"{fig.paper}: {fig.title}", fig.xlabel, fig.ylabel, xs, series, None, logx=False)


def table(lines):
    """Rows for report.md: line | points | x from | x to | y min | y mean | y max."""
    out = []
    for name, pts in lines:
        ys = [y for _, y in pts]
        out.append((name, len(pts), _fmt(pts[0][0]), _fmt(pts[-1][0]), _fmt(min(ys)), f"{sum(ys) / len(ys):.4g}",
                    _fmt(max(ys))))
    return out
