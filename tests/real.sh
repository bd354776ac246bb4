#!/bin/sh
# Quick end-to-end test of herd serve and herd drive on loopback (seconds):
# a small real run writes the CSV columns of herd run; bad targets and
# flags are refused (exit 2, nothing written); the bounds stop a run by
# themselves; the server stops cleanly on SIGTERM, SIGINT and its own
# bounds; scenario features without a real counterpart are refused.
#
#   sh tests/real.sh ./herd [build/tests/plainhttp]
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
PLAIN=${2:-build/tests/plainhttp}
T=$(mktemp -d /tmp/herd-real.XXXXXX)
PID=
PPID_PLAIN=
cleanup() {
    [ -n "$PID" ] && kill "$PID" 2>/dev/null
    [ -n "$PPID_PLAIN" ] && kill "$PPID_PLAIN" 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
pass=0
failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }

# A small, quick scenario: 20 clients, a 0.3 s refused outage, 1 s of work.
SCN=scenarios/realcheck.ini
SMALL="--set clients.count=20 --set outage 1.end_s=0.3 --set server.workers=5 --set server.queue=5"

# start_server [ARGS...]: herd serve on a free port; sets PID and URL.
start_server() {
    rm -f "$T/url"
    "$HERD" serve "$SCN" --port 0 --quiet --max-seconds 60 "$@" >"$T/url" 2>"$T/serve.err" &
    PID=$!
    i=0
    while [ ! -s "$T/url" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    URL=$(head -n 1 "$T/url")
}

# stops_with SIGNAL: the server exits 0 within 3 s of SIGNAL.
stops_with() {
    kill -"$1" "$PID"
    i=0
    while kill -0 "$PID" 2>/dev/null && [ $i -lt 60 ]; do sleep 0.05; i=$((i + 1)); done
    if kill -0 "$PID" 2>/dev/null; then
        bad "serve did not stop on SIG$1"
        kill -9 "$PID"
        wait "$PID" 2>/dev/null
    else
        wait "$PID"
        rc=$?
        [ "$rc" = 0 ] && ok || bad "serve exited $rc on SIG$1 (want 0): $(cat "$T/serve.err")"
    fi
    PID=
}

# expect_fail NAME FRAGMENT ARGS...: herd exits 2, says FRAGMENT, writes
# nothing to stdout and no $T/out-NAME.
expect_fail() {
    name=$1 frag=$2
    shift 2
    "$HERD" "$@" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    if [ "$rc" -ne 2 ]; then bad "$name: exit $rc, want 2 ($(cat "$T/stderr"))"; return; fi
    grep -qF -- "$frag" "$T/stderr" || { bad "$name: stderr lacks '$frag': $(cat "$T/stderr")"; return; }
    [ -s "$T/stdout" ] && { bad "$name: wrote to stdout"; return; }
    [ -e "$T/out-$name" ] && { bad "$name: left output files"; return; }
    [ "$(wc -l <"$T/stderr")" -eq 1 ] && ok || bad "$name: more than one line on stderr: $(cat "$T/stderr")"
}

# --- a small real run: the CSV columns of herd run ------------------------
start_server --set clients.count=20 --set 'outage 1.end_s=0.3' --set server.workers=5 --set server.queue=5
case $URL in http://127.0.0.1:*/) ok ;; *) bad "serve printed '$URL', want http://127.0.0.1:PORT/" ;; esac
"$HERD" drive "$SCN" --target "$URL" -o "$T/real" --quiet --replications 2 --set run.strategies=full_jitter,exponential \
    --set clients.count=20 --set 'outage 1.end_s=0.3' --set server.workers=5 --set server.queue=5 2>"$T/drive.err"
rc=$?
[ "$rc" = 0 ] && ok || bad "drive exited $rc: $(cat "$T/drive.err")"
"$HERD" run "$SCN" -o "$T/sim" --quiet --replications 2 --set run.strategies=full_jitter,exponential \
    --set clients.count=20 --set 'outage 1.end_s=0.3' --set server.workers=5 --set server.queue=5
for f in summary.csv aggregate.csv timeseries.csv; do
    if [ -s "$T/real/$f" ] && [ "$(head -n 1 "$T/real/$f")" = "$(head -n 1 "$T/sim/$f")" ]; then ok; else bad "$f: header differs from herd run's"; fi
done
# every logical request finished, all 20 x 2 strategies x 2 replications
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { n++; s += $(c["successes"]) + $(c["failures"]); u += $(c["unfinished"]); r += $(c["refused"]); a += $(c["calls"]) }
    END { exit !(n == 4 && s == 80 && u == 0 && r > 0 && a >= s) }' "$T/real/summary.csv" && ok \
    || bad "real summary: want 4 rows, 80 finished requests, some refused during the outage: $(cat "$T/real/summary.csv")"
grep -q '^herd drive' "$T/real/manifest.txt" && grep -q 'herd serve' "$T/real/manifest.txt" && ok || bad "manifest.txt"

# --- Retry-After above the policy's cap, retry_after_above = stop ---------
# 503 + Retry-After: 5 in the outage; the policy sleeps a Retry-After of at
# most 1 s instead of its backoff and stops above that: every request fails
# at its first attempt, in the simulation and against the real server
# (drive once read the header clamped to 1 s, so "above" never happened).
RA_SETS="--set run.strategies=exponential --set clients.count=20 --set 'outage 1.end_s=0.3' --set 'outage 1.status=503' --set server.retry_after_on_503=true --set server.retry_after_s=5 --set retry.retry_after=instead --set retry.retry_after_max_s=1 --set retry.retry_after_above=stop"
KEEP_PID=$PID KEEP_URL=$URL
eval "start_server $RA_SETS"
eval "\"\$HERD\" drive \"\$SCN\" --target \"\$URL\" -o \"\$T/ra\" --quiet --replications 1 $RA_SETS" 2>"$T/ra.err" || bad "drive, Retry-After above the cap: $(cat "$T/ra.err")"
kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; PID=$KEEP_PID URL=$KEEP_URL
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { exit !($(c["failures"]) == 20 && $(c["retries"]) == 0) }' \
    "$T/ra/summary.csv" && ok || bad "Retry-After 5 s above retry_after_max_s = 1 with retry_after_above = stop: want 20 failures, 0 retries: $(cat "$T/ra/summary.csv")"

# --- [server] queue_discipline has its real counterpart: herd serve's
# queue is served LIFO / adaptive LIFO, and every request still finishes
for qd in lifo adaptive_lifo; do
    KEEP_PID=$PID KEEP_URL=$URL
    start_server --set clients.count=20 --set 'outage 1.end_s=0.3' --set server.workers=2 --set server.queue=10 \
        --set server.queue_discipline=$qd
    "$HERD" drive "$SCN" --target "$URL" -o "$T/qd-$qd" --quiet --replications 1 --set run.strategies=full_jitter \
        --set clients.count=20 --set 'outage 1.end_s=0.3' --set server.workers=2 --set server.queue=10 \
        --set server.queue_discipline=$qd 2>"$T/qd.err" || bad "drive, queue_discipline = $qd: $(cat "$T/qd.err")"
    kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; PID=$KEEP_PID URL=$KEEP_URL
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { s += $(c["successes"]) + $(c["failures"]); u += $(c["unfinished"]) } END { exit !(s == 20 && u == 0) }' \
        "$T/qd-$qd/summary.csv" && ok || bad "queue_discipline = $qd: want 20 finished requests: $(cat "$T/qd-$qd/summary.csv")"
done

# --- [server] concurrency_limiter has its real counterpart: herd serve's
# backend runs the model's limiter (model/limiter.c).  A limit of 2 on 5
# workers serving 0.5 s each: the retries of 20 requests find 2 admitted and the rest answered 503
# by the limiter (concurrency_rejected), none by the queue (rejected);
# every request still finishes.  AIMD and Gradient2 run as well.
for cl in fixed aimd gradient2; do
    if [ "$cl" = fixed ]; then ADAPT=; else ADAPT="--set server.limiter_min=1 --set server.limiter_max=4"; fi
    KEEP_PID=$PID KEEP_URL=$URL
    # shellcheck disable=SC2086
    start_server --set clients.count=20 --set 'outage 1.end_s=0.3' --set server.workers=5 --set server.queue=5 \
        --set server.service_time_s='constant(0.5)' --set server.concurrency_limiter=$cl --set server.concurrency_limit=2 $ADAPT
    # shellcheck disable=SC2086
    "$HERD" drive "$SCN" --target "$URL" -o "$T/cl-$cl" --quiet --replications 1 --set run.strategies=full_jitter \
        --set clients.count=20 --set 'outage 1.end_s=0.3' --set server.workers=5 --set server.queue=5 \
        --set server.service_time_s='constant(0.5)' --set server.concurrency_limiter=$cl --set server.concurrency_limit=2 $ADAPT \
        2>"$T/cl.err" || bad "drive, concurrency_limiter = $cl: $(cat "$T/cl.err")"
    kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; PID=$KEEP_PID URL=$KEEP_URL
    awk -F, -v cl=$cl 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { s += $(c["successes"]) + $(c["failures"]); u += $(c["unfinished"]); r += $(c["concurrency_rejected"]); q += $(c["rejected"]) }
        END { exit !(s == 20 && u == 0 && r > 0 && (cl != "fixed" || q == 0)) }' \
        "$T/cl-$cl/summary.csv" && ok || bad "concurrency_limiter = $cl: want 20 finished requests and limiter rejections: $(cat "$T/cl-$cl/summary.csv")"
done

# --- [clients] connections_per_host has its real counterpart: libcurl's
# CURLMOPT_MAX_HOST_CONNECTIONS; the server never holds more at once
KEEP_PID=$PID KEEP_URL=$URL
start_server --set clients.count=20 --set 'outage 1.end_s=0.3' --set server.workers=5 --set server.queue=10
"$HERD" drive "$SCN" --target "$URL" -o "$T/pool" --quiet --replications 1 --set run.strategies=exponential \
    --set clients.count=20 --set 'outage 1.end_s=0.3' --set server.workers=5 --set server.queue=10 \
    --set clients.connections_per_host=3 2>"$T/pool.err" || bad "drive, connections_per_host = 3: $(cat "$T/pool.err")"
kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; PID=$KEEP_PID URL=$KEEP_URL
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { exit !($(c["successes"]) + $(c["failures"]) == 20 && $(c["peak_inflight"]) <= 3 && $(c["peak_inflight"]) >= 1) }' \
    "$T/pool/summary.csv" && ok || bad "connections_per_host = 3: want 20 finished, at most 3 in flight at the server: $(cat "$T/pool/summary.csv")"

# --- bounds: the run stops by itself and says so --------------------------
"$HERD" drive "$SCN" --target "$URL" -o "$T/bound" --quiet --replications 1 --set run.strategies=exponential \
    --set clients.count=20 --set 'outage 1.end_s=0.3' --max-requests 5 2>"$T/bound.err"
rc=$?
[ "$rc" = 0 ] && grep -q 'stopped at --max-requests' "$T/bound.err" && ok || bad "--max-requests: exit $rc: $(cat "$T/bound.err")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { exit !($(c["unfinished"]) > 0 && $(c["calls"]) + $(c["refused"]) <= 5) }' \
    "$T/bound/summary.csv" && ok || bad "--max-requests 5: want unfinished > 0 and at most 5 attempts"
"$HERD" drive "$SCN" --target "$URL" -o "$T/slow" --quiet --replications 1 --set run.strategies=exponential \
    --set clients.count=20 --max-seconds 0.2 2>"$T/slow.err"
rc=$?
[ "$rc" = 0 ] && grep -q 'stopped at --max-seconds' "$T/slow.err" && ok || bad "--max-seconds: exit $rc: $(cat "$T/slow.err")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { exit !($(c["unfinished"]) == 20 && $(c["completion_time_s"]) < 1) }' \
    "$T/slow/summary.csv" && ok || bad "--max-seconds 0.2 inside the 0.3 s outage: want 20 unfinished"
stops_with TERM

start_server
stops_with INT

# serve stops by itself at --max-seconds
"$HERD" serve "$SCN" --port 0 --quiet --max-seconds 0.3 >/dev/null 2>"$T/serve.err"
[ $? = 0 ] && ok || bad "serve --max-seconds 0.3 did not exit 0: $(cat "$T/serve.err")"

# --- rate-limit headers as the [server] keys say, read as each policy
# says: retry-after-ms only (retry_after_format = ms) is seen by the openai
# SDK preset (it reads retry-after-ms) and by nobody else; X-RateLimit-Reset
# alone (retry_after = none, ratelimit_reset) by cohere's.  The simulation
# of the same scenario honours the same kinds of header.
RL="clients.count=20|outage 1.start_s=1000|outage 1.end_s=1001|server.rate_limit_rps=10|server.burst=5"
honoured() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $(c["retries_after_honoured"]) }' "$1/summary.csv"; }
for case in "ms|server.retry_after=honest|server.retry_after_format=ms" "reset|server.retry_after=none|server.ratelimit_reset=true"; do
    name=${case%%|*} keys=${case#*|}
    old_ifs=$IFS IFS='|'
    set -- $RL $keys
    IFS=$old_ifs
    sets=""
    for kv in "$@"; do sets="$sets --set '$kv'"; done
    eval "start_server $sets"
    for p in openai_python cohere retry_default; do
        pre=""
        [ "$p" != retry_default ] && pre="--set retry.preset=$p"
        eval "\"\$HERD\" drive \"\$SCN\" --target \"\$URL\" -o \"\$T/ra-\$name-\$p\" --quiet --replications 1 \
            --set run.strategies=full_jitter $sets $pre" 2>"$T/drive.err" || bad "drive $name $p: $(cat "$T/drive.err")"
        eval "\"\$HERD\" run \"\$SCN\" -o \"\$T/rs-\$name-\$p\" --quiet --replications 1 --set run.strategies=full_jitter $sets $pre"
        real=$(honoured "$T/ra-$name-$p") sim=$(honoured "$T/rs-$name-$p")
        reads=0
        { [ "$name" = ms ] && [ "$p" = openai_python ]; } && reads=1
        { [ "$name" = reset ] && [ "$p" = cohere ]; } && reads=1
        if [ "$reads" = 1 ]; then
            [ "${real:-0}" -gt 0 ] && [ "${sim:-0}" -gt 0 ] && ok || bad "$name: $p should honour the header (real $real, sim $sim)"
        else
            [ "$real" = 0 ] && [ "$sim" = 0 ] && ok || bad "$name: $p should not see the header (real $real, sim $sim)"
        fi
    done
    stops_with TERM
done

# --- the model's send cost ([network] send_cost_s): 0 is the default, and
# a cost spreads exponential backoff's synchronised waves, which the server
# then absorbs with fewer calls (every client in one instant: 2,200 calls)
"$HERD" run "$SCN" -o "$T/sc0" --quiet --replications 2 --set run.strategies=exponential
"$HERD" run "$SCN" -o "$T/sc00" --quiet --replications 2 --set run.strategies=exponential --set network.send_cost_s=0
"$HERD" run "$SCN" -o "$T/sc1" --quiet --replications 2 --set run.strategies=exponential --set network.send_cost_s=0.0002
cmp -s "$T/sc0/summary.csv" "$T/sc00/summary.csv" && ok || bad "send_cost_s = 0 is not the default"
calls() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%s ", $(c["calls"]) }' "$1/summary.csv"; }
[ "$(calls "$T/sc0")" = "2200 2200 " ] && ok || bad "send_cost_s = 0: calls $(calls "$T/sc0"), want 2200 2200"
for n in $(calls "$T/sc1"); do [ "$n" -lt 2000 ] && ok || bad "send_cost_s = 0.0002: $n calls, want fewer than 2000"; done

# --- refused: targets off loopback, bad flags, unsupported scenarios ------
for t in http://10.0.0.1:80/ https://127.0.0.1:8080/ http://127.0.0.1.example.com/ http://localhost.example:80/ \
    http://example.com/ http://127.0.0.2:80/ 'http://127.0.0.1:99999/' 'http://[::1]:80/'; do
    expect_fail target "--target $t: " drive "$SCN" --target "$t" -o "$T/out-target"
done
expect_fail port-range "--port: expected an integer in [0, 65535]" serve "$SCN" --port 70000
expect_fail no-port "serve needs --port" serve "$SCN"
expect_fail no-target "drive needs --target" drive "$SCN" -o "$T/out-no-target"
expect_fail maxs "--max-seconds: expected a number" drive "$SCN" --target http://127.0.0.1:1/ --max-seconds 0 -o "$T/out-maxs"
expect_fail maxr "--max-requests: expected an integer" drive "$SCN" --target http://127.0.0.1:1/ --max-requests -3 -o "$T/out-maxr"
expect_fail serve-target "serve does not take --target" serve "$SCN" --port 0 --target http://127.0.0.1:1/
# --- [server] drop_expired and shed_sheddable_above have their real
# counterparts: herd drive sends X-Herd-Deadline (the seconds of the
# attempt's timeout) and X-Herd-Priority, herd serve honours them.  20
# requests at once on 1 worker (0.2 s each, timeout 0.3 s, no retry): two
# are served (the second's client times out at 0.3), the other 18 have
# expired when the worker frees at 0.4 and are skipped unanswered (each
# client makes a second request, so that the run lasts past 0.4); with 2
# workers and shedding above 0.5, sheddable requests beyond the first two
# are answered 503 at once.
cat >"$T/tags.ini" <<'EOF_TAGS'
[run]
strategies = exponential
horizon_s = 30
[clients]
count = 20
[network]
delay_s = constant(0.0001)
[server]
workers = 1
queue = 50
service_time_s = constant(0.2)
[retry]
max_attempts = 1
attempt_timeout_s = 0.3
EOF_TAGS
for what in expired shed; do
    case $what in
    expired) SETS="--set server.drop_expired=true --set clients.requests_per_client=2" ;;
    shed) SETS="--set server.workers=2 --set server.shed_sheddable_above=0.5 --set clients.priority=sheddable" ;;
    esac
    KEEP_PID=$PID KEEP_URL=$URL SCN_KEEP=$SCN SCN=$T/tags.ini
    # shellcheck disable=SC2086
    start_server $SETS
    # shellcheck disable=SC2086
    "$HERD" drive "$SCN" --target "$URL" -o "$T/tags-$what" --quiet --replications 1 $SETS 2>"$T/tags.err" ||
        bad "drive, $what: $(cat "$T/tags.err")"
    kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; PID=$KEEP_PID URL=$KEEP_URL SCN=$SCN_KEEP
    awk -F, -v what="$what" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { n = $(c["calls"]); sv = $(c["served"]); x = $(c["expired_skipped"]); sh = $(c["shed"]) }
        END { if (what == "expired") exit !(n == 40 && x >= 12 && sh == 0)
              exit !(n == 20 && sh >= 12 && sh + sv == n && x == 0) }' \
        "$T/tags-$what/summary.csv" && ok || bad "$what: want most of 20 calls $what, the rest served: $(cat "$T/tags-$what/summary.csv")"
done

expect_fail drive-port "drive does not take --port" drive "$SCN" --port 1 --target http://127.0.0.1:1/
expect_fail unknown "unknown option '--frob'" drive "$SCN" --target http://127.0.0.1:1/ --frob
expect_fail occ "has no real counterpart in herd serve" serve scenarios/aws-2015-occ.ini --port 0
expect_fail codel "herd serve's queue has no CoDel" serve "$SCN" --port 0 --set server.codel_target_s=0.005
expect_fail layers "herd drive runs one retry loop" drive scenarios/layers.ini --target http://127.0.0.1:1/ -o "$T/out-layers"
expect_fail hosts "herd drive is one host" drive "$SCN" --target http://127.0.0.1:1/ -o "$T/out-hosts" \
    --set clients.hosts=2 --set clients.connections_per_host=10
expect_fail instances "herd drive keeps one [limits] state" drive "$SCN" --target http://127.0.0.1:1/ -o "$T/out-instances" \
    --set limits.limiter=aws_quota --set limits.clients_per_instance=10
expect_fail connect-range "--connect-timeout: expected a number" drive "$SCN" --target http://127.0.0.1:1/ \
    --connect-timeout -1 -o "$T/out-connect-range"
expect_fail serve-connect "serve does not take --connect-timeout" serve "$SCN" --port 0 --connect-timeout 1
# --seed and --replications given many times: the last wins (one --set each)
many=""
for i in $(seq 1 300); do many="$many --seed $i --replications 1"; done
# shellcheck disable=SC2086
"$HERD" drive "$SCN" --target http://127.0.0.1:1/ --max-seconds 1 --connect-timeout 0.2 $many -o "$T/out-many" \
    >/dev/null 2>"$T/many.err"
grep -q "Couldn't connect" "$T/many.err" && ok || bad "300 x --seed: $(cat "$T/many.err")"

# --- a target where nothing listens: refused after --connect-timeout (its
# default: 5 s plus the end of the scenario's last connection_refused
# outage, which herd serve refuses from its start and each reset), not
# after --max-seconds and not after 30 s; exit 1, one line, nothing written
closed() { # NAME MIN_S MAX_S ARGS...: exit 1 after MIN_S..MAX_S seconds
    name=$1 lo=$2 hi=$3
    shift 3
    t0=$(date +%s)
    "$HERD" drive "$SCN" --target http://127.0.0.1:1/ -o "$T/out-$name" --quiet --replications 1 "$@" \
        >"$T/closed.out" 2>"$T/closed.err"
    rc=$? t1=$(date +%s)
    if [ "$rc" -ne 1 ] || [ $((t1 - t0)) -lt "$lo" ] || [ $((t1 - t0)) -gt "$hi" ] || [ -e "$T/out-$name" ] ||
        ! grep -q "Couldn't connect.*--connect-timeout" "$T/closed.err" || [ "$(wc -l <"$T/closed.err")" -ne 1 ]; then
        bad "closed target ($name): exit $rc after $((t1 - t0)) s, want exit 1 after $lo..$hi s: $(cat "$T/closed.err")"
    else ok; fi
}
closed flag 0 3 --connect-timeout 1 --max-seconds 100
closed default 5 9 --set 'outage 1.end_s=0.5' --max-seconds 0.1

# --- any HTTP server is a target: /_herd/* answered 404 or 405 (empty or
# not), an empty 200, or the connection closed is "not herd serve", said
# once; the run goes on without control requests (tests/plainhttp.c)
if [ -x "$PLAIN" ]; then
    for mode in empty404 line404 empty405 empty200 close; do
        rm -f "$T/plain.url"
        "$PLAIN" "$mode" >"$T/plain.url" &
        PPID_PLAIN=$!
        i=0
        while [ ! -s "$T/plain.url" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
        purl=$(head -n 1 "$T/plain.url")
        "$HERD" drive "$SCN" --target "$purl" -o "$T/plain-$mode" --quiet --replications 2 \
            --set run.strategies=exponential --set clients.count=5 --max-seconds 5 2>"$T/plain.err"
        rc=$?
        if [ "$rc" = 0 ] && [ "$(grep -c 'is not herd serve' "$T/plain.err")" = 1 ] && [ "$(wc -l <"$T/plain.err")" = 1 ] &&
            awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { n++; s += $(c["successes"]) }
                END { exit !(n == 2 && s == 10) }' "$T/plain-$mode/summary.csv" &&
            grep -q 'not herd serve' "$T/plain-$mode/manifest.txt"; then ok
        else bad "plain server ($mode): exit $rc: $(cat "$T/plain.err")"; fi
        kill "$PPID_PLAIN"
        wait "$PPID_PLAIN" 2>/dev/null
        PPID_PLAIN=
    done
else
    bad "$PLAIN: not built (make $PLAIN)"
fi
"$HERD" serve --help | grep -q -- '--port P' && ok || bad "serve --help"
"$HERD" drive --help | grep -q -- '--target URL' && ok || bad "drive --help"

echo "real: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
