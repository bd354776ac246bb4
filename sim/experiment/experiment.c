/*
 * experiment.c - the thread pool over a plan's jobs, the hand-over of
 * results to the report, and the plan's description (see experiment.h).
 */
#define _GNU_SOURCE
#include "experiment.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../base/alloc.h"
#include "../engine/sim.h"
#include "../model/model.h"
#include "../report/report.h"

typedef struct pool {
    const exp_plan *plan;
    model_results *results; /* one per job, plan order */
    uint64_t *seeds;
    atomic_size_t next;
    atomic_int failed;      /* a job ran out of memory */
    atomic_size_t failed_job;
    int queue;              /* sim_queue_kind */
    char why[160];          /* the failed job's reason (set by the first to fail) */
} pool;

static void run_job(pool *p, size_t j)
{
    const exp_plan *plan = p->plan;
    const exp_group *g = &plan->groups[exp_plan_group_of(plan, j)];
    const exp_point *pt = &plan->points[g->point];
    uint32_t rep = (uint32_t)(j - g->first_job);
    sim_t sim;
    model md;
    memset(&md, 0, sizeof md);
    p->seeds[j] = exp_plan_seed(plan, pt, rep);
    int ok = sim_init_queue(&sim, p->seeds[j], (size_t)pt->spec.clients * 2 + 64, p->queue) == 0 &&
             model_init(&md, &pt->spec, g->strategy, &sim) == 0 && model_run(&md) == 0;
    if (ok) {
        model_take_results(&md, &p->results[j],
                           pt->timeseries == SCN_TS_ALL || (pt->timeseries == SCN_TS_FIRST && rep == 0));
    } else if (!atomic_exchange(&p->failed, 1)) {
        atomic_store(&p->failed_job, j);
        if (sim.error == SIM_ERR_STUCK)
            snprintf(p->why, sizeof p->why, "simulated time stopped advancing at t = %.9g s (more than %llu events in a row at that instant)",
                     sim.now, (unsigned long long)sim.same_time_limit);
        else
            snprintf(p->why, sizeof p->why, "out of memory");
    }
    model_free(&md);
    sim_free(&sim);
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->plan->njobs || atomic_load(&p->failed))
            return NULL;
        run_job(p, i);
    }
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* An argument as a shell would need it: bare if harmless, else quoted. */
static void shell_word(FILE *f, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == strlen(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

int exp_describe(FILE *f, const exp_plan *plan)
{
    const scn_config *b = plan->base;
    for (uint32_t v = 0; v < b->nvariants; v++) {
        fprintf(f, "variant %s\n", b->variants[v].name);
        for (const char *s = b->variants[v].sets; *s;) {
            size_t n = strcspn(s, "\n");
            fprintf(f, "  set %.*s\n", (int)n, s);
            s += n + (s[n] == '\n');
        }
    }
    for (uint32_t i = 0; i < b->nsweeps; i++) {
        fprintf(f, "sweep %s\n", b->sweeps[i].key);
        for (long k = 0; k < plan->nlabels[i]; k++)
            fprintf(f, "  value %s\n", plan->labels[i][k]);
    }
    for (size_t p = 0; p < plan->npoints; p++) {
        const exp_point *pt = &plan->points[p];
        fprintf(f, "point %zu:", p + 1);
        if (pt->variant >= 0)
            fprintf(f, " variant=%s", b->variants[pt->variant].name);
        for (uint32_t i = 0; i < b->nsweeps; i++)
            fprintf(f, " %s=%s", b->sweeps[i].key, plan->labels[i][pt->value[i]]);
        fprintf(f, " strategies=");
        for (uint32_t s = 0; s < pt->nstrategies; s++)
            fprintf(f, "%s%s", s ? "," : "", hp_strategy_name(pt->strategies[s]));
        fprintf(f, " replications=%u seed=%llu clients=%u\n", pt->replications, (unsigned long long)pt->seed,
                pt->spec.clients);
    }
    fprintf(f, "plan: %u variant(s) x %zu sweep point(s) = %zu point(s); %zu group(s); %zu job(s)\n",
            b->nvariants ? b->nvariants : 1, plan->npoints / (b->nvariants ? b->nvariants : 1), plan->npoints,
            plan->ngroups, plan->njobs);
    return ferror(f) ? -1 : 0;
}

/* manifest.txt: what ran, so any CSV can be traced back to its inputs. */
static char *manifest(const exp_plan *plan, const char *path, const exp_options *opt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fprintf(f, "herd %s\n", opt->version ? opt->version : "");
    fprintf(f, "command:");
    for (int i = 0; i < opt->argc; i++) {
        fputc(' ', f);
        shell_word(f, opt->argv[i]);
    }
    fprintf(f, "\nscenario: %s\nseed: %llu\n", path, (unsigned long long)plan->base->seed);
    for (int i = 0; i < opt->nsets; i++)
        fprintf(f, "override: %s\n", opt->sets[i]);
    exp_describe(f, plan);
    if (opt->text) {
        fprintf(f, "--- scenario file %s, %zu bytes, verbatim ---\n", path, opt->textlen);
        fwrite(opt->text, 1, opt->textlen, f);
        if (opt->textlen && opt->text[opt->textlen - 1] != '\n')
            fputc('\n', f);
        fprintf(f, "--- end of scenario file ---\n");
    }
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

int exp_run(const scn_config *base, const char *path, const exp_options *opt, char *err, size_t errlen)
{
    exp_plan plan;
    if (exp_plan_build(&plan, base, path, err, errlen) != 0)
        return -2;
    if (rep_check_outdir(opt->outdir, err, errlen) != 0) { /* an I/O failure, found before any work */
        exp_plan_free(&plan);
        return -1;
    }
    int rc = -1;
    size_t njobs = plan.njobs;
    pool pl = {.plan = &plan, .queue = opt->queue};
    rep_group *groups = NULL;
    char *man = NULL;
    atomic_init(&pl.next, 0);
    atomic_init(&pl.failed, 0);
    atomic_init(&pl.failed_job, 0);
    pl.results = herd_calloc(njobs, sizeof *pl.results);
    pl.seeds = herd_calloc(njobs, sizeof *pl.seeds);
    groups = herd_calloc(plan.ngroups, sizeof *groups);
    if (!pl.results || !pl.seeds || !groups) {
        snprintf(err, errlen, "out of memory for %zu runs", njobs);
        goto done;
    }

    double t0 = wall_seconds();
    int nthreads = opt->jobs < 1 ? 1 : opt->jobs > 64 ? 64 : opt->jobs;
    /* Simulations on different threads each hold their own state: run no
     * more at once than the memory allows (a single one was checked when
     * the plan was built). */
    double fit = plan.max_memory > 0 ? floor(scn_memory_limit() / plan.max_memory) : nthreads;
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
    if (atomic_load(&pl.failed)) {
        size_t j = atomic_load(&pl.failed_job);
        const exp_group *g = &plan.groups[exp_plan_group_of(&plan, j)];
        snprintf(err, errlen, "%s while simulating %s replication %zu", pl.why, hp_strategy_name(g->strategy),
                 j - g->first_job);
        goto done;
    }

    for (size_t gi = 0; gi < plan.ngroups; gi++) {
        const exp_group *g = &plan.groups[gi];
        const exp_point *pt = &plan.points[g->point];
        rep_group *r = &groups[gi];
        r->variant = pt->variant >= 0 ? base->variants[pt->variant].name : NULL;
        for (uint32_t i = 0; i < base->nsweeps; i++)
            r->values[i] = plan.labels[i][pt->value[i]];
        r->strategy = g->strategy;
        r->nreps = pt->replications;
        r->runs = &pl.results[g->first_job];
        r->seeds = &pl.seeds[g->first_job];
        r->bucket_s = pt->spec.bucket_s;
        r->baseline = pt->baseline >= 0 ? (long)(pt->first_group + (size_t)pt->baseline) : -1;
        r->ntools = pt->spec.ntools;
        for (uint32_t t = 0; t < pt->spec.ntools; t++)
            r->tools[t] = plan.names[pt->tool_name[t]];
    }
    rep_table table = {.scenario = base->name,
                       .variants = base->nvariants > 0,
                       .nkeys = base->nsweeps,
                       .groups = groups,
                       .ngroups = plan.ngroups,
                       .clients = base->clients,
                       .requests_per_client = base->requests_per_client,
                       .replications = base->replications,
                       .nvariants = base->nvariants,
                       .seed = base->seed,
                       .points_per_variant = plan.npoints / (base->nvariants ? base->nvariants : 1),
                       .columns = base->columns};
    for (uint32_t i = 0; i < base->nsweeps; i++)
        table.keys[i] = base->sweeps[i].key;
    man = manifest(&plan, path, opt);
    if (!man) {
        snprintf(err, errlen, "out of memory writing the manifest");
        goto done;
    }
    if (rep_write(&table, opt->outdir, man, err, errlen) != 0)
        goto done;
    if (!opt->quiet && rep_print_table(stdout, &table, opt->outdir) != 0) {
        snprintf(err, errlen, "cannot write the table to standard output");
        goto done;
    }
    if (opt->stats) {
        uint64_t events = 0;
        for (size_t i = 0; i < njobs; i++)
            events += pl.results[i].m.events;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        fprintf(stderr,
                "stats: %zu runs, %llu events in %.3f s wall (%d thread(s)): %.3g events/s; "
                "peak RSS %.1f MiB; client state %zu B/client\n",
                njobs, (unsigned long long)events, wall, nthreads, wall > 0 ? (double)events / wall : 0.0,
                (double)ru.ru_maxrss / 1024.0, model_client_bytes(&plan.points[0].spec));
    }
    rc = 0;
done:
    if (pl.results)
        for (size_t i = 0; i < njobs; i++)
            model_results_free(&pl.results[i]);
    herd_free(pl.results);
    herd_free(pl.seeds);
    herd_free(groups);
    free(man);
    exp_plan_free(&plan);
    return rc;
}
