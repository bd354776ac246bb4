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

void stats_mean_ci95_defined(const double *x, size_t n, double *mean, double *half, size_t *defined)
{
    double sum = 0, sq = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i])) {
            sum += x[i];
            m++;
        }
    *defined = m;
    *mean = *half = NAN;
    if (m == 0)
        return;
    *mean = sum / (double)m;
    if (m < 2)
        return;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i]))
            sq += (x[i] - *mean) * (x[i] - *mean);
    double sd = sqrt(sq / (double)(m - 1));
    *half = gsl_cdf_tdist_Pinv(0.975, (double)(m - 1)) * sd / sqrt((double)m);
}

void stats_wilson95(double k, double n, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (!(n > 0) || k < 0 || k > n)
        return;
    double z = gsl_cdf_ugaussian_Pinv(0.975), z2 = z * z, p = k / n;
    double denom = 1 + z2 / n;
    double centre = (p + z2 / (2 * n)) / denom;
    double half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom;
    *lo = k == 0 ? 0 : centre - half;
    *hi = k == n ? 1 : centre + half;
}
