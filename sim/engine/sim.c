/*
 * sim.c - the run loop (see sim.h).
 *
 * Invariant: sim->now never decreases; every event popped has
 * time >= the previous one (asserted), because sim_schedule only accepts
 * non-negative delays.
 */
#include "sim.h"

#include <assert.h>
#include <math.h>
#include <string.h>

int sim_init(sim_t *sim, uint64_t replication_seed, size_t hint)
{
    memset(sim, 0, sizeof *sim);
    if (eq_init(&sim->queue, hint) != 0)
        return -1;
    if (rng_init(&sim->rng, replication_seed) != 0) {
        eq_free(&sim->queue);
        return -1;
    }
    return 0;
}

void sim_free(sim_t *sim)
{
    if (!sim)
        return;
    eq_free(&sim->queue);
    rng_free(&sim->rng);
}

void sim_on(sim_t *sim, uint32_t type, sim_handler h, void *ctx)
{
    assert(type < SIM_MAX_TYPES);
    sim->handler[type] = h;
    sim->ctx[type] = ctx;
}

void sim_schedule(sim_t *sim, double delay, uint32_t type, uint32_t obj,
                  uint32_t tag, int32_t arg)
{
    assert(delay >= 0 && isfinite(delay));
    assert(type < SIM_MAX_TYPES && sim->handler[type]);
    eq_event ev = {.time = sim->now + delay, .type = type, .obj = obj, .tag = tag, .arg = arg};
    if (eq_push(&sim->queue, &ev) != 0) {
        sim->failed = true;
        sim->stopped = true;
    }
}

int sim_run(sim_t *sim, double until)
{
    sim->stopped = sim->failed;
    while (!sim->stopped) {
        const eq_event *top = eq_peek(&sim->queue);
        if (!top || top->time > until)
            break;
        eq_event ev;
        eq_pop(&sim->queue, &ev);
        assert(ev.time >= sim->now);
        sim->now = ev.time;
        sim->events++;
        sim->handler[ev.type](sim, &ev, sim->ctx[ev.type]);
    }
    return sim->failed ? -1 : 0;
}
