#!/bin/sh
# Figure layout: herd plot's variants and compare figures and the
# metastability maps, for 2 to 8 variants (the maps 2 to 16) with long names (30
# characters) and 2 or 4 strategies, keep
# every text at 16 pt or more in the talk style, inside the canvas and
# clear of every other text (no value labels run together, no clipped
# tick or variant label, no key over a title): tests/figure-layout.py
# checks the SVG gnuplot writes beside each PNG.
#
#   sh tests/figure-layout.sh ./herd
set -u
HERD=${1:-./herd}
T=$(mktemp -d "${TMPDIR:-/tmp}/herd-figlayout.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
command -v gnuplot >/dev/null || { echo "figure-layout: gnuplot missing"; exit 1; }

# scenario NV STRATEGIES: NV variants named like a long service name
scenario() {
    cat <<INI
[run]
strategies = $2
baseline = exponential
replications = 2
seed = 7
bucket_s = 1
horizon_s = 600
[clients]
count = 300
requests_per_client = 1
start = burst
[server]
workers = 10
queue = 50
service_time_s = exponential(0.1)
[outage 1]
start_s = 0
end_s = 5
mode = fail_fast
status = connection_refused
[retry]
base_s = 1
cap_s = 20
max_attempts = 6
attempt_timeout_s = 5
INI
    i=1
    while [ "$i" -le "$1" ]; do
        printf '[variant checkout_service_replica_%02d_east]\nserver.workers = %d\n' "$i" $((4 + 3 * i))
        i=$((i + 1))
    done
}

for nv in 2 3 5 8; do
    for st in "exponential, full_jitter" "exponential, full_jitter, equal_jitter, decorrelated_jitter"; do
        name=v$nv-$(echo "$st" | tr -cd , | wc -c)
        scenario "$nv" "$st" >"$T/$name.ini"
        "$HERD" run "$T/$name.ini" -o "$T/$name" --quiet >"$T/$name.out" 2>&1 || { bad "$name: run: $(cat "$T/$name.out")"; continue; }
        "$HERD" plot "$T/$name" --quiet >"$T/$name.plot" 2>&1 || { bad "$name: plot: $(cat "$T/$name.plot")"; continue; }
        for f in variants compare; do
            [ -s "$T/$name/$f.svg" ] || { bad "$name: no $f.svg"; continue; }
            out=$(python3 tests/figure-layout.py 16 "$T/$name/$f.svg") && ok || bad "$name $f: $out"
        done
    done
done
# the README's variants figures: their own names and values
for s in quota-per-instance agent-stack; do
    "$HERD" run "scenarios/$s.ini" -o "$T/$s" --quiet --replications 2 >/dev/null 2>&1 || { bad "$s: run"; continue; }
    "$HERD" plot "$T/$s" --quiet --figure variants >/dev/null 2>&1 || { bad "$s: plot"; continue; }
    out=$(python3 tests/figure-layout.py 16 "$T/$s/variants.svg") && ok || bad "$s variants: $out"
done
# the metastability maps (plots/metastable-map.gp, drawn as SVG): 2 to 16
# mitigations with long names, from made-up shares
for nv in 2 4 8 12 16; do
    d=$T/map$nv
    mkdir -p "$d"
    echo length >"$d/axis.txt"
    printf '2\n5\n10\n20\n' >"$d/triggers.txt"
    awk -v nv="$nv" -v d="$d" 'BEGIN {
        print "variant,load,trigger,row,recovered_mean,recovered_lo,recovered_hi" > (d "/map.csv")
        print "variant,idx,row,trigger,load95,load50" > (d "/boundary.csv")
        split("2 5 10 20", tr, " ")
        for (i = 1; i <= nv; i++) {
            v = sprintf("retry_mitigation_long_name_%03d", i); print v > (d "/variants.txt")
            for (j = 1; j <= 4; j++) {
                for (l = 500; l <= 950; l += 50) {
                    m = (l + 20 * i + 7 * j) % 100 / 99
                    printf "%s,%d,%s,%d,%.3f,%.3f,%.3f\n", v, l, tr[j], j - 1, m, m / 2, (1 + m) / 2 > (d "/map.csv")
                }
                printf "%s,%d,%d,%s,%d,%d\n", v, i, j - 1, tr[j], 500 + 50 * ((i + j) % 9), 550 + 50 * ((i + j) % 8) > (d "/boundary.csv")
            }
        }
    }'
    gnuplot -c plots/metastable-map.gp "$d" svg >"$d.out" 2>&1 || { bad "map $nv: $(cat "$d.out")"; continue; }
    out=$(python3 tests/figure-layout.py 16 "$d/metastable-map.svg" "$d/metastable-boundaries.svg") && ok || bad "map $nv: $out"
done
# the checker itself finds an overlap and a small text
cat >"$T/neg.svg" <<'SVG'
<svg width="400" height="200" viewBox="0 0 400 200">
<g transform="translate(100.00,100.00)" stroke="none" fill="black" font-family="Arial" font-size="16.00"  text-anchor="middle"><text>6757</text></g>
<g transform="translate(120.00,100.00)" stroke="none" fill="black" font-family="Arial" font-size="13.00"  text-anchor="middle"><text>6757</text></g>
</svg>
SVG
out=$(python3 tests/figure-layout.py 16 "$T/neg.svg")
echo "$out" | grep -q "overlaps" && echo "$out" | grep -q "13 pt" && ok || bad "checker misses an overlap or a 13 pt text: $out"
echo "figure-layout: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
