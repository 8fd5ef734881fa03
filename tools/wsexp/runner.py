"""runner.py - executing runs: the result directory, one run's life (start, classify, record),
the local process pool with its progress line and its schedule (which run starts next, on how
many threads), and the per-task entry point that cluster engines call. Stdlib only.

Result directory (one per sweep):
    plan.json         the expanded sweep: spec summary + every run's definition
    manifest.tsv      one line per run: index, id, benchmark, size, config, seed, overrides
    runs/<id>/        run.json (definition, command, host), log.txt (warpsim's output),
                      stats.json (warpsim --json), config.json (resolved config),
                      status.json (state, exit status, message, times)
A run is finished exactly when its status.json exists; every file is written to a temporary
name and renamed, so a sweep killed at any moment loses only the runs in flight.
"""

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time

from . import program as progmod
from . import spec as specmod

STATES_OK = ("ok",)
# state -> what it means (status.json "state")
STATES = {
    "ok": "check passed",
    "mismatch": "result differs from the CPU reference",
    "deadlock": "the simulator's deadlock detector fired",
    "error": "runtime error (fault, failed launch)",
    "usage": "bad configuration or option (exit status 2)",
    "crash": "killed by a signal or abnormal exit",
    "limit": "stopped by an instruction or cycle limit (an endless loop?)",
    "corrupt": "its recorded results are unreadable or damaged (status.json or stats.json); the next sweep reruns it",
    "timeout": "exceeded the per-run time limit",
}


def atomic_write(path, text):
    """Writes a whole file or nothing: to a unique temporary next to the real file (symlinks
    followed) and renamed over it. A device or FIFO is written directly (a rename would replace
    it). Errors (ENOSPC...) raise OSError and leave the old file as it was."""
    try:
        _atomic_write(path, text)
    except OSError as e:  # name the file the user knows
        raise OSError(e.errno, e.strerror, path) from e


def _atomic_write(path, text):
    real = os.path.realpath(path)
    if os.path.exists(real) and not os.path.isfile(real):
        with open(real, "w", encoding="utf-8") as f:
            f.write(text)
        return
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(real) + ".", dir=os.path.dirname(real) or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_json(path, obj):
    atomic_write(path, json.dumps(obj, indent=1) + "\n")


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def read_json(path):
    """The file's JSON, None if it cannot be read or parsed; NaN and Infinity, which Python's json
    would accept, are not JSON and make the file unreadable."""
    try:
        with open(path, "rb") as f:
            return json.loads(f.read().decode("utf-8"), parse_constant=_no_constant)
    except (OSError, ValueError, RecursionError):
        return None


# Statistics the tools read as numbers: present in every ok run, each a finite number >= 0.
REQUIRED_STATS = ("cycles", "ipc_warp_insts_per_cycle", "warp_insts")


def stats_problem(stats):
    """Why a parsed stats.json of a run that says PASS cannot stand for its run, or None: it must
    hold the `gpu` statistics, and no statistic may be null, NaN, infinite, negative or, where a
    number belongs (a statistic the tools read), a string. Such a file counts as corrupt and is run
    again, instead of its run dropping silently out of means."""
    if not isinstance(stats, dict) or (stats.get("check") != "PASS" and progmod.check(stats) != "PASS"):
        return "not warpsim's statistics of a passing run"
    gpu = stats.get("gpu")
    if not isinstance(gpu, dict):
        return "it has no gpu statistics"
    for k in REQUIRED_STATS:
        if k not in gpu:
            return f"gpu.{k} is missing"
    numeric = {"gpu." + k for k in REQUIRED_STATS} | NUMERIC_STATS

    def walk(o, path, depth):
        if depth > 64:
            return f"{path} is nested too deeply"
        if isinstance(o, dict):
            for k, v in o.items():
                why = walk(v, f"{path}.{k}" if path else k, depth + 1)
                if why:
                    return why
        elif isinstance(o, list):
            for i, v in enumerate(o):
                why = walk(v, f"{path}[{i}]", depth + 1)
                if why:
                    return why
        elif o is None:
            return f"{path} is null"
        elif isinstance(o, bool):
            return None
        elif isinstance(o, (int, float)):
            if o != o or o in (float("inf"), float("-inf")):
                return f"{path} is not a finite number"
            if o < 0:
                return f"{path} is negative ({o})"
        elif path in numeric:
            return f"{path} is {o!r}, not a number"
        return None
    return walk({k: v for k, v in stats.items() if k != "config"}, "", 0)


# The statistics reports and claims read (report.METRICS fills it; a string there is damage).
NUMERIC_STATS = set()


def default_warpsim():
    """The binary that started us (the C front end exports it), else the release build."""
    w = os.environ.get("WARPSIM_BIN")
    if w:
        return os.path.abspath(w)
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.abspath(os.path.join(here, "..", "..", "build", "rel", "warpsim"))


def fmt_time(s):
    if s is None:
        return "--:--"
    s = int(round(s))
    h, m = s // 3600, s % 3600 // 60
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


def _str_map(m):
    return isinstance(m, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in m.items())


def _program_ok(prog):
    """A plan's program of a run: absent, or {"path": str, "args": [str]}."""
    return prog is None or (isinstance(prog, dict) and isinstance(prog.get("path"), str) and prog["path"] != ""
                            and isinstance(prog.get("args"), list) and all(isinstance(a, str) for a in prog["args"]))


def _plan_spec_ok(sp):
    """The parts of a plan's spec the reports read: dims [{name, labels, sets}], groups {name: [bench]}."""
    dims = sp.get("dims", [])
    if not isinstance(dims, list):
        return False
    for d in dims:
        if not isinstance(d, dict) or not isinstance(d.get("name"), str):
            return False
        sets = d.get("sets", {})
        if not isinstance(sets, dict) or not all(isinstance(v, list) and all(isinstance(s, str) for s in v)
                                                 for v in sets.values()):
            return False
        if not isinstance(d.get("labels", []), list):
            return False
    groups = sp.get("groups") or {}
    return isinstance(groups, dict) and all(isinstance(v, list) and all(isinstance(b, str) for b in v)
                                            for v in groups.values()) \
        and isinstance(sp.get("report") or {}, dict)


class Results:
    """A sweep's result directory."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.runs_dir = os.path.join(self.path, "runs")
        self.plan_path = os.path.join(self.path, "plan.json")
        self.manifest_path = os.path.join(self.path, "manifest.tsv")

    def run_dir(self, rid):
        return os.path.join(self.runs_dir, rid)

    def status(self, rid):
        """The run's status.json, None while it has none. Recorded results that cannot be read
        back (a status.json or an ok run's stats.json that is unreadable or of the wrong shape)
        give the state "corrupt", a failure: reports leave it out, the next sweep reruns it."""
        d = self.run_dir(rid)
        path = os.path.join(d, "status.json")
        st = read_json(path)
        if st is None and not os.path.lexists(path):
            return None
        if not isinstance(st, dict) or not isinstance(st.get("state"), str):
            return {"id": rid, "state": "corrupt", "message": "status.json is unreadable or not a status"}
        if st["state"] in STATES_OK:
            stats = read_json(os.path.join(d, "stats.json"))
            if stats is None:
                return dict(st, state="corrupt", message="stats.json of a finished run is missing or unreadable")
            why = stats_problem(stats)
            if why:
                return dict(st, state="corrupt", message=f"stats.json of a finished run: {why}")
        return st

    def write_plan(self, spec_json, runs):
        os.makedirs(self.runs_dir, exist_ok=True)
        defs = [r.definition() for r in runs]
        write_json(self.plan_path, {"spec": spec_json, "runs": defs})
        lines = []
        for d in defs:
            lines.append("\t".join([str(d["index"]), d["id"], d["benchmark"], d["size"], d["config_path"],
                                    str(d["seed"]), " ".join(d["sets"])]))
        atomic_write(self.manifest_path, "\n".join(lines) + "\n")
        return defs

    def read_plan(self):
        if os.path.exists(self.path) and not os.path.isdir(self.path):
            raise RuntimeError(f"{self.path} is not a directory")
        plan = read_json(self.plan_path)
        if not isinstance(plan, dict) or not isinstance(plan.get("runs"), list):
            raise RuntimeError(f"{self.path} is not a sweep result directory (no readable plan.json)")
        keys = ("id", "index", "benchmark", "size", "config", "config_path", "seed", "sets")
        for r in plan["runs"]:
            if not isinstance(r, dict) or any(k not in r for k in keys) or not isinstance(r["sets"], list) \
                    or not isinstance(r["id"], str) or "/" in r["id"] or r["id"] in ("", ".", ".."):
                raise RuntimeError(f"{self.plan_path}: a run of the wrong shape (plan.json is damaged; "
                                   f"run the sweep file again to rewrite it)")
        for r in plan["runs"]:
            if not all(isinstance(r.get(k), str) for k in ("benchmark", "size", "config", "config_path")) \
                    or not all(isinstance(s, str) for s in r["sets"]) \
                    or not _str_map(r.get("labels", {})) or not isinstance(r.get("after") or {}, dict) \
                    or not _program_ok(r.get("program")):
                raise RuntimeError(f"{self.plan_path}: a run of the wrong shape (plan.json is damaged; "
                                   f"run the sweep file again to rewrite it)")
        sp = plan.get("spec", {})
        if not isinstance(sp, dict) or not _plan_spec_ok(sp):
            raise RuntimeError(f"{self.plan_path}: its spec is of the wrong shape (plan.json is damaged)")
        return plan


def resolved_sets(run, run_dir):
    """The run's overrides with {rundir} (its own directory, run_dir), {rundir:DIM=LABEL} (the
    directory of the run it names, a sibling: spec.py), {sweepdir} and {bench} replaced."""
    after = run.get("after") or {}
    parent = os.path.dirname(run_dir)

    def dir_of(ref):
        if ref not in after:
            raise RuntimeError(f"run {run['id']}: {{rundir:{ref}}} names no run of the plan "
                               f"(plan.json predates it: run the sweep file again)")
        return os.path.join(parent, after[ref])
    sets = run["sets"]
    if any(specmod.SWEEPDIR in s for s in sets):
        if not run.get("sweep_dir"):
            raise RuntimeError(f"run {run['id']}: {specmod.SWEEPDIR} but no sweep folder in the plan "
                               f"(plan.json predates it: run the sweep file again)")
        sets = specmod.resolve_sweepdir(sets, run["sweep_dir"])
    if any(specmod.BENCH in s for s in sets):
        sets = specmod.resolve_bench(sets, run.get("benchmark") or run.get("program") and run["program"].get("name") or "")
    return specmod.resolve_rundirs(sets, run_dir, dir_of)


def command(warpsim, run, stats_path, threads=1):
    """`warpsim run BENCH ...`, or `warpsim exec ... -- PROGRAM ARGS` for a user's program. threads
    above 1: the pool's `sim.threads` for it, set before the run's own overrides (a run that sets
    sim.threads itself is given none: own_threads)."""
    run_dir = os.path.dirname(os.path.abspath(stats_path))
    sets = [f"sim.threads={threads}"] if threads > 1 else []
    for s in resolved_sets(run, run_dir):
        # a relative timeline file (`set timeline.file=timeline.json.gz`) goes in the run's own directory
        key, _, val = s.partition("=")
        if key.strip() == "timeline.file" and val.strip() not in ("", "none") and not os.path.isabs(val.strip()):
            s = "timeline.file=" + os.path.join(run_dir, val.strip())
        sets.append(s)
    if run.get("program"):
        return progmod.command(warpsim, run, sets, stats_path)
    cmd = [warpsim, "run", run["benchmark"], "--size", run["size"], "--seed", str(run["seed"]),
           "--config", run["config_path"]]
    for s in sets:
        cmd += ["--set", s]
    return cmd + ["--json", stats_path]


def waits_on(results, run, pending=()):
    """None when every run this one reads from ({rundir:DIM=LABEL}) finished ok; "wait" while one
    has not finished (or is pending: to run, or run again, in this pool); else the message of a
    failed one."""
    for ref, rid in (run.get("after") or {}).items():
        st = results.status(rid)
        if st is None or rid in pending:
            return "wait"
        if st.get("state") not in STATES_OK:
            return f"the run it reads ({ref}: {rid}) {st.get('state')}"
    return None


def record_blocked(results, run, why):
    """A run not started because a run it reads from failed: recorded as an error."""
    d = results.run_dir(run["id"])
    os.makedirs(d, exist_ok=True)
    st = {"id": run["id"], "index": run["index"], "state": "error", "exit_status": None, "check": None,
          "message": f"not run: {why}", "wall_seconds": 0.0, "host": socket.gethostname(),
          "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    write_json(os.path.join(d, "status.json"), st)
    return st


def _prctl():
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl
    except Exception:
        return None


_PRCTL = _prctl()  # looked up once in the parent: the child between fork and exec does no imports


def die_with_parent(parent=None):
    """A preexec_fn: the child gets SIGKILL when the sweep (pid `parent`, default: this process)
    dies, so a killed sweep leaves no orphan writing into its run folder. The parent may die
    between fork and the prctl (the signal would then never come): the child checks that its
    parent is still the sweep after setting it, and exits at once otherwise."""
    parent = os.getpid() if parent is None else parent

    def preexec():
        if _PRCTL is not None:
            _PRCTL(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os._exit(137)
    return preexec


def _message(log_text):
    """The line that explains a failure: the first error-looking line of the log."""
    keys = ("WS_ERROR", "error", "Error", "mismatch", "MISMATCH", "deadlock", "Sanitizer", "assert", "warpsim:")
    lines = [ln.strip() for ln in log_text.splitlines()[1:] if ln.strip()]
    for ln in lines:
        if any(k in ln for k in keys):
            return ln[:400]
    return lines[-1][:400] if lines else ""


def classify(rc, timed_out, stats, log_text, run=None):
    """(state, message) of a finished warpsim run (of a user's program: program.classify)."""
    check = (stats or {}).get("check")
    if timed_out:
        return "timeout", "exceeded the time limit"
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = str(-rc)
        return "crash", "; ".join(x for x in (f"killed by {name}", _message(log_text)) if x)
    if run and run.get("program"):
        state, msg = progmod.classify(rc, stats, progmod.message(log_text))
        if state != "ok":
            return state, msg
        why = stats_problem(stats)
        return ("corrupt", f"stats.json: {why}") if why else ("ok", "")
    if rc == 0 and check == "PASS":
        why = stats_problem(stats)
        return ("corrupt", f"stats.json: {why}") if why else ("ok", "")
    if rc == 1:
        if "WS_ERROR_DEADLOCK" in log_text:
            return "deadlock", _message(log_text)
        if "WS_ERROR_LIMIT" in log_text:
            return "limit", _message(log_text)
        if check == "MISMATCH":
            return "mismatch", _message(log_text) or "check: MISMATCH"
        return "error", _message(log_text)
    if rc == 2:
        return "usage", _message(log_text)
    return "crash", "; ".join(x for x in (f"exit status {rc}", _message(log_text)) if x)


class Attempt:
    """One run in progress: its directory is cleared, warpsim started; finish() records it."""

    def __init__(self, results, run, warpsim, timeout=None, threads=1):
        self.results, self.run, self.warpsim, self.threads = results, run, warpsim, threads
        self.dir = results.run_dir(run["id"])
        os.makedirs(self.dir, exist_ok=True)
        for f in ("status.json", "stats.json", "config.json", "log.txt"):
            try:
                os.remove(os.path.join(self.dir, f))
            except FileNotFoundError:
                pass
        self.stats_path = os.path.join(self.dir, "stats.json")
        self.cmd = command(warpsim, run, self.stats_path, threads if own_threads(run) is None else 1)
        self.started = time.time()
        self.timeout = timeout
        self.timed_out = False
        info = dict(run, command=" ".join(shlex.quote(c) for c in self.cmd), host=socket.gethostname(),
                    started=time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(self.started)))
        write_json(os.path.join(self.dir, "run.json"), info)
        self.log = open(os.path.join(self.dir, "log.txt"), "w")
        self.log.write("$ " + info["command"] + "\n")
        self.log.flush()
        self.start_error = None
        try:
            # a user's program runs in its run's folder: files it writes stay with the run
            self.proc = subprocess.Popen(self.cmd, stdout=self.log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, preexec_fn=die_with_parent(),
                                         cwd=self.dir if run.get("program") else None)
        except OSError as e:  # recorded as a crash, like any run that could not run
            self.proc = None
            self.start_error = f"cannot execute {warpsim}: {e.strerror}"
            self.log.write(self.start_error + "\n")
            self.log.flush()

    def poll(self):
        return 127 if self.proc is None else self.proc.poll()

    def wait(self, timeout=None):
        return 127 if self.proc is None else self.proc.wait(timeout=timeout)

    def elapsed(self):
        return time.time() - self.started

    def check_timeout(self):
        if self.proc and self.timeout and not self.timed_out and self.elapsed() > self.timeout:
            self.timed_out = True
            self.proc.kill()

    def abort(self):
        """Stops the run without recording it (it stays pending)."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
        self.wait()
        self.log.close()

    def finish(self, rc):
        wall = self.elapsed()
        self.log.close()
        stats = read_json(self.stats_path)
        with open(os.path.join(self.dir, "log.txt"), errors="replace") as f:
            log_text = f.read()
        state, msg = classify(rc, self.timed_out, stats, log_text, self.run)
        config_path = os.path.join(self.dir, "config.json")
        if stats and "config" in stats:
            write_json(config_path, stats["config"])
        else:  # no stats: resolve the config on its own, so a crashed run can still be reproduced
            cmd = [self.warpsim, "config", "--config", self.run["config_path"], "--json"]
            for s in resolved_sets(self.run, self.dir):
                cmd += ["--set", s]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
                if p.returncode == 0:
                    write_json(config_path, json.loads(p.stdout))
            except (OSError, ValueError, subprocess.SubprocessError):
                pass
        status = {"id": self.run["id"], "index": self.run["index"], "state": state, "exit_status": rc,
                  "check": progmod.check(stats) if self.run.get("program") else (stats or {}).get("check"),
                  "message": msg, "wall_seconds": round(wall, 3), "threads": self.threads,
                  "host": socket.gethostname(),
                  "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        write_json(os.path.join(self.dir, "status.json"), status)
        return status


def run_sync(results, run, warpsim, timeout=None):
    a = Attempt(results, run, warpsim, timeout)
    while True:
        try:
            rc = a.wait(timeout=1.0)
            break
        except subprocess.TimeoutExpired:
            a.check_timeout()
    return a.finish(rc)


class Estimator:
    """Expected seconds of a run: the mean over finished runs of the same benchmark and size; else,
    where `work_of` (run -> warp instructions or None) knows the run's work, that work at the
    finished runs' seconds per warp instruction; else the mean of every finished run. (The pool
    starts the longest runs first, so the plain mean of the first runs overstates the rest.)"""

    def __init__(self, work_of=None):
        self.sum, self.n = {}, {}
        self.work_of = work_of or (lambda run: None)
        self.rate_s, self.rate_w = 0.0, 0.0

    def add(self, run, seconds):
        for k in ((run["benchmark"], run["size"]), None):
            self.sum[k] = self.sum.get(k, 0.0) + seconds
            self.n[k] = self.n.get(k, 0) + 1
        w = self.work_of(run)
        if w:
            self.rate_s, self.rate_w = self.rate_s + seconds, self.rate_w + w

    def guess(self, run):
        k = (run["benchmark"], run["size"])
        if k in self.n:
            return self.sum[k] / self.n[k]
        w = self.work_of(run)
        if w and self.rate_w:
            return w * self.rate_s / self.rate_w
        if None in self.n:
            return self.sum[None] / self.n[None]
        return None


class Progress:
    """A progress bar with ETA on a terminal; one line per finished run otherwise."""

    def __init__(self, total, skipped, out, quiet=False):
        self.total, self.done, self.failed, self.out, self.quiet = total, skipped, 0, out, quiet
        self.tty = out.isatty() and not quiet
        self.start = time.time()
        self.last = 0.0
        self.eta = None
        self.width = 0

    def _clear(self):
        if self.tty and self.width:
            self.out.write("\r" + " " * self.width + "\r")
            self.width = 0

    def line(self):
        frac = self.done / self.total if self.total else 1.0
        n = 24
        fill = int(frac * n)
        bar = "=" * fill + (">" if fill < n else "") + " " * max(0, n - fill - 1)
        fails = f", {self.failed} failed" if self.failed else ""
        return (f"[{bar}] {self.done}/{self.total} runs{fails}  {fmt_time(time.time() - self.start)} elapsed"
                f"  ETA {fmt_time(self.eta) if self.done < self.total else '0:00'}")

    def draw(self, force=False):
        now = time.time()
        if not self.tty or (not force and now - self.last < 0.25):
            return
        self.last = now
        text = self.line()
        self.out.write("\r" + text + " " * max(0, self.width - len(text)))
        self.width = len(text)
        self.out.flush()

    def finished(self, run, st):
        self.done += 1
        bad = st["state"] not in STATES_OK
        self.failed += bad
        if bad:
            self._clear()
            self.out.write(f"FAIL {st['state']:<8} {run['id']}: {st['message']}\n")
        elif not self.tty and not self.quiet:
            n = st.get("threads") or 1
            self.out.write(f"[{self.done}/{self.total}] {st['state']:<8} {st['wall_seconds']:7.1f}s  {run['id']}"
                           + (f" ({n} threads)" if n > 1 else "") + f"  ETA {fmt_time(self.eta)}\n")
        self.out.flush()
        self.draw(force=True)

    def end(self):
        self._clear()
        self.out.flush()


# ---- the pool's schedule: which run starts next, and on how many threads ----
#
# A run's work is its benchmark's warp instructions at its size (known_insts); a user's program,
# or a benchmark and size with no count, has none. The pool starts the longest ready run first
# (LPT; a run that others read from counts their work too), so the long runs do not end alone
# at the end. A run gets one thread while the runs still to start can fill the free cores; the
# cores no run will take (the sweep's tail, a sweep smaller than the machine, -j below the cores)
# go to the runs starting now, each further core to the one with the most work per thread.

# Threads one run is given at most: a cycle's memory-system part stays on one or two threads of
# the team, so a run gains little beyond a few (doc/speed.md, "Threads").
MAX_RUN_THREADS = 4


def _repo_file(*parts):
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", *parts)


def known_insts(path=None):
    """{(benchmark, size): warp instructions} from the measured tables of bench/README.md (seed 1,
    functional; tools/bench_table.sh writes them). {} when the file is absent or unreadable."""
    path = path or _repo_file("bench", "README.md")
    out, size = {}, None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    col = None
    for ln in lines:
        if ln.startswith("### size `") and ln.rstrip().endswith("`"):
            size, col = ln.strip()[len("### size `"):-1], None
        elif size and ln.startswith("|"):
            cells = [c.strip() for c in ln.strip().strip("|").split("|")]
            if col is None:
                col = cells.index("warp insts") if "warp insts" in cells else -1
            elif col > 0 and len(cells) > col and cells[col].isdigit() and cells[0]:
                out[(cells[0], size)] = float(cells[col])
    return out


def finished_insts(results, runs, known=()):
    """{(benchmark, size): warp instructions} of the runs that finished ok in a result folder,
    for the benchmarks and sizes not in `known` (only those runs' statistics are read)."""
    out = {}
    for r in runs:
        key = (r["benchmark"], r["size"])
        if r.get("program") or key in out or key in known:
            continue
        st = results.status(r["id"])
        if st and st.get("state") in STATES_OK:
            stats = read_json(os.path.join(results.run_dir(r["id"]), "stats.json"))
            gpu = stats.get("gpu") if isinstance(stats, dict) else None
            n = gpu.get("warp_insts") if isinstance(gpu, dict) else None
            if isinstance(n, (int, float)) and not isinstance(n, bool) and n > 0:
                out[key] = float(n)
    return out


def own_threads(run):
    """The sim.threads a run's own overrides set (0: every core), or None: then the pool chooses."""
    n = None
    for s in run.get("sets") or ():
        key, _, val = s.partition("=")
        if key.strip() == "sim.threads":
            try:
                n = max(0, int(val.strip()))
            except ValueError:
                n = 1   # warpsim refuses it (state usage): it runs on nothing
    return n


def run_work(run, insts):
    """A run's estimated work: its benchmark's warp instructions at its size, None if unknown."""
    if run.get("program"):
        return None
    return insts.get((run.get("benchmark"), run.get("size")))


def lpt_order(runs, work):
    """The runs in the order the pool tries them: those with no estimate first (in sweep order:
    one of them may be long, and a short one early costs little), then by their work and that of
    the runs that read from them ({rundir:DIM=LABEL}), longest first, ties in sweep order."""
    ids = {r["id"] for r in runs}
    readers = {}
    for r in runs:
        for rid in (r.get("after") or {}).values():
            if rid in ids and work.get(r["id"]) is not None:
                readers[rid] = max(readers.get(rid, 0.0), work[r["id"]])

    def key(ir):
        i, r = ir
        w = work.get(r["id"])
        return (0, 0.0, i) if w is None else (1, -(w + readers.get(r["id"], 0.0)), i)
    return [r for _, r in sorted(enumerate(runs), key=key)]


def split_cores(cores, works, cap=MAX_RUN_THREADS):
    """Threads for runs starting together on `cores` free cores: one each, then every further
    core to the run with the most work per thread (a run with no estimate, or at cap, takes
    none; ties to the earlier run). Cores left over stay free."""
    alloc = [1] * len(works)
    for _ in range(max(0, cores - len(works))):
        best = None
        for i, w in enumerate(works):
            if w is not None and alloc[i] < cap and (best is None or w * alloc[best] > works[best] * alloc[i]):
                best = i
        if best is None:
            break
        alloc[best] += 1
    return alloc


def threads_for(run, later, work, free_cores, free_slots, cores, jobs, per_run=None):
    """Threads for `run`, started now: a run that sets sim.threads keeps it (0: `cores`); per_run
    fixed gives that. Otherwise one where the runs still to start (`later`, in pool order) fill
    the free cores beside it in the free slots (it takes one of `free_slots`), or where -j
    exceeds the cores; else split_cores over it and the runs that will take the other free slots."""
    own = own_threads(run)
    if own is not None:
        return own or cores
    if per_run is not None:
        return per_run
    if jobs > cores or work.get(run["id"]) is None:
        return 1
    # the runs that will run beside it: the next ones in pool order, not those that read its output
    beside = [r for r in later if run["id"] not in (r.get("after") or {}).values()][:max(0, free_slots - 1)]
    if free_cores - 1 - len(beside) <= 0:
        return 1
    return split_cores(free_cores, [work.get(run["id"])] + [work.get(r["id"]) for r in beside])[0]


class _Interrupted(Exception):
    pass


_signalled = []  # the SIGTERM/SIGHUP received: the pool's loop raises _Interrupted for it


def _raise_interrupt(signum, frame):
    # only a flag: an exception raised here could land inside subprocess.Popen.poll between its
    # lock's acquire and its try, leaving the lock held, and the aborts' wait() would then hang
    _signalled.append(signal.Signals(signum).name)


def default_cores():
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_pool(results, runs, warpsim, jobs, timeout=None, retry_failed=False, out=sys.stderr, quiet=False,
             cores=None, per_run=None, insts=None):
    """Runs every unfinished run with at most `jobs` at a time, longest first, on `cores` cores
    (default: those this process may run on): threads_for gives each its threads, per_run fixes
    them. insts: more {(benchmark, size): warp instructions} beside bench/README.md's. Returns
    (counts by state, skipped, interrupted)."""
    cores = cores or default_cores()
    known = dict(known_insts(), **(insts or {}))
    known.update(finished_insts(results, runs, known))
    est = Estimator(lambda r: run_work(r, known))
    todo, skipped = [], 0
    for r in runs:
        st = results.status(r["id"])
        # a corrupt result is damage, not an outcome of the run: run it again without being asked
        if st and (st.get("state") in STATES_OK or not (retry_failed or st.get("state") == "corrupt")):
            skipped += 1
            if st.get("wall_seconds") is not None:
                est.add(r, st["wall_seconds"])
        else:
            todo.append(r)
    work = {r["id"]: run_work(r, known) for r in todo}
    todo = lpt_order(todo, work)
    prog = Progress(len(runs), skipped, out, quiet)
    has_after = any(r.get("after") for r in todo)
    counts = {}
    running = []
    _signalled.clear()
    old = {s: signal.signal(s, _raise_interrupt) for s in (signal.SIGTERM, signal.SIGHUP)}
    interrupted = None
    try:
        while todo or running:
            if _signalled:
                raise _Interrupted(_signalled[0])
            while todo and len(running) < jobs:
                # the first run whose {rundir:DIM=LABEL} runs have finished (pool order: lpt_order)
                pick = None
                pending = {r["id"] for r in todo} | {a.run["id"] for a in running} if has_after else ()
                for i, r in enumerate(todo):
                    why = waits_on(results, r, pending) if r.get("after") else None
                    if why == "wait":
                        continue
                    pick = todo.pop(i)
                    if why:
                        st = record_blocked(results, pick, why)
                        counts[st["state"]] = counts.get(st["state"], 0) + 1
                        prog.finished(pick, st)
                        pick = "blocked"
                    break
                if pick is None:
                    if not running:  # nothing can start and nothing runs: a run it reads is not in this pool
                        for r in todo:
                            st = record_blocked(results, r, "a run it reads from was not run")
                            counts[st["state"]] = counts.get(st["state"], 0) + 1
                            prog.finished(r, st)
                        todo = []
                    break
                if pick != "blocked":
                    free = cores - sum(a.threads for a in running)
                    n = threads_for(pick, todo, work, free, jobs - len(running), cores, jobs, per_run)
                    running.append(Attempt(results, pick, warpsim, timeout, n))
            time.sleep(0.03)
            for a in list(running):
                rc = a.poll()
                if rc is None:
                    a.check_timeout()
                    continue
                if rc == -signal.SIGINT:  # Ctrl-C reached the child first: an interrupt, not a crash
                    raise KeyboardInterrupt
                running.remove(a)
                st = a.finish(rc)
                counts[st["state"]] = counts.get(st["state"], 0) + 1
                est.add(a.run, st["wall_seconds"])
                prog.eta = _eta(est, todo, running, jobs)
                prog.finished(a.run, st)
            prog.eta = _eta(est, todo, running, jobs)
            prog.draw()
        if _signalled:
            raise _Interrupted(_signalled[0])
    except (KeyboardInterrupt, _Interrupted) as e:
        interrupted = str(e) or "SIGINT"
        for a in running:
            a.abort()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        prog.end()
    return counts, skipped, interrupted


def _eta(est, todo, running, jobs):
    work = 0.0
    for r in todo:
        g = est.guess(r)
        if g is None:
            return None
        work += g
    for a in running:
        g = est.guess(a.run)
        if g is None:
            return None
        work += max(g - a.elapsed(), 0.05 * g)
    return work / max(1, min(jobs, len(todo) + len(running)))


def task_runs(plan, index, per_task):
    runs = plan["runs"]
    lo = index * per_task
    if index < 0 or lo >= len(runs):
        raise IndexError(f"task index {index} is out of range: the manifest has {len(runs)} runs"
                         + (f" ({(len(runs) + per_task - 1) // per_task} tasks of {per_task})" if per_task > 1 else ""))
    return runs[lo:lo + per_task]


def run_task(results, index, warpsim, per_task=1, force=False, out=sys.stdout):
    """The cluster entry point: runs manifest line(s) `index` (x per_task) unless finished.
    Exit status 0 when every run is recorded as ok, 1 when one failed."""
    plan = results.read_plan()
    timeout = (plan.get("spec") or {}).get("timeout")
    rc = 0
    for r in task_runs(plan, index, per_task):
        st = results.status(r["id"])
        if st and not force and st.get("state") != "corrupt":
            out.write(f"{r['index']} {r['id']}: already finished ({st.get('state')}), skipped\n")
        else:
            # a run it reads from ({rundir:DIM=LABEL}) that has not finished is run first, here
            for ref, rid in (r.get("after") or {}).items():
                if results.status(rid) is None:
                    dep = next((x for x in plan["runs"] if x["id"] == rid), None)
                    if dep is not None:
                        dst = run_sync(results, dep, warpsim, timeout)
                        out.write(f"{dep['index']} {rid}: {dst['state']} in {dst['wall_seconds']:.1f}s (read by "
                                  f"{r['id']})\n")
            why = waits_on(results, r)
            st = record_blocked(results, r, why) if why else run_sync(results, r, warpsim, timeout)
            out.write(f"{r['index']} {r['id']}: {st['state']} in {st['wall_seconds']:.1f}s"
                      + (f": {st['message']}" if st["message"] else "") + "\n")
        if st.get("state") not in STATES_OK:
            rc = 1
    return rc


# ---- emitters for cluster engines ----

def _ranges(idx):
    """[0,1,2,5,7,8] -> '0-2,5,7-8' (Slurm --array syntax)."""
    out, i = [], 0
    while i < len(idx):
        j = i
        while j + 1 < len(idx) and idx[j + 1] == idx[j] + 1:
            j += 1
        out.append(str(idx[i]) if i == j else f"{idx[i]}-{idx[j]}")
        i = j + 1
    return ",".join(out)


def pending_tasks(results, plan, per_task):
    ntask = (len(plan["runs"]) + per_task - 1) // per_task
    pend = []
    for t in range(ntask):
        if any((results.status(r["id"]) or {"state": "corrupt"})["state"] == "corrupt"
               for r in task_runs(plan, t, per_task)):
            pend.append(t)
    return pend, ntask


def emit_slurm(results, warpsim, per_task=1, array_limit=None, extra=(), out=sys.stdout):
    plan = results.read_plan()
    pend, ntask = pending_tasks(results, plan, per_task)
    name = plan["spec"]["name"]
    path = os.path.join(results.path, "slurm.sh")
    logs = os.path.join(results.path, "slurm-logs")
    os.makedirs(logs, exist_ok=True)
    task_cmd = f"{shlex.quote(warpsim)} sweep --task {shlex.quote(results.path)} \"$i\""
    if per_task > 1:
        task_cmd += f" --per-task {per_task}"
    arr = _ranges(pend) if pend else "0-0"
    if array_limit:
        arr += f"%{array_limit}"
    lines = ["#!/bin/bash",
             f"# Slurm job array for warpsim sweep '{name}': {len(plan['runs'])} runs in {results.manifest_path},",
             f"# {ntask} tasks of {per_task} run(s); the --array line lists the {len(pend)} task(s) not finished",
             "# when this file was written. Submit with `sbatch " + path + "`",
             "# (or `sbatch --array=0-" + str(ntask - 1) + "%K` to choose). Task i runs manifest line(s)",
             "# i*per_task.. through `warpsim sweep --task`, which skips finished runs, so resubmitting",
             "# is safe. To test a task here: SLURM_ARRAY_TASK_ID=0 bash " + path,
             f"#SBATCH --job-name=warpsim-{name}",
             f"#SBATCH --array={arr}",
             f"#SBATCH --output={logs}/%A_%a.out",
             "#SBATCH --cpus-per-task=1"]
    lines += [f"#SBATCH {e}" for e in extra]
    lines += ["set -u",
              'i=${SLURM_ARRAY_TASK_ID:?set SLURM_ARRAY_TASK_ID to a task index (sbatch --array does)}',
              f"exec {task_cmd}", ""]
    atomic_write(path, "\n".join(lines))
    os.chmod(path, 0o755)
    if max(pend, default=0) > 1000:
        out.write("note: task indices above 1000 exceed Slurm's default MaxArraySize; use --per-task K\n")
    out.write(f"wrote {path}: {len(pend)} of {ntask} tasks pending\n  submit: sbatch {path}\n"
              f"  then:   {shlex.quote(warpsim)} report {shlex.quote(results.path)}\n")
    return path


def emit_parallel(results, warpsim, per_task=1, out=sys.stdout):
    plan = results.read_plan()
    pend, ntask = pending_tasks(results, plan, per_task)
    path = os.path.join(results.path, "parallel.txt")
    suffix = f" --per-task {per_task}" if per_task > 1 else ""
    cmds = [f"{shlex.quote(warpsim)} sweep --task {shlex.quote(results.path)} {t}{suffix}" for t in pend]
    atomic_write(path, "".join(c + "\n" for c in cmds))
    joblog = os.path.join(results.path, "parallel.log")
    q = shlex.quote
    out.write(f"wrote {path}: {len(pend)} of {ntask} tasks pending (one command per line)\n"
              f"  this machine:  parallel --jobs 100% --joblog {q(joblog)} < {q(path)}\n"
              f"  several:       parallel --sshloginfile nodes.txt --jobs 100% --joblog {q(joblog)} < {q(path)}\n"
              f"                 (every machine must see {q(warpsim)} and {q(results.path)} at the same paths,\n"
              f"                 e.g. on a shared filesystem; a line ':' in nodes.txt is this machine)\n"
              f"  then:          {q(warpsim)} report {q(results.path)}\n")
    return path
