/*
 * dist.c - parsing of duration distributions (see dist.h); sampling is the
 * model's (model/sample.c).
 */
#include "dist.h"

#include "table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const struct {
    const char *name;
    dist_kind kind;
    int nparams;
} kinds[] = {
    {"constant", DIST_CONSTANT, 1},   {"uniform", DIST_UNIFORM, 2},
    {"exponential", DIST_EXPONENTIAL, 1}, {"normal", DIST_NORMAL, 2},
    {"abs_normal", DIST_ABS_NORMAL, 2}, {"lognormal", DIST_LOGNORMAL, 2},
    {"pareto", DIST_PARETO, 2},       {"weibull", DIST_WEIBULL, 2},
    {"gamma", DIST_GAMMA, 2},
};

#define EXPECTED                                                                      \
    "expected a duration in seconds (numbers 0 or between 1e-9 and 1e9): a number, constant(V), uniform(LO, HI), " \
    "exponential(MEAN), normal(MEAN, SD), abs_normal(MEAN, SD), lognormal(MEAN, SD), pareto(SCALE, SHAPE), " \
    "weibull(SCALE, SHAPE), gamma(SHAPE, SCALE), empirical(FILE.csv) or mixture(P1: DIST1, P2: DIST2, ...)"

int spec_scan_number(const char **p, double *out)
{
    const char *s = *p, *q;
    while (*s == ' ' || *s == '\t')
        s++;
    q = s;
    if (*q == '-' || *q == '+')
        q++;
    size_t ip = strspn(q, "0123456789"), fp = 0;
    q += ip;
    if (*q == '.') {
        fp = strspn(q + 1, "0123456789");
        q += 1 + fp;
    }
    if (ip + fp == 0)
        return -1;
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1;
        if (*e == '-' || *e == '+')
            e++;
        size_t ep = strspn(e, "0123456789");
        if (ep == 0)
            return -1;
        q = e + ep;
    }
    /* only the text just checked reaches strtod: no hex, inf or nan */
    char buf[128];
    if ((size_t)(q - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(q - s));
    buf[q - s] = '\0';
    errno = 0;
    double v = strtod(buf, NULL);
    if (!isfinite(v) || (errno == ERANGE && fabs(v) >= 1))
        return -1;
    if (errno == ERANGE || (v != 0 && fabs(v) < 1e-300))
        return -1; /* underflow: not representable as written */
    while (*q == ' ' || *q == '\t')
        q++;
    *p = q;
    *out = v;
    return 0;
}

int spec_parse_number(const char *s, double *out)
{
    double v;
    if (spec_scan_number(&s, &v) != 0 || *s)
        return -1;
    *out = v;
    return 0;
}

/* Parses one number of a distribution at *p: finite, 0 or of magnitude in
 * [1e-9, 1e9] (a duration between a nanosecond and 31 years).  Advances *p. */
static int number(const char **p, double *out)
{
    double v;
    if (spec_scan_number(p, &v) != 0 || fabs(v) > 1e9 || (v != 0 && fabs(v) < 1e-9))
        return -1;
    *out = v;
    return 0;
}

const char *dist_parse(const char *text, dist *out)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    dist d = {0};
    double v;
    const char *q = p;
    if (number(&q, &v) == 0 && *q == '\0') {
        if (v < 0)
            return "a duration must be >= 0";
        d.kind = DIST_CONSTANT;
        d.a = v;
        *out = d;
        return NULL;
    }
    size_t n = strcspn(p, "( \t");
    size_t k;
    for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (strlen(kinds[k].name) == n && strncmp(p, kinds[k].name, n) == 0)
            break;
    if (k == sizeof kinds / sizeof kinds[0])
        return EXPECTED;
    p += n;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != '(')
        return EXPECTED;
    double par[2] = {0, 0};
    for (int i = 0; i < kinds[k].nparams; i++) {
        if (number(&p, &par[i]) != 0)
            return EXPECTED;
        if (*p != (i + 1 < kinds[k].nparams ? ',' : ')')) {
            if (*p != ',' && *p != ')')
                return EXPECTED; /* not a number: 0x1p-4, 1e, ... */
            return kinds[k].nparams == 1 ? "this distribution takes one parameter: " EXPECTED
                                         : "this distribution takes two parameters: " EXPECTED;
        }
        p++;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p)
        return "trailing characters after the distribution";
    d.kind = kinds[k].kind;
    d.a = par[0];
    d.b = par[1];
    switch (d.kind) {
    case DIST_CONSTANT:
        if (d.a < 0)
            return "constant(V) needs V >= 0";
        break;
    case DIST_UNIFORM:
        if (d.a < 0 || d.b < d.a)
            return "uniform(LO, HI) needs 0 <= LO <= HI";
        break;
    case DIST_EXPONENTIAL:
        if (!(d.a > 0))
            return "exponential(MEAN) needs MEAN > 0";
        break;
    case DIST_NORMAL:
        if (d.b < 0)
            return "normal(MEAN, SD) needs SD >= 0";
        if (d.b == 0 ? d.a < 0 : d.a < -3 * d.b)
            return "normal(MEAN, SD) is truncated at 0 and needs MEAN >= -3 SD (else almost every draw is redrawn)";
        break;
    case DIST_ABS_NORMAL:
        if (d.b < 0)
            return "abs_normal(MEAN, SD) needs SD >= 0";
        break;
    case DIST_LOGNORMAL:
        if (!(d.a > 0) || d.b < 0)
            return "lognormal(MEAN, SD) needs MEAN > 0 and SD >= 0";
        if (d.b > 1000 * d.a)
            return "lognormal(MEAN, SD) needs SD <= 1000 MEAN (a wider one has no usable samples)";
        d.sigma = sqrt(log1p((d.b / d.a) * (d.b / d.a)));
        d.mu = log(d.a) - 0.5 * d.sigma * d.sigma;
        break;
    case DIST_PARETO:
        /* the largest draw is SCALE * (2^32)^(1/SHAPE): finite for SHAPE >= 0.1 */
        if (!(d.a > 0) || d.b < 0.1)
            return "pareto(SCALE, SHAPE) needs SCALE > 0 and SHAPE >= 0.1";
        break;
    case DIST_WEIBULL:
        if (!(d.a > 0) || d.b < 0.1)
            return "weibull(SCALE, SHAPE) needs SCALE > 0 and SHAPE >= 0.1";
        break;
    case DIST_GAMMA:
        if (!(d.a > 0) || !(d.b > 0))
            return "gamma(SHAPE, SCALE) needs SHAPE > 0 and SCALE > 0";
        break;
    case DIST_EMPIRICAL:
    case DIST_MIXTURE:
        break; /* not in the table above: the scenario layer parses them */
    }
    *out = d;
    return NULL;
}

/* The support of a data entry (samples, histogram, mixture). */
static void entry_support(const spec_table *data, const spec_entry *e, double *lo, double *hi)
{
    const double *v = data->v + e->off;
    *lo = INFINITY;
    *hi = -INFINITY;
    if (e->kind == SPEC_DATA_SAMPLES) {
        for (uint32_t i = 0; i < e->n; i++) {
            *lo = v[i] < *lo ? v[i] : *lo;
            *hi = v[i] > *hi ? v[i] : *hi;
        }
    } else if (e->kind == SPEC_DATA_HISTOGRAM) {
        const double *range = v, *cum = v + e->n + 1;
        for (uint32_t i = 0; i < e->n; i++)
            if (cum[i + 1] > cum[i]) { /* a bucket of non-zero count */
                *lo = range[i] < *lo ? range[i] : *lo;
                *hi = range[i + 1] > *hi ? range[i + 1] : *hi;
            }
    } else if (e->kind == SPEC_DATA_MIXTURE) {
        for (uint32_t i = 0; i < e->n; i++) { /* weights are > 0: every component counts */
            double l, h;
            const dist *c = &data->d[e->doff + i];
            if (c->kind == DIST_MIXTURE) { /* never: nesting is refused */
                l = 0;
                h = INFINITY;
            } else {
                dist_support(c, data, &l, &h);
            }
            *lo = l < *lo ? l : *lo;
            *hi = h > *hi ? h : *hi;
        }
    }
    if (!(*lo <= *hi)) { /* no rows: the widest */
        *lo = 0;
        *hi = INFINITY;
    }
}

void dist_support(const dist *d, const spec_table *data, double *lo, double *hi)
{
    *lo = 0;
    *hi = INFINITY;
    switch (d->kind) {
    case DIST_CONSTANT:
        *lo = *hi = d->a;
        break;
    case DIST_UNIFORM:
        *lo = d->a;
        *hi = d->b;
        break;
    case DIST_NORMAL:   /* truncated at 0 */
    case DIST_LOGNORMAL:
        if (d->b == 0)
            *lo = *hi = d->a;
        break;
    case DIST_ABS_NORMAL:
        if (d->b == 0)
            *lo = *hi = fabs(d->a);
        break;
    case DIST_PARETO:
        *lo = d->a;
        break;
    case DIST_EXPONENTIAL:
    case DIST_WEIBULL:
    case DIST_GAMMA:
        break;
    case DIST_EMPIRICAL:
    case DIST_MIXTURE: {
        const spec_entry *e = data ? spec_table_entry(data, d->ref) : NULL;
        if (e)
            entry_support(data, e, lo, hi);
        break;
    }
    }
}
