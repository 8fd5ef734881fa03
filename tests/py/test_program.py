"""Unit tests of users' programs in sweeps (`program NAME PATH [ARGS...]`): parsing, expansion and
run ids (spec.py), paths, command lines and outcomes (program.py, runner.py). Run by
tests/cli/wsexp_unit.sh; tests/cli/exp_sweep_program.sh runs real programs.
"""

import os
import tempfile
import unittest

from wsexp import program, report, runner, spec


def parse(text, path="/study/s.sweep"):
    return spec.parse_text(text, path)


class Parse(unittest.TestCase):
    def test_line(self):
        sp = parse('program saxpy ./saxpy 4096 "a b" # comment\nprogram st /opt/st\n')
        self.assertEqual(sp.programs["saxpy"], {"path": "./saxpy", "args": ["4096", "a b"], "line": 1})
        self.assertEqual(sp.programs["st"], {"path": "/opt/st", "args": [], "line": 2})
        self.assertEqual(sp.benchmarks, [])
        self.assertEqual(sp.to_json()["programs"]["saxpy"]["args"], ["4096", "a b"])

    def test_errors(self):
        for text, want in [("program saxpy\n", "s.sweep:1: program NAME PATH"),
                           ("program 'a b' ./x\n", "program name 'a b'"),
                           ("program a ./x\nprogram a ./y\n", "s.sweep:2: program 'a' given twice (line 1)"),
                           ("benchmarks vecadd\nprogram vecadd ./v\n", "s.sweep:2: program 'vecadd' has the name of a benchmark"),
                           ("program a './x\n", "s.sweep:1: No closing quotation"),
                           ("size tiny\n", "no benchmarks (a 'benchmarks', 'group' or 'program' line)")]:
            with self.assertRaises(spec.SpecError) as cm:
                parse(text)
            self.assertIn(want, str(cm.exception))

    def test_groups_name_programs(self):
        sp = parse("program a ./a\ngroup mine a vecadd\n")
        self.assertEqual(sp.benchmarks, ["vecadd"])   # a group's programs are not benchmarks
        self.assertEqual(sp.groups, {"mine": ["a", "vecadd"]})


class Expand(unittest.TestCase):
    def test_matrix(self):
        sp = parse("benchmarks vecadd\nsize tiny small\nseed 1..2\nconfig gtx480 c2.cfg\n"
                   "program p ./p 64\naxis sched lrr gto\n")
        runs = spec.expand(sp)
        bench = [r for r in runs if not r.program]
        progs = [r for r in runs if r.program]
        self.assertEqual(len(bench), 2 * 2 * 2 * 2)
        self.assertEqual(len(progs), 2 * 2)             # configs x axes: sizes and seeds do not apply
        self.assertEqual([r.index for r in runs], list(range(len(runs))))
        p = progs[1]
        self.assertEqual((p.benchmark, p.size, p.seed, p.labels), ("p", "-", 1, {"sched": "gto"}))
        self.assertRegex(p.id, r"^p\.gtx480\.gto-[0-9a-f]{8}$")
        d = p.definition()
        self.assertEqual(d["program"], {"path": "./p", "args": ["64"]})
        self.assertEqual(d["sweep_dir"], "/study")
        self.assertNotIn("program", bench[0].definition())

    def test_ids(self):
        def ids(text, path="/study/s.sweep"):
            return [r.id for r in spec.expand(parse(text, path))]
        base = ids("program p ./p 64\naxis sched lrr gto\n")
        self.assertEqual(base, ids("# moved, reworded\nprogram  p  ./p  64 # same\naxis sched lrr gto\n", "/else/t.sweep"))
        self.assertNotEqual(base, ids("program p ./p 65\naxis sched lrr gto\n"))
        self.assertNotEqual(base, ids("program p ./q 64\naxis sched lrr gto\n"))
        # a benchmark's ids do not change when a program joins the sweep
        self.assertEqual(ids("benchmarks vecadd\n"), ids("benchmarks vecadd\nprogram p ./p\n")[:1])

    def test_limit_counts_programs(self):
        sp = parse("program p ./p\naxis a 1..1000\naxis b 1..1001\n")
        with self.assertRaises(spec.SpecError) as cm:
            spec.expand(sp)
        self.assertIn("1 program(s)", str(cm.exception))


class Run(unittest.TestCase):
    def run_def(self, path="./p", args=("64", "{sweepdir}/in.txt")):
        return {"id": "p.gtx480-0", "index": 0, "benchmark": "p", "size": "-", "config": "gtx480",
                "config_path": "gtx480", "seed": 1, "sets": ["sched.policy=gto"], "labels": {},
                "sweep_dir": "/study", "program": {"path": path, "args": list(args)}}

    def test_resolve(self):
        self.assertEqual(program.resolve(self.run_def()), ("/study/p", ["64", "/study/in.txt"]))
        self.assertEqual(program.resolve(self.run_def("/opt/p", ()))[0], "/opt/p")
        self.assertEqual(program.resolve(self.run_def("../bin/p", ()))[0], "/bin/p")
        self.assertEqual(program.resolve(self.run_def("{sweepdir}/b/p", ()))[0], "/study/b/p")

    def test_command(self):
        cmd = runner.command("/w/warpsim", self.run_def(), "/r/runs/x/stats.json")
        self.assertEqual(cmd, ["/w/warpsim", "exec", "--config", "gtx480", "--set", "sched.policy=gto",
                               "--json", "/r/runs/x/stats.json", "--", "/study/p", "64", "/study/in.txt"])

    def test_plan_shape(self):
        self.assertTrue(runner._program_ok(None))
        self.assertTrue(runner._program_ok({"path": "p", "args": []}))
        for bad in ({"path": "", "args": []}, {"path": "p"}, {"path": "p", "args": [1]}, "p"):
            self.assertFalse(runner._program_ok(bad), bad)

    def test_problem(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertIn("no such file", program.problem(os.path.join(d, "none")))
            self.assertIn("not a regular file", program.problem(d))
            f = os.path.join(d, "f")
            with open(f, "wb") as fh:
                fh.write(b"#!/bin/sh\nexit 0\n")
            self.assertIn("not executable", program.problem(f))
            os.chmod(f, 0o755)
            self.assertIsNone(program.problem(f))          # not ELF: exec finds what it is
            with open(f, "wb") as fh:
                fh.write(b"\x7fELF\x02\x01" + b"\xff" * 100)  # damaged section table
            self.assertIsNone(program.problem(f))


def stats(exit_status=0, **kv):
    return dict({"program": "./p", "args": [], "exit_status": exit_status, "unsupported_calls": 0,
                 "failed_launches": 0, "gpu": {"cycles": 10, "ipc_warp_insts_per_cycle": 1.5, "warp_insts": 15}}, **kv)


class Outcome(unittest.TestCase):
    RUN = {"program": {"path": "./p", "args": []}}

    def classify(self, rc, st, log="$ cmd\n"):
        return runner.classify(rc, False, st, log, self.RUN)

    def test_states(self):
        self.assertEqual(self.classify(0, stats()), ("ok", ""))
        self.assertEqual(self.classify(3, stats(3), "$ c\nresult: FAIL\nprogram   ./p\n")[0:2],
                         ("mismatch", "the program's check failed: exit status 3; result: FAIL"))
        self.assertEqual(self.classify(1, stats(0, unsupported_calls=2),
                                       "$ c\nwarpsim cudart: cudaFoo is not supported\n"),
                         ("error", "2 CUDA call(s) warpsim does not support; warpsim cudart: cudaFoo is not supported"))
        self.assertEqual(self.classify(1, stats(1, failed_launches=1))[0], "error")
        self.assertEqual(self.classify(2, None, "$ c\nwarpsim exec: ./p: no such program\n"),
                         ("usage", "warpsim exec: ./p: no such program"))
        self.assertEqual(self.classify(139, None)[0], "crash")
        self.assertEqual(self.classify(1, None)[0], "error")
        self.assertEqual(runner.classify(-9, False, None, "", self.RUN)[0], "crash")
        self.assertEqual(runner.classify(0, True, stats(), "", self.RUN)[0], "timeout")
        bad = stats()
        bad["gpu"]["cycles"] = -1
        self.assertEqual(self.classify(0, bad), ("corrupt", "stats.json: gpu.cycles is negative (-1)"))

    def test_check_and_validation(self):
        self.assertEqual(program.check(stats()), "PASS")
        self.assertEqual(program.check(stats(3)), "exit 3")
        self.assertIsNone(program.check({"check": "PASS"}))
        self.assertIsNone(program.check(stats(True)))
        self.assertIsNone(runner.stats_problem(stats()))
        self.assertEqual(runner.stats_problem(stats(3)), "not warpsim's statistics of a passing run")
        self.assertEqual(runner.stats_problem(stats(0, gpu={"cycles": 1})), "gpu.ipc_warp_insts_per_cycle is missing")



class Report(unittest.TestCase):
    def rows(self, sizes):
        runs = [{"id": f"b{i}", "index": i, "benchmark": "vecadd", "size": sz, "config": "gtx480", "seed": 1,
                 "labels": {}} for i, sz in enumerate(sizes)]
        runs.append({"id": "p", "index": len(runs), "benchmark": "p", "size": "-", "config": "gtx480", "seed": 1,
                     "labels": {}, "program": {"path": "./p", "args": []}})
        rows = [report.Row(r, {"state": "ok"}, None, None) for r in runs]
        report._place_programs(rows)
        return rows

    def test_program_joins_the_benchmarks_size(self):
        self.assertEqual(self.rows(["tiny"])[-1].labels["size"], "tiny")
        self.assertEqual(self.rows(["tiny", "small"])[-1].labels["size"], "-")   # a section of its own
        self.assertEqual(self.rows([])[-1].labels["size"], "-")
        self.assertEqual(self.rows(["tiny"])[-1].run["size"], "-")              # the CSV's value


if __name__ == "__main__":
    unittest.main()
