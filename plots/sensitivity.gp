# sensitivity.gp - how fragile a headline reduction is: heatmaps of each
# strategy's completion-time reduction against the baseline over a 2-D
# sweep, with the points where the 62/65 claim holds marked.
#
#   gnuplot -c plots/sensitivity.gp DIR [STRATEGY ...]
#
# Reads DIR/compare.csv of a run with two sweeps (rows of the map: the first
# swept key; columns: the second) and `[run] baseline`; draws one panel per
# strategy (default: full_jitter and decorrelated_jitter).  A dot marks a
# point where full jitter is within 62 +/- 3 %, decorrelated jitter within
# 65 +/- 3 % and decorrelated ahead (the 62/65 claim, see scenarios/NOTES-62-65.md).
# Writes DIR/sensitivity.png and DIR/sensitivity.svg.

if (ARGC < 1) { print "usage: gnuplot -c plots/sensitivity.gp DIR [STRATEGY ...]"; exit status 2 }
dir = ARG1
file = dir . "/compare.csv"
strategies = "full_jitter decorrelated_jitter"
if (ARGC >= 2) { strategies = ARG2; if (ARGC >= 3) { strategies = strategies . " " . ARG3 } }
n = words(strategies)
q(s) = "'" . s . "'"
if (system("test -r " . q(file) . " && echo ok") ne "ok") { print "sensitivity.gp: cannot read " . file; exit status 1 }

# Grid: index each distinct value of the two swept keys in file order;
# per point the reduction of every strategy and whether the claim holds.
tmp = system("mktemp /tmp/herd-sensitivity.XXXXXX")
head = system("awk -F, -v OUT=" . q(tmp) . " -v STRATS=" . q(strategies) . " '" . \
  'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; if (!("strategy" in c) || c["strategy"] != 3 || !("completion_time_s_change_pct_mean" in c)) { print "err = \"needs compare.csv with two sweep columns\""; bad = 1; exit } k1 = $1; k2 = $2; next } \
   { a = $1; b = $2; if (!(a in ia)) { ia[a] = na++; la[na] = a } if (!(b in ib)) { ib[b] = nb++; lb[nb] = b } \
     r[a "|" b "|" $3] = -$c["completion_time_s_change_pct_mean"]; keyA[a "|" b] = a; keyB[a "|" b] = b } \
   END { if (bad) exit; ns = split(STRATS, S, " "); \
     for (k in keyA) { a = keyA[k]; b = keyB[k]; f = r[k "|full_jitter"]; d = r[k "|decorrelated_jitter"]; \
        ok = (f >= 59 && f <= 65 && d >= 62 && d <= 68 && d > f); \
        line = ib[b] " " ia[a] " " ok; for (s = 1; s <= ns; s++) line = line " " ((k "|" S[s]) in r ? r[k "|" S[s]] : "NaN"); print line > OUT } \
     yt = ""; for (i = 1; i <= na; i++) yt = yt (i > 1 ? ", " : "") "\"" la[i] "\" " (i - 1); \
     step = int((nb + 9) / 10); xt = ""; for (j = 1; j <= nb; j += step) xt = xt (j > 1 ? ", " : "") "\"" lb[j] "\" " (j - 1); \
     printf "k1 = \"%s\"; k2 = \"%s\"; na = %d; nb = %d; set ytics (%s); set xtics (%s)\n", k1, k2, na, nb, yt, xt }' . "' " . q(file))
err = ""
eval head
if (err ne "") { system("rm -f " . q(tmp)); print "sensitivity.gp: " . file . ": " . err; exit status 1 }

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size 560 * n, 520 font ",9"
    } else {
        set terminal svg noenhanced size 560 * n, 520 font ",9"
    }
    set output dir . "/sensitivity." . fmt
    set multiplot layout 1, n title "Completion-time reduction against the baseline (%); dots: the 62/65 claim holds"
    set xrange [-0.5:nb - 0.5]
    set yrange [-0.5:na - 0.5]
    set xlabel k2
    set ylabel k1
    set cbrange [0:80]
    set palette defined (0 "#f7fbff", 40 "#6baed6", 62 "#fdae61", 65 "#d7191c", 80 "#67000d")
    set cblabel "reduction (%)"
    do for [i = 1:n] {
        set title word(strategies, i)
        plot tmp using 1:2:(0.5):(0.5):(column(3 + i)) with boxxy fs solid 1.0 noborder fc palette notitle, \
             tmp using 1:($3 > 0 ? $2 : 1/0) with points pt 7 ps 0.6 lc rgb "black" notitle
    }
    unset multiplot
    unset output
}
system("rm -f " . q(tmp))
