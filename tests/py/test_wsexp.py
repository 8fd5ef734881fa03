"""Unit tests of tools/wsexp's pure functions: claim verdicts and values, means, sweep value
expansion, best-of families. Run by tests/cli/wsexp_unit.sh (PYTHONPATH=tools python3 -m unittest).
"""

import math
import unittest

import os
import random
import shlex
import tempfile

from wsexp import claims, means, plot, report, runner, spec, words


def claim(paper, b="sched:gto", **kv):
    kv = dict({"sweep": "s", "text": "t", "metric": "ipc", "group": "g", "a": "sched:ccws",
               "paper": str(paper)}, **kv)
    kv = {k: v for k, v in kv.items() if v is not None}   # group=None: a claim on one bench=
    if b:
        kv["b"] = b
    return claims.Claim("c", kv, "claims.txt:1")


class Verdicts(unittest.TestCase):
    def check(self, c, ours, want, effect=None):
        v, e = claims.verdict(c, ours)
        self.assertEqual(v, want, (ours, c.paper, c.paper_dir))
        if effect is None:
            self.assertIsNone(e)
        else:
            self.assertAlmostEqual(e, effect)

    def test_speedup(self):
        c = claim(1.63)
        self.check(c, 1.003, "weaker", 0.003 / 0.63)   # the direction agrees, the effect does not
        self.check(c, 1.63, "holds", 1.0)
        self.check(c, 1.315, "holds", 0.5)            # the band's ends hold
        self.check(c, 2.26, "holds", 2.0)
        self.check(c, 1.3, "weaker", 0.3 / 0.63)
        self.check(c, 2.4, "stronger", 1.4 / 0.63)
        self.check(c, 0.9, "opposite", -0.1 / 0.63)
        self.check(c, 1.0, "weaker", 0.0)
        self.check(c, None, "no result")

    def test_slowdown(self):
        c = claim(0.36)
        self.check(c, 0.5, "holds", 0.5 / 0.64)
        self.check(c, 0.9, "weaker", 0.1 / 0.64)
        self.check(c, 1.1, "opposite", -0.1 / 0.64)

    def test_no_change(self):
        c = claim(1.0, neutral="0.02")
        self.assertTrue(c.no_change())
        self.check(c, 1.019, "holds")
        self.check(c, 0.981, "holds")
        self.check(c, 1.05, "stronger")
        self.check(c, 0.9, "stronger")
        c = claim(1.0094, neutral="0.02")   # a small stated number inside the band: no change
        self.assertTrue(c.no_change())
        self.check(c, 1.0, "holds")

    def test_band_on_a_number(self):
        c = claim(1.2, neutral="0.05")      # inside the band counts as no effect, never opposite
        self.check(c, 0.97, "weaker", -0.03 / 0.2)
        self.check(c, 0.9, "opposite", -0.1 / 0.2)

    def test_qualitative(self):
        c = claim(">1")
        self.assertEqual(c.band, claims.QUALITATIVE_BAND)
        self.check(c, 1.05, "holds")
        self.check(c, 1.02, "holds")
        self.check(c, 1.003, "weaker")      # the default 2% band: too small to count
        self.check(c, 0.999, "weaker")
        self.check(c, 0.95, "opposite")
        c = claim("<1", neutral="0.1")
        self.check(c, 0.95, "weaker")
        self.check(c, 0.85, "holds")
        self.check(c, 1.2, "opposite")

    def test_difference(self):
        c = claim(0.236, mode="mean-of-differences")
        self.assertEqual(c.ref, 0.0)
        self.check(c, 0.2, "holds", 0.2 / 0.236)
        self.check(c, 0.05, "weaker", 0.05 / 0.236)
        self.check(c, -0.05, "opposite", -0.05 / 0.236)

    def test_value(self):
        c = claim(0.45, b=None)
        self.assertEqual(c.ref, 0.0)
        self.check(c, 0.30, "holds", 0.30 / 0.45)
        self.check(c, 0.10, "weaker", 0.10 / 0.45)
        self.check(c, 1.0, "stronger", 1.0 / 0.45)

    def test_not_finite(self):
        with self.assertRaises(ValueError):
            claims.verdict(claim(1.5), math.nan)

    def test_count_once(self):
        a, b, c = claim(1.63), claim(1.63), claim(1.2, a="sched:lrr")
        counts = claims.count([(a, "weaker"), (b, "weaker"), (c, "holds"), (c, "not available")])
        self.assertEqual(counts["weaker"], 1)
        self.assertEqual(counts["holds"], 1)
        self.assertEqual(counts["not available"], 0)   # c again: one measurement
        self.assertEqual(claims.summary(counts), "1 hold, 1 weaker, 0 stronger, 0 opposite, 0 no result, 0 not available")


class ClaimLines(unittest.TestCase):
    def bad(self, want, **kv):
        with self.assertRaises(claims.ClaimError) as cm:
            claim(**kv)
        self.assertIn(want, str(cm.exception))
        self.assertIn("claims.txt:1", str(cm.exception))

    def test_errors(self):
        self.bad("paper= must be a finite number", paper="inf")
        self.bad("paper= must be a finite number", paper="nan")
        self.bad("paper= must be a number, >1 or <1, got 'lots'", paper="lots")
        self.bad("neutral= must be at least 0", paper="1", neutral="-0.1")
        self.bad("neutral= must be a finite number", paper="1", neutral="inf")
        self.bad("source= is stated", paper="1", source="guess")
        self.bad("agg= is one of", paper="1", agg="median")
        self.bad("needs a comparison", paper=">1", b=None)

    def test_measurement(self):
        self.assertEqual(claim(1.63).measurement(), claim(1.2).measurement())
        self.assertNotEqual(claim(1.63).measurement(), claim(1.63, where="l1d.size:8K").measurement())


class Evidence(unittest.TestCase):
    MPKI = {("x", "ccws"): 10.0, ("x", "gto"): 30.0, ("y", "ccws"): 20.0, ("y", "gto"): 50.0, ("z", "gto"): 7.0}

    def lookup(self, bench, sel, stat):
        return self.MPKI.get((bench, sel["sched"]))

    def test_means_over_benchmarks_with_both(self):
        c = claim(1.63, evidence="l1d_mpki, barrier_stall")
        self.assertEqual(c.evidence, ["l1d_mpki", "barrier_stall"])
        # z has no ccws run: left out of both means, so they compare the same benchmarks
        self.assertEqual(claims.evidence_values(c, ["x", "y", "z"], self.lookup, "s"), (15.0, 40.0))
        # a policy's own statistic (only ccws has it here): a's mean alone
        self.assertEqual(claims.evidence_values(c, ["x", "y"], lambda b, s, st: self.lookup(b, s, st)
                                                if s["sched"] == "ccws" else None, "s"), (15.0, None))
        self.assertEqual(claims.evidence_values(c, ["w"], self.lookup, "s"), (None, None))
        one = claim(0.5, b=None, metric="l1d_miss_rate", group=None, bench="x", evidence="l1d_mpki")
        self.assertEqual(claims.evidence_values(one, ["x"], self.lookup, "s"), (10.0, None))

    def test_not_on_timeline(self):
        with self.assertRaises(claims.ClaimError) as cm:
            claims.Claim("c", {"timeline": "t", "text": "t", "metric": "wait", "warp": "3", "a": "sched:gto",
                               "paper": "3800", "evidence": "l1d_mpki"}, "claims.txt:9")
        self.assertIn("claims.txt:9", str(cm.exception))


class ClaimValues(unittest.TestCase):
    IPC = {("x", "ccws"): 2.0, ("x", "gto"): 1.0, ("y", "ccws"): 1.0, ("y", "gto"): 2.0, ("z", "gto"): 1.0}

    def lookup(self, bench, sel, stat):
        return self.IPC.get((bench, sel["sched"]))

    def value(self, c, benches=("x", "y")):
        return claims.claim_value(c, list(benches), self.lookup, "ipc", "ipc")

    def test_means_of_ratios(self):
        v, used, missing = self.value(claim(1.5, agg="hmean"))
        self.assertAlmostEqual(v, 2 / (0.5 + 2))
        self.assertEqual((used, missing), (["x", "y"], []))
        self.assertAlmostEqual(self.value(claim(1.5, agg="gmean"))[0], 1.0)
        self.assertAlmostEqual(self.value(claim(1.5, agg="amean"))[0], 1.25)
        self.assertAlmostEqual(self.value(claim(1.5, agg="max"))[0], 2.0)

    def test_ratio_of_means_and_differences(self):
        self.assertAlmostEqual(self.value(claim(1.5, mode="ratio-of-means"))[0], 1.0)
        self.assertAlmostEqual(self.value(claim(0.1, mode="mean-of-differences"))[0], 0.0)

    def test_missing(self):
        v, used, missing = self.value(claim(1.5), ("x", "z"))
        self.assertEqual((v, used, missing), (2.0, ["x"], ["z"]))
        self.assertEqual(self.value(claim(1.5), ("z",))[0], None)

    def test_zero_is_loud(self):
        self.IPC = dict(self.IPC)
        self.IPC[("z", "ccws")] = 0.0
        with self.assertRaises(means.MeanError):
            self.value(claim(1.5, agg="gmean"), ("x", "z"))


class Means(unittest.TestCase):
    def test_values(self):
        self.assertAlmostEqual(means.arithmetic([1, 2, 3]), 2.0)
        self.assertAlmostEqual(means.geometric([1, 4]), 2.0)
        self.assertAlmostEqual(means.harmonic([1, 3]), 1.5)
        self.assertAlmostEqual(means.arithmetic([-1, 1]), 0.0)

    def test_loud(self):
        for fn in (means.geometric, means.harmonic):
            for bad in ([1.0, 0.0], [2.0, -1.0]):
                with self.assertRaises(means.MeanError):
                    fn(bad)
        for fn in (means.arithmetic, means.geometric, means.harmonic):
            for bad in ([], [1.0, math.nan], [math.inf], ["1"], [None], [True]):
                with self.assertRaises(means.MeanError):
                    fn(bad)

    def test_report_skips_missing_only(self):
        self.assertAlmostEqual(report.geomean([None, 1.0, 4.0]), 2.0)
        self.assertIsNone(report.geomean([None]))
        with self.assertRaises(means.MeanError):
            report.harmean([None, 0.0, 1.0])


class Expansion(unittest.TestCase):
    def test_values(self):
        self.assertEqual(spec.expand_values("swl:1..4", "f:1"), ["swl:1", "swl:2", "swl:3", "swl:4"])
        self.assertEqual(spec.expand_values("0..8/4", "f:1"), ["0", "4", "8"])
        self.assertEqual(spec.expand_values("16K,32K", "f:1"), ["16K", "32K"])
        self.assertEqual(spec.expand_values("lrr", "f:1"), ["lrr"])

    def test_errors(self):
        for bad, want in (("4..1", "bad range"), ("1..4/0", "bad range"), ("a,,b", "empty value"),
                          ("1..99999", "too long")):
            with self.assertRaises(spec.SpecError) as cm:
                spec.expand_values(bad, "f.sweep:3")
            self.assertIn(want, str(cm.exception))
            self.assertIn("f.sweep:3", str(cm.exception))


class SweepDir(unittest.TestCase):
    def test_bench_resolved_when_run(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "p.sweep")
            with open(path, "w") as f:
                f.write("name p\nbenchmarks a b\naxis sched lrr\nvariant sched st sm.observers=bypass "
                        "observer.bypass.classes={sweepdir}/classes/{bench}.cls\n")
            runs = [r for r in spec.expand(spec.parse(path)) if r.labels["sched"] == "st"]
            self.assertEqual(len(runs), 2)
            for r in runs:
                self.assertIn("observer.bypass.classes={sweepdir}/classes/{bench}.cls", r.sets)   # the id keeps it
                cmd = runner.command("warpsim", r.definition(), "/r/runs/x/stats.json")
                self.assertIn(f"observer.bypass.classes={d}/classes/{r.benchmark}.cls", cmd)
            self.assertNotEqual(runs[0].id, runs[1].id)

    def test_resolved_when_run(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "p.sweep")
            with open(path, "w") as f:
                f.write("name p\nbenchmarks a\naxis sched lrr\nvariant sched st sm.observers=bypass "
                        "observer.bypass.classes={sweepdir}/classes.cls\n")
            runs = spec.expand(spec.parse(path))
            st = [r for r in runs if r.labels["sched"] == "st"][0]
            self.assertIn("observer.bypass.classes={sweepdir}/classes.cls", st.sets)   # the id keeps it
            cmd = runner.command("warpsim", st.definition(), "/r/runs/x/stats.json")
            self.assertIn(f"observer.bypass.classes={d}/classes.cls", cmd)
            old = dict(st.definition(), sweep_dir=None)                                 # a plan made before
            with self.assertRaises(RuntimeError):
                runner.command("warpsim", old, "/r/runs/x/stats.json")


class Words(unittest.TestCase):
    def test_as_shlex(self):
        rnd = random.Random(7)
        alpha = "ab \"'\\#=\t"
        cases = ['claim c1 text="a b" x', "a 'b c' d", "a # c", 'x "a\\"b" y', '"a\\\\" b', "a\\ b"]
        cases += ["".join(rnd.choice(alpha) for _ in range(rnd.randint(0, 16))) for _ in range(3000)]
        for c in cases:
            try:
                want = shlex.split(c, comments=True)
            except ValueError:
                with self.assertRaises(words.WordsError, msg=repr(c)):
                    words.split(c)
                continue
            self.assertEqual(words.split(c), want, repr(c))

    def test_long_line(self):
        w = words.split('claim c1 text="' + "x" * (2 << 20) + '" paper=1')
        self.assertEqual(len(w), 4)
        self.assertEqual(len(w[2]), 5 + (2 << 20))


class Families(unittest.TestCase):
    def test_prefix(self):
        self.assertEqual(report.family_prefix("swl:8"), "swl")
        self.assertEqual(report.family_prefix("k32"), "k")
        self.assertEqual(report.family_prefix("tlp:2"), "tlp")
        self.assertIsNone(report.family_prefix("gto"))
        self.assertIsNone(report.family_prefix(None))
        self.assertTrue(report.family_member("swl:16", "swl"))
        self.assertFalse(report.family_member("gto", "swl"))
        self.assertFalse(report.family_member("k8", "swl"))


class LogScale(unittest.TestCase):
    def test_rule(self):
        self.assertTrue(plot.log_y([0.5, 4655.0, None]))     # MPKI of kmeans beside a streaming kernel
        self.assertTrue(plot.log_y([0.0, 1.0, 100.0]))       # zeros are not drawn, the rest decide
        self.assertFalse(plot.log_y([10.0, 20.0, 40.0]))
        self.assertFalse(plot.log_y([0.0, None]))

    def test_gnuplot_script(self):
        # the script is written before gnuplot runs; without gnuplot the run fails and the script stays
        with tempfile.TemporaryDirectory() as d:
            base = os.path.join(d, "f")
            try:
                plot._gp_bars(base, "t", "MPKI", [(None, [("a", [0.5]), ("b", [4655.0]), ("c", [0.0])])], ["lrr"],
                              None, True)
            except plot.PlotError:
                pass
            gp = open(base + ".gp").read()
            self.assertIn("set logscale y", gp)
            self.assertIn("MPKI (log scale)", gp)
            self.assertNotIn("set yrange [0:*]", gp)


class SpanCharts(unittest.TestCase):
    """The timeline figures' kinds: the SVG is written by hand whatever the backend; none draws no PNG."""

    def test_spans_svg_without_backend(self):
        with tempfile.TemporaryDirectory() as d:
            base = os.path.join(d, "s")
            rows = [("w0", [(0, 50, "issue"), (50, 100, "barrier")]), ("w1", [(0, 100, "barrier")])]
            files = plot.Plotter("none").spans(base, "t <1>", 0, 100, rows, [(100, 0, 1)],
                                               {"issue": "#2ca02c", "barrier": "#1f77b4"}, "line: release")
            self.assertEqual(files, [base + ".svg"])
            svg = open(base + ".svg").read()
            self.assertEqual(svg.count('fill="#1f77b4"><title>barrier'), 2)  # w0's second half, w1 whole
            self.assertIn("t &lt;1&gt;", svg)
            self.assertEqual(svg.count("<line "), 1)

    def test_stacked_svg_and_gnuplot_script(self):
        with tempfile.TemporaryDirectory() as d:
            base = os.path.join(d, "b")
            parts = [("memory", "#d62728"), ("other", "#7f7f7f")]
            cats = [("w0", [30, 70]), ("w1", [0, 50])]
            files = plot.Plotter("none").stacked(base, "t", "cycles", cats, parts)
            self.assertEqual(files, [base + ".svg"])
            self.assertIn("<title>w0: memory 30</title>", open(base + ".svg").read())
            try:
                plot._gp_stacked(base, "t", "cycles", [("w0", [30, 70])], parts)
            except plot.PlotError:
                pass
            self.assertEqual(open(base + ".dat").read(), '30 70 "w0"\n')
            self.assertIn("using 1:xtic(3)", open(base + ".gp").read())


if __name__ == "__main__":
    unittest.main()
