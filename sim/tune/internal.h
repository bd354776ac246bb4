/*
 * internal.h - the state herd tune's rooms share (race.c decides,
 * models.c finds the candidates that are the same, recommend.c reports).
 * Not a public header.
 */
#ifndef HERD_TUNE_INTERNAL_H
#define HERD_TUNE_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "../experiment/plan.h"
#include "tune.h"

enum { TUNE_ALIVE, TUNE_DROPPED, TUNE_FINALIST, TUNE_RECOMMENDED };
enum { TUNE_NONE, TUNE_DOMINATED, TUNE_INFEASIBLE, TUNE_SAME_MODEL };

typedef struct tune_cand {
    exp_plan plan;
    double *y;          /* [metric][point][replication]: search values */
    double *ev;         /* [point][replication]: events */
    uint32_t reps;      /* replications run in the search */
    double *vy, *vev;   /* the same on validation seeds (finalists, baseline) */
    uint32_t vreps;
    int status, round, reason;
    int con;            /* infeasible: the constraint that failed (-1: an undefined metric) */
    size_t con_point;
    long versus;        /* dominated: the candidate that dominates it; identical results or the same
                           model (TUNE_SAME_MODEL, never run): the candidate kept */
    long twin;          /* alive: the candidate whose results it has matched run for run so far (the
                         * group's first, which stands for it in the tests; -1: none); regrouped
                         * every round, so a group splits when its results part.  Dropped with
                         * identical set: the group's first it left the race with */
    int identical;      /* left the race identical, run for run over every replication it got, to
                           `twin` (with its group's first, or a group left at the end) */
    uint64_t model;     /* FNV-1a of its resolved model at every point (herd check --explain) */
    char *model_text;   /* that text, until the candidates are compared */
    char why[240];
} tune_cand;

typedef struct tune_state {
    const tune_request *rq;
    scn_config *base;           /* the scenario as written (names of points) */
    tune_cand *c;               /* [ncand + 1]: the last is the scenario as written */
    size_t ncand;
    int has_baseline;           /* the scenario as written is one strategy per point */
    size_t npoints;
    const metric_desc *m[1 + TUNE_MAX_CONSTRAINTS]; /* objective, then each constrained metric once */
    int nm;
    int con_m[TUNE_MAX_CONSTRAINTS];                /* each constraint's metric index */
    uint64_t seed, vseed;
    uint32_t rounds, final_reps;
    uint64_t events, vevents;   /* simulated by the search, by the validation */
    double grid_events;         /* an exhaustive grid at final_reps, estimated */
    long recommended;           /* -1: none feasible */
    int binding;                /* the constraint that binds (-1: none) */
    char rounds_log[4096];      /* one line per round, for the manifest */
    char obj_na[160];           /* why the objective was n/a in the first search run where it was ("": never) */
} tune_state;

/* Values: metric k of candidate c at point p, replication r (search). */
static inline double *tune_y(const tune_state *st, const tune_cand *c, int k, size_t p)
{
    return &c->y[((size_t)k * st->npoints + p) * st->rq->max_reps];
}
static inline double *tune_vy(const tune_state *st, const tune_cand *c, int k, size_t p)
{
    return &c->vy[((size_t)k * st->npoints + p) * st->rq->val_reps];
}

/* The point's label "KEY=VALUE KEY=VALUE" (variant=NAME first), or "all"
 * without sweeps and variants. */
void tune_point_label(const tune_state *st, size_t p, char *out, size_t n);

/* models.c: candidate c's overrides (tune's --set first, then its
 * values; c == ncand: the scenario as written) into sets, the texts in
 * buf; returns their number. */
int tune_cand_sets(const tune_state *st, size_t c, const char **sets,
                   char (*buf)[SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2]);

/* models.c: the resolved model of cfg at every point, as herd check
 * --explain prints it without origins: a new string (herd_free it), or
 * NULL when out of memory. */
char *tune_model_text(const scn_config *cfg);

/* models.c: candidates of the same model at every point dropped before
 * the search (TUNE_SAME_MODEL) in favour of the first; a searched key no
 * value of which changes any candidate refused.  0; -2 refused (err). */
int tune_same_models(tune_state *st, char *err, size_t errlen);

/* models.c: the summary's "identical: ..." lines into f. */
void tune_identical_lines(const tune_state *st, FILE *f);

/* recommend.c: every output of a finished search.  0, or -1 with err. */
int tune_report(tune_state *st, char *err, size_t errlen);

#endif
