# compare.gp - how much sooner (or later) each strategy finishes than the
# baseline strategy of the scenario ([run] baseline).
#
#   gnuplot -c plots/compare.gp DIR
#
# Reads DIR/compare.csv; writes DIR/compare.png and DIR/compare.svg: the
# paired change of completion_time_s against the baseline, in percent
# (negative: finishes sooner), mean and 95% CI over the replications; the
# baseline itself is left out.  Without sweeps, one bar per strategy; with
# sweeps, one line per strategy against the first swept key, drawn by
# sweep.gp (beside this script) exactly like its figures.

if (ARGC < 1) { print "usage: gnuplot -c plots/compare.gp DIR"; exit status 2 }
dir = ARG1
file = dir . "/compare.csv"
metric = "completion_time_s"

# Single-quoted for the shell, so any directory name works.
sq(s) = (sq_p = strstrt(s, "'")) == 0 ? s : s[1:sq_p - 1] . "'\\''" . sq(s[sq_p + 1:])
q(s) = "'" . sq(s) . "'"
# csv(line, f): splits a CSV line into f[1..n] (quoted fields allowed);
# gq(s): s as a gnuplot string.
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
awk(vars, prog) = system("awk " . vars . " '" . AWKLIB . prog . "' " . q(file))
if (system("test -r " . q(file) . " && echo ok") ne "ok") { print "compare.gp: cannot read " . file; exit status 1 }

col(name) = int(awk("-v N=" . q(name), \
                    'NR == 1 { n = csv($0, h); for (i = 1; i <= n; i++) if (h[i] == N) { print i; exit } exit }'))
c_strat = col("strategy")
if (c_strat == 0 || col("baseline") == 0) { print "compare.gp: " . file . " is not a herd compare.csv"; exit status 1 }

if (c_strat > 1) {
    # Swept: sweep.gp draws the lines.
    here = "."
    do for [i = strlen(ARG0):1:-1] { if (ARG0[i:i] eq "/" && here eq ".") { here = ARG0[1:i - 1] } }
    call here . "/sweep.gp" dir "linear" "compare"
    exit
}

# The first output line is gnuplot assignments (or err); then one block
# "position mean ci95" per strategy, in file order.
select = ' \
    BEGIN { NUM = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$" } \
    NR == 1 { n = csv($0, h); \
              for (i = n; i >= 1; i--) { if (h[i] == "strategy") S = i; if (h[i] == "baseline") B = i; \
                                         if (h[i] == MEAN) M = i; if (h[i] == CI) C = i; \
                                         if (h[i] == "replications") RP = i } \
              if (!M) { bad = 1; exit } next } \
    { csv($0, f); if (NR == 2) { base = f[B]; reps = RP ? f[RP] : "" } \
      if (f[S] == f[B] || f[M] !~ NUM) next; \
      y = f[M] + 0; e = f[C] ~ NUM ? f[C] + 0 : 0; if (f[C] !~ NUM) noci = 1; if (e < 0) e = -e; \
      if (!ns) { lo = y - e; hi = y + e } \
      if (y - e < lo) lo = y - e; if (y + e > hi) hi = y + e; \
      strats = strats (ns++ ? " " : "") f[S]; \
      L[ns] = sprintf("%d %.17g %.17g", ns, y, e) } \
    END { \
      if (bad) { print "err = " gq(FILENAME ": no column " MEAN); exit } \
      if (!ns) { print "err = " gq("no strategy besides the baseline in " FILENAME); exit } \
      printf "ns = %d; strategies = %s; baseline = %s; reps = %s; noci = %d; lo = %.17g; hi = %.17g\n", \
             ns, gq(strats), gq(base), gq(reps), noci, lo, hi; \
      for (i = 1; i <= ns; i++) printf "%s\n\n\n", L[i] }'
out = awk("-v MEAN=" . metric . "_change_pct_mean -v CI=" . metric . "_change_pct_ci95", select)
nl = strstrt(out, "\n")
err = ""; ns = 0
eval (nl > 0 ? out[1:nl - 1] : out)
if (err ne "") { print "compare.gp: " . err; exit status 1 }
if (ns == 0) { print "compare.gp: cannot read " . file; exit status 1 }
set print $D
print out[nl + 1:]
set print

# One colour per strategy, the same as in sweep.gp.
scolor(s) = s eq "immediate" ? "#7f7f7f" : s eq "constant" ? "#e69f00" : s eq "exponential" ? "#d55e00" : \
            s eq "full_jitter" ? "#0072b2" : s eq "equal_jitter" ? "#009e73" : \
            s eq "decorrelated_jitter" ? "#cc79a7" : "#56b4e9"

# y range: 0 and every bar with its CI, plus room for the value labels.
ylo = lo < 0 ? lo : 0; yhi = hi > 0 ? hi : 0
if (yhi <= ylo) { yhi = ylo + 1 }
pad = 0.12 * (yhi - ylo)
ylo = ylo < 0 ? ylo - pad : ylo; yhi = yhi > 0 ? yhi + pad : yhi
lpad = 0.04 * (yhi - ylo)
ci = noci ? "no CI (1 replication)" : "mean and 95% CI" . (reps ne "" ? " over " . reps . " replications" : "")
width = 160 + 120 * (ns > 6 ? ns : 6)

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo noenhanced size width, 520 font ",10"
    } else {
        set terminal svg noenhanced size width, 520 font ",10"
    }
    set output dir . "/compare." . fmt
    set title sprintf("%s change vs %s, paired per replication\n%s (below 0: lower than %s)", \
                      metric, baseline, ci, baseline)
    set ylabel "change in " . metric . " vs " . baseline . " (%)"
    set xrange [0.4:ns + 0.6]
    set yrange [ylo:yhi]
    set xtics border out nomirror ("" 1)
    do for [i = 1:ns] { set xtics add (word(strategies, i) i) }
    set grid ytics
    set xzeroaxis lt -1 lw 1
    set boxwidth 0.6
    set style fill solid 0.75 border -1
    set bars small
    unset key
    plot for [i = 1:ns] $D index (i - 1) using 1:2:3 with boxerrorbars lc rgb scolor(word(strategies, i)), \
         $D using 1:($2 >= 0 ? $2 + $3 + lpad : $2 - $3 - lpad):(sprintf("%+.1f%%", $2)) with labels
    unset output
}
