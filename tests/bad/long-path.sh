# A 600-character scenario path: the message keeps the line, the key and
# the expectation (the path is shortened, never the rest), on one line.
HERD=$1 T=$2
d="$T"
while [ ${#d} -lt 600 ]; do d="$d/dddddddddddddddddddddddddddddddddddddddddddddddddd"; done
mkdir -p "$d" || { echo "skip: cannot make a long path"; exit 0; }
printf '[clients]\ncount = lots\n' >"$d/s.ini"
"$HERD" run "$d/s.ini" -o "$T/lp" 2>"$T/lp.err" >/dev/null
rc=$?
[ "$rc" -eq 2 ] || { echo "exit $rc, want 2: $(cat "$T/lp.err")"; exit 1; }
[ "$(wc -l <"$T/lp.err")" -eq 1 ] || { echo "want one line"; exit 1; }
grep -qF "dddd/s.ini:2: [clients] count: expected an integer in [1, 100000000], got 'lots'" "$T/lp.err" ||
    { echo "message: $(cat "$T/lp.err")"; exit 1; }
exit 0
