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
#                        title, subtitle, W, H, rows, cols
# All are read as data only.  Writes DATA/variants.png and .svg (or
# DATA/variants.txt with term dumb).
#
# The layout follows the lengths of the texts, so that none overlaps,
# none is clipped and none leaves the canvas (tests/figure-layout.sh
# checks it for 2 to 8 variants with long names): the margins hold the
# widest y tick label and the variant names; the names go across, or
# wrapped and slanted, or numbered and named under the subtitle; the
# values on the bars go across, upright, or (bars too narrow for a line)
# not at all; the y ticks stand two lines apart; the key sits under the
# subtitle in as many rows as it needs; long titles wrap.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/variants.gp DATA"; exit status 2 }
# A path, never a command: "./" in front unless absolute, so that a name
# starting with '<' or '|' is not read as a pipe.
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
info = data . "/variants.tsv"

# The settings, as data: key<TAB>value lines.
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
nm = 0; ns = 0; nv = 0; boxw = 0.4; title = ""; subtitle = ""
W = 1600; H = 900; rows = 1; cols = 1
stats info using (k = strcol(1), \
    (k eq "nm" ? nm = int(column(2)) : 0), (k eq "ns" ? ns = int(column(2)) : 0), \
    (k eq "nv" ? nv = int(column(2)) : 0), (k eq "boxw" ? boxw = column(2) : 0), \
    (k eq "title" ? title = strcol(2) : 0), (k eq "subtitle" ? subtitle = strcol(2) : 0), \
    (k eq "W" ? W = int(column(2)) : 0), (k eq "H" ? H = int(column(2)) : 0), \
    (k eq "rows" ? rows = int(column(2)) : 0), (k eq "cols" ? cols = int(column(2)) : 0), 0) nooutput
if (ns < 1 || nv < 1 || nm < 1) { print "variants.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
array mname[nm]; array mwords[nm]; array mtop[nm]; array sname[ns]; array scol[ns]; array vlab[nv]
i = 0; j = 0; q = 0
stats info using (strcol(1) eq "metric" && i < nm ? (i = i + 1, mname[i] = strcol(2), mwords[i] = strcol(3), mtop[i] = column(4)) : 0, \
                  strcol(1) eq "series" && j < ns ? (j = j + 1, sname[j] = strcol(2), scol[j] = strcol(3)) : 0, \
                  strcol(1) eq "vlab" && q < nv ? (q = q + 1, vlab[q] = strcol(2)) : 0, 0) nooutput
style = "talk"; term = "png"; fs = 16; tfs = 22; sfs = 16; lw = 3; blw = 1.5
stats data . "/style.tsv" using (k = strcol(1), \
    (k eq "style" ? style = strcol(2) : 0), (k eq "term" ? term = strcol(2) : 0), \
    (k eq "fs" ? fs = column(2) : 0), (k eq "tfs" ? tfs = column(2) : 0), (k eq "sfs" ? sfs = column(2) : 0), \
    (k eq "lw" ? lw = column(2) : 0), (k eq "blw" ? blw = column(2) : 0), 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

# Margins, in canvas units (pixels, or characters for text), from the
# lengths of the texts they hold: pngcairo draws a point as 4/3 pixel, a
# digit 0.64 em wide, other characters at most about 0.6 em (most are
# narrower), a line 1.25 em high.
# WRAP: the text src in lines of at most wc characters, broken after one
# of the characters of seps (or hard): wout, its lines wlines, the longest wlong.
WRAP = 'wout = ""; wlines = 1; wlong = 0; while (strlen(src) > wc) { cut = 0; do for [c = 1:wc] { if (strstrt(seps, src[c:c]) > 0) { cut = c } }; if (cut == 0) { cut = wc }; wlong = cut > wlong ? cut : wlong; wout = wout . src[1:cut] . "\n"; src = src[cut + 1:]; wlines = wlines + 1 }; wlong = strlen(src) > wlong ? strlen(src) : wlong; wout = wout . src'
dumb = term eq "dumb"
pxpt = dumb ? 0 : 4.0 / 3
cwN = dumb ? 1 : 0.64 * fs * pxpt       # a digit of the tick labels
cwS = dumb ? 1 : 0.6 * sfs * pxpt       # a character of the small texts
cwD = dumb ? 1 : 0.64 * sfs * pxpt      # a digit of the values on the bars
lhN = dumb ? 1 : 1.25 * fs * pxpt       # a line of text
lhS = dumb ? 1 : 1.25 * sfs * pxpt
lhT = dumb ? 1 : 1.25 * tfs * pxpt
ch = dumb ? 1 : 1.6 * fs
# The y tick labels: as many digits as the top of the widest axis (the
# axis may grow by half for the value labels below), 0.x steps below 10.
tl = 1
do for [k = 1:nm] {
    t = 1.5 * mtop[k]
    n = t >= 1e6 ? 7 : t >= 10 ? strlen(sprintf("%.0f", t)) : t >= 1 ? 3 : 4
    tl = n > tl ? n : tl
}
# The key: one entry per strategy, in as many rows as the width needs.
slen = 0
do for [i = 1:ns] { slen = strlen(sname[i]) > slen ? strlen(sname[i]) : slen }
kper = dumb ? 3 : int((0.9 * W) / ((slen + 5) * cwS))
kper = kper < 1 ? 1 : kper
krows = ns > 1 ? int((ns + kper - 1) / kper) : 0
# (text: gnuplot stacks the entries, a line each, and a blank line under them)
keyh = dumb ? (ns > 1 ? ns + 1.0 : 0) : krows * lhS + (krows ? 8 : 0)
lft = (dumb ? 9.0 : (tl + 2.5) * cwN) / W
rgt = 1 - (dumb ? 1.0 : 1.5 * cwN) / W
spx = (dumb ? 9.0 : (tl + 3) * cwN) / W
# A panel's width, a variant's slot in it and a bar's.
pw = (W * (rgt - lft) - (cols - 1) * spx * W) / cols
slot = pw / nv
# The subtitle across the canvas and the panels' titles across a panel,
# wrapped at spaces ("; " first) when they are longer.
wc = dumb ? 1000 : int(0.95 * W / cwS); src = subtitle; seps = ";"; eval WRAP
if (wlong > wc) { src = subtitle; seps = " "; eval WRAP }
subtitle = wout; snl = wlines
bslot = ns == 1 ? slot : slot * 0.8 / ns    # from a bar's centre to the next one's
# The variant names: across when they fit their slot; else wrapped at
# '_', '-', ' ' or '.' into lines of at most 14, 22 or all their
# characters and slanted by the smallest of 30, 45, 60 or 90 degrees at
# which the slanted lines of neighbours do not touch (slot x sin(angle)
# >= their height) and the names take at most 30% of a panel's row;
# else numbered, the numbers named in a line under the subtitle.
vlen = 0
do for [i = 1:nv] { vlen = strlen(vlab[i]) > vlen ? strlen(vlab[i]) : vlen }
array vtxt[nv]
fitc = int(slot * 0.92 / cwS)
maxh = 0.3 * H / rows
gh = dumb ? 1 : 1.1 * sfs * pxpt    # a line's glyphs, without the gap to the next
rot = -1; nl = 1; ll = vlen
if (vlen <= fitc) { rot = 0; wc = vlen }
if (dumb && rot < 0) { rot = 0; nl = 0 }    # text: across, or numbered
do for [a = 30:90:15] {
    do for [w in "14 22 0"] {
        if (rot < 0 && !dumb) {
            wc = w + 0 > 0 ? w + 0 : vlen; nl = 1; ll = 0
            do for [i = 1:nv] { src = vlab[i]; seps = "_-. "; eval WRAP; ll = wlong > ll ? wlong : ll; nl = wlines > nl ? wlines : nl }
            hgt = ll * cwS * sin(pi * a / 180.0) + nl * lhS * cos(pi * a / 180.0)
            if (slot * sin(pi * a / 180.0) >= (nl - 1) * lhS + gh && hgt <= maxh) { rot = a }
        }
    }
}
numbered = rot < 0 || (dumb && nl == 0)
vnames = ""
if (numbered) {
    rot = 0; nl = 1; ll = strlen(sprintf("%d", nv))
    do for [i = 1:nv] { vtxt[i] = sprintf("%d", i); vnames = vnames . (i > 1 ? ", " : "") . sprintf("%d: %s", i, vlab[i]) }
    wc = int(0.95 * W / cwS); src = vnames; seps = ","; eval WRAP
    vnames = wout; snl = snl + wlines; subtitle = subtitle . "\n" . vnames
} else {
    do for [i = 1:nv] { src = vlab[i]; seps = "_-. "; eval WRAP; vtxt[i] = wout }
}
# The first panel's first name, slanted, reaches left of its slot: the
# left margin holds it (the panels narrow a little, and the names slant
# more if they would touch then).
ext = rot ? ll * cwS * cos(pi * rot / 180.0) + nl * lhS * sin(pi * rot / 180.0) - slot / 2 + 8 : 0
if (!dumb && ext > lft * W) {
    lft = ext / W
    pw = (W * (rgt - lft) - (cols - 1) * spx * W) / cols
    slot = pw / nv; bslot = ns == 1 ? slot : slot * 0.8 / ns
    while (rot < 90 && slot * sin(pi * rot / 180.0) < (nl - 1) * lhS + gh) { rot = rot + 15 }
}
array mtit[nm]
tnl = 1
do for [k = 1:nm] {
    wc = dumb ? 1000 : int(0.95 * pw / (0.62 * fs * pxpt)); src = mwords[k]; seps = " "; eval WRAP
    mtit[k] = wout; tnl = wlines > tnl ? wlines : tnl
}
ttop = dumb ? 3.0 + snl + keyh : lhT + snl * lhS + 14 + keyh   # title, subtitle, key
top = 1 - (dumb ? ttop : ttop + (tnl + 1) * lhN + 8) / H   # and the panels' titles
# the names' height below the axis (slanted: the longest line's rise and
# the lines' depth), and the gap gnuplot leaves above them
xt = dumb ? 1.0 : (rot ? ll * cwS * sin(pi * rot / 180.0) + ((nl - 1) * lhS + gh) * cos(pi * rot / 180.0) + 0.5 * lhS + 8 : nl * lhS + 0.6 * lhS + 16)
bot = (dumb ? 3.0 : xt) / H
spy = (dumb ? 4.0 : xt + tnl * lhN + 24) / H
ph = (H * (top - bot) - (rows - 1) * spy * H) / rows    # a panel's height
# The value on each bar: across when it fits the bar's slot, upright
# (rotated by 90) when the slot holds its height, else not written (the
# numbers are in variants.csv); the axis grows so that it stays inside.
labl = 0
do for [k = 1:nm] {
    f = data . "/variants-" . mname[k] . ".csv"
    stats f using (strlen(strcol("label")) > labl ? labl = strlen(strcol("label")) : 0) nooutput
}
vrot = dumb ? (labl + 1 <= bslot ? 0 : -1) : (labl * cwD <= 0.95 * bslot ? 0 : gh <= 0.95 * bslot ? 90 : -1)
labh = dumb ? 1 : (vrot == 90 ? labl * cwD : lhS) + 6
array ytop[nm]
do for [k = 1:nm] {
    f = data . "/variants-" . mname[k] . ".csv"
    ymx = 0
    stats f using (column("ytext") > ymx ? ymx = column("ytext") : 0) nooutput
    room = ph - labh
    ytop[k] = (vrot < 0 || room <= 0.3 * ph) ? mtop[k] : (ymx * ph / room > mtop[k] ? ymx * ph / room : mtop[k])
}
# The y tick step: 1, 2 or 5 x 10^n, so that the ticks stand at least
# a line and a half apart.
nice(x) = (e = 10 ** floor(log10(x)), m = x / e, (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e)
array ystep[nm]
do for [k = 1:nm] { ystep[k] = nice(ytop[k] / (ph / (1.5 * lhN) > 2 ? floor(ph / (1.5 * lhN)) : 2)) }
fN = sprintf(",%g", fs); fS = sprintf(",%g", sfs); fT = sprintf(",%g", tfs)

do for [fmt in (dumb ? "txt" : term eq "svg" ? "svg" : "png svg")] {
    if (fmt eq "png") { set terminal pngcairo noenhanced size W, H font fN }
    if (fmt eq "svg") { set terminal svg noenhanced size W, H font fN }
    if (fmt eq "txt") { set terminal dumb noenhanced size W, H }
    set output data . "/variants." . fmt
    unset label
    set label 97 title at screen 0.5, screen 1 - (dumb ? 1.0 : 0.5 * lhT + 4) / H center font fT
    set label 98 subtitle at screen 0.5, screen 1 - (dumb ? 2.0 : lhT + 0.7 * lhS + 6) / H center font fS
    set multiplot layout rows, cols margins lft, rgt, bot, top spacing spx, spy
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
        set xtics border out nomirror rotate by rot right ("" 1) font fS
    } else {
        set xtics border out nomirror norotate ("" 1) font fS
    }
    do for [v = 1:nv] { set xtics add (vtxt[v] v) }
    # the key: under the subtitle, kper entries a row (a box and a name)
    unset key
    if (ns > 1 && dumb) {
        set key at screen 0.5, screen 1 - (2.0 + snl) / H center top horizontal font fS samplen 1.5
    }
    if (ns > 1 && !dumb) {
        ew = (slen + 4) * cwS
        do for [s = 1:ns] {
            r = int((s - 1) / kper); c = (s - 1) - r * kper
            nrow = r == krows - 1 ? ns - r * kper : kper
            x0 = W / 2.0 - nrow * ew / 2.0 + c * ew
            yk = H - (lhT + snl * lhS + 14 + (r + 0.5) * lhS)
            set object 100 + s rect from screen x0 / W, (yk - 0.35 * lhS) / H to screen (x0 + 1.6 * cwS) / W, (yk + 0.35 * lhS) / H \
                fc rgb scol[s] fs solid 0.85 border -1 front
            set label 100 + s sname[s] at screen (x0 + 2.2 * cwS) / W, screen yk / H left font fS
        }
    }
    do for [k = 1:nm] {
        if (k > 1) { unset key }
        set title mtit[k] font fN
        set yrange [0:ytop[k]]
        if (dumb) { set ytics autofreq } else { set ytics 0, ystep[k] }
        f = data . "/variants-" . mname[k] . ".csv"
        if (vrot < 0) {
            plot for [s = 1:ns] f index (s - 1) using "x":"mean":"ci95" with boxerrorbars lw blw lc rgb scol[s] title sname[s]
        } else {
            if (vrot == 90) {
                plot for [s = 1:ns] f index (s - 1) using "x":"mean":"ci95" with boxerrorbars lw blw lc rgb scol[s] title sname[s], \
                     for [s = 1:ns] f index (s - 1) using "x":"ytext":"label" with labels rotate by 90 left offset 0, 0.2 font fS notitle
            } else {
                plot for [s = 1:ns] f index (s - 1) using "x":"mean":"ci95" with boxerrorbars lw blw lc rgb scol[s] title sname[s], \
                     for [s = 1:ns] f index (s - 1) using "x":"ytext":"label" with labels center offset 0, 0.6 font fS notitle
            }
        }
        unset label
        unset object
    }
    unset multiplot
    unset output
}
