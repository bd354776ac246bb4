/*
 * compile.c - a validated scenario (scn_config) into a model_spec: the only
 * place that applies presets and resolves tool and layer policies.  The
 * spec that comes out holds no names and no key text (see spec/spec.h).
 */
#include "keys.h"

#include "../plugin/loader.h"
#include "data.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Zero, as the scenario writes it, in the library's terms.  A scenario
 * holds what it means (scn_defaults writes every library default out, and
 * presets resolve theirs), so a 0 in one of these fields is an explicit 0;
 * the library reads 0 there as its default and takes HP_OFF for zero.  The
 * other fields whose library default is read from 0 refuse an explicit 0
 * as they are read (scn_zero_refusal, keyparse.c). */
static double off_if_zero(double v)
{
    return v == 0 ? HP_OFF : v;
}

static hp_policy library_policy(hp_policy p)
{
    p.retry_after_max_s = off_if_zero(p.retry_after_max_s);
    return p;
}

/* The [retry] policy, then a tool's or layer's preset and keys. */
static hp_policy section_policy(const scn_config *c, const scn_tool *tool, const char *section, hp_strategy s)
{
    hp_policy p = c->policy;
    p.strategy = s;
    if (c->keys != SPEC_KEYS_NONE)
        p.idempotency_key = true;
    if (!tool)
        return library_policy(p);
    scn_apply_preset_policy(&p, tool->preset);
    if (tool->preset >= SCN_LIBRARY_PRESET && c->keys != SPEC_KEYS_NONE)
        p.idempotency_key = true;
    if (tool->preset < SCN_LIBRARY_PRESET)
        p.strategy = s;
    if (tool->retry_mask)
        p.retry_only = tool->retry_mask; /* retry_on: zero for tools */
    size_t first = scn_first_key(section);
    for (size_t i = first; i < scn_key_count && !strcmp(scn_key_table[i].section, section); i++) {
        const key *k = &scn_key_table[i];
        if (!(tool->set & ((uint64_t)1 << (i - first))) || k->off < offsetof(scn_tool, over) ||
            k->off >= offsetof(scn_tool, over) + sizeof(hp_policy))
            continue;
        size_t off = k->off - offsetof(scn_tool, over);
        memcpy((char *)&p + off, (const char *)&tool->over + off, scn_key_field_size(k));
    }
    return library_policy(p);
}

hp_policy scn_tool_policy(const scn_config *c, uint32_t t, hp_strategy s)
{
    return section_policy(c, t < c->ntools ? &c->tools[t] : NULL, "tool", s);
}

hp_policy scn_layer_policy(const scn_config *c, uint32_t l, hp_strategy s)
{
    return section_policy(c, l < c->nlayers ? &c->layers[l] : NULL, "layer", s);
}

hp_side_effect scn_tool_effect(const scn_config *c, uint32_t t)
{
    if (t >= c->ntools)
        return c->side_effect;
    const scn_tool *tool = &c->tools[t];
    return tool->effect >= 0                                       ? (hp_side_effect)tool->effect
           : tool->preset >= 0 && tool->preset < HP_EFFECT_COUNT ? (hp_side_effect)tool->preset
                                                                   : HP_EFFECT_READ;
}

/* The library preset of a [tool] or [layer] section, or NULL. */
static const hp_library_preset *library_preset(const scn_tool *t)
{
    return t->preset >= SCN_LIBRARY_PRESET ? hp_library_preset_at((uint32_t)(t->preset - SCN_LIBRARY_PRESET))
                                           : NULL;
}

uint32_t scn_expanded_layers(const scn_config *c)
{
    uint32_t n = 0;
    for (uint32_t l = 0; l < c->nlayers; l++) {
        const hp_library_preset *lp = library_preset(&c->layers[l]);
        n += lp && lp->two_layers ? 2 : 1;
    }
    return n;
}


/* 1 if layer l sets its own strategy (the `strategy` key of [layer], or a
 * library preset). */
static int layer_fixes_strategy(const scn_tool *layer)
{
    if (layer->preset >= SCN_LIBRARY_PRESET)
        return 1;
    size_t first = scn_first_key("layer");
    for (size_t i = first; i < scn_key_count && !strcmp(scn_key_table[i].section, "layer"); i++)
        if (!strcmp(scn_key_table[i].name, "strategy"))
            return (layer->set & ((uint64_t)1 << (i - first))) != 0;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const spec_outage *x = a, *y = b;
    return (x->start_s > y->start_s) - (x->start_s < y->start_s);
}

const scn_plugin *scn_plugin_at(const scn_config *c, uint32_t t)
{
    const scn_plugin *pl = &c->plugin;
    if (t < c->ntools && t < SPEC_MAX_TOOLS && c->tools[t].plugin.spec[0])
        pl = &c->tools[t].plugin;
    return pl->spec[0] ? pl : NULL;
}

/* The loaded instance of tool t's plugin (t >= ntools: [retry]'s), NULL
 * for none.  scn_check loaded it first (hpl_load returns it again). */
static const struct hpl_instance *plugin_of(const scn_config *c, uint32_t t)
{
    const scn_plugin *pl = scn_plugin_at(c, t);
    char err[HPL_ERR_MAX];
    return pl ? hpl_load(pl->spec, scn_data_dir(), pl->keys, err) : NULL;
}

void scn_compile(const scn_config *c, model_spec *s)
{
    memset(s, 0, sizeof *s);
    s->bucket_s = c->bucket_s;
    s->horizon_s = c->horizon_s;
    s->warmup_s = c->warmup_s;
    s->window_from_s = c->window_s[0];
    s->window_to_s = c->window_s[1];
    s->trigger_start_s = c->trigger_start_s;
    s->trigger_end_s = c->trigger_end_s;
    s->recovery_dwell_s = c->recovery_dwell_s;

    s->clients = c->clients;
    s->requests_per_client = c->requests_per_client;
    s->task_steps = c->task_steps;
    s->start = c->start;
    s->spread_s = c->spread_s;
    s->rate_per_s = c->rate_per_s;
    s->step_at_s = c->step_at_s;
    s->step_rate_per_s = c->step_rate_per_s;
    s->spike_start_s = c->spike_start_s;
    s->spike_end_s = c->spike_end_s;
    s->spike_rate_per_s = c->spike_rate_per_s;
    s->trace = c->trace;
    s->trace_linear = c->trace_linear;
    if (c->start == SPEC_START_TRACE)
        s->clients = scn_trace_clients(c);
    s->think = c->think;
    s->hosts = c->hosts;
    s->connections_per_host = c->connections_per_host;
    s->delay = c->delay;
    s->send_cost_s = c->send_cost_s;
    s->reply_cost_s = c->reply_cost_s;

    s->kind = c->kind;
    s->workers = c->workers;
    s->queue = c->queue;
    s->queue_discipline = c->queue_discipline;
    s->adaptive_lifo_after_s = c->adaptive_lifo_after_s;
    s->codel_target_s = c->codel_target_s;
    s->codel_interval_s = c->codel_interval_s;
    s->concurrency_limiter = c->concurrency_limiter;
    s->concurrency_limit = c->concurrency_limit;
    s->limiter_min = c->limiter_min;
    s->limiter_max = c->limiter_max;
    s->aimd_backoff_ratio = c->aimd_backoff_ratio;
    s->aimd_timeout_s = c->aimd_timeout_s;
    s->gradient2_smoothing = c->gradient2_smoothing;
    s->gradient2_rtt_tolerance = c->gradient2_rtt_tolerance;
    s->gradient2_long_window = c->gradient2_long_window;
    s->gradient2_queue_size = c->gradient2_queue_size;
    s->gradient2_queue_function = c->gradient2_queue_function;
    s->limiter_window_s = c->limiter_window_s;
    s->limiter_window_size = c->limiter_window_size;
    s->drop_expired = c->drop_expired;
    s->shed_sheddable_above = c->shed_sheddable_above;
    s->service = c->service;
    memcpy(s->errors, c->errors, sizeof s->errors[0] * c->nerrors);
    s->nerrors = c->nerrors;
    s->rate_limit_rps = c->rate_limit_rps;
    s->burst = c->burst;
    s->retry_after = c->retry_after;
    s->retry_after_s = c->retry_after_s;
    s->reply_loss_rate = c->reply_loss_rate;
    s->load_slowdown = c->load_slowdown;
    s->overload_signal = c->overload_signal;
    s->retry_after_format = c->retry_after_format;
    s->retry_after_on_503 = c->retry_after_on_503;
    s->ratelimit_reset = c->ratelimit_reset;
    s->capacity = c->capacity;
    for (uint32_t i = 0; i < c->noutages; i++)
        s->outages[i] = (spec_outage){.start_s = c->outages[i].start_s, .end_s = c->outages[i].end_s,
                                      .mode = c->outages[i].mode, .outcome = c->outages[i].outcome,
                                      .error_p = c->outages[i].error_p};
    s->noutages = c->noutages;
    /* disjoint (validated), so starts are distinct and the order total */
    qsort(s->outages, s->noutages, sizeof s->outages[0], by_start);

    s->keys = c->keys;
    s->enforcement = c->enforcement;
    s->content_collision_p = c->content_collision_p;

    s->policy = scn_tool_policy(c, SPEC_MAX_TOOLS, c->policy.strategy);
    s->plugin = plugin_of(c, SPEC_MAX_TOOLS);
    s->side_effect = c->side_effect;
    s->sheddable = c->priority == 1;
    for (uint32_t t = 0; t < c->ntools; t++)
        s->tools[t] = (spec_tool){.policy = scn_tool_policy(c, t, c->policy.strategy),
                                  .effect = scn_tool_effect(c, t),
                                  .weight = c->tools[t].weight,
                                  .sheddable = (c->tools[t].priority >= 0 ? c->tools[t].priority : c->priority) == 1,
                                  .own_strategy = c->tools[t].preset >= SCN_LIBRARY_PRESET,
                                  .plugin = plugin_of(c, t)};
    s->ntools = c->ntools;
    size_t call_max = 0; /* the plugins' blocks per client, as model_init lays them out */
    for (uint32_t t = 0; t < (c->ntools ? c->ntools : 1); t++) {
        const struct hpl_instance *in = c->ntools ? s->tools[t].plugin : s->plugin;
        if (!in)
            continue;
        s->plugin_bytes += (in->desc->client_size + 15u) & ~15u;
        if (((in->desc->call_size + 15u) & ~15u) > call_max)
            call_max = (in->desc->call_size + 15u) & ~15u;
    }
    s->plugin_bytes += (uint32_t)call_max;
    uint32_t n = 0;
    for (uint32_t l = 0; l < c->nlayers && n < SPEC_MAX_LAYERS; l++) {
        const scn_tool *L = &c->layers[l];
        s->layers[n++] = (spec_layer){.policy = scn_layer_policy(c, l, c->policy.strategy),
                                      .own_strategy = layer_fixes_strategy(L),
                                      .kind = L->kind,
                                      .propagate_deadline = L->propagate_deadline,
                                      .think = L->think,
                                      .reissue_p = L->reissue_p,
                                      .repeat_p = L->repeat_p,
                                      .dedup_window_s = L->dedup_window_s};
        s->layers[n - 1].policy.obey_overload = L->obey_overload;
        const hp_library_preset *lp = library_preset(L);
        if (lp && lp->two_layers && n < SPEC_MAX_LAYERS) {
            /* the SDK loop inside: the preset's inner policy, the operation's idempotency */
            hp_policy in = lp->inner;
            in.non_idempotent = s->layers[n - 1].policy.non_idempotent;
            in.idempotency_key = s->layers[n - 1].policy.idempotency_key;
            s->layers[n++] = (spec_layer){.policy = in, .own_strategy = true, .kind = SPEC_LAYER_PLAIN,
                                          .propagate_deadline = true};
            s->layers[n - 1].policy.obey_overload = L->obey_overload;
        }
    }
    s->nlayers = n;

    s->guard = (hp_client_opts){.limiter = c->limiter_opts,
                                .breaker = c->breaker,
                                .breaker_opts = c->breaker_opts,
                                .throttling = c->throttling,
                                .throttle_opts = c->throttle_opts,
                                .hedging = c->hedging,
                                .hedge_opts = c->hedge_opts};
    s->guard.limiter.kind = (hp_limiter_kind)c->limiter;
    s->clients_per_instance = c->clients_per_instance;
    hp_limiter_opts *lo = &s->guard.limiter;
    lo->envoy_budget_percent = off_if_zero(lo->envoy_budget_percent);
    if (lo->envoy_min_retry_concurrency == 0)
        lo->envoy_min_retry_concurrency = HP_OFF;
    lo->finagle_min_retries_per_s = off_if_zero(lo->finagle_min_retries_per_s);
    lo->finagle_percent_can_retry = off_if_zero(lo->finagle_percent_can_retry);
    s->guard.hedge_opts.delay_s = off_if_zero(s->guard.hedge_opts.delay_s);
}

/* The [limits] keys whose library field reads 0 as its default and has no
 * HP_OFF: why an explicit 0 is refused.  The rest of the table's zeros are
 * zeros (compile maps them above, or the library's 0 is the key's
 * documented 0). */
static const struct {
    const char *name, *why;
} zero_refused[] = {
    {"aws_capacity", "the library reads 0 as its default 500 tokens; a quota that allows no retry is "
                     "[retry] max_attempts = 1"},
    {"aws_retry_cost", "the library reads 0 as its default 5 tokens; the smallest cost is 1"},
    {"aws_timeout_cost", "the library reads 0 as its default 10 tokens; the smallest cost is 1"},
    {"grpc_max_tokens", "gRPC requires maxTokens in (0, 1000] (gRFC A6) and the library reads 0 as its default 10"},
    {"grpc_token_ratio", "gRPC requires tokenRatio > 0 (gRFC A6) and the library reads 0 as its default 0.1"},
    {"finagle_ttl_s", "a budget's window must be longer than 0 s and the library reads 0 as its default 10 s"},
    {"breaker_failure_ratio", "a breaker that opens without failures is no breaker, and the library reads 0 as "
                              "its default 0.5"},
    {"breaker_min_requests", "the library reads 0 as its default 20; the smallest is 1 (every result is counted "
                             "before the check)"},
    {"breaker_window_s", "the window must be longer than 0 s and the library reads 0 as its default 10 s"},
    {"breaker_open_s", "the breaker must stay open for some time before its probes, and the library reads 0 as its default 5 s"},
    {"breaker_probes", "a half-open breaker needs a probe to close, and the library reads 0 as its default 3"},
    {"throttle_k", "K must be > 0 (with 0 every request would be rejected) and the library reads 0 as its "
                   "default 2"},
    {"throttle_window_s", "the window must be longer than 0 s and the library reads 0 as its default 120 s"},
    {"hedge_percentile", "a percentile is in (0, 1] and the library reads 0 as its default 0.95"},
    {"hedge_max", "0 copies is no hedging (hedging = false) and the library reads 0 as its default 1"},
};

const char *scn_zero_refusal(const key *k)
{
    if (strcmp(k->section, "limits"))
        return NULL;
    for (size_t i = 0; i < sizeof zero_refused / sizeof zero_refused[0]; i++)
        if (!strcmp(zero_refused[i].name, k->name))
            return zero_refused[i].why;
    return NULL;
}

uint32_t scn_trace_clients(const scn_config *c)
{
    const spec_table *data = scn_data();
    const spec_entry *e = spec_table_entry(data, c->trace);
    if (!e || e->kind != SPEC_DATA_TRACE)
        return 1;
    double mean = spec_trace_cum(data, e, c->trace_linear)[e->n - 1];
    double n = ceil(mean + 10 * sqrt(mean) + 10);
    return n < 1e8 ? (uint32_t)n : 100000000u;
}

uint32_t scn_strategies(const scn_config *c, hp_strategy out[HP_STRATEGY_COUNT])
{
    if (c->nstrategies == 0) {
        out[0] = c->policy.strategy;
        return 1;
    }
    memcpy(out, c->strategies, sizeof out[0] * c->nstrategies);
    return c->nstrategies;
}
