/*
 * experiment.h - runs a scenario: every sweep point x strategy x
 * replication as an independent simulation, then writes summary.csv, aggregate.csv and
 * timeseries.csv and prints a comparison table.
 *
 * Common random numbers: replication r of every strategy is seeded from
 * (seed, r), so strategies face the same start times and (as far as their
 * different event orders allow) the same network, service and error draws.
 *
 * Runs are independent jobs, executed by `jobs` threads; each result is
 * stored at its own index and files are written in a fixed order after all
 * jobs finish, so the output is byte-identical whatever the thread count.
 */
#ifndef HERD_EXPERIMENT_H
#define HERD_EXPERIMENT_H

#include <stddef.h>
#include <stdio.h>

#include "../scenario/scenario.h"

typedef struct exp_options {
    const char *outdir; /* where the CSVs go (created) */
    int quiet;          /* no table on stdout */
    int jobs;           /* worker threads, >= 1 */
    int stats;          /* print engine figures (events/s, memory) on stderr */
} exp_options;

/* Runs cfg (loaded from `path`, named in messages), every sweep point x
 * strategy x replication.  Returns 0, or -1 with a message in err; on error
 * no output file is left behind (earlier complete files are untouched). */
int exp_run(const scn_config *cfg, const char *path, const exp_options *opt, char *err, size_t errlen);

#endif
