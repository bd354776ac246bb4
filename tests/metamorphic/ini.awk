# ini.awk - reads a herd scenario file (INI, as inih reads it) and prints
# parts of it for tests/metamorphic.sh.
#
#   awk -v mode=MODE [-v kinds=...] [-v perm=...] -f ini.awk FILE
#
# mode=sweeps    one line per [sweep NAME]: NAME<TAB>KEY<TAB>VALUES<TAB>TWO
#                where TWO is VALUES cut to its first two values (a list keeps
#                its first two items; FROM:TO:STEP becomes FROM:FROM+STEP:STEP)
# mode=variants  per [variant NAME] a line NAME<TAB> and then one line
#                NAME<TAB>SECTION.KEY=VALUE per override, in file order
# mode=varied    every SECTION.KEY a sweep or a variant of the file changes
# mode=drop      the file without the sections whose kind (first word of the
#                section name) is listed in kinds, e.g. -v kinds="sweep variant"
# mode=permute   the same sections in another order (perm=reverse or
#                perm=rotate), comments and blank lines moving with their
#                section; sections of an ordered kind (tool, layer, variant,
#                sweep: their order is meaningful; outage: herd wants them in
#                time order) keep their relative order.
#
# Comments: a line starting with ; or #, and inline " ;" (inih's defaults).

function trim(s) { sub(/^[ \t\r]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }

# first two values of a sweep's values text
function two(v,    a, n, i, c, depth, items, cur) {
    # FROM:TO:STEP (three numbers)
    if (v ~ /^[ \t]*[-+0-9.eE]+[ \t]*:[ \t]*[-+0-9.eE]+[ \t]*:[ \t]*[-+0-9.eE]+[ \t]*$/) {
        n = split(v, a, ":")
        a[1] = trim(a[1]); a[2] = trim(a[2]); a[3] = trim(a[3])
        if (a[1] + a[3] <= a[2] + 0)
            return a[1] ":" sprintf("%.15g", a[1] + a[3]) ":" a[3]
        return v
    }
    # a list: split at commas outside parentheses
    items = 0; cur = ""; depth = 0
    for (i = 1; i <= length(v); i++) {
        c = substr(v, i, 1)
        if (c == "(") depth++
        else if (c == ")") depth--
        if (c == "," && depth == 0) {
            item[++items] = trim(cur); cur = ""
        } else
            cur = cur c
    }
    item[++items] = trim(cur)
    return items >= 2 ? item[1] ", " item[2] : item[1]
}

{
    line[NR] = $0
    t = trim($0)
    if (t ~ /^\[.*\]$/ || t ~ /^\[[^]]*\][ \t]*[;#]/) {
        name = t
        sub(/^\[/, "", name); sub(/\].*$/, "", name); name = trim(name)
        nsec++
        secname[nsec] = name
        kind = name; sub(/[ \t].*$/, "", kind)
        seckind[nsec] = kind
        secname1 = name; sub(/^[^ \t]+[ \t]*/, "", secname1)
        secshort[nsec] = secname1
        secstart[nsec] = NR
        sec_of[NR] = nsec
        if (kind == "variant") { nvar++; varname[nvar] = secshort[nsec] }
        if (kind == "sweep") { nsw++; swname[nsw] = secshort[nsec]; swkey[nsw] = ""; swval[nsw] = "" }
        next
    }
    sec_of[NR] = nsec
    if (t == "" || t ~ /^[;#]/ || index(t, "=") == 0 || nsec == 0)
        next
    k = trim(substr(t, 1, index(t, "=") - 1))
    v = substr(t, index(t, "=") + 1)
    sub(/[ \t];.*$/, "", v)
    v = trim(v)
    if (seckind[nsec] == "variant") { nset[nvar]++; vset[nvar, nset[nvar]] = k "=" v }
    if (seckind[nsec] == "sweep") {
        if (k == "key") swkey[nsw] = v
        if (k == "values") swval[nsw] = v
    }
}

END {
    if (mode == "sweeps") {
        for (i = 1; i <= nsw; i++)
            printf "%s\t%s\t%s\t%s\n", swname[i], swkey[i], swval[i], two(swval[i])
    } else if (mode == "variants") {
        for (i = 1; i <= nvar; i++) {
            printf "%s\t\n", varname[i]
            for (j = 1; j <= nset[i]; j++)
                printf "%s\t%s\n", varname[i], vset[i, j]
        }
    } else if (mode == "varied") {
        for (i = 1; i <= nsw; i++)
            print swkey[i]
        for (i = 1; i <= nvar; i++)
            for (j = 1; j <= nset[i]; j++) {
                k = vset[i, j]; sub(/=.*/, "", k); print k
            }
    } else if (mode == "drop") {
        split(kinds, kl, " ")
        for (i in kl) dropk[kl[i]] = 1
        for (n = 1; n <= NR; n++) {
            if (sec_of[n] > 0 && (seckind[sec_of[n]] in dropk))
                continue
            # without its variants, [run] baseline_variant names none
            if ("variant" in dropk && sec_of[n] > 0 && seckind[sec_of[n]] == "run" && line[n] ~ /^[ \t]*baseline_variant[ \t]*=/)
                continue
            print line[n]
        }
    } else if (mode == "permute") {
        ordered["tool"] = ordered["layer"] = ordered["variant"] = ordered["sweep"] = ordered["outage"] = 1
        # a new order of section indices
        for (p = 1; p <= nsec; p++) {
            if (perm == "rotate")
                ord[p] = (p - 1 + int(nsec / 2)) % nsec + 1
            else
                ord[p] = nsec - p + 1
        }
        # sections of an ordered kind take, in order, the places that kind got
        for (p = 1; p <= nsec; p++) {
            k = seckind[ord[p]]
            if (k in ordered) { nplace[k]++; place[k, nplace[k]] = p }
        }
        for (s = 1; s <= nsec; s++) {
            k = seckind[s]
            if (k in ordered) { used[k]++; neword[place[k, used[k]]] = s }
        }
        for (p = 1; p <= nsec; p++)
            if (!(seckind[ord[p]] in ordered)) neword[p] = ord[p]
        for (n = 1; n <= NR && sec_of[n] == 0; n++)
            print line[n]
        for (p = 1; p <= nsec; p++) {
            s = neword[p]
            for (n = secstart[s]; n <= NR && sec_of[n] == s; n++)
                print line[n]
        }
    }
}
