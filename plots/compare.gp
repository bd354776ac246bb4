# compare.gp - how much sooner (or later) each strategy finishes than the
# baseline strategy of the scenario ([run] baseline).
#
#   gnuplot -c plots/compare.gp DATA
#
# Writes DATA/compare.png and DATA/compare.svg: the paired change of
# completion_time_s against the baseline, in percent (negative: finishes
# sooner), mean and 95% CI over the replications; the baseline itself is
# left out.  Without sweeps, one bar per strategy; with sweeps, one line per
# strategy against the first swept key, drawn by sweep.gp (beside this
# script) exactly like its figures.
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/compare.csv  per strategy but the baseline, a block "pos,mean,ci95"
#   DATA/compare.tsv  key<TAB>value: format (bars; sweep for a swept run),
#                     ns, strategies, baseline, reps, noci, lo, hi
# Both are read as data only.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/compare.gp DATA"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
file = data . "/compare.csv"
metric = "completion_time_s"

# The settings, as data: key<TAB>value lines.
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
format = ""; ns = 0; strategies = ""; baseline = ""; reps = ""; noci = 0; lo = 0; hi = 0
stats data . "/compare.tsv" using (k = strcol(1), \
    (k eq "format" ? format = strcol(2) : 0), \
    (k eq "ns" ? ns = int(column(2)) : 0), (k eq "strategies" ? strategies = strcol(2) : 0), \
    (k eq "baseline" ? baseline = strcol(2) : 0), (k eq "reps" ? reps = strcol(2) : 0), \
    (k eq "noci" ? noci = int(column(2)) : 0), (k eq "lo" ? lo = column(2) : 0), \
    (k eq "hi" ? hi = column(2) : 0), 0) nooutput

if (format eq "sweep") {
    # Swept: sweep.gp draws the lines.  Its path, from this script's (ARG0),
    # likewise never starts with '<' or '|'.
    here = "."
    do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/" && here eq ".") { here = ARG0[1:i - 1] } }
    if (here[1:1] ne "/") { here = "./" . here }
    call here . "/sweep.gp" data "linear" "compare"
    exit
}
if (format ne "bars" || ns < 1) { print "compare.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

# One colour per strategy, the same as in sweep.gp.
scolor(s) = s eq "immediate" ? "#7f7f7f" : s eq "constant" ? "#e69f00" : s eq "exponential" ? "#d55e00" : \
            s eq "full_jitter" ? "#0072b2" : s eq "equal_jitter" ? "#009e73" : \
            s eq "decorrelated_jitter" ? "#cc79a7" : "#56b4e9"

# y range: 0 and every bar with its CI, plus room for the value labels.
ylo = lo < 0 ? lo : 0; yhi = hi > 0 ? hi : 0
if (yhi <= ylo) { yhi = ylo + 1 }
pad = 0.12 * (yhi - ylo)
ylo = ylo < 0 ? ylo - pad : ylo; yhi = yhi > 0 ? yhi + pad : yhi
lpad = 0.04 * (yhi - ylo)
ci = noci ? "no CI (1 replication)" : "mean and 95% CI" . (reps ne "" ? " over " . reps . " replications" : "")
width = 160 + 120 * (ns > 6 ? ns : 6)

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size width, 520 font ",10"
    } else {
        set terminal svg noenhanced size width, 520 font ",10"
    }
    set output data . "/compare." . fmt
    set title sprintf("%s change vs %s, paired per replication\n%s (below 0: lower than %s)", \
                      metric, baseline, ci, baseline)
    set ylabel "change in " . metric . " vs " . baseline . " (%)"
    set xrange [0.4:ns + 0.6]
    set yrange [ylo:yhi]
    set xtics border out nomirror ("" 1)
    do for [i = 1:ns] { set xtics add (word(strategies, i) i) }
    set grid ytics
    set xzeroaxis lt -1 lw 1
    set boxwidth 0.6
    set style fill solid 0.75 border -1
    set bars small
    unset key
    plot for [i = 1:ns] file index (i - 1) using "pos":"mean":"ci95" with boxerrorbars lc rgb scolor(word(strategies, i)), \
         file using "pos":(column("mean") >= 0 ? column("mean") + column("ci95") + lpad \
                                              : column("mean") - column("ci95") - lpad):(sprintf("%+.1f%%", column("mean"))) \
         with labels
    unset output
}
