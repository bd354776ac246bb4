/*
 * results.h - what one simulation run measures (model_results: counters,
 * per-tool counters, a timeseries), and the table that names each metric
 * for the reports (summary and aggregate columns come from this table, in
 * this order).
 *
 * This is the only model header the reports read.  Models fill the results
 * during the run; nothing is written to files from inside the event loop.
 *
 * Definedness: every metric is defined for a run or not, and when not, the
 * table says why (metric_desc.why_spec over the scenario's facts, why_run
 * over the run's metrics).  The invariant the writers rely on: a double
 * metric is NaN exactly when metric_reason is non-NULL (results_mark_undefined
 * at the end of a run), and metric_value is NaN for an undefined count
 * too; the reasons read only the metrics, so a merge of shards, which
 * has no spec, lists the same reasons.
 */
#ifndef HERD_RESULTS_H
#define HERD_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "../spec/metrics.h"
#include "../spec/spec.h"

typedef struct metrics {
    uint64_t clients;
    double completion_time_s;   /* last logical request finished (horizon if any is unfinished) */
    uint64_t calls;             /* attempts that reached the server (not refused at connect) */
    uint64_t refused;           /* attempts refused at connect (never reached the server) */
    uint64_t successes;         /* logical requests that succeeded */
    uint64_t failures;          /* logical requests the policy gave up on */
    uint64_t unfinished;        /* logical requests still open at the horizon */
    uint64_t retries;           /* retries scheduled */
    uint64_t timeouts;          /* attempts that timed out at the client */
    uint64_t late_replies;      /* replies that arrived after their attempt timed out */
    uint64_t rejected;          /* attempts answered 503 because workers and queue were full */
    uint64_t codel_dropped;     /* attempts CoDel dropped from the queue (answered 503) */
    uint64_t expired_skipped;   /* attempts drop_expired skipped: their deadline had passed (no reply) */
    uint64_t shed;              /* sheddable attempts answered 503 by shed_sheddable_above */
    uint64_t outage_errors;     /* attempts answered or swallowed by an outage */
    uint64_t background_errors; /* attempts answered by the background error mix */
    uint64_t gave_up_attempts;  /* logical failures: attempts exhausted */
    uint64_t non_retryable_failures; /* logical failures: non-retryable class */
    uint64_t non_retryable_replies;  /* replies of a class never retried (400, 401, 402, 403,
                                      * 404, 422, 501), as the clients saw them */
    uint64_t unknown_outcomes;  /* logical failures: timeout of a non-idempotent call */
    uint64_t gave_up_budget;    /* logical failures: the total budget ran out */
    uint64_t effects;           /* side effects executed (non-read operations) */
    uint64_t duplicate_effects; /* executions beyond the first of one logical operation */
    uint64_t lost_operations;   /* operations the client saw succeed that never executed
                                 * (wrongly suppressed by a colliding key) */
    uint64_t status_429;        /* attempts answered 429 by the rate limiter */
    uint64_t concurrency_rejected; /* attempts answered 503 at once by the concurrency limiter */
    uint64_t retries_after_honoured; /* retries that slept a server's Retry-After */
    uint64_t replies_lost;      /* served attempts whose reply was lost */
    double wasted_work_s;       /* server time of attempts whose reply was lost or came late */
    double amplification;       /* calls per finished logical request */
    uint64_t tasks;             /* tasks of task_steps requests finished */
    uint64_t task_successes;    /* tasks whose every step succeeded */
    double task_success_rate;
    double mean_task_latency_s;
    uint64_t repeats;           /* llm repeats of calls that had succeeded */
    uint64_t intercepted;       /* repeated writes answered by the intent de-duplication window */
    double offered_per_s;       /* logical requests started per second (after warm-up, until the last start) */
    double goodput_per_s;       /* logical requests that succeeded per second, same window */
    double recovered;           /* 1 if the state returned to its healthy band and stayed for the
                                 * dwell (see recovery.h), 0 if not; NaN when undefined */
    double recovery_time_s;     /* from trigger_start_s to the recovery; NaN if not recovered */
    double collapsed_before_trigger; /* 1 if the pre-trigger baseline did not serve its offered
                                 * load (recovery.h, "Healthy baseline"), 0 if it did; NaN when
                                 * there is no baseline to judge */
    double baseline_overload_share; /* the share of the attempts arriving at the server in the
                                 * baseline that it turned away or let pile up; NaN as above */
    double baseline_offered_per_s; /* the baseline's offered load (logical requests /s) */
    double baseline_goodput_per_s; /* ... and its goodput (logical successes /s) */
    uint64_t retries_denied;    /* retries the retry limiter refused (the request failed) */
    uint64_t breaker_rejected;  /* attempts the open circuit breaker failed locally */
    uint64_t throttled;         /* attempts adaptive throttling rejected locally */
    uint64_t hedges;            /* hedged copies sent (their late replies are wasted) */
    double trigger_start_s;     /* the trigger (last outage, or spike), for figures; nan if none */
    double trigger_end_s;
    uint64_t peak_inflight;     /* max attempts in service + queued at the server */
    double peak_arrivals_per_s; /* busiest timeseries bucket's arrivals / bucket_s */
    double mean_latency_s;      /* logical request latency, first attempt to outcome */
    double p50_latency_s;
    double p90_latency_s;
    double p99_latency_s;
    double p999_latency_s;      /* the 99.9th percentile */
    double max_latency_s;
    uint64_t served;            /* attempts that entered service (after warm-up) */
    double mean_wait_s;         /* their mean time in the server's queue */
    double p_wait;              /* fraction of them that had to queue */
    double utilization;         /* busy worker time / (workers x measured time) */
    uint64_t events;            /* events the engine dispatched */
    uint64_t mechanisms;        /* 1 if [limits] configures a breaker, throttling or a retry
                                 * limiter (the run has a mechanism series); not a column */
    uint64_t measured;          /* logical requests started in the measured interval ([run]
                                 * window_s, else from warmup_s on); not a column */
    uint64_t measured_ok;       /* ... of them, those that succeeded; not a column */
    uint32_t facts;             /* RESULT_* facts of the scenario and the run that decide which
                                 * metrics are defined (metric_reason); not a column */
    int recovery_status;        /* a recovery_status (recovery.h): RECOVERY_DEFINED (0), or why
                                 * recovered is NaN; not a column */
    int baseline_status;        /* RECOVERY_DEFINED when the baseline was judged, else why not
                                 * (RECOVERY_NO_TRIGGER, _SHORT_BASELINE, _EMPTY_BASELINE);
                                 * not a column */
} metrics;

/* metrics.facts: what the definedness of a metric depends on.  The
 * scenario's facts (results_spec_facts) are known before the run, for
 * herd check; the run adds its own. */
enum {
    RESULT_CLOSED = 1,          /* start = burst or spread: a fixed population, no steady arrivals */
    RESULT_BURST = 2,           /* start = burst: every client starts at 0 */
    RESULT_NO_TRIGGER = 4,      /* no outage, no spike, no trigger_start_s */
    RESULT_WINDOW = 8,          /* [run] window_s is set */
    RESULT_TRACE = 16           /* start = trace: the arrivals follow a recorded trace */
};

/* Per tool ([tool NAME] sections), for tools.csv. */
typedef struct tool_metrics {
    uint64_t requests;          /* logical requests that used the tool */
    uint64_t successes, failures, unknown_outcomes;
    uint64_t calls;             /* attempts that reached the server */
    uint64_t effects, duplicate_effects, lost_operations;
} tool_metrics;

/* metric_type and metric_agg, and the list of names (SPEC_METRICS):
 * spec/metrics.h.  The table below expands that list with each field's
 * offset in `metrics`. */

/* What a metric describes: the logical requests of the measured interval
 * (with [run] window_s: those started in it; their attempts count
 * towards them whenever they happen), or the whole run (the server, the
 * engine, the trigger, whatever the window). */
typedef enum metric_scope { SCOPE_REQUEST, SCOPE_RUN } metric_scope;

typedef struct metric_desc {
    const char *name; /* CSV column */
    metric_type type;
    size_t off;
    metric_agg agg;
    metric_scope scope;
    /* NULL when the metric is defined for the scenario with these facts
     * (RESULT_*), else why it is not ("n/a, because ..." without "n/a");
     * NULL fn: always defined */
    const char *(*why_spec)(uint32_t facts);
    /* the same for one run, once the scenario's reason is NULL; NULL fn:
     * defined whenever the scenario allows it */
    const char *(*why_run)(const metrics *m);
    const char *defined; /* for the docs: in which scenarios it is defined */
} metric_desc;

extern const metric_desc metric_table[];
extern const size_t metric_count;

/* The columns aggregate.csv has for the metric after NAME_mean and
 * NAME_ci95: suffixes ("_lo", "_hi"; "_n"), *n of them. */
const char *const *metric_agg_extra(const metric_desc *d, size_t *n);

/* The metric's value as a double (u64 converted); NaN when the metric is
 * undefined in the run (metric_reason non-NULL), whatever its type. */
double metric_value(const metrics *m, const metric_desc *d);
/* A METRIC_U64 metric exactly (metric_value rounds counts above 2^53, and
 * 2^64 - 1 to 2^64, which no uint64_t holds). */
uint64_t metric_count_value(const metrics *m, const metric_desc *d);

/* NULL if the metric is defined in the run m, else the reason it is not
 * (a static string). */
const char *metric_reason(const metrics *m, const metric_desc *d);

/* NULL if the metric can be defined in a run of a scenario whose facts
 * (results_spec_facts) are these, else the reason it cannot. */
const char *metric_spec_reason(uint32_t facts, const metric_desc *d);

/* The metric named name, or NULL. */
const metric_desc *metric_find(const char *name);

/* The facts (RESULT_*) of a compiled scenario that decide definedness. */
uint32_t results_spec_facts(const model_spec *spec);

/* Sets every metric that is undefined in m (metric_reason) to NaN (a
 * double) or 0 (a count), so no number of an undefined metric survives.
 * Call once the run's metrics and m->facts are complete. */
void results_mark_undefined(metrics *m);

/* One timeseries bucket [i * bucket_s, (i + 1) * bucket_s). */
typedef struct ts_bucket {
    uint32_t arrivals;          /* attempts arriving at the server */
    uint32_t refused;           /* attempts refused at connect (not arrivals) */
    uint32_t in_flight;         /* peak attempts in service + queued during the bucket */
    uint32_t successes;         /* attempts answered with success, at the client */
    uint32_t errors;            /* attempts that failed (error reply or timeout), at the client */
    uint32_t retries_scheduled; /* retries the clients scheduled */
    uint32_t offered;           /* logical requests started */
    uint32_t goodput;           /* logical requests that succeeded */
    uint32_t turned_away;       /* arrivals the server turned away for load: a full queue, a
                                 * limiter (429 or 503), shedding, CoDel, expired work; not a
                                 * column (the recovery measure's healthy baseline reads it) */
} ts_bucket;

typedef struct timeseries {
    double bucket_s;
    ts_bucket *b;
    size_t len, cap;
    size_t max;                 /* buckets allowed (0: no limit) */
    int over;                   /* a bucket at or past max was asked for */
    size_t max_len;             /* buckets the run can reach (its horizon / bucket_s, + 1): the
                                 * array never grows past it; 0: no bound */
} timeseries;

/* Returns bucket i, growing the series (new buckets start with
 * in_flight = carry, the level at the time): by doubling, never past max
 * nor past max_len when it is set.  NULL on allocation failure, or with
 * ts->over set when i >= max. */
ts_bucket *ts_at(timeseries *ts, size_t i, uint32_t carry);

void ts_free(timeseries *ts);

/* One bucket of the mechanism series: the state of the scenario's retry
 * limiting mechanisms ([limits]) over [i * bucket_s, (i + 1) * bucket_s),
 * kept only when a breaker, adaptive throttling or a retry limiter is
 * configured (mechanisms.csv).  The states "at the last decision" carry
 * into buckets without one. */
typedef struct mech_bucket {
    float breaker_open_s;       /* time (s) of the bucket the breaker spent open */
    float breaker_half_open_s;  /* ... half-open (the rest: closed) */
    float throttle_reject_p;    /* adaptive throttling: the rejection probability after the
                                 * bucket's last request or accept */
    uint32_t throttle_requests; /* its window's requests then (locally rejected ones too) */
    uint32_t throttle_accepts;  /* its window's accepts then */
    uint32_t limiter_allowed;   /* retries the retry limiter allowed in the bucket */
    uint32_t limiter_denied;    /* retries it refused */
    float limiter_balance;      /* hp_limiter_balance after the bucket's last limiter call
                                 * (Finagle: whole retries the budget holds) */
} mech_bucket;

typedef struct mechseries {
    mech_bucket *b;
    size_t len, cap;
} mechseries;

/* Returns bucket i of the mechanism series, growing it (new buckets carry
 * the states of the last one and zero counts), never to max buckets or
 * more (max 0: no limit).  NULL on allocation failure or past max. */
mech_bucket *mech_at(mechseries *ms, size_t i, size_t max, size_t max_len);

void mech_free(mechseries *ms);

/* Everything one run hands to the reports: plain data.  The series are
 * owned by the results (free with model_results_free). */
typedef struct model_results {
    metrics m;
    tool_metrics tm[SPEC_MAX_TOOLS];
    timeseries ts;              /* empty when the run's series is not kept */
    mechseries ms;              /* empty without [limits] mechanisms, or when the series is not kept */
} model_results;

void model_results_free(model_results *r);

/* The summary metrics a run derives from its series and counts (the same
 * for the simulation and herd drive; m->measured, m->measured_ok and
 * m->completion_time_s set): offered_per_s and goodput_per_s (with [run]
 * window_s: the requests started in [FROM, TO) over TO - FROM; else open
 * arrivals: the series over [warmup_s, last_start]; a closed population:
 * the requests started from warmup_s on over [warmup_s,
 * completion_time_s]), the trigger and recovery_time_s / recovered,
 * peak_arrivals_per_s, and m->facts. */
void results_summarize_series(metrics *m, const timeseries *ts, const model_spec *spec, double last_start);

/* mean, p50, p99 and max latency of the n samples x (sorted in place);
 * nan for each when n is 0. */
void results_latency(metrics *m, double *x, size_t n);

#endif
