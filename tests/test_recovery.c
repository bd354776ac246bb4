/*
 * test_recovery.c - the recovery metric (sim/model/recovery.c) on
 * hand-built timeseries, and the aggregate statistics it feeds: the
 * Wilson interval of `recovered` and the mean over the recovered runs.
 *
 * Every series below has 100 logical requests started per 1 s bucket; a
 * bucket is "up" (100 successes) or "down" (0), the trigger starts at
 * t = 60 s, the window is 10 s and the fraction 0.9, so a 10-bucket window
 * is good when at most one of its buckets is down.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../sim/model/recovery.h"
#include "../sim/report/stats.h"

#define N 200
#define TRIGGER 60.0

static ts_bucket series[N];

static void all_up(void)
{
    memset(series, 0, sizeof series);
    for (size_t i = 0; i < N; i++)
        series[i].offered = series[i].goodput = 100;
}

static void down(size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        series[i].goodput = 0;
}

static int measure(size_t b1, double *t)
{
    return recovery_measure(series, N, 0, b1, 1.0, TRIGGER, 10, 0.9, t);
}

/* Down for 20 s from the trigger, then up until the end: recovered when
 * the first good window starts, at the last down bucket (79): a window
 * with one down bucket in ten holds 90%. */
static void steady_recovery(void **state)
{
    (void)state;
    all_up();
    down(60, 80);
    double t;
    assert_int_equal(measure(N, &t), 1);
    assert_true(fabs(t - 19) < 1e-12);
}

/* A breaker's oscillation: 5 s down, 5 s up, from the trigger to 150 s.
 * Each of its up stretches is 5 s, and a 10 s window always holds 5 down
 * buckets: not recovered until the oscillation stops (last down bucket
 * 144).  The old definition (the first 10-bucket stretch) could not see
 * this; a breaker that never stops is never recovered. */
static void breaker_oscillation(void **state)
{
    (void)state;
    all_up();
    for (size_t i = 60; i < 150; i += 10)
        down(i, i + 5);
    double t;
    assert_int_equal(measure(N, &t), 1);
    assert_true(fabs(t - 84) < 1e-12);

    /* up stretches of 12 s between the openings: windows that fit in them
     * are good, but the later openings break the stretch: recovery is
     * still counted from the last opening */
    all_up();
    for (size_t i = 60; i < 150; i += 17)
        down(i, i + 5);
    assert_int_equal(measure(N, &t), 1);
    assert_true(fabs(t - (145 + 4 - TRIGGER)) < 1e-12); /* last opening 145..149 */

    all_up();
    for (size_t i = 60; i < N; i += 10)
        down(i, i + 5);
    assert_int_equal(measure(N, &t), 0);
    assert_true(isnan(t));
}

/* Recovery while the trigger still runs (a long outage that a mitigation
 * rides out, or a spike that only dents goodput): the time is counted from
 * the trigger's start, so it may be shorter than the trigger; a trigger
 * that never pushes goodput below the fraction gives 0. */
static void recovery_during_trigger(void **state)
{
    (void)state;
    all_up();
    down(60, 63);
    double t;
    assert_int_equal(measure(N, &t), 1);
    assert_true(fabs(t - 2) < 1e-12);

    all_up();
    for (size_t i = 60; i < 100; i++)
        series[i].goodput = 95; /* 95% during a 40 s trigger */
    assert_int_equal(measure(N, &t), 1);
    assert_true(t == 0);
}

static void never_recovers(void **state)
{
    (void)state;
    all_up();
    down(60, N);
    double t = 0;
    assert_int_equal(measure(N, &t), 0);
    assert_true(isnan(t));
    /* 85% for ever after: below the fraction in every window */
    all_up();
    for (size_t i = 60; i < N; i++)
        series[i].goodput = 85;
    assert_int_equal(measure(N, &t), 0);
}

/* A recovery at the very end shorter than the window is not a recovery:
 * up for the last 5 or 8 s only, the last window holds 50% or 80%.  Up
 * for the last 9 s, the last window [190, 200) holds exactly 90%: "at or
 * above" the fraction, recovered at 190 s (exact, despite 0.9 not being
 * a binary fraction). */
static void recovery_too_late(void **state)
{
    (void)state;
    double t;
    all_up();
    down(60, N - 5);
    assert_int_equal(measure(N, &t), 0);
    assert_true(isnan(t));
    all_up();
    down(60, N - 8);
    assert_int_equal(measure(N, &t), 0);
    all_up();
    down(60, N - 9);
    assert_int_equal(measure(N, &t), 1);
    assert_true(fabs(t - (N - 10 - TRIGGER)) < 1e-12);
}

/* Single noisy buckets do not reset the clock: the condition is on sums
 * over the window. */
static void noise_within_window(void **state)
{
    (void)state;
    all_up();
    down(60, 80);
    for (size_t i = 100; i < N; i += 7)
        series[i].goodput = 60; /* 60% every 7 s: every window still >= 90% */
    double t;
    assert_int_equal(measure(N, &t), 1);
    assert_true(fabs(t - 19) < 1e-12);
}

/* The measured window: shorter than one recovery window, or a series that
 * stops early (the missing buckets have no starts and no successes). */
static void measured_window(void **state)
{
    (void)state;
    all_up();
    double t;
    assert_int_equal(recovery_measure(series, N, 50, 59, 1.0, TRIGGER, 10, 0.9, &t), 0);
    assert_int_equal(recovery_measure(series, N, 50, 60, 1.0, TRIGGER, 10, 0.9, &t), 1);
    assert_true(t == 0);
    down(60, 80); /* and nothing from 80 s: the window from 79 s holds 0 of 100 */
    assert_int_equal(recovery_measure(series, 80, 0, N, 1.0, TRIGGER, 10, 0.9, &t), 1);
    assert_true(fabs(t - 20) < 1e-12);
    /* 0.5 s buckets: the window is 20 of them, times in seconds */
    assert_int_equal(recovery_measure(series, N, 0, N, 0.5, 30.0, 10, 0.9, &t), 1);
    assert_true(fabs(t - (78 * 0.5 - 30)) < 1e-12);
}

/* Wilson 95% intervals, by hand: z = 1.959964; 0 of 10: [0, z^2/n /
 * (1 + z^2/n)] = [0, 0.277533]; 10 of 10: [0.722467, 1]; 5 of 10:
 * 0.5 -/+ z sqrt(0.025 + z^2/400) / (1 + z^2/10) = [0.236593, 0.763407]. */
static void wilson_by_hand(void **state)
{
    (void)state;
    double lo, hi;
    stats_wilson95(0, 10, &lo, &hi);
    assert_true(lo == 0 && fabs(hi - 0.277533) < 1e-6);
    stats_wilson95(10, 10, &lo, &hi);
    assert_true(fabs(lo - 0.722467) < 1e-6 && hi == 1);
    stats_wilson95(5, 10, &lo, &hi);
    assert_true(fabs(lo - 0.236593) < 1e-6 && fabs(hi - 0.763407) < 1e-6);
    stats_wilson95(0, 0, &lo, &hi);
    assert_true(isnan(lo) && isnan(hi));
}

/* The mean among the runs where a metric is defined (recovery_time_s of
 * the recovered runs): [1, nan, 3] has mean 2 over 2 runs, half-width
 * t(0.975, 1) x sd / sqrt(2) = 12.7062 x 1.41421 / 1.41421. */
static void mean_over_defined(void **state)
{
    (void)state;
    double x[] = {1, NAN, 3}, mean, half;
    size_t n;
    stats_mean_ci95_defined(x, 3, &mean, &half, &n);
    assert_int_equal(n, 2);
    assert_true(fabs(mean - 2) < 1e-12 && fabs(half - 12.7062) < 1e-4);
    double none[] = {NAN, NAN};
    stats_mean_ci95_defined(none, 2, &mean, &half, &n);
    assert_int_equal(n, 0);
    assert_true(isnan(mean) && isnan(half));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(steady_recovery),     cmocka_unit_test(breaker_oscillation),
        cmocka_unit_test(recovery_during_trigger), cmocka_unit_test(never_recovers),
        cmocka_unit_test(recovery_too_late),   cmocka_unit_test(noise_within_window),
        cmocka_unit_test(measured_window),     cmocka_unit_test(wilson_by_hand),
        cmocka_unit_test(mean_over_defined),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
