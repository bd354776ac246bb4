/*
 * server.c - the capacity-limited server: `workers` attempts in service, a
 * waiting room of `queue` places served in the order of [server]
 * queue_discipline (discipline.h), outages, a background error mix, a
 * token-bucket rate limit, lost replies, side effects and an idempotency-key
 * store.
 *
 * An arriving attempt is, in this order:
 *   1. inside a fail_fast outage: answered at once with the outage status;
 *      inside a black_hole outage: accepted and never answered;
 *   2. without a token in the rate limiter's bucket: answered 429 at once,
 *      with a Retry-After (none, fixed, or the whole seconds until a token;
 *      or milliseconds with retry_after_format ms / both): the limiter
 *      stands in front of the backend, so it answers before any error;
 *   3. inside a partial outage, with probability error_p: answered at once
 *      with the outage status;
 *   4. with probability error_rate_NNN: answered at once with NNN;
 *   5. sheddable ([clients] / [tool] priority) while the share of busy
 *      workers is above shed_sheddable_above: answered 503 at once
 *      (counted as shed; shed.h);
 *   6. with drop_expired, when the deadline it carries has passed
 *      already: skipped, unanswered (expired_skipped);
 *   7. with a concurrency limiter (limiter.h), when the attempts it
 *      admitted and that are still open are at its limit: answered 503 at
 *      once (counted as concurrency_rejected); an admitted attempt is a
 *      sample of the limiter when it is answered (its RTT: from arrival
 *      to the reply's departure), or a drop (onDropped) when CoDel drops
 *      it or drop_expired skips it from the queue;
 *   8. served by a free worker, or queued, or, with workers and queue
 *      full, answered 503 at once (the concurrency limiter, if any,
 *      forgets it without a sample).  A worker that frees takes the next
 *      waiting attempt in the discipline's order (disc->next), after
 *      CoDel (codel_target_s) has dropped, when the queue is overloaded,
 *      those that waited longer than its target (503, counted as
 *      codel_dropped); with drop_expired it skips, unserved and
 *      unanswered, a taken attempt whose deadline has passed (counted as
 *      expired_skipped: no service time, its client has timed out) and
 *      takes the next.
 * The partial outage's and the background errors' draws are made on
 * arrival, before the rate limiter (one uniform each, whatever follows),
 * and a connection_refused among them refuses the attempt before it.
 * "connection_refused" (as an outage status or an error rate) means the
 * server process never sees the attempt: the host refuses the connection.
 * Such attempts are counted as `refused`, not as calls or arrivals; every
 * other attempt, even one answered with an error at once, is a call.
 * Attempts already in service or queued when an outage begins are served.
 *
 * Entering service, an attempt of a non-read operation meets the key store
 * (with [idempotency] keys = logical_op or content_hash; `attempt` keys are
 * new every time, so the store never matches them):
 *   unique_constraint: a key with a stored result is answered from the
 *     store (no execution); a key whose first execution is still running
 *     is answered 409 (the store rejects the second insert); otherwise the
 *     key is marked running and the operation executes;
 *   check_then_act: a key with a stored result is answered from the store;
 *     otherwise it executes, and the key is stored only when it completes,
 *     so two attempts in service at once both execute.
 * Lookups cost the same service time as executions.  An execution of a
 * non-read operation is a side effect; a second one of the same logical
 * operation is a duplicate, except a delete, which finds nothing and
 * answers 404.  A served reply is lost with probability reply_loss_rate:
 * the work and the effect stay.  Replies travel back through the network
 * with a fresh one-way delay.  Costs: O(1) per event.
 */
#include "model.h"

#include <math.h>

#include "../base/alloc.h"
#include "sample.h"

/* An arrival turned away for load (the healthy baseline's count). */
static inline void turn_away(ts_bucket *b)
{
    if (b)
        b->turned_away++;
}

static void reply(model *md, uint32_t c, uint32_t tag, int outcome, float aux)
{
    if (md->ahead)
        client_answer(md, c, tag, outcome, aux); /* the client computes what follows now */
    else
        model_hop(md, EV_REPLY, c, tag, outcome, aux);
}

/* Accumulates busy-worker time up to now (only after warm-up); call before
 * every change of md->busy. */
static void busy_tick(model *md)
{
    double now = sim_now(md->sim), from = md->busy_since > md->spec->warmup_s ? md->busy_since : md->spec->warmup_s;
    if (now > from)
        md->busy_area += md->busy * (now - from);
    md->busy_since = now;
}

/* The key-store index of an operation's key, or -1 if the store does not
 * apply (a read, no keys, or per-attempt keys). */
static int64_t store_key(const model *md, uint64_t op)
{
    if (!md->op || !(md->op[op] & OP_WRITE)) /* no flags: no writes (spec_keeps_op_flags) */
        return -1;
    switch (md->spec->keys) {
    case SPEC_KEYS_LOGICAL_OP:
        return (int64_t)op;
    case SPEC_KEYS_CONTENT_HASH:
        return md->content[op];
    default:
        return -1;
    }
}

/* An attempt (of request `req` of client c) that arrived at `arrived`
 * enters service now. */
static void start_service(model *md, uint32_t c, uint32_t tag, uint32_t req, double arrived, uint32_t lim)
{
    double now = sim_now(md->sim);
    if (arrived >= md->spec->warmup_s) {
        md->m.served++;
        md->wait_sum += now - arrived;
        md->wait_sq_sum += (now - arrived) * (now - arrived);
        if (now > arrived)
            md->waited++;
    }
    uint64_t op = (uint64_t)c * md->spec->requests_per_client + req;
    int64_t key = store_key(md, op);
    int what = SERVE_EXECUTE;
    if (key >= 0) {
        uint8_t *k = &md->op[key];
        if (*k & OP_KEY_DONE)
            what = SERVE_STORED;
        else if (md->spec->enforcement == SPEC_ENFORCE_UNIQUE && (*k & OP_KEY_BUSY))
            what = SERVE_CONFLICT;
        else if (md->spec->enforcement == SPEC_ENFORCE_UNIQUE)
            *k |= OP_KEY_BUSY;
    }
    int32_t arg = (int32_t)(req | (uint32_t)what << 29);
    /* with a concurrency limiter, aux carries the attempt's limiter slot
     * (exact in a float: slots are below 2^24) and the slot its service
     * time */
    bool limited = md->lim.kind != SPEC_CL_NONE;
    if (md->service_lane >= 0 && !(md->spec->load_slowdown > 0) && !md->cap) {
        if (limited)
            lim_set_service(&md->lim, lim, md->spec->service.a);
        sim_schedule_lane(md->sim, md->service_lane, EV_DONE, c, tag, arg,
                          limited ? (float)lim : (float)md->spec->service.a);
    } else {
        double s = dist_sample(&md->spec->service, md->data, sim_rng(md->sim, RNG_SERVICE)) / md->speed;
        if (md->spec->load_slowdown > 0)
            s *= 1 + md->spec->load_slowdown * (double)model_inflight(md) / md->spec->workers;
        if (limited)
            lim_set_service(&md->lim, lim, (float)s);
        sim_schedule_aux(md->sim, s, EV_DONE, c, tag, arg, limited ? (float)lim : (float)s);
    }
}

/* The index of bucket b of the series (SIZE_MAX for NULL): what an event
 * keeps across a reply, since a client computing ahead may grow the
 * series (a new array) while the server answers (client.c). */
static size_t bucket_index(const model *md, const ts_bucket *b)
{
    return b ? (size_t)(b - md->ts.b) : SIZE_MAX;
}

/* Records the level after a change; bi is the index of the bucket fetched
 * before it, so a bucket opened by this event starts from the level
 * before the change. */
static void note_inflight(model *md, size_t bi)
{
    ts_bucket *b = bi < md->ts.len ? &md->ts.b[bi] : NULL;
    uint32_t n = model_inflight(md);
    if (n > md->m.peak_inflight)
        md->m.peak_inflight = n;
    if (b && n > b->in_flight)
        b->in_flight = n;
    if (md->stop_inflight && n >= md->stop_inflight && !md->level_hit) {
        md->level_hit = true; /* model_advance: the level is reached */
        sim_stop(md->sim);
    }
}

/* The outage in force now, or NULL. */
static const spec_outage *current_outage(model *md)
{
    double now = sim_now(md->sim);
    uint32_t n = md->spec->noutages;
    while (md->outage < n && md->spec->outages[md->outage].end_s <= now)
        md->outage++;
    return spec_outage_at(md->spec, md->outage, now);
}

/* Where the counts of an arriving attempt go (model_op_m of its logical
 * operation: EV_ARRIVE carries the request index). */
static inline metrics *arrival_m(model *md, const eq_event *ev)
{
    return model_op_m(md, (uint64_t)ev->obj * md->spec->requests_per_client + (uint32_t)ev->arg);
}

/* An attempt refused at connect never reaches the server process: it is
 * not a call and not an arrival, and the refusal takes one hop back. */
static void refuse(model *md, const eq_event *ev)
{
    server_count_refused(arrival_m(md, ev), model_bucket(md));
    reply(md, ev->obj, ev->tag, HP_OUTCOME_CONN_REFUSED, 0);
}

bool server_take_token(const model_spec *spec, double *tokens, double *tokens_at, double now, double *retry_after)
{
    double burst = spec->burst > 0 ? spec->burst : fmax(1, spec->rate_limit_rps);
    *tokens = fmin(burst, *tokens + (now - *tokens_at) * spec->rate_limit_rps);
    *tokens_at = now;
    if (*tokens >= 1) {
        *tokens -= 1;
        return true;
    }
    bool seconds = spec->retry_after_format == SPEC_RA_SECONDS;
    switch (spec->retry_after) {
    case SPEC_RA_FIXED:
        *retry_after = seconds ? spec->retry_after_s : ceil(spec->retry_after_s * 1000) / 1000;
        break;
    case SPEC_RA_HONEST: /* whole seconds, rounded up, as HTTP sends it; or milliseconds */
        *retry_after = seconds ? ceil((1 - *tokens) / spec->rate_limit_rps)
                               : ceil((1 - *tokens) / spec->rate_limit_rps * 1000) / 1000;
        break;
    default: /* no Retry-After; X-RateLimit-Reset alone travels in its place */
        *retry_after = spec->ratelimit_reset ? ceil((1 - *tokens) / spec->rate_limit_rps) : -1;
        break;
    }
    return false;
}

static bool admit(model *md, double *retry_after)
{
    return server_take_token(md->spec, &md->tokens, &md->tokens_at, sim_now(md->sim), retry_after);
}

void server_arrive(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    const model_spec *spec = md->spec;

    const spec_outage *o = current_outage(md);
    int partial = 0; /* a partial outage's error for this attempt */
    if (o && o->mode == SPEC_OUTAGE_PARTIAL) {
        if (sim_uniform(sim, RNG_ERRORS) < o->error_p)
            partial = o->outcome;
        o = NULL; /* otherwise the server works as usual */
    }
    if (spec_outage_refuses(o) || partial == HP_OUTCOME_CONN_REFUSED) {
        arrival_m(md, ev)->outage_errors++;
        refuse(md, ev);
        return;
    }
    int error = 0;
    if (!o && (spec->nerrors || md->cap)) {
        /* the capacity timeline's 503s first, then the background mix */
        double u = sim_uniform(sim, RNG_ERRORS), acc = md->cap_err;
        if (u < acc)
            error = 503;
        for (uint32_t i = 0; i < spec->nerrors && !error; i++) {
            acc += spec->errors[i].p;
            if (u < acc)
                error = spec->errors[i].outcome;
        }
        if (error == HP_OUTCOME_CONN_REFUSED) {
            arrival_m(md, ev)->background_errors++;
            refuse(md, ev);
            return;
        }
    }

    metrics *m = arrival_m(md, ev);
    m->calls++;
    uint64_t op = (uint64_t)ev->obj * spec->requests_per_client + (uint32_t)ev->arg;
    if (md->op_tool && model_op_tm(md, op, md->op_tool[op]))
        md->tm[md->op_tool[op]].calls++;
    ts_bucket *b = model_bucket(md);
    size_t bi = bucket_index(md, b);
    if (b)
        b->arrivals++;
    if (o) {
        m->outage_errors++;
        if (o->mode == SPEC_OUTAGE_FAIL_FAST)
            reply(md, ev->obj, ev->tag, o->outcome, 0);
        return;
    }
    /* the rate limiter stands in front of the failing backend: an attempt
     * without a token is answered 429 whatever error it would have met */
    double ra;
    int room;
    if (spec->rate_limit_rps > 0 && !admit(md, &ra)) {
        m->status_429++;
        turn_away(b);
        reply(md, ev->obj, ev->tag, 429, (float)ra);
        return;
    }
    if (partial) {
        m->outage_errors++;
        reply(md, ev->obj, ev->tag, partial, 0);
        return;
    }
    if (error) {
        m->background_errors++;
        reply(md, ev->obj, ev->tag, error, 0);
        return;
    }
    if (spec->shed_sheddable_above > 0 && (md->op[op] & OP_SHEDDABLE) &&
        shed_rejects(spec->shed_sheddable_above, md->busy, md->workers_now)) {
        m->shed++;
        turn_away(b);
        reply(md, ev->obj, ev->tag, 503, spec->overload_signal ? AUX_OVERLOADED : 0.0f);
        return;
    }
    if (spec->drop_expired && shed_expired(sim_now(sim), ev->aux, sim_now(sim))) {
        m->expired_skipped++; /* its deadline passed on the way: nobody waits for it */
        turn_away(b);
        return;
    }
    /* the concurrency limiter stands in front of the workers and the queue */
    int64_t lim = lim_acquire(&md->lim, sim_now(sim));
    if (lim < 0) {
        if (lim == -2) {
            sim_fail(sim); /* out of memory growing the limiter's slots */
            return;
        }
        m->concurrency_rejected++;
        turn_away(b);
        reply(md, ev->obj, ev->tag, 503, spec->overload_signal ? AUX_OVERLOADED : 0.0f);
        return;
    }
    if (md->busy < md->workers_now) {
        busy_tick(md);
        md->busy++;
        codel_took(&md->cd, 0); /* served at once: no queueing time */
        start_service(md, ev->obj, ev->tag, (uint32_t)ev->arg, sim_now(sim), (uint32_t)lim);
    } else if ((room = md->disc->admit(&md->q)) > 0) {
        md->disc->enqueue(&md->q, (qslot){ev->obj, ev->tag, sim_now(sim), (uint32_t)ev->arg, (uint32_t)lim, ev->aux});
    } else {
        if (room < 0)
            sim_fail(sim); /* out of memory growing the queue */
        lim_ignore(&md->lim, (uint32_t)lim); /* never reached the workers: onIgnore */
        m->rejected++;
        turn_away(b);
        reply(md, ev->obj, ev->tag, 503, spec->overload_signal ? AUX_OVERLOADED : 0.0f);
        return;
    }
    note_inflight(md, bi);
}

/* The end of a service: the effect, the key store, the reply. */
static void complete(model *md, const eq_event *ev)
{
    uint32_t req = (uint32_t)ev->arg & ((1u << 29) - 1), what = (uint32_t)ev->arg >> 29;
    float service = ev->aux;
    if (md->lim.kind != SPEC_CL_NONE) { /* the sample: answered now (onSuccess) */
        uint32_t slot = (uint32_t)ev->aux;
        service = (float)lim_service(&md->lim, slot);
        lim_release(&md->lim, slot, sim_now(md->sim), false);
    }
    uint64_t op = (uint64_t)ev->obj * md->spec->requests_per_client + req;
    int outcome = 200;
    if (what == SERVE_CONFLICT) {
        outcome = 409;
    } else if (what == SERVE_EXECUTE && md->op && (md->op[op] & OP_WRITE)) {
        if (md->effect_at)
            md->effect_at[op] = (float)sim_now(md->sim);
        tool_metrics sink = {0}, *tm = model_op_tm(md, op, md->op_tool ? md->op_tool[op] : 0);
        metrics *m = model_op_m(md, op);
        if (!tm)
            tm = &sink;
        if (!(md->op[op] & OP_EFFECT)) {
            m->effects++;
            tm->effects++;
            md->op[op] |= OP_EFFECT;
        } else if (md->op[op] & OP_DESTRUCTIVE) {
            outcome = 404; /* deleted already: nothing left to delete */
        } else {
            m->effects++;
            m->duplicate_effects++;
            tm->effects++;
            tm->duplicate_effects++;
        }
        int64_t key = store_key(md, op);
        if (key >= 0)
            md->op[key] = (uint8_t)((md->op[key] | OP_KEY_DONE) & ~OP_KEY_BUSY);
    }
    if (md->spec->reply_loss_rate > 0 && sim_uniform(md->sim, RNG_ERRORS) < md->spec->reply_loss_rate) {
        metrics *m = model_op_m(md, op);
        m->replies_lost++;
        m->wasted_work_s += service;
        return;
    }
    reply(md, ev->obj, ev->tag, outcome, service);
}

/* Takes the attempt a free worker serves now into *s: with CoDel
 * overloaded, the attempts that waited longer than its target are first
 * dropped (503, codel_dropped), oldest first; with drop_expired, taken
 * attempts whose deadline has passed are skipped (expired_skipped, no
 * reply) until one has time left.  Returns false when none is left
 * waiting.  O(1) amortised: each attempt leaves the queue once. */
static bool take_next(model *md, qslot *s)
{
    double now = sim_now(md->sim);
    if (md->spec->codel_target_s > 0 && md->q.len && codel_begin(&md->cd, now)) {
        while (md->q.len && now - disc_oldest(&md->q)->enqueued > md->cd.target) {
            qslot d = md->disc->drop(&md->q);
            codel_took(&md->cd, now - d.enqueued);
            lim_release(&md->lim, d.lim, now, true); /* dropped unserved: onDropped */
            model_op_m(md, (uint64_t)d.client * md->spec->requests_per_client + d.req)->codel_dropped++;
            turn_away(model_bucket(md));
            reply(md, d.client, d.tag, 503, md->spec->overload_signal ? AUX_OVERLOADED : 0.0f);
        }
    }
    while (md->q.len) {
        *s = md->disc->next(&md->q, now);
        codel_took(&md->cd, now - s->enqueued);
        if (!(md->spec->drop_expired && shed_expired(s->enqueued, s->carried, now)))
            return true;
        lim_release(&md->lim, s->lim, now, true); /* skipped unserved (deadline exceeded): onDropped */
        model_op_m(md, (uint64_t)s->client * md->spec->requests_per_client + s->req)->expired_skipped++;
        turn_away(model_bucket(md));
    }
    return false;
}

void server_done(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)sim;
    model *md = ctx;
    size_t bi = bucket_index(md, model_bucket(md));
    complete(md, ev);
    qslot s;
    if (md->busy <= md->workers_now && take_next(md, &s)) { /* this worker is still one of those serving */
        start_service(md, s.client, s.tag, s.req, s.enqueued, s.lim);
    } else {
        busy_tick(md);
        md->busy--;
    }
    note_inflight(md, bi);
}

/* Starts queued attempts while workers are free (after capacity grew). */
static void drain_queue(model *md)
{
    size_t bi = bucket_index(md, model_bucket(md));
    qslot s;
    while (md->busy < md->workers_now && take_next(md, &s)) {
        busy_tick(md);
        md->busy++;
        start_service(md, s.client, s.tag, s.req, s.enqueued, s.lim);
    }
    note_inflight(md, bi);
}

/* A row of the capacity timeline takes effect: round(workers_factor x
 * workers) serve from now on (attempts in service beyond the new number
 * finish; no new one starts until fewer are busy), service times are
 * divided by speed_factor, and error_rate of arriving attempts get 503.
 * The next row is scheduled: one pending event at a time. */
void server_capacity(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    const spec_entry *e = md->cap;
    uint32_t r = (uint32_t)ev->arg, n = e->n;
    const double *t = md->data->v + e->off;
    double w = floor(t[n + r] * md->spec->workers + 0.5);
    md->workers_now = w < 4e9 ? (uint32_t)w : UINT32_MAX;
    md->speed = t[2 * (size_t)n + r];
    md->cap_err = t[3 * (size_t)n + r];
    if (r + 1 < n && t[r + 1] < md->spec->horizon_s)
        sim_schedule(sim, t[r + 1] - sim_now(sim), EV_CAPACITY, 0, 0, (int32_t)(r + 1));
    drain_queue(md);
}
