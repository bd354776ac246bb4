#!/bin/sh
# tests/rare.sh - herd rare: multilevel splitting against brute force, at
# an operating point where both are cheap (seconds) and the probability is
# large; determinism across --jobs; bad flags refused.
#
# The splitting estimate (mean of repeats, Student t) and the brute-force
# one (exact binomial) estimate the same probability from independent
# seeds: they must agree within 3.5 combined standard errors.  A wrong
# estimator (a conditional probability dropped, entrance states not drawn
# from the hits) misses by far more.
#
#   sh tests/rare.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
T=$(mktemp -d /tmp/herd-rare.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL $1"; }
# The scenario's spike made larger and the run shorter: P(reach 120) ~ 0.3.
SCN=scenarios/rare-collapse.ini
SETS="--set clients.spike_rate_per_s=120 --set run.horizon_s=30"

# shellcheck disable=SC2086
"$HERD" rare $SCN $SETS --levels 40,80,120 --effort 150 --repeats 6 --brute 800 -o "$T/a" --quiet --jobs 2 \
    && ok || bad "rare run"
awk -F, 'NR > 1 { m[$1] = $5; lo[$1] = $6; hi[$1] = $7; n[$1] = $3; h[$1] = $4 }
    END {
        # standard errors: splitting from its t interval (6 repeats: t = 2.571),
        # brute force from the binomial variance
        ss = (hi["splitting"] - lo["splitting"]) / 2 / 2.571
        pb = m["brute_force"]; sb = sqrt(pb * (1 - pb) / n["brute_force"])
        d = m["splitting"] - pb; if (d < 0) d = -d
        printf "rare: splitting %.4f +/- %.4f, brute force %.4f +/- %.4f (1 s.e.)\n", m["splitting"], ss, pb, sb
        exit !(pb > 0.05 && pb < 0.8 && m["splitting"] > 0 && d <= 3.5 * sqrt(ss * ss + sb * sb))
    }' "$T/a/rare-summary.csv" && ok || bad "splitting and brute force disagree"
# the cumulative product is the product of the conditional probabilities
awk -F, 'NR > 1 { if ($2 == 40) c = 1; c *= $5; d = c - $6; if (d < 0) d = -d; if (d > 1e-8) bad = 1 } END { exit bad }' \
    "$T/a/rare.csv" && ok || bad "rare.csv: p_cum is not the product of p_cond"
# shellcheck disable=SC2086
"$HERD" rare $SCN $SETS --levels 40,80,120 --effort 60 --repeats 2 --brute 50 -o "$T/j1" --quiet --jobs 1 \
    && "$HERD" rare $SCN $SETS --levels 40,80,120 --effort 60 --repeats 2 --brute 50 -o "$T/j2" --quiet --jobs 2 \
    && cmp -s "$T/j1/rare.csv" "$T/j2/rare.csv" \
    && [ "$(cut -d, -f1-8 "$T/j1/rare-summary.csv")" = "$(cut -d, -f1-8 "$T/j2/rare-summary.csv")" ] \
    && ok || bad "rare: results depend on --jobs"

# bad flags: a clear message, exit 2, nothing written
expect_fail() {
    name=$1 frag=$2; shift 2
    "$HERD" rare "$@" -o "$T/out-$name" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    if [ "$rc" -ne 2 ]; then bad "$name: exit $rc, want 2 ($(cat "$T/stderr"))"
    elif ! grep -qF -- "$frag" "$T/stderr"; then bad "$name: stderr lacks '$frag': $(cat "$T/stderr")"
    elif [ -s "$T/stdout" ] || [ -e "$T/out-$name" ]; then bad "$name: wrote output"
    else ok; fi
}
expect_fail nolevels "rare needs --levels" $SCN
expect_fail decreasing "does not exceed the level before it" $SCN --levels 50,40
expect_fail junk "expected integers" $SCN --levels 50,x
expect_fail empty "expected integers" $SCN --levels ''
expect_fail trailing "expected integers" $SCN --levels 50,
expect_fail zero "expected integers in [1, 1e9]" $SCN --levels 0,10
expect_fail unreachable "above what the server holds (310 = workers + queue)" $SCN --levels 50,400
expect_fail effort "--effort: expected an integer in [0, 10000000], got '-3'" $SCN --levels 50 --effort -3
expect_fail repeats "--repeats: expected an integer in [2, 10000], got '1'" $SCN --levels 50 --repeats 1
expect_fail brute "--brute: expected an integer in [0, 1000000000], got '1e3'" $SCN --levels 50 --brute 1e3
expect_fail nothing "nothing to do" $SCN --levels 50 --effort 0
expect_fail variants "expected one operating point" scenarios/metastable.ini --levels 50
expect_fail strategies "several strategies" scenarios/thundering-herd.ini --levels 5
expect_fail unknown "unknown option '--effrot'" $SCN --levels 50 --effrot 3
expect_fail noscn "rare needs a scenario file" --levels 50
expect_fail badset "[run] horizon_s" $SCN --levels 50 --set run.horizon_s=-1

echo "rare: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
