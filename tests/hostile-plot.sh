#!/bin/sh
# Hostile input for the figures (issue 10: no shell between herd and its
# data).  A results directory may come from a shared archive, so its name
# and its contents are untrusted:
#
#   names     directory names with quotes, $(), backticks, ';', spaces, a
#             newline, a leading dash, '<' and '|' (gnuplot pipes), '@':
#             herd run --plot and herd plot draw the figures (or refuse the
#             name cleanly) and never run the command in the name;
#   CSVs      fields that try to reach gnuplot as code (system(), @macro,
#             quotes), commas in quoted fields, very long fields, NUL and
#             control bytes, wrong column counts, headers, numbers and
#             strategies, truncated, empty, special and huge files: refused
#             with "herd: FILE:LINE: ...; expected ...", exit 2, one line,
#             no figure written (the previous ones left as they were), no
#             private directory left behind.
#
# Every herd call runs in $W; every injected command is `touch PWNED...`,
# so a file named PWNED* anywhere under $T means a command ran.
#
#   sh tests/hostile-plot.sh ./herd      (from the repository root; needs gnuplot)
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/herd-hostile.XXXXXX)
trap 'rm -rf "$T"' EXIT
unset HERD_PLOTS HERD_PLOT_DATA
W="$T/w"
mkdir "$W" "$T/c"
pass=0
failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
SMALL="--quiet --replications 2 --set clients.count=100"
SCEN="$ROOT/scenarios/thundering-herd.ini"

# pwned WHAT: no injected command has run so far.
pwned() {
    if [ -n "$(find "$T" "$ROOT" -maxdepth 3 -name 'PWNED*' 2>/dev/null)" ]; then
        bad "$1: an injected command ran: $(find "$T" "$ROOT" -maxdepth 3 -name 'PWNED*')"
        find "$T" "$ROOT" -maxdepth 3 -name 'PWNED*' -exec rm -rf {} + 2>/dev/null
    else
        ok
    fi
}

# figs DIR WHAT: DIR holds timeseries.png/.svg and goodput.png/.svg.
figs() {
    for f in timeseries.png timeseries.svg goodput.png goodput.svg; do
        [ -s "$1/$f" ] || { bad "$2: no $f"; return; }
    done
    ok
}

# --- hostile directory names --------------------------------------------------
NL=$(printf 'new\nline')
i=0
for name in "x'; touch PWNED1; echo '" 'x"; touch PWNED2; echo "' 'x$(touch PWNED3)' 'x`touch PWNED4`' \
    'a;touch PWNED5;b' 'with space' "$NL" '<touch PWNED6' '|touch PWNED7' 'x@PWNED8' 'back\slash' '-dash'; do
    i=$((i + 1))
    # herd run -o NAME --plot
    # shellcheck disable=SC2086
    (cd "$W" && "$HERD" run "$SCEN" -o "$name" $SMALL --plot) >"$T/out" 2>&1 && ok || bad "name $i: run --plot: $(cat "$T/out")"
    figs "$W/$name" "name $i: run --plot"
    rm -f "$W/$name"/*.png "$W/$name"/*.svg
    # herd plot NAME (a leading dash reads as an option: refused, then ./NAME)
    case $name in
    -*)
        (cd "$W" && "$HERD" plot "$name") >"$T/out" 2>&1
        rc=$?
        [ "$rc" -eq 2 ] && grep -q "unknown option '-d'.*needs ./ or --" "$T/out" && ok || bad "name $i: plot $name: exit $rc: $(cat "$T/out")"
        (cd "$W" && "$HERD" plot "./$name" --quiet) >"$T/out" 2>&1 && ok || bad "name $i: plot ./$name: $(cat "$T/out")"
        (cd "$W" && "$HERD" plot --quiet -- "$name") >"$T/out" 2>&1 && ok || bad "name $i: plot -- $name: $(cat "$T/out")"
        ;;
    *)
        (cd "$W" && "$HERD" plot "$name" --quiet) >"$T/out" 2>&1 && ok || bad "name $i: plot: $(cat "$T/out")"
        ;;
    esac
    figs "$W/$name" "name $i: plot"
    ls -a "$W/$name" | grep -q '^\.herd-plot' && bad "name $i: private directory left" || ok
    pwned "name $i ($name)"
done
# the same names as absolute paths, and a name that is nothing but hostile
(cd "$W" && "$HERD" plot "$W/x\$(touch PWNED3)" --quiet) >"$T/out" 2>&1 && ok || bad "absolute name: $(cat "$T/out")"
pwned "absolute name"
# the "wrote" line escapes a newline in the name (one line of output)
(cd "$W" && "$HERD" plot "$NL") >"$T/out" 2>&1 && [ "$(wc -l <"$T/out")" -eq 1 ] && grep -q 'new\\nline/timeseries.png' "$T/out" \
    && ok || bad "newline name: output not one escaped line: $(cat "$T/out")"

# --- hostile CSVs -----------------------------------------------------------------
# Three clean directories to spoil: plain with a baseline (summary,
# aggregate, timeseries, compare), swept, and with variants and tools.
# shellcheck disable=SC2086
"$HERD" run "$SCEN" -o "$T/plain" $SMALL --set run.baseline=exponential --plot && ok || bad "plain run"
# shellcheck disable=SC2086
"$HERD" run "$SCEN" -o "$T/swept" $SMALL --sweep server.workers=20,40 && ok || bad "swept run"
"$HERD" run "$ROOT/scenarios/agent-tools.ini" -o "$T/tools" --quiet --replications 2 --set clients.count=50 && ok \
    || bad "tools run"
# commas in quoted fields, where herd writes them (a distribution), are data
# shellcheck disable=SC2086
"$HERD" run "$SCEN" -o "$T/dist" $SMALL --sweep 'server.service_time_s=exponential(0.1),normal(0.1, 0.02)' --plot \
    && grep -q '^"normal(0.1, 0.02)",' "$T/dist/aggregate.csv" && [ -s "$T/dist/sweep_calls.png" ] && ok \
    || bad "a distribution sweep is not drawn"
# input.csv (an empirical service time): the replay figure
# shellcheck disable=SC2086
"$HERD" run "$SCEN" -o "$T/input" $SMALL --set "server.service_time_s=empirical($ROOT/tests/data/hist.csv)" --plot \
    && [ -s "$T/input/replay.png" ] && ok || bad "the replay figure is not drawn"

# setf FILE LINE COL VALUE: sets one field (files without quoted fields).
setf() {
    V=$4 awk -F, -v OFS=, -v L="$2" -v C="$3" 'NR == L { $C = ENVIRON["V"] } { print }' "$1" >"$1.new" && mv "$1.new" "$1"
}
# setl FILE LINE TEXT: replaces a whole line.
setl() {
    V=$3 awk -v L="$2" 'NR == L { print ENVIRON["V"]; next } { print }' "$1" >"$1.new" && mv "$1.new" "$1"
}

# refused NAME BASE FILE LINE FRAGMENT EDIT...: a copy of BASE spoilt by
# EDIT (run in the copy) is refused: exit 2, one line on stderr,
# "herd: DIR/FILE:LINE: " then FRAGMENT, stdout empty, no figure, no
# private directory, no injected command.
refused() {
    name=$1 base=$2 file=$3 line=$4 frag=$5
    shift 5
    d="$T/c/$name"
    cp -r "$T/$base" "$d" && rm -f "$d"/*.png "$d"/*.svg
    (cd "$d" && eval "$@") || { bad "$name: the edit failed"; return; }
    (cd "$W" && "$HERD" plot "$d") >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" -ne 2 ]; then bad "$name: exit $rc, want 2: $(cat "$T/err")"; return; fi
    [ "$(wc -l <"$T/err")" -eq 1 ] && ok || bad "$name: stderr is not one line: $(cat "$T/err")"
    grep -qF -- "herd: $d/$file:$line: " "$T/err" && grep -qF -- "$frag" "$T/err" && ok \
        || bad "$name: stderr lacks '$d/$file:$line: ... $frag': $(cat "$T/err")"
    grep -q 'expected' "$T/err" && ok || bad "$name: the message does not say what was expected: $(cat "$T/err")"
    [ ! -s "$T/out" ] && ok || bad "$name: printed $(cat "$T/out")"
    ls -a "$d" | grep -q '\.png$\|\.svg$\|^\.herd-plot' && bad "$name: wrote $(ls -a "$d")" || ok
    pwned "$name"
}

STRAT='immediate, constant, exponential, full_jitter'
refused input-header input input.csv 1 "expected the header series,x,y" "setl input.csv 1 'series,x,z'"
refused input-series input input.csv 2 "expected service_cdf or arrival_rate" \
    "setf input.csv 2 1 'system(touch PWNED)'"
refused input-number input input.csv 3 "and two finite numbers" "setf input.csv 3 2 nan"
refused input-macro input input.csv 3 "and two finite numbers" "setf input.csv 3 3 @x"
# code in a strategy field: raw (a quote inside an unquoted field), quoted
refused system-raw plain timeseries.csv 2 'a quote inside an unquoted field' \
    "setf timeseries.csv 2 1 'x\";system(\"touch PWNED\");y=\"'"
refused system-quoted plain timeseries.csv 2 "is 'x\";system(\"touch PWNED\");y=\"'; expected $STRAT" \
    "setf timeseries.csv 2 1 '\"x\"\";system(\"\"touch PWNED\"\");y=\"\"\"'"
refused macro plain aggregate.csv 3 "(strategy) is '@macro'; expected $STRAT" "setf aggregate.csv 3 1 @macro"
refused backtick plain summary.csv 2 "expected $STRAT" "setf summary.csv 2 1 '\`touch PWNED\`'"
refused unknown-strategy plain compare.csv 2 "(baseline) is 'bogus_jitter'; expected $STRAT" \
    "setf compare.csv 2 2 bogus_jitter"
refused quoted-comma-strategy plain aggregate.csv 2 "is 'full_jitter,x'" "setf aggregate.csv 2 1 '\"full_jitter,x\"'"
# variant names and sweep values: a restricted set of characters
refused variant-quote tools aggregate.csv 2 "(variant) is 'a\"b'; expected a variant name" \
    "setf aggregate.csv 2 1 '\"a\"\"b\"'"
refused variant-subst tools timeseries.csv 3 "(variant) is 'x\$(touch PWNED)'" "setf timeseries.csv 3 1 'x\$(touch PWNED)'"
refused variant-macro tools summary.csv 2 "(variant) is '@x'" "setf summary.csv 2 1 @x"
refused sweep-quote swept aggregate.csv 2 "(server.workers) is '20\"; touch PWNED'; expected a sweep value" \
    "setf aggregate.csv 2 1 '\"20\"\"; touch PWNED\"'"
refused sweep-comma swept compare.csv 2 "(server.workers) is '20,40'" \
    ":; cp ../../plain/compare.csv . && setl compare.csv 1 server.workers,\$(sed -n 1p compare.csv) && setl compare.csv 2 '\"20,40\",'\$(sed -n 2p compare.csv)"
refused sweep-macro swept timeseries.csv 2 "(server.workers) is '@x'" "setf timeseries.csv 2 1 @x"
refused number-comma plain summary.csv 3 "(clients) is '1,5'; expected an unsigned integer" \
    "setf summary.csv 3 4 '\"1,5\"'"
# very long fields
LONG=$(awk 'BEGIN { while (n++ < 70000) printf "x" }')
refused long-line plain summary.csv 2 'a line longer than 65536 bytes' "setf summary.csv 2 1 '$LONG'"
refused long-variant tools aggregate.csv 2 "expected a variant name of 1-63" \
    "setf aggregate.csv 2 1 $(awk 'BEGIN { while (n++ < 64) printf "v" }')"
refused long-number plain aggregate.csv 2 "expected a number" "setf aggregate.csv 2 5 1$(awk 'BEGIN { while (n++ < 60) printf "0" }')"
# bytes
refused nul plain timeseries.csv 4 'a NUL byte; expected text' "printf 'immediate,0,\\000,0\\n' | cat - >>timeseries.csv.x; sed -n 1,3p timeseries.csv >t && cat t timeseries.csv.x >timeseries.csv && rm t timeseries.csv.x"
refused escape plain compare.csv 2 'control character \x1b; expected printable text' \
    "setf compare.csv 2 1 \"\$(printf 'full_jitter\\033[31m')\""
refused crlf plain summary.csv 1 'control character \x0d' "sed 's/\$/\\r/' summary.csv >s && mv s summary.csv"
refused tool-control tools tools.csv 2 'control character \x07' "setf tools.csv 2 3 \"\$(printf 'send\\007')\""
# row lengths
refused short-row plain summary.csv 3 'fields; expected' "setl summary.csv 3 immediate,1,2"
refused long-row tools tools.csv 2 'fields; expected' "setl tools.csv 2 \"\$(sed -n 2p tools.csv),1\""
refused empty-line plain aggregate.csv 3 'an empty line' "setl aggregate.csv 3 ''"
refused unclosed-quote plain compare.csv 2 'a quote that is never closed' "setf compare.csv 2 1 '\"full_jitter'"
# numbers
refused non-numeric plain summary.csv 2 "(replication) is '0x10'; expected an unsigned integer" "setf summary.csv 2 2 0x10"
refused negative-u64 plain timeseries.csv 2 "(arrivals) is '-1'; expected an unsigned integer" "setf timeseries.csv 2 4 -1"
refused bad-double plain compare.csv 2 "is '1e5e5'; expected a number (or nan or n/a: undefined)" "setf compare.csv 2 4 1e5e5"
# a value gnuplot cannot range over (hi - lo overflows): refused, never drawn
refused huge-double plain compare.csv 2 "is '1e308'; expected a number (or nan or n/a: undefined) of magnitude at most 1e+100" "setf compare.csv 2 4 1e308"
refused huge-negative plain aggregate.csv 2 "is '-1.7e308'; expected a number" "setf aggregate.csv 2 5 -1.7e308"
refused NaN-word plain aggregate.csv 2 "is 'NaN()'; expected a number" "setf aggregate.csv 2 6 'NaN()'"
# headers
refused header-renamed plain summary.csv 1 "column 3 is 'sed'; expected 'seed'" "sed -i '1s/,seed,/,sed,/' summary.csv"
refused header-extra plain aggregate.csv 1 "expected the header to end after" "sed -i '1s/\$/,extra/' aggregate.csv"
refused header-short plain timeseries.csv 1 "the header ends after 11 columns; expected 'turned_away' next" \
    "sed -i '1s/,turned_away\$//' timeseries.csv"
refused no-strategy plain compare.csv 1 "expected the header of a herd compare.csv" "sed -i '1s/^strategy,//' compare.csv"
refused header-code swept summary.csv 1 "column 1 is 'x;system(touch PWNED)'; expected the header of a herd summary.csv" \
    "sed -i '1s/^server.workers/x;system(touch PWNED)/' summary.csv"
refused keys-differ swept timeseries.csv 1 "key columns strategy; expected server.workers,strategy, as in aggregate.csv" \
    "cp ../../plain/timeseries.csv ."
# whole files
refused truncated plain timeseries.csv "$(wc -l <"$T/plain/timeseries.csv")" 'the last line has no newline' \
    "head -c -1 timeseries.csv >t && mv t timeseries.csv"
refused empty plain aggregate.csv 1 'an empty file; expected the header' ": >aggregate.csv"
refused fifo plain timeseries.csv 1 'not a regular file' "rm timeseries.csv && mkfifo timeseries.csv"
refused directory plain compare.csv 1 'not a regular file' "rm compare.csv && mkdir compare.csv"
refused huge plain summary.csv 1 'the file is 2147483648 bytes; expected at most 1073741824' "truncate -s 2G summary.csv"

# --- hostile manifest.txt ----------------------------------------------------------
# The manifest is read for the scenario's name, [run] columns and outages;
# whatever it holds, herd plot draws the figures (nothing in it is code, a
# bad value is ignored), and no command runs.  manifest NAME KIND: KIND
# text (the manifest is stdin), binary, long, fifo, directory or missing.
manifest() {
    name=$1 kind=$2
    d="$T/c/man-$name"
    cp -r "$T/tools" "$d" && rm -f "$d"/*.png "$d"/*.svg "$d/manifest.txt"
    case $kind in
    text) cat >"$d/manifest.txt" ;;
    binary) head -c 20000 /dev/urandom >"$d/manifest.txt" ;;
    long) awk 'BEGIN { printf "[run]\nname = "; while (n++ < 100000) printf "x"; printf "\n" }' >"$d/manifest.txt" ;;
    fifo) mkfifo "$d/manifest.txt" ;;
    directory) mkdir "$d/manifest.txt" ;;
    esac
    HERD_PLOT_DATA="$d.data" "$HERD" plot "$d" --quiet >"$T/out" 2>&1 && ok || bad "manifest $name: herd plot: $(cat "$T/out")"
    [ -s "$d/variants.png" ] && [ -s "$d/timeseries.svg" ] && ok || bad "manifest $name: no figures"
    LC_ALL=C grep -q '[^	 -~]' "$d.data"/*.tsv && bad "manifest $name: control characters reached the figure data" || ok
    grep -q 'PWNED\|system\|`\|@' "$d.data"/*.tsv && bad "manifest $name: text of the manifest reached the figure data" || ok
    pwned "manifest $name"
}
manifest name-code text <<'EOF'
scenario: x.ini
--- scenario file x.ini, 10 bytes, verbatim ---
[run]
name = x";system("touch PWNED");
columns = calls, system("touch PWNED"), @x, `touch PWNED`
--- end of scenario file ---
EOF
manifest name-macro text <<'EOF'
scenario: @PWNED$(touch PWNED).ini
--- scenario file x.ini, 10 bytes, verbatim ---
[run]
name = @macro
EOF
manifest outage-junk text <<'EOF'
--- scenario file x.ini, 10 bytes, verbatim ---
[outage 1]
start_s = nan
end_s = 1e999
[outage x]
start_s = -5
end_s = 1e300
[outage y
end_s = "3"
EOF
manifest overrides text <<'EOF'
override: --set outage 1.end_s=system(x)
override: --set run.columns=`touch PWNED`
variant with_keys
  set outage 2.end_s=1e308
  set outage 2.start_s=-1e308
EOF
printf -- '--- scenario file x.ini, 1 bytes, verbatim ---\n[run]\nname = a\033[31mb\ncolumns = calls\001, failures\n' | manifest control text
manifest binary binary
manifest long-line long
manifest fifo fifo
manifest directory directory
manifest missing missing

# the message stays on one line when the directory name has a newline
cp -r "$T/plain" "$T/c/$NL" && rm -f "$T/c/$NL"/*.png "$T/c/$NL"/*.svg && setf "$T/c/$NL/summary.csv" 2 2 x
(cd "$W" && "$HERD" plot "$T/c/$NL") >/dev/null 2>"$T/err"
[ $? -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF "herd: $T/c/new\nline/summary.csv:2: column 2 (replication) is 'x'" "$T/err" \
    && ok || bad "refused in a directory with a newline: $(cat "$T/err")"

# a refused directory keeps the figures it had
cp -r "$T/plain" "$T/c/keep" && cp "$T/plain/compare.svg" "$T/keep.svg"
setf "$T/c/keep/compare.csv" 2 1 bogus
(cd "$W" && "$HERD" plot "$T/c/keep") >/dev/null 2>&1
[ $? -eq 2 ] && cmp -s "$T/c/keep/compare.svg" "$T/keep.svg" && ok || bad "a refused directory lost its figures"
# herd run --plot into a spoilt directory: the run rewrites the CSVs first
cp -r "$T/c/keep" "$T/c/rerun"
# shellcheck disable=SC2086
(cd "$W" && "$HERD" run "$SCEN" -o "$T/c/rerun" $SMALL --set run.baseline=exponential --plot) >"$T/out" 2>&1 && ok \
    || bad "run --plot over a spoilt directory: $(cat "$T/out")"
pwned "the end"

echo "hostile-plot: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
