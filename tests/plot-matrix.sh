#!/bin/sh
# herd plot accepts every folder that herd run writes: every shipped
# scenario (scenarios/*.ini and the workshop's), with and without a
# baseline, plotted with every metric of summary.csv (--metric, eight at a
# time, each group led by another metric of compare.csv so that the
# compare figure draws each of them).  Reduced runs (2 replications, fewer
# clients where the scenario has them), figures as text (--term dumb):
# about two minutes.  Undefined values (n/a) are notes, never failures.
#
#   sh tests/plot-matrix.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
T=$(mktemp -d /tmp/herd-plot-matrix.XXXXXX)
trap 'rm -rf "$T"' EXIT
unset HERD_PLOTS HERD_PLOT_DATA
pass=0
failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }

# the metrics: those of compare.csv first (the group leaders), then the
# rest of summary.csv's
COMPARED="completion_time_s calls retries successes failures peak_inflight peak_arrivals_per_s mean_latency_s p99_latency_s"
"$HERD" columns >"$T/columns.md"
ALL=$(sed -n 's/^| `\([a-z0-9_]*\)` |.*/\1/p' "$T/columns.md" | grep -v '^\(strategy\|replication\|seed\|variant\)$')
[ "$(echo "$ALL" | wc -l)" -gt 30 ] || { echo "FAIL: herd columns lists $(echo "$ALL" | wc -l) metrics"; exit 1; }
OTHERS=$(for m in $ALL; do case " $COMPARED " in *" $m "*) ;; *) echo "$m" ;; esac; done)
# groups: a compared metric, then seven others, until every metric is in one
groups() {
    set -- $OTHERS
    for c in $COMPARED; do
        g="--metric $c"
        n=0
        while [ $# -gt 0 ] && [ $n -lt 7 ]; do g="$g --metric $1"; shift; n=$((n + 1)); done
        echo "$g"
    done
    while [ $# -gt 0 ]; do
        g=""
        n=0
        while [ $# -gt 0 ] && [ $n -lt 8 ]; do g="$g --metric $1"; shift; n=$((n + 1)); done
        echo "$g"
    done
}
groups >"$T/groups"

# plot_all DIR NAME: every group of metrics
plot_all() {
    dir=$1 name=$2
    single=0
    # no sweep, no variants, no compare.csv: --metric changes no figure
    if [ ! -e "$dir/compare.csv" ] && [ "$(head -c 9 "$dir/aggregate.csv")" = "strategy," ]; then single=1; fi
    while read -r g; do
        # shellcheck disable=SC2086
        if "$HERD" plot "$dir" --term dumb --quiet $g >"$T/plot.out" 2>"$T/plot.err"; then
            ok
            grep -v '^herd: plot: .* not drawn$' "$T/plot.err" | grep -q . && bad "$name $g: stderr: $(cat "$T/plot.err")"
        else
            bad "$name $g: exit $?: $(cat "$T/plot.err")"
        fi
        [ "$single" = 1 ] && break
    done <"$T/groups"
}

for scn in scenarios/*.ini scenarios/workshop/*.ini; do
    name=$(basename "$scn" .ini)
    small="--quiet --replications 2 --jobs 2"
    # fewer clients, unless the scenario sweeps them
    grep -q '^count *=' "$scn" && ! grep -q '^key *= *clients.count' "$scn" && ! grep -q '^\[sweep clients' "$scn" &&
        small="$small --set clients.count=50"
    # shellcheck disable=SC2086
    if ! "$HERD" run "$scn" -o "$T/$name" $small --set run.baseline=none >"$T/run.out" 2>&1; then
        bad "$name: herd run: $(head -c 300 "$T/run.out")"
        continue
    fi
    plot_all "$T/$name" "$name"
    first=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "strategy") c = i; next } { print $c; exit }' "$T/$name/aggregate.csv")
    # shellcheck disable=SC2086
    if ! "$HERD" run "$scn" -o "$T/$name-b" $small --set run.baseline="$first" >"$T/run.out" 2>&1; then
        bad "$name (baseline $first): herd run: $(head -c 300 "$T/run.out")"
        continue
    fi
    [ -e "$T/$name-b/compare.csv" ] || [ -e "$T/$name-b/compare_variants.csv" ] || bad "$name: no compare.csv with a baseline"
    plot_all "$T/$name-b" "$name (baseline $first)"
done
echo "plot-matrix: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
