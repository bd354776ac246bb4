/*
 * plan.c - building the experiment plan (see plan.h).
 */
#include "plan.h"

#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../engine/rng.h"
#include "../model/model.h"

/* The index of name in the plan's table, added if new; -1 if full. */
static int intern(exp_plan *plan, const char *name)
{
    for (uint32_t i = 0; i < plan->nnames; i++)
        if (!strcmp(plan->names[i], name))
            return (int)i;
    if (plan->nnames == EXP_MAX_NAMES)
        return -1;
    snprintf(plan->names[plan->nnames], SCN_NAME_MAX, "%s", name);
    return (int)plan->nnames++;
}

int exp_plan_build(exp_plan *plan, const scn_config *base, const char *path, char *err, size_t errlen)
{
    memset(plan, 0, sizeof *plan);
    plan->base = base;
    scn_config *scratch = NULL;
    char serr[SCN_ERR_MAX];
    long total = 1;

    for (uint32_t i = 0; i < base->nsweeps; i++) {
        const scn_sweep *s = &base->sweeps[i];
        const char *msg = NULL;
        plan->labels[i] = herd_malloc_array(EXP_MAX_POINTS, sizeof *plan->labels[i]);
        if (!plan->labels[i])
            goto oom;
        long n = scn_sweep_labels(s, plan->labels[i], EXP_MAX_POINTS, &msg);
        char many[96];
        if (n < 0 && !strcmp(msg, SCN_SWEEP_TOO_MANY)) {
            snprintf(many, sizeof many, "too many sweep values (at most %d points in all)", EXP_MAX_POINTS);
            msg = many;
        }
        if (n < 0) {
            if (s->line > 0)
                snprintf(err, errlen, "%s:%d: [sweep%s%s] values: %s", path, s->line, *s->name ? " " : "", s->name,
                         msg);
            else
                snprintf(err, errlen, "--sweep %s=%s: %s", s->key, s->values, msg);
            goto fail;
        }
        plan->nlabels[i] = n;
        /* keep only the labels used (a plan per candidate in herd tune) */
        void *shrunk = herd_realloc_array(plan->labels[i], (size_t)(n > 0 ? n : 1), sizeof *plan->labels[i]);
        if (shrunk)
            plan->labels[i] = shrunk;
        total *= n;
        if (total > EXP_MAX_POINTS) {
            snprintf(err, errlen, "%s: the sweeps make more than %d points", path, EXP_MAX_POINTS);
            goto fail;
        }
    }
    long nvar = base->nvariants ? (long)base->nvariants : 1;
    if (total * nvar > EXP_MAX_POINTS) {
        snprintf(err, errlen, "%s: the variants and sweeps make more than %d points", path, EXP_MAX_POINTS);
        goto fail;
    }
    plan->npoints = (size_t)(total * nvar);
    plan->points = herd_calloc(plan->npoints, sizeof *plan->points);
    scratch = herd_malloc_array(1, sizeof *scratch);
    if (!plan->points || !scratch)
        goto oom;

    size_t ngroups = 0, njobs = 0;
    for (size_t p = 0; p < plan->npoints; p++) {
        exp_point *pt = &plan->points[p];
        const char *labels[SCN_MAX_SWEEPS];
        long rest = (long)p % total;
        for (int i = (int)base->nsweeps - 1; i >= 0; i--) {
            pt->value[i] = (uint32_t)(rest % plan->nlabels[i]);
            rest /= plan->nlabels[i];
            labels[i] = plan->labels[i][pt->value[i]];
        }
        pt->variant = base->nvariants ? (int)(p / (size_t)total) : -1;
        if (scn_derive(scratch, base, pt->variant, labels, path, serr) != 0) {
            snprintf(err, errlen, "%s", serr);
            goto fail;
        }
        scn_compile(scratch, &pt->spec);
        pt->seed = scratch->seed;
        pt->replications = scratch->replications;
        pt->nstrategies = scn_strategies(scratch, pt->strategies);
        pt->baseline = -1;
        for (uint32_t s = 0; s < pt->nstrategies; s++)
            if ((int)pt->strategies[s] == scratch->baseline)
                pt->baseline = (int)s;
        pt->timeseries = scratch->timeseries;
        for (uint32_t t = 0; t < scratch->ntools; t++) {
            int k = intern(plan, scratch->tools[t].name);
            if (k < 0) {
                snprintf(err, errlen, "%s: more than %d distinct tool names across the variants", path,
                         EXP_MAX_NAMES);
                goto fail;
            }
            pt->tool_name[t] = (uint16_t)k;
        }
        pt->first_group = ngroups;
        ngroups += pt->nstrategies;
        njobs += (size_t)pt->nstrategies * pt->replications;
    }
    plan->groups = herd_calloc(ngroups, sizeof *plan->groups);
    if (!plan->groups)
        goto oom;
    plan->ngroups = ngroups;
    plan->njobs = njobs;
    size_t g = 0, j = 0;
    for (size_t p = 0; p < plan->npoints; p++)
        for (uint32_t s = 0; s < plan->points[p].nstrategies; s++, g++) {
            plan->groups[g] = (exp_group){.point = (uint32_t)p, .strategy = plan->points[p].strategies[s],
                                          .first_job = j};
            j += plan->points[p].replications;
        }
    herd_free(scratch);
    return 0;
oom:
    snprintf(err, errlen, "%s: out of memory building the plan", path);
fail:
    herd_free(scratch);
    exp_plan_free(plan);
    return -1;
}

void exp_plan_relayout(exp_plan *plan, uint64_t seed, uint32_t replications)
{
    size_t j = 0;
    for (size_t p = 0; p < plan->npoints; p++) {
        exp_point *pt = &plan->points[p];
        pt->seed = seed;
        pt->replications = replications;
        for (uint32_t s = 0; s < pt->nstrategies; s++) {
            plan->groups[pt->first_group + s].first_job = j;
            j += replications;
        }
    }
    plan->njobs = j;
}

size_t exp_plan_group_of(const exp_plan *plan, size_t job)
{
    size_t lo = 0, hi = plan->ngroups; /* invariant: first_job of lo <= job < first_job of hi */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (plan->groups[mid].first_job <= job)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

uint64_t exp_plan_seed(const exp_plan *plan, const exp_point *p, uint32_t r)
{
    (void)plan;
    return rng_replication_seed(p->seed, r);
}

/* The time a run of s surely lasts when it has work: its triggers and its
 * arrivals, capped by the horizon. */
static double surely_lasts(const model_spec *s)
{
    double t = 0;
    for (uint32_t i = 0; i < s->noutages; i++)
        t = fmax(t, s->outages[i].end_s);
    if (s->spike_rate_per_s > 0)
        t = fmax(t, s->spike_end_s);
    if (s->step_rate_per_s > 0)
        t = fmax(t, s->step_at_s);
    if (s->start == SPEC_START_SPREAD)
        t = fmax(t, s->spread_s);
    if (s->start == SPEC_START_POISSON && s->rate_per_s > 0)
        t = fmax(t, (double)s->clients / fmax(s->rate_per_s, fmax(s->step_rate_per_s, s->spike_rate_per_s)));
    const spec_table *data = scn_data(); /* a trace's and a capacity timeline's last row */
    const spec_entry *e = spec_table_entry(data, s->trace);
    if (s->start == SPEC_START_TRACE && e)
        t = fmax(t, spec_trace_t(data, e)[e->n - 1]);
    if ((e = spec_table_entry(data, s->capacity)))
        t = fmax(t, data->v[e->off + e->n - 1]);
    return fmin(t, s->horizon_s);
}

static double series_bytes(const model_spec *s)
{
    return (floor(surely_lasts(s) / s->bucket_s) + 1) * (double)sizeof(ts_bucket);
}

void exp_plan_budget(exp_plan *plan, int threads, double limit)
{
    double series = threads; /* running simulations each build one */
    double fixed = 0, one = 0;
    for (size_t i = 0; i < plan->npoints; i++) {
        const exp_point *p = &plan->points[i];
        series += (double)p->nstrategies *
                  (p->timeseries == SCN_TS_ALL ? p->replications : p->timeseries == SCN_TS_FIRST ? 1 : 0);
        one = fmax(one, spec_memory_estimate(&p->spec));
    }
    fixed = one * threads + (double)plan->njobs * (sizeof(model_results) + sizeof(uint64_t));
    double each = (limit - fixed) / series / (double)sizeof(ts_bucket);
    uint64_t max = each > 1e15 ? (uint64_t)1e15 : each < 16 ? 16 : (uint64_t)each;
    for (size_t i = 0; i < plan->npoints; i++)
        plan->points[i].spec.max_buckets = max;
}

double exp_point_memory(const exp_point *p)
{
    return spec_memory_estimate(&p->spec) + series_bytes(&p->spec);
}

double exp_plan_memory(const exp_plan *plan, int threads)
{
    double sims = 0, kept = 0;
    double *top = herd_calloc((size_t)(threads > 0 ? threads : 1), sizeof *top);
    for (size_t i = 0; i < plan->npoints; i++) {
        const exp_point *p = &plan->points[i];
        double one = exp_point_memory(p);
        if (top) { /* the `threads` largest simulations */
            int k = 0;
            for (int t = 1; t < threads; t++)
                if (top[t] < top[k])
                    k = t;
            if (one > top[k])
                top[k] = one;
        } else {
            sims = fmax(sims, one);
        }
        double series = p->timeseries == SCN_TS_ALL ? p->replications : p->timeseries == SCN_TS_FIRST ? 1 : 0;
        kept += (double)p->nstrategies * series * series_bytes(&p->spec);
    }
    if (top) {
        for (int t = 0; t < threads; t++)
            sims += top[t];
        herd_free(top);
    } else {
        sims *= threads;
    }
    return sims + kept + (double)plan->njobs * (sizeof(model_results) + sizeof(uint64_t));
}

void exp_point_events(const exp_point *p, double *lo, double *hi)
{
    const model_spec *s = &p->spec;
    double requests = (double)s->clients * s->requests_per_client;
    double attempts = 1;
    if (s->nlayers) {
        for (uint32_t l = 0; l < s->nlayers; l++)
            attempts *= s->layers[l].policy.max_attempts ? s->layers[l].policy.max_attempts : INFINITY;
    } else if (s->ntools) {
        double most = 1;
        for (uint32_t t = 0; t < s->ntools; t++)
            most = fmax(most, s->tools[t].policy.max_attempts ? s->tools[t].policy.max_attempts : INFINITY);
        attempts = most;
    } else {
        attempts = s->policy.max_attempts ? s->policy.max_attempts : INFINITY;
    }
    *lo = 4 * requests;
    *hi = 5 * requests * attempts;
}

typedef struct job_cost {
    double cost;
    size_t job;
} job_cost;

static int by_cost_desc(const void *a, const void *b)
{
    const job_cost *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? 1 : -1;
    return (x->job > y->job) - (x->job < y->job);
}

long exp_plan_shard(const exp_plan *plan, uint32_t k, uint32_t n, uint8_t *mine)
{
    job_cost *jc = herd_malloc_array(plan->njobs ? plan->njobs : 1, sizeof *jc);
    double *load = herd_calloc(n, sizeof *load);
    if (!jc || !load) {
        herd_free(jc);
        herd_free(load);
        return -1;
    }
    for (size_t g = 0; g < plan->ngroups; g++) {
        const exp_group *gr = &plan->groups[g];
        const exp_point *p = &plan->points[gr->point];
        double cost = (double)p->spec.clients * p->spec.requests_per_client * p->spec.horizon_s;
        for (uint32_t r = 0; r < p->replications; r++)
            jc[gr->first_job + r] = (job_cost){.cost = cost, .job = gr->first_job + r};
    }
    qsort(jc, plan->njobs, sizeof *jc, by_cost_desc);
    /* a binary min-heap of shards by (load, index): O(log n) per job */
    uint32_t *heap = herd_malloc_array(n, sizeof *heap);
    if (!heap) {
        herd_free(jc);
        herd_free(load);
        return -1;
    }
    for (uint32_t s = 0; s < n; s++)
        heap[s] = s; /* all loads 0: index order is a valid heap */
#define LESS(a, b) (load[a] < load[b] || (load[a] == load[b] && (a) < (b)))
    long count = 0;
    memset(mine, 0, plan->njobs);
    for (size_t i = 0; i < plan->njobs; i++) {
        uint32_t best = heap[0];
        load[best] += jc[i].cost;
        if (best + 1 == k) {
            mine[jc[i].job] = 1;
            count++;
        }
        for (uint32_t at = 0;;) { /* sift the root down */
            uint32_t l = 2 * at + 1, r = l + 1, m = at;
            if (l < n && LESS(heap[l], heap[m]))
                m = l;
            if (r < n && LESS(heap[r], heap[m]))
                m = r;
            if (m == at)
                break;
            uint32_t t = heap[at];
            heap[at] = heap[m];
            heap[m] = t;
            at = m;
        }
    }
#undef LESS
    herd_free(heap);
    herd_free(jc);
    herd_free(load);
    return count;
}

uint64_t exp_plan_fingerprint(const char *manifest)
{
    uint64_t h = 14695981039346656037ULL;
    for (const unsigned char *p = (const unsigned char *)manifest; *p; p++) {
        h ^= *p;
        h *= 1099511628211ULL;
    }
    return h;
}

void exp_plan_free(exp_plan *plan)
{
    if (!plan)
        return;
    for (int i = 0; i < SCN_MAX_SWEEPS; i++)
        herd_free(plan->labels[i]);
    herd_free(plan->points);
    herd_free(plan->groups);
    memset(plan, 0, sizeof *plan);
}

double exp_plan_bytes(const exp_plan *plan)
{
    double b = (double)sizeof *plan + (double)plan->npoints * sizeof *plan->points +
               (double)plan->ngroups * sizeof *plan->groups;
    for (int i = 0; i < SCN_MAX_SWEEPS; i++)
        if (plan->labels[i])
            b += (double)(plan->nlabels[i] > 0 ? plan->nlabels[i] : 1) * sizeof *plan->labels[i];
    return b;
}
