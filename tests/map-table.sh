#!/bin/sh
# The tables of the metastability maps of doc/metastable.md (make metastable-maps),
# from the results in OUT: the map (out/metastable-map: per mitigation and
# spike length, the highest load recovered in >= 95% of runs from the
# lowest load up, and the next load), the headline (out/metastable-headline: per
# mitigation, the highest load recovered in >= 95% of runs from the
# standard trigger, with its Wilson interval and the next load of the
# grid) and the hysteresis (out/metastable-hysteresis: per mitigation, the
# collapse load of a healthy run, where its goodput falls below 90% of its
# offered load, and the return load of a collapsed one).  Shares are over
# the runs where recovered is defined (recovered_n).
#
#   sh tests/map-table.sh OUT
set -eu
OUT=$1
# variant, load, value of the second swept key, recovered mean / lo / hi,
# the runs where it is defined, goodput / offered, the recovery time's mean
# and 95% CI half-width (n/a without a recovered run): one line per row of an
# aggregate.csv (an undefined share as 0 of 0)
rows() {
    awk -F, -v key="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n = $c["recovered_n"] + 0; m = n ? $c["recovered_mean"] : 0
          printf "%s %s %s %s %s %s %s %s %s %s\n", $c["variant"], $c["clients.rate_per_s"], $c[key],
              m, n ? $c["recovered_lo"] : 0, n ? $c["recovered_hi"] : 1, n,
              ($c["offered_per_s_mean"] > 0 ? $c["goodput_per_s_mean"] / $c["offered_per_s_mean"] : 0),
              $c["recovery_time_s_mean"], $c["recovery_time_s_ci95"] }' "$1"
}
if [ -f "$OUT/metastable-map/aggregate.csv" ]; then
    echo "== map: per mitigation and spike length (s), the highest load recovered in >= 95% of runs from 500/s up"
    echo "   without a gap (k of n), then the next load of the grid (k of n; n/a: recovered undefined in every run),"
    echo "   and the loads above it that still recover in >= half of the runs"
    rows "$OUT/metastable-map/aggregate.csv" clients.spike_end_s | awk '
        { v = $1; t = $3 - 100; if (!(v in seen)) { seen[v] = 1; V[++nv] = v }
          if (!(t in st)) { st[t] = 1; TT[++nt] = t }
          k = v SUBSEP t; n[k]++; L[k, n[k]] = $2; m[k, n[k]] = $4; r[k, n[k]] = $7 }
        function cnt(k, i) { return r[k, i] ? sprintf("%.0f/%d", m[k, i] * r[k, i], r[k, i]) : "n/a" }
        END { for (i = 2; i <= nt; i++) for (j = i; j > 1 && TT[j] + 0 < TT[j - 1] + 0; j--) { x = TT[j]; TT[j] = TT[j - 1]; TT[j - 1] = x }
            printf "%-27s", "mitigation"; for (j = 1; j <= nt; j++) printf " | %-34s", TT[j] " s"; printf "\n"
            for (i = 1; i <= nv; i++) { v = V[i]; printf "%-27s", v
                for (j = 1; j <= nt; j++) { k = v SUBSEP TT[j]; best = 0
                    for (q = 1; q <= n[k] && r[k, q] && m[k, q] >= 0.95; q++) best = q
                    if (best == n[k]) a = sprintf("all, to %s (%s)", L[k, best], cnt(k, best))
                    else if (best == 0) a = sprintf("none (%s: %s)", L[k, 1], cnt(k, 1))
                    else a = sprintf("%s (%s); %s: %s", L[k, best], cnt(k, best), L[k, best + 1], cnt(k, best + 1))
                    also = ""
                    for (q = best + 2; q <= n[k]; q++) if (r[k, q] && m[k, q] >= 0.5) also = also (also == "" ? "" : ",") L[k, q] "(" cnt(k, q) ")"
                    if (also != "") a = a "; also " also
                    printf " | %-34s", a }
                printf "\n" } }'
    echo
fi
if [ -f "$OUT/metastable-headline/aggregate.csv" ]; then
    echo "== headline: the highest load recovered in >= 95% of runs from the standard trigger (10 s at 1,500/s)"
    rows "$OUT/metastable-headline/aggregate.csv" clients.spike_end_s | awk '
        { v = $1; if (!(v in seen)) { seen[v] = 1; V[++nv] = v }
          n[v]++; L[v, n[v]] = $2; m[v, n[v]] = $4; lo[v, n[v]] = $5; hi[v, n[v]] = $6; r[v, n[v]] = $7; rt[v, n[v]] = ($9 == "n/a" ? "n/a" : sprintf("%.1f +/- %.1f", $9, $10)) }
        END { printf "%-27s %-34s %-34s %s\n", "mitigation", "highest load >= 95% (Wilson 95%)", "next load", "recovery time there (s)"
            for (i = 1; i <= nv; i++) { v = V[i]; best = 0
                for (k = 1; k <= n[v] && m[v, k] >= 0.95; k++) best = k
                if (best == 0) { a = sprintf("none (%s/s: %.0f of %d)", L[v, 1], m[v, 1] * r[v, 1], r[v, 1]); b = "-"; t = "-" }
                else { a = sprintf("%s/s: %.0f of %d [%.2f, %.2f]", L[v, best], m[v, best] * r[v, best], r[v, best], lo[v, best], hi[v, best])
                       b = best < n[v] ? sprintf("%s/s: %.0f of %d [%.2f, %.2f]", L[v, best + 1], m[v, best + 1] * r[v, best + 1], r[v, best + 1], lo[v, best + 1], hi[v, best + 1]) : "(top of the grid)"
                       t = rt[v, best] }
                printf "%-27s %-34s %-34s %s\n", v, a, b, t } }'
fi
if [ -f "$OUT/metastable-hysteresis/aggregate.csv" ]; then
    echo
    echo "== hysteresis: collapse load (no trigger: lowest load whose goodput is under 90% of its offered load)"
    echo "   and return load (collapsed start: highest load recovering in >= half the runs)"
    rows "$OUT/metastable-hysteresis/aggregate.csv" clients.spike_rate_per_s | awk '
        { v = $1; if (!(v in seen)) { seen[v] = 1; V[++nv] = v }
          s = ($3 + 0 == 0) ? "h" : "c"; n[v, s]++; L[v, s, n[v, s]] = $2; m[v, s, n[v, s]] = $4; r[v, s, n[v, s]] = $7; g[v, s, n[v, s]] = $8 }
        END { printf "%-27s %-34s %-28s\n", "mitigation", "collapse load (healthy)", "return load (collapsed)"
            for (i = 1; i <= nv; i++) { v = V[i]
                col = sprintf("none up to %s/s (goodput %.3f of offered)", L[v, "h", n[v, "h"]], g[v, "h", n[v, "h"]])
                for (k = 1; k <= n[v, "h"]; k++) if (g[v, "h", k] < 0.9) { col = sprintf("%s/s (goodput %.3f of offered)", L[v, "h", k], g[v, "h", k]); break }
                ret = "none from " L[v, "c", 1] "/s"
                for (k = 1; k <= n[v, "c"]; k++) if (r[v, "c", k] && m[v, "c", k] >= 0.5) ret = sprintf("%s/s (%.0f of %d)", L[v, "c", k], m[v, "c", k] * r[v, "c", k], r[v, "c", k])
                printf "%-27s %-34s %-28s\n", v, col, ret } }'
fi
