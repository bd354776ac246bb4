/*
 * modelutil.h - what the model's unit tests (test_model.c, test_host.c)
 * share.  Header only; include after cmocka and the model's headers.
 */
#ifndef HERD_TESTS_MODELUTIL_H
#define HERD_TESTS_MODELUTIL_H

#include <string.h>

#include "../sim/base/alloc.h"
#include "../sim/engine/rng.h"
#include "../sim/engine/sim.h"
#include "../sim/model/model.h"
#include "../sim/scenario/scenario.h"

/* Replication rep of c under strategy st, validated, compiled into *spec
 * (event by event if asked: spec.h) and set up in *sim and *md (the
 * caller frees both); any failure fails the test. */
static inline void model_test_start(const scn_config *c, hp_strategy st, uint32_t rep, bool event_by_event,
                                    model_spec *spec, sim_t *sim, model *md)
{
    char err[SCN_ERR_MAX];
    if (scn_validate(c, "test", err) != 0)
        fail_msg("%s", err);
    assert_int_equal(sim_init(sim, rng_replication_seed(c->seed, rep), 16), 0);
    scn_compile(c, spec);
    spec->event_by_event = event_by_event;
    assert_int_equal(model_init(md, spec, scn_data(), st, sim), 0);
}

/* model_test_start, then run to its end. */
static inline void model_test_run(const scn_config *c, hp_strategy st, uint32_t rep, model_spec *spec, sim_t *sim,
                                  model *md)
{
    model_test_start(c, st, rep, false, spec, sim, md);
    assert_int_equal(model_run(md), 0);
}

/* Every allocation of one run of c fails in turn (the n-th, n < max_n,
 * until a run needs no more than n): how many runs reported the failure.
 * Each failed run must free what it took (ASan/valgrind check that). */
static inline int model_allocation_failures(const scn_config *c, long max_n)
{
    model_spec spec;
    scn_compile(c, &spec);
    int failures = 0;
    for (long n = 0; n < max_n; n++) {
        herd_alloc_fail_after(n);
        sim_t sim;
        model md;
        memset(&md, 0, sizeof md);
        int rc = sim_init(&sim, 7, 0);
        if (rc == 0)
            rc = model_init(&md, &spec, scn_data(), HP_FULL_JITTER, &sim);
        if (rc == 0)
            rc = model_run(&md);
        long used = herd_alloc_fail_after(-1);
        model_free(&md);
        sim_free(&sim);
        if (rc != 0)
            failures++;
        else if (used <= n)
            break; /* the run needed at most n allocations: all sites seen */
    }
    return failures;
}

#endif
