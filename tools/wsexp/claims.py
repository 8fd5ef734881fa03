"""claims.py - one `claim` line of a paper's claims.txt, the value warpsim measures for it, and its
verdict: how large our effect is against the paper's (doc/reproducing.md, "Claims").
Pure functions over a results lookup; no files, no runs. Depends on means.py only.
"""

import math

from . import means

AGGS = ("hmean", "gmean", "amean", "max", "min")
MODES = ("mean-of-ratios", "ratio-of-means", "mean-of-differences")
SOURCES = ("stated", "figure", "derived")
KEYS = {"sweep", "text", "figure", "section", "metric", "metric_b", "group", "bench", "agg", "a", "b", "where",
        "paper", "source", "neutral", "mode", "note", "needs", "outside", "timeline", "cta", "phase", "warp",
        "evidence"}
# metric= of a claim on one warp-phase of a timeline figure (timeline=ID; timeline_fig.phase_value)
PHASE_METRICS = ("longest_wait", "wait", "wait_cycles", "rtru", "cycles")

# The verdicts, in the order reports count them.
VERDICTS = ("holds", "weaker", "stronger", "opposite", "no result", "not available")
# A qualitative claim (paper=">1") holds when our effect is at least this far from 1, unless the
# claim states its own band (neutral=): a 0.3% gain is no evidence of "improves".
QUALITATIVE_BAND = 0.02
# An effect ratio inside [LOW, HIGH] reproduces the paper's effect; below is weaker, above stronger.
EFFECT_LOW, EFFECT_HIGH = 0.5, 2.0


class ClaimError(Exception):
    """A mistake in a claim line; the message names file and line."""


def parse_sel(text, where, err=ClaimError):
    """'sched:lrr,l1d.size:16K' -> {'sched': 'lrr', 'l1d.size': '16K'}"""
    out = {}
    for part in [p for p in (text or "").split(",") if p]:
        d, colon, lab = part.partition(":")
        if not colon or not d or not lab:
            raise err(f"{where}: expected DIM:LABEL, got '{part}'")
        out[d] = lab
    return out


def _finite(text, where, key, what):
    try:
        v = float(text)
    except ValueError:
        raise ClaimError(f"{where}: {key}= must be {what}, got '{text}'")
    if not math.isfinite(v):
        raise ClaimError(f"{where}: {key}= must be a finite number, got '{text}'")
    return v


class Claim:
    """One quantitative statement: a = the measured side, b = what it is compared with (or none:
    a value), paper = the paper's number or a direction (>1, <1) without a number."""

    def __init__(self, cid, kv, where):
        self.id, self.where = cid, where
        self.timeline = kv.get("timeline")
        for k in ("metric", "a", "paper", "text") + (() if self.timeline else ("sweep",)):
            if k not in kv:
                raise ClaimError(f"{where}: claim {cid} needs {k}=")
        if self.timeline:
            self._phase_claim(kv, where)
            return
        for k in ("cta", "phase", "warp"):
            if k in kv:
                raise ClaimError(f"{where}: {k}= belongs to a claim on a timeline figure (timeline=ID)")
        if ("group" in kv) == ("bench" in kv):
            raise ClaimError(f"{where}: claim {cid} needs exactly one of group= or bench=")
        self.sweep, self.metric, self.text = kv["sweep"], kv["metric"], kv["text"]
        self.group, self.bench = kv.get("group"), kv.get("bench")
        self.agg = kv.get("agg", "amean" if self.group else "value")
        if self.agg not in AGGS + ("value",):
            raise ClaimError(f"{where}: agg= is one of {', '.join(AGGS)}, value; got '{self.agg}'")
        self.a = parse_sel(kv["a"], where)
        self.metric_b = kv.get("metric_b")
        self.b = parse_sel(kv.get("b"), where) if kv.get("b") else (dict(self.a) if self.metric_b else None)
        self.fixed = parse_sel(kv.get("where"), where)
        self.cta = self.phase = self.warp = None
        self.paper_dir = kv["paper"] if kv["paper"] in (">1", "<1") else None
        if self.paper_dir and not self.b:
            raise ClaimError(f"{where}: paper={kv['paper']} needs a comparison (b= or metric_b=)")
        self.paper = None if self.paper_dir else _finite(kv["paper"], where, "paper", "a number, >1 or <1")
        self._common(kv, where)
        if self.mode not in MODES:
            raise ClaimError(f"{where}: mode= is {', '.join(MODES)}; got '{self.mode}'")
        if self.mode == "mean-of-differences" and self.paper_dir:
            raise ClaimError(f"{where}: mode=mean-of-differences takes a number (paper=)")

    def _phase_claim(self, kv, where):
        """A value of one warp-phase of a timeline figure (BAWS Figure 4's wait): the run of its
        scheduler a=sched:S, the window's CTA at position cta= (0: the first on the SM), phase= (1:
        from launch to the first release), metric= a column of its phases (PHASE_METRICS; wait: the
        own wait of warp slot warp=)."""
        bad = [k for k in ("sweep", "group", "bench", "agg", "b", "metric_b", "where", "mode") if k in kv]
        if bad:
            keys = ", ".join(k + "=" for k in bad)
            raise ClaimError(f"{where}: a claim on a timeline figure (timeline=) takes no {keys} "
                             "(it reads one run's warp-phases: a=sched:S, cta=, phase=, metric=, warp=)")
        self.sweep, self.group, self.bench, self.agg = None, None, None, "value"
        self.metric, self.text, self.metric_b, self.b, self.fixed = kv["metric"], kv["text"], None, None, {}
        self.a = parse_sel(kv["a"], where)
        if list(self.a) != ["sched"]:
            raise ClaimError(f"{where}: a claim on a timeline figure selects its run by a=sched:S")
        if self.metric not in PHASE_METRICS:
            raise ClaimError(f"{where}: metric= of a claim on a timeline figure is one of "
                             f"{', '.join(PHASE_METRICS)}; got '{self.metric}'")
        if ("warp" in kv) != (self.metric == "wait"):
            raise ClaimError(f"{where}: metric=wait and warp=SLOT go together (one warp's own wait)")
        try:
            self.cta, self.phase = int(kv.get("cta", 0)), int(kv.get("phase", 1))
            self.warp = int(kv["warp"]) if "warp" in kv else None
        except ValueError:
            raise ClaimError(f"{where}: cta=, phase= and warp= are whole numbers")
        if self.cta < 0 or self.phase < 1 or (self.warp is not None and self.warp < 0):
            raise ClaimError(f"{where}: cta= counts from 0, phase= from 1, warp= is a warp slot (0 or more)")
        if kv["paper"] in (">1", "<1"):
            raise ClaimError(f"{where}: a claim on a timeline figure states a number (paper=)")
        self.paper_dir, self.paper = None, _finite(kv["paper"], where, "paper", "a number")
        self._common(kv, where)

    def _common(self, kv, where):
        self.needs = kv.get("needs")
        self.source = kv.get("source", "stated")
        if self.source not in SOURCES:
            raise ClaimError(f"{where}: source= is stated (a number in the text), figure (read off a figure) "
                             f"or derived (computed from stated numbers); got '{self.source}'")
        self.neutral = None
        if "neutral" in kv:
            self.neutral = _finite(kv["neutral"], where, "neutral", "a number (the band around 1)")
            if self.neutral < 0:
                raise ClaimError(f"{where}: neutral= must be at least 0, got '{kv['neutral']}'")
        self.mode = kv.get("mode", "mean-of-ratios")
        self.figure = kv.get("figure", "")
        self.section = kv.get("section", "")
        self.note = kv.get("note", "")
        # a choice of ours the paper does not make (a configuration, a reading): shown with the verdict
        self.outside = kv.get("outside", "")
        # the mechanism's statistics, shown beside the verdict under a and b: why the effect is what it is
        self.evidence = [m.strip() for m in kv.get("evidence", "").split(",") if m.strip()]
        if self.evidence and self.timeline:
            raise ClaimError(f"{where}: evidence= is for claims over sweeps' runs, not a timeline figure's phase")

    @property
    def ref(self):
        """What 'no effect' is: 1 for a ratio, 0 for a difference or a plain value."""
        return 1.0 if self.b and self.mode != "mean-of-differences" else 0.0

    @property
    def band(self):
        if self.neutral is not None:
            return self.neutral
        return QUALITATIVE_BAND if self.paper_dir and self.ref == 1.0 else 0.0

    def no_change(self):
        """The paper claims no effect: its number lies inside the band around 1 (or 0)."""
        return self.b is not None and self.paper is not None and abs(self.paper - self.ref) <= self.band

    def measurement(self):
        """What the claim measures: two claims with equal keys are one measurement, counted once."""
        if self.timeline:
            return (self.timeline, self.metric, self.a.get("sched"), self.cta, self.phase, self.warp)
        return (self.sweep, self.metric, self.metric_b or "", self.group or "", self.bench or "", self.agg,
                self.mode, tuple(sorted(self.a.items())), tuple(sorted((self.b or {}).items())),
                tuple(sorted(self.fixed.items())))


def effect_ratio(claim, ours):
    """(ours - ref) / (paper - ref), or None where the paper states no effect size."""
    if ours is None or claim.paper is None or claim.no_change():
        return None
    den = claim.paper - claim.ref
    return (ours - claim.ref) / den if den else None


def verdict(claim, ours):
    """(verdict, effect ratio or None) of our value against the paper's claim (VERDICTS)."""
    if ours is None:
        return "no result", None
    if not math.isfinite(ours):
        raise ValueError(f"claim {claim.id}: not a finite value: {ours}")
    ref, band = claim.ref, claim.band
    d = ours - ref
    if claim.paper_dir:
        want = 1 if claim.paper_dir == ">1" else -1
        if abs(d) < band or d == 0:
            return "weaker", None
        return ("holds" if d * want > 0 else "opposite"), None
    if claim.no_change():
        return ("holds" if abs(d) <= band else "stronger"), None
    e = effect_ratio(claim, ours)
    if band and abs(d) <= band:
        return "weaker", e
    if e < 0:
        return "opposite", e
    if e < EFFECT_LOW:
        return "weaker", e
    if e > EFFECT_HIGH:
        return "stronger", e
    return "holds", e


# ---- the value of a claim from a sweep's results ----

def aggregate(vals, how):
    """The aggregate of the values present (None for a missing one); a geometric or harmonic mean
    of a non-positive value raises means.MeanError."""
    xs = [v for v in vals if v is not None]
    if not xs:
        return None
    if how == "hmean":
        return means.harmonic(xs)
    if how == "gmean":
        return means.geometric(xs)
    if how == "amean":
        return means.arithmetic(xs)
    if how == "max":
        return max(xs)
    if how == "min":
        return min(xs)
    raise ValueError(how)


def claim_value(claim, benches, lookup, stat, stat_b):
    """(warpsim value, benchmarks used, benchmarks without a value); lookup(bench, sel, stat) gives
    one run's statistic or None."""
    sa = dict(claim.fixed, **claim.a)
    sb = dict(claim.fixed, **claim.b) if claim.b else None
    per, used, missing = [], [], []
    va_all, vb_all = [], []
    diff = claim.mode == "mean-of-differences"
    for b in benches:
        va = lookup(b, sa, stat)
        vb = lookup(b, sb, stat_b) if sb else None
        if va is None or (sb and (vb is None or (vb == 0 and not diff))):
            missing.append(b)
            continue
        used.append(b)
        va_all.append(va)
        vb_all.append(vb)
        per.append(va - vb if sb and diff else va / vb if sb else va)
    if not used:
        return None, used, missing
    how = "amean" if claim.agg == "value" else claim.agg
    if sb and claim.mode == "ratio-of-means":
        num, den = aggregate(va_all, how), aggregate(vb_all, how)
        return (num / den if num is not None and den else None), used, missing
    return aggregate(per, how), used, missing


def evidence_values(claim, benches, lookup, stat):
    """(mean under a, mean under b or None) of one evidence statistic: arithmetic means over the
    benchmarks that have it under both selections; a policy's own statistic, which b's runs lack
    everywhere, gives a's mean alone. (None, None) if no run has it."""
    sa = dict(claim.fixed, **claim.a)
    sb = dict(claim.fixed, **claim.b) if claim.b else None
    pairs = [(lookup(b, sa, stat), lookup(b, sb, stat) if sb else None) for b in benches]
    both = [(x, y) for x, y in pairs if x is not None and (not sb or y is not None)]
    if both:
        return means.arithmetic([x for x, _ in both]), (means.arithmetic([y for _, y in both]) if sb else None)
    alone = [x for x, _ in pairs if x is not None]
    return (means.arithmetic(alone) if alone else None), None


def count(rows):
    """{verdict: n} over (claim, verdict) pairs, a measurement made by several claims counted once
    (under its first claim's verdict)."""
    out = {v: 0 for v in VERDICTS}
    seen = set()
    for c, v in rows:
        key = c.measurement() + ((c.paper, c.paper_dir),)
        if key in seen:
            continue
        seen.add(key)
        out[v.split(" (")[0]] += 1
    return out


def summary(counts):
    """'12 hold, 3 weaker, ...' in VERDICTS order."""
    names = {"holds": "hold"}
    return ", ".join(f"{counts.get(v, 0)} {names.get(v, v)}" for v in VERDICTS)
