/*
 * lathist.c - the log-linear latency histogram (see lathist.h).
 */
#include "lathist.h"

#include <math.h>
#include <string.h>

#include "../base/alloc.h"

/* The bits of a double at bucket granularity: (biased exponent << SUB) |
 * top mantissa bits; bucket i has key BASE + i. */
#define LH_SHIFT (52 - LH_SUB_BITS)
#define LH_BASE ((uint64_t)(1023 + LH_EXP_MIN) << LH_SUB_BITS)

static double bucket_low(uint64_t i)
{
    uint64_t bits = (LH_BASE + i) << LH_SHIFT;
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

lh_hist *lh_new(void)
{
    lh_hist *h = herd_malloc_array(1, sizeof *h);
    if (h)
        lh_clear(h);
    return h;
}

void lh_free(lh_hist *h)
{
    herd_free(h);
}

void lh_clear(lh_hist *h)
{
    memset(h, 0, sizeof *h);
    h->min = INFINITY;
    h->max = -INFINITY;
}

void lh_add(lh_hist *h, double x)
{
    if (!(x >= 0) || isinf(x))
        return;
    h->n++;
    h->sum += x;
    if (x < h->min)
        h->min = x;
    if (x > h->max)
        h->max = x;
    if (x == 0) {
        h->zero++;
        return;
    }
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    uint64_t key = bits >> LH_SHIFT;
    if (key < LH_BASE)
        h->below++;
    else if (key - LH_BASE >= LH_BUCKETS)
        h->above++;
    else
        h->count[key - LH_BASE]++;
}

void lh_merge(lh_hist *dst, const lh_hist *src)
{
    dst->n += src->n;
    dst->zero += src->zero;
    dst->below += src->below;
    dst->above += src->above;
    dst->sum += src->sum;
    if (src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    for (size_t i = 0; i < LH_BUCKETS; i++)
        dst->count[i] += src->count[i];
}

/* The estimate of the r-th smallest sample (0-based, r < n). */
static double order_stat(const lh_hist *h, uint64_t r)
{
    if (r == 0)
        return h->min;
    if (r == h->n - 1)
        return h->max;
    if (r < h->zero)
        return 0;
    r -= h->zero;
    if (r < h->below)
        return h->min;
    r -= h->below;
    for (size_t i = 0; i < LH_BUCKETS; i++) {
        if (r < h->count[i]) {
            double lo = bucket_low(i), hi = bucket_low(i + 1), m = lo + (hi - lo) / 2;
            return m < h->min ? h->min : m > h->max ? h->max : m;
        }
        r -= h->count[i];
    }
    return h->max;
}

double lh_quantile(const lh_hist *h, double p)
{
    if (!h->n)
        return NAN;
    double index = p * (double)(h->n - 1);
    uint64_t lhs = (uint64_t)index;
    double delta = index - (double)lhs;
    if (lhs >= h->n - 1)
        return h->max;
    double a = order_stat(h, lhs);
    if (delta == 0)
        return a;
    return (1 - delta) * a + delta * order_stat(h, lhs + 1);
}

double lh_mean(const lh_hist *h)
{
    return h->n ? h->sum / (double)h->n : NAN;
}
