/*
 * tune.h - herd tune: the retry settings to use, found by search and
 * checked across operating points.  A layer above the experiment layer:
 * it builds one plan per candidate (the scenario with the candidate's
 * overrides), runs them through exp_run_batch, reads the results and
 * decides; it never drives the model itself.
 *
 * The method (race.c):
 *   - operating points are the plan's points (its variants x [sweep]
 *     points); every candidate runs on the same replication seeds at
 *     every point (common random numbers), so comparisons are paired;
 *   - racing: every candidate alive gets replications in rounds, from
 *     min_reps, doubling, up to max_reps; after each round a candidate is
 *     dropped as infeasible when a constraint's one-sided (1 - alpha/k)
 *     bound (k: the candidate's constraint tests, Bonferroni) lies
 *     entirely beyond its bound at some point, or when a metric it needs
 *     is undefined (NaN: n/a) in some run; and as dominated when the
 *     one-sided paired t test shows its objective worse than the
 *     incumbent's (the best candidate proven feasible; while there is
 *     none, the best candidate whose constrained metrics are no worse than
 *     its own in any run), Holm-corrected at alpha across the round's
 *     tests; candidates identical run for run so far race as one group
 *     (its first tested for all, regrouped every round), and a group left
 *     at the end keeps its first;
 *   - the survivors are the finalists; they (and the scenario as written,
 *     when it is one candidate) run again on validation seeds the search
 *     never used (master seed: the replication seed of the search's seed
 *     at replication 2^32 - 1, a purpose of its own), and the
 *     recommendation, chosen on the search's data, reports its figures
 *     from the validation alone.
 * Results are byte-identical for any --jobs: every decision reads results
 * by (candidate, point, replication), never by completion order.
 */
#ifndef HERD_TUNE_H
#define HERD_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "../model/results.h"
#include "space.h"

#define TUNE_MAX_CONSTRAINTS 8

typedef struct tune_constraint {
    const metric_desc *metric;
    int upper;          /* 1: METRIC <= bound; 0: METRIC >= bound */
    double bound;
    char text[96];      /* as given, for messages */
} tune_constraint;

typedef struct tune_request {
    const char *file;              /* the scenario file */
    const char *path;              /* as messages show it */
    const char *const *sets;       /* --set, --sweep (as overrides), --seed: applied to every candidate */
    int nsets;
    const char *const *flags;      /* the same as given, for the manifest */
    int nflags;
    const tune_space *space;
    const metric_desc *objective;
    int maximize;
    tune_constraint cons[TUNE_MAX_CONSTRAINTS];
    int ncons;
    int aggregate_mean;            /* 0: a candidate's worst point; 1: the mean over points */
    uint32_t min_reps, max_reps, val_reps;
    double alpha;                  /* 0.05: 95% decisions */
    int jobs, queue, quiet;
    const char *outdir;
    const char *version;
    int argc;
    char *const *argv;
} tune_request;

/* Runs the search and writes DIR/tune.csv, DIR/recommendation.txt,
 * DIR/manifest.txt and the figure DIR/tune.png (.svg), and prints the
 * summary on stdout unless quiet (progress on stderr when it is a
 * terminal).  Returns 0; -2 when the input is refused (a candidate's
 * value, a scenario with several strategies per candidate, a metric
 * name: message in err, nothing created); -1 when the run failed. */
int tune_run(const tune_request *rq, char *err, size_t errlen);

#endif
