/*
 * plan.h - one experiment plan: the (variant x sweep point) points of a
 * scenario, each with its compiled model_spec and its run-level settings,
 * and the (point, strategy, replication) jobs in the order every report
 * walks them.
 *
 * Every point is derived from the base scenario by the same key table as
 * the file and --set (scn_derive), validated and compiled once, when the
 * plan is built: a bad value anywhere is reported before anything runs,
 * and the plan keeps a spec per point, never a scenario.  So run.seed,
 * run.replications, run.strategies, run.baseline, run.timeseries and
 * sections a variant adds take effect per point like any other key.
 *
 * Jobs are laid out point-major (variants outermost, then the sweeps'
 * cartesian product, first sweep outermost), then strategy, then
 * replication; a group is the replications of one (point, strategy).
 */
#ifndef HERD_PLAN_H
#define HERD_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "../scenario/scenario.h"

#define EXP_MAX_POINTS SCN_SWEEP_POINTS_MAX
#define EXP_MAX_NAMES 128

typedef struct exp_point {
    model_spec spec;
    int variant;                        /* index into the base's variants, -1: none */
    uint32_t value[SCN_MAX_SWEEPS];     /* index into each sweep's labels */
    uint64_t seed;                      /* master seed of this point */
    uint32_t replications;
    hp_strategy strategies[HP_STRATEGY_COUNT];
    uint32_t nstrategies;
    int baseline;                       /* index into strategies, -1: no compare rows */
    scn_ts_mode timeseries;             /* which replications keep their series */
    uint16_t tool_name[SPEC_MAX_TOOLS]; /* index into plan names, per [tool] of the spec */
    size_t first_group;                 /* its groups are first_group .. + nstrategies */
} exp_point;

typedef struct exp_group {
    uint32_t point;
    hp_strategy strategy;
    size_t first_job;                   /* its jobs are first_job .. + replications */
} exp_group;

typedef struct exp_plan {
    const scn_config *base;             /* borrowed: names of variants and sweep keys */
    exp_point *points;
    size_t npoints;
    exp_group *groups;
    size_t ngroups;
    size_t njobs;
    char (*labels[SCN_MAX_SWEEPS])[SCN_VALUE_MAX]; /* per sweep, its value labels */
    long nlabels[SCN_MAX_SWEEPS];
    char names[EXP_MAX_NAMES][SCN_NAME_MAX]; /* tool names, interned */
    uint32_t nnames;
} exp_plan;

/* Builds the plan of base (loaded from `path`, named in messages):
 * expands, derives, validates and compiles every point.  Returns 0, or -1
 * with a one-line message in err (nothing allocated then). */
int exp_plan_build(exp_plan *plan, const scn_config *base, const char *path, char *err, size_t errlen);

/* Gives every point of a built plan the master seed `seed` and
 * `replications` replications, and lays its jobs out again (herd tune:
 * the search and its validation run one compiled plan on their own seeds
 * and replication counts).  Cannot fail. */
void exp_plan_relayout(exp_plan *plan, uint64_t seed, uint32_t replications);

/* The job's point and group: job j belongs to the last group whose
 * first_job <= j (binary search, O(log groups)). */
size_t exp_plan_group_of(const exp_plan *plan, size_t job);

/* The seed of replication r at point p (common random numbers: every
 * strategy and variant of a point shares it). */
uint64_t exp_plan_seed(const exp_plan *plan, const exp_point *p, uint32_t r);

/* Bytes one simulation of point p needs at least: the model's state
 * (spec_memory_estimate) and its timeseries up to the time the run
 * surely lasts (the end of the last outage, spike or step, the start
 * spread, the Poisson arrivals), capped by the horizon.  A run lasts
 * longer than that when its retries do; exp_plan_budget bounds the rest. */
double exp_point_memory(const exp_point *p);

/* Peak bytes of the whole run with `threads` simulations at once, as
 * above: the largest simulations running together, plus every result kept
 * until the reports are written (the kept timeseries among them). */
double exp_plan_memory(const exp_plan *plan, int threads);

/* Bytes the built plan itself holds (its points, groups and labels), not
 * counting the runs: herd tune keeps one plan per candidate. */
double exp_plan_bytes(const exp_plan *plan);

/* Shares `limit` bytes between the timeseries that can exist at once
 * (those of running simulations and those kept for the reports) and sets
 * every point's spec.max_buckets: a run whose series would outgrow it
 * stops with a clear error instead of exhausting memory. */
void exp_plan_budget(exp_plan *plan, int threads, double limit);

/* Events one run of point p takes, roughly: *lo with one attempt per
 * logical request, *hi with every attempt used (+inf when attempts are
 * unlimited).  Four to five events per attempt. */
void exp_point_events(const exp_point *p, double *lo, double *hi);

/* Marks in mine[0..njobs) the jobs of shard k of n (1 <= k <= n): jobs
 * are dealt, most expensive first (cost: clients x requests per client x
 * horizon, ties by index), each to the shard with the least cost so far
 * (ties to the lowest shard).  Deterministic, and every job is in exactly
 * one shard.  Returns the number of jobs marked, or -1 on allocation
 * failure. */
long exp_plan_shard(const exp_plan *plan, uint32_t k, uint32_t n, uint8_t *mine);

/* A 64-bit fingerprint of the plan's text (its description, scenario
 * and overrides, the hash of every data file's bytes: the manifest), so
 * shards of different plans are told apart. */
uint64_t exp_plan_fingerprint(const char *manifest);

void exp_plan_free(exp_plan *plan);

#endif
