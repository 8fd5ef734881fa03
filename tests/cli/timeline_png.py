#!/usr/bin/env python3
"""timeline_png.py SHOT.png TRACE.json: checks a headless-Chromium screenshot of
tools/timeline_viewer.html showing tests/kernels/stats_locality.ptx `phases` (one CTA, two warps:
warp 0 runs while warp 1 waits at the barrier). Decodes the PNG with the standard library (zlib)
and finds, per state colour, the pixel rows where it covers a long stretch: the barrier colour must
fill exactly one track (warp slot 1: one band as tall as a track), and warp slot 0's band, right
above it, must be drawn across most of the same stretch in the colours of running states."""
import struct
import sys
import zlib

ROW = 12  # the viewer's track height (ROW in timeline_viewer.html): bands of ROW - 2 pixels


def decode(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def hexrgb(s):
    return tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))


def main(shot, _trace):
    w, h, px = decode(shot)
    barrier, white = hexrgb("#1f77b4"), (255, 255, 255)
    running = {hexrgb(c) for c in ("#2ca02c", "#98df8a", "#17becf", "#ff7f0e", "#d62728", "#e7ba52")}
    band = [y for y in range(h) if sum(1 for p in px[y] if p == barrier) > w // 3]
    assert band, "no row with a long barrier interval"
    assert band == list(range(band[0], band[0] + ROW - 2)), f"barrier rows {band}: not one track's band"
    # the barrier stretch (columns) and, one track above, warp slot 0 running across it
    cols = [x for x in range(w) if px[band[0]][x] == barrier]
    y0 = band[0] - ROW
    run = sum(1 for x in cols if px[y0][x] in running)
    assert run > 0.8 * len(cols), f"warp slot 0 drawn on {run} of {len(cols)} columns above the barrier wait"
    other = sum(1 for y in range(h) if y not in band for p in px[y] if p == barrier)
    assert other < w, f"{other} barrier-coloured pixels outside warp slot 1's band"  # the legend's swatch
    nonwhite = sum(1 for y in range(h) for p in px[y] if p != white)
    print(f"timeline_png: {w}x{h}, barrier band rows {band[0]}..{band[-1]} over {len(cols)} columns, "
          f"warp 0 running on {run}, {nonwhite} non-white pixels: ok")


if __name__ == "__main__":
    try:
        main(*sys.argv[1:3])
    except AssertionError as e:
        print(f"timeline_png: FAIL: {e}", file=sys.stderr)
        sys.exit(1)
