/*
 * spec.h - model_spec: everything one simulation needs to know, as plain
 * data.  The scenario layer compiles a validated scenario into a spec
 * (presets applied, tool and layer policies resolved, outages sorted,
 * distributions parsed); the model reads it and nothing else.
 *
 * Data of variable size (empirical distributions, mixtures, an arrival
 * trace, a capacity timeline) is in the scenario's read-only data store
 * (table.h); the spec names entries by index and the model gets the store
 * next to the spec.
 *
 * No strings, no INI, no key names, no pointers: a spec can be copied,
 * compared with memcmp after a zeroing init, and stored per sweep point.
 * Names that only the reports need (tools, variants, sweep labels) stay
 * in the layers above.
 *
 * Invariants a compiled spec keeps (scn_compile guarantees them, the model
 * relies on them):
 *   - outages[0..noutages) are sorted by start_s, disjoint, end_s > start_s;
 *   - every policy passes hp_policy_check; its strategy field is the
 *     scenario's [retry] strategy (the model replaces it with the strategy
 *     being compared, except for layers that fix their own);
 *   - ntools == 0 means one implicit tool: `policy` with `side_effect`.
 */
#ifndef HERD_SPEC_H
#define HERD_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "../policy/herdpolicy.h"
#include "dist.h"
#include "table.h"

#define SPEC_MAX_OUTAGES 32
#define SPEC_MAX_ERRORS 16
#define SPEC_MAX_TOOLS 8
#define SPEC_MAX_LAYERS 6

typedef enum spec_start { SPEC_START_BURST = 0, SPEC_START_SPREAD, SPEC_START_POISSON, SPEC_START_TRACE } spec_start;
typedef enum spec_server_kind { SPEC_SERVER_QUEUE = 0, SPEC_SERVER_OCC } spec_server_kind;
typedef enum spec_outage_mode { SPEC_OUTAGE_FAIL_FAST = 0, SPEC_OUTAGE_BLACK_HOLE, SPEC_OUTAGE_PARTIAL } spec_outage_mode;
typedef enum spec_ra_format { SPEC_RA_SECONDS = 0, SPEC_RA_MS, SPEC_RA_BOTH } spec_ra_format;
typedef enum spec_keys { SPEC_KEYS_NONE = 0, SPEC_KEYS_LOGICAL_OP, SPEC_KEYS_ATTEMPT, SPEC_KEYS_CONTENT_HASH } spec_keys;
typedef enum spec_enforce { SPEC_ENFORCE_UNIQUE = 0, SPEC_ENFORCE_CHECK_THEN_ACT } spec_enforce;
typedef enum spec_retry_after { SPEC_RA_NONE = 0, SPEC_RA_FIXED, SPEC_RA_HONEST } spec_retry_after;
typedef enum spec_qdisc { SPEC_QD_FIFO = 0, SPEC_QD_LIFO, SPEC_QD_ADAPTIVE_LIFO } spec_qdisc;
/* [server] concurrency_limiter (sim/model/limiter.h) and gradient2's queue size function */
typedef enum spec_climiter { SPEC_CL_NONE = 0, SPEC_CL_FIXED, SPEC_CL_AIMD, SPEC_CL_GRADIENT2 } spec_climiter;
typedef enum spec_g2queue { SPEC_G2Q_CONSTANT = 0, SPEC_G2Q_SQRT, SPEC_G2Q_LOG10 } spec_g2queue;
typedef enum spec_layer_kind { SPEC_LAYER_PLAIN = 0, SPEC_LAYER_LLM } spec_layer_kind;

typedef struct spec_outage {
    double start_s, end_s;      /* [start, end) */
    spec_outage_mode mode;
    int outcome;                /* fail_fast, partial: a status code or HP_OUTCOME_CONN_* */
    double error_p;             /* partial: probability of answering `outcome` */
} spec_outage;

typedef struct spec_error_rate {
    int outcome;                /* status code or HP_OUTCOME_CONN_* */
    double p;                   /* probability per arriving attempt */
} spec_error_rate;

/* An operation clients call: its resolved retry policy and side effect. */
typedef struct spec_tool {
    hp_policy policy;
    hp_side_effect effect;
    double weight;              /* relative probability that a request uses it (sum > 0) */
    bool own_strategy;          /* a library preset fixes the strategy (else: the one compared) */
    bool sheddable;             /* priority = sheddable (else critical): see shed_sheddable_above */
    const struct hpl_instance *plugin; /* its retry plugin (sim/plugin/loader.h), NULL: the built-in */
} spec_tool;

/* One retry loop of a layered stack, outermost first.  Its policy carries
 * obey_overload (give up at once on "overloaded, don't retry"). */
typedef struct spec_layer {
    hp_policy policy;
    bool own_strategy;          /* the layer fixes its strategy (else: the one compared) */
    spec_layer_kind kind;
    bool propagate_deadline;    /* inner layers' deadlines are bounded by this layer's */
    dist think;                 /* llm: think time before each call */
    double reissue_p;           /* llm: probability of re-issuing a failed call */
    double repeat_p;            /* llm: probability of repeating a call that succeeded */
    double dedup_window_s;      /* llm: a repeated write within this window is intercepted */
} spec_layer;

typedef struct model_spec {
    /* measurement */
    double bucket_s;            /* timeseries bucket width */
    double horizon_s;
    double warmup_s;            /* requests started before are not measured */
    double window_from_s;       /* [run] window_s = FROM:TO: the per-request metrics count the */
    double window_to_s;         /* logical requests started in [FROM, TO); TO <= FROM: no window */
    double trigger_start_s;     /* recovery_time_s is counted from here (< 0: the last outage or spike) */
    double trigger_end_s;       /* end of the trigger, for figures (< 0: the last outage or spike) */
    double recovery_dwell_s;    /* see sim/model/recovery.h */
    uint64_t max_buckets;       /* timeseries buckets this run may hold (0: no limit); the
                                 * run fails cleanly past it (set by the plan from memory) */

    /* clients */
    uint32_t clients;
    uint32_t requests_per_client;
    uint32_t task_steps;        /* requests per task */
    spec_start start;
    double spread_s;
    double rate_per_s;          /* poisson: starts per second */
    double step_at_s, step_rate_per_s;
    double spike_start_s, spike_end_s, spike_rate_per_s;
    uint32_t trace;             /* trace: a TRACE entry of the data store (spec/table.h) */
    bool trace_linear;          /* trace: the rate is linear between rows (else steps) */
    dist think;
    uint32_t hosts;             /* client i runs on host i mod hosts (>= 1; see model/host.h) */
    uint32_t connections_per_host; /* each host's connection pool (0: a connection per attempt) */

    /* network */
    dist delay;                 /* one way, drawn per hop */
    double send_cost_s;         /* each clients' host sends one attempt after another, each
                                 * taking this long before its hop (0: all at once) */
    double reply_cost_s;        /* ... and reads each reply in turn with its sends, taking this
                                 * long (0: at once) */

    /* server */
    spec_server_kind kind;
    uint32_t workers;
    uint32_t queue;
    spec_qdisc queue_discipline; /* the order the queue is served in */
    double adaptive_lifo_after_s; /* adaptive_lifo: LIFO once the oldest waited longer */
    double codel_target_s;      /* CoDel's target queueing time (0: no CoDel) */
    double codel_interval_s;    /* CoDel's interval */
    spec_climiter concurrency_limiter; /* the server's concurrency limit (none: no limit) */
    uint32_t concurrency_limit; /* fixed: the limit; aimd, gradient2: the initial limit */
    uint32_t limiter_min, limiter_max; /* aimd, gradient2: the limit's bounds */
    double aimd_backoff_ratio;  /* aimd: the limit's factor on a drop */
    double aimd_timeout_s;      /* aimd: an RTT above this counts as a drop */
    double gradient2_smoothing; /* gradient2: weight of the new estimate */
    double gradient2_rtt_tolerance; /* gradient2: RTT growth tolerated before shrinking */
    uint32_t gradient2_long_window; /* gradient2: samples of the long-term RTT average */
    uint32_t gradient2_queue_size; /* gradient2: the queue allowance (its function's baseline) */
    spec_g2queue gradient2_queue_function; /* gradient2: constant, sqrt or log10 of the limit */
    double limiter_window_s;    /* aimd, gradient2: WindowedLimit's window (0: every sample) */
    uint32_t limiter_window_size; /* ... and the samples a window needs */
    bool drop_expired;          /* skip, unserved, an attempt whose propagated deadline passed */
    double shed_sheddable_above; /* reject sheddable attempts while busy/workers exceeds it (0: never) */
    dist service;
    spec_error_rate errors[SPEC_MAX_ERRORS];
    uint32_t nerrors;
    double rate_limit_rps;      /* token bucket, 0: none */
    double burst;
    spec_retry_after retry_after;
    double retry_after_s;
    double reply_loss_rate;
    double load_slowdown;
    bool overload_signal;       /* rejections say "overloaded, don't retry" */
    spec_ra_format retry_after_format; /* how Retry-After is sent */
    bool retry_after_on_503;    /* every 503 carries retry_after_s */
    bool ratelimit_reset;       /* 429s carry X-RateLimit-Reset */
    spec_outage outages[SPEC_MAX_OUTAGES]; /* sorted by start */
    uint32_t noutages;
    uint32_t capacity;          /* a CAPACITY entry of the data store (0: full capacity always) */

    /* idempotency */
    spec_keys keys;
    spec_enforce enforcement;
    double content_collision_p;

    /* what clients call: [retry] (the implicit tool) and [tool] sections */
    hp_policy policy;
    const struct hpl_instance *plugin; /* [retry]'s retry plugin, NULL: the built-in */
    uint32_t plugin_bytes;      /* per client, the blocks of every tool's plugin (its client blocks and
                                 * the largest call block, 16-byte aligned): for the memory estimate */
    hp_side_effect side_effect;
    bool sheddable;             /* [clients] priority = sheddable, without [tool] sections */
    spec_tool tools[SPEC_MAX_TOOLS];
    uint32_t ntools;            /* 0: the implicit tool only */

    /* layered retries, outermost first (0: a single loop of the tool's policy) */
    spec_layer layers[SPEC_MAX_LAYERS];
    uint32_t nlayers;

    /* retry limiting, breaker, throttling, hedging, shared by all clients:
     * the policy library's client options as they are (zero: none) */
    hp_client_opts guard;
    /* [limits] clients_per_instance: the guard's state (with the adaptive
     * send-rate limiter of policies with adaptive_rate) is kept per group
     * of this many clients, client i in instance i / clients_per_instance
     * (the last group may be smaller); 0: one state shared by all */
    uint32_t clients_per_instance;

    /* the clients are simulated event by event even where they could be
     * computed ahead (spec_computes_ahead); no key sets it: the model's
     * tests compare the two ways (a point's mode is its own, so that a
     * point of a sweep runs exactly as the same scenario alone) */
    bool event_by_event;
} model_spec;

/* True if an innermost policy of spec uses the adaptive send-rate limiter. */
static inline bool spec_uses_adaptive(const model_spec *s)
{
    if (s->nlayers)
        return s->layers[s->nlayers - 1].policy.adaptive_rate;
    for (uint32_t t = 0; t < s->ntools; t++)
        if (s->tools[t].policy.adaptive_rate)
            return true;
    return !s->ntools && s->policy.adaptive_rate;
}

/* True if the clients share any state through the guard (hp_client): a
 * retry limiter, breaker, throttling, hedging, or an innermost policy with
 * adaptive_rate (the library's send-rate limiter lives in the client).
 * Without one, clients_per_instance changes nothing. */
static inline bool spec_guard_shares_state(const model_spec *s)
{
    return s->guard.limiter.kind != HP_LIMITER_NONE || s->guard.breaker || s->guard.throttling || s->guard.hedging ||
           spec_uses_adaptive(s);
}

/* True when [run] window_s is set: the per-request metrics then count the
 * logical requests started in [window_from_s, window_to_s). */
static inline bool spec_has_window(const model_spec *s) { return s->window_to_s > s->window_from_s; }

/* True if some logical operation of spec can have a side effect (a
 * write or a delete: side_effect, or a [tool]'s). */
static inline bool spec_has_writes(const model_spec *s)
{
    if (!s->ntools)
        return s->side_effect != HP_EFFECT_READ;
    for (uint32_t t = 0; t < s->ntools; t++)
        if (s->tools[t].effect != HP_EFFECT_READ)
            return true;
    return false;
}

/* True if the model keeps a byte of flags per logical operation (model.h,
 * OP_*): where one is ever read, for a write's effect and key, a
 * [run] window or priority shedding.  Else it keeps none (a byte a client
 * fewer at the peak of a large run). */
static inline bool spec_keeps_op_flags(const model_spec *s)
{
    return spec_has_writes(s) || spec_has_window(s) || s->shed_sheddable_above > 0;
}

/* The outage in force at time t, or NULL: the first of s->outages[from..]
 * not over by t, if it has begun (the outages are sorted by start and
 * disjoint: scn_compile, scn_check).  from: an index below which every
 * outage is known to be over (0: none known). */
static inline const spec_outage *spec_outage_at(const model_spec *s, uint32_t from, double t)
{
    for (uint32_t i = from; i < s->noutages; i++)
        if (s->outages[i].end_s > t)
            return s->outages[i].start_s <= t ? &s->outages[i] : NULL;
    return NULL;
}

/* True if outage o (NULL: none) refuses every connection: the host answers
 * for the server process, which never sees the attempt. */
static inline bool spec_outage_refuses(const spec_outage *o)
{
    return o && o->mode == SPEC_OUTAGE_FAIL_FAST && o->outcome == HP_OUTCOME_CONN_REFUSED;
}

/* True if the model computes a client's steps between two server events
 * ahead of the clock (sim/model/client.c, occ.c): where none of them reads
 * or writes anything another client or the server shares (one layer, no
 * state shared through the guard, no connection pool, no send or reply
 * cost: the host's sender, no window: a late reply counts where its
 * client's request then stands), unless event_by_event. */
static inline bool spec_computes_ahead(const model_spec *s)
{
    return !s->nlayers && !spec_guard_shares_state(s) && !s->connections_per_host &&
           !(s->send_cost_s > 0) && !(s->reply_cost_s > 0) && !spec_has_window(s) && !s->event_by_event;
}

#endif
