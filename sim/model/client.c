/*
 * client.c - clients of the closed population.
 *
 * Each client runs requests_per_client logical requests in sequence.  A
 * logical request is a loop of attempts: send (one network delay to the
 * server), wait for the reply or the per-attempt timeout, then ask the
 * policy library what follows: done, retry after a sleep, or give up.
 *
 * Stale events cost O(1): every attempt bumps client.tag, so a timeout or a
 * reply carrying an older tag (or arriving while the client is not
 * waiting) belongs to an attempt that is already over.  A stale reply is a
 * late reply: the server did the work and nobody used it.
 */
#include "model.h"

#include "dist.h"

static void send_attempt(model *md, uint32_t id)
{
    sim_t *sim = md->sim;
    client *c = &md->clients[id];
    hp_on_attempt(&c->retry);
    c->tag++;
    c->waiting = 1;
    model_after(md, &md->cfg->delay, md->delay_lane, RNG_NETWORK, EV_ARRIVE, id, c->tag, 0);
    if (md->timeout_lane >= 0)
        sim_schedule_lane(sim, md->timeout_lane, EV_TIMEOUT, id, c->tag, 0);
    else if (md->cfg->attempt_timeout_s > 0)
        sim_schedule(sim, md->cfg->attempt_timeout_s, EV_TIMEOUT, id, c->tag, 0);
}

static void finish(model *md, uint32_t id, hp_decision d)
{
    sim_t *sim = md->sim;
    client *c = &md->clients[id];
    double now = sim_now(sim);
    if (c->req_start >= md->cfg->warmup_s)
        md->latency[md->nlatency++] = now - c->req_start;
    if (d.action == HP_DONE_OK) {
        md->m.successes++;
    } else {
        md->m.failures++;
        if (d.reason == HP_REASON_ATTEMPTS)
            md->m.gave_up_attempts++;
        else if (d.reason == HP_REASON_NON_RETRYABLE)
            md->m.non_retryable_failures++;
        else if (d.reason == HP_REASON_UNKNOWN_OUTCOME)
            md->m.unknown_outcomes++;
    }
    md->m.completion_time_s = now;
    c->done++;
    md->open--;
    if (c->done < md->cfg->requests_per_client)
        sim_schedule(sim, dist_sample(&md->cfg->think, sim_rng(sim, RNG_ARRIVALS)), EV_START, id, 0, 0);
}

static void outcome(model *md, uint32_t id, int out)
{
    sim_t *sim = md->sim;
    client *c = &md->clients[id];
    c->waiting = 0;
    ts_bucket *b = model_bucket(md);
    if (b) {
        if (hp_classify(out) == HP_CLASS_OK)
            b->successes++;
        else
            b->errors++;
    }
    double u = sim_uniform(sim, RNG_BACKOFF);
    hp_decision d = hp_decide(&md->policy, &c->retry, out, sim_now(sim), u);
    if (d.action == HP_RETRY) {
        md->m.retries++;
        if (b)
            b->retries_scheduled++;
        sim_schedule(sim, d.delay_s, EV_SEND, id, 0, 0);
    } else {
        finish(md, id, d);
    }
}

void client_start(sim_t *sim, const eq_event *ev, void *ctx)
{
    model *md = ctx;
    client *c = &md->clients[ev->obj];
    c->req_start = sim_now(sim);
    hp_state_init(&c->retry, &md->policy);
    send_attempt(md, ev->obj);
}

void client_send(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)sim;
    send_attempt(ctx, ev->obj);
}

void client_reply(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)sim;
    model *md = ctx;
    client *c = &md->clients[ev->obj];
    if (!c->waiting || c->tag != ev->tag) {
        md->m.late_replies++;
        return;
    }
    outcome(md, ev->obj, ev->arg);
}

void client_timeout(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)sim;
    model *md = ctx;
    client *c = &md->clients[ev->obj];
    if (!c->waiting || c->tag != ev->tag)
        return; /* the attempt already ended: a cancelled timer */
    md->m.timeouts++;
    outcome(md, ev->obj, HP_OUTCOME_TIMEOUT);
}
