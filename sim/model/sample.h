/*
 * sample.h - draws from the scenario's duration distributions (spec/dist.h)
 * with a GSL generator owned by the simulation.
 */
#ifndef HERD_SAMPLE_H
#define HERD_SAMPLE_H

#include <math.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../spec/dist.h"
#include "../spec/table.h"

/* dist_sample's draw of the kinds it does not draw inline. */
double dist_sample_other(const dist *d, const spec_table *data, gsl_rng *r);

/* One draw from d using r: finite and >= 0.  `data` is the scenario's data
 * store (empirical and mixture distributions live there; NULL is fine for
 * the others).  No allocation: an empirical histogram is drawn through a
 * gsl_histogram_pdf view of the store's arrays.  Inline for the kinds of
 * the model's per-event draws (network delays, think times), which then
 * cost no call of their own. */
static inline double dist_sample(const dist *d, const spec_table *data, gsl_rng *r)
{
    double x;
    switch (d->kind) {
    case DIST_CONSTANT:
        return d->a;
    case DIST_NORMAL:
        if (d->b == 0)
            return d->a;
        do
            x = d->a + gsl_ran_gaussian_ziggurat(r, d->b);
        while (x < 0);
        return x;
    case DIST_ABS_NORMAL:
        return fabs(d->a + (d->b > 0 ? gsl_ran_gaussian_ziggurat(r, d->b) : 0));
    default:
        return dist_sample_other(d, data, r);
    }
}

/* dist_mean and dist_support are spec/dist.h's. */

#endif
