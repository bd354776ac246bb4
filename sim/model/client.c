/*
 * client.c - clients of the closed population, with layered retries.
 *
 * Each client runs requests_per_client logical requests in sequence,
 * grouped into tasks of task_steps requests (a task succeeds only if every
 * step does; after a failed step the rest of the task is skipped).  A
 * logical request picks a tool (its side effect), then runs a stack of
 * retry loops, layer 0 outermost ([layer NAME] sections; without them one
 * layer with the tool's policy).  One attempt of layer k runs the whole
 * loop of layer k+1; the innermost layer sends attempts to the server,
 * waits for the reply or the attempt's timeout and asks the policy library
 * what follows.  When a loop ends, what crosses the boundary is a
 * structured result (layer_result: success, or the give-up reason, the last
 * outcome and its class, a Retry-After, the server's "overloaded" signal),
 * from which the layer above decides.  With propagate_deadline, an inner
 * loop's deadline is bounded by what is left of the outer attempt's.
 *
 * An llm layer thinks (think_time_s) before each call, re-issues a failed
 * call with probability reissue_p, and repeats a successful one with
 * probability repeat_p; with dedup_window_s, a repeated write whose effect
 * happened within the window is intercepted and answered from the earlier
 * result.
 *
 * Stale events cost O(1): every server attempt bumps client.tag, so a
 * timeout or a reply carrying an older tag (or arriving while the client is
 * not waiting) belongs to an attempt that is already over.  A stale reply is
 * a late reply: the server did the work and nobody used it.
 *
 * Computing ahead (md->ahead, set by model_init when no client step reads
 * or writes anything shared: one layer, no [limits] mechanism, no
 * adaptive send rate, no hedging, no connection pool, no send or reply
 * cost, no window: spec_computes_ahead; the occ server's reads and
 * writes as occ.c says).  Then a client's steps between two server
 * events are computed when the server answers,
 * at the times they would happen: the reply one network hop later, the
 * policy's decision, the backoff, the next attempt sent (its arrival
 * scheduled) or the request finished.  Nothing else can touch the client
 * meanwhile: its attempt ends with that reply or with its timeout, and
 * which comes first is known (the reply's time against client.tmo_at).  The
 * timeout is an event only where it can fire first: scheduled at the send
 * when the attempt arrives no sooner, else at the arrival when the server
 * does not answer at once (queued, in service, black-holed).  The results
 * are those of the event-by-event run, with the draws in another order
 * (each when its client's step is computed), and an attempt answered at
 * once costs one event instead of four.  What lies beyond the current
 * sim_run's end stays an event (EV_REPLY, EV_SEND), handled as before.
 * md->vnow is the client side's clock (sim_now but while computing ahead).
 *
 * With [run] window_s, a logical operation is flagged OP_COUNTED when it
 * starts inside the window, and every per-request count (client side here,
 * server side in server.c) goes through model_op_m / model_client_m to the
 * run's metrics only for a flagged operation: an attempt counts towards its
 * logical request's start time, in O(1), without a scan.
 */
#include "model.h"

#include <assert.h>
#include <math.h>

#include "client_state.h"
#include "sample.h"

static inline uint64_t op_of(const model *md, uint32_t id)
{
    return (uint64_t)id * md->spec->requests_per_client + md->clients[id].done;
}

static void layer_done(model *md, uint32_t id, uint32_t k, const layer_result *r);
static void layer_attempt(model *md, uint32_t id, uint32_t k);

/* The three steps of the retry loop (attempt_in, decide_in, outcome_in)
 * are compiled twice: for any scenario, and for clients computed ahead
 * (`ahead` a constant true: one layer, no guard, no [limits] mechanism,
 * no connection pool, spec_computes_ahead), where the branches for what
 * cannot occur fold away.  One source: layer_attempt and outcome pick the
 * copy from md->ahead; layer_decide, an outer layer's, is never ahead. */
#define STEP static inline __attribute__((always_inline))

/* Schedules a client event `delay` after the client side's clock: as
 * sim_schedule when it is the engine's, else at md->vnow + delay. */
static inline void after(model *md, double delay, uint32_t type, uint32_t id, uint32_t tag, int32_t arg)
{
    if (md->vnow == sim_now(md->sim))
        sim_schedule(md->sim, delay, type, id, tag, arg);
    else
        sim_schedule_at(md->sim, md->vnow + delay, type, id, tag, arg, 0);
}

STEP bool answer(model *md, uint32_t id, uint32_t tag, int out, float aux, double at);
static void take_next_steps(model *md);

/* The timeseries bucket of the client side's clock. */
static inline ts_bucket *client_bucket(model *md) { return model_bucket_at(md, md->vnow); }

/* ahead: the timer of client id's current attempt, at client.tmo_at (none
 * for an attempt without a timeout). */
static void arm_timer(model *md, uint32_t id)
{
    const client *c = &md->clients[id];
    if (c->tmo_at < INFINITY)
        sim_schedule_at(md->sim, c->tmo_at, EV_TIMEOUT, id, c->tag, 0, 0);
}

/* The policy of layer k for the client's current request. */
static inline const hp_policy *policy_of(const model *md, uint32_t id, uint32_t k, const bool ahead)
{
    /* ahead: no [layer] sections (spec_computes_ahead) */
    return !ahead && md->spec->nlayers ? &md->layer_policy[k] : &md->tool_policy[md->clients[id].tool];
}

static inline const spec_layer *layer_cfg(const model *md, uint32_t k)
{
    return md->spec->nlayers ? &md->spec->layers[k] : NULL;
}

static void finish(model *md, uint32_t id, hp_decision d)
{
    sim_t *sim = md->sim;
    client *c = &md->clients[id];
    const model_spec *spec = md->spec;
    double now = md->vnow;
    uint64_t op = op_of(md, id);
    metrics *m = model_op_m(md, op);
    if (model_measured(md, c->req_start)) {
        md->m.measured_ok += d.action == HP_DONE_OK;
        if (md->latency)
            md->latency[md->nlatency] = now - c->req_start;
        else
            lh_add(md->hist, now - c->req_start);
        md->nlatency++;
    }
    tool_metrics *tm = model_op_tm(md, op, c->tool);
    if (tm) {
        tm->successes += d.action == HP_DONE_OK;
        tm->failures += d.action != HP_DONE_OK;
        tm->unknown_outcomes += d.action != HP_DONE_OK && d.reason == HP_REASON_UNKNOWN_OUTCOME;
    }
    if (md->window && (md->op[op] & OP_COUNTED))
        md->w_open--;
    if (d.action == HP_DONE_OK) {
        m->successes++;
        ts_bucket *b = client_bucket(md);
        if (b)
            b->goodput++;
        if (md->op) /* read only for a write (lost_operations) */
            md->op[op] |= OP_CLIENT_OK;
    } else {
        m->failures++;
        c->flags |= CL_TASK_FAILED;
        if (d.reason == HP_REASON_ATTEMPTS)
            m->gave_up_attempts++;
        else if (d.reason == HP_REASON_NON_RETRYABLE)
            m->non_retryable_failures++;
        else if (d.reason == HP_REASON_UNKNOWN_OUTCOME)
            m->unknown_outcomes++;
        else if (d.reason == HP_REASON_BUDGET)
            m->gave_up_budget++;
    }
    /* a task counts where its first step started */
    metrics *mt = model_op_m(md, op - c->done % spec->task_steps);
    if (now > md->m.completion_time_s) /* clients ahead finish out of order */
        md->m.completion_time_s = now;
    c->done++;
    md->open--;
    uint32_t steps = spec->task_steps;
    if (c->done % steps != 0 && (c->flags & CL_TASK_FAILED)) {
        /* a failed step ends its task: the remaining steps are skipped */
        uint32_t skip = steps - c->done % steps;
        c->done += skip;
        md->open -= skip;
    }
    if (c->done % steps == 0) {
        mt->tasks++;
        if (!(c->flags & CL_TASK_FAILED)) {
            mt->task_successes++;
            if (mt == &md->m)
                md->task_latency_sum += now - (md->task_start ? md->task_start[id] : c->req_start);
        }
        c->flags &= ~CL_TASK_FAILED & 0xfu;
    }
    if (c->done < spec->requests_per_client)
        after(md, dist_sample(&spec->think, md->data, sim_rng(sim, RNG_ARRIVALS)), EV_START, id, 0, 0);
}

/* Starts the loop of layer k (after a fresh hp_state), bounded by what is
 * left of the outer attempt (deadline_s) when the outer layer propagates
 * its deadline. */
static void layer_start(model *md, uint32_t id, uint32_t k, double deadline_s)
{
    sim_t *sim = md->sim;
    hp_call call;
    hp_plugin_use *use = k + 1 == md->nlayers && md->any_plugin ? model_plugin_use(md, id) : NULL;
    hp_call_start_plugin(&call, policy_of(md, id, k, false), use, md->vnow);
    if (deadline_s < call.st.deadline_s)
        call.st.deadline_s = deadline_s;
    if (k + 1 == md->nlayers)
        call_store(md, id, &call, false);
    else
        st_store(md, id, k, &call.st);
    const spec_layer *L = layer_cfg(md, k);
    if (L && L->kind == SPEC_LAYER_LLM)
        after(md, dist_sample(&L->think, md->data, sim_rng(sim, RNG_ARRIVALS)), EV_SEND, id, 0, (int32_t)k);
    else
        layer_attempt(md, id, k);
}

/* What hp_call_admit decides without a client (computing ahead: no guard
 * state exists), from the policy's own calls in its order: the attempt's
 * timeout (none left: the deadline denies it), then the attempt counted.
 * ahead_is_event_by_event (tests/test_model.c) holds the two to the same
 * results. */
static inline hp_admit admit_alone(const hp_policy *p, hp_state *st, double now)
{
    hp_admit a = {.deny = HP_DENY_NONE, .timeout_s = hp_attempt_timeout(p, st, now), .hedge_after_s = INFINITY};
    if (!(a.timeout_s > 0)) {
        a.deny = HP_DENY_DEADLINE;
        a.timeout_s = 0;
        return a;
    }
    hp_on_attempt(st);
    a.allowed = true;
    return a;
}

/* One attempt of layer k of client id (see layer_attempt).  `loaded`: the
 * innermost call as the caller holds it, newer than the client record, and
 * its policy lp (computing ahead, a retry decided just now): this attempt
 * takes it over; NULL: read the record. */
STEP void attempt_in(model *md, uint32_t id, uint32_t k, const bool ahead, hp_call *loaded, const hp_policy *lp)
{
    sim_t *sim = md->sim;
    client *c = &md->clients[id];
    const hp_policy *p = lp ? lp : policy_of(md, id, k, ahead);
    const model_spec *spec = md->spec;
    double now = md->vnow;
    bool innermost = ahead || k + 1 == md->nlayers;
    hp_call own, *call = loaded ? loaded : &own;
    if (!loaded)
        own = innermost ? call_load(md, id, ahead) : (hp_call){.st = st_load(md, id, k)};
    /* throttling reads a uniform; drawn only then, to keep the streams of
     * scenarios without it as they were */
    double u = !ahead && innermost && spec->guard.throttling ? sim_uniform(sim, RNG_BACKOFF) : 0;
    /* the state of the client's instance; none to keep when computing ahead */
    hp_client *guard = innermost && !ahead ? model_guard(md, id) : NULL;
    if (!ahead && innermost && spec->guard.breaker)
        mech_breaker(md); /* the time in the breaker's state so far, before it may change */
    /* a plugin takes part in the admission only with an admit callback */
    hp_plugin_use *use = innermost && md->any_plugin && md->plug[c->tool] && md->plug[c->tool]->admit
                             ? model_plugin_use(md, id) : NULL;
    hp_admit a = use     ? hp_call_admit_plugin(guard, call, p, use, now, u)
                 : ahead ? admit_alone(p, &call->st, now)
                         : hp_call_admit(guard, call, p, now, u);
    if (!ahead && innermost && md->mech)
        mech_after_admit(md, &a);
    if (a.deny == HP_DENY_WAIT) { /* AWS adaptive mode: the token comes after a.wait_s */
        call_store(md, id, call, ahead);
        after(md, a.wait_s, EV_SEND, id, 0, (int32_t)k);
        return;
    }
    if (a.deny == HP_DENY_DEADLINE) { /* the budget is spent: nothing is sent */
        if (loaded)
            call_store(md, id, call, ahead); /* the call as decided: a denial changes nothing */
        layer_result r = {.d = {.action = HP_GIVE_UP, .reason = HP_REASON_BUDGET}, .outcome = HP_OUTCOME_TIMEOUT,
                          .retry_after_s = -1};
        layer_done(md, id, k, &r);
        return;
    }
    if (!innermost) {
        st_store(md, id, k, &call->st);
        const spec_layer *L = layer_cfg(md, k);
        double bound = L && L->propagate_deadline ? now + a.timeout_s : INFINITY;
        layer_start(md, id, k + 1, bound);
        return;
    }
    call_store(md, id, call, ahead);
    if (!a.allowed) { /* client-side protections, shared by the clients of an instance */
        metrics *m = model_client_m(md, id);
        m->throttled += a.deny == HP_DENY_THROTTLED;
        m->breaker_rejected += a.deny == HP_DENY_BREAKER;
        layer_result r = {.d = {.action = HP_GIVE_UP, .reason = HP_REASON_NON_RETRYABLE}, .outcome = 503,
                          .retry_after_s = -1};
        layer_done(md, id, k, &r); /* fails fast, locally: not a call */
        return;
    }
    c->tag++; /* odd: waiting for this attempt */
    assert(c->tag & 1);
    if (ahead) {
        /* it arrives one hop from now; its timer, only if it cannot
         * arrive before it fires (else at the arrival, if needed) */
        double hop = dist_sample(&spec->delay, md->data, sim_rng(sim, RNG_NETWORK)), arrive = now + hop;
        c->tmo_at = now + a.timeout_s;
        bool armed = !(hop < a.timeout_s); /* no answer can come first */
        if (armed)
            arm_timer(md, id);
        if (arrive <= sim->until && server_refused_ahead(md, id, arrive)) {
            /* refused at connect: its answer now; the timer, if it comes first */
            if (!answer(md, id, c->tag, HP_OUTCOME_CONN_REFUSED, 0, arrive) && !armed)
                arm_timer(md, id);
            return;
        }
        /* with drop_expired it carries its deadline: its timeout, whole (model_send) */
        sim_schedule_at(sim, arrive, EV_ARRIVE, id, c->tag, (int32_t)c->done,
                        spec->drop_expired ? shed_carried(a.timeout_s, 0) : 0);
        return;
    }
    if (md->pool)
        host_acquire(md, id, a.timeout_s); /* sent when its host has a free connection */
    else
        model_send(md, EV_ARRIVE, id, c->tag, (int32_t)c->done, a.timeout_s);
    if (md->att_deadline)
        md->att_deadline[id] = now + a.timeout_s;
    if (a.hedge_after_s < INFINITY)
        after(md, a.hedge_after_s, EV_HEDGE, id, c->tag, 0);
    if (isinf(a.timeout_s))
        return;
    if (md->timeout_lane >= 0 && a.timeout_s == md->spec->policy.attempt_timeout_s)
        sim_schedule_lane(sim, md->timeout_lane, EV_TIMEOUT, id, c->tag, 0, 0);
    else
        after(md, a.timeout_s, EV_TIMEOUT, id, c->tag, 0);
}

/* One attempt of layer k: the innermost sends to the server through the
 * library's client (adaptive send rate, deadline, throttling, breaker,
 * limiter, hedging), the others run the loop of the next layer. */
static void layer_attempt(model *md, uint32_t id, uint32_t k)
{
    if (md->ahead)
        attempt_in(md, id, 0, true, NULL, NULL);
    else
        attempt_in(md, id, k, false, NULL, NULL);
}

/* retry_after_seen when the server sent a value (raw >= 0). */
static double retry_after_read(const model *md, const hp_policy *p, double raw, double *reset, int out)
{
    const model_spec *spec = md->spec;
    if (spec->ratelimit_reset && out == 429 && p->ra_reset)
        *reset = ceil(raw);
    if (out == 429 && spec->retry_after == SPEC_RA_NONE)
        return -1; /* only X-RateLimit-Reset was sent */
    switch (spec->retry_after_format) {
    case SPEC_RA_MS:
        return p->ra_ms ? raw : -1;
    case SPEC_RA_BOTH:
        return p->ra_ms ? raw : ceil(raw);
    case SPEC_RA_SECONDS:
    default:
        return raw;
    }
}

/* The Retry-After policy p reads from what the server sent (raw, in the
 * [server] retry_after_format; negative: none), and the X-RateLimit-Reset
 * of a 429 into *reset (0: none).  Clients without retry_after_ms see no
 * ms-only header, and the whole seconds of the standard one with both.
 * Inline: most replies carry none, and that answer needs no call. */
static inline double retry_after_seen(const model *md, const hp_policy *p, double raw, double *reset, int out)
{
    *reset = 0;
    if (!(raw >= 0))
        return -1;
    return retry_after_read(md, p, raw, reset, out);
}

/* Layer k decides what follows its attempt's result r (for the innermost
 * layer: the server's answer; for the others: the inner loop's result).
 * b: the time series' bucket of the client side's clock (client_bucket),
 * which the caller has looked up. */
STEP void decide_in(model *md, uint32_t id, uint32_t k, const layer_result *r, const bool ahead, ts_bucket *b)
{
    sim_t *sim = md->sim;
    client *c = &md->clients[id];
    const hp_policy *p = policy_of(md, id, k, ahead);
    const spec_layer *L = ahead ? NULL : layer_cfg(md, k);
    bool inner = !ahead && k + 1 < md->nlayers;
    hp_state st = inner ? st_load(md, id, k) : (hp_state){0}; /* the innermost's is in its call */
    double now = md->vnow, u = sim_uniform(sim, RNG_BACKOFF);
    int out = r->outcome;
    if (inner && r->d.action != HP_DONE_OK &&
        (r->d.reason == HP_REASON_BUDGET || r->d.reason == HP_REASON_UNKNOWN_OUTCOME))
        out = HP_OUTCOME_TIMEOUT; /* the inner loop ran out of time: no answer */

    if (inner && r->d.action == HP_DONE_OK) {
        if (L && L->kind == SPEC_LAYER_LLM && !(c->flags & CL_REPEATING) && L->repeat_p > 0 && u < L->repeat_p) {
            /* the model calls the tool again although it succeeded */
            model_client_m(md, id)->repeats++;
            uint64_t op = op_of(md, id);
            if (L->dedup_window_s > 0 && md->op && (md->op[op] & OP_EFFECT) &&
                now - md->effect_at[op] <= L->dedup_window_s) {
                model_client_m(md, id)->intercepted++;
            } else {
                c->flags |= CL_REPEATING;
                hp_on_attempt(&st);
                st_store(md, id, k, &st);
                layer_start(md, id, k + 1, INFINITY);
                return;
            }
        }
        c->flags &= ~CL_REPEATING & 0xfu;
        layer_done(md, id, k, r);
        return;
    }
    if (inner && (c->flags & CL_REPEATING)) {
        /* the repeat failed; the first call had succeeded */
        c->flags &= ~CL_REPEATING & 0xfu;
        layer_done(md, id, k, &(layer_result){.d = {.action = HP_DONE_OK}, .outcome = 200, .retry_after_s = -1});
        return;
    }

    hp_decision d;
    hp_call call; /* the innermost's */
    hp_result res = {.outcome = out, .retry_after_s = r->retry_after_s, .overloaded = r->overloaded};
    if (L && L->kind == SPEC_LAYER_LLM && inner) {
        /* the model re-issues a failed call with probability reissue_p,
         * after thinking; the policy's class, attempt and deadline rules */
        hp_state probe = st;
        d = hp_decide_chosen(p, &probe, res, now, 0);
        if (d.reason != HP_REASON_NON_RETRYABLE) { /* the think time is drawn for a call it may re-issue */
            double think = dist_sample(&L->think, md->data, sim_rng(sim, RNG_BACKOFF));
            d = hp_decide_chosen(p, &st, res, now, think);
        }
        if (d.action == HP_RETRY && !(u < L->reissue_p))
            d = (hp_decision){.action = HP_GIVE_UP, .reason = HP_REASON_NON_RETRYABLE, .cls = d.cls};
        st_store(md, id, k, &st);
        if (d.action == HP_RETRY) {
            model_client_m(md, id)->retries++;
            after(md, d.delay_s, EV_SEND, id, 0, (int32_t)k);
            return;
        }
    } else if (inner) {
        res.retry_after_s = retry_after_seen(md, p, r->retry_after_s, &res.reset_s, out);
        hp_call outer = {.st = st}; /* an outer loop: the policy alone */
        d = hp_call_outcome(NULL, &outer, p, res, now, u);
        st_store(md, id, k, &outer.st);
    } else {
        /* the innermost: the library's client learns the outcome (adaptive
         * send rate, hedge tracker, breaker, throttling, limiter), decides,
         * and a retry must pass the limiter */
        res.retry_after_s = retry_after_seen(md, p, r->retry_after_s, &res.reset_s, out);
        call = call_load(md, id, ahead);
        hp_client *guard = ahead ? NULL : model_guard(md, id); /* ahead: nothing shared to learn */
        if (!ahead && md->spec->guard.breaker)
            mech_breaker(md);
        /* without a client (ahead), the client API decides by the policy alone */
        hp_plugin_use *use = md->any_plugin ? model_plugin_use(md, id) : NULL;
        if (use) { /* its uniforms: the one drawn above, then the rest */
            double uu[HP_PLUGIN_MAX_UNIFORMS];
            uu[0] = u;
            for (uint32_t i = 1; i < use->n_uniforms; i++)
                uu[i] = sim_uniform(sim, RNG_BACKOFF);
            d = hp_call_outcome_plugin(guard, &call, p, use, res, now, uu);
            if (use->error)
                model_plugin_failed(md, id, use);
        } else {
            d = ahead ? hp_decide_result(p, &call.st, res, now, u) : hp_call_outcome(guard, &call, p, res, now, u);
        }
        if (!ahead || d.action != HP_RETRY) /* ahead, a retry stores it (below) */
            call_store(md, id, &call, ahead);
        if (!ahead) /* a limiter, which computing ahead excludes */
            model_client_m(md, id)->retries_denied += d.reason == HP_REASON_RETRY_LIMITED;
        if (!ahead && md->mech)
            mech_after_outcome(md, out, &d);
    }
    if (d.action == HP_RETRY) {
        metrics *m = model_client_m(md, id);
        m->retries++;
        m->retries_after_honoured += d.retry_after_used;
        if (b)
            b->retries_scheduled++;
        double at = now + d.delay_s;
        if (ahead && at <= sim->until) { /* the next attempt is sent then, from this call */
            md->vnow = at;
            attempt_in(md, id, 0, true, &call, p);
            md->vnow = now;
        } else {
            if (ahead)
                call_store(md, id, &call, true);
            after(md, d.delay_s, EV_SEND, id, 0, (int32_t)k);
        }
        return;
    }
    layer_done(md, id, k, &(layer_result){.d = d, .outcome = out, .retry_after_s = r->retry_after_s,
                                          .overloaded = r->overloaded});
}

static void layer_decide(model *md, uint32_t id, uint32_t k, const layer_result *r)
{
    decide_in(md, id, k, r, false, client_bucket(md)); /* an outer layer's: never ahead */
}

/* Layer k's loop ended with r: report it to the layer above, or finish. */
static void layer_done(model *md, uint32_t id, uint32_t k, const layer_result *r)
{
    if (k + 1 == md->nlayers && (md->retry_cost || md->plug_finish)) { /* a granted retry never sent is
                                                                       * released; a plugin's finish */
        hp_call call = call_load(md, id, false);
        hp_plugin_use *use = md->plug_finish ? model_plugin_use(md, id) : NULL;
        hp_call_finish_plugin(md->ahead ? NULL : model_guard(md, id), &call, policy_of(md, id, k, false), use,
                              md->vnow);
        call_store(md, id, &call, false);
    }
    if (k == 0)
        finish(md, id, r->d);
    else
        layer_decide(md, id, k - 1, r);
}

/* The innermost layer's attempt ended with a reply or a timeout. */
STEP void outcome_in(model *md, uint32_t id, int out, float aux, const bool ahead)
{
    client *c = &md->clients[id];
    if (!ahead && md->pool)
        host_release(md, id); /* its connection goes to the next attempt waiting */
    c->tag++; /* even: the attempt is over, its other events are stale */
    hp_class cls = hp_classify(out);
    if (cls == HP_CLASS_NOT_IMPLEMENTED || cls == HP_CLASS_BAD_REQUEST || cls == HP_CLASS_AUTH ||
        cls == HP_CLASS_NOT_FOUND)
        model_client_m(md, id)->non_retryable_replies++;
    ts_bucket *b = client_bucket(md);
    if (b) {
        if (cls == HP_CLASS_OK)
            b->successes++;
        else
            b->errors++;
    }
    const model_spec *spec = md->spec;
    double ra = out == 429 ? aux : -1;
    if (out == 503 && spec->retry_after_on_503)
        ra = spec->retry_after_format == SPEC_RA_SECONDS ? spec->retry_after_s
                                                          : ceil(spec->retry_after_s * 1000) / 1000;
    layer_result r = {.outcome = out, .retry_after_s = ra, .overloaded = out == 503 && aux == AUX_OVERLOADED};
    if (ahead)
        decide_in(md, id, 0, &r, true, b);
    else
        decide_in(md, id, md->nlayers - 1, &r, false, b);
}

static void outcome(model *md, uint32_t id, int out, float aux)
{
    if (md->ahead)
        outcome_in(md, id, out, aux, true);
    else
        outcome_in(md, id, out, aux, false);
}

void client_start(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    uint32_t id = ev->obj;
    client *c = &md->clients[id];
    uint64_t op = op_of(md, id);
    md->vnow = sim_now(sim);

    /* Two draws per request whatever the scenario, so that variants keep
     * their arrival streams aligned (common random numbers). */
    gsl_rng *r = sim_rng(sim, RNG_ARRIVALS);
    double ut = gsl_rng_uniform(r), uc = gsl_rng_uniform(r);
    uint32_t t = 0;
    while (t + 1 < md->ntools && ut >= md->tool_cum[t])
        t++;
    c->tool = t & 0xfu;
    if (md->op_tool)
        md->op_tool[op] = (uint8_t)t;
    hp_side_effect e = md->spec->ntools ? md->spec->tools[t].effect : md->spec->side_effect;
    double now = sim_now(sim);
    if (md->op) { /* the flags, where one is read (spec_keeps_op_flags) */
        md->op[op] = e == HP_EFFECT_READ ? 0 : e == HP_EFFECT_DESTRUCTIVE ? OP_WRITE | OP_DESTRUCTIVE : OP_WRITE;
        if (md->spec->ntools ? md->spec->tools[t].sheddable : md->spec->sheddable)
            md->op[op] |= OP_SHEDDABLE;
        if (md->window && now >= md->spec->window_from_s && now < md->spec->window_to_s) {
            md->op[op] |= OP_COUNTED;
            md->w_open++;
        }
    }
    if (model_op_tm(md, op, t))
        md->tm[t].requests++;
    md->m.measured += model_measured(md, now);
    if (md->content)
        md->content[op] = c->done > 0 && uc < md->spec->content_collision_p ? md->content[op - 1] : (uint32_t)op;

    c->req_start = now;
    uint32_t steps = md->spec->task_steps;
    if (md->task_start && c->done % steps == 0)
        md->task_start[id] = c->req_start;
    c->flags &= ~CL_REPEATING & 0xfu;
    ts_bucket *b = client_bucket(md);
    if (b)
        b->offered++;
    layer_start(md, id, 0, INFINITY);
    take_next_steps(md);
}

void client_send(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    md->vnow = sim_now(sim);
    layer_attempt(md, ev->obj, (uint32_t)ev->arg);
    take_next_steps(md);
}

/* The hedge delay passed and the attempt has no reply yet: send a copy
 * (same tag: the first reply wins, the others arrive late). */
void client_hedge(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    client *c = &md->clients[ev->obj];
    md->vnow = sim_now(sim);
    if (c->tag != ev->tag) /* the attempt is over */
        return;
    model_client_m(md, ev->obj)->hedges++;
    model_send(md, EV_ARRIVE, ev->obj, c->tag, (int32_t)c->done,
               md->att_deadline ? md->att_deadline[ev->obj] - sim_now(sim) : INFINITY);
    uint32_t sent = (uint32_t)ev->arg + 1;
    double next = hp_client_hedge_next(model_guard(md, ev->obj), sent);
    if (next < INFINITY)
        sim_schedule(sim, next, EV_HEDGE, ev->obj, c->tag, (int32_t)sent);
}

void client_reply(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    client *c = &md->clients[ev->obj];
    md->vnow = sim_now(sim);
    double cost = md->spec->reply_cost_s;
    if (cost > 0 && c->tag == ev->tag) {
        /* [network] reply_cost_s: read when the host has sent and read
         * what came before it (a late reply is not read: its connection
         * was closed at the timeout) */
        double now = sim_now(sim), *free_at = model_host_free(md, ev->obj);
        *free_at = (*free_at > now ? *free_at : now) + cost;
        sim_schedule_aux(sim, *free_at - now, EV_RECEIVED, ev->obj, ev->tag, ev->arg, ev->aux);
        return;
    }
    client_received(sim, ev, ctx);
}

/* A reply that reached client id after its attempt was over (timed out,
 * or a hedge answered): the server did the work and nobody used it. */
static void late_reply(model *md, uint32_t id, int out, float aux)
{
    metrics *m = model_client_m(md, id);
    m->late_replies++;
    if (out != 429 && aux > 0)
        m->wasted_work_s += aux; /* the service time of a served attempt */
}

/* A reply the client's host has read (at once without reply_cost_s). */
void client_received(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    client *c = &md->clients[ev->obj];
    md->vnow = sim_now(sim);
    if (c->tag != ev->tag) { /* the attempt is over (timed out, or a hedge answered) */
        late_reply(md, ev->obj, ev->arg, ev->aux);
        return;
    }
    if (md->timeout_lane >= 0) /* its timer (most likely on the lane) is cancelled */
        sim_lane_dead(sim, md->timeout_lane);
    outcome(md, ev->obj, ev->arg, ev->aux);
    take_next_steps(md);
}

void client_timeout(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    client *c = &md->clients[ev->obj];
    if (c->tag != ev->tag)
        return; /* the attempt already ended: a cancelled timer */
    md->vnow = sim_now(sim);
    model_client_m(md, ev->obj)->timeouts++;
    outcome(md, ev->obj, HP_OUTCOME_TIMEOUT, 0);
    take_next_steps(md);
}

/* ---- computing ahead (md->ahead; see the top of this file) ---- */

/* The server answers (out, aux as EV_REPLY's) attempt `tag` of client id
 * at time `at` (>= now); the answer reaches the client one network hop
 * later.  If the attempt is then still open (its timeout comes later),
 * what follows is the client's next step (md->next, taken by
 * take_next_steps); if the attempt is over by then, a late reply; beyond
 * the current run's end, or with no time passing (a loop at one instant
 * stays the engine's to stop), an EV_REPLY.  Returns true if the answer
 * comes before the attempt's timeout. */
STEP bool answer(model *md, uint32_t id, uint32_t tag, int out, float aux, double at)
{
    sim_t *sim = md->sim;
    double t = at + dist_sample(&md->spec->delay, md->data, sim_rng(sim, RNG_NETWORK));
    const client *c = &md->clients[id];
    bool first = c->tag == tag && t < c->tmo_at;
    if (t > sim->until || t == md->vnow) {
        sim_schedule_at(sim, t, EV_REPLY, id, tag, out, aux);
    } else if (!first) {
        late_reply(md, id, out, aux); /* its timer fires (or fired) first */
    } else {
        assert(!md->next.due); /* one step at a time: each ends in an event or in the next */
        md->next.t = t;
        md->next.id = id;
        md->next.outcome = out;
        md->next.aux = aux;
        md->next.due = true;
    }
    return first;
}

/* Takes the client's steps computed ahead, one after the other (a chain
 * of refused attempts is a loop, not a recursion). */
static void take_next_steps(model *md)
{
    double now = sim_now(md->sim);
    while (md->next.due) { /* set by answer, computing ahead only */
        md->next.due = false;
        md->vnow = md->next.t;
        outcome_in(md, md->next.id, md->next.outcome, md->next.aux, true);
    }
    md->vnow = now;
}

void client_answer(model *md, uint32_t id, uint32_t tag, int out, float aux)
{
    md->vnow = sim_now(md->sim);
    answer(md, id, tag, out, aux, md->vnow);
    take_next_steps(md);
}

/* EV_ARRIVE when computing ahead: the server takes the attempt; if it is
 * still open after that (queued, in service, swallowed, or answered after
 * its timeout), the client's timer is set now.  (An answer that comes first
 * but lies beyond the run's end leaves it open too: its timer then lies
 * beyond the answer, and finds the attempt over.) */
void client_arrive(sim_t *sim, const eq_event *ev, void *ctx)
{
    server_arrive(sim, ev, ctx);
    client_held(ctx, ev->obj, ev->tag);
}

void client_held(model *md, uint32_t id, uint32_t tag)
{
    if (md->clients[id].tag == tag)
        arm_timer(md, id);
}
