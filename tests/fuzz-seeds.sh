#!/bin/sh
# tests/fuzz-seeds.sh - seed corpora for make fuzz's harnesses, from small
# real runs: partial.herd files of shards (fuzz_merge, as written and with
# the checksum switch on), results folders as "==> NAME <==" bundles
# (fuzz_plot), the data files of scenarios/ and tests/bad/ (fuzz_data), and
# herd serve's request paths and header values (fuzz_serve).  Existing seeds are kept.
#
#   sh tests/fuzz-seeds.sh ./herd build/fuzz-corpus
set -u
HERD=${1:-./herd}
C=${2:-build/fuzz-corpus}
T=$(mktemp -d /tmp/herd-seeds.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$C/merge" "$C/plot" "$C/data" "$C/serve"

# merge: one-shard plans (accepted) and a shard of three (refused: missing)
i=0
for args in "scenarios/thundering-herd.ini --set clients.count=30 --replications 2 --shard 1/1" \
            "scenarios/agent-tools.ini --set clients.count=10 --replications 1 --shard 1/1" \
            "scenarios/aws-2015-occ.ini --replications 1 --shard 1/1" \
            "scenarios/incident-replay.ini --replications 1 --shard 1/1" \
            "scenarios/thundering-herd.ini --set clients.count=30 --replications 3 --shard 2/3"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    "$HERD" run $args -o "$T/m$i" --quiet 2>/dev/null || continue
    { printf '\000'; cat "$T/m$i/partial.herd"; } >"$C/merge/shard-$i"
    { printf '\001'; cat "$T/m$i/partial.herd"; } >"$C/merge/shard-$i-fix"
done

# plot: results folders
bundle() { # bundle DIR OUT [gif]
    { [ "${3:-}" = gif ] && echo gif
      for f in aggregate.csv summary.csv timeseries.csv compare.csv tools.csv input.csv mechanisms.csv manifest.txt; do
          [ -f "$1/$f" ] && { echo "==> $f <=="; head -c 20000 "$1/$f"; }
      done; } >"$2"
}
i=0
for args in "scenarios/thundering-herd.ini --set clients.count=30 --replications 2 --set run.baseline=exponential" \
            "scenarios/agent-tools.ini --set clients.count=10 --replications 2" \
            "scenarios/aws-2015-occ.ini --replications 2" \
            "scenarios/incident-replay.ini --replications 2" \
            "scenarios/jitter-62-65-sensitivity.ini --replications 2 --set clients.count=20" \
            "scenarios/metastable.ini --replications 1 --set clients.count=2000 --set run.horizon_s=200"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    "$HERD" run $args -o "$T/p$i" --quiet 2>/dev/null || continue
    bundle "$T/p$i" "$C/plot/folder-$i"
    bundle "$T/p$i" "$C/plot/folder-$i-gif" gif
done

# report: the same folders, with compare_variants.csv
mkdir -p "$C/report" "$C/tune"
i=0
for d in "$T"/p*; do
    [ -d "$d" ] || continue
    i=$((i + 1))
    { for f in manifest.txt aggregate.csv compare.csv compare_variants.csv summary.csv timeseries.csv tools.csv mechanisms.csv; do
          [ -f "$d/$f" ] && { echo "==> $f <=="; head -c 20000 "$d/$f"; }
      done; } >"$C/report/folder-$i"
done
"$HERD" run scenarios/deadline.ini --replications 1 -o "$T/v" --quiet 2>/dev/null &&
    { for f in manifest.txt aggregate.csv compare_variants.csv; do
          [ -f "$T/v/$f" ] && { echo "==> $f <=="; head -c 20000 "$T/v/$f"; }
      done; } >"$C/report/variants"

# tune: flags, one per line
printf -- '--search\nretry.max_attempts=1:4:1\n--minimize\nfailures\n' >"$C/tune/a"
printf -- '--search\nretry.max_attempts=1,3\n--search\nretry.cap_s=0.05,0.1\n--minimize\nfailures\n--subject-to\namplification<=1.5\n--max-replications\n8\n' >"$C/tune/b"
printf -- '--search\nretry.base_s=0.001:0.01:0.003\n--maximize\nsuccesses\n--aggregate\nmean\n--sweep\nserver.workers=1,2\n--min-replications\n2\n--validation-replications\n4\n' >"$C/tune/c"
printf -- '--search\nlimits.limiter=none,token_bucket\n--minimize\np99_latency_s\n--subject-to\nfailures<=2\n--set\nserver.error_rate_503=0.5\n' >"$C/tune/d"

# data: every data file shipped or refused
for f in scenarios/data/*.csv tests/bad/data/*.csv tests/data/*.csv; do
    [ -f "$f" ] && cp "$f" "$C/data/$(echo "$f" | tr / _)"
done

# serve: request paths
n=0
for u in / /api/x?a=1 /_herd/info /_herd/stats /_herd/reset?seed=7 '/_herd/reset?seed=7&bucket_s=0.5&horizon_s=60' \
         '/_herd/reset?seed=18446744073709551615' '/_herd/reset?seed=-1' '/_herd/reset?bucket_s=1e6&seed=1' /_herd/ /_herd/x; do
    n=$((n + 1))
    printf '%s' "$u" >"$C/serve/path-$n"
done
# ... and header values (X-Herd-Deadline, X-Herd-Priority: the harness
# reads every input as one too)
n=0
for h in 1.5 0.300 12. .25 1000000000 1000000000.5 1e3 -1 sheddable critical; do
    n=$((n + 1))
    printf '%s' "$h" >"$C/serve/header-$n"
done
exit 0
