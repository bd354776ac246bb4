/*
 * adaptive.c - herd policy library: the AWS SDK's adaptive retry mode, a
 * client-side send-rate limiter (botocore/retries/adaptive.py, bucket.py,
 * throttling.py), as pure state on explicit time.  See herdpolicy.h.
 *
 * Differences from botocore, both forced by explicit time: a token is
 * reserved at once and the wait returned (botocore blocks on a condition
 * variable until one is there), and the clock is the caller's now_s.
 */
#include "herdpolicy.h"

#include <math.h>

/* TokenBucket._refill: tokens accrue at the fill rate up to the capacity;
 * the first call only starts the clock. */
static void refill(hp_adaptive *a, double now_s)
{
    if (isnan(a->last_refill_s)) {
        a->last_refill_s = now_s;
        return;
    }
    a->capacity = fmin(a->max_capacity, a->capacity + (now_s - a->last_refill_s) * a->fill_rate);
    a->last_refill_s = now_s;
}

/* TokenBucket.max_rate = rate: refill at the old rate first. */
static void set_max_rate(hp_adaptive *a, double now_s, double rate)
{
    refill(a, now_s);
    a->fill_rate = fmax(rate, HP_ADAPTIVE_MIN_RATE);
    a->max_capacity = rate >= 1.0 ? rate : 1.0;
    a->capacity = fmin(a->capacity, a->max_capacity);
}

/* CubicCalculator._calculate_zero_point. */
static double zero_point(double w_max)
{
    return cbrt(w_max * (1.0 - HP_ADAPTIVE_BETA) / HP_ADAPTIVE_SCALE);
}

/* RateClocker.record: the smoothed rate of responses, per 0.5 s bucket. */
static double clock_response(hp_adaptive *a, double now_s)
{
    double bucket = floor(now_s / HP_ADAPTIVE_BUCKET_S) * HP_ADAPTIVE_BUCKET_S;

    a->count++;
    if (bucket > a->last_bucket_s) {
        double current = a->count / (bucket - a->last_bucket_s);
        a->measured_rate = current * HP_ADAPTIVE_SMOOTHING + a->measured_rate * (1.0 - HP_ADAPTIVE_SMOOTHING);
        a->count = 0;
        a->last_bucket_s = bucket;
    }
    return a->measured_rate;
}

void hp_adaptive_init(hp_adaptive *a, double now_s)
{
    a->enabled = false;
    a->capacity = 0.0;
    a->last_refill_s = NAN;
    a->fill_rate = 0.0;
    a->max_capacity = 1.0;
    set_max_rate(a, now_s, 1.0); /* TokenBucket(max_rate=1) */
    a->w_max = 0.0;
    a->k = zero_point(0.0);
    a->last_fail_s = now_s;
    a->measured_rate = 0.0;
    a->last_bucket_s = floor(now_s); /* RateClocker starts at floor(now) */
    a->count = 0;
}

double hp_adaptive_acquire(hp_adaptive *a, double now_s)
{
    double wait = 0.0;

    if (!a->enabled)
        return 0.0;
    refill(a, now_s);
    if (a->capacity < 1.0)
        wait = (1.0 - a->capacity) / a->fill_rate;
    a->capacity -= 1.0;
    return wait;
}

double hp_adaptive_on_response(hp_adaptive *a, double now_s, bool throttled)
{
    double measured = clock_response(a, now_s), rate;

    if (!throttled) {
        double dt = now_s - a->last_fail_s - a->k;
        rate = HP_ADAPTIVE_SCALE * dt * dt * dt + a->w_max;
    } else {
        double use = a->enabled ? fmin(measured, a->fill_rate) : measured;
        a->w_max = use;
        a->k = zero_point(use);
        a->last_fail_s = now_s;
        rate = use * HP_ADAPTIVE_BETA;
        a->enabled = true;
    }
    set_max_rate(a, now_s, fmin(rate, 2.0 * measured));
    return a->fill_rate;
}
