# tune.gp - herd tune's figure: every candidate's objective against the
# binding constraint (its search means), one panel per operating point;
# dropped candidates grey, finalists blue, the recommendation red, the
# Pareto front (the best objective for each level of the constraint) as a
# line, the constraint's bound as a dashed vertical line.
#
#   gnuplot -c plots/tune.gp DATA
#
# DATA is a directory that herd tune prepares (and removes afterwards):
#   DATA/front.csv  per operating point a block "x,y,kind" (kind 0
#                   dropped, 1 finalist, 2 recommended, 3 the front, in
#                   the constraint's order)
#   DATA/tune.tsv   key<TAB>value: np, xlabel, ylabel, bound (absent
#                   without a constraint), title, subtitle, point and valid
#                   (one line each per operating point: its name, and 0
#                   when no candidate has a defined value there)
# Both are read as data only.  Writes DATA/tune.png and DATA/tune.svg.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/tune.gp DATA"; exit status 2 }
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
info = data . "/tune.tsv"
set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
np = 0; xlabel = ""; ylabel = ""; bound = NaN; hasbound = 0; title = ""; subtitle = ""
stats info using (k = strcol(1), \
    (k eq "np" ? np = int(column(2)) : 0), (k eq "xlabel" ? xlabel = strcol(2) : 0), \
    (k eq "ylabel" ? ylabel = strcol(2) : 0), (k eq "bound" ? (bound = column(2), hasbound = 1) : 0), \
    (k eq "title" ? title = strcol(2) : 0), (k eq "subtitle" ? subtitle = strcol(2) : 0), 0) nooutput
if (np < 1) { print "tune.gp: no figure data in " . ARG1; exit status 1 }
array pname[np]; array pvalid[np]
i = 0; j = 0
stats info using (strcol(1) eq "point" && i < np ? (i = i + 1, pname[i] = strcol(2)) : 0, \
                  strcol(1) eq "valid" && j < np ? (j = j + 1, pvalid[j] = int(column(2))) : 0, 0) nooutput
set datafile separator comma
set datafile columnheaders
set datafile commentschars "#"

fs = 16; tfs = 22; sfs = 13
cols = np <= 2 ? np : (np <= 4 ? 2 : 3)
rows = int((np + cols - 1) / cols)
W = 1600; H = 900
fN = sprintf(",%g", fs); fS = sprintf(",%g", sfs); fT = sprintf(",%g", tfs)
top = 1 - (1.5 * tfs + 1.8 * sfs + 1.6 * fs + 34.0) / H

do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo noenhanced size W, H font fN }
    if (fmt eq "svg") { set terminal svg noenhanced size W, H font fN }
    set output data . "/tune." . fmt
    set multiplot layout rows, cols title title font fT margins 0.08, 0.98, 0.1, top spacing 0.1, 0.14
    set label 98 subtitle at screen 0.5, screen 1 - (1.5 * tfs + 0.9 * sfs + 4) / H center font fS
    set grid lt 1 lw 1 lc rgb "#d8d8d8"
    set xlabel xlabel font fS
    set ylabel ylabel font fS
    set key top right font fS samplen 1.5
    do for [p = 1:np] {
        if (p > 1) { unset key }
        if (np > 1) { set title pname[p] font fN } else { unset title }
        if (hasbound) { set arrow 1 from first bound, graph 0 to first bound, graph 1 nohead dt 2 lw 2 lc rgb "#444444" }
        f = data . "/front.csv"
        if (!pvalid[p]) {
            set xrange [0:1]; set yrange [0:1]; unset arrow 1
            set label 97 "no candidate has defined values here (n/a)" at graph 0.5, graph 0.5 center font fN
            plot NaN notitle
            unset label 97; set xrange [*:*]; set yrange [*:*]
            unset label 98
            continue
        }
        plot f index (p - 1) using "x":(column("kind") == 3 ? column("y") : NaN) with steps lw 2 lc rgb "#999999" title "Pareto front", \
             f index (p - 1) using "x":(column("kind") == 0 ? column("y") : NaN) with points pt 7 ps 1.2 lc rgb "#b0b0b0" title "dropped", \
             f index (p - 1) using "x":(column("kind") == 1 ? column("y") : NaN) with points pt 7 ps 2 lc rgb "#1f77b4" title "finalist", \
             f index (p - 1) using "x":(column("kind") == 2 ? column("y") : NaN) with points pt 3 ps 4 lw 3 lc rgb "#d62728" title "recommended"
        unset label 98
    }
    unset multiplot
    unset output
}
