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
 *
 * Where pending events live.  Every event gets the next insertion
 * sequence number of the simulation, and the run loop always dispatches
 * the smallest (time, seq) among:
 *   - the pending-event set: a ladder queue (ladder.h, the default) or the
 *     4-ary heap (equeue.h, the reference), chosen at sim_init_queue;
 *   - lanes, FIFO queues of events that become due in the order they were
 *     scheduled, so they never enter the set: a fixed-delay lane (a
 *     constant network delay or service time), the zero-delay lane (every
 *     event scheduled 0 s ahead), timer lanes (a constant attempt timeout,
 *     24 bytes a timer, cancelled timers pruned), and source lanes (a
 *     sequence of events produced on demand, such as every client's start
 *     in order).
 * So the order is exactly the order one heap of every event would give.
 *
 * Memory: events live in 512-byte chunks of one pool (chunk.h) shared by
 * the set and the lanes, reused as events come and go; nothing per event
 * is allocated.
 */
#ifndef HERD_SIM_H
#define HERD_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "chunk.h"
#include "equeue.h"
#include "ladder.h"
#include "rng.h"

#define SIM_MAX_TYPES 16
#define SIM_MAX_LANES 8

/* More consecutive events than this at one simulated instant stop the run
 * with SIM_ERR_STUCK (the default bound; see sim_set_same_time_limit). */
#define SIM_SAME_TIME_LIMIT 10000000ULL

typedef enum sim_queue_kind {
    SIM_QUEUE_LADDER = 0, /* the default */
    SIM_QUEUE_HEAP,       /* the 4-ary heap, for reference */
    SIM_QUEUE_COUNT
} sim_queue_kind;

typedef enum sim_error {
    SIM_OK = 0,
    SIM_ERR_MEMORY, /* an allocation failed */
    SIM_ERR_STUCK   /* too many events at one instant: time does not advance */
} sim_error;

typedef struct sim sim_t;

/* A handler for one event type; ev is valid only during the call. */
typedef void (*sim_handler)(sim_t *sim, const eq_event *ev, void *ctx);

/* For a timer lane: true if the timer ev is cancelled (its handler would
 * do nothing), so it may be dropped unseen. */
typedef bool (*sim_dead_fn)(const eq_event *ev, void *ctx);

/* For a source lane: fills ev (time, type, obj, tag, arg, aux; not seq)
 * with the i-th event of the source, i = 0, 1, ... in order. */
typedef void (*sim_source_fn)(void *ctx, uint64_t i, eq_event *ev);

enum { SIM_LANE_FIXED = 0, SIM_LANE_TIMER, SIM_LANE_SOURCE };

typedef struct sim_lane {
    eq_event head;       /* the lane's next event; time = +inf when empty */
    double delay;        /* fixed and timer lanes */
    int kind;
    ck_fifo q;           /* the entries after head */
    sim_dead_fn dead;    /* timer lanes */
    void *dead_ctx;
    uint64_t ndead;      /* timers reported cancelled since the last pruning */
    sim_source_fn gen;   /* source lanes */
    void *gen_ctx;
    uint64_t gi, gn, gseq; /* next index, count, seq of index 0 */
} sim_lane;

struct sim {
    double now;
    double until;     /* of the current sim_run */
    int qkind;        /* sim_queue_kind */
    eq_queue heap;
    lq_queue ladder;
    ck_pool pool;
    rng_set rng;
    uint64_t seq;     /* the next insertion sequence number */
    uint64_t events;  /* events dispatched so far (pruned timers included) */
    uint64_t same_time, same_time_limit;
    bool stopped;
    bool failed;      /* see error */
    sim_error error;
    sim_handler handler[SIM_MAX_TYPES];
    void *ctx[SIM_MAX_TYPES];
    sim_lane lane[SIM_MAX_LANES];
    int nlanes;
    uint32_t lane_mask; /* bit i: lane i has a head */
    const char *pf_base; /* see sim_set_prefetch */
    size_t pf_stride;
    int zero_lane;    /* lane of 0 s delays, or -1 */
};

/* The queue kind called `name` ("ladder" or "heap"), or -1. */
int sim_queue_parse(const char *name);

/* The name of queue kind k ("ladder", ...), or NULL if out of range. */
const char *sim_queue_name(int k);

/* Initialises a simulation at time 0 with streams seeded from
 * replication_seed, the default pending-event set and room for `hint`
 * pending events where the set preallocates (the heap).  Returns 0, or -1
 * on allocation failure (sim is then safe to sim_free). */
int sim_init(sim_t *sim, uint64_t replication_seed, size_t hint);

/* sim_init with the pending-event set `kind` (a sim_queue_kind). */
int sim_init_queue(sim_t *sim, uint64_t replication_seed, size_t hint, int kind);

/* Frees the queue, lanes and streams.  sim_free(NULL) is a no-op. */
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

/* Schedules an event at absolute time t (>= now, finite): sim_schedule_aux
 * is this at now + delay (a model computing ahead of the clock, for a
 * client whose next steps touch nothing shared, schedules what follows at
 * the time it computed).  An event at t == now goes to the zero-delay
 * lane; the order is (time, seq) wherever an event waits. */
void sim_schedule_at(sim_t *sim, double t, uint32_t type, uint32_t obj, uint32_t tag, int32_t arg, float aux);

/* Returns a lane for events delayed by exactly `delay` seconds (>= 0,
 * finite), reusing one with the same delay; -1 if all SIM_MAX_LANES are in
 * use (then use sim_schedule). */
int sim_lane_for(sim_t *sim, double delay);

/* Returns a new timer lane: events delayed by exactly `delay` seconds
 * (> 0, finite), stored without arg and aux (24 bytes).  When the model
 * has reported (sim_lane_dead) that at least half of the lane's timers are
 * cancelled, the next schedule on it drops every timer for which dead()
 * is true, counting each as a dispatched event if its time is within the
 * current sim_run's `until` (the count, and so every result, stays what
 * dispatching them would give).  -1 if all lanes are in use. */
int sim_timer_lane(sim_t *sim, double delay, sim_dead_fn dead, void *ctx);

/* Tells timer lane `lane` that one of its timers was cancelled (a hint
 * that decides when to prune; an extra or missing call only changes when). */
static inline void sim_lane_dead(sim_t *sim, int lane) { sim->lane[lane].ndead++; }

/* Schedules an event `delay` seconds from now through lane `lane` (the
 * lane's delay; a timer lane takes arg = 0 and aux = 0 only).  On
 * allocation failure the simulation is marked failed. */
void sim_schedule_lane(sim_t *sim, int lane, uint32_t type, uint32_t obj, uint32_t tag, int32_t arg,
                       float aux);

/* Adds a source of `count` events, the i-th produced by gen(ctx, i, ev)
 * when the one before it has been dispatched; their times must not
 * decrease with i nor be before now.  They take the next `count` sequence
 * numbers, as if all were scheduled now in order: scheduling N events
 * this way costs no memory.  A count of 0 is an empty source (a lane that
 * never fires).  Returns the lane, or -1 if all lanes are in use (then
 * schedule them one by one). */
int sim_source(sim_t *sim, uint64_t count, sim_source_fn gen, void *ctx);

/* Asks the engine to prefetch base + obj * stride for events about to be
 * dispatched (those the ladder spreads into a small rung, those a few
 * places ahead in Bottom and in the FIFO lanes, timers it prunes), so that
 * a model's per-object record is in cache when it is needed.  Only when
 * the count objects take more than SIM_PREFETCH_MIN_BYTES (smaller ones
 * stay in cache anyway); base NULL: no prefetching (the default).  Changes
 * no result. */
#define SIM_PREFETCH_MIN_BYTES (1u << 20)

static inline void sim_set_prefetch(sim_t *sim, const void *base, size_t stride, size_t count)
{
    if (count * stride < SIM_PREFETCH_MIN_BYTES)
        base = NULL;
    sim->pf_base = base;
    sim->pf_stride = stride;
    sim->ladder.pf_base = base;
    sim->ladder.pf_stride = stride;
}

/* Sets the bound on consecutive events at one instant (default
 * SIM_SAME_TIME_LIMIT, at least 1). */
static inline void sim_set_same_time_limit(sim_t *sim, uint64_t n) { sim->same_time_limit = n ? n : 1; }

/* Runs until nothing is pending, sim_stop() is called, or the next event
 * lies after `until` (events at exactly `until` run).  Returns 0, or -1 if
 * the simulation failed: sim->error says why (SIM_ERR_MEMORY: an
 * allocation; SIM_ERR_STUCK: more than the same-time limit of consecutive
 * events at one instant, sim->now being that instant). */
int sim_run(sim_t *sim, double until);

/* Reseeds every random stream from seed (rng_reseed): what follows is
 * drawn afresh; the pending events and the clock stay. */
static inline void sim_reseed(sim_t *sim, uint64_t seed) { rng_reseed(&sim->rng, seed); }

/* Makes sim_run return after the current event. */
static inline void sim_stop(sim_t *sim) { sim->stopped = true; }

/* Marks the simulation failed (a model could not allocate): sim_run stops
 * after the current event and returns -1. */
static inline void sim_fail(sim_t *sim)
{
    if (!sim->failed)
        sim->error = SIM_ERR_MEMORY;
    sim->failed = true;
    sim->stopped = true;
}

/* A one-line description of sim->error (a static string). */
const char *sim_error_text(sim_error e);

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
