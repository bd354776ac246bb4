/*
 * client.c - clients of the closed population.
 *
 * Each client runs requests_per_client logical requests in sequence.  A
 * logical request picks a tool (its side effect and retry policy), then is
 * a loop of attempts: send (one network delay to the server), wait for the
 * reply or the attempt's timeout (min(attempt timeout, what is left of the
 * budget)), then ask the policy library what follows: done, retry after a
 * sleep (the backoff, or the server's Retry-After), or give up.
 *
 * Stale events cost O(1): every attempt bumps client.tag, so a timeout or a
 * reply carrying an older tag (or arriving while the client is not
 * waiting) belongs to an attempt that is already over.  A stale reply is a
 * late reply: the server did the work and nobody used it.
 */
#include "model.h"

#include <math.h>

#include "dist.h"

static void finish(model *md, uint32_t id, hp_decision d);

static void send_attempt(model *md, uint32_t id)
{
    sim_t *sim = md->sim;
    client *c = &md->clients[id];
    const hp_policy *p = &md->tool_policy[c->tool];
    double timeout = hp_attempt_timeout(p, &c->retry, sim_now(sim));
    if (!(timeout > 0)) {
        /* the budget is spent: nothing is sent */
        finish(md, id, (hp_decision){.action = HP_GIVE_UP, .reason = HP_REASON_BUDGET});
        return;
    }
    hp_on_attempt(&c->retry);
    c->tag++;
    c->waiting = 1;
    model_after(md, &md->cfg->delay, md->delay_lane, RNG_NETWORK, EV_ARRIVE, id, c->tag, (int32_t)c->done, 0);
    if (isinf(timeout))
        return;
    if (md->timeout_lane >= 0 && timeout == sim->lane[md->timeout_lane].delay)
        sim_schedule_lane(sim, md->timeout_lane, EV_TIMEOUT, id, c->tag, 0, 0);
    else
        sim_schedule(sim, timeout, EV_TIMEOUT, id, c->tag, 0);
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
        md->op[(uint64_t)id * md->cfg->requests_per_client + c->done] |= OP_CLIENT_OK;
    } else {
        md->m.failures++;
        if (d.reason == HP_REASON_ATTEMPTS)
            md->m.gave_up_attempts++;
        else if (d.reason == HP_REASON_NON_RETRYABLE)
            md->m.non_retryable_failures++;
        else if (d.reason == HP_REASON_UNKNOWN_OUTCOME)
            md->m.unknown_outcomes++;
        else if (d.reason == HP_REASON_BUDGET)
            md->m.gave_up_budget++;
    }
    md->m.completion_time_s = now;
    c->done++;
    md->open--;
    if (c->done < md->cfg->requests_per_client)
        sim_schedule(sim, dist_sample(&md->cfg->think, sim_rng(sim, RNG_ARRIVALS)), EV_START, id, 0, 0);
}

static void outcome(model *md, uint32_t id, int out, double retry_after_s)
{
    sim_t *sim = md->sim;
    client *c = &md->clients[id];
    c->waiting = 0;
    hp_class cls = hp_classify(out);
    if (cls == HP_CLASS_NOT_IMPLEMENTED || cls == HP_CLASS_BAD_REQUEST || cls == HP_CLASS_AUTH ||
        cls == HP_CLASS_NOT_FOUND)
        md->m.non_retryable_replies++;
    ts_bucket *b = model_bucket(md);
    if (b) {
        if (cls == HP_CLASS_OK)
            b->successes++;
        else
            b->errors++;
    }
    double u = sim_uniform(sim, RNG_BACKOFF);
    hp_result r = {.outcome = out, .retry_after_s = retry_after_s};
    hp_decision d = hp_decide_result(&md->tool_policy[c->tool], &c->retry, r, sim_now(sim), u);
    if (d.action == HP_RETRY) {
        md->m.retries++;
        md->m.retries_after_honoured += d.retry_after_used;
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
    uint32_t id = ev->obj;
    client *c = &md->clients[id];
    uint64_t op = (uint64_t)id * md->cfg->requests_per_client + c->done;

    /* Two draws per request whatever the scenario, so that variants keep
     * their arrival streams aligned (common random numbers). */
    gsl_rng *r = sim_rng(sim, RNG_ARRIVALS);
    double ut = gsl_rng_uniform(r), uc = gsl_rng_uniform(r);
    uint32_t t = 0;
    while (t + 1 < md->ntools && ut >= md->tool_cum[t])
        t++;
    c->tool = (uint8_t)t;
    hp_side_effect e = scn_tool_effect(md->cfg, t);
    md->op[op] = e == HP_EFFECT_READ ? 0 : e == HP_EFFECT_DESTRUCTIVE ? OP_WRITE | OP_DESTRUCTIVE : OP_WRITE;
    if (md->content)
        md->content[op] = c->done > 0 && uc < md->cfg->content_collision_p ? md->content[op - 1] : (uint32_t)op;

    c->req_start = sim_now(sim);
    hp_state_start(&c->retry, &md->tool_policy[t], c->req_start);
    send_attempt(md, id);
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
        if (ev->arg != 429)
            md->m.wasted_work_s += ev->aux; /* the service time of a served attempt */
        return;
    }
    outcome(md, ev->obj, ev->arg, ev->arg == 429 ? ev->aux : -1);
}

void client_timeout(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)sim;
    model *md = ctx;
    client *c = &md->clients[ev->obj];
    if (!c->waiting || c->tag != ev->tag)
        return; /* the attempt already ended: a cancelled timer */
    md->m.timeouts++;
    outcome(md, ev->obj, HP_OUTCOME_TIMEOUT, -1);
}
