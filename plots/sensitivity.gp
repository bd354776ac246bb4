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
#   DATA/sensitivity.tsv  key<TAB>value: k1, k2, na, nb, then one alab line
#                         per row and one blab line per column
# Both are read as data only.  Writes DATA/sensitivity.png and .svg.

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
k1 = ""; k2 = ""; na = 0; nb = 0
stats info using (k = strcol(1), \
    (k eq "k1" ? k1 = strcol(2) : 0), (k eq "k2" ? k2 = strcol(2) : 0), \
    (k eq "na" ? na = int(column(2)) : 0), (k eq "nb" ? nb = int(column(2)) : 0), 0) nooutput
if (na < 1 || nb < 1) { print "sensitivity.gp: no figure data in " . ARG1 . "; prepare it with HERD_PLOT_DATA=DATA herd plot RESULTS"; exit status 1 }
array alab[na]
array blab[nb]
i = 0; j = 0
stats info using (strcol(1) eq "alab" && i < na ? (i = i + 1, alab[i] = strcol(2)) : 0, \
                  strcol(1) eq "blab" && j < nb ? (j = j + 1, blab[j] = strcol(2)) : 0, 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

# Every row label; at most about ten column labels.
set ytics (alab[1] 0)
do for [i = 2:na] { set ytics add (alab[i] i - 1) }
step = int((nb + 9) / 10)
set xtics (blab[1] 0)
do for [j = 1 + step:nb:step] { set xtics add (blab[j] j - 1) }

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size 560 * n, 520 font ",9"
    } else {
        set terminal svg noenhanced size 560 * n, 520 font ",9"
    }
    set output data . "/sensitivity." . fmt
    set multiplot layout 1, n title "Completion-time reduction against the baseline (%); dots: the 62/65 claim holds"
    set xrange [-0.5:nb - 0.5]
    set yrange [-0.5:na - 0.5]
    set xlabel k2
    set ylabel k1
    set cbrange [0:80]
    set palette defined (0 "#f7fbff", 40 "#6baed6", 62 "#fdae61", 65 "#d7191c", 80 "#67000d")
    set cblabel "reduction (%)"
    do for [i = 1:n] {
        s = word(strategies, i)
        set title s
        plot file using "col":"row":(0.5):(0.5):(column(s)) with boxxy fs solid 1.0 noborder fc palette notitle, \
             file using "col":(column("ok") > 0 ? column("row") : 1/0) with points pt 7 ps 0.6 lc rgb "black" notitle
    }
    unset multiplot
    unset output
}
