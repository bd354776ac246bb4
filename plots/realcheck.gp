# The simulator against reality (make realcheck, tests/realcheck.sh):
# per strategy, simulated (herd run) and real (herd drive against herd
# serve on loopback) completion time, calls, peak arrivals per second and
# peak in flight at the server, mean with its 95% CI.
#
#   gnuplot -e "dat='build/realcheck/realcheck.dat'; out='build/realcheck/realcheck.png'" plots/realcheck.gp
#
# dat: four blocks (index 0..3, one per metric), a line per strategy:
#   i "strategy" sim_mean sim_ci95 real_mean real_ci95
# Talk style: text 16 pt, the title 22 pt over two lines, the strategy
# names broken after their first '_' when longer than 12 characters (so
# that neighbours stand apart); the margins (fractions of the canvas) hold
# two lines of names below each panel and its title above it.
set terminal pngcairo size 1600,900 font ",16" linewidth 2
set output out
array T[4] = ["completion time (s)", "calls (attempts that reached the server)", \
              "peak arrivals per second", "peak in flight at the server"]
set multiplot layout 2,2 title "scenarios/realcheck.ini: simulated (herd run) and real (herd drive against herd serve,\nloopback), mean and 95% CI" font ",22" noenhanced \
    margins 0.055, 0.99, 0.09, 0.84 spacing 0.06, 0.14
set style fill solid 0.7 border -1
set boxwidth 0.36
set xrange [-0.6:3.6]
set yrange [0:*]
set grid ytics
set key top center horizontal
set xtics scale 0 font ",16" noenhanced
wrapname(s) = (u = strstrt(s, "_"), strlen(s) > 12 && u > 0 ? s[1:u] . "\n" . s[u + 1:] : s)
set offsets 0, 0, graph 0.25, 0
do for [k = 0:3] {
    set title T[k + 1]
    plot dat index k using ($1 - 0.19):3:(0.36) with boxes lc rgb "#4477aa" title "simulated", \
         dat index k using ($1 - 0.19):3:4 with yerrorbars lc rgb "black" pt 0 notitle, \
         dat index k using ($1 + 0.19):5:(0.36) with boxes lc rgb "#ee6677" title "real", \
         dat index k using ($1 + 0.19):5:6 with yerrorbars lc rgb "black" pt 0 notitle, \
         dat index k using 1:(0):xtic(wrapname(strcol(2))) with points pt -1 notitle
}
unset multiplot
