/*
 * compile.c - a validated scenario (scn_config) into a model_spec: the only
 * place that applies presets and resolves tool and layer policies.  The
 * spec that comes out holds no names and no key text (see spec/spec.h).
 */
#include "keys.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The [retry] policy, then a tool's or layer's preset and keys. */
static hp_policy section_policy(const scn_config *c, const scn_tool *tool, const char *section, hp_strategy s)
{
    hp_policy p = c->policy;
    p.strategy = s;
    if (c->keys != SPEC_KEYS_NONE)
        p.idempotency_key = true;
    if (!tool)
        return p;
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
    return p;
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

void scn_compile(const scn_config *c, model_spec *s)
{
    memset(s, 0, sizeof *s);
    s->bucket_s = c->bucket_s;
    s->horizon_s = c->horizon_s;
    s->warmup_s = c->warmup_s;
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
    s->delay = c->delay;
    s->send_cost_s = c->send_cost_s;

    s->kind = c->kind;
    s->workers = c->workers;
    s->queue = c->queue;
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
    s->side_effect = c->side_effect;
    for (uint32_t t = 0; t < c->ntools; t++)
        s->tools[t] = (spec_tool){.policy = scn_tool_policy(c, t, c->policy.strategy),
                                  .effect = scn_tool_effect(c, t),
                                  .weight = c->tools[t].weight,
                                  .own_strategy = c->tools[t].preset >= SCN_LIBRARY_PRESET};
    s->ntools = c->ntools;
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
