"""Unit tests of the sweep pool's schedule (tools/wsexp/runner.py): the order runs start in (longest
first, runs with no estimate before them, a run others read from weighted with its readers) and the
threads each gets (one while the waiting runs fill the cores, the spare cores to the longest runs
starting, none beyond the cores). A simulated pool drives the same functions run_pool calls, in
virtual time. Run by tests/cli/wsexp_unit.sh.
"""

import os
import tempfile
import unittest

from wsexp import runner


def run(rid, bench="b", size="tiny", after=None, sets=None, program=None):
    r = {"id": rid, "benchmark": bench, "size": size, "sets": sets or [], "after": after or {}}
    if program:
        r["program"] = {"path": program, "args": []}
    return r


def simulate(runs, work, cores, jobs, per_run=None):
    """The pool in virtual time, a run taking work/threads (unknown work: 1): what run_pool does
    with lpt_order and threads_for, minus the processes. Returns [(id, threads, start, end)] in
    start order and the most threads that ran at once."""
    todo = runner.lpt_order(list(runs), work)
    running, done, log, now, peak = [], set(), [], 0.0, 0
    while todo or running:
        while todo and len(running) < jobs:
            i = next((i for i, r in enumerate(todo) if all(d in done for d in r["after"].values())), None)
            if i is None:
                break
            pick = todo.pop(i)
            free = cores - sum(n for _, n, _ in running)
            n = runner.threads_for(pick, todo, work, free, jobs - len(running), cores, jobs, per_run)
            w = work.get(pick["id"])
            running.append((pick["id"], n, now + (w if w is not None else 1.0) / n))
            log.append((pick["id"], n, now))
        peak = max(peak, sum(n for _, n, _ in running))
        now = min(t for _, _, t in running)   # the pool reaps every run that has ended, then starts more
        done |= {i for i, _, t in running if t == now}
        running = [x for x in running if x[2] != now]
    return log, peak


class Order(unittest.TestCase):
    def test_longest_first_unknown_before(self):
        runs = [run("a"), run("b"), run("c"), run("d"), run("e")]
        work = {"a": 10.0, "b": None, "c": 30.0, "d": 10.0, "e": None}
        self.assertEqual([r["id"] for r in runner.lpt_order(runs, work)], ["b", "e", "c", "a", "d"])

    def test_a_run_read_from_counts_its_readers(self):
        # w (10) is read by r (100): 110 puts it before x (50); r itself waits for it
        runs = [run("x"), run("r", after={"sched=w": "w"}), run("w")]
        work = {"x": 50.0, "r": 100.0, "w": 10.0}
        self.assertEqual([r["id"] for r in runner.lpt_order(runs, work)], ["w", "r", "x"])


class Threads(unittest.TestCase):
    def test_split_cores(self):
        self.assertEqual(runner.split_cores(8, [100.0, 50.0, 10.0]), [4, 3, 1])
        self.assertEqual(runner.split_cores(3, [100.0, None]), [2, 1])
        self.assertEqual(runner.split_cores(8, [None, None]), [1, 1])      # no estimate: one each, cores left
        self.assertEqual(runner.split_cores(16, [5.0]), [runner.MAX_RUN_THREADS])
        self.assertEqual(runner.split_cores(2, [1.0, 1.0, 1.0]), [1, 1, 1])  # never under one

    def test_many_runs_one_thread_each(self):
        runs = [run(f"r{i}") for i in range(10)]
        work = {r["id"]: float(100 - i) for i, r in enumerate(runs)}
        log, peak = simulate(runs, work, cores=4, jobs=4)
        self.assertEqual([n for _, n, _ in log[:4]], [1, 1, 1, 1])
        self.assertEqual([i for i, _, _ in log], [r["id"] for r in runs])   # longest first
        self.assertLessEqual(peak, 4)

    def test_fewer_runs_than_cores(self):
        runs = [run("short"), run("long"), run("mid")]
        work = {"short": 10.0, "long": 100.0, "mid": 50.0}
        log, peak = simulate(runs, work, cores=8, jobs=8)
        self.assertEqual([(i, n) for i, n, _ in log], [("long", 4), ("mid", 3), ("short", 1)])
        self.assertLessEqual(peak, 8)

    def test_fewer_slots_than_cores(self):
        # -j 1 on 2 cores (the CLI test's case): every run alone, on both cores
        runs = [run("a"), run("b")]
        log, peak = simulate(runs, {"a": 5.0, "b": 7.0}, cores=2, jobs=1)
        self.assertEqual([(i, n) for i, n, _ in log], [("b", 2), ("a", 2)])
        # -j 2 on 6 cores with four runs: each pair splits the cores as the waiting ones allow
        runs = [run(x) for x in "abcd"]
        log, peak = simulate(runs, {"a": 40.0, "b": 30.0, "c": 20.0, "d": 10.0}, cores=6, jobs=2)
        self.assertEqual([i for i, _, _ in log], ["a", "b", "c", "d"])
        self.assertEqual([n for _, n, _ in log], [3, 3, 3, 3])   # a and b split the six; c, d take b's, a's
        self.assertLessEqual(peak, 6)

    def test_the_tail_gets_the_spare_cores(self):
        # six runs on four cores: the first four start on one thread each; when r1-r3 end, three
        # cores are free and only r4 and r5 wait: the spare one goes to r4 (ties: pool order)
        runs = [run(f"r{i}") for i in range(6)]
        work = {"r0": 100.0, "r1": 10.0, "r2": 10.0, "r3": 10.0, "r4": 8.0, "r5": 8.0}
        log, peak = simulate(runs, work, cores=4, jobs=4)
        self.assertEqual([(i, n, t) for i, n, t in log], [("r0", 1, 0.0), ("r1", 1, 0.0), ("r2", 1, 0.0),
                                                          ("r3", 1, 0.0), ("r4", 2, 10.0), ("r5", 1, 10.0)])
        self.assertLessEqual(peak, 4)
        # r1 ends first: one core for r4 while r5 still waits, then r5 takes the two r2 and r3 leave
        work.update(r2=12.0, r3=12.0, r4=9.0)
        log, peak = simulate(runs, work, cores=4, jobs=4)
        self.assertEqual([(i, n) for i, n, _ in log[4:]], [("r4", 1), ("r5", 2)])
        self.assertLessEqual(peak, 4)

    def test_no_estimate_gets_one(self):
        runs = [run("p", program="/bin/prog"), run("q", bench="nosuch"), run("k")]
        work = {"p": None, "q": None, "k": 20.0}
        log, peak = simulate(runs, work, cores=8, jobs=8)
        self.assertEqual([(i, n) for i, n, _ in log], [("p", 1), ("q", 1), ("k", 4)])
        self.assertIsNone(runner.run_work(runs[0], {("b", "tiny"): 5.0}))
        self.assertIsNone(runner.run_work(runs[1], {("b", "tiny"): 5.0}))
        self.assertEqual(runner.run_work(runs[2], {("b", "tiny"): 5.0}), 5.0)

    def test_dependencies(self):
        # w writes a profile r reads: r cannot run beside w, so w is not kept from r's cores;
        # r starts when w is done and takes the cores x leaves
        runs = [run("x"), run("r", after={"sched=w": "w"}), run("w")]
        work = {"x": 50.0, "r": 100.0, "w": 10.0}
        log, peak = simulate(runs, work, cores=4, jobs=4)
        got = {i: (n, t) for i, n, t in log}
        self.assertEqual([i for i, _, _ in log], ["w", "x", "r"])
        self.assertEqual(got["w"][0], 1)     # x (50 per thread) takes the spare cores before w (10)
        self.assertEqual(got["x"][0], 1)     # r will run beside x: two of the three cores left are r's
        self.assertGreaterEqual(got["r"][1], 10.0)
        self.assertEqual(got["r"][0], 3)
        self.assertLessEqual(peak, 4)
        # alone: the writer takes every core, its reader after it too
        log, _ = simulate([run("r", after={"sched=w": "w"}), run("w")], {"r": 100.0, "w": 10.0}, cores=4, jobs=4)
        self.assertEqual([(i, n) for i, n, _ in log], [("w", 4), ("r", 4)])

    def test_fixed_and_own_threads(self):
        runs = [run("a"), run("b"), run("c", sets=["sched.policy=lrr", "sim.threads=3"]),
                run("d", sets=["sim.threads=0"])]
        work = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}
        log, _ = simulate(runs, work, cores=16, jobs=16, per_run=1)
        self.assertEqual({i: n for i, n, _ in log}, {"a": 1, "b": 1, "c": 3, "d": 16})
        log, _ = simulate(runs[:2], work, cores=16, jobs=16, per_run=2)
        self.assertEqual({i: n for i, n, _ in log}, {"a": 2, "b": 2})
        self.assertEqual(runner.own_threads(run("e", sets=["sim.threads=x"])), 1)
        self.assertIsNone(runner.own_threads(run("f", sets=["sim.adaptive=false"])))

    def test_more_jobs_than_cores(self):
        log, _ = simulate([run("a"), run("b")], {"a": 9.0, "b": 1.0}, cores=2, jobs=4)
        self.assertEqual([n for _, n, _ in log], [1, 1])

    def test_command(self):
        r = dict(run("a", bench="vecadd"), config_path="gtx480", seed=1, sets=["sched.policy=lrr"])
        cmd = runner.command("warpsim", r, "/tmp/x/stats.json", 3)
        self.assertEqual(cmd[cmd.index("--set") + 1], "sim.threads=3")
        self.assertNotIn("sim.threads=1", runner.command("warpsim", r, "/tmp/x/stats.json", 1))


class Eta(unittest.TestCase):
    def test_estimator(self):
        work = {"k": 4e6, "v": 1e6, "s": 2e6}
        est = runner.Estimator(lambda r: work.get(r["id"]))
        self.assertIsNone(est.guess(run("v", bench="vecadd")))
        est.add(run("k", bench="kmeans"), 8.0)
        # same benchmark and size: its own mean; known work: the finished runs' time per instruction
        self.assertEqual(est.guess(run("k2", bench="kmeans")), 8.0)
        self.assertEqual(est.guess(run("v", bench="vecadd")), 2.0)
        # no work known: the mean of every finished run
        self.assertEqual(est.guess(run("p", bench="prog")), 8.0)
        est.add(run("s", bench="stencil"), 2.0)
        self.assertAlmostEqual(est.guess(run("v", bench="vecadd")), 10.0 / 6.0)
        self.assertEqual(runner.Estimator().guess(run("x")), None)


class Counts(unittest.TestCase):
    def test_bench_readme_tables(self):
        insts = runner.known_insts()
        self.assertGreater(insts.get(("bfs", "small"), 0), insts.get(("bfs", "tiny"), 0))
        self.assertGreater(insts.get(("bfs", "tiny"), 0), 0)
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "README.md")
            with open(p, "w") as f:
                f.write("# x\n\n### size `tiny`\n\n| benchmark | check | warp insts | thread insts |\n|---|---|---:|---:|\n"
                        "| vecadd | PASS | 90112 | 2883584 |\n| broken | PASS | n/a | 1 |\n\n### size `paper`\n\n"
                        "| benchmark | warp insts |\n|---|---:|\n| vecadd | 7 |\n")
            self.assertEqual(runner.known_insts(p), {("vecadd", "tiny"): 90112.0, ("vecadd", "paper"): 7.0})
            self.assertEqual(runner.known_insts(os.path.join(d, "absent.md")), {})


if __name__ == "__main__":
    unittest.main()
