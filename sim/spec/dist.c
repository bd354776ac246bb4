/*
 * dist.c - parsing of duration distributions, their means and supports
 * (see dist.h); sampling is the model's (model/sample.c).
 */
#include "dist.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>

#include "table.h"


/* The lognormal's other forms: by its median and sigma (the SD of its
 * logarithm), or by its median and 99th percentile. */
enum { FORM_PLAIN, FORM_MEDIAN, FORM_P50_P99 };

static const struct {
    const char *name;
    dist_kind kind;
    int nparams;
    int form;
} kinds[] = {
    {"constant", DIST_CONSTANT, 1, 0},   {"uniform", DIST_UNIFORM, 2, 0},
    {"exponential", DIST_EXPONENTIAL, 1, 0}, {"normal", DIST_NORMAL, 2, 0},
    {"abs_normal", DIST_ABS_NORMAL, 2, 0}, {"lognormal", DIST_LOGNORMAL, 2, FORM_PLAIN},
    {"lognormal_median", DIST_LOGNORMAL, 2, FORM_MEDIAN}, {"lognormal_p50_p99", DIST_LOGNORMAL, 2, FORM_P50_P99},
    {"pareto", DIST_PARETO, 2, 0},       {"weibull", DIST_WEIBULL, 2, 0},
    {"gamma", DIST_GAMMA, 2, 0},
};

/* The standard normal's 99th percentile (gsl_cdf_ugaussian_Pinv(0.99)). */
#define Z99 2.3263478740408408
/* The widest lognormal: SD <= 1000 MEAN, i.e. sigma^2 <= ln(1 + 1e6). */
#define SIGMA_MAX 3.7169

#define EXPECTED                                                                      \
    "expected a duration in seconds (numbers 0 or between 1e-9 and 1e9): a number, constant(V), uniform(LO, HI), " \
    "exponential(MEAN), normal(MEAN, SD), abs_normal(MEAN, SD), lognormal(MEAN, SD), lognormal_median(MEDIAN, " \
    "SIGMA), lognormal_p50_p99(P50, P99), pareto(SCALE, SHAPE), " \
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
        if (kinds[k].form != FORM_PLAIN) { /* to the mean and SD, the log-space parameters as given */
            double med = d.a, sigma = d.b;
            if (kinds[k].form == FORM_MEDIAN && (!(med > 0) || sigma < 0 || sigma > SIGMA_MAX))
                return "lognormal_median(MEDIAN, SIGMA) needs MEDIAN > 0 and 0 <= SIGMA <= 3.7169 (the SD of "
                       "the logarithm; a wider one has no usable samples)";
            if (kinds[k].form == FORM_P50_P99) {
                if (!(med > 0) || d.b < med)
                    return "lognormal_p50_p99(P50, P99) needs 0 < P50 <= P99";
                sigma = log(d.b / med) / Z99;
                if (sigma > SIGMA_MAX)
                    return "lognormal_p50_p99(P50, P99) needs P99 <= 5,690 P50 (sigma <= 3.7169: a wider one has "
                           "no usable samples)";
            }
            d.mu = log(med);
            d.sigma = sigma;
            d.a = med * exp(0.5 * sigma * sigma);
            d.b = d.a * sqrt(expm1(sigma * sigma));
            if (!(d.a <= 1e9))
                return "this lognormal's mean is above 1e9 s; expected a smaller median or sigma";
            break;
        }
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

double dist_mean(const dist *d, const spec_table *data)
{
    switch (d->kind) {
    case DIST_PARETO:
        return d->b > 1 ? d->b * d->a / (d->b - 1) : INFINITY;
    case DIST_WEIBULL:
        return d->a * gsl_sf_gamma(1 + 1 / d->b);
    case DIST_GAMMA:
        return d->a * d->b;
    case DIST_EMPIRICAL:
    case DIST_MIXTURE: {
        const spec_entry *e = spec_table_entry(data, d->ref);
        return e ? e->mean : NAN;
    }
    case DIST_CONSTANT:
    case DIST_EXPONENTIAL:
    case DIST_LOGNORMAL:
        return d->a;
    case DIST_UNIFORM:
        return 0.5 * (d->a + d->b);
    case DIST_NORMAL: {
        if (d->b == 0)
            return d->a;
        double alpha = -d->a / d->b;
        double pdf = exp(-0.5 * alpha * alpha) / sqrt(2 * M_PI);
        return d->a + d->b * pdf / gsl_cdf_ugaussian_Q(alpha);
    }
    case DIST_ABS_NORMAL: {
        double m = d->a, s = d->b;
        if (s == 0)
            return fabs(m);
        return s * sqrt(2 / M_PI) * exp(-m * m / (2 * s * s)) + m * (1 - 2 * gsl_cdf_ugaussian_P(-m / s));
    }
    }
    return 0;
}

/* The support of an empirical or mixture entry (components are never
 * mixtures: the parser refuses nesting). */
static void entry_support(const dist *d, const spec_table *data, double *lo, double *hi)
{
    const spec_entry *e = spec_table_entry(data, d->ref);
    *lo = *hi = NAN;
    if (!e || e->n == 0)
        return;
    const double *v = data->v + e->off;
    if (e->kind == SPEC_DATA_SAMPLES) {
        *lo = *hi = v[0];
        for (uint32_t i = 1; i < e->n; i++) {
            *lo = fmin(*lo, v[i]);
            *hi = fmax(*hi, v[i]);
        }
    } else if (e->kind == SPEC_DATA_HISTOGRAM) {
        const double *range = v, *cum = v + e->n + 1;
        for (uint32_t i = 0; i < e->n; i++)
            if (cum[i + 1] > cum[i]) {
                if (isnan(*lo))
                    *lo = range[i];
                *hi = range[i + 1];
            }
    } else if (e->kind == SPEC_DATA_MIXTURE && d->kind == DIST_MIXTURE) {
        for (uint32_t i = 0; i < e->n; i++) {
            const dist *c = &data->d[e->doff + i];
            double l, h;
            if (!(v[i] > (i ? v[i - 1] : 0)) || c->kind == DIST_MIXTURE)
                continue; /* weight 0 */
            dist_support(c, data, &l, &h);
            *lo = isnan(*lo) ? l : fmin(*lo, l);
            *hi = isnan(*hi) ? h : fmax(*hi, h);
        }
    }
}

void dist_support(const dist *d, const spec_table *data, double *lo, double *hi)
{
    double l = 0, h = INFINITY;
    switch (d->kind) {
    case DIST_CONSTANT:
        l = h = d->a;
        break;
    case DIST_UNIFORM:
        l = d->a;
        h = d->b;
        break;
    case DIST_NORMAL:
    case DIST_LOGNORMAL:
        if (d->b == 0)
            l = h = d->a;
        break;
    case DIST_ABS_NORMAL:
        if (d->b == 0)
            l = h = fabs(d->a);
        break;
    case DIST_PARETO:
        l = d->a;
        break;
    case DIST_EXPONENTIAL:
    case DIST_WEIBULL:
    case DIST_GAMMA:
        break;
    case DIST_EMPIRICAL:
    case DIST_MIXTURE:
        entry_support(d, data, &l, &h);
        break;
    }
    if (lo)
        *lo = l;
    if (hi)
        *hi = h;
}
