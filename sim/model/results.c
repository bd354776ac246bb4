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

/* Why a metric is not defined (the reasons the manifest lists and herd
 * check warns with).  Each returns NULL when the metric is defined. */
static const char *why_trigger(uint32_t facts)
{
    return facts & RESULT_NO_TRIGGER ? "the scenario has no trigger (no outage, no spike, no [run] trigger_start_s)"
                                     : NULL;
}

/* recovered and recovery_time_s.  What the scenario decides (herd check
 * can say it before the run): no trigger, a closed population that starts
 * in a burst (no arrivals after the trigger), trace-driven load; the run's
 * own reason is the recovery measure's status (recovery.h). */
static const char *why_recovery_spec(uint32_t facts)
{
    if (facts & RESULT_NO_TRIGGER)
        return recovery_status_reason(RECOVERY_NO_TRIGGER);
    if (facts & RESULT_BURST)
        return "the population is closed and starts in a burst at 0: no request starts after the trigger ends";
    if (facts & RESULT_TRACE)
        return recovery_status_reason(RECOVERY_VARYING_LOAD);
    return NULL;
}

static const char *why_recovery_run(const metrics *m) { return recovery_status_reason(m->recovery_status); }

static const char *why_baseline(const metrics *m) { return recovery_status_reason(m->baseline_status); }

static const char *why_recovery_time(const metrics *m)
{
    const char *w = why_recovery_run(m);
    return w ? w : !(m->recovered > 0) ? "the run did not recover" : NULL;
}

static const char *why_latency(const metrics *m)
{
    if (!isnan(m->mean_latency_s))
        return NULL;
    return m->facts & RESULT_WINDOW ? "no logical request started in [run] window_s finished"
                                    : "no logical request started after warmup_s finished";
}

static const char *why_rate(const metrics *m)
{
    if (!isnan(m->goodput_per_s) && !isnan(m->offered_per_s))
        return NULL;
    if ((m->facts & (RESULT_CLOSED | RESULT_WINDOW)) == RESULT_CLOSED && m->unfinished)
        return "logical requests were still open at the horizon: a closed population's rate over [warmup_s, "
               "completion_time_s] would depend on horizon_s";
    if (m->facts & RESULT_CLOSED)
        return "the work ended before warmup_s: no interval to measure a rate over";
    return "the starts end within one bucket after warm-up: no interval of offered load";
}

static const char *why_amplification(const metrics *m)
{
    return isnan(m->amplification) ? "no logical request of the measured interval finished" : NULL;
}

static const char *why_task_rate(const metrics *m) { return m->tasks ? NULL : "no task finished"; }

static const char *why_task_latency(const metrics *m) { return m->task_successes ? NULL : "no task succeeded"; }

static const char *why_wait(const metrics *m)
{
    return m->served ? NULL : "no attempt entered service after warmup_s";
}

static const char *why_utilization(const metrics *m)
{
    return isnan(m->utilization) ? "no server time after warmup_s (the work ended before it)" : NULL;
}

#define ALWAYS "every scenario"
#define M_(f, t, a, sc, ws, wr, def) {#f, t, offsetof(metrics, f), a, sc, ws, wr, def}
#define U(f) M_(f, METRIC_U64, AGG_MEAN, SCOPE_REQUEST, NULL, NULL, ALWAYS)
#define UR(f) M_(f, METRIC_U64, AGG_MEAN, SCOPE_RUN, NULL, NULL, ALWAYS)
#define D(f) M_(f, METRIC_DOUBLE, AGG_MEAN, SCOPE_REQUEST, NULL, NULL, ALWAYS)
#define DR(f) M_(f, METRIC_DOUBLE, AGG_MEAN, SCOPE_RUN, NULL, NULL, ALWAYS)
#define LAT(f) M_(f, METRIC_DOUBLE, AGG_MEAN, SCOPE_REQUEST, NULL, why_latency, \
                  "runs where a logical request of the measured interval finished")

const metric_desc metric_table[] = {
    UR(clients),
    DR(completion_time_s),
    U(calls),
    U(refused),
    U(successes),
    U(failures),
    U(unfinished),
    U(retries),
    U(timeouts),
    U(late_replies),
    U(rejected),
    U(codel_dropped),
    U(expired_skipped),
    U(shed),
    U(concurrency_rejected),
    U(outage_errors),
    U(background_errors),
    U(gave_up_attempts),
    U(non_retryable_failures),
    U(non_retryable_replies),
    U(unknown_outcomes),
    U(gave_up_budget),
    U(effects),
    U(duplicate_effects),
    U(lost_operations),
    U(status_429),
    U(retries_after_honoured),
    U(replies_lost),
    D(wasted_work_s),
    M_(amplification, METRIC_DOUBLE, AGG_MEAN, SCOPE_REQUEST, NULL, why_amplification,
       "runs where a logical request of the measured interval finished"),
    U(tasks),
    U(task_successes),
    M_(task_success_rate, METRIC_DOUBLE, AGG_MEAN, SCOPE_REQUEST, NULL, why_task_rate, "runs where a task finished"),
    M_(mean_task_latency_s, METRIC_DOUBLE, AGG_MEAN, SCOPE_REQUEST, NULL, why_task_latency,
       "runs where a task succeeded"),
    U(repeats),
    U(intercepted),
    M_(offered_per_s, METRIC_DOUBLE, AGG_MEAN, SCOPE_REQUEST, NULL, why_rate,
       "every scenario whose rate has an interval: open arrivals whose starts span a bucket after warm-up; "
       "a closed population whose work all finished; any scenario with window_s"),
    M_(goodput_per_s, METRIC_DOUBLE, AGG_MEAN, SCOPE_REQUEST, NULL, why_rate, "as offered_per_s"),
    M_(recovered, METRIC_DOUBLE, AGG_PROPORTION, SCOPE_RUN, why_recovery_spec, why_recovery_run,
       "scenarios with a trigger that ends before the horizon and arrivals after it (not a burst, not a "
       "trace), in runs whose pre-trigger baseline holds enough independent buckets and that observe a "
       "dwell after the trigger"),
    M_(recovery_time_s, METRIC_DOUBLE, AGG_DEFINED, SCOPE_RUN, why_recovery_spec, why_recovery_time,
       "as recovered, with a trigger, in the runs that recovered"),
    M_(collapsed_before_trigger, METRIC_DOUBLE, AGG_PROPORTION, SCOPE_RUN, why_trigger, why_baseline,
       "scenarios with a trigger, in runs with at least 20 buckets between warmup_s and the first trigger "
       "and a request started in them"),
    M_(baseline_overload_share, METRIC_DOUBLE, AGG_DEFINED, SCOPE_RUN, why_trigger, why_baseline,
       "as collapsed_before_trigger"),
    M_(baseline_offered_per_s, METRIC_DOUBLE, AGG_DEFINED, SCOPE_RUN, why_trigger, why_baseline,
       "as collapsed_before_trigger"),
    M_(baseline_goodput_per_s, METRIC_DOUBLE, AGG_DEFINED, SCOPE_RUN, why_trigger, why_baseline,
       "as collapsed_before_trigger"),
    M_(trigger_start_s, METRIC_DOUBLE, AGG_MEAN, SCOPE_RUN, why_trigger, NULL, "scenarios with a trigger"),
    M_(trigger_end_s, METRIC_DOUBLE, AGG_MEAN, SCOPE_RUN, why_trigger, NULL, "scenarios with a trigger"),
    U(retries_denied),
    U(breaker_rejected),
    U(throttled),
    U(hedges),
    UR(peak_inflight),
    DR(peak_arrivals_per_s),
    LAT(mean_latency_s),
    LAT(p50_latency_s),
    LAT(p90_latency_s),
    LAT(p99_latency_s),
    LAT(p999_latency_s),
    LAT(max_latency_s),
    UR(served),
    M_(mean_wait_s, METRIC_DOUBLE, AGG_MEAN, SCOPE_RUN, NULL, why_wait,
       "runs where an attempt entered service after warm-up"),
    M_(p_wait, METRIC_DOUBLE, AGG_MEAN, SCOPE_RUN, NULL, why_wait, "as mean_wait_s"),
    M_(utilization, METRIC_DOUBLE, AGG_MEAN, SCOPE_RUN, NULL, why_utilization,
       "runs with server time after warm-up"),
    UR(events),
};

const size_t metric_count = sizeof metric_table / sizeof metric_table[0];

const char *const *metric_agg_extra(const metric_desc *d, size_t *n)
{
    static const char *const proportion[] = {"_lo", "_hi", "_n"};
    static const char *const defined[] = {"_n"};
    switch (d->agg) {
    case AGG_PROPORTION:
        *n = 3;
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

const char *metric_spec_reason(uint32_t facts, const metric_desc *d)
{
    return d->why_spec ? d->why_spec(facts) : NULL;
}

const char *metric_reason(const metrics *m, const metric_desc *d)
{
    const char *w = metric_spec_reason(m->facts, d);
    return w ? w : d->why_run ? d->why_run(m) : NULL;
}

const metric_desc *metric_find(const char *name)
{
    for (size_t k = 0; k < metric_count; k++)
        if (!strcmp(metric_table[k].name, name))
            return &metric_table[k];
    return NULL;
}

uint32_t results_spec_facts(const model_spec *spec)
{
    uint32_t f = 0;
    if (spec->start == SPEC_START_BURST || spec->start == SPEC_START_SPREAD)
        f |= RESULT_CLOSED;
    if (spec->start == SPEC_START_BURST)
        f |= RESULT_BURST;
    if (!spec->noutages && !(spec->spike_rate_per_s > 0) && spec->trigger_start_s < 0)
        f |= RESULT_NO_TRIGGER;
    if (spec_has_window(spec))
        f |= RESULT_WINDOW;
    if (spec->start == SPEC_START_TRACE)
        f |= RESULT_TRACE;
    return f;
}

void results_mark_undefined(metrics *m)
{
    /* the reasons read the values: decide every metric first, then set */
    bool undef[sizeof metric_table / sizeof metric_table[0]];
    for (size_t k = 0; k < metric_count; k++)
        undef[k] = metric_reason(m, &metric_table[k]) != NULL;
    for (size_t k = 0; k < metric_count; k++) {
        if (!undef[k])
            continue;
        if (metric_table[k].type == METRIC_DOUBLE) /* a count keeps its value; metric_value says NaN */
            memcpy((char *)m + metric_table[k].off, &(double){NAN}, sizeof(double));
    }
}

double metric_value(const metrics *m, const metric_desc *d)
{
    if (metric_reason(m, d))
        return NAN;
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
    m->facts |= results_spec_facts(spec);
    double bs = ts->bucket_s, from = spec->warmup_s, to = fmin(last_start, spec->horizon_s);
    size_t b0 = (size_t)ceil(from / bs), b1 = (size_t)floor(to / bs);
    if (spec_has_window(spec)) {
        /* the logical requests started in [FROM, TO), over TO - FROM */
        double w = spec->window_to_s - spec->window_from_s;
        m->offered_per_s = (double)m->measured / w;
        m->goodput_per_s = (double)m->measured_ok / w;
    } else if (m->facts & RESULT_CLOSED) {
        /* a closed population has no steady offered load: its rates are
         * over the whole observation, from warm-up until the work ended;
         * with requests still open at the horizon that end would be the
         * horizon, so the rates are n/a (metric_reason) */
        double span = m->completion_time_s - from;
        bool ok = !m->unfinished && span > 0;
        m->offered_per_s = ok ? (double)m->measured / span : NAN;
        m->goodput_per_s = ok ? (double)m->measured_ok / span : NAN;
    } else {
        /* open arrivals: over [warm-up, last start], whole buckets; starts
         * drawn past the horizon never happen: the interval ends there */
        double off = 0, good = 0;
        for (size_t i = b0; i < b1 && i < ts->len; i++) {
            off += ts->b[i].offered;
            good += ts->b[i].goodput;
        }
        m->offered_per_s = b1 > b0 ? off / ((double)(b1 - b0) * bs) : NAN;
        m->goodput_per_s = b1 > b0 ? good / ((double)(b1 - b0) * bs) : NAN;
    }
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
    /* the band's baseline ends at the first trigger (outages are sorted) */
    double first = isnan(tstart) ? NAN : tstart;
    if (spec->noutages)
        first = fmin(first, spec->outages[0].start_s);
    if (spec->spike_rate_per_s > 0)
        first = fmin(first, spec->spike_start_s);
    recovery_result rr;
    recovery_measure(&(recovery_input){.b = ts->b, .len = ts->len, .bucket_s = bs, .warmup_s = from,
                                       .baseline_end_s = first, .trigger_start_s = tstart,
                                       .trigger_end_s = isnan(trigger) ? tstart : trigger,
                                       .end_s = to, .horizon_s = spec->horizon_s, .dwell_s = spec->recovery_dwell_s,
                                       .varying_load = spec->start == SPEC_START_TRACE},
                     &rr);
    m->recovered = rr.recovered;
    m->recovery_time_s = rr.time_s;
    m->recovery_status = rr.status;
    m->collapsed_before_trigger = rr.collapsed;
    m->baseline_overload_share = rr.overload_share;
    m->baseline_offered_per_s = rr.offered_per_s;
    m->baseline_goodput_per_s = rr.goodput_per_s;
    m->baseline_status = rr.baseline_status;
    double peak = 0;
    for (size_t i = 0; i < ts->len; i++)
        if (ts->b[i].arrivals > peak)
            peak = ts->b[i].arrivals;
    m->peak_arrivals_per_s = peak / ts->bucket_s;
}

/* The order key of a double: unsigned comparison of keys is the numeric
 * order of non-NaN values (-0 just below +0). */
static inline uint64_t sort_key(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u >> 63 ? ~u : u | (1ULL << 63);
}

/* The double whose order key is k (sort_key's inverse). */
static inline double key_value(uint64_t k)
{
    uint64_t u = k >> 63 ? k & ~(1ULL << 63) : ~k;
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Sorts x[0..n) ascending: a least-significant-digit radix sort of the
 * order keys (sort_key), 11 bits a pass (6 passes; 8 bits took 8), each
 * key computed once, passes whose digit is the same in every key skipped
 * (a run's latencies share their top bits).  The result is the sorted
 * array, as gsl_sort's heap sort gives it, for values without NaN and
 * without both zeros (latencies are >= +0).  At 10,000 uniform values
 * results_latency takes 1.89 M instructions with it, 2.59 M with 8-bit
 * digits, and gsl_sort alone 3.25 M (callgrind).  gsl_sort when n is small
 * or the buffer (two keys a value) cannot be had. */
#define RADIX_BITS 11
#define RADIX_N (1u << RADIX_BITS)
#define RADIX_PASSES ((64 + RADIX_BITS - 1) / RADIX_BITS)
static void sort_values(double *x, size_t n)
{
    uint64_t *a = n >= 256 && n <= UINT32_MAX ? herd_malloc_array(n, 2 * sizeof *a) : NULL;
    if (!a) {
        gsl_sort(x, 1, n);
        return;
    }
    uint32_t count[RADIX_PASSES][RADIX_N]; /* 48 KiB */
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = sort_key(x[i]);
        a[i] = k;
        for (unsigned d = 0; d < RADIX_PASSES; d++)
            count[d][(k >> (RADIX_BITS * d)) & (RADIX_N - 1)]++;
    }
    uint64_t *src = a, *dst = a + n;
    for (unsigned d = 0; d < RADIX_PASSES; d++) {
        uint32_t *c = count[d], sum = 0;
        unsigned shift = RADIX_BITS * d;
        if (c[(src[0] >> shift) & (RADIX_N - 1)] == n)
            continue; /* one digit value: the order stays */
        for (unsigned v = 0; v < RADIX_N; v++) {
            uint32_t t = c[v];
            c[v] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t k = src[i];
            dst[c[(k >> shift) & (RADIX_N - 1)]++] = k;
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    for (size_t i = 0; i < n; i++)
        x[i] = key_value(src[i]);
    herd_free(a);
}

void results_latency(metrics *m, double *x, size_t n)
{
    if (!n) {
        m->mean_latency_s = m->p50_latency_s = m->p90_latency_s = m->p99_latency_s = m->p999_latency_s =
            m->max_latency_s = NAN;
        return;
    }
    sort_values(x, n);
    m->mean_latency_s = gsl_stats_mean(x, 1, n);
    m->p50_latency_s = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.5);
    m->p90_latency_s = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.9);
    m->p99_latency_s = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.99);
    m->p999_latency_s = gsl_stats_quantile_from_sorted_data(x, 1, n, 0.999);
    m->max_latency_s = x[n - 1];
}
