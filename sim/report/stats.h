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

#endif
