#!/bin/sh
# tests/perf/agree.sh HERD REF AGREE: the speed reference (tests/perf/ref.c)
# and herd simulate the same model.  scenarios/thundering-herd.ini at
# 10,000 clients, all six strategies, 20 independent replications each
# (herd's streams and the reference's are independent), as shipped and with
# a 0.3 s attempt timeout (timeouts, late replies, queued attempts that time
# out); each metric's means compared by perf_agree (Welch's t test,
# Bonferroni at a family-wise 5%: the tolerance is the CI's).  About 9 s of
# one core.  A change of the model that herd or the reference makes alone
# fails here (tests/perf/README: the drift it was shown to catch).
set -eu
HERD=${1:-./herd}
REF=${2:-build/perf_ref}
AGREE=${3:-build/perf_agree}
T=$(mktemp -d /tmp/herd-agree.XXXXXX)
trap 'rm -rf "$T"' EXIT
METRICS="completion_time_s calls refused failures peak_arrivals_per_s timeouts"
fail=0
check() { # NAME timeout_s
    "$HERD" run scenarios/thundering-herd.ini --replications 20 --jobs 1 --quiet \
        --set retry.attempt_timeout_s="$2" -o "$T/$1" >/dev/null
    "$REF" th --clients 10000 --reps 20 --timeout "$2" >"$T/$1.ref" 2>/dev/null
    if "$AGREE" "$T/$1/summary.csv" "$T/$1.ref" $METRICS >"$T/$1.log"; then
        echo "perf agree: $1: $(tail -1 "$T/$1.log" | sed 's/^agree: //')"
    else
        grep -v ' ok$' "$T/$1.log" | sed "s/^/perf agree: $1: /"
        fail=1
    fi
}
check timeout-5s 5
check timeout-0.3s 0.3
[ $fail = 0 ] || { echo "perf agree: FAILED: herd and the reference (tests/perf/ref.c) disagree"; exit 1; }
echo "perf agree: passed"
