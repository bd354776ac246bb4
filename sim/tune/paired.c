/*
 * paired.c - confidence bounds, the paired t test and Holm's correction
 * (see paired.h).  The t quantiles and tails come from GSL.
 */
#include "paired.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "../base/alloc.h"

void paired_mean_se(const double *x, size_t n, double *mean, double *se)
{
    double m = 0, ss = 0;
    for (size_t i = 0; i < n; i++) /* Welford: exact for equal values */
    {
        double d = x[i] - m;
        m += d / (double)(i + 1);
        ss += d * (x[i] - m);
    }
    *mean = n ? m : NAN;
    *se = n >= 2 ? sqrt(fmax(ss, 0) / (double)(n - 1) / (double)n) : 0;
    if (isnan(m)) /* a NaN sample: nothing is defined */
        *se = NAN;
}

/* 1 if every x[i] equals x[0]. */
static int constant(const double *x, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (x[i] != x[0])
            return 0;
    return 1;
}

void paired_bounds(const double *x, size_t n, double alpha, double *lower, double *upper)
{
    double m, se;
    paired_mean_se(x, n, &m, &se);
    if (n >= 2 && constant(x, n)) {
        int decided = ldexp(1.0, -(int)(n > 1000 ? 1000 : n)) <= alpha;
        *lower = decided ? m : -INFINITY;
        *upper = decided ? m : INFINITY;
        return;
    }
    double h = n >= 2 ? gsl_cdf_tdist_Qinv(alpha, (double)(n - 1)) * se : INFINITY;
    *lower = m - h;
    *upper = m + h;
}

double paired_ci95(const double *x, size_t n)
{
    if (n < 2)
        return NAN;
    double m, se;
    paired_mean_se(x, n, &m, &se);
    if (isnan(m))
        return NAN;
    return constant(x, n) ? 0 : gsl_cdf_tdist_Qinv(0.025, (double)(n - 1)) * se;
}

double paired_p_greater(const double *a, const double *b, size_t n)
{
    if (n < 2)
        return 1;
    double m = 0, ss = 0, d0 = a[0] - b[0];
    int same = 1;
    for (size_t i = 0; i < n; i++) {
        double d = a[i] - b[i];
        same &= d == d0;
        double e = d - m;
        m += e / (double)(i + 1);
        ss += e * (d - m);
    }
    if (same)
        return d0 > 0 ? ldexp(1.0, -(int)(n > 1000 ? 1000 : n)) : 1;
    double se = sqrt(fmax(ss, 0) / (double)(n - 1) / (double)n);
    if (!(se > 0))
        return m > 0 ? 0 : 1;
    return gsl_cdf_tdist_Q(m / se, (double)(n - 1));
}

long paired_holm(const double *p, size_t n, double alpha, int *reject)
{
    memset(reject, 0, n * sizeof *reject);
    size_t *order = herd_malloc_array(n ? n : 1, sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = 1; i < n; i++) { /* insertion sort: stable, ties by index */
        size_t v = order[i], k = i;
        while (k > 0 && p[order[k - 1]] > p[v]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = v;
    }
    long r = 0;
    for (size_t k = 0; k < n; k++) {
        if (!(p[order[k]] <= alpha / (double)(n - k)))
            break;
        reject[order[k]] = 1;
        r++;
    }
    herd_free(order);
    return r;
}
