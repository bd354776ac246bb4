/*
 * test_policy.c - cmocka tests for the retry-policy library (herdpolicy.h).
 *
 * Exact values for hand-picked u, saturation for huge n and extreme base/cap,
 * properties over a (n, u) grid and random walks, distribution tests with a
 * fixed-seed splitmix64 generator (tolerances derived from theory, not tuned),
 * the classification table, hp_decide() sequences, budgets and deadlines,
 * the timeout truth table, Retry-After, and the side-effect presets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "herdpolicy.h"



#define assert_decision(d, act, rsn, c)                                        \
    check_decision((d), (act), (rsn), (c), __FILE__, __LINE__)

static void check_decision(hp_decision d, hp_action act, hp_reason rsn,
                           hp_class c, const char *file, int line)
{
    if (d.action != act || d.reason != rsn || d.cls != c) {
        print_error("decision (%d, %s, %s), want (%d, %s, %s)\n", d.action,
                    hp_reason_name(d.reason), hp_class_name(d.cls), act,
                    hp_reason_name(rsn), hp_class_name(c));
        _fail(file, line);
    }
}



static hp_policy policy(hp_strategy s, double base, double cap)
{
    hp_policy p = hp_policy_defaults();

    p.strategy = s;
    p.base_s = base;
    p.cap_s = cap;
    return p;
}

/* One backoff from a fresh state (decorrelated: prev = base). */
static double sleep1(hp_strategy s, double base, double cap, uint32_t n,
                     double u)
{
    hp_policy p = policy(s, base, cap);
    hp_state st;

    hp_state_init(&st, &p);
    return hp_backoff(&p, &st, n, u);
}

/* ---------------------------------------------------------------- values */

TEST(test_exact_values)
{
    static const double us[3] = {0.0, 0.5, 0.999999};
    static const double expo[7] = {1, 2, 4, 8, 16, 30, 30};
    static const uint32_t ns[3] = {0, 2, 5}; /* ceilings 1, 4, 30 */
    static const double full[3][3] = { /* [u][n] */
        {0, 0, 0}, {0.5, 2, 15}, {0.999999, 3.999996, 29.99997}};
    static const double equal[3][3] = {
        {0.5, 2, 15}, {0.75, 3, 22.5}, {0.9999995, 3.999998, 29.999985}};
    hp_policy p = policy(HP_IMMEDIATE, 1, 30);
    uint32_t n;
    int i, j;

    for (n = 0; n < 7; n++) {
        assert_close(hp_ceiling(&p, n), expo[n], EPS);
        for (i = 0; i < 3; i++) {
            assert_close(sleep1(HP_IMMEDIATE, 1, 30, n, us[i]), 0, EPS);
            assert_close(sleep1(HP_CONSTANT, 1, 30, n, us[i]), 1, EPS);
            assert_close(sleep1(HP_EXPONENTIAL, 1, 30, n, us[i]), expo[n], EPS);
        }
    }
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) {
            assert_close(sleep1(HP_FULL_JITTER, 1, 30, ns[j], us[i]),
                         full[i][j], EPS);
            assert_close(sleep1(HP_EQUAL_JITTER, 1, 30, ns[j], us[i]),
                         equal[i][j], EPS);
        }
    }
    assert_close(sleep1(HP_CONSTANT, 5, 30, 3, 0.5), 5, EPS);
    assert_close(sleep1(HP_CONSTANT, 0.5, 0.5, 3, 0.5), 0.5, EPS);
}

TEST(test_decorrelated_sequence)
{
    /* By hand, base 1, cap 30: sleep = min(30, 1 + u * (3 * prev - 1)). */
    static const double u[10] = {0.5, 0.5,      0.999999, 0,   0.999999,
                                 0.5, 0.999999, 0.999999, 0.5, 0};
    static const double want[10] = {2, 3.5, 10.4999905, 1, 2.999998,
                                    4.999997, 14.999977000009, 30, 30, 1};
    hp_policy p = policy(HP_DECORRELATED_JITTER, 1, 30);
    hp_state st;
    int i;

    hp_state_init(&st, &p);
    assert_close(st.prev_sleep_s, 1, 0);
    for (i = 0; i < 10; i++) {
        /* n is ignored by decorrelated jitter */
        double s = hp_backoff(&p, &st, (uint32_t)(i * 1000), u[i]);

        assert_close(s, want[i], EPS);
        assert_close(st.prev_sleep_s, s, 0);
    }
    /* NULL state: prev is base and nothing is remembered */
    assert_close(hp_backoff(&p, NULL, 0, 0.5), 2, EPS);
    /* a state never initialised (prev 0) acts like prev = base */
    st.prev_sleep_s = 0;
    assert_close(hp_backoff(&p, &st, 0, 0.5), 2, EPS);
}

TEST(test_u_clamped)
{
    static const double hi[3] = {1.0, 2.0, INFINITY};
    static const double lo[4] = {-0.0, -1.0, -INFINITY, NAN};
    int i;

    for (i = 0; i < 3; i++) {
        hp_policy p = policy(HP_DECORRELATED_JITTER, 1, 30);
        hp_state st = {.prev_sleep_s = 5};
        double f = sleep1(HP_FULL_JITTER, 1, 30, 2, hi[i]);
        double e = sleep1(HP_EQUAL_JITTER, 1, 30, 2, hi[i]);

        assert_true(f < 4.0 && f > 3.999999);
        assert_true(e < 4.0 && e > 3.999999); /* 2 + 2*(1-2^-53) rounds to 4 */
        /* 1 + u * 14 is 29 for u = 2 and 15 for u = 1; the clamped u gives
         * 1 + (1 - 2^-53) * 14 = 15 - 2^-49 */
        assert_close(hp_backoff(&p, &st, 0, hi[i]), 15 - 0x1p-49, 0);
    }
    for (i = 0; i < 4; i++) {
        assert_close(sleep1(HP_FULL_JITTER, 1, 30, 2, lo[i]), 0, 0);
        assert_close(sleep1(HP_EQUAL_JITTER, 1, 30, 2, lo[i]), 2, 0);
        assert_close(sleep1(HP_DECORRELATED_JITTER, 1, 30, 0, lo[i]), 1, 0);
    }
}

/* ------------------------------------------------------------ saturation */

/* Every strategy at retry n: finite and in [0, cap], also after 50 steps of
 * decorrelated memory. */
static void check_sane(hp_strategy s, double base, double cap, uint32_t n)
{
    static const double us[4] = {0.0, 0.5, 0.999999, 1.0};
    hp_policy p = policy(s, base, cap);
    hp_state st;
    double c = hp_ceiling(&p, n);
    int i, k;

    assert_true(isfinite(c) && c >= 0 && c <= cap);
    for (i = 0; i < 4; i++) {
        hp_state_init(&st, &p);
        for (k = 0; k < 50; k++) {
            double v = hp_backoff(&p, &st, n, us[i]);

            assert_true(isfinite(v) && v >= 0 && v <= cap);
        }
    }
}

TEST(test_saturation)
{
    static const uint32_t ns[9] = {1023,  1024,    1075,     2099,      2100,
                                   10000, 1000000, 1u << 31, UINT32_MAX};
    static const double pairs[6][2] = {{1, 30},       {1e300, 1e300},
                                       {1, 1e300},    {1e-300, 1e300},
                                       {1e-300, 1e-300}, {1, DBL_MAX}};
    int s, i, j;

    for (s = 0; s < HP_STRATEGY_COUNT; s++)
        for (i = 0; i < 6; i++)
            for (j = 0; j < 9; j++)
                check_sane((hp_strategy)s, pairs[i][0], pairs[i][1], ns[j]);

    assert_close(sleep1(HP_EXPONENTIAL, 1, 30, UINT32_MAX, 0), 30, 0);
    assert_close(sleep1(HP_EXPONENTIAL, 1e300, 1e300, 1, 0), 1e300, 0);
    assert_close(sleep1(HP_EXPONENTIAL, 1e300, DBL_MAX, 1, 0), 2e300, EPS);
    /* tiny base: 1e-300 * 2^1024 ~ 1.8e8 is far below cap 1e300, so a
     * shortcut "n >= 1024 -> cap" would be wrong */
    assert_close(sleep1(HP_EXPONENTIAL, 1e-300, 1e300, 1024, 0),
                 ldexp(1e-300, 1024), EPS);
    assert_close(sleep1(HP_EXPONENTIAL, 1e-300, 1e300, 1500, 0),
                 ldexp(1e-300, 1500), EPS);
    assert_close(sleep1(HP_EXPONENTIAL, 1e-300, 1e300, 2000, 0), 1e300, 0);
    /* smallest subnormal base */
    assert_close(sleep1(HP_EXPONENTIAL, 0x1p-1074, 1, 1073, 0), 0.5, 0);
    assert_close(sleep1(HP_EXPONENTIAL, 0x1p-1074, 1, 1074, 0), 1, 0);
    assert_close(sleep1(HP_FULL_JITTER, 1e-300, 1e-300, 5, 0.5), 5e-301, EPS);
}

/* The exponential ceiling, bit for bit, against min(cap, base * 2^n)
 * computed with ldexp (the reference the fast path must agree with), over
 * bases and caps from subnormal to DBL_MAX and n across the fast path's
 * edge (64) and the limits of the exponent. */
TEST(test_exponential_ceiling_exact)
{
    static const double bases[] = {0x1p-1074, 1e-310, DBL_MIN, 1e-300, 0.005, 0.1, 1, 3.7, 1e100, 1e290, 1e300};
    static const double caps[] = {1e-300, 0x1p-958, 0x1p-959, 1e-200, 0.5, 2, 60, 1e300, DBL_MAX};
    for (size_t i = 0; i < sizeof bases / sizeof *bases; i++)
        for (size_t j = 0; j < sizeof caps / sizeof *caps; j++)
            for (uint32_t n = 0; n < 1100; n += n < 70 ? 1 : 37) {
                double b = bases[i], c = caps[j], want;
                if (b >= c)
                    want = c;
                else
                    want = b >= ldexp(c, -(int)n) ? c : ldexp(b, (int)n);
                double got = sleep1(HP_EXPONENTIAL, b, c, n, 0);
                if (got != want)
                    fail_msg("base %a cap %a n %u: %a, want %a", b, c, n, got, want);
            }
}

/* Policies that hp_policy_check() rejects still give finite sleeps in
 * [0, cap]: negative or non-finite times act as their default, and a cap
 * below base wins over base. */
TEST(test_invalid_policy_total)
{
    static const double bad[4] = {-1, NAN, INFINITY, -INFINITY};
    static const uint32_t ns[4] = {0, 3, 1000, UINT32_MAX};
    int i, j, s;

    for (i = 0; i < 4; i++) {
        hp_policy p = policy(HP_EXPONENTIAL, bad[i], 30);

        assert_close(hp_ceiling(&p, 0), HP_DEFAULT_BASE_S, 0);
        p = policy(HP_EXPONENTIAL, 1, bad[i]);
        assert_close(hp_ceiling(&p, 100), HP_DEFAULT_CAP_S, 0);
        p = policy(HP_EXPONENTIAL, bad[i], bad[i]);
        assert_close(hp_ceiling(&p, 3), 0.8, EPS);
    }
    for (s = 0; s < HP_STRATEGY_COUNT; s++)
        for (j = 0; j < 4; j++)
            check_sane((hp_strategy)s, 5, 2, ns[j]);
    assert_close(sleep1(HP_CONSTANT, 5, 2, 0, 0.5), 2, 0);
    assert_close(sleep1(HP_DECORRELATED_JITTER, 5, 2, 0, 0), 2, 0);
    assert_close(sleep1(HP_CONSTANT, 30, 0, 0, 0.5), HP_DEFAULT_CAP_S, 0);
    assert_close(sleep1((hp_strategy)99, 1, 30, 0, 0.5), 30, 0);
}

TEST(test_decorrelated_no_overflow)
{
    hp_policy p = policy(HP_DECORRELATED_JITTER, 1, DBL_MAX);
    hp_state st = {.prev_sleep_s = DBL_MAX}; /* 3 * prev overflows */

    assert_close(hp_backoff(&p, &st, 0, 0), 1, 0);
    st.prev_sleep_s = DBL_MAX;
    assert_close(hp_backoff(&p, &st, 0, 0.5), DBL_MAX, 0);
    st.prev_sleep_s = DBL_MAX;
    assert_close(hp_backoff(&p, &st, 0, 1e-300), 1 + 3e-300 * DBL_MAX, 1e-9);
    /* prev above cap (state from another policy) is treated as cap */
    p.cap_s = 30;
    st.prev_sleep_s = 1e308;
    assert_close(hp_backoff(&p, &st, 0, 0.5), 30, 0);
    st.prev_sleep_s = NAN;
    assert_close(hp_backoff(&p, &st, 0, 0.5), 2, EPS);
}

/* ------------------------------------------------------------ properties */

#define GRID 1000
static const double edge_u[8] = {0.0, -0.0, DBL_MIN, 1e-300, 0.5,
                                 0x1.fffffffffffffp-1, 1.0, NAN};

/* Every strategy, n = 0..200, u on a grid of GRID values plus edge_u:
 * bounds per strategy, monotone in u; ceiling non-decreasing in n. */
static void check_grid(double base, double cap)
{
    hp_policy p = policy(HP_IMMEDIATE, base, cap);
    double prev_c = 0;
    uint32_t n;
    int i, s;

    for (n = 0; n <= 200; n++) {
        double c = hp_ceiling(&p, n);

        assert_true(c >= prev_c && c <= cap && c > 0 && isfinite(c));
        assert_close(c, fmin(cap, base * pow(2.0, n)), EPS);
        prev_c = c;
        for (s = 0; s < HP_STRATEGY_COUNT; s++) {
            double last = -1;

            p.strategy = (hp_strategy)s;
            for (i = 0; i < GRID + 8; i++) {
                double u = i < GRID ? (double)i / GRID : edge_u[i - GRID];
                double v = hp_backoff(&p, NULL, n, u);
                bool ok;

                switch (s) {
                case HP_IMMEDIATE: ok = v == 0; break;
                case HP_CONSTANT: ok = v == fmin(base, cap); break;
                case HP_EXPONENTIAL: ok = v == c; break;
                case HP_FULL_JITTER: ok = v >= 0 && v < c; break;
                case HP_EQUAL_JITTER: ok = v >= c / 2 && v < c; break;
                case HP_RANDOM: /* exponential with mean base, capped: -base ln(1 - u) */
                    ok = v >= 0 && v <= cap &&
                         (v == cap || fabs(v - fmin(cap, -base * log1p(-fmin(fmax(isnan(u) ? 0 : u, 0), 0x1.fffffffffffffp-1)))) <=
                                          1e-12 * fmax(1, v));
                    break;
                default: ok = v >= base && v <= fmin(cap, 3 * base); break;
                }
                if (!ok || !isfinite(v) || v > cap || (i < GRID && v < last))
                    fail_msg("%s n=%u u=%.17g: %.17g (ceiling %.17g)",
                             hp_strategy_name(p.strategy), n, u, v, c);
                if (i < GRID) /* the grid is increasing in u */
                    last = v;
            }
        }
    }
    for (n = 200; n < 5000; n++) {
        double c = hp_ceiling(&p, n);

        assert_true(c >= prev_c && c <= cap);
        prev_c = c;
    }
    assert_true(hp_ceiling(&p, UINT32_MAX) >= prev_c);
}

TEST(test_grid_properties)
{
    check_grid(1, 30);
    check_grid(0.005, 2.0); /* the AWS 2015 model: 5 ms, 2000 ms */
    check_grid(HP_DEFAULT_BASE_S, HP_DEFAULT_CAP_S);
    check_grid(1e-300, 1e300);
    check_grid(3, 3);
}

TEST(test_decorrelated_walks)
{
    static const double pairs[3][2] = {{1, 30}, {0.005, 2.0}, {1e-300, 1e300}};
    uint64_t seed = 42;
    int k, w, i;

    for (k = 0; k < 3; k++) {
        double base = pairs[k][0], cap = pairs[k][1];
        hp_policy p = policy(HP_DECORRELATED_JITTER, base, cap);

        for (w = 0; w < 1000; w++) {
            hp_state st;

            hp_state_init(&st, &p);
            for (i = 0; i < 200; i++) {
                double prev = st.prev_sleep_s, u = unif(&seed);
                hp_state copy = st;
                double v = hp_backoff(&p, &st, (uint32_t)i, u);

                assert_true(isfinite(v));
                assert_true(v >= base && v <= fmin(cap, 3 * prev));
                /* independent of n */
                assert_true(hp_backoff(&p, &copy, UINT32_MAX, u) == v);
            }
        }
    }
}

/* ---------------------------------------------------------- distribution */

#define NSAMP 100000

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Kolmogorov-Smirnov statistic D_n of x[0..n) against U(lo, hi); sorts x. */
static double ks_uniform(double *x, int n, double lo, double hi)
{
    double d = 0;
    int i;

    qsort(x, (size_t)n, sizeof *x, cmp_double);
    for (i = 0; i < n; i++) {
        double f = (x[i] - lo) / (hi - lo);

        d = fmax(d, fmax((double)(i + 1) / n - f, f - (double)i / n));
    }
    return d;
}

/*
 * Draws NSAMP sleeps (fixed seed) from a state whose decorrelated memory is
 * prev, and checks them against U(lo, hi):
 *  - every sample in [lo, hi) ([lo, hi] for decorrelated jitter);
 *  - sample mean within 4.5 standard errors of (lo + hi) / 2, the standard
 *    error being (hi - lo) / sqrt(12) / sqrt(NSAMP): a correct
 *    implementation fails with probability ~7e-6 (two-sided normal tail);
 *  - KS: D_n below the alpha = 0.001 critical value 1.95 / sqrt(NSAMP).
 */
static void check_uniform(hp_strategy s, uint32_t n, double prev, double lo,
                          double hi, uint64_t seed)
{
    hp_policy p = policy(s, 1, 30);
    double *x = malloc(NSAMP * sizeof *x);
    double sum = 0, se, d;
    int i, bad = -1;

    assert_non_null(x);
    for (i = 0; i < NSAMP; i++) {
        hp_state st = {.prev_sleep_s = prev};

        x[i] = hp_backoff(&p, &st, n, unif(&seed));
        sum += x[i];
        if (bad < 0 && !(x[i] >= lo && (x[i] < hi || (x[i] == hi &&
                                        s == HP_DECORRELATED_JITTER))))
            bad = i;
    }
    se = (hi - lo) / sqrt(12.0) / sqrt((double)NSAMP);
    d = ks_uniform(x, NSAMP, lo, hi);
    free(x);
    assert_int_equal(bad, -1);
    assert_true(fabs(sum / NSAMP - (lo + hi) / 2) < 4.5 * se);
    assert_true(d < 1.95 / sqrt((double)NSAMP));
}

TEST(test_distributions)
{
    check_uniform(HP_FULL_JITTER, 3, 1, 0, 8, 1);          /* ceiling 8 */
    check_uniform(HP_FULL_JITTER, 9, 1, 0, 30, 2);         /* capped */
    check_uniform(HP_EQUAL_JITTER, 4, 1, 8, 16, 3);        /* mean 0.75 * 16 */
    check_uniform(HP_DECORRELATED_JITTER, 0, 1, 1, 3, 4);  /* U(base, 3) */
    check_uniform(HP_DECORRELATED_JITTER, 7, 5, 1, 15, 5); /* U(base, 15) */
}

/* -------------------------------------------------------- classification */

TEST(test_classify_table)
{
    static const struct {
        int outcome;
        hp_class cls;
    } t[] = {
        {200, HP_CLASS_OK}, {201, HP_CLASS_OK}, {204, HP_CLASS_OK},
        {299, HP_CLASS_OK}, {429, HP_CLASS_RATE_LIMITED},
        {500, HP_CLASS_SERVER}, {502, HP_CLASS_SERVER}, {503, HP_CLASS_SERVER},
        {504, HP_CLASS_SERVER}, {501, HP_CLASS_NOT_IMPLEMENTED},
        {400, HP_CLASS_BAD_REQUEST}, {422, HP_CLASS_BAD_REQUEST},
        {401, HP_CLASS_AUTH}, {402, HP_CLASS_AUTH}, {403, HP_CLASS_AUTH},
        {404, HP_CLASS_NOT_FOUND}, {HP_OUTCOME_TIMEOUT, HP_CLASS_TIMEOUT},
        {HP_OUTCOME_CONN_REFUSED, HP_CLASS_CONNECTION},
        {HP_OUTCOME_CONN_RESET, HP_CLASS_CONNECTION},
        {HP_OUTCOME_UNKNOWN, HP_CLASS_UNKNOWN}, {199, HP_CLASS_UNKNOWN},
        {300, HP_CLASS_UNKNOWN}, {418, HP_CLASS_UNKNOWN}, {409, HP_CLASS_CONFLICT}, {505, HP_CLASS_UNKNOWN},
        {408, HP_CLASS_REQUEST_TIMEOUT}, {529, HP_CLASS_OVERLOADED},
        {599, HP_CLASS_UNKNOWN}, {0, HP_CLASS_UNKNOWN}, {-5, HP_CLASS_UNKNOWN},
        {1000, HP_CLASS_UNKNOWN}, {INT_MIN, HP_CLASS_UNKNOWN},
        {INT_MAX, HP_CLASS_UNKNOWN},
    };
    size_t i;

    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        if (hp_classify(t[i].outcome) != t[i].cls)
            fail_msg("outcome %d: class %s, want %s", t[i].outcome,
                     hp_class_name(hp_classify(t[i].outcome)),
                     hp_class_name(t[i].cls));
}

/* Every outcome around the classified range, against the documented list:
 * 2xx is OK, the listed codes their class, everything else UNKNOWN (the
 * library classifies by table; a stray entry or a lost one shows here). */
TEST(test_classify_every_outcome)
{
    for (int o = -20; o <= 1100; o++) {
        hp_class want = HP_CLASS_UNKNOWN;
        if (o >= 200 && o <= 299)
            want = HP_CLASS_OK;
        else if (o == 429)
            want = HP_CLASS_RATE_LIMITED;
        else if (o == 500 || o == 502 || o == 503 || o == 504)
            want = HP_CLASS_SERVER;
        else if (o == 501)
            want = HP_CLASS_NOT_IMPLEMENTED;
        else if (o == 400 || o == 422)
            want = HP_CLASS_BAD_REQUEST;
        else if (o == 401 || o == 402 || o == 403)
            want = HP_CLASS_AUTH;
        else if (o == 404)
            want = HP_CLASS_NOT_FOUND;
        else if (o == 409)
            want = HP_CLASS_CONFLICT;
        else if (o == 408)
            want = HP_CLASS_REQUEST_TIMEOUT;
        else if (o == 529)
            want = HP_CLASS_OVERLOADED;
        else if (o == HP_OUTCOME_TIMEOUT)
            want = HP_CLASS_TIMEOUT;
        else if (o == HP_OUTCOME_CONN_REFUSED || o == HP_OUTCOME_CONN_RESET)
            want = HP_CLASS_CONNECTION;
        if (hp_classify(o) != want)
            fail_msg("outcome %d: class %s, want %s", o, hp_class_name(hp_classify(o)), hp_class_name(want));
    }
}

TEST(test_retryable)
{
    /* [class] = {with HP_UNKNOWN_RETRY, with HP_UNKNOWN_FAIL} */
    static const bool want[HP_CLASS_COUNT][2] = {
        [HP_CLASS_OK] = {0, 0},          [HP_CLASS_RATE_LIMITED] = {1, 1},
        [HP_CLASS_SERVER] = {1, 1},      [HP_CLASS_NOT_IMPLEMENTED] = {0, 0},
        [HP_CLASS_BAD_REQUEST] = {0, 0}, [HP_CLASS_AUTH] = {0, 0},
        [HP_CLASS_NOT_FOUND] = {0, 0},   [HP_CLASS_TIMEOUT] = {1, 1},
        [HP_CLASS_CONNECTION] = {1, 1},  [HP_CLASS_UNKNOWN] = {1, 0},
        [HP_CLASS_CONFLICT] = {1, 1},    [HP_CLASS_REQUEST_TIMEOUT] = {1, 1},
        [HP_CLASS_OVERLOADED] = {1, 1},
    };
    hp_policy p = hp_policy_defaults();
    int c;

    for (c = 0; c < HP_CLASS_COUNT; c++) {
        p.unknown = HP_UNKNOWN_RETRY;
        assert_int_equal(hp_retryable(&p, (hp_class)c), want[c][0]);
        p.unknown = HP_UNKNOWN_FAIL;
        assert_int_equal(hp_retryable(&p, (hp_class)c), want[c][1]);
    }
    /* retry_only narrows the table, never widens it */
    p.unknown = HP_UNKNOWN_RETRY;
    p.retry_only = 1u << HP_CLASS_TIMEOUT | 1u << HP_CLASS_NOT_FOUND;
    for (c = 0; c < HP_CLASS_COUNT; c++)
        assert_int_equal(hp_retryable(&p, (hp_class)c), c == HP_CLASS_TIMEOUT);
    hp_state st;
    hp_state_init(&st, &p);
    hp_on_attempt(&st);
    hp_decision d = hp_decide(&p, &st, 503, 0, 0.5);
    assert_int_equal(d.action, HP_GIVE_UP);
    assert_int_equal(d.reason, HP_REASON_NON_RETRYABLE);
}

/* ---------------------------------------------------------------- decide */

TEST(test_decide_attempts)
{
    static const double want_delay[3] = {1, 2, 4};
    hp_policy p = policy(HP_EXPONENTIAL, 1, 30);
    hp_state st;
    hp_decision d;
    int attempts = 0;

    p.max_attempts = 4;
    hp_state_init(&st, &p);
    for (;;) {
        hp_on_attempt(&st);
        attempts++;
        assert_true(attempts <= 10);
        d = hp_decide(&p, &st, 503, attempts, 0.5);
        if (d.action != HP_RETRY)
            break;
        assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_SERVER);
        assert_close(d.delay_s, want_delay[attempts - 1], 0);
    }
    assert_decision(d, HP_GIVE_UP, HP_REASON_ATTEMPTS, HP_CLASS_SERVER);
    assert_int_equal(attempts, 4);
    assert_int_equal(st.attempts, 4);
    assert_int_equal(st.retries, 3);

    p.max_attempts = 1; /* no retry at all */
    hp_state_init(&st, &p);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, HP_OUTCOME_CONN_RESET, 0, 0.5);
    assert_decision(d, HP_GIVE_UP, HP_REASON_ATTEMPTS, HP_CLASS_CONNECTION);
}

/* One attempt from a fresh state, then hp_decide(): exponential, base 1,
 * cap 30, so a retry sleeps exactly 1 s. */
TEST(test_decide_table)
{
    enum { F = HP_UNKNOWN_FAIL, NI = 1 }; /* unknown = FAIL; non_idempotent */
    static const struct {
        int unknown, non_idem, max_attempts, outcome;
        hp_action act;
        hp_reason rsn;
        hp_class cls;
    } t[] = {
        {0, 0, 0, 200, HP_DONE_OK, HP_REASON_NONE, HP_CLASS_OK},
        {0, 0, 1, 204, HP_DONE_OK, HP_REASON_NONE, HP_CLASS_OK},
        {0, 0, 0, 400, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_BAD_REQUEST},
        {0, 0, 0, 401, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_AUTH},
        {0, 0, 0, 402, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_AUTH},
        {0, 0, 0, 403, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_AUTH},
        {0, 0, 0, 404, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_NOT_FOUND},
        {0, 0, 0, 422, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_BAD_REQUEST},
        {0, 0, 0, 501, HP_GIVE_UP, HP_REASON_NON_RETRYABLE,
         HP_CLASS_NOT_IMPLEMENTED},
        {0, 0, 1, 404, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_NOT_FOUND},
        {0, 0, 0, HP_OUTCOME_TIMEOUT, HP_RETRY, HP_REASON_NONE, HP_CLASS_TIMEOUT},
        {0, NI, 0, HP_OUTCOME_TIMEOUT, HP_GIVE_UP, HP_REASON_UNKNOWN_OUTCOME,
         HP_CLASS_TIMEOUT},
        {0, NI, 1, HP_OUTCOME_TIMEOUT, HP_GIVE_UP, HP_REASON_UNKNOWN_OUTCOME,
         HP_CLASS_TIMEOUT},
        {0, NI, 0, 503, HP_RETRY, HP_REASON_NONE, HP_CLASS_SERVER},
        {0, NI, 0, HP_OUTCOME_CONN_RESET, HP_RETRY, HP_REASON_NONE,
         HP_CLASS_CONNECTION},
        {0, 0, 0, HP_OUTCOME_UNKNOWN, HP_RETRY, HP_REASON_NONE, HP_CLASS_UNKNOWN},
        {0, 0, 0, 418, HP_RETRY, HP_REASON_NONE, HP_CLASS_UNKNOWN},
        {F, 0, 0, HP_OUTCOME_UNKNOWN, HP_GIVE_UP, HP_REASON_NON_RETRYABLE,
         HP_CLASS_UNKNOWN},
        {F, 0, 0, 429, HP_RETRY, HP_REASON_NONE, HP_CLASS_RATE_LIMITED},
        {F, 0, 0, HP_OUTCOME_CONN_REFUSED, HP_RETRY, HP_REASON_NONE,
         HP_CLASS_CONNECTION},
    };
    size_t i;

    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        hp_policy p = policy(HP_EXPONENTIAL, 1, 30);
        hp_state st;
        hp_decision d;
        bool retry = t[i].act == HP_RETRY;

        p.unknown = (hp_unknown_policy)t[i].unknown;
        p.non_idempotent = t[i].non_idem;
        p.max_attempts = (uint32_t)t[i].max_attempts;
        hp_state_init(&st, &p);
        hp_on_attempt(&st);
        d = hp_decide(&p, &st, t[i].outcome, 0, 0.5);
        if (d.action != t[i].act || d.reason != t[i].rsn ||
            d.cls != t[i].cls || d.delay_s != (retry ? 1 : 0) ||
            st.retries != (retry ? 1u : 0u) || st.attempts != 1 ||
            d.retry_after_used)
            fail_msg("row %zu (outcome %d): action %d reason %s class %s "
                     "delay %g retries %u", i, t[i].outcome, d.action,
                     hp_reason_name(d.reason), hp_class_name(d.cls),
                     d.delay_s, st.retries);
    }
}

/* The AWS 2015 simulation counts its first retry as 1: exponent_offset
 * shifts the ceiling, saturating, and leaves decorrelated jitter alone. */
TEST(test_exponent_offset)
{
    hp_policy p = policy(HP_EXPONENTIAL, 1, 100);
    hp_state st;
    const double want[] = {2, 4, 8, 16, 32, 64, 100, 100};
    size_t i;

    p.exponent_offset = 1;
    hp_state_init(&st, &p);
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        hp_on_attempt(&st);
        hp_decision d = hp_decide(&p, &st, 409, 0, 0.5);
        assert_int_equal(d.action, HP_RETRY);
        assert_int_equal(d.cls, HP_CLASS_CONFLICT);
        assert_close(d.delay_s, want[i], EPS);
    }
    p.exponent_offset = UINT32_MAX;
    p.strategy = HP_FULL_JITTER;
    hp_state_init(&st, &p);
    st.retries = 5;
    hp_on_attempt(&st);
    assert_close(hp_decide(&p, &st, 503, 0, 0.5).delay_s, 50, EPS);
}

TEST(test_decide_unlimited)
{
    int s, i;

    for (s = 0; s < HP_STRATEGY_COUNT; s++) {
        hp_policy p = policy((hp_strategy)s, 1, 30);
        hp_state st;
        uint64_t seed = 7;
        double last = 0;

        hp_state_init(&st, &p);
        for (i = 0; i < 10000; i++) {
            hp_decision d;

            hp_on_attempt(&st);
            d = hp_decide(&p, &st, 503, i, unif(&seed));
            assert_int_equal(d.action, HP_RETRY);
            assert_true(isfinite(d.delay_s) && d.delay_s >= 0 &&
                        d.delay_s <= 30);
            if (s == HP_DECORRELATED_JITTER)
                assert_true(st.prev_sleep_s == d.delay_s);
            last = d.delay_s;
        }
        assert_int_equal(st.retries, 10000);
        assert_int_equal(st.attempts, 10000);
        if (s == HP_EXPONENTIAL)
            assert_close(last, 30, 0);
    }
}

TEST(test_counters_saturate)
{
    hp_policy p = policy(HP_EXPONENTIAL, 1, 30);
    hp_state st = {.deadline_s = INFINITY, /* hand-built: no deadline */
                   .attempts = UINT32_MAX, .retries = UINT32_MAX};
    hp_decision d;

    hp_on_attempt(&st);
    assert_true(st.attempts == UINT32_MAX);
    d = hp_decide(&p, &st, 503, 0, 0.5);
    assert_int_equal(d.action, HP_RETRY);
    assert_close(d.delay_s, 30, 0);
    assert_true(st.retries == UINT32_MAX); /* no wrap back to 1 s */
    assert_int_equal(sizeof(hp_state), 24);
}

/* ------------------------------------------------------ budgets, timeouts */

_Static_assert(sizeof(hp_state) == 24, "hp_state is 24 bytes");

static hp_result res(int outcome, double retry_after_s)
{
    hp_result r = {.outcome = outcome, .retry_after_s = retry_after_s};

    return r;
}

TEST(test_state_start)
{
    static const double no_budget[5] = {0, -1, NAN, INFINITY, -INFINITY};
    hp_policy p = policy(HP_DECORRELATED_JITTER, 2, 30);
    hp_state st;
    int i;

    /* hp_state_init: no deadline */
    hp_state_init(&st, &p);
    assert_true(st.deadline_s == INFINITY);
    assert_true(st.prev_sleep_s == 2);

    /* hp_state_start resets a used state and sets the deadline */
    p.budget_s = 10;
    st.attempts = 7;
    st.retries = 6;
    st.prev_sleep_s = 25;
    hp_state_start(&st, &p, 100);
    assert_true(st.deadline_s == 110);
    assert_true(st.prev_sleep_s == 2);
    assert_int_equal(st.attempts, 0);
    assert_int_equal(st.retries, 0);
    hp_state_start(&st, &p, -4.5);
    assert_true(st.deadline_s == 5.5);

    /* no budget (0, or a value hp_policy_check rejects): no deadline */
    for (i = 0; i < 5; i++) {
        p.budget_s = no_budget[i];
        hp_state_start(&st, &p, 100);
        assert_true(st.deadline_s == INFINITY);
    }
    /* a NaN now gives no deadline rather than a NaN one */
    p.budget_s = 10;
    hp_state_start(&st, &p, NAN);
    assert_true(st.deadline_s == INFINITY);
}

TEST(test_attempt_timeout)
{
    hp_policy p = hp_policy_defaults();
    hp_state st;

    /* neither: +infinity, whatever now */
    hp_state_start(&st, &p, 0);
    assert_true(hp_attempt_timeout(&p, &st, 0) == INFINITY);
    assert_true(hp_attempt_timeout(&p, &st, 1e300) == INFINITY);
    assert_true(hp_attempt_timeout(&p, &st, INFINITY) == INFINITY);

    /* per-attempt timeout only */
    p.attempt_timeout_s = 2;
    hp_state_start(&st, &p, 0);
    assert_true(hp_attempt_timeout(&p, &st, 0) == 2);
    assert_true(hp_attempt_timeout(&p, &st, 1e9) == 2);

    /* budget only: what is left of it, then 0 */
    p.attempt_timeout_s = 0;
    p.budget_s = 10;
    hp_state_start(&st, &p, 100);
    assert_true(hp_attempt_timeout(&p, &st, 100) == 10);
    assert_true(hp_attempt_timeout(&p, &st, 105) == 5);
    assert_true(hp_attempt_timeout(&p, &st, 109.75) == 0.25);
    assert_true(hp_attempt_timeout(&p, &st, 110) == 0);
    assert_true(hp_attempt_timeout(&p, &st, 111) == 0);
    assert_true(hp_attempt_timeout(&p, &st, INFINITY) == 0);
    assert_true(hp_attempt_timeout(&p, &st, NAN) == 0);

    /* both: the smaller */
    p.attempt_timeout_s = 2;
    hp_state_start(&st, &p, 100);
    assert_true(hp_attempt_timeout(&p, &st, 100) == 2);
    assert_true(hp_attempt_timeout(&p, &st, 108) == 2);
    assert_true(hp_attempt_timeout(&p, &st, 109) == 1);
    assert_true(hp_attempt_timeout(&p, &st, 109.5) == 0.5);
    assert_true(hp_attempt_timeout(&p, &st, 110) == 0);

    /* a rejected attempt_timeout_s counts as none */
    p.attempt_timeout_s = -1;
    assert_true(hp_attempt_timeout(&p, &st, 100) == 10);
    p.attempt_timeout_s = NAN;
    assert_true(hp_attempt_timeout(&p, &st, 100) == 10);
    p.budget_s = 0;
    hp_state_start(&st, &p, 100);
    assert_true(hp_attempt_timeout(&p, &st, 100) == INFINITY);
}

/* Every attempt fails at once with 503: exponential base 1 sleeps 1, 2, 4
 * (t = 1, 3, 7), then 8 would end at 15 >= 10. */
TEST(test_budget_decide)
{
    static const double want[3] = {1, 2, 4};
    hp_policy p = policy(HP_EXPONENTIAL, 1, 30);
    hp_state st;
    hp_decision d;
    double t = 0;
    int i;

    p.budget_s = 10;
    hp_state_start(&st, &p, 0);
    for (i = 0; i < 3; i++) {
        hp_on_attempt(&st);
        d = hp_decide(&p, &st, 503, t, 0.5);
        assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_SERVER);
        assert_true(d.delay_s == want[i]);
        t += d.delay_s;
    }
    assert_true(t == 7);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 503, t, 0.5);
    assert_decision(d, HP_GIVE_UP, HP_REASON_BUDGET, HP_CLASS_SERVER);
    assert_true(d.delay_s == 0);
    assert_false(d.retry_after_used);
    assert_int_equal(st.retries, 3); /* the give-up is not a retry */
    assert_int_equal(st.attempts, 4);
    /* the same again: nothing changed, still the budget */
    d = hp_decide(&p, &st, 503, t, 0.5);
    assert_decision(d, HP_GIVE_UP, HP_REASON_BUDGET, HP_CLASS_SERVER);
    assert_int_equal(st.retries, 3);

    /* without a budget the same walk retries on */
    p.budget_s = 0;
    hp_state_start(&st, &p, 0);
    st.retries = 3;
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 503, 1e300, 0.5);
    assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_SERVER);
    assert_true(d.delay_s == 8);
}

/* now + sleep reaching the deadline exactly gives up; a hair before does not. */
TEST(test_budget_boundary)
{
    hp_policy p = policy(HP_EXPONENTIAL, 1, 30);
    hp_state st;
    hp_decision d;

    p.budget_s = 10;
    hp_state_start(&st, &p, 0); /* deadline 10, first sleep 1 */
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 503, 9, 0.5);
    assert_decision(d, HP_GIVE_UP, HP_REASON_BUDGET, HP_CLASS_SERVER);
    assert_int_equal(st.retries, 0);
    d = hp_decide(&p, &st, 503, nextafter(9, 0), 0.5);
    assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_SERVER);
    assert_true(d.delay_s == 1);
    assert_int_equal(st.retries, 1);

    /* a Retry-After that reaches the deadline */
    hp_state_start(&st, &p, 0);
    hp_on_attempt(&st);
    d = hp_decide_result(&p, &st, res(429, 10), 0, 0.5);
    assert_decision(d, HP_GIVE_UP, HP_REASON_BUDGET, HP_CLASS_RATE_LIMITED);
    assert_false(d.retry_after_used);
    assert_int_equal(st.retries, 0);
    d = hp_decide_result(&p, &st, res(429, 9.75), 0, 0.5);
    assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_RATE_LIMITED);
    assert_true(d.delay_s == 9.75 && d.retry_after_used);

    /* immediate retries: 0 sleep still may not start at the deadline */
    p.strategy = HP_IMMEDIATE;
    hp_state_start(&st, &p, 0);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 503, 10, 0.5);
    assert_decision(d, HP_GIVE_UP, HP_REASON_BUDGET, HP_CLASS_SERVER);
    d = hp_decide(&p, &st, 503, 9.5, 0.5);
    assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_SERVER);

    /* the other reasons come first */
    p.strategy = HP_EXPONENTIAL;
    hp_state_start(&st, &p, 0);
    hp_on_attempt(&st);
    assert_decision(hp_decide(&p, &st, 200, 50, 0.5), HP_DONE_OK,
                    HP_REASON_NONE, HP_CLASS_OK);
    assert_decision(hp_decide(&p, &st, 404, 50, 0.5), HP_GIVE_UP,
                    HP_REASON_NON_RETRYABLE, HP_CLASS_NOT_FOUND);
    p.max_attempts = 1;
    assert_decision(hp_decide(&p, &st, 503, 50, 0.5), HP_GIVE_UP,
                    HP_REASON_ATTEMPTS, HP_CLASS_SERVER);
    p.non_idempotent = true;
    assert_decision(hp_decide(&p, &st, HP_OUTCOME_TIMEOUT, 50, 0.5), HP_GIVE_UP,
                    HP_REASON_UNKNOWN_OUTCOME, HP_CLASS_TIMEOUT);
}

/* A budget give-up leaves the decorrelated memory as it was. */
TEST(test_budget_keeps_state)
{
    hp_policy p = policy(HP_DECORRELATED_JITTER, 1, 30);
    hp_state st, before;
    hp_decision d;

    p.budget_s = 5;
    hp_state_start(&st, &p, 0);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 503, 0, 0.5); /* 1 + 0.5 * 2 = 2 */
    assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_SERVER);
    assert_true(d.delay_s == 2 && st.prev_sleep_s == 2);
    hp_on_attempt(&st);
    before = st;
    d = hp_decide(&p, &st, 503, 2, 0.5); /* 1 + 0.5 * 5 = 3.5: 5.5 >= 5 */
    assert_decision(d, HP_GIVE_UP, HP_REASON_BUDGET, HP_CLASS_SERVER);
    assert_true(st.prev_sleep_s == before.prev_sleep_s);
    assert_true(st.deadline_s == before.deadline_s);
    assert_int_equal(st.retries, before.retries);
    assert_int_equal(st.attempts, before.attempts);
}

/* on_timeout x non_idempotent x idempotency_key, one timed-out attempt. */
TEST(test_timeout_truth_table)
{
    enum { R = 1, G = 0 }; /* retry; give up as an unknown outcome */
    static const struct {
        hp_timeout_policy on;
        bool non_idem, key;
        int want;
    } t[] = {
        {HP_TIMEOUT_IF_IDEMPOTENT, false, false, R},
        {HP_TIMEOUT_IF_IDEMPOTENT, false, true, R},
        {HP_TIMEOUT_IF_IDEMPOTENT, true, false, G},
        {HP_TIMEOUT_IF_IDEMPOTENT, true, true, R},
        {HP_TIMEOUT_ALWAYS, false, false, R},
        {HP_TIMEOUT_ALWAYS, false, true, R},
        {HP_TIMEOUT_ALWAYS, true, false, R},
        {HP_TIMEOUT_ALWAYS, true, true, R},
        {HP_TIMEOUT_NEVER, false, false, G},
        {HP_TIMEOUT_NEVER, false, true, G},
        {HP_TIMEOUT_NEVER, true, false, G},
        {HP_TIMEOUT_NEVER, true, true, G},
        /* out of range: as the default */
        {(hp_timeout_policy)3, true, false, G},
        {(hp_timeout_policy)3, true, true, R},
        {(hp_timeout_policy)-1, false, false, R},
    };
    size_t i;

    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        hp_policy p = policy(HP_EXPONENTIAL, 1, 30);
        hp_state st;
        hp_decision d;

        p.on_timeout = t[i].on;
        p.non_idempotent = t[i].non_idem;
        p.idempotency_key = t[i].key;
        hp_state_init(&st, &p);
        hp_on_attempt(&st);
        d = hp_decide(&p, &st, HP_OUTCOME_TIMEOUT, 0, 0.5);
        if (t[i].want == R ? d.action != HP_RETRY || d.reason != HP_REASON_NONE ||
                                 d.delay_s != 1 || st.retries != 1
                           : d.action != HP_GIVE_UP ||
                                 d.reason != HP_REASON_UNKNOWN_OUTCOME ||
                                 st.retries != 0)
            fail_msg("row %zu: action %d reason %s delay %g retries %u", i,
                     d.action, hp_reason_name(d.reason), d.delay_s, st.retries);
        assert_int_equal(d.cls, HP_CLASS_TIMEOUT);

        /* the unknown outcome comes before max_attempts */
        p.max_attempts = 1;
        d = hp_decide(&p, &st, HP_OUTCOME_TIMEOUT, 0, 0.5);
        assert_int_equal(d.reason, t[i].want == R ? HP_REASON_ATTEMPTS
                                                  : HP_REASON_UNKNOWN_OUTCOME);
        /* on_timeout is about timeouts only */
        p.max_attempts = 0;
        d = hp_decide(&p, &st, HP_OUTCOME_CONN_RESET, 0, 0.5);
        assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_CONNECTION);
    }
}

TEST(test_not_found_ok_on_retry)
{
    hp_policy p = policy(HP_EXPONENTIAL, 1, 30);
    hp_state st;
    hp_decision d;

    p.not_found_ok_on_retry = true;
    /* the first attempt's 404 is a plain 404 */
    hp_state_init(&st, &p);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 404, 0, 0.5);
    assert_decision(d, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_NOT_FOUND);

    /* a 404 after a retry: an earlier attempt deleted it */
    hp_state_init(&st, &p);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, HP_OUTCOME_TIMEOUT, 0, 0.5);
    assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_TIMEOUT);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 404, 1, 0.5);
    assert_decision(d, HP_DONE_OK, HP_REASON_NONE, HP_CLASS_NOT_FOUND);
    assert_true(d.delay_s == 0);
    assert_int_equal(st.retries, 1);
    /* ... even with max_attempts reached and the deadline passed */
    p.max_attempts = 2;
    p.budget_s = 1;
    d = hp_decide_result(&p, &st, res(404, 30), 100, 0.5);
    assert_decision(d, HP_DONE_OK, HP_REASON_NONE, HP_CLASS_NOT_FOUND);
    assert_false(d.retry_after_used);

    /* without the flag the second 404 is still not found */
    p.not_found_ok_on_retry = false;
    d = hp_decide(&p, &st, 404, 1, 0.5);
    assert_decision(d, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_NOT_FOUND);
    /* and the flag does not touch other codes */
    p.not_found_ok_on_retry = true;
    d = hp_decide(&p, &st, 410, 1, 0.5);
    assert_int_equal(d.cls, HP_CLASS_UNKNOWN);
    assert_int_equal(d.reason, HP_REASON_ATTEMPTS);
    d = hp_decide(&p, &st, 403, 1, 0.5);
    assert_decision(d, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_AUTH);
}

/* Exponential base 1: the first retry's own backoff is exactly 1 s. */
TEST(test_retry_after)
{
    static const struct {
        double ra_max, ra;
        bool ignore;
        double delay;
        bool used;
    } t[] = {
        {0, 5, false, 5, true},              /* longer: honoured */
        {0, 0.5, false, 1, false},           /* shorter: the backoff */
        {0, 1, false, 1, false},             /* equal: the backoff */
        {0, 0, false, 1, false},
        {0, -1, false, 1, false},            /* none given */
        {0, -0.0, false, 1, false},
        {0, NAN, false, 1, false},
        {0, 500, false, 120, true},          /* clamped to the default */
        {0, 120, false, 120, true},
        {0, INFINITY, false, 120, true},
        {30, 500, false, 30, true},          /* clamped to retry_after_max_s */
        {30, 29.5, false, 29.5, true},
        {2, 5, false, 2, true},
        {0.5, 5, false, 1, false},           /* clamped below the backoff */
        {HP_OFF, 500, false, 1, false},      /* HP_OFF: nothing honoured beyond 0 s */
        {-2, 500, false, 1, false},          /* any negative reads as HP_OFF */
        {NAN, 500, false, 120, true},
        {0, 5, true, 1, false},              /* ignored */
        {30, 500, true, 1, false},
    };
    size_t i;

    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        hp_policy p = policy(HP_EXPONENTIAL, 1, 30);
        hp_state st;
        hp_decision d;

        p.retry_after_max_s = t[i].ra_max;
        p.ignore_retry_after = t[i].ignore;
        hp_state_init(&st, &p);
        hp_on_attempt(&st);
        d = hp_decide_result(&p, &st, res(429, t[i].ra), 0, 0.5);
        if (d.action != HP_RETRY || d.delay_s != t[i].delay ||
            d.retry_after_used != t[i].used || st.retries != 1)
            fail_msg("row %zu: action %d delay %g used %d retries %u", i,
                     d.action, d.delay_s, d.retry_after_used, st.retries);
    }
}

TEST(test_retry_after_classes)
{
    hp_policy p = policy(HP_FULL_JITTER, 1, 30);
    hp_state st;
    hp_decision d;

    hp_state_init(&st, &p);
    hp_on_attempt(&st);
    /* any retryable class: here a 503 whose backoff draw is 0 */
    d = hp_decide_result(&p, &st, res(503, 3), 0, 0.0);
    assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_SERVER);
    assert_true(d.delay_s == 3 && d.retry_after_used);
    /* a Retry-After does not make a class retryable */
    d = hp_decide_result(&p, &st, res(400, 3), 0, 0.0);
    assert_decision(d, HP_GIVE_UP, HP_REASON_NON_RETRYABLE,
                    HP_CLASS_BAD_REQUEST);
    assert_false(d.retry_after_used);
    d = hp_decide_result(&p, &st, res(200, 3), 0, 0.0);
    assert_decision(d, HP_DONE_OK, HP_REASON_NONE, HP_CLASS_OK);
    assert_false(d.retry_after_used);
    assert_int_equal(st.retries, 1);

    /* the decorrelated memory keeps the policy's own draw */
    p = policy(HP_DECORRELATED_JITTER, 1, 30);
    hp_state_init(&st, &p);
    hp_on_attempt(&st);
    d = hp_decide_result(&p, &st, res(429, 10), 0, 0.5);
    assert_true(d.delay_s == 10 && d.retry_after_used);
    assert_true(st.prev_sleep_s == 2);
}

/* hp_decide is hp_decide_result without a Retry-After. */
TEST(test_decide_is_decide_result)
{
    static const int outcomes[] = {200, 404, 409, 429, 503, 501, 418,
                                   HP_OUTCOME_TIMEOUT, HP_OUTCOME_CONN_RESET};
    uint64_t seed = 99;
    int s, k, i;

    for (s = 0; s < HP_STRATEGY_COUNT; s++) {
        for (k = 0; k < 8; k++) {
            hp_policy p = policy((hp_strategy)s, 0.5, 8);
            hp_state a, b;

            p.max_attempts = (uint32_t)(k % 3) * 3;
            p.non_idempotent = k & 1;
            p.not_found_ok_on_retry = (k & 2) != 0;
            p.budget_s = k & 4 ? 20 : 0;
            hp_state_start(&a, &p, 0);
            hp_state_start(&b, &p, 0);
            for (i = 0; i < 40; i++) {
                int o = outcomes[splitmix64(&seed) % 9];
                double u = unif(&seed), now = i;
                hp_decision da, db;

                hp_on_attempt(&a);
                hp_on_attempt(&b);
                da = hp_decide(&p, &a, o, now, u);
                db = hp_decide_result(&p, &b, res(o, -1), now, u);
                assert_true(da.action == db.action && da.reason == db.reason &&
                            da.cls == db.cls && da.delay_s == db.delay_s &&
                            !da.retry_after_used && !db.retry_after_used);
                assert_true(memcmp(&a, &b, sizeof a) == 0);
            }
        }
    }
}

/* ------------------------------------------------------------- presets */

TEST(test_presets)
{
    static const struct {
        hp_side_effect e;
        uint32_t attempts;
        double base, cap;
        bool non_idem, nf_ok;
    } t[] = {
        {HP_EFFECT_READ, 5, 0.5, 8, false, false},
        {HP_EFFECT_REVERSIBLE, 3, 1, 10, true, false},
        {HP_EFFECT_IRREVERSIBLE, 1, HP_DEFAULT_BASE_S, HP_DEFAULT_CAP_S, true,
         false},
        {HP_EFFECT_DESTRUCTIVE, 2, 1, 5, false, true},
    };
    size_t i;

    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        hp_policy p = hp_policy_preset(t[i].e);

        assert_null(hp_policy_check(&p));
        assert_int_equal(p.strategy, HP_FULL_JITTER);
        assert_int_equal(p.max_attempts, t[i].attempts);
        assert_true(p.base_s == t[i].base && p.cap_s == t[i].cap);
        assert_int_equal(p.non_idempotent, t[i].non_idem);
        assert_int_equal(p.not_found_ok_on_retry, t[i].nf_ok);
        /* everything else at its default */
        assert_int_equal(p.unknown, HP_UNKNOWN_RETRY);
        assert_int_equal(p.exponent_offset, 0);
        assert_true(p.attempt_timeout_s == 0 && p.budget_s == 0);
        assert_int_equal(p.on_timeout, HP_TIMEOUT_IF_IDEMPOTENT);
        assert_false(p.idempotency_key);
        assert_false(p.ignore_retry_after);
        assert_true(p.retry_after_max_s == HP_DEFAULT_RETRY_AFTER_MAX_S);
    }
    /* an out-of-range level gets the preset that never retries */
    {
        hp_policy p = hp_policy_preset(HP_EFFECT_COUNT);
        hp_policy q = hp_policy_preset(HP_EFFECT_IRREVERSIBLE);

        assert_int_equal(p.max_attempts, 1);
        assert_true(p.non_idempotent && p.strategy == q.strategy &&
                    p.base_s == q.base_s && p.cap_s == q.cap_s);
    }
}

/* What the presets do with the outcomes that matter per side-effect level. */
TEST(test_preset_behaviour)
{
    hp_policy p;
    hp_state st;
    hp_decision d;
    int n;

    /* read: 5 attempts, timeouts retried */
    p = hp_policy_preset(HP_EFFECT_READ);
    hp_state_init(&st, &p);
    for (n = 1;; n++) {
        hp_on_attempt(&st);
        d = hp_decide(&p, &st, HP_OUTCOME_TIMEOUT, 0, 0.999);
        if (d.action != HP_RETRY)
            break;
        assert_true(d.delay_s < hp_ceiling(&p, (uint32_t)n - 1));
    }
    assert_int_equal(n, 5);
    assert_int_equal(d.reason, HP_REASON_ATTEMPTS);

    /* reversible: a timeout is an unknown outcome unless a key is sent */
    p = hp_policy_preset(HP_EFFECT_REVERSIBLE);
    hp_state_init(&st, &p);
    hp_on_attempt(&st);
    assert_int_equal(hp_decide(&p, &st, HP_OUTCOME_TIMEOUT, 0, 0.5).reason,
                     HP_REASON_UNKNOWN_OUTCOME);
    p.idempotency_key = true;
    assert_int_equal(hp_decide(&p, &st, HP_OUTCOME_TIMEOUT, 0, 0.5).action,
                     HP_RETRY);

    /* irreversible: no automatic retry, even for a refused connection */
    p = hp_policy_preset(HP_EFFECT_IRREVERSIBLE);
    hp_state_init(&st, &p);
    hp_on_attempt(&st);
    assert_int_equal(hp_decide(&p, &st, HP_OUTCOME_CONN_REFUSED, 0, 0.5).reason,
                     HP_REASON_ATTEMPTS);
    assert_int_equal(hp_decide(&p, &st, HP_OUTCOME_TIMEOUT, 0, 0.5).reason,
                     HP_REASON_UNKNOWN_OUTCOME);

    /* destructive: timeout, retry, 404 = done */
    p = hp_policy_preset(HP_EFFECT_DESTRUCTIVE);
    hp_state_init(&st, &p);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, HP_OUTCOME_TIMEOUT, 0, 0.5);
    assert_decision(d, HP_RETRY, HP_REASON_NONE, HP_CLASS_TIMEOUT);
    assert_true(d.delay_s == 0.5); /* 0.5 * ceiling 1 */
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 404, 1, 0.5);
    assert_decision(d, HP_DONE_OK, HP_REASON_NONE, HP_CLASS_NOT_FOUND);
}

TEST(test_effect_names)
{
    static const char *const names[HP_EFFECT_COUNT] = {
        "read", "reversible", "irreversible", "destructive"};
    static const char *const bad[6] = {"Read", "", "none", "read ",
                                       "destruct", "writes"};
    hp_side_effect out;
    int i;

    for (i = 0; i < HP_EFFECT_COUNT; i++) {
        assert_string_equal(hp_effect_name((hp_side_effect)i), names[i]);
        out = HP_EFFECT_COUNT;
        assert_int_equal(hp_effect_parse(names[i], &out), 0);
        assert_int_equal(out, i);
    }
    for (i = 0; i < 6; i++) {
        out = HP_EFFECT_DESTRUCTIVE;
        assert_int_equal(hp_effect_parse(bad[i], &out), -1);
        assert_int_equal(out, HP_EFFECT_DESTRUCTIVE); /* untouched */
    }
    assert_int_equal(hp_effect_parse(NULL, &out), -1);
    assert_null(hp_effect_name(HP_EFFECT_COUNT));
    assert_null(hp_effect_name((hp_side_effect)-1));
}

TEST(test_policy_check_new_fields)
{
    enum { TIMEOUT, BUDGET, RA_MAX };
    static const struct {
        int field;
        double v;
        const char *msg;
    } t[] = {
        {TIMEOUT, -1, "attempt_timeout_s is negative"},
        {TIMEOUT, NAN, "attempt_timeout_s is NaN"},
        {TIMEOUT, INFINITY, "attempt_timeout_s is infinite"},
        {TIMEOUT, -INFINITY, "attempt_timeout_s is infinite"},
        {BUDGET, -0.5, "budget_s is negative"},
        {BUDGET, NAN, "budget_s is NaN"},
        {BUDGET, INFINITY, "budget_s is infinite"},
        {RA_MAX, -1e-300, "retry_after_max_s is negative (HP_OFF for 0)"},
        {RA_MAX, -2, "retry_after_max_s is negative (HP_OFF for 0)"},
        {RA_MAX, HP_OFF, NULL},
        {RA_MAX, NAN, "retry_after_max_s is NaN"},
        {RA_MAX, INFINITY, "retry_after_max_s is infinite"},
        {TIMEOUT, 0, NULL}, {TIMEOUT, 1e-9, NULL}, {TIMEOUT, 3600, NULL},
        {BUDGET, 0, NULL},  {BUDGET, 0.25, NULL},  {RA_MAX, 0, NULL},
        {RA_MAX, 1, NULL},  {RA_MAX, 86400, NULL}, {TIMEOUT, -0.0, NULL},
    };
    size_t i;

    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        hp_policy p = hp_policy_defaults();
        const char *got;

        if (t[i].field == TIMEOUT)
            p.attempt_timeout_s = t[i].v;
        else if (t[i].field == BUDGET)
            p.budget_s = t[i].v;
        else
            p.retry_after_max_s = t[i].v;
        got = hp_policy_check(&p);
        if (t[i].msg == NULL ? got != NULL
                             : got == NULL || strcmp(got, t[i].msg) != 0)
            fail_msg("row %zu: \"%s\", want \"%s\"", i, got ? got : "(null)",
                     t[i].msg ? t[i].msg : "(null)");
    }
    {
        hp_policy p = hp_policy_defaults();

        p.on_timeout = HP_TIMEOUT_NEVER;
        assert_null(hp_policy_check(&p));
        p.on_timeout = (hp_timeout_policy)3;
        assert_string_equal(hp_policy_check(&p), "on_timeout is out of range");
        p.on_timeout = (hp_timeout_policy)-1;
        assert_string_equal(hp_policy_check(&p), "on_timeout is out of range");
    }
}

/* HP_RANDOM: exact inversion for each delay kind, independent of n, capped,
 * finite at u -> 1; the policy check refuses bad parameters. */
TEST(test_random_strategy)
{
    hp_policy p = policy(HP_RANDOM, 1, 100);
    p.delay_kind = HP_DELAY_EXPONENTIAL;
    p.delay_a = 2;
    assert_close(hp_backoff(&p, NULL, 0, 0.0), 0, 0);
    assert_close(hp_backoff(&p, NULL, 7, 0.5), 2 * log(2.0), 1e-15);
    assert_close(hp_backoff(&p, NULL, 0, 1 - 1e-9), -2 * log1p(-(1 - 1e-9)), 1e-9);
    assert_true(hp_backoff(&p, NULL, 0, 1.0) <= 100 && isfinite(hp_backoff(&p, NULL, 0, 1.0)));
    p.cap_s = 1;
    assert_close(hp_backoff(&p, NULL, 0, 0.9), 1, 0); /* capped */
    p.cap_s = 100;
    p.delay_a = 0; /* mean defaults to base */
    assert_close(hp_backoff(&p, NULL, 0, 0.5), log(2.0), 1e-15);
    p.delay_kind = HP_DELAY_UNIFORM;
    p.delay_a = 2;
    p.delay_b = 6;
    assert_close(hp_backoff(&p, NULL, 3, 0.25), 3, 1e-15);
    assert_true(hp_backoff(&p, NULL, 3, 0x1.fffffffffffffp-1) < 6);
    p.delay_kind = HP_DELAY_CONSTANT;
    assert_close(hp_backoff(&p, NULL, 9, 0.7), 2, 0);
    assert_null(hp_policy_check(&p));
    p.delay_kind = HP_DELAY_UNIFORM;
    p.delay_b = 1;
    assert_string_equal(hp_policy_check(&p), "a uniform delay needs delay_b >= delay_a");
    p.delay_b = NAN;
    assert_string_equal(hp_policy_check(&p), "delay_a and delay_b must be finite and >= 0");
    p.delay_b = 3;
    p.delay_kind = (hp_delay_kind)7;
    assert_string_equal(hp_policy_check(&p), "delay_kind is out of range");
}

/* ------------------------------------------------- names, checks, defaults */

TEST(test_names)
{
    static const char *const strat[HP_STRATEGY_COUNT] = {
        "immediate",   "constant",     "exponential",
        "full_jitter", "equal_jitter", "decorrelated_jitter", "random"};
    static const char *const cls[HP_CLASS_COUNT] = {
        "ok",   "rate_limited", "server",  "not_implemented", "bad_request",
        "auth", "not_found",    "timeout", "connection",      "unknown",
        "conflict", "request_timeout", "overloaded"};
    static const char *const rsn[HP_REASON_COUNT] = {
        "none", "attempts_exhausted", "non_retryable", "unknown_outcome",
        "budget_exhausted", "retry_limited", "retry_after_too_long"};
    static const char *const bad[7] = {"Full_Jitter",  "",     "full-jitter",
                                       "full_jitter ", "full", "none",
                                       "IMMEDIATE"};
    hp_strategy out;
    int i;

    for (i = 0; i < HP_STRATEGY_COUNT; i++) {
        assert_string_equal(hp_strategy_name((hp_strategy)i), strat[i]);
        out = HP_STRATEGY_COUNT;
        assert_int_equal(hp_strategy_parse(strat[i], &out), 0);
        assert_int_equal(out, i);
    }
    for (i = 0; i < 7; i++) {
        out = HP_EQUAL_JITTER;
        assert_int_equal(hp_strategy_parse(bad[i], &out), -1);
        assert_int_equal(out, HP_EQUAL_JITTER); /* untouched */
    }
    assert_int_equal(hp_strategy_parse(NULL, &out), -1);
    assert_null(hp_strategy_name(HP_STRATEGY_COUNT));
    assert_null(hp_strategy_name((hp_strategy)1000));
    for (i = 0; i < HP_CLASS_COUNT; i++)
        assert_string_equal(hp_class_name((hp_class)i), cls[i]);
    assert_null(hp_class_name(HP_CLASS_COUNT));
    for (i = 0; i < HP_REASON_COUNT; i++)
        assert_string_equal(hp_reason_name((hp_reason)i), rsn[i]);
    assert_null(hp_reason_name(HP_REASON_COUNT));
}

TEST(test_policy_check)
{
    static const struct {
        double base, cap;
        const char *msg;
    } t[] = {
        {-1, 30, "base_s is negative"}, {NAN, 30, "base_s is NaN"},
        {INFINITY, 30, "base_s is infinite"},
        {-INFINITY, 1, "base_s is infinite"},
        {1, -1, "cap_s is negative"},   {1, NAN, "cap_s is NaN"},
        {1, INFINITY, "cap_s is infinite"}, {5, 2, "cap_s is below base_s"},
        {30, 0, "cap_s is below base_s"},   /* default cap 20 */
        {0, 0.05, "cap_s is below base_s"}, /* default base 0.1 */
    };
    hp_policy p = hp_policy_defaults();
    size_t i;

    assert_null(hp_policy_check(&p));
    assert_string_equal(hp_policy_check(NULL), "policy is NULL");
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        p = policy(HP_FULL_JITTER, t[i].base, t[i].cap);
        assert_string_equal(hp_policy_check(&p), t[i].msg);
    }
    p = policy(HP_FULL_JITTER, 2, 2); /* cap == base is fine */
    assert_null(hp_policy_check(&p));
    p = policy(HP_FULL_JITTER, 0, 0.2);
    assert_null(hp_policy_check(&p));
    p.strategy = HP_STRATEGY_COUNT;
    assert_string_equal(hp_policy_check(&p), "strategy is out of range");
    p.strategy = HP_DECORRELATED_JITTER;
    p.unknown = (hp_unknown_policy)2;
    assert_string_equal(hp_policy_check(&p), "unknown policy is out of range");
}

TEST(test_defaults)
{
    hp_policy d = hp_policy_defaults(), z;
    hp_state sd, sz;
    uint32_t n;
    int s;

    assert_int_equal(d.strategy, HP_IMMEDIATE);
    assert_true(d.base_s == HP_DEFAULT_BASE_S && d.base_s == 0.1);
    assert_true(d.cap_s == HP_DEFAULT_CAP_S && d.cap_s == 20.0);
    assert_int_equal(d.max_attempts, 0);
    assert_int_equal(d.unknown, HP_UNKNOWN_RETRY);
    assert_false(d.non_idempotent);
    assert_int_equal(d.exponent_offset, 0);
    assert_true(d.attempt_timeout_s == 0 && d.budget_s == 0);
    assert_int_equal(d.on_timeout, HP_TIMEOUT_IF_IDEMPOTENT);
    assert_false(d.idempotency_key);
    assert_false(d.ignore_retry_after);
    assert_true(d.retry_after_max_s == HP_DEFAULT_RETRY_AFTER_MAX_S &&
                d.retry_after_max_s == 120.0);
    assert_false(d.not_found_ok_on_retry);

    /* a zero-initialised policy behaves exactly as the defaults */
    memset(&z, 0, sizeof z);
    assert_null(hp_policy_check(&z));
    hp_state_init(&sz, &z);
    assert_true(sz.prev_sleep_s == 0.1);
    assert_true(sz.deadline_s == INFINITY);
    assert_int_equal(sz.attempts, 0);
    assert_int_equal(sz.retries, 0);
    for (s = 0; s < HP_STRATEGY_COUNT; s++) {
        z.strategy = d.strategy = (hp_strategy)s;
        hp_state_init(&sd, &d);
        hp_state_init(&sz, &z);
        for (n = 0; n < 20; n++) {
            double u = (n % 7) / 7.0;

            assert_true(hp_ceiling(&z, n) == hp_ceiling(&d, n));
            assert_true(hp_backoff(&z, &sz, n, u) == hp_backoff(&d, &sd, n, u));
        }
    }
    z.strategy = HP_EXPONENTIAL;
    assert_close(hp_ceiling(&z, 0), 0.1, 0);
    assert_close(hp_ceiling(&z, 7), 12.8, EPS);
    assert_close(hp_ceiling(&z, 8), 20, 0);
    assert_true(hp_retryable(&z, HP_CLASS_UNKNOWN));
}

/* ------------------------------------------- client-library mechanisms */

#define U1 (1.0 - DBL_EPSILON / 2.0) /* the largest u below 1 */
#define NEAR(a, b) assert_true(fabs((a) - (b)) <= 1e-9 * (1.0 + fabs(b)))

/* One sleep of p for retry n with a fresh state. */
static double lib_sleep(const hp_policy *p, uint32_t n, double u)
{
    hp_state st;

    hp_state_init(&st, p);
    return hp_backoff(p, &st, n, u);
}

TEST(test_jitter_shapes)
{
    hp_policy p = policy(HP_EXPONENTIAL, 0.5, 8);

    /* proportional (openai): min(0.5 * 2^n, 8) * (1 - 0.25 u) */
    p.jitter = HP_JITTER_PROPORTIONAL;
    p.jitter_f = 0.25;
    assert_close(lib_sleep(&p, 0, 0.0), 0.5, 0);
    assert_close(lib_sleep(&p, 0, 0.5), 0.4375, 0); /* 0.5 * 0.875 */
    assert_close(lib_sleep(&p, 5, 0.5), 7.0, 0);    /* min(16, 8) * 0.875 */
    NEAR(lib_sleep(&p, 1, U1), 0.75);                      /* 1 * (1 - 0.25) */
    /* symmetric (cohere): min(2^n, 60) * (1 + 0.1 (2u - 1)); above the cap */
    p = policy(HP_EXPONENTIAL, 1, 60);
    p.jitter = HP_JITTER_SYMMETRIC;
    p.jitter_f = 0.1;
    assert_close(lib_sleep(&p, 2, 0.0), 3.6, 1e-15);  /* 4 * 0.9 */
    assert_close(lib_sleep(&p, 2, 0.5), 4.0, 0);
    assert_close(lib_sleep(&p, 2, 0.75), 4.2, 1e-15); /* 4 * 1.05 */
    assert_close(lib_sleep(&p, 6, 0.75), 63.0, 1e-13); /* min(64, 60) * 1.05 */
    /* additive after the cap (LangGraph): min(0.5 * 2^n, 128) + u */
    p = policy(HP_EXPONENTIAL, 0.5, 128);
    p.jitter = HP_JITTER_ADDITIVE;
    p.jitter_f = 1.0;
    assert_close(lib_sleep(&p, 0, 0.5), 1.0, 0);
    assert_close(lib_sleep(&p, 8, 0.5), 128.5, 0); /* min(128, 128) + 0.5 */
    /* additive before the cap (google-genai): min(2^n + u, 60) */
    p = policy(HP_EXPONENTIAL, 1, 60);
    p.jitter = HP_JITTER_ADDITIVE;
    p.jitter_f = 1.0;
    p.jitter_before_cap = true;
    assert_close(lib_sleep(&p, 5, 0.5), 32.5, 0);
    assert_close(lib_sleep(&p, 6, 0.5), 60.0, 0); /* 64.5 capped */
    assert_close(lib_sleep(&p, 10000, 0.5), 60.0, 0);
    /* floor (tenacity wait_random_exponential(min=1, max=20)): U(1, clamp(2^n, 1, 20)) */
    p = policy(HP_EXPONENTIAL, 1, 20);
    p.jitter = HP_JITTER_FLOOR;
    p.jitter_f = 1.0;
    assert_close(lib_sleep(&p, 0, 0.7), 1.0, 0); /* U(1, 1) */
    assert_close(lib_sleep(&p, 2, 0.5), 2.5, 0); /* 1 + 0.5 * (4 - 1) */
    assert_close(lib_sleep(&p, 5, 0.5), 10.5, 0); /* 1 + 0.5 * (20 - 1) */
    /* full */
    p.jitter = HP_JITTER_FULL;
    assert_close(lib_sleep(&p, 3, 0.25), 2.0, 0);
    /* immediate never sleeps, whatever the jitter */
    p.strategy = HP_IMMEDIATE;
    assert_close(lib_sleep(&p, 3, 0.25), 0.0, 0);
}

TEST(test_multiplier_and_first_retry_zero)
{
    hp_policy p = policy(HP_EXPONENTIAL, 2, 5);

    p.multiplier = 1.5;
    assert_close(lib_sleep(&p, 0, 0), 2.0, 0);
    assert_close(lib_sleep(&p, 2, 0), 4.5, 0); /* 2 * 1.5^2 */
    assert_close(lib_sleep(&p, 3, 0), 5.0, 0); /* 6.75 capped */
    assert_close(hp_ceiling(&p, UINT32_MAX), 5.0, 0);
    p.multiplier = 1.0;
    assert_close(lib_sleep(&p, 50, 0), 2.0, 0);
    p.multiplier = 0.5;
    assert_non_null(hp_policy_check(&p));
    /* urllib3: 0, then base * 2^n, capped at 120 */
    p = policy(HP_EXPONENTIAL, 0.5, 120);
    p.first_retry_zero = true;
    assert_close(lib_sleep(&p, 0, 0), 0.0, 0);
    assert_close(lib_sleep(&p, 1, 0), 1.0, 0);
    assert_close(lib_sleep(&p, 2, 0), 2.0, 0);
    assert_close(lib_sleep(&p, 8, 0), 120.0, 0); /* 128 capped */
}

/* One decision for a fresh state after one attempt (the first retry). */
static hp_decision decide1(const hp_policy *p, int outcome, double ra, double reset, double u)
{
    hp_state st;
    hp_result r = {.outcome = outcome, .retry_after_s = ra, .reset_s = reset};

    hp_state_start(&st, p, 0.0);
    hp_on_attempt(&st);
    return hp_decide_result(p, &st, r, 0.0, u);
}

TEST(test_retry_after_modes)
{
    hp_policy p = policy(HP_EXPONENTIAL, 0.5, 8);
    hp_decision d;

    p.max_attempts = 3;
    p.ra_mode = HP_RA_INSTEAD;
    p.retry_after_max_s = 60;
    p.ra_above = HP_RA_ABOVE_BACKOFF;
    /* used as is, even below the backoff (0.5 here) */
    d = decide1(&p, 429, 0.25, 0, 0);
    assert_int_equal(d.action, HP_RETRY);
    assert_close(d.delay_s, 0.25, 0);
    assert_true(d.retry_after_used);
    d = decide1(&p, 503, 60, 0, 0); /* the limit is inclusive */
    assert_close(d.delay_s, 60, 0);
    d = decide1(&p, 429, 0, 0, 0); /* RA 0: the backoff */
    assert_close(d.delay_s, 0.5, 0);
    assert_false(d.retry_after_used);
    d = decide1(&p, 429, 90, 0, 0); /* above: the backoff */
    assert_close(d.delay_s, 0.5, 0);
    p.ra_above = HP_RA_ABOVE_CLAMP;
    d = decide1(&p, 429, 90, 0, 0);
    assert_close(d.delay_s, 60, 0);
    p.ra_above = HP_RA_ABOVE_STOP;
    p.retry_after_max_s = 120;
    d = decide1(&p, 429, 120.5, 0, 0);
    assert_decision(d, HP_GIVE_UP, HP_REASON_RETRY_AFTER, HP_CLASS_RATE_LIMITED);
    d = decide1(&p, 429, 120, 0, 0);
    assert_close(d.delay_s, 120, 0);
    /* ignore */
    p.ra_mode = HP_RA_IGNORE;
    d = decide1(&p, 429, 30, 0, 0);
    assert_close(d.delay_s, 0.5, 0);
    /* herd's default: at least the backoff (unchanged) */
    p.ra_mode = HP_RA_AT_LEAST;
    d = decide1(&p, 429, 0.25, 0, 0);
    assert_close(d.delay_s, 0.5, 0);
    /* cohere: no Retry-After, X-RateLimit-Reset 100 s: min(100, 60) * (1 + 0.2 u) */
    p.ra_mode = HP_RA_INSTEAD;
    p.retry_after_max_s = 60;
    p.ra_reset = true;
    p.reset_jitter_f = 0.2;
    d = decide1(&p, 429, -1, 100, 0.5);
    assert_close(d.delay_s, 66, 1e-12);
    d = decide1(&p, 429, -1, 10, 0.0);
    assert_close(d.delay_s, 10, 0);
    d = decide1(&p, 429, 5, 10, 0.0); /* a Retry-After comes first */
    assert_close(d.delay_s, 5, 0);
}

TEST(test_class_sets)
{
    hp_policy p = policy(HP_CONSTANT, 1, 1);
    hp_decision d;

    p.max_attempts = 2;
    /* 408 and 529 are classes of their own, retried by default */
    assert_int_equal(decide1(&p, 408, -1, 0, 0).action, HP_RETRY);
    assert_int_equal(decide1(&p, 529, -1, 0, 0).action, HP_RETRY);
    /* 501 and 4xx only when added */
    assert_int_equal(decide1(&p, 501, -1, 0, 0).action, HP_GIVE_UP);
    p.retry_also = 1u << HP_CLASS_NOT_IMPLEMENTED | 1u << HP_CLASS_BAD_REQUEST;
    assert_int_equal(decide1(&p, 501, -1, 0, 0).action, HP_RETRY);
    assert_int_equal(decide1(&p, 400, -1, 0, 0).action, HP_RETRY);
    assert_int_equal(decide1(&p, 404, -1, 0, 0).action, HP_GIVE_UP);
    /* retry_only still narrows what retry_also added */
    p.retry_only = 1u << HP_CLASS_SERVER;
    assert_int_equal(decide1(&p, 501, -1, 0, 0).action, HP_GIVE_UP);
    p.retry_only = 0;
    /* statuses left out: api-core's 502 and 504 */
    p.no_retry_status[0] = 502;
    p.no_retry_status[1] = 504;
    d = decide1(&p, 502, -1, 0, 0);
    assert_decision(d, HP_GIVE_UP, HP_REASON_NON_RETRYABLE, HP_CLASS_SERVER);
    assert_int_equal(decide1(&p, 503, -1, 0, 0).action, HP_RETRY);
    assert_int_equal(decide1(&p, 504, -1, 0, 0).action, HP_GIVE_UP);
    /* urllib3: 429 and 503 only with a Retry-After */
    p = policy(HP_CONSTANT, 1, 1);
    p.max_attempts = 2;
    p.retry_only = 1u << HP_CLASS_CONNECTION;
    p.retry_with_ra = 1u << HP_CLASS_RATE_LIMITED | 1u << HP_CLASS_SERVER;
    assert_int_equal(decide1(&p, 429, -1, 0, 0).action, HP_GIVE_UP);
    assert_int_equal(decide1(&p, 429, 3, 0, 0).action, HP_RETRY);
    assert_int_equal(decide1(&p, 503, 0, 0, 0).action, HP_RETRY);
    assert_int_equal(decide1(&p, 500, -1, 0, 0).action, HP_GIVE_UP);
    assert_int_equal(decide1(&p, HP_OUTCOME_CONN_REFUSED, -1, 0, 0).action, HP_RETRY);
}

TEST(test_budget_modes)
{
    hp_policy p = policy(HP_CONSTANT, 10, 10);
    hp_state st;
    hp_decision d;

    p.budget_s = 60;
    /* default: the sleep counts: a failure at 50.5 with a 10 s sleep ends at
     * 60.5 >= 60: give up */
    hp_state_start(&st, &p, 0.0);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 503, 50.5, 0);
    assert_decision(d, HP_GIVE_UP, HP_REASON_BUDGET, HP_CLASS_SERVER);
    /* tenacity stop_after_delay: only the failure's time counts */
    p.budget_mode = HP_BUDGET_AT_FAILURE;
    hp_state_start(&st, &p, 0.0);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 503, 59.9, 0);
    assert_int_equal(d.action, HP_RETRY); /* sleeps to 69.9 */
    /* the retry after 59.9 is sent at 69.9, past the deadline, uncut */
    assert_true(isinf(hp_attempt_timeout(&p, &st, 69.9)));
    p.attempt_timeout_s = 5;
    assert_close(hp_attempt_timeout(&p, &st, 69.9), 5, 0);
    hp_on_attempt(&st);
    d = hp_decide(&p, &st, 503, 60.0, 0);
    assert_decision(d, HP_GIVE_UP, HP_REASON_BUDGET, HP_CLASS_SERVER);
}

/* Hand trace of botocore's adaptive limiter (numbers from adaptive.py,
 * bucket.py, throttling.py; see herdpolicy.h). */
TEST(test_adaptive_trace)
{
    hp_adaptive a;
    double k, w, rate, cap;

    hp_adaptive_init(&a, 0.0);
    assert_false(a.enabled);
    assert_close(a.fill_rate, 1.0, 0);
    assert_close(hp_adaptive_acquire(&a, 0.0), 0.0, 0); /* disabled: no wait */
    /* t = 0.2, success: bucket 0 = last bucket: the measured rate stays 0;
     * CUBIC: 0.4 (0.2 - 0 - 0)^3 + 0 = 0.0032; fill = max(min(0.0032, 2 * 0), 0.5) */
    assert_close(hp_adaptive_on_response(&a, 0.2, false), 0.5, 0);
    assert_close(a.capacity, 0.2, 1e-15); /* refilled 0.2 s at 1/s */
    /* t = 1.0, throttled: bucket 1.0 > 0: rate = 0.8 * 2 / 1 = 1.6; w_max =
     * 1.6, k = cbrt(1.6 * 0.3 / 0.4) = cbrt(1.2), new rate 0.7 * 1.6 = 1.12
     * (< 2 * 1.6); refill 0.8 s at 0.5/s: 0.6 */
    assert_close(hp_adaptive_on_response(&a, 1.0, true), 1.12, 1e-15);
    assert_true(a.enabled);
    assert_close(a.measured_rate, 1.6, 1e-15);
    k = cbrt(1.2);
    assert_close(a.k, k, 1e-15);
    assert_close(a.capacity, 0.6, 1e-15);
    assert_close(a.max_capacity, 1.12, 1e-15);
    /* two sends at t = 1.0: (1 - 0.6) / 1.12, then (1 + 0.4) / 1.12 = 1.25 */
    assert_close(hp_adaptive_acquire(&a, 1.0), 0.4 / 1.12, 1e-15);
    assert_close(hp_adaptive_acquire(&a, 1.0), 1.25, 1e-15);
    /* t = 1.3, success: same bucket (count 1), measured 1.6; CUBIC
     * 0.4 (0.3 - k)^3 + 1.6; refill 0.3 s at 1.12 from -1.4 */
    w = 1.3 - 1.0 - k;
    rate = 0.4 * w * w * w + 1.6;
    assert_close(hp_adaptive_on_response(&a, 1.3, false), rate, 1e-12);
    cap = -1.4 + 0.3 * 1.12;
    assert_close(a.capacity, cap, 1e-12);
    /* the next send waits (1 - cap) / rate */
    assert_close(hp_adaptive_acquire(&a, 1.3), (1.0 - cap) / rate, 1e-12);
}

/* Every preset's sleep, and every jitter shape with extreme parameters,
 * over a grid of n (up to UINT32_MAX) and u: finite, >= 0, within the
 * documented bound above the cap. */
TEST(test_jitter_bounds)
{
    static const uint32_t ns[] = {0, 1, 2, 5, 10, 63, 64, 1000, 2100, 100000, UINT32_MAX};
    static const double us[] = {0.0, 1e-300, 0.25, 0.5, 0.75, U1, 1.0, -1.0, NAN};
    hp_state st;

    for (uint32_t i = 0; i < hp_library_preset_count() + 2 * HP_JITTER_COUNT; i++) {
        hp_policy p;
        if (i < hp_library_preset_count()) {
            p = hp_library_preset_at(i)->policy;
        } else {
            uint32_t j = i - hp_library_preset_count();
            p = policy(HP_EXPONENTIAL, 1e-9, 1e9);
            p.jitter = (hp_jitter)(j % HP_JITTER_COUNT);
            p.jitter_f = p.jitter == HP_JITTER_PROPORTIONAL || p.jitter == HP_JITTER_SYMMETRIC ? 1.0 : 1e9;
            p.jitter_before_cap = j >= HP_JITTER_COUNT;
            p.multiplier = 1e6;
        }
        double f = p.jitter_f, cap = p.cap_s, hi = cap;
        if (!p.jitter_before_cap && (p.jitter == HP_JITTER_SYMMETRIC))
            hi = cap * (1 + f);
        if (!p.jitter_before_cap && (p.jitter == HP_JITTER_ADDITIVE || p.jitter == HP_JITTER_FLOOR))
            hi = cap + f;
        for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
            for (size_t b = 0; b < sizeof us / sizeof us[0]; b++) {
                hp_state_init(&st, &p);
                double s = hp_backoff(&p, &st, ns[a], us[b]);
                if (!(isfinite(s) && s >= 0 && s <= hi))
                    fail_msg("policy %u n %u u %g: sleep %g outside [0, %g]", i, ns[a], us[b], s, hi);
            }
    }
}

/* Every library preset against a server that always fails with `outcome`
 * (attempts take `dur` s): the attempts and the bounds of every sleep,
 * computed by hand (comments), checked with u = 0 and u just below 1. */
typedef struct preset_case {
    const char *name;
    int outcome;
    double dur;
    uint32_t attempts_lo, attempts_hi; /* with u = 0 and u -> 1 */
    uint32_t nsleeps;                  /* bounds checked for the first nsleeps */
    double lo[8], hi[8];               /* sleep n is in [lo, hi] */
} preset_case;

static const preset_case preset_cases[] = {
    /* min(0.5 * 2^n, 8) * (1 - 0.25 u): (0.375, 0.5], (0.75, 1] */
    {"openai_python", 503, 0, 3, 3, 2, {0.375, 0.75}, {0.5, 1}},
    {"openai_python_2_52", 503, 0, 3, 3, 2, {0.375, 0.75}, {0.5, 1}},
    {"anthropic_python", 529, 0, 3, 3, 2, {0.375, 0.75}, {0.5, 1}},
    /* 2^n + U(0, 1), a 400 too: [1, 2), [2, 3) */
    {"langchain_with_retry", 400, 0, 3, 3, 2, {1, 2}, {2, 3}},
    /* min(0.5 * 2^n, 128) + U(0, 1): [0.5, 1.5), [1, 2) */
    {"langgraph", 400, 0, 3, 3, 2, {0.5, 1}, {1.5, 2}},
    /* outer loop: U(1, clamp(2^n, 1, 20)): 1, [1, 2) */
    {"llamaindex_openai", 503, 0, 3, 3, 2, {1, 1}, {1, 2}},
    /* min(2^n + U(0, 1), 60): [1, 2), [2, 3), [4, 5), [8, 9) */
    {"google_genai", 503, 0, 5, 5, 4, {1, 2, 4, 8}, {2, 3, 5, 9}},
    /* min(2^n, 60) x (1 +- 0.1): [0.9, 1.1), [1.8, 2.2) */
    {"cohere", 503, 0, 3, 3, 2, {0.9, 1.8}, {1.1, 2.2}},
    /* Retry(3, backoff_factor=0.5) on connection errors: 0, 0.5 * 2^1, 0.5 * 2^2 */
    {"urllib3", HP_OUTCOME_CONN_REFUSED, 0, 4, 4, 3, {0, 1, 2}, {0, 1, 2}},
    /* min(2^n, 30): 1, 2, 4, 8 */
    {"go_retryablehttp", 503, 0, 5, 5, 4, {1, 2, 4, 8}, {1, 2, 4, 8}},
    /* U(0, 1) x 2^n: [0, 1), [0, 2), [0, 4), [0, 8) */
    {"aws_legacy", 503, 0, 5, 5, 4, {0, 0, 0, 0}, {1, 2, 4, 8}},
    /* U(0, min(2^n, 20)): [0, 1), [0, 2) */
    {"aws_standard", 503, 0, 3, 3, 2, {0, 0}, {1, 2}},
    {"aws_adaptive", 429, 0, 3, 3, 2, {0, 0}, {1, 2}},
    /* min(0.1 x 2^n, 1) x U(0.8, 1.2): [0.08, 0.12), [0.16, 0.24), [0.32, 0.48) */
    {"grpc", 503, 0, 4, 4, 3, {0.08, 0.16, 0.32}, {0.12, 0.24, 0.48}},
    /* U(0, min(25 ms x 2^n, 250 ms)): [0, 0.025) */
    {"envoy", 503, 0, 2, 2, 1, {0}, {0.025}},
    /* U(0, min(2^n, 60)) until now + sleep >= 120, attempts of 1 s.
     * u = 0: sleeps 0, a failure every second: the 120th fails at 120: 120 attempts.
     * u -> 1: fails at 1, 3, 6, 11, 20, 37, 70 (sleeps 1, 2, 4, 8, 16, 32), then
     * 70 + 60 >= 120: 7 attempts. */
    {"google_api_core", 503, 1, 120, 7, 6, {0, 0, 0, 0, 0, 0}, {1, 2, 4, 8, 16, 32}},
    /* 3 retries of a constant 2 s, a 400 too */
    {"polly_v8", 400, 0, 4, 4, 3, {2, 2, 2}, {2, 2, 2}},
    /* 3 attempts, 0.5 s fixed */
    {"resilience4j", 404, 0, 3, 3, 2, {0.5, 0.5}, {0.5, 0.5}},
};

/* Runs preset p against the always-failing server with uniform u; returns
 * the attempts and writes the sleeps. */
static uint32_t run_preset(const hp_policy *p, const preset_case *c, double u, double *sleeps, uint32_t max)
{
    hp_state st;
    hp_result r = {.outcome = c->outcome, .retry_after_s = -1};
    double now = 0;
    uint32_t ns = 0;

    hp_state_start(&st, p, 0.0);
    for (;;) {
        hp_on_attempt(&st);
        now += c->dur;
        hp_decision d = hp_decide_result(p, &st, r, now, u);
        if (d.action != HP_RETRY)
            return st.attempts;
        if (ns < max)
            sleeps[ns++] = d.delay_s;
        now += d.delay_s;
        if (st.attempts > 1000)
            return st.attempts;
    }
}

TEST(test_library_presets)
{
    size_t n = sizeof preset_cases / sizeof preset_cases[0];

    assert_true(hp_library_preset_count() >= 18);
    assert_int_equal(n, hp_library_preset_count()); /* every preset has its case */
    for (size_t i = 0; i < n; i++) {
        const preset_case *c = &preset_cases[i];
        const hp_library_preset *lp = hp_library_preset_find(c->name);
        double s0[8], s1[8];
        if (!lp)
            fail_msg("no preset %s", c->name);
        assert_null(hp_policy_check(&lp->policy));
        assert_non_null(lp->repo);
        assert_true(strlen(lp->file) > 0 && strlen(lp->version) > 0);
        uint32_t a0 = run_preset(&lp->policy, c, 0.0, s0, 8), a1 = run_preset(&lp->policy, c, U1, s1, 8);
        if (a0 != c->attempts_lo || a1 != c->attempts_hi)
            fail_msg("%s: %u and %u attempts, want %u and %u", c->name, a0, a1, c->attempts_lo, c->attempts_hi);
        for (uint32_t k = 0; k < c->nsleeps; k++) {
            double lo = fmin(s0[k], s1[k]), hi = fmax(s0[k], s1[k]);
            if (fabs(lo - c->lo[k]) > 1e-9 || fabs(hi - c->hi[k]) > 1e-9)
                fail_msg("%s sleep %u: [%.12g, %.12g], want [%g, %g]", c->name, k, lo, hi, c->lo[k], c->hi[k]);
        }
    }
    /* the two-layer preset: 4 SDK attempts inside, 0.5 x 2^n x (0.75, 1] */
    const hp_library_preset *li = hp_library_preset_find("llamaindex_openai");
    assert_true(li->two_layers);
    assert_int_equal(li->inner.max_attempts, 4); /* worst case 3 x 4 = 12 */
    assert_null(hp_policy_check(&li->inner));
    assert_null(hp_library_preset_find("openai"));
    assert_null(hp_library_preset_at(hp_library_preset_count()));
}

TEST(test_jitter_names)
{
    static const char *const names[HP_JITTER_COUNT] = {"none", "full", "proportional",
                                                       "symmetric", "additive", "floor"};
    hp_jitter j = HP_JITTER_COUNT;

    for (int i = 0; i < HP_JITTER_COUNT; i++) {
        assert_string_equal(hp_jitter_name((hp_jitter)i), names[i]);
        assert_int_equal(hp_jitter_parse(names[i], &j), 0);
        assert_int_equal(j, i);
    }
    assert_int_equal(hp_jitter_parse("Full", &j), -1);
    assert_null(hp_jitter_name(HP_JITTER_COUNT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_values),
        cmocka_unit_test(test_decorrelated_sequence),
        cmocka_unit_test(test_u_clamped),
        cmocka_unit_test(test_saturation),
        cmocka_unit_test(test_exponential_ceiling_exact),
        cmocka_unit_test(test_invalid_policy_total),
        cmocka_unit_test(test_decorrelated_no_overflow),
        cmocka_unit_test(test_grid_properties),
        cmocka_unit_test(test_decorrelated_walks),
        cmocka_unit_test(test_distributions),
        cmocka_unit_test(test_classify_table),
        cmocka_unit_test(test_classify_every_outcome),
        cmocka_unit_test(test_retryable),
        cmocka_unit_test(test_decide_table),
        cmocka_unit_test(test_decide_attempts),
        cmocka_unit_test(test_exponent_offset),
        cmocka_unit_test(test_decide_unlimited),
        cmocka_unit_test(test_counters_saturate),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_random_strategy),
        cmocka_unit_test(test_policy_check),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_state_start),
        cmocka_unit_test(test_attempt_timeout),
        cmocka_unit_test(test_budget_decide),
        cmocka_unit_test(test_budget_boundary),
        cmocka_unit_test(test_budget_keeps_state),
        cmocka_unit_test(test_timeout_truth_table),
        cmocka_unit_test(test_not_found_ok_on_retry),
        cmocka_unit_test(test_retry_after),
        cmocka_unit_test(test_retry_after_classes),
        cmocka_unit_test(test_decide_is_decide_result),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_preset_behaviour),
        cmocka_unit_test(test_effect_names),
        cmocka_unit_test(test_policy_check_new_fields),
        cmocka_unit_test(test_jitter_shapes),
        cmocka_unit_test(test_multiplier_and_first_retry_zero),
        cmocka_unit_test(test_retry_after_modes),
        cmocka_unit_test(test_class_sets),
        cmocka_unit_test(test_budget_modes),
        cmocka_unit_test(test_adaptive_trace),
        cmocka_unit_test(test_library_presets),
        cmocka_unit_test(test_jitter_bounds),
        cmocka_unit_test(test_jitter_names),
    };

    return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
