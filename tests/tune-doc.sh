#!/bin/sh
# doc/tune.md's figures of the brown-out ("What it found") against the runs
# that make them: both searches of scenarios/tune-brownout.ini (during the
# brown-out, run.window_s=10:55, and over the whole run) are run again and
# every figure the page quotes is compared with the summary and tune.csv,
# rounded as the page rounds it (the runs are deterministic for a seed and
# any --jobs, so the figures repeat exactly).
#
#   sh tests/tune-doc.sh ./herd [OUT]   runs both searches into OUT (default
#                                       build/tune-doc; about 2 minutes on 2
#                                       cores) and checks (make tune-doc)
#   sh tests/tune-doc.sh ./herd --check only that the page still quotes every
#                                       figure this script checks (make test;
#                                       no run)
#
# Run from the repository root.
set -u
HERD=${1:-./herd}
OUT=build/tune-doc
MODE=run
case ${2:-} in --check) MODE=check ;; '') ;; *) OUT=$2 ;; esac
PAGE=doc/tune.md
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
# the page as one line (a figure may be broken across lines)
flat=$(tr '\n' ' ' <"$PAGE" | tr -s ' ')

SEARCH="--search retry.max_attempts=2:5:1 --search retry.cap_s=1,4,20 --search limits.limiter=none,aws_quota
        --search limits.breaker=false,true --minimize failures --subject-to amplification<=1.3"
# (TUNE_DOC_REUSE=1: check the summaries already in OUT, without running)
if [ "$MODE" = run ] && [ -z "${TUNE_DOC_REUSE:-}" ]; then
    mkdir -p "$OUT"
    # shellcheck disable=SC2086
    "$HERD" tune scenarios/tune-brownout.ini --set run.window_s=10:55 $SEARCH -o "$OUT/window" >"$OUT/window.txt" 2>&1 \
        || { echo "FAIL: the brown-out search failed: $(cat "$OUT/window.txt")"; exit 1; }
    # shellcheck disable=SC2086
    "$HERD" tune scenarios/tune-brownout.ini $SEARCH -o "$OUT/whole" >"$OUT/whole.txt" 2>&1 \
        || { echo "FAIL: the whole-run search failed: $(cat "$OUT/whole.txt")"; exit 1; }
fi

# n X DIGITS: X rounded to DIGITS decimals, thousands separated by commas
n() { awk -v x="$1" -v d="$2" 'BEGIN { s = sprintf("%." d "f", x); i = s; f = ""
      if (index(s, ".")) { i = substr(s, 1, index(s, ".") - 1); f = substr(s, index(s, ".")) }
      while (length(i) > 3 && i ~ /^[0-9]+$/ || length(i) > 4) { f = "," substr(i, length(i) - 2) f; i = substr(i, 1, length(i) - 3) }
      print i f }'; }
# line S WORD: the summary S's line starting with WORD
line() { grep "^$2" "$OUT/$1.txt" 2>/dev/null | head -1; }
# field TEXT N: the Nth blank-separated word of TEXT
field() { printf '%s\n' "$1" | awk -v k="$2" '{ print $k }'; }
# csv S COLUMN AGG COND: min or max (AGG) of COLUMN over tune.csv's rows
# matching COND (an awk condition on h["name"] fields)
csv() {
    awk -F, -v col="$2" -v agg="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        { for (k in h) v[k] = $h[k] } '"$4"' { x = v[col] + 0; if (!seen++ || (agg == "max" ? x > m : x < m)) m = x }
        END { if (seen) print m }' "$OUT/$1/tune.csv" 2>/dev/null
}
# claim TEXT [COMPUTED]: the page quotes TEXT; with the runs, TEXT is what
# the runs give (COMPUTED, built from them the same way)
claim() {
    case $flat in *"$1"*) ok ;; *) bad "$PAGE no longer says: $1"; return ;; esac
    [ "$MODE" = check ] && return
    [ "$1" = "$2" ] && { ok; echo "  [holds] $1"; } || bad "$PAGE says '$1', the run gives '$2'"
}

for s in window whole; do
    eval "${s}_search=\$(line $s search:)"
    eval "${s}_events=\$(line $s events:)"
    eval "${s}_rec=\$(line $s recommended:)"
    eval "${s}_fail=\$(line $s '  failures =')"
    eval "${s}_amp=\$(line $s '  amplification =')"
    eval "${s}_binds=\$(line $s binds:)"
    eval "${s}_base=\$(line $s 'against the scenario as written')"
done
# shellcheck disable=SC2154
{
# during the brown-out
claim "During the brown-out (\`run.window_s=10:55\`) the answer is **5 attempts, cap 4 s, the SDK's retry quota, no circuit breaker**" \
    "During the brown-out (\`run.window_s=10:55\`) the answer is **$(case $window_rec in *'retry.max_attempts=5 retry.cap_s=4 limits.limiter=aws_quota limits.breaker=false'*) echo "5 attempts, cap 4 s, the SDK's retry quota, no circuit breaker" ;; *) echo "$window_rec" ;; esac)**"
claim "fails 14,046 +/- 54 requests at 900 clients (its worst load)" \
    "fails $(n "$(field "$window_fail" 3)" 0) +/- $(n "$(field "$window_fail" 5)" 0) requests at $(printf '%s' "$window_fail" | sed -n 's/.*clients.count=\([0-9]*\).*/\1/p') clients (its worst load)"
claim "makes 1.214 +/- 0.001 calls per request at 300 clients. Every" \
    "makes $(n "$(field "$window_amp" 3)" 3) +/- $(n "$(field "$window_amp" 5)" 3) calls per request at $(printf '%s' "$window_amp" | sed -n 's/.*clients.count=\([0-9]*\).*/\1/p') clients. Every"
claim "(1.50 calls per request at 300 clients with 2 attempts, up to 1.93 with 5)" \
    "($(n "$(csv window amplification_mean min 'v["clients.count"] == 300 && v["limits.limiter"] == "none" && v["limits.breaker"] == "false"')" 2) calls per request at 300 clients with 2 attempts, up to $(n "$(csv window amplification_mean max 'v["clients.count"] == 300 && v["limits.limiter"] == "none" && v["limits.breaker"] == "false"')" 2) with 5)"
claim "the bound ruled out 12 candidates" "the bound ruled out $(printf '%s' "$window_binds" | sed -n 's/.*ruled out \([0-9]*\) candidate.*/\1/p') candidates"
claim "The search ran 5 rounds, 4 to 64 replications (189 million events, 16.1% of a grid at 64 replications)" \
    "The search ran $(field "$window_search" 2) rounds, $(field "$window_search" 4) to $(field "$window_search" 6) replications ($(n "$(field "$window_events" 2 | awk '{ print $1 / 1e6 }')" 0) million events, $(field "$window_events" 7) of a grid at $(field "$window_search" 6) replications)"
claim "and kept 3 finalists" "and kept $(printf '%s' "$window_search" | sed -n 's/.*, \([0-9]*\) finalist.*/\1/p') finalists"
claim "fails 10,820 +/- 41 fewer requests but makes 1.747 calls per request at 300 clients" \
    "fails $(n "$(printf '%s' "$window_base" | sed -n 's/.*failures, \([0-9.]*\) +\/- \([0-9.]*\) higher.*/\1/p')" 0) +/- $(n "$(printf '%s' "$window_base" | sed -n 's/.*failures, \([0-9.]*\) +\/- \([0-9.]*\) higher.*/\2/p')" 0) fewer requests but makes $(n "$(printf '%s' "$window_base" | sed -n 's/.*(amplification \([0-9.]*\) at.*/\1/p')" 3) calls per request at 300 clients"
# over the whole run
claim "Over the whole run the answer is **2 attempts (one retry), no retry quota, no circuit breaker**" \
    "Over the whole run the answer is **$(case $whole_rec in *'retry.max_attempts=2 retry.cap_s=1 limits.limiter=none limits.breaker=false'*) echo "2 attempts (one retry), no retry quota, no circuit breaker" ;; *) echo "$whole_rec" ;; esac)**"
claim "it fails 7,887 +/- 30 requests at 900 clients and makes 1.296 +/- 0.001 calls per request at 300 clients" \
    "it fails $(n "$(field "$whole_fail" 3)" 0) +/- $(n "$(field "$whole_fail" 5)" 0) requests at 900 clients and makes $(n "$(field "$whole_amp" 3)" 3) +/- $(n "$(field "$whole_amp" 5)" 3) calls per request at $(printf '%s' "$whole_amp" | sed -n 's/.*clients.count=\([0-9]*\).*/\1/p') clients"
claim "(it ruled out 9 candidates" "(it ruled out $(printf '%s' "$whole_binds" | sed -n 's/.*ruled out \([0-9]*\) candidate.*/\1/p') candidates"
claim "identical: retry.cap_s=4, 20 gave the same results in every run as retry.cap_s=1" \
    "$(grep -o '^identical: retry.cap_s=4, 20 gave the same results in every run as retry.cap_s=1' "$OUT/whole.txt" 2>/dev/null)"
claim "The search ran 5 rounds, 4 to 64 replications (137 million events, 13.4% of a grid at 64 replications)" \
    "The search ran $(field "$whole_search" 2) rounds, $(field "$whole_search" 4) to $(field "$whole_search" 6) replications ($(n "$(field "$whole_events" 2 | awk '{ print $1 / 1e6 }')" 0) million events, $(field "$whole_events" 7) of a grid at $(field "$whole_search" 6) replications)"
claim "fails 4,667 +/- 24 fewer requests but breaks the bound (1.370 calls per request at 300 clients)" \
    "fails $(n "$(printf '%s' "$whole_base" | sed -n 's/.*failures, \([0-9.]*\) +\/- \([0-9.]*\) higher.*/\1/p')" 0) +/- $(n "$(printf '%s' "$whole_base" | sed -n 's/.*failures, \([0-9.]*\) +\/- \([0-9.]*\) higher.*/\2/p')" 0) fewer requests but breaks the bound ($(n "$(printf '%s' "$whole_base" | sed -n 's/.*(amplification \([0-9.]*\) at.*/\1/p')" 3) calls per request at 300 clients)"
claim "(28,554 to 34,718 failures at 900 clients" \
    "($(n "$(csv whole failures_mean min 'v["clients.count"] == 900 && v["limits.breaker"] == "true"')" 0) to $(n "$(csv whole failures_mean max 'v["clients.count"] == 900 && v["limits.breaker"] == "true"')" 0) failures at 900 clients"
claim "at about 6,200 more failures at 900 clients" \
    "at about $(n "$(awk -v a="$(field "$window_fail" 3)" -v b="$(field "$whole_fail" 3)" 'BEGIN { printf "%d", int((a - b) / 100 + 0.5) * 100 }')" 0) more failures at 900 clients"
}
echo "tune-doc${MODE:+ ($MODE)}: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
