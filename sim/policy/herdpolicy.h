/*
 * herdpolicy.h - herd's retry-policy library (libherdpolicy.a).
 *
 * Pure decisions about retries: which failures are worth retrying and how
 * long to sleep before the next attempt.  The library owns no clock and no
 * random generator: the caller passes the current time and uniform random
 * numbers u in [0, 1).  It depends on nothing but the C standard library
 * (and libm), so a real program can link it as well as the simulator.
 *
 * Conventions
 *   - Times and durations are seconds, as double.
 *   - A zero-initialised hp_policy is valid and means "defaults"
 *     (see hp_policy_defaults()); call hp_policy_defaults() to get them
 *     written out explicitly.
 *   - Retries are counted from 0: retry n is the (n+2)-th attempt.
 *     The capped exponential ceiling before retry n is
 *     min(cap, base * 2^n), computed with saturating arithmetic: any n,
 *     including 10,000 or UINT32_MAX, yields a finite value in [0, cap].
 *
 * Strategies (AWS Architecture Blog, "Exponential Backoff and Jitter", 2015)
 *   HP_IMMEDIATE            sleep = 0
 *   HP_CONSTANT             sleep = min(cap, base)
 *   HP_EXPONENTIAL          sleep = ceiling_n
 *   HP_FULL_JITTER          sleep = u * ceiling_n                     in [0, ceiling_n)
 *   HP_EQUAL_JITTER         sleep = ceiling_n/2 + u * ceiling_n/2     in [ceiling_n/2, ceiling_n)
 *   HP_DECORRELATED_JITTER  sleep = min(cap, base + u * (3*prev - base)), prev starts at base
 *                                                                      in [base, min(cap, 3*prev)]
 *   HP_RANDOM               sleep = min(cap, a draw of the policy's delay distribution,
 *                           by inversion of u): exponential(mean) -mean*ln(1-u), the
 *                           memoryless retrial time of queueing theory; uniform(lo, hi);
 *                           constant(v).  Independent of n.
 */
#ifndef HERDPOLICY_H
#define HERDPOLICY_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HP_VERSION "0.1.0"

typedef enum hp_strategy {
    HP_IMMEDIATE = 0,
    HP_CONSTANT,
    HP_EXPONENTIAL,
    HP_FULL_JITTER,
    HP_EQUAL_JITTER,
    HP_DECORRELATED_JITTER,
    HP_RANDOM,
    HP_STRATEGY_COUNT
} hp_strategy;

/* Canonical names: "immediate", "constant", "exponential", "full_jitter",
 * "equal_jitter", "decorrelated_jitter", "random".  Returns NULL for an
 * out-of-range value. */
const char *hp_strategy_name(hp_strategy s);

/* Parses a canonical name (exact, case-sensitive).  Returns 0 and sets *out,
 * or -1 if the name is unknown (*out untouched). */
int hp_strategy_parse(const char *name, hp_strategy *out);

/* Outcome of one attempt, as the caller observed it.  Positive values are
 * HTTP status codes (100..599); the negative values are transport-level
 * errors that carry no status. */
enum {
    HP_OUTCOME_TIMEOUT = -1,      /* no reply within the attempt timeout */
    HP_OUTCOME_CONN_REFUSED = -2, /* connection refused: request not sent */
    HP_OUTCOME_CONN_RESET = -3,   /* connection reset mid-request */
    HP_OUTCOME_UNKNOWN = -4       /* any other error (exception, ...) */
};

/* Failure classes. */
typedef enum hp_class {
    HP_CLASS_OK = 0,          /* 2xx */
    HP_CLASS_RATE_LIMITED,    /* 429 */
    HP_CLASS_SERVER,          /* 500, 502, 503, 504: transient server errors */
    HP_CLASS_NOT_IMPLEMENTED, /* 501: deterministic */
    HP_CLASS_BAD_REQUEST,     /* 400, 422 */
    HP_CLASS_AUTH,            /* 401, 402, 403 */
    HP_CLASS_NOT_FOUND,       /* 404 */
    HP_CLASS_TIMEOUT,         /* HP_OUTCOME_TIMEOUT: outcome unknown */
    HP_CLASS_CONNECTION,      /* refused / reset: transient network */
    HP_CLASS_UNKNOWN,         /* anything else: the policy decides */
    HP_CLASS_CONFLICT,        /* 409: optimistic-concurrency conflict; re-read and retry */
    HP_CLASS_COUNT
} hp_class;

/* Snake-case class name ("ok", "rate_limited", ...); NULL if out of range. */
const char *hp_class_name(hp_class c);

/* Maps an outcome (status code or HP_OUTCOME_*) to its class.  Total:
 * every int maps to some class (unlisted codes to HP_CLASS_UNKNOWN). */
hp_class hp_classify(int outcome);

/* What to do with errors the classification does not know. */
typedef enum hp_unknown_policy {
    HP_UNKNOWN_RETRY = 0, /* default: treat as transient (seed 000) */
    HP_UNKNOWN_FAIL       /* allow-list thinking: do not retry (seed 002) */
} hp_unknown_policy;

/* Whether a timed-out attempt (outcome unknown: the server may have done
 * the work) is retried. */
typedef enum hp_timeout_policy {
    HP_TIMEOUT_IF_IDEMPOTENT = 0, /* default, the safe policy: only if the operation is
                                   * idempotent or carries an idempotency key */
    HP_TIMEOUT_ALWAYS,            /* the naive framework default: whatever the side effect */
    HP_TIMEOUT_NEVER              /* never: every timeout ends as an unknown outcome */
} hp_timeout_policy;

/* The delay distribution of HP_RANDOM. */
typedef enum hp_delay_kind {
    HP_DELAY_EXPONENTIAL = 0, /* default: mean delay_a (0: base_s) */
    HP_DELAY_UNIFORM,         /* on [delay_a, delay_b) */
    HP_DELAY_CONSTANT         /* delay_a */
} hp_delay_kind;

typedef struct hp_policy {
    hp_strategy strategy;      /* default HP_IMMEDIATE (0) */
    double base_s;             /* > 0; 0 means default 0.1 s */
    double cap_s;              /* >= base_s; 0 means default 20 s */
    uint32_t max_attempts;     /* total attempts incl. the first; 0 = unlimited */
    hp_unknown_policy unknown; /* default HP_UNKNOWN_RETRY */
    bool non_idempotent;       /* default false: the operation is idempotent */
    uint32_t exponent_offset;  /* retry n uses ceiling n + offset; default 0.  The AWS
                                * 2015 simulation counts its first retry as 1. */
    double attempt_timeout_s;  /* per-attempt timeout; 0 = none */
    double budget_s;           /* total time for the logical call, from hp_state_start; 0 = none */
    hp_timeout_policy on_timeout; /* default HP_TIMEOUT_IF_IDEMPOTENT */
    bool idempotency_key;      /* the caller sends a key scoped to the logical operation
                                * (generated once, reused by every retry): the operation
                                * counts as idempotent */
    bool ignore_retry_after;   /* default false: honour Retry-After */
    double retry_after_max_s;  /* longest Retry-After honoured (longer ones are clamped to
                                * it); 0 means default HP_DEFAULT_RETRY_AFTER_MAX_S */
    bool not_found_ok_on_retry; /* destructive operations (delete): a 404 on an attempt
                                 * after the first means an earlier attempt did it: success */
    uint32_t retry_only;       /* 0: every retryable class; else a mask of (1u << hp_class):
                                * only those classes are retried (it never adds a class
                                * hp_classify's table refuses) */
    hp_delay_kind delay_kind;  /* HP_RANDOM: the distribution of the sleep */
    double delay_a, delay_b;   /* its parameters (see hp_delay_kind), seconds */
} hp_policy;

#define HP_DEFAULT_BASE_S 0.1
#define HP_DEFAULT_CAP_S 20.0
#define HP_DEFAULT_RETRY_AFTER_MAX_S 120.0

/* Returns a policy with every default written out. */
hp_policy hp_policy_defaults(void);

/* Returns NULL if the policy is usable (after zero-means-default), else a
 * static string saying what is wrong (e.g. "cap_s is below base_s"). */
const char *hp_policy_check(const hp_policy *p);

/* True if the policy retries a failure of this class at all (ignores
 * attempt counts): the classification's table, the unknown-error policy,
 * then retry_only.  HP_CLASS_OK is never retryable. */
bool hp_retryable(const hp_policy *p, hp_class c);

/* Per logical request retry state; compact (24 bytes).  Initialise with
 * hp_state_start() (or hp_state_init() when there is no budget) at the start
 * of every logical request. */
typedef struct hp_state {
    double prev_sleep_s; /* decorrelated jitter's memory; starts at base */
    double deadline_s;   /* start + budget_s; +infinity without a budget */
    uint32_t attempts;   /* attempts made so far (sent), incl. the first */
    uint32_t retries;    /* retries scheduled so far */
} hp_state;

/* Fresh state with no deadline. */
void hp_state_init(hp_state *st, const hp_policy *p);

/* Fresh state for a logical call starting at now_s: the deadline is
 * now_s + budget_s (none if budget_s is 0). */
void hp_state_start(hp_state *st, const hp_policy *p, double now_s);

/* The timeout for an attempt sent at now_s: min(attempt_timeout_s,
 * deadline - now_s), +infinity if neither is set, 0 if the budget is
 * already spent (then do not send). */
double hp_attempt_timeout(const hp_policy *p, const hp_state *st, double now_s);

/* min(cap, base * 2^n) with saturation: finite, in [0, cap], for all n. */
double hp_ceiling(const hp_policy *p, uint32_t n);

/* Sleep before retry number n (0-based) for the policy's strategy, given a
 * uniform u in [0, 1) (values outside are clamped).  Updates
 * st->prev_sleep_s for decorrelated jitter; uses st only for that.
 * Always finite and in [0, cap]. */
double hp_backoff(const hp_policy *p, hp_state *st, uint32_t n, double u);

typedef enum hp_action {
    HP_DONE_OK = 0,   /* success: the logical request is finished */
    HP_RETRY,         /* sleep delay_s, then send the next attempt */
    HP_GIVE_UP        /* stop; see reason */
} hp_action;

typedef enum hp_reason {
    HP_REASON_NONE = 0,          /* with HP_DONE_OK / HP_RETRY */
    HP_REASON_ATTEMPTS,          /* max_attempts reached */
    HP_REASON_NON_RETRYABLE,     /* the class is not retryable */
    HP_REASON_UNKNOWN_OUTCOME,   /* timeout that may not be retried (on_timeout NEVER, or
                                  * non-idempotent without a key) */
    HP_REASON_BUDGET,            /* the next attempt would start past the deadline */
    HP_REASON_RETRY_LIMITED,     /* a retry limiter (hp_limiter) refused the retry: never
                                  * returned by hp_decide, for callers to report */
    HP_REASON_COUNT
} hp_reason;

const char *hp_reason_name(hp_reason r);

typedef struct hp_decision {
    hp_action action;
    hp_reason reason;
    hp_class cls;
    double delay_s;        /* with HP_RETRY: the sleep before the next attempt */
    bool retry_after_used; /* with HP_RETRY: the sleep is the server's Retry-After
                            * (longer than the policy's own backoff) */
} hp_decision;

/* An attempt's outcome with what the reply said about retrying. */
typedef struct hp_result {
    int outcome;          /* status code or HP_OUTCOME_* */
    double retry_after_s; /* Retry-After as a delay from now (see hp_parse_retry_after);
                           * negative: none given */
} hp_result;

/* Call once per attempt, when it is sent. Increments st->attempts. */
void hp_on_attempt(hp_state *st);

/* Decides what follows an attempt's outcome at time now_s (seconds, on the
 * clock given to hp_state_start; compared with the deadline).  u is a
 * uniform in [0, 1) used only if a jittered sleep is drawn.  Same as
 * hp_decide_result() with no Retry-After: on HP_RETRY, the sleep is
 * hp_backoff(p, st, st->retries + p->exponent_offset (saturating), u); then
 * st->retries is incremented and the decorrelated memory updated. */
hp_decision hp_decide(const hp_policy *p, hp_state *st, int outcome,
                      double now_s, double u);

/* hp_decide with a Retry-After.  In order: 2xx is done; a 404 after the
 * first attempt is done when not_found_ok_on_retry; a timeout is given up
 * as HP_REASON_UNKNOWN_OUTCOME unless on_timeout allows it (ALWAYS, or
 * IF_IDEMPOTENT with an idempotent operation or a key); a class that is not
 * retryable gives up; so does an exhausted max_attempts.  Otherwise the
 * sleep is the backoff, or the Retry-After when it is honoured and longer
 * (clamped to retry_after_max_s); if now_s + sleep reaches the deadline the
 * call gives up now (HP_REASON_BUDGET) instead of sleeping. */
hp_decision hp_decide_result(const hp_policy *p, hp_state *st, hp_result r,
                             double now_s, double u);

/* Parses an HTTP Retry-After field value (RFC 9110 section 10.2.3):
 * delta-seconds (1*DIGIT) or an HTTP-date in any of its three formats
 * (IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", obsolete RFC 850
 * "Sunday, 06-Nov-94 08:49:37 GMT", asctime "Sun Nov  6 08:49:37 1994"),
 * with optional surrounding whitespace.  now_epoch_s is the current time in
 * seconds since 1970-01-01 UTC.  On success returns 0 and sets *delay_s to
 * the delay from now: a date in the past gives 0; anything longer than
 * max_s (huge numbers such as 9999999999 included, without overflow) gives
 * max_s.  Returns -1 for anything else (empty, signs, fractions, bad dates,
 * trailing junk), *delay_s untouched; also when now_epoch_s is not finite or
 * max_s is not finite and > 0.  Day names are not checked against the date;
 * rfc850's 2-digit year is the latest one at most 50 years after now's. */
int hp_parse_retry_after(const char *value, double now_epoch_s, double max_s,
                         double *delay_s);

/* Side-effect levels and their preset policies. */
typedef enum hp_side_effect {
    HP_EFFECT_READ = 0,     /* none: search_web, get_profile */
    HP_EFFECT_REVERSIBLE,   /* create_ticket, upsert */
    HP_EFFECT_IRREVERSIBLE, /* send_email, pay */
    HP_EFFECT_DESTRUCTIVE,  /* delete_record, overwrite */
    HP_EFFECT_COUNT
} hp_side_effect;

/* "read", "reversible", "irreversible", "destructive"; NULL if out of range. */
const char *hp_effect_name(hp_side_effect e);
/* 0 and *out, or -1 for an unknown name. */
int hp_effect_parse(const char *name, hp_side_effect *out);

/* The preset for a side-effect level (full jitter; everything else at its
 * default):
 *   read          5 attempts, base 0.5 s, cap 8 s, idempotent
 *   reversible    3 attempts, base 1 s, cap 10 s, non-idempotent (a key makes
 *                 timeouts retryable)
 *   irreversible  1 attempt, non-idempotent
 *   destructive   2 attempts, base 1 s, cap 5 s, idempotent, a 404 on retry
 *                 is success
 * An out-of-range level gets the irreversible preset. */
hp_policy hp_policy_preset(hp_side_effect e);

/* ===================================================================== *
 * Retry limiters, circuit breaker, adaptive throttling, hedged requests
 * (AWS SDK retry quota, gRPC retry throttling, Envoy and Finagle retry
 * budgets, Google SRE client-side throttling).
 *
 * Pure state machines driven by explicit time.  Each has an options struct
 * (zero-initialised = the documented defaults; the defaults ARE the presets,
 * written out by the *_defaults() functions), a state struct that the caller
 * allocates and initialises with its *_init() function, and small
 * operations.  Nothing allocates; every state is a fixed size.
 *
 * Time
 *   - now_s is seconds on whatever clock the caller uses (simulated time,
 *     CLOCK_MONOTONIC), the same clock for every call on one state.
 *   - Clamped, never rejected: every state keeps the latest time it has
 *     seen, and a now_s below it (time going backwards), NaN or infinite
 *     acts as that latest time (see hp_time_clamp).  *_init() with a
 *     non-finite now_s starts the clock at 0.
 *   - Sliding windows are HP_WINDOW_BUCKETS fixed sub-buckets (hp_window):
 *     an event counts from its time t until the end of the window measured
 *     from the start of its sub-bucket, i.e. for at least
 *     window * (1 - 1/HP_WINDOW_BUCKETS) and at most window after t.
 *   - Huge finite times are fine: a jump of a whole window or more empties
 *     the window in O(HP_WINDOW_BUCKETS).  Past about 2^52 sub-bucket
 *     widths a double cannot tell sub-buckets apart: events at exactly the
 *     same time still add up, any later time starts an empty window.  In
 *     the same way a duration below the spacing of doubles near now_s
 *     vanishes (at now_s = 1e300 a breaker's open period ends at once).
 *
 * Zero as a setting
 *   Some fields have a default other than zero although zero is a sensible
 *   setting (no reserve, no minimum, hedge at once).  Those take HP_OFF to
 *   mean zero; the *_check() functions accept exactly HP_OFF and reject
 *   other negative values, and the state machines read any negative value
 *   as zero.  HP_OFF survives *_defaults() and *_init(), so a state's
 *   resolved options can be passed to *_init() again unchanged.
 */

#define HP_OFF (-1)

/* Returns the time an operation acts at: now_s if it is finite and not
 * below latest_s, else latest_s. */
double hp_time_clamp(double latest_s, double now_s);

/* ---- Sliding-window counters ----------------------------------------- */

#define HP_WINDOW_BUCKETS 10

/* Two event counters (a, b) over a sliding window of HP_WINDOW_BUCKETS
 * sub-buckets of width_s each; the head sub-bucket covers
 * [head_start_s, head_start_s + width_s).  Running sums keep every
 * operation O(HP_WINDOW_BUCKETS) at worst (O(1) amortised for adds);
 * sub-bucket counters saturate at UINT32_MAX. */
typedef struct hp_window {
    double width_s;      /* window / HP_WINDOW_BUCKETS */
    double head_start_s; /* start of the newest sub-bucket */
    uint32_t head;       /* its index */
    uint32_t a[HP_WINDOW_BUCKETS];
    uint32_t b[HP_WINDOW_BUCKETS];
    uint64_t sum_a, sum_b; /* over all sub-buckets */
} hp_window;

/* Empty window of length window_s (positive and finite; anything else is
 * taken as 1 s) whose first sub-bucket starts at now_s (0 if not finite). */
void hp_window_init(hp_window *w, double window_s, double now_s);

/* Adds (a, b) events at now_s, first dropping the sub-buckets that have
 * left the window.  A now_s before the head sub-bucket, or not finite,
 * counts in the head sub-bucket.  O(1) amortised, O(HP_WINDOW_BUCKETS)
 * at worst. */
void hp_window_add(hp_window *w, double now_s, uint32_t a, uint32_t b);

/* The sums of a and b over the window as it stands at now_s (same
 * clamping as hp_window_add); does not modify the window, so it costs one
 * step per expired sub-bucket.  Either output pointer may be NULL. */
void hp_window_sums(const hp_window *w, double now_s, uint64_t *a,
                    uint64_t *b);

/* ---- Retry limiters ---------------------------------------------------
 *
 * One interface over four published ways to bound retries per client:
 *
 *   HP_LIMITER_NONE       every retry allowed (the default).
 *   HP_LIMITER_AWS_QUOTA  AWS SDK "standard" retry quota: a bucket of
 *       aws_capacity tokens, full at start.  A retry costs aws_retry_cost,
 *       aws_timeout_cost after a timeout, and is refused when fewer tokens
 *       are left than it costs.  A success gives back the cost of the retry
 *       that produced it, or aws_success_increment if it needed no retry;
 *       the balance never exceeds aws_capacity.
 *   HP_LIMITER_GRPC       gRPC retry throttling (gRFC A6): tokens start at
 *       grpc_max_tokens; each failed attempt takes 1 (floor 0), each
 *       successful one adds grpc_token_ratio (cap grpc_max_tokens); retries
 *       are allowed only while tokens > grpc_max_tokens / 2.  Tokens are
 *       kept in thousandths, as gRPC core does: exact arithmetic, the ratio
 *       rounded to the nearest 0.001 (the service config allows no more
 *       than 3 decimals).  Retries themselves cost nothing.
 *   HP_LIMITER_ENVOY      Envoy retry budget: a retry is allowed while
 *       active_retries < max(envoy_min_retry_concurrency,
 *       (uint64_t)(envoy_budget_percent / 100.0 * active_requests)),
 *       Envoy's own expression.  Envoy's base is active plus pending
 *       requests: the caller counts queued requests as active too.
 *   HP_LIMITER_FINAGLE    Finagle RetryBudget: over a sliding window of
 *       finagle_ttl_s (hp_window), a retry is allowed while
 *       requests * percent + min_retries_per_s * ttl - retries >= 1.
 *       Computed with Finagle's integer tokens: a request deposits 1000, a
 *       retry withdraws W = floor(1000 / percent) (1 if percent is 0), the
 *       reserve is floor(min_retries_per_s * ttl * W); a retry is allowed
 *       while reserve + deposits - withdrawals >= W.  Exact when 1000 /
 *       percent is an integer (0.1, 0.2, 0.25, 0.5, 1, 2, ...); otherwise
 *       the effective percent is 1000 / W, slightly above.  Withdrawals
 *       leave the window like deposits.  Finagle also uses 10 sub-buckets.
 *
 * What the caller reports (each operation is a no-op for kinds it does not
 * concern, apart from advancing the clock):
 *   on_request_start(is_retry)  every attempt sent: Envoy counts it active;
 *                               Finagle deposits for first attempts only.
 *   on_request_end              that attempt finished (Envoy).
 *   try_retry                   before each retry: true = go ahead (the
 *                               quota, Envoy slot or Finagle withdrawal is
 *                               taken), false = give up.
 *   on_retry_end                the retry taken by try_retry is over
 *                               (Envoy: it releases the slot when the
 *                               backed-off retry is sent; a model may hold
 *                               it until the retry's reply instead).
 *   on_success(retry_cost)      an attempt succeeded; retry_cost is what
 *                               try_retry charged for it (0 for a first
 *                               attempt) (AWS, gRPC).
 *   on_failure                  an attempt failed in a retryable way (gRPC).
 */

typedef enum hp_limiter_kind {
    HP_LIMITER_NONE = 0,
    HP_LIMITER_AWS_QUOTA,
    HP_LIMITER_GRPC,
    HP_LIMITER_ENVOY,
    HP_LIMITER_FINAGLE,
    HP_LIMITER_KIND_COUNT
} hp_limiter_kind;

/* "none", "aws_quota", "grpc", "envoy", "finagle"; NULL if out of range. */
const char *hp_limiter_kind_name(hp_limiter_kind k);
/* 0 and *out, or -1 for an unknown name (*out untouched). */
int hp_limiter_kind_parse(const char *name, hp_limiter_kind *out);

typedef struct hp_limiter_opts {
    hp_limiter_kind kind;           /* default HP_LIMITER_NONE */
    /* HP_LIMITER_AWS_QUOTA */
    uint32_t aws_capacity;          /* tokens, also the initial balance; 0 = 500 */
    uint32_t aws_retry_cost;        /* <= capacity; 0 = 5 */
    uint32_t aws_timeout_cost;      /* a retry after a timeout; <= capacity; 0 = 10 */
    uint32_t aws_success_increment; /* a success that needed no retry; 0 = 1 */
    /* HP_LIMITER_GRPC */
    uint32_t grpc_max_tokens;       /* 1..1000; 0 = 10 */
    double grpc_token_ratio;        /* >= 0.0005 (rounds to >= 1/1000); 0 = 0.1;
                                     * above grpc_max_tokens acts as it */
    /* HP_LIMITER_ENVOY */
    double envoy_budget_percent;    /* percent, 0..100; 0 = 20; HP_OFF = 0 */
    int32_t envoy_min_retry_concurrency; /* 0 = 3; HP_OFF = 0 */
    /* HP_LIMITER_FINAGLE */
    double finagle_ttl_s;           /* > 0; 0 = 10 */
    double finagle_min_retries_per_s; /* 0 = 10; HP_OFF = 0 */
    double finagle_percent_can_retry; /* a fraction (0.2 = 20%), 0..1000; 0 = 0.2;
                                       * HP_OFF = 0 */
} hp_limiter_opts;

#define HP_DEFAULT_AWS_CAPACITY 500u
#define HP_DEFAULT_AWS_RETRY_COST 5u
#define HP_DEFAULT_AWS_TIMEOUT_COST 10u
#define HP_DEFAULT_AWS_SUCCESS_INCREMENT 1u
#define HP_DEFAULT_GRPC_MAX_TOKENS 10u
#define HP_DEFAULT_GRPC_TOKEN_RATIO 0.1
#define HP_DEFAULT_ENVOY_BUDGET_PERCENT 20.0
#define HP_DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY 3
#define HP_DEFAULT_FINAGLE_TTL_S 10.0
#define HP_DEFAULT_FINAGLE_MIN_RETRIES_PER_S 10.0
#define HP_DEFAULT_FINAGLE_PERCENT_CAN_RETRY 0.2

/* Initialise with hp_limiter_init(); the fields are readable (tests,
 * metrics) but change them only through the functions. */
typedef struct hp_limiter {
    hp_limiter_opts opts;      /* every default written out (HP_OFF kept) */
    double now_s;              /* latest time seen */
    uint32_t aws_tokens;
    uint32_t grpc_milli_tokens;
    uint32_t active_requests;  /* Envoy: attempts in flight (saturating, floor 0) */
    uint32_t active_retries;   /* Envoy: retries taken and not ended */
    hp_window window;          /* Finagle: a = first attempts, b = retries */
} hp_limiter;

/* The options for kind with every default written out (kind out of range:
 * HP_LIMITER_NONE). */
hp_limiter_opts hp_limiter_defaults(hp_limiter_kind kind);

/* NULL if the options are usable (after zero-means-default), else a static
 * string saying what is wrong.  Checks every field, whatever the kind. */
const char *hp_limiter_check(const hp_limiter_opts *o);

/* A full limiter at now_s.  opts NULL means all defaults (kind NONE).
 * Options hp_limiter_check() rejects still give a usable limiter: NaN and
 * infinite values take their defaults, and so do negative ones except in
 * HP_OFF fields, where they read as zero; grpc_max_tokens and
 * finagle_percent_can_retry act as at most 1000; a kind out of range acts
 * as NONE; AWS costs above the capacity are kept (such retries never
 * pass). */
void hp_limiter_init(hp_limiter *l, const hp_limiter_opts *opts, double now_s);

/* An attempt is sent: Envoy counts it active; Finagle deposits when
 * is_retry is false. */
void hp_limiter_on_request_start(hp_limiter *l, double now_s, bool is_retry);

/* An attempt finished, whatever its outcome (Envoy). */
void hp_limiter_on_request_end(hp_limiter *l, double now_s);

/* May a retry be sent now?  If so, takes what it costs (AWS tokens, an
 * Envoy slot, a Finagle withdrawal) and returns true; *cost_out (may be
 * NULL) is then the AWS cost charged (aws_timeout_cost if after_timeout,
 * else aws_retry_cost) and 0 for other kinds.  If not, changes nothing,
 * sets *cost_out to 0 and returns false.  HP_LIMITER_NONE always allows. */
bool hp_limiter_try_retry(hp_limiter *l, double now_s, bool after_timeout,
                          uint32_t *cost_out);

/* The retry allowed by hp_limiter_try_retry is over (Envoy). */
void hp_limiter_on_retry_end(hp_limiter *l, double now_s);

/* An attempt succeeded.  retry_cost is the *cost_out of the try_retry that
 * allowed it, 0 for a first attempt.  AWS: gives back retry_cost, or
 * aws_success_increment when retry_cost is 0 (cap aws_capacity); gRPC: adds
 * the token ratio (cap max tokens). */
void hp_limiter_on_success(hp_limiter *l, double now_s, uint32_t retry_cost);

/* An attempt failed in a way that counts against the server (gRPC: a
 * retryable status): takes one gRPC token (floor 0). */
void hp_limiter_on_failure(hp_limiter *l, double now_s);

/* What is left, in the kind's own unit, at now_s (no state change): AWS
 * tokens; gRPC tokens (thousandths / 1000); Envoy retry slots free (may be
 * negative after the active count fell); Finagle whole retries
 * (floor(tokens / W), Finagle's balance); NONE +infinity. */
double hp_limiter_balance(const hp_limiter *l, double now_s);

/* ---- Circuit breaker ----------------------------------------------------
 *
 * CLOSED: every request allowed; results (success / failure, as the caller
 *   classes them) are counted over a sliding window of window_s (hp_window).
 *   After a result, if the window holds at least min_requests results and
 *   failures / results >= failure_ratio, the breaker opens.
 * OPEN: every request refused (fail fast), results ignored.  From
 *   open_s after it opened, it reads as HALF_OPEN (a transition by time:
 *   hp_breaker_state() reports it without any call in between).
 * HALF_OPEN: the first `probes` requests are let through as probes, the
 *   rest refused.  A failed probe reopens it (open_s again, from then);
 *   when all `probes` have succeeded it closes with an empty window.
 *   A result while no probe is outstanding (a late reply to a request let
 *   through before the breaker opened) is ignored.
 */

typedef enum hp_circuit {
    HP_CIRCUIT_CLOSED = 0,
    HP_CIRCUIT_OPEN,
    HP_CIRCUIT_HALF_OPEN,
    HP_CIRCUIT_COUNT
} hp_circuit;

/* "closed", "open", "half_open"; NULL if out of range. */
const char *hp_circuit_name(hp_circuit c);

typedef struct hp_breaker_opts {
    double failure_ratio;  /* in (0, 1]; 0 = 0.5 */
    uint32_t min_requests; /* results in the window before it may open; 0 = 20 */
    double window_s;       /* > 0; 0 = 10 */
    double open_s;         /* > 0; 0 = 5 */
    uint32_t probes;       /* trial requests in half-open; 0 = 3 */
} hp_breaker_opts;

#define HP_DEFAULT_BREAKER_FAILURE_RATIO 0.5
#define HP_DEFAULT_BREAKER_MIN_REQUESTS 20u
#define HP_DEFAULT_BREAKER_WINDOW_S 10.0
#define HP_DEFAULT_BREAKER_OPEN_S 5.0
#define HP_DEFAULT_BREAKER_PROBES 3u

typedef struct hp_breaker {
    hp_breaker_opts opts;  /* every default written out */
    double now_s;          /* latest time seen */
    double open_until_s;   /* OPEN: when it becomes HALF_OPEN */
    hp_circuit circuit;    /* as of now_s (OPEN may have expired since) */
    uint32_t probes_sent;  /* HALF_OPEN */
    uint32_t probes_ok;    /* HALF_OPEN */
    uint32_t opened;       /* times it has opened (saturating) */
    hp_window window;      /* CLOSED: a = successes, b = failures */
} hp_breaker;

/* The default options written out. */
hp_breaker_opts hp_breaker_defaults(void);

/* NULL if usable (after zero-means-default), else a static message. */
const char *hp_breaker_check(const hp_breaker_opts *o);

/* A closed breaker with an empty window at now_s; opts NULL means defaults;
 * values hp_breaker_check() rejects take their defaults, except a
 * failure_ratio above 1, taken as 1. */
void hp_breaker_init(hp_breaker *b, const hp_breaker_opts *opts, double now_s);

/* The state at now_s (no state change). */
hp_circuit hp_breaker_state(const hp_breaker *b, double now_s);

/* May a request be sent now?  CLOSED: true; OPEN: false; HALF_OPEN: true
 * for the first `probes` calls (each counted as a probe), then false. */
bool hp_breaker_allow(hp_breaker *b, double now_s);

/* The result of a request that hp_breaker_allow() let through. */
void hp_breaker_on_result(hp_breaker *b, double now_s, bool success);

/* ---- Client-side adaptive throttling ------------------------------------
 *
 * Google SRE book, "Handling Overload": over a sliding window (hp_window)
 * the client counts requests (attempts it wanted to send, including those
 * it rejected itself) and accepts (replies that were not "overloaded"), and
 * rejects a new request locally with probability
 *   max(0, (requests - K * accepts) / (requests + 1)).
 */

typedef struct hp_throttle_opts {
    double window_s; /* > 0; 0 = 120 */
    double k;        /* > 0; 0 = 2 (lower is more aggressive) */
} hp_throttle_opts;

#define HP_DEFAULT_THROTTLE_WINDOW_S 120.0
#define HP_DEFAULT_THROTTLE_K 2.0

typedef struct hp_throttle {
    hp_throttle_opts opts; /* every default written out */
    double now_s;          /* latest time seen */
    hp_window window;      /* a = requests, b = accepts */
} hp_throttle;

/* The default options written out. */
hp_throttle_opts hp_throttle_defaults(void);

/* NULL if usable (after zero-means-default), else a static message. */
const char *hp_throttle_check(const hp_throttle_opts *o);

/* Empty window at now_s; opts NULL means defaults; rejected values are
 * resolved to their defaults. */
void hp_throttle_init(hp_throttle *t, const hp_throttle_opts *opts,
                      double now_s);

/* The rejection probability at now_s, in [0, 1) (no state change). */
double hp_throttle_p_reject(const hp_throttle *t, double now_s);

/* The window's counts at now_s (no state change): requests (every call of
 * hp_throttle_allow, the locally rejected ones too, as the SRE formula
 * counts them) and accepts.  Either pointer may be NULL. */
void hp_throttle_counts(const hp_throttle *t, double now_s, uint64_t *requests,
                        uint64_t *accepts);

/* Decides one request at now_s with a uniform u in [0, 1) (clamped; NaN
 * is 0): rejected when u < hp_throttle_p_reject() as it stood before this
 * request.  Counts the request either way.  True = send it. */
bool hp_throttle_allow(hp_throttle *t, double now_s, double u);

/* The backend accepted a request (did not answer "overloaded"). */
void hp_throttle_on_accept(hp_throttle *t, double now_s);

/* ---- Hedged requests -----------------------------------------------------
 *
 * Send the request; if no answer after hp_hedge_delay(), send a copy, and
 * so on up to hp_hedge_max() copies (copy k goes out k delays after the
 * first, as gRPC hedging does).  The caller takes the first answer,
 * cancels the rest and counts the wasted copies.
 *
 * The delay is delay_s (HP_HEDGE_FIXED) or the tracked percentile of the
 * latencies given to hp_hedge_observe() (HP_HEDGE_PERCENTILE; delay_s until
 * min_samples have been seen).  The tracker is a log-bucketed histogram:
 * bucket 0 holds latencies <= HP_HEDGE_MIN_S, bucket i (1..HP_HEDGE_BUCKETS-2)
 * holds (HP_HEDGE_MIN_S * g^(i-1), HP_HEDGE_MIN_S * g^i] with g = 1.1, the
 * last one everything above (about 3.3e4 s); a bucket reads as
 * 2 * HP_HEDGE_MIN_S * g^i / (g + 1).  For latencies between HP_HEDGE_MIN_S
 * and the last bucket, a quantile is therefore within (g-1)/(g+1) = 4.77%
 * (plus rounding; under 5%) of the nearest-rank quantile of the samples.
 * Below HP_HEDGE_MIN_S it reads HP_HEDGE_MIN_S, above the range about
 * 3.3e4 s.  The histogram is cumulative since hp_hedge_init(); when a bucket
 * would overflow, every count is halved (rounding up), which keeps the
 * proportions.  About 1 KiB of state.
 */

typedef enum hp_hedge_mode {
    HP_HEDGE_PERCENTILE = 0, /* default */
    HP_HEDGE_FIXED,
    HP_HEDGE_MODE_COUNT
} hp_hedge_mode;

/* "percentile", "fixed"; NULL if out of range. */
const char *hp_hedge_mode_name(hp_hedge_mode m);
/* 0 and *out, or -1 for an unknown name (*out untouched). */
int hp_hedge_mode_parse(const char *name, hp_hedge_mode *out);

typedef struct hp_hedge_opts {
    hp_hedge_mode mode;   /* default HP_HEDGE_PERCENTILE */
    double delay_s;       /* fixed delay, and the percentile mode's delay before
                           * min_samples; 0 = 1 s (conservative: hedging blind
                           * mostly adds load); HP_OFF = 0 (copies at once) */
    double percentile;    /* in (0, 1]; 0 = 0.95 */
    uint32_t max_hedges;  /* extra copies per request; 0 = 1 */
    uint32_t min_samples; /* 0 = 20 */
} hp_hedge_opts;

#define HP_DEFAULT_HEDGE_DELAY_S 1.0
#define HP_DEFAULT_HEDGE_PERCENTILE 0.95
#define HP_DEFAULT_HEDGE_MAX 1u
#define HP_DEFAULT_HEDGE_MIN_SAMPLES 20u
#define HP_HEDGE_BUCKETS 256
#define HP_HEDGE_MIN_S 1e-6

typedef struct hp_hedge {
    hp_hedge_opts opts; /* every default written out (HP_OFF kept) */
    uint64_t count;     /* samples in the histogram */
    uint64_t seen;      /* samples observed (not reduced by halving) */
    uint32_t bins[HP_HEDGE_BUCKETS];
} hp_hedge;

/* The default options written out. */
hp_hedge_opts hp_hedge_defaults(void);

/* NULL if usable (after zero-means-default), else a static message. */
const char *hp_hedge_check(const hp_hedge_opts *o);

/* Empty tracker; opts NULL means defaults; values hp_hedge_check() rejects
 * take their defaults, except a negative delay_s, read as zero. */
void hp_hedge_init(hp_hedge *h, const hp_hedge_opts *opts);

/* Records one latency (seconds).  NaN and negative values are ignored;
 * +infinity lands in the last bucket.  O(1), except O(HP_HEDGE_BUCKETS)
 * when the counts are halved. */
void hp_hedge_observe(hp_hedge *h, double latency_s);

/* The nearest-rank q-quantile estimate (q clamped into (0, 1]; NaN or
 * q <= 0 gives the smallest sample's bucket); NaN with no samples.
 * O(HP_HEDGE_BUCKETS). */
double hp_hedge_quantile(const hp_hedge *h, double q);

/* The delay after which to send the next copy: delay_s (fixed mode, or
 * fewer than min_samples seen), else hp_hedge_quantile(percentile).
 * Always finite and >= 0. */
double hp_hedge_delay(const hp_hedge *h);

/* The most extra copies per request (max_hedges). */
uint32_t hp_hedge_max(const hp_hedge *h);

#ifdef __cplusplus
}
#endif
#endif /* HERDPOLICY_H */
