#!/usr/bin/env python3
"""phase_chart.py - BAWS's warp-phase charts (Figures 3, 4, 6) from a phase-trace record.

Usage: tools/phase_chart.py RECORD [-o chart.svg] [--ctas N]  (N: only the first N CTAs of the record)

RECORD is the file of the phase-trace observer (src/policy/observer/phase_trace.c):
  warpsim run fwt --size small --sched gto --set sm.observers=phase-trace \
      --set observer.phase-trace.file=ph.txt --set observer.phase-trace.kernel=2
Draws one row per warp (grouped by CTA): executing (dark), waiting at a barrier (red),
retired and waiting for its CTA's exit (grey); a tick at each barrier release. Prints, per CTA and
warp-phase, the phase's length and RTRU = sum_i(maxT - T_i) / (N * maxT) (T_i: warp i's time from
the phase start to its arrival, or to its retirement in the exit phase), the number
src/sm/barrier_stats.c computes for every phase.
"""
import sys
from collections import defaultdict


def load(path):
    ev = []
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            p = line.split()
            ev.append((int(p[0]), int(p[1]), int(p[2]), p[3]))
    return ev


def phases(ev):
    """Per CTA: list of (start, end, {warp: T_end}, kind) with kind 'barrier' or 'exit'."""
    out = defaultdict(list)
    start, arr, ret, nw = {}, defaultdict(dict), defaultdict(dict), defaultdict(int)
    for cyc, cta, w, e in ev:
        if e == 'L':
            start.setdefault(cta, cyc)
            nw[cta] += 1
        elif e == 'A':
            arr[cta][w] = cyc
        elif e == 'X':
            ret[cta][w] = cyc
        elif e == 'R':
            waits = {k: v for k, v in arr[cta].items()}
            if waits:
                out[cta].append((start[cta], cyc, waits, 'barrier'))
            arr[cta] = {}
            start[cta] = cyc
        elif e == 'E':
            done = {k: v for k, v in ret[cta].items() if v >= start[cta]}
            out[cta].append((start[cta], cyc, done, 'exit'))
    return out


def rtru(s, e, ts):
    n, maxt = len(ts), e - s
    if not n or not maxt:
        return 0.0
    return sum(maxt - (t - s) for t in ts.values()) / (n * maxt)


def svg(ev, path):
    ctas = sorted({c for _, c, _, _ in ev})
    warps = {c: sorted({w for _, cc, w, e in ev if cc == c and w >= 0}) for c in ctas}
    t0 = min(e[0] for e in ev)
    t1 = max(e[0] for e in ev)
    W, rowh, left = 900, 8, 70
    rows = sum(len(warps[c]) + 1 for c in ctas)
    H = rows * rowh + 40
    sx = lambda t: left + (t - t0) * (W - left - 10) / max(1, t1 - t0)
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="9">']
    y = 10
    for c in ctas:
        o.append(f'<text x="2" y="{y + rowh}">CTA {c}</text>')
        for w in warps[c]:
            cur, state = None, 'run'
            evw = [(t, e) for t, cc, ww, e in ev if cc == c and (ww == w or e in 'RE')]
            for t, e in evw:
                if e == 'L':
                    cur, state = t, 'run'
                    continue
                if cur is None:
                    continue
                col = {'run': '#333', 'bar': '#d33', 'exit': '#aaa'}[state]
                if e in 'AXRE' and t > cur:
                    o.append(f'<rect x="{sx(cur):.1f}" y="{y}" width="{max(0.5, sx(t) - sx(cur)):.1f}" '
                             f'height="{rowh - 2}" fill="{col}"/>')
                if e == 'A':
                    cur, state = t, 'bar'
                elif e == 'X':
                    cur, state = t, 'exit'
                elif e == 'R' and state == 'bar':
                    cur, state = t, 'run'
                elif e == 'E':
                    cur = None
            o.append(f'<text x="{left - 4}" y="{y + rowh - 2}" text-anchor="end">w{w}</text>')
            y += rowh
        y += rowh
    o.append(f'<text x="{left}" y="{H - 8}">cycles {t0} .. {t1}; dark: executing, red: at a barrier, '
             f'grey: retired, waiting for the CTA exit</text></svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(o) + '\n')


def main(argv):
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    ev = load(argv[1])
    if '--ctas' in argv:
        keep = sorted({c for _, c, _, _ in ev})[:int(argv[argv.index('--ctas') + 1])]
        ev = [e for e in ev if e[1] in keep]
    if not ev:
        print(f'{argv[1]}: no events (is the window on that SM? see observer.phase-trace.cta_first)', file=sys.stderr)
        return 1
    for cta, ph in sorted(phases(ev).items()):
        for i, (s, e, ts, kind) in enumerate(ph):
            print(f'cta {cta} phase {i + 1} ({kind}): cycles {s}..{e} ({e - s}), warps {len(ts)}, '
                  f'RTRU {rtru(s, e, ts):.4f}')
    if '-o' in argv:
        svg(ev, argv[argv.index('-o') + 1])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
