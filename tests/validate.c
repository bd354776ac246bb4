/*
 * validate.c - herd's engine and model against queueing theory and the
 * retry process's exact distributions.
 *
 *   build/tests/validate          the full table (make validate)
 *   build/tests/validate --quick  a fast subset (make test)
 *
 * Queues: open Poisson arrivals (start = poisson, one request per client),
 * no network delay, no retries, an unbounded FIFO: M/M/1 and M/M/c (Erlang
 * C) and M/D/1 (Pollaczek-Khinchine) at loads 0.5, 0.8 and 0.95.  Each
 * quantity is a mean over R independent replications (each of N arrivals,
 * the first `warm-up` seconds discarded) with a Student-t interval.  The
 * table prints the 95% CI; a row passes when the family-wise interval
 * contains the theoretical value: with K rows in the table each row uses
 * level 1 - 0.05 / K (Bonferroni), so the whole table passes with
 * probability at least 95% when herd is right.  The seed is fixed, so the
 * verdict is reproducible; tolerances are never tuned.
 *
 * Retries: with no contention and each attempt failing independently with
 * probability p, the attempts per logical request follow a truncated
 * geometric distribution (chi-square goodness of fit), and the first
 * backoff sleep drawn inside the simulator follows its strategy's
 * distribution (Kolmogorov-Smirnov).  Both are recovered from the request
 * latencies, which constant delays make an exact function of the attempt
 * count and the sleeps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "../sim/base/alloc.h"
#include "../sim/engine/sim.h"
#include "../sim/model/model.h"
#include "../sim/scenario/scenario.h"

static int failures, rows;

static void set(scn_config *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void set(scn_config *c, const char *fmt, ...)
{
    char kv[256], err[SCN_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(kv, sizeof kv, fmt, ap);
    va_end(ap);
    if (scn_set(c, kv, "validate", err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
}

/* Frees a model made by run() and its spec. */
static void release(model *md)
{
    model_spec *spec = (model_spec *)md->spec;
    model_free(md);
    herd_free(spec);
}

/* Runs one replication; on return md holds the run (caller frees with
 * release). */
static void run(const scn_config *c, hp_strategy s, uint32_t rep, sim_t *sim, model *md)
{
    char err[SCN_ERR_MAX];
    if (scn_validate(c, "validate", err) != 0) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    /* the model keeps a pointer to its spec: one per model, kept until the
     * caller frees it */
    model_spec *spec = herd_malloc_array(1, sizeof *spec);
    if (!spec) {
        fprintf(stderr, "validate: out of memory\n");
        exit(1);
    }
    scn_compile(c, spec);
    if (sim_init(sim, rng_replication_seed(c->seed, rep), 64) != 0 || model_init(md, spec, s, sim) != 0 ||
        model_run(md) != 0) {
        fprintf(stderr, "validate: out of memory\n");
        exit(1);
    }
}

/* Erlang C: probability that an arrival waits in M/M/c with offered load
 * a = lambda / mu (a < c). */
static double erlang_c(int c, double a)
{
    double term = 1, sum = 1; /* k = 0 */
    for (int k = 1; k < c; k++) {
        term *= a / k;
        sum += term;
    }
    term *= a / c; /* a^c / c! */
    double last = term * c / (c - a);
    return last / (sum + last);
}

typedef struct qcase {
    const char *name;
    int servers;
    int deterministic;
    double rho;
} qcase;

static void row(const char *name, double rho, const char *quantity, double theory, const double *x, int n,
                int family)
{
    double mean = gsl_stats_mean(x, 1, (size_t)n);
    double sd = gsl_stats_sd_m(x, 1, (size_t)n, mean);
    double se = sd / sqrt((double)n);
    double h95 = gsl_cdf_tdist_Pinv(0.975, n - 1) * se;
    double hfw = gsl_cdf_tdist_Pinv(1 - 0.025 / family, n - 1) * se;
    int ok = fabs(mean - theory) <= hfw;
    rows++;
    failures += !ok;
    printf("%-8s %5.2f  %-16s %12.6f %12.6f  +/- %-10.6f %-10.6f %s\n", name, rho, quantity, theory, mean, h95,
           hfw, ok ? "pass" : "FAIL");
}

static void queues(int quick, int family)
{
    static const qcase all[] = {
        {"M/M/1", 1, 0, 0.5}, {"M/M/1", 1, 0, 0.8}, {"M/M/1", 1, 0, 0.95},
        {"M/M/4", 4, 0, 0.5}, {"M/M/4", 4, 0, 0.8}, {"M/M/4", 4, 0, 0.95},
        {"M/D/1", 1, 1, 0.5}, {"M/D/1", 1, 1, 0.8}, {"M/D/1", 1, 1, 0.95},
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const qcase *q = &all[i];
        if (quick && q->rho > 0.85)
            continue;
        /* Longer runs at heavy load, where the sampling variance grows as
         * 1 / (1 - rho)^4 and the relaxation time as 1 / (1 - sqrt rho)^2. */
        int n = quick ? 60000 : q->rho > 0.9 ? 1000000 : q->rho > 0.7 ? 400000 : 200000;
        int reps = quick ? 10 : 20;
        double mu = 1.0, lambda = q->rho * q->servers * mu;
        double warmup = q->rho > 0.9 ? 20000 : 2000;
        if (quick)
            warmup = 1000;
        scn_config c;
        scn_defaults(&c);
        set(&c, "run.seed=%d", 20261129);
        set(&c, "run.horizon_s=1e9");
        set(&c, "run.warmup_s=%g", warmup);
        set(&c, "run.bucket_s=1e6");
        set(&c, "clients.count=%d", n);
        set(&c, "clients.start=poisson");
        set(&c, "clients.rate_per_s=%.17g", lambda);
        set(&c, "network.delay_s=0");
        set(&c, "server.workers=%d", q->servers);
        set(&c, "server.queue=100000000");
        set(&c, q->deterministic ? "server.service_time_s=constant(%g)" : "server.service_time_s=exponential(%g)",
            1 / mu);
        set(&c, "retry.max_attempts=1");

        double W[32], Wq[32], U[32], Pw[32];
        for (int r = 0; r < reps; r++) {
            sim_t sim;
            model md;
            run(&c, HP_IMMEDIATE, (uint32_t)r, &sim, &md);
            W[r] = md.m.mean_latency_s;
            Wq[r] = md.m.mean_wait_s;
            U[r] = md.m.utilization;
            Pw[r] = md.m.p_wait;
            release(&md);
            sim_free(&sim);
        }
        double wq, pw;
        if (q->deterministic) { /* Pollaczek-Khinchine, constant service */
            wq = q->rho / (2 * mu * (1 - q->rho));
            pw = q->rho;
        } else {
            pw = erlang_c(q->servers, lambda / mu);
            wq = pw / (q->servers * mu - lambda);
        }
        row(q->name, q->rho, "mean response", wq + 1 / mu, W, reps, family);
        row(q->name, q->rho, "mean wait", wq, Wq, reps, family);
        row(q->name, q->rho, "utilisation", q->rho, U, reps, family);
        row(q->name, q->rho, "P(wait)", pw, Pw, reps, family);
    }
}

/* No contention, each attempt answered 503 at once with probability p,
 * else served in 0.1 s; constant strategy (sleep b), 1 ms hops, at most K
 * attempts.  A request with k attempts took k * 2 ms + (k - 1) * b
 * (+ 0.1 s if the last succeeded): k is read off its latency. */
static void attempts_chi_square(int quick, int family)
{
    const double p = 0.3, b = 0.01, d = 0.001, s = 0.1;
    const int K = 5, n = quick ? 20000 : 200000;
    scn_config c;
    scn_defaults(&c);
    set(&c, "run.seed=%d", 7);
    set(&c, "clients.count=%d", n);
    set(&c, "clients.start=spread");
    set(&c, "clients.spread_s=100");
    set(&c, "network.delay_s=constant(%g)", d);
    set(&c, "server.workers=100000");
    set(&c, "server.service_time_s=constant(%g)", s);
    set(&c, "server.error_rate_503=%g", p);
    set(&c, "retry.strategy=constant");
    set(&c, "retry.base_s=%g", b);
    set(&c, "retry.max_attempts=%d", K);
    sim_t sim;
    model md;
    run(&c, HP_CONSTANT, 0, &sim, &md);
    double count[8] = {0};
    for (uint64_t i = 0; i < md.nlatency; i++) {
        double x = md.latency[i];
        int k;
        if (fabs(x - (K * 2 * d + (K - 1) * b)) < 1e-6)
            k = K; /* every attempt failed */
        else
            k = (int)lround((x - 2 * d - s) / (2 * d + b)) + 1; /* the k-th succeeded */
        if (k < 1 || k > K || fabs(x - ((k - 1) * (2 * d + b) + 2 * d + s)) > 1e-6 * (k == K ? 1e9 : 1)) {
            fprintf(stderr, "validate: latency %.9g does not decode\n", x);
            exit(1);
        }
        count[k]++;
    }
    double chi2 = 0;
    printf("\nattempts per request, p = %.2f, K = %d, %d requests (truncated geometric)\n", p, K, n);
    printf("  k   expected     observed\n");
    for (int k = 1; k <= K; k++) {
        double pk = k < K ? pow(p, k - 1) * (1 - p) : pow(p, K - 1);
        double e = pk * (double)md.nlatency;
        chi2 += (count[k] - e) * (count[k] - e) / e;
        printf("  %d %10.1f %12.0f\n", k, e, count[k]);
    }
    double pval = gsl_cdf_chisq_Q(chi2, K - 1);
    int ok = pval > 0.05 / family;
    rows++;
    failures += !ok;
    printf("  chi-square %.3f, %d degrees of freedom, p-value %.4f: %s\n", chi2, K - 1, pval, ok ? "pass" : "FAIL");
    release(&md);
    sim_free(&sim);
}

/* Every attempt answered 503 at once, two attempts, 1 ms hops: the first
 * sleep is latency - 4 ms.  KS against its distribution. */
static double cdf_u(double x, double lo, double hi)
{
    return x <= lo ? 0 : x >= hi ? 1 : (x - lo) / (hi - lo);
}

static void backoff_ks(int quick, int family)
{
    const double base = 0.5, cap = 10, d = 0.001;
    const int n = quick ? 5000 : 50000;
    printf("\nfirst backoff sleep drawn in the simulator, base %.1f s, %d requests (Kolmogorov-Smirnov)\n", base, n);
    for (int s = 0; s < HP_STRATEGY_COUNT; s++) {
        scn_config c;
        scn_defaults(&c);
        set(&c, "run.seed=%d", 11);
        set(&c, "clients.count=%d", n);
        set(&c, "network.delay_s=constant(%g)", d);
        set(&c, "server.workers=100000");
        set(&c, "server.error_rate_503=1");
        set(&c, "retry.base_s=%g", base);
        set(&c, "retry.cap_s=%g", cap);
        set(&c, "retry.max_attempts=2");
        sim_t sim;
        model md;
        run(&c, (hp_strategy)s, 0, &sim, &md);
        double *x = md.latency;
        size_t m = (size_t)md.nlatency;
        for (size_t i = 0; i < m; i++)
            x[i] -= 4 * d;
        gsl_sort(x, 1, m);
        double lo, hi;
        switch ((hp_strategy)s) {
        case HP_FULL_JITTER: lo = 0; hi = base; break;
        case HP_EQUAL_JITTER: lo = base / 2; hi = base; break;
        case HP_DECORRELATED_JITTER: lo = base; hi = 3 * base; break;
        case HP_IMMEDIATE: lo = hi = 0; break;
        default: lo = hi = base; break; /* constant, exponential: exactly base */
        }
        int ok;
        char what[96];
        if (lo == hi) {
            ok = fabs(x[0] - lo) < 1e-9 && fabs(x[m - 1] - lo) < 1e-9;
            snprintf(what, sizeof what, "all sleeps = %g s: min %.9g, max %.9g", lo, x[0], x[m - 1]);
        } else {
            double D = 0;
            for (size_t i = 0; i < m; i++) {
                double F = cdf_u(x[i], lo, hi);
                double a = fabs(F - (double)i / m), b = fabs((double)(i + 1) / m - F);
                D = fmax(D, fmax(a, b));
            }
            /* asymptotic critical value at level alpha: sqrt(-ln(alpha/2)/2) / sqrt(n) */
            double alpha = 0.05 / family, crit = sqrt(-log(alpha / 2) / 2) / sqrt((double)m);
            ok = D <= crit;
            snprintf(what, sizeof what, "U(%g, %g): D = %.5f, critical %.5f", lo, hi, D, crit);
        }
        rows++;
        failures += !ok;
        printf("  %-20s %-52s %s\n", hp_strategy_name((hp_strategy)s), what, ok ? "pass" : "FAIL");
        release(&md);
        sim_free(&sim);
    }
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    /* rows in the whole table: the family for the Bonferroni level */
    int family = quick ? 6 * 4 + 1 + HP_STRATEGY_COUNT : 9 * 4 + 1 + HP_STRATEGY_COUNT;
    printf("herd validation%s: family-wise level 95%% over %d checks (each at %.4f%%)\n\n", quick ? " (quick)" : "",
           family, 100 * (1 - 0.05 / family));
    printf("%-8s %5s  %-16s %12s %12s  %-14s %-10s %s\n", "model", "load", "quantity", "theory", "simulated",
           "95% CI", "FW CI", "verdict");
    queues(quick, family);
    attempts_chi_square(quick, family);
    backoff_ks(quick, family);
    printf("\nvalidate: %d passed, %d failed\n", rows - failures, failures);
    return failures ? 1 : 0;
}
