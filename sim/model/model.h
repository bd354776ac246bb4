/*
 * model.h - the closed-population retry model: clients that make logical
 * requests through a retry policy, a network with random one-way delays,
 * and a capacity-limited server (workers + a queue served FIFO, LIFO or adaptive LIFO) with outages and a
 * background error mix.
 *
 * The model connects the engine (events, time, random streams) and the
 * policy library (decisions): clients ask libherdpolicy what follows each
 * outcome and schedule the next event. It owns per-run state only; the
 * spec (spec/spec.h) is read, never changed.
 *
 * Per-client state is `struct client` (32 bytes) plus a byte of flags per
 * logical request, and what the scenario needs beyond (see
 * spec_client_bytes(), spec/memory.h); latencies are kept exactly (8 bytes a request)
 * up to MODEL_EXACT_LATENCIES requests per run, in a histogram beyond.
 */
#ifndef HERD_MODEL_H
#define HERD_MODEL_H

#include <stdint.h>

#include "../engine/sim.h"
#include "../policy/herdpolicy.h"
#include "../policy/herdpolicy/plugin.h"
#include "../spec/memory.h"
#include "../spec/spec.h"
#include "discipline.h"
#include "host.h"
#include "lathist.h"
#include "limiter.h"
#include "sample.h"
#include "results.h"
#include "shed.h"

/* Event types of this model. */
enum {
    EV_START = 0, /* obj=client: begin the next logical request */
    EV_SEND,      /* obj=client, arg=layer: that layer's next attempt (after a backoff
                   * or an llm layer's think time) */
    EV_ARRIVE,    /* obj=client, tag=attempt, arg=request index, aux=the deadline it carries
                   * (with drop_expired, shed.h; else 0): the attempt reaches the server */
    EV_DONE,      /* obj=client, tag=attempt, arg=request index | what the server does << 29,
                   * aux=service time: service completes at the server */
    EV_REPLY,     /* obj=client, tag=attempt, arg=outcome, aux=Retry-After of a 429 (< 0: none)
                   * or the service time of a served attempt: the reply reaches the client */
    EV_TIMEOUT,   /* obj=client, tag=attempt: the attempt's timer fires */
    EV_OCC_READ_REPLY, /* occ: obj=client, tag=attempt, arg=version read */
    EV_OCC_WRITE,      /* occ: obj=client, tag=attempt, arg=version read: write arrives */
    EV_HEDGE,          /* obj=client, tag=attempt, arg=copies sent: time to hedge the attempt */
    EV_CAPACITY,       /* arg=row: a row of the capacity timeline takes effect */
    EV_RECEIVED,       /* as EV_REPLY: [network] reply_cost_s, the client's host has read the reply */
    EV_COUNT
};

/* Per client, 32 bytes, everything an event of the client touches: the
 * innermost layer's retry counters live here (the library's hp_state is
 * rebuilt around them, see client.c), the rest of a client's state is in
 * optional arrays of the model that exist only when the scenario needs
 * them (task start, limiter cost, decorrelated memory, deadline, outer
 * layers). */
typedef struct client {
    double req_start;    /* when the current logical request began */
    uint32_t tag;        /* attempt generation, odd while an attempt is outstanding (not timed
                          * out, no reply): events with another tag are stale */
    uint32_t done : 24;  /* logical requests finished (or skipped); requests_per_client <= 1e6 */
    uint32_t tool : 4;   /* the tool of the current logical request */
    uint32_t flags : 4;  /* CL_* */
    uint32_t attempts;   /* innermost layer: attempts sent (hp_state.attempts) */
    uint32_t retries;    /* innermost layer: retries scheduled (hp_state.retries) */
    double tmo_at;       /* computing ahead (client.c): when the current attempt times out
                          * (INFINITY: never); read with tag, in the same cache line */
} client;

enum {
    CL_TASK_FAILED = 1, /* a step of the current task failed */
    CL_REPEATING = 2,   /* an llm layer is repeating a call that succeeded */
    CL_RETRY_HELD = 4,  /* the innermost call holds a retry the limiter granted
                         * (hp_call.flags & HP_CALL_RETRY_HELD) */
    CL_TOKEN_HELD = 8   /* the innermost call waited for its adaptive send-rate token
                         * (hp_call.flags & HP_CALL_TOKEN_HELD) */
};

/* What an inner loop reports to the layer above: a structured failure. */
typedef struct layer_result {
    hp_decision d;      /* DONE_OK, or GIVE_UP with its reason */
    int outcome;        /* the last attempt's outcome */
    double retry_after_s; /* the Retry-After as the server sent it ([server]
                           * retry_after_format); each layer reads it with its policy */
    bool overloaded;    /* the server said "overloaded, don't retry" */
} layer_result;

/* Per logical operation (client x request index), one byte of flags. */
enum {
    OP_WRITE = 1,      /* the operation has a side effect (not a read) */
    OP_EFFECT = 2,     /* its side effect has happened at least once */
    OP_KEY_DONE = 4,   /* the key store holds a completed result under this key */
    OP_KEY_BUSY = 8,   /* an execution under this key is running (unique_constraint) */
    OP_CLIENT_OK = 16, /* the client saw it succeed */
    OP_DESTRUCTIVE = 32, /* a delete: executing it again finds nothing (404) */
    OP_COUNTED = 64,   /* [run] window_s: it started in the window; its counts go to md->m */
    OP_SHEDDABLE = 128 /* its priority is sheddable ([server] shed_sheddable_above) */
};

/* The aux of a 503 reply that carries "overloaded, don't retry". */
#define AUX_OVERLOADED (-2.0f)

/* What the server does with an attempt that enters service. */
enum { SERVE_EXECUTE = 0, SERVE_STORED, SERVE_CONFLICT };

/* Where an arrival trace's Poisson stream stands: the integrated rate
 * reached (level) and the segment it lies in. */
typedef struct trace_pos {
    double level;
    uint32_t seg;
} trace_pos;

/* [limits] clients_per_instance: what one instance keeps for the
 * mechanism series (mech.c), beside its library state: its breaker's
 * accounted time, and its last balance, rejection probability and window
 * counts, from which the series' fleet-wide means and sums are kept
 * exactly (integers: balance in thousandths, probability in 1e-9). */
typedef struct inst_gauge {
    double brk_t;           /* the instance's breaker time is accounted up to here */
    int64_t balance_milli;  /* hp_limiter_balance x 1000 after its last limiter call */
    int64_t reject_nano;    /* hp_throttle_p_reject x 1e9 after its last throttle call */
    uint32_t requests, accepts; /* its throttle window then */
} inst_gauge;

/* The guard's state per instance (instance.c).  md->guard always holds
 * the state of instance `cur`; the arrays hold the others' (and a stale
 * copy of cur's).  Only the mechanisms the spec uses have an array; with
 * count 1 there are none and md->guard is the one shared state. */
typedef struct instances {
    uint32_t per;           /* clients per instance */
    uint32_t count;         /* instances, >= 1 */
    uint32_t cur;           /* the instance whose state md->guard holds */
    hp_adaptive *adaptive;  /* count > 1: per instance, or NULL (not used) */
    hp_limiter *limiter;
    hp_breaker *breaker;
    hp_throttle *throttle;
    hp_hedge *hedge;
    inst_gauge *gauge;      /* count > 1 with the mechanism series, else NULL */
    int64_t balance_milli_sum, reject_nano_sum; /* over instances, of gauge[] */
    uint64_t requests_sum, accepts_sum;
} instances;

typedef struct model {
    const model_spec *spec; /* read only, owned by the caller (or `local`) */
    const spec_table *data; /* the scenario's data store, read only (NULL: none) */
    const model_spec *given; /* the spec model_init was given (spec may point to `local`) */
    model_spec local;   /* start = trace: the spec with clients = the arrivals of this run */
    trace_pos start_pos; /* trace starts: the stream of the source lane */
    const spec_entry *cap; /* capacity timeline, or NULL */
    uint32_t workers_now; /* workers serving now (spec->workers without a timeline) */
    double speed;       /* service-rate factor now */
    double cap_err;     /* capacity timeline's error rate now */
    hp_policy tool_policy[SPEC_MAX_TOOLS];
    hp_policy layer_policy[SPEC_MAX_LAYERS];
    uint32_t nlayers;   /* >= 1: without [layer] sections, one layer of the tool's policy */
    hp_state *outer;    /* clients x (nlayers - 1) retry states of the outer layers, or NULL */
    double *prev_sleep; /* innermost layer's decorrelated-jitter memory per client, or NULL
                         * (no innermost policy is decorrelated) */
    double *deadline;   /* innermost layer's deadline per client, or NULL (never one) */
    double *task_start; /* when each client's current task began, or NULL (task_steps 1) */
    uint32_t *retry_cost; /* what the limiter charged each client's current retry, or NULL */
    float *effect_at;   /* llm intent de-duplication: when each operation's effect happened */
    hp_client guard;    /* [limits]: the library's client (an SDK instance): limiter, breaker,
                         * throttling, hedging; shared by all clients, or the state of
                         * instance inst.cur (reach it through model_guard) */
    instances inst;     /* [limits] clients_per_instance */
    double *sent_at;    /* with hedging: when each client's innermost attempt was sent */
    double *att_deadline; /* with hedging and drop_expired: when each client's innermost attempt
                           * times out (what its hedged copies carry is what is left) */
    bool ahead;         /* a client's steps that touch nothing shared are computed ahead of
                         * the clock (client.c, "Computing ahead"); see model_init */
    double vnow;        /* the client side's clock: sim_now, or ahead of it while a client's
                         * reply, backoff and next send are computed (ahead) */
    struct {            /* ahead: a client's next step, taken by the loop of the event that
                         * computes it (client.c: so that a chain of refusals is a loop) */
        double t;       /* when the answer reaches the client */
        uint32_t id;
        int outcome;
        float aux;
        bool due;
    } next;
    size_t ts_real;     /* ahead: buckets [0, ts_real) have been reached by the clock (their
                         * in-flight level is set); those after were opened by a client ahead */
    bool bare_call;     /* one layer, and none of prev_sleep, deadline, retry_cost, sent_at:
                         * client.c rebuilds the call from the client record alone */
    /* retry plugins (herdpolicy/plugin.h, sim/plugin/loader.h), per tool:
     * the descriptor (NULL: the built-in policy) and its configuration;
     * each client's blocks at plug_client + id * plug_client_stride +
     * plug_client_off[tool] and plug_call + id * plug_call_stride */
    const hp_plugin *plug[SPEC_MAX_TOOLS];
    hp_plugin_use plug_use[SPEC_MAX_TOOLS]; /* what the client API takes (model_plugin_use) */
    size_t plug_client_off[SPEC_MAX_TOOLS];
    size_t plug_client_stride, plug_call_stride;
    unsigned char *plug_client, *plug_call;
    bool any_plugin;
    bool plug_finish;   /* some tool's plugin has a finish callback */
    char plug_why[400]; /* a value a plugin returned that herd refused: the run stops */
    double tool_cum[SPEC_MAX_TOOLS]; /* cumulative tool probabilities */
    uint32_t ntools;
    sim_t *sim;
    int timeout_lane;   /* timer lane of the constant attempt timeout, or -1 */
    int start_lane;     /* source lane of the clients' first starts, or -1 */
    uint64_t trace_over; /* start = trace: arrivals drawn beyond the plan's room (model_init failed), or 0 */
    gsl_rng *start_rng; /* poisson starts: the arrivals stream as it was before them */
    double start_t;     /* poisson starts: the last one produced */
    int delay_lane;     /* lane of a constant network delay, or -1 */
    double send_free;   /* with send_cost_s: when the clients' sender is free again (one host) */
    double *sender_free; /* [clients] hosts > 1 with send_cost_s: the same per host (host.h), or NULL */
    host_pool *pool;    /* [clients] connections_per_host: the hosts' pools (host.h), or NULL */
    int service_lane;   /* lane of a constant service time, or -1 */

    client *clients;
    uint64_t open;      /* logical requests not yet finished (incl. not started) */

    /* server */
    uint32_t busy;
    srv_queue q;        /* the waiting room (discipline.h) */
    const disc_ops *disc; /* its order ([server] queue_discipline) */
    codel cd;           /* [server] codel_target_s > 0: CoDel's state */
    srv_limiter lim;    /* [server] concurrency_limiter (limiter.h) */
    uint32_t outage;    /* index of the first outage not yet over */
    int32_t version;    /* occ: the shared row's version */
    double tokens;      /* rate limiter: tokens in the bucket at tokens_at */
    double tokens_at;
    uint8_t *op;        /* OP_* flags per logical operation */
    uint32_t *content;  /* content_hash: the operation whose content each one carries */
    uint8_t *op_tool;   /* with [tool] sections: the tool of each logical operation */
    tool_metrics tm[SPEC_MAX_TOOLS];

    /* measurements */
    metrics m;
    metrics m_out;      /* [run] window_s: the counts of requests started outside it (dropped) */
    bool window;        /* [run] window_s is set (spec_has_window) */
    uint64_t w_open;    /* ... requests started in it and not finished */
    timeseries ts;
    mechseries ms;      /* the [limits] mechanisms' states per bucket (mech.c), if any */
    bool mech;          /* a breaker, throttling or a retry limiter is configured */
    double brk_t;       /* the breaker's time is accounted into ms up to here */
    uint32_t stop_inflight; /* model_advance: stop when in flight reaches this (0: never) */
    bool level_hit;     /* ... and it did */
    double ts_lo, ts_hi; /* the times whose bucket is ts_i: [ts_lo, ts_hi) */
    size_t ts_i;
    double *latency;    /* one sample per finished, measured logical request, or NULL */
    uint64_t nlatency;
    lh_hist *hist;      /* the samples' histogram when there are too many to keep, or NULL */
    double wait_sum;    /* queueing, over attempts served after warm-up */
    double wait_sq_sum; /* its squares (the second moment: tests/validate.c) */
    uint64_t waited;
    double busy_area;   /* integral of busy workers over time, after warm-up */
    double busy_since;  /* time of the last change of md->busy */
    double task_latency_sum; /* over successful tasks */
    double last_start;  /* the last client start: the end of the offered load */
} model;

/* Up to this many logical requests per run, latencies are kept exactly and
 * their quantiles are exact (every scenario of scenarios/ and every golden
 * run is below it); beyond, they go into a log-linear histogram (lathist.h:
 * p50 and p99 within LH_REL_ERROR relative error, mean and max exact up
 * to rounding) so that memory does not grow with the requests. */
#define MODEL_EXACT_LATENCIES SPEC_EXACT_LATENCIES

/* Sets up a model for spec with the given strategy on sim (whose handlers
 * it registers) and schedules every client's first request.  Returns 0 or
 * -1 on allocation failure (then model_free is still safe). */
int model_init(model *md, const model_spec *spec, const spec_table *data, hp_strategy strategy, sim_t *sim);

/* Runs until no event is left (every logical request finished and every
 * reply still on the wire delivered, so late replies are counted) or the
 * horizon, then computes the summary metrics (latency quantiles, peaks).  Returns 0, or -1 on allocation failure. */
int model_run(model *md);

void model_free(model *md);

/* For multilevel splitting (herd rare): runs on until the attempts in
 * service + queued at the server first reach `level` (then *hit = true
 * and the run stops right after that event, to be continued by another
 * call) or until the horizon or the end of the work (*hit = false).
 * Returns 0, or -1 if the simulation failed.  No summary metrics. */
int model_advance(model *md, uint32_t level, bool *hit);

/* Draws everything from now on from fresh streams derived from seed: the
 * engine's streams and the Poisson start times still to come (the next
 * start, already produced, stays).  Deterministic. */
void model_reseed(model *md, uint64_t seed);

/* Moves the run's results into *out (the series only if keep_series; else
 * out->ts is empty).  Call after model_run; model_free stays safe. */
void model_take_results(model *md, model_results *out, bool keep_series);

/* The memory a simulation needs: spec_memory_estimate() and
 * spec_client_bytes() (spec/memory.h). */

/* The next Poisson start after t under the spec's piecewise-constant start
 * rate (step, spike), drawn from r (herd drive draws its starts alike). */
double model_next_start(const model_spec *c, double t, gsl_rng *r);

/* The token bucket of [server] rate_limit_rps at time now (*tokens at
 * *tokens_at, both updated): true if a token was taken, else false with
 * the Retry-After the server sends in *retry_after (-1: none).  The
 * simulated server and herd serve share it. */
bool server_take_token(const model_spec *spec, double *tokens, double *tokens_at, double now, double *retry_after);

/* Bucket i of the series, which grows to hold it; NULL and the simulation
 * failed as model_bucket_slow. */
ts_bucket *model_bucket_grow(model *md, size_t i);

/* After a sim_run that stopped at its `until` before the end (the live
 * view's frames): the buckets up to until that clients opened ahead, and
 * no server event reached, get the level now, as if the clock had reached
 * them; the series up to until is then what the event-by-event run has. */
void model_settle_series(model *md);

/* The bucket of time t > now, for a client computing ahead (its counters
 * only: the bucket's in-flight level is set when the clock reaches it).
 * floor(t / bs) is the truncation, t being >= 0. */
static inline ts_bucket *model_bucket_ahead(model *md, double t)
{
    size_t i = (size_t)(t / md->ts.bucket_s);
    return i < md->ts.len ? &md->ts.b[i] : model_bucket_grow(md, i);
}

/* ahead: the answer (outcome, aux as EV_REPLY's) the server sends now to
 * attempt `tag` of client id, one network hop away (client.c). */
void client_answer(model *md, uint32_t id, uint32_t tag, int outcome, float aux);

/* ahead: the server holds attempt `tag` of client id without answering it
 * now (queued, in service, swallowed; occ: a read, answered at its
 * write): if the attempt is still open, its timer is set (client.c). */
void client_held(model *md, uint32_t id, uint32_t tag);

/* Internal: the server side (server.c) and client side (client.c). */
void server_arrive(sim_t *sim, const eq_event *ev, void *ctx);
void server_done(sim_t *sim, const eq_event *ev, void *ctx);
void server_capacity(sim_t *sim, const eq_event *ev, void *ctx);
void client_start(sim_t *sim, const eq_event *ev, void *ctx);
void client_send(sim_t *sim, const eq_event *ev, void *ctx);
void client_reply(sim_t *sim, const eq_event *ev, void *ctx);
void client_received(sim_t *sim, const eq_event *ev, void *ctx);
void client_timeout(sim_t *sim, const eq_event *ev, void *ctx);
void client_hedge(sim_t *sim, const eq_event *ev, void *ctx);
void client_arrive(sim_t *sim, const eq_event *ev, void *ctx);
void occ_read_arrive(sim_t *sim, const eq_event *ev, void *ctx);
void occ_read_reply(sim_t *sim, const eq_event *ev, void *ctx);
void occ_write_arrive(sim_t *sim, const eq_event *ev, void *ctx);

/* Timeseries bucket for the current time (NULL and sim marked failed on
 * allocation failure).  The current bucket's exact time range is cached,
 * so most calls are two comparisons. */
ts_bucket *model_bucket_slow(model *md);

static inline ts_bucket *model_bucket(model *md)
{
    double now = sim_now(md->sim);
    if (now >= md->ts_lo && now < md->ts_hi)
        return &md->ts.b[md->ts_i];
    return model_bucket_slow(md);
}

/* The bucket of time t >= now: model_bucket now, model_bucket_ahead later. */
static inline ts_bucket *model_bucket_at(model *md, double t)
{
    return t == sim_now(md->sim) ? model_bucket(md) : model_bucket_ahead(md, t);
}

/* instance.c: sets up md->inst after md->guard (one instance, or the
 * arrays of the mechanisms in use, every instance a copy of md->guard);
 * 0 or -1 on allocation failure.  instance_free releases the arrays. */
int instance_init(model *md);
void instance_free(model *md);

/* Tool t's plugin for client id's call as the client API takes it (the
 * client's blocks set in the tool's md->plug_use); NULL when the tool has
 * none.  O(1), two stores: the rest was set by model_init. */
static inline hp_plugin_use *model_plugin_use(model *md, uint32_t id)
{
    uint32_t t = md->clients[id].tool;
    hp_plugin_use *u = &md->plug_use[t];
    if (!u->plugin)
        return NULL;
    u->client = md->plug_client ? md->plug_client + id * md->plug_client_stride + md->plug_client_off[t] : NULL;
    u->call = md->plug_call ? md->plug_call + id * md->plug_call_stride : NULL;
    return u;
}

/* A plugin returned a value herd refuses (u->error): the message, with
 * the plugin's name, the client and the time, into md->plug_why, and the
 * simulation stops (model_run fails). */
void model_plugin_failed(model *md, uint32_t id, const hp_plugin_use *u);

/* Makes md->guard hold instance i's state (storing the current one's). */
void instance_switch(model *md, uint32_t i);

/* The library client of client id: md->guard, holding the state of the
 * client's instance.  O(1): a copy of the mechanisms in use when the
 * instance differs from the last one's. */
static inline hp_client *model_guard(model *md, uint32_t id)
{
    if (md->inst.count > 1) {
        uint32_t i = id / md->inst.per;
        if (i != md->inst.cur)
            instance_switch(md, i);
    }
    return &md->guard;
}

/* The number of instances and their bytes: spec_instances() and
 * spec_instance_bytes() (spec/memory.h). */

/* The mechanism series (mech.c), for models with md->mech; each marks the
 * simulation failed when the series cannot grow.
 *   mech_breaker: call before every breaker call: the time since the last
 *     one goes into the buckets as open / half-open (the library's state,
 *     with its open -> half-open transition by time);
 *   mech_throttle: after every throttle call: its probability and counts;
 *   mech_retry: after hp_limiter_try_retry (allowed or not);
 *   mech_limiter: after any other limiter call: its balance;
 *   mech_finish: at the end of the run (the breaker's last stretch). */
void mech_breaker(model *md);
void mech_throttle(model *md);
void mech_retry(model *md, bool allowed);
void mech_limiter(model *md);
void mech_finish(model *md);
void mech_after_admit(model *md, const hp_admit *a);
void mech_after_outcome(model *md, int outcome, const hp_decision *d);

static inline uint32_t model_inflight(const model *md) { return md->busy + md->q.len; }

/* Where a per-request count of logical operation op goes: md->m, or with
 * [run] window_s and op started outside the window, md->m_out (dropped).
 * O(1): the operation's flag, set when it started. */
static inline metrics *model_op_m(model *md, uint64_t op)
{
    if (!md->window)
        return &md->m;
    return md->op[op] & OP_COUNTED ? &md->m : &md->m_out;
}

/* The same for what happens to client id now: its current logical request
 * (its last one once it has done them all; between two requests, during
 * the think time, the next one, not yet started: a late reply arriving
 * then is not counted in a window). */
static inline metrics *model_client_m(model *md, uint32_t id)
{
    if (!md->window)
        return &md->m;
    uint32_t rpc = md->spec->requests_per_client, d = md->clients[id].done;
    return model_op_m(md, (uint64_t)id * rpc + (d < rpc ? d : rpc - 1));
}

/* A logical request started at t is measured (latency, offered_per_s,
 * goodput_per_s): in [run] window_s when one is set, else from warmup_s. */
static inline bool model_measured(const model *md, double t)
{
    return md->window ? t >= md->spec->window_from_s && t < md->spec->window_to_s : t >= md->spec->warmup_s;
}

/* The tool counters of operation op (tools.csv), or NULL when a window
 * leaves it out. */
static inline tool_metrics *model_op_tm(model *md, uint64_t op, uint32_t tool)
{
    return md->window && !(md->op[op] & OP_COUNTED) ? NULL : &md->tm[tool];
}

/* Schedules an event one network hop from now: a draw of the spec's
 * one-way delay from the network stream, or its lane when the delay is
 * constant.  Inline: it is the model's most frequent schedule. */
static inline void model_hop(model *md, uint32_t type, uint32_t obj, uint32_t tag, int32_t arg, float aux)
{
    if (md->delay_lane >= 0)
        sim_schedule_lane(md->sim, md->delay_lane, type, obj, tag, arg, aux);
    else
        sim_schedule_aux(md->sim, dist_sample(&md->spec->delay, md->data, sim_rng(md->sim, RNG_NETWORK)), type, obj, tag, arg,
                         aux);
}

/* The time the host of client obj is busy until, sending ([network]
 * send_cost_s) and reading replies (reply_cost_s) in turn: md->send_free
 * with one host, else the host's (obj mod [clients] hosts). */
static inline double *model_host_free(model *md, uint32_t obj)
{
    return md->sender_free ? &md->sender_free[obj % md->spec->hosts] : &md->send_free;
}

/* ---- the server's refusals (server.c), inline for client.c's computing ahead ---- */

/* Counts an attempt refused at connect into m and bucket b (not a call,
 * not an arrival). */
static inline void server_count_refused(metrics *m, ts_bucket *b)
{
    m->refused++;
    if (b)
        b->refused++;
}

/* ahead: an attempt of client id arriving at `at` (>= now) that a
 * fail-fast outage then in force refuses at connect is counted as
 * server_arrive counts it, without an event: true if it is (the spec's
 * outages alone decide, nothing the server holds).  Always inline: the
 * clients computed ahead ask once per attempt, and left to its heuristics
 * the compiler did not inline it (7 more instructions per attempt). */
static inline __attribute__((always_inline)) bool server_refused_ahead(model *md, uint32_t id, double at)
{
    /* md->outage: the first outage not over by now (<= at) */
    if (!spec_outage_refuses(spec_outage_at(md->spec, md->outage, at)))
        return false;
    metrics *m = model_client_m(md, id); /* the attempt's request */
    m->outage_errors++; /* as server_arrive counts it */
    server_count_refused(m, model_bucket_at(md, at));
    return true;
}

/* Schedules a client's attempt (type EV_ARRIVE or EV_OCC_WRITE) towards
 * the server: with send_cost_s, after its host's sender has sent the
 * attempts before it (one every send_cost_s; client obj is on host
 * obj mod [clients] hosts), then one network hop.  left_s is what is
 * left now of the attempt's timeout (INFINITY: none); with drop_expired
 * the attempt carries what is left of it when it leaves (shed_carried),
 * else 0. */
static inline void model_send(model *md, uint32_t type, uint32_t obj, uint32_t tag, int32_t arg, double left_s)
{
    double cost = md->spec->send_cost_s;
    bool carry = md->spec->drop_expired;
    if (!(cost > 0)) {
        model_hop(md, type, obj, tag, arg, carry ? shed_carried(left_s, 0) : 0);
        return;
    }
    double now = sim_now(md->sim);
    double *free_at = model_host_free(md, obj);
    *free_at = (*free_at > now ? *free_at : now) + cost;
    sim_schedule_aux(md->sim, *free_at - now + dist_sample(&md->spec->delay, md->data, sim_rng(md->sim, RNG_NETWORK)),
                     type, obj, tag, arg, carry ? shed_carried(left_s, *free_at - now) : 0);
}

#endif
