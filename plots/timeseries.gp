# timeseries.gp - the load each strategy puts on the server over time: one
# panel per strategy, shared time and rate axes (replication 0).
#
#   gnuplot -c plots/timeseries.gp DATA
#
# Dark steps: attempts arriving at the server per second.  Light steps:
# attempts refused at connect (the server was down) per second, clipped at
# the top of the panel when they exceed the busiest arrival rate.
# Synchronised retries (exponential backoff without jitter) show as tall
# spikes; jittered strategies as a smooth, lower load.  A swept directory
# holds one run per sweep point; the figure shows the first, named in its
# title.
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/timeseries.csv  per strategy, a block "time_s,arrivals,refused"
#                        (replication 0, the first sweep point)
#   DATA/timeseries.tsv  key<TAB>value: ns, strategies, bucket, tmax, amax,
#                        fmax, label
# Both are read as data only.  Writes DATA/timeseries.png and .svg.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/timeseries.gp DATA"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
file = data . "/timeseries.csv"

# The settings, as data: key<TAB>value lines.
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
ns = 0; strategies = ""; bucket = 0; tmax = 0; amax = 0; fmax = 0; label = ""
stats data . "/timeseries.tsv" using (k = strcol(1), \
    (k eq "ns" ? ns = int(column(2)) : 0), (k eq "strategies" ? strategies = strcol(2) : 0), \
    (k eq "bucket" ? bucket = column(2) : 0), (k eq "tmax" ? tmax = column(2) : 0), \
    (k eq "amax" ? amax = column(2) : 0), (k eq "fmax" ? fmax = column(2) : 0), \
    (k eq "label" ? label = strcol(2) : 0), 0) nooutput
if (ns < 1) { print "timeseries.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

n = ns
if (bucket <= 0) { bucket = 1 }
# One empty bucket of margin after the last busy one.
tmax = tmax + 2 * bucket
# The rate axis is scaled to the arrivals (the load the server must carry);
# refusals above it are clipped at the top of the panel.
ymax = amax / bucket
if (ymax <= 0) { ymax = fmax / bucket }
if (ymax <= 0) { ymax = 1 }
where = label eq "" ? "" : label . ", "

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size 1000, 150 * n + 90 font ",9"
    } else {
        set terminal svg noenhanced size 1000, 150 * n + 90 font ",9"
    }
    set output data . "/timeseries." . fmt
    set multiplot layout n, 1 title sprintf("Load on the server, %sreplication 0 (%g s buckets)", where, bucket)
    set xrange [0:tmax]
    set yrange [0:ymax * 1.05]
    set grid ytics
    set lmargin 12
    set ylabel "attempts/s"
    set key top right
    do for [i = 1:n] {
        s = word(strategies, i)
        if (i == n) { set xlabel "time (s)"; set format x "%g" } else { unset xlabel; set format x "" }
        plot file index (i - 1) using "time_s":(column("refused") / bucket) with steps lw 1 lc rgb "#f4a582" \
                 title s . ": refused", \
             file index (i - 1) using "time_s":(column("arrivals") / bucket) with steps lw 1.5 lc rgb "#1f4e79" \
                 title s . ": arriving"
    }
    unset multiplot
    unset output
}
