"""paperdir.py - a paper's folder, experiments/papers/<paper>/, read and checked (the formats:
doc/reproducing.md): paper.txt (title, source, baseline, benchmark mapping, each benchmark's input
at --size paper, techniques), one sweep file per experiment, figures.txt and claims.txt. Every
mistake is a ReproError naming file and line. Reads files only; runs nothing.
"""

import os

from . import claims, report, seriesfig, timeline_fig
from . import spec as specmod
from . import words as wordsmod


class ReproError(Exception):
    """A mistake in a paper folder or the command line; the message names file and line."""


# ---- paper folders ----

def papers_dir():
    env = os.environ.get("WARPSIM_PAPERS")
    if env:
        return os.path.abspath(env)
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.abspath(os.path.join(here, "..", "..", "experiments", "papers"))


def _kv(words, where, allowed):
    out = {}
    for w in words:
        k, eq, v = w.partition("=")
        if not eq or not k:
            raise ReproError(f"{where}: expected KEY=VALUE, got '{w}'")
        if k not in allowed:
            raise ReproError(f"{where}: unknown key '{k}' (valid: {', '.join(sorted(allowed))})")
        out[k] = v
    return out


def _lines(path, raw_text=False):
    """(where, words) per non-empty line ('#' starts a comment; words split as a shell would);
    raw_text: (where, [keyword, rest of the line]) instead (free text with apostrophes)."""
    try:
        if not os.path.isfile(path):
            raise ReproError(f"cannot read {path}: "
                             + ("not a regular file" if os.path.exists(path) else "No such file or directory"))
        if os.path.getsize(path) > (16 << 20):
            raise ReproError(f"cannot read {path}: larger than 16 MiB")
        with open(path, "rb") as f:
            data = f.read(16 << 20)
    except OSError as e:
        raise ReproError(f"cannot read {path}: {e.strerror}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ReproError(f"{path}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x})")
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise ReproError(f"{path}:{line}: a NUL byte (not a text file)")
    for n, raw in enumerate(text.splitlines(), 1):
        where = f"{path}:{n}"
        if raw_text:
            words = raw.split("#", 1)[0].split(None, 1)
            if words:
                yield where, words
            continue
        try:
            words = wordsmod.split(raw)
        except wordsmod.WordsError as e:
            raise ReproError(f"{where}: {e}")
        if words:
            yield where, words


def _sel(text, where):
    return claims.parse_sel(text, where, ReproError)


FIG_KEYS = {"sweep", "title", "paper", "metric", "labels", "series", "where", "norm", "mean", "kind", "groups",
            "ylabel", "note", "needs", "yscale"}
CLAIM_KEYS = claims.KEYS
AGGS = claims.AGGS
FIG_KEYS |= seriesfig.KEYS   # kind=series: a file a run wrote, over time (seriesfig.py)


class Figure:
    def __init__(self, fid, kv, where):
        self.id, self.where = fid, where
        for k in ("sweep", "metric"):
            if k not in kv:
                raise ReproError(f"{where}: figure {fid} needs {k}=")
        self.sweep = kv["sweep"]
        self.title = kv.get("title", fid)
        self.paper = kv.get("paper", fid)
        self.metrics = [m for m in kv["metric"].split(",") if m]
        self.labels = [x for x in kv.get("labels", "").split(",") if x] or None
        if self.labels and len(self.labels) != len(self.metrics):
            raise ReproError(f"{where}: labels= needs one label per metric ({len(self.metrics)})")
        sdim, colon, slabs = kv.get("series", "").partition(":")
        self.series_dim = sdim or None
        self.series = [x for x in slabs.split(",") if x] if colon else []
        if self.series_dim and not self.series:
            raise ReproError(f"{where}: series= is DIM:LABEL,LABEL...")
        self.fixed = _sel(kv.get("where"), where)
        self.norm = _sel(kv.get("norm"), where)
        if len(self.norm) > 1:
            raise ReproError(f"{where}: norm= takes one DIM:LABEL")
        self.mean = kv.get("mean", "amean")
        if self.mean not in AGGS + ("none",):
            raise ReproError(f"{where}: mean= is one of {', '.join(AGGS)}, none")
        self.kind = kv.get("kind", "bars")
        if self.kind not in ("bars", "lines"):
            raise ReproError(f"{where}: kind= is bars, lines or series")
        only = sorted(k for k in kv if k in seriesfig.KEYS)
        if only:
            raise ReproError(f"{where}: {', '.join(only)} apply to kind=series only")
        if self.kind == "lines" and (not self.series_dim or len(self.metrics) != 1):
            raise ReproError(f"{where}: kind=lines needs series=DIM:... (the x axis) and one metric")
        self.groups = [g for g in kv.get("groups", "").split(",") if g] or None
        # auto: a log axis when the values span two orders of magnitude (plot.log_y)
        self.yscale = kv.get("yscale", "auto")
        if self.yscale not in ("auto", "log", "linear"):
            raise ReproError(f"{where}: yscale= is auto, log or linear; got '{self.yscale}'")
        self.ylabel = kv.get("ylabel")
        self.note = kv.get("note", "")
        self.needs = kv.get("needs")     # something no label shows: a statistic or benchmark to come


def check_metric(m, where):
    """A metric of a claim or figure: a name report.py knows (ipc, l1d_mpki, ...) or statistics'
    dotted names joined by + or / (gpu.cycles, gpu.a/gpu.b+gpu.c); a misspelled name is an error
    here, not a "no result" in the report."""
    if m is None:
        return
    name = m.partition(":")[0]
    if name in report.METRICS or name == "best_param":
        return
    bad = [p for p in report.stat_names(name) if "." not in p or not p.strip(".") or " " in p]
    if bad:
        import difflib
        close = difflib.get_close_matches(bad[0], list(report.METRICS), 3)
        raise ReproError(f"{where}: unknown metric '{bad[0]}'" + (f" (did you mean {', '.join(close)}?)" if close else "")
                         + f"; metrics: {', '.join(report.METRICS)}; or a statistic's dotted name (gpu.cycles)")


class Paper:
    def __init__(self, name, root=None):
        self.name = name
        self.dir = os.path.join(root or papers_dir(), name)
        if not os.path.isdir(self.dir):
            raise ReproError(f"no paper '{name}' (papers: {', '.join(list_papers(root)) or 'none'})")
        self.title, self.source, self.baseline = name, "", ""
        self.benches = []        # (paper name, our name or None, note)
        self.inputs = {}         # our benchmark -> (size standing for the paper's input, what the paper states)
        self.techniques = []     # (name, [key=value...])
        for where, w in _lines(os.path.join(self.dir, "paper.txt"), raw_text=True):
            kw = w[0]
            try:
                args = wordsmod.split(w[1]) if kw in ("bench", "input", "technique") and len(w) > 1 else w[1:]
            except ValueError as e:
                raise ReproError(f"{where}: {e}")
            if kw == "title":
                self.title = " ".join(args)
            elif kw == "source":
                self.source = " ".join(args)
            elif kw == "baseline":
                self.baseline = " ".join(args)
            elif kw == "bench":
                if len(args) < 2:
                    raise ReproError(f"{where}: bench PAPER-NAME OUR-NAME|- [note]")
                self.benches.append((args[0], None if args[1] == "-" else args[1], " ".join(args[2:])))
            elif kw == "input":
                if len(args) < 2:
                    raise ReproError(f"{where}: input OUR-NAME SIZE [what the paper states]")
                if args[1] not in specmod.SIZES:
                    raise ReproError(f"{where}: input {args[0]}: unknown size '{args[1]}' "
                                     f"(sizes: {', '.join(specmod.SIZES)})")
                if args[0] in self.inputs:
                    raise ReproError(f"{where}: input {args[0]} declared twice")
                self.inputs[args[0]] = (args[1], " ".join(args[2:]))
            elif kw == "technique":
                if len(args) < 2 or any("=" not in a for a in args[1:]):
                    raise ReproError(f"{where}: technique NAME KEY=VALUE...")
                self.techniques.append((args[0], args[1:]))
            else:
                raise ReproError(f"{where}: unknown statement '{kw}' (valid: title, source, baseline, bench, input, "
                                 f"technique)")
        ours = {o for _, o, _ in self.benches if o}
        for b in self.inputs:
            if b not in ours:
                raise ReproError(f"{os.path.join(self.dir, 'paper.txt')}: input {b}: not a benchmark of a bench line "
                                 f"(ours: {', '.join(sorted(ours))})")
        self.sweeps = {}
        for fn in sorted(os.listdir(self.dir)):
            if fn.endswith(".sweep"):
                path = os.path.join(self.dir, fn)
                try:
                    sp = specmod.parse(path)
                except specmod.SpecError as e:
                    raise ReproError(str(e))
                self.sweeps[fn[:-6]] = sp
        self.figures, self.claims = [], []
        self.timelines = []  # `timeline ID ...` lines of figures.txt (timeline_fig.TimelineSpec)
        seen = set()
        for fname, cls, kw_want, keys, out in (("figures.txt", Figure, "figure", FIG_KEYS, self.figures),
                                               ("claims.txt", claims.Claim, "claim", CLAIM_KEYS, self.claims)):
            path = os.path.join(self.dir, fname)
            if not os.path.exists(path):
                continue
            for where, w in _lines(path):
                if fname == "figures.txt" and w[0] == "timeline" and len(w) >= 2:  # a timeline figure: its own runs
                    if w[1] in seen:
                        raise ReproError(f"{where}: id '{w[1]}' used twice")
                    seen.add(w[1])
                    try:
                        self.timelines.append(timeline_fig.TimelineSpec(w[1], _kv(w[2:], where, timeline_fig.KEYS), where))
                    except timeline_fig.TimelineError as e:
                        raise ReproError(str(e))
                    continue
                if w[0] != kw_want or len(w) < 2:
                    raise ReproError(f"{where}: expected '{kw_want} ID KEY=VALUE...'")
                if w[1] in seen:
                    raise ReproError(f"{where}: id '{w[1]}' used twice")
                seen.add(w[1])
                kv = _kv(w[2:], where, keys)
                if cls is Figure and kv.get("kind") == "series":
                    try:
                        obj = seriesfig.SeriesFigure(w[1], kv, where, _sel)
                    except seriesfig.SeriesError as e:
                        raise ReproError(str(e))
                else:
                    try:
                        obj = cls(w[1], kv, where)
                    except claims.ClaimError as e:
                        raise ReproError(str(e))
                if isinstance(obj, claims.Claim) and obj.timeline:  # one warp-phase of a timeline figure
                    self._check_phase_claim(obj, where)
                    out.append(obj)
                    continue
                if obj.sweep not in self.sweeps:
                    raise ReproError(f"{where}: no sweep '{obj.sweep}' in {self.dir} "
                                     f"(sweeps: {', '.join(self.sweeps) or 'none'})")
                sp = self.sweeps[obj.sweep]
                dims = {"benchmark", "size", "config", "seed"} | {d.name for d in sp.dims}
                sels = [obj.fixed] + ([obj.norm] if not isinstance(obj, claims.Claim) else [obj.a] + ([obj.b] if obj.b else []))
                if not isinstance(obj, claims.Claim) and obj.series_dim:
                    sels += [{obj.series_dim: s} for s in obj.series]
                if not isinstance(obj, claims.Claim) and obj.kind == "series":
                    try:
                        seriesfig.check_sweep(obj, sp)
                    except seriesfig.SeriesError as e:
                        raise ReproError(f"{where}: {e}")
                for s in sels:
                        for d, lab in s.items():
                            if d not in dims:
                                raise ReproError(f"{where}: sweep '{obj.sweep}' has no dim '{d}' (dims: {', '.join(sorted(dims))})")
                            dd = sp.dim(d)
                            if dd and lab.startswith("best:"):
                                if not any(report.family_member(x, lab[5:]) for x in dd.labels):
                                    raise ReproError(f"{where}: '{lab}' needs labels {lab[5:]}:N in {d} of sweep '{obj.sweep}'")
                            elif dd and lab not in dd.labels:
                                raise ReproError(f"{where}: '{lab}' is not a label of {d} in sweep '{obj.sweep}' "
                                                 f"(labels: {', '.join(dd.labels)})")
                if isinstance(obj, claims.Claim) and obj.group and obj.group != "all":
                    for g in obj.group.split("+"):
                        if g not in sp.groups:
                            raise ReproError(f"{where}: sweep '{obj.sweep}' has no group '{g}' "
                                             f"(groups: {', '.join(sp.groups)})")
                if isinstance(obj, claims.Claim):
                    for m in [obj.metric, obj.metric_b] + obj.evidence:
                        check_metric(m, where)
                    if obj.metric == "best_param" and (obj.b or not any(v.startswith("best:") for v in obj.a.values())):
                        raise ReproError(f"{where}: metric=best_param is the N of a best:P label's choice: "
                                         f"a= needs one (a=sched:best:swl) and no b=")
                    if obj.bench and obj.bench not in sp.benchmarks:
                        raise ReproError(f"{where}: sweep '{obj.sweep}' has no benchmark '{obj.bench}' "
                                         f"(benchmarks: {', '.join(sp.benchmarks)})")
                elif obj.kind != "series":
                    for m in obj.metrics:
                        check_metric(m, where)
                    for g in obj.groups or []:
                        if g != "all" and g not in sp.groups:
                            raise ReproError(f"{where}: sweep '{obj.sweep}' has no group '{g}' "
                                             f"(groups: {', '.join(list(sp.groups) + ['all'])})")
                out.append(obj)

    def _check_phase_claim(self, c, where):
        t = self.timeline(c.timeline)
        if t is None:
            raise ReproError(f"{where}: no timeline figure '{c.timeline}' in figures.txt "
                             f"(timelines: {', '.join(x.id for x in self.timelines) or 'none'})")
        if t.style != "states":
            raise ReproError(f"{where}: timeline '{t.id}' draws style {t.style}: warp-phases need style states")
        if c.a["sched"] not in t.scheds:
            raise ReproError(f"{where}: timeline '{t.id}' runs {', '.join(t.scheds)}, not {c.a['sched']}")

    def timeline(self, tid):
        """The timeline figure spec with this id, or None."""
        return next((t for t in self.timelines if t.id == tid), None)

    def technique_for(self, sets):
        """The technique's name a label's overrides name, if any."""
        for name, kvs in self.techniques:
            if any(s in sets for s in kvs):
                return name
        return None


def list_papers(root=None):
    d = root or papers_dir()
    try:
        return sorted(p for p in os.listdir(d) if os.path.isfile(os.path.join(d, p, "paper.txt")))
    except OSError:
        return []
