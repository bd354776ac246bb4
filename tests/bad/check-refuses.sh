# herd check validates like herd run: exit 2 and the same one-line message
# for a bad scenario; exit 0 and the plan for a good one; nothing written.
HERD=$1 T=$2
printf '[retry]\ncap_s = 2\n[sweep]\nkey = retry.base_s\nvalues = 1, 3\n' >"$T/ck.ini"
"$HERD" check "$T/ck.ini" >"$T/ck.out" 2>"$T/ck.err"; rc=$?
[ "$rc" -eq 2 ] || { echo "exit $rc, want 2"; exit 1; }
grep -qF "ck.ini:3: sweep point retry.base_s=3: [retry] cap_s (2 s) is below base_s (3 s)" "$T/ck.err" ||
    { echo "message: $(cat "$T/ck.err")"; exit 1; }
"$HERD" check scenarios/aws-2015-occ.ini >"$T/ck.out" 2>"$T/ck.err"; rc=$?
[ "$rc" -eq 0 ] || { echo "good scenario: exit $rc: $(cat "$T/ck.err")"; exit 1; }
grep -q "^plan: 1 variant(s) x 19 sweep point(s) = 19 point(s); 95 group(s); 9500 job(s)$" "$T/ck.out" ||
    { echo "plan line: $(grep plan: "$T/ck.out")"; exit 1; }
grep -q "^memory: about" "$T/ck.out" && grep -q "^events: about 1e" "$T/ck.out" || { echo "estimates missing"; exit 1; }
[ ! -e out/aws-2015-occ.check-marker ] || exit 1
exit 0
