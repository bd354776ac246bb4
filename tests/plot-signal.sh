#!/bin/sh
# Signals while gnuplot draws: SIGTERM, SIGINT or SIGHUP to herd plot, or
# to herd run --plot, while a slow gnuplot (a fake one in PATH that
# sleeps) draws: herd exits 128 + signal, leaves no .herd-plot.XXXXXX
# directory, and no gnuplot (nor what it started) survives it.  Wall-clock
# time: make stress runs it under load.
#
#   sh tests/plot-signal.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
T=$(mktemp -d /tmp/herd-plot-signal.XXXXXX)
pass=0
failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
HPID=
cleanup() {
    [ -n "$HPID" ] && kill -9 "$HPID" 2>/dev/null
    for f in "$T"/fake.*; do [ -s "$f" ] && kill -9 $(cat "$f") 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT

# the fake gnuplot: writes its pid and its sleeping child's pid, then waits
mkdir -p "$T/bin"
cat >"$T/bin/gnuplot" <<EOS
#!/bin/sh
sleep 60 &
echo "\$\$ \$!" >"$T/fake.\$\$"
wait
EOS
chmod +x "$T/bin/gnuplot"
# real scripts (HERD_PLOTS), the fake gnuplot first in PATH
export HERD_PLOTS="$(pwd)/plots"

"$HERD" run scenarios/thundering-herd.ini --quiet --set clients.count=200 --replications 2 -o "$T/res" ||
    { echo "FAIL: herd run"; exit 1; }

# alive PIDS...: true if any of them still runs (a zombie does not count)
alive() {
    for p in "$@"; do
        st=$(ps -o stat= -p "$p" 2>/dev/null)
        case $st in "" | Z*) ;; *) return 0 ;; esac
    done
    return 1
}

# case NAME SIGNAL CMD...: CMD in the background, SIGNAL once the fake
# gnuplot runs, then the checks
try() {
    name=$1 sig=$2
    shift 2
    rm -f "$T"/fake.*
    PATH="$T/bin:$PATH" "$@" >"$T/out" 2>"$T/err" &
    HPID=$!
    i=0
    while ! ls "$T"/fake.* >/dev/null 2>&1 && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
    f=$(ls "$T"/fake.* 2>/dev/null | head -n 1)
    if [ -z "$f" ]; then bad "$name: the fake gnuplot never started: $(cat "$T/err")"; kill -9 "$HPID"; HPID=; return; fi
    i=0
    while [ ! -s "$f" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    kids=$(cat "$f")
    kill -"$sig" "$HPID"
    i=0
    while kill -0 "$HPID" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    if kill -0 "$HPID" 2>/dev/null; then
        bad "$name: herd still runs 10 s after SIG$sig"
        kill -9 "$HPID"
    fi
    wait "$HPID"
    rc=$?
    HPID=
    case $sig in INT) want=130 ;; HUP) want=129 ;; *) want=143 ;; esac
    [ "$rc" = "$want" ] && ok || bad "$name: exit $rc after SIG$sig, want $want: $(cat "$T/err")"
    left=$(ls -A "$T/$dir" | grep '^\.herd-plot\.')
    [ -z "$left" ] && ok || bad "$name: left $left behind"
    i=0
    # shellcheck disable=SC2086
    while alive $kids && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
    # shellcheck disable=SC2086
    alive $kids && bad "$name: the gnuplot it started survives (pids $kids)" || ok
}

dir=res
try plot-term TERM "$HERD" plot "$T/res"
try plot-int INT "$HERD" plot "$T/res"
try plot-hup HUP "$HERD" plot "$T/res"
dir=runplot
try run-plot-term TERM "$HERD" run scenarios/thundering-herd.ini --quiet --set clients.count=200 --replications 2 \
    -o "$T/runplot" --plot
# the results of the run are whole (published before the plot began)
[ -s "$T/runplot/aggregate.csv" ] && ok || bad "run --plot: no aggregate.csv after SIGTERM in the plot"

# herd tune and herd report draw with the same hold (issue 42, items 2
# and 4): exit 128 + signal, and a fresh tune folder keeps nothing (no
# tune.csv, recommendation.txt or manifest.txt without figures); the
# report's figure directory in TMPDIR is removed
mkdir -p "$T/tmp"
dir=tmp
try tune-term TERM "$HERD" tune tests/tune/known.ini --search retry.max_attempts=1:2:1 --minimize failures \
    --quiet -o "$T/tunefresh"
[ ! -e "$T/tunefresh" ] && ok || bad "tune: SIGTERM while drawing left $(ls -A "$T/tunefresh")"
try tune-hup HUP "$HERD" tune tests/tune/known.ini --search retry.max_attempts=1:2:1 --minimize failures \
    --quiet -o "$T/tunefresh"
[ ! -e "$T/tunefresh" ] && ok || bad "tune: SIGHUP while drawing left $(ls -A "$T/tunefresh")"
try report-term TERM env TMPDIR="$T/tmp" "$HERD" report "$T/res"
[ -z "$(ls -A "$T/tmp")" ] && ok || bad "report: SIGTERM while drawing left $(ls -A "$T/tmp") in TMPDIR"
[ ! -e "$T/res/report.html" ] && ok || bad "report: SIGTERM while drawing published report.html"

# the time series per variant (herd report draws one for each, issue 41)
# is drawn in a TMPDIR directory of its own, under the same hold: the fake
# gnuplot waits on the second timeseries.gp (the first variant's series),
# the real one draws before it
"$HERD" run scenarios/deadline.ini --quiet --set clients.count=50 --replications 2 -o "$T/var" ||
    { echo "FAIL: herd run deadline.ini"; exit 1; }
real=$(command -v gnuplot)
cat >"$T/bin/gnuplot.series" <<EOS
#!/bin/sh
case "\$*" in
*/timeseries.gp*)
    if [ -e "$T/seen-ts" ]; then
        sleep 60 &
        echo "\$\$ \$!" >"$T/fake.\$\$"
        wait
        exit 0
    fi
    : >"$T/seen-ts" ;;
esac
exec "$real" "\$@"
EOS
chmod +x "$T/bin/gnuplot.series"
mv "$T/bin/gnuplot.series" "$T/bin/gnuplot"
rm -rf "$T/tmp" "$T/seen-ts" && mkdir -p "$T/tmp"
dir=var
try report-series-term TERM env TMPDIR="$T/tmp" "$HERD" report "$T/var"
[ -z "$(ls -A "$T/tmp")" ] && ok || bad "report: SIGTERM while drawing a variant's series left $(ls -A "$T/tmp") in TMPDIR"
[ ! -e "$T/var/report.html" ] && ok || bad "report: SIGTERM while drawing a variant's series published report.html"

echo "plot-signal: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
