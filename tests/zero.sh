#!/bin/sh
# An explicit 0 in a scenario is 0 or is refused, for every key whose
# library field reads 0 as its default (doc/scenarios.md, "Zero is zero").
#
#   - every [limits] key that refuses 0 does so, from a file line and from
#     --set: exit 2, FILE:LINE or --set, the key and the reason, no output;
#   - every key that maps 0 to the library's HP_OFF runs as 0, against the
#     default, on a scenario where the two must differ (measured counts);
#   - the Finagle case of issue 29: percent 0.1, no minimum, TTL 100 s,
#     10,000 requests at 50% failure allow exactly 1,000 retries.
#
#   sh tests/zero.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/herd-zero.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }

# col DIR NAME: column NAME of the first row of DIR/summary.csv
col() {
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c[n]; exit }' "$1/summary.csv"
}
# run NAME SCENARIO ARGS...: runs into $T/NAME, quietly
run() {
    name=$1 scn=$2; shift 2
    "$HERD" run "$scn" -o "$T/$name" --quiet --replications 1 "$@" >"$T/$name.log" 2>&1 ||
        { bad "$name: herd run failed: $(cat "$T/$name.log")"; return 1; }
}

# --- the keys that refuse 0 --------------------------------------------------
for k in aws_capacity aws_retry_cost aws_timeout_cost grpc_max_tokens grpc_token_ratio finagle_ttl_s \
         breaker_failure_ratio breaker_min_requests breaker_window_s breaker_open_s breaker_probes \
         throttle_k throttle_window_s hedge_percentile hedge_max; do
    printf '[clients]\ncount = 10\n[limits]\n%s = 0\n' "$k" >"$T/r-$k.ini"
    "$HERD" check "$T/r-$k.ini" >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -qF "r-$k.ini:4: [limits] $k: 0 is refused: " "$T/err" &&
        grep -q 'reads 0 as its default' "$T/err" && [ ! -s "$T/out" ]; then ok; else
        bad "$k = 0 in a file: exit $rc, $(cat "$T/err")"; fi
    printf '[clients]\ncount = 10\n' >"$T/base.ini"
    "$HERD" run "$T/base.ini" -o "$T/out-$k" --set "limits.$k=0" >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" = 2 ] && grep -qF -- "--set limits.$k=0: [limits] $k: 0 is refused" "$T/err" && [ ! -e "$T/out-$k" ]; then ok; else
        bad "--set limits.$k=0: exit $rc, $(cat "$T/err")"; fi
done
# a sweep point and a variant are refused the same way
printf '[clients]\ncount = 10\n[sweep t]\nkey = limits.throttle_k\nvalues = 0, 1\n' >"$T/sw.ini"
"$HERD" check "$T/sw.ini" >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -qF 'throttle_k: 0 is refused' "$T/err" && ok || bad "sweep over throttle_k = 0: $(cat "$T/err")"
printf '[clients]\ncount = 10\n[variant v]\nlimits.hedge_max = 0\n' >"$T/va.ini"
"$HERD" check "$T/va.ini" >/dev/null 2>"$T/err"
[ $? = 2 ] && grep -qF 'hedge_max: 0 is refused' "$T/err" && ok || bad "variant hedge_max = 0: $(cat "$T/err")"

# an empty class list would be the mask 0: for retry_on "every class"
for k in 'layer l:retry_on' 'retry:retry_also' 'tool t:retry_with_retry_after'; do
    sec=${k%%:*} key=${k#*:}
    printf '[clients]\ncount = 10\n[%s]\n%s = ,\n' "$sec" "$key" >"$T/cl.ini"
    "$HERD" check "$T/cl.ini" >/dev/null 2>"$T/err"
    [ $? = 2 ] && grep -qF "cl.ini:4: [$sec] $key: expected a list of at least one class" "$T/err" && ok ||
        bad "[$sec] $key = , (an empty list): $(cat "$T/err")"
done

# --- the Finagle case: 0 is no minimum ----------------------------------------
cat >"$T/finagle.ini" <<'EOF'
[clients]
count = 10000
start = spread
spread_s = 10
[server]
workers = 1000
service_time_s = 0.01
error_rate_503 = 0.5
[retry]
strategy = constant
base_s = 0.1
cap_s = 1
max_attempts = 10
[limits]
limiter = finagle
finagle_percent_can_retry = 0.1
finagle_min_retries_per_s = 0
finagle_ttl_s = 100
EOF
# 10% of 10,000 requests: 1,000 retries; the reserve adds
# min_retries_per_s x ttl (0.0001 x 100 = 0.01: none; 10 x 100 = 1,000)
for m in 0 0.0001 10; do
    run "fin-$m" "$T/finagle.ini" --set "limits.finagle_min_retries_per_s=$m" || continue
    want=1000; [ "$m" = 10 ] && want=2000
    got=$(col "$T/fin-$m" retries)
    [ "$got" = "$want" ] && ok || bad "finagle min_retries_per_s = $m: $got retries, want $want"
done
# percent 0: only the reserve (10/s x 100 s = 1,000 retries), not the default 20%
run fin-p0 "$T/finagle.ini" --set limits.finagle_min_retries_per_s=10 --set limits.finagle_percent_can_retry=0 &&
    { got=$(col "$T/fin-p0" retries); [ "$got" = 1000 ] && ok || bad "finagle percent 0: $got retries, want 1000"; }

# --- envoy: 0% and a minimum of 0 allow no retry -------------------------------
sed 's/^limiter = finagle/limiter = envoy/' "$T/finagle.ini" | grep -v '^finagle' >"$T/envoy.ini"
if run envoy0 "$T/envoy.ini" --set limits.envoy_budget_percent=0 --set limits.envoy_min_retry_concurrency=0 &&
    run envoyd "$T/envoy.ini"; then
    a=$(col "$T/envoy0" retries) b=$(col "$T/envoyd" retries)
    [ "$a" = 0 ] && [ "$b" -gt 0 ] && ok || bad "envoy 0%, minimum 0: $a retries (default: $b), want 0"
fi
# a minimum of 0 alone: only 20% of the active requests
if run envoym0 "$T/envoy.ini" --set limits.envoy_min_retry_concurrency=0 &&
    run envoyp0 "$T/envoy.ini" --set limits.envoy_budget_percent=0; then
    a=$(col "$T/envoym0" retries) b=$(col "$T/envoyp0" retries)
    [ "$a" != "$b" ] && [ "$b" != "$(col "$T/envoyd" retries)" ] && ok ||
        bad "envoy: minimum 0 ($a retries) and 0% ($b) should differ from each other and from the default"
fi

# --- retry_after_max_s = 0: no Retry-After honoured beyond 0 s -------------------
cat >"$T/ra.ini" <<'EOF'
[clients]
count = 200
[server]
rate_limit_rps = 50
burst = 10
retry_after = fixed
retry_after_s = 3
[retry]
strategy = constant
base_s = 0.5
cap_s = 1
max_attempts = 4
EOF
if run ra0 "$T/ra.ini" --set retry.retry_after_max_s=0 && run rad "$T/ra.ini"; then
    a=$(col "$T/ra0" retries_after_honoured) b=$(col "$T/rad" retries_after_honoured)
    [ "$a" = 0 ] && [ "$b" -gt 0 ] && ok || bad "retry_after_max_s = 0: $a retries after a Retry-After (120: $b), want 0"
fi
# the same in a [tool] and a [layer]
printf '[tool t]\nretry_after_max_s = 0\n' >>"$T/ra.ini"
run ratool "$T/ra.ini" && { a=$(col "$T/ratool" retries_after_honoured); [ "$a" = 0 ] && ok ||
    bad "[tool] retry_after_max_s = 0: $a honoured, want 0"; }
sed '/^\[tool t\]/,$d' "$T/ra.ini" >"$T/ral.ini"
printf '[layer l]\nretry_after_max_s = 0\n' >>"$T/ral.ini"
run ralayer "$T/ral.ini" && { a=$(col "$T/ralayer" retries_after_honoured); [ "$a" = 0 ] && ok ||
    bad "[layer] retry_after_max_s = 0: $a honoured, want 0"; }

# --- hedge_delay_s = 0: copies at once ---------------------------------------------
cat >"$T/hedge.ini" <<'EOF'
[clients]
count = 200
[server]
service_time_s = 0.01
[limits]
hedging = true
hedge_mode = fixed
EOF
if run h0 "$T/hedge.ini" --set limits.hedge_delay_s=0 && run hd "$T/hedge.ini"; then
    a=$(col "$T/h0" hedges) b=$(col "$T/hd" hedges)
    [ "$a" -gt 0 ] && [ "$b" = 0 ] && ok || bad "hedge_delay_s = 0: $a hedges (default 1 s: $b), want > 0 and 0"
fi

echo "zero: $pass passed, $failn failed"
[ "$failn" = 0 ]
