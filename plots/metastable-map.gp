# metastable-map.gp - metastability maps: for each mitigation, the share
# of runs that recover after a load spike, over offered load x trigger
# size (a heatmap per mitigation), and the boundaries of all mitigations
# overlaid.
#
#   gnuplot -c plots/metastable-map.gp DATA [svg]
#
# DATA is a directory that tests/map-figure.sh prepares from the
# aggregate.csv of scenarios/metastable-map.ini:
#   DATA/map.csv       variant,load,trigger,row,recovered_mean,recovered_lo,recovered_hi
#                      (load: offered requests/s; trigger: spike length in
#                      s or height in /s; row: its index, 0 = smallest)
#   DATA/boundary.csv  variant,idx,row,trigger,load95,load50: per mitigation
#                      and trigger, the highest load of the grid at which at
#                      least 95% (50%) of the runs recover, from the lowest
#                      load up without a gap (-1: not even at the lowest)
#   DATA/variants.txt  the mitigations, one a line, in the scenario's order
#   DATA/triggers.txt  the trigger sizes, one a line, smallest first
#   DATA/axis.txt      "length" (the triggers are spike lengths in s) or
#                      "height" (spike heights in requests/s)
# All are read as data only.  Writes DATA/metastable-map.png and
# DATA/metastable-boundaries.png (.svg instead with a second argument
# "svg": tests/figure-layout.sh checks their texts).

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/metastable-map.gp DATA"; exit status 2 }
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
set datafile separator ","
stats data . "/variants.txt" using 0 nooutput
nv = STATS_records
variants = ""
stats data . "/variants.txt" using (variants = variants . " " . strcol(1), 0) nooutput
stats data . "/triggers.txt" using 0 nooutput
nt = STATS_records
triggers = ""
stats data . "/triggers.txt" using (triggers = triggers . " " . strcol(1), 0) nooutput
stats data . "/map.csv" using 2 nooutput
lmin = STATS_min; lmax = STATS_max
step = (lmax - lmin) / 9.0
# the trigger axis: the spike's length (s) or its height (/s)
ylab = "spike length (s)"; yunit = " s"; what = "a spike to 1,500/s"
stats data . "/axis.txt" using (strcol(1) eq "height" ? (ylab = "spike height (/s), 10 s", yunit = "", what = "a 10 s spike") : 0) nooutput

# Text sizes (talk style: 16 pt at least) and, in canvas pixels
# (pngcairo: 4/3 pixel a point), a character's width (at most about
# 0.62 em, a digit 0.64) and a line's height.
fs = 16; tfs = 22
# One cell per mitigation and one for the scale: in one row up to 4
# cells, in two up to 10, else in rows of 6 (a panel must hold its
# ticks and titles: 16 variants are 3 rows), the canvas 300 pixels taller
# for each row past the second.
cells = nv + 1
rows = cells <= 4 ? 1 : (cells <= 10 ? 2 : int((cells + 5) / 6))
cols = int((cells + rows - 1) / rows)
W = 1600; H = 900 + (rows > 2 ? (rows - 2) * 300 : 0)
fmt = ARGC >= 2 && ARG2 eq "svg" ? "svg" : "png"
pxpt = 4.0 / 3
cw = 0.64 * fs * pxpt; lh = 1.25 * fs * pxpt; lhT = 1.25 * tfs * pxpt
# WRAP: the text src in lines of at most wc characters, broken after one
# of the characters of seps (or hard): wout, its lines wlines, the longest wlong.
WRAP = 'wout = ""; wlines = 1; wlong = 0; while (strlen(src) > wc) { cut = 0; do for [c = 1:wc] { if (strstrt(seps, src[c:c]) > 0) { cut = c } }; if (cut == 0) { cut = wc }; wlong = cut > wlong ? cut : wlong; wout = wout . src[1:cut] . "\n"; src = src[cut + 1:]; wlines = wlines + 1 }; wlong = strlen(src) > wlong ? strlen(src) : wlong; wout = wout . src'
if (fmt eq "png") { set terminal pngcairo size W, H font sprintf(",%d", fs) noenhanced }
if (fmt eq "svg") { set terminal svg size W, H font sprintf(",%d", fs) noenhanced }
set output data . "/metastable-map." . fmt
# 0 (never recovers): vermilion; 1 (always): blue, via white at 0.5
set palette defined (0 "#D55E00", 0.5 "#F7F7F7", 1 "#0072B2")
set cbrange [0:1]
set xrange [lmin - step / 2 : lmax + step / 2]
set yrange [-0.5 : nt - 0.5]
set ytics ()
tlen = 0
do for [j = 1:nt] { set ytics add (word(triggers, j) . yunit j - 1); n = strlen(word(triggers, j) . yunit); tlen = n > tlen ? n : tlen }
# The margins hold the texts they carry: left of
# each panel its trigger ticks (the first column its y label too), below
# it the load ticks and the x label (shortened when the panel is narrower
# than it), above it its title (the mitigation, wrapped at '_' when
# it is wider than the panel).
side = (tlen + 1.5) * cw + 12
lft = (lh + side) / W; rgt = 1 - 1.5 * cw / W; spx = side / W
pw = (W * (rgt - lft) - (cols - 1) * spx * W) / cols
array vtit[nv]
tnl = 1
do for [i = 1:nv] {
    wc = int(0.95 * pw / (0.62 * fs * pxpt)); src = word(variants, i); seps = "_-. "; eval WRAP
    vtit[i] = wout; tnl = wlines > tnl ? wlines : tnl
}
xlab = strlen("offered load (/s)") * 0.62 * fs * pxpt + 10 <= pw ? "offered load (/s)" : "load (/s)"
top = 1 - (lhT + 10 + (tnl + 0.8) * lh) / H
bot = (2 * lh + 30) / H
spy = (2 * lh + 30 + (tnl + 0.8) * lh) / H
ph = (H * (top - bot) - (rows - 1) * spy * H) / rows
# the share (x 10, one digit) in each cell where some runs recover and
# some do not (the colour says "all" and "none"), where a digit and a gap
# fit the cell
cellw = pw / 10.0
numbers = 1.6 * cw <= cellw && lh <= 0.95 * ph / nt
# a load tick every k cells, k such that the ticks stand apart
llen = strlen(sprintf("%.0f", lmax))
k = int(ceil((llen + 1.5) * cw / cellw))
set xtics lmin, (k < 1 ? 1 : k) * step, lmax
set multiplot layout rows, cols title "metastable-map: share of runs that recover after " . what . " (capacity 1,000/s)" font sprintf(",%d", tfs) \
    margins lft, rgt, bot, top spacing spx, spy
do for [i = 1:nv] {
    v = word(variants, i)
    set title vtit[i]
    unset colorbox
    set xlabel xlab
    if ((i - 1) % cols == 0) { set ylabel ylab } else { unset ylabel }
    if (numbers) {
        plot data . "/map.csv" using (strcol(1) eq v ? $2 : NaN):4:(step / 2):(0.5):5 with boxxyerror fs solid 1.0 noborder fc palette notitle, \
             data . "/map.csv" using (strcol(1) eq v && floor(10 * $5 + 0.5) > 0 && floor(10 * $5 + 0.5) < 10 ? $2 : NaN):4:(sprintf("%.0f", 10 * $5)) \
                 with labels font sprintf(",%d", fs) notitle
    } else {
        plot data . "/map.csv" using (strcol(1) eq v ? $2 : NaN):4:(step / 2):(0.5):5 with boxxyerror fs solid 1.0 noborder fc palette notitle
    }
}
# the last cell: the scale, and what the numbers are
cx = lft + (nv % cols) * (pw / W + spx); cy = top - (int(nv / cols) + 1) * ph / H - int(nv / cols) * spy
unset title; unset xlabel; unset ylabel; unset xtics; unset ytics; unset border
set colorbox vertical user origin cx + 0.1 * pw / W, cy + 0.1 * ph / H size 0.03, 0.6 * ph / H
set cbtics 0.25
set label 1 "share recovered" at screen cx + 0.1 * pw / W, screen cy + 0.7 * ph / H + lh / H left font sprintf(",%d", fs)
if (numbers) { set label 2 "numbers:\nshare\nrecovered\nx 10, if\nnot 0 or 1" at screen cx + 0.1 * pw / W + 0.03 + (6 * cw + 10) / W, screen cy + 0.4 * ph / H left font sprintf(",%d", fs) }
plot [0:1][0:1] data . "/map.csv" using (NaN):(NaN):5 with points pt 5 lc palette notitle
unset label 1; unset label 2
unset multiplot

# Boundaries: the highest load recovered in >= 95% (50%) of runs, per
# trigger; "none" below the grid's lowest load, the top of the grid means
# "at every load of the grid".
reset
set datafile separator ","
if (fmt eq "png") { set terminal pngcairo size W, H font sprintf(",%d", fs) noenhanced }
if (fmt eq "svg") { set terminal svg size W, H font sprintf(",%d", fs) noenhanced }
set output data . "/metastable-boundaries." . fmt
# The title over the canvas, the key right of the plot in the room its
# longest name needs, the margins from the texts they hold.
set label 1 "metastable-map: highest load recovered in >= 95% (solid) and >= 50% of runs (dashed)" \
    at screen 0.5, screen 1 - (0.5 * lhT + 6) / H center font sprintf(",%d", tfs)
vlen = 0
do for [i = 1:nv] { vlen = strlen(word(variants, i)) > vlen ? strlen(word(variants, i)) : vlen }
keyw = (vlen + 6) * 0.62 * fs * pxpt + 20
set lmargin at screen (lh + 5.5 * cw + 20) / W
set rmargin at screen 1 - keyw / W
set tmargin at screen 1 - (lhT + 0.8 * lh + 14) / H
set bmargin at screen (2 * lh + 30) / H
set key at screen 1 - (keyw - 16) / W, screen 1 - (lhT + 0.8 * lh + 14) / H left top Left reverse samplen 3
set xlabel ylab
set ylabel "offered load (requests/s; capacity 1,000)"
set xrange [-0.3 : nt - 0.7]
set xtics ()
do for [j = 1:nt] { set xtics add (word(triggers, j) . yunit j - 1) }
set yrange [lmin - 1.6 * step : lmax + step / 2]
set ytics lmin, step, lmax
set ytics add ("none" lmin - step)
set grid
# Okabe-Ito, one per mitigation, and past 8 mitigations the colours again
# with another marker (circles, then squares, then triangles: pt[] solid,
# ptopen[] open); each line shifted a little so that equal boundaries stay
# visible side by side, all of them within 0.7 of a grid step
array col[8] = ["#000000", "#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442"]
array pts[3] = [7, 5, 9]
array ptsopen[3] = [6, 4, 8]
shift = nv > 8 ? 0.7 * step / (nv + 1) : step / 12
y(v, i) = (v >= 0 ? v : lmin - step) + (i - (nv + 1) / 2.0) * shift
mk(i) = int((i - 1) / 8) % 3 + 1
plot for [i = 1:nv] data . "/boundary.csv" using (strcol(1) eq word(variants, i) ? $3 : NaN):(y($5, i)) \
        with linespoints lw 3 pt pts[mk(i)] ps 1.5 lc rgb col[(i - 1) % 8 + 1] title word(variants, i), \
     for [i = 1:nv] data . "/boundary.csv" using (strcol(1) eq word(variants, i) ? $3 : NaN):(y($6, i)) \
        with linespoints lw 2 dt 2 pt ptsopen[mk(i)] ps 1.2 lc rgb col[(i - 1) % 8 + 1] notitle
