/*
 * sim.c - the run loop (see sim.h).
 *
 * Invariant: sim->now never decreases; every event popped has
 * time >= the previous one (asserted), because sim_schedule only accepts
 * non-negative delays.
 */
#include "sim.h"

#include "../base/alloc.h"

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
    for (int i = 0; i < sim->nlanes; i++)
        herd_free(sim->lane[i].ring);
    sim->nlanes = 0;
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
    sim_schedule_aux(sim, delay, type, obj, tag, arg, 0);
}

void sim_schedule_aux(sim_t *sim, double delay, uint32_t type, uint32_t obj,
                      uint32_t tag, int32_t arg, float aux)
{
    assert(delay >= 0 && isfinite(delay));
    assert(type < SIM_MAX_TYPES && sim->handler[type]);
    eq_event ev = {.time = sim->now + delay, .type = type, .obj = obj, .tag = tag, .arg = arg, .aux = aux};
    if (eq_push(&sim->queue, &ev) != 0)
        sim_fail(sim);
}

int sim_lane_for(sim_t *sim, double delay)
{
    assert(delay >= 0 && isfinite(delay));
    for (int i = 0; i < sim->nlanes; i++)
        if (sim->lane[i].delay == delay)
            return i;
    if (sim->nlanes == SIM_MAX_LANES)
        return -1;
    sim->lane[sim->nlanes] = (sim_lane){.delay = delay};
    return sim->nlanes++;
}

void sim_schedule_lane(sim_t *sim, int lane, uint32_t type, uint32_t obj, uint32_t tag, int32_t arg,
                       float aux)
{
    assert(lane >= 0 && lane < sim->nlanes);
    assert(type < SIM_MAX_TYPES && sim->handler[type]);
    sim_lane *l = &sim->lane[lane];
    if (l->len == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 64;
        eq_event *n = herd_malloc_array(ncap, sizeof *n);
        if (!n) {
            sim_fail(sim);
            return;
        }
        for (size_t i = 0; i < l->len; i++)
            n[i] = l->ring[(l->head + i) % l->cap];
        herd_free(l->ring);
        l->ring = n;
        l->head = 0;
        l->cap = ncap;
    }
    size_t tail = l->head + l->len;
    if (tail >= l->cap)
        tail -= l->cap;
    l->ring[tail] = (eq_event){.time = sim->now + l->delay, .seq = sim->queue.next_seq++, .type = type,
                               .obj = obj, .tag = tag, .arg = arg, .aux = aux};
    l->len++;
}

int sim_run(sim_t *sim, double until)
{
    sim->stopped = sim->failed;
    while (!sim->stopped) {
        /* The earliest of the heap top and the lane heads. */
        const eq_event *top = eq_peek(&sim->queue);
        int from = -1;
        for (int i = 0; i < sim->nlanes; i++) {
            sim_lane *l = &sim->lane[i];
            if (l->len && (!top || eq_before(&l->ring[l->head], top))) {
                top = &l->ring[l->head];
                from = i;
            }
        }
        if (!top || top->time > until)
            break;
        eq_event ev;
        if (from < 0) {
            eq_pop(&sim->queue, &ev);
        } else {
            sim_lane *l = &sim->lane[from];
            ev = l->ring[l->head];
            l->head = l->head + 1 == l->cap ? 0 : l->head + 1;
            l->len--;
        }
        assert(ev.time >= sim->now);
        sim->now = ev.time;
        sim->events++;
        sim->handler[ev.type](sim, &ev, sim->ctx[ev.type]);
    }
    return sim->failed ? -1 : 0;
}
