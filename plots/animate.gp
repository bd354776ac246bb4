# animate.gp - the load each strategy puts on the server, as an animated
# GIF: the panels of timeseries.gp filling up over time, a cursor at the
# current time, outages and the trigger shaded.
#
#   gnuplot -c plots/animate.gp DATA
#
# (herd plot DIR --gif.)  40 frames over the run, then the last one held
# 8 times; one variant, sweep point and replication, as timeseries.gp.
# herd plot gives each panel at most 1000 steps (wider buckets when the
# run has more), so the work per frame is bounded.
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR --gif
# keeps it):
#   DATA/style.tsv  key<TAB>value: style, term, fs, tfs, sfs, lw, blw
#   DATA/load.csv   per strategy, a block "time_s,arrivals,refused"
#   DATA/load.tsv   key<TAB>value, as timeseries.tsv (timeseries.gp)
# All are read as data only.  Writes DATA/load.gif.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/animate.gp DATA"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
file = data . "/load.csv"
info = data . "/load.tsv"

# The settings, as data: key<TAB>value lines.
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
ns = 0; bucket = 0; tmax = 0; amax = 0; fmax = 0; title = ""; subtitle = ""; nwin = 0
W = 1600; H = 900; rows = 1; cols = 1
stats info using (k = strcol(1), \
    (k eq "ns" ? ns = int(column(2)) : 0), \
    (k eq "bucket" ? bucket = column(2) : 0), (k eq "tmax" ? tmax = column(2) : 0), \
    (k eq "amax" ? amax = column(2) : 0), (k eq "fmax" ? fmax = column(2) : 0), \
    (k eq "title" ? title = strcol(2) : 0), (k eq "subtitle" ? subtitle = strcol(2) : 0), \
    (k eq "nwin" ? nwin = int(column(2)) : 0), \
    (k eq "W" ? W = int(column(2)) : 0), (k eq "H" ? H = int(column(2)) : 0), \
    (k eq "rows" ? rows = int(column(2)) : 0), (k eq "cols" ? cols = int(column(2)) : 0), 0) nooutput
if (ns < 1) { print "animate.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS --gif"; exit status 1 }
array sname[ns]; array scol[ns]; array hasa[ns]; array hasr[ns]
i = 0
stats info using (strcol(1) eq "panel" && i < ns ? (i = i + 1, sname[i] = strcol(2), scol[i] = strcol(3), \
                  hasa[i] = int(column(4)), hasr[i] = int(column(5))) : 0, 0) nooutput
array ws[nwin + 1]; array we[nwin + 1]; array wl[nwin + 1]
i = 0
stats info using (strcol(1) eq "win" && i < nwin ? (i = i + 1, ws[i] = column(3), we[i] = column(4), wl[i] = strcol(5)) : 0, 0) nooutput
style = "talk"; term = "png"; fs = 16; tfs = 22; sfs = 16; lw = 3; blw = 1.5
stats data . "/style.tsv" using (k = strcol(1), \
    (k eq "style" ? style = strcol(2) : 0), (k eq "term" ? term = strcol(2) : 0), \
    (k eq "fs" ? fs = column(2) : 0), (k eq "tfs" ? tfs = column(2) : 0), (k eq "sfs" ? sfs = column(2) : 0), \
    (k eq "lw" ? lw = column(2) : 0), (k eq "blw" ? blw = column(2) : 0), 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

if (bucket <= 0) { bucket = 1 }
tmax = tmax + 2 * bucket
ymax = amax / bucket
if (ymax <= 0) { ymax = fmax / bucket }
if (ymax <= 0) { ymax = 1 }
nice(x) = x <= 0 ? 1 : (nm_ = 10 ** floor(log10(x)), nf_ = x / nm_, (nf_ < 1.5 ? 1 : nf_ < 3.5 ? 2 : nf_ < 7.5 ? 5 : 10) * nm_)
frames = 40

ch = 1.6 * fs
cw = 0.62 * fs
top = 1 - (1.5 * tfs + 1.8 * sfs + 2.2 * fs + 22) / H
bot = (3.2 * ch) / H
# as timeseries.gp: left of each panel its y label and the widest y tick
# label (a digit 0.64 em, 4/3 pixel a point); right of the last column half
# the widest time tick; between rows the panel's title
cwN = 0.64 * fs * 4.0 / 3
tl = strlen(sprintf("%g", floor((ymax * 1.25) / nice(ymax * 1.25 / 4)) * nice(ymax * 1.25 / 4)))
lft = (1.8 * ch + (tl + 2) * cwN) / W
rgt = 1 - ((0.5 * strlen(sprintf("%.0f", tmax)) + 0.5) * cwN) / W
spy = (2.4 * ch) / H
spx = (1.8 * ch + (tl + 2.5) * cwN) / W
fN = sprintf(",%g", fs); fS = sprintf(",%g", sfs); fT = sprintf(",%g", tfs)

set terminal gif animate delay 20 loop 0 optimize noenhanced size W, H font fN
set output data . "/load.gif"
set xrange [0:tmax]
set yrange [0:ymax * 1.25]
set grid ytics lt 1 lw 1 lc rgb "#d8d8d8"
set border lw blw
set ytics nomirror nice(ymax * 1.25 / 4)
set xtics nomirror
set key top right horizontal font fS samplen 1.5 spacing 1.1 width 1
do for [w = 1:nwin] {
    set object w rect from ws[w], graph 0 to we[w], graph 1 fc rgb "#F7D9C4" fs solid 1.0 noborder behind
}
do for [f = 1:frames + 8] {
    now = tmax * (f < frames ? f : frames) / frames
    set multiplot layout rows, cols title title font fT margins lft, rgt, bot, top spacing spx, spy
    set label 99 sprintf("t = %.1f s;  %s", now, subtitle) at screen 0.5, screen 1 - (1.5 * tfs + 0.9 * sfs + 4) / H center font fS
    set arrow 1 from now, graph 0 to now, graph 1 nohead lw blw lc rgb "#505050" front
    do for [i = 1:ns] {
        if (i > ns - cols) { set xlabel "time (s)"; set format x "%g" } else { unset xlabel; set format x "" }
        if ((i - 1) % cols == 0) { set ylabel "attempts/s" } else { unset ylabel }
        set title sname[i] font fN textcolor rgb scol[i]
        plot file index (i - 1) using "time_s":(hasr[i] && column("time_s") <= now ? column("refused") / bucket : 1/0) with steps \
                 lw lw * 0.6 lc rgb "#9A9A9A" title (hasr[i] ? "refused (server down)" : ""), \
             file index (i - 1) using "time_s":(hasa[i] && column("time_s") <= now ? column("arrivals") / bucket : 1/0) with steps \
                 lw lw lc rgb scol[i] title (hasa[i] ? "arriving" : "")
        unset label 99
    }
    unset multiplot
}
unset output
