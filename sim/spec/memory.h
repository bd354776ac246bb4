/*
 * memory.h - how much memory one simulation of a spec needs: what
 * validation (scenario/validate.c) and planning (experiment/plan.c) need
 * to refuse a plan that cannot fit and to bound concurrent simulations,
 * without the model's internals.
 *
 * The estimate reads the spec and the sizes of the model's per-client
 * structures below; model/model.c checks at compile time that those sizes
 * are the model's, so the two cannot drift apart.
 */
#ifndef HERD_MEMORY_H
#define HERD_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spec.h"

/* Latencies of a run are kept exactly (8 bytes a request) up to this many
 * logical requests, in a histogram of SPEC_MEM_LATHIST_BYTES beyond. */
#define SPEC_EXACT_LATENCIES (1u << 18)

/* sizeof(client), sizeof(lh_hist) and sizeof(inst_gauge) in the model
 * (checked there). */
#define SPEC_MEM_CLIENT_BYTES 32u
#define SPEC_MEM_LATHIST_BYTES 655416u
#define SPEC_MEM_INST_GAUGE_BYTES 32u

/* True if the run keeps the mechanism series (mechanisms.csv): a breaker,
 * throttling or a limiter. */
static inline bool spec_mech_series(const model_spec *s)
{
    return s->guard.breaker || s->guard.throttling || s->guard.limiter.kind != HP_LIMITER_NONE;
}

/* The number of instances of spec ([limits] clients_per_instance): 1
 * without the key, with one instance's worth of clients or more, or when
 * the clients share no state (spec_guard_shares_state). */
uint32_t spec_instances(const model_spec *spec);

/* Bytes of model state per instance (0 with one instance): the copies of
 * the mechanisms the spec uses and their series gauge. */
size_t spec_instance_bytes(const model_spec *spec);

/* Bytes of model state per client: its state, one retry state per layer,
 * and per logical request a latency sample and its flags. */
size_t spec_client_bytes(const model_spec *spec);

/* Bytes one simulation of spec needs (per-client state, pending events,
 * latency samples and flags per logical request), an estimate used to
 * refuse plans that cannot fit and to bound concurrent simulations. */
double spec_memory_estimate(const model_spec *spec);

#endif
