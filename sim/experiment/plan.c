/*
 * plan.c - building the experiment plan (see plan.h).
 */
#include "plan.h"

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
        if (n < 0) {
            if (s->line > 0)
                snprintf(err, errlen, "%s:%d: [sweep%s%s] values: %s", path, s->line, *s->name ? " " : "", s->name,
                         msg);
            else
                snprintf(err, errlen, "--sweep %s=%s: %s", s->key, s->values, msg);
            goto fail;
        }
        plan->nlabels[i] = n;
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
        double need = model_memory_estimate(&pt->spec);
        if (need > plan->max_memory)
            plan->max_memory = need;
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
