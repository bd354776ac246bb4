/*
 * test_host.c - the clients' hosts ([clients] hosts, connections_per_host,
 * with [network] send_cost_s; sim/model/host.c) on scenarios whose every
 * event can be worked out by hand: a pool of one connection serialises its
 * host's attempts, the wait for a connection counts in the attempt
 * timeout, each host has a sender of its own; plus the pool's invariants
 * and allocation failures on a contended run.
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

#include "../sim/base/alloc.h"
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

/* Hand-checkable defaults: `n` clients at t = 0, constant 10 ms hops,
 * constant 100 ms service, workers enough for all, one attempt each: an
 * attempt sent at t is answered at t + 0.12. */
static void base(scn_config *c, int n)
{
    char kv[64];
    scn_defaults(c);
    snprintf(kv, sizeof kv, "clients.count=%d", n);
    set(c, kv);
    set(c, "network.delay_s=constant(0.01)");
    set(c, "server.workers=100");
    set(c, "server.queue=10");
    set(c, "server.service_time_s=constant(0.1)");
    set(c, "retry.max_attempts=1");
}

/* What a run leaves: its metrics and the pool's counts (waits: attempts
 * that waited for a connection; wait_sum: their waits until they got one;
 * left: connections still held or attempts still waiting at the end). */
typedef struct outcome {
    metrics m;
    uint64_t waits;
    double wait_sum;
    uint64_t left;
} outcome;

static outcome run(const scn_config *c, uint32_t rep)
{
    sim_t sim;
    model md;
    model_spec spec;
    model_test_run(c, HP_EXPONENTIAL, rep, &spec, &sim, &md);
    outcome o = {.m = md.m};
    if (md.pool) {
        o.waits = md.pool->waits;
        o.wait_sum = md.pool->wait_sum;
        for (uint32_t h = 0; h < md.pool->hosts; h++)
            o.left += md.pool->busy[h] + (md.pool->head[h] != HOST_NONE);
        for (uint32_t i = 0; i < spec.clients; i++)
            o.left += md.pool->state[i] != HOST_IDLE;
    }
    model_free(&md);
    sim_free(&sim);
    return o;
}

/* One host, one connection, three clients at t = 0: client 0 is sent at 0
 * (reply 0.12); client 1 waits for the connection until 0.12 (reply 0.24),
 * client 2 until 0.24 (reply 0.36).  The server never sees two at once. */
static void one_connection_serialises(void **state)
{
    (void)state;
    scn_config c;
    base(&c, 3);
    outcome o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.12); /* without a pool: all at once */
    assert_int_equal(o.m.peak_inflight, 3);

    set(&c, "clients.connections_per_host=1");
    o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.36);
    close_to(o.m.mean_latency_s, (0.12 + 0.24 + 0.36) / 3);
    assert_int_equal(o.m.peak_inflight, 1);
    assert_int_equal(o.m.successes, 3);
    assert_int_equal(o.waits, 2);
    close_to(o.wait_sum, 0.12 + 0.24);
    assert_int_equal(o.left, 0);

    /* two connections: clients 0 and 1 at once (0.12), client 2 at 0.24 */
    set(&c, "clients.connections_per_host=2");
    o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.24);
    assert_int_equal(o.m.peak_inflight, 2);
    assert_int_equal(o.waits, 1);
}

/* The pool is per host: four clients on two hosts (0, 2 on host 0; 1, 3 on
 * host 1), one connection each: 0 and 1 at once (0.12), then 2 and 3
 * (0.24). */
static void each_host_has_its_pool(void **state)
{
    (void)state;
    scn_config c;
    base(&c, 4);
    set(&c, "clients.hosts=2");
    set(&c, "clients.connections_per_host=1");
    outcome o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.24);
    close_to(o.m.mean_latency_s, 0.18);
    assert_int_equal(o.m.peak_inflight, 2);
    assert_int_equal(o.waits, 2);
    close_to(o.wait_sum, 0.24);
    assert_int_equal(o.left, 0);
}

/* The wait for a connection counts in the attempt timeout (0.2 s): client
 * 1 gets the connection at 0.12, its reply would come at 0.24, after its
 * timer (issued at 0) fires at 0.2: a timeout, and the reply arrives late.
 * Without the pool both succeed at 0.12. */
static void pool_wait_counts_in_the_timeout(void **state)
{
    (void)state;
    scn_config c;
    base(&c, 2);
    set(&c, "retry.attempt_timeout_s=0.2");
    outcome o = run(&c, 0);
    assert_int_equal(o.m.successes, 2);
    assert_int_equal(o.m.timeouts, 0);

    set(&c, "clients.connections_per_host=1");
    o = run(&c, 0);
    assert_int_equal(o.m.successes, 1);
    assert_int_equal(o.m.failures, 1);
    assert_int_equal(o.m.timeouts, 1);
    assert_int_equal(o.m.late_replies, 1);
    assert_int_equal(o.m.calls, 2);
    close_to(o.m.completion_time_s, 0.2);
    assert_int_equal(o.left, 0);
}

/* A connection is held until the attempt ends for the client: a timeout
 * frees it (the client closes the connection) before the reply comes.
 * Service 0.5 s, timeout 0.3 s, two requests in a row per client, two
 * clients, one connection: client 0's first attempt holds it until its
 * timeout at 0.3, which hands it to client 1 (waiting since 0, whose own
 * timer fires at the same instant); the second requests start at 0.3 and
 * time out at 0.6 alike.  Every attempt times out, none is left holding
 * or waiting at the end. */
static void timeouts_free_connections(void **state)
{
    (void)state;
    scn_config c;
    base(&c, 2);
    set(&c, "server.service_time_s=constant(0.5)");
    set(&c, "retry.attempt_timeout_s=0.3");
    set(&c, "clients.requests_per_client=2");
    set(&c, "clients.connections_per_host=1");
    outcome o = run(&c, 0);
    assert_int_equal(o.m.successes, 0);
    assert_int_equal(o.m.failures, 4);
    assert_int_equal(o.m.timeouts, 4);
    assert_int_equal(o.left, 0);
    assert_true(o.m.calls <= 4);
}

/* [network] send_cost_s is paid in turn per host: 4 clients, 0.1 s each.
 * One host: arrivals at 0.11, 0.21, 0.31, 0.41 (replies 0.22 ... 0.52);
 * two hosts (0, 2 and 1, 3): 0.11, 0.11, 0.21, 0.21 (replies 0.22, 0.32);
 * four: every reply at 0.22. */
static void each_host_sends_in_turn(void **state)
{
    (void)state;
    scn_config c;
    base(&c, 4);
    set(&c, "network.send_cost_s=0.1");
    outcome o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.52);
    close_to(o.m.mean_latency_s, (0.22 + 0.32 + 0.42 + 0.52) / 4);

    set(&c, "clients.hosts=1"); /* the default, written: the same run */
    outcome same = run(&c, 0);
    assert_memory_equal(&same.m, &o.m, sizeof o.m);

    set(&c, "clients.hosts=2");
    o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.32);
    close_to(o.m.mean_latency_s, 0.27);

    set(&c, "clients.hosts=4");
    o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.22);
    close_to(o.m.mean_latency_s, 0.22);
}

/* The pool and the sender together: one host, one connection, a send
 * cost of 0.05 s: each attempt is sent when it gets the connection, then
 * pays the send cost: replies at 0.17, 0.34, 0.51. */
static void pool_then_sender(void **state)
{
    (void)state;
    scn_config c;
    base(&c, 3);
    set(&c, "network.send_cost_s=0.05");
    set(&c, "clients.connections_per_host=1");
    outcome o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.51);
    close_to(o.m.mean_latency_s, (0.17 + 0.34 + 0.51) / 3);
    close_to(o.wait_sum, 0.17 + 0.34);
}

/* [network] reply_cost_s: the host reads each reply in turn with its
 * sends.  One host, 3 clients, sends of 0.1 s (all reserved at t = 0:
 * done at 0.1, 0.2, 0.3; replies back at 0.22, 0.32, 0.42) and reads of
 * 0.05 s: the first reply waits for the third send (read at 0.35), the
 * second is read at 0.40, the third at 0.47.  On three hosts each reads
 * its own at 0.27. */
static void each_host_reads_in_turn(void **state)
{
    (void)state;
    scn_config c;
    base(&c, 3);
    set(&c, "network.send_cost_s=0.1");
    set(&c, "network.reply_cost_s=0.05");
    outcome o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.47);
    close_to(o.m.mean_latency_s, (0.35 + 0.40 + 0.47) / 3);
    set(&c, "clients.hosts=3");
    o = run(&c, 0);
    close_to(o.m.completion_time_s, 0.27);
    close_to(o.m.mean_latency_s, 0.27);

    /* a reply read after its attempt's timer fired is late, not a success:
     * timeout 0.37 s, the first reply (read at 0.35) succeeds, the others
     * (0.40, 0.47) come too late */
    set(&c, "clients.hosts=1");
    set(&c, "retry.attempt_timeout_s=0.37");
    o = run(&c, 0);
    assert_int_equal(o.m.successes, 1);
    assert_int_equal(o.m.timeouts, 2);
    assert_int_equal(o.m.late_replies, 2);
}

/* A contended run (an outage, retries, timeouts, exponential service, a
 * small pool on several hosts): every request ends and the pool is empty
 * at the end.  Without timeouts, no attempt outlives its connection, so at
 * no time are more attempts in flight at the server than the hosts hold
 * connections (with timeouts, abandoned attempts stay at the server). */
static void contended(scn_config *c)
{
    scn_defaults(c);
    set(c, "clients.count=600");
    set(c, "clients.requests_per_client=3");
    set(c, "clients.think_time_s=exponential(0.2)");
    set(c, "clients.hosts=7");
    set(c, "clients.connections_per_host=4");
    set(c, "network.delay_s=exponential(0.005)");
    set(c, "network.send_cost_s=0.0002");
    set(c, "server.workers=20");
    set(c, "server.queue=30");
    set(c, "server.service_time_s=exponential(0.02)");
    set(c, "outage 1.start_s=0.5");
    set(c, "outage 1.end_s=2");
    set(c, "retry.base_s=0.05");
    set(c, "retry.cap_s=2");
    set(c, "retry.max_attempts=6");
    set(c, "retry.attempt_timeout_s=0.5");
}

static void contended_invariants(void **state)
{
    (void)state;
    scn_config c;
    contended(&c);
    for (uint32_t rep = 0; rep < 3; rep++) {
        outcome o = run(&c, rep);
        assert_int_equal(o.m.successes + o.m.failures + o.m.unfinished, 1800);
        assert_int_equal(o.m.unfinished, 0);
        assert_int_equal(o.left, 0);
        assert_true(o.waits > 0);
        assert_true(o.m.timeouts > 0);
    }
    set(&c, "retry.attempt_timeout_s=0");
    outcome o = run(&c, 0);
    assert_int_equal(o.m.successes + o.m.failures, 1800);
    assert_int_equal(o.left, 0);
    assert_true(o.m.peak_inflight <= 7 * 4);
    assert_true(o.m.peak_inflight > 20); /* the pool is what bounds it: 20 workers, 30 queue places */
}

/* Every allocation of a run with pools (host_init's arrays among them)
 * fails in turn: model_init or model_run fails cleanly, and model_free is
 * safe after it (the ASan build checks that nothing leaks). */
static void allocation_failures(void **state)
{
    (void)state;
    scn_config c;
    contended(&c);
    set(&c, "clients.count=50");
    set(&c, "clients.hosts=3");
    set(&c, "clients.connections_per_host=2");
    assert_true(model_allocation_failures(&c, 128) >= 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_connection_serialises),
        cmocka_unit_test(each_host_has_its_pool),
        cmocka_unit_test(pool_wait_counts_in_the_timeout),
        cmocka_unit_test(timeouts_free_connections),
        cmocka_unit_test(each_host_sends_in_turn),
        cmocka_unit_test(pool_then_sender),
        cmocka_unit_test(each_host_reads_in_turn),
        cmocka_unit_test(contended_invariants),
        cmocka_unit_test(allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
