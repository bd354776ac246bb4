/*
 * rng.h - random streams, one GSL generator per purpose.
 *
 * A simulation owns RNG_PURPOSE_COUNT generators (gsl_rng_mt19937, about
 * 2.5 KB of state each: per purpose, never per client).  Each is seeded
 * from (master seed, replication, purpose) through a splitmix64 mix, so
 *   - replications are independent streams,
 *   - the same (seed, replication) gives every strategy and variant the same
 *     arrival, network, service and error draws (common random numbers),
 *   - a seed of 0 is never passed to GSL (GSL would silently replace it).
 * gsl_rng_env_setup() is never called: the environment cannot change a run.
 */
#ifndef HERD_RNG_H
#define HERD_RNG_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

typedef enum rng_purpose {
    RNG_ARRIVALS = 0, /* client start times, think times */
    RNG_SERVICE,      /* server service times */
    RNG_NETWORK,      /* one-way delays */
    RNG_BACKOFF,      /* jitter draws handed to the policy library */
    RNG_ERRORS,       /* background error draws */
    RNG_PURPOSE_COUNT
} rng_purpose;

typedef struct rng_set {
    gsl_rng *r[RNG_PURPOSE_COUNT];
} rng_set;

/* The 64-bit seed of one replication: mix(master, replication).  Reported
 * in summary.csv so a row can be traced to its streams. */
uint64_t rng_replication_seed(uint64_t master, uint32_t replication);

/* The 32-bit, never-zero GSL seed for one purpose of a replication. */
unsigned long rng_stream_seed(uint64_t replication_seed, rng_purpose p);

/* Allocates and seeds every stream.  Returns 0, or -1 on allocation
 * failure (nothing is left allocated). */
int rng_init(rng_set *s, uint64_t replication_seed);

/* Reseeds every stream as rng_init would from seed (the streams keep
 * their memory): a simulation continues from its present state on fresh
 * draws (multilevel splitting, herd rare). */
void rng_reseed(rng_set *s, uint64_t seed);

/* Frees every stream; safe on a zeroed or already-freed set. */
void rng_free(rng_set *s);

/* Uniform double in [0, 1) from stream p. */
static inline double rng_uniform(rng_set *s, rng_purpose p)
{
    return gsl_rng_uniform(s->r[p]);
}

#endif
