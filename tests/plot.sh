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


# --- styles, terminals, the animation ------------------------------------------
# pngsize FILE: "WIDTHxHEIGHT" of a PNG.
pngsize() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", $3 * 256 + $4, $7 * 256 + $8 }'; }
[ "$(pngsize "$T/plain/timeseries.png")" = 1600x900 ] && ok || bad "talk style is not 1600x900: $(pngsize "$T/plain/timeseries.png")"
grep -q 'font-size="16' "$T/plain/timeseries.svg" && ok || bad "talk style: no 16 pt text in timeseries.svg"
cp -r "$T/plain" "$T/paper" && "$HERD" plot "$T/paper" --style paper --quiet && ok || bad "--style paper"
[ "$(pngsize "$T/paper/timeseries.png")" != 1600x900 ] && ok || bad "--style paper drew a talk-sized figure"
mkdir "$T/dumb" && cp "$T/plain/"*.csv "$T/plain/manifest.txt" "$T/dumb/"
"$HERD" plot "$T/dumb" --term dumb >"$T/dumb.out" 2>&1 && ok || bad "--term dumb: $(cat "$T/dumb.out")"
grep -q 'thundering-herd: load on the server' "$T/dumb.out" && grep -q 'offered load and goodput' "$T/dumb.out" \
    && grep -q 'time (s)' "$T/dumb.out" && ok || bad "--term dumb printed no figures: $(head -5 "$T/dumb.out")"
ls "$T/dumb" | grep -v '^manifest.txt$' | grep -q '\.png$\|\.svg$\|\.txt$' && bad "--term dumb wrote files: $(ls "$T/dumb")" || ok
LC_ALL=C grep -q '[^ -~]' "$T/dumb.out" && bad "--term dumb printed control characters" || ok
"$HERD" plot "$T/dumb" --gif --quiet >"$T/gif.out" 2>&1 && ok || bad "--gif: $(cat "$T/gif.out")"
[ "$(head -c 6 "$T/dumb/load.gif")" = GIF89a ] && ok || bad "--gif: load.gif is not a GIF"
expect_fail style 2 "--style 'big': no such style; expected talk" "$HERD" plot "$T/plain" --style big
expect_fail term 2 "--term 'x11': no such terminal; expected png" "$HERD" plot "$T/plain" --term x11
"$HERD" plot --help | grep -q -- '--term png|dumb' && ok || bad "plot --help does not list --term"
# HERD_PLOT_DATA keeps the style for the scripts run by hand
grep -qx 'style	talk' "$T/data/style.tsv" && ok || bad "style.tsv: $(cat "$T/data/style.tsv")"

# --- what the figures show ---------------------------------------------------------
# no key entry for a series that is all zero: immediate and constant never
# reach the server (their attempts are refused during the outage)
n=$(grep -c '>arriving<' "$T/plain/timeseries.svg")
[ "$n" -eq 4 ] && ok || bad "timeseries.svg has $n 'arriving' key entries; want 4 (immediate and constant never arrive)"
# titles name the scenario and the quantity; axes in words
grep -q 'thundering-herd: load on the server' "$T/plain/timeseries.svg" && ok || bad "timeseries title does not name the scenario"
grep -q 'backoff cap (s)\|server workers' "$T/swept/sweep_calls.svg" && ok || bad "sweep_calls.svg: no axis label in words"
# the outage is shaded, with the overrides of --set and of the sweep point
HERD_PLOT_DATA="$T/win" "$HERD" plot "$T/plain" --quiet && grep -q "^win	0	0	10	outage$" "$T/win/timeseries.tsv" && ok \
    || bad "no outage window in timeseries.tsv: $(grep win "$T/win/timeseries.tsv")"
# shellcheck disable=SC2086
"$HERD" run scenarios/thundering-herd.ini -o "$T/win2" --quiet $SMALL --set 'outage 1.end_s=20' --set run.timeseries=first \
    && HERD_PLOT_DATA="$T/win2d" "$HERD" plot "$T/win2" --quiet && grep -q "^win	0	0	20	outage$" "$T/win2d/timeseries.tsv" \
    && grep -q "^win	1	0	20	outage$" "$T/win2d/goodput.tsv" && ok || bad "outage window with --set: $(grep win "$T/win2d/timeseries.tsv")"
# shellcheck disable=SC2086
"$HERD" run scenarios/thundering-herd.ini -o "$T/win3" --quiet $SMALL --sweep 'outage 1.end_s=15,25' --set run.timeseries=first \
    && HERD_PLOT_DATA="$T/win3d" "$HERD" plot "$T/win3" --point 25 --quiet && grep -q "^win	0	0	25	outage$" "$T/win3d/timeseries.tsv" \
    && grep -qx "xlabel	outage end (s)" "$T/win3d/sweep_calls.tsv" && ok || bad "outage window at a sweep point: $(grep win "$T/win3d/timeseries.tsv")"
# a load spike (the trigger, from aggregate.csv) is shaded and named
"$HERD" run scenarios/metastable.ini -o "$T/meta" --quiet --replications 1 --jobs 2 --set clients.count=60000 \
    && HERD_PLOT_DATA="$T/metad" "$HERD" plot "$T/meta" --variant no_retries --quiet \
    && grep -q "^win	1	60	70	load spike$" "$T/metad/goodput.tsv" && [ "$(grep -c '^panel' "$T/metad/goodput.tsv")" -eq 1 ] \
    && ok || bad "metastable: no spike window or --variant not applied: $(grep 'win\|panel' "$T/metad/goodput.tsv")"
# the variants figure shows the [run] columns, with the values on the bars
"$HERD" run scenarios/agent-tools.ini -o "$T/var" --quiet --replications 2 --set clients.count=50 && ok || bad "variants run"
HERD_PLOT_DATA="$T/vard" "$HERD" plot "$T/var" --quiet && ok || bad "variants plot"
[ "$(awk -F'\t' '$1 == "metric" { printf "%s ", $2 }' "$T/vard/variants.tsv")" = "successes failures unknown_outcomes duplicate_effects calls " ] \
    && ok || bad "variants figure does not show [run] columns: $(grep metric "$T/vard/variants.tsv")"
awk -F, 'NR > 1 && $5 !~ /^[0-9.]+k?$/ { bad = 1 } END { exit bad }' "$T/vard/variants-calls.csv" && ok \
    || bad "values on the bars: $(head -3 "$T/vard/variants-calls.csv")"
HERD_PLOT_DATA="$T/vard2" "$HERD" plot "$T/var" --metric calls --metric effects --quiet \
    && [ "$(awk -F'\t' '$1 == "metric" { printf "%s ", $2 }' "$T/vard2/variants.tsv")" = "calls effects " ] && ok \
    || bad "--metric does not choose the variants panels"
# two swept keys: a second key with at most 4 values gives panels, with
# more a heatmap; both fit one screen
grep -qx 'mode	lines' "$T/data/sweep_calls.tsv" && ok || bad "2 x 2 sweep is not drawn as lines"
# shellcheck disable=SC2086
"$HERD" run scenarios/thundering-herd.ini -o "$T/heat" --quiet --replications 2 --set clients.count=100 \
    --sweep server.workers=20,40 --sweep 'retry.cap_s=2,4,8,16,32,64' --set run.timeseries=none \
    && HERD_PLOT_DATA="$T/heatd" "$HERD" plot "$T/heat" --quiet && grep -qx 'mode	heat' "$T/heatd/sweep_calls.tsv" \
    && [ "$(pngsize "$T/heat/sweep_calls.png")" = 1600x900 ] && ok || bad "2 x 6 sweep is not a 1600x900 heatmap"

# --- selection: --variant, --point, --replication, --metric -------------------------
"$HERD" plot "$T/var" --variant with_keys --quiet && ok || bad "--variant with_keys"
expect_fail variant 2 "--variant 'nope': no such variant; expected safe_defaults, naive_retries, with_keys" \
    "$HERD" plot "$T/var" --variant nope
expect_fail novariant 2 "--variant 'x': this run has no [variant] sections" "$HERD" plot "$T/plain" --variant x
"$HERD" plot "$T/swept" --point server.workers=60 --point 100 --quiet && ok || bad "--point KEY=VALUE and VALUE"
expect_fail point 2 "--point '30': no such value of server.workers; expected one of 20, 60" "$HERD" plot "$T/swept" --point 30
expect_fail pointkey 2 "--point 'server.nope=3': no such swept key; expected KEY=VALUE with KEY one of server.workers, server.queue" \
    "$HERD" plot "$T/swept" --point server.nope=3
expect_fail pointmany 2 "more values than swept keys (2)" "$HERD" plot "$T/swept" --point 20 --point 10 --point 1
expect_fail nopoint 2 "--point '1': this run has no sweep" "$HERD" plot "$T/plain" --point 1
"$HERD" plot "$T/plain" --replication 1 --quiet && ok || bad "--replication 1"
expect_fail rep 2 "--replication '7': not in timeseries.csv; expected 0-1" "$HERD" plot "$T/plain" --replication 7
expect_fail repfirst 2 "--replication '1': not in timeseries.csv; expected 0" "$HERD" plot "$T/swept" --replication 1
expect_fail repword 2 "--replication 'x': not a replication number" "$HERD" plot "$T/plain" --replication x
expect_fail metric 2 "--metric 'nope': no such metric in aggregate.csv; expected clients, completion_time_s, calls" \
    "$HERD" plot "$T/plain" --metric nope
"$HERD" plot "$T/swept" --metric utilization --quiet && [ -s "$T/swept/sweep_utilization.png" ] && ok \
    || bad "--metric utilization did not draw sweep_utilization.png"
expect_fail gifnone 2 "--gif: " "$HERD" plot "$T/heat" --gif
ls -a "$T/plain" "$T/swept" "$T/var" | grep -q '^\.herd-plot' && bad "a refused selection left a private directory" || ok

# --- every figure of README.md and doc/*.md has a rule in make figures -------
FIGS=" $(env -u MAKEFLAGS -u MAKELEVEL make -s -C "$ROOT" figures-list) "
imgs=$( (cd "$ROOT" && grep -o '](plots/[^)]*)' README.md; cd doc && grep -ho '](\.\./plots/[^)]*)' ./*.md) |
        sed 's/^](//; s/)$//; s|^\.\./||' | sort -u)
[ "$(echo "$imgs" | wc -w)" -ge 15 ] && ok || bad "found only $(echo "$imgs" | wc -w) images in README.md and doc/*.md"
for img in $imgs; do
    case $FIGS in *" $img "*) ok ;; *) bad "image $img of README.md or doc/ is not made by make figures (add it to FIGURES with a rule)" ;; esac
    # herd plot's figures (tests/figure.sh), the mechanism figures (tests/mechanisms.sh),
    # plots/realcheck.png, drawn from real measurements by make realcheck, or the
    # metastability maps (tests/map-figure.sh writes plots/metastable-map.png and
    # plots/metastable-boundaries.png), or herd tune's figure (plots/tune-brownout.png)
    env -u MAKEFLAGS -u MAKELEVEL make -s -n -B -C "$ROOT" "$img" 2>/dev/null \
        | grep -qE "tests/figure.sh ./herd $img |tests/mechanisms.sh [^ ]+ [^ ]+ [^ ]+ $img |^cp build/realcheck/realcheck.png $img\$|tests/map-figure.sh build/figures/metastable-map plots\$|^cp build/figures/tune-brownout/tune.png $img\$" && ok \
        || bad "image $img of README.md or doc/: no rule in the Makefile makes it"
done

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

# --- undefined values (nan, n/a) are drawn as undefined, never a failure --
# A baseline with 0 failures: every strategy's change in failures is n/a;
# the compare figure is not drawn, a note says why, the rest is drawn.
# shellcheck disable=SC2086
"$HERD" run scenarios/thundering-herd.ini -o "$T/zero" --quiet $SMALL --set run.strategies=full_jitter,exponential \
    --set run.baseline=full_jitter --set 'outage 1.end_s=0.001' --set retry.max_attempts=50 || bad "zero-failures run"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $(c["failures"]) } END { exit s != 0 }' \
    "$T/zero/summary.csv" || bad "zero-failures run has failures: the case below tests nothing"
touch "$T/zero/compare.png"   # an earlier drawing: not this data's
"$HERD" plot "$T/zero" --metric failures >"$T/zero.out" 2>"$T/zero.err"
rc=$?
[ "$rc" = 0 ] && ok || bad "plot --metric failures, baseline of 0 failures: exit $rc: $(cat "$T/zero.err")"
grep -q 'failures_change_pct_mean is n/a for every strategy besides the baseline.*compare not drawn' "$T/zero.err" \
    && ok || bad "no note for the undefined change: $(cat "$T/zero.err")"
[ ! -e "$T/zero/compare.png" ] && [ -s "$T/zero/timeseries.png" ] && ok || bad "undefined compare: $(ls "$T/zero")"
# the same folder with n/a written for undefined cells (as herd now writes
# them) instead of nan: read alike, the same figures
mkdir "$T/na" && cp "$T/swept/"*.csv "$T/swept/manifest.txt" "$T/na/"
for f in "$T/na/"*.csv; do sed -i 's/,nan,/,n\/a,/g; s/,nan,/,n\/a,/g; s/,nan$/,n\/a/' "$f"; done
grep -q 'n/a' "$T/na/compare.csv" || bad "no n/a in the n/a folder: the case below tests nothing"
"$HERD" plot "$T/na" --quiet --term dumb >"$T/na.txt" 2>"$T/na.err" && ok || bad "n/a cells: $(cat "$T/na.err")"
"$HERD" plot "$T/swept" --quiet --term dumb >"$T/nan.txt" 2>&1
cmp -s "$T/na.txt" "$T/nan.txt" && ok || bad "n/a and nan cells draw different figures"

# --- a folder holds the results of one run --------------------------------
# a run without a baseline into the folder of a run with one: the earlier
# compare.csv and every figure drawn from the earlier CSVs are gone; files
# herd does not write stay
mkdir "$T/one" && cp "$T/swept/"* "$T/one/" && echo mine >"$T/one/notes.txt" && echo mine >"$T/one/my.png"
# shellcheck disable=SC2086
"$HERD" run scenarios/thundering-herd.ini -o "$T/one" --quiet $SMALL || bad "second run into one folder"
for f in compare.csv compare.png compare.svg sensitivity.png sweep_calls.png sweep_calls.svg timeseries.png; do
    [ ! -e "$T/one/$f" ] && ok || bad "$f of the earlier run stays beside the new run's files"
done
[ "$(cat "$T/one/notes.txt")" = mine ] && [ "$(cat "$T/one/my.png")" = mine ] && ok || bad "a file herd does not write was touched"
"$HERD" plot "$T/one" >"$T/one.out" 2>&1 && ! grep -q compare "$T/one.out" && ok || bad "plot after the second run: $(cat "$T/one.out")"
# a failed run leaves the previous results as they were (compare.csv too)
cp "$T/swept/compare.csv" "$T/one/compare.csv"
"$HERD" run scenarios/thundering-herd.ini -o "$T/one" --quiet --set clients.count=x 2>/dev/null
[ -s "$T/one/compare.csv" ] && ok || bad "a refused run removed files"

# --- HERD_PLOT_DATA: a directory of its own, written only inside ----------
expect_fail keep-self 1 "HERD_PLOT_DATA=$T/plain: the results directory itself" env HERD_PLOT_DATA="$T/plain" "$HERD" plot "$T/plain" --quiet
expect_fail keep-results 1 "a results folder (it holds aggregate.csv)" env HERD_PLOT_DATA="$T/swept" "$HERD" plot "$T/plain" --quiet
cmp -s "$T/swept/compare.csv" "$T/hand/compare.csv" && ok || bad "HERD_PLOT_DATA wrote into a results folder"
mkdir "$T/keep" && echo outside >"$T/outside.txt" && ln -s "$T/outside.txt" "$T/keep/timeseries.csv" &&
    ln "$T/outside.txt" "$T/keep/goodput.csv"
HERD_PLOT_DATA="$T/keep" "$HERD" plot "$T/plain" --quiet >"$T/keep.out" 2>&1 && ok || bad "HERD_PLOT_DATA with links: $(cat "$T/keep.out")"
[ "$(cat "$T/outside.txt")" = outside ] && [ ! -L "$T/keep/timeseries.csv" ] && [ -s "$T/keep/timeseries.csv" ] && ok \
    || bad "HERD_PLOT_DATA wrote through a link outside its directory"

# Bounded work: 200,000 buckets.  The animation draws each panel with at
# most 1000 steps per frame and the static figure at most 20000 (buckets
# merged into wider ones, the subtitle says how wide); 40 frames + 8 held
# whatever the bucket count.  (On 100,000 buckets --gif took 4.5 minutes
# when every frame drew every bucket; the timeout only keeps a regression
# from hanging the suite.)
printf '[clients]\ncount = 40\nstart = spread\nspread_s = 20\n[run]\nhorizon_s = 20\nbucket_s = 0.0001\nreplications = 1\nstrategies = exponential, full_jitter\n' >"$T/many.ini"
if "$HERD" run "$T/many.ini" -o "$T/many" --quiet; then
    rm -rf "$T/many-data"
    HERD_PLOT_DATA="$T/many-data" timeout 300 "$HERD" plot "$T/many" --gif --quiet 2>"$T/err"
    rc=$?
    if [ "$rc" -ne 0 ] || [ ! -s "$T/many/load.gif" ]; then bad "--gif on 200000 buckets: exit $rc: $(cat "$T/err")"
    else
        # steps per panel: data rows between headers
        most() { awk -F, '/^time_s/ { if (n > m) m = n; n = 0; next } NF == 3 { n++ } END { if (n > m) m = n; print m }' "$1"; }
        g=$(most "$T/many-data/load.csv") s=$(most "$T/many-data/timeseries.csv")
        [ "$g" -le 1001 ] && [ "$g" -ge 500 ] && ok || bad "--gif: $g steps in a panel, want at most 1000 (+1)"
        [ "$s" -le 20001 ] && [ "$s" -ge 10000 ] && ok || bad "timeseries: $s steps in a panel, want at most 20000 (+1)"
        grep -q '^subtitle	replication 0, 0.0[0-9]* s buckets' "$T/many-data/load.tsv" && ok ||
            bad "--gif: the subtitle does not give the merged bucket: $(grep subtitle "$T/many-data/load.tsv")"
        grep -q '^frames = 40$' "$ROOT/plots/animate.gp" && ok || bad "animate.gp: frames is not 40"
    fi
else
    bad "the 200000-bucket run failed"
fi

echo "plot: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
