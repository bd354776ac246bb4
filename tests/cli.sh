#!/bin/sh
# End-to-end tests of the herd command line: help and version, outputs,
# byte-identical determinism, bad input (clear message, exit 2, no output
# files), doc/'s generated references and C example, and the thundering-herd
# acceptance check.
#
#   sh tests/cli.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
T=$(mktemp -d /tmp/herd-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
check() { # check DESCRIPTION COMMAND...: passes if the command succeeds
    d=$1; shift
    if "$@"; then ok; else bad "$d"; fi
}

# expect_fail NAME EXIT FRAGMENT ARGS...: herd exits with EXIT, stderr
# contains FRAGMENT, stdout is empty and no file appears in $T/out-NAME.
expect_fail() {
    name=$1 code=$2 frag=$3; shift 3
    "$HERD" "$@" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    if [ "$rc" -ne "$code" ]; then bad "$name: exit $rc, want $code ($(cat "$T/stderr"))"; return; fi
    if ! grep -qF -- "$frag" "$T/stderr"; then bad "$name: stderr lacks '$frag': $(cat "$T/stderr")"; return; fi
    if [ -s "$T/stdout" ]; then bad "$name: wrote to stdout"; return; fi
    if [ -e "$T/out-$name" ] && [ -n "$(ls -A "$T/out-$name")" ]; then bad "$name: left output files"; return; fi
    ok
}

# --- help and version ---------------------------------------------------
"$HERD" --help >"$T/help" 2>&1 && grep -q 'herd run SCENARIO' "$T/help" && ok || bad "--help"
"$HERD" --version >"$T/ver" 2>&1 && grep -q '^herd [0-9]' "$T/ver" && ok || bad "--version"
"$HERD" keys | grep -q 'attempt_timeout_s' && ok || bad "keys"
expect_fail noargs 2 "usage:"
expect_fail unknown-cmd 2 "unknown command 'frobnicate'" frobnicate
expect_fail unknown-opt 2 "unknown option '--frob'" run scenarios/thundering-herd.ini --frob
expect_fail no-scenario 2 "run needs a scenario file" run
expect_fail two-scenarios 2 "one scenario per run" run a.ini b.ini
expect_fail seed-missing 2 "--seed needs a value" run scenarios/thundering-herd.ini --seed
expect_fail jobs-bad 2 "--jobs: expected an integer in [1, 64]" run scenarios/thundering-herd.ini --jobs 0

# --- a small scenario -----------------------------------------------------
cat >"$T/small.ini" <<'INI'
[run]
strategies = immediate, constant, exponential, full_jitter, equal_jitter, decorrelated_jitter
replications = 3
seed = 7
bucket_s = 0.5
[clients]
count = 300
[network]
delay_s = normal(0.005, 0.001)
[server]
workers = 10
queue = 50
service_time_s = exponential(0.05)
error_rate_500 = 0.02
[outage 1]
start_s = 0
end_s = 3
[retry]
base_s = 0.2
cap_s = 10
max_attempts = 6
attempt_timeout_s = 2
INI
if "$HERD" run "$T/small.ini" -o "$T/a" >"$T/a.out" 2>&1; then ok; else bad "small run: $(cat "$T/a.out")"; fi
for f in summary aggregate timeseries; do
    [ -s "$T/a/$f.csv" ] && ok || bad "missing $f.csv"
done
grep -q "wrote $T/a/summary.csv" "$T/a.out" && ok || bad "run does not say where the CSVs went"
ls -A "$T/a" | grep -q '\.tmp\.' && bad "temporary files left behind" || ok
head -1 "$T/a/summary.csv" | grep -q '^strategy,replication,seed,clients,completion_time_s,calls,refused,successes,failures,' \
    && ok || bad "summary header: $(head -1 "$T/a/summary.csv")"
for col in late_replies peak_inflight peak_arrivals_per_s mean_latency_s p50_latency_s p99_latency_s events; do
    head -1 "$T/a/summary.csv" | tr ',' '\n' | grep -qx "$col" && ok || bad "summary lacks $col"
done
head -1 "$T/a/aggregate.csv" | grep -q '^strategy,replications,clients_mean,clients_ci95,completion_time_s_mean,completion_time_s_ci95,' \
    && ok || bad "aggregate header"
head -1 "$T/a/timeseries.csv" | grep -qx 'strategy,replication,time_s,arrivals,refused,in_flight,successes,errors,retries_scheduled,offered,goodput,turned_away' \
    && ok || bad "timeseries header"
[ "$(tail -n +2 "$T/a/summary.csv" | wc -l)" -eq 18 ] && ok || bad "summary rows != 6 x 3"
[ "$(cut -d, -f1 "$T/a/aggregate.csv" | tail -n +2 | tr '\n' ' ')" = \
  "immediate constant exponential full_jitter equal_jitter decorrelated_jitter " ] && ok || bad "strategy names"
# every summary row accounts for all 300 requests
awk -F, 'NR > 1 && $8 + $9 + $10 != 300 { exit 1 }' "$T/a/summary.csv" && ok || bad "successes + failures + unfinished != clients"

# --- determinism ---------------------------------------------------------
"$HERD" run "$T/small.ini" -o "$T/b" --quiet --jobs 1 && ok || bad "run --jobs 1"
"$HERD" run "$T/small.ini" -o "$T/c" --quiet --jobs 2 && ok || bad "run --jobs 2"
for f in summary aggregate timeseries; do
    cmp -s "$T/a/$f.csv" "$T/b/$f.csv" && ok || bad "$f.csv differs between identical runs"
    cmp -s "$T/b/$f.csv" "$T/c/$f.csv" && ok || bad "$f.csv depends on --jobs"
done
"$HERD" run "$T/small.ini" -o "$T/d" --quiet --seed 8 && ok || bad "run --seed 8"
cmp -s "$T/a/summary.csv" "$T/d/summary.csv" && bad "--seed changes nothing" || ok
"$HERD" run "$T/small.ini" -o "$T/q" --quiet >"$T/q.out" 2>&1 && [ ! -s "$T/q.out" ] && ok || bad "--quiet printed"
"$HERD" run "$T/small.ini" -o "$T/e" --quiet --replications 2 --set clients.count=100 --set 'outage 1.end_s=1' \
    && [ "$(tail -n +2 "$T/e/summary.csv" | wc -l)" -eq 12 ] && awk -F, 'NR > 1 && $4 != 100 { exit 1 }' "$T/e/summary.csv" \
    && ok || bad "--replications / --set"
(cd "$T" && "$HERD" run small.ini --quiet) && [ -s "$T/out/small/summary.csv" ] && ok || bad "default output dir out/<name>/"

# --- bad input: clear message, exit 2, no output ---------------------------
printf '[server]\nworkers = many\n' >"$T/bad1.ini"
expect_fail badnum 2 "$T/bad1.ini:2: [server] workers: expected an integer in [1, 10000000], got 'many'" \
    run "$T/bad1.ini" -o "$T/out-badnum"
printf '[run]\nreplications = 3\n[retry]\nbase_s = 5\ncap_s = 1\n' >"$T/bad2.ini"
expect_fail capbase 2 "$T/bad2.ini:5: [retry] cap_s (1 s) is below base_s (5 s)" run "$T/bad2.ini" -o "$T/out-capbase"
expect_fail missing 2 "$T/nope.ini: cannot open scenario: No such file or directory" run "$T/nope.ini" -o "$T/out-missing"
expect_fail dir 2 "is a directory" run "$T" -o "$T/out-dir"
: >"$T/empty.ini"
expect_fail empty 2 "the file is empty" run "$T/empty.ini" -o "$T/out-empty"
expect_fail badset 2 "--set server.queue=-1: [server] queue: expected an integer" \
    run "$T/small.ini" -o "$T/out-badset" --set server.queue=-1
expect_fail badseed 2 "[run] seed: expected an integer" run "$T/small.ini" -o "$T/out-badseed" --seed 0
expect_fail badstrat 2 "unknown strategy 'fulljitter'" run "$T/small.ini" -o "$T/out-badstrat" --set run.strategies=fulljitter
# an output directory that cannot be created: exit 1, names the path
expect_fail outfile 1 "$T/small.ini/x: cannot create output directory" run "$T/small.ini" -o "$T/small.ini/x"
# a failed run leaves the previous complete outputs untouched
cp "$T/a/summary.csv" "$T/a.keep"
expect_fail keep 2 "expected an integer" run "$T/small.ini" -o "$T/a" --set clients.count=x
cmp -s "$T/a/summary.csv" "$T/a.keep" && ok || bad "failed run changed previous output"

# --- interrupting a run leaves the previous complete outputs ---------------
"$HERD" run "$T/small.ini" -o "$T/int" --quiet && cp "$T/int/summary.csv" "$T/int.keep" || bad "run before interrupt"
"$HERD" run scenarios/thundering-herd.ini -o "$T/int" --quiet --jobs 1 --set clients.count=1000000 &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] && ok || bad "SIGINT: exit $rc, want 130"
cmp -s "$T/int/summary.csv" "$T/int.keep" && ok || bad "SIGINT changed the previous summary.csv"
[ -z "$(ls -A "$T/int" | grep tmp)" ] && ok || bad "SIGINT left temporaries: $(ls -A "$T/int")"

# --- the examples of README.md and doc/*.md: tests/docs.sh runs every sh
# block of them (the ./herd lines this section used to run among them),
# each page in a copy of the tree, and checks every link.

# --- doc/: the references are herd keys', columns' and presets' output; the
# C example of doc/library.md builds and runs
ROOT=$(cd "$(dirname "$0")/.." && pwd)
sed -n '/<!-- keys:begin -->/,/<!-- keys:end -->/p' "$ROOT/doc/scenarios.md" | sed '1d;$d' >"$T/readme-keys"
"$HERD" keys >"$T/keys"
cmp -s "$T/readme-keys" "$T/keys" && ok || bad "doc/scenarios.md: the key reference differs from herd keys (run make readme-keys)"
sed -n '/<!-- columns:begin -->/,/<!-- columns:end -->/p' "$ROOT/doc/outputs.md" | sed '1d;$d' >"$T/readme-columns"
"$HERD" columns >"$T/columns" && cmp -s "$T/readme-columns" "$T/columns" && ok || bad "doc/outputs.md: the column table differs from herd columns (run make readme-keys)"
sed -n '/<!-- presets:begin -->/,/<!-- presets:end -->/p' "$ROOT/doc/presets.md" | sed '1d;$d' >"$T/readme-presets"
"$HERD" presets >"$T/presets-out" && cmp -s "$T/readme-presets" "$T/presets-out" && ok || bad "doc/presets.md: the preset table differs from herd presets (run make readme-keys)"
! "$HERD" columns | grep -q undocumented && ok || bad "a summary.csv column has no meaning in herd columns"
awk '/^```c$/ { on = 1; next } /^```$/ { on = 0 } on' "$ROOT/doc/library.md" >"$T/example.c"
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$ROOT/sim/policy" "$T/example.c" "$ROOT/build/libherdpolicy.a" -lm \
    -o "$T/example" 2>"$T/cc.err" && "$T/example" >"$T/example.out"; then
    grep -q 'gave up after 5 attempts: attempts_exhausted' "$T/example.out" && ok || bad "doc/library.md: C example output: $(cat "$T/example.out")"
else
    bad "doc/library.md: C example does not build or run: $(cat "$T/cc.err")"
fi

# --- acceptance: the thundering herd ---------------------------------------
# Exponential backoff without jitter must show a higher peak arrival rate
# than full jitter, with non-overlapping 95% CIs over 10 replications.
"$HERD" run scenarios/thundering-herd.ini -o "$T/th" --quiet && ok || bad "thundering-herd run"
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{ m[$1] = $col["peak_arrivals_per_s_mean"]; h[$1] = $col["peak_arrivals_per_s_ci95"]; r[$1] = $col["replications"] }
END {
    printf "thundering herd: peak_arrivals_per_s exponential %.0f +/- %.0f, full_jitter %.0f +/- %.0f (%d replications)\n",
        m["exponential"], h["exponential"], m["full_jitter"], h["full_jitter"], r["exponential"]
    exit !(r["exponential"] >= 10 && m["exponential"] - h["exponential"] > m["full_jitter"] + h["full_jitter"])
}' "$T/th/aggregate.csv" && ok || bad "exponential peak_arrivals_per_s not above full_jitter's"

# --- acceptance: the AWS 2015 findings at N = 100 (30 replications) ----------
"$HERD" run scenarios/aws-2015-occ.ini -o "$T/aws" --quiet --replications 30 --set 'sweep clients.values=100' \
    --set run.timeseries=none && ok || bad "aws-2015-occ run"
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{ s = $c["strategy"]; t[s] = $c["completion_time_s_mean"]; th[s] = $c["completion_time_s_ci95"]
  k[s] = $c["calls_mean"]; kh[s] = $c["calls_ci95"] }
END {
    bad = 0
    if (!(t["immediate"] + th["immediate"] < t["decorrelated_jitter"] - th["decorrelated_jitter"])) { print "no backoff not fastest"; bad = 1 }
    if (!(k["immediate"] - kh["immediate"] > k["exponential"] + kh["exponential"])) { print "no backoff not most calls"; bad = 1 }
    if (!(t["exponential"] - th["exponential"] > 3 * (t["equal_jitter"] + th["equal_jitter"]))) { print "exponential not slowest by far"; bad = 1 }
    if (!(k["full_jitter"] + kh["full_jitter"] < 0.5 * (k["exponential"] - kh["exponential"]))) { print "full jitter calls not < half"; bad = 1 }
    if (!(k["decorrelated_jitter"] - kh["decorrelated_jitter"] > k["full_jitter"] + kh["full_jitter"])) { print "decorrelated calls not > full"; bad = 1 }
    if (!(t["equal_jitter"] - th["equal_jitter"] > t["full_jitter"] + th["full_jitter"])) { print "equal not slower than full"; bad = 1 }
    exit bad
}' "$T/aws/aggregate.csv" && ok || bad "AWS 2015 findings at N = 100"
head -1 "$T/aws/summary.csv" | grep -q '^clients.count,strategy,replication,' && ok || bad "sweep column in summary.csv"
[ -s "$T/aws/compare.csv" ] && grep -q '^100,full_jitter,exponential,30,' "$T/aws/compare.csv" && ok || bad "compare.csv"

# --- the live view: frames on stdout, then the same outputs as without it ----
"$HERD" run "$T/small.ini" -o "$T/live" --quiet --replications 2 --live=100000 >"$T/live.out" 2>&1 && ok || bad "--live run: $(tail -3 "$T/live.out")"
grep -aq "herd live: " "$T/live.out" && grep -aq "live view done at t = " "$T/live.out" && grep -aq "^.*full_jitter *|" "$T/live.out" \
    && ok || bad "--live printed no frames"
"$HERD" run "$T/small.ini" -o "$T/nolive" --quiet --replications 2 && cmp -s "$T/live/summary.csv" "$T/nolive/summary.csv" \
    && cmp -s "$T/live/timeseries.csv" "$T/nolive/timeseries.csv" && ok || bad "--live changed the outputs"
expect_fail livebad 2 "--live=0: expected a speed" run "$T/small.ini" -o "$T/livebad" --live=0

# --- variants paired against a baseline variant (compare_variants.csv) -------
printf '[run]\nbaseline_variant = plain\nreplications = 4\nstrategies = exponential, full_jitter\n[clients]\ncount = 200\n[outage 1]\nstart_s = 0\nend_s = 5\n[variant plain]\n[variant quota]\nlimits.limiter = aws_quota\n' >"$T/bv.ini"
"$HERD" run "$T/bv.ini" -o "$T/bv" --quiet --sweep server.workers=50,100 && ok || bad "baseline_variant run"
# the baseline's own rows are 0 +/- 0; the quota variant's retries are paired and lower
awk -F, 'NR > 1 && $1 == "plain" { if ($6 != 0 || $7 != 0) bad = 1; n++ }
         NR > 1 && $1 == "quota" { m++ }
         END { exit !(n == 4 && m == 4 && !bad) }' "$T/bv/compare_variants.csv" && ok || bad "compare_variants.csv rows"
head -1 "$T/bv/compare_variants.csv" | grep -q '^variant,server.workers,strategy,baseline_variant,replications,completion_time_s_change_pct_mean,' \
    && ok || bad "compare_variants.csv header"
expect_fail bvbad 2 "baseline_variant = nobody is not a [variant]" run "$T/bv.ini" -o "$T/bvbad" --set run.baseline_variant=nobody

# --- a 2-D sweep with a baseline gets the sensitivity map --------------------
"$HERD" run "$T/small.ini" -o "$T/sens" --quiet --replications 2 --set run.baseline=exponential \
    --sweep server.workers=5,10 --sweep 'outage 1.end_s=1,2,3' --set run.timeseries=none --plot >/dev/null \
    && [ -s "$T/sens/sensitivity.png" ] && [ -s "$T/sens/sensitivity.svg" ] && ok || bad "sensitivity plot"

# --- failure semantics (issue 4): the acceptance checks ---------------------
# byname FILE PROGRAM: awk with v("column") for the current row's value.
byname() {
    awk -F, -v prog="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        function v(name) { if (!(name in c)) { print "no column " name; exit 2 } return $c[name] + 0 }
        function s(name) { return $c[name] }
        '"$2" "$1"
}
"$HERD" run scenarios/idempotency.ini -o "$T/idem" --quiet --replications 5 && ok || bad "idempotency run"
byname "$T/idem/summary.csv" '
    s("variant") == "logical_op" && v("duplicate_effects") != 0 { print "logical_op duplicated"; bad = 1 }
    s("variant") == "no_keys" && v("duplicate_effects") == 0 { print "no_keys without duplicates"; bad = 1 }
    s("variant") == "check_then_act" && v("duplicate_effects") == 0 { print "check_then_act without duplicates"; bad = 1 }
    s("variant") == "content_hash" && v("lost_operations") == 0 { print "content_hash lost nothing"; bad = 1 }
    s("variant") == "safe_policy" && (v("duplicate_effects") != 0 || v("unknown_outcomes") == 0) { print "safe_policy"; bad = 1 }
    s("variant") != "content_hash" && v("lost_operations") != 0 { print s("variant") " lost operations"; bad = 1 }
    END { exit bad }' && ok || bad "idempotency: duplicates and lost operations per variant"
byname "$T/idem/aggregate.csv" '
    { m[s("variant")] = v("duplicate_effects_mean"); h[s("variant")] = v("duplicate_effects_ci95") }
    END { d = m["attempt"] - m["no_keys"]; if (d < 0) d = -d; exit !(d <= h["attempt"] + h["no_keys"]) }' \
    && ok || bad "idempotency: attempt-scoped keys not as bad as no keys"

"$HERD" run scenarios/agent-tools.ini -o "$T/tools" --quiet --replications 3 && ok || bad "agent-tools run"
[ "$(tail -n +2 "$T/tools/tools.csv" | wc -l)" -eq 12 ] && ok || bad "tools.csv: one row per variant and tool"
byname "$T/tools/tools.csv" '{ r[s("variant")] += v("requests_mean"); d[s("variant")] += v("duplicate_effects_mean") }
    END { for (k in r) if (r[k] < 9999.99 || r[k] > 10000.01) bad = 1; exit bad || d["with_keys"] != 0 || d["naive_retries"] == 0 }' \
    && ok || bad "tools.csv: requests do not add up, or duplicates misplaced"
"$HERD" run scenarios/rate-limit.ini -o "$T/rl" --quiet --replications 5 && ok || bad "rate-limit run"
byname "$T/rl/aggregate.csv" '
    { k = s("strategy"); if (s("variant") == "honour_retry_after") { hm[k] = v("status_429_mean"); hh[k] = v("status_429_ci95") }
      else { im[k] = v("status_429_mean"); ih[k] = v("status_429_ci95") } }
    END { for (k in hm) if (!(hm[k] + hh[k] < im[k] - ih[k])) { print k; bad = 1 } exit bad }' \
    && ok || bad "rate-limit: honouring Retry-After does not give fewer 429s"

"$HERD" run scenarios/non-retryable.ini -o "$T/nr" --quiet --replications 3 && ok || bad "non-retryable run"
byname "$T/nr/summary.csv" '
    s("variant") != "allow_list" && v("non_retryable_replies") != v("non_retryable_failures") { bad = 1 }
    v("non_retryable_replies") == 0 { bad = 1 }
    END { exit bad }' && ok || bad "non-retryable: a 4xx or 501 was retried"

"$HERD" run scenarios/deadline.ini -o "$T/dl" --quiet --replications 3 && ok || bad "deadline run"
byname "$T/dl/summary.csv" '
    s("variant") == "budget_10s" && v("max_latency_s") > 10 + 0.01 { bad = 1 }
    s("variant") == "budget_5s" && v("max_latency_s") > 5 + 0.01 { bad = 1 }
    s("variant") != "attempts_only" && v("gave_up_budget") == 0 { bad = 1 }
    END { exit bad }' && ok || bad "deadline: a logical request ran past its budget"

# --- layers and metastability (issue 5) --------------------------------------
"$HERD" run scenarios/layers.ini -o "$T/layers" --quiet --replications 3 && ok || bad "layers run"
byname "$T/layers/aggregate.csv" '
    { a[s("variant")] = v("amplification_mean"); d[s("variant")] = v("duplicate_effects_mean") }
    END { exit !(a["all_layers"] > 2 * a["one_layer"] && d["intent_dedup"] < d["all_layers"] / 2) }' \
    && ok || bad "layers: amplification or intent de-duplication"
"$HERD" run scenarios/metastable.ini -o "$T/meta" --quiet --replications 2 && ok || bad "metastable run"
byname "$T/meta/summary.csv" '
    s("variant") == "plain_retries" && v("recovered") != 0 { print "plain retries recovered"; bad = 1 }
    s("variant") ~ /^(no_retries|token_bucket|grpc_throttling|circuit_breaker|lifo|adaptive_lifo|adaptive_lifo_token_bucket)$/ && (v("recovered") != 1 || v("recovery_time_s") > 60) { print s("variant") " did not recover"; bad = 1 }
    END { exit bad }' && ok || bad "metastable: plain retries recover, or the mitigations do not"
# the map, reduced (2 loads x 2 spikes, 2 replications, 160 s), and its figures
"$HERD" run scenarios/metastable-map.ini -o "$T/map" --quiet --replications 2 --set run.horizon_s=160 \
    --set 'sweep load.values=500,900' --set 'sweep trigger.values=102,110' && ok || bad "metastable-map run"
head -1 "$T/map/aggregate.csv" | grep -q ',recovered_mean,recovered_ci95,recovered_lo,recovered_hi,recovered_n,recovery_time_s_mean,recovery_time_s_ci95,recovery_time_s_n,' \
    && ok || bad "aggregate.csv: recovered_lo/hi/n, recovery_time_s_n"
# 2 of 2: Wilson [0.3424, 1]; 0 of 2: [0, 0.6576]; the time is over the recovered runs only
byname "$T/map/aggregate.csv" '
    s("variant") == "no_retries" && s("clients.rate_per_s") == "500" && !(v("recovered_mean") == 1 && v("recovered_lo") > 0.342 && v("recovered_lo") < 0.343 && v("recovered_hi") == 1 && v("recovered_n") == 2 && v("recovery_time_s_n") == 2) { print "no_retries at 500/s"; bad = 1 }
    s("variant") == "plain_retries" && s("clients.rate_per_s") == "900" && !(v("recovered_mean") == 0 && v("recovered_hi") > 0.657 && v("recovered_hi") < 0.658 && v("recovery_time_s_n") == 0 && s("recovery_time_s_mean") == "n/a") { print "plain_retries at 900/s"; bad = 1 }
    END { exit bad }' && ok || bad "metastable-map: recovery aggregates"
mkdir -p "$T/mapfig" && sh tests/map-figure.sh "$T/map" "$T/mapfig" >/dev/null 2>&1 \
    && [ -s "$T/mapfig/metastable-map.png" ] && [ -s "$T/mapfig/metastable-boundaries.png" ] && ok || bad "map figures"

"$HERD" run scenarios/hedging.ini -o "$T/hedge" --quiet --replications 3 && ok || bad "hedging run"
byname "$T/hedge/aggregate.csv" '
    { p[s("variant")] = v("p99_latency_s_mean"); h[s("variant")] = v("hedges_mean"); l[s("variant")] = v("late_replies_mean"); k[s("variant")] = v("calls_mean") }
    END { exit !(p["hedge_p95"] < p["no_hedging"] / 1.5 && h["no_hedging"] == 0 && h["hedge_p95"] > 0 &&
                 l["hedge_p95"] >= h["hedge_p95"] && k["hedge_p95"] < 1.1 * k["no_hedging"]) }' \
    && ok || bad "hedging: p99 not shorter, or copies not counted"

# --- the 62/65 claim, as the issue states it --------------------------------
"$HERD" run scenarios/jitter-62-65.ini -o "$T/j6265" --quiet --replications 200 && ok || bad "jitter-62-65 run"
byname "$T/j6265/compare.csv" '{ m[s("strategy")] = -v("completion_time_s_change_pct_mean"); h[s("strategy")] = v("completion_time_s_change_pct_ci95") }
    END { f = m["full_jitter"]; d = m["decorrelated_jitter"]
          exit !(f >= 59 && f <= 65 && d >= 62 && d <= 68 && d > f && h["full_jitter"] <= 1.5 && h["decorrelated_jitter"] <= 1.5) }' \
    && ok || bad "jitter-62-65: reductions outside 62 +/- 3 and 65 +/- 3, or CIs too wide"
byname "$T/j6265/aggregate.csv" '{ p[s("strategy")] = v("peak_inflight_mean"); h[s("strategy")] = v("peak_inflight_ci95") }
    END { for (k in p) if (k != "exponential" && !(p[k] + h[k] < p["exponential"] - h["exponential"])) bad = 1; exit bad }' \
    && ok || bad "jitter-62-65: exponential does not have the highest peak in-flight"

# --- herd presets and library presets end to end ------------------------------
"$HERD" presets >"$T/presets" && ok || bad "presets"
[ "$(awk -F'|' '/^\| `[a-z0-9_]+` \|/ && NF >= 7 { n++ } END { print n + 0 }' "$T/presets")" -ge 36 ] && ok \
    || bad "presets: fewer than 18 presets in both tables"
awk -F'|' '/^Sources/ { src = 1 } src && /^\| `/ { if ($3 ~ /^ *$/ || $4 ~ /^ *$/ || $5 ~ /^ *$/) bad = 1; n++ }
    END { exit bad || n < 18 }' "$T/presets" && ok || bad "presets: a preset without repository, file or version"
expect_fail presetsarg 2 "presets takes no argument" presets extra
# A server that always answers 503: attempts per logical request are the
# products of the presets' attempts (hand computed: 3, 5, 3 x 3, 3 x 4).
cat >"$T/fail.ini" <<'EOT'
[run]
replications = 1
[clients]
count = 40
[outage all]
start_s = 0
end_s = 100000
EOT
for c in "openai_python|3" "go_retryablehttp|5" "langchain_with_retry,openai_python|9" "llamaindex_openai|12"; do
    ps=${c%|*} want=${c#*|} args="" i=0
    for pr in $(echo "$ps" | tr , ' '); do i=$((i + 1)); args="$args --set 'layer l$i.preset=$pr'"; done
    if eval "\"\$HERD\" run \"\$T/fail.ini\" -o \"\$T/fail-$i-$want\" --quiet $args"; then
        byname "$T/fail-$i-$want/summary.csv" "{ if (v(\"calls\") != 40 * $want) { print v(\"calls\"); bad = 1 } } END { exit bad }" \
            && ok || bad "preset $ps: not $want attempts per request against a failing server"
    else bad "preset $ps: run failed"; fi
done

# agent-stack: attempts per step against the hand computation.  Whole-run
# 50% outage, no rate limit: every attempt fails with p = 0.5 on its own.
# SDK call 1 + 0.5 + 0.25 = 1.75 attempts (variance 0.6875), fails with
# 0.125; agent x 3: 1.75 (1 + 0.125 + 0.125^2) = 1.99609 (variance 1.9336);
# with a 3-attempt framework between: 2.0000 (variance 2.0000).  12000
# steps (2 replications): tolerance 4.5 standard errors.  100% outage: the
# worst cases 9, 27, 27, 3 exactly.
"$HERD" run scenarios/agent-stack.ini -o "$T/as-hand" --quiet --replications 2 --set 'outage llm.start_s=0' \
    --set 'outage llm.end_s=100000' --set server.rate_limit_rps=0 && ok || bad "agent-stack hand run"
byname "$T/as-hand/aggregate.csv" '
    function chk(want, var) { d = v("amplification_mean") - want; if (d < 0) d = -d
        if (d > 4.5 * sqrt(var / 12000)) { print s("variant") " " v("amplification_mean") " want " want; bad = 1 } }
    s("variant") == "chatopenai" { chk(1.99609375, 1.93358) }
    s("variant") == "with_retry" || s("variant") == "langgraph" { chk(2.0, 2.0) }
    s("variant") == "one_budgeted_layer" { chk(1.75, 0.6875) }
    END { exit bad || NR != 5 }' && ok || bad "agent-stack: expected attempts per step differ from the hand computation"
"$HERD" run scenarios/agent-stack.ini -o "$T/as-worst" --quiet --replications 1 --set 'outage llm.start_s=0' \
    --set 'outage llm.end_s=100000' --set 'outage llm.error_p=1' --set server.rate_limit_rps=0 && ok || bad "agent-stack worst run"
byname "$T/as-worst/aggregate.csv" '
    { w = s("variant") == "chatopenai" ? 9 : s("variant") == "one_budgeted_layer" ? 3 : 27
      if (v("amplification_mean") != w) { print s("variant") " " v("amplification_mean"); bad = 1 } }
    END { exit bad }' && ok || bad "agent-stack: worst cases are not 9, 27, 27, 3"

# quota-per-instance: one AWS retry quota per host (clients_per_instance = 4)
# against one for the fleet.  The shipped brownout: the hosts' quotas
# refuse nothing (the run is the no_quota one's: the same calls within 1%;
# not call for call, since no_quota computes its clients ahead and the
# quotas' runs cannot, doc/design.md), the shared one most retries.  By hand, a permanent fail-fast outage from t = 20 s
# with 100 hosts: no success refunds anything, so each quota of 500 tokens
# passes exactly 500 / 5 = 100 retries: 100 shared, 100 x 100 per host.
"$HERD" run scenarios/quota-per-instance.ini -o "$T/qpi" --quiet --replications 2 && ok || bad "quota-per-instance run"
byname "$T/qpi/summary.csv" '
    { k = v("replication"); c[s("variant"), k] = v("calls"); d[s("variant"), k] = v("retries_denied"); f[s("variant"), k] = v("failures") }
    END { for (k = 0; k < 2; k++)
            if (!(d["per_host", k] == 0 && d["shared", k] > 1000 &&
                  (c["per_host", k] - c["no_quota", k]) ^ 2 < (0.01 * c["no_quota", k]) ^ 2 &&
                  3 * f["per_host", k] < f["shared", k])) { print "replication " k; bad = 1 }
          exit bad || NR != 7 }' && ok || bad "quota-per-instance: per-host quotas refuse, or shared does not"
"$HERD" run scenarios/quota-per-instance.ini -o "$T/qpi-hand" --quiet --replications 1 --set clients.count=400 \
    --set clients.requests_per_client=100 --set 'outage brownout.end_s=100000' --set 'outage brownout.error_p=1' \
    && byname "$T/qpi-hand/summary.csv" '
    s("variant") == "shared" && v("retries") != 100 { print "shared " v("retries"); bad = 1 }
    s("variant") == "per_host" && v("retries") != 10000 { print "per_host " v("retries"); bad = 1 }
    END { exit bad || NR != 4 }' && ok || bad "quota-per-instance: a quota per host does not pass exactly 100 retries"

# --- CoDel against a hand trace: 4 requests at t = 0 on 1 worker (1 s
# each, no hops): one served at once, 3 wait.  At t = 1 the interval
# [0, 1) had a request served at once (min 0): not overloaded, the next
# waited 1 s is served.  At t = 2 the min of [1, 2) is 1 s > 0.5 s: both
# still waiting (2 s) are dropped with 503.
cat >"$T/codel.ini" <<'EOF_CODEL'
[run]
horizon_s = 100
replications = 1
strategies = exponential
[clients]
count = 4
[network]
delay_s = 0
[server]
workers = 1
queue = 10
service_time_s = constant(1)
codel_target_s = 0.5
codel_interval_s = 0.25
[retry]
max_attempts = 1
EOF_CODEL
"$HERD" run "$T/codel.ini" -o "$T/codel" --quiet && byname "$T/codel/summary.csv" '
    { exit !(v("successes") == 2 && v("codel_dropped") == 2 && v("rejected") == 0 && v("failures") == 2 && v("completion_time_s") == 2) }' \
    && ok || bad "CoDel hand trace: want 2 served, 2 dropped at t = 2 (codel_dropped, not rejected): $(cat "$T/codel/summary.csv")"

# --- mechanisms.csv: written with [limits] mechanisms only -------------------
"$HERD" run scenarios/metastable.ini -o "$T/mech" --quiet --replications 1 --set clients.count=60000 \
    && head -1 "$T/mech/mechanisms.csv" | grep -q '^variant,strategy,replication,time_s,breaker_open_s,breaker_half_open_s,throttle_reject_p,throttle_requests,throttle_accepts,limiter_allowed,limiter_denied,limiter_balance$' \
    && byname "$T/mech/mechanisms.csv" '$1 == "circuit_breaker" { o += v("breaker_open_s") } $1 == "retry_budget" { a += v("limiter_allowed") }
         END { exit !(o > 1 && a > 100) }' \
    && ok || bad "mechanisms.csv: missing, wrong header, or no breaker time or budget retries"

# --- sweeps from the command line -------------------------------------------
"$HERD" run "$T/small.ini" -o "$T/sw" --quiet --replications 2 --sweep server.workers=5:15:5 --sweep clients.count=50,100 \
    && [ "$(tail -n +2 "$T/sw/aggregate.csv" | wc -l)" -eq 36 ] \
    && head -1 "$T/sw/aggregate.csv" | grep -q '^server.workers,clients.count,strategy,replications,' \
    && ok || bad "--sweep grid"
[ ! -f "$T/sw/mechanisms.csv" ] && ok || bad "mechanisms.csv written for a scenario without [limits] mechanisms"
expect_fail badsweep 2 "--sweep clients.count=x: [clients] count: expected an integer" run "$T/small.ini" -o "$T/out-badsweep" --sweep clients.count=1,x
expect_fail badsweep2 2 "expected section.key=FROM:TO:STEP" run "$T/small.ini" -o "$T/out-badsweep2" --sweep clients.count

# --- zero is a legitimate size --------------------------------------------
# A low-rate trace (0.2/s for 10 s): replication 6 of seed 1 draws no
# arrival.  That replication is a result (a row of zeros and n/a), not an
# error, and herd plot draws the folder.
printf 'time_s,rate_per_s\n0,0.2\n10,0.2\n' >"$T/low.csv"
printf '[clients]\nstart = trace\ntrace_file = low.csv\n[run]\nhorizon_s = 20\nreplications = 10\n' >"$T/low.ini"
if "$HERD" run "$T/low.ini" -o "$T/out-low" --quiet 2>"$T/stderr"; then
    awk -F, 'NR > 1 && $4 == 0 { z = 1 } END { exit !z }' "$T/out-low/summary.csv" && ok ||
        bad "low-rate trace: no replication without arrivals (the test no longer covers zero)"
    "$HERD" plot "$T/out-low" --quiet 2>"$T/stderr" && [ -s "$T/out-low/replay.png" ] && ok ||
        bad "low-rate trace: herd plot: $(cat "$T/stderr")"
else
    bad "low-rate trace with an empty replication: $(cat "$T/stderr")"
fi

# --- error messages name the right place ----------------------------------
printf '[clients]\ncount = 5\n[server]\nerror_rate_503 = 0.6\n' >"$T/er.ini"
expect_fail er-set 2 "--set server.error_rate_500=0.6: [server] the error_rate_* probabilities sum to 1.2" \
    run "$T/er.ini" -o "$T/out-er-set" --set server.error_rate_500=0.6
expect_fail er-last 2 "--set server.error_rate_503=0.9: [server] the error_rate_* probabilities sum to 1.5" \
    run "$T/er.ini" -o "$T/out-er-last" --set server.error_rate_500=0.3 --set server.error_rate_500=0.6 --set run.seed=2 \
    --set server.error_rate_503=0.9
expect_fail seed-0 2 "--seed 0: [run] seed" run "$T/er.ini" -o "$T/out-seed-0" --seed 0
expect_fail reps-0 2 "--replications 0: [run] replications" run "$T/er.ini" -o "$T/out-reps-0" --replications 0
expect_fail rare-seed-0 2 "--seed 0: [run] seed" rare "$T/er.ini" --levels 3 -o "$T/out-rare-seed-0" --seed 0
expect_fail limits-set 2 "--set limits.aws_capacity=3: [limits] aws_capacity: aws_retry_cost exceeds aws_capacity" \
    run "$T/er.ini" -o "$T/out-limits-set" --set limits.limiter=aws_quota --set limits.aws_capacity=3
# a byte-order mark opening a data file is not part of its header
printf '\357\273\277value_s\n0.01\n0.02\n' >"$T/bom.csv"
printf '[clients]\ncount = 5\n[server]\nservice_time_s = empirical(bom.csv)\n' >"$T/bom.ini"
"$HERD" check "$T/bom.ini" >/dev/null 2>"$T/stderr" && ok || bad "data file with a BOM: $(cat "$T/stderr")"
# the longest line (198 characters) is as long with CRLF as with LF
c198=$(printf '%0196d' 0)
printf '[clients]\r\ncount = 5\r\n; %s\r\n' "$c198" >"$T/crlf.ini"
"$HERD" check "$T/crlf.ini" >/dev/null 2>"$T/stderr" && ok || bad "198-character CRLF line: $(cat "$T/stderr")"
printf '[clients]\r\ncount = 5\r\n; %s0\r\n' "$c198" >"$T/crlf199.ini"
expect_fail crlf199 2 "crlf199.ini:3: line longer than 198 characters" check "$T/crlf199.ini"

echo "cli: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
