#!/bin/sh
# Writes the data files of scenarios/incident-replay.ini into the folder of
# this script.  Deterministic (no random numbers: every value is computed
# from a formula), POSIX sh + awk only, so any machine writes the same bytes:
#
#   sh scenarios/data/make-data.sh
#
# trace.csv             a daily request curve compressed 48x: 1800 s stand
#                       for 24 h (1 s = 48 s of the day), a row every 30 s:
#                       rate = 30 + 100 (1 - cos(2 pi (h - 4) / 24)) / 2
#                       requests/s at hour h: 30/s at 04:00, 130/s at 16:00.
# capacity.csv          the incident: full capacity, then a 4-minute
#                       brown-out to 30% of the workers (and 2% of attempts
#                       failing at once) from t = 900 s (12:00), a partial
#                       recovery to 70% for 60 s, then full capacity.  These
#                       are real seconds: the brown-out, the timeouts and
#                       the backoffs are not compressed, only the curve.
# latency-histogram.csv a bimodal, heavy-tailed service time as a histogram
#                       (lower_s, upper_s, count) of 1,000,000 requests:
#                       85% cache hits, lognormal with mean 20 ms and SD
#                       10 ms; 15% misses, Pareto with scale 100 ms and
#                       shape 2.2 (mean 183 ms; one miss in 1,000 takes
#                       more than 2.3 s).  The
#                       counts are the mixture's exact probability mass per
#                       bucket (lognormal CDF through erf, Abramowitz and
#                       Stegun 7.1.26, error < 1.5e-7), rounded; 48
#                       log-spaced buckets from 1 ms to 30 s.
set -eu
D=$(cd "$(dirname "$0")" && pwd)

awk 'BEGIN {
    pi = atan2(0, -1)
    print "time_s,rate_per_s"
    for (t = 0; t <= 1800; t += 30) {
        h = t / 1800 * 24
        printf "%d,%.3f\n", t, 30 + 100 * (1 - cos(2 * pi * (h - 4) / 24)) / 2
    }
}' >"$D/trace.csv"

cat >"$D/capacity.csv" <<'CSV'
time_s,workers_factor,speed_factor,error_rate
0,1,1,0
900,0.3,1,0.02
1140,0.7,1,0
1200,1,1,0
CSV

awk 'function erf(x,   t, y, s) {
        s = x < 0 ? -1 : 1; x = x < 0 ? -x : x
        t = 1 / (1 + 0.3275911 * x)
        y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-x * x)
        return s * y
    }
    function lognormal_cdf(x) { return x <= 0 ? 0 : 0.5 * (1 + erf((log(x) - mu) / (sigma * sqrt(2)))) }
    function pareto_cdf(x) { return x <= 0.1 ? 0 : 1 - (0.1 / x) ^ 2.2 }
    function cdf(x) { return 0.85 * lognormal_cdf(x) + 0.15 * pareto_cdf(x) }
    BEGIN {
        m = 0.02; s = 0.01
        sigma = sqrt(log(1 + (s / m) ^ 2)); mu = log(m) - sigma ^ 2 / 2
        n = 48; lo = 0.001; hi = 30
        print "lower_s,upper_s,count"
        for (i = 0; i < n; i++) {
            a = lo * (hi / lo) ^ (i / n); b = lo * (hi / lo) ^ ((i + 1) / n)
            if (i == 0) a = 0
            printf "%.6g,%.6g,%d\n", a, b, int(1e6 * (cdf(b) - cdf(a)) + 0.5)
        }
    }' >"$D/latency-histogram.csv"
