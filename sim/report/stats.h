/*
 * stats.h - summary statistics over replications.
 */
#ifndef HERD_STATS_H
#define HERD_STATS_H

#include <stddef.h>

/* Mean of x[0..n) and the half-width of its two-sided 95% confidence
 * interval, t(0.975, n-1) * s / sqrt(n) (Student t, from GSL).  With n < 2
 * the half-width is NaN; with n == 0 both are NaN.  NaN samples make both
 * NaN. */
void stats_mean_ci95(const double *x, size_t n, double *mean, double *half);

/* The same over the samples that are not NaN (a metric defined only in
 * some runs); *defined is their number. */
void stats_mean_ci95_defined(const double *x, size_t n, double *mean, double *half, size_t *defined);

/* Wilson score 95% interval [*lo, *hi] of a proportion, k successes in n
 * trials (z = the standard normal 0.975 quantile, from GSL); exact 0 and 1
 * at k = 0 and k = n; NaN for n == 0. */
void stats_wilson95(double k, double n, double *lo, double *hi);

#endif
