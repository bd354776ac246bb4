/*
 * scenario.c - scenario files and --set overrides into a validated
 * scn_config (see scenario.h).
 *
 * inih does the INI syntax; this file does everything else.  inih is fed
 * through our own line reader, which
 *   - counts lines, so every message carries FILE:LINE (Debian's inih does
 *     not pass line numbers to handlers),
 *   - detects lines longer than the buffer, which inih would silently split,
 *   - strips leading blanks, so an indented key is a key and never an inih
 *     "multi-line continuation" of the previous value.
 *
 * The key table below is the single description of the format: parsing,
 * range checks, defaults and the `herd keys` reference all come from it.
 */
#include "scenario.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ini.h>

#include "../engine/alloc.h"

#define LINE_MAX_LEN 1024

#include "../model/metrics.h"

typedef enum ktype {
    K_DOUBLE, K_U32, K_U64, K_DIST, K_STRATEGY, K_STRATEGIES, K_ENUM, K_NAME, K_OUTCOME, K_BASELINE,
    K_BOOL,  /* true / false into a bool */
    K_NBOOL, /* true / false into a bool, negated */
    K_PRESET, /* a side-effect preset: [retry] applies it, [tool] records it */
    K_COLUMNS, /* a list of metric names */
    K_CLASSES  /* a list of failure classes, into a bit mask */
} ktype;

typedef struct key {
    const char *section; /* "outage" for [outage NAME] */
    const char *name;
    ktype type;
    size_t off;          /* into scn_config, or into scn_outage */
    double lo, hi;       /* numeric range, inclusive */
    const char *const *enums; /* K_ENUM: names, index = value */
    const char *unit;
    const char *def;     /* default, as text (documentation only) */
    const char *doc;
} key;

static const char *const start_names[] = {"burst", "spread", "poisson", NULL};
static const char *const mode_names[] = {"fail_fast", "black_hole", NULL};
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
static const char *const ts_names[] = {"all", "first", "none", NULL};

#define C(f) offsetof(scn_config, f)
#define O(f) offsetof(scn_outage, f)
#define T(f) offsetof(scn_tool, f)
#define BIG 1e12

/* The [retry] keys a [tool] or [layer] section may override (offsets into
 * scn_tool.over). */
#define POLICY_OVERRIDES(sec)                                                                              \
    {sec, "max_attempts", K_U32, T(over.max_attempts), 0, 1000000000, NULL, "", "[retry]", "As in [retry]."}, \
    {sec, "base_s", K_DOUBLE, T(over.base_s), 1e-9, 1e9, NULL, "s", "[retry]", "As in [retry]."},             \
    {sec, "cap_s", K_DOUBLE, T(over.cap_s), 1e-9, 1e9, NULL, "s", "[retry]", "As in [retry]."},               \
    {sec, "attempt_timeout_s", K_DOUBLE, T(over.attempt_timeout_s), 0, 1e9, NULL, "s", "[retry]",             \
     "As in [retry]; for an outer layer it bounds the whole inner loop of one attempt."},                     \
    {sec, "budget_s", K_DOUBLE, T(over.budget_s), 0, 1e9, NULL, "s", "[retry]", "As in [retry]."},            \
    {sec, "retry_on_timeout", K_ENUM, T(over.on_timeout), 0, 0, on_timeout_names, "", "[retry]", "As in [retry]."}

static const key keys[] = {
    {"run", "name", K_NAME, C(name), 0, 0, NULL, "", "file name without .ini",
     "Scenario name: default output folder is out/NAME/. Letters, digits, '-', '_', '.'."},
    {"run", "seed", K_U64, C(seed), 1, 18446744073709551615.0, NULL, "", "1",
     "Master seed (>= 1). Replication r of every strategy uses the streams of (seed, r)."},
    {"run", "replications", K_U32, C(replications), 1, 100000, NULL, "", "10",
     "Independent replications per strategy; CIs need at least 2."},
    {"run", "strategies", K_STRATEGIES, C(strategies), 0, 0, NULL, "", "the [retry] strategy",
     "Comma-separated strategies run side by side: immediate, constant, exponential, "
     "full_jitter, equal_jitter, decorrelated_jitter."},
    {"run", "baseline", K_BASELINE, C(baseline), 0, 0, NULL, "", "none",
     "A strategy of `strategies` to compare the others with: writes compare.csv with each "
     "strategy's paired change against it, per replication (common random numbers), in percent."},
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
    {"run", "trigger_end_s", K_DOUBLE, C(trigger_end_s), 0, 1e9, NULL, "s",
     "end of the last outage, else of the spike",
     "recovery_time_s counts from here: the time until goodput stays at or above 90% of the "
     "offered load for recovery_window_s."},
    {"run", "recovery_window_s", K_DOUBLE, C(recovery_window_s), 1e-6, 1e9, NULL, "s", "10",
     "How long goodput must stay at or above 90% of the offered load to count as recovered."},
    {"run", "horizon_s", K_DOUBLE, C(horizon_s), 1e-6, 1e9, NULL, "s", "3600",
     "Simulated time limit; logical requests still open then count as unfinished."},

    {"clients", "count", K_U32, C(clients), 1, 100000000, NULL, "", "1000",
     "Number of clients (a closed population)."},
    {"clients", "requests_per_client", K_U32, C(requests_per_client), 1, 1000000, NULL, "", "1",
     "Logical requests each client makes, one after the other."},
    {"clients", "start", K_ENUM, C(start), 0, 0, start_names, "", "burst",
     "burst: every client starts at t=0; spread: start times uniform on [0, spread_s); "
     "poisson: clients start one after another with exponential gaps, rate_per_s on average "
     "(an open Poisson stream when each makes one request)."},
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
    {"clients", "think_time_s", K_DIST, C(think), 0, 0, NULL, "s", "0",
     "Pause between a client's logical requests (a distribution, see below)."},

    {"network", "delay_s", K_DIST, C(delay), 0, 0, NULL, "s", "constant(0.005)",
     "One-way delay, drawn independently for the request and for the reply."},

    {"server", "kind", K_ENUM, C(kind), 0, 0, kind_names, "", "queue",
     "queue: workers + FIFO queue with outages and errors; occ: the AWS 2015 optimistic-concurrency "
     "workload (one shared row: read, then a conditional write that fails with 409 if another "
     "client wrote in between; reads and writes are evaluated on arrival)."},
    {"server", "workers", K_U32, C(workers), 1, 10000000, NULL, "", "100",
     "Requests served concurrently."},
    {"server", "queue", K_U32, C(queue), 0, 100000000, NULL, "", "1000",
     "FIFO waiting places; an attempt finding workers and queue full gets 503 at once."},
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
    {"server", "load_slowdown", K_DOUBLE, C(load_slowdown), 0, 1e6, NULL, "", "0",
     "Service time grows with load: x (1 + load_slowdown x attempts in service and queued / "
     "workers), drawn when service starts (contention: locks, GC, cache misses)."},
    {"server", "overload_signal", K_BOOL, C(overload_signal), 0, 0, bool_names, "", "false",
     "503s from a full server say \"overloaded, don't retry\" (layers with obey_overload give up)."},
    {"server", "reply_loss_rate", K_DOUBLE, C(reply_loss_rate), 0, 1, NULL, "", "0",
     "Probability that a served attempt's reply is lost: the work and its side effect happened, "
     "the client times out."},

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
     "Retry limiting for the innermost layer, shared by all clients: aws_quota (AWS SDK standard "
     "retry quota: 500 tokens, a retry costs 5, 10 after a timeout, a success refunds), grpc "
     "(retry throttling: 10 tokens, a failure takes 1, a success adds 0.1, retries while "
     "tokens > 5), envoy (retry budget: active retries < max(3, 20% of active requests)), "
     "finagle (retry budget: 20% of requests + 10 retries/s over 10 s)."},
    {"limits", "breaker", K_BOOL, C(breaker), 0, 0, bool_names, "", "false",
     "A circuit breaker in front of the server (closed, open, half-open), shared by all clients: "
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
    {"limits", "hedge_delay_s", K_DOUBLE, C(hedge_opts.delay_s), 0, 1e9, NULL, "s", "1", "Fixed hedge delay."},
    {"limits", "hedge_percentile", K_DOUBLE, C(hedge_opts.percentile), 0, 1, NULL, "", "0.95",
     "The latency percentile that triggers a hedge."},
    {"limits", "hedge_max", K_U32, C(hedge_opts.max_hedges), 0, 100, NULL, "", "1", "Copies per attempt at most."},

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
     "5 s, a 404 on retry is success); must come before the other [retry] keys."},
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
     "Longest Retry-After honoured; longer ones are clamped."},
    {"retry", "not_found_ok_on_retry", K_BOOL, C(policy.not_found_ok_on_retry), 0, 0, bool_names, "", "false",
     "Destructive operations: a 404 after the first attempt means an earlier attempt did it."},
    {"retry", "unknown_errors", K_ENUM, C(policy.unknown), 0, 0, unknown_names, "", "retry",
     "Errors the classification does not know: retry them, or fail (allow-list)."},
    {"retry", "idempotent", K_NBOOL, C(policy.non_idempotent), 0, 0, bool_names, "", "true",
     "Whether the operation is idempotent (see retry_on_timeout)."},

    {"tool", "weight", K_DOUBLE, T(weight), 0, 1e9, NULL, "", "1",
     "[tool NAME] sections, any number (at most 8): the relative probability that a logical "
     "request uses this tool."},
    {"tool", "side_effect", K_ENUM, T(effect), 0, 0, effect_names, "", "the preset's, else read",
     "read, reversible, irreversible or destructive."},
    {"tool", "preset", K_PRESET, T(preset), 0, 0, effect_names, "", "none",
     "The tool's retry policy: [retry], then this preset, then the keys below."},
    POLICY_OVERRIDES("tool"),
    {"tool", "idempotent", K_NBOOL, T(over.non_idempotent), 0, 0, bool_names, "", "[retry]", "As in [retry]."},

    {"layer", "kind", K_ENUM, T(kind), 0, 0, layer_kind_names, "", "plain",
     "[layer NAME] sections, outermost first (at most 6): a stack of retry loops; one attempt of a "
     "layer runs the whole loop of the next, the innermost sends to the server. plain: a retry "
     "policy (an agent framework, an HTTP client); llm: a model that thinks, re-issues failed "
     "calls with probability reissue_p and repeats successful ones with probability repeat_p."},
    {"layer", "preset", K_PRESET, T(preset), 0, 0, effect_names, "", "none",
     "The layer's retry policy: [retry], then this preset, then the keys below."},
    {"layer", "strategy", K_STRATEGY, T(over.strategy), 0, 0, NULL, "", "the run's strategy",
     "This layer's backoff strategy (default: the strategy being compared)."},
    POLICY_OVERRIDES("layer"),
    {"layer", "retry_on", K_CLASSES, T(retry_mask), 0, 0, NULL, "", "every retryable class",
     "Failure classes this layer retries: any of server, rate_limited, timeout, connection, "
     "conflict, unknown."},
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
     "are accepted and never answered (clients need attempt_timeout_s)."},
    {"outage", "status", K_OUTCOME, O(outcome), 0, 0, NULL, "", "503",
     "fail_fast answer: an HTTP status (100..599) or connection_refused / connection_reset."},
};

#define NKEYS (sizeof keys / sizeof keys[0])

void scn_defaults(scn_config *c)
{
    memset(c, 0, sizeof *c);
    c->seed = 1;
    c->replications = 10;
    c->bucket_s = 1;
    c->baseline = -1;
    snprintf(c->columns, sizeof c->columns, "completion_time_s,calls,refused,peak_arrivals_per_s,p99_latency_s,failures");
    c->horizon_s = 3600;
    c->clients = 1000;
    c->requests_per_client = 1;
    c->start = SCN_START_BURST;
    c->think = (dist){.kind = DIST_CONSTANT, .a = 0};
    c->delay = (dist){.kind = DIST_CONSTANT, .a = 0.005};
    c->workers = 100;
    c->queue = 1000;
    c->service = (dist){.kind = DIST_EXPONENTIAL, .a = 0.1};
    c->policy = hp_policy_defaults();
    c->policy.strategy = HP_EXPONENTIAL;
    c->policy.base_s = 1;
    c->policy.cap_s = 60;
    c->policy.max_attempts = 5;
    c->policy.retry_after_max_s = HP_DEFAULT_RETRY_AFTER_MAX_S;
    c->retry_after_s = 1;
    c->side_effect = HP_EFFECT_READ;
    c->task_steps = 1;
    c->trigger_end_s = -1;
    c->recovery_window_s = 10;
}

/* ---- parse state --------------------------------------------------- */

typedef struct pstate {
    scn_config *c;
    const char *path;
    FILE *fp;
    int lineno;          /* line most recently handed to inih */
    int long_line;       /* first overlong line, 0 if none */
    int failed;          /* line of the first error (-1 if it has none) */
    int max_line;        /* inih's line buffer, from the reader */
    char *err;
    int key_line[NKEYS]; /* where each non-outage key was set (0: default) */
    int section_line;    /* line of the current section header */
    char section[LINE_MAX_LEN];
    unsigned char seen_outage_key[SCN_MAX_OUTAGES][NKEYS];
    unsigned char seen_error[1000 + 8];
} pstate;

static void fail(pstate *ps, int line, const char *fmt, const char *a, const char *b, const char *c)
{
    if (ps->failed)
        return;
    ps->failed = line > 0 ? line : -1;
    char msg[SCN_ERR_MAX];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "", c ? c : "");
    if (line > 0)
        snprintf(ps->err, SCN_ERR_MAX, "%s:%d: %s", ps->path, line, msg);
    else
        snprintf(ps->err, SCN_ERR_MAX, "%s: %s", ps->path, msg);
}

/* "FROM:TO:STEP" with three finite numbers and nothing else: 0, else -1. */
static int sscanf_free_range(const char *s, double *from, double *to, double *step, char *tail)
{
    double v[3];
    const char *p = s;
    (void)tail;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        v[i] = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(v[i]))
            return -1;
        while (*end == ' ' || *end == '\t')
            end++;
        if (i < 2 && *end != ':')
            return -1;
        p = end + (i < 2);
    }
    if (*p)
        return -1;
    *from = v[0];
    *to = v[1];
    *step = v[2];
    return 0;
}

/* Strict numbers: the whole value must be one finite number. */
static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno == ERANGE || !isfinite(v))
        return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end)
        return -1;
    *out = v;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE)
        return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end)
        return -1;
    *out = v;
    return 0;
}

static int parse_outcome(const char *s, int *out)
{
    if (strcmp(s, "connection_refused") == 0) {
        *out = HP_OUTCOME_CONN_REFUSED;
        return 0;
    }
    if (strcmp(s, "connection_reset") == 0) {
        *out = HP_OUTCOME_CONN_RESET;
        return 0;
    }
    uint64_t v;
    if (parse_u64(s, &v) != 0 || v < 100 || v > 599)
        return -1;
    *out = (int)v;
    return 0;
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) >= SCN_NAME_MAX || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

static void range_text(const key *k, char *buf, size_t n)
{
    if (k->type == K_U64)
        snprintf(buf, n, "an integer in [%.0f, 2^64 - 1]", k->lo);
    else if (k->type == K_U32)
        snprintf(buf, n, "an integer in [%.0f, %.0f]", k->lo, k->hi);
    else
        snprintf(buf, n, "a number in [%g, %g]%s%s", k->lo, k->hi, *k->unit ? " " : "", k->unit);
}

/* Applies value to the field of key k at base.  Returns NULL or a message
 * (written into buf). */
static const char *apply(const key *k, void *base, const char *value, char *buf, size_t n)
{
    char *field = (char *)base + k->off;
    char range[128];
    switch (k->type) {
    case K_DOUBLE: {
        double v;
        range_text(k, range, sizeof range);
        if (parse_double(value, &v) != 0 || v < k->lo || v > k->hi) {
            snprintf(buf, n, "expected %s, got '%s'", range, value);
            return buf;
        }
        memcpy(field, &v, sizeof v);
        return NULL;
    }
    case K_U32:
    case K_U64: {
        uint64_t v;
        range_text(k, range, sizeof range);
        if (parse_u64(value, &v) != 0 || (double)v < k->lo || (double)v > k->hi) {
            snprintf(buf, n, "expected %s, got '%s'", range, value);
            return buf;
        }
        if (k->type == K_U32) {
            uint32_t w = (uint32_t)v;
            memcpy(field, &w, sizeof w);
        } else {
            memcpy(field, &v, sizeof v);
        }
        return NULL;
    }
    case K_DIST: {
        dist d;
        const char *m = dist_parse(value, &d);
        if (m) {
            snprintf(buf, n, "%s, got '%s'", m, value);
            return buf;
        }
        memcpy(field, &d, sizeof d);
        return NULL;
    }
    case K_STRATEGY: {
        hp_strategy s;
        if (hp_strategy_parse(value, &s) != 0) {
            snprintf(buf, n, "unknown strategy '%s'; expected one of immediate, constant, exponential, "
                             "full_jitter, equal_jitter, decorrelated_jitter", value);
            return buf;
        }
        memcpy(field, &s, sizeof s);
        return NULL;
    }
    case K_STRATEGIES: {
        scn_config *c = base;
        hp_strategy list[HP_STRATEGY_COUNT];
        uint32_t cnt = 0;
        const char *p = value;
        for (;;) {
            while (*p == ' ' || *p == '\t')
                p++;
            size_t len = strcspn(p, ", \t");
            char name[64];
            if (len == 0 || len >= sizeof name) {
                snprintf(buf, n, "expected a comma-separated list of strategies, got '%s'", value);
                return buf;
            }
            memcpy(name, p, len);
            name[len] = '\0';
            hp_strategy s;
            if (hp_strategy_parse(name, &s) != 0) {
                snprintf(buf, n, "unknown strategy '%s'; expected immediate, constant, exponential, "
                                 "full_jitter, equal_jitter or decorrelated_jitter", name);
                return buf;
            }
            for (uint32_t i = 0; i < cnt; i++)
                if (list[i] == s) {
                    snprintf(buf, n, "strategy '%s' is listed twice", name);
                    return buf;
                }
            list[cnt++] = s;
            p += len;
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                break;
            if (*p != ',') {
                snprintf(buf, n, "expected a comma-separated list of strategies, got '%s'", value);
                return buf;
            }
            p++;
        }
        memcpy(c->strategies, list, sizeof list[0] * cnt);
        c->nstrategies = cnt;
        return NULL;
    }
    case K_ENUM:
        for (int i = 0; k->enums[i]; i++)
            if (strcmp(value, k->enums[i]) == 0) {
                memcpy(field, &i, sizeof i); /* enums are int-sized */
                return NULL;
            }
        {
            size_t used = (size_t)snprintf(buf, n, "expected one of");
            for (int i = 0; k->enums[i] && used < n; i++)
                used += (size_t)snprintf(buf + used, n - used, "%s %s", i ? "," : "", k->enums[i]);
            if (used < n)
                snprintf(buf + used, n - used, "; got '%s'", value);
        }
        return buf;
    case K_NAME:
        if (!valid_name(value)) {
            snprintf(buf, n, "expected 1-63 characters from letters, digits, '-', '_', '.', got '%s'", value);
            return buf;
        }
        memcpy(field, value, strlen(value) + 1);
        return NULL;
    case K_COLUMNS: {
        char tmp[sizeof ((scn_config *)0)->columns];
        if (strlen(value) >= sizeof tmp) {
            snprintf(buf, n, "expected at most %zu characters", sizeof tmp - 1);
            return buf;
        }
        size_t used = 0;
        tmp[0] = '\0';
        for (const char *p = value; *p;) {
            p += strspn(p, " \t,");
            size_t len = strcspn(p, " \t,");
            if (!len)
                break;
            size_t m;
            for (m = 0; m < metric_count; m++)
                if (strlen(metric_table[m].name) == len && !strncmp(metric_table[m].name, p, len))
                    break;
            if (m == metric_count) {
                snprintf(buf, n, "unknown metric '%.*s'; expected column names of summary.csv (e.g. calls)", (int)len,
                         p);
                return buf;
            }
            used += (size_t)snprintf(tmp + used, sizeof tmp - used, "%s%.*s", used ? "," : "", (int)len, p);
            p += len;
        }
        if (!used) {
            snprintf(buf, n, "expected a comma-separated list of metric names");
            return buf;
        }
        memcpy(field, tmp, used + 1);
        return NULL;
    }
    case K_CLASSES: {
        uint32_t mask = 0;
        for (const char *p = value; *p;) {
            p += strspn(p, " \t,");
            size_t len = strcspn(p, " \t,");
            if (!len)
                break;
            int cl;
            for (cl = 0; cl < HP_CLASS_COUNT; cl++) {
                const char *nm = hp_class_name((hp_class)cl);
                if (strlen(nm) == len && !strncmp(nm, p, len))
                    break;
            }
            if (cl == HP_CLASS_COUNT) {
                snprintf(buf, n, "unknown class '%.*s'; expected server, rate_limited, timeout, connection, "
                                 "conflict or unknown", (int)len, p);
                return buf;
            }
            mask |= 1u << cl;
            p += len;
        }
        memcpy(field, &mask, sizeof mask);
        return NULL;
    }
    case K_BOOL:
    case K_NBOOL: {
        int v = !strcmp(value, "true") ? 1 : !strcmp(value, "false") ? 0 : -1;
        if (v < 0) {
            snprintf(buf, n, "expected true or false, got '%s'", value);
            return buf;
        }
        bool b = k->type == K_NBOOL ? !v : v;
        memcpy(field, &b, sizeof b);
        return NULL;
    }
    case K_PRESET: {
        hp_side_effect e;
        if (hp_effect_parse(value, &e) != 0) {
            snprintf(buf, n, "expected read, reversible, irreversible or destructive, got '%s'", value);
            return buf;
        }
        if (k->off == offsetof(scn_config, policy)) {
            /* [retry] preset: the preset's numbers replace the policy's */
            hp_policy *p = (hp_policy *)(void *)field, q = hp_policy_preset(e);
            p->max_attempts = q.max_attempts;
            p->base_s = q.base_s;
            p->cap_s = q.cap_s;
            p->non_idempotent = q.non_idempotent;
            p->not_found_ok_on_retry = q.not_found_ok_on_retry;
        } else {
            int v = (int)e;
            memcpy(field, &v, sizeof v);
        }
        return NULL;
    }
    case K_BASELINE: {
        int b = -1;
        hp_strategy s;
        if (strcmp(value, "none") != 0) {
            if (hp_strategy_parse(value, &s) != 0) {
                snprintf(buf, n, "expected none or a strategy name, got '%s'", value);
                return buf;
            }
            b = (int)s;
        }
        memcpy(field, &b, sizeof b);
        return NULL;
    }
    case K_OUTCOME:
        if (parse_outcome(value, (int *)(void *)field) != 0) {
            snprintf(buf, n, "expected an HTTP status 100..599, connection_refused or connection_reset, got '%s'",
                     value);
            return buf;
        }
        return NULL;
    }
    return "internal: unknown key type";
}

static scn_outage *find_outage(scn_config *c, const char *name, int create, int line)
{
    for (uint32_t i = 0; i < c->noutages; i++)
        if (strcmp(c->outages[i].name, name) == 0)
            return &c->outages[i];
    if (!create || c->noutages == SCN_MAX_OUTAGES)
        return NULL;
    scn_outage *o = &c->outages[c->noutages++];
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "%s", name);
    o->start_s = o->end_s = NAN;
    o->mode = SCN_OUTAGE_FAIL_FAST;
    o->outcome = 503;
    o->line = line;
    return o;
}

/* The [tool NAME] or [layer NAME] section called name, created if new. */
static scn_tool *find_tool(scn_config *c, int layer, const char *name, int line)
{
    scn_tool *arr = layer ? c->layers : c->tools;
    uint32_t *n = layer ? &c->nlayers : &c->ntools, max = layer ? SCN_MAX_LAYERS : SCN_MAX_TOOLS;
    for (uint32_t i = 0; i < *n; i++)
        if (strcmp(arr[i].name, name) == 0)
            return &arr[i];
    if (*n == max)
        return NULL;
    scn_tool *t = &arr[(*n)++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->effect = -1;
    t->preset = -1;
    t->weight = 1;
    t->line = line;
    t->propagate_deadline = true;
    t->reissue_p = 1;
    t->think = (dist){.kind = DIST_CONSTANT, .a = 0};
    return t;
}

/* [variant NAME]: every key is "section.key", kept as text and applied when
 * the variants are expanded. */
static int set_variant(pstate *ps, const char *section, const char *name, const char *value, int line)
{
    if (!name) { /* declared by its header (prescan): a variant may have no keys */
        int saved = ps->section_line;
        ps->section_line = line;
        int ok = set_variant(ps, section, "", "", -line);
        ps->section_line = saved;
        return ok;
    }
    const char *sub = section + 7;
    while (*sub == ' ')
        sub++;
    scn_config *c = ps->c;
    if (!*sub || strlen(sub) >= SCN_NAME_MAX || !valid_name(sub)) {
        fail(ps, line, "[%s]: a variant needs a name of 1-63 letters, digits, '-', '_', '.', e.g. [variant no_keys]",
             section, NULL, NULL);
        return 0;
    }
    scn_variant *v = NULL;
    for (uint32_t i = 0; i < c->nvariants; i++)
        if (!strcmp(c->variants[i].name, sub))
            v = &c->variants[i];
    if (!v) {
        if (c->nvariants == SCN_MAX_VARIANTS) {
            fail(ps, line, "[%s]: too many variants (at most 8)", section, NULL, NULL);
            return 0;
        }
        v = &c->variants[c->nvariants++];
        memset(v, 0, sizeof *v);
        snprintf(v->name, sizeof v->name, "%s", sub);
        v->line = line != 0 ? ps->section_line : 0;
    }
    if (line < 0)
        return 1; /* just declared */
    if (!strchr(name, '.')) {
        fail(ps, line, "[%s] %s: a variant's keys are section.key (e.g. retry.max_attempts = 3)", section, name,
             NULL);
        return 0;
    }
    size_t used = strlen(v->sets), need = strlen(name) + strlen(value) + 2;
    if (used + need >= sizeof v->sets) {
        fail(ps, line, "[%s]: too many overrides (1023 characters at most)", section, NULL, NULL);
        return 0;
    }
    snprintf(v->sets + used, sizeof v->sets - used, "%s=%s\n", name, value);
    return 1;
}

/* [sweep] or [sweep NAME]: key = section.key, values = FROM:TO:STEP or a
 * list.  The values are checked when the sweep is expanded. */
static int set_sweep(pstate *ps, const char *section, const char *name, const char *value, int line)
{
    const char *sub = section + 5;
    while (*sub == ' ')
        sub++;
    scn_config *c = ps->c;
    scn_sweep *s = NULL;
    for (uint32_t i = 0; i < c->nsweeps; i++)
        if (!strcmp(c->sweeps[i].name, sub))
            s = &c->sweeps[i];
    if (!s) {
        if (c->nsweeps == SCN_MAX_SWEEPS) {
            fail(ps, line, "[%s]: too many sweeps (at most 4)", section, NULL, NULL);
            return 0;
        }
        if (strlen(sub) >= SCN_NAME_MAX) {
            fail(ps, line, "[%s]: sweep name too long", section, NULL, NULL);
            return 0;
        }
        s = &c->sweeps[c->nsweeps++];
        memset(s, 0, sizeof *s);
        snprintf(s->name, sizeof s->name, "%s", sub);
        s->line = line > 0 ? ps->section_line : 0;
    }
    char *field;
    size_t cap;
    if (!strcmp(name, "key")) {
        field = s->key;
        cap = sizeof s->key;
    } else if (!strcmp(name, "values")) {
        field = s->values;
        cap = sizeof s->values;
    } else {
        fail(ps, line, "[%s]: unknown key '%s'; a sweep has `key` (section.key) and `values` (FROM:TO:STEP or a, b, c)",
             section, name, NULL);
        return 0;
    }
    if (line > 0 && *field) {
        fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
        return 0;
    }
    if (!*value || strlen(value) >= cap) {
        fail(ps, line, "[%s] %s: expected a non-empty value shorter than %s characters", section, name,
             cap == sizeof s->key ? "96" : "1024");
        return 0;
    }
    memcpy(field, value, strlen(value) + 1);
    return 1;
}

/* Sets section.name = value from `line` (0 for --set).  Returns 1 on
 * success, 0 on error (ps->err filled). */
static int set_key(pstate *ps, const char *section, const char *name, const char *value, int line)
{
    char buf[SCN_ERR_MAX];
    const char *kind = section;
    const char *sub = NULL;
    if (strncmp(section, "sweep", 5) == 0 && (section[5] == ' ' || section[5] == '\0'))
        return set_sweep(ps, section, name, value, line);
    if (strncmp(section, "variant", 7) == 0 && (section[7] == ' ' || section[7] == '\0'))
        return set_variant(ps, section, name, value, line);
    if ((strncmp(section, "outage", 6) == 0 && (section[6] == ' ' || section[6] == '\0')) ||
        (strncmp(section, "tool", 4) == 0 && (section[4] == ' ' || section[4] == '\0')) ||
        (strncmp(section, "layer", 5) == 0 && (section[5] == ' ' || section[5] == '\0'))) {
        kind = section[0] == 'o' ? "outage" : section[0] == 't' ? "tool" : "layer";
        sub = section + strlen(kind);
        while (*sub == ' ')
            sub++;
        if (!*sub || strlen(sub) >= SCN_NAME_MAX) {
            fail(ps, line, "[%s]: this section needs a name of 1-63 characters, e.g. [outage 1] or [tool send_email]",
                 section, NULL, NULL);
            return 0;
        }
    } else if (strcmp(section, "run") && strcmp(section, "clients") && strcmp(section, "network") &&
               strcmp(section, "server") && strcmp(section, "retry") && strcmp(section, "idempotency") &&
               strcmp(section, "limits")) {
        fail(ps, line,
             "unknown section [%s]; expected run, clients, network, server, idempotency, limits, retry, outage NAME, "
             "tool NAME, layer NAME, variant NAME or sweep [NAME]",
             section, NULL, NULL);
        return 0;
    }

    /* [server] error_rate_NNN / error_rate_connection_refused ... */
    if (strcmp(kind, "server") == 0 && strncmp(name, "error_rate_", 11) == 0) {
        int outcome;
        if (parse_outcome(name + 11, &outcome) != 0) {
            fail(ps, line, "[server] %s: unknown error; expected error_rate_NNN with an HTTP status 100..599, "
                           "error_rate_connection_refused or error_rate_connection_reset", name, NULL, NULL);
            return 0;
        }
        double p;
        if (parse_double(value, &p) != 0 || p < 0 || p > 1) {
            fail(ps, line, "[server] %s: expected a probability in [0, 1], got '%s'", name, value, NULL);
            return 0;
        }
        size_t slot = outcome > 0 ? (size_t)outcome : (size_t)(1000 - outcome);
        if (line > 0 && ps->seen_error[slot]) {
            fail(ps, line, "[server] %s: duplicate key", name, NULL, NULL);
            return 0;
        }
        ps->seen_error[slot] = 1;
        scn_config *c = ps->c;
        for (uint32_t i = 0; i < c->nerrors; i++)
            if (c->errors[i].outcome == outcome) {
                c->errors[i].p = p;
                return 1;
            }
        if (c->nerrors == SCN_MAX_ERRORS) {
            fail(ps, line, "[server] %s: too many error_rate keys (at most 16)", name, NULL, NULL);
            return 0;
        }
        c->errors[c->nerrors++] = (scn_error_rate){.outcome = outcome, .p = p};
        return 1;
    }

    for (size_t i = 0; i < NKEYS; i++) {
        const key *k = &keys[i];
        if (strcmp(k->section, kind) || strcmp(k->name, name))
            continue;
        void *base = ps->c;
        int *seen = &ps->key_line[i];
        if (sub && (kind[0] == 't' || kind[0] == 'l')) {
            scn_tool *t = find_tool(ps->c, kind[0] == 'l', sub, line > 0 ? ps->section_line : 0);
            if (!t) {
                fail(ps, line, kind[0] == 'l' ? "[%s]: too many layers (at most 6)" : "[%s]: too many tools (at most 8)",
                     section, NULL, NULL);
                return 0;
            }
            size_t first = 0;
            while (strcmp(keys[first].section, kind))
                first++;
            uint32_t bit = 1u << (i - first);
            if (line > 0 && (t->set & bit)) {
                fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
                return 0;
            }
            const char *m = apply(k, t, value, buf, sizeof buf);
            if (m) {
                char where[SCN_ERR_MAX];
                snprintf(where, sizeof where, "[%s] %s", section, name);
                fail(ps, line, "%s: %s", where, m, NULL);
                return 0;
            }
            t->set |= bit;
            return 1;
        }
        if (k->type == K_PRESET && !sub && line > 0 && ps->c->retry_keys_line > 0) {
            char l[32];
            snprintf(l, sizeof l, "%d", ps->c->retry_keys_line);
            fail(ps, line, "[retry] preset: put it before the other [retry] keys (line %s), which it would replace",
                 l, NULL, NULL);
            return 0;
        }
        if (!strcmp(kind, "retry") && k->type != K_PRESET && line > 0 && !ps->c->retry_keys_line)
            ps->c->retry_keys_line = line;
        if (sub) {
            scn_outage *o = find_outage(ps->c, sub, 1, line > 0 ? ps->section_line : 0);
            if (!o) {
                fail(ps, line, "[%s]: too many outages (at most 32)", section, NULL, NULL);
                return 0;
            }
            base = o;
            unsigned char *s = &ps->seen_outage_key[o - ps->c->outages][i];
            if (line > 0 && *s) {
                fail(ps, line, "[%s] %s: duplicate key", section, name, NULL);
                return 0;
            }
            *s = 1;
        } else if (line > 0 && *seen > 0) {
            char prev[32];
            snprintf(prev, sizeof prev, "%d", *seen);
            fail(ps, line, "[%s] %s: duplicate key (first set on line %s)", section, name, prev);
            return 0;
        }
        const char *m = apply(k, base, value, buf, sizeof buf);
        if (m) {
            char where[SCN_ERR_MAX];
            snprintf(where, sizeof where, "[%s] %s", section, name);
            fail(ps, line, "%s: %s", where, m, NULL);
            return 0;
        }
        if (!sub)
            *seen = line > 0 ? line : -1;
        return 1;
    }
    fail(ps, line, "[%s]: unknown key '%s' (see `herd keys` for every key)", section, name, NULL);
    return 0;
}

/* ---- inih glue ----------------------------------------------------- */

static char *reader(char *str, int num, void *stream)
{
    pstate *ps = stream;
    ps->max_line = num;
    if (!fgets(str, num, ps->fp))
        return NULL;
    ps->lineno++;
    size_t len = strlen(str);
    if (len == (size_t)num - 1 && str[len - 1] != '\n' && !feof(ps->fp)) {
        int ch;
        while ((ch = fgetc(ps->fp)) != EOF && ch != '\n')
            ;
        if (!ps->long_line)
            ps->long_line = ps->lineno;
        str[0] = '\0';
        return str;
    }
    size_t lead = strspn(str, " \t");
    if (lead)
        memmove(str, str + lead, len - lead + 1);
    if (str[0] == '[')
        ps->section_line = ps->lineno;
    return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
    pstate *ps = user;
    if (ps->failed)
        return 0;
    if (!*section) {
        fail(ps, ps->lineno, "key '%s' appears before any [section]", name, NULL, NULL);
        return 0;
    }
    return set_key(ps, section, name, value, ps->lineno);
}

/* Rejects NUL bytes and duplicate section headers, which inih accepts
 * silently, in a first pass over the file. */
static int prescan(pstate *ps)
{
    char line[LINE_MAX_LEN];
    char seen[SCN_MAX_OUTAGES + 8][LINE_MAX_LEN / 8];
    int seen_line[SCN_MAX_OUTAGES + 8];
    int nseen = 0, lineno = 0;
    while (fgets(line, sizeof line, ps->fp)) {
        lineno++;
        size_t len = strlen(line);
        if (len + 1 < sizeof line && !feof(ps->fp) && (len == 0 || line[len - 1] != '\n')) {
            fail(ps, lineno, "the file contains a NUL byte; expected a text scenario file", NULL, NULL, NULL);
            return -1;
        }
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            int ch;
            while ((ch = fgetc(ps->fp)) != EOF && ch != '\n')
                ;
            continue; /* reported by the reader */
        }
        char *p = line + strspn(line, " \t");
        if (*p != '[')
            continue;
        char *end = strchr(p, ']');
        if (!end)
            continue; /* inih reports the syntax error */
        *end = '\0';
        p++;
        size_t named = 0;
        if (strncmp(p, "outage", 6) == 0 && (p[6] == ' ' || p[6] == '\0'))
            named = 6;
        else if (strncmp(p, "tool", 4) == 0 && (p[4] == ' ' || p[4] == '\0'))
            named = 4;
        else if (strncmp(p, "layer", 5) == 0 && (p[5] == ' ' || p[5] == '\0'))
            named = 5;
        else if (strncmp(p, "variant", 7) == 0 && (p[7] == ' ' || p[7] == '\0'))
            named = 7;
        if (named) {
            const char *name = p + named + strspn(p + named, " ");
            if (!*name || strlen(name) >= SCN_NAME_MAX) {
                fail(ps, lineno, "[%s]: this section needs a name of 1-63 characters, e.g. [outage 1] or [tool send_email]",
                     p, NULL, NULL);
                return -1;
            }
        } else if (strcmp(p, "run") && strcmp(p, "clients") && strcmp(p, "network") && strcmp(p, "server") &&
                   strcmp(p, "retry") && strcmp(p, "idempotency") && strcmp(p, "limits") &&
                   !(strncmp(p, "sweep", 5) == 0 && (p[5] == ' ' || p[5] == '\0'))) {
            fail(ps, lineno,
                 "unknown section [%s]; expected run, clients, network, server, idempotency, limits, retry, outage NAME, "
                 "tool NAME, layer NAME, variant NAME or sweep [NAME]",
                 p, NULL, NULL);
            return -1;
        }
        if (named == 7 && !set_variant(ps, p, NULL, NULL, lineno))
            return -1;
        if (strlen(p) >= sizeof seen[0])
            continue;
        for (int i = 0; i < nseen; i++)
            if (strcmp(seen[i], p) == 0) {
                char prev[32];
                snprintf(prev, sizeof prev, "%d", seen_line[i]);
                fail(ps, lineno, "duplicate section [%s] (first on line %s); each section appears once", p, prev,
                     NULL);
                return -1;
            }
        if (nseen < (int)(sizeof seen / sizeof seen[0])) {
            snprintf(seen[nseen], sizeof seen[0], "%s", p);
            seen_line[nseen++] = lineno;
        }
    }
    if (ferror(ps->fp)) {
        fail(ps, 0, "cannot read the file", NULL, NULL, NULL);
        return -1;
    }
    rewind(ps->fp);
    return 0;
}

static void default_name(scn_config *c, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
        n -= 4;
    if (n >= SCN_NAME_MAX)
        n = SCN_NAME_MAX - 1;
    char name[SCN_NAME_MAX];
    memcpy(name, b, n);
    name[n] = '\0';
    for (char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_' || *p == '.'))
            *p = '_';
    snprintf(c->name, sizeof c->name, "%s", valid_name(name) ? name : "scenario");
}

static int validate(const scn_config *c, const pstate *ps, char *err);

int scn_load(scn_config *c, const char *path, const char *const *sets, int nsets, char err[SCN_ERR_MAX])
{
    static pstate ps_zero;
    pstate *ps = malloc(sizeof *ps); /* large (seen tables): not on the stack */
    if (!ps) {
        snprintf(err, SCN_ERR_MAX, "%s: out of memory", path);
        return -1;
    }
    *ps = ps_zero;
    scn_defaults(c);
    ps->c = c;
    ps->path = path;
    ps->err = err;
    err[0] = '\0';
    int rc = -1;

    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, SCN_ERR_MAX, "%s: cannot open scenario: %s", path, strerror(errno));
        goto out;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, SCN_ERR_MAX, "%s: is a directory; expected a scenario file (.ini)", path);
        goto out;
    }
    ps->fp = fopen(path, "r");
    if (!ps->fp) {
        snprintf(err, SCN_ERR_MAX, "%s: cannot open scenario: %s", path, strerror(errno));
        goto out;
    }
    if (st.st_size == 0) {
        snprintf(err, SCN_ERR_MAX, "%s: the file is empty; expected a scenario (see scenarios/ for examples)", path);
        goto out;
    }
    if (prescan(ps) != 0)
        goto out;
    default_name(c, path);
    int line = ini_parse_stream(reader, ps, handler, ps);
    /* Report the earliest of: an overlong line, an inih syntax error, an
     * error of ours. */
    if (ps->long_line && (!ps->failed || ps->long_line < ps->failed) && (line <= 0 || ps->long_line <= line)) {
        ps->failed = 0;
        char n[32];
        snprintf(n, sizeof n, "%d", ps->max_line - 2);
        fail(ps, ps->long_line, "line longer than %s characters; shorten it", n, NULL, NULL);
        goto out;
    }
    if (line > 0 && (!ps->failed || line < ps->failed)) {
        ps->failed = 0;
        fail(ps, line, "syntax error: expected [section], key = value, or a comment starting with ';' or '#'", NULL,
             NULL, NULL);
        goto out;
    }
    if (ps->failed || line != 0) {
        if (!ps->failed)
            fail(ps, 0, "cannot read the file", NULL, NULL, NULL);
        goto out;
    }
    for (int i = 0; i < nsets; i++) {
        ps->path = "--set";
        if (scn_set(c, sets[i], "--set", err) != 0)
            goto out;
    }
    ps->path = path;
    rc = validate(c, ps, err);
    if (rc == 0 && (c->nsweeps || c->nvariants)) {
        scn_point *pts;
        if (scn_expand(c, path, &pts, err) < 0)
            rc = -1;
        else
            herd_free(pts);
    }
out:
    if (ps->fp)
        fclose(ps->fp);
    free(ps);
    return rc;
}

int scn_set(scn_config *c, const char *assignment, const char *origin, char err[SCN_ERR_MAX])
{
    static pstate ps_zero;
    pstate *ps = malloc(sizeof *ps);
    if (!ps) {
        snprintf(err, SCN_ERR_MAX, "%s: out of memory", origin);
        return -1;
    }
    *ps = ps_zero;
    ps->c = c;
    ps->err = err;
    char where[SCN_ERR_MAX];
    snprintf(where, sizeof where, "%s %s", origin, assignment);
    ps->path = where;
    int rc = -1;
    const char *eq = strchr(assignment, '=');
    const char *dot = NULL;
    for (const char *p = assignment; eq && p < eq; p++)
        if (*p == '.')
            dot = p;
    if (!eq || !dot || dot == assignment || dot + 1 == eq) {
        fail(ps, 0, "expected section.key=value (e.g. server.workers=50)", NULL, NULL, NULL);
        goto out;
    }
    char section[LINE_MAX_LEN], name[LINE_MAX_LEN];
    if ((size_t)(dot - assignment) >= sizeof section || (size_t)(eq - dot - 1) >= sizeof name) {
        fail(ps, 0, "section or key too long", NULL, NULL, NULL);
        goto out;
    }
    memcpy(section, assignment, (size_t)(dot - assignment));
    section[dot - assignment] = '\0';
    memcpy(name, dot + 1, (size_t)(eq - dot - 1));
    name[eq - dot - 1] = '\0';
    const char *value = eq + 1;
    while (*value == ' ')
        value++;
    rc = set_key(ps, section, name, value, 0) ? 0 : -1;
out:
    free(ps);
    return rc;
}

/* ---- validation ---------------------------------------------------- */

static int key_index(const char *section, const char *name)
{
    for (size_t i = 0; i < NKEYS; i++)
        if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
            return (int)i;
    return -1;
}

static int line_of(const pstate *ps, const char *section, const char *name)
{
    int i = key_index(section, name);
    return ps && i >= 0 && ps->key_line[i] > 0 ? ps->key_line[i] : 0;
}

double scn_memory_estimate(const scn_config *c)
{
    /* per client: state (48 B) + about two pending events (2 x 32 B); per
     * logical request: a latency sample (8 B) and its flags (1 B, plus a
     * 4 B content key with content_hash keys); the queue grows on demand
     * and is not counted. */
    double per_op = 9.0 + (c->keys == SCN_KEYS_CONTENT_HASH ? 4.0 : 0.0);
    return (double)c->clients * (48.0 + 64.0 + per_op * c->requests_per_client) + (double)c->workers * 8.0;
}

/* The [retry] policy, then a tool's or layer's preset and keys. */
static hp_policy section_policy(const scn_config *c, const scn_tool *tool, const char *section, hp_strategy s)
{
    hp_policy p = c->policy;
    p.strategy = s;
    if (c->keys != SCN_KEYS_NONE)
        p.idempotency_key = true;
    if (!tool)
        return p;
    if (tool->preset >= 0) {
        hp_policy q = hp_policy_preset((hp_side_effect)tool->preset);
        p.max_attempts = q.max_attempts;
        p.base_s = q.base_s;
        p.cap_s = q.cap_s;
        p.non_idempotent = q.non_idempotent;
        p.not_found_ok_on_retry = q.not_found_ok_on_retry;
    }
    size_t first = 0;
    while (strcmp(keys[first].section, section))
        first++;
    for (size_t i = first; i < NKEYS && !strcmp(keys[i].section, section); i++) {
        const key *k = &keys[i];
        if (!(tool->set & (1u << (i - first))) || k->off < offsetof(scn_tool, over) ||
            k->off >= offsetof(scn_tool, over) + sizeof(hp_policy))
            continue;
        size_t off = k->off - offsetof(scn_tool, over);
        size_t size = k->type == K_DOUBLE ? sizeof(double) : k->type == K_NBOOL ? sizeof(bool) : sizeof(int);
        memcpy((char *)&p + off, (const char *)&tool->over + off, size);
    }
    return p;
}

hp_policy scn_tool_policy(const scn_config *c, uint32_t t, hp_strategy s)
{
    return section_policy(c, t < c->ntools ? &c->tools[t] : NULL, "tool", s);
}

hp_policy scn_layer_policy(const scn_config *c, uint32_t l, hp_strategy s)
{
    return section_policy(c, l < c->nlayers ? &c->layers[l] : NULL, "layer", s);
}

hp_side_effect scn_tool_effect(const scn_config *c, uint32_t t)
{
    if (t >= c->ntools)
        return c->side_effect;
    const scn_tool *tool = &c->tools[t];
    return tool->effect >= 0 ? (hp_side_effect)tool->effect
                             : tool->preset >= 0 ? (hp_side_effect)tool->preset : HP_EFFECT_READ;
}

double scn_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return 16.0 * 1024 * 1024 * 1024;
    return 0.8 * (double)pages * (double)size;
}

static int validate(const scn_config *c, const pstate *ps, char *err)
{
    const char *path = ps ? ps->path : "scenario";
#define BAD(line, ...)                                                                                        \
    do {                                                                                                      \
        char m_[SCN_ERR_MAX];                                                                                 \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                                                 \
        if (line)                                                                                             \
            snprintf(err, SCN_ERR_MAX, "%s:%d: %s", path, (int)(line), m_);                                   \
        else                                                                                                  \
            snprintf(err, SCN_ERR_MAX, "%s: %s", path, m_);                                                   \
        return -1;                                                                                            \
    } while (0)

    if (c->policy.cap_s < c->policy.base_s) {
        int l = line_of(ps, "retry", "cap_s");
        BAD(l ? l : line_of(ps, "retry", "base_s"),
            "[retry] cap_s (%g s) is below base_s (%g s); expected cap_s >= base_s", c->policy.cap_s,
            c->policy.base_s);
    }
    double wsum = 0;
    for (uint32_t t = 0; t < c->ntools; t++) {
        const scn_tool *tool = &c->tools[t];
        hp_policy p = scn_tool_policy(c, t, HP_EXPONENTIAL);
        if (p.cap_s < p.base_s)
            BAD(tool->line, "[tool %s]: cap_s (%g s) is below base_s (%g s); expected cap_s >= base_s", tool->name,
                p.cap_s, p.base_s);
        wsum += tool->weight;
    }
    for (uint32_t l = 0; l < c->nlayers; l++) {
        hp_policy p = scn_layer_policy(c, l, HP_EXPONENTIAL);
        if (p.cap_s < p.base_s)
            BAD(c->layers[l].line, "[layer %s]: cap_s (%g s) is below base_s (%g s); expected cap_s >= base_s",
                c->layers[l].name, p.cap_s, p.base_s);
    }
    if (c->hedging && c->nlayers)
        BAD(line_of(ps, "limits", "hedging"), "[limits] hedging works without [layer] sections");
    if (c->nlayers && c->kind == SCN_SERVER_OCC)
        BAD(c->layers[0].line, "[layer %s]: layers work with the queue server only", c->layers[0].name);
    if (c->ntools && !(wsum > 0))
        BAD(c->tools[0].line, "[tool %s]: the tool weights sum to 0; expected at least one weight > 0",
            c->tools[0].name);
    if (c->keys == SCN_KEYS_CONTENT_HASH && c->kind == SCN_SERVER_OCC)
        BAD(line_of(ps, "idempotency", "keys"), "[idempotency] keys: the occ server has no key store");
    if (c->baseline >= 0) {
        hp_strategy s[HP_STRATEGY_COUNT];
        uint32_t n = scn_strategies(c, s), i;
        for (i = 0; i < n && (int)s[i] != c->baseline; i++)
            ;
        if (i == n)
            BAD(line_of(ps, "run", "baseline"), "[run] baseline = %s is not one of the strategies run",
                hp_strategy_name((hp_strategy)c->baseline));
    }
    if (c->kind == SCN_SERVER_OCC) {
        int l = line_of(ps, "server", "kind");
        if (c->noutages)
            BAD(l, "[server] kind = occ has no outages; remove the [outage %s] section", c->outages[0].name);
        if (c->nerrors)
            BAD(l, "[server] kind = occ has no background errors; remove the error_rate_* keys");
        if (c->policy.attempt_timeout_s > 0)
            BAD(l, "[server] kind = occ never loses a reply; remove [retry] attempt_timeout_s");
    }
    if (c->start == SCN_START_SPREAD && !(c->spread_s > 0))
        BAD(line_of(ps, "clients", "start"), "[clients] start = spread needs spread_s > 0");
    if (c->requests_per_client % (c->task_steps ? c->task_steps : 1))
        BAD(line_of(ps, "clients", "task_steps"),
            "[clients] requests_per_client (%u) must be a multiple of task_steps (%u)", c->requests_per_client,
            c->task_steps);
    if (c->spike_rate_per_s > 0 && !(c->spike_end_s > c->spike_start_s))
        BAD(line_of(ps, "clients", "spike_end_s"), "[clients] spike_end_s must be after spike_start_s");
    if (c->start == SCN_START_POISSON && !(c->rate_per_s > 0))
        BAD(line_of(ps, "clients", "start"), "[clients] start = poisson needs rate_per_s > 0");
    double total = 0;
    for (uint32_t i = 0; i < c->nerrors; i++)
        total += c->errors[i].p;
    if (total > 1 + 1e-12)
        BAD(0, "[server] the error_rate_* probabilities sum to %g; expected at most 1", total);
    for (uint32_t i = 0; i < c->noutages; i++) {
        const scn_outage *o = &c->outages[i];
        if (isnan(o->start_s) || isnan(o->end_s))
            BAD(o->line, "[outage %s]: missing required key %s", o->name, isnan(o->start_s) ? "start_s" : "end_s");
        if (!(o->end_s > o->start_s))
            BAD(o->line, "[outage %s]: end_s (%g) must be after start_s (%g)", o->name, o->end_s, o->start_s);
        for (uint32_t t = 0; t < (c->ntools ? c->ntools : 1); t++) {
            hp_policy p = scn_tool_policy(c, t, HP_EXPONENTIAL);
            if (o->mode == SCN_OUTAGE_BLACK_HOLE && !(p.attempt_timeout_s > 0) && !(p.budget_s > 0))
                BAD(o->line,
                    "[outage %s]: a black_hole outage never answers, so clients would wait forever; "
                    "set [retry] attempt_timeout_s > 0 (or budget_s)%s%s",
                    o->name, c->ntools ? " for tool " : "", c->ntools ? c->tools[t].name : "");
        }
        for (uint32_t j = 0; j < i; j++) {
            const scn_outage *q = &c->outages[j];
            if (o->start_s < q->end_s && q->start_s < o->end_s)
                BAD(o->line, "[outage %s] [%g, %g) overlaps [outage %s] [%g, %g); expected disjoint outages",
                    o->name, o->start_s, o->end_s, q->name, q->start_s, q->end_s);
        }
    }
    if ((double)c->clients * c->requests_per_client > 4e9)
        BAD(line_of(ps, "clients", "requests_per_client"),
            "clients x requests_per_client exceeds 4e9 logical requests");
    double need = scn_memory_estimate(c);
    double have = scn_memory_limit();
    if (need > have)
        BAD(line_of(ps, "clients", "count"),
            "this scenario needs about %.1f GiB of memory per simulation (clients x requests_per_client); "
            "at most %.1f GiB (80%% of this machine's memory) can be used",
            need / (1024.0 * 1024 * 1024), have / (1024.0 * 1024 * 1024));
    return 0;
#undef BAD
}

int scn_validate(const scn_config *c, const char *path, char err[SCN_ERR_MAX])
{
    pstate *ps = calloc(1, sizeof *ps);
    if (!ps) {
        snprintf(err, SCN_ERR_MAX, "%s: out of memory", path);
        return -1;
    }
    ps->path = path;
    int rc = validate(c, ps, err);
    free(ps);
    return rc;
}

uint32_t scn_strategies(const scn_config *c, hp_strategy out[HP_STRATEGY_COUNT])
{
    if (c->nstrategies == 0) {
        out[0] = c->policy.strategy;
        return 1;
    }
    memcpy(out, c->strategies, sizeof out[0] * c->nstrategies);
    return c->nstrategies;
}

void scn_print_reference(FILE *f)
{
    const char *cur = "";
    fprintf(f, "Durations are seconds. A distribution is a number V "
               "(constant), constant(V), uniform(LO, HI), exponential(MEAN), normal(MEAN, SD) "
               "(truncated at 0), abs_normal(MEAN, SD) or lognormal(MEAN, SD).\n");
    for (size_t i = 0; i < NKEYS; i++) {
        const key *k = &keys[i];
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
            range_text(k, type, sizeof type);
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
            snprintf(type, sizeof type, "one of read, reversible, irreversible, destructive");
            break;
        case K_COLUMNS:
            snprintf(type, sizeof type, "list of metrics");
            break;
        case K_CLASSES:
            snprintf(type, sizeof type, "list of classes");
            break;
        }
        fprintf(f, "| `%s` | %s | %s | %s | %s |\n", k->name, type, *k->unit ? k->unit : "-", k->def, k->doc);
        if (!strcmp(k->section, "server") && !strcmp(k->name, "service_time_s"))
            fprintf(f, "| `error_rate_NNN` | a number in [0, 1] | - | 0 | Probability that an arriving attempt "
                       "is answered at once with status NNN (or `error_rate_connection_refused`, "
                       "`error_rate_connection_reset`). Any number of these; they sum to at most 1. |\n");
    }
    fprintf(f, "\n### [sweep NAME]\n\n| key | type | meaning |\n|---|---|---|\n"
               "| `key` | section.key | The key to vary (any key above, e.g. `clients.count`). |\n"
               "| `values` | FROM:TO:STEP or a, b, c | Its values (TO included; a list may hold distributions). |\n"
               "\nSeveral sweeps make a grid, the first outermost; at most 10,000 points.\n");
    fprintf(f, "\n### [variant NAME]\n\nAny number of `section.key = value` lines (e.g. `idempotency.keys = "
               "logical_op`), applied on top of the scenario. Every variant (at most 8) runs on the same seeds and "
               "appears as its own rows, with a `variant` column, in every CSV and figure; variants combine with "
               "strategies and sweeps.\n");
}

/* ---- sweeps -------------------------------------------------------- */

/* Splits a sweep's values into out[0..max).  Returns the count or -1 with
 * msg set. */
static long sweep_values(const scn_sweep *s, char (*out)[SCN_VALUE_MAX], long max, const char **msg)
{
    const char *v = s->values;
    double from, to, step;
    char tail;
    if (sscanf_free_range(v, &from, &to, &step, &tail) == 0) {
        if (!(step > 0) || to < from) {
            *msg = "FROM:TO:STEP needs STEP > 0 and FROM <= TO";
            return -1;
        }
        double count = floor((to - from) / step + 1e-9) + 1;
        if (count > (double)max) {
            *msg = "too many sweep values (at most 10000 points in all)";
            return -1;
        }
        for (long i = 0; i < (long)count; i++)
            snprintf(out[i], SCN_VALUE_MAX, "%.10g", from + (double)i * step);
        return (long)count;
    }
    long n = 0;
    int depth = 0;
    const char *start = v;
    for (const char *p = v;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if ((*p == ',' && depth == 0) || *p == '\0') {
            const char *a = start, *b = p;
            while (a < b && (*a == ' ' || *a == '\t'))
                a++;
            while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
                b--;
            if (a == b) {
                *msg = "expected FROM:TO:STEP or a comma-separated list of values, got an empty value";
                return -1;
            }
            if (b - a >= SCN_VALUE_MAX) {
                *msg = "a sweep value is longer than 63 characters";
                return -1;
            }
            if (n == max) {
                *msg = "too many sweep values (at most 10000 points in all)";
                return -1;
            }
            memcpy(out[n], a, (size_t)(b - a));
            out[n][b - a] = '\0';
            n++;
            start = p + 1;
        }
        if (!*p)
            break;
    }
    return n;
}

long scn_expand(const scn_config *c, const char *path, scn_point **points, char err[SCN_ERR_MAX])
{
    enum { MAXPTS = 10000 };
    char (*vals)[SCN_VALUE_MAX] = NULL;
    long nv[SCN_MAX_SWEEPS], off[SCN_MAX_SWEEPS], total = 1, used = 0;
    scn_point *pts = NULL;
    *points = NULL;
    vals = herd_malloc_array(MAXPTS, sizeof *vals);
    if (!vals)
        goto oom;
    for (uint32_t i = 0; i < c->nsweeps; i++) {
        const scn_sweep *s = &c->sweeps[i];
        const char *msg = NULL;
        if (!*s->key || !*s->values) {
            snprintf(err, SCN_ERR_MAX, "%s:%d: [sweep%s%s]: missing required key %s", path, s->line,
                     *s->name ? " " : "", s->name, *s->key ? "values" : "key");
            goto fail;
        }
        off[i] = used;
        nv[i] = sweep_values(s, vals + used, MAXPTS - used, &msg);
        if (nv[i] < 0) {
            snprintf(err, SCN_ERR_MAX, "%s:%d: [sweep%s%s] values: %s", path, s->line, *s->name ? " " : "",
                     s->name, msg);
            goto fail;
        }
        used += nv[i];
        total *= nv[i];
        if (total > MAXPTS) {
            snprintf(err, SCN_ERR_MAX, "%s:%d: [sweep%s%s]: the sweeps make more than 10000 points", path, s->line,
                     *s->name ? " " : "", s->name);
            goto fail;
        }
    }
    long nvar = c->nvariants ? (long)c->nvariants : 1;
    if (total * nvar > MAXPTS) {
        snprintf(err, SCN_ERR_MAX, "%s: the variants and sweeps make more than 10000 points", path);
        goto fail;
    }
    pts = herd_calloc((size_t)(total * nvar), sizeof *pts);
    if (!pts)
        goto oom;
    for (long p = 0; p < total * nvar; p++) {
        scn_point *pt = &pts[p];
        pt->cfg = *c;
        if (c->nvariants) {
            /* variants outermost: apply the variant's overrides first */
            const scn_variant *v = &c->variants[p / total];
            pt->variant = pt->cfg.variants[p / total].name;
            char origin[SCN_ERR_MAX / 2], e[SCN_ERR_MAX], line[SCN_VARIANT_SETS_MAX];
            snprintf(origin, sizeof origin, "%s:%d: [variant %s]", path, v->line, v->name);
            for (const char *s = v->sets; *s;) {
                size_t n = strcspn(s, "\n");
                memcpy(line, s, n);
                line[n] = '\0';
                s += n + (s[n] == '\n');
                if (strncmp(line, "variant", 7) == 0 || strncmp(line, "sweep", 5) == 0) {
                    snprintf(err, SCN_ERR_MAX, "%s: a variant cannot change variants or sweeps", origin);
                    goto fail;
                }
                if (scn_set(&pt->cfg, line, origin, e) != 0) {
                    snprintf(err, SCN_ERR_MAX, "%s", e);
                    goto fail;
                }
            }
        }
        long rest = p % total;
        for (int i = (int)c->nsweeps - 1; i >= 0; i--) {
            long k = rest % nv[i];
            rest /= nv[i];
            snprintf(pt->value[i], SCN_VALUE_MAX, "%s", vals[off[i] + k]);
        }
        for (uint32_t i = 0; i < c->nsweeps; i++) {
            const scn_sweep *s = &c->sweeps[i];
            char assign[SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2], origin[SCN_ERR_MAX / 2], e[SCN_ERR_MAX];
            snprintf(assign, sizeof assign, "%s=%s", s->key, pt->value[i]);
            if (s->line > 0)
                snprintf(origin, sizeof origin, "%s:%d: [sweep%s%s]", path, s->line, *s->name ? " " : "", s->name);
            else
                snprintf(origin, sizeof origin, "--sweep");
            if (strncmp(s->key, "sweep", 5) == 0 && (s->key[5] == ' ' || s->key[5] == '.')) {
                snprintf(err, SCN_ERR_MAX, "%s: a sweep cannot sweep another sweep", origin);
                goto fail;
            }
            if (scn_set(&pt->cfg, assign, origin, e) != 0) {
                snprintf(err, SCN_ERR_MAX, "%s", e);
                goto fail;
            }
        }
        char where[SCN_ERR_MAX / 2];
        if (pt->variant)
            snprintf(where, sizeof where, "%s:%d: [variant %s]%s", path, c->variants[p / total].line, pt->variant,
                     c->nsweeps ? " at sweep point" : "");
        else if (c->nsweeps && c->sweeps[0].line > 0)
            snprintf(where, sizeof where, "%s:%d: sweep point", path, c->sweeps[0].line);
        else
            snprintf(where, sizeof where, "%s: sweep point", path);
        size_t u = strlen(where);
        for (uint32_t i = 0; i < c->nsweeps && u < sizeof where; i++)
            u += (size_t)snprintf(where + u, sizeof where - u, " %s=%s", c->sweeps[i].key, pt->value[i]);
        if ((c->nsweeps || c->nvariants) && scn_validate(&pt->cfg, where, err) != 0)
            goto fail;
    }
    herd_free(vals);
    *points = pts;
    return total * nvar;
oom:
    snprintf(err, SCN_ERR_MAX, "%s: out of memory expanding the sweeps", path);
fail:
    herd_free(vals);
    herd_free(pts);
    return -1;
}
