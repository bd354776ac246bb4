/*
 * dist.c - parsing of duration distributions (see dist.h); sampling is the
 * model's (model/sample.c).
 */
#include "dist.h"

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
};

#define EXPECTED                                                                      \
    "expected a duration in seconds (numbers at most 1e9): a number, constant(V), uniform(LO, HI), "       \
    "exponential(MEAN), normal(MEAN, SD), abs_normal(MEAN, SD) or lognormal(MEAN, SD)"

/* Parses one finite number at *p, skipping spaces; advances *p. */
static int number(const char **p, double *out)
{
    while (**p == ' ' || **p == '\t')
        (*p)++;
    if (!**p)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(*p, &end);
    /* ERANGE on underflow (1e-310) is fine; overflow and anything past
     * 1e9 s (31 years) is not: every draw must stay finite. */
    if (end == *p || !isfinite(v) || (errno == ERANGE && fabs(v) >= 1) || fabs(v) > 1e9)
        return -1;
    *p = end;
    while (**p == ' ' || **p == '\t')
        (*p)++;
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
        if (*p != (i + 1 < kinds[k].nparams ? ',' : ')'))
            return kinds[k].nparams == 1 ? "this distribution takes one parameter: " EXPECTED
                                         : "this distribution takes two parameters: " EXPECTED;
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
        d.sigma = sqrt(log1p((d.b / d.a) * (d.b / d.a)));
        d.mu = log(d.a) - 0.5 * d.sigma * d.sigma;
        break;
    }
    *out = d;
    return NULL;
}
