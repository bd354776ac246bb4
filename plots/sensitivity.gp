# sensitivity.gp - how fragile a headline reduction is: heatmaps of each
# strategy's completion-time reduction against the baseline over a 2-D
# sweep, with the points where the 62/65 claim holds marked.
#
#   gnuplot -c plots/sensitivity.gp DATA [STRATEGY ...]
#
# For a run with two sweeps (rows of the map: the first swept key; columns:
# the second) and [run] baseline; one panel per strategy (default:
# full_jitter and decorrelated_jitter).  A dot marks a point where full
# jitter is within 62 +/- 3 %, decorrelated jitter within 65 +/- 3 % and
# decorrelated ahead (the 62/65 claim, see scenarios/NOTES-62-65.md).
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/sensitivity.csv  per point "col,row,ok" (the grid indices, the
#                         claim holds), then a column per strategy: its
#                         reduction in percent
#   DATA/sensitivity.tsv  key<TAB>value: k1, k2 (the keys), l1, l2 (in
#                         words), na, nb, title, subtitle, keys, then one
#                         alab line per row and one blab line per column
#   DATA/style.tsv        key<TAB>value: style, term (png, svg or dumb), fs, tfs, sfs, lw, blw, dw, dh (text size)
# All are read as data only.  Writes DATA/sensitivity.png and .svg (or
# DATA/sensitivity.txt with term dumb: the reductions as numbers).

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/sensitivity.gp DATA [STRATEGY ...]"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
file = data . "/sensitivity.csv"
info = data . "/sensitivity.tsv"
strategies = "full_jitter decorrelated_jitter"
if (ARGC >= 2) { strategies = ARG2; if (ARGC >= 3) { strategies = strategies . " " . ARG3 } }
known = " immediate constant exponential full_jitter equal_jitter decorrelated_jitter "
n = words(strategies)
do for [i = 1:n] {
    if (strstrt(known, " " . word(strategies, i) . " ") == 0) {
        print "sensitivity.gp: unknown strategy '" . word(strategies, i) . "'; expected one of" . known
        exit status 2
    }
}

# The settings, as data: key<TAB>value lines.
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
k1 = ""; k2 = ""; l1 = ""; l2 = ""; na = 0; nb = 0; title = ""; subtitle = ""; keys = ""
stats info using (k = strcol(1), \
    (k eq "k1" ? k1 = strcol(2) : 0), (k eq "k2" ? k2 = strcol(2) : 0), \
    (k eq "l1" ? l1 = strcol(2) : 0), (k eq "l2" ? l2 = strcol(2) : 0), \
    (k eq "title" ? title = strcol(2) : 0), (k eq "subtitle" ? subtitle = strcol(2) : 0), \
    (k eq "keys" ? keys = strcol(2) : 0), \
    (k eq "na" ? na = int(column(2)) : 0), (k eq "nb" ? nb = int(column(2)) : 0), 0) nooutput
if (na < 1 || nb < 1) { print "sensitivity.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
array alab[na]
array blab[nb]
i = 0; j = 0
stats info using (strcol(1) eq "alab" && i < na ? (i = i + 1, alab[i] = strcol(2)) : 0, \
                  strcol(1) eq "blab" && j < nb ? (j = j + 1, blab[j] = strcol(2)) : 0, 0) nooutput
style = "talk"; term = "png"; fs = 16; tfs = 22; sfs = 16; lw = 3; blw = 1.5; dw = 110; dh = 0
stats data . "/style.tsv" using (k = strcol(1), \
    (k eq "style" ? style = strcol(2) : 0), (k eq "term" ? term = strcol(2) : 0), \
    (k eq "dw" ? dw = int(column(2)) : 0), (k eq "dh" ? dh = int(column(2)) : 0), \
    (k eq "fs" ? fs = column(2) : 0), (k eq "tfs" ? tfs = column(2) : 0), (k eq "sfs" ? sfs = column(2) : 0), \
    (k eq "lw" ? lw = column(2) : 0), (k eq "blw" ? blw = column(2) : 0), 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"
dumb = term eq "dumb"
fN = sprintf(",%g", fs); fS = sprintf(",%g", sfs); fT = sprintf(",%g", tfs)
ch = dumb ? 1 : 1.6 * fs
cw = dumb ? 1 : 0.62 * fs
W = dumb ? dw : (style eq "talk" ? 1600 : 560 * n)
H = dumb ? (dh > 12 * n + 4 ? dh : 12 * n + 4) : (style eq "talk" ? 900 : 520)
rows = dumb ? n : 1
cols = dumb ? 1 : n
top = 1 - (dumb ? 4.0 : 1.5 * tfs + 1.8 * sfs + 2.2 * fs + 22) / H
bot = (dumb ? 4.0 : 3.4 * ch + 1.4 * sfs) / H
lft = (dumb ? 10.0 : 2.4 * ch + 6 * cw) / W
rgt = 1 - (dumb ? 1.0 : 10 * cw) / W
spx = (dumb ? 1.0 : 2.4 * ch + 6 * cw) / W
spy = (dumb ? 3.0 : 2 * ch) / H
pw = (rgt - lft - (cols - 1) * spx) * W / cols

# Every row label (at most about 16); column labels as many as fit.
set ytics (alab[1] 0)
ystep = int((na + 15) / 16)
do for [i = 1 + ystep:na:ystep] { set ytics add (alab[i] i - 1) }
blen = 0
do for [j = 1:nb] { blen = strlen(blab[j]) > blen ? strlen(blab[j]) : blen }
fit = int(pw / ((blen + 2) * cw))
step = fit < 1 ? nb : int((nb + fit - 1) / fit)
set xtics (blab[1] 0)
do for [j = 1 + step:nb:step] { set xtics add (blab[j] j - 1) }

do for [fmt in (dumb ? "txt" : term eq "svg" ? "svg" : "png svg")] {
    if (fmt eq "png") { set terminal pngcairo noenhanced size W, H font fN }
    if (fmt eq "svg") { set terminal svg noenhanced size W, H font fN }
    if (fmt eq "txt") { set terminal dumb noenhanced size W, H }
    set output data . "/sensitivity." . fmt
    set multiplot layout rows, cols title title font fT margins lft, rgt, bot, top spacing spx, spy
    set label 98 subtitle at screen 0.5, screen 1 - (dumb ? 2.0 : 1.5 * tfs + 0.9 * sfs + 4) / H center font fS
    set label 99 keys at screen 1 - (dumb ? 1.0 : 0.6 * cw) / W, screen (dumb ? 0.5 : 0.8 * sfs) / H right font fS textcolor rgb "#606060"
    set border lw blw
    set tics out nomirror scale 0.5
    set xrange [-0.5:nb - 0.5]
    set yrange [-0.5:na - 0.5]
    set xlabel l2
    set ylabel l1
    set cbrange [0:80]
    set palette defined (0 "#F7FBFF", 40 "#6BAED6", 62 "#FDAE61", 65 "#D7191C", 80 "#67000D")
    set colorbox user origin screen rgt + (dumb ? 2.0 : 1.5 * cw) / W, screen bot size screen (dumb ? 2.0 : 1.3 * cw) / W, screen top - bot
    do for [i = 1:n] {
        s = word(strategies, i)
        set title s font fN
        if (i > 1) { unset ylabel }
        if (dumb) {
            plot file using "col":"row":(sprintf("%.0f", column(s))) with labels notitle
        } else {
            plot file using "col":"row":(0.5):(0.5):(column(s)) with boxxy fs solid 1.0 noborder fc palette notitle, \
                 file using "col":(column("ok") > 0 ? column("row") : 1/0) with points pt 7 ps (fs / 16.0) lc rgb "black" notitle
        }
        unset label 98
        unset label 99
    }
    unset multiplot
    unset output
}
