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
 *   - Zero means the default, everywhere: a zero-initialised hp_policy, and
 *     every zero-initialised options struct (limits.h, client.h), is valid
 *     and means the documented defaults (see hp_policy_defaults() and the
 *     *_defaults() functions, which write them out), and every function
 *     that takes one of their fields on its own (hp_parse_retry_after's
 *     max_s) reads 0 as the field's default.
 *   - Where zero is a sensible setting but not the default (no Retry-After
 *     honoured, no reserve, no minimum, hedge at once), the field takes
 *     HP_OFF to mean zero (see below).
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

/* Zero as a setting.  Some fields have a default other than zero although
 * zero is a sensible setting: hp_policy.retry_after_max_s, and in limits.h
 * envoy_budget_percent, envoy_min_retry_concurrency,
 * finagle_min_retries_per_s, finagle_percent_can_retry and the hedge's
 * delay_s.  Those take HP_OFF to mean zero; the *_check() functions accept
 * exactly HP_OFF and reject other negative values, and the decisions and
 * state machines read any negative value as zero.  HP_OFF survives
 * *_defaults() and *_init(), so resolved options can be passed to *_init()
 * again unchanged.  Fields without HP_OFF have no zero setting: 0 is their
 * default. */
#define HP_OFF (-1)

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
                                * it); 0 means default HP_DEFAULT_RETRY_AFTER_MAX_S;
                                * HP_OFF means 0 (none honoured beyond 0 s) */
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
    double multiplier;         /* growth of the ceiling per retry, >= 1; 0 means
                                * HP_DEFAULT_MULTIPLIER (2) */
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
#define HP_DEFAULT_MULTIPLIER 2.0

/* Returns a policy with every default written out (multiplier 2; the
 * defaults that are 0 stay 0; delay_a, whose default is base_s, stays 0). */
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

/* An attempt's outcome with what the reply said about retrying.  Not an
 * options struct: every field is an observation, and a zero retry_after_s
 * is a Retry-After of 0 s (retry now), so a reply without one must set
 * retry_after_s to a negative value (HP_NO_RETRY_AFTER), as hp_decide()
 * does. */
typedef struct hp_result {
    int outcome;          /* status code or HP_OUTCOME_* */
    double retry_after_s; /* Retry-After as a delay from now (see hp_parse_retry_after);
                           * negative (HP_NO_RETRY_AFTER): none given; 0: "retry now"
                           * (it still counts as given, e.g. for retry_with_ra) */
    bool overloaded;      /* the reply says "overloaded, don't retry" (a policy with
                           * obey_overload then gives up: HP_REASON_NON_RETRYABLE) */
    double reset_s;       /* X-RateLimit-Reset as a delay from now (see
                           * hp_parse_ratelimit_reset); <= 0: none (read only with ra_reset) */
} hp_result;

/* hp_result.retry_after_s of a reply that carries no Retry-After. */
#define HP_NO_RETRY_AFTER (-1.0)

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
 * seconds since 1970-01-01 UTC.  max_s reads as hp_policy.retry_after_max_s
 * does, so that field can be passed as is: 0 means
 * HP_DEFAULT_RETRY_AFTER_MAX_S, HP_OFF (any negative) means 0.  On success
 * returns 0 and sets *delay_s to the delay from now: a date in the past
 * gives 0; anything longer than max_s (huge numbers such as 9999999999
 * included, without overflow) gives max_s.  Returns -1 for anything else
 * (empty, signs, fractions, bad dates, trailing junk), *delay_s untouched;
 * also when now_epoch_s or max_s is not finite.  Day names are not checked
 * against the date; rfc850's 2-digit year is the latest one at most 50
 * years after now's.  Clamping to max_s loses how long the server asked
 * for: a caller whose policy uses ra_above (HP_RA_INSTEAD) passes a larger
 * max_s and lets hp_decide_result() apply retry_after_max_s. */
int hp_parse_retry_after(const char *value, double now_epoch_s, double max_s,
                         double *delay_s);

/* The non-standard retry-after-ms field (the Stainless-generated SDKs:
 * openai, anthropic): a decimal number of milliseconds, digits with an
 * optional fraction ("1500", "250.5"), optional surrounding whitespace.  0
 * and *delay_s (seconds, at most max_s), or -1 for anything else (signs,
 * exponents, junk), or when max_s is not finite.  max_s reads as in
 * hp_parse_retry_after (0: the default, HP_OFF: 0). */
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

#ifdef __cplusplus
}
#endif

/* The shared state machines, then the client API that puts everything in
 * one order (split out for reading; they are part of this header). */
#include "herdpolicy/limits.h"
#include "herdpolicy/client.h"

#endif /* HERDPOLICY_H */
