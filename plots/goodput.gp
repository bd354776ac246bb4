# goodput.gp - offered load and goodput over time, one panel per variant
# and strategy (or per strategy without variants), outages and the trigger
# shaded.
#
#   gnuplot -c plots/goodput.gp DATA
#
# Offered: logical requests started per second; goodput: logical requests
# that succeeded per second.  A system that recovers brings goodput back to
# the offered load after the trigger; a metastable one stays collapsed.  A
# series that is zero throughout has no key entry.  One sweep point and
# replication (herd plot --point, --replication), every variant unless
# herd plot --variant chooses one.
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/style.tsv    key<TAB>value: style, term, fs, tfs, sfs, lw, blw
#   DATA/goodput.csv  per panel, a block "time_s,offered,goodput"
#   DATA/goodput.tsv  key<TAB>value: np, panel (name, has offered, has
#                     goodput: one line per panel), bw, tmax, ymax, title,
#                     subtitle, nwin, win (panel, start, end, label), W, H,
#                     rows, cols
# All are read as data only.  Writes DATA/goodput.png and .svg (or
# DATA/goodput.txt with term dumb).

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
np = 0; bw = 1; tmax = 0; ymax = 0; title = ""; subtitle = ""; nwin = 0
W = 1600; H = 900; rows = 1; cols = 1
stats info using (k = strcol(1), \
    (k eq "np" ? np = int(column(2)) : 0), (k eq "bw" ? bw = column(2) : 0), \
    (k eq "tmax" ? tmax = column(2) : 0), (k eq "ymax" ? ymax = column(2) : 0), \
    (k eq "title" ? title = strcol(2) : 0), (k eq "subtitle" ? subtitle = strcol(2) : 0), \
    (k eq "nwin" ? nwin = int(column(2)) : 0), \
    (k eq "W" ? W = int(column(2)) : 0), (k eq "H" ? H = int(column(2)) : 0), \
    (k eq "rows" ? rows = int(column(2)) : 0), (k eq "cols" ? cols = int(column(2)) : 0), 0) nooutput
if (np < 1) { print "goodput.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
array names[np]; array haso[np]; array hasg[np]
i = 0
stats info using (strcol(1) eq "panel" && i < np ? (i = i + 1, names[i] = strcol(2), haso[i] = int(column(3)), \
                  hasg[i] = int(column(4))) : 0, 0) nooutput
array wp[nwin + 1]; array ws[nwin + 1]; array we[nwin + 1]; array wl[nwin + 1]
i = 0
stats info using (strcol(1) eq "win" && i < nwin ? (i = i + 1, wp[i] = int(column(2)), ws[i] = column(3), \
                  we[i] = column(4), wl[i] = strcol(5)) : 0, 0) nooutput
style = "talk"; term = "png"; fs = 16; tfs = 22; sfs = 16; lw = 3; blw = 1.5
stats data . "/style.tsv" using (k = strcol(1), \
    (k eq "style" ? style = strcol(2) : 0), (k eq "term" ? term = strcol(2) : 0), \
    (k eq "fs" ? fs = column(2) : 0), (k eq "tfs" ? tfs = column(2) : 0), (k eq "sfs" ? sfs = column(2) : 0), \
    (k eq "lw" ? lw = column(2) : 0), (k eq "blw" ? blw = column(2) : 0), 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"
if (bw <= 0) { bw = 1 }
if (ymax <= 0) { ymax = 1 }

# Margins, in canvas units (pixels, or characters for text).
dumb = term eq "dumb"
ch = dumb ? 1 : 1.6 * fs
cw = dumb ? 1 : 0.62 * fs
top = 1 - (dumb ? 4.0 : 1.5 * tfs + 1.8 * sfs + 2.2 * fs + 22) / H
bot = (dumb ? 3.0 : 3.2 * ch) / H
# y tics: about four, at 1, 2 or 5 times a power of ten
nice(x) = x <= 0 ? 1 : (nm_ = 10 ** floor(log10(x)), nf_ = x / nm_, (nf_ < 1.5 ? 1 : nf_ < 3.5 ? 2 : nf_ < 7.5 ? 5 : 10) * nm_)
# Left of each panel its y label and the widest y tick label (pngcairo: a
# digit 0.64 em, 4/3 pixel a point); right of the last column half the
# widest time tick, which may stand at the axis' end; between rows the
# panel's title.
cwN = dumb ? 1 : 0.64 * fs * 4.0 / 3
tl = strlen(sprintf("%g", floor((ymax / bw * 1.25) / nice(ymax / bw * 1.25 / 4)) * nice(ymax / bw * 1.25 / 4)))
lft = (dumb ? 11.0 : 1.8 * ch + (tl + 2) * cwN) / W
rgt = 1 - (dumb ? 1.0 : (0.5 * strlen(sprintf("%.0f", tmax + bw)) + 0.5) * cwN) / W
spy = (dumb ? 2.0 : 2.4 * ch) / H
spx = (dumb ? 10.0 : 1.8 * ch + (tl + 2.5) * cwN) / W
fN = sprintf(",%g", fs); fS = sprintf(",%g", sfs); fT = sprintf(",%g", tfs)

do for [fmt in (dumb ? "txt" : term eq "svg" ? "svg" : "png svg")] {
    if (fmt eq "png") { set terminal pngcairo noenhanced size W, H font fN }
    if (fmt eq "svg") { set terminal svg noenhanced size W, H font fN }
    if (fmt eq "txt") { set terminal dumb noenhanced size W, H }
    set output data . "/goodput." . fmt
    set multiplot layout rows, cols title title font fT margins lft, rgt, bot, top spacing spx, spy
    set label 99 subtitle at screen 0.5, screen 1 - (dumb ? 2.0 : 1.5 * tfs + 0.9 * sfs + 4) / H center font fS
    set xrange [0:tmax + bw]
    set yrange [0:ymax / bw * 1.25]
    set grid ytics lt 1 lw 1 lc rgb "#d8d8d8"
    if (dumb) { unset grid }
    set border lw blw
    set ytics nomirror nice(ymax / bw * 1.25 / 4)
    set xtics nomirror
    set key top right horizontal font fS samplen 1.5 spacing 1.1 width 1
    do for [i = 1:np] {
        if (i > np - cols) { set xlabel "time (s)"; set format x "%g" } else { unset xlabel; set format x "" }
        if ((i - 1) % cols == 0) { set ylabel "requests/s" } else { unset ylabel }
        set title names[i] font fN
        unset object
        unset arrow
        do for [w = 1:nwin] {
            if (wp[w] == i) {
                set object w rect from ws[w], graph 0 to we[w], graph 1 fc rgb "#F7D9C4" fs solid 1.0 noborder behind
        if (dumb) { set arrow w from ws[w], graph 0.05 to ws[w], graph 0.9 nohead dt 2; set arrow 50 + w from we[w], graph 0.05 to we[w], graph 0.9 nohead dt 2 }
                if (i == 1) { set label 100 + w wl[w] at ws[w], graph 0.93 offset char 0.4, 0 left front font fS textcolor rgb "#A0461F" }
            }
        }
        plot file index (i - 1) using "time_s":(haso[i] ? column("offered") / bw : 1/0) with steps \
                 lw lw * 0.6 lc rgb "#6E6E6E" dt (8, 4) title (haso[i] ? "offered" : ""), \
             file index (i - 1) using "time_s":(hasg[i] ? column("goodput") / bw : 1/0) with steps \
                 lw lw lc rgb "#009E73" title (hasg[i] ? "goodput" : "")
        do for [w = 1:nwin] { unset label 100 + w }
        unset label 99
    }
    unset multiplot
    unset output
}
