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

/* Runs until the queue is empty, sim_stop() is called, or the next event
 * lies after `until` (events at exactly `until` run).  Returns 0, or -1 if
 * the simulation failed (allocation). */
int sim_run(sim_t *sim, double until);

/* Makes sim_run return after the current event. */
static inline void sim_stop(sim_t *sim) { sim->stopped = true; }

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
