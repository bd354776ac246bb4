/*
 * sample.h - draws from the scenario's duration distributions (spec/dist.h)
 * with a GSL generator owned by the simulation.
 */
#ifndef HERD_SAMPLE_H
#define HERD_SAMPLE_H

#include <gsl/gsl_rng.h>

#include "../spec/dist.h"

/* One draw from d using r: finite and >= 0. */
double dist_sample(const dist *d, gsl_rng *r);

/* The distribution's mean (for a truncated normal, the truncated mean). */
double dist_mean(const dist *d);

#endif
