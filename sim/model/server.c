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

#include "../engine/alloc.h"
#include "dist.h"

static void reply(model *md, uint32_t c, uint32_t tag, int outcome)
{
    model_after(md, &md->cfg->delay, md->delay_lane, RNG_NETWORK, EV_REPLY, c, tag, outcome);
}

/* Records the level after a change; b is the bucket fetched before it, so
 * a bucket opened by this event starts from the level before the change. */
/* Doubles the queue ring (up to cfg->queue places), unwrapping it.
 * Returns 0, or -1 with the simulation marked failed. */
static int queue_grow(model *md)
{
    uint32_t ncap = md->qcap ? md->qcap : 64;
    while (ncap <= md->qlen && ncap < md->cfg->queue)
        ncap = ncap > UINT32_MAX / 2 ? UINT32_MAX : ncap * 2;
    if (ncap > md->cfg->queue)
        ncap = md->cfg->queue;
    qslot *n = herd_malloc_array(ncap, sizeof *n);
    if (!n) {
        md->sim->failed = true;
        sim_stop(md->sim);
        return -1;
    }
    for (uint32_t i = 0; i < md->qlen; i++)
        n[i] = md->queue[(md->qhead + i) % md->qcap];
    herd_free(md->queue);
    md->queue = n;
    md->qhead = 0;
    md->qcap = ncap;
    return 0;
}

/* Accumulates busy-worker time up to now (only after warm-up); call before
 * every change of md->busy. */
static void busy_tick(model *md)
{
    double now = sim_now(md->sim), from = md->busy_since > md->cfg->warmup_s ? md->busy_since : md->cfg->warmup_s;
    if (now > from)
        md->busy_area += md->busy * (now - from);
    md->busy_since = now;
}

/* An attempt that arrived at `arrived` enters service now. */
static void start_service(model *md, uint32_t c, uint32_t tag, double arrived)
{
    double now = sim_now(md->sim);
    if (arrived >= md->cfg->warmup_s) {
        md->m.served++;
        md->wait_sum += now - arrived;
        if (now > arrived)
            md->waited++;
    }
    model_after(md, &md->cfg->service, md->service_lane, RNG_SERVICE, EV_DONE, c, tag, 0);
}

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
        busy_tick(md);
        md->busy++;
        start_service(md, ev->obj, ev->tag, sim_now(sim));
    } else if (md->qlen < cfg->queue && (md->qlen < md->qcap || queue_grow(md) == 0)) {
        uint32_t slot = md->qhead + md->qlen;
        if (slot >= md->qcap)
            slot -= md->qcap;
        md->queue[slot] = (qslot){ev->obj, ev->tag, sim_now(sim)};
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
        md->qhead = md->qhead + 1 == md->qcap ? 0 : md->qhead + 1;
        md->qlen--;
        start_service(md, s.client, s.tag, s.enqueued);
    } else {
        busy_tick(md);
        md->busy--;
    }
    note_inflight(md, b);
}
