/*
 * test_dist.c - cmocka tests for duration distributions (dist.h).
 *
 * Parsing (accepted forms with their exact parameters, rejected forms with
 * *out untouched), and sampling with a fixed-seed
 * GSL mt19937 stream: sample means against dist_mean() within 4.5 standard
 * errors, dist_mean() against closed forms computed here, and one-sample
 * Kolmogorov-Smirnov tests against CDFs written here from libm's erfc, so
 * that nothing is checked against itself.
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

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>

#include "../sim/model/sample.h"



/* |got - want| <= k * se, with the numbers in the message on failure. */
#define assert_within_se(got, want, se, k)                                     \
    check_within_se((got), (want), (se), (k), __FILE__, __LINE__)

static void check_within_se(double got, double want, double se, double k,
                            const char *file, int line)
{
    if (!(fabs(got - want) <= k * se)) {
        print_error("%.17g vs %.17g: off by %.3g standard errors (limit %g)\n",
                    got, want, fabs(got - want) / se, k);
        _fail(file, line);
    }
}

#define N_DRAWS 200000
#define N_KS 20000
#define SEED 12345

/*
 * Tolerance for sample means: 4.5 standard errors.  By the central limit
 * theorem (n = 200000, every distribution here has finite variance) the
 * sample mean is normal to a very good approximation, and a two-sided
 * 4.5-sigma excursion has probability 2 * Q(4.5) = 6.8e-6 < 1e-5: a failure
 * means a bug, not bad luck.  The seed is fixed anyway, so runs repeat.
 */
#define K_SE 4.5

/* Kolmogorov's asymptotic critical value for alpha = 0.001 is 1.9495 /
 * sqrt(n) (sqrt(-ln(alpha / 2) / 2)); n = 20000 is well into the
 * asymptotic regime. */
#define KS_C 1.95

static gsl_rng *new_rng(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

    assert_non_null(r);
    gsl_rng_set(r, SEED);
    return r;
}

static dist parse_ok(const char *text)
{
    dist d;
    const char *msg;

    memset(&d, 0, sizeof d);
    msg = dist_parse(text, &d);
    if (msg) {
        print_error("dist_parse(\"%s\"): %s\n", text, msg);
        fail();
    }
    return d;
}

/* ------------------------------------------------- closed forms (libm) */

static double phi_pdf(double x) { return exp(-0.5 * x * x) / sqrt(2 * M_PI); }

static double phi_cdf(double x) { return 0.5 * erfc(-x / M_SQRT2); }

/* Log-space parameters of the lognormal with this mean and sd. */
static void lognormal_params(double mean, double sd, double *mu, double *sigma)
{
    double s2 = log(1 + (sd / mean) * (sd / mean));

    *sigma = sqrt(s2);
    *mu = log(mean) - s2 / 2;
}

/* Mean and standard deviation of each distribution, from textbook formulas
 * (Johnson, Kotz, Balakrishnan), independent of dist.c. */
static void theory(const dist *d, double *mean, double *sd)
{
    double m = d->a, s = d->b;

    *mean = *sd = NAN; /* for an unknown kind, after fail() */
    switch (d->kind) {
    case DIST_CONSTANT:
        *mean = m;
        *sd = 0;
        return;
    case DIST_UNIFORM:
        *mean = (m + s) / 2;
        *sd = (s - m) / sqrt(12);
        return;
    case DIST_EXPONENTIAL:
        *mean = m;
        *sd = m;
        return;
    case DIST_NORMAL: {
        /* N(m, s^2) conditioned on X >= 0: alpha = -m/s, lambda = the
         * inverse Mills ratio phi(alpha) / (1 - Phi(alpha)) */
        double alpha = -m / s, lambda = phi_pdf(alpha) / phi_cdf(-alpha);

        *mean = m + s * lambda;
        *sd = s * sqrt(1 + alpha * lambda - lambda * lambda);
        return;
    }
    case DIST_ABS_NORMAL: {
        /* folded normal: E|X| as below, E[X^2] = m^2 + s^2 */
        double e = s * sqrt(2 / M_PI) * exp(-m * m / (2 * s * s)) +
                   m * (1 - 2 * phi_cdf(-m / s));

        *mean = e;
        *sd = sqrt(m * m + s * s - e * e);
        return;
    }
    case DIST_LOGNORMAL:
        *mean = m;
        *sd = s;
        return;
    case DIST_PARETO: /* SCALE m, SHAPE s > 2 for a finite sd */
        *mean = s * m / (s - 1);
        *sd = m / (s - 1) * sqrt(s / (s - 2));
        return;
    case DIST_WEIBULL: { /* SCALE m, SHAPE s */
        double g1 = tgamma(1 + 1 / s), g2 = tgamma(1 + 2 / s);

        *mean = m * g1;
        *sd = m * sqrt(g2 - g1 * g1);
        return;
    }
    case DIST_GAMMA: /* SHAPE m, SCALE s */
        *mean = m * s;
        *sd = sqrt(m) * s;
        return;
    default:
        break;
    }
    fail();
}

/* P(X <= x) for the continuous kinds, again independent of dist.c. */
static double cdf(const dist *d, double x)
{
    double m = d->a, s = d->b;

    switch (d->kind) {
    case DIST_UNIFORM:
        return x <= m ? 0 : x >= s ? 1 : (x - m) / (s - m);
    case DIST_EXPONENTIAL:
        return x <= 0 ? 0 : -expm1(-x / m);
    case DIST_NORMAL: {
        double p0 = phi_cdf(-m / s);

        return x <= 0 ? 0 : (phi_cdf((x - m) / s) - p0) / (1 - p0);
    }
    case DIST_ABS_NORMAL:
        return x <= 0 ? 0 : phi_cdf((x - m) / s) - phi_cdf((-x - m) / s);
    case DIST_LOGNORMAL: {
        double mu, sigma;

        lognormal_params(m, s, &mu, &sigma);
        return x <= 0 ? 0 : phi_cdf((log(x) - mu) / sigma);
    }
    case DIST_PARETO: /* SCALE m, SHAPE s */
        return x <= m ? 0 : 1 - pow(m / x, s);
    case DIST_WEIBULL: /* SCALE m, SHAPE s */
        return x <= 0 ? 0 : -expm1(-pow(x / m, s));
    case DIST_GAMMA: /* SHAPE m, SCALE s: the regularised lower incomplete gamma */
        return x <= 0 ? 0 : gsl_sf_gamma_inc_P(m, x / s);
    default:
        break;
    }
    fail();
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Kolmogorov-Smirnov statistic D of n fresh draws of d against cdf(). */
static double ks_statistic(const dist *d, size_t n)
{
    gsl_rng *r = new_rng();
    double *x = malloc(n * sizeof *x), dmax = 0;
    size_t i;

    assert_non_null(x);
    for (i = 0; i < n; i++)
        x[i] = dist_sample(d, NULL, r);
    qsort(x, n, sizeof *x, cmp_double);
    for (i = 0; i < n; i++) {
        double f = cdf(d, x[i]);
        double hi = (double)(i + 1) / (double)n - f;
        double lo = f - (double)i / (double)n;

        if (hi > dmax)
            dmax = hi;
        if (lo > dmax)
            dmax = lo;
    }
    free(x);
    gsl_rng_free(r);
    return dmax;
}

/* --------------------------------------------------------------- parsing */

TEST(test_parse_accepts)
{
    static const struct {
        const char *text;
        dist_kind kind;
        double a, b;
    } ok[] = {
        {"0.5", DIST_CONSTANT, 0.5, 0},
        {" 2 ", DIST_CONSTANT, 2, 0},
        {"0", DIST_CONSTANT, 0, 0},
        {"1e-3", DIST_CONSTANT, 1e-3, 0},
        {"constant(1)", DIST_CONSTANT, 1, 0},
        {"uniform(0.1, 0.2)", DIST_UNIFORM, 0.1, 0.2},
        {"uniform(1,1)", DIST_UNIFORM, 1, 1},
        {"exponential(0.01)", DIST_EXPONENTIAL, 0.01, 0},
        {"\texponential( 2 )\t", DIST_EXPONENTIAL, 2, 0},
        {"normal(0.01,0.002)", DIST_NORMAL, 0.01, 0.002},
        {"normal(1, 0)", DIST_NORMAL, 1, 0},
        {"abs_normal(0.01, 0.002)", DIST_ABS_NORMAL, 0.01, 0.002},
        {"abs_normal(-1, 1)", DIST_ABS_NORMAL, -1, 1},
        {"lognormal(1, 0.5)", DIST_LOGNORMAL, 1, 0.5},
        {"pareto(0.01, 1.5)", DIST_PARETO, 0.01, 1.5},
        {"weibull(0.05, 0.7)", DIST_WEIBULL, 0.05, 0.7},
        {"gamma(2, 0.02)", DIST_GAMMA, 2, 0.02},
    };
    size_t i;

    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        dist d = parse_ok(ok[i].text);

        assert_int_equal(d.kind, ok[i].kind);
        assert_close(d.a, ok[i].a, 0);
        assert_close(d.b, ok[i].b, 0);
    }
}

TEST(test_parse_lognormal_params)
{
    dist d = parse_ok("lognormal(1, 0.5)");
    double mu, sigma;

    lognormal_params(1, 0.5, &mu, &sigma);
    assert_close(d.sigma, sigma, EPS);
    assert_close(d.mu, mu, EPS);
    /* by hand: sigma^2 = ln 1.25, mu = -sigma^2 / 2 */
    assert_close(d.sigma * d.sigma, log(1.25), EPS);
    assert_close(d.mu, -0.5 * log(1.25), EPS);
}

/* lognormal_median(MEDIAN, SIGMA) and lognormal_p50_p99(P50, P99): the
 * same family by what a latency dashboard shows.  The median and the
 * 99th percentile of the parsed distribution are the ones written (GSL's
 * lognormal CDF, not the parser's formulas), its mean and SD those of
 * lognormal(MEAN, SD) with the same parameters, and draws have that
 * median. */
TEST(test_parse_lognormal_median_forms)
{
    dist m = parse_ok("lognormal_median(0.2, 0.5)");
    assert_int_equal(m.kind, DIST_LOGNORMAL);
    assert_close(gsl_cdf_lognormal_P(0.2, m.mu, m.sigma), 0.5, 1e-12);
    assert_close(m.sigma, 0.5, 1e-15);
    assert_close(m.a, 0.2 * exp(0.125), 1e-12); /* mean = median e^(sigma^2 / 2) */
    dist same = parse_ok("lognormal(0.22662969061336527, 0.12078010664217625)");
    assert_close(same.mu, m.mu, 1e-12);
    assert_close(same.sigma, m.sigma, 1e-12);

    dist p = parse_ok("lognormal_p50_p99(0.1, 1)");
    assert_int_equal(p.kind, DIST_LOGNORMAL);
    assert_close(gsl_cdf_lognormal_P(0.1, p.mu, p.sigma), 0.5, 1e-12);
    assert_close(gsl_cdf_lognormal_P(1, p.mu, p.sigma), 0.99, 1e-12);
    assert_close(dist_mean(&p, NULL), p.a, 0);

    dist c = parse_ok("lognormal_median(0.3, 0)"); /* no spread: the constant median */
    assert_close(c.a, 0.3, 1e-15);
    assert_close(c.b, 0, 0);

    /* draws: the share below the median is 1/2 (binomial, 20,000 draws:
     * 4.5 standard errors) */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 41);
    int below = 0, n = 20000;
    for (int i = 0; i < n; i++)
        below += dist_sample(&p, NULL, r) < 0.1;
    assert_within_se((double)below / n, 0.5, sqrt(0.25 / n), 4.5);
    gsl_rng_free(r);

    static const char *const bad[] = {"lognormal_median(0, 0.5)", "lognormal_median(0.1, -1)",
                                      "lognormal_median(0.1, 4)", "lognormal_p50_p99(1, 0.5)",
                                      "lognormal_p50_p99(0.001, 100)", "lognormal_median(0.1)"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dist d;
        if (!dist_parse(bad[i], &d)) {
            print_error("dist_parse(\"%s\") accepted\n", bad[i]);
            fail();
        }
    }
}

TEST(test_parse_rejects)
{
    static const char *const bad[] = {
        "",
        "abc",
        "-1",
        "exponential(0)",
        "exponential(-1)",
        "uniform(2,1)",
        "normal(1)",
        "normal(1,2,3)",
        "lognormal(0, 1)",
        "exponential(1) junk",
        "nan",
        "inf",
        "1e999",
        "exponential(nan)",
        "constant(",
        "uniform(1;2)",
        /* and a few more */
        "   ",
        "constant(-1)",
        "constant()",
        "uniform(-1, 1)",
        "normal(1, -1)",
        "normal(-1, 0.1)", /* mean below -3 sd */
        "abs_normal(1, -1)",
        "lognormal(1, -0.5)",
        "exponential",
        "exponential(1",
        "exponential(1))",
        "(1)",
        "cauchy(1, 2)",
        "pareto(1, 0.05)", /* a shape this small could draw inf */
        "pareto(0, 2)",
        "weibull(-1, 2)",
        "gamma(0, 1)",
        "empirical(x.csv)", /* the scenario layer reads files, not dist_parse */
        "mixture(0.5: 1, 0.5: 2)",
        "2 s",
        "exponential(inf)",
        "uniform(0, 1e999)",
        "exponential(1e308)", /* would draw inf */
        "normal(1e308, 1e308)",
        "1e10",
    };
    size_t i;

    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dist d, sentinel;
        const char *msg;

        memset(&sentinel, 0xA5, sizeof sentinel);
        d = sentinel;
        msg = dist_parse(bad[i], &d);
        if (!msg) {
            print_error("dist_parse(\"%s\") accepted it\n", bad[i]);
            fail();
        }
        assert_true(msg[0] != '\0');
        assert_memory_equal(&d, &sentinel, sizeof d);
    }
}

/* -------------------------------------------------------------- sampling */

/* n draws of d: all finite and >= 0, sample mean within K_SE standard
 * errors of dist_mean(), and dist_mean() equal to the closed form here.
 * Returns the sample mean; *sample_sd gets the sample standard deviation. */
static double check_sampling(const char *text, double *sample_sd)
{
    dist d = parse_ok(text);
    gsl_rng *r = new_rng();
    double mean, sd, m = 0, m2 = 0;
    size_t i;

    theory(&d, &mean, &sd);
    assert_close(dist_mean(&d, NULL), mean, 1e-9);
    for (i = 0; i < N_DRAWS; i++) {
        double x = dist_sample(&d, NULL, r), delta;

        if (!(isfinite(x) && x >= 0)) {
            print_error("%s: draw %zu is %g\n", text, i, x);
            fail();
        }
        /* Welford's running mean and sum of squared deviations */
        delta = x - m;
        m += delta / (double)(i + 1);
        m2 += delta * (x - m);
    }
    gsl_rng_free(r);
    if (sd == 0) /* constant: every draw is the value */
        assert_close(m, dist_mean(&d, NULL), EPS);
    else
        assert_within_se(m, dist_mean(&d, NULL), sd / sqrt(N_DRAWS), K_SE);
    *sample_sd = sqrt(m2 / (N_DRAWS - 1));
    return m;
}

TEST(test_sample_means)
{
    static const char *const texts[] = {
        "0.5",
        "uniform(0.1, 0.2)",
        "exponential(0.01)",
        "exponential(2)",
        "normal(0.01, 0.002)",  /* truncation at -5 sd: negligible */
        "normal(0.01, 0.01)",   /* truncated at -1 sd: mean 0.012876 */
        "normal(0, 1)",         /* half of it redrawn */
        "abs_normal(0.01, 0.002)",
        "abs_normal(0, 1)",
        "pareto(0.01, 3.5)",
        "weibull(0.05, 0.7)",
        "gamma(2, 0.02)",
        "abs_normal(1, 1)",     /* partly folded */
        "lognormal(1, 0.5)",
        "lognormal(0.02, 0.05)", /* heavy tail: cv 2.5 */
    };
    size_t i;

    for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        double sd;

        check_sampling(texts[i], &sd);
    }
}

TEST(test_constant_exact)
{
    dist d = parse_ok("0.25");
    gsl_rng *r = new_rng();
    int i;

    for (i = 0; i < 1000; i++)
        assert_close(dist_sample(&d, NULL, r), 0.25, 0);
    d = parse_ok("normal(0.125, 0)");
    for (i = 0; i < 1000; i++)
        assert_close(dist_sample(&d, NULL, r), 0.125, 0);
    d = parse_ok("lognormal(3, 0)");
    for (i = 0; i < 1000; i++)
        assert_close(dist_sample(&d, NULL, r), 3, 0);
    gsl_rng_free(r);
}

TEST(test_uniform_range)
{
    dist d = parse_ok("uniform(0.1, 0.2)");
    gsl_rng *r = new_rng();
    double lo = INFINITY, hi = -INFINITY;
    int i;

    for (i = 0; i < N_DRAWS; i++) {
        double x = dist_sample(&d, NULL, r);

        assert_true(x >= 0.1 && x < 0.2);
        if (x < lo)
            lo = x;
        if (x > hi)
            hi = x;
    }
    gsl_rng_free(r);
    /* and it fills the range: the chance that no draw falls in the lowest
     * (or highest) 0.1% is 0.999^200000 = e^-200 */
    assert_true(lo < 0.1 + 1e-4);
    assert_true(hi > 0.2 - 1e-4);
}

TEST(test_truncated_normal_mean)
{
    /* normal(0.01, 0.01) loses 16% of its mass below 0: the mean is
     * 0.01 + 0.01 * phi(1) / Phi(1) = 0.0128760, not 0.01 */
    dist d = parse_ok("normal(0.01, 0.01)");
    double sd, m;

    assert_close(dist_mean(&d, NULL), 0.01 + 0.01 * phi_pdf(1) / phi_cdf(1), EPS);
    assert_close(dist_mean(&d, NULL), 0.012875999709391784, EPS);
    m = check_sampling("normal(0.01, 0.01)", &sd);
    /* 0.01 is about 2900 standard errors away from the truncated mean */
    assert_true(fabs(m - 0.01) > 100 * sd / sqrt(N_DRAWS));
}

TEST(test_abs_normal_mean)
{
    dist d = parse_ok("abs_normal(0, 1)");

    assert_close(dist_mean(&d, NULL), sqrt(2 / M_PI), EPS);
    d = parse_ok("abs_normal(3, 0)");
    assert_close(dist_mean(&d, NULL), 3, 0);
    d = parse_ok("abs_normal(-3, 0)");
    assert_close(dist_mean(&d, NULL), 3, 0);
}

TEST(test_lognormal_moments)
{
    double sd, m;
    double s2 = log(1.25);
    /* Standard error of the sample sd by the delta method:
     * Var(s^2) ~ sigma^4 (kappa - 1) / n, so SE(s) ~ sigma sqrt(kappa - 1)
     * / (2 sqrt n), with the lognormal kurtosis kappa = e^{4 s2} + 2 e^{3 s2}
     * + 3 e^{2 s2} - 3 = 8.04 here, so SE(s) = 0.0015 (0.3% of 0.5).  The
     * heavy right tail skews s^2, so the normal approximation is weaker than
     * for the mean: allow 6 SE (1.8%).  A sigma computed as sd/mean (0.5)
     * instead of sqrt(ln(1 + cv^2)) (0.472) would give sd 0.533, +6.6%. */
    double kappa = exp(4 * s2) + 2 * exp(3 * s2) + 3 * exp(2 * s2) - 3;
    double se_sd = 0.5 * sqrt(kappa - 1) / (2 * sqrt(N_DRAWS));

    m = check_sampling("lognormal(1, 0.5)", &sd);
    assert_within_se(m, 1.0, 0.5 / sqrt(N_DRAWS), K_SE);
    assert_within_se(sd, 0.5, se_sd, 6);
}

/* ------------------------------------------------------------ KS tests */

static void check_ks(const char *text)
{
    dist d = parse_ok(text);
    double dn = ks_statistic(&d, N_KS);

    if (!(dn <= KS_C / sqrt(N_KS))) {
        print_error("%s: KS D = %.5f > %.5f (alpha 0.001)\n", text, dn,
                    KS_C / sqrt(N_KS));
        fail();
    }
}

TEST(test_ks_exponential)
{
    /* exponential(2) against 1 - exp(-x / 2) */
    dist d = parse_ok("exponential(2)");

    assert_close(cdf(&d, 2), 1 - exp(-1), EPS);
    check_ks("exponential(2)");
}

TEST(test_ks_other_kinds)
{
    /* the mean alone does not see a wrong shape (e.g. a lognormal with the
     * right mean but the wrong sigma, or a truncation done by clamping) */
    check_ks("uniform(0.1, 0.2)");
    check_ks("normal(0.01, 0.01)");
    check_ks("abs_normal(1, 1)");
    check_ks("lognormal(1, 0.5)");
    check_ks("pareto(0.01, 1.5)");
    check_ks("pareto(2, 0.5)"); /* infinite mean: every draw still finite */
    check_ks("weibull(0.05, 0.7)");
    check_ks("weibull(1, 3)");
    check_ks("gamma(2, 0.02)");
    check_ks("gamma(0.5, 1)");
}

/* The support, judged by what a distribution is: every draw of many lies
 * in [lo, hi], and the spellings of "always 0" all have hi = 0. */
TEST(test_support_draws)
{
    static const char *const texts[] = {"constant(0)", "0", "constant(2.5)", "uniform(0, 0)", "uniform(1, 3)",
                                        "exponential(1)", "normal(3, 0)", "normal(1, 2)", "abs_normal(-2, 0)",
                                        "abs_normal(1, 1)", "lognormal(1, 0)", "lognormal(1, 2)",
                                        "pareto(0.5, 2)", "weibull(1, 2)", "gamma(2, 1)"};
    static const double lo_want[] = {0, 0, 2.5, 0, 1, 0, 3, 0, 2, 0, 1, 0, 0.5, 0, 0};
    static const double hi_want[] = {0, 0, 2.5, 0, 3, INFINITY, 3, INFINITY, 2, INFINITY, 1, INFINITY, INFINITY,
                                     INFINITY, INFINITY};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        dist d;
        assert_null(dist_parse(texts[k], &d));
        double lo, hi;
        dist_support(&d, NULL, &lo, &hi);
        assert_true(lo == lo_want[k]);
        assert_true(hi == hi_want[k]);
        for (int i = 0; i < 2000; i++) {
            double x = dist_sample(&d, NULL, r);
            assert_true(x >= lo && x <= hi);
        }
    }
    /* data: samples of zeros; a histogram with an empty bucket at each end;
     * a mixture of constant(0) and those zeros */
    spec_table t = {0};
    double *v;
    dist *dd;
    uint32_t zeros = spec_table_add(&t, SPEC_DATA_SAMPLES, 3, 3, &v, 0, NULL);
    assert_true(zeros > 0);
    v[0] = v[1] = v[2] = 0;
    uint32_t hist = spec_table_add(&t, SPEC_DATA_HISTOGRAM, 3, 8, &v, 0, NULL);
    assert_true(hist > 0);
    const double h[] = {0, 1, 2, 5, /* cum */ 0, 0, 1, 1};
    memcpy(v, h, sizeof h);
    uint32_t mix = spec_table_add(&t, SPEC_DATA_MIXTURE, 2, 2, &v, 2, &dd);
    assert_true(mix > 0);
    v[0] = 0.5;
    v[1] = 1;
    dd[0] = (dist){.kind = DIST_CONSTANT, .a = 0};
    dd[1] = (dist){.kind = DIST_EMPIRICAL, .ref = zeros};
    double lo, hi;
    dist_support(&(dist){.kind = DIST_EMPIRICAL, .ref = zeros}, &t, &lo, &hi);
    assert_true(lo == 0 && hi == 0);
    dist_support(&(dist){.kind = DIST_EMPIRICAL, .ref = hist}, &t, &lo, &hi);
    assert_true(lo == 1 && hi == 2);
    dist_support(&(dist){.kind = DIST_MIXTURE, .ref = mix}, &t, &lo, &hi);
    assert_true(lo == 0 && hi == 0);
    dd = t.d + t.e[mix].doff;
    dd[1] = (dist){.kind = DIST_EMPIRICAL, .ref = hist};
    dist_support(&(dist){.kind = DIST_MIXTURE, .ref = mix}, &t, &lo, &hi);
    assert_true(lo == 0 && hi == 2);
    dist_support(&(dist){.kind = DIST_EMPIRICAL, .ref = 99}, &t, &lo, &hi); /* no such entry: NaN */
    assert_true(isnan(lo) && isnan(hi));
    spec_table_free(&t);
    gsl_rng_free(r);
}

TEST(test_ks_detects_wrong_distribution)
{
    /* the KS check has power: the exponential(2.2) and exponential(2) CDFs
     * differ by up to 0.035 (at x = 2.1), six times the sampling sd of the
     * empirical CDF there (0.0034), well above the critical 0.0138 */
    dist d = parse_ok("exponential(2.2)");
    gsl_rng *r = new_rng();
    double *x = malloc(N_KS * sizeof *x), dmax = 0;
    size_t i;

    assert_non_null(x);
    for (i = 0; i < N_KS; i++)
        x[i] = dist_sample(&d, NULL, r);
    qsort(x, N_KS, sizeof *x, cmp_double);
    for (i = 0; i < N_KS; i++) {
        double f = -expm1(-x[i] / 2);

        dmax = fmax(dmax, fmax((double)(i + 1) / N_KS - f,
                               f - (double)i / N_KS));
    }
    free(x);
    gsl_rng_free(r);
    assert_true(dmax > KS_C / sqrt(N_KS));
}

/* dist_support (spec/dist.h): every draw lies in [lo, hi], and the draws
 * come close to lo (the infimum is attained or approached) and, for the
 * bounded kinds, to hi; empirical samples and histograms (outer bins of
 * count 0 left out) and mixtures (components of weight 0 left out) read
 * the store. */
TEST(test_support)
{
    spec_table t = {0};
    double *v;
    dist *dd;
    /* samples 0.3, 0.1, 0.7 */
    uint32_t es = spec_table_add(&t, SPEC_DATA_SAMPLES, 3, 3, &v, 0, NULL);
    assert_true(es > 0);
    v[0] = 0.3, v[1] = 0.1, v[2] = 0.7;
    /* histogram bins [0, 1) count 0, [1, 2) 1/2, [2, 3) 1/2, [3, 4) count 0 */
    uint32_t eh = spec_table_add(&t, SPEC_DATA_HISTOGRAM, 4, 10, &v, 0, NULL);
    assert_true(eh > 0);
    const double hist[10] = {0, 1, 2, 3, 4, 0, 0, 0.5, 1, 1};
    memcpy(v, hist, sizeof hist);
    /* mixture: 0.5 uniform(2, 3), 0 constant(100), 0.5 pareto(5, 2) */
    uint32_t em = spec_table_add(&t, SPEC_DATA_MIXTURE, 3, 3, &v, 3, &dd);
    assert_true(em > 0);
    v[0] = 0.5, v[1] = 0.5, v[2] = 1;
    dd[0] = (dist){.kind = DIST_UNIFORM, .a = 2, .b = 3};
    dd[1] = (dist){.kind = DIST_CONSTANT, .a = 100};
    dd[2] = (dist){.kind = DIST_PARETO, .a = 5, .b = 2};
    static const struct {
        const char *text;
        double lo, hi;
    } c[] = {
        {"0.25", 0.25, 0.25},          {"uniform(1, 3)", 1, 3},       {"exponential(2)", 0, INFINITY},
        {"normal(1, 0.5)", 0, INFINITY}, {"normal(2, 0)", 2, 2},      {"abs_normal(-1, 0)", 1, 1},
        {"abs_normal(1, 1)", 0, INFINITY}, {"lognormal(1, 0.5)", 0, INFINITY}, {"lognormal(1, 0)", 1, 1},
        {"pareto(0.5, 1.5)", 0.5, INFINITY}, {"weibull(1, 2)", 0, INFINITY}, {"gamma(2, 0.5)", 0, INFINITY},
        {NULL, 0.1, 0.7}, {NULL, 1, 3}, {NULL, 2, INFINITY},
    };
    gsl_rng *r = new_rng();
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        dist d = {0};
        if (c[i].text)
            assert_null(dist_parse(c[i].text, &d));
        else
            d = (dist){.kind = i == 14 ? DIST_MIXTURE : DIST_EMPIRICAL, .ref = i == 12 ? es : i == 13 ? eh : em};
        double lo = NAN, hi = NAN, mn = INFINITY, mx = -INFINITY;
        dist_support(&d, &t, &lo, &hi);
        if (lo != c[i].lo || hi != c[i].hi)
            fail_msg("%zu (%s): support [%g, %g], want [%g, %g]", i, c[i].text ? c[i].text : "data", lo, hi,
                     c[i].lo, c[i].hi);
        for (int k = 0; k < 20000; k++) {
            double x = dist_sample(&d, &t, r);
            assert_true(x >= lo && x <= hi);
            mn = fmin(mn, x);
            mx = fmax(mx, x);
        }
        /* the infimum is approached: within 2% of the scale above it (not
         * checked for a lognormal, whose density vanishes at 0 faster than
         * any power: its draws stay far above 0 in practice) */
        if (d.kind != DIST_LOGNORMAL && !(mn - lo <= 0.02 * fmax(1, fabs(lo))))
            fail_msg("%zu: smallest of 20000 draws %g, infimum %g", i, mn, lo);
        if (isfinite(hi))
            assert_true(hi - mx <= 0.02 * fmax(1, hi));
    }
    /* a missing entry: NaN, which fails every comparison */
    dist miss = {.kind = DIST_EMPIRICAL, .ref = 99};
    double lo = 0, hi = 0;
    dist_support(&miss, &t, &lo, &hi);
    assert_true(isnan(lo) && isnan(hi));
    dist_support(&miss, &t, NULL, NULL);
    gsl_rng_free(r);
    spec_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_accepts),
        cmocka_unit_test(test_parse_lognormal_params),
        cmocka_unit_test(test_parse_lognormal_median_forms),
        cmocka_unit_test(test_parse_rejects),
        cmocka_unit_test(test_sample_means),
        cmocka_unit_test(test_constant_exact),
        cmocka_unit_test(test_uniform_range),
        cmocka_unit_test(test_truncated_normal_mean),
        cmocka_unit_test(test_abs_normal_mean),
        cmocka_unit_test(test_lognormal_moments),
        cmocka_unit_test(test_ks_exponential),
        cmocka_unit_test(test_ks_other_kinds),
        cmocka_unit_test(test_ks_detects_wrong_distribution),
        cmocka_unit_test(test_support),
        cmocka_unit_test(test_support_draws),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
