/*
 * test_lathist.c - cmocka tests for the latency histogram (lathist.h) and
 * for the rule that picks exact quantiles or the histogram in a run.
 *
 * Quantiles from the histogram are compared with the exact ones (GSL on the
 * sorted samples, as the model computes them) on samples of many shapes
 * and sizes, and on the latencies of small simulations: every estimate
 * must be within LH_REL_ERROR (0.049%) of the exact value.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "../sim/base/alloc.h"
#include "../sim/engine/sim.h"
#include "../sim/model/lathist.h"
#include "../sim/model/model.h"
#include "../sim/scenario/scenario.h"

static const double probs[] = {0, 0.001, 0.01, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1};

/* Every quantile of h within LH_REL_ERROR of the exact one of x[0..n)
 * (sorted here); the mean to 1e-12 and the max exactly. */
static void check_against_exact(const lh_hist *h, double *x, size_t n)
{
    gsl_sort(x, 1, n);
    for (size_t i = 0; i < sizeof probs / sizeof probs[0]; i++) {
        double want = gsl_stats_quantile_from_sorted_data(x, 1, n, probs[i]);
        double got = lh_quantile(h, probs[i]);
        if (!(fabs(got - want) <= LH_REL_ERROR * want + 1e-300)) {
            print_error("p = %g: histogram %.17g, exact %.17g (rel %.3g)\n", probs[i], got, want,
                        fabs(got - want) / want);
            fail();
        }
    }
    assert_close(lh_mean(h), gsl_stats_mean(x, 1, n), 1e-12);
    assert_true(h->max == x[n - 1]);
    assert_true(h->min == x[0]);
    assert_int_equal(h->n, n);
}

static double sample(uint64_t *s, int shape)
{
    double u = unif(s);
    switch (shape) {
    case 0: /* exponential, mean 0.1 s */
        return -0.1 * log(1 - u);
    case 1: /* lognormal-ish over 6 decades */
        return pow(10.0, -4 + 6 * u);
    case 2: /* ties: a few exact values and zeros */
        return (double)(int)(5 * u) * 0.25;
    case 3: /* narrow: 1 s +/- 1 us, where the buckets are coarse */
        return 1 + 1e-6 * (u - 0.5);
    default: /* the AWS OCC spread: 4 hops of ~10 ms and sleeps */
        return 0.04 + (u < 0.5 ? 0 : 2 * unif(s));
    }
}

TEST(test_quantiles_against_exact)
{
    static const size_t sizes[] = {1, 2, 3, 10, 101, 1000, 100000};
    uint64_t s = 42;
    for (int shape = 0; shape < 5; shape++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            double *x = malloc(n * sizeof *x);
            lh_hist *h = lh_new();
            assert_non_null(x);
            assert_non_null(h);
            for (size_t i = 0; i < n; i++) {
                x[i] = sample(&s, shape);
                lh_add(h, x[i]);
            }
            check_against_exact(h, x, n);
            lh_free(h);
            free(x);
        }
}

TEST(test_merge)
{
    uint64_t s = 7;
    size_t n = 50000;
    double *x = malloc(n * sizeof *x);
    lh_hist *a = lh_new(), *b = lh_new(), *all = lh_new();
    assert_non_null(x);
    assert_true(a && b && all);
    for (size_t i = 0; i < n; i++) {
        x[i] = sample(&s, (int)(i % 5));
        lh_add(i % 3 ? a : b, x[i]);
        lh_add(all, x[i]);
    }
    lh_merge(a, b);
    assert_int_equal(a->n, all->n);
    assert_int_equal(memcmp(a->count, all->count, sizeof a->count), 0);
    for (size_t i = 0; i < sizeof probs / sizeof probs[0]; i++)
        assert_true(lh_quantile(a, probs[i]) == lh_quantile(all, probs[i]));
    check_against_exact(a, x, n);
    lh_free(a);
    lh_free(b);
    lh_free(all);
    free(x);
}

TEST(test_edges)
{
    lh_hist *h = lh_new();
    assert_non_null(h);
    assert_true(isnan(lh_quantile(h, 0.5)));
    assert_true(isnan(lh_mean(h)));
    lh_add(h, NAN); /* ignored */
    lh_add(h, -1);
    lh_add(h, INFINITY);
    assert_int_equal(h->n, 0);
    lh_add(h, 0);
    assert_true(lh_quantile(h, 0.99) == 0);
    lh_add(h, 1e-300); /* below the range: counted, stands for the min */
    lh_add(h, 1e300);  /* above: stands for the max */
    assert_int_equal(h->below, 1);
    assert_int_equal(h->above, 1);
    assert_true(lh_quantile(h, 1) == 1e300);
    assert_true(lh_quantile(h, 0) == 0);
    lh_clear(h);
    assert_int_equal(h->n, 0);
    lh_free(h);
    lh_free(NULL);
}

static void set(scn_config *c, const char *kv)
{
    char err[SCN_ERR_MAX];
    if (scn_set(c, kv, "test", err) != 0)
        fail_msg("%s", err);
}

/* A small simulation keeps its latencies (exact quantiles, as the golden
 * files need); fed to a histogram they give the run's p50 and p99 within
 * the bound.  Above MODEL_EXACT_LATENCIES requests the run uses the
 * histogram. */
TEST(test_runs_exact_then_histogram)
{
    static const char *const strategies[] = {"exponential", "full_jitter", "decorrelated_jitter"};
    for (size_t k = 0; k < 3; k++) {
        scn_config c;
        scn_defaults(&c);
        set(&c, "clients.count=5000");
        set(&c, "server.workers=50");
        set(&c, "server.queue=100");
        set(&c, "server.service_time_s=exponential(0.05)");
        set(&c, "retry.max_attempts=6");
        set(&c, "retry.attempt_timeout_s=2");
        char err[SCN_ERR_MAX];
        assert_int_equal(scn_validate(&c, "test", err), 0);
        model_spec spec;
        scn_compile(&c, &spec);
        sim_t sim;
        model md;
        assert_int_equal(sim_init(&sim, rng_replication_seed(1, (uint32_t)k), 0), 0);
        hp_strategy st;
        assert_int_equal(hp_strategy_parse(strategies[k], &st), 0);
        assert_int_equal(model_init(&md, &spec, scn_data(), st, &sim), 0);
        assert_non_null(md.latency);
        assert_null(md.hist);
        assert_int_equal(model_run(&md), 0);
        lh_hist *h = lh_new();
        assert_non_null(h);
        for (uint64_t i = 0; i < md.nlatency; i++)
            lh_add(h, md.latency[i]);
        assert_true(md.nlatency > 1000);
        /* model_run sorted the samples and took GSL's quantiles */
        assert_true(fabs(lh_quantile(h, 0.5) - md.m.p50_latency_s) <= LH_REL_ERROR * md.m.p50_latency_s);
        assert_true(fabs(lh_quantile(h, 0.99) - md.m.p99_latency_s) <= LH_REL_ERROR * md.m.p99_latency_s);
        assert_true(h->max == md.m.max_latency_s);
        check_against_exact(h, md.latency, (size_t)md.nlatency);
        lh_free(h);
        model_free(&md);
        sim_free(&sim);
    }

    scn_config c;
    scn_defaults(&c);
    set(&c, "clients.count=1000");
    set(&c, "clients.requests_per_client=300"); /* 300,000 > 2^18 requests */
    model_spec spec;
    scn_compile(&c, &spec);
    sim_t sim;
    model md;
    assert_int_equal(sim_init(&sim, 9, 0), 0);
    assert_int_equal(model_init(&md, &spec, scn_data(), HP_FULL_JITTER, &sim), 0);
    assert_null(md.latency);
    assert_non_null(md.hist);
    model_free(&md);
    sim_free(&sim);
}

/* results_latency sorts the samples it is given (a radix sort from 256
 * values on, gsl_sort below): the array must come out exactly as
 * gsl_sort leaves it, and the metrics as computed from that, for sizes
 * around the switch, ties, one repeated value, negative values and
 * values spanning many binades. */
static void test_latency_sort_is_gsl_sort(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 255, 256, 257, 1000, 10007, 70000};
    uint64_t z = 0x9e3779b97f4a7c15ULL;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int shape = 0; shape < 5; shape++) {
            size_t n = sizes[si];
            double *x = test_malloc(n * sizeof *x), *y = test_malloc(n * sizeof *y);
            for (size_t i = 0; i < n; i++) {
                z = z * 6364136223846793005ULL + 1442695040888963407ULL;
                double u = (double)(z >> 11) * 0x1.0p-53;
                switch (shape) {
                case 0: x[i] = u; break;                              /* uniform */
                case 1: x[i] = floor(u * 16) / 4; break;              /* many ties */
                case 2: x[i] = 0.125; break;                          /* one value */
                case 3: x[i] = (u - 0.5) * 1e3; break;                /* both signs */
                default: x[i] = ldexp(1 + u, (int)(u * 80) - 40); break; /* 80 binades */
                }
                y[i] = x[i];
            }
            metrics m = {0};
            results_latency(&m, x, n);
            gsl_sort(y, 1, n);
            assert_memory_equal(x, y, n * sizeof *x);
            assert_true(m.mean_latency_s == gsl_stats_mean(y, 1, n));
            assert_true(m.p99_latency_s == gsl_stats_quantile_from_sorted_data(y, 1, n, 0.99));
            assert_true(m.max_latency_s == y[n - 1]);
            test_free(x);
            test_free(y);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantiles_against_exact),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_runs_exact_then_histogram),
        cmocka_unit_test(test_latency_sort_is_gsl_sort),
    };
    return cmocka_run_group_tests_name("lathist", tests, NULL, NULL);
}
