#!/bin/sh
# Golden runs: small fixed-seed scenarios whose CSVs are committed under
# tests/golden/NAME/ and must come out byte for byte.  A change in any
# number shows here first; when it is intended, regenerate on purpose with
# `make update-golden` and let the diff of tests/golden/ show in review.
#
#   sh tests/golden.sh ./herd           compare
#   sh tests/golden.sh ./herd --update  regenerate
set -u
HERD=${1:-./herd}
MODE=${2:-}
G=tests/golden
T=$(mktemp -d /tmp/herd-golden.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 failn=0

# name, then the herd run arguments
cases() {
    echo "thundering-herd|scenarios/thundering-herd.ini --replications 2 --set clients.count=300 --set run.baseline=exponential"
    echo "aws-2015-occ|scenarios/aws-2015-occ.ini --replications 3 --set 'sweep clients.values=10,20'"
    echo "idempotency|scenarios/idempotency.ini --replications 2 --set clients.count=200 --set run.timeseries=first"
    echo "quota-per-instance|scenarios/quota-per-instance.ini --replications 2 --set clients.count=400 --set limits.aws_capacity=100"
    echo "timeouts-and-errors|scenarios/thundering-herd.ini --replications 2 --set clients.count=200 --set 'outage 1.mode=black_hole' --set server.error_rate_500=0.05 --set server.error_rate_404=0.01 --set retry.attempt_timeout_s=0.5 --set 'server.service_time_s=lognormal(0.2,0.3)'"
}

cases | while IFS='|' read -r name args; do
    out="$T/$name"
    if ! eval "\"$HERD\" run $args -o \"$out\" --quiet --jobs 2"; then
        echo "FAIL $name: herd run failed"; echo x >>"$T/failed"; continue
    fi
    if [ "$MODE" = "--update" ]; then
        rm -rf "${G:?}/$name"; mkdir -p "$G/$name"; cp "$out"/*.csv "$G/$name/"
        echo "updated $G/$name"
        continue
    fi
    for f in "$G/$name"/*.csv; do
        if cmp -s "$f" "$out/$(basename "$f")"; then echo x >>"$T/passed"
        else echo "FAIL $name: $(basename "$f") differs from the golden file (make update-golden if intended)"; echo x >>"$T/failed"; fi
    done
    [ "$(ls "$out"/*.csv | wc -l)" -eq "$(ls "$G/$name"/*.csv | wc -l)" ] && echo x >>"$T/passed" || { echo "FAIL $name: file set differs"; echo x >>"$T/failed"; }
done
pass=$(cat "$T/passed" 2>/dev/null | wc -l)
failn=$(cat "$T/failed" 2>/dev/null | wc -l)
[ "$MODE" = "--update" ] && exit "$([ "$failn" -eq 0 ] && echo 0 || echo 1)"
echo "golden: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
