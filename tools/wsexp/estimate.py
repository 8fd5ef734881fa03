"""estimate.py - `warpsim reproduce PAPER --size S --estimate`: the single-core hours a paper's runs
need. A run already in the results folder counts its own measured simulation CPU time. Any other run:
its benchmark's warp instructions at the size (a functional run: exact, fast) over the speed of that
run's own configuration at that size, timed on its first SPEED_INSTS warp instructions (a run
stopped by --max-insts). Both the policy (a VTA, MWF's priorities) and the input's size change the
cost of a warp instruction, so neither is taken from a default-configuration run at `tiny`.
With a results folder of the same paper at another size (`--scale-from SIZE`), a run not measured
at its own size but whose twin there is (the same benchmark, configuration and overrides) counts
the twin's CPU time times the benchmark's warp instructions at the size over those at SIZE: no
timed run, and a warp instruction taken to cost what it cost at SIZE.
Measurements are kept in DIR/estimate-cache.json; no run of the paper's sweeps is made whole.
"""

import os
import subprocess
import tempfile

from . import runner

# The warp instructions a speed measurement runs (one launch's, or the first launches' together):
# long enough to fill every SM and pass the first launch's start, about a second of CPU.
SPEED_INSTS = 1000000


class EstimateError(Exception):
    pass


def _stats(cmd, stats_path):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise EstimateError(f"cannot run {cmd[0]}: {e.strerror}")
    stats = runner.read_json(stats_path)
    gpu = stats.get("gpu") if isinstance(stats, dict) and isinstance(stats.get("gpu"), dict) else {}
    insts = stats.get("warp_insts", gpu.get("warp_insts")) if isinstance(stats, dict) else None
    secs = stats.get("sim_cpu_seconds", stats.get("sim_seconds")) if isinstance(stats, dict) else None
    # a run stopped by --max-insts exits 1 and still writes its statistics: that is the measurement
    if not isinstance(insts, (int, float)) or insts <= 0 or not isinstance(secs, (int, float)) or secs < 0:
        last = (p.stderr.strip().splitlines() or ["no statistics"])[-1]
        raise EstimateError(f"{' '.join(cmd)}: exit {p.returncode}: {last}")
    return float(insts), float(secs)


def count_insts(warpsim, bench, size):
    """Warp instructions of a benchmark at a size: a functional run."""
    with tempfile.TemporaryDirectory(prefix="warpsim-estimate-") as d:
        out = os.path.join(d, "stats.json")
        return _stats([warpsim, "run", bench, "--size", size, "--functional", "--json", out], out)[0]


def speed(warpsim, run):
    """Warp instructions per CPU second of the run's configuration on its first SPEED_INSTS."""
    with tempfile.TemporaryDirectory(prefix="warpsim-estimate-") as d:
        out = os.path.join(d, "run", "stats.json")
        os.makedirs(os.path.dirname(out))
        cmd = runner.command(warpsim, run, out) + ["--max-insts", str(SPEED_INSTS)]
        insts, secs = _stats(cmd, out)
    return insts / max(secs, 1e-6)


def cached_insts(cache_path):
    """{(benchmark, size): warp instructions} an estimate measured (its cache's "insts B S" keys);
    {} without a readable cache."""
    cache = runner.read_json(cache_path) if os.path.exists(cache_path) else None
    out = {}
    for k, v in (cache.items() if isinstance(cache, dict) else ()):
        parts = k.split(" ")
        if len(parts) == 3 and parts[0] == "insts" and isinstance(v, (int, float)) and not isinstance(v, bool) \
                and v > 0:
            out[(parts[1], parts[2])] = float(v)
    return out


def measured(results, sweep, run):
    """(CPU seconds, wall seconds) of the run in a results folder, or None where it has not run."""
    d = os.path.join(results, "sweeps", sweep, "runs", run.id)
    st, stats = runner.read_json(os.path.join(d, "status.json")), runner.read_json(os.path.join(d, "stats.json"))
    if not isinstance(st, dict) or st.get("state") != "ok" or not isinstance(stats, dict):
        return None
    # CPU time of the simulation; a results folder older than that statistic gives its wall time
    cpu, wall = stats.get("sim_cpu_seconds", stats.get("sim_seconds")), st.get("wall_seconds")
    if not isinstance(cpu, (int, float)) or cpu < 0:
        return None
    return float(cpu), float(wall) if isinstance(wall, (int, float)) else None


def _key(defn):
    """Runs with the same configuration (labels that set the same keys) share a speed."""
    return f"speed {defn['benchmark']} {defn['size']} {defn['config_path']} {' '.join(defn['sets'])}"


def twin_key(run):
    """What a run is apart from its size: its twin at another size has the same key."""
    return (run.benchmark, run.config, run.seed, tuple(run.sets), tuple(sorted(run.labels.items())))


def estimate(prepared, warpsim, cache_path, out, results=None, scale=None):
    """Writes a table (sweep, runs, runs measured[, runs scaled], single-core hours, and the longest
    run) and returns the total hours. results: a results folder of the same paper and size whose
    finished runs count as measured. scale: (the prepared sweeps at another size, the results
    folder made at it): a run measured there counts as its CPU time times the benchmark's
    instruction ratio."""
    cache = runner.read_json(cache_path) if os.path.exists(cache_path) else None
    cache = cache if isinstance(cache, dict) else {}

    def get(key, fn):
        if key not in cache:
            cache[key] = fn()
            runner.write_json(cache_path, cache)
        return cache[key]
    twins = {}
    if scale:
        for name, sp, av, runs in scale[0]:
            for r in runs:
                twins[(name, twin_key(r))] = r
    loads = []
    total, rows, walls = 0.0, [], [0.0, 0.0]   # measured runs' wall and CPU seconds
    longest = (0.0, None)
    for name, sp, av, runs in prepared:
        secs, nmeas, nscaled = 0.0, 0, 0
        for r in runs:
            before = secs
            m = measured(results, name, r) if results else None
            t = twins.get((name, twin_key(r))) if scale and not m else None
            mt = measured(scale[1], name, t) if t else None
            if m:
                secs += m[0]
                nmeas += 1
                if m[1] is not None:
                    walls[0], walls[1] = walls[0] + m[1], walls[1] + m[0]
            elif mt:
                mine = get(f"insts {r.benchmark} {r.size}", lambda: count_insts(warpsim, r.benchmark, r.size))
                theirs = get(f"insts {t.benchmark} {t.size}", lambda: count_insts(warpsim, t.benchmark, t.size))
                secs += mt[0] * mine / max(theirs, 1.0)
                nscaled += 1
            if m or mt:
                if secs - before > longest[0]:
                    longest = (secs - before, r)
                continue
            insts = get(f"insts {r.benchmark} {r.size}", lambda: count_insts(warpsim, r.benchmark, r.size))
            defn = r.definition()
            if defn.get("after") or any("{rundir:" in s for s in r.sets):
                # it reads another run's output (an oracle's profile, absent here): timed as the
                # benchmark's first run that reads none, or its default configuration
                other = next((x for x in runs if x.benchmark == r.benchmark and not x.after), None)
                defn = other.definition() if other else dict(defn, sets=[], after={})
            key = _key(defn)
            if key not in cache:
                loads.append(os.getloadavg()[0])
            secs += insts / get(key, lambda: speed(warpsim, defn))
            if secs - before > longest[0]:
                longest = (secs - before, r)
        rows.append((name, len(runs), nmeas, nscaled, secs / 3600))
        total += secs / 3600
    w = max([5] + [len(r[0]) for r in rows])
    sc = (lambda v: f"  {v:>6}") if scale else (lambda v: "")
    out.write(f"{'sweep':<{w}}  {'runs':>6}  {'measured':>8}{sc('scaled')}  single-core hours\n")
    for n, k, m, c, h in rows:
        out.write(f"{n:<{w}}  {k:>6}  {m:>8}{sc(c)}  {h:12.2f}\n")
    out.write(f"{'total':<{w}}  {sum(r[1] for r in rows):>6}  {sum(r[2] for r in rows):>8}"
              f"{sc(sum(r[3] for r in rows))}  {total:12.2f}\n")
    if longest[1] is not None:   # it bounds a sweep's wall time on any number of cores
        r = longest[1]
        labels = ", ".join(f"{k} {v}" for k, v in r.labels.items())
        out.write(f"longest run: {longest[0] / 3600:.2f} hours ({r.benchmark} at {r.size}"
                  f"{', ' + labels if labels else ''})\n")
    if walls[1] > 0:
        out.write(f"measured runs: their CPU time (sim_cpu_seconds) from {results}; their wall time was "
                  f"{walls[0] / walls[1]:.2f}x it (the machine's load while they ran)\n")
    if loads:
        out.write(f"new speed measurements made at a load average of {min(loads):.1f}-{max(loads):.1f} "
                  f"on {os.cpu_count()} cores (a loaded machine gives more CPU seconds per instruction)\n")
    return total
