/*
 * sample.c - draws of the spec's duration distributions (see sample.h),
 * with the GSL generator the simulation owns (their means: spec/dist.c).
 */
#include "sample.h"

#include <math.h>

#include <gsl/gsl_histogram.h>
#include <gsl/gsl_randist.h>

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
