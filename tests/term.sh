#!/bin/sh
# Terminal output that fits: herd run --live and herd plot --term dumb in
# real terminals of 80x24 and 120x40 (tmux sessions: the size comes from
# the terminal, TIOCGWINSZ), and with COLUMNS and LINES.  In each: no line
# wider than the terminal (captured with wrapped lines joined, so that a
# line that wrapped counts whole), and the story of the thundering herd
# visible in --live's last frame, the whole run compressed: exponential
# backoff's synchronised waves (the busiest bucket of the run, '@', in
# separate bursts with quiet columns between them) against full jitter's
# spread (one continuous stretch, never above half of that peak).
#
#   sh tests/term.sh ./herd      (from the repository root; needs tmux and
#                                 gnuplot: make deps installs them)
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/herd-term.XXXXXX)
SOCK=herd-term-$$
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
unset HERD_PLOTS HERD_PLOT_DATA
. "$ROOT/tests/lib.sh"

# widest FILE: the longest line's length.
widest() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }

if ! command -v tmux >/dev/null 2>&1; then
    bad "tmux not found (apt-get install tmux; make deps does)"
    echo "term: $pass passed, $failn failed"
    exit 1
fi

# in_tmux W H NAME COMMAND: runs COMMAND (a shell command, COLUMNS and LINES
# unset) in a W x H tmux session until it prints HERD-DONE, then keeps the
# whole pane, wrapped lines joined, in $T/NAME.pane.  1 if it never ends.
in_tmux() {
    w=$1 h=$2 name=$3 cmd=$4
    tmux -L "$SOCK" -f /dev/null new-session -d -s "$name" -x "$w" -y "$h" \
        "unset COLUMNS LINES; cd '$ROOT'; $cmd; echo HERD-DONE; sleep 600"
    tmux -L "$SOCK" set-option -t "$name" history-limit 10000 >/dev/null
    i=0
    while [ $i -lt 300 ]; do
        tmux -L "$SOCK" capture-pane -p -J -S - -t "$name" >"$T/$name.pane" 2>/dev/null
        grep -q '^HERD-DONE' "$T/$name.pane" && break
        sleep 1
        i=$((i + 1))
    done
    tmux -L "$SOCK" kill-session -t "$name" 2>/dev/null
    grep -q '^HERD-DONE' "$T/$name.pane"
}

# story PANE: checks the last frame of --live in PANE.
story() {
    pane=$1 size=$2
    # the last frame: the lines between the last "herd live:" and "live view done"
    awk '/^herd live: /{ n = 0; keep = 1 } keep { f[n++] = $0 } /^live view done/{ keep = 0; last = n
         for (i = 0; i < n; i++) out[i] = f[i] } END { for (i = 0; i < last; i++) print out[i] }' "$pane" >"$T/frame"
    grep -q '^herd live: thundering-herd, replication 0, .*done' "$T/frame" && ok || bad "$size: no last frame: $(head -3 "$T/frame")"
    grep -q '^whole run, .* a column .*: \. : - = + \* # @ = [0-9]* arrivals/s' "$T/frame" && ok \
        || bad "$size: the last frame has no legend of the whole run: $(sed -n 2p "$T/frame")"
    strip() { sed -n "s/^$1 *|\\(.*\\)| .*/\\1/p" "$T/frame" | head -1; }
    e=$(strip exponential) j=$(strip full_jitter)
    [ -n "$e" ] && [ -n "$j" ] && ok || bad "$size: no exponential or full_jitter strip in the last frame"
    # per strip: the highest level (0 ' ' .. 8 '@'), the runs of non-blank
    # columns, the longest run
    measure() {
        printf '%s\n' "$1" | awk '{ ramp = " .:-=+*#@"; top = 0; runs = 0; run = 0; longest = 0
            for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); l = index(ramp, c) - 1
                if (l > top) top = l
                if (l > 0) { if (run == 0) runs++; run++; if (run > longest) longest = run } else run = 0 }
            print top, runs, longest }'
    }
    set -- $(measure "$e") $(measure "$j")
    echo "term: $size: exponential |$e| (peak level $1, $2 bursts, longest $3); full_jitter |$j| (peak level $4, $5 bursts, longest $6)"
    [ "$1" -eq 8 ] && ok || bad "$size: exponential's peak is not the run's busiest bucket (level $1)"
    [ "$2" -ge 4 ] && ok || bad "$size: exponential shows $2 bursts, expected its separate waves (>= 4)"
    [ "$4" -le 4 ] && ok || bad "$size: full_jitter's peak (level $4) is above half of exponential's"
    [ "$6" -ge $(($3 * 2)) ] && [ "$5" -le 2 ] && ok \
        || bad "$size: full_jitter is not one spread (bursts $5, longest $6 against exponential's longest $3)"
}

for size in 80x24 120x40; do
    w=${size%x*} h=${size#*x}
    in_tmux "$w" "$h" "live$size" "'$HERD' run scenarios/thundering-herd.ini --live=60 --replications 2 --set run.baseline=exponential -q -o '$T/run$size'" \
        && ok || bad "$size: --live did not finish: $(tail -3 "$T/live$size.pane")"
    [ "$(widest "$T/live$size.pane")" -le "$w" ] && ok || bad "$size: --live wrote a line of $(widest "$T/live$size.pane") columns"
    grep -q '^live view done at t = ' "$T/live$size.pane" && ok || bad "$size: --live did not end its view"
    story "$T/live$size.pane" "$size"
    # --term dumb on the terminal (its size from TIOCGWINSZ): a figure of one
    # panel fills the screen less a line; the timeseries' six panels side
    # by side when 120 columns allow two, each at least 10 lines
    for fig in compare timeseries; do
        in_tmux "$w" "$h" "dumb$fig$size" "echo HERD-BEGIN; '$HERD' plot '$T/run$size' --term dumb --figure $fig" \
            && ok || bad "$size: --term dumb did not finish: $(tail -3 "$T/dumb$fig$size.pane")"
        sed -n '/^HERD-BEGIN/,/^HERD-DONE/p' "$T/dumb$fig$size.pane" | sed '1d;$d' >"$T/$fig$size.txt"
        [ "$(widest "$T/dumb$fig$size.pane")" -le "$w" ] && ok || bad "$size: --term dumb $fig wrote a line wider than $w"
        [ "$(widest "$T/$fig$size.txt")" -ge $((w - 2)) ] && ok \
            || bad "$size: --term dumb $fig does not use the terminal's width ($(widest "$T/$fig$size.txt"))"
    done
    [ "$(wc -l <"$T/compare$size.txt")" -eq $((h - 1)) ] && ok \
        || bad "$size: the compare figure has $(wc -l <"$T/compare$size.txt") lines, expected a screen less a line ($((h - 1)))"
    grep -q 'thundering-herd: load on the server' "$T/timeseries$size.txt" && grep -q 'full_jitter' "$T/timeseries$size.txt" && ok \
        || bad "$size: the timeseries figure is not there"
done
# 120x40: two columns of panels, so the six panels fit one screen less a line
[ "$(wc -l <"$T/timeseries120x40.txt")" -eq 39 ] && ok || bad "120x40: the timeseries figure has $(wc -l <"$T/timeseries120x40.txt") lines, expected 39"
# 80x24: one column, 10 lines a panel at least: longer than a screen, never narrower
[ "$(wc -l <"$T/timeseries80x24.txt")" -ge 60 ] && ok || bad "80x24: the timeseries panels are squeezed ($(wc -l <"$T/timeseries80x24.txt") lines)"

# The table herd run prints (and its header and 'wrote' line) in an 80-column
# terminal and with COLUMNS=80 on a pipe: every line fits, every column is
# there (in blocks), the header counts the clients the variants set.
cat >"$T/wide.ini" <<'END'
[run]
strategies = exponential, full_jitter
replications = 2
columns = completion_time_s, calls, refused, peak_arrivals_per_s, p99_latency_s, failures, amplification, retries
[clients]
count = 200
[server]
workers = 10
service_time_s = exponential(0.01)
[outage 1]
start_s = 0
end_s = 5
status = connection_refused
[variant small]
clients.count = 100
[variant large]
clients.count = 300
END
in_tmux 80 24 table80 "'$HERD' run '$T/wide.ini' -o '$T/wide-a'" \
    && ok || bad "80x24: herd run did not finish: $(tail -3 "$T/table80.pane")"
[ "$(widest "$T/table80.pane")" -le 80 ] && ok || bad "80x24: herd run's table has a line of $(widest "$T/table80.pane") columns"
COLUMNS=80 "$HERD" run "$T/wide.ini" -o "$T/wide-b" >"$T/table-c80.txt" 2>&1 && [ "$(widest "$T/table-c80.txt")" -le 80 ] && ok \
    || bad "COLUMNS=80: herd run's table has a line of $(widest "$T/table-c80.txt") columns"
for c in completion_time_s calls refused peak_arrivals_per_s p99_latency_s failures amplification retries manifest.txt; do
    grep -q "$c" "$T/table80.pane" && grep -q "$c" "$T/table-c80.txt" && ok || bad "80 columns: '$c' is missing from the table"
done
grep -q '100 to 300 clients' "$T/table-c80.txt" && ok || bad "the header does not count the variants' clients: $(head -1 "$T/table-c80.txt")"
"$HERD" run "$T/wide.ini" -o "$T/wide-c" >"$T/table-pipe.txt" 2>&1 && [ "$(grep -c '^strategy\|^variant' "$T/table-pipe.txt")" -eq 1 ] && ok \
    || bad "no terminal, no COLUMNS: the table is not one block"

# herd plot --term dumb, the variants figure at 80 columns: the variants
# numbered (their names in a line under the subtitle) when the names do
# not fit under their bars, the key and the panels' titles on lines of
# their own (nothing drawn into them).
"$HERD" run scenarios/deadline.ini --replications 2 -q -o "$T/dl" && COLUMNS=80 LINES=24 "$HERD" plot "$T/dl" --term dumb \
    --figure variants >"$T/dl.txt" 2>&1 && ok || bad "deadline: the dumb variants figure failed: $(head -3 "$T/dl.txt")"
grep -q '1: attempts_only, 2: budget_10s, 3: budget_5s' "$T/dl.txt" && ok || bad "dumb variants: the variants are not numbered: $(sed -n 1,6p "$T/dl.txt")"
grep -q 'attempts_only *budget\|budget_10s *budget_5s' "$T/dl.txt" && bad "dumb variants: the names run into each other" || ok
grep -Eq '^ *full_jitter [*]+ *$' "$T/dl.txt" && grep -Eq '^ *exponential #+ *$' "$T/dl.txt" && ok \
    || bad "dumb variants: the key shares its lines: $(grep -n 'full_jitter\|exponential' "$T/dl.txt")"
for pair in 'longest call \(s\) +p99 latency \(s\)' 'successful requests +failed requests'; do
    grep -Eq "^ *$pair *\$" "$T/dl.txt" && ok || bad "dumb variants: '$pair' shares its line: $(grep -E "$pair" "$T/dl.txt")"
done
[ "$(widest "$T/dl.txt")" -le 80 ] && ok || bad "dumb variants: wider than 80"

# COLUMNS and LINES (no terminal), and what is refused
D=$T/run80x24
COLUMNS=100 LINES=30 "$HERD" plot "$D" --term dumb --figure compare >"$T/c100.txt" 2>&1 && ok || bad "COLUMNS=100: $(head -3 "$T/c100.txt")"
[ "$(widest "$T/c100.txt")" -le 100 ] && [ "$(widest "$T/c100.txt")" -ge 98 ] && [ "$(wc -l <"$T/c100.txt")" -eq 29 ] && ok \
    || bad "COLUMNS=100 LINES=30: $(widest "$T/c100.txt") wide, $(wc -l <"$T/c100.txt") lines"
COLUMNS=40 LINES=10 "$HERD" plot "$D" --term dumb --figure compare >"$T/c40.txt" 2>&1 && [ "$(widest "$T/c40.txt")" -le 80 ] \
    && [ "$(widest "$T/c40.txt")" -ge 78 ] && [ "$(wc -l <"$T/c40.txt")" -eq 23 ] && ok \
    || bad "COLUMNS=40 LINES=10: not raised to 80x24 ($(widest "$T/c40.txt") wide, $(wc -l <"$T/c40.txt") lines)"
"$HERD" plot "$D" --term dumb --figure compare </dev/null >"$T/cdef.txt" 2>&1 && [ "$(widest "$T/cdef.txt")" -le 80 ] && ok \
    || bad "no terminal, no COLUMNS: wider than 80 ($(widest "$T/cdef.txt"))"
COLUMNS=120 "$HERD" run scenarios/thundering-herd.ini --set clients.count=300 --replications 1 --live=100000 -q -o "$T/l120" >"$T/l120.txt" 2>&1 \
    && sed 's/\x1b\[[0-9]*[A-K]//g' "$T/l120.txt" >"$T/l120.plain" && [ "$(widest "$T/l120.plain")" -le 119 ] \
    && [ "$(widest "$T/l120.plain")" -ge 100 ] && ok || bad "COLUMNS=120 --live is not 120 wide ($(widest "$T/l120.plain"))"
for v in abc 0 -5 1e3; do
    COLUMNS=$v expect_fail "columns-$v" 2 "COLUMNS='$v': expected the terminal's size" "$HERD" plot "$D" --term dumb
    LINES=$v expect_fail "lines-$v" 2 "LINES='$v': expected the terminal's size" "$HERD" run scenarios/thundering-herd.ini --live -o "$T/no"
done
[ ! -e "$T/no" ] && ok || bad "a refused LINES created outputs"
expect_fail figure 2 "--figure 'nope': this directory has no such figure; expected one of: timeseries, compare, goodput" \
    "$HERD" plot "$D" --term dumb --figure nope
"$HERD" plot "$D" --figure compare >"$T/fig.out" 2>&1 && [ -s "$D/compare.png" ] && [ ! -e "$D/timeseries.png" ] && ok \
    || bad "--figure compare drew other figures: $(cat "$T/fig.out")"

echo "term: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
