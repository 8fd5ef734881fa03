#!/usr/bin/env bash
# The offline timeline viewer (tools/timeline_viewer.html) in a real headless Chromium (Debian's
# `chromium`, installed by tools/setup-debian.sh): a timeline of the hand-built `phases` kernel
# (tests/kernels/stats_locality.ptx: warp 1 waits at the barrier while warp 0 runs) embedded in the
# viewer (tools/timeline_embed.py) is screenshot and the picture checked (tests/cli/timeline_png.py:
# one track's band in the barrier colour, warp 0 running above it); a hotspot timeline's DOM says
# how many tracks it drew: as many as the trace has (also when the viewer reads the .json.gz itself,
# ?trace=), and only SM 2's with ?sms=2.
# Without chromium on PATH it says SKIP and exits 77, a skip for tests/run_tests.sh (CI installs it).
set -eu
W=${WARPSIM:-build/rel/warpsim}
fail() { echo "FAIL: $*"; exit 1; }
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROME" ]; then echo "SKIP: no chromium (tools/setup-debian.sh installs it)"; exit 77; fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
browse() {  # browse URL ARGS...: headless Chromium, no profile left behind
  timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$d/profile" --virtual-time-budget=5000 "$@" 2>/dev/null
}
$W launch --ptx tests/kernels/stats_locality.ptx --kernel phases --grid 1 --block 64 \
  --buffer "buf f32 1024 seq 0 1" --arg buf --arg "u32 2000" --timeline $d/ph.json \
  --set timeline.counter_window=0 >/dev/null 2>&1 || fail "phases run"
python3 tools/timeline_embed.py $d/ph.json $d/ph.html || fail "embed"
browse --window-size=1000,400 --screenshot=$d/ph.png "file://$d/ph.html" >/dev/null || fail "chromium screenshot"
python3 tests/cli/timeline_png.py $d/ph.png $d/ph.json || fail "the picture"

$W run hotspot --size tiny --timeline $d/h.json.gz --timeline-sms 1-2 >/dev/null 2>&1 || fail "hotspot run"
python3 tools/timeline_embed.py $d/h.json.gz $d/h.html || fail "embed (gz)"
want=$(python3 -c "
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1], 'rt'))['traceEvents']
print(len({(e['pid'], e['tid']) for e in ev if e['ph'] in 'Xi'}), len({(e['pid'], e['tid']) for e in ev if e['ph'] in 'Xi' and e['pid'] in (0, 3)}))
" $d/h.json.gz)
all=${want% *} sm2=${want#* }
dom=$(browse --dump-dom "file://$d/h.html") || fail "chromium dump-dom"
printf '%s\n' "$dom" | grep -q "data-tracks=\"$all\"" || fail "tracks drawn: $(printf '%s\n' "$dom" | grep -o 'data-tracks="[0-9]*"'), want $all"
# the viewer itself, reading the .json.gz through the browser's gunzip (?trace=; file:// needs the flag)
dom=$(browse --allow-file-access-from-files --dump-dom "file://$PWD/tools/timeline_viewer.html?trace=file://$d/h.json.gz") \
  || fail "chromium dump-dom ?trace="
printf '%s\n' "$dom" | grep -q "data-tracks=\"$all\"" || fail "?trace= (gzip in the browser): $(printf '%s\n' "$dom" | grep -o 'id="info">[^<]*')"
dom=$(browse --dump-dom "file://$d/h.html?sms=2") || fail "chromium dump-dom ?sms=2"
printf '%s\n' "$dom" | grep -q "data-tracks=\"$sm2\"" || fail "SM 2 tracks: $(printf '%s\n' "$dom" | grep -o 'data-tracks="[0-9]*"'), want $sm2"
echo "timeline viewer ok"
