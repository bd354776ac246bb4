# variants.gp - side-by-side variants: one panel per metric of the
# scenario's [run] columns (the table herd run prints; herd plot --metric
# chooses others), one group of bars per variant, one bar per strategy,
# 95% CI bars, the mean written above each bar.
#
#   gnuplot -c plots/variants.gp DATA
#
# For a run with [variant NAME] sections (aggregate.csv's first column is
# variant), at one sweep point (herd plot --point; the first by default).
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/style.tsv       key<TAB>value: style, term, fs, tfs, sfs, lw, blw
#   DATA/variants-M.csv  for each metric M drawn, per strategy a block
#                        "x,mean,ci95,ytext,label" (a row per variant: the
#                        bar's centre, its mean and CI, where its value is
#                        written and the value as text)
#   DATA/variants.tsv    key<TAB>value: nm, metric (name, words, top of the
#                        axis: one line per panel), ns, series (strategy,
#                        colour), nv, vlab (one line per variant), boxw,
#                        title, subtitle, rot, W, H, rows, cols
# All are read as data only.  Writes DATA/variants.png and .svg (or
# DATA/variants.txt with term dumb).

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/variants.gp DATA"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
info = data . "/variants.tsv"

# The settings, as data: key<TAB>value lines.
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
nm = 0; ns = 0; nv = 0; boxw = 0.4; title = ""; subtitle = ""; rot = 0
W = 1600; H = 900; rows = 1; cols = 1
stats info using (k = strcol(1), \
    (k eq "nm" ? nm = int(column(2)) : 0), (k eq "ns" ? ns = int(column(2)) : 0), \
    (k eq "nv" ? nv = int(column(2)) : 0), (k eq "boxw" ? boxw = column(2) : 0), \
    (k eq "title" ? title = strcol(2) : 0), (k eq "subtitle" ? subtitle = strcol(2) : 0), \
    (k eq "rot" ? rot = int(column(2)) : 0), \
    (k eq "W" ? W = int(column(2)) : 0), (k eq "H" ? H = int(column(2)) : 0), \
    (k eq "rows" ? rows = int(column(2)) : 0), (k eq "cols" ? cols = int(column(2)) : 0), 0) nooutput
if (ns < 1 || nv < 1 || nm < 1) { print "variants.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
array mname[nm]; array mwords[nm]; array mtop[nm]; array sname[ns]; array scol[ns]; array vlab[nv]
i = 0; j = 0; q = 0
stats info using (strcol(1) eq "metric" && i < nm ? (i = i + 1, mname[i] = strcol(2), mwords[i] = strcol(3), mtop[i] = column(4)) : 0, \
                  strcol(1) eq "series" && j < ns ? (j = j + 1, sname[j] = strcol(2), scol[j] = strcol(3)) : 0, \
                  strcol(1) eq "vlab" && q < nv ? (q = q + 1, vlab[q] = strcol(2)) : 0, 0) nooutput
style = "talk"; term = "png"; fs = 16; tfs = 22; sfs = 13; lw = 3; blw = 1.5
stats data . "/style.tsv" using (k = strcol(1), \
    (k eq "style" ? style = strcol(2) : 0), (k eq "term" ? term = strcol(2) : 0), \
    (k eq "fs" ? fs = column(2) : 0), (k eq "tfs" ? tfs = column(2) : 0), (k eq "sfs" ? sfs = column(2) : 0), \
    (k eq "lw" ? lw = column(2) : 0), (k eq "blw" ? blw = column(2) : 0), 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

# Margins, in canvas units (pixels, or characters for text).
dumb = term eq "dumb"
ch = dumb ? 1 : 1.6 * fs
cw = dumb ? 1 : 0.62 * fs
vlen = 0
do for [i = 1:nv] { vlen = strlen(vlab[i]) > vlen ? strlen(vlab[i]) : vlen }
xt = rot ? 0.5 * vlen * 0.72 * sfs + 1.6 * ch : ch    # room for the variant names
slen = 0
do for [i = 1:ns] { slen = strlen(sname[i]) > slen ? strlen(sname[i]) : slen }
keyh = ns > 1 ? (dumb ? 2.0 : 1.6 * sfs + 6) : 0
top = 1 - (dumb ? 4.0 : 1.5 * tfs + 1.8 * sfs + 2.2 * fs + 22 + keyh) / H
bot = (dumb ? 3.0 : xt + 0.6 * ch) / H
lft = (dumb ? 9.0 : 7.5 * cw) / W
rgt = 1 - (dumb ? 1.0 : 1.5 * cw) / W
spy = (dumb ? 3.0 : xt + 1.9 * ch) / H
spx = (dumb ? 9.0 : 8 * cw) / W
fN = sprintf(",%g", fs); fS = sprintf(",%g", sfs); fT = sprintf(",%g", tfs)

do for [fmt in (dumb ? "txt" : term eq "svg" ? "svg" : "png svg")] {
    if (fmt eq "png") { set terminal pngcairo noenhanced size W, H font fN }
    if (fmt eq "svg") { set terminal svg noenhanced size W, H font fN }
    if (fmt eq "txt") { set terminal dumb noenhanced size W, H }
    set output data . "/variants." . fmt
    set multiplot layout rows, cols title title font fT margins lft, rgt, bot, top spacing spx, spy
    set label 98 subtitle at screen 0.5, screen 1 - (dumb ? 2.0 : 1.5 * tfs + 0.9 * sfs + 4) / H center font fS
    set border lw blw
    set style fill solid 0.85 border -1
    set boxwidth boxw
    set bars small
    set grid ytics lt 1 lw 1 lc rgb "#d8d8d8"
    if (dumb) { unset grid }
    set xrange [0.5:nv + 0.5]
    set ytics nomirror
    set format y "%g"
    if (rot) {
        set xtics border out nomirror rotate by 30 right ("" 1) font fS
    } else {
        set xtics border out nomirror ("" 1) font fS
    }
    do for [v = 1:nv] { set xtics add (vlab[v] v) }
    if (ns > 1) {
        set key at screen 0.5, screen 1 - (dumb ? 3.0 : 1.5 * tfs + 1.8 * sfs + 10) / H center top horizontal font fS samplen 1.5
    }
    do for [k = 1:nm] {
        if (k > 1 || ns == 1) { unset key }
        set title mwords[k] font fN
        set yrange [0:mtop[k]]
        f = data . "/variants-" . mname[k] . ".csv"
        plot for [s = 1:ns] f index (s - 1) using "x":"mean":"ci95" with boxerrorbars lw blw lc rgb scol[s] title sname[s], \
             for [s = 1:ns] f index (s - 1) using "x":"ytext":"label" with labels center offset 0, 0.45 font fS notitle
        unset label 98
    }
    unset multiplot
    unset output
}
