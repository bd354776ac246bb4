# sweep.gp - how the results move along a sweep: one figure per metric.
#
#   gnuplot -c plots/sweep.gp DATA [SCALE]
#
# Figures sweep_M.png and sweep_M.svg for each metric M that herd plot
# prepared (DATA/sweep.tsv lists them: completion_time_s, calls,
# peak_arrivals_per_s, p99_latency_s and failures by default, or herd plot
# --metric).  Two forms, chosen by herd plot:
#
#   lines  x = the first swept key, one line per strategy (or per variant,
#          when the run compares variants of one strategy), points at the
#          mean with 95% CI bars (none with a single replication),
#          strategies nudged apart along x so that equal values stay
#          visible.  x on a log axis when that spreads the values better
#          (0.1, 0.2, 0.5, 1, 2, 5); values that are not numbers, such as
#          distributions, evenly in file order.  A second swept key with at
#          most 4 values gives one panel per value, all on the same axes.
#   heat   a second swept key with more values: one map per strategy, rows
#          the first key's values, columns the second's, the mean as
#          colour (log colours when every mean is positive and they span
#          two decades or more), written in the cells when they fit.
#
# Further swept keys are held at one point (herd plot --point), named under
# the title.  SCALE of the y axis of lines: auto (default: log when every
# mean is positive and they span two decades or more), log or linear.
#
#   gnuplot -c plots/sweep.gp DATA linear compare
#
# is how a swept compare.csv is drawn: the paired change against the
# baseline in percent, the baseline strategy left out, into DATA/compare.png
# and DATA/compare.svg (a map diverging around 0 in the heat form).
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/style.tsv  key<TAB>value: style, term, fs, tfs, sfs, lw, blw
#   DATA/sweep.tsv  key<TAB>value: metrics (the M of sweep_M)
#   DATA/NAME.csv   lines: per (panel, series), panels outermost, a block
#                   "x,mean,ci95" in x order (x: the value, or its position
#                   when the values are not numbers); heat: per series, a
#                   block "col,row,value,label,tc" (tc: the text colour)
#   DATA/NAME.tsv   key<TAB>value: format (sweep), mode (lines or heat), ns,
#                   series (name, colour, zero throughout: one line per
#                   series; no key entry for a zero one), ng, nx,
#                   xnum, noci, xkey, gkey, xlabel, glabel, ylabel, fixed,
#                   reps, baseline, title, subtitle, keys, lo, hi, ymin,
#                   ymax, allpos, minpos, xmin, xmax, gaplin, gaplog,
#                   diverging, logcb, cells, glab (one line per panel or
#                   column), xlab (one line per x value or row), W, H, rows,
#                   cols
# with NAME sweep_M, or compare.  All are read as data only.

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

set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
metrics = "completion_time_s"
if (!compare) {
    metrics = ""
    stats data . "/sweep.tsv" using (strcol(1) eq "metrics" ? metrics = strcol(2) : 0, 0) nooutput
    if (metrics eq "") { print "sweep.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
}
style = "talk"; term = "png"; fs = 16; tfs = 22; sfs = 16; lw = 3; blw = 1.5
stats data . "/style.tsv" using (k = strcol(1), \
    (k eq "style" ? style = strcol(2) : 0), (k eq "term" ? term = strcol(2) : 0), \
    (k eq "fs" ? fs = column(2) : 0), (k eq "tfs" ? tfs = column(2) : 0), (k eq "sfs" ? sfs = column(2) : 0), \
    (k eq "lw" ? lw = column(2) : 0), (k eq "blw" ? blw = column(2) : 0), 0) nooutput
dumb = term eq "dumb"
fN = sprintf(",%g", fs); fS = sprintf(",%g", sfs); fT = sprintf(",%g", tfs)
ch = dumb ? 1 : 1.6 * fs
cw = dumb ? 1 : 0.62 * fs
# One point type per series, the same in every figure.
spt(i) = i == 1 ? 7 : i == 2 ? 5 : i == 3 ? 9 : i == 4 ? 13 : i == 5 ? 11 : i == 6 ? 3 : 1

do for [metric in metrics] {
    name = compare ? "compare" : "sweep_" . metric
    file = data . "/" . name . ".csv"
    info = data . "/" . name . ".tsv"

    # The settings, as data: key<TAB>value lines.
    reset
    set datafile separator "\t"
    set datafile nocolumnheaders
    set datafile commentschars ""
    mode = "lines"; ns = 0; ng = 0; nx = 0; xnum = 1; noci = 0; xkey = ""; gkey = ""; xlabel = ""; glabel = ""
    ylabel = ""; fixed = ""; reps = ""; baseline = ""; title = ""; subtitle = ""; keys = ""
    lo = 0; hi = 0; ymin = 0; ymax = 0; allpos = 0; minpos = 0; xmin = 0; xmax = 0
    gaplin = 1; gaplog = 1; format = ""; diverging = 0; logcb = 0; cells = 0
    W = 1600; H = 900; rows = 1; cols = 1
    stats info using (k = strcol(1), \
        (k eq "format" ? format = strcol(2) : 0), (k eq "mode" ? mode = strcol(2) : 0), \
        (k eq "ns" ? ns = int(column(2)) : 0), \
        (k eq "ng" ? ng = int(column(2)) : 0), (k eq "nx" ? nx = int(column(2)) : 0), \
        (k eq "xnum" ? xnum = int(column(2)) : 0), (k eq "noci" ? noci = int(column(2)) : 0), \
        (k eq "xkey" ? xkey = strcol(2) : 0), (k eq "gkey" ? gkey = strcol(2) : 0), \
        (k eq "xlabel" ? xlabel = strcol(2) : 0), (k eq "glabel" ? glabel = strcol(2) : 0), \
        (k eq "ylabel" ? ylabel = strcol(2) : 0), \
        (k eq "fixed" ? fixed = strcol(2) : 0), (k eq "reps" ? reps = strcol(2) : 0), \
        (k eq "baseline" ? baseline = strcol(2) : 0), (k eq "title" ? title = strcol(2) : 0), \
        (k eq "subtitle" ? subtitle = strcol(2) : 0), (k eq "keys" ? keys = strcol(2) : 0), \
        (k eq "lo" ? lo = column(2) : 0), (k eq "hi" ? hi = column(2) : 0), \
        (k eq "ymin" ? ymin = column(2) : 0), (k eq "ymax" ? ymax = column(2) : 0), \
        (k eq "allpos" ? allpos = int(column(2)) : 0), (k eq "minpos" ? minpos = column(2) : 0), \
        (k eq "xmin" ? xmin = column(2) : 0), (k eq "xmax" ? xmax = column(2) : 0), \
        (k eq "gaplin" ? gaplin = column(2) : 0), (k eq "gaplog" ? gaplog = column(2) : 0), \
        (k eq "diverging" ? diverging = int(column(2)) : 0), (k eq "logcb" ? logcb = int(column(2)) : 0), \
        (k eq "cells" ? cells = int(column(2)) : 0), \
        (k eq "W" ? W = int(column(2)) : 0), (k eq "H" ? H = int(column(2)) : 0), \
        (k eq "rows" ? rows = int(column(2)) : 0), (k eq "cols" ? cols = int(column(2)) : 0), 0) nooutput
    if (format ne "sweep" || ns < 1 || ng < 1 || nx < 1) { print me . ": no data for " . name . " in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
    array sname[ns]; array scol[ns]; array szero[ns]
    array glab[ng]
    array xlab[nx]
    i = 0; j = 0; q = 0
    stats info using (strcol(1) eq "glab" && i < ng ? (i = i + 1, glab[i] = strcol(2)) : 0, \
                      strcol(1) eq "xlab" && j < nx ? (j = j + 1, xlab[j] = strcol(2)) : 0, \
                      strcol(1) eq "series" && q < ns ? (q = q + 1, sname[q] = strcol(2), scol[q] = strcol(3), szero[q] = int(column(4))) : 0, 0) nooutput
    heat = mode eq "heat"

    # Margins, in canvas units (pixels, or characters for text).
    top = 1 - (dumb ? 4.0 : 1.5 * tfs + 1.8 * sfs + (ng > 1 || heat ? 2.2 * fs : 0) + 22) / H
    bot = (dumb ? 4.0 : 3.4 * ch + 1.6 * sfs + (xnum || heat ? 0 : 2.5 * ch)) / H
    lft = (dumb ? 12.0 : 2.4 * ch + 8 * cw) / W
    slen = 0
    do for [i = 1:ns] { slen = strlen(sname[i]) > slen ? strlen(sname[i]) : slen }
    keyw = heat ? (dumb ? 12.0 : 10 * cw) : (dumb ? slen + 8.0 : (slen + 1) * sfs * 0.72 + 7 * cw)
    rgt = 1 - keyw / W
    spy = (dumb ? 3.0 : 2.2 * ch + (xnum ? 0 : 2 * ch) + (heat ? 2.0 * ch : 0)) / H
    spx = (dumb ? 12.0 : 2.4 * ch + 8 * cw + (heat ? 0 : 0)) / W

    if (!heat) {
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
        # Series are nudged apart along x (dodged) so equal values stay visible.
        dodge = ns > 1 ? (logx ? log(xhi / xlo) : xhi - xlo) * 0.006 : 0
        xd(x, s) = logx ? x * exp(dodge * (s - (ns + 1) / 2.0)) : x + dodge * (s - (ns + 1) / 2.0)
        if (logy && !allpos) { subtitle = subtitle . " (values <= 0 not shown)" }
    } else {
        # colours: shared by every map; diverging around 0 for a change
        vmax = abs(ymax) > abs(ymin) ? abs(ymax) : abs(ymin)
        if (vmax <= 0) { vmax = 1 }
    }
    pw = (rgt - lft - (cols - 1) * spx) * W / cols

    do for [fmt in (dumb ? "txt" : term eq "svg" ? "svg" : "png svg")] {
        if (fmt eq "png") { set terminal pngcairo noenhanced size W, H font fN }
        if (fmt eq "svg") { set terminal svg noenhanced size W, H font fN }
        if (fmt eq "txt") { set terminal dumb noenhanced size W, H }
        set output data . "/" . name . "." . fmt
        reset
        set datafile separator comma
        set datafile columnheaders
        set datafile commentschars "#"
        set border lw blw
        set multiplot layout rows, cols title title font fT margins lft, rgt, bot, top spacing spx, spy
        set label 98 subtitle at screen 0.5, screen 1 - (dumb ? 2.0 : 1.5 * tfs + 0.9 * sfs + 4) / H center font fS
        set label 99 keys at screen 1 - (dumb ? 1.0 : 0.6 * cw) / W, screen (dumb ? 0.5 : 0.8 * sfs) / H right font fS textcolor rgb "#606060"
        if (!heat) {
            set grid lt 1 lw 1 lc rgb "#d8d8d8"
            if (dumb) { unset grid }
            if (!logy && lo < 0) { set xzeroaxis lt -1 lw blw }
            set bars small
            if (logy) { set logscale y } else { unset logscale y }
            set format y "%g"
            if (logx) { set logscale x } else { unset logscale x }
            set xrange [xlo:xhi]
            set yrange [ylo:yhi]
            unset xtics
            set ytics nomirror
            if (xnum) {
                set xtics border out nomirror
                # A tic at every value, if their labels fit between them.
                xlen = 0
                do for [i = 1:nx] { xlen = strlen(xlab[i]) > xlen ? strlen(xlab[i]) : xlen }
                if (gap * pw >= (xlen + 1.5) * cw) {
                    set xtics (xlab[1] real(xlab[1]))
                    do for [i = 2:nx] { set xtics add (xlab[i] real(xlab[i])) }
                }
            } else {
                set xtics border out nomirror rotate by -20 (xlab[1] 1)
                do for [i = 2:nx] { set xtics add (xlab[i] i) }
            }
            do for [g = 1:ng] {
                if (ng > 1) { set title glabel . " = " . glab[g] font fN } else { unset title }
                if (g == 1) {
                    set key at screen rgt + (dumb ? 1.0 : 1.5 * cw) / W, top left top vertical Left reverse font fS samplen 2 spacing 1.2
                } else {
                    unset key
                }
                if ((g - 1) % cols == 0) { set ylabel ylabel } else { unset ylabel }
                if (g > ng - cols) { set xlabel xlabel } else { unset xlabel }
                plot for [s = 1:ns] file index ((g - 1) * ns + s - 1) using (xd(column("x"), s)):"mean":"ci95" with yerrorlines \
                     lw lw ps (dumb ? 1 : 1.4) pt spt(s) lc rgb scol[s] title (szero[s] ? "" : sname[s])
                unset label 98
                unset label 99
            }
        } else {
            set xrange [-0.5:ng - 0.5]
            set yrange [-0.5:nx - 0.5]
            unset key
            set tics out nomirror scale 0.5
            set ytics (xlab[1] 0)
            ystep = int((nx + 11) / 12)
            do for [i = 1 + ystep:nx:ystep] { set ytics add (xlab[i] i - 1) }
            # At most about (panel width / label width) column labels.
            glen = 0
            do for [i = 1:ng] { glen = strlen(glab[i]) > glen ? strlen(glab[i]) : glen }
            fit = int(pw / ((glen + 2) * cw))
            step = fit < 1 ? ng : int((ng + fit - 1) / fit)
            set xtics (glab[1] 0)
            do for [j = 1 + step:ng:step] { set xtics add (glab[j] j - 1) }
            if (diverging) {
                set cbrange [-vmax:vmax]
                set palette defined (-1 "#2166AC", -0.5 "#92C5DE", 0 "#F7F7F7", 0.5 "#FDB863", 1 "#B35806")
            } else {
                if (logcb) { set logscale cb; set cbrange [minpos:ymax] } else { set cbrange [ymin:(ymax > ymin ? ymax : ymin + 1)] }
                set palette defined (0 "#440154", 0.25 "#3B528B", 0.5 "#21918C", 0.75 "#5EC962", 1 "#FDE725")
            }
            set colorbox user origin screen rgt + (dumb ? 2.0 : 1.5 * cw) / W, screen bot size screen (dumb ? 2.0 : 1.3 * cw) / W, screen top - bot
            set format cb "%g"
            do for [s = 1:ns] {
                set title sname[s] font fN textcolor rgb scol[s]
                if ((s - 1) % cols == 0) { set ylabel xlabel } else { unset ylabel }
                if (s > ns - cols) { set xlabel glabel } else { unset xlabel }
                if (dumb) {
                    plot file index (s - 1) using "col":"row":"label" with labels notitle
                } else {
                    if (cells) {
                        plot file index (s - 1) using "col":"row":(0.5):(0.5):"value" with boxxy fs solid 1.0 noborder fc palette notitle, \
                             file index (s - 1) using "col":"row":"label":"tc" with labels font fS textcolor rgb variable notitle
                    } else {
                        plot file index (s - 1) using "col":"row":(0.5):(0.5):"value" with boxxy fs solid 1.0 noborder fc palette notitle
                    }
                }
                unset label 98
                unset label 99
            }
        }
        unset multiplot
        unset output
    }
}
