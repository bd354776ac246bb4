# mechanisms.gp - what a retry-limiting mechanism was doing over time, under
# the goodput it produced: one variant, replication 0.
#
#   gnuplot -c plots/mechanisms.gp DATA
#
# DATA is a directory prepared by tests/mechanisms.sh (make figures) from a
# results directory's timeseries.csv and mechanisms.csv:
#   DATA/mech.csv  time_s, offered, goodput, in_flight, arrivals,
#                  breaker_open_s, breaker_half_open_s, throttle_reject_p,
#                  throttle_requests, throttle_accepts, limiter_allowed,
#                  limiter_denied, limiter_balance (one row per bucket)
#   DATA/mech.tsv  key<TAB>value: kind (breaker, throttle or budget),
#                  variant, tmin, tmax
# Read as data only.  Writes DATA/mech.png (1600x900, talk style).
#   breaker:  offered, goodput and requests at the server; below, the
#             fraction of each bucket the breaker spent open / half-open.
#   throttle: offered, goodput and requests at the server; the rejection
#             probability; the window's requests and accepts (x K = 2).
#   budget:   offered, goodput and requests at the server; the retries the
#             budget released and refused per bucket, and its balance.

if (ARGC < 1 || strlen(ARG1) == 0) { print "usage: gnuplot -c plots/mechanisms.gp DATA"; exit status 2 }
data = ARG1[1:1] eq "/" ? ARG1 : "./" . ARG1
file = data . "/mech.csv"
info = data . "/mech.tsv"

set datafile separator "\t"
set datafile nocolumnheaders
set datafile commentschars ""
kind = ""; variant = ""; tmin = 0; tmax = 1
stats info using (k = strcol(1), (k eq "kind" ? kind = strcol(2) : 0), (k eq "variant" ? variant = strcol(2) : 0), \
    (k eq "tmin" ? tmin = column(2) : 0), (k eq "tmax" ? tmax = column(2) : 0), 0) nooutput
if (kind ne "breaker" && kind ne "throttle" && kind ne "budget") { print "mechanisms.gp: no figure data in " . ARG1; exit status 1 }
set datafile separator comma
set datafile columnheaders

# Okabe-Ito
c_off = "#000000"; c_good = "#0072B2"; c_inf = "#999999"; c_open = "#D55E00"; c_half = "#E69F00"
c_p = "#CC79A7"; c_req = "#009E73"; c_acc = "#56B4E9"

set terminal pngcairo size 1600,900 enhanced font "sans,16" linewidth 1
set output data . "/mech.png"
set xrange [tmin:tmax]
set grid ytics lc rgb "#dddddd"
set key top right horizontal font ",16" opaque
set style fill solid 0.8 noborder
set lmargin 12; set rmargin 12

# Top panel, every kind: the load and what came of it.
set multiplot title sprintf("metastable.ini, variant %s (replication 0, 1 s buckets)", variant) font ",22" noenhanced
set size 1, 0.5; set origin 0, 0.45
set ylabel "requests / s"
set offsets 0, 0, graph 0.2, 0
set y2label "in flight at the server"
set ytics nomirror; set y2tics
set format x ""
set xlabel ""
plot file using "time_s":"offered" with steps lw 3 lc rgb c_off title "offered", \
     file using "time_s":"goodput" with steps lw 3 lc rgb c_good title "goodput", \
     file using "time_s":"in_flight" axes x1y2 with steps lw 2 dt 2 lc rgb c_inf title "in flight (right axis)"
unset y2tics; unset y2label
set offsets 0, 0, 0, 0
set format x "%g"
set xlabel "time (s)"

if (kind eq "breaker") {
    set size 1, 0.42; set origin 0, 0.03
    set yrange [0:1.05]
    set ylabel "fraction of the bucket"
    plot file using ($1 + 0.5):($6 + $7) with boxes lc rgb c_half title "half-open", \
         file using ($1 + 0.5):6 with boxes lc rgb c_open title "open"
}
if (kind eq "throttle") {
    set size 0.5, 0.42; set origin 0, 0.03
    # the formula in two lines over the curve (which stays below 1)
    set yrange [0:1.35]
    set ytics 0, 0.2, 1
    set ylabel "rejection probability"
    set label 1 "p = max(0, (requests - 2 accepts)\n          / (requests + 1))" at graph 0.02, graph 0.92 font ",16" noenhanced
    plot file using "time_s":"throttle_reject_p" with steps lw 3 lc rgb c_p notitle, \
         0.5 with lines dt 3 lc rgb "#555555" notitle
    unset label 1
    set size 0.5, 0.42; set origin 0.5, 0.03
    set autoscale y
    set ytics autofreq
    set ylabel "in the 120 s window"
    set format y "%.0s%c"
    set key top left vertical
    set offsets 0, 0, graph 0.25, 0
    plot file using "time_s":"throttle_requests" with steps lw 3 lc rgb c_req title "requests", \
         file using "time_s":(2 * column("throttle_accepts")) with steps lw 3 lc rgb c_acc title "2 x accepts"
}
if (kind eq "budget") {
    set size 1, 0.42; set origin 0, 0.03
    set ylabel "retries per bucket"
    set y2label "balance (retries)"
    set y2tics
    set boxwidth 0.8
    plot file using "time_s":"limiter_allowed" with boxes lc rgb c_good title "released", \
         file using "time_s":(-column("limiter_denied")) with boxes lc rgb c_open title "refused (downwards)", \
         file using "time_s":"limiter_balance" axes x1y2 with steps lw 2 lc rgb c_off title "balance (right axis)"
}
unset multiplot
