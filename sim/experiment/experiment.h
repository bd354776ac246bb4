/*
 * experiment.h - runs a scenario: builds its plan (plan.h), runs every job
 * (point x strategy x replication) as an independent simulation on a pool
 * of threads, then hands the results to the report (report/report.h).
 *
 * Common random numbers: replication r of every strategy and variant of a
 * point is seeded from (the point's seed, r), so they face the same start
 * times and (as far as their different event orders allow) the same
 * network, service and error draws.
 *
 * Each result is stored at its job's index and the report walks them in
 * plan order after all jobs finish, so the output is byte-identical
 * whatever the thread count.
 */
#ifndef HERD_EXPERIMENT_H
#define HERD_EXPERIMENT_H

#include <stddef.h>
#include <stdio.h>

#include "../scenario/scenario.h"
#include "plan.h"

typedef struct exp_options {
    const char *outdir; /* where the outputs go (created only to publish) */
    int quiet;          /* no table on stdout */
    int jobs;           /* worker threads, >= 1 */
    int stats;          /* print engine figures (events/s, memory) on stderr */
    int queue;          /* the engine's pending-event set (sim_queue_kind; 0: the default) */
    /* for manifest.txt (all optional) */
    const char *version;
    int argc;
    char *const *argv;
    const char *text;   /* the scenario file's bytes as read */
    size_t textlen;
    const char *const *sets; /* every --set, --seed, --replications and --sweep, as given */
    int nsets;
} exp_options;

/* Runs base (loaded from `path`, named in messages): plan, simulations,
 * reports.  Returns 0; -1 with a message in err when the run failed
 * (memory, I/O: nothing published); -2 when the plan was refused (a bad
 * value at some variant or sweep point: nothing run, nothing created). */
int exp_run(const scn_config *base, const char *path, const exp_options *opt, char *err, size_t errlen);

/* The plan as text (what manifest.txt and `herd check` show): one line per
 * variant with its overrides, per sweep with its labels, per point with
 * its strategies, replications and seed, then the totals.  Returns 0, or -1
 * if f reported a write error. */
int exp_describe(FILE *f, const exp_plan *plan);

#endif
