/*
 * results.c - the metric name table, the growable timeseries, results.
 */
#include "results.h"

#include <string.h>

#include "../base/alloc.h"

#define U(f) {#f, METRIC_U64, offsetof(metrics, f)}
#define D(f) {#f, METRIC_DOUBLE, offsetof(metrics, f)}

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
    D(offered_per_s),    D(goodput_per_s),     D(recovery_time_s),
    U(recovered),        D(trigger_start_s),   D(trigger_end_s),
    U(retries_denied),   U(breaker_rejected),  U(throttled),
    U(hedges),
    U(peak_inflight),    D(peak_arrivals_per_s), D(mean_latency_s),
    D(p50_latency_s),    D(p90_latency_s),     D(p99_latency_s),
    D(p999_latency_s),   D(max_latency_s),
    U(served),           D(mean_wait_s),       D(p_wait),
    D(utilization),      U(events),
};

const size_t metric_count = sizeof metric_table / sizeof metric_table[0];

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
