# Every file herd report and herd plot read from a results folder goes
# through the one checked open (issue 42, item 3 and the symlink items): a
# FIFO (never hangs), a directory or a symbolic link out of the folder in
# place of each file is refused with exit 2 on one line, the outside file's
# contents never reach the page, and nothing is written.  Also: a symlink
# loop as scenario says why; herd report -o refuses one of its inputs.
# Run by tests/bad.sh as: sh results-inputs.sh HERD TMPDIR
HERD=$1 T=$2/results-inputs
mkdir -p "$T" || exit 1
"$HERD" run scenarios/thundering-herd.ini --quiet --set clients.count=200 --replications 2 -o "$T/res" ||
    { echo "herd run: $(cat "$T/err")"; exit 1; }
{ cat "$T/res/manifest.txt"; echo "SECRET-OUTSIDE"; } >"$T/outside"
fails=0
for f in $(cd "$T/res" && ls) compare_variants.csv; do
    for kind in fifo dir link; do
        rm -rf "$T/c" && cp -r "$T/res" "$T/c" && rm -f "$T/c/$f"
        case $kind in
        fifo) mkfifo "$T/c/$f" ;;
        dir) mkdir "$T/c/$f" ;;
        link) ln -s "$T/outside" "$T/c/$f" ;;
        esac
        for cmd in report plot; do
            TMPDIR=$T timeout 20 "$HERD" $cmd "$T/c" >"$T/out" 2>"$T/err"
            rc=$?
            # herd plot reads manifest.txt only if it is a file herd wrote (ignoring it is not
            # following it), and no compare_variants.csv
            case "$cmd $f" in "plot manifest.txt" | "plot compare_variants.csv") [ "$rc" -eq 0 ] && continue ;; esac
            if [ "$rc" -ne 2 ] || [ "$(wc -l <"$T/err")" -ne 1 ]; then
                echo "$cmd with $f a $kind: exit $rc, want 2 on one line: $(cat "$T/err")"
                fails=$((fails + 1))
            fi
            if grep -rqs SECRET-OUTSIDE "$T/c" --exclude="$f"; then
                echo "$cmd with $f a $kind: the outside file's contents were written"
                fails=$((fails + 1))
            fi
            if ls -A "$T/c" | grep -q '^report.html$\|\.png$\|^\.'; then
                echo "$cmd with $f a $kind: wrote $(ls -A "$T/c" | grep '^report.html$\|\.png$\|^\.')"
                fails=$((fails + 1))
            fi
        done
    done
done
# the report never replaces one of its inputs
cp "$T/res/aggregate.csv" "$T/agg"
"$HERD" report "$T/res" -o "$T/res/aggregate.csv" >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "one of the results the report is made from" "$T/err" && cmp -s "$T/agg" "$T/res/aggregate.csv" ||
    { echo "report -o DIR/aggregate.csv: exit $rc: $(cat "$T/err")"; fails=$((fails + 1)); }
# herd merge: a shard's partial.herd through a link is refused
"$HERD" run scenarios/thundering-herd.ini --set clients.count=30 --replications 2 --shard 1/1 -o "$T/shard" --quiet &&
    mkdir -p "$T/shardlink" && ln -s "$T/shard/partial.herd" "$T/shardlink/partial.herd" || exit 1
"$HERD" merge "$T/merged" "$T/shardlink" >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "is a symbolic link" "$T/err" && [ ! -e "$T/merged" ] ||
    { echo "merge of a linked partial.herd: exit $rc: $(cat "$T/err")"; fails=$((fails + 1)); }
# a symlink loop as scenario says why
ln -sf loop.ini "$T/loop.ini"
"$HERD" run "$T/loop.ini" -o "$T/loop-out" >/dev/null 2>"$T/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot open scenario: Too many levels of symbolic links" "$T/err" && [ ! -e "$T/loop-out" ] ||
    { echo "a symlink loop as scenario: exit $rc: $(cat "$T/err")"; fails=$((fails + 1)); }
[ "$fails" -eq 0 ]
