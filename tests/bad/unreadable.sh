# An unreadable scenario: root reads anything, so the run drops to the
# unprivileged user `nobody` when it can (runuser); otherwise it is skipped.
HERD=$1 T=$2
f="$T/unreadable.ini"
printf '[run]\nseed = 1\n' >"$f"
chmod 000 "$f"
if [ "$(id -u)" = 0 ]; then
    command -v runuser >/dev/null || { echo "skip: no runuser"; exit 0; }
    chmod 755 "$T"
    msg=$(runuser -u nobody -- "$HERD" run "$f" -o "$T/unreadable-out" 2>&1)
else
    msg=$("$HERD" run "$f" -o "$T/unreadable-out" 2>&1)
fi
rc=$?
[ "$rc" -eq 2 ] || { echo "exit $rc, want 2: $msg"; exit 1; }
echo "$msg" | grep -q "$f: cannot open scenario: Permission denied" || { echo "message: $msg"; exit 1; }
[ ! -e "$T/unreadable-out" ] || { echo "created the output directory"; exit 1; }
exit 0
