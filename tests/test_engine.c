/*
 * test_engine.c - cmocka tests for the engine's run loop (sim.h): the
 * pending-event set merged with the lanes, cancelled timers pruned, source
 * lanes, and the bound on events at one instant.
 *
 * The merge test lets random handlers schedule random events through every
 * path (the set, the zero-delay lane, a fixed-delay lane, a timer lane
 * whose timers are cancelled at random, a source lane) and records the
 * (time, seq) each got: the dispatch order must be exactly that list
 * sorted by (time, seq), cancelled timers left out, for each queue kind,
 * and the event count must include the timers pruned unseen.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sim/base/alloc.h"
#include "../sim/engine/sim.h"
#include "../sim/experiment/experiment.h"
#include "../sim/scenario/scenario.h"

enum { T_PLAIN = 0, T_TIMER, T_SOURCE, T_LOOP };

typedef struct rec {
    double time;
    uint64_t seq;
    uint32_t obj;
} rec;

typedef struct world {
    uint64_t s;
    rec *sched, *disp;
    size_t nsched, ndisp, cap, limit;
    uint8_t *cancelled; /* per obj */
    uint32_t next_obj;
    int fixed, timer;
    uint64_t dead_seen;  /* cancelled timers that were dispatched anyway */
} world;

static uint32_t below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((splitmix64(s) >> 32) * n) >> 32);
}

static void note(world *w, double time, uint64_t seq, uint32_t obj)
{
    assert_true(w->nsched < w->cap);
    w->sched[w->nsched++] = (rec){time, seq, obj};
}

/* Schedules one random event from a handler (or the set-up). */
static void schedule_one(sim_t *sim, world *w)
{
    static const double delays[] = {0, 0, 0.5, 1, 1e-9, 0.25, 0.75, 3};
    uint32_t obj = w->next_obj++;
    uint64_t seq = sim->seq;
    uint32_t how = below(&w->s, 10);
    double d;

    if (how < 5) {
        d = below(&w->s, 50) ? delays[below(&w->s, 8)] : 1e7 * unif(&w->s);
        sim_schedule(sim, d, T_PLAIN, obj, 0, 0);
    } else if (how < 7) {
        d = 0.25;
        sim_schedule_lane(sim, w->fixed, T_PLAIN, obj, 0, 0, 0);
    } else {
        d = 0.75;
        sim_schedule_lane(sim, w->timer, T_TIMER, obj, 0, 0, 0);
    }
    assert_false(sim->failed);
    note(w, sim->now + d, seq, obj);
}

static void on_event(sim_t *sim, const eq_event *ev, void *ctx)
{
    world *w = ctx;
    if (ev->type == T_TIMER && w->cancelled[ev->obj]) {
        w->dead_seen++;
        return;
    }
    assert_true(w->ndisp < w->cap);
    w->disp[w->ndisp++] = (rec){ev->time, ev->seq, ev->obj};
    /* cancel a random pending timer now and then */
    if (below(&w->s, 3) == 0 && w->next_obj) {
        uint32_t o = below(&w->s, w->next_obj);
        if (!w->cancelled[o]) {
            w->cancelled[o] = 1;
            sim_lane_dead(sim, w->timer);
        }
    }
    for (uint32_t k = below(&w->s, 3); k > 0 && w->nsched + 4 < w->limit; k--)
        schedule_one(sim, w);
}

static bool timer_dead(const eq_event *ev, void *ctx)
{
    const world *w = ctx;
    return w->cancelled[ev->obj] != 0;
}

static void source_gen(void *ctx, uint64_t i, eq_event *ev)
{
    (void)ctx;
    *ev = (eq_event){.time = (double)(i / 7) * 0.5, .type = T_SOURCE, .obj = 0x80000000u + (uint32_t)i};
}

static int rec_less(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One run of the merge test with queue kind `kind`; returns the dispatch
 * sequence (caller frees). */
static rec *merge_run(int kind, uint64_t seed, size_t limit, size_t *n_out)
{
    sim_t sim;
    world w = {.s = seed, .cap = limit + 4096, .limit = limit};
    w.sched = calloc(w.cap, sizeof *w.sched);
    w.disp = calloc(w.cap, sizeof *w.disp);
    w.cancelled = calloc(w.cap, 1);
    assert_non_null(w.sched);
    assert_non_null(w.disp);
    assert_non_null(w.cancelled);
    assert_int_equal(sim_init_queue(&sim, 1, 0, kind), 0);
    sim_on(&sim, T_PLAIN, on_event, &w);
    sim_on(&sim, T_TIMER, on_event, &w);
    sim_on(&sim, T_SOURCE, on_event, &w);
    w.fixed = sim_lane_for(&sim, 0.25);
    w.timer = sim_timer_lane(&sim, 0.75, timer_dead, &w);
    assert_true(w.fixed >= 0 && w.timer >= 0);
    uint64_t seq0 = sim.seq;
    assert_true(sim_source(&sim, 1000, source_gen, &w) >= 0);
    for (uint64_t i = 0; i < 1000; i++)
        note(&w, (double)(i / 7) * 0.5, seq0 + i, 0x80000000u + (uint32_t)i);
    for (int i = 0; i < 200; i++)
        schedule_one(&sim, &w);
    assert_int_equal(sim_run(&sim, INFINITY), 0);

    /* expected: everything scheduled, sorted; the cancelled timers are the
     * ones missing from the dispatches */
    size_t m = w.nsched;
    rec *want = calloc(m, sizeof *want);
    assert_non_null(want);
    memcpy(want, w.sched, m * sizeof *want);
    qsort(want, m, sizeof *want, rec_less);
    size_t k = 0, j = 0;
    for (size_t i = 0; i < m; i++) {
        if (j < w.ndisp && want[i].seq == w.disp[j].seq) {
            assert_true(want[i].time == w.disp[j].time);
            assert_int_equal(want[i].obj, w.disp[j].obj);
            j++;
        } else {
            assert_true(want[i].obj < 0x80000000u && w.cancelled[want[i].obj]);
            k++;
        }
    }
    assert_int_equal(j, w.ndisp);
    /* every event was dispatched or pruned, and counted either way */
    assert_int_equal(sim.events, w.nsched);
    assert_true(k > w.dead_seen); /* some were pruned unseen */
    assert_true(w.dead_seen > 0);    /* and some dispatched, then skipped */
    *n_out = w.ndisp;
    sim_free(&sim);
    free(w.sched);
    free(w.cancelled);
    free(want);
    return w.disp;
}

TEST(test_lanes_merge_in_order)
{
    static const uint64_t seeds[] = {1, 2, 0xabcdef};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        size_t n0, n1;
        rec *a = merge_run(SIM_QUEUE_LADDER, seeds[i], 300000, &n0);
        rec *b = merge_run(SIM_QUEUE_HEAP, seeds[i], 300000, &n1);
        assert_int_equal(n0, n1);
        assert_true(n0 > 100000);
        for (size_t k = 0; k < n0; k++)
            assert_int_equal(a[k].seq, b[k].seq);
        free(a);
        free(b);
    }
}

/* Timers cancelled as fast as they are set: the lane stays short (pruned)
 * while every pruned timer still counts as an event. */
typedef struct churn {
    uint32_t *tag; /* per obj: the live timer's tag */
    int lane;
    uint64_t fired, max_len;
    uint32_t n, rounds;
} churn;

static bool churn_dead(const eq_event *ev, void *ctx)
{
    const churn *c = ctx;
    return c->tag[ev->obj] != ev->tag;
}

static void churn_timer(sim_t *sim, const eq_event *ev, void *ctx)
{
    churn *c = ctx;
    (void)sim;
    if (c->tag[ev->obj] == ev->tag)
        c->fired++;
}

static void churn_tick(sim_t *sim, const eq_event *ev, void *ctx)
{
    churn *c = ctx;
    uint32_t o = ev->obj;
    if (c->tag[o]) /* cancel the previous timer */
        sim_lane_dead(sim, c->lane);
    c->tag[o]++;
    sim_schedule_lane(sim, c->lane, 1, o, c->tag[o], 0, 0);
    if (sim->lane[c->lane].q.len > c->max_len)
        c->max_len = sim->lane[c->lane].q.len;
    if (ev->arg + 1 < (int32_t)c->rounds)
        sim_schedule(sim, 0.001 * (1 + (o % 7)), 0, o, 0, ev->arg + 1);
}

TEST(test_timer_lane_pruned)
{
    churn c = {.n = 5000, .rounds = 200};
    sim_t sim;
    c.tag = calloc(c.n, sizeof *c.tag);
    assert_non_null(c.tag);
    assert_int_equal(sim_init(&sim, 3, 0), 0);
    sim_on(&sim, 0, churn_tick, &c);
    sim_on(&sim, 1, churn_timer, &c);
    c.lane = sim_timer_lane(&sim, 10.0, churn_dead, &c);
    for (uint32_t i = 0; i < c.n; i++)
        sim_schedule(&sim, 0, 0, i, 0, 0);
    assert_int_equal(sim_run(&sim, INFINITY), 0);
    /* each client's last timer fires, the others were cancelled */
    assert_int_equal(c.fired, c.n);
    /* n * rounds ticks and as many timers, all counted */
    assert_int_equal(sim.events, 2ull * c.n * c.rounds);
    /* without pruning the lane would hold ~ n * 10 s / 4 ms timers */
    assert_true(c.max_len < 4ull * c.n + 4096);
    sim_free(&sim);
    free(c.tag);
}

/* Pruned timers past the horizon are not counted: they would never run. */
TEST(test_timer_lane_horizon)
{
    churn c = {.n = 3000, .rounds = 50};
    sim_t sim;
    c.tag = calloc(c.n, sizeof *c.tag);
    assert_non_null(c.tag);
    assert_int_equal(sim_init(&sim, 3, 0), 0);
    sim_on(&sim, 0, churn_tick, &c);
    sim_on(&sim, 1, churn_timer, &c);
    c.lane = sim_timer_lane(&sim, 10.0, churn_dead, &c);
    for (uint32_t i = 0; i < c.n; i++)
        sim_schedule(&sim, 0, 0, i, 0, 0);
    assert_int_equal(sim_run(&sim, 5.0), 0);
    /* every tick ran (all before 0.4 s); no timer is due before 5 s */
    assert_int_equal(c.fired, 0);
    assert_int_equal(sim.events, (uint64_t)c.n * c.rounds);
    sim_free(&sim);
    free(c.tag);
}

/* Pruning in place, layout by layout: N timers due at t = 1 on a lane;
 * when the first fires (the lane's head chunk is then partly popped),
 * pattern p cancels some of the others and one more timer is scheduled,
 * which prunes.  The rest must fire in order, each cancelled one counted
 * once, whatever chunks the kept ones end up in. */
typedef struct layout {
    uint8_t *dead;
    uint32_t n, *fired, nfired;
    int lane, pattern;
} layout;

static bool layout_dead(const eq_event *ev, void *ctx)
{
    const layout *L = ctx;
    return L->dead[ev->obj];
}

static bool layout_pattern(int p, uint32_t i, uint32_t n)
{
    switch (p) {
    case 0: return true;                     /* all */
    case 1: return i % 2 == 0;               /* every other */
    case 2: return i % 20 != 19;             /* all but one per chunk's worth */
    case 3: return i < n - 1;                /* all but the last */
    case 4: return i > 40;                   /* keep the first chunks whole */
    case 5: return i % 7 != 0 || i > n / 2;  /* scattered, then a dead tail */
    default: return i != 2;                  /* all but the new head-chunk's first */
    }
}

static void layout_timer(sim_t *sim, const eq_event *ev, void *ctx)
{
    layout *L = ctx;
    assert_false(L->dead[ev->obj]);
    L->fired[L->nfired++] = ev->obj;
    if (ev->obj != 0)
        return;
    uint32_t ndead = 0;
    for (uint32_t i = 2; i < L->n; i++)
        if (layout_pattern(L->pattern, i, L->n)) {
            L->dead[i] = 1;
            ndead++;
        }
    for (uint32_t k = 0; k < ndead; k++)
        sim_lane_dead(sim, L->lane);
    size_t before = sim->lane[L->lane].q.len;
    sim_schedule_lane(sim, L->lane, 1, L->n, 0, 0, 0); /* prunes */
    assert_true(sim->lane[L->lane].q.len == before - ndead + 1);
}

TEST(test_timer_lane_prune_layouts)
{
    for (int p = 0; p < 7; p++) {
        layout L = {.n = 3001, .pattern = p};
        L.dead = calloc(L.n + 1, 1);
        L.fired = calloc(L.n + 1, sizeof *L.fired);
        assert_true(L.dead && L.fired);
        sim_t sim;
        assert_int_equal(sim_init(&sim, 9, 0), 0);
        sim_on(&sim, 1, layout_timer, &L);
        L.lane = sim_timer_lane(&sim, 1.0, layout_dead, &L);
        for (uint32_t i = 0; i < L.n; i++)
            sim_schedule_lane(&sim, L.lane, 1, i, 0, 0, 0);
        assert_int_equal(sim_run(&sim, INFINITY), 0);
        /* the live ones in order, then the one scheduled last */
        uint32_t k = 0;
        for (uint32_t i = 0; i <= L.n; i++)
            if (!L.dead[i])
                assert_int_equal(L.fired[k++], i);
        assert_int_equal(k, L.nfired);
        assert_int_equal(sim.events, (uint64_t)L.n + 1);
        assert_int_equal(sim.lane[L.lane].q.len, 0);
        assert_int_equal(sim.pool.used, 0); /* every chunk went back */
        sim_free(&sim);
        free(L.dead);
        free(L.fired);
    }
}

static void loop_forever(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)ctx;
    sim_schedule(sim, 0, T_LOOP, ev->obj, 0, 0);
}

TEST(test_same_instant_bound)
{
    for (int kind = 0; kind < SIM_QUEUE_COUNT; kind++) {
        sim_t sim;
        assert_int_equal(sim_init_queue(&sim, 5, 0, kind), 0);
        sim_on(&sim, T_LOOP, loop_forever, NULL);
        sim_set_same_time_limit(&sim, 1000);
        sim_schedule(&sim, 2.5, T_LOOP, 0, 0, 0);
        assert_int_equal(sim_run(&sim, INFINITY), -1);
        assert_int_equal(sim.error, SIM_ERR_STUCK);
        assert_true(sim.failed);
        assert_true(sim.now == 2.5);
        assert_int_equal(sim.events, 1000);
        assert_non_null(strstr(sim_error_text(sim.error), "instant"));
        sim_free(&sim);
    }
    /* the default bound: 1e7 events at one instant */
    sim_t sim;
    assert_int_equal(sim_init(&sim, 5, 0), 0);
    sim_on(&sim, T_LOOP, loop_forever, NULL);
    sim_schedule(&sim, 0, T_LOOP, 0, 0, 0);
    assert_int_equal(sim_run(&sim, INFINITY), -1);
    assert_int_equal(sim.error, SIM_ERR_STUCK);
    assert_int_equal(sim.events, SIM_SAME_TIME_LIMIT);
    sim_free(&sim);
}

/* Time advancing by a little each time is not stuck, however long. */
static void creep(sim_t *sim, const eq_event *ev, void *ctx)
{
    (void)ctx;
    if (ev->arg < 5000)
        sim_schedule(sim, ev->arg % 100 ? 0 : 1e-9, T_LOOP, 0, 0, ev->arg + 1);
}

TEST(test_same_instant_resets)
{
    sim_t sim;
    assert_int_equal(sim_init(&sim, 5, 0), 0);
    sim_on(&sim, T_LOOP, creep, NULL);
    sim_set_same_time_limit(&sim, 150);
    sim_schedule(&sim, 0, T_LOOP, 0, 0, 0);
    assert_int_equal(sim_run(&sim, INFINITY), 0);
    assert_int_equal(sim.events, 5001);
    sim_free(&sim);
}

static void set(scn_config *c, const char *kv)
{
    char err[SCN_ERR_MAX];
    if (scn_set(c, kv, "test", err) != 0)
        fail_msg("%s", err);
}

/* Through the whole stack: immediate retries with no delay against a
 * server that refuses for ever keep the clock at 0; the run fails with a
 * message instead of hanging, and no output appears. */
/* A source of no events (a trace that drew no arrival) is a legitimate
 * lane: it never fires, takes no sequence number, and the run ends. */
static void never_called(void *ctx, uint64_t i, eq_event *ev)
{
    (void)ctx;
    (void)i;
    (void)ev;
    fail();
}

TEST(test_empty_source)
{
    sim_t sim;
    assert_int_equal(sim_init_queue(&sim, 1, 0, 0), 0);
    uint64_t seq0 = sim.seq;
    assert_true(sim_source(&sim, 0, never_called, NULL) >= 0);
    assert_int_equal(sim.seq, seq0);
    assert_int_equal(sim_run(&sim, INFINITY), 0);
    assert_int_equal(sim.events, 0);
    sim_free(&sim);
}

TEST(test_stuck_run_is_reported)
{
    scn_config c;
    scn_defaults(&c);
    set(&c, "clients.count=3");
    set(&c, "run.strategies=immediate");
    set(&c, "run.replications=1");
    set(&c, "retry.max_attempts=0");
    set(&c, "network.delay_s=constant(0)");
    set(&c, "outage 1.start_s=0");
    set(&c, "outage 1.end_s=1000");
    set(&c, "outage 1.status=connection_refused");
    char dir[64], err[1024];
    snprintf(dir, sizeof dir, "/tmp/herd-stuck-%d", (int)getpid());
    exp_options opt = {.outdir = dir, .quiet = 1, .jobs = 1};
    assert_int_equal(exp_run(&c, "test", &opt, err, sizeof err), -1);
    assert_non_null(strstr(err, "stopped advancing at t = 0 s"));
    assert_non_null(strstr(err, "immediate replication 0"));
    FILE *f = fopen(dir, "r");
    assert_null(f); /* nothing published */
}

TEST(test_queue_names)
{
    assert_int_equal(sim_queue_parse("ladder"), SIM_QUEUE_LADDER);
    assert_int_equal(sim_queue_parse("heap"), SIM_QUEUE_HEAP);
    assert_int_equal(sim_queue_parse("calendar"), -1);
    assert_string_equal(sim_queue_name(SIM_QUEUE_LADDER), "ladder");
    assert_string_equal(sim_queue_name(SIM_QUEUE_HEAP), "heap");
    assert_null(sim_queue_name(SIM_QUEUE_COUNT));
    assert_null(sim_queue_name(-1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lanes_merge_in_order),
        cmocka_unit_test(test_timer_lane_pruned),
        cmocka_unit_test(test_timer_lane_horizon),
        cmocka_unit_test(test_timer_lane_prune_layouts),
        cmocka_unit_test(test_same_instant_bound),
        cmocka_unit_test(test_same_instant_resets),
        cmocka_unit_test(test_stuck_run_is_reported),
        cmocka_unit_test(test_empty_source),
        cmocka_unit_test(test_queue_names),
    };
    return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
