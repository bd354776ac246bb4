#!/bin/sh
# make realcheck: the simulator against reality on one scenario.
#
#   sh tests/realcheck.sh ./herd [OUT]      (REPS=5 replications by default)
#   sh tests/realcheck.sh ./herd OUT --quick
#
# --quick (make stress): the same pipeline on a small point (100 clients,
# a 0.5 s outage, 2 replications), in seconds; it checks what must hold at
# any load (every real request finished, the CSVs and the full table
# written, every strategy x metric compared) and prints the agreement
# without deciding on it: two replications under a loaded machine are no
# measure of agreement, which the full run decides.
#
# Runs scenarios/realcheck.ini into OUT (build/realcheck):
#   OUT/refused calibration: the scenario's first round alone, one
#              synchronised burst of every client against the refusing
#              server (the outage, one attempt each), in 1 ms buckets.  The
#              host makes a first pass of sends, then reads the refusals
#              between its further passes: the time to the first refusal
#              read, divided by the clients, is its cost to send an attempt
#              (a connect and its refusal, client and server side, on this
#              machine, at its current load); the time the refusals take to
#              be read, divided by the clients, its cost to read a reply
#              (each the median of 5 bursts).  It is the first round of
#              every real replication (see doc/validation.md)
#   OUT/sim    herd run with the real host: [clients] hosts = 1 (herd
#              drive is one process, one thread), no connections_per_host
#              (libcurl's pool is unlimited by default), [network]
#              send_cost_s and reply_cost_s the two measurements
#   OUT/real   herd drive against herd serve, both real, on 127.0.0.1
# then prints, per strategy, completion time, calls, peak arrivals per
# second and peak concurrency (peak_inflight), simulated and real, mean
# +/- 95% CI half-width, and whether they agree: the two intervals
# overlap, or the means differ by at most TOL (5%) for completion time and
# calls, PTOL (20%) for the peaks of 1 s buckets, which a shift of a few
# tens of milliseconds moves across a bucket boundary.  Every row is
# tested, exponential backoff without jitter too: how spread its
# synchronised waves arrive is what the host's costs decide (see
# doc/validation.md, "Against a real server").  Writes
# OUT/realcheck.dat, OUT/realcheck.txt and the figure OUT/realcheck.png
# (plots/realcheck.gp).  Exit status 0 when every row agrees.
#
# Real time is sensitive to load: if a check fails while the load average
# is above the number of CPUs, the host's costs (they follow the load) and
# the real part are measured once more, the model run again with them
# (both tables are printed, the second decides).
set -eu
HERD=$1
OUT=${2:-build/realcheck}
QUICK=${3:-}
REPS=${REPS:-5}
if [ "$QUICK" = --quick ]; then
    REPS=2
elif [ -n "$QUICK" ]; then
    echo "usage: sh tests/realcheck.sh ./herd [OUT] [--quick]" >&2
    exit 2
fi
TOL=${TOL:-0.05}
PTOL=${PTOL:-0.2}
SCN=scenarios/realcheck.ini
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
rm -rf "$OUT"
mkdir -p "$OUT"
if [ "$QUICK" = --quick ]; then # the small point, as a scenario of its own
    sed -e 's/^count = 1000$/count = 100/' -e 's/^end_s = 3$/end_s = 0.5/' -e 's/^workers = 50$/workers = 5/' \
        -e 's/^queue = 250$/queue = 25/' "$SCN" >"$OUT/quick.ini"
    [ "$(cmp -l "$SCN" "$OUT/quick.ini" 2>/dev/null | wc -l)" -gt 0 ] && grep -q '^count = 100$' "$OUT/quick.ini" ||
        { echo "realcheck --quick: could not derive the small point from $SCN" >&2; exit 1; }
    SCN=$OUT/quick.ini
fi

PID=
stop_server() {
    if [ -n "$PID" ]; then
        kill "$PID" 2>/dev/null || true
        wait "$PID" 2>/dev/null || true
        PID=
    fi
}
trap stop_server EXIT
trap 'stop_server; exit 1' INT TERM

# drive_real DIR REPLICATIONS [--set ...]: herd serve on a free port, herd
# drive against it, both with the same overrides.
drive_real() {
    dir=$1 reps=$2
    shift 2
    rm -f "$OUT/serve.url"
    "$HERD" serve "$SCN" --port 0 --quiet --max-seconds 1800 "$@" >"$OUT/serve.url" 2>"$OUT/serve.err" &
    PID=$!
    i=0
    while [ ! -s "$OUT/serve.url" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    URL=$(head -n 1 "$OUT/serve.url")
    case $URL in http://127.0.0.1:*) ;; *) echo "realcheck: herd serve did not start: $(cat "$OUT/serve.err")" >&2; exit 1 ;; esac
    echo "realcheck: herd drive $SCN --target $URL --replications $reps $* (real time)"
    "$HERD" drive "$SCN" --target "$URL" -o "$dir" --quiet --replications "$reps" "$@"
    stop_server
}

# The median of v[1..k], for awk: a burst that the scheduler held up for
# tens of milliseconds (a loaded machine) does not decide a cost alone.
MEDIAN='function median(v, k,   i, j, t) {
    for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }
'

# calibrate [SUFFIX]: OUT/refused[SUFFIX] and the host's two costs it
# shows, "SEND REPLY" (seconds): per burst, the time to the first refusal
# read (the host's first pass of sends) and the span of the refusals as
# the client reads them, each divided by the clients; the median of each
# over the bursts.  Not the milliseconds in which refusals are read
# (about 1 us a refusal in 0.1 ms buckets): the model's reply_cost_s
# stands for how much the host's loop delays a read, not for the read
# (see doc/validation.md).
calibrate() {
    drive_real "$OUT/refused${1:-}" 5 >&2 --set retry.max_attempts=1 --set run.bucket_s=0.001 --set run.strategies=exponential
    awk -F, "$MEDIAN"'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $(c["refused"]) > 0 { r = $2; if (!(r in lo)) lo[r] = $3; hi[r] = $3; n[r] += $(c["refused"]) }
        END { for (r in lo) { s[++k] = lo[r] / n[r]; v[k] = (hi[r] - lo[r] + 0.001) / n[r] }
              printf "%.3g %.3g\n", median(s, k), median(v, k) }' "$OUT/refused${1:-}/timeseries.csv"
}

# model_side [SUFFIX]: the host's two costs measured now (COST, RCOST)
# and herd run with that host into OUT/sim[SUFFIX].
model_side() {
    echo "realcheck: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) on $(getconf _NPROCESSORS_ONLN 2>/dev/null) CPUs"
    COSTS=$(calibrate "${1:-}")
    COST=${COSTS% *} RCOST=${COSTS#* }
    echo "realcheck: the host's costs measured by bursts of refusals (the first round alone, median of 5): send $COST s per attempt, reply $RCOST s per reply"
    echo "realcheck: herd run $SCN --set clients.hosts=1 --set network.send_cost_s=$COST --set network.reply_cost_s=$RCOST ($REPS replications per strategy)"
    "$HERD" run "$SCN" -o "$OUT/sim${1:-}" --quiet --replications "$REPS" --set clients.hosts=1 --set network.send_cost_s="$COST" \
        --set network.reply_cost_s="$RCOST"
}
model_side

# compare SIM REAL: the side-by-side table of the two runs' directories;
# exit status 1 if a row disagrees.
compare() {
    awk -F, -v tol="$TOL" -v ptol="$PTOL" -v cost="$COST" -v rcost="$RCOST" -v dat="$OUT/realcheck.dat" '
    function col(name,   i) { for (i = 1; i <= NF; i++) if ($i == name) return i; return 0 }
    FNR == 1 { file++; for (k = 1; k <= 4; k++) { cm[file, k] = col(m[k] "_mean"); cc[file, k] = col(m[k] "_ci95") } next }
    { s = $1; if (file == 1) order[++ns] = s
      for (k = 1; k <= 4; k++) { mean[file, s, k] = $(cm[file, k]); ci[file, s, k] = $(cc[file, k]) } }
    BEGIN { m[1] = "completion_time_s"; m[2] = "calls"; m[3] = "peak_arrivals_per_s"; m[4] = "peak_inflight"
            label[1] = "completion s"; label[2] = "calls"; label[3] = "peak arrivals/s"; label[4] = "peak in flight" }
    END {
        printf "%-20s %-16s %22s %22s %8s  %s\n", "strategy", "metric", "simulated", "real", "diff", "agree"
        bad = 0
        for (k = 1; k <= 4; k++) {
            printf "# %s\n", m[k] > dat
            for (i = 1; i <= ns; i++) {
                s = order[i]; a = mean[1, s, k]; b = mean[2, s, k]; ca = ci[1, s, k]; cb = ci[2, s, k]
                if (ca == "nan" || ca == "n/a") ca = 0; if (cb == "nan" || cb == "n/a") cb = 0
                d = b - a; ad = d < 0 ? -d : d
                rel = a != 0 ? d / a : 0
                t = k <= 2 ? tol : ptol
                ok = (ad <= ca + cb) ? "yes (CIs overlap)" : (ad <= t * (a < 0 ? -a : a)) ? "yes (within " t * 100 "%)" : "NO"
                if (ok == "NO") bad++
                printf "%-20s %-16s %13.4g +/- %-6.2g %13.4g +/- %-6.2g %+7.1f%%  %s\n", s, label[k], a, ca, b, cb, 100 * rel, ok
                printf "%d \"%s\" %.6g %.6g %.6g %.6g\n", i - 1, s, a, ca, b, cb > dat
            }
            printf "\n\n" > dat
        }
        printf "\nrealcheck: %d of %d rows disagree (agreement: 95%% CIs overlap, or means within %g%% (completion, calls), %g%% (peaks of 1 s buckets); model hosts = 1, send_cost_s = %s s, reply_cost_s = %s s, measured)\n", bad, 4 * ns, tol * 100, ptol * 100, cost, rcost
        exit bad > 0
    }' "$1/aggregate.csv" "$2/aggregate.csv"
}

drive_real "$OUT/real" "$REPS"
status=0
compare "$OUT/sim" "$OUT/real" >"$OUT/realcheck.txt" || status=$?
cat "$OUT/realcheck.txt"
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
if [ "$status" != 0 ] && awk -v l="$load" -v n="$ncpu" 'BEGIN { exit !(l > n) }'; then
    echo "realcheck: load average $load on $ncpu CPUs: measuring the host's costs and the real part once more"
    mv "$OUT/realcheck.txt" "$OUT/realcheck-busy.txt"
    model_side 2
    drive_real "$OUT/real2" "$REPS"
    status=0
    compare "$OUT/sim2" "$OUT/real2" >"$OUT/realcheck.txt" || status=$?
    cat "$OUT/realcheck.txt"
fi
if [ "$QUICK" = --quick ]; then
    # what holds at any load: every request of every replication finished,
    # one row per strategy x replication, every strategy x metric compared
    rows=$(grep -c '^[a-z_]* *\(completion s\|calls\|peak arrivals/s\|peak in flight\) ' "$OUT/realcheck.txt")
    if [ "$rows" = 16 ] && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n++; if ($(c["unfinished"]) != 0 || $(c["successes"]) + $(c["failures"]) != 100) bad++ }
        END { exit !(n == 8 && !bad) }' "$OUT/real/summary.csv" && [ -s "$OUT/realcheck.dat" ]; then
        echo "realcheck --quick: ok (16 rows compared, every real request finished; agreement printed, not decided)"
        exit 0
    fi
    echo "realcheck --quick: FAIL: $rows of 16 rows, or unfinished requests in $OUT/real/summary.csv" >&2
    exit 1
fi
if command -v gnuplot >/dev/null; then
    gnuplot -e "dat='$OUT/realcheck.dat'; out='$OUT/realcheck.png'" plots/realcheck.gp
    echo "realcheck: wrote $OUT/realcheck.txt, $OUT/realcheck.png"
fi
exit "$status"
