#!/bin/sh
# tests/metamorphic.sh - metamorphic tests of herd: relations between runs
# that must hold whatever the simulated numbers are.
#
#   sh tests/metamorphic.sh ./herd
#
# Prints one line per case, "ok NAME" or "FAIL NAME: reason", then
# "metamorphic: P passed, F failed"; exits 1 if any case failed.  Lines
# starting with "#" are information.  Needs only POSIX sh, awk, cmp, sed,
# mktemp.  Helpers (awk) are in tests/metamorphic/:
#   ini.awk  reads a scenario: its sweeps, variants; copies without some
#            sections; the sections in another order
#   csv.awk  the leading columns of the CSVs (variant, one per swept key):
#            the points of a run, the rows of one point, the --set
#            arguments that reproduce a point
#   keys.awk the key table of `herd keys --list`: checks it, generates two
#            values per key
#
# The relations (each a function below):
#   1, 2  check_points: every point of a swept run (sweep labels, variant)
#         equals a plain run of a copy without [sweep]/[variant] sections
#         given the point's values by --set (the variant's overrides too);
#         the same with a command-line sweep crossed with everything;
#         check_manifest: manifest.txt lists the variants and sweeps
#   3     check_seed_sweep: --sweep run.seed=... equals --seed runs
#   4     check_order: the order of the sections does not matter
#   5     check_jobs: --jobs 1 and --jobs 3 give the same bytes
#   6     check_variant_sets, check_variant_tool, check_range,
#         expect_refused: symptoms of known bugs
#   7     gen_cases: for every key of `herd keys --list`, a sweep of two
#         values against two --set runs, and a variant against a --set run
#
# Everything is compared byte for byte: herd's outputs do not depend on
# threads, and every point of a sweep uses the seeds of a plain run.

HERD_ARG=${1:-./herd}
case $HERD_ARG in
/*) HERD=$HERD_ARG ;;
*) HERD=$(pwd)/$HERD_ARG ;;
esac
if [ ! -x "$HERD" ]; then
    echo "usage: sh tests/metamorphic.sh PATH-TO-HERD ($HERD_ARG is not executable)" >&2
    exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
LIB=$HERE/metamorphic
SCENARIOS=$(dirname "$HERE")/scenarios
TAB=$(printf '\t')
# every CSV herd may write; summary, aggregate and timeseries always
CSVS="summary.csv aggregate.csv timeseries.csv compare.csv tools.csv"
SMALL_CLIENTS=40 # scenarios are run with this many clients...
REPS=2           # ...and this many replications
# a command-line sweep added to every scenario: a list of distributions,
# one with a comma inside parentheses (quoted in the CSVs)
CLI_SWEEP_KEY=network.delay_s
CLI_SWEEP_V1='constant(0.01)'
CLI_SWEEP_V2='normal(0.02, 0.005)'

T=$(mktemp -d "${TMPDIR:-/tmp}/herd-metamorphic.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
START=$(date +%s)

# ---------------------------------------------------------------------------
# Reporting

RESULTS=$T/results # every case line, counted at the end
: > "$RESULTS"

report() {
    printf '%s\n' "$1"
    printf '%s\n' "$1" >> "$RESULTS"
}
pass() { report "ok $1"; }
fail() { report "FAIL $1: $2"; }
# verdict NAME STATUS: ok when STATUS is 0, else FAIL with $REASON
verdict() {
    if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "$REASON"; fi
}
info() { printf '# %s\n' "$*"; }

# ---------------------------------------------------------------------------
# Running herd

SEQ=0
# workdir: a new empty directory under $T, in $WD (not printed: a command
# substitution would lose the counter)
workdir() {
    SEQ=$((SEQ + 1))
    WD=$T/w$SEQ.$WORKER
    mkdir "$WD" || exit 1
}
WORKER=main

# argf FILE ARG...: writes the arguments one a line (hrun reads them back,
# so arguments with spaces, commas and parentheses need no quoting)
argf() {
    af_file=$1
    shift
    : > "$af_file"
    [ $# -gt 0 ] && printf '%s\n' "$@" > "$af_file"
    return 0
}

# hrun OUT SCENARIO [ARGFILE...]: herd run SCENARIO -o OUT --quiet plus the
# arguments listed in the ARGFILEs; stderr into OUT.err; returns herd's
# exit status.
hrun() {
    hr_out=$1 hr_scn=$2
    shift 2
    hr_files=$*
    set --
    for hr_f in $hr_files; do
        while IFS= read -r hr_a; do set -- "$@" "$hr_a"; done < "$hr_f"
    done
    "$HERD" run "$hr_scn" -o "$hr_out" --quiet "$@" 2> "$hr_out.err" < /dev/null
}

# errof OUT: herd's message of run OUT, short
errof() { awk '{ s = s $0 " " } END { printf "%s", substr(s, 1, 160) }' "$1.err"; }

# with_data SCENARIO DIR: a copy of SCENARIO in DIR finds its data files
# and the Python modules its retry plugins import (relative paths start
# from the scenario's folder: link its data/ and its *.py)
with_data() {
    for py in "$(dirname "$1")"/*.py; do
        [ -f "$py" ] && ln -sf "$(cd "$(dirname "$py")" && pwd)/$(basename "$py")" "$2/$(basename "$py")"
    done
    [ -d "$(dirname "$1")/data" ] && ln -s "$(cd "$(dirname "$1")" && pwd)/data" "$2/data"
    return 0
}

# small_args SCENARIO COMMON CUT: the arguments that make SCENARIO small.
# COMMON (for every run): --replications, and --set clients.count unless a
# sweep or a variant of the file changes clients.count (setting it too
# would be refused).  CUT (for the swept run only): each [sweep NAME] cut
# to its first two values by --set 'sweep NAME.values=...'.
small_args() {
    if grep -Eq '^[[:space:]]*start[[:space:]]*=[[:space:]]*trace' "$1"; then
        # start = trace: the clients are the trace's arrivals; a small trace
        argf "$2" --replications "$REPS" --set "clients.trace_file=$HERE/data/trace.csv"
    elif awk -v mode=varied -f "$LIB/ini.awk" "$1" | grep -qx 'clients\.count'; then
        argf "$2" --replications "$REPS"
    else
        argf "$2" --replications "$REPS" --set "clients.count=$SMALL_CLIENTS"
    fi
    awk -v mode=sweeps -f "$LIB/ini.awk" "$1" |
        awk -F'\t' '{ print "--set"; print "sweep" ($1 == "" ? "" : " " $1) ".values=" $4 }' > "$3"
}

# ---------------------------------------------------------------------------
# Comparing outputs

# first_diff A B: where two files first differ: the line, and the first
# differing cell with its column name (from B's header; cells split at
# every comma, which is exact for the numeric part of herd's CSVs)
first_diff() {
    awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
         FNR == 1 { hn = split($0, h, ",") }
         !done && (FNR > n || a[FNR] != $0) { d = FNR; b = $0; done = 1 }
         { m = FNR }
         END {
             if (!done) { d = m + 1; b = "<end>" }
             x = (d in a) ? a[d] : "<end>"
             if (x == "<end>" || b == "<end>") {
                 printf "line %d: \"%s\" vs \"%s\"", d, substr(x, 1, 60), substr(b, 1, 60); exit
             }
             nx = split(x, xs, ","); nb = split(b, bs, ",")
             for (i = 1; i <= nx || i <= nb; i++) if (xs[i] != bs[i]) break
             printf "line %d, column %s: %s vs %s", d, (i <= hn ? h[i] : i), \
                 (i <= nx ? xs[i] : "<none>"), (i <= nb ? bs[i] : "<none>")
         }' "$1" "$2"
}

# rows FILE: number of data rows (lines after the header)
rows() { sed 1d "$1" | wc -l | tr -d ' '; }

# compare_point SWEPT RAW PLAIN: the rows of point RAW (the raw text of its
# leading cells) in every CSV of directory SWEPT, leading columns dropped,
# equal PLAIN's CSVs byte for byte, header included.  A CSV that only one
# side wrote must have no rows for the point.  Returns 1 with REASON.
compare_point() {
    cmp_sw=$1 cmp_raw=$2 cmp_pl=$3
    for cmp_f in summary.csv aggregate.csv timeseries.csv; do
        if [ ! -f "$cmp_pl/$cmp_f" ] || [ ! -f "$cmp_sw/$cmp_f" ]; then
            REASON="$cmp_f missing"
            return 1
        fi
    done
    for cmp_f in $CSVS; do
        cmp_sel=$cmp_pl.sel.$cmp_f
        if [ -f "$cmp_sw/$cmp_f" ]; then
            if ! TUPLE=$cmp_raw awk -v mode=select -f "$LIB/csv.awk" "$cmp_sw/$cmp_f" > "$cmp_sel"; then
                REASON="$cmp_f: cannot find its leading columns"
                return 1
            fi
            if [ -f "$cmp_pl/$cmp_f" ]; then
                if ! cmp -s "$cmp_sel" "$cmp_pl/$cmp_f"; then
                    REASON="$cmp_f at point [$cmp_raw], $(first_diff "$cmp_sel" "$cmp_pl/$cmp_f") (swept vs plain)"
                    return 1
                fi
            elif [ "$(rows "$cmp_sel")" -ne 0 ]; then
                REASON="$cmp_f has rows for point [$cmp_raw], the plain run wrote no $cmp_f"
                return 1
            fi
        elif [ -f "$cmp_pl/$cmp_f" ] && [ "$(rows "$cmp_pl/$cmp_f")" -ne 0 ]; then
            REASON="no $cmp_f in the swept run, the plain run for point [$cmp_raw] has rows"
            return 1
        fi
    done
    return 0
}

# compare_dirs A B: the same CSV files, byte for byte
compare_dirs() {
    cd_a=$(cd "$1" && ls -- *.csv 2> /dev/null | tr '\n' ' ')
    cd_b=$(cd "$2" && ls -- *.csv 2> /dev/null | tr '\n' ' ')
    if [ "$cd_a" != "$cd_b" ]; then
        REASON="different files: [$cd_a] vs [$cd_b]"
        return 1
    fi
    for cd_f in $cd_a; do
        if ! cmp -s "$1/$cd_f" "$2/$cd_f"; then
            REASON="$cd_f $(first_diff "$1/$cd_f" "$2/$cd_f")"
            return 1
        fi
    done
    return 0
}

# labels_of DIR KEY: the labels of swept KEY in DIR/summary.csv, one a line,
# in order of first appearance
labels_of() {
    awk -v mode=labels -f "$LIB/csv.awk" "$1/summary.csv" |
        awk -v k="sweep $2" '$0 == k { on = 1; next } /^sweep / { on = 0 } on { sub(/^  value /, ""); print }'
}

# ---------------------------------------------------------------------------
# Relations 1 and 2: sweep points and variants against plain runs

# check_points SCENARIO [EXTRA_ARGFILE]
#   Runs SCENARIO once, small, its sweeps cut to two values, plus the
#   arguments of EXTRA_ARGFILE (e.g. a --sweep): the swept run, in
#   $CP_DIR/full.  Then for every point of it, i.e. every distinct tuple of
#   leading cells of summary.csv (variant, sweep labels), a plain run of a
#   copy of SCENARIO without its [sweep] and [variant] sections, given the
#   same COMMON arguments plus --set KEY=LABEL per swept key and the
#   variant's overrides as --set (csv.awk mode=args).  Every CSV's rows of
#   the point must equal the plain run's.  Returns 1 with REASON.
check_points() {
    cp_scn=$1 cp_extra=${2:-}
    workdir; CP_DIR=$WD
    cp_w=$CP_DIR
    cp_name=$(basename "$cp_scn" .ini)
    small_args "$cp_scn" "$cp_w/common" "$cp_w/cut"
    hrun "$cp_w/full" "$cp_scn" "$cp_w/common" "$cp_w/cut" $cp_extra
    cp_rc=$?
    if [ $cp_rc -ne 0 ]; then
        REASON="swept run exit $cp_rc: $(errof "$cp_w/full")"
        return 1
    fi
    mkdir "$cp_w/base"
    with_data "$cp_scn" "$cp_w/base"
    awk -v mode=drop -v kinds="sweep variant" -f "$LIB/ini.awk" "$cp_scn" > "$cp_w/base/$cp_name.ini"
    awk -v mode=variants -f "$LIB/ini.awk" "$cp_scn" > "$cp_w/variants"
    if ! awk -v mode=tuples -f "$LIB/csv.awk" "$cp_w/full/summary.csv" > "$cp_w/points"; then
        REASON="summary.csv has no strategy column"
        return 1
    fi
    cp_i=0
    while IFS= read -r cp_raw; do
        cp_i=$((cp_i + 1))
        TUPLE=$cp_raw VARIANTS=$cp_w/variants awk -v mode=args -f "$LIB/csv.awk" \
            "$cp_w/full/summary.csv" > "$cp_w/p$cp_i.args"
        hrun "$cp_w/p$cp_i" "$cp_w/base/$cp_name.ini" "$cp_w/common" "$cp_w/p$cp_i.args"
        cp_rc=$?
        # A key of the file live only in some variant (a [tool] priority
        # read only where a variant sheds) has no effect in the plain copy,
        # which herd rightly refuses: that point's copy goes without it
        # (no value of it changes the model there, so neither does its
        # absence), the rest of the file as it was.
        cp_tries=0 cp_pf=$cp_w/base/$cp_name.ini
        while [ $cp_rc -eq 2 ] && [ $cp_tries -lt 8 ]; do
            cp_ln=$(sed -n "s|^herd: $cp_pf:\([0-9]*\): .*: no effect.*|\1|p" "$cp_w/p$cp_i.err" | head -n 1)
            [ -n "$cp_ln" ] || break
            if [ $cp_tries -eq 0 ]; then
                mkdir "$cp_w/pt$cp_i"
                with_data "$cp_scn" "$cp_w/pt$cp_i"
                cp "$cp_pf" "$cp_w/pt$cp_i/$cp_name.ini"
                cp_pf=$cp_w/pt$cp_i/$cp_name.ini
            fi
            sed "${cp_ln}s/.*/; (dead in this copy)/" "$cp_pf" > "$cp_pf.tmp" && mv "$cp_pf.tmp" "$cp_pf"
            rm -rf "$cp_w/p$cp_i"
            hrun "$cp_w/p$cp_i" "$cp_pf" "$cp_w/common" "$cp_w/p$cp_i.args"
            cp_rc=$?
            cp_tries=$((cp_tries + 1))
        done
        if [ $cp_rc -ne 0 ]; then
            REASON="plain run for point [$cp_raw] exit $cp_rc: $(errof "$cp_w/p$cp_i")"
            return 1
        fi
        compare_point "$cp_w/full" "$cp_raw" "$cp_w/p$cp_i" || return 1
    done < "$cp_w/points"
    if [ $cp_i -eq 0 ]; then
        REASON="summary.csv has no rows"
        return 1
    fi
    return 0
}

# check_manifest DIR SCENARIO: DIR/manifest.txt lists SCENARIO's variants
# ("variant NAME", then "  set KEY=VALUE" per override) and every sweep of
# the run ("sweep KEY", then "  value LABEL" per label, the labels of the
# CSVs).  Other lines are ignored.
check_manifest() {
    cm_m=$1/manifest.txt
    if [ ! -f "$cm_m" ]; then
        REASON="no manifest.txt"
        return 1
    fi
    awk -v mode=variants -f "$LIB/ini.awk" "$2" |
        awk -F'\t' '$2 == "" { print "variant " $1; next } { print "  set " $2 }' > "$1.want-variants"
    grep -E '^(variant |  set )' "$cm_m" > "$1.got-variants"
    if ! cmp -s "$1.want-variants" "$1.got-variants"; then
        REASON="variants: $(first_diff "$1.got-variants" "$1.want-variants") (got vs expected)"
        return 1
    fi
    awk -v mode=labels -f "$LIB/csv.awk" "$1/summary.csv" > "$1.want-sweeps"
    grep -E '^(sweep |  value )' "$cm_m" > "$1.got-sweeps"
    if ! cmp -s "$1.want-sweeps" "$1.got-sweeps"; then
        REASON="sweeps: $(first_diff "$1.got-sweeps" "$1.want-sweeps") (got vs expected)"
        return 1
    fi
    return 0
}

# cli_sweep_args SCENARIO FILE: the command-line sweep added to SCENARIO
# (another key if the file varies that one: it would be refused), into
# FILE; its key and values in CS_KEY, CS_V1, CS_V2
cli_sweep_args() {
    CS_KEY=$CLI_SWEEP_KEY CS_V1=$CLI_SWEEP_V1 CS_V2=$CLI_SWEEP_V2
    if awk -v mode=varied -f "$LIB/ini.awk" "$1" | grep -qx "$CS_KEY"; then
        CS_KEY=run.horizon_s CS_V1=100000 CS_V2=1000000
    fi
    argf "$2" --sweep "$CS_KEY=$CS_V1, $CS_V2"
}

# scenario_points SCENARIO: relations 1 and 2 on a scenario of scenarios/,
# with its own sweeps and variants, then with a command-line sweep crossed
# with them (and the manifest of that run)
scenario_points() {
    sp_scn=$1
    sp_name=$(basename "$sp_scn" .ini)
    sp_sweeps=$(awk -v mode=sweeps -f "$LIB/ini.awk" "$sp_scn" | wc -l | tr -d ' ')
    sp_vars=$(awk -v mode=variants -f "$LIB/ini.awk" "$sp_scn" | awk -F'\t' '$2 == ""' | wc -l | tr -d ' ')
    sp_case=
    [ "$sp_sweeps" -gt 0 ] && sp_case=sweep-points
    [ "$sp_vars" -gt 0 ] && sp_case=${sp_case:+$sp_case+}variants
    if [ -n "$sp_case" ]; then
        check_points "$sp_scn"
        verdict "$sp_case/$sp_name" $?
    fi
    cli_sweep_args "$sp_scn" "$T/cli-sweep.$sp_name"
    sp_key=$CS_KEY sp_v1=$CS_V1 sp_v2=$CS_V2
    check_points "$sp_scn" "$T/cli-sweep.$sp_name"
    sp_ok=$?
    if [ $sp_ok -eq 0 ]; then
        sp_labels=$(labels_of "$CP_DIR/full" "$sp_key" | tr '\n' '|')
        if [ "$sp_labels" != "$sp_v1|$sp_v2|" ]; then
            REASON="labels of $sp_key are [$sp_labels], expected exactly what was written: [$sp_v1|$sp_v2|]"
            sp_ok=1
        fi
    fi
    verdict "cli-sweep-points/$sp_name" $sp_ok
    if [ -f "$CP_DIR/full/summary.csv" ]; then
        check_manifest "$CP_DIR/full" "$sp_scn"
        verdict "manifest/$sp_name" $?
    fi
}

# ---------------------------------------------------------------------------
# Relation 3: a seed sweep equals --seed runs

# check_seed_sweep NAME SCENARIO S1,S2,...
check_seed_sweep() {
    workdir; ss_w=$WD
    argf "$ss_w/s.args" --sweep "run.seed=$3"
    hrun "$ss_w/full" "$2" "$ss_w/s.args"
    ss_rc=$?
    if [ $ss_rc -ne 0 ]; then
        REASON="--sweep run.seed=$3: exit $ss_rc: $(errof "$ss_w/full")"
        fail "$1" "$REASON"
        return
    fi
    ss_labels=$(labels_of "$ss_w/full" run.seed | tr '\n' ',')
    if [ "$ss_labels" != "$3," ]; then
        fail "$1" "labels of run.seed are [$ss_labels], expected [$3]"
        return
    fi
    for ss_s in $(printf '%s\n' "$3" | tr ',' ' '); do
        argf "$ss_w/$ss_s.args" --seed "$ss_s"
        hrun "$ss_w/$ss_s" "$2" "$ss_w/$ss_s.args"
        ss_rc=$?
        if [ $ss_rc -ne 0 ]; then
            fail "$1" "--seed $ss_s: exit $ss_rc: $(errof "$ss_w/$ss_s")"
            return
        fi
        if ! compare_point "$ss_w/full" "$ss_s" "$ss_w/$ss_s"; then
            fail "$1" "$REASON"
            return
        fi
    done
    pass "$1"
}

# ---------------------------------------------------------------------------
# Relation 4: the order of the sections does not matter

# check_order SCENARIO: the scenario, small, against two permutations of
# its sections (ini.awk mode=permute: reversed, and rotated by half; the
# relative order of [tool], [layer], [variant], [sweep] and [outage]
# sections is kept), every CSV byte for byte
check_order() {
    co_name=$(basename "$1" .ini)
    workdir; co_w=$WD
    small_args "$1" "$co_w/common" "$co_w/cut"
    hrun "$co_w/orig" "$1" "$co_w/common" "$co_w/cut"
    co_rc=$?
    if [ $co_rc -ne 0 ]; then
        fail "section-order/$co_name" "original order: exit $co_rc: $(errof "$co_w/orig")"
        return
    fi
    for co_p in reverse rotate; do
        mkdir "$co_w/$co_p"
        with_data "$1" "$co_w/$co_p"
        awk -v mode=permute -v perm=$co_p -f "$LIB/ini.awk" "$1" > "$co_w/$co_p/$co_name.ini"
        hrun "$co_w/$co_p/out" "$co_w/$co_p/$co_name.ini" "$co_w/common" "$co_w/cut"
        co_rc=$?
        if [ $co_rc -ne 0 ]; then
            fail "section-order/$co_name" "$co_p order: exit $co_rc: $(errof "$co_w/$co_p/out")"
            return
        fi
        if ! compare_dirs "$co_w/orig" "$co_w/$co_p/out"; then
            fail "section-order/$co_name" "$co_p order: $REASON"
            return
        fi
    done
    pass "section-order/$co_name"
}

# ---------------------------------------------------------------------------
# Relation 5: --jobs does not change a byte

# check_jobs SCENARIO: --jobs 1 against --jobs 3, with the command-line
# sweep too (more jobs to spread)
check_jobs() {
    cj_name=$(basename "$1" .ini)
    workdir; cj_w=$WD
    small_args "$1" "$cj_w/common" "$cj_w/cut"
    cli_sweep_args "$1" "$cj_w/sweep"
    for cj_j in 1 3; do
        argf "$cj_w/j$cj_j.args" --jobs $cj_j
        hrun "$cj_w/j$cj_j" "$1" "$cj_w/common" "$cj_w/cut" "$cj_w/sweep" "$cj_w/j$cj_j.args"
        cj_rc=$?
        if [ $cj_rc -ne 0 ]; then
            fail "jobs/$cj_name" "--jobs $cj_j: exit $cj_rc: $(errof "$cj_w/j$cj_j")"
            return
        fi
    done
    compare_dirs "$cj_w/j1" "$cj_w/j3"
    verdict "jobs/$cj_name" $?
}

# ---------------------------------------------------------------------------
# Relation 6: symptoms

# check_variant_sets BASE: [variant] sections setting run.seed,
# run.strategies, run.replications take effect: the variant's rows differ
# from an empty variant's and equal a plain run given the value by --set.
check_variant_sets() {
    workdir; vs_w=$WD
    mkdir "$vs_w/v"
    with_data "$1" "$vs_w/v"
    vs_file=$vs_w/v/$(basename "$1")
    { cat "$1"
      printf '\n[variant base]\n'
      printf '\n[variant seed]\nrun.seed = 7\n'
      printf '\n[variant strategies]\nrun.strategies = full_jitter\n'
      printf '\n[variant replications]\nrun.replications = 3\n'
    } > "$vs_file"
    hrun "$vs_w/full" "$vs_file"
    vs_rc=$?
    for vs_kv in seed:run.seed=7 strategies:run.strategies=full_jitter replications:run.replications=3; do
        vs_v=${vs_kv%%:*} vs_set=${vs_kv#*:}
        vs_case=variant-sets/${vs_set%%=*}
        if [ $vs_rc -ne 0 ]; then
            fail "$vs_case" "run with the variants: exit $vs_rc: $(errof "$vs_w/full")"
            continue
        fi
        TUPLE=base awk -v mode=select -f "$LIB/csv.awk" "$vs_w/full/summary.csv" > "$vs_w/base.rows"
        TUPLE=$vs_v awk -v mode=select -f "$LIB/csv.awk" "$vs_w/full/summary.csv" > "$vs_w/$vs_v.rows"
        if cmp -s "$vs_w/base.rows" "$vs_w/$vs_v.rows"; then
            fail "$vs_case" "variant $vs_v ($vs_set) has the same rows as an empty variant: the setting is ignored"
            continue
        fi
        argf "$vs_w/$vs_v.args" --set "$vs_set"
        hrun "$vs_w/$vs_v" "$1" "$vs_w/$vs_v.args"
        vs_rc2=$?
        if [ $vs_rc2 -ne 0 ]; then
            fail "$vs_case" "--set $vs_set: exit $vs_rc2: $(errof "$vs_w/$vs_v")"
            continue
        fi
        compare_point "$vs_w/full" "$vs_v" "$vs_w/$vs_v"
        verdict "$vs_case" $?
    done
}

# check_variant_tool SCENARIO-WITH-TOOLS: a variant adding a [tool extra]
# has rows for that tool in tools.csv, and both variants (one empty) equal
# --set runs (check_points)
check_variant_tool() {
    workdir; vt_w=$WD
    mkdir "$vt_w/v"
    with_data "$1" "$vt_w/v"
    vt_file=$vt_w/v/$(basename "$1")
    { awk -v mode=drop -v kinds=variant -f "$LIB/ini.awk" "$1"
      printf '\n[variant plain]\n\n[variant extra]\ntool extra.weight = 1\n'
    } > "$vt_file"
    check_points "$vt_file"
    vt_ok=$?
    if [ -f "$CP_DIR/full/summary.csv" ]; then
        # the rows of variant extra whose tool column is extra
        if [ ! -f "$CP_DIR/full/tools.csv" ] ||
            ! TUPLE=extra awk -v mode=select -f "$LIB/csv.awk" "$CP_DIR/full/tools.csv" |
                awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tool") c = i; next }
                         c && $c == "extra" { n++ }
                         END { exit n > 0 ? 0 : 1 }'; then
            REASON="tools.csv has no rows for tool extra in variant extra"
            vt_ok=1
        fi
    fi
    verdict variant-adds-tool $vt_ok
}

# check_range NAME SCENARIO KEY RANGE HOW LABEL...: --sweep KEY=RANGE gives
# the labels LABEL... and its points equal --set runs.  HOW=exact: the
# labels are exactly LABEL...; HOW=numeric: as many labels, each with
# LABEL's value, the last one written exactly as LABEL (the range's end)
check_range() {
    cr_case=$1 cr_scn=$2 cr_key=$3 cr_range=$4 cr_how=$5
    shift 5
    cr_want=$(printf '%s|' "$@")
    workdir; cr_w=$WD
    argf "$cr_w/r.args" --sweep "$cr_key=$cr_range"
    check_points "$cr_scn" "$cr_w/r.args"
    cr_ok=$?
    if [ -f "$CP_DIR/full/summary.csv" ]; then
        cr_got=$(labels_of "$CP_DIR/full" "$cr_key" | tr '\n' '|')
        if [ "$cr_how" = exact ]; then
            [ "$cr_got" = "$cr_want" ]
        else
            printf '%s\n%s\n' "$cr_got" "$cr_want" | awk -F'|' '
                NR == 1 { n = split($0, g, "|") } NR == 2 { m = split($0, w, "|") }
                END { if (n != m || g[n - 1] != w[m - 1]) exit 1
                      for (i = 1; i < n; i++) if (g[i] + 0 != w[i] + 0) exit 1 }'
        fi
        if [ $? -ne 0 ]; then
            REASON="labels [$cr_got], expected [$cr_want]"
            cr_ok=1
        fi
    fi
    verdict "$cr_case" $cr_ok
}

# expect_refused NAME SCENARIO ARG...: exit 2, one line on stderr, no
# output directory
expect_refused() {
    er_case=$1 er_scn=$2
    shift 2
    workdir; er_w=$WD
    argf "$er_w/args" "$@"
    hrun "$er_w/out" "$er_scn" "$er_w/args"
    er_rc=$?
    er_lines=$(wc -l < "$er_w/out.err" | tr -d ' ')
    if [ $er_rc -ne 2 ]; then
        fail "$er_case" "exit $er_rc, expected 2 (refused): herd run $(basename "$er_scn") $*"
    elif [ -e "$er_w/out" ]; then
        fail "$er_case" "refused but created the output directory"
    elif [ "$er_lines" -ne 1 ]; then
        fail "$er_case" "refused with $er_lines lines on stderr, expected one"
    else
        pass "$er_case"
    fi
}

# ---------------------------------------------------------------------------
# Relation 7: generated from the key table

GEN=$T/gen

# write_bases: three tiny scenarios (a few thousand events a run): plain
# (one outage), tools (plus two [tool] sections), layers (plus two [layer]
# sections).  Keys of [tool NAME] use tools, [layer NAME] layers, others plain.
write_bases() {
    mkdir -p "$GEN"
    cat > "$GEN/base-plain.ini" << 'EOF'
; tests/metamorphic.sh: base of the generated cases
[run]
strategies = exponential, full_jitter
replications = 2
seed = 11
horizon_s = 60

[clients]
count = 30
requests_per_client = 2

[network]
delay_s = constant(0.005)

[server]
workers = 4
queue = 8
service_time_s = exponential(0.05)

[outage a]
start_s = 0
end_s = 1
status = 503

[retry]
base_s = 0.1
cap_s = 1
max_attempts = 4
attempt_timeout_s = 1
EOF
    { sed 's/^; tests.*/; tests\/metamorphic.sh: base of the generated cases, with tools/' "$GEN/base-plain.ini"
      printf '\n[tool t1]\nweight = 1\npreset = read\n\n[tool t2]\nweight = 1\npreset = reversible\n'
    } > "$GEN/base-tools.ini"
    { sed 's/^; tests.*/; tests\/metamorphic.sh: base of the generated cases, with layers/' "$GEN/base-plain.ini"
      printf '\n[layer l1]\nmax_attempts = 2\n\n[layer l2]\nmax_attempts = 2\nbase_s = 0.05\n'
    } > "$GEN/base-layers.ini"
}

# refused_ok OUT RC: RC is 0 or 2, and a refusal created no directory;
# else REASON
refused_ok() {
    case $2 in
    0) return 0 ;;
    2) [ ! -e "$1" ] && return 0
       REASON="refused but created its output directory"
       return 1 ;;
    *) REASON="exit $2: $(errof "$1")"
       return 1 ;;
    esac
}

# gen_key KEY BASE V1 V2 DIR: the two generated cases of one key.
#   gen-sweep/KEY:   --sweep KEY=V1,V2 against --set KEY=V1 and --set
#                    KEY=V2: all refused, or the sweep refused and at least
#                    one --set refused, or none refused and the sweep's
#                    labels are V1, V2 and its points equal the --set runs.
#   gen-variant/KEY: a [variant v] with KEY = V1 against --set KEY=V1:
#                    both refused, or both run and are equal.
gen_key() {
    g_key=$1 g_base=$GEN/base-$2.ini g_v1=$3 g_v2=$4 g_d=$5
    mkdir "$g_d"
    argf "$g_d/s.args" --sweep "$g_key=$g_v1,$g_v2"
    argf "$g_d/1.args" --set "$g_key=$g_v1"
    argf "$g_d/2.args" --set "$g_key=$g_v2"
    hrun "$g_d/s" "$g_base" "$g_d/s.args"; g_rs=$?
    hrun "$g_d/1" "$g_base" "$g_d/1.args"; g_r1=$?
    hrun "$g_d/2" "$g_base" "$g_d/2.args"; g_r2=$?
    g_ok=0
    if ! refused_ok "$g_d/s" $g_rs; then
        REASON="sweep: $REASON"; g_ok=1
    elif ! refused_ok "$g_d/1" $g_r1; then
        REASON="--set $g_key=$g_v1: $REASON"; g_ok=1
    elif ! refused_ok "$g_d/2" $g_r2; then
        REASON="--set $g_key=$g_v2: $REASON"; g_ok=1
    elif [ $g_rs -eq 2 ]; then
        if [ $g_r1 -ne 2 ] && [ $g_r2 -ne 2 ]; then
            REASON="sweep refused ($(errof "$g_d/s")) but --set runs of both values ran"; g_ok=1
        fi
    elif [ $g_r1 -eq 2 ] || [ $g_r2 -eq 2 ]; then
        [ $g_r1 -eq 2 ] && g_bad=$g_v1 g_out=$g_d/1 || g_bad=$g_v2 g_out=$g_d/2
        REASON="sweep ran but --set $g_key=$g_bad was refused ($(errof "$g_out"))"; g_ok=1
    else
        g_got=$(awk -v mode=tuples -f "$LIB/csv.awk" "$g_d/s/summary.csv" | tr '\n' '|')
        if [ "$g_got" != "$g_v1|$g_v2|" ]; then
            REASON="points [$g_got], expected [$g_v1|$g_v2|]"; g_ok=1
        elif ! compare_point "$g_d/s" "$g_v1" "$g_d/1" || ! compare_point "$g_d/s" "$g_v2" "$g_d/2"; then
            g_ok=1
        fi
    fi
    verdict "gen-sweep/$g_key" $g_ok

    mkdir "$g_d/v"
    { cat "$g_base"; printf '\n[variant v]\n%s = %s\n' "$g_key" "$g_v1"; } > "$g_d/v/base-$2.ini"
    hrun "$g_d/vo" "$g_d/v/base-$2.ini"; g_rv=$?
    g_ok=0
    if ! refused_ok "$g_d/vo" $g_rv; then
        REASON="variant: $REASON"; g_ok=1
    elif [ $g_rv -eq 2 ] && [ $g_r1 -ne 2 ]; then
        REASON="variant refused ($(errof "$g_d/vo")) but --set $g_key=$g_v1 ran"; g_ok=1
    elif [ $g_rv -eq 0 ] && [ $g_r1 -eq 2 ]; then
        REASON="variant ran but --set $g_key=$g_v1 was refused ($(errof "$g_d/1"))"; g_ok=1
    elif [ $g_rv -eq 0 ]; then
        compare_point "$g_d/vo" v "$g_d/1" || g_ok=1
    fi
    verdict "gen-variant/$g_key" $g_ok
}

# gen_cases: checks `herd keys --list` (falling back on the Markdown of
# `herd keys` to still generate the cases), then runs gen_key for every key
# on two workers
gen_cases() {
    write_bases
    "$HERD" keys --list > "$GEN/keys.list" 2> "$GEN/keys.err"
    gc_rc=$?
    gc_problem=$(awk -v mode=check -f "$LIB/keys.awk" "$GEN/keys.list" | head -n 1)
    if [ $gc_rc -ne 0 ] || [ -n "$gc_problem" ]; then
        fail keys-list "herd keys --list: exit $gc_rc${gc_problem:+, $gc_problem}"
        info "keys --list unusable: generating the cases from the Markdown of herd keys"
        "$HERD" keys | awk -v mode=markdown -f "$LIB/keys.awk" > "$GEN/keys.list"
    else
        pass keys-list
    fi
    awk -v mode=gen -v data="$HERE/data" -f "$LIB/keys.awk" "$GEN/keys.list" > "$GEN/gen.list"
    gc_keys=$(grep -cv '^#skip' "$GEN/gen.list")
    gc_skip=$(grep '^#skip' "$GEN/gen.list" | cut -f 2 | tr '\n' ' ' | sed 's/ $//')
    grep -v '^#skip' "$GEN/gen.list" | awk '{ print NR "\t" $0 }' > "$GEN/jobs"
    for gc_k in 0 1; do
        (
            WORKER=g$gc_k
            RESULTS=/dev/null
            awk -v k=$gc_k -F'\t' 'NR % 2 == k' "$GEN/jobs" |
                while IFS="$TAB" read -r gc_n gc_key gc_base gc_v1 gc_v2; do
                    gen_key "$gc_key" "$gc_base" "$gc_v1" "$gc_v2" "$GEN/k$gc_n" > "$GEN/k$gc_n.res"
                    rm -rf "$GEN/k$gc_n"
                done
        ) &
    done
    wait
    gc_n=0
    while [ $gc_n -lt "$gc_keys" ]; do
        gc_n=$((gc_n + 1))
        while IFS= read -r gc_line; do report "$gc_line"; done < "$GEN/k$gc_n.res"
    done
    info "relation 7: $((gc_keys * 2)) generated cases from $gc_keys keys (skipped: ${gc_skip:-none})"
}

# ---------------------------------------------------------------------------
# Main

info "herd: $HERD"
write_bases
BASE=$GEN/base-plain.ini

info "relations 1, 2: sweep points and variants against plain --set runs"
for s in "$SCENARIOS"/*.ini; do
    scenario_points "$s"
done

info "relation 3: a seed sweep against --seed runs"
check_seed_sweep seed-sweep "$BASE" 1,2,3
check_seed_sweep seed-sweep-11-digit "$BASE" 12345678901,12345678902

info "relation 4: the order of the sections"
for s in "$SCENARIOS"/*.ini; do
    check_order "$s"
done

info "relation 5: --jobs 1 against --jobs 3"
for s in "$SCENARIOS"/*.ini; do
    check_jobs "$s"
done

info "relation 6: symptoms"
check_variant_sets "$BASE"
check_variant_tool "$SCENARIOS/agent-tools.ini"
check_range range-labels "$BASE" retry.base_s 0.1:0.3:0.1 exact 0.1 0.2 0.3
# points 1e-10 apart: %.10g labels would collapse them into one
check_range tiny-range "$BASE" network.delay_s 1:1.0000000003:0.0000000001 exact \
    1 1.0000000001 1.0000000002 1.0000000003
expect_refused refuse/sweep-of-swept-key "$SCENARIOS/aws-2015-occ.ini" \
    --replications 2 --sweep clients.count=10,20
expect_refused refuse/equal-range-points "$BASE" --sweep network.delay_s=1:1.0000000000000002:1e-20
expect_refused refuse/sweep-twice "$BASE" --sweep retry.base_s=0.5,1 --sweep retry.base_s=0.2,0.3
expect_refused refuse/set-and-sweep "$BASE" --set retry.base_s=0.5 --sweep retry.base_s=0.2,0.3
expect_refused refuse/set-and-variant "$SCENARIOS/idempotency.ini" \
    --replications 2 --set clients.count=40 --set idempotency.keys=none

info "relation 7: generated from the key table"
gen_cases

P=$(grep -c '^ok ' "$RESULTS")
F=$(grep -c '^FAIL ' "$RESULTS")
info "$(($(date +%s) - START)) s"
echo "metamorphic: $P passed, $F failed"
[ "$F" -eq 0 ]
