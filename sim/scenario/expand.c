/*
 * expand.c - a scenario's variants and sweeps into the points of a run:
 * copies of the config with section.key=value overrides applied through
 * the parser itself (scn_set), so every key can be varied and every value
 * is checked before anything runs.
 */
#include "keys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engine/alloc.h"

/* Splits a sweep's values into out[0..max).  Returns the count or -1 with
 * msg set. */
static long sweep_values(const scn_sweep *s, char (*out)[SCN_VALUE_MAX], long max, const char **msg)
{
    const char *v = s->values;
    double from, to, step;
    char tail;
    if (scn_parse_range(v, &from, &to, &step, &tail) == 0) {
        if (!(step > 0) || to < from) {
            *msg = "FROM:TO:STEP needs STEP > 0 and FROM <= TO";
            return -1;
        }
        double count = floor((to - from) / step + 1e-9) + 1;
        if (count > (double)max) {
            *msg = "too many sweep values (at most 10000 points in all)";
            return -1;
        }
        for (long i = 0; i < (long)count; i++)
            snprintf(out[i], SCN_VALUE_MAX, "%.10g", from + (double)i * step);
        return (long)count;
    }
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
            if (n == max) {
                *msg = "too many sweep values (at most 10000 points in all)";
                return -1;
            }
            memcpy(out[n], a, (size_t)(b - a));
            out[n][b - a] = '\0';
            n++;
            start = p + 1;
        }
        if (!*p)
            break;
    }
    return n;
}

long scn_expand(const scn_config *c, const char *path, scn_point **points, char err[SCN_ERR_MAX])
{
    enum { MAXPTS = 10000 };
    char (*vals)[SCN_VALUE_MAX] = NULL;
    long nv[SCN_MAX_SWEEPS], off[SCN_MAX_SWEEPS], total = 1, used = 0;
    scn_point *pts = NULL;
    *points = NULL;
    vals = herd_malloc_array(MAXPTS, sizeof *vals);
    if (!vals)
        goto oom;
    for (uint32_t i = 0; i < c->nsweeps; i++) {
        const scn_sweep *s = &c->sweeps[i];
        const char *msg = NULL;
        if (!*s->key || !*s->values) {
            snprintf(err, SCN_ERR_MAX, "%s:%d: [sweep%s%s]: missing required key %s", path, s->line,
                     *s->name ? " " : "", s->name, *s->key ? "values" : "key");
            goto fail;
        }
        off[i] = used;
        nv[i] = sweep_values(s, vals + used, MAXPTS - used, &msg);
        if (nv[i] < 0) {
            snprintf(err, SCN_ERR_MAX, "%s:%d: [sweep%s%s] values: %s", path, s->line, *s->name ? " " : "",
                     s->name, msg);
            goto fail;
        }
        used += nv[i];
        total *= nv[i];
        if (total > MAXPTS) {
            snprintf(err, SCN_ERR_MAX, "%s:%d: [sweep%s%s]: the sweeps make more than 10000 points", path, s->line,
                     *s->name ? " " : "", s->name);
            goto fail;
        }
    }
    long nvar = c->nvariants ? (long)c->nvariants : 1;
    if (total * nvar > MAXPTS) {
        snprintf(err, SCN_ERR_MAX, "%s: the variants and sweeps make more than 10000 points", path);
        goto fail;
    }
    pts = herd_calloc((size_t)(total * nvar), sizeof *pts);
    if (!pts)
        goto oom;
    for (long p = 0; p < total * nvar; p++) {
        scn_point *pt = &pts[p];
        pt->cfg = *c;
        if (c->nvariants) {
            /* variants outermost: apply the variant's overrides first */
            const scn_variant *v = &c->variants[p / total];
            pt->variant = pt->cfg.variants[p / total].name;
            char origin[SCN_ERR_MAX / 2], e[SCN_ERR_MAX], line[SCN_VARIANT_SETS_MAX];
            snprintf(origin, sizeof origin, "%s:%d: [variant %s]", path, v->line, v->name);
            for (const char *s = v->sets; *s;) {
                size_t n = strcspn(s, "\n");
                memcpy(line, s, n);
                line[n] = '\0';
                s += n + (s[n] == '\n');
                if (strncmp(line, "variant", 7) == 0 || strncmp(line, "sweep", 5) == 0) {
                    snprintf(err, SCN_ERR_MAX, "%s: a variant cannot change variants or sweeps", origin);
                    goto fail;
                }
                if (scn_set(&pt->cfg, line, origin, e) != 0) {
                    snprintf(err, SCN_ERR_MAX, "%s", e);
                    goto fail;
                }
            }
        }
        long rest = p % total;
        for (int i = (int)c->nsweeps - 1; i >= 0; i--) {
            long k = rest % nv[i];
            rest /= nv[i];
            snprintf(pt->value[i], SCN_VALUE_MAX, "%s", vals[off[i] + k]);
        }
        for (uint32_t i = 0; i < c->nsweeps; i++) {
            const scn_sweep *s = &c->sweeps[i];
            char assign[SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2], origin[SCN_ERR_MAX / 2], e[SCN_ERR_MAX];
            snprintf(assign, sizeof assign, "%s=%s", s->key, pt->value[i]);
            if (s->line > 0)
                snprintf(origin, sizeof origin, "%s:%d: [sweep%s%s]", path, s->line, *s->name ? " " : "", s->name);
            else
                snprintf(origin, sizeof origin, "--sweep");
            if (strncmp(s->key, "sweep", 5) == 0 && (s->key[5] == ' ' || s->key[5] == '.')) {
                snprintf(err, SCN_ERR_MAX, "%s: a sweep cannot sweep another sweep", origin);
                goto fail;
            }
            if (scn_set(&pt->cfg, assign, origin, e) != 0) {
                snprintf(err, SCN_ERR_MAX, "%s", e);
                goto fail;
            }
        }
        char where[SCN_ERR_MAX / 2];
        if (pt->variant)
            snprintf(where, sizeof where, "%s:%d: [variant %s]%s", path, c->variants[p / total].line, pt->variant,
                     c->nsweeps ? " at sweep point" : "");
        else if (c->nsweeps && c->sweeps[0].line > 0)
            snprintf(where, sizeof where, "%s:%d: sweep point", path, c->sweeps[0].line);
        else
            snprintf(where, sizeof where, "%s: sweep point", path);
        size_t u = strlen(where);
        for (uint32_t i = 0; i < c->nsweeps && u < sizeof where; i++)
            u += (size_t)snprintf(where + u, sizeof where - u, " %s=%s", c->sweeps[i].key, pt->value[i]);
        if ((c->nsweeps || c->nvariants) && scn_validate(&pt->cfg, where, err) != 0)
            goto fail;
    }
    herd_free(vals);
    *points = pts;
    return total * nvar;
oom:
    snprintf(err, SCN_ERR_MAX, "%s: out of memory expanding the sweeps", path);
fail:
    herd_free(vals);
    herd_free(pts);
    return -1;
}
