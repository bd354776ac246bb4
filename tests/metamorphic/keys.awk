# keys.awk - herd's key table, for the generated cases of
# tests/metamorphic.sh.
#
# The table is the output of `herd keys --list`: one key a line,
#   section<TAB>key<TAB>type<TAB>lo<TAB>hi<TAB>choices<TAB>default
# (sections outage, tool and layer are templates for [outage NAME] ...).
#
#   awk -v mode=check -f keys.awk LIST      prints what is wrong with LIST
#                                           (nothing if it is well formed)
#   awk -v mode=markdown -f keys.awk MD     the same table rebuilt from the
#                                           Markdown of `herd keys` (fallback
#                                           for a binary without --list)
#   awk -v mode=gen [-v data=DIR] -f keys.awk LIST
#                                           per key: KEY<TAB>BASE<TAB>V1<TAB>V2
#                                           (a data file key: none and a
#                                           file of DIR, tests/data)
#                                           (BASE: plain, tools or layers),
#                                           or "#skip<TAB>KEY<TAB>why"; plus
#                                           server.error_rate_503 if the
#                                           table has no error_rate key

BEGIN {
    FS = "\t"
    split("double integer distribution strategy strategies enum bool name outcome baseline preset columns classes statuses file window", t, " ")
    for (i in t) known[t[i]] = 1
    needchoices["enum"] = needchoices["bool"] = needchoices["preset"] = 1
    template["outage"] = "outage a"; template["tool"] = "tool t1"; template["layer"] = "layer l1"
}

function isnum(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function num(s) { return sprintf("%.15g", s + 0) }

# ---- mode=check -------------------------------------------------------
mode == "check" && ($1 == "sweep" || $1 == "variant") { next }  # not scenario keys
mode == "check" {
    n++
    where = "line " NR " (" substr($1 "." $2, 1, 40) ")"
    if (NF != 7) { err[++ne] = where ": " NF " fields, expected 7"; next }
    if ($1 == "" || $2 == "") err[++ne] = where ": empty section or key"
    if (!($3 in known)) err[++ne] = where ": unknown type '" $3 "'"
    if ($3 == "double" || $3 == "integer") {
        if (!isnum($4) || !isnum($5)) err[++ne] = where ": lo/hi '" $4 "' '" $5 "' not numbers"
        else if ($4 + 0 > $5 + 0) err[++ne] = where ": lo > hi"
    } else if ($4 != "-" || $5 != "-")
        err[++ne] = where ": lo/hi should be - for " $3
    if (($3 in needchoices) && ($6 == "-" || $6 == "")) err[++ne] = where ": no choices for " $3
    if (!($3 in needchoices) && $6 != "-") err[++ne] = where ": choices should be - for " $3
    if (($1, $2) in seen) err[++ne] = where ": duplicate key"
    seen[$1, $2] = 1
    sec[$1] = 1
    next
}

# ---- mode=markdown ----------------------------------------------------
mode == "markdown" && /^### \[/ {
    s = $0; sub(/^### \[/, "", s); sub(/\].*/, "", s); sub(/ NAME$/, "", s)
    section = s
    next
}
mode == "markdown" && /^\| `/ {
    split($0, col, "|")
    for (i in col) gsub(/^[ \t]+|[ \t]+$/, "", col[i])
    key = col[2]; gsub(/`/, "", key)
    ty = col[3]; def = col[5]
    lo = hi = ch = "-"
    if (ty ~ /^an integer in \[/ || ty ~ /^a number in \[/) {
        r = ty; sub(/^[^[]*\[/, "", r); sub(/\].*/, "", r)
        split(r, b, ", ")
        lo = b[1]; hi = b[2]
        if (hi == "2^64 - 1") hi = "18446744073709551615"
        tp = ty ~ /^an integer/ ? "integer" : "double"
    } else if (ty ~ /^one of /) {
        ch = ty; sub(/^one of /, "", ch); gsub(/, /, ",", ch)
        tp = key == "preset" ? "preset" : "enum"
    } else if (ty == "true or false") { tp = "bool"; ch = "true,false" }
    else if (ty == "distribution") tp = "distribution"
    else if (ty == "strategy") tp = "strategy"
    else if (ty == "list of strategies") tp = "strategies"
    else if (ty == "none or a strategy") tp = "baseline"
    else if (ty == "list of metrics") tp = "columns"
    else if (ty == "list of classes") tp = "classes"
    else if (ty == "list of statuses") tp = "statuses"
    else if (ty ~ /or a library preset$/) { tp = "preset"; ch = "read,reversible,irreversible,destructive" }
    else if (ty == "name") tp = "name"
    else if (ty == "status") tp = "outcome"
    else if (ty == "a CSV file, or none") tp = "file"
    else if (ty == "FROM:TO") tp = "window"
    else next  # [sweep] / [variant]: not keys of a scenario
    printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", section, key, tp, lo, hi, ch, def
    next
}

# ---- mode=gen ---------------------------------------------------------
# two distinct, small, sensible values among candidates inside [lo, hi]
function pick(cands, lo, hi,    n, cand, i, got, v) {
    n = split(cands, cand, " ")
    got = 0; V1 = V2 = ""
    for (i = 1; i <= n && got < 2; i++) {
        v = cand[i] + 0
        if (v < lo + 0 || v > hi + 0) continue
        if (got == 1 && v == V1 + 0) continue
        if (++got == 1) V1 = num(v); else V2 = num(v)
    }
    return got == 2
}

mode == "gen" {
    sect = $1; key = $2; ty = $3; lo = $4; hi = $5; ch = $6
    if (sect == "sweep" || sect == "variant") next
    full = ((sect in template) ? template[sect] : sect) "." key
    gsub(/NNN/, "503", full)
    base = sect == "tool" ? "tools" : sect == "layer" ? "layers" : "plain"
    ok = 1; why = ""
    if (ty == "double") {
        c = ""
        if (lo + 0 == 0 || (lo + 0 >= 0.01 && lo + 0 <= 10)) c = lo
        ok = pick(c " 0.5 1 2 3", lo, hi)
    } else if (ty == "integer") {
        c = ""
        if (lo + 0 <= 10) c = lo
        ok = pick(c " 1 2 3", lo, hi)
    } else if (ty == "distribution") { V1 = "constant(0.01)"; V2 = "exponential(0.01)" }
    else if (ty == "strategy" || ty == "strategies") { V1 = "full_jitter"; V2 = "exponential" }
    else if (ty == "baseline") { V1 = "none"; V2 = "exponential" }
    else if (ty == "enum" || ty == "bool" || ty == "preset") {
        n = split(ch, cc, ",")
        if (n < 2) ok = 0
        V1 = cc[1]; V2 = cc[2]
    } else if (ty == "outcome") { V1 = "503"; V2 = "connection_refused" }
    else if (ty == "classes") { V1 = "server"; V2 = "timeout" }
    else if (ty == "statuses") { V1 = "502"; V2 = "504" }
    else if (ty == "window") { V1 = "0:1"; V2 = "0:2" }
    else if (ty == "file" && data != "") { V1 = "none"; V2 = data (key == "trace_file" ? "/trace.csv" : "/capacity-drop.csv") }
    else { ok = 0; why = "type " ty " not generated" }
    if (full == "run.name" || full == "run.columns" || full == "run.baseline_variant") { ok = 0; why = "not a simulation input" }
    if (!ok) { printf "#skip\t%s\t%s\n", full, why == "" ? "no two values" : why; next }
    printf "%s\t%s\t%s\t%s\n", full, base, V1, V2
    if (full ~ /^server\.error_rate_/) error_rate = 1
    next
}

END {
    # [server] error_rate_NNN is a family of keys the table may not list
    if (mode == "gen" && !error_rate) printf "server.error_rate_503\tplain\t0\t0.5\n"
    if (mode == "check") {
        if (n < 50) err[++ne] = n " keys, expected at least 50"
        split("run clients network server retry outage tool layer", need, " ")
        for (i in need) if (!(need[i] in sec)) err[++ne] = "no section " need[i]
        for (i = 1; i <= ne && i <= 3; i++) print err[i]
        if (ne > 3) print "... " ne - 3 " more"
    }
}
