# csv.awk - the leading columns of herd's CSVs, for tests/metamorphic.sh.
#
# The leading columns are every column before `strategy`: `variant` (when
# the scenario has [variant] sections), then one per swept key.  Their
# number is found from each file's header, never assumed.  Cells are RFC
# 4180: a cell with a comma or a quote is quoted, quotes doubled.  A point
# is identified by the raw text of its leading cells (RAW below).
#
#   awk -v mode=MODE -f csv.awk FILE
#
# mode=tuples  every distinct RAW, in order of first appearance, one a line
# mode=select  the header and the rows of the point RAW (environment
#              variable TUPLE), each without its leading columns
# mode=labels  per leading column except variant: "sweep HEADER", then
#              "  value LABEL" per distinct label in order of first
#              appearance (what manifest.txt must list)
# mode=args    for the point TUPLE, the arguments of a plain run that
#              reproduces it, one a line: --set HEADER=LABEL per swept key
#              and, for the variant, --set KEY=VALUE per override of that
#              variant, read from the file named by environment variable
#              VARIANTS (lines NAME<TAB>KEY=VALUE, see ini.awk)

# Splits the first max cells of s (all with max < 0) into cell[1..n],
# unquoted; returns n and sets LEADLEN to the length of the text of those
# cells (without the comma after them).
function cells(s, max,    n, i, c, q, cur, L) {
    n = 0; q = 0; cur = ""; L = length(s)
    if (max == 0) { LEADLEN = 0; return 0 }
    for (i = 1; i <= L; i++) {
        c = substr(s, i, 1)
        if (q) {
            if (c == "\"") {
                if (substr(s, i + 1, 1) == "\"") { cur = cur "\""; i++ }
                else q = 0
            } else cur = cur c
        } else if (c == "\"") q = 1
        else if (c == ",") {
            cell[++n] = cur; cur = ""
            if (n == max) { LEADLEN = i - 1; return n }
        } else cur = cur c
    }
    cell[++n] = cur
    LEADLEN = L
    return n
}

# the text after the leading columns (the whole line if there are none)
function rest(s) {
    if (nlead == 0) return s
    cells(s, nlead)
    return substr(s, LEADLEN + 2)
}

function lead(s) {
    if (nlead == 0) return ""
    cells(s, nlead)
    return substr(s, 1, LEADLEN)
}

BEGIN {
    tuple = ENVIRON["TUPLE"]
    if (mode == "args" && ENVIRON["VARIANTS"] != "") {
        while ((getline l < ENVIRON["VARIANTS"]) > 0) {
            t = index(l, "\t")
            vn = substr(l, 1, t - 1); kv = substr(l, t + 1)
            if (kv != "") { nov[vn]++; ov[vn, nov[vn]] = kv }
        }
    }
}

FNR == 1 {
    n = cells($0, -1)
    nlead = -1
    for (i = 1; i <= n; i++) {
        head[i] = cell[i]
        if (cell[i] == "strategy" && nlead < 0) nlead = i - 1
    }
    if (nlead < 0) { print "csv.awk: no strategy column in " FILENAME > "/dev/stderr"; bad = 1; exit 2 }
    if (mode == "select") print rest($0)
    next
}

mode == "select" { if (lead($0) == tuple) print rest($0); next }

mode == "tuples" || mode == "args" {
    r = lead($0)
    if (!(r in seen)) { seen[r] = 1; order[++nt] = r }
    next
}

mode == "labels" {
    cells($0, nlead)
    for (i = 1; i <= nlead; i++)
        if (head[i] != "variant" && !((i, cell[i]) in lseen)) {
            lseen[i, cell[i]] = 1; nl[i]++; lab[i, nl[i]] = cell[i]
        }
    next
}

END {
    if (bad) exit 2
    if (mode == "tuples")
        for (i = 1; i <= nt; i++) print order[i]
    if (mode == "labels")
        for (i = 1; i <= nlead; i++)
            if (head[i] != "variant") {
                print "sweep " head[i]
                for (j = 1; j <= nl[i]; j++) print "  value " lab[i, j]
            }
    if (mode == "args") {
        if (!(tuple in seen)) { print "csv.awk: no point " tuple > "/dev/stderr"; exit 2 }
        cells(tuple, -1)
        for (i = 1; i <= nlead; i++) {
            if (head[i] == "variant") {
                for (j = 1; j <= nov[cell[i]]; j++) print "--set\n" ov[cell[i], j]
            } else
                print "--set\n" head[i] "=" cell[i]
        }
    }
}
