/*
 * sim.c - the run loop, lanes and the choice of pending-event set (see
 * sim.h).
 *
 * Invariant: sim->now never decreases; every event popped has
 * time >= the previous one (asserted), because sim_schedule only accepts
 * non-negative delays and a source's times do not decrease.
 *
 * Every lane caches its next event in lane->head (time +inf when empty),
 * so the loop compares the set's minimum with each head and takes the
 * smallest (time, seq).
 */
#include "sim.h"

#include "../base/alloc.h"

#include <assert.h>
#include <math.h>
#include <string.h>

static const char *const queue_names[SIM_QUEUE_COUNT] = {"ladder", "heap", "radix"};

int sim_queue_parse(const char *name)
{
    for (int k = 0; k < SIM_QUEUE_COUNT; k++)
        if (!strcmp(name, queue_names[k]))
            return k;
    return -1;
}

const char *sim_queue_name(int k)
{
    return k >= 0 && k < SIM_QUEUE_COUNT ? queue_names[k] : NULL;
}

const char *sim_error_text(sim_error e)
{
    switch (e) {
    case SIM_OK:
        return "no error";
    case SIM_ERR_MEMORY:
        return "out of memory";
    case SIM_ERR_STUCK:
        return "too many events at one simulated instant (time does not advance)";
    }
    return "unknown error";
}

int sim_init(sim_t *sim, uint64_t replication_seed, size_t hint)
{
    return sim_init_queue(sim, replication_seed, hint, SIM_QUEUE_LADDER);
}

int sim_init_queue(sim_t *sim, uint64_t replication_seed, size_t hint, int kind)
{
    memset(sim, 0, sizeof *sim);
    assert(kind >= 0 && kind < SIM_QUEUE_COUNT);
    sim->qkind = kind;
    sim->until = INFINITY;
    sim->zero_lane = -1;
    sim->same_time_limit = SIM_SAME_TIME_LIMIT;
    ck_pool_init(&sim->pool);
    int rc = 0;
    switch (kind) {
    case SIM_QUEUE_HEAP:
        rc = eq_init(&sim->heap, hint);
        break;
    case SIM_QUEUE_RADIX:
        rc = rq_init(&sim->radix, &sim->pool);
        break;
    default:
        rc = lq_init(&sim->ladder, &sim->pool);
        break;
    }
    if (rc != 0) {
        sim_free(sim);
        return -1;
    }
    if (rng_init(&sim->rng, replication_seed) != 0) {
        sim_free(sim);
        return -1;
    }
    return 0;
}

void sim_free(sim_t *sim)
{
    if (!sim)
        return;
    eq_free(&sim->heap);
    if (sim->ladder.pool)
        lq_free(&sim->ladder);
    if (sim->radix.pool)
        rq_free(&sim->radix);
    sim->nlanes = 0;
    sim->zero_lane = -1;
    ck_pool_free(&sim->pool); /* every lane's chunks with it */
    rng_free(&sim->rng);
}

void sim_on(sim_t *sim, uint32_t type, sim_handler h, void *ctx)
{
    assert(type < SIM_MAX_TYPES);
    sim->handler[type] = h;
    sim->ctx[type] = ctx;
}

static inline int queue_push(sim_t *sim, const eq_event *ev)
{
    switch (sim->qkind) {
    case SIM_QUEUE_HEAP:
        return eq_push_seq(&sim->heap, ev);
    case SIM_QUEUE_RADIX:
        return rq_push_seq(&sim->radix, ev);
    default:
        return lq_push_seq(&sim->ladder, ev);
    }
}

static int new_lane(sim_t *sim, int kind, double delay, int narrow)
{
    if (sim->nlanes == SIM_MAX_LANES)
        return -1;
    sim_lane *l = &sim->lane[sim->nlanes];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->delay = delay;
    l->head.time = INFINITY;
    ck_fifo_init(&l->q, narrow);
    return sim->nlanes++;
}

/* Appends ev (seq set) to lane l: into head if the lane is empty. */
static inline int lane_put(sim_t *sim, sim_lane *l, const eq_event *ev)
{
    if (l->head.time == INFINITY && !l->q.len) {
        l->head = *ev;
        return 0;
    }
    return ck_fifo_push(&l->q, &sim->pool, ev);
}

void sim_schedule(sim_t *sim, double delay, uint32_t type, uint32_t obj,
                  uint32_t tag, int32_t arg)
{
    sim_schedule_aux(sim, delay, type, obj, tag, arg, 0);
}

void sim_schedule_aux(sim_t *sim, double delay, uint32_t type, uint32_t obj,
                      uint32_t tag, int32_t arg, float aux)
{
    assert(delay >= 0 && isfinite(delay));
    assert(type < SIM_MAX_TYPES && sim->handler[type]);
    eq_event ev = {.time = sim->now + delay, .seq = sim->seq, .type = type, .obj = obj, .tag = tag,
                   .arg = arg, .aux = aux};
    int rc;
    if (delay == 0 && (sim->zero_lane >= 0 || (sim->zero_lane = sim_lane_for(sim, 0)) >= 0))
        rc = lane_put(sim, &sim->lane[sim->zero_lane], &ev); /* due now: FIFO among themselves */
    else
        rc = queue_push(sim, &ev);
    if (rc != 0) {
        sim_fail(sim);
        return;
    }
    sim->seq++;
}

int sim_lane_for(sim_t *sim, double delay)
{
    assert(delay >= 0 && isfinite(delay));
    for (int i = 0; i < sim->nlanes; i++)
        if (sim->lane[i].kind == SIM_LANE_FIXED && sim->lane[i].delay == delay)
            return i;
    return new_lane(sim, SIM_LANE_FIXED, delay, 0);
}

int sim_timer_lane(sim_t *sim, double delay, sim_dead_fn dead, void *ctx)
{
    assert(delay > 0 && isfinite(delay) && dead);
    int i = new_lane(sim, SIM_LANE_TIMER, delay, 1);
    if (i >= 0) {
        sim->lane[i].dead = dead;
        sim->lane[i].dead_ctx = ctx;
    }
    return i;
}

/* Drops the cancelled timers of lane l, counting each that the current
 * run would have dispatched.  Order kept; O(entries); the chunks the old
 * list frees are the ones the new one takes, so memory does not grow. */
static int prune(sim_t *sim, sim_lane *l)
{
    ck_fifo kept;
    ck_fifo_init(&kept, 1);
    eq_event e;
    uint64_t dropped = 0;
    while (ck_fifo_pop(&l->q, &sim->pool, &e) == 0) {
        if (l->dead(&e, l->dead_ctx)) {
            dropped += e.time <= sim->until;
            continue;
        }
        if (ck_fifo_push(&kept, &sim->pool, &e) != 0) {
            /* cannot happen (a chunk was freed before one is needed), but
             * never lose a timer: give up pruning with what is left */
            ck_fifo_clear(&kept, &sim->pool);
            return -1;
        }
    }
    l->q = kept;
    while (l->head.time != INFINITY && l->dead(&l->head, l->dead_ctx)) {
        dropped += l->head.time <= sim->until;
        if (ck_fifo_pop(&l->q, &sim->pool, &l->head) != 0)
            l->head.time = INFINITY;
    }
    sim->events += dropped;
    l->ndead = 0;
    return 0;
}

void sim_schedule_lane(sim_t *sim, int lane, uint32_t type, uint32_t obj, uint32_t tag, int32_t arg,
                       float aux)
{
    assert(lane >= 0 && lane < sim->nlanes);
    assert(type < SIM_MAX_TYPES && sim->handler[type]);
    sim_lane *l = &sim->lane[lane];
    assert(l->kind != SIM_LANE_SOURCE);
    assert(l->kind != SIM_LANE_TIMER || (arg == 0 && aux == 0));
    if (l->kind == SIM_LANE_TIMER && l->ndead >= 1024 && 2 * l->ndead >= l->q.len && prune(sim, l) != 0) {
        sim_fail(sim);
        return;
    }
    eq_event ev = {.time = sim->now + l->delay, .seq = sim->seq, .type = type, .obj = obj, .tag = tag,
                   .arg = arg, .aux = aux};
    if (lane_put(sim, l, &ev) != 0) {
        sim_fail(sim);
        return;
    }
    sim->seq++;
}

int sim_source(sim_t *sim, uint64_t count, sim_source_fn gen, void *ctx)
{
    assert(count > 0);
    int i = new_lane(sim, SIM_LANE_SOURCE, 0, 0);
    if (i < 0)
        return -1;
    sim_lane *l = &sim->lane[i];
    l->gen = gen;
    l->gen_ctx = ctx;
    l->gn = count;
    l->gseq = sim->seq;
    sim->seq += count;
    gen(ctx, 0, &l->head);
    l->head.seq = l->gseq;
    assert(l->head.time >= sim->now);
    return i;
}

/* Advances lane l past its head. */
static inline void lane_next(sim_t *sim, sim_lane *l)
{
    if (l->kind == SIM_LANE_SOURCE) {
        if (++l->gi < l->gn) {
            l->gen(l->gen_ctx, l->gi, &l->head);
            l->head.seq = l->gseq + l->gi;
        } else {
            l->head.time = INFINITY;
        }
    } else if (ck_fifo_pop(&l->q, &sim->pool, &l->head) != 0) {
        l->head.time = INFINITY;
    }
}

/* The set's minimum, or NULL if it is empty (or could not be filled: then
 * the simulation is marked failed). */
static inline const eq_event *queue_peek(sim_t *sim)
{
    switch (sim->qkind) {
    case SIM_QUEUE_HEAP:
        return eq_peek(&sim->heap);
    case SIM_QUEUE_RADIX: {
        const eq_event *e = rq_peek(&sim->radix);
        if (!e && sim->radix.len)
            sim_fail(sim);
        return e;
    }
    default: {
        const eq_event *e = lq_peek(&sim->ladder);
        if (!e && sim->ladder.len)
            sim_fail(sim);
        return e;
    }
    }
}

static inline void queue_pop(sim_t *sim, eq_event *out)
{
    switch (sim->qkind) {
    case SIM_QUEUE_HEAP:
        eq_pop(&sim->heap, out);
        break;
    case SIM_QUEUE_RADIX:
        rq_pop(&sim->radix, out);
        break;
    default:
        *out = sim->ladder.bot[sim->ladder.bhead++]; /* peeked: Bottom holds it */
        sim->ladder.len--;
        break;
    }
}

int sim_run(sim_t *sim, double until)
{
    static const eq_event none = {.time = INFINITY, .seq = (1ULL << 56) - 1};
    sim->until = until;
    sim->stopped = sim->failed;
    while (!sim->stopped) {
        /* The earliest of the set's minimum and the lane heads. */
        const eq_event *top;
        sim_lane *from = NULL;
        if (sim->qkind == SIM_QUEUE_RADIX) {
            /* the radix heap may only be peeked when its minimum is due */
            const eq_event *lm = &none;
            for (int i = 0; i < sim->nlanes; i++) {
                sim_lane *l = &sim->lane[i];
                if (eq_before(&l->head, lm)) {
                    lm = &l->head;
                    from = l;
                }
            }
            top = lm;
            if (rq_min_time(&sim->radix) <= lm->time) {
                const eq_event *q = queue_peek(sim);
                if (sim->failed)
                    break;
                if (q && !eq_before(lm, q)) {
                    top = q;
                    from = NULL;
                }
            }
        } else {
            top = queue_peek(sim);
            if (sim->failed)
                break;
            if (!top)
                top = &none;
            for (int i = 0; i < sim->nlanes; i++) {
                sim_lane *l = &sim->lane[i];
                if (eq_before(&l->head, top)) {
                    top = &l->head;
                    from = l;
                }
            }
        }
        if (top->time == INFINITY || top->time > until)
            break;
        eq_event ev;
        if (from) {
            ev = from->head;
            lane_next(sim, from);
        } else {
            queue_pop(sim, &ev);
        }
        assert(ev.time >= sim->now);
        if (ev.time == sim->now) {
            if (++sim->same_time > sim->same_time_limit) {
                sim->error = SIM_ERR_STUCK;
                sim->failed = sim->stopped = true;
                break;
            }
        } else {
            sim->same_time = 1;
        }
        sim->now = ev.time;
        sim->events++;
        sim->handler[ev.type](sim, &ev, sim->ctx[ev.type]);
    }
    return sim->failed ? -1 : 0;
}
