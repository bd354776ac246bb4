#!/bin/sh
# make install into a temporary DESTDIR, then build and run a program
# against the installed libherdpolicy with nothing but
# `pkg-config --cflags --libs herdpolicy` (shared, then static), check the
# man pages, and make uninstall: nothing of herd's may be left.
set -u
MAKE=${MAKE:-make}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/herd-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/root prefix=/opt/herd-test

if $MAKE --no-print-directory -s install DESTDIR="$dest" PREFIX="$prefix" >"$tmp/install.log" 2>&1; then ok; else
    bad "make install"; cat "$tmp/install.log"; exit 1; fi
root=$dest$prefix
for f in bin/herd libexec/herd/herd-real lib/libherdpolicy.a lib/libherdpolicy.so lib/libherdpolicy.so.0 include/herdpolicy.h include/herdpolicy/limits.h include/herdpolicy/client.h \
         include/herdpolicy/plugin.h lib/herd/herd-python.so lib/herd/python/herd_adapters.py \
         share/herd/scenarios/team_retry.py lib/pkgconfig/herdpolicy.pc share/man/man1/herd.1 share/man/man3/herdpolicy.3 share/man/man5/herd-scenario.5 \
         share/herd/plots/timeseries.gp share/herd/scenarios/thundering-herd.ini \
         share/herd/scenarios/workshop/01-thundering-herd.ini; do
    [ -e "$root/$f" ] && ok || bad "not installed: $f"
done
# herd run loads neither libcurl nor libmicrohttpd; serve and drive run
# libexec/herd/herd-real, which the installed herd finds from its own path
needed=$(readelf -d "$root/bin/herd" 2>/dev/null | grep -E 'NEEDED.*(curl|microhttpd)' | head -2)
[ -z "$needed" ] && ok || bad "bin/herd links the real-socket libraries: $needed"
"$root/bin/herd" serve --help 2>&1 | grep -q '^usage: herd serve' && ok || bad "installed herd serve --help"
"$root/bin/herd" drive --help 2>&1 | grep -q '^usage: herd drive' && ok || bad "installed herd drive --help"
soname=$(readelf -d "$root/lib/libherdpolicy.so" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libherdpolicy.so.0 ] && ok || bad "soname is '$soname', want libherdpolicy.so.0"
# only the hp_* API is exported
extra=$(nm -D --defined-only "$root/lib/libherdpolicy.so" | awk '$2 != "A" && $3 !~ /^hp_/' | head -3)
[ -z "$extra" ] && ok || bad "exported symbols outside hp_*: $extra"

# pkg-config sees the installed file through the sysroot, as a packager's
# staging area would be seen
export PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$(pkg-config --cflags --libs herdpolicy) && ok || bad "pkg-config --cflags --libs herdpolicy"
want='attempt 1: 503 -> retry after 0.250 s
attempt 2: 503 -> retry after 0.250 s
attempt 3: 429 -> retry after 3.000 s (Retry-After)
attempt 4: 200 -> done'
# shared
if ${CC:-cc} -std=c11 -Wall -Werror tests/install_example.c $flags -o "$tmp/example" 2>"$tmp/cc.log"; then ok; else
    bad "build against the shared library"; cat "$tmp/cc.log"; fi
if [ -x "$tmp/example" ]; then
    readelf -d "$tmp/example" | grep -q 'Shared library: \[libherdpolicy.so.0\]' && ok ||
        bad "example does not need libherdpolicy.so.0"
    out=$(LD_LIBRARY_PATH="$root/lib" "$tmp/example") && ok || bad "example (shared) exit status"
    [ "$out" = "$want" ] && ok || bad "example (shared) printed: $out"
fi
# the installed archive is plain code: herd's own objects carry GCC's
# link-time-optimisation sections too (Makefile, LTO_CFLAGS), which another
# compiler's linker could not read
if objdump -h "$root/lib/libherdpolicy.a" | grep -q '\.gnu\.lto_'; then bad "libherdpolicy.a holds LTO sections"; else ok; fi
objdump -h "$root/lib/libherdpolicy.a" | grep -q '\.text' && ok || bad "libherdpolicy.a holds no code"
# static
sflags=$(pkg-config --static --cflags herdpolicy) && slibs=$(pkg-config --static --libs-only-l herdpolicy | sed 's/-lherdpolicy//')
if ${CC:-cc} -std=c11 -Wall -Werror tests/install_example.c $sflags "$root/lib/libherdpolicy.a" $slibs -o "$tmp/example-static" 2>"$tmp/cc.log"; then
    out=$("$tmp/example-static") && [ "$out" = "$want" ] && ok || bad "example (static) printed: $out"
else bad "build against the static library"; cat "$tmp/cc.log"; fi
# the installed herd finds its plot scripts and scenarios under share/herd
"$root/bin/herd" run "$root/share/herd/scenarios/thundering-herd.ini" --quiet --replications 1 \
    --set clients.count=50 -o "$tmp/out" --plot >"$tmp/run.log" 2>&1 && [ -s "$tmp/out/timeseries.png" ] && ok ||
    { bad "installed herd run --plot"; cat "$tmp/run.log"; }
# a C plugin built against the installed header alone, and the Python
# adapter found beside the installed herd (lib/herd), on installed scenarios
if ${CC:-cc} -std=c11 -Wall -Werror -fPIC -shared -I"$root/include" tests/plugins/fulljitter.c -lm \
    -o "$tmp/fulljitter.so" 2>"$tmp/cc.log"; then
    "$root/bin/herd" plugin check "$tmp/fulljitter.so" base_s=1 cap_s=60 max_attempts=5 >"$tmp/check.log" 2>&1 &&
        grep -q '^determinism: ok' "$tmp/check.log" && ok || { bad "installed herd plugin check"; cat "$tmp/check.log"; }
else bad "a plugin against the installed herdpolicy/plugin.h"; cat "$tmp/cc.log"; fi
"$root/bin/herd" run "$root/share/herd/scenarios/team-retry.ini" --quiet --replications 1 --set clients.count=50 \
    -o "$tmp/py" >"$tmp/py.log" 2>&1 && [ -s "$tmp/py/summary.csv" ] && ok ||
    { bad "installed herd run with the Python adapter"; cat "$tmp/py.log"; }
# man pages render without warnings
if command -v groff >/dev/null; then
    for m in "$root/share/man/man1/herd.1" "$root/share/man/man3/herdpolicy.3" "$root/share/man/man5/herd-scenario.5"; do
        w=$(LC_ALL=C groff -man -ww -z -Tutf8 "$m" 2>&1)
        [ -z "$w" ] && ok || bad "groff warnings in $m: $w"
    done
fi
# man -l, as a reader would: no warning on stderr either
if command -v man >/dev/null; then
    for m in "$root/share/man/man1/herd.1" "$root/share/man/man3/herdpolicy.3" "$root/share/man/man5/herd-scenario.5"; do
        w=$(MANWIDTH=80 LC_ALL=C man -l "$m" 2>&1 >/dev/null)
        [ -z "$w" ] && ok || bad "man -l $m: $w"
    done
fi

$MAKE --no-print-directory -s uninstall DESTDIR="$dest" PREFIX="$prefix" >"$tmp/uninstall.log" 2>&1 && ok || bad "make uninstall"
# a second install under another prefix: its pkg-config file names that
# prefix (not the first install's)
if $MAKE --no-print-directory -s install DESTDIR="$dest" PREFIX=/opt/herd-other >"$tmp/install2.log" 2>&1; then
    grep -qx 'prefix=/opt/herd-other' "$dest/opt/herd-other/lib/pkgconfig/herdpolicy.pc" && ok ||
        bad "install PREFIX=/opt/herd-other: herdpolicy.pc says $(head -1 "$dest/opt/herd-other/lib/pkgconfig/herdpolicy.pc")"
    $MAKE --no-print-directory -s uninstall DESTDIR="$dest" PREFIX=/opt/herd-other >>"$tmp/uninstall.log" 2>&1 && ok || bad "make uninstall (second prefix)"
else
    bad "make install PREFIX=/opt/herd-other"; cat "$tmp/install2.log"
fi
left=$(cd "$dest" && find . -type f -o -type l)
[ -z "$left" ] && ok || bad "left after uninstall: $left"
echo "install: $pass passed, $fail failed"
[ "$fail" = 0 ]
