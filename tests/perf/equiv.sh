#!/bin/sh
# tests/perf/equiv.sh OLD_HERD NEW_HERD [OUTDIR]: is a new herd binary
# statistically equivalent to an old one on every shipped scenario?  The
# rule it serves: "Outputs may change when a draw order must change, if each
# affected scenario's metrics agree with the old binary within CIs at 100
# replications (a table in the note)".
#
# For every scenario in scenarios/*.ini and scenarios/*/*.ini (those that
# `herd check` accepts), at the reduced size listed in tests/scenario-sizes.sh:
#  1. screen: both binaries, --replications 2 --jobs 1 --quiet; summary.csv
#     byte-identical => "unaffected"; identical but for the events column
#     (engine events, which a change may reduce on purpose) => "events only",
#     also unaffected (the same draws give the same metrics);
#  2. each affected scenario: both binaries at --replications 100 (the same
#     arguments), and build/perf_equiv (tests/perf/equiv.c) compares every
#     metric's mean per group (variant, sweep point, strategy) with Welch's
#     t test, Bonferroni at a family-wise 5% per scenario.
# Prints a summary table (scenario, arguments, affected?, comparisons,
# disagreements, seconds); OUTDIR keeps the CSVs, each comparison's log
# (NAME.log), the commands (commands.txt), the markdown tables of the
# headline metrics for the note (tables.md) and the summary (summary.md).
# Exit status: 0 all agree, 1 a disagreement, 2 a run or a comparison failed.
#
# Run from anywhere (it works in the repository holding this script; the
# scenarios are that checkout's):
#   make build/perf_equiv
#   sh tests/perf/equiv.sh /work/old/herd ./herd /tmp/equiv
# About 13 minutes of one core when every scenario is affected (720-810 s
# of 100-replication runs of both binaries, with the sizes below reduced
# to fit 20 minutes, and under a minute of screening and comparing), 17 s
# when none is.  Both binaries run with --jobs 1 under nice, one run at a time.
#
# Each scenario is one family at a family-wise 5%, as the rule reads: over
# the 28 scenarios a false alarm somewhere is possible (the Bonferroni
# bound is loose here, the metrics of a group being correlated: two old-
# vs-old runs, EQUIV_SEED_OFFSET=1000 and 2000, had 0 disagreements in
# 10,497 comparisons each, the largest |diff|/tol 0.85 and 0.87).  A lone disagreement near its
# tolerance can be rechecked with EQUIV_ONLY=NAME EQUIV_REPS=400: a real
# difference grows in t, a chance one fades.  EQUIV_ALPHA=0.0018 makes the
# whole run one family at 5%.
#
# Environment (all optional):
#   EQUIV=path           the comparison tool (default build/perf_equiv)
#   EQUIV_REPS=N         replications of the full comparison (default 100)
#   EQUIV_ONLY='a b'     only these scenarios (names as in the table:
#                        thundering-herd, workshop/02-jitter-and-cap, ...)
#   EQUIV_FULL=1         compare every scenario at EQUIV_REPS, even those the
#                        screen finds unaffected
#   EQUIV_SEED_OFFSET=K  (validation) the NEW side runs with --set
#                        run.seed=<the scenario's seed + K>: independent
#                        samples of the same binary should agree;
#                        --seed-offset K as the first argument does the same
#   EQUIV_NEW_ARGS='...' (validation) extra arguments for the NEW side only,
#                        e.g. "--set server.workers=98": an injected change
#                        the comparison must detect; evaluated by the shell,
#                        so quote a value with parentheses or spaces inside:
#                        "--set 'network.delay_s=normal(0.0055,0.001)'"
#   EQUIV_ALPHA=A        family-wise level of each scenario's comparisons
#                        (default 0.05, as the rule; 0.05/28 makes the
#                        whole run one family)
#   EQUIV_NICE=N         nice level of the runs (default 5)
set -eu

if [ "${1:-}" = "--seed-offset" ]; then
    EQUIV_SEED_OFFSET=$2
    shift 2
fi
[ $# -ge 2 ] || { echo "usage: tests/perf/equiv.sh [--seed-offset K] OLD_HERD NEW_HERD [OUTDIR]" >&2; exit 2; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
OLD=$(abs "$1")
NEW=$(abs "$2")
OUT=$(abs "${3:-$(mktemp -d /tmp/herd-equiv.XXXXXX)}")
cd "$(dirname "$0")/../.."
EQUIV=$(abs "${EQUIV:-build/perf_equiv}")
REPS=${EQUIV_REPS:-100}
NICE=${EQUIV_NICE:-5}
ALPHA=${EQUIV_ALPHA:-0.05}
OFFSET=${EQUIV_SEED_OFFSET:-}
NEW_ARGS=${EQUIV_NEW_ARGS:-}
for b in "$OLD" "$NEW" "$EQUIV"; do
    [ -x "$b" ] || { echo "equiv.sh: $b: not an executable (make build/perf_equiv?)" >&2; exit 2; }
done
mkdir -p "$OUT"
: >"$OUT/tables.md"
: >"$OUT/commands.txt"

# The reduced arguments of each scenario, the same for both binaries.  The
# budget: both binaries' 100-replication runs of every scenario in about 20
# minutes of one core.  The seconds below are one binary's 100-replication
# run on one core, as shipped (2 replications, times 50) -> reduced (half
# of both binaries' time in the runs of the validation).  A scenario not
# listed runs as shipped (each under 15 s).  The list is tests/scenario-sizes.sh.
. tests/scenario-sizes.sh
args_for() { scenario_args "$1"; }

# run BINARY SCENARIO ARGS REPS DIR [NEW]: one herd run; with NEW, the
# validation arguments of the NEW side too
run() {
    bin=$1 file=$2 args=$3 reps=$4 dir=$5 extra=""
    if [ "${6:-}" = new ]; then
        if [ -n "$OFFSET" ]; then
            seed=$(eval "\"$OLD\" check \"$file\" $args" | sed -n 's/^seed: //p' | head -1)
            extra="--set run.seed=$((seed + OFFSET))"
        fi
        extra="$extra $NEW_ARGS"
    fi
    rm -rf "$dir"
    echo "$bin run $file $args $extra --replications $reps --jobs 1 --quiet -o $dir" >>"$OUT/commands.txt"
    eval "nice -n \"$NICE\" \"$bin\" run \"$file\" $args $extra --replications \"$reps\" --jobs 1 --quiet -o \"$dir\"" \
        >"$dir.out" 2>&1 || { echo "equiv.sh: FAILED: $bin run $file $args $extra (see $dir.out)" >&2; return 1; }
}

# summary.csv without the events column
noevents() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "events") e = i }
             { out = ""; for (i = 1; i <= NF; i++) if (i != e) out = out (out == "" && i == 1 ? "" : ",") $i; print out }' "$1"
}

status=0
total=0
summary="$OUT/summary.md"
{
    echo "| scenario | arguments (both binaries; + --replications N --jobs 1) | affected? | comparisons | disagreements | seconds (both, N replications) |"
    echo "|---|---|---|---|---|---|"
} >"$summary"
[ -z "$OFFSET$NEW_ARGS" ] || echo "equiv.sh: validation: NEW side also gets${OFFSET:+ run.seed = the scenario's seed + $OFFSET}${NEW_ARGS:+ $NEW_ARGS}" | tee -a "$OUT/commands.txt"

for file in scenarios/*.ini scenarios/*/*.ini; do
    [ -f "$file" ] || continue
    name=${file#scenarios/}
    name=${name%.ini}
    if [ -n "${EQUIV_ONLY:-}" ]; then
        case " $EQUIV_ONLY " in *" $name "*) ;; *) continue ;; esac
    fi
    args=$(args_for "$name")
    if ! eval "\"$OLD\" check \"$file\" $args" >/dev/null 2>&1; then
        echo "| $name | $args | not runnable (herd check fails) | - | - | - |" >>"$summary"
        continue
    fi
    d="$OUT/$(echo "$name" | tr / _)"
    mkdir -p "$d"
    # 1. the screen
    if ! run "$OLD" "$file" "$args" 2 "$d/screen-old" || ! run "$NEW" "$file" "$args" 2 "$d/screen-new" new; then
        echo "| $name | $args | run failed | - | - | - |" >>"$summary"
        status=2
        continue
    fi
    if cmp -s "$d/screen-old/summary.csv" "$d/screen-new/summary.csv"; then
        affected="no (identical)"
    elif [ "$(noevents "$d/screen-old/summary.csv" | cksum)" = "$(noevents "$d/screen-new/summary.csv" | cksum)" ]; then
        affected="no (events only)"
    else
        affected=yes
    fi
    if [ "$affected" != yes ] && [ "${EQUIV_FULL:-0}" != 1 ]; then
        echo "| $name | $args | $affected | - | - | - |" >>"$summary"
        echo "equiv.sh: $name: $affected"
        continue
    fi
    # 2. the comparison at REPS replications
    t0=$(date +%s)
    if ! run "$OLD" "$file" "$args" "$REPS" "$d/old" || ! run "$NEW" "$file" "$args" "$REPS" "$d/new" new; then
        echo "| $name | $args | $affected | run failed | - | - |" >>"$summary"
        status=2
        continue
    fi
    t1=$(date +%s)
    total=$((total + t1 - t0))
    rc=0
    "$EQUIV" -a "$ALPHA" -t "$name ($REPS replications${args:+; $args})" -m "$OUT/tables.md" \
        "$d/old/summary.csv" "$d/new/summary.csv" >"$OUT/$(echo "$name" | tr / _).log" 2>&1 || rc=$?
    last=$(tail -1 "$OUT/$(echo "$name" | tr / _).log")
    case $rc in
    0 | 1)
        n=$(echo "$last" | sed -n 's/^equiv: \([0-9]*\) comparisons, \([0-9]*\) disagree$/\1/p')
        k=$(echo "$last" | sed -n 's/^equiv: \([0-9]*\) comparisons, \([0-9]*\) disagree$/\2/p')
        [ $rc = 0 ] || { [ $status = 2 ] || status=1; grep DISAGREE "$OUT/$(echo "$name" | tr / _).log" | sed "s|^|equiv.sh: $name: |" | head -20; }
        ;;
    *)
        n="error" k="-"
        status=2
        echo "equiv.sh: $name: perf_equiv failed: $last" >&2
        ;;
    esac
    echo "| $name | $args | $affected | $n | $k | $((t1 - t0)) |" >>"$summary"
    echo "equiv.sh: $name: $affected; $n comparisons, $k disagree ($((t1 - t0)) s for both binaries at $REPS replications)"
done

echo
cat "$summary"
echo
echo "equiv.sh: ${total} s of $REPS-replication runs; tables of the headline metrics: $OUT/tables.md; logs and CSVs: $OUT"
case $status in
0) echo "equiv.sh: passed: every affected scenario agrees with the old binary" ;;
1) echo "equiv.sh: FAILED: a scenario disagrees with the old binary" ;;
*) echo "equiv.sh: FAILED: a run or a comparison failed" ;;
esac
exit $status
