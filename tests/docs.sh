#!/bin/sh
# The documentation runs as written: README.md and doc/*.md.
#
# 1. Every relative link resolves: the file (or folder) exists, and a
#    #anchor names a heading of the target page (GitHub's slugs: lower
#    case, punctuation dropped, spaces made hyphens; a repeated heading
#    gets -1, -2, ...).  Links inside code (fenced blocks, `spans`) are
#    not links.  http(s) and mailto links are not fetched.
# 2. Every fenced ```sh block runs, in order, in a fresh copy of the tree
#    per page (symbolic links to the repository's files, a private out/),
#    with `herd` on PATH; a ```c block of the page is written to
#    example.c there first.  `sh -e`: a block fails on its first failing
#    command.  A block that cannot run here (it needs root, a cluster, a
#    Prometheus server, or takes minutes) is marked on the line just
#    before its fence with <!-- not run: REASON -->; the test lists every
#    such block with its reason.
# 3. herd-scenario.5 is what the key table generates (tests/scenario-man.sh;
#    the Markdown references of doc/ are checked by tests/cli.sh), and
#    herdpolicy.3 documents every hp_* function of the installed headers
#    (in the SYNOPSIS and in the text), and herd.1 every command and option
#    of the --help texts.
#
# usage: sh tests/docs.sh ./herd [--links]   (--links: part 1 only)
set -u
HERD=${1:-./herd}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $HERD in /*) ;; *) HERD=$(cd "$(dirname "$HERD")" && pwd)/$(basename "$HERD") ;; esac
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/herd-docs.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$ROOT" || exit 1
PAGES="README.md $(ls doc/*.md)"

# --- 1. links ---------------------------------------------------------------
# the headings of a page, one slug a line
slugs() {
    awk '/^ *```/ { fence = !fence; next } fence { next }
         /^#+ / { h = $0; sub(/^#+ +/, "", h); sub(/ +#* *$/, "", h)
                  h = tolower(h); gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
                  n = seen[h]++; print (n ? h "-" n : h) }' "$1"
}
# the links of a page: "LINE TARGET" (code removed first)
links() {
    awk '/^ *```/ { fence = !fence; next } fence { next }
         { l = $0; gsub(/`[^`]*`/, "", l)
           while (match(l, /\]\([^) ]+\)/)) {
               print FNR, substr(l, RSTART + 2, RLENGTH - 3); l = substr(l, RSTART + RLENGTH) } }' "$1"
}
nlinks=0
# (the workshop's pages too: their links and their references to the README)
for page in $PAGES scenarios/workshop/*.md; do
    dir=$(dirname "$page")
    links "$page" >"$T/links" || bad "$page: cannot read"
    while read -r line target; do
        case $target in http://* | https://* | mailto:*) continue ;; esac
        nlinks=$((nlinks + 1))
        file=${target%%#*}
        anchor=
        case $target in *'#'*) anchor=${target#*#} ;; esac
        if [ -z "$file" ]; then path=$page; else path=$dir/$file; fi
        if [ ! -e "$path" ]; then bad "$page:$line: link to $target: $path does not exist"; continue; fi
        if [ -n "$anchor" ]; then
            case $path in
                *.md) slugs "$path" | grep -qxF "$anchor" && ok || bad "$page:$line: link to $target: no heading '#$anchor' in $path" ;;
                *) bad "$page:$line: link to $target: an anchor into a file that is not Markdown" ;;
            esac
        else
            ok
        fi
    done <"$T/links"
done
echo "docs: $nlinks relative links checked"
# a page that sends readers to "the README's NAME section" names a heading
# of the README
for page in $PAGES scenarios/workshop/*.md; do
    tr '\n' ' ' <"$page" | grep -o "the README's [A-Z][A-Za-z ]* section" | sed "s/^the README's //; s/ section\$//" |
        while read -r name; do
            grep -q "^#* *$name *\$" README.md || echo "$name"
        done >"$T/sections"
    [ -s "$T/sections" ] && bad "$page: sends readers to the README's $(head -1 "$T/sections") section, which the README does not have" || ok
done
# every page of doc/ is linked from the README
for page in doc/*.md; do
    grep -qF "]($page)" README.md && ok || bad "README.md does not link to $page"
done
# what herd does not model: said in the README and doc/design.md, and kept
# true: no key of the key table names one of the things the list says are
# not modelled (the words of its <!-- not modelled: ... --> comment)
grep -q '^## What herd does not model' README.md && grep -q '^## What herd does not model' doc/design.md && ok \
    || bad "README.md and doc/design.md must each have a section 'What herd does not model'"
words=$(sed -n 's/^<!-- not modelled: \(.*\) -->$/\1/p' doc/design.md)
[ -n "$words" ] && ok || bad "doc/design.md: no <!-- not modelled: WORDS --> comment above the list"
"$HERD" keys --list | awk -F'\t' '{ print $1 "." $2 }' >"$T/keynames"
for w in $words; do
    k=$(grep -i -- "$w" "$T/keynames" | head -1)
    [ -z "$k" ] && ok || bad "the key $k models what doc/design.md says herd does not model ('$w'): update 'What herd does not model' (README.md and doc/design.md)"
done
[ "$(wc -l <README.md)" -le 400 ] && ok || bad "README.md has $(wc -l <README.md) lines, more than 400"
# the README opens with the two commands, make run then make test
first=$(awk '/^```sh/ { on = 1; next } on && /^```/ { exit } on { print $1, $2 }' README.md)
[ "$first" = "make run
make test" ] && ok || bad "README.md: the first sh block is not make run, then make test: $first"
[ "${2:-}" = --links ] && { echo "docs: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit; }

# --- 2. the sh blocks ---------------------------------------------------------
mkdir -p "$T/bin" && ln -s "$HERD" "$T/bin/herd"
nrun=0 nskip=0
for page in $PAGES; do
    name=$(echo "$page" | tr '/.' '__')
    tree=$T/tree-$name
    mkdir -p "$tree/out"
    for f in "$ROOT"/*; do
        case $(basename "$f") in out) ;; *) ln -s "$f" "$tree/$(basename "$f")" ;; esac
    done
    # the blocks: block-N.sh, or block-N.skip holding the reason
    awk -v dir="$T/$name" '
        /^ *```sh *$/ { on = 1; n++; f = dir "-block-" n
                        if (prev ~ /<!-- not run: .* -->/) { r = prev; sub(/^.*<!-- not run: */, "", r); sub(/ *-->.*$/, "", r)
                                                          print FNR ": " r >(f ".skip"); skip = 1 }
                        else { printf "" >(f ".sh"); skip = 0; print FNR >(f ".line") }
                        next }
        /^ *```c *$/ { c = 1; printf "" >(dir "-example.c"); next }
        (on || c) && /^ *``` *$/ { on = 0; c = 0; next }
        c { print >>(dir "-example.c"); next }
        on && !skip { l = $0; sub(/^  /, "", l); print l >>(f ".sh") }
        { prev = $0 }' "$page"
    [ -f "$T/$name-example.c" ] && cp "$T/$name-example.c" "$tree/example.c"
    i=1
    while [ -f "$T/$name-block-$i.sh" ] || [ -f "$T/$name-block-$i.skip" ]; do
        if [ -f "$T/$name-block-$i.skip" ]; then
            nskip=$((nskip + 1))
            echo "docs: not run: $page:$(cat "$T/$name-block-$i.skip")"
        else
            nrun=$((nrun + 1))
            line=$(cat "$T/$name-block-$i.line")
            if (cd "$tree" && PATH="$T/bin:$PATH" timeout 300 sh -e "$T/$name-block-$i.sh") >"$T/out.log" 2>&1 </dev/null; then
                ok
            else
                bad "$page:$line: the sh block failed: $(tail -5 "$T/out.log")"
            fi
        fi
        i=$((i + 1))
    done
done
echo "docs: $nrun sh blocks run, $nskip marked not run"
# guide.md's look at the resolved model: its grep shows each point and the
# two keys the variants change, one line each (3 points x 3 lines), not
# every line whose note mentions max_attempts ("unused: max_attempts is 1")
awk '/^cat >brownout.ini/ { on = 1; next } on && /^EOF/ { exit } on' doc/guide.md >"$T/brownout.ini"
cmd=$(grep -m1 "herd check brownout.ini --explain | grep" doc/guide.md | sed "s#^\./herd #\"$HERD\" #; s#brownout.ini#$T/brownout.ini#")
got=$(sh -c "$cmd" 2>&1)
[ "$(printf '%s\n' "$got" | wc -l)" -eq 9 ] && ! printf '%s\n' "$got" | grep -q 'unused:' && ok \
    || bad "doc/guide.md: the explain grep shows $(printf '%s\n' "$got" | wc -l) lines, expected 9 (3 points x 3): $(printf '%s\n' "$got" | head -12)"

# --- 3. generated references --------------------------------------------------
# (the references of doc/ against herd keys, columns and presets: tests/cli.sh)
"$HERD" keys | sh tests/scenario-man.sh >"$T/herd-scenario.5" && cmp -s "$T/herd-scenario.5" herd-scenario.5 && ok ||
    bad "herd-scenario.5 is not what the key table generates (run make readme-keys)"
# herd.1 has every command of herd --help in its synopsis, and every
# option of the commands' --help
for c in $("$HERD" --help | sed -n 's/^ *\(usage:\)\{0,1\} *herd \([a-z][a-z]*\) .*/\2/p' | sort -u); do
    grep -q "^\.B herd $c\$" herd.1 && ok || bad "herd.1: the command herd $c is not in the SYNOPSIS"
done
for c in "" check plot report merge rare serve drive; do "$HERD" $c --help 2>&1; done |
    grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/options"
[ "$(wc -l <"$T/options")" -ge 30 ] && ok || bad "found only $(wc -l <"$T/options") options in the --help texts"
while read -r o; do
    grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" herd.1 && ok || bad "herd.1: the option $o is not documented"
done <"$T/options"
# herdpolicy.3 names every public function of the headers, in the
# synopsis and in the text
for h in sim/policy/herdpolicy.h sim/policy/herdpolicy/limits.h sim/policy/herdpolicy/client.h sim/policy/herdpolicy/plugin.h; do
    sed -n 's/^[a-z0-9_ ]*[ *]\(hp_[a-z0-9_]*\)(.*/\1/p' "$h"
done | sort -u >"$T/hp-functions"
[ "$(wc -l <"$T/hp-functions")" -ge 40 ] && ok || bad "found only $(wc -l <"$T/hp-functions") hp_* functions in the headers"
while read -r fn; do
    grep -q "^\.BI* \"[^\"]*[ *]$fn(" herdpolicy.3 && ok || bad "herdpolicy.3: $fn is not in the SYNOPSIS"
    grep -Eq "[ \"]$fn\"? \(\)" herdpolicy.3 && ok || bad "herdpolicy.3: $fn is not described (.BR $fn ())"
done <"$T/hp-functions"
echo "docs: $(wc -l <"$T/hp-functions") hp_* functions checked in herdpolicy.3"
echo "docs: $pass passed, $fail failed"
[ "$fail" = 0 ]
