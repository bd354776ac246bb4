/*
 * lathist.h - a log-linear histogram of non-negative durations (latencies)
 * for quantiles with a bounded relative error, in constant memory.
 *
 * Buckets: every power of two from 2^LH_EXP_MIN to 2^LH_EXP_MAX seconds
 * (about 1e-12 s to 1.1e12 s) is cut into 2^LH_SUB_BITS equal parts, so a
 * bucket [L, U) has U - L <= L * 2^-LH_SUB_BITS.  The index is read off
 * the double's exponent and top mantissa bits (no logarithm).  A bucket
 * stands for its midpoint, which is within LH_REL_ERROR = 2^-(LH_SUB_BITS
 * + 1) = 0.049% of every value in it.  Zero is counted exactly; values
 * below 2^LH_EXP_MIN or from 2^LH_EXP_MAX on are counted at the ends and
 * stand for the exact min and max (outside the bound).  The count, sum,
 * min and max are exact.
 *
 * Quantiles follow gsl_stats_quantile_from_sorted_data on the estimated
 * order statistics: q(p) = (1 - d) x[i] + d x[i + 1] with i + d =
 * p (n - 1), where x[0] is the exact min, x[n - 1] the exact max and the
 * others their buckets' midpoints (clamped to [min, max]); a convex
 * combination of estimates each within LH_REL_ERROR is within it too.
 *
 * Histograms merge by adding counts (lh_merge), so per-run histograms can
 * be combined exactly.  Memory: 640 KiB, whatever the number of samples.
 */
#ifndef HERD_LATHIST_H
#define HERD_LATHIST_H

#include <stdint.h>

#define LH_SUB_BITS 10
#define LH_EXP_MIN (-40)
#define LH_EXP_MAX 40
#define LH_BUCKETS ((LH_EXP_MAX - LH_EXP_MIN) << LH_SUB_BITS)
#define LH_REL_ERROR (1.0 / (double)(2u << LH_SUB_BITS))

typedef struct lh_hist {
    uint64_t n;       /* samples */
    uint64_t zero;    /* samples equal to 0 */
    uint64_t below;   /* samples in (0, 2^LH_EXP_MIN) */
    uint64_t above;   /* samples >= 2^LH_EXP_MAX */
    double sum, min, max;
    uint64_t count[LH_BUCKETS];
} lh_hist;

/* A new empty histogram (through the allocation hook), or NULL. */
lh_hist *lh_new(void);

/* Frees h; lh_free(NULL) is a no-op. */
void lh_free(lh_hist *h);

/* Empties h. */
void lh_clear(lh_hist *h);

/* Adds one sample x (finite, >= 0; anything else is ignored). */
void lh_add(lh_hist *h, double x);

/* Adds every sample of src to dst (counts, sum, min, max). */
void lh_merge(lh_hist *dst, const lh_hist *src);

/* The p-quantile (p in [0, 1]) as defined above; NAN if h is empty. */
double lh_quantile(const lh_hist *h, double p);

/* The mean of the samples (exact sum / n); NAN if h is empty. */
double lh_mean(const lh_hist *h);

#endif
