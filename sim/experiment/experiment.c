/*
 * experiment.c - the loop over strategies and replications (see
 * experiment.h), the CSV writers and the comparison table.
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
    hp_strategy strategy;
    uint32_t rep;
    uint64_t seed;
    metrics m;
    timeseries ts;
    int failed;
} job;

typedef struct pool {
    const scn_config *cfg;
    job *jobs;
    size_t njobs;
    atomic_size_t next;
} pool;

static void run_job(const scn_config *cfg, job *j)
{
    sim_t sim;
    model md;
    memset(&md, 0, sizeof md);
    int ok = sim_init(&sim, j->seed, (size_t)cfg->clients * 2 + 64) == 0 &&
             model_init(&md, cfg, j->strategy, &sim) == 0 && model_run(&md) == 0;
    if (ok) {
        j->m = md.m;
        j->ts = md.ts; /* keep the series; the rest is freed */
        md.ts = (timeseries){0};
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
        run_job(p->cfg, &p->jobs[i]);
    }
}

static void write_summary(csv_out *o, const job *jobs, size_t n)
{
    csv_str(o, "strategy", 1);
    csv_str(o, "replication", 0);
    csv_str(o, "seed", 0);
    for (size_t k = 0; k < metric_count; k++)
        csv_str(o, metric_table[k].name, 0);
    csv_end(o);
    for (size_t i = 0; i < n; i++) {
        const job *j = &jobs[i];
        csv_str(o, hp_strategy_name(j->strategy), 1);
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

/* jobs are grouped by strategy: nreps consecutive jobs each. */
static void write_aggregate(csv_out *o, const job *jobs, uint32_t nstrat, uint32_t nreps, double *scratch)
{
    csv_str(o, "strategy", 1);
    csv_str(o, "replications", 0);
    for (size_t k = 0; k < metric_count; k++) {
        char name[96];
        snprintf(name, sizeof name, "%s_mean", metric_table[k].name);
        csv_str(o, name, 0);
        snprintf(name, sizeof name, "%s_ci95", metric_table[k].name);
        csv_str(o, name, 0);
    }
    csv_end(o);
    for (uint32_t s = 0; s < nstrat; s++) {
        const job *g = &jobs[(size_t)s * nreps];
        csv_str(o, hp_strategy_name(g->strategy), 1);
        csv_u64(o, nreps, 0);
        for (size_t k = 0; k < metric_count; k++) {
            for (uint32_t r = 0; r < nreps; r++)
                scratch[r] = metric_value(&g[r].m, &metric_table[k]);
            double mean, half;
            stats_mean_ci95(scratch, nreps, &mean, &half);
            csv_dbl(o, mean, 0);
            csv_dbl(o, half, 0);
        }
        csv_end(o);
    }
}

static void write_timeseries(csv_out *o, const job *jobs, size_t n, double bucket_s)
{
    static const char *const cols[] = {"strategy", "replication", "time_s", "arrivals",
                                       "refused", "in_flight", "successes", "errors", "retries_scheduled"};
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        csv_str(o, cols[c], c == 0);
    csv_end(o);
    for (size_t i = 0; i < n; i++) {
        const job *j = &jobs[i];
        for (size_t t = 0; t < j->ts.len; t++) {
            const ts_bucket *b = &j->ts.b[t];
            csv_str(o, hp_strategy_name(j->strategy), 1);
            csv_u64(o, j->rep, 0);
            csv_dbl(o, (double)t * bucket_s, 0);
            csv_u64(o, b->arrivals, 0);
            csv_u64(o, b->refused, 0);
            csv_u64(o, b->in_flight, 0);
            csv_u64(o, b->successes, 0);
            csv_u64(o, b->errors, 0);
            csv_u64(o, b->retries_scheduled, 0);
            csv_end(o);
        }
    }
}

static double metric_by_name(const metrics *m, const char *name)
{
    for (size_t k = 0; k < metric_count; k++)
        if (!strcmp(metric_table[k].name, name))
            return metric_value(m, &metric_table[k]);
    return NAN;
}

/* Short human number: integers up to 1e9 in full, else 4 significant
 * digits. */
static void fmt_num(char *buf, size_t n, double v, int digits)
{
    if (isnan(v))
        snprintf(buf, n, "nan");
    else if (fabs(v) >= 1000 && fabs(v) < 1e9)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.*g", digits, v);
}

static void print_table(FILE *f, const scn_config *cfg, const job *jobs, uint32_t nstrat, uint32_t nreps,
                        double *scratch, const char *outdir)
{
    static const struct {
        const char *metric, *title;
    } cols[] = {
        {"completion_time_s", "completion_s"}, {"calls", "calls"}, {"refused", "refused"},
        {"peak_arrivals_per_s", "peak_arrivals/s"}, {"p99_latency_s", "p99_latency_s"},
        {"failures", "failures"},
    };
    fprintf(f, "herd: %s: %u clients x %u request(s), %u replication(s), seed %llu\n", cfg->name, cfg->clients,
            cfg->requests_per_client, nreps, (unsigned long long)cfg->seed);
    fprintf(f, "mean +/- 95%% CI half-width over replications\n\n%-20s", "strategy");
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        fprintf(f, " %19s", cols[c].title);
    fputc('\n', f);
    for (uint32_t s = 0; s < nstrat; s++) {
        const job *g = &jobs[(size_t)s * nreps];
        fprintf(f, "%-20s", hp_strategy_name(g->strategy));
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            for (uint32_t r = 0; r < nreps; r++)
                scratch[r] = metric_by_name(&g[r].m, cols[c].metric);
            double mean, half;
            stats_mean_ci95(scratch, nreps, &mean, &half);
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
    fprintf(f, "\nwrote %s/summary.csv, %s/aggregate.csv, %s/timeseries.csv\n", outdir, outdir, outdir);
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int exp_run(const scn_config *cfg, const exp_options *opt, char *err, size_t errlen)
{
    hp_strategy strat[HP_STRATEGY_COUNT];
    uint32_t nstrat = scn_strategies(cfg, strat);
    uint32_t nreps = cfg->replications;
    size_t njobs = (size_t)nstrat * nreps;
    csv_out out[3];
    memset(out, 0, sizeof out);
    int rc = -1;
    job *jobs = NULL;
    double *scratch = NULL;

    /* Create the output files first: a bad directory fails before any
     * simulation runs. */
    if (csv_mkdirs(opt->outdir, err, errlen) != 0)
        goto done;
    static const char *const names[3] = {"summary.csv", "aggregate.csv", "timeseries.csv"};
    for (int i = 0; i < 3; i++)
        if (csv_open(&out[i], opt->outdir, names[i], err, errlen) != 0)
            goto done;

    jobs = herd_calloc(njobs, sizeof *jobs);
    scratch = herd_malloc_array(nreps, sizeof *scratch);
    if (!jobs || !scratch) {
        snprintf(err, errlen, "out of memory for %zu runs", njobs);
        goto done;
    }
    for (uint32_t s = 0; s < nstrat; s++)
        for (uint32_t r = 0; r < nreps; r++) {
            job *j = &jobs[(size_t)s * nreps + r];
            j->strategy = strat[s];
            j->rep = r;
            j->seed = rng_replication_seed(cfg->seed, r);
        }

    double t0 = wall_seconds();
    pool p = {.cfg = cfg, .jobs = jobs, .njobs = njobs};
    atomic_init(&p.next, 0);
    int nthreads = opt->jobs < 1 ? 1 : opt->jobs;
    if ((size_t)nthreads > njobs)
        nthreads = (int)njobs;
    pthread_t tid[64];
    if (nthreads > 64)
        nthreads = 64;
    int started = 0;
    for (int i = 1; i < nthreads; i++) {
        if (pthread_create(&tid[started], NULL, worker, &p) != 0)
            break;
        started++;
    }
    worker(&p);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    double wall = wall_seconds() - t0;

    for (size_t i = 0; i < njobs; i++)
        if (jobs[i].failed) {
            snprintf(err, errlen, "out of memory while simulating %s replication %u",
                     hp_strategy_name(jobs[i].strategy), jobs[i].rep);
            goto done;
        }

    write_summary(&out[0], jobs, njobs);
    write_aggregate(&out[1], jobs, nstrat, nreps, scratch);
    write_timeseries(&out[2], jobs, njobs, cfg->bucket_s);
    for (int i = 0; i < 3; i++)
        if (csv_commit(&out[i], err, errlen) != 0) {
            /* keep all-or-nothing as far as possible: later temps go too */
            for (int k = i + 1; k < 3; k++)
                csv_abort(&out[k]);
            goto done;
        }

    if (!opt->quiet)
        print_table(stdout, cfg, jobs, nstrat, nreps, scratch, opt->outdir);
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
                (double)ru.ru_maxrss / 1024.0, model_client_bytes(cfg->requests_per_client));
    }
    rc = 0;
done:
    for (int i = 0; i < 3; i++)
        csv_abort(&out[i]);
    if (jobs)
        for (size_t i = 0; i < njobs; i++)
            ts_free(&jobs[i].ts);
    herd_free(jobs);
    herd_free(scratch);
    return rc;
}
