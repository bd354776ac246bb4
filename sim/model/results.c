/*
 * results.c - the metric name table, the growable timeseries, results.
 */
#include "results.h"
#include "recovery.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "../base/alloc.h"

#define U(f) {#f, METRIC_U64, offsetof(metrics, f), AGG_MEAN}
#define D(f) {#f, METRIC_DOUBLE, offsetof(metrics, f), AGG_MEAN}
#define P(f) {#f, METRIC_U64, offsetof(metrics, f), AGG_PROPORTION}
#define DEF(f) {#f, METRIC_DOUBLE, offsetof(metrics, f), AGG_DEFINED}

const metric_desc metric_table[] = {
    U(clients),          D(completion_time_s), U(calls),          U(refused),
    U(successes),        U(failures),          U(unfinished),
    U(retries),          U(timeouts),          U(late_replies),
    U(rejected),         U(outage_errors),     U(background_errors),
    U(gave_up_attempts), U(non_retryable_failures), U(non_retryable_replies), U(unknown_outcomes),
    U(gave_up_budget),   U(effects),           U(duplicate_effects),
    U(lost_operations),  U(status_429),        U(retries_after_honoured),
    U(replies_lost),     D(wasted_work_s),     D(amplification),
    U(tasks),            U(task_successes),    D(task_success_rate),
    D(mean_task_latency_s), U(repeats),        U(intercepted),
    D(offered_per_s),    D(goodput_per_s),     P(recovered),
    DEF(recovery_time_s), D(trigger_start_s),  D(trigger_end_s),
    U(retries_denied),   U(breaker_rejected),  U(throttled),
    U(hedges),
    U(peak_inflight),    D(peak_arrivals_per_s), D(mean_latency_s),
    D(p50_latency_s),    D(p90_latency_s),     D(p99_latency_s),
    D(p999_latency_s),   D(max_latency_s),
    U(served),           D(mean_wait_s),       D(p_wait),
    D(utilization),      U(events),
};

const size_t metric_count = sizeof metric_table / sizeof metric_table[0];

const char *const *metric_agg_extra(const metric_desc *d, size_t *n)
{
    static const char *const proportion[] = {"_lo", "_hi"};
    static const char *const defined[] = {"_n"};
    switch (d->agg) {
    case AGG_PROPORTION:
        *n = 2;
        return proportion;
    case AGG_DEFINED:
        *n = 1;
        return defined;
    default:
        *n = 0;
        return NULL;
    }
}

uint64_t metric_count_value(const metrics *m, const metric_desc *d)
{
    uint64_t v;
    memcpy(&v, (const char *)m + d->off, sizeof v);
    return v;
}

double metric_value(const metrics *m, const metric_desc *d)
{
    const char *p = (const char *)m + d->off;
    if (d->type == METRIC_U64) {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return (double)v;
    }
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Makes room for index i in the array *b of *cap elements of `size`
 * bytes: capacity doubles from 256, never past max (0: no limit; i is
 * below it).  0, or -1 on allocation failure (nothing changed). */
static int series_room(void **b, size_t *cap, size_t i, size_t max, size_t max_len, size_t size)
{
    if (i < *cap)
        return 0;
    size_t ncap = *cap ? *cap : 256;
    while (ncap <= i)
        ncap *= 2;
    if (max && ncap > max)
        ncap = max;
    if (max_len > i && ncap > max_len)
        ncap = max_len;
    void *n = herd_realloc_array(*b, ncap, size);
    if (!n)
        return -1;
    *b = n;
    *cap = ncap;
    return 0;
}

ts_bucket *ts_at(timeseries *ts, size_t i, uint32_t carry)
{
    if (ts->max && i >= ts->max) {
        ts->over = 1;
        return NULL;
    }
    if (i >= ts->len) {
        void *b = ts->b;
        if (series_room(&b, &ts->cap, i, ts->max, ts->max_len, sizeof *ts->b) != 0)
            return NULL;
        ts->b = b;
        for (size_t j = ts->len; j <= i; j++)
            ts->b[j] = (ts_bucket){.in_flight = carry};
        ts->len = i + 1;
    }
    return &ts->b[i];
}

void ts_free(timeseries *ts)
{
    if (!ts)
        return;
    herd_free(ts->b);
    ts->b = NULL;
    ts->len = ts->cap = 0;
}

mech_bucket *mech_at(mechseries *ms, size_t i, size_t max, size_t max_len)
{
    if (max && i >= max)
        return NULL;
    if (i >= ms->len) {
        void *b = ms->b;
        if (series_room(&b, &ms->cap, i, max, max_len, sizeof *ms->b) != 0)
            return NULL;
        ms->b = b;
        mech_bucket carry = {0};
        if (ms->len) {
            const mech_bucket *last = &ms->b[ms->len - 1];
            carry.throttle_reject_p = last->throttle_reject_p;
            carry.throttle_requests = last->throttle_requests;
            carry.throttle_accepts = last->throttle_accepts;
            carry.limiter_balance = last->limiter_balance;
        }
        for (size_t j = ms->len; j <= i; j++)
            ms->b[j] = carry;
        ms->len = i + 1;
    }
    return &ms->b[i];
}

void mech_free(mechseries *ms)
{
    if (!ms)
        return;
    herd_free(ms->b);
    ms->b = NULL;
    ms->len = ms->cap = 0;
}

void model_results_free(model_results *r)
{
    ts_free(&r->ts);
    mech_free(&r->ms);
}

void results_summarize_series(metrics *m, const timeseries *ts, const model_spec *spec, double last_start)
{
    /* offered load and goodput over [warm-up, last start], and recovery;
     * starts drawn past the horizon never happen: the window ends there */
    double bs = ts->bucket_s, from = spec->warmup_s, to = fmin(last_start, spec->horizon_s);
    size_t b0 = (size_t)ceil(from / bs), b1 = (size_t)floor(to / bs);
    double off = 0, good = 0;
    for (size_t i = b0; i < b1 && i < ts->len; i++) {
        off += ts->b[i].offered;
        good += ts->b[i].goodput;
    }
    m->offered_per_s = b1 > b0 ? off / ((double)(b1 - b0) * bs) : NAN;
    m->goodput_per_s = b1 > b0 ? good / ((double)(b1 - b0) * bs) : NAN;
    double trigger = NAN, tstart = NAN;
    if (spec->noutages) { /* outages are sorted: the last one */
        tstart = spec->outages[spec->noutages - 1].start_s;
        trigger = spec->outages[spec->noutages - 1].end_s;
    } else if (spec->spike_rate_per_s > 0) {
        tstart = spec->spike_start_s;
        trigger = spec->spike_end_s;
    }
    if (spec->trigger_start_s >= 0)
        tstart = spec->trigger_start_s;
    if (spec->trigger_end_s >= 0)
        trigger = spec->trigger_end_s;
    m->trigger_start_s = tstart;
    m->trigger_end_s = trigger;
    /* without a trigger: from the start of the measured window */
    m->recovered = (uint64_t)recovery_measure(ts->b, ts->len, b0, b1, bs, isnan(tstart) ? (double)b0 * bs : tstart,
                                              spec->recovery_window_s, spec->recovery_fraction, &m->recovery_time_s);
    double peak = 0;
    for (size_t i = 0; i < ts->len; i++)
        if (ts->b[i].arrivals > peak)
            peak = ts->b[i].arrivals;
    m->peak_arrivals_per_s = peak / ts->bucket_s;
}

void results_latency(metrics *m, double *x, size_t n)
{
    if (!n) {
        m->mean_latency_s = m->p50_latency_s = m->p90_latency_s = m->p99_latency_s = m->p999_latency_s =
            m->max_latency_s = NAN;
        return;
    }
    gsl_sort(x, 1, n);
    m->mean_latency_s = gsl_stats_mean(x, 1, n);
    m->p50_latency_s = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.5);
    m->p90_latency_s = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.9);
    m->p99_latency_s = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.99);
    m->p999_latency_s = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.999);
    m->max_latency_s = x[n - 1];
}
