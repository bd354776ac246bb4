#!/usr/bin/env python3
"""Every number of a workshop page against the runs that make it.

    workshop-numbers.py PAGE.md PAGE.numbers --check
        every number of the page's "What to look for" and "Answer" sections
        (outside `code`) lies inside the text of one claim of PAGE.numbers,
        and every claim's text is on the page (make test: no run)
    workshop-numbers.py PAGE.md PAGE.numbers --runs HERD LESSON.ini OUT
        the same, then each claim's run (the lesson, or the lesson with an
        exercise's options) is run into OUT and its number is compared with
        the run (make workshop)

PAGE.numbers holds one claim a line, "TEXT | RUN | CHECK" ('#' starts a
comment line):

  TEXT   the page's words around the number, as on the page (line breaks
         and repeated blanks are one blank), the number checked in braces:
         {743}; {~600} about (10%, or the interval if wider); {>1,200} at
         least; {<1} below.  Without braces every number of TEXT is an
         input of the scenario or arithmetic on inputs (CHECK input).
  RUN    -  the lesson as it is;  --set K=V ...  the lesson with these
         options (split as the shell splits words);  sed S/A/B/  the lesson's file through this sed
         expression (as the page's exercise does)
  CHECK  input
         mean COL K=V ...   aggregate.csv's COL_mean of the row where the
                            columns K have the values V, with COL_ci95
         ci COL K=V ...     that row's COL_ci95 itself (a "+/- H" quoted)
         min COL K=V ... / max COL K=V ...   over summary.csv's rows
         pct COL K=V ... / COL K=V ...       100 x one mean / another
         times COL K=V ... / COL K=V ...     one mean / another
         pctover COL K=V ...                 100 x (mean - 1)
         minus COL K=V ... - C               mean - C

A number holds when it is within the 95% CI half-width (propagated for
ratios) plus half a unit of its last written digit of the value the run
gives: the page may round, never disagree.
"""
import csv
import math
import os
import re
import shlex
import subprocess
import sys

SECTIONS = ("## What to look for", "## Answer")


def flat(s):
    return re.sub(r"\s+", " ", s).strip()


def sections(page):
    """The text of the checked sections, flattened, one string."""
    out, on = [], False
    for line in page.splitlines():
        if line.startswith("## "):
            on = line.startswith(SECTIONS)
            continue
        if on and not line.startswith("!["):
            out.append(line)
    return flat("\n".join(out))


NUM = re.compile(r"(?<![\w.,])\d[\d,]*(?:\.\d+)?(?![\w])")


def numbers(text):
    """(start, text) of every number outside `code` spans."""
    found, pos = [], 0
    for m in re.finditer(r"`[^`]*`", text):
        found += [(pos + n.start(), n.group()) for n in NUM.finditer(text[pos:m.start()])]
        pos = m.end()
    found += [(pos + n.start(), n.group()) for n in NUM.finditer(text[pos:])]
    return [(i, t.rstrip(",")) for i, t in found if t.rstrip(",")]


def parse_claims(path):
    claims = []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 3:
            sys.exit(f"{path}:{n}: expected TEXT | RUN | CHECK, got: {line}")
        claims.append((n, parts[0], parts[1], parts[2]))
    return claims


def value_of(text):
    return float(text.replace(",", ""))


def unit(text):
    t = text.replace(",", "")
    return 10 ** -len(t.split(".")[1]) if "." in t else 1


class Runs:
    def __init__(self, herd, ini, out):
        self.herd, self.ini, self.out, self.done = herd, ini, out, {}

    def dir(self, spec):
        if spec in self.done:
            return self.done[spec]
        d = os.path.join(self.out, "run-%d" % len(self.done))
        ini = self.ini
        args = []
        if spec.startswith("sed "):
            ini = os.path.join(self.out, "run-%d.ini" % len(self.done))
            os.makedirs(self.out, exist_ok=True)
            with open(ini, "w") as f:
                subprocess.run(["sed", spec[4:], self.ini], stdout=f, check=True)
        elif spec != "-":
            args = shlex.split(spec)
        subprocess.run([self.herd, "run", ini, "-o", d, "--quiet"] + args, check=True)
        self.done[spec] = d
        return d


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def match(rows_, conds):
    want = dict(c.split("=", 1) for c in conds)
    return [r for r in rows_ if all(r.get(k) == v for k, v in want.items())]


def mean_ci(d, col, conds):
    r = match(rows(os.path.join(d, "aggregate.csv")), conds)
    if len(r) != 1:
        raise ValueError(f"{len(r)} rows of aggregate.csv match {' '.join(conds)}")
    m = float(r[0][col + "_mean"])
    ci = r[0].get(col + "_ci95", "0")
    return m, float(ci) if ci not in ("", "n/a") else 0.0


def compute(check, d):
    """(value, half-width) of CHECK on the run in d."""
    w = check.split()
    kind = w[0]
    if kind == "mean":
        return mean_ci(d, w[1], w[2:])
    if kind in ("min", "max"):
        r = match(rows(os.path.join(d, "summary.csv")), w[2:])
        v = [float(x[w[1]]) for x in r]
        return (min(v) if kind == "min" else max(v)), 0.0
    if kind == "ci":
        return mean_ci(d, w[1], w[2:])[1], 0.0
    if kind == "pctover":
        m, c = mean_ci(d, w[1], w[2:])
        return 100 * (m - 1), 100 * c
    if kind == "minus":
        i = w.index("-")
        m, c = mean_ci(d, w[1], w[2:i])
        return m - float(w[i + 1]), c
    if kind in ("pct", "times"):
        i = w.index("/")
        a, ca = mean_ci(d, w[1], w[2:i])
        b, cb = mean_ci(d, w[i + 1], w[i + 2:])
        r = a / b
        rel = math.hypot(ca / a if a else 0, cb / b if b else 0)
        k = 100 if kind == "pct" else 1
        return k * r, k * r * rel
    raise ValueError(f"unknown check '{kind}'")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    page_path, claims_path, mode = sys.argv[1:4]
    page = open(page_path, encoding="utf-8").read()
    text = sections(page)
    whole = flat(page)
    claims = parse_claims(claims_path)
    bad = 0
    covered = []
    for n, t, run, check in claims:
        plain = re.sub(r"\{[~<>]?([^}]*)\}", r"\1", t)
        if plain not in whole:
            print(f"  FAIL {claims_path}:{n}: the page does not say: {plain}")
            bad += 1
        for m in re.finditer(re.escape(plain), text):
            covered.append((m.start(), m.end()))
        if ("{" in t) == (check == "input"):
            print(f"  FAIL {claims_path}:{n}: a checked number needs {{}} and a CHECK other than input")
            bad += 1
    for i, num in numbers(text):
        if not any(a <= i < b for a, b in covered):
            ctx = text[max(0, i - 40):i + 40]
            print(f"  FAIL {page_path}: the number {num} has no claim in {claims_path}: ...{ctx}...")
            bad += 1
    if mode == "--runs":
        herd, ini, out = sys.argv[4:7]
        runs = Runs(herd, ini, out)
        for n, t, run, check in claims:
            if check == "input":
                continue
            m = re.search(r"\{([~<>]?)([^}]*)\}", t)
            how, num = m.group(1), m.group(2)
            try:
                v, h = compute(check, runs.dir(run))
            except (ValueError, KeyError, OSError, subprocess.CalledProcessError) as e:
                print(f"  FAIL {claims_path}:{n}: {e}")
                bad += 1
                continue
            p = value_of(num)
            if how == ">":
                holds = v >= p
            elif how == "<":
                holds = v < p
            elif how == "~":
                holds = abs(v - p) <= max(0.1 * abs(p), h + unit(num) / 2)
            else:
                holds = abs(v - p) <= h + unit(num) / 2
            where = "" if run == "-" else f" [{run}]"
            shown = re.sub(r"[{}]", "", t)
            print(f"  [{'holds' if holds else 'DOES NOT HOLD'}] {shown}: the run gives {v:.6g} +/- {h:.3g}{where}")
            bad += not holds
    elif mode != "--check":
        sys.exit(__doc__)
    print(f"{os.path.basename(page_path)}: {len(claims)} claims, {len(numbers(text))} numbers, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
