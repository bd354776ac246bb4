#!/bin/sh
# The metastability maps of doc/metastable.md (make figures): from the results of
# scenarios/metastable-map.ini, writes the figures' data (see the header
# of plots/metastable-map.gp) and draws plots/metastable-map.png and
# plots/metastable-boundaries.png with gnuplot.
#
#   sh tests/map-figure.sh RESULTS OUTDIR [NAME]
#
# The trigger axis is the spike's length (clients.spike_end_s - 100 s, the
# spike's start in scenarios/metastable-map.ini) or,
# when the results sweep clients.spike_rate_per_s, its height; the
# figures are OUTDIR/NAME.png and OUTDIR/NAME-boundaries.png (NAME:
# metastable-map, the boundaries then metastable-boundaries.png).
set -eu
RESULTS=$1 OUT=$2 NAME=${3:-metastable-map}
T=$(mktemp -d "${TMPDIR:-/tmp}/herd-map.XXXXXX")
trap 'rm -rf "$T"' EXIT
# variant, load, spike end (s) and the recovered columns, by name
awk -F, -v T="$T" '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
          if (!("recovered_mean" in c) || !("clients.rate_per_s" in c) || !("clients.spike_end_s" in c)) {
              print "map-figure.sh: not the aggregate.csv of metastable-map.ini" > "/dev/stderr"; exit 2 }
          height = "clients.spike_rate_per_s" in c
          print (height ? "height" : "length") > (T "/axis.txt")
          next }
{ v = $c["variant"]; l = $c["clients.rate_per_s"] + 0; t = height ? $c["clients.spike_rate_per_s"] + 0 : $c["clients.spike_end_s"] - 100
  if (!(v in sv)) { sv[v] = 1; V[++nv] = v }
  if (!(t in st)) { st[t] = 1; TT[++nt] = t }
  if (!(l in sl)) { sl[l] = 1; L[++nl] = l }
  m[v "|" l "|" t] = $c["recovered_mean"]; lo[v "|" l "|" t] = $c["recovered_lo"]; hi[v "|" l "|" t] = $c["recovered_hi"] }
END {
  # triggers and loads in increasing order (insertion sort: a few values)
  for (i = 2; i <= nt; i++) for (j = i; j > 1 && TT[j] + 0 < TT[j - 1] + 0; j--) { x = TT[j]; TT[j] = TT[j - 1]; TT[j - 1] = x }
  for (i = 2; i <= nl; i++) for (j = i; j > 1 && L[j] + 0 < L[j - 1] + 0; j--) { x = L[j]; L[j] = L[j - 1]; L[j - 1] = x }
  for (i = 1; i <= nv; i++) print V[i] > (T "/variants.txt")
  for (j = 1; j <= nt; j++) print TT[j] > (T "/triggers.txt")
  print "variant,load,trigger,row,recovered_mean,recovered_lo,recovered_hi" > (T "/map.csv")
  print "variant,idx,row,trigger,load95,load50" > (T "/boundary.csv")
  for (i = 1; i <= nv; i++) for (j = 1; j <= nt; j++) {
    b95 = -1; b50 = -1; ok95 = 1; ok50 = 1
    for (k = 1; k <= nl; k++) { key = V[i] "|" L[k] "|" TT[j]
      printf "%s,%s,%s,%d,%s,%s,%s\n", V[i], L[k], TT[j], j - 1, m[key], lo[key], hi[key] > (T "/map.csv")
      if (ok95 && m[key] >= 0.95) b95 = L[k]; else ok95 = 0
      if (ok50 && m[key] >= 0.5) b50 = L[k]; else ok50 = 0 }
    printf "%s,%d,%d,%s,%s,%s\n", V[i], i, j - 1, TT[j], b95, b50 > (T "/boundary.csv") }
}' "$RESULTS/aggregate.csv"
gnuplot -c plots/metastable-map.gp "$T"
B=$NAME-boundaries
[ "$NAME" = metastable-map ] && B=metastable-boundaries
cp "$T/metastable-map.png" "$OUT/$NAME.png.tmp"
cp "$T/metastable-boundaries.png" "$OUT/$B.png.tmp"
mv "$OUT/$NAME.png.tmp" "$OUT/$NAME.png"
mv "$OUT/$B.png.tmp" "$OUT/$B.png"
[ -z "${KEEP_MAP_DATA:-}" ] || cp "$T"/*.csv "$T"/*.txt "$KEEP_MAP_DATA"/
