# Lost output is an error: herd keys, --help and the printed table to a
# full device exit 1 with a message.
HERD=$1 T=$2
[ -w /dev/full ] || { echo "skip: no /dev/full"; exit 0; }
"$HERD" keys >/dev/full 2>"$T/we.err"; rc=$?
[ "$rc" -eq 1 ] || { echo "keys: exit $rc, want 1"; exit 1; }
"$HERD" keys --list >/dev/full 2>"$T/we.err"; rc=$?
[ "$rc" -eq 1 ] || { echo "keys --list: exit $rc, want 1"; exit 1; }
"$HERD" --help >/dev/full 2>"$T/we.err"; rc=$?
[ "$rc" -eq 1 ] || { echo "--help: exit $rc, want 1"; exit 1; }
"$HERD" check scenarios/thundering-herd.ini >/dev/full 2>"$T/we.err"; rc=$?
[ "$rc" -eq 1 ] || { echo "check: exit $rc, want 1"; exit 1; }
"$HERD" run scenarios/thundering-herd.ini --set clients.count=50 --replications 2 -o "$T/we" >/dev/full 2>"$T/we.err"; rc=$?
[ "$rc" -eq 1 ] || { echo "run: exit $rc, want 1: $(cat "$T/we.err")"; exit 1; }
grep -qF "cannot write the table to standard output" "$T/we.err" || { echo "message: $(cat "$T/we.err")"; exit 1; }
exit 0
