"""reprodoc.py - `warpsim reproduce --doc FILE`: rewrites the results part of doc/reproducing.md
from the reproductions' results folders (results/reproduce/<paper>-<size>/ by default): a summary
of the verdicts per paper, then per paper its sweeps' state and its claims table, computed as
`warpsim reproduce` computes report.md. The part above the marker line is the hand-written
reference and is kept as it is. The README's verdict counts (between its two verdict marker lines)
are rewritten from the same table, so no count is typed by hand. Runs no simulation.
"""

import os
import shutil

from . import claims, paperdir, reproduce, runner

PROVENANCE = reproduce.PROVENANCE
MARK = "<!-- Below: written by `warpsim reproduce --doc`; change the generator (tools/wsexp/reprodoc.py), not the text. -->"
# The README's copy of the verdict counts sits between these two lines (rewritten with the doc).
README_START = "<!-- verdicts: written by `warpsim reproduce --doc` (tools/wsexp/reprodoc.py), not by hand -->"
README_END = "<!-- /verdicts -->"


def _provenance(outdir):
    p = runner.read_json(os.path.join(outdir, PROVENANCE))
    return p if isinstance(p, dict) else {}


def _figures(paper, outdir, docdir):
    """Markdown images of the paper's figures drawn in its results folder, copied next to the doc
    (docdir/reproduce/<paper>-<figure>.png) so that the doc shows them."""
    md = []
    for fig in paper.figures:
        src = os.path.join(outdir, "figures", f"{fig.id}.png")
        if not os.path.isfile(src):
            continue
        rel = os.path.join("reproduce", f"{paper.name}-{fig.id}.png")
        os.makedirs(os.path.join(docdir, "reproduce"), exist_ok=True)
        shutil.copyfile(src, os.path.join(docdir, rel))
        md += [f"![{paper.name} {fig.paper}: {fig.title}]({rel})", ""]
    return md


def paper_section(name, size, outdir, checker, docdir):
    """(markdown lines, {verdict: n}, provenance) of one paper's results folder."""
    paper = paperdir.Paper(name)
    md = [f"### {name}: {paper.title}", ""]
    if not os.path.isdir(os.path.join(outdir, "sweeps")):
        md += [f"*Not run: `warpsim reproduce {name} --size {size}` makes {outdir}.*", ""]
        return md, None, {}
    prepared = reproduce.prepare(paper, size, None, checker)
    sds = {n: reproduce.SweepData(os.path.join(outdir, "sweeps", n)) for n, _, _, _ in prepared}
    rows = []
    for n, sp, av, runs in prepared:
        sd = sds[n]
        st = ", ".join(f"{k} {s}" for s, k in sorted(sd.data.states().items())) if sd.data else "not run"
        rows.append((n, len(runs), st, runner.fmt_time(sd.wall()) if sd.data else "-"))
    md += [reproduce.md_table(["sweep", "runs", "state", "run time (sum over runs)"], rows), ""]
    md += _figures(paper, outdir, docdir)
    cmd, _, counts = reproduce.claims_section(paper, prepared, sds, outdir)
    md += ["#### Claims" if ln == "## Claims" else ln for ln in cmd]
    return md, counts, _provenance(outdir)


def generate(doc, size, results_root, warpsim, names=None, readme=None):
    """Rewrites doc below MARK, and the verdict counts between README_START and README_END of readme
    (when given: the counts of every paper); returns {paper: counts or None} (None: not run)."""
    try:
        with open(doc, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise paperdir.ReproError(f"cannot read {doc}: {e}")
    if MARK not in text:
        raise paperdir.ReproError(f"{doc}: no marker line (the generated part starts after it):\n{MARK}")
    head = text[:text.index(MARK)]
    checker = reproduce.Checker(warpsim)
    names = names or paperdir.list_papers()
    secs, results, provs = [], {}, {}
    for name in names:
        outdir = os.path.join(results_root, f"{name}-{size}")
        md, counts, prov = paper_section(name, size, outdir, checker, os.path.dirname(os.path.abspath(doc)))
        secs += md
        results[name] = counts
        provs[name] = prov
    made = {(p.get("commit") or "an unknown commit") for p in provs.values() if p}
    out = [MARK, "", f"## Results at `{size}`", ""]
    out.append(f"Written by `warpsim reproduce --doc {doc} --size {size}` from "
               f"`{results_root}/<paper>-{size}/`, each made by `warpsim reproduce <paper> --size {size}`"
               + (f" at commit {', '.join(sorted(made))}." if made else "."))
    if len(made) > 1:
        out.append("The results folders come from different commits: " + "; ".join(
            f"{n} {p.get('commit')}" for n, p in provs.items() if p) + ".")
    out += ["", "Verdicts of the claims (a measurement made by two claims counted once; doc above: *The claims "
            "table*):", ""]
    table = verdict_table(results)
    out += [table, ""]
    if readme:   # checked before the doc is written: both files change, or neither
        readme_text = readme_with(readme, table, size, made)
    text = head + "\n".join(out + secs).rstrip() + "\n"
    runner.atomic_write(doc, text)
    if readme:
        runner.atomic_write(readme, readme_text)
    return results


def verdict_table(results):
    """The markdown table of verdict counts per paper ({paper: counts or None}), with a total row."""
    head_row = ["paper"] + list(claims.VERDICTS)
    rows, total = [], {v: 0 for v in claims.VERDICTS}
    for name, counts in results.items():
        if counts is None:
            rows.append([name, "not run"] + ["-"] * (len(claims.VERDICTS) - 1))
            continue
        rows.append([name] + [counts[v] for v in claims.VERDICTS])
        for v in claims.VERDICTS:
            total[v] += counts[v]
    rows.append(["all"] + [total[v] for v in claims.VERDICTS])
    return reproduce.md_table(head_row, rows)


def readme_with(readme, table, size, made):
    """readme's text with the lines between README_START and README_END replaced by the table."""
    try:
        with open(readme, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise paperdir.ReproError(f"cannot read {readme}: {e}")
    i = text.find(README_START)
    j = text.find(README_END, i + 1) if i >= 0 else -1
    if i < 0 or j < 0:
        raise paperdir.ReproError(f"{readme}: no verdict block (a line {README_START}, then the table, then a line "
                                  f"{README_END})")
    commit = f" at commit {', '.join(sorted(made))}" if made else ""
    block = [README_START, "",
             f"Verdicts of the claims at `{size}`{commit} (doc/reproducing.md has each paper's claims table):", "",
             table, "", README_END]
    return text[:i] + "\n".join(block) + text[j + len(README_END):]
