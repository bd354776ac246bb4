/*
 * recommend.c - what herd tune writes once the search is over:
 * DIR/tune.csv (a row per candidate and operating point),
 * DIR/recommendation.txt (the settings as --set lines, then the
 * validated figures), DIR/manifest.txt (the search, its seeds and the
 * validation's), the figure DIR/tune.png and .svg (objective against the
 * binding constraint, a panel per operating point, through
 * plots/tune.gp), and the summary on stdout.
 *
 * Every figure reported for the recommendation comes from the validation
 * replications (seeds the search never used); the search's own means are
 * in tune.csv beside them.  Files are written to temporaries and
 * published together (csv.h): a failure leaves none of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/text.h"
#include "../experiment/experiment.h"
#include "../report/csv.h"
#include "../plot/plot.h"
#include "../report/report.h"
#include "internal.h"
#include "paired.h"

/* Mean and 95% half-width of x[0..n). */
static void mci(const double *x, uint32_t n, double *m, double *h)
{
    double se;
    paired_mean_se(x, n, m, &se);
    *h = paired_ci95(x, n);
}

/* A number, or n/a when it is undefined (NaN: a metric undefined in some
 * run, or a CI of one replication): never "nan". */
static void num(csv_out *o, double v)
{
    if (isfinite(v))
        csv_dbl(o, v, 0);
    else
        csv_str(o, "n/a", 0);
}

/* "MEAN +/- HALF", or "n/a (...)" when the mean is undefined. */
static const char *pm(char *buf, size_t n, double m, double h)
{
    if (!isfinite(m))
        snprintf(buf, n, "n/a (undefined in some run)");
    else if (!isfinite(h))
        snprintf(buf, n, "%.6g +/- n/a", m);
    else
        snprintf(buf, n, "%.6g +/- %.3g", m, h);
    return buf;
}

static const char *status_text(const tune_cand *cd, char *buf, size_t n)
{
    if (cd->reason == TUNE_SAME_MODEL)
        return "same_model";
    switch (cd->status) {
    case TUNE_DROPPED:
        snprintf(buf, n, "dropped_round_%d", cd->round);
        return buf;
    case TUNE_FINALIST:
        return "finalist";
    case TUNE_RECOMMENDED:
        return "recommended";
    default:
        return "alive";
    }
}

/* Whether a larger value of metric k (0: the objective) is the worse one:
 * the objective's direction, or a constrained metric's bound. */
static int larger_is_worse(const tune_state *st, int k)
{
    const tune_request *rq = st->rq;
    int larger_worse = k == 0 ? !rq->maximize : 1;
    for (int c = 0; c < rq->ncons; c++)
        if (st->con_m[c] == k && k)
            larger_worse = rq->cons[c].upper;
    return larger_worse;
}

/* The validated figure of metric k for the recommendation: the worst
 * point's mean and CI (the largest mean for the objective when
 * minimising and for an upper bound, the smallest otherwise), or the mean
 * over points per replication under --aggregate mean.  *point: the worst
 * point (-1: the mean). */
static void validated(const tune_state *st, const tune_cand *cd, int k, int larger_worse, double *m, double *h,
                      long *point)
{
    uint32_t n = cd->vreps;
    if (st->rq->aggregate_mean) {
        double *a = herd_malloc_array(n ? n : 1, sizeof *a);
        if (!a) {
            *m = *h = NAN;
            return;
        }
        for (uint32_t r = 0; r < n; r++) {
            a[r] = 0;
            for (size_t p = 0; p < st->npoints; p++)
                a[r] += tune_vy(st, cd, k, p)[r] / (double)st->npoints;
        }
        mci(a, n, m, h);
        herd_free(a);
        *point = -1;
        return;
    }
    *point = 0;
    for (size_t p = 0; p < st->npoints; p++) {
        double pm, ph;
        mci(tune_vy(st, cd, k, p), n, &pm, &ph);
        if (p == 0 || (larger_worse ? pm > *m : pm < *m)) {
            *m = pm;
            *h = ph;
            *point = (long)p;
        }
    }
}

/* The candidate's settings, "KEY=V KEY=V" (c == ncand: as written). */
static void settings(const tune_state *st, size_t c, char *out, size_t n)
{
    size_t o = 0;
    out[0] = '\0';
    if (c == st->ncand) {
        snprintf(out, n, "the scenario as written");
        return;
    }
    for (int d = 0; d < st->rq->space->ndims; d++) {
        char a[SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2];
        tune_space_set(st->rq->space, c, d, a, sizeof a);
        o += (size_t)snprintf(out + o, o < n ? n - o : 0, "%s%s", d ? " " : "", a);
    }
}

static void write_csv(const tune_state *st, FILE *f)
{
    const tune_request *rq = st->rq;
    const tune_space *sp = rq->space;
    fprintf(f, "candidate");
    for (int d = 0; d < sp->ndims; d++)
        fprintf(f, ",%s", sp->dims[d].key);
    fprintf(f, ",point");
    if (st->base->nvariants)
        fprintf(f, ",variant");
    for (uint32_t i = 0; i < st->base->nsweeps; i++)
        fprintf(f, ",%s", st->base->sweeps[i].key);
    fprintf(f, ",replications");
    for (int k = 0; k < st->nm; k++)
        fprintf(f, ",%s_mean,%s_ci95", st->m[k]->name, st->m[k]->name);
    fprintf(f, ",validation_replications");
    for (int k = 0; k < st->nm; k++)
        fprintf(f, ",%s_validation_mean,%s_validation_ci95", st->m[k]->name, st->m[k]->name);
    fprintf(f, ",events_mean,status,reason,detail\n");
    const exp_plan *bp = &st->c[st->ncand].plan;
    for (size_t c = 0; c < st->ncand; c++) {
        const tune_cand *cd = &st->c[c];
        long idx[TUNE_MAX_DIMS];
        tune_space_index(sp, c, idx);
        for (size_t p = 0; p < st->npoints; p++) {
            csv_out o = {.f = f};
            csv_u64(&o, c + 1, 1);
            for (int d = 0; d < sp->ndims; d++)
                csv_str(&o, sp->dims[d].labels[idx[d]], 0);
            csv_u64(&o, p + 1, 0);
            const exp_point *pt = &bp->points[p];
            if (st->base->nvariants)
                csv_str(&o, st->base->variants[pt->variant].name, 0);
            for (uint32_t i = 0; i < st->base->nsweeps; i++)
                csv_str(&o, bp->labels[i][pt->value[i]], 0);
            csv_u64(&o, cd->reps, 0);
            for (int k = 0; k < st->nm; k++) {
                double m, h;
                mci(tune_y(st, cd, k, p), cd->reps, &m, &h);
                num(&o, m);
                num(&o, h);
            }
            csv_u64(&o, cd->vreps, 0);
            for (int k = 0; k < st->nm; k++) {
                if (cd->vreps) {
                    double m, h;
                    mci(tune_vy(st, cd, k, p), cd->vreps, &m, &h);
                    num(&o, m);
                    num(&o, h);
                } else {
                    csv_str(&o, "", 0);
                    csv_str(&o, "", 0);
                }
            }
            double em, es;
            paired_mean_se(&cd->ev[p * rq->max_reps], cd->reps, &em, &es);
            num(&o, em);
            char sb[32];
            csv_str(&o, status_text(cd, sb, sizeof sb), 0);
            csv_str(&o, cd->reason == TUNE_DOMINATED ? "dominated" : cd->reason == TUNE_INFEASIBLE ? "infeasible" :
                        cd->reason == TUNE_SAME_MODEL ? "same_model" : "", 0);
            csv_str(&o, cd->why, 0);
            csv_end(&o);
        }
    }
}

/* The paired difference other - rec of the objective at point p on the
 * validation seeds: mean and 95% half-width. */
static void paired_diff(const tune_state *st, const tune_cand *rec, const tune_cand *other, size_t p, double *m,
                        double *h)
{
    uint32_t n = rec->vreps < other->vreps ? rec->vreps : other->vreps;
    double *d = herd_malloc_array(n ? n : 1, sizeof *d);
    if (!d) {
        *m = *h = NAN;
        return;
    }
    for (uint32_t r = 0; r < n; r++)
        d[r] = tune_vy(st, other, 0, p)[r] - tune_vy(st, rec, 0, p)[r];
    mci(d, n, m, h);
    herd_free(d);
}

/* Why no candidate is recommended: the objective undefined (n/a) in every
 * candidate's runs, and why; a metric undefined somewhere in each without
 * constraints; or no candidate satisfying every constraint. */
static const char *none_why(const tune_state *st, char *buf, size_t n)
{
    const tune_request *rq = st->rq;
    size_t obj_na = 0, na = 0, run = 0; /* run: the candidates not the same model as another (those never run) */
    for (size_t c = 0; c < st->ncand; c++) {
        const tune_cand *cd = &st->c[c];
        run += cd->reason != TUNE_SAME_MODEL;
        if (cd->reason != TUNE_INFEASIBLE || cd->con >= 0)
            continue;
        na++;
        if (!strncmp(cd->why, rq->objective->name, strlen(rq->objective->name)) &&
            !strncmp(cd->why + strlen(rq->objective->name), " is n/a", 7)) {
            obj_na++;
        }
    }
    if (run && obj_na == run)
        snprintf(buf, n, "the objective %s is undefined (n/a) in every candidate's runs (%s); expected an objective "
                 "this scenario defines", rq->objective->name, st->obj_na[0] ? st->obj_na : "not measurable");
    else if (!rq->ncons && na)
        snprintf(buf, n, "every candidate has a metric undefined (n/a) at some operating point; no constraint was given");
    else
        snprintf(buf, n, "no candidate satisfies every constraint at every operating point");
    return buf;
}

static void write_recommendation(const tune_state *st, FILE *f)
{
    const tune_request *rq = st->rq;
    fprintf(f, "# herd tune %s: %s %s", rq->path, rq->maximize ? "maximize" : "minimize", rq->objective->name);
    for (int k = 0; k < rq->ncons; k++)
        fprintf(f, "%s%s", k ? ", " : " subject to ", rq->cons[k].text);
    fprintf(f, " (%s)\n", rq->aggregate_mean ? "the mean over operating points" :
                          "at every operating point; the objective's worst point");
    if (st->recommended < 0) {
        char why[400];
        fprintf(f, "# %s: nothing to set\n", none_why(st, why, sizeof why));
        return;
    }
    const tune_cand *rc = &st->c[st->recommended];
    int quoted = 0, said = 0;
    for (int i = 0; i < rq->nflags; i++)
        if (!strncmp(rq->flags[i], "--set ", 6)) {
            if (!said++)
                fprintf(f, "# the run options given to herd tune\n");
            fputs("--set ", f);
            text_shell_word(f, rq->flags[i] + 6);
            fputc('\n', f);
            quoted |= strpbrk(rq->flags[i] + 6, " \t'\"") != NULL;
        }
    fprintf(f, "# the recommended settings\n");
    for (int d = 0; d < rq->space->ndims; d++) {
        char a[SCN_SWEEP_KEY_MAX + SCN_VALUE_MAX + 2];
        tune_space_set(rq->space, (size_t)st->recommended, d, a, sizeof a);
        fputs("--set ", f);
        text_shell_word(f, a);
        fputc('\n', f);
        quoted |= strpbrk(a, " \t'\"") != NULL;
    }
    if (quoted)
        fprintf(f, "# a value above is quoted (a section name or a value with a blank): pass these lines through "
                   "xargs, which reads the quotes: grep -e '^-' FILE | xargs herd run SCENARIO\n");
    for (int i = 0; i < rq->nflags; i++)
        if (!strncmp(rq->flags[i], "--sweep ", 8) || !strncmp(rq->flags[i], "--seed ", 7))
            fprintf(f, "# given to herd tune as well: %s\n", rq->flags[i]);
    for (int k = 0; k < st->nm; k++) {
        int larger_worse = larger_is_worse(st, k);
        double m, h;
        long wp;
        validated(st, rc, k, larger_worse, &m, &h, &wp);
        char pl[256] = "the mean over operating points";
        if (wp >= 0)
            tune_point_label(st, (size_t)wp, pl, sizeof pl);
        char b[64];
        fprintf(f, "# %s = %s (95%%, %u validation replications on fresh seeds; %s%s)\n",
                st->m[k]->name, pm(b, sizeof b, m, h), rc->vreps, wp >= 0 ? "worst point " : "", pl);
    }
    for (size_t p = 0; p < st->npoints; p++) {
        char pl[256];
        tune_point_label(st, p, pl, sizeof pl);
        fprintf(f, "# point %zu %s:", p + 1, pl);
        for (int k = 0; k < st->nm; k++) {
            double m, h;
            mci(tune_vy(st, rc, k, p), rc->vreps, &m, &h);
            char b[64];
            fprintf(f, "%s %s = %s", k ? ";" : "", st->m[k]->name, pm(b, sizeof b, m, h));
        }
        fputc('\n', f);
    }
}

static void write_manifest(const tune_state *st, FILE *f)
{
    const tune_request *rq = st->rq;
    fprintf(f, "herd %s\ncommand: herd", rq->version ? rq->version : "");
    for (int i = 1; i < rq->argc; i++) {
        const char *a = rq->argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--jobs")) {
            i++;
            continue;
        }
        if (!strncmp(a, "--output=", 9) || !strncmp(a, "--jobs=", 7) || !strcmp(a, "-q") || !strcmp(a, "--quiet"))
            continue;
        fputc(' ', f);
        text_shell_word(f, a);
    }
    fprintf(f, "\nscenario: %s\n", rq->path);
    for (int i = 0; i < rq->nflags; i++)
        fprintf(f, "override: %s\n", rq->flags[i]);
    fprintf(f, "objective: %s %s (%s)\n", rq->maximize ? "maximize" : "minimize", rq->objective->name,
            rq->aggregate_mean ? "aggregate mean: the mean over operating points" :
                                 "aggregate worst: the worst operating point");
    for (int k = 0; k < rq->ncons; k++)
        fprintf(f, "constraint: %s at every operating point\n", rq->cons[k].text);
    for (int d = 0; d < rq->space->ndims; d++) {
        fprintf(f, "search %s:", rq->space->dims[d].key);
        for (long v = 0; v < rq->space->dims[d].n; v++)
            fprintf(f, " %s", rq->space->dims[d].labels[v]);
        fputc('\n', f);
    }
    fprintf(f, "candidates: %zu; operating points: %zu\n", st->ncand, st->npoints);
    for (size_t p = 0; p < st->npoints; p++) {
        char pl[256];
        tune_point_label(st, p, pl, sizeof pl);
        fprintf(f, "operating point %zu: %s\n", p + 1, pl);
    }
    fprintf(f, "racing: replications from %u doubling up to %u; decisions at %g (Holm across a round's paired "
               "tests; Bonferroni over a candidate's constraint tests)\n", rq->min_reps, rq->max_reps, rq->alpha);
    fprintf(f, "search seed: %llu (replication r at every point and candidate: rng_replication_seed(seed, r), "
               "r < %u)\n", (unsigned long long)st->seed, st->final_reps);
    fprintf(f, "validation seed: %llu (= rng_replication_seed(search seed, 4294967295), a purpose of its own; "
               "replication r: rng_replication_seed(validation seed, r), r < %u)\n",
            (unsigned long long)st->vseed, rq->val_reps);
    fputs(st->rounds_log, f);
    fprintf(f, "events: search %llu; validation %llu; an exhaustive grid at %u replications about %.0f\n",
            (unsigned long long)st->events, (unsigned long long)st->vevents, st->final_reps, st->grid_events);
    fprintf(f, "--- the scenario as written: its plan ---\n");
    exp_describe(f, &st->c[st->ncand].plan);
}

/* The figure's data in wd: front.csv (per point a block x,y,kind;
 * kind 0 dropped, 1 finalist, 2 recommended, 3 the Pareto front) and
 * tune.tsv (key<TAB>value). */
static int write_figure_data(const tune_state *st, const char *wd, int xk)
{
    const tune_request *rq = st->rq;
    char path[4096];
    snprintf(path, sizeof path, "%s/front.csv", wd);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    double *xs = herd_malloc_array(st->ncand, sizeof *xs), *ys = herd_malloc_array(st->ncand, sizeof *ys);
    size_t *ord = herd_malloc_array(st->ncand, sizeof *ord);
    if (!xs || !ys || !ord) {
        fclose(f);
        herd_free(xs);
        herd_free(ys);
        herd_free(ord);
        return -1;
    }
    int *valid = herd_calloc(st->npoints, sizeof *valid);
    if (!valid) {
        fclose(f);
        herd_free(xs);
        herd_free(ys);
        herd_free(ord);
        return -1;
    }
    for (size_t p = 0; p < st->npoints; p++) {
        fprintf(f, "x,y,kind\n");
        for (size_t c = 0; c < st->ncand; c++) {
            const tune_cand *cd = &st->c[c];
            double m, se;
            paired_mean_se(tune_y(st, cd, 0, p), cd->reps, &ys[c], &se);
            if (xk >= 0)
                paired_mean_se(tune_y(st, cd, st->con_m[xk], p), cd->reps, &xs[c], &se);
            else
                xs[c] = (double)(c + 1);
            (void)m;
            int kind = cd->status == TUNE_RECOMMENDED ? 2 : cd->status == TUNE_FINALIST ? 1 : 0;
            if (isfinite(xs[c]) && isfinite(ys[c])) {
                fprintf(f, "%.9g,%.9g,%d\n", xs[c], ys[c], kind);
                valid[p] = 1;
            }
            ord[c] = c;
        }
        /* the front: sorted by x (the constraint's better side first), a
         * point is on it when its objective beats every one before it */
        int up = xk < 0 || rq->cons[xk].upper;
        for (size_t i = 1; i < st->ncand; i++) {
            size_t v = ord[i], k = i;
            while (k > 0 && (up ? xs[ord[k - 1]] > xs[v] : xs[ord[k - 1]] < xs[v])) {
                ord[k] = ord[k - 1];
                k--;
            }
            ord[k] = v;
        }
        double best = INFINITY;
        for (size_t i = 0; i < st->ncand; i++) {
            size_t c = ord[i];
            double y = rq->maximize ? -ys[c] : ys[c];
            if (isfinite(xs[c]) && isfinite(ys[c]) && y < best) {
                best = y;
                fprintf(f, "%.9g,%.9g,3\n", xs[c], ys[c]);
            }
        }
        fprintf(f, "\n\n");
    }
    herd_free(xs);
    herd_free(ys);
    herd_free(ord);
    if (fclose(f) != 0) {
        herd_free(valid);
        return -1;
    }
    snprintf(path, sizeof path, "%s/tune.tsv", wd);
    f = fopen(path, "w");
    if (!f) {
        herd_free(valid);
        return -1;
    }
    fprintf(f, "np\t%zu\n", st->npoints);
    fprintf(f, "ylabel\t%s (search mean)\n", rq->objective->name);
    if (xk >= 0)
        fprintf(f, "xlabel\t%s (search mean)\nbound\t%.9g\n", rq->cons[xk].metric->name, rq->cons[xk].bound);
    else
        fprintf(f, "xlabel\tcandidate\n");
    char t[512];
    settings(st, st->recommended >= 0 ? (size_t)st->recommended : st->ncand, t, sizeof t);
    fprintf(f, "title\therd tune %s: %s %s%s%s\n", st->base->name, rq->maximize ? "maximize" : "minimize",
            rq->objective->name, xk >= 0 ? " subject to " : "", xk >= 0 ? rq->cons[xk].text : "");
    fprintf(f, "subtitle\trecommended: %s\n", st->recommended >= 0 ? t : "none feasible");
    for (size_t p = 0; p < st->npoints; p++) {
        char pl[256];
        tune_point_label(st, p, pl, sizeof pl);
        fprintf(f, "point\t%s\n", pl);
        fprintf(f, "valid\t%d\n", valid[p]);
    }
    herd_free(valid);
    return fclose(f) != 0 ? -1 : 0;
}

/* recommendation.txt through write_recommendation, with no "--set" in a
 * comment line: a comment echoes names the user chose (the scenario's
 * path, a constraint, a variant, a sweep value), and the documented
 * `herd run SCENARIO $(grep -- --set DIR/recommendation.txt)` must take
 * the setting lines only; "--set" in a comment is written "-\\-set".
 * 0, or -1 (memory). */
static int write_recommendation_safe(const tune_state *st, FILE *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return -1;
    write_recommendation(st, m);
    if (fclose(m) != 0) {
        free(buf);
        return -1;
    }
    for (const char *p = buf; *p;) {
        size_t n = strcspn(p, "\n");
        int comment = p[0] == '#';
        for (size_t i = 0; i < n; i++) {
            if (comment && !strncmp(p + i, "--set", 5) && i + 5 <= n) {
                fputs("-\\-", f);
                i++;
                continue;
            }
            fputc(p[i], f);
        }
        if (p[n] == '\n')
            fputc('\n', f);
        p += n + (p[n] == '\n');
    }
    free(buf); /* open_memstream's buffer: the C library's allocation */
    return 0;
}

/* Removes the figure's private directory wd and what is in it. */
static void figure_cleanup(const char *wd)
{
    const char *names[] = {"front.csv", "tune.tsv", "tune.png", "tune.svg"};
    for (int i = 0; i < 4; i++) {
        char a[4200];
        snprintf(a, sizeof a, "%s/%s", wd, names[i]);
        unlink(a);
    }
    rmdir(wd);
}

/* Draws tune.png and .svg through plots/tune.gp into the private
 * directory wd[4096] it creates in dir, and checks both are whole (gnuplot
 * exits 0 when it cannot write).  0, or -1 with err (wd removed). */
static int figure(const tune_state *st, const char *dir, int xk, char *wd, char *err, size_t errlen)
{
    snprintf(wd, 4096, "%s/.tune-figure.XXXXXX", dir);
    if (!mkdtemp(wd)) {
        snprintf(err, errlen, "%s: cannot create a temporary directory: %s", dir, strerror(errno));
        wd[0] = '\0';
        return -1;
    }
    if (write_figure_data(st, wd, xk) != 0) {
        snprintf(err, errlen, "%s: cannot write the figure's data", wd);
        goto fail;
    }
    if (plot_script("tune.gp", wd, NULL, err, errlen) != 0)
        goto fail;
    const char *ext[] = {"png", "svg"};
    for (int i = 0; i < 2; i++) {
        char a[4200];
        snprintf(a, sizeof a, "%s/tune.%s", wd, ext[i]);
        if (plot_check_figure(a, err, errlen) != 0)
            goto fail;
    }
    return 0;
fail:
    figure_cleanup(wd);
    wd[0] = '\0';
    return -1;
}

static int summary(const tune_state *st, FILE *f)
{
    const tune_request *rq = st->rq;
    size_t dom = 0, inf = 0, fin = 0, same = 0, ident = 0;
    for (size_t c = 0; c < st->ncand; c++) {
        same += st->c[c].reason == TUNE_SAME_MODEL;
        ident += st->c[c].identical;
        dom += st->c[c].reason == TUNE_DOMINATED && !st->c[c].identical;
        inf += st->c[c].reason == TUNE_INFEASIBLE;
        fin += st->c[c].status == TUNE_FINALIST || st->c[c].status == TUNE_RECOMMENDED;
    }
    fprintf(f, "herd tune: %s: %zu candidate(s) x %zu operating point(s); %s %s", st->base->name, st->ncand,
            st->npoints, rq->maximize ? "maximize" : "minimize", rq->objective->name);
    for (int k = 0; k < rq->ncons; k++)
        fprintf(f, "%s%s", k ? ", " : " subject to ", rq->cons[k].text);
    fprintf(f, " (%s)\n", rq->aggregate_mean ? "mean over points" : "worst point");
    /* the span every figure below is measured over: the window (run.window_s)
     * or the whole run, per metric (a whole-run metric ignores the window) */
    const scn_config *sc = st->base;
    int win = sc->window_s[1] > sc->window_s[0];
    for (int pass = 0; pass < 2; pass++) { /* per-request metrics, then whole-run ones */
        char names[512];
        size_t o = 0;
        int nn = 0;
        names[0] = '\0';
        for (int k = 0; k < st->nm; k++)
            if ((st->m[k]->scope == SCOPE_RUN) == pass && o < sizeof names) {
                o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", o ? ", " : "", st->m[k]->name);
                nn++;
            }
        if (!o)
            continue;
        if (pass)
            fprintf(f, "measured: %s over the whole run (0 to %g s; run.window_s does not apply to %s)\n", names,
                    sc->horizon_s, nn > 1 ? "them" : "it");
        else if (win)
            fprintf(f, "measured: %s over the requests started in [%g s, %g s) (run.window_s), not the whole run\n",
                    names, sc->window_s[0], sc->window_s[1]);
        else
            fprintf(f, "measured: %s over every request started in the whole run (%g to %g s); for an incident, "
                       "measure over it: --set run.window_s=FROM:TO (doc/tune.md)\n", names, sc->warmup_s,
                    sc->horizon_s);
    }
    if (same)
        fprintf(f, "models: %zu distinct; %zu candidate(s) the same model as another at every point (a value that "
                   "changes nothing there), run and reported once\n", st->ncand - same, same);
    fprintf(f, "search: %u round(s), %u to %u replications; %zu dropped (%zu dominated, %zu infeasible, %zu identical "
               "run for run to another), %zu finalist(s)\n", st->rounds, rq->min_reps, st->final_reps,
            dom + inf + ident, dom, inf, ident, fin);
    fprintf(f, "events: %llu simulated by the search, %.1f%% of an exhaustive grid at %u replications (about %.3g); "
               "validation %llu\n", (unsigned long long)st->events,
            st->grid_events > 0 ? 100.0 * (double)st->events / st->grid_events : 0.0, st->final_reps, st->grid_events,
            (unsigned long long)st->vevents);
    if (st->recommended < 0) {
        char why[400];
        fprintf(f, "recommended: none: %s\n", none_why(st, why, sizeof why));
        return ferror(f) ? -1 : 0;
    }
    const tune_cand *rc = &st->c[st->recommended];
    char t[512];
    settings(st, (size_t)st->recommended, t, sizeof t);
    fprintf(f, "recommended: %s (candidate %ld)%s%s\n", t, st->recommended + 1, rc->why[0] ? "; " : "", rc->why);
    for (int k = 0; k < st->nm; k++) {
        int larger_worse = larger_is_worse(st, k);
        double m, h;
        long wp;
        validated(st, rc, k, larger_worse, &m, &h, &wp);
        char pl[256] = "mean over points";
        if (wp >= 0)
            tune_point_label(st, (size_t)wp, pl, sizeof pl);
        char b[64];
        fprintf(f, "  %s = %s (validation, %u replications; %s%s)\n", st->m[k]->name, pm(b, sizeof b, m, h), rc->vreps,
                wp >= 0 ? "worst point " : "", pl);
    }
    tune_identical_lines(st, f);
    if (st->binding >= 0) {
        size_t better = 0;
        for (size_t c = 0; c < st->ncand; c++)
            better += st->c[c].reason == TUNE_INFEASIBLE && st->c[c].con == st->binding;
        double m, h;
        long wp;
        validated(st, rc, st->con_m[st->binding], rq->cons[st->binding].upper, &m, &h, &wp);
        char pl[256] = "mean over points";
        if (wp >= 0)
            tune_point_label(st, (size_t)wp, pl, sizeof pl);
        char b[64];
        fprintf(f, "binds: %s (it ruled out %zu candidate(s), better ones among them; the recommendation's %s is "
                   "%s at %s)\n", rq->cons[st->binding].text, better, rq->cons[st->binding].metric->name,
                pm(b, sizeof b, m, h), pl);
    } else if (rq->ncons) {
        fprintf(f, "binds: no constraint ruled out a candidate with a better objective\n");
    }
    for (size_t c = 0; c <= st->ncand; c++) {
        const tune_cand *o = &st->c[c];
        if ((long)c == st->recommended || !o->vreps || (c == st->ncand && !st->has_baseline))
            continue;
        /* at the other's worst point on the validation seeds */
        size_t wp = 0;
        double wm = 0;
        for (size_t p = 0; p < st->npoints; p++) {
            double m, se;
            paired_mean_se(tune_vy(st, o, 0, p), o->vreps, &m, &se);
            if (rq->maximize)
                m = -m;
            if (p == 0 || m > wm) {
                wm = m;
                wp = p;
            }
        }
        double d, h;
        paired_diff(st, rc, o, wp, &d, &h);
        char os[512], pl[256];
        settings(st, c, os, sizeof os);
        tune_point_label(st, wp, pl, sizeof pl);
        char broken[320] = "";
        for (int k = 0; k < rq->ncons && !broken[0]; k++)
            for (size_t p = 0; p < st->npoints && !broken[0]; p++) {
                double m, se;
                paired_mean_se(tune_vy(st, o, st->con_m[k], p), o->vreps, &m, &se);
                if (rq->cons[k].upper ? m > rq->cons[k].bound : m < rq->cons[k].bound) {
                    char bp[256];
                    tune_point_label(st, p, bp, sizeof bp);
                    snprintf(broken, sizeof broken, "; it breaks %s (%s %.6g at %s)", rq->cons[k].text,
                             rq->cons[k].metric->name, m, bp);
                }
            }
        if (!isfinite(d))
            fprintf(f, "against %s: n/a (%s undefined in some validation run at %s)%s\n", os, rq->objective->name,
                    pl, broken);
        else if (d == 0 && h == 0)
            fprintf(f, "against %s: the same %s in every validation run at %s%s\n", os, rq->objective->name, pl, broken);
        else
            fprintf(f, "against %s: the recommendation's %s, %.6g +/- %.3g %s, at its worst point %s (paired, "
                       "validation seeds)%s\n", os, rq->objective->name, fabs(d), h, d > 0 ? "lower" : "higher", pl,
                    broken);
    }
    return ferror(f) ? -1 : 0;
}

int tune_report(tune_state *st, char *err, size_t errlen)
{
    const tune_request *rq = st->rq;
    const char *dir = rq->outdir;
    struct stat dst;
    int fresh = stat(dir, &dst) != 0; /* removed again if nothing is published */
    if (csv_mkdirs(dir, err, errlen) != 0)
        return -1;
    csv_out out[3];
    memset(out, 0, sizeof out);
    const char *names[] = {"tune.csv", "recommendation.txt", "manifest.txt"};
    char wd[4096] = "";
    int rc = -1;
    /* every output is finished (the figures drawn and checked) before any
     * is published, with SIGINT, SIGTERM and SIGHUP held from the figure's
     * private directory to the last rename: a failure or a signal leaves
     * the previous outputs or none (csv.h, plot.h) */
    plot_hold hold = {.on = 0};
    plot_hold_signals(&hold);
    for (int i = 0; i < 3; i++)
        if (csv_open(&out[i], dir, names[i], err, errlen) != 0)
            goto done;
    write_csv(st, out[0].f);
    if (write_recommendation_safe(st, out[1].f) != 0) {
        snprintf(err, errlen, "%s/recommendation.txt: out of memory", dir);
        goto done;
    }
    write_manifest(st, out[2].f);
    for (int i = 0; i < 3; i++)
        if (csv_finish(&out[i], err, errlen) != 0)
            goto done;
    int xk = st->binding >= 0 ? st->binding : rq->ncons ? 0 : -1;
    if (figure(st, dir, xk, wd, err, errlen) != 0 || plot_held_signal())
        goto done;
    csv_pub pub;
    if (csv_publish_begin(&pub, dir, err, errlen) != 0)
        goto done;
    int bad = 0;
    for (int i = 0; i < 3 && !bad; i++)
        bad = csv_publish(&out[i], err, errlen) != 0;
    const char *ext[] = {"png", "svg"};
    for (int i = 0; i < 2 && !bad; i++) {
        char a[4200], b[4200];
        snprintf(a, sizeof a, "%s/tune.%s", wd, ext[i]);
        snprintf(b, sizeof b, "%s/tune.%s", dir, ext[i]);
        if (rename(a, b) != 0) {
            snprintf(err, errlen, "%s: %s", b, strerror(errno));
            bad = 1;
        }
    }
    csv_publish_end(&pub);
    if (!bad)
        rc = 0;
done:
    for (int i = 0; i < 3; i++)
        csv_abort(&out[i]);
    if (wd[0])
        figure_cleanup(wd);
    if (rc != 0 && fresh)
        rmdir(dir); /* only when empty */
    plot_release_signals(&hold); /* a signal recorded meanwhile: raised now (exit 128 + signal) */
    if (rc != 0)
        return rc;
    if (!rq->quiet) {
        char od[4 * 4096];
        text_visible(dir, od, sizeof od);
        if (summary(st, stdout) != 0 || printf("wrote %s/tune.csv, recommendation.txt, manifest.txt, tune.png, "
                                               "tune.svg\n", od) < 0 || fflush(stdout) != 0) {
            snprintf(err, errlen, "cannot write to standard output");
            return -1;
        }
    }
    return 0;
}
