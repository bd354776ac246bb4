#!/bin/sh
# End-to-end tests of the figures: herd plot and herd run --plot on tiny
# runs (plain, swept on two keys, with a baseline), the PNG and SVG files
# they must write, the scripts run by hand on the data herd plot prepares
# (HERD_PLOT_DATA), where herd finds the scripts, and the errors (gnuplot
# missing or failing, a figure that cannot be written, not a results
# directory, bad arguments).  Hostile input: tests/hostile-plot.sh.
#
#   sh tests/plot.sh ./herd      (from the repository root; needs gnuplot)
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/herd-plot.XXXXXX)
trap 'rm -rf "$T"' EXIT
unset HERD_PLOTS
pass=0
failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }

# figures DIR NAME...: DIR/NAME.png is a non-empty PNG, DIR/NAME.svg an SVG.
figures() {
    d=$1; shift
    for n in "$@"; do
        if [ -s "$d/$n.png" ] && [ "$(od -An -tx1 -N8 "$d/$n.png" | tr -d ' \n')" = 89504e470d0a1a0a ]; then
            ok
        else
            bad "$d/$n.png missing, empty or not a PNG"
        fi
        [ -s "$d/$n.svg" ] && grep -q '<svg' "$d/$n.svg" && ok || bad "$d/$n.svg missing, empty or not an SVG"
    done
}
SWEEP_FIGS="sweep_completion_time_s sweep_calls sweep_peak_arrivals_per_s sweep_p99_latency_s sweep_failures"

# expect_fail NAME EXIT FRAGMENT COMMAND...: exit status EXIT, FRAGMENT on stderr.
expect_fail() {
    name=$1 code=$2 frag=$3; shift 3
    "$@" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    if [ "$rc" -ne "$code" ]; then bad "$name: exit $rc, want $code ($(cat "$T/stderr"))"; return; fi
    grep -qF -- "$frag" "$T/stderr" && ok || bad "$name: stderr lacks '$frag': $(cat "$T/stderr")"
}

SMALL="--replications 2 --set clients.count=300 --jobs 2"

# --- a plain run, then herd plot --------------------------------------------
# shellcheck disable=SC2086
"$HERD" run scenarios/thundering-herd.ini -o "$T/plain" --quiet $SMALL && ok || bad "plain run"
"$HERD" plot "$T/plain" >"$T/plain.out" 2>&1 && ok || bad "herd plot: $(cat "$T/plain.out")"
figures "$T/plain" timeseries
grep -qx "wrote $T/plain/timeseries.png, $T/plain/timeseries.svg, $T/plain/goodput.png, $T/plain/goodput.svg" "$T/plain.out" && ok \
    || bad "herd plot does not list the files: $(cat "$T/plain.out")"
ls "$T/plain" | grep -q sweep_ && bad "sweep figures for an unswept run" || ok
"$HERD" plot "$T/plain/" --quiet >"$T/q.out" 2>&1 && [ ! -s "$T/q.out" ] && ok || bad "plot --quiet printed: $(cat "$T/q.out")"

# --- swept on two keys with a baseline: herd run --plot ---------------------
# shellcheck disable=SC2086
"$HERD" run scenarios/thundering-herd.ini -o "$T/swept" --quiet $SMALL --set run.baseline=exponential \
    --sweep server.workers=20:60:40 --sweep server.queue=10,100 --set run.timeseries=first --plot \
    >"$T/swept.out" 2>&1 && ok || bad "run --plot: $(cat "$T/swept.out")"
[ ! -s "$T/swept.out" ] && ok || bad "run --plot --quiet printed: $(cat "$T/swept.out")"
# shellcheck disable=SC2086
figures "$T/swept" timeseries compare $SWEEP_FIGS
grep -q 'server.workers = 20, server.queue = 10' "$T/swept/timeseries.svg" && ok \
    || bad "timeseries title does not name the first sweep point"
"$HERD" run scenarios/thundering-herd.ini -o "$T/base" $SMALL --set run.baseline=full_jitter --plot \
    >"$T/base.out" 2>&1 && ok || bad "run --plot with a baseline: $(cat "$T/base.out")"
figures "$T/base" timeseries compare
grep -q "^wrote $T/base/summary.csv" "$T/base.out" && grep -q "^wrote $T/base/timeseries.png, .*goodput.svg$" "$T/base.out" \
    && ok || bad "run --plot output: $(cat "$T/base.out")"

# --- the scripts by hand, on the data herd plot prepares ------------------
# HERD_PLOT_DATA keeps each figure's data; the scripts read only that.
mkdir "$T/hand" && cp "$T/swept/"*.csv "$T/hand/"
HERD_PLOT_DATA="$T/data" "$HERD" plot "$T/hand" --quiet >"$T/hand.out" 2>&1 && ok || bad "HERD_PLOT_DATA: $(cat "$T/hand.out")"
[ -s "$T/data/timeseries.csv" ] && [ -s "$T/data/sweep_calls.tsv" ] && [ -s "$T/data/compare.tsv" ] \
    && [ -s "$T/data/sensitivity.csv" ] && ok || bad "HERD_PLOT_DATA did not keep the data: $(ls "$T/data")"
ls -a "$T/hand" | grep -q '^\.herd-plot' && bad "herd plot left its private directory" || ok
gnuplot -c plots/sweep.gp "$T/data" >"$T/hand.out" 2>&1 && ok || bad "gnuplot -c plots/sweep.gp: $(cat "$T/hand.out")"
# shellcheck disable=SC2086
figures "$T/data" $SWEEP_FIGS
cmp -s "$T/data/sweep_calls.svg" "$T/hand/sweep_calls.svg" && ok || bad "sweep.gp by hand draws another figure"
gnuplot -c plots/sweep.gp "$T/data" linear >"$T/hand.out" 2>&1 && ok || bad "sweep.gp linear: $(cat "$T/hand.out")"
gnuplot -c plots/sweep.gp "$T/data" sideways >"$T/hand.out" 2>&1 && bad "sweep.gp accepted SCALE sideways" || ok
grep -q "SCALE is auto, log or linear, not 'sideways'" "$T/hand.out" && ok || bad "sweep.gp SCALE message: $(cat "$T/hand.out")"
gnuplot -c plots/compare.gp "$T/data" >"$T/hand.out" 2>&1 && ok || bad "gnuplot -c plots/compare.gp: $(cat "$T/hand.out")"
figures "$T/data" compare
gnuplot -c plots/timeseries.gp "$T/data" >"$T/hand.out" 2>&1 && ok || bad "timeseries.gp: $(cat "$T/hand.out")"
grep -q 'server.workers = 20, server.queue = 10' "$T/data/timeseries.svg" && ok || bad "timeseries.gp: no point in the title"
gnuplot -c plots/sensitivity.gp "$T/data" exponential full_jitter >"$T/hand.out" 2>&1 && ok \
    || bad "sensitivity.gp STRATEGY: $(cat "$T/hand.out")"
grep -q '>exponential<' "$T/data/sensitivity.svg" && ok || bad "sensitivity.gp STRATEGY not drawn"
gnuplot -c plots/sensitivity.gp "$T/data" bogus >"$T/hand.out" 2>&1 && bad "sensitivity.gp accepted a bogus strategy" || ok
grep -q "unknown strategy 'bogus'" "$T/hand.out" && ok || bad "sensitivity.gp bogus message: $(cat "$T/hand.out")"
# a script on a results directory (not prepared data) says what to do
gnuplot -c plots/sweep.gp "$T/plain" >"$T/hand.out" 2>&1 && bad "sweep.gp drew unprepared data" || ok
grep -q 'prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS' "$T/hand.out" && ok || bad "sweep.gp unprepared message: $(cat "$T/hand.out")"

# --- where the scripts are found --------------------------------------------
mkdir -p "$T/prefix/bin" "$T/prefix/share/herd/plots" "$T/alt"
cp "$HERD" "$T/prefix/bin/herd" && cp plots/*.gp "$T/prefix/share/herd/plots/" && cp plots/*.gp "$T/alt/"
"$T/prefix/bin/herd" plot "$T/plain" --quiet >"$T/inst.out" 2>&1 && ok || bad "installed layout: $(cat "$T/inst.out")"
env HERD_PLOTS="$T/alt" "$T/prefix/bin/herd" plot "$T/plain" --quiet >"$T/inst.out" 2>&1 && ok || bad "HERD_PLOTS: $(cat "$T/inst.out")"
rm -r "$T/prefix/share"
expect_fail noscripts 1 "cannot find the plot scripts" "$T/prefix/bin/herd" plot "$T/plain"
expect_fail badenv 1 "HERD_PLOTS=$T/nowhere: no timeseries.gp" env HERD_PLOTS="$T/nowhere" "$HERD" plot "$T/plain"

# --- errors ------------------------------------------------------------------
mkdir "$T/nogp"
expect_fail nognuplot 1 "herd: gnuplot not found in PATH; install gnuplot-nox (make deps does)" \
    env PATH="$T/nogp" "$HERD" plot "$T/plain"
# a run whose plotting fails: exit 1, the CSVs are written all the same
# shellcheck disable=SC2086
expect_fail runnognuplot 1 "gnuplot not found in PATH" \
    env PATH="$T/nogp" "$HERD" run scenarios/thundering-herd.ini -o "$T/nogprun" --quiet $SMALL --plot
[ -s "$T/nogprun/aggregate.csv" ] && [ -s "$T/nogprun/timeseries.csv" ] && ok || bad "run --plot failure lost the CSVs"
expect_fail notresults 1 "$T/nogp: not a herd results directory (no aggregate.csv)" "$HERD" plot "$T/nogp"
expect_fail nodir 1 "$T/none: not a herd results directory (no aggregate.csv)" "$HERD" plot "$T/none"
expect_fail plotnoarg 2 "plot needs a results directory" "$HERD" plot
expect_fail plottwo 2 "plot takes one directory" "$HERD" plot "$T/plain" "$T/swept"
expect_fail plotopt 2 "unknown option '--frob'" "$HERD" plot "$T/plain" --frob
"$HERD" --help | grep -q 'herd plot DIR' && ok || bad "--help does not mention herd plot"


# --- failures while drawing: exit 1, no figure half-written, nothing left --
mkdir "$T/fail"
# shellcheck disable=SC2086
"$HERD" run scenarios/thundering-herd.ini -o "$T/fail/out" --quiet $SMALL && ok || bad "run for the failure tests"
printf '#!/bin/sh\nexit 3\n' >"$T/fail/gnuplot" && chmod +x "$T/fail/gnuplot"
expect_fail gnuplotfails 1 "failed (exit status 3)" env PATH="$T/fail:$PATH" "$HERD" plot "$T/fail/out"
printf '#!/bin/sh\nexit 0\n' >"$T/fail/gnuplot"
expect_fail gnuplotsilent 1 "timeseries.gp did not write timeseries.png" env PATH="$T/fail:$PATH" "$HERD" plot "$T/fail/out"
# the arguments gnuplot gets: the script, the private directory (absolute
# or ./-relative), nothing else
printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done >>"%s"\nexit 3\n' "$T/fail/args" >"$T/fail/gnuplot"
(cd "$T/fail" && env PATH="$T/fail:$PATH" "$HERD" plot out >/dev/null 2>&1)
[ "$(sed -n 1p "$T/fail/args")" = -c ] && sed -n 3p "$T/fail/args" | grep -q '^\./out/\.herd-plot\.......$' \
    && [ "$(wc -l <"$T/fail/args")" -eq 3 ] && ok || bad "gnuplot's arguments: $(cat "$T/fail/args")"
ls "$T/fail/out" | grep -q '\.png\|\.svg' && bad "figures written by a failed plot: $(ls "$T/fail/out")" || ok
ls -a "$T/fail/out" | grep -q '^\.herd-plot' && bad "a failed plot left its private directory" || ok
# a figure that cannot be written (here a directory in its place)
mkdir "$T/fail/out/timeseries.png"
expect_fail figwrite 1 "$T/fail/out/timeseries.png: cannot write the figure" "$HERD" plot "$T/fail/out"
ls -a "$T/fail/out" | grep -q '^\.herd-plot' && bad "a write error left the private directory" || ok
# figures are replaced whole: a second plot rewrites them
"$HERD" plot "$T/plain" --quiet && cp "$T/plain/timeseries.svg" "$T/ts1.svg" && "$HERD" plot "$T/plain" --quiet \
    && cmp -s "$T/plain/timeseries.svg" "$T/ts1.svg" && ok || bad "replotting changed the figures"

echo "plot: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
