"""Unit tests of `warpsim reproduce --estimate`'s measured part (tools/wsexp/estimate.py): a run of a
results folder counts its simulation CPU time, a failed or missing run does not, and labels that set
the same configuration share one speed measurement. Run by tests/cli/wsexp_unit.sh.
"""

import json
import os
import tempfile
import unittest

from wsexp import estimate, spec


def run(bench, sets, label):
    return spec.Run(bench, "small", "gtx480", 1, sets, {"sched": label}, {"sched": sets})


class Measured(unittest.TestCase):
    def test_results_folder(self):
        ok, failed, absent = run("fwt", ["sched.policy=gto"], "gto"), run("fwt", ["sched.policy=lrr"], "lrr"), \
            run("fwt", ["sched.policy=mwf-gto"], "mwf-gto")
        with tempfile.TemporaryDirectory() as d:
            for r, state, stats in ((ok, "ok", {"sim_cpu_seconds": 6.96, "sim_seconds": 16.76}),
                                    (failed, "failed", {"sim_cpu_seconds": 1.0})):
                rd = os.path.join(d, "sweeps", "main", "runs", r.id)
                os.makedirs(rd)
                for name, obj in (("status.json", {"state": state, "wall_seconds": 16.81}), ("stats.json", stats)):
                    with open(os.path.join(rd, name), "w") as f:
                        json.dump(obj, f)
            self.assertEqual(estimate.measured(d, "main", ok), (6.96, 16.81))
            self.assertIsNone(estimate.measured(d, "main", failed))
            self.assertIsNone(estimate.measured(d, "main", absent))
            self.assertIsNone(estimate.measured(d, "other", ok))

    def test_one_speed_per_configuration(self):
        a, b = run("fwt", ["sched.policy=gto"], "gto"), run("fwt", ["sched.policy=gto"], "baseline")
        self.assertNotEqual(a.id, b.id)
        key = lambda r: estimate._key(r.definition())
        self.assertEqual(key(a), key(b))
        self.assertNotEqual(key(a), key(run("fwt", ["sched.policy=lrr"], "lrr")))
        self.assertNotEqual(key(a), key(run("bfs", ["sched.policy=gto"], "gto")))

    def test_cached_insts(self):
        # the instruction counts an estimate cached weigh the pool's runs (runner.run_pool insts=)
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "estimate-cache.json")
            self.assertEqual(estimate.cached_insts(p), {})
            with open(p, "w") as f:
                json.dump({"insts fwt small": 5910528.0, "speed fwt small gtx480 ": 1e6, "insts bad": 3,
                           "insts bfs paper": "many", "insts mvt small": -1}, f)
            self.assertEqual(estimate.cached_insts(p), {("fwt", "small"): 5910528.0})


if __name__ == "__main__":
    unittest.main()
