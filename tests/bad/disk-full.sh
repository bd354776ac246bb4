# Disk full while writing the CSVs: a file-size limit makes every write past 4 KiB
# (8 blocks) fail with EFBIG, as ENOSPC would.  herd must exit 1 naming the file,
# and leave neither a partial CSV nor a temporary behind.
# Run by tests/bad.sh as: sh disk-full.sh HERD TMPDIR
HERD=$1 T=$2
out="$T/disk-full"
(ulimit -f 8 && "$HERD" run scenarios/thundering-herd.ini -o "$out" --quiet --replications 2 --set clients.count=2000) \
    2>"$T/disk-full.err"
rc=$?
[ "$rc" -eq 1 ] || { echo "exit $rc, want 1: $(cat "$T/disk-full.err")"; exit 1; }
grep -q "write failed: File too large" "$T/disk-full.err" || { echo "message: $(cat "$T/disk-full.err")"; exit 1; }
[ ! -e "$out" ] || { echo "left $out: $(ls -A "$out")"; exit 1; }
exit 0
