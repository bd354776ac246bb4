/*
 * dist.h - the random durations a scenario can ask for (service times,
 * network delays, think times), written in scenario files as
 *
 *   constant(V)        always V
 *   uniform(LO, HI)    uniform on [LO, HI)
 *   exponential(MEAN)  exponential with the given mean
 *   normal(MEAN, SD)   normal truncated at 0 (redrawn while negative)
 *   abs_normal(MEAN, SD)  |Normal(MEAN, SD)|, as in the AWS 2015 simulation
 *   lognormal(MEAN, SD)   lognormal with that mean and standard deviation
 *
 * Every value is seconds.  A bare number V means constant(V).  All draws are
 * finite and >= 0.  This file is plain data and parsing (no GSL); draws
 * are the model's (model/sample.h).
 */
#ifndef HERD_DIST_H
#define HERD_DIST_H

#include <stddef.h>

typedef enum dist_kind {
    DIST_CONSTANT = 0,
    DIST_UNIFORM,
    DIST_EXPONENTIAL,
    DIST_NORMAL,
    DIST_ABS_NORMAL,
    DIST_LOGNORMAL
} dist_kind;

typedef struct dist {
    dist_kind kind;
    double a, b; /* parameters as written (see above) */
    double mu, sigma; /* lognormal: derived log-space parameters */
} dist;

/* The one number syntax of scenario files: optional blanks, an optional
 * sign, decimal digits with an optional fraction and an optional exponent
 * (1, -2.5, .5, 1e-3), optional blanks.  No hex, inf or nan; a value that
 * overflows or underflows a double is refused.  spec_scan_number reads one
 * at *p and advances *p past it (and trailing blanks); spec_parse_number
 * wants the whole text.  Both return 0 and *out, or -1. */
int spec_scan_number(const char **p, double *out);
int spec_parse_number(const char *s, double *out);

/* Parses `text`.  Returns NULL and fills *out, or a static message saying
 * what was expected (nothing written to *out). */
const char *dist_parse(const char *text, dist *out);

#endif
