#!/bin/sh
# tests/calibrate.sh HERD: the recovery measure (sim/model/recovery.c) on
# systems whose answer is known, and the calibration table of doc/validation.md.
#
# Stable: M/M/1/K queues without retries (tests/calibrate/stable.ini), rho
# 0.3 to 0.98, arrival rates 1/s to 10,000/s, horizons of 200 s and
# 10,000 s, each hit by a load spike that fills the queue.  Each must
# recover (a share not significantly below 95%: the Wilson 95% interval's
# upper end at least 0.95), and its recovery time must agree with an
# independent measure computed here from timeseries.csv: the time, from
# the spike's start, for the number in the server to fall to the healthy
# 99th percentile or below after the spike (the start of the stretch under
# it that holds the first such bucket, not before the spike's start), the
# percentile taken from a
# trigger-free twin run on common random numbers (the same scenario and
# seed, no spike).  "Agrees": the 95% Student t interval of the paired
# differences (herd's time minus the independent one, per replication),
# Bonferroni-corrected over the cells (99.5% for 10 cells), widened by one
# bucket (both times are bucket starts: a 1-bucket disagreement is the
# resolution of the series, not of the measure), contains 0.
#
# Collapsed: tests/calibrate/collapsed.ini (timeouts and 3 attempts keep
# the queue full after the spike), horizons 200 s and 2,000 s: at most 5%
# recovered (the Wilson interval's lower end at most 0.05).
#
# Two horizons: the same cell at 200 s and 10,000 s (2,000 s collapsed)
# has recovered shares whose Wilson intervals overlap and mean times
# within the CI of their difference.
#
# The table at the end gives the false-non-recovery rate (stable runs
# that did not recover) and the false-recovery rate (collapsed runs that
# did), with Wilson 95% intervals.  Then Metafor's Example 1 (below).
# About 40 s of one core, and 25 s for Metafor's cells.
HERD=${1:-./herd}
D=$(dirname "$0")/calibrate
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fail=0
: > "$T/cells"

# inv DIR NAME: every run of DIR reported recovered passes the recovery
# measure's invariant (tests/recovery-invariant.awk)
inv() {
    awk -F, -f "$(dirname "$0")/recovery-invariant.awk" "$1/summary.csv" "$1/timeseries.csv" >"$1.inv"
    grep ' FAIL$' "$1.inv" | sed "s|^|calibrate: invariant: $2: |"
    tail -n 1 "$1.inv" | grep -q ' failed 0$' || fail=1
}

# cell NAME RHO RATE SERVICE_MEAN QUEUE SPIKE_RATE SPIKE_START SPIKE_END HORIZON [na]
# (na: the baseline is too short for the system's correlation time, and
# every run must say so: recovered undefined)
cell() {
    n=$1 rho=$2 rate=$3 svc=$4 q=$5 spike=$6 sstart=$7 send=$8 h=$9 expect=${10:-ok}
    count=$(awk -v r="$rate" -v s="$spike" -v h="$h" 'BEGIN { printf "%d", r * h * 1.1 + s * 20 + 100 }')
    set -- --quiet --set clients.count="$count" --set clients.rate_per_s="$rate" \
        --set server.service_time_s="exponential($svc)" --set server.queue="$q" --set run.horizon_s="$h"
    "$HERD" run "$D/stable.ini" "$@" --set clients.spike_rate_per_s="$spike" --set clients.spike_start_s="$sstart" \
        --set clients.spike_end_s="$send" -o "$T/$n" || { echo "calibrate: $n: herd failed"; fail=1; return; }
    # the twin: no spike (its times would change nothing, and herd refuses
    # keys that change nothing); the same seeds, so the same arrivals
    "$HERD" run "$D/stable.ini" "$@" --set clients.spike_rate_per_s=0 -o "$T/$n.twin" || { echo "calibrate: $n twin: herd failed"; fail=1; return; }
    inv "$T/$n" "$n"
    awk -F, -v name="$n" -v rho="$rho" -v rate="$rate" -v h="$h" -v s0="$sstart" -v s1="$send" -v expect="$expect" -v twin="$T/$n.twin/timeseries.csv" '
        function t975(df,   t) { # Student t, two-sided 95%
            split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
            return df <= 30 ? t[df] : 1.96 + 2.4 / df }
        function tbonf(df,   t) { # two-sided 1 - 0.05 / 10 (Bonferroni over 10 cells)
            split("127.3 14.09 7.453 5.598 4.773 4.317 4.029 3.833 3.690 3.581 3.497 3.428 3.372 3.326 3.286 3.252 3.222 3.197 3.174 3.153 3.135 3.119 3.104 3.091 3.078 3.067 3.057 3.047 3.038 3.030", t, " ")
            return df <= 30 ? t[df] : 2.807 + 6 / df }
        FNR == 1 && FILENAME != twin && !done { p99 = pct(); done = 1 }
        FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
        FILENAME == twin { hist[$c[FILENAME, "in_flight"]]++; nt++; next }
        FILENAME ~ /timeseries/ {
            # the start (not before the spike) of the stretch under p99 that
            # holds the first bucket under it after the spike
            r = $c[FILENAME, "replication"]; tt = $c[FILENAME, "time_s"]
            if (tt < s0 || (r in ind)) next
            if ($c[FILENAME, "in_flight"] > p99) { delete from[r]; next }
            if (!(r in from)) from[r] = tt
            if (tt >= s1) ind[r] = from[r] - s0
            next }
        { r = $c[FILENAME, "replication"]; rec[r] = $c[FILENAME, "recovered"]; tim[r] = $c[FILENAME, "recovery_time_s"]; nr++
          nd += rec[r] ~ /^[01]$/ }
        function pct() { # nearest-rank 99th percentile of the twin in_flight
            need = 0.99 * nt; acc = 0
            for (v = 0; v <= 1000000; v++) { acc += hist[v]; if (acc >= need) return v } }
        END {
            k = 0; m = 0; sd = 0; sh = 0; si = 0
            for (r in rec) {
                k += rec[r] "" == "1"
                if (rec[r] "" == "1" && (r in ind)) { d = tim[r] - ind[r]; m++; sd += d; sdd += d * d; sh += tim[r]; si += ind[r]; shh += tim[r] ^ 2; sii += ind[r] ^ 2 }
            }
            z = 1.959964; p = nd ? k / nd : 0; lo = 0; hi = 1
            if (nd) {
                lo = (p + z * z / (2 * nd) - z * sqrt(p * (1 - p) / nd + z * z / (4 * nd * nd))) / (1 + z * z / nd)
                hi = (p + z * z / (2 * nd) + z * sqrt(p * (1 - p) / nd + z * z / (4 * nd * nd))) / (1 + z * z / nd)
            }
            if (hi > 1) hi = 1; if (lo < 0) lo = 0
            md = m ? sd / m : 0; vd = m > 1 ? (sdd - m * md * md) / (m - 1) : 0; if (vd < 0) vd = 0
            mh = m ? sh / m : 0; vh = m > 1 ? (shh - m * mh * mh) / (m - 1) : 0; if (vh < 0) vh = 0
            mi = m ? si / m : 0; vi = m > 1 ? (sii - m * mi * mi) / (m - 1) : 0; if (vi < 0) vi = 0
            hd = m > 1 ? tbonf(m - 1) * sqrt(vd / m) : 0
            hh = m > 1 ? t975(m - 1) * sqrt(vh / m) : 0
            hi_ = m > 1 ? t975(m - 1) * sqrt(vi / m) : 0
            ok = expect == "na" ? nd == 0 : nd >= nr / 2 && hi >= 0.95 && m > 0 && (md < 0 ? -md : md) <= hd + 1
            printf "%s,%s,%s,%s,%d,%d,%.3f,%.3f,%.1f,%.1f,%.1f,%.1f,%.2f,%.2f,%d,%s,%d,%s\n", name, rho, rate, h, nd, k, lo, hi, mh, hh, mi, hi_, md, hd, p99, ok ? "ok" : "FAIL", nr, expect
        }' "$T/$n.twin/timeseries.csv" "$T/$n/timeseries.csv" "$T/$n/summary.csv" >> "$T/cells"
}

#    name          rho  rate   service    K-1  spike  start end   horizon
cell r1-200        0.3  1      0.3        19   10     100   110   200
cell r1-10000      0.3  1      0.3        19   10     100   110   10000
cell r10-200       0.6  10     0.06       49   40     100   110   200
cell r10-10000     0.6  10     0.06       49   40     100   110   10000
cell r100-200      0.9  100    0.009      199  250    100   110   200
cell r100-10000    0.9  100    0.009      199  250    100   110   10000
cell r1e4-200      0.98 10000  0.000098   1999 20000  100   105   200
cell r1e3-1200     0.98 1000   0.00098    999  2000   1000  1010  1200
# 300 places: the healthy 99th percentile (about 218) below the capacity
cell r9.8-30000    0.98 9.8    0.1        299  20     20000 20030 30000
cell r9.8-60000    0.98 9.8    0.1        299  20     20000 20030 60000
# the issue's M/M/1 with 100 s before its spike: about 4 independent buckets
cell r9.8short-200 0.98 9.8    0.1        99   20     100   130   200  na

# collapsed, two horizons
for h in 200 2000; do
    "$HERD" run "$D/collapsed.ini" --quiet --set clients.count=$((h * 80)) --set run.horizon_s=$h \
        --set run.timeseries=all -o "$T/col-$h" || { echo "calibrate: collapsed $h: herd failed"; fail=1; }
    inv "$T/col-$h" "collapsed $h"
done

awk -F, -v T="$T" '
    function wilson(k, n, side,   p, z, c, w) {
        z = 1.959964; p = k / n; c = (p + z * z / (2 * n)) / (1 + z * z / n)
        w = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return side < 0 ? (c - w < 0 ? 0 : c - w) : (c + w > 1 ? 1 : c + w) }
    FILENAME ~ /cells$/ {
        if ($18 == "na") {
            printf "| %s | %s | %s/s | %s s | undefined in %d of %d (baseline too short) | | | | %s |\n", $1, $2, $3, $4, $17 - $5, $17, $16
            if ($16 != "ok") bad = 1
            next }
        printf "| %s | %s | %s/s | %s s | %d of %d [%.3f, %.3f] | %.1f +/- %.1f | %.1f +/- %.1f | %.2f +/- %.2f | %s |\n", $1, $2, $3, $4, $6, $5, $7, $8, $9, $10, $11, $12, $13, $14, $16
        sn += $5; sk += $6; if ($16 != "ok") bad = 1
        key = $1; sub(/-[0-9]+$/, "", key); if (key in hk) {
            # two horizons: overlapping Wilson intervals, times within the CI of the difference
            dt = $9 - ht[key]; ci = sqrt($10 ^ 2 + hc[key] ^ 2)
            if ((dt < 0 ? -dt : dt) > ci + 1e-9 || $7 > hhi[key] || $8 < hlo[key]) { print "calibrate: " key ": the two horizons disagree"; bad = 1 }
            else nh++
        }
        hk[key] = 1; ht[key] = $9; hc[key] = $10; hlo[key] = $7; hhi[key] = $8
        next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { cn[FILENAME]++; cn_all++; ck[FILENAME] += $c["recovered"] == 1; ck_all += $c["recovered"] == 1 }
    END {
        for (f in cn) {
            printf "| collapsed %s | | | | %d of %d [%.3f, %.3f] | | | | %s |\n", f, ck[f], cn[f], wilson(ck[f], cn[f], -1), wilson(ck[f], cn[f], 1), wilson(ck[f], cn[f], -1) <= 0.05 ? "ok" : "FAIL"
            if (wilson(ck[f], cn[f], -1) > 0.05) bad = 1
        }
        printf "\nfalse non-recovery (stable runs not recovered): %d of %d = %.4f, Wilson 95%% [%.4f, %.4f]\n", sn - sk, sn, (sn - sk) / sn, wilson(sn - sk, sn, -1), wilson(sn - sk, sn, 1)
        printf "false recovery (collapsed runs recovered): %d of %d = %.4f, Wilson 95%% [%.4f, %.4f]\n", ck_all, cn_all, ck_all / cn_all, wilson(ck_all, cn_all, -1), wilson(ck_all, cn_all, 1)
        printf "two horizons agree: %d of %d pairs\n", nh, 4
        exit bad || nh != 4 || sn == 0 }' "$T/cells" "$T/col-200/summary.csv" "$T/col-2000/summary.csv" > "$T/table0" || fail=1
sed "s|$T/||; s|/summary.csv||" "$T/table0" > "$T/table"

# Metafor's Example 1 (tests/calibrate/metafor-ex1.ini) at 6, 8, 9.5 and
# 9.8/s, without retries and with 5 attempts, at two horizons.  Known
# answers: without retries the server keeps up (rho < 1): no run is
# collapsed before the spike and every run whose recovery is defined
# recovers (at 9.5 and 9.8/s a queue this close to saturation is
# correlated for hundreds of seconds, so some baselines are too short:
# undefined, not wrong).  With 5 attempts and the 3 s timeout, a full queue
# (10 s of work) times every attempt out, and 5 x 6/s > 10/s keeps it full:
# no run recovers at any of these rates, and at 9.5 and 9.8/s every run has
# collapsed before the spike (Metafor's DES and CTMC say so; the measure
# before the healthy baseline called them recovered).  The two horizons
# give the same answers, run for run.  Every run reported recovered passes
# tests/recovery-invariant.awk.
for h in 4031 10000; do
    for rate in 6 8 9.5 9.8; do
        for ma in 1 5; do
            count=$(awk -v r="$rate" -v h="$h" 'BEGIN { printf "%d", r * h * 1.1 + 1000 }')
            "$HERD" run "$D/metafor-ex1.ini" --quiet --set clients.rate_per_s="$rate" --set clients.count="$count" \
                --set run.horizon_s="$h" --set retry.max_attempts="$ma" -o "$T/mf-$h-$rate-$ma" \
                || { echo "calibrate: metafor $h $rate $ma: herd failed"; fail=1; continue; }
            inv "$T/mf-$h-$rate-$ma" "metafor $h $rate $ma"
        done
    done
done
echo
echo "| Metafor Ex. 1 | attempts | recovered | not recovered | collapsed before the spike | other n/a | baseline overload share | same at 10,000 s | |"
echo "|---|---|---|---|---|---|---|---|---|"
for rate in 6 8 9.5 9.8; do
    for ma in 1 5; do
        awk -F, -v rate="$rate" -v ma="$ma" '
            FNR == 1 { f++; for (i = 1; i <= NF; i++) c[f, $i] = i; next }
            { r = $c[f, "recovered"]; t = $c[f, "recovery_time_s"]; k = $c[f, "collapsed_before_trigger"]
              v[f, FNR] = r " " t " " k }
            f == 1 { n++; rec += r == "1"; notrec += r == "0"; col += k == "1"; na += r == "n/a" && k != "1"
                     s = $c[f, "baseline_overload_share"]
                     if (s != "n/a") { if (lo == "" || s + 0 < lo) lo = s + 0; if (hi == "" || s + 0 > hi) hi = s + 0 } }
            END {
                same = 1
                for (i = 2; i <= n + 1; i++) same = same && v[1, i] == v[2, i]
                if (ma == 1) ok = col == 0 && notrec == 0 && rec > 0
                else ok = rec == 0 && (rate < 9 ? notrec > 0 : col == n)
                ok = ok && same
                printf "| %s/s | %s | %d | %d | %d | %d | %.4f to %.4f | %s | %s |\n", rate, ma, rec, notrec, col, na, lo, hi, same ? "yes" : "NO", ok ? "ok" : "FAIL"
                exit !ok }' "$T/mf-4031-$rate-$ma/summary.csv" "$T/mf-10000-$rate-$ma/summary.csv" || fail=1
    done
done
echo

echo "| cell | rho | rate | horizon | recovered [Wilson 95%] | recovery time (s), herd | independent (p99 of the twin) | paired difference (99.5% CI) | |"
echo "|---|---|---|---|---|---|---|---|---|"
cat "$T/table"
[ $fail -eq 0 ] && echo "calibrate: ok" || { echo "calibrate: FAILED"; exit 1; }
