/*
 * recovery.c - the recovery metric (see recovery.h): one pass over the
 * baseline for the band, one forward pass after the trigger for the
 * dwell, O(buckets), no allocation.
 */
#include "recovery.h"

#include <math.h>
#include <stdbool.h>

#include <gsl/gsl_cdf.h>

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
    case RECOVERY_NOT_HEALTHY:
        return "not healthy before the trigger: the server turned away or let pile up more than 5% of the "
               "attempts it was offered and the clients got less than 95% of their offered load as goodput "
               "(baseline_overload_share, baseline_goodput_per_s of baseline_offered_per_s; "
               "collapsed_before_trigger 1)";
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

/* The effective size n (1 - r) / (1 + r) of n residuals whose sum of
 * squares is v and lag-1 cross-product c, in [1, n]. */
static double effective_size(double n, double v, double c)
{
    if (v <= 0)
        return n;
    double r = c / v;
    return r >= 1 ? 1 : r <= 0 ? n : fmax(1, n * (1 - r) / (1 + r));
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
    return effective_size((double)(bt - b0), v, c);
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

/* Bucket i's attempts arriving at the server and those it turned away;
 * past len, none. */
static void arrivals_at(const recovery_input *in, size_t i, double *a, double *t)
{
    if (i >= in->len) {
        *a = *t = 0;
        return;
    }
    *a = in->b[i].arrivals;
    *t = in->b[i].turned_away;
}

/* The two-sided 95% Student t quantile on df degrees of freedom (at least
 * 1). */
static double t975(double df) { return gsl_cdf_tdist_Pinv(0.975, fmax(1, df)); }

/* The baseline's health (recovery.h, "Healthy baseline") over the buckets
 * [b0, bt), which hold a request: out->collapsed and the figures beside it.
 * The overload share L = (T + G) / A: A the attempts arriving, T those
 * turned away, G the growth of the number in the server over the baseline
 * (its least-squares slope per bucket times the buckets, when positive).
 * The test is on lower confidence bounds, so noise never makes a healthy
 * system collapsed: T's from the per-bucket residuals t_i - (T / A) a_i
 * (the ratio estimator's linearisation), G's from the slope's standard
 * error, each on its residuals' effective size and its own 95% Student t;
 * overloaded when (T_lo + G_lo) / A > 1 - RECOVERY_HEALTHY_SHARE; and
 * collapsed when also the goodput share's upper bound (the same way, on
 * goodput and offered per bucket) is below RECOVERY_HEALTHY_SHARE. */
static void judge_health(const recovery_input *in, size_t b0, size_t bt, recovery_result *out)
{
    double A = 0, T = 0, O = 0, G = 0, X = 0;
    for (size_t i = b0; i < bt; i++) {
        double a, t, x, d;
        arrivals_at(in, i, &a, &t);
        state_at(in, i, &x, &d);
        A += a;
        T += t;
        X += x;
        if (i < in->len) {
            O += in->b[i].offered;
            G += in->b[i].goodput;
        }
    }
    double n = (double)(bt - b0), secs = n * in->bucket_s;
    out->offered_per_s = O / secs;
    out->goodput_per_s = G / secs;
    if (A == 0) { /* nothing reached the server (every request failed on the client's side) */
        out->overload_share = 0;
        out->collapsed = 0;
        return;
    }
    /* the slope of the number in the server, by least squares on the
     * bucket index */
    double im = (n - 1) / 2, xm = X / n, sxx = 0, sxy = 0;
    for (size_t i = b0; i < bt; i++) {
        double x, d, u = (double)(i - b0) - im;
        state_at(in, i, &x, &d);
        sxx += u * u;
        sxy += u * (x - xm);
    }
    double slope = sxx > 0 ? sxy / sxx : 0, Lt = T / A;
    double vt = 0, ct = 0, pt = 0, vx = 0, cx = 0, px = 0;
    for (size_t i = b0; i < bt; i++) {
        double a, t, x, d, u = (double)(i - b0) - im;
        arrivals_at(in, i, &a, &t);
        state_at(in, i, &x, &d);
        double et = t - Lt * a, ex = x - xm - slope * u;
        vt += et * et;
        vx += ex * ex;
        if (i > b0) {
            ct += et * pt;
            cx += ex * px;
        }
        pt = et;
        px = ex;
    }
    double nt = effective_size(n, vt, ct), nx = effective_size(n, vx, cx);
    /* the standard error of a sum of n buckets of residual variance
     * v / (n - 1) whose effective size is nt: sqrt(v / (n - 1) n) sqrt(n / nt) */
    double t_lo = T - t975(nt - 1) * sqrt(vt / fmax(1, n - 1) * n * n / nt);
    double s_lo = slope;
    if (sxx > 0 && n > 2)
        s_lo -= t975(nx - 2) * sqrt(vx / (n - 2) / sxx * n / nx);
    out->overload_share = (T + fmax(0, slope * n)) / A;
    bool overloaded = (fmax(0, t_lo) + fmax(0, s_lo * n)) / A > 1 - RECOVERY_HEALTHY_SHARE;
    /* the clients' side: the goodput share R = G / O, its upper bound from
     * the residuals g_i - R o_i in the same way */
    double R = G / O, vg = 0, cg = 0, pg = 0;
    for (size_t i = b0; i < bt; i++) {
        double g = i < in->len ? in->b[i].goodput : 0, o = i < in->len ? in->b[i].offered : 0;
        double e = g - R * o;
        vg += e * e;
        if (i > b0)
            cg += e * pg;
        pg = e;
    }
    double ng = effective_size(n, vg, cg);
    /* ... and of the ratio: the sum's standard error over O */
    double r_hi = R + t975(ng - 1) * sqrt(vg / fmax(1, n - 1) * n * n / ng) / O;
    out->collapsed = overloaded && r_hi < RECOVERY_HEALTHY_SHARE;
}

void recovery_measure(const recovery_input *in, recovery_result *out)
{
    *out = (recovery_result){.status = RECOVERY_DEFINED, .recovered = NAN, .time_s = NAN,
                             .band_in_flight = NAN, .band_deficit = NAN, .effective = NAN,
                             .collapsed = NAN, .overload_share = NAN, .offered_per_s = NAN,
                             .goodput_per_s = NAN};
    double bs = in->bucket_s;
    if (isnan(in->trigger_start_s) || isnan(in->trigger_end_s)) {
        out->baseline_status = RECOVERY_NO_TRIGGER;
        fail(out, RECOVERY_NO_TRIGGER);
        return;
    }
    /* the baseline: its length, the start-up transient cut, its health */
    size_t b0 = bucket_ceil(in->warmup_s, bs), bt = bucket_floor(fmin(in->baseline_end_s, in->trigger_start_s), bs);
    int base = RECOVERY_DEFINED;
    double offered = 0;
    if (bt < b0 + RECOVERY_MIN_BASELINE) {
        out->baseline = bt > b0 ? bt - b0 : 0;
        base = RECOVERY_SHORT_BASELINE;
    } else {
        size_t cut = mser(in, b0, bt, 0), cd = mser(in, b0, bt, 1);
        b0 += cut > cd ? cut : cd;
        out->baseline = bt - b0;
        for (size_t i = b0; i < bt; i++)
            offered += i < in->len ? in->b[i].offered : 0;
        if (offered == 0)
            base = RECOVERY_EMPTY_BASELINE;
        else
            judge_health(in, b0, bt, out);
    }
    out->baseline_status = base;
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
    if (base != RECOVERY_DEFINED) {
        fail(out, base);
        return;
    }
    if (out->collapsed > 0) {
        fail(out, RECOVERY_NOT_HEALTHY);
        return;
    }
    double bx = 0, bd = -INFINITY, sx = 0, sd = 0;
    for (size_t i = b0; i < bt; i++) {
        double x, d;
        state_at(in, i, &x, &d);
        bx = fmax(bx, x);
        bd = fmax(bd, d);
        sx += x;
        sd += d;
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
