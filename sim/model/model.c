/*
 * model.c - set-up, run and summary of the closed-population model (see
 * model.h); the event handlers live in client.c and server.c.
 */
#include "model.h"

#include "../plugin/loader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "../base/alloc.h"
#include "sample.h"

/* spec/memory.h estimates a simulation's memory from these sizes. */
_Static_assert(sizeof(client) == SPEC_MEM_CLIENT_BYTES, "update SPEC_MEM_CLIENT_BYTES in spec/memory.h");
_Static_assert(sizeof(lh_hist) == SPEC_MEM_LATHIST_BYTES, "update SPEC_MEM_LATHIST_BYTES in spec/memory.h");

void model_take_results(model *md, model_results *out, bool keep_series)
{
    out->m = md->m;
    memcpy(out->tm, md->tm, sizeof out->tm);
    out->ts = (timeseries){0};
    out->ms = (mechseries){0};
    if (keep_series) {
        out->ts = md->ts;
        md->ts = (timeseries){0};
        out->ms = md->ms;
        md->ms = (mechseries){0};
    }
}

/* The smallest time t with floor(t / bs) >= k as computed in floating
 * point (k >= 1), found from k * bs by steps of one ulp (a few at most). */
static double first_time_of(double k, double bs)
{
    double c = k * bs;
    if (floor(c / bs) >= k) {
        for (double p = nextafter(c, -INFINITY); floor(p / bs) >= k; p = nextafter(c, -INFINITY))
            c = p;
    } else {
        do
            c = nextafter(c, INFINITY);
        while (floor(c / bs) < k);
    }
    return c;
}

/* Buckets clients opened ahead, up to bucket `last` (included), that the
 * clock reached (or a run ended) without a server event: their level is
 * the one now, as if a client's event had opened them now. */
static void settle(model *md, size_t last)
{
    for (size_t j = md->ts_real; j <= last && j < md->ts.len; j++)
        md->ts.b[j].in_flight = model_inflight(md);
    if (last >= md->ts_real && last < md->ts.len)
        md->ts_real = last + 1;
}

ts_bucket *model_bucket_slow(model *md)
{
    double bs = md->ts.bucket_s, i = floor(sim_now(md->sim) / bs);
    ts_bucket *b = ts_at(&md->ts, (size_t)i, model_inflight(md));
    if (!b) {
        sim_fail(md->sim);
        return NULL;
    }
    settle(md, (size_t)i); /* buckets opened ahead start from the level now */
    /* the range of times that floor(t / bs) maps to i, exactly */
    bool next = md->ts_hi > 0 && (size_t)i == md->ts_i + 1; /* the usual step: lo is the old hi */
    md->ts_lo = next ? md->ts_hi : i > 0 ? first_time_of(i, bs) : -INFINITY;
    md->ts_i = (size_t)i;
    md->ts_hi = first_time_of(i + 1, bs);
    return b;
}

void model_settle_series(model *md)
{
    double until = md->sim->until;
    settle(md, until < INFINITY ? (size_t)(until / md->ts.bucket_s) : SIZE_MAX - 1);
}

ts_bucket *model_bucket_grow(model *md, size_t i)
{
    ts_bucket *b = ts_at(&md->ts, i, 0);
    if (!b)
        sim_fail(md->sim);
    return b;
}

static int lane_if_constant(sim_t *sim, const dist *d)
{
    return d->kind == DIST_CONSTANT ? sim_lane_for(sim, d->a) : -1;
}

/* The Poisson start rate at time t, and the next time it changes after t
 * (+infinity if never). */
static double rate_at(const model_spec *c, double t)
{
    if (c->spike_rate_per_s > 0 && t >= c->spike_start_s && t < c->spike_end_s)
        return c->spike_rate_per_s;
    if (c->step_rate_per_s > 0 && t >= c->step_at_s)
        return c->step_rate_per_s;
    return c->rate_per_s;
}

static double next_change(const model_spec *c, double t)
{
    double n = INFINITY;
    if (c->step_rate_per_s > 0 && c->step_at_s > t)
        n = fmin(n, c->step_at_s);
    if (c->spike_rate_per_s > 0) {
        if (c->spike_start_s > t)
            n = fmin(n, c->spike_start_s);
        if (c->spike_end_s > t)
            n = fmin(n, c->spike_end_s);
    }
    return n;
}

/* The next Poisson start after t under the piecewise-constant rate: an
 * exponential gap at the current rate, redrawn from each change of rate
 * (exact, by memorylessness). */
double model_next_start(const model_spec *c, double t, gsl_rng *r)
{
    for (;;) {
        double rate = rate_at(c, t), change = next_change(c, t);
        double gap = rate > 0 ? gsl_ran_exponential(r, 1.0 / rate) : INFINITY;
        if (t + gap < change)
            return t + gap;
        if (isinf(change))
            return t + gap; /* rate 0 for ever: validation forbids it */
        t = change;
    }
}

/* The next arrival of a trace's non-homogeneous Poisson stream after the
 * position *pos, by inversion of the integrated rate: the level rises by
 * an exponential(1) draw and the time where the integral reaches it is
 * solved exactly in its segment (a step rate: level / rate; a linear
 * rate: the root of a quadratic).  +infinity after the trace's last row.
 * The segment cursor only moves forward: O(1) amortised per arrival. */
static double trace_next(const spec_table *data, const spec_entry *e, bool linear, trace_pos *pos, gsl_rng *r)
{
    const double *t = spec_trace_t(data, e), *rate = spec_trace_rate(data, e), *cum = spec_trace_cum(data, e, linear);
    pos->level += gsl_ran_exponential(r, 1.0);
    while (pos->seg + 1 < e->n && cum[pos->seg + 1] <= pos->level)
        pos->seg++;
    uint32_t i = pos->seg;
    if (i + 1 >= e->n)
        return INFINITY;
    double a = pos->level - cum[i], dt = t[i + 1] - t[i], r0 = rate[i], x;
    if (!(a > 0))
        x = 0;
    else if (!linear)
        x = a / r0;
    else {
        double s = (rate[i + 1] - r0) / dt, disc = r0 * r0 + 2 * s * a;
        x = 2 * a / (r0 + sqrt(disc > 0 ? disc : 0));
    }
    return t[i] + (x < dt ? x : dt);
}

/* The arrivals of one run of a trace (drawn from a copy of the stream). */
static uint64_t trace_count(const spec_table *data, const spec_entry *e, bool linear, gsl_rng *r)
{
    trace_pos pos = {0, 0};
    uint64_t n = 0;
    while (!isinf(trace_next(data, e, linear, &pos, r)))
        n++;
    return n;
}

/* The timer lane's test: a timeout whose attempt is over (the client's tag
 * moved on) does nothing when it fires. */
static bool timer_dead(const eq_event *ev, void *ctx)
{
    const model *md = ctx;
    return md->clients[ev->obj].tag != ev->tag;
}

/* Source lanes of the clients' starts: client i's first request. */
static void burst_start(void *ctx, uint64_t i, eq_event *ev)
{
    (void)ctx;
    *ev = (eq_event){.time = 0, .type = EV_START, .obj = (uint32_t)i};
}

static void poisson_start(void *ctx, uint64_t i, eq_event *ev)
{
    model *md = ctx;
    if (md->spec->start == SPEC_START_TRACE)
        md->start_t = trace_next(md->data, spec_table_entry(md->data, md->spec->trace), md->spec->trace_linear,
                                 &md->start_pos, md->start_rng);
    else
        md->start_t = model_next_start(md->spec, md->start_t, md->start_rng);
    *ev = (eq_event){.time = md->start_t, .type = EV_START, .obj = (uint32_t)i};
}

/* start = trace: the spec of this run, with one client per arrival of
 * the trace (counted on a copy of the arrivals stream; none is a valid
 * count: a quiet replication).  0, or -1 (the data is missing, or the
 * arrivals exceed the room the plan made: md->trace_over is then their
 * number). */
static int trace_clients(model *md, const model_spec *spec, sim_t *sim)
{
    const spec_entry *e = spec_table_entry(md->data, spec->trace);
    if (!e || e->kind != SPEC_DATA_TRACE)
        return -1;
    gsl_rng *copy = gsl_rng_clone(sim_rng(sim, RNG_ARRIVALS));
    if (!copy)
        return -1;
    uint64_t n = trace_count(md->data, e, spec->trace_linear, copy);
    gsl_rng_free(copy);
    if (n > spec->clients) {
        md->trace_over = n; /* beyond ten standard deviations of the count (see scn_trace_clients) */
        return -1;
    }
    md->local = *spec;
    md->local.clients = (uint32_t)n;
    md->spec = &md->local;
    return 0;
}

/* The retry plugins of the tools (spec_tool.plugin, [retry]'s for the
 * implicit tool) and their state blocks: per client, one block per tool
 * with a plugin and one call block (a client runs one call at a time). */
static int plugins_init(model *md)
{
    const model_spec *spec = md->spec;
    size_t n = spec->clients;
    for (uint32_t t = 0; t < md->ntools; t++) {
        const hpl_instance *in = spec->ntools ? spec->tools[t].plugin : spec->plugin;
        if (!in)
            continue;
        md->plug[t] = in->desc;
        md->plug_use[t] = (hp_plugin_use){.plugin = in->desc, .config = in->config, .tool = t,
                                          .n_uniforms = in->n_uniforms};
        md->plug_client_off[t] = md->plug_client_stride;
        md->plug_client_stride += (in->desc->client_size + 15u) & ~(size_t)15;
        size_t call = (in->desc->call_size + 15u) & ~(size_t)15;
        if (call > md->plug_call_stride)
            md->plug_call_stride = call;
        md->plug_finish |= in->desc->finish != NULL;
        md->any_plugin = true;
    }
    if (!md->any_plugin)
        return 0;
    if (md->plug_client_stride && !(md->plug_client = herd_calloc(n, md->plug_client_stride)))
        return -1;
    if (md->plug_call_stride && !(md->plug_call = herd_calloc(n, md->plug_call_stride)))
        return -1;
    return 0;
}

void model_plugin_failed(model *md, uint32_t id, const hp_plugin_use *u)
{
    if (!md->plug_why[0])
        snprintf(md->plug_why, sizeof md->plug_why, "plugin %s: client %u at t = %.9g s: %s (got %g)%s%s",
                 u->plugin->name, id, md->vnow, u->error, u->error_value, u->note ? ": " : "",
                 u->note ? u->note : "");
    sim_fail(md->sim);
}

int model_init(model *md, const model_spec *spec, const spec_table *data, hp_strategy strategy, sim_t *sim)
{
    memset(md, 0, sizeof *md);
    md->spec = md->given = spec;
    md->data = data;
    md->sim = sim;
    if (spec->start == SPEC_START_TRACE) {
        if (trace_clients(md, spec, sim) != 0)
            return -1;
        spec = md->spec;
    }
    md->workers_now = spec->workers;
    disc_init(&md->q, spec);
    md->disc = disc_for(spec->queue_discipline);
    codel_init(&md->cd, spec->codel_target_s, spec->codel_interval_s);
    lim_init(&md->lim, spec);
    md->speed = 1;
    md->cap = spec_table_entry(data, spec->capacity);
    md->ntools = spec->ntools ? spec->ntools : 1;
    double wsum = 0, acc = 0;
    for (uint32_t t = 0; t < spec->ntools; t++)
        wsum += spec->tools[t].weight;
    for (uint32_t t = 0; t < md->ntools; t++) {
        md->tool_policy[t] = spec->ntools ? spec->tools[t].policy : spec->policy;
        if (!(spec->ntools && spec->tools[t].own_strategy))
            md->tool_policy[t].strategy = strategy;
        acc += spec->ntools ? spec->tools[t].weight / wsum : 1;
        md->tool_cum[t] = acc;
    }
    hp_client_init(&md->guard, &spec->guard, 0); /* zero fields: the defaults */
    md->nlayers = spec->nlayers ? spec->nlayers : 1;
    for (uint32_t l = 0; l < spec->nlayers; l++) {
        md->layer_policy[l] = spec->layers[l].policy;
        if (!spec->layers[l].own_strategy)
            md->layer_policy[l].strategy = strategy;
    }
    md->tokens = spec->burst > 0 ? spec->burst : (spec->rate_limit_rps > 1 ? spec->rate_limit_rps : 1);
    md->ts.bucket_s = spec->bucket_s;
    md->ts.max = (size_t)spec->max_buckets;
    double last_bucket = floor(spec->horizon_s / spec->bucket_s) + 1; /* events at the horizon run */
    md->ts.max_len = last_bucket < 1e15 ? (size_t)last_bucket + 1 : 0;
    md->m.clients = spec->clients;
    md->window = spec_has_window(spec);
    md->mech = spec->guard.breaker || spec->guard.throttling || spec->guard.limiter.kind != HP_LIMITER_NONE;
    md->m.mechanisms = md->mech;
    uint64_t total = (uint64_t)spec->clients * spec->requests_per_client;
    md->open = total;

    if (instance_init(md) != 0)
        return -1;
    if (host_init(md) != 0)
        return -1;

    /* Per client: the record, and only the arrays this scenario uses. */
    size_t n = spec->clients;
    bool decorrelated = false, deadline = spec->nlayers > 1; /* an outer layer may propagate one */
    for (uint32_t t = 0; t < md->ntools && !spec->nlayers; t++) {
        decorrelated |= md->tool_policy[t].strategy == HP_DECORRELATED_JITTER;
        deadline |= md->tool_policy[t].budget_s > 0;
    }
    if (spec->nlayers) {
        decorrelated = md->layer_policy[spec->nlayers - 1].strategy == HP_DECORRELATED_JITTER;
        deadline |= md->layer_policy[spec->nlayers - 1].budget_s > 0;
    }
    md->clients = herd_calloc(n, sizeof *md->clients);
    if (!md->clients)
        return -1;
    if (plugins_init(md) != 0)
        return -1;
    if (md->nlayers > 1 && !(md->outer = herd_calloc(n * (md->nlayers - 1), sizeof *md->outer)))
        return -1;
    if (decorrelated && !(md->prev_sleep = herd_calloc(n, sizeof *md->prev_sleep)))
        return -1;
    if (deadline && !(md->deadline = herd_calloc(n, sizeof *md->deadline)))
        return -1;
    if (spec->task_steps > 1 && !(md->task_start = herd_calloc(n, sizeof *md->task_start)))
        return -1;
    if (spec->guard.limiter.kind != HP_LIMITER_NONE && !(md->retry_cost = herd_calloc(n, sizeof *md->retry_cost)))
        return -1;
    if (spec->guard.hedging && !(md->sent_at = herd_calloc(n, sizeof *md->sent_at)))
        return -1;
    if (spec->guard.hedging && spec->drop_expired && !(md->att_deadline = herd_calloc(n, sizeof *md->att_deadline)))
        return -1;
    md->bare_call = md->nlayers == 1 && !md->prev_sleep && !md->deadline && !md->retry_cost && !md->sent_at;
    /* clients computed ahead (client.c) when none of their steps reads or
     * writes what another client or the server shares (spec.h) */
    md->ahead = spec_computes_ahead(spec);
    if (total <= MODEL_EXACT_LATENCIES)
        md->latency = herd_malloc_array(total, sizeof *md->latency);
    else
        md->hist = lh_new();
    if (!md->latency && !md->hist)
        return -1;
    /* the operations' flags, where one is read (spec_keeps_op_flags; else NULL) */
    if (spec_keeps_op_flags(spec) && !(md->op = herd_calloc(total, sizeof *md->op)))
        return -1;
    for (uint32_t l = 0; l < spec->nlayers; l++)
        if (spec->layers[l].dedup_window_s > 0 && !md->effect_at &&
            !(md->effect_at = herd_calloc(total, sizeof *md->effect_at)))
            return -1;
    if (spec->keys == SPEC_KEYS_CONTENT_HASH && !(md->content = herd_malloc_array(total, sizeof *md->content)))
        return -1;
    if (spec->ntools > 1 && !(md->op_tool = herd_calloc(total, sizeof *md->op_tool)))
        return -1;

    sim_on(sim, EV_START, client_start, md);
    sim_on(sim, EV_SEND, client_send, md);
    if (spec->kind == SPEC_SERVER_OCC) {
        sim_on(sim, EV_ARRIVE, occ_read_arrive, md);
        sim_on(sim, EV_OCC_READ_REPLY, occ_read_reply, md);
        sim_on(sim, EV_OCC_WRITE, occ_write_arrive, md);
    } else {
        sim_on(sim, EV_ARRIVE, md->ahead ? client_arrive : server_arrive, md);
        sim_on(sim, EV_DONE, server_done, md);
    }
    sim_on(sim, EV_REPLY, client_reply, md);
    sim_on(sim, EV_RECEIVED, client_received, md);
    sim_on(sim, EV_TIMEOUT, client_timeout, md);
    sim_on(sim, EV_HEDGE, client_hedge, md);
    if (md->cap) {
        sim_on(sim, EV_CAPACITY, server_capacity, md);
        if (data->v[md->cap->off] < spec->horizon_s)
            sim_schedule(sim, data->v[md->cap->off], EV_CAPACITY, 0, 0, 0);
    }
    /* every event's obj is a client: have its record in cache in time */
    sim_set_prefetch(sim, md->clients, sizeof *md->clients, spec->clients);
    /* the [retry] timeout: most attempts' (tools and layers may differ) */
    md->timeout_lane = spec->policy.attempt_timeout_s > 0 && !md->ahead
                           ? sim_timer_lane(sim, spec->policy.attempt_timeout_s, timer_dead, md)
                           : -1;
    md->delay_lane = lane_if_constant(sim, &spec->delay);
    md->service_lane = lane_if_constant(sim, &spec->service);
    /* a run that keeps dispatching at one instant is stuck, unless it is
     * this big: every client starting at once, a few events each */
    sim_set_same_time_limit(sim, SIM_SAME_TIME_LIMIT + 64 * total);

    /* Start times come first from the arrivals stream, in client order, so
     * every strategy sees the same ones.  In order of time (burst, poisson)
     * they are produced one by one as the run reaches them (a source lane:
     * no memory per client), from a copy of the stream taken before they
     * were drawn; the stream itself is advanced past them here. */
    gsl_rng *r = sim_rng(sim, RNG_ARRIVALS);
    md->start_lane = -1;
    if (spec->start == SPEC_START_BURST) {
        md->start_lane = sim_source(sim, spec->clients, burst_start, md);
    } else if (spec->start == SPEC_START_POISSON || spec->start == SPEC_START_TRACE) {
        /* gsl_rng_clone uses malloc directly (as rng_new in rng.c):
         * the hook cannot see it, but a NULL return is still handled */
        if (!(md->start_rng = gsl_rng_clone(r)))
            return -1;
        md->start_lane = sim_source(sim, spec->clients, poisson_start, md);
    }
    double t = 0;
    trace_pos pos = {0, 0};
    const spec_entry *trace = spec_table_entry(data, spec->trace);
    for (uint32_t i = 0; i < spec->clients; i++) {
        if (spec->start == SPEC_START_SPREAD)
            t = spec->spread_s * gsl_rng_uniform(r);
        else if (spec->start == SPEC_START_POISSON)
            t = model_next_start(spec, t, r);
        else if (spec->start == SPEC_START_TRACE)
            t = trace_next(data, trace, spec->trace_linear, &pos, r);
        if (t > md->last_start)
            md->last_start = t;
        if (md->start_lane < 0)
            sim_schedule(sim, t, EV_START, i, 0, 0);
        else if (spec->start == SPEC_START_BURST)
            break; /* nothing drawn: every start is at 0 */
    }
    return sim->failed ? -1 : 0;
}

int model_run(model *md)
{
    sim_t *sim = md->sim;
    if (sim_run(sim, md->spec->horizon_s) != 0)
        return -1;
    if (md->mech) {
        mech_finish(md);
        if (sim->failed)
            return -1;
    }
    /* buckets the clients opened ahead that the clock never reached hold
     * the level it ended at */
    settle(md, SIZE_MAX - 1);
    metrics *m = &md->m;
    m->unfinished = md->window ? md->w_open : md->open;
    if (md->open)
        m->completion_time_s = md->spec->horizon_s;
    m->events = sim->events;

    /* Server time after warm-up, up to the last logical outcome or the
     * last change of the busy count, whichever is later: the idle tail of
     * stale timers popping after the work is done is not measured. */
    double from = md->spec->warmup_s;
    double end = m->completion_time_s > md->busy_since ? m->completion_time_s : md->busy_since;
    double since = md->busy_since > from ? md->busy_since : from;
    if (end > since)
        md->busy_area += md->busy * (end - since);
    m->utilization = end > from ? md->busy_area / ((double)md->spec->workers * (end - from)) : NAN;
    /* operations the client saw succeed that never executed: suppressed
     * by a colliding key */
    if (md->spec->kind == SPEC_SERVER_QUEUE && md->op) { /* none without writes */
        uint64_t total = (uint64_t)md->spec->clients * md->spec->requests_per_client;
        for (uint64_t i = 0; i < total; i++)
            if ((md->op[i] & (OP_WRITE | OP_EFFECT | OP_CLIENT_OK)) == (OP_WRITE | OP_CLIENT_OK)) {
                model_op_m(md, i)->lost_operations++;
                tool_metrics *tm = model_op_tm(md, i, md->op_tool ? md->op_tool[i] : 0);
                if (tm)
                    tm->lost_operations++;
            }
    }
    results_summarize_series(m, &md->ts, md->spec, md->last_start);

    uint64_t finished = m->successes + m->failures;
    m->amplification = finished ? (double)m->calls / (double)finished : NAN;
    m->task_success_rate = m->tasks ? (double)m->task_successes / (double)m->tasks : NAN;
    m->mean_task_latency_s = m->task_successes ? md->task_latency_sum / (double)m->task_successes : NAN;
    m->mean_wait_s = m->served ? md->wait_sum / (double)m->served : NAN;
    m->p_wait = m->served ? (double)md->waited / (double)m->served : NAN;

    if (md->nlatency && md->hist) {
        m->mean_latency_s = lh_mean(md->hist);
        m->p50_latency_s = lh_quantile(md->hist, 0.5);
        m->p90_latency_s = lh_quantile(md->hist, 0.9);
        m->p99_latency_s = lh_quantile(md->hist, 0.99);
        m->p999_latency_s = lh_quantile(md->hist, 0.999);
        m->max_latency_s = md->hist->max;
    } else if (md->nlatency) {
        results_latency(m, md->latency, (size_t)md->nlatency);
    } else {
        results_latency(m, NULL, 0);
    }
    results_mark_undefined(m);
    return 0;
}

int model_advance(model *md, uint32_t level, bool *hit)
{
    md->stop_inflight = level;
    md->level_hit = false;
    *hit = false;
    if (level && model_inflight(md) >= level) {
        *hit = true; /* already there */
        return 0;
    }
    if (sim_run(md->sim, md->spec->horizon_s) != 0)
        return -1;
    *hit = md->level_hit;
    md->stop_inflight = 0;
    return 0;
}

void model_reseed(model *md, uint64_t seed)
{
    sim_reseed(md->sim, seed);
    if (md->start_rng) /* a stream of its own, not the arrivals' copy */
        gsl_rng_set(md->start_rng, rng_stream_seed(seed, RNG_PURPOSE_COUNT));
}

void model_free(model *md)
{
    if (!md)
        return;
    /* a plugin's client blocks refer to state outside them (client_free) */
    for (uint32_t t = 0; md->plug_client && md->clients && t < md->ntools; t++)
        if (md->plug[t] && md->plug[t]->client_free)
            for (uint32_t id = 0; id < md->spec->clients; id++)
                md->plug[t]->client_free(md->plug_use[t].config,
                                         md->plug_client + id * md->plug_client_stride + md->plug_client_off[t]);
    herd_free(md->plug_client);
    herd_free(md->plug_call);
    herd_free(md->clients);
    herd_free(md->latency);
    lh_free(md->hist);
    md->hist = NULL;
    herd_free(md->op);
    herd_free(md->content);
    herd_free(md->outer);
    herd_free(md->prev_sleep);
    herd_free(md->deadline);
    herd_free(md->task_start);
    herd_free(md->retry_cost);
    herd_free(md->sent_at);
    herd_free(md->att_deadline);
    md->att_deadline = NULL;
    host_free(md);
    md->outer = NULL;
    md->prev_sleep = md->deadline = md->task_start = NULL;
    md->retry_cost = NULL;
    md->sent_at = NULL;
    if (md->start_rng)
        gsl_rng_free(md->start_rng);
    md->start_rng = NULL;
    herd_free(md->op_tool);
    md->op_tool = NULL;
    herd_free(md->effect_at);
    md->effect_at = NULL;
    md->op = NULL;
    md->content = NULL;
    disc_free(&md->q);
    lim_free(&md->lim);
    instance_free(md);
    ts_free(&md->ts);
    mech_free(&md->ms);
    md->clients = NULL;
    md->latency = NULL;
}
