/*
 * metrics.h - the names of the metrics a run measures (the columns of
 * summary.csv, in this order), with their type and how aggregate.csv
 * summarises them: what parsing needs of the metric table (`columns`
 * keys), without the model's results struct.
 *
 * SPEC_METRICS is the one list.  The model's metric table (model/results.c)
 * expands it with the offset of each field in its results struct, so the
 * two cannot disagree on names or order; a new metric is a field there and
 * a line here.
 */
#ifndef HERD_METRICS_H
#define HERD_METRICS_H

#include <stddef.h>

typedef enum metric_type { METRIC_U64, METRIC_DOUBLE } metric_type;

/* How aggregate.csv summarises a metric over replications: every metric
 * has NAME_mean and NAME_ci95 (Student t); a proportion (a 0/1 metric, a
 * double, NaN in the runs where it is undefined) adds its Wilson 95%
 * interval NAME_lo, NAME_hi and NAME_n, all over the runs where it is
 * defined (NAME_n of them); a metric defined only in
 * some runs (NaN in the others) is averaged over the runs where it is
 * defined, and adds their number, NAME_n. */
typedef enum metric_agg { AGG_MEAN, AGG_PROPORTION, AGG_DEFINED } metric_agg;

/* X(name) for each metric, in column order: U a counter (uint64_t), D a
 * double, P a 0/1 proportion (a double, NaN where undefined), DEF a double defined only in some
 * runs. */
#define SPEC_METRICS(U, D, P, DEF)                                                                             \
    U(clients) D(completion_time_s) U(calls) U(refused) U(successes) U(failures) U(unfinished) U(retries)     \
    U(timeouts) U(late_replies) U(rejected) U(codel_dropped) U(expired_skipped) U(shed) U(concurrency_rejected) U(outage_errors) U(background_errors) U(gave_up_attempts)         \
    U(non_retryable_failures) U(non_retryable_replies) U(unknown_outcomes) U(gave_up_budget) U(effects)       \
    U(duplicate_effects) U(lost_operations) U(status_429) U(retries_after_honoured) U(replies_lost)           \
    D(wasted_work_s) D(amplification) U(tasks) U(task_successes) D(task_success_rate) D(mean_task_latency_s) \
    U(repeats) U(intercepted) D(offered_per_s) D(goodput_per_s) P(recovered) DEF(recovery_time_s)             \
    P(collapsed_before_trigger) DEF(baseline_overload_share) DEF(baseline_offered_per_s) DEF(baseline_goodput_per_s) \
    D(trigger_start_s) D(trigger_end_s) U(retries_denied) U(breaker_rejected) U(throttled) U(hedges)          \
    U(peak_inflight) D(peak_arrivals_per_s) D(mean_latency_s) D(p50_latency_s) D(p90_latency_s)              \
    D(p99_latency_s) D(p999_latency_s) D(max_latency_s) U(served) D(mean_wait_s) D(p_wait) D(utilization)     \
    U(events)

typedef struct spec_metric {
    const char *name; /* CSV column */
    metric_type type;
    metric_agg agg;
} spec_metric;

/* The metrics, in column order. */
extern const spec_metric spec_metrics[];
extern const size_t spec_metric_count;

/* The metric called name[0..len) (exact), or NULL. */
const spec_metric *spec_metric_find(const char *name, size_t len);

#endif
