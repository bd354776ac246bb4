# metastable-map.gp - metastability maps: for each mitigation, the share
# of runs that recover after a load spike, over offered load x trigger
# size (a heatmap per mitigation), and the boundaries of all mitigations
# overlaid.
#
#   gnuplot -c plots/metastable-map.gp DATA
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
# DATA/metastable-boundaries.png.

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

fs = 16; tfs = 22
nrows = int((nv + 3) / 4)  # four panels a row, as many rows as the variants need
set terminal pngcairo size 1600, 450 * nrows font sprintf(",%d", fs) noenhanced
set output data . "/metastable-map.png"
# 0 (never recovers): vermilion; 1 (always): blue, via white at 0.5
set palette defined (0 "#D55E00", 0.5 "#F7F7F7", 1 "#0072B2")
set cbrange [0:1]
set xrange [lmin - step / 2 : lmax + step / 2]
set yrange [-0.5 : nt - 0.5]
set ytics ()
do for [j = 1:nt] { set ytics add (word(triggers, j) . yunit j - 1) }
set xtics lmin, 2 * step, lmax
set multiplot layout nrows, 4 title "metastable-map: share of runs that recover after " . what . " (capacity 1,000/s)" font sprintf(",%d", tfs)
do for [i = 1:nv] {
    v = word(variants, i)
    set title v
    unset colorbox
    set xlabel "offered load (/s)"
    set ylabel ylab
    plot data . "/map.csv" using (strcol(1) eq v ? $2 : NaN):4:(step / 2):(0.5):5 with boxxyerror fs solid 1.0 noborder fc palette notitle, \
         data . "/map.csv" using (strcol(1) eq v ? $2 : NaN):4:(sprintf("%.0f", 10 * $5)) with labels font sprintf(",%d", fs - 4) notitle
}
# the last cell: the scale
unset title; unset xlabel; unset ylabel; unset xtics; unset ytics; unset border
set colorbox vertical user origin 0.80, 0.08 size 0.03, 0.35
set cblabel "share recovered"
set label 1 "numbers: share recovered x 10" at screen 0.76, 0.47 font sprintf(",%d", fs - 2)
plot [0:1][0:1] data . "/map.csv" using (NaN):(NaN):5 with points pt 5 lc palette notitle
unset label 1
unset multiplot

# Boundaries: the highest load recovered in >= 95% (50%) of runs, per
# trigger; "none" below the grid's lowest load, the top of the grid means
# "at every load of the grid".
reset
set datafile separator ","
set terminal pngcairo size 1600,900 font sprintf(",%d", fs) noenhanced
set output data . "/metastable-boundaries.png"
set title "metastable-map: highest load recovered in >= 95% (solid) and >= 50% of runs (dashed)" font sprintf(",%d", tfs)
set xlabel ylab
set ylabel "offered load (requests/s; capacity 1,000)"
set xrange [-0.3 : nt - 0.7]
set xtics ()
do for [j = 1:nt] { set xtics add (word(triggers, j) . yunit j - 1) }
set yrange [lmin - 1.6 * step : lmax + step / 2]
set ytics lmin, step, lmax
set ytics add ("none" lmin - step)
set key outside right
set grid
# Okabe-Ito, one per mitigation; each line shifted a little so that equal
# boundaries stay visible side by side
array col[12] = ["#000000", "#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", \
                 "#882255", "#117733", "#999933", "#888888"]
y(v, i) = (v >= 0 ? v : lmin - step) + (i - (nv + 1) / 2.0) * step / 12
plot for [i = 1:nv] data . "/boundary.csv" using (strcol(1) eq word(variants, i) ? $3 : NaN):(y($5, i)) \
        with linespoints lw 3 pt 7 ps 1.5 lc rgb col[(i - 1) % 12 + 1] title word(variants, i), \
     for [i = 1:nv] data . "/boundary.csv" using (strcol(1) eq word(variants, i) ? $3 : NaN):(y($6, i)) \
        with linespoints lw 2 dt 2 pt 6 ps 1.2 lc rgb col[(i - 1) % 12 + 1] notitle
