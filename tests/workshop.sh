#!/bin/sh
# The workshop kit (scenarios/workshop/): five lessons, each a scenario and
# a page.
#
#   sh tests/workshop.sh ./herd --check   every lesson's scenario passes herd
#                                         check, every page has its sections
#                                         and its figure (make test; seconds)
#   sh tests/workshop.sh ./herd [OUT]     runs every lesson into OUT
#                                         (default build/workshop), checks that
#                                         each still shows what its page says
#                                         (numbers from the CSVs, tolerances
#                                         that hold across seeds), checks every
#                                         number of the pages against the runs
#                                         (tests/workshop-numbers.py: within the
#                                         95% interval, or exactly), and draws
#                                         each lesson's figure (talk style)
#                                         into OUT/NN-*.png (make workshop); no
#                                         tracked file changes
#
# With WORKSHOP_FIGURES=1 the figures are copied into scenarios/workshop/
# (make figures).  With WORKSHOP_SEED=N the lessons run with --seed N (the
# claims must hold for any seed; the pages' numbers are those of the
# scenarios' seeds, so they are not compared) and nothing is drawn.
# Run from the repository root.
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
MODE=run
OUT=build/workshop
case ${2:-} in
--check) MODE=check ;;
'') ;;
*) OUT=$2 ;;
esac
W=scenarios/workshop
LESSONS="01-thundering-herd 02-jitter-and-cap 03-timeouts-budgets-retry-after 04-idempotency 05-layers-metastability"
pass=0
failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }

# --- the kit is complete: scenarios, pages, figures ---------------------------
for l in $LESSONS; do
    "$HERD" check "$W/$l.ini" >/dev/null 2>"/tmp/herd-workshop.$$" && ok || bad "$l.ini: herd check: $(cat "/tmp/herd-workshop.$$")"
    rm -f "/tmp/herd-workshop.$$"
    [ -f "$W/$l.md" ] || { bad "$l.md missing"; continue; }
    for s in '## The question' '## Run it' '## What to look for' '## Exercise' '## Answer' '## What make workshop checks'; do
        grep -q "^$s" "$W/$l.md" && ok || bad "$l.md has no '$s' section"
    done
    grep -q "](${l}.png)" "$W/$l.md" && ok || bad "$l.md does not show its figure ${l}.png"
    [ -s "$W/$l.png" ] && ok || bad "$W/$l.png missing (make workshop draws it)"
    grep -q "herd run scenarios/workshop/$l.ini" "$W/$l.md" && ok || bad "$l.md does not say how to run $l.ini"
done
grep -q '(scenarios/workshop/README.md)' README.md && ok || bad "README.md does not point to the workshop"
# every number of the pages' "What to look for" and "Answer" has its line in
# NN-*.numbers (what it is checked against, or an input), and every such line
# still quotes the page (make workshop compares the numbers with the runs)
for l in $LESSONS; do
    python3 tests/workshop-numbers.py "$W/$l.md" "$W/$l.numbers" --check >"/tmp/herd-workshop.$$" 2>&1 && ok \
        || bad "$l.md: $(cat "/tmp/herd-workshop.$$")"
    rm -f "/tmp/herd-workshop.$$"
done
if [ "$MODE" = check ]; then
    echo "workshop --check: $pass passed, $failn failed"
    [ "$failn" -eq 0 ]
    exit
fi

# --- run, check, draw -------------------------------------------------------------
mkdir -p "$OUT"
# what git tracks of the kit, to check that preparing a session changes none of it
tracked() { git ls-files -s "$W" 2>/dev/null; for f in $(git ls-files "$W" 2>/dev/null); do cksum "$f"; done; }
tracked >"$OUT/tracked.before"

# v FILE COLUMN [KEY=VALUE ...]: COLUMN of the first row of a herd CSV whose
# columns KEY have the values VALUE.
v() {
    f=$1 col=$2
    shift 2
    awk -F, -v col="$col" -v conds="$*" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(conds, cc, " "); next }
    { ok = 1; for (k = 1; k <= n; k++) { split(cc[k], kv, "="); if ($c[kv[1]] != kv[2]) ok = 0 }
      if (ok) { if ($c[col] == "n/a") print "n/a"; else printf "%.5g\n", $c[col]; exit } }' "$f"
}
# vmax / vmin FILE COLUMN [KEY=VALUE ...]: over every matching row (summary.csv);
# n/a when a matching row has it (an undefined metric is no number).
vext() {
    f=$1 op=$2 col=$3
    shift 3
    awk -F, -v col="$col" -v op="$op" -v conds="$*" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(conds, cc, " "); next }
    { ok = 1; for (k = 1; k <= n; k++) { split(cc[k], kv, "="); if ($c[kv[1]] != kv[2]) ok = 0 }
      if (ok && $c[col] == "n/a") na = 1
      if (ok) { x = $c[col] + 0; if (!seen++ || (op == "max" ? x > m : x < m)) m = x } }
    END { if (na) print "n/a"; else if (seen) printf "%.5g\n", m; else print "nan" }' "$f"
}
vmax() { f=$1; shift; vext "$f" max "$@"; }
vmin() { f=$1; shift; vext "$f" min "$@"; }
# claim TEXT AWK-CONDITION VAR=VALUE...: prints [holds] or [DOES NOT HOLD] TEXT.
claim() {
    text=$1 cond=$2
    shift 2
    if awk "$@" "BEGIN { exit !($cond) }" </dev/null; then
        ok
        echo "  [holds] $text"
    else
        bad "$text"
        echo "  [DOES NOT HOLD] $text"
    fi
}
# lesson NN FIGURE [herd plot options]: runs the lesson, draws it, copies
# its figure.
lesson() {
    l=$1 fig=$2
    shift 2
    echo "== $l"
    if [ -n "${WORKSHOP_SEED:-}" ]; then
        "$HERD" run "$W/$l.ini" -o "$OUT/$l" --quiet --seed "$WORKSHOP_SEED" || { bad "$l: herd run failed"; return 1; }
        return 0
    fi
    "$HERD" run "$W/$l.ini" -o "$OUT/$l" --quiet || { bad "$l: herd run failed"; return 1; }
    "$HERD" plot "$OUT/$l" --quiet "$@" || { bad "$l: herd plot failed"; return 1; }
    cp "$OUT/$l/$fig.png" "$OUT/$l.png" && ok || bad "$l: no $fig.png"
    if [ -n "${WORKSHOP_FIGURES:-}" ]; then cp "$OUT/$l/$fig.png" "$W/$l.png" && ok || bad "$l: cannot copy $fig.png"; fi
}

# 1. The thundering herd
l=01-thundering-herd
if lesson $l timeseries; then
    A=$OUT/$l/aggregate.csv
    ep=$(v "$A" peak_arrivals_per_s_mean strategy=exponential) fp=$(v "$A" peak_arrivals_per_s_mean strategy=full_jitter)
    ef=$(v "$A" failures_mean strategy=exponential) ff=$(v "$A" failures_mean strategy=full_jitter)
    ec=$(v "$A" calls_mean strategy=exponential) fc=$(v "$A" calls_mean strategy=full_jitter)
    n=$(v "$A" clients_mean strategy=exponential)
    claim "exponential's busiest second is at least 4x full jitter's: $ep vs $fp attempts/s" "e >= 4 * f" -v e="$ep" -v f="$fp"
    claim "exponential's busiest second is the whole herd: $ep attempts/s for $n clients" "e == n" -v e="$ep" -v n="$n"
    claim "with exponential more than 40% of the requests fail: $ef of $n" "e > 0.4 * n" -v e="$ef" -v n="$n"
    claim "with full jitter fewer than 1% fail: $ff of $n" "f < 0.01 * n" -v f="$ff" -v n="$n"
    claim "exponential makes at least 2.5x the calls of full jitter: $ec vs $fc" "e >= 2.5 * f" -v e="$ec" -v f="$fc"
fi

# 2. Jitter and the cap
l=02-jitter-and-cap
if lesson $l sweep_peak_arrivals_per_s --metric peak_arrivals_per_s; then
    A=$OUT/$l/aggregate.csv
    for cap in 4 8 16 32 64; do
        ep=$(v "$A" peak_arrivals_per_s_mean retry.cap_s=$cap strategy=exponential)
        fp=$(v "$A" peak_arrivals_per_s_mean retry.cap_s=$cap strategy=full_jitter)
        claim "cap $cap s: exponential's peak is at least 2x full jitter's: $ep vs $fp attempts/s" "e >= 2 * f" -v e="$ep" -v f="$fp"
    done
    ep=$(v "$A" peak_arrivals_per_s_mean retry.cap_s=1 strategy=exponential)
    fp=$(v "$A" peak_arrivals_per_s_mean retry.cap_s=1 strategy=full_jitter)
    claim "cap 1 s: too small a cap defeats jitter, full jitter's peak is higher than exponential's: $fp vs $ep" "f > e" -v e="$ep" -v f="$fp"
    emin=$(vmin "$A" peak_arrivals_per_s_mean strategy=exponential) emax=$(vmax "$A" peak_arrivals_per_s_mean strategy=exponential)
    claim "exponential's peak is the whole herd (2000) at every cap: $emin to $emax" "a == 2000 && b == 2000" -v a="$emin" -v b="$emax"
    r1=$(v "$A" refused_mean retry.cap_s=1 strategy=full_jitter) r64=$(v "$A" refused_mean retry.cap_s=64 strategy=full_jitter)
    claim "full jitter knocks on the closed door 5x less with cap 64 s than with cap 1 s: $r64 vs $r1 refused attempts" "a * 5 <= b" -v a="$r64" -v b="$r1"
    c4=$(v "$A" completion_time_s_mean retry.cap_s=4 strategy=full_jitter) c64=$(v "$A" completion_time_s_mean retry.cap_s=64 strategy=full_jitter)
    claim "the price of a large cap: full jitter finishes at $c64 s with cap 64 s, at $c4 s with cap 4 s" "a > 2 * b" -v a="$c64" -v b="$c4"
    e64=$(v "$A" completion_time_s_mean retry.cap_s=64 strategy=exponential)
    claim "cap 64 s: exponential takes at least 3x as long as full jitter: $e64 vs $c64 s" "e >= 3 * f" -v e="$e64" -v f="$c64"
fi

# 3. Timeouts, budgets and Retry-After
l=03-timeouts-budgets-retry-after
if lesson $l variants; then
    A=$OUT/$l/aggregate.csv S=$OUT/$l/summary.csv
    for b in budget_10s both; do
        m=$(vmax "$S" max_latency_s variant=$b)
        claim "$b: no call takes longer than its 10 s budget (longest $m s, every replication)" "m <= 10.05" -v m="$m"
    done
    m=$(vmin "$S" max_latency_s variant=naive)
    claim "naive: without a budget the longest call outlasts the 30 s outage (at least $m s in every replication)" "m > 30" -v m="$m"
    g=$(v "$A" gave_up_budget_mean variant=budget_10s)
    claim "budget_10s: the budget ends calls ($g per run gave up on it)" "g > 0" -v g="$g"
    for p in "naive retry_after" "budget_10s both"; do
        set -- $p
        i=$(v "$A" status_429_mean variant=$1) h=$(v "$A" status_429_mean variant=$2)
        claim "$2 gets at least 10% fewer 429s than $1: $h vs $i" "h <= 0.9 * i" -v h="$h" -v i="$i"
    done
fi

# 4. Idempotency and duplicate side effects
l=04-idempotency
if lesson $l variants; then
    A=$OUT/$l/aggregate.csv S=$OUT/$l/summary.csv
    m=$(vmax "$S" duplicate_effects variant=logical_op)
    claim "logical_op: no duplicate email in any replication (at most $m)" "m == 0" -v m="$m"
    m=$(vmin "$S" duplicate_effects variant=no_keys)
    claim "no_keys: at least 100 duplicate emails in every replication (at least $m)" "m >= 100" -v m="$m"
    n=$(v "$A" duplicate_effects_mean variant=no_keys) a=$(v "$A" duplicate_effects_mean variant=attempt)
    claim "attempt: a key per attempt is no key, as many duplicates as no_keys: $a vs $n" "a >= 0.95 * n && a <= 1.05 * n" -v a="$a" -v n="$n"
    c=$(v "$A" duplicate_effects_mean variant=check_then_act)
    claim "check_then_act: the right keys, checked by the application, still let duplicates through: $c (no_keys $n)" "c > 0 && c < n" -v c="$c" -v n="$n"
    d=$(vmax "$S" duplicate_effects variant=content_hash) lo=$(v "$A" lost_operations_mean variant=content_hash)
    claim "content_hash: no duplicates (at most $d) but emails lost to colliding hashes: $lo" "d == 0 && lo > 0" -v d="$d" -v lo="$lo"
    d=$(vmax "$S" duplicate_effects variant=safe_policy) u=$(v "$A" unknown_outcomes_mean variant=safe_policy)
    claim "safe_policy: no duplicates (at most $d) but $u calls end with an unknown outcome" "d == 0 && u >= 100" -v d="$d" -v u="$u"
fi

# 5. Layered retries and metastability
l=05-layers-metastability
if lesson $l goodput; then
    A=$OUT/$l/aggregate.csv S=$OUT/$l/summary.csv
    for x in no_retries one_layer two_layers_breaker; do
        m=$(vmin "$S" recovered variant=$x)
        claim "$x: recovers after the spike in every replication" "m == 1" -v m="$m"
    done
    for x in two_layers two_layers_quota; do
        m=$(vmax "$S" recovered variant=$x)
        claim "$x: never recovers after the spike, in any replication" "m == 0" -v m="$m"
    done
    a1=$(v "$A" amplification_mean variant=one_layer) a2=$(v "$A" amplification_mean variant=two_layers)
    aq=$(v "$A" amplification_mean variant=two_layers_quota)
    claim "two layers multiply: amplification $a2 calls per call against $a1 with one layer" "b > 4 && a < 1.5" -v a="$a1" -v b="$a2"
    claim "the quota at the inner layer cuts amplification ($aq against $a2) but the outer loop still keeps the server down" "q < b && q > 1.5" -v q="$aq" -v b="$a2"
    g1=$(v "$A" goodput_per_s_mean variant=one_layer) g2=$(v "$A" goodput_per_s_mean variant=two_layers)
    claim "goodput with two layers is under half of one layer's: $g2 vs $g1 requests/s" "b < 0.5 * a" -v a="$g1" -v b="$g2"
fi

# Every command of every page's "Run it" block, as written (out/ ->
# OUT/pages/, ./herd -> the herd under test).
echo "== the pages' commands"
mkdir -p "$OUT/pages"
for l in $LESSONS; do
    awk '/^## Run it/ { r = 1; next } /^## / { r = 0 } r && /^\.\/herd / { sub(/  *#.*$/, ""); print }' "$W/$l.md" \
        >"$OUT/pages/$l.cmds"
    [ -s "$OUT/pages/$l.cmds" ] && ok || bad "$l.md: no ./herd command under '## Run it'"
    while IFS= read -r cmd; do
        run=$(printf '%s\n' "$cmd" | sed "s# out/# $OUT/pages/#g; s#^\./herd #\"$HERD\" #")
        if sh -c "$run" >"$OUT/pages/out" 2>&1; then
            ok
            echo "  [runs] $cmd"
        else
            bad "$l.md: '$cmd' fails: $(head -3 "$OUT/pages/out")"
        fi
    done <"$OUT/pages/$l.cmds"
done

# Every number of every page against the runs (the lessons' and the
# exercises'), unless the seed is another one
if [ -z "${WORKSHOP_SEED:-}" ]; then
    for l in $LESSONS; do
        echo "== $l: the page's numbers"
        python3 tests/workshop-numbers.py "$W/$l.md" "$W/$l.numbers" --runs "$HERD" "$W/$l.ini" "$OUT/$l-numbers" \
            && ok || bad "$l.md: a number of the page does not match its run (above)"
    done
fi
# preparing the session left the checkout as it was (make figures redraws
# the committed figures)
if [ -z "${WORKSHOP_FIGURES:-}" ]; then
    tracked >"$OUT/tracked.after"
    cmp -s "$OUT/tracked.before" "$OUT/tracked.after" && ok || bad "make workshop changed tracked files: $(diff "$OUT/tracked.before" "$OUT/tracked.after" | head -3)"
fi
echo "workshop: $pass passed, $failn failed (figures in $OUT/, runs in $OUT/)"
[ "$failn" -eq 0 ]
