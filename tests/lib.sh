# tests/lib.sh - what the end-to-end test scripts share; sourced (. "$ROOT/tests/lib.sh")
# after T (the script's scratch folder) is set.
#
#   ok                           one more check passed
#   bad MESSAGE                  one more failed: prints "FAIL: MESSAGE"
#   expect_fail NAME EXIT FRAGMENT COMMAND...
#                                COMMAND exits EXIT with FRAGMENT on stderr
#                                (its output in $T/stdout, $T/stderr)
# The script ends with its own summary from $pass and $failn.
pass=0
failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }

expect_fail() {
    name=$1 code=$2 frag=$3; shift 3
    "$@" >"$T/stdout" 2>"$T/stderr"
    rc=$?
    if [ "$rc" -ne "$code" ]; then
        bad "$name: exit status $rc, expected $code: $(head -3 "$T/stderr")"
    elif ! grep -qF -- "$frag" "$T/stderr"; then
        bad "$name: stderr lacks '$frag': $(head -3 "$T/stderr")"
    else
        ok
    fi
}
