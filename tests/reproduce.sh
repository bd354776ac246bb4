#!/bin/sh
# make reproduce: regenerates the published results herd reproduces, with
# their figures, into out/, and prints the headline tables with 95% CIs.
#
#   1. AWS Architecture Blog 2015, "Exponential Backoff and Jitter":
#      scenarios/aws-2015-occ.ini (N = 10..190, 100 replications each), the
#      blog's qualitative findings checked against herd's numbers.
#   2. "Full Jitter -62%, Decorrelated Jitter -65%": scenarios/jitter-62-65.ini
#      and its sensitivity grid scenarios/jitter-62-65-sensitivity.ini.
#
#   sh tests/reproduce.sh ./herd [OUTDIR]
set -eu
HERD=${1:-./herd}
OUT=${2:-out}
JOBS=$(nproc 2>/dev/null || echo 2)

# table FILE: N, strategy, completion time and calls (mean +/- CI) at
# every sweep point of an AWS aggregate.csv.
aws_table() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { printf "%5s  %-20s %10.3f +/- %-8.3f %10.1f +/- %-8.1f\n", $1, $c["strategy"],
        $c["completion_time_s_mean"], $c["completion_time_s_ci95"], $c["calls_mean"], $c["calls_ci95"] }' "$1"
}

echo "== 1. AWS 2015 optimistic-concurrency simulation (scenarios/aws-2015-occ.ini)"
"$HERD" run scenarios/aws-2015-occ.ini -o "$OUT/aws-2015-occ" --quiet --jobs "$JOBS"
printf "%5s  %-20s %22s %22s\n" N strategy "completion_s (95% CI)" "calls (95% CI)"
aws_table "$OUT/aws-2015-occ/aggregate.csv"
echo
echo "-- the blog's findings, checked against these numbers:"
awk -F, '
function v(n, s, m) { return val[n "," s "," m] }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
    n = $1 + 0; s = $c["strategy"]; ns[n] = 1
    val[n "," s ",c"] = $c["completion_time_s_mean"]; val[n "," s ",ch"] = $c["completion_time_s_ci95"]
    val[n "," s ",k"] = $c["calls_mean"]; val[n "," s ",kh"] = $c["calls_ci95"]
}
function say(ok, text) { printf "  [%s] %s\n", ok ? "holds" : "DOES NOT HOLD", text }
END {
    split("exponential full_jitter equal_jitter decorrelated_jitter", others, " ")
    fast = 1; most = 1; slow = 1
    for (n in ns) {
        for (i in others) {
            o = others[i]
            if (v(n, "immediate", "c") >= v(n, o, "c")) fast = 0
            if (v(n, "immediate", "k") <= v(n, o, "k")) most = 0
            if (o != "exponential" && v(n, "exponential", "c") <= v(n, o, "c")) slow = 0
        }
    }
    say(fast, "no backoff has the shortest completion time at every N")
    say(most, "no backoff makes the most calls at every N")
    # least-squares slope of log(calls) on log(N) for no backoff
    sx = sy = sxx = sxy = m = 0
    for (n in ns) { x = log(n); y = log(v(n, "immediate", "k")); sx += x; sy += y; sxx += x * x; sxy += x * y; m++ }
    slope = (m * sxy - sx * sy) / (m * sxx - sx * sx)
    say(slope > 1.7 && slope < 2.3, sprintf("no-backoff calls grow roughly as N^2: log-log slope %.2f over N = 10..190", slope))
    r = v(100, "exponential", "c") / v(100, "full_jitter", "c")
    say(slow && r > 3, sprintf("exponential without jitter is the slowest at every N, by far: at N = 100 %.1f s vs full jitter %.2f s (%.0fx)", v(100, "exponential", "c"), v(100, "full_jitter", "c"), r))
    fk = v(100, "full_jitter", "k"); fh = v(100, "full_jitter", "kh"); ek = v(100, "exponential", "k"); eh = v(100, "exponential", "kh")
    say(fk + fh < 0.5 * (ek - eh), sprintf("at N = 100 full jitter needs fewer than half the calls of exponential: %.0f +/- %.0f vs %.0f +/- %.0f (%.0f%% fewer)", fk, fh, ek, eh, 100 * (1 - fk / ek)))
    dk = v(100, "decorrelated_jitter", "k"); dh = v(100, "decorrelated_jitter", "kh")
    say(dk - dh > fk + fh, sprintf("decorrelated jitter needs more calls than full jitter: %.0f +/- %.0f vs %.0f +/- %.0f", dk, dh, fk, fh))
    dc = v(100, "decorrelated_jitter", "c"); fc = v(100, "full_jitter", "c")
    say(dc < 1.15 * fc && dc > 0.85 * fc, sprintf("... but finishes about as fast: %.2f +/- %.2f s vs %.2f +/- %.2f s", dc, v(100, "decorrelated_jitter", "ch"), fc, v(100, "full_jitter", "ch")))
    qc = v(100, "equal_jitter", "c"); qh = v(100, "equal_jitter", "ch")
    say(qc - qh > fc + v(100, "full_jitter", "ch"), sprintf("equal jitter is slower than full jitter: %.2f +/- %.2f s vs %.2f +/- %.2f s", qc, qh, fc, v(100, "full_jitter", "ch")))
}' "$OUT/aws-2015-occ/aggregate.csv"

echo
echo "== 2. Full Jitter -62% / Decorrelated Jitter -65% (scenarios/jitter-62-65.ini)"
if [ -f scenarios/jitter-62-65.ini ]; then
    "$HERD" run scenarios/jitter-62-65.ini -o "$OUT/jitter-62-65" --quiet --jobs "$JOBS"
    awk -F, '
    FILENAME ~ /compare/ && FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    FILENAME ~ /compare/ { red[$c["strategy"]] = -$c["completion_time_s_change_pct_mean"]; rh[$c["strategy"]] = $c["completion_time_s_change_pct_ci95"]; order[++n] = $c["strategy"]; reps = $c["replications"]; next }
    FNR == 1 { for (i = 1; i <= NF; i++) a[$i] = i; next }
    { ct[$a["strategy"]] = $a["completion_time_s_mean"]; ch[$a["strategy"]] = $a["completion_time_s_ci95"]
      pk[$a["strategy"]] = $a["peak_inflight_mean"]; ph[$a["strategy"]] = $a["peak_inflight_ci95"] }
    END {
        printf "%-20s %24s %24s %22s   (%d replications)\n", "strategy", "completion_s (95% CI)", "reduction % (95% CI)", "peak_inflight (95% CI)", reps
        for (i = 1; i <= n; i++) { s = order[i]
            printf "%-20s %12.3f +/- %-9.3f %12.1f +/- %-9.2f %10.1f +/- %-9.1f\n", s, ct[s], ch[s], red[s], rh[s], pk[s], ph[s] }
    }' "$OUT/jitter-62-65/compare.csv" "$OUT/jitter-62-65/aggregate.csv"
    if [ -f scenarios/jitter-62-65-sensitivity.ini ]; then
        echo
        echo "-- sensitivity (scenarios/jitter-62-65-sensitivity.ini): reductions across the grid"
        "$HERD" run scenarios/jitter-62-65-sensitivity.ini -o "$OUT/jitter-62-65-sensitivity" --quiet --jobs "$JOBS"
        # A map of the grid (rows: first swept key, columns: second): '#'
        # where the claim holds (full jitter 62 +/- 3 %, decorrelated
        # 65 +/- 3 %, decorrelated ahead), then the numbers where it holds.
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; k1 = $1; k2 = $2; next }
        { a = $1; b = $2
          if (!(a in seenA)) { seenA[a] = 1; A[++na] = a }
          if (!(b in seenB)) { seenB[b] = 1; B[++nb] = b }
          if ($c["strategy"] == "full_jitter") f[a "|" b] = -$c["completion_time_s_change_pct_mean"]
          if ($c["strategy"] == "decorrelated_jitter") d[a "|" b] = -$c["completion_time_s_change_pct_mean"] }
        END {
            printf "%s (rows) x %s (columns %s .. %s): # = the claim holds\n", k1, k2, B[1], B[nb]
            for (i = 1; i <= na; i++) { line = ""
                for (j = 1; j <= nb; j++) { k = A[i] "|" B[j]
                    ok[k] = f[k] >= 59 && f[k] <= 65 && d[k] >= 62 && d[k] <= 68 && d[k] > f[k]
                    line = line (ok[k] ? "#" : "."); held += ok[k] }
                printf "  %6s  %s\n", A[i], line }
            printf "holds at %d of %d points:\n", held, na * nb
            for (i = 1; i <= na; i++) for (j = 1; j <= nb; j++) { k = A[i] "|" B[j]
                if (ok[k]) printf "  %s = %s, %s = %s: full jitter -%.1f %%, decorrelated -%.1f %%\n", k1, A[i], k2, B[j], f[k], d[k] }
        }' "$OUT/jitter-62-65-sensitivity/compare.csv"
    fi
else
    echo "(scenarios/jitter-62-65.ini is missing)"
fi

echo
echo "== figures"
for d in "$OUT/aws-2015-occ" "$OUT/jitter-62-65" "$OUT/jitter-62-65-sensitivity" "$OUT/thundering-herd"; do
    [ -d "$d" ] || continue
    "$HERD" plot "$d"
done
