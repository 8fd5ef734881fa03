"""plot.py - figures as PNG and SVG through python3-matplotlib or gnuplot, whichever is there
(matplotlib first). Two kinds: grouped bar charts (benchmarks in groups, one bar per series,
like the papers' IPC and MPKI figures) and line plots (a metric over a swept value). With no
plotting tool, Plotter.backend is None and Plotter.why says what to install; nothing raises.
Knows nothing about sweeps.
"""

import math
import os
import shutil
import subprocess

INSTALL_HINT = "install gnuplot or python3-matplotlib (tools/setup-debian.sh installs gnuplot)"


class PlotError(Exception):
    pass


def _has_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True
    except Exception:
        return False


class Plotter:
    def __init__(self, which="auto"):
        self.backend, self.why = None, ""
        if which in ("auto", "matplotlib") and _has_matplotlib():
            self.backend = "matplotlib"
        elif which in ("auto", "gnuplot") and shutil.which("gnuplot"):
            self.backend = "gnuplot"
        elif which == "none":
            self.why = "figures not requested (--plot none)"
        else:
            want = {"auto": "no plotting tool found", "matplotlib": "python3 cannot import matplotlib",
                    "gnuplot": "gnuplot is not on PATH"}.get(which, f"unknown plotting tool '{which}'")
            self.why = f"{want}: figures skipped; {INSTALL_HINT}"

    def bars(self, base, title, ylabel, blocks, series, ref=None, logy=None):
        """blocks: [(group name or None, [(category, [value per series or None])])]; logy None: a
        log y axis when the values span two orders of magnitude (log_y), else as given."""
        if logy is None:
            logy = log_y(v for _, cats in blocks for _, vals in cats for v in vals)
        if logy:
            blocks = [(g, [(c, [_positive(v) for v in vals]) for c, vals in cats]) for g, cats in blocks]
        if self.backend == "matplotlib":
            return _mpl_bars(base, title, ylabel, blocks, series, ref, logy)
        if self.backend == "gnuplot":
            return _gp_bars(base, title, ylabel, blocks, series, ref, logy)
        return []

    def lines(self, base, title, xlabel, ylabel, xs, series, ref=None, logx=None, logy=None):
        """series: [(name, [y per x or None])]; xs numeric; logx None: a log2 x axis when the xs
        span a factor of 8 (warp limits), else as given; logy as for bars."""
        if logy is None:
            logy = log_y(v for _, ys in series for v in ys)
        if logy:
            series = [(n, [_positive(v) for v in ys]) for n, ys in series]
        if self.backend == "matplotlib":
            return _mpl_lines(base, title, xlabel, ylabel, xs, series, ref, logx, logy)
        if self.backend == "gnuplot":
            return _gp_lines(base, title, xlabel, ylabel, xs, series, ref, logx, logy)
        return []


def _log2(xs):
    """A log2 x axis when the values are positive and span a factor of 8 or more (warp limits)."""
    xs = [x for x in xs if x is not None]
    return bool(xs) and min(xs) > 0 and max(xs) / min(xs) >= 8


def log_y(values):
    """A log y axis when the positive values span two orders of magnitude or more (MPKI of a
    thrashing and a streaming benchmark side by side): on a linear axis the small ones are
    invisible. Values of 0 or below are not drawn on it (the tables under a figure give them)."""
    vs = [v for v in values if v is not None and v > 0]
    return bool(vs) and max(vs) / min(vs) >= 100


def _positive(v):
    return v if v is not None and v > 0 else None


def _bar_width_inches(ncat, nser):
    return min(24.0, max(6.0, 1.2 + ncat * (0.18 * nser + 0.25)))


# ---- matplotlib ----

def _mpl_save(fig, base):
    """Writes base.png and base.svg, closes the figure, returns the paths."""
    import matplotlib.pyplot as plt
    fig.tight_layout()
    out = [base + ".png", base + ".svg"]
    fig.savefig(out[0], dpi=110)
    fig.savefig(out[1])
    plt.close(fig)
    return out


def _mpl_bars(base, title, ylabel, blocks, series, ref, logy=False):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ncat = sum(len(c) for _, c in blocks)
    fig, ax = plt.subplots(figsize=(_bar_width_inches(ncat, len(series)), 3.6))
    width = 0.8 / max(1, len(series))
    x, ticks, names, seps = 0.0, [], [], []
    for bi, (g, cats) in enumerate(blocks):
        start = x
        for cat, vals in cats:
            for i, v in enumerate(vals):
                if v is not None:
                    ax.bar(x + (i - (len(series) - 1) / 2) * width, v, width, color=f"C{i % 10}",
                           edgecolor="black", linewidth=0.4)
            ticks.append(x)
            names.append(cat)
            x += 1.0
        if g:
            ax.text((start + x - 1) / 2, 1.01, g, transform=ax.get_xaxis_transform(), ha="center", va="bottom", fontsize=8)
        if bi < len(blocks) - 1:
            seps.append(x - 0.5 + 0.25)
            x += 0.5
    for s in seps:
        ax.axvline(s, color="grey", linestyle=":", linewidth=0.8)
    if ref is not None:
        ax.axhline(ref, color="black", linewidth=0.6)
    if logy:
        ax.set_yscale("log")
    ax.set_xticks(ticks)
    ax.set_xticklabels(names, rotation=35, ha="right", fontsize=9)
    ax.set_xlim(-0.6, x - 0.4)
    ax.set_ylabel(ylabel + (" (log scale)" if logy else ""))
    ax.set_title(title, fontsize=11, pad=14)
    for i, s in enumerate(series):
        ax.bar(0, 0, 0, color=f"C{i % 10}", edgecolor="black", linewidth=0.4, label=s)
    ax.legend(fontsize=8, ncol=min(len(series), 6), loc="upper center", bbox_to_anchor=(0.5, -0.32), frameon=False)
    ax.grid(axis="y", linewidth=0.3)
    return _mpl_save(fig, base)


def _mpl_lines(base, title, xlabel, ylabel, xs, series, ref, logx=None, logy=False):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for i, (name, ys) in enumerate(series):
        pts = [(x, y) for x, y in zip(xs, ys) if y is not None]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="osD^v"[i // 10 % 5], markersize=3, label=name,
                    color=f"C{i % 10}", linestyle=("-", "--", ":", "-.")[i // 10 % 4])
    if _log2(xs) if logx is None else logx:
        ax.set_xscale("log", base=2)
        ax.set_xticks(sorted(set(x for x in xs if x is not None)))
        ax.set_xticklabels([f"{x:g}" for x in sorted(set(x for x in xs if x is not None))])
        ax.minorticks_off()
    if logy:
        ax.set_yscale("log")
    if ref is not None:
        ax.axhline(ref, color="black", linewidth=0.6)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel + (" (log scale)" if logy else ""))
    ax.set_title(title, fontsize=11)
    ax.grid(linewidth=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    return _mpl_save(fig, base)


# ---- gnuplot ----

def _q(s):
    return "'" + str(s).replace("'", "''") + "'"


def _num(v):
    return "?" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.6g}"


def _run_gnuplot(base, body, width_px, height_px):
    """Writes <base>.gp (kept, to re-render or restyle) and renders PNG and SVG."""
    out = [base + ".png", base + ".svg"]
    script = ["set datafile missing '?'", "set termoption noenhanced"] + body
    text = ("set terminal pngcairo size %d,%d font 'Sans,9'\nset output %s\n" % (width_px, height_px, _q(out[0]))
            + "\n".join(script) + "\n"
            + "set terminal svg size %d,%d dynamic font 'Sans,10'\nset output %s\nreplot\n" % (width_px, height_px, _q(out[1])))
    with open(base + ".gp", "w") as f:
        f.write(text)
    try:
        p = subprocess.run(["gnuplot", base + ".gp"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        raise PlotError(f"gnuplot failed: {e}")
    if p.returncode != 0:
        raise PlotError(f"gnuplot failed on {base}.gp: {p.stderr.strip()[-500:]}")
    return out


def _gp_bars(base, title, ylabel, blocks, series, ref, logy=False):
    rows, labels, seps = [], [], []
    for bi, (g, cats) in enumerate(blocks):
        start = len(rows)
        for cat, vals in cats:
            rows.append((cat, vals))
        if g:
            labels.append(((start + len(rows) - 1) / 2, g))
        if bi < len(blocks) - 1:
            seps.append(len(rows))
            rows.append(("", [None] * len(series)))  # a gap between groups
    with open(base + ".dat", "w") as f:
        f.write("category " + " ".join('"%s"' % s.replace('"', "'") for s in series) + "\n")
        for cat, vals in rows:
            f.write('"%s" ' % cat.replace('"', "'") + " ".join(_num(v) for v in vals) + "\n")
    body = ["set style data histograms", "set style histogram clustered gap 1",
            "set style fill solid 0.85 border -1", "set boxwidth 0.9",
            "set title %s" % _q(title), "set ylabel %s" % _q(ylabel + (" (log scale)" if logy else "")),
            "set xtics rotate by -35 scale 0 font ',9'", "set grid ytics lw 0.5",
            "set key outside bottom center horizontal font ',9'",
            "set logscale y\nset yrange [*:*]" if logy else "set yrange [0:*]",
            "set xrange [-0.6:%g]" % (len(rows) - 0.4), "set tmargin 4"]
    for x, g in labels:
        body.append("set label %s at %g, graph 1.03 center font ',8'" % (_q(g), x))
    for s in seps:
        body.append("set arrow from %g, graph 0 to %g, graph 1 nohead dt 3 lc 'grey'" % (s, s))
    if ref is not None:
        body.append("set arrow from graph 0, first %g to graph 1, first %g nohead lc 'black' lw 0.8" % (ref, ref))
    body.append("plot for [i=2:%d] %s using i:xtic(1) title columnheader(i)" % (len(series) + 1, _q(base + ".dat")))
    ncat = sum(len(c) for _, c in blocks)
    return _run_gnuplot(base, body, int(_bar_width_inches(ncat, len(series)) * 100), 420)


def _gp_lines(base, title, xlabel, ylabel, xs, series, ref, logx=None, logy=False):
    with open(base + ".dat", "w") as f:
        f.write("x " + " ".join('"%s"' % s.replace('"', "'") for s, _ in series) + "\n")
        for j, x in enumerate(xs):
            f.write(_num(x) + " " + " ".join(_num(ys[j]) for _, ys in series) + "\n")
    body = ["set title %s" % _q(title), "set xlabel %s" % _q(xlabel),
            "set ylabel %s" % _q(ylabel + (" (log scale)" if logy else "")),
            "set grid lw 0.5", "set key outside right center font ',9'"]
    if logy:
        body.append("set logscale y")
    if _log2(xs) if logx is None else logx:
        body.append("set logscale x 2")
    if ref is not None:
        body.append("set arrow from graph 0, first %g to graph 1, first %g nohead lc 'black' lw 0.8" % (ref, ref))
    # 8 colours, then the next dash type and point type: every line stays distinguishable
    dat = _q(base + ".dat")
    body.append("plot " + ", \\\n     ".join(
        "%s using 1:%d with linespoints lt %d dt %d pt %d ps 0.6 title columnheader(%d)"
        % (dat, i + 2, i % 8 + 1, i // 8 % 5 + 1, i // 8 % 4 * 2 + 7, i + 2) for i in range(len(series))))
    return _run_gnuplot(base, body, 760, 440)


def remove_stale(base):
    for ext in (".png", ".svg", ".gp", ".dat"):
        try:
            os.remove(base + ext)
        except FileNotFoundError:
            pass
