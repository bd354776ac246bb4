/*
 * compile.c - a validated scenario (scn_config) into a model_spec: the only
 * place that applies presets and resolves tool and layer policies.  The
 * spec that comes out holds no names and no key text (see spec/spec.h).
 */
#include "keys.h"

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
    p.retry_only = tool->retry_mask; /* zero for tools */
    if (tool->preset >= 0) {
        hp_policy q = hp_policy_preset((hp_side_effect)tool->preset);
        p.max_attempts = q.max_attempts;
        p.base_s = q.base_s;
        p.cap_s = q.cap_s;
        p.non_idempotent = q.non_idempotent;
        p.not_found_ok_on_retry = q.not_found_ok_on_retry;
    }
    size_t first = scn_first_key(section);
    for (size_t i = first; i < scn_key_count && !strcmp(scn_key_table[i].section, section); i++) {
        const key *k = &scn_key_table[i];
        if (!(tool->set & (1u << (i - first))) || k->off < offsetof(scn_tool, over) ||
            k->off >= offsetof(scn_tool, over) + sizeof(hp_policy))
            continue;
        size_t off = k->off - offsetof(scn_tool, over);
        size_t size = k->type == K_DOUBLE ? sizeof(double) : k->type == K_NBOOL ? sizeof(bool) : sizeof(int);
        memcpy((char *)&p + off, (const char *)&tool->over + off, size);
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
    return tool->effect >= 0 ? (hp_side_effect)tool->effect
                             : tool->preset >= 0 ? (hp_side_effect)tool->preset : HP_EFFECT_READ;
}


/* 1 if layer l sets its own strategy (the `strategy` key of [layer]). */
static int layer_fixes_strategy(const scn_tool *layer)
{
    size_t first = scn_first_key("layer");
    for (size_t i = first; i < scn_key_count && !strcmp(scn_key_table[i].section, "layer"); i++)
        if (!strcmp(scn_key_table[i].name, "strategy"))
            return (layer->set & (1u << (i - first))) != 0;
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
    s->recovery_window_s = c->recovery_window_s;
    s->recovery_fraction = c->recovery_fraction;

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
    s->think = c->think;
    s->delay = c->delay;

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
    for (uint32_t i = 0; i < c->noutages; i++)
        s->outages[i] = (spec_outage){.start_s = c->outages[i].start_s, .end_s = c->outages[i].end_s,
                                      .mode = c->outages[i].mode, .outcome = c->outages[i].outcome};
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
                                  .weight = c->tools[t].weight};
    s->ntools = c->ntools;
    for (uint32_t l = 0; l < c->nlayers; l++) {
        const scn_tool *L = &c->layers[l];
        s->layers[l] = (spec_layer){.policy = scn_layer_policy(c, l, c->policy.strategy),
                                    .own_strategy = layer_fixes_strategy(L),
                                    .kind = L->kind,
                                    .obey_overload = L->obey_overload,
                                    .propagate_deadline = L->propagate_deadline,
                                    .think = L->think,
                                    .reissue_p = L->reissue_p,
                                    .repeat_p = L->repeat_p,
                                    .dedup_window_s = L->dedup_window_s};
    }
    s->nlayers = c->nlayers;

    s->limiter = c->limiter_opts;
    s->limiter.kind = (hp_limiter_kind)c->limiter;
    s->breaker = c->breaker;
    s->breaker_opts = c->breaker_opts;
    s->throttling = c->throttling;
    s->throttle_opts = c->throttle_opts;
    s->hedging = c->hedging;
    s->hedge_opts = c->hedge_opts;
}
