/*
 * herdpolicy.h - herd's retry-policy library (libherdpolicy.a, libherdpolicy.so.0).
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
    HP_CLASS_REQUEST_TIMEOUT, /* 408: the server gave up waiting for the request (transient) */
    HP_CLASS_OVERLOADED,      /* 529: overloaded (Anthropic's API; transient) */
    HP_CLASS_COUNT
} hp_class;

/* Snake-case class name ("ok", "rate_limited", ..., "request_timeout",
 * "overloaded"); NULL if out of range. */
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

/* The shape of the sleep around the exponential ceiling c = base * m^n
 * (m = multiplier), for the jitters client libraries ship.  With a jitter
 * other than HP_JITTER_NONE the strategy is not used (except HP_IMMEDIATE,
 * which never sleeps).  f is jitter_f; u the caller's uniform in [0, 1).
 *   HP_JITTER_NONE          the strategy's own sleep (the table above)
 *   HP_JITTER_FULL          u * c                     in [0, c)
 *   HP_JITTER_PROPORTIONAL  c * (1 - f * u)           in (c (1 - f), c]   (openai: f = 0.25)
 *   HP_JITTER_SYMMETRIC     c * (1 + f * (2u - 1))    in [c (1 - f), c (1 + f))   (cohere 0.1, gRPC 0.2)
 *   HP_JITTER_ADDITIVE      c + f * u                 in [c, c + f)       (tenacity, LangGraph: f = 1)
 *   HP_JITTER_FLOOR         f + u * (max(c, f) - f)   in [f, max(c, f))   (tenacity wait_random_exponential:
 *                                                      f = its min)
 * By default the cap applies to c before the jitter, so an additive or
 * symmetric jitter may sleep past cap_s (LangGraph, gRPC do); with
 * jitter_before_cap the jitter applies to the uncapped c and the result is
 * capped (tenacity's wait_exponential_jitter, botocore's legacy mode with a
 * large cap). */
typedef enum hp_jitter {
    HP_JITTER_NONE = 0,
    HP_JITTER_FULL,
    HP_JITTER_PROPORTIONAL,
    HP_JITTER_SYMMETRIC,
    HP_JITTER_ADDITIVE,
    HP_JITTER_FLOOR,
    HP_JITTER_COUNT
} hp_jitter;

/* "none", "full", "proportional", "symmetric", "additive", "floor"; NULL if
 * out of range. */
const char *hp_jitter_name(hp_jitter j);
/* 0 and *out, or -1 for an unknown name (*out untouched). */
int hp_jitter_parse(const char *name, hp_jitter *out);

/* How a Retry-After (a delay the server asks for) and the backoff combine. */
typedef enum hp_ra_mode {
    HP_RA_AT_LEAST = 0, /* default: sleep max(backoff, min(RA, retry_after_max_s)) */
    HP_RA_INSTEAD,      /* 0 < RA <= retry_after_max_s: sleep exactly RA instead of the
                         * backoff (the openai / anthropic SDKs, go-retryablehttp, urllib3);
                         * RA <= 0: the backoff; RA above the maximum: ra_above */
    HP_RA_IGNORE,       /* never read it */
    HP_RA_MODE_COUNT
} hp_ra_mode;

/* With HP_RA_INSTEAD, what a Retry-After above retry_after_max_s does. */
typedef enum hp_ra_above {
    HP_RA_ABOVE_CLAMP = 0, /* sleep retry_after_max_s (urllib3, cohere) */
    HP_RA_ABOVE_BACKOFF,   /* ignore it: the normal backoff (openai-python < 2.52) */
    HP_RA_ABOVE_STOP,      /* give up (openai-python >= 2.52): HP_REASON_RETRY_AFTER */
    HP_RA_ABOVE_COUNT
} hp_ra_above;

/* How the budget's deadline stops retrying. */
typedef enum hp_budget_mode {
    HP_BUDGET_INCLUDES_SLEEP = 0, /* default: give up when now + sleep reaches the deadline
                                   * (Google api-core's 120 s deadline, tenacity
                                   * stop_before_delay) */
    HP_BUDGET_AT_FAILURE          /* give up when a failure arrives at or after the deadline,
                                   * whatever the sleep (tenacity stop_after_delay) */
} hp_budget_mode;

#define HP_MAX_NO_RETRY_STATUS 4

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
    bool obey_overload;        /* give up at once when the server says "overloaded, don't
                                * retry" (hp_result.overloaded); default false */
    /* Client-library shapes (all zero: herd's behaviour above). */
    double multiplier;         /* growth of the ceiling per retry, >= 1; 0 means 2 */
    hp_jitter jitter;          /* HP_JITTER_NONE: the strategy's sleep */
    double jitter_f;           /* the jitter's parameter (fraction, or seconds for ADDITIVE
                                * and FLOOR), >= 0 */
    bool jitter_before_cap;    /* cap the jittered sleep instead of the ceiling */
    bool first_retry_zero;     /* retry 0 sleeps 0 (urllib3: 0, then base * 2^n) */
    hp_ra_mode ra_mode;        /* default HP_RA_AT_LEAST */
    hp_ra_above ra_above;      /* HP_RA_INSTEAD: a Retry-After above the maximum */
    bool ra_ms;                /* reads the non-standard retry-after-ms first (the SDK
                                * generators); for the caller's header parsing */
    bool ra_reset;             /* without a Retry-After, reads X-RateLimit-Reset (cohere):
                                * sleep min(reset, retry_after_max_s) * (1 + reset_jitter_f * u) */
    double reset_jitter_f;     /* cohere: 0.2 */
    uint32_t retry_also;       /* mask of (1u << hp_class) retried although the table refuses
                                * them: 501 for naive clients, 4xx for "any exception"
                                * frameworks */
    uint32_t retry_with_ra;    /* mask of classes retried only when the reply carries a
                                * Retry-After (urllib3: 413, 429, 503) */
    uint16_t no_retry_status[HP_MAX_NO_RETRY_STATUS]; /* statuses never retried (0: unused):
                                * Google api-core leaves 502 and 504 out */
    hp_budget_mode budget_mode; /* default HP_BUDGET_INCLUDES_SLEEP */
    bool adaptive_rate;        /* the caller runs an hp_adaptive client-side rate limiter
                                * before every attempt (AWS SDK adaptive retry mode) */
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
 * already spent (then do not send).  With HP_BUDGET_AT_FAILURE the deadline
 * only stops retries: attempt_timeout_s (or +infinity) whatever is left. */
double hp_attempt_timeout(const hp_policy *p, const hp_state *st, double now_s);

/* min(cap, base * m^n), m the multiplier (default 2), with saturation:
 * finite, in [0, cap], non-decreasing in n, for all n. */
double hp_ceiling(const hp_policy *p, uint32_t n);

/* Sleep before retry number n (0-based) for the policy's strategy, given a
 * uniform u in [0, 1) (values outside are clamped).  Updates
 * st->prev_sleep_s for decorrelated jitter; uses st only for that.
 * Always finite and in [0, cap] without a jitter (p->jitter); with one,
 * finite and >= 0, and above cap only by the jitter when the cap applies
 * first (at most cap * (1 + f) or cap + f).  first_retry_zero makes n = 0
 * sleep 0. */
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
    HP_REASON_RETRY_AFTER,       /* HP_RA_ABOVE_STOP: the server asked for a longer wait than
                                  * the policy accepts */
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
    bool overloaded;      /* the reply says "overloaded, don't retry" (a policy with
                           * obey_overload then gives up: HP_REASON_NON_RETRYABLE) */
    double reset_s;       /* X-RateLimit-Reset as a delay from now (see
                           * hp_parse_ratelimit_reset); <= 0: none (read only with ra_reset) */
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
 * call gives up now (HP_REASON_BUDGET) instead of sleeping.  A failure with
 * r.overloaded under a policy with obey_overload gives up at once
 * (HP_REASON_NON_RETRYABLE), before any other rule but success. */
hp_decision hp_decide_result(const hp_policy *p, hp_state *st, hp_result r,
                             double now_s, double u);

/* A retry the caller has chosen itself, after delay_s (an agent that
 * re-issues a failed tool call after thinking, whatever the policy's
 * backoff and idempotency rules): done on success; given up as
 * HP_REASON_NON_RETRYABLE when the reply is overloaded under obey_overload
 * or the class is not retryable (hp_retryable), HP_REASON_ATTEMPTS when
 * max_attempts is reached, HP_REASON_BUDGET when now_s + delay_s reaches
 * the deadline; else HP_RETRY with that delay (st->retries incremented). */
hp_decision hp_decide_chosen(const hp_policy *p, hp_state *st, hp_result r,
                             double now_s, double delay_s);

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

/* The non-standard retry-after-ms field (the Stainless-generated SDKs:
 * openai, anthropic): a decimal number of milliseconds, digits with an
 * optional fraction ("1500", "250.5"), optional surrounding whitespace.  0
 * and *delay_s (seconds, at most max_s), or -1 for anything else (signs,
 * exponents, junk), or when max_s is not finite and > 0. */
int hp_parse_retry_after_ms(const char *value, double max_s, double *delay_s);

/* X-RateLimit-Reset as cohere-python reads it: the Unix time in whole
 * seconds when the limit resets.  0 and *delay_s = reset - now when that is
 * > 0; -1 when it is not in the future, or the value is not 1*DIGIT (with
 * optional whitespace), or now_epoch_s is not finite. */
int hp_parse_ratelimit_reset(const char *value, double now_epoch_s, double *delay_s);

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

/* ---- Client-library presets ----------------------------------------------
 *
 * The retry defaults that client libraries ship, read from each library's
 * own source (repository, file and version in the table; `herd presets`
 * prints it).  A preset is data: a policy plus where it came from.  A
 * two-layer preset (LlamaIndex's OpenAI LLM: a tenacity loop around the
 * openai SDK with the same max_retries) has an inner policy too.
 */
typedef struct hp_library_preset {
    const char *name;        /* "openai_python", ... */
    const char *library;     /* what it models, in words */
    hp_policy policy;        /* the (outer) loop */
    bool two_layers;         /* inner is the loop one attempt of policy runs */
    hp_policy inner;
    const char *retried;     /* what it retries, in words */
    const char *retry_after; /* how it reads Retry-After, in words */
    const char *repo;        /* source: repository */
    const char *file;        /* file(s) read */
    const char *version;     /* tag or commit id read */
    const char *notes;       /* where herd's model differs, or the source differs from
                              * common belief; "" if nothing */
} hp_library_preset;

/* Number of library presets, and preset i (NULL if out of range). */
uint32_t hp_library_preset_count(void);
const hp_library_preset *hp_library_preset_at(uint32_t i);

/* The preset called name (exact), or NULL. */
const hp_library_preset *hp_library_preset_find(const char *name);

/* ---- AWS SDK adaptive retry: the client-side rate limiter ---------------
 *
 * botocore/retries/adaptive.py (ClientRateLimiter, RateClocker),
 * bucket.py (TokenBucket) and throttling.py (CubicCalculator), as pure state
 * on explicit time.  Before every attempt the caller asks hp_adaptive_acquire
 * for the wait before it may send (0 until the first throttling response
 * enables the limiter); after every response it reports whether it was a
 * throttling error.  botocore blocks the sending thread on a condition
 * variable until a token is there; here the token is reserved at once (the
 * balance may go negative) and the wait returned, so concurrent callers get
 * the tokens one after another, in order.
 *   Measured send rate (RateClocker): responses are counted in 0.5 s
 *     buckets; when a response falls in a later bucket, rate = 0.8 *
 *     count / (bucket - last bucket) + 0.2 * rate.
 *   CUBIC (CubicCalculator, C = 0.4, beta = 0.7): on a throttle, w_max =
 *     the rate in use (measured, or min(measured, fill rate) once enabled),
 *     k = cbrt(w_max * (1 - beta) / C), new rate = beta * that rate; on a
 *     success, new rate = C * (t - last throttle - k)^3 + w_max.
 *   Token bucket: fill rate = max(new rate capped at 2 x measured, 0.5)/s,
 *     capacity = max(that rate, 1) (refilled at the old rate up to now
 *     first).
 */
typedef struct hp_adaptive {
    bool enabled;           /* a throttling response has been seen */
    double fill_rate;       /* tokens per second, >= 0.5 */
    double max_capacity;    /* >= 1 */
    double capacity;        /* tokens (negative: reserved ahead) */
    double last_refill_s;   /* NaN until the first refill */
    double w_max, k, last_fail_s; /* CUBIC */
    double measured_rate;   /* smoothed responses per second */
    double last_bucket_s;   /* RateClocker's last bucket */
    uint32_t count;         /* responses in the current bucket */
} hp_adaptive;

#define HP_ADAPTIVE_MIN_RATE 0.5
#define HP_ADAPTIVE_BETA 0.7
#define HP_ADAPTIVE_SCALE 0.4
#define HP_ADAPTIVE_SMOOTHING 0.8
#define HP_ADAPTIVE_BUCKET_S 0.5

/* A fresh limiter at now_s: disabled, fill rate 1/s (botocore's max_rate=1),
 * CUBIC with w_max 0 and its last failure at now_s. */
void hp_adaptive_init(hp_adaptive *a, double now_s);

/* An attempt wants to go at now_s: returns the wait before it may be sent
 * (0 while disabled, or when a token is there) and reserves its token. */
double hp_adaptive_acquire(hp_adaptive *a, double now_s);

/* A response arrived at now_s; throttled: it was a throttling error (429, or
 * a throttling error code).  Returns the new fill rate. */
double hp_adaptive_on_response(hp_adaptive *a, double now_s, bool throttled);

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


/* ===================================================================== *
 * The client API: one retry loop with every mechanism, in one order
 *
 * What a program that calls a flaky service needs, in the style of
 * aws-c-io's retry strategy: an options struct in which zero means the
 * default, state the caller owns, and time and uniform random numbers
 * passed in.  The simulator's clients run exactly these functions.
 *
 *   hp_client  what one application shares across its calls (an SDK
 *              instance): an optional retry limiter (hp_limiter), circuit
 *              breaker, adaptive throttling and hedge tracker.
 *   hp_call    one logical call (40 bytes), started with hp_call_start
 *              with the call's policy (different calls, e.g. different
 *              tools, may use different policies on one client).
 *
 * The loop (a NULL client: no shared mechanism, only the policy):
 *
 *     hp_call_start(&call, &policy, now());
 *     for (;;) {
 *         hp_admit a = hp_call_admit(&client, &call, &policy, now(), u());
 *         if (!a.allowed)
 *             break;                    // a.deny: deadline, throttle, breaker
 *         send, with a timeout of a.timeout_s (+infinity: none); with
 *         hedging, send a copy after a.hedge_after_s if still no reply
 *         (then every hp_hedge_delay, up to a.hedges copies);
 *         hp_result r = {status, retry_after_s, overloaded};
 *         hp_decision d = hp_call_outcome(&client, &call, &policy, r, now(), u());
 *         if (d.action != HP_RETRY)
 *             break;                    // done, or given up: d.reason
 *         sleep(d.delay_s);
 *     }
 *     hp_call_finish(&client, &call, now());
 *
 * hp_call_admit, before each attempt, in this order:
 *   0. a policy with adaptive_rate (AWS SDK adaptive mode) takes a token of
 *      the client's send-rate limiter (hp_adaptive); if it comes later:
 *      not yet, HP_DENY_WAIT with wait_s (the token is reserved: admit
 *      again after wait_s and the attempt goes on from step 1);
 *   1. the deadline (budget_s from hp_call_start, or a tighter one the
 *      caller set in call.st.deadline_s, e.g. propagated from an outer
 *      loop): none left -> denied, HP_DENY_DEADLINE, nothing counted;
 *   2. the attempt is counted (hp_on_attempt);
 *   3. adaptive throttling (u is read only here, and only when the client
 *      throttles) -> denied, HP_DENY_THROTTLED;
 *   4. the circuit breaker -> denied, HP_DENY_BREAKER;
 *   5. allowed: the limiter sees the attempt start; timeout_s is
 *      hp_attempt_timeout; hedge_after_s the hedge delay when it is below
 *      the timeout (else +infinity).
 *   A denied attempt sends nothing; the call is over (report it to an
 *   outer loop as a local failure, and call hp_call_finish).
 *
 * hp_call_outcome, after each attempt's outcome, in this order:
 *   0. with adaptive_rate, the send-rate limiter sees the response (a 429
 *      is a throttling response: CUBIC cuts the rate);
 *   1. the hedge tracker sees the latency of a successful first attempt;
 *   2. the breaker sees the result: a failure if the class is server,
 *      timeout or connection (the server's failures, not the caller's 4xx);
 *   3. throttling counts an accept unless the outcome is 503, 429 or a
 *      timeout;
 *   4. the limiter sees the attempt end (and the retry end, for a retry);
 *      a success returns the retry's cost; a retryable failure is one
 *      (gRPC);
 *   5. the decision: hp_decide_result;
 *   6. a retry must then pass the limiter (hp_limiter_try_retry, after a
 *      timeout at the timeout cost), else HP_GIVE_UP with
 *      HP_REASON_RETRY_LIMITED.
 * hp_call_finish releases what a call may still hold (an Envoy retry slot
 * taken for a retry that is never sent).
 */

typedef struct hp_client_opts {
    hp_limiter_opts limiter;       /* kind HP_LIMITER_NONE (0): no limiter */
    bool breaker;                  /* a circuit breaker, with breaker_opts */
    hp_breaker_opts breaker_opts;
    bool throttling;               /* adaptive throttling, with throttle_opts */
    hp_throttle_opts throttle_opts;
    bool hedging;                  /* hedged requests, with hedge_opts */
    hp_hedge_opts hedge_opts;
} hp_client_opts;

typedef struct hp_client {
    hp_client_opts opts;
    hp_adaptive adaptive; /* the send-rate limiter of policies with adaptive_rate */
    hp_limiter limiter;
    hp_breaker breaker;
    hp_throttle throttle;
    hp_hedge hedge;
} hp_client;

/* The fields are the caller's to store (a simulator keeps them in compact
 * arrays): st always; sent_s with hedging; retry_cost and flags with a
 * limiter. */
typedef struct hp_call {
    hp_state st;          /* the policy's state: attempts, retries, deadline */
    double sent_s;        /* when the current attempt was admitted (hedging) */
    uint32_t retry_cost;  /* what the limiter charged for the retry in flight */
    uint32_t flags;       /* HP_CALL_* */
} hp_call;

/* hp_call.flags: the limiter granted a retry that has not ended (its
 * attempt's outcome, or hp_call_finish, ends it). */
#define HP_CALL_RETRY_HELD 1u
/* hp_call.flags: the attempt already waited for its adaptive send-rate
 * token (HP_DENY_WAIT); the next hp_call_admit does not take another. */
#define HP_CALL_TOKEN_HELD 2u

typedef enum hp_deny {
    HP_DENY_NONE = 0,     /* allowed */
    HP_DENY_DEADLINE,     /* no time left before the call's deadline */
    HP_DENY_THROTTLED,    /* adaptive throttling rejected it locally */
    HP_DENY_BREAKER,      /* the circuit breaker is open (or half-open, probes out) */
    HP_DENY_WAIT,         /* not yet: the adaptive send-rate limiter's token comes after
                           * wait_s; call hp_call_admit again then */
    HP_DENY_COUNT
} hp_deny;

/* "none", "deadline", "throttled", "breaker", "wait"; NULL if out of range. */
const char *hp_deny_name(hp_deny d);

typedef struct hp_admit {
    bool allowed;
    hp_deny deny;         /* why not */
    double timeout_s;     /* allowed: the attempt's timeout (+infinity: none) */
    double hedge_after_s; /* allowed: send a copy after this (+infinity: no hedging) */
    uint32_t hedges;      /* allowed, hedging: copies at most */
    double wait_s;        /* HP_DENY_WAIT: try again after this */
} hp_admit;

/* NULL if the options are usable, else a static message (the first
 * problem of the enabled mechanisms' *_check()). */
const char *hp_client_check(const hp_client_opts *o);

/* A client at now_s; opts NULL: no shared mechanism. */
void hp_client_init(hp_client *c, const hp_client_opts *opts, double now_s);

/* A logical call starting at now_s under policy p (deadline now_s +
 * budget_s).  Tighten call->st.deadline_s afterwards to bound it by an
 * outer deadline. */
void hp_call_start(hp_call *call, const hp_policy *p, double now_s);

/* Before each attempt (see above).  c may be NULL. */
hp_admit hp_call_admit(hp_client *c, hp_call *call, const hp_policy *p,
                       double now_s, double u);

/* After each admitted attempt's outcome (see above).  c may be NULL. */
hp_decision hp_call_outcome(hp_client *c, hp_call *call, const hp_policy *p,
                            hp_result r, double now_s, double u);

/* With hedging, once `copies` copies of an attempt have been sent: the
 * delay before the next copy, or +infinity when no more are allowed (or
 * there is no hedging, or c is NULL). */
double hp_client_hedge_next(const hp_client *c, uint32_t copies);

/* The call is over (done, given up or abandoned).  c may be NULL. */
void hp_call_finish(hp_client *c, hp_call *call, double now_s);

#ifdef __cplusplus
}
#endif
#endif /* HERDPOLICY_H */
