#!/bin/sh
# tests/shard.sh - shards, merge and MPI give the outputs of one process.
#
#   sh tests/shard.sh ./herd [./herd-mpi]
#
# The identity: `herd run --shard K/N` for every K, then `herd merge`,
# writes the same bytes as a plain run (every CSV and manifest.txt), for
# several N and scenarios (sweeps, variants, tools).  With herd-mpi and
# mpirun, `mpirun -np 3 herd-mpi run --mpi` does too.  And merge refuses,
# in one line with exit 2 and nothing written: a missing shard, a shard
# given twice, a shard of another plan, a damaged or truncated file, a file
# that is not a partial result.
set -u
HERD_ARG=${1:-./herd}
case $HERD_ARG in /*) HERD=$HERD_ARG ;; *) HERD=$(pwd)/$HERD_ARG ;; esac
MPI=${2:-}
T=$(mktemp -d /tmp/herd-shard.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL $*"; }

same_dirs() { # same_dirs A B: every file of A is in B with the same bytes, and no more
    for f in "$1"/*; do
        cmp -s "$f" "$2/$(basename "$f")" || { echo "$(basename "$f") differs"; return 1; }
    done
    [ "$(ls "$1" | wc -l)" -eq "$(ls "$2" | wc -l)" ] || { echo "file sets differ"; return 1; }
}

# identity NAME N SCENARIO ARGS...
identity() {
    name=$1 n=$2 scn=$3
    shift 3
    "$HERD" run "$scn" "$@" -o "$T/$name-single" --quiet || { bad "$name: single run failed"; return; }
    k=1 dirs=""
    while [ "$k" -le "$n" ]; do
        "$HERD" run "$scn" "$@" -o "$T/$name-$k" --quiet --jobs 1 --shard "$k/$n" || { bad "$name: shard $k/$n failed"; return; }
        dirs="$dirs $T/$name-$k"
        k=$((k + 1))
    done
    # shellcheck disable=SC2086
    "$HERD" merge "$T/$name-merged" $dirs --quiet || { bad "$name: merge failed"; return; }
    if why=$(same_dirs "$T/$name-single" "$T/$name-merged"); then ok; else bad "$name: merged /= single: $why"; fi
}

identity occ-3 3 scenarios/aws-2015-occ.ini --replications 4 --set 'sweep clients.values=10:40:10'
identity occ-7 7 scenarios/aws-2015-occ.ini --replications 3 --set 'sweep clients.values=10,30'
identity herd-2 2 scenarios/thundering-herd.ini --replications 3 --set clients.count=300 --set run.baseline=exponential
identity tools-4 4 scenarios/agent-tools.ini --replications 2 --set clients.count=60
identity one-shard 1 scenarios/idempotency.ini --replications 2 --set clients.count=50
# the mechanism series (mechanisms.csv) travels through partial.herd too
identity mech-2 2 scenarios/metastable.ini --replications 2 --set clients.count=60000 --set run.timeseries=all
# and so does input.csv, the data a scenario's results are laid over
identity data-2 2 scenarios/incident-replay.ini --replications 2
[ -f "$T/data-2-merged/input.csv" ] && ok || bad "data-2: the merge wrote no input.csv"

expect_refused() { # expect_refused NAME FRAGMENT DIRS...
    name=$1 frag=$2
    shift 2
    "$HERD" merge "$T/refused-$name" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" -ne 2 ]; then bad "merge $name: exit $rc, want 2: $(cat "$T/err")"
    elif [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -qF -- "$frag" "$T/err"; then bad "merge $name: message: $(cat "$T/err")"
    elif [ -e "$T/refused-$name" ]; then bad "merge $name: wrote output"
    else ok; fi
}

expect_refused missing "shard 2/3 is missing" "$T/occ-3-1" "$T/occ-3-3"
expect_refused twice "given twice" "$T/occ-3-1" "$T/occ-3-2" "$T/occ-3-2"
expect_refused other-plan "a shard of another plan" "$T/occ-3-1" "$T/occ-7-2" "$T/occ-3-3"
cp -r "$T/occ-3-2" "$T/flipped"
printf 'X' | dd of="$T/flipped/partial.herd" bs=1 seek=300 conv=notrunc 2>/dev/null
expect_refused flipped-byte "damaged or truncated" "$T/occ-3-1" "$T/flipped" "$T/occ-3-3"
mkdir -p "$T/truncated"
head -c 500 "$T/occ-3-2/partial.herd" >"$T/truncated/partial.herd"
expect_refused truncated "damaged or truncated" "$T/occ-3-1" "$T/truncated" "$T/occ-3-3"
mkdir -p "$T/foreign"
cp scenarios/thundering-herd.ini "$T/foreign/partial.herd"
expect_refused foreign "not a herd partial results file" "$T/occ-3-1" "$T/foreign" "$T/occ-3-3"
expect_refused no-file "cannot open" "$T/occ-3-1" "$T/nowhere" "$T/occ-3-3"

# A shard of another split (same plan, another N): named as such, and the
# values shown differ
"$HERD" run scenarios/aws-2015-occ.ini --replications 4 --set 'sweep clients.values=10:40:10' --jobs 1 \
    --shard 2/4 -o "$T/occ-4-2" --quiet || bad "occ-4-2 failed"
expect_refused other-split "shard 2/4, but" "$T/occ-3-1" "$T/occ-4-2"

# The fingerprint covers every data file's bytes: a capacity_file rewritten
# between two shards (same name, same number of rows) is refused, and the
# two fingerprints shown differ.
mkdir -p "$T/cap/data"
sed 's/replications = 5/replications = 2/; s/horizon_s = 1900/horizon_s = 1300/' scenarios/incident-replay.ini >"$T/cap/s.ini"
printf 'time_s,rate_per_s\n0,20\n1200,20\n' >"$T/cap/data/trace.csv"
cp scenarios/data/latency-histogram.csv "$T/cap/data/"
printf 'time_s,workers_factor,speed_factor,error_rate\n0,1,1,0\n900,0.3,1,0.02\n1140,1,1,0\n' >"$T/cap/data/capacity.csv"
"$HERD" run "$T/cap/s.ini" --shard 1/2 -o "$T/cap-1" --quiet || bad "cap shard 1 failed"
printf 'time_s,workers_factor,speed_factor,error_rate\n0,1,1,0\n900,0.1,1,0.02\n1140,1,1,0\n' >"$T/cap/data/capacity.csv"
"$HERD" run "$T/cap/s.ini" --shard 2/2 -o "$T/cap-2" --quiet || bad "cap shard 2 failed"
expect_refused capacity-rewritten "a shard of another plan" "$T/cap-1" "$T/cap-2"
if grep -q 'fingerprints \([0-9a-f]*\) and \1)' "$T/err"; then bad "capacity-rewritten: the same fingerprint twice: $(cat "$T/err")"; else ok; fi

# partial.herd that is a FIFO (or a directory): refused at once, never a hang
mkdir -p "$T/fifo-shard" "$T/dir-shard/partial.herd"
if mkfifo "$T/fifo-shard/partial.herd" 2>/dev/null; then
    timeout 20 "$HERD" merge "$T/refused-fifo" "$T/occ-3-1" "$T/fifo-shard" >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF "is not a regular file" "$T/err" && [ ! -e "$T/refused-fifo" ]; then ok
    else bad "merge fifo: exit $rc: $(cat "$T/err")"; fi
fi
expect_refused dir-shard "is a directory" "$T/occ-3-1" "$T/dir-shard"

# the Slurm recipe of doc/scale.md, with the array variables set by hand
for k in 1 2 3 4; do
    SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=4 sh -c \
        '"$0" run scenarios/aws-2015-occ.ini --replications 4 --set "sweep clients.values=10:40:10" --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT -o "$1/shards/$SLURM_ARRAY_TASK_ID" --quiet' \
        "$HERD" "$T/slurm" || bad "slurm task $k failed"
done
"$HERD" merge "$T/slurm/out" "$T"/slurm/shards/* --quiet || bad "slurm merge failed"
if why=$(same_dirs "$T/occ-3-single" "$T/slurm/out"); then ok; else bad "slurm recipe /= single: $why"; fi

# bad --shard values are refused before anything runs
for v in 0/3 4/3 3 a/b 1/0 1/5000 -1/2; do
    "$HERD" run scenarios/thundering-herd.ini --shard "$v" -o "$T/bad-shard" --quiet 2>"$T/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -qF -- "--shard $v: expected K/N" "$T/err" && [ ! -e "$T/bad-shard" ]; then ok
    else bad "--shard $v: exit $rc: $(cat "$T/err")"; fi
done

# MPI: 3 ranks (a coordinator and two workers) give the single-process bytes
if [ -n "$MPI" ] && [ -x "$MPI" ] && command -v mpirun >/dev/null; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    for np in 1 3; do
        mpirun --oversubscribe -np $np --mca btl self,vader "$MPI" run scenarios/aws-2015-occ.ini --replications 4 \
            --set 'sweep clients.values=10:40:10' -o "$T/mpi-$np" --quiet --mpi >"$T/mpi.out" 2>&1 ||
            { bad "mpirun -np $np failed: $(tail -3 "$T/mpi.out")"; continue; }
        if why=$(same_dirs "$T/occ-3-single" "$T/mpi-$np"); then ok; else bad "mpi -np $np /= single: $why"; fi
    done
    # the hostfile recipe of doc/scale.md, on this host
    echo "localhost slots=3" >"$T/hosts"
    mpirun --hostfile "$T/hosts" -np 3 --mca btl self,vader "$MPI" run scenarios/aws-2015-occ.ini --replications 4 \
        --set 'sweep clients.values=10:40:10' -o "$T/mpi-hostfile" --quiet --mpi >"$T/mpi.out" 2>&1 &&
        why=$(same_dirs "$T/occ-3-single" "$T/mpi-hostfile") && ok || bad "mpi hostfile: $why $(tail -3 "$T/mpi.out")"
    mpirun --oversubscribe -np 3 --mca btl self,vader "$MPI" run scenarios/thundering-herd.ini --replications 3 \
        --set clients.count=300 --set run.baseline=exponential -o "$T/mpi-herd" --quiet --mpi >"$T/mpi.out" 2>&1 &&
        why=$(same_dirs "$T/herd-2-single" "$T/mpi-herd") && ok || bad "mpi thundering-herd: $why $(tail -3 "$T/mpi.out")"
else
    echo "shard: MPI not tested (no herd-mpi or mpirun)"
fi

echo "shard: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
