# sweep.gp - how each strategy's results move along a sweep: one figure per
# metric, x = the first swept key, one line per strategy, 95% CI error bars.
#
#   gnuplot -c plots/sweep.gp DIR [SCALE]
#
# Reads DIR/aggregate.csv of a swept run (--sweep or [sweep]: the columns
# before `strategy`, one per swept key) and writes DIR/sweep_M.png and
# DIR/sweep_M.svg for M in completion_time_s, calls, peak_arrivals_per_s,
# p99_latency_s and failures.  Points are M_mean, bars +/- M_ci95 (none with
# a single replication), strategies nudged apart along x so that equal
# values stay visible.  x: the first sweep column's values in numeric order,
# on a log axis when that spreads them better (0.1, 0.2, 0.5, 1, 2, 5);
# non-numeric values, such as distributions, evenly in file order.  A second
# sweep column gives one panel per value, all with the same axes; further
# sweep columns are held at the first row's values, named in the title.
# SCALE of the y axis: auto (default: log when every mean is positive and
# they span two decades or more), log or linear.
#
#   gnuplot -c plots/sweep.gp DIR linear compare
#
# is how compare.gp draws a swept DIR: compare.csv's
# completion_time_s_change_pct (the baseline strategy left out) into
# DIR/compare.png and DIR/compare.svg.

if (ARGC < 1) { print "usage: gnuplot -c plots/sweep.gp DIR [auto|log|linear]"; exit status 2 }
dir = ARG1
scale = ARGC >= 2 ? ARG2 : "auto"
compare = ARGC >= 3 && ARG3 eq "compare"
if (scale ne "auto" && scale ne "log" && scale ne "linear") {
    print "sweep.gp: SCALE is auto, log or linear, not '" . scale . "'"; exit status 2
}
file = dir . (compare ? "/compare.csv" : "/aggregate.csv")
me = compare ? "compare.gp" : "sweep.gp"
metrics = compare ? "completion_time_s" : "completion_time_s calls peak_arrivals_per_s p99_latency_s failures"

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
awk(vars, prog) = system("awk " . vars . " '" . AWKLIB . prog . "' " . q(file))
if (system("test -r " . q(file) . " && echo ok") ne "ok") { print me . ": cannot read " . file; exit status 1 }

# One pass per metric.  Columns are found by header name.  The first output
# line is gnuplot assignments (or err); then one block "x mean ci95" per
# (panel, strategy), panels outermost, x in order (an empty block is one
# NaN line, so block numbers stay (panel - 1) * ns + strategy - 1).
select = ' \
    BEGIN { NUM = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$" } \
    NR == 1 { n = csv($0, h); \
              for (i = n; i >= 1; i--) { if (h[i] == "strategy") S = i; if (h[i] == MEAN) M = i; \
                                         if (h[i] == CI) C = i; if (h[i] == "baseline") B = i; \
                                         if (h[i] == "replications") RP = i } \
              if (!S || !M) { bad = 1; exit } \
              nsw = S - 1; if (nsw < 1) exit; next } \
    { csv($0, f); \
      if (NR == 2) { for (i = 3; i <= nsw; i++) { fix[i] = f[i]; fixed = fixed (i > 3 ? ", " : "") h[i] " = " f[i] } \
                     reps = RP ? f[RP] : ""; base = B ? f[B] : "" } \
      for (i = 3; i <= nsw; i++) if (f[i] != fix[i]) next; \
      if (SKIPB && f[S] == f[B]) next; \
      s = f[S]; x = f[1]; g = nsw >= 2 ? f[2] : ""; \
      if (!(s in si)) { si[s] = ++ns; strats = strats (ns > 1 ? " " : "") s } \
      if (!(g in gi)) { gi[g] = ++ng; gn[ng] = g } \
      if (!(x in xi)) { xi[x] = ++nx; xn[nx] = x; if (x !~ NUM) nonnum = 1 } \
      y = f[M]; e = C ? f[C] : ""; \
      if (y !~ NUM) next; \
      if (e !~ NUM) { e = 0; noci = 1 } \
      y += 0; e += 0; if (e < 0) e = -e; \
      k = gi[g] SUBSEP si[s] SUBSEP xi[x]; Y[k] = y; E[k] = e; \
      if (!ny++) { lo = y - e; hi = y + e; ymin = y; ymax = y; allpos = 1 } \
      if (y - e < lo) lo = y - e; if (y + e > hi) hi = y + e; \
      if (y < ymin) ymin = y; if (y > ymax) ymax = y; \
      if (y <= 0) allpos = 0; \
      b = y - e > 0 ? y - e : y; if (y > 0 && (minpos == "" || b < minpos)) minpos = b } \
    END { \
      if (bad) { print "err = " gq(FILENAME ": no column " (S ? MEAN : "strategy")); exit } \
      if (nsw < 1) { print "err = " gq(FILENAME " has no sweep columns (run herd with --sweep or a [sweep] section)"); exit } \
      if (ny == 0) { print "err = " gq("no values of " MEAN " in " FILENAME); exit } \
      for (i = 1; i <= nx; i++) ord[i] = i; \
      if (!nonnum) for (i = 2; i <= nx; i++) { \
          v = ord[i]; for (j = i - 1; j >= 1 && xn[ord[j]] + 0 > xn[v] + 0; j--) ord[j + 1] = ord[j]; ord[j + 1] = v } \
      gaplin = gaplog = 1; \
      if (!nonnum && nx > 1) { \
          a = xn[ord[1]] + 0; z = xn[ord[nx]] + 0; \
          for (i = 2; i <= nx; i++) { \
              u = xn[ord[i - 1]] + 0; v = xn[ord[i]] + 0; \
              if (z > a && (v - u) / (z - a) < gaplin) gaplin = (v - u) / (z - a); \
              if (a > 0 && z > a && log(v / u) / log(z / a) < gaplog) gaplog = log(v / u) / log(z / a) } \
          if (a <= 0) gaplog = 0 } \
      printf "ns = %d; strategies = %s; ng = %d; nx = %d; xnum = %d; noci = %d; ", ns, gq(strats), ng, nx, !nonnum, noci; \
      printf "xkey = %s; gkey = %s; fixed = %s; reps = %s; baseline = %s; ", gq(h[1]), gq(nsw >= 2 ? h[2] : ""), \
             gq(fixed), gq(reps), gq(base); \
      printf "lo = %.17g; hi = %.17g; ymin = %.17g; ymax = %.17g; allpos = %d; minpos = %.17g; ", \
             lo, hi, ymin, ymax, allpos, minpos + 0; \
      printf "xmin = %.17g; xmax = %.17g; gaplin = %.17g; gaplog = %.17g; array glab[%d]; array xlab[%d]", \
             nonnum ? 1 : xn[ord[1]], nonnum ? nx : xn[ord[nx]], gaplin, gaplog, ng, nx; \
      for (i = 1; i <= ng; i++) printf "; glab[%d] = %s", i, gq(gn[i]); \
      for (i = 1; i <= nx; i++) printf "; xlab[%d] = %s", i, gq(xn[ord[i]]); \
      printf "\n"; \
      for (g = 1; g <= ng; g++) for (s = 1; s <= ns; s++) { \
          m = 0; \
          for (i = 1; i <= nx; i++) { k = g SUBSEP s SUBSEP ord[i]; \
              if (k in Y) { printf "%s %.17g %.17g\n", nonnum ? i : xn[ord[i]], Y[k], E[k]; m++ } } \
          if (!m) print "NaN NaN 0"; \
          printf "\n\n" } }'

# One colour and point type per strategy, the same in every figure.
scolor(s) = s eq "immediate" ? "#7f7f7f" : s eq "constant" ? "#e69f00" : s eq "exponential" ? "#d55e00" : \
            s eq "full_jitter" ? "#0072b2" : s eq "equal_jitter" ? "#009e73" : \
            s eq "decorrelated_jitter" ? "#cc79a7" : "#56b4e9"
spt(s) = s eq "immediate" ? 1 : s eq "constant" ? 2 : s eq "exponential" ? 7 : s eq "full_jitter" ? 5 : \
         s eq "equal_jitter" ? 9 : s eq "decorrelated_jitter" ? 13 : 3
describe(m) = compare ? "change vs " . baseline . " (%)" : \
              m eq "completion_time_s" ? "completion_time_s (s)" : \
              m eq "calls" ? "calls (attempts at the server)" : \
              m eq "peak_arrivals_per_s" ? "peak_arrivals_per_s (attempts/s)" : \
              m eq "p99_latency_s" ? "p99_latency_s (s)" : \
              m eq "failures" ? "failures (requests)" : m

do for [metric in metrics] {
    mean_col = compare ? metric . "_change_pct_mean" : metric . "_mean"
    ci_col = compare ? metric . "_change_pct_ci95" : metric . "_ci95"
    out = awk("-v MEAN=" . q(mean_col) . " -v CI=" . q(ci_col) . " -v SKIPB=" . (compare ? "1" : "0"), select)
    nl = strstrt(out, "\n")
    err = ""; ns = 0
    eval (nl > 0 ? out[1:nl - 1] : out)
    if (err ne "") { print me . ": " . err; exit status 1 }
    if (ns == 0) { print me . ": cannot read " . file; exit status 1 }
    set print $D
    print out[nl + 1:]
    set print

    # y axis: log for data spanning decades (auto), else linear from 0.
    # (SCALE log drops the values <= 0, as the title then says.)
    logy = !compare && minpos > 0 && (scale eq "log" || (scale eq "auto" && allpos && ymax >= 100 * ymin))
    if (logy) {
        ylo = minpos / 1.5; yhi = hi * 1.5
    } else {
        ylo = lo < 0 ? lo : 0; yhi = hi > 0 ? hi : 0
        if (yhi <= ylo) { yhi = ylo + 1 }
        pad = 0.06 * (yhi - ylo)
        # (a little room under 0, so lines at 0 are not hidden by the border)
        ylo = lo < 0 ? ylo - pad : ylo - pad / 3; yhi = yhi + pad
    }
    # x axis: log when it spreads the values better (0.1, 0.2, 0.5, 1, 2, 5
    # or 100, 1000, 10000; not 20, 40, ..., 100): its smallest gap between
    # neighbours, as a share of the axis, is the larger.
    logx = xnum && xmin > 0 && gaplog > gaplin
    gap = logx ? gaplog : gaplin
    if (logx) {
        xlo = xmin / 1.3; xhi = xmax * 1.3
    } else {
        xpad = xmax > xmin ? 0.04 * (xmax - xmin) : (xmin != 0 ? 0.1 * abs(xmin) : 1)
        if (!xnum) { xpad = 0.5 }
        xlo = xmin - xpad; xhi = xmax + xpad
    }

    # Strategies are nudged apart along x (dodged) so equal values stay visible.
    dodge = ns > 1 ? (logx ? log(xhi / xlo) : xhi - xlo) * 0.006 : 0
    xd(x, s) = logx ? x * exp(dodge * (s - (ns + 1) / 2.0)) : x + dodge * (s - (ns + 1) / 2.0)

    what = compare ? metric . " change vs " . baseline : metric
    how = compare ? " (paired per replication; below 0: done sooner)" : ""
    ci = noci ? "no CI (1 replication)" : "mean and 95% CI" . (reps ne "" ? " over " . reps . " replications" : "")
    ftitle = sprintf("%s by %s%s\n%s%s%s%s", what, xkey, how, ci, ng > 1 ? "; one panel per " . gkey : "", \
                     fixed ne "" ? "; " . fixed : "", logy && !allpos ? " (values <= 0 not shown)" : "")
    cols = ng <= 3 ? ng : (ng == 4 ? 2 : 3)
    rows = int((ng + cols - 1) / cols)
    width = ng == 1 ? 980 : 360 * cols + 230
    height = ng == 1 ? 560 : 290 * rows + (xnum ? 125 : 165)
    name = compare ? "compare" : "sweep_" . metric

    do for [fmt in "png svg"] {
        if (fmt eq "png") {
            set terminal pngcairo noenhanced size width, height font ",10"
        } else {
            set terminal svg noenhanced size width, height font ",10"
        }
        set output dir . "/" . name . "." . fmt
        reset
        set grid
        if (!logy && lo < 0) { set xzeroaxis lt -1 lw 1 }
        set bars small
        if (logy) { set logscale y } else { unset logscale y }
        set format y "%g"
        if (logx) { set logscale x } else { unset logscale x }
        set xrange [xlo:xhi]
        set yrange [ylo:yhi]
        unset xtics
        if (xnum) {
            set xtics border out nomirror
            # A tic at every value, if their labels fit between them.
            xlen = 0
            do for [i = 1:nx] { xlen = strlen(xlab[i]) > xlen ? strlen(xlab[i]) : xlen }
            if (gap * (ng == 1 ? 640 : 270) >= 7 * xlen + 8) {
                set xtics (xlab[1] real(xlab[1]))
                do for [i = 2:nx] { set xtics add (xlab[i] real(xlab[i])) }
            }
        } else {
            set xtics border out nomirror rotate by -20 (xlab[1] 1)
            do for [i = 2:nx] { set xtics add (xlab[i] i) }
        }
        if (ng == 1) {
            set title ftitle
            set key outside right top vertical Left reverse
            set xlabel xkey
            set ylabel describe(metric)
            plot for [s = 1:ns] $D index (s - 1) using (xd($1, s)):2:3 with yerrorlines \
                 lw 1.5 ps 1 pt spt(word(strategies, s)) lc rgb scolor(word(strategies, s)) title word(strategies, s)
        } else {
            right = 1 - 220.0 / width
            set multiplot layout rows, cols title ftitle \
                margins 0.09, right, (xnum ? 70.0 : 110.0) / height, 1 - 100.0 / height spacing 0.07, 0.14
            do for [g = 1:ng] {
                set title gkey . " = " . glab[g]
                if (g == 1) { set key at screen right + 0.015, 1 - 100.0 / height left top vertical Left reverse } \
                else { unset key }
                if ((g - 1) % cols == 0) { set ylabel describe(metric) } else { unset ylabel }
                if (g > ng - cols) { set xlabel xkey } else { unset xlabel }
                plot for [s = 1:ns] $D index ((g - 1) * ns + s - 1) using (xd($1, s)):2:3 with yerrorlines \
                     lw 1.5 ps 1 pt spt(word(strategies, s)) lc rgb scolor(word(strategies, s)) title word(strategies, s)
            }
            unset multiplot
        }
        unset output
    }
}
