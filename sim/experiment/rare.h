/*
 * rare.h - probabilities of rare collapses (herd rare): multilevel
 * splitting on the attempts in flight at the server, by replay, checked
 * against brute force with exact binomial intervals.
 *
 * The rare event: the attempts in service + queued at the server reach
 * the last level K before the horizon.  Fixed-effort splitting: `effort`
 * runs from t = 0 estimate P(reach L1); from the states where runs first
 * reached L(k), `effort` continuations (entrance states drawn uniformly
 * with replacement) estimate P(reach L(k+1) | reached L(k)); the estimate
 * is the product.  `repeats` independent repetitions of the whole
 * procedure give the mean and a Student-t 95% interval.
 *
 * A continuation is a replay: a trajectory is its root seed and the seeds
 * it was given at each level it crossed; to continue from where it first
 * reached L(k), the model is run again from t = 0 with the same seeds,
 * stopping at each level and reseeding there (model_advance,
 * model_reseed), which reproduces the state exactly (the simulation is
 * deterministic), then continues on a fresh seed.  No state is copied.
 */
#ifndef HERD_RARE_H
#define HERD_RARE_H

#include <stddef.h>
#include <stdint.h>

#include "../scenario/scenario.h"

#define RARE_MAX_LEVELS 32

typedef struct rare_options {
    uint32_t levels[RARE_MAX_LEVELS]; /* strictly increasing, >= 1 */
    uint32_t nlevels;
    uint32_t effort;    /* runs per level and repetition (0: no splitting) */
    uint32_t repeats;   /* independent repetitions of the splitting (>= 2 for an interval) */
    uint64_t brute;     /* brute-force runs to the last level (0: none) */
    int jobs;
    int quiet;
    const char *outdir;
} rare_options;

/* Runs the splitting and/or the brute force for the (validated) scenario
 * cfg, which must have no sweeps or variants and one strategy; writes
 * DIR/rare.csv and DIR/rare-summary.csv and prints the summary.  Returns
 * 0, -2 for input the run cannot take (err says why; nothing written), or
 * -1 on failure (err). */
int rare_run(const scn_config *cfg, const char *shown, const rare_options *o, char *err, size_t errlen);

#endif
