#!/usr/bin/env bash
# The dependency rules of doc/layout.md: every `#include "..."` of src/ goes to the file's own
# folder or to one its folder may use (the `deps` block of doc/layout.md, itself free of circles);
# no circle between the files of one folder (file A uses a function defined in file B, which
# uses one defined in A, directly or through others; subfolders count as their folder); a
# folder's private header (NAME_int.h) included only in that folder; and policies looked up by
# name only above src/mem/ and src/sm/ (no file there includes policy/registry.h or calls its
# policy_find* functions: the composition root hands them resolved policies). Needs python3;
# builds nothing.
set -eu
cd "$(dirname "$0")/../.."
python3 - << 'PY'
import os, re, sys
doc = open("doc/layout.md").read()
block = re.search(r"```deps\n(.*?)```", doc, re.S)
if not block:
    sys.exit("deps: doc/layout.md has no ```deps block")
allowed = {}
for line in block.group(1).splitlines():
    if "->" in line:
        a, b = line.split("->")
        allowed[a.strip()] = set(b.split())
bad = []

def cycle(graph):
    """A circle in graph {node: set(nodes)} as a list, or None."""
    state, stack = {}, []
    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if not state.get(m):
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None
    for n in sorted(graph):
        if not state.get(n):
            c = visit(n)
            if c:
                return c
    return None

c = cycle(allowed)
if c:
    bad.append("doc/layout.md: the allowed dependencies form a circle: " + " -> ".join(c))

strip = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
files = {}
for d, _, fs in os.walk("src"):
    for f in fs:
        if f.endswith((".c", ".h", ".def")):
            p = os.path.join(d, f)
            files[os.path.relpath(p, "src")] = open(p, encoding="utf-8", errors="replace").read()
folders = {p.split("/")[0] for p in files}
for f in sorted(folders - set(allowed)):
    bad.append(f"src/{f}/: a folder doc/layout.md does not place")
fgraph = {}
for p, text in sorted(files.items()):
    here = p.split("/")[0]
    for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
        there = inc.split("/")[0] if "/" in inc else here
        if inc.startswith(("bench", "common/")) or there not in folders:
            continue
        if there != here:
            fgraph.setdefault(here, set()).add(there)
            if there not in allowed.get(here, set()):
                bad.append(f"src/{p}: includes {inc}, but {here}/ may not use {there}/ (doc/layout.md)")
c = cycle(fgraph)
if c:
    bad.append("a circle between folders: " + " -> ".join(c))

# a folder's private header (NAME_int.h: its internals) is included in that folder only
for p, text in sorted(files.items()):
    for inc in re.findall(r'^\s*#\s*include\s+"([^"]+_int\.h)"', text, re.M):
        there = inc.split("/")[0] if "/" in inc else p.split("/")[0]
        if there != p.split("/")[0]:
            bad.append(f"src/{p}: includes {inc}, the private header of src/{there}/")

# the registry's lookups by name belong to the composition root (src/sim/policies.c) and the CLI
for p, text in sorted(files.items()):
    if p.split("/")[0] in ("mem", "sm"):
        inc = re.search(r'^\s*#\s*include\s+"policy/registry\.h"', text, re.M)
        call = re.search(r"\bpolicy_find\w*\s*\(", strip.sub(" ", text))
        for m in (inc, call):
            if m:
                what = m.group(0).rstrip("( ")
                bad.append(f"src/{p}: looks a policy up by name ({what}); src/sim/ resolves policies")

# files of one folder: A -> B when A mentions a function B defines (not static)
kw = {"if", "for", "while", "switch", "return", "sizeof", "else", "do"}
defn = re.compile(r"^(?!static\b|typedef\b|extern\b|#)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(([^;{}()]|\([^()]*\))*\)\s*(?:__attribute__\(\(.*?\)\)\s*)?\{", re.M)
for folder in sorted(folders):
    srcs = {p: strip.sub(" ", t) for p, t in files.items() if p.split("/")[0] == folder and p.endswith(".c")}
    owner = {}
    for p, t in srcs.items():
        for m in defn.finditer(t):
            if m.group(1) not in kw:
                owner[m.group(1)] = p
    graph = {}
    for p, t in srcs.items():
        for name in set(re.findall(r"\b[A-Za-z_]\w*\b", t)):
            q = owner.get(name)
            if q and q != p:
                graph.setdefault(p, set()).add(q)
    c = cycle(graph)
    if c:
        bad.append(f"a circle between files of src/{folder}/: " + " -> ".join(c))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
