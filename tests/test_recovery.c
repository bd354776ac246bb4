/*
 * test_recovery.c - the recovery metric (sim/model/recovery.c) on
 * hand-built timeseries, and the aggregate statistics it feeds: the
 * Wilson interval of `recovered` and the mean over the defined runs.
 *
 * Every series below has 1 s buckets, 100 logical requests started per
 * bucket, and a healthy state of 10 requests in the server with 100
 * successes per bucket (deficit 0); the trigger runs from t = 60 s to
 * 80 s, the baseline is [0, 60) and the dwell 10 s; 100 attempts arrive
 * at the server per bucket, none turned away.  A "down" bucket has 500
 * requests in the server and no success.  (The statistical side, a
 * stable queue recovering and a collapsed one not, at any rate and
 * horizon, is tests/calibrate.sh.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../sim/model/recovery.h"
#include "../sim/report/stats.h"

#define N 200

static ts_bucket series[N];

static void all_up(void)
{
    memset(series, 0, sizeof series);
    for (size_t i = 0; i < N; i++) {
        series[i].offered = series[i].goodput = series[i].arrivals = 100;
        series[i].in_flight = 10;
    }
}

static void down(size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        series[i].goodput = 0;
        series[i].in_flight = 500;
    }
}

static recovery_input input(size_t len, double end_s)
{
    return (recovery_input){.b = series, .len = len, .bucket_s = 1, .warmup_s = 0, .baseline_end_s = 60,
                            .trigger_start_s = 60, .trigger_end_s = 80, .end_s = end_s, .horizon_s = end_s,
                            .dwell_s = 10};
}

static recovery_result measure_in(recovery_input in)
{
    recovery_result r;
    recovery_measure(&in, &r);
    return r;
}

static recovery_result measure(void)
{
    return measure_in(input(N, N));
}

/* Down through the trigger and 15 s past it, then healthy: recovered at
 * the first healthy bucket, 95 s, 35 s after the trigger's start. */
static void steady_recovery(void **state)
{
    (void)state;
    all_up();
    down(60, 95);
    recovery_result r = measure();
    assert_int_equal(r.status, RECOVERY_DEFINED);
    assert_true(r.recovered == 1);
    assert_true(fabs(r.time_s - 35) < 1e-12);
    assert_true(r.band_in_flight == 10 && r.band_deficit == 0);
    assert_int_equal(r.baseline, 60);
    assert_null(recovery_status_reason(r.status));
}

/* A collapsed system: the queue stays full, or the queue is empty but
 * nothing succeeds (a breaker held open, clients throttling): in either
 * state alone, the run has not recovered (a defined 0, time NaN). */
static void never_recovers(void **state)
{
    (void)state;
    all_up();
    down(60, N);
    recovery_result r = measure();
    assert_int_equal(r.status, RECOVERY_DEFINED);
    assert_true(r.recovered == 0 && isnan(r.time_s));
    all_up();
    for (size_t i = 60; i < N; i++)
        series[i].goodput = 40; /* server idle, 60 failures a bucket */
    r = measure();
    assert_true(r.recovered == 0 && isnan(r.time_s));
    all_up();
    for (size_t i = 60; i < N; i++)
        series[i].in_flight = 11; /* one more than the band, for ever */
    r = measure();
    assert_true(r.recovered == 0);
}

/* A breaker's oscillation: 5 s down, 5 s up until 150 s: no stretch of
 * 10 s in the band until the oscillation stops (last down bucket 144,
 * recovered at 145).  With 12 s up between openings, the first 12 s
 * stretch is a recovery: a dwell shorter than the up periods cannot see
 * the later openings (doc/metastable.md: choose the dwell longer than them).  A
 * breaker that never stops never recovers. */
static void breaker_oscillation(void **state)
{
    (void)state;
    all_up();
    for (size_t i = 60; i < 150; i += 10)
        down(i, i + 5);
    recovery_result r = measure();
    assert_true(r.recovered == 1);
    assert_true(fabs(r.time_s - 85) < 1e-12);

    all_up();
    for (size_t i = 60; i < 150; i += 17)
        down(i, i + 5); /* up 82..93 after the trigger's end */
    r = measure();
    assert_true(r.recovered == 1);
    assert_true(fabs(r.time_s - (82 - 60)) < 1e-12);
    recovery_result longer = measure_in((recovery_input){.b = series, .len = N, .bucket_s = 1, .baseline_end_s = 60,
                                                         .trigger_start_s = 60, .trigger_end_s = 80, .end_s = N,
                                                         .horizon_s = N, .dwell_s = 13});
    assert_true(longer.recovered == 1 && fabs(longer.time_s - (150 - 60)) < 1e-12);

    all_up();
    for (size_t i = 60; i < N; i += 10)
        down(i, i + 5);
    r = measure();
    assert_true(r.recovered == 0 && isnan(r.time_s));
}

/* A trigger that never pushes the state out of the band: 0; one that
 * does only at its start: the stretch in the band that reaches past the
 * trigger's end is extended back to where it began. */
static void recovery_during_trigger(void **state)
{
    (void)state;
    all_up();
    recovery_result r = measure();
    assert_true(r.recovered == 1 && r.time_s == 0);
    down(60, 63);
    r = measure();
    assert_true(r.recovered == 1 && fabs(r.time_s - 3) < 1e-12);
}

/* The stretch must fit before the end of the measured window: healthy for
 * the last 9 buckets only is not a recovery, for the last 10 it is. */
static void recovery_at_the_end(void **state)
{
    (void)state;
    all_up();
    down(60, N - 9);
    recovery_result r = measure();
    assert_int_equal(r.status, RECOVERY_DEFINED);
    assert_true(r.recovered == 0);
    all_up();
    down(60, N - 10);
    r = measure();
    assert_true(r.recovered == 1 && fabs(r.time_s - (N - 10 - 60)) < 1e-12);
}

/* The answer does not depend on the horizon: a run that recovers by
 * 120 s says the same at every later end. */
static void horizon_independent(void **state)
{
    (void)state;
    all_up();
    down(60, 100);
    for (size_t end = 110; end <= N; end += 10) {
        recovery_result r = measure_in(input(N, (double)end));
        assert_true(r.recovered == 1 && fabs(r.time_s - 40) < 1e-12);
    }
}

/* When the question has no answer: every status, with recovered and the
 * time NaN and a reason. */
static void undefined(void **state)
{
    (void)state;
    all_up();
    recovery_input in = input(N, N);
    in.trigger_start_s = in.trigger_end_s = NAN;
    recovery_result r = measure_in(in);
    assert_int_equal(r.status, RECOVERY_NO_TRIGGER);
    assert_true(isnan(r.recovered) && isnan(r.time_s));

    in = input(N, N);
    in.trigger_end_s = N;
    assert_int_equal(measure_in(in).status, RECOVERY_TRIGGER_NOT_ENDED);

    in = input(N, 80); /* the last request started as the trigger ended */
    in.horizon_s = N;
    assert_int_equal(measure_in(in).status, RECOVERY_NO_ARRIVALS_AFTER);

    in = input(N, 89); /* 9 s after it: less than the dwell */
    assert_int_equal(measure_in(in).status, RECOVERY_SHORT_AFTER);
    in = input(N, 90);
    assert_int_equal(measure_in(in).status, RECOVERY_DEFINED);

    in = input(N, N);
    in.warmup_s = 41; /* 19 baseline buckets */
    assert_int_equal(measure_in(in).status, RECOVERY_SHORT_BASELINE);
    in.warmup_s = 40;
    assert_int_equal(measure_in(in).status, RECOVERY_DEFINED);
    in = input(N, N);
    in.baseline_end_s = 30; /* an earlier trigger (an outage before the last one) ends the baseline */
    in.warmup_s = 11;
    assert_int_equal(measure_in(in).status, RECOVERY_SHORT_BASELINE);

    in = input(N, N);
    in.varying_load = 1;
    assert_int_equal(measure_in(in).status, RECOVERY_VARYING_LOAD);

    for (size_t i = 0; i < 60; i++)
        series[i].offered = series[i].goodput = 0;
    assert_int_equal(measure_in(input(N, N)).status, RECOVERY_EMPTY_BASELINE);

    for (int s = RECOVERY_NO_TRIGGER; s < RECOVERY_STATUS_COUNT; s++)
        assert_non_null(recovery_status_reason(s));
    assert_null(recovery_status_reason(RECOVERY_DEFINED));
    assert_null(recovery_status_reason(RECOVERY_STATUS_COUNT));
}

/* A baseline whose buckets are strongly correlated (a queue drifting
 * slowly: a ramp of in_flight) holds few independent buckets: undefined,
 * not a band from a handful of effective samples. */
static void correlated_baseline(void **state)
{
    (void)state;
    all_up();
    for (size_t i = 0; i < 60; i++)
        series[i].in_flight = (uint32_t)(10 + (i % 30)); /* two slow ramps */
    recovery_result r = measure();
    assert_int_equal(r.status, RECOVERY_SHORT_BASELINE);
    assert_true(r.effective < RECOVERY_MIN_BASELINE);
    assert_true(isnan(r.recovered));
}

/* A run that starts empty: its first bucket starts 100 requests of which
 * few finish in it (deficit 90).  MSER cuts that start-up bucket from the
 * baseline, so a later deficit of 50 per bucket is outside the band. */
static void start_up_transient(void **state)
{
    (void)state;
    all_up();
    series[0].goodput = 10;
    series[0].in_flight = 3;
    for (size_t i = 60; i < N; i++)
        series[i].goodput = 50;
    recovery_result r = measure();
    assert_int_equal(r.status, RECOVERY_DEFINED);
    assert_true(r.band_deficit == 0);
    assert_int_equal(r.baseline, 59);
    assert_true(r.recovered == 0);
}

/* The band's false-alarm rate: a healthy bucket drawn from the baseline's
 * own distribution exceeds the maximum of n independent baseline buckets
 * with probability 1 / (n + 1), whatever the distribution.  Here in_flight
 * is Poisson(50) in every bucket (the deficit 0), 60 baseline buckets (n
 * is what is left after the MSER cut, per trial), and the measure is
 * asked, 4,000 times, whether the first bucket after the trigger is in the
 * band (dwell 1 s, trigger [60, 60]).  The share of "not recovered at
 * once" must be at most the mean of 1 / (n + 1) plus its 99.9% binomial
 * tolerance (3.29 sd); ties with the maximum count as inside, so it may
 * be lower, but not below half of it.  At least 95% of the trials have a
 * band (an independent baseline of 60 buckets rarely looks correlated). */
static void false_alarm_rate(void **state)
{
    (void)state;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 2311);
    int trials = 4000, late = 0, defined = 0;
    double p = 0;
    for (int t = 0; t < trials; t++) {
        all_up();
        for (size_t i = 0; i < 62; i++)
            series[i].in_flight = gsl_ran_poisson(g, 50);
        recovery_result r = measure_in((recovery_input){.b = series, .len = 62, .bucket_s = 1, .baseline_end_s = 60,
                                                        .trigger_start_s = 60, .trigger_end_s = 60, .end_s = 61,
                                                        .horizon_s = 200, .dwell_s = 1});
        if (r.status != RECOVERY_DEFINED)
            continue;
        defined++;
        late += r.recovered == 0;
        p += 1.0 / ((double)r.baseline + 1);
    }
    gsl_rng_free(g);
    assert_true(defined >= 0.95 * trials);
    p /= defined;
    double share = (double)late / defined, sd = sqrt(p * (1 - p) / defined);
    assert_true(share <= p + 3.29 * sd);
    assert_true(share >= 0.5 * p - 3.29 * sd); /* ties make it smaller, not zero */
}

/* A system collapsed before the trigger (Metafor's Example 1 at 9.5/s
 * with 5 attempts: 47 attempts a bucket, 37 turned away by the full
 * queue, no success) looks the same after it: the old measure's band was
 * the collapse, and it called that "recovered".  Now: not healthy, whatever
 * happens after the trigger (also a trigger that never ends), and the
 * baseline's figures say why. */
static void collapsed_before_trigger(void **state)
{
    (void)state;
    all_up();
    for (size_t i = 0; i < N; i++) {
        series[i].arrivals = 47;
        series[i].turned_away = 37;
        series[i].in_flight = 101;
        series[i].offered = 10;
        series[i].goodput = 0;
    }
    recovery_result r = measure();
    assert_int_equal(r.status, RECOVERY_NOT_HEALTHY);
    assert_true(isnan(r.recovered) && isnan(r.time_s));
    assert_true(r.collapsed == 1);
    assert_int_equal(r.baseline_status, RECOVERY_DEFINED);
    assert_true(fabs(r.overload_share - 37.0 / 47) < 1e-12);
    assert_true(fabs(r.offered_per_s - 10) < 1e-12 && r.goodput_per_s == 0);
    recovery_input in = input(N, N);
    in.trigger_end_s = N; /* the health is judged before the trigger, whatever comes after */
    r = measure_in(in);
    assert_int_equal(r.status, RECOVERY_TRIGGER_NOT_ENDED);
    assert_true(r.collapsed == 1);
    /* the healthy system of the same figures recovers as before */
    all_up();
    down(60, 95);
    r = measure();
    assert_true(r.collapsed == 0 && r.overload_share == 0 && r.recovered == 1);
}

/* Collapsed means the server does not keep up with what it is offered
 * and the clients do not get their goodput; either alone is not collapse.
 * Healthy when the server keeps up, though not every client waits for
 * its answer: a stable queue whose clients time out
 * (no retries: 60 of 100 requests succeed per bucket, nothing turned
 * away, no backlog) is healthy, and recovers when its state returns to
 * the band (Metafor's Example 1 at 9.5/s without retries recovers).  A
 * backlog that grows (a queue without a bound under more load than it
 * serves: 10 more in the server every bucket, nothing turned away, 90 of
 * 100 served) is not healthy: 10 of every 100 attempts pile up (10%,
 * whatever MSER cuts of the baseline). */
static void lossy_or_growing(void **state)
{
    (void)state;
    all_up();
    for (size_t i = 0; i < N; i++)
        series[i].goodput = 60;
    down(60, 95);
    recovery_result r = measure();
    assert_int_equal(r.status, RECOVERY_DEFINED);
    assert_true(r.collapsed == 0 && r.recovered == 1);
    assert_true(fabs(r.goodput_per_s - 60) < 1e-12);

    all_up();
    for (size_t i = 0; i < N; i++) {
        series[i].in_flight = (uint32_t)(10 + 10 * i);
        series[i].goodput = 90; /* it serves its capacity, 90 of the 100 */
    }
    r = measure();
    assert_int_equal(r.status, RECOVERY_NOT_HEALTHY);
    assert_true(fabs(r.overload_share - 0.1) < 1e-9);
    /* half that growth, 5%: not above the threshold, healthy */
    for (size_t i = 0; i < N; i++)
        series[i].in_flight = (uint32_t)(10 + 5 * i);
    r = measure();
    assert_true(r.collapsed == 0);
    /* overloaded but serving its clients (a server that sheds or drops by
     * design, CoDel at 95% load, the clients' retries getting through:
     * 10% turned away, 99 of 100 succeed) is not collapsed either */
    all_up();
    for (size_t i = 0; i < N; i++) {
        series[i].turned_away = 10;
        series[i].goodput = 99;
    }
    r = measure();
    assert_true(r.collapsed == 0 && fabs(r.overload_share - 0.1) < 1e-12);
    for (size_t i = 0; i < N; i++)
        series[i].goodput = 80; /* ... but with 80 of 100, it is */
    assert_true(measure().collapsed == 1);
}

/* Noise never makes a healthy system collapsed: turned-away attempts
 * drawn Binomial(100, p) per bucket, 2,000 baselines each: at p = 0.01
 * none is judged collapsed (the test is on the lower confidence bound);
 * at p = 0.2, with those requests lost (goodput 100 minus them), every
 * one is. */
static void health_under_noise(void **state)
{
    (void)state;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 35);
    int low = 0, high = 0;
    for (int t = 0; t < 2000; t++) {
        all_up();
        for (size_t i = 0; i < N; i++) {
            series[i].turned_away = gsl_ran_binomial(g, 0.01, 100);
            series[i].in_flight = 10 + gsl_ran_poisson(g, 30);
        }
        low += measure().collapsed == 1;
        for (size_t i = 0; i < N; i++) {
            series[i].turned_away = gsl_ran_binomial(g, 0.2, 100);
            series[i].goodput = 100 - series[i].turned_away;
        }
        high += measure().collapsed == 1;
    }
    gsl_rng_free(g);
    assert_int_equal(low, 0);
    assert_int_equal(high, 2000);
}

/* At the thresholds the tests are one-sided 95% bounds: a baseline whose
 * true overload share is exactly 5% (each bucket's 20 arrivals turned away
 * with probability 0.05, goodput 80 of 100) is judged overloaded, and so
 * collapsed, in about 2.5% of 4,000 trials (at most 2.5% plus 3.29 sd;
 * and some, at least 0.5%, or the bound would be too wide); likewise a
 * goodput share of exactly 95% (Binomial(100, 0.95) per bucket, 20% turned
 * away).  A standard error too small (the sum's missing sqrt(n)) makes the
 * first about 40%. */
static void thresholds_one_sided(void **state)
{
    (void)state;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 3535);
    int trials = 4000, over = 0, good = 0;
    for (int k = 0; k < trials; k++) {
        all_up();
        for (size_t i = 0; i < N; i++) {
            series[i].arrivals = 20;
            series[i].turned_away = gsl_ran_binomial(g, 0.05, 20);
            series[i].goodput = 80;
        }
        over += measure().collapsed == 1;
        all_up();
        for (size_t i = 0; i < N; i++) {
            series[i].turned_away = 20;
            series[i].goodput = gsl_ran_binomial(g, 0.95, 100);
        }
        good += measure().collapsed == 1;
    }
    gsl_rng_free(g);
    double tol = 0.025 + 3.29 * sqrt(0.025 * 0.975 / trials);
    assert_true((double)over / trials <= tol && (double)over / trials >= 0.005);
    assert_true((double)good / trials <= tol && (double)good / trials >= 0.005);
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
 * the recovered runs, recovered of the runs where it is defined): [1, nan,
 * 3] has mean 2 over 2 runs, half-width t(0.975, 1) x sd / sqrt(2) =
 * 12.7062 x 1.41421 / 1.41421. */
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
        cmocka_unit_test(steady_recovery),         cmocka_unit_test(never_recovers),
        cmocka_unit_test(breaker_oscillation),     cmocka_unit_test(recovery_during_trigger),
        cmocka_unit_test(recovery_at_the_end),     cmocka_unit_test(horizon_independent),
        cmocka_unit_test(undefined),               cmocka_unit_test(correlated_baseline),
        cmocka_unit_test(start_up_transient),      cmocka_unit_test(false_alarm_rate),
        cmocka_unit_test(wilson_by_hand),          cmocka_unit_test(mean_over_defined),
        cmocka_unit_test(collapsed_before_trigger), cmocka_unit_test(lossy_or_growing),
        cmocka_unit_test(health_under_noise),      cmocka_unit_test(thresholds_one_sided),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
