/*
 * expand.c - what may vary between the points of a run, and how: the
 * labels of a sweep's values, the canonical name of a key, and a point's
 * scenario derived from the base one (a variant's overrides, then one
 * value per sweep) through the same key table as the file itself.
 *
 * Nothing here copies the base per point for longer than it takes to
 * compile it: the experiment layer keeps the compiled spec and the labels.
 */
#include "keys.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"

size_t scn_key_canonical(const char *text, char *out, size_t n)
{
    /* "  outage   1 . end_s = 3" -> "outage 1.end_s" (up to '=' or the end) */
    size_t len = strcspn(text, "=");
    const char *dot = NULL;
    for (const char *p = text; p < text + len; p++)
        if (*p == '.')
            dot = p;
    size_t o = 0;
    int space = 0;
    for (const char *p = text; p < text + len && o + 1 < n; p++) {
        if (*p == ' ' || *p == '\t') {
            space = o > 0;
            continue;
        }
        if (space && p != dot && (o == 0 || out[o - 1] != '.') && o + 1 < n)
            out[o++] = ' ';
        space = 0;
        if (o + 1 < n)
            out[o++] = *p;
    }
    if (n)
        out[o < n ? o : n - 1] = '\0';
    return o;
}

/* Keys a variant or a sweep may not change, and why (NULL: it may). */
const char *scn_fixed_key(const char *canonical)
{
    if (!strncmp(canonical, "variant ", 8) || !strncmp(canonical, "variant.", 8))
        return "variants are declared in the scenario file, not varied";
    if (!strncmp(canonical, "sweep ", 6) || !strncmp(canonical, "sweep.", 6))
        return "a sweep's definition cannot vary";
    if (!strcmp(canonical, "run.name"))
        return "[run] name names the output folder of the whole run";
    if (!strcmp(canonical, "run.columns"))
        return "[run] columns chooses the printed table's columns for the whole run";
    if (!strcmp(canonical, "run.baseline_variant"))
        return "[run] baseline_variant pairs the variants of the whole run";
    return NULL;
}

/* ---- exact decimal ranges ------------------------------------------- */

/* A decimal number as digits x 10^-scale, exactly.  Accepts [+-]D[.D][e[+-]N];
 * -1 if the text is something else or needs more than 18 digits. */
static int decimal(const char *s, int64_t *digits, int *scale)
{
    const char *p = s;
    int neg = 0, nd = 0, sc = 0, any = 0;
    int64_t v = 0;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    for (int frac = 0;; p++) {
        if (*p == '.' && !frac) {
            frac = 1;
            continue;
        }
        if (*p < '0' || *p > '9')
            break;
        any = 1;
        if (v == 0 && *p == '0') {
            if (frac)
                sc++;
            continue;
        }
        if (++nd > 18)
            return -1;
        v = v * 10 + (*p - '0');
        if (frac)
            sc++;
    }
    if (!any)
        return -1;
    if (*p == 'e' || *p == 'E') {
        char *end;
        errno = 0;
        long e = strtol(p + 1, &end, 10);
        if (end == p + 1 || errno || e > 400 || e < -400)
            return -1;
        sc -= (int)e;
        p = end;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p)
        return -1;
    if (v == 0)
        sc = 0;
    /* normalise: no trailing zeros in the digits (when the scale allows) */
    while (v != 0 && v % 10 == 0 && sc > -18) {
        v /= 10;
        sc--;
    }
    *digits = neg ? -v : v;
    *scale = sc;
    return 0;
}

/* x * 10^k into *out without overflow (k >= 0): 0, or -1. */
static int scale_up(int64_t x, int k, int64_t *out)
{
    for (; k > 0; k--) {
        if (x > INT64_MAX / 10 || x < INT64_MIN / 10)
            return -1;
        x *= 10;
    }
    *out = x;
    return 0;
}

/* The decimal text of v x 10^-scale, without trailing zeros. */
static void decimal_text(int64_t v, int scale, char *out, size_t n)
{
    char digits[32];
    int neg = v < 0;
    uint64_t u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    snprintf(digits, sizeof digits, "%" PRIu64, u);
    int len = (int)strlen(digits);
    char buf[512];
    size_t o = 0;
    if (neg)
        buf[o++] = '-';
    if (scale <= 0) {
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s", digits);
        for (int i = 0; i < -scale && o + 1 < sizeof buf; i++)
            buf[o++] = '0';
        buf[o] = '\0';
    } else if (scale >= len) {
        o += (size_t)snprintf(buf + o, sizeof buf - o, "0.");
        for (int i = 0; i < scale - len && o + 1 < sizeof buf; i++)
            buf[o++] = '0';
        snprintf(buf + o, sizeof buf - o, "%s", digits);
    } else {
        snprintf(buf + o, sizeof buf - o, "%.*s.%s", len - scale, digits, digits + (len - scale));
    }
    if (strchr(buf, '.')) {
        size_t e = strlen(buf);
        while (e > 0 && buf[e - 1] == '0')
            buf[--e] = '\0';
        if (e > 0 && buf[e - 1] == '.')
            buf[--e] = '\0';
    }
    if (!strcmp(buf, "-0"))
        snprintf(buf, sizeof buf, "0");
    snprintf(out, n, "%s", buf);
}

/* FROM:TO:STEP into labels, exactly in decimal.  Returns the count, or -1
 * with *msg set; 0 if the text is not a range at all. */
static long range_labels(const char *v, char (*out)[SCN_VALUE_MAX], long max, const char **msg)
{
    char part[3][SCN_SWEEP_VALUES_MAX];
    const char *p = v;
    for (int i = 0; i < 3; i++) {
        size_t n = strcspn(p, ":");
        if ((i < 2 && p[n] != ':') || (i == 2 && p[n]) || n >= sizeof part[i])
            return i == 0 && !p[n] ? 0 : (*msg = "expected FROM:TO:STEP with three numbers", -1);
        memcpy(part[i], p, n);
        part[i][n] = '\0';
        p += n + (i < 2);
    }
    int64_t d[3];
    int sc[3];
    for (int i = 0; i < 3; i++)
        if (decimal(part[i], &d[i], &sc[i]) != 0) {
            *msg = "FROM:TO:STEP takes decimal numbers (e.g. 0.1:3:0.1 or 1e-3:1e-2:1e-3) of at most 18 digits";
            return -1;
        }
    int scale = sc[0];
    for (int i = 1; i < 3; i++)
        if (sc[i] > scale)
            scale = sc[i];
    int64_t F, T, S;
    if (scale - sc[0] > 36 || scale - sc[1] > 36 || scale - sc[2] > 36 || scale_up(d[0], scale - sc[0], &F) ||
        scale_up(d[1], scale - sc[1], &T) || scale_up(d[2], scale - sc[2], &S)) {
        *msg = "FROM:TO:STEP spans too many digits to enumerate exactly (FROM, TO and STEP at most 18 "
               "significant digits together)";
        return -1;
    }
    if (S <= 0 || T < F) {
        *msg = "FROM:TO:STEP needs STEP > 0 and FROM <= TO";
        return -1;
    }
    if ((T - F) / S + 1 > max) {
        *msg = SCN_SWEEP_TOO_MANY; /* the caller names its limit */
        return -1;
    }
    long count = (long)((T - F) / S + 1);
    double prev = 0;
    for (long i = 0; i < count; i++) {
        decimal_text(F + (int64_t)i * S, scale, out[i], SCN_VALUE_MAX);
        double x = strtod(out[i], NULL);
        if (i > 0 && x == prev) {
            *msg = "two points of this range are the same binary floating-point number; use a larger STEP";
            return -1;
        }
        prev = x;
    }
    return count;
}

/* The key "section.key" takes FROM:TO values (K_WINDOW): its sweep
 * values are a list, never a range. */
static bool takes_window(const char *name)
{
    const char *dot = strchr(name, '.');
    if (!dot)
        return false;
    for (size_t i = 0; i < scn_key_count; i++) {
        const key *k = &scn_key_table[i];
        if (k->type == K_WINDOW && strlen(k->section) == (size_t)(dot - name) &&
            !strncmp(k->section, name, (size_t)(dot - name)) && !strcmp(k->name, dot + 1))
            return true;
    }
    return false;
}

long scn_sweep_labels(const scn_sweep *s, char (*out)[SCN_VALUE_MAX], long max, const char **msg)
{
    const char *v = s->values;
    /* a value with parentheses is a distribution (a mixture has colons),
     * never a range; nor is a list of windows (FROM:TO) */
    long r = strchr(v, '(') || takes_window(s->key) ? 0 : range_labels(v, out, max, msg);
    if (r != 0)
        return r;
    long n = 0;
    int depth = 0;
    const char *start = v;
    for (const char *p = v;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if ((*p == ',' && depth == 0) || *p == '\0') {
            const char *a = start, *b = p;
            while (a < b && (*a == ' ' || *a == '\t'))
                a++;
            while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
                b--;
            if (a == b) {
                *msg = "expected FROM:TO:STEP or a comma-separated list of values, got an empty value";
                return -1;
            }
            if (b - a >= SCN_VALUE_MAX) {
                *msg = "a sweep value is longer than 63 characters";
                return -1;
            }
            for (const char *q = a; q < b; q++)
                if (!scn_label_byte((unsigned char)*q)) {
                    *msg = "a sweep value holds a control character, '\"', '\\', '`' or '@'; expected other characters "
                           "(they name the point in the results' CSVs)";
                    return -1;
                }
            if (n == max) {
                *msg = SCN_SWEEP_TOO_MANY; /* the caller names its limit */
                return -1;
            }
            memcpy(out[n], a, (size_t)(b - a));
            out[n][b - a] = '\0';
            for (long i = 0; i < n; i++)
                if (!strcmp(out[i], out[n])) {
                    *msg = "a value appears twice in the list";
                    return -1;
                }
            n++;
            start = p + 1;
        }
        if (!*p)
            break;
    }
    return n;
}

/* "PATH:LINE: [sweep NAME]", or for a --sweep "--sweep" (as the origin of
 * an assignment) or "--sweep KEY=VALUES" (whole). */
static void sweep_origin(const scn_sweep *s, const char *path, char *out, size_t n, int whole)
{
    if (s->line > 0)
        snprintf(out, n, "%s:%d: [sweep%s%s]", path, s->line, *s->name ? " " : "", s->name);
    else if (whole)
        snprintf(out, n, "--sweep %s=%s", s->key, s->values);
    else
        snprintf(out, n, "--sweep");
}

int scn_derive(scn_config *out, const scn_config *base, int variant, const char *const *labels,
               const char *path, char err[static SCN_ERR_MAX])
{
    *out = *base;
    char origin[SCN_ERR_MAX / 2], e[SCN_ERR_MAX], line[SCN_VARIANT_SETS_MAX];
    if (variant >= 0) {
        const scn_variant *v = &base->variants[variant];
        snprintf(origin, sizeof origin, "%s:%d: [variant %s]", path, v->line, v->name);
        for (const char *s = v->sets; *s;) {
            size_t n = strcspn(s, "\n");
            memcpy(line, s, n);
            line[n] = '\0';
            s += n + (s[n] == '\n');
            if (scn_set_coded(out, line, origin, SCN_ORIGIN_VARIANT(variant), e) != 0) {
                snprintf(err, SCN_ERR_MAX, "%s", e);
                return -1;
            }
        }
    }
    for (uint32_t i = 0; i < base->nsweeps; i++) {
        const scn_sweep *s = &base->sweeps[i];
        char assign[SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2];
        snprintf(assign, sizeof assign, "%s=%s", s->key, labels[i]);
        sweep_origin(s, path, origin, sizeof origin, 0);
        if (scn_set_coded(out, assign, origin, SCN_ORIGIN_SWEEP(i), e) != 0) {
            snprintf(err, SCN_ERR_MAX, "%s", e);
            return -1;
        }
    }
    if (variant < 0 && !base->nsweeps)
        return 0;
    char where[SCN_ERR_MAX / 2];
    if (variant >= 0)
        snprintf(where, sizeof where, "%s:%d: [variant %s]%s", path, base->variants[variant].line,
                 base->variants[variant].name, base->nsweeps ? " at sweep point" : "");
    else if (base->sweeps[0].line > 0)
        snprintf(where, sizeof where, "%s:%d: sweep point", path, base->sweeps[0].line);
    else
        snprintf(where, sizeof where, "%s: sweep point", path);
    size_t u = strlen(where);
    for (uint32_t i = 0; i < base->nsweeps && u < sizeof where; i++)
        u += (size_t)snprintf(where + u, sizeof where - u, " %s=%s", base->sweeps[i].key, labels[i]);
    return scn_validate(out, where, err);
}

int scn_check_variation(const scn_config *c, const char *path, const char *const *sets, const char *const *shown,
                        int nsets, char err[static SCN_ERR_MAX])
{
    char flag[SCN_ERR_MAX / 2];
    char a[SCN_SWEEP_KEY_MAX + 64], b[SCN_SWEEP_KEY_MAX + 64], origin[SCN_ERR_MAX / 2];
    const char *why;
    for (uint32_t i = 0; i < c->nsweeps; i++) {
        const scn_sweep *s = &c->sweeps[i];
        sweep_origin(s, path, origin, sizeof origin, 1);
        if (!*s->key || !*s->values) {
            snprintf(err, SCN_ERR_MAX, "%s: missing required key %s", origin, *s->key ? "values" : "key");
            return -1;
        }
        scn_key_canonical(s->key, a, sizeof a);
        if (!strchr(a, '.')) {
            snprintf(err, SCN_ERR_MAX, "%s key: expected section.key (e.g. clients.count), got '%s'", origin, s->key);
            return -1;
        }
        if ((why = scn_fixed_key(a))) {
            snprintf(err, SCN_ERR_MAX, "%s key: %s cannot be swept: %s", origin, a, why);
            return -1;
        }
        for (uint32_t j = 0; j < i; j++) {
            scn_key_canonical(c->sweeps[j].key, b, sizeof b);
            if (!strcmp(a, b)) {
                char first[SCN_ERR_MAX / 2];
                sweep_origin(&c->sweeps[j], path, first, sizeof first, 1);
                snprintf(err, SCN_ERR_MAX, "%s key: %s is already swept by %s; sweep each key once", origin, a,
                         first);
                return -1;
            }
        }
        for (uint32_t v = 0; v < c->nvariants; v++) {
            const scn_variant *var = &c->variants[v];
            for (const char *p = var->sets; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
                scn_key_canonical(p, b, sizeof b);
                if (!strcmp(a, b)) {
                    snprintf(err, SCN_ERR_MAX, "%s key: %s is also set by [variant %s] (%s:%d); a key is either "
                             "swept or set per variant", origin, a, var->name, path, var->line);
                    return -1;
                }
            }
        }
    }
    for (uint32_t v = 0; v < c->nvariants; v++) {
        const scn_variant *var = &c->variants[v];
        for (const char *p = var->sets; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
            scn_key_canonical(p, a, sizeof a);
            if ((why = scn_fixed_key(a))) {
                snprintf(err, SCN_ERR_MAX, "%s:%d: [variant %s] %s: cannot vary: %s", path, var->line, var->name, a,
                         why);
                return -1;
            }
        }
    }
    /* A --set of a key that a variant or sweep also sets would be silently
     * replaced at those points: refused. */
    for (int k = 0; k < nsets; k++) {
        scn_key_canonical(sets[k], a, sizeof a);
        if (!strncmp(a, "sweep", 5) || !strncmp(a, "variant", 7))
            continue;
        for (uint32_t i = 0; i < c->nsweeps; i++) {
            scn_key_canonical(c->sweeps[i].key, b, sizeof b);
            if (!strcmp(a, b)) {
                sweep_origin(&c->sweeps[i], path, origin, sizeof origin, 1);
                scn_override_text(sets, shown, k, flag, sizeof flag);
                snprintf(err, SCN_ERR_MAX, "%s: this key is swept by %s; set the sweep's values instead", flag,
                         origin);
                return -1;
            }
        }
        for (uint32_t v = 0; v < c->nvariants; v++)
            for (const char *p = c->variants[v].sets; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n')) {
                scn_key_canonical(p, b, sizeof b);
                if (!strcmp(a, b)) {
                    scn_override_text(sets, shown, k, flag, sizeof flag);
                    snprintf(err, SCN_ERR_MAX,
                             "%s: [variant %s] (%s:%d) also sets this key, and would replace it in that "
                             "variant; change the variant instead",
                             flag, c->variants[v].name, path, c->variants[v].line);
                    return -1;
                }
            }
    }
    return 0;
}
