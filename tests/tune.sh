#!/bin/sh
# herd tune against answers known in closed form (tests/tune/known.ini):
# attempts fail independently with probability p, capacity is ample, so
# amplification(m) = (1 - p^m)/(1 - p) and failures = 2000 p^m; minimising
# failures subject to amplification <= A must give the largest m with
# (1 - p^m)/(1 - p) <= A (computed here, never written down).  Also: a
# bound close to a step (the search must add replications), a constraint
# that binds at one operating point only, the validated figures against
# herd run on the validation seeds, byte-identical outputs for any --jobs,
# undefined metrics, and refusals that create nothing.
#
#   sh tests/tune.sh ./herd
set -u
HERD=${1:-./herd}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
K=tests/tune/known.ini
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# the largest m in 1..8 with (1 - p^m)/(1 - p) <= A
expect_m() {
    awk -v p="$1" -v a="$2" 'BEGIN { best = 0; for (m = 1; m <= 8; m++) if ((1 - p ^ m) / (1 - p) <= a) best = m; print best }'
}
# the recommendation's value of KEY in DIR/recommendation.txt
rec() { sed -n "s/^--set $2=//p" "$1/recommendation.txt"; }
# column NAME of tune.csv's rows whose status is STATUS
col() {
    awk -F, -v name="$2" -v st="$3" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["status"] == st { print $h[name] }' "$1/tune.csv"
}

# (1) known answers, several (p, A); the last bound is 0.015 above
# amplification(3) = 1.75 at p = 0.5: at 4 replications the one-sided
# bound straddles it (per-replication sd about 0.019), so the search has
# to add replications before m = 3 is proven feasible
n=0
for case in "0.5 1.8" "0.3 1.35" "0.5 1.6" "0.2 1.22" "0.5 1.765"; do
    set -- $case
    n=$((n + 1))
    want=$(expect_m "$1" "$2")
    if ! "$HERD" tune "$K" --set server.error_rate_503="$1" --search retry.max_attempts=1:8:1 --minimize failures \
        --subject-to "amplification<=$2" -o "$T/k$n" --quiet --jobs 2 2>"$T/err"; then
        bad "known answer p=$1 A=$2: herd tune failed: $(cat "$T/err")"
        continue
    fi
    got=$(rec "$T/k$n" retry.max_attempts)
    if [ "$got" = "$want" ]; then ok "known answer p=$1 A=$2: max_attempts=$got"; else bad "known answer p=$1 A=$2: max_attempts=$got, expected $want"; fi
done
reps=$(col "$T/k5" replications recommended)
if [ -n "$reps" ] && [ "$reps" -gt 4 ]; then ok "bound near a step: the recommendation needed $reps replications"
else bad "bound near a step: the recommendation had ${reps:-no} replications, expected more than 4"; fi
reps=$(col "$T/k1" replications recommended)
if [ "$reps" = 4 ]; then ok "bound far from a step: settled at 4 replications"; else bad "far bound: $reps replications"; fi
# every dropped row says why, and an infeasible one names the bound
if awk -F, 'NR > 1 && $0 ~ /dropped_round_/ && $0 !~ /,(dominated|infeasible),/ { exit 1 }' "$T/k1/tune.csv"; then
    ok "dropped rows have a reason"; else bad "a dropped row without a reason"; fi
grep -q 'infeasible,amplification<=1.8 at the one operating point: its one-sided' "$T/k1/tune.csv" \
    && ok "infeasible rows name the constraint" || bad "no infeasible row names amplification<=1.8"

# the validated figures are what herd run gives on the validation seeds
vseed=$(sed -n 's/^validation seed: \([0-9]*\) .*/\1/p' "$T/k1/manifest.txt")
"$HERD" run "$K" $(grep -- --set "$T/k1/recommendation.txt") --seed "$vseed" --replications 32 -o "$T/run" --quiet
line=$(grep '^# amplification = ' "$T/k1/recommendation.txt")
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } { printf "# amplification = %.6g +/- %.3g", $h["amplification_mean"], $h["amplification_ci95"] }' "$T/run/aggregate.csv")
case "$line" in
"$want "*) ok "recommendation.txt's figures are herd run's on the validation seeds ($want)" ;;
*) bad "recommendation.txt: '$line', herd run on the validation seeds: '$want'" ;;
esac

# (2) a constraint that binds at one operating point only: at p = 0.2
# every m up to 8 keeps amplification under 1.25, at p = 0.5 only m <= 2
# stays under 1.6
if "$HERD" tune "$K" --sweep server.error_rate_503=0.2,0.5 --search retry.max_attempts=1:6:1 --minimize failures \
    --subject-to 'amplification<=1.6' -o "$T/b" --jobs 2 >"$T/b.out" 2>"$T/err"; then
    got=$(rec "$T/b" retry.max_attempts)
    [ "$got" = 2 ] && ok "binds at one point: max_attempts=2" || bad "binds at one point: max_attempts=$got, expected 2"
    grep -q 'infeasible,amplification<=1.6 at server.error_rate_503=0.5' "$T/b/tune.csv" \
        && ! grep -q 'infeasible,amplification<=1.6 at server.error_rate_503=0.2' "$T/b/tune.csv" \
        && ok "binds at one point: every infeasible row names p = 0.5" || bad "binds at one point: infeasible rows"
    grep -q '^binds: amplification<=1.6' "$T/b.out" && ok "the summary names the binding constraint" \
        || bad "the summary does not name the binding constraint"
    grep -q '^# point 1 server.error_rate_503=0.2: failures = ' "$T/b/recommendation.txt" \
        && grep -q '^# point 2 server.error_rate_503=0.5: ' "$T/b/recommendation.txt" \
        && ok "recommendation.txt has a line per operating point" || bad "recommendation.txt: point lines"
    rows=$(awk 'END { print NR - 1 }' "$T/b/tune.csv")
    [ "$rows" = 12 ] && ok "tune.csv: a row per candidate and point" || bad "tune.csv: $rows rows, expected 12"
else
    bad "binds at one point: herd tune failed: $(cat "$T/err")"
fi

# byte-identical for any --jobs
"$HERD" tune "$K" --sweep server.error_rate_503=0.2,0.5 --search retry.max_attempts=1:6:1 --minimize failures \
    --subject-to 'amplification<=1.6' -o "$T/b1" --jobs 1 --quiet
same=1
for f in tune.csv recommendation.txt manifest.txt; do cmp -s "$T/b/$f" "$T/b1/$f" || same=0; done
[ $same = 1 ] && ok "--jobs 1 and --jobs 2: byte-identical outputs" || bad "--jobs 1 and --jobs 2 differ"
[ -s "$T/b/tune.png" ] && [ -s "$T/b/tune.svg" ] && ok "the figure is drawn" || bad "no tune.png / tune.svg"

# --aggregate mean (the objective's mean over the points) and --maximize
# give the same known answers
if "$HERD" tune "$K" --sweep server.error_rate_503=0.2,0.5 --search retry.max_attempts=1:6:1 --minimize failures \
    --subject-to 'amplification<=1.6' --aggregate mean -o "$T/mean" --quiet --jobs 2 2>"$T/err" \
    && [ "$(rec "$T/mean" retry.max_attempts)" = 2 ] && grep -q '^# failures = .*; the mean over operating points)$' "$T/mean/recommendation.txt"; then
    ok "--aggregate mean: max_attempts=2, the figures are the mean over the points"
else bad "--aggregate mean: $(cat "$T/err") $(cat "$T/mean/recommendation.txt" 2>/dev/null)"; fi
if "$HERD" tune "$K" --search retry.max_attempts=1:6:1 --maximize successes --subject-to 'amplification<=1.8' \
    -o "$T/max" --quiet --jobs 2 2>"$T/err" && [ "$(rec "$T/max" retry.max_attempts)" = 3 ]; then
    ok "--maximize successes: max_attempts=3"
else bad "--maximize successes: $(cat "$T/err") $(grep -- --set "$T/max/recommendation.txt" 2>/dev/null)"; fi

# an undefined metric is not measurable: every candidate infeasible, and
# the reason says n/a
if "$HERD" tune "$K" --search retry.max_attempts=1:3:1 --minimize recovery_time_s -o "$T/u" >"$T/u.out" 2>&1; then
    grep -q '^recommended: none' "$T/u.out" && grep -q 'is n/a (undefined)' "$T/u/tune.csv" \
        && ! grep -q -- '^--set' "$T/u/recommendation.txt" && ! grep -qi 'nan' "$T/u/tune.csv" \
        && ok "an undefined objective: no recommendation, the reason n/a, no nan in tune.csv" || bad "undefined objective: $(cat "$T/u.out")"
else
    bad "undefined objective: herd tune failed: $(cat "$T/u.out")"
fi

# refusals: exit 2, a message, nothing created
refuse() {
    what=$1; shift
    rm -rf "$T/r"
    "$HERD" tune "$@" -o "$T/r" >"$T/r.out" 2>&1
    rc=$?
    if [ $rc = 2 ] && [ ! -e "$T/r" ] && grep -q "$what" "$T/r.out"; then ok "refused: $what"
    else bad "expected a refusal with '$what' (exit $rc): $(cat "$T/r.out")"; fi
}
refuse "no such metric" "$K" --search retry.max_attempts=1:3:1 --minimize nonsense
refuse "no metric 'amp'" "$K" --search retry.max_attempts=1:3:1 --minimize failures --subject-to 'amp<=2'
refuse "needs an objective" "$K" --search retry.max_attempts=1:3:1
refuse "needs at least one --search" "$K" --minimize failures
refuse "is also searched" "$K" --set retry.max_attempts=2 --search retry.max_attempts=1:3:1 --minimize failures
refuse "searched twice" "$K" --search retry.max_attempts=1:3:1 --search 'retry . max_attempts=4' --minimize failures
refuse "candidate 1 (retry.base_s=-1)" "$K" --search retry.base_s=-1,0.001 --minimize failures
refuse "a candidate is one setting" "$K" --set run.strategies=exponential,full_jitter --search retry.max_attempts=1:2:1 --minimize failures
refuse "tune chooses the seeds" "$K" --search run.seed=1,2 --minimize failures
# a searched key no value of which changes any candidate is refused as the
# no-op rule refuses a key (here no candidate retries, so no cap matters)
refuse "retry.cap_s: no effect: no value of it changes the model of any candidate, because max_attempts is 1" \
    "$K" --set retry.max_attempts=1 --search retry.cap_s=0.01,0.05 --minimize failures

# A valid grid whose combinations include no-ops (a cap with one attempt)
# runs: such a candidate is the same model as another, run and reported once
# (tune.csv: same_model, 0 replications; the summary counts the models).
"$HERD" tune "$K" --set clients.count=200 --search retry.max_attempts=1:3:1 --search retry.cap_s=0.01,0.05,0.2 \
    --minimize failures --subject-to 'amplification<=1.8' -o "$T/dup" >"$T/dup.out" 2>&1 && ok "a grid with no-op combinations runs" \
    || bad "a grid with no-op combinations is refused: $(cat "$T/dup.out")"
same=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $h["status"] == "same_model" && $h["replications"] == 0 { print $1 }' "$T/dup/tune.csv" | tr '\n' ' ')
[ "$same" = "2 3 " ] && ok "max_attempts=1 with caps 0.05 and 0.2: the same model as cap 0.01, never run" || bad "same-model candidates: '$same'"
grep -q '^models: 7 distinct; 2 candidate(s) the same model as another' "$T/dup.out" && ok "the summary counts the models" \
    || bad "the summary does not count the models: $(head -3 "$T/dup.out")"
grep -q 'the same model as candidate 1 at every point (retry.cap_s=0.05 changes nothing here: max_attempts is 1' "$T/dup/tune.csv" \
    && ok "tune.csv says why" || bad "tune.csv does not say why a candidate is the same model"

# A setting that did nothing in any run (a breaker that never opens at 20%
# errors, its threshold 50%) is said to be so in the summary, not chosen
# against: and the span the figures are measured over is said, whole run
# or window.
"$HERD" tune "$K" --set clients.count=200 --set server.error_rate_503=0.2 --search retry.max_attempts=1:3:1 \
    --search limits.breaker=false,true --minimize failures --subject-to 'amplification<=1.3' -o "$T/idle" >"$T/idle.out" 2>&1
grep -q '^identical: limits.breaker=true gave the same results in every run as limits.breaker=false (3 candidate(s), the recommendation.s among them): the breaker never opened' \
    "$T/idle.out" && ok "an idle breaker is said to be idle" || bad "the summary does not say the breaker never opened: $(cat "$T/idle.out")"
grep -q '^measured: failures, amplification over every request started in the whole run (0 to 60 s); for an incident' "$T/idle.out" \
    && ok "the summary says the span: the whole run" || bad "no span in the summary: $(head -3 "$T/idle.out")"
"$HERD" tune "$K" --set clients.count=200 --set run.window_s=0:0.5 --search retry.max_attempts=1:3:1 --minimize failures \
    --subject-to 'amplification<=1.3' --subject-to 'peak_arrivals_per_s<=5000' -o "$T/win" >"$T/win.out" 2>&1
grep -q '^measured: failures, amplification over the requests started in \[0 s, 0.5 s) (run.window_s), not the whole run' "$T/win.out" \
    && grep -q '^measured: peak_arrivals_per_s over the whole run (0 to 60 s; run.window_s does not apply to it)' "$T/win.out" \
    && ok "the summary says the span: the window, and what ignores it" || bad "the window is not in the summary: $(head -4 "$T/win.out")"

[ $fail = 0 ] && echo "tune: all passed" || { echo "tune: FAILED"; exit 1; }
