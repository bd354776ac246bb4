# -o "" (an empty output path) is refused as a bad flag.
HERD=$1 T=$2
"$HERD" run scenarios/thundering-herd.ini -o "" --quiet 2>"$T/oe.err" >/dev/null
rc=$?
[ "$rc" -eq 2 ] || { echo "exit $rc, want 2: $(cat "$T/oe.err")"; exit 1; }
grep -qF -- "-o: expected a directory, got an empty path" "$T/oe.err" || { echo "message: $(cat "$T/oe.err")"; exit 1; }
exit 0
