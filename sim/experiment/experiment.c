/*
 * experiment.c - the loop over sweep points, strategies and replications
 * (see experiment.h), the CSV writers and the comparison table.
 *
 * Jobs are laid out point-major, then strategy, then replication; every
 * writer walks them in that order, so files never depend on which thread
 * ran which job.
 */
#define _GNU_SOURCE
#include "experiment.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../engine/alloc.h"
#include "../engine/sim.h"
#include "../model/model.h"
#include "../report/csv.h"
#include "../report/stats.h"

typedef struct job {
    const scn_point *point;
    hp_strategy strategy;
    uint32_t rep;
    uint64_t seed;
    metrics m;
    tool_metrics tm[SCN_MAX_TOOLS];
    timeseries ts;
    int failed;
} job;

typedef struct pool {
    job *jobs;
    size_t njobs;
    atomic_size_t next;
} pool;

typedef struct layout {
    const scn_config *cfg;  /* the base scenario (sweep keys) */
    const scn_point *points;
    size_t npoints;
    uint32_t nstrat, nreps;
} layout;

static void run_job(job *j)
{
    const scn_config *cfg = &j->point->cfg;
    sim_t sim;
    model md;
    memset(&md, 0, sizeof md);
    int ok = sim_init(&sim, j->seed, (size_t)cfg->clients * 2 + 64) == 0 &&
             model_init(&md, cfg, j->strategy, &sim) == 0 && model_run(&md) == 0;
    if (ok) {
        j->m = md.m;
        memcpy(j->tm, md.tm, sizeof j->tm);
        int keep = cfg->timeseries == SCN_TS_ALL || (cfg->timeseries == SCN_TS_FIRST && j->rep == 0);
        if (keep) {
            j->ts = md.ts; /* keep the series; the rest is freed */
            md.ts = (timeseries){0};
        }
    }
    j->failed = !ok;
    model_free(&md);
    sim_free(&sim);
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->njobs)
            return NULL;
        run_job(&p->jobs[i]);
    }
}

/* The leading columns: variant (if any), one per swept key, then
 * strategy. */
static void key_header(csv_out *o, const layout *L)
{
    int first = 1;
    if (L->cfg->nvariants) {
        csv_str(o, "variant", 1);
        first = 0;
    }
    for (uint32_t i = 0; i < L->cfg->nsweeps; i++, first = 0)
        csv_str(o, L->cfg->sweeps[i].key, first);
    csv_str(o, "strategy", first);
}

static void key_row(csv_out *o, const layout *L, const job *j)
{
    int first = 1;
    if (L->cfg->nvariants) {
        csv_str(o, j->point->variant, 1);
        first = 0;
    }
    for (uint32_t i = 0; i < L->cfg->nsweeps; i++, first = 0)
        csv_str(o, j->point->value[i], first);
    csv_str(o, hp_strategy_name(j->strategy), first);
}

/* The columns NAME_mean and NAME_ci95 (or NAME_SUFFIX_mean / _ci95). */
static void header_pair(csv_out *o, const char *name, const char *suffix)
{
    char col[128];
    snprintf(col, sizeof col, "%s%s_mean", name, suffix);
    csv_str(o, col, 0);
    snprintf(col, sizeof col, "%s%s_ci95", name, suffix);
    csv_str(o, col, 0);
}

/* The mean of x[0..n) and its 95% CI half-width, as two cells. */
static void cells_pair(csv_out *o, const double *x, uint32_t n)
{
    double mean, half;
    stats_mean_ci95(x, n, &mean, &half);
    csv_dbl(o, mean, 0);
    csv_dbl(o, half, 0);
}

static void write_summary(csv_out *o, const layout *L, const job *jobs, size_t n)
{
    key_header(o, L);
    csv_str(o, "replication", 0);
    csv_str(o, "seed", 0);
    for (size_t k = 0; k < metric_count; k++)
        csv_str(o, metric_table[k].name, 0);
    csv_end(o);
    for (size_t i = 0; i < n; i++) {
        const job *j = &jobs[i];
        key_row(o, L, j);
        csv_u64(o, j->rep, 0);
        csv_u64(o, j->seed, 0);
        for (size_t k = 0; k < metric_count; k++) {
            if (metric_table[k].type == METRIC_U64)
                csv_u64(o, (uint64_t)metric_value(&j->m, &metric_table[k]), 0);
            else
                csv_dbl(o, metric_value(&j->m, &metric_table[k]), 0);
        }
        csv_end(o);
    }
}

/* Jobs come in groups of nreps (one point and strategy). */
static void write_aggregate(csv_out *o, const layout *L, const job *jobs, size_t ngroups, double *scratch)
{
    key_header(o, L);
    csv_str(o, "replications", 0);
    for (size_t k = 0; k < metric_count; k++)
        header_pair(o, metric_table[k].name, "");
    csv_end(o);
    for (size_t g = 0; g < ngroups; g++) {
        const job *grp = &jobs[g * L->nreps];
        key_row(o, L, grp);
        csv_u64(o, L->nreps, 0);
        for (size_t k = 0; k < metric_count; k++) {
            for (uint32_t r = 0; r < L->nreps; r++)
                scratch[r] = metric_value(&grp[r].m, &metric_table[k]);
            cells_pair(o, scratch, L->nreps);
        }
        csv_end(o);
    }
}

static void write_timeseries(csv_out *o, const layout *L, const job *jobs, size_t n)
{
    static const char *const cols[] = {"replication", "time_s", "arrivals",          "refused", "in_flight",
                                       "successes",   "errors", "retries_scheduled", "offered", "goodput"};
    key_header(o, L);
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        csv_str(o, cols[c], 0);
    csv_end(o);
    for (size_t i = 0; i < n; i++) {
        const job *j = &jobs[i];
        double bucket_s = j->point->cfg.bucket_s;
        for (size_t t = 0; t < j->ts.len; t++) {
            const ts_bucket *b = &j->ts.b[t];
            key_row(o, L, j);
            csv_u64(o, j->rep, 0);
            csv_dbl(o, (double)t * bucket_s, 0);
            csv_u64(o, b->arrivals, 0);
            csv_u64(o, b->refused, 0);
            csv_u64(o, b->in_flight, 0);
            csv_u64(o, b->successes, 0);
            csv_u64(o, b->errors, 0);
            csv_u64(o, b->retries_scheduled, 0);
            csv_u64(o, b->offered, 0);
            csv_u64(o, b->goodput, 0);
            csv_end(o);
        }
    }
}

/* compare.csv: per (point, strategy), the paired change of each metric
 * against the baseline strategy at the same point and replication:
 * 100 * (x - x_baseline) / x_baseline, then mean and CI over replications.
 * Pairing uses the common random numbers: replication r of both
 * strategies saw the same streams. */
static const char *const compared[] = {"completion_time_s", "calls",         "retries",
                                       "successes",         "failures",      "peak_inflight",
                                       "peak_arrivals_per_s", "mean_latency_s", "p99_latency_s"};

static double metric_by_name(const metrics *m, const char *name);

/* tools.csv: with [tool] sections, per (point, strategy, tool) the mean
 * and CI of each tool's counters. */
static const struct {
    const char *name;
    size_t off;
} tool_cols[] = {
    {"requests", offsetof(tool_metrics, requests)},
    {"successes", offsetof(tool_metrics, successes)},
    {"failures", offsetof(tool_metrics, failures)},
    {"unknown_outcomes", offsetof(tool_metrics, unknown_outcomes)},
    {"calls", offsetof(tool_metrics, calls)},
    {"effects", offsetof(tool_metrics, effects)},
    {"duplicate_effects", offsetof(tool_metrics, duplicate_effects)},
    {"lost_operations", offsetof(tool_metrics, lost_operations)},
};

static void write_tools(csv_out *o, const layout *L, const job *jobs, size_t ngroups, double *scratch)
{
    key_header(o, L);
    csv_str(o, "tool", 0);
    csv_str(o, "replications", 0);
    for (size_t k = 0; k < sizeof tool_cols / sizeof tool_cols[0]; k++)
        header_pair(o, tool_cols[k].name, "");
    csv_end(o);
    for (size_t g = 0; g < ngroups; g++) {
        const job *grp = &jobs[g * L->nreps];
        for (uint32_t t = 0; t < L->cfg->ntools; t++) {
            key_row(o, L, grp);
            csv_str(o, L->cfg->tools[t].name, 0);
            csv_u64(o, L->nreps, 0);
            for (size_t k = 0; k < sizeof tool_cols / sizeof tool_cols[0]; k++) {
                for (uint32_t r = 0; r < L->nreps; r++) {
                    uint64_t v;
                    memcpy(&v, (const char *)&grp[r].tm[t] + tool_cols[k].off, sizeof v);
                    scratch[r] = (double)v;
                }
                cells_pair(o, scratch, L->nreps);
            }
            csv_end(o);
        }
    }
}

static void write_compare(csv_out *o, const layout *L, const job *jobs, size_t ngroups, uint32_t base_index,
                          double *scratch)
{
    key_header(o, L);
    csv_str(o, "baseline", 0);
    csv_str(o, "replications", 0);
    for (size_t k = 0; k < sizeof compared / sizeof compared[0]; k++)
        header_pair(o, compared[k], "_change_pct");
    csv_end(o);
    for (size_t g = 0; g < ngroups; g++) {
        const job *grp = &jobs[g * L->nreps];
        const job *base = &jobs[((g / L->nstrat) * L->nstrat + base_index) * L->nreps];
        key_row(o, L, grp);
        csv_str(o, hp_strategy_name(base->strategy), 0);
        csv_u64(o, L->nreps, 0);
        for (size_t k = 0; k < sizeof compared / sizeof compared[0]; k++) {
            for (uint32_t r = 0; r < L->nreps; r++) {
                double x = metric_by_name(&grp[r].m, compared[k]), b = metric_by_name(&base[r].m, compared[k]);
                scratch[r] = b != 0 ? 100.0 * (x - b) / b : NAN;
            }
            cells_pair(o, scratch, L->nreps);
        }
        csv_end(o);
    }
}

static double metric_by_name(const metrics *m, const char *name)
{
    for (size_t k = 0; k < metric_count; k++)
        if (!strcmp(metric_table[k].name, name))
            return metric_value(m, &metric_table[k]);
    return NAN;
}

/* Short human number: integers up to 1e9 in full, else `digits`
 * significant digits. */
static void fmt_num(char *buf, size_t n, double v, int digits)
{
    if (isnan(v))
        snprintf(buf, n, "nan");
    else if (fabs(v) >= 1000 && fabs(v) < 1e9)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.*g", digits, v);
}

static void print_table(FILE *f, const layout *L, const job *jobs, size_t ngroups, double *scratch,
                        const char *outdir)
{
    const scn_config *cfg = L->cfg;
    char names[sizeof cfg->columns];
    const char *cols[32];
    size_t ncols = 0;
    memcpy(names, cfg->columns, sizeof names);
    for (char *s = names; *s && ncols < 32;) {
        cols[ncols++] = s;
        s += strcspn(s, ",");
        if (*s)
            *s++ = '\0';
    }
    fprintf(f, "herd: %s: %u clients x %u request(s), %u replication(s), seed %llu", cfg->name, cfg->clients,
            cfg->requests_per_client, L->nreps, (unsigned long long)cfg->seed);
    if (cfg->nvariants)
        fprintf(f, ", %u variants", cfg->nvariants);
    if (cfg->nsweeps)
        fprintf(f, ", %zu sweep points", L->npoints / (cfg->nvariants ? cfg->nvariants : 1));
    fprintf(f, "\nmean +/- 95%% CI half-width over replications\n\n");
    if (cfg->nvariants)
        fprintf(f, "%-18s ", "variant");
    for (uint32_t i = 0; i < cfg->nsweeps; i++)
        fprintf(f, "%-14s ", cfg->sweeps[i].key);
    fprintf(f, "%-20s", "strategy");
    for (size_t c = 0; c < ncols; c++)
        fprintf(f, " %19s", cols[c]);
    fputc('\n', f);
    for (size_t g = 0; g < ngroups; g++) {
        const job *grp = &jobs[g * L->nreps];
        if (cfg->nvariants)
            fprintf(f, "%-18s ", grp->point->variant);
        for (uint32_t i = 0; i < cfg->nsweeps; i++)
            fprintf(f, "%-14s ", grp->point->value[i]);
        fprintf(f, "%-20s", hp_strategy_name(grp->strategy));
        for (size_t c = 0; c < ncols; c++) {
            for (uint32_t r = 0; r < L->nreps; r++)
                scratch[r] = metric_by_name(&grp[r].m, cols[c]);
            double mean, half;
            stats_mean_ci95(scratch, L->nreps, &mean, &half);
            char cell[64], a[24], b[24];
            fmt_num(a, sizeof a, mean, 4);
            fmt_num(b, sizeof b, half, 2);
            if (isnan(half))
                snprintf(cell, sizeof cell, "%s", a);
            else
                snprintf(cell, sizeof cell, "%s +/- %s", a, b);
            fprintf(f, " %19s", cell);
        }
        fputc('\n', f);
    }
    fprintf(f, "\nwrote %s/summary.csv, %s/aggregate.csv, %s/timeseries.csv", outdir, outdir, outdir);
    if (cfg->baseline >= 0)
        fprintf(f, ", %s/compare.csv", outdir);
    if (cfg->ntools)
        fprintf(f, ", %s/tools.csv", outdir);
    fputc('\n', f);
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int exp_run(const scn_config *cfg, const char *path, const exp_options *opt, char *err, size_t errlen)
{
    hp_strategy strat[HP_STRATEGY_COUNT];
    layout L = {.cfg = cfg, .nstrat = scn_strategies(cfg, strat), .nreps = cfg->replications};
    csv_out out[5];
    memset(out, 0, sizeof out);
    int rc = -1;
    job *jobs = NULL;
    double *scratch = NULL;
    scn_point *points = NULL;
    size_t njobs = 0;

    char serr[SCN_ERR_MAX];
    long np = scn_expand(cfg, path, &points, serr);
    if (np < 0) {
        snprintf(err, errlen, "%s", serr);
        goto done;
    }
    L.points = points;
    L.npoints = (size_t)np;
    njobs = L.npoints * L.nstrat * L.nreps;

    /* Create the output files first: a bad directory fails before any
     * simulation runs. */
    if (csv_mkdirs(opt->outdir, err, errlen) != 0)
        goto done;
    /* summary, aggregate, timeseries always; compare with a baseline; tools
     * with [tool] sections */
    const char *names[5] = {"summary.csv", "aggregate.csv", "timeseries.csv", NULL, NULL};
    int nfiles = 3, compare_at = -1, tools_at = -1;
    if (cfg->baseline >= 0)
        names[compare_at = nfiles++] = "compare.csv";
    if (cfg->ntools)
        names[tools_at = nfiles++] = "tools.csv";
    for (int i = 0; i < nfiles; i++)
        if (csv_open(&out[i], opt->outdir, names[i], err, errlen) != 0)
            goto done;

    jobs = herd_calloc(njobs, sizeof *jobs);
    scratch = herd_malloc_array(L.nreps, sizeof *scratch);
    if (!jobs || !scratch) {
        snprintf(err, errlen, "out of memory for %zu runs", njobs);
        goto done;
    }
    size_t k = 0;
    for (size_t p = 0; p < L.npoints; p++)
        for (uint32_t s = 0; s < L.nstrat; s++)
            for (uint32_t r = 0; r < L.nreps; r++, k++) {
                jobs[k].point = &points[p];
                jobs[k].strategy = strat[s];
                jobs[k].rep = r;
                jobs[k].seed = rng_replication_seed(cfg->seed, r);
            }

    double t0 = wall_seconds();
    pool pl = {.jobs = jobs, .njobs = njobs};
    atomic_init(&pl.next, 0);
    int nthreads = opt->jobs < 1 ? 1 : opt->jobs > 64 ? 64 : opt->jobs;
    /* Simulations on different threads each hold their own state: run no
     * more at once than the memory allows (a single one was checked when
     * the scenario was loaded). */
    double need = 0;
    for (size_t p = 0; p < L.npoints; p++)
        need = fmax(need, scn_memory_estimate(&points[p].cfg));
    double fit = need > 0 ? floor(scn_memory_limit() / need) : nthreads;
    if (fit >= 1 && fit < nthreads)
        nthreads = (int)fit;
    if ((size_t)nthreads > njobs)
        nthreads = (int)njobs;
    pthread_t tid[64];
    int started = 0;
    for (int i = 1; i < nthreads; i++) {
        if (pthread_create(&tid[started], NULL, worker, &pl) != 0)
            break;
        started++;
    }
    worker(&pl);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    double wall = wall_seconds() - t0;

    for (size_t i = 0; i < njobs; i++)
        if (jobs[i].failed) {
            snprintf(err, errlen, "out of memory while simulating %s replication %u",
                     hp_strategy_name(jobs[i].strategy), jobs[i].rep);
            goto done;
        }

    size_t ngroups = L.npoints * L.nstrat;
    write_summary(&out[0], &L, jobs, njobs);
    write_aggregate(&out[1], &L, jobs, ngroups, scratch);
    write_timeseries(&out[2], &L, jobs, njobs);
    if (compare_at >= 0) {
        uint32_t bi = 0;
        while (bi < L.nstrat && (int)strat[bi] != cfg->baseline)
            bi++;
        write_compare(&out[compare_at], &L, jobs, ngroups, bi, scratch);
    }
    if (tools_at >= 0)
        write_tools(&out[tools_at], &L, jobs, ngroups, scratch);
    for (int i = 0; i < nfiles; i++)
        if (csv_finish(&out[i], err, errlen) != 0)
            goto done; /* every temporary is removed below: none published */
    for (int i = 0; i < nfiles; i++)
        if (csv_publish(&out[i], err, errlen) != 0)
            goto done;

    if (!opt->quiet)
        print_table(stdout, &L, jobs, ngroups, scratch, opt->outdir);
    fflush(stdout);
    if (opt->stats) {
        uint64_t events = 0;
        for (size_t i = 0; i < njobs; i++)
            events += jobs[i].m.events;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        fprintf(stderr,
                "stats: %zu runs, %llu events in %.3f s wall (%d thread(s)): %.3g events/s; "
                "peak RSS %.1f MiB; client state %zu B/client\n",
                njobs, (unsigned long long)events, wall, nthreads, wall > 0 ? (double)events / wall : 0.0,
                (double)ru.ru_maxrss / 1024.0, model_client_bytes(cfg));
    }
    rc = 0;
done:
    for (int i = 0; i < 5; i++)
        csv_abort(&out[i]);
    if (jobs)
        for (size_t i = 0; i < njobs; i++)
            ts_free(&jobs[i].ts);
    herd_free(jobs);
    herd_free(scratch);
    herd_free(points);
    return rc;
}
