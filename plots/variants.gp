# variants.gp - side-by-side variants: for each failure metric that is not
# zero everywhere, one panel of bars (one group per variant, one bar per
# strategy) with 95% CI error bars.
#
#   gnuplot -c plots/variants.gp DIR [METRIC ...]
#
# Reads DIR/aggregate.csv of a run with [variant NAME] sections (its first
# column is `variant`); without METRICs it draws those of duplicate_effects,
# lost_operations, unknown_outcomes, status_429, gave_up_budget,
# gave_up_attempts, non_retryable_failures, failures, max_latency_s and
# wasted_work_s that are not all zero.  Writes DIR/variants.png and .svg.

if (ARGC < 1) { print "usage: gnuplot -c plots/variants.gp DIR [METRIC ...]"; exit status 2 }
dir = ARG1
file = dir . "/aggregate.csv"
q(s) = "'" . s . "'"
cands = "duplicate_effects lost_operations unknown_outcomes status_429 gave_up_budget gave_up_attempts non_retryable_failures failures max_latency_s wasted_work_s"
if (ARGC >= 2) { cands = ARG2; if (ARGC >= 3) { cands = cands . " " . ARG3 }; if (ARGC >= 4) { cands = cands . " " . ARG4 } }
if (system("head -1 " . q(file) . " 2>/dev/null | cut -d, -f1") ne "variant") { print "variants.gp: " . file . " has no variant column"; exit status 1 }

# metrics present and not all zero; strategies and variants in file order
info = system("awk -F, -v C=" . q(cands) . " '" . \
  'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(C, M, " "); next } \
   { if (!($2 in sv)) { sv[$2] = 1; strats = strats (ns++ ? " " : "") $2 } if (!($1 in vv)) { vv[$1] = 1; nv++ } \
     for (k = 1; k <= n; k++) if ((M[k] "_mean") in c && $c[M[k] "_mean"] + 0 != 0) nz[M[k]] = 1 } \
   END { for (k = 1; k <= n; k++) if (M[k] in nz) ms = ms (nm++ ? " " : "") M[k]; \
         printf "strats = \"%s\"; metrics = \"%s\"; nv = %d\n", strats, ms, nv }' . "' " . q(file))
eval info
ns = words(strats); nm = words(metrics)
if (nm == 0) { print "variants.gp: nothing to draw (every metric is zero)"; exit status 0 }

tmp = system("mktemp /tmp/herd-variants.XXXXXX")
# one block per metric: variant, then mean and ci for each strategy
system("awk -F, -v S=" . q(strats) . " -v MS=" . q(metrics) . " '" . \
  'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; ns = split(S, st, " "); nm = split(MS, M, " "); next } \
   { if (!($1 in seen)) { seen[$1] = 1; V[++nv] = $1 } for (k = 1; k <= nm; k++) { m[$1 "|" $2 "|" M[k]] = $c[M[k] "_mean"]; h[$1 "|" $2 "|" M[k]] = $c[M[k] "_ci95"] } } \
   END { for (k = 1; k <= nm; k++) { for (i = 1; i <= nv; i++) { line = V[i]; \
           for (j = 1; j <= ns; j++) { key = V[i] "|" st[j] "|" M[k]; hv = h[key]; if (hv == "nan" || hv == "") hv = 0; line = line " " (key in m ? m[key] : "NaN") " " hv } \
           print line } print ""; print "" } }' . "' " . q(file) . " > " . q(tmp))

cols = nm > 2 ? 2 : nm
rows = int((nm + cols - 1) / cols)
do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size 560 * cols, 330 * rows + 40 font ",9"
    } else {
        set terminal svg noenhanced size 560 * cols, 330 * rows + 40 font ",9"
    }
    set output dir . "/variants." . fmt
    set multiplot layout rows, cols title "Variants side by side: mean and 95% CI over replications"
    set style data histogram
    set style histogram errorbars gap 1 lw 1
    set style fill solid 0.8 border -1
    set boxwidth 0.9
    set grid ytics
    set yrange [0:*]
    set xtics rotate by -25 nomirror
    set key top right
    set offsets 0, 0, graph 0.18, 0
    do for [k = 1:nm] {
        set title word(metrics, k)
        plot for [j = 1:ns] tmp index (k - 1) using (column(2 * j)):(column(2 * j + 1)):xtic(1) title word(strats, j)
    }
    unset multiplot
    unset output
}
system("rm -f " . q(tmp))
