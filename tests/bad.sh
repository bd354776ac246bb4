#!/bin/sh
# The catalogue of bad input (tests/bad/): each NAME.expect holds the exit
# status herd must return and a fragment of its one-line message
# (%FILE% stands for the scenario's path); NAME.ini is the scenario (absent
# or a directory for some cases) and NAME.args extra arguments (%TMP% is a
# scratch directory).  Every case must leave no output files.  NAME.sh
# cases are scripts that check something a file cannot express.
#
#   sh tests/bad.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
D=$(cd "$(dirname "$0")/bad" && pwd)
T=$(mktemp -d /tmp/herd-bad.XXXXXX)
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
: >"$T/file"
pass=0 failn=0
for e in "$D"/*.expect; do
    name=$(basename "$e" .expect)
    scn="tests/bad/$name.ini"
    code=$(sed -n 1p "$e")
    frag=$(sed -n 2p "$e" | sed "s|%FILE%|$scn|g")
    args="-o $T/out-$name"
    [ -f "$D/$name.args" ] && args=$(sed "s|%TMP%|$T|g" "$D/$name.args")
    # shellcheck disable=SC2086
    "$HERD" run "$scn" $args >"$T/stdout" 2>"$T/stderr"
    rc=$?
    if [ "$rc" -ne "$code" ]; then
        failn=$((failn + 1)); echo "FAIL $name: exit $rc, want $code: $(cat "$T/stderr")"
    elif ! grep -qF -- "$frag" "$T/stderr"; then
        failn=$((failn + 1)); echo "FAIL $name: stderr lacks '$frag': $(cat "$T/stderr")"
    elif [ "$(wc -l <"$T/stderr")" -ne 1 ]; then
        failn=$((failn + 1)); echo "FAIL $name: want one line on stderr: $(cat "$T/stderr")"
    elif [ -s "$T/stdout" ]; then
        failn=$((failn + 1)); echo "FAIL $name: wrote to stdout"
    elif [ -e "$T/out-$name" ]; then
        failn=$((failn + 1)); echo "FAIL $name: created $T/out-$name"
    else
        pass=$((pass + 1))
    fi
done
for s in "$D"/*.sh; do
    name=$(basename "$s" .sh)
    if out=$(sh "$s" "$HERD" "$T" 2>&1); then
        pass=$((pass + 1))
        case $out in skip*) echo "$name: $out" ;; esac
    else
        failn=$((failn + 1)); echo "FAIL $name: $out"
    fi
done
echo "bad input: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
