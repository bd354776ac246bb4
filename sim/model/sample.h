/*
 * sample.h - draws from the scenario's duration distributions (spec/dist.h)
 * with a GSL generator owned by the simulation.
 */
#ifndef HERD_SAMPLE_H
#define HERD_SAMPLE_H

#include <gsl/gsl_rng.h>

#include "../spec/dist.h"
#include "../spec/table.h"

/* One draw from d using r: finite and >= 0.  `data` is the scenario's data
 * store (empirical and mixture distributions live there; NULL is fine for
 * the others).  No allocation: an empirical histogram is drawn through a
 * gsl_histogram_pdf view of the store's arrays. */
double dist_sample(const dist *d, const spec_table *data, gsl_rng *r);

/* The distribution's mean (for a truncated normal, the truncated mean;
 * +infinity for a pareto with SHAPE <= 1). */
double dist_mean(const dist *d, const spec_table *data);

#endif
