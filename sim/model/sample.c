/*
 * sample.c - draws and means of the spec's duration distributions (see
 * sample.h), with the GSL generator the simulation owns.
 */
#include "sample.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

double dist_sample(const dist *d, gsl_rng *r)
{
    double x;
    switch (d->kind) {
    case DIST_CONSTANT:
        return d->a;
    case DIST_UNIFORM:
        x = d->a + (d->b - d->a) * gsl_rng_uniform(r);
        return x < d->b || d->b == d->a ? x : d->a; /* rounding can reach HI: stay in [LO, HI) */
    case DIST_EXPONENTIAL:
        return gsl_ran_exponential(r, d->a);
    case DIST_NORMAL:
        if (d->b == 0)
            return d->a;
        do
            x = d->a + gsl_ran_gaussian_ziggurat(r, d->b);
        while (x < 0);
        return x;
    case DIST_ABS_NORMAL:
        return fabs(d->a + (d->b > 0 ? gsl_ran_gaussian_ziggurat(r, d->b) : 0));
    case DIST_LOGNORMAL:
        return d->b == 0 ? d->a : gsl_ran_lognormal(r, d->mu, d->sigma);
    }
    return 0;
}

double dist_mean(const dist *d)
{
    switch (d->kind) {
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
