/*
 * paired.h - the statistics herd tune decides with: one-sided confidence
 * bounds of a mean (Student t), the one-sided paired t test on common
 * random numbers, and Holm's step-down correction for several tests.
 *
 * Every function takes plain samples (no NaN: the caller decides what an
 * undefined value means before testing) and is pure.  A sample without
 * spread (every value equal, which counts such as failures often give in
 * a few replications) makes Student's t degenerate; it is judged by the
 * sign test instead: n equal values show that the median lies there with
 * error 2^-n, so they decide only once 2^-n <= alpha (n >= 5 at 0.05),
 * and a paired difference that is the same positive number in all n
 * pairs has p-value 2^-n.
 */
#ifndef HERD_PAIRED_H
#define HERD_PAIRED_H

#include <stddef.h>

/* Mean of x[0..n) and s / sqrt(n), its standard error (0 when n < 2;
 * both NaN when a sample is NaN). */
void paired_mean_se(const double *x, size_t n, double *mean, double *se);

/* The one-sided (1 - alpha) bounds of the mean of x[0..n):
 * mean -/+ t(1 - alpha, n - 1) s / sqrt(n).  n >= 2; with no spread both
 * are the value once 2^-n <= alpha, -inf and +inf before (undecided).
 * alpha in (0, 0.5). */
void paired_bounds(const double *x, size_t n, double alpha, double *lower, double *upper);

/* The half-width of the two-sided 95% interval of the mean of x[0..n)
 * (t(0.975, n - 1) s / sqrt(n)); NaN when n < 2. */
double paired_ci95(const double *x, size_t n);

/* The p-value of the one-sided paired t test of H1: mean(a - b) > 0 over
 * the pairs (a[i], b[i]), i < n (the same replication seeds).  1 when
 * n < 2 or every difference is 0; 2^-n (the sign test) when every
 * difference is the same positive number; else the upper tail of Student t with n - 1 degrees of
 * freedom at mean / (s / sqrt(n)). */
double paired_p_greater(const double *a, const double *b, size_t n);

/* Holm's step-down procedure at family-wise level alpha over p[0..n):
 * reject[i] = 1 for the hypotheses it rejects, 0 for the others.  The
 * tests are sorted by p (ties by index); the k-th smallest (k from 0) is
 * rejected if it and every smaller one is <= alpha / (n - k).  Returns
 * the number rejected, or -1 on allocation failure (reject all 0). */
long paired_holm(const double *p, size_t n, double alpha, int *reject);

#endif
