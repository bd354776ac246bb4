# goodput.gp - offered load and goodput over time, one panel per variant
# (or per strategy without variants), replication 0, the trigger shaded.
#
#   gnuplot -c plots/goodput.gp DIR
#
# Reads DIR/timeseries.csv (columns offered and goodput: logical requests
# started and succeeded per bucket) and DIR/aggregate.csv (the trigger's
# start and end).  A system that recovers brings goodput back to the offered
# load after the trigger; a metastable one stays collapsed.  Writes
# DIR/goodput.png and DIR/goodput.svg.

if (ARGC < 1) { print "usage: gnuplot -c plots/goodput.gp DIR"; exit status 2 }
dir = ARG1
file = dir . "/timeseries.csv"
q(s) = "'" . s . "'"
if (system("test -r " . q(file) . " && echo ok") ne "ok") { print "goodput.gp: cannot read " . file; exit status 1 }

# panels: variant x strategy (sweep values: the first point only), replication 0
tmp = system("mktemp /tmp/herd-goodput.XXXXXX")
info = system("awk -F, -v OUT=" . q(tmp) . " '" . \
  'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; if (!("offered" in c)) { print "err = \"no offered column\""; bad = 1; exit } \
             hv = ($1 == "variant"); S = c["strategy"]; next } \
   { sw = ""; for (i = 1 + hv; i < S; i++) sw = sw $i ","; if (first == "") first = sw; if (sw != first || $c["replication"] != 0) next; \
     p = (hv ? $1 " / " : "") $S; if (!(p in seen)) { seen[p] = 1; if (np++) print "\n" > OUT; names = names (np > 1 ? "|" : "") p; t0 = $c["time_s"] } \
     if (bw == 0 && $c["time_s"] > t0) bw = $c["time_s"] - t0; \
     if ($c["offered"] + $c["goodput"] > 0 && $c["time_s"] > tmax) tmax = $c["time_s"]; \
     if ($c["offered"] > ymax) ymax = $c["offered"]; if ($c["goodput"] > ymax) ymax = $c["goodput"]; \
     print $c["time_s"], $c["offered"], $c["goodput"] > OUT } \
   END { if (bad) exit; if (bw == 0) bw = 1; printf "np = %d; names = \"%s\"; bw = %.17g; tmax = %.17g; ymax = %.17g\n", np, names, bw, tmax, ymax }' . "' " . q(file))
err = ""
eval info
if (err ne "" || np == 0) { system("rm -f " . q(tmp)); print "goodput.gp: " . (err ne "" ? err : "no data in " . file); exit status 1 }
trig = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { s = (\"trigger_start_s_mean\" in c) ? $c[\"trigger_start_s_mean\"] : \"nan\"; e = (\"trigger_end_s_mean\" in c) ? $c[\"trigger_end_s_mean\"] : \"nan\"; print s \" \" e }' " . q(dir . "/aggregate.csv"))
ts = word(trig, 1); te = word(trig, 2)
has_trigger = (ts ne "nan" && ts ne "" && te ne "nan")
part(s, i) = (i == 1 ? s[1:strstrt(s . "|", "|") - 1] : part(s[strstrt(s, "|") + 1:], i - 1))

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size 1000, 170 * np + 90 font ",9"
    } else {
        set terminal svg noenhanced size 1000, 170 * np + 90 font ",9"
    }
    set output dir . "/goodput." . fmt
    set multiplot layout np, 1 title sprintf("Offered load and goodput (logical requests per second, replication 0, %g s buckets)%s", bw, has_trigger ? "; trigger shaded" : "")
    set xrange [0:tmax + bw]
    set yrange [0:ymax / bw * 1.1]
    set grid ytics
    set lmargin 12
    set ylabel "requests/s"
    set key top right
    if (has_trigger) { set object 1 rect from real(ts), graph 0 to real(te), graph 1 fc rgb "#fde0dd" fs solid 1.0 noborder behind }
    do for [i = 1:np] {
        if (i == np) { set xlabel "time (s)"; set format x "%g" } else { unset xlabel; set format x "" }
        set title part(names, i)
        plot tmp index (i - 1) using 1:($2 / bw) with steps lw 1 lc rgb "#999999" title "offered", \
             tmp index (i - 1) using 1:($3 / bw) with steps lw 1.5 lc rgb "#1a9850" title "goodput"
    }
    unset multiplot
    unset output
}
system("rm -f " . q(tmp))
