/*
 * call.c - the client API (herdpolicy.h, "The client API"): one retry
 * loop that applies the deadline, adaptive throttling, the circuit
 * breaker, the retry limiter, hedging and the policy's decision in one
 * documented order, so that a program and the simulator run the same
 * sequence of calls into the pieces.
 */
#include "herdpolicy.h"
#include "names.h"
#include "attempt.h"
#include "classes.h"

#include <math.h>
#include <string.h>

static const char *const deny_names[HP_DENY_COUNT] = {"none", "deadline", "throttled", "breaker", "wait"};

const char *hp_deny_name(hp_deny d)
{
    return name_at(deny_names, HP_DENY_COUNT, (unsigned)d);
}

const char *hp_client_check(const hp_client_opts *o)
{
    if (o == NULL)
        return "client options are NULL"; /* as every *_check() says (it crashed) */
    const char *why = hp_limiter_check(&o->limiter);
    if (!why && o->breaker)
        why = hp_breaker_check(&o->breaker_opts);
    if (!why && o->throttling)
        why = hp_throttle_check(&o->throttle_opts);
    if (!why && o->hedging)
        why = hp_hedge_check(&o->hedge_opts);
    return why;
}

void hp_client_init(hp_client *c, const hp_client_opts *opts, double now_s)
{
    memset(c, 0, sizeof *c);
    if (opts)
        c->opts = *opts;
    hp_adaptive_init(&c->adaptive, now_s);
    hp_limiter_init(&c->limiter, &c->opts.limiter, now_s);
    hp_breaker_init(&c->breaker, &c->opts.breaker_opts, now_s);
    hp_throttle_init(&c->throttle, &c->opts.throttle_opts, now_s);
    hp_hedge_init(&c->hedge, &c->opts.hedge_opts);
}

void hp_call_start(hp_call *call, const hp_policy *p, double now_s)
{
    hp_state_start(&call->st, p, now_s);
    call->sent_s = now_s;
    call->retry_cost = 0;
    call->flags = 0;
}

static bool limited(const hp_client *c)
{
    return c && c->opts.limiter.kind != HP_LIMITER_NONE;
}

hp_admit hp_call_admit(hp_client *c, hp_call *call, const hp_policy *p, double now_s, double u)
{
    hp_admit a = {.allowed = false, .deny = HP_DENY_NONE, .timeout_s = 0, .hedge_after_s = INFINITY, .hedges = 0,
                  .wait_s = 0};
    if (c && p->adaptive_rate && !(call->flags & HP_CALL_TOKEN_HELD)) {
        double wait = hp_adaptive_acquire(&c->adaptive, now_s);
        if (wait > 0) {
            call->flags |= HP_CALL_TOKEN_HELD;
            a.deny = HP_DENY_WAIT;
            a.wait_s = wait;
            return a;
        }
    }
    call->flags &= ~(uint32_t)HP_CALL_TOKEN_HELD;
    double timeout = attempt_timeout_inline(p, &call->st, now_s);
    if (!(timeout > 0)) {
        a.deny = HP_DENY_DEADLINE;
        return a;
    }
    on_attempt_inline(&call->st);
    if (c && c->opts.throttling && !hp_throttle_allow(&c->throttle, now_s, u)) {
        a.deny = HP_DENY_THROTTLED;
        return a;
    }
    if (c && c->opts.breaker && !hp_breaker_allow(&c->breaker, now_s)) {
        a.deny = HP_DENY_BREAKER;
        return a;
    }
    if (limited(c))
        hp_limiter_on_request_start(&c->limiter, now_s, call->st.attempts > 1);
    call->sent_s = now_s;
    a.allowed = true;
    a.timeout_s = timeout;
    if (c && c->opts.hedging) {
        double hd = hp_hedge_delay(&c->hedge);
        if (hd < timeout) {
            a.hedge_after_s = hd;
            a.hedges = hp_hedge_max(&c->hedge);
        }
    }
    return a;
}

/* What the shared mechanisms learn from an attempt's outcome (steps 1-4). */
static void observe(hp_client *c, hp_call *call, const hp_policy *p, int outcome, double now_s)
{
    hp_class cls = classify_inline(outcome);
    if (p->adaptive_rate)
        hp_adaptive_on_response(&c->adaptive, now_s, outcome == 429);
    if (c->opts.hedging && cls == HP_CLASS_OK && call->st.attempts == 1)
        hp_hedge_observe(&c->hedge, now_s - call->sent_s);
    if (c->opts.breaker)
        hp_breaker_on_result(&c->breaker, now_s,
                             cls != HP_CLASS_SERVER && cls != HP_CLASS_TIMEOUT && cls != HP_CLASS_CONNECTION);
    if (c->opts.throttling && outcome != 503 && outcome != 429 && outcome != HP_OUTCOME_TIMEOUT)
        hp_throttle_on_accept(&c->throttle, now_s);
    if (limited(c)) {
        hp_limiter_on_request_end(&c->limiter, now_s);
        if (call->flags & HP_CALL_RETRY_HELD)
            hp_limiter_on_retry_end(&c->limiter, now_s);
        if (cls == HP_CLASS_OK)
            hp_limiter_on_success(&c->limiter, now_s, call->retry_cost);
        else if (retryable_inline(p, cls))
            hp_limiter_on_failure(&c->limiter, now_s);
    }
    call->retry_cost = 0;
    call->flags &= ~(uint32_t)HP_CALL_RETRY_HELD;
}

hp_decision hp_call_outcome(hp_client *c, hp_call *call, const hp_policy *p, hp_result r, double now_s, double u)
{
    if (c)
        observe(c, call, p, r.outcome, now_s);
    hp_decision d = hp_decide_result(p, &call->st, r, now_s, u);
    if (d.action == HP_RETRY && limited(c)) {
        uint32_t cost = 0;
        if (hp_limiter_try_retry(&c->limiter, now_s, r.outcome == HP_OUTCOME_TIMEOUT, &cost)) {
            call->retry_cost = cost;
            call->flags |= HP_CALL_RETRY_HELD;
        } else {
            d = (hp_decision){.action = HP_GIVE_UP, .reason = HP_REASON_RETRY_LIMITED, .cls = d.cls};
        }
    }
    return d;
}

double hp_client_hedge_next(const hp_client *c, uint32_t copies)
{
    if (!c || !c->opts.hedging || copies >= hp_hedge_max(&c->hedge))
        return INFINITY;
    return hp_hedge_delay(&c->hedge);
}

void hp_call_finish(hp_client *c, hp_call *call, double now_s)
{
    if (limited(c) && (call->flags & HP_CALL_RETRY_HELD))
        hp_limiter_on_retry_end(&c->limiter, now_s);
    call->flags &= ~(uint32_t)HP_CALL_RETRY_HELD;
    call->retry_cost = 0;
}
