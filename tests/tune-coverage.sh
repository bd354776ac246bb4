#!/bin/sh
# The winner's curse, measured (make tune-coverage, a few minutes): 40
# tunes of tests/tune/known.ini (200 clients, p = 0.5, amplification <=
# 1.8: the answer is max_attempts = 3) with seeds 1..40.  For each, a
# fresh herd run of the recommendation (its --set lines, a seed neither
# the search nor the validation used, 100 x the validation's
# replications, so its own noise widens the comparison by 0.5%) must land
# inside the 95% CI that tune reported for the objective (failures) and
# for the constrained metric (amplification); the exact values 200 p^m and
# (1 - p^m)/(1 - p) are checked too.  Prints each coverage with its Wilson
# 95% interval; fails if a coverage of the fresh runs is below 95%.
#
#   sh tests/tune-coverage.sh ./herd [OUTDIR] [TUNES]
set -eu
HERD=${1:-./herd}
OUT=${2:-build/tune-coverage}
N=${3:-40}
K=tests/tune/known.ini
mkdir -p "$OUT"
: >"$OUT/results.txt"
i=1
while [ "$i" -le "$N" ]; do
    d="$OUT/t$i"
    "$HERD" tune "$K" --set clients.count=200 --seed "$i" --search retry.max_attempts=1:6:1 --minimize failures \
        --subject-to 'amplification<=1.8' -o "$d" --quiet
    vr=$(sed -n 's/.*replication r: rng_replication_seed(validation seed, r), r < \([0-9]*\)).*/\1/p' "$d/manifest.txt")
    "$HERD" run "$K" $(grep -- --set "$d/recommendation.txt") --seed $((1000000 + i)) --replications $((100 * vr)) \
        -o "$d/fresh" --quiet
    m=$(sed -n 's/^--set retry.max_attempts=//p' "$d/recommendation.txt")
    awk -F, -v m="$m" -v i="$i" -v rec="$d/recommendation.txt" '
        NR == 1 { for (k = 1; k <= NF; k++) h[$k] = k; next }
        {
            while ((getline line < rec) > 0)
                if (line ~ /^# (failures|amplification) = /) { split(line, w, " "); mean[w[2]] = w[4]; half[w[2]] = w[6] }
            fm = $h["failures_mean"]; am = $h["amplification_mean"]
            ef = 200 * 0.5 ^ m; ea = (1 - 0.5 ^ m) / 0.5
            printf "%d %d %d %d %d %d\n", i, m, \
                (fm >= mean["failures"] - half["failures"] && fm <= mean["failures"] + half["failures"]), \
                (am >= mean["amplification"] - half["amplification"] && am <= mean["amplification"] + half["amplification"]), \
                (ef >= mean["failures"] - half["failures"] && ef <= mean["failures"] + half["failures"]), \
                (ea >= mean["amplification"] - half["amplification"] && ea <= mean["amplification"] + half["amplification"])
        }' "$d/fresh/aggregate.csv" >>"$OUT/results.txt"
    rm -rf "$d/fresh"
    i=$((i + 1))
done
awk '
    function wilson(k, n,   z, p, c, w) { z = 1.959964; p = k / n; c = (p + z * z / (2 * n)) / (1 + z * z / n)
        w = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n); return sprintf("[%.3f, %.3f]", c - w, c + w) }
    { n++; right += $2 == 3; f += $3; a += $4; ef += $5; ea += $6 }
    END {
        printf "tunes: %d; recommended max_attempts = 3 (the known answer) in %d\n", n, right
        printf "fresh run inside the reported CI: failures %d/%d = %.3f %s; amplification %d/%d = %.3f %s\n", \
            f, n, f / n, wilson(f, n), a, n, a / n, wilson(a, n)
        printf "exact value inside the reported CI: failures %d/%d = %.3f %s; amplification %d/%d = %.3f %s\n", \
            ef, n, ef / n, wilson(ef, n), ea, n, ea / n, wilson(ea, n)
        exit !(f / n >= 0.95 && a / n >= 0.95)
    }' "$OUT/results.txt"
