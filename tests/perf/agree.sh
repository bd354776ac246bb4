#!/bin/sh
# tests/perf/agree.sh HERD REF AGREE: the speed reference (tests/perf/ref.c)
# and herd simulate the same model.  scenarios/thundering-herd.ini at
# 10,000 clients, all six strategies, 20 independent replications each
# (herd's streams and the reference's are independent), as shipped and with
# a 0.3 s attempt timeout (timeouts, late replies, queued attempts that time
# out), and aws-2015-occ.ini at 50 and 150 clients (100 replications);
# each metric's means compared by perf_agree (Welch's t test,
# Bonferroni at a family-wise 5%: the tolerance is the CI's).  About 12 s of
# one core.  A change of the model that herd or the reference makes alone
# fails here (doc/benchmark.md: the drifts it was shown to catch).
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
# aws-2015-occ.ini at 50 and 150 clients, its own 100 replications, the five strategies
"$HERD" run scenarios/aws-2015-occ.ini --set 'sweep clients.values=50,150' --jobs 1 --quiet -o "$T/occ" >/dev/null
"$REF" occ --from 50 --to 150 --step 100 --reps 100 >"$T/occ.ref" 2>/dev/null
if "$AGREE" "$T/occ/summary.csv" "$T/occ.ref" completion_time_s calls >"$T/occ.log"; then
    echo "perf agree: occ: $(tail -1 "$T/occ.log" | sed 's/^agree: //')"
else
    grep -v ' ok$' "$T/occ.log" | sed "s/^/perf agree: occ: /"
    fail=1
fi
[ $fail = 0 ] || { echo "perf agree: FAILED: herd and the reference (tests/perf/ref.c) disagree"; exit 1; }
echo "perf agree: passed"
