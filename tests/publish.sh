#!/bin/sh
# Publishing is all or nothing (issue 42, item 6): renames slowed by strace
# (300 ms each, as on a slow network file system), a SIGTERM after each
# rename of herd run's, herd tune's and herd plot's publishing step in turn:
# herd exits 143 and the folder holds the previous complete outputs or the
# new ones, never a mix.  Two runs into one folder at once: the folder
# ends with one run's outputs, whole.
#
#   sh tests/publish.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
command -v strace >/dev/null 2>&1 || { echo "publish: skip: no strace"; exit 0; }
T=$(mktemp -d /tmp/herd-publish.XXXXXX)
SPID=
trap '[ -n "$SPID" ] && kill -9 $SPID 2>/dev/null; rm -rf "$T"' EXIT
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
strace -f -o /dev/null -e trace=none true 2>/dev/null || { echo "publish: skip: strace cannot trace here"; exit 0; }
export HERD_PLOTS="$(pwd)/plots"
SLOW="-f -o /dev/null -e trace=rename,renameat,renameat2 -e inject=rename,renameat,renameat2:delay_exit=300000"

# same DIR REF: 0 if every file of REF is in DIR with the same bytes
same() {
    for f in "$2"/*; do cmp -s "$f" "$1/$(basename "$f")" || return 1; done
}

# interrupt NAME DIR OLD NEW FILE CMD...: DIR holds the outputs OLD; CMD
# (writing the outputs NEW into DIR) runs with slow renames; once FILE is
# replaced, SIGTERM; then DIR must hold OLD or NEW, whole
interrupt() {
    name=$1 dir=$2 old=$3 new=$4 file=$5
    shift 5
    rm -rf "$dir" && cp -r "$old" "$dir"
    # shellcheck disable=SC2086
    strace $SLOW "$@" >"$T/out" 2>"$T/err" &
    SPID=$!
    i=0
    while cmp -s "$dir/$file" "$old/$file" && [ $i -lt 600 ]; do sleep 0.02; i=$((i + 1)); done
    hp=$(pgrep -P "$SPID" | head -n 1)
    [ -n "$hp" ] && kill -TERM "$hp"
    wait "$SPID"
    rc=$?
    SPID=
    [ "$rc" -eq 143 ] && ok || bad "$name: exit $rc, want 143: $(tail -n 2 "$T/err")"
    if same "$dir" "$old"; then ok; elif same "$dir" "$new"; then ok; else
        bad "$name: a mix of two runs' outputs after SIGTERM once $file was replaced"
    fi
    ls -A "$dir" | grep -q '^\.' && bad "$name: left $(ls -A "$dir" | grep '^\.')" || ok
}

# herd run: the outputs of seed 1, then seed 2 interrupted at each rename
RUN="scenarios/thundering-herd.ini --quiet --set clients.count=200 --replications 2"
# shellcheck disable=SC2086
"$HERD" run $RUN --seed 1 -o "$T/old" && "$HERD" run $RUN --seed 2 -o "$T/new" || { echo "FAIL: herd run"; exit 1; }
for f in summary.csv aggregate.csv timeseries.csv; do
    # shellcheck disable=SC2086
    interrupt "run-$f" "$T/d" "$T/old" "$T/new" "$f" "$HERD" run $RUN --seed 2 -o "$T/d"
done

# herd tune: text outputs and figures as one step
TUNE="tests/tune/known.ini --search retry.max_attempts=1:2:1 --minimize failures --quiet"
# shellcheck disable=SC2086
"$HERD" tune $TUNE --set run.seed=1 -o "$T/told" && "$HERD" tune $TUNE --set run.seed=2 -o "$T/tnew" ||
    { echo "FAIL: herd tune"; exit 1; }
for f in tune.csv recommendation.txt; do
    # shellcheck disable=SC2086
    interrupt "tune-$f" "$T/t" "$T/told" "$T/tnew" "$f" "$HERD" tune $TUNE --set run.seed=2 -o "$T/t"
done

# herd plot: the figures of a folder, drawn from seed 1's, then seed 2's CSVs
cp -r "$T/old" "$T/pold" && "$HERD" plot "$T/pold" --quiet && cp -r "$T/new" "$T/pnew" &&
    "$HERD" plot "$T/pnew" --quiet || { echo "FAIL: herd plot"; exit 1; }
rm -rf "$T/p" && cp -r "$T/pold" "$T/p" && for f in "$T"/pnew/*.csv "$T"/pnew/*.txt; do cp "$f" "$T/p/"; done
rm -rf "$T/pmid" && cp -r "$T/p" "$T/pmid"
interrupt "plot-timeseries" "$T/p" "$T/pmid" "$T/pnew" timeseries.png "$HERD" plot "$T/p" --quiet

# two runs into one folder at once: the first slow (600 ms a rename), the
# second fast (50 ms), started once the first has replaced summary.csv:
# one run's outputs, whole, at the end
rm -rf "$T/two" && cp -r "$T/old" "$T/two"
# shellcheck disable=SC2086
strace ${SLOW%300000}600000 "$HERD" run $RUN --seed 2 -o "$T/two" 2>/dev/null &
a=$!
i=0
while cmp -s "$T/two/summary.csv" "$T/old/summary.csv" && [ $i -lt 600 ]; do sleep 0.02; i=$((i + 1)); done
# shellcheck disable=SC2086
strace ${SLOW%300000}50000 "$HERD" run $RUN --seed 1 -o "$T/two" 2>/dev/null &
b=$!
wait $a
wait $b
if same "$T/two" "$T/old"; then ok; elif same "$T/two" "$T/new"; then ok; else
    bad "two runs into one folder at once left a mix of both"
fi
echo "publish: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
