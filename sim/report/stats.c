/*
 * stats.c - mean and Student-t confidence interval (see stats.h).
 */
#include "stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

void stats_mean_ci95(const double *x, size_t n, double *mean, double *half)
{
    *mean = *half = NAN;
    if (n == 0)
        return;
    *mean = gsl_stats_mean(x, 1, n);
    if (n < 2)
        return;
    double sd = gsl_stats_sd_m(x, 1, n, *mean);
    *half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sd / sqrt((double)n);
}
