/*
 * test_discipline.c - cmocka tests for the server's queue disciplines
 * (sim/model/discipline.h).
 *
 * Each discipline is checked against a plain array oracle (append at the
 * end; FIFO takes index 0, LIFO the last, adaptive LIFO the last when the
 * first has waited strictly more than after_s, else the first; drop takes
 * index 0) on long random sequences of admits, enqueues, nexts and drops
 * from a fixed-seed splitmix64 generator, with a small room so that it
 * fills, and the ring wraps and grows.  Hand traces pin the adaptive
 * switch at its boundary; an allocation failure leaves the room unchanged.
 * CoDel's state machine (codel_begin / codel_took) is checked against
 * hand traces: intervals (and one stretched by a late dequeue), the
 * minimum, the target as a strict bound, an interval where nothing left.
 * shed.h: the carried deadline rounds up (never earlier than the
 * client's), a deadline reached is passed, the share of busy workers as a
 * strict bound, and the header readings of herd serve.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <string.h>

#include "../sim/base/alloc.h"
#include "../sim/model/discipline.h"
#include "../sim/model/shed.h"

#include <math.h>

#define ORACLE_MAX 300

static int disarm(void **state)
{
    (void)state;
    herd_alloc_fail_after(-1);
    return 0;
}

static uint32_t pick(uint64_t *s, uint32_t n) { return (uint32_t)(((splitmix64(s) >> 32) * n) >> 32); }

static void same(const qslot *a, const qslot *b)
{
    assert_int_equal(a->client, b->client);
    assert_int_equal(a->tag, b->tag);
    assert_true(a->enqueued == b->enqueued);
    assert_int_equal(a->req, b->req);
    assert_true(a->carried == b->carried);
}

static void check_oracle(spec_qdisc d, uint32_t max, double after_s, uint64_t seed)
{
    model_spec spec = {.queue = max, .queue_discipline = d, .adaptive_lifo_after_s = after_s};
    const disc_ops *ops = disc_for(d);
    srv_queue q;
    disc_init(&q, &spec);
    qslot o[ORACLE_MAX];
    uint32_t n = 0, id = 0;
    double now = 0;
    for (int step = 0; step < 200000; step++) {
        now += 0.01 * pick(&seed, 4); /* ties included */
        uint32_t op = pick(&seed, 10);
        if (op < 5) {
            int r = ops->admit(&q);
            assert_int_equal(r, n < max ? 1 : 0);
            if (r == 1) {
                qslot s = {id, id * 7 + 1, now, id % 13, 0, (float)(id % 5)};
                id++;
                ops->enqueue(&q, s);
                o[n++] = s;
            }
        } else if (n && op < 9) {
            uint32_t k = 0;
            if (d == SPEC_QD_LIFO || (d == SPEC_QD_ADAPTIVE_LIFO && now - o[0].enqueued > after_s))
                k = n - 1;
            qslot s = ops->next(&q, now);
            same(&s, &o[k]);
            memmove(o + k, o + k + 1, (n - k - 1) * sizeof *o);
            n--;
        } else if (n) {
            same(disc_oldest(&q), &o[0]);
            qslot s = ops->drop(&q);
            same(&s, &o[0]);
            memmove(o, o + 1, (n - 1) * sizeof *o);
            n--;
        }
        assert_int_equal(q.len, n);
    }
    disc_free(&q);
}

static void test_fifo_oracle(void **state)
{
    (void)state;
    check_oracle(SPEC_QD_FIFO, 200, 0, 1);
    check_oracle(SPEC_QD_FIFO, 3, 0, 2);
}

static void test_lifo_oracle(void **state)
{
    (void)state;
    check_oracle(SPEC_QD_LIFO, 200, 0, 3);
    check_oracle(SPEC_QD_LIFO, 1, 0, 4);
}

static void test_adaptive_oracle(void **state)
{
    (void)state;
    check_oracle(SPEC_QD_ADAPTIVE_LIFO, 200, 0.05, 5);
    check_oracle(SPEC_QD_ADAPTIVE_LIFO, 250, 0.2, 6);
    check_oracle(SPEC_QD_ADAPTIVE_LIFO, 7, 0, 7);
}

/* The switch at its boundary: waited exactly after_s is still FIFO. */
static void test_adaptive_boundary(void **state)
{
    (void)state;
    model_spec spec = {.queue = 10, .queue_discipline = SPEC_QD_ADAPTIVE_LIFO, .adaptive_lifo_after_s = 0.5};
    const disc_ops *ops = disc_for(spec.queue_discipline);
    srv_queue q;
    disc_init(&q, &spec);
    for (uint32_t i = 0; i < 4; i++) {
        assert_int_equal(ops->admit(&q), 1);
        ops->enqueue(&q, (qslot){i, 0, 0.25 * i, 0, 0, 0});
    }
    assert_int_equal(ops->next(&q, 0.5).client, 0);  /* oldest waited 0.5: FIFO */
    assert_int_equal(ops->next(&q, 0.76).client, 3); /* oldest (0.25) waited 0.51: LIFO */
    assert_int_equal(ops->next(&q, 0.76).client, 2);
    assert_int_equal(ops->next(&q, 0.76).client, 1);
    assert_int_equal(q.len, 0);
    disc_free(&q);
}

static void test_empty_room(void **state)
{
    (void)state;
    model_spec spec = {.queue = 0};
    srv_queue q;
    disc_init(&q, &spec);
    assert_int_equal(disc_fifo.admit(&q), 0);
    disc_free(&q);
    disc_free(&q); /* twice: harmless */
}

static void test_alloc_failure(void **state)
{
    (void)state;
    model_spec spec = {.queue = 1000};
    srv_queue q;
    disc_init(&q, &spec);
    for (uint32_t i = 0; i < 64; i++) {
        assert_int_equal(disc_lifo.admit(&q), 1);
        disc_lifo.enqueue(&q, (qslot){i, 0, i, 0, 0, 0});
    }
    herd_alloc_fail_after(0);
    assert_int_equal(disc_lifo.admit(&q), -1);
    herd_alloc_fail_after(-1);
    assert_int_equal(q.len, 64);
    assert_int_equal(disc_lifo.next(&q, 100).client, 63);
    assert_int_equal(disc_lifo.drop(&q).client, 0);
    disc_free(&q);
}

/* CoDel against a hand trace: target 1/128 s, interval 1/8 s (binary
 * fractions, so interval ends are exact). */
static void test_codel_trace(void **state)
{
    (void)state;
    const double T = 0.0078125, I = 0.125;
    codel cd;
    codel_init(&cd, T, I);
    codel_took(&cd, 0);                  /* served at once */
    assert_false(codel_begin(&cd, 0.0)); /* first interval [0, I) */
    codel_took(&cd, 4 * T);
    assert_false(codel_begin(&cd, 0.0625));
    codel_took(&cd, 2 * T);
    assert_false(codel_begin(&cd, 0.12)); /* still the first interval: min 0 */
    assert_false(codel_begin(&cd, I));   /* [I, ..): min of [0, I) was 0 */
    codel_took(&cd, 8 * T);
    codel_took(&cd, 2 * T);              /* min 2T > T */
    assert_false(codel_begin(&cd, 0.1875));
    assert_true(codel_begin(&cd, 0.25)); /* [2I, 3I): overloaded */
    codel_took(&cd, 8 * T);
    codel_took(&cd, T);                  /* exactly the target: not above it */
    assert_true(codel_begin(&cd, 0.3125)); /* the decision holds for the interval */
    assert_false(codel_begin(&cd, 0.375));
    codel_took(&cd, 1.5 * T);
    /* the next dequeue comes late, at 0.75: the interval [3I, 0.75) took 1.5T */
    assert_true(codel_begin(&cd, 0.75));
    codel_took(&cd, 0);
    assert_false(codel_begin(&cd, 0.875)); /* [0.75, 0.875): a request served at once */
}

/* An interval in which nothing left the queue: it stood all along. */
static void test_codel_empty_interval(void **state)
{
    (void)state;
    codel cd;
    codel_init(&cd, 0.0078125, 0.125);
    codel_took(&cd, 0);
    assert_false(codel_begin(&cd, 0.125));
    assert_true(codel_begin(&cd, 0.25)); /* [0.125, 0.25) took nothing */
}

static void test_shed_carried(void **state)
{
    (void)state;
    assert_true(isinf(shed_carried(INFINITY, 3)));
    assert_true(shed_carried(1.5, 0) == 1.5f);
    assert_true(shed_carried(1.5, 0.5) == 1.0f);
    assert_true(shed_carried(1.5, 2) == -0.5f); /* passed before it left */
    /* 0.1 is no float: rounded up, never below what is left */
    for (double t = 0.1; t < 1000; t = t * 3.7 + 0.013) {
        float f = shed_carried(t, 0.001);
        assert_true((double)f >= t - 0.001);
        assert_true((double)f - (t - 0.001) <= (t - 0.001) * 1.2e-7);
    }
    /* the server's deadline: arrival + carried, reached is passed */
    assert_false(shed_expired(2, 1.5f, 3.4999));
    assert_true(shed_expired(2, 1.5f, 3.5));
    assert_true(shed_expired(2, 0.0f, 2));
    assert_false(shed_expired(2, INFINITY, 1e300));
}

static void test_shed_rejects(void **state)
{
    (void)state;
    assert_false(shed_rejects(0.5, 0, 2));
    assert_false(shed_rejects(0.5, 1, 2)); /* 0.5 is not above 0.5 */
    assert_true(shed_rejects(0.5, 2, 2));
    assert_false(shed_rejects(0.8, 8, 10));
    assert_true(shed_rejects(0.8, 9, 10));
    assert_false(shed_rejects(1, 10, 10)); /* all busy is a share of 1: not above 1 */
    assert_true(shed_rejects(1, 11, 10));  /* a capacity drop left more busy than serve */
    assert_true(shed_rejects(0.5, 0, 0));  /* no worker: a share of 1 */
    assert_false(shed_rejects(1, 0, 0));
}

static void test_shed_headers(void **state)
{
    (void)state;
    double v = -1;
    assert_int_equal(shed_parse_deadline("1.5", &v), 0);
    assert_true(v == 1.5);
    assert_int_equal(shed_parse_deadline("0", &v), 0);
    assert_true(v == 0);
    assert_int_equal(shed_parse_deadline("12.", &v), 0);
    assert_true(v == 12);
    assert_int_equal(shed_parse_deadline(".25", &v), 0);
    assert_true(v == 0.25);
    assert_int_equal(shed_parse_deadline("1000000000", &v), 0);
    v = -1;
    static const char *const bad[] = {"", ".", "-1", "+1", "1e3", " 1", "1 ", "inf", "nan", "0x10", "1.2.3",
                                      "1000000000.5", "99999999999", "1,5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(shed_parse_deadline(bad[i], &v), -1);
    assert_int_equal(shed_parse_deadline(NULL, &v), -1);
    assert_true(v == -1); /* untouched on failure */
    assert_int_equal(shed_parse_priority("critical"), 0);
    assert_int_equal(shed_parse_priority("sheddable"), 1);
    assert_int_equal(shed_parse_priority("Sheddable"), -1);
    assert_int_equal(shed_parse_priority(""), -1);
    assert_int_equal(shed_parse_priority(NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_oracle),
        cmocka_unit_test(test_lifo_oracle),
        cmocka_unit_test(test_adaptive_oracle),
        cmocka_unit_test(test_adaptive_boundary),
        cmocka_unit_test(test_empty_room),
        cmocka_unit_test_teardown(test_alloc_failure, disarm),
        cmocka_unit_test(test_codel_trace),
        cmocka_unit_test(test_codel_empty_interval),
        cmocka_unit_test(test_shed_carried),
        cmocka_unit_test(test_shed_rejects),
        cmocka_unit_test(test_shed_headers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
