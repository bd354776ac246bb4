/*
 * test_zero.c - "zero means the default, everywhere" (herdpolicy.h), as a
 * property of every public entry point of libherdpolicy.
 *
 * Each entry point that takes a policy, an options struct or one of their
 * fields is driven twice (three times where NULL is allowed): with a
 * zero-initialised struct and with the *_defaults() struct (or the
 * documented default value), over the same scripted inputs, and the two
 * runs must agree on every output and on the resulting state.  The
 * documented default values are checked too, and HP_OFF (zero as a
 * setting) is checked to mean zero, not the default: the Finagle budget
 * with percent 0.1, no minimum and a 100 s TTL allows exactly 1,000
 * retries for 10,000 requests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <math.h>
#include <string.h>

#include "herdpolicy.h"

static const int outcomes[] = {200, 429, 500, 501, 502, 503, 504, 400, 401, 404, 409, 408, 529, 418,
                               HP_OUTCOME_TIMEOUT, HP_OUTCOME_CONN_REFUSED, HP_OUTCOME_CONN_RESET,
                               HP_OUTCOME_UNKNOWN};
#define NOUT (sizeof outcomes / sizeof outcomes[0])
static const double ras[] = {HP_NO_RETRY_AFTER, 0, 0.5, 7, 119, 120, 121, 500, 1e9};
#define NRA (sizeof ras / sizeof ras[0])

static void assert_same_decision(hp_decision a, hp_decision b)
{
    assert_int_equal(a.action, b.action);
    assert_int_equal(a.reason, b.reason);
    assert_int_equal(a.cls, b.cls);
    assert_true(a.delay_s == b.delay_s);
    assert_int_equal(a.retry_after_used, b.retry_after_used);
}

static void assert_same_state(const hp_state *a, const hp_state *b)
{
    assert_true(a->prev_sleep_s == b->prev_sleep_s);
    assert_true(a->deadline_s == b->deadline_s);
    assert_int_equal(a->attempts, b->attempts);
    assert_int_equal(a->retries, b->retries);
}

/* The policy functions on {0} and on hp_policy_defaults(), for every
 * strategy, jitter-free and with a jitter. */
TEST(test_policy_zero_is_defaults)
{
    for (int s = 0; s < HP_STRATEGY_COUNT; s++) {
        hp_policy z, d = hp_policy_defaults();
        memset(&z, 0, sizeof z);
        z.strategy = d.strategy = (hp_strategy)s;
        assert_null(hp_policy_check(&z));
        assert_null(hp_policy_check(&d));
        for (int c = 0; c < HP_CLASS_COUNT; c++)
            assert_int_equal(hp_retryable(&z, (hp_class)c), hp_retryable(&d, (hp_class)c));
        for (uint32_t n = 0; n < 80; n++)
            assert_true(hp_ceiling(&z, n) == hp_ceiling(&d, n));
        hp_state sz, sd;
        hp_state_init(&sz, &z);
        hp_state_init(&sd, &d);
        assert_same_state(&sz, &sd);
        hp_state_start(&sz, &z, 10);
        hp_state_start(&sd, &d, 10);
        assert_same_state(&sz, &sd);
        assert_true(hp_attempt_timeout(&z, &sz, 11) == hp_attempt_timeout(&d, &sd, 11));
        assert_true(isinf(hp_attempt_timeout(&z, &sz, 11)));
        for (uint32_t n = 0; n < 40; n++)
            for (double u = 0; u < 1; u += 0.125)
                assert_true(hp_backoff(&z, &sz, n, u) == hp_backoff(&d, &sd, n, u));
        assert_same_state(&sz, &sd);
        /* hp_decide, hp_decide_result (every Retry-After), hp_decide_chosen */
        for (size_t o = 0; o < NOUT; o++)
            for (size_t r = 0; r < NRA; r++) {
                hp_state a, b;
                hp_state_start(&a, &z, 0);
                hp_state_start(&b, &d, 0);
                for (int k = 0; k < 6; k++) {
                    hp_on_attempt(&a);
                    hp_on_attempt(&b);
                    hp_result res = {.outcome = outcomes[o], .retry_after_s = ras[r]};
                    double u = (k + 0.5) / 6;
                    assert_same_decision(hp_decide_result(&z, &a, res, k, u), hp_decide_result(&d, &b, res, k, u));
                    assert_same_state(&a, &b);
                    assert_same_decision(hp_decide(&z, &a, outcomes[o], k, u), hp_decide(&d, &b, outcomes[o], k, u));
                    assert_same_decision(hp_decide_chosen(&z, &a, res, k, 0.25),
                                         hp_decide_chosen(&d, &b, res, k, 0.25));
                    assert_same_state(&a, &b);
                }
            }
    }
}

/* The documented defaults, read through the functions from {0}. */
TEST(test_policy_documented_defaults)
{
    hp_policy z;
    memset(&z, 0, sizeof z);
    z.strategy = HP_EXPONENTIAL;
    assert_true(hp_ceiling(&z, 0) == HP_DEFAULT_BASE_S);
    assert_true(hp_ceiling(&z, 1) == 2 * HP_DEFAULT_BASE_S); /* multiplier 0: 2 */
    assert_true(hp_ceiling(&z, 1000) == HP_DEFAULT_CAP_S);
    hp_state st;
    hp_state_start(&st, &z, 0);
    hp_on_attempt(&st);
    /* Retry-After honoured up to HP_DEFAULT_RETRY_AFTER_MAX_S (at_least) */
    hp_result r = {.outcome = 503, .retry_after_s = 7};
    hp_decision d = hp_decide_result(&z, &st, r, 0, 0.5);
    assert_int_equal(d.action, HP_RETRY);
    assert_true(d.delay_s == 7 && d.retry_after_used);
    r.retry_after_s = 500;
    hp_on_attempt(&st);
    d = hp_decide_result(&z, &st, r, 0, 0.5);
    assert_true(d.delay_s == HP_DEFAULT_RETRY_AFTER_MAX_S);
    /* 1000 attempts: max_attempts 0 is unlimited */
    for (int k = 0; k < 1000; k++) {
        hp_on_attempt(&st);
        assert_int_equal(hp_decide(&z, &st, 503, 0, 0.5).action, HP_RETRY);
    }
    hp_policy d0 = hp_policy_defaults();
    assert_true(d0.base_s == HP_DEFAULT_BASE_S && d0.cap_s == HP_DEFAULT_CAP_S &&
                d0.retry_after_max_s == HP_DEFAULT_RETRY_AFTER_MAX_S && d0.max_attempts == 0 &&
                d0.multiplier == HP_DEFAULT_MULTIPLIER);
    assert_null(hp_policy_check(&d0));
}

/* The case: a zero policy's retry_after_max_s passed to the header
 * parsers is the default, 120 s. */
TEST(test_parse_with_zero_policy_field)
{
    hp_policy z, d = hp_policy_defaults();
    memset(&z, 0, sizeof z);
    const double now = 1.7e9;
    const char *vals[] = {"7", "0", "120", "121", "99999999999", "Thu, 01 Jan 1970 00:00:07 GMT"};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        double a = -5, b = -5;
        assert_int_equal(hp_parse_retry_after(vals[i], now, z.retry_after_max_s, &a), 0);
        assert_int_equal(hp_parse_retry_after(vals[i], now, d.retry_after_max_s, &b), 0);
        assert_true(a == b);
        a = b = -5;
        if (vals[i][0] >= '0' && vals[i][0] <= '9') {
            assert_int_equal(hp_parse_retry_after_ms(vals[i], z.retry_after_max_s, &a), 0);
            assert_int_equal(hp_parse_retry_after_ms(vals[i], d.retry_after_max_s, &b), 0);
            assert_true(a == b);
        }
    }
    double x = -5;
    assert_int_equal(hp_parse_retry_after("7", now, z.retry_after_max_s, &x), 0);
    assert_true(x == 7);
    assert_int_equal(hp_parse_retry_after("121", now, z.retry_after_max_s, &x), 0);
    assert_true(x == HP_DEFAULT_RETRY_AFTER_MAX_S);
}

/* HP_OFF in retry_after_max_s is zero, not the default. */
TEST(test_retry_after_max_off)
{
    hp_policy p = hp_policy_defaults();
    p.strategy = HP_CONSTANT;
    p.base_s = 1;
    p.retry_after_max_s = HP_OFF;
    assert_null(hp_policy_check(&p));
    p.retry_after_max_s = -2;
    assert_non_null(hp_policy_check(&p));
    p.retry_after_max_s = HP_OFF;
    hp_state st;
    hp_state_start(&st, &p, 0);
    hp_on_attempt(&st);
    hp_result r = {.outcome = 429, .retry_after_s = 7};
    hp_decision d = hp_decide_result(&p, &st, r, 0, 0.5);
    assert_int_equal(d.action, HP_RETRY);
    assert_true(d.delay_s == 1 && !d.retry_after_used); /* the backoff: nothing honoured past 0 s */
    /* instead + stop: any positive Retry-After is above the maximum */
    p.ra_mode = HP_RA_INSTEAD;
    p.ra_above = HP_RA_ABOVE_STOP;
    hp_on_attempt(&st);
    d = hp_decide_result(&p, &st, r, 0, 0.5);
    assert_int_equal(d.action, HP_GIVE_UP);
    assert_int_equal(d.reason, HP_REASON_RETRY_AFTER);
    double x = -5;
    assert_int_equal(hp_parse_retry_after("7", 0, p.retry_after_max_s, &x), 0);
    assert_true(x == 0);
}

/* Runs the same scripted timeline on two limiters; they must agree on every
 * answer and end in the same state. */
static void same_limiters(hp_limiter *a, hp_limiter *b)
{
    assert_memory_equal(a, b, sizeof *a);
    for (int i = 0; i < 400; i++) {
        double t = i * 0.37;
        bool retry = i % 3 == 1, timeout = i % 7 == 0;
        hp_limiter_on_request_start(a, t, retry);
        hp_limiter_on_request_start(b, t, retry);
        uint32_t ca = 0, cb = 0;
        if (i % 2) {
            assert_int_equal(hp_limiter_try_retry(a, t, timeout, &ca), hp_limiter_try_retry(b, t, timeout, &cb));
            assert_int_equal(ca, cb);
            hp_limiter_on_retry_end(a, t);
            hp_limiter_on_retry_end(b, t);
            hp_limiter_on_failure(a, t);
            hp_limiter_on_failure(b, t);
        } else {
            hp_limiter_on_success(a, t, (uint32_t)(i % 5));
            hp_limiter_on_success(b, t, (uint32_t)(i % 5));
        }
        if (i % 4 == 0) {
            hp_limiter_on_request_end(a, t);
            hp_limiter_on_request_end(b, t);
        }
        assert_true(hp_limiter_balance(a, t) == hp_limiter_balance(b, t));
    }
    assert_memory_equal(a, b, sizeof *a);
}

TEST(test_limiter_zero_is_defaults)
{
    for (int k = 0; k < HP_LIMITER_KIND_COUNT; k++) {
        hp_limiter_opts z, d = hp_limiter_defaults((hp_limiter_kind)k);
        memset(&z, 0, sizeof z);
        z.kind = (hp_limiter_kind)k;
        assert_null(hp_limiter_check(&z));
        assert_null(hp_limiter_check(&d));
        hp_limiter a, b;
        hp_limiter_init(&a, &z, 3);
        hp_limiter_init(&b, &d, 3);
        same_limiters(&a, &b);
        if (k == HP_LIMITER_NONE) {
            hp_limiter_init(&a, NULL, 3);
            hp_limiter_init(&b, &d, 3);
            same_limiters(&a, &b);
        }
    }
    hp_limiter_opts d = hp_limiter_defaults(HP_LIMITER_FINAGLE);
    assert_true(d.aws_capacity == 500 && d.aws_retry_cost == 5 && d.aws_timeout_cost == 10 &&
                d.aws_success_increment == 1 && d.grpc_max_tokens == 10 && d.grpc_token_ratio == 0.1 &&
                d.envoy_budget_percent == 20 && d.envoy_min_retry_concurrency == 3 && d.finagle_ttl_s == 10 &&
                d.finagle_min_retries_per_s == 10 && d.finagle_percent_can_retry == 0.2);
}

/* Retries a Finagle budget allows after `requests` first attempts inside
 * one TTL, asking until it refuses. */
static unsigned finagle_allowed(double min_per_s, unsigned requests)
{
    hp_limiter_opts o = {.kind = HP_LIMITER_FINAGLE, .finagle_percent_can_retry = 0.1,
                         .finagle_min_retries_per_s = min_per_s, .finagle_ttl_s = 100};
    assert_null(hp_limiter_check(&o));
    hp_limiter l;
    hp_limiter_init(&l, &o, 0);
    for (unsigned i = 0; i < requests; i++)
        hp_limiter_on_request_start(&l, i * 1e-3, false);
    unsigned n = 0;
    while (n < 100000 && hp_limiter_try_retry(&l, 10, false, NULL))
        n++;
    return n;
}

/* The case: percent 0.1, no minimum, TTL 100 s, 10,000 requests. */
TEST(test_finagle_off_is_zero)
{
    assert_int_equal(finagle_allowed(HP_OFF, 10000), 1000); /* 10% of 10,000 */
    assert_int_equal(finagle_allowed(0, 10000), 2000);      /* 0: the default 10/s x 100 s = 1,000 more */
    assert_int_equal(finagle_allowed(0.0001, 10000), 1000); /* a reserve of 0.01 retries */
}

static void same_breakers(hp_breaker *a, hp_breaker *b)
{
    assert_memory_equal(a, b, sizeof *a);
    for (int i = 0; i < 600; i++) {
        double t = i * 0.05;
        bool ok = i < 50 || i % 5 == 0 || i > 400;
        assert_int_equal(hp_breaker_state(a, t), hp_breaker_state(b, t));
        bool x = hp_breaker_allow(a, t), y = hp_breaker_allow(b, t);
        assert_int_equal(x, y);
        if (x) {
            hp_breaker_on_result(a, t, ok);
            hp_breaker_on_result(b, t, ok);
        }
    }
    assert_memory_equal(a, b, sizeof *a);
}

TEST(test_breaker_throttle_hedge_zero_is_defaults)
{
    hp_breaker_opts bz, bd = hp_breaker_defaults();
    memset(&bz, 0, sizeof bz);
    assert_null(hp_breaker_check(&bz));
    assert_true(bd.failure_ratio == 0.5 && bd.min_requests == 20 && bd.window_s == 10 && bd.open_s == 5 &&
                bd.probes == 3);
    hp_breaker ba, bb;
    hp_breaker_init(&ba, &bz, 1);
    hp_breaker_init(&bb, &bd, 1);
    same_breakers(&ba, &bb);
    hp_breaker_init(&ba, NULL, 1);
    hp_breaker_init(&bb, &bd, 1);
    same_breakers(&ba, &bb);
    assert_true(ba.opened > 0); /* the timeline did open it */

    hp_throttle_opts tz, td = hp_throttle_defaults();
    memset(&tz, 0, sizeof tz);
    assert_null(hp_throttle_check(&tz));
    assert_true(td.window_s == 120 && td.k == 2);
    hp_throttle ta, tb, tc;
    hp_throttle_init(&ta, &tz, 0);
    hp_throttle_init(&tb, &td, 0);
    hp_throttle_init(&tc, NULL, 0);
    assert_memory_equal(&ta, &tb, sizeof ta);
    assert_memory_equal(&ta, &tc, sizeof ta);
    for (int i = 0; i < 500; i++) {
        double t = i * 0.5, u = (i % 10) / 10.0;
        assert_true(hp_throttle_p_reject(&ta, t) == hp_throttle_p_reject(&tb, t));
        bool x = hp_throttle_allow(&ta, t, u);
        assert_int_equal(x, hp_throttle_allow(&tb, t, u));
        assert_int_equal(x, hp_throttle_allow(&tc, t, u));
        if (i % 3 == 0) {
            hp_throttle_on_accept(&ta, t);
            hp_throttle_on_accept(&tb, t);
            hp_throttle_on_accept(&tc, t);
        }
    }
    assert_memory_equal(&ta, &tb, sizeof ta);
    assert_memory_equal(&ta, &tc, sizeof ta);

    for (int m = 0; m < HP_HEDGE_MODE_COUNT; m++) {
        hp_hedge_opts hz, hd = hp_hedge_defaults();
        memset(&hz, 0, sizeof hz);
        hz.mode = hd.mode = (hp_hedge_mode)m;
        assert_null(hp_hedge_check(&hz));
        hp_hedge ha, hb, hc;
        hp_hedge_init(&ha, &hz);
        hp_hedge_init(&hb, &hd);
        hp_hedge_init(&hc, NULL);
        if (m == HP_HEDGE_PERCENTILE)
            assert_memory_equal(&ha, &hc, sizeof ha);
        assert_memory_equal(&ha, &hb, sizeof ha);
        for (int i = 0; i < 100; i++) {
            assert_true(hp_hedge_delay(&ha) == hp_hedge_delay(&hb));
            assert_int_equal(hp_hedge_max(&ha), hp_hedge_max(&hb));
            hp_hedge_observe(&ha, 0.01 * (i % 17 + 1));
            hp_hedge_observe(&hb, 0.01 * (i % 17 + 1));
        }
        assert_true(hp_hedge_quantile(&ha, 0.5) == hp_hedge_quantile(&hb, 0.5));
        assert_memory_equal(&ha, &hb, sizeof ha);
    }
    hp_hedge_opts hd = hp_hedge_defaults();
    assert_true(hd.delay_s == 1 && hd.percentile == 0.95 && hd.max_hedges == 1 && hd.min_samples == 20);
    /* HP_OFF: hedge at once */
    hp_hedge_opts off = {.mode = HP_HEDGE_FIXED, .delay_s = HP_OFF};
    hp_hedge h;
    hp_hedge_init(&h, &off);
    assert_true(hp_hedge_delay(&h) == 0);

    /* a window of 0 s is the documented 1 s */
    hp_window w0, w1;
    hp_window_init(&w0, 0, 5);
    hp_window_init(&w1, 1, 5);
    assert_memory_equal(&w0, &w1, sizeof w0);
}

/* The client API: every mechanism on with zero options, against the same
 * with the defaults written out, and a zero policy against the defaults. */
TEST(test_client_zero_is_defaults)
{
    assert_string_equal(hp_client_check(NULL), "client options are NULL");
    for (int k = 0; k < HP_LIMITER_KIND_COUNT; k++) {
        hp_client_opts z = {.breaker = true, .throttling = true, .hedging = true};
        z.limiter.kind = (hp_limiter_kind)k;
        hp_client_opts d = {.limiter = hp_limiter_defaults((hp_limiter_kind)k),
                            .breaker = true,
                            .breaker_opts = hp_breaker_defaults(),
                            .throttling = true,
                            .throttle_opts = hp_throttle_defaults(),
                            .hedging = true,
                            .hedge_opts = hp_hedge_defaults()};
        assert_null(hp_client_check(&z));
        assert_null(hp_client_check(&d));
        hp_policy pz, pd = hp_policy_defaults();
        memset(&pz, 0, sizeof pz);
        pz.strategy = pd.strategy = HP_FULL_JITTER;
        pz.max_attempts = pd.max_attempts = 4;
        pz.adaptive_rate = pd.adaptive_rate = k % 2 == 1;
        hp_client a, b;
        hp_client_init(&a, &z, 0);
        hp_client_init(&b, &d, 0);
        for (int c = 0; c < 300; c++) {
            double t = c * 0.2;
            hp_call ca, cb;
            hp_call_start(&ca, &pz, t);
            hp_call_start(&cb, &pd, t);
            for (int att = 0; att < 8; att++) {
                double u = ((c * 7 + att * 3) % 11) / 11.0;
                hp_admit x = hp_call_admit(&a, &ca, &pz, t, u), y = hp_call_admit(&b, &cb, &pd, t, u);
                assert_int_equal(x.allowed, y.allowed);
                assert_int_equal(x.deny, y.deny);
                assert_true(x.timeout_s == y.timeout_s && x.hedge_after_s == y.hedge_after_s &&
                            x.hedges == y.hedges && x.wait_s == y.wait_s);
                if (x.deny == HP_DENY_WAIT) {
                    t += x.wait_s;
                    continue;
                }
                if (!x.allowed)
                    break;
                assert_true(hp_client_hedge_next(&a, 1) == hp_client_hedge_next(&b, 1));
                t += 0.05;
                int out = (c / 30) % 2 ? 503 : (c + att) % 4 ? 200 : 429;
                hp_result r = {.outcome = out, .retry_after_s = out == 429 ? 1 : HP_NO_RETRY_AFTER};
                hp_decision da = hp_call_outcome(&a, &ca, &pz, r, t, u), db = hp_call_outcome(&b, &cb, &pd, r, t, u);
                assert_same_decision(da, db);
                if (da.action != HP_RETRY)
                    break;
                t += da.delay_s;
            }
            hp_call_finish(&a, &ca, t);
            hp_call_finish(&b, &cb, t);
            assert_same_state(&ca.st, &cb.st);
        }
        assert_memory_equal(&a.limiter, &b.limiter, sizeof a.limiter);
        assert_memory_equal(&a.breaker, &b.breaker, sizeof a.breaker);
        assert_memory_equal(&a.throttle, &b.throttle, sizeof a.throttle);
        assert_memory_equal(&a.hedge, &b.hedge, sizeof a.hedge);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_policy_zero_is_defaults),
        cmocka_unit_test(test_policy_documented_defaults),
        cmocka_unit_test(test_parse_with_zero_policy_field),
        cmocka_unit_test(test_retry_after_max_off),
        cmocka_unit_test(test_limiter_zero_is_defaults),
        cmocka_unit_test(test_finagle_off_is_zero),
        cmocka_unit_test(test_breaker_throttle_hedge_zero_is_defaults),
        cmocka_unit_test(test_client_zero_is_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
