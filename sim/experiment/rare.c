/*
 * rare.c - multilevel splitting by replay, and brute force, for the
 * probability that the attempts in flight reach a level (see rare.h).
 *
 * Seeds: every run's streams come from splitmix64 mixes of (master seed,
 * purpose, repetition, level, index) through rng_replication_seed, so the
 * brute force, each repetition and each level draw from disjoint,
 * deterministic families; GSL never sees a 0 seed (rng_stream_seed).
 * Results do not depend on --jobs: each run writes only its own slot.
 */
#define _GNU_SOURCE
#include "rare.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "../base/alloc.h"
#include "../base/text.h"
#include "../engine/sim.h"
#include "experiment.h"
#include "../model/model.h"
#include "../report/csv.h"
#include "../report/report.h"

/* Seed families (xor-ed into the master seed). */
enum { FAM_BRUTE = 0x62, FAM_ROOT = 0x72, FAM_BRANCH = 0x73, FAM_PICK = 0x70 };

static uint64_t seed_of(uint64_t master, int fam, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t s = rng_replication_seed(master ^ ((uint64_t)fam << 56), (uint32_t)a);
    s = rng_replication_seed(s ^ (b << 32), (uint32_t)(b >> 32) ^ (uint32_t)c);
    return rng_replication_seed(s, (uint32_t)(c >> 32) ^ (uint32_t)b);
}

/* ---- one run ------------------------------------------------------- */

typedef struct replay {
    const model_spec *spec;
    hp_strategy strategy;
    const uint32_t *levels;
} replay;

/* Replays the trajectory of `path` (len >= 1 seeds: the root's, then the
 * one given at each level crossed) and continues it to levels[len - 1]:
 * 1 if reached, 0 if not, -1 on failure (out of memory), -2 if the replay
 * did not reach a level it had reached before (never, for a deterministic
 * simulation).  With final_inflight, the run then goes on to the horizon
 * and the attempts in flight there are stored. */
static int run_path(const replay *rp, const uint64_t *path, uint32_t len, uint32_t *final_inflight)
{
    sim_t sim;
    model md;
    memset(&md, 0, sizeof md);
    int rc = -1;
    bool hit = false;
    if (sim_init(&sim, path[0], (size_t)rp->spec->clients * 2 + 64) != 0)
        return -1;
    if (model_init(&md, rp->spec, scn_data(), rp->strategy, &sim) != 0)
        goto done;
    for (uint32_t j = 1; j < len; j++) {
        if (model_advance(&md, rp->levels[j - 1], &hit) != 0)
            goto done;
        if (!hit) {
            rc = -2;
            goto done;
        }
        model_reseed(&md, path[j]);
    }
    if (model_advance(&md, rp->levels[len - 1], &hit) != 0)
        goto done;
    rc = hit;
    if (final_inflight && hit) {
        if (model_advance(&md, 0, &hit) != 0) {
            rc = -1;
            goto done;
        }
        *final_inflight = model_inflight(&md);
    }
done:
    model_free(&md);
    sim_free(&sim);
    return rc;
}

/* ---- a small pool: n independent runs on `jobs` threads ------------- */

typedef struct pool {
    int (*fn)(void *ctx, size_t i);
    void *ctx;
    size_t n;
    atomic_size_t next;
    atomic_int failed; /* the first failure's code (-1, -2) */
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n || atomic_load(&p->failed))
            return NULL;
        int rc = p->fn(p->ctx, i);
        if (rc < 0) {
            int zero = 0;
            atomic_compare_exchange_strong(&p->failed, &zero, rc);
        }
    }
}

static int parallel(int jobs, size_t n, int (*fn)(void *, size_t), void *ctx)
{
    pool p = {.fn = fn, .ctx = ctx, .n = n};
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, 0);
    pthread_t th[64];
    int started = 0;
    for (int t = 1; t < jobs && t < 64 && (size_t)t < n; t++)
        if (pthread_create(&th[started], NULL, worker, &p) == 0)
            started++;
    worker(&p);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    return atomic_load(&p.failed);
}

/* ---- brute force ---------------------------------------------------- */

typedef struct brute_ctx {
    const replay *rp;
    uint64_t master;
    uint8_t *hit;
    uint32_t *final;
} brute_ctx;

static int brute_one(void *ctx, size_t i)
{
    brute_ctx *b = ctx;
    uint64_t s = seed_of(b->master, FAM_BRUTE, i, 0, 0);
    int rc = run_path(b->rp, &s, 1, &b->final[i]);
    if (rc < 0)
        return rc;
    b->hit[i] = (uint8_t)rc;
    return 0;
}

/* ---- splitting ------------------------------------------------------ */

typedef struct level_ctx {
    const replay *rp;
    uint32_t len;          /* path length of this level's runs */
    const uint64_t *paths; /* effort x len seeds */
    uint8_t *hit;
} level_ctx;

static int level_one(void *ctx, size_t i)
{
    level_ctx *l = ctx;
    int rc = run_path(l->rp, &l->paths[i * l->len], l->len, NULL);
    if (rc < 0)
        return rc;
    l->hit[i] = (uint8_t)rc;
    return 0;
}

/* One repetition: fills hits[k] (runs that reached levels[k] of effort)
 * and returns the product estimate in *est.  0 or the failure code. */
static int split_once(const replay *rp, const rare_options *o, uint64_t master, uint32_t rep, uint64_t *hits,
                      double *est)
{
    uint32_t m = o->nlevels, n = o->effort;
    uint64_t *paths = herd_malloc_array((size_t)n * m, sizeof *paths);
    uint64_t *entr = herd_malloc_array((size_t)n * m, sizeof *entr);
    uint8_t *hit = herd_malloc_array(n, 1);
    gsl_rng *pick = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = -1;
    if (!paths || !entr || !hit || !pick)
        goto done;
    *est = 1;
    for (uint32_t k = 0; k < m; k++)
        hits[k] = 0;
    uint64_t nentr = 0;
    for (uint32_t k = 0; k < m; k++) {
        uint32_t len = k + 1;
        /* the runs of level k: roots, or continuations of entrance states
         * (paths of length k) drawn uniformly with replacement */
        gsl_rng_set(pick, rng_stream_seed(seed_of(master, FAM_PICK, rep, k, 0), RNG_BACKOFF));
        for (uint32_t i = 0; i < n; i++) {
            uint64_t *p = &paths[(size_t)i * len];
            if (k > 0) {
                uint64_t j = gsl_rng_uniform_int(pick, nentr);
                memcpy(p, &entr[j * k], k * sizeof *p);
            }
            p[k] = seed_of(master, k ? FAM_BRANCH : FAM_ROOT, rep, k, i);
        }
        level_ctx lc = {.rp = rp, .len = len, .paths = paths, .hit = hit};
        if ((rc = parallel(o->jobs, n, level_one, &lc)) != 0)
            goto done;
        nentr = 0;
        for (uint32_t i = 0; i < n; i++)
            if (hit[i])
                memcpy(&entr[nentr++ * len], &paths[(size_t)i * len], len * sizeof *entr);
        hits[k] = nentr;
        *est *= (double)nentr / n;
        if (!nentr) {
            *est = 0;
            break;
        }
    }
    rc = 0;
done:
    herd_free(paths);
    herd_free(entr);
    herd_free(hit);
    if (pick)
        gsl_rng_free(pick);
    return rc;
}

/* ---- the command ---------------------------------------------------- */

/* Exact (Clopper-Pearson) 95% interval of a binomial proportion. */
static void clopper_pearson(uint64_t x, uint64_t n, double *lo, double *hi)
{
    *lo = x == 0 ? 0 : gsl_cdf_beta_Pinv(0.025, (double)x, (double)(n - x + 1));
    *hi = x == n ? 1 : gsl_cdf_beta_Pinv(0.975, (double)(x + 1), (double)(n - x));
}

static int check_input(const scn_config *cfg, const model_spec *spec, const rare_options *o, char *err,
                       size_t errlen)
{
    if (cfg->nvariants || cfg->nsweeps) {
        snprintf(err, errlen, "rare: the scenario has %s; expected one operating point (remove them, or "
                 "fix the values with --set)", cfg->nvariants ? "[variant] sections" : "sweeps");
        return -2;
    }
    hp_strategy st[HP_STRATEGY_COUNT];
    if (scn_strategies(cfg, st) != 1) {
        snprintf(err, errlen, "rare: the scenario compares several strategies; expected one "
                 "(e.g. --set run.strategies=full_jitter)");
        return -2;
    }
    if (spec->kind != SPEC_SERVER_QUEUE) {
        snprintf(err, errlen, "rare: [server] kind = occ has no queue to measure; expected kind = queue");
        return -2;
    }
    uint64_t cap = (uint64_t)spec->workers + spec->queue;
    if (o->levels[o->nlevels - 1] > cap) {
        snprintf(err, errlen, "rare: --levels: the last level %u is above what the server holds (%llu = workers "
                 "+ queue): it can never be reached", o->levels[o->nlevels - 1], (unsigned long long)cap);
        return -2;
    }
    if (!o->effort && !o->brute) {
        snprintf(err, errlen, "rare: nothing to do; expected --effort N (splitting) and/or --brute N");
        return -2;
    }
    return 0;
}

int rare_run(const scn_config *cfg, const char *shown, const rare_options *o, char *err, size_t errlen)
{
    model_spec *spec = herd_malloc_array(1, sizeof *spec);
    if (!spec) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    scn_compile(cfg, spec);
    int rc = check_input(cfg, spec, o, err, errlen);
    if (rc != 0 || (rc = rep_check_outdir(o->outdir, err, errlen)) != 0) {
        herd_free(spec);
        return rc;
    }
    hp_strategy st[HP_STRATEGY_COUNT];
    scn_strategies(cfg, st);
    replay rp = {.spec = spec, .strategy = st[0], .levels = o->levels};
    uint32_t m = o->nlevels, K = o->levels[m - 1];
    uint64_t master = cfg->seed;
    csv_out out[2];
    memset(out, 0, sizeof out);
    uint64_t *hits = herd_calloc((size_t)(o->repeats ? o->repeats : 1) * m, sizeof *hits);
    double *est = herd_calloc(o->repeats ? o->repeats : 1, sizeof *est);
    uint8_t *bhit = o->brute ? herd_calloc((size_t)o->brute, 1) : NULL;
    uint32_t *bfinal = o->brute ? herd_calloc((size_t)o->brute, sizeof *bfinal) : NULL;
    rc = -1;
    if (!hits || !est || (o->brute && (!bhit || !bfinal))) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    double t_split = 0, t_brute = 0, t0;
    if (o->effort) {
        t0 = exp_wall_seconds();
        for (uint32_t r = 0; r < o->repeats; r++) {
            int f = split_once(&rp, o, master, r, &hits[(size_t)r * m], &est[r]);
            if (f != 0) {
                snprintf(err, errlen, f == -2 ? "rare: a replay did not reach a level it had reached (the "
                                                "simulation is not deterministic)"
                                              : "rare: out of memory");
                goto done;
            }
        }
        t_split = exp_wall_seconds() - t0;
    }
    uint64_t bh = 0, still = 0;
    if (o->brute) {
        t0 = exp_wall_seconds();
        replay to_k = rp; /* one level: K */
        to_k.levels = &o->levels[m - 1];
        brute_ctx bc = {.rp = &to_k, .master = master, .hit = bhit, .final = bfinal};
        if (parallel(o->jobs, (size_t)o->brute, brute_one, &bc) != 0) {
            snprintf(err, errlen, "rare: out of memory");
            goto done;
        }
        for (uint64_t i = 0; i < o->brute; i++) {
            bh += bhit[i];
            still += bhit[i] && bfinal[i] >= K / 2;
        }
        t_brute = exp_wall_seconds() - t0;
    }

    /* rare.csv: per repetition and level; rare-summary.csv: the estimates */
    if (csv_mkdirs(o->outdir, err, errlen) != 0 || csv_open(&out[0], o->outdir, "rare.csv", err, errlen) != 0 ||
        csv_open(&out[1], o->outdir, "rare-summary.csv", err, errlen) != 0)
        goto done;
    static const char *const cols[] = {"repeat", "level", "effort", "hits", "p_cond", "p_cum"};
    for (size_t c = 0; c < 6; c++)
        csv_str(&out[0], cols[c], c == 0);
    csv_end(&out[0]);
    for (uint32_t r = 0; o->effort && r < o->repeats; r++) {
        double cum = 1;
        for (uint32_t k = 0; k < m; k++) {
            uint64_t h = hits[(size_t)r * m + k];
            if (k > 0 && hits[(size_t)r * m + k - 1] == 0)
                break; /* the repetition ended at the level before */
            cum *= (double)h / o->effort;
            csv_u64(&out[0], r, 1);
            csv_u64(&out[0], o->levels[k], 0);
            csv_u64(&out[0], o->effort, 0);
            csv_u64(&out[0], h, 0);
            csv_dbl(&out[0], (double)h / o->effort, 0);
            csv_dbl(&out[0], cum, 0);
            csv_end(&out[0]);
        }
    }
    static const char *const scols[] = {"method", "level", "runs", "hits", "estimate", "ci95_lo", "ci95_hi",
                                        "interval", "hits_collapsed_at_horizon", "seconds"};
    for (size_t c = 0; c < 10; c++)
        csv_str(&out[1], scols[c], c == 0);
    csv_end(&out[1]);
    double mean = NAN, lo = NAN, hi = NAN;
    if (o->effort) {
        mean = gsl_stats_mean(est, 1, o->repeats);
        if (o->repeats > 1) {
            double h = gsl_cdf_tdist_Pinv(0.975, o->repeats - 1) * gsl_stats_sd(est, 1, o->repeats) /
                       sqrt((double)o->repeats);
            lo = fmax(0, mean - h);
            hi = mean + h;
        }
        csv_str(&out[1], "splitting", 1);
        csv_u64(&out[1], K, 0);
        csv_u64(&out[1], (uint64_t)o->effort * m * o->repeats, 0);
        csv_str(&out[1], "", 0);
        csv_dbl(&out[1], mean, 0);
        csv_dbl(&out[1], lo, 0);
        csv_dbl(&out[1], hi, 0);
        csv_str(&out[1], "student_t_over_repeats", 0);
        csv_str(&out[1], "", 0);
        csv_dbl(&out[1], t_split, 0);
        csv_end(&out[1]);
    }
    double blo = NAN, bhi = NAN;
    if (o->brute) {
        clopper_pearson(bh, o->brute, &blo, &bhi);
        csv_str(&out[1], "brute_force", 1);
        csv_u64(&out[1], K, 0);
        csv_u64(&out[1], o->brute, 0);
        csv_u64(&out[1], bh, 0);
        csv_dbl(&out[1], (double)bh / (double)o->brute, 0);
        csv_dbl(&out[1], blo, 0);
        csv_dbl(&out[1], bhi, 0);
        csv_str(&out[1], "clopper_pearson", 0);
        csv_u64(&out[1], still, 0);
        csv_dbl(&out[1], t_brute, 0);
        csv_end(&out[1]);
    }
    if (csv_finish(&out[0], err, errlen) != 0 || csv_finish(&out[1], err, errlen) != 0)
        goto done;
    csv_pub pub;
    if (csv_publish_begin(&pub, o->outdir, err, errlen) != 0)
        goto done;
    int bad = csv_publish(&out[0], err, errlen) != 0 || csv_publish(&out[1], err, errlen) != 0;
    csv_publish_end(&pub);
    if (bad)
        goto done;
    if (!o->quiet) {
        printf("%s: P(in flight reaches %u before t = %g s)\n", shown, K, spec->horizon_s);
        if (o->effort)
            printf("  splitting    %.4g  95%% CI [%.4g, %.4g]  (%u levels x %u runs x %u repeats, %.1f s)\n", mean,
                   lo, hi, m, o->effort, o->repeats, t_split);
        if (o->brute)
            printf("  brute force  %.4g  95%% CI [%.4g, %.4g]  (%llu of %llu runs, exact; %llu still at >= %u "
                   "at the horizon; %.1f s)\n",
                   (double)bh / (double)o->brute, blo, bhi, (unsigned long long)bh, (unsigned long long)o->brute,
                   (unsigned long long)still, K / 2, t_brute);
        char od[4 * 4096];
        text_visible(o->outdir, od, sizeof od);
        printf("wrote %s/rare.csv, %s/rare-summary.csv\n", od, od);
    }
    rc = 0;
done:
    csv_abort(&out[0]);
    csv_abort(&out[1]);
    herd_free(hits);
    herd_free(est);
    herd_free(bhit);
    herd_free(bfinal);
    herd_free(spec);
    return rc;
}
