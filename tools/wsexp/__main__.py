"""wsexp - the experiment workflow behind `warpsim sweep` and `warpsim report` (the warpsim
binary execs `python3 tools/wsexp <command> ...` with WARPSIM_BIN set to itself).

    warpsim sweep SPEC [-o DIR] [-j N] [--cores C] [--threads-per-run auto|N] [--retry-failed]
                       [--timeout S] [--dry-run] [--report]
    warpsim sweep SPEC --emit slurm|parallel [--per-task K] [--array-limit K] [--slurm-opt OPT]
    warpsim sweep --task DIR INDEX [--per-task K] [--force]     (the cluster entry point)
    warpsim report DIR [--metrics M,...] [--column DIM] [--baseline LABEL] [--out DIR]
                       [--plot auto|matplotlib|gnuplot|none] [--best-by STAT] [--no-best]
    warpsim reproduce PAPER [--size tiny|small|paper] [-j N] [--cores C] [--threads-per-run auto|N]
                      [-o DIR] [--emit slurm|parallel]
                      [--no-run] [--benchmarks a,b] [--plot ...];  warpsim reproduce --list

Exit status: 0 success, 1 some run failed (recorded) or a report step failed, 2 bad usage,
130 interrupted (rerun the same command to resume).
"""

import argparse
import copy
import os
import signal
import sys
import time

from . import claims, plot, program, report, reprodoc, reproduce, runner, spec, timeline_fig


class Usage(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise Usage(f"{self.prog}: {message}")


def _seconds(v):
    why = spec.timeout_problem(v)
    if why:
        raise argparse.ArgumentTypeError(why)
    return float(v)


def _count(noun, flag):
    """An argparse type: a whole number of `noun` of at least 1, for option `flag`."""
    def parse(v):
        try:
            n = int(v)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of {noun}, got '{v}'")
        if n < 1:
            raise argparse.ArgumentTypeError(f"{flag} must be at least 1")
        return n
    return parse


_jobs = _count("jobs", "-j")
_cores = _count("cores", "--cores")


def _per_run(v):
    """--threads-per-run: auto (None: the pool chooses) or a fixed count."""
    if v == "auto":
        return None
    try:
        n = int(v)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected auto or a number of threads, got '{v}'")
    if not 1 <= n <= 1024:
        raise argparse.ArgumentTypeError("--threads-per-run takes auto or 1-1024")
    return n


CORES_HELP = "cores the runs may use together (default: those this process may run on)"
PER_RUN_HELP = ("threads each run simulates on (sim.threads): auto (default) gives a run one while enough runs "
                "wait to fill the cores, and the cores no waiting run will take to the longest runs starting, "
                f"at most {runner.MAX_RUN_THREADS} each; runs start longest first (doc/experiments.md, \"Threads per "
                "run\"). N gives every run N (1: no threads). Results are identical for every N")


# ---- sweep ----

def pool_threads(per_run):
    """The pool's thread rule in words, for its first line."""
    if per_run is None:
        return "threads per run: auto"
    return f"{per_run} thread(s) per run"


def cmd_sweep(argv):
    p = Parser(prog="warpsim sweep", description="Expand a sweep file into runs and execute them.")
    p.add_argument("spec", nargs="?", help="sweep file")
    p.add_argument("-o", "--out", help="result directory (default results/<name>)")
    p.add_argument("-j", "--jobs", type=_jobs, default=None, help="parallel runs (default: --cores)")
    p.add_argument("--cores", type=_cores, default=None, help=CORES_HELP)
    p.add_argument("--threads-per-run", type=_per_run, default=None, metavar="auto|N", help=PER_RUN_HELP)
    p.add_argument("--retry-failed", action="store_true", help="run failed runs again")
    p.add_argument("--timeout", type=_seconds, help="seconds per run (overrides the sweep file)")
    p.add_argument("--dry-run", action="store_true", help="list the runs and their state; run nothing")
    p.add_argument("--report", action="store_true", help="run `warpsim report` on the results afterwards")
    p.add_argument("--emit", choices=("slurm", "parallel"), help="write a cluster run list instead of running")
    p.add_argument("--per-task", type=_jobs, default=1, help="runs per cluster task (default 1)")
    p.add_argument("--array-limit", type=_jobs, help="Slurm: at most K tasks at once (--array=...%%K)")
    p.add_argument("--slurm-opt", action="append", default=[], help="extra #SBATCH line, e.g. --partition=long")
    p.add_argument("--task", nargs=2, metavar=("DIR", "INDEX"), help="run manifest task INDEX of DIR")
    p.add_argument("--force", action="store_true", help="--task: run even if finished")
    p.add_argument("-q", "--quiet", action="store_true", help="no per-run lines")
    a = p.parse_args(argv)
    warpsim = runner.default_warpsim()
    if a.task:
        try:
            index = int(a.task[1])
        except ValueError:
            raise Usage(f"warpsim sweep --task: INDEX must be a number, got '{a.task[1]}'")
        try:
            return runner.run_task(runner.Results(a.task[0]), index, warpsim, a.per_task, a.force)
        except (RuntimeError, IndexError) as e:
            raise Usage(f"warpsim sweep --task: {e}")
    if not a.spec:
        raise Usage("warpsim sweep: which sweep file? (e.g. experiments/default.sweep)")
    try:
        sp = spec.parse(a.spec)
        runs = spec.expand(sp)
    except spec.SpecError as e:
        raise Usage(f"warpsim sweep: {e}")
    why = program.spec_problem(sp)
    if why:
        raise Usage(f"warpsim sweep: {why}")
    if a.timeout is not None:
        sp.timeout = a.timeout
    res = runner.Results(a.out or os.path.join("results", sp.name))
    if a.dry_run:
        for r in runs:
            st = res.status(r.id)
            print(f"{r.index:5d}  {(st or {}).get('state', 'pending'):<8}  {r.id}  {' '.join(r.sets)}")
        print(f"{len(runs)} runs -> {res.path}")
        return 0
    if not os.access(warpsim, os.X_OK):
        raise Usage(f"warpsim sweep: no warpsim binary at {warpsim} (run `make`, or set WARPSIM_BIN)")
    defs = res.write_plan(sp.to_json(), runs)
    if a.emit == "slurm":
        runner.emit_slurm(res, warpsim, a.per_task, a.array_limit, a.slurm_opt)
        return 0
    if a.emit == "parallel":
        runner.emit_parallel(res, warpsim, a.per_task)
        return 0
    cores = a.cores or runner.default_cores()
    jobs = a.jobs or cores
    print(f"sweep '{sp.name}': {len(defs)} runs, {jobs} at a time on {cores} core(s), "
          f"{pool_threads(a.threads_per_run)} -> {res.path}", file=sys.stderr, flush=True)
    t0 = time.time()
    counts, skipped, interrupted = runner.run_pool(res, defs, warpsim, jobs, sp.timeout, a.retry_failed,
                                                   quiet=a.quiet, cores=cores, per_run=a.threads_per_run)
    ran = sum(counts.values())
    parts = [f"{n} {s}" for s, n in sorted(counts.items(), key=lambda kv: (kv[0] != "ok", kv[0]))]
    msg = f"{ran} run(s) in {runner.fmt_time(time.time() - t0)}" + (f": {', '.join(parts)}" if parts else "")
    if skipped:
        msg += f"; {skipped} already finished (skipped)"
    print(msg, file=sys.stderr)
    if interrupted:
        print(f"interrupted ({interrupted}): {len(defs) - skipped - ran} run(s) not finished; "
              f"run the same command again to resume", file=sys.stderr)
        return 130
    failed = sum(n for s, n in counts.items() if s not in runner.STATES_OK)
    if failed:
        print(f"failures are recorded in {res.runs_dir}/<id>/status.json and log.txt "
              f"(--retry-failed runs them again)", file=sys.stderr)
    rc = 1 if failed else 0
    if a.report:
        print(file=sys.stderr)
        rrc = do_report(res.path, report_parser().parse_args([res.path]))
        rc = rc or rrc
    return rc


# ---- report ----

def report_parser():
    p = Parser(prog="warpsim report", description="Aggregate a sweep's results: CSV, tables, figures.")
    p.add_argument("dir", help="sweep result directory")
    p.add_argument("--metrics", help="comma list: ipc, l1d_mpki, l2_mpki, cycles, thread_ipc, l1d_miss_rate, "
                   "load_latency or any CSV stat; suffix :norm or :abs (default ipc,l1d_mpki)")
    p.add_argument("--column", help="dim whose labels are the table columns (default sched)")
    p.add_argument("--baseline", help="column label to normalise to (default: the first)")
    p.add_argument("--best-by", help="metric the best-of operations maximise (default ipc)")
    p.add_argument("--no-best", action="store_true", help="no Best-SWL / Optimal-TLP columns")
    p.add_argument("--out", help="output directory (default DIR/report)")
    p.add_argument("--plot", default="auto", choices=("auto", "matplotlib", "gnuplot", "none"))
    p.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    return p


def do_report(path, a):
    try:
        data = report.Data(path)
    except RuntimeError as e:
        raise Usage(f"warpsim report: {e}")
    defaults = data.spec.get("report") or {}   # the sweep file's `report` line
    a.metrics = a.metrics or defaults.get("metrics")
    a.column = a.column or defaults.get("column")
    a.baseline = a.baseline or defaults.get("baseline")
    a.best_by = a.best_by or defaults.get("best-by") or "ipc"
    metrics = [m.strip() for m in (a.metrics or "ipc,l1d_mpki").split(",") if m.strip()]
    known = {k for r in data.rows for k in r.stats}
    try:
        for m in metrics:
            stat = report.metric_spec(m)[1]
            if known and stat not in known:
                import difflib
                close = difflib.get_close_matches(stat, sorted(known), 3, 0.5)
                raise report.ReportError(f"no statistic '{stat}' in the results (metrics: "
                                         f"{', '.join(report.METRICS)}, or a results.csv column"
                                         + (f"; did you mean {', '.join(close)}?" if close else "") + ")")
    except report.ReportError as e:
        raise Usage(f"warpsim report: {e}")
    varying = data.varying()
    column = a.column
    if column is None:
        cands = [d for d in varying if d != "benchmark" and d not in report.BASE_DIMS] + \
                [d for d in varying if d in ("config", "size", "seed")]
        column = "sched" if "sched" in varying else (cands[0] if cands else None)
    elif column not in data.dims:
        raise Usage(f"warpsim report: no dim '{column}' (dims: {', '.join(data.dims)})")
    best_by = report.METRICS.get(a.best_by, (a.best_by,))[0]
    plain = copy.copy(data)      # one row per run, before best-of rows are added
    plain.rows = list(data.rows)
    if not a.no_best:
        report.apply_families(data, report.find_families(data), best_by)
    cols = data.order[column] if column else [None]
    baseline = a.baseline if a.baseline is not None else (cols[0] if column else None)
    if column and baseline not in cols:
        raise Usage(f"warpsim report: baseline '{baseline}' is not a label of {column} (labels: {', '.join(cols)})")
    out = os.path.abspath(a.out or os.path.join(data.results.path, "report"))
    os.makedirs(out, exist_ok=True)
    csv_path = os.path.join(out, "results.csv")
    ncol = report.write_csv(plain, csv_path)
    states = plain.states()
    print(f"sweep '{data.spec.get('name', '?')}': {len(plain.rows)} runs: "
          + ", ".join(f"{n} {s}" for s, n in sorted(states.items(), key=lambda kv: (kv[0] != 'ok', kv[0]))))
    tables = report.build_tables(data, metrics, column, baseline)
    blocks = report.benchmark_blocks(data)
    texts, mds = [], []
    for t in tables:
        texts.append(report.table_text(t, blocks))
        mds.append(report.table_markdown(t, blocks))
        report.table_csv(t, blocks, os.path.join(out, _fname(f"table_{t.metric}", t.section) + ".csv"))
    best_title = report.METRICS.get(a.best_by, (None, a.best_by))[1]
    for fam in data.families:
        texts.append(report.family_text(fam, data, best_by, best_title))
        mds.append("```\n" + texts[-1] + "\n```")
    print()
    print("\n\n".join(mds if a.markdown else texts))
    runner.atomic_write(os.path.join(out, "tables.txt"), "\n\n".join(texts) + "\n")
    runner.atomic_write(os.path.join(out, "tables.md"), "\n\n".join(mds) + "\n")
    failed = [r for r in plain.rows if not r.ok() and r.state != "pending"]
    if failed:
        print(f"\n{len(failed)} failed run(s) (shown by state in the tables, left out of the means):")
        for r in failed[:20]:
            print(f"  {r.state:<8} {r.id}: {r.status.get('message', '')}")
        if len(failed) > 20:
            print(f"  ... {len(failed) - 20} more in {csv_path}")
    pend = states.get("pending", 0)
    if pend:
        print(f"\n{pend} run(s) not finished yet (resume the sweep, or wait for the cluster jobs)")
    figs, rc = make_figures(data, tables, blocks, column, baseline, metrics, out, a.plot)
    if a.plot != "none":  # runs that wrote a timeline (`set timeline.file=...`): one figure each
        figs += timeline_fig.report_runs(data.results.path, out, plot.Plotter(a.plot))
    print(f"\nwrote {_rel(csv_path)} ({len(plain.rows)} rows, {ncol} columns), "
          f"{_rel(os.path.join(out, 'tables.txt'))}, tables.md, table_*.csv")
    for fpath in figs:
        print(f"wrote {_rel(fpath)}")
    return rc


def _rel(path):
    """A path relative to the current directory when it lies below it (shorter output)."""
    r = os.path.relpath(path)
    return path if r.startswith("..") else r


def _fname(base, section):
    s = base + ("_" + section if section else "")
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in s)


def make_figures(data, tables, blocks, column, baseline, metrics, out, which):
    pl = plot.Plotter(which)
    if not pl.backend:
        print(f"\n{pl.why}")
        return [], 0
    files, rc = [], 0
    bl = blocks or [(None, data.order["benchmark"])]
    try:
        for t in tables:
            cats = []
            for g, bs in bl:
                members = [(b, [t.cells[b][c] for c in t.cols]) for b in bs]
                means = dict((mg, ms) for mg, _, ms in t.means)[g or "all"]
                mname = "geomean" if t.mode == "norm" else "mean"
                members.append((f"{mname}" if g is None else f"{g} {mname}" if len(bl) == 1 else mname,
                                [means[mname][c] for c in t.cols]))
                cats.append((g, members))
            if len(bl) > 1:
                ms = dict((mg, ms) for mg, _, ms in t.means)["all"]
                mname = "geomean" if t.mode == "norm" else "mean"
                cats.append(("all", [(mname, [ms[mname][c] for c in t.cols])]))
            base = os.path.join(out, _fname(t.metric, t.section))
            title = t.title + (f" ({t.section})" if t.section else "")
            ylabel = t.title.split(" normalised")[0] + (f" / {baseline}" if t.mode == "norm" else "")
            files += pl.bars(base, title, ylabel, cats, [str(c) if c is not None else t.metric for c in t.cols],
                             1.0 if t.mode == "norm" else None)
        files += _family_lines(pl, data, column, baseline, metrics, out)
    except plot.PlotError as e:
        print(f"\nfigures: {e}")
        rc = 1
    return files, rc


def _family_lines(pl, data, column, baseline, metrics, out):
    """Line plots: a metric over the key of each best-of family (warp limit, CTA limit) and
    over each numeric axis, one line per benchmark. Over the column dim the values are
    normalised to the baseline label; over another dim the runs are the baseline column's,
    normalised to the first value."""
    files = []
    index = {tuple(sorted(r.labels.items())): r for r in data.rows}
    sweeps = []
    for fam in data.families:
        sweeps.append((fam.dim, [(fam.xs[m], m) for m in fam.members], fam.xlabel, fam.tag + fam.name[len(fam.kind):]))
    for dim in data.varying():
        if dim in report.BASE_DIMS or any(f.dim == dim and set(f.members) == set(data.order[dim]) for f in data.families):
            continue
        xs = [(_size(lab), lab) for lab in data.order[dim]]
        if len(xs) >= 3 and all(x is not None for x, _ in xs):
            sweeps.append((dim, xs, dim, dim))
    for dim, xl, xlabel, tag in sweeps:
        xl = sorted(xl)
        ctx = {d: data.order[d][0] for d in data.dims}
        if column and column != dim:
            ctx[column] = baseline
        fixed = ", ".join(f"{d} {ctx[d]}" for d in data.varying() if d not in ("benchmark", dim))
        for m in metrics:
            name, stat, title, unit, mode = report.metric_spec(m)
            series = []
            for b in data.order["benchmark"]:
                def val(lab):
                    r = index.get(tuple(sorted(dict(ctx, benchmark=b, **{dim: lab}).items())))
                    return r.value(stat) if r else None
                ys = [val(lab) for _, lab in xl]
                if mode == "norm":
                    rv = val(baseline) if column == dim else ys[0]
                    ys = [y / rv if y is not None and rv else None for y in ys]
                series.append((b, ys))
            norm = ""
            if mode == "norm":
                norm = f" normalised to {baseline}" if column == dim else f" normalised to {dim} {xl[0][1]}"
            base = os.path.join(out, _fname(f"{tag}_{name}", ""))
            ylabel = title + (f" / {baseline}" if norm and column == dim else f" / {dim} {xl[0][1]}" if norm
                              else f" ({unit})")
            files += pl.lines(base, f"{title}{norm} vs {xlabel.split(' (')[0]}" + (f" ({fixed})" if fixed else ""),
                              xlabel, ylabel, [x for x, _ in xl], series, 1.0 if mode == "norm" else None)
    return files


def _size(label):
    s = str(label).strip().upper()
    mult = 1
    for suf, m in (("KB", 1024), ("K", 1024), ("MB", 1 << 20), ("M", 1 << 20)):
        if s.endswith(suf):
            s, mult = s[: -len(suf)], m
            break
    try:
        return float(s) * mult
    except ValueError:
        return None


# ---- reproduce ----

def cmd_reproduce(argv):
    p = Parser(prog="warpsim reproduce", description="Reproduce a paper's figures and claims (doc/reproducing.md).")
    p.add_argument("paper", nargs="?", help="ccws, cawa, baws, iwarp, bypass (--list shows them)")
    p.add_argument("--list", action="store_true", help="papers, their experiments, figures and claims, and what each needs")
    p.add_argument("--size", default="small", choices=spec.SIZES, help="input size (default small)")
    p.add_argument("-j", "--jobs", type=_jobs, default=None, help="parallel runs (default: --cores)")
    p.add_argument("--cores", type=_cores, default=None, help=CORES_HELP)
    p.add_argument("--threads-per-run", type=_per_run, default=None, metavar="auto|N", help=PER_RUN_HELP)
    p.add_argument("-o", "--out", help="output directory (default results/reproduce/<paper>-<size>)")
    p.add_argument("--emit", choices=("slurm", "parallel"), help="write cluster run lists instead of running")
    p.add_argument("--no-run", action="store_true", help="run nothing: report on the results already there")
    p.add_argument("--retry-failed", action="store_true", help="run failed runs again")
    p.add_argument("--benchmarks", help="comma list: only these benchmarks (tests, quick looks)")
    p.add_argument("--sweeps", help="comma list: run only these sweeps of the paper (the report covers all)")
    p.add_argument("--plot", default="auto", choices=("auto", "matplotlib", "gnuplot", "none"))
    p.add_argument("-q", "--quiet", action="store_true", help="no per-run lines")
    p.add_argument("--estimate", action="store_true", help="print the single-core hours the paper's runs need "
                   "at --size: the runs already in the results folder by their measured CPU time, the others from "
                   "functional runs (instruction counts) and short timed runs of each configuration at --size")
    p.add_argument("--scale-from", metavar="SIZE", choices=spec.SIZES,
                   help="--estimate: a run not measured at --size whose twin (same benchmark and configuration) "
                   "is in the results folder at SIZE counts the twin's CPU time times the benchmark's warp "
                   "instructions at --size over those at SIZE (no timed runs)")
    p.add_argument("--doc", metavar="FILE", help="rewrite FILE's results part (doc/reproducing.md) from the results "
                   "folders of every paper (or PAPER) at --size under --results; runs nothing")
    p.add_argument("--results", help="--doc, --estimate: the folder holding <paper>-<size>/ (--doc: default "
                   "results/reproduce; --estimate: default the output directory)")
    p.add_argument("--readme", metavar="FILE",
                   help="--doc without PAPER: also rewrite the verdict counts of FILE (README.md) between its "
                   "verdict marker lines")
    a = p.parse_args(argv)
    a.cores = a.cores or runner.default_cores()
    a.jobs = a.jobs or a.cores
    try:
        if a.scale_from and not a.estimate:
            raise reproduce.ReproError("--scale-from goes with --estimate")
        if a.doc:
            if a.readme and a.paper:
                raise reproduce.ReproError("--readme takes the counts of every paper: no PAPER with it")
            readme = a.readme
            res = reprodoc.generate(a.doc, a.size, a.results or os.path.join("results", "reproduce"),
                                    runner.default_warpsim(), [a.paper] if a.paper else None,
                                    readme)
            for name, counts in res.items():
                print(f"{name}: " + (claims.summary(counts) if counts else "not run"))
            print(f"wrote {a.doc}" + (f" and the verdict counts of {readme}" if readme else ""))
            return 0
        return reproduce.main(a, runner.default_warpsim())
    except reproduce.ReproError as e:
        raise Usage(f"warpsim reproduce: {e}")


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `warpsim report DIR | head` ends quietly
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    try:
        if cmd == "sweep":
            return cmd_sweep(rest)
        if cmd == "report":
            a = report_parser().parse_args(rest)
            return do_report(a.dir, a)
        if cmd == "reproduce":
            return cmd_reproduce(rest)
        raise Usage(f"wsexp: unknown command '{cmd}' (valid: sweep, report, reproduce)")
    except Usage as e:
        print(e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    # One line, never a traceback (WSEXP_DEBUG=1 shows it).
    except OSError as e:  # a full disk, -o naming a file or /proc, an unreadable results folder
        if os.environ.get("WSEXP_DEBUG"):
            raise
        where = f" '{e.filename}'" if e.filename else ""
        print(f"warpsim {cmd}: cannot read or write{where}: {e.strerror or e}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as e:  # data of the wrong shape
        if os.environ.get("WSEXP_DEBUG"):
            raise
        print(f"warpsim {cmd}: unexpected data ({type(e).__name__}: {e}); is a results folder damaged? "
              f"(WSEXP_DEBUG=1 shows where)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
