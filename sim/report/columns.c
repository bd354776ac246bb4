/*
 * columns.c - what each column of summary.csv means: the one text that
 * doc/outputs.md's column table (herd columns, make readme-keys) and the
 * tests read (see report.h).
 */
#include "report.h"

#include <stdio.h>
#include <string.h>

/* What each column of summary.csv means (aggregate.csv has NAME_mean and
 * NAME_ci95 for each); a test checks that every metric has a line. */
static const struct {
    const char *name, *doc;
} metric_docs[] = {
    {"clients", "number of clients"},
    {"completion_time_s", "when the last logical request finished (s; the horizon if any is unfinished)"},
    {"calls", "attempts that reached the server (including those answered with an error at once)"},
    {"refused", "attempts refused at connect: they never reached the server"},
    {"successes", "logical requests that succeeded"},
    {"failures", "logical requests the policy gave up on"},
    {"unfinished", "logical requests still open at the horizon"},
    {"retries", "retries scheduled"},
    {"timeouts", "attempts that hit the per-attempt timeout"},
    {"late_replies", "replies that arrived after their attempt had timed out (wasted work, never a success)"},
    {"rejected", "attempts answered 503 because workers and queue were full"},
    {"codel_dropped", "attempts CoDel dropped from the queue (codel_target_s; answered 503), not in rejected"},
    {"expired_skipped", "attempts a worker skipped unserved because their propagated deadline had passed "
                        "(drop_expired; no reply: the client had timed out)"},
    {"shed", "sheddable attempts answered 503 at once because the share of busy workers was above "
             "shed_sheddable_above"},
    {"concurrency_rejected", "attempts answered 503 at once by the server's concurrency limiter (concurrency_limiter)"},
    {"outage_errors", "attempts answered (or swallowed) by an outage"},
    {"background_errors", "attempts answered by the background error mix (error_rate_NNN)"},
    {"gave_up_attempts", "logical failures: attempts exhausted"},
    {"non_retryable_failures", "logical failures: a class that is never retried"},
    {"non_retryable_replies", "replies of a class never retried (400, 401, 402, 403, 404, 422, 501) seen by clients"},
    {"unknown_outcomes", "logical failures: a timeout of a non-idempotent call that may not be retried (the outcome is unknown)"},
    {"gave_up_budget", "logical failures: the total budget ran out"},
    {"effects", "side effects executed (non-read operations)"},
    {"duplicate_effects", "executions beyond the first of one logical operation"},
    {"lost_operations", "operations the client saw succeed that never executed (suppressed by a colliding key)"},
    {"status_429", "attempts answered 429 by the rate limiter"},
    {"retries_after_honoured", "retries that slept a server's Retry-After"},
    {"replies_lost", "served attempts whose reply was lost"},
    {"wasted_work_s", "server time (s) of attempts whose reply was lost or came late"},
    {"amplification", "calls per finished logical request"},
    {"tasks", "tasks of task_steps requests finished"},
    {"task_successes", "tasks whose every step succeeded"},
    {"task_success_rate", "task_successes / tasks"},
    {"mean_task_latency_s", "mean duration (s) of the successful tasks"},
    {"repeats", "llm layers' repeats of calls that had succeeded"},
    {"intercepted", "repeated writes answered by the intent de-duplication window"},
    {"offered_per_s", "logical requests started per second: with window_s, those started in it over TO - FROM; "
                      "open arrivals (poisson, trace), over [warmup_s, the last start] in whole buckets; a closed "
                      "population (burst, spread), those started from warmup_s on over [warmup_s, "
                      "completion_time_s] (the whole observation)"},
    {"goodput_per_s", "logical requests that succeeded per second, over the same interval (the requests counted "
                      "by offered_per_s that succeeded; open arrivals: the successes in those buckets)"},
    {"recovered", "1 if, after the trigger's end, in_flight and the goodput deficit (offered - goodput) per bucket stayed recovery_dwell_s (default 10 s) inside their healthy band (at most their maxima between warmup_s and the first trigger), before the last start; else 0; undefined when that baseline is not healthy (collapsed_before_trigger), without a trigger, with one that has not ended, without arrivals after it, with less than recovery_dwell_s after it or fewer than 20 buckets before it. aggregate.csv: mean and Wilson 95% interval recovered_lo, recovered_hi over the recovered_n runs where it is defined"},
    {"collapsed_before_trigger", "1 if, between warmup_s and the first trigger, the server did not keep up with what it was offered (it turned away, for a full queue, limiters, shedding, CoDel or expired work, or let pile up significantly more than 5% of the attempts arriving: the lower 95% confidence bound of baseline_overload_share above 0.05) and the clients got significantly less than 95% of their offered load as goodput; then recovered is undefined. 0 otherwise. aggregate.csv: mean and Wilson 95% interval over the runs where it is defined"},
    {"baseline_overload_share", "between warmup_s and the first trigger (less its start-up transient), the attempts the server turned away plus the growth of the number in it, per attempt arriving"},
    {"baseline_offered_per_s", "logical requests started per second over that baseline"},
    {"baseline_goodput_per_s", "logical requests that succeeded per second over that baseline (with baseline_offered_per_s: what the clients saw before the trigger)"},
    {"recovery_time_s", "from trigger_start_s, the time (s) until the start of that stretch in the band (extended back to the trigger's start: 0 if the trigger never left the band); undefined if not recovered: aggregate.csv averages it over the recovered runs, their number in recovery_time_s_n"},
    {"trigger_start_s", "start (s) of the trigger (the last outage, or the spike); n/a if none"},
    {"trigger_end_s", "end (s) of the trigger; n/a if none"},
    {"retries_denied", "retries the retry limiter refused (the request failed)"},
    {"breaker_rejected", "attempts the open circuit breaker failed locally"},
    {"throttled", "attempts adaptive throttling rejected locally"},
    {"hedges", "hedged copies sent (their late replies are wasted)"},
    {"peak_inflight", "most attempts in service + queued at the server at any time"},
    {"peak_arrivals_per_s", "the busiest timeseries bucket's arrivals divided by bucket_s"},
    {"mean_latency_s", "mean logical request latency (s), first attempt to final outcome"},
    {"p50_latency_s", "median logical request latency (s); quantiles are exact up to 262,144 logical requests per run, within 0.049% beyond (a log-linear histogram, see Benchmark)"},
    {"p90_latency_s", "90th percentile of logical request latency (s), exact or within 0.049% as p50"},
    {"p99_latency_s", "99th percentile of logical request latency (s), exact or within 0.049% as p50"},
    {"p999_latency_s", "99.9th percentile of logical request latency (s), exact or within 0.049% as p50"},
    {"max_latency_s", "longest logical request latency (s)"},
    {"served", "attempts that entered service (after warm-up)"},
    {"mean_wait_s", "their mean time (s) in the server's queue"},
    {"p_wait", "fraction of them that had to queue"},
    {"utilization", "busy worker time / (workers x measured time)"},
    {"events", "events the engine dispatched (a client's steps computed ahead are not events: see Design)"}
};

const char *rep_metric_doc(const char *name)
{
    for (size_t i = 0; i < sizeof metric_docs / sizeof metric_docs[0]; i++)
        if (!strcmp(metric_docs[i].name, name))
            return metric_docs[i].doc;
    return NULL;
}

int rep_print_columns(FILE *f)
{
    fprintf(f, "| column | meaning | scope | defined for (else n/a, the reason in manifest.txt) |\n"
               "|---|---|---|---|\n");
    fprintf(f, "| `variant` | the variant (with `[variant]` sections) | - | - |\n");
    fprintf(f, "| `section.key` | one column per swept key: the point's value (with sweeps) | - | - |\n");
    fprintf(f, "| `strategy` | immediate, constant, exponential, full_jitter, equal_jitter, decorrelated_jitter, "
               "random | - | - |\n");
    fprintf(f, "| `replication`, `seed` | replication index and the 64-bit seed derived from (master seed, "
               "replication) | - | - |\n");
    for (size_t k = 0; k < metric_count; k++) {
        const metric_desc *m = &metric_table[k];
        const char *d = rep_metric_doc(m->name);
        fprintf(f, "| `%s` | %s | %s | %s |\n", m->name, d ? d : "(undocumented)",
                m->scope == SCOPE_REQUEST ? "per request" : "whole run", m->defined);
    }
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
