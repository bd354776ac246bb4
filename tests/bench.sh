#!/bin/sh
# make bench: engine throughput and memory on the thundering-herd scenario
# at 10,000 and 1,000,000 clients (one thread, one replication of every
# strategy).  Prints events/s and peak resident memory; asserts nothing.
set -eu
HERD=${1:-./herd}
T=$(mktemp -d /tmp/herd-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
for n in 10000 1000000; do
    echo "== thundering-herd, $n clients, 6 strategies x 1 replication, 1 thread"
    "$HERD" run scenarios/thundering-herd.ini -o "$T/$n" --quiet --stats --jobs 1 \
        --replications 1 --set clients.count=$n 2>&1
done
