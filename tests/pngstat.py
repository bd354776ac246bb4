#!/usr/bin/env python3
# pngstat.py FILE [RRGGBB ...]: decodes an 8-bit RGB or RGBA PNG (no
# interlace) with the standard library alone and prints
#   width height distinct_colours nonwhite_percent [pixels_of_each_colour ...]
# so that a test can check a screenshot's size and that it is not blank.
import struct
import sys
import zlib


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        print("not a PNG")
        return 1
    pos, idat, w = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    if w is None or depth != 8 or ctype not in (2, 6) or interlace:
        print("unsupported PNG (want 8-bit RGB or RGBA, not interlaced)")
        return 1
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    prev = bytearray(stride)
    colours = {}
    want = [bytes.fromhex(c) for c in sys.argv[2:]]
    counts = [0] * len(want)
    nonwhite = 0
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        for x in range(0, stride, bpp):
            px = bytes(line[x:x + 3])
            colours[px] = colours.get(px, 0) + 1
    for px, k in colours.items():
        if px != b"\xff\xff\xff":
            nonwhite += k
        for i, c in enumerate(want):
            if px == c:
                counts[i] += k
    print(w, h, len(colours), "%.1f" % (100.0 * nonwhite / (w * h)), *counts)
    return 0


sys.exit(main())
