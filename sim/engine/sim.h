/*
 * sim.h - the discrete-event engine: a clock, a pending-event set, random
 * streams and a run loop that dispatches each event to the handler
 * registered for its type.
 *
 * The engine knows events, time and random streams, nothing else: models
 * register handlers and interpret the payload.  All state lives in the
 * caller-allocated sim_t, so any number of simulations can run in one
 * process (no globals).
 *
 * Time is a double in seconds.  Near t = 1e6 s (11.6 days) a double still
 * resolves about 1e-10 s, far below any delay herd models (microseconds at
 * the least), and events that land on exactly the same time are ordered by
 * insertion sequence, so ties never depend on rounding.
 */
#ifndef HERD_SIM_H
#define HERD_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "equeue.h"
#include "rng.h"

#define SIM_MAX_TYPES 16
#define SIM_MAX_LANES 8

/* A FIFO lane: events that are all scheduled with the same fixed delay
 * (a constant timeout, a constant network delay) become due in the order
 * they were scheduled, so a ring buffer holds them in time order and they
 * never enter the heap: O(1) to schedule and to pop.  The run loop takes
 * the earliest of the heap top and the lane heads by (time, seq), with seq
 * shared with the heap, so the event order is exactly the order a single
 * heap would give. */
typedef struct sim_lane {
    double delay;
    eq_event *ring;
    size_t head, len, cap;
} sim_lane;

typedef struct sim sim_t;

/* A handler for one event type; ev is valid only during the call. */
typedef void (*sim_handler)(sim_t *sim, const eq_event *ev, void *ctx);

struct sim {
    double now;
    eq_queue queue;
    rng_set rng;
    uint64_t events;  /* events dispatched so far */
    bool stopped;
    bool failed;      /* an allocation failed while scheduling */
    sim_handler handler[SIM_MAX_TYPES];
    void *ctx[SIM_MAX_TYPES];
    sim_lane lane[SIM_MAX_LANES];
    int nlanes;
};

/* Initialises a simulation at time 0 with streams seeded from
 * replication_seed and room for `hint` pending events.  Returns 0, or -1 on
 * allocation failure (sim is then safe to sim_free). */
int sim_init(sim_t *sim, uint64_t replication_seed, size_t hint);

/* Frees the queue and streams.  sim_free(NULL) is a no-op. */
void sim_free(sim_t *sim);

/* Registers handler h (with ctx) for events of `type` (< SIM_MAX_TYPES). */
void sim_on(sim_t *sim, uint32_t type, sim_handler h, void *ctx);

/* Schedules an event `delay` seconds from now (delay >= 0, finite).  On
 * allocation failure the simulation is marked failed and stops. */
void sim_schedule(sim_t *sim, double delay, uint32_t type, uint32_t obj,
                  uint32_t tag, int32_t arg);

/* sim_schedule with the event's aux payload. */
void sim_schedule_aux(sim_t *sim, double delay, uint32_t type, uint32_t obj,
                      uint32_t tag, int32_t arg, float aux);

/* Returns a lane for events delayed by exactly `delay` seconds (>= 0,
 * finite), reusing one with the same delay; -1 if all SIM_MAX_LANES are in
 * use (then use sim_schedule). */
int sim_lane_for(sim_t *sim, double delay);

/* Schedules an event `delay` seconds from now through lane `lane` (the
 * lane's delay).  On allocation failure the simulation is marked failed. */
void sim_schedule_lane(sim_t *sim, int lane, uint32_t type, uint32_t obj, uint32_t tag, int32_t arg,
                       float aux);

/* Runs until the queue is empty, sim_stop() is called, or the next event
 * lies after `until` (events at exactly `until` run).  Returns 0, or -1 if
 * the simulation failed (allocation). */
int sim_run(sim_t *sim, double until);

/* Makes sim_run return after the current event. */
static inline void sim_stop(sim_t *sim) { sim->stopped = true; }

/* Marks the simulation failed (a model could not allocate): sim_run stops
 * after the current event and returns -1. */
static inline void sim_fail(sim_t *sim)
{
    sim->failed = true;
    sim->stopped = true;
}

static inline double sim_now(const sim_t *sim) { return sim->now; }

static inline double sim_uniform(sim_t *sim, rng_purpose p)
{
    return rng_uniform(&sim->rng, p);
}

static inline gsl_rng *sim_rng(sim_t *sim, rng_purpose p)
{
    return sim->rng.r[p];
}

#endif
