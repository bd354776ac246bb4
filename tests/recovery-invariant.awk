# tests/recovery-invariant.awk: awk -F, -f tests/recovery-invariant.awk
# DIR/summary.csv DIR/timeseries.csv (the series of every replication) ->
# one line per run that herd reports recovered:
#   KEY over=L good=R buckets=N ok|FAIL
# and a last line "checked N failed F".
#
# The invariant of the recovery measure (sim/model/recovery.h): a run
# reported recovered is not collapsed after its recovery time.  From the
# recovery point (trigger_start_s + recovery_time_s) to the last bucket in
# which a request starts: the server's overload share L, the attempts it
# turned away (turned_away) plus the growth of the number in it (in_flight,
# last bucket minus first, when positive) per attempt arriving, and the
# goodput share R (goodput / offered).  Collapsed, by the measure's own
# definition of a healthy baseline: L > 0.05 and R < 0.95.  A collapsed
# system that was reported recovered (Metafor's Example 1 at 9.5/s with 5
# attempts, before the healthy baseline) turns away 79% of the attempts it
# is offered and serves no request.
FNR == 1 { f++; for (i = 1; i <= NF; i++) c[f, $i] = i; rc = c[f, "replication"]; next }
{ key = ""; for (i = 1; i <= rc; i++) key = key (i > 1 ? "," : "") $i }
f == 1 { if ($c[1, "recovered"] == "1") rec[key] = $c[1, "trigger_start_s"] + $c[1, "recovery_time_s"]; next }
(key in rec) && $c[2, "time_s"] + 1e-9 >= rec[key] {
    if (!(key in x0)) x0[key] = $c[2, "in_flight"]
    a[key] += $c[2, "arrivals"]; t[key] += $c[2, "turned_away"]
    if ($c[2, "offered"] > 0) { x1[key] = $c[2, "in_flight"]; n[key]++; o[key] += $c[2, "offered"]; g[key] += $c[2, "goodput"] }
}
END {
    for (k in rec) {
        gr = x1[k] - x0[k]
        if (gr < 0) gr = 0
        over = a[k] ? (t[k] + gr) / a[k] : 0
        good = o[k] ? g[k] / o[k] : 1
        ok = over <= 0.05 || good >= 0.95
        bad += !ok
        printf "%s over=%.4f good=%.4f buckets=%d %s\n", k, over, good, n[k], ok ? "ok" : "FAIL"
        m++
    }
    printf "checked %d failed %d\n", m, bad
}
