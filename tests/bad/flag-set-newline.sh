# A --set value with a newline: one line on stderr, the newline escaped.
HERD=$1 T=$2
"$HERD" run scenarios/thundering-herd.ini -o "$T/nl" --set 'clients.count=1
2' 2>"$T/nl.err" >/dev/null
rc=$?
[ "$rc" -eq 2 ] || { echo "exit $rc, want 2"; exit 1; }
[ "$(wc -l <"$T/nl.err")" -eq 1 ] || { echo "want one line: $(cat "$T/nl.err")"; exit 1; }
grep -qF -- "--set clients.count=1\n2: [clients] count: expected an integer" "$T/nl.err" || { echo "message: $(cat "$T/nl.err")"; exit 1; }
[ ! -e "$T/nl" ] || { echo "created $T/nl"; exit 1; }
exit 0
