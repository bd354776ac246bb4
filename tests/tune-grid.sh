#!/bin/sh
# herd tune against the exhaustive grid (make tune-check, a few minutes):
# the thundering herd (scenarios/thundering-herd.ini) at 500 and 1,000
# clients, 4 strategies x 4 caps x 7 max_attempts = 112 candidates,
# minimising failures subject to peak_arrivals_per_s <= 200 at both loads.
# The grid runs every cell with herd run at tune's final replication count
# on tune's own seed (the same replications, run for run); the
# recommendation must be the grid's optimum (the best worst-point mean
# among the cells whose means satisfy the bound at both loads) or inside
# its 95% CI, and the search must have used at most 30% of the grid's
# events (summary.csv's events column).
#
#   sh tests/tune-grid.sh ./herd [OUTDIR]
set -eu
HERD=${1:-./herd}
OUT=${2:-build/tune-check}
mkdir -p "$OUT"
S=scenarios/thundering-herd.ini
STRATS=exponential,full_jitter,equal_jitter,decorrelated_jitter
CAPS=5,10,20,60
ATT=4:10:1
"$HERD" tune "$S" --sweep clients.count=500,1000 --search run.strategies=$STRATS --search retry.cap_s=$CAPS \
    --search retry.max_attempts=$ATT --minimize failures --subject-to 'peak_arrivals_per_s<=200' \
    -o "$OUT/tune" | tee "$OUT/tune.out"
R=$(sed -n 's/^events: search [0-9]*; validation [0-9]*; an exhaustive grid at \([0-9]*\) replications.*/\1/p' "$OUT/tune/manifest.txt")
E=$(sed -n 's/^events: search \([0-9]*\);.*/\1/p' "$OUT/tune/manifest.txt")
SEED=$(sed -n 's/^search seed: \([0-9]*\) .*/\1/p' "$OUT/tune/manifest.txt")
"$HERD" run "$S" --set run.strategies=$STRATS --sweep clients.count=500,1000 --sweep retry.cap_s=$CAPS \
    --sweep retry.max_attempts=$ATT --replications "$R" --seed "$SEED" -o "$OUT/grid" --quiet
strategy=$(sed -n 's/^--set run.strategies=//p' "$OUT/tune/recommendation.txt")
cap=$(sed -n 's/^--set retry.cap_s=//p' "$OUT/tune/recommendation.txt")
att=$(sed -n 's/^--set retry.max_attempts=//p' "$OUT/tune/recommendation.txt")
awk -F, -v st="$strategy" -v cap="$cap" -v att="$att" -v ev="$E" -v R="$R" -v out="$OUT/grid/summary.csv" '
    FNR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    {
        cell = $h["strategy"] "," $h["retry.cap_s"] "," $h["retry.max_attempts"]
        m = $h["failures_mean"]; c = $h["failures_ci95"]; pk = $h["peak_arrivals_per_s_mean"]
        if (!(cell in worst) || m > worst[cell]) { worst[cell] = m; wci[cell] = c }
        if (pk > 200) bad[cell] = 1
        cells[cell] = 1
    }
    END {
        best = ""
        for (cell in cells) if (!(cell in bad) && (best == "" || worst[cell] < worst[best])) best = cell
        while ((getline line < out) > 0) {
            n = split(line, f, ",")
            if (!hd) { for (i = 1; i <= n; i++) g[f[i]] = i; hd = 1; continue }
            gev += f[g["events"]]
        }
        rec = st "," cap "," att
        printf "grid (%d replications): optimum %s, failures %g +/- %g at its worst load; recommendation %s: %g +/- %g%s\n", \
            R, best, worst[best], wci[best], rec, worst[rec], wci[rec], (rec in bad) ? " (infeasible in the grid)" : ""
        printf "events: tune search %d, grid %d: %.1f%%\n", ev, gev, 100 * ev / gev
        okrec = !(rec in bad) && (worst[rec] == worst[best] || worst[rec] <= worst[best] + wci[best])
        okev = ev <= 0.3 * gev
        print (okrec ? "ok   the recommendation is the grid optimum or inside its CI" : "FAIL the recommendation is not the grid optimum")
        print (okev ? "ok   at most 30% of the grid events" : "FAIL more than 30% of the grid events")
        exit !(okrec && okev)
    }' "$OUT/grid/aggregate.csv"
