/*
 * memory.c - the memory estimate of one simulation (see memory.h).
 */
#include "memory.h"

#include <stdbool.h>
#include <stdint.h>

size_t spec_client_bytes(const model_spec *spec)
{
    size_t layers = spec->nlayers ? spec->nlayers : 1;
    uint64_t total = (uint64_t)spec->clients * spec->requests_per_client;
    const spec_layer *in = spec->nlayers ? &spec->layers[spec->nlayers - 1] : NULL;
    bool budget = false;
    for (uint32_t t = 0; t < (spec->ntools ? spec->ntools : 1) && !in; t++)
        budget |= (spec->ntools ? spec->tools[t].policy : spec->policy).budget_s > 0;
    size_t b = SPEC_MEM_CLIENT_BYTES + (layers - 1) * sizeof(hp_state);
    b += (!in || !in->own_strategy || in->policy.strategy == HP_DECORRELATED_JITTER) ? sizeof(double) : 0;
    b += (layers > 1 || budget || (in && in->policy.budget_s > 0)) ? sizeof(double) : 0;
    b += spec->task_steps > 1 ? sizeof(double) : 0;
    b += spec->guard.limiter.kind != HP_LIMITER_NONE ? sizeof(uint32_t) : 0;
    b += spec->guard.hedging ? sizeof(double) : 0;
    b += spec->connections_per_host ? 2 * sizeof(uint32_t) + sizeof(uint8_t) + sizeof(double) : 0; /* host.h */
    b += spec->guard.hedging && spec->drop_expired ? sizeof(double) : 0; /* the attempt's deadline */
    b += spec->plugin_bytes; /* retry plugins' blocks (what a Python object takes is not counted) */
    size_t per_op = (spec_keeps_op_flags(spec) ? sizeof(uint8_t) : 0) +
                    (spec->keys == SPEC_KEYS_CONTENT_HASH ? sizeof(uint32_t) : 0) + (spec->ntools > 1 ? sizeof(uint8_t) : 0) + (total <= SPEC_EXACT_LATENCIES ? sizeof(double) : 0);
    for (uint32_t l = 0; l < spec->nlayers; l++)
        if (spec->layers[l].dedup_window_s > 0) {
            per_op += sizeof(float);
            break;
        }
    return b + per_op * spec->requests_per_client;
}

double spec_memory_estimate(const model_spec *spec)
{
    /* per client: its state (spec_client_bytes, an upper bound over the
     * strategies) and about two pending events (2 x 32 B) and a timer
     * (24 B), doubled for the peaks (every client's events at once, spread
     * starts all pending, allocator slack); the latency histogram when the
     * samples are not kept; the server's queue grows on demand and is not
     * counted. */
    uint64_t total = (uint64_t)spec->clients * spec->requests_per_client;
    return 2.0 * (double)spec->clients * ((double)spec_client_bytes(spec) + 64.0 + 24.0) +
           (double)spec->workers * 8.0 + (total > SPEC_EXACT_LATENCIES ? (double)SPEC_MEM_LATHIST_BYTES : 0.0) +
           (double)spec_instances(spec) * (double)spec_instance_bytes(spec);
}

uint32_t spec_instances(const model_spec *spec)
{
    uint32_t per = spec->clients_per_instance;
    if (!per || per >= spec->clients || !spec_guard_shares_state(spec))
        return 1;
    return spec->clients / per + (spec->clients % per != 0);
}

size_t spec_instance_bytes(const model_spec *spec)
{
    if (spec_instances(spec) <= 1)
        return 0;
    const hp_client_opts *g = &spec->guard;
    return (spec_uses_adaptive(spec) ? sizeof(hp_adaptive) : 0) +
           (g->limiter.kind != HP_LIMITER_NONE ? sizeof(hp_limiter) : 0) + (g->breaker ? sizeof(hp_breaker) : 0) +
           (g->throttling ? sizeof(hp_throttle) : 0) + (g->hedging ? sizeof(hp_hedge) : 0) +
           (spec_mech_series(spec) ? SPEC_MEM_INST_GAUGE_BYTES : 0);
}
