"""Unit tests of the claims on one warp-phase of a timeline figure (BAWS Figure 4's single warp's
wait): the warp-phases timeline_fig.cta_phases computes from trace events, their CSV, the value a
claim line reads from a hand-made phases file, and its verdict. Run by tests/cli/wsexp_unit.sh.
"""

import contextlib
import io
import json
import os
import tempfile
import unittest

from wsexp import claims, timeline_fig

# Two CTAs of an SM's window, in launch order: CTA 7 (slots 0-1), CTA 21 (slots 16-18). CTA 21's
# first phase: slot 16 arrives first and waits 3700 cycles for slot 18, the last.
PHASES = [
    ("7", "1", "barrier", "0", "1000", "1000", "2", "100", "0.0500", "100", "1", "0:100 1:0"),
    ("7", "2", "exit", "1000", "1500", "500", "2", "50", "0.0500", "50", "0", "0:0 1:50"),
    ("21", "1", "barrier", "1", "4001", "4000", "3", "6700", "0.5583", "3700", "18", "16:3700 17:3000 18:0"),
    ("21", "2", "exit", "4001", "4500", "499", "3", "0", "0.0000", "0", "-1", ""),
]


def phase_claim(**kv):
    kv = dict({"timeline": "fig4", "text": "t", "metric": "wait", "warp": "16", "cta": "1", "phase": "1",
               "a": "sched:gto", "paper": "3800"}, **kv)
    kv = {k: v for k, v in kv.items() if v is not None}
    return claims.Claim("fwt-wait", kv, "claims.txt:1")


class PhaseClaims(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.csv = os.path.join(self.tmp.name, "fig4-gto.csv")
        with open(self.csv, "w") as f:
            f.write(timeline_fig.PHASES_HEAD + "\n" + "\n".join(",".join(r) for r in PHASES) + "\n")

    def tearDown(self):
        self.tmp.cleanup()

    def value(self, c):
        return timeline_fig.phase_value(self.csv, c.cta, c.phase, c.metric, c.warp)

    def test_one_warps_wait(self):
        c = phase_claim()
        v, what = self.value(c)
        self.assertEqual(v, 3700.0)
        self.assertIn("CTA 21 (position 1 on the SM), phase 1", what)
        self.assertIn("longest wait 3700 (warp 16), last to arrive warp 18; warp 16 waits 3700", what)
        self.assertEqual(claims.verdict(c, v)[0], "holds")
        self.assertAlmostEqual(claims.verdict(c, v)[1], 3700 / 3800)
        self.assertEqual(self.value(phase_claim(warp="17"))[0], 3000.0)
        self.assertEqual(self.value(phase_claim(warp="0", cta="0"))[0], 100.0)   # the first CTA on the SM

    def test_phase_columns(self):
        self.assertEqual(self.value(phase_claim(metric="longest_wait", warp=None))[0], 3700.0)
        self.assertEqual(self.value(phase_claim(metric="wait_cycles", warp=None))[0], 6700.0)
        self.assertEqual(self.value(phase_claim(metric="cycles", warp=None, phase="2"))[0], 499.0)
        self.assertAlmostEqual(self.value(phase_claim(metric="rtru", warp=None))[0], 0.5583)

    def test_verdicts(self):
        c = phase_claim()
        self.assertEqual(claims.verdict(c, 1828.0)[0], "weaker")      # effect ratio 0.481
        self.assertEqual(claims.verdict(c, 1900.0)[0], "holds")       # 0.5: the band's end
        self.assertEqual(claims.verdict(c, 8000.0)[0], "stronger")
        self.assertEqual(claims.verdict(c, None)[0], "no result")

    def test_not_in_the_window(self):
        v, what = self.value(phase_claim(warp="3"))
        self.assertIsNone(v)
        self.assertIn("warp 3 is not one of its warps (16 17 18)", what)
        v, what = self.value(phase_claim(cta="2"))
        self.assertIsNone(v)
        self.assertIn("the window has 2 CTA(s), no CTA at position 2", what)
        v, what = self.value(phase_claim(phase="3"))
        self.assertIsNone(v)
        self.assertIn("CTA 21 has 2 phase(s), no phase 3", what)

    def test_measurement(self):
        self.assertEqual(phase_claim().measurement(), phase_claim(paper="3000").measurement())
        self.assertNotEqual(phase_claim().measurement(), phase_claim(warp="17").measurement())
        self.assertNotEqual(phase_claim().measurement(), claims.Claim("x", {
            "sweep": "s", "text": "t", "metric": "ipc", "bench": "fwt", "a": "sched:gto", "paper": "3800"},
            "claims.txt:2").measurement())

    def test_errors(self):
        def bad(want, **kv):
            with self.assertRaises(claims.ClaimError) as cm:
                phase_claim(**kv)
            self.assertIn(want, str(cm.exception))
            self.assertIn("claims.txt:1", str(cm.exception))
        bad("takes no sweep=, bench=", sweep="main", bench="fwt")
        bad("takes no b=", b="sched:lrr")
        bad("metric=wait and warp=SLOT go together", warp=None)
        bad("metric=wait and warp=SLOT go together", metric="longest_wait")
        bad("is one of longest_wait, wait", metric="ipc", warp=None)
        bad("selects its run by a=sched:S", a="l1d.size:16K")
        bad("cta=, phase= and warp= are whole numbers", cta="two")
        bad("phase= from 1", phase="0")
        bad("states a number", paper=">1")
        with self.assertRaises(claims.ClaimError) as cm:   # a sweep's claim takes no warp-phase keys
            claims.Claim("x", {"sweep": "s", "text": "t", "metric": "ipc", "bench": "fwt", "a": "sched:gto",
                               "paper": "1", "warp": "3"}, "claims.txt:3")
        self.assertIn("warp= belongs to a claim on a timeline figure", str(cm.exception))


class CtaPhases(unittest.TestCase):
    """cta_phases on hand-made trace events: each warp's own wait, the longest and the last warp."""

    def test_waits(self):
        cta = {"ph": "X", "pid": 1, "tid": timeline_fig.CTA_TID, "name": "CTA 5", "ts": 10, "dur": 990,
               "args": {"warps": 3}}
        ev = [cta, {"ph": "i", "pid": 1, "tid": timeline_fig.CTA_TID, "name": "barrier release", "ts": 500,
                    "args": {"warps": 3, "wait_cycles": 400 + 100 + 0}}]
        for slot, arrive, leave in ((32, 100, 900), (33, 400, 1000), (34, 500, 950)):
            ev += [{"ph": "i", "pid": 1, "tid": slot, "name": "warp launch", "ts": 10, "args": {"cta": 5}},
                   {"ph": "i", "pid": 1, "tid": slot, "name": "barrier arrive", "ts": arrive, "args": {}},
                   {"ph": "i", "pid": 1, "tid": slot, "name": "warp exit", "ts": leave, "args": {}}]
        ph = timeline_fig.cta_phases(ev, 0, [cta])
        self.assertEqual(ph[0], (5, 1, "barrier", 10, 500, 3, 500, 500 / (3 * 490), 400, 34,
                                 [(32, 400), (33, 100), (34, 0)]))
        self.assertEqual(ph[1][:6], (5, 2, "exit", 500, 1000, 3))
        self.assertEqual(ph[1][6:], (100 + 0 + 50, 150 / (3 * 500), 100, 33, [(32, 100), (33, 0), (34, 50)]))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "p.csv")
            timeline_fig.phases_csv(ph, path)
            rows = timeline_fig.read_phases(path)
            self.assertEqual((rows[0]["last_warp"], rows[0]["waits"]), ("34", "32:400 33:100 34:0"))
            self.assertEqual(timeline_fig.phase_value(path, 0, 1, "wait", 33)[0], 100.0)


def cta_events(sm, cta, track, ts, dur, slots, arrivals, release):
    """Trace events of one CTA on SM sm (CTA slot track): its slice, its warps' launches and first-barrier arrivals
    (slot -> cycle) and the release at cycle release; its warps leave at the CTA's end."""
    pid, track = sm + 1, timeline_fig.CTA_TID + track
    ev = [{"ph": "X", "pid": pid, "tid": track, "name": f"CTA {cta}", "ts": ts, "dur": dur,
           "args": {"warps": len(slots)}},
          {"ph": "i", "pid": pid, "tid": track, "name": "barrier release", "ts": release,
           "args": {"warps": len(slots), "wait_cycles": sum(release - a for a in arrivals.values())}}]
    for i, slot in enumerate(slots):
        ev += [{"ph": "i", "pid": pid, "tid": slot, "name": "warp launch", "ts": ts, "args": {"cta": cta, "warp": i}},
               {"ph": "i", "pid": pid, "tid": slot, "name": "barrier arrive", "ts": arrivals[slot], "args": {}},
               {"ph": "i", "pid": pid, "tid": slot, "name": "warp exit", "ts": ts + dur, "args": {}}]
    return ev


class PhaseSpread(unittest.TestCase):
    """phase_spread over hand-made events: two SMs, each with two CTAs from the kernel's start and
    a third launched when the first left (the later CTAs); first-warp and longest waits, the summary."""

    def setUp(self):
        self.ev = [{"ph": "X", "pid": 0, "tid": 0, "name": "k0", "ts": 0, "dur": 50},
                   {"ph": "X", "pid": 0, "tid": 0, "name": "k1", "ts": 50, "dur": 5000}]
        # SM 0: CTA 0 (slots 0-1) and CTA 2 (slots 2-3) at 50; CTA 4 in slots 0-1 at 1050, after CTA 0 left
        self.ev += cta_events(0, 0, 0, 50, 1000, [0, 1], {0: 300, 1: 400}, 400)
        self.ev += cta_events(0, 2, 1, 50, 2000, [2, 3], {2: 200, 3: 900}, 900)
        self.ev += cta_events(0, 4, 0, 1050, 1000, [0, 1], {0: 1100, 1: 1600}, 1600)
        # SM 1: CTA 1 and CTA 3 at 51
        self.ev += cta_events(1, 1, 0, 51, 1000, [0, 1], {0: 100, 1: 151}, 151)
        self.ev += cta_events(1, 3, 1, 51, 1000, [2, 3], {2: 351, 3: 151}, 351)
        # a CTA of the previous launch: not counted
        self.ev += cta_events(1, 9, 2, 0, 40, [4, 5], {4: 10, 5: 20}, 20)

    def test_rows(self):
        rows = timeline_fig.phase_spread(self.ev, 1, 1)
        self.assertEqual([r[:4] for r in rows], [(0, 0, True, 0), (0, 1, True, 2), (0, 2, False, 4),
                                                 (1, 0, True, 1), (1, 1, True, 3)])
        # (start, cycles, longest, last, first warp, its wait)
        self.assertEqual(rows[1][4:], (50, 850, 700, 3, 2, 700))
        self.assertEqual(rows[2][4:], (1050, 550, 500, 1, 0, 500))
        self.assertEqual(rows[4][4:], (51, 300, 200, 2, 2, 0))   # the first warp arrives last here
        lines = timeline_fig.spread_lines(rows, 1)
        self.assertEqual(lines[0], "phase 1, CTA position 0 (first wave, 2 SMs): first warp's wait min 51 median 75.5 "
                                   "p90 51 max 100; longest wait min 51 median 75.5 p90 51 max 100")
        self.assertIn("phase 1, CTA position 1 (first wave, 2 SMs): first warp's wait min 0 median 350 p90 0 max 700",
                      lines[1])
        self.assertEqual(lines[2], "phase 1, CTAs launched later (1): longest wait min 500 median 500 p90 500 max 500")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.csv")
            timeline_fig.spread_csv(rows, path)
            with open(path) as f:
                text = f.read().splitlines()
            self.assertEqual(text[0], timeline_fig.SPREAD_HEAD)
            self.assertEqual(text[2], "0,1,1,2,50,850,700,3,2,700")

    def test_exit_phase(self):
        rows = timeline_fig.phase_spread(self.ev, 1, 2)   # after the one barrier: the exit phase
        self.assertEqual(rows[0], (0, 0, True, 0, 400, 650, 0, 1, 0, 0))

    def test_command(self):
        with tempfile.TemporaryDirectory() as d:
            trace, base = os.path.join(d, "t.json"), os.path.join(d, "s")
            with open(trace, "w") as f:
                json.dump({"traceEvents": self.ev}, f)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                self.assertEqual(timeline_fig.main([trace, "-o", base, "--kernel", "1", "--spread", "1"]), 0)
                self.assertEqual(timeline_fig.main([trace, "-o", base, "--kernel", "1", "--spread", "3"]), 1)
                self.assertEqual(timeline_fig.main([trace, "-o", os.path.join(d, "no", "s"), "--kernel", "1",
                                                    "--spread", "1"]), 1)
            self.assertIn("phase 1, CTAs launched later (1)", out.getvalue())
            self.assertTrue(os.path.exists(base + ".csv"))
            self.assertIn("timeline_fig: no CTA of kernel 1 has a warp-phase 3", err.getvalue())
            self.assertIn("s.csv: No such file or directory", err.getvalue())

    def test_errors(self):
        for kernel, phase, want in ((2, 1, "kernel 2: the timeline has 2 kernel(s)"),
                                    (-1, 1, "kernel -1: the timeline has 2 kernel(s)"),
                                    (1, 0, "phase 0: phases count from 1"),
                                    (1, 3, "no CTA of kernel 1 has a warp-phase 3")):
            with self.assertRaises(timeline_fig.TimelineError) as cm:
                timeline_fig.phase_spread(self.ev, kernel, phase)
            self.assertIn(want, str(cm.exception))


if __name__ == "__main__":
    unittest.main()
