#!/bin/sh
# tests/mutate.sh - mutation test of the scenario reader: every scenario in
# scenarios/, shrunk (2 replications, at most 60 clients), is mutated at
# random (seeded, so a failure replays) and run.  Each mutant must either
# run with complete outputs (exit 0: summary, aggregate, timeseries and
# manifest present, no temporaries) or be refused in one line with no
# output (exit 2).  Never a crash, a timeout, another exit status or a
# partial file.
#
#   sh tests/mutate.sh ./herd [MUTANTS_PER_SCENARIO] [SEED]
set -u
HERD_ARG=${1:-./herd}
case $HERD_ARG in /*) HERD=$HERD_ARG ;; *) HERD=$(pwd)/$HERD_ARG ;; esac
N=${2:-8}
SEED=${3:-2015}
T=$(mktemp -d /tmp/herd-mutate.XXXXXX)
trap 'rm -rf "$T"' EXIT
# the Python modules of the scenarios' retry plugins, beside their copies
for py in scenarios/*.py; do [ -f "$py" ] && ln -s "$(pwd)/$py" "$T/$(basename "$py")"; done
pass=0 failn=0 ran=0 refused=0

# shrink: fewer replications and clients, short sweeps (text edits only)
shrink() {
    awk '
    /^[ \t]*\[/ { sec = $0; gsub(/[][ \t]/, "", sec) }
    /^[ \t]*replications[ \t]*=/ { print "replications = 2"; next }
    sec == "clients" && /^[ \t]*count[ \t]*=/ { split($0, a, "="); v = a[2] + 0; if (v > 60) v = 60; print "count = " v; next }
    sec ~ /^sweep/ && /^[ \t]*values[ \t]*=/ { print "values = " (sec ~ /clients/ ? "10, 20" : "1, 2"); next }
    { print }' "$1"
}

# mutate FILE SEED KIND: one random edit of FILE on stdout
mutate() {
    awk -v seed="$2" -v kind="$3" '
    { line[NR] = $0 } END {
        srand(seed); n = NR; if (n == 0) exit
        i = int(rand() * n) + 1; j = int(rand() * n) + 1
        for (k = 1; k <= n; k++) {
            s = line[k]
            if (k == i) {
                if (kind == 0) { printf "%s\r", s; continue }                     # CR-only ending
                if (kind == 1) { printf "%s\r\n", s; continue }                   # CRLF ending
                if (kind == 2) { print s; print s; continue }                     # duplicated line
                if (kind == 3) continue                                           # dropped line
                if (kind == 4) { print substr(s, 1, int(length(s) * rand())); continue } # truncated
                if (kind == 5 && length(s) > 0) {                                 # byte flip
                    p = int(rand() * length(s)) + 1
                    c = substr("=[]; .,:#0123456789aZ-+e()\t\"x", int(rand() * 30) + 1, 1)
                    print substr(s, 1, p - 1) c substr(s, p + 1); continue
                }
                if (kind == 6 && index(s, "=") && index(line[j], "=")) {           # swapped values
                    split(s, a, "="); split(line[j], b, "=")
                    print a[1] "=" b[2]; continue
                }
            }
            print s
        }
    }' "$1"
}

for f in scenarios/*.ini; do
    name=$(basename "$f" .ini)
    shrink "$f" >"$T/$name.base.ini"
    m=0
    while [ "$m" -lt "$N" ]; do
        seed=$((SEED + m * 7919 + $(printf '%s' "$name" | cksum | cut -d' ' -f1) % 1000))
        kind=$(( (seed / 7) % 7 ))
        mut="$T/$name-$m.ini"
        mutate "$T/$name.base.ini" "$seed" "$kind" >"$mut"
        out="$T/out-$name-$m"
        timeout 60 "$HERD" run "$mut" -o "$out" --quiet --jobs 2 >"$T/stdout" 2>"$T/stderr"
        rc=$?
        what="$name mutant $m (seed $seed, kind $kind)"
        bad=""
        case $rc in
        0)
            ran=$((ran + 1))
            for c in summary.csv aggregate.csv timeseries.csv manifest.txt; do
                [ -s "$out/$c" ] || bad="exit 0 but $c is missing or empty"
            done
            [ -z "$(find "$out" -name '.*tmp*' 2>/dev/null)" ] || bad="temporaries left"
            [ ! -s "$T/stderr" ] || bad="exit 0 with a message: $(head -c 200 "$T/stderr")"
            ;;
        2)
            refused=$((refused + 1))
            [ "$(wc -l <"$T/stderr")" -eq 1 ] || bad="refused with $(wc -l <"$T/stderr") lines on stderr"
            grep -q '^herd: ' "$T/stderr" || bad="message without 'herd: '"
            [ ! -e "$out" ] || bad="refused but created $out"
            ;;
        124) bad="timed out (60 s)" ;;
        *) bad="exit $rc: $(head -c 300 "$T/stderr")" ;;
        esac
        if [ -n "$bad" ]; then
            failn=$((failn + 1))
            echo "FAIL $what: $bad"
            cp "$mut" "/tmp/herd-mutant-$name-$m.ini" 2>/dev/null && echo "  kept as /tmp/herd-mutant-$name-$m.ini"
        else
            pass=$((pass + 1))
        fi
        rm -rf "$out"
        m=$((m + 1))
    done
done
echo "mutate: $pass passed, $failn failed ($ran ran, $refused refused)"
[ "$failn" -eq 0 ]
