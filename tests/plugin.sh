#!/bin/sh
# Retry plugins (doc/plugins.md): the proofs that a plugin runs exactly
# what it says, and the refusals.
#
#   1. build/plugins/builtin.so (libherdpolicy's own hp_decide_result with
#      herd's policy) reproduces every built-in strategy of
#      thundering-herd.ini byte for byte: every CSV, --jobs 1 and --jobs 2;
#   2. build/plugins/fulljitter.so (u * min(cap, base * 2^n), written from
#      the formula) is bit-equal to the built-in full jitter on a grid
#      (build/tests/plugin_grid), then byte-identical end to end;
#   3. and 4. (the Python adapter) are in tests/python-plugin.sh;
#   5. refusals, one line each: a plugin importing rand or clock_gettime,
#      a wrong ABI version, a short descriptor (exit 2, FILE:LINE, no
#      output), a NaN delay (the run stops naming the plugin, the client
#      and the time; no output); plus a plugin.KEY the plugin does not
#      read, a [retry] key a plugin that does not read herd's policy
#      makes useless, and herd plugin check on a plugin with a global.
#
#   sh tests/plugin.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
P=$(pwd)/build/plugins
T=$(mktemp -d "${TMPDIR:-/tmp}/herd-plugin.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }

# same REF DIR WHAT: every CSV of REF is in DIR, byte for byte, and no other
same() {
    n=0
    for f in "$1"/*.csv; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        cmp -s "$f" "$2/$(basename "$f")" || { bad "$3: $(basename "$f") differs"; return 1; }
    done
    [ "$n" -ge 3 ] || { bad "$3: only $n CSVs in $1"; return 1; }
    [ "$(ls "$1"/*.csv | wc -l)" = "$(ls "$2"/*.csv | wc -l)" ] || { bad "$3: not the same CSVs"; return 1; }
    ok
}
run() {
    out=$1; shift
    "$HERD" run "$@" -o "$T/$out" --quiet >"$T/$out.log" 2>&1 || { bad "$out: herd run failed: $(cat "$T/$out.log")"; return 1; }
}

# --- 1. the built-in strategies through a plugin ------------------------------
TH=scenarios/thundering-herd.ini
run ref "$TH" --jobs 2
for j in 1 2; do
    run builtin$j "$TH" --set "retry.plugin=$P/builtin.so" --jobs "$j" &&
        same "$T/ref" "$T/builtin$j" "builtin plugin, --jobs $j"
done

# --- 2. an independent full jitter --------------------------------------------
if build/tests/plugin_grid "$P/fulljitter.so" >"$T/grid.log"; then ok; else bad "$(cat "$T/grid.log")"; fi
# the scenario without the [retry] keys the plugin replaces (they would be refused)
sed -e '/^base_s = /d' -e '/^cap_s = /d' -e '/^max_attempts = /d' "$TH" >"$T/th-plugin.ini"
printf 'plugin = %s\nplugin.base_s = 1\nplugin.cap_s = 60\nplugin.max_attempts = 10\n' "$P/fulljitter.so" >>"$T/th-plugin.ini"
run fj-ref "$TH" --set run.strategies=full_jitter
run fj "$T/th-plugin.ini" --set run.strategies=full_jitter --jobs 2 && same "$T/fj-ref" "$T/fj" "fulljitter plugin"

# --- 5. refusals ----------------------------------------------------------------
# refuse NAME PATTERN ARGS...: herd run exits 2 with one line matching PATTERN, no output
refuse() {
    name=$1 pat=$2; shift 2
    "$HERD" run "$@" -o "$T/r-$name" --quiet >"$T/r-$name.out" 2>"$T/r-$name.err"
    rc=$?
    if [ "$rc" = 2 ] && [ "$(wc -l <"$T/r-$name.err")" = 1 ] && grep -q -- "$pat" "$T/r-$name.err" &&
        [ ! -e "$T/r-$name" ]; then ok; else bad "$name: exit $rc: $(cat "$T/r-$name.err")"; fi
}
for b in rand clock_gettime; do
    f=$b; [ $b = clock_gettime ] && f=clock
    printf '[clients]\ncount = 10\n[retry]\nplugin = %s\n' "$P/bad_$f.so" >"$T/$b.ini"
    refuse "$b" "^herd: $T/$b.ini:4: \[retry\] plugin = .*imports $b: a plugin takes time only from now_s" "$T/$b.ini"
done
refuse version 'abi_version is 99, this herd speaks 1' "$TH" --set "retry.plugin=$P/bad_version.so"
refuse short 'desc_size is [0-9]*, ABI version 1 needs [0-9]* (a short descriptor)' "$TH" --set "retry.plugin=$P/bad_short.so"
refuse unread 'plugin.nope: plugin builtin does not read it (the key changes nothing)' "$TH" \
    --set "retry.plugin=$P/builtin.so" --set retry.plugin.nope=1
refuse useless "retry.base_s: no effect, because plugin fulljitter decides the retries and sleeps" "$T/th-plugin.ini" \
    --set retry.base_s=2
refuse layer 'with \[layer\] sections the innermost layer' scenarios/layers.ini --set "retry.plugin=$P/builtin.so"
# a NaN delay: the run stops (exit 1), the plugin, the client and the time named, nothing written
"$HERD" run "$TH" --set "retry.plugin=$P/bad_nan.so" --set clients.count=200 -o "$T/r-nan" --quiet \
    >"$T/r-nan.out" 2>"$T/r-nan.err"
rc=$?
if [ "$rc" = 1 ] && [ "$(wc -l <"$T/r-nan.err")" = 1 ] &&
    grep -q '^herd: plugin bad: client [0-9]* at t = [0-9.e-]* s: returned a delay that is not a finite number >= 0 (got nan)' "$T/r-nan.err" &&
    [ ! -e "$T/r-nan/summary.csv" ]; then ok; else bad "nan: exit $rc: $(cat "$T/r-nan.err")"; fi

# --- herd plugin check ----------------------------------------------------------
if "$HERD" plugin check "$P/builtin.so" >"$T/check.out" 2>&1 && grep -q '^determinism: ok' "$T/check.out" &&
    grep -q '^isolation: ok' "$T/check.out" && grep -q '^symbols: ok' "$T/check.out"; then ok; else
    bad "plugin check builtin: $(cat "$T/check.out")"; fi
"$HERD" plugin check "$P/bad_global.so" >"$T/global.out" 2>&1
rc=$?
if [ "$rc" = 1 ] && grep -q '^isolation: FAILED' "$T/global.out"; then ok; else bad "plugin check global: exit $rc: $(cat "$T/global.out")"; fi
"$HERD" plugin check "$P/bad_rand.so" >"$T/rand.out" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q 'imports rand' "$T/rand.out"; then ok; else bad "plugin check rand: exit $rc: $(cat "$T/rand.out")"; fi

echo "plugin: $pass passed, $failn failed"
[ "$failn" = 0 ]
