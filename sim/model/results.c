/*
 * results.c - the metric name table, the growable timeseries, results.
 */
#include "results.h"

#include <string.h>

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
    D(p50_latency_s),    D(p99_latency_s),     D(max_latency_s),
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

ts_bucket *ts_at(timeseries *ts, size_t i, uint32_t carry)
{
    if (ts->max && i >= ts->max) {
        ts->over = 1;
        return NULL;
    }
    if (i >= ts->len) {
        if (i >= ts->cap) {
            size_t ncap = ts->cap ? ts->cap : 256;
            while (ncap <= i)
                ncap *= 2;
            if (ts->max && ncap > ts->max)
                ncap = ts->max;
            ts_bucket *n = herd_realloc_array(ts->b, ncap, sizeof *n);
            if (!n)
                return NULL;
            ts->b = n;
            ts->cap = ncap;
        }
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

void model_results_free(model_results *r)
{
    ts_free(&r->ts);
}
