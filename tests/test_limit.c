/*
 * test_limit.c - cmocka tests for the retry limiters, the circuit breaker,
 * adaptive throttling, hedging and the sliding window (herdpolicy.h).
 *
 * Hand-written timelines with exact token arithmetic (AWS quota, gRPC,
 * Envoy, Finagle), breaker transitions, throttling probabilities, the hedge
 * percentile against a sorted-array oracle within the documented 1/21, the
 * window against a plain event list on a random operation sequence, and
 * the edges: huge times, time going backwards (clamped), NaN inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "herdpolicy.h"

/* Exact comparison of doubles, both printed on failure. */
#define assert_exact(a, b) check_exact((a), (b), __FILE__, __LINE__)

static void check_exact(double a, double b, const char *file, int line)
{
    if (!(a == b)) {
        print_error("%.17g != %.17g\n", a, b);
        _fail(file, line);
    }
}

static hp_limiter make_limiter(hp_limiter_kind kind)
{
    hp_limiter l;
    hp_limiter_opts o;

    memset(&o, 0, sizeof o);
    o.kind = kind;
    hp_limiter_init(&l, &o, 0.0);
    return l;
}

/* Retries allowed in a row at t (at most max): the count before the first
 * refusal.  A refusal changes nothing, so the next call sees the same. */
static int take(hp_limiter *l, double t, bool after_timeout, int max)
{
    int n = 0;

    while (n < max && hp_limiter_try_retry(l, t, after_timeout, NULL))
        n++;
    return n;
}

static void starts(hp_limiter *l, double t, int n, bool is_retry)
{
    while (n-- > 0)
        hp_limiter_on_request_start(l, t, is_retry);
}

static void successes(hp_limiter *l, double t, int n, uint32_t cost)
{
    while (n-- > 0)
        hp_limiter_on_success(l, t, cost);
}

static void repeat(void (*op)(hp_limiter *, double), hp_limiter *l, double t,
                   int n)
{
    while (n-- > 0)
        op(l, t);
}

/* ---- Limiters ------------------------------------------------------- */

TEST(test_limiter_names_and_check)
{
    hp_limiter_kind k = HP_LIMITER_NONE;
    hp_limiter_opts d = hp_limiter_defaults(HP_LIMITER_FINAGLE), o;
    hp_limiter l, l2;
    int i;

    for (i = 0; i < HP_LIMITER_KIND_COUNT; i++) {
        assert_int_equal(hp_limiter_kind_parse(hp_limiter_kind_name(i), &k), 0);
        assert_int_equal(k, i);
    }
    assert_string_equal(hp_limiter_kind_name(HP_LIMITER_AWS_QUOTA), "aws_quota");
    assert_null(hp_limiter_kind_name(HP_LIMITER_KIND_COUNT));
    assert_int_equal(hp_limiter_kind_parse("Envoy", &k), -1);
    assert_int_equal(hp_limiter_kind_parse(NULL, &k), -1);
    assert_int_equal(k, HP_LIMITER_KIND_COUNT - 1); /* untouched */
    assert_int_equal(d.kind, HP_LIMITER_FINAGLE);
    assert_true(d.aws_capacity == 500 && d.aws_retry_cost == 5 &&
                d.aws_timeout_cost == 10 && d.aws_success_increment == 1);
    assert_true(d.grpc_max_tokens == 10 && d.grpc_token_ratio == 0.1);
    assert_true(d.envoy_budget_percent == 20.0 &&
                d.envoy_min_retry_concurrency == 3);
    assert_true(d.finagle_ttl_s == 10.0 && d.finagle_min_retries_per_s == 10.0 &&
                d.finagle_percent_can_retry == 0.2);
    assert_null(hp_limiter_check(&d));
    memset(&o, 0, sizeof o); /* HP_OFF is accepted, and survives init */
    o.kind = HP_LIMITER_ENVOY;
    o.envoy_min_retry_concurrency = HP_OFF;
    o.envoy_budget_percent = HP_OFF;
    o.finagle_min_retries_per_s = HP_OFF;
    o.finagle_percent_can_retry = HP_OFF;
    assert_null(hp_limiter_check(&o));
    hp_limiter_init(&l, &o, 3.0);
    hp_limiter_init(&l2, &l.opts, 3.0);
    assert_memory_equal(&l, &l2, sizeof l);
    assert_int_equal(l.opts.envoy_min_retry_concurrency, HP_OFF);
    assert_false(hp_limiter_try_retry(&l, 3.0, false, NULL)); /* max(0, 0) */
}

TEST(test_aws_quota_timeline)
{
    hp_limiter l = make_limiter(HP_LIMITER_AWS_QUOTA);
    uint32_t cost = 99;

    assert_exact(hp_limiter_balance(&l, 0.0), 500.0);
    assert_true(hp_limiter_try_retry(&l, 1.0, false, &cost));
    assert_int_equal(cost, 5);
    assert_int_equal(take(&l, 1.0, false, 1000), 99); /* 100 retries: 500 */
    assert_int_equal(l.aws_tokens, 0);
    assert_false(hp_limiter_try_retry(&l, 1.0, false, &cost));
    assert_int_equal(cost, 0);
    hp_limiter_on_success(&l, 2.0, 5); /* a retry succeeded: refund 5 */
    assert_int_equal(l.aws_tokens, 5);
    hp_limiter_on_success(&l, 2.0, 0); /* no retry needed: +1 */
    assert_int_equal(l.aws_tokens, 6);
    assert_false(hp_limiter_try_retry(&l, 2.0, true, &cost)); /* needs 10 */
    assert_int_equal(l.aws_tokens, 6);
    assert_int_equal(take(&l, 2.0, false, 10), 1); /* 6 >= 5 */
    assert_int_equal(l.aws_tokens, 1);
    successes(&l, 3.0, 498, 0);
    assert_int_equal(l.aws_tokens, 499);
    successes(&l, 3.0, 2, 0);
    hp_limiter_on_success(&l, 3.0, 10); /* capped */
    assert_int_equal(l.aws_tokens, 500);
    assert_true(hp_limiter_try_retry(&l, 4.0, true, &cost)); /* timeout: 10 */
    assert_int_equal(cost, 10);
    assert_int_equal(l.aws_tokens, 490);
    hp_limiter_on_success(&l, 4.0, UINT32_MAX); /* no overflow */
    assert_int_equal(l.aws_tokens, 500);
    hp_limiter_on_failure(&l, 5.0); /* no-ops for this kind */
    hp_limiter_on_request_start(&l, 5.0, false);
    hp_limiter_on_retry_end(&l, 5.0);
    assert_int_equal(l.aws_tokens, 500);
}

TEST(test_grpc_timeline)
{
    hp_limiter l = make_limiter(HP_LIMITER_GRPC);
    hp_limiter_opts o = hp_limiter_defaults(HP_LIMITER_GRPC);

    assert_exact(hp_limiter_balance(&l, 0.0), 10.0);
    repeat(hp_limiter_on_failure, &l, 1.0, 4);
    assert_exact(hp_limiter_balance(&l, 1.0), 6.0);
    assert_int_equal(take(&l, 1.0, true, 50), 50); /* 6 > 5; retries are free */
    hp_limiter_on_failure(&l, 1.0);
    assert_exact(hp_limiter_balance(&l, 1.0), 5.0);
    assert_false(hp_limiter_try_retry(&l, 1.0, false, NULL)); /* 5 <= 5 */
    hp_limiter_on_success(&l, 2.0, 0);
    assert_int_equal(l.grpc_milli_tokens, 5100);
    assert_true(hp_limiter_try_retry(&l, 2.0, false, NULL));
    successes(&l, 2.0, 9, 0);
    assert_exact(hp_limiter_balance(&l, 2.0), 6.0); /* exact: thousandths */
    successes(&l, 2.0, 100, 0);
    assert_exact(hp_limiter_balance(&l, 2.0), 10.0); /* capped */
    repeat(hp_limiter_on_failure, &l, 3.0, 20);
    assert_int_equal(l.grpc_milli_tokens, 0); /* floor 0 */
    o.grpc_max_tokens = 3;
    o.grpc_token_ratio = 0.0005; /* rounds to one thousandth */
    hp_limiter_init(&l, &o, 0.0);
    repeat(hp_limiter_on_failure, &l, 0.0, 2);
    assert_false(hp_limiter_try_retry(&l, 0.0, false, NULL)); /* 1 <= 1.5 */
    hp_limiter_on_success(&l, 0.0, 0);
    assert_int_equal(l.grpc_milli_tokens, 1001);
}

TEST(test_envoy_budget)
{
    hp_limiter l = make_limiter(HP_LIMITER_ENVOY);

    assert_int_equal(take(&l, 0.0, false, 10), 3); /* min concurrency 3 */
    assert_int_equal(l.active_retries, 3);
    hp_limiter_on_retry_end(&l, 1.0);
    assert_exact(hp_limiter_balance(&l, 1.0), 1.0);
    assert_int_equal(take(&l, 1.0, false, 10), 1);
    starts(&l, 2.0, 10, false);
    starts(&l, 2.0, 9, true);
    assert_int_equal(l.active_requests, 19); /* 20% of 19 = 3.8 -> 3 */
    assert_false(hp_limiter_try_retry(&l, 2.0, false, NULL));
    hp_limiter_on_request_start(&l, 2.0, true); /* 20 active: 4 */
    assert_int_equal(take(&l, 2.0, false, 10), 1);
    starts(&l, 3.0, 80, false);
    assert_exact(hp_limiter_balance(&l, 3.0), 20.0 - 4.0);
    repeat(hp_limiter_on_request_end, &l, 4.0, 100);
    assert_exact(hp_limiter_balance(&l, 4.0), 3.0 - 4.0); /* over budget */
    hp_limiter_on_request_end(&l, 4.0); /* an extra end does not wrap */
    assert_int_equal(l.active_requests, 0);
    repeat(hp_limiter_on_retry_end, &l, 5.0, 10);
    assert_int_equal(l.active_retries, 0);
}

TEST(test_finagle_budget)
{
    hp_limiter l = make_limiter(HP_LIMITER_FINAGLE);
    hp_limiter_opts o = hp_limiter_defaults(HP_LIMITER_FINAGLE);

    /* Reserve: 10 retries/s * 10 s = 100 retries, nothing deposited. */
    assert_exact(hp_limiter_balance(&l, 0.0), 100.0);
    assert_int_equal(take(&l, 0.5, false, 1000), 100);
    starts(&l, 3.0, 4, false); /* 4 * 0.2 < 1 */
    starts(&l, 3.0, 1, true);  /* a retry deposits nothing */
    assert_false(hp_limiter_try_retry(&l, 3.0, false, NULL));
    starts(&l, 3.0, 1, false); /* 5 * 0.2 = 1 */
    assert_int_equal(take(&l, 4.2, false, 10), 1);
    /* The withdrawals at 0.5 sit in the sub-bucket [0, 1): gone at t = 10,
     * not before. */
    assert_false(hp_limiter_try_retry(&l, 9.999, false, NULL));
    assert_exact(hp_limiter_balance(&l, 10.0), 100.0); /* 100 + 1 - 1 */
    assert_true(hp_limiter_try_retry(&l, 10.0, false, NULL));
    /* At 13 the deposits of 3.0 leave (-1), at 14 the retry of 4.2 (+1),
     * at 20 the retry of 10.0 (+1). */
    assert_exact(hp_limiter_balance(&l, 12.999), 99.0);
    assert_exact(hp_limiter_balance(&l, 13.0), 98.0);
    assert_exact(hp_limiter_balance(&l, 14.0), 99.0);
    assert_exact(hp_limiter_balance(&l, 19.999), 99.0);
    assert_exact(hp_limiter_balance(&l, 20.0), 100.0);
    /* Percentage only: 10 requests give 2 retries. */
    o.finagle_min_retries_per_s = HP_OFF;
    hp_limiter_init(&l, &o, 0.0);
    assert_false(hp_limiter_try_retry(&l, 0.0, false, NULL));
    starts(&l, 0.0, 10, false);
    assert_int_equal(take(&l, 0.0, false, 10), 2);
    /* 0.3: W = floor(1000 / 0.3) = 3333, an effective percent of 1000/3333. */
    o.finagle_percent_can_retry = 0.3;
    hp_limiter_init(&l, &o, 0.0);
    starts(&l, 0.0, 3333, false);
    assert_exact(hp_limiter_balance(&l, 0.0), 1000.0); /* not 999.9 -> 999 */
    /* Neither: Finagle's Empty budget. */
    o.finagle_percent_can_retry = HP_OFF;
    hp_limiter_init(&l, &o, 0.0);
    starts(&l, 0.0, 10, false);
    assert_false(hp_limiter_try_retry(&l, 0.0, false, NULL));
    /* Reserve only, ttl 2 s, 1 retry/s: 2 retries. */
    o.finagle_min_retries_per_s = 1.0;
    o.finagle_ttl_s = 2.0;
    hp_limiter_init(&l, &o, 0.0);
    assert_int_equal(take(&l, 0.1, false, 10), 2);
    assert_false(hp_limiter_try_retry(&l, 1.9, false, NULL));
}

TEST(test_limiter_none_and_time)
{
    hp_limiter l = make_limiter(HP_LIMITER_NONE);
    uint32_t cost = 7;

    assert_true(hp_limiter_try_retry(&l, 0.0, true, &cost));
    assert_int_equal(cost, 0);
    assert_true(isinf(hp_limiter_balance(&l, 0.0)));
    hp_limiter_init(&l, NULL, NAN); /* NULL options: defaults (NONE) */
    assert_int_equal(l.opts.kind, HP_LIMITER_NONE);
    assert_exact(l.now_s, 0.0);
    /* Time going backwards is clamped to the latest time seen. */
    l = make_limiter(HP_LIMITER_FINAGLE);
    assert_int_equal(take(&l, 100.0, false, 1000), 100);
    assert_false(hp_limiter_try_retry(&l, 50.0, false, NULL));
    assert_exact(l.now_s, 100.0);
    hp_limiter_try_retry(&l, NAN, false, NULL);
    hp_limiter_try_retry(&l, INFINITY, false, NULL);
    hp_limiter_try_retry(&l, -INFINITY, false, NULL);
    assert_exact(l.now_s, 100.0);
    assert_exact(hp_limiter_balance(&l, 5.0), 0.0); /* as at 100 */
    assert_exact(hp_limiter_balance(&l, 110.0), 100.0);
    /* Huge times: a jump empties the window; equal times still add up. */
    assert_true(hp_limiter_try_retry(&l, 1e300, false, NULL));
    assert_exact(hp_limiter_balance(&l, 1e300), 99.0);
    assert_exact(hp_limiter_balance(&l, nextafter(1e300, INFINITY)), 100.0);
    assert_exact(hp_limiter_balance(&l, DBL_MAX), 100.0);
}

/* ---- Circuit breaker ------------------------------------------------ */

static void results(hp_breaker *b, double t, int ok, int failed)
{
    while (ok-- > 0)
        hp_breaker_on_result(b, t, true);
    while (failed-- > 0)
        hp_breaker_on_result(b, t, false);
}

TEST(test_breaker_trip)
{
    hp_breaker b;
    hp_breaker_opts o = hp_breaker_defaults();

    assert_exact(o.failure_ratio, 0.5);
    assert_int_equal(o.min_requests, 20);
    assert_exact(o.window_s, 10.0);
    assert_exact(o.open_s, 5.0);
    assert_int_equal(o.probes, 3);
    hp_breaker_init(&b, NULL, 0.0);
    results(&b, 0.0, 0, 19); /* below the minimum throughput */
    assert_int_equal(hp_breaker_state(&b, 0.0), HP_CIRCUIT_CLOSED);
    assert_true(hp_breaker_allow(&b, 0.0));
    results(&b, 0.5, 0, 1);
    assert_int_equal(hp_breaker_state(&b, 0.5), HP_CIRCUIT_OPEN);
    assert_false(hp_breaker_allow(&b, 0.5));
    assert_int_equal(b.opened, 1);
    hp_breaker_init(&b, NULL, 0.0);
    results(&b, 1.0, 11, 9); /* 9/20 < 0.5 */
    assert_int_equal(hp_breaker_state(&b, 1.0), HP_CIRCUIT_CLOSED);
    results(&b, 1.0, 0, 1); /* 10/21 < 0.5 */
    assert_int_equal(hp_breaker_state(&b, 1.0), HP_CIRCUIT_CLOSED);
    results(&b, 1.0, 0, 1); /* 11/22 = 0.5: opens */
    assert_int_equal(hp_breaker_state(&b, 1.0), HP_CIRCUIT_OPEN);
    o.failure_ratio = 0.3;
    o.min_requests = 10;
    hp_breaker_init(&b, &o, 0.0);
    results(&b, 0.0, 7, 2);
    results(&b, 0.0, 0, 1); /* 3/10 == 0.3 exactly */
    assert_int_equal(hp_breaker_state(&b, 0.0), HP_CIRCUIT_OPEN);
}

TEST(test_breaker_recovery)
{
    hp_breaker b;

    hp_breaker_init(&b, NULL, 0.0);
    results(&b, 1.0, 0, 20); /* opens at 1: half-open from 6 */
    assert_int_equal(hp_breaker_state(&b, 5.999), HP_CIRCUIT_OPEN);
    assert_false(hp_breaker_allow(&b, 5.999));
    results(&b, 5.999, 5, 0); /* ignored while open */
    assert_int_equal(b.window.sum_a, 0);
    assert_int_equal(hp_breaker_state(&b, 6.0), HP_CIRCUIT_HALF_OPEN);
    assert_int_equal(hp_breaker_state(&b, 2.0), HP_CIRCUIT_OPEN); /* clamped */
    assert_true(hp_breaker_allow(&b, 6.0));
    assert_true(hp_breaker_allow(&b, 6.1));
    assert_true(hp_breaker_allow(&b, 6.2));
    assert_false(hp_breaker_allow(&b, 6.3)); /* only 3 probes */
    results(&b, 6.4, 2, 0);
    assert_int_equal(hp_breaker_state(&b, 6.4), HP_CIRCUIT_HALF_OPEN);
    results(&b, 6.5, 1, 0); /* all 3 succeeded */
    assert_int_equal(hp_breaker_state(&b, 6.5), HP_CIRCUIT_CLOSED);
    results(&b, 6.5, 0, 19); /* fresh window: not yet */
    assert_int_equal(hp_breaker_state(&b, 6.5), HP_CIRCUIT_CLOSED);
    results(&b, 7.0, 0, 1);
    assert_int_equal(hp_breaker_state(&b, 7.0), HP_CIRCUIT_OPEN);
    assert_int_equal(b.opened, 2);
    /* A failed probe reopens it for open_s from then. */
    assert_true(hp_breaker_allow(&b, 12.0));
    assert_true(hp_breaker_allow(&b, 12.0));
    results(&b, 12.5, 1, 0);
    results(&b, 13.0, 0, 1);
    assert_int_equal(hp_breaker_state(&b, 17.99), HP_CIRCUIT_OPEN);
    assert_int_equal(hp_breaker_state(&b, 18.0), HP_CIRCUIT_HALF_OPEN);
    /* In half-open, a result with no probe outstanding is ignored. */
    results(&b, 18.0, 0, 1);
    assert_int_equal(hp_breaker_state(&b, 18.0), HP_CIRCUIT_HALF_OPEN);
    assert_true(hp_breaker_allow(&b, 18.0));
    results(&b, 18.1, 5, 0); /* one probe: only one success counts */
    assert_int_equal(b.probes_ok, 1);
    assert_int_equal(hp_breaker_state(&b, 18.1), HP_CIRCUIT_HALF_OPEN);
}

TEST(test_breaker_window_and_edges)
{
    hp_breaker b;
    hp_breaker_opts o;

    hp_breaker_init(&b, NULL, 0.0);
    results(&b, 0.0, 0, 15);   /* sub-bucket [0, 1): leaves at 10 */
    results(&b, 9.5, 0, 4);
    results(&b, 10.0, 10, 1);  /* 5 failures + 10 ok in the window */
    assert_int_equal(hp_breaker_state(&b, 10.0), HP_CIRCUIT_CLOSED);
    hp_breaker_init(&b, NULL, 0.0);
    results(&b, 0.0, 0, 15);
    results(&b, 9.99, 0, 5);   /* 20 failures within the window */
    assert_int_equal(hp_breaker_state(&b, 9.99), HP_CIRCUIT_OPEN);
    /* NaN and infinite times act at the latest time. */
    assert_int_equal(hp_breaker_state(&b, NAN), HP_CIRCUIT_OPEN);
    assert_false(hp_breaker_allow(&b, INFINITY));
    assert_true(hp_breaker_allow(&b, 15.0)); /* half-open from 9.99 + 5 */
    /* Huge times: open_s vanishes next to 1e300, the state stays sane. */
    hp_breaker_init(&b, NULL, 1e300);
    results(&b, 1e300, 0, 20);
    assert_int_equal(hp_breaker_state(&b, 1e300), HP_CIRCUIT_HALF_OPEN);
    assert_string_equal(hp_circuit_name(HP_CIRCUIT_HALF_OPEN), "half_open");
    assert_null(hp_circuit_name(HP_CIRCUIT_COUNT));
    memset(&o, 0, sizeof o);
    o.window_s = INFINITY;
    hp_breaker_init(&b, &o, 0.0); /* rejected values resolve to defaults */
    assert_exact(b.opts.window_s, 10.0);
}

/* ---- Adaptive throttling -------------------------------------------- */

static void fill(hp_throttle *t, double now, int requests, int accepts)
{
    while (requests-- > 0)
        hp_throttle_allow(t, now, 0.5);
    while (accepts-- > 0)
        hp_throttle_on_accept(t, now);
}

TEST(test_throttle_probability)
{
    hp_throttle t;
    hp_throttle_opts o = hp_throttle_defaults();
    double p;

    assert_exact(o.window_s, 120.0);
    assert_exact(o.k, 2.0);
    hp_throttle_init(&t, NULL, 0.0);
    assert_exact(hp_throttle_p_reject(&t, 0.0), 0.0);
    fill(&t, 1.0, 100, 30);
    p = hp_throttle_p_reject(&t, 1.0);
    assert_exact(p, 40.0 / 101.0);
    assert_false(hp_throttle_allow(&t, 1.0, nextafter(p, 0.0)));
    /* That rejected request counted: 101 requests now. */
    p = hp_throttle_p_reject(&t, 1.0);
    assert_exact(p, 41.0 / 102.0);
    assert_true(hp_throttle_allow(&t, 1.0, p));
    fill(&t, 1.0, 0, 21); /* K * 51 accepts = 102 requests */
    assert_exact(hp_throttle_p_reject(&t, 1.0), 0.0);
    assert_true(hp_throttle_allow(&t, 1.0, 0.0));
    o.k = 1.0;
    hp_throttle_init(&t, &o, 0.0);
    fill(&t, 0.0, 10, 4);
    assert_exact(hp_throttle_p_reject(&t, 0.0), 6.0 / 11.0);
    assert_false(hp_throttle_allow(&t, 0.0, NAN)); /* u NaN reads as 0 */
    assert_true(hp_throttle_allow(&t, 0.0, 1.0));  /* u 1 reads as 1 - 2^-53 */
    assert_exact(hp_throttle_p_reject(&t, 0.0), 8.0 / 13.0);
}

TEST(test_throttle_window)
{
    hp_throttle t;

    hp_throttle_init(&t, NULL, 0.0); /* sub-buckets of 12 s */
    fill(&t, 0.0, 50, 0);
    fill(&t, 60.0, 50, 20);
    assert_exact(hp_throttle_p_reject(&t, 119.9), 60.0 / 101.0);
    assert_exact(hp_throttle_p_reject(&t, 30.0), 60.0 / 101.0); /* clamped */
    assert_exact(hp_throttle_p_reject(&t, 120.0), 10.0 / 51.0);
    {
        /* the counts behind the probability: the first 50 requests left
         * the window at 120 s; locally rejected requests count too */
        uint64_t req = 0, acc = 0;

        hp_throttle_counts(&t, 119.9, &req, &acc);
        assert_int_equal(req, 100);
        assert_int_equal(acc, 20);
        hp_throttle_counts(&t, 120.0, &req, NULL);
        assert_int_equal(req, 50);
        hp_throttle_counts(&t, 120.0, NULL, &acc);
        assert_int_equal(acc, 20);
    }
    fill(&t, 100.0, 10, 0);
    assert_exact(hp_throttle_p_reject(&t, 180.0), 10.0 / 11.0);
    fill(&t, 90.0, 1, 0); /* before 100: counted at 100 */
    assert_exact(hp_throttle_p_reject(&t, 215.99), 11.0 / 12.0);
    assert_exact(hp_throttle_p_reject(&t, 216.0), 0.0);
    assert_exact(hp_throttle_p_reject(&t, 1e308), 0.0);
    fill(&t, 1e308, 3, 1);
    assert_exact(hp_throttle_p_reject(&t, 1e308), 1.0 / 4.0);
}

/* ---- Hedging -------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Nearest rank of q among n sorted samples, as hp_hedge_quantile. */
static double nearest_rank(const double *sorted, size_t n, double q)
{
    double r = ceil(q * (double)n);
    size_t rank = r < 1.0 ? 1 : (size_t)r;

    return sorted[(rank > n ? n : rank) - 1];
}

TEST(test_hedge_fixed_and_defaults)
{
    hp_hedge h;
    hp_hedge_opts o = hp_hedge_defaults();
    hp_hedge_mode m = HP_HEDGE_FIXED;
    int i;

    assert_int_equal(o.mode, HP_HEDGE_PERCENTILE);
    assert_exact(o.delay_s, 1.0);
    assert_exact(o.percentile, 0.95);
    assert_int_equal(o.max_hedges, 1);
    assert_int_equal(o.min_samples, 20);
    o.mode = HP_HEDGE_FIXED;
    o.delay_s = 0.25;
    o.max_hedges = 2;
    hp_hedge_init(&h, &o);
    for (i = 0; i < 100; i++)
        hp_hedge_observe(&h, 3.0);
    assert_exact(hp_hedge_delay(&h), 0.25);
    assert_int_equal(hp_hedge_max(&h), 2);
    o.delay_s = HP_OFF;
    hp_hedge_init(&h, &o);
    assert_exact(hp_hedge_delay(&h), 0.0);
    assert_int_equal(hp_hedge_mode_parse("fixed", &m), 0);
    assert_int_equal(m, HP_HEDGE_FIXED);
    assert_int_equal(hp_hedge_mode_parse("p95", &m), -1);
    assert_string_equal(hp_hedge_mode_name(HP_HEDGE_PERCENTILE), "percentile");
    assert_null(hp_hedge_mode_name(HP_HEDGE_MODE_COUNT));
}

TEST(test_hedge_percentile)
{
    hp_hedge h;
    int i;

    hp_hedge_init(&h, NULL);
    assert_true(isnan(hp_hedge_quantile(&h, 0.5)));
    for (i = 1; i <= 19; i++)
        hp_hedge_observe(&h, i * 0.001);
    assert_exact(hp_hedge_delay(&h), 1.0); /* 19 < min_samples */
    hp_hedge_observe(&h, 0.020);
    /* 20 samples: p95 is the 19th, 19 ms. */
    assert_true(fabs(hp_hedge_delay(&h) - 0.019) <= 0.019 / 21.0 * 1.000001);
    for (i = 21; i <= 100; i++)
        hp_hedge_observe(&h, i * 0.001);
    /* p95 of 1..100 ms is 95 ms (nearest rank). */
    assert_true(fabs(hp_hedge_delay(&h) - 0.095) <= 0.095 / 21.0 * 1.000001);
    assert_true(fabs(hp_hedge_quantile(&h, 1.0) - 0.1) <= 0.1 / 21.0 * 1.000001);
    assert_true(fabs(hp_hedge_quantile(&h, NAN) - 0.001) <= 0.001 / 21.0 * 1.000001);
    /* NaN and negative latencies are ignored; 0 and +inf are kept. */
    hp_hedge_observe(&h, NAN);
    hp_hedge_observe(&h, -1.0);
    assert_int_equal(h.count, 100);
    hp_hedge_observe(&h, 0.0);
    hp_hedge_observe(&h, INFINITY);
    assert_int_equal(h.count, 102);
    assert_exact(hp_hedge_quantile(&h, 0.001), HP_HEDGE_MIN_S);
    assert_true(isfinite(hp_hedge_quantile(&h, 1.0)));
    assert_true(hp_hedge_quantile(&h, 1.0) > 3e4);
    /* Nearest rank is ceil(q * n): 1, 2, 4, 8, 16 ms lie in distinct bins. */
    hp_hedge_init(&h, NULL);
    for (i = 0; i < 5; i++)
        hp_hedge_observe(&h, 0.001 * (1 << i));
    assert_true(fabs(hp_hedge_quantile(&h, 0.1) - 0.001) <= 0.001 / 20.0);
    assert_true(fabs(hp_hedge_quantile(&h, 0.5) - 0.004) <= 0.004 / 20.0);
    assert_true(fabs(hp_hedge_quantile(&h, 0.6) - 0.004) <= 0.004 / 20.0);
    assert_true(fabs(hp_hedge_quantile(&h, 0.61) - 0.008) <= 0.008 / 20.0);
    assert_true(fabs(hp_hedge_quantile(&h, 0.9) - 0.016) <= 0.016 / 20.0);
    /* A bin about to overflow halves every bin, rounding up. */
    hp_hedge_init(&h, NULL);
    hp_hedge_observe(&h, 1.0);
    h.bins[1] = UINT32_MAX;
    h.count += UINT32_MAX;
    hp_hedge_observe(&h, 1e-6 * 1.05); /* lands in bin 1 */
    assert_int_equal(h.bins[1], (UINT32_MAX / 2 + 1) + 1);
    assert_int_equal(h.count, (uint64_t)h.bins[1] + 1);
}

TEST(test_hedge_oracle)
{
    enum { N = 20000 };
    static double xs[N];
    static const double qs[] = {0.001, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0};
    uint64_t seed = 42;
    hp_hedge h;
    size_t i;

    hp_hedge_init(&h, NULL);
    for (i = 0; i < N; i++) { /* log-uniform over 1e-5 .. 1e3 s, plus ties */
        xs[i] = i % 50 == 0 ? 0.125 : 1e-5 * pow(10.0, 8.0 * unif(&seed));
        hp_hedge_observe(&h, xs[i]);
    }
    qsort(xs, N, sizeof xs[0], cmp_double);
    for (i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        double want = nearest_rank(xs, N, qs[i]);
        double got = hp_hedge_quantile(&h, qs[i]);

        if (!(fabs(got - want) <= want * 0.05)) {
            print_error("q %g: %.17g vs %.17g\n", qs[i], got, want);
            fail();
        }
    }
    /* Every 97th sample as its own quantile: within 1/21, not just 5%. */
    for (i = 0; i < N; i += 97) {
        double want = nearest_rank(xs, N, (double)(i + 1) / N);
        double got = hp_hedge_quantile(&h, (double)(i + 1) / N);

        assert_true(fabs(got - want) <= want / 21.0 * (1.0 + 1e-9));
    }
}

/* ---- Option checks --------------------------------------------------- */

/* check() rejects the zero options with one field set to v. */
#define REJECTS(check, type, field, v)                                         \
    do {                                                                       \
        type o_;                                                               \
        memset(&o_, 0, sizeof o_);                                             \
        o_.field = (v);                                                        \
        if (check(&o_) == NULL) {                                              \
            print_error("%s accepts %s = %s\n", #check, #field, #v);           \
            fail();                                                            \
        }                                                                      \
    } while (0)

TEST(test_checks)
{
    hp_limiter_opts lo = hp_limiter_defaults(HP_LIMITER_ENVOY);
    hp_breaker_opts bo = hp_breaker_defaults();
    hp_throttle_opts to = hp_throttle_defaults();
    hp_hedge_opts ho = hp_hedge_defaults();

    assert_true(!hp_limiter_check(&lo) && !hp_breaker_check(&bo) &&
                !hp_throttle_check(&to) && !hp_hedge_check(&ho));
    memset(&lo, 0, sizeof lo);
    memset(&bo, 0, sizeof bo);
    memset(&to, 0, sizeof to);
    memset(&ho, 0, sizeof ho);
    assert_true(!hp_limiter_check(&lo) && !hp_breaker_check(&bo) &&
                !hp_throttle_check(&to) && !hp_hedge_check(&ho));
    assert_true(hp_limiter_check(NULL) && hp_breaker_check(NULL) &&
                hp_throttle_check(NULL) && hp_hedge_check(NULL));
    REJECTS(hp_limiter_check, hp_limiter_opts, kind, HP_LIMITER_KIND_COUNT);
    REJECTS(hp_limiter_check, hp_limiter_opts, aws_capacity, 8); /* < 10 */
    REJECTS(hp_limiter_check, hp_limiter_opts, grpc_max_tokens, 1001);
    REJECTS(hp_limiter_check, hp_limiter_opts, grpc_token_ratio, NAN);
    REJECTS(hp_limiter_check, hp_limiter_opts, grpc_token_ratio, INFINITY);
    REJECTS(hp_limiter_check, hp_limiter_opts, grpc_token_ratio, -0.5);
    REJECTS(hp_limiter_check, hp_limiter_opts, grpc_token_ratio, 0.0004);
    REJECTS(hp_limiter_check, hp_limiter_opts, envoy_budget_percent, NAN);
    REJECTS(hp_limiter_check, hp_limiter_opts, envoy_budget_percent, -2.0);
    REJECTS(hp_limiter_check, hp_limiter_opts, envoy_budget_percent, 100.5);
    REJECTS(hp_limiter_check, hp_limiter_opts, envoy_min_retry_concurrency, -2);
    REJECTS(hp_limiter_check, hp_limiter_opts, finagle_ttl_s, NAN);
    REJECTS(hp_limiter_check, hp_limiter_opts, finagle_ttl_s, -0.5);
    REJECTS(hp_limiter_check, hp_limiter_opts, finagle_ttl_s, INFINITY);
    REJECTS(hp_limiter_check, hp_limiter_opts, finagle_min_retries_per_s, -1e-9);
    REJECTS(hp_limiter_check, hp_limiter_opts, finagle_min_retries_per_s, NAN);
    REJECTS(hp_limiter_check, hp_limiter_opts, finagle_percent_can_retry, -3.0);
    REJECTS(hp_limiter_check, hp_limiter_opts, finagle_percent_can_retry, 1000.5);
    REJECTS(hp_limiter_check, hp_limiter_opts, finagle_percent_can_retry, NAN);
    REJECTS(hp_breaker_check, hp_breaker_opts, failure_ratio, 1.5);
    REJECTS(hp_breaker_check, hp_breaker_opts, failure_ratio, NAN);
    REJECTS(hp_breaker_check, hp_breaker_opts, failure_ratio, -0.1);
    REJECTS(hp_breaker_check, hp_breaker_opts, window_s, INFINITY);
    REJECTS(hp_breaker_check, hp_breaker_opts, window_s, -1.0);
    REJECTS(hp_breaker_check, hp_breaker_opts, open_s, NAN);
    REJECTS(hp_breaker_check, hp_breaker_opts, open_s, -1.0);
    REJECTS(hp_throttle_check, hp_throttle_opts, window_s, NAN);
    REJECTS(hp_throttle_check, hp_throttle_opts, window_s, -1.0);
    REJECTS(hp_throttle_check, hp_throttle_opts, k, -1.0);
    REJECTS(hp_throttle_check, hp_throttle_opts, k, INFINITY);
    REJECTS(hp_hedge_check, hp_hedge_opts, mode, HP_HEDGE_MODE_COUNT);
    REJECTS(hp_hedge_check, hp_hedge_opts, delay_s, -0.5);
    REJECTS(hp_hedge_check, hp_hedge_opts, delay_s, NAN);
    REJECTS(hp_hedge_check, hp_hedge_opts, percentile, 95.0); /* not a fraction */
    REJECTS(hp_hedge_check, hp_hedge_opts, percentile, NAN);
}

/* ---- Window against an event-list oracle ----------------------------- */

/* Bucket index b = floor(t / w) for times on a grid aligned at 0 (no
 * reset happens while gaps stay below (N - 1) widths).  An event counts
 * at query index q while b > q - N; an event before the head counts in
 * the head sub-bucket; a query before the head reads at the head. */
TEST(test_window_oracle)
{
    enum { OPS = 20000 };
    static struct { long b; uint32_t a, c; } ev[OPS];
    hp_window w;
    uint64_t seed = 7, sa, sb, oa, ob;
    long head = 0, q, n = 0, i;
    double t = 0.0, at;
    int op;

    hp_window_init(&w, 10.0, 0.0); /* width 1 */
    for (op = 0; op < OPS; op++) {
        t += floor(unif(&seed) * 24.0) / 8.0;  /* 0 .. 2.875 s, ties too */
        if (splitmix64(&seed) % 64 == 0)
            t += 12.5; /* a gap that empties the window */
        at = t - floor(unif(&seed) * 16.0) / 8.0; /* sometimes backwards */
        if (splitmix64(&seed) % 3 != 0) {
            ev[n].b = (long)floor(at);
            if (ev[n].b < head)
                ev[n].b = head;
            head = ev[n].b;
            ev[n].a = (uint32_t)(splitmix64(&seed) % 4);
            ev[n].c = (uint32_t)(splitmix64(&seed) % 3);
            hp_window_add(&w, at, ev[n].a, ev[n].c);
            n++;
        }
        q = (long)floor(at) > head ? (long)floor(at) : head;
        oa = ob = 0;
        for (i = n - 1; i >= 0 && ev[i].b > q - HP_WINDOW_BUCKETS; i--) {
            oa += ev[i].a;
            ob += ev[i].c;
        }
        hp_window_sums(&w, at, &sa, &sb);
        if (sa != oa || sb != ob) {
            print_error("op %d at %g: (%llu, %llu) want (%llu, %llu)\n", op,
                        at, (unsigned long long)sa, (unsigned long long)sb,
                        (unsigned long long)oa, (unsigned long long)ob);
            fail();
        }
    }
    hp_window_sums(&w, t + 1e9, &sa, NULL); /* a jump empties it */
    assert_int_equal(sa, 0);
    hp_window_init(&w, NAN, INFINITY); /* fallbacks: 1 s window at 0 */
    assert_exact(w.width_s, 0.1);
    assert_exact(w.head_start_s, 0.0);
    w.a[0] = UINT32_MAX - 1; /* saturation keeps the sums consistent */
    w.sum_a = UINT32_MAX - 1;
    hp_window_add(&w, 0.0, 5, 0);
    assert_int_equal(w.a[0], UINT32_MAX);
    assert_int_equal(w.sum_a, UINT32_MAX);
    assert_exact(hp_time_clamp(2.0, 1.0), 2.0);
    assert_exact(hp_time_clamp(2.0, 3.0), 3.0);
    assert_exact(hp_time_clamp(2.0, NAN), 2.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_limiter_names_and_check),
        cmocka_unit_test(test_aws_quota_timeline),
        cmocka_unit_test(test_grpc_timeline),
        cmocka_unit_test(test_envoy_budget),
        cmocka_unit_test(test_finagle_budget),
        cmocka_unit_test(test_limiter_none_and_time),
        cmocka_unit_test(test_breaker_trip),
        cmocka_unit_test(test_breaker_recovery),
        cmocka_unit_test(test_breaker_window_and_edges),
        cmocka_unit_test(test_throttle_probability),
        cmocka_unit_test(test_throttle_window),
        cmocka_unit_test(test_hedge_fixed_and_defaults),
        cmocka_unit_test(test_hedge_percentile),
        cmocka_unit_test(test_hedge_oracle),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_window_oracle),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
