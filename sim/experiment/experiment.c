/*
 * experiment.c - the thread pool over a plan's jobs, the hand-over of
 * results to the report, and the plan's description (see experiment.h).
 */
#define _GNU_SOURCE
#include "experiment.h"

#include "../plugin/loader.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/text.h"
#include "../engine/sim.h"
#include "../model/model.h"
#include "../report/partial.h"
#include "../report/report.h"

typedef struct pool {
    const exp_plan *plan;
    model_results *results; /* one per job, plan order */
    uint64_t *seeds;
    const size_t *todo;     /* the jobs this process runs, in order */
    size_t ntodo;
    atomic_size_t next;
    atomic_size_t done;     /* jobs finished, for the progress line */
    atomic_int finished;    /* every worker has returned */
    atomic_int failed;      /* a job failed: 1 out of memory, 2 its timeseries outgrew its budget */
    atomic_size_t failed_job;
    int queue;              /* sim_queue_kind */
    char why[512];          /* the failed job's reason (set by the first to fail) */
} pool;

/* Simulates job j of plan into *out (its seed into *seed): 0, or 1 out of
 * memory / stuck (why filled), 2 its timeseries outgrew its budget. */
static int simulate(const exp_plan *plan, size_t j, int queue, int keep_ts, model_results *out, uint64_t *seed,
                    char *why, size_t whylen)
{
    const exp_group *g = &plan->groups[exp_plan_group_of(plan, j)];
    const exp_point *pt = &plan->points[g->point];
    uint32_t rep = (uint32_t)(j - g->first_job);
    sim_t sim;
    model md;
    int rc = 0;
    memset(&md, 0, sizeof md);
    *seed = exp_plan_seed(plan, pt, rep);
    int ok = sim_init_queue(&sim, *seed, (size_t)pt->spec.clients * 2 + 64, queue) == 0 &&
             model_init(&md, &pt->spec, scn_data(), g->strategy, &sim) == 0 && model_run(&md) == 0;
    if (ok) {
        model_take_results(&md, out,
                           keep_ts && (pt->timeseries == SCN_TS_ALL || (pt->timeseries == SCN_TS_FIRST && rep == 0)));
    } else {
        rc = md.ts.over ? 2 : 1;
        if (md.plug_why[0])
            snprintf(why, whylen, "%s", md.plug_why);
        else if (md.trace_over)
            snprintf(why, whylen,
                     "the trace drew %llu arrivals, more than the room of %u the plan made (ten standard deviations "
                     "above the mean)",
                     (unsigned long long)md.trace_over, pt->spec.clients);
        else if (sim.error == SIM_ERR_STUCK)
            snprintf(why, whylen, "simulated time stopped advancing at t = %.9g s (more than %llu events in a row at that instant)",
                     sim.now, (unsigned long long)sim.same_time_limit);
        else
            snprintf(why, whylen, "out of memory");
    }
    model_free(&md);
    sim_free(&sim);
    return rc;
}

static void run_job(pool *p, size_t j)
{
    char why[512];
    int rc = simulate(p->plan, j, p->queue, 1, &p->results[j], &p->seeds[j], why, sizeof why);
    if (rc && !atomic_exchange(&p->failed, rc)) {
        atomic_store(&p->failed_job, j);
        snprintf(p->why, sizeof p->why, "%s", why);
    }
}

/* Runs job j of ctx (a pool) on the calling thread: 0, or -1 if it
 * failed (the pool records why). */
static int run_one(void *ctx, size_t j)
{
    pool *p = ctx;
    run_job(p, j);
    return atomic_load(&p->failed) ? -1 : 0;
}

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->ntodo || atomic_load(&p->failed))
            return NULL;
        run_job(p, p->todo[i]);
        atomic_fetch_add(&p->done, 1);
    }
}


/* The progress line: jobs done of all, elapsed time and an estimate of
 * what is left, redrawn on stderr (a terminal) twice a second until the
 * workers finish, then erased. */
static void *progress(void *arg)
{
    pool *p = arg;
    double t0 = exp_wall_seconds();
    struct timespec half = {0, 500000000L};
    nanosleep(&half, NULL);
    while (!atomic_load(&p->finished)) {
        size_t d = atomic_load(&p->done);
        double el = exp_wall_seconds() - t0 + 0.5;
        char eta[32] = "?";
        if (d > 0)
            snprintf(eta, sizeof eta, "%.0f s", el * (double)(p->ntodo - d) / (double)d);
        fprintf(stderr, "\rherd: %zu/%zu jobs, %.0f s elapsed, about %s left   ", d, p->ntodo, el, eta);
        fflush(stderr);
        nanosleep(&half, NULL);
    }
    fprintf(stderr, "\r%*s\r", 72, "");
    fflush(stderr);
    return NULL;
}

double exp_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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
        fprintf(f, " replications=%u seed=%llu clients=%s%u\n", pt->replications, (unsigned long long)pt->seed,
                pt->spec.start == SPEC_START_TRACE ? "one per arrival of the trace, room for " : "", pt->spec.clients);
        if (spec_has_window(&pt->spec)) /* per-request metrics over the requests started in it */
            fprintf(f, "point %zu: window_s=%.17g:%.17g (per-request metrics: the logical requests started in "
                       "[FROM, TO))\n", p + 1, pt->spec.window_from_s, pt->spec.window_to_s);
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
    /* the arguments that define the results; where and how fast they are
     * computed (-o, --jobs, --quiet, --stats, --plot, --shard, --mpi) is
     * left out, so a sharded or MPI run has the manifest of a plain one */
    fprintf(f, "command: herd");
    for (int i = 1; i < opt->argc; i++) {
        const char *a = opt->argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--jobs") || !strcmp(a, "--shard") ||
            !strcmp(a, "--queue")) {
            i++;
            continue;
        }
        if (!strncmp(a, "--output=", 9) || !strncmp(a, "--jobs=", 7) || !strncmp(a, "--shard=", 8) ||
            !strncmp(a, "--queue=", 8) ||
            (a[0] == '-' && a[1] == 'o') || !strcmp(a, "-q") || !strcmp(a, "--quiet") || !strcmp(a, "--stats") ||
            !strcmp(a, "--plot") || !strcmp(a, "--mpi"))
            continue;
        fputc(' ', f);
        text_shell_word(f, a);
    }
    fprintf(f, "\nscenario: %s\nseed: %llu\n", path, (unsigned long long)plan->base->seed);
    scn_data_print_files(f); /* the data files read (none: no line) */
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
    fprintf(f, "--- resolved model (herd check --explain) ---\n");
    scn_explain_points(f, plan->base, path, opt->scn_sets, opt->scn_nsets, true);
    fprintf(f, "--- end of resolved model ---\n");
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The threads a run uses: the request, at most one per job and no more
 * simulations at once than the memory allows. */
static int run_threads(const exp_plan *plan, int jobs)
{
    int n = jobs < 1 ? 1 : jobs > 64 ? 64 : jobs;
    double one = 0;
    for (size_t i = 0; i < plan->npoints; i++)
        one = fmax(one, exp_point_memory(&plan->points[i]));
    double fit = one > 0 ? floor(scn_memory_limit() / one) : n;
    if (fit >= 1 && fit < n)
        n = (int)fit;
    if ((size_t)n > plan->njobs)
        n = (int)plan->njobs;
    /* a plugin that is not reentrant (the Python adapter: one interpreter
     * lock) runs one job at a time; shards run as processes in parallel */
    if (hpl_any_not_reentrant())
        n = 1;
    return n < 1 ? 1 : n;
}

static void human_bytes(char *buf, size_t n, double b)
{
    if (b >= 1024.0 * 1024 * 1024)
        snprintf(buf, n, "%.2f GiB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024.0 * 1024)
        snprintf(buf, n, "%.1f MiB", b / (1024.0 * 1024));
    else
        snprintf(buf, n, "%.0f KiB", b / 1024.0);
}

/* Refuses a plan whose memory estimate exceeds what this machine may use. */
static int memory_check(const exp_plan *plan, const char *path, int threads, char *err, size_t errlen)
{
    double need = exp_plan_memory(plan, threads), have = scn_memory_limit();
    if (need <= have)
        return 0;
    char a[32], b[32];
    human_bytes(a, sizeof a, need);
    human_bytes(b, sizeof b, have);
    snprintf(err, errlen,
             "%s: this run needs at least %s of memory (%d simulation(s) at once, timeseries of bucket_s buckets "
             "at least until the last outage or load change ends, latency samples per request); at most %s "
             "(80%% of this machine's memory) can be used; "
             "expected a larger [run] bucket_s, a shorter horizon_s, [run] timeseries = first or none, fewer "
             "clients, or --jobs 1 (see herd check)",
             path, a, threads, b);
    return -1;
}

/* herd check's warnings about the printed table: every [run] columns
 * metric that the scenario leaves undefined (metric_spec_reason of its
 * compiled points), with the reason and, when not every point, how many. */
static void warn_columns(FILE *f, const exp_plan *plan, const scn_config *base)
{
    char names[sizeof base->columns];
    snprintf(names, sizeof names, "%s", base->columns);
    for (char *s = names, *next; *s; s = next) {
        size_t len = strcspn(s, ",");
        next = s + len + (s[len] != '\0');
        s[len] = '\0';
        const metric_desc *d = metric_find(s);
        if (!d)
            continue;
        const char *why = NULL;
        size_t n = 0;
        for (size_t i = 0; i < plan->npoints; i++) {
            const char *w = metric_spec_reason(results_spec_facts(&plan->points[i].spec), d);
            if (w) {
                why = why ? why : w;
                n++;
            }
        }
        if (!why)
            continue;
        fprintf(f, "warning: [run] columns: %s is n/a ", d->name);
        if (n == plan->npoints)
            fprintf(f, "for this scenario");
        else
            fprintf(f, "at %zu of %zu points", n, plan->npoints);
        fprintf(f, ", because %s\n", why);
    }
}

int exp_check(const scn_config *base, const char *path, const exp_options *opt, FILE *f, char *err,
              size_t errlen)
{
    exp_plan plan;
    if (exp_plan_build(&plan, base, path, err, errlen) != 0)
        return -2;
    int threads = run_threads(&plan, opt->jobs);
    exp_plan_budget(&plan, threads, scn_memory_limit());
    fprintf(f, "scenario: %s (%s)\nseed: %llu\n", path, base->name, (unsigned long long)base->seed);
    exp_describe(f, &plan);
    scn_data_print_files(f);
    double lo = 0, hi = 0, one = 0;
    for (size_t i = 0; i < plan.npoints; i++) {
        double l, h;
        const exp_point *p = &plan.points[i];
        exp_point_events(p, &l, &h);
        lo += l * p->nstrategies * p->replications;
        hi += h * p->nstrategies * p->replications;
        one = fmax(one, exp_point_memory(p));
    }
    char a[32], b[32], c[32];
    human_bytes(a, sizeof a, exp_plan_memory(&plan, threads));
    human_bytes(b, sizeof b, one);
    human_bytes(c, sizeof c, scn_memory_limit());
    /* a series never outgrows the horizon: the memory bound is named only
     * when it is the tighter one */
    const model_spec *s0 = &plan.points[0].spec;
    double whole = ceil(s0->horizon_s / s0->bucket_s) + 1;
    fprintf(f, "memory: about %s at peak with %d thread(s) (largest simulation %s, with its timeseries up to "
               "the end of the last outage or load change); at most %s may be used; ", a, threads, b, c);
    if ((double)s0->max_buckets >= whole)
        fprintf(f, "a timeseries holds at most %.0f buckets (the whole horizon_s = %g s at bucket_s = %g s)\n", whole,
                s0->horizon_s, s0->bucket_s);
    else
        fprintf(f, "a timeseries may grow to %llu buckets (%g of horizon_s = %g s at bucket_s = %g s: the memory "
                   "bound; a run whose series outgrows it stops with an error)\n",
                (unsigned long long)s0->max_buckets, (double)s0->max_buckets * s0->bucket_s, s0->horizon_s,
                s0->bucket_s);
    if (hpl_any_not_reentrant())
        fprintf(f, "threads: 1: a retry plugin is not reentrant (the Python adapter: one interpreter lock), so the "
                   "jobs run one after the other; for parallelism run shards as processes (--shard, herd merge)\n");
    if (isinf(hi))
        fprintf(f, "events: about 1e%.0f or more in all (unlimited attempts: bounded by horizon_s)\n",
                floor(log10(fmax(lo, 1))));
    else
        fprintf(f, "events: about 1e%.0f to 1e%.0f in all (one attempt per request to every attempt used)\n",
                floor(log10(fmax(lo, 1))), floor(log10(fmax(hi, 1))));
    warn_columns(f, &plan, base);
    int rc = memory_check(&plan, path, threads, err, errlen) != 0 ? -2 : 0;
    if (rc == 0)
        fprintf(f, "ok: the plan is valid and fits in memory\n");
    if ((fflush(f) != 0 || ferror(f)) && rc == 0) {
        snprintf(err, errlen, "cannot write to standard output");
        rc = -1;
    }
    exp_plan_free(&plan);
    return rc;
}

int exp_run(const scn_config *base, const char *path, const exp_options *opt, char *err, size_t errlen)
{
    exp_plan plan;
    if (exp_plan_build(&plan, base, path, err, errlen) != 0)
        return -2;
    if (memory_check(&plan, path, run_threads(&plan, opt->jobs), err, errlen) != 0) {
        exp_plan_free(&plan);
        return -2;
    }
    exp_plan_budget(&plan, run_threads(&plan, opt->jobs), scn_memory_limit());
    if (opt->live > 0 && exp_live(&plan, base->name, opt->live, opt->live_cols, opt->live_lines, opt->live_follow, stdout,
                                     err, errlen) != 0) {
        exp_plan_free(&plan);
        return -1;
    }
    if (!opt->mpi && rep_check_outdir(opt->outdir, err, errlen) != 0) { /* an I/O failure, found before any work */
        exp_plan_free(&plan);
        return -1;
    }
    int rc = -1;
    size_t njobs = plan.njobs;
    pool pl = {.plan = &plan, .queue = opt->queue};
    rep_group *groups = NULL;
    char *man = NULL, *input = NULL; /* input.csv: NULL when the scenario has no data to lay results over */
    uint8_t *mine = NULL;
    size_t *todo = NULL;
    int root = 1; /* this process writes the outputs */
    atomic_init(&pl.next, 0);
    atomic_init(&pl.failed, 0);
    atomic_init(&pl.failed_job, 0);
    pl.results = herd_calloc(njobs, sizeof *pl.results);
    pl.seeds = herd_calloc(njobs, sizeof *pl.seeds);
    groups = herd_calloc(plan.ngroups, sizeof *groups);
    mine = herd_malloc_array(njobs, 1);
    todo = herd_malloc_array(njobs, sizeof *todo);
    if (!pl.results || !pl.seeds || !groups || !mine || !todo) {
        snprintf(err, errlen, "out of memory for %zu runs", njobs);
        goto done;
    }
    if (opt->shard_n) {
        if (exp_plan_shard(&plan, opt->shard_k, opt->shard_n, mine) < 0) {
            snprintf(err, errlen, "out of memory dealing %zu jobs to %u shards", njobs, opt->shard_n);
            goto done;
        }
    } else {
        memset(mine, 1, njobs);
    }
    for (size_t j = 0; j < njobs; j++)
        if (mine[j])
            todo[pl.ntodo++] = j;
    pl.todo = todo;

    double t0 = exp_wall_seconds();
    /* Simulations on different threads each hold their own state: run no
     * more at once than the memory allows. */
    int nthreads = run_threads(&plan, opt->jobs);
    if (opt->mpi) {
#ifdef HERD_MPI
        int r = exp_mpi_jobs(todo, pl.ntodo, run_one, &pl, pl.results, pl.seeds, &root, err, errlen);
        if (r != 0 && !atomic_load(&pl.failed))
            goto done;
#else
        (void)run_one;
        snprintf(err, errlen, "--mpi: this herd was built without MPI; build herd-mpi with make mpi");
        goto done;
#endif
    } else {
        pthread_t tid[64], shower;
        int started = 0;
        atomic_init(&pl.done, 0);
        atomic_init(&pl.finished, 0);
        /* a progress line only for a person watching: stderr a terminal */
        int show = !opt->quiet && isatty(STDERR_FILENO) && pthread_create(&shower, NULL, progress, &pl) == 0;
        for (int i = 1; i < nthreads; i++) {
            if (pthread_create(&tid[started], NULL, worker, &pl) != 0)
                break;
            started++;
        }
        worker(&pl);
        for (int i = 0; i < started; i++)
            pthread_join(tid[i], NULL);
        atomic_store(&pl.finished, 1);
        if (show)
            pthread_join(shower, NULL);
    }
    double wall = exp_wall_seconds() - t0;
    if (!root) { /* an MPI worker: rank 0 reports failures and writes everything */
        rc = 0;
        goto done;
    }
    if (atomic_load(&pl.failed)) {
        size_t j = atomic_load(&pl.failed_job);
        const exp_group *g = &plan.groups[exp_plan_group_of(&plan, j)];
        const model_spec *sp = &plan.points[g->point].spec;
        if (atomic_load(&pl.failed) == 2)
            snprintf(err, errlen,
                     "%s replication %zu: the timeseries outgrew its memory budget of %llu buckets (%g s of "
                     "simulated time at bucket_s = %g s); expected a larger [run] bucket_s or timeseries = first "
                     "or none; nothing was written",
                     hp_strategy_name(g->strategy), j - g->first_job, (unsigned long long)sp->max_buckets,
                     (double)sp->max_buckets * sp->bucket_s, sp->bucket_s);
        else
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
        r->vbaseline = -1;
        if (base->baseline_variant[0] && base->nvariants) {
            size_t per = plan.npoints / base->nvariants;
            uint32_t vb = 0;
            while (vb < base->nvariants && strcmp(base->variants[vb].name, base->baseline_variant))
                vb++;
            const exp_point *bp = &plan.points[vb * per + g->point % per];
            for (uint32_t q = 0; q < bp->nstrategies; q++)
                if (bp->strategies[q] == g->strategy)
                    r->vbaseline = (long)(bp->first_group + q);
        }
        r->ntools = pt->spec.ntools;
        for (uint32_t t = 0; t < pt->spec.ntools; t++)
            r->tools[t] = plan.names[pt->tool_name[t]];
    }
    rep_table table = {.scenario = base->name,
                       .variants = base->nvariants > 0,
                       .nkeys = base->nsweeps,
                       .groups = groups,
                       .ngroups = plan.ngroups,
                       .clients = base->start == SPEC_START_TRACE ? 0 : base->clients,
                       .requests_per_client = base->requests_per_client,
                       .replications = base->replications,
                       .nvariants = base->nvariants,
                       .seed = base->seed,
                       .points_per_variant = plan.npoints / (base->nvariants ? base->nvariants : 1),
                       .columns = base->columns,
                       .width = opt->table_cols};
    for (uint32_t i = 0; i < base->nsweeps; i++)
        table.keys[i] = base->sweeps[i].key;
    man = manifest(&plan, path, opt);
    if (!man || scn_data_input_csv(base, &input) != 0) {
        snprintf(err, errlen, "out of memory writing the manifest");
        goto done;
    }
    table.input = input;
    if (opt->shard_n) {
        if (rep_partial_write(opt->outdir, &table, man, exp_plan_fingerprint(man), opt->shard_k, opt->shard_n,
                              pl.results, pl.seeds, mine, njobs, err, errlen) != 0)
            goto done;
        char od[4 * 4096];
        text_visible(opt->outdir, od, sizeof od);
        if (!opt->quiet && (printf("herd: %s: shard %u/%u: %zu of %zu jobs; wrote %s/partial.herd (combine the "
                                   "shards with herd merge)\n", base->name, opt->shard_k, opt->shard_n, pl.ntodo,
                                   njobs, od) < 0 || fflush(stdout) != 0)) {
            snprintf(err, errlen, "cannot write to standard output");
            goto done;
        }
    } else if (rep_write(&table, opt->outdir, man, err, errlen) != 0) {
        goto done;
    } else if (!opt->quiet && rep_print_table(stdout, &table, opt->outdir) != 0) {
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
                (double)ru.ru_maxrss / 1024.0, spec_client_bytes(&plan.points[0].spec));
    }
    rc = 0;
done:
    if (pl.results)
        for (size_t i = 0; i < njobs; i++)
            model_results_free(&pl.results[i]);
    herd_free(pl.results);
    herd_free(pl.seeds);
    herd_free(groups);
    herd_free(mine);
    herd_free(todo);
    free(man);
    herd_free(input);
    exp_plan_free(&plan);
    return rc;
}

/* ------------------------------------------------------------------------
 * A batch of jobs of several plans (herd tune)
 * ------------------------------------------------------------------------ */

typedef struct batch {
    const exp_job_ref *refs;
    size_t n;
    int queue;
    model_results *out;
    uint64_t *seeds;
    atomic_size_t next, done;
    atomic_int failed, finished;
    atomic_size_t failed_job;
    char why[512];
} batch;

static void *batch_worker(void *arg)
{
    batch *b = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&b->next, 1);
        if (i >= b->n || atomic_load(&b->failed))
            return NULL;
        char why[512];
        int rc = simulate(b->refs[i].plan, b->refs[i].job, b->queue, 0, &b->out[i], &b->seeds[i], why, sizeof why);
        if (rc && !atomic_exchange(&b->failed, rc)) {
            atomic_store(&b->failed_job, i);
            snprintf(b->why, sizeof b->why, "%s", why);
        }
        atomic_fetch_add(&b->done, 1);
    }
}

int exp_run_batch(const exp_job_ref *refs, size_t n, int jobs, int queue, model_results *out, uint64_t *seeds,
                  char *err, size_t errlen)
{
    batch b = {.refs = refs, .n = n, .queue = queue, .out = out, .seeds = seeds};
    atomic_init(&b.next, 0);
    atomic_init(&b.done, 0);
    atomic_init(&b.failed, 0);
    atomic_init(&b.finished, 0);
    atomic_init(&b.failed_job, 0);
    memset(out, 0, n * sizeof *out);
    int nthreads = jobs < 1 ? 1 : jobs > 64 ? 64 : jobs;
    if (hpl_any_not_reentrant()) /* see run_threads */
        nthreads = 1;
    if ((size_t)nthreads > n)
        nthreads = n ? (int)n : 1;
    pthread_t tid[64];
    int started = 0;
    for (int i = 1; i < nthreads; i++) {
        if (pthread_create(&tid[started], NULL, batch_worker, &b) != 0)
            break;
        started++;
    }
    batch_worker(&b);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (!atomic_load(&b.failed))
        return 0;
    size_t i = atomic_load(&b.failed_job);
    const exp_plan *plan = refs[i].plan;
    const exp_group *g = &plan->groups[exp_plan_group_of(plan, refs[i].job)];
    if (atomic_load(&b.failed) == 2)
        snprintf(err, errlen, "%s replication %zu: the timeseries outgrew its memory budget; expected a larger "
                              "[run] bucket_s", hp_strategy_name(g->strategy), refs[i].job - g->first_job);
    else
        snprintf(err, errlen, "%s while simulating %s replication %zu", b.why, hp_strategy_name(g->strategy),
                 refs[i].job - g->first_job);
    for (size_t k = 0; k < n; k++)
        model_results_free(&out[k]);
    return -1;
}
