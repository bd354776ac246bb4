/*
 * test_equeue.c - cmocka tests for the pending-event sets: the 4-ary heap
 * (equeue.h) and the ladder queue (ladder.h).
 *
 * The heap is checked against a plain array oracle (insert at the end, find
 * the minimum by linear scan in (time, seq) order) on long random operation
 * sequences from a fixed-seed splitmix64 generator.  Times are drawn from a
 * small set so that most events tie on time and the FIFO rule carries the
 * order.  Allocation failures are injected through herd_alloc_fail_after().
 *
 * The ladder is then checked against the heap as its oracle, event by
 * event (time, seq and payload), on random sequences of interleaved pushes
 * and pops that fill it to tens of thousands of events and drain it again:
 * ties and repeated times, delays spread log-uniformly from 1e-9 s to
 * 1e7 s, far-future events among near ones, bursts of thousands of events
 * at one time, and times before the last pop.  Its allocation failures
 * leave it unchanged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../sim/base/alloc.h"
#include "../sim/engine/equeue.h"
#include "../sim/engine/ladder.h"




/* Uniform integer in [0, n), n small: the multiply-shift of the top 32 bits
 * has a bias below n / 2^32, irrelevant for picking test inputs. */
static uint32_t below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((splitmix64(s) >> 32) * n) >> 32);
}

/* The order the queue promises, written independently of eq_before(). */
static int oracle_less(const eq_event *a, const eq_event *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    return a->seq < b->seq;
}

static void assert_event_equal(const eq_event *got, const eq_event *want)
{
    assert_true(got->time == want->time);
    assert_int_equal(got->seq, want->seq);
    assert_int_equal(got->type, want->type);
    assert_int_equal(got->obj, want->obj);
    assert_int_equal(got->tag, want->tag);
    assert_int_equal(got->arg, want->arg);
}

/* The heap invariant of equeue.c, read through the public struct: no child
 * is before its parent.  O(n): called now and then, not per operation. */
static void assert_heap_ok(const eq_queue *q)
{
    size_t i;

    assert_true(q->len <= q->cap);
    for (i = 1; i < q->len; i++)
        assert_false(oracle_less(&q->heap[i], &q->heap[(i - 1) / 4]));
}

/* ------------------------------------------------------------ the oracle */

typedef struct oracle {
    eq_event *ev;
    size_t len, cap;
    uint64_t next_seq;
} oracle;

static void oracle_push(oracle *o, const eq_event *ev)
{
    if (o->len == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 256;
        o->ev = realloc(o->ev, o->cap * sizeof *o->ev);
        assert_non_null(o->ev);
    }
    o->ev[o->len] = *ev;
    o->ev[o->len].seq = o->next_seq++;
    o->len++;
}

/* Index of the minimum by linear scan; the oracle must not be empty. */
static size_t oracle_min(const oracle *o)
{
    size_t best = 0, i;

    for (i = 1; i < o->len; i++)
        if (oracle_less(&o->ev[i], &o->ev[best]))
            best = i;
    return best;
}

static void oracle_remove(oracle *o, size_t i)
{
    o->ev[i] = o->ev[--o->len];
}

/* Times from a small set so that ties dominate: the integers 0..7, the sum
 * 0.1 + 0.2 (computed, several times over), 0.3 (one ulp away from it, so a
 * tolerance anywhere would show), and -0.0, which compares equal to 0.0. */
static double tie_time(uint64_t *s)
{
    volatile double a = 0.1, b = 0.2;

    switch (below(s, 12)) {
    case 8:
    case 9:
        return a + b;
    case 10:
        return 0.3;
    case 11:
        return -0.0;
    default:
        return (double)below(s, 8);
    }
}

/* Delays for the "simulation" mode: pushes at now + delay, mostly now. */
static double tie_delay(uint64_t *s)
{
    static const double d[6] = {0, 0, 0, 1, 0.5, 0.1};

    return d[below(s, 6)];
}

static eq_event random_payload(uint64_t *s, double time)
{
    eq_event e;
    uint64_t x = splitmix64(s);

    memset(&e, 0, sizeof e);
    e.time = time;
    e.seq = splitmix64(s); /* garbage: eq_push must overwrite it */
    e.type = (uint32_t)(x & 0xff);
    e.obj = (uint32_t)(x >> 8);
    e.tag = (uint32_t)(x >> 40);
    e.arg = (int32_t)(uint32_t)splitmix64(s);
    return e;
}

/*
 * Runs `nops` random operations on a queue and the oracle in lock step.
 *
 * `sim_mode` 0: times from tie_time(), pushes and pops interleaved freely.
 * Pops are then not globally monotone, but an event that was already queued
 * when e was popped must pop after e: checked through the seq counter.
 * `sim_mode` 1: pushes at (last popped time) + tie_delay(), as a simulation
 * schedules; then every pop is after the previous one in (time, seq), i.e.
 * time never decreases and equal times come out in insertion order.
 *
 * The push probability alternates between 0.75 (fill) and 0.25 (drain) in
 * phases of 1024..3072 operations, so the queue grows to one to a few
 * thousand events (several doublings past the initial capacity) and empties
 * again.
 */
static void run_oracle(uint64_t seed, size_t nops, size_t hint, int sim_mode)
{
    uint64_t s = seed;
    eq_queue q;
    oracle o = {0};
    eq_event prev;
    uint64_t seq_at_prev = 0; /* next_seq when prev was popped */
    int have_prev = 0;
    double now = 0, p_push = 0.25;
    size_t i, peak = 0, pops = 0, phase_end = 0;

    assert_int_equal(eq_init(&q, hint), 0);
    assert_true(q.cap >= hint);
    for (i = 0; i < nops; i++) {
        if (i == phase_end) {
            p_push = 1.0 - p_push;
            phase_end += 1024 * (1 + below(&s, 3));
        }
        if (o.len == 0 || unif(&s) < p_push) {
            double t = sim_mode ? now + tie_delay(&s) : tie_time(&s);
            eq_event e = random_payload(&s, t);

            assert_int_equal(eq_push(&q, &e), 0);
            oracle_push(&o, &e);
            if (o.len > peak)
                peak = o.len;
        } else {
            size_t m = oracle_min(&o);
            const eq_event *top = eq_peek(&q);
            eq_event got;

            assert_non_null(top);
            assert_event_equal(top, &o.ev[m]);
            assert_int_equal(eq_pop(&q, &got), 0);
            assert_event_equal(&got, &o.ev[m]);
            oracle_remove(&o, m);
            if (have_prev && (sim_mode || got.seq < seq_at_prev))
                assert_true(oracle_less(&prev, &got));
            if (sim_mode)
                assert_true(got.time >= now);
            prev = got;
            seq_at_prev = o.next_seq;
            have_prev = 1;
            now = got.time;
            pops++;
        }
        assert_int_equal(eq_len(&q), o.len);
        if (i % 997 == 0)
            assert_heap_ok(&q);
    }
    /* drain: the rest must come out in oracle order too */
    while (o.len) {
        size_t m = oracle_min(&o);
        eq_event got;

        assert_int_equal(eq_pop(&q, &got), 0);
        assert_event_equal(&got, &o.ev[m]);
        oracle_remove(&o, m);
    }
    assert_int_equal(eq_len(&q), 0);
    assert_null(eq_peek(&q));
    /* the run did what it claims: grew past the start capacity, popped */
    assert_true(peak > 4 * (hint > 64 ? hint : 64));
    assert_true(pops > nops / 4);
    eq_free(&q);
    free(o.ev);
}

/* ----------------------------------------------------------------- tests */

TEST(test_empty)
{
    eq_queue q;
    eq_event e = {.time = 1.0, .obj = 42};
    eq_event out = {.time = 9.0, .obj = 7};

    eq_free(NULL); /* no-op */

    assert_int_equal(eq_init(&q, 0), 0);
    assert_int_equal(eq_len(&q), 0);
    assert_null(eq_peek(&q));
    assert_int_equal(eq_pop(&q, &out), -1);
    assert_true(out.time == 9.0 && out.obj == 7); /* untouched */
    eq_free(&q);

    assert_int_equal(eq_init(&q, 100), 0);
    assert_non_null(q.heap);
    assert_true(q.cap >= 100);
    assert_int_equal(eq_len(&q), 0);
    assert_null(eq_peek(&q));
    assert_int_equal(eq_pop(&q, &out), -1);

    /* one in, one out, then empty again */
    assert_int_equal(eq_push(&q, &e), 0);
    assert_int_equal(eq_len(&q), 1);
    assert_non_null(eq_peek(&q));
    assert_int_equal(eq_peek(&q)->obj, 42);
    assert_int_equal(eq_pop(&q, &out), 0);
    assert_true(out.time == 1.0);
    assert_int_equal(out.obj, 42);
    assert_int_equal(out.seq, 0);
    assert_int_equal(eq_pop(&q, &out), -1);
    assert_null(eq_peek(&q));

    /* eq_free leaves an empty queue that is safe to free again */
    eq_free(&q);
    assert_int_equal(eq_len(&q), 0);
    assert_null(eq_peek(&q));
    assert_null(q.heap);
    eq_free(&q);
}

TEST(test_init_hint_no_growth)
{
    /* with room for 100, 100 pushes do not allocate: with every allocation
     * failing they still succeed, and the 101st (which must grow) fails */
    eq_queue q;
    eq_event e = {.time = 3.0};
    const eq_event *before;
    uint32_t i;

    assert_int_equal(eq_init(&q, 100), 0);
    before = q.heap;
    herd_alloc_fail_after(0);
    for (i = 0; i < 100; i++) {
        e.obj = i;
        assert_int_equal(eq_push(&q, &e), 0);
    }
    assert_ptr_equal(q.heap, before);
    assert_int_equal(eq_push(&q, &e), -1);
    herd_alloc_fail_after(-1);
    assert_int_equal(eq_len(&q), 100);
    for (i = 0; i < 100; i++) {
        eq_event out;

        assert_int_equal(eq_pop(&q, &out), 0);
        assert_int_equal(out.obj, i);
    }
    eq_free(&q);
}

TEST(test_oracle)
{
    static const uint64_t seeds[3] = {1, 0xdeadbeef,
                                      UINT64_C(0x123456789abcdef)};
    size_t k;

    for (k = 0; k < 3; k++) {
        run_oracle(seeds[k], 100000, 0, 0);
        run_oracle(seeds[k] + 77, 100000, 0, 1);
        run_oracle(seeds[k] ^ 0x5555, 20000, 10, 0);
        run_oracle(seeds[k] * 3, 20000, 1, 1);
    }
}

TEST(test_key_layout)
{
    /* eq_before compares the word of seq and type: seq in the high bits */
    eq_event e = {.seq = 3, .type = 7};
    eq_event f = {.seq = 4, .type = 0};

    assert_true(e.key == eq_key(3, 7));
    assert_true(e.key < f.key);
    e.key = eq_key((UINT64_C(1) << 56) - 1, 255);
    assert_true(e.seq == (UINT64_C(1) << 56) - 1);
    assert_int_equal(e.type, 255);
}

TEST(test_ties_fifo)
{
    eq_queue q;
    uint32_t i;

    assert_int_equal(eq_init(&q, 0), 0);
    for (i = 0; i < 1000; i++) {
        eq_event e = {.time = 5.0, .obj = i, .seq = 999 - i};

        assert_int_equal(eq_push(&q, &e), 0);
    }
    for (i = 0; i < 1000; i++) {
        eq_event out;

        assert_int_equal(eq_pop(&q, &out), 0);
        assert_true(out.time == 5.0);
        assert_int_equal(out.obj, i);
        assert_int_equal(out.seq, i);
    }
    assert_int_equal(eq_pop(&q, &(eq_event){0}), -1);
    eq_free(&q);
}

TEST(test_ties_fifo_interleaved)
{
    /* the same 1000 ties at 5.0, pushed between events at 4.0 and 6.0 and
     * with pops in between: each time class comes out in push order, and
     * all 4.0 before all 5.0 before all 6.0 */
    eq_queue q;
    uint32_t i, lo = 0, mid = 0, hi = 0;
    eq_event out;

    assert_int_equal(eq_init(&q, 0), 0);
    for (i = 0; i < 1000; i++) {
        eq_event e6 = {.time = 6.0, .obj = 200000 + i};
        eq_event e5 = {.time = 5.0, .obj = i};
        eq_event e4 = {.time = 4.0, .obj = 100000 + i};

        assert_int_equal(eq_push(&q, &e6), 0);
        assert_int_equal(eq_push(&q, &e5), 0);
        assert_int_equal(eq_push(&q, &e4), 0);
        if (i % 3 == 2) { /* the oldest 4.0 still queued */
            assert_int_equal(eq_pop(&q, &out), 0);
            assert_true(out.time == 4.0);
            assert_int_equal(out.obj, 100000 + lo);
            lo++;
        }
    }
    while (eq_pop(&q, &out) == 0) {
        if (out.time == 4.0) {
            assert_int_equal(mid, 0);
            assert_int_equal(out.obj, 100000 + lo);
            lo++;
        } else if (out.time == 5.0) {
            assert_int_equal(lo, 1000);
            assert_int_equal(hi, 0);
            assert_int_equal(out.obj, mid);
            mid++;
        } else {
            assert_true(out.time == 6.0);
            assert_int_equal(mid, 1000);
            assert_int_equal(out.obj, 200000 + hi);
            hi++;
        }
    }
    assert_int_equal(hi, 1000);
    eq_free(&q);
}

/* Pushes obj = from .. to-1 at times (obj * 7) % 13, tag = obj * 3. */
static void fill_from(eq_queue *q, uint32_t from, uint32_t to)
{
    uint32_t i;

    for (i = from; i < to; i++) {
        eq_event e = {.time = (double)((i * 7) % 13), .obj = i, .tag = i * 3};

        assert_int_equal(eq_push(q, &e), 0);
    }
}

/* Pops everything; checks (time, seq) order, that seq is obj (they were
 * pushed in order, with no seq lost), and that all n events come out. */
static void drain_check(eq_queue *q, uint32_t n)
{
    eq_event prev = {0}, out;
    uint32_t count = 0;
    unsigned char *seen = calloc(n ? n : 1, 1);

    assert_non_null(seen);
    while (eq_pop(q, &out) == 0) {
        if (count)
            assert_true(oracle_less(&prev, &out));
        assert_true(out.obj < n);
        assert_false(seen[out.obj]);
        seen[out.obj] = 1;
        assert_int_equal(out.seq, out.obj);
        assert_int_equal(out.tag, out.obj * 3);
        assert_true(out.time == (double)((out.obj * 7) % 13));
        prev = out;
        count++;
    }
    assert_int_equal(count, n);
    free(seen);
}

TEST(test_alloc_failure)
{
    eq_queue q;
    eq_event e = {.time = 0.5};
    const eq_event *heap = NULL;
    size_t cap = 0;
    uint32_t n;

    /* eq_init with a hint that cannot be allocated: -1, empty and usable */
    herd_alloc_fail_after(0);
    assert_int_equal(eq_init(&q, 10), -1);
    assert_int_equal(eq_len(&q), 0);
    assert_null(eq_peek(&q));
    assert_int_equal(eq_pop(&q, &e), -1);
    assert_int_equal(eq_push(&q, &e), -1); /* first growth fails too */
    assert_int_equal(eq_len(&q), 0);
    herd_alloc_fail_after(-1);
    eq_free(&q);

    /* growth failing at the 1st, 2nd, 3rd, 4th resize: the queue is unchanged,
     * and once allocation works again it carries on with the next seq */
    for (n = 0; n < 4; n++) {
        uint32_t len = 0, k;

        assert_int_equal(eq_init(&q, 0), 0);
        herd_alloc_fail_after(n);
        for (;;) {
            eq_event f = {.time = (double)((len * 7) % 13), .obj = len,
                          .tag = len * 3};

            if (q.len == q.cap) { /* this push must grow */
                heap = q.heap;
                cap = q.cap;
                if (eq_push(&q, &f) == -1)
                    break;
                assert_true(q.cap > cap);
            } else {
                assert_int_equal(eq_push(&q, &f), 0);
            }
            len++;
        }
        /* n growths succeeded (64, 128, 256, ...) and the queue is full */
        assert_int_equal(len, n ? 64u << (n - 1) : 0);
        assert_int_equal(eq_len(&q), len);
        assert_int_equal(q.cap, cap);
        assert_ptr_equal(q.heap, heap);
        assert_heap_ok(&q);
        for (k = 0; k < 5; k++) /* failing again changes nothing */
            assert_int_equal(eq_push(&q, &e), -1);
        assert_int_equal(eq_len(&q), len);
        herd_alloc_fail_after(-1);
        /* obj = len must get seq = len: the failed pushes used no seq */
        fill_from(&q, len, len + 10);
        drain_check(&q, len + 10);
        eq_free(&q);
    }
}

/* ------------------------------------------------- ladder against heap */

/* Delay generators for the ladder runs; each returns a delay >= 0 from
 * the last popped time (or, for LD_ANY, a time of its own). */
enum {
    LD_TIES,  /* delays 0, 0.5, 1, 0.1 + 0.2, 0.3: most events tie */
    LD_SPAN,  /* log-uniform in [1e-9, 1e7] s, and 0 */
    LD_FAR,   /* ~ 10 ms hops, 5% sleeps up to 60 s, 1% at 1e7 s */
    LD_BURST, /* phases of thousands of events at one time, then spread */
    LD_ANY,   /* times from tie_time(), before the last pop too */
    LD_COUNT
};

static double ladder_delay(uint64_t *s, int mode, uint64_t i)
{
    volatile double a = 0.1, b = 0.2;
    double u = unif(s);

    switch (mode) {
    case LD_TIES:
        switch (below(s, 6)) {
        case 0:
        case 1:
            return 0;
        case 2:
            return 0.5;
        case 3:
            return 1;
        case 4:
            return a + b;
        default:
            return 0.3;
        }
    case LD_SPAN:
        return u < 0.05 ? 0 : pow(10.0, -9.0 + 16.0 * unif(s));
    case LD_FAR:
        if (u < 0.01)
            return 1e7 * (1 + unif(s));
        if (u < 0.06)
            return 60 * unif(s);
        return 0.01 + 0.002 * (unif(s) - 0.5);
    case LD_BURST:
        return (i / 4096) % 2 ? 0 : 5 * unif(s);
    default:
        return 0;
    }
}

/* Runs nops random pushes and pops on a ladder and a heap in lock step:
 * every pop must give the same event (time, seq, payload).  The push
 * probability alternates between fill and drain phases of 2^10..2^15
 * operations. */
static void ladder_vs_heap(uint64_t seed, size_t nops, int mode)
{
    uint64_t s = seed;
    eq_queue h;
    lq_queue l;
    ck_pool pool;
    double now = 0, p_push = 0.3;
    size_t i, peak = 0, phase_end = 0;

    ck_pool_init(&pool);
    assert_int_equal(eq_init(&h, 0), 0);
    assert_int_equal(lq_init(&l, &pool), 0);
    for (i = 0; i < nops; i++) {
        if (i == phase_end) {
            p_push = p_push > 0.5 ? 0.3 : 0.7;
            phase_end += (size_t)1024 << below(&s, 6);
        }
        if (eq_len(&h) == 0 || unif(&s) < p_push) {
            double t = mode == LD_ANY ? tie_time(&s) : now + ladder_delay(&s, mode, i);
            eq_event e = random_payload(&s, t);

            assert_int_equal(eq_push(&h, &e), 0);
            assert_int_equal(lq_push(&l, &e), 0);
            if (eq_len(&h) > peak)
                peak = eq_len(&h);
        } else {
            eq_event want, got;
            const eq_event *top = lq_peek(&l);

            assert_non_null(top);
            assert_int_equal(eq_pop(&h, &want), 0);
            assert_event_equal(top, &want);
            assert_int_equal(lq_pop(&l, &got), 0);
            assert_event_equal(&got, &want);
            assert_true(got.aux == want.aux);
            now = got.time;
        }
        assert_int_equal(lq_len(&l), eq_len(&h));
    }
    while (eq_len(&h)) {
        eq_event want, got;

        assert_int_equal(eq_pop(&h, &want), 0);
        assert_int_equal(lq_pop(&l, &got), 0);
        assert_event_equal(&got, &want);
    }
    assert_int_equal(lq_len(&l), 0);
    assert_null(lq_peek(&l));
    assert_int_equal(lq_pop(&l, &(eq_event){0}), -1);
    assert_true(peak > 2000); /* it grew past the small-queue regime */
    lq_free(&l);
    eq_free(&h);
    assert_int_equal(pool.used, 0); /* every chunk came back */
    ck_pool_free(&pool);
}

TEST(test_ladder_vs_heap)
{
    static const uint64_t seeds[3] = {7, 0xfeedface, UINT64_C(0x0123456789abcdef)};
    int mode;
    size_t k;

    for (mode = 0; mode < LD_COUNT; mode++)
        for (k = 0; k < 3; k++)
            ladder_vs_heap(seeds[k] + (uint64_t)mode, 100000, mode);
}

/* A large fill and drain: 300,000 events with delays over 16 decades,
 * then held and popped in order (many rungs, spills and the coarse-bucket regime). */
TEST(test_ladder_large)
{
    uint64_t s = 99;
    eq_queue h;
    lq_queue l;
    ck_pool pool;
    size_t i, n = 300000;
    double now = 0;

    ck_pool_init(&pool);
    assert_int_equal(eq_init(&h, n), 0);
    assert_int_equal(lq_init(&l, &pool), 0);
    for (i = 0; i < n; i++) {
        eq_event e = random_payload(&s, ladder_delay(&s, LD_SPAN, i));

        assert_int_equal(eq_push(&h, &e), 0);
        assert_int_equal(lq_push(&l, &e), 0);
    }
    /* hold: pop one, push one, as a simulation does */
    for (i = 0; i < 2 * n; i++) {
        eq_event want, got, e;

        assert_int_equal(eq_pop(&h, &want), 0);
        assert_int_equal(lq_pop(&l, &got), 0);
        assert_event_equal(&got, &want);
        now = got.time;
        e = random_payload(&s, now + ladder_delay(&s, i % 2 ? LD_FAR : LD_SPAN, i));
        assert_int_equal(eq_push(&h, &e), 0);
        assert_int_equal(lq_push(&l, &e), 0);
    }
    /* memory: the chunks in use are the events plus a few percent */
    assert_true(pool.peak * CK_EVENTS < n + n / 4 + 4096);
    for (i = 0; i < n; i++) {
        eq_event want, got;

        assert_int_equal(eq_pop(&h, &want), 0);
        assert_int_equal(lq_pop(&l, &got), 0);
        assert_event_equal(&got, &want);
    }
    assert_int_equal(lq_len(&l), 0);
    lq_free(&l);
    eq_free(&h);
    ck_pool_free(&pool);
}

TEST(test_ladder_ties_fifo)
{
    /* 20,000 events at one time, pushed in between pops of earlier ones,
     * come out in push order: a bucket that cannot be split goes to Bottom
     * whole, in seq order */
    lq_queue l;
    ck_pool pool;
    eq_event out;
    uint32_t i, next = 0;

    ck_pool_init(&pool);
    assert_int_equal(lq_init(&l, &pool), 0);
    for (i = 0; i < 20000; i++) {
        eq_event e = {.time = 5.0, .obj = i};
        eq_event f = {.time = 4.0 + (double)i / 20000.0, .obj = 1000000 + i};

        assert_int_equal(lq_push(&l, &e), 0);
        assert_int_equal(lq_push(&l, &f), 0);
    }
    while (lq_pop(&l, &out) == 0) {
        if (out.obj >= 1000000)
            continue;
        assert_true(out.time == 5.0);
        assert_int_equal(out.obj, next);
        next++;
    }
    assert_int_equal(next, 20000);
    lq_free(&l);
    ck_pool_free(&pool);
}

TEST(test_ladder_alloc_failure)
{
    /* With the n-th allocation failing, pushes and pops fail cleanly: a
     * failed push leaves the queue unchanged (and uses no seq), a failed
     * fill leaves it valid; once allocation works again, everything comes
     * out in heap order. */
    long n, used = 0;
    int runs_failed = 0;

    for (n = 0; n < 400; n++) {
        uint64_t s = 1234 + (uint64_t)n;
        eq_queue h;
        lq_queue l;
        ck_pool pool;
        size_t i, failures = 0;
        double now = 0;

        ck_pool_init(&pool);
        assert_int_equal(eq_init(&h, 30000), 0); /* the oracle never grows */
        herd_alloc_fail_after(n);
        if (lq_init(&l, &pool) != 0) {
            herd_alloc_fail_after(-1);
            lq_free(&l); /* safe after a failed init */
            eq_free(&h);
            ck_pool_free(&pool);
            continue;
        }
        for (i = 0; i < 30000; i++) {
            if (eq_len(&h) == 0 || i % 3 != 0) {
                eq_event e = random_payload(&s, now + ladder_delay(&s, LD_FAR, i));
                size_t before = lq_len(&l);
                uint64_t seq = l.next_seq;

                if (lq_push(&l, &e) != 0) {
                    failures++;
                    assert_int_equal(lq_len(&l), before);
                    assert_int_equal(l.next_seq, seq);
                    continue;
                }
                assert_int_equal(eq_push(&h, &e), 0);
            } else {
                eq_event want, got;

                if (lq_pop(&l, &got) != 0) {
                    failures++;
                    assert_int_equal(lq_len(&l), eq_len(&h));
                    continue;
                }
                assert_int_equal(eq_pop(&h, &want), 0);
                assert_event_equal(&got, &want);
                now = got.time;
            }
        }
        used = herd_alloc_fail_after(-1);
        runs_failed += failures > 0;
        while (eq_len(&h)) {
            eq_event want, got;

            assert_int_equal(eq_pop(&h, &want), 0);
            assert_int_equal(lq_pop(&l, &got), 0);
            assert_event_equal(&got, &want);
        }
        lq_free(&l);
        eq_free(&h);
        ck_pool_free(&pool);
        if (!failures && used <= n)
            break; /* the run needed at most n allocations: every site was seen */
    }
    assert_true(runs_failed >= 5);
}

/* Teardown: a failed assertion must not leave fault injection armed. */
static int disarm(void **state)
{
    (void)state;
    herd_alloc_fail_after(-1);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test_teardown(test_init_hint_no_growth, disarm),
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_key_layout),
        cmocka_unit_test(test_ties_fifo),
        cmocka_unit_test(test_ties_fifo_interleaved),
        cmocka_unit_test_teardown(test_alloc_failure, disarm),
        cmocka_unit_test(test_ladder_vs_heap),
        cmocka_unit_test(test_ladder_large),
        cmocka_unit_test(test_ladder_ties_fifo),
        cmocka_unit_test_teardown(test_ladder_alloc_failure, disarm),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
