#!/usr/bin/env python3
"""timeline_embed.py TRACE[.json|.json.gz] OUT.html: a copy of tools/timeline_viewer.html with the
trace inside (one file to send or archive; opens offline with no file to choose). Stdlib only."""
import gzip
import json
import os
import sys


def embed(trace, out, viewer=os.path.join(os.path.dirname(os.path.abspath(__file__)), "timeline_viewer.html")):
    opener = gzip.open if trace.endswith(".gz") else open
    with opener(trace, "rt") as f:
        data = json.load(f)
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")  # no "</script>" inside the element
    with open(viewer) as f:
        html = f.read()
    tag = (f'<script id="embedded-trace" type="application/json" data-name="{os.path.basename(trace)}">'
           f"{text}</script>\n")
    i = html.index("<body>") + len("<body>\n")
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(html[:i] + tag + html[i:])
    os.replace(tmp, out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    embed(sys.argv[1], sys.argv[2])
