/*
 * rng.c - seeding of the per-purpose GSL streams (see rng.h).
 *
 * GSL's mt19937 takes a 32-bit seed, so each stream's seed is the top 32
 * bits of splitmix64(replication_seed ^ golden * (purpose + 1)), and 0 is
 * mapped to a fixed non-zero constant.
 */
#include "rng.h"

#include <stddef.h>
#include <stdlib.h>

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t rng_replication_seed(uint64_t master, uint32_t replication)
{
    return splitmix64(splitmix64(master) ^ ((uint64_t)replication * 0xd1b54a32d192ed03ULL));
}

unsigned long rng_stream_seed(uint64_t replication_seed, rng_purpose p)
{
    uint64_t x = splitmix64(replication_seed ^ (0x9e3779b97f4a7c15ULL * ((uint64_t)p + 1)));
    unsigned long s = (unsigned long)(x >> 32);
    return s ? s : 0x5eed5eedUL;
}

/* A generator of type t, not yet seeded: what gsl_rng_alloc builds (the
 * gsl_rng of gsl_rng.h, its type and a state of t->size bytes, both
 * released by gsl_rng_free) without the seeding with GSL's default seed
 * that it does and rng_init would undo at once: for MT19937, a pass over
 * its 624 words, about 5,600 instructions a stream, five streams a run
 * (with the cleared state, about 1% of the AWS OCC sweep's instructions,
 * 9,500 runs).  malloc, not calloc: gsl_rng_set writes the whole
 * state.  NULL when out of memory
 * (malloc directly, as gsl_rng_alloc: the allocation hook cannot see
 * it). */
static gsl_rng *rng_new(const gsl_rng_type *t)
{
    gsl_rng *r = malloc(sizeof *r);
    if (!r)
        return NULL;
    r->type = t;
    r->state = malloc(t->size);
    if (!r->state) {
        free(r);
        return NULL;
    }
    return r;
}

int rng_init(rng_set *s, uint64_t replication_seed)
{
    for (int p = 0; p < RNG_PURPOSE_COUNT; p++)
        s->r[p] = NULL;
    for (int p = 0; p < RNG_PURPOSE_COUNT; p++) {
        s->r[p] = rng_new(gsl_rng_mt19937);
        if (!s->r[p]) {
            rng_free(s);
            return -1;
        }
        gsl_rng_set(s->r[p], rng_stream_seed(replication_seed, (rng_purpose)p));
    }
    return 0;
}

void rng_reseed(rng_set *s, uint64_t seed)
{
    for (int p = 0; p < RNG_PURPOSE_COUNT; p++)
        gsl_rng_set(s->r[p], rng_stream_seed(seed, (rng_purpose)p));
}

void rng_free(rng_set *s)
{
    if (!s)
        return;
    for (int p = 0; p < RNG_PURPOSE_COUNT; p++) {
        if (s->r[p])
            gsl_rng_free(s->r[p]);
        s->r[p] = NULL;
    }
}
