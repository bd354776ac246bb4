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
    HP_STRATEGY_COUNT
} hp_strategy;

/* Canonical names: "immediate", "constant", "exponential", "full_jitter",
 * "equal_jitter", "decorrelated_jitter".  Returns NULL for an out-of-range
 * value. */
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

/* Failure classes (DOMAIN.md section 4). */
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

typedef struct hp_policy {
    hp_strategy strategy;      /* default HP_IMMEDIATE (0) */
    double base_s;             /* > 0; 0 means default 0.1 s */
    double cap_s;              /* >= base_s; 0 means default 20 s */
    uint32_t max_attempts;     /* total attempts incl. the first; 0 = unlimited */
    hp_unknown_policy unknown; /* default HP_UNKNOWN_RETRY */
    bool non_idempotent;       /* default false: timeouts are retryable */
    uint32_t exponent_offset;  /* retry n uses ceiling n + offset; default 0.  The AWS
                                * 2015 simulation counts its first retry as 1. */
} hp_policy;

#define HP_DEFAULT_BASE_S 0.1
#define HP_DEFAULT_CAP_S 20.0

/* Returns a policy with every default written out. */
hp_policy hp_policy_defaults(void);

/* Returns NULL if the policy is usable (after zero-means-default), else a
 * static string saying what is wrong (e.g. "cap_s is below base_s"). */
const char *hp_policy_check(const hp_policy *p);

/* True if the policy retries a failure of this class at all (ignores
 * attempt counts).  HP_CLASS_OK is never retryable. */
bool hp_retryable(const hp_policy *p, hp_class c);

/* Per logical request retry state; compact (16 bytes).  Initialise with
 * hp_state_init() at the start of every logical request. */
typedef struct hp_state {
    double prev_sleep_s; /* decorrelated jitter's memory; starts at base */
    uint32_t attempts;   /* attempts made so far (sent), incl. the first */
    uint32_t retries;    /* retries scheduled so far */
} hp_state;

void hp_state_init(hp_state *st, const hp_policy *p);

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
    HP_REASON_UNKNOWN_OUTCOME,   /* timeout on a non-idempotent operation */
    HP_REASON_COUNT
} hp_reason;

const char *hp_reason_name(hp_reason r);

typedef struct hp_decision {
    hp_action action;
    hp_reason reason;
    hp_class cls;
    double delay_s; /* with HP_RETRY: the sleep before the next attempt */
} hp_decision;

/* Call once per attempt, when it is sent. Increments st->attempts. */
void hp_on_attempt(hp_state *st);

/* Decides what follows an attempt's outcome at time now_s (seconds, any
 * epoch; reserved for budgets and Retry-After).  u is a uniform in [0, 1)
 * used only if a jittered sleep is drawn.  On HP_RETRY, the sleep is
 * hp_backoff(p, st, st->retries + p->exponent_offset (saturating), u); then
 * st->retries is incremented and the decorrelated memory updated. */
hp_decision hp_decide(const hp_policy *p, hp_state *st, int outcome,
                      double now_s, double u);

#ifdef __cplusplus
}
#endif
#endif /* HERDPOLICY_H */
