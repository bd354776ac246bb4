#!/bin/sh
# The mechanism figures of doc/metastable.md (make figures): for one variant of a
# results directory, joins replication 0 of timeseries.csv and
# mechanisms.csv by bucket into figure data, and draws it with
# plots/mechanisms.gp (breaker: state band under goodput; throttle:
# rejection probability and its window's counts; budget: retries released
# and denied per bucket).
#
#   sh tests/mechanisms.sh RESULTS VARIANT KIND OUT.png TMIN TMAX
set -eu
RESULTS=$1 VARIANT=$2 KIND=$3 OUT=$4 TMIN=$5 TMAX=$6
case $KIND in breaker | throttle | budget) ;; *) echo "mechanisms.sh: KIND is breaker, throttle or budget" >&2; exit 2 ;; esac
for f in timeseries.csv mechanisms.csv; do
    [ -f "$RESULTS/$f" ] || { echo "mechanisms.sh: no $RESULTS/$f" >&2; exit 2; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/herd-mech.XXXXXX")
trap 'rm -rf "$T"' EXIT
# Both files by column name; replication 0 of the variant, TMIN <= t <= TMAX.
awk -F, -v v="$VARIANT" -v lo="$TMIN" -v hi="$TMAX" '
    FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
    function g(n) { return $c[FILENAME, n] }
    g("variant") != v || g("replication") != 0 || g("time_s") + 0 < lo || g("time_s") + 0 > hi { next }
    FILENAME ~ /timeseries.csv$/ { t = g("time_s"); ts[t] = g("offered") "," g("goodput") "," g("in_flight") "," g("arrivals"); order[++n] = t; next }
    { ms[g("time_s")] = g("breaker_open_s") "," g("breaker_half_open_s") "," g("throttle_reject_p") "," \
        g("throttle_requests") "," g("throttle_accepts") "," g("limiter_allowed") "," g("limiter_denied") "," g("limiter_balance") }
    END {
        print "time_s,offered,goodput,in_flight,arrivals,breaker_open_s,breaker_half_open_s,throttle_reject_p,throttle_requests,throttle_accepts,limiter_allowed,limiter_denied,limiter_balance"
        for (i = 1; i <= n; i++) { t = order[i]; print t "," ts[t] "," (t in ms ? ms[t] : "0,0,0,0,0,0,0,0") }
    }' "$RESULTS/timeseries.csv" "$RESULTS/mechanisms.csv" >"$T/mech.csv"
[ "$(wc -l <"$T/mech.csv")" -gt 2 ] || { echo "mechanisms.sh: no rows of variant $VARIANT in $RESULTS" >&2; exit 2; }
printf 'kind\t%s\nvariant\t%s\ntmin\t%s\ntmax\t%s\n' "$KIND" "$VARIANT" "$TMIN" "$TMAX" >"$T/mech.tsv"
gnuplot -c plots/mechanisms.gp "$T"
cp "$T/mech.png" "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
