# replay.gp - a run laid over its input data (herd run on a scenario with
# an empirical service time or an arrival trace writes input.csv).
#
#   gnuplot -c plots/replay.gp DATA
#
# Left: the input service-time CDF (from the histogram or the samples of
# empirical(FILE)) as a line, log time axis, and each series' simulated
# latency quantiles (p50, p90, p99, p99.9, means over the replications) as
# points at their probability.  A healthy run sits just right of the line
# (latency = network + queueing + service); an incident pulls the upper
# quantiles away from it.  Right: the trace's arrival rate (requests/s)
# and the logical requests started per second in one replication.
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/style.tsv   key<TAB>value: style, term, fs, tfs, sfs, lw, blw
#   DATA/replay.csv  blocks "x,y": 0 the input CDF, 1 the input rate,
#                    2 the simulated starts per second, 3.. the quantiles
#                    of each series (latency, probability)
#   DATA/replay.tsv  key<TAB>value: hascdf, hasrate, hassim, haslat (a
#                    positive latency quantile to draw), bw, nq, q (name,
#                    colour: one line per series), title, subtitle, W, H
# All are read as data only.  Writes DATA/replay.png and .svg (or
# DATA/replay.txt with term dumb).

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/replay.gp DATA"; exit status 2 }
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
file = data . "/replay.csv"
info = data . "/replay.tsv"

set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
hascdf = 0; hasrate = 0; hassim = 0; haslat = 0; bw = 1; nq = 0; title = ""; subtitle = ""; W = 1600; H = 900
stats info using (k = strcol(1), \
    (k eq "hascdf" ? hascdf = int(column(2)) : 0), (k eq "hasrate" ? hasrate = int(column(2)) : 0), \
    (k eq "hassim" ? hassim = int(column(2)) : 0), (k eq "bw" ? bw = column(2) : 0), \
    (k eq "haslat" ? haslat = int(column(2)) : 0), \
    (k eq "nq" ? nq = int(column(2)) : 0), \
    (k eq "title" ? title = strcol(2) : 0), (k eq "subtitle" ? subtitle = strcol(2) : 0), \
    (k eq "W" ? W = int(column(2)) : 0), (k eq "H" ? H = int(column(2)) : 0), 0) nooutput
array qn[nq + 1]; array qc[nq + 1]
i = 0
stats info using (strcol(1) eq "q" && i < nq ? (i = i + 1, qn[i] = strcol(2), qc[i] = strcol(3)) : 0, 0) nooutput
style = "talk"; term = "png"; fs = 16; tfs = 22; sfs = 16; lw = 3; blw = 1.5
stats data . "/style.tsv" using (k = strcol(1), \
    (k eq "style" ? style = strcol(2) : 0), (k eq "term" ? term = strcol(2) : 0), \
    (k eq "fs" ? fs = column(2) : 0), (k eq "tfs" ? tfs = column(2) : 0), (k eq "sfs" ? sfs = column(2) : 0), \
    (k eq "lw" ? lw = column(2) : 0), (k eq "blw" ? blw = column(2) : 0), 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

dumb = term eq "dumb"
ch = dumb ? 1 : 1.6 * fs
cw = dumb ? 1 : 0.62 * fs
top = 1 - (dumb ? 4.0 : 1.5 * tfs + 1.8 * sfs + 2.2 * fs + 22) / H
bot = (dumb ? 3.0 : 3.2 * ch) / H
lft = (dumb ? 11.0 : 2.2 * ch + 7 * cw) / W
rgt = 1 - (dumb ? 2.0 : 4 * cw) / W
spx = (dumb ? 12.0 : 2.6 * ch + 8 * cw) / W
fN = sprintf(",%g", fs); fS = sprintf(",%g", sfs); fT = sprintf(",%g", tfs)

do for [fmt in (dumb ? "txt" : term eq "svg" ? "svg" : "png svg")] {
    if (fmt eq "png") { set terminal pngcairo noenhanced size W, H font fN }
    if (fmt eq "svg") { set terminal svg noenhanced size W, H font fN }
    if (fmt eq "txt") { set terminal dumb noenhanced size W, H }
    set output data . "/replay." . fmt
    set multiplot layout 1, 2 title title font fT margins lft, rgt, bot, top spacing spx, 0
    set label 99 subtitle at screen 0.5, screen 1 - (dumb ? 2.0 : 1.5 * tfs + 0.9 * sfs + 4) / H center font fS
    set border lw blw
    set grid lt 1 lw 1 lc rgb "#d8d8d8"
    if (dumb) { unset grid }

    # left: latency CDF
    set title "latency: input CDF and simulated quantiles" font fN
    set logscale x
    set xlabel "seconds (log scale)"
    set ylabel "P(latency <= x)"
    set yrange [0:1.02]
    set autoscale x
    # nothing to draw (no request finished, e.g. a trace that drew no
    # arrivals): an empty panel that says so, not an invalid range
    if (!hascdf && !haslat) { set xrange [0.001:1]; set label 98 "no latency to show: a replication where no request finished" at graph 0.5, graph 0.5 center font fS }
    set format x "%g"
    set key bottom right font fS samplen 1.5 spacing 1.1
    plot file index 0 using "x":(hascdf && column("x") > 0 ? column("y") : 1/0) with lines lw lw lc rgb "#6E6E6E" \
             title (hascdf ? "input (service time)" : ""), \
         for [q = 1:nq] file index (2 + q) using "x":"y" with linespoints lw lw * 0.5 pt (4 + 2 * ((q - 1) % 4)) \
             ps (dumb ? 1 : 1.6) lc rgb qc[q] title qn[q]
    unset logscale x
    unset label 99
    unset label 98
    set autoscale x

    # right: arrivals
    set title "arrivals: input trace and simulated" font fN
    set xlabel "time (s)"
    set ylabel "requests/s"
    set autoscale y
    set yrange [0:*]
    set key top left font fS
    plot file index 1 using "x":(hasrate ? column("y") : 1/0) with lines lw lw lc rgb "#6E6E6E" dt (8, 4) \
             title (hasrate ? "input (trace)" : ""), \
         file index 2 using "x":(hassim ? column("y") : 1/0) with steps lw lw * 0.6 lc rgb "#0072B2" \
             title (hassim ? sprintf("simulated (per %g s)", bw) : "")
    unset multiplot
    unset output
}
