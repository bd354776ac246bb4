# variants.gp - side-by-side variants: for each failure metric that is not
# zero everywhere, one panel of bars (one group per variant, one bar per
# strategy) with 95% CI error bars.
#
#   gnuplot -c plots/variants.gp DATA [METRIC ...]
#
# For a run with [variant NAME] sections (aggregate.csv's first column is
# variant; with sweeps, the first sweep point).  Without METRICs it draws
# those of duplicate_effects, lost_operations, unknown_outcomes, status_429,
# gave_up_budget, gave_up_attempts, non_retryable_failures, failures,
# max_latency_s and wasted_work_s that are not all zero; METRICs (up to
# three) pick among these.
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/variants-M.csv  for each metric M above, a row per variant: its
#                        name, then S_mean,S_ci95 per strategy S
#   DATA/variants.tsv    key<TAB>value: ns, strategies, metrics (those not
#                        all zero), nv, label (the sweep point, if any)
# Both are read as data only.  Writes DATA/variants.png and .svg.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/variants.gp DATA [METRIC ...]"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
cands = " duplicate_effects lost_operations unknown_outcomes status_429 gave_up_budget gave_up_attempts non_retryable_failures failures max_latency_s wasted_work_s "

# The settings, as data: key<TAB>value lines.
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
ns = 0; strats = ""; metrics = ""; nv = 0; label = ""
stats data . "/variants.tsv" using (k = strcol(1), \
    (k eq "ns" ? ns = int(column(2)) : 0), (k eq "strategies" ? strats = strcol(2) : 0), \
    (k eq "metrics" ? metrics = strcol(2) : 0), (k eq "nv" ? nv = int(column(2)) : 0), \
    (k eq "label" ? label = strcol(2) : 0), 0) nooutput
if (ARGC >= 2) { metrics = ARG2; if (ARGC >= 3) { metrics = metrics . " " . ARG3 }; if (ARGC >= 4) { metrics = metrics . " " . ARG4 } }
nm = words(metrics)
do for [k = 1:nm] {
    if (strstrt(cands, " " . word(metrics, k) . " ") == 0) {
        print "variants.gp: no data for metric '" . word(metrics, k) . "'; expected one of" . cands
        exit status 2
    }
}
if (ns < 1 || nv < 1) { print "variants.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
if (nm == 0) { print "variants.gp: nothing to draw (every metric is zero)"; exit status 0 }
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

cols = nm > 2 ? 2 : nm
rows = int((nm + cols - 1) / cols)
do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size 560 * cols, 330 * rows + 40 font ",9"
    } else {
        set terminal svg noenhanced size 560 * cols, 330 * rows + 40 font ",9"
    }
    set output data . "/variants." . fmt
    set multiplot layout rows, cols title "Variants side by side: mean and 95% CI over replications" . \
        (label eq "" ? "" : " (" . label . ")")
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
        plot for [j = 1:ns] data . "/variants-" . word(metrics, k) . ".csv" \
             using (column(2 * j)):(column(2 * j + 1)):xtic(1) title word(strats, j)
    }
    unset multiplot
    unset output
}
