/*
 * validate.c - herd's engine and model against queueing theory and the
 * retry process's exact distributions.
 *
 *   build/tests/validate          the full table (make validate)
 *   build/tests/validate --quick  a fast subset (make test)
 *
 * Queues: open Poisson arrivals (start = poisson, one request per client),
 * no network delay, no retries, an unbounded FIFO: M/M/1 and M/M/c (Erlang
 * C) and M/D/1 (Pollaczek-Khinchine) at loads 0.5, 0.8 and 0.95; and the
 * same M/M/1 and M/M/4 served LIFO (mean wait and its second moment, see
 * lifo_queues) at loads 0.5 and 0.8; and M/M/c/L, a fixed concurrency
 * limit (limit_queues), for five (load, c, L).  Each
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
 *
 * Data: service times drawn inside the simulator (latency minus the two
 * constant hops) from pareto, weibull, gamma, a mixture and an empirical
 * histogram (Kolmogorov-Smirnov against the CDF computed here with GSL's
 * CDFs or by hand) and from empirical samples (chi-square over the
 * observed values); the arrivals of a trace per bucket against the
 * integrated rate (chi-square over buckets and replications: Poisson
 * counts); and a saturated server whose capacity timeline halves its
 * workers (throughput after / before = 0.5).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
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

/* A queue fed by n Poisson arrivals at lambda per second with one attempt
 * each, no network, on `workers` workers; the first warmup seconds left
 * out.  The caller sets the queue, its discipline and the service. */
static void poisson_queue(scn_config *c, int seed, double warmup, int n, double lambda, int workers)
{
    scn_defaults(c);
    set(c, "run.seed=%d", seed);
    set(c, "run.horizon_s=1e9");
    set(c, "run.warmup_s=%g", warmup);
    set(c, "run.bucket_s=1e6");
    set(c, "clients.count=%d", n);
    set(c, "clients.start=poisson");
    set(c, "clients.rate_per_s=%.17g", lambda);
    set(c, "network.delay_s=0");
    set(c, "server.workers=%d", workers);
}

/* Frees a model made by run() and its spec. */
static void release(model *md)
{
    model_spec *spec = (model_spec *)md->given;
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
    if (sim_init(sim, rng_replication_seed(c->seed, rep), 64) != 0 || model_init(md, spec, scn_data(), s, sim) != 0 ||
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
        poisson_queue(&c, 20261129, warmup, n, lambda, q->servers);
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

/* LIFO (non-preemptive, [server] queue_discipline = lifo) in M/M/1 and
 * M/M/c.  The order does not change the number waiting, so the mean wait
 * is FIFO's, Erlang C / (c mu - lambda).  A LIFO arrival that waits waits
 * for a busy period of the all-servers-busy state, which is an M/M/1
 * busy period at rate c mu started by one service: second moment
 * 2 / ((c mu)^2 (1 - rho)^3), rho = lambda / (c mu).  With FIFO's
 * E[W^2] = 2 C / (c mu - lambda)^2 this is
 *     E[W^2]_LIFO = E[W^2]_FIFO / (1 - rho)
 * (Kleinrock, Queueing Systems vol. 2, 1976, ch. 3 on LCFS; Abate and
 * Whitt, Oper. Res. Letters 20 (1997) 199-206 for the LIFO moments).
 * The sample second moment's variance grows as 1 / (1 - rho)^7, so the
 * rows stop at rho = 0.8. */
static void lifo_queues(int quick, int family)
{
    static const qcase all[] = {{"M/M/1", 1, 0, 0.5}, {"M/M/1", 1, 0, 0.8}, {"M/M/4", 4, 0, 0.5}, {"M/M/4", 4, 0, 0.8}};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const qcase *q = &all[i];
        if (quick && q->rho > 0.7)
            continue;
        int n = quick ? 60000 : q->rho > 0.7 ? 600000 : 200000, reps = quick ? 10 : 20;
        double mu = 1.0, lambda = q->rho * q->servers * mu, warmup = quick ? 1000 : 2000;
        scn_config c;
        poisson_queue(&c, 20261201, warmup, n, lambda, q->servers);
        set(&c, "server.queue=100000000");
        set(&c, "server.queue_discipline=lifo");
        set(&c, "server.service_time_s=exponential(%g)", 1 / mu);
        set(&c, "retry.max_attempts=1");
        double Wq[32], W2[32];
        for (int r = 0; r < reps; r++) {
            sim_t sim;
            model md;
            run(&c, HP_IMMEDIATE, (uint32_t)r, &sim, &md);
            Wq[r] = md.m.mean_wait_s;
            W2[r] = md.wait_sq_sum / (double)md.m.served;
            release(&md);
            sim_free(&sim);
        }
        double pw = erlang_c(q->servers, lambda / mu), gap = q->servers * mu - lambda;
        double w2_fifo = 2 * pw / (gap * gap);
        char name[16];
        snprintf(name, sizeof name, "%s LIFO", q->name); /* not Kendall's /L (a capacity) */
        row(name, q->rho, "mean wait", pw / gap, Wq, reps, family);
        row(name, q->rho, "E[W^2]", w2_fifo / (1 - q->rho), W2, reps, family);
    }
}

/* A fixed concurrency limit ([server] concurrency_limiter = fixed,
 * concurrency_limit = L) on c workers with Poisson arrivals and
 * exponential service is the M/M/c/K loss-delay queue with K = L: at most
 * L in the system, an arrival finding L is rejected at once.  With
 * a = lambda / mu (Gross and Harris, Fundamentals of Queueing Theory, 3rd
 * ed., 1998, section 2.5, M/M/c/K):
 *     p_n = p_0 a^n / n!                 0 <= n <= c
 *     p_n = p_0 a^n / (c! c^(n - c))     c <= n <= K
 * the blocking probability is p_K (arrivals see time averages: PASTA),
 * and when L = c it is Erlang B.  The simulated blocking is
 * concurrency_rejected / calls; the mean number in the system is
 * lambda x the mean latency over all requests (Little's law; a rejected
 * request spends 0 s, there being no network delay), so both are means of
 * per-replication estimates, with the rows' Student-t intervals.  The
 * queue is large enough never to reject (rejected must stay 0). */
static void mmck(int c, int K, double a, double *block, double *L)
{
    double p[64], sum = 0;
    p[0] = 1;
    for (int n = 1; n <= K; n++)
        p[n] = p[n - 1] * a / (n <= c ? n : c);
    for (int n = 0; n <= K; n++)
        sum += p[n];
    *L = 0;
    for (int n = 0; n <= K; n++)
        *L += n * p[n] / sum;
    *block = p[K] / sum;
}

static void limit_queues(int quick, int family)
{
    typedef struct { int c, L; double rho; } lcase;
    static const lcase all[] = {{1, 1, 0.8}, {4, 4, 0.7}, {4, 8, 0.9}, {2, 5, 1.2}, {8, 12, 0.6}};
    printf("\nfixed concurrency limit L on c workers: M/M/c/L (Gross and Harris, section 2.5; L = c: Erlang B)\n");
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const lcase *q = &all[i];
        if (quick && i >= 2)
            continue;
        int n = quick ? 40000 : 200000, reps = quick ? 10 : 20;
        double mu = 1.0, lambda = q->rho * q->c * mu, warmup = quick ? 200 : 1000;
        scn_config c;
        poisson_queue(&c, 20261202, warmup, n, lambda, q->c);
        set(&c, "server.queue=%d", q->L);
        set(&c, "server.concurrency_limiter=fixed");
        set(&c, "server.concurrency_limit=%d", q->L);
        set(&c, "server.service_time_s=exponential(%g)", 1 / mu);
        set(&c, "retry.max_attempts=1");
        double B[32], N[32];
        for (int r = 0; r < reps; r++) {
            sim_t sim;
            model md;
            run(&c, HP_IMMEDIATE, (uint32_t)r, &sim, &md);
            if (md.m.rejected) {
                fprintf(stderr, "validate: M/M/%d/%d: the queue rejected %llu attempts\n", q->c, q->L,
                        (unsigned long long)md.m.rejected);
                exit(1);
            }
            B[r] = (double)md.m.concurrency_rejected / (double)md.m.calls;
            N[r] = lambda * md.m.mean_latency_s;
            release(&md);
            sim_free(&sim);
        }
        double block, L;
        mmck(q->c, q->L, lambda / mu, &block, &L);
        char name[32];
        snprintf(name, sizeof name, "lim %d/%d", q->c, q->L); /* M/M/c/L (retrials' rows are M/M/c/c) */
        row(name, q->rho, "P(block)", block, B, reps, family);
        row(name, q->rho, "mean in system", L, N, reps, family);
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

/* ---- retrial queues ------------------------------------------------

   A retrial queue (Falin and Templeton, Retrial Queues, Chapman & Hall
   1997, ISBN 978-0-412-78550-1; Artalejo and Gomez-Corral, Retrial
   Queueing Systems, Springer 2008, doi:10.1007/978-3-540-78725-9) has no
   waiting room: a customer who finds every server busy joins the "orbit"
   and tries again after an exponential time with rate theta, for as long
   as it takes (the classical policy: each orbiting customer retries on its
   own).  In herd: workers = c, queue = 0 (a full server answers 503 at
   once), zero network delay, strategy random with delay_s =
   exponential(1/theta), unlimited attempts. */

/* Stationary distribution of the M/M/c retrial queue, truncated at orbit
 * size N: pi[n * (c + 1) + j] = P(j busy, n in orbit).  A level-dependent
 * QBD (levels n, phases j) solved by linear level reduction:
 * pi_{n+1} = pi_n R_n with R_n = -A0(n) (A1(n+1) + R_{n+1} A2(n+2))^-1,
 * from the top level down.  Returns the tail mass at level N. */
static double retrial_mmc(int c, double lambda, double mu, double theta, int N, double *pi)
{
    int m = c + 1;
    gsl_matrix *R = gsl_matrix_calloc((size_t)N * m, (size_t)m); /* R_n in rows n*m.. */
    gsl_matrix *A1 = gsl_matrix_alloc(m, m), *A0 = gsl_matrix_alloc(m, m), *A2 = gsl_matrix_alloc(m, m);
    gsl_matrix *M = gsl_matrix_alloc(m, m), *inv = gsl_matrix_alloc(m, m), *T = gsl_matrix_alloc(m, m);
    gsl_permutation *perm = gsl_permutation_alloc(m);
    /* blocks at level n: A0 up (blocked arrival), A1 local, A2 down (a retrial that finds a free server) */
#define BLOCKS(n)                                                                                             \
    do {                                                                                                      \
        gsl_matrix_set_zero(A0);                                                                              \
        gsl_matrix_set_zero(A1);                                                                              \
        gsl_matrix_set_zero(A2);                                                                              \
        for (int j = 0; j <= c; j++) {                                                                        \
            double out = 0;                                                                                   \
            if (j < c) {                                                                                      \
                gsl_matrix_set(A1, j, j + 1, lambda);                                                         \
                out += lambda;                                                                                \
                if ((n) > 0) {                                                                                \
                    gsl_matrix_set(A2, j, j + 1, (n) * theta);                                                \
                    out += (n) * theta;                                                                       \
                }                                                                                             \
            } else if ((n) < N - 1) {                                                                         \
                gsl_matrix_set(A0, j, j, lambda);                                                             \
                out += lambda;                                                                                \
            }                                                                                                 \
            if (j > 0) {                                                                                      \
                gsl_matrix_set(A1, j, j - 1, j * mu);                                                         \
                out += j * mu;                                                                                \
            }                                                                                                 \
            gsl_matrix_set(A1, j, j, -out);                                                                   \
        }                                                                                                     \
    } while (0)
    /* R_{N-2} = -A0(N-2) A1(N-1)^-1, then downwards */
    for (int n = N - 2; n >= 0; n--) {
        BLOCKS(n + 1);
        gsl_matrix_memcpy(M, A1); /* A1(n+1) */
        if (n + 1 < N - 1) {      /* + R_{n+1} A2(n+2) */
            gsl_matrix_view Rn1 = gsl_matrix_submatrix(R, (size_t)(n + 1) * m, 0, m, m);
            BLOCKS(n + 2);
            gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &Rn1.matrix, A2, 0.0, T);
            BLOCKS(n + 1);
            gsl_matrix_memcpy(M, A1);
            gsl_matrix_add(M, T);
        }
        int sg;
        gsl_linalg_LU_decomp(M, perm, &sg);
        gsl_linalg_LU_invert(M, perm, inv);
        BLOCKS(n);
        gsl_matrix_view Rn = gsl_matrix_submatrix(R, (size_t)n * m, 0, m, m);
        gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, -1.0, A0, inv, 0.0, &Rn.matrix);
    }
    /* level 0: pi_0 (A1(0) + R_0 A2(1)) = 0, sum = 1: replace one equation by the normalisation */
    BLOCKS(1);
    gsl_matrix_view R0 = gsl_matrix_submatrix(R, 0, 0, m, m);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &R0.matrix, A2, 0.0, T);
    BLOCKS(0);
    gsl_matrix_memcpy(M, A1);
    gsl_matrix_add(M, T);
    gsl_matrix *Mt = gsl_matrix_alloc(m, m);
    gsl_matrix_transpose_memcpy(Mt, M);
    for (int j = 0; j < m; j++)
        gsl_matrix_set(Mt, 0, j, 1.0); /* the first equation: the level-0 mass is 1 (rescaled below) */
    gsl_vector *rhs = gsl_vector_calloc(m), *x0 = gsl_vector_alloc(m);
    gsl_vector_set(rhs, 0, 1.0);
    int sg;
    gsl_linalg_LU_decomp(Mt, perm, &sg);
    gsl_linalg_LU_solve(Mt, perm, rhs, x0);
    for (int j = 0; j < m; j++)
        pi[j] = gsl_vector_get(x0, j);
    for (int n = 0; n + 1 < N; n++) {
        for (int j = 0; j < m; j++) {
            double v = 0;
            for (int i = 0; i < m; i++)
                v += pi[n * m + i] * gsl_matrix_get(R, (size_t)n * m + i, j);
            pi[(n + 1) * m + j] = v;
        }
    }
    double total = 0, tail = 0;
    for (int k = 0; k < N * m; k++)
        total += pi[k];
    for (int k = 0; k < N * m; k++)
        pi[k] /= total;
    for (int j = 0; j < m; j++)
        tail += pi[(N - 1) * m + j];
#undef BLOCKS
    gsl_matrix_free(R);
    gsl_matrix_free(A0);
    gsl_matrix_free(A1);
    gsl_matrix_free(A2);
    gsl_matrix_free(M);
    gsl_matrix_free(Mt);
    gsl_matrix_free(inv);
    gsl_matrix_free(T);
    gsl_permutation_free(perm);
    gsl_vector_free(rhs);
    gsl_vector_free(x0);
    return tail;
}

/* The solver against the closed forms of the M/M/1 retrial queue (c = 1):
 * P(server busy) = rho, mean orbit rho (rho + lambda/theta) / (1 - rho). */
static void retrial_solver_selftest(void)
{
    const double lambda = 0.6, mu = 1, theta = 0.8;
    const int N = 400;
    double *pi = malloc(sizeof *pi * N * 2);
    double tail = retrial_mmc(1, lambda, mu, theta, N, pi);
    double busy = 0, orbit = 0;
    for (int n = 0; n < N; n++) {
        busy += pi[n * 2 + 1];
        orbit += n * (pi[n * 2] + pi[n * 2 + 1]);
    }
    double rho = lambda / mu, want = rho * (rho + lambda / theta) / (1 - rho);
    int ok = tail < 1e-12 && fabs(busy - rho) < 1e-9 && fabs(orbit - want) < 1e-8;
    rows++;
    failures += !ok;
    printf("  solver self-test (M/M/1 retrial by QBD, N = %d): P(busy) %.12f (%.12f), orbit %.10f (%.10f): %s\n", N,
           busy, rho, orbit, want, ok ? "pass" : "FAIL");
    free(pi);
}

static void retrial_config(scn_config *c, int servers, double lambda, double theta, int n, double warmup)
{
    poisson_queue(c, 1997, warmup, n, lambda, servers);
    set(c, "server.queue=0");
    set(c, "server.service_time_s=exponential(1)");
    set(c, "retry.strategy=random");
    set(c, "retry.delay_s=exponential(%.17g)", 1 / theta);
    set(c, "retry.base_s=1");
    set(c, "retry.cap_s=1e9");
    set(c, "retry.max_attempts=0");
}

static void retrials(int quick, int family, const char *delay_override)
{
    typedef struct { int c; double rho, lt; } rcase; /* lt = lambda / theta */
    static const rcase all[] = {{1, 0.5, 0.5}, {1, 0.7, 2}, {1, 0.9, 1}, {4, 0.7, 1}, {4, 0.85, 2}};
    printf("\nretrial queues (classical policy, exponential retrial times)%s\n", delay_override ? delay_override : "");
    if (!delay_override)
        retrial_solver_selftest();
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const rcase *q = &all[i];
        if (quick && q->rho > 0.8)
            continue;
        double mu = 1, lambda = q->rho * q->c * mu, theta = lambda / q->lt;
        int n = quick ? 40000 : q->rho > 0.8 ? 600000 : 300000, reps = quick ? 8 : 20;
        double warmup = quick ? 2000 : 20000;
        scn_config c;
        retrial_config(&c, q->c, lambda, theta, n, warmup);
        if (delay_override) { /* the same mean, uniform: the formulas assume exponential */
            set(&c, "retry.delay_s=uniform(0, %.17g)", 2 / theta);
        }
        double U[32], W[32], R[32], B[32];
        for (int r = 0; r < reps; r++) {
            sim_t sim;
            model md;
            run(&c, HP_RANDOM, (uint32_t)r, &sim, &md);
            U[r] = md.m.utilization;
            W[r] = md.m.mean_latency_s;
            R[r] = (double)md.m.retries / (double)(md.m.successes ? md.m.successes : 1);
            B[r] = (double)md.m.rejected / (double)(md.m.calls ? md.m.calls : 1);
            release(&md);
            sim_free(&sim);
        }
        /* theory: the M/M/c solution (closed form for c = 1, the QBD otherwise) */
        const int N = 3000;
        double *pi = malloc(sizeof *pi * (size_t)N * (q->c + 1));
        double tail = retrial_mmc(q->c, lambda, mu, theta, N, pi);
        double busy = 0, orbit = 0, blocked_attempts = 0;
        for (int k = 0; k < N; k++)
            for (int j = 0; j <= q->c; j++) {
                double p = pi[k * (q->c + 1) + j];
                busy += j * p;
                orbit += k * p;
                if (j == q->c)
                    blocked_attempts += p * (lambda + k * theta);
            }
        free(pi);
        if (tail > 1e-9) {
            fprintf(stderr, "validate: retrial solver truncated too early (tail %g)\n", tail);
            exit(1);
        }
        double attempts = lambda + theta * orbit; /* attempt rate: arrivals + retrials */
        double w = orbit / lambda + 1 / mu;        /* Little */
        char name[32];
        snprintf(name, sizeof name, "M/M/%d/%d", q->c, q->c);
        printf("  %s, rho %.2f, lambda/theta %.1f: mean orbit %.4f\n", name, q->rho, q->lt, orbit);
        row(name, q->rho, "utilisation", busy / q->c, U, reps, family);
        row(name, q->rho, "mean response", w, W, reps, family);
        row(name, q->rho, "retries/request", theta * orbit / lambda, R, reps, family);
        row(name, q->rho, "P(attempt blk)", blocked_attempts / attempts, B, reps, family);
    }
}

/* A finite source: N clients each think for Exp(alpha), then make a
 * request to c servers with no waiting room, retrying from the orbit after
 * Exp(theta).  Its exact Markov chain (states: j busy, n in orbit; N - j - n
 * thinking) is small: solved directly (LU), and compared with herd's
 * closed population (requests_per_client requests each, think_time_s
 * between them). */
static void retrial_finite(int quick, int family)
{
    /* every client stays busy until the horizon (R is never reached), so
     * the measured window [warmup, horizon] sees all N clients, none
     * finished: a population that thins out at the end would bias it */
    const int N = 6, c = 2, R = 1000000, reps = quick ? 8 : 20;
    const double alpha = 0.25, mu = 1, theta = 0.5, warmup = quick ? 500 : 5000;
    const double horizon = warmup + (quick ? 20000 : 200000);
    int idx[16][16], ns = 0;
    for (int j = 0; j <= c; j++)
        for (int n = 0; j + n <= N; n++)
            idx[j][n] = ns++;
    gsl_matrix *Qt = gsl_matrix_calloc(ns, ns); /* transposed generator */
#define RATE(fj, fn, tj, tn, r)                                                                               \
    do {                                                                                                      \
        gsl_matrix_set(Qt, idx[tj][tn], idx[fj][fn], gsl_matrix_get(Qt, idx[tj][tn], idx[fj][fn]) + (r));     \
        gsl_matrix_set(Qt, idx[fj][fn], idx[fj][fn], gsl_matrix_get(Qt, idx[fj][fn], idx[fj][fn]) - (r));     \
    } while (0)
    for (int j = 0; j <= c; j++)
        for (int n = 0; j + n <= N; n++) {
            int t = N - j - n;
            if (t > 0) {
                if (j < c)
                    RATE(j, n, j + 1, n, t * alpha);
                else
                    RATE(j, n, j, n + 1, t * alpha);
            }
            if (n > 0 && j < c)
                RATE(j, n, j + 1, n - 1, n * theta);
            if (j > 0)
                RATE(j, n, j - 1, n, j * mu);
        }
#undef RATE
    for (int k = 0; k < ns; k++)
        gsl_matrix_set(Qt, 0, k, 1.0); /* normalisation replaces one balance equation */
    gsl_vector *rhs = gsl_vector_calloc(ns), *pi = gsl_vector_alloc(ns);
    gsl_vector_set(rhs, 0, 1.0);
    gsl_permutation *perm = gsl_permutation_alloc(ns);
    int sg;
    gsl_linalg_LU_decomp(Qt, perm, &sg);
    gsl_linalg_LU_solve(Qt, perm, rhs, pi);
    double busy = 0, orbit = 0, thinking = 0;
    for (int j = 0; j <= c; j++)
        for (int n = 0; j + n <= N; n++) {
            double p = gsl_vector_get(pi, idx[j][n]);
            busy += j * p;
            orbit += n * p;
            thinking += (N - j - n) * p;
        }
    gsl_matrix_free(Qt);
    gsl_vector_free(rhs);
    gsl_vector_free(pi);
    gsl_permutation_free(perm);
    double tput = alpha * thinking;
    scn_config cfg;
    scn_defaults(&cfg);
    set(&cfg, "run.seed=%d", 2008);
    set(&cfg, "run.horizon_s=%g", horizon);
    set(&cfg, "run.warmup_s=%g", warmup);
    set(&cfg, "run.bucket_s=1e6");
    set(&cfg, "clients.count=%d", N);
    set(&cfg, "clients.requests_per_client=%d", R);
    set(&cfg, "clients.think_time_s=exponential(%.17g)", 1 / alpha);
    set(&cfg, "network.delay_s=0");
    set(&cfg, "server.workers=%d", c);
    set(&cfg, "server.queue=0");
    set(&cfg, "server.service_time_s=exponential(%.17g)", 1 / mu);
    set(&cfg, "retry.strategy=random");
    set(&cfg, "retry.delay_s=exponential(%.17g)", 1 / theta);
    set(&cfg, "retry.cap_s=1e9");
    set(&cfg, "retry.max_attempts=0");
    double U[32], W[32];
    for (int r = 0; r < reps; r++) {
        sim_t sim;
        model md;
        run(&cfg, HP_RANDOM, (uint32_t)r, &sim, &md);
        U[r] = md.m.utilization;
        W[r] = md.m.mean_latency_s;
        release(&md);
        sim_free(&sim);
    }
    printf("  finite source: %d clients, think Exp(%g), %d servers, theta %g: %d states, mean orbit %.4f\n", N,
           alpha, c, theta, ns, orbit);
    row("finite", busy / c, "utilisation", busy / c, U, reps, family);
    row("finite", busy / c, "mean response", orbit / tput + 1 / mu, W, reps, family);
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
        set(&c, "retry.strategy=%s", hp_strategy_name((hp_strategy)s));
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
        case HP_RANDOM: lo = 0; hi = -1; break; /* exponential with mean base (cap 10 = 20 means) */
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
                double F = hi < 0 ? -expm1(-x[i] / base) : cdf_u(x[i], lo, hi);
                double a = fabs(F - (double)i / m), b = fabs((double)(i + 1) / m - F);
                D = fmax(D, fmax(a, b));
            }
            /* asymptotic critical value at level alpha: sqrt(-ln(alpha/2)/2) / sqrt(n) */
            double alpha = 0.05 / family, crit = sqrt(-log(alpha / 2) / 2) / sqrt((double)m);
            ok = D <= crit;
            if (hi < 0)
                snprintf(what, sizeof what, "Exp(mean %g): D = %.5f, critical %.5f", base, D, crit);
            else
                snprintf(what, sizeof what, "U(%g, %g): D = %.5f, critical %.5f", lo, hi, D, crit);
        }
        rows++;
        failures += !ok;
        printf("  %-20s %-52s %s\n", hp_strategy_name((hp_strategy)s), what, ok ? "pass" : "FAIL");
        release(&md);
        sim_free(&sim);
    }
}

/* ---- data: new distributions, traces, capacity timelines ---------------- */

/* The CDF of the service distribution of case k (see data_cases). */
static const struct {
    double lo, hi, count;
} hist_rows[] = { /* tests/data/hist.csv */
    {0.005, 0.01, 120}, {0.01, 0.02, 300}, {0.02, 0.05, 250}, {0.1, 0.2, 60}, {0.2, 0.5, 40}, {0.5, 2, 10},
};

static double hist_cdf(double x)
{
    double total = 0, below = 0;
    for (size_t i = 0; i < sizeof hist_rows / sizeof hist_rows[0]; i++) {
        total += hist_rows[i].count;
        if (x >= hist_rows[i].hi)
            below += hist_rows[i].count;
        else if (x > hist_rows[i].lo)
            below += hist_rows[i].count * (x - hist_rows[i].lo) / (hist_rows[i].hi - hist_rows[i].lo);
    }
    return below / total;
}

static double lognormal_cdf(double x, double mean, double sd)
{
    double s2 = log1p(sd * sd / (mean * mean));
    return gsl_cdf_lognormal_P(x, log(mean) - 0.5 * s2, sqrt(s2));
}

static const char *const data_cases[] = {
    "pareto(0.01, 1.5)", "weibull(0.05, 0.7)", "gamma(2, 0.02)",
    "mixture(0.9: lognormal(0.02, 0.01), 0.1: pareto(0.2, 1.5))", "empirical(tests/data/hist.csv)",
};

static double data_cdf(int k, double x)
{
    switch (k) {
    case 0: return gsl_cdf_pareto_P(x, 1.5, 0.01);
    case 1: return gsl_cdf_weibull_P(x, 0.05, 0.7);
    case 2: return gsl_cdf_gamma_P(x, 2, 0.02);
    case 3: return 0.9 * lognormal_cdf(x, 0.02, 0.01) + 0.1 * gsl_cdf_pareto_P(x, 1.5, 0.2);
    default: return hist_cdf(x);
    }
}

/* n requests at once, one attempt each, no queueing, 1 ms hops: the
 * service times of a run of `service` (latency - 2 ms), sorted. */
static void service_draws(const char *service, int n, sim_t *sim, model *md)
{
    scn_config c;
    scn_defaults(&c);
    set(&c, "run.seed=%d", 13);
    set(&c, "clients.count=%d", n);
    set(&c, "network.delay_s=constant(0.001)");
    set(&c, "server.workers=%d", n);
    set(&c, "server.service_time_s=%s", service);
    set(&c, "retry.max_attempts=1");
    run(&c, HP_EXPONENTIAL, 0, sim, md);
    for (uint64_t i = 0; i < md->nlatency; i++)
        md->latency[i] -= 0.002;
    gsl_sort(md->latency, 1, (size_t)md->nlatency);
}

static void verdict(int ok, const char *name, const char *what)
{
    rows++;
    failures += !ok;
    printf("  %-60s %-44s %s\n", name, what, ok ? "pass" : "FAIL");
}

static void data_ks(int quick, int family)
{
    const int n = quick ? 5000 : 50000;
    double alpha = 0.05 / family;
    printf("\nservice times drawn in the simulator, %d requests (Kolmogorov-Smirnov; chi-square for samples)\n", n);
    for (int k = 0; k < (int)(sizeof data_cases / sizeof data_cases[0]); k++) {
        sim_t sim;
        model md;
        service_draws(data_cases[k], n, &sim, &md);
        size_t m = (size_t)md.nlatency;
        double D = 0;
        for (size_t i = 0; i < m; i++) {
            double F = data_cdf(k, md.latency[i]);
            D = fmax(D, fmax(fabs(F - (double)i / m), fabs((double)(i + 1) / m - F)));
        }
        double crit = sqrt(-log(alpha / 2) / 2) / sqrt((double)m);
        char what[96];
        snprintf(what, sizeof what, "D = %.5f, critical %.5f", D, crit);
        verdict(D <= crit, data_cases[k], what);
        release(&md);
        sim_free(&sim);
    }
    /* tests/data/samples.csv: 8 values, 0.012 three times, 0.015 twice */
    static const double value[] = {0.012, 0.015, 0.03, 0.25, 1.5}, mult[] = {3, 2, 1, 1, 1};
    sim_t sim;
    model md;
    service_draws("empirical(tests/data/samples.csv)", n, &sim, &md);
    double count[5] = {0}, chi2 = 0;
    int stray = 0;
    for (uint64_t i = 0; i < md.nlatency; i++) {
        int j = 0;
        while (j < 5 && fabs(md.latency[i] - value[j]) > 1e-9)
            j++;
        if (j == 5)
            stray++;
        else
            count[j]++;
    }
    for (int j = 0; j < 5; j++) {
        double e = mult[j] / 8 * (double)md.nlatency;
        chi2 += (count[j] - e) * (count[j] - e) / e;
    }
    double pval = gsl_cdf_chisq_Q(chi2, 4);
    char what[96];
    snprintf(what, sizeof what, "chi-square %.3f (4 df), p %.4f, %d not observed", chi2, pval, stray);
    verdict(!stray && pval > alpha, "empirical(tests/data/samples.csv)", what);
    release(&md);
    sim_free(&sim);
}

/* tests/data/trace.csv: the integral of the rate over [a, b). */
static double trace_integral(double a, double b, int linear)
{
    static const double t[] = {0, 20, 40, 60, 80}, r[] = {50, 200, 200, 20, 100};
    double sum = 0;
    for (int i = 0; i + 1 < 5; i++) {
        double lo = fmax(a, t[i]), hi = fmin(b, t[i + 1]);
        if (hi <= lo)
            continue;
        double s = linear ? (r[i + 1] - r[i]) / (t[i + 1] - t[i]) : 0;
        double rl = r[i] + s * (lo - t[i]), rh = r[i] + s * (hi - t[i]);
        sum += 0.5 * (rl + rh) * (hi - lo);
    }
    return sum;
}

static void data_trace(int quick, int family)
{
    const int reps = quick ? 5 : 20;
    const double bucket = 5;
    printf("\narrivals of tests/data/trace.csv per %g s bucket, %d replications (chi-square: Poisson counts)\n",
           bucket, reps);
    for (int linear = 0; linear < 2; linear++) {
        scn_config c;
        scn_defaults(&c);
        set(&c, "run.seed=%d", 17);
        set(&c, "run.horizon_s=100");
        set(&c, "run.bucket_s=%g", bucket);
        set(&c, "clients.start=trace");
        set(&c, "clients.trace_file=tests/data/trace.csv");
        set(&c, "clients.trace_interpolation=%s", linear ? "linear" : "step");
        set(&c, "network.delay_s=constant(0.001)");
        set(&c, "server.workers=100000");
        set(&c, "server.service_time_s=constant(0.01)");
        double chi2 = 0;
        int df = 0;
        for (int rep = 0; rep < reps; rep++) {
            sim_t sim;
            model md;
            run(&c, HP_EXPONENTIAL, (uint32_t)rep, &sim, &md);
            for (int b = 0; b < 16; b++) {
                double e = trace_integral(b * bucket, (b + 1) * bucket, linear);
                double o = (size_t)b < md.ts.len ? md.ts.b[b].offered : 0;
                chi2 += (o - e) * (o - e) / e;
                df++;
            }
            release(&md);
            sim_free(&sim);
        }
        double pval = gsl_cdf_chisq_Q(chi2, df);
        char what[96];
        snprintf(what, sizeof what, "chi-square %.1f (%d df), p %.4f", chi2, df, pval);
        verdict(pval > 0.05 / family, linear ? "trace_interpolation = linear" : "trace_interpolation = step", what);
    }
}

/* 20 workers, exponential(0.1) service, always saturated; from t = 50 the
 * capacity timeline keeps half the workers: throughput 200/s, then 100/s. */
static void data_capacity(int quick, int family)
{
    const int reps = quick ? 5 : 20;
    double ratio[20];
    printf("\n");
    for (int rep = 0; rep < reps; rep++) {
        scn_config c;
        scn_defaults(&c);
        set(&c, "run.seed=%d", 19);
        set(&c, "run.horizon_s=100");
        set(&c, "clients.count=20000");
        set(&c, "network.delay_s=constant(0.001)");
        set(&c, "server.workers=20");
        set(&c, "server.queue=100000");
        set(&c, "server.service_time_s=exponential(0.1)");
        set(&c, "server.capacity_file=tests/data/capacity.csv");
        set(&c, "retry.max_attempts=1");
        sim_t sim;
        model md;
        run(&c, HP_EXPONENTIAL, (uint32_t)rep, &sim, &md);
        double before = 0, after = 0;
        for (size_t b = 5; b < 100 && b < md.ts.len; b++) {
            if (b < 50)
                before += md.ts.b[b].goodput;
            else if (b >= 55)
                after += md.ts.b[b].goodput;
        }
        ratio[rep] = (after / 45) / (before / 45);
        release(&md);
        sim_free(&sim);
    }
    row("cap-1/2", 1.0, "thr after/before", 0.5, ratio, reps, family);
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    if (argc > 1 && strcmp(argv[1], "--quick") && strcmp(argv[1], "--uniform-retrials")) {
        fprintf(stderr, "usage: validate [--quick] [--uniform-retrials]\n");
        return 2;
    }
    /* rows in the whole table: the family for the Bonferroni level */
    int family = (quick ? 6 * 4 + 1 + HP_STRATEGY_COUNT + 1 + 3 * 4 + 2 : 9 * 4 + 1 + HP_STRATEGY_COUNT + 1 + 5 * 4 + 2) +
                 6 + 2 + 1 + /* data: distributions, traces, capacity */
                 (quick ? 2 * 2 : 4 * 2) + /* LIFO */
                 (quick ? 2 * 2 : 5 * 2);  /* M/M/c/L */
    printf("herd validation%s: family-wise level 95%% over %d checks (each at %.4f%%)\n\n", quick ? " (quick)" : "",
           family, 100 * (1 - 0.05 / family));
    printf("%-8s %5s  %-16s %12s %12s  %-14s %-10s %s\n", "model", "load", "quantity", "theory", "simulated",
           "95% CI", "FW CI", "verdict");
    queues(quick, family);
    lifo_queues(quick, family);
    limit_queues(quick, family);
    attempts_chi_square(quick, family);
    backoff_ks(quick, family);
    retrials(quick, family, NULL);
    retrial_finite(quick, family);
    data_ks(quick, family);
    data_trace(quick, family);
    data_capacity(quick, family);
    if (argc > 1 && !strcmp(argv[argc - 1], "--uniform-retrials")) { /* what the formulas miss */
        int before = failures, rbefore = rows;
        retrials(quick, family, ": the same rows with uniform(0, 2/theta) retrial times (same mean)");
        printf("  uniform retrial times: %d of the %d rows above fail (not counted below)\n", failures - before,
               rows - rbefore);
        failures = before;
        rows = rbefore;
    }
    printf("\nvalidate: %d passed, %d failed\n", rows - failures, failures);
    return failures ? 1 : 0;
}
