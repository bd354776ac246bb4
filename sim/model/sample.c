/*
 * sample.c - draws and means of the spec's duration distributions (see
 * sample.h), with the GSL generator the simulation owns.
 */
#include "sample.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

/* Draws from an empirical entry: a uniformly chosen observed value, or a
 * bucket chosen in proportion to its count and a uniform point in it. */
static double empirical_sample(const spec_table *data, const spec_entry *e, gsl_rng *r)
{
    if (e->kind == SPEC_DATA_SAMPLES)
        return data->v[e->off + gsl_rng_uniform_int(r, e->n)];
    /* the store's arrays have exactly the layout of a gsl_histogram_pdf */
    gsl_histogram_pdf pdf = {.n = e->n, .range = data->v + e->off, .sum = data->v + e->off + e->n + 1};
    return gsl_histogram_pdf_sample(&pdf, gsl_rng_uniform(r));
}

/* Draws from a mixture: a component chosen by its weight, then a draw of
 * it (components are never mixtures: the parser refuses nesting). */
static double mixture_sample(const spec_table *data, const spec_entry *e, gsl_rng *r)
{
    double u = gsl_rng_uniform(r);
    const double *cum = data->v + e->off;
    uint32_t i = 0;
    while (i + 1 < e->n && u >= cum[i]) /* at most SPEC_MIX_MAX components */
        i++;
    return dist_sample(&data->d[e->doff + i], data, r);
}

double dist_sample_other(const dist *d, const spec_table *data, gsl_rng *r)
{
    double x;
    switch (d->kind) {
    case DIST_PARETO:
        return gsl_ran_pareto(r, d->b, d->a);
    case DIST_WEIBULL:
        return gsl_ran_weibull(r, d->a, d->b);
    case DIST_GAMMA:
        return gsl_ran_gamma(r, d->a, d->b);
    case DIST_EMPIRICAL: {
        const spec_entry *e = spec_table_entry(data, d->ref);
        return e ? empirical_sample(data, e, r) : 0;
    }
    case DIST_MIXTURE: {
        const spec_entry *e = spec_table_entry(data, d->ref);
        return e ? mixture_sample(data, e, r) : 0;
    }
    case DIST_UNIFORM:
        x = d->a + (d->b - d->a) * gsl_rng_uniform(r);
        return x < d->b || d->b == d->a ? x : d->a; /* rounding can reach HI: stay in [LO, HI) */
    case DIST_EXPONENTIAL:
        return gsl_ran_exponential(r, d->a);
    case DIST_LOGNORMAL:
        return d->b == 0 ? d->a : gsl_ran_lognormal(r, d->mu, d->sigma);
    case DIST_CONSTANT:
    case DIST_NORMAL:
    case DIST_ABS_NORMAL:
        return dist_sample(d, data, r); /* drawn inline there */
    }
    return 0;
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
