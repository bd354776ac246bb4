# compare.gp - how much sooner (or later) each strategy finishes than the
# baseline strategy of the scenario ([run] baseline).
#
#   gnuplot -c plots/compare.gp DATA
#
# Writes DATA/compare.png and DATA/compare.svg: the paired change of
# completion_time_s (or of the metric herd plot --metric chose) against the
# baseline, in percent (negative: lower), mean and 95% CI over the
# replications, the value written on each bar; the baseline itself is left
# out.  Without sweeps, one bar per strategy; with sweeps, one line per
# strategy against the first swept key (or a map per strategy), drawn by
# sweep.gp (beside this script) exactly like its figures.
#
# DATA is a directory of figure data that herd plot prepares from a
# validated results directory (HERD_PLOT_DATA=DATA herd plot DIR keeps it):
#   DATA/style.tsv    key<TAB>value: style, term, fs, tfs, sfs, lw, blw
#   DATA/compare.csv  per strategy but the baseline, a block
#                     "pos,mean,ci95,label"
#   DATA/compare.tsv  key<TAB>value: format (bars; sweep for a swept run),
#                     ns, series (strategy, colour: one line each),
#                     baseline, reps, noci, lo, hi, title, subtitle,
#                     ylabel, W, H, rows, cols
# All are read as data only.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/compare.gp DATA"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
file = data . "/compare.csv"
info = data . "/compare.tsv"

# The settings, as data: key<TAB>value lines.
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
format = ""; ns = 0; baseline = ""; reps = ""; noci = 0; lo = 0; hi = 0; title = ""; subtitle = ""; ylabel = ""
W = 1600; H = 900
stats info using (k = strcol(1), \
    (k eq "format" ? format = strcol(2) : 0), (k eq "ns" ? ns = int(column(2)) : 0), \
    (k eq "baseline" ? baseline = strcol(2) : 0), (k eq "reps" ? reps = strcol(2) : 0), \
    (k eq "noci" ? noci = int(column(2)) : 0), (k eq "lo" ? lo = column(2) : 0), \
    (k eq "hi" ? hi = column(2) : 0), (k eq "title" ? title = strcol(2) : 0), \
    (k eq "subtitle" ? subtitle = strcol(2) : 0), (k eq "ylabel" ? ylabel = strcol(2) : 0), \
    (k eq "W" ? W = int(column(2)) : 0), (k eq "H" ? H = int(column(2)) : 0), 0) nooutput

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
array sname[ns]; array scol[ns]
i = 0
stats info using (strcol(1) eq "series" && i < ns ? (i = i + 1, sname[i] = strcol(2), scol[i] = strcol(3)) : 0, 0) nooutput
style = "talk"; term = "png"; fs = 16; tfs = 22; sfs = 16; lw = 3; blw = 1.5
stats data . "/style.tsv" using (k = strcol(1), \
    (k eq "style" ? style = strcol(2) : 0), (k eq "term" ? term = strcol(2) : 0), \
    (k eq "fs" ? fs = column(2) : 0), (k eq "tfs" ? tfs = column(2) : 0), (k eq "sfs" ? sfs = column(2) : 0), \
    (k eq "lw" ? lw = column(2) : 0), (k eq "blw" ? blw = column(2) : 0), 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"
dumb = term eq "dumb"
fN = sprintf(",%g", fs); fS = sprintf(",%g", sfs); fT = sprintf(",%g", tfs)
# Text sizes in canvas pixels (pngcairo: 4/3 pixel a point; a character
# at most about 0.62 em wide, a line 1.25 em high).
pxpt = 4.0 / 3
cwS = dumb ? 1 : 0.62 * sfs * pxpt
cwN = dumb ? 1 : 0.62 * fs * pxpt
lhS = dumb ? 1 : 1.25 * sfs * pxpt
lhT = dumb ? 1 : 1.25 * tfs * pxpt
# WRAP: the text src in lines of at most wc characters, broken after one
# of the characters of seps (or hard): wout, its lines wlines, the longest wlong.
WRAP = 'wout = ""; wlines = 1; wlong = 0; while (strlen(src) > wc) { cut = 0; do for [c = 1:wc] { if (strstrt(seps, src[c:c]) > 0) { cut = c } }; if (cut == 0) { cut = wc }; wlong = cut > wlong ? cut : wlong; wout = wout . src[1:cut] . "\n"; src = src[cut + 1:]; wlines = wlines + 1 }; wlong = strlen(src) > wlong ? strlen(src) : wlong; wout = wout . src'
# the subtitle across the canvas, wrapped at "; " (or spaces) when longer
wc = dumb ? 1000 : int(0.95 * W / cwS); src = subtitle; seps = ";"; eval WRAP
if (wlong > wc) { src = subtitle; seps = " "; eval WRAP }
subtitle = wout; snl = wlines
# the strategy names across when they fit their slot, else slanted by 30
# degrees (wrapped at '_' to 14 characters), with the room they take below
slot = 0.85 * W / ns
nlen = 0
do for [i = 1:ns] { nlen = strlen(sname[i]) > nlen ? strlen(sname[i]) : nlen }
array stxt[ns]
rot = !dumb && nlen * cwN > 0.92 * slot
nl = 1; ll = nlen
do for [i = 1:ns] { stxt[i] = sname[i] }
if (rot) {
    wc = 14; ll = 0
    do for [i = 1:ns] { src = sname[i]; seps = "_-. "; eval WRAP; stxt[i] = wout; ll = wlong > ll ? wlong : ll; nl = wlines > nl ? wlines : nl }
}
xt = dumb ? 1.0 : (rot ? ll * cwN * 0.5 + nl * lhS * 0.87 : nl * lhS) + 0.6 * lhS + 20

# y range: 0 and every bar with its CI, plus room for the value labels.
ylo = lo < 0 ? lo : 0; yhi = hi > 0 ? hi : 0
if (yhi <= ylo) { yhi = ylo + 1 }
pad = 0.12 * (yhi - ylo)
ylo = ylo < 0 ? ylo - pad : ylo; yhi = yhi > 0 ? yhi + pad : yhi
lpad = 0.04 * (yhi - ylo)

do for [fmt in (dumb ? "txt" : term eq "svg" ? "svg" : "png svg")] {
    if (fmt eq "png") { set terminal pngcairo noenhanced size W, H font fN }
    if (fmt eq "svg") { set terminal svg noenhanced size W, H font fN }
    if (fmt eq "txt") { set terminal dumb noenhanced size W, H }
    set output data . "/compare." . fmt
    set label 1 title at screen 0.5, screen 1 - (dumb ? 1.0 : 0.5 * lhT + 4) / H center font fT
    set label 2 subtitle at screen 0.5, screen 1 - (dumb ? 2.0 : lhT + 0.5 * snl * lhS + 6) / H center font fS
    set tmargin at screen 1 - (dumb ? 4.0 : lhT + snl * lhS + 0.5 * lhS + 20) / H
    set bmargin at screen (dumb ? 3.0 : xt) / H
    set ylabel ylabel
    set border lw blw
    set xrange [0.4:ns + 0.6]
    set yrange [ylo:yhi]
    if (rot) { set xtics border out nomirror rotate by 30 right ("" 1) } else { set xtics border out nomirror norotate ("" 1) }
    do for [i = 1:ns] { set xtics add (stxt[i] i) }
    set ytics nomirror
    set grid ytics lt 1 lw 1 lc rgb "#d8d8d8"
    if (dumb) { unset grid }
    set xzeroaxis lt -1 lw blw
    set boxwidth 0.6
    set style fill solid 0.85 border -1
    set bars small
    unset key
    plot for [i = 1:ns] file index (i - 1) using "pos":"mean":"ci95" with boxerrorbars lw blw lc rgb scol[i], \
         file using "pos":(column("mean") >= 0 ? column("mean") + column("ci95") + lpad \
                                              : column("mean") - column("ci95") - lpad):"label" \
         with labels font fN
    unset output
}
