# sweep.gp - how each strategy's results move along a sweep: one figure per
# metric, x = the first swept key, one line per strategy, 95% CI error bars.
#
#   gnuplot -c plots/sweep.gp DATA [SCALE]
#
# Figures sweep_M.png and sweep_M.svg for M in completion_time_s, calls,
# peak_arrivals_per_s, p99_latency_s and failures (aggregate.csv of a swept
# run).  Points are M_mean, bars +/- M_ci95 (none with a single
# replication), strategies nudged apart along x so that equal values stay
# visible.  x: the first sweep column's values in numeric order, on a log
# axis when that spreads them better (0.1, 0.2, 0.5, 1, 2, 5); non-numeric
# values, such as distributions, evenly in file order.  A second sweep
# column gives one panel per value, all with the same axes; further sweep
# columns are held at the first row's values, named in the title.  SCALE of
# the y axis: auto (default: log when every mean is positive and they span
# two decades or more), log or linear.
#
#   gnuplot -c plots/sweep.gp DATA linear compare
#
# is how a swept compare.csv is drawn: completion_time_s_change_pct (the
# baseline strategy left out) into DATA/compare.png and DATA/compare.svg.
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/NAME.csv  per (panel, strategy), panels outermost, a block
#                  "x,mean,ci95" in x order (x: the value, or its position
#                  when the values are not numbers)
#   DATA/NAME.tsv  key<TAB>value: ns, strategies, ng, nx, xnum, noci, xkey,
#                  gkey, fixed, reps, baseline, lo, hi, ymin, ymax, allpos,
#                  minpos, xmin, xmax, gaplin, gaplog, then one glab line
#                  per panel and one xlab line per x value
# with NAME sweep_M, or compare.  Both are read as data only.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/sweep.gp DATA [auto|log|linear]"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
scale = ARGC >= 2 ? ARG2 : "auto"
compare = ARGC >= 3 && ARG3 eq "compare"
if (scale ne "auto" && scale ne "log" && scale ne "linear") {
    print "sweep.gp: SCALE is auto, log or linear, not '" . scale . "'"; exit status 2
}
me = compare ? "compare.gp" : "sweep.gp"
metrics = compare ? "completion_time_s" : "completion_time_s calls peak_arrivals_per_s p99_latency_s failures"

# One colour and point type per strategy, the same in every figure.
scolor(s) = s eq "immediate" ? "#7f7f7f" : s eq "constant" ? "#e69f00" : s eq "exponential" ? "#d55e00" : \
            s eq "full_jitter" ? "#0072b2" : s eq "equal_jitter" ? "#009e73" : \
            s eq "decorrelated_jitter" ? "#cc79a7" : "#56b4e9"
spt(s) = s eq "immediate" ? 1 : s eq "constant" ? 2 : s eq "exponential" ? 7 : s eq "full_jitter" ? 5 : \
         s eq "equal_jitter" ? 9 : s eq "decorrelated_jitter" ? 13 : 3
describe(m) = compare ? "change vs " . baseline . " (%)" : \
              m eq "completion_time_s" ? "completion_time_s (s)" : \
              m eq "calls" ? "calls (attempts at the server)" : \
              m eq "peak_arrivals_per_s" ? "peak_arrivals_per_s (attempts/s)" : \
              m eq "p99_latency_s" ? "p99_latency_s (s)" : \
              m eq "failures" ? "failures (requests)" : m

do for [metric in metrics] {
    name = compare ? "compare" : "sweep_" . metric
    file = data . "/" . name . ".csv"
    info = data . "/" . name . ".tsv"

    # The settings, as data: key<TAB>value lines.
    reset
    set datafile separator "\t"
    set datafile nocolumnheaders
    set datafile commentschars ""
    ns = 0; strategies = ""; ng = 0; nx = 0; xnum = 1; noci = 0; xkey = ""; gkey = ""; fixed = ""; reps = ""
    baseline = ""; lo = 0; hi = 0; ymin = 0; ymax = 0; allpos = 0; minpos = 0; xmin = 0; xmax = 0
    gaplin = 1; gaplog = 1; format = ""
    stats info using (k = strcol(1), \
        (k eq "format" ? format = strcol(2) : 0), \
        (k eq "ns" ? ns = int(column(2)) : 0), (k eq "strategies" ? strategies = strcol(2) : 0), \
        (k eq "ng" ? ng = int(column(2)) : 0), (k eq "nx" ? nx = int(column(2)) : 0), \
        (k eq "xnum" ? xnum = int(column(2)) : 0), (k eq "noci" ? noci = int(column(2)) : 0), \
        (k eq "xkey" ? xkey = strcol(2) : 0), (k eq "gkey" ? gkey = strcol(2) : 0), \
        (k eq "fixed" ? fixed = strcol(2) : 0), (k eq "reps" ? reps = strcol(2) : 0), \
        (k eq "baseline" ? baseline = strcol(2) : 0), \
        (k eq "lo" ? lo = column(2) : 0), (k eq "hi" ? hi = column(2) : 0), \
        (k eq "ymin" ? ymin = column(2) : 0), (k eq "ymax" ? ymax = column(2) : 0), \
        (k eq "allpos" ? allpos = int(column(2)) : 0), (k eq "minpos" ? minpos = column(2) : 0), \
        (k eq "xmin" ? xmin = column(2) : 0), (k eq "xmax" ? xmax = column(2) : 0), \
        (k eq "gaplin" ? gaplin = column(2) : 0), (k eq "gaplog" ? gaplog = column(2) : 0), 0) nooutput
    if (format ne "sweep" || ns < 1 || ng < 1 || nx < 1) { print me . ": no data for " . name . " in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
    array glab[ng]
    array xlab[nx]
    i = 0; j = 0
    stats info using (strcol(1) eq "glab" && i < ng ? (i = i + 1, glab[i] = strcol(2)) : 0, \
                      strcol(1) eq "xlab" && j < nx ? (j = j + 1, xlab[j] = strcol(2)) : 0, 0) nooutput

    # y axis: log for data spanning decades (auto), else linear from 0.
    # (SCALE log drops the values <= 0, as the title then says.)
    logy = !compare && minpos > 0 && (scale eq "log" || (scale eq "auto" && allpos && ymax >= 100 * ymin))
    if (logy) {
        ylo = minpos / 1.5; yhi = hi * 1.5
    } else {
        ylo = lo < 0 ? lo : 0; yhi = hi > 0 ? hi : 0
        if (yhi <= ylo) { yhi = ylo + 1 }
        pad = 0.06 * (yhi - ylo)
        # (a little room under 0, so lines at 0 are not hidden by the border)
        ylo = lo < 0 ? ylo - pad : ylo - pad / 3; yhi = yhi + pad
    }
    # x axis: log when it spreads the values better (0.1, 0.2, 0.5, 1, 2, 5
    # or 100, 1000, 10000; not 20, 40, ..., 100): its smallest gap between
    # neighbours, as a share of the axis, is the larger.
    logx = xnum && xmin > 0 && gaplog > gaplin
    gap = logx ? gaplog : gaplin
    if (logx) {
        xlo = xmin / 1.3; xhi = xmax * 1.3
    } else {
        xpad = xmax > xmin ? 0.04 * (xmax - xmin) : (xmin != 0 ? 0.1 * abs(xmin) : 1)
        if (!xnum) { xpad = 0.5 }
        xlo = xmin - xpad; xhi = xmax + xpad
    }

    # Strategies are nudged apart along x (dodged) so equal values stay visible.
    dodge = ns > 1 ? (logx ? log(xhi / xlo) : xhi - xlo) * 0.006 : 0
    xd(x, s) = logx ? x * exp(dodge * (s - (ns + 1) / 2.0)) : x + dodge * (s - (ns + 1) / 2.0)

    what = compare ? metric . " change vs " . baseline : metric
    how = compare ? " (paired per replication; below 0: done sooner)" : ""
    ci = noci ? "no CI (1 replication)" : "mean and 95% CI" . (reps ne "" ? " over " . reps . " replications" : "")
    ftitle = sprintf("%s by %s%s\n%s%s%s%s", what, xkey, how, ci, ng > 1 ? "; one panel per " . gkey : "", \
                     fixed ne "" ? "; " . fixed : "", logy && !allpos ? " (values <= 0 not shown)" : "")
    cols = ng <= 3 ? ng : (ng == 4 ? 2 : 3)
    rows = int((ng + cols - 1) / cols)
    width = ng == 1 ? 980 : 360 * cols + 230
    height = ng == 1 ? 560 : 290 * rows + (xnum ? 125 : 165)

    do for [fmt in "png svg"] {
        if (fmt eq "png") {
            set terminal pngcairo noenhanced size width, height font ",10"
        } else {
            set terminal svg noenhanced size width, height font ",10"
        }
        set output data . "/" . name . "." . fmt
        reset
        set datafile separator comma
        set datafile columnheaders
        set datafile commentschars "#"
        set grid
        if (!logy && lo < 0) { set xzeroaxis lt -1 lw 1 }
        set bars small
        if (logy) { set logscale y } else { unset logscale y }
        set format y "%g"
        if (logx) { set logscale x } else { unset logscale x }
        set xrange [xlo:xhi]
        set yrange [ylo:yhi]
        unset xtics
        if (xnum) {
            set xtics border out nomirror
            # A tic at every value, if their labels fit between them.
            xlen = 0
            do for [i = 1:nx] { xlen = strlen(xlab[i]) > xlen ? strlen(xlab[i]) : xlen }
            if (gap * (ng == 1 ? 640 : 270) >= 7 * xlen + 8) {
                set xtics (xlab[1] real(xlab[1]))
                do for [i = 2:nx] { set xtics add (xlab[i] real(xlab[i])) }
            }
        } else {
            set xtics border out nomirror rotate by -20 (xlab[1] 1)
            do for [i = 2:nx] { set xtics add (xlab[i] i) }
        }
        if (ng == 1) {
            set title ftitle
            set key outside right top vertical Left reverse
            set xlabel xkey
            set ylabel describe(metric)
            plot for [s = 1:ns] file index (s - 1) using (xd(column("x"), s)):"mean":"ci95" with yerrorlines \
                 lw 1.5 ps 1 pt spt(word(strategies, s)) lc rgb scolor(word(strategies, s)) title word(strategies, s)
        } else {
            right = 1 - 220.0 / width
            set multiplot layout rows, cols title ftitle \
                margins 0.09, right, (xnum ? 70.0 : 110.0) / height, 1 - 100.0 / height spacing 0.07, 0.14
            do for [g = 1:ng] {
                set title gkey . " = " . glab[g]
                if (g == 1) { set key at screen right + 0.015, 1 - 100.0 / height left top vertical Left reverse } \
                else { unset key }
                if ((g - 1) % cols == 0) { set ylabel describe(metric) } else { unset ylabel }
                if (g > ng - cols) { set xlabel xkey } else { unset xlabel }
                plot for [s = 1:ns] file index ((g - 1) * ns + s - 1) using (xd(column("x"), s)):"mean":"ci95" with yerrorlines \
                     lw 1.5 ps 1 pt spt(word(strategies, s)) lc rgb scolor(word(strategies, s)) title word(strategies, s)
            }
            unset multiplot
        }
        unset output
    }
}
