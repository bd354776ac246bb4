/*
 * test_model.c - the closed-population model end to end (engine + policy +
 * model), on small scenarios whose every event can be worked out by hand,
 * plus invariants, determinism, common random numbers and allocation
 * failures on a larger one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>
#include <unistd.h>

#include "../sim/base/alloc.h"
#include "../sim/experiment/experiment.h"
#include "../sim/engine/sim.h"
#include "../sim/model/model.h"
#include "../sim/scenario/scenario.h"
#include "modelutil.h"

#define close_to(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void set(scn_config *c, const char *kv)
{
    char err[SCN_ERR_MAX];
    if (scn_set(c, kv, "test", err) != 0)
        fail_msg("%s", err);
}

/* Hand-checkable defaults: one client, constant 10 ms hops, constant
 * 100 ms service, one worker, exponential backoff from 0.1 s. */
static void base(scn_config *c)
{
    scn_defaults(c);
    set(c, "clients.count=1");
    set(c, "network.delay_s=constant(0.01)");
    set(c, "server.workers=1");
    set(c, "server.queue=10");
    set(c, "server.service_time_s=constant(0.1)");
    set(c, "retry.base_s=0.1");
    set(c, "retry.cap_s=10");
    set(c, "retry.max_attempts=10");
}

typedef struct result {
    metrics m;
    timeseries ts;
    mechseries ms; /* empty without [limits] mechanisms */
} result;

static result run(const scn_config *c, hp_strategy s, uint32_t rep)
{
    sim_t sim;
    model md;
    model_spec spec;
    model_test_run(c, s, rep, &spec, &sim, &md);
    result r = {.m = md.m, .ts = md.ts, .ms = md.ms};
    md.ts = (timeseries){0};
    md.ms = (mechseries){0};
    model_free(&md);
    sim_free(&sim);
    return r;
}

/* Runs c and returns its mechanism series (the caller frees it). */
static mechseries run_mech(const scn_config *c, metrics *m)
{
    result r = run(c, HP_EXPONENTIAL, 0);
    *m = r.m;
    ts_free(&r.ts);
    return r.ms;
}

/* One client, a request every 0.5 s after the last one ended, against a
 * fail-fast outage; a breaker that opens at 2 failures for 1.9 s, one
 * probe.  Requests at 0 and 0.52 fail (replies at 0.02, 0.54): open
 * [0.54, 2.44); 1.04, 1.54, 2.04 are refused locally; the probe at 2.54
 * fails at 2.56: half-open [2.44, 2.56), open [2.56, 4.46); 3.06, 3.56,
 * 4.06 refused; the probe at 4.56 fails at 4.58: half-open [4.46, 4.58). */
static void breaker_timeline_by_hand(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.requests_per_client=10");
    set(&c, "clients.think_time_s=constant(0.5)");
    set(&c, "retry.max_attempts=1");
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=100");
    set(&c, "limits.breaker=true");
    set(&c, "limits.breaker_min_requests=2");
    set(&c, "limits.breaker_open_s=1.9");
    set(&c, "limits.breaker_probes=1");
    metrics m;
    mechseries ms = run_mech(&c, &m);
    assert_int_equal(m.mechanisms, 1);
    assert_int_equal(m.breaker_rejected, 6);
    assert_int_equal(ms.len, 5);
    static const double open[5] = {0.46, 1.0, 0.88, 1.0, 0.46}, half[5] = {0, 0, 0.12, 0, 0.12};
    for (size_t i = 0; i < 5; i++) {
        assert_true(fabs(ms.b[i].breaker_open_s - open[i]) < 1e-5);
        assert_true(fabs(ms.b[i].breaker_half_open_s - half[i]) < 1e-5);
    }
    mech_free(&ms);

    /* Adaptive throttling instead: every request counts, the locally
     * rejected ones too, and a 503 is no accept: after 10 requests the
     * window holds 10 requests, 0 accepts, p = 10 / 11. */
    set(&c, "limits.breaker=false");
    set(&c, "limits.adaptive_throttling=true");
    ms = run_mech(&c, &m);
    assert_true(ms.len >= 1);
    assert_int_equal(ms.b[ms.len - 1].throttle_requests, 10);
    assert_int_equal(ms.b[ms.len - 1].throttle_accepts, 0);
    assert_true(fabs(ms.b[ms.len - 1].throttle_reject_p - 10.0 / 11.0) < 1e-6);
    mech_free(&ms);

    /* A Finagle budget: each retry the model asks about is counted once,
     * allowed or denied, in the bucket where it was asked. */
    set(&c, "limits.adaptive_throttling=false");
    set(&c, "limits.limiter=finagle");
    set(&c, "limits.finagle_min_retries_per_s=0.1");
    set(&c, "retry.max_attempts=4");
    ms = run_mech(&c, &m);
    uint64_t allowed = 0, denied = 0;
    for (size_t i = 0; i < ms.len; i++) {
        allowed += ms.b[i].limiter_allowed;
        denied += ms.b[i].limiter_denied;
    }
    assert_int_equal(allowed, m.retries);
    assert_int_equal(denied, m.retries_denied);
    assert_true(allowed > 0 && denied > 0);
    mech_free(&ms);

    /* Without a mechanism: no series. */
    set(&c, "limits.limiter=none");
    ms = run_mech(&c, &m);
    assert_int_equal(m.mechanisms, 0);
    assert_int_equal(ms.len, 0);
}

/* [limits] clients_per_instance, by hand: 3 clients against a fail-fast
 * outage that never ends, 3 attempts each (2 retries wanted), an AWS
 * quota of 15 tokens at 5 a retry (3 retries, never refunded: nothing
 * succeeds).  Shared by all: 3 of the 6 retries pass.  Per instance of 2
 * clients: instance 0 (clients 0, 1) wants 4 and gets 3, its quota
 * exhausted; instance 1 (client 2, the smaller last instance) wants 2 and
 * gets both, 5 tokens left.  The series' balance is the instances' mean. */
static void instances_keep_their_own_quota(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=3");
    set(&c, "server.workers=3");
    set(&c, "retry.max_attempts=3");
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=1000");
    set(&c, "limits.limiter=aws_quota");
    set(&c, "limits.aws_capacity=15");
    metrics m;
    mechseries ms = run_mech(&c, &m);
    assert_int_equal(m.retries, 3);
    assert_int_equal(m.retries_denied, 3);
    assert_int_equal(m.calls, 6);
    close_to(ms.b[ms.len - 1].limiter_balance, 0);
    mech_free(&ms);

    set(&c, "limits.clients_per_instance=2");
    ms = run_mech(&c, &m);
    assert_int_equal(m.retries, 5);
    assert_int_equal(m.retries_denied, 1);
    assert_int_equal(m.calls, 8);
    uint64_t allowed = 0, denied = 0;
    for (size_t i = 0; i < ms.len; i++) {
        allowed += ms.b[i].limiter_allowed;
        denied += ms.b[i].limiter_denied;
    }
    assert_int_equal(allowed, 5);
    assert_int_equal(denied, 1);
    close_to(ms.b[ms.len - 1].limiter_balance, 2.5); /* (0 + 5) / 2 */
    mech_free(&ms);

    /* each instance's own state, as the run left it */
    char err[SCN_ERR_MAX];
    assert_int_equal(scn_validate(&c, "test", err), 0);
    model_spec spec;
    scn_compile(&c, &spec);
    assert_int_equal(spec_instances(&spec), 2);
    sim_t sim;
    model md;
    assert_int_equal(sim_init(&sim, rng_replication_seed(c.seed, 0), 16), 0);
    assert_int_equal(model_init(&md, &spec, scn_data(), HP_EXPONENTIAL, &sim), 0);
    assert_int_equal(model_run(&md), 0);
    assert_int_equal(model_guard(&md, 0)->limiter.aws_tokens, 0);
    assert_int_equal(model_guard(&md, 1)->limiter.aws_tokens, 0); /* client 1: instance 0 */
    assert_int_equal(model_guard(&md, 2)->limiter.aws_tokens, 5);
    model_free(&md);
    sim_free(&sim);

    /* one instance per client: nobody is denied (2 retries = 10 tokens) */
    set(&c, "limits.clients_per_instance=1");
    ms = run_mech(&c, &m);
    assert_int_equal(m.retries, 6);
    assert_int_equal(m.retries_denied, 0);
    close_to(ms.b[ms.len - 1].limiter_balance, 5);
    mech_free(&ms);
}

/* 2 clients, 10 requests each 0.5 s apart, against a server that fails
 * every one (503) for 100 s; no retries. */
static void two_failing_clients(scn_config *c)
{
    base(c);
    set(c, "clients.count=2");
    set(c, "server.workers=2");
    set(c, "clients.requests_per_client=10");
    set(c, "clients.think_time_s=constant(0.5)");
    set(c, "retry.max_attempts=1");
    set(c, "outage 1.start_s=0");
    set(c, "outage 1.end_s=100");
}

/* A breaker per instance (two_failing_clients): it opens at 2 results and
 * stays open.  Shared, the first result of each client (at 0.02) opens it
 * for both: 2 calls, 18 requests refused.  One instance per client, each
 * breaker needs two results of its own client (0.02, 0.54): 4 calls, 16
 * refused; in bucket 0 each instance's breaker is open 0.46 s, and so is
 * their mean. */
static void instances_keep_their_own_breaker(void **state)
{
    (void)state;
    scn_config c;
    two_failing_clients(&c);
    set(&c, "limits.breaker=true");
    set(&c, "limits.breaker_min_requests=2");
    set(&c, "limits.breaker_open_s=100");
    metrics m;
    mechseries ms = run_mech(&c, &m);
    assert_int_equal(m.calls, 2);
    assert_int_equal(m.breaker_rejected, 18);
    assert_true(fabs(ms.b[1].breaker_open_s - 1.0) < 1e-5); /* open from 0.02 on */
    mech_free(&ms);

    set(&c, "limits.clients_per_instance=1");
    ms = run_mech(&c, &m);
    assert_int_equal(m.calls, 4);
    assert_int_equal(m.breaker_rejected, 16);
    assert_true(fabs(ms.b[0].breaker_open_s - 0.46) < 1e-5);
    assert_true(fabs(ms.b[1].breaker_open_s - 1.0) < 1e-5);
    mech_free(&ms);
}

/* Adaptive throttling per instance (two_failing_clients): no accept ever.
 * Shared, the window holds all 20 requests at the end: p = 20 / 21; one
 * instance per client, each holds its 10, p = 10 / 11 in both: the series
 * shows their mean, and the requests of both windows. */
static void instances_keep_their_own_throttle(void **state)
{
    (void)state;
    scn_config c;
    two_failing_clients(&c);
    set(&c, "limits.adaptive_throttling=true");
    metrics m;
    mechseries ms = run_mech(&c, &m);
    assert_int_equal(ms.b[ms.len - 1].throttle_requests, 20);
    assert_true(fabs(ms.b[ms.len - 1].throttle_reject_p - 20.0 / 21.0) < 1e-6);
    mech_free(&ms);

    set(&c, "limits.clients_per_instance=1");
    ms = run_mech(&c, &m);
    assert_int_equal(ms.b[ms.len - 1].throttle_requests, 20);
    assert_int_equal(ms.b[ms.len - 1].throttle_accepts, 0);
    assert_true(fabs(ms.b[ms.len - 1].throttle_reject_p - 10.0 / 11.0) < 1e-6);
    mech_free(&ms);
}

static void one_request_no_failure(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 0.12); /* 10 ms + 100 ms + 10 ms */
    assert_int_equal(r.m.calls, 1);
    assert_int_equal(r.m.successes, 1);
    assert_int_equal(r.m.failures, 0);
    assert_int_equal(r.m.retries, 0);
    close_to(r.m.mean_latency_s, 0.12);
    assert_int_equal(r.m.peak_inflight, 1);
    ts_free(&r.ts);
}

/* Fail-fast 503 during [0, 1): sends at 0, 0.12, 0.34, 0.76 fail (reply
 * 20 ms after sending, then sleeps 0.1, 0.2, 0.4); the send at
 * 0.78 + 0.8 = 1.58 arrives at 1.59, after the outage, and is served:
 * reply at 1.70. */
static void outage_then_success_by_hand(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=1");
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 1.70);
    assert_int_equal(r.m.calls, 5);
    assert_int_equal(r.m.retries, 4);
    assert_int_equal(r.m.outage_errors, 4);
    assert_int_equal(r.m.successes, 1);
    ts_free(&r.ts);

    /* With 4 attempts it gives up after the fourth reply, at 0.78. */
    set(&c, "retry.max_attempts=4");
    r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 0.78);
    assert_int_equal(r.m.calls, 4);
    assert_int_equal(r.m.failures, 1);
    assert_int_equal(r.m.gave_up_attempts, 1);
    ts_free(&r.ts);
}

/* A refused connection never reaches the server: not a call, no arrival. */
static void refused_is_not_a_call(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=1");
    set(&c, "outage 1.status=connection_refused");
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 1.70);
    assert_int_equal(r.m.calls, 1);
    assert_int_equal(r.m.refused, 4);
    uint64_t arrivals = 0, refused = 0;
    for (size_t i = 0; i < r.ts.len; i++) {
        arrivals += r.ts.b[i].arrivals;
        refused += r.ts.b[i].refused;
    }
    assert_int_equal(arrivals, 1);
    assert_int_equal(refused, 4);
    ts_free(&r.ts);
}

/* Black hole during [0, 1) with a 0.3 s attempt timeout: sends at 0, 0.4
 * (0.3 + 0.1), 0.9 (0.7 + 0.2) are swallowed; 1.6 (1.2 + 0.4) is served:
 * reply at 1.72.  Swallowed attempts are calls. */
static void black_hole_and_timeouts_by_hand(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=1");
    set(&c, "outage 1.mode=black_hole");
    set(&c, "retry.attempt_timeout_s=0.3");
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 1.72);
    assert_int_equal(r.m.calls, 4);
    assert_int_equal(r.m.timeouts, 3);
    assert_int_equal(r.m.late_replies, 0);
    assert_int_equal(r.m.successes, 1);
    ts_free(&r.ts);
}

/* Service 0.5 s > timeout 0.3 s, two attempts: both time out, the client
 * gives up at 0.7; both replies still arrive (0.52 and 1.02) and count as
 * late, never as a success. */
static void late_replies_are_not_successes(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "server.service_time_s=0.5");
    set(&c, "retry.attempt_timeout_s=0.3");
    set(&c, "retry.max_attempts=2");
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 0.7);
    assert_int_equal(r.m.successes, 0);
    assert_int_equal(r.m.failures, 1);
    assert_int_equal(r.m.timeouts, 2);
    assert_int_equal(r.m.late_replies, 2);
    ts_free(&r.ts);
}

/* FIFO service with one worker: three clients at t=0 with zero network
 * delay finish at 1, 2, 3; with one queue place the third is rejected
 * (503) and, not retrying, fails at once. */
static void fifo_queue_and_rejection(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=3");
    set(&c, "network.delay_s=0");
    set(&c, "server.service_time_s=1");
    set(&c, "retry.max_attempts=1");
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 3);
    close_to(r.m.mean_latency_s, 2);
    close_to(r.m.p50_latency_s, 2);
    assert_int_equal(r.m.peak_inflight, 3);
    ts_free(&r.ts);

    set(&c, "server.queue=1");
    r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.rejected, 1);
    assert_int_equal(r.m.successes, 2);
    assert_int_equal(r.m.failures, 1);
    assert_int_equal(r.m.peak_inflight, 2);
    ts_free(&r.ts);
}

/* drop_expired by hand: 4 requests at t = 0 (hops 10 ms), 1 worker,
 * 1 s each, timeout 1.5 s, no retries.  Every attempt arrives at 0.01
 * carrying 1.5 s: the server's deadline is 1.51.  A is served at once
 * (0.01-1.01); at 1.01 the next one (B in FIFO, D in LIFO) still has
 * time and is served (its client times out at 1.5: a late reply); at
 * 2.01 the other two are past 1.51 and are skipped, unserved and
 * unanswered.  Without drop_expired they are served until 4.01, three
 * late replies and 3 s of wasted work. */
static void drop_expired_by_hand(void **state)
{
    (void)state;
    static const char *const disc[] = {"fifo", "lifo", "adaptive_lifo"};
    for (int budget = 0; budget < 2; budget++)
        for (size_t d = 0; d < sizeof disc / sizeof disc[0]; d++) {
            scn_config c;
            base(&c);
            char kv[64];
            snprintf(kv, sizeof kv, "server.queue_discipline=%s", disc[d]);
            set(&c, kv);
            set(&c, "clients.count=4");
            set(&c, "server.service_time_s=constant(1)");
            set(&c, "retry.max_attempts=1");
            if (budget) { /* the budget is sooner than the attempt timeout: it decides */
                set(&c, "retry.attempt_timeout_s=10");
                set(&c, "retry.budget_s=1.5");
            } else
                set(&c, "retry.attempt_timeout_s=1.5");
            result r = run(&c, HP_EXPONENTIAL, 0);
            assert_int_equal(r.m.expired_skipped, 0);
            assert_int_equal(r.m.served, 4);
            assert_int_equal(r.m.late_replies, 3);
            close_to(r.m.wasted_work_s, 3);
            ts_free(&r.ts);

            set(&c, "server.drop_expired=true");
            r = run(&c, HP_EXPONENTIAL, 0);
            assert_int_equal(r.m.calls, 4);
            assert_int_equal(r.m.expired_skipped, 2);
            assert_int_equal(r.m.served, 2);
            assert_int_equal(r.m.successes, 1);
            assert_int_equal(r.m.late_replies, 1);
            close_to(r.m.wasted_work_s, 1);
            assert_int_equal(r.m.rejected + r.m.codel_dropped + r.m.shed, 0);
            ts_free(&r.ts);
        }

    /* no hops, 2 s of timeout: B is served 1-2 and its client times out
     * at 2 (the timer was set first: a late reply); at 2 the last two are
     * exactly at their deadline (0 + 2): a deadline reached is passed,
     * they are skipped */
    scn_config c;
    base(&c);
    set(&c, "clients.count=4");
    set(&c, "network.delay_s=0");
    set(&c, "server.service_time_s=constant(1)");
    set(&c, "retry.max_attempts=1");
    set(&c, "retry.attempt_timeout_s=2");
    set(&c, "server.drop_expired=true");
    result r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.successes, 1);
    assert_int_equal(r.m.expired_skipped, 2);
    assert_int_equal(r.m.late_replies, 1);
    ts_free(&r.ts);
}

/* drop_expired with hedged copies: a copy carries what is left of its
 * attempt's timeout when it leaves.  2 requests at t = 0 on 1 worker (1 s
 * each, hops 10 ms, timeout 1.5 s, one copy after 0.3 s).  A is served at
 * once; B waits (deadline 1.51).  At 0.3 both send a copy carrying 1.2 s:
 * deadline 0.31 + 1.2 = 1.51, the same.  At 1.01 A's reply wins and B is
 * served (its client times out at 1.5); at 2.01 both copies are past
 * 1.51 and skipped (a copy carrying no deadline would be served). */
static void drop_expired_hedges_by_hand(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=2");
    set(&c, "server.service_time_s=constant(1)");
    set(&c, "retry.max_attempts=1");
    set(&c, "retry.attempt_timeout_s=1.5");
    set(&c, "limits.hedging=true");
    set(&c, "limits.hedge_mode=fixed");
    set(&c, "limits.hedge_delay_s=0.3");
    result r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.hedges, 2);
    assert_int_equal(r.m.served, 4);
    ts_free(&r.ts);
    set(&c, "server.drop_expired=true");
    r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.hedges, 2);
    assert_int_equal(r.m.calls, 4);
    assert_int_equal(r.m.served, 2);
    assert_int_equal(r.m.expired_skipped, 2);
    assert_int_equal(r.m.successes, 1);
    ts_free(&r.ts);
    /* a 0.9 s timeout: B's deadline is 0.91, the copies carry 0.6 s (0.31
     * + 0.6 = 0.91): at 1.01 all three are skipped.  Copies carrying the
     * whole 0.9 s (deadline 1.21) would be served at 1.01. */
    set(&c, "retry.attempt_timeout_s=0.9");
    r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.served, 1);
    assert_int_equal(r.m.expired_skipped, 3);
    ts_free(&r.ts);
}

/* Shedding by hand: 4 requests at t = 0.01 on 2 workers (1 s each,
 * nothing retried), shed_sheddable_above = 0.5.  The first two find the
 * share of busy workers at 0 and 0.5 (not above) and are served; the
 * others find it at 1: sheddable, they are answered 503 at once (shed);
 * critical, they wait and are served. */
static void shedding_by_hand(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=4");
    set(&c, "server.workers=2");
    set(&c, "server.service_time_s=constant(1)");
    set(&c, "retry.max_attempts=1");
    set(&c, "server.shed_sheddable_above=0.5");
    set(&c, "clients.priority=sheddable");
    result r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.calls, 4);
    assert_int_equal(r.m.shed, 2);
    assert_int_equal(r.m.successes, 2);
    assert_int_equal(r.m.failures, 2);
    assert_int_equal(r.m.served, 2);
    assert_int_equal(r.m.rejected, 0);
    ts_free(&r.ts);

    set(&c, "clients.priority=critical");
    r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.shed, 0);
    assert_int_equal(r.m.successes, 4);
    close_to(r.m.completion_time_s, 2.02);
    ts_free(&r.ts);

    /* at 1 (all workers busy is a share of 1, not above) nothing could be
     * shed: refused, unless a capacity timeline can leave more busy than
     * serve */
    set(&c, "clients.priority=sheddable");
    set(&c, "server.shed_sheddable_above=1");
    char e1[SCN_ERR_MAX];
    assert_int_not_equal(scn_validate(&c, "test", e1), 0);
    assert_non_null(strstr(e1, "never sheds"));
    set(&c, "server.capacity_file=tests/data/capacity-drop.csv");
    assert_int_equal(scn_validate(&c, "test", e1), 0);

    /* two tools, one of each class: every shed attempt is the sheddable
     * tool's, and the critical tool's requests all succeed */
    base(&c);
    set(&c, "clients.count=40");
    set(&c, "server.queue=100");
    set(&c, "server.workers=2");
    set(&c, "server.service_time_s=constant(1)");
    set(&c, "retry.max_attempts=1");
    set(&c, "server.shed_sheddable_above=0.5");
    set(&c, "tool crit.weight=1");
    set(&c, "tool batch.weight=1");
    set(&c, "tool batch.priority=sheddable");
    char err[SCN_ERR_MAX];
    if (scn_validate(&c, "test", err) != 0)
        fail_msg("%s", err);
    sim_t sim;
    model md;
    model_spec spec;
    scn_compile(&c, &spec);
    assert_true(spec.tools[1].sheddable && !spec.tools[0].sheddable);
    assert_int_equal(sim_init(&sim, rng_replication_seed(c.seed, 0), 16), 0);
    assert_int_equal(model_init(&md, &spec, scn_data(), HP_EXPONENTIAL, &sim), 0);
    assert_int_equal(model_run(&md), 0);
    assert_true(md.tm[0].requests > 2 && md.tm[1].requests > 2);
    assert_int_equal(md.tm[0].successes, md.tm[0].requests); /* critical: every one served */
    assert_true(md.tm[1].successes <= 2);                     /* sheddable: only among the first two */
    assert_int_equal(md.m.shed, md.tm[1].requests - md.tm[1].successes);
    assert_int_equal(md.m.shed, md.m.failures);
    assert_int_equal(md.m.rejected, 0);
    model_free(&md);
    sim_free(&sim);
}

/* A 404 is never retried, whatever the strategy. */
static void non_retryable_never_retried(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=200");
    set(&c, "server.workers=50");
    set(&c, "server.error_rate_404=1");
    for (int s = 0; s < HP_STRATEGY_COUNT; s++) {
        result r = run(&c, (hp_strategy)s, 0);
        assert_int_equal(r.m.calls, 200);
        assert_int_equal(r.m.retries, 0);
        assert_int_equal(r.m.non_retryable_failures, 200);
        assert_int_equal(r.m.background_errors, 200);
        ts_free(&r.ts);
    }
}

/* An outage that never ends, unlimited attempts: the horizon stops the
 * run and every request is unfinished. */
static void horizon_censors(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=5");
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=1e9");
    set(&c, "retry.max_attempts=0");
    set(&c, "run.horizon_s=100");
    result r = run(&c, HP_FULL_JITTER, 0);
    assert_int_equal(r.m.unfinished, 5);
    close_to(r.m.completion_time_s, 100);
    assert_true(isnan(r.m.mean_latency_s));
    ts_free(&r.ts);
}

/* The AWS 2015 OCC workload, constant 10 ms hops.  Two clients: both read
 * version 0 at 0.01; client 0's write arrives first at 0.03 and wins
 * (reply 0.04); client 1's conflicts (409, reply 0.04), sleeps
 * min(cap, base * 2^1) = 0.01 (the first retry counts as 1), reads version
 * 1 at 0.06 and wins at 0.08: reply 0.09.  Three calls (writes), one
 * retry. */
static void occ_by_hand(void **state)
{
    (void)state;
    scn_config c;
    scn_defaults(&c);
    set(&c, "server.kind=occ");
    set(&c, "clients.count=2");
    set(&c, "network.delay_s=constant(0.01)");
    set(&c, "retry.base_s=0.005");
    set(&c, "retry.cap_s=2");
    set(&c, "retry.max_attempts=0");
    set(&c, "retry.exponent_offset=1");
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 0.09);
    assert_int_equal(r.m.calls, 2 + 1);
    assert_int_equal(r.m.retries, 1);
    assert_int_equal(r.m.successes, 2);
    close_to(r.m.mean_latency_s, (0.04 + 0.09) / 2);
    ts_free(&r.ts);

    /* No backoff, three clients in lockstep: one winner per 40 ms round,
     * so 3 + 2 + 1 writes and the last reply at 0.04 + 0.04 + 0.04. */
    set(&c, "clients.count=3");
    r = run(&c, HP_IMMEDIATE, 0);
    close_to(r.m.completion_time_s, 0.12);
    assert_int_equal(r.m.calls, 6);
    assert_int_equal(r.m.retries, 3);
    ts_free(&r.ts);

    /* ... and N(N+1)/2 writes for N = 40: work grows as N^2. */
    set(&c, "clients.count=40");
    r = run(&c, HP_IMMEDIATE, 0);
    assert_int_equal(r.m.calls, 40 * 41 / 2);
    close_to(r.m.completion_time_s, 40 * 0.04);
    ts_free(&r.ts);
}

static void herd(scn_config *c)
{
    scn_defaults(c);
    set(c, "clients.count=2000");
    set(c, "network.delay_s=normal(0.005, 0.001)");
    set(c, "server.workers=20");
    set(c, "server.queue=100");
    set(c, "server.service_time_s=exponential(0.1)");
    set(c, "server.error_rate_500=0.05");
    set(c, "outage 1.start_s=0");
    set(c, "outage 1.end_s=5");
    set(c, "retry.base_s=0.5");
    set(c, "retry.cap_s=20");
    set(c, "retry.max_attempts=8");
    set(c, "retry.attempt_timeout_s=2");
    set(c, "run.bucket_s=0.5");
}

/* Conservation laws on a contended run, for every strategy. */
static void invariants(void **state)
{
    (void)state;
    scn_config c;
    herd(&c);
    for (int s = 0; s < HP_STRATEGY_COUNT; s++) {
        result r = run(&c, (hp_strategy)s, 3);
        const metrics *m = &r.m;
        assert_int_equal(m->successes + m->failures + m->unfinished, 2000);
        assert_int_equal(m->calls + m->refused, 2000 + m->retries);
        assert_true(m->peak_inflight <= 20 + 100);
        assert_int_equal(m->failures, m->gave_up_attempts + m->non_retryable_failures + m->unknown_outcomes);
        uint64_t arr = 0, rs = 0, ok = 0, errs = 0, peak = 0;
        for (size_t i = 0; i < r.ts.len; i++) {
            arr += r.ts.b[i].arrivals;
            rs += r.ts.b[i].retries_scheduled;
            ok += r.ts.b[i].successes;
            errs += r.ts.b[i].errors;
            if (r.ts.b[i].arrivals > peak)
                peak = r.ts.b[i].arrivals;
            assert_true(r.ts.b[i].in_flight <= 120);
        }
        assert_int_equal(arr, m->calls);
        assert_int_equal(rs, m->retries);
        assert_int_equal(ok, m->successes);
        assert_int_equal(ok + errs, 2000 + m->retries - m->unfinished);
        close_to(m->peak_arrivals_per_s, (double)peak / 0.5);
        assert_true(m->p50_latency_s <= m->p99_latency_s && m->p99_latency_s <= m->max_latency_s);
        ts_free(&r.ts);
    }
}

/* Same config and seed: identical metrics and timeseries, bit for bit. */
static void deterministic(void **state)
{
    (void)state;
    scn_config c;
    herd(&c);
    result a = run(&c, HP_DECORRELATED_JITTER, 1), b = run(&c, HP_DECORRELATED_JITTER, 1);
    assert_memory_equal(&a.m, &b.m, sizeof a.m);
    assert_int_equal(a.ts.len, b.ts.len);
    assert_memory_equal(a.ts.b, b.ts.b, a.ts.len * sizeof *a.ts.b);
    result d = run(&c, HP_DECORRELATED_JITTER, 2);
    assert_true(memcmp(&a.m, &d.m, sizeof a.m) != 0); /* replications differ */
    ts_free(&a.ts);
    ts_free(&b.ts);
    ts_free(&d.ts);
}

/* Common random numbers: without failures no strategy ever backs off, so
 * every strategy must see exactly the same run (start times, network and
 * service draws). */
static void common_random_numbers(void **state)
{
    (void)state;
    scn_config c;
    herd(&c);
    c.nerrors = 0;
    c.noutages = 0;
    set(&c, "server.workers=400");
    set(&c, "server.queue=2000");
    set(&c, "clients.start=spread");
    set(&c, "clients.spread_s=10");
    result ref = run(&c, HP_IMMEDIATE, 4);
    assert_int_equal(ref.m.retries, 0);
    for (int s = 1; s < HP_STRATEGY_COUNT; s++) {
        result r = run(&c, (hp_strategy)s, 4);
        assert_memory_equal(&ref.m, &r.m, sizeof r.m);
        ts_free(&r.ts);
    }
    ts_free(&ref.ts);
}

/* Every allocation of a run fails in turn: the run reports failure, and
 * (under ASan/valgrind) leaks nothing. */
static void allocation_failures_of(const scn_config *c)
{
    assert_true(model_allocation_failures(c, 64) >= 3);
}

static void allocation_failures(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=50");
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=1");
    allocation_failures_of(&c);
    /* and with every per-instance array (clients_per_instance) */
    set(&c, "limits.limiter=finagle");
    set(&c, "limits.breaker=true");
    set(&c, "limits.adaptive_throttling=true");
    set(&c, "limits.hedging=true");
    set(&c, "retry.adaptive_rate_limiter=true");
    set(&c, "limits.clients_per_instance=7");
    allocation_failures_of(&c);
}

/* Two tools, half the requests each, against a server that always answers
 * 503: the read tool (preset read: 5 attempts) makes 5 calls, the
 * irreversible one (1 attempt) makes 1.  So calls = N + 4 n_read, with
 * n_read binomial(N, 1/2). */
static void tools_have_their_own_policies(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=2000");
    set(&c, "server.workers=100");
    set(&c, "server.error_rate_503=1");
    set(&c, "tool search_web.preset=read");
    set(&c, "tool send_email.preset=irreversible");
    result r = run(&c, HP_FULL_JITTER, 0);
    uint64_t extra = r.m.calls - 2000;
    assert_int_equal(extra % 4, 0);
    double n_read = (double)extra / 4, sd = sqrt(2000 * 0.25);
    assert_true(fabs(n_read - 1000) < 4.5 * sd); /* false failure < 1e-5 */
    assert_int_equal(r.m.gave_up_attempts, 2000);
    ts_free(&r.ts);

    /* weights: all requests use the tool of weight 1 */
    set(&c, "tool search_web.weight=0");
    r = run(&c, HP_FULL_JITTER, 0);
    assert_int_equal(r.m.calls, 2000);
    ts_free(&r.ts);
}

/* Deletes re-executed after a timeout find nothing: a 404, never a
 * duplicate effect; with not_found_ok_on_retry (the destructive preset)
 * that 404 is a success, without it a failure. */
static void destructive_not_found_on_retry(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=500");
    set(&c, "server.workers=50");
    set(&c, "clients.side_effect=destructive");
    set(&c, "retry.preset=destructive");
    set(&c, "retry.attempt_timeout_s=0.3");
    set(&c, "server.service_time_s=exponential(0.15)");
    result r = run(&c, HP_FULL_JITTER, 0);
    assert_true(r.m.timeouts > 0);
    assert_int_equal(r.m.duplicate_effects, 0);
    assert_true(r.m.non_retryable_replies > 0); /* some retries met a 404 */
    uint64_t ok_with_rule = r.m.successes;
    ts_free(&r.ts);
    set(&c, "retry.not_found_ok_on_retry=false");
    r = run(&c, HP_FULL_JITTER, 0);
    assert_true(r.m.successes < ok_with_rule);
    assert_true(r.m.non_retryable_failures > 0);
    ts_free(&r.ts);
}

/* Layers multiply: against a server that always answers 503, layers of
 * a x b x c attempts send exactly a * b * c attempts per logical request;
 * with retries at one layer only, that layer's attempts. */
static void layers_multiply(void **state)
{
    (void)state;
    static const unsigned cases[][3] = {{3, 3, 3}, {2, 3, 4}, {1, 1, 5}, {1, 4, 1}, {5, 1, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        scn_config c;
        base(&c);
        set(&c, "clients.count=50");
        set(&c, "server.workers=100");
        set(&c, "server.error_rate_503=1");
        set(&c, "retry.base_s=0.01");
        set(&c, "retry.cap_s=0.1");
        char kv[64];
        static const char *const names[3] = {"llm", "framework", "http"};
        for (int l = 0; l < 3; l++) {
            snprintf(kv, sizeof kv, "layer %s.max_attempts=%u", names[l], cases[i][l]);
            set(&c, kv);
        }
        result r = run(&c, HP_FULL_JITTER, 0);
        unsigned per = cases[i][0] * cases[i][1] * cases[i][2];
        assert_int_equal(r.m.calls, 50 * per);
        assert_int_equal(r.m.failures, 50);
        close_to(r.m.amplification, per);
        ts_free(&r.ts);
        /* an HTTP client that retries timeouts only makes one attempt per 503 */
        set(&c, "layer http.retry_on=timeout, connection");
        r = run(&c, HP_FULL_JITTER, 0);
        assert_int_equal(r.m.calls, 50 * cases[i][0] * cases[i][1]);
        ts_free(&r.ts);
    }
}

/* A 10-step task whose steps each succeed with p = 0.95 and no retries
 * succeeds with probability 0.95^10 = 0.5987; 20,000 tasks: the rate is
 * within 4.5 standard errors (false failure < 1e-5).  Retries of the
 * transient failure raise it. */
static void task_success_rate(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=2000");
    set(&c, "clients.requests_per_client=100");
    set(&c, "clients.task_steps=10");
    set(&c, "network.delay_s=0");
    set(&c, "server.workers=100000");
    set(&c, "server.service_time_s=0");
    set(&c, "server.error_rate_503=0.05");
    set(&c, "retry.max_attempts=1");
    result r = run(&c, HP_FULL_JITTER, 0);
    double p = pow(0.95, 10), se = sqrt(p * (1 - p) / 20000);
    assert_int_equal(r.m.tasks, 20000);
    assert_true(fabs(r.m.task_success_rate - p) < 4.5 * se);
    ts_free(&r.ts);
    set(&c, "retry.max_attempts=3"); /* per step 1 - 0.05^3 */
    r = run(&c, HP_FULL_JITTER, 0);
    double q = pow(1 - pow(0.05, 3), 10), sq = sqrt(q * (1 - q) / 20000);
    assert_true(fabs(r.m.task_success_rate - q) < 4.5 * sq);
    ts_free(&r.ts);
}

/* One client, one request served in 0.12 s (base): a burst's rates are
 * over the whole observation (1 request / 0.12 s), recovered is n/a (no
 * trigger, and a burst), and metric_value says NaN for it, a count. */
static void closed_population_rates_by_hand(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.goodput_per_s, 1 / 0.12);
    close_to(r.m.offered_per_s, 1 / 0.12);
    const metric_desc *rec = metric_find("recovered"), *trig = metric_find("trigger_start_s");
    assert_non_null(rec);
    assert_non_null(metric_reason(&r.m, rec));
    assert_true(isnan(metric_value(&r.m, rec)));
    assert_non_null(metric_reason(&r.m, trig));
    assert_true(isnan(r.m.trigger_start_s));
    assert_null(metric_reason(&r.m, metric_find("goodput_per_s")));
    assert_null(metric_spec_reason(RESULT_CLOSED, metric_find("calls")));
    assert_non_null(metric_spec_reason(RESULT_BURST, rec));
    ts_free(&r.ts);
    /* open at the horizon: a closed population's rate would depend on it */
    set(&c, "run.horizon_s=0.05");
    r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.unfinished, 1);
    assert_true(isnan(r.m.goodput_per_s));
    assert_non_null(metric_reason(&r.m, metric_find("goodput_per_s")));
    assert_non_null(metric_reason(&r.m, metric_find("p99_latency_s")));
    ts_free(&r.ts);
}

/* Two clients spread over 10 s ([run] seed 1: starts drawn from the
 * arrivals stream), each request 0.12 s alone: with window_s covering only
 * the first start, the counts are one request's, the rates one over the
 * window's width; the whole-run completion time is the second's. */
static void window_counts_requests_started_in_it(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=2");
    set(&c, "clients.start=spread");
    set(&c, "clients.spread_s=10");
    result all = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(all.m.successes, 2);
    assert_int_equal(all.m.calls, 2);
    /* the buckets of the two starts (bucket_s 1), from the series */
    size_t at[2], n = 0;
    for (size_t i = 0; i < all.ts.len; i++)
        for (uint32_t k = 0; k < all.ts.b[i].offered && n < 2; k++)
            at[n++] = i;
    assert_int_equal(n, 2);
    assert_true(at[0] < at[1]); /* seed 1: in different buckets */
    ts_free(&all.ts);
    /* a window over the first start's bucket only: one request */
    char kv[64];
    snprintf(kv, sizeof kv, "run.window_s=%zu:%zu", at[0], at[0] + 1);
    set(&c, kv);
    result one = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(one.m.successes, 1);
    assert_int_equal(one.m.calls, 1);
    close_to(one.m.offered_per_s, 1);
    close_to(one.m.goodput_per_s, 1);
    close_to(one.m.mean_latency_s, 0.12);
    assert_int_equal(one.m.served, 2); /* whole run */
    ts_free(&one.ts);
    set(&c, "run.window_s=0:10");
    result w = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(w.m.successes, 2);
    close_to(w.m.goodput_per_s, 0.2);
    close_to(w.m.completion_time_s, all.m.completion_time_s);
    ts_free(&w.ts);
    /* a window that holds neither start: every per-request metric is empty
     * or n/a, the whole-run ones stay */
    set(&c, "run.window_s=10:20");
    w = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(w.m.successes, 0);
    assert_int_equal(w.m.calls, 0);
    close_to(w.m.goodput_per_s, 0);
    assert_non_null(metric_reason(&w.m, metric_find("mean_latency_s")));
    assert_non_null(metric_reason(&w.m, metric_find("amplification")));
    assert_int_equal(w.m.served, 2);
    close_to(w.m.completion_time_s, all.m.completion_time_s);
    ts_free(&w.ts);
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
    closedir(d);
    return n;
}

/* A whole run (expansion, jobs, CSV writers) with its n-th allocation
 * failing, for every n: a clean error, no output file, no leak (ASan). */
static void run_allocation_failures(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=20");
    set(&c, "run.replications=2");
    set(&c, "run.strategies=exponential,full_jitter");
    set(&c, "run.baseline=exponential");
    set(&c, "sweep w.key=server.workers");
    set(&c, "sweep w.values=1,2");
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/herd-alloc-%d", (int)getpid());
    exp_options opt = {.outdir = dir, .quiet = 1, .jobs = 1};
    int failures = 0, done = 0;
    for (long n = 0; n < 400 && !done; n++) {
        char err[1024];
        herd_alloc_fail_after(n);
        int rc = exp_run(&c, "test", &opt, err, sizeof err);
        long used = herd_alloc_fail_after(-1);
        if (rc != 0) {
            failures++;
            assert_int_equal(count_files(dir), 0);
        } else {
            done = used <= n;
            if (!done) /* succeeded although an allocation failed: impossible */
                fail_msg("run succeeded with allocation %ld failing", n);
        }
    }
    assert_true(done);
    assert_true(failures > 5);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* The rate limiter answers before background errors: two clients arrive
 * at 0.01 with one token in the bucket and every admitted attempt meeting a
 * 503; the first takes the token and gets the 503, the second gets 429
 * (before, both got 503 and no token was spent). */
static void rate_limit_before_errors(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=2");
    set(&c, "retry.max_attempts=1");
    set(&c, "server.rate_limit_rps=0.001");
    set(&c, "server.burst=1");
    set(&c, "server.error_rate_503=1");
    result r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.calls, 2);
    assert_int_equal(r.m.status_429, 1);
    assert_int_equal(r.m.background_errors, 1);
    ts_free(&r.ts);
}

/* A partial outage with error_p = 1 is the fail-fast outage of
 * outage_then_success_by_hand (the same timeline, done at 1.70); with
 * error_p = 0 the request is served at once (0.12). */
static void partial_outage_by_hand(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=1");
    set(&c, "outage 1.mode=partial");
    set(&c, "outage 1.error_p=1");
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 1.70);
    assert_int_equal(r.m.calls, 5);
    assert_int_equal(r.m.outage_errors, 4);
    ts_free(&r.ts);
    set(&c, "outage 1.error_p=0");
    r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 0.12);
    assert_int_equal(r.m.calls, 1);
    ts_free(&r.ts);
}

/* The openai SDK preset sleeps a 503's Retry-After as is: sends at 0 and
 * 0.52 fail during the [0, 1) outage (replies at 0.02 and 0.54, then 0.5 s
 * each), the send at 1.04 arrives at 1.05 and is served: done at 1.16 after
 * 3 attempts.  A ms-only header is invisible to a client that does not read
 * retry-after-ms: it sleeps its backoff instead. */
static void retry_after_on_503_by_hand(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=1");
    set(&c, "retry.preset=openai_python");
    set(&c, "server.retry_after_on_503=true");
    set(&c, "server.retry_after_s=0.5");
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.completion_time_s, 1.16);
    assert_int_equal(r.m.calls, 3);
    assert_int_equal(r.m.retries_after_honoured, 2);
    assert_int_equal(r.m.successes, 1);
    ts_free(&r.ts);
    set(&c, "server.retry_after_format=ms");
    r = run(&c, HP_EXPONENTIAL, 0); /* the SDK reads retry-after-ms: the same */
    close_to(r.m.completion_time_s, 1.16);
    ts_free(&r.ts);
    set(&c, "retry.retry_after_ms=false");
    r = run(&c, HP_EXPONENTIAL, 0);
    /* backoff 0.5 x 2^n x (0.75, 1]: the second send at 0.395..0.52 fails,
     * the third at 1.165..1.56 is after the outage */
    assert_int_equal(r.m.retries_after_honoured, 0);
    assert_int_equal(r.m.calls, 3);
    assert_int_equal(r.m.successes, 1);
    assert_true(r.m.completion_time_s > 1.16 + 0.01);
    ts_free(&r.ts);
}

/* cohere reads X-RateLimit-Reset when no Retry-After comes.  A token per
 * 2 s, a bucket of 1: request 1 takes it (done at 0.12); request 2 arrives
 * at 0.13 with 0.065 tokens: 429, reset in ceil(0.935 / 0.5) = 2 s, slept
 * x U(1, 1.2): it arrives after 2.15 with >= 1.075 tokens and is served.
 * Without the header: backoffs 1 x (0.9, 1.1) (arrives by 1.24 with < 0.62
 * tokens: 429 again), then 2 x (0.9, 1.1) (after 2.8: served). */
static void ratelimit_reset_by_hand(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "retry.preset=cohere");
    set(&c, "server.rate_limit_rps=0.5");
    set(&c, "server.burst=1");
    set(&c, "server.ratelimit_reset=true");
    set(&c, "clients.requests_per_client=2");
    set(&c, "clients.think_time_s=0");
    result r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.status_429, 1);
    assert_int_equal(r.m.retries_after_honoured, 1);
    assert_int_equal(r.m.successes, 2);
    ts_free(&r.ts);
    set(&c, "server.ratelimit_reset=false");
    r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.status_429, 2);
    assert_int_equal(r.m.retries_after_honoured, 0);
    assert_int_equal(r.m.successes, 2);
    ts_free(&r.ts);
}

/* AWS adaptive mode: after the first 429s the shared client-side limiter
 * paces the sends, so far fewer 429s than the standard mode. */
static void adaptive_rate_limiter_paces(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=200");
    set(&c, "clients.requests_per_client=5");
    set(&c, "server.workers=100");
    set(&c, "server.rate_limit_rps=20");
    set(&c, "server.burst=20");
    set(&c, "retry.preset=aws_standard");
    result std = run(&c, HP_FULL_JITTER, 0);
    set(&c, "retry.preset=aws_adaptive");
    result ad = run(&c, HP_FULL_JITTER, 0);
    assert_true(std.m.status_429 > 1000);
    assert_true(ad.m.status_429 * 10 < std.m.status_429);
    assert_true(ad.m.completion_time_s > std.m.completion_time_s); /* it waits instead */
    /* one limiter per client (clients_per_instance): each learns of 429s
     * only from its own, and 200 of them at their 0.5/s floor still send
     * 100/s against 20 (measured: 1765 429s against 180 shared) */
    set(&c, "limits.clients_per_instance=1");
    result own = run(&c, HP_FULL_JITTER, 0);
    assert_true(own.m.status_429 > 2 * ad.m.status_429);
    ts_free(&std.ts);
    ts_free(&ad.ts);
    ts_free(&own.ts);
}

/* Capacity timelines (tests/data/capacity-*.csv), by hand: 4 workers,
 * constant 1 s service, 10 ms hops. */
static void capacity_config(scn_config *c, int clients, const char *file)
{
    char kv[128];
    base(c);
    snprintf(kv, sizeof kv, "clients.count=%d", clients);
    set(c, kv);
    set(c, "server.workers=4");
    set(c, "server.service_time_s=constant(1)");
    set(c, "retry.max_attempts=1");
    snprintf(kv, sizeof kv, "server.capacity_file=%s", file);
    set(c, kv);
}

static void capacity_drop_lets_running_finish(void **state)
{
    (void)state;
    scn_config c;
    /* 8 requests; at t = 0.5 the workers drop to 2 while 4 are busy: the
     * 4 finish at 1.01, then 2 at a time: 2.01, 3.01 (not 2.01 for all) */
    capacity_config(&c, 8, "tests/data/capacity-drop.csv");
    result r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.successes, 8);
    close_to(r.m.completion_time_s, 3.02);
    close_to(r.m.max_latency_s, 3.02);
    ts_free(&r.ts);
}

static void capacity_rise_drains_queue(void **state)
{
    (void)state;
    scn_config c;
    /* no worker until t = 2, then 4: the 4 queued attempts start at once */
    capacity_config(&c, 4, "tests/data/capacity-rise.csv");
    result r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.successes, 4);
    close_to(r.m.completion_time_s, 3.01);
    close_to(r.m.p50_latency_s, 3.01);
    ts_free(&r.ts);
}

static void capacity_speed_and_errors(void **state)
{
    (void)state;
    scn_config c;
    capacity_config(&c, 1, "tests/data/capacity-fast.csv"); /* twice as fast: 0.5 s */
    result r = run(&c, HP_EXPONENTIAL, 0);
    close_to(r.m.max_latency_s, 0.52);
    ts_free(&r.ts);
    capacity_config(&c, 5, "tests/data/capacity-errors.csv"); /* every attempt 503 at once */
    r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.failures, 5);
    assert_int_equal(r.m.background_errors, 5);
    assert_int_equal(r.m.served, 0);
    ts_free(&r.ts);
}

static void capacity_outage_comes_first(void **state)
{
    (void)state;
    scn_config c;
    /* a fail_fast outage over [0, 5) answers the attempts though the
     * timeline is at full capacity */
    capacity_config(&c, 3, "tests/data/capacity-drop.csv");
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=5");
    result r = run(&c, HP_EXPONENTIAL, 0);
    assert_int_equal(r.m.outage_errors, 3);
    assert_int_equal(r.m.served, 0);
    ts_free(&r.ts);
}

static void trace_clients_are_the_arrivals(void **state)
{
    (void)state;
    scn_config c;
    scn_defaults(&c); /* not base(): a count with start = trace is refused */
    set(&c, "network.delay_s=constant(0.01)");
    set(&c, "run.horizon_s=100");
    set(&c, "clients.start=trace");
    set(&c, "clients.trace_file=tests/data/trace.csv");
    set(&c, "server.workers=1000");
    /* tests/data/trace.csv makes 9,400 arrivals on average (steps): within 6 SD (97) */
    result a = run(&c, HP_EXPONENTIAL, 0), b = run(&c, HP_FULL_JITTER, 0);
    assert_true(a.m.clients > 9400 - 6 * 97 && a.m.clients < 9400 + 6 * 97);
    assert_int_equal(a.m.clients, b.m.clients); /* the arrivals stream is the strategies' common one */
    assert_int_equal(a.m.successes, a.m.clients);
    assert_int_equal(a.m.unfinished, 0);
    ts_free(&a.ts);
    ts_free(&b.ts);
}

/* The parser's metric list (spec/metrics.h) and the model's metric table
 * (model/results.c) name the same metrics, in the same order, with the
 * same type and aggregation: the scenario layer checks `columns` against
 * the one, the reports write the other. */
/* model_test_start, its clients computed ahead (if it can) or event by event. */
static void start_mode(const scn_config *c, hp_strategy s, uint32_t rep, bool event_by_event, model_spec *spec,
                       sim_t *sim, model *md)
{
    model_test_start(c, s, rep, event_by_event, spec, sim, md);
    assert_true(md->ahead == spec_computes_ahead(spec));
}

/* Runs the model to its end and returns its results (freeing the run). */
static result finish_mode(sim_t *sim, model *md)
{
    assert_int_equal(model_run(md), 0);
    result r = {.m = md->m, .ts = md->ts};
    md->ts = (timeseries){0};
    model_free(md);
    sim_free(sim);
    return r;
}

static result run_mode(const scn_config *c, hp_strategy s, uint32_t rep, bool event_by_event)
{
    sim_t sim;
    model md;
    model_spec spec;
    start_mode(c, s, rep, event_by_event, &spec, &sim, &md);
    return finish_mode(&sim, &md);
}

/* run_mode, the clock stopped every `step` seconds (as the live view's
 * frames do) and the series settled there: at each stop, every bucket
 * the clock has passed must already be the one of `want` (the whole
 * run's). */
static result run_stepped(const scn_config *c, hp_strategy s, double step, const timeseries *want)
{
    sim_t sim;
    model md;
    model_spec spec;
    start_mode(c, s, 0, false, &spec, &sim, &md);
    for (double t = 0; t < spec.horizon_s && md.open; t += step) {
        assert_int_equal(sim_run(&sim, t), 0);
        model_settle_series(&md);
        for (size_t i = 0; i < (size_t)(t / spec.bucket_s) && i < md.ts.len && i < want->len; i++)
            if (memcmp(&md.ts.b[i], &want->b[i], sizeof want->b[i]) != 0)
                fail_msg("at t = %g s, bucket %zu is not yet the whole run's (in flight %u against %u)", t, i,
                         md.ts.b[i].in_flight, want->b[i].in_flight);
    }
    return finish_mode(&sim, &md);
}

/* Where nothing is random (constant hops and service, backoff without
 * jitter, one client or clients that never meet at one instant), a run
 * computed ahead is the event-by-event run: every metric but the engine's
 * event count, and every bucket of the series (the in-flight level of
 * buckets a client opened ahead included), for outages, timeouts, late
 * replies, a queue, the horizon and several requests per client. */
static void ahead_is_event_by_event(void **state)
{
    (void)state;
    static const char *const cases[][4] = {
        {"outage 1.start_s=0", "outage 1.end_s=1", NULL},
        {"outage 1.start_s=0", "outage 1.end_s=1", "outage 1.status=connection_refused", NULL},
        {"outage 1.start_s=0", "outage 1.end_s=1", "outage 1.mode=black_hole", "retry.attempt_timeout_s=0.3"},
        {"server.service_time_s=0.5", "retry.attempt_timeout_s=0.3", "retry.max_attempts=2", NULL},
        {"server.service_time_s=0.5", "retry.attempt_timeout_s=0.3", "clients.requests_per_client=3", NULL},
        {"outage 1.start_s=0", "outage 1.end_s=1e9", "retry.max_attempts=0", "run.horizon_s=7.3"},
        {"clients.count=3", "clients.start=spread", "clients.spread_s=10", "server.queue=0"},
        {"server.rate_limit_rps=2", "clients.requests_per_client=6", "server.retry_after=honest", NULL},
        /* client 0's reply (at 1.0) opens its bucket ahead, at 0.8, while
         * client 1 is in service (0.8 to 1.4): that bucket's level is 1
         * (and at 1.1 s no server event has reached it) */
        {"clients.count=2", "network.delay_s=constant(0.2)", "server.service_time_s=constant(0.6)", NULL},
        /* the deadline an attempt carries: the third waits past it and is skipped */
        {"clients.count=3", "server.drop_expired=true", "retry.attempt_timeout_s=0.25",
         "server.service_time_s=constant(0.2)"},
        /* the occ server: reads and writes at one instant (ties in order),
         * three requests each (think time, starts computed ahead) */
        {"server.kind=occ", "clients.count=5", "retry.max_attempts=0", "clients.requests_per_client=3"},
        /* ... and a budget that ends attempts by their timer (late writes'
         * replies, writes after the timeout still bumping the version) */
        {"server.kind=occ", "clients.count=6", "retry.max_attempts=0", "retry.budget_s=0.16"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        scn_config c;
        base(&c);
        set(&c, "run.bucket_s=0.1");
        for (int i = 0; i < 4 && cases[k][i]; i++)
            set(&c, cases[k][i]);
        result a = run_mode(&c, HP_EXPONENTIAL, 0, false), e = run_mode(&c, HP_EXPONENTIAL, 0, true);
        /* frames of 0.07 s (shorter than a bucket) and of 0.55 s (a reply
         * computed ahead into a bucket no server event reaches before the
         * frame ends: case 8's at 1 s, the frame at 1.1 s) */
        result st = run_stepped(&c, HP_EXPONENTIAL, 0.55, &e.ts);
        ts_free(&st.ts);
        st = run_stepped(&c, HP_EXPONENTIAL, 0.07, &e.ts);
        assert_true(a.m.events < e.m.events); /* fewer events: the point */
        if (k == 9) /* the drop_expired case does skip one */
            assert_true(e.m.expired_skipped > 0);
        a.m.events = e.m.events = st.m.events = 0;
        if (memcmp(&a.m, &e.m, sizeof a.m) != 0)
            fail_msg("case %zu: the metrics differ computed ahead", k);
        if (memcmp(&st.m, &e.m, sizeof st.m) != 0)
            fail_msg("case %zu: the metrics differ computed ahead with the clock stopped", k);
        assert_int_equal(a.ts.len, e.ts.len);
        assert_int_equal(st.ts.len, e.ts.len);
        for (size_t i = 0; i < a.ts.len; i++) {
            if (memcmp(&a.ts.b[i], &e.ts.b[i], sizeof a.ts.b[i]) != 0)
                fail_msg("case %zu: bucket %zu differs computed ahead (in flight %u against %u)", k, i,
                         a.ts.b[i].in_flight, e.ts.b[i].in_flight);
            if (memcmp(&st.ts.b[i], &e.ts.b[i], sizeof st.ts.b[i]) != 0)
                fail_msg("case %zu: bucket %zu differs with the clock stopped (in flight %u against %u)", k, i,
                         st.ts.b[i].in_flight, e.ts.b[i].in_flight);
        }
        ts_free(&a.ts);
        ts_free(&e.ts);
        ts_free(&st.ts);
    }
}

/* Computed ahead, an attempt refused at connect by an outage costs no
 * event at all (the host's refusal reads nothing the server shares), against four
 * event by event (send, arrival, reply, timer); a request's start is one. */
static void ahead_one_event_per_refused_attempt(void **state)
{
    (void)state;
    scn_config c;
    herd(&c);
    set(&c, "outage 1.end_s=1e9");
    set(&c, "outage 1.status=connection_refused");
    set(&c, "server.error_rate_500=0");
    result a = run_mode(&c, HP_FULL_JITTER, 0, false), e = run_mode(&c, HP_FULL_JITTER, 0, true);
    assert_int_equal(a.m.refused, 2000 * 8);
    assert_int_equal(a.m.events, 2000);
    assert_int_equal(e.m.events, 2000 + 4 * e.m.refused - 2000); /* the first send is the start */
    ts_free(&a.ts);
    ts_free(&e.ts);
}

/* Computed ahead, an occ try is two events (the read's arrival and the
 * write's, where the row's version is read and written), against five
 * event by event (the read's arrival and reply, the write's arrival and
 * reply, the send after the backoff); a request's start is one (and sends
 * the first try). */
static void ahead_two_events_per_occ_try(void **state)
{
    (void)state;
    scn_config c;
    scn_defaults(&c);
    set(&c, "server.kind=occ");
    set(&c, "clients.count=50");
    set(&c, "network.delay_s=abs_normal(0.010, 0.002)");
    set(&c, "retry.base_s=0.005");
    set(&c, "retry.cap_s=2");
    set(&c, "retry.max_attempts=0");
    set(&c, "retry.exponent_offset=1");
    for (int s = 0; s < 2; s++) {
        hp_strategy st = s ? HP_FULL_JITTER : HP_IMMEDIATE;
        result a = run_mode(&c, st, 0, false), e = run_mode(&c, st, 0, true);
        assert_int_equal(a.m.successes, 50);
        assert_true(a.m.calls > 100);
        assert_int_equal(a.m.events, 50 + 2 * a.m.calls);
        assert_int_equal(e.m.events, 50 + 4 * e.m.calls + e.m.retries);
        assert_int_equal(e.m.retries, e.m.calls - 50);
        ts_free(&a.ts);
        ts_free(&e.ts);
    }
}

/* A byte of flags per logical operation only where one is read
 * (spec_keeps_op_flags): none for reads alone (a byte a client fewer at
 * the peak of a large run), one with writes, a window or shedding; and
 * the counts that read them are the same either way (a write's effects
 * and lost operations). */
static void op_flags_only_where_read(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {NULL, NULL},
        {"clients.side_effect=irreversible", NULL},
        {"run.window_s=0:3", NULL},
        {"server.shed_sheddable_above=0.5", "clients.priority=sheddable"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        scn_config c;
        herd(&c);
        set(&c, "clients.count=300");
        for (int i = 0; i < 2 && cases[k][i]; i++)
            set(&c, cases[k][i]);
        sim_t sim;
        model md;
        model_spec spec;
        model_test_run(&c, HP_FULL_JITTER, 0, &spec, &sim, &md);
        if ((md.op != NULL) != (k > 0))
            fail_msg("case %zu: the operations' flags are %s", k, md.op ? "kept" : "missing");
        if (k == 1)
            assert_true(md.m.effects >= md.m.successes && md.m.successes > 0);
        model_free(&md);
        sim_free(&sim);
    }
}

/* A server event whose answer a client computes ahead may open buckets
 * far ahead (a retry refused by an outage later on), and so move the
 * series to a larger array while the server still holds its bucket:
 * CoDel drops at the end of a service, 1 ms buckets, an outage from 1 s.
 * Under ASan (make asan-test) a bucket pointer held across the answer is
 * a use after free; here the series' counts must add up. */
static void ahead_series_grows_during_a_server_event(void **state)
{
    (void)state;
    scn_config c;
    base(&c);
    set(&c, "clients.count=50");
    set(&c, "server.queue=50");
    set(&c, "server.codel_target_s=0.05");
    set(&c, "outage 1.start_s=1");
    set(&c, "outage 1.end_s=1000");
    set(&c, "outage 1.status=connection_refused");
    set(&c, "retry.base_s=0.5");
    set(&c, "run.bucket_s=0.001");
    result r = run_mode(&c, HP_EXPONENTIAL, 0, false);
    assert_true(r.m.codel_dropped > 0 && r.m.refused > 0);
    uint64_t refused = 0, arrivals = 0, peak = 0;
    for (size_t i = 0; i < r.ts.len; i++) {
        refused += r.ts.b[i].refused;
        arrivals += r.ts.b[i].arrivals;
        if (r.ts.b[i].in_flight > peak)
            peak = r.ts.b[i].in_flight;
    }
    assert_int_equal(refused, r.m.refused);
    assert_int_equal(arrivals, r.m.calls);
    assert_int_equal(peak, r.m.peak_inflight);
    ts_free(&r.ts);
}

static void metric_lists_agree(void **state)
{
    (void)state;
    assert_int_equal(spec_metric_count, metric_count);
    for (size_t k = 0; k < metric_count; k++) {
        assert_string_equal(spec_metrics[k].name, metric_table[k].name);
        assert_int_equal(spec_metrics[k].type, metric_table[k].type);
        assert_int_equal(spec_metrics[k].agg, metric_table[k].agg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_request_no_failure),
        cmocka_unit_test(outage_then_success_by_hand),
        cmocka_unit_test(refused_is_not_a_call),
        cmocka_unit_test(black_hole_and_timeouts_by_hand),
        cmocka_unit_test(late_replies_are_not_successes),
        cmocka_unit_test(fifo_queue_and_rejection),
        cmocka_unit_test(non_retryable_never_retried),
        cmocka_unit_test(horizon_censors),
        cmocka_unit_test(occ_by_hand),
        cmocka_unit_test(invariants),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(common_random_numbers),
        cmocka_unit_test(allocation_failures),
        cmocka_unit_test(tools_have_their_own_policies),
        cmocka_unit_test(destructive_not_found_on_retry),
        cmocka_unit_test(run_allocation_failures),
        cmocka_unit_test(layers_multiply),
        cmocka_unit_test(task_success_rate),
        cmocka_unit_test(closed_population_rates_by_hand),
        cmocka_unit_test(window_counts_requests_started_in_it),
        cmocka_unit_test(rate_limit_before_errors),
        cmocka_unit_test(partial_outage_by_hand),
        cmocka_unit_test(retry_after_on_503_by_hand),
        cmocka_unit_test(adaptive_rate_limiter_paces),
        cmocka_unit_test(ratelimit_reset_by_hand),
        cmocka_unit_test(capacity_drop_lets_running_finish),
        cmocka_unit_test(capacity_rise_drains_queue),
        cmocka_unit_test(capacity_speed_and_errors),
        cmocka_unit_test(capacity_outage_comes_first),
        cmocka_unit_test(trace_clients_are_the_arrivals),
        cmocka_unit_test(breaker_timeline_by_hand),
        cmocka_unit_test(metric_lists_agree),
        cmocka_unit_test(ahead_is_event_by_event),
        cmocka_unit_test(ahead_one_event_per_refused_attempt),
        cmocka_unit_test(ahead_two_events_per_occ_try),
        cmocka_unit_test(op_flags_only_where_read),
        cmocka_unit_test(ahead_series_grows_during_a_server_event),
        cmocka_unit_test(drop_expired_by_hand),
        cmocka_unit_test(drop_expired_hedges_by_hand),
        cmocka_unit_test(shedding_by_hand),
        cmocka_unit_test(instances_keep_their_own_quota),
        cmocka_unit_test(instances_keep_their_own_breaker),
        cmocka_unit_test(instances_keep_their_own_throttle),
    };
    return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
