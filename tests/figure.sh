#!/bin/sh
# One figure of the README or doc/ (make figures): draws the results directory
# RESULTS with herd plot and the options given, in a scratch copy so that
# several figures of one results directory can be drawn at once (make -j),
# and copies the figure FIG (timeseries, sweep_calls, ...) to OUT.
#
#   sh tests/figure.sh ./herd OUT RESULTS FIG [herd plot options...]
set -eu
HERD=$1 OUT=$2 RESULTS=$3 FIG=$4
shift 4
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/herd-figure.XXXXXX")
trap 'rm -rf "$T"' EXIT
# hard links (a copy across file systems), not symbolic links: herd plot
# never follows a link inside a results folder (doc/report.md)
for f in "$RESULTS"/*.csv "$RESULTS"/manifest.txt; do
    [ -f "$f" ] && { ln "$f" "$T/" 2>/dev/null || cp "$f" "$T/"; }
done
case $FIG in
*.gif) "$HERD" plot "$T" --quiet --gif "$@" ;;
*) "$HERD" plot "$T" --quiet "$@" ;;
esac
case $FIG in
*.gif) cp "$T/$FIG" "$OUT.tmp" ;;
*) cp "$T/$FIG.png" "$OUT.tmp" ;;
esac
mv "$OUT.tmp" "$OUT"
