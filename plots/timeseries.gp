# timeseries.gp - the load each strategy puts on the server over time: one
# panel per strategy, shared time and rate axes (replication 0).
#
#   gnuplot -c plots/timeseries.gp DIR [POINT]
#
# Reads DIR/timeseries.csv; writes DIR/timeseries.png and DIR/timeseries.svg.
# Dark steps: attempts arriving at the server per second.  Light steps:
# attempts refused at connect (the server was down) per second, clipped at
# the top of the panel when they exceed the busiest arrival rate.
# Synchronised retries (exponential backoff without jitter) show as tall
# spikes; jittered strategies as a smooth, lower load.
#
# A swept directory (columns before `strategy`, one per swept key) holds one
# run per sweep point; the figure shows one of them, named in its title:
# POINT, the point's values joined by ',' in column order (`100`, or
# `100,20` for two sweeps), or by default the point of the first data row.

if (ARGC < 1) { print "usage: gnuplot -c plots/timeseries.gp DIR [POINT]"; exit status 2 }
dir = ARG1
file = dir . "/timeseries.csv"
point = ARGC >= 2 ? ARG2 : ""

# Single-quoted for the shell, so any directory name works.
sq(s) = (sq_p = strstrt(s, "'")) == 0 ? s : s[1:sq_p - 1] . "'\\''" . sq(s[sq_p + 1:])
q(s) = "'" . sq(s) . "'"
# csv(line, f): splits a CSV line into f[1..n] (quoted fields allowed, as a
# sweep value like `normal(0.1, 0.02)` is quoted); gq(s): s as a gnuplot string.
AWKLIB = 'function csv(line, f,    n, i, c, qt, cur) { \
    if (index(line, "\"") == 0) return split(line, f, ","); \
    n = 0; cur = ""; qt = 0; \
    for (i = 1; i <= length(line); i++) { \
        c = substr(line, i, 1); \
        if (qt && c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ } \
        else if (c == "\"") qt = !qt; \
        else if (c == "," && !qt) { f[++n] = cur; cur = "" } \
        else cur = cur c } \
    f[++n] = cur; return n } \
function gq(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" } '

# Column positions from the header, so the script survives added columns.
awk(vars, prog) = system("awk " . vars . " '" . AWKLIB . prog . "' " . q(file))
if (system("test -r " . q(file) . " && echo ok") ne "ok") { print "timeseries.gp: cannot read " . file; exit status 1 }
col(name) = int(awk("-v N=" . q(name), \
                    'NR == 1 { n = csv($0, h); for (i = 1; i <= n; i++) if (h[i] == N) { print i; exit } exit }'))
c_strat = col("strategy"); c_rep = col("replication"); c_t = col("time_s")
c_arr = col("arrivals"); c_ref = col("refused")
if (c_strat == 0 || c_arr == 0) { print "timeseries.gp: " . file . " is not a herd timeseries"; exit status 1 }

# One pass over the file: the first line is gnuplot assignments (strategies,
# bucket width, axis ranges, the point's label, or err), then one block per
# strategy of "time_s arrivals refused" for replication 0 of the point.
select = ' \
    NR == 1 { csv($0, h); next } \
    { csv($0, f); key = ""; \
      for (i = 1; i < S; i++) key = key (i > 1 ? "," : "") f[i]; \
      if (!(key in seen)) { seen[key] = 1; if (np++ < 20) pts = pts (np > 1 ? " | " : "") key } \
      if (NR == 2 && !HASP) P = key; \
      if (key != P || f[R] != 0) next; \
      if (label == "") for (i = 1; i < S; i++) label = label (i > 1 ? ", " : "") h[i] " = " f[i]; \
      s = f[S]; t = f[T] + 0; a = f[A] + 0; r = f[F] + 0; \
      if (s != last) { end[ns] = nl; tend[ns] = lt; strats = strats (ns++ ? " " : "") s; last = s } \
      else if (t > lt && (bucket == 0 || t - lt < bucket)) bucket = t - lt; \
      lt = t; \
      if (a + r > 0 && t > tmax) tmax = t; \
      if (a > amax) amax = a; \
      if (r > fmax) fmax = r; \
      L[++nl] = f[T] " " f[A] " " f[F] } \
    END { \
      if (ns == 0) { \
        if (S > 1 && np > 0) print "err = " gq("no sweep point \"" P "\" in " FILENAME "; points: " pts (np > 20 ? " | ..." : "")); \
        else if (HASP && P != "") print "err = " gq(FILENAME " has no sweep columns; POINT applies to swept directories"); \
        else print "err = " gq("no data in " FILENAME); \
        exit } \
      printf "ns = %d; strategies = %s; bucket = %.17g; tmax = %.17g; amax = %.17g; fmax = %.17g; label = %s\n", \
             ns, gq(strats), bucket, tmax, amax, fmax, gq(label); \
      end[ns] = nl; tend[ns] = lt; \
      for (k = 1; k <= ns; k++) { \
          for (i = end[k - 1] + 1; i <= end[k]; i++) print L[i] > OUTF; \
          printf "%.17g 0 0\n\n\n", tend[k] + (bucket > 0 ? bucket : 1) > OUTF } }'
# The selected series go to a temporary file (gnuplot strings and
# datablocks are not meant for megabytes), removed at the end.
tmp = system("mktemp /tmp/herd-timeseries.XXXXXX")
out = awk(sprintf("-v S=%d -v R=%d -v T=%d -v A=%d -v F=%d -v HASP=%d -v OUTF=", \
                  c_strat, c_rep, c_t, c_arr, c_ref, ARGC >= 2) . q(tmp) . " -v P=" . q(point), select)
err = ""; ns = 0
eval out
if (err ne "" || ns == 0) { system("rm -f " . q(tmp)) }
if (err ne "") { print "timeseries.gp: " . err; exit status 1 }
if (ns == 0) { print "timeseries.gp: cannot read " . file; exit status 1 }

n = ns
if (bucket <= 0) { bucket = 1 }
# One empty bucket of margin after the last busy one.
tmax = tmax + 2 * bucket
# The rate axis is scaled to the arrivals (the load the server must carry);
# refusals above it are clipped at the top of the panel.
ymax = amax / bucket
if (ymax <= 0) { ymax = fmax / bucket }
if (ymax <= 0) { ymax = 1 }
where = label eq "" ? "" : label . ", "

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size 1000, 150 * n + 90 font ",9"
    } else {
        set terminal svg noenhanced size 1000, 150 * n + 90 font ",9"
    }
    set output dir . "/timeseries." . fmt
    set multiplot layout n, 1 title sprintf("Load on the server, %sreplication 0 (%g s buckets)", where, bucket)
    set xrange [0:tmax]
    set yrange [0:ymax * 1.05]
    set grid ytics
    set lmargin 12
    set ylabel "attempts/s"
    set key top right
    do for [i = 1:n] {
        s = word(strategies, i)
        if (i == n) { set xlabel "time (s)"; set format x "%g" } else { unset xlabel; set format x "" }
        plot tmp index (i - 1) using 1:($3 / bucket) with steps lw 1 lc rgb "#f4a582" title s . ": refused", \
             tmp index (i - 1) using 1:($2 / bucket) with steps lw 1.5 lc rgb "#1f4e79" title s . ": arriving"
    }
    unset multiplot
    unset output
}
system("rm -f " . q(tmp))
