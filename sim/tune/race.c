/*
 * race.c - herd tune's search: candidates built through the key table,
 * racing on common random numbers, validation on fresh seeds, the choice
 * of the recommendation (see tune.h for the method).
 *
 * Invariants: every candidate alive after a round has exactly the round's
 * replication count; a value is read only by (candidate, metric, point,
 * replication), so the order in which the thread pool finishes jobs
 * never reaches a decision.
 */
#define _GNU_SOURCE
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../engine/rng.h"
#include "../experiment/experiment.h"
#include "../report/report.h"
#include "internal.h"
#include "paired.h"

void tune_point_label(const tune_state *st, size_t p, char *out, size_t n)
{
    const exp_plan *plan = &st->c[st->ncand].plan;
    const exp_point *pt = &plan->points[p];
    size_t o = 0;
    out[0] = '\0';
    if (pt->variant >= 0)
        o += (size_t)snprintf(out + o, o < n ? n - o : 0, "variant=%s", st->base->variants[pt->variant].name);
    for (uint32_t i = 0; i < st->base->nsweeps; i++)
        o += (size_t)snprintf(out + o, o < n ? n - o : 0, "%s%s=%s", o ? " " : "", st->base->sweeps[i].key,
                              plan->labels[i][pt->value[i]]);
    if (!o)
        snprintf(out, n, "the one operating point");
}

/* Candidate c's overrides as text "KEY=V, KEY=V" (messages). */
static void cand_text(const tune_state *st, size_t c, char *out, size_t n)
{
    size_t o = 0;
    out[0] = '\0';
    for (int d = 0; d < st->rq->space->ndims; d++) {
        char a[SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2];
        tune_space_set(st->rq->space, c, d, a, sizeof a);
        o += (size_t)snprintf(out + o, o < n ? n - o : 0, "%s%s", d ? ", " : "", a);
    }
}

/* Builds candidate c (c == ncand: the scenario as written): its plan
 * on the search's seed and max_reps.  The scenario as written goes
 * through every rule, the no-op rule too; a candidate through every rule
 * but that one (a searched value that changes nothing makes the same
 * model as another candidate: tune_same_models, models.c).  0; -2 refused (err); -1
 * memory. */
static int build(tune_state *st, size_t c, char *err, size_t errlen)
{
    const tune_request *rq = st->rq;
    tune_cand *cd = &st->c[c];
    int baseline = c == st->ncand;
    const char *sets[256 + TUNE_MAX_DIMS];
    char buf[TUNE_MAX_DIMS][SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2];
    int n = tune_cand_sets(st, c, sets, buf);
    char who[512], serr[SCN_ERR_MAX];
    if (baseline)
        snprintf(who, sizeof who, "the scenario as written");
    else {
        char t[480];
        cand_text(st, c, t, sizeof t);
        snprintf(who, sizeof who, "candidate %zu (%s)", c + 1, t);
    }
    scn_config *cfg = herd_malloc_array(1, sizeof *cfg);
    if (!cfg) {
        snprintf(err, errlen, "out of memory building %s", who);
        return -1;
    }
    if ((baseline ? scn_load(cfg, rq->file, sets, n, serr) : scn_load_candidate(cfg, rq->file, sets, n, serr)) != 0) {
        snprintf(err, errlen, "%s: %s", who, serr);
        herd_free(cfg);
        return -2;
    }
    if (exp_plan_build(&cd->plan, cfg, rq->path, serr, sizeof serr) != 0) {
        snprintf(err, errlen, "%s: %s", who, serr);
        herd_free(cfg);
        return -2;
    }
    if (baseline) {
        st->base = cfg; /* kept: the points' names */
        st->npoints = cd->plan.npoints;
        st->seed = cd->plan.points[0].seed;
    } else {
        cd->plan.base = st->base;
        cd->model_text = tune_model_text(cfg);
        herd_free(cfg);
        if (!cd->model_text) {
            snprintf(err, errlen, "out of memory building %s", who);
            return -1;
        }
        uint64_t h = 1469598103934665603ULL; /* FNV-1a */
        for (const unsigned char *p = (const unsigned char *)cd->model_text; *p; p++)
            h = (h ^ *p) * 1099511628211ULL;
        cd->model = h;
    }
    int single = 1;
    for (size_t p = 0; p < cd->plan.npoints; p++) {
        single &= cd->plan.points[p].nstrategies == 1;
        if (cd->plan.points[p].seed != st->seed) {
            snprintf(err, errlen, "%s: run.seed differs between operating points; tune runs every point and "
                                  "candidate on one seed (common random numbers)", who);
            return -2;
        }
    }
    if (cd->plan.npoints != st->npoints) {
        snprintf(err, errlen, "%s: %zu operating points, the scenario %zu", who, cd->plan.npoints, st->npoints);
        return -2;
    }
    if (baseline)
        st->has_baseline = single;
    else if (!single) {
        snprintf(err, errlen, "%s: runs %u strategies at a point; a candidate is one setting: search "
                              "run.strategies=A,B,... or set run.strategies to one", who,
                 cd->plan.points[0].nstrategies);
        return -2;
    }
    exp_plan_relayout(&cd->plan, st->seed, rq->max_reps);
    exp_plan_budget(&cd->plan, rq->jobs, scn_memory_limit());
    if ((!baseline || st->has_baseline) && exp_plan_memory(&cd->plan, rq->jobs) > scn_memory_limit()) {
        snprintf(err, errlen, "%s: needs more memory than this machine may use with --jobs %d (see herd check)",
                 who, rq->jobs);
        return -2;
    }
    size_t per = (size_t)st->nm * st->npoints;
    cd->y = herd_malloc_array(per * rq->max_reps, sizeof *cd->y);
    cd->ev = herd_malloc_array(st->npoints * rq->max_reps, sizeof *cd->ev);
    cd->con = -1;
    cd->versus = -1;
    cd->twin = -1;
    if (!cd->y || !cd->ev) {
        snprintf(err, errlen, "out of memory building %s", who);
        return -1;
    }
    return 0;
}

/* Runs the replications [have, target) of every candidate selected by
 * `want` (search: alive; validation: finalists and the baseline) at every
 * point, and stores their values.  0, or -1 with err. */
static int run(tune_state *st, int validation, uint32_t target, char *err, size_t errlen)
{
    const tune_request *rq = st->rq;
    size_t n = 0;
    for (size_t c = 0; c <= st->ncand; c++) {
        tune_cand *cd = &st->c[c];
        int want = validation ? (cd->status == TUNE_FINALIST || (c == st->ncand && st->has_baseline))
                              : (c < st->ncand && cd->status == TUNE_ALIVE);
        uint32_t have = validation ? cd->vreps : cd->reps;
        if (want && target > have)
            n += st->npoints * (target - have);
    }
    if (!n)
        return 0;
    exp_job_ref *refs = herd_malloc_array(n, sizeof *refs);
    uint32_t *who = herd_malloc_array(n, 3 * sizeof *who);
    model_results *res = herd_malloc_array(n, sizeof *res);
    uint64_t *seeds = herd_malloc_array(n, sizeof *seeds);
    int rc = -1;
    if (!refs || !who || !res || !seeds) {
        snprintf(err, errlen, "out of memory for %zu runs", n);
        goto done;
    }
    size_t i = 0;
    for (size_t c = 0; c <= st->ncand; c++) {
        tune_cand *cd = &st->c[c];
        int want = validation ? (cd->status == TUNE_FINALIST || (c == st->ncand && st->has_baseline))
                              : (c < st->ncand && cd->status == TUNE_ALIVE);
        uint32_t have = validation ? cd->vreps : cd->reps;
        if (!want)
            continue;
        for (size_t p = 0; p < st->npoints; p++)
            for (uint32_t r = have; r < target; r++, i++) {
                const exp_point *pt = &cd->plan.points[p];
                refs[i] = (exp_job_ref){&cd->plan, cd->plan.groups[pt->first_group].first_job + r};
                who[3 * i] = (uint32_t)c;
                who[3 * i + 1] = (uint32_t)p;
                who[3 * i + 2] = r;
            }
    }
    if (exp_run_batch(refs, n, rq->jobs, rq->queue, res, seeds, err, errlen) != 0)
        goto done;
    for (i = 0; i < n; i++) {
        tune_cand *cd = &st->c[who[3 * i]];
        size_t p = who[3 * i + 1];
        uint32_t r = who[3 * i + 2];
        for (int k = 0; k < st->nm; k++)
            (validation ? tune_vy(st, cd, k, p) : tune_y(st, cd, k, p))[r] = metric_value(&res[i].m, st->m[k]);
        const char *na = metric_reason(&res[i].m, st->m[0]);
        if (!validation && na && !st->obj_na[0])
            snprintf(st->obj_na, sizeof st->obj_na, "%s", na);
        (validation ? cd->vev : cd->ev)[p * (validation ? rq->val_reps : rq->max_reps) + r] = (double)res[i].m.events;
        if (validation)
            st->vevents += res[i].m.events;
        else
            st->events += res[i].m.events;
        model_results_free(&res[i]);
    }
    for (size_t c = 0; c <= st->ncand; c++) {
        tune_cand *cd = &st->c[c];
        int want = validation ? (cd->status == TUNE_FINALIST || (c == st->ncand && st->has_baseline))
                              : (c < st->ncand && cd->status == TUNE_ALIVE);
        if (want)
            *(validation ? &cd->vreps : &cd->reps) = target;
    }
    rc = 0;
done:
    herd_free(refs);
    herd_free(who);
    herd_free(res);
    herd_free(seeds);
    return rc;
}

/* The objective of candidate c as the search sees it after n
 * replications, sense-adjusted (smaller is better): its worst point's
 * mean, or the mean over points. */
static double agg_objective(const tune_state *st, const tune_cand *cd, uint32_t n)
{
    double worst = -INFINITY, sum = 0;
    for (size_t p = 0; p < st->npoints; p++) {
        double m, se;
        paired_mean_se(tune_y(st, cd, 0, p), n, &m, &se);
        if (st->rq->maximize)
            m = -m;
        worst = fmax(worst, m);
        sum += m;
    }
    return st->rq->aggregate_mean ? sum / (double)st->npoints : worst;
}

/* Candidate cd's feasibility after n replications: -1 proven infeasible
 * (a bound beyond the limit, or an undefined value: cd->con, con_point
 * and why say which), 1 proven feasible, 0 not yet decided. */
static int feasibility(const tune_state *st, tune_cand *cd, uint32_t n)
{
    const tune_request *rq = st->rq;
    char pl[256];
    for (int k = 0; k < st->nm; k++)
        for (size_t p = 0; p < st->npoints; p++)
            for (uint32_t r = 0; r < n; r++)
                if (isnan(tune_y(st, cd, k, p)[r])) {
                    tune_point_label(st, p, pl, sizeof pl);
                    cd->con = -1;
                    cd->con_point = p;
                    snprintf(cd->why, sizeof cd->why, "%s is n/a (undefined) at point %s, replication %u: not "
                             "measurable there", st->m[k]->name, pl, r);
                    return -1;
                }
    if (!rq->ncons)
        return 1;
    double a = rq->alpha / (double)(rq->ncons * st->npoints); /* Bonferroni over the candidate's tests */
    int sure = 1;
    for (int k = 0; k < rq->ncons; k++)
        for (size_t p = 0; p < st->npoints; p++) {
            const tune_constraint *c = &rq->cons[k];
            double lo, hi;
            if (n < 2) {
                sure = 0;
                continue;
            }
            paired_bounds(tune_y(st, cd, st->con_m[k], p), n, a, &lo, &hi);
            double beyond = c->upper ? lo : hi;
            if (c->upper ? lo > c->bound : hi < c->bound) {
                tune_point_label(st, p, pl, sizeof pl);
                cd->con = k;
                cd->con_point = p;
                snprintf(cd->why, sizeof cd->why, "%s at %s: its one-sided %.4g%% bound %.6g is beyond %g", c->text,
                         pl, 100 * (1 - a), beyond, c->bound);
                return -1;
            }
            if (c->upper ? hi > c->bound : lo < c->bound)
                sure = 0;
        }
    return sure;
}

/* 1 if a and b have the same value of every metric in every search run
 * (n replications). */
static int identical(const tune_state *st, const tune_cand *a, const tune_cand *b, uint32_t n)
{
    for (int k = 0; k < st->nm; k++)
        for (size_t p = 0; p < st->npoints; p++)
            if (memcmp(tune_y(st, a, k, p), tune_y(st, b, k, p), n * sizeof(double)))
                return 0;
    return 1;
}

/* 1 if every constrained metric of a is at least as good as b's in each
 * of the n runs at every point (the same seeds). */
static int no_worse(const tune_state *st, const tune_cand *a, const tune_cand *b, uint32_t n)
{
    const tune_request *rq = st->rq;
    for (int k = 0; k < rq->ncons; k++)
        for (size_t p = 0; p < st->npoints; p++) {
            const double *x = tune_y(st, a, st->con_m[k], p), *y = tune_y(st, b, st->con_m[k], p);
            for (uint32_t r = 0; r < n; r++)
                if (rq->cons[k].upper ? x[r] > y[r] : x[r] < y[r])
                    return 0;
        }
    return 1;
}

/* The p-value of "c's objective is worse than i's" after n paired
 * replications.  Mean over points: the paired t test on the per-
 * replication means.  Worst point: c is worse if at some point p its
 * value exceeds i's value at every point q (then its worst exceeds i's
 * worst): an intersection-union test over q (the largest p-value), the
 * best p by Bonferroni over the points. */
static double p_worse(const tune_state *st, const tune_cand *c, const tune_cand *i, uint32_t n, double *tmp)
{
    int mx = st->rq->maximize;
    if (st->rq->aggregate_mean) {
        double *a = tmp, *b = tmp + n;
        for (uint32_t r = 0; r < n; r++) {
            a[r] = b[r] = 0;
            for (size_t p = 0; p < st->npoints; p++) {
                a[r] += tune_y(st, c, 0, p)[r] / (double)st->npoints;
                b[r] += tune_y(st, i, 0, p)[r] / (double)st->npoints;
            }
        }
        return mx ? paired_p_greater(b, a, n) : paired_p_greater(a, b, n);
    }
    double best = 1;
    for (size_t p = 0; p < st->npoints; p++) {
        double worst = 0;
        for (size_t q = 0; q < st->npoints; q++) {
            const double *a = tune_y(st, c, 0, p), *b = tune_y(st, i, 0, q);
            worst = fmax(worst, mx ? paired_p_greater(b, a, n) : paired_p_greater(a, b, n));
        }
        best = fmin(best, worst);
    }
    return fmin(1, best * (double)st->npoints);
}

/* One round's decisions, every alive candidate at n replications.
 * Returns the number still alive, or -1 on allocation failure. */
static long decide(tune_state *st, uint32_t round, uint32_t n)
{
    const tune_request *rq = st->rq;
    size_t nc = st->ncand;
    int *feas = herd_calloc(nc, sizeof *feas);
    double *pv = herd_malloc_array(nc, sizeof *pv), *tmp = herd_malloc_array(2 * (size_t)n, sizeof *tmp);
    int *rej = herd_malloc_array(nc, sizeof *rej);
    size_t *idx = herd_malloc_array(nc, sizeof *idx);
    long *vsx = herd_malloc_array(nc, sizeof *vsx);
    long alive = -1;
    if (!feas || !pv || !tmp || !rej || !idx || !vsx)
        goto done;
    for (size_t c = 0; c < nc; c++) {
        tune_cand *cd = &st->c[c];
        if (cd->status != TUNE_ALIVE)
            continue;
        feas[c] = feasibility(st, cd, n);
        if (feas[c] < 0) {
            cd->status = TUNE_DROPPED;
            cd->round = (int)round;
            cd->reason = TUNE_INFEASIBLE;
        }
    }
    /* the same results as another so far: one group, its first candidate
     * tested for all (identical on few replications is not identical:
     * the groups are formed again each round, so they split when the
     * results part) */
    for (size_t c = 0; c < nc; c++) {
        tune_cand *cd = &st->c[c];
        if (!cd->identical)
            cd->twin = -1; /* one dropped identical keeps its group's first (the summary's identical: lines) */
        if (cd->status != TUNE_ALIVE)
            continue;
        for (size_t e = 0; e < c; e++)
            if (st->c[e].status == TUNE_ALIVE && st->c[e].twin < 0 && identical(st, cd, &st->c[e], n)) {
                cd->twin = (long)e;
                break;
            }
    }
    long inc = -1;
    double best = INFINITY;
    for (size_t c = 0; c < nc; c++)
        if (st->c[c].status == TUNE_ALIVE && st->c[c].twin < 0 && feas[c] > 0) {
            double o = agg_objective(st, &st->c[c], n);
            if (o < best) {
                best = o;
                inc = (long)c;
            }
        }
    /* Each candidate is tested against the incumbent; while none is
     * proven feasible, against the best candidate (by its mean objective)
     * whose constrained metrics are at least as good as its own in every
     * run at every point: that one is feasible whenever it is. */
    size_t m = 0;
    for (size_t c = 0; c < nc; c++) {
        if (st->c[c].status != TUNE_ALIVE || st->c[c].twin >= 0 || (long)c == inc)
            continue;
        long vs = inc;
        if (vs < 0) {
            double bo = agg_objective(st, &st->c[c], n);
            for (size_t e = 0; e < nc; e++) {
                if (e == c || st->c[e].status != TUNE_ALIVE || st->c[e].twin >= 0 ||
                    !no_worse(st, &st->c[e], &st->c[c], n))
                    continue;
                double o = agg_objective(st, &st->c[e], n);
                if (o < bo) {
                    bo = o;
                    vs = (long)e;
                }
            }
        }
        if (vs < 0)
            continue;
        idx[m] = c;
        vsx[m] = vs;
        pv[m++] = p_worse(st, &st->c[c], &st->c[vs], n, tmp);
    }
    if (paired_holm(pv, m, rq->alpha, rej) < 0)
        goto done;
    for (size_t k = 0; k < m; k++)
        if (rej[k]) {
            tune_cand *cd = &st->c[idx[k]];
            cd->status = TUNE_DROPPED;
            cd->round = (int)round;
            cd->reason = TUNE_DOMINATED;
            cd->versus = vsx[k];
            snprintf(cd->why, sizeof cd->why, "%s worse than candidate %ld's%s (paired t, one-sided p = %.3g, "
                     "Holm over %zu tests at %g)", rq->objective->name, vsx[k] + 1,
                     inc < 0 ? ", whose constrained metrics are no worse in any run" : "", pv[k], m, rq->alpha);
        }
    for (size_t c = 0; c < nc; c++) { /* a group's members go with its first: the same runs, the same test */
        tune_cand *cd = &st->c[c];
        const tune_cand *g = cd->twin >= 0 ? &st->c[cd->twin] : NULL;
        if (cd->status == TUNE_ALIVE && g && g->status == TUNE_DROPPED) {
            cd->status = TUNE_DROPPED;
            cd->round = (int)round;
            cd->reason = g->reason;
            cd->versus = g->versus;
            cd->identical = 1;
            char gw[sizeof g->why];
            memcpy(gw, g->why, sizeof gw);
            snprintf(cd->why, sizeof cd->why, "identical results, run for run over %u replications, to candidate "
                     "%ld, dropped: %.150s", n, cd->twin + 1, gw);
        }
    }
    alive = 0; /* the groups still in the race (a group: one candidate, or several identical so far) */
    for (size_t c = 0; c < nc; c++)
        alive += st->c[c].status == TUNE_ALIVE && st->c[c].twin < 0;
    size_t o = strlen(st->rounds_log);
    if (o < sizeof st->rounds_log - 200)
        snprintf(st->rounds_log + o, sizeof st->rounds_log - o,
                 "round %u: %u replications; %ld candidate(s) alive; incumbent %s; %llu events so far\n", round, n,
                 alive, inc >= 0 ? "" : "none proven feasible yet", (unsigned long long)st->events);
    if (inc >= 0 && o < sizeof st->rounds_log - 200) { /* name the incumbent */
        char *s = strstr(st->rounds_log + o, "incumbent ");
        char tail[128];
        snprintf(tail, sizeof tail, "incumbent candidate %ld; %llu events so far\n", inc + 1,
                 (unsigned long long)st->events);
        snprintf(s, sizeof st->rounds_log - (size_t)(s - st->rounds_log), "%s", tail);
    }
done:
    herd_free(feas);
    herd_free(pv);
    herd_free(tmp);
    herd_free(rej);
    herd_free(idx);
    herd_free(vsx);
    return alive;
}

/* After the search: the recommendation among the finalists (on the
 * search's data: proven feasible first, then feasible by their means;
 * the best objective), the binding constraint, the grid's cost. */
static void choose(tune_state *st)
{
    const tune_request *rq = st->rq;
    long rec = -1;
    int rec_sure = 0;
    double best = INFINITY;
    for (size_t c = 0; c < st->ncand; c++) {
        tune_cand *cd = &st->c[c];
        if (cd->status != TUNE_FINALIST)
            continue;
        int f = feasibility(st, cd, cd->reps);
        int ok = f > 0;
        if (f == 0) { /* undecided: feasible by its means? */
            ok = 1;
            for (int k = 0; k < rq->ncons; k++)
                for (size_t p = 0; p < st->npoints; p++) {
                    double m, se;
                    paired_mean_se(tune_y(st, cd, st->con_m[k], p), cd->reps, &m, &se);
                    if (rq->cons[k].upper ? m > rq->cons[k].bound : m < rq->cons[k].bound)
                        ok = 0;
                }
        }
        cd->why[0] = '\0';
        cd->con = -1;
        if (!ok)
            continue;
        double o = agg_objective(st, cd, cd->reps);
        if ((f > 0 && !rec_sure) || ((f > 0) == rec_sure && o < best)) {
            best = o;
            rec = (long)c;
            rec_sure = f > 0;
        }
    }
    st->recommended = rec;
    if (rec >= 0) {
        st->c[rec].status = TUNE_RECOMMENDED;
        if (!rec_sure)
            snprintf(st->c[rec].why, sizeof st->c[rec].why, "feasible by its means; not proven at %u replications",
                     st->c[rec].reps);
    }
    int count[TUNE_MAX_CONSTRAINTS] = {0};
    st->binding = -1;
    for (size_t c = 0; c < st->ncand && rec >= 0; c++) {
        tune_cand *cd = &st->c[c];
        if (cd->reason == TUNE_INFEASIBLE && cd->con >= 0 && agg_objective(st, cd, cd->reps) < best)
            count[cd->con]++;
    }
    for (int k = 0; k < rq->ncons; k++)
        if (count[k] > 0 && (st->binding < 0 || count[k] > count[st->binding]))
            st->binding = k;
    st->grid_events = 0; /* a candidate of the same model as another is run once by a grid too */
    for (size_t c = 0; c < st->ncand; c++)
        if (st->c[c].reason != TUNE_SAME_MODEL)
            for (size_t p = 0; p < st->npoints; p++) {
            double m, se;
            paired_mean_se(&st->c[c].ev[p * rq->max_reps], st->c[c].reps, &m, &se);
            st->grid_events += m * st->final_reps;
        }
}

int tune_run(const tune_request *rq, char *err, size_t errlen)
{
    tune_state st;
    memset(&st, 0, sizeof st);
    st.rq = rq;
    st.ncand = rq->space->ncand;
    st.recommended = -1;
    st.m[st.nm++] = rq->objective;
    for (int k = 0; k < rq->ncons; k++) {
        int f = -1;
        for (int i = 0; i < st.nm; i++)
            if (st.m[i] == rq->cons[k].metric)
                f = i;
        if (f < 0) {
            f = st.nm;
            st.m[st.nm++] = rq->cons[k].metric;
        }
        st.con_m[k] = f;
    }
    int rc = -1;
    st.c = herd_calloc(st.ncand + 1, sizeof *st.c);
    if (!st.c) {
        snprintf(err, errlen, "out of memory for %zu candidates", st.ncand);
        goto done;
    }
    int b = build(&st, st.ncand, err, errlen); /* the scenario as written first: the points' names */
    if (b == 0) {
        /* every candidate keeps a plan like this one and its results: the
         * whole search's memory, refused before any candidate is built */
        const exp_plan *p0 = &st.c[st.ncand].plan;
        double per = exp_plan_bytes(p0) + (double)(st.nm + 1) * (double)st.npoints *
                                              (double)(rq->max_reps + rq->val_reps) * sizeof(double);
        double need = per * (double)(st.ncand + 1) + exp_plan_memory(p0, rq->jobs), limit = scn_memory_limit();
        if (need > limit) {
            snprintf(err, errlen, "the search (%zu candidates x %zu operating points) needs about %.3g GB for its "
                     "plans and results, more than the %.3g GB this machine may use; expected fewer candidates or "
                     "operating points", st.ncand, st.npoints, need / 1e9, limit / 1e9);
            b = -2;
        }
    }
    for (size_t c = 0; b == 0 && c < st.ncand; c++)
        b = build(&st, c, err, errlen);
    if (b == 0)
        b = tune_same_models(&st, err, errlen);
    for (size_t c = 0; st.c && c < st.ncand; c++) {
        herd_free(st.c[c].model_text);
        st.c[c].model_text = NULL;
    }
    if (b != 0) {
        rc = b;
        goto done;
    }
    if (rep_check_outdir(rq->outdir, err, errlen) != 0) /* an I/O failure, found before any work */
        goto done;
    st.c[st.ncand].vy = herd_malloc_array((size_t)st.nm * st.npoints * rq->val_reps, sizeof(double));
    st.c[st.ncand].vev = herd_malloc_array(st.npoints * rq->val_reps, sizeof(double));
    if (!st.c[st.ncand].vy || !st.c[st.ncand].vev) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    /* the validation's own master seed: a purpose the search never uses */
    st.vseed = rng_replication_seed(st.seed, UINT32_MAX);
    if (!st.vseed)
        st.vseed = 1;
    int tty = !rq->quiet && isatty(STDERR_FILENO);
    uint32_t n = rq->min_reps;
    for (uint32_t round = 1;; round++) {
        if (tty)
            fprintf(stderr, "\rherd tune: round %u, %u replications ...%20s", round, n, "");
        if (run(&st, 0, n, err, errlen) != 0)
            goto done;
        long alive = decide(&st, round, n);
        if (alive < 0) {
            snprintf(err, errlen, "out of memory deciding round %u", round);
            goto done;
        }
        st.rounds = round;
        st.final_reps = n;
        if (tty)
            fprintf(stderr, "\rherd tune: round %u, %u replications: %ld candidate(s) alive, %llu events\n", round,
                    n, alive, (unsigned long long)st.events);
        int settled = alive == 0, grouped = 0;
        for (size_t c = 0; c < st.ncand; c++)
            grouped |= st.c[c].status == TUNE_ALIVE && st.c[c].twin >= 0;
        if (alive == 1 && !grouped) /* a group left: more replications may split it */
            for (size_t c = 0; c < st.ncand; c++)
                if (st.c[c].status == TUNE_ALIVE)
                    settled = feasibility(&st, &st.c[c], n) > 0;
        if (settled || n >= rq->max_reps)
            break;
        n = n * 2 > rq->max_reps ? rq->max_reps : n * 2;
    }
    for (size_t c = 0; c < st.ncand; c++) { /* identical over every search replication: the group's first stays */
        tune_cand *cd = &st.c[c];
        if (cd->status == TUNE_ALIVE && cd->twin >= 0) {
            cd->status = TUNE_DROPPED;
            cd->round = (int)st.rounds;
            cd->reason = TUNE_DOMINATED;
            cd->versus = cd->twin;
            cd->identical = 1;
            snprintf(cd->why, sizeof cd->why, "identical results, run for run over all %u search replications, to "
                     "candidate %ld", st.final_reps, cd->twin + 1);
        }
    }
    for (size_t c = 0; c < st.ncand; c++)
        if (st.c[c].status == TUNE_ALIVE) {
            tune_cand *cd = &st.c[c];
            cd->status = TUNE_FINALIST;
            cd->vy = herd_malloc_array((size_t)st.nm * st.npoints * rq->val_reps, sizeof(double));
            cd->vev = herd_malloc_array(st.npoints * rq->val_reps, sizeof(double));
            if (!cd->vy || !cd->vev) {
                snprintf(err, errlen, "out of memory");
                goto done;
            }
        }
    for (size_t c = 0; c <= st.ncand; c++)
        exp_plan_relayout(&st.c[c].plan, st.vseed, rq->val_reps);
    if (tty)
        fprintf(stderr, "\rherd tune: validation on fresh seeds, %u replications ...", rq->val_reps);
    if (run(&st, 1, rq->val_reps, err, errlen) != 0)
        goto done;
    if (tty)
        fprintf(stderr, "\r%72s\r", "");
    choose(&st);
    rc = tune_report(&st, err, errlen);
done:
    if (st.c)
        for (size_t c = 0; c <= st.ncand; c++) {
            exp_plan_free(&st.c[c].plan);
            herd_free(st.c[c].y);
            herd_free(st.c[c].ev);
            herd_free(st.c[c].vy);
            herd_free(st.c[c].vev);
        }
    herd_free(st.c);
    herd_free(st.base);
    return rc;
}
