# timeseries.gp - the load each strategy puts on the server over time: one
# panel per strategy, shared time and rate axes (replication 0).
#
#   gnuplot -c plots/timeseries.gp DIR
#
# Reads DIR/timeseries.csv; writes DIR/timeseries.png and DIR/timeseries.svg.
# Dark steps: attempts arriving at the server per second.  Light steps:
# attempts refused at connect (the server was down) per second, clipped at
# the top of the panel when they exceed the busiest arrival rate.
# Synchronised retries (exponential backoff without jitter) show as tall
# spikes; jittered strategies as a smooth, lower load.

if (ARGC < 1) { print "usage: gnuplot -c plots/timeseries.gp DIR"; exit status 2 }
dir = ARG1
file = dir . "/timeseries.csv"
set datafile separator ","

# Column positions from the header, so the script survives added columns.
col(name) = int(system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"%s\") print i; exit }' %s", name, file)))
c_strat = col("strategy"); c_rep = col("replication"); c_t = col("time_s")
c_arr = col("arrivals"); c_ref = col("refused")
if (c_arr == 0) { print "timeseries.gp: " . file . " is not a herd timeseries"; exit status 1 }

awk(prog) = system(sprintf("awk -F, -v S=%d -v R=%d -v T=%d -v A=%d -v F=%d '%s' %s", \
                           c_strat, c_rep, c_t, c_arr, c_ref, prog, file))
strategies = awk('NR > 1 && !seen[$S]++ { printf "%s ", $S }')
n = words(strategies)
if (n == 0) { print "timeseries.gp: no data in " . file; exit status 1 }
bucket = real(awk('NR == 2 { s = $S; t = $T; next } NR > 2 && $S == s { print $T - t; exit }'))
if (bucket <= 0) { bucket = 1 }
tmax = real(awk('NR > 1 && $R == 0 && $A + $F > 0 && $T > m { m = $T } END { print m + 0 }')) + bucket
# The rate axis is scaled to the arrivals (the load the server must carry);
# refusals above it are clipped at the top of the panel.
ymax = real(awk('NR > 1 && $R == 0 && $A > m { m = $A } END { print m + 0 }')) / bucket
if (ymax <= 0) { ymax = real(awk('NR > 1 && $R == 0 && $F > m { m = $F } END { print m + 0 }')) / bucket }
if (ymax <= 0) { ymax = 1 }

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size 1000, 150 * n + 90 font ",9"
    } else {
        set terminal svg noenhanced size 1000, 150 * n + 90 font ",9"
    }
    set output dir . "/timeseries." . fmt
    set multiplot layout n, 1 title sprintf("Load on the server, replication 0 (%g s buckets)", bucket)
    set xrange [0:tmax]
    set yrange [0:ymax * 1.05]
    set grid ytics
    set lmargin 12
    set ylabel "attempts/s"
    set key top right
    do for [i = 1:n] {
        s = word(strategies, i)
        if (i == n) { set xlabel "time (s)"; set format x "%g" } else { unset xlabel; set format x "" }
        plot file using (strcol(c_strat) eq s && column(c_rep) == 0 ? column(c_t) : 1/0):(column(c_ref) / bucket) \
                with steps lw 1 lc rgb "#f4a582" title s . ": refused", \
             file using (strcol(c_strat) eq s && column(c_rep) == 0 ? column(c_t) : 1/0):(column(c_arr) / bucket) \
                with steps lw 1.5 lc rgb "#1f4e79" title s . ": arriving"
    }
    unset multiplot
    unset output
}
