/*
 * test_tune.c - cmocka tests for herd tune's statistics (sim/tune/paired.h)
 * and search space (sim/tune/space.h).
 *
 * The t quantiles are checked against textbook values (t(0.95, 3) =
 * 2.353363, t(0.975, 3) = 3.182446), Holm's procedure against its
 * definition on hand-made p-values (ties, the step-down stop), the paired
 * test against a hand computation and the sign-test rule for samples
 * without spread; the space against the sweep syntax and the product's
 * order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <math.h>
#include <string.h>

#include "../sim/tune/paired.h"
#include "../sim/tune/space.h"

static void test_mean_se(void **state)
{
    (void)state;
    double x[] = {1, 2, 3, 4}, m, se;
    paired_mean_se(x, 4, &m, &se);
    assert_true(fabs(m - 2.5) < 1e-12);
    assert_true(fabs(se - sqrt(5.0 / 3.0 / 4.0)) < 1e-12); /* s^2 = 5/3 */
    paired_mean_se(x, 1, &m, &se);
    assert_true(m == 1 && se == 0);
}

static void test_bounds(void **state)
{
    (void)state;
    double x[] = {1, 2, 3, 4}, lo, hi;
    double se = sqrt(5.0 / 12.0);
    paired_bounds(x, 4, 0.05, &lo, &hi);
    assert_true(fabs(hi - (2.5 + 2.353363 * se)) < 1e-5);
    assert_true(fabs(lo - (2.5 - 2.353363 * se)) < 1e-5);
    assert_true(fabs(paired_ci95(x, 4) - 3.182446 * se) < 1e-5);
    assert_true(isnan(paired_ci95(x, 1)));
    /* no spread: undecided until 2^-n <= alpha */
    double z[8] = {0};
    paired_bounds(z, 4, 0.05, &lo, &hi);
    assert_true(isinf(lo) && lo < 0 && isinf(hi) && hi > 0);
    paired_bounds(z, 5, 0.05, &lo, &hi);
    assert_true(lo == 0 && hi == 0);
    paired_bounds(z, 5, 0.025, &lo, &hi); /* 2^-5 = 0.03125 > 0.025 */
    assert_true(isinf(hi));
    paired_bounds(z, 6, 0.025, &lo, &hi);
    assert_true(hi == 0);
    assert_true(paired_ci95(z, 4) == 0);
}

static void test_paired(void **state)
{
    (void)state;
    double a[] = {3, 5, 4, 6}, b[] = {1, 2, 2, 3}; /* d = 2, 3, 2, 3 */
    double p = paired_p_greater(a, b, 4);
    /* mean 2.5, s = sqrt(1/3), t = 2.5 / (s / 2) = 8.660254, 3 df */
    assert_true(p > 1e-4 && p < 2e-3);
    assert_true(fabs(paired_p_greater(b, a, 4) - (1 - p)) < 1e-12);
    /* the same positive difference in every pair: the sign test */
    double c[] = {2, 3, 4, 5, 6}, d[] = {1, 2, 3, 4, 5};
    assert_true(paired_p_greater(c, d, 4) == 1.0 / 16);
    assert_true(paired_p_greater(c, d, 5) == 1.0 / 32);
    assert_true(paired_p_greater(d, c, 5) == 1);
    assert_true(paired_p_greater(c, c, 5) == 1);
    assert_true(paired_p_greater(c, d, 1) == 1);
}

static void test_holm(void **state)
{
    (void)state;
    int rej[5];
    /* sorted 0.01 (<= 0.05/4), 0.015 (<= 0.05/3), 0.03 (> 0.05/2): stop */
    double p[] = {0.03, 0.01, 0.5, 0.015};
    assert_int_equal(paired_holm(p, 4, 0.05, rej), 2);
    assert_int_equal(rej[0], 0);
    assert_int_equal(rej[1], 1);
    assert_int_equal(rej[2], 0);
    assert_int_equal(rej[3], 1);
    double q[] = {0.02, 0.02, 0.001};
    assert_int_equal(paired_holm(q, 3, 0.05, rej), 3); /* 0.001 <= 0.05/3, 0.02 <= 0.025, 0.02 <= 0.05 */
    /* the step-down stop: 0.026 > 0.05/2 ends it, 0.03 <= 0.05 stays */
    double r[] = {0.03, 0.026, 0.001};
    assert_int_equal(paired_holm(r, 3, 0.05, rej), 1);
    assert_int_equal(rej[0], 0);
    assert_int_equal(rej[1], 0);
    assert_int_equal(rej[2], 1);
    assert_int_equal(paired_holm(NULL, 0, 0.05, rej), 0);
}

static void test_space(void **state)
{
    (void)state;
    tune_space s;
    memset(&s, 0, sizeof s);
    char err[256], set[256];
    assert_int_equal(tune_space_add(&s, "retry.max_attempts=1:3:1", err, sizeof err), 0);
    assert_int_equal(tune_space_add(&s, "run.strategies=exponential,full_jitter", err, sizeof err), 0);
    assert_int_equal(s.ncand, 6);
    tune_space_set(&s, 0, 0, set, sizeof set);
    assert_string_equal(set, "retry.max_attempts=1");
    tune_space_set(&s, 1, 1, set, sizeof set); /* the last dimension innermost */
    assert_string_equal(set, "run.strategies=full_jitter");
    tune_space_set(&s, 5, 0, set, sizeof set);
    assert_string_equal(set, "retry.max_attempts=3");
    assert_int_equal(tune_space_add(&s, " retry . max_attempts=4", err, sizeof err), -1);
    assert_non_null(strstr(err, "searched twice"));
    assert_int_equal(tune_space_add(&s, "layer  sdk.max_attempts=1:2:1", err, sizeof err), 0);
    assert_true(tune_space_has(&s, "layer sdk.max_attempts"));
    assert_int_equal(tune_space_add(&s, "retry.cap_s", err, sizeof err), -1);
    assert_int_equal(tune_space_add(&s, "nosection=1,2", err, sizeof err), -1);
    assert_int_equal(tune_space_add(&s, "retry.base_s=1,1", err, sizeof err), -1); /* a repeated value */
    assert_int_equal(tune_space_add(&s, "retry.base_s=3:1:1", err, sizeof err), -1);
    assert_int_equal(s.ndims, 3);
    assert_int_equal(s.ncand, 12);
    tune_space_free(&s);
    assert_int_equal(s.ndims, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mean_se), cmocka_unit_test(test_bounds), cmocka_unit_test(test_paired),
        cmocka_unit_test(test_holm),    cmocka_unit_test(test_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
