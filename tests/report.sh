#!/bin/sh
# End-to-end tests of herd report: a small run with a baseline and a
# variant, its page (what it holds, that it makes no request, that every
# string of the files is escaped, that it is written whole and leaves
# nothing behind), the folders it refuses, and the page in a real browser:
# headless Chromium renders it with the network made impossible (no name
# resolves, the proxy is a closed port) and logged (--log-net-log), and the
# test asserts that the page asked for nothing but itself; the same check
# on a control page that does fetch proves the check can fail.  The
# screenshot is checked for its size (1280x2000) and for content (colours,
# the figures' outage shading).
#
#   sh tests/report.sh ./herd      (from the repository root; needs gnuplot,
#                                   chromium and python3: make deps installs them)
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/herd-report.test.XXXXXX)
trap 'rm -rf "$T"' EXIT
unset HERD_PLOTS HERD_PLOT_DATA
. "$ROOT/tests/lib.sh"
has() { grep -q -- "$1" "$2" && ok || bad "$3"; }
hasnt() { grep -q -- "$1" "$2" && bad "$3" || ok; }

# A scenario whose comments and values try to become markup.
cat >"$T/evil.ini" <<'EOF'
; </pre></table><script>alert("comment")</script><img src="http://evil.example/c.png"> & 'quotes'
[run]
name = report-test
strategies = exponential, full_jitter
replications = 3
seed = 11
baseline = exponential
baseline_variant = slow
horizon_s = 600

[clients]
count = 300
start = burst

[server]
workers = 10
queue = 50
service_time_s = exponential(0.05)

[outage 1]
start_s = 0
end_s = 5
mode = fail_fast
status = connection_refused

[retry]
base_s = 1
cap_s = 30
max_attempts = 6

[variant slow]
; <style>body{background:url(http://evil.example/bg.png)}</style>
retry.base_s = 2

[variant fast]
retry.base_s = 0.5
EOF
D=$T/run
"$HERD" run "$T/evil.ini" -o "$D" --quiet >"$T/run.out" 2>&1 && ok || bad "the test run failed: $(cat "$T/run.out")"
ls -a "$D" >"$T/before"

# --- the page ------------------------------------------------------------------
mkdir "$T/tmp"
TMPDIR=$T/tmp "$HERD" report "$D" >"$T/report.out" 2>&1 && ok || bad "herd report: $(cat "$T/report.out")"
P=$D/report.html
[ -s "$P" ] && ok || bad "no $P"
grep -qF "wrote $P" "$T/report.out" && ok || bad "herd report did not say what it wrote: $(cat "$T/report.out")"
ls -a "$D" | grep -v '^report.html$' | cmp -s - "$T/before" && ok || bad "herd report left other files in DIR: $(ls -a "$D")"
[ -z "$(ls -A "$T/tmp")" ] && ok || bad "herd report left its temporary figures: $(ls -A "$T/tmp")"
# self-contained: nothing to fetch
hasnt '<script' "$P" "the page holds a script"
grep -Eiq '(src|href)[[:space:]]*=[[:space:]]*["'"'"']?[[:space:]]*(https?:|//)' "$P" && bad "the page references an external URL" || ok
# (the style sheet and style attributes; the escaped comments may say url(http...) as text)
[ "$(grep -c '<style' "$P")" -eq 1 ] && ok || bad "the page has not one style sheet"
grep -o '<style>[^<]*</style>' "$P" | grep -Eiq '@import|url\(|@font-face' && bad "the page's style sheet imports something" || ok
grep -Eiq 'style="[^"]*(@import|url\([[:space:]]*["'"'"']?[[:space:]]*(https?:|//))' "$P" && bad "a style attribute fetches" || ok
grep -Fq 'url(http://evil.example/bg.png)' "$P" && ok || bad "the variant's comment is missing (the check above tests nothing)"
grep -Eiq '<(link|iframe|object|embed|img|image)[[:space:][:punct:]]' "$P" && bad "the page loads a resource element" || ok
has "Content-Security-Policy\" content=\"default-src 'none'" "$P" "the page has no CSP forbidding fetches"
# what it holds
has '<h1>herd report: report-test</h1>' "$P" "the page does not name the scenario"
for s in run headline recovery figures comparisons manifest all; do has "<section id=\"$s\">" "$P" "no section $s"; done
has '<th>completion_<wbr>time_<wbr>s</th>' "$P" "the headline table lacks completion_time_s"
has '&plusmn;' "$P" "the headline table has no CI"
has 'recovered' "$P" "no recovery results"
has 'compare.csv' "$P" "no comparisons against the baseline strategy"
has 'compare_variants.csv' "$P" "no comparisons against the baseline variant"
if grep -q '^--- resolved model' "$D/manifest.txt"; then has '<table class="model">' "$P" "the resolved model is not laid out"; fi
has 'scenario file' "$P" "the scenario file is missing"
# every figure of the folder, inline: the ones herd plot draws for it
mkdir "$T/figs" && cp "$D"/*.csv "$D/manifest.txt" "$T/figs/" && "$HERD" plot "$T/figs" --quiet && ok || bad "herd plot on a copy"
# (the time series once per variant, slow and fast, in place of herd plot's
# first variant's)
nfig=$(($(ls "$T/figs"/*.svg | wc -l) + 1))
nsvg=$(grep -o '<svg' "$P" | wc -l)
[ "$nfig" -ge 4 ] && [ "$nsvg" -eq "$nfig" ] && ok || bad "the page has $nsvg figures; herd plot draws $nfig - 1"
for f in "$T/figs"/*.svg; do n=$(basename "$f" .svg); [ "$n" = timeseries ] && continue
    has "<figure id=\"fig-$n\">" "$P" "figure $n missing"; done
for v in slow fast; do has "<figure id=\"fig-timeseries-$v\">" "$P" "no time series of variant $v"; done
# every string escaped: the comments are text, never markup
has '&lt;/pre&gt;&lt;/table&gt;&lt;script&gt;alert(&quot;comment&quot;)&lt;/script&gt;' "$P" "the scenario's comment is not escaped"
hasnt 'alert("comment")' "$P" "the comment's script reached the page"
hasnt '<img src="http://evil' "$P" "the comment's image reached the page"
hasnt '<style>body{background' "$P" "a variant's comment became a style"
# n/a cells: never a number for an undefined value
grep -q '>n/a</td>' "$P" && ok || bad "no n/a cell (offered_per_s is undefined for a burst)"
grep -Eq '<td[^>]*>-?nan' "$P" && bad "a nan reached the page" || ok

# -o FILE, written through a temporary renamed into place
"$HERD" report "$D" -o "$T/out/../share.html" --quiet 2>"$T/err" && bad "-o into a missing directory succeeded" || ok
"$HERD" report "$D" -o "$T/share.html" --quiet >"$T/q.out" 2>&1 && [ -s "$T/share.html" ] && [ ! -s "$T/q.out" ] && ok \
    || bad "-o FILE --quiet: $(cat "$T/q.out")"
ls -a "$T" | grep -q '^\.share\.html\.tmp' && bad "-o left a temporary" || ok
cmp -s "$T/share.html" "$P" && ok || bad "the page depends on where it is written"
"$HERD" report "$D" -o "$T/share.html" --quiet && cmp -s "$T/share.html" "$P" && ok || bad "a second report differs"
chmod a-w "$T/share.html" 2>/dev/null
mkdir "$T/ro" && cp "$T/share.html" "$T/ro/x.html" && chmod a-w "$T/ro"
if [ "$(id -u)" != 0 ]; then
    expect_fail rodir 1 "cannot create output file" "$HERD" report "$D" -o "$T/ro/x.html"
fi
chmod u+w "$T/ro"

# --- injection through the files: a variant name is refused by the scenario
# parser and by the CSV validation; a manifest line or section is escaped
printf '[clients]\ncount = 5\n[variant <script>alert(1)</script>]\nretry.base_s = 2\n' >"$T/vname.ini"
expect_fail vname 2 "a variant needs a name" "$HERD" run "$T/vname.ini" -o "$T/vname"
[ ! -e "$T/vname" ] && ok || bad "a refused scenario created its output directory"
cp -r "$D" "$T/tamper"
rm -f "$T/tamper/report.html"
sed -i 's/^slow,/<script>alert(2)<\/script>,/' "$T/tamper/aggregate.csv"
expect_fail tampered-csv 2 "aggregate.csv:" "$HERD" report "$T/tamper"
[ ! -e "$T/tamper/report.html" ] && ok || bad "a refused folder got a report"
cp -r "$D" "$T/man"
rm -f "$T/man/report.html"
printf 'reviewer: <img src=x onerror=alert(3)>\n--- incident <b>notes</b> ---\n</pre><script>alert(4)</script>\n--- end of incident notes ---\nn/a: p99_latency_s: every run: because <i>nothing</i>\n' >>"$T/man/manifest.txt"
"$HERD" report "$T/man" --quiet && ok || bad "a manifest with new lines and sections was refused"
M=$T/man/report.html
has '<th>reviewer</th><td><code>&lt;img src=x onerror=alert(3)&gt;</code>' "$M" "a new manifest line is not shown escaped"
has '<h3>incident &lt;b&gt;notes&lt;/b&gt;</h3>' "$M" "a new manifest section is not shown (escaped)"
has '&lt;/pre&gt;&lt;script&gt;alert(4)&lt;/script&gt;' "$M" "a new section's text is not escaped"
has '<code>p99_latency_s</code>: every run: because &lt;i&gt;nothing&lt;/i&gt;' "$M" "an undefined metric is not listed"
hasnt '<script' "$M" "a manifest's script reached the page"
hasnt 'onerror=alert(3)>' "$M" "a manifest's attribute reached the page"

# --- folders that are not herd's: exit status 2, nothing written
mkdir "$T/empty"
expect_fail empty 2 "not a herd results directory (no manifest.txt)" "$HERD" report "$T/empty"
expect_fail nodir 2 "not a directory" "$HERD" report "$T/nope"
expect_fail file 2 "not a directory" "$HERD" report "$T/evil.ini"
mkdir "$T/other" && echo "hello" >"$T/other/manifest.txt" && cp "$D/aggregate.csv" "$T/other/"
expect_fail notherd 2 'manifest.txt does not start with "herd "' "$HERD" report "$T/other"
"$HERD" run "$T/evil.ini" --shard 1/2 -o "$T/shard" --quiet && ok || bad "a shard run failed"
expect_fail shard 2 "a shard's partial results (partial.herd)" "$HERD" report "$T/shard"
mkdir "$T/noagg" && cp "$D/manifest.txt" "$T/noagg/"
expect_fail noagg 2 "no aggregate.csv" "$HERD" report "$T/noagg"
[ -z "$(ls -A "$T/empty")" ] && [ ! -e "$T/other/report.html" ] && [ ! -e "$T/noagg/report.html" ] && ok \
    || bad "a refused folder got files"
expect_fail operand 2 "report needs a results directory" "$HERD" report
expect_fail two 2 "report takes one directory" "$HERD" report "$D" "$D"
expect_fail badopt 2 "" "$HERD" report "$D" --nope
"$HERD" report --help | grep -q 'usage: herd report DIR' && ok || bad "report --help"
"$HERD" --help | grep -q 'herd report DIR' && ok || bad "herd --help does not list report"
grep -q '^\.B herd report' "$ROOT/herd.1" && ok || bad "herd.1 does not document herd report"

# --- the page in a real browser -------------------------------------------------
# Chromium is a dependency (make deps installs it): its absence is a failure.
if ! command -v chromium >/dev/null 2>&1; then
    bad "chromium not found (apt-get install chromium; make deps does)"
    echo "report: $pass passed, $failn failed"
    exit 1
fi
# shot PAGE PNG NETLOG: a screenshot of PAGE, 1280x2000, with every host
# unresolvable, a closed port as proxy, the browser's own background
# traffic off, and the network log kept.
shot() {
    rm -rf "$T/profile"
    timeout 300 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$T/profile" --no-first-run \
        --no-default-browser-check --disable-background-networking --disable-component-update --disable-sync \
        --disable-extensions --disable-default-apps --host-resolver-rules="MAP * ~NOTFOUND" \
        --proxy-server=127.0.0.1:9 --log-net-log="$3" --screenshot="$2" --window-size=1280,2000 \
        "file://$1" >"$T/chromium.out" 2>&1
}
# page_requests NETLOG: the URLs that pages asked for (the browser's own
# requests, whose initiator is "not an origin", aside), one per line.
page_requests() {
    python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
types = {v: k for k, v in d["constants"]["logEventTypes"].items()}
for e in d["events"]:
    p = e.get("params", {})
    if types.get(e["type"]) == "URL_REQUEST_START_JOB" and "url" in p and p.get("initiator") != "not an origin":
        print(p["url"])
EOF
}
shot "$P" "$T/shot.png" "$T/net.json" && ok || bad "chromium failed (exit status $?): $(tail -3 "$T/chromium.out")"
[ -s "$T/net.json" ] && ok || bad "chromium wrote no network log"
page_requests "$T/net.json" | grep -v '^file:' >"$T/requests"
[ ! -s "$T/requests" ] && ok || bad "the page made requests: $(head -3 "$T/requests")"
# the check can fail: a control page that fetches a style sheet and an image
printf '<!DOCTYPE html><html><head><link rel="stylesheet" href="http://evil.example/x.css"></head><body><img src="https://evil.example/x.png"></body></html>\n' >"$T/control.html"
shot "$T/control.html" "$T/control.png" "$T/control.json"
page_requests "$T/control.json" | grep -c 'evil.example' | grep -qx 2 && ok \
    || bad "the network check did not see the control page's two requests: $(page_requests "$T/control.json" | head -3)"
# the screenshot: a PNG of the window's size, not blank, with the figures
# drawn (the outage shading F7D9C4 of the timeseries figure)
stat=$(python3 "$ROOT/tests/pngstat.py" "$T/shot.png" F7D9C4)
echo "report: screenshot $(wc -c <"$T/shot.png") bytes: width height colours nonwhite% outage-pixels = $stat"
set -- $stat
[ "${1:-0}" = 1280 ] && [ "${2:-0}" = 2000 ] && ok || bad "the screenshot is not 1280x2000: $stat"
[ "${3:-0}" -ge 200 ] && ok || bad "the screenshot has ${3:-0} colours: blank or unstyled"
awk "BEGIN { exit !(${4:-0} >= 5 && ${4:-0} <= 80) }" && ok || bad "the screenshot is ${4:-0}% non-white: blank or broken"
[ "${5:-0}" -ge 5000 ] && ok || bad "the screenshot shows no figure (${5:-0} pixels of the outage shading)"
# the browser's own parse: the figures are SVG elements, no script
timeout 300 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$T/profile" --no-first-run \
    --disable-background-networking --host-resolver-rules="MAP * ~NOTFOUND" --proxy-server=127.0.0.1:9 \
    --dump-dom "file://$P" >"$T/dom.html" 2>/dev/null
[ "$(grep -o '<svg' "$T/dom.html" | wc -l)" -eq "$nfig" ] && ok || bad "the browser's DOM has not $nfig figures"
hasnt '<script' "$T/dom.html" "the browser's DOM has a script"
[ -n "${HERD_REPORT_SHOT:-}" ] && cp "$T/shot.png" "$HERD_REPORT_SHOT"

# --- a page to share: a title, a lead, the variants' time series, and every
# table inside a page 1280 pixels wide --------------------------------------------
# Workshop lesson 5 (5 variants, 8 columns in its table): --title, --lead (a
# Markdown file; a javascript: link stays text), one time series per variant
# by default, --variant to choose them, the manifest at the end.
L=$T/lesson5
"$HERD" run "$ROOT/scenarios/workshop/05-layers-metastability.ini" -o "$L" --quiet && ok || bad "lesson 5 did not run"
printf '# Why two layers never recover\n\nThe spike ends at 70 s; **two_layers** stays down (`recovered` = 0).\n\n- one layer recovers\n- [the paper](https://example.org/metastable) and [not a link](javascript:alert(5))\n' >"$T/lead.md"
"$HERD" report "$L" --title 'Lesson 5: layered retries' --lead "$T/lead.md" -o "$T/l5.html" --quiet && ok || bad "report --title --lead failed"
R=$T/l5.html
has '<h1>Lesson 5: layered retries</h1>' "$R" "--title is not the page's title"
has '<h2>Why two layers never recover</h2>' "$R" "the lead's heading is missing"
has '<strong>two_layers</strong> stays down (<code>recovered</code> = 0)' "$R" "the lead's text is not rendered"
has '<a href="https://example.org/metastable">the paper</a>' "$R" "the lead's link is missing"
hasnt 'href="javascript' "$R" "a javascript: link reached the page"
# the page opens with the title, the lead and the headline; the run and the
# manifest come last
order=$(grep -o '<h1>\|<h2>[^<]*' "$R" | tr '\n' '|')
case $order in '<h1>|<h2>Why two layers never recover|<h2>Headline results|'*'<h2>The run|<h2>Model and scenario|') ok ;;
    *) bad "the page's order: $order" ;; esac
for v in no_retries one_layer two_layers two_layers_quota two_layers_breaker; do
    has "<figure id=\"fig-timeseries-$v\">" "$R" "no time series of variant $v"
done
"$HERD" report "$L" --variant two_layers --variant one_layer -o "$T/l5v.html" --quiet && ok || bad "report --variant failed"
[ "$(grep -o 'id="fig-timeseries-[a-z_]*"' "$T/l5v.html" | tr '\n' ' ')" = 'id="fig-timeseries-two_layers" id="fig-timeseries-one_layer" ' ] \
    && ok || bad "--variant two_layers --variant one_layer: $(grep -o 'id="fig-timeseries-[a-z_]*"' "$T/l5v.html" | tr '\n' ' ')"
expect_fail novariant 2 "--variant nope:" "$HERD" report "$L" --variant nope -o "$T/nope.html"
expect_fail nolead 2 "report --lead $T/missing.md:" "$HERD" report "$L" --lead "$T/missing.md" -o "$T/nope.html"
[ ! -e "$T/nope.html" ] && ok || bad "a refused report was written"
# In Chromium at 1280 pixels: the page (every <details> opened) never
# scrolls sideways and no table, figure or block reaches past the body's
# content box. The page forbids scripts (its CSP), so a page of the test's
# frames it and measures (same origin with --allow-file-access-from-files).
cp "$R" "$T/frame-me.html"
cat >"$T/measure.html" <<'EOF'
<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="frame-me.html" style="width:1280px;height:2400px;border:0"></iframe>
<pre id="out">not measured</pre>
<script>
document.getElementById('f').onload = function () {
  var d = this.contentDocument, r = [], ds = d.querySelectorAll('details');
  for (var i = 0; i < ds.length; i++) ds[i].open = true;
  var b = d.body, cs = this.contentWindow.getComputedStyle(b);
  var right = b.getBoundingClientRect().right - parseFloat(cs.paddingRight);
  r.push('page ' + d.documentElement.scrollWidth + ' ' + d.documentElement.clientWidth);
  var els = d.querySelectorAll('table, pre, figure, svg, p, ul, h1, h2, h3, div');
  var n = 0;
  for (var i = 0; i < els.length; i++) {
    var e = els[i], x = e.getBoundingClientRect().right;
    if (e.getBoundingClientRect().width > 0) n++;
    if (x > right + 1 || e.scrollWidth > e.clientWidth + 1)
      r.push('over ' + e.tagName + ' ' + (e.className || '') + ' right ' + Math.round(x) + ' of ' + Math.round(right) + ' scroll ' + e.scrollWidth + '/' + e.clientWidth);
  }
  r.push('measured ' + n);
  document.getElementById('out').textContent = r.join('\n');
};
</script></body></html>
EOF
rm -rf "$T/profile"
timeout 300 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$T/profile" --no-first-run \
    --disable-background-networking --host-resolver-rules="MAP * ~NOTFOUND" --proxy-server=127.0.0.1:9 \
    --allow-file-access-from-files --virtual-time-budget=20000 --window-size=1300,2400 \
    --dump-dom "file://$T/measure.html" 2>/dev/null | sed -n '/<pre id="out">/,/<\/pre>/p' | sed 's/<[^>]*>//g' >"$T/measure.txt"
echo "report: at 1280 px: $(head -1 "$T/measure.txt"), $(grep -c '^over' "$T/measure.txt") element(s) too wide, $(sed -n 's/^measured //p' "$T/measure.txt") measured"
awk '/^page / { exit !($2 <= $3 && $3 >= 1200) }' "$T/measure.txt" && ok || bad "the page scrolls sideways at 1280 px: $(head -1 "$T/measure.txt")"
[ "$(sed -n 's/^measured //p' "$T/measure.txt")" -ge 50 ] 2>/dev/null && ok || bad "nothing measured: $(head -3 "$T/measure.txt")"
grep -q '^over' "$T/measure.txt" && bad "too wide at 1280 px: $(grep '^over' "$T/measure.txt" | head -5)" || ok
shot "$R" "$T/shot1280.png" "$T/net1280.json" && ok || bad "chromium failed on the lesson's page"
[ -n "${HERD_REPORT_SHOT:-}" ] && cp "$T/shot1280.png" "${HERD_REPORT_SHOT%.png}-1280.png"

echo "report: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
