/*
 * test_call.c - the client API (hp_client / hp_call) on hand-written
 * timelines: every figure below is worked out by hand from the documented
 * order (herdpolicy.h, "The client API").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "herdpolicy.h"
#include "testutil.h"



/* Full jitter, base 0.5 s, cap 8 s, 4 attempts, no shared mechanism:
 * sleeps u * min(8, 0.5 * 2^n) with u = 0.5: 0.25, 0.5, 1; then attempts
 * run out. */
static void test_loop_without_client(void **state)
{
    (void)state;
    hp_policy p = {.strategy = HP_FULL_JITTER, .base_s = 0.5, .cap_s = 8, .max_attempts = 4};
    hp_call call;
    double now = 10;
    hp_call_start(&call, &p, now);
    const double want[] = {0.25, 0.5, 1.0};
    for (int i = 0; i < 4; i++) {
        hp_admit a = hp_call_admit(NULL, &call, &p, now, 0.9);
        assert_true(a.allowed);
        assert_int_equal(a.deny, HP_DENY_NONE);
        assert_true(isinf(a.timeout_s));
        assert_true(isinf(a.hedge_after_s));
        assert_int_equal(call.st.attempts, (uint32_t)i + 1);
        now += 0.1;
        hp_decision d = hp_call_outcome(NULL, &call, &p, (hp_result){.outcome = 503, .retry_after_s = -1}, now, 0.5);
        if (i < 3) {
            assert_int_equal(d.action, HP_RETRY);
            assert_close(d.delay_s, want[i], EPS);
            now += d.delay_s;
        } else {
            assert_int_equal(d.action, HP_GIVE_UP);
            assert_int_equal(d.reason, HP_REASON_ATTEMPTS);
        }
    }
    hp_call_finish(NULL, &call, now);
}

/* A 2 s budget with 1.5 s attempt timeouts: the first attempt gets 1.5 s,
 * the second (sent at 1.6) gets what is left, 0.4 s; at 2.0 nothing is
 * left and the attempt is denied without being counted. */
static void test_deadline(void **state)
{
    (void)state;
    hp_policy p = {.strategy = HP_CONSTANT, .base_s = 0.1, .cap_s = 1, .budget_s = 2, .attempt_timeout_s = 1.5};
    hp_call call;
    hp_call_start(&call, &p, 0);
    hp_admit a = hp_call_admit(NULL, &call, &p, 0, 0);
    assert_true(a.allowed);
    assert_close(a.timeout_s, 1.5, EPS);
    hp_decision d = hp_call_outcome(NULL, &call, &p, (hp_result){.outcome = HP_OUTCOME_TIMEOUT, .retry_after_s = -1}, 1.5, 0);
    assert_int_equal(d.action, HP_RETRY);
    assert_close(d.delay_s, 0.1, EPS);
    a = hp_call_admit(NULL, &call, &p, 1.6, 0);
    assert_true(a.allowed);
    assert_close(a.timeout_s, 0.4, 1e-9);
    assert_int_equal(call.st.attempts, 2);
    a = hp_call_admit(NULL, &call, &p, 2.0, 0);
    assert_false(a.allowed);
    assert_int_equal(a.deny, HP_DENY_DEADLINE);
    assert_int_equal(call.st.attempts, 2); /* not counted */
    /* an outer deadline tightens the call's own */
    hp_call_start(&call, &p, 0);
    call.st.deadline_s = 0.5;
    a = hp_call_admit(NULL, &call, &p, 0, 0);
    assert_close(a.timeout_s, 0.5, EPS);
    /* a retry whose sleep would reach the deadline gives up now */
    d = hp_call_outcome(NULL, &call, &p, (hp_result){.outcome = 503, .retry_after_s = -1}, 0.45, 0);
    assert_int_equal(d.action, HP_GIVE_UP);
    assert_int_equal(d.reason, HP_REASON_BUDGET);
}

/* Adaptive throttling, K = 2, window 120 s: 3 requests and no accepts give
 * p = (3 - 0) / (3 + 1) = 0.75 for the 4th; u = 0.7 < 0.75 is rejected,
 * u = 0.8 is not.  The attempt is counted before throttling. */
static void test_throttled(void **state)
{
    (void)state;
    hp_client_opts o = {.throttling = true};
    assert_null(hp_client_check(&o));
    hp_client c;
    hp_client_init(&c, &o, 0);
    hp_policy p = {.max_attempts = 10};
    for (int i = 0; i < 3; i++) {
        hp_call call;
        hp_call_start(&call, &p, 0);
        /* p_reject before request i is i / (i + 1) - 0 ... the first is 0 */
        hp_admit a = hp_call_admit(&c, &call, &p, 0, 0.999);
        assert_true(a.allowed);
        hp_call_outcome(&c, &call, &p, (hp_result){.outcome = 503, .retry_after_s = -1}, 0, 0);
        hp_call_finish(&c, &call, 0);
    }
    assert_close(hp_throttle_p_reject(&c.throttle, 0), 0.75, EPS);
    hp_call call;
    hp_call_start(&call, &p, 0);
    hp_admit a = hp_call_admit(&c, &call, &p, 0, 0.7);
    assert_false(a.allowed);
    assert_int_equal(a.deny, HP_DENY_THROTTLED);
    assert_int_equal(call.st.attempts, 1);
    /* the rejected request counted too: p = 4 / 5 */
    assert_close(hp_throttle_p_reject(&c.throttle, 0), 0.8, EPS);
    hp_call_start(&call, &p, 0);
    a = hp_call_admit(&c, &call, &p, 0, 0.8);
    assert_true(a.allowed);
    /* a 200 is an accept; a 429, 503 or timeout is not */
    hp_call_outcome(&c, &call, &p, (hp_result){.outcome = 200, .retry_after_s = -1}, 0, 0);
    assert_close(hp_throttle_p_reject(&c.throttle, 0), (5.0 - 2.0) / 6.0, EPS);
}

/* Breaker: min 4 results, ratio 0.5, open 5 s, 1 probe.  A 404 (not the
 * server's failure: a success for the breaker) and two 503s are 3 results,
 * below the minimum; a refused connection makes 3 failures of 4 and opens
 * it; the next attempt is denied; at t = 5 one probe passes and a success
 * closes it. */
static void test_breaker(void **state)
{
    (void)state;
    hp_client_opts o = {.breaker = true,
                        .breaker_opts = {.failure_ratio = 0.5, .min_requests = 4, .window_s = 10, .open_s = 5, .probes = 1}};
    hp_client c;
    hp_client_init(&c, &o, 0);
    hp_policy p = {.max_attempts = 1};
    hp_call call;
    for (int i = 0; i < 3; i++) {
        hp_call_start(&call, &p, 0);
        assert_true(hp_call_admit(&c, &call, &p, 0, 0).allowed);
        hp_decision d = hp_call_outcome(&c, &call, &p, (hp_result){.outcome = i == 0 ? 404 : 503, .retry_after_s = -1}, 0, 0);
        assert_int_equal(d.action, HP_GIVE_UP);
    }
    assert_int_equal(hp_breaker_state(&c.breaker, 0), HP_CIRCUIT_CLOSED); /* 3 results: below the minimum */
    hp_call_start(&call, &p, 0);
    assert_true(hp_call_admit(&c, &call, &p, 0, 0).allowed);
    hp_call_outcome(&c, &call, &p, (hp_result){.outcome = HP_OUTCOME_CONN_REFUSED, .retry_after_s = -1}, 0, 0);
    assert_int_equal(hp_breaker_state(&c.breaker, 0), HP_CIRCUIT_OPEN);
    hp_call_start(&call, &p, 1);
    hp_admit a = hp_call_admit(&c, &call, &p, 1, 0);
    assert_false(a.allowed);
    assert_int_equal(a.deny, HP_DENY_BREAKER);
    assert_string_equal(hp_deny_name(a.deny), "breaker");
    hp_call_start(&call, &p, 5);
    assert_true(hp_call_admit(&c, &call, &p, 5, 0).allowed); /* the probe */
    hp_call other;
    hp_call_start(&other, &p, 5);
    assert_false(hp_call_admit(&c, &other, &p, 5, 0).allowed); /* probes out */
    hp_call_outcome(&c, &call, &p, (hp_result){.outcome = 200, .retry_after_s = -1}, 5.1, 0);
    assert_int_equal(hp_breaker_state(&c.breaker, 5.1), HP_CIRCUIT_CLOSED);
}

/* AWS quota of 10 tokens, 5 a retry, 10 after a timeout: the first retry
 * takes 5, the second 5 (0 left), the third is refused (retry_limited);
 * the success of a retry gives its 5 back. */
static void test_limiter(void **state)
{
    (void)state;
    hp_client_opts o = {.limiter = {.kind = HP_LIMITER_AWS_QUOTA, .aws_capacity = 10, .aws_retry_cost = 5,
                                    .aws_timeout_cost = 10, .aws_success_increment = 1}};
    assert_null(hp_client_check(&o));
    hp_client c;
    hp_client_init(&c, &o, 0);
    hp_policy p = {.strategy = HP_IMMEDIATE, .max_attempts = 10};
    hp_call call;
    hp_call_start(&call, &p, 0);
    hp_result e503 = {.outcome = 503, .retry_after_s = -1};
    assert_true(hp_call_admit(&c, &call, &p, 0, 0).allowed);
    hp_decision d = hp_call_outcome(&c, &call, &p, e503, 0, 0);
    assert_int_equal(d.action, HP_RETRY);
    assert_int_equal(call.retry_cost, 5);
    assert_close(hp_limiter_balance(&c.limiter, 0), 5, EPS);
    assert_true(hp_call_admit(&c, &call, &p, 0, 0).allowed);
    d = hp_call_outcome(&c, &call, &p, e503, 0, 0);
    assert_int_equal(d.action, HP_RETRY);
    assert_close(hp_limiter_balance(&c.limiter, 0), 0, EPS);
    assert_true(hp_call_admit(&c, &call, &p, 0, 0).allowed);
    d = hp_call_outcome(&c, &call, &p, (hp_result){.outcome = 200, .retry_after_s = -1}, 0, 0);
    assert_int_equal(d.action, HP_DONE_OK);
    assert_close(hp_limiter_balance(&c.limiter, 0), 5, EPS); /* the retry's 5 back */
    hp_call_finish(&c, &call, 0);
    /* a timeout costs 10: refused with 5 left */
    hp_call_start(&call, &p, 0);
    assert_true(hp_call_admit(&c, &call, &p, 0, 0).allowed);
    hp_policy pt = p;
    pt.on_timeout = HP_TIMEOUT_ALWAYS;
    d = hp_call_outcome(&c, &call, &pt, (hp_result){.outcome = HP_OUTCOME_TIMEOUT, .retry_after_s = -1}, 0, 0);
    assert_int_equal(d.action, HP_GIVE_UP);
    assert_int_equal(d.reason, HP_REASON_RETRY_LIMITED);
    assert_close(hp_limiter_balance(&c.limiter, 0), 5, EPS);
}

/* Envoy budget with a minimum of 1 retry in flight and 0%: a granted
 * retry holds the slot until the retry's outcome; a call abandoned after
 * the grant releases it in hp_call_finish. */
static void test_envoy_slot_released(void **state)
{
    (void)state;
    hp_client_opts o = {.limiter = {.kind = HP_LIMITER_ENVOY, .envoy_budget_percent = HP_OFF,
                                    .envoy_min_retry_concurrency = 1}};
    hp_client c;
    hp_client_init(&c, &o, 0);
    hp_policy p = {.max_attempts = 5};
    hp_call a1, a2;
    hp_result e503 = {.outcome = 503, .retry_after_s = -1};
    hp_call_start(&a1, &p, 0);
    hp_call_start(&a2, &p, 0);
    assert_true(hp_call_admit(&c, &a1, &p, 0, 0).allowed);
    assert_true(hp_call_admit(&c, &a2, &p, 0, 0).allowed);
    assert_int_equal(hp_call_outcome(&c, &a1, &p, e503, 0, 0).action, HP_RETRY);
    assert_int_equal(c.limiter.active_retries, 1);
    hp_decision d = hp_call_outcome(&c, &a2, &p, e503, 0, 0);
    assert_int_equal(d.reason, HP_REASON_RETRY_LIMITED); /* the one slot is taken */
    hp_call_finish(&c, &a1, 0); /* a1 abandons its retry */
    assert_int_equal(c.limiter.active_retries, 0);
    hp_call_finish(&c, &a1, 0); /* idempotent */
    assert_int_equal(c.limiter.active_retries, 0);
    /* the retry's outcome ends it too */
    hp_call_start(&a1, &p, 1);
    assert_true(hp_call_admit(&c, &a1, &p, 1, 0).allowed);
    assert_int_equal(hp_call_outcome(&c, &a1, &p, e503, 1, 0).action, HP_RETRY);
    assert_true(hp_call_admit(&c, &a1, &p, 1, 0).allowed);
    assert_int_equal(c.limiter.active_retries, 1);
    hp_call_outcome(&c, &a1, &p, (hp_result){.outcome = 200, .retry_after_s = -1}, 1.5, 0);
    assert_int_equal(c.limiter.active_retries, 0);
}

/* Hedging, fixed 0.2 s, 2 copies: offered when below the attempt's
 * timeout; the tracker learns only from successful first attempts. */
static void test_hedging(void **state)
{
    (void)state;
    hp_client_opts o = {.hedging = true, .hedge_opts = {.mode = HP_HEDGE_FIXED, .delay_s = 0.2, .max_hedges = 2}};
    hp_client c;
    hp_client_init(&c, &o, 0);
    hp_policy p = {.attempt_timeout_s = 1, .max_attempts = 3};
    hp_call call;
    hp_call_start(&call, &p, 0);
    hp_admit a = hp_call_admit(&c, &call, &p, 0, 0);
    assert_close(a.hedge_after_s, 0.2, EPS);
    assert_int_equal(a.hedges, 2);
    hp_call_outcome(&c, &call, &p, (hp_result){.outcome = 200, .retry_after_s = -1}, 0.05, 0);
    assert_int_equal(c.hedge.seen, 1);
    assert_close(hp_client_hedge_next(&c, 1), 0.2, EPS); /* a second copy */
    assert_true(isinf(hp_client_hedge_next(&c, 2)));    /* at most 2 */
    assert_true(isinf(hp_client_hedge_next(NULL, 0)));
    p.attempt_timeout_s = 0.1; /* below the delay: no copy */
    hp_call_start(&call, &p, 1);
    a = hp_call_admit(&c, &call, &p, 1, 0);
    assert_true(isinf(a.hedge_after_s));
    assert_int_equal(a.hedges, 0);
    hp_call_outcome(&c, &call, &p, (hp_result){.outcome = 503, .retry_after_s = -1}, 1.05, 0);
    a = hp_call_admit(&c, &call, &p, 1.1, 0);
    hp_call_outcome(&c, &call, &p, (hp_result){.outcome = 200, .retry_after_s = -1}, 1.15, 0);
    assert_int_equal(c.hedge.seen, 1); /* a retry's latency is not a first attempt's */
}

/* Retry-After longer than the backoff is used; an overloaded 503 under
 * obey_overload ends the call. */
static void test_retry_after_and_overload(void **state)
{
    (void)state;
    hp_policy p = {.strategy = HP_EXPONENTIAL, .base_s = 1, .cap_s = 10, .max_attempts = 5};
    hp_call call;
    hp_call_start(&call, &p, 0);
    hp_call_admit(NULL, &call, &p, 0, 0);
    hp_decision d = hp_call_outcome(NULL, &call, &p, (hp_result){.outcome = 429, .retry_after_s = 3}, 0, 0);
    assert_int_equal(d.action, HP_RETRY);
    assert_close(d.delay_s, 3, EPS);
    assert_true(d.retry_after_used);
    hp_result over = {.outcome = 503, .retry_after_s = -1, .overloaded = true};
    hp_call_admit(NULL, &call, &p, 3, 0);
    d = hp_call_outcome(NULL, &call, &p, over, 3, 0);
    assert_int_equal(d.action, HP_RETRY); /* not obeyed: the backoff, 2 s */
    assert_close(d.delay_s, 2, EPS);
    p.obey_overload = true;
    hp_call_admit(NULL, &call, &p, 5, 0);
    d = hp_call_outcome(NULL, &call, &p, over, 5, 0);
    assert_int_equal(d.action, HP_GIVE_UP);
    assert_int_equal(d.reason, HP_REASON_NON_RETRYABLE);
}

/* hp_decide_chosen: the caller's own delay, the policy's class, attempt and
 * deadline rules, in that order. */
static void test_decide_chosen(void **state)
{
    (void)state;
    hp_policy p = {.max_attempts = 2, .budget_s = 10, .non_idempotent = true};
    hp_state st;
    hp_state_start(&st, &p, 0);
    hp_on_attempt(&st);
    hp_result to = {.outcome = HP_OUTCOME_TIMEOUT, .retry_after_s = -1};
    hp_decision d = hp_decide_chosen(&p, &st, to, 1, 2.5);
    assert_int_equal(d.action, HP_RETRY); /* the caller re-issues, idempotent or not */
    assert_close(d.delay_s, 2.5, EPS);
    assert_int_equal(st.retries, 1);
    hp_on_attempt(&st);
    d = hp_decide_chosen(&p, &st, to, 4, 1);
    assert_int_equal(d.reason, HP_REASON_ATTEMPTS);
    p.max_attempts = 0;
    d = hp_decide_chosen(&p, &st, to, 8, 2);
    assert_int_equal(d.reason, HP_REASON_BUDGET); /* 8 + 2 reaches the deadline at 10 */
    d = hp_decide_chosen(&p, &st, (hp_result){.outcome = 400, .retry_after_s = -1}, 8, 0);
    assert_int_equal(d.reason, HP_REASON_NON_RETRYABLE);
    d = hp_decide_chosen(&p, &st, (hp_result){.outcome = 200, .retry_after_s = -1}, 8, 0);
    assert_int_equal(d.action, HP_DONE_OK);
    d = hp_decide_chosen(&p, &st, to, 1, NAN);
    assert_int_equal(d.action, HP_RETRY);
    assert_close(d.delay_s, 0, EPS);
}

/* AWS adaptive mode through the client API: no pacing until a throttling
 * response; after a 429 the send-rate limiter is on, and once its bucket
 * is empty an attempt is told to wait (HP_DENY_WAIT, the token reserved);
 * admitted again after the wait it goes on without taking a second token.
 * A policy without adaptive_rate on the same client is never paced. */
static void test_adaptive_wait(void **state)
{
    (void)state;
    hp_client c;
    hp_client_init(&c, NULL, 0);
    hp_policy p = {.strategy = HP_IMMEDIATE, .max_attempts = 100, .adaptive_rate = true};
    hp_policy plain = {.strategy = HP_IMMEDIATE, .max_attempts = 100};
    hp_call call;
    hp_call_start(&call, &p, 0);
    hp_admit a = hp_call_admit(&c, &call, &p, 0, 0);
    assert_true(a.allowed);
    assert_false(c.adaptive.enabled);
    hp_call_outcome(&c, &call, &p, (hp_result){.outcome = 429, .retry_after_s = -1}, 0.1, 0);
    assert_true(c.adaptive.enabled);
    double now = 0.1;
    int waited = 0;
    for (int i = 0; i < 50 && !waited; i++) {
        a = hp_call_admit(&c, &call, &p, now, 0);
        if (a.deny == HP_DENY_WAIT) {
            waited = 1;
            assert_false(a.allowed);
            assert_true(a.wait_s > 0);
            assert_true(call.flags & HP_CALL_TOKEN_HELD);
            double tokens = c.adaptive.capacity;
            uint32_t attempts = call.st.attempts;
            now += a.wait_s;
            a = hp_call_admit(&c, &call, &p, now, 0);
            assert_true(a.allowed);
            assert_false(call.flags & HP_CALL_TOKEN_HELD);
            assert_int_equal(call.st.attempts, attempts + 1);
            assert_close(c.adaptive.capacity, tokens, EPS); /* no second token */
        } else {
            assert_true(a.allowed);
        }
    }
    assert_true(waited);
    hp_call other;
    hp_call_start(&other, &plain, now);
    for (int i = 0; i < 20; i++)
        assert_true(hp_call_admit(&c, &other, &plain, now, 0).allowed);
    assert_string_equal(hp_deny_name(HP_DENY_WAIT), "wait");
}

/* The options are checked mechanism by mechanism. */
static void test_client_check(void **state)
{
    (void)state;
    hp_client_opts o;
    memset(&o, 0, sizeof o);
    assert_null(hp_client_check(&o));
    o.breaker = true;
    o.breaker_opts.failure_ratio = 2;
    assert_non_null(hp_client_check(&o));
    o.breaker = false; /* not enabled: not checked */
    assert_null(hp_client_check(&o));
    o.limiter.kind = HP_LIMITER_KIND_COUNT;
    assert_non_null(hp_client_check(&o));
    assert_null(hp_deny_name(HP_DENY_COUNT));
    assert_string_equal(hp_deny_name(HP_DENY_THROTTLED), "throttled");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_without_client), cmocka_unit_test(test_deadline),
        cmocka_unit_test(test_throttled),           cmocka_unit_test(test_breaker),
        cmocka_unit_test(test_limiter),             cmocka_unit_test(test_envoy_slot_released),
        cmocka_unit_test(test_hedging),             cmocka_unit_test(test_retry_after_and_overload),
        cmocka_unit_test(test_decide_chosen),       cmocka_unit_test(test_client_check),
        cmocka_unit_test(test_adaptive_wait),
    };
    return cmocka_run_group_tests_name("call", tests, NULL, NULL);
}
