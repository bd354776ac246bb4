#!/bin/sh
# The arrows of the house (ARCHITECTURE: scenario -> spec, never -> model or
# report): every quoted #include of a layer must name a header of the layer
# itself or of a layer it may depend on.  Fails on any other include, so a
# crossed arrow cannot come back unseen.
#
#   sim/scenario  itself, ../spec/, ../base/, ../policy/, ../plugin/ (retry plugins loaded)
#   sim/spec      itself, ../policy/ (hp_policy inside model_spec), ../base/
#   sim/plugin    itself, ../policy/, ../base/ (dlopen outside the pure policy library)
#   sim/policy    itself (libherdpolicy: nothing of herd)
#   sim/base      itself
#
#   sh tests/layers.sh [ROOT]
set -u
ROOT=${1:-.}
pass=0 failn=0
# check DIR ALLOWED-PREFIXES...: every '#include "X"' in DIR/*.c and DIR/*.h
# has X without a '/' (its own header) or starting with an allowed prefix
check() {
    dir=$1; shift
    for f in "$ROOT/$dir"/*.c "$ROOT/$dir"/*.h; do
        [ -f "$f" ] || continue
        bad=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
            case $inc in */*) ;; *) continue ;; esac
            ok=0
            for p in "$@"; do case $inc in "$p"*) ok=1 ;; esac; done
            [ $ok = 1 ] || echo "$inc"
        done)
        if [ -z "$bad" ]; then pass=$((pass + 1)); else
            failn=$((failn + 1)); echo "FAIL: ${f#"$ROOT"/} includes $(echo $bad) ($dir may include only its own headers and $*)"; fi
    done
}
check sim/scenario ../spec/ ../base/ ../policy/ ../plugin/
check sim/spec ../policy/ ../base/
check sim/plugin ../policy/ ../base/
check sim/policy herdpolicy/ ../herdpolicy.h
check sim/base
echo "layers: $pass passed, $failn failed"
[ "$failn" = 0 ]
