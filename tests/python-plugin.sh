#!/bin/sh
# herd's Python adapter (build/herd-python.so, doc/plugins.md): the proofs
# that a team's Python retry code runs exactly what it says.
#
#   3. tenacity's wait_random_exponential(multiplier=0.5, max=8) with
#      stop_after_attempt(5), a real tenacity.Retrying driven through
#      iter(), is byte-identical (every CSV) to the built-in full jitter
#      with base 0.5 s, cap 8 s, 5 attempts on thundering-herd.ini; the
#      adapter is not reentrant, so --jobs 2 runs the jobs one after the
#      other and gives the same bytes;
#   4. the seed team's shape (scenarios/team_retry.py: delay_for,
#      RetryBudget, classify_error, per-tool policies) for search_web (5
#      attempts, 0.5 s, 8 s) and send_email (1 attempt) equals herd's read
#      and irreversible presets on agent-tools.ini, every CSV; the same
#      module with another tool's policy must differ (the check can fail);
#   and urllib3's Retry(total=3, backoff_factor=0.5) through the adapter
#   equals herd's urllib3 preset (exponential) on thundering-herd.ini;
#   two shards of scenarios/team-retry.ini in two processes, merged, give
#   the bytes of one run (the way to parallel Python).
# Refusals: Python code that returns NaN, draws more uniforms than it
# declares, sleeps, or takes a key it does not know.
#
#   sh tests/python-plugin.sh ./herd
set -u
HERD=${1:-./herd}
case $HERD in /*) ;; *) HERD=$(pwd)/$HERD ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/herd-python.XXXXXX")
trap 'rm -rf "$T"' EXIT
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
export HERD_PYTHON_PLUGIN="$(pwd)/build/herd-python.so"
[ -f "$HERD_PYTHON_PLUGIN" ] || { echo "FAIL: $HERD_PYTHON_PLUGIN is not built (make python-plugin)"; exit 1; }

same() {
    n=0
    for f in "$1"/*.csv; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        cmp -s "$f" "$2/$(basename "$f")" || { bad "$3: $(basename "$f") differs"; return 1; }
    done
    [ "$n" -ge 3 ] && [ "$(ls "$1"/*.csv | wc -l)" = "$(ls "$2"/*.csv | wc -l)" ] || { bad "$3: not the same CSVs"; return 1; }
    ok
}
run() {
    out=$1; shift
    "$HERD" run "$@" -o "$T/$out" --quiet >"$T/$out.log" 2>&1 || { bad "$out: herd run failed: $(cat "$T/$out.log")"; return 1; }
}
cp scenarios/team_retry.py scenarios/team_tenacity.py "$T/"

# --- 3. tenacity ------------------------------------------------------------------
TH=scenarios/thundering-herd.ini
S="--set run.strategies=full_jitter --replications 2"
sed -e '/^base_s = /d' -e '/^cap_s = /d' -e '/^max_attempts = /d' "$TH" >"$T/th-tenacity.ini"
printf 'plugin = python:herd_adapters:tenacity\nplugin.factory = team_tenacity:retrying\n' >>"$T/th-tenacity.ini"
run ten-ref "$TH" $S --set retry.base_s=0.5 --set retry.cap_s=8 --set retry.max_attempts=5 --jobs 2
run ten1 "$T/th-tenacity.ini" $S --jobs 1 && same "$T/ten-ref" "$T/ten1" "tenacity, --jobs 1"
run ten2 "$T/th-tenacity.ini" $S --jobs 2 && same "$T/ten-ref" "$T/ten2" "tenacity, --jobs 2"

# --- 4. the seed team's shape -------------------------------------------------------
sed '/^\[variant/,$d' scenarios/agent-tools.ini >"$T/at-ref.ini"
team() { # team FILE TOOL-OF-search_web: the two tools through the team's module
    awk -v sw="$2" '{ print }
        /^\[tool search_web\]/ { print "plugin = python:herd_adapters:team\nplugin.module = team_retry\nplugin.tool = " sw }
        /^\[tool send_email\]/ { print "plugin = python:herd_adapters:team\nplugin.module = team_retry\nplugin.tool = send_email" }' \
        "$T/at-ref.ini" >"$1"
}
team "$T/at-team.ini" search_web
team "$T/at-wrong.ini" create_ticket
run at-ref "$T/at-ref.ini" --replications 3
run at-team "$T/at-team.ini" --replications 3 && same "$T/at-ref" "$T/at-team" "team_retry on agent-tools"
if run at-wrong "$T/at-wrong.ini" --replications 3; then
    if cmp -s "$T/at-ref/summary.csv" "$T/at-wrong/summary.csv"; then bad "another tool's policy changed nothing"; else ok; fi
fi

# --- urllib3 --------------------------------------------------------------------------
sed -e '/^base_s = /d' -e '/^cap_s = /d' -e '/^max_attempts = /d' -e 's/^\[retry\]/[retry]\npreset = urllib3/' "$TH" >"$T/th-u3ref.ini"
sed -e '/^base_s = /d' -e '/^cap_s = /d' -e '/^max_attempts = /d' "$TH" >"$T/th-u3.ini"
printf 'plugin = python:herd_adapters:urllib3\nplugin.total = 3\nplugin.backoff_factor = 0.5\n' >>"$T/th-u3.ini"
U="--set run.strategies=exponential --replications 2"
run u3-ref "$T/th-u3ref.ini" $U
run u3 "$T/th-u3.ini" $U && same "$T/u3-ref" "$T/u3" "urllib3 Retry"

# --- shards: the way to parallel Python (one interpreter per process) ------------------
SH="--set clients.count=500 --replications 2"
run sh-all scenarios/team-retry.ini $SH
"$HERD" run scenarios/team-retry.ini $SH --shard 1/2 -o "$T/sh1" --quiet >"$T/sh1.log" 2>&1 &
"$HERD" run scenarios/team-retry.ini $SH --shard 2/2 -o "$T/sh2" --quiet >"$T/sh2.log" 2>&1 &
wait
if "$HERD" merge "$T/sh-merged" "$T/sh1" "$T/sh2" --quiet >"$T/merge.log" 2>&1; then
    same "$T/sh-all" "$T/sh-merged" "two shards of team-retry.ini, merged"
else bad "merge: $(cat "$T/merge.log" "$T/sh1.log" "$T/sh2.log")"; fi
"$HERD" check scenarios/team-retry.ini --jobs 2 | grep -q '^threads: 1: a retry plugin is not reentrant' && ok ||
    bad "herd check does not say the jobs run one at a time"

# --- refusals -------------------------------------------------------------------------
cat >"$T/broken.py" <<'EOF'
import random
import time


class nan:
    def start(self, client, now, tool):
        return None

    def decide(self, client, call, o):
        return ("done",) if o.exc is None else ("retry", float("nan"))


class greedy(nan):
    def decide(self, client, call, o):
        return ("done",) if o.exc is None else ("retry", random.random() + random.random())


class sleeper(nan):
    def decide(self, client, call, o):
        time.sleep(1)
        return ("done",)
EOF
for c in nan greedy sleeper; do
    printf '[clients]\ncount = 50\n[outage 1]\nstart_s = 0\nend_s = 1\n[retry]\nplugin = python:broken:%s\n' "$c" >"$T/$c.ini"
done
# stops FILE PATTERN: herd run exits 1 with one line matching PATTERN, no summary
stops() {
    "$HERD" run "$1" -o "$T/r" --quiet >"$T/stop.out" 2>"$T/stop.err"
    rc=$?
    if [ "$rc" = 1 ] && [ "$(wc -l <"$T/stop.err")" = 1 ] && grep -q -- "$2" "$T/stop.err" && [ ! -e "$T/r/summary.csv" ]; then
        ok; else bad "$1: exit $rc: $(cat "$T/stop.err")"; fi
}
stops "$T/nan.ini" '^herd: plugin python: client [0-9]* at t = .* s: returned a delay that is not a finite number >= 0 (got nan)'
stops "$T/greedy.ini" 'ContractError: the code drew more than the 1 uniform(s) per decision'
stops "$T/sleeper.ini" 'ContractError: time.sleep(1) inside a decision'
printf '[clients]\ncount = 50\n[retry]\nplugin = python:herd_adapters:tenacity\nplugin.factory = team_tenacity:retrying\nplugin.wait = 3\n' >"$T/kw.ini"
"$HERD" check "$T/kw.ini" >/dev/null 2>"$T/kw.err"
rc=$?
if [ "$rc" = 2 ] && grep -q "kw.ini:4: \[retry\] plugin = python:herd_adapters:tenacity: .*TypeError: .*unexpected keyword argument 'wait'" "$T/kw.err"; then
    ok; else bad "unknown keyword: exit $rc: $(cat "$T/kw.err")"; fi

# --- herd plugin check ------------------------------------------------------------------
if (cd "$T" && "$HERD" plugin check python:herd_adapters:team module=team_retry tool=search_web) >"$T/check.out" 2>&1 &&
    grep -q '^determinism: ok' "$T/check.out" && grep -q '^isolation: ok' "$T/check.out"; then ok; else
    bad "plugin check team: $(cat "$T/check.out")"; fi

echo "python-plugin: $pass passed, $failn failed"
[ "$failn" = 0 ]
