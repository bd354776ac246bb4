/*
 * keys.c - the scenario key table: the single description of the format.
 * Parsing and range checks (keyparse.c), defaults, the tool and layer
 * policies and the `herd keys` reference (below) all read it.
 */
#include "keys.h"

#include <pthread.h>
#include <stdint.h>

#include <string.h>

static const char *const start_names[] = {"burst", "spread", "poisson", "trace", NULL};
static const char *const interp_names[] = {"step", "linear", NULL};
static const char *const mode_names[] = {"fail_fast", "black_hole", "partial", NULL};
static const char *const jitter_names[] = {"none", "full", "proportional", "symmetric", "additive", "floor", NULL};
static const char *const ra_mode_names[] = {"at_least", "instead", "ignore", NULL};
static const char *const ra_above_names[] = {"clamp", "backoff", "stop", NULL};
static const char *const budget_mode_names[] = {"includes_sleep", "at_failure", NULL};
static const char *const ra_format_names[] = {"seconds", "ms", "both", NULL};
static const char *const unknown_names[] = {"retry", "fail", NULL};
static const char *const bool_names[] = {"false", "true", NULL};
static const char *const effect_names[] = {"read", "reversible", "irreversible", "destructive", NULL};
static const char *const on_timeout_names[] = {"if_idempotent", "always", "never", NULL};
static const char *const keys_names[] = {"none", "logical_op", "attempt", "content_hash", NULL};
static const char *const enforce_names[] = {"unique_constraint", "check_then_act", NULL};
static const char *const ra_names[] = {"none", "fixed", "honest", NULL};
static const char *const layer_kind_names[] = {"plain", "llm", NULL};
static const char *const limiter_names[] = {"none", "aws_quota", "grpc", "envoy", "finagle", NULL};
static const char *const hedge_mode_names[] = {"percentile", "fixed", NULL};
static const char *const kind_names[] = {"queue", "occ", NULL};
static const char *const qdisc_names[] = {"fifo", "lifo", "adaptive_lifo", NULL};
static const char *const priority_names[] = {"critical", "sheddable", NULL};
static const char *const climiter_names[] = {"none", "fixed", "aimd", "gradient2", NULL};
static const char *const g2queue_names[] = {"constant", "sqrt", "log10", NULL};
static const char *const ts_names[] = {"all", "first", "none", NULL};

#define C(f) offsetof(scn_config, f)
#define O(f) offsetof(scn_outage, f)
#define T(f) offsetof(scn_tool, f)

/* The [retry] keys a [tool] or [layer] section may override (offsets into
 * scn_tool.over). */
#define POLICY_OVERRIDES(sec)                                                                              \
    {sec, "max_attempts", K_U32, T(over.max_attempts), 0, 1000000000, NULL, "", "[retry]", "As in [retry]."}, \
    {sec, "base_s", K_DOUBLE, T(over.base_s), 1e-9, 1e9, NULL, "s", "[retry]", "As in [retry]."},             \
    {sec, "cap_s", K_DOUBLE, T(over.cap_s), 1e-9, 1e9, NULL, "s", "[retry]", "As in [retry]."},               \
    {sec, "attempt_timeout_s", K_DOUBLE, T(over.attempt_timeout_s), 0, 1e9, NULL, "s", "[retry]",             \
     "As in [retry]; for an outer layer it bounds the whole inner loop of one attempt."},                     \
    {sec, "budget_s", K_DOUBLE, T(over.budget_s), 0, 1e9, NULL, "s", "[retry]", "As in [retry]."},            \
    {sec, "retry_on_timeout", K_ENUM, T(over.on_timeout), 0, 0, on_timeout_names, "", "[retry]", "As in [retry]."}, \
    {sec, "unknown_errors", K_ENUM, T(over.unknown), 0, 0, unknown_names, "", "[retry]", "As in [retry]."},     \
    {sec, "retry_after_max_s", K_DOUBLE, T(over.retry_after_max_s), 0, 1e9, NULL, "s", "[retry]",               \
     "As in [retry]."},                                                                                       \
    LIBRARY_KEYS(sec, T, over., RETRY_DEFAULT, SAME, SAME, SAME, SAME, SAME, SAME, SAME, SAME, SAME, SAME, SAME,      \
                 SAME, SAME, SAME)

#define SAME "As in [retry]."

/* The keys a library preset sets beyond herd's own (hp_policy's client-library
 * fields), for [retry] (F = C, P = policy.) and [tool] / [layer] (F = T,
 * P = over.). */
#define LIBRARY_KEYS(sec, F, P, D, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12, d13, d14)                   \
    {sec, "multiplier", K_DOUBLE, F(P multiplier), 1, 1e6, NULL, "", D("2"), d1},                               \
    {sec, "jitter", K_ENUM, F(P jitter), 0, 0, jitter_names, "", D("none"), d2},                                \
    {sec, "jitter_factor", K_DOUBLE, F(P jitter_f), 0, 1e9, NULL, "", D("0"), d3},                              \
    {sec, "jitter_before_cap", K_BOOL, F(P jitter_before_cap), 0, 0, bool_names, "", D("false"), d4},           \
    {sec, "first_retry_zero", K_BOOL, F(P first_retry_zero), 0, 0, bool_names, "", D("false"), d5},             \
    {sec, "retry_after", K_ENUM, F(P ra_mode), 0, 0, ra_mode_names, "", D("at_least"), d6},                     \
    {sec, "retry_after_above", K_ENUM, F(P ra_above), 0, 0, ra_above_names, "", D("clamp"), d7},                \
    {sec, "retry_after_ms", K_BOOL, F(P ra_ms), 0, 0, bool_names, "", D("false"), d8},                          \
    {sec, "ratelimit_reset", K_BOOL, F(P ra_reset), 0, 0, bool_names, "", D("false"), d9},                      \
    {sec, "ratelimit_reset_jitter", K_DOUBLE, F(P reset_jitter_f), 0, 1, NULL, "", D("0"), d10},                \
    {sec, "retry_also", K_CLASSES, F(P retry_also), 0, 0, NULL, "", D("none"), d11},                            \
    {sec, "retry_with_retry_after", K_CLASSES, F(P retry_with_ra), 0, 0, NULL, "", D("none"), d12},             \
    {sec, "no_retry_status", K_STATUSES, F(P no_retry_status), 0, 0, NULL, "", D("none"), d13},                 \
    {sec, "budget_mode", K_ENUM, F(P budget_mode), 0, 0, budget_mode_names, "", D("includes_sleep"), d14},      \
    {sec, "adaptive_rate_limiter", K_BOOL, F(P adaptive_rate), 0, 0, bool_names, "", D("false"),                \
     "AWS SDK adaptive mode: before every attempt the client waits for a token of a client-side rate "       \
     "limiter (botocore's token bucket whose rate follows CUBIC on 429s), shared by all clients (or per "   \
     "instance: [limits] clients_per_instance)."}
#define OWN_DEFAULT(x) x
#define RETRY_DEFAULT(x) "[retry]"

const key scn_key_table[] = {
    {"run", "name", K_NAME, C(name), 0, 0, NULL, "", "file name without .ini",
     "Scenario name: default output folder is out/NAME/. Letters, digits, '-', '_', '.'."},
    {"run", "seed", K_U64, C(seed), 1, 18446744073709551615.0, NULL, "", "1",
     "Master seed (>= 1). Replication r of every strategy uses the streams of (seed, r)."},
    {"run", "replications", K_U32, C(replications), 1, 100000, NULL, "", "10",
     "Independent replications per strategy; CIs need at least 2."},
    {"run", "strategies", K_STRATEGIES, C(strategies), 0, 0, NULL, "", "the [retry] strategy",
     "Comma-separated strategies run side by side: immediate, constant, exponential, "
     "full_jitter, equal_jitter, decorrelated_jitter, random; or all (every one, in that order)."},
    {"run", "baseline", K_BASELINE, C(baseline), 0, 0, NULL, "", "none",
     "A strategy of `strategies` to compare the others with: writes compare.csv with each "
     "strategy's paired change against it, per replication (common random numbers), in percent."},
    {"run", "baseline_variant", K_NAME, C(baseline_variant), 0, 0, NULL, "", "none",
     "A [variant] to compare the others with: writes compare_variants.csv with each variant's paired "
     "change against it, at the same sweep point, strategy and replication, in percent."},
    {"run", "columns", K_COLUMNS, C(columns), 0, 0, NULL, "",
     "completion_time_s, calls, refused, peak_arrivals_per_s, p99_latency_s, failures",
     "Metrics (columns of summary.csv) shown in the table `herd run` prints."},
    {"run", "bucket_s", K_DOUBLE, C(bucket_s), 1e-6, 1e6, NULL, "s", "1",
     "Width of a timeseries bucket; peak_arrivals_per_s is the busiest bucket's rate."},
    {"run", "timeseries", K_ENUM, C(timeseries), 0, 0, ts_names, "", "all",
     "Replications written to timeseries.csv: all, first (replication 0 only) or none."},
    {"run", "warmup_s", K_DOUBLE, C(warmup_s), 0, 1e9, NULL, "s", "0",
     "Logical requests started before warmup_s, and server time before it, are left out of the "
     "latency, wait and utilization metrics (steady-state measurements)."},
    {"run", "window_s", K_WINDOW, C(window_s), 0, 1e9, NULL, "s", "none (every request)",
     "FROM:TO: every per-request metric (latency quantiles, successes, failures and their reasons, calls, "
     "retries and the other attempt counters, amplification, offered_per_s, goodput_per_s, tasks, tools.csv) "
     "counts the logical requests started in [FROM, TO), with every attempt they make whenever it happens; "
     "offered_per_s and goodput_per_s are over TO - FROM. Whole-run metrics (completion time, peaks, the "
     "server's wait and utilization, recovery, events) stay as they are. TO at most horizon_s."},
    {"run", "trigger_start_s", K_DOUBLE, C(trigger_start_s), 0, 1e9, NULL, "s",
     "start of the last outage, else of the spike",
     "Start of the trigger: recovery_time_s counts from here."},
    {"run", "trigger_end_s", K_DOUBLE, C(trigger_end_s), 0, 1e9, NULL, "s",
     "end of the last outage, else of the spike",
     "End of the trigger (the figures shade the trigger up to here)."},
    {"run", "recovery_dwell_s", K_DOUBLE, C(recovery_dwell_s), 1e-6, 1e9, NULL, "s", "10",
     "A run has recovered once, after the trigger's end, its state (in_flight and the goodput "
     "deficit, offered - goodput, per bucket) stays this long inside its healthy band: at most "
     "the maximum of the buckets between warmup_s and the first trigger's start (at least 20 "
     "independent ones). See doc/metastable.md, \"How recovery is measured\"."},
    {"run", "horizon_s", K_DOUBLE, C(horizon_s), 1e-6, 1e9, NULL, "s", "3600",
     "Simulated time limit; logical requests still open then count as unfinished."},

    {"clients", "count", K_U32, C(clients), 1, 100000000, NULL, "", "1000",
     "Number of clients (a closed population)."},
    {"clients", "requests_per_client", K_U32, C(requests_per_client), 1, 1000000, NULL, "", "1",
     "Logical requests each client makes, one after the other."},
    {"clients", "start", K_ENUM, C(start), 0, 0, start_names, "", "burst",
     "burst: every client starts at t=0; spread: start times uniform on [0, spread_s); "
     "poisson: clients start one after another with exponential gaps, rate_per_s on average "
     "(an open Poisson stream when each makes one request); trace: a Poisson stream whose rate follows "
     "trace_file (count is then derived from the trace)."},
    {"clients", "spread_s", K_DOUBLE, C(spread_s), 0, 1e9, NULL, "s", "0",
     "Width of the start interval with start = spread."},
    {"clients", "rate_per_s", K_DOUBLE, C(rate_per_s), 1e-9, 1e12, NULL, "1/s", "(required for poisson)",
     "Mean client start rate with start = poisson."},
    {"clients", "side_effect", K_ENUM, C(side_effect), 0, 0, effect_names, "", "read",
     "What every request does, without [tool] sections: read (no side effect), reversible, "
     "irreversible or destructive. Each execution of a non-read request is a side effect."},
    {"clients", "task_steps", K_U32, C(task_steps), 1, 1000000, NULL, "", "1",
     "Logical requests per task (an agent's sequential tool calls): a task succeeds only if every "
     "step does; after a failed step the rest of its task is skipped. requests_per_client must be "
     "a multiple."},
    {"clients", "step_at_s", K_DOUBLE, C(step_at_s), 0, 1e9, NULL, "s", "0",
     "start = poisson: from this time on the rate is step_rate_per_s (with step_rate_per_s > 0)."},
    {"clients", "step_rate_per_s", K_DOUBLE, C(step_rate_per_s), 0, 1e12, NULL, "1/s", "0 (no step)",
     "The rate after the step."},
    {"clients", "spike_start_s", K_DOUBLE, C(spike_start_s), 0, 1e9, NULL, "s", "0",
     "start = poisson: a load spike from spike_start_s to spike_end_s at spike_rate_per_s."},
    {"clients", "spike_end_s", K_DOUBLE, C(spike_end_s), 0, 1e9, NULL, "s", "0", "End of the spike."},
    {"clients", "spike_rate_per_s", K_DOUBLE, C(spike_rate_per_s), 0, 1e12, NULL, "1/s", "0 (no spike)",
     "The rate during the spike."},
    {"clients", "trace_file", K_DATA, C(trace), SPEC_DATA_TRACE, 0, NULL, "", "none",
     "start = trace: a CSV with the header time_s,rate_per_s (rows in increasing time); clients arrive as a "
     "Poisson stream of that rate from the first row's time to the last row's, one client per arrival. "
     "A relative path is relative to the scenario file."},
    {"clients", "trace_interpolation", K_ENUM, C(trace_linear), 0, 0, interp_names, "", "step",
     "step: each row's rate holds until the next row; linear: the rate is linear between rows."},
    {"clients", "think_time_s", K_DIST, C(think), 0, 0, NULL, "s", "0",
     "Pause between a client's logical requests (a distribution, see below)."},
    {"clients", "hosts", K_U32, C(hosts), 1, 100000000, NULL, "", "1",
     "The hosts the clients run on: client i on host i mod hosts. Each host has its own sender "
     "([network] send_cost_s) and its own connection pool (connections_per_host); without them "
     "hosts changes nothing and is refused."},
    {"clients", "connections_per_host", K_U32, C(connections_per_host), 0, 100000000, NULL, "", "0 (no pool)",
     "Each host's connection pool: at most this many attempts of its clients in flight; an attempt "
     "waits for a free connection (first come, first served) and the wait counts in its "
     "attempt_timeout_s, as libcurl counts it (see doc/network.md). 0: no pool."},
    {"clients", "priority", K_ENUM, C(priority), 0, 0, priority_names, "", "critical",
     "The requests' priority class (the default of [tool] sections' priority): critical or sheddable; "
     "[server] shed_sheddable_above rejects sheddable ones while the server is busy (Google SRE book, "
     "ch. 21, \"Handling Overload\"). See doc/server.md."},

    {"network", "delay_s", K_DIST, C(delay), 0, 0, NULL, "s", "constant(0.005)",
     "One-way delay, drawn independently for the request and for the reply."},
    {"network", "send_cost_s", K_DOUBLE, C(send_cost_s), 0, 1, NULL, "s", "0 (all at once)",
     "The clients' host spends this long sending each attempt (connection set-up, writing the "
     "request), one attempt after another: attempts due at the same instant leave send_cost_s "
     "apart, as from herd drive's single thread (it measures its own; see Against a real server). With "
     "[clients] hosts, each host sends in turn."},
    {"network", "reply_cost_s", K_DOUBLE, C(reply_cost_s), 0, 1, NULL, "s", "0 (at once)",
     "The clients' host spends this long reading each reply (or refusal) that ends an attempt still "
     "waiting for it, in turn with its sends (one thread, as herd drive's): the client sees the outcome when "
     "its host has read it. See doc/network.md."},

    {"server", "kind", K_ENUM, C(kind), 0, 0, kind_names, "", "queue",
     "queue: workers + FIFO queue with outages and errors; occ: the AWS 2015 optimistic-concurrency "
     "workload (one shared row: read, then a conditional write that fails with 409 if another "
     "client wrote in between; reads and writes are evaluated on arrival)."},
    {"server", "workers", K_U32, C(workers), 1, 10000000, NULL, "", "100",
     "Requests served concurrently."},
    {"server", "queue", K_U32, C(queue), 0, 100000000, NULL, "", "1000",
     "Waiting places; an attempt finding workers and queue full gets 503 at once."},
    {"server", "queue_discipline", K_ENUM, C(queue_discipline), 0, 0, qdisc_names, "", "fifo",
     "The order a freed worker takes waiting attempts in: fifo (the oldest), lifo (the newest; "
     "non-preemptive) or adaptive_lifo (the oldest while it has waited at most adaptive_lifo_after_s, "
     "else the newest: Facebook, \"Fail at Scale\", ACM Queue 13(8), 2015). See doc/server.md."},
    {"server", "adaptive_lifo_after_s", K_DOUBLE, C(adaptive_lifo_after_s), 0, 1e9, NULL, "s", "0.1",
     "adaptive_lifo: the oldest waiting attempt's wait above which the newest is served first "
     "(the default is Fail at Scale's CoDel interval, 100 ms)."},
    {"server", "codel_target_s", K_DOUBLE, C(codel_target_s), 0, 1e9, NULL, "s", "0",
     "CoDel for RPC queues (Fail at Scale; 0: none): when the minimum queueing time over the last "
     "codel_interval_s exceeded this target, a worker looking for work first drops every waiting attempt "
     "that has waited longer than the target (answered 503, counted in codel_dropped, not in rejected). Fail at Scale uses 5 ms."},
    {"server", "codel_interval_s", K_DOUBLE, C(codel_interval_s), 1e-9, 1e9, NULL, "s", "0.1",
     "CoDel's interval: the minimum queueing time is taken over each interval (Fail at Scale: 100 ms)."},
    {"server", "drop_expired", K_BOOL, C(drop_expired), 0, 0, bool_names, "", "false",
     "Every attempt carries its deadline (what is left of its timeout, min(attempt_timeout_s, the budget "
     "left), when it is sent; herd drive's X-Herd-Deadline header): a worker skips, unserved and unanswered, "
     "an attempt whose deadline (its arrival + what it carried) has passed when its service would start "
     "(counted as expired_skipped; its client has timed out). See doc/server.md."},
    {"server", "shed_sheddable_above", K_DOUBLE, C(shed_sheddable_above), 1e-9, 1, NULL, "", "0 (none)",
     "Priority shedding: while the share of busy workers is above this fraction, an arriving sheddable "
     "attempt ([clients] / [tool] priority) is answered 503 at once (counted as shed); critical ones "
     "proceed. See doc/server.md."},
    {"server", "concurrency_limiter", K_ENUM, C(concurrency_limiter), 0, 0, climiter_names, "", "none",
     "A concurrency limit in front of the workers and the queue, as Netflix/concurrency-limits' SimpleLimiter "
     "applies one: an attempt arriving while the attempts admitted and not yet answered (in service or "
     "queued) are at the limit is answered 503 at once (counted as concurrency_rejected). none; fixed "
     "(concurrency_limit); aimd (AIMDLimit) or gradient2 (Gradient2Limit), whose limit adapts to each "
     "admitted attempt's RTT at the server, from admission to its answer. See doc/server.md."},
    {"server", "concurrency_limit", K_U32, C(concurrency_limit), 1, 1000000, NULL, "", "20",
     "fixed: the limit; aimd, gradient2: the initial limit (Netflix's initialLimit, 20)."},
    {"server", "limiter_min", K_U32, C(limiter_min), 1, 1000000, NULL, "", "20",
     "aimd, gradient2: the smallest limit (Netflix's minLimit, 20)."},
    {"server", "limiter_max", K_U32, C(limiter_max), 1, 1000000, NULL, "", "200",
     "aimd, gradient2: the largest limit (Netflix's maxLimit / maxConcurrency, 200)."},
    {"server", "aimd_backoff_ratio", K_DOUBLE, C(aimd_backoff_ratio), 0.5, 0.999999, NULL, "", "0.9",
     "aimd: on a drop the limit becomes floor(limit x ratio); Netflix's backoffRatio, in [0.5, 1)."},
    {"server", "aimd_timeout_s", K_DOUBLE, C(aimd_timeout_s), 1e-9, 1e9, NULL, "s", "5",
     "aimd: an RTT above this counts as a drop (Netflix's timeout, 5 s)."},
    {"server", "gradient2_smoothing", K_DOUBLE, C(gradient2_smoothing), 1e-9, 1, NULL, "", "0.2",
     "gradient2: the new limit is limit x (1 - smoothing) + estimate x smoothing (Netflix's smoothing, 0.2)."},
    {"server", "gradient2_rtt_tolerance", K_DOUBLE, C(gradient2_rtt_tolerance), 1, 1e9, NULL, "", "1.5",
     "gradient2: gradient = clamp(tolerance x long RTT / RTT, 0.5, 1): the RTT growth tolerated before the "
     "limit shrinks (Netflix's rttTolerance, 1.5)."},
    {"server", "gradient2_long_window", K_U32, C(gradient2_long_window), 1, 1000000000, NULL, "", "600",
     "gradient2: the long-term RTT is an exponential average with factor 2 / (window + 1), after a plain "
     "mean of the first 10 samples (Netflix's longWindow, 600 samples)."},
    {"server", "gradient2_queue_size", K_U32, C(gradient2_queue_size), 0, 1000000, NULL, "", "4",
     "gradient2: the queue allowance added to limit x gradient (Netflix's queueSize, 4); with a "
     "gradient2_queue_function, its baseline."},
    {"server", "gradient2_queue_function", K_ENUM, C(gradient2_queue_function), 0, 0, g2queue_names, "",
     "constant",
     "gradient2: the allowance as a function of the limit: constant (gradient2_queue_size), sqrt "
     "(max(queue_size, max(1, floor(sqrt(limit)))), SquareRootFunction) or log10 (max(1, floor(log10(limit))) + "
     "queue_size, Log10RootIntFunction)."},
    {"server", "limiter_window_s", K_DOUBLE, C(limiter_window_s), 0, 1e9, NULL, "s", "0 (every sample)",
     "aimd, gradient2: 0 feeds the limit every sample, as a bare Limit; a window (at least 0.1 s) wraps it in "
     "Netflix's WindowedLimit, as their README configures a server: samples of an RTT under 100 us are "
     "ignored, the others are gathered until one ends more than the window after the last update, and a "
     "window of at least limiter_window_size samples is passed on as one sample (mean RTT, largest "
     "in-flight count, dropped if any was); a smaller one is discarded. Netflix's default window is 1 s."},
    {"server", "limiter_window_size", K_U32, C(limiter_window_size), 10, 1000000000, NULL, "", "10",
     "With limiter_window_s: the samples a window needs (WindowedLimit's windowSize, at least 10)."},
    {"server", "service_time_s", K_DIST, C(service), 0, 0, NULL, "s", "exponential(0.1)",
     "Service time of one attempt."},
    {"server", "rate_limit_rps", K_DOUBLE, C(rate_limit_rps), 0, 1e9, NULL, "1/s", "0",
     "Token-bucket rate limit in front of the server (0: none); an attempt finding no token is "
     "answered 429 at once."},
    {"server", "burst", K_DOUBLE, C(burst), 1, 1e9, NULL, "", "rate_limit_rps (at least 1)",
     "Token-bucket size: attempts admitted at once after a quiet period."},
    {"server", "retry_after", K_ENUM, C(retry_after), 0, 0, ra_names, "", "none",
     "What a 429 says: none, fixed (retry_after_s), or honest (the whole seconds until a token is "
     "free, rounded up, as an HTTP Retry-After)."},
    {"server", "retry_after_s", K_DOUBLE, C(retry_after_s), 0, 65535, NULL, "s", "1",
     "Retry-After of a 429 with retry_after = fixed (whole seconds, as HTTP sends it)."},
    {"server", "retry_after_format", K_ENUM, C(retry_after_format), 0, 0, ra_format_names, "", "seconds",
     "How the Retry-After is sent: seconds (the standard header, whole seconds for honest), ms (only the "
     "non-standard retry-after-ms, rounded up to a millisecond: clients without retry_after_ms see none) or "
     "both."},
    {"server", "retry_after_on_503", K_BOOL, C(retry_after_on_503), 0, 0, bool_names, "", "false",
     "Every 503 (outages, partial outages, background errors, a full queue) also carries a Retry-After of "
     "retry_after_s."},
    {"server", "ratelimit_reset", K_BOOL, C(ratelimit_reset), 0, 0, bool_names, "", "false",
     "429s also carry X-RateLimit-Reset: the whole second when a token is free (read by clients with "
     "ratelimit_reset = true), also with retry_after = none."},
    {"server", "load_slowdown", K_DOUBLE, C(load_slowdown), 0, 1e6, NULL, "", "0",
     "Service time grows with load: x (1 + load_slowdown x attempts in service and queued / "
     "workers), drawn when service starts (contention: locks, GC, cache misses)."},
    {"server", "overload_signal", K_BOOL, C(overload_signal), 0, 0, bool_names, "", "false",
     "503s from a full server say \"overloaded, don't retry\" (layers with obey_overload give up)."},
    {"server", "reply_loss_rate", K_DOUBLE, C(reply_loss_rate), 0, 1, NULL, "", "0",
     "Probability that a served attempt's reply is lost: the work and its side effect happened, "
     "the client times out."},
    {"server", "capacity_file", K_DATA, C(capacity), SPEC_DATA_CAPACITY, 0, NULL, "", "none",
     "A capacity timeline (an incident replay): a CSV with the header time_s,workers_factor,speed_factor,error_rate; "
     "from each row's time on, round(workers_factor x workers) workers serve, service times are divided by "
     "speed_factor and arriving attempts get 503 at once with probability error_rate (steps; full capacity "
     "before the first row, the last row holds to the end). Outages still apply and come first."},

    {"idempotency", "keys", K_ENUM, C(keys), 0, 0, keys_names, "", "none",
     "Idempotency keys on non-read requests: none; logical_op (generated once per logical "
     "operation, reused by every retry: correct); attempt (a fresh key per attempt: as good as "
     "none); content_hash (tool + arguments: distinct operations with identical content "
     "collide). With any key the client treats the operation as idempotent."},
    {"idempotency", "enforcement", K_ENUM, C(enforcement), 0, 0, enforce_names, "", "unique_constraint",
     "How the server's key store is enforced: unique_constraint (the store rejects a second "
     "execution of a key, even a concurrent one: 409 while the first runs, the stored result "
     "after) or check_then_act (an application-level \"seen it?\" check: two attempts in "
     "service at once both pass and both execute)."},
    {"idempotency", "content_collision_p", K_DOUBLE, C(content_collision_p), 0, 1, NULL, "", "0",
     "Probability that a logical operation carries the same content (tool + arguments) as its "
     "client's previous one; what content_hash keys confuse."},

    {"limits", "limiter", K_ENUM, C(limiter), 0, 0, limiter_names, "", "none",
     "Retry limiting for the innermost layer, shared by all clients (or per instance: "
     "clients_per_instance): aws_quota (AWS SDK standard "
     "retry quota: 500 tokens, a retry costs 5, 10 after a timeout, a success refunds), grpc "
     "(retry throttling: 10 tokens, a failure takes 1, a success adds 0.1, retries while "
     "tokens > 5), envoy (retry budget: active retries < max(3, 20% of active requests)), "
     "finagle (retry budget: 20% of requests + 10 retries/s over 10 s)."},
    {"limits", "aws_capacity", K_U32, C(limiter_opts.aws_capacity), 0, 1000000000, NULL, "", "500",
     "aws_quota: bucket size and initial balance."},
    {"limits", "aws_retry_cost", K_U32, C(limiter_opts.aws_retry_cost), 0, 1000000000, NULL, "", "5",
     "aws_quota: tokens a retry costs."},
    {"limits", "aws_timeout_cost", K_U32, C(limiter_opts.aws_timeout_cost), 0, 1000000000, NULL, "", "10",
     "aws_quota: tokens a retry after a timeout costs."},
    {"limits", "grpc_max_tokens", K_U32, C(limiter_opts.grpc_max_tokens), 0, 1000, NULL, "", "10",
     "grpc: token bucket size; retries while tokens > half of it."},
    {"limits", "grpc_token_ratio", K_DOUBLE, C(limiter_opts.grpc_token_ratio), 0, 1000, NULL, "", "0.1",
     "grpc: tokens a success adds."},
    {"limits", "envoy_budget_percent", K_DOUBLE, C(limiter_opts.envoy_budget_percent), 0, 100, NULL, "%", "20",
     "envoy: active retries allowed as a percentage of active requests (0: only the minimum)."},
    {"limits", "envoy_min_retry_concurrency", K_U32, C(limiter_opts.envoy_min_retry_concurrency), 0, 1000000000,
     NULL, "", "3", "envoy: active retries always allowed (0: none)."},
    {"limits", "finagle_ttl_s", K_DOUBLE, C(limiter_opts.finagle_ttl_s), 0, 1e6, NULL, "s", "10",
     "finagle: how long deposits and withdrawals count."},
    {"limits", "finagle_min_retries_per_s", K_DOUBLE, C(limiter_opts.finagle_min_retries_per_s), 0, 1e9, NULL,
     "1/s", "10", "finagle: retries always allowed per second (0: no reserve)."},
    {"limits", "finagle_percent_can_retry", K_DOUBLE, C(limiter_opts.finagle_percent_can_retry), 0, 1000, NULL, "",
     "0.2", "finagle: retries allowed as a fraction of requests (0.2 = 20%; 0: only the reserve)."},
    {"limits", "breaker", K_BOOL, C(breaker), 0, 0, bool_names, "", "false",
     "A circuit breaker in front of the server (closed, open, half-open), shared by all clients (or per "
     "instance: clients_per_instance): "
     "an attempt it refuses fails at once without reaching the server."},
    {"limits", "breaker_failure_ratio", K_DOUBLE, C(breaker_opts.failure_ratio), 0, 1, NULL, "", "0.5",
     "Failure ratio over the window that opens the breaker."},
    {"limits", "breaker_min_requests", K_U32, C(breaker_opts.min_requests), 0, 1000000000, NULL, "", "20",
     "Results needed in the window before it may open."},
    {"limits", "breaker_window_s", K_DOUBLE, C(breaker_opts.window_s), 0, 1e9, NULL, "s", "10",
     "Sampling window."},
    {"limits", "breaker_open_s", K_DOUBLE, C(breaker_opts.open_s), 0, 1e9, NULL, "s", "5",
     "How long it stays open before half-open probes."},
    {"limits", "breaker_probes", K_U32, C(breaker_opts.probes), 0, 1000000, NULL, "", "3",
     "Probes let through half-open; all must succeed to close."},
    {"limits", "adaptive_throttling", K_BOOL, C(throttling), 0, 0, bool_names, "", "false",
     "Client-side adaptive throttling (Google SRE book): reject locally with probability "
     "max(0, (requests - K x accepts) / (requests + 1)) over a sliding window."},
    {"limits", "throttle_k", K_DOUBLE, C(throttle_opts.k), 0, 1e6, NULL, "", "2", "K (lower is more aggressive)."},
    {"limits", "throttle_window_s", K_DOUBLE, C(throttle_opts.window_s), 0, 1e9, NULL, "s", "120",
     "Sliding window of requests and accepts."},

    {"limits", "hedging", K_BOOL, C(hedging), 0, 0, bool_names, "", "false",
     "Hedged requests: while an attempt has no reply after the hedge delay, send a copy (at most "
     "hedge_max); the first reply wins, the others arrive late (wasted copies). Without layers."},
    {"limits", "hedge_mode", K_ENUM, C(hedge_opts.mode), 0, 0, hedge_mode_names, "", "percentile",
     "percentile: the delay is that percentile of the latencies seen so far (hedge_delay_s until 20 "
     "are seen); fixed: hedge_delay_s."},
    {"limits", "hedge_delay_s", K_DOUBLE, C(hedge_opts.delay_s), 0, 1e9, NULL, "s", "1", "Fixed hedge delay (0: copies at once)."},
    {"limits", "hedge_percentile", K_DOUBLE, C(hedge_opts.percentile), 0, 1, NULL, "", "0.95",
     "The latency percentile that triggers a hedge."},
    {"limits", "hedge_max", K_U32, C(hedge_opts.max_hedges), 0, 100, NULL, "", "1", "Copies per attempt at most."},
    {"limits", "clients_per_instance", K_U32, C(clients_per_instance), 1, 100000000, NULL, "",
     "all clients (one instance)",
     "Keeps the state of [limits] (limiter, breaker, throttling, hedge tracker, and the adaptive "
     "send-rate limiter of adaptive_rate_limiter) per instance of N clients, as a fleet of hosts "
     "each with its own SDK client: client i belongs to instance i / N (the last instance may have "
     "fewer). Refused when it changes nothing: N >= the number of clients, or no such mechanism."},

    {"retry", "strategy", K_STRATEGY, C(policy.strategy), 0, 0, NULL, "", "exponential",
     "Strategy when [run] strategies is not given."},
    {"retry", "base_s", K_DOUBLE, C(policy.base_s), 1e-9, 1e9, NULL, "s", "1",
     "Backoff base: the first retry's ceiling."},
    {"retry", "cap_s", K_DOUBLE, C(policy.cap_s), 1e-9, 1e9, NULL, "s", "60",
     "Backoff cap, respected by every strategy (>= base_s)."},
    {"retry", "max_attempts", K_U32, C(policy.max_attempts), 0, 1000000000, NULL, "", "5",
     "Attempts per logical request including the first; 0 = unlimited."},
    {"retry", "exponent_offset", K_U32, C(policy.exponent_offset), 0, 64, NULL, "", "0",
     "Retry n sleeps with ceiling min(cap, base * 2^(n + offset)); the AWS 2015 simulation uses 1."},
    {"retry", "preset", K_PRESET, C(policy), 0, 0, effect_names, "", "none",
     "Start from a side-effect preset (read: 5 attempts, base 0.5 s, cap 8 s; reversible: 3, "
     "1 s, 10 s, non-idempotent; irreversible: 1 attempt, non-idempotent; destructive: 2, 1 s, "
     "5 s, a 404 on retry is success) or a client library's (`herd presets`: openai_python, "
     "langgraph, aws_standard, ...); must come before the other [retry] keys."},
    {"retry", "attempt_timeout_s", K_DOUBLE, C(policy.attempt_timeout_s), 0, 1e9, NULL, "s", "0",
     "Per-attempt timeout at the client; 0 = wait for the reply however long. "
     "A reply after the timeout is counted as late, never as a success."},
    {"retry", "budget_s", K_DOUBLE, C(policy.budget_s), 0, 1e9, NULL, "s", "0",
     "Total time for a logical request (0: none): each attempt's timeout is "
     "min(attempt_timeout_s, what is left), and the client gives up before a sleep that would "
     "end past the deadline."},
    {"retry", "retry_on_timeout", K_ENUM, C(policy.on_timeout), 0, 0, on_timeout_names, "", "if_idempotent",
     "if_idempotent (safe: a timeout of a non-idempotent request without a key ends as an "
     "unknown outcome), always (the naive framework default), never."},
    {"retry", "honour_retry_after", K_NBOOL, C(policy.ignore_retry_after), 0, 0, bool_names, "", "true",
     "Sleep at least the Retry-After of a 429."},
    {"retry", "retry_after_max_s", K_DOUBLE, C(policy.retry_after_max_s), 0, 1e9, NULL, "s", "120",
     "Longest Retry-After honoured; longer ones are clamped (0: none beyond 0 s)."},
    {"retry", "not_found_ok_on_retry", K_BOOL, C(policy.not_found_ok_on_retry), 0, 0, bool_names, "", "false",
     "Destructive operations: a 404 after the first attempt means an earlier attempt did it."},
    {"retry", "unknown_errors", K_ENUM, C(policy.unknown), 0, 0, unknown_names, "", "retry",
     "Errors the classification does not know: retry them, or fail (allow-list)."},
    {"retry", "idempotent", K_NBOOL, C(policy.non_idempotent), 0, 0, bool_names, "", "true",
     "Whether the operation is idempotent (see retry_on_timeout)."},
    {"retry", "delay_s", K_DELAY, C(policy), 0, 0, NULL, "s", "exponential(base_s)",
     "strategy = random: the sleep before every retry is a fresh draw of this distribution "
     "(exponential(MEAN), uniform(LO, HI) or constant(V); capped at cap_s), independent of the attempt "
     "number: the memoryless retrial times of queueing theory with exponential."},
    LIBRARY_KEYS("retry", C, policy., OWN_DEFAULT,
                 "Growth factor of the ceiling per retry: ceiling n = min(cap, base * multiplier^n) (default 2).",
                 "A client library's jitter around the ceiling c, replacing the strategy's: full (u c), "
                 "proportional (c (1 - f u)), symmetric (c (1 + f (2u - 1))), additive (c + f u), floor "
                 "(U(f, max(c, f)))); f is jitter_factor.",
                 "f of the jitter: a fraction (proportional, symmetric) or seconds (additive, floor).",
                 "Cap the jittered sleep instead of the ceiling (tenacity wait_exponential_jitter); by default "
                 "the cap applies first and an additive or symmetric jitter may pass it.",
                 "The first retry has no delay (urllib3: 0, then base * 2^n).",
                 "How a Retry-After combines with the backoff: at_least (sleep max(backoff, min(RA, "
                 "retry_after_max_s))), instead (0 < RA <= retry_after_max_s is slept as is, the SDKs' rule), "
                 "ignore.",
                 "retry_after = instead, RA above retry_after_max_s: clamp to it, backoff (ignore it), or stop "
                 "retrying.",
                 "Reads the non-standard retry-after-ms header ([server] retry_after_format = ms or both).",
                 "Without a Retry-After, reads X-RateLimit-Reset ([server] ratelimit_reset): sleep "
                 "min(reset, retry_after_max_s) x (1 + ratelimit_reset_jitter x u) (cohere).",
                 "The positive jitter on an X-RateLimit-Reset sleep (cohere: 0.2).",
                 "Classes retried although herd's table refuses them: not_implemented (501), bad_request, "
                 "auth, not_found (frameworks that retry any exception).",
                 "Classes retried only when the reply carries a Retry-After (urllib3: rate_limited, server).",
                 "Up to 4 HTTP statuses never retried, e.g. 502, 504 (Google api-core).",
                 "How budget_s stops retrying: includes_sleep (give up when now + sleep reaches the "
                 "deadline) or at_failure (when a failure comes at or after it: tenacity stop_after_delay)."),

    {"tool", "weight", K_DOUBLE, T(weight), 0, 1e9, NULL, "", "1",
     "[tool NAME] sections, any number (at most 8): the relative probability that a logical "
     "request uses this tool."},
    {"tool", "side_effect", K_ENUM, T(effect), 0, 0, effect_names, "", "the preset's, else read",
     "read, reversible, irreversible or destructive."},
    {"tool", "priority", K_ENUM, T(priority), 0, 0, priority_names, "", "[clients] priority",
     "critical or sheddable: the class [server] shed_sheddable_above reads."},
    {"tool", "preset", K_PRESET, T(preset), 0, 0, effect_names, "", "none",
     "The tool's retry policy: [retry], then this preset (a side effect or a library, see [retry] "
     "preset), then the keys below."},
    POLICY_OVERRIDES("tool"),
    {"tool", "idempotent", K_NBOOL, T(over.non_idempotent), 0, 0, bool_names, "", "[retry]", "As in [retry]."},

    {"layer", "kind", K_ENUM, T(kind), 0, 0, layer_kind_names, "", "plain",
     "[layer NAME] sections, outermost first (at most 6): a stack of retry loops; one attempt of a "
     "layer runs the whole loop of the next, the innermost sends to the server. plain: a retry "
     "policy (an agent framework, an HTTP client); llm: a model that thinks, re-issues failed "
     "calls with probability reissue_p and repeats successful ones with probability repeat_p."},
    {"layer", "preset", K_PRESET, T(preset), 0, 0, effect_names, "", "none",
     "The layer's retry policy: [retry], then this preset (a side effect or a library, see [retry] preset; "
     "a library preset fixes the layer's strategy), then the keys below. llamaindex_openai is two layers: "
     "this one (the tenacity loop) and, inside it, the openai SDK's."},
    {"layer", "strategy", K_STRATEGY, T(over.strategy), 0, 0, NULL, "", "the run's strategy",
     "This layer's backoff strategy (default: the strategy being compared)."},
    POLICY_OVERRIDES("layer"),
    {"layer", "retry_on", K_CLASSES, T(retry_mask), 0, 0, NULL, "", "every retryable class",
     "Failure classes this layer retries: any of server, rate_limited, timeout, connection, "
     "conflict, unknown, request_timeout, overloaded (and classes added by retry_also)."},
    {"layer", "obey_overload", K_BOOL, T(obey_overload), 0, 0, bool_names, "", "false",
     "Give up at once when the failure carries the server's \"overloaded, don't retry\" signal "
     "([server] overload_signal)."},
    {"layer", "propagate_deadline", K_BOOL, T(propagate_deadline), 0, 0, bool_names, "", "true",
     "Inner layers' timeouts and budgets are bounded by what is left of this layer's."},
    {"layer", "think_time_s", K_DIST, T(think), 0, 0, NULL, "s", "0", "llm: think time before each call."},
    {"layer", "reissue_p", K_DOUBLE, T(reissue_p), 0, 1, NULL, "", "1",
     "llm: probability that the model re-issues a failed call (within max_attempts)."},
    {"layer", "repeat_p", K_DOUBLE, T(repeat_p), 0, 1, NULL, "", "0",
     "llm: probability that the model calls a tool again after it succeeded (a duplicate intent)."},
    {"layer", "dedup_window_s", K_DOUBLE, T(dedup_window_s), 0, 1e9, NULL, "s", "0",
     "llm: a repeated write whose effect happened less than this long ago is intercepted by the "
     "framework and answered from the earlier result (0: off)."},

    {"outage", "start_s", K_DOUBLE, O(start_s), 0, 1e9, NULL, "s", "(required)",
     "[outage NAME] sections, any number: the outage covers [start_s, end_s)."},
    {"outage", "end_s", K_DOUBLE, O(end_s), 0, 1e9, NULL, "s", "(required)", "End of the outage (> start_s)."},
    {"outage", "mode", K_ENUM, O(mode), 0, 0, mode_names, "", "fail_fast",
     "fail_fast: every attempt is answered at once with `status`; black_hole: attempts "
     "are accepted and never answered (clients need attempt_timeout_s); partial: each arriving attempt "
     "is answered at once with `status` with probability error_p, else served as usual."},
    {"outage", "error_p", K_DOUBLE, O(error_p), 0, 1, NULL, "", "0.5",
     "partial: probability that an arriving attempt is answered with `status` (e.g. 0.5: 50% 503s)."},
    {"outage", "status", K_OUTCOME, O(outcome), 0, 0, NULL, "", "503",
     "fail_fast answer: an HTTP status (100..599) or connection_refused / connection_reset."},
};

const size_t scn_key_count = sizeof scn_key_table / sizeof scn_key_table[0];

/* Keys herd no longer reads, and what replaced them. */
static const struct {
    const char *section, *name, *why;
} retired[] = {
    {"run", "recovery_window_s",
     "retired: recovery is now measured against the run's healthy band before the trigger, and "
     "recovery_dwell_s (default 10 s) says how long the state must stay in it (doc/metastable.md, \"How recovery is "
     "measured\")"},
    {"run", "recovery_fraction",
     "retired: recovery no longer compares goodput with a fixed fraction of the offered load; the "
     "healthy band measured before the trigger replaces it, with recovery_dwell_s (doc/metastable.md, \"How "
     "recovery is measured\")"},
};

const char *scn_retired_key(const char *section, const char *name)
{
    for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++)
        if (!strcmp(retired[i].section, section) && !strcmp(retired[i].name, name))
            return retired[i].why;
    return NULL;
}

_Static_assert(sizeof scn_key_table / sizeof scn_key_table[0] <= SCN_MAX_KEYS, "raise SCN_MAX_KEYS");

/* The lookups by name (scn_key_find, scn_first_key): an open-addressing
 * table over the key table, built once.  Every check of a scenario looks
 * keys up by name (about 5,500 lookups for thundering-herd's effect
 * check), and scans of the table by strcmp took 15.2 M of the 36.4 M
 * instructions of a one-client herd run. */
#define KEY_SLOTS 1024u /* a power of two, over twice the keys and sections */
_Static_assert(2 * (SCN_MAX_KEYS + 1) <= KEY_SLOTS, "raise KEY_SLOTS");

static uint16_t key_slot[KEY_SLOTS];     /* 1 + the index of a key; 0: empty */
static uint16_t section_slot[KEY_SLOTS]; /* 1 + the index of a section's first key */
static pthread_once_t key_slots_once = PTHREAD_ONCE_INIT;

/* FNV-1a over section, a NUL, then name (NULL: the section alone). */
static uint32_t key_hash(const char *section, const char *name)
{
    uint32_t h = 2166136261u;
    for (const char *c = section; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    h *= 16777619u;
    for (const char *c = name ? name : ""; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    return h;
}

/* The slot of (section, name) in slots: its entry, or the empty one where
 * it would go. */
static uint32_t key_probe(const uint16_t *slots, const char *section, const char *name)
{
    uint32_t i = key_hash(section, name) & (KEY_SLOTS - 1);
    for (;; i = (i + 1) & (KEY_SLOTS - 1)) {
        uint16_t e = slots[i];
        if (!e)
            return i;
        const key *k = &scn_key_table[e - 1];
        if (!strcmp(k->section, section) && (!name || !strcmp(k->name, name)))
            return i;
    }
}

/* The first of equal entries wins, as a scan from the start would find. */
static void key_slots_build(void)
{
    for (size_t i = 0; i < scn_key_count; i++) {
        const key *k = &scn_key_table[i];
        uint32_t a = key_probe(key_slot, k->section, k->name), b = key_probe(section_slot, k->section, NULL);
        if (!key_slot[a])
            key_slot[a] = (uint16_t)(i + 1);
        if (!section_slot[b])
            section_slot[b] = (uint16_t)(i + 1);
    }
}

size_t scn_key_find(const char *section, const char *name)
{
    pthread_once(&key_slots_once, key_slots_build);
    uint16_t e = key_slot[key_probe(key_slot, section, name)];
    return e ? (size_t)e - 1 : scn_key_count;
}

size_t scn_first_key(const char *section)
{
    pthread_once(&key_slots_once, key_slots_build);
    uint16_t e = section_slot[key_probe(section_slot, section, NULL)];
    return e ? (size_t)e - 1 : scn_key_count;
}

void scn_print_reference(FILE *f)
{
    const char *cur = "";
    fprintf(f, "Durations are seconds. A distribution is a number V "
               "(constant), constant(V), uniform(LO, HI), exponential(MEAN), normal(MEAN, SD) "
               "(truncated at 0), abs_normal(MEAN, SD), lognormal(MEAN, SD), lognormal_median(MEDIAN, SIGMA), "
               "lognormal_p50_p99(P50, P99), "
               "pareto(SCALE, SHAPE), weibull(SCALE, SHAPE), gamma(SHAPE, SCALE), empirical(FILE.csv) or "
               "mixture(P1: DIST1, P2: DIST2, ...) (see doc/data.md).\n");
    for (size_t i = 0; i < scn_key_count; i++) {
        const key *k = &scn_key_table[i];
        if (strcmp(cur, k->section)) {
            cur = k->section;
            fprintf(f, "\n### [%s%s]\n\n| key | type | unit | default | meaning |\n|---|---|---|---|---|\n", cur,
                    strcmp(cur, "outage") && strcmp(cur, "tool") && strcmp(cur, "layer") ? "" : " NAME");
        }
        char type[160];
        switch (k->type) {
        case K_DOUBLE:
        case K_U32:
        case K_U64:
            scn_range_text(k, type, sizeof type);
            break;
        case K_DIST:
            snprintf(type, sizeof type, "distribution");
            break;
        case K_STRATEGY:
            snprintf(type, sizeof type, "strategy");
            break;
        case K_STRATEGIES:
            snprintf(type, sizeof type, "list of strategies");
            break;
        case K_ENUM: {
            size_t u = (size_t)snprintf(type, sizeof type, "one of");
            for (int j = 0; k->enums[j] && u < sizeof type; j++)
                u += (size_t)snprintf(type + u, sizeof type - u, "%s %s", j ? "," : "", k->enums[j]);
            break;
        }
        case K_NAME:
            snprintf(type, sizeof type, "name");
            break;
        case K_OUTCOME:
            snprintf(type, sizeof type, "status");
            break;
        case K_BASELINE:
            snprintf(type, sizeof type, "none or a strategy");
            break;
        case K_BOOL:
        case K_NBOOL:
            snprintf(type, sizeof type, "true or false");
            break;
        case K_PRESET:
            snprintf(type, sizeof type, "read, reversible, irreversible, destructive or a library preset");
            break;
        case K_STATUSES:
            snprintf(type, sizeof type, "list of statuses");
            break;
        case K_COLUMNS:
            snprintf(type, sizeof type, "list of metrics");
            break;
        case K_CLASSES:
            snprintf(type, sizeof type, "list of classes");
            break;
        case K_DELAY:
            snprintf(type, sizeof type, "exponential, uniform or constant");
            break;
        case K_DATA:
            snprintf(type, sizeof type, "a CSV file, or none");
            break;
        case K_WINDOW:
            snprintf(type, sizeof type, "FROM:TO");
            break;
        }
        fprintf(f, "| `%s` | %s | %s | %s | %s |\n", k->name, type, *k->unit ? k->unit : "-", k->def, k->doc);
        if (!strcmp(k->section, "server") && !strcmp(k->name, "service_time_s"))
            fprintf(f, "| `error_rate_NNN` | a number in [0, 1] | - | 0 | Probability that an arriving attempt "
                       "is answered at once with status NNN (or `error_rate_connection_refused`, "
                       "`error_rate_connection_reset`). Any number of these; they sum to at most 1. |\n");
    }
    fprintf(f, "\n### [sweep NAME]\n\n| key | type | meaning |\n|---|---|---|\n"
               "| `key` | section.key | The key to vary: any key above except `run.name` and `run.columns` "
               "(e.g. `clients.count`, `run.seed`, `outage 1.end_s`). A key is swept once. |\n"
               "| `values` | FROM:TO:STEP or a, b, c | Its values. A list's values are used and labelled as "
               "written (a list may hold distributions); a range is enumerated exactly in decimal, TO included "
               "when TO - FROM is a multiple of STEP (0.1:0.3:0.1 is 0.1, 0.2, 0.3). |\n"
               "\nSeveral sweeps make a grid, the first outermost; at most 10,000 points.\n");
    fprintf(f, "\n### [variant NAME]\n\nAny number of `section.key = value` lines (e.g. `idempotency.keys = "
               "logical_op`), applied on top of the scenario. Every variant (at most 16) runs on the same seeds and "
               "appears as its own rows, with a `variant` column, in every CSV and figure; variants combine with "
               "strategies and sweeps. A variant may set any key but `run.name` and `run.columns`, including `run.seed`, "
               "`run.replications`, `run.strategies` and keys of sections it adds (a new `[tool NAME]`, "
               "`[layer NAME]` or `[outage NAME]`).\n");
}

void scn_print_key_list(FILE *f)
{
    static const char *const tname[] = {
        [K_DOUBLE] = "double", [K_U32] = "integer", [K_U64] = "integer", [K_DIST] = "distribution",
        [K_STRATEGY] = "strategy", [K_STRATEGIES] = "strategies", [K_ENUM] = "enum", [K_NAME] = "name",
        [K_OUTCOME] = "outcome", [K_BASELINE] = "baseline", [K_BOOL] = "bool", [K_NBOOL] = "bool",
        [K_PRESET] = "preset", [K_COLUMNS] = "columns", [K_CLASSES] = "classes", [K_DELAY] = "distribution",
        [K_STATUSES] = "statuses", [K_DATA] = "file", [K_WINDOW] = "window"};
    for (size_t i = 0; i < scn_key_count; i++) {
        const key *k = &scn_key_table[i];
        fprintf(f, "%s\t%s\t%s\t", k->section, k->name, tname[k->type]);
        if (k->type == K_DOUBLE || k->type == K_U32 || k->type == K_U64)
            fprintf(f, "%.17g\t%.17g\t", k->lo, k->hi);
        else
            fprintf(f, "-\t-\t");
        if (k->enums)
            for (int j = 0; k->enums[j]; j++)
                fprintf(f, "%s%s", j ? "," : "", k->enums[j]);
        else
            fputc('-', f);
        fprintf(f, "\t%s\n", k->def);
    }
}
