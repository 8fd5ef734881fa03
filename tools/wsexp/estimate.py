"""estimate.py - `warpsim reproduce PAPER --size S --estimate`: the single-core hours a paper's runs
need, from measured speed: each benchmark's warp instructions at the size its runs use (a
functional run, fast) divided by its timing-model speed (warp instructions per CPU second of a
timed run at `tiny` on the default configuration: the machine's load does not change it). Policies and configurations change a run's speed
only a little against the input's size, so every label of a benchmark gets the same estimate.
Measurements are kept in DIR/estimate-cache.json; nothing of the paper's sweeps is run.
"""

import os
import subprocess
import tempfile

from . import runner


class EstimateError(Exception):
    pass


def _measure(warpsim, bench, size, functional):
    """(warp instructions, seconds) of one run, from its stats JSON."""
    with tempfile.TemporaryDirectory(prefix="warpsim-estimate-") as d:
        out = os.path.join(d, "stats.json")
        cmd = [warpsim, "run", bench, "--size", size, "--json", out] + (["--functional"] if functional else [])
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise EstimateError(f"cannot run {warpsim}: {e.strerror}")
        stats = runner.read_json(out)
        if p.returncode != 0 or not isinstance(stats, dict):
            last = (p.stderr.strip().splitlines() or ["no statistics"])[-1]
            raise EstimateError(f"{' '.join(cmd)}: exit {p.returncode}: {last}")
    gpu = stats.get("gpu") if isinstance(stats.get("gpu"), dict) else {}
    insts = stats.get("warp_insts", gpu.get("warp_insts"))
    secs = stats.get("sim_cpu_seconds", stats.get("sim_seconds"))   # CPU time: the speed a free core gives
    if not isinstance(insts, (int, float)) or insts <= 0 or not isinstance(secs, (int, float)) or secs < 0:
        raise EstimateError(f"{' '.join(cmd)}: no warp instruction count or time in its statistics")
    return float(insts), float(secs)


def estimate(prepared, warpsim, cache_path, out):
    """Writes a table (sweep, runs, single-core hours) and returns the total hours."""
    cache = runner.read_json(cache_path) if os.path.exists(cache_path) else None
    cache = cache if isinstance(cache, dict) else {}

    def get(key, fn):
        if key not in cache:
            cache[key] = fn()
            runner.write_json(cache_path, cache)
        return cache[key]
    total, rows = 0.0, []
    for name, sp, av, runs in prepared:
        secs = 0.0
        for r in runs:
            insts = get(f"insts {r.benchmark} {r.size}", lambda: _measure(warpsim, r.benchmark, r.size, True)[0])
            speed = get(f"speed {r.benchmark}", lambda: (lambda m: m[0] / max(m[1], 1e-6))(
                _measure(warpsim, r.benchmark, "tiny", False)))
            secs += insts / speed
        rows.append((name, len(runs), secs / 3600))
        total += secs / 3600
    w = max([5] + [len(n) for n, _, _ in rows])
    out.write(f"{'sweep':<{w}}  {'runs':>6}  single-core hours\n")
    for n, k, h in rows:
        out.write(f"{n:<{w}}  {k:>6}  {h:12.2f}\n")
    out.write(f"{'total':<{w}}  {sum(k for _, k, _ in rows):>6}  {total:12.2f}\n")
    return total
