/*
 * recovery.c - the recovery metric (see recovery.h): one pass over the
 * baseline for the band, one forward pass after the trigger for the
 * dwell, O(buckets), no allocation.
 */
#include "recovery.h"

#include <math.h>

const char *recovery_status_reason(int status)
{
    switch (status) {
    case RECOVERY_NO_TRIGGER:
        return "no trigger: no outage, no load spike and no [run] trigger_start_s";
    case RECOVERY_TRIGGER_NOT_ENDED:
        return "the trigger has not ended before the horizon";
    case RECOVERY_NO_ARRIVALS_AFTER:
        return "no request starts after the trigger ends (the population has finished)";
    case RECOVERY_SHORT_AFTER:
        return "less observation after the trigger than recovery_dwell_s";
    case RECOVERY_SHORT_BASELINE:
        return "fewer than 20 independent buckets between warmup_s and the trigger (the baseline is "
               "short for the system's correlation time): no healthy band";
    case RECOVERY_EMPTY_BASELINE:
        return "no request starts between warmup_s and the trigger: no healthy band";
    case RECOVERY_VARYING_LOAD:
        return "the arrivals follow a trace: a healthy band measured before the trigger is for "
               "another load than the one after it";
    default:
        return NULL;
    }
}

/* Bucket i's state; past len, an empty bucket. */
static void state_at(const recovery_input *in, size_t i, double *x, double *d)
{
    if (i >= in->len) {
        *x = *d = 0;
        return;
    }
    *x = in->b[i].in_flight;
    *d = (double)in->b[i].offered - (double)in->b[i].goodput;
}

/* The effective number of independent buckets in the baseline [b0, bt)
 * for state `which` (0: x, 1: d) of mean `mean`: n (1 - r) / (1 + r), r
 * its lag-1 autocorrelation (an AR(1) process's effective sample size),
 * at most n; n for a constant state. */
static double effective(const recovery_input *in, size_t b0, size_t bt, int which, double mean)
{
    double v = 0, c = 0, prev = 0;
    for (size_t i = b0; i < bt; i++) {
        double x, d;
        state_at(in, i, &x, &d);
        double e = (which ? d : x) - mean;
        v += e * e;
        if (i > b0)
            c += e * prev;
        prev = e;
    }
    double n = (double)(bt - b0);
    if (v <= 0)
        return n;
    double r = c / v;
    if (r >= 1)
        return 0;
    return r <= 0 ? n : n * (1 - r) / (1 + r);
}

/* MSER truncation (White 1997) of state `which` over [b0, bt): the number
 * d of leading buckets, at most half of them, that minimises the squared
 * standard error of the mean of the rest, var / (n - d): the start-up
 * transient of a run that starts empty is left out of the baseline. */
static size_t mser(const recovery_input *in, size_t b0, size_t bt, int which)
{
    double s1 = 0, s2 = 0, best = INFINITY;
    size_t n = bt - b0, d = 0;
    for (size_t i = bt; i > b0; i--) { /* suffix [i - 1, bt) */
        double x, dd;
        state_at(in, i - 1, &x, &dd);
        double v = which ? dd : x;
        s1 += v;
        s2 += v * v;
        size_t k = i - 1 - b0, m = bt - (i - 1);
        if (k > n / 2)
            continue;
        double mean = s1 / (double)m, var = fmax(0, s2 / (double)m - mean * mean);
        double score = var / (double)m;
        if (score <= best) {
            best = score;
            d = k;
        }
    }
    return d;
}

static int in_band(const recovery_input *in, const recovery_result *r, size_t i)
{
    double x, d;
    state_at(in, i, &x, &d);
    return x <= r->band_in_flight && d <= r->band_deficit;
}

/* Bucket index of time t: the first bucket wholly at or after t (ceil) or
 * the end of the last bucket wholly before it (floor); a time within 1e-9
 * buckets of a boundary is on it. */
static size_t bucket_ceil(double t, double bs)
{
    double q = t / bs;
    return q <= 0 ? 0 : (size_t)ceil(q - 1e-9);
}

static size_t bucket_floor(double t, double bs)
{
    double q = t / bs;
    return q <= 0 ? 0 : (size_t)floor(q + 1e-9);
}

static void fail(recovery_result *out, int status)
{
    out->status = status;
    out->recovered = out->time_s = NAN;
}

void recovery_measure(const recovery_input *in, recovery_result *out)
{
    *out = (recovery_result){.status = RECOVERY_DEFINED, .recovered = NAN, .time_s = NAN,
                             .band_in_flight = NAN, .band_deficit = NAN, .effective = NAN};
    double bs = in->bucket_s;
    if (isnan(in->trigger_start_s) || isnan(in->trigger_end_s)) {
        fail(out, RECOVERY_NO_TRIGGER);
        return;
    }
    if (in->trigger_end_s >= in->horizon_s) {
        fail(out, RECOVERY_TRIGGER_NOT_ENDED);
        return;
    }
    if (in->end_s <= in->trigger_end_s) {
        fail(out, RECOVERY_NO_ARRIVALS_AFTER);
        return;
    }
    if (in->varying_load) {
        fail(out, RECOVERY_VARYING_LOAD);
        return;
    }
    size_t dwell = bucket_ceil(in->dwell_s, bs);
    if (dwell == 0)
        dwell = 1;
    size_t be = bucket_ceil(in->trigger_end_s, bs), b1 = bucket_floor(in->end_s, bs);
    if (b1 < be || b1 - be < dwell) {
        fail(out, RECOVERY_SHORT_AFTER);
        return;
    }
    size_t b0 = bucket_ceil(in->warmup_s, bs), bt = bucket_floor(fmin(in->baseline_end_s, in->trigger_start_s), bs);
    if (bt < b0 + RECOVERY_MIN_BASELINE) {
        out->baseline = bt > b0 ? bt - b0 : 0;
        fail(out, RECOVERY_SHORT_BASELINE);
        return;
    }
    size_t cut = mser(in, b0, bt, 0), cd = mser(in, b0, bt, 1);
    b0 += cut > cd ? cut : cd;
    out->baseline = bt - b0;
    double bx = 0, bd = -INFINITY, offered = 0, sx = 0, sd = 0;
    for (size_t i = b0; i < bt; i++) {
        double x, d;
        state_at(in, i, &x, &d);
        bx = fmax(bx, x);
        bd = fmax(bd, d);
        sx += x;
        sd += d;
        offered += i < in->len ? in->b[i].offered : 0;
    }
    if (offered == 0) {
        fail(out, RECOVERY_EMPTY_BASELINE);
        return;
    }
    out->effective = fmin(effective(in, b0, bt, 0, sx / (double)out->baseline),
                          effective(in, b0, bt, 1, sd / (double)out->baseline));
    if (out->effective < RECOVERY_MIN_BASELINE) {
        fail(out, RECOVERY_SHORT_BASELINE);
        return;
    }
    out->band_in_flight = bx;
    out->band_deficit = bd;
    /* the first dwell-long stretch in the band that starts at or after
     * the trigger's end */
    size_t run = 0, m = b1;
    for (size_t i = be; i < b1; i++) {
        run = in_band(in, out, i) ? run + 1 : 0;
        if (run == dwell) {
            m = i + 1 - dwell;
            break;
        }
    }
    out->recovered = m < b1;
    if (m == b1)
        return;
    /* extended back through in-band buckets, not before the trigger */
    size_t ts = bucket_floor(in->trigger_start_s, bs);
    while (m > ts && in_band(in, out, m - 1))
        m--;
    out->time_s = fmax(0, (double)m * bs - in->trigger_start_s);
}
