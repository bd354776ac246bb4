#!/bin/sh
# tests/recovery-invariant.sh HERD: every shipped scenario (at the reduced
# size of tests/scenario-sizes.sh, 2 replications, every replication's
# series), checked against the recovery measure's invariant: a run
# reported recovered serves what it is offered after its recovery time
# (tests/recovery-invariant.awk).  tests/calibrate.sh checks the same on
# the calibration set.  About 10 s of two cores.
HERD=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.." || exit 2
. tests/scenario-sizes.sh
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
fail=0 runs=0 scen=0
for f in scenarios/*.ini scenarios/*/*.ini; do
    n=${f#scenarios/}
    n=${n%.ini}
    d=$T/$(echo "$n" | tr / _)
    eval "\"\$HERD\" run \"\$f\" $(scenario_args "$n") --quiet --replications 2 --jobs 2 --set run.timeseries=all -o \"\$d\"" \
        >"$d.log" 2>&1 || { echo "recovery-invariant: $n: herd run failed"; cat "$d.log"; fail=1; continue; }
    awk -F, -f tests/recovery-invariant.awk "$d/summary.csv" "$d/timeseries.csv" >"$d.inv"
    grep ' FAIL$' "$d.inv" | sed "s|^|recovery-invariant: $n: |"
    set -- $(tail -n 1 "$d.inv")
    runs=$((runs + $2))
    [ "$4" = 0 ] || fail=1
    [ "$2" = 0 ] || scen=$((scen + 1))
done
# a check that cannot pass vacuously: some shipped runs recover
[ "$runs" -ge 20 ] || { echo "recovery-invariant: only $runs recovered runs checked"; fail=1; }
echo "recovery-invariant: $runs recovered runs in $scen scenarios checked"
[ $fail -eq 0 ] && echo "recovery-invariant: ok" || { echo "recovery-invariant: FAILED"; exit 1; }
