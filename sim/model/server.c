/*
 * server.c - the capacity-limited server: `workers` attempts in service, a
 * FIFO waiting room of `queue` places, outages and a background error mix.
 *
 * An arriving attempt is, in this order:
 *   1. inside a fail_fast outage: answered at once with the outage status;
 *      inside a black_hole outage: accepted and never answered;
 *   2. with probability error_rate_NNN: answered at once with NNN;
 *   3. served by a free worker, or queued, or, with workers and queue
 *      full, answered 503 at once.
 * "connection_refused" (as an outage status or an error rate) means the
 * server process never sees the attempt: the host refuses the connection.
 * Such attempts are counted as `refused`, not as calls or arrivals; every
 * other attempt, even one answered with an error at once, is a call.
 * Attempts already in service or queued when an outage begins are served.
 * Replies travel back through the network with a fresh one-way delay.
 * Costs: O(1) per event (the outage index only moves forward in time).
 */
#include "model.h"

#include "dist.h"

static void reply(model *md, uint32_t c, uint32_t tag, int outcome)
{
    model_after(md, &md->cfg->delay, md->delay_lane, RNG_NETWORK, EV_REPLY, c, tag, outcome);
}

/* Records the level after a change; b is the bucket fetched before it, so
 * a bucket opened by this event starts from the level before the change. */
static void note_inflight(model *md, ts_bucket *b)
{
    uint32_t n = model_inflight(md);
    if (n > md->m.peak_inflight)
        md->m.peak_inflight = n;
    if (b && n > b->in_flight)
        b->in_flight = n;
}

/* The outage in force now, or NULL. */
static const scn_outage *current_outage(model *md)
{
    double now = sim_now(md->sim);
    uint32_t n = md->cfg->noutages;
    while (md->outage < n && md->outages[md->outage].end_s <= now)
        md->outage++;
    if (md->outage < n && md->outages[md->outage].start_s <= now)
        return &md->outages[md->outage];
    return NULL;
}

/* An attempt refused at connect never reaches the server process: it is
 * not a call and not an arrival, and the refusal takes one hop back. */
static void refuse(model *md, const eq_event *ev)
{
    md->m.refused++;
    ts_bucket *b = model_bucket(md);
    if (b)
        b->refused++;
    reply(md, ev->obj, ev->tag, HP_OUTCOME_CONN_REFUSED);
}

void server_arrive(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    const scn_config *cfg = md->cfg;

    const scn_outage *o = current_outage(md);
    if (o && o->mode == SCN_OUTAGE_FAIL_FAST && o->outcome == HP_OUTCOME_CONN_REFUSED) {
        md->m.outage_errors++;
        refuse(md, ev);
        return;
    }
    int error = 0;
    if (!o && cfg->nerrors) {
        double u = sim_uniform(sim, RNG_ERRORS), acc = 0;
        for (uint32_t i = 0; i < cfg->nerrors && !error; i++) {
            acc += cfg->errors[i].p;
            if (u < acc)
                error = cfg->errors[i].outcome;
        }
        if (error == HP_OUTCOME_CONN_REFUSED) {
            md->m.background_errors++;
            refuse(md, ev);
            return;
        }
    }

    md->m.calls++;
    ts_bucket *b = model_bucket(md);
    if (b)
        b->arrivals++;
    if (o) {
        md->m.outage_errors++;
        if (o->mode == SCN_OUTAGE_FAIL_FAST)
            reply(md, ev->obj, ev->tag, o->outcome);
        return;
    }
    if (error) {
        md->m.background_errors++;
        reply(md, ev->obj, ev->tag, error);
        return;
    }
    if (md->busy < cfg->workers) {
        md->busy++;
        model_after(md, &cfg->service, md->service_lane, RNG_SERVICE, EV_DONE, ev->obj, ev->tag, 0);
    } else if (md->qlen < cfg->queue) {
        uint32_t slot = md->qhead + md->qlen;
        if (slot >= cfg->queue)
            slot -= cfg->queue;
        md->queue[slot] = (qslot){ev->obj, ev->tag};
        md->qlen++;
    } else {
        md->m.rejected++;
        reply(md, ev->obj, ev->tag, 503);
        return;
    }
    note_inflight(md, b);
}

void server_done(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)sim;
    model *md = ctx;
    ts_bucket *b = model_bucket(md);
    reply(md, ev->obj, ev->tag, 200);
    if (md->qlen) {
        qslot s = md->queue[md->qhead];
        md->qhead = md->qhead + 1 == md->cfg->queue ? 0 : md->qhead + 1;
        md->qlen--;
        model_after(md, &md->cfg->service, md->service_lane, RNG_SERVICE, EV_DONE, s.client, s.tag, 0);
    } else {
        md->busy--;
    }
    note_inflight(md, b);
}
