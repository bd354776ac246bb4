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

#include <stddef.h>

#include "spec.h"

/* Latencies of a run are kept exactly (8 bytes a request) up to this many
 * logical requests, in a histogram of SPEC_MEM_LATHIST_BYTES beyond. */
#define SPEC_EXACT_LATENCIES (1u << 18)

/* sizeof(client) and sizeof(lh_hist) in the model (checked there). */
#define SPEC_MEM_CLIENT_BYTES 24u
#define SPEC_MEM_LATHIST_BYTES 655416u

/* Bytes of model state per client: its state, one retry state per layer,
 * and per logical request a latency sample and its flags. */
size_t spec_client_bytes(const model_spec *spec);

/* Bytes one simulation of spec needs (per-client state, pending events,
 * latency samples and flags per logical request), an estimate used to
 * refuse plans that cannot fit and to bound concurrent simulations. */
double spec_memory_estimate(const model_spec *spec);

#endif
