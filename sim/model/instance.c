/*
 * instance.c - [limits] clients_per_instance: the library client's state
 * (retry limiter, breaker, adaptive throttling, hedge tracker, adaptive
 * send-rate limiter) kept per instance of N clients instead of once for
 * all: client i belongs to instance i / N, and the last instance holds
 * the remainder (fewer than N when N does not divide the clients).
 *
 * The policy library's hp_client holds every mechanism by value, and
 * hp_call_admit / hp_call_outcome take one client.  The model keeps that
 * one client (md->guard) as the state of the instance in use, and an
 * array per mechanism the scenario uses (allocated once per run, sized by
 * the number of instances).  Reaching another instance (model_guard)
 * stores the mechanisms in use into their arrays and loads the other
 * instance's: O(size of those mechanisms), no allocation, no scan; a run
 * whose consecutive calls come from one instance copies nothing.  With
 * one instance (the default) nothing is allocated and md->guard is the
 * shared state, exactly as before.
 *
 * Invariant: md->guard holds the state of instance md->inst.cur, and
 * every other instance's state is in the arrays; so is its mechanism
 * series gauge (mech.c), whose breaker time md->brk_t is cur's.
 */
#include "model.h"

#include <math.h>
#include <string.h>

#include "../base/alloc.h"

/* spec/memory.h counts instances and their bytes from this size. */
_Static_assert(sizeof(inst_gauge) == SPEC_MEM_INST_GAUGE_BYTES, "update SPEC_MEM_INST_GAUGE_BYTES in spec/memory.h");

/* n copies of the object at one (size bytes), or NULL. */
static void *copies(const void *one, size_t size, uint32_t n)
{
    char *a = herd_malloc_array(n, size);
    if (!a)
        return NULL;
    for (uint32_t i = 0; i < n; i++)
        memcpy(a + (size_t)i * size, one, size);
    return a;
}

int instance_init(model *md)
{
    const model_spec *spec = md->spec;
    instances *in = &md->inst;
    *in = (instances){.per = spec->clients_per_instance, .count = spec_instances(spec)};
    if (in->count <= 1)
        return 0;
    const hp_client *g = &md->guard;
    uint32_t n = in->count;
    if (spec_uses_adaptive(spec) && !(in->adaptive = copies(&g->adaptive, sizeof g->adaptive, n)))
        return -1;
    if (spec->guard.limiter.kind != HP_LIMITER_NONE && !(in->limiter = copies(&g->limiter, sizeof g->limiter, n)))
        return -1;
    if (spec->guard.breaker && !(in->breaker = copies(&g->breaker, sizeof g->breaker, n)))
        return -1;
    if (spec->guard.throttling && !(in->throttle = copies(&g->throttle, sizeof g->throttle, n)))
        return -1;
    if (spec->guard.hedging && !(in->hedge = copies(&g->hedge, sizeof g->hedge, n)))
        return -1;
    if (spec_mech_series(spec)) {
        /* every instance starts as md->guard does: full balance, no
         * rejection, empty windows, a closed breaker from time 0 */
        inst_gauge fresh = {.brk_t = 0};
        if (in->limiter)
            fresh.balance_milli = llround(hp_limiter_balance(&g->limiter, 0) * 1000);
        if (!(in->gauge = copies(&fresh, sizeof fresh, n)))
            return -1;
        in->balance_milli_sum = fresh.balance_milli * (int64_t)n;
    }
    return 0;
}

void instance_free(model *md)
{
    instances *in = &md->inst;
    herd_free(in->adaptive);
    herd_free(in->limiter);
    herd_free(in->breaker);
    herd_free(in->throttle);
    herd_free(in->hedge);
    herd_free(in->gauge);
    *in = (instances){.count = 1};
}

void instance_switch(model *md, uint32_t i)
{
    instances *in = &md->inst;
    hp_client *g = &md->guard;
    uint32_t c = in->cur;
#define SWAP(arr, field)                                                                                      \
    if (in->arr) {                                                                                            \
        in->arr[c] = g->field;                                                                                \
        g->field = in->arr[i];                                                                                \
    }
    SWAP(adaptive, adaptive)
    SWAP(limiter, limiter)
    SWAP(breaker, breaker)
    SWAP(throttle, throttle)
    SWAP(hedge, hedge)
#undef SWAP
    if (in->gauge) {
        in->gauge[c].brk_t = md->brk_t;
        md->brk_t = in->gauge[i].brk_t;
    }
    in->cur = i;
}
