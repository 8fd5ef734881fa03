#!/usr/bin/env python3
"""cta_lag.py - how far the older CTA of an SM runs ahead of the younger, measured alike in warpsim
and in Accel-Sim on the same instruction stream (doc/accelsim.md, doc/fidelity.md's matrixmul16).

Inputs: the Accel-Sim trace warpsim wrote (`--accelsim-trace DIR`: DIR/kernel-N.traceg), and either
or both of
- warpsim's timeline of that run with every state change an interval (`--timeline F
  --set timeline.merge_cycles=0`, doc/timeline.md): a warp's issue intervals, in order, are its
  instructions in the trace's order, which gives each issue its PC;
- Accel-Sim's scheduler trace of the run (`-trace_enabled 1 -trace_components WARP_SCHEDULER
  -trace_sampling_core -1`), filtered to its `has valid instruction` and `issued` lines (grep): an
  issue's PC is the warp's valid instruction printed just before it.
An SM's CTAs are ranked by launch (warpsim: the CTA's first warp launch, then its linear id;
Accel-Sim: dynamic warp id / --warps-per-cta, GPGPU-Sim numbering a core's warps as it launches
them): rank 0 is the older, rank 1 the younger; only SMs whose first two CTAs are resident together
count, and --ws-sms / --as-sms pick some of them.

    python3 tools/cta_lag.py --trace DIR/kernel-1.traceg --marker 0x620 [--phase 0x648:0x7c8] \\
        [--gap LDS:FFMA] [--timeline T.json[.gz]] [--accelsim LOG[.gz]] [--ws-sms 0,3] [--as-sms 2,4]

Prints per side: the lag of each iteration (the younger's first issue of its n-th --marker minus
the older's, mean and max over the SMs), with --phase the cycles in which both CTAs are inside a
phase (from a CTA's first issue of its n-th A to its last issue of its n-th B) and each CTA's issues
per cycle there, and with --gap the distribution of the issue-to-issue cycles of a warp's
consecutive instructions whose opcodes begin with the two names (a load-to-use time). Stdlib only.
"""
import argparse
import collections
import gzip
import json
import re
import sys

AS_VALID = re.compile(r"Cycle (\d+): WARP_SCHEDULER - Core (\d+) - Scheduler \d+ - Warp \(warp_id \d+, "
                      r"dynamic_warp_id (\d+)\) has valid instruction \(<no instruction at address 0x([0-9a-fA-F]+)>\)")
AS_ISSUED = re.compile(r"Cycle (\d+): WARP_SCHEDULER - Core (\d+) - Scheduler \d+ - Warp \(warp_id \d+, "
                       r"dynamic_warp_id (\d+)\) issued")


def die(msg):
    sys.stderr.write("cta_lag: %s\n" % msg)
    sys.exit(2)


def open_text(path):
    try:
        return gzip.open(path, "rt") if path.endswith(".gz") else open(path)
    except OSError as e:
        die("%s: %s" % (path, e.strerror))


def read_trace(path):
    """({(cta linear id, warp in CTA): [pc, ...]}, {pc: opcode}) of an Accel-Sim kernel trace."""
    streams, ops, grid = {}, {}, None
    cur = None
    cta = None
    with open_text(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith("-grid dim"):
                grid = [int(v) for v in re.findall(r"\d+", s)]
            elif s.startswith("thread block"):
                if not grid:
                    die("%s: a thread block before -grid dim" % path)
                x, y, z = (int(v) for v in s.split("=")[1].split(","))
                cta = x + y * grid[0] + z * grid[0] * grid[1]
            elif s.startswith("warp ="):
                if cta is None:
                    die("%s: a warp before its thread block" % path)
                cur = streams.setdefault((cta, int(s.split("=")[1])), [])
            elif cur is not None and re.match(r"^[0-9a-fA-F]+ [0-9a-fA-F]+ \d+ ", s):
                f_ = s.split()
                pc, ndst = int(f_[0], 16), int(f_[2])
                cur.append(pc)
                ops[pc] = f_[3 + ndst]
    if not streams:
        die("%s: no warp instructions (not an Accel-Sim kernel trace?)" % path)
    return streams, ops


def ws_issues(path, streams):
    """{sm: [(cycle, cta linear id, warp in CTA, pc)]} and {sm: [CTAs by launch]} from a timeline."""
    try:
        with open_text(path) as f:
            events = json.load(f)["traceEvents"]
    except (ValueError, KeyError) as e:
        die("%s: not a warpsim timeline (%s)" % (path, e))
    slot, launch = {}, {}
    issues = []
    for e in events:
        name = e.get("name")
        if name == "warp launch":
            key = (e["pid"], e["tid"])
            slot.setdefault(key, []).append((e["ts"], e["args"]["cta"], e["args"]["warp"]))
            launch.setdefault(e["pid"] - 1, {}).setdefault(e["args"]["cta"], e["ts"])
        elif name == "issue":
            if e["args"]["n"] != e["dur"]:
                die("%s: merged issue intervals: record it with --set timeline.merge_cycles=0" % path)
            issues.append(e)
    count = collections.Counter()
    out = collections.defaultdict(list)
    for e in sorted(issues, key=lambda e: e["ts"]):
        key = (e["pid"], e["tid"])
        owner = [o for o in slot.get(key, []) if o[0] <= e["ts"]]
        if not owner:
            die("%s: an issue on a warp slot with no launch" % path)
        _, cta, warp = owner[-1]
        seq = streams.get((cta, warp))
        if seq is None:
            die("%s: CTA %d warp %d is not in the trace" % (path, cta, warp))
        for c in range(e["ts"], e["ts"] + e["dur"]):
            k = count[(cta, warp)]
            if k >= len(seq):
                die("%s: CTA %d warp %d issued more than its %d trace instructions" % (path, cta, warp, len(seq)))
            out[e["pid"] - 1].append((c, cta, warp, seq[k]))
            count[(cta, warp)] += 1
    ranks = {sm: sorted(ctas, key=lambda c: (ctas[c], c)) for sm, ctas in launch.items()}
    return out, ranks


def as_issues(path, warps_per_cta):
    """{core: [(cycle, CTA position on the core, warp in CTA, pc)]} and {core: [positions]}."""
    last_pc = {}
    out = collections.defaultdict(list)
    with open_text(path) as f:
        for line in f:
            m = AS_VALID.search(line)
            if m:
                last_pc[(int(m[2]), int(m[3]))] = (int(m[1]), int(m[4], 16))
                continue
            m = AS_ISSUED.search(line)
            if m:
                c, core, dyn = int(m[1]), int(m[2]), int(m[3])
                seen = last_pc.get((core, dyn))
                if not seen or seen[0] != c:
                    die("%s: cycle %d core %d warp %d issued without its valid instruction line" % (path, c, core, dyn))
                out[core].append((c, dyn // warps_per_cta, dyn % warps_per_cta, seen[1]))
    if not out:
        die("%s: no issued lines (run Accel-Sim with -trace_enabled 1 -trace_components WARP_SCHEDULER)" % path)
    ranks = {core: sorted({r[1] for r in recs}) for core, recs in out.items()}
    return out, ranks


def nth_times(recs, pc):
    """{(cta, n): (first, last) issue cycle of the CTA's warps' n-th instance of pc}."""
    seen = collections.Counter()
    t = {}
    for c, cta, warp, p in recs:
        if p != pc:
            continue
        n = seen[(cta, warp)]
        seen[(cta, warp)] += 1
        lo, hi = t.get((cta, n), (c, c))
        t[(cta, n)] = (min(lo, c), max(hi, c))
    return t


def analyse(tag, issues, ranks, sms, ops, args):
    pairs = {}
    for sm, order in sorted(ranks.items()):
        if len(order) < 2 or (sms is not None and sm not in sms):
            continue
        first = {cta: min(r[0] for r in issues[sm] if r[1] == cta) for cta in order[:2]}
        if max(first.values()) > min(r[0] for r in issues[sm]) + args.together:
            continue  # the younger came later: not resident together
        pairs[sm] = (order[0], order[1])
    if not pairs:
        print("%s: no SM with two CTAs resident together" % tag)
        return
    print("%s: SMs %s (older, younger CTA): %s" % (tag, ",".join(map(str, pairs)),
                                                   " ".join("%d:%d/%d" % (s, o, y) for s, (o, y) in pairs.items())))
    lags = collections.defaultdict(list)
    for sm, (o, y) in pairs.items():
        t = nth_times(issues[sm], args.marker)
        n = 0
        while (o, n) in t and (y, n) in t:
            lags[n].append(t[(y, n)][0] - t[(o, n)][0])
            n += 1
    its = [n for n in sorted(lags) if len(lags[n]) == len(pairs)]
    print("%s: lag (cycles) by iteration, mean: %s" % (tag, " ".join("%.0f" % (sum(lags[n]) / len(lags[n])) for n in its)))
    print("%s: lag (cycles) by iteration, max:  %s" % (tag, " ".join("%d" % max(lags[n]) for n in its)))
    if args.phase:
        a, b = args.phase
        cycles = old = young = 0
        for sm, (o, y) in pairs.items():
            ta, tb = nth_times(issues[sm], a), nth_times(issues[sm], b)
            span = {cta: [(ta[(cta, n)][0], tb[(cta, n)][1]) for n in range(len(ta)) if (cta, n) in ta and (cta, n) in tb]
                    for cta in (o, y)}
            inside = set()
            for lo_o, hi_o in span[o]:
                for lo_y, hi_y in span[y]:
                    inside.update(range(max(lo_o, lo_y), min(hi_o, hi_y) + 1))
            cycles += len(inside)
            for c, cta, _, _ in issues[sm]:
                if c in inside:
                    old += cta == o
                    young += cta == y
        if cycles:
            print("%s: both CTAs in a phase: %.0f cycles an SM; issues per cycle there: older %.3f, younger %.3f"
                  % (tag, cycles / len(pairs), old / cycles, young / cycles))
    if args.gap:
        first_op, second_op = args.gap
        hist = collections.Counter()
        for sm in pairs:
            prev = {}
            for c, cta, warp, p in issues[sm]:
                q = prev.get((cta, warp))
                if q and ops.get(q[1], "").startswith(first_op) and ops.get(p, "").startswith(second_op):
                    hist[c - q[0]] += 1
                prev[(cta, warp)] = (c, p)
        n = sum(hist.values())
        if n:
            top = sorted(hist.items(), key=lambda kv: (-kv[1], kv[0]))[:4]
            print("%s: %s -> %s issue gap: %d pairs, min %d, mean %.1f, most common %s" % (
                tag, first_op, second_op, n, min(hist), sum(k * v for k, v in hist.items()) / n,
                ", ".join("%d (%d)" % kv for kv in top)))


def sm_list(text):
    if text is None:
        return None
    try:
        return {int(v) for v in text.split(",")}
    except ValueError:
        die("an SM list is numbers separated by commas: %r" % text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trace", required=True, help="the kernel's Accel-Sim trace (kernel-N.traceg)")
    ap.add_argument("--marker", required=True, help="PC (hex) whose n-th issue starts iteration n")
    ap.add_argument("--timeline", help="warpsim's timeline (timeline.merge_cycles=0)")
    ap.add_argument("--accelsim", help="Accel-Sim's WARP_SCHEDULER trace, filtered")
    ap.add_argument("--phase", help="A:B, PCs (hex) that open and close a phase")
    ap.add_argument("--gap", help="OP1:OP2, opcode prefixes of consecutive instructions")
    ap.add_argument("--warps-per-cta", type=int, default=0, help="Accel-Sim side (default: the trace's)")
    ap.add_argument("--together", type=int, default=1000, help="cycles within which two CTAs' first issues count as resident together")
    ap.add_argument("--ws-sms", help="warpsim SMs to count (default: all with two CTAs together)")
    ap.add_argument("--as-sms", help="Accel-Sim cores to count")
    args = ap.parse_args()
    if not args.timeline and not args.accelsim:
        die("give --timeline, --accelsim or both")
    try:
        args.marker = int(args.marker, 16)
        if args.phase:
            args.phase = tuple(int(v, 16) for v in args.phase.split(":"))
            if len(args.phase) != 2:
                raise ValueError
    except ValueError:
        die("--marker is a hex PC, --phase two hex PCs A:B")
    if args.gap:
        args.gap = args.gap.split(":")
        if len(args.gap) != 2 or not all(args.gap):
            die("--gap is OP1:OP2")
    streams, ops = read_trace(args.trace)
    wpc = args.warps_per_cta or 1 + max(w for _, w in streams)
    if args.timeline:
        iss, ranks = ws_issues(args.timeline, streams)
        analyse("warpsim", iss, ranks, sm_list(args.ws_sms), ops, args)
    if args.accelsim:
        iss, ranks = as_issues(args.accelsim, wpc)
        analyse("Accel-Sim", iss, ranks, sm_list(args.as_sms), ops, args)


if __name__ == "__main__":
    main()
