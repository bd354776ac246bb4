#!/bin/sh
# make stress: every test that depends on wall-clock time, N times in a
# row while both cores are kept busy (two busy loops, stopped at the end):
# tests/real.sh (herd serve and herd drive on loopback), tests/realcheck.sh
# --quick and tests/plot-signal.sh (signals while gnuplot draws).  A flaky
# test is a failing test: every round must pass.
#
#   sh tests/stress.sh ./herd [N] [build/tests/plainhttp]
set -u
HERD=${1:-./herd}
N=${2:-20}
PLAIN=${3:-build/tests/plainhttp}
T=$(mktemp -d /tmp/herd-stress.XXXXXX)
LOADERS=
cleanup() {
    for p in $LOADERS; do kill "$p" 2>/dev/null; done
    for p in $LOADERS; do wait "$p" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
[ "$ncpu" -lt 2 ] && ncpu=2
i=0
while [ $i -lt "$ncpu" ]; do
    sh -c 'while :; do :; done' &
    LOADERS="$LOADERS $!"
    i=$((i + 1))
done
start=$(date +%s)
pass=0
round=1
while [ $round -le "$N" ]; do
    failed=""
    sh tests/real.sh "$HERD" "$PLAIN" >"$T/real.log" 2>&1 || failed="$failed real.sh"
    sh tests/realcheck.sh "$HERD" "$T/realcheck" --quick >"$T/realcheck.log" 2>&1 || failed="$failed realcheck.sh"
    sh tests/plot-signal.sh "$HERD" >"$T/signal.log" 2>&1 || failed="$failed plot-signal.sh"
    if [ -z "$failed" ]; then
        pass=$((pass + 1))
        echo "stress: round $round passed ($(($(date +%s) - start)) s)"
    else
        echo "stress: round $round FAILED:$failed"
        for f in "$T"/real.log "$T"/realcheck.log "$T"/signal.log; do grep -h 'FAIL' "$f"; done | head -20
    fi
    round=$((round + 1))
done
echo "stress: $pass/$N rounds passed under load ($ncpu busy loops) in $(($(date +%s) - start)) s"
[ "$pass" -eq "$N" ]
