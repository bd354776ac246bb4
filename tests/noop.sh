#!/bin/sh
# tests/noop.sh - the no-op rule, generated from the key table: every key
# a scenario writes changes the model herd runs, or herd refuses it.
#
#   sh tests/noop.sh ./herd            the test
#   sh tests/noop.sh ./herd --update   rewrite tests/explain.sums (the
#                                      shipped scenarios' explanations)
#   sh tests/noop.sh ./herd '' ORACLE  the test, and the oracle below
#
# 1. For every key of `herd keys --list`, in its section ([outage a],
#    [tool t1], [layer l1] for the templates), on top of a small base
#    scenario and, for [retry], [tool] and [layer] keys, of every library
#    preset of `herd presets` written in the same section: a few values
#    other than the default are written, one at a time, and the resolved
#    model (`herd check --canonical`, the text `herd check --explain`
#    prints without its origins) is compared with the base's.  A key fails
#    when some value of it is accepted and none changes the model.
# 2. Every shipped scenario (scenarios/, scenarios/workshop/): its
#    `herd check --explain` is the one recorded in tests/explain.sums
#    (cksum), and every key its file writes, given another value by --set,
#    changes the model or is refused.
#
# 3. The oracle (with ORACLE, build/herd-nocheck: herd built without the
#    no-op rule): a value herd refuses as "no effect" is run, with the
#    base, by the oracle, a small simulation each; their CSVs must be the
#    same.  A key refused although it changes what is simulated (the model
#    text misses something the model reads) fails here, where parts 1 and
#    2 would count the refusal as a pass.
#
# Prints "FAIL ..." per failure and a summary line with the counts.
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
MODE=${2:-}
ORACLE=${3:-}
[ -z "$ORACLE" ] || case $ORACLE in /*) ;; *) ORACLE=$(pwd)/$ORACLE ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SUMS=$ROOT/tests/explain.sums
T=$(mktemp -d "${TMPDIR:-/tmp}/herd-noop.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
TAB=$(printf '\t')

"$HERD" keys --list >"$T/keys" || { echo "FAIL: herd keys --list"; exit 1; }
"$HERD" presets | sed -n 's/^| `\([a-z0-9_]*\)` |.*/\1/p' | awk '!seen[$0]++' >"$T/presets"
[ -s "$T/presets" ] || { echo "FAIL: herd presets lists no preset"; exit 1; }

# Candidate values of a key (type lo hi choices default), '|'-separated:
# up to four values, the default text left out (with alldefs, every
# choice of an enum or bool: a preset's value may be the other one; in
# part 2 the "default" is the value the file writes).
cat >"$T/values.awk" <<'EOF'
BEGIN { FS = "\t" }
function add(v) { if (v != def && !(v in seen) && n < 4) { seen[v] = 1; out = out (n++ ? "|" : "") v } }
function addnum(v) { if (v + 0 >= lo + 0 && v + 0 <= hi + 0) add(sprintf("%.15g", v + 0)) }
{
    ty = $3; lo = $4; hi = $5; ch = $6; def = $7; n = 0; out = ""; delete seen
    if (ty == "double") { addnum(0.5); addnum(2); addnum(lo); addnum(7) }
    else if (ty == "integer") { addnum(2); addnum(3); addnum(lo); addnum(7) }
    else if (ty == "enum" || ty == "bool") { if (alldefs && ($1 == "retry" || $1 == "tool" || $1 == "layer")) def = ""; m = split(ch, c, ","); for (i = 1; i <= m; i++) add(c[i]) }
    else if (ty == "preset") { m = split(ch, c, ","); for (i = 1; i <= m; i++) add(c[i]); add("aws_standard") }
    else if (ty == "strategy") { add("constant"); add("full_jitter"); add("decorrelated_jitter"); add("immediate") }
    else if (ty == "strategies") { add("constant"); add("all") }
    else if (ty == "distribution") { add("constant(0.5)"); add("exponential(0.7)") }
    else if (ty == "classes") { add("not_found"); add("server"); add("timeout") }
    else if (ty == "statuses") { add("500"); add("503") }
    else if (ty == "outcome") { add("429"); add("500"); add("connection_refused") }
    print $1 "\t" $2 "\t" ty "\t" out
}
EOF
awk -v alldefs=1 -f "$T/values.awk" "$T/keys" >"$T/cases"

# scenario FILE SECTION-KIND PRESET KEY VALUE: the base scenario, with
# KEY = VALUE in the section under test (KEY empty: the base itself).
scenario() {
    sc_f=$1 sc_kind=$2 sc_preset=$3 sc_key=$4 sc_val=$5
    SC_KIND=$sc_kind SC_PRESET=$sc_preset SC_KEY=$sc_key SC_VAL=$sc_val awk '
    function line(sec, k, v) {
        # a base line, unless the key under test replaces it
        if (sec == kind && k == key) return
        print k " = " v
    }
    function test(sec) {
        if (sec != kind) return
        if (preset != "" && key != "preset") print "preset = " preset
        if (key != "") print key " = " val
    }
    BEGIN {
        kind = ENVIRON["SC_KIND"]; preset = ENVIRON["SC_PRESET"]; key = ENVIRON["SC_KEY"]; val = ENVIRON["SC_VAL"]
        print "[run]"; line("run", "name", "noop"); line("run", "replications", 2); test("run")
        print "[clients]"; line("clients", "count", 50); test("clients")
        print "[server]"; line("server", "workers", 10); test("server")
        if (kind == "retry" || kind == "network" || kind == "idempotency" || kind == "limits") {
            print "[" kind "]"; test(kind)
        }
        if (kind == "outage") { print "[outage a]"; line("outage", "start_s", 10); line("outage", "end_s", 20); test("outage") }
        if (kind == "tool") {
            print "[tool t1]"; test("tool"); line("tool", "weight", 2)
            print "[tool t2]"; print "weight = 1"
        }
        if (kind == "layer") {
            print "[layer l1]"; test("layer"); line("layer", "max_attempts", 3)
            print "[layer l2]"; print "max_attempts = 2"
        }
    }' >"$sc_f"
}

# canonical FILE OUT [ARGS...]: rc of herd check --canonical
canonical() {
    cn_f=$1 cn_o=$2
    shift 2
    "$HERD" check "$cn_f" --canonical "$@" >"$cn_o" 2>"$cn_o.err"
}

pass=0 failn=0 refused=0 untested=0 runs=0 cases=0 oracled=0 ORACLE_BASE_ARGS=
fail() { failn=$((failn + 1)); echo "FAIL $*"; }

# simulate FILE DIR [ARGS...]: the oracle's CSVs of FILE in DIR (rc)
simulate() {
    sm_f=$1 sm_d=$2
    shift 2
    rm -rf "$sm_d"
    "$ORACLE" run "$sm_f" -o "$sm_d" -q "$@" >"$sm_d.err" 2>&1
}

# oracle BASEFILE BASEDIR CASEFILE ERRFILE KEY WHAT [ARGS...]: when
# ERRFILE says KEY has "no effect", the oracle's CSVs of CASEFILE (with ARGS) must be
# BASEFILE's (with $ORACLE_BASE_ARGS; BASEDIR caches them)
oracle() {
    or_bf=$1 or_bd=$2 or_cf=$3 or_err=$4 or_key=$5 or_what=$6
    shift 6
    [ -n "$ORACLE" ] || return 0
    # the refusal of this key (not of another, which the value made dead)
    grep -Eq "[. ]$or_key(=[^:]*)?: no effect" "$or_err" || return 0
    if [ ! -d "$or_bd" ]; then
        simulate "$or_bf" "$or_bd" $ORACLE_BASE_ARGS || { fail "oracle: the base of $or_what does not run: $(cat "$or_bd.err")"; return; }
    fi
    simulate "$or_cf" "$T/oracle.case" "$@" || return 0 # refused for another reason too
    oracled=$((oracled + 1))
    for csv in "$or_bd"/*.csv; do
        if ! cmp -s "$csv" "$T/oracle.case/${csv##*/}"; then
            fail "$or_what: refused as no effect ($(head -c 200 "$or_err")), yet ${csv##*/} changes when herd is built without the rule"
            return
        fi
    done
}

# one_key KIND PRESET SECTION KEY TYPE VALUES: part 1 for one key and base
one_key() {
    ok_kind=$1 ok_preset=$2 ok_sec=$3 ok_key=$4 ok_vals=$5
    cases=$((cases + 1))
    bk="$ok_kind.$ok_preset"
    if [ ! -f "$T/base.$bk" ]; then
        scenario "$T/base.$bk.ini" "$ok_kind" "$ok_preset" "" ""
        runs=$((runs + 1))
        if ! canonical "$T/base.$bk.ini" "$T/base.$bk"; then
            echo "# base $bk refused: $(cat "$T/base.$bk.err")"
            : >"$T/base.$bk"
            echo refused >"$T/base.$bk.bad"
        fi
    fi
    if [ -f "$T/base.$bk.bad" ]; then
        untested=$((untested + 1))
        return
    fi
    changed=0 same="" anyref=0
    old_ifs=$IFS
    IFS='|'
    for v in $ok_vals; do
        IFS=$old_ifs
        scenario "$T/case.ini" "$ok_kind" "$ok_preset" "$ok_key" "$v"
        runs=$((runs + 1))
        if canonical "$T/case.ini" "$T/case.out"; then
            if cmp -s "$T/case.out" "$T/base.$bk"; then
                same="$same $v"
            else
                changed=1
                break
            fi
        elif [ $? -eq 2 ]; then
            anyref=1
            oracle "$T/base.$bk.ini" "$T/base.$bk.sim" "$T/case.ini" "$T/case.out.err" "$ok_key" \
                "[$ok_sec] $ok_key = $v (preset '${ok_preset:-none}')"
        else
            fail "$ok_sec.$ok_key = $v (preset '$ok_preset'): herd check crashed: $(cat "$T/case.out.err")"
            return
        fi
    done
    IFS=$old_ifs
    if [ $changed -eq 1 ]; then
        pass=$((pass + 1))
    elif [ -n "$same" ]; then
        fail "[$ok_sec] $ok_key =$same (preset '${ok_preset:-none}'): accepted, and the model is the base's"
    elif [ $anyref -eq 1 ]; then
        refused=$((refused + 1))
    else
        untested=$((untested + 1))
    fi
}

if [ "$MODE" != "--update" ]; then
    while IFS="$TAB" read -r sec key ty vals; do
        case $ty in name | columns | baseline | file) untested=$((untested + 1)); continue ;; esac
        [ -n "$vals" ] || { untested=$((untested + 1)); continue; }
        k=$key
        [ "$key" = "error_rate_NNN" ] && k=error_rate_503
        one_key "$sec" "" "$sec" "$k" "$vals"
        case $sec in
        retry | tool | layer)
            while read -r p; do
                one_key "$sec" "$p" "$sec" "$k" "$vals"
            done <"$T/presets"
            ;;
        esac
    done <"$T/cases"
    # error_rate_NNN is not in the table: one [server] key like it
    one_key server "" server error_rate_503 "0.1|0.5"
fi

# ---- part 2: the shipped scenarios -----------------------------------
cd "$ROOT" || exit 1
: >"$T/sums"
nscn=0 nset=0
for s in scenarios/*.ini scenarios/workshop/*.ini; do
    [ -f "$s" ] || continue
    nscn=$((nscn + 1))
    if ! "$HERD" check "$s" --explain >"$T/explain" 2>"$T/explain.err"; then
        fail "$s: herd check --explain: $(cat "$T/explain.err")"
        continue
    fi
    echo "$s $(sed 1,/^resolved\ model/d "$T/explain" | cksum)" >>"$T/sums"
    [ "$MODE" = "--update" ] && continue
    canonical "$s" "$T/scn.base" || { fail "$s: --canonical refused"; continue; }
    rm -rf "$T/scn.sim"
    ORACLE_BASE_ARGS="--replications 1"
    # every key the file writes (outside [sweep] and [variant]), as --set
    awk -F'\t' 'NR == FNR { ty[$1 "." $2] = $0; next }
        /^[ \t]*\[/ { s = $0; gsub(/^[ \t]*\[[ \t]*|[ \t]*\][ \t]*$/, "", s); gsub(/[ \t]+/, " ", s); next }
        /^[ \t]*[;#]/ || !/=/ { next }
        {
            k = $0; sub(/=.*/, "", k); gsub(/[ \t]/, "", k)
            kind = s; sub(/ .*/, "", kind)
            if (kind == "sweep" || kind == "variant") next
            t = kind "." k
            if (k ~ /^error_rate_/) t = "server.error_rate_NNN"
            v = $0; sub(/^[^=]*=[ \t]*/, "", v); sub(/[ \t]+[;#].*$/, "", v); sub(/[ \t]+$/, "", v)
            if (t in ty) { n = split(ty[t], f, "\t"); print s "\t" k "\t" f[3] "\t" f[4] "\t" f[5] "\t" f[6] "\t" v }
        }' "$T/keys" "$s" | awk -f "$T/values.awk" >"$T/scn.keys"
    # (the written value takes the place of the default: it is not a candidate)
    while IFS="$TAB" read -r sec key ty vals; do
        case $ty in name | columns | baseline | file) continue ;; esac
        [ -n "$vals" ] || continue
        nset=$((nset + 1))
        changed=0 same=""
        old_ifs=$IFS
        IFS='|'
        for v in $vals; do
            IFS=$old_ifs
            runs=$((runs + 1))
            if canonical "$s" "$T/scn.out" --set "$sec.$key=$v"; then
                if cmp -s "$T/scn.out" "$T/scn.base"; then same="$same $v"; else changed=1; break; fi
            elif [ $? -eq 2 ]; then
                oracle "$s" "$T/scn.sim" "$s" "$T/scn.out.err" "$key" "$s: --set '$sec.$key=$v'" \
                    --set "$sec.$key=$v" --replications 1
            fi
        done
        IFS=$old_ifs
        if [ $changed -eq 0 ] && [ -n "$same" ]; then
            fail "$s: --set '$sec.$key' =$same: accepted, and the model is the file's"
        else
            pass=$((pass + 1))
        fi
    done <"$T/scn.keys"
done
if [ "$MODE" = "--update" ]; then
    cp "$T/sums" "$SUMS"
    echo "updated $SUMS ($nscn scenarios)"
    exit 0
fi
if ! cmp -s "$T/sums" "$SUMS"; then
    fail "the explanation of a shipped scenario changed (herd check S --explain; sh tests/noop.sh ./herd --update after a deliberate change): $(diff "$SUMS" "$T/sums" | grep '^[<>]' | head -4 | tr '\n' ' ')"
fi
echo "noop: $cases key x section x base cases ($(wc -l <"$T/presets") presets), $nscn shipped scenarios ($nset keys written), $runs herd runs: $pass passed, $refused refused outright, $untested untested, $oracled refusals simulated by the oracle, $failn failed"
[ "$failn" -eq 0 ]
