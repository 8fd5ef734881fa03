#!/usr/bin/env python3
"""timeline_check.py TIMELINE [STATS_JSON] [--full]: checks a warpsim timeline (doc/timeline.md).

Always: the trace-event format's required fields (ph, name, pid; ts on every timed event; tid on
thread events; dur >= 0 on X events; numeric counter args), the warp-slot tracks' intervals never
overlap, and each warp's issued instructions (the intervals' args.n between its launch and exit)
equal the instruction count the SM kept for it (the exit event's args.insts).
With STATS_JSON and --full (the whole run recorded, every SM): the totals equal the run's
statistics: warp instructions, barrier wait cycles (the barrier intervals), exit wait cycles (the
finished intervals) and kernels. Prints a summary line; exits 1 with the first problems found."""
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main(argv):
    full = "--full" in argv
    args = [a for a in argv if a != "--full"]
    trace = load(args[0])
    stats = load(args[1]) if len(args) > 1 else None
    bad = []

    def fail(msg):
        if len(bad) < 20:
            bad.append(msg)

    ev = trace.get("traceEvents") if isinstance(trace, dict) else None
    if not isinstance(ev, list) or not ev:
        print("timeline_check: no traceEvents list", file=sys.stderr)
        return 1
    moved_finished = 0  # finished intervals on CTA tracks
    tracks = {}      # (pid, tid) -> [(ts, end, name, n)]
    launches = {}    # (pid, tid) -> [(ts, cta, warp)]
    exits = {}       # (pid, tid) -> [(ts, insts)]
    kernels = []
    counters = set()
    for i, e in enumerate(ev):
        for k in ("ph", "name", "pid"):
            if k not in e:
                fail(f"event {i}: no '{k}': {e}")
        ph = e.get("ph")
        if ph not in ("X", "i", "C", "M"):
            fail(f"event {i}: unexpected ph {ph!r}")
            continue
        if ph != "M" and not isinstance(e.get("ts"), (int, float)):
            fail(f"event {i}: no numeric ts: {e}")
            continue
        if ph in ("X", "i") and "tid" not in e:
            fail(f"event {i}: thread event without tid: {e}")
            continue
        if ph == "X":
            d = e.get("dur")
            if not isinstance(d, (int, float)) or d < 0:
                fail(f"event {i}: X event without dur >= 0: {e}")
                continue
            if e["pid"] == 0:
                kernels.append(e)
            elif e["tid"] < 100000:
                tracks.setdefault((e["pid"], e["tid"]), []).append(
                    (e["ts"], e["ts"] + d, e["name"], e.get("args", {}).get("n", 0)))
            elif e["name"] == "finished":  # a finished warp's exit wait after its slot was taken
                moved_finished += d
        elif ph == "i":
            if e.get("s", "t") not in ("t", "p", "g"):
                fail(f"event {i}: bad instant scope {e.get('s')!r}")
            key = (e["pid"], e["tid"])
            if e["name"] == "warp launch":
                launches.setdefault(key, []).append((e["ts"], e["args"]["cta"], e["args"]["warp"]))
            elif e["name"] == "warp exit":
                exits.setdefault(key, []).append((e["ts"], e["args"]["insts"]))
        elif ph == "C":
            a = e.get("args")
            if not isinstance(a, dict) or not a or not all(isinstance(v, (int, float)) for v in a.values()):
                fail(f"event {i}: counter without numeric args: {e}")
            counters.add(e["name"])

    total_n = barrier = 0
    finished = moved_finished
    warps = 0
    for key, iv in tracks.items():
        iv.sort(key=lambda x: (x[0], x[1]))
        for a, b in zip(iv, iv[1:]):
            if b[0] < a[1]:
                fail(f"SM pid {key[0]} slot {key[1]}: intervals overlap: {a} and {b}")
        for ts, end, name, n in iv:
            total_n += n
            if name == "barrier":
                barrier += end - ts
            elif name == "finished":
                finished += end - ts
        # per warp: the intervals between its launch and its exit
        lt = sorted(launches.get(key, []))
        xt = sorted(exits.get(key, []))
        if len(lt) != len(xt):
            fail(f"SM pid {key[0]} slot {key[1]}: {len(lt)} launches, {len(xt)} exits")
            continue
        for (t0, cta, w), (t1, insts) in zip(lt, xt):
            n = sum(x[3] for x in iv if x[0] >= t0 and x[1] <= t1 and x[2] != "finished")
            warps += 1
            if n != insts:
                fail(f"SM pid {key[0]} slot {key[1]} CTA {cta} warp {w}: {n} issues in its intervals, "
                     f"{insts} counted by the SM")
    if stats is not None and full:
        g = stats["gpu"]
        for what, got, want in (("warp instructions", total_n, g["warp_insts"]),
                                ("barrier wait cycles", barrier, g["barrier_wait_cycles"]),
                                ("exit wait cycles", finished, g["exit_wait_cycles"]),
                                ("kernels", len(kernels), len(g["kernels"]))):
            if got != want:
                fail(f"{what}: {got} in the timeline, {want} in the statistics")
    for msg in bad:
        print("timeline_check: " + msg, file=sys.stderr)
    print(f"timeline_check: {len(ev)} events, {len(tracks)} warp tracks, {warps} warps, {total_n} issues, "
          f"barrier {barrier} cycles, finished {finished} cycles, {len(kernels)} kernels, "
          f"{len(counters)} counter tracks: {'FAIL' if bad else 'ok'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
