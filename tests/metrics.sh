#!/bin/sh
# metrics.sh HERD: every metric is defined or n/a with its reason, and
# [run] window_s measures the logical requests started in its window.
#
# 1. Every shipped scenario (reduced: 2 replications, the two big maps at
#    two loads): every metric cell of summary.csv is a finite number or
#    n/a, and every n/a metric is listed in manifest.txt with its reason;
#    no CSV holds "nan".
# 2. The thundering herd (start = burst): offered_per_s and goodput_per_s
#    are numbers (they were nan), recovered is n/a with its reason (it was
#    "0/10 recovered"); start = spread over 8 s with the 10 s outage:
#    goodput differs between strategies (it was 0 for all, measured over
#    the 7 s until the last start, inside the outage).
# 3. window_s against a hand computation from timeseries.csv, a window
#    over the whole run against no window, and agent-stack's outage.
# 4. herd check warns about an n/a column; window_s is refused at
#    FILE:LINE when it does not fit.
# 5. Every call of a run that drains, without warm-up, is counted in
#    exactly one of served, rejected (a full queue), codel_dropped,
#    expired_skipped, shed, status_429, outage_errors, background_errors:
#    metastable.ini (its CoDel variants drop, in codel_dropped alone) and
#    priority-shedding.ini (skips and sheds).
HERD=${1:-./herd}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { :; }
bad() { echo "FAIL: $*"; fail=1; }

# every metric column of summary.csv: finite or n/a (listed in the
# manifest with a reason); no "nan" anywhere
definedness() { # DIR
    awk -F, -v man="$1/manifest.txt" '
    BEGIN { while ((getline l < man) > 0) if (l ~ /^n\/a: [a-z0-9_]+: .*: because ./) { split(l, w, ": "); listed[w[2]] = 1 } }
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seed") first = i + 1; for (i = 1; i <= NF; i++) name[i] = $i; next }
    { for (i = first; i <= NF; i++) {
        if ($i == "n/a") { if (!(name[i] in listed)) { print FILENAME ": " name[i] " is n/a without a reason in the manifest"; bad = 1 } }
        else if ($i !~ /^-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?$/) { print FILENAME ": " name[i] " is \"" $i "\": neither finite nor n/a"; bad = 1 } } }
    END { exit bad }' "$1/summary.csv" || return 1
    if grep -qi '\bnan\b' "$1/summary.csv" "$1/aggregate.csv"; then echo "$1: nan in a CSV"; return 1; fi
    return 0
}

n=0
for f in scenarios/*.ini scenarios/workshop/*.ini; do
    b=$(basename "$f" .ini)
    set -- --set run.replications=2
    case $b in
    metastable-map) set -- "$@" --set 'sweep load.values=500,950' --set 'sweep trigger.values=110' ;;
    metastable-hysteresis) set -- "$@" --set 'sweep load.values=300,950' ;;
    esac
    if ! "$HERD" run "$f" "$@" -o "$T/all/$b" -q >"$T/log" 2>&1; then
        bad "$f: herd run failed: $(head -3 "$T/log")"
        continue
    fi
    definedness "$T/all/$b" || bad "$f: a metric is neither finite nor n/a with a reason"
    n=$((n + 1))
done
echo "definedness: $n shipped scenarios checked"

# 5. one column per way a call ends at the server
for b in metastable priority-shedding; do
    awk -F, -v b="$b" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        { s = 0; split("served rejected codel_dropped expired_skipped shed concurrency_rejected status_429 outage_errors background_errors", w, " ")
          for (k in w) s += $h[w[k]]
          if (s != $h["calls"] || $h["unfinished"] != 0) { print b " " $h["variant"] " rep " $h["replication"] ": calls " $h["calls"] ", counted " s; bad = 1 }
          v = $h["variant"]; d[v] += $h["codel_dropped"]; x[v] += $h["expired_skipped"]; sh[v] += $h["shed"]; cl[v] += $h["concurrency_rejected"] }
        END {
          if (b == "metastable" && !(d["codel"] > 0 && d["lifo"] == 0 && x["codel"] == 0)) { print b ": codel_dropped only in the codel variants"; bad = 1 }
          if (b == "metastable" && !(cl["aimd"] > 0 && cl["gradient2"] > 0 && cl["codel"] == 0 && cl["plain_retries"] == 0)) { print b ": concurrency_rejected only in the limiter variants"; bad = 1 }
          if (b == "priority-shedding" && !(x["drop_expired"] > 0 && sh["shedding"] > 0 && sh["drop_expired"] == 0 && x["plain_retries"] == 0 && d["shedding"] == 0)) { print b ": expired_skipped and shed only where their keys are"; bad = 1 }
          exit bad }' "$T/all/$b/summary.csv" || bad "$b: a call counted in no column, or in two"
done

# 2. the thundering herd and a spread start
col() { # FILE COLUMN [KEY=VALUE ...]: the first matching row's cell
    f=$1 c=$2
    shift 2
    awk -F, -v col="$c" -v conds="$*" '
    NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; n = split(conds, cc, " "); next }
    { ok = 1; for (k = 1; k <= n; k++) { split(cc[k], kv, "="); if ($h[kv[1]] != kv[2]) ok = 0 }
      if (ok) { print $h[col]; exit } }' "$f"
}
"$HERD" run scenarios/thundering-herd.ini --set clients.count=1000 --set run.replications=3 -o "$T/th" -q || bad "thundering-herd"
for s in exponential full_jitter equal_jitter decorrelated_jitter; do
    g=$(col "$T/th/aggregate.csv" goodput_per_s_mean strategy=$s)
    o=$(col "$T/th/aggregate.csv" offered_per_s_mean strategy=$s)
    awk -v g="$g" -v o="$o" 'BEGIN { exit !(g + 0 > 0 && o + 0 > 0 && g == g + 0 && o == o + 0) }' ||
        bad "thundering-herd $s: goodput_per_s $g, offered_per_s $o: expected positive numbers"
    r=$(col "$T/th/summary.csv" recovered strategy=$s)
    [ "$r" = "n/a" ] || bad "thundering-herd $s: recovered is '$r'; expected n/a (a burst has no arrivals after the trigger)"
done
# closed population: goodput = successes / completion time, every run finished
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    { want = $h["successes"] / $h["completion_time_s"]; got = $h["goodput_per_s"]
      if (got - want > 1e-6 * want || want - got > 1e-6 * want) { print "row " NR ": goodput " got " != successes / completion " want; bad = 1 } }
    END { exit bad }' "$T/th/summary.csv" || bad "thundering-herd: goodput_per_s is not successes / completion_time_s"
grep -q '^n/a: recovered: every run: because the population is closed and starts in a burst' "$T/th/manifest.txt" ||
    bad "thundering-herd: the manifest does not say why recovered is n/a"
"$HERD" run scenarios/thundering-herd.ini --set clients.count=1000 --set run.replications=3 --set clients.start=spread \
    --set clients.spread_s=8 -o "$T/sp" -q || bad "spread"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    { g[$h["goodput_per_s_mean"]] = 1 } END { n = 0; for (k in g) n++; exit !(n >= 4) }' "$T/sp/aggregate.csv" ||
    bad "spread_s = 8: the strategies share one goodput figure"

# 3. window_s: the requests started in [FROM, TO) against timeseries.csv
cat >"$T/w.ini" <<'EOF'
[run]
replications = 3
seed = 5
strategies = full_jitter
horizon_s = 60
[clients]
count = 100000
start = poisson
rate_per_s = 80
[server]
workers = 10
service_time_s = exponential(0.1)
[outage 1]
start_s = 20
end_s = 30
[retry]
max_attempts = 4
base_s = 0.2
cap_s = 2
EOF
"$HERD" run "$T/w.ini" --set run.window_s=20:35 -o "$T/w" -q || bad "window run"
# offered_per_s x 15 s = the timeseries' starts in buckets 20..34; and
# successes + failures + unfinished = those starts
awk -F, 'FNR == 1 { file++; for (i = 1; i <= NF; i++) h[file, $i] = i; next }
    file == 1 && $h[1, "time_s"] >= 20 && $h[1, "time_s"] < 35 { n[$h[1, "replication"]] += $h[1, "offered"] }
    file == 2 { r = $h[2, "replication"]; o = $h[2, "offered_per_s"] * 15
      d = $h[2, "successes"] + $h[2, "failures"] + $h[2, "unfinished"]
      if (o < n[r] - 1e-6 || o > n[r] + 1e-6 || d != n[r]) { print "replication " r ": offered x 15 = " o ", finished + open = " d ", timeseries starts " n[r]; bad = 1 }
      if ($h[2, "goodput_per_s"] * 15 - $h[2, "successes"] > 1e-6 || $h[2, "successes"] - $h[2, "goodput_per_s"] * 15 > 1e-6) { print "goodput x 15 != successes"; bad = 1 }
      rows++ }
    END { exit bad || rows != 3 }' "$T/w/timeseries.csv" "$T/w/summary.csv" || bad "window_s: not the hand count from timeseries.csv"
grep -q '^point 1: window_s=20:35 ' "$T/w/manifest.txt" || bad "window_s: not in the manifest"
# a window over the whole run counts what no window counts
"$HERD" run "$T/w.ini" --set run.window_s=0:60 -o "$T/w0" -q || bad "window 0:60"
"$HERD" run "$T/w.ini" -o "$T/wn" -q || bad "no window"
for c in calls retries successes failures timeouts rejected outage_errors amplification p99_latency_s; do
    a=$(col "$T/w0/summary.csv" $c replication=1) b=$(col "$T/wn/summary.csv" $c replication=1)
    [ "$a" = "$b" ] || bad "window_s = 0:60: $c is $a, without a window $b"
done
# agent-stack: attempts per step inside its outage (30-90 s) against the whole run
"$HERD" run scenarios/agent-stack.ini --set run.replications=5 -o "$T/as" -q || bad "agent-stack"
"$HERD" run scenarios/agent-stack.ini --set run.replications=5 --set run.window_s=30:90 -o "$T/asw" -q || bad "agent-stack window"
for v in chatopenai with_retry langgraph one_budgeted_layer; do
    a=$(col "$T/as/aggregate.csv" amplification_mean variant=$v) w=$(col "$T/asw/aggregate.csv" amplification_mean variant=$v)
    [ -n "$a" ] || continue
    echo "agent-stack $v: attempts per step $a over the whole run, $w for the steps started in the outage (30:90)"
    awk -v a="$a" -v w="$w" 'BEGIN { exit !(w > a) }' || bad "agent-stack $v: attempts per step in the outage ($w) not above the whole run's ($a)"
done
# three windows partition the run: their counts add up to the whole run's
"$HERD" run "$T/w.ini" --set run.replications=1 --sweep run.window_s=0:20,20:35,35:60 -o "$T/wp" -q || bad "partition"
for c in calls retries successes failures timeouts outage_errors; do
    a=$(awk -F, -v col=$c 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } { s += $h[col] } END { print s }' "$T/wp/summary.csv")
    b=$(col "$T/wn/summary.csv" $c replication=0)
    [ "$a" = "$b" ] || bad "windows 0:20, 20:35, 35:60: $c adds up to $a, the whole run has $b"
done
# the commands of doc/outputs.md (section Time windows), at 2 replications
sed -n '/<!-- window:begin -->/,/<!-- window:end -->/p' doc/outputs.md | grep '^herd ' >"$T/readme.sh"
[ "$(wc -l <"$T/readme.sh")" -ge 3 ] || bad "doc/outputs.md: the Time windows commands are missing"
i=0
while read -r cmd; do
    i=$((i + 1))
    set -- $(echo "$cmd" | sed "s|^herd ||; s|out/|$T/readme-$i-|")
    case $1 in run) set -- "$@" --set run.replications=2 -q ;; esac
    "$HERD" "$@" >"$T/readme.out" 2>&1 || bad "doc/outputs.md: command failed: $cmd: $(head -2 "$T/readme.out")"
done <"$T/readme.sh"
# window_s in a sweep: a list of windows
"$HERD" run "$T/w.ini" --set run.replications=1 --sweep run.window_s=0:20,20:35 -o "$T/ws" -q || bad "--sweep run.window_s"
[ "$(grep -c '^0:20,\|^20:35,' "$T/ws/aggregate.csv")" = 2 ] || bad "--sweep run.window_s: expected the points 0:20 and 20:35"

# 4. herd check and refusals
"$HERD" check scenarios/thundering-herd.ini --set run.columns=recovered,calls >"$T/check" 2>&1 || bad "check"
grep -q '^warning: \[run\] columns: recovered is n/a for this scenario, because the population is closed' "$T/check" ||
    bad "herd check: no warning for recovered in a burst"
grep -q 'warning: .*calls' "$T/check" && bad "herd check warns about calls"
printf '[run]\nhorizon_s = 100\nwindow_s = 10:200\n[clients]\ncount = 10\n' >"$T/bad1.ini"
"$HERD" check "$T/bad1.ini" >"$T/o" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "bad1.ini:3: \[run\] window_s = 10:200 ends after horizon_s" "$T/o" ||
    bad "window_s past the horizon: rc $rc, $(cat "$T/o")"
printf '[run]\nwindow_s = 20:10\n[clients]\ncount = 10\n' >"$T/bad2.ini"
"$HERD" check "$T/bad2.ini" >"$T/o" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "bad2.ini:2: .*window_s.*expected FROM:TO" "$T/o" || bad "window_s = 20:10: rc $rc, $(cat "$T/o")"

[ $fail = 0 ] && echo "metrics.sh: ok"
exit $fail
