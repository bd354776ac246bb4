# Every data file (empirical, trace, capacity) that is a FIFO: refused at
# once with exit 2 (never blocks opening or reading it), no output.
HERD=$1 T=$2
mkdir -p "$T/dfifo" && mkfifo "$T/dfifo/d.csv" || { echo "skip: mkfifo failed"; exit 0; }
for body in '[server]\nservice_time_s = empirical(d.csv)\n' \
            '[clients]\nstart = trace\ntrace_file = d.csv\n' \
            '[server]\ncapacity_file = d.csv\n'; do
    printf "$body" >"$T/dfifo/s.ini"
    timeout 10 "$HERD" run "$T/dfifo/s.ini" -o "$T/dfifo/out" 2>"$T/dfifo/err" >/dev/null
    rc=$?
    [ "$rc" -eq 2 ] || { echo "$body: exit $rc, want 2: $(cat "$T/dfifo/err")"; exit 1; }
    grep -qF "d.csv: is not a regular file" "$T/dfifo/err" || { echo "message: $(cat "$T/dfifo/err")"; exit 1; }
    [ ! -e "$T/dfifo/out" ] || { echo "created output"; exit 1; }
done
exit 0
