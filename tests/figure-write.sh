#!/bin/sh
# gnuplot exits 0 when it cannot write its figure (a full disk): every
# command that draws (herd plot, herd run --plot, herd tune, herd report)
# must check what was written (size and a well-formed end), refuse to
# publish a truncated or empty figure, exit 1 and leave the previous
# outputs as they were (issue 42, item 1).  A gnuplot in PATH runs the real
# one, then cuts its figures short as a full disk would (MODE: empty, or
# 4096 bytes); where a tmpfs can be mounted (root, unshare), the same on a
# real full file system.
#
#   sh tests/figure-write.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
T=$(mktemp -d /tmp/herd-figwrite.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
REAL=$(command -v gnuplot) || { echo "figure-write: skip: no gnuplot"; exit 0; }
export HERD_PLOTS="$(pwd)/plots"
mkdir -p "$T/bin" "$T/tmp"
cat >"$T/bin/gnuplot" <<EOS
#!/bin/sh
"$REAL" "\$@" || exit
for f in "\$3"/*.png "\$3"/*.svg "\$3"/*.gif; do
    [ -f "\$f" ] || continue
    case \$(cat "$T/mode") in
    empty) : >"\$f" ;;
    *) head -c 4096 "\$f" >"\$f.cut" && mv "\$f.cut" "\$f" ;;
    esac
done
exit 0
EOS
chmod +x "$T/bin/gnuplot"
"$HERD" run scenarios/thundering-herd.ini --quiet --set clients.count=200 --replications 2 -o "$T/res" ||
    { echo "FAIL: herd run"; exit 1; }
"$HERD" plot "$T/res" --quiet || { echo "FAIL: herd plot"; exit 1; }
cp "$T/res/goodput.svg" "$T/goodput.before"

# expect NAME CMD...: exit 1, a message about the figure, stdout silent
expect() {
    name=$1
    shift
    PATH="$T/bin:$PATH" TMPDIR="$T/tmp" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" -eq 1 ] && ok || bad "$name: exit $rc, want 1: $(cat "$T/err")"
    grep -q "no figure published\|did not write" "$T/err" && ok || bad "$name: message: $(cat "$T/err")"
    [ -z "$(ls -A "$T/tmp")" ] && ok || bad "$name: left $(ls -A "$T/tmp") in TMPDIR"
}
for mode in 4096 empty; do
    echo "$mode" >"$T/mode"
    expect "plot-$mode" "$HERD" plot "$T/res"
    cmp -s "$T/res/goodput.svg" "$T/goodput.before" && ok || bad "plot-$mode: goodput.svg was replaced"
    ls -A "$T/res" | grep -q '^\.herd-plot' && bad "plot-$mode: left its private directory" || ok
    expect "report-$mode" "$HERD" report "$T/res" -o "$T/report-$mode.html"
    [ ! -e "$T/report-$mode.html" ] && ok || bad "report-$mode: wrote a page with a cut figure"
    expect "tune-$mode" "$HERD" tune tests/tune/known.ini --search retry.max_attempts=1:2:1 --minimize failures \
        --quiet -o "$T/tune-$mode"
    [ ! -e "$T/tune-$mode" ] && ok || bad "tune-$mode: left $(ls -A "$T/tune-$mode")"
done
echo 4096 >"$T/mode"
expect "gif" "$HERD" plot "$T/res" --gif --figure load

# real full file systems (tmpfs; root and unshare only): every command
# that writes, into a tmpfs too small for its outputs, exits 1 and
# publishes nothing (herd plot: the results fit, their figures do not)
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    mkdir -p "$T/small"
    unshare -m sh -c '
        T=$1 HERD=$2
        try() { # NAME SIZE CMD...: a fresh tmpfs of SIZE at $T/small, CMD, its status and what is left
            name=$1 size=$2
            shift 2
            umount "$T/small" 2>/dev/null
            mount -t tmpfs -o size=$size tmpfs "$T/small" || exit 3
            [ "$name" = plot ] && mkdir "$T/small/res" && cp "$T"/res/*.csv "$T"/res/*.txt "$T/small/res/"
            ls -AR "$T/small" >"$T/$name.before"
            "$@" >/dev/null 2>"$T/$name.err"
            echo $? >"$T/$name.rc"
            ls -AR "$T/small" >"$T/$name.after"
        }
        try run 20k "$HERD" run scenarios/thundering-herd.ini --quiet --set clients.count=200 --replications 2 \
            -o "$T/small/r"
        try plot 72k "$HERD" plot "$T/small/res" --quiet
        try report 8k "$HERD" report "$T/res" -o "$T/small/report.html"
        try tune 20k "$HERD" tune tests/tune/known.ini --search retry.max_attempts=1:2:1 --minimize failures \
            --quiet -o "$T/small/t"
        umount "$T/small"
        exit 0' sh "$T" "$HERD"
    for name in run plot report tune; do
        rc=$(cat "$T/$name.rc" 2>/dev/null)
        [ "$rc" = 1 ] && ok || bad "$name on a full tmpfs: exit $rc, want 1: $(cat "$T/$name.err" 2>/dev/null)"
        cmp -s "$T/$name.before" "$T/$name.after" && ok ||
            bad "$name on a full tmpfs left: $(diff "$T/$name.before" "$T/$name.after" | grep '^>' | tr '\n' ' ')"
    done
else
    echo "figure-write: the tmpfs cases skipped (need root and unshare)"
fi
echo "figure-write: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
