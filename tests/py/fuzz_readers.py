"""A bounded random-mutation fuzz of wsexp's readers: sweep files (spec.parse_text, expand),
paper folders (reproduce.Paper over paper.txt, a sweep, figures.txt, claims.txt) and results
(runner.read_json, stats_problem, Results.status, report.Data). Each mutated input must be
accepted or refused with the reader's own error naming it; any other exception is a finding.
Deterministic: a fixed seed and count (python3 fuzz_readers.py [ITERATIONS [SEED]]).
"""

import json
import os
import random
import shutil
import sys
import tempfile
import time

from wsexp import report, reproduce, runner, spec

SWEEP = """name      toy
size      tiny
config    gtx480
group     g1   a b
group     g2   c
axis      sched lrr gto swl:2,4 two-level:1..3
axis      l1d.size 16K 32K
variant   sched tlp  sm.max_ctas=2 sched.policy=gto
set       sm.deadlock_cycles=200000
set       observer.x.file={rundir}/x.txt
seed      1 2
timeout   600
report    baseline=lrr metrics=ipc,l1d_mpki
program   p   ./p 64 "two words"
"""
PAPER = """title     Toy "paper"
source    nowhere.txt
baseline  the fake binary
bench     A  a   g1
bench     B  b   "g1 note"
bench     C  c   g2
bench     D  -   "not written"
input     a  small "the paper's input"
technique ccws sched.policy=ccws
"""
FIGURES = """figure f1 paper="Figure 1" sweep=toy title="IPC" metric=ipc series=sched:lrr,gto norm=sched:lrr mean=gmean
figure f2 sweep=toy metric=l1d_mpki,ipc labels=m,i series=sched:lrr groups=g1,all yscale=log
figure f3 sweep=toy metric=ipc series=sched:swl:2,swl:4 kind=lines where=l1d.size:16K
"""
CLAIMS = """claim c1 sweep=toy text="gto over lrr" metric=ipc group=g1 agg=hmean a=sched:gto b=sched:lrr paper=1.2
claim c2 sweep=toy text="neutral" metric=ipc group=g1+g2 agg=gmean a=sched:gto b=sched:lrr paper=1.0 neutral=0.01
claim c3 sweep=toy text="best" metric=ipc group=all a=sched:best:swl b=sched:gto paper=">1" source=figure
claim c4 sweep=toy text="value" metric=l1d_mpki bench=c agg=value a=sched:lrr paper=40 outside="ours"
claim c5 sweep=toy text="diff" metric=gpu.cycles group=g2 mode=mean-of-differences a=sched:swl:4 b=sched:lrr paper=-1
"""
STATS = {"benchmark": "a", "check": "PASS", "size": "tiny",
         "gpu": {"cycles": 1000, "warp_insts": 2000, "ipc_warp_insts_per_cycle": 2.0, "l1d_read_mpki": 3.5,
                 "kernels": [{"name": "k", "cycles": 1000, "ctas_per_sm": 2}], "policies": {"sched": {"policy": "gto"}}},
         "config": {"sched.policy": "gto"}, "warp_insts": 2000, "sim_seconds": 0.1}

TOKENS = ["=", ":", ",", "..", "/", "\"", "'", "\\", "#", "{rundir}", "{rundir:sched=lrr}", "{sweepdir}", "+",
          "best:", "-1", "0", "nan", "inf", "1e308", "99999", "\x00", "\xff", "é", "\t", "\n", " ", "sched", "group",
          "axis", "program", "claim", "figure", "bench", "input", "paper=", "metric=", "a=", "b=", "kind=series", "x" * 300]


def mutate(rnd, text, n=None):
    s = list(text)
    for _ in range(n or rnd.randint(1, 6)):
        op = rnd.randrange(6)
        i = rnd.randrange(len(s) + 1)
        if op == 0 and s:
            del s[min(i, len(s) - 1)]
        elif op == 1:
            s[i:i] = list(rnd.choice(TOKENS))
        elif op == 2 and s:
            j = rnd.randrange(len(s))
            s[i:i] = s[j:j + rnd.randint(1, 40)]            # duplicate a span
        elif op == 3 and s:
            s[min(i, len(s) - 1)] = chr(rnd.randrange(0x20, 0x7f))
        elif op == 4:
            lines = "".join(s).split("\n")
            rnd.shuffle(lines)
            s = list("\n".join(lines))
        else:
            j = rnd.randrange(len(s) + 1)
            del s[min(i, j):max(i, j)][:50]
    return "".join(s)


def mutate_json(rnd, obj, depth=0):
    """A copy of obj with one value replaced somewhere."""
    if isinstance(obj, dict) and obj and depth < 6 and rnd.random() < 0.7:
        k = rnd.choice(list(obj))
        out = dict(obj)
        if rnd.random() < 0.15:
            del out[k]
        else:
            out[k] = mutate_json(rnd, obj[k], depth + 1)
        return out
    if isinstance(obj, list) and obj and depth < 6 and rnd.random() < 0.7:
        out = list(obj)
        i = rnd.randrange(len(out))
        out[i] = mutate_json(rnd, out[i], depth + 1)
        return out
    return rnd.choice([None, "x", "", -1, -0.5, 0, 1e308, 2 ** 70, True, [], {}, [1, "a"], {"k": None}, "1.5"])


class Finding(Exception):
    pass


def check(what, fn, allowed, data):
    try:
        fn()
    except allowed as e:
        if not str(e).strip():
            raise Finding(f"{what}: an error without a message for {data!r:.400}")
    except Exception as e:   # noqa: BLE001 - anything else is a finding
        raise Finding(f"{what}: {type(e).__name__}: {e} for {data!r:.600}")


def fuzz_sweep(rnd, d):
    text = mutate(rnd, SWEEP)

    def go():
        sp = spec.parse_text(text, os.path.join(d, "f.sweep"))
        total = len(sp.benchmarks) * len(sp.sizes) * len(sp.configs) * len(sp.seeds)
        for dim in sp.dims:
            total *= len(dim.labels)
        if total <= 20000:
            spec.expand(sp)
    check("sweep file", go, (spec.SpecError,), text)


def fuzz_paper(rnd, d, n):
    root = os.path.join(d, f"p{n}")
    os.makedirs(os.path.join(root, "toy"))
    files = {"paper.txt": PAPER, "toy.sweep": SWEEP, "figures.txt": FIGURES, "claims.txt": CLAIMS}
    victim = rnd.choice(list(files))
    files[victim] = mutate(rnd, files[victim])
    for name, text in files.items():
        with open(os.path.join(root, "toy", name), "wb") as f:
            f.write(text.encode("utf-8", "surrogateescape") if rnd.random() < 0.9 else text.encode("latin-1", "replace"))
    check(f"paper folder ({victim})", lambda: reproduce.Paper("toy", root), (reproduce.ReproError,), files[victim])


def fuzz_results(rnd, d, n):
    res = runner.Results(os.path.join(d, f"r{n}"))
    rid = "a.tiny.gtx480.lrr-00000000"
    run = {"id": rid, "index": 0, "benchmark": "a", "size": "tiny", "config": "gtx480", "config_path": "gtx480",
           "seed": 1, "sets": ["sched.policy=lrr"], "labels": {"sched": "lrr"}, "label_sets": {"sched": []}}
    plan = {"spec": {"name": "x", "dims": [{"name": "sched", "labels": ["lrr"], "sets": {"lrr": []}}]}, "runs": [run]}
    status = {"id": rid, "state": "ok", "exit_status": 0, "wall_seconds": 1.0}
    docs = {"plan.json": plan, "status.json": status, "stats.json": STATS}
    victim = rnd.choice(list(docs))
    how = rnd.randrange(3)
    os.makedirs(res.run_dir(rid))
    for name, obj in docs.items():
        path = res.plan_path if name == "plan.json" else os.path.join(res.run_dir(rid), name)
        text = json.dumps(obj)
        if name == victim:
            text = json.dumps(mutate_json(rnd, obj)) if how == 0 else mutate(rnd, text)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)

    def go():
        stats = runner.read_json(os.path.join(res.run_dir(rid), "stats.json"))
        if stats is not None:
            runner.stats_problem(stats)
        data = report.Data(res.path)
        for r in data.rows:
            r.value("gpu.ipc_warp_insts_per_cycle")
        data.states()
    check(f"results ({victim})", go, (RuntimeError, report.ReportError), victim)


TARGETS = {"sweep": lambda rnd, d, n: fuzz_sweep(rnd, d), "paper": fuzz_paper, "results": fuzz_results}


def main(argv):
    """fuzz_readers.py [ITERATIONS [SEED]] [--seconds S] [--only sweep|paper|results]: ITERATIONS rounds
    (default 1500), or as many as fit in S seconds; each round mutates one input per reader."""
    args, seconds, only = [], None, list(TARGETS)
    it = iter(argv[1:])
    for a in it:
        if a == "--seconds":
            seconds = float(next(it))
        elif a == "--only":
            only = next(it).split(",")
            bad = [t for t in only if t not in TARGETS]
            if bad:
                print(f"fuzz_readers: unknown target {bad[0]!r} (valid: {', '.join(TARGETS)})", file=sys.stderr)
                return 2
        else:
            args.append(a)
    iters = int(args[0]) if args else (1 << 62 if seconds else 1500)
    seed = int(args[1]) if len(args) > 1 else 1
    rnd = random.Random(seed)
    findings = []
    start = time.monotonic()
    n = 0
    with tempfile.TemporaryDirectory() as d:
        while n < iters and (seconds is None or time.monotonic() - start < seconds):
            for t in only:
                try:
                    TARGETS[t](rnd, d, n)
                except Finding as e:
                    findings.append(str(e))
            for name in os.listdir(d):  # each round's folders go, so a long run keeps no files
                shutil.rmtree(os.path.join(d, name), ignore_errors=True)
            n += 1
            if len(findings) >= 10:
                break
    for f in findings:
        print("FINDING:", f)
    print(f"{n} rounds x {len(only)} inputs ({','.join(only)}, seed {seed}, {time.monotonic() - start:.0f} s): "
          f"{len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
