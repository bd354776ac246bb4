# A scenario path that is a FIFO: refused at once (never blocks reading it).
HERD=$1 T=$2
mkfifo "$T/fifo.ini" || { echo "skip: mkfifo failed"; exit 0; }
timeout 10 "$HERD" run "$T/fifo.ini" -o "$T/fifo-out" 2>"$T/fifo.err" >/dev/null
rc=$?
[ "$rc" -eq 2 ] || { echo "exit $rc, want 2: $(cat "$T/fifo.err")"; exit 1; }
grep -qF "is not a regular file" "$T/fifo.err" || { echo "message: $(cat "$T/fifo.err")"; exit 1; }
[ ! -e "$T/fifo-out" ] || { echo "created output"; exit 1; }
exit 0
