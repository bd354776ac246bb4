#!/bin/sh
# herd run --live follows the terminal (issue 42): started in a 120x40
# tmux window narrowed to 80x24 mid-run (SIGWINCH), every frame drawn
# after the change fits 80 columns (captured with wrapped lines joined, so
# a torn, wrapped line counts whole); with standard output a file, no
# cursor escape is written into it and nothing is paced (the last frame,
# plain).
#
#   sh tests/live-term.sh ./herd      (needs tmux: make deps installs it)
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/herd-live-term.XXXXXX)
SOCK=herd-live-$$
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
. "$ROOT/tests/lib.sh"
RUN="scenarios/thundering-herd.ini --set clients.count=200 --replications 2 --quiet"

# not a terminal: plain text, the last frame only, at once
(cd "$ROOT" && "$HERD" run $RUN --live=1 -o "$T/file" >"$T/live.txt" 2>&1) && ok || bad "--live into a file: $(tail -2 "$T/live.txt")"
grep -q "$(printf '\033')" "$T/live.txt" && bad "--live into a file wrote cursor escapes" || ok
[ "$(grep -c '^herd live: ' "$T/live.txt")" -eq 1 ] && grep -q '^herd live: .*done' "$T/live.txt" && ok ||
    bad "--live into a file: expected the last frame only: $(grep -c '^herd live: ' "$T/live.txt") frames"

if ! command -v tmux >/dev/null 2>&1; then
    echo "live-term: tmux not found: the resize case skipped"
else
    tmux -L "$SOCK" -f /dev/null new-session -d -s live -x 120 -y 40 \
        "unset COLUMNS LINES; cd '$ROOT'; '$HERD' run $RUN --live=10 -o '$T/tty'; echo HERD-DONE; sleep 600"
    tmux -L "$SOCK" set-option -t live history-limit 10000 >/dev/null
    # a few frames at 120 columns, then 80x24
    i=0
    until tmux -L "$SOCK" capture-pane -p -t live | grep -q '^herd live: ' || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
    sleep 1
    tmux -L "$SOCK" resize-window -t live -x 80 -y 24
    i=0
    while [ $i -lt 120 ]; do
        tmux -L "$SOCK" capture-pane -p -J -S - -t live >"$T/pane" 2>/dev/null
        grep -q '^HERD-DONE' "$T/pane" && break
        sleep 0.5
        i=$((i + 1))
    done
    grep -q '^HERD-DONE' "$T/pane" && ok || bad "--live in tmux never ended"
    # the last frame (from the last "herd live:" to "live view done")
    awk '/^herd live: /{ n = 0; keep = 1 } keep { f[n++] = $0 } /^live view done/{ keep = 0; last = n
         for (i = 0; i < n; i++) out[i] = f[i] } END { for (i = 0; i < last; i++) print out[i] }' "$T/pane" >"$T/frame"
    w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/frame")
    [ -s "$T/frame" ] && [ "$w" -le 80 ] && ok || bad "after narrowing to 80 columns the last frame is $w wide: $(head -3 "$T/frame")"
    [ "$(grep -c '|' "$T/frame")" -ge 7 ] && ok || bad "the last frame is torn: $(cat "$T/frame")"
fi
echo "live-term: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
