/*
 * test_limiter.c - cmocka tests for the server's concurrency limiter
 * (sim/model/limiter.h) against hand traces: sequences of samples (RTT,
 * in-flight count at admission, dropped) and the limits worked out by hand
 * from the formulas of Netflix/concurrency-limits' AIMDLimit.java and
 * Gradient2Limit.java (commit 78a74b9878d38c4c048b0304ce12a162ab7b7222;
 * the formulas are quoted in limiter.h), the queue size functions
 * (SquareRootFunction, Log10RootIntFunction), and the admission
 * bookkeeping of SimpleLimiter (permits = limit - in flight; the in-flight
 * count a sample carries is the one at its admission, itself included;
 * slots reused; an allocation failure changes nothing).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <math.h>

#include "../sim/base/alloc.h"
#include "../sim/model/limiter.h"

static int disarm(void **state)
{
    (void)state;
    herd_alloc_fail_after(-1);
    return 0;
}

static model_spec spec_of(spec_climiter kind, uint32_t initial, uint32_t min, uint32_t max)
{
    /* Netflix's defaults for the rest */
    return (model_spec){.concurrency_limiter = kind,
                        .concurrency_limit = initial,
                        .limiter_min = min,
                        .limiter_max = max,
                        .aimd_backoff_ratio = 0.9,
                        .aimd_timeout_s = 5,
                        .gradient2_smoothing = 0.2,
                        .gradient2_rtt_tolerance = 1.5,
                        .gradient2_long_window = 600,
                        .gradient2_queue_size = 4};
}

/* AIMDLimit._update, by hand: limit 10 in [4, 12], backoff 0.9, timeout 1 s. */
static void test_aimd_trace(void **state)
{
    (void)state;
    model_spec sp = spec_of(SPEC_CL_AIMD, 10, 4, 12);
    sp.aimd_timeout_s = 1;
    srv_limiter l;
    lim_init(&l, &sp);
    assert_int_equal(l.limit, 10);
    static const struct {
        double rtt;
        uint32_t inflight;
        bool drop;
        uint32_t limit;
    } t[] = {
        {0.1, 5, false, 11},  /* 5 x 2 >= 10: + 1 */
        {0.1, 5, false, 11},  /* 10 >= 11 is false: unchanged */
        {0.1, 6, false, 12},  /* 12 >= 11: + 1 */
        {0.1, 6, false, 12},  /* 13 clamped to max 12 */
        {0.1, 6, true, 10},   /* drop: (int)(12 x 0.9) = (int)10.8 */
        {1.5, 1, false, 9},   /* RTT 1.5 > timeout 1: (int)9.0 */
        {1.0, 5, false, 10},  /* RTT 1.0 is not above 1: 10 >= 9, + 1 */
        {0.1, 1, true, 9},    /* (int)9.0 */
        {0.1, 1, true, 8},    /* (int)8.1 */
        {0.1, 1, true, 7},    /* (int)7.2 */
        {0.1, 1, true, 6},    /* (int)6.3 */
        {0.1, 1, true, 5},    /* (int)5.4 */
        {0.1, 1, true, 4},    /* (int)4.5 */
        {0.1, 1, true, 4},    /* (int)3.6 = 3, clamped to min 4 */
        {0.1, 2, false, 5},   /* 4 >= 4: + 1 */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        lim_sample(&l, t[i].rtt, t[i].inflight, t[i].drop);
        assert_int_equal(l.limit, t[i].limit);
    }
    lim_free(&l);
}

/* Gradient2Limit._update with the defaults (initial 20, min 20, max 200,
 * smoothing 0.2, tolerance 1.5, queue 4), by hand; long = the mean of the
 * samples so far (ExpAvgMeasurement's 10-sample warm-up). */
static void test_gradient2_defaults_trace(void **state)
{
    (void)state;
    model_spec sp = spec_of(SPEC_CL_GRADIENT2, 20, 20, 200);
    srv_limiter l;
    lim_init(&l, &sp);
    static const struct {
        double rtt;
        uint32_t inflight;
        double estimate, long_rtt;
        uint32_t limit;
    } t[] = {
        /* long 0.1; gradient min(1, 1.5 x 0.1 / 0.1) = 1; new 20 + 4 = 24;
         * 20 x 0.8 + 24 x 0.2 = 20.8 */
        {0.1, 10, 20.8, 0.1, 20},
        /* 11 >= 20.8 / 2; 20.8 x 0.8 + 24.8 x 0.2 = 21.6 */
        {0.1, 11, 21.6, 0.1, 21},
        /* long (0.2 + 0.3) / 3 = 1/6; gradient 1.5 x (1/6) / 0.3 = 0.8333;
         * new 21.6 x 0.8333 + 4 = 22; 17.28 + 4.4 = 21.68 */
        {0.3, 11, 21.68, 1.0 / 6, 21},
        /* long 1.5 / 4 = 0.375; gradient 0.5625; new 21.68 x 0.5625 + 4 =
         * 16.195; 17.344 + 3.239 = 20.583 */
        {1.0, 20, 20.583, 0.375, 20},
        /* long 1.52 / 5 = 0.304; 0.304 / 0.02 > 2: long x 0.95 = 0.2888;
         * 5 < 20.583 / 2: app-limited, no change */
        {0.02, 5, 20.583, 0.2888, 20},
        /* still warming up: long = sum / count = 3.52 / 6 (the decay is
         * lost, as in ExpAvgMeasurement); gradient 1.5 x 0.5867 / 2 =
         * 0.44, floored to 0.5; new 20.583 x 0.5 + 4 = 14.2915; 16.4664 +
         * 2.8583 = 19.3247, clamped to min 20 */
        {2.0, 15, 20.0, 3.52 / 6, 20},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        lim_sample(&l, t[i].rtt, t[i].inflight, false);
        assert_true(fabs(l.estimate - t[i].estimate) < 1e-9);
        assert_true(fabs(l.long_value - t[i].long_rtt) < 1e-12);
        assert_int_equal(l.limit, t[i].limit);
    }
    lim_free(&l);
}

/* After the warm-up: the exponential average (window 3: factor 0.5), the
 * 0.95 decay used from the next sample on, tolerance 1, smoothing 0.5,
 * queue 2, limits [1, 100] from 10. */
static void test_gradient2_average_trace(void **state)
{
    (void)state;
    model_spec sp = spec_of(SPEC_CL_GRADIENT2, 10, 1, 100);
    sp.gradient2_long_window = 3;
    sp.gradient2_smoothing = 0.5;
    sp.gradient2_rtt_tolerance = 1;
    sp.gradient2_queue_size = 2;
    srv_limiter l;
    lim_init(&l, &sp);
    /* 10 samples of 0.1 s: gradient 1, each adds (2) x 0.5 = 1 */
    for (int i = 0; i < 10; i++) {
        lim_sample(&l, 0.1, 10, false);
        assert_int_equal(l.limit, 11 + i);
    }
    assert_true(fabs(l.estimate - 20) < 1e-9);
    /* long 0.1 x 0.5 + 0.4 x 0.5 = 0.25; gradient 0.625; new 20 x 0.625 +
     * 2 = 14.5; 10 + 7.25 = 17.25 */
    lim_sample(&l, 0.4, 10, false);
    assert_true(fabs(l.long_value - 0.25) < 1e-12);
    assert_true(fabs(l.estimate - 17.25) < 1e-9);
    assert_int_equal(l.limit, 17);
    /* long 0.125 + 0.025 = 0.15; 0.15 / 0.05 = 3 > 2: kept as 0.1425, but
     * this sample's gradient uses 0.15: min(1, 3) = 1; new 19.25; 8.625 +
     * 9.625 = 18.25 */
    lim_sample(&l, 0.05, 9, false);
    assert_true(fabs(l.long_value - 0.1425) < 1e-12);
    assert_true(fabs(l.estimate - 18.25) < 1e-9);
    assert_int_equal(l.limit, 18);
    /* long 0.1425 x 0.5 + 0.1425 x 0.5 = 0.1425 (the decayed value);
     * gradient 1; 9.125 + 10.125 = 19.25 */
    lim_sample(&l, 0.1425, 10, false);
    assert_true(fabs(l.long_value - 0.1425) < 1e-12);
    assert_true(fabs(l.estimate - 19.25) < 1e-9);
    assert_int_equal(l.limit, 19);
    /* a drop is not read by Gradient2Limit: same rule; 9 < 19.25 / 2 is
     * false, gradient 1: 9.625 + 10.625 = 20.25 */
    lim_sample(&l, 0.1425, 10, true);
    assert_true(fabs(l.estimate - 20.25) < 1e-9);
    /* an RTT of 0: gradient 1 (no queueing), no decay (Java divides by 0) */
    lim_sample(&l, 0, 11, false);
    assert_true(isfinite(l.estimate));
    assert_true(fabs(l.estimate - 21.25) < 1e-9);
    lim_free(&l);
}

/* WindowedLimit around AIMDLimit (limit 10 in [1, 100]), window 1 s, 10
 * samples, by hand: the first sample closes an empty window (t = 0.5 >
 * nextUpdateTime 0; 1 sample, not ready; next update after 0.5 + min(max(
 * 2 x 0.1, 1), 1) = 1.5); samples up to 1.5 only gather. */
static void test_window_trace(void **state)
{
    (void)state;
    model_spec sp = spec_of(SPEC_CL_AIMD, 10, 1, 100);
    sp.limiter_window_s = 1;
    sp.limiter_window_size = 10;
    srv_limiter l;
    lim_init(&l, &sp);
    lim_window_sample(&l, 0.5, 0.1, 9, false);
    assert_int_equal(l.limit, 10);
    assert_true(l.next_update == 1.5);
    for (int i = 0; i < 12; i++) /* t = 0.6 .. 1.48: gathered, in flight up to 6 */
        lim_window_sample(&l, 0.6 + i * 0.08, 0.1, (uint32_t)(1 + i / 2), false);
    assert_int_equal(l.limit, 10);
    assert_int_equal(l.win_count, 12);
    /* t = 1.6 closes the window of 13: mean RTT 0.1, in flight 6: 12 >= 10, + 1 */
    lim_window_sample(&l, 1.6, 0.1, 3, false);
    assert_int_equal(l.limit, 11);
    assert_true(fabs(l.next_update - 2.6) < 1e-12);
    /* 5 samples, one dropped, to t = 2.65: closed with 5 < 10, discarded */
    for (int i = 0; i < 5; i++)
        lim_window_sample(&l, 2.25 + i * 0.1, 0.1, 9, i == 2);
    assert_int_equal(l.limit, 11);
    assert_true(fabs(l.next_update - 3.65) < 1e-12);
    assert_int_equal(l.win_count, 0);
    /* 10 samples, one dropped, the last at t = 3.8: (int)(11 x 0.9) = 9;
     * the window's minimum RTT 0.7 makes the next window 2 x 0.7 = 1.4,
     * capped at 1 */
    for (int i = 0; i < 9; i++)
        lim_window_sample(&l, 2.8 + i * 0.1, i == 5 ? 0.7 : 0.8, 1, i == 4);
    lim_window_sample(&l, 3.8, 0.8, 1, false);
    assert_int_equal(l.limit, 9);
    assert_true(fabs(l.next_update - 4.8) < 1e-12);
    /* an RTT under 100 us is ignored: it closes nothing */
    lim_window_sample(&l, 5, 50e-6, 9, true);
    assert_int_equal(l.win_count, 0);
    assert_true(fabs(l.next_update - 4.8) < 1e-12);
    assert_int_equal(l.limit, 9);
    /* a mean RTT above the timeout (5 s) is a drop.  The sample at t = 11
     * closes a window of its own (1 sample: discarded; next after 12);
     * 9 more gather; the one at 12.5 closes the 9 + 1 = 10: mean 6 s > 5 s,
     * (int)(9 x 0.9) = (int)8.1 */
    for (int i = 0; i < 10; i++)
        lim_window_sample(&l, 11 + i * 0.01, 6, 9, false);
    assert_int_equal(l.limit, 9);
    assert_true(fabs(l.next_update - 12) < 1e-12);
    lim_window_sample(&l, 12.5, 6, 9, false);
    assert_int_equal(l.limit, 8);
    lim_free(&l);
}

static void test_queue_functions(void **state)
{
    (void)state;
    assert_int_equal(lim_queue_size(SPEC_G2Q_CONSTANT, 4, 1000), 4);
    /* SquareRootFunction.create(4): max(4, max(1, (int) sqrt(limit))) */
    assert_int_equal(lim_queue_size(SPEC_G2Q_SQRT, 4, 10), 4);
    assert_int_equal(lim_queue_size(SPEC_G2Q_SQRT, 4, 100), 10);
    assert_int_equal(lim_queue_size(SPEC_G2Q_SQRT, 4, 99), 9);
    assert_int_equal(lim_queue_size(SPEC_G2Q_SQRT, 0, 0), 1);
    assert_int_equal(lim_queue_size(SPEC_G2Q_SQRT, 4, 2000), 44);
    /* Log10RootIntFunction.create(4): max(1, (int) log10(limit)) + 4 */
    assert_int_equal(lim_queue_size(SPEC_G2Q_LOG10, 4, 9), 5);
    assert_int_equal(lim_queue_size(SPEC_G2Q_LOG10, 4, 100), 6);
    assert_int_equal(lim_queue_size(SPEC_G2Q_LOG10, 4, 1000), 7);
    assert_int_equal(lim_queue_size(SPEC_G2Q_LOG10, 0, 5), 1);
    assert_int_equal(lim_queue_size(SPEC_G2Q_LOG10, 0, 0), 1);
}

/* SimpleLimiter's admission: at most `limit` open; the sample carries the
 * in-flight count at admission and the RTT from admission; a freed slot
 * is reused. */
static void test_admission(void **state)
{
    (void)state;
    model_spec sp = spec_of(SPEC_CL_FIXED, 2, 20, 200);
    srv_limiter l;
    lim_init(&l, &sp);
    assert_int_equal(lim_acquire(&l, 0), 0);
    assert_int_equal(lim_acquire(&l, 0), 1);
    assert_int_equal(lim_acquire(&l, 0), -1); /* at the limit: rejected */
    assert_int_equal(l.inflight, 2);
    lim_release(&l, 0, 1, false);
    assert_int_equal(l.inflight, 1);
    assert_int_equal(lim_acquire(&l, 2), 0); /* slot 0 again */
    assert_int_equal(l.slot[0].inflight, 2);
    lim_ignore(&l, 1);
    lim_release(&l, 0, 3, true);
    assert_int_equal(l.inflight, 0);
    assert_int_equal(l.limit, 2); /* FixedLimit */
    lim_free(&l);

    /* AIMD through acquire/release: limit 4 in [1, 10], timeout 5 s */
    sp = spec_of(SPEC_CL_AIMD, 4, 1, 10);
    lim_init(&l, &sp);
    int64_t a = lim_acquire(&l, 0), b = lim_acquire(&l, 0), c = lim_acquire(&l, 1);
    assert_true(a == 0 && b == 1 && c == 2);
    lim_release(&l, (uint32_t)b, 2, false); /* RTT 2, in flight 2: 2 x 2 >= 4, so 5 */
    assert_int_equal(l.limit, 5);
    lim_release(&l, (uint32_t)a, 10, false); /* RTT 10 > 5: (int)(5 x 0.9) = 4 */
    assert_int_equal(l.limit, 4);
    lim_release(&l, (uint32_t)c, 3, true); /* dropped: (int)3.6 = 3 */
    assert_int_equal(l.limit, 3);
    assert_int_equal(l.inflight, 0);
    /* the limit shrank below the count in flight: permits are negative
     * until enough are released (AdjustableSemaphore.reducePermits) */
    for (int i = 0; i < 3; i++)
        assert_true(lim_acquire(&l, 4) >= 0);
    assert_int_equal(lim_acquire(&l, 4), -1);
    lim_release(&l, 0, 4, true); /* limit 2, 2 in flight */
    assert_int_equal(l.limit, 2);
    assert_int_equal(lim_acquire(&l, 4), -1);
    lim_release(&l, 1, 4, false); /* in flight 3 at its admission: 6 >= 2, limit 3; 1 open */
    assert_int_equal(l.limit, 3);
    assert_true(lim_acquire(&l, 5) >= 0);
    assert_true(lim_acquire(&l, 5) >= 0);
    assert_int_equal(lim_acquire(&l, 5), -1);
    lim_free(&l);

    /* none admits everything and keeps nothing */
    sp = spec_of(SPEC_CL_NONE, 2, 20, 200);
    lim_init(&l, &sp);
    for (int i = 0; i < 100; i++)
        assert_int_equal(lim_acquire(&l, i), 0);
    assert_null(l.slot);
    lim_free(&l);
}

/* The pool grows by doubling, never beyond the bound, and an allocation
 * failure rejects nothing and changes nothing. */
static void test_pool(void **state)
{
    (void)state;
    model_spec sp = spec_of(SPEC_CL_FIXED, 200, 20, 200);
    srv_limiter l;
    lim_init(&l, &sp);
    for (int i = 0; i < 200; i++)
        assert_int_equal(lim_acquire(&l, 0), i);
    assert_int_equal(l.cap, 200);
    assert_int_equal(lim_acquire(&l, 0), -1);
    for (uint32_t i = 0; i < 200; i += 2)
        lim_release(&l, i, 1, false);
    for (int i = 0; i < 100; i++)
        assert_true(lim_acquire(&l, 2) >= 0);
    assert_int_equal(l.cap, 200);
    lim_free(&l);

    lim_init(&l, &sp);
    herd_alloc_fail_after(0);
    assert_int_equal(lim_acquire(&l, 0), -2);
    assert_int_equal(l.inflight, 0);
    herd_alloc_fail_after(-1);
    assert_int_equal(lim_acquire(&l, 0), 0);
    lim_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_aimd_trace, disarm),
        cmocka_unit_test_teardown(test_gradient2_defaults_trace, disarm),
        cmocka_unit_test_teardown(test_gradient2_average_trace, disarm),
        cmocka_unit_test_teardown(test_window_trace, disarm),
        cmocka_unit_test_teardown(test_queue_functions, disarm),
        cmocka_unit_test_teardown(test_admission, disarm),
        cmocka_unit_test_teardown(test_pool, disarm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
