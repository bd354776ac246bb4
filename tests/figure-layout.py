#!/usr/bin/env python3
# figure-layout.py MINPT FILE.svg ...: checks the texts of gnuplot SVG
# figures (the <g transform="translate(x,y) rotate(a)" font-size=...
# text-anchor=...><text>...</text> elements gnuplot's svg terminal writes):
#   - every text is at least MINPT points (0: not checked);
#   - no two texts overlap, and none leaves the canvas.
# A text's box is estimated as pngcairo draws it (the committed figures
# are PNGs of the same canvas): 4/3 pixel per point, a character 0.64 em
# wide for a digit, 0.72 an upper-case letter, 0.58 another (DejaVu Sans,
# rounded up; punctuation and spaces 0.34), 1.05 em high from
# 0.8 em above its baseline, rotated about its anchor, and 0.1 em wider
# on each side (two texts side by side need a gap to read apart).  Boxes
# may not intersect (separating axes on the rotated rectangles).
# Prints one line per fault, exits 1 if any.
import math
import re
import sys

G = re.compile(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)(?: rotate\(([-\d.]+)\))?"[^>]*?'
               r'font-size="([\d.]+)"[^>]*?text-anchor="(\w+)"[^>]*>\s*<text>(.*?)</text>', re.S)
SIZE = re.compile(r'<svg[^>]*width="(\d+)"[^>]*height="(\d+)"', re.S)


def boxes(svg):
    out = []
    for m in G.finditer(svg):
        x, y, rot, pt, anchor, body = m.groups()
        x, y, pt = float(x), float(y), float(pt)
        body = re.sub(r"<[^>]+>", "", body)
        body = body.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
        if not body.strip():
            continue
        # the svg terminal's sizes are pixels at 72 dpi: pngcairo's are 4/3 larger
        em = pt * 4.0 / 3.0
        w = em * sum(0.64 if ch.isdigit() else 0.72 if ch.isupper() else 0.34 if ch in " .,;:'()|!" else 0.58
                     for ch in body)
        x0 = {"start": 0.0, "middle": -w / 2, "end": -w}[anchor]
        a = -math.radians(float(rot)) if rot else 0.0
        corners = []
        for dx, dy in ((x0, -0.8 * em), (x0 + w, -0.8 * em), (x0 + w, 0.25 * em), (x0, 0.25 * em)):
            # grown by 0.1 em across: neighbours need a gap to read apart
            cx = x0 + w / 2
            dx += 0.1 * em if dx > cx else -0.1 * em
            corners.append((x + dx * math.cos(a) + dy * math.sin(a), y - dx * math.sin(a) + dy * math.cos(a)))
        out.append((body, pt, corners, (x, y, rot, pt, anchor)))
    return out


def overlap(p, q):
    for poly in (p, q):
        for i in range(4):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % 4]
            nx, ny = y2 - y1, x1 - x2
            a = [nx * x + ny * y for x, y in p]
            b = [nx * x + ny * y for x, y in q]
            if max(a) <= min(b) or max(b) <= min(a):
                return False
    return True


def main():
    minpt = float(sys.argv[1])
    faults = 0
    for path in sys.argv[2:]:
        svg = open(path, encoding="utf-8").read()
        m = SIZE.search(svg)
        W, H = (float(m.group(1)), float(m.group(2))) if m else (1e9, 1e9)
        bs = boxes(svg)
        if not bs:
            print("%s: no text found" % path)
            faults += 1
        for i, (t, pt, c, g) in enumerate(bs):
            if minpt and pt < minpt:
                print("%s: %r is %g pt, below %g" % (path, t, pt, minpt))
                faults += 1
            if min(x for x, _ in c) < 0 or max(x for x, _ in c) > W or min(y for _, y in c) < 0 or max(y for _, y in c) > H:
                print("%s: %r leaves the %gx%g canvas" % (path, t, W, H))
                faults += 1
            for j, (t2, _, c2, g2) in enumerate(bs[i + 1:]):
                # the next line of a text of several lines
                if j == 0 and g[2:] == g2[2:] and math.hypot(g2[0] - g[0], g2[1] - g[1]) <= 1.5 * pt:
                    continue
                if overlap(c, c2):
                    print("%s: %r overlaps %r" % (path, t, t2))
                    faults += 1
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
