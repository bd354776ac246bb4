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
 *   lognormal_median(MEDIAN, SIGMA)  the same family by its median e^mu
 *                         and sigma, the SD of its logarithm
 *   lognormal_p50_p99(P50, P99)  by its median and 99th percentile
 *                         (sigma = ln(P99/P50) / 2.3263)
 *                         (both stored as lognormal(MEAN, SD), mu and
 *                         sigma as given)
 *   pareto(SCALE, SHAPE)  Pareto: SCALE * U^(-1/SHAPE), >= SCALE (heavy tail)
 *   weibull(SCALE, SHAPE) Weibull: P(X > x) = exp(-(x/SCALE)^SHAPE)
 *   gamma(SHAPE, SCALE)   gamma with that shape and scale (mean SHAPE*SCALE)
 *   empirical(FILE.csv)   observed values or a histogram, from a data file
 *   mixture(P1: D1, P2: D2, ...)  D_i with probability P_i
 *
 * The last two refer to an entry of the scenario's data store
 * (spec/table.h) by index; the scenario layer reads the files and parses
 * mixtures (scenario/data.c).
 * Every value is seconds.  A bare number V means constant(V).  All draws are
 * finite and >= 0.  This file is plain data, parsing and what parsing and
 * validation need to know of a distribution (its mean and its support,
 * from GSL's special functions, no generator); draws are the model's
 * (model/sample.h).
 */
#ifndef HERD_DIST_H
#define HERD_DIST_H

#include <stddef.h>
#include <stdint.h>

typedef enum dist_kind {
    DIST_CONSTANT = 0,
    DIST_UNIFORM,
    DIST_EXPONENTIAL,
    DIST_NORMAL,
    DIST_ABS_NORMAL,
    DIST_LOGNORMAL,
    DIST_PARETO,
    DIST_WEIBULL,
    DIST_GAMMA,
    DIST_EMPIRICAL,             /* ref: a SAMPLES or HISTOGRAM entry */
    DIST_MIXTURE                /* ref: a MIXTURE entry */
} dist_kind;

typedef struct dist {
    dist_kind kind;
    uint32_t ref; /* empirical, mixture: entry of the data store (spec/table.h) */
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

struct spec_table;

/* The distribution's mean (for a truncated normal, the truncated mean;
 * +infinity for a pareto with SHAPE <= 1).  `data` is the scenario's data
 * store (spec/table.h), read for empirical and mixture distributions (their
 * entry's mean; NaN when the entry is missing); NULL is fine for the
 * others. */
double dist_mean(const dist *d, const struct spec_table *data);

/* The support of d: *lo the infimum of its draws (the smallest value a
 * draw can take, or approach: 0 for exponential, lognormal, weibull and
 * gamma), *hi their supremum (+infinity for the unbounded kinds), with
 * lo <= hi.  constant(V): [V, V]; uniform(LO, HI): [LO, HI]; a normal or
 * abs_normal with SD 0 and a lognormal with SD 0 are constants; pareto:
 * [SCALE, +inf); empirical: the smallest and largest sample, or the edges
 * of the outermost histogram bins with a positive count; mixture: the
 * union over the components of positive weight.  An empirical or mixture
 * whose entry is missing from data gives [NaN, NaN] (and so fails every
 * comparison).  Either pointer may be NULL. */
void dist_support(const dist *d, const struct spec_table *data, double *lo, double *hi);

#endif
