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
#include "../model/results.h"
#include "plan.h"

typedef struct exp_options {
    const char *outdir; /* where the outputs go (created only to publish) */
    int quiet;          /* no table on stdout */
    int table_cols;     /* the table's width (the terminal's or COLUMNS; 0: no limit) */
    int jobs;           /* worker threads, >= 1 */
    int stats;          /* print engine figures (events/s, memory) on stderr */
    uint32_t shard_k, shard_n; /* run shard k of n only (n = 0: every job) and write partial.herd */
    int mpi;            /* hand jobs out to MPI ranks (herd-mpi only); rank 0 writes */
    double live;        /* > 0: first show the live view at this speed (simulated s per wall s) */
    int live_cols, live_lines; /* the screen it is drawn on (0: 80 x 24; at least 80 x 24) */
    int live_follow;    /* the size came from the terminal: follow it when it changes (SIGWINCH) */
    int queue;          /* the engine's pending-event set (sim_queue_kind; 0: the default) */
    /* for manifest.txt (all optional) */
    const char *version;
    int argc;
    char *const *argv;
    const char *text;   /* the scenario file's bytes as read */
    size_t textlen;
    const char *const *sets; /* every --set, --seed, --replications and --sweep, as given */
    const char *const *scn_sets; /* the overrides as scn_load took them (origins of the resolved model) */
    int scn_nsets;
    int nsets;
} exp_options;

/* Runs base (loaded from `path`, named in messages): plan, simulations,
 * reports.  Returns 0; -1 with a message in err when the run failed
 * (memory, I/O: nothing published); -2 when the plan was refused (a bad
 * value at some variant or sweep point: nothing run, nothing created). */
int exp_run(const scn_config *base, const char *path, const exp_options *opt, char *err, size_t errlen);

#ifdef HERD_MPI
/* MPI (mpi.c, herd-mpi only): rank 0 hands out todo[0..ntodo) one job at a
 * time to the other ranks, which run them with run(ctx, j) and send the
 * results back; rank 0 stores them in results/seeds (one rank alone runs
 * everything itself).  *root is set on rank 0.  Returns 0, or -1 with err
 * (a worker's failure is reported through run's context as well). */
int exp_mpi_jobs(const size_t *todo, size_t ntodo, int (*run)(void *ctx, size_t j), void *ctx,
                 model_results *results, uint64_t *seeds, int *root, char *err, size_t errlen);
#endif

/* herd run --live: replication 0 of the first point, every strategy side
 * by side, drawn on f as text redrawn in place (ANSI) while it runs,
 * simulated time paced at `speed` simulated seconds per wall second, on a
 * screen of cols x lines (raised to 80 x 24; the strategies beyond what it
 * holds are left out): a legend line names the density characters, and
 * the last frame shows the whole run compressed.  With follow, a change
 * of the terminal's size (SIGWINCH) is followed: the screen is cleared and
 * the next frame drawn at the new size.  When f is not a terminal, no
 * cursor movement is written and nothing is paced: only the last frame, as
 * plain text.  Returns 0, or -1 with err. */
int exp_live(const exp_plan *plan, const char *name, double speed, int cols, int lines, int follow, FILE *f,
             char *err, size_t errlen);

/* herd check: builds the plan of base and prints it (exp_describe), with
 * the memory estimate of a run on `opt->jobs` threads and the order of
 * magnitude of its events, without running anything.  Returns 0, -2 when
 * the plan is refused (message in err), -1 on a write error. */
int exp_check(const scn_config *base, const char *path, const exp_options *opt, FILE *f, char *err,
              size_t errlen);

/* The plan as text (what manifest.txt and `herd check` show): one line per
 * variant with its overrides, per sweep with its labels, per point with
 * its strategies, replications and seed, then the totals.  Returns 0, or -1
 * if f reported a write error. */
int exp_describe(FILE *f, const exp_plan *plan);

/* One job of one plan, for a batch that mixes plans (herd tune). */
typedef struct exp_job_ref {
    const exp_plan *plan;
    size_t job;
} exp_job_ref;

/* Runs refs[0..n) on `jobs` threads, each as herd run would (the same
 * seed for the same plan and job, so results do not depend on the thread
 * count or on the batch around it), without timeseries: out[i] and
 * seeds[i] receive job i's results and replication seed.  Returns 0, or
 * -1 with err (every out[] freed). */
int exp_run_batch(const exp_job_ref *refs, size_t n, int jobs, int queue, model_results *out, uint64_t *seeds,
                  char *err, size_t errlen);

/* Seconds of a monotonic clock (for elapsed times). */
double exp_wall_seconds(void);

#endif
