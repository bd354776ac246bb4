#!/bin/sh
# The tables of the README's metastability maps (make metastable-maps),
# from the results in OUT: the headline (out/metastable-headline: per
# mitigation, the highest load recovered in >= 95% of runs from the
# standard trigger, with its Wilson interval and the next load of the
# grid) and the hysteresis (out/metastable-hysteresis: per mitigation, the
# collapse load of a healthy start and the return load of a collapsed
# one).
#
#   sh tests/map-table.sh OUT
set -eu
OUT=$1
# variant, load, value of the second swept key, recovered mean / lo / hi,
# replications: one line per row of an aggregate.csv
rows() {
    awk -F, -v key="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "%s %s %s %s %s %s %s\n", $c["variant"], $c["clients.rate_per_s"], $c[key],
              $c["recovered_mean"], $c["recovered_lo"], $c["recovered_hi"], $c["replications"] }' "$1"
}
if [ -f "$OUT/metastable-headline/aggregate.csv" ]; then
    echo "== headline: the highest load recovered in >= 95% of runs from the standard trigger (10 s at 1,500/s)"
    rows "$OUT/metastable-headline/aggregate.csv" clients.spike_end_s | awk '
        { v = $1; if (!(v in seen)) { seen[v] = 1; V[++nv] = v }
          n[v]++; L[v, n[v]] = $2; m[v, n[v]] = $4; lo[v, n[v]] = $5; hi[v, n[v]] = $6; r[v] = $7 }
        END { printf "%-20s %-34s %s\n", "mitigation", "highest load >= 95% (Wilson 95%)", "next load"
            for (i = 1; i <= nv; i++) { v = V[i]; best = 0
                for (k = 1; k <= n[v] && m[v, k] >= 0.95; k++) best = k
                if (best == 0) { a = sprintf("none (%s/s: %.0f of %d)", L[v, 1], m[v, 1] * r[v], r[v]); b = "-" }
                else { a = sprintf("%s/s: %.0f of %d [%.2f, %.2f]", L[v, best], m[v, best] * r[v], r[v], lo[v, best], hi[v, best])
                       b = best < n[v] ? sprintf("%s/s: %.0f of %d [%.2f, %.2f]", L[v, best + 1], m[v, best + 1] * r[v], r[v], lo[v, best + 1], hi[v, best + 1]) : "(top of the grid)" }
                printf "%-20s %-34s %s\n", v, a, b } }'
fi
if [ -f "$OUT/metastable-hysteresis/aggregate.csv" ]; then
    echo
    echo "== hysteresis: collapse load (healthy start, no trigger: lowest load failing in >= half the runs)"
    echo "   and return load (collapsed start: highest load recovering in >= half the runs)"
    rows "$OUT/metastable-hysteresis/aggregate.csv" clients.spike_rate_per_s | awk '
        { v = $1; if (!(v in seen)) { seen[v] = 1; V[++nv] = v }
          s = ($3 + 0 == 0) ? "h" : "c"; n[v, s]++; L[v, s, n[v, s]] = $2; m[v, s, n[v, s]] = $4; r[v] = $7 }
        END { printf "%-20s %-28s %-28s\n", "mitigation", "collapse load (healthy)", "return load (collapsed)"
            for (i = 1; i <= nv; i++) { v = V[i]
                col = "none up to " L[v, "h", n[v, "h"]] "/s"
                for (k = 1; k <= n[v, "h"]; k++) if (m[v, "h", k] < 0.5) { col = sprintf("%s/s (%.0f of %d recover)", L[v, "h", k], m[v, "h", k] * r[v], r[v]); break }
                ret = "none from " L[v, "c", 1] "/s"
                for (k = 1; k <= n[v, "c"]; k++) if (m[v, "c", k] >= 0.5) ret = sprintf("%s/s (%.0f of %d)", L[v, "c", k], m[v, "c", k] * r[v], r[v])
                printf "%-20s %-28s %-28s\n", v, col, ret } }'
fi
