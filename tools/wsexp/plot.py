"""plot.py - every figure of wsexp, as PNG and SVG through python3-matplotlib or gnuplot, whichever
is there (matplotlib first). Four kinds: grouped bar charts (benchmarks in groups, one bar per
series, like the papers' IPC and MPKI figures), line plots (a metric over a swept value), span
charts (a row per warp, its intervals coloured by state: the timeline figures) and stacked bars
(a bar per warp in parts). With no plotting tool, Plotter.backend is None and Plotter.why says
what to install; nothing raises. Span charts and stacked bars always get their SVG written here
by hand (stdlib: each interval with its tooltip, thousands of them), their PNG through the backend.
Knows nothing about sweeps or timelines.
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


    def spans(self, base, title, t0, t1, rows, marks, colours, note=""):
        """rows [(label, [(a, b, key)])] top to bottom, each interval [a, b) in colours[key];
        marks [(x, first row, last row)]: a black vertical line across those rows; x spans
        [t0, t1]. Writes base.svg, and base.png with a backend; returns them (PNG first)."""
        _svg_spans(base + ".svg", title, t0, t1, rows, marks, colours, note)
        out = [base + ".svg"]
        if self.backend == "matplotlib":
            out.insert(0, _mpl_spans(base, title, t0, t1, rows, marks, colours))
        elif self.backend == "gnuplot":
            out.insert(0, _gp_spans(base, title, t0, t1, rows, marks, colours))
        return out

    def stacked(self, base, title, ylabel, cats, parts):
        """One bar per category, in parts: cats [(label, [value per part])], parts [(name, colour)]
        bottom first. Writes base.svg, and base.png with a backend; returns them (PNG first)."""
        _svg_stacked(base + ".svg", title, cats, parts)
        out = [base + ".svg"]
        if self.backend == "matplotlib":
            out.insert(0, _mpl_stacked(base, title, ylabel, cats, parts))
        elif self.backend == "gnuplot":
            out.insert(0, _gp_stacked(base, title, ylabel, cats, parts))
        return out


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

def _mpl_save(fig, base, svg=True):
    """Writes base.png and base.svg (svg False: the PNG only), closes the figure, returns the paths."""
    import matplotlib.pyplot as plt
    fig.tight_layout()
    out = [base + ".png", base + ".svg"] if svg else [base + ".png"]
    fig.savefig(out[0], dpi=110)
    if svg:
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


def _mpl_spans(base, title, t0, t1, rows, marks, colours):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    n = len(rows)
    fig, ax = plt.subplots(figsize=(10.0, max(2.6, 1.2 + 0.12 * n)))
    for i, (_, iv) in enumerate(rows):
        ax.broken_barh([(a, b - a) for a, b, _ in iv], (n - i - 0.4, 0.8),
                       facecolors=[colours.get(k, "#000000") for _, _, k in iv], linewidth=0)
    for x, r0, r1 in marks:
        ax.plot([x, x], [n - r1 - 0.5, n - r0 + 0.5], color="black", linewidth=0.8)
    ax.set_xlim(t0, t1)
    ax.set_ylim(0.3, n + 0.7)
    ax.set_yticks([n - i for i in range(n)])
    ax.set_yticklabels([lab for lab, _ in rows], fontsize=6)
    ax.set_xlabel("cycle")
    ax.set_title(title, fontsize=10)
    ax.legend(handles=[Patch(color=c, label=k) for k, c in colours.items()], fontsize=7, ncol=len(colours),
              loc="upper center", bbox_to_anchor=(0.5, -0.5 / (fig.get_figheight() - 1.0)), frameon=False)  # below the x label
    return _mpl_save(fig, base, svg=False)[0]


def _mpl_stacked(base, title, ylabel, cats, parts):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(10.0, 4.2))
    xs = list(range(len(cats)))
    bottom = [0.0] * len(cats)
    for j, (name, colour) in enumerate(parts):
        v = [vals[j] for _, vals in cats]
        ax.bar(xs, v, 0.8, bottom=bottom, color=colour, label=name)
        bottom = [b + x for b, x in zip(bottom, v)]
    ax.set_xticks(xs)
    ax.set_xticklabels([lab for lab, _ in cats], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    return _mpl_save(fig, base, svg=False)[0]


# ---- gnuplot ----

def _q(s):
    return "'" + str(s).replace("'", "''") + "'"


def _num(v):
    return "?" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.6g}"


def _run_gnuplot(base, body, width_px, height_px, svg=True):
    """Writes <base>.gp (kept, to re-render or restyle) and renders PNG and SVG (svg False: the PNG only)."""
    out = [base + ".png", base + ".svg"] if svg else [base + ".png"]
    script = ["set datafile missing '?'", "set termoption noenhanced"] + body
    text = ("set terminal pngcairo size %d,%d font 'Sans,9'\nset output %s\n" % (width_px, height_px, _q(out[0]))
            + "\n".join(script) + "\n")
    if svg:
        text += ("set terminal svg size %d,%d dynamic font 'Sans,10'\nset output %s\nreplot\n"
                 % (width_px, height_px, _q(out[1])))
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


def _gp_spans(base, title, t0, t1, rows, marks, colours):
    """Intervals as boxxyerror rectangles coloured by value, marks as line segments."""
    n = len(rows)
    with open(base + ".dat", "w") as f:
        for i, (_, iv) in enumerate(rows):
            for a, b, k in iv:
                f.write(f"{(a + b) / 2} {n - i} {(b - a) / 2} 0.4 0x{colours.get(k, '#000000')[1:]}\n")
        f.write("\n\n")  # index 1: the marks
        for x, r0, r1 in marks:
            f.write(f"{x} {n - r1 - 0.5}\n{x} {n - r0 + 0.5}\n\n")
    keys = []
    for k, (name, c) in enumerate(colours.items()):
        keys += [f"set object {k + 1} rect from graph {0.01 + 0.098 * k}, screen 0.02 to graph {0.03 + 0.098 * k}, "
                 f"screen 0.045 fc rgb '{c}' fs solid noborder",
                 f"set label {k + 1} {_q(name)} at graph {0.035 + 0.098 * k}, screen 0.032 font ',8'"]
    dat = _q(base + ".dat")
    body = [f"set title {_q(title)}", f"set xrange [{t0}:{t1}]", f"set yrange [0.3:{n + 0.7}]",
            "set ytics (" + ", ".join(f"{_q(lab)} {n - i}" for i, (lab, _) in enumerate(rows)) + ") font ',7'",
            "set xlabel 'cycle'", "set bmargin 6", "unset key"] + keys
    body.append(f"plot {dat} index 0 using 1:2:3:4:5 with boxxyerror fs solid noborder lc rgb variable"
                + (f", {dat} index 1 using 1:2 with lines lc rgb 'black' lw 1" if marks else ""))
    return _run_gnuplot(base, body, 1000, max(260, 60 + 12 * n + 60), svg=False)[0]


def _gp_stacked(base, title, ylabel, cats, parts):
    with open(base + ".dat", "w") as f:
        for lab, vals in cats:
            f.write(" ".join(_num(v) for v in vals) + ' "%s"\n' % str(lab).replace('"', "'"))
    dat, lab = _q(base + ".dat"), len(parts) + 1
    body = [f"set title {_q(title)}", "set style data histograms", "set style histogram rowstacked",
            "set style fill solid noborder", "set boxwidth 0.8", f"set ylabel {_q(ylabel)}",
            "set xtics rotate by 60 right font ',8'", "set key below",
            "set yrange [0:*]"]
    body.append("plot " + ", ".join(f"{dat} using {j + 1}" + (f":xtic({lab})" if j == 0 else "")
                                    + f" lc rgb '{c}' title {_q(name)}" for j, (name, c) in enumerate(parts)))
    return _run_gnuplot(base, body, 1000, 420, svg=False)[0]


# ---- SVG by hand: span charts and stacked bars (stdlib) ----

def _esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _svg_spans(path, title, t0, t1, rows, marks, colours, note):
    W, rowh, left, top = 960, 10, 80, 28
    H = top + len(rows) * rowh + 60
    sx = lambda t: left + (t - t0) * (W - left - 12) / max(1, t1 - t0)
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="9">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{left}" y="16" font-size="12">{_esc(title)}</text>']
    y = top
    for lab, iv in rows:
        last = None
        for a, b, k in iv:
            if sx(b) - sx(a) < 0.5 and last == (int(sx(a)), k):
                continue  # a sliver in a pixel already drawn in its colour
            last = (int(sx(a)), k)
            o.append(f'<rect x="{sx(a):.2f}" y="{y}" width="{max(0.4, sx(b) - sx(a)):.2f}" height="{rowh - 2}" '
                     f'fill="{colours.get(k, "#000")}"><title>{_esc(k)} {a}-{b}</title></rect>')
        o.append(f'<text x="{left - 4}" y="{y + rowh - 2}" text-anchor="end">{_esc(lab)}</text>')
        y += rowh
    for x, r0, r1 in marks:
        o.append(f'<line x1="{sx(x):.2f}" x2="{sx(x):.2f}" y1="{top + r0 * rowh - 1}" y2="{top + r1 * rowh + rowh - 1}" '
                 f'stroke="black" stroke-width="0.8"/>')
    y += 14
    o.append(f'<text x="{left}" y="{y}">cycles {t0} to {t1}{"; " + _esc(note) if note else ""}</text>')
    x = left
    y += 16
    for k, col in colours.items():
        o.append(f'<rect x="{x}" y="{y - 8}" width="10" height="8" fill="{col}"/><text x="{x + 13}" y="{y}">{_esc(k)}</text>')
        x += 16 + 6 * len(k) + 12
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


def _svg_stacked(path, title, cats, parts):
    W, H, left, bottom, top = 960, 360, 60, 70, 30
    n = max(1, len(cats))
    mx = max([sum(v for v in vals if v) for _, vals in cats] + [1])
    bw = (W - left - 12) / n
    sy = lambda v: (H - bottom) - v * (H - bottom - top) / mx
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="9">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{left}" y="16" font-size="12">{_esc(title)}</text>',
         f'<line x1="{left}" x2="{left}" y1="{top}" y2="{H - bottom}" stroke="black"/>',
         f'<text x="{left - 4}" y="{top + 4}" text-anchor="end">{mx}</text>',
         f'<text x="{left - 4}" y="{H - bottom}" text-anchor="end">0</text>']
    for i, (lab, vals) in enumerate(cats):
        x, base = left + i * bw + 1, 0
        for (name, colour), v in zip(parts, vals):
            v = v or 0
            o.append(f'<rect x="{x:.2f}" y="{sy(base + v):.2f}" width="{max(0.5, bw - 2):.2f}" '
                     f'height="{sy(base) - sy(base + v):.2f}" fill="{colour}"><title>{_esc(lab)}: {_esc(name)} '
                     f'{v}</title></rect>')
            base += v
        o.append(f'<text transform="translate({x + bw / 2:.2f},{H - bottom + 4}) rotate(60)">{_esc(lab)}</text>')
    x, y = left, H - 12
    for name, colour in parts:
        o.append(f'<rect x="{x}" y="{y - 8}" width="10" height="8" fill="{colour}"/>'
                 f'<text x="{x + 13}" y="{y}">{_esc(name)}</text>')
        x += 13 + 6 * len(name) + 24
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


def remove_stale(base):
    for ext in (".png", ".svg", ".gp", ".dat"):
        try:
            os.remove(base + ext)
        except FileNotFoundError:
            pass
