# goodput.gp - offered load and goodput over time, one panel per variant
# (or per strategy without variants), replication 0, the trigger shaded.
#
#   gnuplot -c plots/goodput.gp DATA
#
# Offered: logical requests started per second; goodput: logical requests
# that succeeded per second.  A system that recovers brings goodput back to
# the offered load after the trigger; a metastable one stays collapsed.
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/goodput.csv  per panel (variant / strategy at the first sweep
#                     point), a block "time_s,offered,goodput"
#   DATA/goodput.tsv  key<TAB>value: np, panel (one line per panel), bw,
#                     tmax, ymax, has_trigger, trigger_start, trigger_end
# Both are read as data only.  Writes DATA/goodput.png and .svg.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/goodput.gp DATA"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
file = data . "/goodput.csv"
info = data . "/goodput.tsv"

# The settings, as data: key<TAB>value lines.
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
np = 0; bw = 1; tmax = 0; ymax = 0; has_trigger = 0; ts = 0; te = 0
stats info using (k = strcol(1), \
    (k eq "np" ? np = int(column(2)) : 0), (k eq "bw" ? bw = column(2) : 0), \
    (k eq "tmax" ? tmax = column(2) : 0), (k eq "ymax" ? ymax = column(2) : 0), \
    (k eq "has_trigger" ? has_trigger = int(column(2)) : 0), \
    (k eq "trigger_start" ? ts = column(2) : 0), (k eq "trigger_end" ? te = column(2) : 0), 0) nooutput
if (np < 1) { print "goodput.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
array names[np]
i = 0
stats info using (strcol(1) eq "panel" && i < np ? (i = i + 1, names[i] = strcol(2)) : 0, 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size 1000, 170 * np + 90 font ",9"
    } else {
        set terminal svg noenhanced size 1000, 170 * np + 90 font ",9"
    }
    set output data . "/goodput." . fmt
    set multiplot layout np, 1 title sprintf("Offered load and goodput (logical requests per second, replication 0, %g s buckets)%s", bw, has_trigger ? "; trigger shaded" : "")
    set xrange [0:tmax + bw]
    set yrange [0:ymax / bw * 1.1]
    set grid ytics
    set lmargin 12
    set ylabel "requests/s"
    set key top right
    if (has_trigger) { set object 1 rect from ts, graph 0 to te, graph 1 fc rgb "#fde0dd" fs solid 1.0 noborder behind }
    do for [i = 1:np] {
        if (i == np) { set xlabel "time (s)"; set format x "%g" } else { unset xlabel; set format x "" }
        set title names[i]
        plot file index (i - 1) using "time_s":(column("offered") / bw) with steps lw 1 lc rgb "#999999" title "offered", \
             file index (i - 1) using "time_s":(column("goodput") / bw) with steps lw 1.5 lc rgb "#1a9850" title "goodput"
    }
    unset multiplot
    unset output
}
