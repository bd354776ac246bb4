/*
 * call.c - the client API (herdpolicy.h, "The client API"): one retry
 * loop that applies the deadline, adaptive throttling, the circuit
 * breaker, the retry limiter, hedging and the policy's decision in one
 * documented order, so that a program and the simulator run the same
 * sequence of calls into the pieces.
 */
#include "herdpolicy.h"
#include "herdpolicy/plugin.h"
#include "names.h"
#include "attempt.h"
#include "classes.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const deny_names[HP_DENY_COUNT] = {"none", "deadline", "throttled", "breaker", "wait", "plugin"};

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

/* What a plugin's callbacks read of the call (see hp_plugin_in), into *in
 * (the decision's fields are the caller's to set). */
static inline void plugin_in(hp_plugin_in *in, const hp_call *call, const hp_policy *p, const hp_plugin_use *use,
                             double now_s)
{
    in->now_s = now_s;
    in->policy = p;
    in->deadline_s = call->st.deadline_s;
    in->attempts = call->st.attempts;
    in->retries = call->st.retries;
    in->tool = use->tool;
}

/* hp_call_admit, with the plugin's admit after the attempt is counted
 * (use NULL: none; a constant where inlined). */
static inline __attribute__((always_inline)) hp_admit admit_core(hp_client *c, hp_call *call, const hp_policy *p,
                                                                hp_plugin_use *use, double now_s, double u)
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
    if (use && use->plugin->admit) {
        hp_plugin_in in = {.n_uniforms = 0, .result = {.retry_after_s = HP_NO_RETRY_AFTER}};
        plugin_in(&in, call, p, use, now_s);
        if (!use->plugin->admit(use->config, use->client, use->call, &in)) {
            a.deny = HP_DENY_PLUGIN;
            return a;
        }
    }
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

hp_admit hp_call_admit(hp_client *c, hp_call *call, const hp_policy *p, double now_s, double u)
{
    return admit_core(c, call, p, NULL, now_s, u);
}

hp_admit hp_call_admit_plugin(hp_client *c, hp_call *call, const hp_policy *p, hp_plugin_use *use, double now_s,
                              double u)
{
    return use ? admit_core(c, call, p, use, now_s, u) : admit_core(c, call, p, NULL, now_s, u);
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

/* The plugin's decision (step 5 with a plugin), every returned value
 * checked: a refused one sets use->error and gives up. */
static hp_decision plugin_decide(hp_call *call, const hp_policy *p, hp_plugin_use *use, hp_result r, double now_s,
                                 const double *u)
{
    hp_plugin_in in;
    plugin_in(&in, call, p, use, now_s);
    in.n_uniforms = use->n_uniforms;
    in.u = u;
    in.result = r;
    in.cls = classify_inline(r.outcome);
    hp_plugin_out out = {0};
    use->error = NULL;
    use->plugin->decide(use->config, use->client, use->call, &in, &out);
    use->note = out.note;
    hp_decision d = {.action = HP_GIVE_UP, .reason = HP_REASON_NONE, .cls = in.cls};
    if (out.action != HP_DONE_OK && out.action != HP_RETRY && out.action != HP_GIVE_UP) {
        use->error = "returned an unknown action; expected HP_DONE_OK (0), HP_RETRY (1) or HP_GIVE_UP (2)";
        use->error_value = out.action;
        return d;
    }
    if (out.reason < 0 || out.reason >= HP_REASON_COUNT) {
        use->error = "returned an unknown reason; expected an hp_reason";
        use->error_value = out.reason;
        return d;
    }
    if (out.action == HP_RETRY && !(out.delay_s >= 0 && out.delay_s <= DBL_MAX)) {
        use->error = "returned a delay that is not a finite number >= 0";
        use->error_value = out.delay_s;
        return d;
    }
    d.action = (hp_action)out.action;
    d.reason = out.action == HP_GIVE_UP ? (hp_reason)out.reason : HP_REASON_NONE;
    if (d.action == HP_RETRY) {
        d.delay_s = out.delay_s;
        d.retry_after_used = out.retry_after_used != 0;
        if (call->st.retries < UINT32_MAX)
            call->st.retries++;
    }
    return d;
}

/* hp_call_outcome, with the plugin's decision as step 5 (use NULL: none). */
static inline __attribute__((always_inline)) hp_decision outcome_core(hp_client *c, hp_call *call,
                                                                    const hp_policy *p, hp_plugin_use *use,
                                                                    hp_result r, double now_s, const double *u)
{
    if (c)
        observe(c, call, p, r.outcome, now_s);
    hp_decision d = use ? plugin_decide(call, p, use, r, now_s, u) : hp_decide_result(p, &call->st, r, now_s, u[0]);
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

hp_decision hp_call_outcome(hp_client *c, hp_call *call, const hp_policy *p, hp_result r, double now_s, double u)
{
    return outcome_core(c, call, p, NULL, r, now_s, &u);
}

hp_decision hp_call_outcome_plugin(hp_client *c, hp_call *call, const hp_policy *p, hp_plugin_use *use, hp_result r,
                                   double now_s, const double *u)
{
    return use ? outcome_core(c, call, p, use, r, now_s, u) : outcome_core(c, call, p, NULL, r, now_s, u);
}

double hp_client_hedge_next(const hp_client *c, uint32_t copies)
{
    if (!c || !c->opts.hedging || copies >= hp_hedge_max(&c->hedge))
        return INFINITY;
    return hp_hedge_delay(&c->hedge);
}

void hp_call_start_plugin(hp_call *call, const hp_policy *p, hp_plugin_use *use, double now_s)
{
    hp_call_start(call, p, now_s);
    if (use) {
        hp_plugin_in in = {.result = {.retry_after_s = HP_NO_RETRY_AFTER}};
        plugin_in(&in, call, p, use, now_s);
        if (use->plugin->call_size)
            memset(use->call, 0, use->plugin->call_size);
        use->plugin->call_start(use->config, use->client, use->call, &in);
    }
}

void hp_call_finish_plugin(hp_client *c, hp_call *call, const hp_policy *p, hp_plugin_use *use, double now_s)
{
    if (use && use->plugin->finish) {
        hp_plugin_in in = {.result = {.retry_after_s = HP_NO_RETRY_AFTER}};
        plugin_in(&in, call, p, use, now_s);
        use->plugin->finish(use->config, use->client, use->call, &in);
    }
    hp_call_finish(c, call, now_s);
}

void hp_call_finish(hp_client *c, hp_call *call, double now_s)
{
    if (limited(c) && (call->flags & HP_CALL_RETRY_HELD))
        hp_limiter_on_retry_end(&c->limiter, now_s);
    call->flags &= ~(uint32_t)HP_CALL_RETRY_HELD;
    call->retry_cost = 0;
}

/* ---- the plugin handshake (herdpolicy/plugin.h) ---- */

const char *hp_plugin_check(const hp_plugin *d, char *err, size_t n)
{
    static const struct {
        const char *name;
        size_t off;
        uint32_t want;
    } fields[] = {
        {"magic", offsetof(hp_plugin_magic, magic), HP_PLUGIN_MAGIC_WORD},
        {"abi_version", offsetof(hp_plugin_magic, abi_version), HP_PLUGIN_ABI_VERSION},
        {"desc_size", offsetof(hp_plugin_magic, desc_size), (uint32_t)sizeof(hp_plugin)},
        {"policy_size", offsetof(hp_plugin_magic, policy_size), (uint32_t)sizeof(hp_policy)},
        {"in_size", offsetof(hp_plugin_magic, in_size), (uint32_t)sizeof(hp_plugin_in)},
        {"pointer_size", offsetof(hp_plugin_magic, pointer_size), (uint32_t)sizeof(void *)},
    };
    if (!d) {
        snprintf(err, n, "the entry returned NULL; expected a descriptor");
        return err;
    }
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        uint32_t got;
        memcpy(&got, (const char *)&d->magic + fields[i].off, sizeof got);
        if (got == fields[i].want)
            continue;
        if (i == 0)
            snprintf(err, n, "magic is 0x%08x, expected 0x%08x (not a herd plugin descriptor)", got, fields[i].want);
        else if (i == 1)
            snprintf(err, n, "abi_version is %u, this herd speaks %u (rebuild against this herdpolicy/plugin.h)", got,
                     fields[i].want);
        else if (i == 2 && got < fields[i].want)
            snprintf(err, n, "desc_size is %u, ABI version %u needs %u (a short descriptor)", got,
                     HP_PLUGIN_ABI_VERSION, fields[i].want);
        else
            snprintf(err, n, "%s is %u, this herd has %u (built against another header or machine)", fields[i].name,
                     got, fields[i].want);
        return err;
    }
    if (d->flags & ~HP_PLUGIN_KNOWN_FLAGS) {
        snprintf(err, n, "flags 0x%x has unknown bits; expected HP_PLUGIN_* (0x%x)", d->flags, HP_PLUGIN_KNOWN_FLAGS);
        return err;
    }
    if (d->n_uniforms > HP_PLUGIN_MAX_UNIFORMS) {
        snprintf(err, n, "n_uniforms is %u, at most %u", d->n_uniforms, HP_PLUGIN_MAX_UNIFORMS);
        return err;
    }
    if (!d->name || !*d->name || !d->version) {
        snprintf(err, n, "the descriptor has no name or version");
        return err;
    }
    if (!d->configure || !d->call_start || !d->decide) {
        snprintf(err, n, "%s has no %s callback (configure, call_start and decide are required)", d->name,
                 !d->configure ? "configure" : !d->call_start ? "call_start" : "decide");
        return err;
    }
    return NULL;
}
