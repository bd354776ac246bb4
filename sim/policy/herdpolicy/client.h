/*
 * herdpolicy/client.h - the client API: one retry loop that applies every mechanism in one documented order.
 * Part of herdpolicy.h: include <herdpolicy.h>, not this file.
 */
#ifndef HERDPOLICY_CLIENT_H
#define HERDPOLICY_CLIENT_H

#ifndef HERDPOLICY_H
#error "include <herdpolicy.h>, which includes this file"
#endif

#ifdef __cplusplus
extern "C" {
#endif

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
    HP_DENY_PLUGIN,       /* a plugin's admit refused it (herdpolicy/plugin.h) */
    HP_DENY_COUNT
} hp_deny;

/* "none", "deadline", "throttled", "breaker", "wait", "plugin"; NULL if out of range. */
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
 * problem of the enabled mechanisms' *_check()); NULL options are an error
 * here, as for every *_check() (hp_client_init() reads NULL as no shared
 * mechanism). */
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
#endif /* HERDPOLICY_CLIENT_H */
