"""spec.py - sweep files: parsing and expansion into runs with stable ids.

A sweep file is a list of statements, one per line ('#' starts a comment):

    name        default                       # results go to results/<name> by default
    benchmarks  bfs kmeans vecadd              # repeatable; default: the benchmarks of the groups
    size        tiny                           # one or more of tiny, small, paper (default small)
    config      gtx480                         # presets or .cfg files (default gtx480)
    seed        1                              # input seeds (default 1)
    group       cache-sensitive bfs kmeans     # benchmark groups: means in reports
    axis        sched  lrr gto two-level swl:1..48
    axis        l1d.size  16K 32K 48K          # any config key
    variant     tlp  ctas-2  sm.max_ctas=2 sched.policy=gto   # a labelled value of axis 'tlp'
    set         sm.deadlock_cycles=200000      # applied to every run, before the axes
    report      baseline=lrr metrics=ipc,l1d_mpki   # defaults for `warpsim report`
    timeout     600                            # seconds per run (default none)
    program     saxpy ./saxpy 4096             # a user's CUDA program and its arguments (repeatable)

Values expand: `1..8` (inclusive), `4..48/4` (step), `1,2,4`, and `swl:1..48` (prefix kept).
In the `sched` axis `NAME` sets sched.policy and `NAME:P` also sets the policy's main
parameter (swl: sched.swl.limit, two-level: sched.two-level.group_size).

The runs are the cross product benchmarks x sizes x configs x seeds x axes, in that order
(the last axis varies fastest). A run id names the run and ends in a hash of exactly what
defines it (benchmark, size, config, seed, overrides), so ids are stable across machines and
re-expansions, and changing a `set` gives new runs instead of reusing stale results.
A program (built with nvcc -cudart shared) runs through `warpsim exec` once per config and axis
point (sizes and seeds are the benchmarks'), size "-"; its path and arguments are part of its id.
Stdlib only; knows nothing about how runs execute.
"""

import hashlib
import json
import os
import re

from .words import WordsError, split as split_words

SIZES = ("tiny", "small", "paper")
PROGRAM_SIZE = "-"   # the size of a user program's runs: its input is its arguments
# The most values one A..B range gives: every warp limit or CTA count a study tries fits, and a
# range past it is a typo (1..99999) that would plan and hash 10^5 labels before saying anything.
MAX_RANGE = 4096
# The scheduler axis's shorthand NAME:P sets this key of policy NAME.
SCHED_PARAM = {"swl": "sched.swl.limit", "two-level": "sched.two-level.group_size"}


class SpecError(Exception):
    """A mistake in a sweep file; the message names file and line."""


class Dim:
    """One dimension of the matrix: ordered labels, each with the overrides it applies."""

    def __init__(self, name, key=None, line=0):
        self.name = name
        self.key = key          # config key of a plain axis, None for sched/variant axes
        self.line = line
        self.labels = []        # ordered labels
        self.sets = {}          # label -> [ "key=value", ... ]

    def add(self, label, sets, where):
        if label in self.sets:
            raise SpecError(f"{where}: value '{label}' given twice for axis '{self.name}'")
        self.labels.append(label)
        self.sets[label] = list(sets)


class Run:
    """One simulation: what to run and where it sits in the matrix."""

    def __init__(self, benchmark, size, config, seed, sets, labels, label_sets, config_path=None, sweep_dir=None,
                 program=None):
        self.benchmark = benchmark
        self.program = program              # {"path", "args"} as written: a user's program, else None
        self.sweep_dir = sweep_dir          # what {sweepdir} stands for (not part of the id)
        self.size = size
        self.config = config              # as written in the spec (part of the id)
        self.config_path = config_path or config   # what warpsim is given (absolute for files)
        self.seed = seed
        self.sets = sets                  # every override, in application order
        self.labels = labels              # dim name -> label (axes only)
        self.label_sets = label_sets      # dim name -> the overrides that label applies
        self.index = -1
        self.id = make_id(self)
        self.after = {}                   # '{rundir:DIM=LABEL}' placeholder -> the id of that run


    def definition(self):
        return {"id": self.id, "index": self.index, "benchmark": self.benchmark, "size": self.size,
                "config": self.config, "config_path": self.config_path, "seed": self.seed, "sets": self.sets, "labels": self.labels,
                "label_sets": self.label_sets, "after": self.after, "sweep_dir": self.sweep_dir,
                **({"program": self.program} if self.program else {})}


def _safe(part):
    return re.sub(r"[^A-Za-z0-9.+_-]", "-", part).strip("-") or "x"


def config_label(config):
    base = os.path.basename(config)
    return base[:-4] if base.endswith(".cfg") else base


def make_id(run):
    """Readable prefix (benchmark, size, config, labels) + a hash of the definition. A program's
    run has no size in its prefix; its hash covers its path and arguments as written."""
    if run.program:
        ident = json.dumps(["program", run.benchmark, run.program["path"], run.program["args"], run.config,
                            run.sets], separators=(",", ":"))
    else:
        ident = json.dumps([run.benchmark, run.size, run.config, run.seed, run.sets], separators=(",", ":"))
    h = hashlib.sha1(ident.encode()).hexdigest()[:8]
    parts = [run.benchmark] + ([] if run.program else [run.size]) + [config_label(run.config)]
    parts += [run.labels[d] for d in run.labels]
    if run.seed != 1:
        parts.append(f"s{run.seed}")
    return ".".join(_safe(p) for p in parts) + "-" + h


# A set value may name a run directory: `{rundir}` is the run's own (a file the run writes,
# e.g. observer.cpl.priority_file={rundir}/cpl-priority.txt), `{rundir:DIM=LABEL}` that of the
# run that differs from it only in axis DIM, which has LABEL there (a file that run wrote: the
# run starts after it; e.g. sched.caws.profile={rundir:sched=caws-write}/caws.profile). Ids keep
# the placeholders as written, so they do not depend on where results go.
RUNDIR_RE = re.compile(r"\{rundir(?::([^=}]+)=([^}]*))?\}")


# `{sweepdir}` is the folder of the sweep file: a file that belongs with it (a paper folder's class
# file) is found wherever the sweep is run from. Kept as written in ids, replaced when a run starts.
SWEEPDIR = "{sweepdir}"


def resolve_sweepdir(sets, sweep_dir):
    return [s.replace(SWEEPDIR, sweep_dir) for s in sets]


# `{bench}` is the run's benchmark (a per-benchmark file: the bypassing paper's class files, whose
# kernel names repeat across benchmarks: pvc and ss share the MapReduce kernels). Kept as written
# in ids, replaced when a run starts.
BENCH = "{bench}"


def resolve_bench(sets, bench):
    return [s.replace(BENCH, bench) for s in sets]


def run_refs(sets):
    """The (DIM, LABEL) pairs the {rundir:DIM=LABEL} placeholders of sets name."""
    return [(m.group(1), m.group(2)) for s in sets for m in RUNDIR_RE.finditer(s) if m.group(1)]


def resolve_rundirs(sets, own_dir, dir_of):
    """sets with {rundir} -> own_dir and {rundir:DIM=LABEL} -> dir_of('DIM=LABEL')."""
    def sub(m):
        return own_dir if not m.group(1) else dir_of(f"{m.group(1)}={m.group(2)}")
    return [RUNDIR_RE.sub(sub, s) for s in sets]


def expand_values(token, where):
    """'swl:1..4' -> ['swl:1', ..., 'swl:4']; '1,2,8' -> 3 values; '16K' -> ['16K']."""
    prefix = ""
    body = token
    if ":" in token:
        prefix, body = token.split(":", 1)
        prefix += ":"
    out = []
    for part in body.split(","):
        m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)(?:/(\d+))?", part)
        if m:
            a, b, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
            if step <= 0 or b < a:
                raise SpecError(f"{where}: bad range '{part}' (want A..B or A..B/STEP with A <= B)")
            if (b - a) // step >= MAX_RANGE:
                raise SpecError(f"{where}: range '{part}' is too long ({(b - a) // step + 1} values; at most "
                                f"{MAX_RANGE}: split the study into several sweeps)")
            out += [prefix + str(v) for v in range(a, b + 1, step)]
        elif part == "":
            raise SpecError(f"{where}: empty value in '{token}'")
        else:
            out.append(prefix + part)
    return out


def _sched_sets(label, where):
    name, _, param = label.partition(":")
    sets = [f"sched.policy={name}"]
    if param:
        key = SCHED_PARAM.get(name)
        if not key:
            valid = ", ".join(f"{k}:N ({v})" for k, v in SCHED_PARAM.items())
            raise SpecError(f"{where}: scheduler '{name}' takes no ':' parameter (valid: {valid})")
        sets.append(f"{key}={param}")
    return sets


MAX_TIMEOUT = 30 * 24 * 3600   # a month: past it a timeout is a typo, not a limit


def timeout_problem(text):
    """Why `text` is not a run's time limit in seconds, or None (the sweep file and --timeout)."""
    if not re.fullmatch(r"\d+(\.\d+)?", text):
        return f"expected a number of seconds greater than 0, got '{text}'"
    v = float(text)
    if v <= 0 or v > MAX_TIMEOUT:
        return f"{text} seconds is out of range (0 < seconds <= {MAX_TIMEOUT})"
    return None


def _check_set(s, where):
    if "=" not in s or s.startswith("="):
        raise SpecError(f"{where}: expected KEY=VALUE, got '{s}'")
    return s


class Spec:
    def __init__(self, path):
        self.path = path
        self.name = re.sub(r"\.sweep$", "", os.path.basename(path))
        self.benchmarks = []
        self.sizes = []
        self.configs = []
        self.seeds = []
        self.dims = []          # axes, in file order
        self.sets = []
        self.groups = {}        # name -> [benchmarks], file order
        self.report = {}
        self.timeout = None
        self.programs = {}      # name -> {"path", "args", "line"}: users' programs, file order
        # benchmark -> the size that stands for size `paper` (a paper's own input, from its paper.txt)
        self.paper_sizes = {}

    def size_of(self, bench, size):
        return self.paper_sizes.get(bench, size) if size == "paper" else size

    def dim(self, name):
        for d in self.dims:
            if d.name == name:
                return d
        return None

    def to_json(self):
        return {"name": self.name, "spec": os.path.abspath(self.path), "benchmarks": self.benchmarks,
                "sizes": self.sizes, "configs": self.configs, "seeds": self.seeds,
                "dims": [{"name": d.name, "key": d.key, "labels": d.labels, "sets": d.sets} for d in self.dims],
                "sets": self.sets, "groups": self.groups, "report": self.report, "timeout": self.timeout,
                "paper_sizes": self.paper_sizes, "programs": self.programs}


def parse(path):
    try:
        if not os.path.isfile(path):
            raise SpecError(f"cannot read sweep file {path}: "
                            + ("not a regular file" if os.path.exists(path) else "No such file or directory"))
        if os.path.getsize(path) > (16 << 20):
            raise SpecError(f"cannot read sweep file {path}: larger than 16 MiB")
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SpecError(f"cannot read sweep file {path}: {e.strerror}")
    except UnicodeDecodeError as e:
        line = text_line_of(path, e.start)
        raise SpecError(f"{path}:{line}: not UTF-8 text (byte 0x{e.object[e.start]:02x})")
    return parse_text(text, path)


def text_line_of(path, offset):
    """1-based line of byte `offset` of a file (for encoding errors)."""
    try:
        with open(path, "rb") as f:
            return f.read(offset).count(b"\n") + 1
    except OSError:
        return 0


def parse_text(text, path="<sweep>"):
    spec = Spec(path)
    for n, raw in enumerate(text.splitlines(), 1):
        where = f"{path}:{n}"
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        kw, args = words[0], words[1:]
        if kw == "name":
            if len(args) != 1:
                raise SpecError(f"{where}: name takes one word")
            spec.name = _safe(args[0])
        elif kw in ("benchmarks", "benchmark"):
            for a in args:
                for b in expand_values(a, where):
                    if b not in spec.benchmarks:
                        spec.benchmarks.append(b)
        elif kw == "size":
            for a in args:
                if a not in SIZES:
                    raise SpecError(f"{where}: unknown size '{a}' (valid: {', '.join(SIZES)})")
                spec.sizes.append(a)
        elif kw == "config":
            spec.configs += args
        elif kw == "seed":
            for a in args:
                for v in expand_values(a, where):
                    if not re.fullmatch(r"\d+", v) or int(v) >= 1 << 64:
                        raise SpecError(f"{where}: bad seed '{v}' (0 to 18446744073709551615)")
                    if int(v) in spec.seeds:
                        raise SpecError(f"{where}: seed {int(v)} given twice")
                    spec.seeds.append(int(v))
        elif kw == "group":
            if len(args) < 2:
                raise SpecError(f"{where}: group NAME BENCHMARK...")
            spec.groups.setdefault(args[0], [])
            for a in args[1:]:
                spec.groups[args[0]] += expand_values(a, where)
        elif kw == "axis":
            if len(args) < 2:
                raise SpecError(f"{where}: axis KEY VALUE...")
            name = args[0]
            if spec.dim(name):
                raise SpecError(f"{where}: axis '{name}' given twice (put all its values on one line)")
            d = Dim(name, None if name == "sched" else name, n)
            for a in args[1:]:
                for v in expand_values(a, where):
                    d.add(v, _sched_sets(v, where) if name == "sched" else [f"{name}={v}"], where)
            spec.dims.append(d)
        elif kw == "variant":
            if len(args) < 3:
                raise SpecError(f"{where}: variant AXIS LABEL KEY=VALUE...")
            d = spec.dim(args[0])
            if not d:
                d = Dim(args[0], None, n)
                spec.dims.append(d)
            d.add(args[1], [_check_set(s, where) for s in args[2:]], where)
        elif kw == "set":
            if not args:
                raise SpecError(f"{where}: set KEY=VALUE...")
            spec.sets += [_check_set(s, where) for s in args]
        elif kw == "report":
            for a in args:
                k, eq, v = a.partition("=")
                if not eq:
                    raise SpecError(f"{where}: report takes KEY=VALUE (baseline=, column=, metrics=)")
                spec.report[k] = v
        elif kw == "program":
            _program(spec, raw, where, n)
        elif kw == "timeout":
            if len(args) != 1:
                raise SpecError(f"{where}: timeout SECONDS")
            why = timeout_problem(args[0])
            if why:
                raise SpecError(f"{where}: timeout: {why}")
            spec.timeout = float(args[0])
        else:
            raise SpecError(f"{where}: unknown statement '{kw}' (valid: name, benchmarks, size, config, seed, "
                            "group, axis, variant, set, report, timeout, program)")
    for name, prog in spec.programs.items():
        if name in spec.benchmarks:
            raise SpecError(f"{path}:{prog['line']}: program '{name}' has the name of a benchmark of the sweep "
                            f"(name it differently)")
    if not spec.benchmarks:
        for g in spec.groups.values():
            for b in g:
                if b not in spec.benchmarks and b not in spec.programs:
                    spec.benchmarks.append(b)
    if not spec.benchmarks and not spec.programs:
        raise SpecError(f"{path}: no benchmarks (a 'benchmarks', 'group' or 'program' line)")
    spec.sizes = spec.sizes or ["small"]
    spec.configs = spec.configs or ["gtx480"]
    spec.seeds = spec.seeds or [1]
    return spec


def _program(spec, raw, where, n):
    """`program NAME PATH [ARGS...]`, words split as a shell would (quotes keep blanks in an argument)."""
    try:
        args = split_words(raw)[1:]
    except WordsError as e:
        raise SpecError(f"{where}: {e}")
    if len(args) < 2:
        raise SpecError(f"{where}: program NAME PATH [ARGS...]")
    name = args[0]
    if _safe(name) != name or name in (".", ".."):
        raise SpecError(f"{where}: program name '{name}': use letters, digits and . + _ - (it names the runs)")
    if name in spec.programs:
        raise SpecError(f"{where}: program '{name}' given twice (line {spec.programs[name]['line']})")
    spec.programs[name] = {"path": args[1], "args": args[2:], "line": n}


MAX_RUNS = 1000000


def expand(spec):
    """The runs of a spec, in a fixed order with manifest indices. The count is checked before
    anything is built: two long axes multiply (99,999 x 99,999 runs would exhaust memory)."""
    points = 1
    for d in spec.dims:
        points *= len(d.labels)
    total = (len(spec.benchmarks) * len(spec.sizes) * len(spec.seeds) + len(spec.programs)) * len(spec.configs) * points
    if total > MAX_RUNS:
        sizes = " x ".join([str(len(spec.benchmarks)), str(len(spec.sizes)), str(len(spec.configs)),
                            str(len(spec.seeds))] + [f"{len(d.labels)} ({d.name})" for d in spec.dims])
        progs = f" + {len(spec.programs)} program(s) x configs x axes" if spec.programs else ""
        raise SpecError(f"{spec.path}: {total} runs ({sizes}: benchmarks x sizes x configs x seeds x axes{progs}); "
                        f"at most {MAX_RUNS} in one sweep")
    runs = []
    combos = [([], {}, {})]
    for d in spec.dims:
        combos = [(sets + d.sets[lab], dict(labels, **{d.name: lab}), dict(ls, **{d.name: d.sets[lab]}))
                  for sets, labels, ls in combos for lab in d.labels]
    for b in spec.benchmarks:
        for size in spec.sizes:
            for config in spec.configs:
                cpath = config_file(spec, config)
                for seed in spec.seeds:
                    for sets, labels, ls in combos:
                        r = Run(b, spec.size_of(b, size), config, seed, spec.sets + sets, labels, ls, cpath,
                                os.path.dirname(os.path.abspath(spec.path)))
                        r.index = len(runs)
                        runs.append(r)
    sweep_dir = os.path.dirname(os.path.abspath(spec.path))
    for name, prog in spec.programs.items():
        for config in spec.configs:
            cpath = config_file(spec, config)
            for sets, labels, ls in combos:
                r = Run(name, PROGRAM_SIZE, config, 1, spec.sets + sets, labels, ls, cpath, sweep_dir,
                        {"path": prog["path"], "args": list(prog["args"])})
                r.index = len(runs)
                runs.append(r)
    _link_after(spec, runs)
    return runs


def _link_after(spec, runs):
    """Resolves each run's {rundir:DIM=LABEL} to the id of the run it names (an error if the sweep
    has no such run, or if the named run itself depends on another: one level only)."""
    by_point = {}
    for r in runs:
        by_point[(r.benchmark, r.size, r.config, r.seed, tuple(sorted(r.labels.items())))] = r
    for r in runs:
        for dim, lab in run_refs(r.sets):
            if dim not in r.labels:
                raise SpecError(f"{spec.path}: {{rundir:{dim}={lab}}}: the sweep has no axis '{dim}' "
                                f"(axes: {', '.join(d.name for d in spec.dims) or 'none'})")
            key = (r.benchmark, r.size, r.config, r.seed, tuple(sorted(dict(r.labels, **{dim: lab}).items())))
            dep = by_point.get(key)
            if dep is None:
                d = spec.dim(dim)
                raise SpecError(f"{spec.path}: {{rundir:{dim}={lab}}}: '{lab}' is not a label of axis '{dim}' "
                                f"(labels: {', '.join(d.labels) if d else ''})")
            if dep is r or run_refs(dep.sets):
                raise SpecError(f"{spec.path}: {{rundir:{dim}={lab}}} in run {r.id}: the run it names must "
                                f"not itself use {{rundir:...}}")
            r.after[f"{dim}={lab}"] = dep.id


def config_file(spec, config):
    """A config file given by path (next to the sweep file, or from here) becomes absolute;
    a preset name stays a name (warpsim finds configs/NAME.cfg itself)."""
    if "/" not in config and not config.endswith(".cfg"):
        return config
    for base in (os.path.dirname(os.path.abspath(spec.path)), os.getcwd()):
        p = os.path.join(base, config)
        if os.path.isfile(p):
            return os.path.abspath(p)
    return config
