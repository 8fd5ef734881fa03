"""report.py - a sweep's results as one CSV, normalised tables with geometric and harmonic means
over benchmark groups, the best-of operations (Best-SWL, Optimal-TLP, and best-P over labels P:N
or PN that differ in one key, e.g. CCWS's K_throttle values k1 ... k128) and the data of the
figures. Reads only the result directory (runner.py's layout); plotting is plot.py's job.

Vocabulary: a *dim* is a dimension of the sweep matrix (benchmark, size, config, seed, and each
axis of the sweep file); a *label* is one value of a dim ("lrr", "swl:8", "32K"). A table has one
row per benchmark, one column per label of the *column dim* (default: sched), and one section
per combination of the other dims that vary.
"""

import csv
import io
import os
import re

from . import means
from . import runner
from .runner import Results, read_json, STATES_OK

# The scheduler-cycles of SMs with resident warps: each one issues or counts one stall reason.
_SCHED_CYCLES = "+".join(["gpu.warp_insts"] + [f"gpu.sched_stall_cycles.{r}" for r in (
    "no_warp", "ibuffer", "scoreboard", "barrier", "unit_busy", "ldst_busy", "policy", "drain",
    "other_sched")])
# The bypass observer's loads by class, bypassed and cached.
_BYPASSED, _CACHED = ("+".join(f"gpu.policies.observers.bypass.loads_{c}_{w}" for c in ("ca", "cg", "cm"))
                      for w in ("bypassed", "cached"))
# name -> (stat column, title, unit, higher is better); a column may be 'a+b' or 'a/b+c' (Row.value)
METRICS = {
    "ipc": ("gpu.ipc_warp_insts_per_cycle", "IPC", "warp insts/cycle", True),
    "thread_ipc": ("gpu.ipc_thread_insts_per_cycle", "thread IPC", "thread insts/cycle", True),
    "cycles": ("gpu.cycles", "cycles", "cycles", False),
    "l1d_mpki": ("gpu.l1d_read_mpki", "L1D MPKI", "read misses/1000 warp insts", False),
    "l2_mpki": ("gpu.l2_read_mpki", "L2 MPKI", "read misses/1000 warp insts", False),
    "l1d_miss_rate": ("gpu.l1d_read_miss_rate", "L1D miss rate", "fraction", False),
    "load_latency": ("gpu.avg_load_latency_cycles", "load latency", "cycles", False),
    "l1d_hit_rate": ("gpu.l1d_read_hit_rate", "L1D hit rate", "fraction", True),
    "l1d_hit_rate_cached": ("gpu.l1d_read_hit_rate_cached", "L1D hit rate of the reads not bypassed", "fraction", True),
    "l1d_hits_same_warp_pki": ("gpu.l1d_read_hits_same_warp_pki", "L1D intra-warp hits PKI", "per 1000 warp insts", True),
    "l1d_hits_other_warp_pki": ("gpu.l1d_read_hits_other_warp_pki", "L1D inter-warp hits PKI", "per 1000 warp insts", True),
    "l1d_hits_same_thread_pki": ("gpu.l1d_read_hits_same_warp_same_thread_pki", "L1D intra-warp hits, intra-thread PKI", "per 1000 warp insts", True),
    "l1d_hits_other_thread_pki": ("gpu.l1d_read_hits_same_warp_other_thread_pki", "L1D intra-warp hits, inter-thread PKI", "per 1000 warp insts", True),
    "l1d_hits_other_thread_fraction": ("gpu.l1d_read_hits_same_warp_other_thread_fraction", "inter-thread share of L1D intra-warp hits", "fraction", False),
    "l1d_misses_same_warp_pki": ("gpu.l1d_read_misses_evicted_same_warp_pki", "L1D misses on lines the warp lost PKI", "per 1000 warp insts", False),
    "l1d_misses_other_warp_pki": ("gpu.l1d_read_misses_evicted_other_warp_pki", "L1D misses on lines another warp lost PKI", "per 1000 warp insts", False),
    "l1d_misses_cold_pki": ("gpu.l1d_read_misses_cold_pki", "L1D cold/other misses PKI", "per 1000 warp insts", False),
    "l1d_alloc_mpki": ("gpu.policies.observers.l1d-opt.online_mpki", "L1D allocating MPKI (sm.observers=l1d-opt)", "per 1000 warp insts", False),
    "l1d_opt_mpki": ("gpu.policies.observers.l1d-opt.opt_mpki", "L1D MPKI under Belady OPT (sm.observers=l1d-opt)", "per 1000 warp insts", False),
    "barrier_stall": ("gpu.barrier_stall_fraction", "barrier stall fraction", "fraction", False),
    "exit_stall": ("gpu.exit_stall_fraction", "exit stall fraction", "fraction", False),
    "rtru": ("gpu.rtru_barrier_phase", "RTRU", "fraction", False),
    "bar_wait": ("gpu.barrier_wait_per_phase", "barrier wait per barrier", "warp-cycles", False),
    "disparity": ("gpu.warp_time_disparity", "warp time disparity (mean)", "fraction", False),
    "disparity_max": ("gpu.warp_time_disparity_max", "warp time disparity (max)", "fraction", False),
    "ctas_per_sm": ("gpu.kernel_ctas_per_sm", "CTAs per SM (launches weighted by cycles)", "CTAs", False),
    "barrier_idle": (f"gpu.sched_stall_cycles.barrier/{_SCHED_CYCLES}", "scheduler-cycles idle at barriers",
                     "fraction of scheduler-cycles", False),
    "ldst_busy_idle": (f"gpu.sched_stall_cycles.ldst_busy/{_SCHED_CYCLES}", "scheduler-cycles idle behind a busy LD/ST unit",
                       "fraction of scheduler-cycles", False),
    "scoreboard_idle": (f"gpu.sched_stall_cycles.scoreboard/{_SCHED_CYCLES}", "scheduler-cycles idle on the scoreboard",
                        "fraction of scheduler-cycles", False),
    # the techniques' own statistics (their runs only): evidence of whether a mechanism acted
    "allowed_warps": ("gpu.policies.sched.allowed_warps_mean", "warps CCWS lets issue (mean)", "warps", False),
    "vta_hits_pki": ("gpu.policies.sched.vta_hits_per_kilo_inst", "VTA hits PKI", "per 1000 warp insts", False),
    "throttled_warps": ("gpu.policies.sched.throttled_warps_mean", "warps iWarp throttles (mean)", "warps", False),
    "bypassed_loads": (f"{_BYPASSED}/{_BYPASSED}+{_CACHED}", "share of loads bypassed", "fraction", False),
    "bg_ctas": ("gpu.policies.observers.bypass.bg_ctas/gpu.policies.observers.bypass.bg_ctas+"
                "gpu.policies.observers.bypass.ba_ctas", "share of CTAs bypassing (TB_bg)", "fraction", False),
    "ldst_resfail_stall": ("gpu.ldst_resfail_stall_cycles", "LD/ST stall cycles (L1D reservation fails)", "cycles", False),
    # CAWA's CPL statistics (the cpl observer, sm.observers = cpl)
    "cpl_accuracy": ("gpu.policies.observers.cpl.cpl_accuracy", "CPL accuracy (critical warp ranked slow)", "fraction", True),
    "crit_l1d_hit_rate": ("gpu.policies.observers.cpl.crit_l1d_hit_rate", "critical-warp L1D hit rate", "fraction", True),
    "crit_zero_reuse": ("gpu.policies.observers.cpl.crit_zero_reuse_fraction", "zero-reuse critical lines", "fraction", False),
    "insn_disparity": ("gpu.policies.observers.cpl.insn_disparity", "warp instruction-count disparity (mean)", "fraction", False),
    "insn_disparity_max": ("gpu.policies.observers.cpl.insn_disparity_max", "warp instruction-count disparity (max)", "fraction", False),
    "crit_reref_evicted": ("gpu.policies.observers.cpl.crit_reref_evicted", "critical-warp re-references evicted", "fraction", False),
    "crit_sched_wait": ("gpu.policies.observers.cpl.crit_sched_wait", "critical warp's scheduler wait (of its time)", "fraction", False),
    "crit_sched_wait_stall": ("gpu.policies.observers.cpl.crit_sched_wait_of_stall", "critical warp's scheduler wait (of its stalls)", "fraction", False),
}
BASE_DIMS = ("benchmark", "size", "config", "seed")
def stat_names(stat):
    """The statistics a column reads: 'a/b+c' -> ['a', 'b', 'c'] (Row.value)."""
    return stat.replace("/", "+").split("+")


runner.NUMERIC_STATS.update(s for stat, _, _, _ in METRICS.values() for s in stat_names(stat))


class ReportError(Exception):
    pass


# ---- means ----

def geomean(xs):
    """The mean of the values present (None: no result); a value it is not defined for raises MeanError."""
    xs = [x for x in xs if x is not None]
    return means.geometric(xs) if xs else None


def harmean(xs):
    xs = [x for x in xs if x is not None]
    return means.harmonic(xs) if xs else None


def arimean(xs):
    xs = [x for x in xs if x is not None]
    return means.arithmetic(xs) if xs else None


def _table_mean(fn, xs, t, where):
    """fn(xs) for a table cell; a mean that is not defined (a zero in a geometric mean) is no cell,
    and the table says why under it instead of leaving the value out."""
    try:
        return fn(xs)
    except means.MeanError as e:
        t.notes.append(f"{where}: {e}")
        return None


# ---- units of the CSV columns ----

def unit_of(name):
    leaf = name.rsplit(".", 1)[-1]
    if name in ("gpu.ipc_warp_insts_per_cycle",):
        return "warp insts/cycle"
    if name == "gpu.ipc_thread_insts_per_cycle":
        return "thread insts/cycle"
    if leaf.endswith("ctas_per_sm"):
        return "CTAs"
    if leaf.endswith("_mpki") or leaf.endswith("_pki"):
        return "per 1000 warp insts"
    if leaf.endswith("_rate") or "disparity" in leaf or leaf.endswith("_fraction") or leaf.startswith("rtru"):
        return "fraction"
    if "per_sec" in leaf:
        return ("thread" if "thread" in leaf else "warp") + " insts/s"
    if "seconds" in leaf:
        return "s"
    if "bytes_per_core_cycle" in leaf:
        return "bytes/cycle"
    if "bytes" in leaf:
        return "bytes"
    if ".sched_stall_cycles." in name:
        return "scheduler-cycles"
    if "cycles" in name or "latency" in leaf or ".delays." in name:
        return "cycles"
    if "thread_insts" in leaf:
        return "thread insts"
    if "warp_insts" in name:
        return "warp insts"
    if ".kernels" in name:
        return "launches"
    return "count"


def flatten(obj, prefix=""):
    """Scalar leaves of a stats JSON as dotted names; the per-kernel list becomes its length."""
    out = {}
    for k, v in obj.items():
        name = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(flatten(v, name + "."))
        elif isinstance(v, list):
            if k == "kernels":
                out[name] = len(v)
                # the CTAs per SM the launches ran with, weighted by their cycles (Optimal-TLP's
                # chosen limit against the occupancy limit: tlp-66 of the bypassing paper)
                ks = [x for x in v if isinstance(x, dict) and isinstance(x.get("ctas_per_sm"), (int, float))
                      and isinstance(x.get("cycles"), (int, float))]
                cyc = sum(x["cycles"] for x in ks)
                if cyc > 0:
                    out[prefix + "kernel_ctas_per_sm"] = sum(x["ctas_per_sm"] * x["cycles"] for x in ks) / cyc
        else:
            out[name] = v
    return out


# ---- loading ----

class Row:
    """One run (or a best-of row standing for the best of several runs)."""

    def __init__(self, run, status, stats, config):
        self.run = run
        self.id = run["id"]
        self.status = status or {}
        self.state = self.status.get("state", "pending")
        self.stats = flatten({k: v for k, v in (stats or {}).items() if k != "config"})
        self.config = config or {}
        self.labels = {"benchmark": run["benchmark"], "size": run["size"], "config": run["config"],
                       "seed": str(run["seed"])}
        self.labels.update(run.get("labels", {}))
        self.chosen = None  # best-of rows: (label, key value) of the run chosen

    def ok(self):
        return self.state in STATES_OK

    def value(self, stat):
        """A statistic; 'a+b' sums two, 'a/b+c' divides a by the sum b+c (None if any is missing or
        the divisor is 0)."""
        if not self.ok():
            return None
        if "/" in stat:
            num, den = stat.split("/", 1)
            n, d = self.value(num), self.value(den)
            return n / d if n is not None and d else None
        if "+" in stat:
            vals = [self.value(s) for s in stat.split("+")]
            return None if any(v is None for v in vals) else sum(vals)
        v = self.stats.get(stat)
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _place_programs(rows):
    """A user's program has no size or seed (size '-', seed 1). In a sweep whose benchmarks all
    have one size (or one seed), its rows take that label, so the program sits in the benchmarks'
    tables and plots instead of a section of its own; the CSV keeps the run's own values."""
    bench = [r for r in rows if not r.run.get("program")]
    for d in ("size", "seed"):
        labs = {r.labels[d] for r in bench}
        if len(labs) == 1:
            for r in rows:
                if r.run.get("program"):
                    r.labels[d] = next(iter(labs))


class Data:
    def __init__(self, path):
        self.results = Results(path)
        plan = self.results.read_plan()
        self.spec = plan.get("spec", {})
        self.rows = []
        for run in plan["runs"]:
            d = self.results.run_dir(run["id"])
            status = self.results.status(run["id"])  # "corrupt" when its results cannot be read back
            stats = read_json(os.path.join(d, "stats.json")) if status else None
            config = read_json(os.path.join(d, "config.json")) if status else None
            stats = stats if isinstance(stats, dict) else None
            config = config if isinstance(config, dict) else None
            self.rows.append(Row(run, status, stats, config))
        _place_programs(self.rows)
        self.dims = list(BASE_DIMS) + [d["name"] for d in self.spec.get("dims", [])]
        self.label_sets = {d["name"]: d.get("sets", {}) for d in self.spec.get("dims", [])}
        self.order = {}
        for dim in self.dims:
            seen = []
            for r in self.rows:
                lab = r.labels.get(dim)
                if lab is not None and lab not in seen:
                    seen.append(lab)
            self.order[dim] = seen
        self.groups = dict(self.spec.get("groups") or {})
        self.families = []

    def varying(self):
        return [d for d in self.dims if len(self.order[d]) > 1]

    def states(self):
        c = {}
        for r in self.rows:
            c[r.state] = c.get(r.state, 0) + 1
        return c


# ---- CSV: one row per run ----

def write_csv(data, path):
    stat_cols = []
    seen = set()
    for r in data.rows:
        for k in r.stats:
            if k not in seen:
                seen.add(k)
                stat_cols.append(k)
    cfg_keys = sorted({k for r in data.rows for k in r.config})
    varying_cfg = [k for k in cfg_keys if len({repr(r.config.get(k)) for r in data.rows if r.config}) > 1]
    axes = [d for d in data.dims if d not in BASE_DIMS]
    head = ["id", "index", "benchmark", "size", "config", "seed"] + axes
    head += ["state", "exit_status", "check", "message", "run_wall_seconds [s]"]
    head += [f"{c} [{unit_of(c)}]" for c in stat_cols]
    head += [f"config.{k}" for k in varying_cfg]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(head)
    for r in data.rows:
        st = r.status
        line = [r.id, r.run["index"]] + [str(r.run[d]) if d in ("size", "seed") else r.labels.get(d, "")
                                         for d in BASE_DIMS] + [r.labels.get(d, "") for d in axes]
        line += [r.state, st.get("exit_status", ""), st.get("check") or "", st.get("message", ""),
                 st.get("wall_seconds", "")]
        line += [r.stats.get(c, "") for c in stat_cols]
        line += [r.config.get(k, "") for k in varying_cfg]
        w.writerow(line)
    runner.atomic_write(path, buf.getvalue())
    return len(head)


# ---- best-of operations ----

class Family:
    """Labels of one dim that differ only in one config key (the warp limit of swl, the CTA
    limit): a best-of operation replaces them by one label holding, per benchmark and context,
    the member run that maximises the selection metric."""

    def __init__(self, kind, dim, key, name, members, xs, prefix=None):
        self.kind, self.dim, self.key, self.name = kind, dim, key, name
        self.members = members      # labels, in dim order
        self.xs = xs                # label -> numeric key value
        self.hide = []              # member labels left out of tables
        self.choices = []           # (context labels, chosen Row or None, best-of Row)
        # how the report names it: a title, the x axis of its line plot, a file-name tag
        if kind == "best-swl":
            self.what, self.xlabel, self.tag = ("Best-SWL: best static warp limit (sched.swl.limit)",
                                                "static warp limit (sched.swl.limit)", "swl")
        elif kind == "opt-tlp":
            self.what, self.xlabel, self.tag = ("Optimal-TLP: best CTA limit per SM (sm.max_ctas)",
                                                "CTAs per SM (sm.max_ctas)", "tlp")
        else:   # best-of: labels P:N that differ in one key
            self.what, self.xlabel, self.tag = (f"Best of {prefix}N: best {key}", key, prefix)


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _label_value(data, dim, label, key):
    """The resolved value of `key` under `label`: from the label's own overrides, else from
    the resolved config of its runs."""
    for s in data.label_sets.get(dim, {}).get(label, []):
        k, _, v = s.partition("=")
        if k == key:
            return v
    for r in data.rows:
        if r.labels.get(dim) == label and key in r.config:
            return r.config[key]
    return None


def find_families(data):
    fams = []
    for dim in data.dims:
        if dim in BASE_DIMS or dim not in data.label_sets:
            continue
        labels = data.order[dim]
        for kind, key, name, want in (("best-swl", "sched.swl.limit", "best-swl", "swl"),
                                      ("opt-tlp", "sm.max_ctas", "opt-tlp", None)):
            sig = {}
            for lab in labels:
                if want and str(_label_value(data, dim, lab, "sched.policy")) != want:
                    continue
                sets = data.label_sets[dim].get(lab, [])
                rest = tuple(s for s in sets if not s.startswith(key + "="))
                sig.setdefault(rest, []).append(lab)
            groups = [(rest, m) for rest, m in sig.items()
                      if len(m) >= 2 and any(any(s.startswith(key + "=") for s in data.label_sets[dim][lab]) for lab in m)]
            for i, (rest, members) in enumerate(groups):
                nm = name if len(groups) == 1 else f"{name}({'.'.join(s.split('=', 1)[1] for s in rest) or i})"
                xs = {lab: _num(_label_value(data, dim, lab, key)) for lab in members}
                if None in xs.values():
                    continue
                fam = Family(kind, dim, key, nm, members, xs)
                setters = [lab for lab in members if any(s.startswith(key + "=") for s in data.label_sets[dim][lab])]
                if len(labels) - len(setters) >= 1:
                    fam.hide = setters
                fams.append(fam)
        fams += _prefix_families(data, dim, labels, {m for f in fams if f.dim == dim for m in f.members})
    return fams


_MEMBER = re.compile(r"([A-Za-z][A-Za-z_-]*?):?([0-9]+(?:\.[0-9]+)?)")


def family_prefix(label):
    """P of a label `P:N` or `PN` (N a number: swl:8, tlp:2, k32), else None."""
    m = _MEMBER.fullmatch(label or "")
    return m.group(1) if m else None


def family_member(label, prefix):
    """Is `label` a member of the best-of family `best:prefix` (P:N or PN)?"""
    return family_prefix(label) == prefix


def _prefix_families(data, dim, labels, taken):
    """Best-of families of labels named P:N or PN (N a number; e.g. k1 ... k128, the
    K_throttle values of CCWS) not in a family yet: the labels of one P, two or more, whose
    settings differ in exactly one config key form the family best-P over that key (the
    report's counterpart of a claim's best:P, which reproduce.py resolves by family_member)."""
    by_prefix = {}
    for lab in labels:
        pre = family_prefix(lab)
        if pre and lab not in taken:
            by_prefix.setdefault(pre, []).append(lab)
    fams = []
    for pre, members in by_prefix.items():
        if len(members) < 2:
            continue
        sets = {lab: dict(s.partition("=")[::2] for s in data.label_sets[dim].get(lab, [])) for lab in members}
        keys = set().union(*sets.values())
        differ = [k for k in sorted(keys) if len({sets[lab].get(k) for lab in members}) > 1]
        if len(differ) != 1:
            continue
        key = differ[0]
        xs = {lab: _num(_label_value(data, dim, lab, key)) for lab in members}
        if None in xs.values():
            continue
        fam = Family("best-of", dim, key, f"best-{pre}", members, xs, prefix=pre)
        if len(labels) - len(members) >= 1:
            fam.hide = list(members)
        fams.append(fam)
    return fams


def apply_families(data, fams, best_by):
    """Adds the best-of rows and labels."""
    for fam in fams:
        ctx_rows = {}
        for r in data.rows:
            if r.labels.get(fam.dim) in fam.members:
                ctx = tuple((d, r.labels.get(d)) for d in data.dims if d != fam.dim)
                ctx_rows.setdefault(ctx, []).append(r)
        for ctx, rows in ctx_rows.items():
            best = None
            for r in rows:
                v = r.value(best_by)
                if v is not None and (best is None or v > best.value(best_by)):
                    best = r
            src = best or rows[0]
            b = Row(src.run, src.status if best else {"state": "failed"}, None, src.config)
            b.stats = src.stats
            b.state = src.state if best else "failed"
            b.labels = dict(src.labels, **{fam.dim: fam.name})
            b.id = f"{fam.name}:{src.id}"
            b.chosen = (src.labels[fam.dim], fam.xs[src.labels[fam.dim]]) if best else None
            data.rows.append(b)
            fam.choices.append((dict(ctx), best, b))
        order = data.order[fam.dim]
        pos = min(order.index(m) for m in (fam.hide or fam.members)) if fam.hide else len(order)
        order.insert(pos, fam.name)
        for h in fam.hide:
            order.remove(h)
    data.families = fams


# ---- tables ----

def benchmark_blocks(data):
    """[(group name, [benchmarks])...] in spec order; ungrouped benchmarks form 'other'."""
    benches = data.order["benchmark"]
    blocks = []
    grouped = set()
    for g, members in data.groups.items():
        m = [b for b in members if b in benches]
        if m:
            blocks.append((g, m))
            grouped.update(m)
    rest = [b for b in benches if b not in grouped]
    if rest and blocks:
        blocks.append(("other", rest))
    return blocks


class Table:
    """One section of one metric: cells[bench][col] = value (normalised or absolute)."""

    def __init__(self, metric, mode, title, cols, section):
        self.metric, self.mode, self.title, self.cols, self.section = metric, mode, title, cols, section
        self.cells = {}
        self.failed = {}      # bench -> {col: state}
        self.means = []       # (group, n benchmarks, {mean name: {col: value}})
        self.notes = []       # why a mean has no value


def metric_spec(m):
    name, _, mode = m.partition(":")
    if name in METRICS:
        stat, title, unit, hib = METRICS[name]
    else:
        stat, title, unit, hib = name, name, unit_of(name), True
    if mode not in ("", "norm", "abs"):
        raise ReportError(f"metric '{m}': mode must be :norm or :abs")
    mode = mode or ("norm" if name in ("ipc", "thread_ipc") else "abs")
    return name, stat, title, unit, mode


def build_tables(data, metrics, column, baseline):
    other = [d for d in data.varying() if d not in ("benchmark", column)]
    sections = [{}]
    for d in other:
        sections = [dict(s, **{d: lab}) for s in sections for lab in data.order[d]]
    cols = data.order[column] if column else [None]
    index = {}
    for r in data.rows:
        index[tuple((d, r.labels.get(d)) for d in data.dims)] = r
    blocks = benchmark_blocks(data)
    all_b = data.order["benchmark"]
    tables = []
    for m in metrics:
        name, stat, title, unit, mode = metric_spec(m)
        for sec in sections:
            desc = ", ".join(f"{d} {lab}" for d, lab in sec.items())
            fixed = {d: data.order[d][0] for d in data.dims if d not in other and d not in ("benchmark", column)}
            base_name = baseline if column == "sched" or _num(baseline) is None else f"{column} {baseline}"
            t = Table(name, mode, title + (f" normalised to {base_name}" if mode == "norm" else f" ({unit})"),
                      cols, desc)
            for b in all_b:
                vals, bad = {}, {}
                for c in cols:
                    labs = dict(fixed, **sec, benchmark=b)
                    if column:
                        labs[column] = c
                    r = index.get(tuple((d, labs.get(d)) for d in data.dims))
                    v = r.value(stat) if r else None
                    if r and not r.ok():
                        bad[c] = r.state
                    vals[c] = v
                if mode == "norm":
                    base = vals.get(baseline)
                    vals = {c: (v / base if v is not None and base else None) for c, v in vals.items()}
                t.cells[b], t.failed[b] = vals, bad
            for g, members in blocks + [("all", all_b)]:
                ms = {}
                for c in cols:
                    xs = [t.cells[b][c] for b in members]
                    at = f"{g}, {c if c is not None else 'value'}"
                    if mode == "norm":
                        ms.setdefault("geomean", {})[c] = _table_mean(geomean, xs, t, at)
                        ms.setdefault("harmonic mean", {})[c] = _table_mean(harmean, xs, t, at)
                    else:
                        ms.setdefault("mean", {})[c] = _table_mean(arimean, xs, t, at)
                        ms.setdefault("geomean", {})[c] = _table_mean(geomean, xs, t, at)
                t.means.append((g, members, ms))
            tables.append(t)
    return tables


def fmt(v, mode):
    if v is None:
        return "-"
    if mode == "norm":
        return f"{v:.3f}"
    a = abs(v)
    return f"{v:.3f}" if a < 10 else f"{v:.2f}" if a < 100 else f"{v:.1f}" if a < 1000 else f"{v:.0f}"


def table_text(t, blocks):
    cols = [c if c is not None else "value" for c in t.cols]
    w0 = max([18] + [len(b) + 2 for _, bs in blocks for b in bs])
    widths = [max(9, len(c) + 2) for c in cols]
    out = [t.title + (f"  [{t.section}]" if t.section else "")]
    out.append(f"{'benchmark':<{w0}}" + "".join(f"{c:>{w}}" for c, w in zip(cols, widths)))
    grouped = {g: (members, ms) for g, members, ms in t.means}
    show = [(g, bs) for g, bs in blocks] + [("all", None if blocks else grouped["all"][0])]
    for g, bs in show:
        members, ms = grouped[g]
        if len(show) > 1 or g != "all":
            out.append(f"-- {g}" + (f" ({len(members)} benchmarks)" if g == "all" else ""))
        for b in bs or []:
            cells = []
            for c, w in zip(t.cols, widths):
                v = t.cells[b][c]
                s = fmt(v, t.mode) if v is not None or c not in t.failed[b] else t.failed[b][c]
                cells.append(f"{s:>{w}}")
            out.append(f"{b:<{w0}}" + "".join(cells))
        for mname, vals in ms.items():
            out.append(f"{'  ' + mname:<{w0}}" + "".join(f"{fmt(vals[c], t.mode):>{w}}" for c, w in zip(t.cols, widths)))
    out += [f"  (no mean: {n})" for n in t.notes]
    return "\n".join(out)


def table_markdown(t, blocks):
    cols = [c if c is not None else "value" for c in t.cols]
    out = [f"**{t.title}**" + (f" ({t.section})" if t.section else ""), "",
           "| benchmark | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
    grouped = {g: (members, ms) for g, members, ms in t.means}
    for g, bs in [(g, bs) for g, bs in blocks] + [("all", None if blocks else grouped["all"][0])]:
        members, ms = grouped[g]
        for b in bs or []:
            cells = [fmt(t.cells[b][c], t.mode) if t.cells[b][c] is not None or c not in t.failed[b]
                     else t.failed[b][c] for c in t.cols]
            out.append(f"| {b} | " + " | ".join(cells) + " |")
        for mname, vals in ms.items():
            out.append(f"| *{g} {mname}* | " + " | ".join(fmt(vals[c], t.mode) for c in t.cols) + " |")
    if t.notes:
        out += [""] + [f"No mean: {n}." for n in t.notes]
    return "\n".join(out)


def table_csv(t, blocks, path):
    f = io.StringIO()
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["group", "benchmark"] + [c if c is not None else "value" for c in t.cols])
    num = lambda v: "" if v is None else f"{v:.10g}"
    for g, bs in blocks or [("all", t.means[-1][1])]:
        for b in bs:
            w.writerow([g, b] + [num(t.cells[b][c]) for c in t.cols])
    for g, members, ms in t.means:
        for mname, vals in ms.items():
            w.writerow([g, mname] + [num(vals[c]) for c in t.cols])
    runner.atomic_write(path, f.getvalue())


def family_text(fam, data, best_by, best_by_title):
    """Per benchmark (and context): the chosen limit and what it gives."""
    what = fam.what
    xs = sorted(set(fam.xs.values()))
    tried = " ".join(f"{x:g}" for x in xs)
    out = [f"{what} per benchmark, by {best_by_title}; {fam.dim} labels {fam.name}; tried: {tried}"]
    ctx_dims = [d for d in data.varying() if d not in ("benchmark", fam.dim)]
    head = f"{'benchmark':<18}" + "".join(f"{d:>14}" for d in ctx_dims) + f"{'limit':>8}{best_by_title:>12}"
    out.append(head)
    for ctx, best, b in fam.choices:
        if ctx.get("benchmark") is None:
            continue
        lim = f"{b.chosen[1]:g}" if b.chosen else b.state
        v = fmt(best.value(best_by) if best else None, "abs")
        out.append(f"{ctx['benchmark']:<18}" + "".join(f"{str(ctx.get(d)):>14}" for d in ctx_dims) + f"{lim:>8}{v:>12}")
    return "\n".join(out)
